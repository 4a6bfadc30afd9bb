"""The verdict rules of storygraph, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentence
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  Rules read the facts of one run through ``ctx``, a
:class:`~storygraph.cards.CardBuilder` (the analysis, and the whole-graph counts and
names it keeps).  A rule that lacks what it needs answers
:class:`~verdicts.engine.Missing`: the book's policy is ``withhold`` — the card is not
made and the missing column is already an input issue (the seed forbids guessing).

Each rule's docstring is its documentation — *What it flags / Why it matters / Example /
Instead* — and is what ``docs/`` and ``storygraph explain`` print.
"""

from __future__ import annotations

from typing import Any

from verdicts.engine import Draft, Missing, Rule, RuleBook

from . import templates as T
from .conditions import flags_of
from .model import BRANCH, MISSING_TARGET, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, UNREACHED, Branch, Scene, StoryCard

# ``ctx`` below is the run's :class:`~storygraph.cards.CardBuilder` (named as a string:
# cards.py imports this module).

__all__ = ["SCENE_RULES", "BRANCH_RULES", "RULES", "SCENE_BOOK", "BRANCH_BOOK", "VERDICT_CODES"]

_MISSING_ENTRY = Missing(("scene_states.is_entry",))
_MISSING_ENDING = Missing(("scene_states.is_ending",))
_MISSING_ID = Missing(("scene_states.scene_id",))


def _scene_cell(scene: Scene, field: str, *, raw: bool = False) -> dict[str, Any]:
    """Cite ``field`` of the scene's row: the typed cell, or with ``raw`` the text as written."""
    value = scene.raw.get(field) if raw else getattr(scene, field)
    return {"source": "scene_states", "field": field, "value": value, "line": scene.line}


def _branch_cell(branch: Branch, field: str) -> dict[str, Any]:
    return {"source": "story_branches", "field": field, "value": getattr(branch, field), "line": branch.line}


def _count(field: str, value: int, source: str) -> dict[str, Any]:
    return {"source": source, "field": field, "agg": "count", "value": value}


# ----------------------------------------------------------------------------- scenes


class SceneUnreached(Rule["CardBuilder", Scene]):
    """어디서도 안 닿음 — no path from any entry scene reaches this scene.

    What it flags:
        A scene that no reader can ever see: it is not an entry (``is_entry``) and no
        chain of branches from an entry leads to it — either nothing points at it, or
        everything that does leaves from scenes that are unreached themselves (an island).
    Why it matters:
        Written content that nobody reads, and often a sign of a branch that was deleted
        or pointed elsewhere by mistake.
    Example:
        ``SC-19`` (선장의 고백) is not an entry and no ``to_scene`` names it.
    Instead:
        Add a branch from a reached scene to it, mark it ``is_entry`` if it is a start,
        or delete it.
    """

    verdict, code, kind = UNREACHED, "unreached", SCENE
    stamp = {"reaches_ending": None}  # not known for a scene nobody reaches
    templates = (T.scene_unreached, T.hedge_island)

    def test(self, ctx, scene):
        reached = ctx.a.reached
        return _MISSING_ENTRY if reached is None else scene.scene_id not in reached

    def write(self, ctx, scene, draft):
        incoming = ctx.incoming.get(scene.scene_id, [])
        if ctx.has_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        draft.evidence.append(_count("to_scene", len(incoming), "story_branches"))
        sources = [ctx.labelled(s) for s in dict.fromkeys(b.from_scene for b in incoming)]
        for b in incoming[:5]:
            draft.evidence.append(_branch_cell(b, "from_scene"))
        draft.summary = T.scene_unreached(name=scene.spoken, incoming=len(incoming), sources=sources)
        if incoming:
            draft.hedge(T.hedge_island(sources=sources))


