"""Reading one folder of an IMAP mailbox, for the mailbox importer.

A source is written as a URL: ``imap://USER@HOST:PORT/FOLDER`` (STARTTLS when the server
offers it) or ``imaps://USER@HOST:PORT/FOLDER`` (TLS from the start); the folder defaults
to ``INBOX``.  The folder is opened read-only and every message fetched with
``BODY.PEEK[]``, so reading marks nothing as seen.  Messages are fetched one by one: when
the connection drops part-way, what was read so far is kept and the break is reported
(:class:`ImapRead`), so a caller can write it and say what is missing.

Bounds: the whole read ends by ``deadline`` (a :func:`time.monotonic` time: the caller's
overall deadline, two minutes by default in ``verdicts mail import``), whatever the server
does — a watchdog closes the socket at that moment, so a server that answers nothing or
dribbles a byte at a time is left then; a message larger than ``max_message_bytes`` (by
the size the server gives, and by the size it then sends) is skipped with a problem naming
its UID and size; and the read stops when the messages read would pass
``max_run_bytes``, saying how many were left unread.
"""

from __future__ import annotations

import base64
import email
import imaplib
import re
import socket
import ssl
import threading
import time
from dataclasses import dataclass, field
from email import policy
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

from verdicts.errors import EnvironmentFailure, InputError
from verdicts.files import read_file, reason_of
from verdicts.korean import code, josa
from verdicts.safe_text import clean

from .config import DEADLINE_SECONDS, MAX_MESSAGE_BYTES, MAX_RUN_BYTES
from .importer import Mail, mail_of, mail_order

__all__ = ["ImapSource", "ImapRead", "is_imap_url", "parse_imap_url", "read_imap", "folder_name", "log_in",
           "DEADLINE_SECONDS", "MAX_MESSAGE_BYTES", "MAX_RUN_BYTES"]

_BROKEN = (imaplib.IMAP4.abort, OSError, EOFError)


@dataclass(frozen=True)
class ImapSource:
    """Where one IMAP folder is: the server, the user and the folder."""

    tls: bool
    host: str
    port: int
    user: str
    folder: str

    @property
    def where(self) -> str:
        """``imap://user@host:port/folder`` as a reader would name it (no password)."""
        return f"{'imaps' if self.tls else 'imap'}://{self.user}@{self.host}:{self.port}/{self.folder}"


@dataclass
class ImapRead:
    """What one folder gave: the messages read, one line per message that could not be
    used, and, when the connection broke part-way, why (``broken``)."""

    mails: list[Mail]
    problems: list[str] = field(default_factory=list)
    broken: str | None = None
    total: int = 0
    starttls: bool = False
    #: bytes of the messages read
    size: int = 0


class _Watchdog:
    """Closes the connection's socket at the deadline, from a timer thread: a blocking
    read (a greeting that never comes, a reply dribbled a byte at a time, a TLS handshake
    that stalls) then ends at once, and ``expired`` says why."""

    def __init__(self, seconds: float):
        self.expired = False
        self.sock: socket.socket | None = None
        self.conn: imaplib.IMAP4 | None = None
        self._timer = threading.Timer(max(seconds, 0.0), self._cut)
        self._timer.daemon = True
        self._timer.start()

    def _cut(self) -> None:
        self.expired = True
        sock = getattr(self.conn, "sock", None) or self.sock
        if sock is not None:
            try:  # the plain socket's shutdown: an SSL socket's own would drop its TLS state under a reader
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except OSError:
                pass

    def stop(self) -> None:
        self._timer.cancel()


def _client(tls: bool, watchdog: _Watchdog, max_literal: int) -> type[imaplib.IMAP4]:
    """imaplib's client class whose socket the watchdog can close, and which refuses a
    literal (a message body, a long reply) larger than ``max_literal`` before reading it."""
    base = imaplib.IMAP4_SSL if tls else imaplib.IMAP4

    class Watched(base):  # type: ignore[valid-type,misc]
        def _create_socket(self, timeout):
            sock = super()._create_socket(timeout)
            watchdog.sock = sock
            return sock

        #: the length of a literal refused for its size (imaplib re-raises the abort as its own)
        too_large: int | None = None

        def read(self, size: int) -> bytes:
            if size > max_literal:
                self.too_large = size
                raise imaplib.IMAP4.abort(f"{size:,}바이트")
            return super().read(size)

    return Watched


