"""The mailbox importer (library part): Korean amounts and dates, MIME and Korean
charsets, quoted mail cut, threads, and the same tables from Maildir, mbox and .eml."""

from __future__ import annotations

import csv
import json
import mailbox
from datetime import date
from decimal import Decimal
from email.header import Header
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from verdicts.errors import InputError
from verdicts.mail import judge_mailbox
from verdicts.mail.hangul_values import amounts_in, dates_in, pick_amount, pick_date
from verdicts.mail.importer import import_mailbox, normalized_subject, read_log, read_mails, write_tables


@pytest.mark.parametrize("text, value", [
    ("120만원", 1200000), ("1,200,000원", 1200000), ("1.2억", 120000000), ("3천만 원", 30000000),
    ("₩1,200,000", 1200000), ("1억 2,000만원", 120000000), ("5천원", 5000),
])
def test_korean_amounts(text, value):
    assert [f.value for f in amounts_in(f"금액은 {text}입니다")] == [Decimal(value)]


def test_numbers_that_are_not_money_are_not_amounts():
    assert amounts_in("회의는 3시, 참석 20명, 2026년") == []


@pytest.mark.parametrize("text, day", [
    ("3월 4일", date(2026, 3, 4)), ("2026-03-04", date(2026, 3, 4)), ("2026.3.4", date(2026, 3, 4)), ("3/4", date(2026, 3, 4)),
    ("내일", date(2026, 3, 3)), ("모레", date(2026, 3, 4)), ("다음 주 금요일", date(2026, 3, 13))
])
def test_korean_dates_relative_to_the_received_day(text, day):
    assert [f.value for f in dates_in(f"{text}까지 부탁드립니다", date(2026, 3, 2))] == [day]


def test_a_month_and_day_long_past_is_next_year():
    assert [f.value for f in dates_in("1월 5일까지", date(2026, 12, 20))] == [date(2027, 1, 5)]
    assert [f.value for f in dates_in("2월 27일 메일", date(2026, 3, 2))] == [date(2026, 2, 27)]


def test_several_candidates_take_the_one_by_a_deadline_word_with_a_note():
    found, note = pick_date("지난 2월 27일 메일에 이어, 제출 마감은 3월 4일입니다.", date(2026, 3, 2))
    assert found.value == date(2026, 3, 4) and "`2월 27일`, `3월 4일`로 여럿이라" in note and "`3월 4일`을 골랐습니다" in note
    found, note = pick_amount("지난달 50만원, 이번 달 청구 금액은 55만원입니다.")
    assert found.value == Decimal(550000) and note.endswith("`55만원`을 골랐습니다.")
    assert pick_amount("회비는 5만원입니다.")[1] is None


def test_reply_prefixes_are_stripped():
    assert normalized_subject("RE: 답장: 회신: Fwd: 전달: 과제 제출 안내") == "과제 제출 안내"


def _received_mail():
    body = ("안녕하세요. 과제 제출 마감은 3월 4일까지입니다.\n"
            "심사비는 12만원입니다.\n\n"
            "2026년 2월 20일 (금) 채용 담당 <hr@example.com> 작성:\n> 마감은 2월 28일, 심사비 10만원")
    msg = MIMEMultipart("alternative")
    msg["Subject"] = Header("과제 제출 안내", "euc-kr").encode()
    msg["From"] = f"{Header('채용 담당', 'utf-8').encode()} <hr@example.com>"
    msg["To"] = "me@example.com"
    msg["Date"] = "Mon, 02 Mar 2026 10:00:00 +0000"
    msg["Message-ID"] = "<m1@example.com>"
    msg.attach(MIMEText(body, "plain", "euc-kr"))
    return msg


def _html_only_mail():
    msg = MIMEText("<html><body><p>관리비 <b>35만원</b>을 3월 10일까지 납부해 주세요.</p>"
                   "<style>p{color:red}</style></body></html>", "html", "cp949")
    msg["Subject"] = "3월 관리비"
    msg["From"] = "관리사무소 <office@example.com>"
    msg["Date"] = "Mon, 02 Mar 2026 09:00:00 +0000"
    msg["Message-ID"] = "<m2@example.com>"
    return msg


