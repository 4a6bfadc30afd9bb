"""The verdict rules of the mail domain, in the seed's order of precedence (first match
wins): made up, twice, unconfirmed, late, as the original.

The order is how much the user must go back to the other person: a made-up fact needs a
correction mail, a second reply an apology, a late reply is already out.  Each rule
owns its predicate (:meth:`test`), its evidence and its sentence (:meth:`write`, through
:mod:`.templates`).  A rule that needs a value the input has but cannot read answers
:class:`~verdicts.engine.Missing`: the card is withheld there (the book's policy is
``hold``, the seed gives such a card no verdict), its reason naming the value and its
place.  ``overdue_hours`` and ``low_confidence``
are filled whatever the verdict; a second reason that also applied, and a low
confidence that changed no verdict, are hedges.
"""

from __future__ import annotations

from typing import Any

from verdicts.engine import Decision, Draft, HeldCell, Missing, Rule, RuleBook, Withhold, withhold_cells
from verdicts.numbers import as_number, parse_decimal
from verdicts.tables import Row, parse_bool

from . import templates as T
from .analysis import ActionFacts, action_facts
from .model import AS_ORIGINAL, CARD_FIELDS, LATE, MADE_UP, TWICE, UNCONFIRMED, Mailbox

__all__ = ["RULES", "BOOK", "build_card", "build_cards", "cell_value"]

_NUMERIC = {"confidence", "extracted_amount", "body_amount", "max_reply_hours", "min_confidence"}
_AMOUNT = {"extracted_amount", "body_amount"}


def cell_value(column: str, text: str | None) -> Any:
    """The value an evidence item shows for a cell: numbers as numbers (an integer when
    written without a decimal point), ``needs_confirm`` as a bool, other text verbatim,
    ``None`` for an empty cell."""
    if text is None:
        return None
    if column == "needs_confirm":
        value = parse_bool(text)
        return text if value is None else value
    if column in _NUMERIC:
        cleaned = text.strip()
        if column in _AMOUNT:
            cleaned = cleaned.removeprefix("₩").removesuffix("원").strip()
        number = parse_decimal(cleaned)
        if number is not None:
            plain = cleaned.replace(",", "")
            if number == number.to_integral_value() and "." not in plain and "e" not in plain.lower():
                return int(number)
            return float(number)
    return text


class _Cite:
    """Evidence for one card (onto ``draft.evidence``): a cell of a cited row, with its
    table and line, the verbatim text as ``quote`` where the card quotes it."""

    def __init__(self, mailbox: Mailbox, draft: Draft):
        self.mailbox = mailbox
        self.items = draft.evidence

    def cell(self, table: str, row: Row, column: str, *, quote: bool = False) -> None:
        if not self.mailbox.has(table, column):
            return
        text = row.raw.get(column)
        item: dict[str, Any] = {"source": table, "field": column, "value": cell_value(column, text)}
        if quote and text is not None:
            item["quote"] = text
        item["line"] = row.line
        if item not in self.items:
            self.items.append(item)

    def action(self, f: ActionFacts, column: str, *, quote: bool = False) -> None:
        self.cell("agent_action", f.action.row, column, quote=quote)

    def message(self, f: ActionFacts, column: str, *, quote: bool = False) -> None:
        self.cell("mailbox_thread", f.message.row, column, quote=quote)

    def policy(self, f: ActionFacts, column: str) -> None:
        self.cell("action_policy", f.policy.row, column)

    def count(self, column: str, value: int) -> None:
        self.items.append({"source": "agent_action", "field": column, "agg": "count", "value": value})

    def timing(self, f: ActionFacts) -> None:
        """The three inputs of ``overdue_hours``, as they are (and the deadline)."""
        self.message(f, "received_at")
        self.action(f, "sent_at")
        self.message(f, "reply_deadline")
        self.policy(f, "max_reply_hours")

    def confidence(self, f: ActionFacts) -> None:
        self.action(f, "confidence")
        self.policy(f, "min_confidence")


def _common(f: ActionFacts, ev: _Cite) -> None:
    ev.action(f, "action_no", quote=True)
    # how the importer chose among several amounts or days, when it said so
    if (f.action.row.raw.get("extracted_note") or "").strip():
        ev.action(f, "extracted_note", quote=True)
    if f.message is not None and (f.message.row.raw.get("body_note") or "").strip():
        ev.message(f, "body_note", quote=True)
    # which thread the reply and the message it answers were put in, by what key and how
    # (written by the importer: verdicts.mail.threads)
    for column in ("thread_key", "thread_by"):
        if (f.action.row.raw.get(column) or "").strip():
            ev.action(f, column, quote=True)
    for column in ("thread_key", "thread_by"):
        if f.message is not None and (f.message.row.raw.get(column) or "").strip():
            ev.message(f, column, quote=True)


