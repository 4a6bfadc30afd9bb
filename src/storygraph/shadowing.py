"""Deciding exactly when a later branch can never fire (``조건이 겹침``).

For one scene, branches are tried in ``order_no`` order and the first whose condition
holds is taken.  A branch B is *shadowed* when every assignment of the scene's flags that
makes B's condition true also makes an earlier branch's condition true.

The reference definition enumerates the product of every flag's full range; that is
exact but explodes with wide ranges.  This module decides the same question exactly over
**range classes**: a condition compares a flag only with the constants it mentions, so
cutting each int range at those constants (``c`` and ``c + 1``) gives intervals on which
every comparison is constant; enum flags keep the values mentioned plus one "any other";
bool flags keep both values.  A depth-first search over class representatives, with
three-valued evaluation, prunes every partial assignment under which B is already false
or an earlier branch already true — so a witness is found quickly, and "no witness"
is a proof.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable, Mapping, Sequence

from .conditions import Eval3, Expr, compile3, constants_of, flags_of
from .model import Flag

__all__ = ["FlagDomain", "flag_domain", "scene_domains", "find_witness", "Shadow", "decide_shadowing"]


@dataclass(frozen=True)
class FlagDomain:
    """The classes of one flag: ``points`` are (representative, class size) pairs; a size
    is ``None`` for an unbounded int class."""

    flag: str
    points: tuple[tuple[Any, int | None], ...]

    @property
    def total(self) -> int | None:
        sizes = [w for _, w in self.points]
        return None if any(w is None for w in sizes) else sum(sizes)  # type: ignore[arg-type]


def flag_domain(flag: Flag, constants: Iterable[Any]) -> FlagDomain:
    """Range classes of ``flag`` cut at the ``constants`` its conditions compare it with.

    >>> from storygraph.model import Flag
    >>> trust = Flag("trust", "신뢰도", "int", 0, 5, (), 1)
    >>> flag_domain(trust, {3}).points
    ((0, 3), (3, 1), (4, 2))
    """
    if flag.type == "bool":
        return FlagDomain(flag.flag, ((False, 1), (True, 1)))
    if flag.type == "enum":
        mentioned = [v for v in flag.values if v in set(constants)]
        others = [v for v in flag.values if v not in set(constants)]
        points = [(v, 1) for v in mentioned]
        if others:
            points.append((others[0], len(others)))
        return FlagDomain(flag.flag, tuple(points))
    lo, hi = flag.min_value, flag.max_value
    cuts: set[int] = set()
    for c in constants:
        if isinstance(c, bool) or not isinstance(c, int):
            continue
        cuts.add(c)
        cuts.add(c + 1)
    if lo is not None:
        cuts = {c for c in cuts if c > lo}
    if hi is not None:
        cuts = {c for c in cuts if c <= hi}
    starts = sorted(cuts)
    if lo is not None:
        starts = [lo] + starts
    elif starts:
        starts = [starts[0] - 1] + starts
    else:
        starts = [hi if hi is not None else 0]
    points = []
    for i, start in enumerate(starts):
        end = starts[i + 1] - 1 if i + 1 < len(starts) else hi
        if lo is None and i == 0:
            size = None
        elif end is None:
            size = None
        else:
            size = end - start + 1
        if size is not None and size <= 0:
            continue
        points.append((start, size))
    return FlagDomain(flag.flag, tuple(points))


def scene_domains(conditions: Sequence[Expr], flags: Mapping[str, Flag], names: Iterable[str] | None = None) -> dict[str, FlagDomain]:
    """Domains for the flags used by ``conditions`` (or for ``names``), cut at the
    constants those conditions use."""
    consts: dict[str, set] = {}
    used: dict[str, None] = {}
    for expr in conditions:
        for f in flags_of(expr):
            used.setdefault(f, None)
        for f, values in constants_of(expr).items():
            consts.setdefault(f, set()).update(values)
    wanted = list(names) if names is not None else list(used)
    return {f: flag_domain(flags[f], consts.get(f, set())) for f in wanted if f in flags}


def find_witness(target: Eval3, earlier: Sequence[Eval3], domains: Mapping[str, FlagDomain], order: Sequence[str]) -> dict[str, Any] | None:
    """An assignment (class representatives of the flags in ``order``) under which
    ``target`` holds and none of ``earlier`` does, or ``None`` when there is none."""
    assignment: dict[str, Any] = {}
    points = [domains[f].points for f in order]
    n = len(order)
    # iterative depth-first search: index into each flag's points
    cursor = [0] * n
    depth = 0

    def dead() -> bool:
        if target(assignment) is False:
            return True
        for e in earlier:
            if e(assignment) is True:
                return True
        return False

    if dead():
        return None
    if n == 0:
        return {} if target(assignment) else None
    while depth >= 0:
        if cursor[depth] >= len(points[depth]):
            assignment.pop(order[depth], None)
            cursor[depth] = 0
            depth -= 1
            if depth >= 0:
                cursor[depth] += 1
            continue
        assignment[order[depth]] = points[depth][cursor[depth]][0]
        if dead():
            cursor[depth] += 1
            continue
        if depth == n - 1:
            # every flag is assigned: the three-valued results are now definite
            if target(assignment) is True and not any(e(assignment) for e in earlier):
                return dict(assignment)
            cursor[depth] += 1
            continue
        depth += 1
    return None


@dataclass(frozen=True)
class Shadow:
    """Branch ``index`` (position in order) never fires.  ``covered_by``: positions of
    the earlier branches that together cover it (empty when its condition cannot hold by
    itself, ``unsatisfiable``)."""

    index: int
    covered_by: tuple[int, ...]
    unsatisfiable: bool


def _order(domains: Mapping[str, FlagDomain], conditions: Sequence[Expr]) -> list[str]:
    # flags used by more conditions first: their assignment prunes most
    use: dict[str, int] = {}
    for expr in conditions:
        for f in flags_of(expr):
            use[f] = use.get(f, 0) + 1
    return sorted((f for f in domains), key=lambda f: (-use.get(f, 0), len(domains[f].points), f))


def decide_shadowing(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], *, exhaustive_pairs: int = 24) -> dict[int, Shadow]:
    """Every shadowed branch among ``conditions`` (already in ``order_no`` order).

    ``domains`` must cover every flag the conditions use.  For each shadowed branch the
    smallest covering set found is reported: one earlier branch when one suffices, else a
    pair when there are at most ``exhaustive_pairs`` earlier branches, else an
    irredundant set obtained by dropping branches from all earlier ones.
    """
    evals = [compile3(c) for c in conditions]
    order = _order(domains, conditions)
    out: dict[int, Shadow] = {}
    for j, target in enumerate(evals):
        if find_witness(target, [], domains, order) is None:
            out[j] = Shadow(j, (), True)
            continue
        if j == 0 or find_witness(target, evals[:j], domains, order) is not None:
            continue
        out[j] = Shadow(j, _cover(target, evals[:j], domains, order, exhaustive_pairs), False)
    return out


def _cover(target: Eval3, earlier: Sequence[Eval3], domains, order, exhaustive_pairs: int) -> tuple[int, ...]:
    def covers(indices: Sequence[int]) -> bool:
        return find_witness(target, [earlier[i] for i in indices], domains, order) is None

    n = len(earlier)
    for i in range(n):
        if covers([i]):
            return (i,)
    if n <= exhaustive_pairs:
        for pair in combinations(range(n), 2):
            if covers(pair):
                return pair
    chosen = list(range(n))
    for i in range(n - 1, -1, -1):
        trial = [k for k in chosen if k != i]
        if covers(trial):
            chosen = trial
    return tuple(chosen)