def _sent_mail():
    msg = MIMEText("확인했습니다. 3월 14일까지 제출하겠습니다.\n\n> 과제 제출 마감은 3월 4일까지입니다.", "plain", "utf-8")
    msg["Subject"] = "Re: 과제 제출 안내"
    msg["From"] = "me@example.com"
    msg["Date"] = "Tue, 03 Mar 2026 07:31:00 +0000"
    msg["Message-ID"] = "<s1@example.com>"
    msg["In-Reply-To"] = "<m1@example.com>"
    msg["References"] = "<m1@example.com>"
    return msg


def _write_forms(tmp_path: Path) -> dict[str, Path]:
    mails = [_received_mail(), _html_only_mail()]
    maildir = mailbox.Maildir(tmp_path / "Maildir", create=True)
    box = mailbox.mbox(tmp_path / "inbox.mbox", create=True)
    emls = tmp_path / "eml"
    emls.mkdir()
    for i, m in enumerate(mails):
        maildir.add(m)
        box.add(m)
        (emls / f"{i}.eml").write_bytes(m.as_bytes())
    box.flush()
    return {"maildir": tmp_path / "Maildir", "mbox": tmp_path / "inbox.mbox", "eml": emls}


def test_the_same_tables_from_maildir_mbox_and_eml(tmp_path):
    forms = _write_forms(tmp_path)
    tables = {name: import_mailbox(read_mails(path))["mailbox_thread"] for name, path in forms.items()}
    assert tables["maildir"] == tables["mbox"] == tables["eml"]
    rows = {r["subject"]: r for r in tables["mbox"]}
    assignment = rows["과제 제출 안내"]
    # the quoted earlier mail (2월 28일, 10만원) is not taken for this one's facts
    assert (assignment["counterpart"], assignment["body_amount"], assignment["body_due_date"]) == ("채용 담당", "120000", "2026-03-04")
    # times with their offset, in the mailbox's zone (Asia/Seoul unless configured)
    assert assignment["received_at"] == "2026-03-02T19:00+09:00" and assignment["reply_deadline"] == "2026-03-04T23:59+09:00"
    fee = rows["3월 관리비"]
    assert (fee["body_amount"], fee["body_due_date"]) == ("350000", "2026-03-10")


