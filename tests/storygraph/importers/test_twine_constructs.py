"""Twine as its engines read it: one small story per construct (Harlowe, SugarCube and
Twine 1), with the scenes, branches, opaque jumps, flags, reads and writes it must give,
and the import self-check passing on each."""

from __future__ import annotations

import time

import pytest

from storygraph.importers.twee import scan_constructs

from .helpers import import_written

HARLOWE = ':: StoryData\n{"format": "Harlowe", "start": "A"}\n\n'
SUGARCUBE = ':: StoryData\n{"format": "SugarCube", "start": "A"}\n\n'


def read(tmp_path, text: str, name: str = "t.twee"):
    return import_written(tmp_path / name, text)


def rows(story) -> list[tuple]:
    """(to_scene or None for an opaque jump, kind, condition_expr or the opaque source, line, choice text)"""
    return [(b.to_scene or None, b.kind, b.condition_source if b.condition_opaque else b.condition_expr, b.source_line,
             b.choice_text) for b in story.branches]


def flag(story, name: str):
    return next(f for f in story.flags if f.flag == name)


def lines(places: list[str]) -> list[int]:
    return [int(p.rsplit(":", 1)[1]) for p in places]


# ----------------------------------------------------------------------------- Harlowe


def test_harlowe_possessive_is_not_a_quote(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(print: $pet's name) [[Tom's house->B]]\n(set: $pet's age to 3)(if: $n > 1)[[[B]]]\n\n:: B\n")
    assert rows(story) == [("B", "choice", "", 5, "Tom's house"), ("B", "choice", "n > 1", 6, "B")]
    assert story.issues == []   # no "bracket not closed"
    assert lines(flag(story, "pet").read_at) == [5] and flag(story, "pet").effect_opaque


def test_harlowe_it_is_the_left_side_before_it(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(set: $n to it + 1)(if: $n > 2 and it < 5)[[[B]]]\n\n:: B\n")
    assert rows(story) == [("B", "choice", "n > 2 and n < 5", 5, "B")]
    assert flag(story, "n").written_at == [f"{tmp_path / 't.twee'}:5"]


def test_harlowe_hooks_after_macros_and_changer_chains(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(if: $x)+(text-colour: red)[[[B]]](else:) [ [[C]] ]\n(if: $y)[[C]]\n\n:: B\n\n:: C\n")
    # `(if: $y)[[C]]` is a link right after the macro, not a hook: Harlowe shows it whatever $y is
    assert rows(story) == [("B", "choice", "x", 5, "B"), ("C", "choice", "not x", 5, "C"), ("C", "choice", "", 6, "C")]


def test_harlowe_link_macros(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(link-goto: \"Go\", \"B\")\n(click-goto: ?sign, \"B\")\n"
                 "(link-reveal-goto: \"Run\", \"C\")[(set: $ran to true)]\n(link: \"Wait\")[(goto: \"C\")]\n"
                 "(link-undo: \"Back\") (restart:)\n(go-to: \"B\")\n\n:: B\n\n:: C\n(if: $ran)[x]\n")
    assert rows(story) == [("B", "auto", "", 10, ""), ("B", "choice", "", 5, "Go"), ("B", "choice", "", 6, ""),
                           ("C", "choice", "", 7, "Run"), ("C", "choice", "", 8, "Wait")]
    assert "되돌아가는" in story.accounted[(str(tmp_path / "t.twee"), 9)]
    assert lines(flag(story, "ran").written_at) == [7] and lines(flag(story, "ran").read_at) == [15]


def test_harlowe_display_reads_the_passage_there_bounded(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(if: $x)[(display: \"Menu\")]\n(display: \"Loop\")\n\n"
                 ":: Menu\n[[B]]\n(display: \"Menu\")\n\n:: Loop\n(display: \"Loop\")\n\n:: B\n")
    assert rows(story) == [("B", "choice", "x", 9, "B")]
    assert {s.scene_id for s in story.scenes} == {"A", "B"}   # Menu and Loop are fragments
    assert sorted(i.line for i in story.issues) == [10, 13]   # each includes itself again


# ----------------------------------------------------------------------------- variable targets


def test_variable_link_targets_expand_over_the_values_assigned(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(set: $colour to \"red\")\n[[$colour door]]\n[[Open->$colour door]]\n"
                 "(link-goto: \"Go\", $colour + \" door\")\n\n:: B\n(set: $colour to \"blue\")\n\n:: red door\n\n:: blue door\n")
    assert rows(story) == [
        ("red door", "choice", 'colour == "red"', 6, "$colour door"), ("blue door", "choice", 'colour == "blue"', 6, "$colour door"),
        ("red door", "choice", 'colour == "red"', 7, "Open"), ("blue door", "choice", 'colour == "blue"', 7, "Open"),
        ("red door", "choice", 'colour == "red"', 8, "Go"), ("blue door", "choice", 'colour == "blue"', 8, "Go")]
    assert lines(flag(story, "colour").read_at) == [6, 7, 8]


def test_variable_targets_we_cannot_compute_are_opaque_jumps(tmp_path):
    text = (SUGARCUBE + ":: A\n<<set $dest to $a + $b>><<set $room to \"B\">>\n<<goto $dest>>\n[[Go|\"Room \" + $n]]\n"
            "<<link \"Try\" `$room + \"x\"`>><</link>>\n<<goto $nowhere>>\n\n:: B\n")
    story = read(tmp_path, text)
    assert [(b.jump_opaque, b.jump_source, b.source_line) for b in story.branches] == [
        (True, "<<goto $dest>>", 6),            # $dest is computed
        (True, "<<goto $nowhere>>", 9),         # never assigned
        (True, '[[Go|"Room " + $n]]', 7),       # $n has no value
        (True, '<<link "Try" `$room + "x"`>>', 8)]  # "Bx" names no passage
    assert story.issues == [] and {s.scene_id for s in story.scenes} == {"A", "B"}
    assert flag(story, "dest").effect_opaque


def test_harlowe_print_in_a_link_target_with_a_possessive_is_opaque(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(set: $x to (a: \"Red\"))\n[[first->(print: $x's 1st) Compartment]]\n\n"
                 ":: Red Compartment\n")
    assert [(b.jump_opaque, b.jump_source, b.choice_text) for b in story.branches] == [
        (True, "[[first->(print: $x's 1st) Compartment]]", "first")]
    # not a missing scene, and the compartment it may reach is a scene of its own
    assert {s.scene_id for s in story.scenes} == {"A", "Red Compartment"}


def test_sugarcube_variable_targets_in_macros(tmp_path):
    story = read(tmp_path, SUGARCUBE + ":: StoryInit\n<<set $next to either(\"B\", \"C\")>>\n\n"
                 ":: A\n[[Wander|$next]]\n<<link \"Go\" $next>><</link>>\n<<goto [[B]]>>\n\n:: B\n\n:: C\n")
    assert rows(story) == [("B", "auto", "", 10, ""),
                           ("B", "choice", 'next == "B"', 8, "Wander"), ("C", "choice", 'next == "C"', 8, "Wander"),
                           ("B", "choice", 'next == "B"', 9, "Go"), ("C", "choice", 'next == "C"', 9, "Go")]
    assert lines(flag(story, "next").declared_at) == [5]   # StoryInit declares


def test_three_thousand_variable_targets_stay_fast(tmp_path):
    sets = "".join(f'(set: $v{i} to "r{i % 7}")' for i in range(3000))
    links = "\n".join(f"[[$v{i} room]]" for i in range(3000))
    rooms = "\n".join(f":: r{i} room\nx\n" for i in range(7))
    start = time.perf_counter()
    story = read(tmp_path, HARLOWE + ":: A\n" + sets + "\n" + links + "\n\n" + rooms)
    assert time.perf_counter() - start < 30
    assert len(story.branches) == 3000 and not any(b.jump_opaque for b in story.branches)


# ----------------------------------------------------------------------------- SugarCube and Twine 1


def test_twine1_endif_and_else_if_close_their_blocks(tmp_path):
    story = read(tmp_path, ":: Start\n<<if $key eq 1>>[[Vault]]<<else if $key eq 2>>[[Hall]]<<else>>[[Look]]<<endif>>\n"
                 "<<silently>><<set $key = 1>><<endsilently>>[[Hall]]\n\n:: Vault\n\n:: Hall\n\n:: Look\n")
    assert rows(story) == [("Vault", "choice", "key == 1", 2, "Vault"), ("Hall", "choice", "not key == 1 and key == 2", 2, "Hall"),
                           ("Look", "choice", "not key == 1 and not key == 2", 2, "Look"), ("Hall", "choice", "", 3, "Hall")]


def test_sugarcube_include_and_display(tmp_path):
    story = read(tmp_path, SUGARCUBE + ":: A\n<<if $x>><<include \"Menu\">><</if>>\n<<display [[Gone]]>>\n\n"
                 ":: Menu\n[[B]]\n\n:: B\n")
    assert rows(story) == [("B", "choice", "x", 9, "B")]
    assert [i.line for i in story.issues] == [6]   # Gone does not exist


def test_widgets_are_read_where_they_are_called(tmp_path):
    text = (SUGARCUBE + ":: Widgets [widget]\n<<widget \"door\">><<link _args[0] _args[1]>><</link>>"
            "<<if $lit>>[[Cellar]]<</if>><<door \"x\" \"y\">><</widget>>\n\n"
            ":: A\n<<door \"Leave\" \"B\">>\n<<link \"Go\">><<door \"In\" \"Cellar\">><</link>>\n\n:: B\n\n:: Cellar\n")
    story = read(tmp_path, text)
    assert rows(story) == [("B", "choice", "", 5, "Leave"), ("Cellar", "choice", "lit", 5, "Cellar"),
                           ("Cellar", "choice", "", 5, "In"), ("Cellar", "choice", "lit", 5, "Cellar")]
    # the widget calls itself: read once, never a hang
    assert story.issues == []


def test_macros_defined_in_the_story_javascript(tmp_path):
    text = (SUGARCUBE + ":: Story JavaScript [script]\n"
            'Macro.add("travel", { handler() { Engine.play(this.args[0]); } });\n'
            'Macro.add("shout", { handler() { this.output.append(this.args[0]); } });\n'
            'Macro.add("jumpto", "goto");\n'
            'Macro.add("wander", { handler() { Engine.play(either(this.args)); } });\n\n'
            ':: A\n<<travel "B">>\n<<shout "B">>\n<<jumpto "B">>\n<<mystery [[B]]>>\n<<wander "B">>\n\n:: B\n')
    story = read(tmp_path, text)
    assert [(b.to_scene, b.kind, b.jump_opaque, b.source_line) for b in story.branches] == [
        ("B", "auto", False, 11),     # Engine.play(this.args[0]): it goes where it is told, as <<goto>>
        ("B", "auto", False, 13),     # an alias of <<goto>>
        ("B", "choice", False, 14), ("", "choice", True, 14),   # a macro we cannot read, given a link
        ("B", "choice", False, 15), ("", "choice", True, 15)]   # may jump (Engine.play elsewhere): the passage, and anywhere
    assert all(b.source_line != 12 for b in story.branches)   # <<shout>> only writes text


def test_twine1_macros_that_show_a_passage_are_includes(tmp_path):
    """A Twine 1 story (no StoryData: `:::x` names `x`) whose script defines
    `macros['show'] = macros['reveal'] = {…}` showing the passage it is given, and a macro
    defined in no script we can see that is given a passage's name."""
    text = (":: Start\n[[Go|fourteen]]\n<<show \"Room\">>\n<<reveal \"Room\">>\n<<elsewhere \"Hall\">>\n\n"
            ":::fourteen\ntext\n\n:: Room\n[[Hall]]\n\n:: Hall\n\n:: Tools [script]\n"
            "macros['show'] = macros['reveal'] = {\n  handler: function(place, name, params) {\n"
            "    var p = tale.get(params[0]); new Wikifier(place, p.text);\n  }\n};\n")
    story = read(tmp_path, text)
    assert {s.scene_id for s in story.scenes} == {"Start", "fourteen", "Hall"}   # Room is only shown: a fragment
    assert [(b.to_scene, b.jump_opaque, b.source_line) for b in story.branches] == [
        ("fourteen", False, 2), ("Hall", False, 11), ("Hall", False, 11),   # the shown passage's link, at its line
        ("Hall", False, 5), ("", True, 5)]                                     # <<elsewhere>> may go anywhere


def test_an_element_of_a_list_of_passages(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(set: $seq to (a: \"B\", \"C\", \"Nine\"))\n(link: \"on\")[(goto: $next)]\n"
                 "(move: $seq's 1st into $next)\n\n:: B\n\n:: C\n")
    assert rows(story) == [("B", "choice", 'next == "B"', 6, "on"), ("C", "choice", 'next == "C"', 6, "on")]
    assert flag(story, "next").values == ["B", "C"]   # "Nine" names no passage: the list never gets there


def test_an_include_whose_condition_rules_a_link_out_adds_no_branch_there(tmp_path):
    text = (SUGARCUBE + ":: A\n<<if $x>><<include \"Room\">><<else>><<include \"Room\">><</if>>\n\n"
            ":: Room\n<<if $x>>[[B]]<</if>>[[C]]\n\n:: B\n\n:: C\n")
    story = read(tmp_path, text)
    # on the <<else>> way, [[B]] is never shown: no branch that can never fire, no false 조건이 겹침
    assert rows(story) == [("B", "choice", "x and x", 8, "B"), ("C", "choice", "x", 8, "C"), ("C", "choice", "not x", 8, "C")]


def test_harlowe_time_is_an_opaque_condition(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(if: time > 2s)[[[B]]]\n(set: $d to \"cup of tea\")(if: $d is \"cup of tea\")[[[B]]]\n\n:: B\n")
    assert rows(story) == [("B", "choice", "time > 2s", 5, "B"), ("B", "choice", 'd == "cup of tea"', 6, "B")]
    assert [b.condition_opaque for b in story.branches] == [True, False] and story.issues == []


def test_twine1_previous_passage_and_printed_markup(tmp_path):
    """`[[Back|previous()]]` goes back (no branch), `[[Again|passage()]]` comes back
    here, and the links a `<<print either(…)>>` may show are read at its line."""
    text = (":: Start\n[[Back|previous()]] [[Again|passage()]]\n"
            "<<print either(\"[[Left]]\", \"[img[pic.png][Right]]\", \"<<timedgoto 'Late' 4s>>\")>>\n\n"
            ":: Left\n\n:: Right\n\n:: Late\n")
    story = read(tmp_path, text)
    assert [(b.to_scene, b.jump_opaque, b.condition_opaque, b.source_line) for b in story.branches] == [
        ("Start", False, False, 2), ("Left", False, True, 3), ("Right", False, True, 3),
        ("Late", False, True, 3), ("", True, True, 3)]   # <<timedgoto>> is defined nowhere: it may go anywhere
    assert "previous()" in story.accounted[(str(tmp_path / "t.twee"), 2)]


def test_a_variable_without_a_first_value(tmp_path):
    """SugarCube's `undefined` before the first write matches no comparison: the variable
    is an opaque effect (no range finding rests on it); Harlowe's unset 0 is a value."""
    sugar = read(tmp_path, SUGARCUBE + ":: A\n<<if $key is 1>>[[B]]<<else>>[[C]]<</if>>\n\n:: B\n<<set $key to 1>>\n\n:: C\n")
    assert flag(sugar, "key").effect_opaque and "처음 값" in flag(sugar, "key").effect_source
    harlowe = read(tmp_path, HARLOWE + ":: A\n(if: $key is 1)[[[B]]]\n\n:: B\n(set: $key to 1)\n", "h.twee")
    key = flag(harlowe, "key")
    assert not key.effect_opaque and (key.min_value, key.max_value) == (0, 1)
    declared = read(tmp_path, SUGARCUBE + ":: StoryInit\n<<set $key to 0>>\n\n:: A\n<<set $n to 2>><<if $key is 1>>[[A]]<</if>>\n",
                    "d.twee")
    assert not flag(declared, "key").effect_opaque and not flag(declared, "n").effect_opaque   # set in the start passage


def test_javascript_reads_and_writes_story_variables(tmp_path):
    text = (SUGARCUBE + ":: Story JavaScript [script]\nState.variables.gold += 2;\nvar n = state.history[0].variables[\"name\"];\n\n"
            ":: StoryInit\n<<set $gold to 0>><<set $name to \"x\">>\n\n:: A\n<<run State.variables.gold = 5>>[[A]]\n")
    story = read(tmp_path, text)
    gold = flag(story, "gold")
    assert not gold.effect_opaque and lines(gold.written_at) == [5, 12] and (gold.min_value, gold.max_value) == (0, 7)
    assert lines(flag(story, "name").read_at) == [6]


def test_links_inside_macro_arguments(tmp_path):
    text = (SUGARCUBE + ':: A\n<<link "Steal" "B">><<set $gold += 5>><</link>>\n<<button [[Pay|C]]>><</button>>\n'
            '<<choice "B" "Walk">> <<click "Knock" "C">><</click>>\n<<actions "B" [[Ask|C]]>>\n'
            '<<if $gold gt 2>>[[C]]<</if>> <<set $note to "[[B]]">>\n<<textbox "$name" "" "C">>\n\n:: B\n\n:: C\n')
    story = read(tmp_path, text)
    assert [(b.to_scene, b.once_only, b.source_line, b.choice_text) for b in story.branches] == [
        ("B", False, 5, "Steal"), ("C", False, 6, "Pay"), ("B", False, 7, "Walk"), ("C", False, 7, "Knock"),
        ("B", True, 8, "B"), ("C", True, 8, "Ask"), ("C", False, 9, "C"), ("C", False, 10, "")]
    assert flag(story, "name").effect_opaque and lines(flag(story, "gold").written_at) == [5]


def test_external_links_are_not_passages(tmp_path):
    text = SUGARCUBE + ":: A\n[[Twine|http://twinery.org]] [[Mail|mailto:a@b.c]]\n<<link \"Web\" \"https://x.org\">><</link>>\n[[B]]\n\n:: B\n"
    story = read(tmp_path, text)
    assert rows(story) == [("B", "choice", "", 7, "B")]
    file = str(tmp_path / "t.twee")
    assert "웹 주소" in story.accounted[(file, 5)] and "웹 주소" in story.accounted[(file, 6)]


def test_comments_and_scripts_hold_no_links(tmp_path):
    story = read(tmp_path, SUGARCUBE + ":: A\n/* [[Old]] */ <!-- [[Older]] -->\n<<script>>var s = \"[[X]]\";<</script>>\n[[B]]\n\n:: B\n")
    assert rows(story) == [("B", "choice", "", 7, "B")]


# ----------------------------------------------------------------------------- reads and writes


def test_reads_anywhere_and_writes_with_their_lines(tmp_path):
    text = (SUGARCUBE + ":: StoryInit\n<<set $hp to 10>><<set $luck to random(1, 6)>><<set $score to 0>>\n\n"
            ":: A\nYou have $hp points.\n<<print $luck>> <<= $score>>\n<<set $power to $hp * $luck>><<set _tmp to 3>>\n"
            "[[Rest|B][$hp to $hp + 1]]\n<<checkbox \"$brave\" false true>>\n\n:: B\n")
    story = read(tmp_path, text)
    assert lines(flag(story, "hp").read_at) == [8, 10] and lines(flag(story, "hp").declared_at) == [5]
    assert lines(flag(story, "hp").written_at) == [11]
    assert lines(flag(story, "luck").read_at) == [9, 10] and (flag(story, "luck").min_value, flag(story, "luck").max_value) == (1, 6)
    assert lines(flag(story, "score").read_at) == [9]
    power = flag(story, "power")
    assert power.effect_opaque and lines(power.written_at) == [10] and "$hp * $luck" in power.effect_source
    assert flag(story, "brave").type == "bool" and lines(flag(story, "brave").written_at) == [12]
    assert not any(f.flag in ("tmp", "_tmp") for f in story.flags)   # a temporary is no story flag


def test_harlowe_reads_in_text_print_and_hooks(tmp_path):
    story = read(tmp_path, HARLOWE + ":: A\n(set: $a to 1)(set: $b to 2)(set: $c to 3)\n$a apples\n(print: $b)\n"
                 "(if: $c is 3)[text]\n(set: _t to $a)\n\n")
    assert [lines(flag(story, k).read_at) for k in "abc"] == [[6, 9], [7], [8]]


# ----------------------------------------------------------------------------- choice text, bounds, the scanner


def test_hostile_twine_stays_bounded(tmp_path):
    cases = {
        "hooks": HARLOWE + ":: A\n" + "(if: $x)[" * 3000 + "[[B]]" + "]" * 3000 + "\n\n:: B\n",
        "widget": SUGARCUBE + ":: W [widget]\n<<widget \"w\">><<w>><<w>>[[B]]<</widget>>\n\n:: A\n<<w>>\n\n:: B\n",
        "fanout": SUGARCUBE + ":: W [widget]\n" + "\n".join(
            f"<<widget \"w{i}\">><<w{i + 1}>><<w{i + 1}>><<w{i + 1}>>[[B]]<</widget>>" for i in range(30)) + "\n\n:: A\n<<w0>>\n\n:: B\n",
        "quotes": HARLOWE + ":: A\n" + '(a: "' * 20000 + ")\n",
        "macros": SUGARCUBE + ":: A\n" + '<<link "' * 20000 + ">>\n",
    }
    for name, text in cases.items():
        start = time.perf_counter()
        story = read(tmp_path, text, f"{name}.twee")
        assert time.perf_counter() - start < 30, name


def test_scan_constructs_lists_headers_and_link_lines(tmp_path):
    path = tmp_path / "s.twee"
    path.write_text(":: Start [tag] {\"position\":\"1,1\"}\n[[A]]\ntext\n<<goto \"A\">> (go-to: \"A\")\n:: A\\[1\\]\n"
                    "(link-goto: \"x\", \"A\")\n", encoding="utf-8")
    found = [(c.line, c.kind, c.name) for c in scan_constructs(path)]
    assert found == [(1, "scene", "Start"), (2, "branch", None), (4, "branch", None), (5, "scene", "A[1]"), (6, "branch", None)]


@pytest.mark.parametrize("text, expected", [
    ("[[Board the ship->Ship]]", "Board the ship"), ("[[Ship<-Board]]", "Board"), ("[[Board|Ship]]", "Board"),
    ("[[Ship]]", "Ship"), ('(link-goto: "Sail", "Ship")', "Sail"), ('(link: "Sail")[(go-to: "Ship")]', "Sail"),
])
def test_choice_text_is_what_the_reader_sees(tmp_path, text, expected):
    story = read(tmp_path, HARLOWE + f":: A\n{text}\n\n:: Ship\n")
    assert [b.choice_text for b in story.branches] == [expected]


# ----------------------------------------------------------------------------- any passages

from hypothesis import given, strategies as st  # noqa: E402

PIECES = st.sampled_from([
    "[[b]]", "[[go->c]]", "[[b<-back]]", "[[t|a]]", "[[$d room]]", "[[x|$d]]", "[[w|http://x.org]]", "[[",
    "(link-goto: \"a\")", "(go-to: \"b\")", "(goto: $d)", "(if: $x)[[[c]]]", "(else:)[(link: \"l\")[(go-to: \"a\")]]",
    "(display: \"b\")", "(link-undo: \"u\")", "(print: $d's 1st)", "(set: $d to \"b\")", "(set: $n to it + 1)", "(if:",
    "<<if $x>>[[a]]<<else>>[[b]]<<endif>>", "<<link \"t\" \"c\">><</link>>", "<<link \"t\">><<goto \"a\">><</link>>",
    "<<goto $d>>", "<<goto \"a\" + $n>>", "<<set $n += 1>>", "<<include \"c\">>", "<<back>>", "<<actions \"a\" [[b]]>>",
    "<<choice \"c\">>", "<<mac [[a]]>>", "<<w>>", "/* [[a]] */", "<<if", "<<link \"", "]", "[", "text $x", "`[[a]]`",
])


@given(st.sampled_from(["", "Harlowe", "SugarCube", "Chapbook"]), st.lists(st.lists(PIECES, max_size=6), min_size=1, max_size=4))
def test_any_passages_pass_the_self_check(fmt, bodies):
    """Whatever constructs a story is made of, in whichever format, every line the scanner
    finds is a scene, a branch, an issue or accounted for, and the tables are well formed."""
    import tempfile
    from pathlib import Path

    head = f':: StoryData\n{{"format": "{fmt}", "start": "a"}}\n\n' if fmt else ""
    widget = ':: W [widget]\n<<widget "w">>[[b]]<<w>><</widget>>\n\n'
    text = head + widget + "\n\n".join(f":: {name}\n" + "\n".join(body) for name, body in zip("abcd", bodies)) + "\n"
    with tempfile.TemporaryDirectory() as tmp:
        story = read(Path(tmp), text)
    assert all(b.to_scene or b.jump_opaque for b in story.branches)
