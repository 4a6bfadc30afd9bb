"""ChoiceScript as the engine (``web/scene.js``) reads it: one small game per construct,
with the scenes, branches, flags, reads and marks it must give.  The cases are data:
``GAMES`` names each game's files, the tests say what comes out."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from storygraph.importers import import_story
from storygraph.importers.choicescript import scan_constructs
from storygraph.importers.selfcheck import import_check

from .helpers import branch_rows, check_invariants


def game(tmp_path: Path, files: dict[str, str]) -> Path:
    """A game folder: ``scenes/<name>.txt`` for each file (dedented text)."""
    scenes = tmp_path / "scenes"
    scenes.mkdir(exist_ok=True)
    for name, text in files.items():
        lines = text.strip("\n").split("\n")
        indent = min((len(x) - len(x.lstrip()) for x in lines if x.strip()), default=0)
        (scenes / f"{name}.txt").write_text("\n".join(x[indent:] for x in lines) + "\n", encoding="utf-8")
    return tmp_path


def load(tmp_path: Path, files: dict[str, str]):
    story = import_story(game(tmp_path, files))
    check_invariants(story)
    result = import_check(story)
    assert result.passed, result.failed_targets
    return story


def issues(story) -> list[tuple[str, int | None]]:
    return [(Path(i.file).stem, i.line) for i in story.issues]


def flags(story) -> dict:
    return {f.flag: f for f in story.flags}


def at(tmp_path: Path, name: str, line: int) -> str:
    return f"{tmp_path / 'scenes' / name}.txt:{line}"


# ----------------------------------------------------------------------------- *choice, *fake_choice


SAMPLE_SHAPE = {  # the shape of the official sample game's variables.txt: the last option goes on
    "startup": """
        *scene_list
          startup
        *create leadership 50
        *create strength 50
        What do you prefer?
        *choice
          #Leadership
            *set leadership +10
            *goto action
          #Strength
            *set strength +10

        *label action
        What will you do today?
        *choice
          #Run for office
            *if leadership > 15
              You win.
              *finish
            You lose.
            *finish
          #Lift weights
            *finish
    """,
}


def test_the_last_option_goes_on_after_the_choice_as_the_sample_game_has_it(tmp_path):
    story = load(tmp_path, SAMPLE_SHAPE)
    assert story.issues == []
    rows = branch_rows(story)
    assert ("startup#2", "startup", "startup.after-6", "choice", "", None, False, 10) in rows
    assert ("startup.after-6#1", "startup.after-6", "startup.action", "auto", "", None, False, 13) in rows
    assert all(s.scene_id != "startup.option-10" for s in story.scenes)


def test_an_option_before_another_that_falls_out_stops_the_engine(tmp_path):
    story = load(tmp_path, {"startup": """
        *choice
          #Rest.
            You sit down.
          #Walk.
            *finish
        *finish
    """})
    assert issues(story) == [("startup", 3)]
    assert "`*choice`에서 마지막이 아닌 선택지가" in story.issues[0].reason
    rows = branch_rows(story)
    assert ("startup#1", "startup", "startup.option-2", "choice", "", None, False, 2) in rows
    assert not [r for r in rows if r[1] == "startup.option-2"]   # a dead end: the engine stops there


def test_every_option_of_a_fake_choice_goes_on_after_it(tmp_path):
    story = load(tmp_path, {"startup": """
        *fake_choice
          #Look.
          #Sing.
            *set x true
          #Wait.
        *finish
    """})
    assert [r[1:4] for r in branch_rows(story)] == [
        ("startup", "startup.after-1", "choice"), ("startup", "startup.after-1", "choice"),
        ("startup", "startup.after-1", "choice"), ("startup.after-1", "*ending", "auto")]
    assert [b.choice_text for b in story.branches[:3]] == ["Look.", "Sing.", "Wait."]


def test_an_option_falling_into_an_else_stops_the_engine_even_in_a_fake_choice(tmp_path):
    story = load(tmp_path, {"startup": """
        *create rich false
        *fake_choice
          *if rich
            #Buy.
              You buy it.
          *else
            #Beg.
        *finish
    """})
    assert issues(story) == [("startup", 5)]
    assert "`*elseif`나 `*else`로 떨어지는데" in story.issues[0].reason


def test_implicit_control_flow_lets_every_option_go_on(tmp_path):
    story = load(tmp_path, {"startup": """
        *create implicit_control_flow true
        *choice
          #Rest.
            You sit down.
          #Walk.
            You walk.
        *finish
    """})
    assert story.issues == []
    assert {r[2] for r in branch_rows(story) if r[1] == "startup"} == {"startup.after-2"}


def test_a_last_option_without_a_body_stops_the_engine(tmp_path):
    story = load(tmp_path, {"startup": """
        *choice
          #Walk.
            *finish
          #Rest.
        *finish
    """})
    assert issues(story) == [("startup", 4)]
    assert "마지막 선택지에 본문이 없는데" in story.issues[0].reason


# ----------------------------------------------------------------------------- *if around a way on


def test_a_fake_choice_inside_an_if_matters_only_to_readers_who_enter_it(tmp_path):
    story = load(tmp_path, {"startup": """
        *create brave false
        *if brave
          *fake_choice
            #Sing.
            #Hum.
          You feel better.
        *finish
    """})
    assert story.issues == []
    assert branch_rows(story) == [
        ("startup#1", "startup", "startup.after-3", "choice", "brave", None, False, 4),
        ("startup#2", "startup", "startup.after-3", "choice", "brave", None, False, 5),
        ("startup.after-3#1", "startup.after-3", "startup.after-2-if", "auto", "", None, False, 6),
        ("startup#3", "startup", "startup.after-2-if", "auto", "not brave", None, False, 2),   # readers who skip it
        ("startup.after-2-if#1", "startup.after-2-if", "*ending", "auto", "", None, False, 7),
    ]


def test_a_label_inside_an_if_is_entered_by_its_readers_and_by_jumps_alone(tmp_path):
    story = load(tmp_path, {"startup": """
        *create brave false
        *if brave
          *label inside
          Inside.
        *goto inside
    """})
    rows = branch_rows(story)
    assert ("startup#1", "startup", "startup.inside", "auto", "brave", None, False, 3) in rows
    # after the label the flow carries no condition: a *goto there from outside is not stuck
    assert ("startup.inside#1", "startup.inside", "startup.after-2-if", "auto", "", None, False, 4) in rows
    assert ("startup#2", "startup", "startup.after-2-if", "auto", "not brave", None, False, 2) in rows


# ----------------------------------------------------------------------------- *gosub, *gosub_scene, *return


def test_a_file_of_subroutines_entered_by_gosub_scene_is_a_way_in(tmp_path):
    story = load(tmp_path, {
        "startup": """
            *scene_list
              startup
            *gosub_scene tools heal
            Healed.
            *finish
        """,
        "tools": """
            *comment subroutines only
            *label heal
            You rest.
            *return
        """,
    })
    assert "tools" not in {s.scene_id for s in story.scenes}      # its top: nothing is there, nothing enters it
    assert story.accounted[(str(tmp_path / "scenes" / "tools.txt"), 1)]
    assert branch_rows(story) == [
        ("startup#1", "startup", "tools.heal", "auto", "", None, False, 3),
        ("startup.after-3#1", "startup.after-3", "*ending", "auto", "", None, False, 5),
        ("tools.heal#1", "tools.heal", "startup.after-3", "auto", "", None, False, 4),   # back after the call
    ]


def test_a_return_goes_back_to_the_calls_of_its_own_subroutine(tmp_path):
    story = load(tmp_path, {"startup": """
        *gosub a
        *gosub b
        *finish
        *label a
        *return
        *label b
        *return
    """})
    rows = {(r[1], r[2]) for r in branch_rows(story)}
    assert ("startup.a", "startup.after-1") in rows and ("startup.a", "startup.after-2") not in rows
    assert ("startup.b", "startup.after-2") in rows and ("startup.b", "startup.after-1") not in rows


def test_a_return_takes_its_place_among_the_branches(tmp_path):
    story = load(tmp_path, {"startup": """
        *create tired false
        *gosub rest
        *finish
        *label rest
        *if tired
          *return
        *goto rest
    """})
    assert [r[2:5] for r in branch_rows(story) if r[1] == "startup.rest"] == [
        ("startup.after-2", "auto", "tired"),   # before the *goto that would hide it
        ("startup.rest", "auto", ""),
    ]


def test_a_return_nobody_calls_is_an_issue(tmp_path):
    story = load(tmp_path, {"startup": "Hi.\n*return\n"})
    assert issues(story) == [("startup", 2)]


# ----------------------------------------------------------------------------- variables


def test_a_variable_used_without_create_or_temp_is_undeclared_with_its_places(tmp_path):
    story = load(tmp_path, {
        "startup": """
            *scene_list
              startup
              next
            *create courage 5
            *set gold 10
            *if gold > courage
              Rich.
            *finish
        """,
        "next": """
            Gold: ${gold}.
            *finish
        """,
    })
    f = flags(story)
    assert f["gold"].undeclared and not f["courage"].undeclared
    assert f["gold"].written_at == [at(tmp_path, "startup", 5)]
    assert f["gold"].read_at == [at(tmp_path, "startup", 6), at(tmp_path, "next", 1)]
    assert f["courage"].declared_at == [at(tmp_path, "startup", 4)]


def test_a_temp_belongs_to_its_scene_file(tmp_path):
    story = load(tmp_path, {
        "startup": """
            *scene_list
              startup
              next
            *temp mood "calm"
            *if mood = "calm"
              Calm.
            *finish
        """,
        "next": """
            *if mood = "calm"
              Still calm?
            *finish
        """,
    })
    f = flags(story)
    assert f["startup.mood"].label == "mood" and not f["startup.mood"].undeclared
    assert f["startup.mood"].read_at == [at(tmp_path, "startup", 5)]
    assert f["mood"].undeclared and f["mood"].read_at == [at(tmp_path, "next", 1)]   # the engine stops there


def test_params_and_the_engines_own_values_are_not_story_flags(tmp_path):
    story = load(tmp_path, {"startup": """
        *create hp 3
        *gosub hurt 2
        *if choice_is_web
          *finish
        *finish
        *label hurt
        *params amount
        *if amount > hp
          *ending
        *set hp - 1
        *return
    """})
    assert set(flags(story)) == {"hp"}
    assert not flags(story)["hp"].undeclared
    opaque = [b for b in story.branches if b.condition_opaque]
    assert [b.condition_source for b in opaque] == ["choice_is_web", "amount > hp"]


def test_every_read_is_recorded_wherever_it_is(tmp_path):
    story = load(tmp_path, {
        "startup": """
            *create a 1
            *create b 1
            *create c 1
            *create d 1
            *create e 1
            *create f 1
            *create g 1
            *create h "a"
            *create s 1
            *create unused 0
            You have ${a} coins and @{b one|two} friends.
            *if c > 0
              Text only.
            *choice
              #Pay ${d}.
                *set e f
                *finish
              *if g > h
                #Compare.
                  *finish
            *set a {h}
        """,
        "choicescript_stats": """
            *stat_chart
              percent s Strength
        """,
    })
    f = flags(story)
    for name, line in [("a", 11), ("b", 11), ("c", 12), ("d", 15), ("f", 16), ("g", 18), ("h", 18), ("h", 21)]:
        assert at(tmp_path, "startup", line) in f[name].read_at, (name, f[name].read_at)
    assert f["a"].read_at == [at(tmp_path, "startup", 11), at(tmp_path, "startup", 21)]   # {h} reads the variable h names
    assert f["s"].read_at == [at(tmp_path, "choicescript_stats", 2)]
    assert f["e"].read_at == [] and f["unused"].read_at == []


def test_writes_that_cannot_be_computed_are_opaque_effects(tmp_path):
    story = load(tmp_path, {"startup": """
        *create x 1
        *create y 2
        *create name "Kim"
        *set x y
        *input_text name
        *set y +1
        *set y y + 2
        *finish
    """})
    f = flags(story)
    assert f["x"].effect_opaque and f["x"].effect_source.endswith("*set x y")
    assert f["name"].effect_opaque
    assert not f["y"].effect_opaque and (f["y"].min_value, f["y"].max_value) == (2, 5)   # steps, not unknown
    assert f["y"].read_at == [at(tmp_path, "startup", 4)]                                 # y + 2 on y is a step


def test_create_outside_the_top_of_startup_and_a_second_label_are_engine_errors(tmp_path):
    story = load(tmp_path, {"startup": """
        Hello.
        *create late 1
        *label here
        *label here
        *finish
    """})
    assert issues(story) == [("startup", 2), ("startup", 4)]
    assert "맨 앞" in story.issues[0].reason and "`here`가 3번째 줄에도 있어" in story.issues[1].reason


# ----------------------------------------------------------------------------- the line scanner


def test_scan_constructs_lists_scene_files_labels_and_ways_on(tmp_path):
    folder = game(tmp_path, {
        "startup": """
            *scene_list
              startup
            *choice
              #One
                *goto_scene other
              *if (true) #Two
                *gosub_scene other sub
              *hide_reuse #Three
                *finish
            *label end
            *ending
        """,
        "other": """
            *comment *goto nowhere
            *label sub
            *return
        """,
        "choicescript_stats": "*goto nowhere\n",
    })
    found = [(Path(c.file).stem, c.line, c.kind, c.name) for c in scan_constructs(folder)]
    assert found == [
        ("startup", 1, "scene", "startup"), ("startup", 4, "branch", None), ("startup", 5, "branch", None),
        ("startup", 6, "branch", None), ("startup", 7, "branch", None), ("startup", 8, "branch", None),
        ("startup", 9, "branch", None), ("startup", 10, "scene", "startup.end"), ("startup", 11, "branch", None),
        ("other", 1, "scene", "other"), ("other", 2, "scene", "other.sub"), ("other", 3, "branch", None),
    ]
    story = import_story(folder)
    assert story.constructs and import_check(story).passed


LINES = st.builds(lambda i, s: " " * (2 * i) + s, st.integers(0, 4), st.sampled_from([
    "*choice", "*fake_choice", "#option", "*if (x) #opt", "*selectable_if (n > 1) #opt", "*hide_reuse #h", "*goto l",
    "*label l", "*label l2", "*finish", "*ending", "*if x", "*elseif n = 2", "*else", "*set n + 1", "text ${n}",
    "*gosub l", "*gosub_scene other l2", "*return", "*goto_scene other", "*gotoref v", "*temp t 1", "*set t n",
    "*restart", "*goto_random_scene", "@{x a|b}", "*create late 1"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=25), st.lists(LINES, max_size=10))
def test_the_import_of_any_lines_checks_itself(tmp_path_factory, lines, other):
    folder = tmp_path_factory.mktemp("game")
    (folder / "startup.txt").write_text("*create x false\n*create n 0\n*create v \"l\"\n*scene_list\n  startup\n  other\n"
                                        + "\n".join(lines) + "\n", encoding="utf-8")
    (folder / "other.txt").write_text("\n".join(other) + "\n", encoding="utf-8")
    story = import_story(folder)
    check_invariants(story)
    result = import_check(story)
    assert result.passed, result.failed_targets


# ----------------------------------------------------------------------------- hostile input


def test_a_long_elseif_chain_is_bounded(tmp_path):
    lines = ["*create n 0", "*if n = 0", "  *goto a"]
    for k in range(1, 3000):
        lines += [f"*elseif n = {k}", "  *goto a"]
    lines += ["*else", "  *goto a", "*label a", "*ending"]
    start = time.perf_counter()
    story = load(tmp_path, {"startup": "\n".join(lines)})
    assert time.perf_counter() - start < 30
    # past 64 cases a case is read as opaque (its condition would repeat every case before it)
    assert branch_rows(story)[63][4] and branch_rows(story)[64][5] == "n = 64"


def test_deep_nesting_and_a_gosub_cycle_are_bounded(tmp_path):
    deep = "\n".join(" " * (2 * k) + "*if x" for k in range(200)) + "\n" + " " * 400 + "*goto a"
    options = "\n".join(" " * (4 * k) + "*choice\n" + " " * (4 * k + 2) + "#o" for k in range(40))
    start = time.perf_counter()
    story = load(tmp_path, {"startup": f"""
