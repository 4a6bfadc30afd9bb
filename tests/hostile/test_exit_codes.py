"""Issue 32, item 7: exit 3 means our defect.  Input errors are input issues (exit 1)
or are accepted (exit 0); a self-check fails only when our own verdicts are in doubt.

Each case is a minimal input that ended in exit 3 ("a self-check failed") before."""

from __future__ import annotations

import json
from pathlib import Path

from tests.hostile import inputs
from tests.hostile.inputs import assert_clean, run_bounded, union_csv


def _lint(path: Path):
    return run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1")


def _failed_checks(outcome) -> list[str]:
    return [c["id"] for c in outcome.json()["checks"] if not c["passed"]]


def test_a_title_holding_a_sentence_end_is_a_title(tmp_path: Path) -> None:
    """C10 (one polite sentence) read ``배를 탑니다. 그리고`` in a summary as two sentences."""
    path = union_csv(tmp_path, ["S1,배를 탑니다. 그리고,Y,N,,,,,,", "S2,끝입니다. 정말,N,N,,,,,,", "S3,끝,N,Y,,,,,,",
                                ",,,,,B1,S1,S2,,1", ",,,,,B2,S1,S3,,2"])
    outcome = _lint(path)
    assert_clean(outcome, 1)  # S2 is a dead end: a problem of the story, not of ours
    assert _failed_checks(outcome) == []
    assert any("배를 탑니다. 그리고" in c["summary"] for c in outcome.json()["cards"])


def test_a_title_holding_a_line_break_is_a_title(tmp_path: Path) -> None:
    doc = {"scene_states": [{"scene_id": "S1", "title": "첫 줄입니다.\n둘째 줄", "is_entry": True, "is_ending": False},
                            {"scene_id": "S2", "title": "끝", "is_entry": False, "is_ending": True}],
           "story_branches": [{"branch_id": "B1", "from_scene": "S1", "to_scene": "S2", "order_no": 1}]}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    outcome = _lint(path)
    assert_clean(outcome, 0)
    assert _failed_checks(outcome) == []


def test_order_no_zero_is_an_input_issue(tmp_path: Path) -> None:
    path = union_csv(tmp_path, ["S1,시작,Y,N,t,,,,,", "S2,끝,N,Y,,,,,,", ",,,,,B1,S1,S2,,0", ",,,,,B2,S1,S2,t > 1,1"])
    outcome = _lint(path)
    assert_clean(outcome, 1)
    assert _failed_checks(outcome) == []
    assert any(i["column"] == "order_no" and i["line"] == 4 for i in outcome.issues())


def _folder(tmp_path: Path, scenes: str, branches: str, extra: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "story"
    folder.mkdir()
    (folder / scenes).write_text("scene_id,title,is_entry,is_ending,available_flags\nS1,시작,Y,N,\nS2,끝,N,Y,\n", encoding="utf-8")
    (folder / branches).write_text("branch_id,from_scene,to_scene,condition_expr,order_no\nB1,S1,S2,,1\n", encoding="utf-8")
    for name, text in (extra or {}).items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def test_a_misspelt_table_file_is_an_input_issue_with_its_name(tmp_path: Path) -> None:
    """Without ``story_branches`` the scenes' reach is unknown: withheld, not judged on no
    branches (whose cards then cited a table that is not there: C08 failed)."""
    outcome = _lint(_folder(tmp_path, "scene_states.csv", "story_branch.csv"))
    assert_clean(outcome, 1)
    assert _failed_checks(outcome) == []
    assert outcome.json()["cards"] == []
    assert any("`story_branch.csv`" in i["reason"] and "`story_branches.csv`" in i["reason"] for i in outcome.issues())


def test_a_misspelt_optional_table_file_is_not_ignored_silently(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "scene_states.csv", "story_branches.csv", {"flag_specs.csv": "flag,label,type\nt,신뢰,int\n"})
    outcome = _lint(folder)
    assert_clean(outcome, 1)
    hits = [i for i in outcome.issues() if "`flag_specs.csv`" in i["reason"]]
    assert hits and hits[0]["file"].endswith("flag_specs.csv") and "`flag_spec.csv`" in hits[0]["reason"]


def test_a_misspelt_sheet_name_is_an_input_issue_with_its_name(tmp_path: Path) -> None:
    sheets = inputs.story_sheets()
    path = inputs.xlsx(tmp_path, {"scene_states": sheets["scene_states"], "story_branch": sheets["story_branches"]})
    outcome = _lint(path)
    assert_clean(outcome, 1)
    assert _failed_checks(outcome) == []
    assert any("`story_branch` 시트" in i["reason"] for i in outcome.issues())


def test_xlsx_rows_out_of_order_are_read_by_their_numbers(tmp_path: Path) -> None:
    scenes = [["scene_id", "title", "is_entry", "is_ending", "available_flags"], ["S2", "끝", "N", "Y", ""], ["S1", "시작", "Y", "N", ""]]
    xml = inputs.sheet_xml(scenes)
    # the second and third rows swapped in the file (row 3 first), numbered by r=
    xml = xml.replace('<row r="2">', '<row r="X">').replace('<row r="3">', '<row r="2">').replace('<row r="X">', '<row r="3">')
    xml = xml.replace('r="A2"', 'r="Q2"').replace('r="A3"', 'r="A2"').replace('r="Q2"', 'r="A3"')
    sheets = inputs.story_sheets()
    sheets["scene_states"] = xml
    outcome = _lint(inputs.xlsx(tmp_path, sheets))
    assert_clean(outcome, (0, 1))
    assert _failed_checks(outcome) == []
    lines = {e["value"]: e["line"] for c in outcome.json()["cards"] for e in c["evidence"]
             if e.get("field") == "scene_id" and e.get("source") == "scene_states"}
    assert lines == {"S2": 3, "S1": 2}




def test_a_value_holding_a_sentence_end_is_a_value(tmp_path: Path) -> None:
    """An extracted value quoted as code in a summary (``값 `끝났습니다. 정말`…``) is the
    user's text, not a second sentence of ours (the polite check failed: exit 3)."""
    from tests.verdicts.extraction.conftest import read_example
    from tests.verdicts.extraction.test_bad_input import _row, write

    t = read_example()
    _row(t["worker_outputs"], run_id="R-20931", field_name="company_name")["value"] = "끝났습니다. 정말"
    outcome = run_bounded("verdicts", "run", "extraction", write(tmp_path, t), "--format", "json", "--all")
    assert_clean(outcome, 1)
    assert _failed_checks(outcome) == []
    assert any("끝났습니다. 정말" in c["summary"] for c in outcome.json()["cards"])
