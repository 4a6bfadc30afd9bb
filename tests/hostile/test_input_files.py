"""Hostile and broken input files through every entry point that reads them
(``storygraph lint``, ``render``, ``grade``; ``verdicts run robot``, ``verdicts grade
robot``), for real: each command runs as a subprocess with 1 GiB of address space and a
time limit, and a test asserts the exit code, that no traceback was printed, and what
the report says (line, column and reason of the issue).

Issue #19 items 1 (silent data loss), 4 (parser size and depth), 5 (tracebacks) and 6
(surprises) as far as they concern reading input files.  The inputs are built here.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
import time
from pathlib import Path

import pytest

from tests.hostile.inputs import (ENTRIES, SMALL_STORY, UNION_HEADER, assert_clean, big_yaml, billion_laughs, bytes_file,
                                  deeply_nested, dtd_xlsx, entry_command, robot_round, run_bounded, sheet_xml, story_sheets,
                                  truncated_xlsx, union_csv, xlsx, zip_bomb)


def lint(path, *more, **kw):
    return run_bounded("storygraph", "lint", path, *more, "--format", "json", "--quiet", "--jobs", "1", **kw)


def by_line(issues: list[dict]) -> dict[int | None, list[dict]]:
    out: dict[int | None, list[dict]] = {}
    for issue in issues:
        out.setdefault(issue["line"], []).append(issue)
    return out


# --------------------------------------------------------------------------- 1. no silent loss: CSV


def test_lone_quote_at_the_end_of_a_row_is_an_issue_and_later_rows_are_still_read(tmp_path):
    rows = list(SMALL_STORY)
    rows[0] += '"'  # S1's last cell opens a quote that never closes
    out = lint(union_csv(tmp_path, rows))
    assert_clean(out, 1)
    issue = by_line(out.issues())[2][0]
    assert issue["column"] == "order_no" and "16번째 글자의 따옴표" in issue["reason"] and "닫히지 않아" in issue["reason"]
    assert {c["target_no"] for c in out.json()["cards"]} >= {"S2", "S3", "B1", "B2"}  # nothing after it swallowed


def test_two_lone_quotes_do_not_swallow_the_rows_between_them(tmp_path):
    rows = list(SMALL_STORY)
    rows[0] += '"'
    rows[2] += '"'
    out = lint(union_csv(tmp_path, rows))
    assert_clean(out, 1)
    lines = by_line(out.issues())
    assert "4번째 줄에서야 닫혀" in lines[2][0]["reason"] and "짝 없는 따옴표" in lines[2][0]["reason"]
    assert "닫히지 않아" in lines[4][0]["reason"]
    assert "S2" in {c["target_no"] for c in out.json()["cards"]}


def test_text_after_a_closing_quote_is_an_issue_at_its_character(tmp_path):
    rows = list(SMALL_STORY)
    rows[1] = 'S2,"갈림"길,N,N,,,,,,'
    out = lint(union_csv(tmp_path, rows))
    assert_clean(out, 1)
    issue = by_line(out.issues())[3][0]
    assert issue["column"] == "title" and "8번째 글자에서 따옴표로 닫은 칸 뒤에 구분자 없이 `길` 글자가" in issue["reason"]


@pytest.mark.parametrize("entry", ENTRIES)
def test_lone_quote_through_every_entry_point(tmp_path, entry):
    if entry.startswith("robot"):
        folder = robot_round(tmp_path)
        path = folder / "task_spec.csv"
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[1] += ',"'
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        target = folder
    else:
        rows = list(SMALL_STORY)
        rows[0] += '"'
        target = union_csv(tmp_path, rows)
    out = run_bounded(*entry_command(entry, target, tmp_path))
    assert_clean(out, 1 if entry != "render" else 0)
    if entry in ("lint", "robot-run"):
        assert any(i["line"] == 2 and "따옴표" in i["reason"] for i in out.issues())
    if entry == "render":
        assert "입력 문제가" in out.stderr


def test_header_only_scenario_is_an_issue_not_a_pass(tmp_path):
    out = lint(union_csv(tmp_path, []))
    assert_clean(out, 1)
    assert any("장면이 한 줄도 없어" in i["reason"] and i["line"] == 1 for i in out.issues())


def test_emptied_json_scenario_and_robot_round_are_issues(tmp_path):
    path = tmp_path / "empty.json"
    path.write_text('{"scene_states": [], "story_branches": [], "task_spec": [], "evaluation_run": [], "dataset_index": []}')
    out = lint(path)
    assert_clean(out, 1)
    assert any("장면이 한 줄도 없어" in i["reason"] for i in out.issues())
    out = run_bounded("verdicts", "run", "robot", path, "--format", "json")
    assert_clean(out, 1)
    assert any("태스크가 한 줄도 없어" in i["reason"] for i in out.issues())


def test_integers_past_pythons_digit_limit_are_issues(tmp_path):
    huge = "9" * 5000
    rows = list(SMALL_STORY)
    rows[3] = f",,,,,B1,S1,S2,,{huge}"
    out = lint(union_csv(tmp_path, rows))
    assert_clean(out, 1)
    issue = by_line(out.issues())[5][0]
    assert issue["column"] == "order_no" and "정수" in issue["reason"] and len(issue["reason"]) < 300
    doc = tmp_path / "huge.json"
    doc.write_text('{"scene_states": [{"scene_id": "S1", "is_entry": true, "is_ending": true}], '
                   '"story_branches": [{"branch_id": "B1", "from_scene": "S1", "to_scene": "S1", "order_no": ' + huge + '}]}')
    out = lint(doc)
    assert_clean(out, 1)
    assert any(i["column"] == "order_no" and "정수" in i["reason"] for i in out.issues())
    yml = tmp_path / "huge.yaml"
    yml.write_text(f"scene_states:\n  - {{scene_id: S1, is_entry: true, is_ending: true}}\nstory_branches:\n"
                   f"  - {{branch_id: B1, from_scene: S1, to_scene: S1, order_no: {huge}}}\n  - {{branch_id: B2, from_scene: S1, to_scene: S1, order_no: 0x{'f' * 5000}}}\n")
    out = lint(yml)
    assert_clean(out, 1)
    assert sum(i["column"] == "order_no" for i in out.issues()) == 2


# --------------------------------------------------------------------------- 1 and 6. JSON read as JSON


def test_tab_indented_json_is_read(tmp_path):
    path = tmp_path / "tabs.json"
    path.write_text('{\n\t"scene_states": [\n\t\t{"scene_id": "S1", "title": "시작", "is_entry": true, "is_ending": true}\n\t],\n'
                    '\t"story_branches": []\n}\n', encoding="utf-8")
    out = lint(path)
    assert_clean(out, (0, 1))
    assert [c["target_no"] for c in out.json()["cards"]] == ["S1"]


@pytest.mark.parametrize("value,column", [("yes", 14), ("!!binary aGk=", 14), ("'S1'", 14)])
def test_yaml_only_values_are_refused_in_json(tmp_path, value, column):
    path = tmp_path / "yaml.json"
    path.write_text('{"scene_states": [\n{"is_entry": ' + value + ', "scene_id": "S1"}], "story_branches": []}\n', encoding="utf-8")
    out = lint(path)
    assert_clean(out, 2)
    assert f"yaml.json:2:{column}: JSON으로 읽을 수 없습니다 (값이 와야 할 자리입니다)" in out.stderr


def test_duplicate_keys_in_json_are_issues_naming_the_key_and_its_line(tmp_path):
    path = tmp_path / "dup.json"
    path.write_text('{\n"scene_states": [\n  {"scene_id": "S1", "is_entry": true, "is_ending": true,\n   "scene_id": "S9"}\n],\n'
                    '"story_branches": [],\n"scene_states": []\n}\n', encoding="utf-8")
    out = lint(path)
    assert_clean(out, 1)
    lines = by_line(out.issues())
    assert lines[4][0]["column"] == "scene_id" and "`scene_id` 키가 이 행에 두 번 있어 앞의 값만" in lines[4][0]["reason"]
    assert "`scene_states` 표가 2번째 줄에 이미 있어" in lines[7][0]["reason"]
    assert [c["target_no"] for c in out.json()["cards"]] == ["S1"]  # the first value and the first table are kept


def test_duplicate_keys_in_yaml_are_issues_too(tmp_path):
    path = tmp_path / "dup.yaml"
    path.write_text("scene_states:\n  - scene_id: S1\n    is_entry: true\n    is_ending: true\n    scene_id: S9\nstory_branches: []\n")
    out = lint(path)
    assert_clean(out, 1)
    assert any(i["line"] == 5 and i["column"] == "scene_id" for i in out.issues())
    assert [c["target_no"] for c in out.json()["cards"]] == ["S1"]


def test_escaped_surrogates_in_json(tmp_path):
    path = tmp_path / "emoji.json"
    path.write_text('{"scene_states": [\n{"scene_id": "S1", "title": "\\ud83d\\ude00", "is_entry": true, "is_ending": true},\n'
                    '{"scene_id": "S2", "title": "\\ud800 \\udfff"}], "story_branches": []}', encoding="utf-8")
    out = lint(path)
    assert_clean(out, 1)
    titles = {c["target_no"]: c for c in out.json()["cards"]}
    assert set(titles) == {"S1", "S2"}
    assert any(i["line"] == 3 and i["column"] == "title" and "서로게이트" in i["reason"] for i in out.issues())
    assert "😀" in out.stdout or "\\ud83d\\ude00" in out.stdout


# --------------------------------------------------------------------------- 2. bounded


@pytest.mark.parametrize("entry", ENTRIES)
def test_billion_laughs_is_refused_quickly_with_little_memory(tmp_path, entry):
    path = billion_laughs(tmp_path)
    out = run_bounded(*entry_command(entry, path, tmp_path), timeout=30, memory=512 << 20)
    assert_clean(out, 2)
    assert "별칭(*)을 펼치면" in out.stderr and "bomb.yaml:" in out.stderr
    assert out.seconds < 5  # the refusal itself takes milliseconds; the rest is the interpreter starting


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
@pytest.mark.parametrize("depth", [480, 100_000])
def test_deep_nesting_is_a_clear_message(tmp_path, suffix, depth):
    path = deeply_nested(tmp_path, depth, suffix)
    out = lint(path)
    assert_clean(out, (1, 2))
    text = out.stderr + out.stdout
    assert "중첩" in text and "64단계" in text and "RecursionError" not in text


def test_deep_nesting_through_robot(tmp_path):
    out = run_bounded("verdicts", "run", "robot", deeply_nested(tmp_path, 480, ".yaml"))
    assert_clean(out, 2)
    assert "64단계" in out.stderr


def test_ten_megabyte_yaml_is_refused_by_its_size(tmp_path):
    path = big_yaml(tmp_path, 10)
    out = lint(path, timeout=30)
    assert_clean(out, 2)
    assert "YAML 파일이" in out.stderr and "한도 8,388,608바이트를 넘어" in out.stderr
    assert out.seconds < 5


@pytest.mark.slow
def test_yaml_under_the_limit_is_read(tmp_path):
    """At full depth a document just under the limit (7 MB, about 90,000 scenes: the
    time is the lint's); by default 2 MB."""
    from tests.conftest import DEEP

    path = big_yaml(tmp_path, 7 if DEEP else 2)
    out = lint(path, timeout=120)
    assert_clean(out, (0, 1))
    assert out.seconds < 60


ROBOT_SHEETS = ["task_spec", "evaluation_run", "dataset_index"]


def _sheets(entry: str) -> list[str] | None:
    return ROBOT_SHEETS if entry.startswith("robot") else None


@pytest.mark.parametrize("entry", ENTRIES)
def test_xlsx_with_a_dtd_is_refused(tmp_path, entry):
    out = run_bounded(*entry_command(entry, dtd_xlsx(tmp_path, _sheets(entry)), tmp_path))
    assert_clean(out, 2)
    assert "문서형 선언(DTD)" in out.stderr and "dtd.xlsx#xl/worksheets/sheet1.xml:1" in out.stderr


@pytest.mark.parametrize("entry", ENTRIES)
def test_truncated_sheet_xml_is_a_clear_error(tmp_path, entry):
    out = run_bounded(*entry_command(entry, truncated_xlsx(tmp_path, _sheets(entry)), tmp_path))
    assert_clean(out, 2)
    assert "truncated.xlsx#xl/worksheets/sheet1.xml:1:" in out.stderr and "잘렸습니다" in out.stderr


@pytest.mark.slow
def test_zip_bomb_is_refused_before_it_is_inflated(tmp_path):
    path = zip_bomb(tmp_path, 300)
    assert path.stat().st_size < 2 << 20
    out = lint(path, memory=512 << 20)
    assert_clean(out, 2)
    assert "xlsx를 풀면" in out.stderr and "한도 268,435,456바이트를 넘어" in out.stderr
    assert out.seconds < 5


def test_formula_without_a_cached_value_is_an_issue_per_cell(tmp_path):
    scenes = [["scene_id", "title", "is_entry", "is_ending"], ["S1", "t:str|<f>UPPER(\"a\")</f>", "Y", "N"],
              ["S2", "끝", "t:|<f>1=1</f>", "t:|<f>1=1</f><v>1</v>"]]
    out = lint(xlsx(tmp_path, story_sheets(scenes)))
    assert_clean(out, 1)
    lines = by_line(out.issues())
    assert lines[2][0]["column"] == "title" and "`B2` 칸에는 수식 `=UPPER(\"a\")`만 있고 계산된 값이" in lines[2][0]["reason"]
    assert lines[3][0]["column"] == "is_entry" and "`C3` 칸에는 수식 `=1=1`만" in lines[3][0]["reason"]
    assert len(lines[3]) == 1  # D3 has its cached value


def test_over_long_cells_in_xlsx_are_issues_and_memory_stays_bounded(tmp_path):
    long = "가" * 40_000
    scenes = [["scene_id", "title", "is_entry", "is_ending"], *[[f"S{i}", long, "Y" if i == 0 else "N", "Y"] for i in range(300)]]
    out = lint(xlsx(tmp_path, story_sheets(scenes)), memory=1 << 30)
    assert_clean(out, 1)
    assert sum("한도 32,767자를 넘어" in i["reason"] for i in out.issues()) == 300


@pytest.mark.slow
def test_five_million_csv_columns_finish_in_seconds(tmp_path):
    path = tmp_path / "wide.csv"
    with path.open("w", encoding="utf-8") as f:
        f.write("scene_idd,titel,is_entry,is_ending," + ",".join(f"x{i}" for i in range(5_000_000)) + "\n")
        f.write("S1,시작,Y,Y\n")
    out = lint(path, timeout=120)
    assert_clean(out, 1)
    reasons = [i["reason"] for i in out.issues()]
    assert any("5,000,004개" in r and "16,384개" in r for r in reasons)
    assert any("`scene_idd`" in r for r in reasons)  # the close match is still suggested
    assert out.seconds < 30


# --------------------------------------------------------------------------- 3. no tracebacks


@pytest.mark.parametrize("data,reason", [(b"\xff\xfe" + "scene_id".encode("utf-16-le") + b"\x00", "홀수"),
                                         (b"\xff\xfe" + "scene_id\n".encode("utf-16-le") + b"\x00\xd8" + "S1".encode("utf-16-le"), "서로게이트")])
@pytest.mark.parametrize("entry", ["lint", "robot-run"])
def test_broken_utf16_is_a_message(tmp_path, data, reason, entry):
    if entry == "robot-run":
        folder = robot_round(tmp_path)
        bytes_file(folder, "task_spec.csv", data)
        target = folder
    else:
        target = bytes_file(tmp_path, "s.csv", data)
    out = run_bounded(*entry_command(entry, target, tmp_path))
    assert_clean(out, 2)
    assert "UTF-16" in out.stderr and reason in out.stderr


def _special(tmp_path: Path, kind: str) -> Path:
    if kind == "symlink-loop":
        (tmp_path / "a.csv").symlink_to(tmp_path / "b.csv")
        (tmp_path / "b.csv").symlink_to(tmp_path / "a.csv")
        return tmp_path / "a.csv"
    if kind == "fifo":
        os.mkfifo(tmp_path / "fifo.csv")
        return tmp_path / "fifo.csv"
    if kind == "folder-as-table":
        folder = tmp_path / "scenario"
        (folder / "scene_states.csv").mkdir(parents=True)
        union_csv(folder, ["BR1,S1,S1,,1"], "story_branches.csv", "branch_id,from_scene,to_scene,condition_expr,order_no")
        return folder
    raise ValueError(kind)


REASONS = {"symlink-loop": "심볼릭 링크가 끝없이", "fifo": "FIFO", "folder-as-table": "폴더라서"}


@pytest.mark.parametrize("kind", ["fifo", "folder-as-table", "symlink-loop"])
@pytest.mark.parametrize("entry", ENTRIES)
def test_paths_that_are_not_files_are_messages(tmp_path, kind, entry):
    if entry.startswith("robot"):  # the round's task_spec.csv is the thing that is not a file
        target = robot_round(tmp_path)
        path = target / "task_spec.csv"
        path.unlink()
        if kind == "symlink-loop":
            path.symlink_to(target / "loop.csv")
            (target / "loop.csv").symlink_to(path)
        elif kind == "fifo":
            os.mkfifo(path)
        else:
            path.mkdir()
    else:
        path = target = _special(tmp_path, kind)
        if kind == "folder-as-table":
            path = target / "scene_states.csv"
    out = run_bounded(*entry_command(entry, target, tmp_path), timeout=20)
    assert_clean(out, 2)
    assert REASONS[kind] in out.stderr and str(path) in out.stderr


def test_dev_stdin_is_refused_without_waiting(tmp_path):
    out = run_bounded("storygraph", "lint", "/dev/stdin", "--quiet", timeout=20, stdin=None)
    assert_clean(out, 2)
    out = run_bounded("verdicts", "run", "robot", "/dev/stdin", timeout=20, stdin=None)
    assert_clean(out, 2)


def test_a_gold_file_that_is_a_fifo_or_a_folder(tmp_path):
    os.mkfifo(tmp_path / "gold.csv")
    out = run_bounded("verdicts", "grade", "robot", robot_round(tmp_path), tmp_path / "gold.csv", timeout=20)
    assert_clean(out, 2)
    assert "FIFO" in out.stderr
    (tmp_path / "gold2.csv").mkdir()
    story = union_csv(tmp_path, SMALL_STORY)
    out = run_bounded("storygraph", "grade", story, tmp_path / "gold2.csv", timeout=20)
    assert_clean(out, 2)
    assert "폴더라서" in out.stderr


@pytest.fixture
def open_tmp():
    """A temporary folder everyone may enter (pytest's own is private to root), removed afterwards."""
    folder = Path(tempfile.mkdtemp(prefix="hostile-"))
    folder.chmod(0o755)
    yield folder
    for path in folder.rglob("*"):
        if path.is_dir() and not path.is_symlink():
            path.chmod(0o755)
    shutil.rmtree(folder)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a folder without search permission anyway (see the test below)")
@pytest.mark.parametrize("entry", ["lint", "robot-run"])
def test_a_file_in_a_folder_without_search_permission(open_tmp, entry):
    locked = open_tmp / "locked"
    if entry == "lint":
        locked.mkdir()
        target = named = union_csv(locked, SMALL_STORY)
    else:
        shutil.copytree(robot_round(open_tmp), locked)
        target, named = locked, locked / "evaluation_run.csv"
    locked.chmod(0o444)  # listable, not searchable
    out = run_bounded(*entry_command(entry, target, open_tmp), timeout=20)
    assert_clean(out, 2)
    assert "읽을 권한이 없습니다" in out.stderr and str(named) in out.stderr


def test_a_file_in_a_folder_without_search_permission_as_root(tmp_path, monkeypatch):
    """What the operating system says to anyone but root, said by hand: the message names
    the file and the reason, for a file and for a folder of tables, and the several-path
    listing keeps the path so that its lint says so."""
    import errno

    from storygraph.batch import expand_paths
    from verdicts.errors import InputError
    from verdicts.tables import read_tables

    locked = tmp_path / "locked"
    locked.mkdir()
    story = union_csv(locked, SMALL_STORY)
    real_open, real_stat = os.open, os.stat

    def denied(real):
        def call(path, *args, **kwargs):
            if str(path).startswith(str(locked) + os.sep):
                raise PermissionError(errno.EACCES, "Permission denied", str(path))
            return real(path, *args, **kwargs)
        return call

    monkeypatch.setattr(os, "open", denied(real_open))
    monkeypatch.setattr(os, "stat", denied(real_stat))
    with pytest.raises(InputError, match=r"scenario\.csv: 읽을 권한이 없습니다"):
        read_tables(story, ["scene_states"], [], single_csv_table="scenario")
    with pytest.raises(InputError, match=r"scene_states\.csv: 읽을 권한이 없습니다"):
        read_tables(locked, ["scene_states"], [])
    assert expand_paths([story, tmp_path]) == [story, locked]  # kept: its lint says why it cannot be read


def _by_input(report: dict) -> tuple[dict, dict]:
    """The cards of each input and the reason each unreadable input gives, by file name,
    from the one JSON object of a run over several inputs."""
    cards: dict = {}
    for c in report["cards"]:
        cards.setdefault(Path(c["input"]).name, []).append(c)
    errors = {Path(i["input"]).name: i["reason"] for i in report["issues"] if Path(i["file"]).name == Path(i["input"]).name
              and i["line"] is None}
    return cards, errors


def test_one_bad_path_does_not_stop_the_others(tmp_path):
    good = union_csv(tmp_path, SMALL_STORY, "good.csv")
    os.mkfifo(tmp_path / "fifo.csv")
    bad_utf16 = bytes_file(tmp_path, "odd.csv", b"\xff\xfe" + "scene_id".encode("utf-16-le") + b"\x00")
    empty_folder = tmp_path / "nothing"
    empty_folder.mkdir()
    out = lint(good, tmp_path / "fifo.csv", bad_utf16, empty_folder, tmp_path / "missing.csv", timeout=60)
    assert_clean(out, 2)
    cards, errors = _by_input(out.json())
    assert {c["target_no"] for c in cards["good.csv"]} >= {"S1", "B2"}
    assert "FIFO" in errors["fifo.csv"] and "UTF-16" in errors["odd.csv"]
    assert "nothing" in errors and "missing.csv" in errors


def test_a_folder_of_scenarios_with_a_fifo_in_it(tmp_path):
    union_csv(tmp_path, SMALL_STORY, "a.csv")
    os.mkfifo(tmp_path / "b.csv")
    out = lint(tmp_path, timeout=60)
    assert_clean(out, 2)
    cards, errors = _by_input(out.json())
    assert cards["a.csv"] and "FIFO" in errors["b.csv"]


def test_a_symlink_loop_among_several_paths_does_not_stop_the_others(tmp_path):
    good = union_csv(tmp_path, SMALL_STORY, "good.csv")
    loop = _special(tmp_path, "symlink-loop")
    out = lint(good, loop, timeout=60)
    assert_clean(out, 2)
    cards, errors = _by_input(out.json())
    assert cards["good.csv"] and "심볼릭 링크가 끝없이" in errors[loop.name]
