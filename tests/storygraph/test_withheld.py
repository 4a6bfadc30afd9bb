"""Sound when an import is partial (issue 28): what an importer could not read exactly is
explicit in the tables — an opaque jump (``jump_opaque``: may lead to any scene), an
opaque effect (``effect_opaque``: a flag that may take any value) — and every verdict or
finding that rests on it is withheld (``판정 보류``: no verdict label, the reason and the
place), never shown as a problem.  What does not rest on it is still judged.

The scenarios here are tables written by hand (the columns an importer writes), so the
rule is tested apart from any importer."""

from __future__ import annotations

import json

from storygraph.domain import DOMAIN, lint
from verdicts.model import WITHHELD
from verdicts.reporters import REPORTERS
from verdicts.schema import card_errors

HEAD = "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,jump_opaque,jump_source"

#: start → hall; hall has an opaque jump and a way to the dead end attic; room → end is
#: reached by nobody through a known branch (only the jump might lead there)
JUMPS = "\n".join([
    HEAD,
    "start,시작,Y,N,,,,,,,,",
    "hall,복도,N,N,,,,,,,,",
    "room,방,N,N,,,,,,,,",
    "attic,다락,N,N,,,,,,,,",
    "end,끝,N,Y,,,,,,,,",
    ",,,,,b1,start,hall,,1,,",
    ",,,,,b2,hall,,,1,1,-> dest",
    ",,,,,b3,room,end,,1,,",
    ",,,,,b4,hall,attic,,2,,",
]) + "\n"


