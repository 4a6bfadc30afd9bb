"""The evidence model shared by every verdict domain.

A domain judges rows of its input tables into exactly one verdict each and writes a
:class:`Card` per judged target.  Every card carries :class:`Evidence` items that cite
real input columns, a one-sentence Korean ``summary`` and an optional ``hedge``.
Problems in the input become :class:`InputIssue` records instead of exceptions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar, dataclass_transform

__all__ = ["Evidence", "Card", "card_field_names", "hedges_of", "file_of", "InputIssue", "SourceInfo", "CheckResult", "Finding", "Report",
           "WITHHELD", "WITHHELD_KEY", "WITHHELD_NOTE", "UNDONE", "aggregate_words", "label_of", "group_of", "withheld_record"]

#: the group of the cards whose verdict was withheld (no verdict label: the verdict
#: depends on something the tool could not read exactly), on every screen and in the
#: summary, neither a problem nor a pass (``docs/verdicts.md``, "판정 보류")
WITHHELD = "판정 보류"


def withheld_record(reason: str, where: "list[dict[str, Any]] | tuple" = ()) -> dict[str, Any]:
    """The machine-readable ``withheld`` field of a card or finding: ``reason`` (one
    polite Korean sentence) and ``where`` (the places it rests on: ``file``/``line``,
    or ``table``/``line``/``column``)."""
    return {"reason": reason, "where": [dict(w) for w in where]}


#: what a domain's docs page says of a card withheld because a value it needed could not be used
WITHHELD_NOTE = ("그 카드는 판정을 보류해 판정 이름 없이 읽지 못한 값과 그 자리(표, 줄, 열)를 밝히고, 문제와 통과 어느 쪽에도 "
                 "세지 않습니다")

#: the ``fail_on`` key of the withheld cards and findings (not a problem by default)
WITHHELD_KEY = "withheld"


def aggregate_words(aggregate: dict[str, Any]) -> str:
    """How a report says a run's aggregate (``{"kind": "ratio", "defects", "total",
    "value"}``): ``결함 비율 0.25(12건 가운데 3건)``.

    >>> aggregate_words({"kind": "ratio", "defects": 3, "total": 12, "value": 0.25})
    '결함 비율 0.25(12건 가운데 3건)'
    >>> aggregate_words({"kind": "ratio", "defects": 0, "total": 0, "value": None})
    '결함 비율 —(판정한 대상 없음)'
    """
    value = aggregate.get("value")
    if value is None:
        return "결함 비율 —(판정한 대상 없음)"
    return f"결함 비율 {value:.2f}({aggregate['total']:,}건 가운데 {aggregate['defects']:,}건)"


def label_of(card: Any) -> str:
    """The label a card is shown and grouped under: its verdict, or :data:`WITHHELD`."""
    verdict = card.verdict
    return WITHHELD if verdict is None and card.withheld is not None else verdict


#: the field of a card whose passing verdict holds on the input's own terms but that
#: the domain knows no real use bears out (storygraph: a scene the tables' paths reach
#: that no real reader gets to, because the only way in is a branch that never fires).
#: Its value is ``{"code": …, "reason": one polite sentence}``; the verdict label stays
#: the seed's, and every first view shows the card among the problems, in the domain's
#: :attr:`~verdicts.domain.Domain.undone_group`, and counts it as one.
UNDONE = "undone"


def group_of(card: Any, passing: "frozenset[str] | set[str]", undone_group: str) -> str:
    """The group a card is listed under in a first view: :func:`label_of`, except a
    passing card that is :data:`UNDONE`, which is listed under ``undone_group``.
    ``card`` is a :class:`Card` or its JSON dict."""
    if isinstance(card, dict):
        verdict = card.get("verdict")
        if verdict is None and card.get("withheld") is not None:
            return WITHHELD
        return undone_group if verdict in passing and card.get(UNDONE) else str(verdict)
    label = label_of(card)
    return undone_group if label in passing and card.data.get(UNDONE) else label


#: the records below are frozen dataclasses, not pydantic models: every run makes
#: thousands of them and none is read from a user's file (the tables and configuration
#: are validated where they are read), and importing pydantic alone cost a lint of a
#: small scenario more than all its work (docs/decisions.md, "Instant start").
_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def _record(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, slots=True, kw_only=True)``, spelled once (and known to
    type checkers as a dataclass maker)."""
    return dataclass(frozen=True, slots=True, kw_only=True)(cls)


@_record
class Evidence:
    """One fact a verdict rests on.

    ``field`` is a real column of the inputs.  Without ``agg``, ``value`` is exactly the
    value of that column in the cited row (``source`` table, physical ``line``); with
    ``agg`` (``count``, ``sum``, ``median`` …) it was obtained over several rows.
    ``quote`` holds verbatim original text where a domain quotes one.
    """

    field: str
    value: Any = None
    agg: str | None = None
    source: str | None = None
    line: int | None = None
    quote: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.source is not None:
            out["source"] = self.source
        out["field"] = self.field
        if self.agg is not None:
            out["agg"] = self.agg
        out["value"] = self.value
        if self.quote is not None:
            out["quote"] = self.quote
        if self.line is not None:
            out["line"] = self.line
        return out


