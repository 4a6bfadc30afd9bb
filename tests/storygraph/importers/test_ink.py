"""ink (.ink) importer, read by ink's own compiler (inkjs on Node.js): one small story per
construct that the hand-written parser got wrong, the story written for the test
(``story_ink.ink``), the known bug pattern, compiler errors, and hostile input.  Every
test runs the real compiler."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from storygraph.importers import detect, import_story
from storygraph.importers.selfcheck import import_check

from .helpers import HERE, import_written, branch_rows, check_invariants, flag_rows, lint_loads, nothing_dropped, scene_rows

STORY = HERE / "story_ink.ink"


def ink(tmp_path: Path, text: str, name: str = "story.ink"):
    """Import ``text`` as an .ink file; the invariants and the import self-check hold."""
    return import_written(tmp_path / name, text)


def rows(story, scene: str) -> list[tuple]:
    """(to_scene, kind, condition_expr, opaque source or None, once_only, source_line) of one scene's branches."""
    return [r[2:] for r in branch_rows(story) if r[1] == scene]


def flags(story) -> dict:
    return {f.flag: f for f in story.flags}


def at(story, places: list[str]) -> list[int]:
    return [int(p.rsplit(":", 1)[1]) for p in places]


@pytest.fixture(scope="module")
def story():
    return import_story(STORY)


def test_detected_as_ink():
    assert detect(STORY) == "ink"


# -- the constructs the hand-written parser got wrong, one story each


def test_ref_parameter_writes_are_writes_of_the_callers_variable(tmp_path):
    story = ink(tmp_path, """\
VAR trust = 0
-> start
=== function raise(ref x) ===
~ x = x + 1
=== start ===
~ raise(trust)
~ raise(trust)
* {trust >= 2} [Trusted] -> END
* [Not yet] -> END
""")
    trust = flags(story)["trust"]
    # raised through the ref parameter: not the range 0-0 that made `trust >= 2` unsatisfiable
    assert (trust.type, trust.min_value, trust.max_value) == ("int", 0, 3)
    assert at(story, trust.written_at) == [6, 7]   # the calls: where the caller's variable changes
    assert "x" not in flags(story)                 # the parameter is no flag
    assert rows(story, "start")[0] == ("END", "choice", "trust >= 2", None, True, 8)


def test_const_names_in_assignments_are_substituted(tmp_path):
    story = ink(tmp_path, """\
VAR gold = 0
VAR mood = "calm"
CONST BONUS = 5
CONST ANGRY = "angry"
-> shop
=== shop ===
~ gold = gold + BONUS
~ mood = ANGRY
* {gold >= BONUS and mood == ANGRY} [Buy] -> END
* [Leave] -> END
""")
    f = flags(story)
    assert (f["gold"].min_value, f["gold"].max_value) == (0, 6)   # a step of 5 (one past the 5 it is compared with)
    assert f["mood"].values == ["calm", "angry"]
    assert not f["gold"].effect_opaque and not f["mood"].effect_opaque
    assert "BONUS" not in f and "ANGRY" not in f
    assert rows(story, "shop")[0][2] == 'gold >= 5 and mood == "angry"'


def test_parameters_and_temporaries_are_not_story_flags(tmp_path):
    story = ink(tmp_path, """\
VAR coins = 1
-> room(2)
=== room(size) ===
~ temp left = size - coins
{left > 0: Room to spare.}
* {size > 1} [Big room] -> END
* [Leave] -> END
""")
    assert [f.flag for f in story.flags] == ["coins"]
    big = rows(story, "room")[0]
    assert big[:2] == ("END", "choice") and big[3] == "size > 1"   # a parameter: opaque, not a flag
    # written as "may or may not hold", with the condition as written (no issue: issue 28)
    assert [(b.source_line, b.condition_opaque, b.condition_source) for b in story.branches if b.condition_opaque] == [
        (6, True, "size > 1")]


def test_else_after_choices_inside_a_conditional_is_its_own_case(tmp_path):
    story = ink(tmp_path, """\
VAR met = false
-> hub
=== hub ===
{met:
  * [Talk again] -> talk
- else:
  * [Say hello] -> talk
}
=== talk ===
~ met = true
-> END
""")
    assert rows(story, "hub") == [("talk", "choice", "met", None, True, 5),
                                  ("talk", "choice", "not met", None, True, 7)]


def test_condition_of_a_conditional_tunnel_call_is_kept(tmp_path):
    story = ink(tmp_path, """\
VAR gold = 0
-> hub
=== hub ===
{gold > 2: -> shop ->}
* [Leave] -> END
=== shop ===
~ gold = gold - 1
->->
""")
    assert rows(story, "hub") == [("shop", "auto", "gold > 2", None, False, 4),
                                  ("END", "choice", "", None, True, 5)]
    assert rows(story, "hub.after-4") == [("END", "choice", "", None, True, 5)]
    assert rows(story, "shop") == [("hub.after-4", "auto", "", None, False, 8)]


def test_fall_through_of_a_conditional_tunnel_then_divert(tmp_path):
    story = ink(tmp_path, """\
VAR rich = false
-> hub
=== hub ===
{rich: -> bank -> vault}
Nothing here.
-> street
=== bank ===
->->
=== vault ===
-> END
=== street ===
-> END
""")
    # when rich is false the flow falls past the conditional: street is reached from hub
    assert rows(story, "hub") == [("bank", "auto", "rich", None, False, 4),
                                  ("street", "auto", "", None, False, 6)]
    assert rows(story, "hub.after-4") == [("vault", "auto", "", None, False, 4)]
    assert rows(story, "bank") == [("hub.after-4", "auto", "", None, False, 8)]


