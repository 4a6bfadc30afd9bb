"""The SAT method of the shadowing decision is exact: on random small cases it agrees
with the class enumeration, with brute force over the full ranges and with z3; its
covering sets really cover and cannot be made smaller by dropping a branch; and on the
issue's hard scene (40 flags, 60 branches, ranges up to 1,000,000) it agrees with z3."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from storygraph.conditions import And, Compare, Const, FlagTrue, Not, Or, evaluate, parse_condition
from storygraph.loading import load_scenario
from storygraph.model import Flag
from storygraph.shadowing import decide_by_classes, decide_by_sat, decide_shadowing, scene_domains

from .test_shadowing import FLAGS, _values, brute_force, exprs

ROOT = Path(__file__).resolve().parents[2]


def _covers(conditions, j, cover) -> bool:
    names = sorted(FLAGS)
    for combo in itertools.product(*(_values(FLAGS[n]) for n in names)):
        p = dict(zip(names, combo))
        if evaluate(conditions[j], p) and not any(evaluate(conditions[i], p) for i in cover):
            return False
    return True


@given(st.lists(exprs, min_size=1, max_size=6))
def test_sat_matches_classes_and_brute_force(conditions):
    domains = scene_domains(conditions, FLAGS)
    by_sat = decide_by_sat(conditions, domains)
    by_classes = decide_by_classes(conditions, domains)
    expected = brute_force(conditions)
    assert set(by_sat) == set(by_classes) == set(expected)
    for j, shadow in by_sat.items():
        assert shadow.unsatisfiable == by_classes[j].unsatisfiable == (expected[j] == "unsat")
        if shadow.unsatisfiable:
            continue
        assert shadow.covered_by and all(i < j for i in shadow.covered_by)
        assert _covers(conditions, j, shadow.covered_by)
        # irreducible: dropping any one covering branch leaves a gap
        for i in shadow.covered_by:
            assert not _covers(conditions, j, [k for k in shadow.covered_by if k != i])
        # one branch whenever one suffices
        if any(_covers(conditions, j, [i]) for i in range(j)):
            assert len(shadow.covered_by) == 1


z3 = pytest.importorskip("z3")


def _z3_fires(conditions, flags, j) -> bool:
    """Can condition ``j`` hold while every earlier one is false?  (z3 over integers)"""
    var = {}
    s = z3.Solver()
    for name, f in flags.items():
        if f.type == "bool":
            var[name] = z3.Bool(name)
        elif f.type == "enum":
            var[name] = z3.Int(name)
            s.add(var[name] >= 0, var[name] < len(f.values))
        else:
            var[name] = z3.Int(name)
            s.add(var[name] >= f.min_value, var[name] <= f.max_value)

    def conv(e):
        if isinstance(e, Const):
            return z3.BoolVal(e.value)
        if isinstance(e, FlagTrue):
            return var[e.flag]
        if isinstance(e, Compare):
            f = flags[e.flag]
            x = var[e.flag]
            if f.type == "enum":
                c = f.values.index(e.value) if e.value in f.values else -1
            elif f.type == "bool":
                c = z3.BoolVal(bool(e.value))
                return x == c if e.op == "==" else x != c
            else:
                c = e.value
            return {"==": x == c, "!=": x != c, "<": x < c, "<=": x <= c, ">": x > c, ">=": x >= c}[e.op]
        if isinstance(e, Not):
            return z3.Not(conv(e.arg))
        parts = [conv(a) for a in e.args]
        return z3.And(*parts) if isinstance(e, And) else z3.Or(*parts)

    s.add(conv(conditions[j]))
    for c in conditions[:j]:
        s.add(z3.Not(conv(c)))
    return s.check() == z3.sat


@settings(max_examples=30)
@given(st.lists(exprs, min_size=2, max_size=6))
def test_sat_matches_z3(conditions):
    decided = decide_by_sat(conditions, scene_domains(conditions, FLAGS))
    for j in range(1, len(conditions)):
        assert (j in decided) == (not _z3_fires(conditions, FLAGS, j))


def _hard_scene(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import generate
    finally:
        sys.path.pop(0)
    path = tmp_path / "hard.csv"
    generate.write(generate.hard_scene_rows(), str(path))
    sc = load_scenario(path)
    ordered = sorted(sc.branches, key=lambda b: b.order_no)
    return sc, [parse_condition(b.condition_expr) for b in ordered]


def test_hard_scene_is_decided_exactly_and_agrees_with_z3(tmp_path):
    sc, conditions = _hard_scene(tmp_path)
    flags = {f: sc.flags[f] for f in sc.flags}
    assert len(flags) == 40 and len(conditions) == 60
    assert sum(f.type == "int" and f.max_value >= 1000 for f in flags.values()) == 20
    domains = scene_domains(conditions, flags)
    decided = decide_shadowing(conditions, domains)  # too many classes to enumerate: SAT
    for j in range(1, len(conditions)):
        assert (j in decided) == (not _z3_fires(conditions, flags, j)), j
    assert decided, "the benchmark scene should have shadowed branches"
