"""The bundled lighthouse scenario: the seed's six sample verdicts, every check passing,
the same cards from every input form, and the broken copy's issues."""

from __future__ import annotations

import csv
import json

import pytest
import yaml

from storygraph import lint
from tests.conftest import EXAMPLES

UNION = EXAMPLES / "lighthouse" / "scenario.csv"
FOLDER = EXAMPLES / "lighthouse-folder"
BROKEN = EXAMPLES / "lighthouse-broken" / "scenario.csv"

# (target_no, verdict, reached_from_entry, reaches_ending, overlapping_branch_id) of the seed's sample cards
SEED_SAMPLES = [
    ("SC-19", "어디서도 안 닿음", False, None, None),
    ("BR-42", "없는 장면을 가리킴", True, None, None),
    ("BR-13", "조건이 겹침", True, None, "BR-14"),
    ("SC-27", "끝에 못 감", True, False, None),
    ("SC-01", "끝까지 닿음", True, True, None),
    ("BR-21", "끝까지 닿음", True, None, None),
]


@pytest.fixture(scope="module")
def report():
    return lint(UNION)


def _card(report, key):
    return next(c for c in report.cards if c.target_no == key)


@pytest.mark.parametrize("target,verdict,reached,reaches,overlap", SEED_SAMPLES)
def test_seed_sample_verdicts(report, target, verdict, reached, reaches, overlap):
    card = _card(report, target)
    assert (card.verdict, card.reached_from_entry, card.reaches_ending, card.overlapping_branch_id) == (verdict, reached, reaches, overlap)


def test_each_condition_aware_finding_appears(report):
    codes = {f.code for f in report.findings}
    assert codes == {"unsatisfiable-condition", "stuck-combination", "reached-only-through-dead-branch",
                     "ending-only-through-dead-branch", "unused-flag", "available-flag-unused",
                     "comparison-out-of-range", "always-true-condition"}


def test_stuck_example_really_fires_no_branch(report):
    from storygraph.conditions import evaluate, parse_condition

    stuck = [f for f in report.findings if f.code == "stuck-combination"]
    assert [f.target for f in stuck] == ["SC-21"]
    data = stuck[0].data
    assert (data["count"], data["total"]) == (1, 6)
    example = data["example"]
    assert example == {"lamp": "꺼짐", "has_key": False}
    conditions = [b.condition_expr for b in report.scenario.branches if b.from_scene == "SC-21"]
    assert conditions and not any(evaluate(parse_condition(c), example) for c in conditions)
    assert "등불이 “꺼짐”이고 열쇠가 없는 독자" in stuck[0].message


def test_dead_paths_name_the_dead_branch(report):
    by = {(f.code, f.target): f for f in report.findings}
    assert by[("reached-only-through-dead-branch", "SC-12")].data["dead_branches"] == ["BR-14"]
    assert by[("reached-only-through-dead-branch", "SC-25")].data["dead_branches"] == ["BR-51"]
    assert by[("ending-only-through-dead-branch", "SC-28")].data["dead_branches"] == ["BR-46"]
    assert "BR-14" in _card(report, "SC-12").hedge and "BR-46" in _card(report, "SC-28").hedge


def test_every_check_passes_and_no_issue(report):
    assert [c.id for c in report.checks if not c.passed] == []
    assert len(report.checks) == 11
    assert report.issues == []


def test_one_card_per_scene_and_branch(report):
    rows = list(csv.DictReader(UNION.open(encoding="utf-8")))
    ids = [r["scene_id"] for r in rows if r["scene_id"]] + [r["branch_id"] for r in rows if r["branch_id"]]
    assert sorted(c.target_no for c in report.cards) == sorted(ids)


def test_sample_cards_evidence_and_hedges(report):
    br21 = _card(report, "BR-21")
    assert "BR-22" in br21.hedge and "available_flags" in br21.hedge
    assert {"field": "available_flags", "value": None} in [{"field": e.field, "value": e.value} for e in br21.evidence]
    br13 = _card(report, "BR-13")
    cited = {(e.field, e.value) for e in br13.evidence}
    assert ("condition_expr", "trust >= 3") in cited and ("condition_expr", "trust >= 3 and has_key") in cited
    assert ("available_flags", "trust,has_key,route_south") in cited and ("max_value", 5) in cited
    assert "신뢰도" in _card(report, "BR-14").summary or "신뢰도" in br13.summary
    sc01 = _card(report, "SC-01")
    assert any(e.field == "is_ending" and e.agg == "count" and e.value == 3 for e in sc01.evidence)
    assert "부두의 첫 만남" in sc01.summary and "3개" in sc01.summary
    sc19 = _card(report, "SC-19")
    assert any(e.field == "to_scene" and e.agg == "count" and e.value == 0 for e in sc19.evidence)


