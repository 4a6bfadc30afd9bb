"""Rule cases as data: each YAML case under cases/ is a scenario and what it must give.

The scenario is written as a JSON document (one record per line, so that issue lines are
known) and linted through the public API, exactly as the CLI does.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from storygraph import lint

CASES_DIR = Path(__file__).parent / "cases"


def _cases() -> list:
    return list(_iter_cases())


def _iter_cases():
    for file in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(file.read_text(encoding="utf-8")):
            yield pytest.param(case, id=f"{file.stem}: {case['name']}")


def write_scenario(tables: dict, path: Path) -> dict[str, int]:
    """Write the tables as JSON, one record per line; return each id's line."""
    lines = ["{"]
    where: dict[str, int] = {}
    names = [n for n in ("scene_states", "story_branches", "flag_spec") if n in tables]
    for t_index, name in enumerate(names):
        lines.append(f'"{name}": [')
        records = tables[name] or []
        for r_index, record in enumerate(records):
            key = record.get("scene_id") or record.get("branch_id") or record.get("flag")
            where[str(key)] = len(lines) + 1
            lines.append(json.dumps(record, ensure_ascii=False) + ("," if r_index < len(records) - 1 else ""))
        lines.append("]" + ("," if t_index < len(names) - 1 else ""))
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return where


@pytest.mark.parametrize("case", _cases())
def test_rule_case(case, tmp_path):
    if "scenario_csv" in case:  # a case that needs the CSV form (a missing column)
        path = tmp_path / "scenario.csv"
        path.write_text(case["scenario_csv"], encoding="utf-8")
        where = {}
    else:
        path = tmp_path / "scenario.json"
        where = write_scenario(case["scenario"], path)
    report = lint(path)
    cards = {c.target_no: c for c in report.cards}
    expect = case["expect"]
    for target, verdict in expect.get("verdicts", {}).items():
        assert target in cards, f"no card for {target}"
        assert cards[target].verdict == verdict, (target, cards[target].summary, cards[target].hedge)
    for field in ("overlapping", "reached_from_entry", "reaches_ending"):
        attr = "overlapping_branch_id" if field == "overlapping" else field
        for target, value in expect.get(field, {}).items():
            assert getattr(cards[target], attr) == value, (target, field)
    for target, text in expect.get("hedge_contains", {}).items():
        assert cards[target].hedge and text in cards[target].hedge, (target, cards[target].hedge)
    for target, values in expect.get("evidence_values", {}).items():
        cited = [e.value for e in cards[target].evidence]
        for value in values:
            assert value in cited or (value == "" and None in cited), (target, value, cited)
    for wanted in expect.get("issues", []):
        matches = [
            i for i in report.issues
            if all(getattr(i, k) == v for k, v in wanted.items() if k != "row")
            and ("row" not in wanted or i.line == where[wanted["row"]])
        ]
        assert matches, (wanted, [i.model_dump() for i in report.issues])
    if "issues" not in expect:
        assert not report.issues, [i.model_dump() for i in report.issues]
    for wanted in expect.get("findings", []):
        assert any(_finding_matches(f, wanted) for f in report.findings), (wanted, [f.model_dump() for f in report.findings])
    for unwanted in expect.get("no_findings", []):  # a code, or {code, target, …}
        unwanted = {"code": unwanted} if isinstance(unwanted, str) else unwanted
        assert not [f for f in report.findings if _finding_matches(f, unwanted)], unwanted
    # whatever the case, every card is schema-valid and every check passes
    assert all(c.passed for c in report.checks), [c for c in report.checks if not c.passed]


def _finding_matches(finding, wanted: dict) -> bool:
    for key, value in wanted.items():
        if key == "data":
            if not finding.data or any(finding.data.get(k) != v for k, v in value.items()):
                return False
        elif getattr(finding, key) != value:
            return False
    return True
