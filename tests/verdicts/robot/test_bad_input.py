"""Bad input never crashes and never hides the rest: each problem is an issue with its
file, table, line, column and reason, and every task that does not depend on it is
judged as before.  Every variant is the example round with one defect planted."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from verdicts.robot import judge_round

ROUND = EXAMPLES / "robot"
BASE = {c.task_id: c.to_json() for c in judge_round(ROUND).cards}


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "round"
    folder.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        shutil.copy(ROUND / f"{name}.csv", folder / f"{name}.csv")
    return folder


def _rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as f:
        reader = csv.DictReader(f)
        return list(reader.fieldnames), list(reader)


def _write(path: Path, header: list[str], rows: list[dict[str, str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as f:
        w = csv.DictWriter(f, header, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def _run(cli, folder: Path) -> dict:
    proc = cli("verdicts", "run", "robot", folder, "--format", "json", check_code=1)
    assert "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert all(c["passed"] for c in data["checks"]), [c for c in data["checks"] if not c["passed"]]
    return data


def _unchanged_except(data: dict, changed: set[str]) -> None:
    cards = {c["task_id"]: c for c in data["cards"]}
    assert set(cards) == set(BASE)
    for task_id, card in cards.items():
        if task_id not in changed:
            assert {k: v for k, v in card.items() if k != "evidence"} == {k: v for k, v in BASE[task_id].items() if k != "evidence"}, task_id


def _plant_in_runs(folder: Path, task_id: str, column: str, value: str) -> int:
    """Set ``column`` of the task's first run to ``value``; returns the physical line."""
    header, rows = _rows(folder / "evaluation_run.csv")
    index = next(i for i, r in enumerate(rows) if r["task_id"] == task_id)
    rows[index][column] = value
    _write(folder / "evaluation_run.csv", header, rows)
    return index + 2


def test_empty_success(cli, tmp_path):
    folder = _copy(tmp_path)
    line = _plant_in_runs(folder, "pick-bin-A01", "success", "")
    data = _run(cli, folder)
    [issue] = data["issues"]
    assert (issue["table"], issue["line"], issue["column"]) == ("evaluation_run", line, "success")
    assert "success" in issue["reason"] and issue["file"].endswith("evaluation_run.csv")
    card = next(c for c in data["cards"] if c["task_id"] == "pick-bin-A01")
    # no verdict where the seed gives none: not 성공률 미달, not among the problems
    assert card["verdict"] is None and card["success_rate"] is None and card["failure_total"] is None
    assert card["cycle_sec_median"] is not None  # what does not depend on success is still given
    assert card["withheld"]["where"] == [{"file": issue["file"], "table": "evaluation_run", "line": line, "column": "success"}]
    assert f"`evaluation_run` 표 {line}번째 줄의 `success` 열이 비어 있어" in card["withheld"]["reason"]
    assert card["summary"] == card["withheld"]["reason"] and card["hedge"] is None
    _unchanged_except(data, {"pick-bin-A01"})


def test_non_numeric_cycle_sec(cli, tmp_path):
    folder = _copy(tmp_path)
    line = _plant_in_runs(folder, "stack-box-E01", "cycle_sec", "9초")
    data = _run(cli, folder)
    [issue] = data["issues"]
    assert (issue["line"], issue["column"]) == (line, "cycle_sec") and "`9초`" in issue["reason"] and "숫자가 아닙니다" in issue["reason"]
    card = next(c for c in data["cards"] if c["task_id"] == "stack-box-E01")
    assert card["cycle_sec_median"] is None and card["success_rate"] == BASE["stack-box-E01"]["success_rate"]
    assert card["verdict"] is None and "`cycle_sec` 열의 `9초`를 읽을 수 없어" in card["withheld"]["reason"]
    _unchanged_except(data, {"stack-box-E01"})


def test_runs_and_dataset_rows_of_a_task_missing_from_task_spec(cli, tmp_path):
    folder = _copy(tmp_path)
    header, rows = _rows(folder / "evaluation_run.csv")
    rows.append({"task_id": "ghost-Z99", "model_artifact": "grip-policy-v3.2", "episode_id": "g-1", "success": "true",
                 "failure_reason": "", "cycle_sec": "5"})
    _write(folder / "evaluation_run.csv", header, rows)
    header, rows = _rows(folder / "dataset_index.csv")
    rows.append({"task_id": "ghost-Z99", "required_skill": "x", "episode_count": "1", "capture_site": "안산", "robot_hand_type": "suction"})
    _write(folder / "dataset_index.csv", header, rows)
    data = _run(cli, folder)
    where = {(i["table"], i["line"], i["column"]) for i in data["issues"]}
    assert where == {("evaluation_run", 321, "task_id"), ("dataset_index", 31, "task_id")}
    assert all("ghost-Z99" in i["reason"] and "task_spec" in i["reason"] for i in data["issues"])
    _unchanged_except(data, set())


