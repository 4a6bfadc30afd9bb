"""Lint findings beside the five verdicts, one small named unit per kind.

The verdicts are structural; these findings look at what the conditions do to readers.
Each kind has a stable ``code`` and a docstring — *What it flags / Why it matters /
Example / Instead* — which is its documentation (``docs/verdicts.md``, ``storygraph
explain CODE``).  A kind's function yields :class:`Hit` records; the engine stamps the
code and turns them into :class:`~verdicts.model.Finding` objects, and hits that carry a
hedge add it to the card concerned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from verdicts.model import Finding

from . import fixes as F
from . import templates as T
from .analysis import Analysis
from .conditions import Compare, Not, compile3, expr_atoms, expr_facts
from verdicts.korean import code

from .liveness import describe_assignment, describe_stuck
from .reach import strongly_connected
from .shadowing import find_witness, menu_blockers, scene_domains

__all__ = ["Hit", "FindingKind", "KINDS", "HEDGING_KINDS", "collect_findings"]


@dataclass
class Hit:
    target: str
    #: ``None``: no finding, only the hedge (a search stopped at its budget)
    message: str | None
    line: int | None = None
    table: str = "story_branches"
    data: dict[str, Any] | None = None
    #: a clause to add to the hedge of the card ``hedge_on`` (default: ``target``)
    hedge: T.Clause | None = None
    hedge_on: str | None = None
    #: how to fix it (:mod:`storygraph.fixes`)
    fix: dict[str, Any] | None = None


@dataclass(frozen=True)
class FindingKind:
    code: str
    title: str
    func: Callable[[Analysis], Iterator[Hit]] = field(compare=False)

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()


KINDS: list[FindingKind] = []


def kind(code: str, title: str):
    def register(func: Callable[[Analysis], Iterator[Hit]]):
        KINDS.append(FindingKind(code, title, func))
        return func

    return register


def _name(a: Analysis, scene_id: str) -> str:
    s = a.scenario.scenes.get(scene_id)
    return s.spoken if s else f"장면 {code(scene_id)}"


@kind("unsatisfiable-condition", "참이 될 수 없는 조건")
def unsatisfiable_condition(a: Analysis) -> Iterator[Hit]:
    """unsatisfiable-condition — a branch condition that no flag assignment can make true.

    What it flags:
        A condition that is false for every value of its flags within their
        ``flag_spec`` ranges, such as ``trust > 5`` when ``max_value`` is 5, or
        ``trust > 2 and trust < 1``.
    Why it matters:
        The branch never fires, whatever the reader did; its destination cannot be
        reached through it.
    Example:
        ``BR-51`` (``trust > 5``) in 선장실, with 신뢰도 ranging 0–5.
    Instead:
        Fix the constant or the operator (``trust >= 5``), or widen the flag's range.
    """
    branch_by_id = {b.branch_id: b for b in a.scenario.branches}
    for info in a.shadowed.values():
        if info.unsatisfiable:
            b = branch_by_id[info.branch_id]
            cond = T.describe_condition(a.conditions.get(b.branch_id), a.scenario.flags, b.condition_expr)
            yield Hit(b.branch_id, T.finding_unsatisfiable(branch_id=b.branch_id, condition=cond), b.line,
                      fix=F.unsatisfiable_fix(a, b.branch_id))


@kind("stuck-combination", "분기가 하나도 걸리지 않는 조합")
def stuck_combination(a: Analysis) -> Iterator[Hit]:
    """stuck-combination — a reached scene where, for some readers, no branch fires.

    What it flags:
        A reached scene that is not an ending, whose ``available_flags`` are declared,
        and for which some assignment of those flags makes none of its branches'
        conditions true.  The finding describes the uncovered assignments as ranges and
        values, gives one concrete example, and counts them exactly ("3 of 36").
    Why it matters:
        A reader with those flags runs out of content: the story stops with no choice
        offered, although the scene is not an ending.
    Example:
        안개 낀 해안 offers ``lamp != "꺼짐"`` and ``lamp == "꺼짐" and has_key``: a reader
        whose 등불 is 꺼짐 and who has no 열쇠 has nowhere to go (1 of 6 combinations).
    Instead:
        Add a last branch with an empty condition (a fallback), or widen a condition so
        that every combination is covered.
    """
    flags = a.scenario.flags
    for scene_id, stuck in a.stuck.items():
        scene = a.scenario.scenes[scene_id]
        if stuck.limit is not None:  # not decided: an input issue says why, the card's hedge says so
            yield Hit(scene_id, None, scene.line, table="scene_states", hedge=T.hedge_stuck_undecided())
            continue
        region, more = describe_stuck(stuck, flags)
        readers = T.region_readers(region, more)
        example = describe_assignment(stuck.example, flags)
        data = {"count": stuck.count, "total": stuck.total, "example": stuck.example, "uncovered": T.region_when(region, more)}
        state = a.shadowing.get(scene_id)
        menu = bool(a.kinds) and state is not None and any(a.kinds.get(b.branch_id) == "choice" for b in state.ordered)
        yield Hit(
            scene_id, T.finding_stuck(name=scene.spoken, readers=readers, count=stuck.count, total=stuck.total, example=example,
                                      menu=menu),
            scene.line, table="scene_states", data=data,
            hedge=T.hedge_stuck(readers=readers, count=stuck.count, total=stuck.total, menu=menu),
            fix=F.stuck_fix(a, scene_id, stuck),
        )


@kind("reached-only-through-dead-branch", "실제로는 닿지 않는 장면")
def reached_only_through_dead_branch(a: Analysis) -> Iterator[Hit]:
    """reached-only-through-dead-branch — a scene reached only through branches that never fire.

    What it flags:
        A scene that is reached when every branch is followed (its verdict says so), but
        not when branches that can never fire — shadowed, unsatisfiable, or pointing at
        a missing scene — are removed.  The finding names the dead branch it depends on.
    Why it matters:
        No real reader can get there: the content behind the dead branch is lost.
    Example:
        비밀 창고 is entered only through ``BR-14``, which ``BR-13`` always catches first.
    Instead:
        Reorder or narrow the conditions so that the dead branch can fire, or add
        another way in.
    """
    if a.live is None:
        return
    for scene_id, dead in sorted(a.live.reached_only_through.items()):
        scene = a.scenario.scenes[scene_id]
        yield Hit(scene_id, T.finding_reached_only_dead(name=scene.spoken, branches=sorted(set(dead))), scene.line,
                  table="scene_states", data={"dead_branches": sorted(set(dead))},
                  hedge=T.hedge_reached_only_dead(branches=sorted(set(dead))), fix=F.dead_branch_fix(a, sorted(set(dead))))


@kind("ending-only-through-dead-branch", "실제로는 엔딩에 못 가는 장면")
def ending_only_through_dead_branch(a: Analysis) -> Iterator[Hit]:
    """ending-only-through-dead-branch — a scene that reaches an ending only through branches that never fire.

    What it flags:
        A reached scene from which an ending is reachable when every branch is followed,
        but not through branches that can actually fire.  The finding names the dead
        branch its way out depends on.
    Why it matters:
        Readers there can never finish the story, although the verdict (which is
        structural) says an ending is reachable.
    Example:
        From 지하 수로, the way to 등대의 불빛 is ``BR-46`` (``trust >= 4``), which the
        earlier ``BR-45`` (``trust >= 0``) always catches.
    Instead:
        Make the dead branch fire (reorder, narrow the earlier condition) or add another
        way towards an ending.
    """
    if a.live is None:
        return
    for scene_id, dead in sorted(a.live.ending_only_through.items()):
        scene = a.scenario.scenes[scene_id]
        yield Hit(scene_id, T.finding_ending_only_dead(name=scene.spoken, branches=sorted(set(dead))), scene.line,
                  table="scene_states", data={"dead_branches": sorted(set(dead))},
                  hedge=T.hedge_ending_only_dead(branches=sorted(set(dead))), fix=F.dead_branch_fix(a, sorted(set(dead))))


_TRUE = {"1", "true", "yes", "y", "참", "t"}


@kind("used-up-menu", "다 고르면 비는 메뉴")
def used_up_menu(a: Analysis) -> Iterator[Hit]:
    """used-up-menu — a menu of once-only choices that every choice leads back to.

    What it flags:
        A reached scene that is not an ending, whose every branch is a ``choice`` marked
        ``once_only`` (ink's ``*``, ChoiceScript's ``*hide_reuse``/``*disable_reuse``) —
        no sticky choice, no automatic branch before or after the menu — and from the
        destination of each choice that can be offered there is a way back to the scene.
    Why it matters:
        A once-only choice is gone once taken.  A reader who comes back after taking
        every choice finds the menu empty: ink stops with "ran out of content",
        ChoiceScript with an error.  (The verdicts judge flag combinations, not which
        choices a reader has already taken; this finding is the one place where that
        history counts.)
    Example:
        The hub 부두 offers ``* [선술집]`` and ``* [등대]``, and both places send the
        reader back to 부두: on the third visit nothing is left to choose.
    Instead:
        Make one choice sticky (``+`` in ink), add a fallback (``* -> leave`` in ink, an
        automatic branch after the choices), or give the menu a way out that does not
        come back.
    """
    sc = a.scenario
    if not a.kinds or not sc.has("story_branches", "once_only"):
        return
    by_scene: dict[str, list] = {}
    for b in sc.branches:
        by_scene.setdefault(b.from_scene, []).append(b)
    candidates = []
    for scene_id, branches in by_scene.items():
        scene = sc.scenes.get(scene_id)
        if scene is None or scene.is_ending or (a.reached is not None and scene_id not in a.reached):
            continue
        if not all(a.kinds.get(b.branch_id) == "choice" and (b.raw.get("once_only") or "").strip().lower() in _TRUE
                   for b in branches):
            continue
        offered = [b for b in branches if not (b.branch_id in a.shadowed and a.shadowed[b.branch_id].unsatisfiable)]
        if offered:
            candidates.append((scene, offered))
    if not candidates:
        return
    # a choice leads back to its scene when its destination is in the scene's strongly connected component
    component, _ = strongly_connected(list(a.graph.nodes), a.graph.succ)
    for scene, offered in candidates:
        home = component.get(scene.scene_id)
        if all(b.to_scene in sc.scenes and component.get(b.to_scene) == home for b in offered):
            ids = [b.branch_id for b in offered]
            yield Hit(scene.scene_id, T.finding_used_up_menu(name=scene.spoken, choices=ids), scene.line,
                      table="scene_states", data={"choices": ids})


@kind("unused-flag", "쓰이지 않는 플래그")
def unused_flag(a: Analysis) -> Iterator[Hit]:
    """unused-flag — a flag declared in flag_spec that no condition uses.

    What it flags:
        A row of ``flag_spec`` whose ``flag`` appears in no ``condition_expr``.
    Why it matters:
        Either the flag is left over from an earlier draft, or a condition that should
        test it was forgotten or misspelt.
    Example:
        ``weather`` (날씨) is declared but never tested.
    Instead:
        Remove the row, or add the conditions that were meant to use it.
    """
    if not a.scenario.has("story_branches", "condition_expr"):
        return  # without the conditions nothing can be called unused (the missing column is an issue)
    distinct = {id(expr): expr for expr in a.conditions.values() if expr is not None}
    used = {f for expr in distinct.values() for f in expr_facts(expr)[0]}
    # a condition that could not be read may still use a flag: any name written in it counts
    unreadable = [b.condition_expr or "" for b in a.scenario.branches if a.conditions.get(b.branch_id) is None]
    for flag in a.scenario.flags.values():
        if flag.flag not in used and not any(_mentions(text, flag.flag) for text in unreadable):
            yield Hit(flag.flag, T.finding_unused_flag(flag=flag.flag, label=flag.name), flag.line, table="flag_spec",
                      fix=F.unused_flag_fix(flag, a.scenario.scenes.values(), a.story))


@kind("available-flag-unused", "장면에서 쓰이지 않는 플래그")
def available_flag_unused(a: Analysis) -> Iterator[Hit]:
    """available-flag-unused — a flag listed in a scene's available_flags that none of its conditions use.

    What it flags:
        A name in ``available_flags`` that no branch leaving the scene tests.
    Why it matters:
        The list is what shadowing and stuck combinations vary; a stale entry makes the
        counts larger than the choices really are and may hide a forgotten condition.
    Example:
        선창 lists ``has_key`` but its only branch has no condition.
    Instead:
        Remove the flag from ``available_flags``, or test it where it was meant to matter.
    """
    by_scene = a.scenario.branches_from()
    conditions = a.conditions
    has_column = a.scenario.has("story_branches", "condition_expr")
    labels: dict[str, str] = {}  # flag -> how sentences call it (made once per flag)
    for scene in a.scenario.scenes.values():
        if not scene.available_flags:
            continue
        branches = by_scene.get(scene.scene_id, [])
        exprs = [conditions.get(b.branch_id) for b in branches]
        if has_column and None in exprs:
            continue  # an unreadable condition may use it
        used = {f for expr in exprs if expr is not None for f in expr_facts(expr)[0]}
        unused = [f for f in scene.available_flags if f not in used]
        if unused:
            names = []
            for f in unused:
                label = labels.get(f)
                if label is None:
                    label = labels[f] = _label(a, f)
                names.append(label)
            yield Hit(scene.scene_id, T.finding_available_unused(name=scene.spoken, flags=names),
                      scene.line, table="scene_states", data={"flags": unused}, fix=F.available_unused_fix(scene, unused))


def _mentions(text: str, name: str) -> bool:
    """``name`` written as a whole word in ``text``."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _label(a: Analysis, flag: str) -> str:
    spec = a.scenario.flags.get(flag)
    return T.flag_name(spec) if spec else code(flag)


