"""The ten automatic checks of storygraph ("자동 검증").

Each check recomputes its claim from the typed input tables with its own code — plain
breadth-first searches, brute-force enumeration (bit-parallel) and, where even that is
too large, the z3 SMT solver when installed — never with the graph, the
shadowing search or the card builder that produced the cards, and reports the cards it
failed on.
"""

from __future__ import annotations

import operator
from bisect import bisect_left, bisect_right
from dataclasses import dataclass, field
from typing import AbstractSet, Any, Iterator, Literal, Sequence

from verdicts.card_checks import CardChecks
from verdicts.checks import CheckRegistry, TagNote

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
    #: facts of the scenario alone, which contexts over different cards may share
    _cache: dict[str, Any] = field(default_factory=dict)
    #: facts of this context's cards (never shared)
    _own: dict[str, Any] = field(default_factory=dict, repr=False)

    def rows_graph(self):
        """The graph made again from the rows (:func:`_rows_graph`), once for both searches."""
        if "rows_graph" not in self._cache:
            self._cache["rows_graph"] = _rows_graph(self.scenario)
        return self._cache["rows_graph"]

    def reached(self) -> set[str]:
        if "reached" not in self._cache:
            import networkx as nx

            self._cache["reached"] = nx.descendants(self.rows_graph(), _ENTRIES) - {_ENDINGS}
        return self._cache["reached"]

    def to_ending(self) -> set[str]:
        if "ending" not in self._cache:
            import networkx as nx

            self._cache["ending"] = nx.ancestors(self.rows_graph(), _ENDINGS) - {_ENTRIES}
        return self._cache["ending"]

    def verdicts(self) -> list[Any]:
        """Every card's ``verdict`` (``None`` when absent), in card order."""
        if "verdicts" not in self._own:
            self._own["verdicts"] = [c.get("verdict") if isinstance(c, dict) else None for c in self.cards]
        return self._own["verdicts"]

    def with_verdict(self, verdict: str) -> list[dict[str, Any]]:
        """The cards whose ``verdict`` is ``verdict``, in card order."""
        return [c for c, v in zip(self.cards, self.verdicts()) if v == verdict]

    def branches_by_scene(self) -> dict[str, list]:
        """The branches leaving each scene, in input order."""
        if "by_scene" not in self._cache:
            by_scene: dict[str, list] = {}
            for b in self.scenario.branches:
                by_scene.setdefault(b.from_scene, []).append(b)
            self._cache["by_scene"] = by_scene
        return self._cache["by_scene"]

    def to_scenes(self) -> dict[str, str]:
        """Each branch's ``to_scene`` by its id (a later row with the same id wins)."""
        if "to_scene" not in self._cache:
            self._cache["to_scene"] = {b.branch_id: b.to_scene for b in self.scenario.branches}
        return self._cache["to_scene"]

    # what the core's card checks read (verdicts.card_checks)
    def quoted_texts(self) -> Iterator[str]:
        """The creator's texts that sentences name bare, as they name them: every scene's
        title and every flag's label (a full stop or a line break in a title is no
        sentence break; read only when a sentence fails the plain polite test)."""
        for scene in self.scenario.scenes.values():
            yield scene.name
        for flag in self.scenario.flags.values():
            yield flag.name

    def columns(self, table: str) -> set[str]:
        return self.scenario.columns.get(table, set())

    def row_index(self) -> "RowsByLine":
        return self.rows()

    def rows_for(self, card: dict[str, Any], table: str | None) -> list:
        """The rows an evidence item without a ``line`` cites (ours always name one; the
        seed's sample cards do not): the card's branch and the overlapping one, or the
        branches leaving the card's scene; the scenes they join; the flags those scenes
        make available; only those of ``table`` when it is given."""
        sc = self.scenario
        if "branch_rows" not in self._cache:
            self._cache["branch_rows"] = {b.branch_id: b for b in sc.branches}
        by_id = self._cache["branch_rows"]
        branches = [by_id[card[name]] for name in ("branch_id", "overlapping_branch_id") if card.get(name) in by_id]
        if card.get("branch_id") is None:
            branches += self.branches_by_scene().get(str(card.get("scene_id")), [])
        ids = [card.get("scene_id")] + [s for b in branches for s in (b.from_scene, b.to_scene)]
        scenes = [sc.scenes[i] for i in dict.fromkeys(ids) if i in sc.scenes]
        flags = dict.fromkeys(f.strip() for s in scenes for f in (s.raw.get("available_flags") or "").split(","))
        parts = {"story_branches": [b.raw for b in branches], "scene_states": [s.raw for s in scenes],
                 "flag_spec": [sc.flags[f].raw for f in flags if f in sc.flags]}
        return [r for name, rows in parts.items() if table in (None, name) for r in rows]

    def rows(self) -> "RowsByLine":
        """The raw cells of every typed input row by ``(table, line)`` (several rows when
        a JSON document holds its records on one line): what an evidence item cites."""
        if "rows" not in self._cache:
            sc = self.scenario
            self._cache["rows"] = RowsByLine((("scene_states", sc.scenes.values()), ("story_branches", sc.branches),
                                              ("flag_spec", sc.flags.values())))
        return self._cache["rows"]