class Card:
    """A card, kept as the dict its domain's schema describes (one type for every
    domain; storygraph writes hundreds of thousands of them in one run).

    It answers ``card.verdict`` and every other field by attribute, ``card.key``,
    ``card.evidence`` (as :class:`Evidence` items), ``card.to_json()``, and holds a
    settable ``accepted`` (the reason, when a person recorded that the finding is
    intended; never part of the schema's card) — but stores only the schema-shaped dict
    (evidence as dicts too), so making a card costs one dict and writing it costs
    nothing more.  A pydantic card of
    11 fields with five evidence models cost about 60 µs to build and convert back; the
    dict costs about 3 µs.  Subclasses set ``key_field`` and ``field_names`` (the
    schema's property order).  The schema check (:func:`verdicts.schema.schema_check`)
    validates every card's dict, so nothing relies on the constructor for types.
    """

    __slots__ = ("data", "accepted")

    key_field: ClassVar[str] = "key"
    #: the schema-shaped fields, in order (what the screen lists)
    field_names: ClassVar[tuple[str, ...]] = ()
    #: the field holding the evidence items (residue keeps its seed's one-line
    #: ``evidence`` and the items under ``evidence_items``)
    evidence_field: ClassVar[str] = "evidence"
    internal_fields: ClassVar[frozenset[str]] = frozenset({"accepted"})

    def __init__(self, data: dict[str, Any], accepted: str | None = None):
        self.data = data
        self.accepted = accepted

    @classmethod
    def of(cls, **fields: Any) -> "Card":
        """A card from keyword fields (in ``field_names`` order; evidence may be given as
        :class:`Evidence` items or dicts).  Tests and small callers use this; the domain
        builds the dict itself."""
        data: dict[str, Any] = {}
        for name in cls.field_names:
            value = fields.pop(name, None)
            if name == "evidence":
                value = [e.to_json() if isinstance(e, Evidence) else dict(e) for e in value or ()]
            data[name] = value
        accepted = fields.pop("accepted", None)
        if fields:
            raise TypeError(f"{cls.__name__} has no field(s) {', '.join(fields)}")
        return cls(data, accepted)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Card":
        """A card from its JSON form (a stored round), ``accepted`` taken out."""
        data = dict(data)
        accepted = data.pop("accepted", None)
        return cls(data, accepted)

    def __getattr__(self, name: str) -> Any:
        # only called for names that are not slots or class attributes
        try:
            return self.data[name]
        except KeyError:
            raise AttributeError(f"{type(self).__name__!s} has no field {name!r}") from None

    @property
    def evidence(self) -> list[Evidence]:
        return [Evidence(**item) for item in self.data[self.evidence_field]]

    @property
    def hedges(self) -> list[str]:
        """Every caveat of the card, one sentence each: its ``hedge``, then its
        ``more_hedges`` (:func:`hedges_of`)."""
        return hedges_of(self.data)

    @property
    def withheld(self) -> dict[str, Any] | None:
        """Why the verdict was withheld (``{"reason", "where"}``), or ``None``: a withheld
        card has ``verdict`` ``None`` and this field in its JSON."""
        return self.data.get("withheld")

    @property
    def label(self) -> str:
        """Its verdict, or :data:`WITHHELD`."""
        return label_of(self)

    @property
    def key(self) -> str:
        return str(self.data[self.key_field])

    def to_json(self) -> dict[str, Any]:
        """The card as the domain's schema describes it, ``accepted`` added when set."""
        if self.accepted is None:
            return self.data
        return {**self.data, "accepted": self.accepted}

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.data == self.data and other.accepted == self.accepted

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key!r}, {self.data.get('verdict')!r})"


def hedges_of(card: Any) -> list[str]:
    """Every caveat of a card (a :class:`Card` or its JSON dict), one sentence each, the
    weightiest first: the ``hedge``, then the ``more_hedges`` (see
    :mod:`verdicts.engine`).

    >>> hedges_of({"hedge": "값이 비었습니다.", "more_hedges": ["표를 읽지 못했습니다."]}), hedges_of({"hedge": None})
    (['값이 비었습니다.', '표를 읽지 못했습니다.'], [])
    """
    data = card.data if isinstance(card, Card) else card
    if not isinstance(data, dict):  # another record with the two fields
        data = {"hedge": getattr(data, "hedge", None), "more_hedges": getattr(data, "more_hedges", None)}
    hedge, more = data.get("hedge"), data.get("more_hedges")
    out = [hedge] if isinstance(hedge, str) and hedge else []
    if isinstance(more, list):
        out += [h for h in more if isinstance(h, str) and h]
    return out


