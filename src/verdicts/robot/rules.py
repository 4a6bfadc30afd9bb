"""The verdict rules of the robot domain, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentences
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  A rule that needs a value the input leaves empty
answers :class:`~verdicts.engine.Missing`: the card is withheld there (the book's policy
is ``hold``: the seed gives it no verdict), it stays in the list, its fields that cannot
be computed stay empty and its reason names each missing value and its place (see
``docs/decisions.md``).  Each
rule's docstring is its documentation — *잡는 것 / 왜 문제인가 / 예시 / 고치는 법*.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from verdicts.engine import Decision, Draft, HeldCell, Missing, Rule, RuleBook, Withhold, withhold_cells
from verdicts.korean import code
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
    """학습에 없는 조건 (능력 불일치) — 모아 둔 데이터가 이 태스크에 필요한 능력을 가르치지 않습니다.

    잡는 것:
        `dataset_index`에 줄이 없거나, 그 줄의 요구 능력(`required_skill`)이 태스크의 요구
        능력(`task_spec.required_skill`)과 다른 태스크를 잡습니다.
    왜 문제인가:
        모델은 이런 조작을 한 번도 본 적이 없습니다. 평가 수치로는 무엇을 모을지 알 수 없고, 능력 자체가 빠져
        있습니다.
    예시:
        태스크 명세(`task_spec`)에는 `bimanual_coord` 능력이 필요한데 데이터셋 줄에는 `single_arm_pick`이 적혀
        있습니다.
    고치는 법:
        그 줄의 수집 현장에서 같은 손 유형으로 필요한 능력의 에피소드를 모으세요.
    """

    verdict, code, stamp = NOT_IN_TRAINING, "skill-mismatch", {"blocked_cause": SKILL_MISMATCH}
    templates = (T.skill_mismatch, T.hedge_no_dataset_table, T.hedge_no_runs, T.hedge_success_unknown)

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
    """학습에 없는 조건 (평가 미실시) — 능력은 맞지만 이번 회차에 이 태스크를 돌린 평가가 없습니다.

    잡는 것:
        회차의 모델(`model_artifact`)로 돌린 `evaluation_run` 줄 어디에도 태스크 번호(`task_id`)가 나오지 않는
        태스크를 잡습니다.
    왜 문제인가:
        에피소드가 하나도 없으면 모델이 이 태스크를 얼마나 해내는지 아무것도 알 수 없습니다.
    예시:
        태스크 `door-open`은 능력이 맞는 데이터가 있지만 이번 회차의 평가에서 빠졌습니다.
    고치는 법:
        무엇을 모을지 정하기 전에 이 태스크의 평가부터 돌리세요.
    """

    verdict, code, stamp = NOT_IN_TRAINING, "not-evaluated", {"blocked_cause": NOT_EVALUATED}
    templates = (T.not_evaluated,)

    def test(self, rnd, t):
        if not rnd.runs_known:
            return Missing(("evaluation_run.task_id",))
        return not t.runs

    def write(self, rnd, t, draft):
        ev = _Cite(t, draft)
        ev.row("task_spec", t.task, "required_skill")
        ev.row("dataset_index", t.dataset, "required_skill")
        ev.agg("evaluation_run", "task_id", "count", 0)
        ev.collection(t)
        draft.summary = T.not_evaluated(required=t.task.required_skill, artifact=rnd.artifact or UNKNOWN_ARTIFACT,
                                        more=t.more, minimum=t.task.min_episode_count)


class BelowTarget(Rule[Round, TaskContext]):
    """성공률 미달 — 반올림한 성공률이 목표 성공률(`target_success_rate`)보다 낮습니다.

    잡는 것:
        성공률(`success_rate`, 성공 횟수 ÷ 평가 횟수를 소수 둘째 자리까지 반올림한 값)이 태스크의
        `target_success_rate`보다 작은 경우를 잡습니다. 같으면 미달이 아닙니다.
    왜 문제인가:
        모델이 아직 배포할 만큼 자주 태스크를 해내지 못합니다.
    예시:
        평가 10회 중 6회 성공(0.6)인데 목표는 0.9입니다.
    고치는 법:
        그 태스크의 현장과 손으로 최소 에피소드 수(`min_episode_count`)까지 에피소드를 더 모으세요.
    """

    verdict, code = BELOW_TARGET, "below-target"
    templates = (T.below_target,)

    def test(self, rnd, t):
        gap = Missing.among({"evaluation_run.success": t.stats.success_rate,
                             "task_spec.target_success_rate": t.task.target_success_rate})
        return gap or t.stats.success_rate < t.task.target_success_rate

    def write(self, rnd, t, draft):
        ev, stats = _Cite(t, draft), t.stats
        ev.runs(stats)
        ev.row("task_spec", t.task, "target_success_rate")
        ev.collection(t)
        # the rule fires on both values only (an empty one withholds the card)
        assert stats.success_rate is not None and t.task.target_success_rate is not None
        draft.summary = T.below_target(runs=stats.runs, successes=stats.successes, rate=stats.success_rate,
                                       target=t.task.target_success_rate, more=t.more, minimum=t.task.min_episode_count,
                                       site=t.site, hand=t.hand)


class FailuresConcentrated(Rule[Round, TaskContext]):
    """실패 유형 쏠림 — 실패가 3회 이상이고 한 사유의 몫이 한도를 넘습니다.

    잡는 것:
        실패 횟수(`failure_total`)가 3 이상이고, 가장 잦은 사유의 몫(`top_failure_share`)이
        한도(`top_reason_share_limit`)보다 큰 경우를 잡습니다. 몫은 비어 있지 않은 실패 사유(`failure_reason`)
        가운데 가장 잦은 것의 횟수를 사유가 빈 실패까지 더한 모든 실패의 수로 나누어 반올림한 값입니다. 실패가
        3회보다 적으면 표본이 너무 작아 이 규칙은 걸리지 않고, 몫이 한도와 같으면 넘은 것이 아닙니다.
    왜 문제인가:
        한 가지 실패가 대부분을 차지하므로 모든 것을 고르게 더 모으면 수고가 헛됩니다.
    예시:
        실패 3회 가운데 2회가 `grasp_slip`(0.67)인데 한도는 0.5입니다.
    고치는 법:
        그 실패를 겨냥한 에피소드(그 실패가 나는 각도, 물체, 조명)를 모으세요.
    """

    verdict, code = FAILURES_CONCENTRATED, "failures-concentrated"
    templates = (T.concentrated,)

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
        # the rule fires on both values only (an empty one withholds the card)
        assert stats.top_failure_share is not None and task.top_reason_share_limit is not None
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
    """작업 주기 초과 — 주기 중앙값이 상한(`max_cycle_sec`)보다 깁니다.

    잡는 것:
        주기 중앙값(`cycle_sec_median`)이 태스크의 `max_cycle_sec`보다 큰 경우를 잡습니다. 중앙값은 평가들의 `cycle_sec`
        중앙값(평가 수가 짝수면 가운데 두 값의 평균)을 반올림한 값입니다.
    왜 문제인가:
        태스크는 해내지만 라인의 택트에 비해 너무 느립니다.
    예시:
        주기 중앙값이 12.45초인데 상한은 11초입니다.
    고치는 법:
        이 태스크를 더 빠르게 해내는 시연을 모으세요.
    """

    verdict, code = CYCLE_OVER, "cycle-over"
    templates = (T.cycle_over,)

    def test(self, rnd, t):
        gap = Missing.among({"evaluation_run.cycle_sec": t.stats.cycle_sec_median, "task_spec.max_cycle_sec": t.task.max_cycle_sec})
        return gap or t.stats.cycle_sec_median > t.task.max_cycle_sec

    def write(self, rnd, t, draft):
        ev, stats, task = _Cite(t, draft), t.stats, t.task
        _cycle_evidence(ev, t)
        ev.collection(t)
        # the rule fires on both values only (an empty one withholds the card)
        assert stats.cycle_sec_median is not None and task.max_cycle_sec is not None
        draft.summary = T.cycle_over(rate=stats.success_rate, target=task.target_success_rate, median=stats.cycle_sec_median,
                                     limit=task.max_cycle_sec, site=t.site, hand=t.hand)


class Deploy(Rule[Round, TaskContext]):
    """배포 후보 — 위의 어느 규칙도 걸리지 않았습니다.

    잡는 것:
        잘못된 것은 없습니다. 데이터가 능력을 가르치고, 태스크를 평가했고, 성공률이 목표에 이르고, 실패가 한
        사유로 쏠리지 않았고, 주기도 상한 안입니다.
    왜 문제인가:
        문제가 아닙니다. 더 모으지 않고 배포로 넘길 수 있습니다.
    예시:
        평가 10회 중 9회 성공해 목표 0.85에 이르고, 주기 중앙값 11.7초로 상한 14초 안입니다.
    고치는 법:
        더 모을 것이 없습니다.
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


