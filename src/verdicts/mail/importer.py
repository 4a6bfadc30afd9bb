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
from typing import Any, Iterable

from verdicts.errors import InputError
from verdicts.korean import code, josa

from .hangul_values import dates_in, pick_amount, pick_date
from .model import AGENT_ACTION, MAILBOX_THREAD

__all__ = ["Mail", "mail_of", "read_mails", "read_log", "new_text", "normalized_subject", "threads_of", "import_mailbox", "write_tables"]

_CHARSET_ALIASES = {"ks_c_5601-1987": "cp949", "ks_c_5601": "cp949", "ksc5601": "cp949", "x-windows-949": "cp949"}
# one run of white space between the parts (two adjacent ``\s*`` made a subject of "re"
# and 260,000 spaces take minutes: every split of the spaces was tried)
_PREFIX = re.compile(r"^\s*(?:(?:re|fw|fwd|답장|회신|전달)\s*(?:\[\d+\]\s*)?:\s*)+", re.IGNORECASE)
_QUOTE_HEADS = re.compile(
    r"^(-{2,}\s*(original message|forwarded message|원본 메일|원본 메시지|전달된 메시지|전달 메일)\s*-{2,}"
    r"|.*(wrote|작성):\s*$|>)", re.IGNORECASE)
_ADDRESS_INSIDE = re.compile(r"<[^<>\s]+@[^<>\s]+>")
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
    assert isinstance(payload, bytes)  # decode=True: the bytes of a leaf part, None for a multipart one
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
    if not raw_date:
        problems.append("Date 머리글이 없어 보내거나 받은 시각을 알 수 없습니다.")
    else:
        try:
            when = parsedate_to_datetime(raw_date)
        except (TypeError, ValueError):
            problems.append(f"`Date` 머리글 {josa(code(raw_date), '을/를')} 읽지 못했습니다.")
    if when is not None and when.tzinfo is not None:
        when = when.astimezone(timezone.utc).replace(tzinfo=None)
    sender = _header(message, "From").strip()
    if sender.startswith('"') and sender.endswith('"') and _ADDRESS_INSIDE.search(sender):
        # a client that encoded the whole From (name and address) as one encoded-word
        sender = sender[1:-1]
    addresses = getaddresses([sender])
    name, address = addresses[0] if addresses else ("", "")
    references = _ids(_header(message, "References"))
    in_reply_to = _ids(_header(message, "In-Reply-To"))
    reply_to = in_reply_to[0] if in_reply_to else None
    return Mail(message_id, reply_to, references, when, name or address, address.lower(), _header(message, "Subject"),
                new_text(body_text(message)), source, problems)


def mail_of(message: EmailMessage, source: str, problems: list[str] | None = None) -> Mail | None:
    """One parsed message as a :class:`Mail` named ``source``; what it lacks (an id, a
    date) goes into ``problems`` as ``"source: reason"`` lines.  A message that cannot be
    read at all gives ``None`` and a line saying why, never a silent gap."""
    try:
        mail = _mail(message, source)
    except Exception as exc:  # noqa: BLE001 - any defect of one message must not stop the others
        if problems is not None:
            problems.append(f"{source}: 메일을 읽지 못해 뺐습니다 ({type(exc).__name__}: {exc}).")
        return None
    if problems is not None:
        problems.extend(f"{source}: {p}" for p in mail.problems)
    return mail


def _parsed(raw: bytes, source: str, problems: list[str] | None) -> Mail | None:
    return mail_of(email.message_from_bytes(raw, policy=policy.default), source, problems)


def read_mails(source: str | Path, problems: list[str] | None = None) -> list[Mail]:
    """Every message of a Maildir folder, an mbox file, an ``.eml`` file or a folder of
    ``.eml`` files, in date order; each message's defects are added to ``problems``.

    Raises :class:`~verdicts.errors.InputError` when ``source`` is none of these or
    cannot be read.
    """
    path = Path(source)
    found: list[Mail | None] = []
    try:
        if path.is_dir() and (path / "cur").is_dir():
            box: mailbox.Mailbox[Any] = mailbox.Maildir(path, factory=None, create=False)
            for key in sorted(box.keys()):
                found.append(_parsed(box.get_bytes(key), f"{path}/{key}", problems))
        elif path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".eml")
            if not files:
                raise InputError(f"{path}: Maildir(cur/, new/)도 아니고 .eml 파일도 없는 폴더입니다.")
            for file in files:
                found.append(_parsed(file.read_bytes(), str(file), problems))
        elif path.is_file() and path.suffix.lower() == ".eml":
            found.append(_parsed(path.read_bytes(), str(path), problems))
        elif path.is_file():
            with open(path, "rb") as f:
                head = f.read(5)
            if head and head != b"From ":
                raise InputError(f"{path}: mbox 파일은 `From `으로 시작해야 하는데 이 파일은 그렇지 않습니다 "
                                 "(한 통짜리 메일이면 이름을 .eml로 바꿔 주세요).")
            box = mailbox.mbox(path, create=False)
            for index, key in enumerate(box.keys()):
                found.append(_parsed(box.get_bytes(key), f"{path}#{index + 1}", problems))
        else:
            raise InputError(f"{path}: 그런 파일이나 폴더가 없습니다.")
    except OSError as exc:
        raise InputError(f"{path}: 메일을 읽지 못했습니다 ({exc.strerror or exc}).") from None
    return sorted((m for m in found if m is not None), key=lambda m: (m.date or datetime.min, m.message_id))


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


