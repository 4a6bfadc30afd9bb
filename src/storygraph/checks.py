"""The ten automatic checks of storygraph ("자동 검증").

Each check recomputes its claim from the typed input tables with its own code — plain
breadth-first searches, brute-force enumeration (bit-parallel) and, where even that is
too large, the z3 SMT solver when installed — never with the graph, the
shadowing search or the card builder that produced the cards, and reports the cards it
failed on.
"""

from __future__ import annotations

import operator
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from verdicts.checks import CheckRegistry, TagNote
from verdicts.korean import is_polite_sentence
from verdicts.tables import parse_bool

from .model import BRANCH, MISSING_TARGET, NO_ENDING, SCENE, SHADOWING, TABLE_SPECS, UNREACHED, VERDICTS, Scenario

__all__ = ["CHECKS", "CheckContext", "run_storygraph_checks"]

#: products of full flag ranges up to this size are enumerated point by point
REFERENCE_LIMIT = 4096
#: products of candidate points up to this size are enumerated by the fallback
CLASS_LIMIT = 1_000_000


@dataclass
class CheckContext:
    scenario: Scenario
    cards: list[dict[str, Any]]
    _cache: dict[str, Any] = field(default_factory=dict)

    def adjacency(self) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
        if "adj" not in self._cache:
            fwd: dict[str, list[str]] = {s: [] for s in self.scenario.scenes}
            back: dict[str, list[str]] = {s: [] for s in self.scenario.scenes}
            for b in self.scenario.branches:
                if b.from_scene in fwd and b.to_scene in fwd:
                    fwd[b.from_scene].append(b.to_scene)
                    back[b.to_scene].append(b.from_scene)
            self._cache["adj"] = (fwd, back)
        return self._cache["adj"]

    def reached(self) -> set[str]:
        if "reached" not in self._cache:
            fwd, _ = self.adjacency()
            self._cache["reached"] = _bfs([s.scene_id for s in self.scenario.scenes.values() if s.is_entry], fwd)
        return self._cache["reached"]

    def to_ending(self) -> set[str]:
        if "ending" not in self._cache:
            _, back = self.adjacency()
            self._cache["ending"] = _bfs([s.scene_id for s in self.scenario.scenes.values() if s.is_ending], back)
        return self._cache["ending"]


def _bfs(start: list[str], adj: dict[str, list[str]]) -> set[str]:
    seen = set(start)
    queue = deque(start)
    while queue:
        node = queue.popleft()
        for nxt in adj.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return seen


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()


@CHECKS.register("C01", "verdict 가 다섯 판정 가운데 하나이고 target_kind 가 장면·분기 가운데 하나인지 확인합니다.")
def verdict_in_enum(ctx: CheckContext):
    """A verdict or target kind outside the closed lists means the card was not made by the rules."""
    return [c.get("target_no") for c in ctx.cards if c.get("verdict") not in VERDICTS or c.get("target_kind") not in (SCENE, BRANCH)]


_REQUIRED = ("target_no", "target_kind", "verdict", "reached_from_entry", "evidence", "summary")


@CHECKS.register("C02", "target_no·target_kind·verdict·reached_from_entry·evidence·summary 가 모두 있는지 확인합니다.")
def required_fields(ctx: CheckContext):
    """Every card carries the six fields a reader and the screen rely on."""
    return [c.get("target_no", "?") for c in ctx.cards if any(c.get(k) in (None, "") for k in _REQUIRED)]


@CHECKS.register("C03", "모든 분기의 order_no 가 1 이상인지 확인합니다.")
def order_positive(ctx: CheckContext):
    """``order_no`` starts at 1; zero or negative numbers make the order meaningless."""
    failed = []
    for b in ctx.scenario.branches:
        text = b.raw.get("order_no")
        if text is None:
            continue
        try:
            if int(float(text)) < 1:
                failed.append(b.branch_id)
        except ValueError:
            failed.append(b.branch_id)
    return failed


