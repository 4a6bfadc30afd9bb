"""Condition-aware facts beyond the five verdicts.

* **Stuck combinations** — for a reached, non-ending scene whose ``available_flags`` are
  declared: the flag assignments under which none of its branches' conditions holds, so
  a reader with those flags has nowhere to go.  Counted exactly over range classes
  (weights = class sizes), described as ranges and values, with one example.
* **Live reachability** — reachability recomputed with the branches that never fire
  (shadowed, unsatisfiable, pointing at a missing scene) removed: a scene structurally
  reached only through such branches, or able to reach an ending only through them.

The five verdicts stay structural; these facts become lint findings and hedges.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import product
from math import prod
from typing import Any, Mapping, Sequence

from verdicts.records import Frozen

from . import templates as T
from .budgets import Budgets, Meter
from .conditions import Eval3, Expr, compile3
from .graph import reachable_avoiding, reachable_from, reaching, scene_graph
from .minimal import MAX_POINTS, grid_size, minimal_cubes
from .model import Flag
from .shadowing import FlagDomain, scene_domains

__all__ = ["Cube", "StuckScene", "uncovered", "describe_stuck", "describe_assignment", "LiveReach", "live_reachability"]

#: at most this many uncovered cubes are kept for describing (the count stays exact)
MAX_CUBES = 400
#: counts of assignments longer than this many bits (about 900 digits: flags with
#: ranges of hundreds of digits) are not kept: they are "countless" (``None``) as for an
#: unbounded flag, and a report never has to write a number Python refuses to write
MAX_COUNT_BITS = 3000
#: pairs of cubes compared while merging them for the description, at most
MERGE_COMPARISONS = 2_000_000


class Cube(Frozen):
    """A set of assignments: for each constrained flag, the class indices it may take
    (flags not listed are free)."""

    __slots__ = ("classes",)
    classes: tuple[tuple[str, frozenset[int]], ...]

    def __init__(self, classes: tuple[tuple[str, frozenset[int]], ...]):
        object.__setattr__(self, "classes", classes)

    def get(self, flag: str) -> frozenset[int] | None:
        return dict(self.classes).get(flag)


@dataclass
class StuckScene:
    scene_id: str
    count: int | None  # None when some flag is unbounded
    total: int | None
    cubes: list[Cube]
    domains: dict[str, FlagDomain]
    flags: tuple[str, ...]  # the scene's available flags, in order
    example: dict[str, Any] = field(default_factory=dict)
    #: the budget that stopped the search, in words (``조건 평가 2,000,000번``): then
    #: nothing else here is known (the scene was not decided)
    limit: str | None = None
    #: whether ``cubes`` hold every uncovered assignment (the search keeps at most
    #: :data:`MAX_CUBES` of them)
    complete: bool = True


def _weight(domains: Mapping[str, FlagDomain], flag: str, index: int) -> int | None:
    return domains[flag].points[index][1]


def _mul(values: Sequence[int | None]) -> int | None:
    return None if any(v is None for v in values) else prod(values)  # type: ignore[arg-type]


def uncovered(conditions: Sequence[Expr], flags: Mapping[str, Flag], available: Sequence[str],
              budget: Budgets | None = None) -> StuckScene | None:
    """Assignments of ``available`` flags under which no condition holds (``None`` when
    every assignment is covered).  Exact: a depth-first search over range classes that
    stops as soon as some condition holds (covered) or every condition is false (the
    whole sub-cube is uncovered).

    With a ``budget``, :class:`~storygraph.budgets.BudgetExceeded` once the search has
    evaluated conditions more than ``budget.stuck_evaluations`` times (the number of
    sub-cubes may grow as the product of the flags' classes)."""
    domains = scene_domains(conditions, flags, names=available)
    order = [f for f in available if f in domains]
    evals: list[Eval3] = [compile3(c) for c in conditions]
    meter = Meter("stuck_evaluations", budget.stuck_evaluations) if budget is not None else None
    per_visit = max(1, len(evals))
    totals = {f: domains[f].total for f in order}
    count_parts: list[int | None] = []
    cubes: list[Cube] = []
    assignment: dict[str, Any] = {}
    chosen: dict[str, int] = {}

    def visit(depth: int) -> bool:
        """Judge the sub-cube of the flags assigned so far; whether to go deeper."""
        if meter is not None:
            meter.spend(per_visit)
        values = [e(assignment) for e in evals]
        if any(v is True for v in values):
            return False
        if all(v is False for v in values) or depth == len(order):
            free = [totals[f] for f in order[depth:]]
            fixed = [_weight(domains, f, i) for f, i in chosen.items()]
            count_parts.append(_mul(fixed + free))
            if len(cubes) < MAX_CUBES:
                cubes.append(Cube(tuple((f, frozenset({i})) for f, i in chosen.items())))
            return False
        return True

    # depth first, with a stack of the next class to try at each depth (a scene may list
    # more flags than Python's recursion limit)
    points = [domains[f].points for f in order]
    if visit(0):
        stack = [0]
        while stack:
            depth = len(stack) - 1
            flag = order[depth]
            index = stack[depth]
            if index >= len(points[depth]):
                stack.pop()
                assignment.pop(flag, None)
                chosen.pop(flag, None)
                continue
            stack[depth] = index + 1
            assignment[flag] = points[depth][index][0]
            chosen[flag] = index
            if visit(depth + 1):
                stack.append(0)
    if not count_parts:
        return None
    count = None if any(c is None for c in count_parts) else sum(c for c in count_parts if c is not None)
    total = _mul([totals[f] for f in order])
    if count is not None and count.bit_length() > MAX_COUNT_BITS:
        count = None
    if total is not None and total.bit_length() > MAX_COUNT_BITS:
        total = None
    merged = _merge(cubes, domains)
    example = _example(merged[0], domains, order)
    return StuckScene("", count, total, merged, domains, tuple(order), example, complete=len(cubes) < MAX_CUBES)


def _merge(cubes: list[Cube], domains: Mapping[str, FlagDomain]) -> list[Cube]:
    """Merge cubes that differ in one flag only, until nothing merges; drop constraints
    that allow every class."""
    work = [dict(c.classes) for c in cubes]
    changed = True
    # each pass compares pairs until one merges: at most MAX_CUBES passes of MAX_CUBES²/2
    # pairs; past MERGE_COMPARISONS the cubes are described as merged so far (the count
    # is exact whatever the description)
    compared = 0
    while changed and len(work) > 1 and compared < MERGE_COMPARISONS:
        changed = False
        for i in range(len(work)):
            compared += len(work) - i - 1
            for j in range(i + 1, len(work)):
                a, b = work[i], work[j]
                if a.keys() != b.keys():
                    continue
                diff = [f for f in a if a[f] != b[f]]
                if len(diff) == 1:
                    f = diff[0]
                    a[f] = a[f] | b[f]
                    del work[j]
                    changed = True
                    break
            if changed:
                break
    out = []
    for c in work:
        kept = tuple((f, s) for f, s in c.items() if len(s) < len(domains[f].points))
        out.append(Cube(kept))
    return out


def _example(cube: Cube, domains: Mapping[str, FlagDomain], order: Sequence[str]) -> dict[str, Any]:
    example = {}
    for f in order:
        allowed = cube.get(f)
        index = min(allowed) if allowed else 0
        example[f] = domains[f].points[index][0]
    return example


def _class_members(flag: Flag, domain: FlagDomain, index: int) -> tuple[Any, Any] | list[str] | bool:
    value, weight = domain.points[index]
    if flag.type == "bool":
        return bool(value)
    if flag.type == "enum":
        if weight == 1:
            return [value]
        named = {p[0] for i, p in enumerate(domain.points) if i != index}
        return [v for v in flag.values if v not in named]
    end = domain.points[index + 1][0] - 1 if index + 1 < len(domain.points) else flag.max_value
    return (value, end)


def describe_stuck(stuck: StuckScene, flags: Mapping[str, Flag], limit: int = 3) -> tuple[list["T.Pred | None"], int]:
    """The uncovered assignments as predicates, at most ``limit`` cubes (``None`` for a
    cube that leaves every flag free), and how many more cubes there are.  The cubes are
    those of the region's minimal form (:func:`storygraph.minimal.minimal_cubes`, by
    sympy) when the search kept them all and the region is within the bounds of
    minimisation, else the search's own cubes merged."""
    cubes = _minimal(stuck, flags) or stuck.cubes
    region: list[T.Pred | None] = []
    for cube in cubes[:limit]:
        parts = [p for p in (_describe_flag(flags[f], idx, stuck.domains[f]) for f, idx in cube.classes) if p is not None]
        region.append(T.all_of(parts) if parts else None)
    return region, max(0, len(cubes) - limit)


def _minimal(stuck: StuckScene, flags: Mapping[str, Flag]) -> list[Cube] | None:
    """The cubes of the minimal form of the uncovered region, or ``None`` (not all kept,
    past the bounds, or nothing to merge)."""
    if not stuck.complete or len(stuck.cubes) < 2:
        return None
    order = [f for f in stuck.flags if f in stuck.domains and len(stuck.domains[f].points) > 1]
    ks = [len(stuck.domains[f].points) for f in order]
    if grid_size(order, stuck.domains) > MAX_POINTS:
        return None
    inside: set[tuple[int, ...]] = set()
    for cube in stuck.cubes:
        allowed = dict(cube.classes)
        inside.update(product(*[sorted(allowed.get(f, range(k))) for f, k in zip(order, ks)]))
    found = minimal_cubes(inside, ks, [flags[f].type for f in order])
    if found is None:
        return None
    return [Cube(tuple((f, allowed) for f, allowed, k in zip(order, cube, ks) if len(allowed) < k)) for cube in found]


def _describe_flag(spec: Flag, indices: frozenset[int], domain: FlagDomain | None) -> "T.Pred | None":
    label = T.flag_word(spec)
    assert domain is not None
    members = [_class_members(spec, domain, i) for i in sorted(indices)]
    if spec.type == "bool":
        values = {bool(m) for m in members}
        return T.exists_pred(label, values == {True}) if len(values) == 1 else None
    if spec.type == "enum":
        names = [v for m in members for v in m]  # type: ignore[union-attr]
        return T.enum_pred(label, names)
    ranges: list[list[Any]] = []
    for lo, hi in members:  # type: ignore[misc]
        if ranges and ranges[-1][1] is not None and lo == ranges[-1][1] + 1:
            ranges[-1][1] = hi
        else:
            ranges.append([lo, hi])
    if len(ranges) == 1 and ranges[0] == [spec.min_value, spec.max_value]:
        return None  # the whole range: any value
    # an end at the flag's own bound is not said (신뢰도가 2 이하, not 0 이상 2 이하)
    return T.range_pred(label, [(None if lo == spec.min_value and hi is not None and lo != hi else lo,
                                 None if hi == spec.max_value and lo != spec.min_value else hi) for lo, hi in ranges])


def describe_assignment(example: Mapping[str, Any], flags: Mapping[str, Flag]) -> str:
    """``신뢰도가 2이고 열쇠가 없고 등불이 꺼졌다면``."""
    parts = []
    for f, v in example.items():
        spec = flags[f]
        label = T.flag_word(spec)
        if spec.type == "bool":
            parts.append(T.exists_pred(label, bool(v)))
        elif spec.type == "enum":
            parts.append(T.enum_pred(label, [str(v)]))
        else:
            parts.append(T.range_pred(label, [(v, v)]))
    return T.assignment_if(T.all_of(parts)) if parts else "어떤 조합이든"


# --------------------------------------------------------------------------- live reachability


@dataclass
class LiveReach:
    """Reachability through live branches only, and which dead branches each scene
    depends on."""

    dead: set[str]
    reached: set[str]
    reaches_ending: set[str]
    #: scene -> dead branches through which alone it is (structurally) reached
    reached_only_through: dict[str, list[str]]
    #: scene -> dead branches through which alone it can reach an ending
    ending_only_through: dict[str, list[str]]


def live_reachability(scenes: set[str], branches, dead: set[str], entries, endings,
                      reached: set[str], reaches_ending: set[str], graph=None) -> LiveReach:
    """Reachability through the branches that can fire.

    ``branches``: (branch_id, from_scene, to_scene) of every branch; ``graph``, the
    scenario's graph (:func:`storygraph.graph.scene_graph`: its edges are exactly the
    branches between known scenes; made from ``branches`` when not given).  An edge every
    branch of which is dead is left out of the live walks
    (:func:`storygraph.graph.reachable_avoiding`).
    """
    if graph is None:
        graph = scene_graph(sorted(scenes), [(a, b) for _, a, b in branches if a in scenes and b in scenes])
    dead_edges = [(bid, a, b) for bid, a, b in branches if bid in dead and a in scenes and b in scenes]
    # edges every branch of which is dead: the live walks do not follow them
    pairs = {(a, b) for _, a, b in dead_edges}
    if pairs:
        sources = {a for a, _ in pairs}
        pairs -= {(a, b) for bid, a, b in branches if a in sources and bid not in dead and (a, b) in pairs}
    live_reached = reachable_avoiding(graph, entries, cut=pairs)
    live_ending = reachable_avoiding(graph, endings, cut=pairs, backwards=True)
    gated = reached - live_reached
    within = graph.subgraph(gated)  # one view for every walk below
    reached_only: dict[str, list[str]] = {}
    for bid, a, b in dead_edges:
        if a in live_reached and b in gated:
            for s in reachable_from(within, [b]):
                reached_only.setdefault(s, []).append(bid)
    cut = (reaches_ending & reached) - live_ending
    within = graph.subgraph(cut)
    ending_only: dict[str, list[str]] = {}
    for bid, a, b in dead_edges:
        if b in reaches_ending and a in cut:
            for s in reaching(within, [a]):
                ending_only.setdefault(s, []).append(bid)
    return LiveReach(dead, live_reached, live_ending, reached_only, ending_only)
