"""Issue 17: ``storygraph lint`` on a story in its own format (import → lint in one
step), menu-aware verdicts, and every card, finding and issue pointing at the story's
own file and line (text, JSON, SARIF, GitHub annotations)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from storygraph import lint
from storygraph.model import SHADOWING
from tests.conftest import EXAMPLES

INK = EXAMPLES / "ink" / "lighthouse.ink"
STORIES = [EXAMPLES / "ink" / "lighthouse.ink", EXAMPLES / "twine" / "market.twee", EXAMPLES / "yarn" / "ferry.yarn",
           EXAMPLES / "choicescript"]


def _by_key(report):
    return {c.key: c.to_json() for c in report.cards}


def test_the_gather_divert_bug_is_a_finding_at_its_line():
    report = lint(INK)
    cards = _by_key(report)
    # the one-dash gather at line 40 diverts away: the choices at lines 41 and 44 never appear
    assert cards["keeper.gather-40#1"]["verdict"] == SHADOWING
    assert cards["keeper.gather-40#1"]["overlapping_branch_id"] == "keeper.gather-40#2"
    assert cards["keeper.gather-40#2"]["overlapping_branch_id"] == "keeper.gather-40#3"
    # the hidden choice is named by what the reader would see (issue 28, item 7)
    assert ("분기 `[등대지기에게 등불을 빌린다]`(조건 없음)가 열릴 모든 경우에 먼저 걸려 이 선택지는 어떤 독자에게도 제시되지 "
            "않습니다") in cards["keeper.gather-40#1"]["summary"]
    cited = [(e["field"], e["value"]) for e in cards["keeper.gather-40#1"]["evidence"] if e["field"].startswith("source_")]
    # the card's own branch (line 40), then the hidden choice it points at (line 41)
    assert [v for f, v in cited if f == "source_line"] == ["40", "41"]
    assert all(v.endswith("lighthouse.ink") for f, v in cited if f == "source_file")
    assert all(c.passed for c in report.checks), [c.id for c in report.checks if not c.passed]


def test_findings_and_issues_point_at_story_lines():
    report = lint(INK)
    # the island without a way on (line 92): the importer's issue, at its line
    assert report.issues and report.issues[0].line == 92 and report.issues[0].file.endswith("lighthouse.ink")
    report = lint(EXAMPLES / "twine" / "market.twee")
    found = {(f.code, f.target): (Path(f.file).name, f.line) for f in report.findings}
    # README: line 19 guards the tea house with a condition that cannot hold
    assert found[("unsatisfiable-condition", "시장 입구#3")] == ("market.twee", 19)
    assert found[("comparison-out-of-range", "시장 입구#3")] == ("market.twee", 19)
    # a flag has no line of its own in the story: no line rather than the generated file's
    assert all(line is None for (code, _), (_, line) in found.items() if code == "unused-flag")
    # README: line 38 compares with a value never assigned — an input issue at that line
    assert any(i.line == 38 and i.column == "condition_expr" and i.file.endswith("market.twee") for i in report.issues)


@pytest.mark.parametrize("fmt", ["github", "sarif", "json", "text"])
def test_every_format_points_at_the_story(cli, fmt):
    proc = cli("storygraph", "lint", INK, "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    if fmt == "github":
        # each hidden choice is marked on its own line (issue 28): 41 and 44, not the gather's 40
        assert "file=" in out and "lighthouse.ink,line=41,title=storygraph shadowed" in out
        assert "lighthouse.ink,line=44,title=storygraph shadowed" in out
        assert ".csv" not in out
    elif fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        shadowed = [r for r in results if r["ruleId"] == "shadowed"]
        lines = sorted(r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in shadowed)
        assert lines == [41, 44]  # each hidden choice on its own line
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results if r.get("locations")}
        assert all(u.endswith("lighthouse.ink") for u in uris), uris
    elif fmt == "json":
        data = json.loads(out)
        assert all(i["file"].endswith("lighthouse.ink") for i in data["issues"])
        assert {i["line"] for i in data["issues"]} == {92}
    else:
        assert "lighthouse.ink" in out and ".csv" not in out


def test_choicescript_issues_point_at_each_scene_file():
    report = lint(EXAMPLES / "choicescript")
    where = {(Path(i.file).name, i.line) for i in report.issues}
    assert ("forest.txt", 14) in where and ("forest.txt", 17) in where
    cards = _by_key(report)
    cited = {e["field"]: e["value"] for e in cards["forest.option-16"]["evidence"]}
    assert cited["source_file"].endswith("forest.txt") and cited["source_line"] == "16"


@pytest.mark.parametrize("fmt", ["github", "sarif", "json", "text"])
def test_choicescript_cards_point_at_their_scene_file_in_every_format(cli, fmt):
    """A story of several files: each card, finding and issue names its own scene file
    (not the folder that was linted) and the line there."""
    proc = cli("storygraph", "lint", EXAMPLES / "choicescript", "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    if fmt == "github":
        lines = out.splitlines()
        assert all(re.search(r"file=examples/choicescript/scenes/(forest|cabin|startup)\.txt,line=\d+,", line) for line in lines), out
        assert any("scenes/cabin.txt,line=9,title=storygraph missing-scene::없는 장면을 가리킴 · cabin.door#3" in line for line in lines)
        assert any("scenes/forest.txt,line=16,title=storygraph no-ending::끝에 못 감 · forest.option-16" in line for line in lines)
        # an importer's issue has no table or column: its message starts with the reason
        assert any("scenes/forest.txt,line=17,title=storygraph input-issue::이 선택지가" in line for line in lines)
    elif fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        where = {(r["ruleId"], r["message"]["text"].split(":")[0]):
                 (r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                  r["locations"][0]["physicalLocation"].get("region", {}).get("startLine")) for r in results}
        assert where[("missing-scene", "없는 장면을 가리킴 · cabin.door#3")] == ("examples/choicescript/scenes/cabin.txt", 9)
        assert where[("no-ending", "끝에 못 감 · forest.option-16")] == ("examples/choicescript/scenes/forest.txt", 16)
        uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in results}
        assert uris == {"examples/choicescript/scenes/cabin.txt", "examples/choicescript/scenes/forest.txt"}
    elif fmt == "json":
        data = json.loads(out)
        from storygraph.domain import DOMAIN
        scenes = EXAMPLES / "choicescript" / "scenes"
        places = {c["target_no"]: DOMAIN.card_place(c) for c in data["cards"]}
        assert places["cabin.door#3"] == (str(scenes / "cabin.txt"), 9)
        assert places["startup"][0] == str(scenes / "startup.txt")
        assert {(i["file"], i["line"]) for i in data["issues"]} == {(str(scenes / "forest.txt"), 14), (str(scenes / "forest.txt"), 17)}
    else:
        assert "없는 장면을 가리킴 · cabin.door#3 (" + str(EXAMPLES / "choicescript/scenes/cabin.txt") + ":9)  " in out
        assert "끝에 못 감 · forest.option-16 (" + str(EXAMPLES / "choicescript/scenes/forest.txt") + ":16)  " in out
        assert "examples/choicescript/scenes/forest.txt:17 — " in out


def test_findings_show_their_story_line_in_text(cli):
    out = cli("storygraph", "lint", EXAMPLES / "twine" / "market.twee").stdout
    assert "참이 될 수 없는 조건 · 시장 입구#3 (" + str(EXAMPLES / "twine/market.twee") + ":19)  " in out
    # a scenario of tables shows no place in the text report (unchanged)
    out = cli("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv").stdout
    assert ".csv:" not in out.split("■ 린트 발견")[-1]


@pytest.mark.parametrize("story", STORIES, ids=lambda p: p.name)
def test_no_false_shadowing_on_plain_menus(story):
    report = lint(story)
    cards = _by_key(report)
    analysis = report.analysis
    for card in cards.values():
        if card["verdict"] != SHADOWING:
            continue
        later = card["overlapping_branch_id"]
        info = analysis.shadowed[later]
        # only an automatic branch before the menu, or a condition that cannot hold, hides a choice
        if analysis.kinds.get(later) == "choice":
            assert info.unsatisfiable or all(analysis.kinds.get(c) != "choice" for c in info.covered_by), card
    assert all(c.passed for c in report.checks), (story, [c.id for c in report.checks if not c.passed])


def test_a_story_without_the_planted_bug_has_no_shadowing(tmp_path):
    story = tmp_path / "menu.ink"
    story.write_text("-> start\n=== start ===\n* [하나] -> end_a\n* [둘] -> end_a\n+ [셋] -> end_a\n"
                     "=== end_a ===\n끝.\n-> END\n", encoding="utf-8")
    report = lint(story)
    assert not any(c.verdict == SHADOWING for c in report.cards)
    lines = {c.key: next((e["value"] for e in c.to_json()["evidence"] if e["field"] == "source_line"), None)
             for c in report.cards if c.key.startswith("start#")}
    assert lines == {"start#1": "3", "start#2": "4", "start#3": "5"}


def test_an_opaque_condition_is_may_or_may_not(tmp_path):
    story = tmp_path / "dice.ink"
    story.write_text("-> start\n=== start ===\n* {RANDOM(1, 6) > 3} [주사위를 던진다] -> win\n* [그냥 간다] -> win\n"
                     "=== win ===\n끝.\n-> END\n", encoding="utf-8")
    report = lint(story)
    card = _by_key(report)["start#1"]
    assert "알 수 없는 조건에 따라" in card["summary"] and "조건 없이" not in card["summary"]
    assert "원래 `RANDOM(1, 6) > 3`이라고 적혀 있는데 조건식 언어로 옮기지 못해" in card["hedge"]
    # no problem of the story: nothing to report, and the run passes (issue 28)
    assert report.issues == []
    assert not report.findings and all(c.passed for c in report.checks)


# ----------------------------------------------------------------------------- folders of stories

def _inputs(out: str) -> list[str]:
    return sorted({line.split(" [")[0].removeprefix("입력: ") for line in out.splitlines() if line.startswith("입력: ")})


@pytest.mark.parametrize("folder, story", [("ink", "lighthouse.ink"), ("twine", "market.twee"), ("yarn", "ferry.yarn")])
def test_a_folder_holding_a_story_is_linted_as_that_story(cli, folder, story):
    proc = cli("storygraph", "lint", EXAMPLES / folder, "--format", "text")
    assert proc.returncode == 1, proc.stderr
    assert _inputs(proc.stdout) == [str(EXAMPLES / folder / story)]
    # the API reads the folder as its one story too
    assert lint(EXAMPLES / folder).sources[0].file == str(EXAMPLES / folder / story)


def test_a_folder_of_stories_lints_each_and_an_included_ink_file_once(cli, tmp_path):
    (tmp_path / "main.ink").write_text("INCLUDE parts/cellar.ink\nINCLUDE attic.ink\n-> cellar\n", encoding="utf-8")
    (tmp_path / "attic.ink").write_text("=== attic ===\n다락.\n-> END\n", encoding="utf-8")
    (tmp_path / "parts").mkdir()
    (tmp_path / "parts" / "cellar.ink").write_text("=== cellar ===\n* [위로] -> attic\n", encoding="utf-8")
    (tmp_path / "second.ink").write_text("-> END\n", encoding="utf-8")
    shutil.copy(EXAMPLES / "yarn" / "ferry.yarn", tmp_path)
    shutil.copytree(EXAMPLES / "choicescript", tmp_path / "cs")
    proc = cli("storygraph", "lint", tmp_path)
    assert "Traceback" not in proc.stderr
    assert _inputs(proc.stdout) == sorted(str(tmp_path / n) for n in ("cs", "ferry.yarn", "main.ink", "second.ink"))
    # attic.ink is read as part of main.ink, at its own file and line
    report = lint(tmp_path / "main.ink")
    cards = _by_key(report)
    assert {e["field"]: e["value"] for e in cards["attic"]["evidence"]}["source_file"] == str(tmp_path / "attic.ink")


def test_a_folder_with_tables_and_stories_says_so(cli, tmp_path):
    shutil.copy(EXAMPLES / "ink" / "lighthouse.ink", tmp_path)
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", tmp_path)
    proc = cli("storygraph", "lint", tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (f"{tmp_path}: 폴더에 시나리오 표(`scenario.csv`)와 이야기(`lighthouse.ink`)가 함께 있어 어느 쪽을 읽을지 "
            "정하지 않았습니다. 읽을 파일이나 폴더를 따로 주세요.") in proc.stderr
    # a folder-form scenario that is also a ChoiceScript story
    both = tmp_path / "both"
    shutil.copytree(EXAMPLES / "lighthouse-folder", both)
    shutil.copy(EXAMPLES / "choicescript" / "scenes" / "startup.txt", both)
    proc = cli("storygraph", "lint", both)
    assert proc.returncode == 2 and "시나리오 표(`scene_states.csv`)와 이야기(`startup.txt`)가 함께 있어" in proc.stderr


def test_a_folder_with_neither_says_what_it_looked_for(cli, tmp_path):
    (tmp_path / "notes.md").write_text("메모\n", encoding="utf-8")
    (tmp_path / "scene.txt").write_text("ChoiceScript가 아닌 글\n", encoding="utf-8")
    proc = cli("storygraph", "lint", tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert (f"{tmp_path}: 폴더에 시나리오 표(`scene_states.csv`, `scenario.csv` 같은 `.csv`, `.xlsx`, `.json`, `.yaml` 파일)도, "
            "이야기 파일(`.ink`, `.ink.json`, `.twee`, `.tw`, Twine의 `.html`, `.yarn`, ChoiceScript의 `startup.txt`)도 없습니다.") in proc.stderr


def test_the_api_refuses_a_folder_of_several_stories_by_name(tmp_path):
    from verdicts.errors import InputError

    shutil.copy(EXAMPLES / "ink" / "lighthouse.ink", tmp_path)
    shutil.copy(EXAMPLES / "yarn" / "ferry.yarn", tmp_path)
    with pytest.raises(InputError, match=r"폴더에 이야기 파일이 2개\(`ferry\.yarn`, `lighthouse\.ink`\) 있어 하나만 골라 읽지 않았습니다"):
        lint(tmp_path)


def test_import_reads_a_folder_holding_one_story(cli, tmp_path):
    out = tmp_path / "scenario.csv"
    proc = cli("storygraph", "import", EXAMPLES / "ink", "-o", out)
    assert proc.returncode == 1 and "lighthouse.ink:92 — " in proc.stderr  # the story's own issue
    assert out.read_text(encoding="utf-8").count("lighthouse.ink") > 20
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", tmp_path / "other.csv")
    shutil.copy(EXAMPLES / "ink" / "lighthouse.ink", tmp_path)
    proc = cli("storygraph", "import", tmp_path, "-o", tmp_path / "again.csv")
    assert proc.returncode == 2 and "이야기(`lighthouse.ink`)가 함께 있어" in proc.stderr and "Traceback" not in proc.stderr


# ----------------------------------------------------------------------------- once-only choices

HUB = "-> dock\n=== dock ===\n부두.\n{choices}=== tavern ===\n선술집.\n-> dock\n=== lighthouse ===\n등대.\n-> dock\n=== away ===\n끝.\n-> END\n"


def _used_up(report):
    return [(f.target, Path(f.file).name, f.line, f.data["choices"]) for f in report.findings if f.code == "used-up-menu"]


def test_a_menu_of_once_only_choices_that_all_come_back_runs_out(tmp_path):
    story = tmp_path / "hub.ink"
    story.write_text(HUB.format(choices="* [선술집] -> tavern\n* [등대] -> lighthouse\n"), encoding="utf-8")
    report = lint(story)
    assert _used_up(report) == [("dock", "hub.ink", 2, ["dock#1", "dock#2"])]
    message = next(f.message for f in report.findings if f.code == "used-up-menu")
    # the choices named by their text (issue 28, item 7)
    assert message == ("장면 `dock`은 한 번만 고를 수 있는 선택지 2개(`[선술집]`과 `[등대]`)만 내놓는데 어느 것을 골라도 이 장면으로 "
                       "돌아올 수 있어, 모두 고른 독자가 다시 오면 고를 것이 남지 않아 이야기가 멈춥니다.")
    # the verdicts do not change: a once-only choice is a way on like a sticky one
    sticky = tmp_path / "sticky.ink"
    sticky.write_text(HUB.format(choices="+ [선술집] -> tavern\n+ [등대] -> lighthouse\n"), encoding="utf-8")
    verdicts = {key: card["verdict"] for key, card in _by_key(report).items()}
    assert verdicts == {key: card["verdict"] for key, card in _by_key(lint(sticky)).items()}
    assert verdicts["dock#1"] == "끝에 못 감"  # no ending at all: the story loops


@pytest.mark.parametrize("choices", [
    "+ [선술집] -> tavern\n* [등대] -> lighthouse\n",            # a sticky choice stays
    "* [선술집] -> tavern\n* [등대] -> lighthouse\n* -> away\n",  # ink's fallback choice
    "* [선술집] -> tavern\n* [떠난다] -> away\n",                 # a way out that does not come back
    "{RANDOM(1, 2) == 1: -> away}\n* [선술집] -> tavern\n* [등대] -> lighthouse\n",  # an automatic branch first
], ids=["sticky", "fallback", "way-out", "auto-first"])
def test_a_menu_that_cannot_run_out_is_not_flagged(tmp_path, choices):
    story = tmp_path / "hub.ink"
    story.write_text(HUB.format(choices=choices), encoding="utf-8")
    assert _used_up(lint(story)) == []


def test_choicescript_reuse_options_run_out_too(tmp_path):
    (tmp_path / "startup.txt").write_text("*label hub\n부두.\n*choice\n  *hide_reuse #선술집\n    선술집.\n    *goto hub\n"
                                          "  *disable_reuse #등대\n    등대.\n    *goto hub\n", encoding="utf-8")
    assert _used_up(lint(tmp_path)) == [("startup.hub", "startup.txt", 1, ["startup.hub#1", "startup.hub#2"])]
    (tmp_path / "startup.txt").write_text("*label hub\n부두.\n*choice\n  *hide_reuse #선술집\n    선술집.\n    *goto hub\n"
                                          "  #등대\n    등대.\n    *goto hub\n", encoding="utf-8")
    assert _used_up(lint(tmp_path)) == []


def test_the_bundled_ink_example_has_its_used_up_menus_at_their_lines():
    found = {(target, line) for target, _, line, _ in _used_up(lint(INK))}
    # the dock's two once-only choices each lead back to it by a way of their own, and what
    # is left (`+ {trust >= 2} [배를 …]`) offers a reader with 1 or less trust nothing: the
    # ink runtime stops at the dock in 438 of 2,000 random plays of the example (with its
    # planted `-> secrets` corrected so that it compiles).  The tavern, the keeper and the
    # storeroom are each entered through a once-only choice, so at most once: their menus
    # cannot run out (no play stops there).
    assert found == {("dock", 10)}
    message = next(f.message for f in lint(INK).findings if f.code == "used-up-menu")
    assert "플래그 `trust`가 1 이하인 독자에게는 남은 분기가 하나도 맞지 않아" in message


@pytest.mark.parametrize("fmt", ["sarif", "github"])
def test_no_result_of_a_folder_story_points_at_a_folder_or_a_converted_row(cli, fmt, tmp_path):
    """Issue 28, item 7: a story read from a folder gives each result the file and line it
    came from; a result with no place of its own in the story (a synthetic ending scene,
    a whole-story issue) has no location rather than the folder or a line of the table
    the story was converted into."""
    story = tmp_path / "game"
    shutil.copytree(EXAMPLES / "choicescript", story)
    proc = cli("storygraph", "lint", story, "--format", fmt, "--quiet")
    assert proc.returncode == 1, proc.stderr
    if fmt == "sarif":
        results = json.loads(proc.stdout)["runs"][0]["results"]
        places = [loc["physicalLocation"] for r in results for loc in r.get("locations", [])]
        assert places
        for place in places:
            uri = place["artifactLocation"]["uri"]
            assert uri.endswith(".txt"), uri
            assert (story / Path(uri).relative_to(Path(uri).parents[1])).is_file() or Path(uri).is_file()
    else:
        files = re.findall(r"file=([^,:]+)", proc.stdout)
        assert files and all(f.endswith(".txt") for f in files), files


def test_a_result_never_points_at_a_folder_or_a_line_of_the_converted_table(tmp_path):
    """The two guards behind the test above, on results that have no place of their own:
    a folder is no location, and a card of a table converted from a story keeps its
    file but not the converted table's line."""
    from storygraph.domain import DOMAIN
    from verdicts.model import SourceInfo
    from verdicts.sarif import CardResults, _location

    assert _location(str(tmp_path), 3) == []
    assert _location(str(INK), 3)[0]["physicalLocation"]["region"] == {"startLine": 3}
    made = CardResults(DOMAIN, [SourceInfo(file=str(INK), table="scene_states", form="ink")])
    card = {"target_no": "END", "target_kind": "장면", "verdict": "어디서도 안 닿음", "summary": "…", "hedge": None,
            "evidence": [{"source": "scene_states", "field": "scene_id", "value": "END", "line": 7}]}
    location = made.result(card)["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"].endswith("lighthouse.ink") and "region" not in location


