"""Issue 19, item 5 (tracebacks) for conditions, configurations and output paths: each
case runs the real command with 1 GiB of address space and asserts a clear message
(file, place, reason) and no traceback.  The inputs are built here."""

from __future__ import annotations

import os

import pytest

from tests.hostile.inputs import EXAMPLES, assert_clean, run_bounded

HEADER = ("scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
          "flag,label,type,min_value,max_value,values")


def scenario(folder, condition: str, *, name: str = "s.csv", max_value: str = "10", flags: str = "t") -> os.PathLike:
    rows = [HEADER, f"S0,시작,Y,N,{flags},,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,",
            f',,,,,B0,S0,S1,"{condition}",1,,,,,,']
    rows += [f",,,,,,,,,,{f},{f},int,0,{max_value}," for f in flags.split("|")]
    path = folder / name
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def lint_json(path, *more):
    out = run_bounded("storygraph", "lint", path, "--format", "json", "--quiet", "--jobs", "1", *more)
    assert_clean(out, 1)
    return out


@pytest.mark.parametrize("condition,where,words", [
    ("(" * 244 + "t > 1" + ")" * 244, "101번째 글자", "100단계보다 깊게"),
    ("not " * 978 + "t > 1", "401번째 글자", "100단계보다 깊게"),
    ("t > " + "9" * 4400, "5번째 글자", "4,400자리라 너무 깁니다"),
    ("t > 1 and t < " + "9" * 1001, "15번째 글자", "1,001자리라 너무 깁니다"),
])
def test_conditions_past_the_parsers_limits_are_syntax_issues(tmp_path, condition, where, words):
    out = lint_json(scenario(tmp_path, condition))
    issue = next(i for i in out.issues() if i["column"] == "condition_expr")
    assert issue["line"] == 4 and where in issue["reason"] and words in issue["reason"]


def test_flag_ranges_of_thousands_of_digits_are_counted_as_countless(tmp_path):
    """Two flags of 4,300-digit ranges: the number of combinations has 8,600 digits, more
    than Python writes; the stuck readers are still found, their count is 'countless'."""
    out = lint_json(scenario(tmp_path, "t > 5 and u > 5", max_value="9" * 4300, flags="t|u"))
    stuck = [f for f in out.json()["findings"] if f["code"] == "stuck-combination"]
    assert stuck and "셀 수 없이 많은 조합" in stuck[0]["message"]


@pytest.fixture
def story(tmp_path):
    return scenario(tmp_path, "t > 1")


def _config(tmp_path, kind: str):
    path = tmp_path / "cfg" / "storygraph.toml"
    path.parent.mkdir()
    if kind == "not-utf8":
        path.write_bytes(b'format = "\xff\xfe"\n')
    elif kind == "nested":
        path.write_text("x = " + "[" * 490 + "]" * 490 + "\n", encoding="utf-8")
    elif kind == "folder":
        path.mkdir()
    elif kind == "symlink-loop":
        path.symlink_to(tmp_path / "cfg" / "other.toml")
        (tmp_path / "cfg" / "other.toml").symlink_to(path)
    elif kind == "fifo":
        os.mkfifo(path)
    return path


CONFIG_REASONS = {"not-utf8": "11번째 바이트부터 UTF-8로 읽을 수 없습니다", "nested": "너무 깊게 겹쳐",
                  "folder": "설정 파일이 아니라 폴더입니다", "symlink-loop": "심볼릭 링크가 끝없이", "fifo": "FIFO"}


@pytest.mark.parametrize("kind", list(CONFIG_REASONS))
def test_a_config_that_cannot_be_read_is_a_message(tmp_path, story, kind):
    path = _config(tmp_path, kind)
    out = run_bounded("storygraph", "lint", story, "--config", path, "--quiet", timeout=30)
    assert_clean(out, 2)
    assert str(path) in out.stderr and CONFIG_REASONS[kind] in out.stderr
    out = run_bounded("verdicts", "run", "robot", EXAMPLES / "robot", "--config", path, timeout=30)
    assert_clean(out, 2)
    assert CONFIG_REASONS[kind] in out.stderr