*create x false
*label a
*gosub a
*gosub b
*label b
*gosub a
*return
{deep}
{options}
*ending
"""})
    assert time.perf_counter() - start < 30
    assert any("깊어" in i.reason for i in story.issues)


@pytest.mark.parametrize("text", ["*gosub a\n*label a\n*gosub a\n*return\n", "*label a\n*gosub_scene startup a\n*return\n"])
def test_a_subroutine_that_calls_itself_returns_to_its_own_calls(tmp_path, text):
    story = load(tmp_path, {"startup": text})
    after = [s.scene_id for s in story.scenes if s.scene_id.startswith("startup.after-")]
    line = text.split("\n").index("*return") + 1
    returns = [b for b in story.branches if b.source_line == line and b.to_scene in after]
    assert after and returns and len(story.branches) < 10


def test_a_name_computed_from_known_values_reads_those_variables_and_an_unknown_one_any(tmp_path):
    """`{prefix & "count"}` reads the variable whose name it makes: with `prefix` only
    ever "menu_", that is `menu_count`; `*setref` of a name typed in by the reader may
    write any variable: no variable is then called unread, and every range may change
    (issue 28)."""
    from storygraph.domain import lint

    folder = game(tmp_path, {"startup": """
        *create prefix "menu_"
        *create menu_count 3
        *create gold 0
        *create unused_count 0
        *create target ""
        *temp n {prefix & "count"}
        *input_text target
        *setref target 5
        *if gold > 9
          *finish
        *finish
    """})
    story = load(tmp_path, {})
    rows = {f.flag: f for f in story.flags}
    assert rows["menu_count"].read_at == [at(tmp_path, "startup", 6)]
    assert rows["unused_count"].read_at == [] and not rows["unused_count"].read_opaque
    assert all(f.effect_opaque for f in story.flags)   # *setref target: the name is typed in
    assert rows["gold"].effect_source.endswith("*setref target 5")
    report = lint(folder)
    assert all(f.withheld is not None for f in report.findings if f.code == "comparison-out-of-range")
