"""A small local web server for the report screen (standard library only).

Routes, and nothing else (any other path is 404, so no file outside the page itself is
ever served — there are no static files at all; CSS and script are inline):

* ``GET /`` — the upload form, the "샘플 데이터로 보기" button and the empty panels;
* ``GET /sample`` — the screen of the bundled sample;
* ``POST /upload`` — ``multipart/form-data`` with one or more files under ``files``;
  the screen of what was uploaded.

Uploads: the body is refused with 413 above ``max_bytes`` (before it is read), each file
name is reduced to a safe base name, files are written only inside a fresh temporary
folder that is removed as soon as the screen is made, and the temporary path is replaced
by the uploaded file name everywhere on the screen.  One file is read as it is (a union
CSV, ``.xlsx``, JSON or YAML); several CSV files are read as the folder form.

The server is domain-generic: :func:`make_server` takes the functions that make a page.
"""

from __future__ import annotations

import email.parser
import email.policy
import re
import shutil
import tempfile
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable
from urllib.parse import urlsplit

from .domain import Report
from .errors import VerdictsError

__all__ = ["Upload", "UploadError", "ServerPages", "make_server", "parse_upload", "relabel_files", "MAX_UPLOAD_BYTES", "ACCEPTED_SUFFIXES"]

#: default upload limit (bytes)
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
ACCEPTED_SUFFIXES = (".csv", ".xlsx", ".json", ".yaml", ".yml")
#: bodies above the limit but below this are read and dropped so the browser sees the
#: 413 page; bigger ones are cut off
_DRAIN_LIMIT = 64 * 1024 * 1024


_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class UploadError(VerdictsError):
    """An upload cannot be read: too big, no file, a file type not accepted."""

    def __init__(self, message: str, status: int = HTTPStatus.BAD_REQUEST):
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Upload:
    name: str
    data: bytes


_SAFE = re.compile(r"[^0-9A-Za-z가-힣._ -]")


def safe_name(name: str) -> str:
    """A file's base name without folders or odd characters (never empty, never hidden).

    >>> safe_name("../../etc/passwd"), safe_name("C:\\\\data\\\\장면 표.csv"), safe_name("..")
    ('passwd', '장면 표.csv', 'upload')
    """
    base = re.split(r"[\\/]", name)[-1]
    base = _SAFE.sub("_", base).strip(" .")
    return base or "upload"


def parse_upload(content_type: str, body: bytes) -> list[Upload]:
    """The files of a ``multipart/form-data`` body (field ``files``)."""
    if not content_type.lower().startswith("multipart/form-data"):
        raise UploadError("파일은 multipart/form-data 형식으로 올려야 합니다.")
    head = f"Content-Type: {content_type}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1", "replace")
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + body)
    if not message.is_multipart():  # an empty form (only the closing boundary) or no boundary at all
        return []
    files: list[Upload] = []
    for part in message.iter_parts():
        filename = part.get_filename()
        if not filename:
            continue
        files.append(Upload(filename, part.get_payload(decode=True) or b""))
    return files


def relabel_files(report: Report, mapping: dict[str, str]) -> Report:
    """Replace temporary paths (keys of ``mapping``) by the names the user knows, in
    every file name and reason on the report."""

    def fix(text: str | None) -> str | None:
        if text is None:
            return None
        for old, new in mapping.items():
            text = text.replace(old, new)
        return text

    report.issues = [i.model_copy(update={"file": fix(i.file), "reason": fix(i.reason)}) for i in report.issues]
    report.sources = [s.model_copy(update={"file": fix(s.file)}) for s in report.sources]
    report.findings = [f.model_copy(update={"file": fix(f.file), "message": fix(f.message)}) for f in report.findings]
    return report


@dataclass
class ServerPages:
    """How a domain makes its pages.

    ``judge(path, names)`` returns the HTML screen for an input at ``path`` (``names``
    maps the temporary path to what the user uploaded, for relabelling); ``sample()`` the
    screen of the bundled sample; ``empty(banner)`` the page before any upload, with an
    optional error banner.
    """

    judge: Callable[[Path, dict[str, str]], str]
    sample: Callable[[], str]
    empty: Callable[[str | None], str]
    max_bytes: int = MAX_UPLOAD_BYTES
    temp_prefix: str = "verdicts-upload-"


def _write_inputs(files: list[Upload], folder: Path) -> tuple[Path, dict[str, str]]:
    """Write the uploads into ``folder``; return the path to judge and the relabelling."""
    if not files:
        raise UploadError("올린 파일이 없습니다. 파일을 고른 뒤 검사하기를 누르세요.")
    names = [safe_name(f.name) for f in files]
    for name in names:
        if not name.lower().endswith(ACCEPTED_SUFFIXES):
            raise UploadError(f"'{name}'은(는) 받지 않는 형식입니다: {', '.join(ACCEPTED_SUFFIXES)} 파일만 올릴 수 있습니다.")
    if len(set(names)) != len(names):
        raise UploadError("같은 이름의 파일을 두 번 올렸습니다.")
    if len(files) == 1:
        target = folder / names[0]
        target.write_bytes(files[0].data)
        return target, {str(target): names[0], str(folder): "(올린 파일)"}
    if not all(n.lower().endswith(".csv") for n in names):
        raise UploadError("여러 파일을 올릴 때는 표마다 CSV 하나씩(scene_states.csv, story_branches.csv …)이어야 합니다.")
    sub = folder / "upload"
    sub.mkdir()
    for name, f in zip(names, files):
        (sub / name).write_bytes(f.data)
    return sub, {str(sub) + "/": "", str(sub): "(올린 폴더)", str(folder): "(올린 파일)"}


