"""Generating a random scenario: a healthy backbone (every scene reached from an entry
and reaching an ending, no branch shadowed, no condition unsatisfiable), the planted
defects hosted in it (:mod:`storygraph.fuzz.planting`), scenes nobody reaches, islands
and unused flags — deterministic for a seed, size, flag count and plant counts.
"""

from __future__ import annotations

import random
from typing import Callable

from verdicts.errors import ConfigError

from .planting import plant_in_host
from .scenario import (
    DEAD_BRANCH_KINDS, FLAG_KINDS, HOSTED_KINDS, KINDS, MENU_KINDS, UNREACHED, BranchDef, Builder, FlagDef, Generated, Mark, Plant,
    PlantSpec,
)

__all__ = ["default_plants", "generate", "scenes_needed"]


_FLAG_POOL = (
    ("trust", "신뢰도", "int"), ("has_key", "열쇠", "bool"), ("weather", "날씨", "enum"), ("courage", "용기", "int"),
    ("met_guard", "경비와 만남", "bool"), ("route", "경로", "enum"), ("gold", "금화", "int"), ("has_map", "지도", "bool"),
    ("mood", "기분", "enum"), ("fame", "명성", "int"),
)
_ENUM_VALUES = {
    "weather": ("맑음", "흐림", "비", "눈"), "route": ("북쪽", "남쪽", "바닷길"), "mood": ("기쁨", "불안", "분노"),
}
_BOOL_STYLES = (("Y", "N"), ("true", "false"), ("1", "0"), ("참", "거짓"), ("yes", "no"))


#: the most scenes one plant of each kind can take (``generate`` draws between 1 and these)
_MOST_SCENES = {
    "unreached_scene": 1, "island": 4, "dead_end": 2, "loop_no_exit": 3, "reached_only_through_dead_branch": 3,
    "ending_only_through_dead_branch": 2,
}


def scenes_needed(plant: PlantSpec) -> int:
    """The fewest scenes with which :func:`generate` is sure to fit ``plant``, whatever
    the seed: every planted scene at its largest size, a fresh scene behind every dead
    branch, and a backbone with room for one host per hosted plant and an ending.

    >>> scenes_needed({})
    2
    >>> scenes_needed({"island": 1, "shadowed_one": 1})
    8
    """
    counts = {k: int(plant.get(k, 0)) for k in KINDS}
    planted = sum(counts[k] * n for k, n in _MOST_SCENES.items()) + sum(counts[k] for k in DEAD_BRANCH_KINDS)
    return planted + max(2, sum(counts[k] for k in HOSTED_KINDS) + 2)


