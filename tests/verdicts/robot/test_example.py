"""The bundled example round (examples/robot), through the real ``verdicts`` command."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import yaml

from tests.conftest import EXAMPLES
from verdicts.robot import judge_round
from verdicts.schema import card_errors

ROUND = EXAMPLES / "robot"
GOLD = ROUND / "gold.csv"
COMBOS = {("배포 후보", None), ("성공률 미달", None), ("실패 유형 쏠림", None), ("작업 주기 초과", None),
          ("학습에 없는 조건", "능력 불일치"), ("학습에 없는 조건", "평가 미실시")}


def test_all_six_combinations_with_every_check_passing(cli):
    proc = cli("verdicts", "run", "robot", ROUND, "--format", "json", check_code=1)
    data = json.loads(proc.stdout)
    assert list(data)[:3] == ["cards", "issues", "checks"]
    assert len(data["cards"]) == 30 and data["issues"] == []
    assert {(c["verdict"], c["blocked_cause"]) for c in data["cards"]} == COMBOS
    assert [c["id"] for c in data["checks"]] == [f"C{i:02d}" for i in range(1, 15)] + ["SCHEMA"]
    assert all(c["passed"] for c in data["checks"])
    assert all(card_errors("robot", c) == [] for c in data["cards"])
    assert all({"source", "field", "value"} <= set(e) for c in data["cards"] for e in c["evidence"])


def test_text_groups_in_order_and_splits_the_not_in_training_group(cli):
    out = cli("verdicts", "run", "robot", ROUND, check_code=1).stdout
    heads = ["■ 학습에 없는 조건 (6)", "▸ 능력 불일치 (3)", "▸ 평가 미실시 (3)", "■ 성공률 미달 (6)", "■ 실패 유형 쏠림 (5)",
             "■ 작업 주기 초과 (5)", "■ 자동 검증 (15/15 통과)", "■ 배포 후보 (8)", "요약: 문제 22건"]  # problems first
    positions = [out.index(h) for h in heads[:-1]] + [out.rindex(heads[-1])]  # the summary first and last
    assert positions == sorted(positions) and out.startswith("요약: 문제 22건")
    mismatch = out[out.index("▸ 능력 불일치"):out.index("▸ 평가 미실시")]
    assert "cable-route-C01-tangle" in mismatch and "screw-M3-B02-5f" not in mismatch


def test_gold_agrees_and_a_changed_gold_shows_disagreements_grouped_by_kind(cli, tmp_path):
    proc = cli("verdicts", "grade", "robot", ROUND, GOLD, "--format", "json", check_code=0)
    data = json.loads(proc.stdout)
    assert data["agreement"] == {"agreed": 30, "total": 30, "rate": 1.0}
    assert data["provenance"]["domain"] == "robot" and len(data["provenance"]["gold"]["sha256"]) == 64
    rows = list(csv.DictReader(GOLD.open(encoding="utf-8")))
    for row in rows:
        if row["task_id"] in ("insert-peg-B01", "pour-cup-D02"):
            row["verdict"] = "배포 후보"  # a researcher who would ship both
        if row["task_id"] == "screw-M3-B02-5f":
            row["blocked_cause"] = "능력 불일치"
    changed = tmp_path / "gold.csv"
    with changed.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    out = cli("verdicts", "grade", "robot", ROUND, changed, check_code=1).stdout
    assert "판정 일치: 27/30" in out
    block = out[out.index("어긋난 자리 (3)"):]
    assert "[배포 후보 → 성공률 미달] (2)" in block
    assert "[학습에 없는 조건: blocked_cause 다름] (1)" in block
    assert block.index("insert-peg-B01") < block.index("pour-cup-D02") < block.index("[학습에 없는 조건")


def _tables() -> dict[str, list[dict[str, str]]]:
    return {name: list(csv.DictReader((ROUND / f"{name}.csv").open(encoding="utf-8")))
            for name in ("evaluation_run", "task_spec", "dataset_index")}


def test_xlsx_json_and_yaml_forms_give_the_same_cards(tmp_path):
    expected = [c.to_json() for c in judge_round(ROUND).cards]
    tables = _tables()
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in tables.items():
        sheet = book.create_sheet(name)
        sheet.append(list(rows[0]))
        for row in rows:
            sheet.append([_typed(v) for v in row.values()])
    book.save(tmp_path / "round.xlsx")
    (tmp_path / "round.json").write_text(json.dumps(tables, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "round.yaml").write_text(yaml.safe_dump(tables, allow_unicode=True), encoding="utf-8")
    for form in ("round.xlsx", "round.json", "round.yaml"):
        report = judge_round(tmp_path / form)
        assert report.issues == [], (form, report.issues)
        got = [c.to_json() for c in report.cards]
        strip = lambda cards: [{**c, "evidence": [{k: v for k, v in e.items() if k != "line"} for e in c["evidence"]]} for c in cards]  # noqa: E731
        assert strip(got) == strip(expected), form
        assert all(r.passed for r in report.checks), form


def _typed(text: str):
    """Cells as a spreadsheet would hold them: numbers as numbers, empty as empty."""
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        try:
            return float(text)
        except ValueError:
            return text
