"""The checks every domain's cards get from the core, built from its declaration.

The seeds' automatic checks ("자동 검증") all include the same five claims about the
cards themselves, whatever the domain:

* the verdict (and every other closed field) is one of its enum's values;
* the fields a reader relies on are present and not empty;
* every evidence ``field`` is a real column of the cited input table;
* an evidence ``value`` without ``agg`` equals the cited row's cell, and a value
  counted over several rows carries an ``agg`` of the domain's list (a number, not
  negative for ``count`` and ``sum``);
* the summary (and the hedge, when there is one) is one polite Korean sentence.

A domain declares them once — :class:`CardChecks` with its card key, enums, required
fields, tables and aggregations — and registers each under its seed's number and Korean
description.  All five are answered by one pass over the cards (:meth:`CardChecks.sweep`,
the only implementation: a large lint checks hundreds of thousands of cards), which
never raises on a malformed card: such a card fails the checks that read the broken
part.

The check context a domain passes in gives, besides ``cards`` and a per-context cache
``facts`` (``_own`` in the older contexts):

* ``columns(table) -> set[str]``: the columns the input table has;
* ``row_index() -> dict``: ``(table, line)`` → the raw cells of the rows at that
  physical line (several when a JSON document holds its records on one line);
* ``rows_for(card, table) -> list[dict]``: the rows an item without a ``line`` may cite
  (robot's seed samples cite the task's row without a line).

:class:`TableCheckContext` gives all of it from the domain's typed tables: a domain of
one key column per table needs nothing more (a domain outside the kit included).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Callable, Collection, Iterator, Mapping

from .checks import Check
from .korean import polite_endings, polite_sentences
from .tables import parse_bool

if TYPE_CHECKING:
    from decimal import Decimal

__all__ = ["CardChecks", "cell_matches", "TableCheckContext", "withheld_ok"]

_COUNTED = ("count", "sum")


def _decimal(value: Any) -> Decimal | None:
    from decimal import Decimal, InvalidOperation  # only for the cards whose evidence has numbers

    if isinstance(value, bool):
        return None
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, int):
        return Decimal(value)
    try:
        return Decimal(str(value).strip().replace(",", ""))
    except (InvalidOperation, ValueError):
        return None


def cell_matches(value: Any, text: str | None) -> bool:
    """Whether an evidence ``value`` is the cell ``text`` read by its type: a bool by the
    accepted spellings, a number by its decimal value (``1,200`` = ``1200`` = ``1200.0``),
    anything else as the same text.

    >>> cell_matches(True, "Y"), cell_matches(3, "3.0"), cell_matches(0.6, "0.60"), cell_matches("등대", "등대")
    (True, True, True, True)
    >>> cell_matches(None, None), cell_matches(None, ""), cell_matches("3", None)
    (True, False, False)
    """
    if value is None or text is None:
        return value is None and text is None
    if isinstance(value, bool):
        return parse_bool(text) is value
    if isinstance(value, int) and len(text) < 19 and text.isascii() and text.isdigit():  # the common case, without decimal
        return int(text) == value
    if isinstance(value, (int, float)):
        number = _decimal(text)
        return number is not None and number == _decimal(value)
    return str(value) == text


def withheld_ok(withheld: Any) -> bool:
    """Whether a card's ``withheld`` field says why (a reason, and a list of places)."""
    return (isinstance(withheld, dict) and isinstance(withheld.get("reason"), str) and bool(withheld["reason"].strip())
            and isinstance(withheld.get("where"), list))


def _facts_of(ctx: Any) -> dict[str, Any]:
    """The per-context cache of a check context: ``facts`` (:class:`TableCheckContext`),
    or ``_own`` in the domains' older contexts."""
    facts = getattr(ctx, "facts", None)
    return facts if isinstance(facts, dict) else ctx._own


@dataclass
class TableCheckContext:
    """What the card checks read, from a domain's typed tables (``name`` →
    :class:`~verdicts.tables.TypedTable`) and its cards as JSON: a card's own rows are
    those whose ``key_column`` holds the card's ``key_column`` field."""

    tables: Mapping[str, Any]
    cards: list[dict[str, Any]]
    key_column: str | None = None
    #: what the checks of this context have found (the card checks' one pass)
    facts: dict[str, Any] = field(default_factory=dict)
    _rows: dict[tuple[str, int], list[dict[str, Any]]] | None = field(default=None, repr=False)

    def columns(self, table: str) -> set[str]:
        t = self.tables.get(table)
        return set(t.present) if t is not None else set()

    def row_index(self) -> dict[tuple[str, int], list[dict[str, Any]]]:
        if self._rows is None:
            index: dict[tuple[str, int], list[dict[str, Any]]] = {}
            for name, t in self.tables.items():
                for r in t.rows:
                    index.setdefault((name, r.line), []).append(r.raw)
            self._rows = index
        return self._rows

    def quoted_texts(self) -> Iterator[str]:
        """Every text cell of the input (what a sentence may name bare); a generator,
        read only when a sentence fails the polite check's plain test."""
        for t in self.tables.values():
            for r in t.rows:
                for value in r.raw.values():
                    if type(value) is str:
                        yield value

    def rows_for(self, card: dict[str, Any], table: str) -> list[dict[str, Any]]:
        t = self.tables.get(table)
        if t is None or self.key_column is None:
            return []
        key = card.get(self.key_column)
        return [r.raw for r in t.rows if r.raw.get(self.key_column) == key]


