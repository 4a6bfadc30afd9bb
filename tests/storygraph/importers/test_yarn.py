"""Yarn Spinner importer: a dialogue written for the test (``story_yarn.yarn``) with
every construct of the issue and exact rows; entries are configurable."""

from __future__ import annotations

import pytest

from storygraph.importers import detect, import_story

from .helpers import HERE, branch_rows, check_invariants, flag_rows, lint_loads, nothing_dropped, scene_rows

STORY = HERE / "story_yarn.yarn"
MARKER = r"^\s*(->|<<\s*(jump|stop|detour|return)\b)"


@pytest.fixture(scope="module")
def story():
    return import_story(STORY)


def test_detected_as_yarn():
    assert detect(STORY) == "yarn"


def test_scenes(story):
    assert scene_rows(story) == [
        ("Start", True, False, "gold", 1),
        ("Shop", False, False, "", 25),
        ("Helper", False, False, "", 31),
        ("Secret", False, False, "visits.Shop", 36),
        ("Treasure", False, False, "", 45),
        ("Start.after-8", False, False, "heard,visits.Shop", 8),     # after the option group
        ("Shop.after-28", False, False, "", 28),                     # back from <<detour>>
        ("Secret.after-39", False, False, "", 39),
        ("Secret.after-38-if", False, False, "", 38),                # after an <<if>> holding options
        ("Treasure.line-48", False, False, "", 48),                  # after a <<jump>>
        ("(end)", False, True, "", None),
    ]


def test_branches(story):
    assert branch_rows(story) == [
        ("Start#1", "Start", "Shop", "choice", "gold >= 5", None, False, 8),             # -> option <<if>>
        ("Start#2", "Start", "Start.after-8", "choice", "", None, False, 11),            # body without a jump
        ("Start#3", "Start", "(end)", "choice", "", None, False, 14),                    # <<stop>>
        ("Start.after-8#1", "Start.after-8", "Secret", "auto", "visits.Shop > 0 and heard", None, False, 18),
        ("Start.after-8#2", "Start.after-8", "Start", "auto", "", "$name == $gold", False, 20),
        ("Start.after-8#3", "Start.after-8", "(end)", "auto", "", None, False, 23),      # node end = end of dialogue
        ("Shop#1", "Shop", "Helper", "auto", "", None, False, 28),                       # <<detour>>
        ("Shop.after-28#1", "Shop.after-28", "", "auto", "", None, False, 29),           # <<jump {$next}>>: opaque
        ("Helper#1", "Helper", "Shop.after-28", "auto", "", None, False, 34),            # <<return>>, in its place
        ("Secret#1", "Secret", "Treasure", "choice", "visits.Shop > 1", None, False, 39),   # visited_count
        ("Secret#2", "Secret", "Secret.after-39", "choice", "visits.Shop > 1", None, False, 41),
        ("Secret.after-39#1", "Secret.after-39", "Secret.after-38-if", "auto", "", None, False, 38),
        ("Secret#3", "Secret", "Secret.after-38-if", "auto", "not visits.Shop > 1", None, False, 38),
        ("Secret.after-38-if#1", "Secret.after-38-if", "(end)", "auto", "", None, False, 43),
        ("Treasure#1", "Treasure", "Missing", "auto", "", None, False, 47),
        ("Treasure.line-48#1", "Treasure.line-48", "Start", "auto", "", None, False, 48),
    ]
    opaque = story.branches[7]
    assert opaque.jump_opaque and opaque.jump_source == "<<jump {$next}>>"
    assert [b.choice_text for b in story.branches[:3]] == ["Buy a sword", "Ask about rumours", "Leave"]


def test_flags(story):
    assert flag_rows(story) == [
        ("heard", "bool", None, None, ""),
        ("gold", "int", -5, 6, ""),
        ("name", "enum", None, None, "Ann"),
        ("next", "bool", None, None, ""),        # read by the computed jump
        ("visits.Shop", "int", 0, 2, ""),
    ]
    flags = {f.flag: f for f in story.flags}
    assert flags["next"].read_at == [f"{STORY}:29"]
    assert f"{STORY}:8" in flags["gold"].read_at and f"{STORY}:9" not in flags["gold"].read_at   # $gold - 5 is a step


def test_issues(story):
    # a variable compared with a variable is an opaque condition in the tables, no issue
    assert story.issues == []
    assert [(b.source_line, b.condition_source) for b in story.branches if b.condition_opaque] == [(20, "$name == $gold")]


def test_invariants_and_nothing_dropped(story):
    check_invariants(story)
    nothing_dropped(story, STORY.read_text(encoding="utf-8"), MARKER)


def test_lint_loads_the_import(story, tmp_path):
    lint_loads(story, tmp_path)


def test_entries_are_configurable(tmp_path):
    path = tmp_path / "t.yarn"
    path.write_text("title: A\n---\n<<jump B>>\n===\ntitle: B\n---\nHi.\n===\ntitle: C\n---\nLost.\n===\n", encoding="utf-8")
    assert [s.scene_id for s in import_story(path).scenes if s.is_entry] == ["A", "C"]
    assert [s.scene_id for s in import_story(path, entries="B").scenes if s.is_entry] == ["B"]
    story = import_story(path, entries="Nope")
    assert not any(s.is_entry for s in story.scenes) and story.issues


def test_deep_nesting_is_bounded(tmp_path):
    body = "".join(" " * (2 * k) + f"-> o{k}\n" for k in range(200))
    path = tmp_path / "deep.yarn"
    path.write_text("title: A\n---\n" + body + "===\n", encoding="utf-8")
    story = import_story(path)
    assert any("깊어" in i.reason or "깊게" in i.reason for i in story.issues)
    check_invariants(story)
