from __future__ import annotations

from pathlib import Path

import pytest
import sympy
import yaml

from storygraph.conditions import check_types, evaluate, parse_condition, render, to_sympy
from storygraph.model import Flag
from verdicts.errors import ConditionSyntaxError

CASES = yaml.safe_load((Path(__file__).parent / "condition_cases.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("text,canonical", CASES["parses"], ids=[c[0] for c in CASES["parses"]])
def test_parses_to_canonical_form(text, canonical):
    assert render(parse_condition(text)) == canonical


@pytest.mark.parametrize("case", CASES["fails"], ids=[c["text"] for c in CASES["fails"]])
def test_syntax_errors_are_friendly(case):
    with pytest.raises(ConditionSyntaxError) as info:
        parse_condition(case["text"])
    err = info.value
    assert err.position == case["position"], err.message
    if "expects" in case:
        assert any(case["expects"] in word for word in err.expected), err.expected
    if "says" in case:
        assert case["says"] in err.message
    # the caret sits under the position
    text_line, caret_line = err.caret.split("\n")
    assert text_line == case["text"] and caret_line.index("^") == case["position"] - 1


def test_empty_condition_is_always_true():
    assert evaluate(parse_condition(""), {}) is True
    assert evaluate(parse_condition(None), {}) is True


FLAGS = {
    "trust": Flag("trust", "신뢰도", "int", 0, 5, (), 2),
    "has_key": Flag("has_key", "열쇠", "bool", None, None, (), 3),
    "route": Flag("route", "항로", "enum", None, None, ("north", "south"), 4),
}


@pytest.mark.parametrize("text,problem", [
    ("route == 3", "따옴표로 감싼 값"),
    ('route == "east"', "선언된 값이 아닙니다"),
    ('route < "north"', "`==`나 `!=`로"),
    ('trust == "high"', "정수와 비교"),
    ("trust", "비교해야"),
    ("has_key > 0", "`==`나 `!=`로"),
    ("has_key == 2", "`true`나 `false`"),
    ("luck > 1", "`flag_spec`에 없습니다"),
])
def test_type_errors_against_flag_spec(text, problem):
    problems = check_types(parse_condition(text), FLAGS)
    assert problems and problem in problems[0].reason


@pytest.mark.parametrize("text", ["trust >= 3 and has_key", "route == 'south' or trust < 2", "has_key == false", "not (trust == 3)"])
def test_well_typed_conditions_have_no_problem(text):
    assert check_types(parse_condition(text), FLAGS) == []


@pytest.mark.parametrize("text", ["trust >= 3 and has_key", "1 < trust < 4 or not has_key", "route != 'north' and has_key == false"])
def test_sympy_form_agrees_with_evaluation(text):
    expr = parse_condition(text)
    form = to_sympy(expr, FLAGS)
    for trust in range(0, 6):
        for key in (False, True):
            for ri, route in enumerate(FLAGS["route"].values):
                env = {"trust": trust, "has_key": key, "route": route}
                subs = {sympy.Symbol("trust", integer=True): trust, sympy.Symbol("has_key"): key, sympy.Symbol("route", integer=True): ri}
                assert bool(form.subs(subs)) == evaluate(expr, env), (text, env)


def test_identical_texts_are_parsed_once():
    parse_condition.cache_clear()
    for _ in range(50):
        parse_condition("trust >= 3 and has_key")
    info = parse_condition.cache_info()
    assert info.misses == 1 and info.hits == 49
