"""The shared model: the JSON forms hold every field that is set, in declaration order,
records are frozen, and a card answers by attribute and keeps its schema-shaped dict."""

from __future__ import annotations

import dataclasses

import pytest

from verdicts.model import CheckResult, Evidence, Finding, InputIssue
from storygraph.model import StoryCard


def _set_fields(record) -> dict:
    return {f.name: getattr(record, f.name) for f in dataclasses.fields(record) if getattr(record, f.name) is not None}


def test_finding_json_holds_the_set_fields_in_order():
    for f in (Finding(code="c", target="t", message="m."),
              Finding(code="c", target="t", message="m.", file="a.csv", line=3, data={"n": None, "x": [1, (2, 3)]}, accepted="왜냐하면")):
        assert list(f.to_json().items()) == list(_set_fields(f).items())
    c = CheckResult(id="x", description="d", passed=False, failed_targets=("a", "b"))
    assert c.failed_targets == ["a", "b"] and list(c.to_json().items()) == list(_set_fields(c).items())
    i = InputIssue(file="a.csv", line=2, reason="이유입니다.")
    # every field, the optional 고치는 법 only when there is one
    assert i.to_json() == {f.name: getattr(i, f.name) for f in dataclasses.fields(i) if f.name != "fix"}


def test_records_are_frozen_and_copied_with_changes():
    i = InputIssue(file="a.csv", line=2, reason="이유입니다.")
    with pytest.raises(dataclasses.FrozenInstanceError):
        i.line = 3  # type: ignore[misc]
    j = i.replace(line=3)
    assert (i.line, j.line, j.file) == (2, 3, "a.csv")
    with pytest.raises(TypeError):
        InputIssue("a.csv", reason="x")  # keyword only, as before


def test_card_reads_by_attribute():
    card = StoryCard.of(target_no="BR-1", target_kind="분기", scene_id="SC-1", branch_id="BR-1", verdict="끝까지 닿음",
                        reached_from_entry=True, evidence=[Evidence(source="story_branches", field="branch_id", value="BR-1", line=2)],
                        summary="요약입니다.")
    assert card.key == "BR-1" and card.verdict == "끝까지 닿음" and card.hedge is None
    assert card.evidence == [Evidence(source="story_branches", field="branch_id", value="BR-1", line=2)]
    assert list(card.to_json()) == list(StoryCard.field_names)
    card.accepted = "의도했습니다."
    assert card.to_json()["accepted"] == "의도했습니다." and "accepted" not in card.data
    try:
        card.nothing
    except AttributeError as exc:
        assert "nothing" in str(exc)
    else:
        raise AssertionError("an unknown field must raise AttributeError")
