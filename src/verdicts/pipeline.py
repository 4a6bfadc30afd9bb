"""One pipeline for every domain: from paths on the command line to a report on
standard output and an exit code.

:func:`judge` is what ``storygraph lint`` and ``verdicts run`` call.  For each input it
finds the domain's configuration, lets the domain judge it (load, analyse, rules, its
checks; :meth:`~verdicts.domain.Domain.finish` adds the acceptances and the schema
check) and writes the report in the chosen format:

* one input: the domain writes it as it is made (:meth:`Domain.stream_to`; storygraph's
  cards of a large scenario are made by every core and streamed);
* several inputs: one process per core takes the next input when free
  (:func:`verdicts.parallel.fork_tasks`); each hands back only its share of the report
  (the text section, the JSON item, the SARIF results) and the report is written in the
  order of the paths, the same bytes as one after the other.

An input that cannot be read at all is a message on stderr and in the report; the
others are still judged; the exit code is the worst (0 nothing fails, 1 findings or
issues, 2 an input could not be read, 3 an automatic self-check failed: the verdicts may
be wrong).
"""

from __future__ import annotations

import codecs
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from .errors import VerdictsError
from .progress import Progress, for_terminal
from .safe_text import clean, continuation

__all__ = ["judge", "judge_one", "write_report_to_stdout", "config_for", "binary_stdout", "tolerant_stdout", "Options"]


@dataclass(frozen=True)
class Options:
    """What the command line chose."""

    format: str | None = None
    config: Path | None = None
    jobs: int | None = None
    quiet: bool = False


def _say(prog: str, message: str) -> None:
    sys.stderr.write(f"{prog}: {continuation(message, '  ')}\n")


def config_for(domain, target: Path, config: Path | None):
    """The configuration for ``target`` (``--config`` or the one found from its folder
    upwards), or the error's text when it cannot be read."""
    from .config import find_config, load_config

    try:
        return load_config(domain, config if config is not None else find_config(domain, target))
    except VerdictsError as exc:
        return str(exc)


class _DecodedOut:
    """A binary stream's ``write`` onto a text stream (UTF-8 pieces, cut anywhere)."""

    def __init__(self, stream):
        self.stream = stream
        self.decoder = codecs.getincrementaldecoder("utf-8")()

    def write(self, data: bytes) -> None:
        self.stream.write(self.decoder.decode(data))


def _stdout_is_utf8() -> bool:
    return (getattr(sys.stdout, "encoding", None) or "utf-8").lower().replace("_", "-") in ("utf-8", "utf8")


def tolerant_stdout() -> None:
    """On a standard output that is not UTF-8, write what its encoding lacks as ``?``
    instead of failing half-way through a report."""
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None and not _stdout_is_utf8():
        reconfigure(errors="replace")


def binary_stdout(format: str):
    """Where a report is written as bytes: standard output's buffer, except for text (and
    GitHub's workflow lines) on a stream that is not UTF-8 (a console in CP949, say),
    which gets the text in its own encoding, a character it cannot show (↳) as ``?``."""
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None and (format in ("json", "sarif") or _stdout_is_utf8()):  # JSON is UTF-8 wherever it goes
        return buffer
    tolerant_stdout()
    return _DecodedOut(sys.stdout)


def judge_one(domain, target: Path, options: Options, prog: str):
    """``(report, config)`` of one input, or raise :class:`VerdictsError`."""
    cfg = config_for(domain, target, options.config)
    if isinstance(cfg, str):
        raise VerdictsError(cfg)
    return domain.judge(target, cfg, progress=for_terminal(options.quiet)), cfg


def write_report_to_stdout(domain, report, format: str) -> None:
    """One report on standard output in ``format``, in pieces."""
    from .reporters import REPORTERS

    out = _coloured(binary_stdout(format), format, domain)
    for piece in REPORTERS[format].pieces(report, domain):
        out.write(piece)
    getattr(out, "flush", sys.stdout.flush)()
    sys.stdout.flush()


def _coloured(out, fmt: str, domain):
    """``out``, colouring the text report line by line on a terminal (``NO_COLOR``
    respected, :mod:`verdicts.colour`)."""
    from .colour import ColourLines, wants_colour

    if fmt == "text" and wants_colour(sys.stdout):
        return ColourLines(out, domain.passing_verdicts)
    return out