@CHECKS.register("C04", "어디서도 안 닿음을 시작 장면에서 다시 따라가 어느 길로도 닿지 않는지 다시 계산합니다.")
def unreached_recomputed(ctx: CheckContext):
    """A scene is unreached when no path from an ``is_entry`` scene leads to it; a branch
    when its ``from_scene`` is unreached or unknown."""
    reached = ctx.reached()
    failed = []
    for c in ctx.cards:
        if c.get("verdict") != UNREACHED:
            continue
        subject = c["target_no"] if c.get("target_kind") == SCENE else c.get("scene_id")
        if subject in reached:
            failed.append(c["target_no"])
    return failed


@CHECKS.register("C05", "없는 장면을 가리킴은 그 분기의 to_scene 이 scene_id 어디에도 없는지 다시 계산합니다.")
def missing_target_recomputed(ctx: CheckContext):
    """The destination of such a branch is not among the ``scene_id`` values."""
    to_scene = {b.branch_id: b.to_scene for b in ctx.scenario.branches}
    return [c["target_no"] for c in ctx.cards
            if c.get("verdict") == MISSING_TARGET and to_scene.get(c["target_no"]) in ctx.scenario.scenes]


@CHECKS.register("C06", "조건이 겹침은 뒤 순번 분기가 참이 되는 모든 플래그 조합이 앞 순번 조건에 걸리는지 다시 계산합니다.")
def shadowing_recomputed(ctx: CheckContext):
    """For each ``조건이 겹침`` card, the named later branch must directly follow the card's
    branch in ``order_no`` and be covered by the earlier branches' conditions over every
    assignment of the flags they use — recomputed point by point (bit-parallel, one byte
    per point) over the full ranges when their product is small, else over candidate
    points around every constant, else (when even those are too many) by the z3 SMT
    solver when it is installed."""
    failed: list[str] = []
    methods: set[str] = set()
    by_scene: dict[str, list] = {}
    for b in ctx.scenario.branches:
        by_scene.setdefault(b.from_scene, []).append(b)
    ordered: dict[str, tuple[list, list[str]]] = {}
    for c in ctx.cards:
        if c.get("verdict") != SHADOWING:
            continue
        later = c.get("overlapping_branch_id")
        scene_id = c.get("scene_id")
        if scene_id not in ordered:
            siblings = sorted((b for b in by_scene.get(scene_id, []) if b.order_no is not None), key=lambda b: b.order_no)
            ordered[scene_id] = (siblings, [b.branch_id for b in siblings])
        siblings, ids = ordered[scene_id]
        if later not in ids or c["target_no"] not in ids or ids.index(later) != ids.index(c["target_no"]) + 1:
            failed.append(c["target_no"])
            continue
        upto = siblings[: ids.index(later) + 1]
        outcome = _covered(ctx.scenario, [b.condition_expr for b in upto])
        if outcome is None:
            methods.add("too-large")
            continue
        covered, method = outcome
        methods.add(method)
        if not covered:
            failed.append(c["target_no"])
    return failed, TagNote(frozenset(methods), _methods_note)


_METHOD_NAMES = {"reference": "전체 범위 열거", "classes": "상수 주변 점 열거", "z3": "z3 SMT", "too-large": "조합이 너무 많아 건너뜀"}


def _methods_note(methods: frozenset) -> str | None:
    """C06's note: how its cards were decided (merged over the parts of a run)."""
    return "방법: " + ", ".join(_METHOD_NAMES[m] for m in sorted(methods)) if methods else None


def _covered(sc: Scenario, texts: list[str | None]) -> tuple[bool, str] | None:
    """Whether the last condition is covered by the others: ``(covered, method)``, or
    ``None`` when no method here can decide it."""
    from .conditions import Compare, flags_of, parse_condition

    exprs = [parse_condition(t) for t in texts]
    used: list[str] = []
    for e in exprs:
        used.extend(f for f in flags_of(e) if f not in used)
    specs = [sc.flags[f] for f in used]
    axes = [_full_axis(spec) for spec in specs]
    size = _product(axes)
    method = "reference"
    if size is None or size > REFERENCE_LIMIT:
        method = "classes"
        consts: dict[str, set] = {f: set() for f in used}
        for e in exprs:
            for node in _atoms(e):
                if isinstance(node, Compare):
                    consts[node.flag].add(node.value)
        axes = [_candidate_axis(spec, consts[spec.flag]) for spec in specs]
        size = _product(axes)
        if size is None or size > CLASS_LIMIT:
            return _covered_z3(sc, exprs, used)
    grid = _Grid(used, axes)
    masks = [grid.mask(e) for e in exprs]
    rest = masks[-1]
    for m in masks[:-1]:
        rest &= ~m
    return (rest & grid.all) == 0, method


