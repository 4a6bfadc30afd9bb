"""Random scenarios with planted defects, and the count of planted against caught.

:func:`generate` builds a scenario of a given size from ``random.Random(seed)`` — the same
seed, size, flag count and plant counts always give the same scenario — made of a
healthy backbone (every scene reached from an entry and reaching an ending, no branch
shadowed, no condition unsatisfiable) and a stated number of each planted defect:

``unreached_scene``
    a scene no branch points at (its own branches lead into the story);
``island``
    two to four scenes that point at each other but at which nothing reached points;
``missing_target``
    a branch of a reached scene whose ``to_scene`` is no scene;
``shadowed_one``
    a branch whose condition implies the condition of the branch right before it;
``shadowed_union``
    a branch covered by two earlier branches together (``t >= 3`` then ``t < 3``) but by
    neither alone;
``unsatisfiable``
    a branch whose condition cannot hold within the flags' ranges (``t > max``,
    ``b and not b`` …), at ``order_no`` 1 or later;
``dead_end``
    one or two reached scenes that lead nowhere and are not endings;
``loop_no_exit``
    two or three reached scenes that lead only to each other;

and the condition-aware findings beyond the verdicts (named after their finding codes):

``stuck_combination``
    a reached scene whose branches leave some flag assignments uncovered (no fallback);
    the generator counts the uncovered assignments itself;
``reached_only_through_dead_branch``
    one to three scenes entered only through a branch that never fires (shadowed by one
    branch, by a union, or unsatisfiable), leading back into the story;
``ending_only_through_dead_branch``
    one or two reached scenes whose only way towards an ending is such a dead branch
    (their live branches loop among themselves);
``unused_flag``
    a flag declared in ``flag_spec`` that no condition uses;
``available_flag_unused``
    a flag listed in a scene's ``available_flags`` that none of its conditions uses;
``comparison_out_of_range``
    a comparison fixed by the flag's range (``t > 9`` with maximum 5), folded into a
    condition so that the condition still means what it did (``c or t > 9``);
``always_true_condition``
    a written condition true for every reader (``t >= 3 or t < 3``) with later branches.

The three plants that make a branch dead (``shadowed_one``, ``shadowed_union``,
``unsatisfiable``) sometimes send it to a fresh scene behind it, whose
``reached-only-through-dead-branch`` finding is then an explained consequence.

Healthy and planted conditions are checked while generating by brute force over the
full product of each scene's flag ranges — the reference definition, with this module's
own small evaluator — so the generator never relies on the code it tests.

:func:`compare` then matches a :class:`~storygraph.domain.LintResult` against the
manifest: per kind, how many plants were caught; every other finding is either
*explained* (a consequence of a plant, e.g. the branches leaving an unreached scene) or
*unexplained* (a false positive).

>>> g = generate(seed=1, scenes=40, plant={"island": 1})
>>> [p.kind for p in g.plants]
['island']
>>> g.to_csv() == generate(seed=1, scenes=40, plant={"island": 1}).to_csv()
True
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from verdicts.errors import ConfigError

__all__ = [
    "KINDS", "PlantSpec", "Plant", "FlagDef", "SceneDef", "BranchDef", "Generated", "generate", "default_plants",
    "Mark", "Outcome", "compare", "observed_marks", "run_fuzz", "render_fuzz_text", "UNION_COLUMNS",
]

#: every plantable defect kind, in report order
KINDS: tuple[str, ...] = (
    "unreached_scene", "island", "missing_target", "shadowed_one", "shadowed_union", "unsatisfiable", "dead_end",
    "loop_no_exit", "stuck_combination", "reached_only_through_dead_branch", "ending_only_through_dead_branch",
    "unused_flag", "available_flag_unused", "comparison_out_of_range", "always_true_condition",
)
#: kinds planted in (and around) a reached backbone scene, its host
_HOSTED: tuple[str, ...] = (
    "missing_target", "shadowed_one", "shadowed_union", "unsatisfiable", "dead_end", "loop_no_exit", "stuck_combination",
    "reached_only_through_dead_branch", "ending_only_through_dead_branch", "available_flag_unused",
    "comparison_out_of_range", "always_true_condition",
)
#: kinds whose plant is a condition, so flag_spec must have a flag
_NEEDS_FLAGS: tuple[str, ...] = (
    "shadowed_one", "shadowed_union", "unsatisfiable", "stuck_combination", "reached_only_through_dead_branch",
    "ending_only_through_dead_branch", "available_flag_unused", "comparison_out_of_range", "always_true_condition",
)
#: the plants that leave a branch that never fires
_DEAD_BRANCH_KINDS: tuple[str, ...] = ("shadowed_one", "shadowed_union", "unsatisfiable")
UNION_COLUMNS = ("scene_id", "title", "is_entry", "is_ending", "available_flags", "branch_id", "from_scene", "to_scene",
                 "condition_expr", "order_no", "flag", "label", "type", "min_value", "max_value", "values")

# verdicts, verbatim (kept local so the generator does not import the rules it tests)
_OK = "끝까지 닿음"
_UNREACHED = "어디서도 안 닿음"
_MISSING = "없는 장면을 가리킴"
_SHADOW = "조건이 겹침"
_NO_END = "끝에 못 감"

PlantSpec = Mapping[str, int]

# ----------------------------------------------------------------------------- words

_PLACES = ("숲길", "다리", "성문", "시장", "우물", "탑", "지하실", "부엌", "정원", "항구", "동굴", "서재", "광장", "골목",
           "언덕", "폐교", "기차역", "옥상", "병원", "교실", "나루터", "사당", "창고", "여관")
_MOMENTS = ("새벽", "한낮", "해질녘", "한밤", "비 오는 날", "안개 속", "축제 날", "눈 내린 아침")
_FLAG_POOL = (
    ("trust", "신뢰도", "int"), ("has_key", "열쇠", "bool"), ("weather", "날씨", "enum"), ("courage", "용기", "int"),
    ("met_guard", "경비와 만남", "bool"), ("route", "경로", "enum"), ("gold", "금화", "int"), ("has_map", "지도", "bool"),
    ("mood", "기분", "enum"), ("fame", "명성", "int"),
)
_ENUM_VALUES = {
    "weather": ("맑음", "흐림", "비", "눈"), "route": ("북쪽", "남쪽", "바닷길"), "mood": ("기쁨", "불안", "분노"),
}
_BOOL_STYLES = (("Y", "N"), ("true", "false"), ("1", "0"), ("참", "거짓"), ("yes", "no"))
# flags left over from an earlier draft (the ``unused_flag`` plant); never in _FLAG_POOL
_SPARE_POOL = (
    ("old_trust", "예전 신뢰도", "int"), ("has_lamp", "등불", "bool"), ("season", "계절", "enum"),
    ("met_ghost", "유령과 만남", "bool"), ("debt", "빚", "int"), ("rumor", "소문", "enum"),
)
_SPARE_VALUES = {"season": ("봄", "여름", "가을", "겨울"), "rumor": ("없음", "퍼짐", "잠잠")}

# ----------------------------------------------------------------------------- flags and conditions


@dataclass(frozen=True)
class FlagDef:
    flag: str
    label: str
    type: str  # bool | int | enum
    min_value: int | None = None
    max_value: int | None = None
    values: tuple[str, ...] = ()

    def domain(self) -> tuple[Any, ...]:
        if self.type == "bool":
            return (False, True)
        if self.type == "enum":
            return self.values
        assert self.min_value is not None and self.max_value is not None
        return tuple(range(self.min_value, self.max_value + 1))


_OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b, "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
}
_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}


@dataclass(frozen=True)
class Cond:
    """A small condition tree with its own text and its own evaluation.

    ``op``: ``true`` (empty text), ``cmp`` (flag, operator, value), ``flag`` (bool flag
    true), ``not``, ``and``, ``or``.  ``style`` picks one of the spellings creators use.
    """

    op: str
    args: tuple["Cond", ...] = ()
    flag: str | None = None
    cmp: str | None = None
    value: Any = None
    style: int = 0

    def holds(self, a: Mapping[str, Any]) -> bool:
        if self.op == "true":
            return True
        if self.op == "flag":
            return bool(a[self.flag])
        if self.op == "cmp":
            return _OPS[self.cmp](a[self.flag], self.value)  # type: ignore[index]
        if self.op == "not":
            return not self.args[0].holds(a)
        if self.op == "and":
            return all(x.holds(a) for x in self.args)
        return any(x.holds(a) for x in self.args)

    def flags(self) -> set[str]:
        out = {self.flag} if self.flag else set()
        for x in self.args:
            out |= x.flags()
        return out

    def text(self) -> str:
        if self.op == "true":
            return ""
        if self.op == "flag":
            return str(self.flag)
        if self.op == "cmp":
            value = f'"{self.value}"' if isinstance(self.value, str) else str(self.value)
            cmp = "=" if self.cmp == "==" and self.style == 2 else self.cmp
            if self.style == 1 and isinstance(self.value, int):
                return f"{value} {_FLIP[self.cmp] if cmp != '=' else '=='} {self.flag}"  # type: ignore[index]
            return f"{self.flag} {cmp} {value}"
        if self.op == "not":
            inner = self.args[0]
            body = (inner.text() or "true") if inner.op in ("flag", "not", "true") else f"({inner.text()})"
            return f"!{body}" if self.style == 1 else f"not {body}"
        word = {"and": ("and", "&&"), "or": ("or", "||")}[self.op][self.style % 2]
        parts = []
        for x in self.args:
            t = x.text() or "true"  # the empty condition, inside a larger one
            parts.append(f"({t})" if x.op in ("and", "or") and x.op != self.op else t)
        return f" {word} ".join(parts)


TRUE = Cond("true")


class _Space:
    """The full product of a scene's flag ranges, with conditions as bit masks over it."""

    def __init__(self, flags: Sequence[FlagDef]):
        self.flags = list(flags)
        names = [f.flag for f in flags]
        self.points = [dict(zip(names, combo)) for combo in itertools.product(*(f.domain() for f in flags))]
        self.full = (1 << len(self.points)) - 1

    def mask(self, cond: Cond) -> int:
        m = 0
        for i, p in enumerate(self.points):
            if cond.holds(p):
                m |= 1 << i
        return m

    def point(self, index: int) -> dict[str, Any]:
        return self.points[index]


