"""Deciding exactly when a later branch can never fire (``조건이 겹침``).

For one scene, branches are tried in ``order_no`` order and the first whose condition
holds is taken.  A branch B is *shadowed* when every assignment of the scene's flags that
makes B's condition true also makes an earlier branch's condition true.

The reference definition enumerates the product of every flag's full range; that is
exact but explodes with wide ranges.  This module decides the same question exactly over
**range classes**: a condition compares a flag only with the constants it mentions, so
cutting each int range at those constants (``c`` and ``c + 1``) gives intervals on which
every comparison is constant; enum flags keep the values mentioned plus one "any other";
bool flags keep both values.  Where the product of classes is small, every combination
of class representatives is enumerated bit-parallel: a condition becomes a Python int
with one byte per combination, set where it holds, so "B is covered" is one ``&~`` and
covering sets cost a few integer operations.  (:func:`find_witness`, a depth-first
search with three-valued evaluation, finds one uncovered assignment when one is wanted.)

When even the product of classes is large (many flags, many constants), the same
question is put to an incremental SAT solver (python-sat's MiniSat) over an **order
encoding** of the classes: for a flag with classes ``0..k-1`` the variable ``[f >= i]``
(``i = 1..k-1``) says that the flag's class index is at least ``i``, with
``[f >= i+1] -> [f >= i]``.  Every comparison is constant on each class, so the set of
classes where it holds is a union of intervals, i.e. a small formula over those
variables; each condition is Tseitin-encoded once, behind an indicator ``t_j <-> C_j``.
The question "can branch j fire?" is then ``solve(assumptions=[t_j, -t_0, …, -t_{j-1}])``;
when the answer is no, the solver's unsat core names earlier branches that together
cover branch j, and deletion-based minimisation shrinks it to an irreducible set.  Both
methods are exact over the same classes; see ``docs/decisions.md``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import abc
from dataclasses import dataclass, field
from itertools import combinations, islice, repeat
from typing import Any, Iterable, Mapping, Sequence

from verdicts.records import Frozen

from .budgets import BudgetExceeded, Budgets, Meter
from .conditions import OPS, And, Compare, Const, Eval3, Expr, FlagTrue, Not, compile3, expr_facts, flags_of
from .model import Flag

__all__ = [
    "FlagDomain", "flag_domain", "make_flag_domain", "scene_domains", "find_witness", "Shadow", "decide_shadowing",
    "class_product", "CLASS_PRODUCT_LIMIT", "decide_by_classes", "decide_by_sat", "SatScene",
    "class_masks", "decide_from_masks", "decide_scene", "menu_blockers", "Blockers", "AUTO", "CHOICE", "ClassGrid",
]

AUTO = "auto"
CHOICE = "choice"


def menu_blockers(kinds: Sequence[str], opaque: Sequence[bool] | None = None,
                  weak: Sequence[bool] | None = None) -> list["Blockers | None"] | None:
    """Per branch (in ``order_no`` order), the positions of the branches whose condition,
    when it holds, keeps it from being taken: its *blockers*.  ``None`` for the seed's
    first-match rule (every branch ``auto``, none opaque), where branch ``j``'s blockers
    are simply ``0..j-1``.

    The menu rule of the spec (``docs/choices.md``): the ``auto`` branches before the
    first ``choice`` are tried in order; if none is taken every ``choice`` whose
    condition holds is offered; if none is offered the ``auto`` branches after the first
    choice (fallbacks) are tried in order.  So a prefix ``auto`` is blocked by the
    branches before it, a ``choice`` only by the prefix, a fallback by everything before
    it and by every choice.  An opaque branch (``opaque[j]``: its condition could not be
    read, it may or may not hold) blocks nothing and is never decided (``None``).  A weak
    branch (``weak[j]``: a once-only choice of a scene readers can come back to, which may
    be used up by then) blocks nothing but is decided as any other.

    Each branch's blockers are a :class:`Blockers`, a sorted sequence of positions made
    in constant time and space (they share the scene's lists), so a scene of ``n``
    branches costs ``O(n)``, not the ``O(n²)`` of writing every set out.

    >>> menu_blockers(["auto", "auto"])
    >>> menu_blockers(["auto", "choice", "choice", "auto"])
    [(), (0,), (0,), (0, 1, 2)]
    >>> menu_blockers(["choice", "auto", "choice"], [False, False, True])
    [(), (0,), None]
    >>> menu_blockers(["choice", "auto"], weak=[True, False])
    [(), ()]
    """
    n = len(kinds)
    if opaque is None:
        opaque = (False,) * n
    first = next((i for i, k in enumerate(kinds) if k == CHOICE), None)
    if first is None and not any(opaque) and not (weak is not None and any(weak)):
        return None
    # the branches that block nothing: the opaque ones and the weak ones
    silent = opaque if weak is None or not any(weak) else [o or w for o, w in zip(opaque, weak)]
    live: list[int] = []  # the positions of the branches that may block
    below = [0] * (n + 1)  # below[p]: how many of them come before position p
    for i in range(n):
        if not silent[i]:
            live.append(i)
        below[i + 1] = len(live)
    choices = [i for i in live if kinds[i] == CHOICE]
    end = len(choices)
    out: list[Blockers | None] = []
    for j in range(n):
        if opaque[j]:
            out.append(None)
        elif first is None or j < first:
            out.append(Blockers(live, j, below[j], silent, choices, end))
        elif kinds[j] == CHOICE:
            out.append(Blockers(live, first, below[first], silent, choices, end))
        else:  # a fallback: every earlier branch, then the choices after it
            out.append(Blockers(live, j, below[j], silent, choices, bisect_right(choices, j)))
    return out


class Blockers(abc.Sequence):
    """The blockers of one branch (:func:`menu_blockers`): the positions below ``bound``
    that are not opaque, then ``tail[start:]`` (the choices after a fallback), in
    ascending order.  It equals (and hashes as) the tuple of those positions; membership
    and indexing take constant or logarithmic time."""

    __slots__ = ("live", "bound", "count", "opaque", "tail", "start")
    #: how many of ``live`` are below ``bound`` (a slot in place of Sequence.count, which it hides)
    count: int  # type: ignore[assignment]

    def __init__(self, live: list[int], bound: int, count: int, opaque: Sequence[bool], tail: list[int], start: int):
        self.live, self.bound, self.count, self.opaque, self.tail, self.start = live, bound, count, opaque, tail, start

    def __len__(self) -> int:
        return self.count + len(self.tail) - self.start

    def __getitem__(self, k):
        if isinstance(k, slice):
            return tuple(self)[k]
        size = len(self)
        if k < 0:
            k += size
        if not 0 <= k < size:
            raise IndexError(k)
        return self.live[k] if k < self.count else self.tail[self.start + k - self.count]

    def __iter__(self):
        yield from islice(self.live, self.count)
        yield from islice(self.tail, self.start, None)

    def __contains__(self, i) -> bool:
        if type(i) is not int or i < 0:
            return False
        if i < self.bound:
            return not self.opaque[i]
        k = bisect_left(self.tail, i, self.start)
        return k < len(self.tail) and self.tail[k] == i

    def __eq__(self, other) -> bool:
        if isinstance(other, (Blockers, tuple)):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

#: scenes whose product of flag classes is at most this are decided by enumerating classes;
#: larger ones by the SAT solver (measured: enumeration is fine up to about 10^4 points)
CLASS_PRODUCT_LIMIT = 4096
#: … and whose product times the number of branches is at most this: the grid's masks
#: take that many bytes (twice, when the covering search reads the grid by columns).
#: Deciding whether each branch is covered is one mask operation per branch and a single
#: covering branch is found from the columns (:class:`_Columns`), so thousands of
#: branches on one scene are decided here in about linear work, not by the solver
CLASS_WORK_LIMIT = 1 << 24


def _small(size: int, branches: int) -> bool:
    """Whether a scene of ``branches`` conditions over ``size`` class points is decided
    on the class grid (else by the SAT solver)."""
    return size <= CLASS_PRODUCT_LIMIT and size * branches <= CLASS_WORK_LIMIT


@dataclass(frozen=True)
class FlagDomain:
    """The classes of one flag: ``points`` are (representative, class size) pairs; a size
    is ``None`` for an unbounded int class."""

    flag: str
    points: tuple[tuple[Any, int | None], ...]
    #: the representatives alone, and for each whether a bare flag test holds there
    #: (``v is True or v == 1``, as :func:`~storygraph.conditions.compile3`)
    values: tuple = field(init=False, repr=False, compare=False)
    truthy: tuple = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        values = tuple([v for v, _ in self.points])
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "truthy", tuple([v is True or v == 1 for v in values]))

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

    (The answer depends only on the flag's declaration and on the constants of its own
    type, so it is remembered per process under that key: a scenario asks the same
    question for every scene that tests the flag.)
    """
    kind = flag.type
    if kind == "bool":
        relevant: frozenset = frozenset()
    elif kind == "enum":
        relevant = frozenset(c for c in constants if type(c) is str)
    else:
        relevant = frozenset(c for c in constants if type(c) is int)
    key = (flag.flag, kind, flag.min_value, flag.max_value, flag.values, relevant)
    hit = _FLAG_DOMAINS.get(key)
    if hit is None:
        if len(_FLAG_DOMAINS) >= _FLAG_DOMAINS_LIMIT:
            _FLAG_DOMAINS.clear()
        hit = _FLAG_DOMAINS[key] = make_flag_domain(flag, relevant)
    return hit


#: (flag declaration, relevant constants) -> its classes (see :func:`flag_domain`)
_FLAG_DOMAINS: dict[tuple, FlagDomain] = {}
_FLAG_DOMAINS_LIMIT = 1 << 18


def make_flag_domain(flag: Flag, constants: frozenset) -> FlagDomain:
    """:func:`flag_domain` itself, given only the constants that matter — strings for an
    enum flag, plain ints (not bools) for an int flag — and not remembered: for a caller
    that has already filtered the constants and keeps its own memory (the analysis).

    >>> from storygraph.model import Flag
    >>> make_flag_domain(Flag("route", "경로", "enum", None, None, ("n", "s", "e"), 1), frozenset({"s"})).points
    (('s', 1), ('n', 2))
    """
    if flag.type == "bool":
        return FlagDomain(flag.flag, ((False, 1), (True, 1)))
    if flag.type == "enum":
        mentioned = [v for v in flag.values if v in constants]
        others = [v for v in flag.values if v not in constants]
        points: list[tuple[Any, int | None]] = [(v, 1) for v in mentioned]
        if others:
            points.append((others[0], len(others)))
        return FlagDomain(flag.flag, tuple(points))
    lo, hi = flag.min_value, flag.max_value
    cuts: set[int] = set()
    for c in constants:
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
        expr_flags, expr_consts = expr_facts(expr)
        for f in expr_flags:
            used[f] = None
        for f, values in expr_consts.items():
            have = consts.get(f)
            if have is None:
                consts[f] = set(values)
            else:
                have.update(values)
    wanted = list(names) if names is not None else list(used)
    empty: frozenset = frozenset()
    return {f: flag_domain(flags[f], consts.get(f, empty)) for f in wanted if f in flags}


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


class Shadow(Frozen):
    """Branch ``index`` (position in order) never fires.  ``covered_by``: positions of
    the earlier branches that together cover it (empty when its condition cannot hold by
    itself, ``unsatisfiable``)."""

    __slots__ = ("index", "covered_by", "unsatisfiable")
    index: int
    covered_by: tuple[int, ...]
    unsatisfiable: bool

    def __init__(self, index: int, covered_by: tuple[int, ...], unsatisfiable: bool):
        object.__setattr__(self, "index", index)
        object.__setattr__(self, "covered_by", covered_by)
        object.__setattr__(self, "unsatisfiable", unsatisfiable)


def class_product(domains: Mapping[str, FlagDomain], conditions: Sequence[Expr]) -> int:
    """How many class points the flags used by ``conditions`` span together."""
    used: dict[str, None] = {}
    for expr in conditions:
        for f in flags_of(expr):
            used.setdefault(f, None)
    size = 1
    for f in used:
        if f in domains:
            size *= max(1, len(domains[f].points))
    return size


def decide_shadowing(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], *, exhaustive_pairs: int = 24,
                     method: str | None = None, blockers: Sequence[Sequence[int] | None] | None = None,
                     budget: Budgets | None = None) -> dict[int, Shadow]:
    """Every shadowed branch among ``conditions`` (already in ``order_no`` order).

    ``domains`` must cover every flag the conditions use.  For each shadowed branch the
    smallest covering set found is reported: one earlier branch when one suffices, else a
    pair when there are at most ``exhaustive_pairs`` earlier branches, else an
    irredundant set obtained by dropping branches from all earlier ones (class
    enumeration) or from the solver's unsat core (SAT).

    ``method`` forces ``"classes"`` or ``"sat"``; by default scenes whose class product
    is at most :data:`CLASS_PRODUCT_LIMIT` are enumerated and larger ones solved.
    ``blockers`` (see :func:`menu_blockers`) replaces "every earlier branch" for a scene
    with player choices or opaque conditions.  ``budget`` bounds the SAT method
    (:class:`~storygraph.budgets.BudgetExceeded` past it); ``None``: no bound.

    >>> from storygraph.conditions import parse_condition
    >>> from storygraph.model import Flag
    >>> flags = {"trust": Flag("trust", None, "int", 0, 1_000_000, (), 1)}
    >>> conds = [parse_condition(t) for t in ("trust >= 3", "trust < 3", "trust == 7")]
    >>> decide_shadowing(conds, scene_domains(conds, flags), method="sat")
    {2: Shadow(index=2, covered_by=(0,), unsatisfiable=False)}
    """
    if method is None:
        method = "classes" if _small(class_product(domains, conditions), len(conditions)) else "sat"
    if method == "sat":
        return decide_by_sat(conditions, domains, exhaustive_pairs=exhaustive_pairs, blockers=blockers, budget=budget)
    return decide_by_classes(conditions, domains, exhaustive_pairs=exhaustive_pairs, blockers=blockers, budget=budget)


