"""An independent oracle for the shadowing decision: the SMT solver z3 (a test-only
dependency) decides, for random branch lists over random flag specs, which branches can
never fire — and must agree with :func:`storygraph.shadowing.decide_shadowing`.

The conditions are built as our own small trees (``storygraph.fuzz.Cond``); their text is
parsed by the production parser for the production decision, while z3 receives a formula
built from the tree itself, so neither the parser nor the range classes are shared.
"""

from __future__ import annotations

import os
import random

import pytest
import z3

from storygraph.conditions import parse_condition
from storygraph.fuzz import Cond
from storygraph.model import Flag
from storygraph.shadowing import decide_shadowing, scene_domains

DEEP = bool(os.environ.get("STORYGRAPH_DEEP"))


# ----------------------------------------------------------------------------- random cases


def _flags(rng: random.Random) -> dict[str, Flag]:
    out: dict[str, Flag] = {}
    for i in range(rng.randint(1, 4)):
        kind = rng.choice(("int", "int", "bool", "enum"))
        name = f"f{i}"
        if kind == "int":
            lo = rng.choice((0, 0, -5, 1, None))
            width = rng.choice((2, 5, 10, 1000, 10**6))
            hi = None if rng.random() < 0.1 else (lo if lo is not None else 0) + width
            out[name] = Flag(name, None, "int", lo, hi, (), i + 2)
        elif kind == "bool":
            out[name] = Flag(name, None, "bool", None, None, (), i + 2)
        else:
            values = tuple(rng.sample(("a", "b", "c", "d", "e"), rng.randint(2, 5)))
            out[name] = Flag(name, None, "enum", None, None, values, i + 2)
    return out


def _atom(rng: random.Random, f: Flag) -> Cond:
    if f.type == "bool":
        c = Cond("flag", flag=f.flag)
        return Cond("not", (c,)) if rng.random() < 0.4 else c
    if f.type == "enum":
        return Cond("cmp", flag=f.flag, cmp=rng.choice(("==", "!=")), value=rng.choice(f.values))
    lo = f.min_value if f.min_value is not None else -10
    hi = f.max_value if f.max_value is not None else lo + 20
    # constants inside the range, at its edges and just outside it
    value = rng.choice((lo - 1, lo, lo + 1, hi - 1, hi, hi + 1, rng.randint(lo, hi), rng.randint(lo, hi)))
    return Cond("cmp", flag=f.flag, cmp=rng.choice(("==", "!=", "<", "<=", ">", ">=")), value=value, style=rng.choice((0, 1)))


def _cond(rng: random.Random, flags: dict[str, Flag], depth: int = 0) -> Cond:
    r = rng.random()
    if depth >= 2 or r < 0.45:
        return _atom(rng, flags[rng.choice(list(flags))])
    if r < 0.55:
        return Cond("not", (_cond(rng, flags, depth + 1),))
    if r < 0.6:
        return Cond("true")
    op = "and" if r < 0.8 else "or"
    return Cond(op, tuple(_cond(rng, flags, depth + 1) for _ in range(rng.randint(2, 3))))


def _case(seed: int) -> tuple[dict[str, Flag], list[Cond]]:
    rng = random.Random(seed)
    flags = _flags(rng)
    conds = [_cond(rng, flags) for _ in range(rng.randint(1, 6))]
    # sometimes build a shadowing on purpose: a later branch implied by an earlier one,
    # or an earlier pair that splits a flag's range
    if len(conds) >= 2 and rng.random() < 0.3:
        i = rng.randrange(len(conds) - 1)
        conds[i + 1] = Cond("and", (conds[i], _cond(rng, flags)))
    if len(conds) >= 3 and rng.random() < 0.3:
        f = flags[rng.choice(list(flags))]
        a = _atom(rng, f)
        conds[0], conds[1] = a, Cond("not", (a,))
    return flags, conds


# ----------------------------------------------------------------------------- z3


def _z3_vars(flags: dict[str, Flag]):
    vars_, domain = {}, []
    for f in flags.values():
        if f.type == "bool":
            vars_[f.flag] = z3.Bool(f.flag)
        else:
            v = z3.Int(f.flag)
            vars_[f.flag] = v
            if f.type == "enum":
                domain += [v >= 0, v < len(f.values)]
            else:
                if f.min_value is not None:
                    domain.append(v >= f.min_value)
                if f.max_value is not None:
                    domain.append(v <= f.max_value)
    return vars_, domain