def judge(domain, paths: Sequence[Path], options: Options = Options(), *, prog: str | None = None) -> int:
    """Judge every input of ``paths`` (expanded by the domain: storygraph takes folders of
    scenarios) and write one report on standard output; return the exit code."""
    prog = prog or domain.name
    from .files import utf8_name

    try:
        targets = domain.expand_paths(list(paths))
    except VerdictsError as exc:
        _say(prog, str(exc))
        return 2
    for target in targets:  # before any work: a name no report can carry (an EnvironmentFailure, exit 4)
        utf8_name(target)
    if len(targets) > 1:
        return _judge_many(domain, targets, options, prog)
    target = targets[0]
    cfg = config_for(domain, target, options.config)
    fmt = options.format or ("text" if isinstance(cfg, str) else cfg.format)
    try:
        if isinstance(cfg, str):
            raise VerdictsError(cfg)
        code = _stream(domain, target, fmt, cfg, options)
    except VerdictsError as exc:
        _say(prog, str(exc))
        tolerant_stdout()
        # JSON and SARIF stay machine-readable: the error is an item, never plain text
        sys.stdout.write(_combine(domain, [(target, "error", str(exc))], fmt))
        return 2
    sys.stdout.flush()
    return code


def _stream(domain, target: Path, fmt: str, cfg: Any, options: Options) -> int:
    """Judge one input onto standard output; its exit code."""
    progress = for_terminal(options.quiet)
    out = _coloured(binary_stdout(fmt), fmt, domain)
    try:
        return _stream_into(domain, target, fmt, cfg, options, progress, out)
    finally:
        flush = getattr(out, "flush", None)
        if flush is not None:
            flush()


def _stream_into(domain, target: Path, fmt: str, cfg: Any, options: Options, progress, out) -> int:
    """The run of one input, its strategy chosen by the run (:meth:`Domain.stream_to`)."""
    return domain.stream_to(target, out, fmt, cfg, progress=progress, jobs=options.jobs)


def rendered(domain, path: Path, report, fmt: str) -> Any:
    """One input's share of a report on several inputs in ``fmt``: text for text and
    github, the JSON item for json, the SARIF results for sarif (all plain data, so a
    worker process can hand it back); with the text, the numbers of its summary
    (:func:`verdicts.report.report_summary`, added up in the grand total)."""
    from .reporters import REPORTERS
    from .sarif import render_github, sarif_results

    if fmt == "sarif":
        return sarif_results(report, domain)
    if fmt == "github":
        return render_github(report, domain)
    if fmt == "json":
        from .fixing import fixable_count

        data = report.to_json()
        fixable = fixable_count(report, domain.passing_verdicts)
        if fixable:
            data["fixable"] = fixable  # summed over the inputs by merged_json
        return data
    from .report import report_summary

    return REPORTERS["text"].render(report, domain), report_summary(report, domain)


def _combine(domain, pieces: list[tuple[Path, str, Any]], fmt: str) -> str:
    """The report on several inputs from ``(path, "ok" | "error", piece or message)`` in
    ``fmt``; an input that could not be read has its message (text, json) or is left out
    (sarif, github)."""
    from .report import dumps_indented
    from .sarif import render_sarif_results

    ok = [piece for _, state, piece in pieces if state == "ok"]
    if fmt == "sarif":
        return render_sarif_results([result for piece in ok for result in piece], domain)
    if fmt == "github":
        return "".join(ok)
    if fmt == "json":
        return dumps_indented(merged_json(pieces)) + "\n"
    from .report import total_line

    several = len(pieces) > 1
    parts = []
    for p, state, piece in pieces:
        if several:
            parts.append(f"━━ {clean(str(p))} ━━\n")
        parts.append(f"읽지 못했습니다: {continuation(piece, '  ')}\n\n" if state == "error" else piece[0])
        if several:
            parts.append("\n")
    if several:  # one line over every input, the last
        parts.append(total_line([piece[1] for _, state, piece in pieces if state == "ok"], len(pieces)) + "\n")
    return "".join(parts)


#: the lists of a JSON report, in the order a report writes them
JSON_LISTS = ("cards", "issues", "checks", "findings", "inputs")