@pytest.mark.parametrize("kind", ["not-utf8", "nested"])
def test_a_found_config_that_cannot_be_read_is_a_message(tmp_path, kind):
    path = _config(tmp_path, kind)
    target = scenario(path.parent, "t > 1")
    out = run_bounded("storygraph", "lint", target, "--quiet", timeout=30)
    assert_clean(out, 2)
    assert CONFIG_REASONS[kind] in out.stderr


OUTPUT_CASES = {
    "missing-folder": ("없는 폴더/out", "이 파일을 담을 폴더가 없습니다"),
    "onto-a-folder": ("a folder", "파일이 아니라 폴더입니다"),
    "through-a-file": ("a file/out", "이 파일을 담을 자리("),
}


@pytest.mark.parametrize("case", list(OUTPUT_CASES))
@pytest.mark.parametrize("option,suffix", [("--html", ".html"), ("--dot", ".dot"), ("render", ".svg"), ("render", ".dot"),
                                           ("robot --html", ".html")])
def test_an_output_path_that_cannot_be_written_is_a_message(tmp_path, story, case, option, suffix):
    (tmp_path / "a folder").mkdir()
    (tmp_path / "a file").write_text("", encoding="utf-8")
    name, reason = OUTPUT_CASES[case]
    target = tmp_path / (name + (suffix if case != "onto-a-folder" else ""))
    if option == "render":
        command = ["storygraph", "render", story, "-o", target] + (["--format", suffix[1:]] if case == "onto-a-folder" else [])
    elif option == "robot --html":
        command = ["verdicts", "run", "robot", EXAMPLES / "robot", "--html", target]
    else:
        command = ["storygraph", "lint", story, option, target, "--quiet"]
    out = run_bounded(*command, timeout=60)
    assert_clean(out, 2)
    assert f"{target}: {reason}" in out.stderr


@pytest.mark.parametrize("where,reason", [("a file", "폴더가 아니라 파일입니다"), ("a file/x", "이 폴더를 담을 자리(")])
def test_fuzz_out_that_cannot_be_a_folder_is_a_message(tmp_path, where, reason):
    (tmp_path / "a file").write_text("", encoding="utf-8")
    out = run_bounded("storygraph", "fuzz", "--scenes", "200", "--out", tmp_path / where, timeout=120)
    assert_clean(out, 2)
    assert reason in out.stderr


def test_a_refused_flag_row_is_not_called_undeclared_at_every_use(tmp_path):
    """Issue 19, item 6: after ``min_value > max_value`` refuses a flag's row, its uses
    say that row was refused (with its line), not that the flag is missing from
    flag_spec; the branch cards' hedge says the same."""
    rows = [HEADER, "S0,시작,Y,N,t,,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,", ",,,,,B0,S0,S1,t > 1,1,,,,,,",
            ",,,,,B1,S0,S1,t > 2,2,,,,,,", ",,,,,,,,,,t,t,int,9,1,"]
    path = tmp_path / "minmax.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    data = lint_json(path).json()
    reasons = {(i["line"], i["column"]): i["reason"] for i in data["issues"]}
    assert not any("flag_spec에 없습니다" in r for r in reasons.values())
    assert reasons[(4, "condition_expr")] == reasons[(5, "condition_expr")] == \
        "플래그 `t`의 `flag_spec` 행(6번째 줄)을 받아들이지 않아 이 조건은 따지지 않았습니다."
    assert "`max_value` 값 1보다 커서" in reasons[(6, "min_value")]
    b0 = next(c for c in data["cards"] if c["target_no"] == "B0")
    assert "`flag_spec`에서 받아들이지 않은 플래그 `t`를 써서" in b0["hedge"]


def test_a_range_bound_past_pythons_digit_limit_is_an_issue(tmp_path):
    out = lint_json(scenario(tmp_path, "t > 1", max_value="9" * 4400))
    issue = next(i for i in out.issues() if i["column"] == "max_value")
    assert issue["line"] == 5 and "(4,400자)" in issue["reason"] and "정수가 아닙니다" in issue["reason"]
