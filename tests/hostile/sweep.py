"""The hostile-input sweep (issue 19, "Done when"): every hostile file of
:mod:`tests.hostile.builders` through every entry point — ``storygraph lint`` in each
format and with ``--html``, ``render``, ``grade``, ``fuzz --out``, an upload to
``storygraph serve``, ``verdicts run`` (with ``--save``), ``show`` and ``grade`` of
every domain — each a real subprocess, checked for what the README promises whatever
the input: no traceback, no hang (a time limit), at most 1 GB of memory (the peak RSS
of the command and everything it started, from ``getrusage(RUSAGE_CHILDREN)`` in a
small launcher), an exit code that means something (0, 1 or 2), and safe output (no raw
control character, no line starting with ``::`` but storygraph's own annotations).

``tests/hostile/test_sweep.py`` runs a bounded slice by default and the whole sweep when
marked slow; ``scripts/hostile_sweep.py`` runs it and prints the table and the time.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from tests.hostile import builders
from tests.hostile.inputs import EXAMPLES, ROOT

BIN = Path(sys.executable).parent
PEAK_LIMIT = 1 << 30  # bytes of RSS
TIMEOUT = 120.0  # seconds per command
#: raw C0/C1 controls (tab and line feed are text)
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: the only lines that may start with ``::``: storygraph's and verdicts' own annotations
ANNOTATION = re.compile(r"::(warning|error|notice) (file=[^,\n]*,)?(line=\d+,)?title=[a-z]+ [a-z-]+::")

GOLDS = {
    "storygraph": EXAMPLES / "gold" / "cafe.gold.csv",
    "robot": EXAMPLES / "robot" / "gold.csv",
    "mail": EXAMPLES / "mail" / "gold.csv",
    "extraction": EXAMPLES / "extraction" / "gold" / "gold.csv",
    "residue": EXAMPLES / "residue" / "gold.csv",
}
DOMAINS = tuple(GOLDS)


def entries(path: Path, work: Path) -> dict[str, list]:
    """Every entry point's command line reading (or, for ``fuzz --out``, writing) ``path``."""
    out: dict[str, list] = {}
    for fmt in ("text", "json", "sarif", "github"):
        out[f"lint {fmt}"] = ["storygraph", "lint", path, "--format", fmt, "--quiet", "--jobs", "1"]
    out["lint --html"] = ["storygraph", "lint", path, "--html", work / "report.html", "--quiet"]
    out["render"] = ["storygraph", "render", path, "-o", work / "diagram.svg"]
    out["grade"] = ["storygraph", "grade", path, GOLDS["storygraph"]]
    out["fuzz --out"] = ["storygraph", "fuzz", "--scenes", "200", "--out", path]
    out["import"] = ["storygraph", "import", path, "-o", work / "imported.csv"]
    out["verdicts mail import"] = ["verdicts", "mail", "import", path, "-o", work / "mail-tables"]
    for domain in DOMAINS:
        db = work / f"{domain}.db"
        out[f"verdicts run {domain}"] = ["verdicts", "run", domain, path, "--save", "--db", db, "--quiet"]
        out[f"verdicts show {domain}"] = ["verdicts", "show", domain, "--db", db]
        out[f"verdicts grade {domain}"] = ["verdicts", "grade", domain, path, GOLDS[domain]]
    return out


#: the entry points of the bounded slice (the default run)
SLICE_ENTRIES = ("lint text", "lint github", "lint json", "render", "grade", "verdicts run robot", "verdicts show robot",
                 "verdicts grade robot")

_LAUNCHER = r"""
import json, os, resource, subprocess, sys, time
command, out_path, err_path, timeout = json.loads(sys.argv[1])
started = time.monotonic()
with open(out_path, "wb") as out, open(err_path, "wb") as err:
    proc = subprocess.Popen(command, stdout=out, stderr=err, stdin=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "VERDICTS_JOBS": "1"})
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        proc.wait()
        code = "timeout"
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
print(json.dumps({"code": code, "peak": peak, "seconds": time.monotonic() - started}))
"""


@dataclass
class Run:
    file: str
    entry: str
    code: int | str
    peak: int
    seconds: float
    problems: list[str] = field(default_factory=list)


def run_one(file: str, entry: str, command: list, work: Path, timeout: float = TIMEOUT) -> Run:
    """Run one command in the launcher and check what it did."""
    out_path, err_path = work / "stdout", work / "stderr"
    args = [str(BIN / command[0]), *map(str, command[1:])]
    proc = subprocess.run([sys.executable, "-c", _LAUNCHER, json.dumps([args, str(out_path), str(err_path), timeout])],
                          capture_output=True, text=True, cwd=ROOT)
    result = json.loads(proc.stdout)
    run = Run(file, entry, result["code"], result["peak"], result["seconds"])
    stdout = out_path.read_bytes().decode("utf-8", "replace")
    stderr = err_path.read_bytes().decode("utf-8", "replace")
    check_run(run, stdout, stderr, github=entry == "lint github")
    return run


