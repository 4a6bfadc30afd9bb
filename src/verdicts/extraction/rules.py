"""The verdict rules of the extraction domain, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentences
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  A rule that needs a cell the input leaves unreadable
(a broken run event, a page number that is not one, a pattern that does not compile, a
page whose text cannot be used) answers :class:`~verdicts.engine.Missing`: the card is
withheld there (the book's policy is ``hold``; the seed puts such a cell in the reload
state instead of giving it a verdict), its reason naming the value and its place.
Each rule's docstring is its documentation — *잡는 것 / 왜 문제인가 / 예시 / 고치는 법*.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from verdicts.engine import Decision, Draft, HeldCell, Missing, Rule, RuleBook, Withhold, withhold_cells
from verdicts.korean import code

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


#: a label written as code (Latin letters, digits, ``_ - .`` only)
_CODE_LABEL = re.compile(r"[A-Za-z0-9_.\-]+")


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
        """The field's label as the sentences say it: a label that is code (the field's
        name when the rule gives no label, ``biz_reg_no``) is quoted."""
        label = self.cell.rule.label
        return f"`{label}`" if _CODE_LABEL.fullmatch(label) else label

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
        # found: the phrase is there (so not None)
        return source_value_of(self.phrase, self.rule.value_type) if self.found and self.phrase is not None else None

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
    """필수 칸이 빔 — 작업자가 필수 칸을 돌려주지 않았거나 빈 값으로 돌려주었습니다.

    잡는 것:
        필수 여부(`field_rules.required`)가 참인 칸인데, 실행에 그 칸의 `worker_outputs` 줄이 없거나(그러면
        카드의 `ai_value`는 `null`입니다) 값(`value`)이 빈 문자열인 경우를 잡습니다. 필수가 아닌 칸은 줄이
        없어도 카드를 만들지 않습니다.
    왜 문제인가:
        필수 칸이 비면 뽑아낸 기록 전체를 쓸 수 없어, 운영자가 원문을 보고 채워야 합니다.
    예시:
        칸 `company_name`은 필수인데 실행 `R-20940`은 이 칸을 `""`로 보냈습니다.
    고치는 법:
        원문 문서에서 그 칸을 읽어 고치세요. 실행의 쪽 가운데 키가 칸의 라벨처럼 시작하는 줄이 있으면 단서가
        그 첫 줄을 보여 줍니다(`대표자명`에는 `대표자 : …`).
    """

    verdict, code = EMPTY, "required-empty"
    templates = (T.empty_no_row, T.empty_value, T.hedge_no_row, T.hedge_labelled_line)

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
        if row is None:
            draft.summary = T.empty_no_row(label=f.label)
            found = labelled_line(f.cell, f.rule.label)
            if found is not None:
                draft.hedge(T.hedge_labelled_line(page=found[0].page, doc=found[0].name, line=found[1]))
            else:
                draft.hedge(T.hedge_no_row(pages=len(f.cell.pages)))
        else:
            page = f.page
            draft.summary = T.empty_value(label=f.label, source=f.source_value, page=page.page if page else None,
                                          doc=page.name if page else None)
            found = labelled_line(f.cell, f.rule.label) if f.source_value is None else None
            if found is not None:
                draft.hedge(T.hedge_labelled_line(page=found[0].page, doc=found[0].name, line=found[1]))


class FormatBroken(Rule[Batch, CellFacts]):
    """형식이 규칙과 다름 — 값이 칸의 패턴에 처음부터 끝까지 맞지 않습니다.

    잡는 것:
        패턴(`field_rules.pattern`)이 정해진 칸에서, 정규식이 값(`value`)의 첫 글자부터 마지막 글자까지 맞지
        않는 경우를 잡습니다.
    왜 문제인가:
        형식이 틀린 값(어림잡은 금액, 글자가 섞인 숫자)은 원문이 무엇이라 하든 그대로 적재할 수 없습니다.
    예시:
        칸 `construction_capacity_krw`는 `^\\d+$`에 맞아야 하는데 작업자는 `약 120억`이라고 적었습니다.
    고치는 법:
        옆에 보이는 원문 값을 보고 값을 패턴의 형식에 맞게 고치세요.
    """

    verdict, code = FORMAT, "format-broken"
    templates = (T.format_broken,)

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
        page = f.page
        draft.summary = T.format_broken(label=f.label, value=f.value, pattern=f.rule.pattern_text, source=f.source_value,
                                        page=page.page if page else None, doc=page.name if page else None)


class NotInSource(Rule[Batch, CellFacts]):
    """근거 문구가 원문에 없음 — 인용한 근거 문구가 가리킨 쪽에 없습니다.

    잡는 것:
        근거 문구(`evidence_text`)가 비었거나, 같은 실행의 `evidence_page` 쪽 글에 글자 그대로 들어 있지
        않은 경우를 잡습니다(실행에 없는 쪽을 가리킨 경우도 포함하며, 이는 작업자 출력에 대한 입력 문제로도
        보고합니다). 가리킨 쪽만 찾아보며, 실행의 다른 쪽에 그 문구가 있으면 단서가 그 쪽을 알려
        줍니다. 가리킨 쪽의 본문이 비었거나, 읽지 못한 `source_pages` 줄이 그 쪽일 수 있으면 쪽을
        불러오지 못한 것이므로 판정은 여기서 멈추고 검토 대기열에서는 다시 불러오기 상태가 됩니다.
    왜 문제인가:
        인용을 그 쪽에서 찾을 수 없는 값은 맞아 보여도 믿을 수 없습니다. 작업자가 다른 곳에서 읽었거나
        지어냈을 수 있습니다.
    예시:
        칸 `credit_grade`의 값 `BBB+`가 4쪽의 `신용등급 : BBB+`를 인용하는데, 그 쪽에는 `신용등급 : BBB0`이라고
        적혀 있습니다.
    고치는 법:
        그 쪽(또는 단서가 알려 준 쪽)을 보고 승인하거나 고치거나 반려하세요.
    """

    verdict, code = NOT_IN_SOURCE, "not-in-source"
    templates = (T.no_evidence, T.no_phrase, T.no_page, T.page_absent, T.not_on_page, T.hedge_cited_line, T.hedge_value_seen)

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
            # absent from the run: the worker's finding, unless an unread page row may be it
            return Missing(("source_pages.text",)) if batch.unread_page(f.cell.run_id, row.page) else True
        if page.text is None:
            return Missing(("source_pages.text",))
        return not f.found

    def write(self, batch, f, draft):
        ev = _Cite(f, draft)
        ev.run()
        ev.quoted()
        row, page, label, value = f.row, f.page, f.label, f.value
        ev.page(page)
        if not row.evidence_text and row.page is None:
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
    """원문 값과 다름 — 값이 근거 문구가 말하는 값과 다릅니다.

    잡는 것:
        문구에서 뽑은 원문 값(` : ` 뒤의 부분, 없으면 마지막 어절이며, `amount_krw` 형식은 끝의 `원`을 뗀 것)이
        값(`value`)과 다른 경우를 잡습니다. `biz_no`, `amount_krw`, `phone`, `date` 형식은 숫자만 견주고,
        `text`와 `grade` 형식은 NFKC 정규화 뒤에 견줍니다(그래서 `㈜`와 `(주)`는 같습니다). 값을 뽑을 수 없는
        문구도 다른 것으로 봅니다.
    왜 문제인가:
        작업자가 맞는 줄을 인용했지만 값을 잘못 옮겼습니다(숫자가 뒤바뀌거나 글자 하나가 빠지는 식으로). 인용이
        곧 값이 틀렸다는 증거입니다.
    예시:
        칸 `biz_reg_no`의 값은 `123-45-67819`인데 원문에는 `등록번호 : 123-45-67891`이라고 적혀 있습니다.
    고치는 법:
        카드에 보이는 원문 값으로 값을 고치세요.
    """

    verdict, code = DIFFERS, "differs-from-source"
    templates = (T.differs, T.nothing_to_compare)

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
        else:
            kind = f.rule.value_type
            digits = kind in DIGIT_TYPES
            position = first_difference(comparable(value, kind), comparable(source, kind))
            draft.summary = T.differs(label=label, value=value, source=source, page=page.page, doc=page.name,
                                      digits=digits, position=position)


class MatchesSource(Rule[Batch, CellFacts]):
    """원문과 맞음 — 위의 어느 규칙도 걸리지 않았고, 값이 인용 문구가 말하는 값과 같습니다.

    잡는 것:
        잘못된 것은 없습니다. 값이 있고 형식에 맞으며, 문구가 그 쪽에 있고, 문구가 말하는 값이 (칸의 비교
        방식으로) 같습니다.
    왜 문제인가:
        문제가 아닙니다. 운영자는 강조된 문구를 한 번 훑어보고 승인할 수 있습니다.
    예시:
        칸 `ceo_name`의 값 `홍길동`이 1쪽의 `대표이사 홍길동`을 인용합니다.
    고치는 법:
        고칠 것이 없습니다.
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


