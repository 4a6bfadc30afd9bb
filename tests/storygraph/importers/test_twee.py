"""Twine / Twee 3 importer: a Harlowe and a SugarCube story written for the test, with
every construct of the issue, exact rows, and the ending tag option."""

from __future__ import annotations

import pytest

from storygraph.importers import detect, import_story

from .helpers import HERE, branch_rows, check_invariants, flag_rows, lint_loads, nothing_dropped, scene_rows

HARLOWE = HERE / "story_harlowe.twee"
SUGARCUBE = HERE / "story_sugarcube.twee"
# a line with a way on: a [[link]], a link or go-to macro, <<link>>, <<goto>>, <<back>>, <<return>>
# (an <<include>> or (display:) adds the included passage's links, at their own lines)
MARKER = r"\[\[|\((link|click|go-?to)[\w-]*:|<<(link|button|goto|back|return)\b"


def test_detected_as_twee():
    assert detect(HARLOWE) == "twee" and detect(SUGARCUBE) == "twee"


def test_harlowe_scenes_and_branches():
    story = import_story(HARLOWE)
    assert scene_rows(story) == [
        ("Dock", True, False, "coins,mood,visits.Map", 13),
        ("Ship", False, True, "", 22),        # tag ending
        ("Market", False, False, "visits.Market", 25),
        ("Map", False, False, "", 31),
        ("Tavern", False, False, "dest", 35),
        ("Alley", False, True, "", 39),       # no way on: an ending
        ("Sign", False, False, "", 42),
    ]
    assert branch_rows(story) == [
        ("Dock#1", "Dock", "Ship", "choice", "", None, False, 15),       # [[Text->Target]]
        ("Dock#2", "Dock", "Market", "choice", "", None, False, 16),     # [[Target<-Text]]
        ("Dock#3", "Dock", "Tavern", "choice", "", None, False, 17),     # [[Target]]
        ("Dock#4", "Dock", "Map", "choice", "coins >= 3", None, False, 18),                      # (if:) [[Text|Target]]
        ("Dock#5", "Dock", "Alley", "choice", 'not coins >= 3 and mood == "angry"', None, False, 18),   # (else-if:) (link-goto:)
        ("Dock#6", "Dock", "Dock", "choice", 'not coins >= 3 and not mood == "angry"', None, False, 18),  # (else:) (link:)[(go-to:)]
        ("Dock#7", "Dock", "Sign", "choice", "not visits.Map > 0", None, False, 19),             # (unless: (history:) contains)
        ("Market#1", "Market", "Alley", "auto", "visits.Market > 2", None, False, 27),           # (go-to:) outside a link
        ("Market#2", "Market", "Dock", "choice", "", None, False, 28),                            # (link-goto: "Dock")
        ("Market#3", "Market", "Nowhere", "choice", "", None, False, 29),
        ("Map#1", "Map", "Dock", "choice", "", "$coins > $mood", False, 32),                     # variable against variable
        ("Map#2", "Map", "Dock", "choice", "", None, False, 43),                                  # (display: "Sign"): its link
        ("Tavern#1", "Tavern", "", "auto", "", None, False, 37),                                  # "Room " + $n: an opaque jump
        ("Tavern#2", "Tavern", "Alley", "choice", 'dest == "Alley"', None, False, 36),           # computed, expanded
        ("Sign#1", "Sign", "Dock", "choice", "", None, False, 43),
    ]
    assert [(b.branch_id, b.jump_source) for b in story.branches if b.jump_opaque] == [("Tavern#1", '(go-to: "Room " + $n)')]
    assert [b.choice_text for b in story.branches[:7]] == ["Board the ship", "Go to market", "Tavern", "Buy a map", "Storm off",
                                                           "Wait", "the sign"]
    assert flag_rows(story) == [
        ("coins", "int", 0, 4, ""), ("mood", "enum", None, None, "calm|angry"), ("dest", "enum", None, None, "Alley"),
        ("n", "bool", None, None, ""), ("visits.Map", "int", 0, 1, ""), ("visits.Market", "int", 0, 3, "")]
    flags = {f.flag: f for f in story.flags}
    where = str(HARLOWE) + ":"
    assert flags["coins"].declared_at == [where + "8"] and flags["coins"].written_at == [where + "20"]   # startup: declared
    assert flags["coins"].read_at == [where + "18", where + "32"] and flags["n"].read_at == [where + "37"]
    assert [i.line for i in story.issues] == [11]   # the header's link (an opaque condition is no issue)
    assert [b.source_line for b in story.branches if b.condition_opaque] == [32]
    check_invariants(story)
    nothing_dropped(story, HARLOWE.read_text(encoding="utf-8"), MARKER)


