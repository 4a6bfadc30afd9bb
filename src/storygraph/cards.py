"""Cards: one per scene and one per branch, with evidence, summary and hedge."""

from __future__ import annotations

import re
from verdicts.korean import join_clauses
from verdicts.model import Finding, InputIssue
from verdicts.progress import SILENT, Progress

from . import templates as T
from .analysis import Analysis, Undecided
from .conditions import Expr, flags_of
from .model import BRANCH, MISSING_TARGET, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, UNREACHED, Branch, Scene, StoryCard
from .findings import collect_findings
from .reach import reach_counts
from .rules import judge_branch, judge_scene

__all__ = ["build_cards", "CardBuilder", "graph_counts", "withheld_issues"]


# Evidence items are written directly as the dicts of ``Evidence.to_json`` (source,
# field, agg, value, line): a lint of 100,000 scenes writes about 1.5 million of them.
Ev = dict


def _ev_scene(scene: Scene, field: str, *, raw: bool = False) -> Ev:
    """Cite ``field`` of the scene's row: the typed cell, or with ``raw`` the text as written."""
    value = scene.raw.get(field) if raw else getattr(scene, field)
    return {"source": "scene_states", "field": field, "value": value, "line": scene.line}


def _ev_branch(branch: Branch, field: str) -> Ev:
    return {"source": "story_branches", "field": field, "value": getattr(branch, field), "line": branch.line}


def _count(field: str, value: int, source: str) -> Ev:
    return {"source": source, "field": field, "agg": "count", "value": value}


def _card(target_no: str, target_kind: str, scene_id: str | None, branch_id: str | None, verdict: str,
          reached: bool, reaches_ending: bool | None, overlapping: str | None, evidence: list[Ev], summary: str,
          hedge: str | None) -> StoryCard:
    return StoryCard({
        "target_no": target_no, "target_kind": target_kind, "scene_id": scene_id, "branch_id": branch_id,
        "verdict": verdict, "reached_from_entry": reached, "reaches_ending": reaches_ending,
        "overlapping_branch_id": overlapping, "evidence": evidence, "summary": summary, "hedge": hedge,
    })


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


