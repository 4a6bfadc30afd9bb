"""One small mailbox for the importer's tests, in every form a user has it: received
mail (Korean charsets, RFC 2047 headers, a reply thread, an HTML-only mail, quoted
earlier mail), the agent's sent mail and its log; written as a Maildir (``.Sent`` as a
Maildir++ subfolder), as two mbox files and into a real IMAP server's folders."""

from __future__ import annotations

import base64
import json
import mailbox
from email.header import Header
from email.mime.multipart import MIMEMultipart
from email.mime.text import MIMEText
from pathlib import Path

from .imap_server import message_date

ME = "나 <me@home.example>"


def _text(body: str, charset: str, subtype: str = "plain") -> MIMEText:
    return MIMEText(body, subtype, charset)


def _head(msg, subject, sender, when, mid, reply_to=None, references=()):
    msg["Subject"] = subject
    msg["From"] = sender
    msg["To"] = "me@home.example"
    msg["Date"] = message_date(when)
    msg["Message-ID"] = mid
    if reply_to:
        msg["In-Reply-To"] = reply_to
    if references:
        msg["References"] = " ".join(references)
    return msg


def received() -> list[bytes]:
    fee = _head(_text("3월 관리비는 35만원이며 3월 10일까지 납부해 주세요.\n관리사무소 드림", "euc-kr"),
                Header("3월 관리비 안내", "euc-kr").encode(), f"{Header('관리사무소', 'euc-kr').encode()} <office@apt.example>",
                "2026-03-02T09:00", "<r1@apt.example>")
    # subject and body in ks_c_5601-1987 (CP949 as Outlook labels it), base64
    cp949_subject = "=?ks_c_5601-1987?B?" + base64.b64encode("부가세 신고 자료 요청".encode("cp949")).decode() + "?="
    tax_body = base64.b64encode("2월 매출 자료를 모레까지 보내 주세요.\r\n".encode("cp949")).decode()
    tax = (f"Subject: {cp949_subject}\r\nFrom: =?utf-8?B?{base64.b64encode('김세무사'.encode()).decode()}?= <tax@acct.example>\r\n"
           f"To: me@home.example\r\nDate: {message_date('2026-03-02T14:00')}\r\nMessage-ID: <r2@acct.example>\r\n"
           "MIME-Version: 1.0\r\nContent-Type: text/plain; charset=ks_c_5601-1987\r\nContent-Transfer-Encoding: base64\r\n\r\n"
           f"{tax_body}\r\n").encode("ascii")
    follow = _head(_text("받았습니다. 수수료 1,200,000원은 3월 14일까지 입금 부탁드립니다.\n\n"
                         "2026년 3월 2일 (월) 나 <me@home.example> 작성:\n> 자료를 3월 5일까지 보내겠습니다.", "utf-8"),
                   Header("RE: 부가세 신고 자료 요청", "utf-8").encode(), "김세무사 <tax@acct.example>", "2026-03-03T10:00",
                   "<r3@acct.example>", "<s2@home.example>", ["<r2@acct.example>", "<s2@home.example>"])
    quote = _head(_text("<html><body><p>총 견적 금액은 <b>1.2억</b> 원입니다.</p><p>계약금 ￦12,000,000은 다음 주 금요일까지 "
                        "부탁드립니다.</p><style>p{margin:0}</style></body></html>", "cp949", "html"),
                  Header("견적서 송부", "euc-kr").encode(), "한결 인테리어 <quote@interior.example>", "2026-03-04T08:00",
                  "<r4@interior.example>")
    dinner = MIMEMultipart("mixed")
    dinner.attach(_text("이번 모임 장소는 역 앞 식당입니다.", "iso-2022-kr"))
    _head(dinner, Header("모임 장소 안내", "iso-2022-kr").encode(), "동호회 <club@club.example>", "2026-03-04T12:00",
          "<r5@club.example>")
    return [fee.as_bytes(), tax, follow.as_bytes(), quote.as_bytes(), dinner.as_bytes()]


def sent() -> list[bytes]:
    paid = _head(_text("35만원을 3월 10일까지 납부하겠습니다.\n\n> 3월 관리비는 35만원이며", "utf-8"),
                 Header("Re: 3월 관리비 안내", "utf-8").encode(), ME, "2026-03-02T10:00", "<s1@home.example>",
                 "<r1@apt.example>", ["<r1@apt.example>"])
    data = _head(_text("자료를 3월 5일까지 보내겠습니다.", "utf-8"), Header("Re: 부가세 신고 자료 요청", "utf-8").encode(), ME,
                 "2026-03-02T15:00", "<s2@home.example>", "<r2@acct.example>", ["<r2@acct.example>"])
    fee = _head(_text("수수료 120만원을 3월 14일까지 입금하겠습니다.", "utf-8"), Header("Re: RE: 부가세 신고 자료 요청", "utf-8").encode(),
                ME, "2026-03-03T11:00", "<s3@home.example>", "<r3@acct.example>",
                ["<r2@acct.example>", "<s2@home.example>", "<r3@acct.example>"])
    # written by the user, not the agent: in no log record
    by_hand = _head(_text("견적 잘 받았습니다.", "utf-8"), Header("답장: 견적서 송부", "utf-8").encode(), ME, "2026-03-04T09:00",
                    "<s4@home.example>", "<r4@interior.example>", ["<r4@interior.example>"])
    return [paid.as_bytes(), data.as_bytes(), fee.as_bytes(), by_hand.as_bytes()]


LOG = [
    {"message_id": "<s1@home.example>", "action_no": "ACT-1", "action_kind": "회신", "confidence": 0.91},
    {"message_id": "<s2@home.example>", "action_no": "ACT-2", "action_kind": "회신", "confidence": 0.82},
    {"message_id": "<s3@home.example>", "action_no": "ACT-3", "action_kind": "결제 안내 회신", "confidence": 0.55},
    # the agent says it sent this one, but it is not in the Sent folder
    {"message_id": "<s9@home.example>", "action_no": "ACT-9", "action_kind": "회신", "confidence": 0.99},
]
POLICY = "action_kind,max_reply_hours,min_confidence,needs_confirm\n회신,6,0.70,false\n결제 안내 회신,6,0.70,true\n"


def write_log(path: Path, bad_line: bool = True) -> Path:
    lines = [json.dumps(r, ensure_ascii=False) for r in LOG]
    if bad_line:
        lines.insert(2, '{"message_id": "<s5@home.example>", "action_kind": 회신}')
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def write_maildir(folder: Path) -> tuple[Path, Path]:
    inbox = mailbox.Maildir(folder, create=True)
    for raw in received():
        inbox.add(raw)
    box = inbox.add_folder("Sent")
    for raw in sent():
        box.add(raw)
    return folder, folder / ".Sent"


def write_mbox(folder: Path) -> tuple[Path, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for name, mails in (("inbox.mbox", received()), ("sent.mbox", sent())):
        box = mailbox.mbox(folder / name, create=True)
        for raw in mails:
            box.add(raw)
        box.flush()
        box.close()
        paths.append(folder / name)
    return paths[0], paths[1]