class MadeUp(Rule[Mailbox, ActionFacts]):
    """메일에 없는 사실 지어냄 — 에이전트가 보낸 메일에 받은 메일에 없는 금액이나 날짜가 적혀 있습니다.

    잡는 것:
        처리에 뽑아 적은 금액(`extracted_amount`)이나 기한(`extracted_due_date`)이 채워져 있는데, 답한 메일
        본문의 금액(`body_amount`)이나 기한(`body_due_date`)은 비었거나 다른 처리를 잡습니다. 답한 메일은
        대화에서 보낸 시각(`sent_at`)과 같거나 그 전에 받은 메일 가운데 가장 늦은 것입니다. 금액은 수로
        견주고(`1200000` = `1200000.0` = `1,200,000`), 날짜는 날로 견줍니다(`2026-03-04` = `2026.3.4`).
    왜 문제인가:
        상대가 쓴 적 없는 사실이 사용자의 이름으로 나갔습니다. 되돌리려면 정정 메일을 보내야 하므로 다섯 결과
        가운데 바로잡는 값이 가장 큽니다.
    예시:
        답장은 기한을 2026-03-14라고 하는데 받은 메일은 2026-03-04라고 합니다. 또는 받은 메일에는 금액이 없는데
        답장이 1,200,000원을 말합니다.
    고치는 법:
        원래 메일의 값으로 정정 메일을 보내고, 에이전트가 답하는 메일에서만 값을 인용하게 하세요.
    """

    verdict, code = MADE_UP, "made-up"
    templates = (T.made_up, T.hedge_sure_but_made_up)

    def test(self, mailbox, f):
        if f.invented:
            return True
        if f.compare_unknown:
            return Missing(f.compare_unknown)
        return False

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        for item in f.invented:
            ev.action(f, item.column)
            ev.message(f, item.body_column)
        ev.action(f, "confidence")
        ev.message(f, "subject", quote=True)
        draft.summary = T.made_up(counterpart=f.counterpart, kind=f.action.action_kind,
                                  invented=[(i.column, i.sent, i.original) for i in f.invented])
        if f.action.confidence == 1:
            draft.hedge(T.hedge_sure_but_made_up(confidence=f.action.confidence))


def _minutes(f: ActionFacts) -> int:
    delta = f.action.sent_at - f.earlier[-1].sent_at
    return int(delta.total_seconds() // 60)


class Twice(Rule[Mailbox, ActionFacts]):
    """같은 대화에 두 번 답장 — 받은 메일 하나에 두 번째로 답했습니다.

    잡는 것:
        같은 대화의 앞선 처리가 이 처리가 답하는 메일 뒤에 이미 나간 처리를 잡습니다. 두 답장 사이에 새 메일이
        오지 않은 경우입니다. 판정은 뒤의 답장이 받고, 근거에는 두 처리 번호(`action_no`)와 답장 수가 나옵니다.
    왜 문제인가:
        상대는 메일 하나에 답을 둘 받았고, 둘이 서로 다른 말을 할 수도 있습니다. 사용자는 어느 쪽이 유효한지
        설명해야 합니다.
    예시:
        집주인이 19:30에 보낸 메일에 08:02와 08:41에 두 번 답했고, 그 사이에 받은 메일이 없습니다.
    고치는 법:
        에이전트가 다시 답하기 전에 대화에서 보낸 메일을 살피게 하세요. 후속 답장은 새 메일이 올 때까지
        기다립니다.
    """

    verdict, code = TWICE, "twice"
    templates = (T.twice, T.hedge_also_twice)

    def test(self, mailbox, f):
        return bool(f.earlier)

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)  # first: the card's own row is where SARIF and GitHub point
        for earlier in f.earlier:
            ev.cell("agent_action", earlier.row, "action_no", quote=True)
        ev.count("action_no", f.replies)
        ev.message(f, "received_at")
        for earlier in f.earlier:
            ev.cell("agent_action", earlier.row, "sent_at")
        ev.action(f, "sent_at")
        draft.summary = T.twice(counterpart=f.counterpart, replies=f.replies, previous=f.earlier[-1].action_no,
                                minutes=_minutes(f))


