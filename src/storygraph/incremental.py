"""Incremental re-lint: after an edit, make again only what the edit can change.

``storygraph watch`` and ``storygraph serve --watch`` lint the same file after every
save.  :class:`IncrementalLint` keeps what one lint made and, on the next, recomputes only
what depends on what changed; the report is the same, byte for byte, as a full lint of
the edited file (:func:`storygraph.domain.lint`, the one path of ``storygraph lint``),
which the property tests ``tests/storygraph/test_incremental.py`` check on random edits
of generated scenarios.

After a save that changes rows in place (a scenario in one UTF-8 CSV file, the same
lines, ids and columns: the common edit), the work follows the changed rows:

* reading: only the changed lines are read again (:class:`storygraph.reread.Reread`);
  the unchanged scenes and branches are the objects of the last lint;
* analysis: made from the last one (:func:`storygraph.analysis.analyse_again`): the
  scenes whose branches or ``available_flags`` changed are decided again, the stuck
  search runs again where a decision, a scene row or reachability moved, and the graph,
  reachability and live reachability are kept while what they read is;
* findings: found again only for the scenes whose decision or row changed (the kinds
  kept sparsely), or kept under their keys (:class:`storygraph.findings.FindingMemo`);
* cards: looked at again only where a changed row, decision, reachability, count or
  hedge can reach (:func:`_dirty`), each then compared by its signature;
* checks: the runs of :data:`CHUNK` cards whose cards are all kept keep their
  outcomes, and the scenario facts the checks share are mended, not made again;
* the report: the cards' JSON and text bytes are made once and joined run by run.

Any other save (a row added or removed, another form, a ``flag_spec`` row) is read in
full, and then what is kept is found by keys, each made of exactly what the work reads:

* a scene's shadowing decision and its stuck combinations
  (:class:`~storygraph.analysis.AnalysisMemo`): the scene's branches in order, its
  ``available_flags``, the ``flag_spec`` rows of the flags its conditions use;
* the graph and its live reachability while the scenes, edges, dead branches, entries
  and endings stay the same; the whole-graph counts the cards cite (reachable endings,
  onward scenes) while the graph and the endings do;
* a card, with its JSON and text lines and whether it passes the schema, under its
  signature: its own row, the rows of the scenes at its ends, whether they are reached
  and reach an ending, the counts it cites, the key of its scene's decision, the
  hedges the findings add to it;
* the automatic checks of a run of cards that are all kept.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Iterator

from verdicts.checks import merge_split, run_checks_part, split_checks
from verdicts.domain import Made, Report
from verdicts.model import hedges_of
from verdicts.progress import SILENT, Progress

from .analysis import Analysis, AnalysisMemo, analyse, analyse_again
from .cards import CardBuilder, graph_counts, withheld_issues
from .checks import CHECKS, CheckContext
from .domain import DOMAIN, LintResult, StorygraphDomain
from .findings import FindingMemo, collect_findings
from .fixes import near_ids
from .reread import Reread
from .model import BRANCH, SCENE, Branch, Scenario, Scene, StoryCard

__all__ = ["IncrementalLint", "Kept", "incremental_judge"]

#: cards whose checks are run (and kept) together
CHUNK = 512

_NOTHING: tuple = ()


@dataclass
class Kept:
    """One card as made (``None``: withheld) and what the report writes of it, made once."""

    card: StoryCard | None
    json: bytes | None = None
    text: bytes | None = None
    valid: bool | None = None


def _card(m: Kept) -> StoryCard:
    """The card of a :class:`Kept` past the builder (withheld ones are left out there)."""
    assert m.card is not None
    return m.card


@dataclass
class _Chunk:
    made: list[Kept]
    outcomes: list = field(default_factory=list)
    #: the JSON of its cards, joined; the text lines of its cards by verdict (and, with
    #: ``True``, of its passing cards with a hedge), joined, and those of the first
    #: cards apart; the cards listed under their root cause, whose lines are made again
    #: (their root may change with an edit elsewhere)
    json: bytes | None = None
    text: dict[tuple[str, bool], tuple[int, bytes, list[bytes]]] | None = None
    rooted: list[StoryCard] = field(default_factory=list)


class _Builder(CardBuilder):
    """A card builder that takes a card from the last lint when its signature is
    unchanged (cards are looked up by kind, id and line, then their signatures compared:
    a signature is a tuple of tuples, hashed again at every dict lookup)."""

    def __init__(self, a: Analysis, extra_hedges, before: dict, keys: dict):
        super().__init__(a, extra_hedges)
        self.before = before
        self.now: dict = {}
        self.keys = keys
        self.made: list[Kept] = []
        self.new = 0
        #: cards whose inputs did not change made again for their fix (:meth:`_refix`)
        self.refixed = 0
        self.reached = a.reached if a.reached is not None else frozenset()
        self.good = a.reaches_ending if a.reaches_ending is not None else frozenset()
        # a row as its line and cells (signatures are compared, never hashed: a dict may be in one)
        self.rows = {sid: (s.line, s.raw) for sid, s in self.sc.scenes.items()}

    #: ``(scene ids, branch ids)`` whose cards may have changed since the last lint (the
    #: others are taken as they were, without a signature), or ``None``: every card's
    #: signature is compared
    dirty: tuple[set, set] | None = None

    def _take(self, where: tuple, sig: tuple, make, target) -> StoryCard | None:
        old = self.before.get(where)
        if old is not None and old[0] == sig and not self._refix(old[1]):
            entry = old[1]
        elif old is not None and old[0] == sig:
            entry = Kept(make(target))
            self.refixed += 1
        else:
            entry = Kept(make(target))
            self.new += 1
        self.now[where] = (sig, entry)
        self.made.append(entry)
        return entry.card

    def _clean(self, where: tuple) -> StoryCard | None | bool:
        old = self.before.get(where)
        if old is None or self._refix(old[1]):
            return False
        self.now[where] = old
        self.made.append(old[1])
        return old[1].card

    def _refix(self, kept: Kept) -> bool:
        """Whether a kept card is made again for its fix: when anything changed, a card
        with a fix is (the fix reads the whole scenario: the nearest scene of a reach
        fix, the re-analysis that checks every fix)."""
        return (self.dirty is None or bool(self.dirty[0]) or bool(self.dirty[1])) and _has_fix(kept)

    def scene_card(self, scene: Scene) -> StoryCard | None:
        sid = scene.scene_id
        if self.dirty is not None and sid not in self.dirty[0]:
            card = self._clean((SCENE, sid, scene.line))
            if card is not False:
                return card  # type: ignore[return-value]
        scenes = self.sc.scenes
        incoming = tuple((b.from_scene, b.line, scenes[b.from_scene].title if b.from_scene in scenes else _NOTHING)
                         for b in self.incoming.get(sid, _NOTHING))
        sig = (self.rows[sid] if scenes.get(sid) is scene else (scene.line, scene.raw),
               sid in self.reached, sid in self.good, incoming,
               tuple((b.to_scene, b.line) for b in self.outgoing.get(sid, _NOTHING)),
               self.onward_count(sid), self.reachable_endings(sid), ("scene_states", sid) in self.a.positions,
               tuple(self.extra_hedges.get(sid, _NOTHING)))
        return self._take((SCENE, sid, scene.line), sig, super().scene_card, scene)

    def branch_card(self, branch: Branch) -> StoryCard | None:
        a = self.a
        bid, to = branch.branch_id, branch.to_scene
        if self.dirty is not None and bid not in self.dirty[1]:
            card = self._clean((BRANCH, bid, branch.line))
            if card is not False:
                return card  # type: ignore[return-value]
        rows = self.rows
        known = to in rows
        # the branches a shadowing card or hedge cites beside this one
        cited: Any = None
        own, later = a.shadowed.get(bid), a.overlap.get(bid)
        if own is not None or later is not None:
            ids = list(own.covered_by) if own is not None else []
            if later is not None:
                ids += [later, *a.shadowed[later].covered_by]
            by_id = self.branch_by_id
            cited = tuple((x, by_id[x].line, by_id[x].to_scene, by_id[x].raw, rows.get(by_id[x].to_scene))
                          if x in by_id else (x,) for x in ids)
        sig: tuple[Any, ...] = (branch.raw, rows.get(branch.from_scene), rows.get(to),
               branch.from_scene in self.reached, to in self.good, len(self.incoming.get(branch.from_scene, _NOTHING)),
               self.reachable_endings(to) if known else self.same_spelling(to),
               self.keys.get(branch.from_scene), cited, ("story_branches", bid) in a.positions,
               tuple(self.extra_hedges.get(bid, _NOTHING)))
        if not known:
            # its 고치는 법 (storygraph.fixes) reads the scenes spelled like the target
            live = a.live.reached if a.live is not None else self.reached
            sig += (tuple((s, rows.get(s), s in self.reached, s in self.good, s in live) for _, s in near_ids(a, to)),)
        return self._take((BRANCH, bid, branch.line), sig, super().branch_card, branch)


def _has_fix(kept: Kept) -> bool:
    """Whether the kept card carries a fix."""
    return kept.card is not None and "fix" in kept.card.data


@dataclass
class _Last:
    """What the cards of one lint read of the whole analysis, kept to tell which cards
    the next lint must look at again."""

    analysis: Analysis
    tokens: dict
    hedges: dict
    counts: dict


def _changed_keys(old: dict, new: dict) -> set:
    if old is new:
        return set()
    out = {k for k, v in new.items() if old.get(k, _NOTHING) != v}
    out.update(k for k in old if k not in new)
    return out


def _changed_members(old, new) -> set:
    if old is new:
        return set()
    return set(old or ()) ^ set(new or ())


def _dirty(builder: _Builder, last: _Last, now: _Last, changes, before_counts) -> tuple[set, set]:
    """The scenes and branches whose cards may differ from the last lint's, when only
    the rows in ``changes`` were read again (the ids, the lines and the columns are
    those of the last lint): each card's signature (:class:`_Builder`) reads its own
    row, the rows, reachability and counts of the scenes at its ends, the branches into
    and out of its scene, its scene's decision and the hedges the findings add."""
    a, b = now.analysis, last.analysis
    incoming, outgoing = builder.incoming, builder.outgoing
    rows = set(changes.scenes)  # scenes whose row changed
    reached = _changed_members(b.reached, a.reached)
    good = _changed_members(b.reaches_ending, a.reaches_ending)
    live = _changed_members(b.live.reached if b.live is not None else None, a.live.reached if a.live is not None else None)
    counted: set = set()
    if before_counts is not None and before_counts is not now.counts:
        counted = _changed_keys(before_counts["endings"], now.counts["endings"]) | _changed_keys(
            before_counts["onward"], now.counts["onward"])
    elif before_counts is None:
        counted = set(a.scenario.scenes)
    decided = {s for s, t in now.tokens.items() if last.tokens.get(s) is not t}
    decided.update(s for s in last.tokens if s not in now.tokens)
    hedged = _changed_keys(last.hedges, now.hedges)
    ends: set = set()  # scenes at the ends of changed branch rows
    for old, new in changes.branches:
        ends.update((old.from_scene, old.to_scene, new.from_scene, new.to_scene))
    # scene cards: own row, reach, counts, branches in and out (with the titles of where they come from)
    scenes = rows | reached | good | counted | ends | hedged
    for s in rows:
        scenes.update(x.to_scene for x in outgoing.get(s, _NOTHING))
    # branch cards: by their scene (its row, reach, decision, the branches into it and
    # out of it, the rows of where its branches go), and by where they go
    froms = rows | reached | decided | ends
    for t in rows:
        froms.update(x.from_scene for x in incoming.get(t, _NOTHING))
    branches = {x.branch_id for s in froms for x in outgoing.get(s, _NOTHING)}
    for t in rows | good | counted:
        branches.update(x.branch_id for x in incoming.get(t, _NOTHING))
    branches |= hedged
    branches.update(new.branch_id for _, new in changes.branches)
    # a branch to a missing scene: its fix reads the scenes spelled like the target
    moved = rows | reached | good | live
    if moved:
        scene_ids = builder.sc.scenes
        for x in builder.sc.branches:
            if x.to_scene and x.to_scene not in scene_ids and x.branch_id not in branches:
                if any(s in moved for _, s in near_ids(a, x.to_scene)):
                    branches.add(x.branch_id)
    return scenes, branches