def merged_json(pieces: list[tuple[Path, str, Any]]) -> dict[str, Any]:
    """The JSON report of several inputs (or of one that could not be read): the same
    object as one input's — ``cards``, ``issues``, ``checks``, ``findings``, ``inputs`` —
    holding every input's items in the order of the paths, each item naming its input
    (``input``) when there are several; an input that could not be read is an input
    issue naming it (``file`` and ``reason``).  One readable input gives its own report
    as it is."""
    if len(pieces) == 1 and pieces[0][1] == "ok":
        return pieces[0][2]
    several = len(pieces) > 1
    merged: dict[str, list[Any]] = {key: [] for key in JSON_LISTS}
    configs = set()
    for path, state, piece in pieces:
        tag = {"input": str(path)} if several else {}
        if state == "error":
            merged["issues"].append({**tag, "file": str(path), "table": None, "line": None, "column": None,
                                     "position": None, "reason": piece})
            continue
        for key in JSON_LISTS:
            merged[key].extend({**tag, **item} for item in piece.get(key, ()))
        configs.add(piece.get("config"))
    out: dict[str, Any] = {key: items for key, items in merged.items() if items or key != "findings"}
    aggregates = [p[2]["aggregate"] for p in pieces if p[1] == "ok" and isinstance(p[2].get("aggregate"), dict)]
    if aggregates and len({a.get("kind") for a in aggregates}) == 1:
        # the domain's aggregate over every input's cards (residue's ratio: the share of defects), before `inputs`
        defects, total = sum(a["defects"] for a in aggregates), sum(a["total"] for a in aggregates)
        value = (round(defects / total, 4) if total else None) if aggregates[0]["kind"] == "ratio" else defects
        inputs = out.pop("inputs")
        out["aggregate"] = {"kind": aggregates[0]["kind"], "defects": defects, "total": total, "value": value}
        out["inputs"] = inputs
    fixable = sum(p[2].get("fixable", 0) for p in pieces if p[1] == "ok" and isinstance(p[2].get("fixable"), int))
    if fixable:  # the problems that carry a fix, over every input, before `inputs` as in one input's report
        inputs = out.pop("inputs")
        out["fixable"] = fixable
        out["inputs"] = inputs
    if len(configs) == 1 and None not in configs:
        out["config"] = configs.pop()  # the one configuration every input used
    return out


def _judge_many(domain, targets: list[Path], options: Options, prog: str) -> int:
    """Several inputs, one process per core taking the next input when free; one report;
    the worst exit code.  The output is the same as judging them one after the other."""
    from .accept import CHECKS_FAILED, checks_failed_message, exit_code, failed_checks
    from .parallel import choose_jobs, fork_tasks

    configs = [config_for(domain, t, options.config) for t in targets]
    # the format: --format, else the first readable configuration's
    fmt = options.format or next((c.format for c in configs if not isinstance(c, str)), "text")
    n = choose_jobs(len(targets), options.jobs, min_per_job=1)
    progress: Progress = for_terminal(options.quiet)
    unit = domain.input_noun
    progress.start(unit, {unit: len(targets)})
    root = os.getpid()

    def one(t: int, w: int) -> tuple[str, Any, int]:
        cfg = configs[t]
        try:
            if isinstance(cfg, str):
                raise VerdictsError(cfg)
            report = domain.judge(targets[t], cfg)
        except VerdictsError as exc:
            outcome: tuple[str, Any, int] = ("error", str(exc), 2)
        else:
            code = exit_code(domain, report, cfg)
            if code == CHECKS_FAILED:
                _say(f"{prog}: {targets[t]}", checks_failed_message(failed_checks(report)))
            outcome = ("ok", rendered(domain, targets[t], report, fmt), code)
        if os.getpid() == root:
            progress.advance(unit, n)  # this process's inputs stand for every process's
        return outcome

    done = fork_tasks(n, len(targets), one)
    progress.complete()
    progress.close()
    for state, message, _ in done:
        if state == "error":
            _say(prog, message)
    tolerant_stdout()
    text = _combine(domain, [(p, state, piece) for p, (state, piece, _) in zip(targets, done)], fmt)
    if fmt == "text":
        from .colour import colour_text, wants_colour

        text = colour_text(text, domain.passing_verdicts) if wants_colour(sys.stdout) else text
    sys.stdout.write(text)
    return max(code for _, _, code in done)


def render_single(domain, target: Path, report_or_error: Any, fmt: str) -> str:
    """The report of one input already judged (or its error message), as the pipeline
    writes it when the domain's extras (an HTML screen, a diagram) needed the report."""
    if isinstance(report_or_error, str):
        return _combine(domain, [(target, "error", report_or_error)], fmt)
    if fmt == "json":
        from .reporters import REPORTERS

        return REPORTERS["json"].render(report_or_error, domain)
    return _combine(domain, [(target, "ok", rendered(domain, target, report_or_error, fmt))], fmt)

