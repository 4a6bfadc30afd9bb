"""Planting one defect of a kind in a reached host scene of the backbone: missing
targets, dead ends and loops, shadowed and unsatisfiable branches (sometimes with a fresh
scene behind), stuck combinations, scenes reached or ending only through a dead branch,
comparisons out of range, always-true conditions, listed flags no condition uses.

Each planter says what must be observed for the plant to count as caught and what else
it causes (:class:`~storygraph.fuzz.scenario.Plant`), checking its conditions by brute
force over the scene's flags with the generator's own evaluator.
"""

from __future__ import annotations

import random
from typing import Callable, Sequence

from verdicts.errors import ConfigError

from .scenario import (
    DEAD_BRANCH_KINDS, MISSING, NO_END, SHADOW, TRUE, BranchDef, Builder, Cond, FlagDef, Mark, Plant, SceneDef, Space,
    atom, product_size, random_cond, used_flags,
)

__all__ = ["plant_in_host"]


def plant_in_host(b: Builder, kind: str, host: SceneDef, targets: list[str], size_iter, healthy_target) -> Plant:
    """Wire ``host`` (a reached scene with ``targets``, which reach an ending) with one
    planted defect of ``kind``."""
    rng = b.rng
    if kind in ("missing_target", "dead_end", "loop_no_exit"):
        extra_scenes: list[SceneDef] = []
        extra_branches: list[BranchDef] = []
        if kind == "missing_target":
            b.gone += 1
            dest = f"GONE-{b.gone:04d}"
        elif kind == "dead_end":
            chain = [b.new_scene() for _ in range(next(size_iter["dead_end"]))]
            for x, y in zip(chain, chain[1:]):
                extra_branches += b.wire(x, [y.scene_id])
            extra_scenes = chain
            dest = chain[0].scene_id
        else:
            loop = [b.new_scene() for _ in range(next(size_iter["loop_no_exit"]))]
            for j, x in enumerate(loop):
                outs = [loop[(j + 1) % len(loop)].scene_id]
                if len(loop) == 3 and j == 0 and rng.random() < 0.5:
                    outs.append(loop[2].scene_id)  # a chord: still no way out
                extra_branches += b.wire(x, outs)
            extra_scenes = loop
            dest = loop[0].scene_id
        pos = rng.randint(0, len(targets))
        made = b.wire(host, targets[:pos] + [dest] + targets[pos:])
        entering = made[pos]
        if kind == "missing_target":
            return Plant(kind, [], [entering.branch_id], [Mark.card(entering.branch_id, MISSING)], [])
        return Plant(kind, [s.scene_id for s in extra_scenes], [entering.branch_id] + [x.branch_id for x in extra_branches],
                     [Mark.card(s.scene_id, NO_END) for s in extra_scenes],
                     [Mark.card(x.branch_id, NO_END) for x in [entering] + extra_branches])
    # condition plants: the host needs flags
    if kind in ("hidden_choice", "plain_menu"):
        return _retry(kind, host, lambda: _menu_plant(b, kind, host, targets))
    if kind == "stuck_combination":
        return _retry(kind, host, lambda: _stuck_plant(b, host, targets))
    if kind == "always_true_condition":
        return _retry(kind, host, lambda: _always_true_plant(b, host, targets))
    if kind == "comparison_out_of_range":
        return _out_of_range_plant(b, host, targets)
    if kind == "available_flag_unused":
        return _available_unused_plant(b, host, targets)
    if kind == "reached_only_through_dead_branch":
        return _reached_only_plant(b, host, targets, next(size_iter[kind]), healthy_target)
    if kind == "ending_only_through_dead_branch":
        return _ending_only_plant(b, host, targets, next(size_iter[kind]), healthy_target)
    # a dead branch (shadowed, unsatisfiable), sometimes with a fresh scene behind it
    behind = b.new_scene() if next(size_iter["behind"]) else None
    plant = _retry(kind, host, lambda: _condition_plant(b, kind, host, targets, dead_to=behind.scene_id if behind else None))
    if behind is not None:
        made = b.wire(behind, [healthy_target()])
        plant.scenes.append(behind.scene_id)
        plant.branches += [x.branch_id for x in made]
        plant.consequences.append(Mark.finding(behind.scene_id, "reached-only-through-dead-branch", {"dead_branches": [plant.shadowed]}))
        plant.note = (plant.note + "; " if plant.note else "") + "뒤에 새 장면"
    return plant


