"""Cards: one per scene and one per branch, with evidence, summary and hedge."""

from __future__ import annotations

import re
from verdicts.korean import code
from verdicts.model import Finding, InputIssue
from verdicts.progress import SILENT, Progress

from . import fixes as F
from . import templates as T
from .analysis import Analysis, AnalysisMemo, Undecided, analyse
from .model import BRANCH, MISSING_TARGET, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, UNREACHED, Branch, Scene, StoryCard
from .findings import collect_findings
from .graph import nearest_source
from .reach import reach_counts
from .rules import BRANCH_BOOK, SCENE_BOOK

__all__ = ["build_cards", "CardBuilder", "graph_counts", "withheld_issues"]


def _id_key(text: str) -> str:
    return re.sub(r"\d+", lambda m: str(int(m.group())), re.sub(r"[^0-9a-z가-힣]", "", text.lower()))


def _same_id_spelling(target: str, scenes) -> str | None:
    """An existing scene id that differs from ``target`` only in case, spacing,
    punctuation or leading zeros (``sc-7``, ``SC07`` for ``SC-07``).

    ``scenes`` may be a mapping prepared by :func:`_spelling_index` (one pass over the
    scenes for the whole run) or any iterable of scene ids."""
    key = _id_key(target)
    if isinstance(scenes, _SpellingIndex):
        return scenes.get(key)
    return next((s for s in scenes if _id_key(s) == key), None)


class _SpellingIndex(dict):
    """``_id_key(scene_id) -> first scene_id`` with that key."""


def _spelling_index(scenes) -> _SpellingIndex:
    index = _SpellingIndex()
    for s in scenes:
        index.setdefault(_id_key(s), s)
    return index


#: conditions whose wording a card builder keeps (bounded: a scenario of 100,000 scenes has
#: over 100,000 distinct conditions, and each process would keep its own words for them)
CONDITIONS_KEPT = 1 << 14


