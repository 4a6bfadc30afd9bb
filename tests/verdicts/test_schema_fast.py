"""The three schema validators give one decision: the schema compiled into Python
functions (a few cards), jsonschema_rs (many cards) and jsonschema (the messages), on
valid cards and on cards with fields removed or replaced by values of other types, for
every domain's schema that the Python functions take."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import verdicts.schema

from verdicts.schema import (MANY_CARDS, UnsupportedSchema, Unsure, _fast_validator, _python_validator, _validator, card_errors,
                             card_valid, card_validator, compile_schema, load_schema)

VALID = {
    "target_no": "BR-01", "target_kind": "분기", "scene_id": "SC-01", "branch_id": "BR-01", "verdict": "조건이 겹침",
    "reached_from_entry": True, "reaches_ending": None, "overlapping_branch_id": "BR-02",
    "evidence": [{"field": "condition_expr", "value": "trust >= 3"}, {"field": "is_ending", "agg": "count", "value": 2}],
    "summary": "요약입니다.", "hedge": None,
}
values = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False), st.text(max_size=5),
                   st.sampled_from(["장면", "분기", "끝까지 닿음", "끝에 못 감", "기타"]),
                   st.lists(st.dictionaries(st.sampled_from(["field", "value", "agg"]), st.one_of(st.none(), st.text(max_size=3), st.integers()), max_size=3), max_size=2),
                   st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
DOMAINS = sorted(p.name.split(".")[0] for p in (Path(verdicts.schema.__file__).parent / "schemas").glob("*.card.schema.json"))


def _rust(domain: str, card) -> bool | None:
    try:
        return _fast_validator(domain).is_valid(card)
    except (ValueError, TypeError, OverflowError):
        return None


@given(st.dictionaries(st.sampled_from(sorted(VALID)), values, max_size=4), st.sets(st.sampled_from(sorted(VALID)), max_size=3))
def test_compiled_validators_agree_with_jsonschema(replace, drop):
    card = {k: v for k, v in {**VALID, **replace}.items() if k not in drop}
    python = _python_validator("storygraph")
    assert python is not None  # the storygraph schema is checked in Python for a small scenario
    expected = _validator("storygraph").is_valid(card)
    assert card_valid("storygraph", card) == expected
    assert card_validator("storygraph", MANY_CARDS)(card) == expected  # the jsonschema_rs side
    assert card_valid("storygraph", card) == (card_errors("storygraph", card) == [])


def _cards_of(schema: dict, draw) -> dict:
    """A card for ``schema``: each property a value that fits it or one of another kind."""
    card = {}
    for name, sub in schema.get("properties", {}).items():
        if draw(st.integers(0, 9)) == 0:
            continue  # left out
        kinds = sub.get("type", "string")
        kinds = [kinds] if isinstance(kinds, str) else kinds
        fitting = []
        if "enum" in sub:
            fitting.append(st.sampled_from(sub["enum"]))
        for k in kinds:
            fitting.append({"string": st.text(max_size=4), "null": st.none(), "boolean": st.booleans(),
                            "integer": st.integers(-5, 5) | st.just(2.0), "number": st.floats(-2, 2, allow_nan=False),
                            "array": st.lists(st.dictionaries(st.sampled_from(["field", "value", "agg", "x"]),
                                                              st.none() | st.integers(0, 3) | st.text(max_size=2)), max_size=2),
                            "object": st.dictionaries(st.text(max_size=2), st.integers(), max_size=2)}[k])
        other = st.none() | st.booleans() | st.integers(-2, 2) | st.floats(-2, 2, allow_nan=False) | st.text(max_size=3) | st.lists(st.integers(), max_size=2)
        card[name] = draw(st.one_of(*fitting) if draw(st.integers(0, 4)) else other)
    return card


@pytest.mark.parametrize("domain", DOMAINS)
@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_every_schema_the_python_functions_take_agrees(domain, data):
    python = _python_validator(domain)
    schema = load_schema(domain)
    if python is None:  # a keyword they do not take (a pattern): jsonschema_rs checks every card
        with pytest.raises(UnsupportedSchema):
            compile_schema(schema)
        assert card_validator(domain)(data.draw(st.just({}))) == _validator(domain).is_valid({})
        return
    card = _cards_of(schema, data.draw)
    expected = _validator(domain).is_valid(card)
    assert python(card) == expected
    assert _rust(domain, card) in (expected, None)


def test_valid_card_passes():
    assert card_valid("storygraph", VALID)
    assert json.loads(json.dumps(VALID)) == VALID


def test_json_meanings_the_python_functions_keep():
    S = "https://json-schema.org/draft/2020-12/schema"
    integer = compile_schema({"$schema": S, "type": "integer"})
    assert integer(3) and integer(2.0) and not integer(2.5) and not integer(True)
    assert not compile_schema({"enum": [1]})(True) and compile_schema({"enum": [1]})(1.0)
    assert compile_schema({"type": "array"})((1, 2))  # a tuple is written as an array
    assert not compile_schema({"minLength": 2})("가") and compile_schema({"minLength": 2})("가나")
    assert not compile_schema({"exclusiveMinimum": 0})(0) and compile_schema({"maximum": 1})(True)
    assert not compile_schema({"properties": {"a": {"type": "string"}}, "additionalProperties": False})({"a": "x", "b": 1})
    with pytest.raises(Unsure):  # where jsonschema_rs and jsonschema part ways, the validators behind decide
        compile_schema({"type": "number"})(float("inf"))
    with pytest.raises(UnsupportedSchema):
        compile_schema({"pattern": "^a"})


def test_integer_beyond_64_bits_is_still_judged():
    """A creator's huge number in a cited cell reaches the validator as a Python int that
    jsonschema_rs cannot hold; the pure-Python validator then decides."""
    card = {**VALID, "evidence": [{"field": "min_value", "value": 10**30}]}
    assert card_valid("storygraph", card)
    assert not card_valid("storygraph", {**card, "verdict": 10**30})
    assert not card_valid("storygraph", {**card, "reached_from_entry": 10**30})


@pytest.mark.parametrize("domain", ["storygraph", "residue"])
def test_every_schema_is_read_with_more_hedges(domain):
    """``more_hedges`` (a card's caveats after its hedge) is the kit's field: every
    domain's schema takes it — residue's too, which forbids any field it does not name —
    and only as a list of sentences."""
    if domain == "storygraph":
        card = {**VALID, "hedge": "첫 단서입니다."}
    else:
        from verdicts.domain import get_domain

        card = get_domain("residue").judge(Path(__file__).resolve().parents[2] / "examples" / "residue").cards[0].to_json()
        card = {**card, "hedge": "첫 단서입니다."}
    assert "more_hedges" not in json.loads((Path(verdicts.schema.__file__).parent / "schemas" / f"{domain}.card.schema.json")
                                           .read_text(encoding="utf-8"))["properties"]
    for more, ok in ((["둘째 단서입니다.", "셋째 단서입니다."], True), ([""], False), ([3], False), ("둘째 단서입니다.", False)):
        tried = {**card, "more_hedges": more}
        assert card_valid(domain, tried) is ok and card_validator(domain, MANY_CARDS)(tried) is ok, more
        assert (card_errors(domain, tried) == []) is ok
    assert card_valid(domain, {**card, "other_hedges": ["둘째 단서입니다."]}) is (domain != "residue")
