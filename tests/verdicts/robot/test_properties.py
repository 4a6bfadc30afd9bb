"""Invariants over random rounds: every card validates and every automatic check passes
on the cards this tool makes; a defect planted in one card is caught by the check that
owns that field, and names that card."""

from __future__ import annotations

import csv
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verdicts.robot import judge_round
from verdicts.robot.checks import CHECKS, CheckContext

SKILLS = ["pick", "place"]
REASONS = ["slip", "drop", "jam", ""]


@st.composite
def rounds(draw):
    tasks = []
    for i in range(draw(st.integers(1, 6))):
        runs = draw(st.lists(st.tuples(
            st.sampled_from(["true", "true", "false", "false", ""] if draw(st.booleans()) else ["true", "false"]),
            st.sampled_from(REASONS),
            st.one_of(st.decimals(min_value="0.5", max_value="20", places=2).map(str), st.just("") if draw(st.booleans()) else st.nothing()),
        ), max_size=12))
        tasks.append({
            "task_id": f"t{i}",
            "skill": draw(st.sampled_from(SKILLS)),
            "target": draw(st.sampled_from(["0.5", "0.6", "0.63", "0.67", "0.8", "1", ""])),
            "limit": draw(st.sampled_from(["0.33", "0.5", "0.67", ""])),
            "max_cycle": draw(st.sampled_from(["5", "10", "10.5", "12.42", ""])),
            "min": draw(st.sampled_from(["0", "100", ""])),
            "dataset": draw(st.one_of(st.none(), st.tuples(st.sampled_from(SKILLS + [""]), st.sampled_from(["0", "50", "150", ""])))),
            "runs": runs,
        })
    return tasks


def _write(folder: Path, tasks: list[dict]) -> None:
    with open(folder / "task_spec.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "required_skill", "target_success_rate", "top_reason_share_limit", "max_cycle_sec", "min_episode_count"])
        for t in tasks:
            w.writerow([t["task_id"], t["skill"], t["target"], t["limit"], t["max_cycle"], t["min"]])
    with open(folder / "dataset_index.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "required_skill", "episode_count", "capture_site", "robot_hand_type"])
        for t in tasks:
            if t["dataset"] is not None:
                w.writerow([t["task_id"], t["dataset"][0], t["dataset"][1], "안산", "parallel_2f"])
    with open(folder / "evaluation_run.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "model_artifact", "episode_id", "success", "failure_reason", "cycle_sec"])
        for t in tasks:
            for i, (ok, reason, cycle) in enumerate(t["runs"]):
                w.writerow([t["task_id"], "m-1", f"{t['task_id']}-{i}", ok, reason if ok == "false" else "", cycle])


def _judge(tasks):
    with tempfile.TemporaryDirectory() as tmp:
        _write(Path(tmp), tasks)
        report = judge_round(Path(tmp))
        return report, report.inputs.tables


@given(rounds())
def test_every_check_passes_on_our_cards(tasks):
    report, _ = _judge(tasks)
    assert [c.task_id for c in report.cards] == [t["task_id"] for t in tasks]
    failed = {c.id: (c.failed_targets, c.note) for c in report.checks if not c.passed}
    assert failed == {}, (failed, [c.to_json() for c in report.cards])


def _plant(card: dict, kind: str) -> str | None:
    """Change ``card`` in place; return the id of the check that must catch it."""
    if kind == "rate" and card["success_rate"] is not None:
        card["success_rate"] = round(card["success_rate"] + (0.01 if card["success_rate"] < 1 else -0.01), 2)
        return "C03"
    if kind == "failures" and card["failure_total"] is not None:
        card["failure_total"] += 1
        return "C04"
    if kind == "median" and card["cycle_sec_median"] is not None:
        card["cycle_sec_median"] = round(card["cycle_sec_median"] + 0.01, 2)
        return "C06"
    if kind == "more":
        card["more_episode_count"] = (card["more_episode_count"] or 0) + 1
        return "C07"
    if kind == "cause":
        card["blocked_cause"] = "평가 미실시" if card["blocked_cause"] == "능력 불일치" else "능력 불일치"
        return "C09"
    if kind == "site":
        card["recapture_site"] = "어딘가"
        return "C10"
    if kind == "field":
        card["evidence"].append({"source": "evaluation_run", "field": "grip_force_peak", "agg": "max", "value": 3})
        return "C12"
    if kind == "value":
        card["evidence"].append({"source": "task_spec", "field": "task_id", "value": card["task_id"] + "-x"})
        return "C13"
    if kind == "summary":
        card["summary"] = card["summary"].rstrip(".") + "요!"
        return "C14"
    if kind == "verdict":
        card["verdict"] = "배포 완료"
        return "C01"
    return None


@given(rounds(), st.data())
def test_a_planted_defect_is_caught(tasks, data):
    report, tables = _judge(tasks)
    cards = [c.to_json() for c in report.cards]
    victim = data.draw(st.sampled_from(cards))
    kind = data.draw(st.sampled_from(["rate", "failures", "median", "more", "cause", "site", "field", "value", "summary", "verdict"]))
    check_id = _plant(victim, kind)
    if check_id is None:
        return
    results = {r.id: r for r in CHECKS.run(CheckContext(tables, cards))}
    assert victim["task_id"] in results[check_id].failed_targets, (kind, victim)
    others = {t for r in results.values() for t in r.failed_targets}
    assert others == {victim["task_id"]}


@pytest.mark.slow
def test_a_large_round_is_judged_and_checked(tmp_path):
    import random
    import time

    rng = random.Random(7)
    tasks = [{"task_id": f"t{i}", "skill": "pick", "target": "0.8", "limit": "0.5", "max_cycle": "10", "min": "100",
              "dataset": ("pick" if i % 9 else "place", str(rng.randint(0, 200))),
              "runs": [(rng.choice(["true"] * 6 + ["false"]), rng.choice(REASONS), f"{rng.uniform(5, 12):.2f}") for _ in range(40)]}
             for i in range(1500)]
    _write(tmp_path, tasks)
    start = time.perf_counter()
    report = judge_round(tmp_path)
    elapsed = time.perf_counter() - start
    assert len(report.cards) == 1500 and all(r.passed for r in report.checks)
    assert elapsed < 60, elapsed
