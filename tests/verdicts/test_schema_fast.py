"""The compiled schema validator (jsonschema_rs) gives the same pass/fail as jsonschema
on valid cards and on cards with fields removed or replaced by values of other types."""

from __future__ import annotations

from hypothesis import given, strategies as st

from verdicts.schema import _fast_validator, _validator, card_errors, card_valid

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


@given(st.dictionaries(st.sampled_from(sorted(VALID)), values, max_size=4), st.sets(st.sampled_from(sorted(VALID)), max_size=3))
def test_compiled_validator_agrees_with_jsonschema(replace, drop):
    card = {k: v for k, v in {**VALID, **replace}.items() if k not in drop}
    assert _fast_validator("storygraph") is not None
    assert card_valid("storygraph", card) == _validator("storygraph").is_valid(card)
    assert card_valid("storygraph", card) == (card_errors("storygraph", card) == [])


def test_valid_card_passes():
    assert card_valid("storygraph", VALID)


def test_integer_beyond_64_bits_is_still_judged():
    """A creator's huge number in a cited cell reaches the validator as a Python int that
    jsonschema_rs cannot hold; the pure-Python validator then decides."""
    card = {**VALID, "evidence": [{"field": "min_value", "value": 10**30}]}
    assert card_valid("storygraph", card)
    assert not card_valid("storygraph", {**card, "verdict": 10**30})