class SceneNoEnding(Rule["CardBuilder", Scene]):
    """끝에 못 감 — reached from an entry, but no ending can be reached from it.

    What it flags:
        A scene readers do reach, after which no path leads to any ``is_ending`` scene:
        a dead end with no outgoing branch, or a loop with no exit.
    Why it matters:
        Readers get stuck with no way to finish the story.
    Example:
        ``SC-27`` (폐선 창고) leads only to ``SC-31`` (부서진 무전기), which has no branch out
        and is not an ending.
    Instead:
        Add a branch towards an ending, or mark the last scene ``is_ending`` if the open
        end is intended (then record that decision, see the manual checks).
    """

    verdict, code, kind = NO_ENDING, "no-ending", SCENE
    stamp = {"reaches_ending": False}
    templates = (T.scene_no_ending,)

    def test(self, ctx, scene):
        good = ctx.a.reaches_ending
        return _MISSING_ENDING if good is None else scene.scene_id not in good

    def write(self, ctx, scene, draft):
        out = ctx.outgoing.get(scene.scene_id, [])
        draft.evidence.append(_scene_cell(scene, "is_ending"))
        for b in out[:5]:
            draft.evidence.append(_branch_cell(b, "to_scene"))
        draft.evidence.append(_count("from_scene", len(out), "story_branches"))
        draft.evidence.append(_count("is_ending", 0, "scene_states"))
        draft.summary = T.scene_no_ending(name=scene.spoken, outgoing=len(out), onward=ctx.onward_count(scene.scene_id),
                                          endings=ctx.endings)


class SceneReaches(Rule["CardBuilder", Scene]):
    """끝까지 닿음 — reached from an entry, and an ending is reachable from it.

    What it flags:
        Nothing wrong: readers can arrive here and can still finish the story.
    Why it matters:
        It is the verdict every scene and branch should have.
    Example:
        ``SC-01`` (부두의 첫 만남) is an entry from which three endings can be reached.
    Instead:
        Nothing to change.
    """

    verdict, code, kind = REACHED_AND_ENDS, "reaches-ending", SCENE
    stamp = {"reaches_ending": True}
    templates = (T.scene_reaches,)

    def write(self, ctx, scene, draft):
        n = ctx.reachable_endings(scene.scene_id)
        if scene.is_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        if scene.is_ending:
            draft.evidence.append(_scene_cell(scene, "is_ending"))
        draft.evidence.append(_count("is_ending", n, "scene_states"))
        draft.summary = T.scene_reaches(name=scene.spoken, is_entry=bool(scene.is_entry), is_ending=bool(scene.is_ending),
                                        reachable_endings=n, endings=ctx.endings)


# ----------------------------------------------------------------------------- branches


class BranchMissingTarget(Rule["CardBuilder", Branch]):
    """없는 장면을 가리킴 — the branch's ``to_scene`` is not a known scene.

    What it flags:
        A branch whose destination is not among the ``scene_id`` values of
        ``scene_states``.
    Why it matters:
        A reader who takes it falls out of the story; usually a deleted scene or a typo.
    Example:
        ``BR-42`` leaves 등대지기의 방 for ``SC-88``, which no scene row has.
    Instead:
        Point the branch at an existing scene, or add the missing scene.
    """

    verdict, code, kind = MISSING_TARGET, "missing-scene", BRANCH
    templates = (T.branch_missing_target, T.hedge_missing_target)

    def test(self, ctx, branch):
        if not ctx.has_scene_id:
            return _MISSING_ID
        return branch.to_scene not in ctx.sc.scenes

    def write(self, ctx, branch, draft):
        to_scene = branch.to_scene
        draft.summary = T.branch_missing_target(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene),
                                                condition=ctx.cond(branch), to_scene=to_scene, scenes=len(ctx.sc.scenes))
        draft.evidence.append(_count("scene_id", len(ctx.sc.scenes), "scene_states"))
        draft.hedge(T.hedge_missing_target(to_scene=to_scene, close=ctx.same_spelling(to_scene),
                                           rejected_lines=ctx.sc.rejected_scene_lines))


