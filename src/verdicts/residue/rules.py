"""The answer rules of card E3, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`) over the :class:`~.analysis.Reading` of one
component, and its evidence and sentence (:meth:`write`, through :mod:`.templates`).
Evidence items cite the visible texts (or the page_yaml content of a blank place) with
the seed's clause 「『글』→출처, 자리」 as their ``quote`` (the card's ``evidence_items``);
the card's ``evidence``, in the seed's form, joins the clauses with ``;`` and ends with
「⇒ 답」.  Nothing can be missing here — a
component that cannot be read is an input issue and gets no card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verdicts.engine import Decision, Draft, Rule, RuleBook

from . import templates as T
from .analysis import Attribution, Blank, Reading, analyse
from .model import (
    ANSWERS, BODY_BLANK, CARD_FIELDS, COMPLETE, OUTSIDE_LEFT, SATELLITE_ONLY, TEMPLATE_LEFT, Component,
    VisibleText,
)

__all__ = ["Judged", "RULES", "BOOK", "build_card", "clause", "blank_clause"]


@dataclass
class Judged:
    """One component, what was read off its picture, and steps 2 and 3."""

    component: Component
    visible: list[VisibleText]
    reading: Reading


def clause(a: Attribution, extra: str | None = None) -> str:
    """「『글』→출처, 자리」 for one attributed text (the node in brackets when known).

    >>> from .analysis import Attribution
    >>> clause(Attribution("기본 타이틀", "라", "n4", "unit_field", "body"))
    '『기본 타이틀』→라, unit_field(n4)'
    """
    where = f"{a.slot_kind}({a.node})" if a.node else a.slot_kind
    return f"『{a.text}』→{a.source}, {where}" + (f" {extra}" if extra else "")


def blank_clause(b: Blank) -> str:
    """The clause of a blank place: what it shows, its place, and the page_yaml text
    that belongs there."""
    shown = f"『{b.shows}』→나" if b.shows is not None else "『(빈 칸)』→빈 칸"
    return f"{shown}, {b.slot_kind}({b.node}) ← page_yaml 『{b.page_text}』"


def _cite(draft: Draft, a: Attribution, extra: str | None = None) -> None:
    draft.evidence.append({"source": "visible_texts", "field": "text", "value": a.text, "quote": clause(a, extra)})


class TemplateLeft(Rule[None, Judged]):
    """템플릿 글 남음 — 경계 안에서 템플릿 글이 읽힙니다.

    잡는 것:
        `page_yaml`과 `binding`에서 한 번 더 찾아본 뒤에도 사용자 글도, 임시 문구도, 맞는 구조 토큰도 아닌(출처
        라) 경계 안의 보이는 글을 잡습니다.
    왜 문제인가:
        사용자는 템플릿 자체의 말(“기본 타이틀”, “A항목”, 영어 안내문)을 그 장의 내용인 것처럼 보게 됩니다.
    예시:
        항목 어디에도 그 말이 없는 장에 `visible_texts: [{text: 기본 타이틀}]`이 있습니다.
    고치는 법:
        노드를 바인딩하거나, 이 장의 어떤 내용도 그 자리에 들어가지 않는다면 템플릿 글을 지우세요.
    """

    verdict, code = ANSWERS[TEMPLATE_LEFT], TEMPLATE_LEFT
    stamp = {"answer": TEMPLATE_LEFT, "label": ANSWERS[TEMPLATE_LEFT], "defect": True}
    templates = ("template_left",)

    def test(self, ctx: None, item: Judged) -> bool:
        return bool(item.reading.template_inside)

    def write(self, ctx: None, item: Judged, draft: Draft) -> None:
        found = item.reading.template_inside
        for a in found:
            _cite(draft, a)
        draft.summary = T.template_left([a.text for a in found])


class BodyBlank(Rule[None, Judged]):
    """본문 자리 비어 있음 — 이 장에 내용이 있는데 본문 자리가 비어 있습니다.

    잡는 것:
        `page_yaml`의 내용이 그림 어디에도 없는데, 경계 안의 본문 자리(자리 종류 `slot_kind`가 `unit_field`나
        `unbound_core`)가 비었거나 임시 문구를 보이는 경우를 잡습니다.
    왜 문제인가:
        사용자가 쓴 내용이 사라지고, 그 내용이 있어야 할 자리에 구멍이 보입니다.
    예시:
        `page_yaml: [{label: 기획, desc: 시장 조사}]`인데 설명 자리에 “설명을 입력해주세요.”가 보입니다.
    고치는 법:
        빠진 내용을 그 자리에 바인딩하세요. 남는 자리, 라벨만 있는 항목의 설명 자리, 사진 안내, 다른 장의 항목은
        빈 자리로 보지 않습니다.
    """

    verdict, code = ANSWERS[BODY_BLANK], BODY_BLANK
    stamp = {"answer": BODY_BLANK, "label": ANSWERS[BODY_BLANK], "defect": True}
    templates = ("body_blank",)

    def test(self, ctx: None, item: Judged) -> bool:
        return bool(item.reading.blanks)

    def write(self, ctx: None, item: Judged, draft: Draft) -> None:
        blanks = item.reading.blanks
        for b in blanks:
            draft.evidence.append({"source": "page_yaml", "field": b.field, "value": b.page_text, "quote": blank_clause(b)})
        draft.summary = T.body_blank(blanks[0].page_text, blanks[0].shows, len(blanks))


class OutsideLeft(Rule[None, Judged]):
    """경계 밖 잔존 — 경계 밖에 템플릿의 흔적이 남았습니다.

    잡는 것:
        경계 밖 노드에서 `now` 값이 `null`인 노드의 템플릿 원문, 칸이 바뀌지 않은 차트·표·다이어그램의 템플릿
        데이터(값, 축, 범례), 위성 자리가 아닌 자리의 임시 문구를 잡습니다.
    왜 문제인가:
        컴포넌트의 나머지 부분이 사용자가 쓴 적 없는 템플릿의 견본 데이터(“20XX년”)와 함께 들어왔습니다.
    예시:
        경계 밖 노드가 `outside_nodes: [{template_text: 20XX년, now: null, element: chart, cells_replaced:
        false}]`처럼 적혀 있고, 그림에서 “20XX년”을 읽었습니다.
    고치는 법:
        경계 밖 노드의 데이터를 바꾸거나, 그 노드를 컴포넌트에서 빼세요.
    """

    verdict, code = ANSWERS[OUTSIDE_LEFT], OUTSIDE_LEFT
    stamp = {"answer": OUTSIDE_LEFT, "label": ANSWERS[OUTSIDE_LEFT], "defect": True}
    templates = ("outside_left",)

    def test(self, ctx: None, item: Judged) -> bool:
        return bool(item.reading.outside)

    def write(self, ctx: None, item: Judged, draft: Draft) -> None:
        left = item.reading.outside
        for r in left:
            _cite(draft, r.attribution, r.kind)
        draft.summary = T.outside_left(left[0].attribution.text, left[0].kind, len(left))


class SatelliteOnly(Rule[None, Judged]):
    """위성 자리만 비어 있음 — 임시 문구가 위성 자리나 남는 자리에만 있습니다.

    잡는 것:
        템플릿 글도, 빈 본문 자리도, 경계 밖 잔존도 없지만, 위성 자리(자리 종류 `slot_kind`가 `satellite`나
        `unbound_satellite`인 자리, 또는 `satellite: true`인 경계 밖 노드)나 빈 자리가 아닌 남는 자리에 임시
        문구가 있는 경우를 잡습니다.
    왜 문제인가:
        대치 규칙이 허용하므로 결함은 아니지만, 완성된 컴포넌트와는 따로 셉니다.
    예시:
        자리 종류(`slot_kind`)가 `satellite`인 노드에 “부제목 입력”이 남아 있습니다.
    고치는 법:
        꼭 고쳐야 할 것은 없습니다. 장에 그 자리에 맞는 제목이 있으면 위성 자리를 채우세요.
    """

    verdict, code = ANSWERS[SATELLITE_ONLY], SATELLITE_ONLY
    stamp = {"answer": SATELLITE_ONLY, "label": ANSWERS[SATELLITE_ONLY], "defect": False}
    templates = ("satellite_only",)

    def test(self, ctx: None, item: Judged) -> bool:
        return bool(item.reading.other_placeholders)

    def write(self, ctx: None, item: Judged, draft: Draft) -> None:
        found = item.reading.other_placeholders
        for a in found:
            _cite(draft, a)
        draft.summary = T.satellite_only(found[0].text, len(found))


class Complete(Rule[None, Judged]):
    """완성 — 임시 문구도, 템플릿 글도, 템플릿 데이터도 보이지 않습니다.

    잡는 것:
        잘못된 것은 없습니다. 보이는 글은 모두 사용자 글이거나 맞는 구조 토큰이고, 빈 본문 자리도 없습니다.
    왜 문제인가:
        문제가 아닙니다. 대치가 적어도 이르러야 할 상태로, 컴포넌트에 이 장의 내용만 보입니다.
    예시:
        항목 둘짜리 컴포넌트에서 보이는 글이 두 라벨과 그 설명, 표지 “01”, “02”뿐입니다.
    고치는 법:
        할 일이 없습니다.
    """

    verdict, code = ANSWERS[COMPLETE], COMPLETE
    stamp = {"answer": COMPLETE, "label": ANSWERS[COMPLETE], "defect": False}
    templates = ("complete",)

    def write(self, ctx: None, item: Judged, draft: Draft) -> None:
        attrs = item.reading.attributions
        draft.summary = T.complete(len(attrs), sum(a.source not in ("가", "다") for a in attrs))


def _hedges(ctx: None, item: Judged, draft: Draft) -> None:
    reading = item.reading
    if reading.unseen and draft.decision.code != BODY_BLANK:
        draft.hedge(T.hedge_unseen(reading.unseen[0], len(reading.unseen)))
    if reading.replaced_data:
        draft.hedge(T.hedge_replaced_data(reading.replaced_data[0].text))
    if reading.unboxed:
        draft.hedge(T.hedge_unboxed(reading.unboxed))


RULES: tuple[Rule, ...] = (TemplateLeft(), BodyBlank(), OutsideLeft(), SatelliteOnly(), Complete())
BOOK: RuleBook[None, Judged] = RuleBook(RULES, fields=CARD_FIELDS, hedges=_hedges, evidence_field="evidence_items")


def evidence_text(card_evidence: list[dict[str, Any]], answer: str) -> str:
    """The seed's one-line evidence: the clauses joined by ``;``, then 「⇒ 답」."""
    if not card_evidence:
        return f"잔존 후보 없음 ⇒ {answer}"
    return "; ".join(e["quote"] for e in card_evidence) + f" ⇒ {answer}"


def build_card(component: Component, visible: list[VisibleText]) -> dict[str, Any]:
    """The card of one component whose visible texts were read."""
    judged = Judged(component, visible, analyse(component, visible))
    decision: Decision = BOOK.decide(None, judged)
    data = BOOK.write(None, judged, decision, {
        "component_id": component.component_id,
        "attributions": [a.to_json() for a in judged.reading.attributions],
    })
    data["evidence"] = evidence_text(data["evidence_items"], data["answer"])
    return data
