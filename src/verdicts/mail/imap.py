"""Reading one folder of an IMAP mailbox, for the mailbox importer.

A source is written as a URL: ``imap://USER@HOST:PORT/FOLDER`` (STARTTLS when the server
offers it) or ``imaps://USER@HOST:PORT/FOLDER`` (TLS from the start); the folder defaults
to ``INBOX``.  The folder is opened read-only and every message fetched with
``BODY.PEEK[]``, so reading marks nothing as seen.  Messages are fetched one by one: when
the connection drops part-way, what was read so far is kept and the break is reported
(:class:`ImapRead`), so a caller can write it and say what is missing.
"""

from __future__ import annotations

import base64
import email
import imaplib
import ssl
from dataclasses import dataclass, field
from email import policy
from typing import Callable
from urllib.parse import unquote, urlsplit

from verdicts.errors import EnvironmentFailure, InputError
from verdicts.files import read_file, reason_of
from verdicts.korean import code, josa
from verdicts.safe_text import clean

from .importer import Mail, mail_of

__all__ = ["ImapSource", "ImapRead", "is_imap_url", "parse_imap_url", "read_imap", "folder_name", "log_in"]

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
              progress: Callable[[int, int], None] | None = None) -> ImapRead:
    """Every message of one IMAP folder, in date order; ``progress(done, total)`` is
    called after each message.

    Raises :class:`~verdicts.errors.InputError` when nothing can be read: the server does
    not answer, TLS fails, the login is refused or the folder does not exist.  A
    connection that breaks after that returns what was read, with ``broken`` set.
    """
    src = parse_imap_url(source) if isinstance(source, str) else source
    where = src.where
    context = _tls_context(cafile)
    try:
        conn = (imaplib.IMAP4_SSL(src.host, src.port, ssl_context=context, timeout=timeout) if src.tls
                else imaplib.IMAP4(src.host, src.port, timeout=timeout))
    except ssl.SSLError as exc:
        raise InputError(f"{where}: TLS 연결을 맺지 못했습니다 ({_said(exc)}).") from None
    except (OSError, imaplib.IMAP4.error) as exc:
        raise InputError(f"{where}: IMAP 서버에 연결하지 못했습니다 ({_said(exc)}).") from None
    result = ImapRead([])
    try:
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
        # imaplib leaves out a None argument (here: no charset); typeshed takes str only
        status, data = conn.uid("SEARCH", None, "ALL")  # type: ignore[arg-type]
        uids = data[0].split() if status == "OK" and data and data[0] else []
        result.total = len(uids)
        for done, uid in enumerate(uids, start=1):
            label = f"{where} UID {uid.decode()}"
            try:
                status, data = conn.uid("FETCH", uid, "(BODY.PEEK[])")
            except _BROKEN as exc:
                result.broken = _broken(where, result.total, done - 1, exc, uid.decode())
                break
            raw = next((part[1] for part in data or [] if isinstance(part, tuple) and len(part) > 1), None)
            if status != "OK" or not isinstance(raw, bytes):
                result.problems.append(f"{label}: 서버가 메일 본문을 주지 않아 이 메일은 빠졌습니다.")
                continue
            mail = mail_of(email.message_from_bytes(raw, policy=policy.default), label, result.problems)
            if mail is not None:
                result.mails.append(mail)
            if progress is not None:
                progress(done, result.total)
    except _BROKEN as exc:
        if not result.mails and result.total == 0:
            raise InputError(f"{where}: 메일을 읽기 전에 연결이 끊겼습니다 ({_said(exc)}).") from None
        result.broken = _broken(where, result.total, len(result.mails), exc)
    finally:
        try:
            conn.logout()
        except (*_BROKEN, imaplib.IMAP4.error):
            try:
                conn.shutdown()
            except OSError:
                pass
    result.mails.sort(key=_order)
    return result


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


def _order(m: Mail):
    from datetime import datetime

    return (m.date or datetime.min, m.message_id)
