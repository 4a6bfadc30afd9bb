"""Generate a mail round of N actions over N received messages (N/2 threads of two
messages, two actions a thread) as a folder of the three CSVs, deterministic for a seed.

Every verdict occurs: an amount or day that differs from the answered message (made
up), a second reply before any new message (twice), a low confidence on a kind that
needs confirmation (unconfirmed), a slow reply (late), and the rest as the original;
one message in ten states no reply deadline.

Usage: ``python benchmarks/mail_generate.py N FOLDER [SEED]``
"""

from __future__ import annotations

import csv
import random
import sys
from datetime import datetime, timedelta
from pathlib import Path

POLICY = [
    ("action_kind", "max_reply_hours", "min_confidence", "needs_confirm"),
    ("회신", "6", "0.70", "false"),
    ("결제 안내 회신", "6", "0.70", "true"),
    ("부재 안내", "12", "0.60", "false"),
    ("메일 전달", "24", "0.60", "false"),
]
KINDS = [row[0] for row in POLICY[1:]]
COUNTERPARTS = ["관리사무소", "세무사", "채용 담당", "은행 알림", "카드사", "통신사", "보험사", "동호회 총무"]
SUBJECTS = ["관리비 안내", "자료 요청", "과제 제출 안내", "결제일 변경 안내", "청구서", "요금 안내", "갱신 안내", "회비 안내"]
START = datetime(2026, 3, 2, 8, 0)


def _moment(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M")


def write(n: int, folder: str | Path, seed: int = 7) -> Path:
    """Write ``agent_action.csv``, ``mailbox_thread.csv`` and ``action_policy.csv`` with
    ``n`` actions and ``n`` messages into ``folder``."""
    rnd = random.Random(seed)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "action_policy.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(POLICY)
    with open(folder / "mailbox_thread.csv", "w", newline="", encoding="utf-8") as fm, \
            open(folder / "agent_action.csv", "w", newline="", encoding="utf-8") as fa:
        messages, actions = csv.writer(fm), csv.writer(fa)
        messages.writerow(("thread_id", "counterpart", "subject", "received_at", "reply_deadline", "body_amount", "body_due_date"))
        actions.writerow(("action_no", "thread_id", "action_kind", "sent_at", "confidence", "extracted_amount",
                          "extracted_due_date", "confirmed_by"))
        number = 0
        for t in range(n // 2):
            thread = f"TH-{t + 1:07d}"
            who = rnd.randrange(len(COUNTERPARTS))
            first = START + timedelta(minutes=t)
            second = first + timedelta(hours=rnd.randint(20, 40))
            facts = []
            for received in (first, second):
                amount = str(rnd.randrange(1, 500) * 10_000) if rnd.random() < 0.5 else ""
                due = (received + timedelta(days=rnd.randint(1, 14))).date().isoformat() if rnd.random() < 0.5 else ""
                deadline = "" if rnd.random() < 0.1 else _moment(received + timedelta(hours=6))
                messages.writerow((thread, COUNTERPARTS[who], SUBJECTS[who], _moment(received), deadline, amount, due))
                facts.append((received, amount, due))
            twice = rnd.random() < 0.08
            for index in range(2):
                received, amount, due = facts[0] if (index == 1 and twice) else facts[index]
                kind = rnd.choice(KINDS)
                hours = rnd.uniform(0.2, 3.0) if rnd.random() < 0.8 else rnd.uniform(6.5, 18.0)
                if index == 1 and twice:
                    sent = facts[0][0] + timedelta(hours=4)
                    hours = None
                else:
                    sent = received + timedelta(hours=hours)
                if index == 0 and sent >= second:
                    sent = second - timedelta(minutes=5)
                out_amount = amount if rnd.random() < 0.7 else ""
                out_due = due if rnd.random() < 0.7 else ""
                if rnd.random() < 0.06:
                    out_amount = str(rnd.randrange(1, 500) * 10_000)
                elif rnd.random() < 0.04:
                    out_due = (received + timedelta(days=rnd.randint(1, 14))).date().isoformat()
                confidence = f"{rnd.uniform(0.35, 1.0):.2f}"
                confirmed = "사용자" if rnd.random() < 0.3 else ""
                number += 1
                actions.writerow((f"ACT-{number:07d}", thread, kind, _moment(sent + timedelta(minutes=index)), confidence,
                                  out_amount, out_due, confirmed))
    return folder


if __name__ == "__main__":
    write(int(sys.argv[1]), sys.argv[2], int(sys.argv[3]) if len(sys.argv) > 3 else 7)
