"""Issue 31, item 6, robot: after the round, the recapture each card asked for (site, hand,
missing episodes) against the collection plan actually made (`verdicts followup`), and the
last stored round on the report screen (`verdicts show robot --html`)."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES
from verdicts.robot.followup import COLLECTION_PLAN, STATUSES, load_plan

ROUND = EXAMPLES / "robot"


def _plan(tmp_path, rows: list[str], name: str = "plan.csv"):
    path = tmp_path / name
    path.write_text("task_id,capture_site,robot_hand_type,episode_count\n" + "\n".join(rows) + "\n", encoding="utf-8")
    return path


def _asked(cli) -> dict[str, dict]:
    data = json.loads(cli("verdicts", "run", "robot", ROUND, "--format", "json", "-q", check_code=None).stdout)
    return {c["task_id"]: c for c in data["cards"]}


def test_each_task_says_whether_the_plan_covers_the_recapture_asked_for(cli, tmp_path):
    asked = _asked(cli)
    # the cards this test relies on, as the round asks
    assert [(asked[t]["recapture_site"], asked[t]["recapture_hand"], asked[t]["more_episode_count"])
            for t in ("insert-peg-B01", "pour-cup-D02", "cable-route-C01", "fold-towel-C02")] == [
        ("판교", "parallel_2f", 120), ("판교", "parallel_2f", 60), ("평택", "5finger", 380), ("평택", "5finger", None)]
    assert asked["pick-bin-A01"]["verdict"] == "배포 후보"
    plan = _plan(tmp_path, [
        "insert-peg-B01,판교,parallel_2f,100", "insert-peg-B01,판교,parallel_2f,20",  # two rows add up to the 120 missing
        "pour-cup-D02,판교,parallel_2f,50",                                         # 10 short of 60
        "cable-route-C01,판교,5finger,400",                                         # the wrong site
        "fold-towel-C02,평택,5finger,30",                                           # no count asked: any episode covers
        "pick-bin-A01,안산,parallel_2f,10",                                         # planned though not asked
    ])
    data = json.loads(cli("verdicts", "followup", "robot", ROUND, plan, "--format", "json", check_code=1).stdout)
    tasks = {t["task_id"]: t for t in data["tasks"]}
    assert len(tasks) == len(asked) and data["issues"] == []
    assert {k: tasks[k]["status"] for k in ("insert-peg-B01", "pour-cup-D02", "cable-route-C01", "fold-towel-C02",
                                            "pick-bin-A01", "pick-bin-A01-mixed")} == {
        "insert-peg-B01": "covered", "pour-cup-D02": "short", "cable-route-C01": "elsewhere", "fold-towel-C02": "covered",
        "pick-bin-A01": "not_asked", "pick-bin-A01-mixed": "missing"}
    assert tasks["insert-peg-B01"]["plan_lines"] == [2, 3] and tasks["insert-peg-B01"]["planned_episodes"] == 120
    assert tasks["insert-peg-B01"]["sentence"] == (
        "`insert-peg-B01`은 판교 현장에서 `parallel_2f` 손으로 다시 찍으라고 했고, 수집 계획에 같은 현장과 손으로 "
        "120회가 잡혀 있어 모자란 120회를 채웁니다.")
    assert tasks["pour-cup-D02"]["sentence"].endswith("같은 현장과 손으로 50회만 잡혀 있어 모자란 60회에 10회 못 미칩니다.")
    assert tasks["cable-route-C01"]["sentence"].endswith("수집 계획에는 판교 현장 · `5finger` 손 400회만 잡혀 있습니다.")
    assert tasks["fold-towel-C02"]["sentence"].endswith("30회가 잡혀 있어 요청한 재수집을 덮습니다.")
    assert tasks["pick-bin-A01"]["sentence"] == ("`pick-bin-A01`은 배포 후보라 다시 찍을 것이 없었고 수집 계획에는 안산 현장 · "
                                                 "`parallel_2f` 손 10회가 잡혀 있습니다.")
    assert tasks["pick-bin-A01-mixed"]["sentence"].endswith("수집 계획에 이 태스크가 없습니다.")
    assert sum(data["counts"].values()) == len(tasks) and set(data["counts"]) == set(STATUSES)

    text = cli("verdicts", "followup", "robot", ROUND, plan, check_code=1).stdout
    assert "■ 계획에 맞음 (" in text and "  회차 모자람 · pour-cup-D02  `pour-cup-D02`는" in text
    assert text.strip().splitlines()[-1].startswith("요약: 계획에 맞음 ")


def test_a_plan_that_covers_every_asked_recapture_passes(cli, tmp_path):
    asked = _asked(cli)
    rows = [f"{t},{c['recapture_site']},{c['recapture_hand']},{c['more_episode_count'] or 1}"
            for t, c in asked.items() if c["recapture_site"] is not None and c["verdict"] != "배포 후보"]
    data = json.loads(cli("verdicts", "followup", "robot", ROUND, _plan(tmp_path, rows), "--format", "json", check_code=0).stdout)
    assert {t["status"] for t in data["tasks"]} == {"covered", "not_asked"}


def test_plan_rows_that_cannot_be_used_are_input_issues_by_line(cli, tmp_path):
    plan = _plan(tmp_path, ["ghost-Z99,안산,suction,5", "fold-towel-C02,평택,5finger,서른", "insert-peg-B01,판교,parallel_2f,-3"])
    data = json.loads(cli("verdicts", "followup", "robot", ROUND, plan, "--format", "json", check_code=1).stdout)
    where = [(i["line"], i["column"]) for i in data["issues"]]
    assert where == [(2, "task_id"), (3, "episode_count"), (4, "episode_count")]
    assert "`ghost-Z99`가 이번 회차에 없어" in data["issues"][0]["reason"]
    tasks = {t["task_id"]: t for t in data["tasks"]}
    assert tasks["fold-towel-C02"]["status"] == "unknown" and "회차를 읽을 수 없는 줄" in tasks["fold-towel-C02"]["sentence"]
    assert tasks["insert-peg-B01"]["status"] == "missing"  # its only row was refused
    # a folder holding collection_plan.csv is read the same way (the kit's table reader)
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "collection_plan.csv").write_text(plan.read_text(encoding="utf-8"), encoding="utf-8")
    rows, issues, _ = load_plan(folder)
    assert [r.task_id for r in rows] == ["ghost-Z99", "fold-towel-C02"] and len(issues) == 2
    assert [c.name for c in COLLECTION_PLAN.columns] == ["task_id", "capture_site", "robot_hand_type", "episode_count"]
    # no plan at all, and a domain with no follow-up: clear refusals
    assert "없습니다" in cli("verdicts", "followup", "robot", ROUND, tmp_path / "none.csv", check_code=2).stderr
    assert "되짚기가 없습니다" in cli("verdicts", "followup", "mail", EXAMPLES / "mail", plan, check_code=2).stderr


def test_the_last_stored_round_is_shown_on_the_report_screen(cli, tmp_path):
    db = tmp_path / "rounds.sqlite3"
    cli("verdicts", "run", "robot", ROUND, "--save", "--db", db, "-q", check_code=1)
    html = tmp_path / "last.html"
    proc = cli("verdicts", "show", "robot", "--db", db, "--html", html, check_code=1)
    assert "저장된 1번 회차의 보고서 화면" in proc.stderr
    page = html.read_text(encoding="utf-8")
    assert '<span class="sample-tag round-tag" id="stored-round">저장된 회차 #1 · ' in page
    for task in _asked(cli):
        assert f'data-key="{task}"' in page
    # with no stored round there is nothing to show, and it says how to store one
    err = cli("verdicts", "show", "robot", "--db", tmp_path / "empty.sqlite3", "--html", html, check_code=2).stderr
    assert "--save" in err


def test_a_stored_round_of_any_domain_is_shown_on_a_screen(cli, tmp_path):
    # what a domain draws from its inputs (storygraph's diagram) is not stored: the screen
    # shows the stored report without it instead of failing
    db = tmp_path / "rounds.sqlite3"
    for domain, path in (("storygraph", EXAMPLES / "lighthouse" / "scenario.csv"), ("residue", EXAMPLES / "residue")):
        cli("verdicts", "run", domain, path, "--save", "--db", db, "-q", check_code=None)
        html = tmp_path / f"{domain}.html"
        proc = cli("verdicts", "show", domain, "--db", db, "--html", html, check_code=None)
        assert "Traceback" not in proc.stderr and proc.returncode in (0, 1), proc.stderr
        page = html.read_text(encoding="utf-8")
        assert 'id="stored-round">저장된 회차 #' in page
    assert 'class="aggregate">결함 비율 ' in page  # residue's stored aggregate
