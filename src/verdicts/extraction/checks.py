"""The eleven automatic checks of the extraction domain ("자동 검증"), numbered as in the
seed.

Checks 1, 9 and 11 are the kit's generic claims about cards, declared with
:class:`~verdicts.card_checks.CardChecks`; check 10 adds to the kit's evidence-value
claim the seed's own (a quoted phrase that a card relies on is on the run's pages).
The others recompute the seed's rules from the typed input tables with their own code —
their own reading of the cells, their own extraction of the source value and their own
comparison — and report the cards they fail on.  The checks read the cards as JSON, so
they run as well over cards this tool did not make (the seed's samples).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from verdicts.card_checks import CardChecks, withheld_ok
from verdicts.checks import CheckRegistry
from verdicts.patterns import fullmatches
from verdicts.tables import Row, TypedTable, parse_bool

from .model import AGGS, DIFFERS, EMPTY, FORMAT, MATCHES, NOT_IN_SOURCE, TABLE_SPECS, VERDICTS

__all__ = ["CHECKS", "CheckContext", "CARD_CHECKS", "Expected"]

_DIGITS = {"biz_no", "amount_krw", "phone", "date"}
_NFKC = {"text", "grade"}
_ORDER = (EMPTY, FORMAT, NOT_IN_SOURCE, DIFFERS)
#: the fields every card carries (the schema's required list); the first six never null
_KEYS = ("item_key", "run_id", "field_name", "verdict", "ai_value", "source_value", "evidence", "summary")
_NOT_NULL = ("item_key", "run_id", "field_name", "verdict", "evidence", "summary")


def _page_number(text: str | None) -> int | None:
    if text is None:
        return None
    t = text.strip()
    return int(float(t)) if re.fullmatch(r"[0-9]+(\.0+)?", t) and int(float(t)) > 0 else None


def _stated(phrase: str, kind: str | None) -> str | None:
    """The check's own reading of the value a phrase states."""
    head, sep, tail = phrase.partition(" : ")
    if sep:
        value = tail.strip()
    else:
        parts = phrase.split()
        value = parts[-1] if parts else ""
    if kind == "amount_krw" and value[-1:] == "원":
        value = value[:-1].rstrip()
    return value if value else None


def _same(a: str, b: str, kind: str) -> bool:
    a, b = unicodedata.normalize("NFKC", a), unicodedata.normalize("NFKC", b)
    if kind in _DIGITS:
        return re.sub(r"[^0-9]", "", a) == re.sub(r"[^0-9]", "", b)
    return a.strip() == b.strip()


@dataclass
class Expected:
    """What the checks recompute for one cell: each rule's condition (``True`` fires,
    ``False`` does not, ``None`` cannot be told from the input) and the source value."""

    conditions: tuple[bool | None, bool | None, bool | None, bool | None]
    source_value: str | None
    has_row: bool
    required: bool | None

    def verdict(self) -> str | None:
        """The verdict of the first rule that fires, ``None`` (withheld) when a rule
        before it cannot be told; else 원문과 맞음."""
        for verdict, c in zip(_ORDER, self.conditions):
            if c is None:
                return None
            if c:
                return verdict
        return MATCHES

    def allows(self, index: int) -> bool:
        """Whether the verdict may be the rule at ``index``: every earlier condition is
        false, and this one fires or cannot be told."""
        return all(c is False for c in self.conditions[:index]) and self.conditions[index] is not False

    def fires(self, index: int) -> bool:
        """Whether the rule at ``index`` must give the verdict."""
        return all(c is False for c in self.conditions[:index]) and self.conditions[index] is True


