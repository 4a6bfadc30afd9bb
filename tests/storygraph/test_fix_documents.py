"""The JSON and YAML writer of ``storygraph fix`` on the layouts a creator may write: records
removed and added as text, the rest byte for byte, the result read back; what it cannot
edit safely (flow style, anchors) left alone with a note."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from storygraph.cells import raw_tables
from storygraph.fixes import apply_edits
from verdicts.fixing import changes, rewrite, rows_of

EDITS = [
    {"action": "remove", "table": "story_branches", "row": "B2"},
    {"action": "add", "table": "story_branches",
     "row": {"branch_id": "B9", "from_scene": "S2", "to_scene": "S1", "condition_expr": 'lamp == "꺼짐"', "order_no": 2}},
    {"action": "set", "table": "scene_states", "row": "S2", "column": "is_ending", "value": True},
]


def _written(tmp_path: Path, name: str, text: str, edits=EDITS, newline: str = "\n") -> tuple[str, list[str]]:
    path = tmp_path / name
    path.write_bytes(text.replace("\n", newline).encode("utf-8"))
    raw = raw_tables(path)
    rows = rows_of(raw)
    new, notes = rewrite(path, path.read_bytes(), raw, changes(rows, apply_edits(rows, edits)))
    return new.decode("utf-8"), notes


def _rows(tmp_path: Path, name: str, text: str) -> dict[str, list[dict]]:
    path = tmp_path / ("back-" + name)
    path.write_text(text, encoding="utf-8")
    return {n: [{k: v for k, v in r.values.items() if v} for r in t.rows] for n, t in raw_tables(path).items()}


SCENES = [{"scene_id": "S1", "title": "끝", "is_entry": "N", "is_ending": "Y"},
          {"scene_id": "S2", "title": "시작", "is_entry": "Y", "is_ending": "N"}]
BRANCHES = [{"branch_id": "B1", "from_scene": "S2", "to_scene": "S1", "order_no": 1},
            {"branch_id": "B2", "from_scene": "S1", "to_scene": "S2", "order_no": 1}]


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_json_one_record_a_line_keeps_its_layout(tmp_path, newline):
    text = ('{\n  "scene_states": [\n' + ",\n".join("    " + json.dumps(r, ensure_ascii=False) for r in SCENES)
            + '\n  ],\n  "story_branches": [\n' + ",\n".join("    " + json.dumps(r) for r in BRANCHES) + "\n  ]\n}\n")
    new, notes = _written(tmp_path, "s.json", text, newline=newline)
    assert not notes
    expected = text.replace('"is_ending": "N"', '"is_ending": "Y"').replace(
        ',\n    {"branch_id": "B2", "from_scene": "S1", "to_scene": "S2", "order_no": 1}',
        ',\n    {"branch_id": "B9", "from_scene": "S2", "to_scene": "S1", "order_no": 2, "condition_expr": "lamp == \\"꺼짐\\""}')
    assert new == expected.replace("\n", newline)
    assert json.loads(new)["story_branches"][-1]["order_no"] == 2  # a number stays a number


def test_json_removing_the_first_record_and_adding_to_a_one_record_list(tmp_path):
    data = {"scene_states": SCENES, "story_branches": BRANCHES[:1]}
    text = json.dumps(data, ensure_ascii=False, indent=4) + "\n"
    edits = [{"action": "remove", "table": "scene_states", "row": "S1"},
             {"action": "add", "table": "story_branches", "row": {"branch_id": "B3", "from_scene": "S2", "to_scene": "S2", "order_no": 2}}]
    new, notes = _written(tmp_path, "s.json", text, edits)
    assert not notes
    back = json.loads(new)
    assert [r["scene_id"] for r in back["scene_states"]] == ["S2"] and [r["branch_id"] for r in back["story_branches"]] == ["B1", "B3"]
    assert '\n        {\n            "branch_id": "B3",\n            "from_scene": "S2",' in new  # the neighbour's indent


def test_yaml_block_list_keeps_comments_and_quoting(tmp_path):
    text = ("# 시나리오\nscene_states:\n  - scene_id: S1   # 끝 장면\n    title: '끝'\n    is_entry: N\n    is_ending: Y\n"
            "  - scene_id: S2\n    title: '시작'\n    is_entry: Y\n    is_ending: N\n"
            "story_branches:\n  - branch_id: B1\n    from_scene: S2\n    to_scene: S1\n    condition_expr: \"\"\n    order_no: 1\n"
            "  # 돌아가는 분기\n  - branch_id: B2\n    from_scene: S1\n    to_scene: S2\n    condition_expr: \"\"\n    order_no: 1\n"
            "# 끝\n")
    new, notes = _written(tmp_path, "s.yaml", text)
    assert not notes
    assert new.startswith("# 시나리오\nscene_states:\n  - scene_id: S1   # 끝 장면\n") and new.endswith("# 끝\n")
    assert "    is_ending: Y\nstory_branches:" in new  # S2 set true in the file's own word
    assert ("  # 돌아가는 분기\n  - branch_id: B9\n    from_scene: S2\n    to_scene: S1\n"
            "    condition_expr: \"lamp == \\\"꺼짐\\\"\"\n    order_no: 2\n# 끝\n") in new
    assert "B2" not in new
    assert yaml.safe_load(new)["story_branches"][-1]["condition_expr"] == 'lamp == "꺼짐"'
    assert _rows(tmp_path, "s.yaml", new)["story_branches"][-1]["order_no"] == "2"


def test_yaml_a_long_value_folded_over_lines_is_replaced_whole(tmp_path):
    text = ("scene_states:\n- scene_id: S1\n  is_ending: Y\n- scene_id: S2\n  is_entry: Y\n"
            "story_branches:\n- branch_id: B1\n  from_scene: S2\n  to_scene: S1\n  condition_expr: 'trust >= 1 and trust\n    <= 5'\n  order_no: 1\n")
    edits = [{"action": "set", "table": "story_branches", "row": "B1", "column": "condition_expr", "value": "trust >= 2"}]
    new, notes = _written(tmp_path, "s.yaml", text, edits)
    assert not notes and '  condition_expr: "trust >= 2"\n  order_no: 1\n' in new and "<= 5" not in new


@pytest.mark.parametrize("text, why", [
    ("scene_states: [{scene_id: S1, is_ending: Y}, {scene_id: S2, is_entry: Y}]\n"
     "story_branches: [{branch_id: B1, from_scene: S2, to_scene: S1}, {branch_id: B2, from_scene: S1, to_scene: S2}]\n", "한 줄로 쓴 목록"),
    ("scene_states:\n- scene_id: S1\n  is_ending: Y\n- scene_id: S2\n  is_entry: Y\nstory_branches:\n"
     "- &first\n  branch_id: B1\n  from_scene: S2\n  to_scene: S1\n- branch_id: B2\n  from_scene: S1\n  to_scene: S2\n", "앵커"),
])
def test_yaml_it_cannot_edit_safely_is_left_with_a_note(tmp_path, text, why):
    edits = EDITS[:2]
    new, notes = _written(tmp_path, "s.yaml", text, edits)
    assert new == text and any(why in n and "손으로 고치세요" in n for n in notes), notes