def _retry(kind: str, host: SceneDef, attempt: Callable[[], Plant | None]) -> Plant:
    for _attempt in range(50):
        plant = attempt()
        if plant is not None:
            return plant
    raise ConfigError(f"{host.scene_id}에 {kind} 결함을 심지 못했습니다.")  # pragma: no cover - never seen


def _condition_plant(b: Builder, kind: str, host: SceneDef, targets: list[str], dead_to: str | None = None) -> Plant | None:
    """Try once to plant a condition defect in ``host``; ``None`` when the random
    choice did not fit (the caller tries again; nothing is committed before success).
    The branch that never fires goes to ``dead_to`` when given (else to one of
    ``targets``, which all keep a live branch)."""
    rng = b.rng
    flags = b.pick_flags(rng.randint(1, 3), len(targets) + 4)
    space = Space(flags)
    # every target keeps its branch (the backbone may depend on it)
    pre_n = rng.randint(max(0, len(targets) - 2), max(0, len(targets) - 1))
    if kind == "shadowed_one":
        n = max(1, len(targets))
        conds, left = b.healthy_conditions(n, flags, space)
        a = rng.randrange(len(conds))
        ca = conds[a]
        if ca.op == "true":
            cb = random_cond(rng, flags)  # after a fallback with no condition
        elif rng.random() < 0.25:
            cb = ca  # the same condition twice
        else:
            cb = Cond("and", (ca, atom(rng, rng.choice(flags))), style=rng.randrange(2))
        mb = space.mask(cb)
        if not mb:
            return None
        # must not be covered by a single branch other than ``a`` alone? covered by one is
        # what we plant, and any single cover is fine; but no branch after it may become
        # shadowed (it cannot: cb implies ca, so nothing new is covered)
        conds = conds[: a + 1] + [cb] + conds[a + 1:]
        dests = targets[: a + 1] + [dead_to or rng.choice(targets)] + targets[a + 1:]
        host.available_flags = used_flags(conds, flags)
        made = b.add_branches(host, dests, conds)
        shadowed, previous = made[a + 1], made[a]
        # when the covering condition is the scene's last (complete) one it holds for
        # everybody: that is reported too, and is the same defect seen from the cover
        always = [Mark("finding", previous.branch_id, code="always-true-condition")]
        return Plant(kind, [], [previous.branch_id, shadowed.branch_id],
                     [Mark.card(previous.branch_id, SHADOW, shadowed.branch_id)], always, shadowed.branch_id, "one")
    if kind == "shadowed_union":
        pre, left = b.healthy_conditions(pre_n, flags, space, complete=False, reserve=2) if pre_n else ([], space.full)
        pre = [c for c in pre if c.op != "true"]
        if len(pre) < pre_n:
            return None
        pair = _union_pair(rng, flags)
        if pair is None:
            return None
        ca, cb = pair
        ma, mb = space.mask(ca), space.mask(cb)
        if ma | mb != space.full or not (ma & left) or not (mb & left & ~ma):
            return None
        target = None
        for _ in range(12):
            c = random_cond(rng, flags) if rng.random() < 0.8 else TRUE
            m = space.mask(c)
            singles = [space.mask(x) for x in pre] + [ma, mb]
            if m & left and all(m & ~s for s in singles):
                target = c
                break
        if target is None:
            return None
        conds = pre + [ca, cb, target]
        dests = targets + [rng.choice(targets) for _ in range(len(conds) - len(targets))]
        if dead_to:
            dests[-1] = dead_to  # the shadowed branch is last, past every target
        host.available_flags = used_flags(conds, flags)
        made = b.add_branches(host, dests, conds)
        covers, shadowed = made[-3:-1], made[-1]
        return Plant(kind, [], [x.branch_id for x in made[-3:]], [Mark.card(covers[1].branch_id, SHADOW, shadowed.branch_id)], [],
                     shadowed.branch_id, "union")
    # unsatisfiable, at order 1 or later
    n = max(1, len(targets))
    conds, _ = b.healthy_conditions(n, flags, space)
    u = _unsat(rng, flags)
    if space.mask(u):
        return None
    pos = rng.randint(0, len(conds) - 1) if rng.random() < 0.7 else 0
    if rng.random() < 0.3:
        pos = 0
    conds = conds[:pos] + [u] + conds[pos:]
    dests = targets[:pos] + [dead_to or rng.choice(targets)] + targets[pos:]
    host.available_flags = used_flags(conds, flags)
    made = b.add_branches(host, dests, conds)
    bad = made[pos]
    consequences = [Mark.card(made[pos - 1].branch_id, SHADOW, bad.branch_id)] if pos > 0 else []
    # ``t > max`` and the like also compare outside the flag's range
    consequences.append(Mark("finding", bad.branch_id, code="comparison-out-of-range"))
    return Plant(kind, [], [bad.branch_id], [Mark("finding", bad.branch_id, code="unsatisfiable-condition")], consequences,
                 bad.branch_id, None, note="order_no 1" if pos == 0 else "")