def test_conditional_tunnel_return_keeps_its_condition_and_is_no_choice(tmp_path):
    story = ink(tmp_path, """\
VAR tired = false
-> hub
=== hub ===
-> rest ->
-> END
=== rest ===
{tired: ->->}
~ tired = true
->->
""")
    assert rows(story, "rest") == [("hub.after-4", "auto", "tired", None, False, 7),
                                   ("hub.after-4", "auto", "", None, False, 9)]
    assert all(b.kind == "auto" for b in story.branches if b.from_scene == "rest")


def test_glue_after_a_closing_brace_keeps_the_stitches_after_it(tmp_path):
    story = ink(tmp_path, """\
VAR met = false
-> room
=== room ===
{met: Hello}<>
friend.
-> room.inner
= inner
Inside.
-> room.far
= far
-> END
""")
    assert [s.scene_id for s in story.scenes if s.scene_id.startswith("room")] == ["room", "room.inner", "room.far"]
    assert rows(story, "room") == [("room.inner", "auto", "", None, False, 6)]
    assert rows(story, "room.inner") == [("room.far", "auto", "", None, False, 9)]


def test_a_stray_closing_brace_that_stops_the_compiler_is_said_not_swallowed(tmp_path):
    # the compiler stops reading at a line no statement reads, without an error of its own
    story = ink(tmp_path, "-> a\n}<>\n=== a ===\nHello\n-> END\n")
    assert [(i.line, i.reason) for i in story.issues] == [
        (2, "ink 컴파일러가 이 줄의 `}<>`를 읽지 못하고 멈춰, 이 줄부터 파일 끝까지는 이야기에 들어가지 않았습니다."),
        (3, "이 줄의 장면은 앞서 알린 문제(ink 컴파일러의 오류, 너무 깊은 중첩, 한도) 때문에 표로 옮기지 못했습니다."),
        (5, "이 줄의 선택지나 화살표는 앞서 알린 문제(ink 컴파일러의 오류, 너무 깊은 중첩, 한도) 때문에 표로 옮기지 못했습니다."),
    ]


def test_thread_folds_its_choices_into_the_menu_and_done_is_no_ending(tmp_path):
    story = ink(tmp_path, """\
VAR met = false
-> hub
=== hub ===
<- options
-> DONE
= options
* [Look around] -> room
* {met} [Wave] -> room
=== room ===
~ met = true
-> END
""")
    assert rows(story, "hub") == [
        ("room", "choice", "", None, True, 4),
        ("room", "choice", "met", None, True, 4),
        ("hub.options", "choice", "", None, True, 4),   # the thread's knot is run from here
    ]
    # where the thread's content ends, the thread ends: back to the menu that ran it
    assert rows(story, "hub.options") == [("room", "choice", "", None, True, 7),
                                          ("room", "choice", "met", None, True, 8),
                                          ("hub", "choice", "", None, False, 8)]
    assert "DONE" not in {b.to_scene for b in story.branches}   # no dead end, no ending
    assert (str(tmp_path / "story.ink"), 5) in story.accounted


def test_divert_target_parameters_are_values_not_knot_names(tmp_path):
    story = ink(tmp_path, """\
-> start
=== start ===
-> visit(-> finale)
=== visit(-> next) ===
* [Go on] -> next
* [Back] -> start
=== finale ===
-> END
""")
    assert rows(story, "start") == [("visit", "auto", "", None, False, 3)]
    assert rows(story, "visit.choice-5") == [("finale", "auto", "", None, False, 5)]
    assert "next" not in {s.scene_id for s in story.scenes} | {b.to_scene for b in story.branches}


def test_variables_read_in_text_choices_and_functions_are_reads(tmp_path):
    story = ink(tmp_path, """\
VAR shown = 0
VAR picked = 0
VAR computed = 0
VAR unused = 1
-> go
=== function twice() ===
~ return computed * 2
=== go ===
You have {shown} coins and {twice()} gems.
* [Pick {picked}] -> END
""")
    f = flags(story)
    assert at(story, f["shown"].read_at) == [9]
    assert at(story, f["picked"].read_at) == [10]
    assert at(story, f["computed"].read_at) == [7]
    assert f["unused"].read_at == []


# -- other constructs


def test_variable_divert_goes_to_every_literal_target(tmp_path):
    story = ink(tmp_path, """\
VAR dest = -> left
-> hub
=== hub ===
* [Turn] 
  ~ dest = -> right
  -> hub
* [Go] -> dest
=== left ===
-> END
=== right ===
-> END
""")
    assert rows(story, "hub.choice-7") == [("left", "auto", 'dest == "left"', None, False, 7),
                                           ("right", "auto", 'dest == "right"', None, False, 7)]
    assert flags(story)["dest"].values == ["left", "right"]