def _verdicts(r):
    return {c.target_no: (c.verdict, c.overlapping_branch_id, c.summary, c.hedge) for c in r.cards}


def test_folder_form_gives_the_same_cards(report):
    assert _verdicts(lint(FOLDER)) == _verdicts(report)


def _tables():
    return {name: list(csv.DictReader((FOLDER / f"{name}.csv").open(encoding="utf-8"))) for name in ("scene_states", "story_branches", "flag_spec")}


def test_xlsx_form_gives_the_same_cards(report, tmp_path):
    openpyxl = pytest.importorskip("openpyxl")
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in _tables().items():
        sheet = book.create_sheet(name)
        header = list(rows[0])
        sheet.append(header)
        for row in rows:
            # numbers as numbers and booleans as booleans, as a spreadsheet stores them
            sheet.append([int(row[h]) if row[h].isdigit() else {"Y": True, "N": False}.get(row[h], row[h] or None) for h in header])
    path = tmp_path / "lighthouse.xlsx"
    book.save(path)
    assert _verdicts(lint(path)) == _verdicts(report)


@pytest.mark.parametrize("suffix", [".json", ".yaml"])
def test_json_and_yaml_forms_give_the_same_cards(report, tmp_path, suffix):
    tables = _tables()
    path = tmp_path / f"lighthouse{suffix}"
    if suffix == ".json":
        path.write_text(json.dumps(tables, ensure_ascii=False, indent=1), encoding="utf-8")
    else:
        path.write_text(yaml.safe_dump(tables, allow_unicode=True), encoding="utf-8")
    assert _verdicts(lint(path)) == _verdicts(report)


def test_bom_and_cp949_copies_read_the_same(report, tmp_path):
    text = UNION.read_text(encoding="utf-8")
    bom = tmp_path / "bom.csv"
    bom.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    cp = tmp_path / "cp949.csv"
    cp.write_bytes(text.encode("cp949"))
    for path, encoding in ((bom, "utf-8-sig"), (cp, "cp949")):
        r = lint(path)
        assert {s.encoding for s in r.sources} == {encoding}
        assert {k: v[:2] for k, v in _verdicts(r).items()} == {k: v[:2] for k, v in _verdicts(report).items()}


# ---------------------------------------------------------------- the broken copy


@pytest.fixture(scope="module")
def broken():
    return lint(BROKEN)


def test_broken_copy_is_read_as_cp949(broken):
    assert {s.encoding for s in broken.sources} == {"cp949"}


def test_broken_copy_reports_each_problem_by_line(broken):
    found = {(i.line, i.column) for i in broken.issues}
    assert (1, "available_flags") in found  # the missing column, on the header line
    assert (25, "scene_id") in found  # the scene row whose id is empty
    syntax = [i for i in broken.issues if i.column == "condition_expr"]
    assert len(syntax) == 1 and syntax[0].line == 51 and syntax[0].position == 8
    assert "trust => 2" in syntax[0].reason and "^" in syntax[0].reason


def test_broken_copy_keeps_the_unaffected_cards(broken, report):
    good = {c.target_no: c.verdict for c in report.cards}
    cards = {c.target_no: c.verdict for c in broken.cards}
    # every structural verdict that does not depend on the broken parts is unchanged
    for key in ("SC-19", "SC-20", "BR-42", "SC-27", "SC-31", "SC-01", "BR-21", "BR-10"):
        assert cards[key] == good[key], key
    # the scene with the empty id has no card; what pointed at it now points at nothing
    assert "SC-25" not in cards
    assert cards["BR-51"] == "없는 장면을 가리킴" and cards["BR-36"] == "어디서도 안 닿음"
    # without available_flags no shadowing is decided, and the cards say so
    assert "조건이 겹침" not in cards.values()
    # (once a scene: on its first branch, which names the others)
    said = [c for c in broken.cards if c.target_no.startswith("BR-") and "available_flags" in (c.hedge or "")]
    assert any("`BR-13`" in c.hedge for c in said)
    assert len({c.scene_id for c in said}) == len(said)
    assert all(c.passed for c in broken.checks)


def test_broken_copy_hedge_points_at_the_empty_id_row(broken):
    br51 = next(c for c in broken.cards if c.target_no == "BR-51")
    assert "25번째 줄" in br51.hedge