def _mended_facts(shared: dict, changes) -> dict:
    """The checks' scenario facts of the last lint (:class:`~storygraph.checks.CheckContext`)
    for a scenario whose changed rows are ``changes``: what a changed row can alter is
    mended or dropped (to be made again); everything after a full read is made again."""
    if changes.full or not shared:
        return {}
    if not changes.scenes and not changes.branches:
        return shared
    shared = dict(shared)
    ends = any((o.from_scene, o.to_scene) != (n.from_scene, n.to_scene) for o, n in changes.branches)
    marks = any((o.is_entry, o.is_ending) != (n.is_entry, n.is_ending) for o, n in changes.scenes.values())
    if ends:
        for key in ("rows_graph", "reached", "ending", "by_scene", "to_scene"):
            shared.pop(key, None)
    elif marks:  # (the rows graph joins the entries and the endings to its two extra nodes)
        for key in ("rows_graph", "reached", "ending"):
            shared.pop(key, None)
    by_scene = shared.get("by_scene")
    if by_scene is not None and changes.branches:
        by_scene = shared["by_scene"] = dict(by_scene)
        for old, new in changes.branches:
            items = list(by_scene[new.from_scene])
            items[next(i for i, x in enumerate(items) if x is old)] = new
            by_scene[new.from_scene] = items
    rows = shared.get("rows")
    if rows is not None:
        shared["rows"] = rows.replaced([(table, old, new) for table, pairs in (("scene_states", changes.scenes.values()),
                                                                               ("story_branches", changes.branches))
                                        for old, new in pairs])
    return shared


