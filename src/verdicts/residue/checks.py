"""The automatic checks of the residue domain.

Each check recomputes its claim with its own code: the answers' labels and defects are
read from the card file E3 (not from the rules' table), the cited texts are looked up in
the component file as read, and the order of precedence is walked again over the
attributions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verdicts.checks import CheckRegistry
from verdicts.korean import polite_sentences

from .evalcard import card_path, load_card
from .model import Component, VisibleText

__all__ = ["CHECKS", "CheckContext"]


@dataclass
class CheckContext:
    """The components read, the texts step 1 gave for each, and the cards as JSON."""

    components: dict[str, Component]
    visible: dict[str, list[VisibleText]]
    cards: list[dict[str, Any]]


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()


@CHECKS.register("R1", "답의 키와 라벨, 결함 여부가 카드 E3의 정의와 맞는지 확인합니다.")
def answer_matches_card(ctx: CheckContext) -> list[str]:
    """카드마다 답(`answer`)은 카드 E3(그 파일에서 읽은 것)의 키 가운데 하나이고, 라벨(`label`)과
    판정(`verdict`)은 그 키의 라벨이며, 결함 여부(`defect`)는 E3이 그 답을 결함으로 세는지와 같아야 합니다.
    """
    card = load_card(card_path("E3"))
    labels = {o.key: o.label for o in card.answers.options}
    bad = set(card.defect_keys())
    return [c["component_id"] for c in ctx.cards
            if c.get("answer") not in labels or c.get("label") != labels[c["answer"]]
            or c.get("verdict") != labels[c["answer"]] or c.get("defect") is not (c["answer"] in bad)]


@CHECKS.register("R2", "근거가 그림에서 읽은 글과 이 장의 `page_yaml` 글만 인용하는지 대조합니다.")
def evidence_is_read(ctx: CheckContext) -> list[str]:
    """`visible_texts`에서 온 근거는 1단계가 읽은 글을 그대로 인용하고, `page_yaml`에서 온 근거는 컴포넌트
    항목의 값을 인용합니다. 데이터에만 있는 글은 결코 근거가 되지 않습니다(v6의 거짓 양성).
    """
    failed = []
    for c in ctx.cards:
        key = c["component_id"]
        component = ctx.components.get(key)
        if component is None:
            failed.append(key)
            continue
        read = {v.text for v in ctx.visible.get(key, [])}
        values = {str(v) for item in component.page_yaml for v in item.values() if v is not None}
        for e in c.get("evidence_items") or []:
            pool = read if e.get("source") == "visible_texts" else values if e.get("source") == "page_yaml" else set()
            if e.get("value") not in pool or f"『{e.get('value')}』" not in (e.get("quote") or ""):
                failed.append(key)
                break
    return failed


@CHECKS.register("R3", "근거 한 줄이 `『글』→출처, 자리`를 `;`로 잇고 `⇒ 답`으로 끝나는지 확인합니다.")
def evidence_line_form(ctx: CheckContext) -> list[str]:
    """근거 글(`evidence`)은 인용들을 `; `로 잇고 끝에 `⇒`와 답을 붙인 것이고, 근거가 없는 카드라면 `잔존
    후보 없음 ⇒ complete`입니다.
    """
    failed = []
    for c in ctx.cards:
        quotes = [e.get("quote") or "" for e in c.get("evidence_items") or []]
        wanted = ("; ".join(quotes) if quotes else "잔존 후보 없음") + f" ⇒ {c.get('answer')}"
        if c.get("evidence") != wanted or (not quotes and c.get("answer") != "complete"):
            failed.append(c["component_id"])
    return failed


@CHECKS.register("R4", "보이는 글마다 출처가 하나씩 붙었고 답이 판정 차례의 첫 답인지 다시 따라갑니다.")
def order_of_answers(ctx: CheckContext) -> list[str]:
    """보이는 글마다 출처가 하나씩, 읽는 차례대로 붙습니다. 경계 안에 출처 라의 글이 있으면 답은
    `template_left`이고, 출처 가운데 임시 문구도 템플릿 글도 없는 카드는 결코 `satellite_only`가 아닙니다.
    """
    failed = []
    for c in ctx.cards:
        key = c["component_id"]
        attrs = c.get("attributions") or []
        read = [v.text for v in ctx.visible.get(key, [])]
        sources = {a.get("source") for a in attrs}
        inside_template = any(a.get("source") == "라" and a.get("place") != "outside" for a in attrs)
        if [a.get("text") for a in attrs] != read or not sources <= {"가", "나", "다", "라"}:
            failed.append(key)
        elif inside_template != (c.get("answer") == "template_left"):
            failed.append(key)
        elif c.get("answer") == "satellite_only" and "나" not in sources:
            failed.append(key)
    return failed


@CHECKS.register("R5", "요약과 단서가 존댓말 한 문장인지 확인합니다.")
def polite(ctx: CheckContext) -> list[str]:
    """요약과, 있으면 단서도 존댓말 한 문장이어야 합니다."""
    texts = [c.get("summary") for c in ctx.cards]
    hedges = [c.get("hedge") for c in ctx.cards]
    ok = polite_sentences(texts)
    ok_h = polite_sentences([h for h in hedges if h is not None])
    it = iter(ok_h)
    return [c["component_id"] for c, s, h in zip(ctx.cards, ok, hedges) if not s or (h is not None and not next(it))]
