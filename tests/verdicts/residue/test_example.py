"""The example set: every component is judged, the answers agree with gold.csv, every
automatic check passes, and the set covers all five answers."""

from __future__ import annotations

import csv
from pathlib import Path

from verdicts.residue import ANSWERS, judge_components

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "residue"


def test_every_component_is_judged_as_its_gold_answer():
    report = judge_components(EXAMPLES)
    gold = {row["component_id"]: row for row in csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8"))}
    files = sorted(EXAMPLES.glob("DO-*.yaml"))
    assert len(files) == len(gold) >= 30
    assert report.issues == []
    got = {c.component_id: c.answer for c in report.cards}
    assert got == {k: row["answer"] for k, row in gold.items()}
    assert {row["verdict"] for row in gold.values()} == set(ANSWERS.values())
    assert all(c.passed for c in report.checks), [c for c in report.checks if not c.passed]


def test_the_cli_runs_on_the_examples(cli):
    import json

    proc = cli("verdicts", "run", "residue", str(EXAMPLES), "--format", "json", check_code=1)
    data = json.loads(proc.stdout)
    assert len(data["cards"]) == len(list(EXAMPLES.glob("DO-*.yaml"))) and {c["answer"] for c in data["cards"]} == set(ANSWERS)
    complete = next(c for c in data["cards"] if c["component_id"] == "DO-0001")
    assert complete["evidence_text"] == "잔존 후보 없음 ⇒ complete" and complete["defect"] is False


def test_annotations_point_at_each_component_file(cli):
    proc = cli("verdicts", "run", "residue", str(EXAMPLES), "--format", "github", check_code=1)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("::warning")]
    gold = list(csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8")))
    assert len(lines) == sum(row["answer"] in ("template_left", "body_blank", "outside_left") for row in gold)
    for line in lines:
        key = line.split("· ", 1)[1].split(":", 1)[0]
        assert f"file={EXAMPLES / key}.yaml" in line or f"/{key}.yaml," in line