@kind("comparison-out-of-range", "범위 밖 비교")
def comparison_out_of_range(a: Analysis) -> Iterator[Hit]:
    """comparison-out-of-range — a comparison whose answer is fixed by the flag's range.

    What it flags:
        A comparison of an int flag with a constant that gives the same answer for every
        value between ``min_value`` and ``max_value`` — ``trust > 9`` with a maximum of
        5 is always false, ``trust >= 0`` with a minimum of 0 always true.
    Why it matters:
        It is almost always a typo or a range that changed; the condition does not test
        what it seems to.
    Example:
        ``trust > 5`` when 신뢰도 ranges 0–5.
    Instead:
        Correct the constant, or the flag's range in ``flag_spec``.
    """
    flags = a.scenario.flags
    # the comparisons of one condition tree that are fixed by their flag's range, once per tree
    fixed: dict[int, list[tuple[Compare, Any, bool]]] = {}
    for b in a.scenario.branches:
        expr = a.conditions.get(b.branch_id)
        if expr is None:
            continue
        hits = fixed.get(id(expr))
        if hits is None:
            hits = fixed[id(expr)] = _fixed_comparisons(expr, flags)
        for node, spec, truth in hits:
            yield Hit(b.branch_id, T.finding_out_of_range(
                branch_id=b.branch_id, comparison=f"{node.flag} {node.op} {node.value}", label=T.flag_word(spec),
                lo=spec.min_value, hi=spec.max_value, truth=truth), b.line,
                data={"flag": node.flag, "op": node.op, "value": node.value, "always": truth, "position": node.pos},
                fix=F.out_of_range_fix(a, b, node, spec, truth))