def decide_scene(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], *, exhaustive_pairs: int = 24,
                 used: Sequence[str] | None = None, blockers: Sequence[Sequence[int] | None] | None = None,
                 budget: Budgets | None = None) -> tuple[dict[int, Shadow], bool | None, tuple[int, ...] | None]:
    """:func:`decide_shadowing` with its default choice of method, plus two facts the
    class enumeration shows on the way: ``(shadows, covered, always)``.

    ``covered``: every assignment of the flags makes some condition true (so no reader
    is stuck); ``always``: positions of the conditions true for every assignment.  Both
    are ``None`` when the scene was solved by SAT or some flag has no class (an empty
    range): the callers then ask their own questions.  ``used``: the flags the
    conditions use, in order of first use, when the caller knows them.  ``budget``: as
    :func:`decide_shadowing`.
    """
    if used is None:
        seen: dict[str, None] = {}
        for c in conditions:
            for f in expr_facts(c)[0]:
                seen[f] = None
        used = list(seen)
    size = 1
    for f in used:
        if f in domains:
            size *= max(1, len(domains[f].points))
    if not _small(size, len(conditions)):
        return decide_by_sat(conditions, domains, exhaustive_pairs=exhaustive_pairs, blockers=blockers, budget=budget), None, None
    names = [f for f in used if f in domains]
    grid = ClassGrid(names, domains)
    mask = grid.mask
    masks = [mask(c) for c in conditions]
    shadows = decide_from_masks(masks, exhaustive_pairs, blockers, _meter(budget), grid.size)
    if not grid.complete or len(names) != len(used):
        return shadows, None, None
    everywhere = grid.all
    union = 0
    for m in masks:
        union |= m
    return shadows, union == everywhere, tuple(j for j, m in enumerate(masks) if m == everywhere)


