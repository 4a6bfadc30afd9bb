"""The floor: the least any linter must do — read the union CSV with the csv module and
run the two breadth-first passes (forward from the entries, backward from the endings).

Usage: ``python benchmarks/floor.py FILE.csv`` (prints the two counts).
"""

from __future__ import annotations

import csv
import sys
from collections import deque


def floor(path: str) -> tuple[int, int]:
    forward: dict[str, list[str]] = {}
    backward: dict[str, list[str]] = {}
    entries: list[str] = []
    endings: list[str] = []
    edges: list[tuple[str, str]] = []
    with open(path, newline="", encoding="utf-8-sig") as fh:
        for row in csv.DictReader(fh):
            if row["branch_id"]:
                edges.append((row["from_scene"], row["to_scene"]))
            elif row["scene_id"]:
                s = row["scene_id"]
                forward[s] = []
                backward[s] = []
                if row["is_entry"].strip().upper() in ("Y", "TRUE", "1", "YES"):
                    entries.append(s)
                if row["is_ending"].strip().upper() in ("Y", "TRUE", "1", "YES"):
                    endings.append(s)
    for a, b in edges:
        if a in forward and b in forward:
            forward[a].append(b)
            backward[b].append(a)
    return len(_bfs(entries, forward)), len(_bfs(endings, backward))


def _bfs(start: list[str], adj: dict[str, list[str]]) -> set[str]:
    seen = set(start)
    queue = deque(start)
    while queue:
        for nxt in adj[queue.popleft()]:
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


if __name__ == "__main__":
    reached, to_ending = floor(sys.argv[1])
    print(reached, to_ending)