class RowsByLine:
    """``(table, line)`` → the raw cells of the rows at that line, as a list, read with
    :meth:`get` as from a dict.  Kept as one list per table indexed by line, so that a
    scenario of 100,000 scenes does not hold a key and a list for each of its rows."""

    __slots__ = ("_tables",)

    def __init__(self, tables):
        self._tables: dict[str, list] = {}
        for table, items in tables:
            slots: list = []
            for r in items:
                line = r.line
                if type(line) is not int or line < 0:
                    continue  # (rows always have a line; nothing could cite one without)
                if line >= len(slots):
                    slots.extend([None] * (line + 1 - len(slots)))
                have = slots[line]
                if have is None:
                    slots[line] = r.raw
                elif type(have) is list:
                    have.append(r.raw)
                else:
                    slots[line] = [have, r.raw]
            self._tables[table] = slots

    def replaced(self, changes) -> "RowsByLine":
        """A copy in which, for each ``(table, old row, new row)`` of ``changes``, the new
        row's cells stand at its line where the old row's stood (an edit that keeps the
        lines: :mod:`storygraph.incremental`)."""
        out = RowsByLine(())
        out._tables = dict(self._tables)
        copied: set[str] = set()
        for table, old, new in changes:
            slots = out._tables[table]
            if table not in copied:
                slots = out._tables[table] = list(slots)
                copied.add(table)
            hit = slots[old.line]
            if type(hit) is list:
                slots[new.line] = [new.raw if x is old.raw else x for x in hit]
            else:
                slots[new.line] = new.raw if hit is old.raw else hit
        return out

    def get(self, key: tuple[str, int], default: Any = None) -> Any:
        table, line = key
        slots = self._tables.get(table)
        if slots is None or type(line) is not int or not 0 <= line < len(slots):
            return default
        hit = slots[line]
        if hit is None:
            return default
        return hit if type(hit) is list else [hit]


#: the two extra nodes of :func:`_rows_graph`: one before every entry, one after every ending
_ENTRIES, _ENDINGS = object(), object()


def _rows_graph(scenario):
    """The scenario's graph made again from the rows — not the analysis's graph nor its
    walk — with :data:`_ENTRIES` joined to every entry and every ending joined to
    :data:`_ENDINGS`, so that the scenes reached are one :func:`networkx.descendants`
    and the scenes reaching an ending one :func:`networkx.ancestors`."""
    import networkx as nx

    scenes = scenario.scenes
    g = nx.DiGraph()
    g.add_nodes_from((_ENTRIES, _ENDINGS))
    g.add_nodes_from(scenes)
    g.add_edges_from((b.from_scene, b.to_scene) for b in scenario.branches if b.from_scene in scenes and b.to_scene in scenes)
    g.add_edges_from((_ENTRIES, s.scene_id) for s in scenes.values() if s.is_entry)
    g.add_edges_from((s.scene_id, _ENDINGS) for s in scenes.values() if s.is_ending)
    return g


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()