def _fixed_comparisons(expr, flags) -> list[tuple[Compare, Any, bool]]:
    """``(comparison, flag spec, truth)`` for each int comparison in ``expr`` whose truth
    is the same over the flag's whole range, in reading order."""
    out = []
    for node in expr_atoms(expr):
        if type(node) is Compare and isinstance(node.value, int) and not isinstance(node.value, bool):
            spec = flags.get(node.flag)
            if spec is None or spec.type != "int":
                continue
            truth = F.constant_over_range(node.op, node.value, spec.min_value, spec.max_value)
            if truth is not None:
                out.append((node, spec, truth))
    return out


@kind("always-true-condition", "늘 참인 조건")
def always_true_condition(a: Analysis) -> Iterator[Hit]:
    """always-true-condition — a written condition that holds for every reader, before other branches.

    What it flags:
        A non-empty ``condition_expr`` that is true for every assignment of the scene's
        flags, on a branch that has later branches in the same scene: every later branch
        is dead.
    Why it matters:
        The condition looks selective but is not (``trust >= 0``, ``has_key or not
        has_key``), so the choices after it are never offered.
    Example:
        ``BR-45`` (``trust >= 0``) in 지하 수로 hides ``BR-46``.
    Instead:
        Write the condition that was meant, or leave it empty and put the branch last
        as the fallback.
    """
    flags = a.scenario.flags
    for scene_id, state in a.shadowing.items():
        if state.undecided is not None:
            continue
        known = a.class_facts.get(scene_id)
        if known is not None:
            # the class enumeration of the scene already knows which conditions always hold
            for index in known[1]:
                b = state.ordered[index]
                if a.conditions.get(b.branch_id) is None or not (b.condition_expr or "").strip():
                    continue
                later = _hidden_by(a, state.ordered, index)
                if not later:
                    continue
                yield Hit(b.branch_id, T.finding_always_true(branch_id=b.branch_id, condition=b.condition_expr or "", later=later),
                          b.line, data={"later": later}, fix=F.always_true_fix(a, b, later))
            continue
        for index, b in enumerate(state.ordered[:-1]):
            expr = a.conditions.get(b.branch_id)
            if expr is None or not (b.condition_expr or "").strip():
                continue
            later = _hidden_by(a, state.ordered, index)
            if not later:
                continue
            domains = scene_domains([expr], flags)
            if find_witness(compile3(Not(expr)), [], domains, list(domains)) is None:
                yield Hit(b.branch_id, T.finding_always_true(branch_id=b.branch_id, condition=b.condition_expr or "", later=later),
                          b.line, data={"later": later}, fix=F.always_true_fix(a, b, later))


