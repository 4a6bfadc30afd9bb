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

Threads are built as mail clients build them (:mod:`verdicts.mail.threads`, JWZ's
algorithm): ``References`` and ``In-Reply-To`` first; a subject (``Re:``, ``RE:``,
``답장:``, ``회신:``, ``Fwd:``, ``전달:`` stripped) joins mail only with the same
counterpart and within a bounded number of days.  Each row says the key it was threaded
by and how (``thread_key``, ``thread_by``).

Times keep their offset: every moment is written in the mailbox's time zone
(``Asia/Seoul`` unless configured) with its offset (``2026-03-02T08:00+09:00``), and
relative days in a body (``내일``, ``모레``, ``다음 주 금요일``) are read from the calendar
day the mail arrived on in that zone.  The audit reads what was really sent:
``extracted_*`` come from the sent body, and the log only gives ``action_kind`` and
``confidence``.
"""

from __future__ import annotations

import email
import hashlib
import html
import io
import json
import os
import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, timezone, tzinfo
from email import policy
from email.message import EmailMessage
from email.utils import getaddresses, parsedate_to_datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Iterable

from verdicts import safe_csv
from verdicts.errors import InputError
from verdicts.files import head, path_kind, read_file, reason_of
from verdicts.korean import code, josa
from verdicts.tables import OWN_KEY_PREFIX

from .hangul_values import dates_in, pick_amount, pick_date
from .model import AGENT_ACTION, DEFAULT_SUBJECT_WINDOW_DAYS, DEFAULT_TIME_ZONE, MAILBOX_THREAD
from .threads import Placed, Threadable, thread
from .values import read_zone

__all__ = ["Mail", "mail_of", "mail_order", "mailbox_form", "read_mails", "read_log", "new_text", "normalized_subject", "threads_of",
           "import_mailbox", "write_tables"]

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
    #: the addresses of ``To`` and ``Cc`` (lower case): a sent mail's counterparts
    recipients: list[str] = field(default_factory=list)
    #: what a reader should know that loses nothing (a date without a zone, read as UTC)
    notes: list[str] = field(default_factory=list)


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


def _addresses(text: str) -> list[tuple[str, str]]:
    """The (name, address) pairs of an address header's text."""
    text = text.strip()
    if not text:
        return []
    if text.startswith('"') and text.endswith('"') and _ADDRESS_INSIDE.search(text):
        # a client that encoded the whole header (name and address) as one encoded-word
        text = text[1:-1]
    return getaddresses([text])


def _mail(message: EmailMessage, source: str) -> Mail:
    problems: list[str] = []
    notes: list[str] = []
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
    if when is not None and when.tzinfo is None:
        # RFC 5322's -0000 (a time in UTC, the sender's zone unknown), or no zone at all
        when = when.replace(tzinfo=timezone.utc)
        notes.append(f"`Date` 머리글 {code(raw_date)}에는 시간대가 없어 UTC로 보았습니다.")
    addresses = _addresses(_header(message, "From"))
    name, address = addresses[0] if addresses else ("", "")
    references = _ids(_header(message, "References"))
    in_reply_to = _ids(_header(message, "In-Reply-To"))
    reply_to = in_reply_to[0] if in_reply_to else None
    recipients = [a.lower() for field in ("To", "Cc") for _, a in _addresses(_header(message, field)) if "@" in a]
    return Mail(message_id, reply_to, references, when, name or address, address.lower(), _header(message, "Subject"),
                new_text(body_text(message)), source, problems, recipients, notes)


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


def mailbox_form(path: str | Path) -> str | None:
    """Which mailbox ``path`` is, as :func:`read_mails` reads it: ``"maildir"`` (a folder
    with ``cur/``), ``"eml-folder"`` (a folder holding ``.eml`` files), ``"eml"`` (an
    ``.eml`` file) or ``"mbox"`` (a regular file starting with ``From ``); else ``None``
    (never raises, never waits: a FIFO or a device is no mailbox)."""
    path = Path(path)
    try:
        if path.is_dir():
            if (path / "cur").is_dir():
                return "maildir"
            return "eml-folder" if any(p.suffix.lower() == ".eml" for p in path.iterdir()) else None
        if path.suffix.lower() == ".eml" and path.is_file():
            return "eml"
        return "mbox" if head(path, 5) == b"From " else None
    except OSError:
        return None


