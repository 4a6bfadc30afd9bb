"""Yarn as Yarn Spinner 3 reads it: detours and returns, node groups (``when:``),
smart variables, every read of a variable, and the line scanner — one small dialogue
per construct, with the scenes, branches and flags it must give."""

from __future__ import annotations

import time
from pathlib import Path

from hypothesis import given, settings, strategies as st

from storygraph.importers import import_story
from storygraph.importers.selfcheck import import_check
from storygraph.importers.yarn import import_yarn_text, scan_constructs

from .helpers import branch_rows, check_invariants, scene_rows


def dialogue(tmp_path: Path, text: str, name: str = "talk.yarn"):
    path = tmp_path / name
    path.write_text(text.strip("\n") + "\n", encoding="utf-8")
    story = import_story(path)
    check_invariants(story)
    result = import_check(story)
    assert result.passed, result.failed_targets
    return story, str(path)


def flags(story) -> dict:
    return {f.flag: f for f in story.flags}


# ----------------------------------------------------------------------------- <<detour>> and <<return>>


DETOUR = """
title: Start
---
<<detour Backstory>>
Guard: Anyway.
<<jump Gate>>
===
title: Backstory
---
It all started long ago.
===
title: Gate
---
<<if $tired>>
    <<return>>
<<endif>>
<<detour Backstory>>
===
"""


def test_the_end_of_a_detoured_node_goes_back_after_each_detour(tmp_path):
    story, _ = dialogue(tmp_path, DETOUR)
    rows = branch_rows(story)
    # Backstory is entered only by detours: its end goes back after each, never to the end
    assert [r[1:4] for r in rows if r[1] == "Backstory"] == [
        ("Backstory", "Start.after-3", "choice"), ("Backstory", "Gate.after-16", "choice")]
    # Gate is entered by a jump: its end, and its <<return>> (no detour to go back to), end the dialogue
    assert ("Gate#1", "Gate", "(end)", "auto", "tired", None, False, 14) in rows
    assert ("Gate.after-16#1", "Gate.after-16", "(end)", "auto", "", None, False, 16) in rows
    assert story.issues == []


def test_a_detour_inside_an_if_meets_the_readers_who_skip_it_after_endif(tmp_path):
    story, _ = dialogue(tmp_path, """
title: Start
---
<<if $x>>
    <<detour Side>>
<<endif>>
<<stop>>
===
title: Side
---
Side.
===
""")
    assert branch_rows(story)[:4] == [
        ("Start#1", "Start", "Side", "auto", "x", None, False, 4),
        ("Start.after-4#1", "Start.after-4", "Start.after-3-if", "auto", "", None, False, 3),
        ("Start#2", "Start", "Start.after-3-if", "auto", "not x", None, False, 3),
        ("Start.after-3-if#1", "Start.after-3-if", "(end)", "auto", "", None, False, 6),
    ]


def test_nested_ifs_without_indentation_are_matched_by_endif(tmp_path):
    story, _ = dialogue(tmp_path, """
title: Start
---
<<if $a>>
<<if $b>>
<<jump Start>>
<<endif>>
<<endif>>
===
""")
    assert story.issues == []
    assert branch_rows(story)[0] == ("Start#1", "Start", "Start", "auto", "a and b", None, False, 5)


# ----------------------------------------------------------------------------- node groups


GROUP = """
title: Start
---
<<jump Guard>>
===
title: Guard
when: once
---
Guard: You there!
===
title: Guard
when: always
---
Guard: The king has a new advisor.
===
title: Guard
when: $has_sword
---
Guard: No weapons!
===
title: Gate
when: $day == 1
---
Monday.
===
title: Gate
when: once if $day == 2
when: $open
---
Tuesday.
===
title: Visit
---
<<detour Gate>>
Back.
===
"""