def test_variable_divert_through_a_computed_value_is_an_opaque_jump(tmp_path):
    story = ink(tmp_path, """\
VAR dest = -> left
-> hub
=== function pick() ===
~ return -> right
=== hub ===
~ dest = pick()
-> dest
=== left ===
-> END
=== right ===
-> END
""")
    jump = next(b for b in story.branches if b.from_scene == "hub")
    assert (jump.to_scene, jump.jump_opaque, jump.jump_source, jump.source_line) == ("", True, "-> dest", 7)
    assert flags(story)["dest"].effect_opaque


def test_knot_goes_on_to_its_first_stitch_and_invisible_default_is_a_fallback(tmp_path):
    story = ink(tmp_path, """\
-> inn
=== inn ===
= door
* -> END
* [Knock] -> inn.hall
= hall
-> END
""")
    assert rows(story, "inn") == [("inn.door", "auto", "", None, False, 2)]
    assert rows(story, "inn.door") == [("inn.hall", "choice", "", None, True, 5),
                                       ("END", "auto", "", None, False, 4)]   # after the choices


def test_tunnel_return_without_a_caller_is_an_issue(tmp_path):
    story = ink(tmp_path, "-> a\n=== a ===\n-> END\n=== b ===\n->->\n")
    assert [(i.line, i.reason) for i in story.issues] == [
        (5, "터널에서 돌아가는 화살표가 있지만 이 터널을 부르는 곳이 없어 돌아갈 장면을 정하지 못했습니다.")]


def test_compiler_error_is_an_input_issue_with_its_file_and_line(tmp_path):
    story = ink(tmp_path, """\
-> a
=== a ===
~ x = 
* [Go] -> END
""")
    issue = next(i for i in story.issues if i.line == 3)
    assert issue.file == str(tmp_path / "story.ink")
    assert issue.reason.startswith("ink 컴파일러가 이 줄에 오류(`") and issue.reason.endswith(")를 냈습니다.")
    assert ("a#1", "a", "END", "choice", "", None, True, 4) in branch_rows(story)   # the rest is still read


def test_missing_divert_target_is_a_branch_to_a_missing_scene_not_an_issue(tmp_path):
    story = ink(tmp_path, "-> a\n=== a ===\n* [Go] -> nowhere\n")
    assert rows(story, "a") == [("nowhere", "choice", "", None, True, 3)]
    assert story.issues == []


def test_undeclared_variable_is_marked_not_repeated_as_an_issue(tmp_path):
    story = ink(tmp_path, "-> a\n=== a ===\n* {gold > 1} [Rich] -> END\n* [Poor] -> END\n")
    assert flags(story)["gold"].undeclared
    assert story.issues == []


# -- the story written for the test


def test_story_scenes(story):
    assert scene_rows(story) == [
        ("(top)", True, False, "", 1),
        ("harbor", False, False, "has_key,mood,trust", 11),
        ("harbor.ask", False, False, "", 18),              # labelled choice
        ("harbor.gather-23", False, False, "", 23),        # unlabelled gather (level 2)
        ("harbor.dusk", False, False, "trust", 25),        # labelled gather
        ("keeper", False, False, "", 31),
        ("keeper.talk", False, False, "mood,next_room,visits.keeper", 33),   # stitch
        ("keeper.talk.after-42", False, False, "next_room", 42),   # after the tunnel call
        ("keeper.farewell", False, False, "visits.harbor.dusk", 45),
        ("chat", False, False, "visits.harbor.dusk", 49),
        ("chat.choice-51", False, False, "", 51),          # choice body with two ways on
        ("storm", False, False, "", 54),
        ("gate", False, False, "", 58),
        ("cellar", False, False, "", 62),
        ("cellar.choice-64", False, False, "", 64),        # a loose end
        ("DONE", False, True, "", None),
        ("END", False, True, "", None),
    ]