def _menu_plant(b: Builder, kind: str, host: SceneDef, targets: list[str]) -> Plant | None:
    """A menu in ``host``: every target gets a choice whose condition holds somewhere the
    automatic branch before the menu does not, and the last choice has no condition, so
    nobody is stuck and no choice is hidden — except, for ``hidden_choice``, one more
    choice right after that automatic branch whose condition implies it (the ink
    "choices after a gather divert" bug).  ``plain_menu`` adds overlapping choices (the
    same condition twice): it must give no finding and no ``조건이 겹침``."""
    rng = b.rng
    flags = b.pick_flags(rng.randint(1, 3), len(targets) + 4)
    space = Space(flags)
    ca = random_cond(rng, flags)
    ma = space.mask(ca)
    if not ma or ma == space.full:
        return None
    conds: list[Cond] = [ca]
    dests: list[str] = [targets[0] if targets else host.scene_id]
    kinds = ["auto"]
    plant_marks: list[Mark] = []
    if kind == "hidden_choice":
        cb = Cond("and", (ca, atom(rng, rng.choice(flags))), style=rng.randrange(2)) if rng.random() < 0.7 else ca
        if not space.mask(cb):
            return None
        conds.append(cb)
        dests.append(dests[0])  # the same destination: reachability does not change
        kinds.append("choice")
    menu: list[Cond] = []
    for _ in targets:
        for _ in range(12):
            c = random_cond(rng, flags)
            m = space.mask(c)
            if m & ~ma and m != space.full:
                break
        else:
            return None
        menu.append(c)
    if kind == "plain_menu" and menu:
        menu.append(menu[0])  # two choices with the same condition: a menu, not a defect
    if not menu:
        return None
    menu[-1] = TRUE  # nobody is left without a choice
    conds += menu
    dests += list(targets) + ([targets[0]] if kind == "plain_menu" and targets else [])
    kinds += ["choice"] * len(menu)
    dests = dests[:len(conds)]
    host.available_flags = used_flags(conds, flags)
    made = b.add_branches(host, dests, conds, kinds)
    if kind == "hidden_choice":
        plant_marks = [Mark.card(made[0].branch_id, SHADOW, made[1].branch_id)]
        return Plant(kind, [], [made[0].branch_id, made[1].branch_id], plant_marks, [], made[1].branch_id, "one")
    return Plant(kind, [], [x.branch_id for x in made], [], [], note="a plain menu: nothing to find")


