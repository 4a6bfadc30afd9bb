"""Write the example round (evaluation_run.csv, task_spec.csv, dataset_index.csv).

The round is planned task by task below: the thresholds, the dataset row, and for the
runs how many there are, how many succeed, the failure reasons ('' = left empty) and the
two middle cycle times (one for an odd number of runs).  The runs are spread around
those middle values and shuffled with a fixed seed, so the files are the same on every
run of this script.  gold.csv was written by hand from this plan and the spec, not from
the tool's output (see README.md).

Run: python examples/robot/make_round.py
"""

from __future__ import annotations

import csv
import random
from decimal import Decimal
from pathlib import Path

HERE = Path(__file__).resolve().parent
ARTIFACT = "grip-policy-v3.2"

# task_id, required_skill, target, share limit, max cycle, min episodes,
# dataset (skill, episode_count or None, site, hand) or None,
# runs (n, successes, failure reasons, middle cycle values) or None
PLAN = [
    # ---- the base table: 10 tasks
    ("pick-bin-A01", "single_arm_pick", "0.9", "0.5", "10", 300, ("single_arm_pick", 420, "안산", "parallel_2f"),
     (20, 19, ["double_pick"], ("8.1", "8.3"))),
    ("place-tray-A02", "single_arm_place", "0.63", "0.5", "9", 200, ("single_arm_place", 260, "안산", "parallel_2f"),
     (16, 10, ["drop", "drop", "misalign", "offset", "offset", "misalign"], ("7.1", "7.3"))),
    ("insert-peg-B01", "precision_insert", "0.85", "0.5", "14", 300, ("precision_insert", 180, "판교", "parallel_2f"),
     (10, 6, ["jam", "jam", "miss_hole", "force_limit"], ("11.0", "11.1"))),
    ("screw-M3-B02", "tool_use", "0.8", "0.5", "18", 400, ("tool_use", 450, "판교", "3finger"),
     (15, 12, ["cross_thread", "cross_thread", "torque_limit"], ("15.2",))),
    ("cable-route-C01", "bimanual_coord", "0.8", "0.5", "30", 500, ("single_arm_pick", 120, "평택", "5finger"),
     (10, 3, ["tangle", "tangle", "drop", "drop", "timeout", "tangle", ""], ("27.5", "28.0"))),
    ("fold-towel-C02", "deformable_fold", "0.7", "0.5", "25", 350, ("deformable_fold", None, "평택", "5finger"),
     (12, 5, ["corner_miss", "corner_miss", "slip", "wrinkle", "corner_miss", "", "slip"], ("21.0", "21.4"))),
    ("open-drawer-D01", "articulated_pull", "0.75", "0.6", "12", 250, ("articulated_pull", 310, "안산", "3finger"),
     (12, 11, ["handle_slip"], ("9.8", "10.0"))),
    ("pour-cup-D02", "liquid_pour", "0.7", "0.5", "16", 300, ("liquid_pour", 240, "판교", "parallel_2f"),
     (15, 10, ["spill", "overfill", "spill", "", "tilt_short"], ("13.2",))),
    ("stack-box-E01", "single_arm_place", "0.9", "0.5", "12", 200, ("single_arm_place", 260, "평택", "suction"),
     (12, 11, ["misalign"], ("9.0", "9.2"))),
    ("wipe-table-E02", "surface_wipe", "0.7", "0.5", "20", 150, ("surface_wipe", 170, "안산", "parallel_2f"),
     (14, 10, ["residue", "residue", "edge_miss", "timeout"], ("16.0", "16.4"))),
    # ---- the augmented rows: 2 per base task (lighting, objects, hands, sites)
    ("pick-bin-A01-glare", "single_arm_pick", "0.85", "0.5", "10", 300, ("single_arm_pick", 340, "안산", "parallel_2f"),
     (14, 12, ["glare_miss", "glare_miss"], ("8.4", "8.6"))),
    ("pick-bin-A01-mixed", "single_arm_pick", "0.7", "0.35", "11", 300, ("single_arm_pick", 280, "판교", "suction"),
     (20, 15, ["miss_grasp", "double_pick", "", "double_pick", "miss_grasp"], ("9.1", "9.3"))),
    ("place-tray-A02-fast", "single_arm_place", "0.65", "0.5", "7", 200, ("single_arm_place", 150, "안산", "parallel_2f"),
     (13, 8, ["drop", "offset", "drop", "misalign", "overshoot"], ("6.6",))),
    ("place-tray-A02-5f", "single_arm_place", "0.7", "0.5", "9", 200, ("single_arm_place", 230, "평택", "5finger"),
     (10, 8, ["drop", "offset"], ("9.3", "9.5"))),
    ("insert-peg-B01-tight", "precision_insert", "0.8", "0.5", "15", 300, ("precision_insert", 300, "판교", "parallel_2f"),
     (11, 7, ["jam", "", "miss_hole", "jam"], ("12.6",))),
    ("insert-peg-B01-dim", "precision_insert", "0.7", "0.5", "13", 300, ("precision_insert", 320, "판교", "3finger"),
     (10, 8, ["miss_hole", "miss_hole"], ("13.4", "13.8"))),
    ("screw-M3-B02-dim", "tool_use", "0.8", "0.5", "18", 400, ("tool_use", 450, "판교", "3finger"),
     (9, 7, ["cross_thread", "torque_limit"], ("16.1",))),
    ("screw-M3-B02-5f", "tool_use", "0.8", "0.5", "18", 400, ("tool_use", 380, "안산", "5finger"), None),
    ("cable-route-C01-tangle", "bimanual_coord", "0.75", "0.5", "35", 500, None, None),
    ("cable-route-C01-short", "bimanual_coord", "0.8", "0.5", "25", 500, ("bimanual_coord", 400, "평택", "5finger"), None),
    ("fold-towel-C02-small", "deformable_fold", "0.8", "0.5", "20", 350, ("deformable_fold", 360, "평택", "5finger"),
     (11, 9, ["corner_miss", "slip"], ("23.1",))),
    ("fold-towel-C02-wet", "deformable_fold_wet", "0.7", "0.5", "30", 300, ("deformable_fold", 90, "평택", "5finger"), None),
    ("open-drawer-D01-heavy", "articulated_pull", "0.75", "0.6", "14", 250, ("articulated_pull", 260, "안산", "3finger"),
     (20, 16, ["handle_slip", "handle_slip", "", "handle_slip"], ("11.2", "11.6"))),
    ("open-drawer-D01-stiff", "articulated_pull", "0.7", "0.5", "12.42", 250, ("articulated_pull", 200, "안산", "3finger"),
     (12, 10, ["handle_slip", "stall"], ("12.40", "12.45"))),
    ("pour-cup-D02-left", "liquid_pour", "0.75", "0.5", "16", 300, ("liquid_pour", 330, "판교", "parallel_2f"),
     (11, 9, ["spill", "tilt_short"], ("14.0",))),
    ("pour-cup-D02-full", "liquid_pour", "0.8", "0.5", "14", 300, ("liquid_pour", 310, "판교", "parallel_2f"),
     (10, 9, ["overfill"], ("14.3", "14.4"))),
    ("stack-box-E01-tall", "single_arm_place", "0.7", "0.6", "14", 200, ("single_arm_place", 180, "평택", "suction"),
     (10, 7, ["topple", "misalign", "topple"], ("11.5", "11.9"))),
    ("stack-box-E01-5f", "single_arm_place", "0.8", "0.5", "12", 200, ("single_arm_place", 220, "평택", "5finger"),
     (10, 9, ["misalign"], ("11.8", "12.2"))),
    ("wipe-table-E02-oily", "surface_wipe", "0.7", "0.5", "20", 150, ("surface_wipe", 160, "안산", "parallel_2f"),
     (12, 9, ["residue", "", "residue"], ("16.8", "17.2"))),
    ("wipe-table-E02-curved", "surface_wipe", "0.7", "0.5", "22", 150, ("surface_wipe", None, "판교", "5finger"), None),
]


