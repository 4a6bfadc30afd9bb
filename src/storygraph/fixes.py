"""How to fix it: the ``고치는 법`` of a problem card, a lint finding or an input issue.

A fix is computed from the scenario, never a canned sentence: a condition rewritten, a
fallback branch that closes a stuck combination, a branch moved or narrowed, the scene a
misspelt target most likely meant, the declared flag a typo stands for.  Each is a dict

``{"text": "<one Korean sentence>", "edits": [<edit>, …]}``

where an edit is machine-readable and applies to the input tables
(:func:`apply_edits` does it; the tests apply every suggestion and lint again):

* ``{"action": "set", "table", "row", "column", "value"}`` — a cell of the row whose key
  (``branch_id``, ``scene_id``, ``flag``) is ``row`` gets ``value``;
* ``{"action": "add", "table", "row": {column: value, …}}`` — a new row;
* ``{"action": "remove", "table", "row"}`` — the row is deleted;
* ``{"action": "unlist", "table", "row", "column", "value"}`` — ``value`` is taken out
  of the list in that cell (``|`` or ``,`` between items) (a flag out of ``available_flags``: an edit
  that grows with the one name, not with the whole list, so a flag listed by thousands
  of scenes, or a scene listing thousands of flags, gives fixes linear in the input).

Every suggestion is checked before it is offered: the scene's conditions are decided
again with it applied, and it is dropped (or the next candidate tried) if a branch of the
scene would be shadowed, unsatisfiable or always true where it was not, or a reader
stuck where none was.  A region is minimised by sympy (:func:`sympy.logic.SOPform`,
through :func:`minimal_sum`, remembered by region) within bounds: past
:data:`MAX_ATOMS` order variables or :data:`MAX_POINTS` class points it is written out
unminimised, and the sentence says so.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from verdicts.errors import ConditionSyntaxError
from verdicts.korean import josa

from .conditions import (
    And, Compare, Const, Expr, FlagTrue, Not, OPS, Or, check_types, compile3, expr_atoms, expr_facts, parse_condition, render,
)
from .minimal import MAX_ATOMS, MAX_POINTS, grid_size, minimal_cubes, minimal_sum
from . import templates as T
from .model import NO_ENDING, UNREACHED, VERDICTS, Flag
from .shadowing import ClassGrid, FlagDomain, decide_scene, find_witness, menu_blockers, scene_domains

if TYPE_CHECKING:  # pragma: no cover
    # storygraph.analysis imports this module: a type-only edge back (docs/decisions.md,
    # "Types and lint in CI")
    from .analysis import Analysis
    from .liveness import StuckScene

__all__ = [
    "MAX_ATOMS", "MAX_POINTS", "quoted", "region_condition", "stuck_fix", "shadowing_fix", "missing_target_fix",
    "out_of_range_fix", "always_true_fix", "unsatisfiable_fix", "condition_text_fix", "type_problem_fix",
    "unused_flag_fix", "available_unused_fix", "dead_branch_fix", "reach_fix", "verified", "minimal_sum", "near_ids", "near_table", "know_near", "apply_edits", "edit_distance", "KEYS",
    "FixMemo",
]

def quoted(code: str, pair: str | None = None) -> str:
    """Code in backquotes, with the particle of ``pair`` chosen for how it is read
    (through :func:`verdicts.korean.josa`).

    >>> quoted("trust >= 5", "으로/로"), quoted('lamp == "꺼짐"', "을/를")
    ('`trust >= 5`로', '`lamp == "꺼짐"`을')
    """
    if pair is None:
        return f"`{code}`"
    core = code.rstrip("\"') ") or code
    return f"`{code}`" + josa(core, pair)[len(core):]


def _ids(ids: Sequence[str], pair: str | None = None) -> str:
    """Ids quoted as code and joined (```A```, ```B```와 ```C```), with ``pair`` after the last.

    >>> _ids(["BR-1", "BR-2"], "을/를")
    '`BR-1`과 `BR-2`를'
    """
    ids = [str(i) for i in ids]
    last = quoted(ids[-1], pair) if ids else ""
    if len(ids) <= 1:
        return last
    return ", ".join([quoted(i) for i in ids[:-2]] + [quoted(ids[-2], "과/와") + " " + last])


def _fix(text: str, edits: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"text": text, "edits": edits or []}


def _set(table: str, row: str, column: str, value: Any) -> dict[str, Any]:
    return {"action": "set", "table": table, "row": row, "column": column, "value": value}


# ----------------------------------------------------------------------------- regions


def _class_bounds(spec: Flag, domain: FlagDomain, i: int) -> tuple[int | None, int | None]:
    """The values ``[lo, hi]`` of int class ``i`` (``None``: unbounded)."""
    start = domain.points[i][0]
    lo = None if (i == 0 and spec.min_value is None) else start
    hi = domain.points[i + 1][0] - 1 if i + 1 < len(domain.points) else spec.max_value
    return lo, hi


def _enum_members(spec: Flag, domain: FlagDomain, i: int) -> list[str]:
    value, weight = domain.points[i]
    if weight == 1:
        return [value]
    named = {p[0] for j, p in enumerate(domain.points) if j != i}
    return [v for v in spec.values if v not in named]


def _flag_expr(spec: Flag, domain: FlagDomain, allowed: Iterable[int]) -> Expr | None:
    """The condition "the flag's class is one of ``allowed``" in the fewest and plainest
    comparisons, none of them fixed by the flag's range (``None``: every class)."""
    allowed = sorted(set(allowed))
    k = len(domain.points)
    if len(allowed) == k:
        return None
    if not allowed:
        return Const(False)
    f = spec.flag
    if spec.type == "bool":
        truth = bool(domain.points[allowed[0]][0])
        return FlagTrue(f, 0) if truth else Not(FlagTrue(f, 0))
    if spec.type == "enum":
        values = [v for i in allowed for v in _enum_members(spec, domain, i)]
        others = [v for v in spec.values if v not in values]
        if len(values) == 1:
            return Compare(f, "==", values[0], 0)
        if len(others) == 1:
            return Compare(f, "!=", others[0], 0)
        if len(others) < len(values):
            return And(tuple(Compare(f, "!=", v, 0) for v in others))
        return Or(tuple(Compare(f, "==", v, 0) for v in values))
    # int: consecutive classes merged into intervals
    runs: list[list[int]] = []
    for i in allowed:
        if runs and runs[-1][1] == i - 1:
            runs[-1][1] = i
        else:
            runs.append([i, i])
    intervals = [(_class_bounds(spec, domain, a)[0], _class_bounds(spec, domain, b)[1]) for a, b in runs]
    if len(intervals) == 2 and intervals[0][1] is not None and intervals[1][0] is not None \
            and intervals[1][0] - intervals[0][1] == 2 and runs[0][0] == 0 and runs[1][1] == k - 1:
        return Compare(f, "!=", intervals[0][1] + 1, 0)
    parts = [_interval(spec, lo, hi) for lo, hi in intervals]
    return parts[0] if len(parts) == 1 else Or(tuple(parts))


def _interval(spec: Flag, lo: int | None, hi: int | None) -> Expr:
    f = spec.flag
    if lo is not None and lo == hi:
        return Compare(f, "==", lo, 0)
    parts: list[Expr] = []
    if lo is not None and (spec.min_value is None or lo > spec.min_value):
        parts.append(Compare(f, ">=", lo, 0))
    if hi is not None and (spec.max_value is None or hi < spec.max_value):
        parts.append(Compare(f, "<=", hi, 0))
    if not parts:
        return Const(True)
    return parts[0] if len(parts) == 1 else And(tuple(parts))


def _points(order: Sequence[str], domains: Mapping[str, FlagDomain]) -> list[tuple[int, ...]]:
    return list(product(*[range(len(domains[f].points)) for f in order]))


def region_condition(inside: set[tuple[int, ...]], order: Sequence[str], domains: Mapping[str, FlagDomain],
                     flags: Mapping[str, Flag]) -> tuple[Expr, bool]:
    """A condition that holds exactly on the class points ``inside`` (index tuples over
    ``order``), and whether it is a minimal form.

    The region's minimal sum of products comes from sympy
    (:func:`storygraph.minimal.minimal_cubes`), and each product is written flag by flag
    with :func:`_flag_expr`.  Past the bounds of minimisation the points are merged into
    cubes greedily instead.
    """
    if not inside:
        return Const(False), True
    keep = [i for i, f in enumerate(order) if len(domains[f].points) > 1]
    if len(keep) != len(order):  # a flag of one class (or none) constrains nothing
        order = [order[i] for i in keep]
        inside = {tuple(p[i] for i in keep) for p in inside}
    if len(order) == 0:
        return Const(True), True
    cubes = minimal_cubes(inside, [len(domains[f].points) for f in order], [flags[f].type for f in order])
    if cubes is None:
        return _cubes(inside, order, domains, flags), False
    parts = []
    for cube in cubes:
        pieces: list[Expr] = []
        for f, allowed in zip(order, cube):
            e = _flag_expr(flags[f], domains[f], allowed)
            if e is not None:
                pieces.extend(e.args if isinstance(e, And) else (e,))
        parts.append(pieces[0] if len(pieces) == 1 else (And(tuple(pieces)) if pieces else Const(True)))
    if any(p == Const(True) for p in parts):
        return Const(True), True
    if not parts:
        return Const(False), True
    return (parts[0] if len(parts) == 1 else Or(tuple(parts))), True


def _cubes(inside: set, order, domains, flags) -> Expr:
    """The points merged greedily into cubes (one flag's classes at a time), unminimised."""
    work = _merged([[{c} for c in p] for p in sorted(inside)], len(order))
    parts = []
    for cube in work:
        pieces: list[Expr] = []
        for f, allowed in zip(order, cube):
            e = _flag_expr(flags[f], domains[f], allowed)
            if e is not None:
                pieces.extend(e.args if isinstance(e, And) else (e,))
        if not pieces:
            return Const(True)
        parts.append(pieces[0] if len(pieces) == 1 else And(tuple(pieces)))
    if not parts:
        return Const(False)
    return parts[0] if len(parts) == 1 else Or(tuple(parts))


def _merged(work: list[list[set]], k: int) -> list[list[set]]:
    """``work`` (cubes: per flag, a set of classes) with, again and again, the first pair
    ``i < j`` in reading order that differs in one flag only merged into ``i`` (``j``
    removed), until no pair does.

    A scan from the start after each merge would find the same pair, but it would read
    again pairs already known not to merge: all rows before ``start`` are known against
    every other row except the one row ``dirty`` that a merge changed, so the next pair
    is ``(x, dirty)`` for the first ``x`` before it, else in ``dirty``'s own row, else in
    a full scan from ``start``."""

    def differ(a: list[set], b: list[set]) -> int:
        at = -1
        for n in range(k):
            if a[n] != b[n]:
                if at >= 0:
                    return -1
                at = n
        return at

    def merge(i: int, j: int, n: int) -> None:
        work[i][n] = work[i][n] | work[j][n]
        del work[j]

    start, dirty = 0, -1
    while True:
        if dirty >= 0:
            d = dirty
            x = next((x for x in range(d) if differ(work[x], work[d]) >= 0), -1)
            if x >= 0:
                merge(x, d, differ(work[x], work[d]))
                if d < start:
                    start -= 1
                dirty = x
                continue
            y = next((y for y in range(d + 1, len(work)) if differ(work[d], work[y]) >= 0), -1)
            if y >= 0:
                merge(d, y, differ(work[d], work[y]))
                if y < start:
                    start -= 1
                continue
            dirty = -1
        found = False
        for x in range(start, len(work)):
            a = work[x]
            for y in range(x + 1, len(work)):
                n = differ(a, work[y])
                if n >= 0:
                    merge(x, y, n)
                    start = dirty = x
                    found = True
                    break
            if found:
                break
        if not found:
            return work


def _holds_at(expr: Expr, order: Sequence[str], domains, point) -> bool:
    return bool(compile3(expr)({f: domains[f].points[c][0] for f, c in zip(order, point)}))


# ----------------------------------------------------------------------------- made once per analysis


