"""Properties of the linter on generated scenarios (hypothesis over the fuzz generator).

* every planted defect is caught, and every other finding is a consequence of a plant —
  the condition-aware findings too (a stuck combination with the count and total the
  generator counted and an example it confirms, a dead branch named as planted);
* a scenario with nothing planted yields only ``끝까지 닿음`` (no finding, no issue);
* renaming every scene and branch id, or shuffling the rows, changes no verdict;
* every card validates against the schema; the ten automatic checks pass.

The default run is bounded (a few dozen small scenarios); the ``slow`` tests take larger
scenarios, and ``STORYGRAPH_DEEP=1`` runs many more examples.
"""

from __future__ import annotations

import os
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from storygraph.domain import lint
from storygraph.findings import KINDS as FINDING_KINDS
from storygraph.fuzz import KINDS, Generated, compare, generate
from verdicts.schema import card_errors

from .strategies import plans, plant_counts

DEEP = bool(os.environ.get("STORYGRAPH_DEEP"))
FEW = 300 if DEEP else 12
SOME = 60 if DEEP else 4

plants = plant_counts(2)
seeds = st.integers(0, 2**32 - 1)
#: the plant kinds named after the condition-aware findings (issue 6)
FINDING_PLANTS = tuple(k for k in KINDS if k.replace("_", "-") in {f.code for f in FINDING_KINDS})


def _lint_text(text: str):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scenario.csv"
        path.write_text(text, encoding="utf-8")
        return lint(path)


def _lint(gen: Generated):
    return _lint_text(gen.to_csv())


def _verdicts(report) -> dict[str, tuple[str, str | None]]:
    return {c.target_no: (c.verdict, c.overlapping_branch_id) for c in report.cards}


def _assert_trustworthy(gen: Generated, report) -> None:
    outcome = compare(gen, report)
    assert not outcome.missed, outcome.missed
    assert not outcome.unexplained, outcome.unexplained
    assert outcome.caught == outcome.planted
    checks = {c.id: c for c in report.checks}
    ten = [f"C{i:02d}" for i in range(1, 11)]
    assert all(cid in checks for cid in ten)
    assert [cid for cid in ten if not checks[cid].passed] == []
    assert checks["SCHEMA"].passed
    for card in report.cards:
        assert card_errors("storygraph", card.to_json()) == []
    # one card per scene and per branch
    assert len(report.cards) == len(gen.scenes) + len(gen.branches)


@settings(max_examples=FEW)
@given(seed=seeds, plan=plans(70, 160, plants), flags=st.integers(1, 6))
def test_every_planted_defect_is_caught(seed, plan, flags):
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    _assert_trustworthy(gen, _lint(gen))


def test_the_finding_plants_are_the_seven_new_finding_kinds():
    assert set(FINDING_PLANTS) == {"stuck_combination", "reached_only_through_dead_branch", "ending_only_through_dead_branch",
                                   "unused_flag", "available_flag_unused", "comparison_out_of_range", "always_true_condition"}


@settings(max_examples=FEW)
@given(seed=seeds, plan=plans(60, 140, plant_counts(3, FINDING_PLANTS, least=1)), flags=st.integers(1, 8))
def test_every_planted_condition_finding_is_caught(seed, plan, flags):
    """Only the new kinds, several of each, over one to eight flags (with one flag a
    scene's spare available flag must be a fresh one)."""
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    report = _lint(gen)
    _assert_trustworthy(gen, report)
    codes = {f.code for f in report.findings}
    assert {k.replace("_", "-") for k in FINDING_PLANTS} <= codes
    # each stuck plant's finding carries the generator's own count
    stuck = {(f.target, f.data["count"], f.data["total"]) for f in report.findings if f.code == "stuck-combination"}
    for p in gen.plants:
        if p.kind == "stuck_combination":
            want = p.expect[0].data
            assert (p.scenes[0], want["count"], want["total"]) in stuck


@settings(max_examples=FEW)
@given(seed=seeds, scenes=st.integers(2, 120), flags=st.integers(0, 6))
def test_nothing_planted_means_only_reached_and_ends(seed, scenes, flags):
    gen = generate(seed, scenes, flags, {k: 0 for k in KINDS})
    report = _lint(gen)
    assert {c.verdict for c in report.cards} == {"끝까지 닿음"}
    assert report.findings == []
    assert report.issues == []
    assert all(c.passed for c in report.checks)


@settings(max_examples=FEW)
@given(seed=seeds, plan=plans(70, 140, plants), flags=st.integers(1, 5), shuffle=st.integers(0, 2**31))
def test_renaming_ids_changes_no_verdict(seed, plan, flags, shuffle):
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    before = _verdicts(_lint(gen))
    renamed, mapping = gen.renamed(random.Random(shuffle))
    report = _lint(renamed)
    after = _verdicts(report)
    assert set(after) == {mapping[k] for k in before}
    for old, (verdict, overlap) in before.items():
        assert after[mapping[old]] == (verdict, mapping[overlap] if overlap else None)
    _assert_trustworthy(renamed, report)


@settings(max_examples=FEW)
@given(seed=seeds, plan=plans(70, 140, plants), flags=st.integers(1, 5), shuffle=st.integers(0, 2**31))
def test_shuffling_rows_changes_no_verdict(seed, plan, flags, shuffle):
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    before = _verdicts(_lint(gen))
    after = _verdicts(_lint_text(gen.shuffled_csv(random.Random(shuffle))))
    assert after == before


@pytest.mark.slow
@settings(max_examples=SOME)
@given(seed=seeds, plan=plans(300, 900, plant_counts(5)), flags=st.integers(1, 8))
def test_every_planted_defect_is_caught_in_larger_scenarios(seed, plan, flags):
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    _assert_trustworthy(gen, _lint(gen))