def _lint(tmp_path, text: str, name: str = "s.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return lint(path)


def _cards(report) -> dict:
    return {c.key: c for c in report.cards}


def test_an_opaque_jump_withholds_what_it_might_change_and_nothing_else(tmp_path):
    report = _lint(tmp_path, JUMPS)
    cards = _cards(report)
    # the jump might lead anywhere: nobody can be called unreached
    for key in ("room", "end", "b3"):
        assert cards[key].verdict is None and cards[key].withheld is not None, key
        assert "`-> dest`" in cards[key].summary
    # from start and hall the jump might lead to an ending: not called stuck
    for key in ("start", "hall", "b1"):
        assert cards[key].verdict is None, key
    # the jump itself: where it goes is unknown
    assert cards["b2"].verdict is None and "가는 곳을 알 수 없어" in cards["b2"].summary
    # attic gets to no jump and no ending: still a defensible problem
    assert cards["attic"].verdict == "끝에 못 감"
    assert cards["b4"].verdict == "끝에 못 감"
    # withheld cards name the jump's row; every card validates, every check passes
    assert cards["room"].withheld["where"] == [{"table": "story_branches", "line": 8, "column": "to_scene"}]
    for card in report.cards:
        assert card_errors("storygraph", card.to_json()) == [], card.key
    assert [c.id for c in report.checks if not c.passed] == []


def test_without_the_jump_the_same_scenes_are_problems(tmp_path):
    """The control: the opaque jump is what withholds them."""
    plain = JUMPS.replace(",,,,,b2,hall,,,1,1,-> dest\n", "")
    cards = _cards(_lint(tmp_path, plain))
    assert cards["room"].verdict == "어디서도 안 닿음"
    assert cards["start"].verdict == "끝에 못 감"


def test_an_opaque_jump_from_an_unreached_scene_changes_nothing(tmp_path):
    """Nobody takes a jump out of a scene nobody reaches: the verdicts stand."""
    text = JUMPS.replace(",,,,,b2,hall,,,1,1,-> dest", ",,,,,b2,room,,,2,1,-> dest")
    cards = _cards(_lint(tmp_path, text))
    assert cards["room"].verdict == "어디서도 안 닿음"
    assert cards["b2"].verdict == "어디서도 안 닿음"


def test_withheld_is_its_own_group_in_every_format(tmp_path):
    report = _lint(tmp_path, JUMPS)
    text = b"".join(REPORTERS["text"].pieces(report, DOMAIN)).decode()
    assert f"■ {WITHHELD} (7)" in text
    assert text.index("■ 끝에 못 감") < text.index(f"■ {WITHHELD}")
    summary = text.strip().splitlines()[-1]
    assert summary.startswith("요약: 문제 2건 · 고칠 수 있는 문제 1건 · 판정 보류 7건")  # the dead end's fix (issue 30)
    data = json.loads(b"".join(REPORTERS["json"].pieces(report, DOMAIN)))
    held = [c for c in data["cards"] if c.get("withheld")]
    assert len(held) == 7 and all(c["verdict"] is None for c in held)
    sarif = json.loads(b"".join(REPORTERS["sarif"].pieces(report, DOMAIN)))
    results = sarif["runs"][0]["results"]
    opened = [r for r in results if r["ruleId"] == "withheld"]
    assert len(opened) == 7 and all(r["kind"] == "open" and r["level"] == "none" for r in opened)
    assert "withheld" in {r["id"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    github = b"".join(REPORTERS["github"].pieces(report, DOMAIN)).decode()
    assert github.count("::notice ") == 7 and github.count("::warning ") == 2


def test_withheld_fails_a_run_only_when_asked(tmp_path, cli):
    only = JUMPS.replace(",,,,,b4,hall,attic,,2,,\n", "").replace("attic,다락,N,N,,,,,,,,\n", "")
    path = tmp_path / "s.csv"
    path.write_text(only, encoding="utf-8")
    cli("storygraph", "lint", path, "--quiet", check_code=0)
    (tmp_path / "storygraph.toml").write_text('fail_on = ["withheld"]\n', encoding="utf-8")
    cli("storygraph", "lint", path, "--quiet", check_code=1)


def test_a_card_without_a_verdict_must_say_why(tmp_path):
    """The schema of a withheld card: no verdict and a reason; a card with neither, or
    with a verdict and a reason, is refused."""
    report = _lint(tmp_path, JUMPS)
    held = next(c.to_json() for c in report.cards if c.withheld)
    assert card_errors("storygraph", held) == []
    assert card_errors("storygraph", {**held, "withheld": None})  # verdict null, no reason
    assert card_errors("storygraph", {**held, "verdict": "끝까지 닿음"})  # a verdict and a reason
    assert card_errors("storygraph", {**held, "withheld": {"reason": "", "where": []}})


EFFECTS = "\n".join([
    "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
    "flag,label,type,min_value,max_value,values,effect_opaque,effect_source",
    "start,시작,Y,N,gold|mood,,,,,,,,,,,,,",
    "end,끝,N,Y,,,,,,,,,,,,,,",
    ",,,,,b1,start,end,gold > 9,1,,,,,,,,",
    ",,,,,b2,start,end,mood > 9,2,,,,,,,,",
    ",,,,,b3,start,end,,3,,,,,,,,",
    ",,,,,,,,,,gold,금화,int,0,5,,1,story.ink:12: ~ gold = f(gold)",
    ",,,,,,,,,,mood,기분,int,0,5,,,",
]) + "\n"


def test_an_opaque_effect_withholds_the_range_findings_of_its_flag_alone(tmp_path):
    report = _lint(tmp_path, EFFECTS)
    by = {(f.code, f.target): f for f in report.findings}
    gold = by[("comparison-out-of-range", "b1")]
    mood = by[("comparison-out-of-range", "b2")]
    assert gold.withheld is not None and mood.withheld is None
    assert "`story.ink` 12번째 줄의 `~ gold = f(gold)`에서" in gold.withheld["reason"]
    assert gold.withheld["where"] == [{"file": "story.ink", "line": 12}]
    assert gold.fix is None  # no fix for what was not decided
    text = b"".join(REPORTERS["text"].pieces(report, DOMAIN)).decode()
    problems = text[:text.index(f"■ {WITHHELD}")]
    assert "b2" in problems and "범위 밖 비교 · b1" not in problems


READS = "\n".join([
    "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
    "flag,label,type,min_value,max_value,values,declared_at,read_at,written_at,undeclared",
    "start,시작,Y,N,,,,,,,,,,,,,,,,",
    "end,끝,N,Y,,,,,,,,,,,,,,,,",
    ",,,,,b1,start,end,,1,,,,,,,,,,",
    # read in text only: not unused
    ",,,,,,,,,,shown,shown,int,0,3,,story.ink:1,story.ink:9,story.ink:4,",
    # declared, never read or written: unused
    ",,,,,,,,,,idle,idle,bool,,,,story.ink:2,,,",
    # written, never read: write-only, with its writes
    ",,,,,,,,,,gold,gold,int,0,9,,story.ink:3,,story.ink:5|story.ink:7,",
    # used without a declaration where the format needs one
    ",,,,,,,,,,ghost,ghost,bool,,,,,story.ink:8,,1",
]) + "\n"


def test_reads_and_writes_decide_unused_write_only_and_undeclared(tmp_path):
    report = _lint(tmp_path, READS)
    found = {(f.code, f.target): f for f in report.findings}
    assert ("unused-flag", "shown") not in found
    assert ("unused-flag", "idle") in found and (found[("unused-flag", "idle")].file, found[("unused-flag", "idle")].line) == ("story.ink", 2)
    write_only = found[("write-only-flag", "gold")]
    assert write_only.data == {"writes": ["story.ink:5", "story.ink:7"]}
    assert (write_only.file, write_only.line) == ("story.ink", 5)
    assert ("unused-flag", "gold") not in found
    ghost = found[("undeclared-variable", "ghost")]
    assert (ghost.file, ghost.line) == ("story.ink", 8) and "엔진이 `story.ink` 8번째 줄에서 멈춥니다" in ghost.message
    assert {code for code, _ in found} <= {"unused-flag", "write-only-flag", "undeclared-variable"}


def test_the_screen_shows_withheld_cards_in_their_own_group_after_the_problems(tmp_path):
    from verdicts.screen import render_html

    html = render_html(_lint(tmp_path, JUMPS), DOMAIN)
    groups = [m for m in ("data-state=\"problem\"", "data-state=\"withheld\"", "data-state=\"passing\"") if m in html]
    assert groups == ["data-state=\"problem\"", "data-state=\"withheld\"", "data-state=\"passing\""]
    assert html.index('data-state="problem"') < html.index('data-state="withheld"') < html.index('data-state="passing"')
    assert f'data-verdict="{WITHHELD}"' in html and "문제 2건" in html
