"""The typed evaluation round: runs, task specs and dataset rows, and the robot card.

Verdict labels and ``blocked_cause`` values are verbatim from the seed's JSON Schema.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, ClassVar

from verdicts.model import Card, InputIssue, SourceInfo
from verdicts.tables import Column, TableSpec

__all__ = [
    "DEPLOY", "BELOW_TARGET", "FAILURES_CONCENTRATED", "CYCLE_OVER", "NOT_IN_TRAINING", "VERDICTS",
    "SKILL_MISMATCH", "NOT_EVALUATED", "BLOCKED_CAUSES", "MIN_FAILURES_FOR_CONCENTRATION",
    "EVALUATION_RUN", "TASK_SPEC", "DATASET_INDEX", "TABLE_SPECS", "AGGS",
    "Run", "TaskSpec", "DatasetRow", "Round", "RobotCard", "UNKNOWN_ARTIFACT", "CARD_FIELDS",
]

# Verdicts, verbatim from the seed's schema, in the order of precedence (first match wins).
NOT_IN_TRAINING = "학습에 없는 조건"
BELOW_TARGET = "성공률 미달"
FAILURES_CONCENTRATED = "실패 유형 쏠림"
CYCLE_OVER = "작업 주기 초과"
DEPLOY = "배포 후보"
VERDICTS: tuple[str, ...] = (NOT_IN_TRAINING, BELOW_TARGET, FAILURES_CONCENTRATED, CYCLE_OVER, DEPLOY)

SKILL_MISMATCH = "능력 불일치"
NOT_EVALUATED = "평가 미실시"
BLOCKED_CAUSES: tuple[str, ...] = (SKILL_MISMATCH, NOT_EVALUATED)

#: fewer failures than this are too few to call a concentration (seed: "3회 이상")
MIN_FAILURES_FOR_CONCENTRATION = 3

#: the aggregations an evidence item may name (the schema's enum)
AGGS: tuple[str, ...] = ("count", "sum", "avg", "median", "min", "max")

#: ``model_artifact`` of cards when the round names none (no readable run at all)
UNKNOWN_ARTIFACT = "(알 수 없음)"

EVALUATION_RUN = TableSpec(
    "evaluation_run",
    (
        Column("task_id", "str", required=True),
        Column("model_artifact"),
        Column("episode_id"),
        Column("success", "bool"),
        Column("failure_reason"),
        Column("cycle_sec", "float"),
    ),
)
TASK_SPEC = TableSpec(
    "task_spec",
    (
        Column("task_id", "str", required=True),
        Column("required_skill"),
        Column("target_success_rate", "float"),
        Column("top_reason_share_limit", "float"),
        Column("max_cycle_sec", "float"),
        Column("min_episode_count", "int"),
    ),
    key="task_id",
)
DATASET_INDEX = TableSpec(
    "dataset_index",
    (
        Column("task_id", "str", required=True),
        Column("required_skill"),
        Column("episode_count", "int"),
        Column("capture_site"),
        Column("robot_hand_type"),
    ),
    key="task_id",
)
TABLE_SPECS = (EVALUATION_RUN, TASK_SPEC, DATASET_INDEX)


@dataclass
class Run:
    """One evaluation episode.  ``success`` / ``cycle_sec`` are ``None`` when the cell is
    empty or unreadable (already an input issue)."""

    task_id: str
    model_artifact: str | None
    episode_id: str | None
    success: bool | None
    failure_reason: str | None
    cycle_sec: Decimal | None
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)


@dataclass
class TaskSpec:
    """One row of ``task_spec``: what the task needs and the thresholds it is held to.
    Thresholds are exact decimals as written; ``None`` when empty or invalid."""

    task_id: str
    required_skill: str | None
    target_success_rate: Decimal | None
    top_reason_share_limit: Decimal | None
    max_cycle_sec: Decimal | None
    min_episode_count: int | None
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)


@dataclass
class DatasetRow:
    """The task's row of ``dataset_index``: what was collected for it, where and with
    which hand."""

    task_id: str
    required_skill: str | None
    episode_count: int | None
    capture_site: str | None
    robot_hand_type: str | None
    line: int
    raw: dict[str, str | None] = field(default_factory=dict)


@dataclass
class Round:
    """One evaluation round as read: the task list, the runs of the round's artifact per
    task, the dataset rows, and what was wrong with the input.

    ``runs_known`` is ``False`` when the runs cannot be attributed to tasks at all (no
    ``evaluation_run`` table, or no ``task_id`` column in it); ``columns`` records the
    columns each table had, so that only what depends on a missing one is withheld.
    """

    tasks: dict[str, TaskSpec]
    runs: dict[str, list[Run]]
    datasets: dict[str, DatasetRow]
    artifact: str | None
    issues: list[InputIssue]
    sources: list[SourceInfo]
    columns: dict[str, set[str]]
    files: dict[str, str]
    runs_known: bool = True
    datasets_known: bool = True
    #: the typed tables as read, for the automatic checks to recompute from
    tables: dict[str, Any] = field(default_factory=dict)

    def has(self, table: str, column: str) -> bool:
        return column in self.columns.get(table, set())


#: the card's fields, in the order of the seed's schema
CARD_FIELDS: tuple[str, ...] = (
    "task_id", "model_artifact", "verdict", "blocked_cause", "success_rate", "failure_total", "top_failure_reason",
    "top_failure_count", "top_failure_share", "cycle_sec_median", "more_episode_count", "recapture_site",
    "recapture_hand", "evidence", "summary", "hedge",
)


class RobotCard(Card):
    """One card per task of ``task_spec``."""

    __slots__ = ()
    key_field: ClassVar[str] = "task_id"
    field_names: ClassVar[tuple[str, ...]] = CARD_FIELDS