def test_a_node_group_goes_to_each_member_under_its_when_conditions(tmp_path):
    story, _ = dialogue(tmp_path, GROUP)
    assert [r[0] for r in scene_rows(story)] == [
        "Start", "Guard", "Guard.when-1", "Guard.when-2", "Guard.when-3", "Gate", "Gate.when-1", "Gate.when-2",
        "Visit", "Visit.after-33", "(end)"]
    rows = branch_rows(story)
    assert [r for r in rows if r[1] in ("Guard", "Gate")] == [
        ("Guard#1", "Guard", "Guard.when-1", "choice", "", None, True, 6),          # once: once only
        ("Guard#2", "Guard", "Guard.when-2", "choice", "", None, False, 11),         # always
        ("Guard#3", "Guard", "Guard.when-3", "choice", "has_sword", None, False, 16),
        ("Gate#1", "Gate", "Gate.when-1", "choice", "day == 1", None, False, 21),
        ("Gate#2", "Gate", "Gate.when-2", "choice", "day == 2 and open", None, True, 26),
        ("Gate#3", "Gate", "Visit.after-33", "choice", "", None, False, 20),        # no member may run: back at once
    ]
    # a member's end goes where its group's does: the end of the dialogue after a jump, back after a detour
    assert ("Guard.when-1#1", "Guard.when-1", "(end)", "auto", "", None, False, 8) in rows
    assert ("Gate.when-2#1", "Gate.when-2", "Visit.after-33", "auto", "", None, False, 29) in rows
    assert story.issues == []
    assert {s.scene_id for s in story.scenes if s.is_entry} == {"Start", "Visit"}


def test_a_title_shared_by_a_node_without_when_is_still_a_duplicate(tmp_path):
    path = tmp_path / "t.yarn"
    path.write_text("title: A\n---\nOne.\n===\ntitle: A\nwhen: always\n---\nTwo.\n===\n", encoding="utf-8")
    story = import_story(path)
    assert [(i.line, i.reason) for i in story.issues] == [
        (5, "같은 이름의 노드(`A`)가 앞에 또 있어 뒤의 것은 옮기지 않았습니다.")]


def test_a_node_group_across_files_of_a_folder(tmp_path):
    (tmp_path / "a.yarn").write_text("title: Start\n---\n<<jump Bark>>\n===\ntitle: Bark\nwhen: $x\n---\nA.\n===\n", encoding="utf-8")
    (tmp_path / "b.yarn").write_text("title: Bark\nwhen: always\n---\nB.\n===\n", encoding="utf-8")
    story = import_story(tmp_path)
    assert [(s.scene_id, Path(s.source_file).name if s.source_file else None, s.source_line) for s in story.scenes][:4] == [
        ("Start", "a.yarn", 1), ("Bark", "a.yarn", 5), ("Bark.when-1", "a.yarn", 5), ("Bark.when-2", "b.yarn", 1)]
    assert story.issues == [] and import_check(story).passed


# ----------------------------------------------------------------------------- smart variables


SMART = """
title: Start
---
<<declare $strength = 0>>
<<declare $magic = 0>>
<<declare $powerful = $strength > 50 && $magic >= 20>>
<<declare $total = $strength + $magic>>
<<declare $luck = 3>>
Your total is {$total}.
<<if $powerful>>
    <<jump Start>>
<<elseif $total > 10>>
    <<jump Start>>
<<endif>>
<<set $powerful to true>>
===
"""


def test_a_smart_variable_is_read_as_its_expression(tmp_path):
    story, path = dialogue(tmp_path, SMART)
    rows = branch_rows(story)
    assert rows[0] == ("Start#1", "Start", "Start", "auto", "strength > 50 and magic >= 20", None, False, 10)
    # an expression our language cannot hold: the condition is opaque, and still read
    assert rows[1][4] == "" and rows[1][5] == "$total > 10"
    f = flags(story)
    assert set(f) == {"strength", "magic", "luck"}                 # a smart variable is no stored flag
    assert f"{path}:8" in f["strength"].read_at and f"{path}:8" in f["magic"].read_at   # {$total}
    assert f"{path}:11" in f["magic"].read_at
    assert f["luck"].read_at == []
    assert [(i.line, "스마트 변수 `$powerful`은" in i.reason) for i in story.issues if i.line == 14] == [(14, True)]


# ----------------------------------------------------------------------------- reads and writes


