"""Strict documents (issue 32, item 2): no key and no record is lost without an input
issue naming its file and line, and a broken configuration stops the run.

One minimal input per root cause; each failed on the code before this item."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import EXAMPLES

# --------------------------------------------------------------------------- configuration


def _nested(tmp_path):
    """A scenario two folders below a storygraph.toml whose ``fail_on`` would let it pass."""
    (tmp_path / "storygraph.toml").write_text('fail_on = []\n', encoding="utf-8")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", deep / "scenario.csv")
    return deep / "scenario.csv"


def test_a_broken_pyproject_stops_the_run_instead_of_a_parents_config(cli, tmp_path):
    target = _nested(tmp_path)
    broken = tmp_path / "a" / "pyproject.toml"
    broken.write_text('[tool.storygraph]\nformat = "json"\nformat = "text"\n', encoding="utf-8")
    proc = cli("storygraph", "lint", target, check_code=2)
    assert f"{broken}:3" in proc.stderr
    assert "같은 키에 값을 두 번 적었습니다" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_pyproject_with_an_unknown_key_stops_the_run(cli, tmp_path):
    target = _nested(tmp_path)
    pyproject = tmp_path / "a" / "pyproject.toml"
    pyproject.write_text('[tool.storygraph]\nformat = "text"\n\n[tool.storygraph.diagram]\nhopz = 3\n', encoding="utf-8")
    proc = cli("storygraph", "lint", target, check_code=2)
    assert f"{pyproject}:5" in proc.stderr
    assert "알 수 없는 키 `diagram.hopz`(5번째 줄, 혹시 `hops`?)" in proc.stderr


def test_a_wrong_type_names_its_line_in_our_words(cli, tmp_path):
    config = tmp_path / "storygraph.toml"
    config.write_text('format = "text"\nfail_on = 3\n', encoding="utf-8")
    proc = cli("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv", "--config", config, check_code=2)
    assert f"{config}:2" in proc.stderr and "`fail_on`(2번째 줄): 배열이어야 합니다" in proc.stderr


def test_a_broken_verdicts_pyproject_stops_the_run(cli, tmp_path):
    folder = tmp_path / "a" / "round"
    shutil.copytree(EXAMPLES / "robot", folder)
    (tmp_path / "verdicts.toml").write_text("[robot]\nfail_on = []\n", encoding="utf-8")
    broken = tmp_path / "a" / "pyproject.toml"
    broken.write_text("[tool.verdicts.robot]\nfail_on = [\n", encoding="utf-8")
    proc = cli("verdicts", "run", "robot", folder, check_code=2)
    assert str(broken) in proc.stderr and "TOML로 읽을 수 없습니다" in proc.stderr


# --------------------------------------------------------------------------- scenarios and tables in JSON and YAML

_SCENES = """scene_states:
  - {scene_id: S1, title: 시작, is_entry: true, available_flags: trust}
  - {scene_id: S2, title: 끝, is_ending: true}
  - {scene_id: S3, title: 다른 끝, is_ending: true}
flag_spec:
  - {flag: trust, type: int, min_value: 0, max_value: 5}
"""


def _lint_json(cli, path) -> dict:
    return json.loads(cli("storygraph", "lint", path, "--format", "json").stdout)


def test_a_misspelt_condition_in_one_yaml_record_is_unknown_not_absent(cli, tmp_path):
    # the misspelt key dropped B1's condition: B1 became unconditional and B2 "shadowed"
    path = tmp_path / "scenario.yaml"
    path.write_text(_SCENES + """story_branches:
  - {branch_id: B1, from_scene: S1, to_scene: S2, conditon_expr: trust >= 2, order_no: 1}
  - {branch_id: B2, from_scene: S1, to_scene: S3, condition_expr: trust < 2, order_no: 2}
""", encoding="utf-8")
    data = _lint_json(cli, path)
    assert not [c for c in data["cards"] if c["verdict"] == "조건이 겹침"]
    issue, = data["issues"]
    assert (issue["line"], issue["column"]) == (8, "condition_expr")
    assert "`conditon_expr` 키는 `story_branches` 표의 열이 아니라" in issue["reason"]
    assert "`condition_expr`로 고치면" in issue["reason"]


def test_a_column_misspelt_in_every_json_record_is_reported_as_the_csv_reader_does(cli, tmp_path):
    rows = [{"branch_id": "B1", "from_scene": "S1", "to_scene": "S2", "conditon_expr": "trust >= 2", "order_no": 1},
            {"branch_id": "B2", "from_scene": "S1", "to_scene": "S3", "conditon_expr": "trust < 2", "order_no": 2}]
    import yaml

    doc = yaml.safe_load(_SCENES)
    doc["story_branches"] = rows
    path = tmp_path / "scenario.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    csv = tmp_path / "scenario.csv"
    csv.write_text("scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,conditon_expr,order_no\n"
                   "S1,시작,1,0,trust,,,,,\nS2,끝,0,1,,,,,,\nS3,다른 끝,0,1,,,,,,\n"
                   ",,,,,B1,S1,S2,trust >= 2,1\n,,,,,B2,S1,S3,trust < 2,2\n", encoding="utf-8")
    from_json = [i for i in _lint_json(cli, path)["issues"] if i["column"] == "condition_expr"]
    from_csv = [i for i in _lint_json(cli, csv)["issues"] if i["column"] == "condition_expr"]
    assert len(from_json) == 1 and from_json[0]["reason"] == from_csv[0]["reason"]
    assert "비슷한 이름의 `conditon_expr` 열이 오타라면" in from_json[0]["reason"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert from_json[0]["line"] == next(n for n, line in enumerate(lines, 1) if "conditon_expr" in line)


def test_an_unknown_key_is_reported_when_nothing_else_is_wrong(cli, tmp_path):
    path = tmp_path / "scenario.yaml"
    path.write_text(_SCENES + """story_branches:
  - {branch_id: B1, from_scene: S1, to_scene: S2, condition_expr: trust >= 2, order_no: 1, remark: 메모}
  - {branch_id: B2, from_scene: S1, to_scene: S3, condition_expr: trust < 2, order_no: 2}
flag_specs: []
""", encoding="utf-8")
    issues = _lint_json(cli, path)["issues"]
    reasons = {(i["line"], i["reason"]) for i in issues}
    assert (8, "`remark` 키는 `story_branches` 표의 열이 아니라 읽지 않았습니다.") in reasons
    assert any(line == 10 and "`flag_specs` 키는 이 형식의 표 이름이 아니라" in r and "`flag_spec` 표의 오타라면" in r for line, r in reasons)