def _meter(budget: Budgets | None) -> Meter | None:
    return Meter("sat_steps", budget.sat_steps) if budget is not None else None


def decide_by_classes(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], *, exhaustive_pairs: int = 24,
                      blockers: Sequence[Sequence[int] | None] | None = None, budget: Budgets | None = None) -> dict[int, Shadow]:
    """:func:`decide_shadowing` by enumerating every combination of class
    representatives, bit-parallel: each condition becomes the set of class points where it
    holds (a Python int, one byte per point), so "branch j is covered" is
    ``mask_j & ~(mask_0 | … | mask_{j-1}) == 0`` and covering sets are found with a few
    integer operations."""
    grid, masks = class_masks(conditions, domains)
    return decide_from_masks(masks, exhaustive_pairs, blockers, _meter(budget), grid.size)


def class_masks(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain]) -> tuple["ClassGrid", list[int]]:
    """The class grid of the flags ``conditions`` use and, per condition, the set of grid
    points where it holds (see :func:`decide_by_classes`)."""
    used: dict[str, None] = {}
    for c in conditions:
        for f in expr_facts(c)[0]:
            used[f] = None
    grid = ClassGrid([f for f in used if f in domains], domains)
    mask = grid.mask
    return grid, [mask(c) for c in conditions]


