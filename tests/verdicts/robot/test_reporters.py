"""Robot gets every report format from the core, with no robot code for them: SARIF
2.1.0 that validates and points at each task's row, GitHub annotations, and explain."""

from __future__ import annotations

import json

import jsonschema

from tests.conftest import ROOT

SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def test_sarif_validates_and_points_at_the_task_rows(cli):
    proc = cli("verdicts", "run", "robot", "examples/robot", "--format", "sarif", check_code=1)
    log = json.loads(proc.stdout)
    jsonschema.validate(log, SARIF_SCHEMA)
    run = log["runs"][0]
    assert run["tool"]["driver"]["name"] == "robot"
    rule_ids = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {"skill-mismatch", "not-evaluated", "below-target", "failures-concentrated", "cycle-over"} <= rule_ids
    assert "deploy" not in rule_ids  # a passing verdict is no finding
    results = run["results"]
    assert results and all(r["ruleId"] in rule_ids for r in results)
    lines = {}
    for row_no, line in enumerate((ROOT / "examples/robot/task_spec.csv").read_text(encoding="utf-8").splitlines(), start=1):
        lines[line.split(",")[0]] = row_no
    for r in results:
        loc = r["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"] == "examples/robot/task_spec.csv"
        assert loc["region"]["startLine"] == lines[r["properties"]["task_id"]]
    causes = {r["properties"].get("blocked_cause") for r in results if r["ruleId"] in ("skill-mismatch", "not-evaluated")}
    assert causes == {"능력 불일치", "평가 미실시"}


def test_github_annotations_one_per_result(cli):
    sarif = json.loads(cli("verdicts", "run", "robot", "examples/robot", "--format", "sarif").stdout)
    lines = cli("verdicts", "run", "robot", "examples/robot", "--format", "github", check_code=1).stdout.splitlines()
    assert len(lines) == len(sarif["runs"][0]["results"])
    assert all(line.startswith("::warning file=examples/robot/task_spec.csv,line=") and ",title=robot " in line for line in lines)