def is_imap_url(text: str) -> bool:
    """Whether a source names an IMAP folder (``imap://`` or ``imaps://``)."""
    return str(text).lower().startswith(("imap://", "imaps://"))


def _shown(url: str) -> str:
    """``url`` as a message may show it: without the password of a ``user:password@``.

    >>> _shown("imap://me:secret@host/INBOX")
    'imap://me@host/INBOX'
    """
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return parts._replace(netloc=f"{user}@{netloc[1]}").geturl()


def parse_imap_url(url: str) -> ImapSource:
    """The server, user and folder of an IMAP URL.

    >>> parse_imap_url("imap://agent@127.0.0.1:1143/Sent")
    ImapSource(tls=False, host='127.0.0.1', port=1143, user='agent', folder='Sent')
    >>> parse_imap_url("imaps://me%40example.com@mail.example.com").folder
    'INBOX'
    """
    parts = urlsplit(url)
    shown = _shown(url)  # (a password given in the address is never repeated)
    scheme = parts.scheme.lower()
    if scheme not in ("imap", "imaps"):
        raise InputError(f"{shown}: imap:// 또는 imaps:// 로 시작하는 주소가 아닙니다.")
    if not parts.hostname:
        raise InputError(f"{shown}: 주소에 서버 이름이 없습니다.")
    if not parts.username:
        raise InputError(f"{shown}: 주소에 사용자 이름이 없습니다 (imap://사용자@서버/폴더).")
    if parts.password:
        raise InputError(f"{shown}: 비밀번호를 주소에 적지 마세요. 환경 변수 `VERDICTS_IMAP_PASSWORD`나 `--password-file`로 주세요.")
    try:
        port = parts.port or (993 if scheme == "imaps" else 143)
    except ValueError:
        raise InputError(f"{shown}: 포트 번호를 읽지 못했습니다.") from None
    folder = unquote(parts.path.lstrip("/")) or "INBOX"
    return ImapSource(scheme == "imaps", parts.hostname, port, unquote(parts.username), folder)


def _said(exc: BaseException) -> str:
    """What went wrong, as the server or the TLS layer put it (no final full stop), with
    every control character visible (:func:`verdicts.safe_text.clean`): a server's reply
    never reaches the terminal raw.

    >>> print(_said(imaplib.IMAP4.error(b"\\x1b]0;pwned\\x07 NO [AUTHENTICATIONFAILED]\\x1b[2J")))
    \\x1b]0;pwned\\x07 NO [AUTHENTICATIONFAILED]\\x1b[2J
    """
    if isinstance(exc, ssl.SSLError):
        text = getattr(exc, "verify_message", None) or exc.reason or str(exc)
    elif isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    else:
        text = exc.args[0] if exc.args else str(exc)
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return clean(str(text).strip().rstrip(".")) or type(exc).__name__


def folder_name(name: str) -> str:
    """A folder name as IMAP writes it: modified UTF-7 (RFC 3501 5.1.3), quoted.

    >>> folder_name("보관함"), folder_name("A&B"), folder_name("INBOX")
    ('"&vPStANVo-"', '"A&-B"', '"INBOX"')
    """
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            data = "".join(run).encode("utf-16-be")
            out.append("&" + base64.b64encode(data).decode("ascii").rstrip("=").replace("/", ",") + "-")
            run.clear()

    for ch in name:
        if 0x20 <= ord(ch) <= 0x7E:
            flush()
            out.append("&-" if ch == "&" else ch)
        else:
            run.append(ch)
    flush()
    return '"' + "".join(out).replace("\\", "\\\\").replace('"', '\\"') + '"'


def log_in(conn: imaplib.IMAP4, user: str, password: str) -> None:
    """Log in with SASL PLAIN (UTF-8, so a Korean password works) when the server offers
    it, else with LOGIN (ASCII only)."""
    if "AUTH=PLAIN" in conn.capabilities:
        conn.authenticate("PLAIN", lambda _: f"\0{user}\0{password}".encode("utf-8"))
    elif (user + password).isascii():
        conn.login(user, password)
    else:
        raise imaplib.IMAP4.error("서버가 AUTH=PLAIN을 알리지 않아 ASCII가 아닌 사용자 이름이나 비밀번호를 보낼 수 없습니다")


_PEM_END = b"-----END CERTIFICATE-----"
#: a CA certificate file larger than this is refused (a bundle of every public CA is about 200 KB)
MAX_CAFILE_BYTES = 4 * 1024 * 1024


