"""Making, checking and writing one large input's cards in batches, on every core.

A domain that judges hundreds of thousands of targets in one input does not keep them
as card objects: it hands the core a :class:`CardPlan` — its targets by kind, how to
build a batch of cards, its checks, and the side tasks (findings) that run beside the
cards — and :func:`stream_cards` shares the batches and the side tasks among the
processes (:func:`verdicts.parallel.fork_tasks`).  Each batch's cards are checked
(every check's part outcome), validated against the schema and written at once: their
JSON or text lines into a file of the process that made them, or, for SARIF and GitHub
annotations, their results handed back as data.  The report is then assembled from the
pieces and written to the stream, byte for byte what the whole-report reporters write
for the same report (the golden tests hold both paths to that).

The domain keeps what is its own — reading, analysing, deciding whether its input may
be streamed at all (an acceptance reaching across batches may not) — and calls
:func:`stream_cards` from its :meth:`~verdicts.domain.Domain.stream_to`.
"""

from __future__ import annotations

import os
from functools import partial
from itertools import accumulate
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .accept import card_fails
from .model import WITHHELD, Card, Finding
from .progress import SILENT, Progress
from .records import Frozen

__all__ = ["CardPlan", "CardBatch", "stream_cards", "BATCH", "MIN_BATCH", "STREAMED_FORMATS"]

#: targets whose cards are made, checked and written together
BATCH = 10_000
#: the fewest targets of a batch when a smaller input is cut into more batches
MIN_BATCH = 1_000
#: the formats :func:`stream_cards` writes
STREAMED_FORMATS = ("json", "text", "sarif", "github")


@dataclass
class CardPlan:
    """What a domain hands the core to stream one input's cards.

    ``build(kind, chunk, progress, step)`` makes the cards of ``chunk`` (items of
    ``targets[kind]``) and returns them with how many were withheld (a needed column is
    missing).  ``check_context(card_dicts)`` is the domain's check context over a
    batch.  ``side_tasks`` run beside the batches, each through ``run_side`` (a list of
    findings).  ``assemble(findings, withheld, checks)`` makes the report without its
    cards: the findings of the side tasks (in task order, added to what the domain found
    before), the withheld counts by kind, and the merged check results.
    """

    targets: dict[str, Sequence[Any]]
    build: Callable[[str, Sequence[Any], Progress, int], tuple[list[Card], int]]
    checks: Iterable[Any]  # gone through twice (a CheckRegistry, say)
    check_context: Callable[[list[dict[str, Any]]], Any]
    assemble: Callable[[list[Finding], dict[str, int], list], Any]
    side_tasks: Sequence[Any] = ()
    run_side: Callable[[Any], list[Finding]] | None = None
    #: what fails the run (the configuration's ``failing_set``; the rule is
    #: :func:`verdicts.accept.card_fails`, the one exit rule's for a card)
    fail_on: frozenset[str] = field(default_factory=frozenset)
    #: the input's table sources, for SARIF locations
    sources: Sequence[Any] = ()
    #: progress labels by kind, for the stage line
    counts: dict[str, int] = field(default_factory=dict)
    #: card key -> ``(root key, heading, the root's own card)`` for the cards of the
    #: domain's ``root_cause_verdict`` (:meth:`verdicts.domain.Domain.root_causes`)
    roots: dict[str, tuple[str, str, bool]] = field(default_factory=dict)


class CardBatch(Frozen):
    """What a process hands back for one batch of cards (pickled)."""

    #: cards withheld (a column they need is missing)
    withheld: int
    #: each check's outcome over the batch, in the order of the plan's checks
    outcomes: list
    #: keys of the cards that failed the schema
    schema_failed: list[str]
    #: whether a card of the batch fails the run under ``fail_on``
    fails: bool
    #: JSON: ``(process, offset, length)`` of the cards' bytes in that process's file;
    #: text: ``(verdict, hedged, sub)`` → ``(count, (process, offset, length), ends)``, ``ends``
    #: where each of the first :data:`~verdicts.report.CARD_CAP` cards' lines end; SARIF/GitHub: the results
    written: Any
    #: text: how many of the batch's problem cards carry a fix with edits (the summary's count)
    fixable: int

    __slots__ = ('withheld', 'outcomes', 'schema_failed', 'fails', 'written', 'fixable')

    def __init__(self, withheld: int, outcomes: list, schema_failed: list[str], fails: bool, written: Any, fixable: int = 0):
        object.__setattr__(self, 'withheld', withheld)
        object.__setattr__(self, 'outcomes', outcomes)
        object.__setattr__(self, 'schema_failed', schema_failed)
        object.__setattr__(self, 'fails', fails)
        object.__setattr__(self, 'written', written)
        object.__setattr__(self, 'fixable', fixable)


