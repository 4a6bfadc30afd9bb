"""The shadowing decision against the reference definition: brute-force enumeration of
every assignment over the full flag ranges (small random cases, hypothesis)."""

from __future__ import annotations

import itertools

from hypothesis import given, strategies as st

from storygraph.conditions import And, Compare, Const, FlagTrue, Not, Or, evaluate
from storygraph.model import Flag
from storygraph.shadowing import decide_shadowing, flag_domain, scene_domains

FLAGS = {
    "a": Flag("a", None, "bool", None, None, (), 1),
    "b": Flag("b", None, "bool", None, None, (), 2),
    "t": Flag("t", None, "int", 0, 6, (), 3),
    "u": Flag("u", None, "int", -2, 3, (), 4),
    "r": Flag("r", None, "enum", None, None, ("n", "s", "e", "w"), 5),
}


def _values(flag: Flag):
    if flag.type == "bool":
        return [False, True]
    if flag.type == "enum":
        return list(flag.values)
    return list(range(flag.min_value, flag.max_value + 1))


atoms = st.one_of(
    st.builds(FlagTrue, st.sampled_from(["a", "b"]), st.just(1)),
    st.builds(Compare, st.sampled_from(["t", "u"]), st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), st.integers(-3, 8), st.just(1)),
    st.builds(Compare, st.just("r"), st.sampled_from(["==", "!="]), st.sampled_from(["n", "s", "e"]), st.just(1)),
    st.builds(Const, st.booleans()),
)
exprs = st.recursive(
    atoms,
    lambda inner: st.one_of(
        st.builds(Not, inner),
        st.builds(lambda xs: And(tuple(xs)), st.lists(inner, min_size=2, max_size=3)),
        st.builds(lambda xs: Or(tuple(xs)), st.lists(inner, min_size=2, max_size=3)),
    ),
    max_leaves=5,
)


def brute_force(conditions):
    names = sorted(FLAGS)
    points = [dict(zip(names, combo)) for combo in itertools.product(*(_values(FLAGS[n]) for n in names))]
    shadowed = {}
    for j, target in enumerate(conditions):
        true_points = [p for p in points if evaluate(target, p)]
        if not true_points:
            shadowed[j] = "unsat"
        elif j and all(any(evaluate(c, p) for c in conditions[:j]) for p in true_points):
            shadowed[j] = "covered"
    return shadowed


@given(st.lists(exprs, min_size=1, max_size=5))
def test_decision_matches_full_enumeration(conditions):
    domains = scene_domains(conditions, FLAGS)
    decided = decide_shadowing(conditions, domains)
    expected = brute_force(conditions)
    assert set(decided) == set(expected)
    for j, shadow in decided.items():
        assert shadow.unsatisfiable == (expected[j] == "unsat")
        if not shadow.unsatisfiable:
            # the reported cover really covers, by the reference definition
            cover = [conditions[i] for i in shadow.covered_by]
            names = sorted(FLAGS)
            for combo in itertools.product(*(_values(FLAGS[n]) for n in names)):
                p = dict(zip(names, combo))
                if evaluate(conditions[j], p):
                    assert any(evaluate(c, p) for c in cover)


def test_classes_cut_at_constants():
    trust = Flag("trust", None, "int", 0, 5, (), 1)
    assert flag_domain(trust, {3}).points == ((0, 3), (3, 1), (4, 2))
    assert flag_domain(trust, {9}).points == ((0, 6),)
    assert flag_domain(trust, {-4}).points == ((0, 6),)
    unbounded = Flag("x", None, "int", None, None, (), 1)
    assert [p for p, _ in flag_domain(unbounded, {0, 10}).points] == [-1, 0, 1, 10, 11]
    route = Flag("r", None, "enum", None, None, ("n", "s", "e"), 1)
    assert flag_domain(route, {"s"}).points == (("s", 1), ("n", 2))


def test_smallest_cover_prefers_one_branch():
    from storygraph.conditions import parse_condition as p

    conds = [p("t <= 1"), p("t >= 3"), p("t >= 3 and a"), p("t == 2 or t < 2"), p("")]
    decided = decide_shadowing(conds, scene_domains(conds, FLAGS))
    assert decided[2].covered_by == (1,)
    assert decided[4].covered_by == (1, 3)
    assert 3 not in decided  # t == 2 is still uncovered