CARD_CHECKS = CardChecks(
    key_field="target_no",
    enums={"verdict": VERDICTS, "target_kind": (SCENE, BRANCH)},
    required=("target_no", "target_kind", "verdict", "reached_from_entry", "evidence", "summary"),
    tables=tuple(spec.name for spec in TABLE_SPECS),
)
CHECKS.add(CARD_CHECKS.enum_check("C01", "`verdict` 값이 다섯 판정 가운데 하나이고 `target_kind`가 장면·분기 가운데 하나인지 확인합니다."))
CHECKS.add(CARD_CHECKS.required_check("C02", "`target_no`·`target_kind`·`verdict`·`reached_from_entry`·`evidence`·`summary` 값이 모두 있는지 확인합니다."))


@CHECKS.register("C03", "순번(`order_no`)이 1보다 작은 분기가 있는 장면에 조건이 겹침 판정이 없는지 확인합니다.")
def order_positive(ctx: CheckContext):
    """순번(`order_no`)은 1부터 시작합니다. 0이나 음수인 순번은 입력 문제로 알리고, 그 분기가 있는 장면에서는
    분기의 앞뒤를 알 수 없으니 조건이 겹침 판정을 내리지 않아야 합니다. 그런 장면의 조건이 겹침 카드가 실패입니다.
    """
    below_one: dict[str, bool] = {}  # by text: most order numbers repeat
    scenes: set[str] = set()
    for b in ctx.scenario.branches:
        text = b.raw.get("order_no")
        if text is None:
            continue
        bad = below_one.get(text)
        if bad is None:
            bad = below_one[text] = _below_one(text)
        if bad:
            scenes.add(b.from_scene)
    if not scenes:
        return []
    return [str(c.get("target_no")) for c in ctx.with_verdict(SHADOWING) if c.get("scene_id") in scenes]


def _below_one(text: str) -> bool:
    """Whether an ``order_no`` cell is a number below 1 (any size of integer, compared
    exactly).  A cell that is no number at all is an input issue already, raised where
    the row was read; this check judges the numbers."""
    plain = text.strip().replace(",", "")
    try:
        return int(plain) < 1
    except ValueError:
        pass
    try:
        return float(plain) < 1
    except (ValueError, OverflowError):
        return False


@CHECKS.register("C04", "어디서도 안 닿음을 시작 장면에서 다시 따라가 어느 길로도 닿지 않는지 다시 계산합니다.")
def unreached_recomputed(ctx: CheckContext):
    """시작 장면(`is_entry`)에서 출발하는 어떤 길로도 닿지 않는 장면과, 출발 장면(`from_scene`)이 그런
    장면이거나 장면 목록에 없는 분기가 어디서도 안 닿음 판정을 받습니다.
    """
    reached = ctx.reached()
    failed = []
    for c in ctx.with_verdict(UNREACHED):
        subject = c["target_no"] if c.get("target_kind") == SCENE else c.get("scene_id")
        if subject in reached:
            failed.append(c["target_no"])
    return failed


@CHECKS.register("C05", "없는 장면을 가리킴은 그 분기의 `to_scene`이 `scene_id` 어디에도 없는지 다시 계산합니다.")
def missing_target_recomputed(ctx: CheckContext):
    """이 판정을 받은 분기의 도착 장면은 `scene_id` 값 가운데 없어야 합니다."""
    to_scene = ctx.to_scenes()
    return [c["target_no"] for c in ctx.with_verdict(MISSING_TARGET) if to_scene.get(c["target_no"]) in ctx.scenario.scenes]


