"""The verdict rules of the extraction domain, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentences
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  A rule that needs a cell the input leaves unreadable
(a broken run event, a page number that is not one, a pattern that does not compile, a
page whose text cannot be used) answers :class:`~verdicts.engine.Missing`: the verdict
stops there (the book's policy is ``stop``) and the sentence names what was missing.
Each rule's docstring is its documentation — *What it flags / Why it matters /
Example / Instead*.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from verdicts.engine import Decision, Draft, Missing, Rule, RuleBook

from . import templates as T
from .analysis import (
    comparable, first_difference, labelled_line, line_with, pattern_matches, phrase_page, same_value, source_value_of,
    value_page,
)
from .model import (
    CARD_FIELDS, DIFFERS, DIGIT_TYPES, EMPTY, FORMAT, MATCHES, NOT_IN_SOURCE, Batch, Cell, Page,
)

__all__ = ["CellFacts", "RULES", "BOOK", "build_card", "build_cards"]

_SEPARATOR = " : "


@dataclass
class CellFacts:
    """A cell with what the rules read from it, computed once."""

    batch: Batch
    cell: Cell

    @property
    def row(self):
        return self.cell.row

    @property
    def rule(self):
        return self.cell.rule

    @property
    def label(self) -> str:
        return self.cell.rule.label

    @property
    def value(self) -> str | None:
        return None if self.row is None or self.row.broken else self.row.value

    @property
    def phrase(self) -> str | None:
        return None if self.row is None else self.row.evidence_text

    @property
    def page(self) -> Page | None:
        """The cited page, when the run has it."""
        if self.row is None or self.row.page is None:
            return None
        return self.cell.pages.get(self.row.page)

    @cached_property
    def found(self) -> bool | None:
        """Whether the phrase is on its cited page; ``None`` when that cannot be told
        (no phrase or page, or the page cannot be read)."""
        page = self.page
        if self.phrase is None or page is None or page.text is None:
            return None
        return self.phrase in page.text

    @cached_property
    def source_value(self) -> str | None:
        """The value the phrase states, filled whenever the phrase is on its page."""
        return source_value_of(self.phrase, self.rule.value_type) if self.found else None

    @cached_property
    def elsewhere(self) -> Page | None:
        """Another page of the run holding the phrase verbatim, when its page does not."""
        if self.phrase is None or self.found:
            return None
        return phrase_page(self.cell, self.phrase, skip=self.row.page if self.row else None)

    @property
    def last_page(self) -> int | None:
        return max(self.cell.pages) if self.cell.pages else None


class _Cite:
    """Evidence for one card: each item names its table and line (onto ``draft.evidence``)."""

    def __init__(self, f: CellFacts, draft: Draft):
        self.f = f
        self.items = draft.evidence

    def _add(self, source: str, column: str, value: Any, line: int | None) -> None:
        item: dict[str, Any] = {"source": source, "field": column, "value": value}
        if line is not None:
            item["line"] = line
        if item not in self.items:
            self.items.append(item)

    def run(self) -> None:
        f = self.f
        if f.row is not None:
            self._add("worker_outputs", "run_id", f.cell.run_id, f.row.line)
        elif f.cell.pages:
            first = f.cell.pages[min(f.cell.pages)]
            self._add("source_pages", "run_id", f.cell.run_id, first.line)

    def worker(self, column: str) -> None:
        row = self.f.row
        if row is None or row.broken:
            return
        value = {"value": row.value, "evidence_text": row.evidence_text,
                 "evidence_page": row.page if row.page is not None else row.page_text}[column]
        self._add("worker_outputs", column, value, row.line)

    def rule(self, column: str, value: Any) -> None:
        self._add("field_rules", column, value, self.f.rule.line)

    def page(self, page: Page | None, column: str = "doc_name") -> None:
        if page is not None and page.doc_name is not None:
            self._add("source_pages", column, page.doc_name, page.line)

    def count(self, column: str, value: int) -> None:
        self.items.append({"source": "worker_outputs", "field": column, "agg": "count", "value": value})

    def quoted(self) -> None:
        """What every verdict past the first rule cites: the value, page and phrase."""
        self.worker("value")
        self.worker("evidence_page")
        self.worker("evidence_text")


class RequiredEmpty(Rule[Batch, CellFacts]):
    """필수 칸이 빔 — a required field the worker did not return, or returned empty.

    What it flags:
        A field whose ``field_rules.required`` is true and for which the run has no row
        in ``worker_outputs`` (the card's ``ai_value`` is then null), or whose ``value``
        is the empty string.  An optional field with no row gets no card at all.
    Why it matters:
        A required field left empty makes the whole extracted record unusable; the
        operator has to fill it from the source.
    Example:
        ``company_name`` is required; run ``R-20940`` sent it as ``""``.
    Instead:
        Read the field from the source document and correct the cell; the hedge names
        the first line of the run's pages whose key begins like the field's label
        (``대표자 : …`` for ``대표자명``), when there is one.
    """

    verdict, code = EMPTY, "required-empty"
    templates = (T.empty_no_row, T.empty_value, T.required_unknown, T.event_unreadable, T.outputs_unknown, T.hedge_no_row,
                 T.hedge_labelled_line)

    def test(self, batch, f):
        row, required = f.row, f.rule.required
        if row is None:
            if not batch.outputs_known:
                return Missing(("worker_outputs.value",))
            return True if required else Missing(("field_rules.required",))
        if row.broken:
            return Missing(("worker_outputs.value",))
        if row.value != "":
            return False
        return Missing(("field_rules.required",)) if required is None else required

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        row = f.row
        if row is not None and not row.broken:
            ev.quoted()
        if f.rule.required is not None:
            ev.rule("required", f.rule.required)
        if row is None and batch.outputs_known:
            ev.count("field_name", 0)
        missing = draft.missing
        if "worker_outputs.value" in missing:
            draft.summary = T.event_unreadable(label=f.label) if row is not None else T.outputs_unknown(label=f.label)
        elif missing:
            draft.summary = T.required_unknown(label=f.label)
        elif row is None:
            draft.summary = T.empty_no_row(label=f.label)
            found = labelled_line(f.cell, f.label)
            if found is not None:
                draft.hedge(T.hedge_labelled_line(page=found[0].page, doc=found[0].name, line=found[1]))
            else:
                draft.hedge(T.hedge_no_row(pages=len(f.cell.pages)))
        else:
            page = f.page
            draft.summary = T.empty_value(label=f.label, source=f.source_value, page=page.page if page else None,
                                          doc=page.name if page else None)
            found = labelled_line(f.cell, f.label) if f.source_value is None else None
            if found is not None:
                draft.hedge(T.hedge_labelled_line(page=found[0].page, doc=found[0].name, line=found[1]))


class FormatBroken(Rule[Batch, CellFacts]):
    """형식이 규칙과 다름 — the value does not match the field's pattern entirely.

    What it flags:
        A field whose ``field_rules.pattern`` is set and whose ``value`` the regular
        expression does not match from its first character to its last.
    Why it matters:
        A value in the wrong shape (a rough amount, a number with words) cannot be
        loaded as it is, whatever the source says.
    Example:
        ``construction_capacity_krw`` must match ``^\\d+$``; the worker wrote ``약 120억``.
    Instead:
        Correct the value to the pattern's shape, using the source value shown beside it.
    """

    verdict, code = FORMAT, "format-broken"
    templates = (T.format_broken, T.pattern_unknown)

    def test(self, batch, f):
        if f.rule.pattern_broken:
            return Missing(("field_rules.pattern",))
        if f.rule.pattern is None:
            return False
        return not pattern_matches(f.rule.pattern, f.value)

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        ev.worker("value")
        if f.rule.pattern_text is not None:
            ev.rule("pattern", f.rule.pattern_text)
        ev.worker("evidence_page")
        ev.worker("evidence_text")
        if draft.missing:
            draft.summary = T.pattern_unknown(label=f.label, value=f.value)
            return
        page = f.page
        draft.summary = T.format_broken(label=f.label, value=f.value, pattern=f.rule.pattern_text, source=f.source_value,
                                        page=page.page if page else None, doc=page.name if page else None)


class NotInSource(Rule[Batch, CellFacts]):
    """근거 문구가 원문에 없음 — the quoted evidence is not on the page it cites.

    What it flags:
        ``evidence_text`` empty, or not contained verbatim in the text of the same run's
        page ``evidence_page`` (an empty or absent page included).  Only the cited page
        is searched; when another page of the run holds the phrase, the hedge names it.
    Why it matters:
        A value whose quotation cannot be found on its page cannot be trusted, even if it
        looks right: the worker may have read it from elsewhere or made it up.
    Example:
        ``credit_grade`` ``BBB+`` quotes ``신용등급 : BBB+`` from page 4, which says
        ``신용등급 : BBB0``.
    Instead:
        Look at the page (or the one the hedge names) and approve, correct or reject.
    """

    verdict, code = NOT_IN_SOURCE, "not-in-source"
    templates = (T.no_evidence, T.no_phrase, T.no_page, T.page_absent, T.not_on_page, T.page_unreadable,
                 T.page_text_unusable, T.no_pages, T.hedge_cited_line, T.hedge_value_seen)

    def test(self, batch, f):
        row = f.row
        if not row.evidence_text:
            return True
        if row.page_unreadable:
            return Missing(("worker_outputs.evidence_page",))
        if row.page is None:
            return True
        if not batch.pages_known or not f.cell.pages:
            return Missing(("source_pages.text",))
        page = f.page
        if page is None:
            return True
        if page.text is None:
            return Missing(("source_pages.text",))
        return not f.found

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        ev.quoted()
        row, page, label, value = f.row, f.page, f.label, f.value
        ev.page(page)
        missing = draft.missing
        if "worker_outputs.evidence_page" in missing:
            draft.summary = T.page_unreadable(label=label, page_text=row.page_text)
        elif missing and page is None:
            draft.summary = T.no_pages(label=label)
        elif missing:
            draft.summary = T.page_text_unusable(label=label, page=page.page, doc=page.name)
        elif not row.evidence_text and row.page is None:
            draft.summary = T.no_evidence(label=label, value=value)
        elif not row.evidence_text:
            draft.summary = T.no_phrase(label=label, value=value, page=row.page)
        elif row.page is None:
            draft.summary = T.no_page(label=label, phrase=row.evidence_text)
        elif page is None:
            draft.summary = T.page_absent(label=label, phrase=row.evidence_text, page=row.page, last=f.last_page)
        else:
            draft.summary = T.not_on_page(label=label, phrase=row.evidence_text, page=page.page, doc=page.name)
            key = row.evidence_text.split(_SEPARATOR, 1)[0].strip() if _SEPARATOR in row.evidence_text else None
            line = line_with(page, key) if key else None
            if line is not None and f.elsewhere is None:
                draft.hedge(T.hedge_cited_line(page=page.page, line=line))
        if not row.evidence_text and value:
            seen = value_page(f.cell, value)
            if seen is not None:
                ev.page(seen)
                draft.hedge(T.hedge_value_seen(value=value, page=seen.page, doc=seen.name))


class DiffersFromSource(Rule[Batch, CellFacts]):
    """원문 값과 다름 — the value differs from the one its evidence phrase states.

    What it flags:
        The source value taken from the phrase (the part after `` : ``, else its last
        word; for ``amount_krw`` without a trailing ``원``) differs from ``value``:
        compared on digits only for ``biz_no``, ``amount_krw``, ``phone`` and ``date``,
        after NFKC normalisation for ``text`` and ``grade`` (so ``㈜`` equals ``(주)``).
        A phrase from which no value can be taken differs too.
    Why it matters:
        The worker quoted the right line but copied its value wrongly (swapped digits, a
        dropped character): the quotation proves the value is wrong.
    Example:
        ``biz_reg_no`` ``123-45-67819`` against ``등록번호 : 123-45-67891``.
    Instead:
        Correct the value to the source value shown on the card.
    """

    verdict, code = DIFFERS, "differs-from-source"
    templates = (T.differs, T.nothing_to_compare, T.type_unknown)

    def test(self, batch, f):
        if f.source_value is None:
            return True
        if f.rule.value_type is None:
            return Missing(("field_rules.value_type",))
        return not same_value(f.value, f.source_value, f.rule.value_type)

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        ev.quoted()
        page, label, value, source = f.page, f.label, f.value, f.source_value
        if source is None:
            draft.summary = T.nothing_to_compare(label=label, value=value, phrase=f.phrase, page=page.page, doc=page.name)
        elif draft.missing:
            draft.summary = T.type_unknown(label=label, value=value, source=source)
        else:
            kind = f.rule.value_type
            digits = kind in DIGIT_TYPES
            position = first_difference(comparable(value, kind), comparable(source, kind))
            draft.summary = T.differs(label=label, value=value, source=source, page=page.page, doc=page.name,
                                      digits=digits, position=position)


class MatchesSource(Rule[Batch, CellFacts]):
    """원문과 맞음 — no rule above fired: the value is the one its quotation states.

    What it flags:
        Nothing wrong: the value is present and in shape, its phrase is on its page, and
        the phrase states the same value (by the field's comparison).
    Why it matters:
        The operator can approve it after a glance at the highlighted phrase.
    Example:
        ``ceo_name`` ``홍길동`` quoting ``대표이사 홍길동`` from page 1.
    Instead:
        Nothing to correct.
    """

    verdict, code = MATCHES, "matches-source"
    templates = (T.matches,)

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        ev.quoted()
        page, value, source = f.page, f.value, f.source_value
        kind = f.rule.value_type
        how = "same" if value == source else "digits" if kind in DIGIT_TYPES else "nfkc"
        draft.summary = T.matches(label=f.label, value=value, source=source, phrase=f.phrase, page=page.page,
                                  doc=page.name, how=how)


RULES: tuple[Rule, ...] = (RequiredEmpty(), FormatBroken(), NotInSource(), DiffersFromSource(), MatchesSource())


def _stopped(batch: Batch, f: CellFacts, draft: Draft) -> None:
    """Which values stopped the verdict: the cell is not called a match."""
    if draft.missing:
        draft.hedge(T.hedge_stopped(missing=draft.missing))


def _hedges(batch: Batch, f: CellFacts, draft: Draft) -> None:
    """The hedge of any verdict: the phrase is not on its page but on another one."""
    other = f.elsewhere
    if other is not None and f.row is not None and not f.row.broken:
        draft.evidence.append({"source": "source_pages", "field": "page", "value": other.page, "line": other.line})
        draft.hedge(T.hedge_other_page(page=other.page, doc=other.name))


BOOK: RuleBook[Batch, CellFacts] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="stop", lead=_stopped, hedges=_hedges)


def build_card(batch: Batch, cell: Cell) -> dict[str, Any]:
    """The card of one cell (the schema-shaped dict)."""
    f = CellFacts(batch, cell)

    def values(decision: Decision) -> dict[str, Any]:
        return {"item_key": cell.key, "run_id": cell.run_id, "field_name": cell.rule.field_name,
                "ai_value": f.value if cell.row is not None and not cell.row.broken else None,
                "source_value": f.source_value}

    return BOOK.card(batch, f, values)


def build_cards(batch: Batch) -> list[dict[str, Any]]:
    """One card per cell, run by run in their order, fields in ``field_rules`` order."""
    return [build_card(batch, cell) for cell in batch.cells()]