def test_story_branches(story):
    assert branch_rows(story) == [
        ("(top)#1", "(top)", "harbor", "auto", "", None, False, 9),
        ("harbor#1", "harbor", "keeper", "choice", "", None, True, 13),
        ("harbor#2", "harbor", "gate", "choice", "has_key and trust >= 2", None, True, 14),   # CONST substituted
        ("harbor#3", "harbor", "harbor", "choice", 'mood == "angry"', None, False, 15),      # sticky +
        ("harbor#4", "harbor", "harbor.ask", "choice", "", None, True, 18),
        ("harbor#5", "harbor", "harbor.dusk", "choice", "", None, True, 24),                 # falls to the gather
        ("harbor.ask#1", "harbor.ask", "keeper.talk", "choice", "", None, True, 20),
        ("harbor.ask#2", "harbor.ask", "harbor.gather-23", "choice", "", None, True, 21),
        ("harbor.gather-23#1", "harbor.gather-23", "harbor", "auto", "", None, False, 23),
        ("harbor.dusk#1", "harbor.dusk", "gate", "auto", "trust > 1", None, False, 26),
        ("harbor.dusk#2", "harbor.dusk", "keeper", "auto", "not trust > 1", None, False, 26),
        ("harbor.dusk#3", "harbor.dusk", "gate", "choice", "", None, True, 27),              # after the divert
        ("harbor.dusk#4", "harbor.dusk", "keeper", "choice", "", None, True, 28),
        ("harbor.dusk#5", "harbor.dusk", "END", "auto", "", None, False, 29),                # invisible default
        ("keeper#1", "keeper", "keeper.talk", "auto", "", None, False, 32),
        # the shuffle always diverts: what follows in the stitch is written after it, in order
        ("keeper.talk#1", "keeper.talk", "harbor", "auto", "", "{~-> harbor|-> gate}", False, 34),
        ("keeper.talk#2", "keeper.talk", "gate", "auto", "", "{~-> harbor|-> gate}", False, 34),
        ("keeper.talk#3", "keeper.talk", "gate", "auto", "visits.keeper > 1", None, False, 36),
        ("keeper.talk#4", "keeper.talk", "harbor", "auto", 'mood == "calm"', None, False, 41),
        ("keeper.talk#5", "keeper.talk", "storm", "auto", 'not mood == "calm"', None, False, 42),
        ("keeper.talk#6", "keeper.talk", "cellar", "auto", 'next_room == "cellar"', None, False, 44),
        ("keeper.talk.after-42#1", "keeper.talk.after-42", "cellar", "auto", 'next_room == "cellar"', None, False, 44),
        ("keeper.farewell#1", "keeper.farewell", "harbor", "choice", "", "RANDOM(1, 6) > 3", True, 46),   # folded
        ("keeper.farewell#2", "keeper.farewell", "chat.choice-51", "choice", "visits.harbor.dusk != 0", None, True, 46),
        # the thread's knot is run from here: offered when one of its choices is
        ("keeper.farewell#3", "keeper.farewell", "chat", "choice", "", "(RANDOM(1, 6) > 3) or (harbor.dusk)", True, 46),
        ("chat#1", "chat", "harbor", "choice", "", "RANDOM(1, 6) > 3", True, 50),
        ("chat#2", "chat", "chat.choice-51", "choice", "visits.harbor.dusk != 0", None, True, 51),
        ("chat#3", "chat", "keeper.farewell", "choice", "", None, False, 51),   # the thread ends: back
        ("chat.choice-51#1", "chat.choice-51", "gate", "auto", "", None, False, 51),
        ("chat.choice-51#2", "chat.choice-51", "DONE", "auto", "", None, False, 52),
        ("storm#1", "storm", "keeper.talk.after-42", "auto", "", None, False, 56),           # tunnel return
        ("gate#1", "gate", "END", "auto", "", None, False, 60),
        ("cellar#1", "cellar", "cellar.choice-64", "choice", "", None, True, 64),
    ]


def test_story_flags(story):
    assert flag_rows(story) == [
        ("trust", "int", -1, 3, ""),            # 0 declared, ++ and - 1 seen, compared with 1 and LIMIT 2
        ("has_key", "bool", None, None, ""),
        ("mood", "enum", None, None, "calm|angry"),
        ("next_room", "enum", None, None, "cellar"),   # a divert target variable
        ("visits.keeper", "int", 0, 2, ""),
        ("visits.harbor.dusk", "int", 0, 1, ""),
    ]


def test_story_issues(story):
    assert [(i.line, i.reason.split(" ")[0]) for i in story.issues] == [
        (8, "이"), (64, "흐름이"), (7, "LIST")]   # line 8: INCLUDE of a missing file
    assert all(i.file == str(STORY) for i in story.issues)
    # randomness is no problem of the story: those branches "may or may not" be taken (issue 28)
    assert [(b.source_line, b.condition_source) for b in story.branches if b.condition_opaque] == [
        (34, "{~-> harbor|-> gate}"), (34, "{~-> harbor|-> gate}"), (46, "RANDOM(1, 6) > 3"),
        (46, "(RANDOM(1, 6) > 3) or (harbor.dusk)"), (50, "RANDOM(1, 6) > 3")]
    assert next(i.reason for i in story.issues if i.line == 8) == (
        "이 줄이 불러오는 파일(`other.ink`)은 없어 읽지 않았으므로, 그 파일의 장면은 옮기지 않았습니다.")


def test_story_invariants_and_nothing_dropped(story):
    check_invariants(story)
    text = STORY.read_text(encoding="utf-8")
    nothing_dropped(story, text, r"->|<-|^\s*[*+]", skip=r"^\s*(VAR|CONST)\b|^\s*//")
    assert import_check(story).passed


def test_once_only_follows_the_bullet(story):
    by_id = {b.branch_id: b for b in story.branches}
    assert by_id["harbor#1"].once_only and not by_id["harbor#3"].once_only


def test_lint_loads_the_import(story, tmp_path):
    report = json.loads(lint_loads(story, tmp_path).stdout)
    assert report["cards"]


# -- the known bug pattern: choices after a gather divert can never appear

BUG = """\
-> market
=== market ===
* [Buy bread] -> bakery
* [Leave]
- -> square
* [Haggle] -> bakery
* [Steal] -> jail
=== bakery ===
-> END
=== square ===
-> END
=== jail ===
-> END
"""


def test_choices_after_a_gather_divert_come_after_an_unconditional_auto(tmp_path):
    story = ink(tmp_path, BUG, "bug.ink")
    assert rows(story, "market.gather-5") == [
        ("square", "auto", "", None, False, 5),
        ("bakery", "choice", "", None, True, 6),
        ("jail", "choice", "", None, True, 7),
    ]


# -- INCLUDE: followed relative to the main file, each line at its own place; bounded