@CHECKS.register("C06", "조건이 겹침은 뒤 순번 분기가 참이 되는 모든 플래그 조합이 앞 순번 조건에 걸리는지 다시 계산합니다.")
def shadowing_recomputed(ctx: CheckContext):
    """조건이 겹침 카드마다, 카드가 가리키는 뒤 분기는 순번(`order_no`)에서 카드의 분기 바로 다음이어야 하고, 그
    분기들이 쓰는 플래그의 모든 값 조합에서 앞 분기들의 조건에 덮여야 합니다. 범위의 곱이 작으면 범위 전체를
    한 점씩(점마다 한 바이트, 비트 병렬로), 크면 상수마다 그 둘레의 후보 점을, 그마저 너무 많으면 SMT 솔버
    z3이 깔려 있을 때 z3으로 다시 계산합니다.
    """
    failed: list[str] = []
    methods: set[str] = set()
    by_scene = ctx.branches_by_scene()
    # scene -> branch positions, conditions, menu blockers, prefix facts (False: unreadable; None: not made yet)
    ordered: dict[Any, tuple[dict[str, int], list[str | None], list[list[int] | None] | None,
                             tuple[list, list[str], list[int]] | Literal[False] | None]] = {}
    memo: dict[tuple | str, Any] = {}
    sc = ctx.scenario
    menu_input = sc.has("story_branches", "kind") or sc.has("story_branches", "condition_opaque")
    for c in ctx.with_verdict(SHADOWING):
        # JSON values of the card (None when absent: they then find no branch)
        later: Any = c.get("overlapping_branch_id")
        scene_id: Any = c.get("scene_id")
        entry = ordered.get(scene_id)
        if entry is None:
            siblings = sorted((b for b in by_scene.get(scene_id, []) if b.order_no is not None), key=_ORDER_NO)
            position: dict[str, int] = {}
            for i, b in enumerate(siblings):
                position.setdefault(b.branch_id, i)  # the first of a repeated id, as list.index finds it
            menus = _menu_blockers(siblings) if menu_input else None
            entry = ordered[scene_id] = (position, [b.condition_expr for b in siblings], menus, None)
        position, conditions, menus, prefix = entry
        try:
            at_later, at_card = position.get(later), position.get(c["target_no"])
        except TypeError:  # an id no branch can have
            at_later = at_card = None
        if at_later is None or at_card is None or at_later != at_card + 1:
            failed.append(c["target_no"])
            continue
        if menus is None:
            texts = conditions[: at_later + 1]
            if prefix is None:
                # each condition's facts, and how many flags the first k + 1 conditions
                # use (in order of first use), made once per scene: a card's
                # conditions are a prefix of its scene's
                prefix = _prefix_facts(conditions, memo)
                if prefix is None:
                    prefix = False
                ordered[scene_id] = (position, conditions, menus, prefix)
            outcome = _covered(ctx.scenario, texts, memo, *((prefix[0][: at_later + 1], prefix[1][: prefix[2][at_later]])
                                                            if prefix else ()))
        else:
            blocking = menus[at_later]
            if blocking is None:  # an opaque branch is never shadowed
                failed.append(c["target_no"])
                continue
            texts = [conditions[i] for i in blocking] + [conditions[at_later]]
            outcome = _covered(ctx.scenario, texts, memo)
        if outcome is None:
            methods.add("too-large")
            continue
        covered, method = outcome
        methods.add(method)
        if not covered:
            failed.append(c["target_no"])
    return failed, TagNote(frozenset(methods), _methods_note)


_ORDER_NO = operator.attrgetter("order_no")


def _menu_blockers(siblings: list) -> list[list[int] | None] | None:
    """Recomputed from the spec's menu rule alone (not from the analysis): per branch in
    order, the branches whose condition keeps it from being taken — a branch before the
    first ``choice``: every earlier one; a ``choice``: the ``auto`` branches before the
    first choice; an ``auto`` after it (a fallback): every earlier branch and every
    choice.  Opaque branches keep nothing from being taken and are never shadowed
    (``None``).  ``None`` overall when the scene has neither choices nor opaque branches."""
    kinds = [(b.raw.get("kind") or "").strip().lower() for b in siblings]
    opaque = [(b.raw.get("condition_opaque") or "").strip().lower() in ("1", "true", "yes", "y", "t", "참") for b in siblings]
    if "choice" not in kinds and not any(opaque):
        return None
    first = kinds.index("choice") if "choice" in kinds else len(kinds)
    out: list[list[int] | None] = []
    for j, k in enumerate(kinds):
        if opaque[j]:
            out.append(None)
            continue
        if j < first:
            before = list(range(j))
        elif k == "choice":
            before = list(range(first))
        else:
            before = [i for i in range(len(kinds)) if i != j and (i < j or kinds[i] == "choice")]
        out.append([i for i in before if not opaque[i]])
    return out

