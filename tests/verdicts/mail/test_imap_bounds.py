"""How long and how much `verdicts mail import imap://…` may read: an overall deadline
(against real TCP peers on loopback that accept and then never answer, or dribble their
greeting a byte at a time) and a size cap per message and per import (against a real
dovecot), each ending with a sentence that says what happened, never silently."""

from __future__ import annotations

import contextlib
import os
import socket
import ssl
import subprocess
import sys
import threading
import time
from email.message import EmailMessage
from pathlib import Path

import pytest

from verdicts.errors import InputError
from verdicts.mail.imap import read_imap

from . import imap_server
from .mailboxes import received

ROOT = Path(__file__).resolve().parents[3]
USER, PASSWORD = "agent", "맑은-하늘-42"


def _run(*args: str, cwd: Path = ROOT) -> tuple[subprocess.CompletedProcess, float]:
    env = dict(os.environ, VERDICTS_IMAP_PASSWORD=PASSWORD)
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "verdicts.cli", "mail", "import", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, env=env, timeout=120)
    return done, time.monotonic() - started


class SlowPeer:
    """A TCP server on loopback that accepts every connection and then either says
    nothing at all (``dribble=None``) or sends an IMAP greeting one byte every
    ``dribble`` seconds, never finishing its line in time."""

    def __init__(self, dribble: float | None):
        self.dribble = dribble
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.accepted = 0
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        while not self._stop.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            self.accepted += 1
            t = threading.Thread(target=self._talk, args=(conn,), daemon=True)
            t.start()
            self._threads.append(t)

    def _talk(self, conn: socket.socket) -> None:
        greeting = b"* OK [CAPABILITY IMAP4rev1 STARTTLS AUTH=PLAIN] slow server ready" + b" ." * 10_000 + b"\r\n"
        with conn:
            for byte in greeting:
                if self._stop.wait(self.dribble if self.dribble is not None else 0.5):
                    return
                if self.dribble is not None:
                    try:
                        conn.sendall(bytes([byte]))
                    except OSError:
                        return

    def close(self) -> None:
        self._stop.set()
        self.listener.close()
        for t in self._threads:
            t.join(timeout=5)

    def __enter__(self) -> "SlowPeer":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@pytest.mark.parametrize("dribble", [None, 0.05], ids=["silent", "dribbling"])
def test_a_server_that_never_finishes_answering_is_left_at_the_deadline(tmp_path, dribble):
    # the per-read timeout (30 s) never fires against a dribbling server: only the overall deadline ends it
    with SlowPeer(dribble) as peer:
        done, took = _run(f"imap://{USER}@127.0.0.1:{peer.port}/INBOX", "-o", tmp_path / "out", "--imap-timeout", "1.5")
        assert peer.accepted == 1
    assert done.returncode == 2, done.stderr
    assert "가져오기에 남은 시간 1.5초가 다 지나 서버와의 연결을 끊었습니다." in done.stderr and "--imap-timeout" in done.stderr
    assert "Traceback" not in done.stderr
    assert took < 1.5 + 6, took  # the deadline, plus starting Python
    assert not (tmp_path / "out" / "mailbox_thread.csv").exists()


