"""A folder of Twee files, or of Yarn files, is one story (as Tweego and Yarn Spinner
compile it): passages and nodes of every file together, each row at its own file and
line, a name used in two files an issue naming both places."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from storygraph import lint
from storygraph.importers import detect, import_story
from storygraph.stories import story_entries
from verdicts.errors import InputError

HERE = Path(__file__).resolve().parent
TWEE = HERE / "multi_twee"
YARN = HERE / "multi_yarn"
MISSING = "없는 장면을 가리킴"


def _cards(report):
    return {c.key: c for c in report.cards}


def _place(card):
    ev = {e["field"]: e["value"] for e in card.to_json()["evidence"]}
    return Path(ev["source_file"]).name, int(ev["source_line"])


# ----------------------------------------------------------------------------- Twee


def test_a_twee_folder_is_one_story_with_each_row_at_its_own_file():
    assert detect(TWEE) == "twee" and story_entries(TWEE) == [TWEE]
    story = import_story(TWEE)
    scenes = {s.scene_id: (Path(s.source_file).name, s.source_line) for s in story.scenes}
    assert scenes == {"마을 어귀": ("1-start.twee", 11), "우물": ("1-start.twee", 16), "돌다리": ("2-bridge.twee", 1),
                      "건너편 장터": ("2-bridge.twee", 7), "우물 바닥": ("2-bridge.twee", 10)}
    entry = [s.scene_id for s in story.scenes if s.is_entry]
    assert entry == ["마을 어귀"]  # StoryData's start, read once
    branches = {b.branch_id: (b.to_scene, Path(b.source_file).name, b.source_line) for b in story.branches}
    assert branches["마을 어귀#1"] == ("돌다리", "1-start.twee", 13)
    assert branches["우물#1"] == ("우물 바닥", "1-start.twee", 18)
    assert branches["우물 바닥#1"] == ("물레방아", "2-bridge.twee", 12)
    # the flag set in one file and read in another is one flag
    assert [(f.flag, f.type) for f in story.flags] == [("밧줄", "bool")]


def test_twee_names_used_in_two_files_are_issues_naming_both_places():
    story = import_story(TWEE)
    issues = [(Path(i.file).name, i.line, i.reason) for i in story.issues]
    first = str(TWEE / "1-start.twee")
    assert issues == [
        ("3-extra.tw", 1, f"같은 이름의 패시지(`StoryTitle`)가 {first} 1번째 줄에도 있어 이 파일의 것은 읽지 않았습니다 (Tweego도 이름이 겹치면 멈춥니다)."),
        ("3-extra.tw", 4, f"같은 이름의 패시지(`우물`)가 {first} 16번째 줄에도 있어 이 파일의 것은 읽지 않았습니다 (Tweego도 이름이 겹치면 멈춥니다)."),
    ]
    # the first one is kept: its links, not the duplicate's
    assert [b.source_line for b in story.branches if b.from_scene == "우물"] == [18, 19]


def test_twee_cross_file_links_are_not_missing_and_a_real_missing_target_is():
    report = lint(TWEE)
    cards = _cards(report)
    missing = {k for k, c in cards.items() if c.verdict == MISSING}
    assert missing == {"우물 바닥#1"}
    assert _place(cards["우물 바닥#1"]) == ("2-bridge.twee", 12)
    for key in ("마을 어귀#1", "우물#1", "돌다리#1", "돌다리#2"):
        assert cards[key].verdict != MISSING
    assert _place(cards["돌다리"]) == ("2-bridge.twee", 1)
    # the report names the folder as its input
    assert {s.file for s in report.sources} == {str(TWEE)}


def test_a_single_twee_file_of_the_folder_is_still_read_alone():
    """Given one file, the compilers read that file: its links to other files' passages are missing."""
    cards = _cards(lint(TWEE / "1-start.twee"))
    assert cards["마을 어귀#1"].verdict == MISSING


# ----------------------------------------------------------------------------- Yarn


