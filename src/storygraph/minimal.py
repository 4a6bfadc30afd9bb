"""The minimal form of a region of flag assignments, by sympy.

A region is a set of *class points* of a scene: one class index per flag of the scene,
the classes being the enumerated flag ranges (:func:`storygraph.shadowing.scene_domains`:
each value or run of values a condition of the scene cannot tell apart).  To minimise
it, the classes the region itself cannot tell apart are merged into blocks, then each
flag's blocks are encoded as boolean variables — one-hot, one bit per block (one bit in
all for two), so that one product may allow any set of a flag's blocks: ``trust != 9``
or ``trust >= 3`` is one literal's worth, not two products — the points inside are the
function's minterms, the codes no point has are don't-cares, and
:func:`sympy.logic.SOPform` gives a minimal sum of products.  Each product, read back
flag by flag, is a cube: per flag, the classes it allows.

The region a fix writes as a condition (:func:`storygraph.fixes.region_condition`), the
uncovered combinations a card or a hedge describes
(:func:`storygraph.liveness.describe_stuck`) and a shadowed branch's covered region all
come from here.  sympy is imported on the first region minimised (about a third of a
second), and each region's form is remembered: the scenes of a large scenario repeat
the same few shapes.  Past :data:`MAX_ATOMS` variables or :data:`MAX_POINTS` points a
region is not minimised (the caller says so).
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import TYPE_CHECKING, Mapping, Sequence

if TYPE_CHECKING:  # pragma: no cover
    from .shadowing import FlagDomain

__all__ = ["MAX_ATOMS", "MAX_POINTS", "encoding", "grid_size", "minimal_sum", "minimal_terms", "minimal_cubes"]

#: regions are minimised over at most this many boolean variables (minimisation grows
#: fast: sympy's SOPform took 0.26 s on a random function of 8 variables here, 16 s on
#: one of 10)
MAX_ATOMS = 8
#: … and over scenes whose flag classes multiply to at most this many points
MAX_POINTS = 4096


def encoding(kind: str, k: int) -> list[tuple[int, ...]]:
    """Per class of a flag with ``k`` classes, its bits: one bit for two classes, else
    one bit per class (one-hot), so that a product of the bits — the bits it fixes at 0
    leaving those classes out — may allow any set of the flag's classes.  (``kind`` is
    the flag's type; every type is encoded alike.)

    >>> encoding("bool", 2), encoding("int", 3)
    ([(0,), (1,)], [(1, 0, 0), (0, 1, 0), (0, 0, 1)])
    """
    if k <= 2:
        return [(c,) for c in range(k)] if k == 2 else [()]
    return [tuple(int(c == i) for i in range(k)) for c in range(k)]


def _width(k: int) -> int:
    """How many bits :func:`encoding` gives a flag of ``k`` classes."""
    return k if k > 2 else (1 if k == 2 else 0)


def grid_size(order: Sequence[str], domains: Mapping[str, FlagDomain]) -> int:
    """How many class points the flags ``order`` make together."""
    size = 1
    for f in order:
        size *= max(1, len(domains[f].points))
    return size


def minimal_sum(width: int, minterms: Sequence[int], dontcares: Sequence[int] = ()) -> list[tuple[int, int]] | None:
    """A minimal sum of products of a boolean function of ``width`` variables, given its
    ``minterms`` and ``dontcares`` (as integers, the first variable the highest bit), by
    :func:`sympy.logic.SOPform`.  Each product is ``(value, mask)``, the mask's bits
    being the variables left out, the products with the fewest literals first; ``None``
    when the function is always true.

    >>> minimal_sum(2, [1, 3])  # b
    [(1, 2)]
    """
    if not minterms:
        return []
    from sympy import Symbol
    from sympy.logic.boolalg import And, BooleanTrue, Not, Or, SOPform

    xs = [Symbol(f"x{i}") for i in range(width)]
    form = SOPform(xs, list(minterms), list(dontcares))
    if isinstance(form, BooleanTrue):
        return None
    bit = {x: 1 << (width - 1 - i) for i, x in enumerate(xs)}
    full = (1 << width) - 1
    terms = []
    for product_ in (form.args if isinstance(form, Or) else (form,)):
        value = used = 0
        for literal in (product_.args if isinstance(product_, And) else (product_,)):
            if isinstance(literal, Not):
                used |= bit[literal.args[0]]
            else:
                used |= bit[literal]
                value |= bit[literal]
        terms.append((value, full & ~used))
    return sorted(terms, key=lambda p: (-bin(p[1]).count("1"), p))


def _bits_to_int(bits: Sequence[int]) -> int:
    n = 0
    for b in bits:
        n = (n << 1) | b
    return n


@lru_cache(maxsize=4096)
def minimal_terms(inside: frozenset, ks: tuple[int, ...], types: tuple[str, ...]) -> tuple[dict[int, int], ...] | None:
    """The products of a minimal sum of the region ``inside`` (class points over flags
    with ``ks`` classes of ``types``), each a map bit -> 0/1, ``None`` for "always"."""
    encs = [encoding(t, k) for t, k in zip(types, ks)]
    width = sum(_width(k) for k in ks)
    valid: dict[tuple[int, ...], tuple[int, ...]] = {}
    for p in product(*[range(k) for k in ks]):
        valid[tuple(b for c, enc in zip(p, encs) for b in enc[c])] = p
    minterms = [_bits_to_int(code) for code, p in valid.items() if p in inside]
    dontcares = [_bits_to_int(code) for code in product((0, 1), repeat=width) if code not in valid]
    terms = minimal_sum(width, minterms, dontcares)
    if terms is None:
        return None
    return tuple({i: (value >> (width - 1 - i)) & 1 for i in range(width) if not (mask >> (width - 1 - i)) & 1}
                 for value, mask in terms)


def _blocks(inside: set[tuple[int, ...]], ks: Sequence[int], types: Sequence[str]) -> list[list[list[int]]]:
    """Per flag, its classes grouped into blocks the region cannot tell apart: two classes
    are in one block when every point with the one is inside exactly when the same point
    with the other is."""
    out = []
    for i, k in enumerate(ks):
        seen: dict[int, set] = {c: set() for c in range(k)}
        for p in inside:
            seen[p[i]].add(p[:i] + p[i + 1:])
        signature = {c: frozenset(v) for c, v in seen.items()}
        by_sig: dict[frozenset, list[int]] = {}
        for c in range(k):
            by_sig.setdefault(signature[c], []).append(c)
        blocks = list(by_sig.values())
        out.append(blocks)
    return out


def minimal_cubes(inside: set[tuple[int, ...]], ks: Sequence[int], types: Sequence[str]) -> list[tuple[frozenset[int], ...]] | None:
    """The region ``inside`` (class points over flags with ``ks`` classes of ``types``) as
    the cubes of its minimal sum: per product, per flag, the classes it allows (``[]``
    for an empty region, one cube allowing everything for the whole grid); ``None`` when
    the region is past :data:`MAX_ATOMS` variables or :data:`MAX_POINTS` points.

    The classes the region cannot tell apart are first merged (:func:`_blocks`) and a
    flag left with one block dropped: the minimal form of the smaller function, read
    back, is one of the region (the merge is exact), and sympy's work shrinks from the
    scene's every class to the distinctions the region makes.

    >>> minimal_cubes({(0, 1), (1, 1), (2, 1)}, [3, 2], ["int", "bool"])
    [(frozenset({0, 1, 2}), frozenset({1}))]
    """
    if not inside:
        return []
    blocks = _blocks(inside, ks, types)
    live = [i for i, b in enumerate(blocks) if len(b) > 1]
    small_ks = tuple(len(blocks[i]) for i in live)
    width = sum(_width(k) for k in small_ks)
    size = 1
    for k in small_ks:
        size *= k
    if width > MAX_ATOMS or size > MAX_POINTS:
        return None
    block_of = [{c: n for n, block in enumerate(b) for c in block} for b in blocks]
    small = frozenset(tuple(block_of[i][p[i]] for i in live) for p in inside)
    everything = tuple(frozenset(range(k)) for k in ks)
    if not live:
        return [everything]
    small_types = tuple(types[i] for i in live)
    terms = minimal_terms(small, small_ks, small_types)
    if terms is None:
        return [everything]
    encs = [encoding(t, k) for t, k in zip(small_types, small_ks)]
    out = []
    for term in terms:
        cube = list(everything)
        bit = 0
        for i, k, enc in zip(live, small_ks, encs):
            lits = {j - bit: v for j, v in term.items() if bit <= j < bit + _width(k)}
            bit += _width(k)
            cube[i] = frozenset(c for n in range(k) if all(enc[n][j] == v for j, v in lits.items()) for c in blocks[i][n])
        out.append(tuple(cube))
    return out