@contextmanager
def _kept_from_gc():
    """The cyclic garbage collector paused during a lint, as :func:`verdicts.perf.without_gc`
    does, and what the lint made (most of it kept for the next lint) frozen afterwards
    (:func:`gc.freeze`), so that the collector does not walk it again after every lint;
    the previous lint's objects are unfrozen first, to be freed as usual (they hold no
    reference cycles; reference counting frees them)."""
    was_enabled = gc.isenabled()
    gc.disable()
    gc.unfreeze()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


class IncrementalLint(StorygraphDomain):
    """Lint one scenario again and again, each time making again only what changed: the
    kit's run (:meth:`verdicts.domain.Domain.judge`, the stages of every lint) whose
    stages each keep what they made last time — the reading, the analysis, the findings,
    the cards, the checks and each card's schema validity.

    >>> from storygraph.incremental import IncrementalLint
    >>> linter = IncrementalLint()
    >>> report = linter.lint("examples/lighthouse/scenario.csv")   # doctest: +SKIP
    >>> report = linter.lint("examples/lighthouse/scenario.csv")   # doctest: +SKIP
    >>> linter.last["cards made"]                                  # doctest: +SKIP
    0
    """

    def __init__(self) -> None:
        self.memo = AnalysisMemo()
        self.found = FindingMemo()
        self.reader = Reread()
        self._cards: dict = {}
        self._global: Any = None
        self._counts: Any = None
        self._chunks: list[_Chunk] = []
        self._made: list[Kept] = []
        self._last: _Last | None = None
        self._plain: list | None = None
        self._shared: dict = {}
        #: this lint's: what the reading found changed, the cards made, the builder, the check runs
        self._changes: Any = None
        self._now: list[Kept] = []
        self._builder: Any = None
        self._runs = 0
        #: what the last lint made again: scenes decided, cards made, check runs (counts), and
        #: how the scenario was read again (``read``: see :attr:`Reread.last`)
        self.last: dict[str, int | str] = {}

    def lint(self, path: str | Path, config: Any = None, progress: Progress = SILENT) -> LintResult:
        """The report of the scenario at ``path`` under ``config`` (the defaults when
        ``None``): the same as :func:`storygraph.domain.lint`."""
        return self.judge(Path(path), config, progress)  # type: ignore[return-value]

    # the stages of the kit's run, each keeping what it made
    def collector(self) -> Any:
        return _kept_from_gc()

    def load(self, path: Path) -> Scenario:
        """Only the changed lines read again, when the save changed rows in place."""
        scenario, self._changes = self.reader.read(path)
        return scenario

    def analyse(self, inputs: Scenario, config: Any, progress: Any, jobs: int | None = None) -> Analysis:
        """The analysis made from the last one where only rows changed, else with the
        decisions of unchanged scenes kept (one process: the memo lives here)."""
        from .config import Config

        scenario, changes = inputs, self._changes
        budgets = (config or Config()).budget.budgets()
        a = None
        if not changes.full and self._last is not None:
            a = analyse_again(self._last.analysis, scenario, changes, self.memo, budgets)
        if a is None:
            a = analyse(scenario, memo=self.memo, budgets=budgets)
        if not changes.full and self._last is not None and a.fix_memo is not None:
            # the same scene and branch ids as the last lint: its index of scene ids by
            # spelling and its next free branch id hold
            was = self._last.analysis.fix_memo
            if was is not None:
                a.fix_memo.neighbours, a.fix_memo.next_id = was.neighbours, was.next_id
        self.found.tokens = self.memo.tokens
        self.found.dirty = None
        if not changes.full and self._last is not None:
            # the scenes whose decision or row changed: the findings kept sparsely are found again there only
            last_tokens = self._last.tokens
            dirty = {s for s, t in self.memo.tokens.items() if last_tokens.get(s) is not t}
            dirty.update(s for s in last_tokens if s not in self.memo.tokens)
            assert changes.scenes is not None  # not a full read
            dirty.update(changes.scenes)
            self.found.dirty = dirty
        a.reuse = self.found
        return a

    def make_cards(self, facts: Analysis, progress: Any) -> Made:
        """The findings found again where a decision or row changed, the cards looked at
        again only where a change can reach, each kept card's bytes and validity kept."""
        a, changes = facts, self._changes
        findings, hedges = collect_findings(a)
        sc = a.scenario
        whole = (len(sc.scenes), len(a.endings), tuple(sorted((t, tuple(sorted(c))) for t, c in sc.columns.items())),
                 tuple(sc.rejected_scene_lines), a.reached is None, a.reaches_ending is None, a.menus,
                 bool(a.kinds or a.opaque), sc.has_flag_table, a.story, tuple(sorted(sc.files.items())),
                 tuple(sorted(sc.scenes)) if a.positions else None)
        if whole != self._global:
            self._global, self._cards = whole, {}
        progress.start("카드", {"장면": len(sc.scenes), "분기": len(sc.branches)})
        builder = _Builder(a, hedges, self._cards, self.memo.keys)
        counts_key = (a.graph, tuple(a.endings), a.reaches_ending is None)
        before_counts = self._counts[1] if self._counts is not None else None
        if self._counts is not None and self._counts[0] == counts_key:
            builder.prepare(self._counts[1])
        else:
            counts = graph_counts(a)
            self._counts = (counts_key, counts)
            builder.prepare(counts)
        last, self._last = self._last, _Last(a, dict(self.memo.tokens), hedges, self._counts[1])
        if self._cards and last is not None and not changes.full and not a.positions:
            builder.dirty = _dirty(builder, last, self._last, changes, before_counts)
        cards, withheld = builder.build(list(sc.scenes.values()), sc.branches, progress)
        self._cards = builder.now
        self._builder = builder
        made = self._now = [m for m in builder.made if m.card is not None]

        def kept_schema():
            # the schema check of the cards, each kept card's validity kept from the last lint
            from verdicts.schema import card_valid, schema_result

            for m in made:
                if m.valid is None:
                    m.valid = card_valid(self.name, _card(m).to_json())
            return schema_result([_card(m).key for m in made if not m.valid])

        return Made(list(cards), None, sc.issues + a.issues + withheld_issues(a, withheld), findings, schema=kept_schema)

    def run_checks(self, facts: Analysis, made: Made) -> list[Any]:
        """The checks of the runs of cards that are not all kept; the others' kept."""
        checks, self._runs = self._checks(facts.scenario, self._now, self._changes)
        return checks

    def assemble(self, facts: Analysis, made: Made, checks: list[Any]) -> LintResult:
        report = super().assemble(facts, made, checks)
        self._plain = report.cards  # (the report's cards, until one is accepted: their bytes are kept)
        return report

    def judged(self, facts: Any, config: Any = None, progress: Any = None) -> Report:
        report = super().judged(facts, config, progress)
        if any(c.accepted for c in report.cards):
            self._plain = None
        self._made = self._now
        builder = self._builder
        self.last = {"scenes decided": self.memo.decided, "scenes kept": self.memo.kept, "cards made": builder.new, "fixes made again": builder.refixed,
                     "cards kept": len(builder.made) - builder.new - builder.refixed, "check runs": self._runs, "read": self.reader.last,
                     "finding units found": self.found.made}
        return report

    def _checks(self, scenario, made: list[Kept], changes) -> tuple[list, int]:
        """The automatic checks: those of the input tables (``inputs_only``) over the whole
        scenario, the others over runs of :data:`CHUNK` cards, a run kept when its cards all are.  The
        scenario facts the checks share (:class:`~storygraph.checks.CheckContext`) are
        kept from the last lint and mended where the rows read again change them."""
        shared = _mended_facts(self._shared, changes)
        self._shared = shared
        chunks: list[_Chunk] = []
        runs = 0
        card_checks, input_checks = split_checks(CHECKS)
        for n, start in enumerate(range(0, len(made), CHUNK)):
            part = made[start:start + CHUNK]
            old = self._chunks[n] if n < len(self._chunks) else None
            if old is not None and len(old.made) == len(part) and all(x is y for x, y in zip(old.made, part)):
                chunks.append(old)
                continue
            runs += 1
            ctx = CheckContext(scenario, [_card(m).to_json() for m in part], shared)
            chunks.append(_Chunk(part, run_checks_part(card_checks, ctx)))
        self._chunks = chunks
        once = run_checks_part(input_checks, CheckContext(scenario, [], shared))
        results = merge_split(CHECKS, [c.outcomes for c in chunks], once)
        return results, runs

    # ------------------------------------------------------------------ reports
    def pieces(self, report: LintResult, format: str) -> Iterator[bytes]:
        """The report of the last :meth:`lint` in ``format`` as UTF-8 pieces, the same
        bytes as its reporter writes; the JSON and text lines of kept cards are not made
        again (a report with an accepted card is written by the reporter)."""
        from verdicts.report import (CARD_CAP, ITEM_SEPARATOR, Part, card_indent, card_parts, card_sub, card_text,
                                     encode_items, group_blobs, iter_json_bytes, iter_text_bytes, text_keys)
        from verdicts.reporters import REPORTERS

        # (the report of the last lint with no card accepted holds the cards of its runs)
        plain = format in ("json", "text") and report.cards is self._plain
        if not plain:
            yield from REPORTERS[format].pieces(report, DOMAIN)
            return
        # the cards' bytes are joined run by run (the runs of the checks): a run whose
        # cards are all kept keeps its joined bytes
        if format == "json":
            blobs = []
            for chunk in self._chunks:
                if chunk.json is None:
                    for m in chunk.made:
                        if m.json is None:
                            m.json = encode_items([_card(m).to_json()])
                    chunk.json = ITEM_SEPARATOR.join(m.json for m in chunk.made)  # type: ignore[misc]
                blobs.append(chunk.json)
            yield from iter_json_bytes(report, DOMAIN, card_blobs=blobs)
            return
        # the lines by verdict, and again apart the passing cards with a hedge (listed without --all)
        roots = DOMAIN.root_causes(report)
        groups: dict[tuple[str, bool], list[Part]] = {}
        rooted: list[tuple[Any, bytes]] = []
        for chunk in self._chunks:
            if chunk.text is None:
                lines: dict[tuple[str, bool], list[bytes]] = {}
                chunk.rooted = []
                for m in chunk.made:
                    c = _card(m)
                    keys = text_keys(DOMAIN, c.data)
                    if keys == [(DOMAIN.root_cause_verdict, False)]:
                        chunk.rooted.append(c)
                        continue
                    if m.text is None:
                        m.text = card_text(c.verdict, c.key, c.summary, hedges_of(c.data), place=DOMAIN.card_place(c.data),
                                           fix=c.data.get("fix")).encode("utf-8")
                    for key in keys:
                        lines.setdefault(key, []).append(m.text)
                chunk.text = {k: (len(texts), b"".join(texts), texts[:CARD_CAP]) for k, texts in lines.items()}
            for k, (n, text, first) in chunk.text.items():
                groups.setdefault(k, []).append(Part(None, n, text, partial(_joined_first, first)))
            for c in chunk.rooted:
                sub = card_sub(DOMAIN, roots, c.verdict, str(c.key), c.data)
                rooted.append((sub, card_text(c.verdict, c.key, c.summary, hedges_of(c.data), indent=card_indent(sub),
                                              place=DOMAIN.card_place(c.data), fix=c.data.get("fix")).encode("utf-8")))
        if rooted:
            groups[DOMAIN.root_cause_verdict, False] = card_parts(rooted)
        headings = {root: heading for root, heading, _ in roots.values()}
        laid = {k: group_blobs(parts, headings) for k, parts in groups.items()}
        yield from iter_text_bytes(report, DOMAIN, {v: t for (v, h), t in laid.items() if not h},
                                   {v: t for (v, h), t in laid.items() if h})

    def render(self, report: LintResult, format: str) -> bytes:
        return b"".join(self.pieces(report, format))


def _joined_first(texts: list[bytes], k: int) -> bytes:
    return b"".join(texts[:k])


def incremental_judge(options: Any) -> Any:
    """A ``judge(target) -> (report, config)`` for :func:`storygraph.watch.watch` that
    keeps one :class:`IncrementalLint` per followed scenario (the configuration is read
    again every time: a saved ``storygraph.toml`` counts too)."""
    import os

    from verdicts.errors import VerdictsError
    from verdicts.pipeline import config_for

    linters: dict[str, IncrementalLint] = {}

    def judge(target: Path) -> tuple[LintResult, Any]:
        cfg = config_for(DOMAIN, Path(target), options.config)
        if isinstance(cfg, str):
            raise VerdictsError(cfg)
        linter = linters.setdefault(os.path.abspath(target), IncrementalLint())
        return linter.lint(target, cfg), cfg

    return judge
