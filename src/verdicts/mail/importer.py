"""Reading a real mailbox into the three tables: received messages become
``mailbox_thread`` rows, the agent's sent mail joined to its own log becomes
``agent_action`` rows.

Sources are a Maildir folder (``cur/``, ``new/``), an mbox file, one ``.eml`` file or a
folder of them.  Parsing is the standard library's (:mod:`email` with the default
policy): MIME multipart, quoted-printable and base64, RFC 2047 headers, and the Korean
charsets (``EUC-KR``, ``CP949`` and its alias ``ks_c_5601-1987``, ``ISO-2022-KR``).  An
HTML-only body is read as text.  Quoted earlier mail (``>`` lines, a forwarded or
original-message block, an ``… 작성:``/``wrote:`` header) is cut before the body's amount
and day are read, so that an older message's facts are not taken for the new one's.

Threads follow ``References`` and ``In-Reply-To``; messages without them join by their
subject with ``Re:``, ``RE:``, ``답장:``, ``회신:``, ``Fwd:``, ``전달:`` stripped.  The audit
reads what was really sent: ``extracted_*`` come from the sent body, and the log only
gives ``action_kind`` and ``confidence``.
"""

from __future__ import annotations

import csv
import email
import hashlib
import html
import json
import mailbox
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable

from verdicts.errors import InputError

from .hangul_values import dates_in, pick_amount, pick_date
from .model import AGENT_ACTION, MAILBOX_THREAD

__all__ = ["Mail", "read_mails", "new_text", "normalized_subject", "threads_of", "import_mailbox", "write_tables"]

_CHARSET_ALIASES = {"ks_c_5601-1987": "cp949", "ks_c_5601": "cp949", "ksc5601": "cp949", "x-windows-949": "cp949"}
_PREFIX = re.compile(r"^\s*((re|fw|fwd|답장|회신|전달)\s*(\[\d+\])?\s*:\s*)+", re.IGNORECASE)
_QUOTE_HEADS = re.compile(
    r"^(-{2,}\s*(original message|forwarded message|원본 메일|원본 메시지|전달된 메시지|전달 메일)\s*-{2,}"
    r"|.*(wrote|작성):\s*$|>)", re.IGNORECASE)
_DEADLINE_WORDS = ("마감", "기한", "까지", "회신", "답장")