class FixMemo:
    """What the fixes of one analysis make once and read many times: each scene's
    conditions as the fixes decide them again (:class:`_Scene`, with the problems of the
    scene as it is), the 조건이 겹침 and unsatisfiable fixes already made (a card and a
    finding ask for the same one), the index of scene ids by spelling, the branches by
    id and the next free branch id.  Owned by the
    :class:`~storygraph.analysis.Analysis` (its ``fix_memo``): it lives and dies with
    the analysis, and a process that forks after some fixes were made starts with them.
    Of the scenes it keeps the :data:`SCENES_KEPT` most recently used."""

    __slots__ = ("scenes", "made", "neighbours", "branches", "next_id", "undirected", "stuck_roots", "unreached_roots",
                 "checking", "checked", "checks", "baseline", "open_ended", "again", "cut", "local", "full", "users", "scene_index", "id_pattern")

    def __init__(self) -> None:
        self.scenes: dict[str, _Scene] = {}
        self.made: dict[tuple[str, str], dict[str, Any] | None] = {}
        self.neighbours: _Neighbours | None = None
        self.branches: dict[str, Any] | None = None
        self.next_id: str | None = None
        # the reach fixes' graph views and regions, and the fixes checked by analysing again
        self.undirected: Any = None
        self.stuck_roots: dict[str, list[str]] | None = None
        self.unreached_roots: dict[str, list[str]] | None = None
        self.checking = True
        self.checked: dict[str, str | None] = {}
        self.checks = 0
        self.baseline: dict[str, set[str]] | None = None
        self.open_ended: set[str] | None = None
        # the analysis memo the re-analyses share (scenes an edit leaves alone are not
        # decided again), the live walks' cut edges, and how many fixes were checked each way
        self.again: Any = None
        self.cut: list[tuple[str, str]] | None = None
        self.local = 0
        self.full = 0
        self.users: dict[str, set[str]] | None = None
        self.scene_index: dict[str, int] | None = None
        self.id_pattern: tuple[int, str, int] | None = None


def _memo(a: "Analysis") -> FixMemo:
    memo = a.fix_memo
    if memo is None:  # (an Analysis made by hand)
        memo = a.fix_memo = FixMemo()
    return memo


#: scenes whose :class:`_Scene` a :class:`FixMemo` keeps (the most recently asked for):
#: a scene's cards and findings are made close together, and a scene dropped is made
#: again the same way, so the bound costs little time and keeps the memory flat
SCENES_KEPT = 256


def _scene(a: "Analysis", scene_id: str) -> "_Scene":
    scenes = _memo(a).scenes
    scene = scenes.pop(scene_id, None)
    if scene is None:
        scene = _Scene(a, scene_id)
        if len(scenes) >= SCENES_KEPT:
            del scenes[next(iter(scenes))]
    scenes[scene_id] = scene  # (the most recent last)
    return scene


#: fixes a :class:`FixMemo` keeps (the most recently made): a finding and a card that
#: share a fix are made close together or before the cards' processes fork
FIXES_KEPT = 1 << 14


def _once(a: "Analysis", kind: str, key: str, make) -> dict[str, Any] | None:
    """The fix ``make()`` made once per ``(kind, key)`` while it is kept; each caller
    gets its own copy."""
    made = _memo(a).made
    try:
        fix = made[(kind, key)]
    except KeyError:
        fix = make()
        if len(made) >= FIXES_KEPT:
            del made[next(iter(made))]
        made[(kind, key)] = fix
    return None if fix is None else {**fix, "edits": [dict(e) for e in fix["edits"]]}


def _branches_by_id(a: "Analysis") -> dict[str, Any]:
    memo = _memo(a)
    if memo.branches is None:
        memo.branches = {b.branch_id: b for b in a.scenario.branches}
    return memo.branches


# ----------------------------------------------------------------------------- scene state


class _Problems:
    """The problems of a scene's rows (:meth:`_Scene.problems`): ``found``, a set of
    ``("shadowed", id)``, ``("unsatisfiable", id)``, ``("always", id)`` and
    ``("range", id:comparison)``; and the readers stuck, as the class points (over the
    scene's ``available_flags``) where no branch holds: ``shape`` (the number of classes
    of each flag, ``None`` when the points are not enumerated) and ``stuck`` (a mask with
    one byte per point, :class:`~storygraph.shadowing.ClassGrid`'s layout)."""

    __slots__ = ("found", "shape", "stuck")

    def __init__(self, found: set[tuple[str, str]], shape: tuple[int, ...] | None, stuck: int):
        self.found, self.shape, self.stuck = found, shape, stuck

    def __contains__(self, item: tuple[str, str]) -> bool:
        return item in self.found

    def stuck_points(self) -> set[tuple[int, ...]]:
        if self.shape is None:
            return set()
        return {p for i, p in enumerate(product(*[range(k) for k in self.shape])) if (self.stuck >> (8 * i)) & 1}

    def brings(self, before: "_Problems") -> bool:
        """Whether these problems include one that ``before`` does not."""
        if self.found - before.found:
            return True
        if not self.stuck:
            return False
        if self.shape == before.shape:
            return bool(self.stuck & ~before.stuck)
        return bool(self.stuck_points() - before.stuck_points())


class _Scene:
    """The conditions of one scene as a list that can be edited and decided again.

    Made once per scene and analysis (:class:`FixMemo`): the problems of the scene as it
    is, and the pieces every edited version shares — the flag classes of a set of
    conditions, whether a condition holds for everyone under them, its comparisons fixed
    by a range, where it holds on the grid of points — are each made once."""

    def __init__(self, a: "Analysis", scene_id: str):
        self.a = a
        self.scene_id = scene_id
        state = a.shadowing[scene_id]
        self.rows: list[tuple[str, Expr]] = [(b.branch_id, a.conditions[b.branch_id]) for b in state.ordered]  # type: ignore[misc]
        scene = a.scenario.scenes.get(scene_id)
        self.available = list(scene.available_flags or ()) if scene is not None else []
        self.flags = a.scenario.flags
        self._before: _Problems | None = None
        # the conditions the keys below name by id, kept alive with them
        self._alive: list[Expr] = [e for _, e in self.rows]
        # (names, condition ids) -> (domains, number of their classes); domains by value -> number
        self._domains: dict[tuple, tuple[dict[str, FlagDomain], int]] = {}
        self._classes: dict[tuple, int] = {}
        self._always: dict[tuple[int, int], bool] = {}
        self._range: dict[tuple[str, int], list[tuple[str, str]]] = {}
        # classes number -> (shape, grid) of the stuck points (None past the bound)
        self._grids: dict[int, tuple[tuple[int, ...], ClassGrid] | None] = {}
        self._masks: dict[tuple[int, int], int] = {}
        self._region: tuple | None = None

    def before(self) -> _Problems:
        """The problems of the scene as it is (made once)."""
        if self._before is None:
            # the scene as it is was decided by the analysis (the same decision, which
            # did not run past its budget, since the scene is decided)
            state = self.a.shadowing[self.scene_id]
            decided = {("unsatisfiable" if info.unsatisfiable else "shadowed", bid) for bid, info in state.shadowed.items()}
            self._before = self.problems(self.rows, decided)
        return self._before

    def _classes_of(self, exprs: list[Expr], names: list[str]) -> tuple[dict[str, FlagDomain], int]:
        key = (tuple(names), frozenset(map(id, exprs)))
        known = self._domains.get(key)
        if known is None:
            domains = scene_domains(exprs, self.flags, names=names)
            number = self._classes.setdefault(tuple((f, d.points) for f, d in domains.items()), len(self._classes))
            known = self._domains[key] = (domains, number)
            self._alive.extend(exprs)
        return known

    def _stuck_grid(self, domains: Mapping[str, FlagDomain], number: int) -> tuple[tuple[int, ...], ClassGrid] | None:
        if number in self._grids:
            return self._grids[number]
        order = [f for f in self.available if f in domains]
        grid = None
        if order and grid_size(order, domains) <= MAX_POINTS * 4:
            g = ClassGrid(order, domains)
            if g.complete:  # (a flag with no class: no point at all)
                grid = (tuple(len(domains[f].points) for f in order), g)
        self._grids[number] = grid
        return grid

    def _holds(self, e: Expr, grid: ClassGrid, number: int) -> int:
        """Where ``e`` holds on the grid, one byte per point (as :func:`compile3` on each
        point's assignment: a flag off the grid leaves the condition unknown, not true)."""
        key = (id(e), number)
        mask = self._masks.get(key)
        if mask is None:
            names = expr_facts(e)[0]
            if all(f in grid.stride for f in names):
                mask = grid.mask(e)
            else:
                ev, domains = compile3(e), grid.domains
                order = list(grid.stride)[::-1]  # (made from the flags in reverse)
                mask = 0
                for i, p in enumerate(product(*[range(len(domains[f].points)) for f in order])):
                    if ev({f: domains[f].points[c][0] for f, c in zip(order, p)}):
                        mask |= 1 << (8 * i)
            self._masks[key] = mask
        return mask

    def problems(self, rows: list[tuple[str, Expr]], decided: set[tuple[str, str]] | None = None) -> _Problems:
        """What is wrong in the scene with ``rows`` as its branches (:class:`_Problems`);
        ``decided``: its shadowed and unsatisfiable branches when already known."""
        exprs = [e for _, e in rows]
        facts = [expr_facts(e)[0] for e in exprs]
        names = list(dict.fromkeys(self.available + [f for fl in facts for f in fl]))
        domains, number = self._classes_of(exprs, names)
        used = [f for f in dict.fromkeys(f for fl in facts for f in fl) if f in domains]
        if decided is None:
            kinds = [self.a.kinds.get(bid, "auto") for bid, _ in rows]
            opaque = [bid in self.a.opaque for bid, _ in rows]
            weak = [bid in self.a.weak for bid, _ in rows] if self.a.weak else None
            blockers = menu_blockers(kinds, opaque, weak) if (self.a.kinds or self.a.opaque) else None
            shadows, _, _ = decide_scene(exprs, domains, used=used, blockers=blockers)
            out = {("unsatisfiable" if shadow.unsatisfiable else "shadowed", rows[j][0]) for j, shadow in shadows.items()}
        else:
            out = set(decided)
        # a flag of available_flags that no condition tests any more is a finding
        # (available-flag-unused): an edit that leaves one behind brings a problem
        tested = {f for fl in facts for f in fl}
        out.update(("unused", f) for f in self.available if f not in tested)
        grid = self._stuck_grid(domains, number)
        for j, (bid, e) in enumerate(rows[:-1]):
            if isinstance(e, Const):
                continue
            key = (id(e), number)
            always = self._always.get(key)
            if always is None:
                if grid is not None and all(f in grid[1].stride for f in facts[j]):
                    # every flag of the condition is on the grid: it holds for everyone
                    # when it holds at every point of it
                    always = self._holds(e, grid[1], number) == grid[1].all
                else:
                    always = find_witness(compile3(Not(e)), [], domains, list(domains)) is None
                self._always[key] = always
            if always:
                out.add(("always", bid))
        for bid, e in rows:
            key2 = (bid, id(e))
            fixed = self._range.get(key2)
            if fixed is None:
                fixed = self._range[key2] = [("range", f"{bid}:{render(node)}") for node in expr_atoms(e)
                                             if _fixed(node, self.flags) is not None]
            out.update(fixed)
        if grid is None:
            return _Problems(out, None, 0)
        shape, g = grid
        union = 0
        for e in exprs:
            union |= self._holds(e, g, number)
        return _Problems(out, shape, g.all & ~union)

    def region_base(self) -> tuple[list[str], dict[str, FlagDomain], list[tuple[int, ...]], ClassGrid | None] | None:
        """The flags the scene's conditions use (in order), their classes, every point
        of them and their grid (``None`` when a flag has no class): what
        :func:`_scene_region` reads, made once; ``None`` past :data:`MAX_POINTS`."""
        if self._region is None:
            exprs = [e for _, e in self.rows]
            used = list(dict.fromkeys(f for e in exprs for f in expr_facts(e)[0]))
            domains = scene_domains(exprs, self.flags, names=used)
            order = [f for f in used if f in domains]
            if grid_size(order, domains) > MAX_POINTS:
                self._region = (None,)
            else:
                grid = ClassGrid(order, domains)
                self._region = (order, domains, _points(order, domains), grid if grid.complete else None)
        return None if self._region[0] is None else self._region

    def acceptable(self, rows: list[tuple[str, Expr]], gone: set[tuple[str, str]] = frozenset()) -> bool:  # type: ignore[assignment]
        """Whether ``rows`` bring no problem the scene did not have, and remove ``gone``."""
        after = self.problems(rows)
        return not after.brings(self.before()) and not (gone & after.found)


