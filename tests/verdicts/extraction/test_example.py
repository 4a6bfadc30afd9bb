"""The bundled sample runs reproduce every sample card of the seed (R-20931, R-20935,
R-20940) with every check passing, in each input form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from verdicts.extraction import judge_batch
from verdicts.extraction.model import ExtractionCard

from .conftest import EXAMPLE, write_form

SAMPLES = Path(__file__).resolve().parents[2] / "data" / "extraction" / "seed_samples.json"
#: the fields a sample states and our card must state the same way (the sentences are our own)
COMPARED = ("item_key", "run_id", "field_name", "verdict", "ai_value", "source_value")


def _samples() -> list[dict]:
    return json.loads(SAMPLES.read_text(encoding="utf-8"))


def test_every_seed_sample_is_reproduced_field_by_field():
    report = judge_batch(EXAMPLE)
    ours = {c.key: c.to_json() for c in report.cards}
    for sample in _samples():
        mine = ours[sample["item_key"]]
        for name in COMPARED:
            assert mine[name] == sample[name], (sample["item_key"], name, mine[name], sample[name])
        # every column a sample cites, ours cites too, with the same value
        for item in sample["evidence"]:
            cited = [e for e in mine["evidence"] if e["field"] == item["field"] and e.get("agg") == item.get("agg")]
            if item["field"] == "doc_name" or item["field"] == "evidence_page" and item["value"] is None:
                continue  # we name the page in the sentence; an empty page is cited as the empty cell it is
            assert any(e["value"] == item["value"] for e in cited), (sample["item_key"], item, mine["evidence"])
    assert report.issues == []
    assert all(r.passed for r in report.checks), [r for r in report.checks if not r.passed]
    assert [r.id for r in report.checks] == [str(n) for n in range(1, 12)] + ["SCHEMA"]


def test_the_page_only_wrong_cell_names_the_page_holding_the_phrase():
    card = {c.key: c for c in judge_batch(EXAMPLE).cards}["R-20935:credit_valid_until"]
    assert card.verdict == "근거 문구가 원문에 없음" and "2쪽 기업신용평가등급 확인서" in card.hedge


def test_an_optional_field_with_no_row_has_no_card_and_a_required_one_has():
    keys = {c.key for c in judge_batch(EXAMPLE).cards}
    assert "R-20940:construction_capacity_krw" not in keys  # optional, not returned
    assert "R-20935:ceo_name" in keys  # required, not returned


@pytest.mark.parametrize("form", ["xlsx", "json", "yaml", "jsonl"])
def test_every_input_form_gives_the_same_cards(form, tmp_path):
    base = judge_batch(EXAMPLE)
    other = judge_batch(write_form(form, tmp_path))
    assert other.issues == []
    assert all(r.passed for r in other.checks), [r for r in other.checks if not r.passed]

    def shown(report):
        return [{k: v for k, v in c.to_json().items() if k != "evidence"} for c in report.cards]

    assert shown(other) == shown(base)


def test_a_jsonl_file_reads_the_other_tables_beside_it(tmp_path):
    folder = write_form("jsonl", tmp_path)
    report = judge_batch(folder / "worker_outputs.jsonl")
    assert len(report.cards) == len(judge_batch(EXAMPLE).cards)
    assert any(s.form == "jsonl" for s in report.sources)


def test_cards_are_the_card_type_and_keys_join_run_and_field():
    for card in judge_batch(EXAMPLE).cards:
        assert isinstance(card, ExtractionCard)
        assert card.key == f"{card.run_id}:{card.field_name}"
