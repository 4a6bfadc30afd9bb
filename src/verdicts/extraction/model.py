"""The typed batch of extraction runs: field rules, worker outputs, source pages, and the
extraction card.

Verdict labels and value types are verbatim from the seed's JSON Schema and text.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from verdicts.model import Card, InputIssue, SourceInfo
from verdicts.tables import Column, TableSpec

__all__ = [
    "EMPTY", "FORMAT", "NOT_IN_SOURCE", "DIFFERS", "MATCHES", "VERDICTS", "VALUE_TYPES", "DIGIT_TYPES", "TEXT_TYPES",
    "AGGS", "WORKER_OUTPUTS", "SOURCE_PAGES", "FIELD_RULES", "TABLE_SPECS", "MAX_PAGE_CHARS",
    "FieldRule", "WorkerRow", "Page", "Cell", "Batch", "ExtractionCard", "CARD_FIELDS",
]

# Verdicts, verbatim from the seed's schema, in the order of precedence (first match wins).
EMPTY = "필수 칸이 빔"
FORMAT = "형식이 규칙과 다름"
NOT_IN_SOURCE = "근거 문구가 원문에 없음"
DIFFERS = "원문 값과 다름"
MATCHES = "원문과 맞음"
VERDICTS: tuple[str, ...] = (EMPTY, FORMAT, NOT_IN_SOURCE, DIFFERS, MATCHES)

#: value types compared on their digits only
DIGIT_TYPES: tuple[str, ...] = ("biz_no", "amount_krw", "phone", "date")
#: value types compared after NFKC normalisation (㈜ equals (주))
TEXT_TYPES: tuple[str, ...] = ("text", "grade")
VALUE_TYPES: tuple[str, ...] = DIGIT_TYPES + TEXT_TYPES

#: the aggregations an evidence item may name (the schema's enum)
AGGS: tuple[str, ...] = ("count", "sum", "avg", "min", "max")

#: a page text longer than this is not searched (an issue names it)
MAX_PAGE_CHARS = 1_000_000

# Every column is read as text: the loader parses pages, booleans and patterns itself, so
# that each bad cell becomes one issue in this domain's words and only its cell is withheld.
WORKER_OUTPUTS = TableSpec(
    "worker_outputs",
    (Column("run_id"), Column("field_name"), Column("value"), Column("evidence_page"), Column("evidence_text")),
)
SOURCE_PAGES = TableSpec("source_pages", (Column("run_id"), Column("page"), Column("doc_name"), Column("text", free_text=True)))
FIELD_RULES = TableSpec(
    "field_rules",
    (Column("field_name"), Column("label"), Column("value_type"), Column("required"), Column("pattern")),
)
TABLE_SPECS = (WORKER_OUTPUTS, SOURCE_PAGES, FIELD_RULES)


@dataclass
class FieldRule:
    """One row of ``field_rules``.  ``required`` is ``None`` when the cell is empty or
    unreadable, ``pattern`` when it does not compile (``pattern_text`` keeps the text),
    ``value_type`` when it is not one of the six types; each already an issue."""

    field_name: str
    label: str
    value_type: str | None
    required: bool | None
    pattern_text: str | None
    pattern: Any
    line: int
    pattern_broken: bool = False


@dataclass
class WorkerRow:
    """One field the AI worker returned (a table row or a run event).

    ``value`` is the empty string for an empty cell; ``page`` is the cited page number,
    ``None`` when empty or unreadable (``page_text`` keeps the cell); ``broken`` names
    why the event could not be read at all (only its ids were recovered)."""

    run_id: str
    field_name: str
    value: str
    page: int | None
    page_text: str | None
    evidence_text: str | None
    line: int
    source: str = "worker_outputs"
    broken: str | None = None

    @property
    def page_unreadable(self) -> bool:
        return self.page is None and self.page_text is not None


@dataclass
class Page:
    """One page of a run's source document.  ``text`` is ``None`` when the page cannot be
    used (empty, NUL bytes, too long): an issue says which."""

    run_id: str
    page: int
    doc_name: str | None
    text: str | None
    line: int

    @property
    def name(self) -> str:
        return self.doc_name or "원문"


@dataclass
class Cell:
    """One ``run_id:field_name`` to judge: its field rule, the worker's row (``None``
    when the worker returned none) and the run's pages."""

    run_id: str
    rule: FieldRule
    row: WorkerRow | None
    pages: dict[int, Page]

    @property
    def key(self) -> str:
        return f"{self.run_id}:{self.rule.field_name}"


@dataclass
class Batch:
    """Runs as read: field rules in their order, the worker's rows per run, the pages per
    run, the input issues, and the typed tables for the checks to recompute from."""

    rules: dict[str, FieldRule]
    runs: list[str]
    outputs: dict[str, dict[str, WorkerRow]]
    pages: dict[str, dict[int, Page]]
    issues: list[InputIssue]
    sources: list[SourceInfo]
    tables: dict[str, Any] = field(default_factory=dict)
    #: runs read from a ``source_pages`` table (a run absent from it has no pages at all)
    pages_known: bool = True
    #: whether the worker's rows could be read at all (without them no cell is "missing")
    outputs_known: bool = True
    #: ``source_pages`` rows that could not be read, as ``(run_id, page, line)`` (``None``
    #: where that cell could not be read): a page cited but absent may be one of them
    unread_pages: list[tuple[str | None, int | None, int]] = field(default_factory=list)

    def unread_page(self, run_id: str, page: int) -> list[int]:
        """The lines of the unread ``source_pages`` rows that may be page ``page`` of
        ``run_id`` (its run or number could not be read, or they are those)."""
        return [line for run, number, line in self.unread_pages
                if run in (None, run_id) and number in (None, page)]

    def cells(self) -> list[Cell]:
        """Every cell to judge: per run, each field of ``field_rules`` in its order that
        the worker returned or that is required (or whose requirement is unreadable)."""
        out = []
        for run in self.runs:
            rows = self.outputs.get(run, {})
            for name, rule in self.rules.items():
                row = rows.get(name)
                if row is None and rule.required is False:
                    continue
                out.append(Cell(run, rule, row, self.pages.get(run, {})))
        return out


#: the card's fields, in the order of the seed's schema
CARD_FIELDS: tuple[str, ...] = (
    "item_key", "run_id", "field_name", "verdict", "ai_value", "source_value", "evidence", "summary", "hedge",
)


class ExtractionCard(Card):
    """One card per ``run_id:field_name``."""

    __slots__ = ()
    key_field: ClassVar[str] = "item_key"
    field_names: ClassVar[tuple[str, ...]] = CARD_FIELDS