#: what a rule could not tell when a value it needs cannot be read
_QUESTION = {EMPTY: "필수 칸이 비었는지", FORMAT: "값이 형식에 맞는지", NOT_IN_SOURCE: "근거 문구가 원문에 있는지",
             DIFFERS: "값이 원문과 같은지"}


def _raw(batch: Batch, table: str, line: int, column: str) -> str | None:
    """The text of a cell as read (``None``: empty, or no such row)."""
    t = batch.tables.get(table)
    for row in t.rows if t is not None else ():
        if row.line == line:
            return row.raw.get(column)
    return None


def _held(batch: Batch, f: CellFacts, value: str) -> HeldCell:
    """The place of one value (``table.column``) a rule needed and could not use."""
    table, column = value.split(".")
    t = batch.tables.get(table)
    file = t.file if t is not None else None
    row = f.row
    if value == "worker_outputs.value":
        if row is None:
            return HeldCell(table, None, column, None, file=file,
                            how=f"{code(table)} 표에서 실행 {code(f.cell.run_id)}의 줄을 찾을 수 없")
        return HeldCell(table, row.line, column, None, file=file, how=f"{code(table)} {row.line}번째 줄의 이벤트를 읽을 수 없")
    if value == "worker_outputs.evidence_page":
        assert row is not None  # the evidence rule runs on a row only
        return HeldCell(table, row.line, column, row.page_text, file=file)
    if value == "source_pages.text":
        page = f.page
        if page is None:
            if t is None or not batch.pages_known:
                gone = next((c for c in ("run_id", "page", "text") if t is None or not t.has(c)), column)
                return HeldCell(table, None, gone, None, file=file, present=False)
            unread = batch.unread_page(f.cell.run_id, row.page) if row is not None and row.page is not None else []
            if unread:  # the cited page may be a row that could not be read: it could not be loaded
                where = ", ".join(str(n) for n in unread[:3]) + ("번째 줄 등" if len(unread) > 3 else "번째 줄")
                return HeldCell(table, unread[0], "page", None, file=file,
                                how=f"{code(table)} 표 {where}을 읽지 못해 근거로 든 {row.page}쪽을 불러올 수 없")
            return HeldCell(table, None, column, None, file=file, how=f"{code(table)} 표에 실행 {code(f.cell.run_id)}의 쪽이 없")
        return HeldCell(table, page.line, column, None, file=file,
                        how=f"{code(table)} 표 {page.line}번째 줄의 {code(column)} 열의 글을 쓸 수 없")
    return HeldCell(table, f.rule.line, column, _raw(batch, table, f.rule.line, column), file=file,
                    present=t is not None and t.has(column))


