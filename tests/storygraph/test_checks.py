"""Each automatic check fails on a card that breaks its claim (the checks are not
rubber stamps): tamper with one card of the lighthouse report and see which check names it."""

from __future__ import annotations

import copy

import pytest

from storygraph import lint
from storygraph.checks import CHECKS, CheckContext
from tests.conftest import EXAMPLES


@pytest.fixture(scope="module")
def base():
    report = lint(EXAMPLES / "lighthouse" / "scenario.csv")
    return report.scenario, [c.to_json() for c in report.cards]


def _run(scenario, cards):
    return {r.id: r for r in CHECKS.run(CheckContext(scenario, cards))}


def _tamper(cards, key, change):
    cards = copy.deepcopy(cards)
    card = next(c for c in cards if c["target_no"] == key)
    change(card)
    return cards


CASES = [
    ("C01", "SC-01", lambda c: c.update(verdict="잘 됨")),
    ("C01", "SC-01", lambda c: c.update(target_kind="scene")),
    ("C02", "BR-13", lambda c: c.update(summary="")),
    ("C04", "SC-01", lambda c: c.update(verdict="어디서도 안 닿음")),
    ("C05", "BR-21", lambda c: c.update(verdict="없는 장면을 가리킴")),
    ("C06", "BR-11", lambda c: c.update(verdict="조건이 겹침", overlapping_branch_id="BR-12")),
    ("C06", "BR-13", lambda c: c.update(overlapping_branch_id="BR-15")),
    ("C07", "SC-01", lambda c: c.update(verdict="끝에 못 감")),
    ("C08", "SC-19", lambda c: c["evidence"].append({"field": "grasp_slip_count", "value": 3})),
    ("C09", "SC-19", lambda c: c["evidence"][1].update(value="다른 제목")),
    ("C09", "SC-01", lambda c: [e.pop("agg") for e in c["evidence"] if e.get("agg")]),
    ("C10", "SC-27", lambda c: c.update(summary="독자가 멈춘다.")),
    ("C10", "SC-27", lambda c: c.update(hedge="Maybe intended.")),
    ("C10", "SC-27", lambda c: c.update(more_hedges=["Maybe intended."])),
    # two caveats glued into one hedge, as the cards once said them (issue 30, item 6)
    ("C10", "BR-21", lambda c: c.update(hedge="장면 `SC-88`이 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 "
                                              "분기를 옮길지는 창작자가 정하고, 앞 순번 분기 `BR-20`이 조건을 모두 덮어 이 분기는 "
                                              "실제로 나오지 않습니다.")),
]


@pytest.mark.parametrize("check_id,key,change", CASES)
def test_check_names_the_tampered_card(base, check_id, key, change):
    scenario, cards = base
    assert _run(scenario, cards)[check_id].passed
    result = _run(scenario, _tamper(cards, key, change))[check_id]
    assert not result.passed and key in result.failed_targets


def test_an_order_no_below_one_is_an_input_issue_not_a_failed_check(tmp_path):
    """Issue 32, item 7: ``order_no`` 0 is the creator's mistake (an input issue at its
    line, exit 1), not a doubt about our verdicts: C03 passes, since the scene's
    shadowing is left undecided; it fails on a 조건이 겹침 card that rests on that order."""
    path = tmp_path / "s.csv"
    path.write_text("scene_id,is_entry,is_ending,branch_id,from_scene,to_scene,order_no\nA,Y,Y,,,,\n,,,b0,A,A,0\n,,,b1,A,A,1\n",
                    encoding="utf-8")
    report = lint(path)
    c03 = next(c for c in report.checks if c.id == "C03")
    assert c03.passed
    assert any(i.column == "order_no" and i.line == 3 for i in report.issues)
    cards = [c.to_json() for c in report.cards]
    assert not any(c["verdict"] == "조건이 겹침" for c in cards)
    card = next(c for c in cards if c["target_no"] == "b1")
    card.update(verdict="조건이 겹침", overlapping_branch_id="b0")
    result = _run(report.scenario, cards)["C03"]
    assert not result.passed and result.failed_targets == ["b1"]


def test_every_check_has_an_id_description_and_doc():
    ids = [c.id for c in CHECKS]
    assert ids == [f"C{n:02d}" for n in range(1, 11)]
    for check in CHECKS:
        assert check.description.endswith("니다.") and check.doc


def test_contexts_sharing_scenario_facts_judge_their_own_cards(base):
    """Parts of a run share the scenario's facts (``_cache``) but not their cards' facts."""
    scenario, cards = base
    tampered = _tamper(cards, "SC-19", lambda c: c["evidence"][1].update(value="다른 제목"))
    first, second = tampered[: len(tampered) // 2], tampered[len(tampered) // 2:]
    shared = CheckContext(scenario, [])
    parts = [{r.id: r for r in CHECKS.run(CheckContext(scenario, part, shared._cache))} for part in (first, second)]
    alone = [_run(scenario, part) for part in (first, second)]
    assert parts == alone
    assert any("SC-19" in p["C09"].failed_targets for p in parts)


def test_a_malformed_evidence_item_fails_only_the_checks_that_read_it(base):
    """The one sweep over the cards never raises: an item that is not an object fails
    C08 and C09 on its card, and the other checks still judge."""
    scenario, cards = base
    results = _run(scenario, _tamper(cards, "SC-19", lambda c: c["evidence"].append("제목")))
    for check_id in ("C08", "C09"):
        assert not results[check_id].passed and results[check_id].failed_targets == ["SC-19"]
    for check_id in ("C01", "C02", "C04", "C05", "C07", "C10"):
        assert results[check_id].passed and results[check_id].note is None
    # and a card without evidence at all has nothing to cite wrongly
    results = _run(scenario, _tamper(cards, "SC-19", lambda c: c.pop("evidence")))
    assert results["C08"].passed and results["C09"].passed and "SC-19" in results["C02"].failed_targets