def test_sent_mail_joined_to_the_log_becomes_an_action_and_is_judged(tmp_path):
    forms = _write_forms(tmp_path)
    sent = tmp_path / "Sent.eml"
    sent.write_bytes(_sent_mail().as_bytes())
    log = tmp_path / "agent.jsonl"
    log.write_text(json.dumps({"message_id": "<s1@example.com>", "action_no": "ACT-1", "action_kind": "회신", "confidence": 0.81})
                   + "\n" + "not json\n", encoding="utf-8")
    tables = import_mailbox(read_mails(forms["maildir"]), read_mails(sent), read_log(log))
    [action] = tables["agent_action"]
    # what was really sent: 3월 14일 (the quoted 3월 4일 is cut)
    assert (action["action_no"], action["extracted_due_date"], action["sent_at"]) == ("ACT-1", "2026-03-14", "2026-03-03T16:31+09:00")
    assert action["thread_id"] == next(r["thread_id"] for r in tables["mailbox_thread"] if r["subject"] == "과제 제출 안내")
    folder = tmp_path / "tables"
    write_tables(tables, folder)
    with open(folder / "action_policy.csv", "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows([["action_kind", "max_reply_hours", "min_confidence", "needs_confirm"], ["회신", "6", "0.7", "false"]])
    report = judge_mailbox(folder)
    [card] = report.cards
    assert card.verdict == "메일에 없는 사실 지어냄" and card.overdue_hours == 15.52
    assert report.issues == [] and all(c.passed for c in report.checks)


def test_a_sent_mail_missing_from_the_log_is_not_an_action(tmp_path):
    sent = tmp_path / "Sent.eml"
    sent.write_bytes(_sent_mail().as_bytes())
    assert import_mailbox([], read_mails(sent), [])["agent_action"] == []


def test_a_source_that_is_no_mailbox_is_a_clear_error(tmp_path):
    with pytest.raises(InputError, match="Maildir"):
        read_mails(tmp_path)
    with pytest.raises(InputError, match="없습니다"):
        read_mails(tmp_path / "nowhere")


@pytest.mark.parametrize("charset", ["iso-2022-kr", "cp949", "euc-kr", "utf-8"])
def test_korean_charsets_and_encoded_headers(tmp_path, charset):
    msg = MIMEText("청구 금액은 1,200,000원이며 납부 기한은 2026.3.9입니다.", "plain", charset)
    msg["Subject"] = Header("부가세 신고 자료 요청", charset if charset != "cp949" else "euc-kr").encode()
    msg["From"] = "세무사 <tax@example.com>"
    msg["Date"] = "Mon, 02 Mar 2026 14:00:00 +0900"
    msg["Message-ID"] = "<k1@example.com>"
    (tmp_path / "k.eml").write_bytes(msg.as_bytes())
    [row] = import_mailbox(read_mails(tmp_path / "k.eml"))["mailbox_thread"]
    assert (row["subject"], row["body_amount"], row["body_due_date"]) == ("부가세 신고 자료 요청", "1200000", "2026-03-09")
    assert row["received_at"] == "2026-03-02T14:00+09:00"  # in the mailbox's zone, offset written


def test_ks_c_5601_is_read_as_cp949(tmp_path):
    raw = ("Subject: =?ks_c_5601-1987?B?" + __import__("base64").b64encode("견적".encode("cp949")).decode() + "?=\n"
           "From: a@example.com\nDate: Mon, 02 Mar 2026 09:00:00 +0000\nMessage-ID: <q@example.com>\n"
           "Content-Type: text/plain; charset=ks_c_5601-1987\nContent-Transfer-Encoding: base64\n\n"
           + __import__("base64").b64encode("견적 금액은 3천만 원입니다.".encode("cp949")).decode() + "\n")
    (tmp_path / "q.eml").write_bytes(raw.encode("ascii"))
    [row] = import_mailbox(read_mails(tmp_path / "q.eml"))["mailbox_thread"]
    assert row["body_amount"] == "30000000"


def test_a_choice_among_several_values_is_cited_in_the_card(tmp_path):
    """Several amounts in the received body: the one taken and why go into body_note,
    and the card of the reply cites that note verbatim as evidence."""
    received = MIMEText("지난달에는 5만원이었고, 이번 달 청구 금액은 55만원입니다.", "plain", "utf-8")
    received["Subject"] = "회비 안내"
    received["From"] = "총무 <club@example.com>"
    received["Date"] = "Mon, 02 Mar 2026 09:00:00 +0000"
    received["Message-ID"] = "<fee@example.com>"
    reply = MIMEText("55만원 보내겠습니다.", "plain", "utf-8")
    reply["Subject"] = "Re: 회비 안내"
    reply["From"] = "me@example.com"
    reply["Date"] = "Mon, 02 Mar 2026 10:00:00 +0000"
    reply["Message-ID"] = "<pay@example.com>"
    reply["In-Reply-To"] = "<fee@example.com>"
    (tmp_path / "in.eml").write_bytes(received.as_bytes())
    (tmp_path / "out.eml").write_bytes(reply.as_bytes())
    notes: list[str] = []
    tables = import_mailbox(read_mails(tmp_path / "in.eml"), read_mails(tmp_path / "out.eml"),
                            [{"message_id": "<pay@example.com>", "action_no": "ACT-1", "action_kind": "회신", "confidence": 0.9}],
                            notes)
    [row] = tables["mailbox_thread"]
    assert row["body_amount"] == "550000" and row["body_note"].endswith("`55만원`을 골랐습니다.")
    assert notes == [f"{tmp_path / 'in.eml'}: {row['body_note']}"]
    assert tables["agent_action"][0]["extracted_note"] == ""
    folder = tmp_path / "tables"
    write_tables(tables, folder)
    (folder / "action_policy.csv").write_text("action_kind,max_reply_hours,min_confidence,needs_confirm\n회신,6,0.7,false\n",
                                              encoding="utf-8")
    report = judge_mailbox(folder)
    [card] = report.cards
    assert card.verdict == "원문대로 나감"
    cited = [e for e in card.evidence if e.field == "body_note"]
    assert len(cited) == 1 and cited[0].quote == row["body_note"] and cited[0].source == "mailbox_thread"
    assert all(c.passed for c in report.checks), [c.id for c in report.checks if not c.passed]
    # a table written by hand has no note column, and its cards cite none
    assert not any(e.field.endswith("_note") for c in judge_mailbox(Path(__file__).resolve().parents[3] / "examples" / "mail").cards
                   for e in c.evidence)