def test_the_deadline_is_a_configuration_key_too(tmp_path):
    (tmp_path / "verdicts.toml").write_text("[mail.imap]\ntimeout = 1\n", encoding="utf-8")
    with SlowPeer(0.05) as peer:
        done, took = _run(f"imap://{USER}@127.0.0.1:{peer.port}/INBOX", "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2 and "가져오기에 남은 시간 1초가 다 지나" in done.stderr, done.stderr
    assert took < 1 + 6, took
    (tmp_path / "verdicts.toml").write_text("[mail.imap]\ntimeuot = 1\n", encoding="utf-8")
    done, _ = _run(f"imap://{USER}@127.0.0.1:9/INBOX", "-o", tmp_path / "out", cwd=tmp_path)
    assert done.returncode == 2 and "알 수 없는 키 `imap.timeuot`" in done.stderr and "`timeout`" in done.stderr


def test_the_library_reader_keeps_the_same_deadline():
    with SlowPeer(0.05) as peer:
        started = time.monotonic()
        with pytest.raises(InputError) as late:
            read_imap(f"imap://{USER}@127.0.0.1:{peer.port}/INBOX", PASSWORD, deadline=time.monotonic() + 0.5)
        took = time.monotonic() - started
    assert "다 지나 서버와의 연결을 끊었습니다" in str(late.value) and took < 3, took


def _big(kb: int, mid: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = "발신자 <big@files.example>"
    msg["To"] = "me@home.example"
    msg["Subject"] = "첨부 파일 보냅니다"
    msg["Date"] = "Wed, 04 Mar 2026 09:00:00 +0900"
    msg["Message-ID"] = mid
    msg.set_content("첨부한 도면을 확인해 주세요.\n")
    msg.add_attachment(os.urandom(kb * 1024), maintype="application", subtype="octet-stream", filename="도면.bin")
    return msg.as_bytes()


@pytest.fixture(scope="module")
def imap():
    why = imap_server.available()
    if why:
        pytest.fail(why)
    with imap_server.dovecot({USER: PASSWORD}) as server:
        small = received()
        server.fill(USER, PASSWORD, "INBOX", [small[0], _big(300, "<big@files.example>"), small[1], small[2]])
        yield server


def test_a_message_over_the_cap_is_skipped_and_named_with_its_uid_and_size(tmp_path, imap):
    out = tmp_path / "out"
    done, _ = _run(imap.url(USER), "-o", out, "--cafile", imap.cafile, "--max-message-mb", "0.2")
    assert done.returncode == 1, done.stderr
    line = next(x for x in done.stderr.splitlines() if "UID 2" in x)
    assert f"{imap.url(USER)} UID 2: 메일 크기 " in line and "바이트가 한 통의 한도 209,715바이트를 넘어 이 메일은 읽지 않았습니다." in line
    size = int(line.split("메일 크기 ")[1].split("바이트")[0].replace(",", ""))
    assert size > 300 * 1024
    assert "받은 메일 3통을" in done.stderr  # the three others are read
    # under the default caps the same folder is read whole
    done, _ = _run(imap.url(USER), "-o", tmp_path / "all", "--cafile", imap.cafile)
    assert done.returncode == 0 and "받은 메일 4통을" in done.stderr, done.stderr


def test_the_import_stops_cleanly_at_its_cap_and_says_so(tmp_path, imap):
    out = tmp_path / "out"
    done, _ = _run(imap.url(USER), "-o", out, "--cafile", imap.cafile, "--max-import-mb", "0.1")
    assert done.returncode == 1, done.stderr
    assert (f"{imap.url(USER)}: 한 번에 가져올 수 있는 크기의 한도에 닿아 메일 4통 가운데 앞의 1통까지만 가져오고 멈췄습니다 "
            "(UID 2는") in done.stderr
    assert "나머지 3통은 폴더를 나누거나 `--max-import-mb`" in done.stderr
    assert "받은 메일 1통을" in done.stderr and (out / "mailbox_thread.csv").exists()
    got = read_imap(imap.url(USER), PASSWORD, cafile=imap.cafile, max_run_bytes=10**9, already=10**9 - 1)
    assert got.mails == [] and got.broken and "앞의 0통까지만 가져오고 멈췄습니다" in got.broken


def test_a_body_sent_larger_than_the_cap_is_never_read_into_memory():
    # a server may give a small RFC822.SIZE and then send a huge literal: imaplib reads a
    # literal with one read(size); the reader refuses that size before reading a byte
    import imaplib
    import io

    from verdicts.mail.imap import _client, _Watchdog

    watchdog = _Watchdog(5)
    try:
        client = object.__new__(_client(False, watchdog, 1000))
        client.file = io.BytesIO(b"x" * 5000)
        assert client.read(1000) == b"x" * 1000
        with pytest.raises(imaplib.IMAP4.abort):
            client.read(2_100_000_000)
        assert client.too_large == 2_100_000_000
        assert client.file.tell() == 1000  # nothing more was read
    finally:
        watchdog.stop()


class DribblingRelay:
    """A TCP relay on loopback between the reader and dovecot that, once armed, passes
    the server's next answers on one byte every ``pace`` seconds (TLS passes through
    untouched: it only slows the bytes down) — a server that becomes slow part-way."""

    def __init__(self, host: str, port: int, pace: float = 0.2):
        self.upstream, self.pace = (host, port), pace
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.armed = threading.Event()
        self._stop = threading.Event()
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._threads[0].start()

    def _accept(self) -> None:
        try:
            client, _ = self.listener.accept()
        except OSError:
            return
        server = socket.create_connection(self.upstream, timeout=20)
        for src, dst, slow in ((client, server, False), (server, client, True)):
            t = threading.Thread(target=self._pump, args=(src, dst, slow), daemon=True)
            t.start()
            self._threads.append(t)

    def _pump(self, src: socket.socket, dst: socket.socket, slow: bool) -> None:
        try:
            while not self._stop.is_set():
                data = src.recv(65536)
                if not data:
                    break
                if slow and self.armed.is_set():
                    for i in range(len(data)):
                        if self._stop.wait(self.pace):
                            return
                        dst.sendall(data[i:i + 1])
                else:
                    dst.sendall(data)
        except OSError:
            pass
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self._stop.set()
        self.listener.close()
        for t in self._threads:
            t.join(timeout=5)


def test_a_server_that_turns_slow_part_way_keeps_what_was_read_and_says_so(imap):
    relay = DribblingRelay(imap.host, imap.port)
    try:
        def slow_after_one(done: int, total: int) -> None:
            if done == 1:
                relay.armed.set()

        url = imap.url(USER).replace(f":{imap.port}/", f":{relay.port}/")
        started = time.monotonic()
        got = read_imap(url, PASSWORD, cafile=imap.cafile, timeout=20, progress=slow_after_one, deadline=started + 4)
        took = time.monotonic() - started
    finally:
        relay.close()
    assert 3.5 < took < 6, took  # the deadline, not the 20 s per-read timeout nor the whole dribble
    assert [m.message_id for m in got.mails] == ["<r1@apt.example>"]
    assert got.broken is not None and got.broken.startswith(f"{url}: 가져오기에 남은 시간 ")
    assert "다 지나 서버와의 연결을 끊었습니다. 메일 4통 가운데 1통을 읽었고, 읽은 메일은 그대로 두었습니다." in got.broken


class ScriptedImaps:
    """An IMAPS peer on loopback (TLS with a certificate made for the test) that speaks
    just enough IMAP to log in and open a folder, then answers ``UID SEARCH`` and ``UID
    FETCH`` as a hostile server would: ``search`` is the line it sends for the search,
    ``body_size`` the length of the message body it announces while ``RFC822.SIZE`` says
    100 bytes (it sends at most 1 MB of it, then waits)."""

    def __init__(self, folder: Path, search: bytes = b"* SEARCH 1", body_size: int = 100):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                        "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(folder / "key.pem"),
                        "-out", str(folder / "cert.pem")], check=True, capture_output=True, timeout=60)
        self.cafile = str(folder / "cert.pem")
        self.context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        self.context.load_cert_chain(folder / "cert.pem", folder / "key.pem")
        self.search, self.body_size = search, body_size
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.body_bytes_sent = 0
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        try:
            raw, _ = self.listener.accept()
            conn = self.context.wrap_socket(raw, server_side=True)
        except OSError:
            return
        with conn, conn.makefile("rb") as lines:
            conn.sendall(b"* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN] scripted\r\n")
            try:
                for line in lines:
                    tag, _, rest = line.strip().partition(b" ")
                    command = rest.upper()
                    if command.startswith(b"CAPABILITY"):
                        conn.sendall(b"* CAPABILITY IMAP4rev1 AUTH=PLAIN\r\n" + tag + b" OK done\r\n")
                    elif command.startswith(b"AUTHENTICATE"):
                        conn.sendall(b"+ \r\n")
                        lines.readline()
                        conn.sendall(tag + b" OK logged in\r\n")
                    elif command.startswith(b"SELECT") or command.startswith(b"EXAMINE"):
                        conn.sendall(b"* 1 EXISTS\r\n" + tag + b" OK [READ-ONLY] done\r\n")
                    elif command.startswith(b"UID SEARCH"):
                        conn.sendall(self.search + b"\r\n" + tag + b" OK done\r\n")
                    elif b"RFC822.SIZE" in command:
                        conn.sendall(b"* 1 FETCH (UID 1 RFC822.SIZE 100)\r\n" + tag + b" OK done\r\n")
                    elif command.startswith(b"UID FETCH"):
                        conn.sendall(b"* 1 FETCH (UID 1 BODY[] {%d}\r\n" % self.body_size)
                        chunk = b"x" * 65536
                        while self.body_bytes_sent < min(self.body_size, 1 << 20):
                            conn.sendall(chunk)
                            self.body_bytes_sent += len(chunk)
                    elif command.startswith(b"LOGOUT"):
                        conn.sendall(b"* BYE\r\n" + tag + b" OK bye\r\n")
                        return
                    else:
                        conn.sendall(tag + b" BAD unknown\r\n")
            except OSError:
                return

    def url(self) -> str:
        return f"imaps://{USER}@127.0.0.1:{self.port}/INBOX"

    def close(self) -> None:
        self.listener.close()
        self._thread.join(timeout=10)


