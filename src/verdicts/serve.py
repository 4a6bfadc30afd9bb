"""The report screen's web server: a Starlette app on uvicorn, made to survive hostile
clients.

Routes, and nothing else (any other path or method is 404, so no file outside the page
itself is ever served — there are no static files at all; CSS and script are inline):

* ``GET /`` — the upload form, the "샘플 데이터로 보기" button and the empty panels;
* ``GET /sample`` — the screen of the bundled sample (made once, when the server starts);
* ``POST /upload`` — ``multipart/form-data`` with one or more files under ``files``;
  the screen of what was uploaded.

:func:`create_app` builds the app from a domain's :class:`ServerPages` and the
:class:`ServerLimits`; more routes can be mounted beside the three (a review queue, a
server-sent-events stream made with :func:`event_stream`).  :func:`run_server` runs it
on a socket from :func:`bind`.

What a client cannot do (every refusal is a page with a Korean sentence):

* change something from another site's page: a ``POST``/``PUT``/``PATCH``/``DELETE``
  whose ``Origin`` (or, lacking one, ``Referer``) is not the server's own is refused
  with 403; a body that is not a form (``application/x-www-form-urlencoded``,
  ``multipart/form-data``) or ``application/json`` (``text/plain`` too) with 415; routes
  that keep what they are sent read it with :func:`read_form`, which also wants the
  server's CSRF token (:func:`new_csrf_token`, put into every form by :func:`with_csrf`);
* send a request head (line and headers) over ``MAX_HEAD_BYTES`` (16 KB): 431;
* send more than ``max_bytes``: a ``Content-Length`` above it is refused with 413 before
  any of the body is read; a body without one (chunked) is counted as it arrives and cut
  off at the limit; a negative or non-numeric length is a 400 (from the HTTP parser), a
  body without any length 411;
* hold a connection: the request head must arrive within ``header_timeout``, each piece
  of a body within ``read_timeout`` and the whole body within ``body_timeout`` (else 408);
  an idle connection is closed after ``keep_alive``; at most ``max_connections`` at once;
* starve the others: each lint runs in its own worker process (a fork of a preloaded
  server), at most ``max_lints`` at a time; a lint past ``lint_timeout`` is killed (with
  whatever it started) and the client gets a 504 page; an upload that waits longer than
  that for its turn gets a 503 page;
* leave files behind: uploads stream into a fresh temporary folder that is removed
  when the page is made, on every error, and on Ctrl+C or SIGTERM (requests still
  running get ``shutdown_grace`` seconds, then they are cancelled and cleaned up).

Uploads: each file name is reduced to a safe base name, files are written only inside
the temporary folder, and the temporary path is replaced by the uploaded name everywhere
on the screen.  One file is read as it is (a union CSV, ``.xlsx``, JSON or YAML); several
CSV files are read as the folder form.

On a loopback address the server answers only requests addressed to a loopback name
(``127.0.0.1``, ``localhost``, ``::1``), so a page elsewhere cannot reach it through DNS
rebinding.  After a refusal the server sends its page, stops sending and throws away
(never stores) what the client still sends for at most ``linger`` seconds, so that the
client can read the page before the connection closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import multiprocessing
import os
import pickle
import re
import shutil
import signal
import socket
import sys
import tempfile
import threading
import time
import traceback
import unicodedata
from dataclasses import dataclass
from http import HTTPStatus
from pathlib import Path
from typing import TYPE_CHECKING, Any, AsyncIterator, Callable, Sequence, TypeVar

from .model import Report
from .errors import VerdictsError

if TYPE_CHECKING:
    from io import BufferedWriter

    from python_multipart.multipart import MultipartCallbacks

_R = TypeVar("_R", bound=Report)

__all__ = [
    "ServerPages", "ServerLimits", "UploadError", "create_app", "bind", "run_server", "event_stream", "is_loopback",
    "safe_name", "relabel_files", "MAX_UPLOAD_BYTES", "ACCEPTED_SUFFIXES", "MAX_HEAD_BYTES", "BODY_TYPES",
    "CSRF_FIELD", "CSRF_HEADER", "new_csrf_token", "with_csrf", "read_form",
]

#: default upload limit (bytes)
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
ACCEPTED_SUFFIXES = (".csv", ".xlsx", ".json", ".yaml", ".yml")
#: the request line and headers together; a longer head is refused with 431
MAX_HEAD_BYTES = 16 * 1024
#: the only bodies a state-changing request may carry (anything else, ``text/plain`` too, is 415)
BODY_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data", "application/json")
#: the form field (or JSON key) and the header that carry a server's CSRF token
CSRF_FIELD, CSRF_HEADER = "csrf_token", "x-csrf-token"
#: methods that change something: checked for their origin (and, with a body, its type)
_CHANGING = ("POST", "PUT", "PATCH", "DELETE")


class UploadError(VerdictsError):
    """A request is refused: too big, too slow, no file, a file type not accepted, the
    server busy.  ``close``: the connection is closed after the page (the client may
    still be sending a body the server will not read)."""

    def __init__(self, message: str, status: int = HTTPStatus.BAD_REQUEST, *, close: bool = False):
        super().__init__(message)
        self.status = int(status)
        self.close = close


@dataclass(frozen=True)
class ServerLimits:
    """Every bound the server keeps, with its default (seconds, bytes, counts)."""

    #: largest request body; ``None``: the pages' own limit (:attr:`ServerPages.max_bytes`)
    max_bytes: int | None = None
    #: files in one upload
    max_files: int = 16
    #: the request line and headers must arrive within this, from the connection (or the previous answer)
    header_timeout: float = 10.0
    #: the longest pause while a body arrives
    read_timeout: float = 10.0
    #: the whole body must arrive within this
    body_timeout: float = 60.0
    #: an idle connection between two requests is closed after this
    keep_alive: float = 5.0
    #: one lint (in its worker process) is stopped after this
    lint_timeout: float = 30.0
    #: lints running at once; the others wait their turn (at most ``lint_timeout``)
    max_lints: int = 2
    #: address space of a lint's worker process, in MB (``None``: no limit)
    worker_memory_mb: int | None = 4096
    #: connections open at once; more are answered 503 and closed
    max_connections: int = 64
    #: on Ctrl+C or SIGTERM, requests still running get this long before they are cancelled
    shutdown_grace: float = 2.0
    #: after a refusal, what the client still sends is thrown away for at most this long
    linger: float = 2.0


@dataclass
class ServerPages:
    """How a domain makes its pages.

    ``judge(path, names)`` returns the HTML screen for an input at ``path`` (``names``
    maps the temporary path to what the user uploaded, for relabelling); ``sample()`` the
    screen of the bundled sample; ``empty(banner)`` the page before any upload, with an
    optional error banner (also every refusal page).

    ``judge`` and ``sample`` run in a worker process, so they must be picklable
    (module-level functions, or :func:`functools.partial` of one); ``empty`` runs in the
    server.  ``preload``: modules the worker processes import once, up front (by default
    the modules of ``judge`` and ``sample``).
    """

    judge: Callable[[Path, dict[str, str]], str]
    sample: Callable[[], str]
    empty: Callable[[str | None], str]
    max_bytes: int = MAX_UPLOAD_BYTES
    temp_prefix: str = "verdicts-upload-"
    preload: tuple[str, ...] = ()
    #: ``watched(path)``: the live screen of a followed file (``serve --watch``), which
    #: listens on ``/events`` and updates itself in place; runs in a worker too
    watched: Callable[[Path], str] | None = None
    #: the ``Content-Security-Policy`` header of every page ``empty`` makes (refusals too)
    csp: str | None = None


def safe_name(name: str) -> str:
    """A file's base name without folders or odd characters (never empty, never hidden).

    >>> safe_name("../../etc/passwd"), safe_name("C:\\\\data\\\\장면 표.csv"), safe_name("..")
    ('passwd', '장면 표.csv', 'upload')
    """
    import re

    base = re.split(r"[\\/]", name)[-1]
    base = re.sub(r"[^0-9A-Za-z가-힣._ -]", "_", base).strip(" .")
    return base or "upload"


def relabel_files(report: _R, mapping: dict[str, str]) -> _R:
    """Replace temporary paths (keys of ``mapping``) by the names the user knows, in
    every file name and reason on the report."""

    def fix(text: str | None) -> str | None:
        return None if text is None else _relabel(text, mapping)

    report.issues = [i.replace(file=fix(i.file), reason=fix(i.reason)) for i in report.issues]
    report.sources = [s.replace(file=fix(s.file)) for s in report.sources]
    report.findings = [f.replace(file=fix(f.file), message=fix(f.message)) for f in report.findings]
    return report


def _relabel(text: str, mapping: dict[str, str]) -> str:
    for old, new in mapping.items():
        text = text.replace(old, new)
    return text


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address or ``localhost``) is this computer only.

    >>> is_loopback("127.0.0.1"), is_loopback("[::1]"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    name = host.strip().lower()
    name = name[1:-1] if name.startswith("[") and name.endswith("]") else name
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def _host_name(header: str) -> str:
    """The host of a ``Host`` header, without its port (``[::1]:80`` -> ``::1``)."""
    name = header.strip().lower()
    if name.startswith("["):
        return name[1:].split("]")[0]
    return name.rsplit(":", 1)[0] if name.count(":") == 1 else name


def _same_origin(headers: dict[str, str]) -> bool:
    """Whether a request comes from the server's own pages: its ``Origin`` (or, lacking
    one, its ``Referer``) names the host the request is addressed to; a request with
    neither (a command-line client) passes, a ``null`` origin does not.

    >>> _same_origin({"host": "127.0.0.1:8766", "origin": "http://127.0.0.1:8766"})
    True
    >>> _same_origin({"host": "127.0.0.1:8766", "origin": "http://evil.example"})
    False
    >>> _same_origin({"host": "127.0.0.1:8766", "referer": "http://127.0.0.1:8766/review/cell/R-1"}), _same_origin({"host": "h"})
    (True, True)
    """
    from urllib.parse import urlsplit

    claimed = headers.get("origin") or headers.get("referer")
    if claimed is None:
        return True
    try:
        parts = urlsplit(claimed.strip())
        netloc = parts.netloc.lower()
    except ValueError:
        return False
    return parts.scheme in ("http", "https") and bool(netloc) and netloc == headers.get("host", "").strip().lower()


def new_csrf_token() -> str:
    """A fresh random token for one server: its pages carry it in every form that
    changes something, and :func:`read_form` refuses a request without it."""
    import secrets

    return secrets.token_urlsafe(32)


_HEAD_END = re.compile(rb"\n\r?\n")
_POST_FORM = re.compile(r"<form\b[^>]*\bmethod=[\"']?post\b[^>]*>", re.I)


def with_csrf(html: str, token: str) -> str:
    """``html`` with a hidden ``csrf_token`` field holding ``token`` at the start of every
    ``<form method="post">``: every form a page makes carries the server's token, a form
    added later too.

    >>> with_csrf('<form method="post" action="/x"><button>ok</button></form>', "T")
    '<form method="post" action="/x"><input type="hidden" name="csrf_token" value="T"><button>ok</button></form>'
    """
    from html import escape as html_escape

    field = f'<input type="hidden" name="{CSRF_FIELD}" value="{html_escape(token)}">'
    return _POST_FORM.sub(lambda m: m.group(0) + field, html)


async def read_form(request: Any, token: str) -> dict[str, str]:
    """The fields of a state-changing request (a form, ``multipart/form-data`` fields or
    a JSON object; the last of a repeated field), after checking that it carries the
    server's ``token`` (field ``csrf_token`` or header ``X-CSRF-Token``).

    Raises :class:`UploadError`: 403 without the right token, 400 for a body that
    cannot be read.  (The origin and the body's type were checked by the guard of
    :func:`create_app`.)"""
    import hmac
    import json
    from urllib.parse import parse_qs

    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    fields: dict[str, str] = {}
    if kind == "multipart/form-data":
        try:
            async with request.form(max_files=0) as form:
                fields = {k: v for k, v in form.multi_items() if isinstance(v, str)}
        except Exception:  # noqa: BLE001 - starlette's and python-multipart's many refusals
            raise UploadError("보낸 양식을 multipart/form-data로 읽을 수 없습니다.") from None
    else:
        body = (await request.body()).decode("utf-8", "replace")
        if kind == "application/json":
            try:
                data = json.loads(body) if body.strip() else {}
            except (ValueError, RecursionError):
                raise UploadError("보낸 내용을 JSON으로 읽을 수 없습니다.") from None
            if not isinstance(data, dict):
                raise UploadError("보낸 JSON은 키와 값이 있는 객체여야 합니다.")
            fields = {str(k): "" if v is None else v if isinstance(v, str) else json.dumps(v) for k, v in data.items()}
        else:
            fields = {k: v[-1] for k, v in parse_qs(body, keep_blank_values=True).items()}
    given = fields.pop(CSRF_FIELD, None) or request.headers.get(CSRF_HEADER, "")
    if not hmac.compare_digest(given.encode("utf-8", "replace"), token.encode("utf-8")):
        raise UploadError("이 요청에는 이 서버의 화면이 준 확인 값(CSRF 토큰)이 없거나 맞지 않아 받지 않았습니다. "
                          "화면을 새로 연 뒤 다시 해 주세요.", HTTPStatus.FORBIDDEN)
    return fields


def _printable(text: str, limit: int = 200) -> str:
    """``text`` safe for a terminal line: control and format characters as escapes."""
    out = "".join(ch if unicodedata.category(ch)[0] != "C" else ch.encode("unicode_escape").decode("ascii")
                  for ch in text[:limit])
    return out + ("…" if len(text) > limit else "")


def _mb(n: int) -> str:
    return f"{n / (1024 * 1024):.1f}MB" if n >= 1024 * 1024 else f"{n:,}바이트"


_SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    # same-origin, not no-referrer: under no-referrer a browser sends ``Origin: null`` with
    # the page's own form posts, which the origin check must refuse; other sites still get nothing
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cache-control", b"no-store"),
]


def _raw_page(status: int, html: str) -> bytes:
    """A whole HTTP/1.1 response that closes the connection (for the protocol layer,
    where there is no app to answer)."""
    body = html.encode("utf-8")
    phrase = HTTPStatus(status).phrase
    head = [f"HTTP/1.1 {status} {phrase}", "content-type: text/html; charset=utf-8", f"content-length: {len(body)}",
            "connection: close"] + [f"{k.decode()}: {v.decode()}" for k, v in _SECURITY_HEADERS]
    return ("\r\n".join(head) + "\r\n\r\n").encode("ascii") + body


# --------------------------------------------------------------------------- workers


def _work(fn: Callable[..., str], args: tuple, out: str, memory_mb: int | None) -> None:
    """In the worker process: make the page, leave ``(kind, text)`` pickled at ``out``."""
    os.setpgrp()  # its own process group: whatever it starts (Graphviz) is killed with it
    if memory_mb:
        import resource

        size = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
    result = _outcome(fn, args)
    with open(out, "wb") as fh:
        pickle.dump(result, fh, protocol=pickle.HIGHEST_PROTOCOL)


def _outcome(fn: Callable[..., str], args: tuple) -> tuple[str, str]:
    """``(kind, text)`` of ``fn(*args)``, as :class:`_Workers` reports it."""
    try:
        return "ok", fn(*args)
    except MemoryError:
        return "memory", ""
    except VerdictsError as exc:
        return "input", str(exc)
    except BaseException as exc:  # a bug in the page maker: reported, never a hang
        traceback.print_exc()
        return "bug", type(exc).__name__


def _keep(conn, memory_mb: int | None) -> None:
    """In the kept worker process (:class:`_Kept`): make a page for every request on
    ``conn`` until it closes, keeping whatever the page makers keep between requests."""
    os.setpgrp()
    if memory_mb:
        import resource

        size = memory_mb * 1024 * 1024
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_AS, (size, size))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return
        conn.send(_outcome(fn, args))


class _Kept:
    """One worker process that stays between requests (``serve --watch``: the followed
    file's page maker keeps what one lint made for the next, an incremental re-lint),
    stopped after ``lint_timeout`` like any worker and started again on the next request."""

    def __init__(self, workers: "_Workers"):
        self.workers = workers
        self.proc: multiprocessing.process.BaseProcess | None = None
        self.conn: Any = None

    def _start(self) -> None:
        ctx = self.workers.ctx
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_keep, args=(child, self.workers.limits.worker_memory_mb), daemon=True)
        self.proc.start()
        child.close()
        self.workers.running.add(self.proc)

    def stop(self) -> None:
        if self.proc is not None:
            _kill(self.proc)
            self.workers.running.discard(self.proc)
            _reap(self.proc)
        if self.conn is not None:
            self.conn.close()
        self.proc = self.conn = None

    async def run(self, fn: Callable[..., str], args: tuple, folder: Path) -> tuple[str, str]:  # noqa: ARG002 - as _Workers.run
        loop = asyncio.get_running_loop()
        if self.proc is None or self.proc.exitcode is not None:
            self.stop()
            await loop.run_in_executor(None, self._start)
        assert self.proc is not None and self.conn is not None
        proc, conn = self.proc, self.conn
        conn.send((fn, args))
        ready = loop.create_future()
        fd = conn.fileno()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        loop.add_reader(fd, wake)
        late = False
        try:
            async with asyncio.timeout(self.workers.limits.lint_timeout):
                await ready
        except TimeoutError:
            late = True
        finally:
            loop.remove_reader(fd)  # before the pipe is closed: its number may be reused
        if late:
            self.stop()
            raise UploadError(f"검사가 제한 시간 {self.workers.limits.lint_timeout:g}초를 넘어 멈췄습니다. 시나리오를 나누어 "
                              "검사하거나 컴퓨터에서 직접 lint 명령으로 검사해 주세요.", HTTPStatus.GATEWAY_TIMEOUT)
        try:
            return conn.recv()
        except (EOFError, OSError):
            proc.join(5)
            code = proc.exitcode
            self.stop()
            return "died", str(code)


def _kill(proc: multiprocessing.process.BaseProcess) -> None:
    """Kill a worker and its process group, if it still runs."""
    if proc.pid is None or proc.exitcode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        proc.kill()


class _Workers:
    """Lints in worker processes forked from a preloaded fork server: at most
    ``max_lints`` at once, each stopped after ``lint_timeout``."""

    def __init__(self, limits: ServerLimits, preload: Sequence[str]):
        self.limits = limits
        self.preload = list(preload)
        self.ctx = multiprocessing.get_context("forkserver")
        self.slots: asyncio.Semaphore | None = None
        self.running: set[multiprocessing.process.BaseProcess] = set()
        self.socket_dir: str | None = None

    def start(self) -> None:
        """Start the fork server (it imports the page makers once); blocking, so run in a thread."""
        self.ctx.set_forkserver_preload(self.preload)
        from multiprocessing import forkserver, util

        # the fork server listens on a socket in a folder of its own: in XDG_RUNTIME_DIR
        # (the place for a user's sockets) when there is one, else in the temporary folder
        runtime = os.environ.get("XDG_RUNTIME_DIR", "")
        if runtime and os.path.isdir(runtime) and os.access(runtime, os.W_OK):
            saved, tempfile.tempdir = tempfile.tempdir, runtime  # nothing else makes temporary files yet
            try:
                util.get_temp_dir()
            finally:
                tempfile.tempdir = saved
        forkserver.ensure_running()
        self.socket_dir = util.get_temp_dir()  # removed by run_server

    async def run(self, fn: Callable[..., str], args: tuple, folder: Path) -> tuple[str, str]:
        """``(kind, text)`` of ``fn(*args)`` run in a worker: kind ``ok`` (text = the
        page), ``input`` (a domain error's message), ``bug``, ``memory`` or ``died``."""
        if self.slots is None:
            self.slots = asyncio.Semaphore(self.limits.max_lints)
        try:
            async with asyncio.timeout(self.limits.lint_timeout):
                await self.slots.acquire()
        except TimeoutError:
            raise UploadError(f"다른 검사가 밀려 있어 {self.limits.lint_timeout:g}초를 기다려도 차례가 오지 않았습니다. "
                              "잠시 뒤에 다시 올려 주세요.", HTTPStatus.SERVICE_UNAVAILABLE) from None
        try:
            return await self._run(fn, args, folder)
        finally:
            self.slots.release()

    async def _run(self, fn: Callable[..., str], args: tuple, folder: Path) -> tuple[str, str]:
        loop = asyncio.get_running_loop()
        out = folder / ".result.pickle"
        proc = self.ctx.Process(target=_work, args=(fn, args, str(out), self.limits.worker_memory_mb), daemon=True)
        self.running.add(proc)
        started = loop.run_in_executor(None, proc.start)
        try:
            await asyncio.shield(started)
        except asyncio.CancelledError:  # cancelled while starting: kill it once it is there
            def forget(_: object) -> None:
                _kill(proc)
                self.running.discard(proc)

            started.add_done_callback(forget)
            raise
        ended = loop.create_future()

        def end() -> None:
            if not ended.done():
                ended.set_result(None)

        loop.add_reader(proc.sentinel, end)
        try:
            async with asyncio.timeout(self.limits.lint_timeout):
                await ended
        except TimeoutError:
            raise UploadError(f"검사가 제한 시간 {self.limits.lint_timeout:g}초를 넘어 멈췄습니다. 시나리오를 나누어 올리거나 "
                              "컴퓨터에서 직접 lint 명령으로 검사해 주세요.", HTTPStatus.GATEWAY_TIMEOUT) from None
        finally:
            loop.remove_reader(proc.sentinel)
            _kill(proc)
            self.running.discard(proc)
            loop.run_in_executor(None, _reap, proc)
        if not out.is_file():
            return "died", str(proc.exitcode)
        return pickle.loads(out.read_bytes())

    def kill_all(self) -> None:
        for proc in list(self.running):
            _kill(proc)
        self.running.clear()


def _reap(proc: multiprocessing.process.BaseProcess) -> None:
    with contextlib.suppress(Exception):
        proc.join(10)
        proc.close()


# --------------------------------------------------------------------------- uploads


class _UploadParts:
    """Streams the file parts of a ``multipart/form-data`` body into ``folder/upload``,
    each under its safe base name, checking names as soon as a part's headers are in."""

    def __init__(self, folder: Path, max_files: int):
        self.dir = folder / "upload"
        self.dir.mkdir()
        self.max_files = max_files
        self.names: list[str] = []
        self._fh: BufferedWriter | None = None
        self._header = b""
        self._value = b""
        self._disposition = b""

    def callbacks(self) -> MultipartCallbacks:
        return {
            "on_part_begin": self._part_begin, "on_part_data": self._part_data, "on_part_end": self._part_end,
            "on_header_field": self._header_field, "on_header_value": self._header_value,
            "on_header_end": self._header_end, "on_headers_finished": self._headers_finished,
        }

    def _part_begin(self) -> None:
        self._disposition = b""

    def _header_field(self, data: bytes, start: int, end: int) -> None:
        self._header += data[start:end]

    def _header_value(self, data: bytes, start: int, end: int) -> None:
        self._value += data[start:end]

    def _header_end(self) -> None:
        if self._header.lower() == b"content-disposition":
            self._disposition = self._value
        self._header = self._value = b""

    def _headers_finished(self) -> None:
        from python_multipart.multipart import parse_options_header

        _, options = parse_options_header(self._disposition)
        raw = options.get(b"filename")
        if not raw or options.get(b"name") != b"files":  # an empty file input, or another field: ignored
            return
        name = safe_name(raw.decode("utf-8", "replace"))
        if not name.lower().endswith(ACCEPTED_SUFFIXES):
            from .korean import code

            raise UploadError(f"{code(name)} 파일은 받지 않는 형식입니다. {', '.join(code(s) for s in ACCEPTED_SUFFIXES)} 파일만 "
                              "올릴 수 있습니다.")
        if name in self.names:
            raise UploadError("같은 이름의 파일을 두 번 올렸습니다.")
        if len(self.names) >= self.max_files:
            raise UploadError(f"한 번에 파일을 {self.max_files}개까지 올릴 수 있습니다.")
        self.names.append(name)
        self._fh = open(self.dir / name, "xb")

    def _part_data(self, data: bytes, start: int, end: int) -> None:
        if self._fh is not None:
            self._fh.write(data[start:end])

    def _part_end(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def target(self, folder: Path) -> tuple[Path, dict[str, str]]:
        """The path to judge and the relabelling of temporary paths."""
        if not self.names:
            raise UploadError("올린 파일이 없습니다. 파일을 고른 뒤 검사하기를 누르세요.")
        if len(self.names) == 1:
            target = self.dir / self.names[0]
            return target, {str(target): self.names[0], str(self.dir): "(올린 파일)", str(folder): "(올린 파일)"}
        if not all(n.lower().endswith(".csv") for n in self.names):
            raise UploadError("여러 파일을 올릴 때는 표마다 CSV 하나씩(`scene_states.csv`, `story_branches.csv` …)이어야 합니다.")
        return self.dir, {str(self.dir) + "/": "", str(self.dir): "(올린 폴더)", str(folder): "(올린 파일)"}


async def _read_upload(request: Any, folder: Path, limits: ServerLimits) -> tuple[Path, dict[str, str]]:
    """Stream the body of ``request`` into ``folder``; the path to judge and the relabelling."""
    from python_multipart.exceptions import FormParserError
    from python_multipart.multipart import MultipartParser, parse_options_header

    ctype, params = parse_options_header(request.headers.get("content-type", ""))
    if ctype != b"multipart/form-data" or not params.get(b"boundary"):
        raise UploadError("파일은 multipart/form-data 형식으로 올려야 합니다.")
    parts = _UploadParts(folder, limits.max_files)
    parser = MultipartParser(params[b"boundary"], parts.callbacks())
    try:
        async for chunk in _body(request):
            parser.write(chunk)
        parser.finalize()
    except (FormParserError, ValueError) as exc:
        if isinstance(exc, UploadError):
            raise
        raise UploadError("올린 내용을 multipart/form-data로 읽을 수 없습니다. 브라우저의 양식으로 다시 올려 주세요.") from None
    finally:
        parts.close()
    return parts.target(folder)


async def _body(request: Any) -> AsyncIterator[bytes]:
    while True:
        message = await request.receive()
        if message["type"] == "http.disconnect":
            raise UploadError("올리는 도중에 연결이 끊겼습니다.", close=True)
        body = message.get("body", b"")
        if body:
            yield body
        if not message.get("more_body", False):
            return


# --------------------------------------------------------------------------- the app


class _Guard:
    """The outermost layer: loopback host names only, the body's length checked before
    anything reads it, every body read bounded in bytes and time, safety headers on
    every response, one log line per request."""

    def __init__(self, app: Any, *, limits: ServerLimits, max_bytes: int, error_page: Callable[[str], str],
                 loopback_only: bool, log: Callable[[str], None] | None, csp: str | None = None):
        self.app, self.limits, self.max_bytes = app, limits, max_bytes
        self.error_page, self.loopback_only, self.log, self.csp = error_page, loopback_only, log, csp

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.monotonic()
        status = [0]

        async def guarded_send(message: dict) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                names = {k.lower() for k, _ in message.get("headers", [])}
                message = dict(message, headers=list(message.get("headers", [])) + [h for h in _SECURITY_HEADERS if h[0] not in names])
            await send(message)

        try:
            refusal = self._refusal(scope)
            if refusal is not None:
                await self._answer(guarded_send, refusal)
            else:
                await self.app(scope, self._bounded(receive), guarded_send)
        finally:
            if self.log is not None:
                client = scope.get("client") or ("-", 0)
                self.log(f"{client[0]} {scope['method']} {_printable(scope.get('path', ''))} → {status[0] or '끊김'} "
                         f"({time.monotonic() - started:.2f}초)")

    def _refusal(self, scope: dict) -> UploadError | None:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        if self.loopback_only and not is_loopback(_host_name(headers.get("host", ""))):
            return UploadError("이 서버는 이 컴퓨터(127.0.0.1, localhost)에서 여는 주소로만 답합니다.", HTTPStatus.FORBIDDEN, close=True)
        changing = scope["method"] in _CHANGING
        if changing and not _same_origin(headers):
            return UploadError("다른 사이트의 페이지에서 보낸 요청이라 받지 않았습니다. 이 서버의 화면에서 다시 해 주세요.",
                               HTTPStatus.FORBIDDEN, close=True)
        length = headers.get("content-length")
        if length is not None:
            if not length.isdigit():  # the HTTP parser refuses these first; kept for other servers
                return UploadError("올린 내용의 길이(Content-Length)가 올바른 수가 아닙니다.", HTTPStatus.BAD_REQUEST, close=True)
            if int(length) > self.max_bytes:
                return UploadError(f"파일이 너무 큽니다: {int(length):,}바이트를 올렸는데 한도는 {self.max_bytes:,}바이트입니다. "
                                   "표를 나누거나 필요 없는 열을 지운 뒤 다시 올려 주세요.", HTTPStatus.REQUEST_ENTITY_TOO_LARGE, close=True)
        elif "transfer-encoding" not in headers and scope["method"] in ("POST", "PUT", "PATCH"):
            return UploadError("올린 내용의 길이(Content-Length)가 없습니다. 브라우저의 양식으로 다시 올려 주세요.",
                               HTTPStatus.LENGTH_REQUIRED, close=True)
        if changing and scope["method"] != "DELETE":
            kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
            if kind not in BODY_TYPES:
                from .korean import code

                what = f"{code(_printable(kind, 80))} 형식의 내용은" if kind else "형식(Content-Type)이 적히지 않은 내용은"
                return UploadError(f"{what} 받지 않습니다. 양식(`application/x-www-form-urlencoded`, "
                                   "`multipart/form-data`)이나 `application/json`으로 보내 주세요.",
                                   HTTPStatus.UNSUPPORTED_MEDIA_TYPE, close=True)
        return None

    async def _answer(self, send: Callable, exc: UploadError) -> None:
        await send_page(send, exc.status, self.error_page(str(exc)), close=exc.close, csp=self.csp)

    def _bounded(self, receive: Callable) -> Callable:
        limits, max_bytes = self.limits, self.max_bytes
        deadline = time.monotonic() + limits.body_timeout
        state = {"bytes": 0, "done": False}

        async def bounded_receive() -> dict:
            if state["done"]:
                return await receive()
            left = deadline - time.monotonic()
            wait = min(limits.read_timeout, left)
            try:
                if wait <= 0:
                    raise TimeoutError
                async with asyncio.timeout(wait):
                    message = await receive()
            except TimeoutError:
                if left <= limits.read_timeout:
                    raise UploadError(f"올린 내용이 {limits.body_timeout:g}초 안에 다 오지 않아 연결을 끊습니다. "
                                      "다시 올려 주세요.", HTTPStatus.REQUEST_TIMEOUT, close=True) from None
                raise UploadError(f"올린 내용이 {limits.read_timeout:g}초 동안 더 오지 않아 연결을 끊습니다. "
                                  "다시 올려 주세요.", HTTPStatus.REQUEST_TIMEOUT, close=True) from None
            if message["type"] == "http.request":
                state["bytes"] += len(message.get("body", b""))
                if state["bytes"] > max_bytes:
                    raise UploadError(f"파일이 너무 큽니다: 한도 {max_bytes:,}바이트를 넘게 올렸습니다. "
                                      "표를 나누거나 필요 없는 열을 지운 뒤 다시 올려 주세요.",
                                      HTTPStatus.REQUEST_ENTITY_TOO_LARGE, close=True)
                state["done"] = not message.get("more_body", False)
            else:
                state["done"] = True
            return message

        return bounded_receive


async def send_page(send: Callable, status: int, html: str, *, close: bool = False, csp: str | None = None) -> None:
    """Send one HTML page through ASGI ``send``."""
    body = html.encode("utf-8")
    headers = [(b"content-type", b"text/html; charset=utf-8"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    if csp:
        headers.append((b"content-security-policy", csp.encode("ascii")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _State:
    """What one app keeps: its workers, the temporary folders in use, the sample page."""

    def __init__(self, pages: ServerPages, limits: ServerLimits):
        self.pages, self.limits = pages, limits
        preload = pages.preload or tuple(sorted({getattr(f, "func", f).__module__ for f in (pages.judge, pages.sample)}))
        self.workers = _Workers(limits, (*preload, __name__))
        self.folders: set[Path] = set()
        self.sample: asyncio.Task | None = None

    def new_folder(self) -> Path:
        folder = Path(tempfile.mkdtemp(prefix=self.pages.temp_prefix))
        self.folders.add(folder)
        return folder

    def remove(self, folder: Path) -> None:
        shutil.rmtree(folder, ignore_errors=True)
        self.folders.discard(folder)

    def clean_up(self) -> None:
        """Kill every worker and remove every temporary folder (shutdown, signals)."""
        self.workers.kill_all()
        for folder in list(self.folders):
            self.remove(folder)

    async def page(self, fn: Callable[..., str], args: tuple, folder: Path, mapping: dict[str, str],
                   workers: Any = None) -> tuple[int, str]:
        """Status and page of ``fn(*args)`` in a worker (of ``workers``: a
        :class:`_Kept` worker, or by default a fresh one)."""
        kind, text = await (workers or self.workers).run(fn, args, folder)
        if kind == "ok":
            return HTTPStatus.OK, text
        if kind == "input":
            return HTTPStatus.UNPROCESSABLE_ENTITY, self.pages.empty(f"올린 파일을 읽지 못했습니다: {_relabel(text, mapping)}")
        if kind == "memory":
            return HTTPStatus.UNPROCESSABLE_ENTITY, self.pages.empty(
                f"검사에 메모리가 한도({self.limits.worker_memory_mb:,}MB)보다 많이 들어 멈췄습니다. 시나리오를 나누어 올려 주세요.")
        if kind == "bug":
            return HTTPStatus.INTERNAL_SERVER_ERROR, self.pages.empty(
                f"검사 중에 예상하지 못한 오류({text})가 났습니다. 입력 파일과 함께 알려 주세요.")
        return HTTPStatus.INTERNAL_SERVER_ERROR, self.pages.empty(
            f"검사하던 작업 프로세스가 끝까지 가지 못했습니다(종료 코드 {text}). 입력 파일과 함께 알려 주세요.")

    async def make_sample(self) -> tuple[int, str]:
        folder = self.new_folder()
        try:
            return await self.page(self.pages.sample, (), folder, {})
        finally:
            self.remove(folder)


class _Live:
    """``serve --watch``: the screen of one followed file, made again in a worker after
    every save (watchfiles, debounced: one save, one page), and the readers waiting on
    ``/events`` told that a new page is ready."""

    def __init__(self, state: "_State", pages: ServerPages, path: Path, debounce_ms: int = 300):
        self.state, self.pages, self.path, self.debounce_ms = state, pages, Path(os.path.abspath(path)), debounce_ms
        self.version = 0
        self.status: int = HTTPStatus.OK
        self.html = ""
        self.ready = asyncio.Event()
        self.changed: asyncio.Condition | None = None
        #: the worker that makes every page of the followed file, kept between saves
        self.kept = _Kept(state.workers)

    async def render(self) -> None:
        folder = self.state.new_folder()
        try:
            watched = self.pages.watched
            assert watched is not None  # a file is followed only with a page for it
            status, html = await self.state.page(watched, (self.path,), folder, {}, self.kept)
        finally:
            self.state.remove(folder)
        assert self.changed is not None
        async with self.changed:
            self.status, self.html = status, html
            self.version += 1
            self.changed.notify_all()
        self.ready.set()

    def _counts(self, change: Any, path: str) -> bool:
        p = Path(path)
        if self.path.is_dir():
            return p.parent == self.path and p.suffix.lower() in (".csv", ".xlsx", ".json", ".yaml", ".yml", ".toml")
        return p == self.path or (p.parent == self.path.parent and p.suffix.lower() == ".toml")

    async def follow(self, stop: asyncio.Event) -> None:
        import watchfiles

        self.changed = asyncio.Condition()
        folder = self.path if self.path.is_dir() else self.path.parent
        watching = watchfiles.awatch(str(folder), watch_filter=self._counts, debounce=self.debounce_ms, step=50,
                                     recursive=False, stop_event=stop)
        first = asyncio.ensure_future(self.render())
        async for changes in watching:
            if changes:
                await first
                await self.render()
        await first

    async def events(self) -> AsyncIterator[tuple[str, str]]:
        await self.ready.wait()
        assert self.changed is not None
        seen = self.version
        while True:
            async with self.changed:
                await self.changed.wait_for(lambda: self.version > seen)  # noqa: B023 - awaited at once
                seen = self.version
            yield ("reload", str(seen))


def create_app(pages: ServerPages, limits: ServerLimits | None = None, *, routes: Sequence[Any] = (),
               loopback_only: bool = True, log: Callable[[str], None] | None = None, watch: Path | None = None):
    """The report screen as a Starlette app: ``GET /``, ``GET /sample``, ``POST /upload``
    and the extra ``routes`` (Starlette routes, mounted beside them), inside the guard
    described in the module docstring.  ``loopback_only``: answer only requests
    addressed to a loopback name.  ``log``: where one line per request goes.  ``watch``: a
    file (or folder scenario) to follow: ``GET /`` is then its live screen, made again on
    every save, and ``GET /events`` tells the page when (server-sent events).

    Run it with :func:`run_server`; it also runs under any ASGI server, though only
    :func:`run_server` adds the connection-level limits (head timeout, connection count).
    """
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.responses import HTMLResponse
    from starlette.routing import Route

    limits = limits or ServerLimits()
    max_bytes = limits.max_bytes or pages.max_bytes
    state = _State(pages, limits)

    def page(status: int, html: str, close: bool = False) -> HTMLResponse:
        return HTMLResponse(html, status_code=int(status), headers={"connection": "close"} if close else None)

    def empty(status: int, banner: str | None, close: bool = False) -> HTMLResponse:
        response = page(status, pages.empty(banner), close)
        if pages.csp:
            response.headers["content-security-policy"] = pages.csp
        return response

    live = _Live(state, pages, watch) if watch is not None and pages.watched is not None else None

    async def landing(request) -> HTMLResponse:
        if live is not None:
            await live.ready.wait()
            return page(live.status, live.html)
        return empty(HTTPStatus.OK, None)

    async def events(request):
        assert live is not None
        return event_stream(live.events())

    async def sample(request) -> HTMLResponse:
        if state.sample is None or (state.sample.done() and (state.sample.cancelled() or state.sample.exception() is not None
                                                             or state.sample.result()[0] != HTTPStatus.OK)):
            state.sample = asyncio.ensure_future(state.make_sample())
        status, html = await asyncio.shield(state.sample)
        return page(status, html)

    async def upload(request) -> HTMLResponse:
        folder = state.new_folder()
        try:
            target, names = await _read_upload(request, folder, limits)
            status, html = await state.page(pages.judge, (target, names), folder, names)
            return page(status, html)
        finally:
            state.remove(folder)

    async def refused(request, exc: UploadError) -> HTMLResponse:
        return empty(exc.status, str(exc), close=exc.close)

    async def declined(request, exc: VerdictsError) -> HTMLResponse:
        # a mounted route's domain error (an unknown id, a store that cannot be read):
        # its sentence on a page, with the status the error class names (else 422)
        return empty(int(getattr(exc, "http_status", HTTPStatus.UNPROCESSABLE_ENTITY)), str(exc))

    async def not_found(request, exc) -> HTMLResponse:
        return empty(HTTPStatus.NOT_FOUND, "없는 주소입니다. 이 서버는 검사 화면만 보여 줍니다.")

    async def crashed(request, exc: Exception) -> HTMLResponse:
        traceback.print_exception(exc, file=sys.stderr)
        return empty(HTTPStatus.INTERNAL_SERVER_ERROR,
                     f"서버에서 예상하지 못한 오류({type(exc).__name__})가 났습니다. 입력 파일과 함께 알려 주세요.", close=True)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        await asyncio.to_thread(state.workers.start)
        state.sample = asyncio.ensure_future(state.make_sample())  # ready before anyone asks
        stop_following = asyncio.Event()
        following = asyncio.ensure_future(live.follow(stop_following)) if live is not None else None
        try:
            yield
        finally:
            stop_following.set()
            if following is not None and not following.done():
                following.cancel()
            if state.sample is not None and not state.sample.done():
                state.sample.cancel()
            state.clean_up()

    app = Starlette(
        routes=[Route("/", landing, methods=["GET"]), Route("/sample", sample, methods=["GET"]),
                Route("/upload", upload, methods=["POST"]),
                *([Route("/events", events, methods=["GET"])] if live is not None else []), *routes],
        middleware=[Middleware(_Guard, limits=limits, max_bytes=max_bytes, error_page=pages.empty,
                               loopback_only=loopback_only, log=log, csp=pages.csp)],
        # starlette types every handler as one for any Exception; refused is registered for UploadError only
        exception_handlers={UploadError: refused, VerdictsError: declined, 404: not_found, 405: not_found,  # type: ignore[dict-item]
                            Exception: crashed},
        lifespan=lifespan,
    )
    app.state.verdicts = state
    app.state.limits = limits
    app.state.error_page = pages.empty
    app.state.log = log
    return app


# --------------------------------------------------------------------------- events


def event_stream(events: AsyncIterator[str | tuple[str, str]], *, heartbeat: float = 15.0):
    """A server-sent-events response (``text/event-stream``) for a route mounted with
    :func:`create_app`: each item of ``events`` is sent as one event (a string, or
    ``(event name, data)``); a comment line every ``heartbeat`` seconds keeps an idle
    stream open and notices a reader that went away.

    >>> from starlette.routing import Route
    >>> async def ticks(request):
    ...     async def gen():
    ...         yield ("reload", "scenario.csv")
    ...     return event_stream(gen())
    >>> Route("/events", ticks).path
    '/events'
    """
    from starlette.responses import StreamingResponse

    async def frames() -> AsyncIterator[bytes]:
        queue: asyncio.Queue = asyncio.Queue(maxsize=16)
        done = object()

        async def pump() -> None:
            try:
                async for item in events:
                    await queue.put(item)
            finally:
                await queue.put(done)

        task = asyncio.ensure_future(pump())
        try:
            yield b": open\n\n"
            while True:
                try:
                    async with asyncio.timeout(heartbeat):
                        item = await queue.get()
                except TimeoutError:
                    yield b": keep-alive\n\n"
                    continue
                if item is done:
                    if task.done() and (error := task.exception()) is not None:
                        raise error
                    return
                name, data = item if isinstance(item, tuple) else ("", item)
                lines = [f"event: {name}"] if name else []
                lines += [f"data: {line}" for line in str(data).replace("\r", "").split("\n")]
                yield ("\n".join(lines) + "\n\n").encode("utf-8")
        finally:
            task.cancel()

    return StreamingResponse(frames(), media_type="text/event-stream",
                             headers={"cache-control": "no-store", "x-accel-buffering": "no"})


# --------------------------------------------------------------------------- serving


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0 picks a free one)."""
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(128)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


def url_of(sock: socket.socket) -> str:
    """The base URL of a bound socket (``http://127.0.0.1:8765/``)."""
    host, port = sock.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def _protocol_class(limits: ServerLimits, error_page: Callable[[str], str], log: Callable[[str], None] | None = None) -> type:
    """uvicorn's h11 protocol with the connection-level limits: a deadline for the
    request head, a cap on open connections, Korean pages for malformed requests, and
    a bounded lingering close after a refusal."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    class Connection(h11.Connection):
        last_error: Exception | None = None

        def next_event(self):
            try:
                return super().next_event()
            except h11.RemoteProtocolError as exc:
                self.last_error = exc
                raise

    class GentleTransport:
        """The connection's transport, closing gently: see :meth:`Protocol.close_gently`."""

        def __init__(self, raw, protocol):
            self._raw, self._protocol = raw, protocol

        def close(self) -> None:
            self._protocol.close_gently()

        def is_closing(self) -> bool:
            return self._raw.is_closing() or self._protocol.lingering

        def __getattr__(self, name):
            return getattr(self._raw, name)

    class Protocol(H11Protocol):
        conn: Connection  # h11's, keeping its last error

        def __init__(self, config, server_state, app_state, _loop=None):
            super().__init__(config, server_state, app_state, _loop)
            self.conn = Connection(h11.SERVER, MAX_HEAD_BYTES)
            self.lingering = False
            self._raw = None
            self._head_timer: asyncio.TimerHandle | None = None
            self._linger_timer: asyncio.TimerHandle | None = None
            self._head_bytes = 0
            self._head_tail = b""
            self._discarded = 0

        def connection_made(self, transport) -> None:
            super().connection_made(transport)
            self._raw = transport
            # a stand-in for the transport (what it does not override goes through __getattr__)
            self.transport = GentleTransport(transport, self)  # type: ignore[assignment]
            if len(self.connections) > limits.max_connections:
                self._refuse(HTTPStatus.SERVICE_UNAVAILABLE, "동시에 열린 연결이 너무 많습니다. 잠시 뒤에 다시 열어 주세요.")
                return
            self._arm_head_timer()

        def data_received(self, data: bytes) -> None:
            if self.lingering:  # thrown away, never parsed or stored; past 64 MB not even read
                self._discarded += len(data)
                if self._discarded > 64 * 1024 * 1024:
                    with contextlib.suppress(Exception):
                        self._raw.pause_reading()
                return
            if self.conn.their_state is h11.IDLE:
                # h11 bounds only a head still incomplete: one that arrives whole in a
                # single read is measured here, up to its blank line
                before, seen = self._head_bytes, self._head_tail + data
                self._head_bytes += len(data)
                if self._head_bytes > MAX_HEAD_BYTES:
                    end = _HEAD_END.search(seen)
                    size = before - len(self._head_tail) + end.end() if end else self._head_bytes
                    if size > MAX_HEAD_BYTES:
                        self._refuse(HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE,
                                     f"요청 머리(헤더)가 너무 깁니다. 한도는 {MAX_HEAD_BYTES:,}바이트입니다.")
                        return
                self._head_tail = seen[-3:]
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE and self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self.transport.is_closing():
                return
            if self.conn.their_state is h11.SEND_BODY:  # a body nobody will read: the connection is not kept
                self.close_gently()
            elif self.conn.their_state is h11.IDLE:
                self._head_bytes = 0
                self._head_tail = b""
                self._arm_head_timer()

        def connection_lost(self, exc) -> None:
            for timer in (self._head_timer, self._linger_timer):
                if timer is not None:
                    timer.cancel()
            super().connection_lost(exc)

        def send_400_response(self, msg: str) -> None:
            error = str(self.conn.last_error or "")
            if "content-length" in error.lower():
                status, text = HTTPStatus.BAD_REQUEST, "올린 내용의 길이(Content-Length)가 올바른 수가 아닙니다."
            elif "too long" in error.lower() or "too large" in error.lower():
                status, text = HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE, f"요청 머리(헤더)가 너무 깁니다. 한도는 {MAX_HEAD_BYTES:,}바이트입니다."
            else:
                status, text = HTTPStatus.BAD_REQUEST, "요청이 HTTP 형식에 맞지 않아 읽을 수 없습니다."
            self._refuse(status, text)

        def _arm_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(limits.header_timeout, self._head_timeout)

        def _head_timeout(self) -> None:
            self._head_timer = None
            if self._raw.is_closing() or self.lingering or self.conn.their_state is not h11.IDLE:
                return
            if self._head_bytes == 0:
                self._raw.close()  # an idle connection: nothing to answer
            else:
                self._refuse(HTTPStatus.REQUEST_TIMEOUT, f"요청 머리(헤더)가 {limits.header_timeout:g}초 안에 다 오지 않아 연결을 끊습니다.")

        def _refuse(self, status: int, text: str) -> None:
            if self._raw.is_closing():
                return
            self._raw.write(_raw_page(status, error_page(text)))
            self.close_gently(force_linger=True)
            if log is not None:
                log(f"{(self.client or ('-', 0))[0]} (요청을 다 읽기 전) → {int(status)} {text}")

        def close_gently(self, force_linger: bool = False) -> None:
            """Close; but when the client may still be sending (a body the server did
            not read), first send what is queued and a FIN, then throw away what
            arrives for at most ``linger`` seconds, so that the client reads the page
            instead of a reset."""
            raw = self._raw
            if raw.is_closing() or self.lingering:
                return
            sending = force_linger or self.conn.their_state is h11.SEND_BODY
            if not sending or limits.linger <= 0 or not raw.can_write_eof():
                raw.close()
                return
            self.lingering = True
            raw.write_eof()
            with contextlib.suppress(Exception):
                raw.resume_reading()
            self._linger_timer = self.loop.call_later(limits.linger, raw.close)

        def eof_received(self):
            if self.lingering:
                self._raw.close()
            return super().eof_received()

    return Protocol


def run_server(app: Any, sock: socket.socket) -> None:
    """Serve ``app`` (from :func:`create_app`) on ``sock`` until Ctrl+C or SIGTERM, then
    give running requests ``shutdown_grace`` seconds, cancel the rest, kill every worker
    and remove every temporary folder; returns normally.  Once per process: the
    process is expected to end after it (the worker fork server is not restarted)."""
    import logging

    import uvicorn

    limits: ServerLimits = app.state.limits
    state: _State = app.state.verdicts
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):  # its lines are English; the app logs its own
        logger = logging.getLogger(name)
        logger.handlers[:] = [logging.NullHandler()]
        logger.propagate = False
    config = uvicorn.Config(
        app, http=_protocol_class(limits, app.state.error_page, app.state.log), ws="none", lifespan="on", log_config=None,
        access_log=False, proxy_headers=False, server_header=False, timeout_keep_alive=limits.keep_alive,  # type: ignore[arg-type]
        timeout_graceful_shutdown=limits.shutdown_grace,  # type: ignore[arg-type]
    )

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            # uvicorn raises the signal again after shutting down, which would kill the
            # process before the last cleanup; here the signal only stops the server
            if threading.current_thread() is not threading.main_thread():
                yield
                return
            original = {sig: signal.signal(sig, self.handle_exit) for sig in (signal.SIGINT, signal.SIGTERM)}
            try:
                yield
            finally:
                for sig, handler in original.items():
                    signal.signal(sig, handler)

    server = Server(config)

    async def main() -> None:
        try:
            await server.serve(sockets=[sock])
        finally:
            state.clean_up()

    try:
        asyncio.run(main())
    except KeyboardInterrupt:  # a Ctrl+C outside the server's own handling
        pass
    finally:
        state.clean_up()
        with contextlib.suppress(OSError):
            sock.close()
        # multiprocessing removes the fork server's socket folder at a normal interpreter
        # exit, which the CLI skips (os._exit); the process is expected to end here
        if state.workers.socket_dir:
            _remove_socket_dir(state.workers.socket_dir)


def _remove_socket_dir(path: str) -> None:
    """Remove the fork server's socket folder now, and make sure multiprocessing does not
    try again at the interpreter's exit (a command that returns normally, ``verdicts
    review``, would otherwise print a traceback for the folder already gone)."""
    from multiprocessing import util

    with contextlib.suppress(Exception):
        for finalizer in list(getattr(util, "_finalizer_registry", {}).values()):
            if path in (getattr(finalizer, "_args", None) or ()):
                finalizer()  # multiprocessing's own removal, run now, so never again
    shutil.rmtree(path, ignore_errors=True)

