"""Run the benchmarks of issue 7 and print one table.

Whole lint: for each size, a generated scenario (``generate.py``) is read by the floor
(``floor.py``: csv module + the two breadth-first passes) and linted by
``storygraph lint FILE --format json > /dev/null``; both run as subprocesses in the same
run, each twice: once timed by wall clock, once for its peak memory (the summed PSS of
the process and its workers, see :func:`timed`); the floor's time is the median of
:data:`FLOOR_RUNS` runs (:func:`floor_timed`).

Shadowing: every shadowing question of a scene answered by storygraph, by z3 and by the
reference brute-force enumeration (where the product of ranges is small enough to
finish), each in its own subprocess, with peak RSS.

Usage::

    .venv/bin/python benchmarks/run.py                       # 50k, 100k, 200k scenes
    .venv/bin/python benchmarks/run.py --sizes 1000 5000     # quick
    .venv/bin/python benchmarks/run.py --skip-lint           # shadowing only
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import generate  # noqa: E402


def _tree_rss_kb(root: int) -> int:
    """Memory of ``root`` and every descendant process, summed (kB): each process's
    proportional set size (``Pss`` of /proc/PID/smaps_rollup), which charges a page a
    forked child still shares with its parent half to each, so the sum is the memory
    the run really holds (``VmRSS`` when smaps_rollup is not there)."""
    total, stack = 0, [root]
    while stack:
        pid = stack.pop()
        try:
            try:
                with open(f"/proc/{pid}/smaps_rollup") as f:
                    total += next((int(line.split()[1]) for line in f if line.startswith("Pss:")), 0)
            except FileNotFoundError:
                with open(f"/proc/{pid}/status") as f:
                    total += next((int(line.split()[1]) for line in f if line.startswith("VmRSS:")), 0)
            with open(f"/proc/{pid}/task/{pid}/children") as f:
                stack.extend(int(c) for c in f.read().split())
        except (OSError, ValueError):
            continue
    return total


def timed(cmd: list[str]) -> tuple[float, float, int, str]:
    """Run ``cmd`` twice with stdout to /dev/null: once for the time, once for the
    memory; (seconds, peak memory in MB, exit code, stderr of the timed run).

    The timed run is left alone (sampling /proc costs CPU the run would otherwise
    have: about four seconds on a 100k-scene lint).  The memory run samples the summed
    proportional set size of the process and its workers every 50 ms (see
    :func:`_tree_rss_kb`); the peak reported is the larger of that and ``os.wait4``'s
    single-process peak, so a lint that splits its work over the cores is charged for
    all its processes together."""
    started = time.perf_counter()
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err_file:
        proc = subprocess.Popen(cmd, stdout=null, stderr=err_file)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        err_file.seek(0)
        err = err_file.read().decode("utf-8", "replace")
    peak_kb = usage.ru_maxrss
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.DEVNULL)
        while True:
            pid, _, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            peak_kb = max(peak_kb, _tree_rss_kb(proc.pid))
            time.sleep(0.05)
    peak_kb = max(peak_kb, usage.ru_maxrss)
    return seconds, peak_kb / 1024, os.waitstatus_to_exitcode(status), err


#: times the floor runs; its median is the one compared with (a two-second run moves by
#: half its time when the machine is briefly busy, the lint's half-minute far less)
FLOOR_RUNS = 5


def floor_timed(cmd: list[str]) -> tuple[float, float, int, str]:
    """:func:`timed` for the floor, its time the median of :data:`FLOOR_RUNS` runs."""
    seconds, mb, code, err = timed(cmd)
    times = [seconds]
    for _ in range(FLOOR_RUNS - 1):
        started = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - started)
    return sorted(times)[len(times) // 2], mb, code, err


def captured(cmd: list[str]) -> tuple[float, float, str]:
    """Run ``cmd`` capturing stdout; (seconds, peak RSS in MB, stdout)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = proc.stdout.read().decode()
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - started, usage.ru_maxrss / 1024, out


