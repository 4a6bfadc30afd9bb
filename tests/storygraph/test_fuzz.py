"""``storygraph fuzz``: the real command, its determinism, and a comparison that can fail."""

from __future__ import annotations

import itertools
import json

import pytest
from hypothesis import given, settings, strategies as st

from storygraph.domain import lint
from storygraph.fuzz import KINDS, Mark, compare, generate, scenes_needed
from verdicts.errors import ConfigError

from ..conftest import DEEP
from .strategies import plant_counts
from storygraph.fuzz.scenario import MENU_KINDS


def test_same_seed_same_scenario_other_seed_other_scenario(cli, tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    cli("storygraph", "fuzz", "--seed", "7", "--scenes", "150", "--out", a, check_code=0)
    cli("storygraph", "fuzz", "--seed", "7", "--scenes", "150", "--out", b, check_code=0)
    cli("storygraph", "fuzz", "--seed", "8", "--scenes", "150", "--out", c, check_code=0)
    assert (a / "scenario.csv").read_bytes() == (b / "scenario.csv").read_bytes()
    assert (a / "manifest.json").read_bytes() == (b / "manifest.json").read_bytes()
    assert (a / "scenario.csv").read_bytes() != (c / "scenario.csv").read_bytes()


def test_json_reports_planted_and_caught_per_kind(cli, tmp_path):
    proc = cli("storygraph", "fuzz", "--seed", "3", "--scenes", "300", "--plant", "island=3", "--plant", "dead-end=2",
               "--out", tmp_path, "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["planted"]["island"] == 3 and result["planted"]["dead_end"] == 2
    assert result["planted"]["missing_target"] == 1  # the default: one per 200 scenes
    assert result["caught"] == result["planted"]
    assert result["unexplained"] == [] and result["missed"] == [] and result["ok"] is True
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["planted"] == result["planted"]
    assert sum(1 for p in manifest["plants"] if p["kind"] == "island") == 3
    # every explained finding names the plant it follows from
    assert all(e["because"] for e in result["explained"])
    # and the scenario written is what the linter judges
    report = lint(tmp_path / "scenario.csv")
    assert len(report.cards) == result["scenes"] + result["branches"]


def test_the_new_finding_kinds_by_their_codes(cli, tmp_path):
    """``--plant`` takes a finding's code; the manifest holds what the generator counted
    for a stuck combination and which branch each dead-branch plant made dead."""
    proc = cli("storygraph", "fuzz", "--seed", "4", "--scenes", "300", "--plant", "all=0", "--plant", "stuck-combination=3",
               "--plant", "ending-only-through-dead-branch=2", "--plant", "unused-flag=2", "--out", tmp_path,
               "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["planted"]["stuck_combination"] == 3 and result["planted"]["ending_only_through_dead_branch"] == 2
    assert result["planted"]["unused_flag"] == 2 and result["planted"]["island"] == 0
    assert result["caught"] == result["planted"] and result["ok"] is True
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    report = lint(tmp_path / "scenario.csv")
    found = {(f.code, f.target): f.data for f in report.findings}
    for plant in manifest["plants"]:
        for mark in plant["expect"]:
            assert (mark["code"], mark["target"]) in found
        if plant["kind"] == "stuck_combination":
            data = plant["expect"][0]["data"]
            assert 0 < data["count"] < data["total"]
        if plant["kind"] == "ending_only_through_dead_branch":
            # the dead branch leaves a planted scene, and that scene's finding names it
            dead = plant["expect"][0]["data"]["dead_branches"]
            assert found[("ending-only-through-dead-branch", plant["scenes"][0])]["dead_branches"] == dead
    flags = {p["flag"] for p in manifest["plants"] if p["kind"] == "unused_flag"}
    assert len(flags) == 2 and flags <= set(report.scenario.flags)


def test_unused_flags_need_no_flag_in_conditions(cli):
    proc = cli("storygraph", "fuzz", "--seed", "2", "--scenes", "60", "--flags", "0", "--plant", "all=0",
               "--plant", "unused-flag=2", "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["caught"]["unused_flag"] == 2 and result["flags"] == 2


def test_text_output_and_nothing_planted(cli):
    proc = cli("storygraph", "fuzz", "--seed", "5", "--scenes", "120", "--plant", "all=0", check_code=0)
    for kind in KINDS:
        assert kind in proc.stdout
    assert "심지 않은 발견 0건" in proc.stdout
    assert "자동 검증: 모두 통과" in proc.stdout
    assert proc.stderr == ""  # no progress bar when stderr is not a terminal


@pytest.mark.parametrize("args", [["--plant", "volcano=2"], ["--plant", "island"], ["--scenes", "10", "--plant", "all=3"],
                                  ["--flags", "0", "--plant", "unsatisfiable=1"],
                                  ["--flags", "0", "--plant", "all=0", "--plant", "stuck-combination=1"]])
def test_bad_options_exit_2_with_a_message(cli, args):
    proc = cli("storygraph", "fuzz", "--seed", "1", *args, check_code=2)
    assert proc.stderr.startswith("storygraph:")


def test_plants_that_cannot_fit_are_refused_with_the_scenes_they_need():
    """The request of issue 33: twenty scenes, one flag and eight plants.  It is refused
    (the generator does not shrink a plant to fit), and the message names the scene
    count that fits whatever the seed."""
    plant = {k: int(k in {"island", "shadowed_one", "loop_no_exit", "reached_only_through_dead_branch",
                          "ending_only_through_dead_branch", "comparison_out_of_range", "always_true_condition",
                          "hidden_choice"}) for k in KINDS}
    refused = []
    for seed in range(40):
        try:
            generate(seed, 20, 1, plant)
        except ConfigError as exc:
            refused.append(str(exc))
    assert refused, "twenty scenes fit eight plants for every seed tried: the refusal was not exercised"
    need = scenes_needed(plant)
    assert need > 20
    assert all(message.startswith("장면 20개로는 심을 결함이 들어갈 자리가 모자랍니다.") for message in refused)
    assert all(f"장면이 {need}개 이상이면" in message for message in refused)


def test_the_cli_refuses_plants_that_cannot_fit(cli):
    proc = cli("storygraph", "fuzz", "--seed", "1", "--scenes", "7", "--plant", "all=0", "--plant", "island=3",
               check_code=2)
    assert proc.stderr.startswith("storygraph:") and "자리가 모자랍니다" in proc.stderr
    assert f"장면이 {scenes_needed({'island': 3})}개 이상이면" in proc.stderr
    assert "Traceback" not in proc.stderr


@settings(max_examples=200 if DEEP else 40)
@given(seed=st.integers(0, 2**32 - 1), plant=plant_counts(3), flags=st.integers(1, 5), extra=st.integers(0, 3))
def test_scenes_needed_is_enough_for_every_seed(seed, plant, flags, extra):
    """What the property tests rely on: with :func:`scenes_needed` scenes (or more), every
    plant fits and is planted, whatever the seed."""
    scenes = scenes_needed(plant) + extra
    gen = generate(seed, scenes, flags, plant)
    assert len(gen.scenes) == scenes
    planted = {k: sum(1 for p in gen.plants if p.kind == k) for k in KINDS}
    assert planted == plant


def test_comparison_flags_an_unplanted_finding_and_a_missed_plant(tmp_path):
    """The comparison is not a rubber stamp: forget a plant and its findings become
    unexplained; expect the wrong verdict and the plant counts as missed."""
    gen = generate(11, 200, 4, {"island": 1, "shadowed_union": 1})
    path = tmp_path / "s.csv"
    path.write_text(gen.to_csv(), encoding="utf-8")
    report = lint(path)
    assert compare(gen, report).ok
    island = next(p for p in gen.plants if p.kind == "island")
    gen.plants.remove(island)
    outcome = compare(gen, report)
    assert not outcome.ok
    assert {u["target"] for u in outcome.unexplained} >= set(island.scenes)
    gen.plants.append(island)
    union = next(p for p in gen.plants if p.kind == "shadowed_union")
    union.cover = "one"  # claim a single covering branch: the analysis found two
    outcome = compare(gen, report)
    assert [m["kind"] for m in outcome.missed] == ["shadowed_union"]
    union.cover = "union"
    union.expect = [Mark.card(union.shadowed, "조건이 겹침", None)]
    assert [m["kind"] for m in compare(gen, report).missed] == ["shadowed_union"]


def test_comparison_checks_the_values_the_new_findings_carry(tmp_path):
    """A stuck combination counts as caught only with the count and total the generator
    counted and an example under which no branch fires (by the generator's evaluator);
    a dead-branch finding only when it names the planted branch; a forgotten unused
    flag is unexplained."""
    gen = generate(12, 200, 4, {"stuck_combination": 1, "reached_only_through_dead_branch": 1, "unused_flag": 1})
    path = tmp_path / "s.csv"
    path.write_text(gen.to_csv(), encoding="utf-8")
    report = lint(path)
    assert compare(gen, report).ok
    stuck = next(p for p in gen.plants if p.kind == "stuck_combination")
    i = next(j for j, f in enumerate(report.findings) if f.code == "stuck-combination" and f.target == stuck.scenes[0])
    finding = report.findings[i]
    report.findings[i] = finding.replace(data={**finding.data, "count": finding.data["count"] + 1})
    missed = compare(gen, report).missed
    assert [m["kind"] for m in missed] == ["stuck_combination"] and "count" in missed[0]["why"]
    # the right count, but an example under which a branch of the scene fires
    scene = next(s for s in gen.scenes if s.scene_id == stuck.scenes[0])
    domains = {f.flag: f.domain() for f in gen.flags}
    conds = [b.condition for b in gen.branches if b.from_scene == scene.scene_id]
    fires = next(a for a in (dict(zip(scene.available_flags, values))
                             for values in itertools.product(*(domains[f] for f in scene.available_flags)))
                 if any(c.holds(a) for c in conds))
    report.findings[i] = finding.replace(data={**finding.data, "example": fires})
    missed = compare(gen, report).missed
    assert [m["kind"] for m in missed] == ["stuck_combination"] and "걸림" in missed[0]["why"]
    report.findings[i] = finding
    # a reached-only finding that names some other branch
    gated = next(p for p in gen.plants if p.kind == "reached_only_through_dead_branch")
    j = next(j for j, f in enumerate(report.findings) if f.code == "reached-only-through-dead-branch" and f.target == gated.scenes[0])
    original = report.findings[j]
    report.findings[j] = original.replace(data={"dead_branches": [gen.branches[0].branch_id + "x"]})
    assert [m["kind"] for m in compare(gen, report).missed] == ["reached_only_through_dead_branch"]
    report.findings[j] = original
    assert compare(gen, report).ok
    # forget the unused-flag plant: its finding is no longer explained
    spare = next(p for p in gen.plants if p.kind == "unused_flag")
    gen.plants.remove(spare)
    assert [(u["code"], u["target"]) for u in compare(gen, report).unexplained] == [("unused-flag", spare.flag)]


@pytest.mark.slow
def test_two_thousand_scenes_every_plant_caught_nothing_unexplained(cli):
    """The issue's done-when: ``storygraph fuzz --seed 1 --scenes 2000``."""
    proc = cli("storygraph", "fuzz", "--seed", "1", "--scenes", "2000", "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["planted"] == {k: 0 if k in MENU_KINDS else 10 for k in KINDS}
    assert result["caught"] == result["planted"]
    assert result["unexplained"] == [] and result["checks_failed"] == []


def test_menus_and_mixed_scenes_planted_and_caught(cli):
    """Issue 17: a choice hidden by the automatic branch before its menu is caught as
    ``조건이 겹침`` on that branch; plain menus of overlapping choices give nothing."""
    proc = cli("storygraph", "fuzz", "--seed", "4", "--scenes", "400", "--plant", "hidden-choice=4", "--plant", "plain-menu=4",
               "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert result["planted"]["hidden_choice"] == result["caught"]["hidden_choice"] == 4
    assert result["planted"]["plain_menu"] == result["caught"]["plain_menu"] == 4
    assert result["unexplained"] == [] and result["checks_failed"] == []


def test_menu_plants_write_the_kind_column_only_when_asked(tmp_path):
    plain = generate(seed=9, scenes=200)
    assert "kind" not in plain.to_csv().splitlines()[0].split(",")
    menus = generate(seed=9, scenes=200, plant={"hidden_choice": 2, "plain_menu": 2})
    assert menus.to_csv().splitlines()[0].endswith(",kind")
    for seed in range(6):
        gen = generate(seed=seed, scenes=250, plant={"hidden_choice": 2, "plain_menu": 2, "shadowed_one": 1, "stuck_combination": 1})
        path, _ = gen.write(tmp_path / str(seed))
        outcome = compare(gen, lint(path))
        assert outcome.ok, (seed, outcome.missed, outcome.unexplained)