class BranchUnreached(Rule["CardBuilder", Branch]):
    """어디서도 안 닿음 — the branch leaves from a scene that no reader reaches.

    What it flags:
        A branch whose ``from_scene`` is unreached from every entry, or is not a known
        scene at all.
    Why it matters:
        The choice is never offered to anyone.
    Example:
        A branch leaving ``SC-19``, which nothing leads to.
    Instead:
        Make its scene reachable, or remove the branch.
    """

    verdict, code, kind = UNREACHED, "unreached", BRANCH
    templates = (T.branch_unreached, T.hedge_from_missing_scene)

    def test(self, ctx, branch):
        if branch.from_scene not in ctx.sc.scenes:
            return True
        reached = ctx.a.reached
        return _MISSING_ENTRY if reached is None else branch.from_scene not in reached

    def write(self, ctx, branch, draft):
        bid, from_scene = branch.branch_id, branch.from_scene
        scene = ctx.sc.scenes.get(from_scene)
        if scene is None:
            draft.summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=None, incoming=0)
            draft.evidence.append(_count("scene_id", len(ctx.sc.scenes), "scene_states"))
            draft.hedge(T.hedge_from_missing_scene(from_scene=from_scene))
            return
        incoming = len(ctx.incoming.get(scene.scene_id, []))
        if ctx.has_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        draft.evidence.append(_count("to_scene", incoming, "story_branches"))
        draft.summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=scene.spoken, incoming=incoming)


class BranchShadowing(Rule["CardBuilder", Branch]):
    """조건이 겹침 — the next branch of the same scene can never fire.

    What it flags:
        Branches are tried in ``order_no`` order and the first whose condition holds is
        taken.  When every flag combination (over the scene's ``available_flags`` and
        their ``flag_spec`` ranges) that makes a later branch's condition true also
        makes an earlier one true, the later branch never fires.  The card goes on the
        branch immediately before it, with ``overlapping_branch_id`` naming it.  Merely
        overlapping conditions are normal and not flagged.
    Why it matters:
        Content behind the later branch is unreachable through it, and the creator
        usually meant the more specific condition to win.
    Example:
        ``BR-13`` (``trust >= 3``, 순번 3) before ``BR-14`` (``trust >= 3 and has_key``,
        순번 4): every reader who satisfies BR-14 is caught by BR-13 first.
    Instead:
        Put the more specific branch first, or narrow the earlier condition
        (``trust >= 3 and not has_key``).
    """

    verdict, code, kind = SHADOWING, "shadowed", BRANCH
    templates = (T.branch_shadowing, T.hedge_later_unsatisfiable)

    def test(self, ctx, branch):
        return branch.branch_id in ctx.a.overlap

    def write(self, ctx, branch, draft):
        later_id = ctx.a.overlap[branch.branch_id]
        later = ctx.branch_by_id[later_id]
        info = ctx.a.shadowed[later_id]
        evidence = draft.evidence
        evidence.append(_branch_cell(branch, "order_no"))
        evidence.append(_branch_cell(later, "branch_id"))
        evidence.append(_branch_cell(later, "condition_expr"))
        evidence.append(_branch_cell(later, "order_no"))
        for cid in info.covered_by:
            if cid != branch.branch_id:
                evidence.append(_branch_cell(ctx.branch_by_id[cid], "condition_expr"))
        scene = ctx.sc.scenes.get(branch.from_scene)
        if scene is not None:
            evidence.append(_scene_cell(scene, "available_flags", raw=True))
        used: list[str] = []
        for bid in (later_id, *info.covered_by):
            expr = ctx.a.conditions.get(bid)
            if expr is not None:
                used.extend(f for f in flags_of(expr) if f not in used)
        for f in used:
            spec = ctx.flags.get(f)
            if spec is None:
                continue
            if spec.type == "int":
                for col in ("min_value", "max_value"):
                    if getattr(spec, col) is not None:
                        evidence.append({"source": "flag_spec", "field": col, "value": getattr(spec, col), "line": spec.line})
            elif spec.type == "enum":
                evidence.append({"source": "flag_spec", "field": "values", "value": spec.raw.get("values"), "line": spec.line})
        if info.unsatisfiable:
            draft.hedge(T.hedge_later_unsatisfiable(later_id=later_id))
        draft.summary = T.branch_shadowing(
            branch_id=branch.branch_id, order_no=branch.order_no, from_name=ctx.name(branch.from_scene), later_id=later_id,
            later_order=later.order_no, later_condition=ctx.cond(later), covers=info.covered_by,
            unsatisfiable=info.unsatisfiable, role=info.role,
        )


