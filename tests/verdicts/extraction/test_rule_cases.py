"""Rule cases as data (rule_cases.yaml): each case is a one-cell run written as a JSON
document, judged for real and compared field by field by the shared runner; every
automatic check (the schema's among them) must pass on it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from verdicts.extraction import judge_batch
from verdicts.testing import check_case, load_cases

CASES_FILE = Path(__file__).parent / "rule_cases.yaml"
DEFAULTS = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["defaults"]


def write_run(folder: Path, case: dict) -> Path:
    rule = {**DEFAULTS["rule"], **(case.get("rule") or {})}
    pages = case.get("pages") or DEFAULTS["pages"]
    doc = {
        "field_rules": [rule],
        "source_pages": [{"run_id": "R", "page": str(n), "doc_name": name, "text": text}
                         for n, (name, text) in pages.items()],
        "worker_outputs": [],
    }
    if case.get("output") is not None:
        doc["worker_outputs"].append({"run_id": "R", "field_name": "f", **case["output"]})
    path = folder / "run.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", load_cases(CASES_FILE))
def test_rule_case(case, tmp_path):
    report = judge_batch(write_run(tmp_path, case))
    if case.get("no_card"):
        assert report.cards == []
        assert all(c.passed for c in report.checks)
        return
    expect = {"cards": {"R:f": case["expect"]}, "hedge_mentions": {"R:f": case.get("hedge_mentions", [])}}
    if case.get("withheld"):
        expect["withheld"] = {"R:f": case["withheld"]}
    if case.get("issues"):
        expect["issues"] = case["issues"]
    check_case(report, expect)
    card = report.cards[0]
    if case.get("hedge_mentions"):
        assert card.hedge