@pytest.mark.parametrize("story, found", [
    # the body of a once-only choice is entered at most once: its menu cannot run out
    ("-> hub\n=== hub ===\n* [Ask]\n  * * [Why?] -> hub\n  * * [How?] -> hub\n+ [Leave] -> END\n", []),
    # a way back under a condition (`{time < 2: -> prep}`) may stop holding: no claim
    ("VAR time = 0\n-> prep\n=== prep ===\n* [a]\n* [b]\n* [c]\n- ~ time++\n{time < 2: -> prep}\n-> END\n", []),
    # a fallback after a once-only choice is taken once the choice is used: nothing is hidden
    ("-> box\n=== box ===\n* [Look] -> box\n* -> END\n", []),
    # what is left after the once-only choice leaves readers with the crown nothing (ld41's bug)
    ("VAR crown = true\n-> forest\n=== forest ===\n+ [Beach]\n  + + {not crown} [Sun] -> forest\n"
     "  * * {crown} [Sun with the crown] -> forest\n+ [Leave] -> END\n", ["forest.choice-4"]),
])
def test_a_menu_runs_out_only_when_the_reader_surely_comes_back(tmp_path, story, found):
    """Issue 28: used-up-menu (and the verdicts) read once-only choices as the ink runtime
    does — a choice used up may leave a fallback to take, and a menu runs out only for a
    reader who can come back after using every once-only choice, by ways that need no
    condition and no once-only choice spent on the way in or on another way back."""
    path = tmp_path / "s.ink"
    path.write_text(story, encoding="utf-8")
    report = lint(path)
    assert [f.target for f in report.findings if f.code == "used-up-menu"] == found
    assert [c.key for c in report.cards if c.verdict == SHADOWING] == []
    if not found:
        assert [c.key for c in report.cards if c.verdict not in ("끝까지 닿음", None)] == []
