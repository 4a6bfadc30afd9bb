"""What the fuzz generator builds and what the planters and the comparison share: the
defect kinds, flags, conditions with their own text and their own evaluator, scenes,
branches, plants with the marks that show them caught, the generated scenario and the
builder that wires healthy scenes.

Nothing here imports the linter: the generator must not rely on the code it tests.
"""

from __future__ import annotations

import io
import itertools
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence, cast

from verdicts import safe_csv
from verdicts.errors import ConfigError

__all__ = [
    "KINDS", "HOSTED_KINDS", "FLAG_KINDS", "DEAD_BRANCH_KINDS", "MENU_KINDS", "UNION_COLUMNS", "OK", "UNREACHED", "MISSING", "SHADOW",
    "NO_END", "PlantSpec", "FlagDef", "Cond", "TRUE", "Space", "bits", "atom", "two_atoms", "random_cond", "exact_cond",
    "SceneDef", "BranchDef", "Mark", "Plant", "Generated", "used_flags", "product_size", "Builder",
]


#: every plantable defect kind, in report order
KINDS: tuple[str, ...] = (
    "unreached_scene", "island", "missing_target", "shadowed_one", "shadowed_union", "unsatisfiable", "dead_end",
    "loop_no_exit", "stuck_combination", "reached_only_through_dead_branch", "ending_only_through_dead_branch",
    "unused_flag", "available_flag_unused", "comparison_out_of_range", "always_true_condition",
    "hidden_choice", "plain_menu",
)
#: kinds planted in (and around) a reached backbone scene, its host
HOSTED_KINDS: tuple[str, ...] = (
    "missing_target", "shadowed_one", "shadowed_union", "unsatisfiable", "dead_end", "loop_no_exit", "stuck_combination",
    "reached_only_through_dead_branch", "ending_only_through_dead_branch", "available_flag_unused",
    "comparison_out_of_range", "always_true_condition", "hidden_choice", "plain_menu",
)
#: kinds whose plant is a condition, so flag_spec must have a flag
FLAG_KINDS: tuple[str, ...] = (
    "shadowed_one", "shadowed_union", "unsatisfiable", "stuck_combination", "reached_only_through_dead_branch",
    "ending_only_through_dead_branch", "available_flag_unused", "comparison_out_of_range", "always_true_condition",
    "hidden_choice", "plain_menu",
)
#: the plants that leave a branch that never fires
DEAD_BRANCH_KINDS: tuple[str, ...] = ("shadowed_one", "shadowed_union", "unsatisfiable")
#: menu plants (player choices, the ``kind`` column): planted only when asked for, so the
#: default scenarios (and their CSV, which then has no ``kind`` column) stay as they were
#: — ``hidden_choice``: an automatic branch before a menu always catches a choice;
#: ``plain_menu``: overlapping choices and a fallback, which must give no finding at all
MENU_KINDS: tuple[str, ...] = ("hidden_choice", "plain_menu")
UNION_COLUMNS = ("scene_id", "title", "is_entry", "is_ending", "available_flags", "branch_id", "from_scene", "to_scene",
                 "condition_expr", "order_no", "flag", "label", "type", "min_value", "max_value", "values")
# verdicts, verbatim (kept local so the generator does not import the rules it tests)
OK = "끝까지 닿음"
UNREACHED = "어디서도 안 닿음"
MISSING = "없는 장면을 가리킴"
SHADOW = "조건이 겹침"
NO_END = "끝에 못 감"
PlantSpec = Mapping[str, int]
_PLACES = ("숲길", "다리", "성문", "시장", "우물", "탑", "지하실", "부엌", "정원", "항구", "동굴", "서재", "광장", "골목",
           "언덕", "폐교", "기차역", "옥상", "병원", "교실", "나루터", "사당", "창고", "여관")
