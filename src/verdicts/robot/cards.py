"""Cards: one per task of ``task_spec``, with evidence, summary and hedge."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from verdicts.korean import join_clauses
from verdicts.model import Evidence
from verdicts.numbers import as_number, parse_decimal

from . import templates as T
from .analysis import RunStats, run_stats
from .model import (
    BELOW_TARGET, CYCLE_OVER, DEPLOY, FAILURES_CONCENTRATED, MIN_FAILURES_FOR_CONCENTRATION, NOT_EVALUATED,
    NOT_IN_TRAINING, SKILL_MISMATCH, UNKNOWN_ARTIFACT, DatasetRow, RobotCard, Round, TaskSpec,
)
from .rules import RULES, Decision, TaskContext, decide

__all__ = ["build_cards", "build_card", "cell_value"]

_NUMERIC = {"target_success_rate", "top_reason_share_limit", "max_cycle_sec", "min_episode_count", "episode_count", "cycle_sec"}


def cell_value(column: str, text: str | None) -> Any:
    """The value an evidence item shows for a cell: numbers as numbers (an integer when
    written without a decimal point), other text verbatim, ``None`` for an empty cell."""
    if text is None:
        return None
    if column in _NUMERIC:
        number = parse_decimal(text)
        if number is not None:
            plain = text.strip().replace(",", "")
            if number == number.to_integral_value() and "." not in plain and "e" not in plain.lower():
                return int(number)
            return float(number)
    return text


class _Evidence:
    """Collects evidence items for one card, citing only columns the input has."""

    def __init__(self, rnd: Round):
        self.rnd = rnd
        self.items: list[Evidence] = []

    def row(self, table: str, row: TaskSpec | DatasetRow | Any, column: str) -> None:
        if row is None or not self.rnd.has(table, column):
            return
        item = Evidence(source=table, field=column, value=cell_value(column, row.raw.get(column)), line=row.line)
        if item not in self.items:
            self.items.append(item)

    def agg(self, table: str, column: str, agg: str, value: Any) -> None:
        if value is None or not self.rnd.has(table, column):
            return
        self.items.append(Evidence(source=table, field=column, agg=agg, value=value))


def _more(task: TaskSpec, ds: DatasetRow | None) -> int | None:
    if ds is None or ds.episode_count is None or task.min_episode_count is None:
        return None
    return max(0, task.min_episode_count - ds.episode_count)


def _num(value: Decimal | None) -> float | None:
    return as_number(value)


def build_card(rnd: Round, task: TaskSpec) -> RobotCard:
    """The card of one task."""
    ds = rnd.datasets.get(task.task_id)
    runs = rnd.runs.get(task.task_id, [])
    stats = run_stats(runs)
    decision = decide(TaskContext(rnd, task, ds, runs, stats))
    verdict = decision.verdict
    more = _more(task, ds)
    ev = _Evidence(rnd)
    summary = _summary(rnd, task, ds, stats, decision, more, ev)
    hedge = join_clauses(_hedges(rnd, task, ds, stats, decision))
    recapture = ds is not None and verdict != DEPLOY
    return RobotCard(
        task_id=task.task_id,
        model_artifact=rnd.artifact or UNKNOWN_ARTIFACT,
        verdict=verdict,
        blocked_cause=decision.blocked_cause,
        success_rate=_num(stats.success_rate),
        failure_total=stats.failure_total,
        top_failure_reason=stats.top_failure_reason,
        top_failure_count=stats.top_failure_count,
        top_failure_share=_num(stats.top_failure_share),
        cycle_sec_median=_num(stats.cycle_sec_median),
        more_episode_count=more,
        recapture_site=ds.capture_site if recapture else None,
        recapture_hand=ds.robot_hand_type if recapture else None,
        evidence=ev.items,
        summary=summary,
        hedge=hedge,
    )


def _runs_block(ev: _Evidence, stats: RunStats) -> None:
    column = "episode_id" if ev.rnd.has("evaluation_run", "episode_id") else "task_id"
    ev.agg("evaluation_run", column, "count", stats.runs)
    ev.agg("evaluation_run", "success", "sum", stats.successes)


def _collection_block(ev: _Evidence, task: TaskSpec, ds: DatasetRow | None, more: int | None) -> None:
    if more is not None or (ds is not None and ds.episode_count is None):
        ev.row("task_spec", task, "min_episode_count")
        ev.row("dataset_index", ds, "episode_count")
    ev.row("dataset_index", ds, "capture_site")
    ev.row("dataset_index", ds, "robot_hand_type")


def _summary(rnd: Round, task: TaskSpec, ds: DatasetRow | None, stats: RunStats, decision: Decision, more: int | None,
             ev: _Evidence) -> str:
    verdict, missing = decision.verdict, decision.missing
    site = ds.capture_site if ds else None
    hand = ds.robot_hand_type if ds else None
    if decision.blocked_cause == SKILL_MISMATCH:
        ev.row("task_spec", task, "required_skill")
        if ds is None:
            if rnd.datasets_known:
                ev.agg("dataset_index", "task_id", "count", 0)
        else:
            ev.row("dataset_index", ds, "required_skill")
        if stats.runs:
            _runs_block(ev, stats)
        _collection_block(ev, task, ds, more)
        if missing:
            return T.skill_unknown(missing=missing)
        return T.skill_mismatch(required=task.required_skill, have=ds.required_skill if ds else None, has_row=ds is not None,
                                more=more, minimum=task.min_episode_count, site=site, hand=hand)
    if decision.blocked_cause == NOT_EVALUATED:
        ev.row("task_spec", task, "required_skill")
        ev.row("dataset_index", ds, "required_skill")
        if missing:
            return T.runs_unknown()
        ev.agg("evaluation_run", "task_id", "count", 0)
        _collection_block(ev, task, ds, more)
        return T.not_evaluated(required=task.required_skill, artifact=rnd.artifact or UNKNOWN_ARTIFACT, more=more,
                               minimum=task.min_episode_count)
    _runs_block(ev, stats)
    if verdict == BELOW_TARGET:
        ev.row("task_spec", task, "target_success_rate")
        _collection_block(ev, task, ds, more)
        if stats.success_rate is None:
            return T.success_unknown(runs=stats.runs, unknown=stats.unknown_success)
        if task.target_success_rate is None:
            return T.target_unknown(runs=stats.runs, successes=stats.successes, rate=stats.success_rate)
        return T.below_target(runs=stats.runs, successes=stats.successes, rate=stats.success_rate, target=task.target_success_rate,
                              more=more, minimum=task.min_episode_count, site=site, hand=hand)
    ev.row("task_spec", task, "target_success_rate")
    if verdict == FAILURES_CONCENTRATED:
        if stats.top_failure_reason is not None:
            ev.row("evaluation_run", _first_run_with(rnd, task, stats), "failure_reason")
            ev.agg("evaluation_run", "failure_reason", "count", stats.top_failure_count)
        ev.row("task_spec", task, "top_reason_share_limit")
        _collection_block(ev, task, ds, more)
        if stats.top_failure_share is None:
            return T.reasons_unknown(total=stats.failure_total)
        if task.top_reason_share_limit is None:
            return T.limit_unknown(total=stats.failure_total, reason=stats.top_failure_reason, count=stats.top_failure_count,
                                   share=stats.top_failure_share)
        return T.concentrated(total=stats.failure_total, reason=stats.top_failure_reason, count=stats.top_failure_count,
                              share=stats.top_failure_share, limit=task.top_reason_share_limit, site=site, hand=hand)
    ev.agg("evaluation_run", "cycle_sec", "median", _num(stats.cycle_sec_median))
    ev.row("task_spec", task, "max_cycle_sec")
    if verdict == CYCLE_OVER:
        _collection_block(ev, task, ds, more)
        if stats.cycle_sec_median is None:
            return T.cycle_unknown(rate=stats.success_rate, target=task.target_success_rate, runs=stats.runs, unknown=stats.unknown_cycle)
        if task.max_cycle_sec is None:
            return T.max_cycle_unknown(rate=stats.success_rate, target=task.target_success_rate, median=stats.cycle_sec_median)
        return T.cycle_over(rate=stats.success_rate, target=task.target_success_rate, median=stats.cycle_sec_median,
                            limit=task.max_cycle_sec, site=site, hand=hand)
    if stats.failure_total is not None and stats.failure_total >= MIN_FAILURES_FOR_CONCENTRATION:
        ev.row("task_spec", task, "top_reason_share_limit")
    return T.deploy(runs=stats.runs, successes=stats.successes, rate=stats.success_rate, target=task.target_success_rate,
                    median=stats.cycle_sec_median, limit=task.max_cycle_sec)


def _first_run_with(rnd: Round, task: TaskSpec, stats: RunStats):
    """The first failed run of the task that names the top reason (the row cited)."""
    return next((r for r in rnd.runs.get(task.task_id, [])
                 if r.success is False and r.failure_reason == stats.top_failure_reason), None)


def _hedges(rnd: Round, task: TaskSpec, ds: DatasetRow | None, stats: RunStats, decision: Decision) -> list[T.Clause]:
    verdict, missing = decision.verdict, decision.missing
    hedges: list[T.Clause] = []
    if missing:
        later = RULES[RULES.index(decision.rule) + 1:]
        hedges.append(T.hedge_stopped(missing=missing, later=[r.verdict for r in later if r.verdict not in (DEPLOY, verdict)]))
    if decision.blocked_cause == SKILL_MISMATCH and not rnd.datasets_known:
        hedges.append(T.hedge_no_dataset_table())
    if decision.blocked_cause == SKILL_MISMATCH and not stats.runs and rnd.runs_known:
        hedges.append(T.hedge_no_runs())
    if stats.runs and stats.unknown_success and verdict == NOT_IN_TRAINING:
        hedges.append(T.hedge_success_unknown(unknown=stats.unknown_success))
    if stats.runs and stats.cycle_sec_median is None and "evaluation_run.cycle_sec" not in missing:
        hedges.append(T.hedge_cycle_unknown(unknown=stats.unknown_cycle))
    if stats.unnamed_failures and stats.top_failure_reason is not None:
        hedges.append(T.hedge_unnamed_failures(total=stats.failure_total, unnamed=stats.unnamed_failures))
    if (verdict in (CYCLE_OVER, DEPLOY) and stats.failure_total and 2 <= stats.failure_total < MIN_FAILURES_FOR_CONCENTRATION
            and stats.top_failure_share is not None and task.top_reason_share_limit is not None
            and stats.top_failure_share > task.top_reason_share_limit):
        hedges.append(T.hedge_few_failures(total=stats.failure_total, share=stats.top_failure_share, limit=task.top_reason_share_limit))
    if verdict != DEPLOY:
        if ds is not None and ds.episode_count is None:
            hedges.append(T.hedge_episode_count_empty())
        elif ds is not None and task.min_episode_count is None:
            hedges.append(T.hedge_min_episode_empty())
    return hedges


def build_cards(rnd: Round) -> list[RobotCard]:
    """One card per task of ``task_spec``, in its row order."""
    return [build_card(rnd, task) for task in rnd.tasks.values()]
