"""Bounded work (issue 19, Deliver 2): the exact searches stop at their per-scene
budget (``storygraph.budgets``), the scene is then not decided — an input issue says
why and which setting raises the budget, its cards say so in their hedge — and the run
finishes.  A budget never stops a scenario of the bundled examples or the golden corpus.
The hostile files are built by :mod:`tests.hostile.builders`."""

from __future__ import annotations

import json
import random
from itertools import combinations
from pathlib import Path

import pytest

from storygraph import lint
from storygraph.budgets import BudgetExceeded, Budgets
from storygraph.conditions import parse_condition
from storygraph.liveness import uncovered
from storygraph.loading import load_scenario
from storygraph.shadowing import decide_by_sat, scene_domains
from tests.hostile import builders
from tests.hostile.inputs import ROOT, assert_clean, run_bounded


def _lint_json(path, *more, timeout=120):
    out = run_bounded("storygraph", "lint", path, "--format", "json", "--quiet", "--jobs", "1", *more, timeout=timeout)
    assert_clean(out, 1)
    return out.json(), out


def test_many_flags_each_tested_once_stop_the_stuck_search_in_seconds(tmp_path):
    data, out = _lint_json(builders.many_flags(tmp_path, 22), timeout=60)
    issues = [i for i in data["issues"] if "계산 한도" in i["reason"]]
    assert len(issues) == 1 and issues[0]["line"] == 2 and issues[0]["column"] == "available_flags"
    assert "조건 평가 1,000,000번" in issues[0]["reason"] and "[budget] stuck_evaluations" in issues[0]["reason"]
    scene = next(c for c in data["cards"] if c["target_no"] == "S0")
    assert "멈추는지는 계산 한도 안에 다 따지지 못했습니다" in scene["hedge"]
    assert not [f for f in data.get("findings", []) if f["code"] == "stuck-combination"]
    # the shadowing of the scene is still decided (no branch covers another)
    assert not any(i["column"] == "condition_expr" for i in data["issues"])
    assert out.seconds < 30  # 82 s before the budget; a few seconds on an idle machine


def test_a_larger_budget_in_the_config_decides_the_scene(tmp_path):
    path = builders.many_flags(tmp_path, 8)
    (tmp_path / "storygraph.toml").write_text("[budget]\nstuck_evaluations = 10\n", encoding="utf-8")
    data, _ = _lint_json(path)
    assert any("조건 평가 10번" in i["reason"] for i in data["issues"])
    (tmp_path / "storygraph.toml").write_text("[budget]\nstuck_evaluations = 100000\n", encoding="utf-8")
    data, _ = _lint_json(path)
    assert not any("계산 한도" in i["reason"] for i in data["issues"])
    stuck = next(f for f in data.get("findings", []) if f["code"] == "stuck-combination")
    assert stuck["data"]["count"] == 6 ** 8 and stuck["data"]["total"] == 11 ** 8


def test_overlapping_branches_past_the_sat_budget_leave_the_scene_undecided(tmp_path):
    path = builders.overlapping_branches(tmp_path, 400)  # decided on the class grid; its covering search is counted
    (tmp_path / "storygraph.toml").write_text("[budget]\nsat_steps = 1000\n", encoding="utf-8")
    data, _ = _lint_json(path)
    issue = next(i for i in data["issues"] if "계산 한도" in i["reason"])
    assert issue["line"] == 4 and issue["column"] == "condition_expr"
    assert "분기 400개의 조건이 겹치는지를 계산 한도(겹침 계산 1,000단계)" in issue["reason"]
    assert "[budget] sat_steps" in issue["reason"]
    branches = [c for c in data["cards"] if c["branch_id"]]
    assert len(branches) == 400 and all(c["verdict"] != "조건이 겹침" for c in branches)
    # the caveat is said once for the scene: on its first branch, naming the others
    said = [c for c in branches if "계산 한도 안에 끝나지 않아" in (c["hedge"] or "")]
    assert len(said) == 1 and "조건이 겹치는지는 따지지 않았습니다" in said[0]["hedge"], [c["hedge"] for c in said]
    # under the default budget the same scene is decided: every B is covered by the A's
    (tmp_path / "more").mkdir()
    data, _ = _lint_json(builders.overlapping_branches(tmp_path / "more", 40))
    assert not any("계산 한도" in i["reason"] for i in data["issues"])
    assert sum(c["verdict"] == "조건이 겹침" for c in data["cards"]) == 20


@pytest.mark.parametrize("n", [2000, pytest.param(5000, marks=pytest.mark.slow)])
def test_thousands_of_overlapping_branches_are_decided_exactly_in_seconds(tmp_path, n):
    """The covering search reads the class grid: B0 (``t >= 0``) is covered only by all
    the A's together, every later B by B0 alone (found from the grid's columns, not by
    trying each earlier branch); 67 s and over 5 minutes before the budgets, then past
    the budget and not decided."""
    data, out = _lint_json(builders.overlapping_branches(tmp_path, n), timeout=300)
    assert not [i for i in data["issues"] if "계산 한도" in i["reason"]]
    assert len(data["cards"]) == n + 2
    half = n // 2
    shadowing = {c["overlapping_branch_id"]: c for c in data["cards"] if c["verdict"] == "조건이 겹침"}
    assert sorted(shadowing) == sorted(f"B{i}" for i in range(half))
    assert f"`A0`, `A1`, `A2`, `A3` 외 {half - 4}개의 조건이 함께" in shadowing["B0"]["summary"]
    assert f"앞 순번 `B0`의 조건이 순번 {half + 8}인 분기 `B7`" in shadowing["B7"]["summary"]
    assert all(c["passed"] for c in data["checks"])
    assert out.seconds < (60 if n == 2000 else 120)  # about 1 s and 3.5 s of CPU on an idle machine


