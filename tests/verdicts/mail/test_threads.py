"""Threads as mail clients build them (issue 31, item 2): JWZ's containers over
``Message-ID``/``References``/``In-Reply-To``, a subject joining mail only of one
counterpart within a bounded number of days, and the key and the way each mail was
threaded by in the tables and in the cards' evidence."""

from __future__ import annotations

import csv
import time
from datetime import datetime, timedelta, timezone
from email.mime.text import MIMEText
from pathlib import Path

from verdicts.mail import judge_mailbox
from verdicts.mail.importer import import_mailbox, read_mails, write_tables
from verdicts.mail.threads import FIRST, IN_REPLY_TO, REFERENCES, Threadable, by_subject, thread

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone(timedelta(hours=9)))
POLICY = [["action_kind", "max_reply_hours", "min_confidence", "needs_confirm"], ["회신", "6", "0.7", "false"]]


def _mail(path: Path, body: str, subject: str, sender: str, to: str, when: str, mid: str, reply_to: str | None = None) -> Path:
    msg = MIMEText(body, "plain", "utf-8")
    msg["Subject"] = subject
    msg["From"] = sender
    msg["To"] = to
    msg["Date"] = when
    msg["Message-ID"] = mid
    if reply_to:
        msg["In-Reply-To"] = reply_to
        msg["References"] = reply_to
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msg.as_bytes())
    return path


