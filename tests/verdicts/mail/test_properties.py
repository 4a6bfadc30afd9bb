"""Invariants over generated mailboxes: every check passes on the cards the rules make,
the card fields follow from the inputs whatever the verdict, and a planted defect is
caught by the check that owns the field."""

from __future__ import annotations

import csv
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

from hypothesis import given, strategies as st

from verdicts.mail import judge_mailbox
from verdicts.mail.checks import CHECKS, CheckContext

START = datetime(2026, 3, 2, 8, 0)
KINDS = [("회신", "6", "0.70", "false"), ("결제 안내 회신", "6", "0.70", "true"), ("메일 전달", "24", "0.60", "false")]

message = st.tuples(st.integers(0, 3), st.integers(0, 48 * 60), st.booleans(),
                    st.sampled_from(["", "1200000", "350000"]), st.sampled_from(["", "2026-03-04", "2026-03-14"]))
action = st.tuples(st.integers(0, 3), st.integers(0, 60 * 60), st.sampled_from([k[0] for k in KINDS]),
                   st.sampled_from(["0.42", "0.55", "0.6", "0.7", "0.9", "1"]),
                   st.sampled_from(["", "1,200,000", "1200000.0", "350000", "400000"]),
                   st.sampled_from(["", "2026.3.4", "2026-03-14"]), st.sampled_from(["", "김지은"]))


def _moment(minutes: int) -> str:
    return (START + timedelta(minutes=minutes)).strftime("%Y-%m-%dT%H:%M")


def _write(folder: Path, messages, actions) -> None:
    with open(folder / "mailbox_thread.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["thread_id", "counterpart", "subject", "received_at", "reply_deadline", "body_amount", "body_due_date"])
        for thread, at, deadline, amount, due in messages:
            w.writerow([f"TH-{thread}", "상대", "문의", _moment(at), _moment(at + 360) if deadline else "", amount, due])
    with open(folder / "agent_action.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["action_no", "thread_id", "action_kind", "sent_at", "confidence", "extracted_amount",
                    "extracted_due_date", "confirmed_by"])
        for i, (thread, at, kind, confidence, amount, due, by) in enumerate(actions):
            w.writerow([f"A{i}", f"TH-{thread}", kind, _moment(at), confidence, amount, due, by])
    with open(folder / "action_policy.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["action_kind", "max_reply_hours", "min_confidence", "needs_confirm"])
        w.writerows(KINDS)


@given(st.lists(message, min_size=1, max_size=8), st.lists(action, min_size=1, max_size=10))
def test_every_check_passes_and_planted_defects_are_caught(messages, actions):
    folder = Path(tempfile.mkdtemp())
    _write(folder, messages, actions)
    report = judge_mailbox(folder)
    assert [c.id for c in report.checks if not c.passed] == []
    cards = [dict(c.to_json()) for c in report.cards]
    # an issue for every action without a card (unknown thread, or sent before any message)
    assert len(cards) + len(report.issues) == len(actions)
    if not cards:
        return
    tables = report.inputs.tables
    card = cards[0]
    wrong = dict(card, overdue_hours=(card["overdue_hours"] or 0) + 0.01)
    assert card["action_no"] in {r.id: r for r in CHECKS.run(CheckContext(tables, [wrong] + cards[1:]))}["C04"].failed_targets
    flipped = dict(card, low_confidence=not card["low_confidence"])
    assert card["action_no"] in {r.id: r for r in CHECKS.run(CheckContext(tables, [flipped] + cards[1:]))}["C05"].failed_targets


def _day(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.replace(".", "-").split("-"))


def _oracle(messages, actions) -> dict[str, str]:
    """The verdict of each action by the spec's words, written out plainly."""
    from decimal import Decimal

    policy = {k: (Decimal(h), Decimal(m), n == "true") for k, h, m, n in KINDS}
    out = {}
    for i, (thread, at, kind, confidence, amount, due, by) in enumerate(actions):
        inbox = sorted((m for m in messages if m[0] == thread and m[1] <= at), key=lambda m: m[1])
        if not inbox:
            continue
        got = inbox[-1]  # ties: any of them has the same moment, and the rows are sorted stably
        same_moment = [m for m in messages if m[0] == thread and m[1] == got[1]]
        got = same_moment[-1]
        _, received, deadline, body_amount, body_due = got
        hours, minimum, needs = policy[kind]
        made_up = (amount and (not body_amount or Decimal(amount.replace(",", "")) != Decimal(body_amount))) or \
                  (due and (not body_due or _day(due) != _day(body_due)))
        twice = any(a[0] == thread and (a[1], j) < (at, i) and a[1] >= received for j, a in enumerate(actions) if j != i)
        low = Decimal(confidence) < minimum
        over = Decimal(at - received) / 60 - hours
        late = deadline and over.quantize(Decimal("0.01"), rounding="ROUND_HALF_UP") > 0
        out[f"A{i}"] = ("메일에 없는 사실 지어냄" if made_up else "같은 대화에 두 번 답장" if twice
                        else "확인 받아야 하는데 그냥 보냄" if needs and low and not by
                        else "회신 기한 넘겨 처리" if late else "원문대로 나감")
    return out


@given(st.lists(message, min_size=1, max_size=8), st.lists(action, min_size=1, max_size=10))
def test_verdicts_agree_with_a_plain_reading_of_the_spec(messages, actions):
    folder = Path(tempfile.mkdtemp())
    _write(folder, messages, actions)
    assert {c.key: c.verdict for c in judge_mailbox(folder).cards} == _oracle(messages, actions)
