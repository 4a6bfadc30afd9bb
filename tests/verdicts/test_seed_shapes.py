"""The shared card/evidence model fits all four seeds with a JSON card schema: each
seed's own sample cards validate against the schema kept as a data file, and every
evidence item reads into the shared Evidence model."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import seeds_dir
from verdicts.model import Evidence
from verdicts.schema import card_errors, load_schema

DOMAINS = {"storygraph": "004", "robot": "003", "extraction": "000", "mail": "001"}


def _samples(prefix: str):
    seed = next(seeds_dir().glob(f"{prefix}_*.txt"), None)
    assert seed is not None, f"no seed {prefix}_*.txt"
    text = seed.read_text(encoding="utf-8")
    start = text.index("\n[", text.index('{"type":"object"'))
    depth, end = 0, None
    for i, ch in enumerate(text[start + 1:], start + 1):
        depth += {"[": 1, "]": -1}.get(ch, 0)
        if depth == 0:
            end = i + 1
            break
    return json.loads(text[start + 1:end])


@pytest.mark.parametrize("domain,prefix", DOMAINS.items())
def test_seed_samples_fit_the_shared_model(domain, prefix):
    schema = load_schema(domain)
    samples = _samples(prefix)
    assert samples
    for card in samples:
        assert card_errors(domain, card) == [], card
        for item in card["evidence"]:
            ev = Evidence(**item)
            assert ev.field == item["field"]
            out = ev.to_json()
            assert {k: v for k, v in out.items() if k != "line"} == {k: v for k, v in item.items() if v is not None or k == "value"}
    assert "verdict" in schema["properties"]