@dataclass
class Mail:
    """One message as read: its ids, when it was sent, who sent it, its subject and the
    new text of its body (quoted earlier mail cut)."""

    message_id: str
    in_reply_to: str | None
    references: list[str]
    date: datetime | None
    sender: str
    sender_address: str
    subject: str
    text: str
    source: str
    problems: list[str] = field(default_factory=list)


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag in ("br", "p", "div", "tr", "li", "blockquote"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("script", "style") and self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def _html_text(markup: str) -> str:
    parser = _Text()
    parser.feed(markup)
    return html.unescape("".join(parser.parts))


def _part_text(part: EmailMessage) -> str:
    payload = part.get_payload(decode=True) or b""
    charset = (part.get_content_charset() or "utf-8").lower()
    charset = _CHARSET_ALIASES.get(charset, charset)
    try:
        return payload.decode(charset, errors="replace")
    except LookupError:
        return payload.decode("cp949", errors="replace")


def body_text(message: EmailMessage) -> str:
    """The body as text: the plain part, else the HTML part read as text."""
    plain = html_part = None
    for part in message.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind == "text/plain" and plain is None:
            plain = _part_text(part)
        elif kind == "text/html" and html_part is None:
            html_part = _part_text(part)
    if plain is not None:
        return plain
    return _html_text(html_part) if html_part is not None else ""


def new_text(body: str) -> str:
    """The body without the earlier mail it quotes: from the first quote line or
    original-message header on, everything is dropped.

    >>> new_text("마감은 3월 4일입니다.\\n\\n2026년 3월 2일 (월) 세무사 <a@b> 작성:\\n> 마감은 3월 1일")
    '마감은 3월 4일입니다.'
    """
    kept = []
    for line in body.replace("\r\n", "\n").split("\n"):
        if _QUOTE_HEADS.match(line.strip()):
            break
        kept.append(line)
    return "\n".join(kept).strip()


def normalized_subject(subject: str) -> str:
    """The subject without reply and forward prefixes.

    >>> normalized_subject("RE: 답장: Fwd: 과제 제출 안내"), normalized_subject("회신:전달: 견적")
    ('과제 제출 안내', '견적')
    """
    return _PREFIX.sub("", subject or "").strip()


def _header(message: EmailMessage, name: str) -> str:
    try:
        value = message.get(name)
    except Exception:  # noqa: BLE001 - a malformed header is read as absent, and noted
        return ""
    return str(value) if value is not None else ""


def _ids(text: str) -> list[str]:
    return re.findall(r"<[^<>\s]+>", text or "")


def _mail(message: EmailMessage, source: str) -> Mail:
    problems: list[str] = []
    message_id = (_ids(_header(message, "Message-ID")) or [""])[0]
    if not message_id:
        digest = hashlib.sha1(message.as_bytes(policy=policy.SMTP)).hexdigest()[:16]
        message_id = f"<no-id-{digest}@import>"
        problems.append("Message-ID가 없어 본문으로 만든 값을 씁니다.")
    when = None
    raw_date = _header(message, "Date")
    if raw_date:
        try:
            when = parsedate_to_datetime(raw_date)
        except (TypeError, ValueError):
            problems.append(f"Date 머리글 '{raw_date}'를 읽지 못했습니다.")
    if when is not None and when.tzinfo is not None:
        when = when.astimezone(timezone.utc).replace(tzinfo=None)
    addresses = getaddresses([_header(message, "From")])
    name, address = addresses[0] if addresses else ("", "")
    references = _ids(_header(message, "References"))
    reply_to = (_ids(_header(message, "In-Reply-To")) or [None])[0]
    return Mail(message_id, reply_to, references, when, name or address, address.lower(), _header(message, "Subject"),
                new_text(body_text(message)), source, problems)


def read_mails(source: str | Path) -> list[Mail]:
    """Every message of a Maildir folder, an mbox file, an ``.eml`` file or a folder of
    ``.eml`` files, in date order.

    Raises :class:`~verdicts.errors.InputError` when ``source`` is none of these.
    """
    path = Path(source)
    found: list[Mail] = []
    if path.is_dir() and (path / "cur").is_dir():
        box = mailbox.Maildir(path, factory=None, create=False)
        for key in sorted(box.keys()):
            raw = box.get_bytes(key)
            found.append(_mail(email.message_from_bytes(raw, policy=policy.default), f"{path}/{key}"))
    elif path.is_dir():
        files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".eml")
        if not files:
            raise InputError(f"{path}: Maildir(cur/, new/)도 아니고 .eml 파일도 없는 폴더입니다.")
        for file in files:
            found.append(_mail(email.message_from_bytes(file.read_bytes(), policy=policy.default), str(file)))
    elif path.is_file() and path.suffix.lower() == ".eml":
        found.append(_mail(email.message_from_bytes(path.read_bytes(), policy=policy.default), str(path)))
    elif path.is_file():
        box = mailbox.mbox(path, create=False)
        for index, key in enumerate(box.keys()):
            raw = box.get_bytes(key)
            found.append(_mail(email.message_from_bytes(raw, policy=policy.default), f"{path}#{index + 1}"))
    else:
        raise InputError(f"{path}: 그런 파일이나 폴더가 없습니다.")
    return sorted(found, key=lambda m: (m.date or datetime.min, m.message_id))


