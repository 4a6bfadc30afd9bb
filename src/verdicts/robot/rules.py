"""The verdict rules of the robot domain, one small named unit each, in order of
precedence (first match wins).

A rule answers ``True`` (this verdict), ``False`` (try the next rule) or a
:class:`Missing` naming the values it needed and did not get.  A missing value stops the
verdict at that rule: the card stays in the list under that rule's verdict, its fields
that cannot be computed stay empty and its hedge names the missing value (see
``docs/decisions.md``).  Each rule's docstring is its documentation — *What it flags /
Why it matters / Example / Instead*.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .analysis import RunStats
from .model import (
    BELOW_TARGET, CYCLE_OVER, DEPLOY, FAILURES_CONCENTRATED, MIN_FAILURES_FOR_CONCENTRATION, NOT_EVALUATED,
    NOT_IN_TRAINING, SKILL_MISMATCH, DatasetRow, Round, Run, TaskSpec,
)

__all__ = ["Missing", "TaskContext", "Rule", "RULES", "Decision", "decide"]


@dataclass(frozen=True)
class Missing:
    """The values (``table.column``) a rule needed and found empty or unreadable."""

    values: tuple[str, ...]


@dataclass
class TaskContext:
    """Everything the rules may look at for one task."""

    round: Round
    task: TaskSpec
    dataset: DatasetRow | None
    runs: list[Run]
    stats: RunStats



def skill_mismatch(ctx: TaskContext) -> bool | Missing:
    """학습에 없는 조건 (능력 불일치) — the collected data does not teach the skill the task needs.

    What it flags:
        A task with no row in ``dataset_index``, or whose row's ``required_skill``
        differs from ``task_spec.required_skill``.
    Why it matters:
        The model was never shown this kind of manipulation; its evaluation numbers say
        nothing about what to collect, the skill itself is missing.
    Example:
        ``task_spec`` needs ``bimanual_coord``; the dataset row holds ``single_arm_pick``.
    Instead:
        Collect episodes of the required skill at the row's site with its hand type.
    """
    if ctx.dataset is None:
        return True
    missing = []
    if not ctx.task.required_skill:
        missing.append("task_spec.required_skill")
    if not ctx.dataset.required_skill:
        missing.append("dataset_index.required_skill")
    if missing:
        return Missing(tuple(missing))
    return ctx.dataset.required_skill != ctx.task.required_skill


def not_evaluated(ctx: TaskContext) -> bool | Missing:
    """학습에 없는 조건 (평가 미실시) — the skill matches, but the round has no run of the task.

    What it flags:
        A task whose ``task_id`` appears in no ``evaluation_run`` row of the round's
        ``model_artifact``.
    Why it matters:
        Without a single episode nothing is known about how the model does on it.
    Example:
        ``door-open`` has matching data but was left out of this round's runs.
    Instead:
        Run the evaluation for the task before deciding what to collect.
    """
    if not ctx.round.runs_known:
        return Missing(("evaluation_run.task_id",))
    return not ctx.runs


def below_target(ctx: TaskContext) -> bool | Missing:
    """성공률 미달 — the rounded success rate is below ``target_success_rate``.

    What it flags:
        ``success_rate`` (successes ÷ runs, rounded half up to two decimals) strictly
        below the task's ``target_success_rate``.  Equal is not below.
    Why it matters:
        The model does not yet do the task often enough to be deployed.
    Example:
        6 successes in 10 runs (0.6) against a target of 0.9.
    Instead:
        Collect more episodes of the task, at its site and hand, up to
        ``min_episode_count``.
    """
    missing = []
    if ctx.stats.success_rate is None:
        missing.append("evaluation_run.success")
    if ctx.task.target_success_rate is None:
        missing.append("task_spec.target_success_rate")
    if missing:
        return Missing(tuple(missing))
    return ctx.stats.success_rate < ctx.task.target_success_rate


def failures_concentrated(ctx: TaskContext) -> bool | Missing:
    """실패 유형 쏠림 — at least 3 failures, and one reason's share is over the limit.

    What it flags:
        ``failure_total`` ≥ 3 and ``top_failure_share`` (the most frequent non-empty
        ``failure_reason``'s count ÷ all failures, empty reasons included, rounded half
        up) strictly above ``top_reason_share_limit``.  With fewer than 3 failures the
        sample is too small and the rule does not fire; a share equal to the limit is not
        over it.
    Why it matters:
        One kind of failure dominates: collecting more of everything wastes effort.
    Example:
        3 failures, 2 of them ``grasp_slip`` (0.67) against a limit of 0.5.
    Instead:
        Collect episodes aimed at that failure (its angles, objects, lighting).
    """
    total = ctx.stats.failure_total
    if total is None:
        return Missing(("evaluation_run.success",))
    if total < MIN_FAILURES_FOR_CONCENTRATION:
        return False
    missing = []
    if ctx.stats.top_failure_share is None:
        missing.append("evaluation_run.failure_reason")
    if ctx.task.top_reason_share_limit is None:
        missing.append("task_spec.top_reason_share_limit")
    if missing:
        return Missing(tuple(missing))
    return ctx.stats.top_failure_share > ctx.task.top_reason_share_limit


def cycle_over(ctx: TaskContext) -> bool | Missing:
    """작업 주기 초과 — the median cycle time is above ``max_cycle_sec``.

    What it flags:
        ``cycle_sec_median`` (the median of the runs' ``cycle_sec``; the mean of the two
        middle values for an even number of runs; rounded half up) strictly above the
        task's ``max_cycle_sec``.
    Why it matters:
        The task succeeds, but too slowly for the line's takt.
    Example:
        A median of 12.45 s against a limit of 11 s.
    Instead:
        Collect faster demonstrations of the task.
    """
    missing = []
    if ctx.stats.cycle_sec_median is None:
        missing.append("evaluation_run.cycle_sec")
    if ctx.task.max_cycle_sec is None:
        missing.append("task_spec.max_cycle_sec")
    if missing:
        return Missing(tuple(missing))
    return ctx.stats.cycle_sec_median > ctx.task.max_cycle_sec


def deploy(ctx: TaskContext) -> bool | Missing:
    """배포 후보 — no rule above fired.

    What it flags:
        Nothing wrong: the data teaches the skill, the task was evaluated, its success
        rate meets the target, its failures are not concentrated and its cycle fits.
    Why it matters:
        It can go to deployment without more collection.
    Example:
        9 successes in 10 runs against a target of 0.85, median cycle 11.7 s under 14 s.
    Instead:
        Nothing to collect.
    """
    return True


@dataclass(frozen=True)
class Rule:
    verdict: str
    blocked_cause: str | None
    code: str
    func: Callable[[TaskContext], "bool | Missing"]

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()


RULES: tuple[Rule, ...] = (
    Rule(NOT_IN_TRAINING, SKILL_MISMATCH, "skill-mismatch", skill_mismatch),
    Rule(NOT_IN_TRAINING, NOT_EVALUATED, "not-evaluated", not_evaluated),
    Rule(BELOW_TARGET, None, "below-target", below_target),
    Rule(FAILURES_CONCENTRATED, None, "failures-concentrated", failures_concentrated),
    Rule(CYCLE_OVER, None, "cycle-over", cycle_over),
    Rule(DEPLOY, None, "deploy", deploy),
)


@dataclass(frozen=True)
class Decision:
    """The rule that gave the verdict, and what it missed when the verdict stopped there."""

    rule: Rule
    missing: tuple[str, ...] = ()

    @property
    def verdict(self) -> str:
        return self.rule.verdict

    @property
    def blocked_cause(self) -> str | None:
        return self.rule.blocked_cause

    @property
    def stopped(self) -> bool:
        return bool(self.missing)


def decide(ctx: TaskContext) -> Decision:
    """Apply the rules in order; the first that fires, or the first that lacks a value,
    decides."""
    for rule in RULES:
        outcome = rule.func(ctx)
        if isinstance(outcome, Missing):
            return Decision(rule, outcome.values)
        if outcome:
            return Decision(rule)
    raise AssertionError("the last rule always fires")  # pragma: no cover