_METHOD_NAMES = {"reference": "전체 범위 열거", "classes": "상수 주변 점 열거", "z3": "z3 SMT", "too-large": "조합이 너무 많아 건너뜀"}


def _methods_note(methods: frozenset) -> str | None:
    """C06's note: how its cards were decided (merged over the parts of a run)."""
    return "방법: " + ", ".join(_METHOD_NAMES[m] for m in sorted(methods)) if methods else None


def _prefix_facts(texts: list[str | None], memo: dict) -> tuple[list, list[str], list[int]] | None:
    """``(facts, flags, counts)``: each text's :func:`_condition_facts`, the flags they
    use in order of first use, and per text how many of those the texts up to it use;
    ``None`` when a text cannot be read."""
    facts, flags, counts, seen = [], [], [], set()
    for t in texts:
        fact = memo.get(("text", t))
        if fact is None:
            try:
                fact = memo[("text", t)] = _condition_facts(t)
            except Exception:  # as _covered would raise for it: leave the card to it
                return None
        facts.append(fact)
        for f in fact[1]:
            if f not in seen:
                seen.add(f)
                flags.append(f)
        counts.append(len(flags))
    return facts, flags, counts


def _covered(sc: Scenario, texts: list[str | None], memo: dict[tuple | str, Any] | None = None, facts: list | None = None,
             used: list[str] | None = None) -> tuple[bool, str] | None:
    """Whether the last condition is covered by the others: ``(covered, method)``, or
    ``None`` when no method here can decide it.

    ``memo`` keeps what one check run already worked out: each condition text's tree,
    flags and constants, and each flag's full range.  ``facts`` and ``used``: the
    texts' facts and the flags they use in order of first use, when the caller has them."""
    if memo is None:
        memo = {}
    if facts is None:
        facts = []
        for t in texts:
            fact = memo.get(("text", t))
            if fact is None:
                fact = memo[("text", t)] = _condition_facts(t)
            facts.append(fact)
    if used is None:
        used = []
        for fact in facts:
            for f in fact[1]:
                if f not in used:
                    used.append(f)
    specs = [sc.flags[f] for f in used]
    full = []
    for spec in specs:  # the full range of a flag is the same for every card
        axis_key = ("axis", spec.flag)
        if axis_key not in memo:
            memo[axis_key] = _full_axis(spec)
        full.append(memo[axis_key])
    axes = full
    size = _product(axes)
    method = "reference"
    if size is None or size > REFERENCE_LIMIT:
        method = "classes"
        consts: dict[str, set] = {f: set() for f in used}
        for fact in facts:
            for flag, value in fact[2]:
                consts[flag].add(value)
        axes = [_candidate_axis(spec, consts[spec.flag]) if spec.type == "int" else axis for spec, axis in zip(specs, full)]
        size = _product(axes)
        if size is None or size > CLASS_LIMIT:
            return _covered_z3(sc, [fact[0] for fact in facts], used)
    int_flags = {spec.flag for spec in specs if spec.type == "int"}
    if method == "reference":
        # over full ranges the grid depends only on the flags: the cards of one scene share
        # it (the last one is kept), and with it the union of the conditions before a card
        # (each card of a scene of thousands of branches would otherwise make thousands of
        # masks again: issue 19)
        last = memo.get("grid")
        if last is not None and last[0] == used:
            grid = last[1]
        else:
            grid = _Grid(used, axes, int_flags)
            memo["grid"] = (used, grid)
    else:
        # a grid of candidate points (up to CLASS_LIMIT bytes a mask) lives for one card only
        grid = _Grid(used, axes, int_flags)
    others = texts[:-1]
    union = grid.union(others, facts[:-1])
    rest = grid.condition_mask(texts[-1], facts[-1][0]) & ~union
    return (rest & grid.all) == 0, method


