"""Lint findings beside the five verdicts, one small named unit per kind.

The verdicts are structural; these findings look at what the conditions do to readers.
Each kind has a stable ``code`` and a docstring — *잡는 것 / 왜 문제인가 / 예시 / 고치는 법* — which is its documentation (``docs/verdicts.md``, ``storygraph
explain CODE``).  A kind's function yields :class:`Hit` records; the engine stamps the
code and turns them into :class:`~verdicts.model.Finding` objects, and hits that carry a
hedge add it to the card concerned.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterable, Iterator

from verdicts.model import Finding

from . import fixes as F
from . import templates as T
from .analysis import Analysis, records_uses
from .conditions import Compare, Not, compile3, expr_atoms, expr_facts
from verdicts.korean import code

from .graph import ShortestWays, reachable_from
from .liveness import describe_assignment, describe_stuck
from .shadowing import find_witness, menu_blockers, scene_domains

__all__ = ["Hit", "FindingKind", "KINDS", "HEDGING_KINDS", "collect_findings", "FindingMemo"]


@dataclass
class Hit:
    target: str
    #: ``None``: no finding, only the hedge (a search stopped at its budget)
    message: str | None
    line: int | None = None
    table: str = "story_branches"
    data: dict[str, Any] | None = None
    #: a caveat to add to the card ``hedge_on`` (default: ``target``)
    hedge: T.Caveat | None = None
    hedge_on: str | None = None
    #: how to fix it (:mod:`storygraph.fixes`)
    fix: dict[str, Any] | None = None
    #: set when the finding rests on an opaque part of an imported story
    #: (:func:`verdicts.model.withheld_record`): it is shown as withheld, not as a problem
    withheld: dict[str, Any] | None = None
    #: ``(file, line)`` where the finding points when that is not its row's place (a
    #: variable's declaration or first use in the story)
    at: tuple[str, int | None] | None = None
    #: ``(file, line, finding)`` as :func:`collect_findings` last made it (a hit kept by a
    #: :class:`FindingMemo` makes its finding once)
    made: Any = field(default=None, repr=False, compare=False)


@dataclass(frozen=True)
class FindingKind:
    code: str
    title: str
    func: Callable[[Analysis], Iterator[Hit]] = field(compare=False)

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()


KINDS: list[FindingKind] = []


@dataclass
class FindingMemo:
    """What :func:`collect_findings` keeps from one lint of a scenario for the next lint
    of the same scenario after an edit (:mod:`storygraph.incremental`, through
    ``Analysis.reuse``).

    The hits of a unit (a scene, a branch, a scene that depends on dead branches) are
    kept under a key made of exactly what they read; a scene's decision is stood for by
    its token (``AnalysisMemo.tokens``: the same object while nothing the decision reads
    has changed), which covers its branches' ids, lines, conditions, order, kinds and
    the ``flag_spec`` rows of the flags they use.  What every unit may read (every
    ``flag_spec`` row, the columns, the files, whether the input knows menus) is ``env``:
    when it changes, nothing is kept."""

    env: Any = None
    #: ``(kind code, unit)`` -> ``(key, hits)`` of the last lint, and of this one
    before: dict = field(default_factory=dict)
    now: dict = field(default_factory=dict)
    #: scene id -> the token of its decision (``AnalysisMemo.tokens`` of this analysis)
    tokens: dict = field(default_factory=dict)
    #: this lint: how many units were found again
    made: int = 0
    #: the scenes whose decision or row changed since the last lint (set by
    #: :mod:`storygraph.incremental` when the rows were read again in place; ``None``:
    #: not known): the kinds kept sparsely find only their units again
    dirty: set | None = None
    #: kind -> unit -> ``(place, hits)`` of the units with hits (place: the line that
    #: orders them), of the last lint and of this one
    sparse: dict = field(default_factory=dict)
    sparse_now: dict = field(default_factory=dict)

    def keep(self, kind: str, unit: Any, place: Any, hits: list[Hit]) -> None:
        """Record a unit's hits (found in full) for the sparse lints after this one."""
        if hits:
            self.sparse_now.setdefault(kind, {})[unit] = (place, hits)
        else:
            self.sparse_now.setdefault(kind, {})

    def can_patch(self, kind: str) -> bool:
        return self.dirty is not None and kind in self.sparse

    def patch(self, kind: str, redo: Iterable[tuple[Any, Any, Callable[[], Iterable[Hit]]]]) -> list[Hit]:
        """The hits of ``kind``: the last lint's, with the units ``redo`` (``(unit, place,
        make)``) found again; in the order of their places."""
        units = dict(self.sparse[kind])
        for unit, place, make in redo:
            hits = list(make())
            self.made += 1
            if hits:
                units[unit] = (place, hits)
            else:
                units.pop(unit, None)
        self.sparse_now[kind] = units
        return [h for _, hits in sorted(units.values(), key=_first) for h in hits]

    def hits(self, where: tuple, key: Any, make: Callable[[], Iterable[Hit]]) -> list[Hit]:
        old = self.before.get(where)
        if old is not None and old[0] == key:
            hits = old[1]
        else:
            hits = list(make())
            self.made += 1
        self.now[where] = (key, hits)
        return hits

    def units(self, kind: str) -> tuple[dict, dict]:
        """``(last lint's, this lint's)`` units of one kind: unit -> ``(key, hits)``."""
        now: dict = {}
        self.now[kind] = now
        return self.before.get(kind) or {}, now


def _memo(a: Analysis) -> FindingMemo | None:
    return a.reuse


def _first(pair: tuple) -> Any:
    return pair[0]


