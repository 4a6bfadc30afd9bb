"""The grading runner over the 200 hand-judged cells: the real command, agreement per
verdict, and the generator reproducing the committed files."""

from __future__ import annotations

import json
import subprocess
import sys

from .conftest import EXAMPLE

GOLD = EXAMPLE / "gold"


def test_two_hundred_cells_agree_per_verdict(cli):
    proc = cli("verdicts", "grade", "extraction", GOLD, GOLD / "gold.csv", "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["agreement"] == {"agreed": 200, "total": 200, "rate": 1.0}
    assert set(result["per_verdict"]) == {"필수 칸이 빔", "형식이 규칙과 다름", "근거 문구가 원문에 없음", "원문 값과 다름", "원문과 맞음"}
    assert result["disagreements"] == [] and result["issues"] == []


def test_a_wrong_gold_verdict_is_listed_as_a_disagreement(tmp_path, cli):
    rows = (GOLD / "gold.csv").read_text(encoding="utf-8").splitlines()
    key = rows[1].split(",")[0]
    rows[1] = f"{key},원문과 맞음,planted" if ",원문과 맞음," not in rows[1] else f"{key},원문 값과 다름,planted"
    gold = tmp_path / "gold.csv"
    gold.write_text("\n".join(rows) + "\n", encoding="utf-8")
    result = json.loads(cli("verdicts", "grade", "extraction", GOLD, gold, "--format", "json", check_code=1).stdout)
    assert [d["key"] for d in result["disagreements"]] == [key]


def test_the_generator_reproduces_the_committed_files(tmp_path):
    subprocess.run([sys.executable, str(GOLD / "make_gold.py"), str(tmp_path)], check=True)
    for name in ("worker_outputs.csv", "source_pages.csv", "field_rules.csv", "gold.csv"):
        assert (tmp_path / name).read_bytes() == (GOLD / name).read_bytes(), name
