"""Issue 20, item 4: how soon the report of an edited scenario is ready, incrementally
(:class:`storygraph.incremental.IncrementalLint`, what ``storygraph watch`` and
``storygraph serve --watch`` do after a save) against a full lint of the same file
(:func:`storygraph.domain.lint`, what a fresh ``storygraph lint`` does in one process).

A scenario of N scenes (``generate.py``) is edited one row at a time — a branch's
condition is replaced by another — and after each edit both are timed side by side in
the same run: two worker processes that have imported storygraph once (the time of a
start is not counted for either), the full one linting the file from scratch, the
incremental one re-linting it after its last lint.  Each time is from reading the file to
the report's bytes in memory (JSON by default), in wall-clock and in CPU seconds of the
worker; the two reports are compared byte for byte.  The edits alternate between the workers' order (full first, then incremental
first) so that neither always runs on a warmer machine.

Usage::

    .venv/bin/python benchmarks/incremental.py                 # 20,000 scenes, 7 edits
    .venv/bin/python benchmarks/incremental.py --scenes 5000 --edits 5 --format text
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

WORKER = r"""
import hashlib, json, sys, time
from storygraph.domain import DOMAIN, lint
from storygraph.incremental import IncrementalLint
from verdicts.reporters import REPORTERS
mode = sys.argv[1]
linter = IncrementalLint()
for line in sys.stdin:
    path, fmt = json.loads(line)
    start, cpu = time.perf_counter(), time.process_time()
    if mode == "full":
        report = lint(path)
        data = b"".join(REPORTERS[fmt].pieces(report, DOMAIN))
        last = {}
    else:
        report = linter.lint(path)
        data = linter.render(report, fmt)
        last = linter.last
    took, used = time.perf_counter() - start, time.process_time() - cpu
    print(json.dumps({"seconds": took, "cpu": used, "sha": hashlib.sha256(data).hexdigest(), "bytes": len(data), "last": last}), flush=True)
"""


class Worker:
    def __init__(self, mode: str):
        self.proc = subprocess.Popen([sys.executable, "-c", WORKER, mode], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, encoding="utf-8")

    def lint(self, path: Path, fmt: str) -> dict:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps([str(path), fmt]) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the {self} worker stopped")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=20_000)
    parser.add_argument("--edits", type=int, default=7)
    parser.add_argument("--format", default="json", choices=("json", "text"))
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)

    import generate

    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory(prefix="storygraph-incremental-") as tmp:
        path = Path(tmp) / "scenario.csv"
        with open(path, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(generate.COLUMNS)
            for row in generate.scenario_rows(args.scenes, args.seed):
                w.writerow(row)
        lines = path.read_text(encoding="utf-8").split("\n")
        header = next(csv.reader([lines[0]]))
        cond, bid = header.index("condition_expr"), header.index("branch_id")
        rows = {i: next(csv.reader([line])) for i, line in enumerate(lines) if i and line}
        with_condition = [i for i, r in rows.items() if r[bid] and r[cond]]
        conditions = [rows[i][cond] for i in with_condition]
        print(f"{args.scenes:,} scenes, {sum(1 for r in rows.values() if r[bid]):,} branches; "
              f"{args.edits} one-row edits (a branch's condition replaced), {args.format} report; "
              f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f} at the start")
        full, incremental = Worker("full"), Worker("incremental")
        try:
            first = incremental.lint(path, args.format)  # the first lint of a watch: everything is made
            print(f"first incremental lint (nothing kept yet): {first['seconds']:.2f} s")
            fulls, incs, full_cpu, inc_cpu = [], [], [], []
            for k in range(args.edits):
                i = rng.choice(with_condition)
                row = list(rows[i])
                row[cond] = rng.choice(conditions)
                buf = io.StringIO()
                csv.writer(buf, lineterminator="").writerow(row)
                lines[i] = buf.getvalue()
                path.write_text("\n".join(lines), encoding="utf-8")
                order = (full, incremental) if k % 2 == 0 else (incremental, full)
                got = {id(w): w.lint(path, args.format) for w in order}
                a, b = got[id(full)], got[id(incremental)]
                if a["sha"] != b["sha"]:
                    raise SystemExit(f"edit {k + 1} (line {i + 1}): the incremental report differs from the full lint's")
                fulls.append(a["seconds"])
                incs.append(b["seconds"])
                full_cpu.append(a["cpu"])
                inc_cpu.append(b["cpu"])
                print(f"  edit {k + 1}: line {i + 1:>6}  full {a['seconds']:6.2f} s ({a['cpu']:.2f} s CPU)   "
                      f"incremental {b['seconds']:6.2f} s ({b['cpu']:.2f} s CPU)   "
                      f"({b['last'].get('scenes decided')} scene decided, {b['last'].get('cards made')} cards made, "
                      f"{b['bytes']:,} bytes, identical)")
        finally:
            full.close()
            incremental.close()
    f, i = statistics.median(fulls), statistics.median(incs)
    fc, ic = statistics.median(full_cpu), statistics.median(inc_cpu)
    print(f"median wall clock: full lint {f:.2f} s, incremental {i:.2f} s: {i / f:.2f} of a full lint "
          f"({'within' if i <= f / 5 else 'NOT within'} the fifth, {f / 5:.2f} s)")
    print(f"median CPU: full lint {fc:.2f} s, incremental {ic:.2f} s: {ic / fc:.2f} of a full lint "
          f"({'within' if ic <= fc / 5 else 'NOT within'} the fifth; CPU time is what a busy shared machine disturbs least); "
          f"load {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
