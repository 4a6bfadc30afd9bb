"""``storygraph watch``: lint again on every save, and say what changed.

The scenario files (a union CSV, a workbook, JSON/YAML, each CSV of a folder scenario)
and the configuration in use are watched with watchfiles; the events of one save —
spreadsheet programs write a temporary file and rename it over the original, which is
several events — arrive as one batch after a short quiet time (``debounce``), so one
save gives one lint.  Each round prints the problems first (cards that do not pass,
input issues, lint findings), then how many targets pass, then what changed since the
previous round: the problems that are new and the ones that are fixed.
"""

from __future__ import annotations

import os
import queue
import sys
import threading
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, TextIO

from verdicts.errors import VerdictsError
from verdicts.safe_text import clean

__all__ = ["problems_of", "render_round", "watch", "watched_files"]

#: input forms whose files a folder scenario may hold
_SUFFIXES = {".csv", ".xlsx", ".json", ".yaml", ".yml", ".toml"}


def problems_of(domain, report) -> dict[tuple, str]:
    """Every problem of ``report`` by a stable identity, with its line as shown: a card
    that does not pass (and is not accepted), an input issue, a lint finding that is not
    accepted."""
    out: dict[tuple, str] = {}
    for card in report.cards:
        if card.verdict in domain.passing_verdicts or card.accepted:
            continue
        out[("card", card.key, card.verdict)] = f"{clean(card.verdict)} · {clean(card.key)}  {clean(card.summary)}"
    for issue in report.issues:
        reason = clean(str(issue.reason).split("\n", 1)[0])
        out[("issue", issue.file, issue.line, issue.column, issue.position, reason)] = f"입력 문제 · {clean(issue.where())} — {reason}"
    for finding in report.findings:
        if getattr(finding, "accepted", None):
            continue
        out[("finding", finding.code, finding.target)] = f"{clean(finding.code)} · {clean(finding.target)}  {clean(finding.message)}"
    return out


@dataclass
class Round:
    """What one lint of one target left behind, for the next round's comparison."""

    problems: dict[tuple, str]


def render_round(domain, target: Path, report, previous: Round | None, when: datetime, error: str | None = None) -> tuple[str, Round | None]:
    """The text of one round for ``target`` and the state the next round compares with."""
    head = f"━━ storygraph watch · {when:%H:%M:%S} · {clean(str(target))} ━━\n"
    if error is not None:
        return head + f"읽지 못했습니다: {clean(error)}\n", previous
    problems = problems_of(domain, report)
    cards = sum(1 for k in problems if k[0] == "card")
    issues = sum(1 for k in problems if k[0] == "issue")
    findings = sum(1 for k in problems if k[0] == "finding")
    passing = sum(1 for c in report.cards if c.verdict in domain.passing_verdicts)
    lines = [head]
    if problems:
        parts = ", ".join(f"{name} {n:,}건" for name, n in (("판정", cards), ("입력 문제", issues), ("린트 발견", findings)) if n)
        lines.append(f"문제 {len(problems):,}건({parts})이 있고 끝까지 닿음은 {passing:,}개입니다.\n")
        lines += [f"  {text}\n" for text in problems.values()]
    else:
        lines.append(f"문제가 없습니다. 끝까지 닿음은 {passing:,}개입니다.\n")
    if previous is None:
        lines.append("처음 검사한 결과입니다.\n")
    else:
        new = [text for key, text in problems.items() if key not in previous.problems]
        fixed = [text for key, text in previous.problems.items() if key not in problems]
        if not new and not fixed:
            lines.append("지난 저장과 비교해 달라진 문제는 없습니다.\n")
        elif new and fixed:
            lines.append(f"지난 저장과 비교해 새 문제가 {len(new):,}건 생겼고 {len(fixed):,}건을 고쳤습니다.\n")
        elif new:
            lines.append(f"지난 저장과 비교해 새 문제가 {len(new):,}건 생겼습니다.\n")
        else:
            lines.append(f"지난 저장과 비교해 문제 {len(fixed):,}건을 고쳤습니다.\n")
        lines += [f"  + {text}\n" for text in new]
        lines += [f"  − {text}\n" for text in fixed]
    return "".join(lines), Round(problems)


