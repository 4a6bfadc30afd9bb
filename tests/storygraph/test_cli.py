"""The real ``storygraph`` command: output shape and exit codes."""

from __future__ import annotations

import json

from tests.conftest import EXAMPLES
from verdicts.schema import card_errors

LIGHTHOUSE = EXAMPLES / "lighthouse" / "scenario.csv"


def test_text_output_groups_then_issues_then_checks(cli):
    proc = cli("storygraph", "lint", LIGHTHOUSE, check_code=1)
    out = proc.stdout
    # the summary, the problems, then the findings and checks, the passing targets counted, the inputs, the summary again
    order = [out.index(h) for h in ("요약: 문제 27건", "■ 어디서도 안 닿음", "■ 없는 장면을 가리킴", "■ 조건이 겹침", "■ 끝에 못 감",
                                    "■ 표로만 닿음", "■ 린트 발견", "■ 자동 검증", "■ 끝까지 닿음 (51)", "입력: ")]
    assert order == sorted(order) and order[0] == 0 and out.rindex("요약: 문제 27건") > order[-1]
    assert "어디서도 안 닿음 · SC-19  선장의 고백" in out
    assert "조건이 겹침 · BR-13" in out
    assert "(11/11 통과)" in out
    assert "utf-8" in out  # the encoding used is reported


def test_json_output(cli):
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--format", "json", check_code=1)
    data = json.loads(proc.stdout)
    assert {"cards", "issues", "checks"} <= set(data)
    assert all(card_errors("storygraph", c) == [] for c in data["cards"])
    assert all({"id", "passed", "failed_targets"} <= set(c) for c in data["checks"])
    assert data["issues"] == []


def test_json_issues_have_table_line_column_reason(cli):
    proc = cli("storygraph", "lint", EXAMPLES / "lighthouse-broken" / "scenario.csv", "--format", "json", check_code=1)
    data = json.loads(proc.stdout)
    assert data["issues"] and all({"table", "line", "column", "reason"} <= set(i) for i in data["issues"])
    assert any(i["line"] == 25 and i["column"] == "scene_id" for i in data["issues"])
    assert len(data["cards"]) > 60


def test_exit_zero_when_everything_reaches_an_ending(cli, tmp_path):
    path = tmp_path / "ok.csv"
    path.write_text(
        "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no\n"
        "A,시작,Y,N,,,,,,\nB,끝,N,Y,,,,,,\n,,,,,b1,A,B,,1\n",
        encoding="utf-8",
    )
    proc = cli("storygraph", "lint", path, check_code=0)
    assert "■ 끝까지 닿음 (3)" in proc.stdout


def test_exit_two_with_a_message_when_nothing_can_be_read(cli, tmp_path):
    proc = cli("storygraph", "lint", tmp_path / "missing.csv", check_code=2)
    assert "그런 파일이나 폴더가 없습니다" in proc.stderr and "Traceback" not in proc.stderr
    garbage = tmp_path / "bad.csv"
    garbage.write_bytes(b"\xff\xfe\x00\x00\x80\x81\xfe" * 10 + b"\n\x81\x00\xff")
    proc = cli("storygraph", "lint", garbage)
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr


def test_an_empty_file_is_an_issue_not_a_crash(cli, tmp_path):
    path = tmp_path / "empty.csv"
    path.write_text("", encoding="utf-8")
    proc = cli("storygraph", "lint", path)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "비어 있어" in proc.stdout


def test_verdicts_lists_storygraph(cli):
    proc = cli("verdicts", "list", check_code=0)
    names = [line.split("\t")[0] for line in proc.stdout.splitlines()]
    assert "storygraph" in names and "robot" in names and names == sorted(names)


def test_verdicts_run_storygraph_prints_the_same_json(cli):
    a = json.loads(cli("verdicts", "run", "storygraph", LIGHTHOUSE, "--format", "json").stdout)
    b = json.loads(cli("storygraph", "lint", LIGHTHOUSE, "--format", "json").stdout)
    assert a["cards"] == b["cards"] and a["checks"] == b["checks"]


def test_a_missing_id_column_is_an_issue_not_a_crash(cli, tmp_path):
    """Tables without the column that names their rows (scene_id; flag in a folder's
    flag_spec.csv) are read as having no such rows, and the missing column is an issue."""
    union = tmp_path / "no_scene_id.csv"
    union.write_text("title,is_entry,is_ending,branch_id,from_scene,to_scene\nA,Y,N,,,\n,,,b1,A,B\n", encoding="utf-8")
    report = json.loads(cli("storygraph", "lint", union, "--format", "json", check_code=1).stdout)
    assert report["cards"] == [] and any(i["column"] == "scene_id" and i["line"] == 1 for i in report["issues"])
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "scene_states.csv").write_text("scene_id,is_entry,is_ending\nA,Y,Y\n", encoding="utf-8")
    (folder / "story_branches.csv").write_text("branch_id,from_scene,to_scene\n", encoding="utf-8")
    (folder / "flag_spec.csv").write_text("label,type\n열쇠,bool\n", encoding="utf-8")
    report = json.loads(cli("storygraph", "lint", folder, "--format", "json", check_code=1).stdout)
    assert [c["target_no"] for c in report["cards"]] == ["A"]
    assert any(i["column"] == "flag" and i["table"] == "flag_spec" for i in report["issues"])


def test_version_and_short_help(cli):
    for command in ("storygraph", "verdicts"):
        version = cli(command, "--version", check_code=0).stdout.strip()
        assert version.startswith(f"{command} ") and version.split()[1][0].isdigit()
        assert cli(command, "-V", check_code=0).stdout.strip() == version
        assert "사용법:" in cli(command, "-h", check_code=0).stdout
    assert "--format" in cli("storygraph", "lint", "-h", check_code=0).stdout


def test_a_reader_that_goes_away_stops_the_lint_quietly():
    """``storygraph lint … | head``: the rest of the report goes nowhere, no traceback,
    exit 141 (128 + SIGPIPE, as a shell reports it)."""
    import subprocess
    import sys
    from pathlib import Path

    exe = Path(sys.executable).parent / "storygraph"
    proc = subprocess.Popen([str(exe), "lint", "tests/golden/corpus/fuzz-5-250.csv", "--format", "json", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=Path(__file__).resolve().parents[2])
    assert proc.stdout.read(100)  # the reader takes a little and goes away
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 141 and "Traceback" not in err