class Unconfirmed(Rule[Mailbox, ActionFacts]):
    """확인 받아야 하는데 그냥 보냄 — 사람의 확인이 필요한 종류인데 확신도가 낮은 채 확인 없이 나갔습니다.

    잡는 것:
        확인 필요(`needs_confirm`)가 참인 종류이고, 확신도(`confidence`)가 그 종류의 최소
        확신도(`min_confidence`)보다 낮으며(`low_confidence`), 확인자(`confirmed_by`)가 빈 처리를 잡습니다.
        확인자 칸이 채워져 있으면 보내기 전에 사람이 보았다는 뜻입니다.
    왜 문제인가:
        정책은 바로 이런 경우를 위해 에이전트와 상대 사이에 사람을 두었는데, 에이전트가 그 사람을
        건너뛰었습니다.
    예시:
        결제 답장(`needs_confirm` 참, 최소 0.70)이 확신도 0.42로, `confirmed_by`에 아무도 없이 나갔습니다.
    고치는 법:
        누군가 확인할 때까지 그런 메일을 임시 보관함에 두고, 누가 확인했는지 기록하세요.
    """

    verdict, code = UNCONFIRMED, "unconfirmed"
    templates = (T.unconfirmed, T.hedge_also_unconfirmed)

    def test(self, mailbox, f):
        if f.action.confirmed_by:
            return False
        needs = f.policy.needs_confirm
        if needs is False:
            return False
        missing = []
        if needs is None:
            if f.low_confidence is False:
                return False
            missing.append("action_policy.needs_confirm")
        if f.low_confidence is None:
            missing.append("action_policy.min_confidence")
        if missing:
            return Missing(tuple(missing))
        return f.low_confidence

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        ev.confidence(f)
        ev.policy(f, "needs_confirm")
        ev.action(f, "confirmed_by")
        ev.action(f, "sent_at")
        draft.summary = T.unconfirmed(counterpart=f.counterpart, kind=f.action.action_kind, confidence=f.action.confidence,
                                      minimum=f.policy.min_confidence)


class Late(Rule[Mailbox, ActionFacts]):
    """회신 기한 넘겨 처리 — 종류별 회신 시간을 넘겨 답장이 나갔습니다.

    잡는 것:
        늦은 시간(`overdue_hours`)이 양수인 처리를 잡습니다. 늦은 시간은 답한 메일을 받은 때(`received_at`)부터
        보낸 때(`sent_at`)까지의 시간에서 그 종류의 회신 시간(`max_reply_hours`)을 빼고 소수 둘째 자리까지
        반올림한 값입니다(`0.125` → `0.13`). 답한 메일에 회신 기한(`reply_deadline`)이 없으면 상대가 기한을 두지
        않은 것이므로 늦은 시간은 `null`로 둡니다.
    왜 문제인가:
        상대가 사용자가 약속한 것보다 오래 기다렸습니다. 답장은 이미 나갔으니 바로잡는 값은 가장 작지만 알아 둘
        만합니다.
    예시:
        15:00에 받고 다음 날 09:00에 답했습니다. 회신 시간 6시간에 18시간이 걸려 12시간 늦었습니다.
    고치는 법:
        에이전트가 종류별 회신 시간 안에 답하게 하거나, 그럴 수 없으면 사용자에게 일찍 알리게 하세요.
    """

    verdict, code = LATE, "late"
    templates = (T.late, T.hedge_also_late)

    def test(self, mailbox, f):
        if f.late_unknown:
            return Missing(f.late_unknown)
        return f.overdue_hours is not None and f.overdue_hours > 0

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        ev.timing(f)
        draft.summary = T.late(counterpart=f.counterpart, kind=f.action.action_kind, elapsed=f.elapsed,
                               limit=f.policy.max_reply_hours, over=f.overdue_hours)