def test_a_yarn_folder_is_one_dialogue_with_each_row_at_its_own_file():
    assert detect(YARN) == "yarn" and story_entries(YARN) == [YARN]
    story = import_story(YARN)
    nodes = {s.scene_id: (Path(s.source_file).name, s.source_line) for s in story.scenes if s.source_file}
    assert nodes == {"Start": ("intro.yarn", 1), "Lighthouse": ("places.yarn", 1), "Island": ("places.yarn", 7),
                     "Spare": ("spare.yarn", 1)}
    # entries: Start, and every node that no jump of any file reaches
    assert sorted(s.scene_id for s in story.scenes if s.is_entry) == ["Spare", "Start"]
    issues = [(Path(i.file).name, i.line, i.reason) for i in story.issues]
    assert issues == [("spare.yarn", 5, f"같은 이름의 노드(`Lighthouse`)가 {YARN / 'places.yarn'} 1번째 줄에도 있어 "
                                        "이 파일의 것은 옮기지 않았습니다 (Yarn Spinner도 이름이 겹치면 멈춥니다).")]


def test_yarn_cross_file_jumps_are_not_missing_and_a_real_missing_target_is():
    cards = _cards(lint(YARN))
    assert {k for k, c in cards.items() if c.verdict == MISSING} == {"Island#1"}
    assert _place(cards["Island#1"]) == ("places.yarn", 12)
    assert _place(cards["Start#1"]) == ("intro.yarn", 4) and cards["Start#1"].verdict != MISSING
    assert _place(cards["Lighthouse#1"]) == ("places.yarn", 5) and cards["Lighthouse#1"].verdict != MISSING


def test_a_yarn_entry_missing_from_every_file_says_so():
    story = import_story(YARN, entries="Nowhere")
    assert any(i.reason == "시작 노드로 정한 이름(`Nowhere`)이 폴더의 어느 파일에도 없어 시작 장면을 정하지 못했습니다." for i in story.issues)


# ----------------------------------------------------------------------------- every output format


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_every_format_points_at_each_file_of_the_folder(cli, fmt, tmp_path):
    folder = tmp_path / "story"
    shutil.copytree(TWEE, folder)
    proc = cli("storygraph", "lint", folder, "--format", fmt)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    bridge, extra = str(folder / "2-bridge.twee"), str(folder / "3-extra.tw")
    if fmt == "text":
        assert f"{MISSING} · 우물 바닥#1 ({bridge}:12)  " in out
        assert f"{extra}:4 — 같은 이름의 패시지(`우물`)가 {folder / '1-start.twee'} 16번째 줄에도 있어" in out
        assert ".csv" not in out
    elif fmt == "json":
        data = json.loads(out)
        from storygraph.domain import DOMAIN
        places = {c["target_no"]: DOMAIN.card_place(c) for c in data["cards"]}
        assert places["우물 바닥#1"] == (bridge, 12)
        assert places["마을 어귀#1"] == (str(folder / "1-start.twee"), 13)
        assert {(i["file"], i["line"]) for i in data["issues"]} == {(extra, 1), (extra, 4)}
    elif fmt == "sarif":
        results = json.loads(out)["runs"][0]["results"]
        where = {(r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
                  r["locations"][0]["physicalLocation"].get("region", {}).get("startLine")) for r in results}
        missing = [w for w in where if w[0] == "missing-scene"]
        assert len(missing) == 1 and missing[0][1].endswith("story/2-bridge.twee") and missing[0][2] == 12
        inputs = sorted(w[2] for w in where if w[0] == "input-issue" and w[1].endswith("story/3-extra.tw"))
        assert inputs == [1, 4]
        assert not any(w[1].endswith(".csv") for w in where)
    else:
        lines = out.splitlines()
        assert any(f"file={bridge},line=12,title=storygraph missing-scene::{MISSING} · 우물 바닥#1" in line for line in lines), out
        assert any(f"file={extra},line=4,title=storygraph input-issue::" in line for line in lines), out


# ----------------------------------------------------------------------------- folders and import


def test_lint_of_a_parent_folder_lints_the_twee_folder_as_one_story(cli, tmp_path):
    shutil.copytree(TWEE, tmp_path / "twine")
    shutil.copytree(YARN, tmp_path / "yarn")
    proc = cli("storygraph", "lint", tmp_path / "twine", tmp_path / "yarn")
    inputs = sorted({line.split(" [")[0].removeprefix("입력: ") for line in proc.stdout.splitlines() if line.startswith("입력: ")})
    assert inputs == [str(tmp_path / "twine"), str(tmp_path / "yarn")]
    assert proc.stdout.count(f"{MISSING} · ") == 2, proc.stdout


