"""The nine automatic checks of the mail domain ("자동 검증"), in the seed's numbering.

Checks 1, 2, 6, 8 (and the value half of 7) are the kit's claims about any card,
declared with :class:`~verdicts.card_checks.CardChecks`.  The others recompute their
claim from the typed input tables with their own code — their own reading of moments
(:meth:`datetime.fromisoformat`), their own search for the answered message, hours as
:mod:`decimal` seconds rounded with ``ROUND_HALF_UP`` — and report the cards they failed
on.  The checks read the cards as JSON, so they run as well over cards this tool did not
make (the seed's samples, whose evidence names no table or line).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from verdicts.card_checks import CardChecks
from verdicts.checks import CheckRegistry
from verdicts.numbers import parse_decimal
from verdicts.tables import Row, TypedTable, parse_bool

from .model import AGGS, AS_ORIGINAL, LATE, TABLE_SPECS, UNCONFIRMED, VERDICTS

__all__ = ["CHECKS", "CARD_CHECKS", "CheckContext", "Found"]

_CENT = Decimal("0.01")


def _moment(text: str | None) -> datetime | None:
    if not text:
        return None
    text = text.strip()
    if text[-1:] in "Zz":
        text = text[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is not None:
        moment = moment.astimezone(timezone.utc).replace(tzinfo=None)
    return moment


def _number(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, int):
        return Decimal(value)
    return parse_decimal(str(value))


@dataclass
class Found:
    """One card's rows as the checks find them in the tables."""

    action: Row | None
    message: Row | None
    policy: Row | None
    thread_actions: list[Row]


@dataclass
class CheckContext:
    """The typed tables of a round and the cards (as JSON) to check against them."""

    tables: dict[str, TypedTable]
    cards: list[dict[str, Any]]
    _cache: dict[str, Found] = field(default_factory=dict)
    _index: dict[Any, Any] = field(default_factory=dict)
    #: facts of this context's cards (the core's card checks keep their sweep here)
    _own: dict[str, Any] = field(default_factory=dict)

    def columns(self, table: str) -> set[str]:
        t = self.tables.get(table)
        return set(t.present) if t is not None else set()

    def _by(self, table: str, column: str) -> dict[str | None, list[Row]]:
        index = self._index.get((table, column))
        if index is None:
            index = self._index[(table, column)] = {}
            t = self.tables.get(table)
            for r in (t.rows if t is not None else []):
                index.setdefault(r.raw.get(column), []).append(r)
        return index

    def find(self, card: dict[str, Any]) -> Found:
        key = str(card.get("action_no"))
        if key in self._cache:
            return self._cache[key]
        actions = self._by("agent_action", "action_no").get(card.get("action_no"), [])
        action = actions[0] if actions else None
        message = policy = None
        thread_actions: list[Row] = []
        if action is not None:
            sent = _moment(action.raw.get("sent_at"))
            best: tuple[datetime, int] | None = None
            for row in self._by("mailbox_thread", "thread_id").get(action.raw.get("thread_id"), []):
                received = _moment(row.raw.get("received_at"))
                if received is None or sent is None or received > sent:
                    continue
                if best is None or (received, row.line) > best:
                    best, message = (received, row.line), row
            policies = self._by("action_policy", "action_kind").get(action.raw.get("action_kind"), [])
            policy = policies[0] if policies else None
            thread_actions = self._by("agent_action", "thread_id").get(action.raw.get("thread_id"), [])
        found = self._cache[key] = Found(action, message, policy, thread_actions)
        return found

    # what the core's card checks read (verdicts.card_checks)
    def row_index(self) -> dict[tuple[str, int], list[dict[str, str | None]]]:
        """``(table, line)`` → the raw cells of the rows at that line."""
        index = self._index.get("rows")
        if index is None:
            index = self._index["rows"] = {}
            for name, t in self.tables.items():
                for r in t.rows:
                    index.setdefault((name, r.line), []).append(r.raw)
        return index

    def rows_for(self, card: dict[str, Any], table: str | None) -> list[dict[str, str | None]]:
        """The rows an item without a line may cite: the action's row and those of the
        other replies in its thread, the answered message, the kind's policy (``table``
        ``None``: any of them)."""
        found = self.find(card)
        rows = {
            "agent_action": ([found.action] if found.action else []) + [r for r in found.thread_actions if r is not found.action],
            "mailbox_thread": [found.message] if found.message else [],
            "action_policy": [found.policy] if found.policy else [],
        }
        if table is None:
            return [r.raw for part in rows.values() for r in part]
        return [r.raw for r in rows.get(table, [])]

    def overdue(self, card: dict[str, Any]) -> tuple[bool, Decimal | None]:
        """``(known, hours)``: the overdue hours recomputed, rounded half up; ``known``
        is false when a row or a value it needs is missing."""
        found = self.find(card)
        if found.action is None or found.message is None or found.policy is None:
            return False, None
        if found.message.raw.get("reply_deadline") is None:
            return True, None
        sent, received = _moment(found.action.raw.get("sent_at")), _moment(found.message.raw.get("received_at"))
        limit = parse_decimal(found.policy.raw.get("max_reply_hours"))
        deadline = _moment(found.message.raw.get("reply_deadline"))
        if sent is None or received is None or deadline is None or limit is None or limit < 0:
            return False, None
        seconds = Decimal((sent - received).days * 86400 + (sent - received).seconds)
        value = (seconds / Decimal(3600) - limit).quantize(_CENT, rounding=ROUND_HALF_UP)
        return True, value if value > 0 else None

    def low_confidence(self, card: dict[str, Any]) -> bool | None:
        found = self.find(card)
        if found.action is None or found.policy is None:
            return None
        confidence = parse_decimal(found.action.raw.get("confidence"))
        minimum = parse_decimal(found.policy.raw.get("min_confidence"))
        if confidence is None:
            return None
        if minimum is None or not Decimal(0) <= minimum <= Decimal(1):
            return False  # no usable minimum: nothing to fall short of
        return confidence < minimum


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()

