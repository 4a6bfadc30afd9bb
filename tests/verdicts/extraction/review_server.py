"""Starting the review queue for real (``verdicts review``), in a subprocess on a free port."""

from __future__ import annotations

import sys
import urllib.request
from contextlib import contextmanager
from pathlib import Path

from tests.browser import started


@contextmanager
def reviewing(db: Path, *paths: Path | str):
    """Run ``verdicts review --load PATH… --db DB --port 0``; yield the base URL
    (``http://127.0.0.1:PORT``); stop it with SIGTERM on leaving."""
    loads = [arg for path in paths for arg in ("--load", str(path))]
    argv = [str(Path(sys.executable).parent / "verdicts"), "review", *loads, "--db", str(db), "--port", "0"]
    with started(argv, db.parent / f"{db.stem}-server.log") as (_, url):
        assert url.endswith("/review"), url
        with urllib.request.urlopen(url, timeout=30) as resp:
            assert resp.status == 200
        yield url[: -len("/review")]