def _judge(tmp_path: Path, tables: dict) -> dict:
    folder = tmp_path / "tables"
    write_tables(tables, folder)
    with open(folder / "action_policy.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(POLICY)
    report = judge_mailbox(folder)
    assert report.issues == [] and all(c.passed for c in report.checks), [c for c in report.checks if not c.passed]
    return {c.key: c for c in report.cards}


def _two_customers(tmp_path: Path, replies_link: bool) -> dict:
    """Two customers each write "문의드립니다" (no References) half an hour apart; the
    agent answers each with the day that customer asked for."""
    inbox, sent = tmp_path / "in", tmp_path / "sent"
    _mail(inbox / "1.eml", "견적서를 3월 5일까지 보내 주실 수 있을까요?", "문의드립니다", "김민수 <kim@a.example>", "me@shop.example",
          "Mon, 02 Mar 2026 09:00:00 +0900", "<kim-1@a.example>")
    _mail(inbox / "2.eml", "배송을 3월 9일까지 받을 수 있을까요?", "문의드립니다", "이지은 <lee@b.example>", "me@shop.example",
          "Mon, 02 Mar 2026 09:30:00 +0900", "<lee-1@b.example>")
    _mail(sent / "1.eml", "견적서는 3월 5일까지 보내 드리겠습니다.", "Re: 문의드립니다", "me@shop.example", "kim@a.example",
          "Mon, 02 Mar 2026 10:00:00 +0900", "<r-kim@shop.example>", "<kim-1@a.example>" if replies_link else None)
    _mail(sent / "2.eml", "3월 9일까지 받으실 수 있게 보내겠습니다.", "Re: 문의드립니다", "me@shop.example", "이지은 <lee@b.example>",
          "Mon, 02 Mar 2026 10:10:00 +0900", "<r-lee@shop.example>", "<lee-1@b.example>" if replies_link else None)
    log = [{"message_id": "<r-kim@shop.example>", "action_no": "ACT-KIM", "action_kind": "회신", "confidence": 0.9},
           {"message_id": "<r-lee@shop.example>", "action_no": "ACT-LEE", "action_kind": "회신", "confidence": 0.9}]
    return import_mailbox(read_mails(inbox), read_mails(sent), log)


def test_two_customers_with_one_generic_subject_are_two_threads(tmp_path):
    """The issue's case: both customers write "문의드립니다" and nothing links them.  One
    thread made the reply to 김민수 be judged against 이지은's mail (a false made-up day)
    and the reply to 이지은 a second reply (a false twice)."""
    for replies_link in (True, False):
        folder = tmp_path / str(replies_link)
        tables = _two_customers(folder, replies_link)
        kim, lee = tables["mailbox_thread"]
        assert kim["thread_id"] != lee["thread_id"]
        assert (kim["thread_key"], kim["thread_by"]) == ("<kim-1@a.example>", FIRST)
        actions = {a["action_no"]: a for a in tables["agent_action"]}
        assert actions["ACT-KIM"]["thread_id"] == kim["thread_id"] and actions["ACT-LEE"]["thread_id"] == lee["thread_id"]
        if replies_link:
            assert (actions["ACT-KIM"]["thread_key"], actions["ACT-KIM"]["thread_by"]) == ("<kim-1@a.example>", REFERENCES)
        else:  # the reply has no headers: its subject and its recipient place it
            assert (actions["ACT-LEE"]["thread_key"], actions["ACT-LEE"]["thread_by"]) == ("문의드립니다 · lee@b.example", by_subject(30))
        cards = _judge(folder, tables)
        assert {key: card.verdict for key, card in cards.items()} == {"ACT-KIM": "원문대로 나감", "ACT-LEE": "원문대로 나감"}
        # the key and the way each was threaded by are in the evidence, quoted from the tables
        evidence = {(e.source, e.field): e.quote for e in cards["ACT-LEE"].evidence}
        assert evidence[("agent_action", "thread_by")] == (REFERENCES if replies_link else by_subject(30))
        assert evidence[("mailbox_thread", "thread_key")] == "<lee-1@b.example>"
        assert evidence[("mailbox_thread", "thread_by")] == FIRST


def _item(mid: str, day: float = 0, refs: tuple[str, ...] = (), reply_to: str | None = None, subject: str = "문의",
          who: str = "kim@a.example") -> Threadable:
    return Threadable(mid, refs, reply_to, T0 + timedelta(days=day), subject, frozenset([who]))


def test_a_subject_joins_one_counterpart_within_the_window_only():
    placed = thread([_item("<a>"), _item("<b>", 10), _item("<c>", 45), _item("<d>", 46, who="lee@b.example")], 30)
    a, b, c, d = placed
    assert a.thread_id == b.thread_id and (b.key, b.by) == ("문의 · kim@a.example", "제목+상대 30일 이내")
    # 35 days after the thread's latest mail: a new thread; another sender: never joined
    assert c.thread_id != a.thread_id and c.by == FIRST and d.thread_id not in (a.thread_id, c.thread_id)
    # the window is configurable: with 40 days, c joins (35 days after b)
    assert thread([_item("<a>"), _item("<b>", 10), _item("<c>", 45)], 40)[2].thread_id == placed[0].thread_id
    # an empty subject joins nothing
    assert len({p.thread_id for p in thread([_item("<a>", subject=""), _item("<b>", 1, subject="")], 30)}) == 2


def test_references_link_through_missing_and_late_parents():
    placed = thread([
        # two replies to a message that is not in the mailbox: one thread through its id
        _item("<r1>", 1, refs=("<gone>",), subject="x"), _item("<r2>", 2, refs=("<gone>",), subject="y", who="lee@b.example"),
        # a reply read before the message it answers
        _item("<late-child>", 3, reply_to="<late-parent>", subject="z"), _item("<late-parent>", 4, subject="w"),
        # a chain: c names a and b; b itself names nothing, so it hangs under a by c's References
        _item("<a>", 5, subject="p"), _item("<b>", 6, subject="q"), _item("<c>", 7, refs=("<a>", "<b>"), subject="r"),
    ], 30)
    r1, r2, child, parent, a, b, c = placed
    assert r1.thread_id == r2.thread_id and (r2.key, r2.by) == ("<gone>", REFERENCES)
    assert child.thread_id == parent.thread_id and (child.key, child.by) == ("<late-parent>", IN_REPLY_TO)
    assert (parent.key, parent.by) == ("<late-parent>", FIRST)
    assert a.thread_id == b.thread_id == c.thread_id and (b.key, b.by) == ("<a>", REFERENCES) and (c.key, c.by) == ("<b>", REFERENCES)


def test_loops_and_repeated_ids_end_and_keep_every_message():
    placed = thread([
        _item("<x>", 0, refs=("<y>",), subject="a"), _item("<y>", 1, refs=("<x>",), subject="b"),
        _item("<self>", 2, refs=("<self>",), subject="c"), _item("<dup>", 3, subject="d"), _item("<dup>", 4, subject="e"),
        _item("<twice>", 5, refs=("<p>", "<p>", "<twice>"), subject="f"),
    ], 30)
    assert len(placed) == 6 and placed[0].thread_id == placed[1].thread_id
    assert placed[2].by == FIRST and placed[3].thread_id != placed[4].thread_id
    assert (placed[5].key, placed[5].by) == ("<twice>", FIRST)  # names itself last: no parent, no loop


def test_threads_do_not_depend_on_the_order_mail_is_read_in():
    """c names a and b; b names nothing.  Read before or after c, b stays under a."""
    a, b, c = _item("<a>", 0, subject="p"), _item("<b>", 1, subject="q"), _item("<c>", 2, refs=("<a>", "<b>"), subject="r")
    for order in ([a, b, c], [c, b, a], [b, c, a]):
        placed = {item.message_id: p for item, p in zip(order, thread(order, 30))}
        assert len({p.thread_id for p in placed.values()}) == 1
        assert (placed["<b>"].key, placed["<b>"].by) == ("<a>", REFERENCES)


def test_hostile_references_are_threaded_in_bounded_time():
    chain = tuple(f"<m{i}@x>" for i in range(100_000))
    roots = [_item(f"<root{i}@x>", subject=f"s{i}") for i in range(300)]
    children = [_item(f"<child{i}@x>", 1, reply_to=f"<root{i}@x>", subject="t") for i in range(300)]
    # a deep chain, then one header naming the deepest id and every root that has a child
    deep = _item("<deep@x>", 2, refs=tuple(f"<d{i}@x>" for i in range(5000)))
    fan = _item("<fan@x>", 3, refs=("<d4999@x>", *(f"<root{i}@x>" for i in range(300))))
    start = time.monotonic()
    placed = thread([_item("<last@x>", refs=chain), _item("<again@x>", 1, refs=chain[::-1]), *roots, *children, deep, fan], 30)
    assert time.monotonic() - start < 5
    assert placed[0].thread_id == placed[1].thread_id
    assert placed[-1].thread_id == placed[-2].thread_id


def test_many_senders_of_one_subject_are_threaded_in_bounded_time():
    items = [_item(f"<q{i}@x>", i / 1000, subject="문의드립니다", who=f"c{i}@x.example") for i in range(10_000)]
    items += [_item(f"<f{i}@x>", 20 + i / 1000, subject="문의드립니다", who=f"c{i}@x.example") for i in range(0, 10_000, 2)]
    start = time.monotonic()
    placed = thread(items, 30)
    assert time.monotonic() - start < 5
    assert len({p.thread_id for p in placed}) == 10_000
    assert placed[10_000].thread_id == placed[0].thread_id and placed[10_001].thread_id == placed[2].thread_id
