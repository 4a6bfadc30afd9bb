"""Starting ``storygraph serve`` for real, in a subprocess on a free port (shared by the
server and browser tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

BIN = Path(sys.executable).parent


@contextmanager
def served(tmpdir: Path, *args: str):
    """Run ``storygraph serve --port 0`` with ``TMPDIR=tmpdir``; yield its base URL."""
    env = dict(os.environ, TMPDIR=str(tmpdir))
    log = open(tmpdir.parent / f"{tmpdir.name}-server.log", "w")  # outside TMPDIR, which must end empty
    proc = subprocess.Popen([str(BIN / "storygraph"), "serve", "--port", "0", *args], stdout=subprocess.PIPE,
                            stderr=log, text=True, env=env)
    try:
        deadline = time.monotonic() + 30
        line = ""
        while time.monotonic() < deadline and not line:
            line = proc.stdout.readline().strip()
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {Path(log.name).read_text()}")
        assert line.startswith("http://127.0.0.1:"), line
        yield line.rstrip("/")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        log.close()


def multipart(files: list[tuple[str, bytes]], field: str = "files") -> tuple[str, bytes]:
    """A ``multipart/form-data`` body as a browser sends it: (content type, body)."""
    boundary = "----storygraphtest7MA4YWxkTrZu0gW"
    out = b""
    for name, data in files:
        out += (f"--{boundary}\r\nContent-Disposition: form-data; name=\"{field}\"; filename=\"{name}\"\r\n"
                "Content-Type: application/octet-stream\r\n\r\n").encode("utf-8") + data + b"\r\n"
    out += f"--{boundary}--\r\n".encode()
    return f"multipart/form-data; boundary={boundary}", out