def _tls_context(cafile: str | None) -> ssl.SSLContext:
    """The TLS context trusting the CA certificates of ``cafile`` (else the system's).
    The file is read by :func:`verdicts.files.read_file` (a FIFO or a device is refused,
    never waited on); one that cannot be read or holds no certificate is an
    :class:`~verdicts.errors.EnvironmentFailure` naming it (exit 4)."""
    if cafile is None:
        return ssl.create_default_context()
    try:
        data = read_file(cafile, MAX_CAFILE_BYTES, "CA 인증서")
    except InputError as exc:  # missing, no permission, not a regular file, too large
        raise EnvironmentFailure(f"{cafile}: CA 인증서 파일을 읽지 못했습니다 ({reason_of(exc, cafile)}).") from None
    blocks, at = [], 0
    while (begin := data.find(b"-----BEGIN CERTIFICATE-----", at)) >= 0 and (end := data.find(_PEM_END, begin)) >= 0:
        at = end + len(_PEM_END)
        blocks.append(data[begin:at])
    try:
        if not blocks:
            raise ValueError
        return ssl.create_default_context(cadata="\n".join(b.decode("ascii") for b in blocks))
    except (ssl.SSLError, UnicodeDecodeError, ValueError) as exc:  # a file that holds no certificate
        said = _said(exc) if isinstance(exc, ssl.SSLError) else "PEM 인증서 덩이가 없습니다"
        raise EnvironmentFailure(f"{cafile}: CA 인증서 파일에서 인증서를 찾지 못했습니다 ({said}). "
                                 "서버 인증서를 발급한 CA의 PEM 파일을 주세요.") from None


def read_imap(source: ImapSource | str, password: str, *, cafile: str | None = None, timeout: float = 30.0,
              progress: Callable[[int, int], None] | None = None, deadline: float | None = None,
              max_message_bytes: int = MAX_MESSAGE_BYTES, max_run_bytes: int = MAX_RUN_BYTES, already: int = 0) -> ImapRead:
    """Every message of one IMAP folder, in date order; ``progress(done, total)`` is
    called after each message.

    ``deadline``: the :func:`time.monotonic` time by which the read ends (default: two
    minutes from now); ``max_message_bytes``: a larger message is skipped with a problem;
    ``max_run_bytes``: the read stops before the messages read (with ``already``, what
    the run read before this folder) would pass it (``broken`` says so).

    Raises :class:`~verdicts.errors.InputError` when nothing can be read: the server does
    not answer, TLS fails, the login is refused, the folder does not exist or the
    deadline passes first.  A connection that breaks after that (or the deadline, or the
    run's cap) returns what was read, with ``broken`` set.
    """
    src = parse_imap_url(source) if isinstance(source, str) else source
    where = src.where
    if deadline is None:
        deadline = time.monotonic() + DEADLINE_SECONDS
    limit = deadline - time.monotonic()
    late = f"{where}: 가져오기에 남은 시간 {josa(_seconds(limit), '이/가')} 다 지나 서버와의 연결을 끊었습니다."
    more = "제한 시간은 `--imap-timeout`이나 설정의 `[imap] timeout`으로 늘릴 수 있습니다."
    if limit <= 0:
        raise InputError(f"{late} {more}")
    context = _tls_context(cafile)
    watchdog = _Watchdog(limit)
    client = _client(src.tls, watchdog, max_message_bytes)
    try:
        options: dict[str, Any] = {"timeout": min(timeout, limit), **({"ssl_context": context} if src.tls else {})}
        conn = client(src.host, src.port, **options)
    except (OSError, imaplib.IMAP4.error) as exc:
        watchdog.stop()
        if watchdog.expired or isinstance(exc, TimeoutError):
            raise InputError(f"{late} {more}") from None
        if isinstance(exc, ssl.SSLError):
            raise InputError(f"{where}: TLS 연결을 맺지 못했습니다 ({_said(exc)}).") from None
        raise InputError(f"{where}: IMAP 서버에 연결하지 못했습니다 ({_said(exc)}).") from None
    watchdog.conn = conn
    result = ImapRead([])
    try:
        _read_folder(conn, src, password, context, result, max_message_bytes, max_run_bytes - already, progress)
        if watchdog.expired and result.broken:  # the watchdog's cut, seen in the loop as a broken connection
            result.broken = (f"{late} 메일 {result.total}통 가운데 {len(result.mails)}통을 읽었고, 읽은 메일은 그대로 "
                             f"두었습니다. {more}")
    except InputError:
        if watchdog.expired:
            raise InputError(f"{late} {more}") from None
        raise
    except (*_BROKEN, imaplib.IMAP4.error) as exc:
        if watchdog.expired:
            if not result.total:
                raise InputError(f"{late} {more}") from None
            result.broken = (f"{late} 메일 {result.total}통 가운데 {len(result.mails)}통을 읽었고, 읽은 메일은 그대로 "
                             f"두었습니다. {more}")
        elif not result.mails and result.total == 0:
            raise InputError(f"{where}: 메일을 읽기 전에 연결이 끊겼습니다 ({_said(exc)}).") from None
        else:
            result.broken = _broken(where, result.total, len(result.mails), exc)
    finally:
        try:  # still under the watchdog: a server slow to say goodbye is left at the deadline too
            conn.logout()
        except (*_BROKEN, imaplib.IMAP4.error):
            try:
                conn.shutdown()
            except OSError:
                pass
        watchdog.stop()
    result.mails.sort(key=mail_order)
    return result