def _bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def _atom(rng: random.Random, f: FlagDef) -> Cond:
    if f.type == "bool":
        c = Cond("flag", flag=f.flag)
        return Cond("not", (c,), style=rng.randrange(2)) if rng.random() < 0.35 else c
    if f.type == "enum":
        return Cond("cmp", flag=f.flag, cmp=rng.choice(("==", "==", "!=")), value=rng.choice(f.values), style=rng.choice((0, 0, 2)))
    lo, hi = f.min_value, f.max_value
    op = rng.choice((">=", ">=", "<", "<=", ">", "==", "!="))
    # never a comparison whose answer the range already fixes (``t > max``, ``t <= max``)
    if op in (">=", "<"):
        value = rng.randint(lo + 1, hi)  # type: ignore[operator]
    elif op in (">", "<="):
        value = rng.randint(lo, hi - 1)  # type: ignore[operator]
    else:
        value = rng.randint(lo, hi)  # type: ignore[arg-type]
    return Cond("cmp", flag=f.flag, cmp=op, value=value, style=rng.choice((0, 0, 0, 1, 2)))


def _two(rng: random.Random, flags: Sequence[FlagDef]) -> tuple[Cond, Cond]:
    """Two atoms, over two different flags when there are two."""
    f, g = rng.sample(list(flags), 2) if len(flags) > 1 else (flags[0], flags[0])
    a, b = _atom(rng, f), _atom(rng, g)
    while b.text() == a.text() and f.type != "bool":
        b = _atom(rng, g)
    return a, b


def _random_cond(rng: random.Random, flags: Sequence[FlagDef]) -> Cond:
    r = rng.random()
    if r < 0.55 or (len(flags) == 1 and flags[0].type == "bool"):
        return _atom(rng, rng.choice(flags))
    if r < 0.8:
        return Cond("and", _two(rng, flags), style=rng.randrange(2))
    if r < 0.93:
        return Cond("or", _two(rng, flags), style=rng.randrange(2))
    return Cond("and", (Cond("or", _two(rng, flags)), _atom(rng, rng.choice(flags))), style=rng.randrange(2))