def watched_files(target: Path, config: str | None) -> tuple[set[Path], set[Path]]:
    """``(folders to watch, files that count)``: a scenario file and its configuration,
    or every table file of a folder scenario and the configuration."""
    files: set[Path] = set()
    folders: set[Path] = set()
    target = Path(os.path.abspath(target))
    if target.is_dir():
        folders.add(target)
        files.update(p for p in target.iterdir() if p.suffix.lower() in _SUFFIXES)
    else:
        folders.add(target.parent)
        files.add(target)
    if config:
        cfg = Path(os.path.abspath(config))
        folders.add(cfg.parent)
        files.add(cfg)
    return folders, files


def watch(domain, targets: list[Path], options: Any, *, out: TextIO = sys.stdout, debounce_ms: int = 400,
          stop: threading.Event | None = None, judge: Callable | None = None) -> int:
    """Lint ``targets``, then again after every save, writing each round to ``out`` until
    ``stop`` is set or Ctrl+C; the exit code is 0 (watching is not a verdict)."""
    import watchfiles

    from verdicts.pipeline import judge_one

    judge = judge or (lambda target: judge_one(domain, target, options, "storygraph"))
    shown = {Path(os.path.abspath(t)): t for t in targets}
    targets = list(shown)
    rounds: dict[Path, Round | None] = {t: None for t in targets}
    clear = out.isatty() and not os.environ.get("TERM", "").startswith("dumb")

    def lint(changed: set[Path] | None) -> set[Path]:  # noqa: ARG001 - every target is linted again
        """Lint the targets whose files changed; return every file that now counts."""
        watched: set[Path] = set()
        parts = []
        for target in targets:
            config = None
            try:
                report, cfg = judge(shown[target])
                config = cfg.source
                text, rounds[target] = render_round(domain, shown[target], report, rounds[target], datetime.now())
            except VerdictsError as exc:
                text, _ = render_round(domain, shown[target], None, rounds[target], datetime.now(), str(exc))
            parts.append(text)
            watched |= watched_files(target, config)[1]
        if clear:
            out.write("\x1b[H\x1b[2J")
        out.write("\n".join(parts))
        out.write("저장하면 다시 검사합니다. 멈추려면 Ctrl+C를 누르세요.\n")
        out.flush()
        return watched

    def stamps(paths: set[Path]) -> dict[Path, tuple[int, int] | None]:
        out: dict[Path, tuple[int, int] | None] = {}
        for p in paths:
            try:
                st = p.stat()
                out[p] = (st.st_mtime_ns, st.st_size)
            except OSError:
                out[p] = None
        return out

    stop = stop or threading.Event()
    batches: queue.Queue = queue.Queue()
    # the folders are known before the first lint: the watcher starts first, so that a
    # save made while the first lint runs is not missed
    folders = set().union(*(watched_files(t, None)[0] for t in targets))
    before = stamps(set().union(*(watched_files(t, None)[1] for t in targets)))
    files: set[Path] = set(before)
    dirs = {t for t in targets if t.is_dir()}

    def counts(change: Any, path: str) -> bool:
        p = Path(path)
        return p in files or (p.parent in dirs and p.suffix.lower() in _SUFFIXES)

    def follow() -> None:
        try:
            for changes in watchfiles.watch(*sorted(map(str, folders)), watch_filter=counts, debounce=debounce_ms, step=50,
                                            stop_event=stop, recursive=False, raise_interrupt=False, yield_on_timeout=False):
                if changes:
                    batches.put(changes)
        finally:
            batches.put(None)

    watcher = threading.Thread(target=follow, name="storygraph-watch", daemon=True)
    watcher.start()
    try:
        files = lint(None) | files
        if stamps(set(before)) != before:  # saved while the first lint ran
            files = lint(None) | files
        while not stop.is_set():
            changes = batches.get()
            if changes is None:
                break
            while not batches.empty():  # saves that came while the last lint ran: one lint for all
                more = batches.get()
                if more is None:
                    stop.set()
                    break
            files = lint(None) | files
    except KeyboardInterrupt:
        pass
    finally:
        stop.set()
    return 0