def stream_cards(domain, plan: CardPlan, out, format: str, n: int, progress: Progress = SILENT,
                 failing: Callable[[Any], bool] | None = None) -> tuple[Any, bool]:
    """Make, check and write ``plan``'s cards in batches over ``n`` processes, then the
    whole report in ``format`` to the binary stream ``out``.  Returns the report (without
    its cards) and whether the run fails (a card's verdict in ``plan.fail_on``, or
    ``failing(report)``)."""
    if format not in STREAMED_FORMATS:
        raise ValueError(f"format {format!r}: the streamed formats are {', '.join(STREAMED_FORMATS)}")
    from .checks import merge_split, run_checks_part, split_checks
    from .parallel import MAX_TASKS, fork_tasks
    from .fixing import FIXABLE_CARDS, card_fixable
    from .report import (CARD_CAP, Part, Segment, card_indent, card_sub, card_text, group_blobs, iter_json_bytes,
                         iter_text_bytes, text_keys, write_items)
    from .schema import card_validator, schema_result

    if format in ("sarif", "github"):
        from .sarif import CardResults, github_lines, other_results, render_sarif_results

    targets = plan.targets
    side = list(plan.side_tasks)
    total = sum(map(len, targets.values()))
    # at least four batches a process, so that they end together; at most BATCH targets
    # in memory at once; never more tasks than fork_tasks hands out
    batch = min(BATCH, max(MIN_BATCH, -(-total // (4 * n)))) if n > 1 else BATCH
    batch = max(batch, -(-total // (MAX_TASKS - len(side) - 1)))
    # the checks of the input tables run once, as a task of their own (their outcome is
    # the same over every batch); the others over each batch
    card_checks, input_checks = split_checks(plan.checks)
    tasks: list[tuple] = [("inputs", None)] if input_checks else []
    tasks += [("side", t) for t in side]
    tasks += [(kind, start) for kind, items in targets.items() for start in range(0, len(items), batch)]
    sarif = CardResults(domain, plan.sources) if format in ("sarif", "github") else None
    # the cards' JSON or text lines, a file per process (SARIF results come back as data);
    # kept in memory when this process makes every card of a small scenario
    if sarif is not None:
        files: list = []
    elif (n <= 1 or len(tasks) <= 1) and total <= BATCH:
        import io

        files = [io.BytesIO()]
    else:
        import tempfile

        files = [tempfile.TemporaryFile(prefix=f"{domain.name}-cards-") for _ in range(n)]
    root = os.getpid()
    key_field = domain.card_type.key_field
    roots = plan.roots  # the root cause of each card of the domain's root_cause_verdict
    card_valid = card_validator(domain.name, total)
    fail_on = plan.fail_on

    def do(t: int, w: int):
        what, arg = tasks[t]
        if what == "side":
            return plan.run_side(arg)  # type: ignore[misc]
        if what == "inputs":
            return run_checks_part(input_checks, plan.check_context([]))
        chunk = targets[what][arg:arg + batch]
        here = progress if os.getpid() == root else SILENT  # the bar counts this process's cards for all
        cards, held = plan.build(what, chunk, here, n)
        data = [c.data for c in cards]
        outcomes = list(run_checks_part(card_checks, plan.check_context(data)))
        schema_failed = [str(c.get(key_field)) for c in data if not card_valid(c)]
        fails = any(card_fails(domain, c, fail_on) for c in data)
        if sarif is not None:  # the cards' SARIF results come back as data
            made = (sarif.result(c) for c in data)
            return CardBatch(held, outcomes, schema_failed, fails, [r for r in made if r is not None])
        f = files[w]
        f.seek(0, 2)
        if format == "json":
            offset = f.tell()
            write_items(data, f)
            written: Any = (w, offset, f.tell() - offset)
        else:  # the cards' lines by verdict (and subgroup), each as one piece of the file
            # (and again, apart, the lines of the passing cards with a hedge: listed without --all)
            lines: dict[tuple[str, bool, Any], list[bytes]] = {}
            for c in data:
                label = WITHHELD if c.get("withheld") is not None else c["verdict"]
                key = str(c[key_field])
                for group, hedged in text_keys(domain, c):
                    sub = card_sub(domain, roots, group, key, c)
                    text = card_text(label, key, c["summary"], c.get("hedge"), indent=card_indent(sub),
                                     place=domain.card_place(c), fix=c.get("fix"))
                    lines.setdefault((group, hedged, sub), []).append(text.encode("utf-8"))
            written = {}
            for part, blob in lines.items():
                offset = f.tell()
                f.write(b"".join(blob))
                ends = list(accumulate(len(b) for b in blob[:CARD_CAP]))  # where the first cards end
                written[part] = (len(blob), (w, offset, f.tell() - offset), ends)
        f.flush()
        fixable = sum(1 for c in data if card_fixable(c, domain.passing_verdicts))
        return CardBatch(held, outcomes, schema_failed, fails, written, fixable)

    progress.start("카드", plan.counts or None)
    try:
        results = fork_tasks(n, len(tasks), do, progress.part)
        progress.complete()
        progress.start("쓰기")
        made = [r for (what, _), r in zip(tasks, results) if what in targets]
        found = [f for (what, _), r in zip(tasks, results) if what == "side" for f in r]
        once: list[Any] = next((r for (what, _), r in zip(tasks, results) if what == "inputs"), [])
        withheld = {kind: sum(r.withheld for (what, _), r in zip(tasks, results) if what == kind) for kind in targets}
        checks = merge_split(plan.checks, [r.outcomes for r in made], once)
        checks.append(schema_result([key for r in made for key in r.schema_failed]))
        report = plan.assemble(found, withheld, checks)
        report.extra[FIXABLE_CARDS] = sum(r.fixable for r in made)  # the cards are in the files, not the report
        if sarif is not None:
            results = [result for r in made for result in r.written] + other_results(report.findings, report.issues)
            text = render_sarif_results(results, domain) if format == "sarif" else github_lines(results, domain)
            pieces = iter([text.encode("utf-8")])
        elif format == "json":
            segments = [Segment(files[r.written[0]], r.written[1], r.written[2]) for r in made]
            pieces = iter_json_bytes(report, domain, card_blobs=segments)
        else:
            parts: dict[tuple[str, bool], list[Part]] = {}
            for r in made:
                for (group, hedged, sub), (count, (w, offset, length), ends) in r.written.items():
                    f = files[w]
                    parts.setdefault((group, hedged), []).append(
                        Part(sub, count, Segment(f, offset, length), partial(_first_cards, f, offset, ends)))
            headings = {root: heading for root, heading, _ in roots.values()}
            laid = {gh: group_blobs(ps, headings) for gh, ps in parts.items()}
            pieces = iter_text_bytes(report, domain, {g: v for (g, h), v in laid.items() if not h},
                                     {g: v for (g, h), v in laid.items() if h})
        for piece in pieces:
            out.write(piece)
    finally:
        for f in files:
            f.close()
    progress.close()
    fails = any(r.fails for r in made)
    return report, fails or bool(failing is not None and failing(report))


def _first_cards(file: Any, offset: int, ends: list[int], k: int) -> Any:
    """The :class:`~verdicts.report.Segment` of the first ``k`` cards of a part written
    at ``offset`` (``ends``: where each of its first cards' lines end)."""
    from .report import Segment

    return Segment(file, offset, ends[k - 1])
