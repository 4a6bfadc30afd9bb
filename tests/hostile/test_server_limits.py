"""``storygraph serve`` against hostile and careless clients, for real: a server
subprocess on loopback, raw sockets and real HTTP requests.

* a body length that is negative, missing, not a number or over the limit is refused
  with a Korean page before any of the body is read; a chunked body is cut at the limit;
* a client that stalls (in its headers, in its body, or trickling) is dropped after the
  timeout, and an idle connection is closed;
* a lint past its budget is killed with its worker and the client gets a page;
* a bounded load test: while hostile uploads are refused, stalled or stopped, other
  clients' ``GET /`` and ``GET /sample`` come back within a second;
* Ctrl+C or SIGTERM in the middle of a request leaves no temporary folder and no worker;
* a non-loopback address is refused unless ``--allow-remote`` says so.
"""

from __future__ import annotations

import os
import signal
import socket
import statistics
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import html as htmllib
import re

import pytest
from verdicts.korean import is_polite_sentence

from tests.storygraph.screen_server import BIN, leftovers, multipart, served, serving

READ_TIMEOUT = 1.0  # --read-timeout: a pause in a body, and the whole request head
BODY_TIMEOUT = 3.0  # --body-timeout
LINT_TIMEOUT = 2.0  # --lint-timeout
LINGER = 2.0  # ServerLimits.linger: after a refusal, what still arrives is thrown away this long
LIMIT_MB = 4
ARGS = ("--max-upload-mb", str(LIMIT_MB), "--read-timeout", str(READ_TIMEOUT), "--body-timeout", str(BODY_TIMEOUT),
        "--lint-timeout", str(LINT_TIMEOUT), "--max-lints", "1")


def slow_scenario(scenes: int = 20_000) -> bytes:
    """A valid union CSV whose lint and screen take far longer than the lint budget
    (a chain of ``scenes`` scenes; 20,000 take about ten seconds here)."""
    head = ("scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
            "flag,label,type,min_value,max_value,values\n")
    rows = [f"S{i},장면 {i},{'Y' if i == 0 else 'N'},{'Y' if i == scenes - 1 else 'N'},,,,,,,,,,,,\n" for i in range(scenes)]
    rows += [f",,,,,B{i},S{i},S{i + 1},,1,,,,,,\n" for i in range(scenes - 1)]
    return (head + "".join(rows)).encode("utf-8")


@pytest.fixture(scope="module")
def running(tmp_path_factory):
    """(base URL, TMPDIR, process) of one server for the module."""
    tmpdir = tmp_path_factory.mktemp("hostile-server-tmp")
    with serving(tmpdir, *ARGS) as (proc, url):
        yield url, tmpdir, proc
    assert proc.returncode == 0
    assert list(tmpdir.iterdir()) == []


@pytest.fixture
def server(running):
    return running[:2]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


def address(url: str) -> tuple[str, int]:
    parts = urlsplit(url)
    return parts.hostname, parts.port


class Raw:
    """One raw TCP connection to the server."""

    def __init__(self, url: str):
        self.sock = socket.create_connection(address(url), timeout=10)
        self.opened = time.monotonic()

    def send(self, data: bytes) -> None:
        self.sock.sendall(data)

    def response(self, timeout: float = 10.0) -> tuple[int | None, str, float]:
        """Read until the server closes (or ``timeout``): (status, text, seconds since
        the connection opened).  status is None when the server closed without a word."""
        self.sock.settimeout(timeout)
        data = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                data += chunk
        except ConnectionResetError:
            pass
        elapsed = time.monotonic() - self.opened
        self.sock.close()
        if not data:
            return None, "", elapsed
        status = int(data.split(b" ", 2)[1])
        return status, data.decode("utf-8", "replace"), elapsed

    def first_response(self, timeout: float = 10.0) -> tuple[int, str, float]:
        """Read one whole response (by its Content-Length), not waiting for the close."""
        self.sock.settimeout(timeout)
        data = b""
        while b"\r\n\r\n" not in data:
            chunk = self.sock.recv(65536)
            assert chunk, data
            data += chunk
        head, _, body = data.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")))
        while len(body) < length:
            chunk = self.sock.recv(65536)
            assert chunk
            body += chunk
        return int(head.split(b" ", 2)[1]), (head + b"\r\n\r\n" + body).decode("utf-8", "replace"), time.monotonic() - self.opened

    def close(self) -> None:
        self.sock.close()