CARD_CHECKS = CardChecks(
    key_field="action_no",
    enums={"verdict": VERDICTS},
    required=("action_no", "thread_id", "verdict", "overdue_hours", "low_confidence", "summary", "evidence"),
    nullable=("overdue_hours",),
    tables=tuple(spec.name for spec in TABLE_SPECS),
    aggs=AGGS,
    empty=(None, "", []),
)

CHECKS.add(CARD_CHECKS.enum_check("C01", "`verdict` 값이 스키마가 선언한 다섯 값 가운데 하나인지 확인합니다."))
CHECKS.add(CARD_CHECKS.required_check(
    "C02", "`action_no`·`thread_id`·`verdict`·`overdue_hours`·`low_confidence`·`summary`·`evidence` 필드가 카드마다 있는지 확인합니다."))


@CHECKS.register("C03", "카드가 판정한 처리의 `confidence`가 0 이상 1 이하인지 `agent_action`에서 다시 읽어 확인합니다.")
def confidence_in_range(ctx: CheckContext):
    """판정한 처리의 확신도(`confidence`) 칸을 `agent_action`에서 다시 읽으면 0 이상 1 이하의 수여야 합니다.
    표에 없는 처리의 카드도 실패입니다.
    """
    failed = []
    for c in ctx.cards:
        found = ctx.find(c)
        value = parse_decimal(found.action.raw.get("confidence")) if found.action is not None else None
        if value is None or not Decimal(0) <= value <= Decimal(1):
            failed.append(str(c.get("action_no")))
    return failed


@CHECKS.register("C04", "`overdue_hours`를 `sent_at` − `received_at`(시간) − `max_reply_hours`로 다시 계산해 소수 둘째 자리까지 반올림한 값과 같은지, 0 이하이거나 `reply_deadline`이 비면 `null`인지 봅니다.")
def overdue_recomputed(ctx: CheckContext):
    """답한 메일(대화에서 `sent_at`과 같거나 그 전에 받은 가장 늦은 메일)을 다시 찾습니다. 그 메일부터
    `sent_at`까지의 시간에서 종류의 `max_reply_hours`를 빼고 소수 둘째 자리까지 반올림한 값이 판정과 상관없이
    카드의 `overdue_hours`여야 하고, 그 값이 양수가 아니거나 메일에 `reply_deadline`이 없으면 `null`이어야
    합니다. 시간을 다시 계산할 수 없는 카드는 이 칸을 `null`로 두어야 합니다.
    """
    failed = []
    for c in ctx.cards:
        known, expected = ctx.overdue(c)
        got = c.get("overdue_hours")
        if expected is None:
            if got is not None:
                failed.append(str(c.get("action_no")))
        elif _number(got) is None or _number(got) != expected:
            failed.append(str(c.get("action_no")))
    return failed