def _exact(point: Mapping[str, Any], flags: Sequence[FlagDef]) -> Cond:
    """The condition true at ``point`` only."""
    parts = []
    for f in flags:
        if f.type == "bool":
            c = Cond("flag", flag=f.flag)
            parts.append(c if point[f.flag] else Cond("not", (c,)))
        else:
            parts.append(Cond("cmp", flag=f.flag, cmp="==", value=point[f.flag]))
    return parts[0] if len(parts) == 1 else Cond("and", tuple(parts))


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


# ----------------------------------------------------------------------------- the scenario


@dataclass
class SceneDef:
    scene_id: str
    title: str
    is_entry: bool = False
    is_ending: bool = False
    available_flags: tuple[str, ...] = ()


@dataclass
class BranchDef:
    branch_id: str
    from_scene: str
    to_scene: str
    condition: Cond = TRUE
    order_no: int = 1

    @property
    def condition_expr(self) -> str:
        return self.condition.text()


@dataclass
class Mark:
    """One observable fact: a card's verdict (with its ``overlapping_branch_id``), a lint
    finding, an input issue or a failed check."""

    what: str  # card | finding | issue | check
    target: str
    verdict: str | None = None
    overlapping_branch_id: str | None = None
    code: str | None = None
    #: for an expected finding: values its ``data`` must hold (not part of the key)
    data: dict[str, Any] | None = None

    def key(self) -> tuple:
        return (self.what, self.target, self.verdict, self.overlapping_branch_id, self.code)

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in (("what", self.what), ("target", self.target), ("verdict", self.verdict),
                                  ("overlapping_branch_id", self.overlapping_branch_id), ("code", self.code),
                                  ("data", self.data)) if v is not None}

    @classmethod
    def finding(cls, target: str, code: str, data: dict[str, Any] | None = None) -> "Mark":
        return cls("finding", target, code=code, data=data)

    @classmethod
    def card(cls, target: str, verdict: str, overlap: str | None = None) -> "Mark":
        return cls("card", target, verdict, overlap)


@dataclass
class Plant:
    """One planted defect: what must be observed for it to count as caught (``expect``),
    what else it causes (``consequences``), and for shadowing how many earlier branches
    cover the shadowed branch (``cover`` = ``one`` or ``union``)."""

    kind: str
    scenes: list[str] = field(default_factory=list)
    branches: list[str] = field(default_factory=list)
    expect: list[Mark] = field(default_factory=list)
    consequences: list[Mark] = field(default_factory=list)
    shadowed: str | None = None
    cover: str | None = None
    note: str = ""
    #: the flag a flag plant is about (``unused_flag``, ``available_flag_unused``)
    flag: str | None = None

    def where(self) -> str:
        """The planted scenes, branches and flag, for messages."""
        return ", ".join(self.scenes + self.branches + ([self.flag] if self.flag else []))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "scenes": self.scenes, "branches": self.branches,
                               "expect": [m.to_json() for m in self.expect],
                               "consequences": [m.to_json() for m in self.consequences]}
        if self.shadowed:
            out["shadowed"] = self.shadowed
            out["cover"] = self.cover
        if self.flag:
            out["flag"] = self.flag
        if self.note:
            out["note"] = self.note
        return out


