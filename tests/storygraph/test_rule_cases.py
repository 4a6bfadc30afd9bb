"""Rule cases as data: each YAML case under cases/ is a scenario and what it must give.

The scenario is written as a JSON document (one record per line, so that issue lines are
known) and linted through the public API, exactly as the CLI does; the shared runner
(:func:`verdicts.testing.check_case`) compares the report with the case.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storygraph import lint
from verdicts.testing import check_case, load_cases

CASES_DIR = Path(__file__).parent / "cases"


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


@pytest.mark.parametrize("case", load_cases(CASES_DIR))
def test_rule_case(case, tmp_path):
    if "scenario_csv" in case:  # a case that needs the CSV form (a missing column)
        path = tmp_path / "scenario.csv"
        path.write_text(case["scenario_csv"], encoding="utf-8")
        where = {}
    else:
        path = tmp_path / "scenario.json"
        where = write_scenario(case["scenario"], path)
    check_case(lint(path), case["expect"], lines=where)