def decide_from_masks(masks: Sequence[int], exhaustive_pairs: int = 24,
                      blockers: Sequence[Sequence[int] | None] | None = None, meter: Meter | None = None,
                      size: int = 0) -> dict[int, Shadow]:
    """The shadowing decision from the conditions' grid masks (see :func:`class_masks`);
    ``blockers`` as :func:`menu_blockers` gives them (``None``: first match).

    Whether a branch is covered costs one mask operation (the union of its blockers is a
    prefix union, plus for a fallback a suffix union of the choices); which earlier
    branches cover it is chosen as :func:`_mask_cover` does, but the single covering
    branch is found through the grid's columns (:class:`_Columns`) when there are many
    candidates, so a scene of thousands of branches costs about linear work.  ``meter``
    (with ``size``, the grid's points) counts the work of the covering-set search (one
    step per 64 bytes of mask an operation reads, and one per operation) and raises
    :class:`~storygraph.budgets.BudgetExceeded` past its budget."""
    out: dict[int, Shadow] = {}
    if not size and masks:
        size = max(1, (max(masks).bit_length() + 7) >> 3)
    cols = _Columns(masks, size, meter)
    if blockers is None:
        union = 0
        for j, m in enumerate(masks):
            if m == 0:
                out[j] = Shadow(j, (), True)
            elif j and m & ~union == 0:
                out[j] = Shadow(j, cols.cover(j, range(j), None, exhaustive_pairs), False)
            union |= m
        return out
    prefix: list[int] | None = None  # prefix[k]: union of the first k branches that are not opaque
    suffix: dict[int, int] = {}  # per shared tail list and start: union of tail[start:]
    for j, mine in enumerate(blockers):
        if mine is None:
            continue  # opaque: never decided
        m = masks[j]
        if m == 0:
            out[j] = Shadow(j, (), True)
            continue
        if not mine:
            continue
        if type(mine) is Blockers:
            if prefix is None:
                prefix = [0]
                for i in mine.live:
                    prefix.append(prefix[-1] | masks[i])
            union = prefix[mine.count]
            if mine.start < len(mine.tail):
                tail = suffix.get(mine.start)
                if tail is None:
                    tail = 0
                    for k in range(len(mine.tail) - 1, mine.start - 1, -1):
                        tail |= masks[mine.tail[k]]
                        suffix.setdefault(k, tail)
                union |= tail
        else:
            union = 0
            for i in mine:
                union |= masks[i]
            cols.charge(len(mine))
        if m & ~union == 0:
            out[j] = Shadow(j, cols.cover(j, mine, mine, exhaustive_pairs), False)
    return out


