"""The typed mailbox round: the agent's actions, the received messages, the policy of
each kind of action, and the mail card.

Verdict labels are verbatim from the seed's JSON Schema, in the seed's order of
precedence (first match wins).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from decimal import Decimal
from typing import ClassVar

from verdicts.model import Card, InputIssue, SourceInfo
from verdicts.tables import Column, Row, TableSpec, TypedTable

__all__ = [
    "MADE_UP", "TWICE", "UNCONFIRMED", "LATE", "AS_ORIGINAL", "VERDICTS", "AGGS",
    "AGENT_ACTION", "MAILBOX_THREAD", "ACTION_POLICY", "TABLE_SPECS", "CARD_FIELDS",
    "Action", "Message", "Policy", "Mailbox", "MailCard", "DEFAULT_TIME_ZONE", "DEFAULT_SUBJECT_WINDOW_DAYS",
]

# Verdicts, verbatim from the seed, in the order of precedence.
MADE_UP = "메일에 없는 사실 지어냄"
TWICE = "같은 대화에 두 번 답장"
UNCONFIRMED = "확인 받아야 하는데 그냥 보냄"
LATE = "회신 기한 넘겨 처리"
AS_ORIGINAL = "원문대로 나감"
VERDICTS: tuple[str, ...] = (MADE_UP, TWICE, UNCONFIRMED, LATE, AS_ORIGINAL)

#: the aggregations an evidence item may name (the schema's enum)
AGGS: tuple[str, ...] = ("count",)

AGENT_ACTION = TableSpec(
    "agent_action",
    (
        Column("action_no", "str", required=True),
        Column("thread_id", "str", required=True),
        Column("action_kind", "str", required=True),
        Column("sent_at", "str", required=True),
        Column("confidence", "str", required=True),
        Column("extracted_amount"),
        Column("extracted_due_date"),
        Column("confirmed_by", optional=True),
        # written by the importer when the sent body held several amounts or days
        Column("extracted_note", optional=True),
        # written by the importer: the key the mail was threaded by, and how (verdicts.mail.threads)
        Column("thread_key", optional=True),
        Column("thread_by", optional=True),
    ),
    key="action_no",
)
MAILBOX_THREAD = TableSpec(
    "mailbox_thread",
    (
        Column("thread_id", "str", required=True),
        Column("counterpart"),
        Column("subject"),
        Column("received_at", "str", required=True),
        Column("reply_deadline"),
        Column("body_amount"),
        Column("body_due_date"),
        # written by the importer when the body held several amounts or days
        Column("body_note", optional=True),
        # written by the importer: the key the mail was threaded by, and how (verdicts.mail.threads)
        Column("thread_key", optional=True),
        Column("thread_by", optional=True),
    ),
)
ACTION_POLICY = TableSpec(
    "action_policy",
    (
        Column("action_kind", "str", required=True),
        Column("max_reply_hours"),
        Column("min_confidence"),
        Column("needs_confirm", "bool"),
    ),
    key="action_kind",
)
TABLE_SPECS = (AGENT_ACTION, MAILBOX_THREAD, ACTION_POLICY)


@dataclass
class Message:
    """One received message.  ``deadline_stated`` is whether ``reply_deadline`` has any
    text; ``deadline`` is ``None`` when it is empty or unreadable (``deadline_unreadable``).
    ``amount`` / ``due_date`` are ``None`` when empty or unreadable (``unreadable`` names
    those columns)."""

    thread_id: str
    counterpart: str | None
    subject: str | None
    received_at: datetime
    deadline_stated: bool
    deadline: datetime | None
    amount: Decimal | None
    due_date: date | None
    unreadable: frozenset[str]
    row: Row

    @property
    def line(self) -> int:
        return self.row.line


@dataclass
class Action:
    """One mail the agent sent.  ``amount`` / ``due_date`` are what it put in its mail
    (``None`` when empty or unreadable, ``unreadable`` naming those columns)."""

    action_no: str
    thread_id: str
    action_kind: str
    sent_at: datetime
    confidence: Decimal
    amount: Decimal | None
    due_date: date | None
    confirmed_by: str | None
    unreadable: frozenset[str]
    row: Row

    @property
    def line(self) -> int:
        return self.row.line


@dataclass
class Policy:
    """The limits of one kind of action; ``None`` when the cell is empty or unreadable."""

    action_kind: str
    max_reply_hours: Decimal | None
    min_confidence: Decimal | None
    needs_confirm: bool | None
    row: Row


@dataclass
class Mailbox:
    """One round as read: the actions that can be judged (in row order), the received
    messages of each thread (by ``received_at``), the policies, and what was wrong with
    the input."""

    actions: list[Action]
    threads: dict[str, list[Message]]
    policies: dict[str, Policy]
    issues: list[InputIssue]
    sources: list[SourceInfo]
    columns: dict[str, set[str]]
    #: every action with a readable ``sent_at`` and thread, judged or not: a reply that
    #: went out counts for "twice" even when its own card is withheld
    sent: dict[str, list[Action]] = field(default_factory=dict)
    #: the typed tables as read, for the automatic checks to recompute from
    tables: dict[str, TypedTable] = field(default_factory=dict)

    def has(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, set())


#: the card's fields, in the order of the seed's schema
CARD_FIELDS: tuple[str, ...] = (
    "action_no", "thread_id", "counterpart", "verdict", "overdue_hours", "low_confidence", "summary", "evidence", "hedge",
)


class MailCard(Card):
    """One card per judged row of ``agent_action``."""

    __slots__ = ()
    key_field: ClassVar[str] = "action_no"
    field_names: ClassVar[tuple[str, ...]] = CARD_FIELDS


#: the zone whose calendar day relative dates in a body (내일, 모레 …) are read on, and
#: imported times are written in, when neither ``--time-zone`` nor ``time_zone`` says
DEFAULT_TIME_ZONE = "Asia/Seoul"
#: how many days apart a subject (with the same counterpart) still joins two mails
DEFAULT_SUBJECT_WINDOW_DAYS = 30