def _z3(c: Cond, vars_, flags: dict[str, Flag]):
    if c.op == "true":
        return z3.BoolVal(True)
    if c.op == "flag":
        return vars_[c.flag]
    if c.op == "not":
        return z3.Not(_z3(c.args[0], vars_, flags))
    if c.op == "and":
        return z3.And(*[_z3(x, vars_, flags) for x in c.args])
    if c.op == "or":
        return z3.Or(*[_z3(x, vars_, flags) for x in c.args])
    v = vars_[c.flag]
    f = flags[c.flag]
    value = f.values.index(c.value) if f.type == "enum" else c.value
    return {"==": v == value, "!=": v != value, "<": v < value, "<=": v <= value, ">": v > value, ">=": v >= value}[c.cmp]


def _oracle(flags: dict[str, Flag], conds: list[Cond]):
    """``{index: unsatisfiable}`` for every branch that can never fire, by z3; and the
    z3 formulas for further questions."""
    vars_, domain = _z3_vars(flags)
    formulas = [_z3(c, vars_, flags) for c in conds]
    solver = z3.Solver()
    solver.add(*domain)

    def sat(*extra) -> bool:
        solver.push()
        solver.add(*extra)
        result = solver.check()
        solver.pop()
        assert result in (z3.sat, z3.unsat)
        return result == z3.sat

    out = {}
    for j, fj in enumerate(formulas):
        if not sat(fj):
            out[j] = True
        elif j > 0 and not sat(fj, *[z3.Not(x) for x in formulas[:j]]):
            out[j] = False
    return out, formulas, sat


def _agree(seed: int) -> None:
    flags, conds = _case(seed)
    exprs = [parse_condition(c.text()) for c in conds]
    domains = scene_domains(exprs, flags)
    production = decide_shadowing(exprs, domains)
    expected, formulas, sat = _oracle(flags, conds)
    texts = [c.text() for c in conds]
    got = {j: s.unsatisfiable for j, s in production.items()}
    assert got == expected, f"seed {seed}: {texts} {flags}"
    for j, s in production.items():
        if s.unsatisfiable:
            continue
        cover = [formulas[i] for i in s.covered_by]
        # the reported set really covers the branch …
        assert not sat(formulas[j], *[z3.Not(x) for x in cover]), f"seed {seed}: {texts} cover {s.covered_by}"
        # … and a set of several is reported only when no single earlier branch would do
        if len(s.covered_by) > 1:
            assert all(sat(formulas[j], z3.Not(formulas[i])) for i in range(j)), f"seed {seed}: {texts}"


@pytest.mark.parametrize("block", range(6))
def test_z3_agrees_with_decide_shadowing(block: int) -> None:
    """Hundreds of random cases (300) in the default run."""
    for seed in range(block * 50, block * 50 + 50):
        _agree(seed)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(10))
def test_z3_agrees_with_decide_shadowing_deep(block: int) -> None:
    """Thousands of random cases: 3,000 in the slow run, 30,000 with STORYGRAPH_DEEP=1."""
    per = 3000 if DEEP else 300
    start = 10_000 + block * per
    for seed in range(start, start + per):
        _agree(seed)


# ----------------------------------------------------------------------------- menus (issue 17)


def _menu_case(seed: int) -> tuple[dict[str, Flag], list[Cond], list[str], list[bool]]:
    """A random scene with player choices, fallbacks and opaque branches."""
    rng = random.Random(seed)
    flags, conds = _case(seed)
    kinds = [rng.choice(("auto", "choice", "choice")) for _ in conds]
    opaque = [rng.random() < 0.12 for _ in conds]
    return flags, conds, kinds, opaque


