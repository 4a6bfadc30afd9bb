"""What the rules read about one action: the message it answers, how late it went out,
whether it was a second reply, and what it put in that the original did not say.

Hours are computed exactly (:class:`~fractions.Fraction` of seconds) and rounded half up
to two decimals once, with :func:`verdicts.numbers.round_half_up`.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from verdicts.numbers import round_half_up

from .model import Action, Mailbox, Message, Policy

__all__ = ["ActionFacts", "Invented", "answered_message", "elapsed_hours", "action_facts"]


@dataclass(frozen=True)
class Invented:
    """One value the agent put in its mail that the original does not say: ``column``
    (``extracted_amount`` or ``extracted_due_date``), its value, and the original's
    (``None`` when the original says nothing)."""

    column: str
    body_column: str
    sent: object
    original: object


@dataclass(frozen=True)
class ActionFacts:
    """Everything the rules may look at for one action.

    ``overdue_hours`` is ``None`` when the reply went out in time, when the answered
    message states no deadline, or when the deadline or ``max_reply_hours`` cannot be
    read (``late_unknown`` names what then stopped the late rule).  ``low_confidence``
    is ``None`` when ``min_confidence`` is unknown.
    """

    action: Action
    message: Message
    policy: Policy
    elapsed: Decimal
    overdue_hours: Decimal | None
    late_unknown: tuple[str, ...]
    low_confidence: bool | None
    invented: tuple[Invented, ...]
    compare_unknown: tuple[str, ...]
    earlier: tuple[Action, ...]

    @property
    def counterpart(self) -> str:
        return self.message.counterpart or ""

    @property
    def replies(self) -> int:
        """How many replies went out to the answered message up to this one."""
        return len(self.earlier) + 1


def answered_message(messages: list[Message], action: Action) -> Message | None:
    """The latest received message of the thread at or before ``sent_at`` (ties: the
    later row)."""
    found = None
    for message in messages:
        if message.received_at <= action.sent_at:
            found = message
        else:
            break
    return found


def elapsed_hours(message: Message, action: Action) -> Fraction:
    """Hours from receiving ``message`` to sending ``action``, exactly."""
    delta = action.sent_at - message.received_at
    seconds = delta.days * 86400 + delta.seconds
    return Fraction(seconds, 3600) + Fraction(delta.microseconds, 3600 * 10**6)


def _invented(action: Action, message: Message, mailbox: Mailbox) -> tuple[tuple[Invented, ...], tuple[str, ...]]:
    found: list[Invented] = []
    unknown: list[str] = []
    pairs = (("extracted_amount", "body_amount", action.amount, message.amount),
             ("extracted_due_date", "body_due_date", action.due_date, message.due_date))
    for column, body, sent, original in pairs:
        if column in action.unreadable:
            unknown.append(f"agent_action.{column}")
            continue
        if sent is None:
            continue
        if body in message.unreadable or not mailbox.has("mailbox_thread", body):
            unknown.append(f"mailbox_thread.{body}")
            continue
        if original is None or sent != original:
            found.append(Invented(column, body, sent, original))
    return tuple(found), tuple(unknown)


def action_facts(mailbox: Mailbox, action: Action) -> ActionFacts:
    """The facts of one judged action (its thread has a message at or before its
    ``sent_at`` and its kind has a policy: the loader made sure)."""
    message = answered_message(mailbox.threads[action.thread_id], action)
    assert message is not None
    policy = mailbox.policies[action.action_kind]
    elapsed = elapsed_hours(message, action)
    overdue: Decimal | None = None
    late_unknown: list[str] = []
    if message.deadline_stated:
        if "reply_deadline" in message.unreadable:
            late_unknown.append("mailbox_thread.reply_deadline")
        if policy.max_reply_hours is None:
            late_unknown.append("action_policy.max_reply_hours")
        if not late_unknown:
            assert policy.max_reply_hours is not None  # else late_unknown names it
            over = round_half_up(elapsed - Fraction(policy.max_reply_hours))
            overdue = over if over > 0 else None
    low = None if policy.min_confidence is None else action.confidence < policy.min_confidence
    invented, unknown = _invented(action, message, mailbox)
    earlier = tuple(a for a in mailbox.sent.get(action.thread_id, ())
                    if a is not action and (a.sent_at, a.line) < (action.sent_at, action.line)
                    and a.sent_at >= message.received_at)
    return ActionFacts(action, message, policy, round_half_up(elapsed), overdue, tuple(late_unknown), low,
                       invented, unknown, earlier)
