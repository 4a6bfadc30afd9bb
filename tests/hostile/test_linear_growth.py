"""Issue 32, item 3: work and output that grow with the input, not with its square.

Each test builds a minimal hostile input on the spot and runs the real command in a
bounded subprocess (:func:`tests.hostile.inputs.run_bounded`)."""

from __future__ import annotations

from pathlib import Path

from storygraph.fixes import apply_edits
from tests.hostile import builders
from tests.hostile.inputs import assert_clean, run_bounded


def _json_size(folder: Path, n: int) -> int:
    folder.mkdir()
    path = builders.many_available_flags(folder, n)
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(outcome, 1)
    return len(outcome.stdout.encode("utf-8"))


def test_unused_flags_listed_by_a_scene_give_output_linear_in_the_flags(tmp_path: Path) -> None:
    """A scene listing n flags that no condition tests: every unused-flag fix used to
    write the scene's whole list less one flag (n fixes of n names: 2.6 GB of JSON from a
    747 KB file of 20,000 flags).  Four times the flags must give about four times the
    report, not sixteen."""
    small, large = _json_size(tmp_path / "a", 500), _json_size(tmp_path / "b", 2000)
    assert large < 5 * small, (small, large)


def test_the_unlist_edit_takes_one_flag_out_of_the_list() -> None:
    tables = {"scene_states": [{"scene_id": "S0", "available_flags": "f0|f1, f2"}]}
    edits = [{"action": "unlist", "table": "scene_states", "row": "S0", "column": "available_flags", "value": "f1"}]
    assert apply_edits(tables, edits)["scene_states"][0]["available_flags"] == "f0|f2"