class _Builder:
    def __init__(self, a: Analysis, extra_hedges: dict[str, list[T.Caveat]] | None = None):
        self.a = a
        self.extra_hedges = extra_hedges or {}
        self.sc = a.scenario
        self.flags = self.sc.flags
        self.incoming: dict[str, list[Branch]] = {}
        for b in self.sc.branches:
            self.incoming.setdefault(b.to_scene, []).append(b)
        self.outgoing = self.sc.branches_from()
        self.endings = len(a.endings)
        self.branch_by_id = {b.branch_id: b for b in self.sc.branches}
        self._spelling: _SpellingIndex | None = None
        self._onward: dict[str, int] | None = None
        self._ending_counts: dict[str, int] | None = None
        self._cond_text: dict[int, T.Cond] = {}
        self._names: dict[str, str] = {}
        self.has_entry = self.sc.has("scene_states", "is_entry")
        # where scenes lead is known only from a table with both ends (a misspelt table
        # name leaves none: a folder's file, a sheet, or a union CSV without those columns)
        self.has_branch_table = self.sc.has("story_branches", "from_scene") and self.sc.has("story_branches", "to_scene")
        self.has_available = self.sc.has("scene_states", "available_flags")
        self.has_condition = self.sc.has("story_branches", "condition_expr")
        self.has_scene_id = self.sc.has("scene_states", "scene_id")
        self._reached_jumps: list[str] | None = None
        self._jump_after: dict[str, str] | None = None

    # ------------------------------------------------------------ helpers
    def name(self, scene_id: str) -> str:
        """How sentences call the scene (its title, else its id); remembered per scene."""
        name = self._names.get(scene_id)
        if name is None:
            s = self.sc.scenes.get(scene_id)
            name = self._names[scene_id] = s.spoken if s else f"장면 {code(scene_id)}"
        return name

    def labelled(self, scene_id: str) -> str:
        """``선장의 고백(SC-19)``, or the bare id of an unknown or untitled scene."""
        s = self.sc.scenes.get(scene_id)
        return f"{s.name}({code(scene_id)})" if s and s.title and s.title.strip() != scene_id else code(scene_id)

    def cond(self, branch: Branch) -> "T.Cond":
        """The branch's condition in words (remembered per parsed condition: identical
        texts share one tree)."""
        if self.a.opaque and branch.branch_id in self.a.opaque:
            return T.OPAQUE_CONDITION  # may or may not hold: not "no condition"
        expr = self.a.conditions.get(branch.branch_id)
        text = self._cond_text.get(id(expr))
        if text is None:
            if len(self._cond_text) >= CONDITIONS_KEPT:
                self._cond_text.clear()  # a branch's sentences are made together: the recent ones are enough
            text = self._cond_text[id(expr)] = T.describe_condition(expr, self.flags, branch.condition_expr)
        return text

    def same_spelling(self, target: str) -> str | None:
        """An existing scene id spelled like ``target`` but for case, spacing,
        punctuation or leading zeros."""
        return _same_id_spelling(target, self.spelling())

    def spelling(self) -> "_SpellingIndex":
        if self._spelling is None:
            self._spelling = _spelling_index(self.sc.scenes)
        return self._spelling

    def onward_count(self, scene_id: str) -> int:
        """How many other scenes lie on some path from ``scene_id``, a scene that reaches
        no ending.  Every scene after it reaches no ending either, so all such counts are
        made at once on that part of the graph, in linear passes (see
        :mod:`storygraph.reach`)."""
        if self._onward is None:
            good = self.a.reaches_ending or set()
            stuck = self.a.graph.subgraph([s for s in self.a.graph if s not in good])
            self._onward = reach_counts(stuck, stuck)
        # reach_counts counts the scene itself; the onward scenes are the others
        return self._onward.get(scene_id, 1) - 1

    def reachable_endings(self, scene_id: str) -> int:
        """How many endings can be reached from ``scene_id`` (itself included)."""
        if self._ending_counts is None:
            self._ending_counts = reach_counts(self.a.graph, self.a.endings)
        return self._ending_counts.get(scene_id, 0)

    def undecided_caveat(self, branch: Branch) -> T.Caveat | None:
        if branch.from_scene not in self.sc.scenes:
            return None
        state = self.a.shadowing.get(branch.from_scene)
        if state is None or state.undecided is None:
            return None
        if len(state.ordered) < 2:
            return None  # a lone branch has nothing to be shadowed by
        if branch.branch_id != state.ordered[0].branch_id:
            return None  # said once a scene: on its first branch, which names the others
        u: Undecided = state.undecided
        siblings = [b.branch_id for b in state.ordered if b.branch_id != branch.branch_id]
        return T.hedge_undecided(reason_code=u.code, scene_name=self.name(branch.from_scene), siblings=siblings,
                                 column=u.column, branch_ids=u.branch_ids,
                                 flags=[T.flag_name(self.flags[f]) if f in self.flags else code(f) for f in u.flags],
                                 story=self.a.story)

    # ------------------------------------------------------------ opaque jumps (판정 보류)
    def jump_words(self, bid: str) -> tuple[str, str | None, dict]:
        """An opaque jump as a withheld card names it: its construct as written, its place
        in words (``None`` when it has none) and as a ``where`` item."""
        branch = self.branch_by_id[bid]
        where = self.a.positions.get(("story_branches", bid))
        if where is not None:
            item: dict = {"file": where[0], "line": where[1]}
            words = T.place_words(*where)
        else:
            item = {"table": "story_branches", "line": branch.line, "column": "to_scene"}
            words = None
        return self.a.opaque_jumps[bid] or branch.raw.get("jump_source") or "", words, item

    def jump_evidence(self, bid: str) -> list[dict]:
        branch = self.branch_by_id[bid]
        return [{"source": "story_branches", "field": "jump_source", "value": branch.raw.get("jump_source"), "line": branch.line}]

    def reached_jumps(self) -> list[str]:
        """The opaque jumps out of scenes some reader reaches, in input order."""
        if self._reached_jumps is None:
            reached = self.a.reached or set()
            self._reached_jumps = [bid for bid in self.a.opaque_jumps if self.branch_by_id[bid].from_scene in reached]
        return self._reached_jumps

    def jump_after(self, scene_id: str) -> tuple[str, int] | None:
        """The opaque jump nearest after ``scene_id`` (by the graph's paths) and how many
        other opaque jumps the story has, or ``None`` when none can be got to."""
        if self._jump_after is None:
            # one search backwards from the scenes that hold an opaque jump, all at once
            sources: dict[str, str] = {}
            for bid in self.a.opaque_jumps:
                sources.setdefault(self.branch_by_id[bid].from_scene, bid)
            self._jump_after = nearest_source(self.a.graph, sources, backwards=True)
        jump = self._jump_after.get(scene_id)
        return None if jump is None else (jump, len(self.a.opaque_jumps) - 1)


