"""How fast a creator's command starts (issue 20, "instant start"; the bounds as issue 29
restated them).

Side by side in one run, interleaved so that a busy machine slows every command alike:
the floor (``python -c`` reading the same CSV with the csv module) and ``storygraph lint``
of the lighthouse example (text and ``--format json``), ``storygraph --help`` and
``storygraph --version``.  Each is run many times; the median wall time is printed with
its ratio to the floor's median (the goals: a lint of the example at most 20× — it
imports networkx for its graph and sympy for its fixes' minimal forms —, ``--help`` and
``--version`` at most 6×).

Usage::

    .venv/bin/python benchmarks/startup.py            # 30 repetitions
    .venv/bin/python benchmarks/startup.py --reps 100
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
SCENARIO = "examples/lighthouse/scenario.csv"
#: the bound of a lint of the example (issue 29) and of --help and --version (issue 20)
LINT_GOAL = 20.0
GOAL = 6.0


def commands() -> dict[str, list[str]]:
    floor = f"import csv; list(csv.reader(open({SCENARIO!r}, encoding='utf-8', newline='')))"
    sg = str(BIN / "storygraph")
    return {
        "floor (python -c, csv module)": [sys.executable, "-c", floor],
        "storygraph lint (text)": [sg, "lint", SCENARIO, "--quiet"],
        "storygraph lint --format json": [sg, "lint", SCENARIO, "--quiet", "--format", "json"],
        "storygraph --help": [sg, "--help"],
        "storygraph --version": [sg, "--version"],
    }


#: as a user's machine runs them: compiled modules cached (a sandbox that sets
#: PYTHONDONTWRITEBYTECODE would otherwise compile every module of every run)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"} | {"NO_COLOR": "1"}


def once(cmd: list[str]) -> float:
    env = ENV
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=False)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--reps", type=int, default=30)
    args = ap.parse_args()
    cmds = commands()
    for cmd in cmds.values():  # warm the page cache and write the .pyc files
        once(cmd)
    times: dict[str, list[float]] = {name: [] for name in cmds}
    for _ in range(args.reps):
        for name, cmd in cmds.items():
            times[name].append(once(cmd))
    load = os.getloadavg()[0]
    print(f"{args.reps} repetitions each, interleaved; {os.cpu_count()} cores, load average {load:.2f}; Python {sys.version.split()[0]}")
    floor = statistics.median(times["floor (python -c, csv module)"])
    print(f"{'command':34} {'median':>9} {'× floor':>8}  goal")
    for name, ts in times.items():
        med = statistics.median(ts)
        ratio = med / floor
        goal = LINT_GOAL if "lint" in name else GOAL
        verdict = "" if name.startswith("floor") else (f"met (≤ {goal:g}×)" if ratio <= goal else f"NOT met (> {goal:g}×)")
        print(f"{name:34} {med * 1000:7.1f} ms {ratio:7.2f}×  {verdict}")


if __name__ == "__main__":
    main()
