"""Generate a large random scenario as one union CSV (the form ``storygraph lint`` reads).

The shape follows issue 7's target 1: N scenes with about three branches each, 3–5 of 8
flags available per scene (half bool, half int with ranges up to 0..1,000,000),
conditions of 1–3 comparisons joined by ``and``/``or``, the last branch of each scene
unconditional.  Most branches go forward a little way (so most scenes are reached and
reach an ending); a few jump back, a few point at scenes that do not exist, and a small
share of scenes are islands or dead ends, so every verdict occurs.

Usage::

    python benchmarks/generate.py 100000 /tmp/s100k.csv [--seed 7]
    python benchmarks/generate.py --hard-scene /tmp/hard.csv   # issue 7 target 2
"""

from __future__ import annotations

import argparse
import csv
import random
import sys

COLUMNS = ["scene_id", "title", "is_entry", "is_ending", "available_flags", "branch_id", "from_scene", "to_scene",
           "condition_expr", "order_no", "flag", "label", "type", "min_value", "max_value", "values"]

#: eight flags: four bool, four int with ranges up to 0..1,000,000
FLAGS = [
    ("has_key", "bool", None, None), ("met_keeper", "bool", None, None), ("lamp_lit", "bool", None, None),
    ("storm", "bool", None, None), ("trust", "int", 0, 10), ("coins", "int", 0, 1000),
    ("distance", "int", 0, 100_000), ("score", "int", 0, 1_000_000),
]
KIND = {name: (kind, lo, hi) for name, kind, lo, hi in FLAGS}
OPS = ["==", "!=", "<", "<=", ">", ">="]


def comparison(rng: random.Random, flag: str) -> str:
    kind, lo, hi = KIND[flag]
    if kind == "bool":
        return rng.choice([flag, f"not {flag}", f"{flag} == true", f"{flag} == false"])
    value = rng.randint(lo, hi)
    return f"{flag} {rng.choice(OPS)} {value}"


def condition(rng: random.Random, available: list[str]) -> str:
    n = rng.randint(1, 3)
    parts = [comparison(rng, rng.choice(available)) for _ in range(n)]
    out = parts[0]
    for p in parts[1:]:
        out += f" {rng.choice(['and', 'or'])} {p}"
    return out


def scenario_rows(n: int, seed: int = 7):
    """Yield the union CSV rows of a scenario of ``n`` scenes (scenes, then branches, then flags)."""
    rng = random.Random(seed)
    width = len(str(n))
    sid = lambda i: f"S{i:0{width}d}"  # noqa: E731
    flag_names = [f[0] for f in FLAGS]
    endings = {i for i in range(n) if i > 0 and (i % 20 == 0 or i == n - 1)}
    available: list[list[str]] = []
    for i in range(n):
        avail = rng.sample(flag_names, rng.randint(3, 5))
        available.append(avail)
        yield [sid(i), f"장면 {i}", "Y" if i == 0 or i % 5000 == 1 else "N", "Y" if i in endings else "N",
               ",".join(avail), "", "", "", "", "", "", "", "", "", "", ""]
    b = 0
    for i in range(n):
        if i in endings:
            continue
        k = rng.choice((2, 3, 3, 3, 4))
        for order in range(1, k + 1):
            b += 1
            r = rng.random()
            if i % 101 == 50:
                to = sid(i)  # a dead end: its branches only loop back to it
            elif r < 0.005:
                to = f"X{i}"  # a scene that does not exist
            elif r < 0.05:
                to = sid(rng.randint(max(0, i - 50), i))  # a jump back
            else:
                to = sid(min(n - 1, i + rng.randint(1, 8)))
            cond = "" if order == k else condition(rng, available[i])
            yield ["", "", "", "", "", f"B{b:0{width + 1}d}", sid(i), to, cond, str(order), "", "", "", "", "", ""]
    for name, kind, lo, hi in FLAGS:
        yield ["", "", "", "", "", "", "", "", "", "", name, name, kind,
               "" if lo is None else str(lo), "" if hi is None else str(hi), ""]


