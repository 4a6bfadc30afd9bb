"""The typed scenario: scenes, branches and flags, as read from the three tables."""

from __future__ import annotations

import re

from dataclasses import dataclass, field
from typing import ClassVar, Literal

from verdicts.model import Card, CheckResult, InputIssue, SourceInfo
from verdicts.tables import Column, TableSpec

__all__ = [
    "SCENE_STATES", "STORY_BRANCHES", "FLAG_SPEC", "TABLE_SPECS",
    "Scene", "Branch", "Flag", "Scenario", "StoryCard",
    "VERDICTS", "SCENE_VERDICTS", "BRANCH_VERDICTS", "REACHED_AND_ENDS", "UNREACHED", "MISSING_TARGET",
    "SHADOWING", "NO_ENDING", "SCENE", "BRANCH",
]

# Verdict labels and target kinds, verbatim from the seed's schema.
REACHED_AND_ENDS = "끝까지 닿음"
UNREACHED = "어디서도 안 닿음"
MISSING_TARGET = "없는 장면을 가리킴"
SHADOWING = "조건이 겹침"
NO_ENDING = "끝에 못 감"
#: screen order: what blocks readers most comes first, the good news last
VERDICTS: tuple[str, ...] = (UNREACHED, MISSING_TARGET, SHADOWING, NO_ENDING, REACHED_AND_ENDS)
SCENE_VERDICTS = (UNREACHED, NO_ENDING, REACHED_AND_ENDS)
BRANCH_VERDICTS = (MISSING_TARGET, UNREACHED, SHADOWING, NO_ENDING, REACHED_AND_ENDS)
SCENE = "장면"
BRANCH = "분기"

SCENE_STATES = TableSpec(
    "scene_states",
    (
        Column("scene_id", "str", required=True),
        Column("title"),
        Column("is_entry", "bool"),
        Column("is_ending", "bool"),
        Column("available_flags", "list"),
        Column("lint_ignore", optional=True),
        Column("source_file", optional=True),
        Column("source_line", optional=True),
    ),
    key="scene_id",
)
STORY_BRANCHES = TableSpec(
    "story_branches",
    (
        Column("branch_id", "str", required=True),
        Column("from_scene", "str", required=True),
        # empty only for an opaque jump (a destination the importer cannot name)
        Column("to_scene", "str", required=True, unless="jump_opaque"),
        Column("condition_expr"),
        Column("order_no", "int"),
        Column("lint_ignore", optional=True),
        # player choices, opaque conditions and source positions (docs/choices.md):
        # optional, read by the analysis only when present
        Column("kind", optional=True),
        Column("condition_opaque", optional=True),
        Column("condition_source", optional=True),
        Column("once_only", optional=True),
        # an opaque jump (may lead to any scene) and what the reader sees of a choice
        Column("jump_opaque", optional=True),
        Column("jump_source", optional=True),
        Column("choice_text", optional=True),
        Column("source_file", optional=True),
        Column("source_line", optional=True),
    ),
    key="branch_id",
)
FLAG_SPEC = TableSpec(
    "flag_spec",
    (
        Column("flag", "str", required=True),
        Column("label"),
        Column("type", "str"),
        Column("min_value", "int"),
        Column("max_value", "int"),
        Column("values", "list"),
        # where an imported story declares, reads and writes the flag (``file:line``,
        # ``|``-separated), whether some write cannot be computed, and whether the
        # format needs a declaration that is missing (docs/importers.md)
        Column("declared_at", optional=True),
        Column("read_at", optional=True),
        Column("written_at", optional=True),
        Column("read_opaque", optional=True),
        Column("effect_opaque", optional=True),
        Column("effect_source", optional=True),
        Column("undeclared", optional=True),
    ),
    key="flag",
)
TABLE_SPECS = (SCENE_STATES, STORY_BRANCHES, FLAG_SPEC)


