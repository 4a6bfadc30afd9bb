"""Nothing is quadratic and nothing recurses: a scene with 2,000 branches and a chain of
200,000 scenes go through the real pipeline in seconds; the progress line appears only
on a terminal and ``--quiet`` silences it."""

from __future__ import annotations

import csv
import json
import os
import pty
import subprocess
import time
from pathlib import Path

from storygraph.analysis import analyse
from storygraph.cards import build_cards
from storygraph.loading import load_scenario
from tests.conftest import BIN

COLUMNS = ["scene_id", "title", "is_entry", "is_ending", "available_flags", "branch_id", "from_scene", "to_scene",
           "condition_expr", "order_no", "flag", "label", "type", "min_value", "max_value", "values"]


def _row(**cells) -> list[str]:
    return [str(cells.get(c, "")) for c in COLUMNS]


def _write(path: Path, rows) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(COLUMNS)
        w.writerows(rows)
    return path


def _wide_scene(path: Path, n: int = 2000) -> Path:
    rows = [_row(scene_id="W0", title="갈림길", is_entry="Y", is_ending="N", available_flags="x,k"),
            _row(scene_id="W1", title="끝", is_entry="N", is_ending="Y")]
    for i in range(n):
        cond = f"x == {i}" if i % 3 else f"x >= {i} and x < {i + 2} and k"
        rows.append(_row(branch_id=f"WB{i}", from_scene="W0", to_scene="W1", condition_expr=cond if i < n - 1 else "", order_no=i + 1))
    rows.append(_row(flag="x", label="x", type="int", min_value=0, max_value=100_000))
    rows.append(_row(flag="k", label="k", type="bool"))
    return _write(path, rows)


def test_scene_with_2000_branches(tmp_path, cli):
    path = _wide_scene(tmp_path / "wide.csv")
    started = time.perf_counter()
    proc = cli("storygraph", "lint", path, "--format", "json", check_code=1)
    elapsed = time.perf_counter() - started
    data = json.loads(proc.stdout)
    cards = {c["target_no"]: c for c in data["cards"]}
    assert len(cards) == 2 + 2000
    # branch WB3 (x == 3) is covered by WB3's predecessors? no: x == 3 first appears there;
    # but x >= 3 and x < 5 and k (WB3 is i=3: i % 3 == 0) … so check against a direct rule:
    # every "x == i" with i % 3 == 1 follows "x >= i-1 and x < i+1 and k" and is not covered (k may be false)
    assert all(c["verdict"] != "조건이 겹침" for c in cards.values())
    assert all(ch["passed"] for ch in data["checks"])
    assert elapsed < 60


def test_chain_of_200000_scenes(tmp_path):
    n = 200_000
    rows = [_row(scene_id=f"C{i}", title=f"장면 {i}", is_entry="Y" if i == 0 else "N", is_ending="N") for i in range(n)]
    rows += [_row(branch_id=f"E{i}", from_scene=f"C{i}", to_scene=f"C{i + 1}", order_no=1) for i in range(n - 1)]
    path = _write(tmp_path / "chain.csv", rows)
    started = time.perf_counter()
    scenario = load_scenario(path)
    analysis = analyse(scenario)
    assert len(analysis.reached) == n and not analysis.reaches_ending
    cards, _, _ = build_cards(analysis)
    elapsed = time.perf_counter() - started
    first = next(c for c in cards if c.target_no == "C0")
    assert first.verdict == "끝에 못 감"
    # the first scene has every other scene onward of it: counted without one search per scene
    assert f"{n - 1:,}" in first.summary or str(n - 1) in first.summary
    assert elapsed < 60


def _lint_on_terminal(path: Path, *extra: str) -> tuple[int, str]:
    """Run the real command with stderr on a pseudo-terminal; return its exit code and
    what it wrote there."""
    master, slave = pty.openpty()
    # the line waits a second before it shows; a fast machine lints this file sooner
    env = {**os.environ, "VERDICTS_PROGRESS_DELAY": "0"}
    proc = subprocess.Popen([str(BIN / "storygraph"), "lint", str(path), "--format", "json", *extra],
                            stdout=subprocess.DEVNULL, stderr=slave, stdin=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    code = proc.wait()
    os.close(master)
    return code, b"".join(chunks).decode("utf-8", "replace")


def _big(tmp_path: Path) -> Path:
    n = 15_000
    rows = [_row(scene_id=f"S{i}", title=f"장면 {i}", is_entry="Y" if i == 0 else "N", is_ending="Y" if i == n - 1 else "N") for i in range(n)]
    rows += [_row(branch_id=f"B{i}", from_scene=f"S{i}", to_scene=f"S{i + 1}", order_no=1) for i in range(n - 1)]
    return _write(tmp_path / "big.csv", rows)


def test_progress_line_on_a_terminal_only(tmp_path, cli):
    path = _big(tmp_path)
    code, err = _lint_on_terminal(path)
    assert code == 0
    assert "장면 15,000/15,000" in err and "분기" in err
    # not a terminal: nothing on stderr
    proc = cli("storygraph", "lint", path, "--format", "json", check_code=0)
    assert proc.stderr == ""
    # --quiet: nothing even on a terminal
    code, err = _lint_on_terminal(path, "--quiet")
    assert code == 0 and err == ""