def _product(axes: list[list | None]) -> int | None:
    size = 1
    for values in axes:
        if values is None:
            return None
        size *= max(1, len(values))
    return size


def _full_axis(spec) -> list | None:
    if spec.type == "bool":
        return [False, True]
    if spec.type == "enum":
        return list(spec.values)
    if spec.min_value is None or spec.max_value is None or spec.max_value - spec.min_value > REFERENCE_LIMIT:
        return None
    return list(range(spec.min_value, spec.max_value + 1))


def _candidate_axis(spec, constants: set) -> list:
    """Points that meet every region the constants cut the range into: each constant and
    its two neighbours, and the ends (or a point past the outermost constants)."""
    if spec.type != "int":
        return _full_axis(spec)  # type: ignore[return-value]
    numbers = {int(n) for n in constants if isinstance(n, int) and not isinstance(n, bool)}
    lo, hi = spec.min_value, spec.max_value
    points = set()
    for n in numbers:
        points |= {n - 1, n, n + 1}
    points.add(lo if lo is not None else (min(numbers) - 2 if numbers else -1))
    points.add(hi if hi is not None else (max(numbers) + 2 if numbers else 1))
    return sorted(v for v in points if (lo is None or v >= lo) and (hi is None or v <= hi))


def _atoms(expr):
    from .conditions import And, Not, Or

    stack = [expr]
    while stack:
        node = stack.pop()
        if isinstance(node, Not):
            stack.append(node.arg)
        elif isinstance(node, (And, Or)):
            stack.extend(node.args)
        else:
            yield node