class BranchNoEnding(Rule["CardBuilder", Branch]):
    """끝에 못 감 — the branch leads to a scene from which no ending can be reached.

    What it flags:
        A branch of a reached scene whose ``to_scene`` reaches no ``is_ending`` scene.
    Why it matters:
        Readers who choose it can never finish the story.
    Example:
        ``BR-27`` from 폐선 창고 to 부서진 무전기, a dead end.
    Instead:
        Lead the destination on to an ending, or make the open end an ending.
    """

    verdict, code, kind = NO_ENDING, "no-ending", BRANCH
    templates = (T.branch_no_ending,)

    def test(self, ctx, branch):
        good = ctx.a.reaches_ending
        return _MISSING_ENDING if good is None else branch.to_scene not in good

    def write(self, ctx, branch, draft):
        to = ctx.sc.scenes[branch.to_scene]
        draft.evidence.append(_scene_cell(to, "is_ending"))
        draft.evidence.append(_count("is_ending", 0, "scene_states"))
        draft.summary = T.branch_no_ending(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene), to_name=to.spoken,
                                           endings=ctx.endings)


class BranchReaches(Rule["CardBuilder", Branch]):
    """끝까지 닿음 — reached, and its destination can still reach an ending.

    What it flags:
        Nothing wrong: the branch is offered to readers and leads on towards an ending.
    Why it matters:
        It is the verdict every branch should have.
    Example:
        ``BR-21`` from 밀수선 갑판 to 항구의 아침.
    Instead:
        Nothing to change.
    """

    verdict, code, kind = REACHED_AND_ENDS, "reaches-ending", BRANCH
    templates = (T.branch_reaches,)

    def write(self, ctx, branch, draft):
        to_scene = branch.to_scene
        to = ctx.sc.scenes[to_scene]
        n = ctx.reachable_endings(to_scene)
        if to.is_ending:
            draft.evidence.append(_scene_cell(to, "is_ending"))
        else:
            draft.evidence.append({"source": "scene_states", "field": "is_ending", "agg": "count", "value": n})
        draft.summary = T.branch_reaches(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene),
                                         condition=ctx.cond(branch), to_name=ctx.name(to_scene),
                                         to_is_ending=bool(to.is_ending), reachable_endings=n, endings=ctx.endings)


SCENE_RULES: tuple[Rule, ...] = (SceneUnreached(), SceneNoEnding(), SceneReaches())
BRANCH_RULES: tuple[Rule, ...] = (BranchMissingTarget(), BranchUnreached(), BranchShadowing(), BranchNoEnding(), BranchReaches())
RULES = SCENE_RULES + BRANCH_RULES

#: stable codes of the verdicts (also accepted wherever a Korean label is)
VERDICT_CODES: dict[str, str] = {r.code: r.verdict for r in RULES}


# ----------------------------------------------------------------------------- what every card of a kind says


def _scene_lead(ctx: "CardBuilder", scene: Scene, draft: Draft) -> None:
    """Every scene card cites the scene's id and title first."""
    draft.evidence.append(_scene_cell(scene, "scene_id"))
    if scene.title is not None:
        draft.evidence.append(_scene_cell(scene, "title"))
    if ("scene_states", scene.scene_id) in ctx.a.positions:
        draft.evidence += [_scene_cell(scene, "source_file", raw=True), _scene_cell(scene, "source_line", raw=True)]


