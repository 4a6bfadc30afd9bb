"""ChoiceScript importer: a three-scene game written for the test
(``story_choicescript/scenes``) with every construct of the issue and exact rows."""

from __future__ import annotations

import pytest

from storygraph.importers import detect, import_story
from verdicts.korean import is_polite_sentence

from .helpers import HERE, branch_rows, check_invariants, flag_rows, lint_loads, nothing_dropped, scene_rows

GAME = HERE / "story_choicescript"
SCENES = GAME / "scenes"
MARKER = r"^\s*(\*(goto|goto_scene|gosub|gosub_scene|return|finish|ending|gotoref|label)\b|.*#)"


@pytest.fixture(scope="module")
def story():
    return import_story(GAME)


def test_detected_as_choicescript():
    assert detect(GAME) == "choicescript" and detect(SCENES) == "choicescript"
    assert detect(SCENES / "startup.txt") == "choicescript"


def test_scenes(story):
    assert scene_rows(story) == [
        ("startup", True, False, "courage,has_map,path", 1),
        ("startup.after-12", False, False, "", 12),        # the last option goes on after the *choice
        ("startup.north", False, False, "", 26),
        ("startup.after-28", False, False, "courage,name", 28),   # after the *fake_choice
        ("startup.fall-34", False, False, "", 34),         # falling into *else
        ("startup.west", False, False, "", 38),
        ("startup.after-39", False, False, "", 39),        # back from *gosub
        ("startup.after-40", False, False, "", 40),        # back from *gosub_scene
        ("startup.helper", False, False, "", 42),
        ("harbor", False, False, "", 1),
        ("harbor.tide", False, False, "courage,has_map", 3),
        ("finale", False, False, "", 1),
        ("finale.line-4", False, False, "", 4),            # after a *goto: no flow reaches it
        ("finale.cove", False, False, "", 5),
        ("*ending", False, True, "", None),
    ]


def test_branches(story):
    assert branch_rows(story) == [
        ("startup#1", "startup", "startup.north", "choice", "", None, False, 13),
        ("startup#2", "startup", "harbor", "choice", "courage > 60", None, False, 16),        # *if (c) #…, *finish
        ("startup#3", "startup", "finale.cove", "choice", "has_map", None, False, 19),        # *selectable_if, *goto_scene s l
        ("startup#4", "startup", "startup.west", "choice", 'path == "west"', None, False, 22),   # *if block around an option
        ("startup#5", "startup", "startup.after-12", "choice", "", None, True, 24),           # *hide_reuse, the last option
        ("startup.after-12#1", "startup.after-12", "startup.north", "auto", "", None, False, 26),  # ... falls into *label north
        ("startup.north#1", "startup.north", "startup.after-28", "choice", "", None, False, 29),
        ("startup.north#2", "startup.north", "startup.after-28", "choice", "", None, False, 30),
        ("startup.after-28#1", "startup.after-28", "startup.west", "auto", "courage >= 55", None, False, 33),
        ("startup.after-28#2", "startup.after-28", "startup.fall-34", "auto", 'not courage >= 55 and name == "Lee"', None, False, 35),
        ("startup.after-28#3", "startup.after-28", "harbor", "auto", 'not courage >= 55 and not name == "Lee"', None, False, 37),
        ("startup.west#1", "startup.west", "startup.helper", "auto", "", None, False, 39),
        ("startup.after-39#1", "startup.after-39", "harbor.tide", "auto", "", None, False, 40),
        ("startup.after-40#1", "startup.after-40", "*ending", "auto", "", None, False, 41),
        ("startup.helper#1", "startup.helper", "startup.after-39", "auto", "", None, False, 45),   # *return
        ("harbor#1", "harbor", "harbor.tide", "auto", "", None, False, 3),                    # falling into a *label
        ("harbor.tide#1", "harbor.tide", "nowhere", "auto", "not has_map and courage < 10", None, False, 5),
        # (line 7, `*gotoref path`: path is only ever "none" or "north", no label of harbor: an issue)
        ("harbor.tide#2", "harbor.tide", "startup.after-40", "auto", "", None, False, 8),     # *return to the *gosub_scene
        ("finale#1", "finale", "finale.cove", "auto", "", None, False, 2),
        ("finale.line-4#1", "finale.line-4", "finale.cove", "auto", "", None, False, 4),
        ("finale.cove#1", "finale.cove", "*ending", "auto", "", None, False, 6),              # end of the last scene
    ]
    assert [b.source_file.rsplit("/", 1)[-1] for b in story.branches][15:18] == ["harbor.txt"] * 3
    assert not any(b.jump_opaque for b in story.branches)
    assert [b.choice_text for b in story.branches[:5]] == ["Go north.", "Fight the storm.", "Use the map.", "Go west.", "Just sit."]