class _Builder:
    def __init__(self, a: Analysis, extra_hedges: dict[str, list[T.Clause]] | None = None):
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
        self._succ: dict[str, list[str]] | None = None
        self._spelling: _SpellingIndex | None = None
        self._onward: dict[str, int] | None = None
        self._ending_counts: dict[str, int] | None = None
        self._cond_text: dict[int, str] = {}
        self._names: dict[str, str] = {}
        self.has_entry = self.sc.has("scene_states", "is_entry")
        self.has_available = self.sc.has("scene_states", "available_flags")
        self.has_condition = self.sc.has("story_branches", "condition_expr")

    # ------------------------------------------------------------ helpers
    def name(self, scene_id: str) -> str:
        """How sentences call the scene (its title, else its id); remembered per scene."""
        name = self._names.get(scene_id)
        if name is None:
            s = self.sc.scenes.get(scene_id)
            name = self._names[scene_id] = s.name if s else scene_id
        return name

    def labelled(self, scene_id: str) -> str:
        """``선장의 고백(SC-19)``, or the bare id of an unknown or untitled scene."""
        s = self.sc.scenes.get(scene_id)
        return f"{s.name}({scene_id})" if s and s.title else scene_id

    def cond(self, branch: Branch) -> str:
        """The branch's condition in words (remembered per parsed condition: identical
        texts share one tree)."""
        expr = self.a.conditions.get(branch.branch_id)
        text = self._cond_text.get(id(expr))
        if text is None:
            text = self._cond_text[id(expr)] = T.describe_condition(expr, self.flags)
        return text

    def spelling(self) -> "_SpellingIndex":
        if self._spelling is None:
            self._spelling = _spelling_index(self.sc.scenes)
        return self._spelling

    def _successors(self) -> dict[str, list[str]]:
        if self._succ is None:
            g = self.a.graph
            self._succ = {s: list(g.successors(s)) for s in g.nodes}
        return self._succ

    def onward_count(self, scene_id: str) -> int:
        """How many other scenes lie on some path from ``scene_id``, a scene that reaches
        no ending.  Every scene after it reaches no ending either, so all such counts are
        made at once on that part of the graph, in linear passes (see
        :mod:`storygraph.reach`)."""
        if self._onward is None:
            succ = self._successors()
            good = self.a.reaches_ending or set()
            stuck = {s: [t for t in nxt if t not in good] for s, nxt in succ.items() if s not in good}
            self._onward = reach_counts(list(stuck), stuck, stuck)
        # reach_counts counts the scene itself; the onward scenes are the others
        return self._onward.get(scene_id, 1) - 1

    def reachable_endings(self, scene_id: str) -> int:
        """How many endings can be reached from ``scene_id`` (itself included)."""
        if self._ending_counts is None:
            succ = self._successors()
            self._ending_counts = reach_counts(list(succ), succ, self.a.endings)
        return self._ending_counts.get(scene_id, 0)

    def undecided_clause(self, branch: Branch) -> T.Clause | None:
        if branch.from_scene not in self.sc.scenes:
            return None
        state = self.a.shadowing.get(branch.from_scene)
        if state is None or state.undecided is None:
            return None
        if len(state.ordered) < 2:
            return None  # a lone branch has nothing to be shadowed by
        u: Undecided = state.undecided
        siblings = [b.branch_id for b in state.ordered if b.branch_id != branch.branch_id]
        return T.hedge_undecided(code=u.code, scene_name=self.name(branch.from_scene), siblings=siblings,
                                 column=u.column, branch_ids=u.branch_ids,
                                 flags=[self.flags[f].name if f in self.flags else f for f in u.flags])

    # ------------------------------------------------------------ scenes
    def scene_card(self, scene: Scene) -> StoryCard | None:
        verdict = judge_scene(self.a, scene)
        if verdict is None:
            return None
        reached = self.a.reached is not None and scene.scene_id in self.a.reached
        evidence = [_ev_scene(scene, "scene_id")]
        if scene.title is not None:
            evidence.append(_ev_scene(scene, "title"))
        hedges: list[T.Clause] = []
        incoming = self.incoming.get(scene.scene_id, [])
        if verdict == UNREACHED:
            if self.has_entry:
                evidence.append(_ev_scene(scene, "is_entry"))
            evidence.append(_count("to_scene", len(incoming), "story_branches"))
            sources = [self.labelled(s) for s in dict.fromkeys(b.from_scene for b in incoming)]
            for b in incoming[:5]:
                evidence.append(_ev_branch(b, "from_scene"))
            summary = T.scene_unreached(name=scene.name, incoming=len(incoming), sources=sources)
            if incoming:
                hedges.append(T.hedge_island(sources=sources))
            reaches_ending = None
        elif verdict == NO_ENDING:
            out = self.outgoing.get(scene.scene_id, [])
            onward = self.onward_count(scene.scene_id)
            evidence.append(_ev_scene(scene, "is_ending"))
            for b in out[:5]:
                evidence.append(_ev_branch(b, "to_scene"))
            evidence.append(_count("from_scene", len(out), "story_branches"))
            evidence.append(_count("is_ending", 0, "scene_states"))
            summary = T.scene_no_ending(name=scene.name, outgoing=len(out), onward=onward, endings=self.endings)
            reaches_ending = False
        else:
            n = self.reachable_endings(scene.scene_id)
            if scene.is_entry:
                evidence.append(_ev_scene(scene, "is_entry"))
            if scene.is_ending:
                evidence.append(_ev_scene(scene, "is_ending"))
            evidence.append(_count("is_ending", n, "scene_states"))
            summary = T.scene_reaches(name=scene.name, is_entry=bool(scene.is_entry), is_ending=bool(scene.is_ending),
                                      reachable_endings=n, endings=self.endings)
            reaches_ending = True
        hedges.extend(self.extra_hedges.get(scene.scene_id, []))
        return _card(scene.scene_id, SCENE, scene.scene_id, None, verdict, reached, reaches_ending if reached else None,
                     None, evidence, summary, join_clauses(hedges))

    # ------------------------------------------------------------ branches
    def branch_card(self, branch: Branch) -> StoryCard | None:
        a = self.a
        verdict = judge_branch(a, branch)
        if verdict is None or a.reached is None:
            return None
        bid, from_scene, to_scene, line = branch.branch_id, branch.from_scene, branch.to_scene, branch.line
        reached = from_scene in a.reached
        overlapping = a.overlap.get(bid)
        # the branch's own cells (the same items as _ev_branch, written out: one card per branch)
        evidence = [
            {"source": "story_branches", "field": "branch_id", "value": bid, "line": line},
            {"source": "story_branches", "field": "from_scene", "value": from_scene, "line": line},
            {"source": "story_branches", "field": "to_scene", "value": to_scene, "line": line},
        ]
        if self.has_condition:
            evidence.append({"source": "story_branches", "field": "condition_expr", "value": branch.condition_expr, "line": line})
        hedges: list[T.Clause] = []
        from_name = self.name(from_scene)
        if verdict == REACHED_AND_ENDS:
            to = self.sc.scenes[to_scene]
            n = self.reachable_endings(to_scene)
            if to.is_ending:
                evidence.append(_ev_scene(to, "is_ending"))
            else:
                evidence.append({"source": "scene_states", "field": "is_ending", "agg": "count", "value": n})
            summary = T.branch_reaches(branch_id=bid, from_name=from_name, condition=self.cond(branch),
                                       to_name=self.name(to_scene), to_is_ending=bool(to.is_ending), reachable_endings=n)
        elif verdict == MISSING_TARGET:
            summary = T.branch_missing_target(branch_id=bid, from_name=from_name, condition=self.cond(branch),
                                              to_scene=to_scene, scenes=len(self.sc.scenes))
            evidence.append(_count("scene_id", len(self.sc.scenes), "scene_states"))
            close = _same_id_spelling(to_scene, self.spelling())
            hedges.append(T.hedge_missing_target(to_scene=to_scene, close=close,
                                                 rejected_lines=self.sc.rejected_scene_lines))
        elif verdict == UNREACHED:
            scene = self.sc.scenes.get(from_scene)
            if scene is None:
                summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=None, incoming=0)
                evidence.append(_count("scene_id", len(self.sc.scenes), "scene_states"))
                hedges.append(T.hedge_from_missing_scene(from_scene=from_scene))
            else:
                inc = len(self.incoming.get(scene.scene_id, []))
                if self.has_entry:
                    evidence.append(_ev_scene(scene, "is_entry"))
                evidence.append(_count("to_scene", inc, "story_branches"))
                summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=scene.name, incoming=inc)
        elif verdict == SHADOWING:
            summary = self.shadowing_summary(branch, overlapping, evidence, hedges)
        else:  # NO_ENDING
            to = self.sc.scenes[to_scene]
            evidence.append(_ev_scene(to, "is_ending"))
            evidence.append(_count("is_ending", 0, "scene_states"))
            summary = T.branch_no_ending(branch_id=bid, from_name=from_name, to_name=to.name, endings=self.endings)
        # hedges that concern the branch itself, whatever its verdict
        own = a.shadowed.get(bid)
        if own is not None:
            if own.unsatisfiable:
                hedges.append(T.hedge_unsatisfiable(condition=self.cond(branch), first=own.previous is None))
            else:
                same = any(self.branch_by_id[c].to_scene == to_scene for c in own.covered_by)
                hedges.append(T.hedge_never_fires(covers=own.covered_by, same_target=same, to_name=self.name(to_scene)))
        state = a.shadowing.get(from_scene)
        if state is not None and state.undecided is not None:
            undecided = self.undecided_clause(branch)
            if undecided is not None:
                scene = self.sc.scenes.get(from_scene)
                if scene is not None and self.has_available:
                    item = _ev_scene(scene, "available_flags", raw=True)
                    if item not in evidence:
                        evidence.append(item)
                hedges.append(undecided)
        extra = self.extra_hedges.get(bid)
        if extra:
            hedges.extend(extra)
        return StoryCard({
            "target_no": bid, "target_kind": BRANCH, "scene_id": from_scene, "branch_id": bid, "verdict": verdict,
            "reached_from_entry": reached, "reaches_ending": None, "overlapping_branch_id": overlapping,
            "evidence": evidence, "summary": summary, "hedge": join_clauses(hedges) if hedges else None,
        })

    def shadowing_summary(self, branch: Branch, later_id: str | None, evidence: list[Ev], hedges: list[T.Clause]) -> str:
        assert later_id is not None
        later = self.branch_by_id[later_id]
        info = self.a.shadowed[later_id]
        evidence.append(_ev_branch(branch, "order_no"))
        evidence.append(_ev_branch(later, "branch_id"))
        evidence.append(_ev_branch(later, "condition_expr"))
        evidence.append(_ev_branch(later, "order_no"))
        for cid in info.covered_by:
            if cid != branch.branch_id:
                cover = self.branch_by_id[cid]
                evidence.append(_ev_branch(cover, "condition_expr"))
        scene = self.sc.scenes.get(branch.from_scene)
        if scene is not None:
            evidence.append(_ev_scene(scene, "available_flags", raw=True))
        used: list[str] = []
        for bid in (later_id, *info.covered_by):
            expr: Expr | None = self.a.conditions.get(bid)
            if expr is not None:
                used.extend(f for f in flags_of(expr) if f not in used)
        for f in used:
            spec = self.flags.get(f)
            if spec is None:
                continue
            if spec.type == "int":
                for col in ("min_value", "max_value"):
                    if getattr(spec, col) is not None:
                        evidence.append({"source": "flag_spec", "field": col, "value": getattr(spec, col), "line": spec.line})
            elif spec.type == "enum":
                evidence.append({"source": "flag_spec", "field": "values", "value": spec.raw.get("values"), "line": spec.line})
        if info.unsatisfiable:
            hedges.append(T.hedge_later_unsatisfiable(later_id=later_id))
        return T.branch_shadowing(
            branch_id=branch.branch_id, order_no=branch.order_no, from_name=self.name(branch.from_scene), later_id=later_id,
            later_order=later.order_no, later_condition=self.cond(later), covers=info.covered_by, unsatisfiable=info.unsatisfiable,
        )


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
        self.reachable_endings("")
        self.onward_count("")
        self.spelling()
        return self

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
        missing = [c for t, c in (("scene_states", "is_entry"), ("scene_states", "is_ending"), ("scene_states", "scene_id"))
                   if not a.scenario.has(t, c)]
        issues.append(InputIssue(
            file=a.scenario.files.get("scene_states"), table="scene_states", column=missing[0] if missing else None,
            reason=f"{', '.join(missing) or '필요한'} 열이 없어 장면 {withheld[SCENE]}개와 분기 {withheld[BRANCH]}개의 판정을 보류했습니다.",
        ))
    return issues


def graph_counts(a: Analysis) -> dict:
    """The whole-graph counts of :meth:`CardBuilder.prepare` (they need only the graph
    and the structural reachability, so they can be made while scenes are decided)."""
    b = _Builder(a)
    b.reachable_endings("")
    b.onward_count("")
    return {"endings": b._ending_counts, "onward": b._onward, "spelling": b.spelling()}