def threads_of(mails: Iterable[Mail]) -> dict[str, str]:
    """Message-ID → thread id: messages linked by ``References``/``In-Reply-To`` share a
    thread, and so do messages with the same normalised subject when neither links."""
    parent: dict[str, str] = {}

    def root(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    mails = list(mails)
    by_subject: dict[str, str] = {}
    for m in mails:
        root(m.message_id)
        for other in m.references + ([m.in_reply_to] if m.in_reply_to else []):
            join(m.message_id, other)
    for m in mails:
        if m.references or m.in_reply_to:
            continue
        key = normalized_subject(m.subject)
        if key in by_subject:
            join(m.message_id, by_subject[key])
        else:
            by_subject[key] = m.message_id
    # a thread is named after its first message (by date): TH-<8 hex of its id>
    first: dict[str, Mail] = {}
    for m in mails:
        r = root(m.message_id)
        first.setdefault(r, m)
    return {m.message_id: "TH-" + hashlib.sha1(first[root(m.message_id)].message_id.encode()).hexdigest()[:8].upper()
            for m in mails}


def _moment(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%dT%H:%M") if when is not None else ""


def _received_row(m: Mail, thread: str) -> dict[str, str]:
    received = m.date.date() if m.date else None
    amount, _ = pick_amount(m.text)
    due, _ = pick_date(m.text, received) if received else (None, None)
    deadline = ""
    if received is not None:
        near = [f for f in dates_in(m.text, received) if any(w in m.text[f.end: f.end + 8] or w in m.text[max(0, f.start - 8): f.start]
                                                              for w in _DEADLINE_WORDS)]
        if near:
            deadline = f"{near[0].value.isoformat()}T23:59"
    return {"thread_id": thread, "counterpart": m.sender, "subject": m.subject, "received_at": _moment(m.date),
            "reply_deadline": deadline, "body_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "body_due_date": "" if due is None else due.value.isoformat()}


def import_mailbox(received: Iterable[Mail], sent: Iterable[Mail] = (), log: Iterable[dict] = ()) -> dict[str, list[dict[str, str]]]:
    """The ``mailbox_thread`` rows of ``received`` and the ``agent_action`` rows of the
    ``sent`` mails found in the agent's ``log`` (records with ``message_id``,
    ``action_kind``, ``confidence`` and optionally ``action_no`` and ``confirmed_by``);
    a sent mail without a log record gets no row (the agent did not send it).
    ``action_policy`` is the user's to write and is not produced."""
    received, sent = list(received), list(sent)
    threads = threads_of(received + sent)
    rows_thread = [_received_row(m, threads[m.message_id]) for m in received]
    by_id = {str(r.get("message_id", "")).strip(): r for r in log}
    rows_action = []
    for m in sent:
        record = by_id.get(m.message_id)
        if record is None:
            continue
        amount, _ = pick_amount(m.text)
        due, _ = pick_date(m.text, m.date.date()) if m.date else (None, None)
        rows_action.append({
            "action_no": str(record.get("action_no") or m.message_id.strip("<>")), "thread_id": threads[m.message_id],
            "action_kind": str(record.get("action_kind", "")), "sent_at": _moment(m.date),
            "confidence": "" if record.get("confidence") is None else str(record["confidence"]),
            "extracted_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "extracted_due_date": "" if due is None else due.value.isoformat(),
            "confirmed_by": str(record.get("confirmed_by") or ""),
        })
    return {"mailbox_thread": rows_thread, "agent_action": rows_action}


def read_log(path: str | Path) -> list[dict]:
    """The agent's log: one JSON object a line (blank and unreadable lines skipped)."""
    records = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            records.append(value)
    return records


def write_tables(tables: dict[str, list[dict[str, str]]], folder: str | Path) -> list[Path]:
    """Write the tables as CSVs named after them into ``folder`` (created)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    specs = {"mailbox_thread": MAILBOX_THREAD, "agent_action": AGENT_ACTION}
    written = []
    for name, rows in tables.items():
        path = folder / f"{name}.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, specs[name].column_names)
            w.writeheader()
            w.writerows(rows)
        written.append(path)
    return written
