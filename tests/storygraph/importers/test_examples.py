"""The bundled examples of each format: they import, they are 10–30 scenes, the
tables load in the linter, and the defects their READMEs describe are there, at their
lines."""

from __future__ import annotations

import json

import pytest

from storygraph.importers import import_story

from ...conftest import EXAMPLES
from .helpers import branch_rows, check_invariants, lint_loads

CASES = {
    "ink": EXAMPLES / "ink" / "lighthouse.ink",
    "twine": EXAMPLES / "twine" / "market.twee",
    "choicescript": EXAMPLES / "choicescript",
    "yarn": EXAMPLES / "yarn" / "ferry.yarn",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_example_imports_and_loads(name, tmp_path):
    story = import_story(CASES[name])
    assert 10 <= len(story.scenes) <= 30
    check_invariants(story)
    report = json.loads(lint_loads(story, tmp_path).stdout)
    verdicts = {c["verdict"] for c in report["cards"]}
    assert verdicts - {"끝까지 닿음"}, "each example holds at least one real defect"


def test_ink_example_holds_the_gather_divert_bug_at_its_lines():
    story = import_story(CASES["ink"])
    rows = [r for r in branch_rows(story) if r[1] == "keeper.gather-40"]
    assert rows == [
        ("keeper.gather-40#1", "keeper.gather-40", "stairs", "auto", "", None, False, 40),
        ("keeper.gather-40#2", "keeper.gather-40", "stairs", "choice", "", None, True, 41),
        ("keeper.gather-40#3", "keeper.gather-40", "dock", "choice", "", None, True, 44),
    ]
    text = CASES["ink"].read_text(encoding="utf-8").split("\n")
    assert text[39].startswith("- ") and text[39].endswith("-> stairs")
    assert "**40**" in (EXAMPLES / "ink" / "README.md").read_text(encoding="utf-8")


def test_ink_example_other_defects():
    story = import_story(CASES["ink"])
    scenes = {s.scene_id for s in story.scenes}
    assert ("lamp_room#3", "secrets") in [(b.branch_id, b.to_scene) for b in story.branches] and "secrets" not in scenes
    assert [i.line for i in story.issues] == [92]   # the island's loose end


def test_twine_example_defects(tmp_path):
    story = import_story(CASES["twine"])
    report = json.loads(lint_loads(story, tmp_path).stdout)
    unreached = {c["target_no"] for c in report["cards"] if c["verdict"] == "어디서도 안 닿음"}
    assert "잃어버린 지갑" in unreached
    flags = {f.flag: f for f in story.flags}
    assert (flags["돈"].min_value, flags["돈"].max_value) == (0, 3)   # starts at 3, only goes down: 5 is out of reach
    assert flags["날씨"].values == ["맑음", "흐림"]
    assert [b.condition_expr for b in story.branches if b.source_line in (19, 38)] == ["돈 >= 5", '날씨 == "폭우"']


def test_choicescript_example_defects():
    story = import_story(CASES["choicescript"])
    assert [(i.file.rsplit("/", 1)[-1], i.line) for i in story.issues] == [("forest.txt", 17)]
    assert "cabin.windows" in {b.to_scene for b in story.branches}
    assert 'companion == "wolf"' in {b.condition_expr for b in story.branches}


def test_yarn_example_defects():
    story = import_story(CASES["yarn"])
    assert ("SmallBoat", "Iland", 67) in {(b.from_scene, b.to_scene, b.source_line) for b in story.branches}
    assert 'mood == "angry"' in {b.condition_expr for b in story.branches}