def default_plants(scenes: int) -> dict[str, int]:
    """One of each kind per 200 scenes (at least one); menu kinds only when asked for."""
    n = max(1, scenes // 200)
    return {k: 0 if k in MENU_KINDS else n for k in KINDS}


def _make_flags(rng: random.Random, count: int) -> list[FlagDef]:
    out = []
    for i in range(count):
        if i < len(_FLAG_POOL):
            name, label, kind = _FLAG_POOL[i]
        else:
            kind = rng.choice(("bool", "int", "enum"))
            name, label = f"flag_{i + 1}", f"표식 {i + 1}"
        if kind == "bool":
            out.append(FlagDef(name, label, "bool"))
        elif kind == "enum":
            values = _ENUM_VALUES.get(name) or tuple(f"값{j + 1}" for j in range(rng.randint(2, 4)))
            out.append(FlagDef(name, label, "enum", values=values))
        else:
            lo = rng.choice((0, 0, 0, 1, -2))
            # at least six values: a scene has at most five branches, each needs a value of its own
            out.append(FlagDef(name, label, "int", lo, lo + rng.randint(5, 9)))
    return out


def generate(seed: int, scenes: int, flags: int = 4, plant: PlantSpec | None = None,
             progress: Callable[[int, int], None] | None = None) -> Generated:
    """Build a random scenario of ``scenes`` scenes over ``flags`` flags with the
    ``plant`` counts of each defect kind (:func:`default_plants` when ``None``).

    Raises :class:`~verdicts.errors.ConfigError` when the counts do not fit.
    ``progress(done, total)`` is called while scenes are wired.
    """
    counts = default_plants(scenes) if plant is None else {k: int(plant.get(k, 0)) for k in KINDS}
    unknown = set(plant or {}) - set(KINDS)
    if unknown:
        raise ConfigError(f"알 수 없는 결함 종류: {', '.join(sorted(unknown))} (있는 종류: {', '.join(KINDS)})")
    if any(v < 0 for v in counts.values()):
        raise ConfigError("심을 개수는 0 이상이어야 합니다.")
    if flags < 0:
        raise ConfigError("`--flags` 값은 0 이상이어야 합니다.")
    needs_flags = [k for k in FLAG_KINDS if counts[k]]
    if needs_flags and flags < 1:
        raise ConfigError(f"조건 결함({', '.join(needs_flags)})을 심으려면 플래그가 하나 이상 있어야 합니다 (--flags).")
    rng = random.Random(seed)
    flag_defs = _make_flags(rng, flags)
    b = Builder(rng, scenes, flag_defs)

    # scene budget: planted scenes first, the rest is the healthy backbone
    sizes = {
        "unreached_scene": [1] * counts["unreached_scene"],
        "island": [rng.randint(2, 4) for _ in range(counts["island"])],
        "dead_end": [rng.randint(1, 2) for _ in range(counts["dead_end"])],
        "loop_no_exit": [rng.randint(2, 3) for _ in range(counts["loop_no_exit"])],
        "reached_only_through_dead_branch": [rng.randint(1, 3) for _ in range(counts["reached_only_through_dead_branch"])],
        "ending_only_through_dead_branch": [rng.randint(1, 2) for _ in range(counts["ending_only_through_dead_branch"])],
        # a fresh scene behind a planted dead branch, now and then
        "behind": [int(rng.random() < 0.25) for _ in range(sum(counts[k] for k in DEAD_BRANCH_KINDS))],
    }
    planted_scenes = sum(sum(v) for v in sizes.values())
    hosts_needed = sum(counts[k] for k in HOSTED_KINDS)
    healthy_n = scenes - planted_scenes
    if healthy_n < max(2, hosts_needed + 2):
        raise ConfigError(f"장면 {scenes}개로는 심을 결함이 들어갈 자리가 모자랍니다. 결함이 차지할 장면이 {planted_scenes}개이고, "
                          f"결함을 붙일 장면과 시작·엔딩 장면이 {max(2, hosts_needed + 2)}개 더 있어야 합니다. "
                          f"장면이 {scenes_needed(counts)}개 이상이면 `--seed` 값이 무엇이든 들어갑니다.")

    # -- healthy backbone: a chain of forward links guarantees reach and ending
    entries_n = 1 + healthy_n // 700
    healthy = [b.new_scene(is_entry=i < entries_n) for i in range(healthy_n)]
    endings = {healthy_n - 1} | {i for i in range(entries_n, healthy_n - 1) if rng.random() < 0.06}
    # keep a host for every hosted plant: in a small backbone, drop the latest of the
    # random endings (the random draws stay the same, so larger scenarios are unchanged)
    spare_endings = sorted(endings - {healthy_n - 1})
    while spare_endings and healthy_n - len(endings) < hosts_needed:
        endings.discard(spare_endings.pop())
    for i in endings:
        healthy[i].is_ending = True
    non_end = [i for i in range(healthy_n) if i not in endings]
    outgoing: dict[int, list[int]] = {i: [] for i in range(healthy_n)}
    for i in range(entries_n, healthy_n):
        # one incoming link from an earlier scene that is not an ending
        # (at most three such links per scene, so that no scene has more branches than
        # its flags have values)
        cands = ([j for j in range(max(0, i - 40), i) if j not in endings and len(outgoing[j]) < 3]
                 or [j for j in non_end if j < i and len(outgoing[j]) < 3] or [j for j in non_end if j < i])
        outgoing[rng.choice(cands)].append(i)
    for i in non_end:
        if not any(k > i for k in outgoing[i]):
            hi = min(healthy_n - 1, i + 40)
            outgoing[i].append(rng.randint(i + 1, hi))
        while len(outgoing[i]) < 4 and rng.random() < 0.35:
            outgoing[i].append(rng.randrange(healthy_n))  # may go back: a loop with an exit
    for i in range(healthy_n):
        rng.shuffle(outgoing[i])

    def healthy_target() -> str:
        return healthy[rng.randrange(healthy_n)].scene_id

    # -- hosts: reached non-ending scenes that carry at most one plant each
    host_kinds = [k for k in HOSTED_KINDS for _ in range(counts[k])]
    host_pool = [i for i in non_end]
    rng.shuffle(host_pool)
    if len(host_pool) < len(host_kinds):
        raise ConfigError(f"결함을 붙일 장면이 모자랍니다: {len(host_kinds)}개가 필요한데 {len(host_pool)}개뿐입니다.")
    hosted = dict(zip(host_pool, host_kinds))

    plants: list[Plant] = []
    total = healthy_n
    size_iter = {k: iter(v) for k, v in sizes.items()}
    for done, i in enumerate(range(healthy_n)):
        scene = healthy[i]
        targets = [healthy[k].scene_id for k in outgoing[i]]
        kind = hosted.get(i)
        if kind is None:
            b.wire(scene, targets)
        else:
            plants.append(plant_in_host(b, kind, scene, targets, size_iter, healthy_target))
        if progress is not None and (done % 200 == 0 or done == total - 1):
            progress(done + 1, total)

    # -- scenes nobody reaches
    for _ in range(counts["unreached_scene"]):
        s = b.new_scene()
        outs = [healthy_target() for _ in range(rng.choice((0, 1, 1, 2)))]
        made = b.wire(s, outs)
        plants.append(Plant("unreached_scene", [s.scene_id], [x.branch_id for x in made], [Mark.card(s.scene_id, UNREACHED)],
                            [Mark.card(x.branch_id, UNREACHED) for x in made]))
    for k in sizes["island"]:
        group = [b.new_scene() for _ in range(k)]
        made = []
        for j, s in enumerate(group):
            outs = []
            if j + 1 < k:
                outs.append(group[j + 1].scene_id)
            elif rng.random() < 0.6:
                outs.append(group[0].scene_id)  # the island is a cycle
            if rng.random() < 0.4:
                outs.append(healthy_target())  # and may even lead into the story
            made += b.wire(s, outs)
        plants.append(Plant("island", [s.scene_id for s in group], [x.branch_id for x in made],
                            [Mark.card(s.scene_id, UNREACHED) for s in group], [Mark.card(x.branch_id, UNREACHED) for x in made]))

    # interleave the scene rows so that planted scenes are not all at the end
    order = b.scenes[:]
    rng.shuffle(order)
    entries_first = [s for s in order if s.is_entry] + [s for s in order if not s.is_entry]
    branches_by_scene: dict[str, list[BranchDef]] = {}
    for br in b.branches:
        branches_by_scene.setdefault(br.from_scene, []).append(br)
    branch_rows: list[BranchDef] = []
    for s in entries_first:
        rows_of_scene = branches_by_scene.get(s.scene_id, [])
        if rng.random() < 0.2:
            rng.shuffle(rows_of_scene)  # rows need not be in order_no order
        branch_rows += rows_of_scene
    # flags declared and never used (planted)
    for _ in range(counts["unused_flag"]):
        spare = b.spare_flag()
        plants.append(Plant("unused_flag", [], [], [Mark.finding(spare.flag, "unused-flag")], [], flag=spare.flag))
    # a declared flag that no condition happens to test is itself a finding (unused-flag):
    # leave it out of flag_spec, unless a plant lists it in available_flags
    tested: set[str] = set()
    for br in b.branches:
        tested |= br.condition.flags()
    listed = {f for s in b.scenes for f in s.available_flags}
    flag_defs = [f for f in flag_defs if f.flag in tested or f.flag in listed]
    for p in plants:
        if p.kind == "available_flag_unused" and p.flag not in tested:
            assert p.flag is not None  # the plant names its flag
            p.consequences.append(Mark.finding(p.flag, "unused-flag"))  # listed in one scene, used in none
    for spare in b.spare:  # not all at the end
        flag_defs.insert(rng.randint(0, len(flag_defs)), spare)
    return Generated(seed, flag_defs, entries_first, branch_rows, plants, rng.choice(_BOOL_STYLES), counts)
