"""Reading one mailbox round from a folder of CSVs, an ``.xlsx`` workbook or a JSON/YAML
document into a :class:`~verdicts.mail.model.Mailbox`.

The three tables are ``agent_action``, ``mailbox_thread`` and ``action_policy`` (CSV
files or sheets named after them, or keys of the document).  Every problem becomes an
:class:`~verdicts.model.InputIssue` naming the table, line, column and reason; only
what depends on it is withheld:

* a bad ``agent_action`` row (empty or unreadable ``sent_at`` or ``confidence``, a
  ``confidence`` outside 0..1, a repeated ``action_no``, an unknown thread or kind, a
  ``sent_at`` before every received message of its thread) has no card;
* a received message with an unreadable ``received_at`` answers no action;
* an unreadable amount, day, deadline or threshold is an issue, and the rule that needs
  it stops there (the card names the value);
* a missing ``agent_action`` column, or a missing ``thread_id`` / ``received_at`` /
  ``action_kind`` column of the other tables, leaves no card at all: the issue says why.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.korean import josa
from verdicts.model import InputIssue
from verdicts.numbers import parse_decimal
from verdicts.tables import Row, TypedTable, load_typed_tables

from .model import TABLE_SPECS, Action, Mailbox, Message, Policy
from .values import read_amount, read_day, read_fraction, read_moment

__all__ = ["load_mailbox"]


def _issue(t: TypedTable, row: Row | None, column: str | None, reason: str) -> InputIssue:
    return InputIssue(file=t.file, table=t.name, line=row.line if row else None, column=column, reason=reason)


def _quoted(text: str) -> str:
    shown = text if len(text) <= 40 else text[:39] + "…"
    return f"`{shown}`"


def _unreadable(t: TypedTable, row: Row, column: str, kind: str, consequence: str, issues: list[InputIssue]) -> None:
    text = row.raw.get(column) or ""
    issues.append(_issue(t, row, column, f"`{column}` 칸의 {josa(_quoted(text), '은/는')} {kind} 아니어서 {consequence}"))


def _optional(t: TypedTable, row, column: str, read, kind: str, consequence: str, unreadable: set[str],
              issues: list[InputIssue]):
    """An optional cell read by ``read``: ``None`` when empty; when written but unreadable,
    also ``None``, the column noted in ``unreadable`` and an issue saying what follows."""
    text = row.raw.get(column)
    value = read(text)
    if text is not None and value is None:
        unreadable.add(column)
        _unreadable(t, row, column, kind, consequence, issues)
    return value


def _messages(t: TypedTable, issues: list[InputIssue]) -> dict[str, list[Message]]:
    threads: dict[str, list[Message]] = {}
    for row in t.rows:
        v = row.raw
        received = read_moment(v.get("received_at"))
        if received is None:
            _unreadable(t, row, "received_at", "날짜와 시각이", "이 메일은 어느 처리의 원문으로도 쓰지 않았습니다.", issues)
            continue
        unreadable: set[str] = set()
        deadline = _optional(t, row, "reply_deadline", read_moment, "날짜와 시각이", "이 메일에 답한 처리는 기한을 넘겼는지 가리지 못해 판정을 보류합니다.",
                             unreadable, issues)
        amount = _optional(t, row, "body_amount", read_amount, "금액이", "이 메일에 답한 처리의 금액은 견주지 못합니다.",
                           unreadable, issues)
        due = _optional(t, row, "body_due_date", read_day, "날짜가", "이 메일에 답한 처리의 날짜는 견주지 못합니다.",
                        unreadable, issues)
        thread_id = v["thread_id"]
        assert thread_id is not None  # a required column: a row with it empty was rejected
        threads.setdefault(thread_id, []).append(Message(
            thread_id=thread_id, counterpart=v.get("counterpart"), subject=v.get("subject"), received_at=received,
            deadline_stated=v.get("reply_deadline") is not None, deadline=deadline, amount=amount, due_date=due,
            unreadable=frozenset(unreadable), row=row,
        ))
    for messages in threads.values():
        messages.sort(key=lambda m: (m.received_at, m.line))
    return threads


def _policies(t: TypedTable, issues: list[InputIssue]) -> dict[str, Policy]:
    policies: dict[str, Policy] = {}
    for row in t.rows:
        v = row.raw
        hours = parse_decimal(v.get("max_reply_hours"))
        if v.get("max_reply_hours") is not None and (hours is None or hours < 0):
            hours = None
            _unreadable(t, row, "max_reply_hours", "0 이상의 숫자가", "이 종류의 처리는 기한을 넘겼는지 가리지 못해 판정을 보류합니다.", issues)
        minimum = read_fraction(v.get("min_confidence"))
        if v.get("min_confidence") is not None and minimum is None:
            _unreadable(t, row, "min_confidence", "0 이상 1 이하의 숫자가", "이 종류의 확신도는 기준과 견주지 못합니다.", issues)
        kind = v["action_kind"]
        assert kind is not None  # a required column: a row with it empty was rejected
        policies[kind] = Policy(kind, hours, minimum, row.values.get("needs_confirm"), row)
    return policies


def load_mailbox(path: str | Path) -> Mailbox:
    """Read and type one mailbox round.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    path = Path(path)
    issues: list[InputIssue] = []
    raw, typed = load_typed_tables(path, TABLE_SPECS, issues, required=[spec.name for spec in TABLE_SPECS])
    columns = {name: set(tbl.present) for name, tbl in typed.items()}

    threads_t = typed.get("mailbox_thread")
    threads_known = threads_t is not None and threads_t.has("thread_id") and threads_t.has("received_at")
    threads = _messages(threads_t, issues) if threads_t is not None and threads_known else {}
    policy_t = typed.get("action_policy")
    policies_known = policy_t is not None and policy_t.has("action_kind")
    policies = _policies(policy_t, issues) if policy_t is not None and policies_known else {}

    actions: list[Action] = []
    sent: dict[str, list[Action]] = {}
    actions_t = typed.get("agent_action")
    if actions_t is not None and not actions_t.rows and not actions_t.rejected:
        issues.append(InputIssue(file=actions_t.file, table=actions_t.name, line=1 if actions_t.form in ("csv", "xlsx") else None,
                                 reason="처리가 한 줄도 없어 판정할 대상이 없습니다."))
    needed = [c for c in actions_t.missing() if not actions_t.spec.column(c).optional] if actions_t is not None else []
    if actions_t is not None and not needed and threads_known and policies_known:
        t = actions_t
        for row in t.rows:
            v = row.raw
            sent_at = read_moment(v.get("sent_at"))
            if sent_at is None:
                _unreadable(t, row, "sent_at", "날짜와 시각이", "이 처리는 판정하지 않았습니다.", issues)
                continue
            confidence = read_fraction(v.get("confidence"))
            if confidence is None:
                _unreadable(t, row, "confidence", "0 이상 1 이하의 숫자가", "이 처리는 판정하지 않았습니다.", issues)
                continue
            unreadable: set[str] = set()
            amount = _optional(t, row, "extracted_amount", read_amount, "금액이", "이 처리의 금액은 원문과 견주지 못합니다.",
                               unreadable, issues)
            due = _optional(t, row, "extracted_due_date", read_day, "날짜가", "이 처리의 날짜는 원문과 견주지 못합니다.",
                            unreadable, issues)
            action_no, thread_id, action_kind = v["action_no"], v["thread_id"], v["action_kind"]
            # required columns: a row with one of them empty was rejected
            assert action_no is not None and thread_id is not None and action_kind is not None
            action = Action(
                action_no=action_no, thread_id=thread_id, action_kind=action_kind, sent_at=sent_at,
                confidence=confidence, amount=amount, due_date=due, confirmed_by=v.get("confirmed_by"),
                unreadable=frozenset(unreadable), row=row,
            )
            messages = threads.get(action.thread_id)
            if not messages:
                issues.append(_issue(t, row, "thread_id", f"대화 번호(`thread_id`)가 {_quoted(action.thread_id)}인 받은 메일이 "
                                                          "`mailbox_thread`에 없어 이 처리는 판정하지 않았습니다."))
                continue
            sent.setdefault(action.thread_id, []).append(action)
            if messages[0].received_at > sent_at:
                issues.append(_issue(t, row, "sent_at", f"`sent_at` {v['sent_at']} 이전에 받은 메일이 {_quoted(action.thread_id)} 대화에 없어 "
                                                        "어느 메일에 답했는지 알 수 없으므로 이 처리는 판정하지 않았습니다."))
                continue
            if action.action_kind not in policies:
                issues.append(_issue(t, row, "action_kind", f"`action_policy`에 {josa(_quoted(action.action_kind), '이/가')} 없어 "
                                                            "이 종류의 기준을 알 수 없으므로 이 처리는 판정하지 않았습니다."))
                continue
            actions.append(action)
    for thread in sent.values():
        thread.sort(key=lambda a: (a.sent_at, a.line))
    return Mailbox(
        actions=actions, threads=threads, policies=policies, issues=issues,
        sources=[tbl.source() for tbl in raw.values()], columns=columns, sent=sent, tables=typed,
    )
