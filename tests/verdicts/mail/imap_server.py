"""A real IMAP server for the importer's tests: Debian's dovecot (``scripts/setup.sh
--test`` installs ``dovecot-imapd``), started on free loopback ports (IMAP with STARTTLS, and IMAPS) with a temporary
configuration, a passwd file and a Maildir per user, and stopped afterwards.

It runs unprivileged: as the current user, or, when the tests run as root, as the
``dovecot`` system user (its files are handed to that user).  TLS is offered through
STARTTLS with a self-signed certificate made for the run by ``openssl``; the client
trusts it with ``cafile``.  The system's dovecot service is never touched.

A dropped connection is made with :class:`CuttingRelay`, a relay on loopback between the
importer and the server that closes at a named command, so the test knows exactly what
was read before the break (a kill from outside lands at whatever moment the load allows).
"""

from __future__ import annotations

import contextlib
import email.utils
import imaplib
import os
import pwd
import selectors
import shutil
import socket
import ssl
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from verdicts.mail.imap import log_in

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"


@dataclass
class ImapServer:
    host: str
    port: int
    tls_port: int
    cafile: str
    config: Path
    run_as: str

    def url(self, user: str, folder: str = "INBOX") -> str:
        return f"imap://{user}@{self.host}:{self.port}/{folder}"

    def connect(self, user: str, password: str) -> imaplib.IMAP4:
        conn = imaplib.IMAP4(self.host, self.port, timeout=20)
        conn.starttls(ssl.create_default_context(cafile=self.cafile))
        log_in(conn, user, password)
        return conn

    def fill(self, user: str, password: str, folder: str, messages: list[bytes]) -> None:
        """APPEND each message to ``folder`` (created when missing), the way a mail
        client files mail."""
        conn = self.connect(user, password)
        try:
            conn.create(folder)  # NO when it exists: fine
            for raw in messages:
                status, data = conn.append(folder, None, imaplib.Time2Internaldate(time.time()), raw)
                assert status == "OK", data
        finally:
            conn.logout()


