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
    assert any(line == 10 and "`flag_specs` 키는 읽는 표의 이름이 아니라" in r and "`flag_spec` 표의 오타라면" in r for line, r in reasons)


# --------------------------------------------------------------------------- residue components

def _component(tmp_path, suffix: str, edit) -> object:
    import yaml

    data = yaml.safe_load((EXAMPLES / "residue" / "DO-0005.yaml").read_text(encoding="utf-8"))
    text = json.dumps(data, ensure_ascii=False, indent=1) if suffix == ".json" else yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
    path = tmp_path / f"c{suffix}"
    path.write_text(edit(text), encoding="utf-8")
    return path


@pytest.mark.parametrize("suffix, edit, line", [
    (".json", lambda t: t.replace('"component_id": "DO-0005"', '"component_id": "DO-0005",\n "component_id": "DO-7"'), 3),
    (".yaml", lambda t: t.replace("component_id: DO-0005\n", "component_id: DO-0005\ncomponent_id: DO-7\n"), 2),
])
def test_a_repeated_key_in_a_component_is_an_issue_with_its_line(cli, tmp_path, suffix, edit, line):
    path = _component(tmp_path, suffix, edit)
    out = json.loads(cli("verdicts", "run", "residue", path, "--format", "json").stdout)
    issue, = out["issues"]
    assert (issue["line"], issue["column"]) == (line, "component_id") and "이미 있어" in issue["reason"]
    assert [c["component_id"] for c in out["cards"]] == ["DO-0005"]


def test_an_unknown_key_in_a_component_names_its_line_and_the_likely_key(cli, tmp_path):
    path = _component(tmp_path, ".yaml", lambda t: t.replace("  slot_kind: unit_field\n", "  slot_knd: unit_field\n  slot_kind: unit_field\n", 1))
    out = json.loads(cli("verdicts", "run", "residue", path, "--format", "json").stdout)
    issue, = out["issues"]
    lines = path.read_text(encoding="utf-8").splitlines()
    assert issue["line"] == lines.index("  slot_knd: unit_field") + 1
    assert issue["column"] == "binding[0].slot_knd" and "`slot_kind` 키의 오타라면" in issue["reason"]


# --------------------------------------------------------------------------- extraction run events

def _events(tmp_path, edit):
    from tests.verdicts.extraction.conftest import write_form

    folder = write_form("jsonl", tmp_path)
    events = folder / "worker_outputs.jsonl"
    lines = events.read_text(encoding="utf-8").splitlines()
    lines[0] = edit(lines[0], json.loads(lines[0]))
    events.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder, json.loads(lines[0]) if lines[0].startswith("{") else None


def _run_extraction(cli, folder) -> dict:
    return json.loads(cli("verdicts", "run", "extraction", folder, "--format", "json").stdout)


def test_a_repeated_key_in_an_event_is_an_issue_and_the_first_value_is_read(cli, tmp_path):
    folder, _ = _events(tmp_path, lambda line, e: line[:-1] + ', "value": "다른 값"}')
    out = _run_extraction(cli, folder)
    issue, = [i for i in out["issues"] if i["table"] == "worker_outputs"]
    assert (issue["line"], issue["column"]) == (1, "value") and "`value` 키가 이 줄" in issue["reason"]
    assert "다른 값" not in json.dumps(out["cards"], ensure_ascii=False)


def test_a_misspelt_key_in_an_event_is_reported_and_its_cell_is_unreadable(cli, tmp_path):
    def misspell(line, event):
        event["valeu"] = event.pop("value")
        return json.dumps(event, ensure_ascii=False)

    folder, event = _events(tmp_path, misspell)
    out = _run_extraction(cli, folder)
    issue, = [i for i in out["issues"] if i["table"] == "worker_outputs"]
    assert (issue["line"], issue["column"]) == (1, "value")
    assert "`valeu` 키는 실행 이벤트의 열이 아니라" in issue["reason"] and "`value` 키의 오타라면" in issue["reason"]
    card = next(c for c in out["cards"] if c.get("run_id") == event["run_id"] and c.get("field_name") == event["field_name"])
    assert card["verdict"] is None and "이벤트를 읽을 수 없어" in card["withheld"]["reason"], card  # withheld, not guessed


# --------------------------------------------------------------------------- the mail agent's log

def test_a_second_log_record_for_the_same_mail_names_both_lines(tmp_path):
    from verdicts.mail.importer import read_log

    log = tmp_path / "agent.jsonl"
    log.write_text('{"message_id": "<a@x>", "action_kind": "회신", "confidence": 0.9}\n'
                   '{"message_id": "<a@x>", "action_kind": "독촉", "confidence": 0.5}\n', encoding="utf-8")
    problems: list[str] = []
    records = read_log(log, problems)
    assert [r["action_kind"] for r in records] == ["회신"]
    assert problems == [f"{log} 2번째 줄: 메일 `<a@x>`의 기록이 1번째 줄에 이미 있어 이 두 번째 기록은 쓰지 않고 앞의 기록을 썼습니다."]


def test_repeated_and_unknown_keys_in_a_log_record_are_named(tmp_path):
    from verdicts.mail.importer import read_log

    log = tmp_path / "agent.jsonl"
    log.write_text('{"message_id": "<a@x>", "action_kind": "회신", "confidnce": 0.9, "action_kind": "독촉", "x-note": 1}\n',
                   encoding="utf-8")
    problems: list[str] = []
    records = read_log(log, problems)
    assert records[0]["action_kind"] == "회신"
    assert any("1번째 줄 64번째 글자: `action_kind` 키가 이 기록에 이미 있어" in p for p in problems)
    assert any("1번째 줄 46번째 글자: `confidnce` 키는 에이전트 기록의 키가 아니라" in p and "`confidence` 키의 오타라면" in p
               for p in problems)
    assert len(problems) == 2  # the author's own x- key is neither read nor named