class AsOriginal(Rule[Mailbox, ActionFacts]):
    """원문대로 나감 — 위의 어느 규칙도 걸리지 않았고, 메일이 원문에 맞게 나갔습니다.

    잡는 것:
        잘못된 것은 없습니다. 에이전트가 쓴 값은 모두 답한 메일에 있고, 그 메일에 대한 첫 답장이며, 필요한
        확인을 빠뜨리지 않았고, 회신 시간 안에 나갔습니다(또는 상대가 기한을 두지 않았습니다).
    왜 문제인가:
        문제가 아닙니다. 다시 보낼 것이 없습니다. 확인이 필요 없는 종류에서 확신도가 낮으면 그 사실은 여전히
        `low_confidence`와 단서에 나와 사용자가 살펴볼 수 있습니다.
    예시:
        금액도 날짜도 없는 답장이 메일을 받고 2시간 30분 뒤에 나갔고, 회신 시간은 6시간입니다.
    고치는 법:
        할 일이 없습니다.
    """

    verdict, code = AS_ORIGINAL, "as-original"
    templates = (T.as_original,)

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        kept = []
        for column, body, value in (("extracted_amount", "body_amount", f.action.amount),
                                    ("extracted_due_date", "body_due_date", f.action.due_date)):
            if value is not None:
                ev.action(f, column)
                ev.message(f, body)
                kept.append((column, value))
        if not kept:
            ev.action(f, "extracted_amount")
            ev.action(f, "extracted_due_date")
        ev.confidence(f)
        ev.policy(f, "needs_confirm")
        ev.timing(f)
        draft.summary = T.as_original(counterpart=f.counterpart, kind=f.action.action_kind, kept=kept,
                                      deadline=f.message.deadline_stated,
                                      elapsed_minutes=int((f.action.sent_at - f.message.received_at).total_seconds() // 60),
                                      limit=f.policy.max_reply_hours)


RULES: tuple[Rule, ...] = (MadeUp(), Twice(), Unconfirmed(), Late(), AsOriginal())

#: what a rule could not tell when a value it needs cannot be read
_QUESTION = {MADE_UP: "보낸 값이 원문에 있는지", UNCONFIRMED: "사람 확인이 필요했는지", LATE: "회신 기한을 넘겼는지"}
_ROW = {"agent_action": "action", "mailbox_thread": "message", "action_policy": "policy"}


def _hold(mailbox: Mailbox, f: ActionFacts, rule: Rule, missing: tuple[str, ...]) -> Withhold:
    """The card of an action whose ``rule`` needs values it cannot read: withheld, its
    reason naming each value by table, line and column (the seed gives no verdict)."""
    draft = Draft(Decision(rule))
    ev = _Cite(mailbox, draft)
    _common(f, ev)
    cells = []
    for item in missing:
        table, column = item.split(".")
        row = getattr(f, _ROW[table]).row
        t = mailbox.tables.get(table)
        cells.append(HeldCell(table, row.line, column, row.raw.get(column), present=mailbox.has(table, column),
                              file=t.file if t is not None else None))
        ev.cell(table, row, column)
    return withhold_cells(cells, _QUESTION[rule.verdict], "이 처리", draft.evidence)


def _hedges(mailbox: Mailbox, f: ActionFacts, draft: Draft) -> None:
    """What holds whatever the verdict: a later reason that also applied (its hours stay
    in ``overdue_hours``), and a low confidence that changed no verdict."""
    ev = _Cite(mailbox, draft)
    rule = draft.decision.rule
    after = RULES[RULES.index(rule) + 1:-1]
    for later in after:
        if later.test(mailbox, f) is not True:
            continue
        if later.verdict == TWICE:
            draft.hedge(T.hedge_also_twice(previous=f.earlier[-1].action_no))
        elif later.verdict == UNCONFIRMED:
            assert f.policy.min_confidence is not None  # the rule fires on a low confidence only
            ev.confidence(f)
            draft.hedge(T.hedge_also_unconfirmed(confidence=f.action.confidence, minimum=f.policy.min_confidence))
        elif later.verdict == LATE:
            assert f.overdue_hours is not None  # the rule fires on overdue hours only
            draft.hedge(T.hedge_also_late(over=f.overdue_hours))
    if f.overdue_hours is not None:
        ev.timing(f)
    if rule.verdict != UNCONFIRMED:
        if f.low_confidence is None:
            draft.hedge(T.hedge_min_unknown())
        elif f.low_confidence:
            assert f.policy.min_confidence is not None  # else low_confidence is None
            ev.confidence(f)
            ev.policy(f, "needs_confirm")
            if f.action.confirmed_by:
                ev.action(f, "confirmed_by")
                draft.hedge(T.hedge_confirmed_by(confidence=f.action.confidence, minimum=f.policy.min_confidence,
                                                 who=f.action.confirmed_by))
            elif f.policy.needs_confirm is False:
                draft.hedge(T.hedge_low_confidence(confidence=f.action.confidence, minimum=f.policy.min_confidence))


BOOK: RuleBook[Mailbox, ActionFacts] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="hold", hold=_hold, hedges=_hedges)


def build_card(mailbox: Mailbox, f: ActionFacts) -> dict[str, Any]:
    """The card of one action (the schema-shaped dict)."""
    values = {
        "action_no": f.action.action_no, "thread_id": f.action.thread_id, "counterpart": f.counterpart,
        "overdue_hours": as_number(f.overdue_hours), "low_confidence": bool(f.low_confidence),
    }
    card = BOOK.card(mailbox, f, values)
    assert card is not None  # on_missing="hold": a card that cannot be judged is withheld, never dropped
    return card


def build_cards(mailbox: Mailbox) -> list[dict[str, Any]]:
    """One card per judged action, in the row order of ``agent_action``."""
    return [build_card(mailbox, action_facts(mailbox, action)) for action in mailbox.actions]


def decide(mailbox: Mailbox, f: ActionFacts) -> Decision:
    return BOOK.decide(mailbox, f)