def _fixed(node, flags: Mapping[str, Flag]) -> bool | None:
    """The truth of an int comparison over its flag's whole range, when it is fixed."""
    if type(node) is not Compare or not isinstance(node.value, int) or isinstance(node.value, bool):
        return None
    spec = flags.get(node.flag)
    if spec is None or spec.type != "int":
        return None
    return constant_over_range(node.op, node.value, spec.min_value, spec.max_value)


@lru_cache(maxsize=1 << 16, typed=True)
def constant_over_range(op: str, c: int, lo: int | None, hi: int | None) -> bool | None:
    """True/False when ``x op c`` has the same truth for every x in [lo, hi], else None.
    Remembered: the same comparisons recur in many conditions of a scenario.

    >>> constant_over_range(">=", 0, 0, 10), constant_over_range(">", 5, 0, 10), constant_over_range("<", 0, 0, 10)
    (True, None, False)
    """
    if lo is None or hi is None:
        return None
    holds = OPS[op]
    # the truth can only change at c and c±1: test the ends and the values around c
    truth = holds(lo, c)
    if holds(hi, c) != truth:
        return None
    for v in (c - 1, c, c + 1):
        if lo <= v <= hi and holds(v, c) != truth:
            return None
    return truth


# ----------------------------------------------------------------------------- branch ids


def _next_branch_id(a: "Analysis") -> str:
    """A branch id not yet used, in the pattern of the existing ones (``BR-63`` after
    ``BR-62``); made once per analysis (each fix is applied alone)."""
    memo = _memo(a)
    if memo.next_id is not None:
        return memo.next_id
    n, prefix, width = _id_pattern(a)
    taken = _branches_by_id(a)
    while True:
        n += 1
        candidate = f"{prefix}{n:0{width}d}"
        if candidate not in taken:
            memo.next_id = candidate
            return candidate


def _id_pattern(a: "Analysis") -> tuple[int, str, int]:
    """The highest number among the branch ids, their prefix and the number's width
    (``(62, "BR-", 2)``; the first in input order on a tie, so every run agrees)."""
    best: tuple[int, str, int] | None = None
    pattern = re.compile(r"(.*?)(\d+)")
    for bid in dict.fromkeys(b.branch_id for b in a.scenario.branches):
        m = pattern.fullmatch(bid)
        if m and (best is None or int(m.group(2)) > best[0]):
            best = (int(m.group(2)), m.group(1), len(m.group(2)))
    return best if best is not None else (0, "BR-", 2)


def _new_branch_id(a: "Analysis", source: str) -> str:
    """The id of a branch a fix adds to ``source``: where every branch id is its scene's
    id, ``#`` and a number (the ids the story importers give), the scene's next such id;
    else the pattern of the others numbered past the highest by the scene's place in the
    list (``BR-63`` for the first scene, ``BR-70`` for the eighth), so that the fixes of
    one lint, applied together, add branches with different ids, the same on every run
    and in every process."""
    by_id = _branches_by_id(a)
    if by_id and all(bid.startswith(b.from_scene + "#") and bid[len(b.from_scene) + 1:].isdigit() for bid, b in by_id.items()):
        n = 1 + sum(1 for b in by_id.values() if b.from_scene == source)
        while f"{source}#{n}" in by_id:
            n += 1
        return f"{source}#{n}"
    memo = _memo(a)
    if memo.scene_index is None:
        memo.scene_index = {s: i for i, s in enumerate(a.scenario.scenes)}
    n, prefix, width = _id_pattern(a) if memo.id_pattern is None else memo.id_pattern
    memo.id_pattern = (n, prefix, width)
    n += 1 + memo.scene_index.get(source, len(memo.scene_index))
    while f"{prefix}{n:0{width}d}" in by_id:
        n += 1
    return f"{prefix}{n:0{width}d}"


def _good_target(a: "Analysis", scene_ids: Iterable[str]) -> str | None:
    """The first of ``scene_ids`` that readers reach and that reaches an ending (so a
    branch sent there opens no new dead end)."""
    reached, ending = a.reached or set(), a.reaches_ending or set()
    live = a.live.reached if a.live is not None else reached
    first = None
    for s in scene_ids:
        if s not in a.scenario.scenes:
            continue
        if first is None:
            first = s
        if s in reached and s in ending and s in live:
            return s
    return None


def _name(a: "Analysis", scene_id: str) -> str:
    s = a.scenario.scenes.get(scene_id)
    return s.name if s else scene_id


# ----------------------------------------------------------------------------- stuck


def _none_of(exprs: Sequence[Expr]) -> Expr:
    if not exprs:
        return Const(True)
    return Not(Or(tuple(exprs)) if len(exprs) > 1 else exprs[0])


def stuck_fix(a: "Analysis", scene_id: str, stuck: "StuckScene") -> dict[str, Any] | None:
    """A fallback branch whose condition is exactly the uncovered region (minimised by
    sympy within the bounds), sent to a scene readers reach that reaches an ending."""
    flags = a.scenario.flags
    state = a.shadowing.get(scene_id)
    if state is None:
        return None
    exprs = [a.conditions[b.branch_id] for b in state.ordered]
    if any(e is None for e in exprs):
        return None
    order = list(stuck.flags)
    domains = stuck.domains
    minimised = False
    cond: Expr = _none_of(exprs)  # type: ignore[arg-type]
    if grid_size(order, domains) <= MAX_POINTS:
        points = _points(order, domains)
        grid = ClassGrid(order, domains)
        inside = _inside(order, domains, points, grid if grid.complete else None, [], exprs)  # type: ignore[arg-type]
        region, minimised = region_condition(inside, order, domains, flags)
        if all(_holds_at(region, order, domains, p) == (p in inside) for p in points):
            cond = region
        else:  # pragma: no cover - a wrong region is never offered
            minimised = False
    text = "" if isinstance(cond, Const) and cond.value else render(cond)
    name = _name(a, scene_id)
    target = _good_target(a, [b.to_scene for b in state.ordered])
    how = f"조건을 {quoted(text, '으로/로')} 두어" if text else "조건을 비워 두어"
    unshrunk = "" if minimised else ", 플래그 비교가 많아 이 조건은 더 줄이지 않았습니다"
    if target is None:
        return _fix(f"{name}에서 아무 분기도 걸리지 않는 조합을 모으면 {quoted(text or 'true', '이라/라')} 이 조건으로 갈 장면을 정해 "
                    f"맨 뒤에 분기를 하나 더하면 {'됩니다' if minimised else '되며' + unshrunk}.")
    new_id = _new_branch_id(a, scene_id)
    last = max((b.order_no or 0 for b in state.ordered), default=0) + 1
    row = {"branch_id": new_id, "from_scene": scene_id, "to_scene": target, "condition_expr": text, "order_no": last}
    sentence = (f"{name}의 맨 뒤 순번 {last}에 분기 {quoted(new_id, '을/를')} 더하고 {how}, 이 장면의 분기가 가는 곳 가운데 "
                f"독자가 닿고 엔딩으로 이어지는 첫 장면인 {_name(a, target)}({quoted(target)}){josa(_name(a, target), '으로/로')[len(_name(a, target)):]} "
                f"보내면 아무 분기도 걸리지 않던 조합에도 모두 갈 길이 생깁니다")
    if not minimised:
        sentence = sentence[:-len("생깁니다")] + "생기며" + unshrunk
    return _fix(sentence + ".", [{"action": "add", "table": "story_branches", "row": row}])


# ----------------------------------------------------------------------------- rewriting trees


def _replace(expr: Expr, old: Expr, new: Expr) -> Expr:
    """``expr`` with the node ``old`` (by identity) replaced by ``new``."""
    if expr is old:
        return new
    if isinstance(expr, Not):
        return Not(_replace(expr.arg, old, new))
    if isinstance(expr, (And, Or)):
        return type(expr)(tuple(_replace(x, old, new) for x in expr.args))
    return expr


def _simplify_consts(expr: Expr) -> Expr:
    """Constants folded away (``x and true`` is ``x``, ``x or true`` is ``true``)."""
    if isinstance(expr, Not):
        inner = _simplify_consts(expr.arg)
        return Const(not inner.value) if isinstance(inner, Const) else Not(inner)
    if isinstance(expr, (And, Or)):
        unit = isinstance(expr, And)  # the constant that changes nothing
        args = []
        for x in expr.args:
            x = _simplify_consts(x)
            if isinstance(x, Const):
                if x.value == unit:
                    continue
                return Const(not unit)
            args.append(x)
        if not args:
            return Const(unit)
        return args[0] if len(args) == 1 else type(expr)(tuple(args))
    return expr


def _text_of(expr: Expr) -> str:
    return "" if isinstance(expr, Const) and expr.value else render(_dedupe(expr))


def _dedupe(expr: Expr) -> Expr:
    """Repeated operands of an ``and``/``or`` written once (``x < 4 and x < 4``)."""
    if isinstance(expr, Not):
        return Not(_dedupe(expr.arg))
    if isinstance(expr, (And, Or)):
        seen: dict[str, Expr] = {}
        for x in expr.args:
            x = _dedupe(x)
            seen.setdefault(render(x), x)
        args = tuple(seen.values())
        return args[0] if len(args) == 1 else type(expr)(args)
    return expr


def _rows_with(scene: _Scene, changes: Mapping[str, Expr]) -> list[tuple[str, Expr]]:
    return [(bid, changes.get(bid, e)) for bid, e in scene.rows]


#: a fix is checked by deciding its scene again, once per candidate and card, so on a
#: scene of more branches than this (thousands of overlapping ones: issue 19) the check
#: would cost the square of the scene; its cards then carry no checked fix
MAX_FIX_BRANCHES = 100


def _decided(a: "Analysis", scene_id: str) -> bool:
    state = a.shadowing.get(scene_id)
    return (state is not None and state.undecided is None and len(state.ordered) <= MAX_FIX_BRANCHES
            and all(a.conditions.get(b.branch_id) is not None for b in state.ordered))


def _too_large(a: "Analysis", scene_id: str) -> dict[str, Any] | None:
    """The fix line of a decided scene past :data:`MAX_FIX_BRANCHES`: it says why no
    fix is offered (nothing to apply); ``None`` for any other scene."""
    state = a.shadowing.get(scene_id)
    if state is None or state.undecided is not None or len(state.ordered) <= MAX_FIX_BRANCHES:
        return None
    return _fix(f"분기가 {len(state.ordered):,}개나 되는 장면이라 고친 결과를 하나하나 다시 판정해 볼 수 없어 "
                "고치는 법을 싣지 않았습니다.")


def _scene_region(scene: _Scene, keep: Sequence[Expr], drop: Sequence[Expr]) -> tuple[Expr, bool] | None:
    """The condition true exactly where every condition of ``keep`` holds and none of
    ``drop`` does, over the flags the scene's conditions use; ``None`` past the bounds."""
    base = scene.region_base()
    if base is None:
        return None
    order, domains, points, grid = base
    return region_condition(_inside(order, domains, points, grid, keep, drop), order, domains, scene.flags)


def _inside(order: Sequence[str], domains: Mapping[str, FlagDomain], points: list[tuple[int, ...]],
            grid: ClassGrid | None, keep: Sequence[Expr], drop: Sequence[Expr]) -> set[tuple[int, ...]]:
    """The ``points`` (class indices over ``order``) where every condition of ``keep``
    holds and none of ``drop`` does; read from ``grid`` (the same points, or ``None``)
    when every flag of the conditions is on it."""
    if grid is not None and all(f in grid.stride for e in (*keep, *drop) for f in expr_facts(e)[0]):
        # where each condition holds, a byte per point of the grid (made as compile3 reads
        # each point, since every flag of the conditions is on the grid)
        mask = grid.all
        for e in keep:
            mask &= grid.mask(e)
        for e in drop:
            mask &= ~grid.mask(e)
        return {points[i] for i in _ones(mask, grid.size)}
    holds_keep, holds_drop = [compile3(e) for e in keep], [compile3(e) for e in drop]
    inside = set()
    for p in points:
        v = {f: domains[f].points[c][0] for f, c in zip(order, p)}
        if all(bool(h(v)) for h in holds_keep) and not any(h(v) for h in holds_drop):
            inside.add(p)
    return inside


def _ones(mask: int, size: int) -> list[int]:
    """The points (indices) whose byte is set in a grid mask of ``size`` points."""
    data = mask.to_bytes(size, "little")
    out, find, i = [], data.find, data.find(1)
    while i >= 0:
        out.append(i)
        i = find(1, i + 1)
    return out


# ----------------------------------------------------------------------------- 조건이 겹침


