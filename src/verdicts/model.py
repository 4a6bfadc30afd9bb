"""The evidence model shared by every verdict domain.

A domain judges rows of its input tables into exactly one verdict each and writes a
:class:`Card` per judged target.  Every card carries :class:`Evidence` items that cite
real input columns, a one-sentence Korean ``summary`` and an optional ``hedge``.
Problems in the input become :class:`InputIssue` records instead of exceptions.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict

__all__ = ["Evidence", "Card", "InputIssue", "SourceInfo", "CheckResult", "Finding"]


class Evidence(BaseModel):
    """One fact a verdict rests on.

    ``field`` is a real column of the inputs.  Without ``agg``, ``value`` is exactly the
    value of that column in the cited row (``source`` table, physical ``line``); with
    ``agg`` (``count``, ``sum``, ``median`` …) it was obtained over several rows.
    ``quote`` holds verbatim original text where a domain quotes one.
    """

    model_config = ConfigDict(frozen=True)

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


class Card(BaseModel):
    """Base of every domain's card.

    A domain subclass declares its fields in the order of its seed's JSON Schema —
    ``verdict``, ``evidence: list[Evidence]``, ``summary`` and ``hedge`` among them — and
    names the field that identifies the card in ``key_field``.  ``accepted`` holds the
    reason when a person recorded that the finding is intended; it never changes the
    verdict and is not part of the schema's card.
    """

    model_config = ConfigDict(frozen=False)

    key_field: ClassVar[str] = "key"
    #: fields kept out of the schema-shaped JSON
    internal_fields: ClassVar[frozenset[str]] = frozenset({"accepted"})

    accepted: str | None = None

    @property
    def key(self) -> str:
        return str(getattr(self, self.key_field))

    def to_json(self) -> dict[str, Any]:
        """The card as the domain's schema describes it (fields in declaration order)."""
        out: dict[str, Any] = {}
        for name in type(self).model_fields:
            if name in self.internal_fields:
                continue  # `accepted` is added at the end, when set
            value = getattr(self, name)
            if name == "evidence":
                out[name] = [item.to_json() for item in value]
            else:
                out[name] = value
        if self.accepted is not None:
            out["accepted"] = self.accepted
        return out


class InputIssue(BaseModel):
    """A problem with the input that was reported instead of crashing.

    ``line`` is the 1-based physical line in ``file`` (the header is line 1);
    ``column`` the column name concerned; ``position`` the 1-based character within the
    cell when the problem is inside a text (a condition syntax error).
    """

    model_config = ConfigDict(frozen=True)

    file: str | None = None
    table: str | None = None
    line: int | None = None
    column: str | None = None
    position: int | None = None
    reason: str

    def to_json(self) -> dict[str, Any]:
        return self.model_dump()

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


class SourceInfo(BaseModel):
    """Which file an input table came from and how its bytes were decoded."""

    model_config = ConfigDict(frozen=True)

    file: str
    table: str
    form: str
    encoding: str | None = None
    rows: int = 0


class CheckResult(BaseModel):
    """The outcome of one automatic check over a report."""

    model_config = ConfigDict(frozen=True)

    id: str
    description: str
    passed: bool
    failed_targets: list[str]
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)


class Finding(BaseModel):
    """A lint finding beside the cards: a stable ``code``, the targets it concerns and a
    one-sentence Korean message."""

    model_config = ConfigDict(frozen=True)

    code: str
    target: str
    message: str
    file: str | None = None
    line: int | None = None
    data: dict[str, Any] | None = None
    #: the reason, when a person recorded that this finding is intended
    accepted: str | None = None

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(exclude_none=True)