@dataclass
class CheckContext:
    """The typed tables of a batch and the cards (as JSON) to check against them."""

    tables: dict[str, TypedTable]
    cards: list[dict[str, Any]]
    _own: dict[str, Any] = field(default_factory=dict)
    _index: dict[str, Any] = field(default_factory=dict)

    # ------------------------------------------------------------------ the tables, as the checks read them
    def _rows(self, name: str) -> list[Row]:
        t = self.tables.get(name)
        return t.rows if t is not None else []

    def columns(self, table: str) -> set[str]:
        t = self.tables.get(table)
        return set(t.present) if t is not None else set()

    @staticmethod
    def _shown(table: str, row: Row) -> dict[str, str | None]:
        # an empty ``value`` cell is the empty string the worker sent (the spec's reading)
        if table == "worker_outputs" and row.raw.get("value") is None:
            return {**row.raw, "value": ""}
        return row.raw

    def _built(self) -> dict[str, Any]:
        if not self._index:
            rules: dict[str | None, Row] = {}
            for row in self._rows("field_rules"):
                rules.setdefault(row.raw.get("field_name"), row)
            outputs: dict[tuple, Row] = {}
            for row in self._rows("worker_outputs"):
                outputs.setdefault((row.raw.get("run_id"), row.raw.get("field_name")), row)
            pages: dict[str | None, dict[int, Row]] = {}
            for row in self._rows("source_pages"):
                number = _page_number(row.raw.get("page"))
                if number is not None:
                    pages.setdefault(row.raw.get("run_id"), {}).setdefault(number, row)
            lines: dict[tuple[str, int], list[dict]] = {}
            for name in self.tables:
                for row in self._rows(name):
                    lines.setdefault((name, row.line), []).append(self._shown(name, row))
            runs = list(dict.fromkeys([k[0] for k in outputs] + list(pages)))
            self._index.update(rules=rules, outputs=outputs, pages=pages, lines=lines, runs=runs, cache={})
        return self._index

    def rule_row(self, card: dict[str, Any]) -> Row | None:
        return self._built()["rules"].get(card.get("field_name"))

    def output_row(self, card: dict[str, Any]) -> Row | None:
        return self._built()["outputs"].get((card.get("run_id"), card.get("field_name")))

    def pages(self, run: Any) -> dict[int, Row]:
        return self._built()["pages"].get(run, {})

    def may_be_unread(self, run: Any, number: int) -> bool:
        """Whether a ``source_pages`` row that was not read (set aside or rejected) may be
        page ``number`` of ``run``: its run and its page number are those, or unreadable."""
        t = self.tables.get("source_pages")
        for row in t.rejected if t is not None else ():
            other, page = row.values.get("run_id"), _page_number(row.values.get("page"))
            if other in (None, run) and page in (None, number):
                return True
        return False

    def runs(self) -> list[str]:
        return self._built()["runs"]

    def required_fields(self) -> list[tuple[str, bool | None]]:
        out = []
        for name, row in self._built()["rules"].items():
            text = row.raw.get("required")
            out.append((name, parse_bool(text) if text is not None and "required" not in row.invalid else None))
        return out

    # what the core's card checks read (verdicts.card_checks)
    def row_index(self) -> dict[tuple[str, int], list[dict[str, str | None]]]:
        """``(table, line)`` → the cells of the rows at that line."""
        return self._built()["lines"]

    def rows_for(self, card: dict[str, Any], table: str | None) -> list[dict[str, str | None]]:
        """The rows an item without a line may cite: the cell's worker row, its field
        rule, the run's pages."""
        out = []
        if table in (None, "worker_outputs") and (row := self.output_row(card)) is not None:
            out.append(self._shown("worker_outputs", row))
        if table in (None, "field_rules") and (row := self.rule_row(card)) is not None:
            out.append(row.raw)
        if table in (None, "source_pages"):
            out.extend(r.raw for r in self.pages(card.get("run_id")).values())
        return out

    # ------------------------------------------------------------------ the recomputation
    def expected(self, card: dict[str, Any]) -> Expected:
        key = (card.get("run_id"), card.get("field_name"))
        cache = self._built()["cache"]
        if key in cache:
            return cache[key]
        rule, row, pages = self.rule_row(card), self.output_row(card), self.pages(card.get("run_id"))
        outputs_known = "worker_outputs" in self.tables
        required = None
        kind = None
        pattern_text = None
        if rule is not None:
            text = rule.raw.get("required")
            required = parse_bool(text) if text is not None else None
            kind = rule.raw.get("value_type")
            kind = kind if kind in _DIGITS | _NFKC else None
            pattern_text = rule.raw.get("pattern")
        unreadable = row is not None and "value" in row.invalid
        value = (row.raw.get("value") or "") if row is not None else None
        # 4: required and absent or empty
        if row is None:
            c4 = None if not outputs_known else required
        elif unreadable:
            c4 = None
        elif value == "":
            c4 = required
        else:
            c4 = False
        # 5: a pattern that does not match the whole value
        c5: bool | None = False
        if pattern_text is not None and value is not None and not unreadable:
            # (RE2, as the rules read it: a backtracking engine could run for hours here)
            matched = fullmatches(pattern_text, value)
            c5 = None if matched is None else not matched
        # 6: the phrase is not on its page of the same run
        phrase = row.raw.get("evidence_text") if row is not None and not unreadable else None
        page_text = row.raw.get("evidence_page") if row is not None and not unreadable else None
        number = _page_number(page_text)
        cited = pages.get(number) if number is not None else None
        on_page: bool | None = None
        cited_text = cited.raw.get("text") if cited is not None else None
        if cited is not None and phrase and cited_text is not None and "text" not in cited.invalid:
            on_page = phrase in cited_text
        if row is None or unreadable:
            c6: bool | None = None
        elif not phrase or page_text is None:
            c6 = True
        elif number is None:
            c6 = None
        elif "source_pages" not in self.tables or not pages:
            c6 = None
        elif cited is None:
            c6 = None if self.may_be_unread(card.get("run_id"), number) else True
        elif on_page is None:
            c6 = None
        else:
            c6 = not on_page
        # 7: the value the phrase states differs
        # on_page: a phrase was there to look for
        source = _stated(phrase, rule.raw.get("value_type") if rule is not None else None) if on_page and phrase else None
        if source is None:
            c7: bool | None = True
        elif kind is None:
            c7 = None
        else:
            c7 = not _same(value or "", source, kind)
        done = Expected((c4, c5, c6, c7), source, row is not None, required)
        cache[key] = done
        return done


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()

