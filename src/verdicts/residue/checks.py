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
    """Every card's ``answer`` is a key of card E3 (read from its file), ``label`` and
    ``verdict`` are that key's label, and ``defect`` is whether E3 counts it as a
    defect."""
    card = load_card(card_path("E3"))
    labels = {o.key: o.label for o in card.answers.options}
    bad = set(card.defect_keys())
    return [c["component_id"] for c in ctx.cards
            if c.get("answer") not in labels or c.get("label") != labels[c["answer"]]
            or c.get("verdict") != labels[c["answer"]] or c.get("defect") is not (c["answer"] in bad)]


@CHECKS.register("R2", "근거가 그림에서 읽은 글과 이 장의 `page_yaml` 글만 인용하는지 대조합니다.")
def evidence_is_read(ctx: CheckContext) -> list[str]:
    """An evidence item from ``visible_texts`` quotes a text step 1 read, verbatim; one
    from ``page_yaml`` quotes a value of the component's items.  Texts only in the data
    are never evidence (the v6 false positives)."""
    failed = []
    for c in ctx.cards:
        key = c["component_id"]
        component = ctx.components.get(key)
        if component is None:
            failed.append(key)
            continue
        read = {v.text for v in ctx.visible.get(key, [])}
        values = {str(v) for item in component.page_yaml for v in item.values() if v is not None}
        for e in c.get("evidence") or []:
            pool = read if e.get("source") == "visible_texts" else values if e.get("source") == "page_yaml" else set()
            if e.get("value") not in pool or f"『{e.get('value')}』" not in (e.get("quote") or ""):
                failed.append(key)
                break
    return failed


@CHECKS.register("R3", "근거 한 줄이 「『글』→출처, 자리」를 `;`로 잇고 「⇒ 답」으로 끝나는지 확인합니다.")
def evidence_line_form(ctx: CheckContext) -> list[str]:
    """``evidence_text`` is the quotes joined by ``; `` and ``⇒ answer`` at the end, or
    ``잔존 후보 없음 ⇒ complete`` for a card without evidence."""
    failed = []
    for c in ctx.cards:
        quotes = [e.get("quote") or "" for e in c.get("evidence") or []]
        wanted = ("; ".join(quotes) if quotes else "잔존 후보 없음") + f" ⇒ {c.get('answer')}"
        if c.get("evidence_text") != wanted or (not quotes and c.get("answer") != "complete"):
            failed.append(c["component_id"])
    return failed


@CHECKS.register("R4", "보이는 글마다 출처가 하나씩 붙었고 답이 판정 차례의 첫 답인지 다시 따라갑니다.")
def order_of_answers(ctx: CheckContext) -> list[str]:
    """One attribution per visible text, in the reader's order; a 라 text inside the
    bound area makes the answer template_left, and a card without any placeholder or
    template text among its attributions is never satellite_only."""
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
    """The summary, and the hedge when there is one, is one polite Korean sentence."""
    texts = [c.get("summary") for c in ctx.cards]
    hedges = [c.get("hedge") for c in ctx.cards]
    ok = polite_sentences(texts)
    ok_h = polite_sentences([h for h in hedges if h is not None])
    it = iter(ok_h)
    return [c["component_id"] for c, s, h in zip(ctx.cards, ok, hedges) if not s or (h is not None and not next(it))]
