"""The covering search of one scene in about linear work (issue 19): the menu rule's
blockers (:func:`storygraph.shadowing.menu_blockers`) are made in linear time and
space, and the grid decision (:func:`storygraph.shadowing.decide_from_masks`) finds a
single covering branch through the grid's columns — each checked here against the
quadratic versions they replace, on generated scenes."""

from __future__ import annotations

import random
from itertools import combinations

import pytest

from storygraph import shadowing
from storygraph.budgets import BudgetExceeded, Meter
from storygraph.shadowing import Blockers, Shadow, decide_from_masks, menu_blockers


def _old_menu_blockers(kinds, opaque=None):
    """menu_blockers as it was: every set written out (quadratic)."""
    n = len(kinds)
    if opaque is None:
        opaque = (False,) * n
    first = next((i for i, k in enumerate(kinds) if k == "choice"), None)
    if first is None and not any(opaque):
        return None
    choices = [i for i, k in enumerate(kinds) if k == "choice" and not opaque[i]]
    out = []
    for j in range(n):
        if opaque[j]:
            out.append(None)
        elif first is None or j < first:
            out.append(tuple(i for i in range(j) if not opaque[i]))
        elif kinds[j] == "choice":
            out.append(tuple(i for i in range(first) if not opaque[i]))
        else:
            out.append(tuple(sorted({i for i in range(j) if not opaque[i]} | {i for i in choices if i != j})))
    return out


def _old_decide_from_masks(masks, exhaustive_pairs=24, blockers=None):
    """decide_from_masks as it was: every earlier branch tried in turn."""
    out = {}
    if blockers is not None:
        for j, m in enumerate(masks):
            mine = blockers[j]
            if mine is None:
                continue
            if m == 0:
                out[j] = Shadow(j, (), True)
                continue
            union = 0
            for i in mine:
                union |= masks[i]
            if mine and m & ~union == 0:
                cover = shadowing._mask_cover(m, [masks[i] for i in mine], exhaustive_pairs)
                out[j] = Shadow(j, tuple(mine[k] for k in cover), False)
        return out
    union = 0
    for j, m in enumerate(masks):
        if m == 0:
            out[j] = Shadow(j, (), True)
        elif j and m & ~union == 0:
            out[j] = Shadow(j, shadowing._mask_cover(m, masks[:j], exhaustive_pairs), False)
        union |= m
    return out


def _kinds(rng, n):
    style = rng.choice(["auto", "choice", "mixed", "mixed"])
    if style == "auto":
        kinds = ["auto"] * n
    elif style == "choice":
        kinds = ["choice"] * n
    else:
        kinds = [rng.choice(["auto", "choice", "choice"]) for _ in range(n)]
    opaque = [rng.random() < 0.15 for _ in range(n)] if rng.random() < 0.6 else [False] * n
    return kinds, opaque


def test_menu_blockers_give_what_they_gave():
    rng = random.Random(19)
    for _ in range(600):
        n = rng.randint(0, 40)
        kinds, opaque = _kinds(rng, n)
        old, new = _old_menu_blockers(kinds, opaque), menu_blockers(kinds, opaque)
        assert (old is None) == (new is None)
        if old is None:
            continue
        assert new == old  # element by element: a Blockers equals the tuple it stands for
        for j, (a, b) in enumerate(zip(old, new)):
            if a is None:
                assert b is None
                continue
            assert isinstance(b, Blockers) and tuple(b) == a and len(b) == len(a) and hash(b) == hash(a)
            assert [b[k] for k in range(len(a))] == list(a) and (not a or b[-1] == a[-1]) and b[1:3] == a[1:3]
            assert [i for i in range(-2, n + 2) if i in b] == list(a)
            assert "x" not in b and j not in b
    assert menu_blockers(["auto"] * 3) is None and _old_menu_blockers(["auto"] * 3) is None


def _masks(rng, n, size):
    """Conditions over a grid of ``size`` points: intervals, single points, unions and
    the empty mask, often repeated, so that single covers, pairs and larger sets occur."""
    out = []
    for _ in range(n):
        pick = rng.random()
        if pick < 0.05:
            out.append(0)
        elif pick < 0.35:
            p = rng.randrange(size)
            out.append(1 << (8 * p))
        elif pick < 0.75:
            a = rng.randrange(size)
            b = rng.randrange(a, size)
            out.append(int.from_bytes(b"\x00" * a + b"\x01" * (b - a + 1), "little"))
        elif pick < 0.85 and out:
            out.append(rng.choice(out))
        else:
            out.append(int.from_bytes(bytes(rng.random() < 0.5 for _ in range(size)), "little"))
    return out


@pytest.mark.parametrize("seed", range(6))
def test_grid_decision_chooses_as_before(seed):
    rng = random.Random(1000 + seed)
    for _ in range(40):
        n = rng.choice([rng.randint(1, 30), rng.randint(30, 140)])  # few and many candidates
        size = rng.randint(1, 24)
        masks = _masks(rng, n, size)
        for pairs in (24, 3):
            assert decide_from_masks(masks, pairs) == _old_decide_from_masks(masks, pairs)
            assert decide_from_masks(masks, pairs, size=size, meter=Meter("sat_steps", 10 ** 9)) == _old_decide_from_masks(masks, pairs)
            kinds, opaque = _kinds(rng, n)
            new, old = menu_blockers(kinds, opaque), _old_menu_blockers(kinds, opaque)
            if new is not None:
                assert decide_from_masks(masks, pairs, new) == _old_decide_from_masks(masks, pairs, old)
                # blockers given as plain tuples (not from menu_blockers) decide the same
                assert decide_from_masks(masks, pairs, old) == _old_decide_from_masks(masks, pairs, old)


def test_grid_decision_counts_its_work():
    masks = [1 << (8 * p) for p in range(300)] + [int.from_bytes(b"\x01" * 300, "little")] * 50
    with pytest.raises(BudgetExceeded):
        decide_from_masks(masks, size=300, meter=Meter("sat_steps", 500))
    assert decide_from_masks(masks, size=300, meter=Meter("sat_steps", 10 ** 6)) == _old_decide_from_masks(masks)


def test_a_single_cover_is_found_from_the_columns():
    """Many earlier branches, the first covering one far down the list: the columns give
    the same (first) cover as trying them one by one."""
    size = 64
    rng = random.Random(7)
    points = [1 << (8 * rng.randrange(size)) for _ in range(200)]
    wide = [int.from_bytes(bytes(rng.random() < 0.8 for _ in range(size)), "little") for _ in range(40)]
    full = int.from_bytes(b"\x01" * size, "little")
    masks = points + wide + [full] + wide + points
    assert decide_from_masks(masks, size=size) == _old_decide_from_masks(masks)
    # every repeated branch after the full one: covered by that one (or an earlier equal one)
    got = decide_from_masks(masks)
    assert all(got[j].covered_by for j in range(241, len(masks)))
