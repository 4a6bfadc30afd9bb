"""The verdict rules of the mail domain, in the seed's order of precedence (first match
wins): made up, twice, unconfirmed, late, as the original.

The order is how much the user must go back to the other person: a made-up fact needs a
correction mail, a second reply an apology, a late reply is already out.  Each rule
owns its predicate (:meth:`test`), its evidence and its sentence (:meth:`write`, through
:mod:`.templates`).  A rule that needs a value the input has but cannot read answers
:class:`~verdicts.engine.Missing`: the verdict stops there (the book's policy is
``stop``) and the sentence names the value.  ``overdue_hours`` and ``low_confidence``
are filled whatever the verdict; a second reason that also applied, and a low
confidence that changed no verdict, are hedges.
"""

from __future__ import annotations

from typing import Any

from verdicts.engine import Decision, Draft, Missing, Rule, RuleBook
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


class MadeUp(Rule[Mailbox, ActionFacts]):
    """메일에 없는 사실 지어냄 — the agent's mail states an amount or a date the original does not.

    What it flags:
        An action whose ``extracted_amount`` or ``extracted_due_date`` is filled while
        the answered message's ``body_amount`` / ``body_due_date`` is empty or
        different.  The answered message is the latest received message of the thread
        at or before ``sent_at``.  Amounts are compared as numbers (``1200000`` =
        ``1200000.0`` = ``1,200,000``), dates as days (``2026-03-04`` = ``2026.3.4``).
    Why it matters:
        A fact the other side never wrote went out in the user's name; it takes a
        correction mail to undo, the most costly of the five outcomes.
    Example:
        The reply says the deadline is 2026-03-14, the received mail says 2026-03-04;
        or the reply names 1,200,000 won where the received mail names no amount.
    Instead:
        Send a correction with the original's value, and have the agent quote values
        only from the message it answers.
    """

    verdict, code = MADE_UP, "made-up"
    templates = (T.made_up, T.values_unreadable, T.hedge_sure_but_made_up)

    def test(self, mailbox, f):
        if f.invented:
            return True
        if f.compare_unknown:
            return Missing(f.compare_unknown)
        return False

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        if draft.missing:
            for item in draft.missing:
                table, column = item.split(".")
                ev.cell(table, f.action.row if table == "agent_action" else f.message.row, column)
            draft.summary = T.values_unreadable(counterpart=f.counterpart, kind=f.action.action_kind,
                                                cells=[m.split(".")[1] for m in draft.missing])
            return
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
    """같은 대화에 두 번 답장 — a second reply to the same received message.

    What it flags:
        An action of a thread where an earlier action of the same thread was sent after
        the message this one answers: no new message arrived between the two replies.
        The later reply gets the verdict; the evidence cites both ``action_no`` values
        and the number of replies.
    Why it matters:
        The other side got two answers to one mail, possibly saying different things;
        the user has to explain which one holds.
    Example:
        Two replies to the landlord's mail of 19:30, at 08:02 and 08:41, with nothing
        received in between.
    Instead:
        Let the agent look at the thread's sent mail before replying again; a follow-up
        waits for a new message.
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
    """확인 받아야 하는데 그냥 보냄 — a kind that needs a person's confirmation went out on a low confidence without one.

    What it flags:
        An action whose kind has ``needs_confirm`` true, whose ``confidence`` is below
        the kind's ``min_confidence`` (``low_confidence``), and whose ``confirmed_by``
        is empty.  A filled ``confirmed_by`` means a person looked before sending.
    Why it matters:
        The policy put a person between the agent and the other side for exactly this
        case, and the agent skipped that person.
    Example:
        A payment reply (``needs_confirm`` true, minimum 0.70) sent on a confidence of
        0.42 with nobody in ``confirmed_by``.
    Instead:
        Hold such mail as a draft until someone confirms it, and record who did.
    """

    verdict, code = UNCONFIRMED, "unconfirmed"
    templates = (T.unconfirmed, T.confirm_unknown, T.hedge_also_unconfirmed)

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
        if draft.missing:
            draft.summary = T.confirm_unknown(counterpart=f.counterpart, kind=f.action.action_kind,
                                              cells=[m.split(".")[1] for m in draft.missing], confidence=f.action.confidence)
            return
        draft.summary = T.unconfirmed(counterpart=f.counterpart, kind=f.action.action_kind, confidence=f.action.confidence,
                                      minimum=f.policy.min_confidence)


class Late(Rule[Mailbox, ActionFacts]):
    """회신 기한 넘겨 처리 — the reply went out after the kind's reply time.

    What it flags:
        An action whose ``overdue_hours`` is a positive number: the hours from the
        answered message's ``received_at`` to ``sent_at``, less the kind's
        ``max_reply_hours``, rounded half up to two decimals (``0.125`` → ``0.13``).
        When the answered message states no ``reply_deadline`` the other side set no
        deadline, and ``overdue_hours`` stays null.
    Why it matters:
        The other side waited longer than the user promised; the reply is already out,
        so it costs the least to mend, but it is worth knowing.
    Example:
        Received at 15:00, answered at 09:00 the next day: 18 hours against a reply
        time of 6, 12 hours late.
    Instead:
        Have the agent answer within the kind's reply time, or tell the user early
        that it cannot.
    """

    verdict, code = LATE, "late"
    templates = (T.late, T.late_unknown, T.hedge_also_late)

    def test(self, mailbox, f):
        if f.late_unknown:
            return Missing(f.late_unknown)
        return f.overdue_hours is not None and f.overdue_hours > 0

    def write(self, mailbox, f, draft):
        ev = _Cite(mailbox, draft)
        _common(f, ev)
        ev.timing(f)
        if draft.missing:
            draft.summary = T.late_unknown(counterpart=f.counterpart, kind=f.action.action_kind, elapsed=f.elapsed,
                                           cells=[m.split(".")[1] for m in draft.missing])
            return
        draft.summary = T.late(counterpart=f.counterpart, kind=f.action.action_kind, elapsed=f.elapsed,
                               limit=f.policy.max_reply_hours, over=f.overdue_hours)


class AsOriginal(Rule[Mailbox, ActionFacts]):
    """원문대로 나감 — no rule above fired: the mail went out true to the original.

    What it flags:
        Nothing wrong: every value the agent wrote is in the answered message, it is
        the first reply to that message, it needed no confirmation it lacked, and it
        went out within the reply time (or the other side set no deadline).
    Why it matters:
        Nothing to send again; a low confidence on a kind that needs no confirmation
        still shows in ``low_confidence`` and the hedge, for the user to look at.
    Example:
        A reply with no amount or date, sent 2.5 hours after the message against a
        reply time of 6 hours.
    Instead:
        Nothing to do.
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