def _join(ids: Sequence[str]) -> str:
    ids = list(ids)
    if len(ids) <= 1:
        return "".join(ids)
    return ", ".join(ids[:-2] + [josa(ids[-2], "과/와") + " " + ids[-1]])


def shadowing_fix(a: "Analysis", branch_id: str) -> dict[str, Any] | None:
    """For the card of ``branch_id`` (the branch right before a shadowed one): narrow the
    covering branch, move the shadowed one before its cover, or drop it when a covering
    branch already goes to the same scene — the first of these that the scene, decided
    again, accepts (the narrowing first when the cover holds for every reader).  Made
    once per branch and analysis."""
    return _once(a, "shadowed", branch_id, lambda: _shadowing_fix(a, branch_id))


def _shadowing_fix(a: "Analysis", branch_id: str) -> dict[str, Any] | None:
    later = a.overlap.get(branch_id)
    info = a.shadowed.get(later) if later else None
    if info is None:
        return None
    assert later is not None  # info was found under it
    if not _decided(a, info.scene_id):
        return _too_large(a, info.scene_id)
    if info.unsatisfiable:
        return unsatisfiable_fix(a, later)
    scene = _scene(a, info.scene_id)
    ids = [bid for bid, _ in scene.rows]
    j = ids.index(later)
    covers = sorted(ids.index(c) for c in info.covered_by)
    shadowed_expr = scene.rows[j][1]
    gone = {("shadowed", later)}
    by_id = {b.branch_id: b for b in a.shadowing[info.scene_id].ordered}
    move = ("move", covers[0], None)

    def narrowed() -> list[tuple[str, Any, Any]]:
        # the cover narrowed to where the shadowed branch does not hold: the region is
        # the costly part, so it is made only when the narrowing is tried
        cover_id, cover = scene.rows[covers[0]]
        region = _scene_region(scene, [cover], [shadowed_expr])
        return [("narrow", cover_id, region[0])] if region is not None and not isinstance(region[0], Const) else []

    def candidates():
        # the narrowing first when the cover holds for every reader, else the move first
        if len(covers) == 1 and ("always", scene.rows[covers[0]][0]) in scene.before():
            yield from narrowed()
            yield move
        else:
            yield move
            if len(covers) == 1:
                yield from narrowed()
        same = [ids[i] for i in covers if by_id[ids[i]].to_scene == by_id[later].to_scene]
        if same:
            yield ("remove", same, None)

    for kind, what, new in candidates():
        if kind == "narrow":
            rows = _rows_with(scene, {what: new})
            if scene.acceptable(rows, gone):
                text = _text_of(new)
                return _fix(f"분기 {quoted(what)}의 조건을 {quoted(text, '으로/로')} 좁히면 뒤 순번인 분기 {quoted(later)}도 "
                            "걸리는 독자가 생깁니다.",
                            [_set("story_branches", what, "condition_expr", text)])
        elif kind == "move":
            first = what
            rows = scene.rows[:first] + [scene.rows[j]] + scene.rows[first:j] + scene.rows[j + 1:]
            if scene.acceptable(rows, gone):
                numbers = sorted(by_id[bid].order_no for bid in ids)  # type: ignore[type-var]
                edits = [_set("story_branches", bid, "order_no", n) for (bid, _), n in zip(rows, numbers) if by_id[bid].order_no != n]
                new_no = numbers[first]
                cover_ids = [ids[i] for i in covers]
                moved = [f"{quoted(e['row'], '을/를')} 순번 {josa(str(e['value']), '으로/로')}" for e in edits if e["row"] != later]
                rest = f"고 {', '.join(moved)} 미루면" if moved else "면"
                return _fix(f"분기 {quoted(later, '을/를')} {_ids(cover_ids)}보다 앞인 순번 {josa(str(new_no), '으로/로')} 옮기{rest} "
                            "가려졌던 이 분기도 걸리는 독자가 생깁니다.", edits)
        else:
            to_name = _name(a, by_id[later].to_scene)
            rows = [r for r in scene.rows if r[0] != later]
            if scene.acceptable(rows):
                return _fix(f"{josa(to_name, '으로/로')}는 앞 순번의 분기 {_ids(what)}에서도 이미 가므로 한 번도 걸리지 않는 "
                            f"분기 {quoted(later)}의 줄을 지워도 길은 그대로입니다.",
                            [{"action": "remove", "table": "story_branches", "row": later}])
    return None


# ----------------------------------------------------------------------------- comparisons


def _guesses(node: Compare, lo: int, hi: int, truth: bool) -> list[Compare]:
    """The comparisons a fixed ``node`` most likely meant: the operator's strictness
    turned (``trust > 5`` → ``trust >= 5`` at the maximum 5), else the constant moved to
    the nearest value that splits the range."""
    f, op, c = node.flag, node.op, node.value
    assert isinstance(c, int)  # an int comparison (storygraph.findings: fixed by its flag's range)
    out: list[tuple[str, int]] = []
    if op == ">":
        out += [(">=", c)] if c == hi else []
        out += [(">", min(max(c, lo), hi - 1))]
    elif op == ">=":
        out += [(">", c)] if c == lo else []
        out += [(">=", min(max(c, lo + 1), hi))]
    elif op == "<":
        out += [("<=", c)] if c == lo else []
        out += [("<", min(max(c, lo + 1), hi))]
    elif op == "<=":
        out += [("<", c)] if c == hi else []
        out += [("<=", min(max(c, lo), hi - 1))]
    else:  # == and != outside the range: the nearest value inside
        out += [(op, min(max(c, lo), hi))]
    seen = []
    for o, v in out:
        cand = Compare(f, o, v, node.pos)
        if cand not in seen and _fixed(cand, {f: Flag(f, None, "int", lo, hi, (), 0)}) is None:
            seen.append(cand)
    return seen


def out_of_range_fix(a: "Analysis", branch, node: Compare, spec: Flag, truth: bool) -> dict[str, Any] | None:
    """The likely intended comparison (checked against the scene), else the condition with
    the comparison that decides nothing taken out (the same meaning)."""
    expr = a.conditions.get(branch.branch_id)
    if expr is None or spec.min_value is None or spec.max_value is None:
        return None
    lo, hi = spec.min_value, spec.max_value
    bid = branch.branch_id
    old = render(node)
    decided = _decided(a, branch.from_scene)
    scene = _scene(a, branch.from_scene) if decided else None
    if truth and scene is not None:
        ids = [bid_ for bid_, _ in scene.rows]
        later = ids[ids.index(bid) + 1:]
        if later and ("always", bid) in scene.before():
            narrowed = always_true_fix(a, branch, later)
            if narrowed is not None and not any(_fixed(n, a.scenario.flags) is not None
                                                for n in expr_atoms(parse_condition(narrowed["edits"][0]["value"]))):
                return narrowed
    for guess in _guesses(node, lo, hi, truth):
        new = _replace(expr, node, guess)
        if not _sound(new, expr, a.scenario.flags):
            continue
        if scene is not None and not scene.acceptable(_rows_with(scene, {bid: new}), {("range", f"{bid}:{old}")}):
            continue
        text = _text_of(new)
        if text == render(guess):
            sentence = (f"분기 {quoted(bid)}의 조건 {quoted(old, '을/를')} {quoted(text, '으로/로')} 고치면 "
                        f"{spec.name} 범위 {lo}–{hi} 안에서 참인 독자와 거짓인 독자가 모두 생깁니다.")
        else:
            sentence = (f"분기 {quoted(bid)}의 조건에서 비교 {quoted(old, '을/를')} {quoted(render(guess), '으로/로')} 바꿔 "
                        f"{quoted(text, '으로/로')} 고치면 그 비교는 {spec.name} 범위 {lo}–{hi} 안에서 참일 때와 거짓일 때가 모두 생깁니다.")
        return _fix(sentence, [_set("story_branches", bid, "condition_expr", text)])
    new = _simplify_consts(_replace(expr, node, Const(truth)))
    if isinstance(new, Const) and not new.value:
        return None
    if node.flag not in expr_facts(new)[0] and not _flag_used_elsewhere(a, node.flag, branch):
        return None  # taking it out would leave the flag unused
    if scene is not None and not scene.acceptable(_rows_with(scene, {bid: new})):
        return None
    text = _text_of(new)
    word = "참" if truth else "거짓"
    if not text:
        return _fix(f"{quoted(old)} 비교는 {spec.name} 범위 {lo}–{hi} 안에서 늘 {word}이라 빼도 뜻이 같으므로 "
                    f"분기 {quoted(bid)}의 {quoted('condition_expr')} 칸을 비워도 됩니다.",
                    [_set("story_branches", bid, "condition_expr", "")])
    return _fix(f"{quoted(old)} 비교는 {spec.name} 범위 {lo}–{hi} 안에서 늘 {word}이라 빼도 뜻이 같으므로 "
                f"분기 {quoted(bid)}의 조건을 {quoted(text, '으로/로')} 줄이면 됩니다.",
                [_set("story_branches", bid, "condition_expr", text)])


def _sound(new: Expr, old: Expr, flags: Mapping[str, Flag]) -> bool:
    """A rewritten condition that can hold, is not true for everyone unless the old one
    was, and has no comparison its flag's range decides (checked on its own, so also in
    a scene whose shadowing is not decided)."""
    if any(_fixed(n, flags) is not None for n in expr_atoms(new)):
        return False
    if any(f not in flags for f in expr_facts(new)[0]):
        return True  # undeclared flags: nothing to check against
    domains = scene_domains([new, old], flags)
    order = list(domains)
    if find_witness(compile3(new), [], domains, order) is None:
        return False
    if find_witness(compile3(Not(new)), [], domains, order) is None:
        return find_witness(compile3(Not(old)), [], domains, order) is None
    return True


def _flag_used_elsewhere(a: "Analysis", flag: str, branch) -> bool:
    """Whether another branch of the same scene tests ``flag`` (so taking it out of
    ``branch`` leaves neither the flag nor the scene's ``available_flags`` entry unused).
    Only the scene is read, so the fix stays a function of the scene."""
    state = a.shadowing.get(branch.from_scene)
    for b in state.ordered if state is not None else ():
        e = a.conditions.get(b.branch_id)
        if b.branch_id != branch.branch_id and e is not None and flag in expr_facts(e)[0]:
            return True
    return False


def unsatisfiable_fix(a: "Analysis", branch_id: str) -> dict[str, Any] | None:
    """For a condition no reader can meet because a comparison is always false: that
    comparison's likely intended form (made once per branch and analysis)."""
    return _once(a, "unsatisfiable", branch_id, lambda: _unsatisfiable_fix(a, branch_id))


def _unsatisfiable_fix(a: "Analysis", branch_id: str) -> dict[str, Any] | None:
    by_id = _branches_by_id(a)
    branch = by_id.get(branch_id)
    expr = a.conditions.get(branch_id)
    if branch is None or expr is None:
        return None
    for node in expr_atoms(expr):
        if _fixed(node, a.scenario.flags) is False:
            spec = a.scenario.flags[node.flag]
            fix = out_of_range_fix(a, branch, node, spec, False)
            if fix is not None and fix["edits"] and parse_condition(fix["edits"][0]["value"]) != expr:
                return fix
    return None


def always_true_fix(a: "Analysis", branch, later: Sequence[str]) -> dict[str, Any] | None:
    """Narrow an always-true condition to where none of the branches it hides holds."""
    if not _decided(a, branch.from_scene):
        return _too_large(a, branch.from_scene)
    scene = _scene(a, branch.from_scene)
    region = _scene_region(scene, [], [e for bid, e in scene.rows if bid in later])
    if region is None or isinstance(region[0], Const):
        return None
    new = region[0]
    bid = branch.branch_id
    rows = _rows_with(scene, {bid: new})
    if not scene.acceptable(rows, {("always", bid)}):
        return None
    text = _text_of(new)
    return _fix(f"분기 {quoted(bid)}의 조건을 {quoted(text, '으로/로')} 좁히면 뒤 순번인 분기 {_ids(list(later))}도 "
                "걸리는 독자가 생깁니다.",
                [_set("story_branches", bid, "condition_expr", text)])


# ----------------------------------------------------------------------------- spelling


def edit_distance(a: str, b: str, limit: int = 3) -> int:
    """Edit distance of ``a`` and ``b`` counting a swap of two neighbouring letters as one
    edit (optimal string alignment); ``limit + 1`` once it exceeds ``limit``.

    >>> edit_distance("trsut", "trust"), edit_distance("SC-88", "SC-08"), edit_distance("abc", "xyzw", 2)
    (1, 1, 3)
    """
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    before: list[int] | None = None
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            d = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if before is not None and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                d = min(d, before[j - 2] + 1)
            cur.append(d)
        if min(cur) > limit:
            return limit + 1
        before, prev = prev, cur
    return min(prev[-1], limit + 1)


