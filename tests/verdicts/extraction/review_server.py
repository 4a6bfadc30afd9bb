"""Starting the review queue for real (``verdicts review``), in a subprocess on a free port."""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def reviewing(db: Path, *paths: Path | str):
    """Run ``verdicts review --load PATH… --db DB --port 0``; yield the base URL
    (``http://127.0.0.1:PORT``); stop it with SIGTERM on leaving."""
    log_path = db.parent / f"{db.stem}-server.log"
    log = open(log_path, "a")
    loads = [arg for path in paths for arg in ("--load", str(path))]
    proc = subprocess.Popen([str(Path(sys.executable).parent / "verdicts"), "review", *loads, "--db", str(db), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    try:
        line = ""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not line:
            line = proc.stdout.readline().strip()
            if proc.poll() is not None:
                raise RuntimeError(f"server exited: {log_path.read_text()}")
        assert line.startswith("http://127.0.0.1:") and line.endswith("/review"), line
        base = line[: -len("/review")]
        with urllib.request.urlopen(base + "/review", timeout=30) as resp:
            assert resp.status == 200
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        log.close()