@CHECKS.register("C05", "`low_confidence`를 `confidence < min_confidence`로 다시 계산하고, `needs_confirm`이 참이면 확인 받아야 하는데 그냥 보냄으로 갔는지, 거짓이면 판정은 그대로 두고 이 칸만 참인지 맞춰 봅니다.")
def low_confidence_recomputed(ctx: CheckContext):
    """판정과 상관없이, 확신도(`confidence`)가 그 종류의 `min_confidence`보다 낮을 때에만 낮은
    확신도(`low_confidence`)가 참입니다(최솟값이 비었으면 거짓). 확신도가 낮고 확인 필요(`needs_confirm`)가
    참인 종류에서 확인자(`confirmed_by`)가 없으면, 앞선 규칙(지어냄, 두 번 답장)이 카드를 가져가지 않은 한
    확인 받아야 하는데 그냥 보냄 판정을 받습니다. 확인 필요가 거짓이면 이 판정을 받지 않습니다.
    """
    failed = []
    for c in ctx.cards:
        key = str(c.get("action_no"))
        expected = ctx.low_confidence(c)
        if expected is None or c.get("low_confidence") is not expected:
            failed.append(key)
            continue
        found = ctx.find(c)
        needs = parse_bool(found.policy.raw.get("needs_confirm") or "") if found.policy is not None else None
        minimum = parse_decimal(found.policy.raw.get("min_confidence")) if found.policy is not None else None
        no_minimum = minimum is None or not Decimal(0) <= minimum <= Decimal(1)
        confirmed = found.action.raw.get("confirmed_by") if found.action is not None else None
        fires = needs is True and expected and not confirmed
        verdict = c.get("verdict")
        if verdict == UNCONFIRMED and not fires and needs is not None and not no_minimum:
            failed.append(key)
        if fires and verdict in (LATE, AS_ORIGINAL):
            failed.append(key)
    return failed


CHECKS.add(CARD_CHECKS.evidence_field_check("C06", "`evidence`의 `field`가 세 데이터셋(`agent_action`, `mailbox_thread`, `action_policy`)의 열에 실재하는지 확인합니다."))


def _quote_failures(ctx: CheckContext) -> list[str]:
    failed = []
    for c in ctx.cards:
        evidence = c.get("evidence")
        if not isinstance(evidence, list):
            continue
        for item in evidence:
            if not isinstance(item, dict) or "quote" not in item:
                continue
            # any JSON value (None when absent: a lookup with it finds nothing)
            quote: Any = item.get("quote")
            name: Any = item.get("field")
            source: Any = item.get("source")
            line = item.get("line")
            if line is not None:
                rows = ctx.row_index().get((source, line), [])
            else:
                rows = ctx.rows_for(c, source)
            if not isinstance(quote, str) or not any(r.get(name) == quote for r in rows):
                failed.append(str(c.get("action_no")))
                break
    return failed


@CHECKS.register("C07", "`evidence`의 `quote`가 인용한 행의 원문 그대로이고, `agg`가 없는 `value`가 그 행의 값과 같은지 확인합니다.")
def quotes_verbatim(ctx: CheckContext):
    """근거의 인용(`quote`)은 모두 인용한 칸의 글(`line` 필드의 줄, 없으면 카드의 줄)과 입력에 적힌 그대로 한
    글자도 다르지 않아야 합니다. 또 모든 분야에서 그렇듯이, 집계 표시 `agg`가 없는 `value`는 그 칸을
    형식대로 읽은 값이고, 여러 줄에서 센 값에는 `agg`가 붙습니다.
    """
    values = CARD_CHECKS.sweep(ctx)["value"]
    return sorted(set(values) | set(_quote_failures(ctx)))


CHECKS.add(CARD_CHECKS.polite_check("C08", "`summary` 값이 존댓말로 끝나는지(`hedge` 값이 있으면 `hedge`도) 확인합니다.",
                                    one_sentence=False))


@CHECKS.register("C09", "답한 메일의 `reply_deadline`이 비어 있으면 `overdue_hours`가 `null`인지 확인합니다(성립 사례 `TH-1048`, 불성립 사례 `ACT-20260303-004`).")
def no_deadline_no_overdue(ctx: CheckContext):
    """명세의 조건부 규칙입니다. 답한 메일의 회신 기한(`reply_deadline`)이 비었으면 상대가 기한을 두지 않은
    것이므로, 답장이 얼마나 늦었든 늦은 시간(`overdue_hours`)은 `null`입니다.
    """
    failed = []
    for c in ctx.cards:
        found = ctx.find(c)
        if found.message is not None and found.message.raw.get("reply_deadline") is None and c.get("overdue_hours") is not None:
            failed.append(str(c.get("action_no")))
    return failed