#: what a rule could not tell when a value it needs is empty
_QUESTION = {"skill-mismatch": "모은 데이터의 능력이 태스크와 맞는지", "not-evaluated": "이번 회차에 평가를 돌렸는지",
             "below-target": "성공률이 기준에 못 미치는지",
             "failures-concentrated": "실패가 한 사유로 쏠렸는지",
             "cycle-over": "작업 주기가 기준을 넘는지"}


def _cells(rnd: Round, t: TaskContext, value: str) -> list[HeldCell]:
    """The places of one value (``table.column``) a rule needed and found empty."""
    table, column = value.split(".")
    file = rnd.files.get(table)
    if table == "task_spec":
        return [HeldCell(table, t.task.line, column, t.task.raw.get(column), present=rnd.has(table, column), file=file)]
    if table == "dataset_index":
        line = t.dataset.line if t.dataset is not None else None
        text = t.dataset.raw.get(column) if t.dataset is not None else None
        return [HeldCell(table, line, column, text, present=rnd.has(table, column), file=file)]
    if column == "task_id" or not rnd.has(table, column):
        how = None if file is not None else f"{code(table)} 표가 없"
        return [HeldCell(table, None, column, None, present=False, file=file, how=how)]
    if column == "success":
        runs = [r for r in t.runs if r.success is None]
    elif column == "cycle_sec":
        runs = [r for r in t.runs if r.cycle_sec is None]
    else:  # failure_reason: the failures that name no reason
        runs = [r for r in t.runs if r.success is False and not r.failure_reason]
    return [HeldCell(table, r.line, column, r.raw.get(column), file=file) for r in runs]