def check_run(run: Run, stdout: str, stderr: str, github: bool = False) -> None:
    if run.code == "timeout":
        run.problems.append("hang: stopped after the time limit")
    elif run.code not in (0, 1, 2):
        run.problems.append(f"exit code {run.code}")
    if "Traceback" in stdout or "Traceback" in stderr:
        run.problems.append("traceback: " + (stderr[stderr.find("Traceback"):][-600:] if "Traceback" in stderr else "in stdout"))
    if run.peak > PEAK_LIMIT:
        run.problems.append(f"peak RSS {run.peak / 2 ** 20:,.0f} MB")
    for name, text in (("stdout", stdout), ("stderr", stderr)):
        bad = CONTROLS.search(text)
        if bad:
            run.problems.append(f"raw control character {bad.group()!r} in {name}")
        for line in text.splitlines():
            if line.lstrip().startswith(("::", "##[")) and not (github and name == "stdout" and ANNOTATION.match(line)):
                run.problems.append(f"a line of {name} starts a workflow command: {line[:120]!r}")
                break


def upload(url: str, path: Path, timeout: float = TIMEOUT) -> tuple[int, str]:
    """POST ``path`` to the server's upload form; (status, page)."""
    from tests.storygraph.screen_server import multipart

    try:
        data = path.read_bytes() if path.is_file() else b"not a regular file"
    except OSError:
        data = b"unreadable"
    content_type, body = multipart([(path.name, data)])
    request = urllib.request.Request(url + "/upload", data=body, headers={"Content-Type": content_type}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as resp:
            return resp.status, resp.read().decode("utf-8", "replace")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8", "replace")


def sweep(work: Path, names: list[str] | None = None, entry_names: tuple[str, ...] | None = None, server: bool = True,
          slow: bool = True, on_run=None, jobs: int = 1) -> list[Run]:
    """Build the hostile files (``names``: a selection of :data:`builders.BUILDERS`;
    ``slow``: include the slow ones) and run them through the entry points
    (``entry_names``: a selection; the server upload when ``server``).

    ``jobs``: how many files are swept at once (each file's commands run in turn, in a
    folder of its own — its outputs and databases — so files do not share anything but
    the server; the peak RSS is each command's own).  The slow files go first, so that
    with several jobs the sweep ends with the short ones."""
    chosen = [n for n, (_, is_slow) in builders.BUILDERS.items() if (names is None or n in names) and (slow or not is_slow)]
    chosen.sort(key=lambda n: not builders.BUILDERS[n][1])  # (stable: otherwise in the order of BUILDERS)
    runs: list[Run] = []
    lock = threading.Lock()

    def record(run: Run) -> None:
        with lock:
            runs.append(run)
            if on_run is not None:
                on_run(run)

    serving = None
    if server:
        from tests.storygraph.screen_server import serving as serve

        tmpdir = work / "server-tmp"
        tmpdir.mkdir(parents=True)
        serving = serve(tmpdir, "--lint-timeout", "60")
        proc, url = serving.__enter__()
    def one_file(name: str) -> None:
        folder = work / name
        path = builders.build(name, work / "files")
        folder.mkdir(parents=True, exist_ok=True)
        for entry, command in entries(path, folder).items():
            if entry_names is not None and entry not in entry_names:
                continue
            record(run_one(name, entry, command, folder))
        if serving is not None:
            started = time.monotonic()
            status, page = upload(url, path)
            run = Run(name, "serve upload", status, 0, time.monotonic() - started)
            if status >= 500 and status not in (503, 504):
                run.problems.append(f"status {status}")
            if "Traceback" in page:
                run.problems.append("traceback in the page")
            record(run)

    try:
        if jobs <= 1:
            for name in chosen:
                one_file(name)
        else:
            with ThreadPoolExecutor(max_workers=jobs) as pool:
                for done in [pool.submit(one_file, name) for name in chosen]:
                    done.result()
    finally:
        if serving is not None:
            serving.__exit__(None, None, None)
            log = (tmpdir.parent / f"{tmpdir.name}-server.log").read_bytes().decode("utf-8", "replace")
            server_run = Run("(all)", "serve log", proc.returncode, 0, 0.0)
            if "Traceback" in log:
                server_run.problems.append("traceback in the server's log: " + log[log.find("Traceback"):][:600])
            if proc.returncode != 0:
                server_run.problems.append(f"server exit code {proc.returncode}")
            if list(tmpdir.iterdir()):
                server_run.problems.append("uploads left in TMPDIR")
            record(server_run)
    return runs