_MOMENTS = ("새벽", "한낮", "해질녘", "한밤", "비 오는 날", "안개 속", "축제 날", "눈 내린 아침")
# flags left over from an earlier draft (the ``unused_flag`` plant); never in the pool generation.py draws from
_SPARE_POOL = (
    ("old_trust", "예전 신뢰도", "int"), ("has_lamp", "등불", "bool"), ("season", "계절", "enum"),
    ("met_ghost", "유령과 만남", "bool"), ("debt", "빚", "int"), ("rumor", "소문", "enum"),
)
_SPARE_VALUES = {"season": ("봄", "여름", "가을", "겨울"), "rumor": ("없음", "퍼짐", "잠잠")}


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
            assert self.flag is not None  # a "flag" condition names its flag
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


class Space:
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


def bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def atom(rng: random.Random, f: FlagDef) -> Cond:
    if f.type == "bool":
        c = Cond("flag", flag=f.flag)
        return Cond("not", (c,), style=rng.randrange(2)) if rng.random() < 0.35 else c
    if f.type == "enum":
        return Cond("cmp", flag=f.flag, cmp=rng.choice(("==", "==", "!=")), value=rng.choice(f.values), style=rng.choice((0, 0, 2)))
    lo, hi = f.min_value, f.max_value
    assert lo is not None and hi is not None  # an int flag of the fuzz has its range
    op = rng.choice((">=", ">=", "<", "<=", ">", "==", "!="))
    # never a comparison whose answer the range already fixes (``t > max``, ``t <= max``)
    if op in (">=", "<"):
        value = rng.randint(lo + 1, hi)
    elif op in (">", "<="):
        value = rng.randint(lo, hi - 1)
    else:
        value = rng.randint(lo, hi)
    return Cond("cmp", flag=f.flag, cmp=op, value=value, style=rng.choice((0, 0, 0, 1, 2)))


def two_atoms(rng: random.Random, flags: Sequence[FlagDef]) -> tuple[Cond, Cond]:
    """Two atoms, over two different flags when there are two."""
    f, g = rng.sample(list(flags), 2) if len(flags) > 1 else (flags[0], flags[0])
    a, b = atom(rng, f), atom(rng, g)
    while b.text() == a.text() and f.type != "bool":
        b = atom(rng, g)
    return a, b


def random_cond(rng: random.Random, flags: Sequence[FlagDef]) -> Cond:
    r = rng.random()
    if r < 0.55 or (len(flags) == 1 and flags[0].type == "bool"):
        return atom(rng, rng.choice(flags))
    if r < 0.8:
        return Cond("and", two_atoms(rng, flags), style=rng.randrange(2))
    if r < 0.93:
        return Cond("or", two_atoms(rng, flags), style=rng.randrange(2))
    return Cond("and", (Cond("or", two_atoms(rng, flags)), atom(rng, rng.choice(flags))), style=rng.randrange(2))


