"""Rule cases as data (rule_cases.yaml): each case is a one-task round written as CSVs,
judged for real, compared field by field by the shared runner, and every automatic check
(the schema's among them) must pass on it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from verdicts.robot import judge_round
from verdicts.testing import check_case, load_cases

CASES_FILE = Path(__file__).parent / "rule_cases.yaml"
DEFAULTS = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["defaults"]


def write_round(folder: Path, case: dict, defaults: dict) -> None:
    task = {"task_id": "T", **defaults["task"], **(case.get("task") or {})}
    with open(folder / "task_spec.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(task))
        w.writeheader()
        w.writerow(task)
    columns = ["task_id", "required_skill", "episode_count", "capture_site", "robot_hand_type"]
    with open(folder / "dataset_index.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, columns)
        w.writeheader()
        if "dataset" not in case or case["dataset"] is not None:
            w.writerow({"task_id": "T", **defaults["dataset"], **(case.get("dataset") or {})})
    with open(folder / "evaluation_run.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "model_artifact", "episode_id", "success", "failure_reason", "cycle_sec"])
        # a run of another task keeps the round's artifact defined when T has none
        w.writerow(["OTHER", "policy-1", "o-1", "true", "", "1"])
        for i, text in enumerate(case["runs"], start=1):
            parts = str(text).split()
            success = {"ok": "true", "fail": "false", "blank": ""}[parts[0]]
            cycle = "" if parts[1] == "-" else parts[1]
            reason = parts[2] if len(parts) > 2 else ""
            w.writerow(["T", "policy-1", f"T-{i}", success, reason, cycle])
    # OTHER is a task too, so that its run is not an input issue
    with open(folder / "task_spec.csv", "a", newline="", encoding="utf-8") as f:
        csv.writer(f).writerow(["OTHER", "pick", "0.5", "0.5", "10", "0"])


@pytest.mark.parametrize("case", load_cases(CASES_FILE))
def test_rule_case(case, tmp_path):
    write_round(tmp_path, case, DEFAULTS)
    expect = {"cards": {"T": case["expect"]}, "hedge_mentions": {"T": case.get("hedge_mentions", [])}, "issues": []}
    if case.get("withheld"):
        expect["withheld"] = {"T": case["withheld"]}
    check_case(judge_round(tmp_path), expect)