CARD_CHECKS = CardChecks(
    key_field="item_key",
    enums={"verdict": VERDICTS},
    required=_NOT_NULL,
    tables=tuple(spec.name for spec in TABLE_SPECS),
    aggs=AGGS,
    empty=(None, ""),
)

CHECKS.add(CARD_CHECKS.enum_check("1", "`verdict` 값이 다섯 판정 가운데 하나인지 확인합니다."))


@CHECKS.register("2", "`item_key`·`run_id`·`field_name`·verdict·`ai_value`·`source_value`·`evidence`·`summary` 필드가 빠짐없이 있는지 확인합니다.")
def fields_present(ctx: CheckContext):
    """카드마다 스키마의 필수 필드 여덟 개가 있어야 합니다. `ai_value`와 `source_value`는 `null`일 수 있지만
    나머지 여섯은 `null`이거나 비어 있으면 안 되고(판정을 보류한 카드의 `verdict`는 `null`이고 `withheld`가
    까닭과 자리를 밝힙니다), 대상 키(`item_key`)는 `run_id`와 `field_name`을 쌍점으로
    이은 값이어야 합니다. (모든 분야가 함께 쓰는 필수 필드 검사는 `null`을 없는 것으로 보므로 이 검사는 여기에 따로 씁니다.)
    """
    failed = []
    for c in ctx.cards:
        held = isinstance(c, dict) and withheld_ok(c.get("withheld"))
        if (not isinstance(c, dict) or any(k not in c for k in _KEYS)
                or any(c.get(k) in (None, "") for k in _NOT_NULL if k != "evidence" and not (held and k == "verdict"))
                or not isinstance(c.get("evidence"), list)
                or c.get("item_key") != f"{c.get('run_id')}:{c.get('field_name')}"):
            failed.append(str(c.get("item_key", "?")) if isinstance(c, dict) else "?")
    return failed