def exact_cond(point: Mapping[str, Any], flags: Sequence[FlagDef]) -> Cond:
    """The condition true at ``point`` only."""
    parts = []
    for f in flags:
        if f.type == "bool":
            c = Cond("flag", flag=f.flag)
            parts.append(c if point[f.flag] else Cond("not", (c,)))
        else:
            parts.append(Cond("cmp", flag=f.flag, cmp="==", value=point[f.flag]))
    return parts[0] if len(parts) == 1 else Cond("and", tuple(parts))


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
    #: ``auto`` (first match) or ``choice`` (a menu entry; the ``kind`` column)
    kind: str = "auto"

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
        menus = any(b.kind != "auto" for b in self.branches)
        for b in self.branches:
            row = {"branch_id": b.branch_id, "from_scene": b.from_scene, "to_scene": b.to_scene,
                   "condition_expr": b.condition_expr, "order_no": str(b.order_no)}
            if menus:
                row["kind"] = b.kind
            rows.append(row)
        for f in self.flags:
            rows.append({"flag": f.flag, "label": f.label, "type": f.type,
                         "min_value": "" if f.min_value is None else str(f.min_value),
                         "max_value": "" if f.max_value is None else str(f.max_value), "values": "|".join(f.values)})
        return rows

    def to_csv(self, rows: Iterable[Mapping[str, str]] | None = None) -> str:
        buf = io.StringIO()
        # the kind column only when some branch is a choice: other scenarios stay as they were
        columns = list(UNION_COLUMNS) + (["kind"] if any(b.kind != "auto" for b in self.branches) else [])
        w = safe_csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
        w.writeheader()
        for r in self.rows() if rows is None else rows:
            w.writerow({c: r.get(c, "") for c in columns})
        return buf.getvalue()

    def manifest(self) -> dict[str, Any]:
        return {
            "seed": self.seed, "scenes": len(self.scenes), "branches": len(self.branches), "flags": len(self.flags),
            "planted": {k: self.counts.get(k, 0) for k in KINDS},
            "plants": [p.to_json() for p in self.plants],
        }

    def write(self, out: str | Path) -> tuple[Path, Path]:
        """Write ``scenario.csv`` and ``manifest.json`` into ``out`` (created)."""
        from verdicts.outputs import output_folder, write_output

        out = output_folder(out)
        scenario = out / "scenario.csv"
        manifest = out / "manifest.json"
        write_output(scenario, self.to_csv())
        write_output(manifest, json.dumps(self.manifest(), ensure_ascii=False, indent=2) + "\n")
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
        m = cast("Callable[..., str]", mapping.get)  # every id is in mapping (ids above)

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
        branches = [BranchDef(m(b.branch_id), m(b.from_scene), m(b.to_scene), b.condition, b.order_no, b.kind)
                    for b in self.branches]
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


def used_flags(conds: Sequence[Cond], flags: Sequence[FlagDef]) -> tuple[str, ...]:
    """The scene's ``available_flags``: exactly the flags its conditions use (a listed
    flag that no condition tests is itself a finding, ``available-flag-unused``)."""
    used: set[str] = set()
    for c in conds:
        used |= c.flags()
    return tuple(f.flag for f in flags if f.flag in used)


def product_size(flags: Sequence[FlagDef]) -> int:
    n = 1
    for f in flags:
        n *= len(f.domain())
    return n


class Builder:
    def __init__(self, rng: random.Random, n_scenes: int, flags: list[FlagDef]):
        self.rng = rng
        self.flags = flags
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
        while rest and product_size(chosen) < points:
            chosen.append(rest.pop())
        return chosen

    def healthy_conditions(self, n: int, flags: Sequence[FlagDef], space: Space, *, complete: bool = True,
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
                c = random_cond(rng, flags)
                m = space.mask(c)
                if not m & left:
                    continue
                if (last and complete and not left & ~m) or (not (last and complete) and (left & ~m).bit_count() >= max(after, 1 if not complete else after)):
                    chosen = (c, m)
                    break
            if chosen is None:
                # exactly one uncovered point: always fits while points remain
                c = TRUE if last and complete else exact_cond(space.point(rng.choice(bits(left))), flags)
                chosen = (c, space.mask(c))
            conds.append(chosen[0])
            left &= ~chosen[1]
        return conds, left

    def add_branches(self, scene: SceneDef, targets: Sequence[str], conds: Sequence[Cond],
                     kinds: Sequence[str] | None = None) -> list[BranchDef]:
        start = self.rng.choice((1, 1, 1, 10)) if len(targets) > 1 else 1
        step = 10 if start == 10 else 1
        out = []
        for i, (to, c) in enumerate(zip(targets, conds)):
            b = BranchDef(self.new_branch_id(), scene.scene_id, to, c, start + i * step, kinds[i] if kinds else "auto")
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
        space = Space(flags)
        conds, _ = self.healthy_conditions(n, flags, space)
        if allow_undecided and n > 1 and rng.random() < 0.05:
            # empty available_flags: shadowing is not decided here (the cards hedge)
            scene.available_flags = ()
        else:
            scene.available_flags = used_flags(conds, flags)
        return self.add_branches(scene, targets, conds)