def _hold(rnd: Round, t: TaskContext, rule: Rule, missing: tuple[str, ...]) -> Withhold:
    """The card of a task whose ``rule`` needs values that are empty: withheld, its
    reason naming each value and its place (the seed gives it no verdict)."""
    draft = Draft(Decision(rule))
    ev = _Cite(t, draft)
    ev.row("task_spec", t.task, "task_id")
    cells = [cell for value in missing for cell in _cells(rnd, t, value)]
    for cell in cells:
        if cell.table == "task_spec":
            ev.row("task_spec", t.task, cell.column)
        elif cell.table == "dataset_index":
            ev.row("dataset_index", t.dataset, cell.column)
    if t.runs:
        ev.runs(t.stats)
    return withhold_cells(cells, _QUESTION[rule.code], "이 태스크", draft.evidence)


def _passed(draft: Draft, rule: Rule) -> bool:
    """Whether the verdict came from a rule after ``rule`` (``rule`` was tried and did
    not fire)."""
    return RULES.index(draft.decision.rule) > RULES.index(rule)


def _hedges(rnd: Round, t: TaskContext, draft: Draft) -> None:
    """The hedges that do not belong to one verdict: what could not be counted, a
    concentration skipped for too few failures, and how many episodes to collect."""
    stats, task, ds = t.stats, t.task, t.dataset
    if stats.runs and stats.cycle_sec_median is None:
        draft.hedge(T.hedge_cycle_unknown(unknown=stats.unknown_cycle))
    if stats.unnamed_failures and stats.top_failure_reason is not None:
        assert stats.failure_total is not None  # failures were counted
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


BOOK: RuleBook[Round, TaskContext] = RuleBook(RULES, fields=CARD_FIELDS, on_missing="hold", hold=_hold, hedges=_hedges)


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

    card = BOOK.card(rnd, t, values)
    assert card is not None  # on_missing="hold": a task that cannot be judged is withheld, never dropped
    return card


def build_cards(rnd: Round) -> list[dict[str, Any]]:
    """One card per task of ``task_spec``, in its row order."""
    return [build_card(rnd, task) for task in rnd.tasks.values()]