def assert_polite(page: str) -> None:
    """The refusal banner of ``page`` is polite Korean, sentence by sentence."""
    banner = re.search(r'role="alert">(.*?)</div>', page, re.S)
    assert banner, page[:300]
    text = htmllib.unescape(banner.group(1))
    for sentence in re.split(r"(?<=[.])\s+(?=\S)", text):
        assert is_polite_sentence(sentence), sentence


def upload_head(length: str | None, extra: str = "") -> bytes:
    lines = ["POST /upload HTTP/1.1", "Host: 127.0.0.1", "Content-Type: multipart/form-data; boundary=x"]
    if length is not None:
        lines.append(f"Content-Length: {length}")
    return ("\r\n".join(lines) + "\r\n" + extra + "\r\n").encode("ascii")


def get(url: str, path: str, timeout: float = 10.0) -> tuple[int, float]:
    conn = Raw(url)
    conn.send(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".encode())
    status, _, elapsed = conn.response(timeout)
    return status, elapsed


def post_upload(url: str, files: list[tuple[str, bytes]], timeout: float = 60.0) -> tuple[int, str, float]:
    ctype, body = multipart(files)
    conn = Raw(url)
    conn.send(f"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\nContent-Length: {len(body)}\r\n"
              "Connection: close\r\n\r\n".encode() + body)
    return conn.response(timeout)


# --------------------------------------------------------------------------- lengths


@pytest.mark.parametrize("length, status, message", [
    ("-1", 400, "Content-Length)가 올바른 수가 아닙니다"),
    ("abc", 400, "Content-Length)가 올바른 수가 아닙니다"),
    ("1e9", 400, "Content-Length)가 올바른 수가 아닙니다"),
    (None, 411, "Content-Length)가 없습니다"),
    (str(LIMIT_MB * 1024 * 1024 + 1), 413, "파일이 너무 큽니다"),
    ("99999999999999", 413, "파일이 너무 큽니다"),
    ("999999999999999999999999", 400, "Content-Length)가 올바른 수가 아닙니다"),  # past what the HTTP parser takes as a number
])
def test_bad_length_is_refused_before_the_body(server, length, status, message):
    url, tmpdir = server
    conn = Raw(url)
    conn.send(upload_head(length))  # the headers only: a server that waited for a body would answer 408 after 1 s
    got, text, elapsed = conn.first_response()
    conn.close()
    assert got == status, text[:300]
    assert elapsed < READ_TIMEOUT / 2, elapsed
    assert message in text and 'role="alert"' in text
    assert_polite(text)
    assert leftovers(tmpdir) == []


@pytest.mark.parametrize("length", ["-1", str(10**9)])
def test_flood_behind_a_refused_length_is_not_stored(running, length):
    """The old server read a ``Content-Length: -1`` body to the end (71 MB read, 5.75 GB
    resident).  Now what follows a refusal is thrown away for at most ``linger`` seconds,
    then the connection is closed; the server's memory does not grow with it."""
    url, _, proc = running
    before = rss_mb(proc.pid)
    conn = Raw(url)
    conn.send(upload_head(length))
    flood = b"x" * (1 << 20)
    sent, started = 0, time.monotonic()
    with pytest.raises(OSError):  # the server closes after the linger
        while time.monotonic() - started < LINGER + 5:
            conn.sock.sendall(flood)
            sent += len(flood)
    closed_after = time.monotonic() - started
    conn.close()
    print(f"flood after Content-Length {length}: {sent / 2**20:.0f} MB thrown away in {closed_after:.2f} s; "
          f"server {before:.0f} -> {rss_mb(proc.pid):.0f} MB")
    assert closed_after < LINGER + 1.5, closed_after
    assert rss_mb(proc.pid) < before + 50


def test_over_limit_length_is_answered_before_a_byte_of_body(server):
    url, _ = server
    conn = Raw(url)
    conn.send(upload_head(str(10**9)))
    conn.sock.settimeout(READ_TIMEOUT / 2)
    assert conn.sock.recv(12).startswith(b"HTTP/1.1 413")  # no body byte was sent
    conn.close()


def test_chunked_body_is_cut_at_the_limit(server):
    url, tmpdir = server
    conn = Raw(url)
    conn.send(upload_head(None, "Transfer-Encoding: chunked\r\n"))
    part = b'--x\r\nContent-Disposition: form-data; name="files"; filename="big.csv"\r\n\r\n'
    conn.send(b"%x\r\n" % len(part) + part + b"\r\n")
    chunk = b"%x\r\n" % (1 << 16) + b"y" * (1 << 16) + b"\r\n"
    sent = 0
    try:
        for _ in range(LIMIT_MB * 16 + 16):  # 1 MB over the limit
            conn.sock.sendall(chunk)
            sent += 1 << 16
    except OSError:
        pass
    status, text, _ = conn.response()
    assert status == 413, text[:300]
    assert "파일이 너무 큽니다: 한도 4,194,304바이트를 넘게 올렸습니다" in text
    assert leftovers(tmpdir) == []


# --------------------------------------------------------------------------- timeouts


def test_client_that_stalls_in_its_body_is_dropped(server):
    url, tmpdir = server
    conn = Raw(url)
    conn.send(upload_head("1000") + b"--x\r\n")
    status, text, elapsed = conn.response(timeout=READ_TIMEOUT + LINGER + 5)
    assert status == 408, text[:300]
    assert f"{READ_TIMEOUT:g}초 동안 더 오지 않아" in text
    assert_polite(text)
    assert READ_TIMEOUT * 0.9 <= elapsed <= READ_TIMEOUT + LINGER + 1.5, elapsed
    assert leftovers(tmpdir) == []


def test_client_that_trickles_its_body_is_dropped(server):
    url, tmpdir = server
    conn = Raw(url)
    conn.send(upload_head("1000") + b'--x\r\nContent-Disposition: form-data; name="files"; filename="a.csv"\r\n\r\n')
    stop = time.monotonic() + BODY_TIMEOUT + LINGER + 3
    try:
        while time.monotonic() < stop:  # one byte every 0.3 s: never a pause of READ_TIMEOUT
            conn.sock.sendall(b"-")
            time.sleep(0.3)
    except OSError:
        pass
    status, text, elapsed = conn.response(timeout=5)
    assert status == 408, text[:300]
    assert f"{BODY_TIMEOUT:g}초 안에 다 오지 않아" in text
    assert_polite(text)
    assert elapsed <= BODY_TIMEOUT + LINGER + 1.5, elapsed
    assert leftovers(tmpdir) == []


def test_client_that_stalls_in_its_headers_is_dropped(server):
    url, _ = server
    conn = Raw(url)
    conn.send(b"GET /sample HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
    status, text, elapsed = conn.response(timeout=READ_TIMEOUT + LINGER + 5)
    assert status == 408, text[:300]
    assert "요청 머리(헤더)가" in text
    assert_polite(text)
    assert elapsed <= READ_TIMEOUT + LINGER + 1.5, elapsed


def test_idle_connection_is_closed(server):
    url, _ = server
    conn = Raw(url)
    status, _, elapsed = conn.response(timeout=READ_TIMEOUT + 5)
    assert status is None  # closed without a word
    assert elapsed <= READ_TIMEOUT + 1.5, elapsed


@pytest.mark.parametrize("request_bytes, status, message", [
    (b"NOT HTTP AT ALL\r\n\r\n", 400, "HTTP 형식에 맞지 않아"),
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: " + b"a" * 70_000, 431, "요청 머리(헤더)가 너무 깁니다"),  # still coming
    (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n", 400, "Content-Length"),
])
def test_malformed_requests_get_a_korean_page(server, request_bytes, status, message):
    url, _ = server
    conn = Raw(url)
    conn.send(request_bytes)
    got, text, _ = conn.response()
    assert got == status, text[:300]
    assert message in text
    assert_polite(text)


# --------------------------------------------------------------------------- lint budget


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parents[int(entry.name)] = int(fields[1])
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in found:
                found.add(child)
                todo.append(child)
    return found


def settle(check, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while not check() and time.monotonic() < deadline:
        time.sleep(0.05)
    return check()


def test_lint_past_its_budget_is_stopped_with_its_worker(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with serving(tmpdir, *ARGS) as (proc, url):
        assert get(url, "/sample")[0] == 200
        before = descendants(proc.pid)  # the fork server and multiprocessing's resource tracker
        status, text, elapsed = post_upload(url, [("slow.csv", slow_scenario())])
        assert status == 504, text[:300]
        assert f"제한 시간 {LINT_TIMEOUT:g}초를 넘어 멈췄습니다" in text
        assert_polite(text)
        assert elapsed < LINT_TIMEOUT + 3, elapsed
        assert settle(lambda: descendants(proc.pid) <= before), descendants(proc.pid) - before  # worker (and dot) gone
        assert leftovers(tmpdir) == []
    assert list(tmpdir.iterdir()) == []


def test_uploads_past_the_lint_slots_wait_their_turn_then_get_503(tmp_path):
    """``--max-lints 1``: A holds the slot until its budget (2 s), B (0.5 s later) gets
    it then and runs out its own budget, C (1 s later) waits the budget for a turn and
    is told to come back."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with serving(tmpdir, *ARGS) as (proc, url):
        body = slow_scenario()
        results: dict[str, tuple] = {}

        def send(name: str) -> None:
            results[name] = post_upload(url, [(f"{name}.csv", body)])

        threads = []
        for name in "ABC":
            threads.append(threading.Thread(target=send, args=(name,)))
            threads[-1].start()
            time.sleep(0.5)
        for t in threads:
            t.join(30)
        assert results["A"][0] == 504 and results["B"][0] == 504, {k: (v[0], v[2]) for k, v in results.items()}
        status, text, elapsed = results["C"]
        assert status == 503, text[:300]
        assert f"{LINT_TIMEOUT:g}초를 기다려도 차례가 오지 않았습니다" in text
        assert_polite(text)
        assert LINT_TIMEOUT * 0.9 < elapsed < LINT_TIMEOUT + 1.5, elapsed
        assert settle(lambda: leftovers(tmpdir) == [])


CAPPED = r'''
try:  # the page makers moved from storygraph.screen to storygraph.pages
    from storygraph.pages import server_pages
except ImportError:
    from storygraph.screen import server_pages
from verdicts.serve import ServerLimits, bind, create_app, run_server, url_of

app = create_app(server_pages(), ServerLimits(max_connections=3, header_timeout=10))
sock = bind("127.0.0.1", 0)
print(url_of(sock), flush=True)
run_server(app, sock)
'''


def test_connections_past_the_cap_get_503(tmp_path):
    import sys

    proc = subprocess.Popen([sys.executable, "-c", CAPPED], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            env=dict(os.environ, TMPDIR=str(tmp_path)))
    try:
        url = proc.stdout.readline().strip().rstrip("/")
        held = [Raw(url) for _ in range(3)]  # open, saying nothing
        time.sleep(0.2)
        extra = Raw(url)
        status, text, elapsed = extra.response(timeout=LINGER + 5)
        assert status == 503, text[:300]
        assert "동시에 열린 연결이 너무 많습니다" in text
        assert_polite(text)
        for conn in held:
            conn.close()
        time.sleep(0.2)
        assert get(url, "/")[0] == 200  # room again
    finally:
        proc.terminate()
        assert proc.wait(timeout=15) == 0
    assert list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- load


def test_other_clients_are_served_while_hostile_uploads_run(tmp_path, record_property):
    """Bounded: 60 page requests (one every 50 ms or so, over the 2 s lint budget and
    the 1 s stalls), 20 s at most, four hostile clients (a lint that runs out its
    budget holding the only lint slot, a stalled body, a stalled head, a stream of
    refused lengths)."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with serving(tmpdir, *ARGS) as (proc, url):
        assert get(url, "/sample")[0] == 200  # the sample page is made at start; wait for it once
        hostile: dict[str, object] = {}
        stop = threading.Event()

        def slow_lint():  # a CPU-heavy lint that holds the only lint slot until its budget
            hostile["slow lint"] = post_upload(url, [("slow.csv", slow_scenario())])[::2]

        def stalled_body():
            conn = Raw(url)
            conn.send(upload_head("100000") + b"--x\r\n")
            hostile["stalled body"] = conn.response(timeout=15)[::2]

        def stalled_head():
            conn = Raw(url)
            conn.send(b"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            hostile["stalled head"] = conn.response(timeout=15)[::2]

        def refused_floods():  # oversized and negative lengths, again and again
            statuses = []
            while not stop.is_set() and len(statuses) < 200:
                conn = Raw(url)
                conn.send(upload_head(str(10**9) if len(statuses) % 2 else "-1"))
                statuses.append(conn.first_response()[0])
                conn.close()
            hostile["refused"] = statuses

        threads = [threading.Thread(target=t) for t in (slow_lint, stalled_body, stalled_head, refused_floods)]
        for t in threads:
            t.start()
        time.sleep(0.3)  # the slow upload is in, its lint running
        latencies: dict[str, list[float]] = {"/": [], "/sample": []}
        started = time.monotonic()
        for i in range(60):
            if time.monotonic() - started > 20:
                break
            path = "/" if i % 2 else "/sample"
            status, elapsed = get(url, path, timeout=5)
            assert status == 200
            latencies[path].append(elapsed)
            time.sleep(0.05)  # spread over the hostile clients' lifetime (about 3 s)
        stop.set()
        for t in threads:
            t.join(30)
        total = time.monotonic() - started
        every = latencies["/"] + latencies["/sample"]
        figures = {"requests": len(every), "seconds": round(total, 2), "median_ms": round(statistics.median(every) * 1000, 1),
                   "max_ms": round(max(every) * 1000, 1), "refused": len(hostile.get("refused", []))}
        record_property("load", figures)
        print("load test:", figures, {k: v for k, v in hostile.items() if k != "refused"})
        assert max(every) < 1.0, figures
        assert len(every) >= 40
        assert hostile["slow lint"][0] == 504
        assert hostile["stalled body"][0] == 408 and hostile["stalled head"][0] == 408
        assert set(hostile["refused"]) <= {400, 413} and len(hostile["refused"]) >= 10
        assert settle(lambda: leftovers(tmpdir) == [])
    assert list(tmpdir.iterdir()) == []


# --------------------------------------------------------------------------- signals


@pytest.mark.parametrize("sig, phase", [
    (signal.SIGTERM, "lint"), (signal.SIGTERM, "body"), (signal.SIGINT, "lint"),
])
def test_signal_mid_request_leaves_no_temporary_folder(tmp_path, sig, phase):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with serving(tmpdir, "--lint-timeout", "60", "--read-timeout", "30") as (proc, url):
        workers_before = descendants(proc.pid)
        conn = Raw(url)
        if phase == "lint":
            ctype, body = multipart([("slow.csv", slow_scenario())])
            conn.send(f"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n".encode() + body)
            # the upload is written and its worker runs
            assert settle(lambda: len(descendants(proc.pid) - workers_before) > 0, 10)
        else:
            ctype, body = multipart([("slow.csv", slow_scenario(2000))])
            conn.send(f"POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: {ctype}\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n".encode() + body[: len(body) // 2])
        assert settle(lambda: any(p.name.startswith("storygraph-upload-") for p in tmpdir.iterdir()), 10)
        helpers = descendants(proc.pid)
        time.sleep(0.3)
        proc.send_signal(sig)
        assert proc.wait(timeout=10) == 0
        conn.close()
    assert list(tmpdir.iterdir()) == []
    assert settle(lambda: not any(Path(f"/proc/{p}").exists() and "Z" not in _state(p) for p in helpers)), helpers


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "Z"


# --------------------------------------------------------------------------- binding


def test_non_loopback_address_needs_allow_remote(tmp_path):
    done = subprocess.run([str(BIN / "storygraph"), "serve", "--host", "0.0.0.0", "--port", "0"], capture_output=True,
                          text=True, timeout=30, env=dict(os.environ, TMPDIR=str(tmp_path)))
    assert done.returncode == 2
    assert "0.0.0.0은 이 컴퓨터 밖에서도 닿는 주소입니다" in done.stderr and "--allow-remote" in done.stderr
    message = done.stderr.strip().removeprefix("storygraph: ")
    assert all(is_polite_sentence(s) for s in re.split(r"(?<=[.])\s+(?=\S)", message)), message
    assert done.stdout == ""


def test_allow_remote_binds_and_answers_any_host_name(tmp_path):
    proc = subprocess.Popen([str(BIN / "storygraph"), "serve", "--host", "0.0.0.0", "--port", "0", "--allow-remote"],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=dict(os.environ, TMPDIR=str(tmp_path)))
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("http://0.0.0.0:"), line
        port = int(line.rstrip("/").rsplit(":", 1)[1])
        conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        conn.sendall(b"GET / HTTP/1.1\r\nHost: storygraph.example\r\nConnection: close\r\n\r\n")
        assert conn.recv(12) == b"HTTP/1.1 200"
        conn.close()
    finally:
        proc.terminate()
        assert proc.wait(timeout=15) == 0
    assert list(tmp_path.iterdir()) == []