@dataclass(frozen=True)
class CardChecks:
    """A domain's declaration of the checks every card gets (see the module docstring).

    ``enums`` maps a card field to its allowed values (``verdict`` always among them);
    ``required`` are the fields that must be present and not ``empty`` (``nullable``
    ones only present); ``tables`` the
    input tables an evidence ``source`` may name (an item without ``source`` may cite a
    column of any of them); ``aggs`` the aggregations an item may name (``None``: any
    non-empty text).
    """

    key_field: str
    enums: Mapping[str, Collection[Any]]
    required: tuple[str, ...]
    tables: tuple[str, ...]
    aggs: Collection[str] | None = None
    empty: tuple[Any, ...] = (None, "")
    #: fields of ``required`` that must be present but may be ``null`` (mail's overdue_hours)
    nullable: tuple[str, ...] = ()
    _sweep_key: str = field(default="card_checks", repr=False)

    # ------------------------------------------------------------------ the one pass
    def sweep(self, ctx: Any) -> dict[str, list[str]]:
        """The failing card keys of every generic check, from one pass over
        ``ctx.cards`` (remembered in ``ctx._own``)."""
        facts = _facts_of(ctx)
        done = facts.get(self._sweep_key)
        if done is not None:
            return done
        key_field, empty = self.key_field, self.empty
        enums: list[tuple[str, Collection[Any]]] = []
        for name, allowed in self.enums.items():
            try:
                enums.append((name, frozenset(allowed)))
            except TypeError:  # an enum of unhashable values: looked through as it is
                enums.append((name, tuple(allowed)))
        # the required fields that may not be empty are read in one call; the nullable
        # ones need only be present
        fields = tuple(n for n in self.required if n not in self.nullable)
        nullable = tuple(n for n in self.required if n in self.nullable)
        get_required = itemgetter(*fields) if len(fields) > 1 else (lambda c: (c[fields[0]],)) if fields else (lambda c: ())
        empty_list = [] in empty
        columns = {t: set(ctx.columns(t)) for t in self.tables}
        every = set().union(*columns.values()) if columns else set()
        aggs = self.aggs
        row_index, rows_for = ctx.row_index(), ctx.rows_for
        matched: dict[tuple[type, str], Any] = {}  # a typed reading of each (type, text) once
        out: dict[str, list[str]] = {"enum": [], "required": [], "field": [], "value": [], "polite": [], "polite_end": []}
        texts: list[Any] = []
        owners: list[int] = []
        keys: list[str] = []
        for position, card in enumerate(ctx.cards):
            if not isinstance(card, dict):
                key = "?"
                keys.append(key)
                for name in out:
                    if name not in ("polite", "polite_end"):
                        out[name].append(key)
                texts.append(None)
                owners.append(position)
                continue
            get = card.get
            key = str(get(key_field, "?"))
            keys.append(key)
            # a withheld card has no verdict label, and says why (a reason and its places)
            held = withheld_ok(get("withheld"))
            for name, allowed in enums:
                if held and name == "verdict":
                    ok = get(name) is None
                else:
                    try:
                        ok = get(name) in allowed
                    except TypeError:  # an unhashable value
                        ok = False
                if not ok:
                    out["enum"].append(key)
                    break
            try:
                values = get_required(card)
            except KeyError:  # a required field absent (nullable ones too)
                out["required"].append(key)
            else:
                if held and "verdict" in fields:
                    values = tuple(v for n, v in zip(fields, values) if n != "verdict")
                if None in values or "" in values or (empty_list and [] in values) or (
                        nullable and not all(n in card for n in nullable)):
                    out["required"].append(key)
            texts.append(get("summary"))
            owners.append(position)
            if get("hedge") is not None:
                texts.append(card["hedge"])
                owners.append(position)
            evidence = get("evidence")
            if evidence is None:
                continue
            if not isinstance(evidence, list):
                out["field"].append(key)
                out["value"].append(key)
                continue
            bad_field = bad_value = False
            for item in evidence:
                if type(item) is not dict:
                    if not isinstance(item, dict):
                        bad_field = bad_value = True
                        continue
                get_item: Callable[[str], Any] = item.get  # a card's values are JSON: Any
                try:
                    source, name = item["source"], item["field"]
                except KeyError:
                    source, name = get_item("source"), get_item("field")
                allowed_columns = columns.get(source) if source is not None else every
                if allowed_columns is None or name not in allowed_columns:
                    bad_field = True
                if bad_value and bad_field:
                    continue  # nothing more to learn from this card's other items
                agg, value = get_item("agg"), get_item("value")
                if agg:
                    numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
                    if ((aggs is not None and agg not in aggs) or not numeric
                            or (agg in _COUNTED and (value < 0 or not isinstance(value, int)))):
                        bad_value = True
                    continue
                if bad_value:
                    continue
                line = get_item("line")
                try:
                    candidates = row_index.get((source, line)) if line is not None else rows_for(card, source)
                except TypeError:  # an unhashable line or source
                    candidates = None
                if not candidates:
                    bad_value = True
                elif type(value) is str and line is not None:  # the common case: a text cell at its line
                    if len(candidates) == 1:
                        if candidates[0].get(name) != value:
                            bad_value = True
                    elif not any(r.get(name) == value for r in candidates):
                        bad_value = True
                elif not any(self._matches(value, r.get(name), line is not None or name in r, matched) for r in candidates):
                    bad_value = True
            if bad_field:
                out["field"].append(key)
            if bad_value:
                out["value"].append(key)
        # a context may name the user's texts that sentences quote bare (titles, labels):
        # read lazily, only when a sentence fails the plain test
        quoted = getattr(ctx, "quoted_texts", None)
        polite = polite_sentences(texts, quoted() if callable(quoted) else ())
        impolite = dict.fromkeys(keys[owners[i]] for i, ok in enumerate(polite) if not ok)
        out["polite"] = list(impolite)
        ending = polite_endings(texts)
        out["polite_end"] = list(dict.fromkeys(keys[owners[i]] for i, ok in enumerate(ending) if not ok))
        facts[self._sweep_key] = out
        return out

    @staticmethod
    def _matches(value: Any, text: Any, present: bool, memo: dict) -> bool:
        # a row cited by its line: a key its JSON/YAML record omitted reads as an empty
        # cell (whether the column exists is the field check's job); a row found by the
        # target must have the cell
        if not present:
            return False
        if type(value) is str or value is None or text is None:
            return (value is None and text is None) or (type(text) is str and value == text)
        try:
            memo_key = (type(value), value, text)
            hit = memo.get(memo_key)
        except TypeError:
            return False
        if hit is None:
            hit = memo[memo_key] = cell_matches(value, text) if isinstance(text, str) else False
        return hit

    # ------------------------------------------------------------------ the checks
    def _check(self, check_id: str, description: str, part: str, doc: str) -> Check:
        def run(ctx: Any) -> list[str]:
            return self.sweep(ctx)[part]

        run.__doc__ = doc
        run.__name__ = f"{part}_check"
        return Check(check_id, description, run)

    def enum_check(self, check_id: str, description: str) -> Check:
        fields = ", ".join(f"`{name}`" for name in self.enums)
        return self._check(check_id, description, "enum",
                           f"{fields} 필드는 저마다 정해진 목록의 값 하나만 가집니다. 그 밖의 값이 있으면 규칙이 만든 "
                           "카드가 아닙니다.")

    def required_check(self, check_id: str, description: str) -> Check:
        fields = ", ".join(f"`{name}`" for name in self.required)
        return self._check(check_id, description, "required",
                           f"카드마다 {fields} 필드가 비지 않고 있어야 합니다. 읽는 사람과 보고서 화면이 기대는 필드입니다.")

    def evidence_field_check(self, check_id: str, description: str) -> Check:
        return self._check(check_id, description, "field",
                           "근거(`evidence`)마다 `field`에 적힌 이름이 인용한 입력 표(`source`)에 실제로 있는 열이어야 "
                           "합니다. 입력에 없는 열을 인용했다면 문장을 지어낸 것입니다.")

    def evidence_value_check(self, check_id: str, description: str) -> Check:
        return self._check(check_id, description, "value",
                           "집계 표시(`agg`)가 없는 근거의 `value`는 인용한 줄(`line` 필드의 줄, 없으면 그 표에서 "
                           "대상의 줄)의 칸을 형식대로 읽은 값과 같아야 합니다. 집계 표시가 있으면 그 값은 여러 줄에서 "
                           "모은 수로, 집계 방식이 도메인이 쓰는 것 가운데 하나이고 `count`나 `sum`이면 음수가 아니어야 "
                           "합니다.")

    def polite_check(self, check_id: str, description: str, *, one_sentence: bool = True) -> Check:
        """Summary and hedge end politely: as one sentence (``one_sentence``), or only
        end so, when the seed asks no more (mail, extraction)."""
        if not one_sentence:
            return self._check(check_id, description, "polite_end",
                               "요약(`summary`)과, 있으면 단서(`hedge`)도 `-니다.` 같은 존댓말 어미로 끝나야 합니다. 명세가 "
                               "끝맺음만 묻기에 문장 수는 보지 않습니다.")
        return self._check(check_id, description, "polite",
                           "요약(`summary`)과, 있으면 단서(`hedge`)도 `-니다.`로 끝나는 존댓말 한 문장이어야 합니다.")

    def all(self, ids: Mapping[str, tuple[str, str]]) -> dict[str, Check]:
        """The checks named in ``ids`` (``"enum" | "required" | "field" | "value" |
        "polite"`` → ``(id, description)``)."""
        makers: dict[str, Callable[[str, str], Check]] = {
            "enum": self.enum_check, "required": self.required_check, "field": self.evidence_field_check,
            "value": self.evidence_value_check, "polite": self.polite_check,
        }
        return {part: makers[part](*spec) for part, spec in ids.items()}
