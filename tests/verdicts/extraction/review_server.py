"""Starting the review queue for real (``verdicts review``), in a subprocess on a free port."""

from __future__ import annotations

import socket
import sys
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