class _Columns:
    """The covering-set search over grid masks, with the grid's columns (per grid point,
    the set of branches holding there: a Python int with one byte per branch) made on
    first need: the earlier branches that hold at every point of branch ``j`` are the
    intersection of those columns, so the first single cover is found after a few
    intersections instead of one test per earlier branch."""

    #: a pool of at most this many branches is searched one branch at a time
    DIRECT = 32

    def __init__(self, masks: Sequence[int], size: int, meter: Meter | None):
        self.masks, self.size, self.meter = masks, size, meter
        self.unit = 1 + size // 64  # the steps one operation on a mask costs
        self.rows: list[bytes] | None = None
        self.columns: list[int] | None = None
        self.live: bytes | None = None
        self.choices = 0

    def charge(self, operations: int, unit: int | None = None) -> None:
        if self.meter is not None:
            self.meter.spend(operations * (self.unit if unit is None else unit))

    def cover(self, j: int, pool: Sequence[int], blockers: Sequence[int] | None, exhaustive_pairs: int) -> tuple[int, ...]:
        """The covering set :func:`_mask_cover` chooses for branch ``j`` among ``pool``
        (ascending positions), given that their union covers it."""
        masks, target = self.masks, self.masks[j]
        single = self._single(j, pool, blockers)
        if single is not None:
            return (single,)
        chosen = [masks[i] for i in pool]
        self.charge(len(chosen) * 2 + (len(chosen) ** 2 // 2 if len(chosen) <= exhaustive_pairs else 0))
        positions = pool if isinstance(pool, (list, tuple, range)) else tuple(pool)
        if len(chosen) <= exhaustive_pairs:
            for a, b in combinations(range(len(chosen)), 2):
                if target & ~(chosen[a] | chosen[b]) == 0:
                    return (positions[a], positions[b])
        return tuple(positions[k] for k in _irredundant(target, chosen))

    def _single(self, j: int, pool: Sequence[int], blockers: Sequence[int] | None) -> int | None:
        """The first branch of ``pool`` that covers branch ``j`` alone, or ``None``."""
        masks, target = self.masks, self.masks[j]
        if len(pool) <= self.DIRECT:
            self.charge(len(pool))
            for i in pool:
                if target & ~masks[i] == 0:
                    return i
            return None
        if self.columns is None:
            self._make_columns()
        rows, columns = self.rows, self.columns
        n = len(masks)
        # the pool as a byte mask over the branches
        if blockers is None:
            candidates = int.from_bytes(_ONE * j, "little")
        elif type(blockers) is Blockers:
            if self.live is None:  # one byte per branch: 1 where it is not opaque, and where it is a choice
                self.live = bytes([0 if o else 1 for o in blockers.opaque])
                chosen = bytearray(n)
                for i in blockers.tail:
                    chosen[i] = 1
                self.choices = int.from_bytes(chosen, "little")
            candidates = int.from_bytes(self.live[:blockers.bound], "little")
            if blockers.start < len(blockers.tail):
                shift = 8 * blockers.tail[blockers.start]
                candidates |= self.choices >> shift << shift
        else:
            candidates = 0
            for i in blockers:
                candidates |= 1 << (8 * i)
            self.charge(len(pool))
        row = rows[j]  # type: ignore[index]
        column_unit = 1 + n // 64
        point = row.find(_ONE)
        done = 0
        while point != -1:
            candidates &= columns[point]  # type: ignore[index]
            done += 1
            if candidates == 0:
                self.charge(done + 1, column_unit)
                return None
            if done & (done - 1) == 0 or done % 16 == 0:
                # try the first candidate left: when it covers, it is the first that does
                low = candidates & -candidates
                i = (low.bit_length() - 1) >> 3
                self.charge(1)
                if target & ~masks[i] == 0:
                    self.charge(done + 1, column_unit)
                    return i
                candidates ^= low
            point = row.find(_ONE, point + 1)
        self.charge(done + 1, column_unit)
        if candidates == 0:
            return None
        return ((candidates & -candidates).bit_length() - 1) >> 3

    def _make_columns(self) -> None:
        size, n = self.size, len(self.masks)
        self.charge(2 * n)
        self.rows = rows = [m.to_bytes(size, "little") for m in self.masks]
        matrix = b"".join(rows)
        self.charge(size, 1 + n // 64)
        self.columns = [int.from_bytes(matrix[p::size], "little") for p in range(size)]


def _mask_cover(target: int, earlier: Sequence[int], exhaustive_pairs: int) -> tuple[int, ...]:
    """The same choice as the search-based cover: the first single earlier branch that
    covers, else the first pair (when there are few earlier branches), else all earlier
    ones less every branch that can be dropped (from the last to the first)."""
    for i, m in enumerate(earlier):
        if target & ~m == 0:
            return (i,)
    n = len(earlier)
    if n <= exhaustive_pairs:
        for a, b in combinations(range(n), 2):
            if target & ~(earlier[a] | earlier[b]) == 0:
                return (a, b)
    return _irredundant(target, earlier)


def _irredundant(target: int, earlier: Sequence[int]) -> tuple[int, ...]:
    """All of ``earlier`` (whose union covers ``target``) less every branch that can be
    dropped, from the last to the first: linear in the branches."""
    n = len(earlier)
    # from the last to the first, drop each branch the others still cover with: the ones
    # before it are all still there (a prefix union), the ones after it are those kept
    prefix = [0] * (n + 1)
    for k in range(n):
        prefix[k + 1] = prefix[k] | earlier[k]
    kept: list[int] = []
    after = 0
    for i in range(n - 1, -1, -1):
        if target & ~(prefix[i] | after) != 0:
            kept.append(i)
            after |= earlier[i]
    return tuple(reversed(kept))


_ONE, _ZERO = b"\x01", b"\x00"


class ClassGrid:
    """Every combination of the class representatives of ``flags``, one byte per point.

    ``complete`` is False when some flag has no class at all (an empty enum, an int range
    whose minimum exceeds its maximum): the grid then still has one point per
    combination of the other flags, and an atom on the empty flag holds nowhere.
    """

    __slots__ = ("domains", "size", "complete", "all", "stride")

    def __init__(self, flags: list[str], domains: Mapping[str, FlagDomain]):
        self.domains = domains
        self.complete = True
        stride: dict[str, int] = {}
        step = 1
        for f in reversed(flags):
            stride[f] = step
            k = len(domains[f].points)
            if k == 0:
                self.complete = False
            elif k > 1:
                step *= k
        self.stride = stride
        self.size = step
        everywhere = _ALL.get(step)
        if everywhere is None:
            everywhere = int.from_bytes(_ONE * step, "little")
            if len(_ALL) < 1024:
                _ALL[step] = everywhere
        self.all = everywhere

    def _atom(self, expr: Expr) -> int:
        flag = expr.flag  # type: ignore[union-attr]
        stride = self.stride.get(flag)
        if stride is None:
            return 0  # a flag without a domain: never true (the scene would be undecided anyway)
        domain = self.domains[flag]
        if type(expr) is Compare:
            fn, const = OPS[expr.op], expr.value
            try:
                holds = tuple(map(fn, domain.values, repeat(const)))
            except TypeError:  # as compile3: a comparison across types is false
                holds = tuple([_safe(fn, v, const) for v in domain.values])
        else:
            holds = domain.truthy
        size = self.size
        if size > _BLOCKS_MAX_SIZE:
            return _block_mask(holds, stride, size)
        key = (holds, stride, size)
        mask = _BLOCKS.get(key)
        if mask is None:
            mask = _block_mask(holds, stride, size)
            if len(_BLOCKS) >= _BLOCKS_LIMIT:
                _BLOCKS.clear()
            _BLOCKS[key] = mask
        return mask

    def mask(self, expr: Expr) -> int:
        kind = type(expr)
        if kind is Compare or kind is FlagTrue:
            return self._atom(expr)
        if kind is Const:
            return self.all if expr.value else 0  # type: ignore[union-attr]
        if kind is Not:
            return self.all & ~self.mask(expr.arg)  # type: ignore[union-attr]
        args = expr.args  # type: ignore[union-attr]
        out = self.mask(args[0])
        if kind is And:
            for a in args[1:]:
                out &= self.mask(a)
        else:
            for a in args[1:]:
                out |= self.mask(a)
        return out


#: grid size -> the mask of every point
_ALL: dict[int, int] = {}
#: (truth per class of a flag, its stride, grid size) -> the atom's mask: the same few
#: patterns recur in every scene, so each is built once per process
_BLOCKS: dict[tuple, int] = {}
_BLOCKS_LIMIT = 1 << 16
#: … for grids of at most this many points (so the cache stays under 64 MB)
_BLOCKS_MAX_SIZE = 1024


def _block_mask(holds: tuple, stride: int, size: int) -> int:
    """The grid mask of an atom that holds on the classes marked in ``holds`` of a flag
    with the given stride, in a grid of ``size`` points."""
    if not any(holds):
        return 0
    if stride == 1:
        block = bytes(map(bool, holds))
    else:
        block = b"".join(map((_ZERO * stride, _ONE * stride).__getitem__, map(bool, holds)))
    return int.from_bytes(block * (size // len(block)), "little")


def _safe(fn, v, const) -> bool:
    try:
        return fn(v, const)
    except TypeError:
        return False


class SatScene:
    """The conditions of one scene encoded once for an incremental SAT solver.

    ``indicator[j]`` is a variable equivalent to condition ``j``; :meth:`can_fire` asks
    whether some assignment makes condition ``j`` true and the ``earlier`` ones false.
    """

    def __init__(self, conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], budget: Budgets | None = None):
        from pysat.solvers import Solver

        self.domains = domains
        #: with a budget, the questions together may cost the solver at most
        #: ``sat_steps`` steps (:class:`~storygraph.budgets.BudgetExceeded`)
        self._meter = Meter("sat_steps", budget.sat_steps) if budget is not None else None
        self._asked = 0  # steps of the questions so far, but their propagations
        self._next = 0
        self._ge: dict[tuple[str, int], int] = {}
        self._laddered: set[str] = set()
        self._starts: dict[str, list] = {}
        self._atoms: dict[Expr, int] = {}
        self.clauses: list[list[int]] = []
        self._true = self._var()
        self.clauses.append([self._true])
        self.indicator = [self._encode(c) for c in conditions]
        # none_before[j]: conditions 0..j-1 are all false (a chain, so that "can j fire
        # after all earlier ones?" needs two assumptions, not j + 1)
        self.none_before = [self._true]
        for t in self.indicator[:-1]:
            v = self._var()
            self.clauses.append([-v, self.none_before[-1]])
            self.clauses.append([-v, -t])
            self.none_before.append(v)
        self.solver = Solver(name="minisat22", bootstrap_with=self.clauses)

    def close(self) -> None:
        self.solver.delete()

    def __enter__(self) -> "SatScene":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -------------------------------------------------------------- encoding
    def _var(self) -> int:
        self._next += 1
        return self._next

    def _at_least(self, flag: str, i: int) -> int:
        """The literal ``[class index of flag >= i]`` (``i = 0`` is true, ``i >= k`` false)."""
        k = len(self.domains[flag].points)
        if i <= 0:
            return self._true
        if i >= k:
            return -self._true
        key = (flag, i)
        lit = self._ge.get(key)
        if lit is None:
            if flag not in self._laddered:
                # first use of the flag: create its whole ladder [>= 1] <- [>= 2] <- …
                self._laddered.add(flag)
                prev = None
                for step in range(1, k):
                    v = self._var()
                    self._ge[(flag, step)] = v
                    if prev is not None:
                        self.clauses.append([-v, prev])  # [>= step] -> [>= step-1]
                    prev = v
            lit = self._ge[key]
        return lit

    def _and(self, lits: list[int]) -> int:
        if not lits:
            return self._true
        if len(lits) == 1:
            return lits[0]
        v = self._var()
        for lit in lits:
            self.clauses.append([-v, lit])
        self.clauses.append([v] + [-lit for lit in lits])
        return v

    def _or(self, lits: list[int]) -> int:
        return -self._and([-lit for lit in lits])

    def _atom(self, expr: Expr) -> int:
        """An atom (comparison or bare flag) as a formula over its flag's ladder: each
        run ``a..b`` of classes where it holds is ``[>= a] and not [>= b+1]``."""
        lit = self._atoms.get(expr)
        if lit is not None:
            return lit
        flag = expr.flag  # type: ignore[union-attr]
        runs = [self._and([self._at_least(flag, a), -self._at_least(flag, b + 1)]) for a, b in self._runs(expr, flag)]
        lit = self._or(runs) if runs else -self._true
        self._atoms[expr] = lit
        return lit

    def _runs(self, expr: Expr, flag: str) -> list[tuple[int, int]]:
        """The maximal runs ``(first, last)`` of class indices where the atom holds.  Int
        classes are sorted intervals cut at the atom's constant, so an ordering holds on a
        prefix or a suffix and an equality on one class: found by bisection."""
        points = self.domains[flag].points
        k = len(points)
        value = getattr(expr, "value", None)
        if isinstance(expr, Compare) and isinstance(value, int) and not isinstance(value, bool) \
                and points and isinstance(points[0][0], int) and not isinstance(points[0][0], bool):
            starts = self._starts.get(flag)
            if starts is None:
                starts = self._starts[flag] = [p for p, _ in points]
            op = expr.op
            if op in (">=", ">"):
                first = bisect_left(starts, value) if op == ">=" else bisect_right(starts, value)
                return [(first, k - 1)] if first < k else []
            if op in ("<", "<="):
                stop = bisect_left(starts, value) if op == "<" else bisect_right(starts, value)
                return [(0, stop - 1)] if stop > 0 else []
            i = bisect_left(starts, value)
            hit = i < k and starts[i] == value
            if op == "==":
                return [(i, i)] if hit else []
            if not hit:
                return [(0, k - 1)]
            return [r for r in ((0, i - 1), (i + 1, k - 1)) if r[0] <= r[1]]
        test = compile3(expr)
        holds = [bool(test({flag: v})) for v, _ in points]
        runs: list[tuple[int, int]] = []
        i = 0
        while i < k:
            if holds[i]:
                j = i
                while j + 1 < k and holds[j + 1]:
                    j += 1
                runs.append((i, j))
                i = j + 1
            else:
                i += 1
        return runs

    def _encode(self, expr: Expr) -> int:
        # iterative post-order walk, so deeply nested conditions need no recursion
        done: dict[int, int] = {}
        stack: list[tuple[Expr, bool]] = [(expr, False)]
        while stack:
            node, ready = stack.pop()
            if isinstance(node, Const):
                done[id(node)] = self._true if node.value else -self._true
            elif isinstance(node, (Compare, FlagTrue)):
                done[id(node)] = self._atom(node)
            elif not ready:
                stack.append((node, True))
                children = (node.arg,) if isinstance(node, Not) else node.args
                stack.extend((c, False) for c in children)
            elif isinstance(node, Not):
                done[id(node)] = -done[id(node.arg)]
            elif isinstance(node, And):
                done[id(node)] = self._and([done[id(a)] for a in node.args])
            else:
                done[id(node)] = self._or([done[id(a)] for a in node.args])
        return done[id(expr)]

    # -------------------------------------------------------------- questions
    def _solve(self, assumptions: list[int]) -> bool:
        meter = self._meter
        if meter is None:
            return bool(self.solver.solve(assumptions=assumptions))
        # a question costs one step per variable of the encoding (whatever the answer,
        # the solver resets them and copies the model) and one per propagation
        self._asked += self._next
        self._charge()
        self.solver.prop_budget(meter.left + 1)  # (counted from the solver's total so far)
        answer = self.solver.solve_limited(assumptions=assumptions)
        self._charge()
        if answer is None:  # stopped inside the question
            raise BudgetExceeded(meter.name, meter.limit)
        return answer

    def _charge(self) -> None:
        meter = self._meter
        meter.spend(self._asked + self.solver.accum_stats()["propagations"] - meter.spent)  # type: ignore[union-attr]

    def can_fire_first(self, j: int) -> bool:
        """Whether condition ``j`` can hold while every earlier one is false."""
        return self._solve([self.indicator[j], self.none_before[j]])

    def can_fire(self, j: int, earlier: Iterable[int]) -> tuple[bool, list[int]]:
        """``(True, [])`` when condition ``j`` can hold with all ``earlier`` false; else
        ``(False, core)`` with the earlier positions the solver needed for its proof."""
        position = {-self.indicator[i]: i for i in earlier}
        sat = self._solve([self.indicator[j], *position])
        if sat:
            return True, []
        core = self.solver.get_core() or []
        return False, sorted({position[lit] for lit in core if lit in position})


def decide_by_sat(conditions: Sequence[Expr], domains: Mapping[str, FlagDomain], *, exhaustive_pairs: int = 24,
                  blockers: Sequence[Sequence[int] | None] | None = None, budget: Budgets | None = None) -> dict[int, Shadow]:
    """:func:`decide_shadowing` by an incremental SAT solver over an order encoding.
    With a ``budget``, :class:`~storygraph.budgets.BudgetExceeded` once the scene's
    questions or one question's conflicts are spent."""
    out: dict[int, Shadow] = {}
    with SatScene(conditions, domains, budget) as scene:
        if blockers is not None:
            for j, mine in enumerate(blockers):
                if mine is None:
                    continue
                alone, _ = scene.can_fire(j, ())
                if not alone:
                    out[j] = Shadow(j, (), True)
                    continue
                fires, core = scene.can_fire(j, mine)
                if mine and not fires:
                    out[j] = Shadow(j, _sat_cover(scene, j, core, exhaustive_pairs, mine), False)
            return out
        for j in range(len(conditions)):
            alone, _ = scene.can_fire(j, ())
            if not alone:
                out[j] = Shadow(j, (), True)
                continue
            if j == 0 or scene.can_fire_first(j):
                continue
            _, core = scene.can_fire(j, range(j))
            out[j] = Shadow(j, _sat_cover(scene, j, core, exhaustive_pairs), False)
    return out


def _sat_cover(scene: SatScene, j: int, core: list[int], exhaustive_pairs: int,
               candidates: Sequence[int] | None = None) -> tuple[int, ...]:
    """The smallest covering set found: a single earlier branch when one suffices, else a
    pair (when there are few earlier branches), else the unsat core made irreducible.
    ``candidates``: the branches that may cover (default: every earlier one)."""
    pool = range(j) if candidates is None else candidates
    for i in pool:
        if not scene.can_fire(j, (i,))[0]:
            return (i,)
    if len(pool) <= exhaustive_pairs:
        for pair in combinations(pool, 2):
            if not scene.can_fire(j, pair)[0]:
                return pair
    chosen = list(core)
    for i in list(reversed(core)):
        if i not in chosen:
            continue
        trial = [k for k in chosen if k != i]
        fires, smaller = scene.can_fire(j, trial)
        if not fires:
            chosen = smaller if smaller else trial
    return tuple(sorted(chosen))