@CHECKS.register("3", "`evidence_page` 값이 1 이상이고 그 `run_id`의 `source_pages.page` 가운데 가장 큰 값 이하인지 확인합니다.")
def page_in_range(ctx: CheckContext):
    """이 검사는 작업자의 출력이 아니라 카드를 판정합니다. 카드가 인용한 쪽(`evidence_page`, 단서가 가리킨
    `page`)은 1부터 실행의 마지막 쪽까지의 정수여야 합니다. 다만 작업자 줄이 가리킨 쪽이 실행에 없으면 그것은
    입력 문제이므로, 카드가 그 쪽을 그대로 옮겨 인용하면서 거기에 기대지 않을 때(원문 값이 비어 있고 판정이 원문
    값과 다름이나 원문과 맞음이 아닐 때)는 통과합니다. 빈 값은 여기서 보지 않습니다(근거 규칙이 판정합니다).
    """
    failed = []
    for c in ctx.cards:
        pages = ctx.pages(c.get("run_id"))
        last = max(pages, default=0)
        row = ctx.output_row(c)
        worker = row.raw.get("evidence_page") if row is not None and "value" not in row.invalid else None
        relies = c.get("source_value") is not None or c.get("verdict") in (DIFFERS, MATCHES)
        cited = [e.get("value") for e in c.get("evidence") or ()
                 if isinstance(e, dict) and e.get("field") in ("evidence_page", "page") and not e.get("agg")]
        for value in cited + [worker]:
            if value is None:
                continue
            number = value if isinstance(value, int) and not isinstance(value, bool) else _page_number(str(value))
            if number is not None and 1 <= number <= last and (number in pages or not relies):
                continue
            # the worker's own page, quoted as it is: the input issue names it; the card must not rest on it
            quoted = worker is not None and (value == worker or number is not None and number == _page_number(worker))
            if quoted and not relies:
                continue
            failed.append(c["item_key"])
            break
    return failed


@CHECKS.register("4", "`field_rules.required` 값이 참인 `field_name`이 그 `run_id`의 `worker_outputs`에 없거나 `value`가 빈 문자열이면 `verdict`는 '필수 칸이 빔'입니다.")
def required_empty(ctx: CheckContext):
    """실행에 없거나 빈 값으로 온 필수 칸은 필수 칸이 빔 판정을 받습니다(필수 여부나 줄을 읽을 수 없으면 카드는
    판정을 보류합니다). 모든 실행의 필수 칸마다 카드가 있고, 줄이 없는 칸은 필수일 때에만 카드가
    있습니다.
    """
    failed = []
    keys = {c.get("item_key") for c in ctx.cards}
    for c in ctx.cards:
        e = ctx.expected(c)
        if e.fires(0) and c.get("verdict") != EMPTY:
            failed.append(c["item_key"])
        elif c.get("verdict") == EMPTY and not e.allows(0):
            failed.append(c["item_key"])
        elif not e.has_row and e.required is False:
            failed.append(c["item_key"])
    for run in ctx.runs():
        for name, required in ctx.required_fields():
            key = f"{run}:{name}"
            if required and key not in keys:
                failed.append(key)
    return failed


def _rule_check(index: int, verdict: str):
    def run(ctx: CheckContext):
        failed = []
        for c in ctx.cards:
            e = ctx.expected(c)
            if (e.fires(index) and c.get("verdict") != verdict) or (c.get("verdict") == verdict and not e.allows(index)):
                failed.append(c["item_key"])
        return failed

    return run


@CHECKS.register("5", "`pattern` 값이 있는 칸의 `value`가 그 정규식에 전체가 맞지 않으면 `verdict`는 '형식이 규칙과 다름'입니다.")
def format_broken(ctx: CheckContext):
    """첫 규칙이 걸리지 않았을 때, 칸의 패턴이 처음부터 끝까지 맞지 않는 값은 형식이 규칙과 다름 판정을 받고, 그
    판정을 받은 카드에는 그런 값(또는 컴파일되지 않는 패턴)이 있어야 합니다.
    """
    return _rule_check(1, FORMAT)(ctx)


@CHECKS.register("6", "`evidence_text` 값이 비었거나, 같은 `run_id`·`evidence_page`의 `source_pages.text`에 그대로 들어 있지 않으면 `verdict`는 '근거 문구가 원문에 없음'입니다.")
def not_in_source(ctx: CheckContext):
    """앞의 규칙이 걸리지 않았을 때, 빈 문구, 비었거나 없는 쪽을 가리킨 문구, 같은 실행의 그 쪽 글에서
    글자 그대로 찾을 수 없는 문구는 근거 문구가 원문에 없음 판정을 받습니다(쪽 번호나 쪽 글을 읽을 수
    없으면 카드는 판정을 보류합니다).
    """
    return _rule_check(2, NOT_IN_SOURCE)(ctx)