class CuttingRelay:
    """A TCP relay on loopback between a client and the server, which ends the
    connection at a point the test names instead of at whatever moment a kill lands.

    :meth:`cut_at_next_command` arms it; the next bytes the client sends (its next
    command, TLS or not) then end the connection: with ``reply_bytes=0`` the command never
    reaches the server; with ``reply_bytes=N`` it is passed on and only the first ``N``
    bytes of the server's answer come back.  Both sides are then closed (the client's
    with a FIN, its later bytes read and dropped, so it sees an orderly EOF rather than a
    reset).  Arming is synchronous: a client that arms it between two commands knows
    exactly which command meets the cut."""

    def __init__(self, host: str, port: int) -> None:
        self._upstream = (host, port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.host, self.port = self._listener.getsockname()[:2]
        self._lock = threading.Lock()
        self._armed: int | None = None
        self._closed = False
        self._threads: list[threading.Thread] = []
        #: how many connections were cut
        self.cuts = 0
        accept = threading.Thread(target=self._accept, daemon=True)
        accept.start()
        self._threads.append(accept)

    def cut_at_next_command(self, reply_bytes: int = 0) -> None:
        with self._lock:
            self._armed = reply_bytes

    def close(self) -> None:
        """Stop accepting and wait for every thread of the relay to end (the shutdown
        wakes the ``accept``; a relay ends within its half-second poll)."""
        self._closed = True
        with contextlib.suppress(OSError):
            self._listener.shutdown(socket.SHUT_RDWR)
        self._listener.close()
        for thread in self._threads:
            thread.join(timeout=10)

    def __enter__(self) -> "CuttingRelay":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def _take_arm(self) -> int | None:
        with self._lock:
            armed, self._armed = self._armed, None
            return armed

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            thread = threading.Thread(target=self._relay, args=(client,), daemon=True)
            thread.start()
            self._threads.append(thread)

    def _relay(self, client: socket.socket) -> None:
        server = socket.create_connection(self._upstream, timeout=20)
        budget: int | None = None  # bytes of the answer still to pass before the cut
        with selectors.DefaultSelector() as sel, client, server:
            sel.register(client, selectors.EVENT_READ)
            sel.register(server, selectors.EVENT_READ)
            while not self._closed:
                for key, _ in sel.select(timeout=0.5):
                    data = key.fileobj.recv(65536)
                    if not data:
                        return
                    if key.fileobj is client:
                        armed = self._take_arm()
                        if armed == 0:
                            return self._cut(client)
                        if armed is not None:
                            budget = armed
                        server.sendall(data)
                    elif budget is None:
                        client.sendall(data)
                    else:
                        client.sendall(data[:budget])
                        budget -= len(data[:budget])
                        if budget == 0:
                            return self._cut(client)

    def _cut(self, client: socket.socket) -> None:
        """Close towards the client with a FIN and read what it still sends until it
        closes too (unread bytes at close would make a reset instead of an EOF)."""
        self.cuts += 1
        client.shutdown(socket.SHUT_WR)
        client.settimeout(20)
        with contextlib.suppress(OSError):
            while client.recv(65536):
                pass


def available() -> str | None:
    """Why a server cannot be started here, or ``None``."""
    if not Path(DOVECOT).exists():
        return "dovecot is missing: run `bash scripts/setup.sh --test` (it installs dovecot-imapd)."
    if not shutil.which("openssl"):
        return "openssl is missing (it makes the server's test certificate)."
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _as_user(name: str) -> dict:
    if os.geteuid() != 0:
        return {}
    entry = pwd.getpwnam(name)
    return {"user": entry.pw_uid, "group": entry.pw_gid}


def _config(root: Path, port: int, tls_port: int, user: str, group: str, uid: int, tls: bool = True) -> str:
    ssl_lines = f"ssl = yes\nssl_cert = <{root}/cert.pem\nssl_key = <{root}/key.pem" if tls else "ssl = no"
    imaps = f"""
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}""" if tls else ""
    return f"""
base_dir = {root}/run
state_dir = {root}/state
instance_name = verdicts-test-{port}
protocols = imap
listen = 127.0.0.1
log_path = {root}/dovecot.log
first_valid_uid = {uid}
last_valid_uid = {uid}
default_internal_user = {user}
default_internal_group = {group}
default_login_user = {user}
{ssl_lines}
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
mail_location = maildir:{root}/mail/%u/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {root}/passwd
}}
userdb {{
  driver = static
  args = uid={uid} gid={group} home={root}/mail/%u
}}
service imap-login {{
  chroot =
  inet_listener imap {{
    address = 127.0.0.1
    port = {port}
  }}{imaps}
}}
service anvil {{
  chroot =
}}
namespace inbox {{
  inbox = yes
}}
"""


@contextlib.contextmanager
def dovecot(users: dict[str, str], tls: bool = True) -> Iterator[ImapServer]:
    """A dovecot serving ``users`` (name → password) on a free loopback port, in a
    temporary folder of its own (pytest's folders are closed to other users), removed
    afterwards; with ``tls=False``, one that offers no TLS at all (no STARTTLS, no IMAPS
    port), as a badly set-up server or a STARTTLS-stripping relay would look."""
    root = Path(tempfile.mkdtemp(prefix="verdicts-dovecot-"))
    run_as = pwd.getpwuid(os.geteuid()).pw_name if os.geteuid() != 0 else "dovecot"
    entry = pwd.getpwnam(run_as)
    group = __import__("grp").getgrgid(entry.pw_gid).gr_name
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(root / "key.pem"), "-out", str(root / "cert.pem")],
                   check=True, capture_output=True, timeout=60)
    (root / "passwd").write_text("".join(f"{u}:{{PLAIN}}{p}\n" for u, p in users.items()), encoding="utf-8")
    port, tls_port = _free_port(), _free_port()
    while tls_port == port:
        tls_port = _free_port()
    config = root / "dovecot.conf"
    config.write_text(_config(root, port, tls_port, run_as, group, entry.pw_uid, tls), encoding="utf-8")
    for sub in ("run", "state", "mail"):
        (root / sub).mkdir(exist_ok=True)
    if os.geteuid() == 0:
        for path in [root, *root.rglob("*")]:
            os.chown(path, entry.pw_uid, entry.pw_gid)
    out = open(root / "dovecot.out", "wb")
    proc = subprocess.Popen([DOVECOT, "-F", "-c", str(config)], stdout=out, stderr=subprocess.STDOUT, **_as_user(run_as))
    try:
        deadline = time.monotonic() + 20
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"dovecot stopped at start: {(root / 'dovecot.out').read_text(errors='replace')}"
                                   f"{(root / 'dovecot.log').read_text(errors='replace') if (root / 'dovecot.log').exists() else ''}")
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=1) as s:
                if s.recv(100).startswith(b"* OK"):
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("dovecot did not answer on its port within 20 seconds")
            time.sleep(0.1)
        yield ImapServer("127.0.0.1", port, tls_port, str(root / "cert.pem"), config, run_as)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        out.close()
        shutil.rmtree(root, ignore_errors=True)


def message_date(when: str) -> str:
    """An RFC 5322 date for an ISO moment in UTC (``2026-03-02T10:00``)."""
    from datetime import datetime, timezone

    return email.utils.format_datetime(datetime.fromisoformat(when).replace(tzinfo=timezone.utc))