#: a message file (``.eml``, one message of a Maildir) larger than this is refused
MAX_MESSAGE_BYTES = 64 * 1024 * 1024
#: an mbox file larger than this is refused
MAX_MBOX_BYTES = 512 * 1024 * 1024


def _mbox_messages(data: bytes) -> list[bytes]:
    """The messages of an mbox, cut as :class:`mailbox.mbox` cuts them: a line that
    starts with ``From `` begins a message (and is not part of it), and the blank line
    before the next one is not part of the message it ends."""
    messages: list[bytes] = []
    current: list[bytes] | None = None
    last_empty = False
    for line in io.BytesIO(data):
        if line.startswith(b"From "):
            if current is not None:
                messages.append(b"".join(current[:-1] if last_empty else current))
            current, last_empty = [], False
        elif current is not None:
            current.append(line)
            last_empty = line == b"\n"
    if current is not None:
        messages.append(b"".join(current[:-1] if last_empty else current))
    return messages


def _maildir_files(path: Path) -> list[tuple[str, Path]]:
    """``(key, file)`` of every message of the Maildir ``path`` (``cur/`` and ``new/``),
    keyed as :class:`mailbox.Maildir` keys them, in key order."""
    found: dict[str, Path] = {}
    for sub in ("cur", "new"):
        folder = path / sub
        if not folder.is_dir():
            continue
        for entry in os.listdir(folder):
            if not (folder / entry).is_dir():
                found[entry.split(":")[0]] = folder / entry
    return sorted(found.items())


def _message_file(file: Path, problems: list[str] | None) -> bytes | None:
    """The bytes of one message file of a folder; one that cannot be read (not a regular
    file, too large) is a line in ``problems`` and left out (raised without them)."""
    try:
        return read_file(file, MAX_MESSAGE_BYTES, "메일")
    except InputError as exc:
        if problems is None:
            raise
        problems.append(f"{file}: 메일 파일을 읽지 못해 뺐습니다 ({reason_of(exc, file)}).")
        return None


def read_mails(source: str | Path, problems: list[str] | None = None) -> list[Mail]:
    """Every message of a Maildir folder, an mbox file, an ``.eml`` file or a folder of
    ``.eml`` files (:func:`mailbox_form`), in date order; each message's defects are
    added to ``problems``.  An empty file is an mbox without mail.  Every file is opened
    by :func:`verdicts.files.read_file` (regular files only, after links;
    :data:`MAX_MESSAGE_BYTES` a message file, :data:`MAX_MBOX_BYTES` an mbox).

    Raises :class:`~verdicts.errors.InputError` when ``source`` is none of these or
    cannot be read.
    """
    path = Path(source)
    found: list[Mail | None] = []
    try:
        kind = path_kind(path)
        if kind == "dir" and (path / "cur").is_dir():
            for key, file in _maildir_files(path):
                raw = _message_file(file, problems)
                if raw is not None:
                    found.append(_parsed(raw, f"{path}/{key}", problems))
        elif kind == "dir":
            files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".eml")
            if not files:
                raise InputError(f"{path}: Maildir(cur/, new/)도 아니고 .eml 파일도 없는 폴더입니다.")
            for file in files:
                raw = _message_file(file, problems)
                if raw is not None:
                    found.append(_parsed(raw, str(file), problems))
        elif kind == "missing":
            raise InputError(f"{path}: 그런 파일이나 폴더가 없습니다.")
        elif path.suffix.lower() == ".eml":  # a regular file, or refused with its kind
            found.append(_parsed(read_file(path, MAX_MESSAGE_BYTES, "메일"), str(path), problems))
        else:
            data = read_file(path, MAX_MBOX_BYTES, "mbox")
            if data and not data.startswith(b"From "):
                raise InputError(f"{path}: mbox 파일은 `From `으로 시작해야 하는데 이 파일은 그렇지 않습니다 "
                                 "(한 통짜리 메일이면 이름을 .eml로 바꿔 주세요).")
            for index, raw in enumerate(_mbox_messages(data)):
                found.append(_parsed(raw, f"{path}#{index + 1}", problems))
    except OSError as exc:
        raise InputError(f"{path}: 메일을 읽지 못했습니다 ({exc.strerror or exc}).") from None
    return sorted((m for m in found if m is not None), key=mail_order)


