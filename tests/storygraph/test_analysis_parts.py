"""The per-scene analysis split over processes (``analyse(…, jobs=n)``, see
:mod:`storygraph.partition`) gives the same analysis as one process: the same states in
the same order, the same issues in the same order, the same stuck combinations and live
reachability."""

from __future__ import annotations

import os

import pytest

from storygraph.analysis import Analysis, analyse
from storygraph.fuzz import generate
from storygraph.loading import load_scenario

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _facts(a: Analysis) -> dict:
    """Everything the analysis decided, as plain comparable data (order kept)."""
    return {
        "shadowing": [(sid, [b.branch_id for b in s.ordered], s.undecided, list(s.shadowed.items()))
                      for sid, s in a.shadowing.items()],
        "shadowed": list(a.shadowed.items()),
        "overlap": list(a.overlap.items()),
        "issues": [i.to_json() for i in a.issues],
        "class_facts": list(a.class_facts.items()),
        "stuck": [(sid, s.count, s.total, s.cubes, s.example) for sid, s in a.stuck.items()],
        "live": None if a.live is None else (a.live.reached, a.live.reaches_ending,
                                             sorted(a.live.reached_only_through.items()),
                                             sorted(a.live.ending_only_through.items())),
    }


#: branches with input problems the decisions report, in scenes early, in the middle and
#: late in the file, so that every part has some: a repeated order_no, a value of the
#: wrong type, an undeclared flag, a flag missing from available_flags
EXTRA = [
    ",,,,,X001,S010,S011,,3,,,,,,",
    ',,,,,X002,S200,S201,"courage == ""high""",5,,,,,,',
    ",,,,,X003,S201,S202,nosuch,7,,,,,,",
    ',,,,,X004,S390,S391,"has_key or weather == ""비""",30,,,,,,',
    ",,,,,X005,S399,S400,courage > 3,,,,,,,",
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("gen")
    scenario, _ = generate(seed=11, scenes=400).write(out)
    lines = scenario.read_text(encoding="utf-8").splitlines()
    first_flag = next(i for i, line in enumerate(lines) if line.startswith(",,,,,,,,,,"))
    scenario.write_text("\n".join(lines[:first_flag] + EXTRA + lines[first_flag:]) + "\n", encoding="utf-8")
    return scenario


@pytest.mark.parametrize("jobs", [2, 3])
def test_generated_scenario_same_analysis_in_parts(generated, jobs):
    one = _facts(analyse(load_scenario(generated), jobs=1))
    assert one["shadowed"] and len(one["issues"]) >= 4  # defects and problems in every part
    assert _facts(analyse(load_scenario(generated), jobs=jobs)) == one


@pytest.mark.parametrize("example", ["lighthouse/scenario.csv", "lighthouse-broken/scenario.csv"])
def test_examples_same_analysis_in_parts(examples, example):
    path = examples / example
    assert _facts(analyse(load_scenario(path), jobs=2)) == _facts(analyse(load_scenario(path), jobs=1))


#: fields of the Analysis the per-scene work only reads (made before it, or after the merge)
READ_ONLY = {"scenario", "graph", "entries", "endings", "reached", "reaches_ending", "conditions", "live", "alongside", "budgets",
             # the optional columns of issue 17: read before the per-scene work, or after the merge
             "kinds", "opaque", "menus", "positions", "story",
             # the opaque parts of an imported story (issue 28): read before the per-scene work
             "opaque_jumps", "maybe_reached", "maybe_reaches", "opaque_effects", "weak",
             # caches, not decisions: each process fills its own fix memo while it makes
             # cards (after the merge); the finding memo is set by incremental re-lint
             "fix_memo", "reuse",
             # the facts the checks of a run over several processes share: set after the analysis
             "check_facts"}


def test_every_field_is_compared_or_read_only(generated):
    """A new field of the Analysis is either merged from the parts (and compared above)
    or left alone by the per-scene work: nothing falls between the two."""
    from dataclasses import fields

    from storygraph.partition import PER_SCENE_FIELDS

    names = {f.name for f in fields(Analysis)}
    compared = set(_facts(analyse(load_scenario(generated), jobs=1)))
    assert names == READ_ONLY | set(PER_SCENE_FIELDS), names ^ (READ_ONLY | set(PER_SCENE_FIELDS))
    assert set(PER_SCENE_FIELDS) <= compared


def test_a_per_scene_field_that_is_not_merged_stops_the_run(generated):
    """If the per-scene work fills a field that the merge does not carry back, the run
    fails loudly instead of dropping it silently."""
    from storygraph.partition import decide_in_parts

    a = analyse(load_scenario(generated), jobs=1)

    def decide(sub, part, first):
        sub.endings.append("extra")  # a read-only field, filled per scene

    with pytest.raises(RuntimeError, match="endings"):
        decide_in_parts(a, 1, decide, lambda sub: None, stuck=False)
