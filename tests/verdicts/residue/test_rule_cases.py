"""Rule cases as data (rule_cases.yaml): each case is one component file, judged for
real, compared field by field by the shared runner; every automatic check (the schema's
among them) must pass on it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from verdicts.residue import judge_components
from verdicts.testing import CaseFailure, check_case, load_cases

CASES_FILE = Path(__file__).parent / "rule_cases.yaml"
DEFAULTS = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["defaults"]
_NOT_COMPONENT = {"name", "expect", "sources"}


def write_component(folder: Path, case: dict) -> Path:
    data = {"component_id": "C", **DEFAULTS, **{k: v for k, v in case.items() if k not in _NOT_COMPONENT}}
    path = folder / "C.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("case", load_cases(CASES_FILE))
def test_rule_case(case, tmp_path):
    report = judge_components(write_component(tmp_path, case))
    check_case(report, {"cards": {"C": case["expect"]}, "issues": []})
    if "sources" in case:
        got = [a["source"] for a in report.cards[0].attributions]
        if got != case["sources"]:
            raise CaseFailure(f"sources {got} != {case['sources']}")