def lint_rows(sizes: list[int], work: Path, python: str, storygraph: str, text: bool = False) -> list[str]:
    """The whole-lint table; with ``text`` two more columns for the default text report
    (the same lint written as text instead of JSON)."""
    head = "| scenes | branches | floor s | floor MB | storygraph s | storygraph MB | × floor | × previous size |"
    rule = "|---:|---:|---:|---:|---:|---:|---:|---:|"
    if text:
        head += " text s | text MB |"
        rule += "---:|---:|"
    lines = [head, rule]
    previous = None
    for n in sizes:
        path = work / f"scenario-{n}.csv"
        if not path.exists():
            generate.write(generate.scenario_rows(n), str(path))
        branches = sum(1 for r in generate.scenario_rows(n) if r[5])
        f_s, f_mb, f_code, f_err = floor_timed([python, str(HERE / "floor.py"), str(path)])
        s_s, s_mb, s_code, s_err = timed([storygraph, "lint", str(path), "--format", "json", "--quiet"])
        if f_code != 0 or s_code not in (0, 1):
            raise SystemExit(f"run failed (floor {f_code}, storygraph {s_code}):\n{f_err}\n{s_err}")
        growth = f"{s_s / previous:.2f}" if previous else "—"
        line = f"| {n:,} | {branches:,} | {f_s:.2f} | {f_mb:.0f} | {s_s:.2f} | {s_mb:.0f} | {s_s / f_s:.1f} | {growth} |"
        if text:
            t_s, t_mb, t_code, t_err = timed([storygraph, "lint", str(path), "--format", "text", "--quiet"])
            if t_code not in (0, 1):
                raise SystemExit(f"text run failed ({t_code}):\n{t_err}")
            line += f" {t_s:.2f} | {t_mb:.0f} |"
        lines.append(line)
        previous = s_s
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


SHADOW_CASES = [
    # (label, flags, branches, int width or 0 for the wide mix)
    ("6 flags (3 int 0..10), 12 branches", 6, 12, 10),
    ("8 flags (4 int 0..10), 20 branches", 8, 20, 10),
    ("12 flags (6 int 0..1,000), 100 branches", 12, 100, 1000),
    ("40 flags (20 int up to 0..1,000,000), 60 branches", 40, 60, 0),
]


def shadow_rows(work: Path, python: str, brute_limit: int) -> list[str]:
    import json

    lines = ["| scene | questions | shadowed | storygraph s | MB | z3 s | MB | z3 ÷ storygraph | brute force s | MB | brute ÷ storygraph |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for label, flags, branches, width in SHADOW_CASES:
        path = work / f"shadow-{flags}-{branches}-{width}.csv"
        widths = (width,) if width else (1000, 100_000, 1_000_000)
        generate.write(generate.hard_scene_rows(11, flags, branches, widths), str(path))
        results = {}
        for method in ("storygraph", "z3", "brute"):
            _, mb, out = captured([python, str(HERE / "shadowing.py"), method, str(path)])
            data = json.loads(out.strip().splitlines()[-1]) if out.strip() else {"seconds": None}
            results[method] = (data, mb)
        sg, z3, bf = results["storygraph"], results["z3"], results["brute"]
        if z3[0].get("shadowed") is not None and z3[0]["shadowed"] != sg[0]["shadowed"]:
            raise SystemExit(f"{label}: z3 found {z3[0]['shadowed']} shadowed, storygraph {sg[0]['shadowed']}")
        if bf[0].get("shadowed") is not None and bf[0]["shadowed"] != sg[0]["shadowed"]:
            raise SystemExit(f"{label}: brute force found {bf[0]['shadowed']} shadowed, storygraph {sg[0]['shadowed']}")

        def cell(r):
            return ("—", "—", "—") if r[0].get("seconds") is None else (f"{r[0]['seconds']:.3f}", f"{r[1]:.0f}", f"{r[0]['seconds'] / max(sg[0]['seconds'], 1e-9):.1f}")

        z, b = cell(z3), cell(bf)
        if bf[0].get("refused"):
            b = (f"— ({bf[0]['points']:.1e} points)", "—", "—")
        lines.append(f"| {label} | {sg[0]['questions']} | {sg[0]['shadowed']} | {sg[0]['seconds']:.3f} | {sg[1]:.0f} | {z[0]} | {z[1]} | {z[2]} | {b[0]} | {b[1]} | {b[2]} |")
        print(lines[-1], file=sys.stderr, flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description="storygraph benchmarks (issue 7)")
    p.add_argument("--sizes", type=int, nargs="*", default=[50_000, 100_000, 200_000])
    p.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "storygraph-bench")
    p.add_argument("--skip-lint", action="store_true")
    p.add_argument("--skip-shadowing", action="store_true")
    p.add_argument("--text", action="store_true", help="also time the default text report at each size")
    p.add_argument("--brute-limit", type=int, default=5_000_000)
    args = p.parse_args(argv)
    args.work.mkdir(parents=True, exist_ok=True)
    python = sys.executable
    storygraph = str(Path(python).parent / "storygraph")
    print(f"machine: {platform.platform()}, {os.cpu_count()} cores, Python {platform.python_version()}; "
          f"load average {os.getloadavg()[0]:.2f} at start")
    if not args.skip_lint:
        print()
        print("\n".join(lint_rows(args.sizes, args.work, python, storygraph, args.text)))
    if not args.skip_shadowing:
        print()
        print("\n".join(shadow_rows(args.work, python, args.brute_limit)))
    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    sys.exit(main())
