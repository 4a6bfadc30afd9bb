"""The nine checks run over the seed's own eight sample cards (copied as test data)
against the bundled round, which was reconstructed from what the samples state (see
tests/data/mail/seed_samples/README.md); and our cards for that round against the
samples, field by field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from verdicts.mail import judge_mailbox
from verdicts.mail.checks import CHECKS, CheckContext
from verdicts.mail.loading import load_mailbox

FIXTURE = Path(__file__).resolve().parents[2] / "data" / "mail" / "seed_samples"
ROUND = EXAMPLES / "mail"
TWO_SENTENCE_HEDGES = ["ACT-20260303-002", "ACT-20260303-003", "ACT-20260303-006", "ACT-20260303-015"]


def _samples() -> list[dict]:
    return json.loads((FIXTURE / "samples.json").read_text(encoding="utf-8"))


def _results(cards: list[dict]) -> dict:
    mailbox = load_mailbox(ROUND)
    assert mailbox.issues == []
    return {r.id: r for r in CHECKS.run(CheckContext(mailbox.tables, cards))}


def test_the_samples_pass_every_check_two_sentence_hedges_included():
    # check 8 asks, as the seed does, that the summary and hedge end politely: the four
    # hedges of two polite sentences pass it
    results = _results(_samples())
    assert [r.id for r in results.values()] == [f"C{i:02d}" for i in range(1, 10)]
    assert {k: r.failed_targets for k, r in results.items() if not r.passed} == {}
    for sample in _samples():
        hedge = sample["hedge"]
        assert (sample["action_no"] in TWO_SENTENCE_HEDGES) == (hedge is not None and hedge.count("니다.") == 2)


def test_with_each_hedge_cut_to_one_sentence_every_check_passes():
    samples = _samples()
    for sample in samples:
        if sample["hedge"]:
            sample["hedge"] = sample["hedge"].split("니다. ")[0] + "니다."
    assert all(r.passed for r in _results(samples).values())


def test_our_cards_agree_with_every_sample_field_by_field():
    report = judge_mailbox(ROUND)
    ours = {c.key: c.to_json() for c in report.cards}
    assert sorted(ours) == [f"ACT-20260303-{i:03d}" for i in range(1, 16)]
    for sample in _samples():
        mine = ours[sample["action_no"]]
        for name in ("thread_id", "counterpart", "verdict", "overdue_hours", "low_confidence"):
            assert mine[name] == sample[name], (sample["action_no"], name, mine[name], sample[name])
        assert (mine["hedge"] is None) == (sample["hedge"] is None), sample["action_no"]
        # every value a sample cites is cited by our card too (same field, same value)
        cited = {(e["field"], json.dumps(e["value"]), e.get("agg")) for e in mine["evidence"]}
        for item in sample["evidence"]:
            value = item["value"]
            variants = {json.dumps(value)} | ({json.dumps(float(value))} if isinstance(value, int) and not isinstance(value, bool) else set())
            if item["field"] in ("extracted_amount", "body_amount", "extracted_due_date", "body_due_date") and value is None:
                continue  # an empty value the sample cites only to say "nothing here"
            assert any((item["field"], v, item.get("agg")) in cited for v in variants), (sample["action_no"], item)
        quotes = {e["quote"] for e in mine["evidence"] if "quote" in e}
        assert {e["quote"] for e in sample["evidence"] if "quote" in e} <= quotes, sample["action_no"]
    assert all(r.passed for r in report.checks)


def test_the_named_cases_of_check_nine():
    ours = {c.key: c for c in judge_mailbox(ROUND).cards}
    on_1048 = [c for c in ours.values() if c.thread_id == "TH-1048"]
    assert [c.key for c in on_1048] == ["ACT-20260303-009"]
    # 30 hours after the message, but the other side stated no deadline
    assert on_1048[0].overdue_hours is None and on_1048[0].verdict == "원문대로 나감"
    assert ours["ACT-20260303-004"].overdue_hours == 12


@pytest.mark.parametrize("action_no, name, value, check_id", [
    ("ACT-20260303-004", "verdict", "늦게 나감", "C01"),
    ("ACT-20260303-001", "overdue_hours", 0.5, "C04"),
    ("ACT-20260303-003", "overdue_hours", 15.51, "C04"),
    ("ACT-20260303-015", "low_confidence", False, "C05"),
    ("ACT-20260303-007", "verdict", "원문대로 나감", "C05"),
    ("ACT-20260303-013", "summary", "부재 안내가 나감", "C08"),
])
def test_a_mutated_sample_is_caught_by_the_check_that_owns_the_field(action_no, name, value, check_id):
    samples = _samples()
    next(c for c in samples if c["action_no"] == action_no)[name] = value
    assert action_no in _results(samples)[check_id].failed_targets


def test_a_dropped_field_an_invented_column_and_a_changed_quote_are_caught():
    samples = _samples()
    by_no = {c["action_no"]: c for c in samples}
    del by_no["ACT-20260303-001"]["overdue_hours"]
    by_no["ACT-20260303-002"]["evidence"].append({"field": "vat_rate", "value": 0.1})
    by_no["ACT-20260303-003"]["evidence"][3]["quote"] = "과제 제출 안내 (수정)"
    by_no["ACT-20260303-004"]["evidence"][1]["value"] = "2026-03-02T16:00"
    results = _results(samples)
    assert "ACT-20260303-001" in results["C02"].failed_targets
    assert "ACT-20260303-002" in results["C06"].failed_targets
    assert {"ACT-20260303-003", "ACT-20260303-004"} <= set(results["C07"].failed_targets)


def test_a_deadline_emptied_in_the_input_makes_check_nine_fail_on_a_filled_overdue(tmp_path):
    for name in ("agent_action", "action_policy"):
        (tmp_path / f"{name}.csv").write_text((ROUND / f"{name}.csv").read_text(encoding="utf-8"), encoding="utf-8")
    text = (ROUND / "mailbox_thread.csv").read_text(encoding="utf-8")
    (tmp_path / "mailbox_thread.csv").write_text(text.replace("2026-03-02T15:00,2026-03-02T21:00", "2026-03-02T15:00,"), encoding="utf-8")
    mailbox = load_mailbox(tmp_path)
    results = {r.id: r for r in CHECKS.run(CheckContext(mailbox.tables, _samples()))}
    assert results["C09"].failed_targets == ["ACT-20260303-004"]
    assert "ACT-20260303-004" in results["C04"].failed_targets