def cycles(n: int, middle: tuple[str, ...], rng: random.Random) -> list[str]:
    """``n`` cycle times whose middle value(s) are exactly ``middle``."""
    mids = [Decimal(m) for m in middle]
    below = (n - len(mids)) // 2
    values = [mids[0] - Decimal("0.3") * (i + 1) - Decimal(rng.randint(0, 3)) / 10 * i for i in range(below)]
    values += mids
    values += [mids[-1] + Decimal("0.4") * (i + 1) + Decimal(rng.randint(0, 5)) / 10 * i for i in range(n - len(values))]
    return [str(v) for v in values]


def main() -> None:
    rng = random.Random(20261202)
    with open(HERE / "task_spec.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "required_skill", "target_success_rate", "top_reason_share_limit", "max_cycle_sec", "min_episode_count"])
        for task_id, skill, target, limit, max_cycle, minimum, _ds, _runs in PLAN:
            w.writerow([task_id, skill, target, limit, max_cycle, minimum])
    with open(HERE / "dataset_index.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "required_skill", "episode_count", "capture_site", "robot_hand_type"])
        for task_id, *_rest, ds, _runs in PLAN:
            if ds is not None:
                skill, count, site, hand = ds
                w.writerow([task_id, skill, "" if count is None else count, site, hand])
    rows = []
    for task_id, *_rest, runs in PLAN:
        if runs is None:
            continue
        n, successes, reasons, middle = runs
        assert len(reasons) == n - successes, task_id
        assert len(middle) == 2 - n % 2, task_id  # two middle values for an even number of runs
        outcomes = [("true", "")] * successes + [("false", r) for r in reasons]
        rng.shuffle(outcomes)
        times = cycles(n, middle, rng)
        rng.shuffle(times)
        for i, ((ok, reason), sec) in enumerate(zip(outcomes, times), start=1):
            rows.append([task_id, ARTIFACT, f"{task_id}-ep{i:02d}", ok, reason, sec])
    rng.shuffle(rows)  # runs arrive in the order they were logged, not grouped by task
    with open(HERE / "evaluation_run.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["task_id", "model_artifact", "episode_id", "success", "failure_reason", "cycle_sec"])
        w.writerows(rows)


if __name__ == "__main__":
    main()
