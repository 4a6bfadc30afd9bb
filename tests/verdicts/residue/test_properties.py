"""Invariants of the judge over generated components: a complete component stays
complete whatever its user text; a planted template text inside is always caught; a
planted placeholder on a satellite place is never a defect; texts only in the data never
change the answer."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verdicts.residue.model import Component
from verdicts.residue.rules import build_card

WORDS = st.sampled_from(["기획", "실행", "점검", "시장 조사", "파일럿 운영", "성과 지표", "Market", "市場", "30%", "2025년",
                         "고객 인터뷰", "예산 확정", "채용 계획", "보고서 작성"])
ITEMS = st.lists(st.fixed_dictionaries({"label": WORDS, "desc": WORDS}), min_size=1, max_size=4)
PLACEHOLDERS = ["제목을 입력해주세요.", "제목 입력", "부제목 입력", "설명을 입력해주세요."]


def component(items, extra_visible=(), frame=(), outside=()) -> Component:
    visible = [{"text": v} for item in items for v in item.values()] + list(extra_visible)
    return Component(component_id="P", page_yaml=items, binding=[], frame_tree=list(frame), outside_nodes=list(outside),
                     placeholder_table=PLACEHOLDERS, visible_texts=visible)


def judge(c: Component) -> dict:
    return build_card(c, list(c.visible_texts or []))


@settings(max_examples=60, deadline=None)
@given(ITEMS)
def test_user_text_alone_is_complete(items):
    assert judge(component(items))["answer"] == "complete"


@settings(max_examples=60, deadline=None)
@given(ITEMS, st.sampled_from(["기본 타이틀", "A항목", "Lorem ipsum", "이곳에 입력해 보세요", "フェーズ1", "샘플 이미지입니다"]))
def test_a_planted_template_text_is_caught(items, planted):
    card = judge(component(items, [{"text": planted}]))
    assert card["answer"] == "template_left" and f"『{planted}』→라" in card["evidence"]


@settings(max_examples=60, deadline=None)
@given(ITEMS, st.sampled_from(PLACEHOLDERS))
def test_a_satellite_placeholder_is_never_a_defect(items, planted):
    frame = [{"node_id": "t", "text": "제목", "box": [0, 0, 1920, 100], "slot_kind": "satellite"}]
    card = judge(component(items, [{"text": planted, "box": [10, 10, 300, 40]}], frame))
    assert card["answer"] == "satellite_only" and card["defect"] is False


@settings(max_examples=60, deadline=None)
@given(ITEMS, st.sampled_from(["A열", "텍스트", "기본 타이틀", "20XX년"]))
def test_texts_only_in_the_data_change_nothing(items, original):
    frame = [{"node_id": "n", "text": original, "slot_kind": "unit_field"}]
    outside = [{"node_id": "o", "template_text": original, "now": None, "element": "chart", "slot_kind": "unbound_core"}]
    assert judge(component(items, (), frame, outside))["answer"] == "complete"