@CHECKS.register("7", "`evidence_text` 값이 원문에 있으면 ' : ' 뒤나 마지막 어절에서 `source_value`를 뽑아(`amount_krw` 값은 끝의 '원'을 떼고) `value`와 견주고, 다르면 `verdict`는 '원문 값과 다름'입니다.")
def differs_from_source(ctx: CheckContext):
    """원문 값(`source_value`)은 문구가 그 쪽에 있을 때 문구가 말하는 값이고, 그렇지 않으면 `null`입니다.
    앞의 규칙이 걸리지 않았을 때 이 값과 다른 값은 원문 값과 다름 판정을 받습니다. `biz_no`, `amount_krw`,
    `phone`, `date` 형식은 숫자만, `text`와 `grade` 형식은 NFKC 정규화 뒤에 견줍니다.
    """
    failed = []
    for c in ctx.cards:
        if c.get("source_value") != ctx.expected(c).source_value:
            failed.append(c["item_key"])
    return sorted(set(failed) | set(_rule_check(3, DIFFERS)(ctx)))


@CHECKS.register("8", "4~7번이 둘 이상 걸리면 4, 5, 6, 7번 차례로 하나만 남기고, 하나도 안 걸리면 `verdict`는 '원문과 맞음'입니다.")
def precedence(ctx: CheckContext):
    """판정은 검증 4번부터 7번까지 차례로 따져 처음 걸리는 것이고, 하나도 걸리지 않으면 원문과 맞음
    판정입니다. 그보다 앞에서 입력으로 가릴 수 없는 검증이 있으면 판정을 보류해야 합니다(`verdict`는 `null`,
    `withheld`에 까닭과 자리).
    """
    failed = []
    for c in ctx.cards:
        expected = ctx.expected(c).verdict()
        if expected is None:
            if c.get("verdict") is not None or not withheld_ok(c.get("withheld")):
                failed.append(c["item_key"])
        elif c.get("verdict") != expected:
            failed.append(c["item_key"])
    return failed


CHECKS.add(CARD_CHECKS.evidence_field_check("9", "`evidence`의 `field` 이름이 세 입력 표의 열에 실재하는지 대조합니다."))


@CHECKS.register("10", "`agg` 값이 없는 `evidence`의 `value`가 수록된 행의 원문 값과 같은지, `evidence_text`가 그 `run_id` 원문 쪽의 `substring`인지 확인합니다.")
def evidence_values(ctx: CheckContext):
    """모든 분야에 공통인 기준(집계 표시 `agg`가 없는 근거의 `value`는 인용한 줄의 칸이고, 센 값에는 `agg`가 붙습니다)과
    명세의 기준을 함께 봅니다. 문구가 원문에 있다는 데 기대는 카드(원문 값 `source_value`가 있거나 원문 값과 다름,
    원문과 맞음 판정을 받은 카드)는 실행의 어느 쪽에 있는 `evidence_text`를 인용해야 합니다. 문구가
    원문에 없다고 말하는 카드는 무엇을 찾지 못했는지 보이려고 그 문구를 인용합니다.
    """
    failed = set(CARD_CHECKS.sweep(ctx)["value"])
    for c in ctx.cards:
        if c.get("source_value") is None and c.get("verdict") not in (DIFFERS, MATCHES):
            continue
        texts = [p.raw.get("text") or "" for p in ctx.pages(c.get("run_id")).values()]
        for e in c.get("evidence") or ():
            if isinstance(e, dict) and e.get("field") == "evidence_text" and not e.get("agg"):
                if not isinstance(e.get("value"), str) or not any(e["value"] in t for t in texts):
                    failed.add(c["item_key"])
    return sorted(failed)


CHECKS.add(CARD_CHECKS.polite_check("11", "`summary`와 `hedge`가 존댓말로 끝나는지 확인합니다.", one_sentence=False))