def _reached_only_plant(b: Builder, host: SceneDef, targets: list[str], size: int, healthy_target) -> Plant:
    """``size`` fresh scenes in a row, entered only through a dead branch of ``host``
    and leading back into the story."""
    rng = b.rng
    chain = [b.new_scene() for _ in range(size)]
    via = rng.choice(DEAD_BRANCH_KINDS)
    inner = _retry(via, host, lambda: _condition_plant(b, via, host, targets, dead_to=chain[0].scene_id))
    made: list[BranchDef] = []
    for j, x in enumerate(chain):
        outs = [chain[j + 1].scene_id] if j + 1 < len(chain) else [healthy_target()]
        if rng.random() < 0.3:
            outs.append(healthy_target())
        made += b.wire(x, outs)
    dead = inner.shadowed
    assert dead is not None
    return Plant("reached_only_through_dead_branch", [x.scene_id for x in chain], inner.branches + [x.branch_id for x in made],
                 [Mark.finding(x.scene_id, "reached-only-through-dead-branch", {"dead_branches": [dead]}) for x in chain],
                 inner.expect + inner.consequences, note=f"죽은 분기 {dead} ({via})")


def _ending_only_plant(b: Builder, host: SceneDef, targets: list[str], size: int, healthy_target) -> Plant:
    """``size`` fresh scenes reached from ``host`` whose live branches only go round
    among themselves; the one way towards an ending is a dead branch."""
    rng = b.rng
    loop = [b.new_scene() for _ in range(size)]
    first = loop[0]
    pos = rng.randint(0, len(targets))
    entering = b.wire(host, targets[:pos] + [first.scene_id] + targets[pos:])
    made: list[BranchDef] = []
    if size == 1:
        live = [first.scene_id]  # a branch back to the scene itself
    else:
        live = rng.choice(([loop[1].scene_id], [loop[1].scene_id, first.scene_id], [first.scene_id, loop[1].scene_id]))
        made += b.wire(loop[1], [first.scene_id])
    exit_to = healthy_target()
    via = rng.choice(DEAD_BRANCH_KINDS)
    inner = _retry(via, first, lambda: _condition_plant(b, via, first, live, dead_to=exit_to))
    dead = inner.shadowed
    assert dead is not None
    return Plant("ending_only_through_dead_branch", [x.scene_id for x in loop],
                 [entering[pos].branch_id] + inner.branches + [x.branch_id for x in made],
                 [Mark.finding(x.scene_id, "ending-only-through-dead-branch", {"dead_branches": [dead]}) for x in loop],
                 inner.expect + inner.consequences, note=f"죽은 분기 {dead} ({via})")


def _stuck_plant(b: Builder, host: SceneDef, targets: list[str]) -> Plant | None:
    """``host`` with branches to every target, none shadowed, but no fallback: some
    assignments of its flags take no branch.  How many is counted here, by brute force
    over the product of the scene's flags."""
    rng = b.rng
    n = len(targets)
    flags = b.pick_flags(rng.randint(1, 3), n + 2)
    if product_size(flags) < n + 1:
        return None
    conds, _ = b.healthy_conditions(n, flags, Space(flags), complete=False, reserve=1)
    available = used_flags(conds, flags)
    own = Space([f for f in flags if f.flag in available])  # what the scene's available_flags span
    covered = 0
    for c in conds:
        covered |= own.mask(c)
    count, total = (own.full & ~covered).bit_count(), len(own.points)
    if not count:  # pragma: no cover - healthy_conditions leaves one uncovered
        return None
    host.available_flags = available
    made = b.add_branches(host, targets, conds)
    return Plant("stuck_combination", [host.scene_id], [x.branch_id for x in made],
                 [Mark.finding(host.scene_id, "stuck-combination", {"count": count, "total": total})], [],
                 note=f"조합 {total}개 가운데 {count}개")


def _tautology(rng: random.Random, flags: Sequence[FlagDef]) -> tuple[Cond, bool]:
    """A written condition true for everybody, and whether it is a range-fixed
    comparison (``t >= min``), which is also ``comparison-out-of-range``."""
    form = rng.randrange(4)
    ints = [f for f in flags if f.type == "int"]
    if form == 0 and ints:
        return _range_fixed(rng, rng.choice(ints), True), True
    if form == 1:
        pair = _union_pair(rng, flags)
        if pair is not None:
            return Cond("or", pair, style=rng.randrange(2)), False
    c = random_cond(rng, flags)
    neg = Cond("not", (c,), style=rng.randrange(2))
    if form == 2:
        return Cond("or", (c, neg) if rng.random() < 0.5 else (neg, c), style=rng.randrange(2)), False
    return Cond("not", (Cond("and", (c, neg), style=rng.randrange(2)),), style=rng.randrange(2)), False