def card_field_names(card: Card) -> tuple[str, ...]:
    """The schema-shaped field names of a card, in order."""
    return type(card).field_names


@_record
class InputIssue:
    """A problem with the input that was reported instead of crashing.

    ``line`` is the 1-based physical line in ``file`` (the header is line 1);
    ``column`` the column name concerned; ``position`` the 1-based character within the
    cell when the problem is inside a text (a condition syntax error).
    """

    file: str | None = None
    table: str | None = None
    line: int | None = None
    column: str | None = None
    position: int | None = None
    reason: str
    #: how to fix it, when the domain can say (``{"text": …, "edits": […]}``)
    fix: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "table": self.table, "line": self.line, "column": self.column,
                               "position": self.position, "reason": self.reason}
        if self.fix is not None:
            out["fix"] = self.fix
        return out

    def replace(self, **changes: Any) -> "InputIssue":
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)

    def where(self) -> str:
        """``file:line`` with the table and column, for terminal output."""
        parts = []
        loc = self.file or "(input)"
        if self.line is not None:
            loc += f":{self.line}"
        parts.append(loc)
        if self.table:
            parts.append(self.table)
        if self.column:
            col = self.column
            if self.position is not None:
                col += f"@{self.position}"
            parts.append(col)
        return " ".join(parts)


def file_of(name: str) -> str:
    """The file of an input named ``name``: an ``.xlsx`` sheet is named
    ``book.xlsx#sheet``, any other ``#`` belongs to the file's own name.

    >>> file_of("book.xlsx#scene_states"), file_of("장면 #1.csv")
    ('book.xlsx', '장면 #1.csv')
    """
    head, sep, _ = name.rpartition("#")
    return head if sep and head.lower().endswith((".xlsx", ".xlsm")) else name


@_record
class SourceInfo:
    """Which file an input table came from and how its bytes were decoded."""

    file: str
    table: str
    form: str
    encoding: str | None = None
    rows: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "table": self.table, "form": self.form, "encoding": self.encoding, "rows": self.rows}

    def replace(self, **changes: Any) -> "SourceInfo":
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


@_record
class CheckResult:
    """The outcome of one automatic check over a report."""

    id: str
    description: str
    passed: bool
    failed_targets: list[str]
    note: str | None = None

    def __post_init__(self) -> None:
        if type(self.failed_targets) is not list:
            object.__setattr__(self, "failed_targets", list(self.failed_targets))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "description": self.description, "passed": self.passed,
                               "failed_targets": self.failed_targets}
        if self.note is not None:
            out["note"] = self.note
        return out


@_record
class Finding:
    """A lint finding beside the cards: a stable ``code``, the targets it concerns and a
    one-sentence Korean message."""

    code: str
    target: str
    message: str
    file: str | None = None
    line: int | None = None
    data: dict[str, Any] | None = None
    #: the reason, when a person recorded that this finding is intended
    accepted: str | None = None
    #: how to fix it, when the domain can say (``{"text": …, "edits": […]}``)
    fix: dict[str, Any] | None = None
    #: set when the finding's truth depends on something the tool could not read
    #: exactly (:func:`withheld_record`): then it is no problem, only a note
    withheld: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        """The fields that are set, in declaration order."""
        out: dict[str, Any] = {"code": self.code, "target": self.target, "message": self.message}
        if self.file is not None:
            out["file"] = self.file
        if self.line is not None:
            out["line"] = self.line
        if self.data is not None:
            out["data"] = self.data
        if self.accepted is not None:
            out["accepted"] = self.accepted
        if self.fix is not None:
            out["fix"] = self.fix
        if self.withheld is not None:
            out["withheld"] = self.withheld
        return out

    def replace(self, **changes: Any) -> "Finding":
        """A copy with ``changes``."""
        return dataclasses.replace(self, **changes)


@dataclass
class Report:
    """Everything one run produced: cards, input issues, check results, lint findings
    and where the inputs came from.  Reporters render it; nothing else mutates it."""

    domain: str
    cards: list[Card]
    issues: list[InputIssue]
    checks: list[CheckResult]
    sources: list[SourceInfo] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    #: what the domain adds to the run (``aggregate``: :meth:`verdicts.domain.Domain.aggregate`)
    extra: dict[str, Any] = field(default_factory=dict)
    #: the configuration file the run used (found upwards or given), ``None`` for none
    config: str | None = None
    #: what the run read and made its cards from (the domain's typed inputs, or what its
    #: ``analyse`` stage made of them: storygraph's analysis); not written in any format
    inputs: Any = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": [c.to_json() for c in self.cards],
            "issues": [i.to_json() for i in self.issues],
            "checks": [c.to_json() for c in self.checks],
        }
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        if "aggregate" in self.extra:
            out["aggregate"] = self.extra["aggregate"]
        out["inputs"] = [s.to_json() for s in self.sources]
        if self.config is not None:
            out["config"] = self.config
        return out