@dataclass
class Generated:
    seed: int
    flags: list[FlagDef]
    scenes: list[SceneDef]
    branches: list[BranchDef]
    plants: list[Plant]
    bool_style: tuple[str, str] = ("Y", "N")
    counts: dict[str, int] = field(default_factory=dict)

    # -- writing
    def rows(self) -> list[dict[str, str]]:
        """The union-CSV rows: scenes, then branches, then flags."""
        yes, no = self.bool_style
        rows: list[dict[str, str]] = []
        for s in self.scenes:
            rows.append({"scene_id": s.scene_id, "title": s.title, "is_entry": yes if s.is_entry else no,
                         "is_ending": yes if s.is_ending else no, "available_flags": ",".join(s.available_flags)})
        for b in self.branches:
            rows.append({"branch_id": b.branch_id, "from_scene": b.from_scene, "to_scene": b.to_scene,
                         "condition_expr": b.condition_expr, "order_no": str(b.order_no)})
        for f in self.flags:
            rows.append({"flag": f.flag, "label": f.label, "type": f.type,
                         "min_value": "" if f.min_value is None else str(f.min_value),
                         "max_value": "" if f.max_value is None else str(f.max_value), "values": "|".join(f.values)})
        return rows

    def to_csv(self, rows: Iterable[Mapping[str, str]] | None = None) -> str:
        buf = io.StringIO()
        w = csv.DictWriter(buf, fieldnames=list(UNION_COLUMNS), lineterminator="\n")
        w.writeheader()
        for r in self.rows() if rows is None else rows:
            w.writerow({c: r.get(c, "") for c in UNION_COLUMNS})
        return buf.getvalue()

    def manifest(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "scenes": len(self.scenes), "branches": len(self.branches), "flags": len(self.flags),
            "planted": {k: self.counts.get(k, 0) for k in KINDS},
            "plants": [p.to_json() for p in self.plants],
        }

    def write(self, out: str | Path) -> tuple[Path, Path]:
        """Write ``scenario.csv`` and ``manifest.json`` into ``out`` (created)."""
        out = Path(out)
        out.mkdir(parents=True, exist_ok=True)
        scenario = out / "scenario.csv"
        manifest = out / "manifest.json"
        scenario.write_text(self.to_csv(), encoding="utf-8")
        manifest.write_text(json.dumps(self.manifest(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        return scenario, manifest

    # -- variants used by the properties
    def renamed(self, rng: random.Random) -> tuple["Generated", dict[str, str]]:
        """The same scenario with every scene and branch id replaced by a fresh random
        one; returns it with the old → new mapping (the manifest is renamed too)."""
        ids = [s.scene_id for s in self.scenes] + [b.branch_id for b in self.branches]
        missing = {b.to_scene for b in self.branches} - {s.scene_id for s in self.scenes}
        ids += sorted(missing)
        fresh = rng.sample(range(10 ** 6, 10 ** 7), len(ids))
        prefix = {s.scene_id: "장면" for s in self.scenes} | {b.branch_id: "분기" for b in self.branches}
        mapping = {old: f"{prefix.get(old, '없음')}-{n}" for old, n in zip(ids, fresh)}
        m = mapping.get

        def mk(mark: Mark) -> Mark:
            data = None if mark.data is None else dict(mark.data)
            if data is not None:  # branch ids inside expected data are renamed too
                if "dead_branches" in data:
                    data["dead_branches"] = sorted(m(x, x) for x in data["dead_branches"])
                if "later" in data:  # in branch order
                    data["later"] = [m(x, x) for x in data["later"]]
            return Mark(mark.what, m(mark.target, mark.target), mark.verdict,
                        m(mark.overlapping_branch_id) if mark.overlapping_branch_id else None, mark.code, data)

        scenes = [SceneDef(m(s.scene_id), s.title, s.is_entry, s.is_ending, s.available_flags) for s in self.scenes]
        branches = [BranchDef(m(b.branch_id), m(b.from_scene), m(b.to_scene), b.condition, b.order_no) for b in self.branches]
        plants = [Plant(p.kind, [m(x) for x in p.scenes], [m(x) for x in p.branches], [mk(x) for x in p.expect],
                        [mk(x) for x in p.consequences], m(p.shadowed) if p.shadowed else None, p.cover, p.note, p.flag)
                  for p in self.plants]
        return Generated(self.seed, self.flags, scenes, branches, plants, self.bool_style, dict(self.counts)), mapping

    def shuffled_csv(self, rng: random.Random) -> str:
        """The same tables with the rows in a random order (scenes, branches and flags
        mixed)."""
        rows = self.rows()
        rng.shuffle(rows)
        return self.to_csv(rows)


def default_plants(scenes: int) -> dict[str, int]:
    """One of each kind per 200 scenes (at least one)."""
    n = max(1, scenes // 200)
    return {k: n for k in KINDS}


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


def _used(conds: Sequence[Cond], flags: Sequence[FlagDef]) -> tuple[str, ...]:
    """The scene's ``available_flags``: exactly the flags its conditions use (a listed
    flag that no condition tests is itself a finding, ``available-flag-unused``)."""
    used: set[str] = set()
    for c in conds:
        used |= c.flags()
    return tuple(f.flag for f in flags if f.flag in used)


def _product(flags: Sequence[FlagDef]) -> int:
    n = 1
    for f in flags:
        n *= len(f.domain())
    return n


class _Builder:
    def __init__(self, rng: random.Random, n_scenes: int, flags: list[FlagDef]):
        self.rng = rng
        self.flags = flags
        self.by_name = {f.flag: f for f in flags}
        self.width = max(3, len(str(n_scenes)))
        self.scene_count = 0
        self.branch_count = 0
        self.scenes: list[SceneDef] = []
        self.branches: list[BranchDef] = []
        self.gone = 0
        #: flags declared for a flag plant only (healthy wiring never picks them)
        self.spare: list[FlagDef] = []

    def new_scene(self, **kw: Any) -> SceneDef:
        self.scene_count += 1
        title = f"{self.rng.choice(_MOMENTS)}의 {self.rng.choice(_PLACES)}"
        s = SceneDef(f"S{self.scene_count:0{self.width}d}", title, **kw)
        self.scenes.append(s)
        return s

    def new_branch_id(self) -> str:
        self.branch_count += 1
        return f"B{self.branch_count:0{self.width + 1}d}"

    def spare_flag(self) -> FlagDef:
        """A new flag no condition uses, named like one left over from an earlier draft."""
        rng = self.rng
        taken = {f.flag for f in self.flags} | {f.flag for f in self.spare}
        options = [x for x in _SPARE_POOL if x[0] not in taken]
        if options:
            name, label, kind = rng.choice(options)
        else:
            n = len(self.spare) + 1
            while f"spare_{n}" in taken:
                n += 1
            name, label, kind = f"spare_{n}", f"남은 표식 {n}", rng.choice(("bool", "int", "enum"))
        if kind == "bool":
            flag = FlagDef(name, label, "bool")
        elif kind == "enum":
            flag = FlagDef(name, label, "enum", values=_SPARE_VALUES.get(name) or tuple(f"값{j + 1}" for j in range(rng.randint(2, 4))))
        else:
            lo = rng.choice((0, 0, 1))
            flag = FlagDef(name, label, "int", lo, lo + rng.randint(3, 9))
        self.spare.append(flag)
        return flag

    def pick_flags(self, k: int, points: int = 0) -> list[FlagDef]:
        """``k`` random flags, more when their product has fewer than ``points`` values."""
        chosen = self.rng.sample(self.flags, min(k, len(self.flags)))
        rest = [f for f in self.flags if f not in chosen]
        self.rng.shuffle(rest)
        while rest and _product(chosen) < points:
            chosen.append(rest.pop())
        return chosen

    def healthy_conditions(self, n: int, flags: Sequence[FlagDef], space: _Space, *, complete: bool = True,
                           reserve: int = 0) -> tuple[list[Cond], int]:
        """``n`` conditions in order, none shadowed by the ones before and none
        unsatisfiable; also returns the assignments still uncovered after them.

        ``complete``: together they cover every assignment (no reader is stuck), the
        last one being the fallback.  Otherwise ``reserve`` assignments are left
        uncovered for branches the caller adds after them.
        """
        rng = self.rng
        left = space.full
        if left.bit_count() < n:  # pragma: no cover - the flag ranges are sized to avoid it
            raise ConfigError(f"플래그 값 조합 {left.bit_count()}개로는 겹치지 않는 분기 {n}개를 만들 수 없습니다.")
        conds: list[Cond] = []
        for i in range(n):
            last = i == n - 1
            if last and complete and rng.random() < 0.4:
                conds.append(TRUE)
                left = 0
                break
            after = n - i - 1 + (0 if complete else reserve)  # still to come: each needs a point of its own
            chosen = None
            for _ in range(12):
                c = _random_cond(rng, flags)
                m = space.mask(c)
                if not m & left:
                    continue
                if (last and complete and not left & ~m) or (not (last and complete) and (left & ~m).bit_count() >= max(after, 1 if not complete else after)):
                    chosen = (c, m)
                    break
            if chosen is None:
                # exactly one uncovered point: always fits while points remain
                c = TRUE if last and complete else _exact(space.point(rng.choice(_bits(left))), flags)
                chosen = (c, space.mask(c))
            conds.append(chosen[0])
            left &= ~chosen[1]
        return conds, left

    def add_branches(self, scene: SceneDef, targets: Sequence[str], conds: Sequence[Cond]) -> list[BranchDef]:
        start = self.rng.choice((1, 1, 1, 10)) if len(targets) > 1 else 1
        step = 10 if start == 10 else 1
        out = []
        for i, (to, c) in enumerate(zip(targets, conds)):
            b = BranchDef(self.new_branch_id(), scene.scene_id, to, c, start + i * step)
            self.branches.append(b)
            out.append(b)
        return out

    def wire(self, scene: SceneDef, targets: Sequence[str], *, allow_undecided: bool = True) -> list[BranchDef]:
        """Give ``scene`` branches to ``targets`` with healthy conditions over a few of
        its flags (sometimes none, sometimes undeclared ``available_flags``)."""
        rng = self.rng
        n = len(targets)
        if n == 0:
            return []
        if n == 1 and rng.random() < 0.5:
            scene.available_flags = ()
            return self.add_branches(scene, targets, [TRUE])
        if not self.flags:
            # no flags at all: unconditioned branches, and with empty available_flags the
            # order between them is not judged (the cards hedge instead)
            scene.available_flags = ()
            return self.add_branches(scene, targets, [TRUE] * n)
        flags = self.pick_flags(rng.randint(1, 3), n + 1)
        space = _Space(flags)
        conds, _ = self.healthy_conditions(n, flags, space)
        if allow_undecided and n > 1 and rng.random() < 0.05:
            # empty available_flags: shadowing is not decided here (the cards hedge)
            scene.available_flags = ()
        else:
            scene.available_flags = _used(conds, flags)
        return self.add_branches(scene, targets, conds)


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
        raise ConfigError("--flags 는 0 이상이어야 합니다.")
    needs_flags = [k for k in _NEEDS_FLAGS if counts[k]]
    if needs_flags and flags < 1:
        raise ConfigError(f"조건 결함({', '.join(needs_flags)})을 심으려면 플래그가 하나 이상 있어야 합니다 (--flags).")
    rng = random.Random(seed)
    flag_defs = _make_flags(rng, flags)
    b = _Builder(rng, scenes, flag_defs)

    # scene budget: planted scenes first, the rest is the healthy backbone
    sizes = {
        "unreached_scene": [1] * counts["unreached_scene"],
        "island": [rng.randint(2, 4) for _ in range(counts["island"])],
        "dead_end": [rng.randint(1, 2) for _ in range(counts["dead_end"])],
        "loop_no_exit": [rng.randint(2, 3) for _ in range(counts["loop_no_exit"])],
        "reached_only_through_dead_branch": [rng.randint(1, 3) for _ in range(counts["reached_only_through_dead_branch"])],
        "ending_only_through_dead_branch": [rng.randint(1, 2) for _ in range(counts["ending_only_through_dead_branch"])],
        # a fresh scene behind a planted dead branch, now and then
        "behind": [int(rng.random() < 0.25) for _ in range(sum(counts[k] for k in _DEAD_BRANCH_KINDS))],
    }
    planted_scenes = sum(sum(v) for v in sizes.values())
    hosts_needed = sum(counts[k] for k in _HOSTED)
    healthy_n = scenes - planted_scenes
    if healthy_n < max(2, hosts_needed + 2):
        raise ConfigError(f"장면 {scenes}개로는 심을 결함이 들어갈 자리가 모자랍니다 (결함 장면 {planted_scenes}개, 붙일 장면 {hosts_needed}개가 더 필요합니다).")

    # -- healthy backbone: a chain of forward links guarantees reach and ending
    entries_n = 1 + healthy_n // 700
    healthy = [b.new_scene(is_entry=i < entries_n) for i in range(healthy_n)]
    endings = {healthy_n - 1} | {i for i in range(entries_n, healthy_n - 1) if rng.random() < 0.06}
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
    host_kinds = [k for k in _HOSTED for _ in range(counts[k])]
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
            plants.append(_plant_in_host(b, kind, scene, targets, size_iter, healthy_target))
        if progress is not None and (done % 200 == 0 or done == total - 1):
            progress(done + 1, total)

    # -- scenes nobody reaches
    for _ in range(counts["unreached_scene"]):
        s = b.new_scene()
        outs = [healthy_target() for _ in range(rng.choice((0, 1, 1, 2)))]
        made = b.wire(s, outs)
        plants.append(Plant("unreached_scene", [s.scene_id], [x.branch_id for x in made], [Mark.card(s.scene_id, _UNREACHED)],
                            [Mark.card(x.branch_id, _UNREACHED) for x in made]))
    for k in sizes["island"]:
        group = [b.new_scene() for _ in range(k)]
        made: list[BranchDef] = []
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
                            [Mark.card(s.scene_id, _UNREACHED) for s in group], [Mark.card(x.branch_id, _UNREACHED) for x in made]))

    # interleave the scene rows so that planted scenes are not all at the end
    order = b.scenes[:]
    rng.shuffle(order)
    entries_first = [s for s in order if s.is_entry] + [s for s in order if not s.is_entry]
    branches_by_scene: dict[str, list[BranchDef]] = {}
    for br in b.branches:
        branches_by_scene.setdefault(br.from_scene, []).append(br)
    branch_rows: list[BranchDef] = []
    for s in entries_first:
        group = branches_by_scene.get(s.scene_id, [])
        if rng.random() < 0.2:
            rng.shuffle(group)  # rows need not be in order_no order
        branch_rows += group
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
            p.consequences.append(Mark.finding(p.flag, "unused-flag"))  # listed in one scene, used in none
    for spare in b.spare:  # not all at the end
        flag_defs.insert(rng.randint(0, len(flag_defs)), spare)
    return Generated(seed, flag_defs, entries_first, branch_rows, plants, rng.choice(_BOOL_STYLES), counts)


def _plant_in_host(b: _Builder, kind: str, host: SceneDef, targets: list[str], size_iter, healthy_target) -> Plant:
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
            return Plant(kind, [], [entering.branch_id], [Mark.card(entering.branch_id, _MISSING)], [])
        return Plant(kind, [s.scene_id for s in extra_scenes], [entering.branch_id] + [x.branch_id for x in extra_branches],
                     [Mark.card(s.scene_id, _NO_END) for s in extra_scenes],
                     [Mark.card(x.branch_id, _NO_END) for x in [entering] + extra_branches])
    # condition plants: the host needs flags
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


def _condition_plant(b: _Builder, kind: str, host: SceneDef, targets: list[str], dead_to: str | None = None) -> Plant | None:
    """Try once to plant a condition defect in ``host``; ``None`` when the random
    choice did not fit (the caller tries again; nothing is committed before success).
    The branch that never fires goes to ``dead_to`` when given (else to one of
    ``targets``, which all keep a live branch)."""
    rng = b.rng
    flags = b.pick_flags(rng.randint(1, 3), len(targets) + 4)
    space = _Space(flags)
    # every target keeps its branch (the backbone may depend on it)
    pre_n = rng.randint(max(0, len(targets) - 2), max(0, len(targets) - 1))
    if kind == "shadowed_one":
        n = max(1, len(targets))
        conds, left = b.healthy_conditions(n, flags, space)
        a = rng.randrange(len(conds))
        ca = conds[a]
        if ca.op == "true":
            cb = _random_cond(rng, flags)  # after a fallback with no condition
        elif rng.random() < 0.25:
            cb = ca  # the same condition twice
        else:
            cb = Cond("and", (ca, _atom(rng, rng.choice(flags))), style=rng.randrange(2))
        mb = space.mask(cb)
        if not mb:
            return None
        # must not be covered by a single branch other than ``a`` alone? covered by one is
        # what we plant, and any single cover is fine; but no branch after it may become
        # shadowed (it cannot: cb implies ca, so nothing new is covered)
        conds = conds[: a + 1] + [cb] + conds[a + 1:]
        dests = targets[: a + 1] + [dead_to or rng.choice(targets)] + targets[a + 1:]
        host.available_flags = _used(conds, flags)
        made = b.add_branches(host, dests, conds)
        shadowed, previous = made[a + 1], made[a]
        # when the covering condition is the scene's last (complete) one it holds for
        # everybody: that is reported too, and is the same defect seen from the cover
        always = [Mark("finding", previous.branch_id, code="always-true-condition")]
        return Plant(kind, [], [previous.branch_id, shadowed.branch_id],
                     [Mark.card(previous.branch_id, _SHADOW, shadowed.branch_id)], always, shadowed.branch_id, "one")
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
            c = _random_cond(rng, flags) if rng.random() < 0.8 else TRUE
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
        host.available_flags = _used(conds, flags)
        made = b.add_branches(host, dests, conds)
        covers, shadowed = made[-3:-1], made[-1]
        return Plant(kind, [], [x.branch_id for x in made[-3:]], [Mark.card(covers[1].branch_id, _SHADOW, shadowed.branch_id)], [],
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
    host.available_flags = _used(conds, flags)
    made = b.add_branches(host, dests, conds)
    bad = made[pos]
    consequences = [Mark.card(made[pos - 1].branch_id, _SHADOW, bad.branch_id)] if pos > 0 else []
    # ``t > max`` and the like also compare outside the flag's range
    consequences.append(Mark("finding", bad.branch_id, code="comparison-out-of-range"))
    return Plant(kind, [], [bad.branch_id], [Mark("finding", bad.branch_id, code="unsatisfiable-condition")], consequences,
                 bad.branch_id, None, note="order_no 1" if pos == 0 else "")


def _reached_only_plant(b: _Builder, host: SceneDef, targets: list[str], size: int, healthy_target) -> Plant:
    """``size`` fresh scenes in a row, entered only through a dead branch of ``host``
    and leading back into the story."""
    rng = b.rng
    chain = [b.new_scene() for _ in range(size)]
    via = rng.choice(_DEAD_BRANCH_KINDS)
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


def _ending_only_plant(b: _Builder, host: SceneDef, targets: list[str], size: int, healthy_target) -> Plant:
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
    via = rng.choice(_DEAD_BRANCH_KINDS)
    inner = _retry(via, first, lambda: _condition_plant(b, via, first, live, dead_to=exit_to))
    dead = inner.shadowed
    assert dead is not None
    return Plant("ending_only_through_dead_branch", [x.scene_id for x in loop],
                 [entering[pos].branch_id] + inner.branches + [x.branch_id for x in made],
                 [Mark.finding(x.scene_id, "ending-only-through-dead-branch", {"dead_branches": [dead]}) for x in loop],
                 inner.expect + inner.consequences, note=f"죽은 분기 {dead} ({via})")


def _stuck_plant(b: _Builder, host: SceneDef, targets: list[str]) -> Plant | None:
    """``host`` with branches to every target, none shadowed, but no fallback: some
    assignments of its flags take no branch.  How many is counted here, by brute force
    over the product of the scene's flags."""
    rng = b.rng
    n = len(targets)
    flags = b.pick_flags(rng.randint(1, 3), n + 2)
    if _product(flags) < n + 1:
        return None
    conds, _ = b.healthy_conditions(n, flags, _Space(flags), complete=False, reserve=1)
    available = _used(conds, flags)
    own = _Space([f for f in flags if f.flag in available])  # what the scene's available_flags span
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
    c = _random_cond(rng, flags)
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


def _always_true_plant(b: _Builder, host: SceneDef, targets: list[str]) -> Plant | None:
    """Healthy branches to all but the last target, then a written condition true for
    everybody (to the last target), then one or two branches it leaves dead."""
    rng = b.rng
    n = len(targets)
    flags = b.pick_flags(rng.randint(1, 3), n + 1)
    space = _Space(flags)
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
            c = _random_cond(rng, flags)
            m = space.mask(c)
            if m and m != space.full:  # may fire but for the cover, and not itself always true
                later.append(c)
                break
        else:
            return None
    conds = pre + [cover] + later
    host.available_flags = _used(conds, flags)
    made = b.add_branches(host, list(targets) + [rng.choice(targets) for _ in later], conds)
    always = made[n - 1]
    dead = made[n:]
    consequences = [Mark.card(made[j - 1].branch_id, _SHADOW, made[j].branch_id) for j in range(n, len(made))]
    if fixed:
        consequences.append(Mark.finding(always.branch_id, "comparison-out-of-range"))
    return Plant("always_true_condition", [], [always.branch_id] + [x.branch_id for x in dead],
                 [Mark.finding(always.branch_id, "always-true-condition", {"later": [x.branch_id for x in dead]})], consequences)


def _scene_flags(made: Sequence[BranchDef]) -> set[str]:
    used: set[str] = set()
    for x in made:
        used |= x.condition.flags()
    return used


def _out_of_range_plant(b: _Builder, host: SceneDef, targets: list[str]) -> Plant:
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
    space = _Space([f for f in b.flags if f.flag in used | {g.flag}])
    assert space.mask(new) == space.mask(old), "the planted comparison must not change what the condition means"
    br.condition = new
    host.available_flags = _used([x.condition for x in made], b.flags)
    return Plant("comparison_out_of_range", [], [br.branch_id],
                 [Mark.finding(br.branch_id, "comparison-out-of-range", {"op": atom.cmp, "value": atom.value, "always": truth})], [])


def _available_unused_plant(b: _Builder, host: SceneDef, targets: list[str]) -> Plant:
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
        c = rng.randint(f.min_value + 1, f.max_value)  # type: ignore[operator]
        overlap = rng.randint(0, 1)
        pair = [Cond("cmp", flag=f.flag, cmp=">=", value=c, style=rng.choice((0, 1))),
                Cond("cmp", flag=f.flag, cmp="<", value=c + overlap, style=rng.choice((0, 1)))]
        if c + overlap > f.max_value:  # type: ignore[operator]
            return None
    rng.shuffle(pair)
    return pair[0], pair[1]


# ----------------------------------------------------------------------------- comparing


@dataclass
class Outcome:
    """Planted against caught, per kind, and every other finding explained or not."""

    planted: dict[str, int]
    caught: dict[str, int]
    missed: list[dict[str, Any]]
    explained: list[dict[str, Any]]
    unexplained: list[dict[str, Any]]
    checks_failed: list[str]

    @property
    def ok(self) -> bool:
        return not self.missed and not self.unexplained and not self.checks_failed

    def to_json(self) -> dict[str, Any]:
        return {"planted": self.planted, "caught": self.caught, "missed": self.missed, "explained": self.explained,
                "unexplained": self.unexplained, "checks_failed": self.checks_failed, "ok": self.ok}


def observed_marks(report: Any) -> list[Mark]:
    """Every finding of a lint report as a :class:`Mark`: non-passing cards, lint
    findings, input issues and failed checks."""
    out = [Mark.card(c.target_no, c.verdict, c.overlapping_branch_id) for c in report.cards if c.verdict != _OK]
    out += [Mark("finding", f.target, code=f.code) for f in report.findings]
    out += [Mark("issue", i.where(), code=i.reason) for i in report.issues]
    return out


def compare(gen: Generated, report: Any) -> Outcome:
    """Match a lint report of ``gen``'s scenario against its plants.

    A plant is caught when every mark it expects is observed — a finding with the
    planted values in its ``data`` (for a stuck combination the count and total the
    generator counted, and an example under which the generator's own evaluator finds
    no branch that fires; for a dead branch the branch named) — and, for shadowing, the
    analysis found the planted number of covering branches (one, or two or more).
    """
    seen = {m.key(): m for m in observed_marks(report)}
    data: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for f in report.findings:
        data.setdefault((f.target, f.code), []).append(f.data or {})
    shadowed = getattr(getattr(report, "analysis", None), "shadowed", {})
    caught = {k: 0 for k in KINDS}
    planted = {k: 0 for k in KINDS}
    missed: list[dict[str, Any]] = []
    reasons: dict[tuple, str] = {}
    for p in gen.plants:
        planted[p.kind] += 1
        ok = all(m.key() in seen for m in p.expect)
        why = "" if ok else "기대한 판정이 나오지 않음"
        for m in p.expect if ok else ():
            if m.data is None:
                continue
            found = data.get((m.target, m.code or ""), [])
            match = next((d for d in found if _holds_data(d, m.data)), None)
            if match is None:
                ok, why = False, f"{m.target}의 {m.code} 값이 다름: 기대 {m.data}, 실제 {found}"
            elif m.code == "stuck-combination":
                why = _stuck_example_wrong(gen, m.target, match.get("example"))
                ok = not why
            if not ok:
                break
        if ok and p.cover is not None:
            info = shadowed.get(p.shadowed)
            size = len(info.covered_by) if info is not None else 0
            ok = info is not None and not info.unsatisfiable and ((size == 1) if p.cover == "one" else (size >= 2))
            why = "" if ok else f"덮는 분기 수가 다름 ({size})"
        if ok:
            caught[p.kind] += 1
        else:
            missed.append({**p.to_json(), "why": why})
        for m in p.expect:
            reasons.setdefault(m.key(), f"{p.kind} 결함 자체 ({p.where()})")
        for m in p.consequences:
            reasons.setdefault(m.key(), f"{p.kind} 결함의 결과 ({p.where()})")
    explained: list[dict[str, Any]] = []
    unexplained: list[dict[str, Any]] = []
    planted_keys = {m.key() for p in gen.plants for m in p.expect}
    for key, mark in seen.items():
        if key in planted_keys:
            continue
        if key in reasons:
            explained.append({**mark.to_json(), "because": reasons[key]})
        else:
            unexplained.append(mark.to_json())
    failed = [c.id for c in report.checks if not c.passed]
    return Outcome(planted, caught, missed, explained, unexplained, failed)


def _holds_data(found: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    """Every value of ``want`` is in ``found`` (lists of dead branches in any order)."""
    for k, v in want.items():
        got = found.get(k)
        if k == "dead_branches":
            if sorted(got or []) != sorted(v):
                return False
        elif got != v or type(got) is not type(v):
            return False
    return True


def _stuck_example_wrong(gen: Generated, scene_id: str, example: Any) -> str:
    """Why a stuck combination's example is not one (empty when it is): it must give
    every flag of the scene a value in its range, and no branch of the scene may hold
    under it — by the generator's own evaluator."""
    scene = next((s for s in gen.scenes if s.scene_id == scene_id), None)
    if scene is None or not isinstance(example, Mapping):
        return f"{scene_id}: 예시 조합이 없음"
    if set(example) != set(scene.available_flags):
        return f"{scene_id}: 예시 조합의 플래그 {sorted(example)}이(가) available_flags와 다름"
    flags = {f.flag: f for f in gen.flags}
    for name, value in example.items():
        domain = flags[name].domain()
        if not any(value == v and type(value) is type(v) for v in domain):
            return f"{scene_id}: 예시 조합의 {name}={value!r}이(가) 범위 밖"
    for br in gen.branches:
        if br.from_scene == scene_id and br.condition.holds(example):
            return f"{scene_id}: 예시 조합 {dict(example)}에서 {br.branch_id}이(가) 걸림"
    return ""


def run_fuzz(seed: int, scenes: int, flags: int = 4, plant: PlantSpec | None = None, out: str | Path | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> tuple[Generated, Any, Outcome, dict[str, float]]:
    """Generate, write (when ``out``), lint and compare; returns the timings in seconds
    too (``generate``, ``lint``, ``compare``, ``total``).

    Without ``out`` the scenario is written to a temporary folder that is removed
    afterwards (lint reads files, as a creator's run would).
    """
    import tempfile
    import time

    from .domain import lint

    t0 = time.perf_counter()
    gen = generate(seed, scenes, flags, plant, progress=(lambda d, t: progress("generate", d, t)) if progress else None)
    t1 = time.perf_counter()
    if out is None:
        with tempfile.TemporaryDirectory(prefix="storygraph-fuzz-") as tmp:
            scenario, _ = gen.write(tmp)
            if progress:
                progress("lint", 0, 1)
            report = lint(scenario)
    else:
        scenario, _ = gen.write(out)
        if progress:
            progress("lint", 0, 1)
        report = lint(scenario)
    t2 = time.perf_counter()
    outcome = compare(gen, report)
    t3 = time.perf_counter()
    if progress:
        progress("lint", 1, 1)
    return gen, report, outcome, {"generate": round(t1 - t0, 3), "lint": round(t2 - t1, 3), "compare": round(t3 - t2, 3),
                                  "total": round(t3 - t0, 3)}


_KIND_WORDS = {
    "unreached_scene": "아무도 안 가리키는 장면", "island": "섬", "missing_target": "없는 장면으로 가는 분기",
    "shadowed_one": "앞 분기 하나에 가려진 분기", "shadowed_union": "앞 분기 둘 이상에 함께 가려진 분기",
    "unsatisfiable": "참이 될 수 없는 조건", "dead_end": "막다른 장면", "loop_no_exit": "출구 없는 고리",
    "stuck_combination": "분기가 하나도 걸리지 않는 조합", "reached_only_through_dead_branch": "죽은 분기로만 들어가는 장면",
    "ending_only_through_dead_branch": "죽은 분기로만 엔딩에 가는 장면", "unused_flag": "쓰이지 않는 플래그",
    "available_flag_unused": "장면에서 쓰이지 않는 플래그", "comparison_out_of_range": "범위 밖 비교",
    "always_true_condition": "늘 참인 조건",
}


def _describe(mark: Mapping[str, Any]) -> str:
    if mark.get("what") == "card":
        extra = f" (overlapping_branch_id {mark['overlapping_branch_id']})" if mark.get("overlapping_branch_id") else ""
        return f"{mark['target']}: {mark['verdict']}{extra}"
    if mark.get("what") == "finding":
        return f"{mark['target']}: 발견 {mark['code']}"
    return f"{mark['target']}: 입력 문제 — {mark.get('code')}"


def render_fuzz_text(result: Mapping[str, Any]) -> str:
    """The terminal report of one fuzz run (``result`` as ``storygraph fuzz --format
    json`` prints it)."""
    lines = [f"storygraph fuzz · seed {result['seed']} · 장면 {result['scenes']} · 분기 {result['branches']} · 플래그 {result['flags']}"
             + (f" → {result['out']}" if result.get("out") else "")]
    lines.append("")
    width = max(len(k) for k in KINDS) + 2
    lines.append(f"{'결함 종류':<{width - 4}}  심음  잡음  놓침")
    tp = tc = 0
    for k in KINDS:
        p, c = result["planted"][k], result["caught"][k]
        tp, tc = tp + p, tc + c
        lines.append(f"{k:<{width}}{p:>4}  {c:>4}  {p - c:>4}   {_KIND_WORDS[k]}")
    lines.append(f"{'합계':<{width - 2}}{tp:>4}  {tc:>4}  {tp - tc:>4}")
    for m in result["missed"]:
        where = ", ".join(m["scenes"] + m["branches"] + ([m["flag"]] if m.get("flag") else []))
        lines.append(f"  놓침: {m['kind']} {where} — {m.get('why', '')}")
    lines.append("")
    explained, unexplained = result["explained"], result["unexplained"]
    lines.append(f"심지 않은 발견 {len(explained) + len(unexplained)}건: 심은 결함으로 설명됨 {len(explained)}건, 설명 안 됨(오탐) {len(unexplained)}건")
    for m in sorted(explained, key=lambda m: (m["because"], m["target"])):
        lines.append(f"  설명됨  {_describe(m)} ← {m['because']}")
    for m in unexplained:
        lines.append(f"  오탐    {_describe(m)}")
    lines.append("")
    failed = result["checks_failed"]
    lines.append("자동 검증: 모두 통과" if not failed else f"자동 검증 실패: {', '.join(failed)}")
    t = result["timings"]
    lines.append(f"시간: 생성 {t['generate']:.2f}초 · 쓰기와 검사 {t['lint']:.2f}초 · 대조 {t['compare']:.2f}초 · 합계 {t['total']:.2f}초")
    lines.append("결과: " + ("심은 결함을 모두 잡았고 설명되지 않은 발견이 없습니다." if result["ok"] else "놓친 결함이나 설명되지 않은 발견이 있습니다."))
    return "\n".join(lines) + "\n"
