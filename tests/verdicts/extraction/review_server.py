"""Starting the review queue for real (``verdicts review``), in a subprocess on a free port."""

from __future__ import annotations

import socket
import re
import sys
import urllib.error
import urllib.parse
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.browser import started


def free_port() -> int:
    """A loopback port free now: a queue restarted on it keeps its pages' origin."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def reviewing(db: Path, *paths: Path | str, port: int = 0):
    """Run ``verdicts review --load PATH… --db DB --port PORT`` (0: a free one); yield the
    base URL (``http://127.0.0.1:PORT``); stop it with SIGTERM on leaving."""
    loads = [arg for path in paths for arg in ("--load", str(path))]
    argv = [str(Path(sys.executable).parent / "verdicts"), "review", *loads, "--db", str(db), "--port", str(port)]
    with started(argv, db.parent / f"{db.stem}-server.log") as (_, url):
        assert url.endswith("/review"), url
        with urllib.request.urlopen(url, timeout=30) as resp:
            assert resp.status == 200
        yield url[: -len("/review")]


def csrf_token(url: str, item_key: str | None = None) -> str:
    """The server's CSRF token as a client finds it: in the hidden field of the page that
    holds the form (the cell's page for ``item_key``, else the queue)."""
    base = url.split("/review", 1)[0]
    page = f"{base}/review/cell/{urllib.parse.quote(item_key)}" if item_key else f"{base}/review"
    try:
        with urllib.request.urlopen(page, timeout=30) as resp:
            html = resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        html = exc.read().decode("utf-8")
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert found, f"no token on {page}"
    return found.group(1)