def test_flags(story):
    assert flag_rows(story) == [
        ("courage", "int", 0, 100, ""),          # fairmath (%+) makes a 0–100 stat
        ("name", "enum", None, None, "Kim"),
        ("has_map", "bool", None, None, ""),
        ("path", "enum", None, None, "none|north"),
        ("found", "bool", None, None, ""),       # *temp
    ]
    flags = {f.flag: f for f in story.flags}
    assert flags["name"].effect_opaque and flags["name"].effect_source.endswith("*input_text name")   # any text
    assert not any(f.undeclared for f in story.flags)
    assert flags["found"].declared_at == [f"{SCENES / 'startup.txt'}:43"] and flags["found"].read_at == []
    assert f"{SCENES / 'harbor.txt'}:6" in flags["name"].read_at   # an *if read wherever it stands


def test_issues(story):
    assert [(i.file.rsplit("/", 1)[-1], i.line) for i in story.issues] == [
        ("startup.txt", 35),  # falling into *else
        ("harbor.txt", 7),    # `*gotoref path`: no label is called "none" or "north", the engine stops there
    ]
    assert '("none", "north")' in story.issues[1].reason


def test_invariants_and_nothing_dropped(story):
    check_invariants(story)
    for name in ("startup", "harbor", "finale"):
        text = (SCENES / f"{name}.txt").read_text(encoding="utf-8")
        lines = [b for b in story.branches if b.source_file.endswith(f"/{name}.txt")]
        sub = type(story)(story.format, story.source, story.scenes, lines,
                          story.flags, [i for i in story.issues if i.file.endswith(f"/{name}.txt")])
        # a *label line with a branch into it, or the start of a scene entered by a jump, counts as covered
        labels = {s.source_line for s in story.scenes if s.source_file and s.source_file.endswith(f"/{name}.txt")}
        sub.issues = sub.issues + [type(story.issues[0])(file="x", line=n, reason="label") for n in labels]
        nothing_dropped(sub, text, MARKER)


def test_lint_loads_the_import(story, tmp_path):
    lint_loads(story, tmp_path)


def test_implicit_control_flow_allows_falling_into_else(tmp_path):
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    (scenes / "startup.txt").write_text(
        "*create implicit_control_flow true\n*create x false\n*if x\n  Yes.\n*else\n  No.\n*ending\n", encoding="utf-8")
    story = import_story(tmp_path)
    assert story.issues == []
    assert [b.to_scene for b in story.branches] == ["*ending"]


def test_missing_startup_is_an_input_error(tmp_path):
    from verdicts.errors import InputError

    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "startup.txt").write_text("*scene_list\n  startup\n  gone\n*finish\n", encoding="utf-8")
    story = import_story(tmp_path)
    assert "gone" in [b.to_scene for b in story.branches]
    assert any("gone.txt" in i.reason for i in story.issues)
    with pytest.raises(InputError):
        import_story(tmp_path / "nothing-here")


def test_an_unreadable_scene_file_says_why(tmp_path):
    (tmp_path / "scenes").mkdir()
    (tmp_path / "scenes" / "startup.txt").write_text("*scene_list\n  startup\n  bad\n*finish\n", encoding="utf-8")
    (tmp_path / "scenes" / "bad.txt").write_bytes(b"\xff\xfe\xff not text\n")
    story = import_story(tmp_path)
    bad = [i for i in story.issues if i.file.endswith("bad.txt")]
    assert [i.reason for i in bad] == [
        "장면 파일을 읽지 못해(UTF-8도 CP949도 아닌 바이트가 있어 읽을 수 없습니다) 이 장면은 옮기지 않았습니다."], story.issues
    assert all(is_polite_sentence(i.reason) for i in bad)


def test_deep_indentation_is_bounded(tmp_path):
    (tmp_path / "startup.txt").write_text("".join(" " * k + "*if true\n" for k in range(300)) + "*ending\n", encoding="utf-8")
    story = import_story(tmp_path / "startup.txt")
    assert any("깊어" in i.reason for i in story.issues)
    check_invariants(story)
