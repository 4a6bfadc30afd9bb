"""The mail domain at scale: N actions over N received messages (``mail_generate.py``),
judged by ``verdicts run mail FOLDER --format json > /dev/null`` beside a floor that
only reads the three CSVs with the csv module and finds each action's answered message
(a dict of threads, one bisection per action).  Each is a subprocess run twice, once
timed (wall clock, and CPU seconds of the process and its workers, which a busy shared
machine disturbs less) and once for its peak memory (the summed PSS of the process and
its workers, as :func:`run.timed` measures it); the last column is the CPU time against
the previous size, so a doubling that stays near 2 is linear.

Measured on 2026-12-03 (shared machine, 2 cores, load average about 10, so the wall
clock is mostly waiting; the CPU seconds are the figure to compare)::

    | actions | messages | floor s (CPU) | floor MB | verdicts s (CPU) | verdicts MB | × floor (CPU) | CPU × previous size |
    |  25,000 |   25,000 | 1.90 (0.33)   |       18 |  63.61 (6.42)    |         234 |          19.7 | —    |
    |  50,000 |   50,000 | 4.59 (0.49)   |       22 | 107.17 (15.11)   |         422 |          30.9 | 2.35 |
    | 100,000 |  100,000 | 8.52 (0.91)   |       31 | 224.45 (27.48)   |         774 |          30.1 | 1.82 |

Two doublings multiply the CPU time by 4.28 (about 2.07 each: linear) and the peak
memory by 3.3.

Usage::

    .venv/bin/python benchmarks/mail_run.py                        # 25k, 50k, 100k actions
    .venv/bin/python benchmarks/mail_run.py --sizes 1000 2000      # quick
    .venv/bin/python benchmarks/mail_run.py --floor FOLDER         # the floor alone (used by the runs)
"""

from __future__ import annotations

import argparse
import bisect
import csv
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))


def floor(folder: Path) -> int:
    """Read the three tables and find each action's answered message; the count of
    actions that have one."""
    threads: dict[str, list[str]] = {}
    with open(folder / "mailbox_thread.csv", newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            threads.setdefault(row["thread_id"], []).append(row["received_at"])
    for moments in threads.values():
        moments.sort()
    with open(folder / "action_policy.csv", newline="", encoding="utf-8-sig") as f:
        policy = {row["action_kind"]: row for row in csv.DictReader(f)}
    found = 0
    with open(folder / "agent_action.csv", newline="", encoding="utf-8-sig") as f:
        for row in csv.DictReader(f):
            moments = threads.get(row["thread_id"], [])
            if bisect.bisect_right(moments, row["sent_at"]) and row["action_kind"] in policy:
                found += 1
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[25_000, 50_000, 100_000])
    parser.add_argument("--floor", type=Path, help="run the floor over FOLDER and print its count")
    parser.add_argument("--keep", type=Path, help="keep the generated folders here")
    args = parser.parse_args()
    if args.floor:
        print(floor(args.floor))
        return

    import mail_generate
    from run import timed

    def cpu(cmd: list[str]) -> float:
        """CPU seconds (user + system) of ``cmd`` and the workers it waited for."""
        with open(os.devnull, "wb") as null:
            proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.DEVNULL)
            _, _, usage = os.wait4(proc.pid, 0)
        return usage.ru_utime + usage.ru_stime

    python = sys.executable
    verdicts = shutil.which("verdicts", path=str(Path(python).parent)) or "verdicts"
    work = args.keep or Path(tempfile.mkdtemp(prefix="mail-bench-"))
    lines = ["| actions | messages | floor s (CPU) | floor MB | verdicts s (CPU) | verdicts MB | × floor (CPU) | CPU × previous size |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    previous = None
    try:
        for n in args.sizes:
            folder = work / f"mail-{n}"
            if not (folder / "agent_action.csv").exists():
                mail_generate.write(n, folder)
            floor_cmd = [python, str(Path(__file__).resolve()), "--floor", str(folder)]
            run_cmd = [verdicts, "run", "mail", str(folder), "--format", "json", "--quiet"]
            f_s, f_mb, f_code, f_err = timed(floor_cmd)
            v_s, v_mb, v_code, v_err = timed(run_cmd)
            if f_code != 0 or v_code not in (0, 1):
                raise SystemExit(f"run failed (floor {f_code}, verdicts {v_code}):\n{f_err}\n{v_err}")
            f_cpu, v_cpu = cpu(floor_cmd), cpu(run_cmd)
            growth = f"{v_cpu / previous:.2f}" if previous else "—"
            lines.append(f"| {n:,} | {n:,} | {f_s:.2f} ({f_cpu:.2f}) | {f_mb:.0f} | {v_s:.2f} ({v_cpu:.2f}) | {v_mb:.0f} | "
                         f"{v_cpu / f_cpu:.1f} | {growth} |")
            print(lines[-1], file=sys.stderr, flush=True)
            previous = v_cpu
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    print(f"mail: {platform.python_implementation()} {platform.python_version()}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.2f} at the end")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