def _seconds(n: float) -> str:
    return f"{max(n, 0):.3g}초" if n < 10 else f"{n:,.0f}초"


_SIZE = re.compile(rb"UID (\d+)|RFC822\.SIZE (\d+)")


def _sizes(data: list) -> dict[bytes, int]:
    """UID → size from the lines of ``UID FETCH … (RFC822.SIZE)``.

    >>> _sizes([b"1 (UID 7 RFC822.SIZE 1234)", b"2 (RFC822.SIZE 99 UID 8)"])
    {b'7': 1234, b'8': 99}
    """
    out: dict[bytes, int] = {}
    for line in data or []:
        if not isinstance(line, bytes):
            continue
        uid = size = None
        for m in _SIZE.finditer(line):
            if m.group(1):
                uid = m.group(1)
            else:
                size = int(m.group(2))
        if uid is not None and size is not None:
            out[uid] = size
    return out


def _read_folder(conn: imaplib.IMAP4, src: ImapSource, password: str, context: ssl.SSLContext, result: ImapRead,
                 max_message_bytes: int, room: int, progress: Callable[[int, int], None] | None) -> None:
    """Log in, open the folder and read its messages into ``result`` (see :func:`read_imap`);
    ``room``: the bytes the run may still read."""
    where = src.where
    if not src.tls and "STARTTLS" not in conn.capabilities:
        raise InputError(f"{where}: 서버가 STARTTLS를 알리지 않아 로그인하면 비밀번호가 암호화되지 않은 채 나가므로 "
                         "로그인하지 않았으니, TLS로 여는 `imaps://` 주소를 쓰거나 서버에서 STARTTLS를 켜 주세요.")
    try:
        if not src.tls:
            conn.starttls(context)
            result.starttls = True
    except (ssl.SSLError, imaplib.IMAP4.error) as exc:
        raise InputError(f"{where}: 서버가 STARTTLS를 알렸지만 TLS로 바꾸지 못했습니다 ({_said(exc)}). "
                         "서버 인증서를 발급한 CA 인증서 파일을 주면 그것으로 확인합니다.") from None
    try:
        log_in(conn, src.user, password)
    except imaplib.IMAP4.abort as exc:
        raise InputError(f"{where}: 로그인하는 사이에 연결이 끊겼습니다 ({_said(exc)}).") from None
    except imaplib.IMAP4.error as exc:
        raise InputError(f"{where}: {josa(src.user, '으로/로')} 로그인하지 못했습니다. 사용자 이름과 비밀번호를 확인해 주세요 "
                         f"(서버 답: {_said(exc)}).") from None
    status, selected = conn.select(folder_name(src.folder), readonly=True)
    if status != "OK":
        said = clean((selected[0].decode("utf-8", "replace") if selected and isinstance(selected[0], bytes)
                      else str(selected)).strip().rstrip("."))
        raise InputError(f"{where}: {josa(code(src.folder), '이라/라')}는 폴더를 열지 못했습니다 (서버 답: {said}).")
    try:
        # imaplib leaves out a None argument (here: no charset); typeshed takes str only
        status, data = conn.uid("SEARCH", None, "ALL")  # type: ignore[arg-type]
    except imaplib.IMAP4.abort:
        raise
    except imaplib.IMAP4.error as exc:  # imaplib's cap on one line of a reply (1,000,000 bytes)
        if "got more than" not in str(exc):
            raise
        raise InputError(f"{where}: 서버가 보낸 메일 목록(`UID SEARCH`의 답)이 한 줄에 {getattr(imaplib, '_MAXLINE', 1_000_000):,}바이트를 넘어 "
                         "읽지 않았습니다. 메일이 아주 많은 폴더라면 나누어 읽어 주세요.") from None
    uids = data[0].split() if status == "OK" and data and data[0] else []
    if not uids:
        return
    status, data = conn.uid("FETCH", f"{uids[0].decode()}:{uids[-1].decode()}", "(RFC822.SIZE)")
    sizes = _sizes(data) if status == "OK" else {}
    result.total = len(uids)
    for done, uid in enumerate(uids, start=1):
        label = f"{where} UID {uid.decode()}"
        size = sizes.get(uid)
        if size is not None and size > max_message_bytes:
            result.problems.append(f"{label}: 메일 크기 {size:,}바이트가 한 통의 한도 {max_message_bytes:,}바이트를 넘어 이 메일은 "
                                   "읽지 않았습니다. 한도는 `--max-message-mb`나 설정의 `[imap] max_message_mb`로 늘릴 수 "
                                   "있습니다.")
            continue
        if size is not None and result.size + size > room:
            result.broken = (f"{where}: 한 번에 가져올 수 있는 크기의 한도에 닿아 메일 {result.total}통 가운데 "
                             f"앞의 {done - 1}통까지만 가져오고 멈췄습니다 (UID {uid.decode()}는 {size:,}바이트, 남은 한도 "
                             f"{max(room - result.size, 0):,}바이트). 읽은 메일은 그대로 두었고, 나머지 "
                             f"{result.total - done + 1}통은 폴더를 나누거나 `--max-import-mb`(설정의 "
                             "`[imap] max_import_mb`)로 한도를 늘려 읽어 주세요.")
            break
        try:
            status, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
        except _BROKEN as exc:
            sent = getattr(conn, "too_large", None)
            if sent is None:
                result.broken = _broken(where, result.total, done - 1, exc, uid.decode())
                break
            try:
                conn.shutdown()  # the rest of that body is never read, not even to log out
            except OSError:
                pass
            result.broken = (f"{label}: 서버가 이 메일을 한 통의 한도 {max_message_bytes:,}바이트보다 큰 {sent:,}바이트로 "
                             f"보내 받지 않고 연결을 끊었습니다. 메일 {result.total}통 가운데 {done - 1}통을 읽은 채로 두었고, "
                             f"나머지 {result.total - done + 1}통은 다시 읽어야 합니다.")
            break
        raw = next((part[1] for part in data or [] if isinstance(part, tuple) and len(part) > 1), None)
        if status != "OK" or not isinstance(raw, bytes):
            result.problems.append(f"{label}: 서버가 메일 본문을 주지 않아 이 메일은 빠졌습니다.")
            continue
        result.size += len(raw)
        mail = mail_of(email.message_from_bytes(raw, policy=policy.default), label, result.problems)
        if mail is not None:
            result.mails.append(mail)
        if progress is not None:
            progress(done, result.total)


def _broken(where: str, total: int, read: int, exc: BaseException, uid: str | None = None) -> str:
    """The one sentence for a connection that broke after the login: how many of the
    folder's messages were read, which one was being fetched, what the connection said.

    >>> _broken("imap://a@h:143/INBOX", 5, 2, imaplib.IMAP4.abort("socket error: EOF"), "3")
    'imap://a@h:143/INBOX: 메일 5통 가운데 2통을 읽고 UID 3을 받는 사이에 연결이 끊겼습니다 (서버가 연결을 닫음). 읽은 메일은 그대로 두었고, 나머지 3통은 다시 읽어야 합니다.'
    """
    said = _said(exc)
    if said.endswith("EOF"):  # imaplib's "socket error: EOF": the other side closed
        said = "서버가 연결을 닫음"
    at = f"읽고 UID {josa(uid, '을/를')} 받는 사이에" if uid is not None else "읽은 뒤"
    return (f"{where}: 메일 {total}통 가운데 {read}통을 {at} 연결이 끊겼습니다 ({said}). "
            f"읽은 메일은 그대로 두었고, 나머지 {total - read}통은 다시 읽어야 합니다.")