def test_sugarcube_scenes_and_branches():
    story = import_story(SUGARCUBE)
    assert scene_rows(story) == [
        ("Start", True, False, "blessed,class,gold,next,visits.Temple", 10),
        ("Shop", False, True, "", 20), ("Beg", False, False, "", 22), ("Temple", False, False, "", 25),
        ("Arena", False, True, "", 28), ("Forest", False, True, "", 30), ("Casino", False, True, "", 32),
        ("Inn", False, False, "class,gold", 35),
    ]
    assert branch_rows(story) == [
        ("Start#1", "Start", "Beg", "auto", 'not gold >= 5 and not class == "thief"', None, False, 11),   # <<else>><<goto>>, first
        ("Start#2", "Start", "Shop", "choice", "gold >= 5", None, False, 11),                              # <<if>> gte
        ("Start#3", "Start", "Shop", "choice", 'not gold >= 5 and class == "thief"', None, False, 11),     # <<link "t" "p">>
        ("Start#4", "Start", "Temple", "choice", "", None, False, 12),                                      # <<link>><<goto>>
        ("Start#5", "Start", "Arena", "choice", 'class == "knight" or class == "paladin"', None, False, 13),   # <<case>>
        ("Start#6", "Start", "Forest", "choice", 'not (class == "knight" or class == "paladin")', None, False, 13),  # <<default>>
        ("Start#7", "Start", "Temple", "choice", "visits.Temple != 0 and not blessed", None, False, 14),   # visited()
        ("Start#8", "Start", "Casino", "choice", "", None, False, 15),                                      # <<link [[t|p]]>>
        ("Start#9", "Start", "Forest", "choice", 'next == "Forest"', None, False, 16),                      # [[t|$var]]
        ("Start#10", "Start", "Inn", "choice", "", None, False, 17),                                        # setter link
        ("Start#11", "Start", "Start", "choice", "", None, False, 26),                                      # <<include "Temple">>: its link
        ("Beg#1", "Beg", "Start", "auto", "", None, False, 23),                                             # <<goto [[p]]>>
        ("Temple#1", "Temple", "Start", "choice", "", None, False, 26),
        ("Inn#1", "Inn", "Start", "choice", 'gold < 0 or class == "mage"', None, False, 36),
    ]
    assert flag_rows(story) == [
        ("gold", "int", -1, 6, ""), ("class", "enum", None, None, "knight"), ("next", "enum", None, None, "Forest"),
        ("blessed", "bool", None, None, ""), ("visits.Temple", "int", 0, 1, "")]
    assert [i.line for i in story.issues] == [8]   # footer link
    assert "지나온 패시지로 되돌아가는" in story.accounted[(str(SUGARCUBE), 33)]   # <<back>> adds no way
    check_invariants(story)
    nothing_dropped(story, SUGARCUBE.read_text(encoding="utf-8"), MARKER, skip=r"<<back>>")   # accounted, above


@pytest.mark.parametrize("path", [HARLOWE, SUGARCUBE], ids=["harlowe", "sugarcube"])
def test_every_construct_line_is_accounted_for(path):
    """The import self-check: every passage header and link line the line scanner finds
    is a scene, a branch, an issue or a line accounted for on purpose."""
    from storygraph.importers.selfcheck import import_check

    story = import_story(path)
    assert story.constructs and import_check(story).passed, import_check(story).failed_targets


@pytest.mark.parametrize("path", [HARLOWE, SUGARCUBE], ids=["harlowe", "sugarcube"])
def test_lint_loads_the_import(path, tmp_path):
    lint_loads(import_story(path), tmp_path)


def test_ending_tag_is_configurable(tmp_path):
    path = tmp_path / "t.twee"
    path.write_text(":: Start\n[[Fin]]\n\n:: Fin [fin]\n[[Start]]\n", encoding="utf-8")
    assert [s.is_ending for s in import_story(path).scenes] == [False, False]
    assert [s.is_ending for s in import_story(path, ending_tag="fin").scenes] == [False, True]


def test_unknown_variable_target_is_an_opaque_jump(tmp_path):
    path = tmp_path / "t.twee"
    path.write_text(':: StoryData\n{"format": "SugarCube", "start": "A"}\n\n:: A\n<<goto $where>>\n', encoding="utf-8")
    story = import_story(path)
    assert [(b.to_scene, b.jump_opaque, b.jump_source, b.source_line) for b in story.branches] == [
        ("", True, "<<goto $where>>", 5)]
    assert story.issues == []


def test_deep_hooks_are_bounded(tmp_path):
    path = tmp_path / "deep.twee"
    path.write_text(":: Start\n" + "(if: $a)[" * 500 + "[[B]]" + "]" * 500 + "\n\n:: B\n", encoding="utf-8")
    story = import_story(path)
    assert any("깊게" in i.reason for i in story.issues)
    check_invariants(story)


def test_include_adds_the_included_links_under_its_conditions(tmp_path):
    path = tmp_path / "t.twee"
    path.write_text(':: StoryData\n{"format": "SugarCube", "start": "A"}\n\n'
                    ':: A\n<<if $x>><<include "Menu">><</if>>\n<<include "Loop">>\n<<include "Gone">>\n\n'
                    ':: Menu\n[[B]]\n<<goto "C">>\n\n:: Loop\n<<include "Loop">>\n\n:: B\n\n:: C\n', encoding="utf-8")
    story = import_story(path)
    assert [(b.branch_id, b.to_scene, b.kind, b.condition_expr, b.source_line) for b in story.branches] == [
        ("A#1", "C", "auto", "x", 11), ("A#2", "B", "choice", "x", 10)]
    assert [i.line for i in story.issues] == [14, 7]   # Loop includes itself; Gone does not exist
    check_invariants(story)
