"""Stuck combinations are exact: counted against brute force on small random cases, and
cross-checked by an SMT solver (z3) — a bounded slice by default, deeper in the slow run."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings, strategies as st

from storygraph.conditions import evaluate
from storygraph.liveness import live_reachability, uncovered
from tests.conftest import DEEP
from tests.storygraph.test_shadowing import FLAGS, _values, exprs

NAMES = sorted(FLAGS)


def _points():
    return [dict(zip(NAMES, combo)) for combo in itertools.product(*(_values(FLAGS[n]) for n in NAMES))]


POINTS = _points()


@given(st.lists(exprs, min_size=1, max_size=4))
def test_stuck_count_matches_brute_force(conditions):
    stuck = uncovered(conditions, FLAGS, NAMES)
    expected = [p for p in POINTS if not any(evaluate(c, p) for c in conditions)]
    if not expected:
        assert stuck is None
        return
    assert stuck is not None and stuck.total == len(POINTS) and stuck.count == len(expected)
    assert not any(evaluate(c, stuck.example) for c in conditions)


def _z3_check(conditions, stuck):
    z3 = pytest.importorskip("z3")
    from storygraph.smt import z3_encoding

    solver, conv = z3_encoding(FLAGS, NAMES)
    solver.add(*[z3.Not(conv(c)) for c in conditions])
    assert (solver.check() == z3.sat) == (stuck is not None)


@settings(max_examples=1000 if DEEP else 150)
@given(st.lists(exprs, min_size=1, max_size=5))
def test_stuck_existence_agrees_with_z3(conditions):
    _z3_check(conditions, uncovered(conditions, FLAGS, NAMES))


@pytest.mark.slow
@settings(max_examples=5000 if DEEP else 300)
@given(st.lists(exprs, min_size=2, max_size=8))
def test_stuck_existence_agrees_with_z3_deep(conditions):
    _z3_check(conditions, uncovered(conditions, FLAGS, NAMES))


def test_live_reachability_gates():
    scenes = {"S", "A", "B", "E"}
    branches = [("s-a", "S", "A"), ("a-b", "A", "B"), ("b-e", "B", "E"), ("s-e", "S", "E")]
    live = live_reachability(scenes, branches, {"s-a"}, ["S"], ["E"], scenes, scenes)
    assert live.reached == {"S", "E"}
    assert live.reached_only_through == {"A": ["s-a"], "B": ["s-a"]}
    live = live_reachability(scenes, branches, {"b-e", "s-e"}, ["S"], ["E"], scenes, scenes)
    assert live.reaches_ending == {"E"}
    assert set(live.ending_only_through) == {"S", "A", "B"}