def _scene_hedges(ctx: "CardBuilder", scene: Scene, draft: Draft) -> None:
    """The lint findings' hedges on the scene (stuck readers, reached only through a
    dead branch …)."""
    extra = ctx.extra_hedges.get(scene.scene_id)
    if extra:
        draft.hedges.extend(extra)
    live = ctx.a.live
    dead = live.reached_only_through.get(scene.scene_id) if live is not None else None
    if draft.decision.verdict == REACHED_AND_ENDS and draft.summary and live is not None:
        # the tables' paths reach an ending, real readers never get in (or never get
        # out to an ending): say that first
        blocked = live.ending_only_through.get(scene.scene_id)
        if dead:
            draft.summary = T.undone(why=T.undone_reached_only_dead(branches=sorted(set(dead))), summary=draft.summary)
        elif blocked:
            draft.summary = T.undone(why=T.undone_ending_only_dead(branches=sorted(set(blocked))), summary=draft.summary)


def _branch_lead(ctx: "CardBuilder", branch: Branch, draft: Draft) -> None:
    """Every branch card cites the branch's own cells first."""
    line = branch.line
    draft.evidence += [
        {"source": "story_branches", "field": "branch_id", "value": branch.branch_id, "line": line},
        {"source": "story_branches", "field": "from_scene", "value": branch.from_scene, "line": line},
        {"source": "story_branches", "field": "to_scene", "value": branch.to_scene, "line": line},
    ]
    if ctx.has_condition:
        draft.evidence.append({"source": "story_branches", "field": "condition_expr", "value": branch.condition_expr, "line": line})
    if ("story_branches", branch.branch_id) in ctx.a.positions:
        # where the story writes the branch (SARIF and annotations point there)
        draft.evidence += [{"source": "story_branches", "field": f, "value": branch.raw.get(f), "line": line}
                           for f in ("source_file", "source_line")]


def _branch_hedges(ctx: "CardBuilder", branch: Branch, draft: Draft) -> None:
    """What holds of the branch whatever its verdict: it never fires (covered by earlier
    branches, or unsatisfiable), its scene's shadowing was not decided, and the lint
    findings' hedges."""
    a, bid = ctx.a, branch.branch_id
    own = a.shadowed.get(bid)
    if own is not None and draft.decision.verdict == REACHED_AND_ENDS and draft.summary:
        # the branch never fires: its path exists only on paper
        why = T.undone_unsatisfiable() if own.unsatisfiable else T.undone_never_fires()
        draft.summary = T.undone(why=why, summary=draft.summary)
    if own is not None:
        if own.unsatisfiable:
            draft.hedge(T.hedge_unsatisfiable(condition=ctx.cond(branch), first=own.previous is None))
        else:
            same = any(ctx.branch_by_id[c].to_scene == branch.to_scene for c in own.covered_by)
            draft.hedge(T.hedge_never_fires(covers=own.covered_by, same_target=same, to_name=ctx.name(branch.to_scene),
                                            role=own.role))
    if bid in a.opaque:
        draft.hedge(T.hedge_opaque(source=a.opaque[bid]))
    state = a.shadowing.get(branch.from_scene)
    if state is not None and state.undecided is not None:
        undecided = ctx.undecided_clause(branch)
        if undecided is not None:
            scene = ctx.sc.scenes.get(branch.from_scene)
            if scene is not None and ctx.has_available:
                item = _scene_cell(scene, "available_flags", raw=True)
                if item not in draft.evidence:
                    draft.evidence.append(item)
            draft.hedge(undecided)
    extra = ctx.extra_hedges.get(bid)
    if extra:
        draft.hedges.extend(extra)


SCENE_BOOK: RuleBook["CardBuilder", Scene] = RuleBook(SCENE_RULES, fields=StoryCard.field_names, on_missing="withhold",
                                                      lead=_scene_lead, hedges=_scene_hedges)
BRANCH_BOOK: RuleBook["CardBuilder", Branch] = RuleBook(BRANCH_RULES, fields=StoryCard.field_names, on_missing="withhold",
                                                        lead=_branch_lead, hedges=_branch_hedges)
