"""Run the hostile-input sweep (tests/hostile/sweep.py) and print one line per run, the
runs with problems, and how long it took.

Usage: .venv/bin/python scripts/hostile_sweep.py [--quick] [--no-server] [--jobs N] [NAME ...]
(NAME: hostile files of tests/hostile/builders.py; --quick leaves out the slow ones;
--jobs N sweeps N files at once, default 1).
Exit 0 when no run has a problem.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    from tests.hostile.sweep import sweep

    args = sys.argv[1:]
    jobs = 1
    if "--jobs" in args:
        at = args.index("--jobs")
        jobs = int(args[at + 1])
        del args[at:at + 2]
    names = [a for a in args if not a.startswith("--")] or None
    started = time.monotonic()

    def show(run) -> None:
        print(f"{run.file:16} {run.entry:27} {str(run.code):8} {run.peak / 2 ** 20:6.0f} MB {run.seconds:7.1f} s  "
              + "; ".join(run.problems)[:300], flush=True)

    with tempfile.TemporaryDirectory(prefix="hostile-sweep-") as tmp:
        runs = sweep(Path(tmp), names=names, server="--no-server" not in args, slow="--quick" not in args, on_run=show,
                     jobs=jobs)
    bad = [r for r in runs if r.problems]
    peak = max((r.peak for r in runs), default=0)
    print(f"\n{len(runs)} runs of {len({r.file for r in runs})} files in {time.monotonic() - started:,.0f} s; "
          f"highest peak RSS {peak / 2 ** 20:,.0f} MB; {len(bad)} with problems")
    for r in bad:
        print(f"  {r.file} / {r.entry}: {'; '.join(r.problems)}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