_NEVER = datetime.min.replace(tzinfo=timezone.utc)


def mail_order(mail: Mail) -> tuple[datetime, str]:
    """The order mail is read in: by date (mail without one first), then by id."""
    return (mail.date or _NEVER, mail.message_id)


def threads_of(received: Iterable[Mail], sent: Iterable[Mail] = (),
               subject_window_days: int = DEFAULT_SUBJECT_WINDOW_DAYS) -> list[Placed]:
    """Where each received and then each sent mail goes (:func:`verdicts.mail.threads.thread`):
    a received mail's counterpart is its sender, a sent mail's its recipients."""
    items = [Threadable(m.message_id, tuple(m.references), m.in_reply_to, m.date, normalized_subject(m.subject),
                        frozenset([m.sender_address] if m.sender_address else []))
             for m in received]
    items += [Threadable(m.message_id, tuple(m.references), m.in_reply_to, m.date, normalized_subject(m.subject),
                         frozenset(m.recipients)) for m in sent]
    return thread(items, subject_window_days)


def _moment(when: datetime | None, zone: tzinfo) -> str:
    """A moment in ``zone`` with its offset, to the minute: ``2026-03-02T08:00+09:00``."""
    return when.astimezone(zone).isoformat(timespec="minutes") if when is not None else ""


def _day(when: datetime | None, zone: tzinfo) -> date | None:
    """The calendar day of ``when`` in ``zone``: the day relative dates are read from."""
    return when.astimezone(zone).date() if when is not None else None


def _received_row(m: Mail, place: Placed, zone: tzinfo, notes: list[str] | None = None) -> dict[str, str]:
    received = _day(m.date, zone)
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
            # the end of the stated day on the mailbox's calendar
            deadline = datetime.combine(near[0].value, time(23, 59), tzinfo=zone).isoformat(timespec="minutes")
    return {"thread_id": place.thread_id, "counterpart": m.sender, "subject": m.subject, "received_at": _moment(m.date, zone),
            "reply_deadline": deadline, "body_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "body_due_date": "" if due is None else due.value.isoformat(), "body_note": " ".join(found_notes),
            "thread_key": place.key, "thread_by": place.by}