def _received_row(m: Mail, thread: str, notes: list[str] | None = None) -> dict[str, str]:
    received = m.date.date() if m.date else None
    amount, amount_note = pick_amount(m.text)
    due, due_note = pick_date(m.text, received) if received else (None, None)
    found_notes = [note for note in (amount_note, due_note) if note]
    if notes is not None:
        notes.extend(f"{m.source}: {note}" for note in found_notes)
    deadline = ""
    if received is not None:
        near = [f for f in dates_in(m.text, received) if any(w in m.text[f.end: f.end + 8] or w in m.text[max(0, f.start - 8): f.start]
                                                              for w in _DEADLINE_WORDS)]
        if near:
            deadline = f"{near[0].value.isoformat()}T23:59"
    return {"thread_id": thread, "counterpart": m.sender, "subject": m.subject, "received_at": _moment(m.date),
            "reply_deadline": deadline, "body_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "body_due_date": "" if due is None else due.value.isoformat(), "body_note": " ".join(found_notes)}


def import_mailbox(received: Iterable[Mail], sent: Iterable[Mail] = (), log: Iterable[dict] = (),
                   notes: list[str] | None = None) -> dict[str, list[dict[str, str]]]:
    """The ``mailbox_thread`` rows of ``received`` and the ``agent_action`` rows of the
    ``sent`` mails found in the agent's ``log`` (records with ``message_id``,
    ``action_kind``, ``confidence`` and optionally ``action_no`` and ``confirmed_by``).
    ``action_policy`` is the user's to write and is not produced.

    What a reader should know goes into ``notes``: a sent mail without a log record (no
    row: not the agent's), a log record whose mail is not among the sent mail (no row:
    the audit reads what was really sent), a body with several amounts or days (which
    one was taken and why)."""
    received, sent = list(received), list(sent)
    threads = threads_of(received + sent)
    rows_thread = [_received_row(m, threads[m.message_id], notes) for m in received]
    by_id: dict[str, dict] = {}
    for r in log:
        by_id.setdefault(str(r.get("message_id", "")).strip(), r)
    rows_action = []
    sent_ids = set()
    for m in sent:
        sent_ids.add(m.message_id)
        record = by_id.get(m.message_id)
        if record is None:
            if notes is not None:
                notes.append(f"{m.source}: 보낸 메일 {josa(m.message_id, '은/는')} 에이전트 기록에 없어 사람이 보낸 메일로 보고 처리 표에 넣지 않았습니다.")
            continue
        amount, amount_note = pick_amount(m.text)
        due, due_note = pick_date(m.text, m.date.date()) if m.date else (None, None)
        found_notes = [note for note in (amount_note, due_note) if note]
        if notes is not None:
            notes.extend(f"{m.source}: {note}" for note in found_notes)
        rows_action.append({
            "action_no": str(record.get("action_no") or m.message_id.strip("<>")), "thread_id": threads[m.message_id],
            "action_kind": str(record.get("action_kind", "")), "sent_at": _moment(m.date),
            "confidence": "" if record.get("confidence") is None else str(record["confidence"]),
            "extracted_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "extracted_due_date": "" if due is None else due.value.isoformat(),
            "confirmed_by": str(record.get("confirmed_by") or ""),
            "extracted_note": " ".join(found_notes),
        })
    if notes is not None:
        for message_id, record in by_id.items():
            if message_id not in sent_ids:
                line = record.get("_line")
                where = f"{record['_file']} {line}번째 줄" if line else "에이전트 기록"
                notes.append(f"{where}: 에이전트가 보냈다고 적은 메일 {josa(message_id, '을/를')} 보낸 편지함에서 찾지 못해 "
                             "처리 표에 넣지 않았습니다.")
    return {"mailbox_thread": rows_thread, "agent_action": rows_action}


def read_log(path: str | Path, problems: list[str] | None = None) -> list[dict]:
    """The agent's log: one JSON object a line.  Blank lines are skipped; a line that is
    not a JSON object is added to ``problems`` with its line number and reason.  Each
    record keeps where it was read (``_file``, ``_line``).

    Raises :class:`~verdicts.errors.InputError` when the file cannot be read.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(f"{path}: 에이전트 기록을 읽지 못했습니다 ({exc.strerror or exc}).") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: 에이전트 기록이 UTF-8이 아닙니다 ({exc.start + 1}번째 바이트).") from None
    records = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            if problems is not None:
                problems.append(f"{path} {number}번째 줄 {exc.colno}번째 글자: JSON으로 읽지 못해 이 기록은 빠졌습니다 ({exc.msg}).")
            continue
        except (ValueError, RecursionError):  # an integer past Python's 4,300 digits, nesting past the parser's
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: 정수가 4,300자리를 넘거나 너무 깊이 중첩되어 JSON으로 읽지 못해 이 기록은 빠졌습니다.")
            continue
        if not isinstance(value, dict):
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: JSON 객체가 아니어서 이 기록은 빠졌습니다.")
            continue
        if not str(value.get("message_id") or "").strip():
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: 메시지 번호(`message_id`)가 없어 어느 메일의 기록인지 알 수 없습니다.")
            continue
        records.append({**value, "_file": str(path), "_line": number})
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