def test_duplicate_task_id(cli, tmp_path):
    folder = _copy(tmp_path)
    header, rows = _rows(folder / "task_spec.csv")
    rows.append({**rows[2], "target_success_rate": "0.1"})  # a second insert-peg-B01 row
    _write(folder / "task_spec.csv", header, rows)
    data = _run(cli, folder)
    [issue] = data["issues"]
    assert (issue["table"], issue["line"], issue["column"]) == ("task_spec", 32, "task_id")
    assert "4번째 줄에 이미" in issue["reason"]
    _unchanged_except(data, set())  # the first row is judged, the later one is not


def test_duplicate_episode_is_counted_once(cli, tmp_path):
    folder = _copy(tmp_path)
    header, rows = _rows(folder / "evaluation_run.csv")
    first = next(r for r in rows if r["task_id"] == "pour-cup-D02-left")
    rows.append(dict(first))
    _write(folder / "evaluation_run.csv", header, rows)
    data = _run(cli, folder)
    [issue] = data["issues"]
    assert (issue["line"], issue["column"]) == (321, "episode_id")
    _unchanged_except(data, set())


def test_missing_column(cli, tmp_path):
    folder = _copy(tmp_path)
    header, rows = _rows(folder / "evaluation_run.csv")
    _write(folder / "evaluation_run.csv", [h for h in header if h != "cycle_sec"], rows)
    data = _run(cli, folder)
    [issue] = data["issues"]
    assert (issue["table"], issue["line"], issue["column"]) == ("evaluation_run", 1, "cycle_sec")
    cards = {c["task_id"]: c for c in data["cards"]}
    for task_id, before in BASE.items():
        card = cards[task_id]
        if before["verdict"] in ("작업 주기 초과", "배포 후보"):
            # the cycle rule cannot be decided: the card is withheld there and says why
            assert card["verdict"] is None and card["withheld"]["where"][0]["column"] == "cycle_sec", task_id
            assert "`evaluation_run` 표에 `cycle_sec` 열이 없어" in card["withheld"]["reason"], task_id
        else:
            assert card["verdict"] == before["verdict"], task_id
        assert card["cycle_sec_median"] is None


def test_missing_table(cli, tmp_path):
    folder = _copy(tmp_path)
    (folder / "dataset_index.csv").unlink()
    data = _run(cli, folder)
    assert [(i["table"], i["column"]) for i in data["issues"]] == [("dataset_index", None)]
    assert {(c["verdict"], c["blocked_cause"]) for c in data["cards"]} == {("학습에 없는 조건", "능력 불일치")}
    assert all("`dataset_index` 표" in c["hedge"] for c in data["cards"])


def test_empty_failure_reason_is_counted_not_an_issue():
    card = BASE["wipe-table-E02-oily"]
    # failures: residue, residue and one with an empty reason → 3 failures, share 2/3
    assert (card["failure_total"], card["top_failure_count"], card["top_failure_share"]) == (3, 2, 0.67)
    assert "1회는 `failure_reason` 값이 비어" in card["hedge"]
    assert judge_round(ROUND).issues == []


@pytest.mark.parametrize("text", ["", "task_id\n", "\xef\xbb\xbf"])
def test_nearly_empty_tables_do_not_crash(cli, tmp_path, text):
    folder = _copy(tmp_path)
    (folder / "evaluation_run.csv").write_text(text, encoding="utf-8")
    proc = cli("verdicts", "run", "robot", folder, "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    data = json.loads(proc.stdout)
    assert len(data["cards"]) == 30 and all(c["passed"] for c in data["checks"])


def test_unreadable_input_exits_2(cli, tmp_path):
    proc = cli("verdicts", "run", "robot", tmp_path / "nowhere")
    assert proc.returncode == 2 and "그런 파일이나 폴더가 없습니다" in proc.stderr and "Traceback" not in proc.stderr
