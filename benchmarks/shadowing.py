"""Answer every shadowing question of a scenario with one method and print what it took.

For every scene (with ``available_flags``) and every branch ``j`` in order: can branch
``j``'s condition hold at all, and can it hold while every earlier branch's condition
is false?  Methods:

* ``storygraph`` — :func:`storygraph.shadowing.decide_shadowing` (class enumeration
  where small, incremental SAT beyond), covering sets included;
* ``z3`` — the z3 SMT solver over integers, incrementally (push/pop) per question;
* ``brute`` — the reference definition: every point of the full ranges (refuses when the
  product exceeds ``--limit`` points).

Usage: ``python benchmarks/shadowing.py METHOD FILE.csv`` → one JSON line.
"""

from __future__ import annotations

import itertools
import json
import sys
import time


def _scenes(path: str):
    from storygraph.conditions import flags_of, parse_condition
    from storygraph.loading import load_scenario

    sc = load_scenario(path)
    by_scene = sc.branches_from()
    for scene_id, branches in by_scene.items():
        scene = sc.scenes.get(scene_id)
        if scene is None or not scene.available_flags:
            continue
        ordered = sorted(branches, key=lambda b: b.order_no)
        conds = [parse_condition(b.condition_expr) for b in ordered]
        used = sorted({f for c in conds for f in flags_of(c)})
        yield sc, conds, used


def run_storygraph(path: str) -> dict:
    from storygraph.shadowing import decide_shadowing, scene_domains

    import pysat.solvers  # noqa: F401  (imported before the clock starts, like z3 below)

    scenes = list(_scenes(path))
    started = time.perf_counter()
    shadowed = questions = 0
    for sc, conds, _ in scenes:
        questions += len(conds)
        shadowed += len(decide_shadowing(conds, scene_domains(conds, sc.flags)))
    return {"seconds": time.perf_counter() - started, "questions": questions, "shadowed": shadowed}


def run_z3(path: str) -> dict:
    import z3

    from storygraph.smt import z3_encoding

    scenes = list(_scenes(path))
    started = time.perf_counter()
    shadowed = questions = 0
    for sc, conds, used in scenes:
        solver, conv = z3_encoding(sc.flags, used)
        terms = [conv(c) for c in conds]
        for j, t in enumerate(terms):
            questions += 1
            solver.push()
            solver.add(t)
            if solver.check() == z3.unsat:
                shadowed += 1
            elif j:
                solver.add(*[z3.Not(e) for e in terms[:j]])
                shadowed += solver.check() == z3.unsat
            solver.pop()
    return {"seconds": time.perf_counter() - started, "questions": questions, "shadowed": shadowed}


def run_brute(path: str, limit: int = 5_000_000) -> dict:
    from storygraph.conditions import compile3

    scenes = list(_scenes(path))
    size = 0
    for sc, _, used in scenes:
        n = 1
        for f in used:
            n *= sc.flags[f].size() or 0
        size += n
    if size > limit:
        return {"seconds": None, "points": size, "refused": True}
    started = time.perf_counter()
    shadowed = questions = 0
    for sc, conds, used in scenes:
        axes = []
        for f in used:
            spec = sc.flags[f]
            axes.append([False, True] if spec.type == "bool" else list(spec.values) if spec.type == "enum"
                        else list(range(spec.min_value, spec.max_value + 1)))
        evals = [compile3(c) for c in conds]
        alive = [False] * len(conds)  # j can hold with every earlier false
        some = [False] * len(conds)  # j can hold at all
        for combo in itertools.product(*axes):
            point = dict(zip(used, combo))
            first = True
            for j, ev in enumerate(evals):
                if ev(point):
                    some[j] = True
                    if first:
                        alive[j] = True
                        first = False
        questions += len(conds)
        shadowed += sum(1 for j in range(len(conds)) if not some[j] or (j and not alive[j]))
    return {"seconds": time.perf_counter() - started, "questions": questions, "shadowed": shadowed, "points": size}


if __name__ == "__main__":
    method, path = sys.argv[1], sys.argv[2]
    out = {"storygraph": run_storygraph, "z3": run_z3, "brute": run_brute}[method](path)
    print(json.dumps(out))