@dataclass(slots=True)
class Scene:
    scene_id: str
    title: str | None
    is_entry: bool | None
    is_ending: bool | None
    #: ``None`` when the cell is empty or the column is missing: not declared
    available_flags: tuple[str, ...] | None
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """How sentences call the scene: its title (whitespace and line breaks folded
        into single spaces, so a sentence stays one line), else its id."""
        return " ".join((self.title or "").split()) or self.scene_id

    @property
    def spoken(self) -> str:
        """How a sentence calls the scene: its title, else ``장면 `SC-7```` (an id is
        quoted, and never stands alone as a subject)."""
        title = " ".join((self.title or "").split())
        # an imported story names a scene by its knot or passage name, which is its id
        if title and (title != self.scene_id or not re.search(r"[^\s가-힣]", title)):
            return title
        return f"장면 `{self.scene_id}`"


@dataclass(slots=True)
class Branch:
    branch_id: str
    from_scene: str
    to_scene: str
    condition_expr: str | None
    order_no: int | None
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)
    #: False when ``order_no`` was present but unreadable (already an issue)
    order_valid: bool = True
    #: False when the condition is unknown: the record left ``condition_expr`` empty
    #: beside a key that misspells it (already an issue)
    condition_valid: bool = True


FlagType = Literal["bool", "int", "enum"]


@dataclass(slots=True)
class Flag:
    flag: str
    label: str | None
    type: FlagType
    min_value: int | None
    max_value: int | None
    values: tuple[str, ...]
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)

    @property
    def name(self) -> str:
        """How sentences call the flag: its label (whitespace folded), else its name."""
        return " ".join((self.label or "").split()) or self.flag

    def size(self) -> int | None:
        """How many values the flag can take (``None`` when unbounded)."""
        if self.type == "bool":
            return 2
        if self.type == "enum":
            return len(self.values)
        if self.min_value is None or self.max_value is None:
            return None
        return max(0, self.max_value - self.min_value + 1)


@dataclass
class Scenario:
    """The three tables, typed, with what was wrong with them.

    ``columns`` records which columns each table had, so that analysis can withhold only
    what depends on a missing one.  ``rejected_scene_lines`` are scene rows that could not
    be identified (empty or duplicate id): a missing target may be one of them.
    """

    scenes: dict[str, Scene]
    branches: list[Branch]
    flags: dict[str, Flag]
    issues: list[InputIssue]
    sources: list[SourceInfo]
    columns: dict[str, set[str]]
    files: dict[str, str]
    rejected_scene_lines: list[int] = field(default_factory=list)
    #: flags whose ``flag_spec`` row was refused (``min_value`` above ``max_value``, an
    #: unknown type, an enum without values) -> that row's line: their uses are not
    #: judged, and are not called undeclared
    rejected_flags: dict[str, int] = field(default_factory=dict)
    has_flag_table: bool = True
    #: the import self-check of a story read by an importer (:mod:`storygraph.importers.selfcheck`),
    #: shown with the automatic checks; ``None`` for tables
    import_check: "CheckResult | None" = None

    def has(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, set())

    def branches_from(self) -> dict[str, list[Branch]]:
        out: dict[str, list[Branch]] = {}
        for branch in self.branches:
            out.setdefault(branch.from_scene, []).append(branch)
        return out


class StoryCard(Card):
    """One card per scene and per branch, kept as the dict the seed's schema describes
    (fields in its order: ``target_no``, ``target_kind``, ``scene_id``, ``branch_id``,
    ``verdict``, ``reached_from_entry``, ``reaches_ending``, ``overlapping_branch_id``,
    ``evidence``, ``summary``, ``hedge``).  ``StoryCard.of(...)`` builds one from fields."""

    __slots__ = ()

    key_field: ClassVar[str] = "target_no"
    field_names: ClassVar[tuple[str, ...]] = (
        "target_no", "target_kind", "scene_id", "branch_id", "verdict", "reached_from_entry", "reaches_ending",
        "overlapping_branch_id", "evidence", "summary", "hedge",
    )
