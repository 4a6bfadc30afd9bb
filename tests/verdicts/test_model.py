"""The shared model: hand-written JSON forms agree with pydantic's, and a card answers
by attribute and keeps its schema-shaped dict."""

from __future__ import annotations

from verdicts.model import Evidence, Finding
from storygraph.model import StoryCard


def test_finding_json_is_the_model_dump():
    for f in (Finding(code="c", target="t", message="m."),
              Finding(code="c", target="t", message="m.", file="a.csv", line=3, data={"n": None, "x": [1, (2, 3)]}, accepted="왜냐하면")):
        assert f.to_json() == f.model_dump(exclude_none=True)
        assert list(f.to_json()) == list(f.model_dump(exclude_none=True))


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