# --------------------------------------------------------------------------- xlsx row numbers

def _workbook(tmp_path, edit) -> object:
    """A two-sheet scenario saved by openpyxl, its first sheet's XML then edited (openpyxl
    writes row numbers from 1, in order)."""
    import zipfile

    from openpyxl import Workbook

    book = Workbook()
    scenes = book.active
    scenes.title = "scene_states"
    for row in (["scene_id", "title", "is_entry", "is_ending", "available_flags"], ["S1", "시작", 1, 0, ""],
                ["S2", "끝", 0, 1, ""], ["S3", "셋", 0, 1, ""]):
        scenes.append(row)
    branches = book.create_sheet("story_branches")
    for row in (["branch_id", "from_scene", "to_scene", "condition_expr", "order_no"], ["B1", "S1", "S2", "", 1], ["B2", "S1", "S3", "", 2]):
        branches.append(row)
    plain, crafted = tmp_path / "plain.xlsx", tmp_path / "crafted.xlsx"
    book.save(plain)
    with zipfile.ZipFile(plain) as zin, zipfile.ZipFile(crafted, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                data = edit(data.decode("utf-8")).encode("utf-8")
            zout.writestr(item, data)
    return crafted


def test_an_xlsx_row_numbered_zero_is_an_issue_not_a_vanished_scene(cli, tmp_path):
    import re

    path = _workbook(tmp_path, lambda xml: re.sub(r'r="([A-E]?)4"', r'r="\g<1>0"', xml))
    data = json.loads(cli("storygraph", "lint", path, "--format", "json").stdout)
    assert any("행 번호가 0인 행(첫 값 `S3`)이 있는데, 행 번호는 1부터" in i["reason"] for i in data["issues"])


def test_xlsx_rows_out_of_order_are_read_in_number_order_with_an_issue(cli, tmp_path):
    path = _workbook(tmp_path, lambda xml: xml.replace('<row r="3"', '<row r="X"').replace('<row r="4"', '<row r="3"').replace('<row r="X"', '<row r="4"'))
    proc = cli("storygraph", "lint", path, "--format", "json")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    issue, = [i for i in data["issues"] if "순서" in i["reason"]]
    assert issue["line"] == 3 and "행 4 다음에 행 3" in issue["reason"]
    assert {c["target_no"] for c in data["cards"]} >= {"S1", "S2", "S3", "B1", "B2"}


def test_an_xlsx_row_number_used_twice_is_an_issue(cli, tmp_path):
    path = _workbook(tmp_path, lambda xml: xml.replace('<row r="4"', '<row r="3"'))
    data = json.loads(cli("storygraph", "lint", path, "--format", "json").stdout)
    assert any(i["line"] == 3 and "행 번호가 3인 행이 두 번" in i["reason"] for i in data["issues"])


# --------------------------------------------------------------------------- residue evaluation cards

def test_a_card_file_with_a_repeated_or_unknown_key_is_refused_naming_the_lines(tmp_path):
    from verdicts.residue.evalcard import CardFileError, card_path, load_card

    text = card_path("E3").read_text(encoding="utf-8")
    card = tmp_path / "card.yaml"
    card.write_text(text.replace("version: 9\n", "version: 9\nversion: 10\n"), encoding="utf-8")
    with pytest.raises(CardFileError, match=r"card\.yaml:5: 카드 파일에 같은 키가 두 번 있습니다\.\n  version\(5번째 줄\): 4번째 줄에"):
        load_card(card)
    card.write_text(text.replace("version: 9\n", "version: 9\nvesion: 3\n"), encoding="utf-8")
    with pytest.raises(CardFileError, match=r"vesion\(5번째 줄\): 알 수 없는 키입니다\. `version` 키의 오타라면"):
        load_card(card)


def test_rule_cases_with_a_repeated_key_are_refused(tmp_path):
    from verdicts.testing import load_cases

    cases = tmp_path / "cases.yaml"
    cases.write_text("cases:\n  - name: a\n    expect: 완성\n    expect: 본문 자리 비어 있음\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"cases\.yaml:4: cases\.0\.expect is written twice \(first on line 3\)"):
        load_cases(cases)


# --------------------------------------------------------------------------- the sibling domains' JSON tables

@pytest.mark.parametrize("domain, tables, table, good, bad", [
    ("mail", ("mailbox_thread", "agent_action", "action_policy"), "agent_action", "confidence", "confidnce"),
    ("robot", ("task_spec", "dataset_index", "evaluation_run"), "evaluation_run", "cycle_sec", "cycle_secs"),
])
def test_a_misspelt_key_in_a_domain_json_is_named_on_its_line(cli, tmp_path, domain, tables, table, good, bad):
    import csv

    doc = {}
    for name in tables:
        with open(EXAMPLES / domain / f"{name}.csv", newline="", encoding="utf-8") as f:
            doc[name] = list(csv.DictReader(f))
    record = doc[table][0]
    assert good in record
    record[bad] = record.pop(good)
    path = tmp_path / f"{domain}.json"
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
    out = json.loads(cli("verdicts", "run", domain, path, "--format", "json").stdout)
    lines = path.read_text(encoding="utf-8").splitlines()
    issue, = [i for i in out["issues"] if bad in i["reason"]]
    assert issue["line"] == next(n for n, line in enumerate(lines, 1) if f'"{bad}"' in line)
    assert issue["column"] == good and f"`{good}` 열의 오타라면" in issue["reason"]