def _first_line(state) -> int:
    """Where a scene's branches start (the scenes of a decision are in this order)."""
    return min(b.line for b in state.ordered)


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
    """unsatisfiable-condition — 어떤 플래그 값으로도 참이 될 수 없는 분기 조건입니다.

    잡는 것:
        플래그마다 `flag_spec` 범위 안의 어떤 값을 넣어도 거짓인 조건을 잡습니다. 최댓값(`max_value`)이 5일 때의
        `trust > 5`, 또는 `trust > 2 and trust < 1` 같은 조건입니다.
    왜 문제인가:
        독자가 무엇을 했든 이 분기는 한 번도 걸리지 않아, 이 분기로는 도착 장면에 갈 수 없습니다.
    예시:
        신뢰도의 범위가 0–5인데 선장실의 분기 `BR-51`은 조건이 `trust > 5`입니다.
    고치는 법:
        상수나 연산자를 고치거나(`trust >= 5`), 플래그의 범위를 넓히세요.
    """
    def hits(infos) -> Iterator[Hit]:
        for info in infos:
            if info.unsatisfiable:
                b = next(x for x in a.shadowing[info.scene_id].ordered if x.branch_id == info.branch_id)
                cond = T.describe_condition(a.conditions.get(b.branch_id), a.scenario.flags, b.condition_expr)
                yield Hit(b.branch_id, T.finding_unsatisfiable(branch_id=b.branch_id, condition=cond), b.line,
                          fix=F.unsatisfiable_fix(a, b.branch_id))

    memo = _memo(a)
    if memo is None:
        yield from hits(a.shadowed.values())
        return
    shadowing = a.shadowing
    if memo.can_patch("unsatisfiable"):
        yield from memo.patch("unsatisfiable", (
            (s, _first_line(shadowing[s]), lambda s=s: hits(shadowing[s].shadowed.values()))  # type: ignore[misc]  # a lambda recapturing the loop variable: python/mypy#15459
            for s in memo.dirty if s in shadowing))  # type: ignore[union-attr]
        return
    # (one process: a.shadowed holds the scenes' shadowed branches scene by scene, in this order)
    tokens = memo.tokens
    for scene_id, state in shadowing.items():
        if state.shadowed:
            found = memo.hits(("unsatisfiable", scene_id), tokens[scene_id], lambda: hits(state.shadowed.values()))  # noqa: B023 - hits() calls it at once
            memo.keep("unsatisfiable", scene_id, _first_line(state) if found else None, found)
            yield from found
        else:
            memo.keep("unsatisfiable", scene_id, None, [])