def _condition_facts(text: str | None) -> tuple[Any, list[str], list[tuple[str, Any]]]:
    """A condition's tree, its flags in order of appearance, and the ``(flag, constant)``
    of each of its comparisons."""
    Compare = _condition_types()[1]
    flags_of, parse_condition = _condition_functions()
    expr = parse_condition(text)
    return expr, flags_of(expr), [(node.flag, node.value) for node in _atoms(expr) if type(node) is Compare]


def _product(axes: Sequence[list | None]) -> int | None:
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
    And, _, _, _, Not, Or = _condition_types()

    stack = [expr]
    while stack:
        node = stack.pop()
        t = type(node)
        if t is Not:
            stack.append(node.arg)
        elif t is And or t is Or:
            stack.extend(node.args)
        else:
            yield node


class _Grid:
    """Every point of a product of axes, one byte per point: a condition becomes the int
    whose byte ``p`` is 1 exactly when it holds at point ``p``, so conditions combine with
    ``&``, ``|`` and ``~`` at C speed.

    ``int_flags`` names the axes that are ascending integers (an ``int`` flag's range or
    candidate points): a comparison with an integer holds on one or two runs of such an
    axis, found by bisection instead of testing every value."""

    def __init__(self, flags: list[str], axes: list[list], int_flags: AbstractSet[str] = frozenset()):
        self.flags, self.axes = flags, axes
        self.size = _product(axes) or 1
        self.all = int.from_bytes(b"\x01" * self.size, "little")
        self.stride: dict[str, int] = {}
        step = 1
        for f, values in zip(reversed(flags), reversed(axes)):
            self.stride[f] = step
            step *= max(1, len(values))
        self.axis = dict(zip(flags, axes))
        self.int_flags = int_flags
        self._atoms: dict[tuple, int] = {}
        self._conditions: dict[str | None, int] = {}
        self._last: tuple[list, int] = ([], 0)

    def union(self, texts: list[str | None], facts: list) -> int:
        """The union of the masks of ``texts`` (with their :func:`_condition_facts`).  The
        last union asked is kept: when ``texts`` extends (or is a prefix of) the texts it
        was made of, only the difference is added (or it is made again)."""
        last_texts, last_union = self._last
        k = len(last_texts)
        if len(texts) >= k and texts[:k] == last_texts:
            union, start = last_union, k
        else:
            union, start = 0, 0
        for t, fact in zip(texts[start:], facts[start:]):
            union |= self.condition_mask(t, fact[0])
        self._last = (list(texts), union)
        return union

    def condition_mask(self, text: str | None, expr) -> int:
        """:meth:`mask` of ``expr``, the parse of ``text``, remembered by text."""
        mask = self._conditions.get(text)
        if mask is None:
            mask = self._conditions[text] = self.mask(expr)
        return mask

    def _atom_mask(self, flag: str, holds: list[bool]) -> int:
        stride = self.stride[flag]
        block = b"".join((b"\x01" if h else b"\x00") * stride for h in holds)
        return int.from_bytes(block * (self.size // len(block)), "little")

    def _runs_mask(self, flag: str, runs: list[tuple[int, int]]) -> int:
        """The mask of an atom that holds on the index ranges ``runs`` of the flag's axis
        (ascending, disjoint) — the same bytes :meth:`_atom_mask` builds value by value."""
        stride, n = self.stride[flag], len(self.axis[flag])
        parts, at = [], 0
        for lo, hi in runs:
            if hi > lo:
                parts.append(b"\x00" * (stride * (lo - at)))
                parts.append(b"\x01" * (stride * (hi - lo)))
                at = hi
        if not parts:
            return 0
        parts.append(b"\x00" * (stride * (n - at)))
        block = b"".join(parts)
        return int.from_bytes(block * (self.size // len(block)), "little")

    def _compare_mask(self, flag: str, op: str, const: Any) -> int:
        key = (flag, op, type(const), const)
        mask = self._atoms.get(key)
        if mask is None:
            axis = self.axis[flag]
            if flag in self.int_flags and axis and isinstance(const, int):
                c = int(const)  # _compare reads a bool constant as 0/1 against ints
                n, lo, hi = len(axis), bisect_left(axis, c), bisect_right(axis, c)
                runs = {"<": [(0, lo)], "<=": [(0, hi)], ">": [(hi, n)], ">=": [(lo, n)],
                        "==": [(lo, hi)], "!=": [(0, lo), (hi, n)]}[op]
                mask = self._runs_mask(flag, runs)
            else:
                mask = self._atom_mask(flag, [_compare(v, op, const) for v in axis])
            self._atoms[key] = mask
        return mask

    def mask(self, expr) -> int:
        And, Compare, Const, FlagTrue, Not, _ = _condition_types()
        t = type(expr)
        if t is Compare:
            return self._compare_mask(expr.flag, expr.op, expr.value)
        if t is Const:
            return self.all if expr.value else 0
        if t is FlagTrue:
            if expr.flag in self.int_flags and self.axis[expr.flag]:
                return 0  # no integer is ``True``
            return self._atom_mask(expr.flag, [v is True for v in self.axis[expr.flag]])
        if t is Not:
            return self.all & ~self.mask(expr.arg)
        parts = [self.mask(a) for a in expr.args]
        out = parts[0]
        for p in parts[1:]:
            out = (out & p) if t is And else (out | p)
        return out


_TYPES: tuple | None = None


_FUNCTIONS: tuple | None = None


def _condition_functions() -> tuple:
    """``(flags_of, parse_condition)``, imported on first use like :func:`_condition_types`."""
    global _FUNCTIONS
    if _FUNCTIONS is None:
        from .conditions import flags_of, parse_condition

        _FUNCTIONS = (flags_of, parse_condition)
    return _FUNCTIONS


def _condition_types() -> tuple:
    """``(And, Compare, Const, FlagTrue, Not, Or)``, imported on first use (the condition
    module pulls in the grammar, which a run without a shadowing card never needs)."""
    global _TYPES
    if _TYPES is None:
        from .conditions import And, Compare, Const, FlagTrue, Not, Or

        _TYPES = (And, Compare, Const, FlagTrue, Not, Or)
    return _TYPES


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
    """독자가 닿는 장면(또는 분기의 도착 장면)에서 어떤 길로도 `is_ending` 장면에 이르지 않습니다."""
    reached, ending = ctx.reached(), ctx.to_ending()
    to_scene = ctx.to_scenes()
    failed = []
    for c in ctx.with_verdict(NO_ENDING):
        if c.get("target_kind") == SCENE:
            ok = c["target_no"] in reached and c["target_no"] not in ending
        else:
            ok = c.get("scene_id") in reached and to_scene.get(c["target_no"]) not in ending
        if not ok:
            failed.append(c["target_no"])
    return failed


CHECKS.add(CARD_CHECKS.evidence_field_check("C08", "`evidence`의 `field` 이름이 입력에 실제로 있는 열인지 대조합니다."))
CHECKS.add(CARD_CHECKS.evidence_value_check("C09", "`agg` 값이 없는 `evidence`의 `value`가 인용한 줄의 원문 값과 같고, 여러 줄에서 센 값에는 `agg`가 붙었는지 확인합니다."))
CHECKS.add(CARD_CHECKS.polite_check("C10", "`summary`와 `hedge`(있을 때)가 존댓말 한 문장으로 끝나는지 확인합니다."))


def run_storygraph_checks(scenario: Scenario, cards: list[dict[str, Any]]):
    return CHECKS.run(CheckContext(scenario, cards))
