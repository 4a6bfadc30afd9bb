"""Time reading a scenario and its automatic checks, stage by stage, in CPU time (best of
N runs; the garbage collector off, as in ``lint``).

Usage: ``python benchmarks/load_checks.py FILE.csv [N]`` — prints the reading stages
(``read_csv``, the union split, typing, the rest of ``load_scenario``) and each check's
time over the cards of the same file (made once, not timed).
"""

from __future__ import annotations

import gc
import sys
import time
from pathlib import Path

from storygraph.analysis import analyse
from storygraph.cards import build_cards
from storygraph.checks import CHECKS, CheckContext
from storygraph.loading import load_scenario, split_union
from storygraph.model import TABLE_SPECS
from verdicts.tables import read_csv, type_table


def _best(func, n: int) -> float:
    times, keep = [], []
    for _ in range(n):
        started = time.process_time()
        keep.append(func())  # kept, so that freeing one run's objects is not timed in the next
        times.append(time.process_time() - started)
    return min(times)


def main(path: Path, n: int = 5) -> None:
    gc.disable()
    read = _best(lambda: read_csv(path, "scenario", []), n)
    split = _best(lambda: split_union(read_csv(path, "scenario", [])), n) - read

    def typing() -> float:
        parts = split_union(read_csv(path, "scenario", []))
        started = time.process_time()
        for spec in TABLE_SPECS:
            if spec.name in parts:
                type_table(parts[spec.name], spec, [])
        return time.process_time() - started

    typed = min(typing() for _ in range(n))
    whole = _best(lambda: load_scenario(path), n)
    print(f"load {whole:.3f} s = read_csv {read:.3f} + split {split:.3f} + type {typed:.3f} + rest {whole - read - split - typed:.3f}")
    scenario = load_scenario(path)
    cards = [c.data if hasattr(c, "data") else c.to_json() for c in build_cards(analyse(scenario))[0]]
    best: dict[str, float] = {}
    for _ in range(n):
        ctx = CheckContext(scenario, cards)
        for check in CHECKS:
            started = time.process_time()
            check.run(ctx)
            best[check.id] = min(best.get(check.id, float("inf")), time.process_time() - started)
    print(f"checks {sum(best.values()):.3f} s over {len(cards):,} cards: " + " ".join(f"{k} {v:.3f}" for k, v in best.items()))
    print("(C01 includes the sweep over the cards that C02, C08, C09 and C10 read; C06 parses nothing, the analysis did)")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 5)