def test_every_read_is_recorded_wherever_it_is(tmp_path):
    story, path = dialogue(tmp_path, """
title: Start
---
<<declare $a = 1>>
Hello {$a}, <<if $b>> you again.
-> Pay {$c} coins <<if $d > 0>>
    <<give_item $e>>
-> Leave
<<set $f to $g + 1>>
<<jump {$h}>>
===
title: Later
when: $i
---
Bye.
===
""")
    f = flags(story)
    for name, line in [("a", 4), ("b", 4), ("c", 5), ("d", 5), ("e", 6), ("g", 8), ("h", 9), ("i", 12)]:
        assert f"{path}:{line}" in f[name].read_at, (name, f[name].read_at)
    assert f["f"].read_at == [] and f["f"].effect_opaque   # set from another variable: not computable
    assert [b.choice_text for b in story.branches if b.kind == "choice"][:2] == ["Pay {$c} coins", "Leave"]


# ----------------------------------------------------------------------------- the line scanner


def test_scan_constructs_lists_nodes_and_ways_on(tmp_path):
    path = tmp_path / "t.yarn"
    path.write_text(GROUP.strip("\n") + "\n", encoding="utf-8")
    found = [(c.line, c.kind, c.name) for c in scan_constructs(path)]
    assert found == [
        (1, "scene", "Start"), (5, "scene", "Guard.when-1"), (10, "scene", "Guard.when-2"), (15, "scene", "Guard.when-3"),
        (20, "scene", "Gate.when-1"), (25, "scene", "Gate.when-2"), (31, "scene", "Visit"),
        (3, "branch", None), (33, "branch", None)]


LINES = st.one_of(
    st.builds(lambda i, n: " " * i + f"<<jump {n}>>", st.integers(0, 6), st.sampled_from(["A", "B", "G", "Nope"])),
    st.builds(lambda i, s: " " * i + s, st.integers(0, 6), st.sampled_from([
        "<<if $x>>", "<<elseif $n > 1>>", "<<else>>", "<<endif>>", "<<stop>>", "<<set $n to 1>>", "line {$n}",
        "<<detour B>>", "<<detour G>>", "<<return>>", "=> random line", "<<jump {$d}>>", "<<detour {$d}>>",
        "-> pick", "-> pick <<if $x>>", "<<declare $s = $n > 2>>", "<<if $s>>", "<<set $s to 1>>"])),
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=20), st.lists(LINES, max_size=10))
def test_the_import_of_any_lines_checks_itself(tmp_path_factory, a, b):
    text = ("title: A\n---\n" + "\n".join(a) + "\n===\ntitle: B\n---\n" + "\n".join(b)
            + "\n===\ntitle: G\nwhen: $x\n---\n<<return>>\n===\ntitle: G\nwhen: once\n---\nHi.\n===\n")
    path = tmp_path_factory.mktemp("yarn") / "gen.yarn"
    path.write_text(text, encoding="utf-8")
    story = import_story(path)
    check_invariants(story)
    result = import_check(story)
    assert result.passed, result.failed_targets


# ----------------------------------------------------------------------------- hostile input


def test_long_chains_deep_ifs_and_detour_cycles_are_bounded():
    lines = ["title: Start", "---", "<<if $n == 0>>", "<<jump A>>"]
    for k in range(1, 3000):
        lines += [f"<<elseif $n == {k}>>", "<<jump A>>"]
    lines += ["<<endif>>", "===", "title: A", "---"]
    lines += ["<<if $x>>"] * 300 + ["<<jump B>>"] + ["<<endif>>"] * 300
    lines += ["<<detour B>>", "===", "title: B", "---", "<<detour A>>", "<<detour B>>", "<<return>>", "==="]
    start = time.perf_counter()
    story = import_yarn_text("\n".join(lines) + "\n", "hostile.yarn").finish()
    assert time.perf_counter() - start < 30
    check_invariants(story)
    assert any("64겹보다 깊게" in i.reason for i in story.issues)
    assert any(b.condition_source == "$n == 64" for b in story.branches)   # past 64 cases: opaque
