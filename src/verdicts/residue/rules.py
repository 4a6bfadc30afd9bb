"""The answer rules of card E3, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`) over the :class:`~.analysis.Reading` of one
component, and its evidence and sentence (:meth:`write`, through :mod:`.templates`).
Evidence items cite the visible texts (or the page_yaml content of a blank place) with
the seed's clause 「『글』→출처, 자리」 as their ``quote``; the card's ``evidence_text``
joins the clauses with ``;`` and ends with 「⇒ 답」.  Nothing can be missing here — a
component that cannot be read is an input issue and gets no card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from verdicts.engine import Decision, Draft, Rule, RuleBook

from . import templates as T
from .analysis import Attribution, Blank, Reading, analyse
from .model import (
    ANSWERS, BODY_BLANK, CARD_FIELDS, COMPLETE, DEFECTS, OUTSIDE_LEFT, SATELLITE_ONLY, TEMPLATE_LEFT, Component,
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
    """템플릿 글 남음 — template text read inside the bound area.

    What it flags:
        A visible text inside the bound area that is none of user text, a placeholder
        phrase or a fitting structural token (source 라), after a second look-up in
        page_yaml and binding.
    Why it matters:
        The user sees the template's own words (「기본 타이틀」, 「A항목」, an English
        guide) as if they were the page's content.
    Example:
        ``visible_texts: [{text: 기본 타이틀}]`` on a page whose items never say it.
    Instead:
        Bind the node, or clear its template text when nothing of this page belongs there.
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
    """본문 자리 비어 있음 — a body place is blank although this page has its content.

    What it flags:
        page_yaml content that appears nowhere on the picture while a body place
        (``slot_kind`` unit_field or unbound_core) inside the bound area shows empty or
        a placeholder phrase.
    Why it matters:
        The user's own content is lost and the slide shows a hole where it belongs.
    Example:
        ``page_yaml: [{label: 기획, desc: 시장 조사}]`` and the desc place shows
        「설명을 입력해주세요.」.
    Instead:
        Bind the missing content into that place.  Surplus places, label-only items'
        description places, photo hints and other pages' items are never blank.
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
    """경계 밖 잔존 — template residue outside the bound area.

    What it flags:
        On an outside node: its template original where ``now`` is null, template data
        of a chart, table or diagram whose cells were not replaced (values, axes,
        legends), or a placeholder phrase on a place that is not a satellite.
    Why it matters:
        The rest of the component came with the template's sample data (「20XX년」)
        that the user never wrote.
    Example:
        ``outside_nodes: [{template_text: 20XX년, now: null, element: chart, cells_replaced: false}]``
        and 「20XX년」 read off the picture.
    Instead:
        Replace the outside node's data or leave the node out of the component.
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
    """위성 자리만 비어 있음 — placeholders only on satellite or surplus places.

    What it flags:
        No template text, no blank body place and nothing left outside, but a
        placeholder phrase on a satellite place (``slot_kind`` satellite or
        unbound_satellite, or an outside node with ``satellite: true``) or on a surplus
        place that is not blank.
    Why it matters:
        The replacement rules allow it (decision 11), so it is not a defect, but it is
        counted apart from a complete component.
    Example:
        「부제목 입력」 on a node whose ``slot_kind`` is satellite.
    Instead:
        Nothing is required; fill the satellite place when the page has a title for it.
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
    """완성 — no placeholder, template text or template data is visible.

    What it flags:
        Every visible text is user text or a fitting structural token, and no body
        place is blank.
    Why it matters:
        It is the minimum the replacement must reach: the component shows only this
        page's content.
    Example:
        A two-item component whose visible texts are its two labels, their
        descriptions and the markers 「01」, 「02」.
    Instead:
        Nothing to do.
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
BOOK: RuleBook[None, Judged] = RuleBook(RULES, fields=CARD_FIELDS, hedges=_hedges)


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
    data["evidence_text"] = evidence_text(data["evidence"], data["answer"])
    return data