def build_cards(a: Analysis, progress: Progress = SILENT) -> tuple[list[StoryCard], list[InputIssue], list[Finding]]:
    """Every scene's card, then every branch's card, in input order; an issue for the
    cards withheld because a column they depend on is missing; lint findings.
    ``progress`` is told of each scene (``장면``) and branch (``분기``) done."""
    findings, extra_hedges = collect_findings(a)
    builder = CardBuilder(a, extra_hedges)
    cards, withheld = builder.build(list(a.scenario.scenes.values()), a.scenario.branches, progress)
    return cards, withheld_issues(a, withheld), findings


class CardBuilder(_Builder):
    """Builds the cards of any slice of the scenes and branches; the slices of one run
    may be built in different processes (:mod:`verdicts.parallel`) after
    :meth:`prepare`."""

    def prepare(self, counts: dict | None = None) -> "CardBuilder":
        """Make now the whole-graph counts every slice reads (reachable endings, onward
        scenes, the id spelling index), so forked slices share them instead of each
        making them again; ``counts`` are those of :func:`graph_counts` when already
        made (in a worker process, alongside the analysis)."""
        if counts is not None:
            self._ending_counts, self._onward, self._spelling = counts["endings"], counts["onward"], counts["spelling"]
            F.know_near(self.a, counts["near"])
        self.reachable_endings("")
        self.onward_count("")
        self.spelling()
        return self

    # ------------------------------------------------------------ cards
    def scene_card(self, scene: Scene) -> StoryCard | None:
        a = self.a
        decision = SCENE_BOOK.decide(self, scene)
        if decision.missing:
            return None
        assert a.reached is not None  # else the first rule misses the entries and the card is withheld
        data = SCENE_BOOK.write(self, scene, decision, {
            "target_no": scene.scene_id, "target_kind": SCENE, "scene_id": scene.scene_id,
            "reached_from_entry": scene.scene_id in a.reached,
        })
        if data["verdict"] == UNREACHED or data["verdict"] == NO_ENDING:
            fix = F.reach_fix(a, scene.scene_id, data["verdict"] == NO_ENDING)
            if fix is not None:
                data["fix"] = fix
        elif "undone" in data:
            data["fix"] = F.undone_fix(a, data["undone"]["code"], scene.scene_id)
        return StoryCard(data)

    def branch_card(self, branch: Branch) -> StoryCard | None:
        a = self.a
        if a.reached is None:
            return None
        decision = BRANCH_BOOK.decide(self, branch)
        if decision.missing:
            return None
        bid = branch.branch_id
        data = BRANCH_BOOK.write(self, branch, decision, {
            "target_no": bid, "target_kind": BRANCH, "scene_id": branch.from_scene, "branch_id": bid,
            "reached_from_entry": branch.from_scene in a.reached, "overlapping_branch_id": a.overlap.get(bid),
        })
        verdict = data["verdict"]
        if verdict == SHADOWING or verdict == MISSING_TARGET:
            fix = F.shadowing_fix(a, bid) if verdict == SHADOWING else F.missing_target_fix(a, branch)
            if fix is not None:
                data["fix"] = F.verified(a, fix, (bid, verdict))
            elif verdict == MISSING_TARGET:
                data["fix"] = F.missing_target_reason(a, branch)
            else:
                later = a.overlap.get(bid)
                info = a.shadowed.get(later) if later else None
                data["fix"] = F.condition_reason(a, "unsatisfiable-condition" if info is not None and info.unsatisfiable
                                                 else SHADOWING, later or bid)
        elif verdict == UNREACHED or verdict == NO_ENDING:
            # unreached: the region of the scene it leaves; stuck: of the scene it enters
            fix = F.reach_fix(a, branch.from_scene if verdict == UNREACHED else branch.to_scene, verdict == NO_ENDING,
                             own=False)
            if fix is not None:
                data["fix"] = fix
            elif verdict == UNREACHED and branch.from_scene not in a.scenario.scenes:
                data["fix"] = F.unlisted_source_reason(branch)
        elif "undone" in data:
            data["fix"] = F.undone_fix(a, data["undone"]["code"], bid)
        return StoryCard(data)

    def build(self, scenes, branches, progress: Progress = SILENT, *, step: int = 1) -> tuple[list[StoryCard], dict[str, int]]:
        """The cards of ``scenes`` then ``branches`` and how many were withheld per kind;
        ``progress`` advances ``step`` per target (a slice done in one of several
        processes stands for that many)."""
        cards: list[StoryCard] = []
        withheld = {SCENE: 0, BRANCH: 0}
        for kind, targets, make in ((SCENE, scenes, self.scene_card), (BRANCH, branches, self.branch_card)):
            for target in targets:
                card = make(target)
                progress.advance(kind, step)
                if card is None:
                    withheld[kind] += 1
                else:
                    cards.append(card)
        return cards, withheld


