"""ChoiceScript names computed while playing, and the other things the engine does that
the corpus showed the importer read wrongly (issue 28): one small game per case, read
as ``web/scene.js`` runs it."""

from __future__ import annotations

from storygraph.domain import lint
from storygraph.importers.choicescript import scan_constructs

from .helpers import branch_rows
from .test_choicescript_engine import at, game, issues, load

# ----------------------------------------------------------------------------- writes to computed names


def test_an_array_element_by_a_computed_index_writes_the_arrays_elements(tmp_path):
    """`*set option_guard[slot] …`, `*rand attr_val[n] 10 16` write `option_guard_<slot>`
    (cslib's menu module, the character creator): an element of the array, never a
    variable called `option_guard` that nobody declared."""
    story = load(tmp_path, {"startup": """
        *create_array attr_val 3 0
        *temp_array guard 2 false
        *temp slot 1
        *set slot + 1
        *set guard[slot] true
        *rand attr_val[slot] 10 16
        *set attr_val[2] 5
        *if guard_1 and (attr_val_1 > 12)
          *finish
        *if guard[slot]
          *finish
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert "guard" not in flags and "attr_val" not in flags
    assert not any(f.undeclared for f in story.flags)
    assert flags["attr_val_1"].written_at == [at(tmp_path, "startup", 6)]
    assert flags["attr_val_1"].max_value == 16                      # *rand 10 16 may land on it
    assert flags["attr_val_2"].written_at == [at(tmp_path, "startup", 6), at(tmp_path, "startup", 7)]
    assert flags["guard_2"].read_at == [at(tmp_path, "startup", 10)]  # guard[slot] may be guard_2
    assert "guard_count" not in flags   # made by the engine, used by nobody: not a flag


def test_an_index_known_to_be_one_value_names_one_element(tmp_path):
    story = load(tmp_path, {"startup": """
        *create_array attr_val 3 0
        *temp slot 2
        *set attr_val[slot] 5
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert flags["attr_val_2"].written_at == [at(tmp_path, "startup", 3)]
    assert flags["attr_val_1"].written_at == [] and flags["attr_val_3"].written_at == []


def test_a_set_through_a_computed_name_is_a_write_not_dropped(tmp_path):
    """`*set {target} v` writes the variable whose name `target` holds; it used to be
    dropped, so that variable looked never written."""
    story = load(tmp_path, {"startup": """
        *create target "gold"
        *create gold 0
        *create silver 0
        *set {target} 7
        *if gold > 5
          *finish
        *if silver > 5
          *finish
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert flags["gold"].written_at == [at(tmp_path, "startup", 4)] and flags["gold"].max_value == 7
    assert flags["silver"].written_at == []


def test_a_computed_name_that_may_be_anything_may_write_any_variable(tmp_path):
    story = load(tmp_path, {"startup": """
        *create target ""
        *create gold 0
        *input_text target
        *set {target} 7
        *finish
    """})
    assert all(f.effect_opaque for f in story.flags)
    assert {f.flag: f for f in story.flags}["gold"].effect_source.endswith("*set {target} 7")


def test_implicit_control_flow_is_read_by_the_engine(tmp_path):
    """`*create implicit_control_flow true` is read by the engine at every block's end:
    it is not an unused variable (the lighthouse keeper, cslib)."""
    story = load(tmp_path, {"startup": """
        *create implicit_control_flow true
        *choice
          #A
            Text.
          #B
            Text.
        *finish
    """})
    report = lint(game(tmp_path, {}))
    assert not [f for f in report.findings if f.target == "implicit_control_flow"]
    assert {f.flag: f for f in story.flags}["implicit_control_flow"].read_at == [at(tmp_path, "startup", 1)]


def test_an_escaped_quote_inside_an_interpolation_in_a_string_is_read(tmp_path):
    story = load(tmp_path, {"startup": r"""
        *create arr_max 3
        *create prefix "arr"
        *temp p "@{true ${{prefix&\"_max\"}}|none}"
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert flags["arr_max"].read_at == [at(tmp_path, "startup", 3)] and not flags["arr_max"].read_opaque


# ----------------------------------------------------------------------------- *script


def test_a_script_declares_what_it_sets_and_may_set_the_names_it_builds(tmp_path):
    """cslib's test game sets `this.stats.cslib_bug_message` and
    `this.stats["cslib_choice_" + …]` in a `*script`: those variables are made there, not
    undeclared, and their values are not known."""
    story = load(tmp_path, {"startup": """
        *create catch false
        *script if(this.stats.catch){this.stats.bug_message="x";this.stats["pick_"+(1).toString()]="y";}
        *if bug_message = "x"
          *finish
        *if pick_1 = "y"
          *finish
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert not any(f.undeclared for f in story.flags)
    assert flags["catch"].read_at == [at(tmp_path, "startup", 2)]
    assert flags["bug_message"].effect_opaque and flags["pick_1"].effect_opaque
    assert flags["bug_message"].declared_at == [at(tmp_path, "startup", 2)]


def test_a_script_that_sets_a_name_it_does_not_spell_may_set_any_variable(tmp_path):
    story = load(tmp_path, {"startup": """
        *create gold 0
        *script var k = "g" + "old"; this.stats[k] = 5;
        *if late = 1
          *finish
        *finish
    """})
    assert all(f.effect_opaque for f in story.flags)
    assert not any(f.undeclared for f in story.flags)   # the script may have made `late`


# ----------------------------------------------------------------------------- where a jump goes


def test_only_the_target_words_make_a_jump_computed(tmp_path):
    """`*gosub_scene s l module[id] "a ${x}"`: the arguments hold `[` and `{`, the scene
    and label do not — a plain call, not an opaque jump (cslib's test entry)."""
    story = load(tmp_path, {"startup": """
        *create_array module 2 "a" "b"
        *create id 1
        *gosub_scene helper show module[id] "text ${id}"
        *gosub go module[id]
        *finish
        *label go
        *params what
        *return
    """, "helper": """
        *label show
        *params name text
        *return
    """})
    assert not any(b.jump_opaque for b in story.branches)
    rows = branch_rows(story)
    assert ("startup#1", "startup", "helper.show", "auto", "", None, False, 3) in rows
    assert ("startup.after-3#1", "startup.after-3", "startup.go", "auto", "", None, False, 4) in rows


CSLIB_UTIL = {  # cslib's util module and a game calling it, as the character creator does
    "startup": """
        *scene_list
          startup
        *create total 0
        *gosub_scene util repeat "templates" "roll" 3
        *gosub_scene util repeat "templates" "show" 3
        *ending
    """,
    "util": """
        *bug util is a cslib module and must not be accessed directly
        *label repeat
        *params p_scene p_label count
        *temp n 1
        *label loop
        *if (n <= count)
          *gosub_scene {p_scene} {p_label} n
          *set n + 1
          *goto loop
        *return
    """,
    "templates": """
        *label roll
        *params n
        *set total + 1
        *return
        *label show
        *params n
        Total: ${total}
        *return
        *label unused
        *params n
        *return
    """,
}


def test_a_jump_to_names_passed_as_literal_arguments_goes_to_those_places(tmp_path):
    """`*gosub_scene {p_scene} {p_label}` where the parameters are only ever the string
    literals every call passes: a branch to each `templates.roll`, `templates.show`
    (`choice`: the value decides), not an opaque jump that would withhold every
    unreached verdict of the story; what nothing calls is then unreached."""
    story = load(tmp_path, CSLIB_UTIL)
    assert not any(b.jump_opaque for b in story.branches)
    calls = [r for r in branch_rows(story) if r[7] == 7 and r[1] == "util.loop"]
    assert [(r[2], r[3]) for r in calls] == [("templates.roll", "choice"), ("templates.show", "choice")]
    # the top of util (a *bug before the first *label) is no scene: nothing enters it
    assert "util" not in {s.scene_id for s in story.scenes}
    report = lint(game(tmp_path, {}))
    unreached = {c.key for c in report.cards if c.verdict == "어디서도 안 닿음"}
    assert "templates.unused" in unreached and "templates.roll" not in unreached
    assert not [c for c in report.cards if c.withheld is not None]


def test_the_label_narrows_a_scene_built_from_unknown_text(tmp_path):
    """`*gosub_scene {name} entry` where `name` is `"test_"` and text typed in: any
    scene file whose name begins with `test_` and that has a label `entry` (cslib's test
    framework); anything else would stop the engine."""
    story = load(tmp_path, {
        "startup": """
            *create name ""
            *create which ""
            *input_text which
            *set name "test_"&which
            *gosub_scene {name} entry
            *ending
        """,
        "test_a": "*label entry\n*return\n",
        "test_b": "*label entry\n*return\n*label other\n*return\n",
        "other": "*label entry\n*return\n",
    })
    targets = sorted(b.to_scene for b in story.branches if b.source_line == 5)
    assert targets == ["test_a.entry", "test_b.entry"]


def test_a_computed_name_that_fits_no_place_is_an_issue(tmp_path):
    story = load(tmp_path, {"startup": """
        *create path "none"
        *set path "north"
        *gotoref path
        *finish
    """})
    assert issues(story) == [("startup", 3)]
    assert '"none"' in story.issues[0].reason and '"north"' in story.issues[0].reason
    assert not [b for b in story.branches if b.source_line == 3]


def test_a_scene_name_that_may_be_anything_goes_to_any_scene_file(tmp_path):
    story = load(tmp_path, {"startup": """
        *create where ""
        *input_text where
        *goto_scene {where}
    """, "other": "*finish\n"})
    assert sorted((b.to_scene, b.kind) for b in story.branches if b.source_line == 3) == [
        ("other", "choice"), ("startup", "choice")]


def test_a_jump_to_more_places_than_can_be_named_stays_opaque(tmp_path):
    labels = "\n".join(f"*label l{k}\n*finish" for k in range(70))
    story = load(tmp_path, {"startup": f"""
*create where ""
*input_text where
*goto {{where}}
{labels}
"""})
    assert [b.jump_source for b in story.branches if b.jump_opaque] == ["*goto {where}"]


# ----------------------------------------------------------------------------- which files, which lines


def test_every_scene_file_of_the_folder_is_read(tmp_path):
    """A scene file neither `*scene_list` nor any `*goto_scene` names is never played
    (quicktest calls it untested): it is a scene no one reaches, and what it reads and
    writes still counts (dunyazad's hand-written scenes)."""
    story = load(tmp_path, {
        "startup": """
            *scene_list
              startup
            *create stolen "unknown"
            *finish
        """,
        "draft": """
            *set stolen "food"
            *if stolen = "food"
              *goto_scene missing
            *finish
        """,
    })
    flags = {f.flag: f for f in story.flags}
    assert flags["stolen"].read_at and flags["stolen"].written_at
    assert ("draft", 1) in {(c.name, c.line) for c in scan_constructs(tmp_path) if c.kind == "scene"}
    report = lint(game(tmp_path, {}))
    verdicts = {c.key: c.verdict for c in report.cards}
    assert verdicts["draft"] == "어디서도 안 닿음"
    assert not [f for f in report.findings if f.target == "stolen"]


def test_a_label_inside_if_false_is_entered_only_by_its_callers(tmp_path):
    """`*if (false)` around a `*label` (cslib's tests hide their callbacks so): the
    engine never runs into the block, so there is no branch falling into the label —
    and no 'this branch never fires' about one."""
    story = load(tmp_path, {"startup": """
        *gosub check
        *if (false)
          *label check
          *return
        *finish
    """})
    rows = branch_rows(story)
    assert not [r for r in rows if r[2] == "startup.check" and r[3] == "auto" and r[4] == "false"]
    assert ("startup#1", "startup", "startup.check", "auto", "", None, False, 1) in rows
    report = lint(game(tmp_path, {}))
    assert not [f for f in report.findings if f.code == "unsatisfiable-condition"]


def test_values_too_costly_to_follow_leave_the_jump_opaque(tmp_path, monkeypatch):
    """The narrowing is bounded: past its budget every computed name may be anything
    (as before it was narrowed) — never a guess."""
    import storygraph.importers.choicescript as cs

    monkeypatch.setattr(cs, "_SOLVE_BUDGET", 0)
    story = load(tmp_path, CSLIB_UTIL)
    assert [b.jump_source for b in story.branches if b.jump_opaque] == ["*gosub_scene {p_scene} {p_label} n"]


def test_many_names_built_from_each_other_are_narrowed_in_bounded_time(tmp_path):
    import time

    lines = ["*scene_list", "  startup"] + [f'*create v{i} "a{i}"' for i in range(1500)]
    for i in range(1500):
        lines += [f'*set {{v{i}&"_x"}} v{(i + 1) % 1500}&"b"', f"*set v{i} v{(i + 7) % 1500}&v{(i + 3) % 1500}"]
    lines += [f"*gosub_scene {{v{i}}} {{v{i + 1}}} v{i + 2}" for i in range(200)] + ["*finish"]
    start = time.perf_counter()
    story = load(tmp_path, {"startup": "\n".join(lines)})
    assert time.perf_counter() - start < 30
    assert len(story.branches) >= 200


def test_a_computed_jump_in_a_routine_nobody_calls_goes_nowhere(tmp_path):
    """The parameters of a routine no one calls hold no value: its computed jump makes no
    branch (and is no opaque jump), only an issue saying nothing gives it a name
    (cslib_array in the character creator, which never calls it)."""
    story = load(tmp_path, {"startup": "*finish\n", "lib": """
        *label for_each
        *params p_scene p_label
        *gosub_scene {p_scene} {p_label}
        *return
    """})
    assert issues(story) == [("lib", 3), ("lib", 4)]   # and the *return has no call to go back to
    assert "값을 주는 곳" in story.issues[0].reason
    assert not any(b.jump_opaque for b in story.branches)
    assert not [b for b in story.branches if b.source_line == 3 and b.to_scene != "lib.after-3"]


def test_a_script_reading_names_it_builds_reads_those_variables(tmp_path):
    story = load(tmp_path, {"startup": """
        *create pick_1 ""
        *create pick_2 ""
        *create other ""
        *script for(var i=1;i<3;i++){console.log(this.stats["pick_"+i]);}
        *finish
    """})
    flags = {f.flag: f for f in story.flags}
    assert flags["pick_1"].read_at == [at(tmp_path, "startup", 4)] and flags["pick_2"].read_at
    assert flags["other"].read_at == [] and not flags["other"].effect_opaque
