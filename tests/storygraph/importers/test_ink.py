"""ink (.ink) importer: every construct of the issue on one story written for the test
(``story_ink.ink``), the known bug pattern, and hostile input."""

from __future__ import annotations

import json

import pytest

from storygraph.importers import detect, import_story

from .helpers import HERE, branch_rows, check_invariants, flag_rows, lint_loads, nothing_dropped, scene_rows

STORY = HERE / "story_ink.ink"


@pytest.fixture(scope="module")
def story():
    return import_story(STORY)


def test_detected_as_ink():
    assert detect(STORY) == "ink"


def test_scenes(story):
    assert scene_rows(story) == [
        ("(top)", True, False, "", 1),
        ("harbor", False, False, "has_key,mood,trust", 11),
        ("harbor.ask", False, False, "", 18),              # labelled choice
        ("harbor.gather-23", False, False, "", 23),        # unlabelled gather (level 2)
        ("harbor.dusk", False, False, "trust", 25),        # labelled gather
        ("keeper", False, False, "", 31),
        ("keeper.talk", False, False, "mood,visits.keeper", 33),   # stitch
        ("keeper.talk.after-42", False, False, "next_room", 42),   # after the tunnel call
        ("keeper.farewell", False, False, "", 45),
        ("chat", False, False, "visits.harbor.dusk", 49),
        ("chat.choice-51", False, False, "", 51),          # choice body with two ways on
        ("storm", False, False, "", 54),
        ("gate", False, False, "", 58),
        ("cellar", False, False, "", 62),
        ("cellar.choice-64", False, False, "", 64),        # a loose end
        ("DONE", False, True, "", None),
        ("END", False, True, "", None),
    ]


def test_branches(story):
    assert branch_rows(story) == [
        ("(top)#1", "(top)", "harbor", "auto", "", None, False, 9),
        ("harbor#1", "harbor", "keeper", "choice", "", None, True, 13),
        ("harbor#2", "harbor", "gate", "choice", "has_key and trust >= 2", None, True, 14),   # CONST substituted
        ("harbor#3", "harbor", "harbor", "choice", 'mood == "angry"', None, False, 15),      # sticky +
        ("harbor#4", "harbor", "harbor.ask", "choice", "", None, True, 18),
        ("harbor.ask#1", "harbor.ask", "keeper.talk", "choice", "", None, True, 20),
        ("harbor.ask#2", "harbor.ask", "harbor.gather-23", "choice", "", None, True, 21),
        ("harbor.gather-23#1", "harbor.gather-23", "harbor", "auto", "", None, False, 23),
        ("harbor#5", "harbor", "harbor.dusk", "choice", "", None, True, 24),                 # falls to the gather
        ("harbor.dusk#1", "harbor.dusk", "gate", "auto", "trust > 1", None, False, 26),
        ("harbor.dusk#2", "harbor.dusk", "keeper", "auto", "not trust > 1", None, False, 26),
        ("harbor.dusk#3", "harbor.dusk", "gate", "choice", "", None, True, 27),              # after the gather divert
        ("harbor.dusk#4", "harbor.dusk", "keeper", "choice", "", None, True, 28),
        ("harbor.dusk#5", "harbor.dusk", "END", "auto", "", None, False, 29),                # invisible default
        ("keeper#1", "keeper", "keeper.talk", "auto", "", None, False, 32),
        ("keeper.talk#1", "keeper.talk", "harbor", "auto", "", "{~-> harbor|-> gate}", False, 34),
        ("keeper.talk#2", "keeper.talk", "gate", "auto", "", "{~-> harbor|-> gate}", False, 34),
        ("keeper.talk#3", "keeper.talk", "gate", "auto", "visits.keeper > 1", None, False, 36),
        ("keeper.talk#4", "keeper.talk", "harbor", "auto", 'mood == "calm"', None, False, 41),
        ("keeper.talk#5", "keeper.talk", "storm", "auto", 'not mood == "calm"', None, False, 42),
        ("keeper.talk#6", "keeper.talk", "keeper.talk.after-42", "auto", "", None, False, 42),
        ("keeper.talk.after-42#1", "keeper.talk.after-42", "cellar", "auto", 'next_room == "cellar"', None, False, 44),
        ("keeper.farewell#1", "keeper.farewell", "chat", "choice", "", None, False, 46),   # thread
        ("keeper.farewell#2", "keeper.farewell", "DONE", "auto", "", None, False, 47),
        ("chat#1", "chat", "harbor", "choice", "", "RANDOM(1, 6) > 3", True, 50),
        ("chat#2", "chat", "chat.choice-51", "choice", "visits.harbor.dusk != 0", None, True, 51),
        ("chat.choice-51#1", "chat.choice-51", "gate", "auto", "", None, False, 51),
        ("chat.choice-51#2", "chat.choice-51", "DONE", "auto", "", None, False, 52),
        ("gate#1", "gate", "END", "auto", "", None, False, 60),
        ("cellar#1", "cellar", "cellar.choice-64", "choice", "", None, True, 64),
        ("storm#1", "storm", "keeper.talk.after-42", "auto", "", None, False, 56),           # tunnel return
    ]