def withheld_issues(a: Analysis, withheld: dict[str, int]) -> list[InputIssue]:
    """The issue that says how many cards were withheld for a missing column (none when
    no card was)."""
    issues: list[InputIssue] = []
    if withheld[SCENE] or withheld[BRANCH]:
        counted = f"장면 {withheld[SCENE]}개와 분기 {withheld[BRANCH]}개의 판정을 보류했습니다."
        if not (a.scenario.has("story_branches", "from_scene") and a.scenario.has("story_branches", "to_scene")):
            return issues  # the missing table or columns are issues already, which say that nothing resting on them is judged
        missing = [c for t, c in (("scene_states", "is_entry"), ("scene_states", "is_ending"), ("scene_states", "scene_id"))
                   if not a.scenario.has(t, c)]
        named = ", ".join(code(c) for c in missing) if missing else "필요한"
        issues.append(InputIssue(
            file=a.scenario.files.get("scene_states"), table="scene_states", column=missing[0] if missing else None,
            reason=f"{named} 열이 없어 {counted}",
        ))
    return issues


def graph_counts(a: Analysis) -> dict:
    """The whole-graph counts of :meth:`CardBuilder.prepare` (they need only the graph
    and the structural reachability, so they can be made while scenes are decided)."""
    b = _Builder(a)
    b.reachable_endings("")
    b.onward_count("")
    # and the scene ids spelled like each missing target (for its card's fix), kept
    # without the index of every id's spellings that found them
    scenes = a.scenario.scenes
    # (an opaque jump's empty to_scene is no missing scene)
    near = F.near_table(scenes, (x.to_scene for x in a.scenario.branches if x.to_scene and x.to_scene not in scenes))
    return {"endings": b._ending_counts, "onward": b._onward, "spelling": b.spelling(), "near": near}


def problems_of(scenario, memo=None) -> dict[str, set[str]]:
    """Target -> its problems (a card's verdict other than ``끝까지 닿음``, a finding's
    code) as a lint finds them in ``scenario``: the re-analysis that checks each fix
    (:func:`storygraph.fixes.verified`); the fixes of this analysis are not checked again.
    ``memo``: a dict in which an :class:`~storygraph.analysis.AnalysisMemo` keeps the
    decisions of the scenes the last re-analysis decided, for those an edit leaves alone.  The cards are
    decided, not written (their sentences are not read here)."""
    a = analyse(scenario, memo=None if memo is None else memo.setdefault("analysis", AnalysisMemo()))
    if a.fix_memo is not None:
        a.fix_memo.checking = False
    out: dict[str, set[str]] = {}
    if a.reached is not None:
        builder = CardBuilder(a, {})
        for book, targets, name in ((SCENE_BOOK, scenario.scenes.values(), "scene_id"), (BRANCH_BOOK, scenario.branches, "branch_id")):
            for target in targets:
                decision = book.decide(builder, target)
                verdict = decision.rule.verdict
                if not decision.missing and decision.withheld is None and verdict != REACHED_AND_ENDS:
                    out.setdefault(getattr(target, name), set()).add(verdict)
    findings, _ = collect_findings(a)
    for f in findings:
        out.setdefault(f.target, set()).add(f.code)
    return out


F.register_checker(problems_of)