def test_budget_settings_are_checked(tmp_path):
    story = builders.many_flags(tmp_path, 2)
    (tmp_path / "storygraph.toml").write_text("[budget]\nsat_steps = 0\nwhatever = 1\n", encoding="utf-8")
    out = run_bounded("storygraph", "lint", story, "--quiet")
    assert_clean(out, 2)
    assert "budget.sat_steps" in out.stderr and "알 수 없는 키 `budget.whatever`" in out.stderr


def test_a_scene_listing_more_flags_than_the_recursion_limit(tmp_path):
    data, _ = _lint_json(builders.many_available_flags(tmp_path, 3000))
    stuck = next(f for f in data.get("findings", []) if f["code"] == "stuck-combination")
    # 6 × 11^2999 combinations: past the bits a count keeps, so "countless"
    assert stuck["data"]["count"] is None and "셀 수 없이 많은 조합" in stuck["message"]


SCENARIOS = sorted([*(ROOT / "examples").glob("*/scenario.csv"), *(ROOT / "tests" / "golden" / "corpus").glob("*.csv"),
                    ROOT / "examples" / "lighthouse-folder"])


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_budget_stops_a_bundled_scenario(path):
    report = lint(path)
    assert not [i for i in report.issues if "계산 한도" in i.reason]
    assert all(s.limit is None for s in report.analysis.stuck.values())
    assert all(s.undecided is None or s.undecided.code != "budget" for s in report.analysis.shadowing.values())


def test_budgeted_sat_decides_as_the_unbounded_one():
    """Under the budget the solver gives the very answers it gives without one (the
    budget only counts); past it, BudgetExceeded."""
    rng = random.Random(5)
    from storygraph.model import Flag

    flags = {"t": Flag("t", None, "int", 0, 50, (), 1), "k": Flag("k", None, "bool", None, None, (), 2)}
    for _ in range(30):
        texts = [f"t {rng.choice(['>=', '<', '==', '!='])} {rng.randint(0, 50)}" + rng.choice(["", " and k", " or not k"])
                 for _ in range(rng.randint(3, 40))]
        conds = [parse_condition(t) for t in texts]
        domains = scene_domains(conds, flags)
        assert decide_by_sat(conds, domains, budget=Budgets(10 ** 9, 1)) == decide_by_sat(conds, domains)
    with pytest.raises(BudgetExceeded) as caught:
        decide_by_sat(conds, domains, budget=Budgets(10, 1))
    assert caught.value.name == "sat_steps" and caught.value.words() == "겹침 계산 10단계"


def test_stuck_search_under_budget_is_exact_and_past_it_raises(tmp_path):
    sc = load_scenario(builders.many_flags(tmp_path, 6))
    conds = [parse_condition(b.condition_expr) for b in sorted(sc.branches, key=lambda b: b.order_no)]
    names = list(sc.scenes["S0"].available_flags)
    free, bounded = uncovered(conds, sc.flags, names), uncovered(conds, sc.flags, names, Budgets(1, 10 ** 6))
    assert (free.count, free.total, free.cubes, free.example) == (bounded.count, bounded.total, bounded.cubes, bounded.example)
    with pytest.raises(BudgetExceeded):
        uncovered(conds, sc.flags, names, Budgets(1, 100))


def _old_mask_cover(target, earlier):
    """The irredundant-set step as it was (quadratic per call), for comparison."""
    chosen = list(range(len(earlier)))
    for i in range(len(earlier) - 1, -1, -1):
        trial = [k for k in chosen if k != i]
        union = 0
        for k in trial:
            union |= earlier[k]
        if target & ~union == 0:
            chosen = trial
    return tuple(chosen)


def test_linear_irredundant_cover_chooses_as_before():
    from storygraph import shadowing

    rng = random.Random(3)
    for _ in range(300):
        n = rng.randint(25, 60)
        earlier = [rng.getrandbits(24) for _ in range(n)]
        union = 0
        for m in earlier:
            union |= m
        target = union & rng.getrandbits(24)
        if not target or any(target & ~m == 0 for m in earlier) or any(
                target & ~(earlier[a] | earlier[b]) == 0 for a, b in combinations(range(n), 2)):
            continue
        assert shadowing._mask_cover(target, earlier, 24) == _old_mask_cover(target, earlier)


def test_the_report_screen_of_a_scene_with_thousands_of_branches_stays_small(tmp_path):
    """Each card's context table shows at most MAX_CONTEXT_ROWS branches around its own
    (2,000 cards × 2,000 rows took 839 MB and over two minutes); the caption says which."""
    from storygraph.screen import MAX_CONTEXT_ROWS, context_tables

    report = lint(builders.overlapping_branches(tmp_path, 120))
    tables = context_tables(report)
    assert all(len(t.rows) <= MAX_CONTEXT_ROWS for t in tables.values())
    own = tables["B30"]
    assert own.caption.endswith("120개 가운데 79–103번째)") and own.rows[12][0] == "B30" and own.highlight[12].startswith("이 카드")
    first = tables["A0"]
    assert [r[0] for r in first.rows][:2] == ["A0", "A1"] and "1–25번째" in first.caption