def _hidden_by(a: Analysis, ordered: list, index: int) -> list[str]:
    """The later branches that branch ``index`` keeps from being taken when it holds:
    every later one under first match; under the menu rule only those it blocks (a
    choice hides no other choice, an opaque branch hides nothing)."""
    if not (a.kinds or a.opaque):
        return [x.branch_id for x in ordered[index + 1:]]
    blockers = menu_blockers([a.kinds.get(b.branch_id, "auto") for b in ordered], [b.branch_id in a.opaque for b in ordered])
    if blockers is None:
        return [x.branch_id for x in ordered[index + 1:]]
    if blockers[index] is None:
        return []
    return [ordered[k].branch_id for k in range(index + 1, len(ordered)) if blockers[k] is not None and index in blockers[k]]


#: the kinds whose hits may add a clause to a card's hedge (the cards wait for these;
#: the others may be found while the cards are made)
HEDGING_KINDS = frozenset({"stuck-combination", "reached-only-through-dead-branch", "ending-only-through-dead-branch"})


def collect_findings(a: Analysis, kinds=None) -> tuple[list[Finding], dict[str, list[T.Clause]]]:
    """Every finding of every kind (or of ``kinds`` only, in their order), and the hedge
    clauses they add to cards."""
    findings: list[Finding] = []
    hedges: dict[str, list[T.Clause]] = {}
    positions = a.positions
    for k in KINDS if kinds is None else kinds:
        for hit in k.func(a):
            file, line = a.scenario.files.get(hit.table), hit.line
            if positions:
                # an imported story: the row's own place in the story
                file, line = positions.get((hit.table, hit.target), (file, None if a.story else line))
            if hit.message is not None:
                findings.append(Finding(code=k.code, target=hit.target, message=hit.message,
                                        file=file, line=line, data=hit.data, fix=hit.fix))
            if hit.hedge is not None:
                hedges.setdefault(hit.hedge_on or hit.target, []).append(hit.hedge)
    return findings, hedges
