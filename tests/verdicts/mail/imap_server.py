"""A real IMAP server for the importer's tests: Debian's dovecot (``scripts/setup.sh
--test`` installs ``dovecot-imapd``), started on free loopback ports (IMAP with STARTTLS, and IMAPS) with a temporary
configuration, a passwd file and a Maildir per user, and stopped afterwards.

It runs unprivileged: as the current user, or, when the tests run as root, as the
``dovecot`` system user (its files are handed to that user).  TLS is offered through
STARTTLS with a self-signed certificate made for the run by ``openssl``; the client
trusts it with ``cafile``.  The system's dovecot service is never touched.
"""

from __future__ import annotations

import contextlib
import email.utils
import imaplib
import os
import pwd
import shutil
import socket
import ssl
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from verdicts.mail.imap import log_in

DOVECOT = shutil.which("dovecot") or "/usr/sbin/dovecot"
DOVEADM = shutil.which("doveadm") or "/usr/bin/doveadm"


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

    def kick(self, user: str) -> None:
        """Drop every connection of ``user`` (``doveadm kick``): the server side of a
        broken connection."""
        subprocess.run([DOVEADM, "-c", str(self.config), "kick", user], check=True, capture_output=True,
                       timeout=20, **_as_user(self.run_as))


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


def _config(root: Path, port: int, tls_port: int, user: str, group: str, uid: int) -> str:
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
ssl = yes
ssl_cert = <{root}/cert.pem
ssl_key = <{root}/key.pem
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
  }}
  inet_listener imaps {{
    address = 127.0.0.1
    port = {tls_port}
    ssl = yes
  }}
}}
service anvil {{
  chroot =
}}
namespace inbox {{
  inbox = yes
}}
"""


@contextlib.contextmanager
def dovecot(users: dict[str, str]) -> Iterator[ImapServer]:
    """A dovecot serving ``users`` (name → password) on a free loopback port, in a
    temporary folder of its own (pytest's folders are closed to other users), removed
    afterwards."""
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
    config.write_text(_config(root, port, tls_port, run_as, group, entry.pw_uid), encoding="utf-8")
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