def test_a_folder_with_one_twee_and_other_stories_lists_each_as_before(tmp_path):
    shutil.copy(TWEE / "2-bridge.twee", tmp_path)
    shutil.copy(YARN / "intro.yarn", tmp_path)
    assert detect(tmp_path) is None
    assert story_entries(tmp_path) == [tmp_path / "2-bridge.twee", tmp_path / "intro.yarn"]


def test_several_twee_files_beside_another_format_say_why_they_are_not_read(cli, tmp_path):
    for f in ("1-start.twee", "2-bridge.twee"):
        shutil.copy(TWEE / f, tmp_path)
    (tmp_path / "other.ink").write_text("-> END\n", encoding="utf-8")
    assert story_entries(tmp_path) == [tmp_path]
    message = (f"{tmp_path}: 폴더에 Twee 파일 여러 개(`1-start.twee`, `2-bridge.twee`)와 다른 형식의 이야기 파일(`other.ink`)이 "
               "함께 있어 읽지 않았습니다. Twee 파일은 폴더째 한 이야기로 읽으니, 다른 이야기는 다른 폴더로 옮기거나 파일을 하나씩 주세요.")
    with pytest.raises(InputError) as err:
        lint(tmp_path)
    assert str(err.value) == message
    proc = cli("storygraph", "lint", tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    proc = cli("storygraph", "import", tmp_path)
    assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr
    # each file can still be given on its own
    assert lint(tmp_path / "other.ink").cards


def test_a_yarn_folder_beside_tables_names_its_files(cli, tmp_path):
    for f in ("intro.yarn", "places.yarn"):
        shutil.copy(YARN / f, tmp_path)
    (tmp_path / "scenario.csv").write_text("scene_id\n", encoding="utf-8")
    proc = cli("storygraph", "lint", tmp_path)
    assert proc.returncode == 2
    assert "시나리오 표(`scenario.csv`)와 이야기(`intro.yarn`, `places.yarn`)가 함께 있어" in proc.stderr


def test_import_of_a_folder_writes_every_file_s_rows(cli, tmp_path):
    out = tmp_path / "scenario.csv"
    proc = cli("storygraph", "import", YARN, "-o", out)
    assert proc.returncode == 1, proc.stderr
    assert f"{YARN / 'spare.yarn'}:5 — 같은 이름의 노드(`Lighthouse`)가" in proc.stderr
    text = out.read_text(encoding="utf-8")
    for name in ("intro.yarn", "places.yarn", "spare.yarn"):
        assert str(YARN / name) in text
    proc = cli("storygraph", "import", TWEE, "-o", out)
    assert proc.returncode == 1 and f"{TWEE / '3-extra.tw'}:4 — " in proc.stderr
    assert "2-bridge.twee,12" in out.read_text(encoding="utf-8")


def test_an_empty_twee_or_yarn_folder_is_refused_in_korean(tmp_path):
    with pytest.raises(InputError, match="폴더에 Twee 파일"):
        import_story(tmp_path, "twee")
    with pytest.raises(InputError, match=r"폴더에 Yarn 파일\(.yarn\)이 없습니다"):
        import_story(tmp_path, "yarn")


def test_the_bundled_twine_chapters_example_has_its_defects_at_their_lines():
    """examples/twine-chapters/README.md: the cross-file links are fine, 먼바다 at
    2-lighthouse.twee line 5 is missing, the second 창고 at line 10 is an issue."""
    from tests.conftest import EXAMPLES

    folder = EXAMPLES / "twine-chapters"
    report = lint(folder)
    cards = _cards(report)
    assert {k for k, c in cards.items() if c.verdict == MISSING} == {"등대#2"}
    assert _place(cards["등대#2"]) == ("2-lighthouse.twee", 5)
    assert _place(cards["창고#1"]) == ("1-harbour.twee", 21) and cards["창고#1"].to_json()["verdict"] == "끝까지 닿음"
    assert [(Path(i.file).name, i.line) for i in report.issues] == [("2-lighthouse.twee", 10)]
    assert "1-harbour.twee 19번째 줄에도 있어" in report.issues[0].reason
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert "**line 5**" in readme and "**line 10**" in readme and "line 19" in readme