def _range_fixed(rng: random.Random, f: FlagDef, truth: bool) -> Cond:
    """A comparison of int flag ``f`` whose answer is ``truth`` for every value in its range."""
    lo, hi = f.min_value, f.max_value
    assert lo is not None and hi is not None
    k = rng.randint(0, 3)
    if truth:
        forms = ((">=", lo - k), ("<=", hi + k), (">", lo - 1 - k), ("<", hi + 1 + k), ("!=", rng.choice((lo - 1 - k, hi + 1 + k))))
    else:
        forms = ((">", hi + k), ("<", lo - k), (">=", hi + 1 + k), ("<=", lo - 1 - k), ("==", rng.choice((lo - 1 - k, hi + 1 + k))))
    op, value = rng.choice(forms)
    c = Cond("cmp", flag=f.flag, cmp=op, value=value, style=rng.choice((0, 0, 1, 2)))
    assert {c.holds({f.flag: v}) for v in f.domain()} == {truth}
    return c


def _always_true_plant(b: Builder, host: SceneDef, targets: list[str]) -> Plant | None:
    """Healthy branches to all but the last target, then a written condition true for
    everybody (to the last target), then one or two branches it leaves dead."""
    rng = b.rng
    n = len(targets)
    flags = b.pick_flags(rng.randint(1, 3), n + 1)
    space = Space(flags)
    if n > 1:
        pre, _ = b.healthy_conditions(n - 1, flags, space, complete=False, reserve=1)
    else:
        pre = []
    cover, fixed = _tautology(rng, flags)
    if space.mask(cover) != space.full:  # pragma: no cover - a tautology by construction
        return None
    later = []
    for _ in range(rng.randint(1, 2)):
        for _try in range(12):
            c = random_cond(rng, flags)
            m = space.mask(c)
            if m and m != space.full:  # may fire but for the cover, and not itself always true
                later.append(c)
                break
        else:
            return None
    conds = pre + [cover] + later
    host.available_flags = used_flags(conds, flags)
    made = b.add_branches(host, list(targets) + [rng.choice(targets) for _ in later], conds)
    always = made[n - 1]
    dead = made[n:]
    consequences = [Mark.card(made[j - 1].branch_id, SHADOW, made[j].branch_id) for j in range(n, len(made))]
    if fixed:
        consequences.append(Mark.finding(always.branch_id, "comparison-out-of-range"))
    return Plant("always_true_condition", [], [always.branch_id] + [x.branch_id for x in dead],
                 [Mark.finding(always.branch_id, "always-true-condition", {"later": [x.branch_id for x in dead]})], consequences)


def _scene_flags(made: Sequence[BranchDef]) -> set[str]:
    used: set[str] = set()
    for x in made:
        used |= x.condition.flags()
    return used


def _out_of_range_plant(b: Builder, host: SceneDef, targets: list[str]) -> Plant:
    """Healthy branches, then one condition gains a comparison fixed by its flag's range
    without changing its meaning: ``c or t > 9`` (always false), ``c and t >= 0``
    (always true), or an empty last condition becomes ``t >= 0``."""
    rng = b.rng
    made = b.wire(host, targets, allow_undecided=False)
    # only the last branch may have an empty condition (the fallback)
    br = made[rng.randrange(len(made))]
    old = br.condition
    used = _scene_flags(made)
    ints = [f for f in b.flags if f.type == "int"]
    if not ints:  # pragma: no cover - the first flag made is always an int
        raise ConfigError("범위 밖 비교를 심을 정수 플래그가 없습니다.")
    g = rng.choice([f for f in ints if f.flag in used] or ints)
    if old.op == "true":
        truth = True
        atom = new = _range_fixed(rng, g, True)
    else:
        truth = rng.random() < 0.5
        atom = _range_fixed(rng, g, truth)
        new = Cond("and" if truth else "or", (old, atom) if rng.random() < 0.6 else (atom, old), style=rng.randrange(2))
    space = Space([f for f in b.flags if f.flag in used | {g.flag}])
    assert space.mask(new) == space.mask(old), "the planted comparison must not change what the condition means"
    br.condition = new
    host.available_flags = used_flags([x.condition for x in made], b.flags)
    return Plant("comparison_out_of_range", [], [br.branch_id],
                 [Mark.finding(br.branch_id, "comparison-out-of-range", {"op": atom.cmp, "value": atom.value, "always": truth})], [])