def import_mailbox(received: Iterable[Mail], sent: Iterable[Mail] = (), log: Iterable[dict] = (),
                   notes: list[str] | None = None, *, time_zone: str | tzinfo = DEFAULT_TIME_ZONE,
                   subject_window_days: int = DEFAULT_SUBJECT_WINDOW_DAYS) -> dict[str, list[dict[str, str]]]:
    """The ``mailbox_thread`` rows of ``received`` and the ``agent_action`` rows of the
    ``sent`` mails found in the agent's ``log`` (records with ``message_id``,
    ``action_kind``, ``confidence`` and optionally ``action_no`` and ``confirmed_by``).
    ``action_policy`` is the user's to write and is not produced.  Times are written in
    ``time_zone`` (an IANA name or a zone) and relative days read on its calendar; a
    subject joins mail of one counterpart at most ``subject_window_days`` apart.

    What a reader should know goes into ``notes``: a sent mail without a log record (no
    row: not the agent's), a log record whose mail is not among the sent mail (no row:
    the audit reads what was really sent), a body with several amounts or days (which
    one was taken and why), a date without a zone (read as UTC).

    Raises :class:`~verdicts.errors.InputError` for a zone name that names no zone."""
    zone = read_zone(time_zone) if isinstance(time_zone, str) else time_zone
    received, sent = list(received), list(sent)
    places = threads_of(received, sent, subject_window_days)
    if notes is not None:
        notes.extend(f"{m.source}: {note}" for m in received + sent for note in m.notes)
    rows_thread = [_received_row(m, place, zone, notes) for m, place in zip(received, places)]
    by_id: dict[str, dict] = {}
    for r in log:
        by_id.setdefault(str(r.get("message_id", "")).strip(), r)
    rows_action = []
    sent_ids = set()
    for m, place in zip(sent, places[len(received):]):
        sent_ids.add(m.message_id)
        record = by_id.get(m.message_id)
        if record is None:
            if notes is not None:
                notes.append(f"{m.source}: 보낸 메일 {josa(m.message_id, '은/는')} 에이전트 기록에 없어 사람이 보낸 메일로 보고 처리 표에 넣지 않았습니다.")
            continue
        amount, amount_note = pick_amount(m.text)
        sent_day = _day(m.date, zone)
        due, due_note = pick_date(m.text, sent_day) if sent_day else (None, None)
        found_notes = [note for note in (amount_note, due_note) if note]
        if notes is not None:
            notes.extend(f"{m.source}: {note}" for note in found_notes)
        rows_action.append({
            "action_no": str(record.get("action_no") or m.message_id.strip("<>")), "thread_id": place.thread_id,
            "action_kind": str(record.get("action_kind", "")), "sent_at": _moment(m.date, zone),
            "confidence": "" if record.get("confidence") is None else str(record["confidence"]),
            "extracted_amount": "" if amount is None else format(amount.value.normalize(), "f"),
            "extracted_due_date": "" if due is None else due.value.isoformat(),
            "confirmed_by": str(record.get("confirmed_by") or ""),
            "extracted_note": " ".join(found_notes),
            "thread_key": place.key, "thread_by": place.by,
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
    from verdicts.tables import MAX_JSON_BYTES

    path = Path(path)
    try:
        text = read_file(path, MAX_JSON_BYTES, "에이전트 기록").decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: 에이전트 기록이 UTF-8이 아닙니다 ({exc.start + 1}번째 바이트).") from None
    from ..documents import parse_json

    records = []
    first_line: dict[str, int] = {}  # message_id -> the line of its record
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
        if isinstance(value, dict):
            # a key written twice keeps its first value; a key the log does not know is named
            doc = parse_json(line, str(path))
            value = doc.data
            if problems is not None:
                problems.extend(f"{path} {number}번째 줄 {r.column}번째 글자: {r.reason().replace('같은 줄에', '이 기록에')}"
                                for r in doc.repeats)
                problems.extend(_unknown_log_key(path, number, line, key) for key in value if key not in LOG_KEYS
                                and not key.startswith(OWN_KEY_PREFIX))
        if not isinstance(value, dict):
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: JSON 객체가 아니어서 이 기록은 빠졌습니다.")
            continue
        message_id = str(value.get("message_id") or "").strip()
        if not message_id:
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: 메시지 번호(`message_id`)가 없어 어느 메일의 기록인지 알 수 없습니다.")
            continue
        if message_id in first_line:
            if problems is not None:
                problems.append(f"{path} {number}번째 줄: 메일 {code(message_id)}의 기록이 {first_line[message_id]}번째 줄에 "
                                "이미 있어 이 두 번째 기록은 쓰지 않고 앞의 기록을 썼습니다.")
            continue
        first_line[message_id] = number
        records.append({**value, "_file": str(path), "_line": number})
    return records


#: the keys of an agent's log record
LOG_KEYS = ("message_id", "action_no", "action_kind", "confidence", "confirmed_by")


def _unknown_log_key(path: Path, number: int, line: str, key: str) -> str:
    from ..suggest import misspelling

    at = line.find(json.dumps(key, ensure_ascii=False)) + 1
    where = f" {at}번째 글자" if at > 0 else ""
    return f"{path} {number}번째 줄{where}: {code(key)} 키는 에이전트 기록의 키가 아니라 읽지 않았습니다.{misspelling(key, LOG_KEYS)}"


def write_tables(tables: dict[str, list[dict[str, str]]], folder: str | Path) -> list[Path]:
    """Write the tables as CSVs named after them into ``folder`` (created)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    specs = {"mailbox_thread": MAILBOX_THREAD, "agent_action": AGENT_ACTION}
    written = []
    for name, rows in tables.items():
        path = folder / f"{name}.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = safe_csv.DictWriter(f, specs[name].column_names)
            w.writeheader()
            w.writerows(rows)
        written.append(path)
    return written