def test_a_body_larger_than_the_size_the_server_gave_is_left_unread(tmp_path):
    peer = ScriptedImaps(tmp_path, body_size=2_100_000_000)
    try:
        started = time.monotonic()
        got = read_imap(peer.url(), PASSWORD, cafile=peer.cafile, timeout=20, max_message_bytes=1000,
                        deadline=started + 30)
        took = time.monotonic() - started
    finally:
        peer.close()
    assert took < 10, took  # left at once, not read to its end nor held until the deadline
    assert got.mails == [] and got.total == 1
    assert got.broken == (f"{peer.url()} UID 1: 서버가 이 메일을 한 통의 한도 1,000바이트보다 큰 2,100,000,000바이트로 보내 "
                          "받지 않고 연결을 끊었습니다. 메일 1통 가운데 0통을 읽은 채로 두었고, 나머지 1통은 다시 읽어야 합니다.")


def test_a_search_reply_longer_than_a_line_may_be_is_named(tmp_path):
    peer = ScriptedImaps(tmp_path, search=b"* SEARCH " + b" ".join(b"%d" % n for n in range(1, 200_000)))
    try:
        with pytest.raises(InputError) as refused:
            read_imap(peer.url(), PASSWORD, cafile=peer.cafile, timeout=20)
    finally:
        peer.close()
    assert str(refused.value) == (f"{peer.url()}: 서버가 보낸 메일 목록(`UID SEARCH`의 답)이 한 줄에 1,000,000바이트를 넘어 "
                                  "읽지 않았습니다. 메일이 아주 많은 폴더라면 나누어 읽어 주세요.")