def _deletions(word: str) -> set[str]:
    return {word} | {word[:i] + word[i + 1:] for i in range(len(word))}


class _Neighbours:
    """Scene ids by their one-letter deletions: the ids within a small edit distance of
    a word are found by looking up its own deletions (work bounded by the word's length,
    not by the number of scenes)."""

    def __init__(self, ids: Iterable[str]):
        self.index: dict[str, list[str]] = {}
        for s in ids:
            for d in _deletions(s.lower()):
                self.index.setdefault(d, []).append(s)

    def near(self, word: str, limit: int = 2, most: int = 200) -> list[tuple[int, str]]:
        found: dict[str, None] = {}
        for d in _deletions(word.lower()):
            for s in self.index.get(d, ()):
                found[s] = None
                if len(found) >= most:
                    break
        scored = [(edit_distance(word.lower(), s.lower(), limit), s) for s in found]
        return sorted((d, s) for d, s in scored if d <= limit)


class _KnownNeighbours:
    """The answers of :meth:`_Neighbours.near` for the targets asked about beforehand
    (:func:`near_table`), without the index; anything else builds the index then."""

    def __init__(self, table: dict[str, list[tuple[int, str]]], ids: Iterable[str]):
        self.table = table
        self.ids = ids
        self.index: _Neighbours | None = None

    def near(self, word: str, limit: int = 2, most: int = 200) -> list[tuple[int, str]]:
        if limit == 2 and most == 200 and word in self.table:
            return list(self.table[word])
        if self.index is None:
            self.index = _Neighbours(self.ids)
        return self.index.near(word, limit, most)


def near_table(ids: Iterable[str], targets: Iterable[str]) -> dict[str, list[tuple[int, str]]]:
    """:func:`near_ids` of each of ``targets`` among the scene ``ids`` (in the scenario's
    order), made at once: a large run asks this before its processes fork and keeps only
    the answers (:func:`know_near`), not the index of every id's spellings."""
    targets = list(dict.fromkeys(targets))
    if not targets:
        return {}
    index = _Neighbours(ids)
    return {t: index.near(t) for t in targets}


def know_near(a: "Analysis", table: dict[str, list[tuple[int, str]]]) -> None:
    """Let :func:`near_ids` of ``a`` answer from ``table`` (:func:`near_table`)."""
    _memo(a).neighbours = _KnownNeighbours(table, a.scenario.scenes)  # type: ignore[assignment]


def _neighbours(a: "Analysis") -> _Neighbours:
    memo = _memo(a)
    if memo.neighbours is None:
        memo.neighbours = _Neighbours(a.scenario.scenes)
    return memo.neighbours


def _number(s: str) -> int | None:
    m = re.search(r"(\d+)\D*$", s)
    return int(m.group(1)) if m else None


def near_ids(a: "Analysis", target: str) -> list[tuple[int, str]]:
    """``(distance, scene id)`` of the scene ids spelled within two edits of ``target``."""
    return _neighbours(a).near(target)


def missing_target_fix(a: "Analysis", branch) -> dict[str, Any] | None:
    """The existing scene ids spelled closest to the missing ``to_scene``, and the branch
    sent to the closest one that readers reach and that reaches an ending."""
    target = branch.to_scene
    near = near_ids(a, target)
    if not near:
        return None
    n = _number(target)
    near.sort(key=lambda ds: (ds[0], abs((_number(ds[1]) or 0) - (n or 0)) if n is not None else 0, ds[1]))
    best = _good_target(a, [s for _, s in near])
    if best is None:
        return None
    others = [s for _, s in near if s != best][:2]
    also = f"이어지고, 철자가 비슷한 장면으로는 {_join([f'{_name(a, s)}({quoted(s)})' for s in others])}도 있습니다" if others else "이어집니다"
    return _fix(f"분기 {quoted(branch.branch_id)}의 {quoted('to_scene')} 칸을 목록에 없는 {quoted(target)} 대신 철자가 가까운 "
                f"{quoted(best, '으로/로')} 고치면 "
                f"{'독자가 닿고 ' if branch.from_scene in _live(a)[0] and branch.branch_id not in a.shadowed else ''}"
                f"엔딩으로 이어지는 {josa(_name(a, best) if _name(a, best) != best else '장면', '으로/로')} "
                f"이야기가 {also}.",
                [_set("story_branches", branch.branch_id, "to_scene", best)])


# ----------------------------------------------------------------------------- condition text


_OPERATOR_TYPOS = (("=>", ">="), ("=<", "<="), ("=!", "!="), ("<>", "!="), ("≥", ">="), ("≤", "<="), ("≠", "!="), ("===", "=="))
_KEYWORDS = ("and", "or", "not")
_WORD = re.compile(r"(?<![\w\"'])[^\W\d][\w.]*")