class _Grid:
    """Every point of a product of axes, one byte per point: a condition becomes the int
    whose byte ``p`` is 1 exactly when it holds at point ``p``, so conditions combine with
    ``&``, ``|`` and ``~`` at C speed."""

    def __init__(self, flags: list[str], axes: list[list]):
        self.flags, self.axes = flags, axes
        self.size = _product(axes) or 1
        self.all = int.from_bytes(b"\x01" * self.size, "little")
        self.stride: dict[str, int] = {}
        step = 1
        for f, values in zip(reversed(flags), reversed(axes)):
            self.stride[f] = step
            step *= max(1, len(values))
        self.axis = dict(zip(flags, axes))

    def _atom_mask(self, flag: str, holds: list[bool]) -> int:
        stride = self.stride[flag]
        block = b"".join((b"\x01" if h else b"\x00") * stride for h in holds)
        return int.from_bytes(block * (self.size // len(block)), "little")

    def mask(self, expr) -> int:
        from .conditions import And, Compare, Const, FlagTrue, Not

        if isinstance(expr, Const):
            return self.all if expr.value else 0
        if isinstance(expr, FlagTrue):
            return self._atom_mask(expr.flag, [v is True for v in self.axis[expr.flag]])
        if isinstance(expr, Compare):
            return self._atom_mask(expr.flag, [_compare(v, expr.op, expr.value) for v in self.axis[expr.flag]])
        if isinstance(expr, Not):
            return self.all & ~self.mask(expr.arg)
        parts = [self.mask(a) for a in expr.args]
        out = parts[0]
        for p in parts[1:]:
            out = (out & p) if isinstance(expr, And) else (out | p)
        return out


_ORDER_OPS = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}


def _compare(v: Any, op: str, const: Any) -> bool:
    if isinstance(v, bool):
        v, const = int(v), (int(const) if isinstance(const, (bool, int)) else const)
    if type(v) is not type(const) and not (isinstance(v, int) and isinstance(const, int)):
        return op == "!="
    return _ORDER_OPS[op](v, const)


def _covered_z3(sc: Scenario, exprs: list, used: list[str]) -> tuple[bool, str] | None:
    """The same question for z3, when it is installed (a test dependency)."""
    try:
        import z3

        from .smt import z3_encoding
    except ImportError:
        return None
    solver, conv = z3_encoding(sc.flags, used)
    solver.add(conv(exprs[-1]))
    for e in exprs[:-1]:
        solver.add(z3.Not(conv(e)))
    return solver.check() == z3.unsat, "z3"


@CHECKS.register("C07", "끝에 못 감은 시작 장면에서 닿은 뒤 그 자리에서 어느 길로도 엔딩에 닿지 않는지 다시 계산합니다.")
def no_ending_recomputed(ctx: CheckContext):
    """A scene (or a branch's destination) is reached and no path from it reaches an
    ``is_ending`` scene."""
    reached, ending = ctx.reached(), ctx.to_ending()
    to_scene = {b.branch_id: b.to_scene for b in ctx.scenario.branches}
    failed = []
    for c in ctx.cards:
        if c.get("verdict") != NO_ENDING:
            continue
        if c.get("target_kind") == SCENE:
            ok = c["target_no"] in reached and c["target_no"] not in ending
        else:
            ok = c.get("scene_id") in reached and to_scene.get(c["target_no"]) not in ending
        if not ok:
            failed.append(c["target_no"])
    return failed


@CHECKS.register("C08", "evidence 의 field 이름이 입력에 실제로 있는 열인지 대조합니다.")
def evidence_fields_exist(ctx: CheckContext):
    """A cited column that the input does not have means the sentence was made up."""
    columns = {spec.name: ctx.scenario.columns.get(spec.name, set()) for spec in TABLE_SPECS}
    every = set().union(*columns.values())
    failed = []
    for c in ctx.cards:
        for item in c.get("evidence", []):
            allowed = columns.get(item.get("source"), every) if item.get("source") else every
            if item.get("field") not in allowed:
                failed.append(c["target_no"])
    return failed


@CHECKS.register("C09", "agg 가 없는 evidence 의 value 가 인용한 줄의 원문 값과 같고, 여러 줄에서 센 값에는 agg 가 붙었는지 확인합니다.")
def evidence_values_match(ctx: CheckContext):
    """Without ``agg`` the value is the cited row's cell (typed as its column); with
    ``agg`` it is a count over rows."""
    rows: dict[tuple[str, int], dict[str, str | None]] = {}
    for s in ctx.scenario.scenes.values():
        rows[("scene_states", s.line)] = s.raw
    for b in ctx.scenario.branches:
        rows[("story_branches", b.line)] = b.raw
    for f in ctx.scenario.flags.values():
        rows[("flag_spec", f.line)] = f.raw
    kinds = {col.name: col.type for spec in TABLE_SPECS for col in spec.columns}
    failed = []
    for c in ctx.cards:
        for item in c.get("evidence", []):
            if item.get("agg"):
                if not isinstance(item.get("value"), int) or isinstance(item.get("value"), bool) or item["value"] < 0:
                    failed.append(c["target_no"])
                continue
            row = rows.get((item.get("source"), item.get("line")))
            if row is None:
                failed.append(c["target_no"])
                continue
            # a key a JSON/YAML record omitted reads as an empty cell (column existence is C08's job)
            if _typed(row.get(item.get("field")), kinds.get(item.get("field"), "str")) != item.get("value"):
                failed.append(c["target_no"])
    return failed


def _typed(text: str | None, kind: str) -> Any:
    if text is None:
        return None
    if kind == "bool":
        return parse_bool(text)
    if kind == "int":
        try:
            return int(float(text.replace(",", "")))
        except ValueError:
            return text
    return text


@CHECKS.register("C10", "summary 와 hedge(있을 때)가 존댓말 한 문장으로 끝나는지 확인합니다.")
def polite_sentences(ctx: CheckContext):
    """One polite Korean sentence ending in ``-니다.``; a hedge, when present, too."""
    return [c.get("target_no", "?") for c in ctx.cards
            if not is_polite_sentence(c.get("summary")) or (c.get("hedge") is not None and not is_polite_sentence(c["hedge"]))]


def run_storygraph_checks(scenario: Scenario, cards: list[dict[str, Any]]):
    return CHECKS.run(CheckContext(scenario, cards))