def test_include_is_followed_with_its_own_file_and_lines(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "main.ink").write_text("INCLUDE parts/rooms.ink\nVAR gold = 0\n-> hall\n", encoding="utf-8")
    (tmp_path / "parts" / "rooms.ink").write_text(
        "INCLUDE parts/more.ink\n=== hall ===\n* {gold > 1} [Vault] -> vault\n* [Wait]\n- -> END\n", encoding="utf-8")
    (tmp_path / "parts" / "more.ink").write_text("=== vault ===\n-> END\n", encoding="utf-8")
    story = import_story(tmp_path / "main.ink")
    main, rooms, more = (str(tmp_path / "main.ink"), str(tmp_path / "parts" / "rooms.ink"),
                         str(tmp_path / "parts" / "more.ink"))
    assert [(s.scene_id, s.source_file, s.source_line) for s in story.scenes] == [
        ("(top)", main, 1), ("hall", rooms, 2), ("hall.gather-5", rooms, 5), ("vault", more, 1), ("END", None, None)]
    assert [(b.branch_id, b.to_scene, b.source_file, b.source_line) for b in story.branches] == [
        ("(top)#1", "hall", main, 3), ("hall#1", "vault", rooms, 3), ("hall#2", "hall.gather-5", rooms, 4),
        ("hall.gather-5#1", "END", rooms, 5), ("vault#1", "END", more, 2)]
    assert story.issues == []
    assert import_check(story).passed


def test_include_cycle_outside_and_not_a_file_are_refused_at_the_include_line(tmp_path):
    (tmp_path / "story").mkdir()
    (tmp_path / "secret.ink").write_text("=== secret ===\n-> END\n", encoding="utf-8")
    os.mkfifo(tmp_path / "story" / "pipe.ink")
    (tmp_path / "story" / "main.ink").write_text(
        "INCLUDE ../secret.ink\nINCLUDE pipe.ink\nINCLUDE main.ink\n-> END\n", encoding="utf-8")
    start = time.perf_counter()
    story = import_story(tmp_path / "story" / "main.ink")
    assert time.perf_counter() - start < 30   # the FIFO is never opened
    assert [(i.line, i.reason) for i in story.issues] == [
        (1, "이 줄이 불러오는 파일(`../secret.ink`)은 이야기 폴더 밖에 있어 읽지 않았으므로, 그 파일의 장면은 옮기지 않았습니다."),
        (2, "이 줄이 불러오는 파일(`pipe.ink`)은 일반 파일이 아니라 읽지 않았으므로, 그 파일의 장면은 옮기지 않았습니다."),
        (3, "이 줄이 불러오는 파일은 이미 읽고 있는 파일이라(`INCLUDE`가 돌고 돕니다) 다시 읽지 않았습니다."),
    ]
    assert "secret" not in {s.scene_id for s in story.scenes}


# -- the construct scan (independent of the compiler)


def test_scan_constructs_follows_includes_and_skips_comments(tmp_path):
    from storygraph.importers.ink import scan_constructs

    (tmp_path / "main.ink").write_text("""\
INCLUDE side.ink
VAR d = -> hall // a divert target value, no divert
-> hall
// -> commented out
/* * [a choice
   in a block comment] -> hall */
=== hall ===
{d == -> hall: text}
* [Go] -> side
= porch
<- side
=== function f(-> x) ===
-> x
""", encoding="utf-8")
    (tmp_path / "side.ink").write_text("=== side ===\n+ [Back] -> hall ->\n->->\n", encoding="utf-8")
    main, side = str(tmp_path / "main.ink"), str(tmp_path / "side.ink")
    assert [(c.file, c.line, c.kind, c.name) for c in scan_constructs(tmp_path / "main.ink")] == [
        (main, 3, "branch", None), (main, 7, "scene", "hall"), (main, 9, "branch", None),
        (main, 10, "scene", "hall.porch"), (main, 11, "branch", None), (main, 13, "branch", None),
        (side, 1, "scene", "side"), (side, 2, "branch", None), (side, 3, "branch", None)]
    story = import_story(tmp_path / "main.ink")
    assert import_check(story).passed   # the divert inside the function is accounted for
    assert (main, 13) in story.accounted


# -- Node.js or the pinned compiler missing: a clear message, never a traceback


def test_missing_node_says_to_run_setup(tmp_path):
    (tmp_path / "s.ink").write_text("-> END\n", encoding="utf-8")
    empty = tmp_path / "bin"
    empty.mkdir()
    proc = subprocess.run([str(Path(sys.executable).parent / "storygraph"), "import", str(tmp_path / "s.ink")],
                          capture_output=True, text=True, timeout=120, env={"PATH": str(empty)})
    assert proc.returncode == 2
    assert "Node.js" in proc.stderr and "`bash scripts/setup.sh`" in proc.stderr and "Traceback" not in proc.stderr