def hard_scene_rows(seed: int = 11, flags: int = 40, branches: int = 60, widths=(1000, 100_000, 1_000_000)):
    """One scene with ``flags`` flags (half bool, half int over ranges ``0..w`` with ``w``
    from ``widths``) and ``branches`` ordered branches whose conditions mix 1–6
    comparisons (target 2)."""
    rng = random.Random(seed)
    bools = [f"b{i}" for i in range(flags // 2)]
    ints = [f"n{i}" for i in range(flags - flags // 2)]
    ranges = {f: (0, rng.choice(widths)) for f in ints}
    names = bools + ints

    def atom(pool=names) -> str:
        f = rng.choice(pool)
        if f in ranges:
            lo, hi = ranges[f]
            return f"{f} {rng.choice(OPS)} {rng.randint(lo, hi)}"
        return rng.choice([f, f"not {f}"])

    def cond(size: int) -> str:
        if size == 1:
            return atom(ints)  # a lone bool test would cover half of everything
        atoms = [atom() for _ in range(size)]
        # a few patterns: plain conjunction, disjunction, and mixed with parentheses
        shape = rng.random()
        if shape < 0.6:
            return " and ".join(atoms)
        if shape < 0.7:
            return " or ".join(atoms)
        half = max(1, size // 2)
        return f"({' or '.join(atoms[:half])}) and ({' or '.join(atoms[half:])})" if size > 1 else atoms[0]

    rows = [["H0", "어려운 갈림길", "Y", "N", ",".join(names)] + [""] * 11,
            ["H1", "끝", "N", "Y", ""] + [""] * 11]
    conds = [cond(rng.randint(1, 6)) for _ in range(branches - 1)]
    # plant coverings so that some questions answer "shadowed"
    for j in range(5, branches - 1, 7):
        a, c = rng.sample(range(j), 2)
        conds[j] = f"({conds[a]}) and ({conds[c]})"
    # near the end, two branches that only cover together (a pair is needed)
    f = rng.choice(ints)
    cut = rng.randint(*ranges[f])
    conds[-4], conds[-3] = f"{f} >= {cut} or {conds[-6]}", f"{f} < {cut} or {conds[-7]}"
    conds.append("")
    for j, c in enumerate(conds, start=1):
        rows.append(["", "", "", "", "", f"HB{j:02d}", "H0", "H1", c, str(j), "", "", "", "", "", ""])
    for f in names:
        lo, hi = ranges.get(f, (None, None))
        rows.append(["", "", "", "", "", "", "", "", "", "", f, f, "int" if f in ranges else "bool",
                     "" if lo is None else str(lo), "" if hi is None else str(hi), ""])
    return rows


def write(rows, path: str) -> None:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        w.writerows(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenes", nargs="?", type=int, help="number of scenes")
    p.add_argument("out", help="CSV file to write")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--hard-scene", action="store_true", help="write the one-scene shadowing benchmark instead")
    p.add_argument("--flags", type=int, default=40, help="(hard scene) number of flags, half bool, half int")
    p.add_argument("--branches", type=int, default=60, help="(hard scene) number of ordered branches")
    p.add_argument("--width", type=int, default=0, help="(hard scene) every int range is 0..WIDTH (default: 1,000 to 1,000,000)")
    args = p.parse_args(argv)
    if args.hard_scene:
        widths = (args.width,) if args.width else (1000, 100_000, 1_000_000)
        write(hard_scene_rows(11 if args.seed == 7 else args.seed, args.flags, args.branches, widths), args.out)
    elif args.scenes:
        write(scenario_rows(args.scenes, args.seed), args.out)
    else:
        p.error("give a number of scenes or --hard-scene")
    return 0


if __name__ == "__main__":
    sys.exit(main())