def _available_unused_plant(b: Builder, host: SceneDef, targets: list[str]) -> Plant:
    """Healthy branches, and one more flag in ``available_flags`` that none of them
    tests (a flag used elsewhere when there is one, else a spare one)."""
    rng = b.rng
    made = b.wire(host, targets, allow_undecided=False)
    used = _scene_flags(made)
    others = [f for f in b.flags if f.flag not in used]
    extra = rng.choice(others) if others else b.spare_flag()
    listed = list(host.available_flags)
    listed.insert(rng.randint(0, len(listed)), extra.flag)
    host.available_flags = tuple(listed)
    return Plant("available_flag_unused", [host.scene_id], [x.branch_id for x in made],
                 [Mark.finding(host.scene_id, "available-flag-unused", {"flags": [extra.flag]})], [], flag=extra.flag)


def _union_pair(rng: random.Random, flags: Sequence[FlagDef]) -> tuple[Cond, Cond] | None:
    """Two conditions that together hold everywhere, each false somewhere."""
    f = rng.choice(flags)
    if f.type == "bool":
        c = Cond("flag", flag=f.flag)
        pair = [c, Cond("not", (c,), style=rng.randrange(2))]
    elif f.type == "enum":
        v = rng.choice(f.values)
        pair = [Cond("cmp", flag=f.flag, cmp="==", value=v), Cond("cmp", flag=f.flag, cmp="!=", value=v)]
    else:
        assert f.min_value is not None and f.max_value is not None  # an int flag of the fuzz has its range
        cut = rng.randint(f.min_value + 1, f.max_value)
        overlap = rng.randint(0, 1)
        pair = [Cond("cmp", flag=f.flag, cmp=">=", value=cut, style=rng.choice((0, 1))),
                Cond("cmp", flag=f.flag, cmp="<", value=cut + overlap, style=rng.choice((0, 1)))]
        if cut + overlap > f.max_value:
            return None
    rng.shuffle(pair)
    return pair[0], pair[1]


def _unsat(rng: random.Random, flags: Sequence[FlagDef]) -> Cond:
    f = rng.choice(flags)
    if f.type == "bool":
        c = Cond("flag", flag=f.flag)
        return Cond("and", (c, Cond("not", (c,), style=rng.randrange(2))), style=rng.randrange(2))
    if f.type == "enum":
        x, y = rng.sample(f.values, 2)
        if rng.random() < 0.5:
            return Cond("and", (Cond("cmp", flag=f.flag, cmp="==", value=x), Cond("cmp", flag=f.flag, cmp="==", value=y)))
        return Cond("and", (Cond("cmp", flag=f.flag, cmp="==", value=x), Cond("cmp", flag=f.flag, cmp="!=", value=x)))
    lo, hi = f.min_value, f.max_value
    form = rng.randrange(4)
    if form == 0:
        return Cond("cmp", flag=f.flag, cmp=">", value=hi + rng.randint(0, 2))  # type: ignore[operator]
    if form == 1:
        return Cond("cmp", flag=f.flag, cmp="<", value=lo - rng.randint(0, 2))  # type: ignore[operator]
    a = rng.randint(lo, hi)  # type: ignore[arg-type]
    b = rng.randint(lo - 1, a)  # type: ignore[operator]
    return Cond("and", (Cond("cmp", flag=f.flag, cmp=">=", value=a), Cond("cmp", flag=f.flag, cmp="<", value=b)))