def test_missing_inkjs_says_to_run_setup(tmp_path, monkeypatch):
    from storygraph.importers import ink as module
    from verdicts.errors import InputError

    bridge = tmp_path / "ink_bridge"
    bridge.mkdir()
    (bridge / "bridge.js").write_text((module.BRIDGE / "bridge.js").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.setattr(module, "BRIDGE", bridge)
    (tmp_path / "s.ink").write_text("-> END\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"inkjs 2\.4\.0.*`bash scripts/setup\.sh`"):
        import_story(tmp_path / "s.ink")


# -- hostile input: bounded, issues, never a traceback


def test_variable_divert_fan_out_is_capped(tmp_path):
    n = 3000
    lines = ["VAR d = -> k0", "-> k0"]
    for k in range(n):
        lines += [f"=== k{k} ===", f"~ d = -> k{(k * 7 + 1) % n}", "-> d"]
    text = "\n".join(lines) + "\n"
    assert 90_000 < len(text.encode()) < 100_000
    start = time.perf_counter()
    story = ink(tmp_path, text, "fan.ink")
    assert time.perf_counter() - start < 60
    assert [i.line for i in story.issues] == [5]   # once, at the first divert through d
    assert "3,000군데" in story.issues[0].reason
    jumps = [b for b in story.branches if b.jump_opaque]
    assert len(jumps) == n and all(b.jump_source == "-> d" for b in jumps)


def test_deep_choice_nesting_is_bounded(tmp_path):
    deep = "-> a\n=== a ===\n" + "".join("*" * k + " [x]\n" for k in range(1, 300)) + "-> END\n"
    story = ink(tmp_path, deep, "deep.ink")
    assert any("64겹보다 깊게" in i.reason for i in story.issues)


def test_deep_condition_is_an_issue_not_a_crash(tmp_path):
    story = ink(tmp_path, "-> a\n=== a ===\n* {" + "(" * 5000 + "x" + ")" * 5000 + "} [go] -> END\n", "paren.ink")
    assert story.issues[0].line is None and "끝까지 읽지 못했으므로" in story.issues[0].reason
    assert {i.line for i in story.issues[1:]} == {1, 2, 3}   # every construct line says it was not read


def test_control_characters_and_cp949(tmp_path):
    path = tmp_path / "ctl.ink"
    path.write_bytes("-> 부두\n=== 부두 ===\x00\x07\n* [떠난다] -> END\n".encode("cp949"))
    story = import_story(path)
    assert [b.to_scene for b in story.branches] == ["부두", "END"]


def test_huge_file_is_refused(tmp_path, monkeypatch):
    from storygraph.importers import common
    from verdicts.errors import InputError

    monkeypatch.setattr(common, "MAX_STORY_BYTES", 100)
    path = tmp_path / "big.ink"
    path.write_text("-> END\n" * 50, encoding="utf-8")
    with pytest.raises(InputError, match="한도 100바이트를 넘어"):
        import_story(path)


# -- the flow as the ink runtime runs it (what the corpus of real stories showed misread)


def red(story, tmp_path) -> set[tuple[str, str]]:
    """The red results of linting the imported story: (target, verdict or finding code)."""
    report = json.loads(lint_loads(story, tmp_path).stdout)
    problems = {"어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감"}
    return ({(c["target_no"], c["verdict"]) for c in report["cards"] if c["verdict"] in problems}
            | {(f["target"], f["code"]) for f in report.get("findings", [])})


def test_labelled_choice_with_text_before_its_brackets_is_a_choice_of_the_menu(tmp_path):
    # ld41-emoji, the `(prep)` gather: `* (ate) 🥞` was read as entering the label, so the
    # choices after it were lost and `(ate)`, `(dressed)` were called unreached
    story = ink(tmp_path, """\
VAR seen = false
-> prep
=== prep ===
* (pet) {not seen} [Pet]purr
* (showered) {not dressed} Shower
* (ate) Eat
* (dressed) Dress[]ed
- ~ seen = true
  -> prep
""")
    assert rows(story, "prep") == [
        ("prep.pet", "choice", "not seen", None, True, 4),
        ("prep.showered", "choice", "visits.prep.dressed == 0", None, True, 5),
        ("prep.ate", "choice", "", None, True, 6),
        ("prep.dressed", "choice", "", None, True, 7),
    ]


def test_after_a_tunnel_inside_a_conditional_the_flow_goes_on_after_the_block(tmp_path):
    # ld41-emoji line 26: `{alarm < 4: -> awaken | -> angry_cat ->}` in a choice body
    story = ink(tmp_path, """\
VAR alarm = 0
-> a
=== a ===
~ alarm++
* [Sleep]
  {alarm < 4: -> a | -> cat ->}
* [Up]
- (prep) Prep.
-> END
=== cat ===
->->
""")
    assert rows(story, "a.choice-5") == [("a", "auto", "alarm < 4", None, False, 6),
                                         ("cat", "auto", "not alarm < 4", None, False, 6)]
    assert rows(story, "a.after-6") == [("a.prep", "auto", "", None, False, 6)]   # not a dead end
    assert rows(story, "cat") == [("a.after-6", "auto", "", None, False, 11)]


def test_thread_that_offers_no_choice_runs_and_the_flow_goes_on_after_it(tmp_path):
    # ld41-emoji: `<- increase_time` (a knot that counts time and says `-> DONE`) was a
    # choice "always offered" that hid the fallback after it
    story = ink(tmp_path, """\
VAR time = 0
-> morning
=== tick ===
~ time++
-> DONE
=== morning ===
<- tick
* {time > 5} [Get up] -> noon
* -> noon
=== noon ===
<- tick
{time > 1: -> END}
* [Nap] -> END
""")
    # into the thread now; where it ends (`-> DONE`), back to what follows the `<-`
    assert rows(story, "morning") == [("tick", "auto", "", None, False, 7)]
    assert rows(story, "tick") == [("morning.after-7", "auto", "", None, False, 5)]
    assert rows(story, "morning.after-7") == [("noon", "choice", "time > 5", None, True, 8),
                                              ("noon", "auto", "", None, False, 9)]   # the fallback
    # the other `<-` runs its own copy, which goes back to that `<-` only
    assert rows(story, "noon") == [("tick@11", "auto", "", None, False, 11)]
    assert rows(story, "tick@11") == [("noon.after-11", "auto", "", None, False, 5)]
    assert rows(story, "noon.after-11") == [("END", "auto", "time > 1", None, False, 12),
                                            ("END", "choice", "", None, True, 13)]
    assert "DONE" not in {b.to_scene for b in story.branches}
    assert red(story, tmp_path) == set()


def test_thread_that_offers_no_choice_from_a_loop_keeps_one_scene(tmp_path):
    story = ink(tmp_path, """\
VAR time = 0
-> hub
=== tick ===
~ time++
-> DONE
=== hub ===
* [Wait]
  <- tick
  -> hub
* [Rest]
  <- tick
  {time > 3: -> END}
  -> hub
* -> END
""")
    # both `<-` lead on to each other: one `tick`, going back to either (the caller decides)
    assert rows(story, "tick") == [("hub.after-8", "choice", "", None, False, 5),
                                   ("hub.after-11", "choice", "", None, False, 5)]
    assert rows(story, "hub") == [("hub.choice-7", "choice", "", None, True, 7),
                                  ("hub.choice-10", "choice", "", None, True, 10),
                                  ("END", "auto", "", None, False, 14)]


def test_tunnel_goes_back_to_its_own_call(tmp_path):
    # ld41-emoji `checkCold`: called at 78, 94, 106, 180, each `->->` went back to all four,
    # which made menus "come back" to themselves (used-up-menu)
    story = ink(tmp_path, """\
VAR cold = 0
-> street
=== street ===
-> check ->
* [Beggar]
  * * [Give]
  * * [Refuse]
- -> check ->
* [Train] -> END
=== check ===
~ cold++
* {cold > 1} [Buy a coat]
+ ->
- ->->
""")
    assert rows(story, "street.gather-8") == [("check@8", "auto", "", None, False, 8)]
    assert rows(story, "check.gather-14") == [("street.after-4", "auto", "", None, False, 14)]
    assert rows(story, "check.gather-14@8") == [("street.after-8", "auto", "", None, False, 14)]
    assert red(story, tmp_path) == set()


def test_tunnel_called_from_a_loop_keeps_one_set_of_scenes(tmp_path):
    # every call's continuation leads on to every other call: going back to either adds no way
    story = ink(tmp_path, """\
-> hub
=== hub ===
+ [Left] -> move ->
  -> hub
+ [Right] -> move ->
  -> hub
+ [Stop] -> END
=== move ===
You move.
->->
""")
    assert rows(story, "move") == [("hub.after-3", "choice", "", None, False, 10),
                                   ("hub.after-5", "choice", "", None, False, 10)]
    assert not any("@" in s.scene_id for s in story.scenes)


def test_tunnel_return_keeps_its_place_among_the_branches(tmp_path):
    # ink-roguelike `spill`: `{all seen: ->->}` came after the unconditional fall below it
    story = ink(tmp_path, """\
VAR a = false
VAR b = false
-> hub
=== hub ===
-> spill ->
-> END
=== spill ===
{a && b: ->->}
~ a = true
-> pennies
=== pennies ===
->->
""")
    assert rows(story, "spill") == [("hub.after-5", "auto", "a and b", None, False, 8),
                                    ("pennies", "auto", "", None, False, 10)]
    assert red(story, tmp_path) == set()


def test_tunnel_that_never_comes_back_leaves_what_follows_it_unreached(tmp_path):
    # ink-roguelike `-> dir_checker(dir) ->`: the tunnel diverts away; "all the flows into a
    # tunnel [must] really come out again" (Writing with ink, Tunnels)
    story = ink(tmp_path, """\
-> hub
=== hub ===
+ [Bump] -> bump ->
  Never printed.
  -> hub
+ [Stop] -> END
=== bump ===
Ouch.
-> hub
""")
    assert rows(story, "hub.after-3") == [("hub", "auto", "", None, False, 5)]
    assert red(story, tmp_path) == {("hub.after-3", "어디서도 안 닿음"), ("hub.after-3#1", "어디서도 안 닿음")}


def test_dead_tunnel_return_is_written_once(tmp_path):
    # ink-roguelike `gen_x`: `-> gen_x` then `->->`; the continuations after the tunnel calls
    # in the loop walk the same lines again, and said the dead `->->` once each
    story = ink(tmp_path, """\
VAR x = 0
-> row
=== row ===
-> cell ->
-> END
=== cell ===
{x > 3: ->->}
{x == 1: -> mark ->}
~ x++
-> cell
->->
=== mark ===
->->
""")
    dead = [b for b in story.branches if b.source_line == 11]
    assert [(b.from_scene, b.to_scene) for b in dead] == [("cell", "row.after-4")]
    assert rows(story, "cell.after-8") == [("cell", "auto", "", None, False, 10)]


def test_knot_that_only_names_its_stitches_is_no_scene(tmp_path):
    # ink-roguelike `=== game` / `= init`, entered as `-> game.init`: the knot itself is no
    # place a reader goes to, and was called unreached
    story = ink(tmp_path, """\
-> game.init
=== game
= init
-> game.play
= play
* [Quit] -> END
""")
    assert [s.scene_id for s in story.scenes] == ["(top)", "game.init", "game.play", "END"]
    assert (str(tmp_path / "story.ink"), 2) in story.accounted
    assert red(story, tmp_path) == set()


def test_end_of_the_top_after_a_menu_is_no_ending(tmp_path):
    # the-intercept: `{DEBUG: * [Beginning...] -> start … - else: -> start}`; the compiler's
    # own `done` after the top shows the menu, and was a fallback nobody takes
    story = ink(tmp_path, """\
VAR DEBUG = false
{DEBUG:
  * [Beginning] -> start
- else:
  -> start
}
=== start ===
-> END
""")
    assert rows(story, "(top)") == [("start", "choice", "DEBUG", None, True, 3),
                                    ("start", "choice", "not DEBUG", None, False, 5)]
    assert "DONE" not in {s.scene_id for s in story.scenes}
    assert red(story, tmp_path) == set()


def test_choices_collected_before_a_divert_stay_for_the_next_menu(tmp_path):
    # written-night-ferry `deckhand_talk`: `{ coins > 4: * [Tip him] … }` then `- ->->`; the
    # engine collects the choices, goes back at once and shows them with the quay's menu
    story = ink(tmp_path, """\
VAR coins = 5
-> quay
=== quay ===
* [Talk] -> deck ->
  -> quay
* [Leave] -> END
=== deck ===
{ coins > 4:
  * [Tip him]
    ~ coins = coins - 1
    ->->
- else:
  He ignores you.
  ->->
}
- ->->
""")
    assert rows(story, "deck") == [
        ("deck.choice-9", "choice", "coins > 4", None, True, 9),
        ("quay.after-4", "choice", "not coins > 4", None, False, 14),
        ("deck.gather-16", "choice", "not not coins > 4", None, False, 16),   # taken at once, with the choice kept
    ]
    assert red(story, tmp_path) == set()


def test_story_end_after_collected_choices_comes_before_them(tmp_path):
    story = ink(tmp_path, """\
VAR late = false
-> a
=== a ===
{ late:
  * [Wait] -> a
}
-> END
""")
    # `-> END` ends the story before any menu is shown: the choice is never offered
    assert rows(story, "a") == [("END", "auto", "", None, False, 7), ("a", "choice", "late", None, True, 5)]
    assert ("a#1", "조건이 겹침") in red(story, tmp_path)


def test_thread_of_tunnels_through_parameters(tmp_path):
    # threading-tunnels: `<- tunnel_as_thread(-> ask, -> opts)` runs `-> tunnel ->` through
    # a divert-target parameter; its targets are the arguments the callers pass
    story = ink(tmp_path, """\
- (begin)
-> example
=== tunnel_as_thread(-> tunnel, -> ret)
-> tunnel ->
-> ret
=== example ===
- (opts)
<- tunnel_as_thread(-> ask, -> opts)
* [Finish] -> END
=== ask ===
* Are urns useful?
- (done) ->->
""")
    assert rows(story, "example.opts") == [
        ("ask.done", "choice", "", None, True, 8),             # the thread's choice, in this menu
        ("tunnel_as_thread", "choice", "", None, True, 8),     # the thread's knot, run from here
        ("END", "choice", "", None, True, 9),
    ]
    assert rows(story, "tunnel_as_thread") == [("ask", "auto", "", None, False, 4)]
    assert rows(story, "ask") == [("ask.done", "choice", "", None, True, 11),
                                  ("example.opts", "choice", "", None, False, 11)]   # the thread ends: back
    assert rows(story, "ask.done") == [("tunnel_as_thread.after-4", "auto", "", None, False, 12)]
    assert not any(b.jump_opaque for b in story.branches)
    assert red(story, tmp_path) == set()


def test_divert_parameter_given_a_story_variable_goes_where_the_variable_may_point(tmp_path):
    # written-night-ferry: `-> landfall(next_stop)` then `-> where` in landfall was an opaque
    # jump, because next_stop passed by value counted as a value nobody can know
    story = ink(tmp_path, """\
VAR next_stop = -> quay
-> deck
=== deck ===
+ [Steer] 
  ~ next_stop = -> island
  -> deck
+ [Sleep] -> landfall(next_stop)
=== landfall(-> where) ===
-> where
=== quay ===
-> END
=== island ===
-> END
""")
    assert rows(story, "landfall") == [("quay", "choice", "", None, False, 9),
                                       ("island", "choice", "", None, False, 9)]
    assert not any(b.jump_opaque for b in story.branches)
    assert flags(story)["next_stop"].values == ["quay", "island"]


def test_thread_under_a_condition_joins_the_menu_once(tmp_path):
    story = ink(tmp_path, """\
VAR x = false
-> hub
=== hub ===
{x: <- talk}
* [Leave] -> END
=== talk ===
* [Chat] -> hub
-> DONE
""")
    assert rows(story, "hub") == [
        ("talk.choice-7", "choice", "x", None, True, 4),   # the thread's choice, when x
        ("talk", "choice", "x", None, True, 4),
        ("END", "choice", "", None, True, 5),              # the scene's own, once
    ]