#: the word each step goes by in a hedge that lists the steps not looked at
_STEP = {MADE_UP: "지어냄", TWICE: "두 번 답장", UNCONFIRMED: "확인 누락", LATE: "회신 기한"}


def _stopped(mailbox: Mailbox, f: ActionFacts, draft: Draft) -> None:
    """Which values stopped the verdict, and which later steps were not looked at."""
    if draft.missing:
        later = RULES[RULES.index(draft.decision.rule) + 1:-1]
        draft.hedge(T.hedge_stopped(cells=[m.split(".")[1] for m in draft.missing], later=[_STEP[r.verdict] for r in later]))


def _hedges(mailbox: Mailbox, f: ActionFacts, draft: Draft) -> None:
    """What holds whatever the verdict: a later reason that also applied (its hours stay
    in ``overdue_hours``), and a low confidence that changed no verdict."""
    ev = _Cite(mailbox, draft)
    rule = draft.decision.rule
    after = RULES[RULES.index(rule) + 1:-1]
    if not draft.missing:
        for later in after:
            if later.test(mailbox, f) is not True:
                continue
            if later.verdict == TWICE:
                draft.hedge(T.hedge_also_twice(previous=f.earlier[-1].action_no))
            elif later.verdict == UNCONFIRMED:
                ev.confidence(f)
                draft.hedge(T.hedge_also_unconfirmed(confidence=f.action.confidence, minimum=f.policy.min_confidence))
            elif later.verdict == LATE:
                draft.hedge(T.hedge_also_late(over=f.overdue_hours))
    if f.overdue_hours is not None:
        ev.timing(f)
    if rule.verdict != UNCONFIRMED:
        if f.low_confidence is None:
            draft.hedge(T.hedge_min_unknown())
        elif f.low_confidence:
            ev.confidence(f)
            ev.policy(f, "needs_confirm")
            if f.action.confirmed_by:
                ev.action(f, "confirmed_by")
                draft.hedge(T.hedge_confirmed_by(confidence=f.action.confidence, minimum=f.policy.min_confidence,
                                                 who=f.action.confirmed_by))
            elif f.policy.needs_confirm is False:
                draft.hedge(T.hedge_low_confidence(confidence=f.action.confidence, minimum=f.policy.min_confidence))


BOOK: RuleBook[Mailbox, ActionFacts] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="stop", lead=_stopped, hedges=_hedges)


def build_card(mailbox: Mailbox, f: ActionFacts) -> dict[str, Any]:
    """The card of one action (the schema-shaped dict)."""
    values = {
        "action_no": f.action.action_no, "thread_id": f.action.thread_id, "counterpart": f.counterpart,
        "overdue_hours": as_number(f.overdue_hours), "low_confidence": bool(f.low_confidence),
    }
    return BOOK.card(mailbox, f, values)


def build_cards(mailbox: Mailbox) -> list[dict[str, Any]]:
    """One card per judged action, in the row order of ``agent_action``."""
    return [build_card(mailbox, action_facts(mailbox, action)) for action in mailbox.actions]


def decide(mailbox: Mailbox, f: ActionFacts) -> Decision:
    return BOOK.decide(mailbox, f)