@kind("stuck-combination", "분기가 하나도 걸리지 않는 조합")
def stuck_combination(a: Analysis) -> Iterator[Hit]:
    """stuck-combination — 독자가 닿는 장면인데 어떤 독자에게는 분기가 하나도 걸리지 않습니다.

    잡는 것:
        엔딩이 아니고 `available_flags`가 적힌, 독자가 닿는 장면에서 그 플래그들의 값을 어떻게 짝지으면 분기
        조건이 하나도 참이 되지 않는 경우를 잡습니다. 발견은 걸리지 않는 조합을 범위와 값으로 적고, 구체적인
        예를 하나 들고, 그런 조합이 몇 개인지 "조합 36개 가운데 3개"처럼 정확히 셉니다.
    왜 문제인가:
        그런 플래그를 가진 독자는 읽을 내용이 떨어집니다. 장면이 엔딩이 아닌데도 고를 것 없이 이야기가 멈춥니다.
    예시:
        안개 낀 해안에는 `lamp != "꺼짐"`과 `lamp == "꺼짐" and has_key` 두 분기가 있어, 등불이 “꺼짐”이고 열쇠가
        없는 독자는 갈 곳이 없습니다(조합 6개 가운데 하나).
    고치는 법:
        조건이 빈 분기(대비 분기)를 마지막에 더하거나, 모든 조합이 걸리도록 조건을 넓히세요.
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
    """reached-only-through-dead-branch — 한 번도 걸리지 않는 분기를 거쳐야만 닿는 장면입니다.

    잡는 것:
        모든 분기를 따라가면 닿지만(판정도 그렇게 말합니다), 한 번도 걸릴 수 없는 분기(앞 분기에 가려졌거나,
        참이 될 수 없거나, 없는 장면을 가리키는 분기)를 빼면 닿지 않는 장면을 잡습니다. 발견은 이 장면이 기대는
        죽은 분기를 밝힙니다.
    왜 문제인가:
        실제 독자는 아무도 여기 닿지 못해, 죽은 분기 너머의 내용을 잃습니다.
    예시:
        비밀 창고에는 분기 `BR-14`로만 들어오는데, 그 분기의 조건을 채우는 독자는 늘 분기 `BR-13`에 먼저
        걸립니다.
    고치는 법:
        죽은 분기가 걸릴 수 있도록 조건의 차례를 바꾸거나 조건을 좁히세요. 아니면 들어올 다른 길을 더하세요.
    """
    if a.live is None:
        return
    for scene_id, dead in sorted(a.live.reached_only_through.items()):
        scene = a.scenario.scenes[scene_id]
        yield from _dead_units(a, "reached-only", scene, dead, lambda scene, ids: Hit(
            scene.scene_id, T.finding_reached_only_dead(name=scene.spoken, branches=ids), scene.line,
            table="scene_states", data={"dead_branches": ids},
            hedge=T.hedge_reached_only_dead(branches=ids), fix=F.dead_branch_fix(a, ids)))


@kind("ending-only-through-dead-branch", "실제로는 엔딩에 못 가는 장면")
def ending_only_through_dead_branch(a: Analysis) -> Iterator[Hit]:
    """ending-only-through-dead-branch — 한 번도 걸리지 않는 분기를 거쳐야만 엔딩에 닿는 장면입니다.

    잡는 것:
        모든 분기를 따라가면 엔딩에 닿지만, 실제로 걸릴 수 있는 분기만으로는 엔딩에 닿지 않는, 독자가 닿는
        장면을 잡습니다. 발견은 이 장면에서 나가는 길이 기대는 죽은 분기를 밝힙니다.
    왜 문제인가:
        판정은 길의 구조만 보고 엔딩에 닿는다고 말하지만, 여기 온 독자는 이야기를 끝내지 못합니다.
    예시:
        지하 수로에서 등대의 불빛으로 가는 길은 분기 `BR-46`(`trust >= 4`)뿐인데, 앞의 분기 `BR-45`(`trust >=
        0`)가 늘 먼저 걸립니다.
    고치는 법:
        죽은 분기가 걸리게 하거나(차례를 바꾸거나 앞 조건을 좁혀서), 엔딩 쪽으로 가는 다른 길을 더하세요.
    """
    if a.live is None:
        return
    for scene_id, dead in sorted(a.live.ending_only_through.items()):
        scene = a.scenario.scenes[scene_id]
        yield from _dead_units(a, "ending-only", scene, dead, lambda scene, ids: Hit(
            scene.scene_id, T.finding_ending_only_dead(name=scene.spoken, branches=ids), scene.line,
            table="scene_states", data={"dead_branches": ids},
            hedge=T.hedge_ending_only_dead(branches=ids), fix=F.dead_branch_fix(a, ids)))


def _dead_units(a: Analysis, unit: str, scene, dead, make: Callable[[Any, list[str]], Hit]) -> Iterator[Hit]:
    """The hit of a scene that depends on the ``dead`` branches, kept (with a
    :class:`FindingMemo`) while the scene's row and what the fix of each dead branch
    reads are unchanged (:func:`storygraph.fixes.dead_branch_fix`: the decision of the
    branch's scene and the names of its branches' targets, or for a missing target the
    scenes spelled like it, their names and whether they are reached and end)."""
    ids = sorted(set(dead))
    memo = _memo(a)
    if memo is None:
        yield make(scene, ids)
        return
    key = (scene.scene_id, scene.title, scene.line, tuple(ids), tuple(_fix_inputs(a, memo, bid) for bid in ids))
    yield from memo.hits((unit, scene.scene_id), key, lambda: [make(scene, ids)])


def _fix_inputs(a: Analysis, memo: FindingMemo, branch_id: str) -> tuple:
    """What :func:`storygraph.fixes.dead_branch_fix` reads of one dead branch."""
    scenes = a.scenario.scenes
    info = a.shadowed.get(branch_id)
    if info is not None:
        state = a.shadowing.get(info.scene_id)
        targets = tuple((x.to_scene, _title(scenes, x.to_scene)) for x in state.ordered) if state is not None else ()
        return (branch_id, "shadowed", memo.tokens.get(info.scene_id), targets)
    by_id = a.__dict__.get("_fix_branches")
    if by_id is None:
        by_id = a.__dict__["_fix_branches"] = {b.branch_id: b for b in a.scenario.branches}
    b = by_id.get(branch_id)
    if b is None:
        return (branch_id,)
    reached, ending = a.reached or (), a.reaches_ending or ()
    live = a.live.reached if a.live is not None else reached
    near = tuple((s, _title(scenes, s), s in reached, s in ending, s in live) for _, s in F.near_ids(a, b.to_scene))
    return (branch_id, "missing", b.to_scene, b.to_scene in scenes, near)


def _title(scenes, scene_id: str) -> Any:
    s = scenes.get(scene_id)
    return s.title if s is not None else _ABSENT


_ABSENT = ("absent",)


_TRUE = {"1", "true", "yes", "y", "참", "t"}


@kind("used-up-menu", "다 고르면 비는 메뉴")
def used_up_menu(a: Analysis) -> Iterator[Hit]:
    """used-up-menu — 한 번만 고를 수 있는 선택지를 다 고르고 돌아온 독자에게 고를 것이 남지 않는 메뉴입니다.

    잡는 것:
        엔딩이 아닌, 독자가 닿는 장면에서 한 번만 고를 수 있는 선택지(`once_only`로 표시된 `choice`: ink의 `*`,
        ChoiceScript의 `*hide_reuse`나 `*disable_reuse`)마다 그 도착 장면에서 조건 없는 길로 이 장면에 다시
        돌아오는데, 그 선택지들을 다 고른 뒤에 남는 분기가 없거나(계속 고를 수 있는 선택지도, 자동 분기도 없음)
        남은 분기의 조건이 어떤 독자에게는 하나도 맞지 않는 경우를 잡습니다. 돌아오는 길에 조건이 붙었으면 몇 번
        돌아올 수 있는지 알 수 없으므로 잡지 않고, 돌아오는 길에 다른 한 번만 고를 수 있는 선택지가 끼어 있으면 그
        선택지가 들어오는 길이나 다른 돌아오는 길에서 이미 쓰이지 않을 때만 잡습니다.
    왜 문제인가:
        한 번만 고를 수 있는 선택지는 한 번 고르면 사라집니다. 선택지를 모두 고른 뒤 돌아온 독자는 빈 메뉴를
        만나고, ink는 `ran out of content`라는 말과 함께 멈추며 ChoiceScript는 오류를 냅니다. (판정은 플래그
        조합을 따질 뿐 독자가 이미 고른 선택지는 따지지 않습니다. 그 이력을 따지는 곳은 이 발견 하나뿐입니다.)
    예시:
        중심 장면 부두에 `* [선술집]`과 `* [등대]`가 있고 두 곳 모두 독자를 부두로 돌려보내, 세 번째로 왔을 때는
        고를 것이 남지 않습니다.
    고치는 법:
        선택지 하나를 계속 고를 수 있게 하거나(ink의 `+`), 대비 분기를 더하거나(ink의 `* -> leave`, 선택지 뒤의
        자동 분기), 메뉴로 돌아오지 않고 나가는 길을 만드세요.
    """
    sc = a.scenario
    if not a.kinds or not sc.has("story_branches", "once_only"):
        return
    by_scene: dict[str, list] = {}
    for b in sc.branches:
        by_scene.setdefault(b.from_scene, []).append(b)

    def once(b) -> bool:
        return a.kinds.get(b.branch_id) == "choice" and (b.raw.get("once_only") or "").strip().lower() in _TRUE

    candidates = []
    for scene_id, branches in by_scene.items():
        scene = sc.scenes.get(scene_id)
        if scene is None or scene.is_ending or (a.reached is not None and scene_id not in a.reached):
            continue
        used = [b for b in branches if once(b) and not (b.branch_id in a.shadowed and a.shadowed[b.branch_id].unsatisfiable)]
        if used:
            candidates.append((scene, branches, used))
    if not candidates:
        return
    # the ways a reader can surely take to come back: branches that need no condition (a
    # condition may stop holding after some visits); a once-only one is taken once, so the
    # ways back of the used choices must not share one
    ways: dict[str, list] = {}
    every: dict[str, list] = {}
    for b in sc.branches:
        if b.to_scene in sc.scenes:
            every.setdefault(b.from_scene, []).append(b)
            if b.branch_id not in a.opaque and not (b.condition_expr or "").strip():
                ways.setdefault(b.from_scene, []).append(b)
    entries = [s for s in sc.scenes.values() if s.is_entry]
    # each graph built once, each start's breadth-first tree once (not per scene asked)
    any_way, sure_way = _ways(every), _ways(ways)
    for scene, branches, used in candidates:
        # the once-only branches a reader spends on the way in (a shortest way from an
        # entry, over any branch) cannot be taken again on a way back
        way_in = min((p for p in (any_way.way(e.scene_id, scene.scene_id) for e in entries) if p is not None),
                     key=len, default=None)
        spent = {b.branch_id for b in way_in or () if once(b)}
        back = True
        for choice in used:
            path = sure_way.way(choice.to_scene, scene.scene_id)
            taken = {b.branch_id for b in path or () if once(b)}
            if path is None or taken & spent:
                back = False
                break
            spent |= taken
        if not back:
            continue
        rest = [b for b in branches if not once(b)]
        ids = [b.branch_id for b in used]
        if not rest:
            yield Hit(scene.scene_id, T.finding_used_up_menu(name=scene.spoken, choices=ids), scene.line,
                      table="scene_states", data={"choices": ids})
            continue
        # what is left after the once-only choices are used: does it leave some readers with nothing?
        stuck = _left_stuck(a, scene, rest)
        if stuck is not None:
            region, more = describe_stuck(stuck, sc.flags)
            readers = T.region_readers(region, more)
            yield Hit(scene.scene_id, T.finding_used_up_menu_for(name=scene.spoken, choices=ids, readers=readers),
                      scene.line, table="scene_states", data={"choices": ids, "example": stuck.example})


def _ways(ways: dict[str, list]) -> ShortestWays:
    """The shortest ways over ``ways`` (scene -> its branches): ``.way(start, home)`` gives
    the branches of a shortest way from ``start`` back to ``home``, ``[]`` when ``start``
    is ``home``, ``None`` when there is none."""
    return ShortestWays((b.from_scene, b.to_scene, b) for bs in ways.values() for b in bs)


def _left_stuck(a: Analysis, scene, rest: list):
    """The readers for whom none of ``rest`` (a scene's branches once its once-only choices
    are used up) fires, or ``None``: none, or not decidable (flags not declared, an
    opaque condition, the search's budget)."""
    from .budgets import BudgetExceeded
    from .liveness import uncovered

    flags = a.scenario.flags
    if any(b.branch_id in a.opaque for b in rest):
        return None  # may hold for anybody
    exprs = [e for b in rest if (e := a.conditions.get(b.branch_id)) is not None]
    if len(exprs) < len(rest):
        return None
    names = [f for f in dict.fromkeys(f for e in exprs for f in expr_facts(e)[0])]
    available = [f for f in (scene.available_flags or ())] or names
    if any(f not in flags for f in available) or any(f not in available for f in names):
        return None
    try:
        return uncovered(exprs, flags, available, a.budgets)
    except BudgetExceeded:
        return None


@kind("unused-flag", "쓰이지 않는 플래그")
def unused_flag(a: Analysis) -> Iterator[Hit]:
    """unused-flag — `flag_spec`에 선언했지만 어느 조건식도 쓰지 않는 플래그입니다.

    잡는 것:
        플래그 이름(`flag`)이 어느 `condition_expr`에도 나오지 않는 `flag_spec` 줄을 잡습니다. 이야기(ink, Twine,
        ChoiceScript, Yarn)에서 가져온 변수는 조건만이 아니라 본문, 끼워 넣은 값, 머리글, 함수 몸체까지 어디에서도
        읽지 않고 값을 바꾸지도 않을 때만 잡고, 그 선언의 자리를 가리킵니다(값만 바꾸는 변수는 `write-only-flag`).
    왜 문제인가:
        예전 초안에서 남은 플래그이거나, 이 플래그를 따져야 할 조건을 잊었거나 잘못 적었습니다.
    예시:
        플래그 `weather`(날씨)는 선언됐지만 어디서도 따지지 않습니다.
    고치는 법:
        그 줄을 지우거나, 이 플래그를 쓰려던 조건을 더하세요.
    """
    if records_uses(a.scenario):
        yield from _unread_flags(a, write_only=False)
        return
    if not a.scenario.has("story_branches", "condition_expr"):
        return  # without the conditions nothing can be called unused (the missing column is an issue)
    memo = _memo(a)
    if memo is not None:
        # the flags each scene's conditions use are part of its decision's token
        used = {f for token in memo.tokens.values() for f in token[0]}
    else:
        distinct = {id(expr): expr for expr in a.conditions.values() if expr is not None}
        used = {f for expr in distinct.values() for f in expr_facts(expr)[0]}
    unreadable: list[str] = []
    for flag in a.scenario.flags.values():
        if flag.flag in used:
            continue
        if not unreadable:
            # a condition that could not be read may still use a flag: any name written in it counts
            unreadable = [b.condition_expr or "" for b in a.scenario.branches if a.conditions.get(b.branch_id) is None] or [""]
        if not any(_mentions(text, flag.flag) for text in unreadable):
            yield Hit(flag.flag, T.finding_unused_flag(flag=flag.flag, label=flag.name), flag.line, table="flag_spec",
                      fix=F.unused_flag_fix(flag, a.scenario.scenes.values(), a.story))


def _places(text: str | None) -> list[tuple[str, int | None]]:
    """``file:line`` places of a ``read_at``/``written_at``/``declared_at`` cell."""
    out: list[tuple[str, int | None]] = []
    for part in (text or "").split("|"):
        part = part.strip()
        if not part:
            continue
        file, sep, line = part.rpartition(":")
        out.append((file, int(line)) if sep and line.isdigit() else (part, None))
    return out


def _unread_flags(a: Analysis, write_only: bool) -> Iterator[Hit]:
    """The flags of an imported story that are read nowhere (``read_at`` empty): never
    written either (unused-flag, at the declaration) or written (write-only-flag, with
    the writes)."""
    from verdicts.model import withheld_record

    for flag in a.scenario.flags.values():
        raw = flag.raw
        if (raw.get("read_at") or "").strip():
            continue
        writes = _places(raw.get("written_at"))
        declared = _places(raw.get("declared_at"))
        # a read by a name computed while playing may read this flag: withheld, not called unread
        any_read = (raw.get("read_opaque") or "").strip()
        held = None
        if any_read:
            m = re.match(r"^(.*?):(\d+): ", any_read)
            where = [{"file": m.group(1), "line": int(m.group(2))}] if m else []
            held = withheld_record(T.withheld_unread(label=T.flag_word(flag), source=any_read), where)
        if write_only and writes:
            yield Hit(flag.flag, T.finding_write_only(flag=flag.flag, label=flag.name, writes=len(writes)), flag.line,
                      table="flag_spec", data={"writes": [f"{f}:{n}" if n is not None else f for f, n in writes]},
                      at=writes[0], withheld=held)
        elif not write_only and not writes:
            yield Hit(flag.flag, T.finding_unused_variable(flag=flag.flag, label=flag.name), flag.line, table="flag_spec",
                      fix=F.unused_flag_fix(flag, a.scenario.scenes.values(), a.story), at=declared[0] if declared else None,
                      withheld=held)


@kind("write-only-flag", "읽히지 않는 변수")
def write_only_flag(a: Analysis) -> Iterator[Hit]:
    """write-only-flag — 값은 바꾸지만 어디에서도 읽지 않는 변수입니다.

    잡는 것:
        이야기(ink, Twine, ChoiceScript, Yarn)에서 가져온 변수 가운데, 값을 정하거나 바꾸는 자리는 있는데 조건, 본문,
        끼워 넣은 값(`{x}`, `${x}`), 머리글, 함수 몸체 어디에서도 읽지 않는 변수를 잡습니다. 발견은 값을 바꾸는
        자리를 모두 적습니다.
    왜 문제인가:
        값을 바꿔도 이야기가 달라지지 않습니다. 이 값으로 가르려던 분기를 잊었거나, 다른 이름으로 잘못 읽고
        있을 수 있습니다.
    예시:
        ink 이야기에서 `~ gold = gold + 5`로 금화를 모으지만 금화를 따지는 조건도, 금화를 보여 주는 본문도 없습니다.
    고치는 법:
        이 값을 따지는 조건이나 보여 주는 본문을 더하거나, 쓸모없는 변경과 선언을 지우세요.
    """
    if records_uses(a.scenario):
        yield from _unread_flags(a, write_only=True)


@kind("undeclared-variable", "선언하지 않은 변수")
def undeclared_variable(a: Analysis) -> Iterator[Hit]:
    """undeclared-variable — 선언 없이 쓰는 변수라 엔진이 그 자리에서 멈춥니다.

    잡는 것:
        선언이 있어야 하는 형식(ChoiceScript의 `*create`·`*temp`, ink의 `VAR`)에서 선언 없이 읽거나 값을 바꾸는
        변수를 잡습니다. 발견은 그 변수를 처음 쓰는 자리를 가리킵니다.
    왜 문제인가:
        엔진은 선언되지 않은 변수를 만나면 오류를 내고 멈춥니다. 그 자리에 닿은 독자는 이야기를 더 읽지 못합니다.
    예시:
        ChoiceScript의 `startup.txt`에 `*create gold 0`이 없는데 다른 장면이 `*set gold +5`를 씁니다.
    고치는 법:
        `startup.txt`에 `*create`로(그 장면에서만 쓴다면 `*temp`로), ink라면 `VAR`로 변수를 선언하세요.
    """
    if not a.scenario.has("flag_spec", "undeclared"):
        return
    for flag in a.scenario.flags.values():
        mark = (flag.raw.get("undeclared") or "").strip()
        if not mark or mark.lower() in ("0", "false", "no", "n", "거짓"):
            continue
        uses = _places(flag.raw.get("read_at")) + _places(flag.raw.get("written_at"))
        # the cell holds the first use in reading order (``1`` when the importer did not say)
        named = _places(mark) if ":" in mark else []
        first = named[0] if named else (uses[0] if uses else None)
        place = T.place_at(*first) if first else None
        yield Hit(flag.flag, T.finding_undeclared(flag=flag.flag, label=flag.name, place=place), flag.line,
                  table="flag_spec", data={"uses": [f"{f}:{n}" if n is not None else f for f, n in uses]}, at=first)


def _withheld(a: Analysis, code_: str, hit: Hit) -> dict[str, Any] | None:
    """Why a finding rests on an opaque part of an imported story (a withheld record), or
    ``None``: reachability findings on an opaque jump that may lead anywhere, range
    findings on a flag that may take any value (``docs/importers.md``)."""
    from verdicts.model import withheld_record

    if code_ in ("reached-only-through-dead-branch", "ending-only-through-dead-branch") and a.opaque_jumps:
        by_id = {b.branch_id: b for b in a.scenario.branches}
        if code_ == "reached-only-through-dead-branch":
            if a.maybe_reached is None or hit.target not in a.maybe_reached or a.maybe_reached is a.reached:
                return None
            reached = a.reached or set()
            jumps = [bid for bid in a.opaque_jumps if by_id[bid].from_scene in reached]
        else:
            sources = {by_id[bid].from_scene: bid for bid in reversed(list(a.opaque_jumps))}
            ahead = reachable_from(a.graph, [hit.target])
            jumps = [bid for s, bid in sources.items() if s in ahead]
        if not jumps:
            return None
        bid = jumps[0]
        where = a.positions.get(("story_branches", bid))
        place = T.place_words(*where) if where else None
        item = {"file": where[0], "line": where[1]} if where else {"table": "story_branches", "line": by_id[bid].line}
        reason = T.withheld_finding_jump(source=a.opaque_jumps[bid], place=place, more=len(a.opaque_jumps) - 1)
        return withheld_record(reason, [item])
    if not a.opaque_effects:
        return None
    flags: list[str] = []
    if code_ in ("unsatisfiable-condition", "always-true-condition"):
        expr = a.conditions.get(hit.target)
        flags = sorted(expr_facts(expr)[0]) if expr is not None else []
    elif code_ == "comparison-out-of-range":
        flags = [str((hit.data or {}).get("flag"))]
    elif code_ == "stuck-combination":
        scene = a.scenario.scenes.get(hit.target)
        flags = list(scene.available_flags or ()) if scene is not None else []
    touched = [f for f in flags if f in a.opaque_effects]
    if not touched:
        return None
    flag = touched[0]
    spec = a.scenario.flags.get(flag)
    source = a.opaque_effects[flag]
    m = re.match(r"^(.*?):(\d+): ", source or "")
    item = ({"file": m.group(1), "line": int(m.group(2))} if m else {"table": "flag_spec", "line": spec.line if spec else None})
    return withheld_record(T.withheld_range(label=T.flag_word(spec) if spec else code(flag), source=source), [item])


@kind("available-flag-unused", "장면에서 쓰이지 않는 플래그")
def available_flag_unused(a: Analysis) -> Iterator[Hit]:
    """available-flag-unused — 장면의 `available_flags`에 적혔지만 그 장면의 어느 조건도 쓰지 않는 플래그입니다.

    잡는 것:
        장면에서 나가는 어느 분기도 따지지 않는, `available_flags`에 적힌 이름을 잡습니다.
    왜 문제인가:
        이 목록은 조건 겹침과 걸리지 않는 조합을 따질 때 값을 바꿔 보는 플래그들입니다. 낡은 항목이 있으면
        조합의 수가 실제 선택보다 커지고, 잊은 조건을 가릴 수도 있습니다.
    예시:
        선창은 `has_key`를 적었지만 하나뿐인 분기에 조건이 없습니다.
    고치는 법:
        `available_flags`에서 그 플래그를 빼거나, 그 플래그가 뜻을 가져야 할 곳에서 따지세요.
    """
    by_scene: dict = {}
    conditions = a.conditions
    has_column = a.scenario.has("story_branches", "condition_expr")
    labels: dict[str, str] = {}  # flag -> how sentences call it (made once per flag)

    def hits(scene) -> Iterator[Hit]:
        if not by_scene:
            by_scene.update(a.scenario.branches_from())
        branches = by_scene.get(scene.scene_id, [])
        exprs = [conditions.get(b.branch_id) for b in branches]
        if has_column and None in exprs:
            return  # an unreadable condition may use it
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

    memo = _memo(a)
    if memo is None:
        for scene in a.scenario.scenes.values():
            if scene.available_flags:
                yield from hits(scene)
        return
    scenes = a.scenario.scenes
    if memo.can_patch("available"):
        yield from memo.patch("available", (
            (s, scenes[s].line, lambda s=s: hits(scenes[s]) if scenes[s].available_flags else iter(()))  # type: ignore[misc]  # a lambda recapturing the loop variable: python/mypy#15459
            for s in memo.dirty if s in scenes))  # type: ignore[union-attr]
        return
    tokens = memo.tokens
    before, now = memo.units("available")
    memo.keep("available", None, None, [])
    for scene_id, scene in scenes.items():
        if not scene.available_flags:
            continue
        # the token stands for the scene's branches and their conditions (it is None for a scene none leaves)
        token = tokens.get(scene_id)
        old = before.get(scene_id)
        if (old is not None and old[0] is token and old[1] == scene.title and old[2] == scene.line
                and old[3] == scene.available_flags):
            now[scene_id] = old
            found = old[4]
        else:
            found = list(hits(scene))
            now[scene_id] = (token, scene.title, scene.line, scene.available_flags, found)
            memo.made += 1
        if found:
            memo.keep("available", scene_id, scene.line, found)
        yield from found


def _mentions(text: str, name: str) -> bool:
    """``name`` written as a whole word in ``text``."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def _label(a: Analysis, flag: str) -> str:
    spec = a.scenario.flags.get(flag)
    return T.flag_name(spec) if spec else code(flag)


@kind("comparison-out-of-range", "범위 밖 비교")
def comparison_out_of_range(a: Analysis) -> Iterator[Hit]:
    """comparison-out-of-range — 플래그의 범위 때문에 답이 이미 정해진 비교입니다.

    잡는 것:
        정수 플래그를 상수와 비교하는데, 최솟값(`min_value`)과 최댓값(`max_value`) 사이의 어떤 값에서도 답이
        같은 비교를 잡습니다. 최댓값이 5인 플래그를 `trust > 9`로 비교하면 늘 거짓이고, 최솟값이 0인 플래그를
        `trust >= 0`으로 비교하면 늘 참입니다.
    왜 문제인가:
        거의 언제나 오타이거나 범위가 바뀐 것입니다. 조건이 겉보기와 다른 것을 따집니다.
    예시:
        신뢰도의 범위가 0–5인데 `trust > 5`로 비교합니다.
    고치는 법:
        상수를 고치거나, `flag_spec`에서 플래그의 범위를 고치세요.
    """
    flags = a.scenario.flags
    # the comparisons of one condition tree that are fixed by their flag's range, once per tree
    fixed: dict[int, list[tuple[Compare, Any, bool]]] = {}

    def found(b, expr) -> Iterator[Hit]:
        hits = fixed.get(id(expr))
        if hits is None:
            hits = fixed[id(expr)] = _fixed_comparisons(expr, flags)
        for node, spec, truth in hits:
            yield Hit(b.branch_id, T.finding_out_of_range(
                branch_id=b.branch_id, comparison=f"{node.flag} {node.op} {node.value}", label=T.flag_word(spec),
                lo=spec.min_value, hi=spec.max_value, truth=truth), b.line,
                data={"flag": node.flag, "op": node.op, "value": node.value, "always": truth, "position": node.pos},
                fix=F.out_of_range_fix(a, b, node, spec, truth))

    memo = _memo(a)
    conditions = a.conditions
    if memo is None:
        # an imported story's `else` cases carry the negation of the cases before them:
        # a comparison fixed by its range is one defect, reported once per scene, at the
        # first branch that holds it (the case the author wrote it in)
        seen: set[tuple] | None = set() if a.story else None
        for b in a.scenario.branches:
            expr = conditions.get(b.branch_id)
            if expr is None:
                continue
            hits = fixed.get(id(expr))
            if hits is None:
                hits = fixed[id(expr)] = _fixed_comparisons(expr, flags)
            if hits:  # (most conditions have none: no generator for them)
                for hit in found(b, expr):
                    if seen is not None:
                        assert hit.data is not None  # a range hit carries its comparison
                        key = (b.from_scene, hit.data["flag"], hit.data["op"], hit.data["value"])
                        if key in seen:
                            continue
                        seen.add(key)
                    yield hit
        return
    if memo.can_patch("range"):
        shadowing = a.shadowing
        yield from memo.patch("range", (
            (b.branch_id, b.line, lambda b=b: found(b, conditions[b.branch_id]) if conditions.get(b.branch_id) is not None  # type: ignore[misc]  # a lambda recapturing the loop variable: python/mypy#15459
             else iter(()))
            for s in memo.dirty if s in shadowing for b in shadowing[s].ordered))  # type: ignore[union-attr]
        return
    # the token of the branch's scene stands for its line, its condition and the scene's decision
    tokens = memo.tokens
    before, now = memo.units("range")
    memo.keep("range", None, None, [])
    nothing: tuple = ()
    for b in a.scenario.branches:
        bid = b.branch_id
        expr = conditions.get(bid)
        if expr is None:
            continue
        token = tokens.get(b.from_scene)
        old = before.get(bid)
        if old is not None and old[0] is token:
            now[bid] = old
            if old[1]:
                memo.keep("range", bid, b.line, old[1])
                yield from old[1]
            continue
        made = list(found(b, expr)) or nothing
        now[bid] = (token, made)
        memo.made += 1
        if made:
            memo.keep("range", bid, b.line, made)  # type: ignore[arg-type]
        yield from made


def _fixed_comparisons(expr, flags) -> list[tuple[Compare, Any, bool]]:
    """``(comparison, flag spec, truth)`` for each int comparison in ``expr`` whose truth
    is the same over the flag's whole range, in reading order."""
    out = []
    for node in expr_atoms(expr):
        if type(node) is Compare and type(node.value) is int:
            spec = flags.get(node.flag)
            if spec is None or spec.type != "int":
                continue
            truth = F.constant_over_range(node.op, node.value, spec.min_value, spec.max_value)
            if truth is not None:
                out.append((node, spec, truth))
    return out


@kind("always-true-condition", "늘 참인 조건")
def always_true_condition(a: Analysis) -> Iterator[Hit]:
    """always-true-condition — 어떤 독자에게나 참인 조건이 다른 분기보다 앞에 적혀 있습니다.

    잡는 것:
        같은 장면에 뒤 순번 분기가 있는 분기에서, 비어 있지 않은 조건식(`condition_expr`)이 장면의 플래그가 어떤
        값이든 참인 경우를 잡습니다. 그러면 뒤의 분기는 모두 죽은 분기입니다.
    왜 문제인가:
        조건이 무언가를 가르는 것처럼 보이지만 실제로는 가르지 않아(`trust >= 0`, `has_key or not has_key`), 그
        뒤의 선택지가 한 번도 나오지 않습니다.
    예시:
        지하 수로의 분기 `BR-45`(`trust >= 0`)가 분기 `BR-46`을 가립니다.
    고치는 법:
        뜻했던 조건을 적거나, 조건을 비우고 그 분기를 대비 분기로 맨 뒤에 두세요.
    """
    flags = a.scenario.flags
    memo = _memo(a)
    shadowing = a.shadowing
    if memo is not None and memo.can_patch("always"):
        yield from memo.patch("always", (
            (s, _first_line(shadowing[s]),
             lambda s=s: _always_true(a, flags, s, shadowing[s]) if shadowing[s].undecided is None else iter(()))  # type: ignore[misc]  # a lambda recapturing the loop variable: python/mypy#15459
            for s in memo.dirty if s in shadowing))  # type: ignore[union-attr]
        return
    if memo is not None:
        memo.keep("always", None, None, [])
    for scene_id, state in shadowing.items():
        if state.undecided is not None:
            continue
        if memo is None:
            yield from _always_true(a, flags, scene_id, state)
        else:
            found = memo.hits(("always", scene_id), memo.tokens[scene_id], lambda: _always_true(a, flags, scene_id, state))  # noqa: B023 - hits() calls it at once
            if found:
                memo.keep("always", scene_id, _first_line(state), found)
            yield from found


def _always_true(a: Analysis, flags, scene_id: str, state) -> Iterator[Hit]:
    """The always-true conditions of one decided scene."""
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
        return
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
    blockers = menu_blockers([a.kinds.get(b.branch_id, "auto") for b in ordered], [b.branch_id in a.opaque for b in ordered],
                             [b.branch_id in a.weak for b in ordered] if a.weak else None)
    if blockers is None:
        return [x.branch_id for x in ordered[index + 1:]]
    if blockers[index] is None:
        return []
    return [ordered[k].branch_id for k in range(index + 1, len(ordered)) if (bk := blockers[k]) is not None and index in bk]


#: the kinds whose hits may add a caveat to a card (the cards wait for these;
#: the others may be found while the cards are made)
HEDGING_KINDS = frozenset({"stuck-combination", "reached-only-through-dead-branch", "ending-only-through-dead-branch"})


def collect_findings(a: Analysis, kinds=None) -> tuple[list[Finding], dict[str, list[T.Caveat]]]:
    """Every finding of every kind (or of ``kinds`` only, in their order), and the hedge
    caveats they add to cards."""
    findings: list[Finding] = []
    hedges: dict[str, list[T.Caveat]] = {}
    positions = a.positions
    memo = _memo(a)
    if memo is not None:
        sc = a.scenario
        env = (tuple((f.flag, f.label, f.type, f.min_value, f.max_value, f.values, f.line, tuple(f.raw.items()))
                     for f in sc.flags.values()),
               tuple(sc.rejected_flags.items()), sc.has_flag_table, tuple(sorted((t, tuple(sorted(c))) for t, c in sc.columns.items())),
               tuple(sorted(sc.files.items())), a.menus, bool(a.kinds or a.opaque), a.story)
        if env != memo.env:
            memo.env, memo.before, memo.sparse, memo.dirty = env, {}, {}, None
        # (lints that find units sparsely keep the others' entries, which their keys still guard)
        memo.now, memo.made, memo.sparse_now = dict(memo.before) if memo.dirty is not None else {}, 0, {}
    for k in KINDS if kinds is None else kinds:
        for hit in k.func(a):
            file, line = a.scenario.files.get(hit.table), hit.line
            if hit.at is not None:
                file, line = hit.at
            elif positions:
                # an imported story: the row's own place in the story
                file, line = positions.get((hit.table, hit.target), (file, None if a.story else line))
            if hit.withheld is None and (a.opaque_jumps or a.opaque_effects):
                hit.withheld = _withheld(a, k.code, hit)
            if hit.message is not None:
                made = hit.made
                if made is not None and made[0] == file and made[1] == line:
                    if made[2].fix is not None and hit.withheld is None:
                        # its fix is checked against this scenario, not the last one's
                        made = hit.made = (file, line, replace(made[2], fix=F.verified(
                            a, hit.fix or F.finding_reason(a, k.code, hit.target), (hit.target, k.code))))
                    findings.append(made[2])
                else:
                    finding = Finding(code=k.code, target=hit.target, message=hit.message,
                                      file=file, line=line, data=hit.data,
                                      fix=None if hit.withheld else F.verified(a, hit.fix or F.finding_reason(a, k.code, hit.target),
                                                                                 (hit.target, k.code)),
                                      withheld=hit.withheld)
                    if memo is not None:
                        hit.made = (file, line, finding)
                    findings.append(finding)
            if hit.hedge is not None and hit.withheld is None:
                hedges.setdefault(hit.hedge_on or hit.target, []).append(hit.hedge)
    if memo is not None and kinds is None:
        memo.before, memo.sparse = memo.now, memo.sparse_now
    return findings, hedges