def test_flags(story):
    assert flag_rows(story) == [
        ("trust", "int", -1, 3, ""),            # 0 declared, ++ and - 1 seen, compared with 1 and LIMIT 2
        ("has_key", "bool", None, None, ""),
        ("mood", "enum", None, None, "calm|angry"),
        ("next_room", "enum", None, None, "cellar"),   # a divert target variable
        ("visits.keeper", "int", 0, 2, ""),
        ("visits.harbor.dusk", "int", 0, 1, ""),
    ]


def test_issues(story):
    assert [(i.line, i.reason.split(" ")[0]) for i in story.issues] == [
        (7, "LIST"), (64, "흐름이"), (8, "이"), (34, "조건"), (50, "조건")]   # line 8: INCLUDE of a missing file
    assert all(i.file == str(STORY) for i in story.issues)
    assert "무작위" in story.issues[-1].reason
    # the include that cannot be read says why, in Korean
    assert next(i.reason for i in story.issues if i.line == 8).endswith("읽지 못해(그런 파일이나 폴더가 없습니다) 그 파일의 장면은 옮기지 않았습니다.")


def test_invariants_and_nothing_dropped(story):
    check_invariants(story)
    text = STORY.read_text(encoding="utf-8")
    nothing_dropped(story, text, r"->|<-|^\s*[*+]", skip=r"^\s*(VAR|CONST)\b|^\s*//")


def test_once_only_follows_the_bullet(story):
    rows = {b.branch_id: b for b in story.branches}
    assert rows["harbor#1"].once_only and not rows["harbor#3"].once_only


def test_lint_loads_the_import(story, tmp_path):
    report = json.loads(lint_loads(story, tmp_path).stdout)
    assert report["cards"]


# -- the known bug pattern: choices after a one-dash gather divert can never appear

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
    path = tmp_path / "bug.ink"
    path.write_text(BUG, encoding="utf-8")
    story = import_story(path)
    rows = [r for r in branch_rows(story) if r[1] == "market.gather-5"]
    assert rows == [
        ("market.gather-5#1", "market.gather-5", "square", "auto", "", None, False, 5),
        ("market.gather-5#2", "market.gather-5", "bakery", "choice", "", None, True, 6),
        ("market.gather-5#3", "market.gather-5", "jail", "choice", "", None, True, 7),
    ]
    # under the menu semantics an earlier unconditional auto branch leaves no reader for them
    check_invariants(story)


# -- hostile input


def test_deep_nesting_is_bounded(tmp_path):
    deep = "-> a\n=== a ===\n" + "".join("*" * k + " [x]\n" for k in range(1, 300)) + "-> END\n"
    path = tmp_path / "deep.ink"
    path.write_text(deep, encoding="utf-8")
    story = import_story(path)
    assert any("깊게" in i.reason for i in story.issues)
    check_invariants(story)


def test_deep_condition_is_opaque_not_a_crash(tmp_path):
    path = tmp_path / "paren.ink"
    path.write_text("-> a\n=== a ===\n* {" + "(" * 5000 + "x" + ")" * 5000 + "} [go] -> END\n", encoding="utf-8")
    story = import_story(path)
    assert story.branches[1].condition_opaque
    check_invariants(story)


def test_control_characters_and_cp949(tmp_path):
    path = tmp_path / "ctl.ink"
    path.write_bytes("-> 부두\n=== 부두 ===\x00\x07\n* [떠난다] -> END\n".encode("cp949", "replace").replace(b"?", b""))
    story = import_story(path)
    assert [b.to_scene for b in story.branches] == ["부두", "END"]


def test_huge_file_is_refused(tmp_path, monkeypatch):
    from storygraph.importers import common
    from verdicts.errors import InputError

    monkeypatch.setattr(common, "MAX_STORY_BYTES", 100)
    path = tmp_path / "big.ink"
    path.write_text("-> END\n" * 50, encoding="utf-8")
    with pytest.raises(InputError, match="너무 커서"):
        import_story(path)


# -- INCLUDE: the included files are read as part of the story, each line at its own place


def test_include_is_followed_with_its_own_file_and_lines(tmp_path):
    (tmp_path / "parts").mkdir()
    (tmp_path / "main.ink").write_text("INCLUDE parts/rooms.ink\nVAR gold = 0\n-> hall\n", encoding="utf-8")
    (tmp_path / "parts" / "rooms.ink").write_text(
        "INCLUDE more.ink\n=== hall ===\n* {gold > 1} [Vault] -> vault\n* [Wait]\n- -> END\n", encoding="utf-8")
    (tmp_path / "parts" / "more.ink").write_text("INCLUDE ../main.ink\n=== vault ===\n-> END\n", encoding="utf-8")
    story = import_story(tmp_path / "main.ink")
    main, rooms, more = (str(tmp_path / "main.ink"), str(tmp_path / "parts" / "rooms.ink"),
                         str(tmp_path / "parts" / "more.ink"))
    assert [(s.scene_id, s.source_file, s.source_line) for s in story.scenes] == [
        ("(top)", main, 1), ("hall", rooms, 2), ("hall.gather-5", rooms, 5), ("vault", more, 2),
        ("END", None, None)]
    assert [(b.branch_id, b.to_scene, b.source_file, b.source_line) for b in story.branches] == [
        ("(top)#1", "hall", main, 3), ("hall#1", "vault", rooms, 3), ("hall#2", "hall.gather-5", rooms, 4),
        ("hall.gather-5#1", "END", rooms, 5), ("vault#1", "END", more, 3)]
    assert story.issues == []   # the cycle back to main.ink is not read twice
    check_invariants(story)
