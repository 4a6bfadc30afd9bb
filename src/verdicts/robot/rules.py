"""The verdict rules of the robot domain, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentences
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  A rule that needs a value the input leaves empty
answers :class:`~verdicts.engine.Missing`: the verdict stops there (the book's policy is
``stop``), the card stays under that rule's verdict, its fields that cannot be computed
stay empty and its sentence names the missing value (see ``docs/decisions.md``).  Each
rule's docstring is its documentation — *What it flags / Why it matters / Example /
Instead*.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from verdicts.engine import Decision, Draft, Missing, Rule, RuleBook
from verdicts.numbers import as_number, parse_decimal

from . import templates as T
from .analysis import RunStats, run_stats
from .model import (
    BELOW_TARGET, CYCLE_OVER, DEPLOY, FAILURES_CONCENTRATED, MIN_FAILURES_FOR_CONCENTRATION, NOT_EVALUATED,
    NOT_IN_TRAINING, SKILL_MISMATCH, UNKNOWN_ARTIFACT, DatasetRow, Round, Run, TaskSpec, CARD_FIELDS,
)

__all__ = ["TaskContext", "RULES", "BOOK", "build_card", "build_cards", "cell_value", "decide"]

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


@dataclass
class TaskContext:
    """Everything the rules may look at for one task."""

    round: Round
    task: TaskSpec
    dataset: DatasetRow | None
    runs: list[Run]
    stats: RunStats

    @property
    def more(self) -> int | None:
        """``more_episode_count``: how many episodes are still missing, floored at 0."""
        ds, task = self.dataset, self.task
        if ds is None or ds.episode_count is None or task.min_episode_count is None:
            return None
        return max(0, task.min_episode_count - ds.episode_count)

    @property
    def site(self) -> str | None:
        return self.dataset.capture_site if self.dataset else None

    @property
    def hand(self) -> str | None:
        return self.dataset.robot_hand_type if self.dataset else None


class _Cite:
    """Evidence for one card, citing only columns the input has (onto ``draft.evidence``)."""

    def __init__(self, t: TaskContext, draft: Draft):
        self.rnd = t.round
        self.items = draft.evidence

    def row(self, table: str, row: Any, column: str) -> None:
        if row is None or not self.rnd.has(table, column):
            return
        item = {"source": table, "field": column, "value": cell_value(column, row.raw.get(column)), "line": row.line}
        if item not in self.items:
            self.items.append(item)

    def agg(self, table: str, column: str, agg: str, value: Any) -> None:
        if value is None or not self.rnd.has(table, column):
            return
        self.items.append({"source": table, "field": column, "agg": agg, "value": value})

    def runs(self, stats: RunStats) -> None:
        column = "episode_id" if self.rnd.has("evaluation_run", "episode_id") else "task_id"
        self.agg("evaluation_run", column, "count", stats.runs)
        self.agg("evaluation_run", "success", "sum", stats.successes)

    def collection(self, t: TaskContext) -> None:
        ds = t.dataset
        if t.more is not None or (ds is not None and ds.episode_count is None):
            self.row("task_spec", t.task, "min_episode_count")
            self.row("dataset_index", ds, "episode_count")
        self.row("dataset_index", ds, "capture_site")
        self.row("dataset_index", ds, "robot_hand_type")


class SkillMismatch(Rule[Round, TaskContext]):
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

    verdict, code, stamp = NOT_IN_TRAINING, "skill-mismatch", {"blocked_cause": SKILL_MISMATCH}
    templates = (T.skill_mismatch, T.skill_unknown, T.hedge_no_dataset_table, T.hedge_no_runs, T.hedge_success_unknown)

    def test(self, rnd, t):
        if t.dataset is None:
            return True
        missing = []
        if not t.task.required_skill:
            missing.append("task_spec.required_skill")
        if not t.dataset.required_skill:
            missing.append("dataset_index.required_skill")
        if missing:
            return Missing(tuple(missing))
        return t.dataset.required_skill != t.task.required_skill

    def write(self, rnd, t, draft):
        ev, ds, stats = _Cite(t, draft), t.dataset, t.stats
        ev.row("task_spec", t.task, "required_skill")
        if ds is None:
            if rnd.datasets_known:
                ev.agg("dataset_index", "task_id", "count", 0)
        else:
            ev.row("dataset_index", ds, "required_skill")
        if stats.runs:
            ev.runs(stats)
        ev.collection(t)
        if draft.missing:
            draft.summary = T.skill_unknown(missing=draft.missing)
        else:
            draft.summary = T.skill_mismatch(required=t.task.required_skill, have=ds.required_skill if ds else None,
                                             has_row=ds is not None, more=t.more, minimum=t.task.min_episode_count,
                                             site=t.site, hand=t.hand)
        if not rnd.datasets_known:
            draft.hedge(T.hedge_no_dataset_table())
        if not stats.runs and rnd.runs_known:
            draft.hedge(T.hedge_no_runs())
        if stats.runs and stats.unknown_success:  # the verdict did not need the success rate
            draft.hedge(T.hedge_success_unknown(unknown=stats.unknown_success))


class NotEvaluated(Rule[Round, TaskContext]):
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

    verdict, code, stamp = NOT_IN_TRAINING, "not-evaluated", {"blocked_cause": NOT_EVALUATED}
    templates = (T.not_evaluated, T.runs_unknown)

    def test(self, rnd, t):
        if not rnd.runs_known:
            return Missing(("evaluation_run.task_id",))
        return not t.runs

    def write(self, rnd, t, draft):
        ev = _Cite(t, draft)
        ev.row("task_spec", t.task, "required_skill")
        ev.row("dataset_index", t.dataset, "required_skill")
        if draft.missing:
            draft.summary = T.runs_unknown()
            return
        ev.agg("evaluation_run", "task_id", "count", 0)
        ev.collection(t)
        draft.summary = T.not_evaluated(required=t.task.required_skill, artifact=rnd.artifact or UNKNOWN_ARTIFACT,
                                        more=t.more, minimum=t.task.min_episode_count)


class BelowTarget(Rule[Round, TaskContext]):
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

    verdict, code = BELOW_TARGET, "below-target"
    templates = (T.below_target, T.success_unknown, T.target_unknown)

    def test(self, rnd, t):
        gap = Missing.among({"evaluation_run.success": t.stats.success_rate,
                             "task_spec.target_success_rate": t.task.target_success_rate})
        return gap or t.stats.success_rate < t.task.target_success_rate

    def write(self, rnd, t, draft):
        ev, stats = _Cite(t, draft), t.stats
        ev.runs(stats)
        ev.row("task_spec", t.task, "target_success_rate")
        ev.collection(t)
        if stats.success_rate is None:
            draft.summary = T.success_unknown(runs=stats.runs, unknown=stats.unknown_success)
        elif t.task.target_success_rate is None:
            draft.summary = T.target_unknown(runs=stats.runs, successes=stats.successes, rate=stats.success_rate)
        else:
            draft.summary = T.below_target(runs=stats.runs, successes=stats.successes, rate=stats.success_rate,
                                           target=t.task.target_success_rate, more=t.more, minimum=t.task.min_episode_count,
                                           site=t.site, hand=t.hand)


class FailuresConcentrated(Rule[Round, TaskContext]):
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

    verdict, code = FAILURES_CONCENTRATED, "failures-concentrated"
    templates = (T.concentrated, T.reasons_unknown, T.limit_unknown)

    def test(self, rnd, t):
        total = t.stats.failure_total
        if total is None:
            return Missing(("evaluation_run.success",))
        if total < MIN_FAILURES_FOR_CONCENTRATION:
            return False
        gap = Missing.among({"evaluation_run.failure_reason": t.stats.top_failure_share,
                             "task_spec.top_reason_share_limit": t.task.top_reason_share_limit})
        return gap or t.stats.top_failure_share > t.task.top_reason_share_limit

    def write(self, rnd, t, draft):
        ev, stats, task = _Cite(t, draft), t.stats, t.task
        ev.runs(stats)
        ev.row("task_spec", task, "target_success_rate")
        if stats.top_failure_reason is not None:
            first = next((r for r in t.runs if r.success is False and r.failure_reason == stats.top_failure_reason), None)
            ev.row("evaluation_run", first, "failure_reason")
            ev.agg("evaluation_run", "failure_reason", "count", stats.top_failure_count)
        ev.row("task_spec", task, "top_reason_share_limit")
        ev.collection(t)
        if stats.top_failure_share is None:
            draft.summary = T.reasons_unknown(total=stats.failure_total)
        elif task.top_reason_share_limit is None:
            draft.summary = T.limit_unknown(total=stats.failure_total, reason=stats.top_failure_reason,
                                            count=stats.top_failure_count, share=stats.top_failure_share)
        else:
            draft.summary = T.concentrated(total=stats.failure_total, reason=stats.top_failure_reason,
                                           count=stats.top_failure_count, share=stats.top_failure_share,
                                           limit=task.top_reason_share_limit, site=t.site, hand=t.hand)


def _cycle_evidence(ev: _Cite, t: TaskContext) -> None:
    """What the two last rules cite first: runs, the target, the median and its limit."""
    ev.runs(t.stats)
    ev.row("task_spec", t.task, "target_success_rate")
    ev.agg("evaluation_run", "cycle_sec", "median", as_number(t.stats.cycle_sec_median))
    ev.row("task_spec", t.task, "max_cycle_sec")


class CycleOver(Rule[Round, TaskContext]):
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

    verdict, code = CYCLE_OVER, "cycle-over"
    templates = (T.cycle_over, T.cycle_unknown, T.max_cycle_unknown)

    def test(self, rnd, t):
        gap = Missing.among({"evaluation_run.cycle_sec": t.stats.cycle_sec_median, "task_spec.max_cycle_sec": t.task.max_cycle_sec})
        return gap or t.stats.cycle_sec_median > t.task.max_cycle_sec

    def write(self, rnd, t, draft):
        ev, stats, task = _Cite(t, draft), t.stats, t.task
        _cycle_evidence(ev, t)
        ev.collection(t)
        if stats.cycle_sec_median is None:
            draft.summary = T.cycle_unknown(rate=stats.success_rate, target=task.target_success_rate, runs=stats.runs,
                                            unknown=stats.unknown_cycle)
        elif task.max_cycle_sec is None:
            draft.summary = T.max_cycle_unknown(rate=stats.success_rate, target=task.target_success_rate,
                                                median=stats.cycle_sec_median)
        else:
            draft.summary = T.cycle_over(rate=stats.success_rate, target=task.target_success_rate, median=stats.cycle_sec_median,
                                         limit=task.max_cycle_sec, site=t.site, hand=t.hand)


class Deploy(Rule[Round, TaskContext]):
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

    verdict, code = DEPLOY, "deploy"
    stamp = {"recapture_site": None, "recapture_hand": None}  # nothing to collect again
    templates = (T.deploy,)

    def write(self, rnd, t, draft):
        ev, stats = _Cite(t, draft), t.stats
        _cycle_evidence(ev, t)
        if stats.failure_total is not None and stats.failure_total >= MIN_FAILURES_FOR_CONCENTRATION:
            ev.row("task_spec", t.task, "top_reason_share_limit")
        draft.summary = T.deploy(runs=stats.runs, successes=stats.successes, rate=stats.success_rate,
                                 target=t.task.target_success_rate, median=stats.cycle_sec_median, limit=t.task.max_cycle_sec)


CONCENTRATION, DEPLOY_RULE = FailuresConcentrated(), Deploy()
RULES: tuple[Rule, ...] = (SkillMismatch(), NotEvaluated(), BelowTarget(), CONCENTRATION, CycleOver(), DEPLOY_RULE)


def _stopped(rnd: Round, t: TaskContext, draft: Draft) -> None:
    """Which values stopped the verdict, and which later steps were not looked at."""
    if draft.missing:
        later = RULES[RULES.index(draft.decision.rule) + 1:]
        verdict = draft.decision.verdict
        draft.hedge(T.hedge_stopped(missing=draft.missing, later=[r.verdict for r in later if r.verdict not in (DEPLOY, verdict)]))


def _passed(draft: Draft, rule: Rule) -> bool:
    """Whether the verdict came from a rule after ``rule`` (``rule`` was tried and did
    not fire)."""
    return RULES.index(draft.decision.rule) > RULES.index(rule)


def _hedges(rnd: Round, t: TaskContext, draft: Draft) -> None:
    """The hedges that do not belong to one verdict: what could not be counted, a
    concentration skipped for too few failures, and how many episodes to collect."""
    stats, task, ds = t.stats, t.task, t.dataset
    if stats.runs and stats.cycle_sec_median is None and "evaluation_run.cycle_sec" not in draft.missing:
        draft.hedge(T.hedge_cycle_unknown(unknown=stats.unknown_cycle))
    if stats.unnamed_failures and stats.top_failure_reason is not None:
        draft.hedge(T.hedge_unnamed_failures(total=stats.failure_total, unnamed=stats.unnamed_failures))
    if (_passed(draft, CONCENTRATION) and stats.failure_total and 2 <= stats.failure_total < MIN_FAILURES_FOR_CONCENTRATION
            and stats.top_failure_share is not None and task.top_reason_share_limit is not None
            and stats.top_failure_share > task.top_reason_share_limit):
        draft.hedge(T.hedge_few_failures(total=stats.failure_total, share=stats.top_failure_share, limit=task.top_reason_share_limit))
    if draft.decision.rule is not DEPLOY_RULE:  # something is to be collected
        if ds is not None and ds.episode_count is None:
            draft.hedge(T.hedge_episode_count_empty())
        elif ds is not None and task.min_episode_count is None:
            draft.hedge(T.hedge_min_episode_empty())


BOOK: RuleBook[Round, TaskContext] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="stop", lead=_stopped, hedges=_hedges)


def _num(value: Decimal | None) -> float | None:
    return as_number(value)


def task_context(rnd: Round, task: TaskSpec) -> TaskContext:
    runs = rnd.runs.get(task.task_id, [])
    return TaskContext(rnd, task, rnd.datasets.get(task.task_id), runs, run_stats(runs))


def decide(t: TaskContext) -> Decision:
    return BOOK.decide(t.round, t)


def build_card(rnd: Round, task: TaskSpec) -> dict[str, Any]:
    """The card of one task (the schema-shaped dict)."""
    t = task_context(rnd, task)
    stats, ds = t.stats, t.dataset

    def values(decision: Decision) -> dict[str, Any]:
        return {
            "task_id": task.task_id, "model_artifact": rnd.artifact or UNKNOWN_ARTIFACT,
            "success_rate": _num(stats.success_rate), "failure_total": stats.failure_total,
            "top_failure_reason": stats.top_failure_reason, "top_failure_count": stats.top_failure_count,
            "top_failure_share": _num(stats.top_failure_share), "cycle_sec_median": _num(stats.cycle_sec_median),
            "more_episode_count": t.more,
            "recapture_site": ds.capture_site if ds is not None else None,
            "recapture_hand": ds.robot_hand_type if ds is not None else None,
        }

    return BOOK.card(rnd, t, values)


def build_cards(rnd: Round) -> list[dict[str, Any]]:
    """One card per task of ``task_spec``, in its row order."""
    return [build_card(rnd, task) for task in rnd.tasks.values()]
