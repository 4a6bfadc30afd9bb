"""Conditions as z3 formulas over the integers — an independent decision procedure.

z3 (``z3-solver``) is a test-only dependency: check C06 uses it for scenes too large to
enumerate when it is installed, and the benchmarks and oracle tests compare with it.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Mapping

from .conditions import And, Compare, Const, Expr, FlagTrue, Not
from .model import Flag

__all__ = ["z3_encoding"]


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