def make_server(host: str, port: int, pages: ServerPages) -> ThreadingHTTPServer:
    """A ready (not yet serving) HTTP server for ``pages``; port 0 picks a free port."""

    class Handler(BaseHTTPRequestHandler):
        server_version = "verdicts-screen"
        sys_version = ""

        def log_message(self, format: str, *args) -> None:  # quiet: one line per request on stderr
            super().log_message(format, *args)

        def _send(self, status: int, html: str) -> None:
            body = html.encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("X-Content-Type-Options", "nosniff")
            self.send_header("Referrer-Policy", "no-referrer")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)

        def _host_ok(self) -> bool:
            """On a loopback address, answer only requests addressed to loopback names (a
            page from elsewhere cannot reach the server through DNS rebinding)."""
            if host not in _LOOPBACK:
                return True
            name = (self.headers.get("Host") or "").strip().lower()
            name = name[1:].split("]")[0] if name.startswith("[") else name.rsplit(":", 1)[0] if name.count(":") == 1 else name
            return name in _LOOPBACK

        def _route(self) -> str | None:
            path = urlsplit(self.path).path
            return path if path in ("/", "/sample", "/upload") else None

        def do_HEAD(self) -> None:
            self.do_GET()

        def do_GET(self) -> None:
            if not self._host_ok():
                self._send(HTTPStatus.FORBIDDEN, pages.empty("이 서버는 이 컴퓨터(127.0.0.1, localhost)에서 여는 주소로만 답합니다."))
                return
            route = self._route()
            if route == "/":
                self._send(HTTPStatus.OK, pages.empty(None))
            elif route == "/sample":
                self._send(HTTPStatus.OK, pages.sample())
            else:
                self._send(HTTPStatus.NOT_FOUND, pages.empty("없는 주소입니다. 이 서버는 검사 화면만 보여 줍니다."))

        def do_POST(self) -> None:
            if not self._host_ok():
                self.close_connection = True
                self._send(HTTPStatus.FORBIDDEN, pages.empty("이 서버는 이 컴퓨터(127.0.0.1, localhost)에서 여는 주소로만 답합니다."))
                return
            if self._route() != "/upload":
                self._send(HTTPStatus.NOT_FOUND, pages.empty("없는 주소입니다."))
                return
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                self.close_connection = True
                self._send(HTTPStatus.LENGTH_REQUIRED, pages.empty("올린 내용의 길이(Content-Length)를 알 수 없습니다."))
                return
            if length > pages.max_bytes:
                self.close_connection = True
                if length <= _DRAIN_LIMIT:
                    remaining = length
                    while remaining > 0:
                        chunk = self.rfile.read(min(remaining, 1 << 16))
                        if not chunk:
                            break
                        remaining -= len(chunk)
                self._send(HTTPStatus.REQUEST_ENTITY_TOO_LARGE, pages.empty(
                    f"파일이 너무 큽니다: {length:,}바이트를 올렸는데 한도는 {pages.max_bytes:,}바이트입니다. "
                    "표를 나누거나 필요 없는 열을 지운 뒤 다시 올려 주세요."))
                return
            body = self.rfile.read(length)
            folder = Path(tempfile.mkdtemp(prefix=pages.temp_prefix))
            try:
                files = parse_upload(self.headers.get("Content-Type", ""), body)
                target, names = _write_inputs(files, folder)
                html = pages.judge(target, names)
                status = HTTPStatus.OK
            except UploadError as exc:
                status, html = exc.status, pages.empty(str(exc))
            except VerdictsError as exc:
                message = str(exc).replace(str(folder) + "/", "").replace(str(folder), "(올린 파일)")
                status, html = HTTPStatus.UNPROCESSABLE_ENTITY, pages.empty(f"올린 파일을 읽지 못했습니다: {message}")
            except Exception as exc:  # a bug must not take the server down or leave files behind
                self.log_error("unexpected %s: %s", type(exc).__name__, exc)
                status, html = HTTPStatus.INTERNAL_SERVER_ERROR, pages.empty(
                    f"검사 중에 예상하지 못한 오류({type(exc).__name__})가 났습니다. 입력 파일과 함께 알려 주세요.")
            finally:
                shutil.rmtree(folder, ignore_errors=True)
            self._send(status, html)

    return ThreadingHTTPServer((host, port), Handler)
