"""Starting ``storygraph serve`` for real, in a subprocess on a free port (shared by the
server, hostile-server and browser tests)."""

from __future__ import annotations

import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.browser import private_dirs, started

BIN = Path(sys.executable).parent


def leftovers(tmpdir: Path) -> list[Path]:
    """What a running server left in its ``TMPDIR``."""
    return sorted(tmpdir.iterdir())


@contextmanager
def serving(tmpdir: Path, *args: str):
    """Run ``storygraph serve --port 0 ARGS`` with ``TMPDIR=tmpdir``; yield
    ``(process, base URL)``.  On leaving, the server is stopped with SIGTERM (if still
    running) and its log is at ``tmpdir.parent / f"{tmpdir.name}-server.log"``."""
    log_path = tmpdir.parent / f"{tmpdir.name}-server.log"  # outside TMPDIR, which must end empty
    with started([str(BIN / "storygraph"), "serve", "--port", "0", *args], log_path, env=private_dirs(tmpdir)) as (proc, url):
        with urllib.request.urlopen(url + "/sample", timeout=60) as resp:  # the sample page is made at start: wait for it
            assert resp.status == 200
        yield proc, url


@contextmanager
def served(tmpdir: Path, *args: str):
    """Run ``storygraph serve --port 0`` with ``TMPDIR=tmpdir``; yield its base URL.
    After it stops, ``tmpdir`` must be empty (uploads removed), and so must the
    ``XDG_RUNTIME_DIR`` given to it (the worker fork server's socket folder removed)."""
    with serving(tmpdir, *args) as (proc, url):
        yield url
    assert proc.returncode == 0, (proc.returncode, (tmpdir.parent / f"{tmpdir.name}-server.log").read_text()[-2000:])
    assert list(tmpdir.iterdir()) == [], "the server left files in TMPDIR"
    assert list((tmpdir.parent / f"{tmpdir.name}-run").iterdir()) == [], "the fork server's socket folder is left"


def multipart(files: list[tuple[str, bytes]], field: str = "files") -> tuple[str, bytes]:
    """A ``multipart/form-data`` body as a browser sends it: (content type, body)."""
    boundary = "----storygraphtest7MA4YWxkTrZu0gW"
    out = b""
    for name, data in files:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode("utf-8") + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", out