def _menu_oracle(flags, conds, kinds, opaque):
    """The spec's three steps written as z3 formulas, with no blockers in sight: a prefix
    ``auto`` is taken when it holds and no earlier one does; a choice is offered when it
    holds and no prefix ``auto`` does; a fallback is taken when it holds and no prefix
    ``auto``, no choice and no earlier fallback does.  An opaque branch holds nowhere
    for the others (it may not) and is never judged."""
    vars_, domain = _z3_vars(flags)
    formulas = [z3.BoolVal(False) if opaque[i] else _z3(c, vars_, flags) for i, c in enumerate(conds)]
    solver = z3.Solver()
    solver.add(*domain)

    def sat(*extra) -> bool:
        solver.push()
        solver.add(*extra)
        result = solver.check()
        solver.pop()
        assert result in (z3.sat, z3.unsat)
        return result == z3.sat

    first = next((i for i, k in enumerate(kinds) if k == "choice"), len(kinds))
    prefix = formulas[:first]
    out = {}
    for j, fj in enumerate(formulas):
        if opaque[j]:
            continue
        if j < first:
            others = formulas[:j]
        elif kinds[j] == "choice":
            others = prefix
        else:
            others = prefix + [c for i, c in enumerate(formulas) if kinds[i] == "choice" and i != j] + [
                formulas[i] for i in range(first, j) if kinds[i] != "choice"]
        if not sat(fj):
            out[j] = True
        elif not sat(fj, *[z3.Not(x) for x in others]):
            out[j] = False
    return out, formulas, sat


def _menu_agree(seed: int, method: str | None = None) -> None:
    from storygraph.shadowing import menu_blockers

    flags, conds, kinds, opaque = _menu_case(seed)
    exprs = [parse_condition(c.text()) for c in conds]
    domains = scene_domains(exprs, flags)
    blockers = menu_blockers(kinds, opaque)
    production = decide_shadowing(exprs, domains, method=method, blockers=blockers)
    expected, formulas, sat = _menu_oracle(flags, conds, kinds, opaque)
    texts = [c.text() for c in conds]
    got = {j: s.unsatisfiable for j, s in production.items()}
    assert got == expected, f"seed {seed}: {texts} {kinds} {opaque} {flags}"
    for j, s in production.items():
        if s.unsatisfiable:
            continue
        assert blockers is None or set(s.covered_by) <= set(blockers[j]), f"seed {seed}"
        assert not any(opaque[i] for i in s.covered_by), f"seed {seed}: an opaque branch covers"
        cover = [formulas[i] for i in s.covered_by]
        assert not sat(formulas[j], *[z3.Not(x) for x in cover]), f"seed {seed}: {texts} cover {s.covered_by}"


@pytest.mark.parametrize("method", [None, "classes", "sat"])
@pytest.mark.parametrize("block", range(4))
def test_z3_agrees_on_menus_and_mixed_scenes(block: int, method: str | None) -> None:
    """Random menus, mixed scenes (autos before, between and after choices) and opaque
    branches: 200 cases per method, decided by classes, by SAT and by the default."""
    for seed in range(50_000 + block * 50, 50_000 + block * 50 + 50):
        _menu_agree(seed, method)


def test_choices_never_shadow_each_other() -> None:
    """A property of the rule itself: in a scene of choices only, nothing is shadowed
    but conditions that cannot hold."""
    for seed in range(300):
        flags, conds = _case(seed)
        exprs = [parse_condition(c.text()) for c in conds]
        from storygraph.shadowing import menu_blockers

        out = decide_shadowing(exprs, scene_domains(exprs, flags), blockers=menu_blockers(["choice"] * len(conds)))
        assert all(s.unsatisfiable for s in out.values()), seed



@pytest.mark.parametrize("block", range(2))
def test_smt_menu_rule_agrees_with_the_classes(block: int) -> None:
    """``storygraph.smt.z3_menu_never_taken`` (the rule's steps over the parsed
    conditions, as check C06's z3 path reads them) agrees with the class decision."""
    from storygraph.shadowing import menu_blockers
    from storygraph.smt import z3_menu_never_taken

    for seed in range(60_000 + block * 50, 60_000 + block * 50 + 50):
        flags, conds, kinds, opaque = _menu_case(seed)
        exprs = [parse_condition(c.text()) for c in conds]
        production = decide_shadowing(exprs, scene_domains(exprs, flags), blockers=menu_blockers(kinds, opaque))
        got = {j: s.unsatisfiable for j, s in production.items()}
        assert got == z3_menu_never_taken(flags, exprs, kinds, opaque), f"seed {seed}"