def _repairs(text: str, flags: Mapping[str, Flag]) -> list[tuple[int, str, str, str, str]]:
    """Single repairs of ``text``: ``(position, bad, good, noun, new text)``."""
    out = []
    for bad, good in _OPERATOR_TYPOS:
        for m in re.finditer(re.escape(bad), text):
            out.append((m.start(), bad, good, "연산자", text[:m.start()] + good + text[m.end():]))
    for m in re.finditer(r"(?<![&|])([&|])(?![&|])", text):
        good = "and" if m.group(1) == "&" else "or"
        out.append((m.start(), m.group(1), good, "키워드", text[:m.start()] + f" {good} " + text[m.end():]))
    for m in _WORD.finditer(text):
        word = m.group()
        if word.lower() in _KEYWORDS + ("true", "false") or word in flags:
            continue
        options: list[tuple[int, str, str]] = []
        for k in _KEYWORDS:
            d = edit_distance(word.lower(), k, 1)
            if d <= 1 and len(word) >= 2:
                options.append((d, k, "키워드"))
        for f, spec in flags.items():
            d = edit_distance(word.lower(), f.lower(), 2)
            if d <= max(1, min(2, len(f) // 3)) or word == spec.name:
                options.append((d if word != spec.name else 0, f, "플래그"))
        for _d, good, noun in sorted(options):
            out.append((m.start(), word, good, noun, text[:m.start()] + good + text[m.end():]))
    return out


def _problems(text: str, flags: Mapping[str, Flag]) -> list | None:
    try:
        expr = parse_condition(text)
    except ConditionSyntaxError:
        return None
    return check_types(expr, flags) if flags else []


#: what a repaired condition then does with a ``flag_spec``
_MATCHES_SPEC = f"{quoted('flag_spec', '과/와')} 맞습니다"


def _text_fix(text: str, flags: Mapping[str, Flag], near: int, branch_id: str | None, enough,
              result: str = _MATCHES_SPEC) -> dict[str, Any] | None:
    """The single repair nearest to ``near`` after which ``enough(problems)`` holds (else
    the first such pair of repairs)."""
    repairs = sorted(_repairs(text, flags), key=lambda r: abs(r[0] + 1 - near))
    for _, bad, good, noun, new in repairs:
        problems = _problems(new, flags)
        if problems is not None and enough(problems):
            return _text_sentence(text, [(bad, good, noun)], new, branch_id, result)
    for r1 in repairs[:12]:
        for _, bad, good, noun, new in _repairs(r1[4], flags)[:24]:
            problems = _problems(new, flags)
            if problems is not None and enough(problems) and (bad, good) != (r1[1], r1[2]):
                return _text_sentence(text, [(r1[1], r1[2], r1[3]), (bad, good, noun)], new, branch_id, result)
    return None


def _text_sentence(old: str, changes, new: str, branch_id: str | None, result: str = _MATCHES_SPEC) -> dict[str, Any]:
    new = " ".join(new.split())
    said = " 쓰고 ".join(f"{quoted(bad)} 대신 {quoted(good)} {josa(noun, '을/를')}" for bad, good, noun in changes)
    edits = [_set("story_branches", branch_id, "condition_expr", new)] if branch_id else []
    return _fix(f"{said} 써서 조건식을 {quoted(new, '으로/로')} 고치면 {result}.", edits)


def condition_text_fix(text: str, flags: Mapping[str, Flag], position: int, branch_id: str | None = None) -> dict[str, Any] | None:
    """For a condition that does not parse: the likely intended text (an operator written
    backwards, a misspelt ``and``/``or``/``not`` or flag), checked by parsing it and,
    with a ``flag_spec``, checking its types."""
    return _text_fix(text, flags, position, branch_id, lambda problems: not problems, "문법 오류 없이 읽힙니다")


def type_problem_fix(text: str, flags: Mapping[str, Flag], flag: str, position: int, branch_id: str | None = None) -> dict[str, Any] | None:
    """For a condition that parses but names a flag or value ``flag_spec`` does not
    declare, or compares with the wrong type: the likely intended text, after which that
    problem is gone and no other is added."""
    before = _problems(text, flags) or []
    count = len(before)

    def enough(problems) -> bool:
        return len(problems) < count and not any(p.pos == position and p.flag == flag for p in problems)

    fix = _text_fix(text, flags, position, branch_id, enough)
    if fix is not None:
        return fix
    # a value: an enum value misspelt, a number in quotes
    try:
        expr = parse_condition(text)
    except ConditionSyntaxError:
        return None
    spec = flags.get(flag)
    for node in expr_atoms(expr):
        if type(node) is not Compare or node.flag != flag or spec is None:
            continue
        options: list[tuple[int, Any]] = []
        if spec.type == "enum" and isinstance(node.value, str) and node.value not in spec.values:
            options = sorted((edit_distance(node.value.strip().lower(), v.lower(), 2), v) for v in spec.values)
            options = [o for o in options if o[0] <= max(1, min(2, len(o[1]) // 3))]
        elif spec.type == "int" and isinstance(node.value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", node.value):
            options = [(0, int(node.value))]
        elif spec.type == "bool" and not isinstance(node.value, bool) and isinstance(node.value, int):
            truth = OPS[node.op](1, node.value) and not OPS[node.op](0, node.value)
            falsity = OPS[node.op](0, node.value) and not OPS[node.op](1, node.value)
            if truth or falsity:
                new_expr = _replace(expr, node, FlagTrue(flag, 0) if truth else Not(FlagTrue(flag, 0)))
                new = render(new_expr)
                problems = _problems(new, flags)
                if problems is not None and enough(problems):
                    return _text_sentence(text, [(render(node), render(FlagTrue(flag, 0) if truth else Not(FlagTrue(flag, 0))), "비교")], new, branch_id)
        for _, value in options:
            new = render(_replace(expr, node, Compare(flag, node.op, value, node.pos)))
            problems = _problems(new, flags)
            if problems is not None and enough(problems):
                shown = f'"{value}"' if isinstance(value, str) else str(value)
                return _text_sentence(text, [(f'"{node.value}"', shown, "값")], new, branch_id)
    return None


# ----------------------------------------------------------------------------- flags


def unused_flag_fix(flag: Flag, scenes: Iterable[Any] = (), story: bool = False) -> dict[str, Any]:
    """Delete the flag's row (and its name from the scenes that list it).  ``story``: the
    tables were made from a story, whose rows have no line a person sees."""
    row = "선언" if story else f"줄({quoted('flag_spec')}의 {flag.line}번째 줄)"
    return _fix(f"어느 조건식도 쓰지 않는 플래그 {quoted(flag.flag)}의 {josa(row, '을/를')} 지우거나, "
                f"이 플래그로 가르려던 분기의 조건식에 {flag.name} 비교를 더하면 됩니다.",
                [{"action": "remove", "table": "flag_spec", "row": flag.flag}]
                + [{"action": "unlist", "table": "scene_states", "row": s.scene_id, "column": "available_flags", "value": flag.flag}
                   for s in scenes if flag.flag in (s.available_flags or ())])


def available_unused_fix(scene, unused: Sequence[str]) -> dict[str, Any]:
    kept = [f for f in scene.available_flags or () if f not in unused]
    value = "|".join(kept)
    if kept:
        text = f"{scene.name}의 {quoted('available_flags')} 칸에서 {_ids(list(unused))} 플래그를 빼고 {quoted(value)}만 남기면 됩니다."
    else:
        text = f"{scene.name}의 분기는 어느 플래그도 쓰지 않으니 {quoted('available_flags')} 칸을 비우면 됩니다."
    return _fix(text, [_set("scene_states", scene.scene_id, "available_flags", value)])


# ----------------------------------------------------------------------------- applying


KEYS = {"scene_states": "scene_id", "story_branches": "branch_id", "flag_spec": "flag"}


def apply_edits(tables: dict[str, list[dict[str, Any]]], edits: Sequence[Mapping[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The tables (rows as dicts, by table name) with ``edits`` applied; a new copy.

    >>> t = {"story_branches": [{"branch_id": "BR-1", "condition_expr": "x > 5"}]}
    >>> apply_edits(t, [{"action": "set", "table": "story_branches", "row": "BR-1", "column": "condition_expr", "value": "x >= 5"}])
    {'story_branches': [{'branch_id': 'BR-1', 'condition_expr': 'x >= 5'}]}
    """
    out = {name: [dict(r) for r in rows] for name, rows in tables.items()}
    for edit in edits:
        table = edit["table"]
        rows = out.setdefault(table, [])
        key = KEYS[table]
        if edit["action"] == "add":
            rows.append({k: ("" if v is None else str(v)) for k, v in edit["row"].items()})
            continue
        matches = [r for r in rows if (r.get(key) or "").strip() == edit["row"]]
        if not matches:
            raise KeyError(f"{table}: no row {edit['row']!r}")
        if edit["action"] == "remove":
            rows.remove(matches[0])
        elif edit["action"] == "unlist":
            cell = matches[0].get(edit["column"]) or ""
            items = (item.strip() for item in cell.replace("|", ",").split(","))
            matches[0][edit["column"]] = "|".join(item for item in items if item and item != edit["value"])
        else:
            matches[0][edit["column"]] = "" if edit["value"] is None else str(edit["value"])
    return out


def dead_branch_fix(a: "Analysis", branch_ids: Sequence[str]) -> dict[str, Any] | None:
    """For a scene that depends on branches that never fire: the fix that makes the first
    of them fire (its own shadowing, unsatisfiable condition or missing target)."""
    by_id = _branches_by_id(a)
    for bid in branch_ids:
        info = a.shadowed.get(bid)
        fix = None
        if info is not None and info.unsatisfiable:
            fix = unsatisfiable_fix(a, bid)
        elif info is not None and info.previous is not None and a.overlap.get(info.previous) == bid:
            fix = shadowing_fix(a, info.previous)
        elif bid in by_id and by_id[bid].to_scene and by_id[bid].to_scene not in a.scenario.scenes:
            fix = missing_target_fix(a, by_id[bid])
        if fix is not None:
            return fix
    return None


# ----------------------------------------------------------------------------- reach (issue 30, item 2)


#: scenes of one stuck or unreached region a fix looks at for its branch's end (the
#: nearest first): the rule stays the same past it, the work stays bounded
REGION_LOOK = 64


def _undirected(a: "Analysis"):
    memo = _memo(a)
    if memo.undirected is None:
        memo.undirected = a.graph.to_undirected(as_view=True)
    return memo.undirected


def _nearest(a: "Analysis", starts: Sequence[str], good) -> list[tuple[int, str, str]]:
    """``(hops, good scene, start)`` for the scenes ``good`` accepts, nearest first by
    undirected graph distance from any of ``starts`` (ties: the good scene's id, then the
    start's), at most :data:`REGION_LOOK`; breadth first by networkx."""
    import networkx as nx

    g = _undirected(a)
    found: dict[str, tuple[int, str, str]] = {}
    for start in sorted(starts)[:REGION_LOOK]:
        for hops, layer in enumerate(nx.bfs_layers(g, [start])):
            hits = [s for s in layer if good(s)]
            for s in hits:
                if s not in found or (hops, start) < found[s][::2]:
                    found[s] = (hops, s, start)
            if hits:
                break
    return sorted(found.values())[:REGION_LOOK]


def _stuck_root(a: "Analysis", scene_id: str) -> list[str]:
    """The scenes of the region behind ``scene_id``'s ``끝에 못 감``: the bottom strongly
    connected component of the scenes that reach no ending, when ``scene_id`` leads to one
    only (the dead end every card of the region comes from); else ``scene_id`` alone."""
    import networkx as nx

    memo = _memo(a)
    if memo.stuck_roots is None:
        ending = a.reaches_ending or set()
        stuck = [s for s in a.graph if s not in ending]
        sub = a.graph.subgraph(stuck)
        cond = nx.condensation(sub)
        members = cond.graph["mapping"]
        sinks: dict[int, set[int]] = {}
        for c in reversed(list(nx.topological_sort(cond))):
            succ = list(cond.successors(c))
            sinks[c] = {c} if not succ else set().union(*(sinks[d] for d in succ))
        memo.stuck_roots = {s: sorted(cond.nodes[next(iter(sinks[members[s]]))]["members"]) if len(sinks[members[s]]) == 1
                            else [s] for s in stuck}
    return memo.stuck_roots.get(scene_id, [scene_id])


def _unreached_root(a: "Analysis", scene_id: str) -> list[str]:
    """The scenes of the region behind ``scene_id``'s ``어디서도 안 닿음``: the top
    strongly connected component of the unreached scenes that lead to it, when there is
    one only (the scene no other unreached scene leads into); else ``scene_id`` alone."""
    import networkx as nx

    memo = _memo(a)
    if memo.unreached_roots is None:
        reached = a.reached or set()
        away = [s for s in a.graph if s not in reached]
        cond = nx.condensation(a.graph.subgraph(away))
        members = cond.graph["mapping"]
        tops: dict[int, set[int]] = {}
        for c in nx.topological_sort(cond):
            pred = list(cond.predecessors(c))
            tops[c] = {c} if not pred else set().union(*(tops[d] for d in pred))
        memo.unreached_roots = {s: sorted(cond.nodes[next(iter(tops[members[s]]))]["members"]) if len(tops[members[s]]) == 1
                                else [s] for s in away}
    return memo.unreached_roots.get(scene_id, [scene_id])


def _last_order(a: "Analysis", scene_id: str) -> int:
    return max((b.order_no or 0 for b in a.scenario.branches if b.from_scene == scene_id), default=0) + 1


def _live(a: "Analysis") -> tuple[set[str], set[str]]:
    """The scenes live readers reach, and those from which they reach an ending."""
    if a.live is not None:
        return a.live.reached, a.live.reaches_ending
    return a.reached or set(), a.reaches_ending or set()


def reach_fix(a: "Analysis", scene_id: str, stuck: bool, own: bool = True) -> dict[str, Any] | None:
    """The fix of a ``끝에 못 감`` (``stuck``) or ``어디서도 안 닿음`` card of the scene
    ``scene_id`` (or of a branch out of it, or, stuck, into it): at the region's root, a
    branch to the nearest scene readers reach that reaches an ending (stuck) or from the
    nearest scene readers reach (unreached); a card whose root is another scene points to
    it, and so does a branch's card (``own`` false: the fix is on a scene's card).  Each candidate is checked by :func:`verified` and the next tried (a few) when it
    is refused."""
    if a.graph is None or scene_id not in a.scenario.scenes or a.reached is None or a.reaches_ending is None:
        return None
    if (a.scenario.scenes[scene_id].raw.get("lint_ignore") or "").strip():
        return None  # the creator recorded the scene's problems as intended
    root = _stuck_root(a, scene_id) if stuck else _unreached_root(a, scene_id)
    if scene_id != root[0] or not own:
        head = root[0]
        return _fix(T.fix_at_root(_name(a, head), head, stuck))
    return _once(a, "stuck" if stuck else "unreached", root[0], lambda: _region_fix(a, root, stuck))


#: candidates a region's fix tries before it says why none was offered
REGION_TRIES = 6


def _open_ended(a: "Analysis") -> set[str]:
    """The scenes a branch added last would not be hidden in: those without branches, and
    those with a combination of flags no branch of theirs takes (``a.stuck``)."""
    memo = _memo(a)
    if memo.open_ended is None:
        leaving = {b.from_scene for b in a.scenario.branches}
        memo.open_ended = {s for s in a.scenario.scenes if s not in leaving} | set(a.stuck)
    return memo.open_ended


def _region_fix(a: "Analysis", root: list[str], stuck: bool) -> dict[str, Any] | None:
    reached, ending = _live(a)
    opened = _open_ended(a)
    if stuck:
        # the branch leaves the region from a scene where it would not be hidden (if any)
        starts = [s for s in root if s in opened] or root
        candidates = [(h, s, t) for h, t, s in _nearest(a, starts, lambda s: s in reached and s in ending)]
    else:
        starts, scenes = root, a.scenario.scenes
        candidates = [(h, s, t) for h, s, t in _nearest(a, root, lambda s: s in reached and s in opened and not scenes[s].is_ending)]
    if not candidates:  # the region touches no such scene: the first by id
        ok = (lambda s: s in reached and s in ending) if stuck else (
            lambda s: s in reached and s in opened and not a.scenario.scenes[s].is_ending)
        firsts = sorted(s for s in a.scenario.scenes if ok(s))[:REGION_TRIES]
        pairs: list[tuple[int | None, str, str]] = [(None, starts[0], t) if stuck else (None, t, root[0]) for t in firsts]
    else:
        pairs = list(candidates)
    refused: dict[str, Any] | None = None
    for hops, source, target in pairs[:REGION_TRIES]:
        new_id = _new_branch_id(a, source)
        order = _last_order(a, source)
        row = {"branch_id": new_id, "from_scene": source, "to_scene": target, "condition_expr": "", "order_no": order}
        if stuck:
            dead_end = not any(True for _ in a.graph.successors(source))
            text = T.fix_stuck_branch(_name(a, source), source, order, new_id, _name(a, target), target, hops, dead_end)
        else:
            text = T.fix_unreached_branch(_name(a, source), source, order, new_id, _name(a, target), target, hops)
        fix = _fix(text, [{"action": "add", "table": "story_branches", "row": row}])
        key = (root[0], NO_ENDING if stuck else UNREACHED)
        checked = verified(a, fix, key)
        if checked["edits"] or checked.get("verified") is None:
            return checked
        refused = refused or checked
    # no branch would do: mark the root an entry, or the dead end an ending
    scene = starts[0]
    if not stuck:
        edit = _set("scene_states", scene, "is_entry", True)
        text = T.fix_mark_entry(_name(a, scene), scene)
    elif not any(True for _ in a.graph.successors(scene)) and not any(b.from_scene == scene for b in a.scenario.branches):
        edit = _set("scene_states", scene, "is_ending", True)
        text = T.fix_mark_ending(_name(a, scene), scene)
    else:
        return refused
    checked = verified(a, _fix(text, [edit]), (root[0], NO_ENDING if stuck else UNREACHED))
    return checked if checked["edits"] or refused is None else refused


# ----------------------------------------------------------------------------- verification (issue 30, item 2)


#: the re-analyses of one run (each of a whole scenario, for the fixes the local check
#: cannot decide) may read at most this many scenes and branches in all; past it a fix
#: says it was not checked.  A count, not a time, so a report does not depend on the
#: machine's load (benchmarks/LOG.md)
VERIFY_WORK = 250_000


def _edited(sc: Any, edits: Sequence[Mapping[str, Any]]) -> Any | None:
    """The scenario ``sc`` with ``edits`` applied to its typed rows (a new scenario; the
    old one unchanged), or ``None`` for an edit this cannot make in memory."""
    from dataclasses import replace

    from .model import Branch

    scenes = dict(sc.scenes)
    branches = list(sc.branches)
    flags = dict(sc.flags)
    line = max([b.line for b in branches] + [s.line for s in scenes.values()] + [0]) + 1
    for edit in edits:
        table, action = edit["table"], edit["action"]
        if table == "story_branches":
            if action == "add":
                r = edit["row"]
                order = r.get("order_no")
                branches.append(Branch(str(r["branch_id"]), str(r["from_scene"]), str(r.get("to_scene") or ""),
                                       str(r.get("condition_expr") or "") or None, int(order) if order not in (None, "") else None,
                                       line, {k: (None if v is None else str(v)) for k, v in r.items()}))
                line += 1
                continue
            at = [i for i, b in enumerate(branches) if b.branch_id == edit["row"]]
            if not at:
                return None
            if action == "remove":
                del branches[at[0]]
            elif action == "set" and edit["column"] in ("to_scene", "from_scene", "condition_expr", "order_no"):
                v = edit["value"]
                if edit["column"] == "order_no":
                    v = int(v) if v not in (None, "") else None
                elif edit["column"] == "condition_expr":
                    v = str(v or "") or None
                branches[at[0]] = replace(branches[at[0]], **{edit["column"]: v})
            else:
                return None
        elif table == "scene_states":
            scene = scenes.get(edit["row"])
            if scene is None:
                return None
            if action == "set" and edit["column"] in ("is_entry", "is_ending"):
                v = edit["value"]
                scenes[scene.scene_id] = replace(scene, **{edit["column"]: v if isinstance(v, bool) else str(v).lower() in ("true", "1", "y", "yes")})
            elif action == "set" and edit["column"] == "available_flags":
                items = tuple(i.strip() for i in str(edit["value"] or "").replace("|", ",").split(",") if i.strip())
                scenes[scene.scene_id] = replace(scene, available_flags=items or None)
            elif action == "unlist" and edit["column"] == "available_flags":
                left = tuple(f for f in scene.available_flags or () if f != edit["value"])
                scenes[scene.scene_id] = replace(scene, available_flags=left or None)
            else:
                return None
        elif table == "flag_spec" and action == "remove" and edit["row"] in flags:
            del flags[edit["row"]]
        else:
            return None
    return replace(sc, scenes=scenes, branches=branches, flags=flags, issues=list(sc.issues))


#: the re-analysis a fix is checked by: scenario -> target -> its problems (a card's
#: verdict other than ``끝까지 닿음``, a finding's code) as a lint finds them, with the
#: fixes of that analysis left unchecked.  :mod:`storygraph.cards` registers it (it runs
#: the analysis and the cards, which import this module: set here, not imported here)
CHECKER: list[Callable[[Any, Any], dict[str, set[str]]]] = []


def register_checker(check: Callable[[Any, Any], dict[str, set[str]]]) -> None:
    """Make ``check`` the re-analysis of :func:`verified`: ``check(scenario, kept)``, with
    ``kept`` a dict the checker keeps what it reuses in (one per analysis checked)."""
    CHECKER[:] = [check]


def _problems_of(sc: Any, memo: Any = None) -> dict[str, set[str]]:
    return CHECKER[0](sc, memo)


def verified(a: "Analysis", fix: dict[str, Any] | None, key: tuple[str, str]) -> dict[str, Any]:
    """``fix`` (for the problem ``key``: target and verdict or finding code) once it is
    applied in memory and the scenario analysed again: when its problem is gone and no
    target that had none gets one, the fix with ``"verified": True``; when not, a fix
    without edits whose sentence says why (``"verified": False``); unchecked (past
    :data:`VERIFY_WORK`, an edit not made in memory) the fix as it is with
    ``"verified": None`` and ``"unchecked"``, a sentence saying why it was not checked.

    An edit that only adds to the graph (a branch, an entry, an ending, a missing target
    mended) is checked where it can change anything — its scene decided again, the
    scenes it newly reaches and that newly reach an ending walked — by
    :func:`_local_check`, whose answer is the whole re-analysis's (the tests compare
    both on every fix of the corpus); any other edit by analysing the edited scenario
    again (the analysis that checks runs without checking its own fixes)."""
    if fix is None or not fix.get("edits"):
        return fix  # type: ignore[return-value]
    memo = _memo(a)
    if not memo.checking or not CHECKER:
        return fix
    import json

    sig = json.dumps(fix["edits"], sort_keys=True, ensure_ascii=False, default=str) + "\0" + "\0".join(key)
    if sig not in memo.checked:
        local = _local_check(a, fix["edits"], key) if LOCAL[0] else _FULL
        if local is not _FULL:
            memo.local += 1
            memo.checked[sig] = local
        else:
            reason = _full_check(a, memo, fix["edits"], key)
            if isinstance(reason, tuple):
                return {**fix, "verified": None, "unchecked": T.fix_unchecked(scene=reason[1])}
            if reason is _FULL:
                size = len(a.scenario.scenes) + len(a.scenario.branches)
                return {**fix, "verified": None, "unchecked": T.fix_unchecked(size=size)}
            if reason is _UNMADE:
                return {**fix, "verified": None, "unchecked": T.fix_unchecked()}
            memo.checked[sig] = reason
    reason = memo.checked[sig]
    if reason is None:
        return {**fix, "verified": True}
    return {"text": T.fix_not_offered(reason), "edits": [], "verified": False}


#: what :func:`_local_check` answers when only a whole re-analysis can tell (and what
#: :func:`_full_check` answers past :data:`VERIFY_WORK`); an edit not made in memory
_FULL: Any = object()
_UNMADE: Any = object()
#: whether :func:`verified` tries :func:`_local_check` first (the tests turn it off to
#: compare it with the whole re-analysis)
LOCAL = [True]


def _full_check(a: "Analysis", memo: FixMemo, edits: Sequence[Mapping[str, Any]], key: tuple[str, str]) -> Any:
    """The reason the whole re-analysis refuses ``edits`` (``None``: accepted), or
    :data:`_FULL` past :data:`VERIFY_WORK`, :data:`_UNMADE` for an edit not made in memory."""
    size = len(a.scenario.scenes) + len(a.scenario.branches)
    if (memo.full + 1 + (memo.baseline is None)) * size > VERIFY_WORK:
        return _FULL
    large = _large_scene(a, edits)
    if large is not None:
        return ("large", large)
    edited = _edited(a.scenario, edits)
    if edited is None:
        return _UNMADE
    if memo.again is None:
        memo.again = {}  # (the checker keeps its analysis memo here)
    if memo.baseline is None:
        memo.full += 1
        memo.baseline = _problems_of(_edited(a.scenario, []), memo.again)
    memo.full += 1
    before, after = memo.baseline, _problems_of(edited, memo.again)
    if key[1] in after.get(key[0], ()):
        return T.fix_unverified_problem(key[0], key[1], False)
    for target, kinds in after.items():
        # a target that had a problem card may show the verdict the fixed one hid
        # (the verdicts' order of precedence); any other problem is new
        had = before.get(target)
        new = sorted(kinds if had is None else {k for k in kinds - had if k not in VERDICTS})
        if new:
            return T.fix_unverified_problem(target, new[0], True)
    return None


#: a scene listing more ``available_flags`` than this is past any grid of combinations
#: (2 ** 12 = :data:`MAX_POINTS`): its stuck search and its sentences cost a lint each
LARGE_FLAGS = 12


def _large_scene(a: "Analysis", edits: Sequence[Mapping[str, Any]]) -> str | None:
    """The first scene ``edits`` touch whose decision is too costly to make once per fix
    (more branches than :data:`MAX_FIX_BRANCHES`, or listing more than :data:`LARGE_FLAGS`
    flags), or ``None``: such a fix is offered unchecked."""
    by_id, scenes = _branches_by_id(a), a.scenario.scenes
    touched: list[str] = []
    for e in edits:
        if e.get("table") == "story_branches":
            row = e.get("row")
            branch = by_id.get(str(row)) if not isinstance(row, Mapping) else None
            touched.append(str(row.get("from_scene") or "") if isinstance(row, Mapping) else (branch.from_scene if branch else ""))
        elif e.get("table") == "scene_states":
            touched.append(str(e.get("row")))
        elif e.get("table") == "flag_spec":
            touched.extend(s.scene_id for s in scenes.values() if str(e.get("row")) in (s.available_flags or ()))
            touched.extend(_flag_scenes(a).get(str(e.get("row")), ()))
    for scene_id in touched:
        state, scene = a.shadowing.get(scene_id), scenes.get(scene_id)
        if (state is not None and len(state.ordered) > MAX_FIX_BRANCHES
                or scene is not None and len(scene.available_flags or ()) > LARGE_FLAGS):
            return scene_id
    return None


def _walk_outside(graph: Any, starts: Sequence[str], known: set[str], cut: set[tuple[str, str]],
                  backwards: bool = False) -> set[str]:
    """The scenes reached from ``starts`` (or, ``backwards``, reaching them) through scenes
    not in ``known`` and edges not in ``cut``, breadth first over the networkx graph's
    adjacency, so its cost is the region walked, not the graph (a filtered view counts
    the whole graph on every walk)."""
    out = {s for s in starts if s not in known}
    todo = list(out)
    adjacency = graph.pred if backwards else graph.succ
    while todo:
        node = todo.pop()
        for other in adjacency[node]:
            if other in known or other in out or ((other, node) if backwards else (node, other)) in cut:
                continue
            out.add(other)
            todo.append(other)
    return out


def _cut(a: "Analysis", memo: FixMemo) -> list[tuple[str, str]]:
    """The edges every branch of which is dead: the live walks leave them out (as
    :func:`storygraph.liveness.live_reachability` does)."""
    if memo.cut is None:
        dead = a.live.dead if a.live is not None else set()
        scenes = a.scenario.scenes
        pairs = {(b.from_scene, b.to_scene) for b in a.scenario.branches if b.branch_id in dead
                 and b.from_scene in scenes and b.to_scene in scenes}
        pairs -= {(b.from_scene, b.to_scene) for b in a.scenario.branches if b.branch_id not in dead}
        memo.cut = sorted(pairs)
    return memo.cut


def _local_check(a: "Analysis", edits: Sequence[Mapping[str, Any]], key: tuple[str, str]) -> Any:
    """What the whole re-analysis would say of ``edits`` (the reason it refuses them, or
    ``None``), for an edit that only adds to the graph: a branch without a condition, an
    entry, an ending, a missing target mended; :data:`_FULL` for any other edit, or when
    the answer could differ from the re-analysis's (then it decides).

    Why it is the re-analysis's answer: adding an edge, an entry or an ending only makes
    more scenes reached and more reach an ending, by the table's paths and by live
    branches alike, as long as no branch becomes dead — which deciding the branch's
    scene again tells (the only scene whose conditions change).  A target that gains
    reach had a problem verdict before (it was unreached, or reached no ending), so a new
    verdict there is one the fixed one hid; what could be new is a finding that only
    reached scenes get (a stuck combination: a scene with ``available_flags`` newly
    reached goes to the re-analysis) or a scene newly reached, or newly reaching an
    ending, only through dead branches (walked: then the re-analysis decides)."""
    from .model import MISSING_TARGET

    if (a.kinds or a.opaque or a.opaque_jumps or a.opaque_effects or a.menus or a.story or a.live is None
            or a.reached is None or a.reaches_ending is None or a.graph is None or not edits):
        return _FULL
    if all(e.get("table") == "story_branches" and (e.get("action") == "remove" or e.get("action") == "set"
                                                   and e.get("column") in ("order_no", "condition_expr")) for e in edits):
        return _local_scene_check(a, edits, key)
    if edits[0].get("table") in ("flag_spec", "scene_states") and edits[0].get("column") != "is_entry" and edits[0].get("column") != "is_ending":
        return _local_flag_check(a, edits, key)
    if len(edits) != 1:
        return _FULL
    sc, edit = a.scenario, edits[0]
    scenes, by_id = sc.scenes, _branches_by_id(a)
    table, action = edit.get("table"), edit.get("action")
    source = target = entry = ending = None  # the edge the edit adds; the entry or ending it marks
    if table == "story_branches" and action == "add":
        row = edit["row"]
        source, target = str(row.get("from_scene") or ""), str(row.get("to_scene") or "")
        new_id = str(row.get("branch_id") or "")
        if (source not in scenes or target not in scenes or not new_id or new_id in by_id or row.get("kind")
                or not isinstance(row.get("order_no"), int)):
            return _FULL
        text = str(row.get("condition_expr") or "").strip()
        try:
            condition = parse_condition(text) if text else Const(True)
        except ConditionSyntaxError:
            return _FULL
        if condition is None or check_types(condition, sc.flags):
            return _FULL
        # the scene the branch leaves, decided again with the branch last
        if source in a.shadowing:
            if not _decided(a, source) or any(b.order_no is None or b.order_no >= row["order_no"]
                                              for b in a.shadowing[source].ordered):
                return _FULL
            scene = _scene(a, source)
            after = scene.problems(scene.rows + [(new_id, condition)])
            if after.brings(scene.before()):
                return _FULL  # (the re-analysis names what comes)
            if key == (source, "stuck-combination"):
                if after.shape is None or scene.before().shape is None:
                    return _FULL
                if after.stuck:
                    return T.fix_unverified_problem(source, key[1], False)
                key = (source, "")  # (gone: the walks below still check the rest)
        elif scenes[source].available_flags or any(b.from_scene == source for b in sc.branches) or text:
            return _FULL
    elif table == "story_branches" and action == "set" and edit.get("column") == "to_scene":
        branch = by_id.get(str(edit.get("row")))
        target = str(edit.get("value") or "")
        if (branch is None or branch.to_scene in scenes or target not in scenes or branch.from_scene not in scenes
                or branch.branch_id in a.shadowed or key != (branch.branch_id, MISSING_TARGET)):
            return _FULL
        source = branch.from_scene
    elif table == "scene_states" and action == "set" and edit.get("value") is True and edit.get("row") in scenes:
        marked = str(edit["row"])
        if edit.get("column") == "is_entry" and not scenes[marked].is_entry:
            entry = marked
        elif edit.get("column") == "is_ending" and not scenes[marked].is_ending:
            ending = marked
            if any(True for _ in a.graph.successors(ending)) or any(b.from_scene == ending for b in sc.branches):
                return _FULL
        else:
            return _FULL
    else:
        return _FULL
    graph, live, cut = a.graph, a.live, _cut(a, _memo(a))

    def walk(start: str | None, known: set[str], avoid: Sequence[tuple[str, str]] = (), backwards: bool = False) -> set[str]:
        if start is None or start in known:
            return set()
        return _walk_outside(graph, [start], known, set(avoid), backwards)

    # the scenes newly reached, by the table's paths and by live branches
    reached = walk(entry if entry is not None else (target if source in a.reached else None), a.reached)
    live_reached = walk(entry if entry is not None else (target if source in live.reached else None), live.reached, cut)
    if reached - live_reached:
        return _FULL
    for s in sorted(reached):
        # a scene newly reached is searched for stuck combinations (as reached scenes are)
        if scenes[s].available_flags and not scenes[s].is_ending:
            if not _decided(a, s):
                return _FULL
            stuck = _scene(a, s).before()
            if stuck.shape is None:
                return _FULL
            if stuck.stuck:
                return T.fix_unverified_problem(s, "stuck-combination", True)
    # the scenes that newly reach an ending, both ways
    ends = walk(ending if ending is not None else (source if target in a.reaches_ending else None),
                a.reaches_ending, backwards=True)
    live_ends = walk(ending if ending is not None else (source if target in live.reaches_ending else None),
                     live.reaches_ending, cut, backwards=True)
    if ends - live_ends:
        return _FULL
    who, what = key
    if what == UNREACHED and who in scenes:
        gone = who in a.reached or who in reached
    elif what == NO_ENDING and who in scenes:
        gone = who in a.reaches_ending or who in ends
    elif what == MISSING_TARGET or what == "":
        gone = True
    else:
        return _FULL
    if not gone:
        return T.fix_unverified_problem(who, what, False)
    if table == "story_branches" and action == "add":
        # the new branch is a target of its own: it must leave a reached scene for one
        # that reaches an ending (it is not dead: its scene was decided again)
        if source not in a.reached and source not in reached:
            return T.fix_unverified_problem(new_id, UNREACHED, True)
        if target not in a.reaches_ending and target not in ends:
            return T.fix_unverified_problem(new_id, NO_ENDING, True)
    return None


def _flag_scenes(a: "Analysis") -> dict[str, set[str]]:
    """Flag -> the scenes whose conditions test it (made once per analysis)."""
    memo = _memo(a)
    if memo.users is None:
        users: dict[str, set[str]] = {}
        by_id = _branches_by_id(a)
        for bid, e in a.conditions.items():
            branch = by_id.get(bid)
            if e is not None and branch is not None:
                for f in expr_facts(e)[0]:
                    users.setdefault(f, set()).add(branch.from_scene)
        memo.users = users
    return memo.users


def _local_scene_check(a: "Analysis", edits: Sequence[Mapping[str, Any]], key: tuple[str, str]) -> Any:
    """:func:`_local_check` for edits of the branches of one scene (a new ``order_no`` or
    condition, a dead branch's row removed): the scene decided again must bring no
    problem it did not have and lose the key's; then no branch becomes dead, so the
    scenes readers reach and those that reach an ending only grow, and the graph by the
    table's paths stays as it was (a removed branch is dead and another branch goes the
    same way).  What else could change is checked: a branch newly right before a hidden
    one (its card's 조건이 겹침), a flag no condition tests any more; anything else goes to
    the re-analysis (:data:`_FULL`)."""
    from .model import SHADOWING

    by_id = _branches_by_id(a)
    rows_of = {str(e.get("row")) for e in edits}
    branches = [by_id.get(r) for r in rows_of]
    if any(b is None for b in branches) or len({b.from_scene for b in branches}) != 1:  # type: ignore[union-attr]
        return _FULL
    scene_id = branches[0].from_scene  # type: ignore[union-attr]
    if not _decided(a, scene_id):
        return _FULL
    scene = _scene(a, scene_id)
    state = a.shadowing[scene_id]
    order = {b.branch_id: b.order_no for b in state.ordered}
    exprs = dict(scene.rows)
    gone_rows: set[str] = set()
    for e in edits:
        bid, column = str(e.get("row")), e.get("column")
        if e.get("action") == "remove":
            b = by_id[bid]
            if bid not in a.shadowed or not any(x.branch_id != bid and x.branch_id not in gone_rows and x.to_scene == b.to_scene
                                                for x in state.ordered):
                return _FULL
            gone_rows.add(bid)
        elif e.get("action") == "set" and column == "order_no" and isinstance(e.get("value"), int):
            order[bid] = e["value"]
        elif e.get("action") == "set" and column == "condition_expr":
            try:
                new = parse_condition(str(e.get("value") or ""))
            except ConditionSyntaxError:
                return _FULL
            if new is None or check_types(new, a.scenario.flags):
                return _FULL
            exprs[bid] = new
        else:
            return _FULL
    kept = [b.branch_id for b in state.ordered if b.branch_id not in gone_rows]
    numbers = [order[bid] for bid in kept]
    if any(n is None for n in numbers) or len(set(numbers)) != len(numbers):
        return _FULL
    rows = [(bid, exprs[bid]) for bid in sorted(kept, key=lambda bid: order[bid])]  # type: ignore[arg-type, return-value]
    after = scene.problems(rows)
    if after.brings(scene.before()):
        return _FULL
    dead_now = {bid for kind, bid in after.found if kind in ("shadowed", "unsatisfiable")}
    previous = {rows[j - 1][0] for j, (bid, _) in enumerate(rows) if bid in dead_now and j > 0}
    if previous - set(a.overlap):
        return _FULL  # a branch newly right before a hidden one
    # a flag the scene tested that no condition tests any more
    tested = {f for _, cond in rows for f in expr_facts(cond)[0]}
    users = _flag_scenes(a)
    for _, cond in scene.rows:
        for f in expr_facts(cond)[0]:
            if f not in tested and users.get(f, set()) <= {scene_id}:
                return _FULL
    who, what = key
    if what == SHADOWING:
        gone = who not in previous
    elif what == "unsatisfiable-condition":
        gone = ("unsatisfiable", who) not in after.found
    elif what == "always-true-condition":
        gone = ("always", who) not in after.found
    elif what == "comparison-out-of-range":
        gone = not any(kind == "range" and str(x).startswith(who + ":") for kind, x in after.found)
    elif what in ("reached-only-through-dead-branch", "ending-only-through-dead-branch") and a.live is not None:
        # branches of the scene that were dead and fire now: their edges join the live walks
        woken = [by_id[bid] for bid, _ in rows if bid in a.shadowed and bid not in dead_now]
        cut = set(_cut(a, _memo(a))) - {(b.from_scene, b.to_scene) for b in woken}
        graph, live = a.graph, a.live
        if what == "reached-only-through-dead-branch":
            starts = [b.to_scene for b in woken if scene_id in live.reached and b.to_scene not in live.reached]
            now = _walk_outside(graph, starts, live.reached, cut) if starts else set()
            gone = who in live.reached or who in now
        else:
            ends = any(b.to_scene in live.reaches_ending for b in woken)
            now = (_walk_outside(graph, [scene_id], live.reaches_ending, cut, True)
                   if ends and scene_id not in live.reaches_ending else set())
            gone = who in live.reaches_ending or who in now
    else:
        return _FULL
    return None if gone else T.fix_unverified_problem(who, what, False)


def _local_flag_check(a: "Analysis", edits: Sequence[Mapping[str, Any]], key: tuple[str, str]) -> Any:
    """:func:`_local_check` for a flag no condition tests: its ``flag_spec`` row removed
    (when no scene lists it in ``available_flags``: nothing else reads it), or a scene's
    ``available_flags`` without the flags its conditions do not test (the scene decided
    again over the flags left: no stuck combination may come)."""
    edit = edits[0]
    who, what = key
    if len(edits) != 1:
        return _FULL
    if edit.get("table") == "flag_spec" and edit.get("action") == "remove" and what == "unused-flag":
        flag = str(edit.get("row"))
        if flag != who or flag in _flag_scenes(a) or any(flag in (s.available_flags or ()) for s in a.scenario.scenes.values()):
            return _FULL
        return None
    if (edit.get("table") == "scene_states" and edit.get("action") in ("set", "unlist") and edit.get("column") == "available_flags"
            and what == "available-flag-unused" and who == edit.get("row") and _decided(a, who)):
        scene = _scene(a, who)
        if edit["action"] == "unlist":
            left = [f for f in scene.available if f != edit.get("value")]
        else:
            left = [i.strip() for i in str(edit.get("value") or "").replace("|", ",").split(",") if i.strip()]
        if not set(left) <= set(scene.available):
            return _FULL
        again = _Scene(a, who)
        again.available = left
        after = again.problems(scene.rows)
        if after.stuck or (after.found - {x for x in scene.before().found}):
            return _FULL
        return None if not any(kind == "unused" for kind, _ in after.found) else T.fix_unverified_problem(who, what, False)
    return _FULL


# ----------------------------------------------------------------------------- no fix, and why (issue 30, item 2)


def missing_target_reason(a: "Analysis", branch) -> dict[str, Any]:
    """Said on a branch to a missing scene that gets no edit (:func:`missing_target_fix`
    gave none): no id is spelled like the target, or none of those is a good place."""
    near = [s for _, s in near_ids(a, branch.to_scene)]
    return _fix(T.fix_none_missing(branch.to_scene, branch.branch_id, near[:3]))


def condition_reason(a: "Analysis", code_: str, branch_id: str) -> dict[str, Any]:
    """Said on a condition problem that gets no edit: the condition contradicts itself (no
    comparison out of range to mend), or every candidate was refused in its scene."""
    expr = a.conditions.get(branch_id)
    if code_ == "unsatisfiable-condition" and expr is not None and not any(
            _fixed(node, a.scenario.flags) is False for node in expr_atoms(expr)):
        return _fix(T.fix_none_contradiction(branch_id))
    what = {"unsatisfiable-condition": "참이 될 수 없는 조건을", "comparison-out-of-range": "범위 밖 비교를",
            "always-true-condition": "늘 참인 조건을"}.get(code_, "앞 순번 분기에 가려지는 문제를")
    return _fix(T.fix_none_tried(what))


def undone_fix(a: "Analysis", code_: str, target: str) -> dict[str, Any]:
    """The fix of a card shown as 표로만 닿음: it points to the branches that never fire
    (their own cards and findings carry the fix)."""
    live = a.live
    ids: list[str] = []
    if live is not None and code_ == "reached-only-through-dead-branch":
        ids = sorted(set(live.reached_only_through.get(target, ())))
    elif live is not None and code_ == "ending-only-through-dead-branch":
        ids = sorted(set(live.ending_only_through.get(target, ())))
    info = a.shadowed.get(target)
    previous = info.previous if info is not None and not info.unsatisfiable else None
    return _fix(T.fix_undone(code_, ids, previous))


def finding_reason(a: "Analysis", code_: str, target: str) -> dict[str, Any] | None:
    """Said on a finding that gets no edit, for the kinds a fix is made for (``None`` for
    the others)."""
    if code_ in ("unsatisfiable-condition", "comparison-out-of-range", "always-true-condition"):
        return condition_reason(a, code_, target)
    if code_ in ("reached-only-through-dead-branch", "ending-only-through-dead-branch") and a.live is not None:
        dead = a.live.reached_only_through if code_ == "reached-only-through-dead-branch" else a.live.ending_only_through
        return _fix(T.fix_none_dead(sorted(set(dead.get(target, ())))))
    return None


def unlisted_source_reason(branch) -> dict[str, Any]:
    """Said on a branch out of a scene missing from the list (no edit: the scene's row is
    the creator's to write, or the branch's to remove)."""
    return _fix(T.fix_none_unlisted(branch.from_scene, branch.branch_id))