def _hold(batch: Batch, f: CellFacts, rule: Rule, missing: tuple[str, ...]) -> Withhold:
    """The card of a cell whose ``rule`` needs values it cannot use: withheld, its reason
    naming each value by table, line and column (the seed's reload state, no verdict)."""
    draft = Draft(Decision(rule))
    ev = _Cite(f, draft)
    ev.run()
    # an event that cannot be read leaves the whole cell unknown, not only whether it is empty
    question = "값과 근거가 원문과 맞는지" if "worker_outputs.value" in missing else _QUESTION[rule.verdict]
    return withhold_cells([_held(batch, f, m) for m in missing], question, "이 칸", draft.evidence)


def _hedges(batch: Batch, f: CellFacts, draft: Draft) -> None:
    """The hedge of any verdict: the phrase is not on its page but on another one."""
    other = f.elsewhere
    if other is not None and f.row is not None and not f.row.broken:
        draft.evidence.append({"source": "source_pages", "field": "page", "value": other.page, "line": other.line})
        draft.hedge(T.hedge_other_page(page=other.page, doc=other.name))


BOOK: RuleBook[Batch, CellFacts] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="hold", hold=_hold, hedges=_hedges)


def build_card(batch: Batch, cell: Cell) -> dict[str, Any]:
    """The card of one cell (the schema-shaped dict)."""
    f = CellFacts(batch, cell)

    def values(decision: Decision) -> dict[str, Any]:
        return {"item_key": cell.key, "run_id": cell.run_id, "field_name": cell.rule.field_name,
                "ai_value": f.value if cell.row is not None and not cell.row.broken else None,
                "source_value": f.source_value}

    card = BOOK.card(batch, f, values)
    assert card is not None  # on_missing="hold": a cell that cannot be judged is withheld, never dropped
    return card


def build_cards(batch: Batch) -> list[dict[str, Any]]:
    """One card per cell, run by run in their order, fields in ``field_rules`` order."""
    return [build_card(batch, cell) for cell in batch.cells()]
