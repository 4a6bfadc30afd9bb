"""Conditions as z3 formulas over the integers — an independent decision procedure.

z3 (``z3-solver``) is a test-only dependency: check C06 uses it for scenes too large to
enumerate when it is installed, and the benchmarks and oracle tests compare with it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from .conditions import And, Compare, Const, Expr, FlagTrue, Not
from .model import Flag

__all__ = ["z3_encoding", "z3_menu_never_taken"]


def z3_encoding(flags: Mapping[str, Flag], used: Iterable[str]) -> tuple[Any, Callable[[Expr], Any]]:
    """A z3 solver holding the range of every flag in ``used``, and a function turning a
    condition into a z3 formula over those flags.  Bool flags are z3 booleans; int flags
    integers within ``min_value``/``max_value``; enum flags the index of their value.

    Raises :class:`ImportError` when z3 is not installed.
    """
    import z3

    var: dict[str, Any] = {}
    solver = z3.Solver()
    for f in used:
        spec = flags[f]
        if spec.type == "bool":
            var[f] = z3.Bool(f)
            continue
        var[f] = z3.Int(f)
        if spec.type == "enum":
            solver.add(var[f] >= 0, var[f] < len(spec.values))
        else:
            if spec.min_value is not None:
                solver.add(var[f] >= spec.min_value)
            if spec.max_value is not None:
                solver.add(var[f] <= spec.max_value)

    def conv(e: Expr):
        if isinstance(e, Const):
            return z3.BoolVal(e.value)
        if isinstance(e, FlagTrue):
            return var[e.flag]
        if isinstance(e, Compare):
            spec = flags[e.flag]
            x, c = var[e.flag], e.value
            if spec.type == "bool":
                c = z3.BoolVal(bool(c))
                return x == c if e.op == "==" else x != c
            if spec.type == "enum":
                c = spec.values.index(c) if c in spec.values else -1
            return {"==": x == c, "!=": x != c, "<": x < c, "<=": x <= c, ">": x > c, ">=": x >= c}[e.op]
        if isinstance(e, Not):
            return z3.Not(conv(e.arg))
        parts = [conv(a) for a in e.args]
        return z3.And(*parts) if isinstance(e, And) else z3.Or(*parts)

    return solver, conv


def z3_menu_never_taken(flags: Mapping[str, Flag], conditions: list[Expr], kinds: list[str],
                        opaque: list[bool] | None = None) -> dict[int, bool]:
    """``{position: unsatisfiable}`` for every branch that can never be taken or offered
    under the spec's menu rule, decided by z3 from the rule's three steps themselves: a
    branch before the first ``choice`` is taken when it holds and no earlier one does; a
    ``choice`` is offered when it holds and no ``auto`` before the first choice does; an
    ``auto`` after it (a fallback) when it holds and no prefix ``auto``, no choice and no
    earlier fallback does.  An opaque branch holds for nobody else and is not judged.

    Raises :class:`ImportError` when z3 is not installed.
    """
    import z3

    opaque = opaque or [False] * len(conditions)
    used: dict[str, None] = {}
    for e in conditions:
        for f in _flags(e):
            used[f] = None
    solver, conv = z3_encoding(flags, used)
    formulas = [z3.BoolVal(False) if opaque[i] else conv(e) for i, e in enumerate(conditions)]
    first = next((i for i, k in enumerate(kinds) if k == "choice"), len(kinds))

    def sat(*extra) -> bool:
        solver.push()
        solver.add(*extra)
        answer = solver.check() == z3.sat
        solver.pop()
        return answer

    out: dict[int, bool] = {}
    for j, fj in enumerate(formulas):
        if opaque[j]:
            continue
        if j < first:
            others = formulas[:j]
        elif kinds[j] == "choice":
            others = formulas[:first]
        else:
            others = formulas[:first] + [formulas[i] for i in range(first, len(formulas))
                                         if i != j and (kinds[i] == "choice" or i < j)]
        if not sat(fj):
            out[j] = True
        elif not sat(fj, *[z3.Not(x) for x in others]):
            out[j] = False
    return out


def _flags(e: Expr) -> list[str]:
    if isinstance(e, (FlagTrue, Compare)):
        return [e.flag]
    if isinstance(e, Not):
        return _flags(e.arg)
    if isinstance(e, Const):
        return []
    return [f for a in e.args for f in _flags(a)]
