"""The fourteen automatic checks of the robot domain ("자동 검증").

Each check recomputes its claim from the typed input tables with its own code — its own
grouping of runs, :mod:`decimal` rounding with ``ROUND_HALF_UP`` rather than the card
builder's fractions — and reports the cards it failed on.  The checks read the cards as
JSON, so they run as well over cards that this tool did not make (the seed's samples).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

from verdicts.card_checks import CardChecks, withheld_ok
from verdicts.checks import CheckRegistry
from verdicts.numbers import parse_decimal
from verdicts.tables import Row, TypedTable, parse_bool

from .model import (
    AGGS, BELOW_TARGET, BLOCKED_CAUSES, CYCLE_OVER, DEPLOY, FAILURES_CONCENTRATED, NOT_EVALUATED, NOT_IN_TRAINING,
    SKILL_MISMATCH, TABLE_SPECS, VERDICTS,
)

__all__ = ["CHECKS", "CheckContext", "Recomputed"]

_CENT = Decimal("0.01")
_STATS = ("success_rate", "failure_total", "top_failure_reason", "top_failure_count", "top_failure_share", "cycle_sec_median")
_AFTER_SUCCESS = (FAILURES_CONCENTRATED, CYCLE_OVER, DEPLOY)


def _rounded(num: Decimal | int, den: Decimal | int) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 60
        return (Decimal(num) / Decimal(den)).quantize(_CENT, rounding=ROUND_HALF_UP)


def _dec(value: Any) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    return Decimal(repr(value)) if isinstance(value, float) else Decimal(value) if isinstance(value, int) else parse_decimal(str(value))


@dataclass
class Recomputed:
    """One task's values as the checks recompute them from the tables."""

    spec: Row | None
    dataset: Row | None
    runs: list[Row]
    runs_known: bool
    success_rate: Decimal | None = None
    failure_total: int | None = None
    top_failure_reason: str | None = None
    top_failure_count: int | None = None
    top_failure_share: Decimal | None = None
    cycle_sec_median: Decimal | None = None

    def threshold(self, column: str, low: str | None = "0", high: str | None = "1") -> Decimal | None:
        if self.spec is None:
            return None
        value = parse_decimal(self.spec.raw.get(column))
        if value is None or (low is not None and value < Decimal(low)) or (high is not None and value > Decimal(high)):
            return None
        return value


@dataclass
class CheckContext:
    """The typed tables of a round and the cards (as JSON) to check against them."""

    tables: dict[str, TypedTable]
    cards: list[dict[str, Any]]
    _cache: dict[str, Recomputed] = field(default_factory=dict)
    _index: dict[Any, dict[Any, Any]] = field(default_factory=dict)
    #: facts of this context's cards (the core's card checks keep their sweep here)
    _own: dict[str, Any] = field(default_factory=dict)

    def columns(self, table: str) -> set[str]:
        t = self.tables.get(table)
        return set(t.present) if t is not None else set()

    def _rows(self, table: str, task_id: str) -> list[Row]:
        index = self._index.get(table)
        if index is None:
            index = {}
            t = self.tables.get(table)
            if t is not None and t.has("task_id"):
                for r in t.rows:
                    index.setdefault(r.raw.get("task_id"), []).append(r)
            self._index[table] = index
        return index.get(task_id, [])

    # what the core's card checks read (verdicts.card_checks)
    def row_index(self) -> dict[tuple[str, int], list[dict[str, str | None]]]:
        """``(table, line)`` → the raw cells of the rows at that line."""
        index = self._index.get("rows")
        if index is None:
            index = self._index["rows"] = {}
            for name, t in self.tables.items():
                for r in t.rows:
                    index.setdefault((name, r.line), []).append(r.raw)
        return index

    def rows_for(self, card: dict[str, Any], table: str) -> list[dict[str, str | None]]:
        """The task's own rows of ``table`` (its runs of the card's artifact)."""
        rc = self.task(card)
        rows = {"task_spec": [rc.spec] if rc.spec else [], "dataset_index": [rc.dataset] if rc.dataset else [],
                "evaluation_run": rc.runs}.get(table, [])
        return [r.raw for r in rows]

    def task(self, card: dict[str, Any]) -> Recomputed:
        task_id: Any = card.get("task_id")  # as the card says (None when it has none)
        if task_id in self._cache:
            return self._cache[task_id]
        specs = self._rows("task_spec", task_id)
        datasets = self._rows("dataset_index", task_id)
        runs_table = self.tables.get("evaluation_run")
        runs_known = runs_table is not None and runs_table.has("task_id")
        runs: list[Row] = []
        episodes: set[str] = set()
        for row in self._rows("evaluation_run", task_id):
            artifact = row.raw.get("model_artifact")
            if artifact is not None and artifact != card.get("model_artifact"):
                continue
            episode = row.raw.get("episode_id")
            if episode is not None:
                if episode in episodes:
                    continue
                episodes.add(episode)
            runs.append(row)
        rc = Recomputed(specs[0] if specs else None, datasets[0] if datasets else None, runs, runs_known)
        if runs:
            outcomes = [parse_bool(success) if (success := r.raw.get("success")) else None for r in runs]
            known = [ok for ok in outcomes if ok is not None]
            if len(known) == len(outcomes):
                failed = [r for r, ok in zip(runs, known) if not ok]
                rc.success_rate = _rounded(sum(known), len(runs))
                rc.failure_total = len(failed)
                reasons = Counter(r.raw.get("failure_reason") for r in failed if r.raw.get("failure_reason"))
                if reasons:
                    best = max(reasons.values())
                    rc.top_failure_reason = sorted(k for k, v in reasons.items() if k is not None and v == best)[0]
                    rc.top_failure_count = best
                    rc.top_failure_share = _rounded(best, len(failed))
            cycles = [parse_decimal(r.raw.get("cycle_sec")) for r in runs]
            positive = [c for c in cycles if c is not None and c > 0]
            if len(positive) == len(cycles):
                ordered = sorted(positive)
                mid = len(ordered) // 2
                exact = ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2
                rc.cycle_sec_median = exact.quantize(_CENT, rounding=ROUND_HALF_UP)
        self._cache[task_id] = rc
        return rc


def _same_number(card_value: Any, expected: Decimal | int | None) -> bool:
    if expected is None or card_value is None:
        return expected is None and card_value is None
    got = _dec(card_value)
    return got is not None and got == Decimal(expected)


CHECKS: CheckRegistry[CheckContext] = CheckRegistry()


CARD_CHECKS = CardChecks(
    key_field="task_id",
    enums={"verdict": VERDICTS},
    required=("task_id", "model_artifact", "verdict", "evidence", "summary"),
    tables=tuple(spec.name for spec in TABLE_SPECS),
    aggs=AGGS,
    empty=(None, "", []),
)
CHECKS.add(CARD_CHECKS.enum_check("C01", "`verdict` 값이 다섯 판정 가운데 하나인지 확인합니다."))
CHECKS.add(CARD_CHECKS.required_check("C02", "`task_id`·`model_artifact`·`verdict`·`evidence`·`summary` 다섯 칸이 모두 차 있는지 확인합니다."))


@CHECKS.register("C03", "`success_rate`를 다시 계산해 반올림한 값과 같은지, 그 값이 `target_success_rate`보다 작을 때만 성공률 미달인지 확인합니다.")
def success_rate_recomputed(ctx: CheckContext):
    """성공률(`success_rate`)은 성공 횟수 ÷ 평가 횟수를 소수 둘째 자리까지 반올림한 값이고, 그 값이 목표보다
    작을 때에만 성공률 미달입니다(같으면 미달이 아닙니다). 성공률이나 목표를 계산할 수 없으면 카드는
    판정을 보류하고, 그 규칙을 지난 카드는 둘 다 있으면서 성공률이 목표 이상이어야 합니다.
    """
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        if not _same_number(c.get("success_rate"), rc.success_rate):
            failed.append(c["task_id"])
            continue
        target = rc.threshold("target_success_rate")
        rate = rc.success_rate
        if c.get("verdict") == BELOW_TARGET and rate is not None and target is not None and not rate < target:
            failed.append(c["task_id"])
        if c.get("verdict") in _AFTER_SUCCESS and not (rate is not None and target is not None and rate >= target):
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C04", "`failure_total`·`top_failure_reason`·`top_failure_count`·`top_failure_share`를 사유가 빈 실패까지 분모에 넣어 다시 계산합니다.")
def failure_counts_recomputed(ctx: CheckContext):
    """실패는 `success` 값이 거짓인 평가를 사유가 빈 것까지 모두 셉니다. 가장 잦은 사유는 비어 있지 않은 사유
    가운데 가장 많이 나온 것이고, 횟수가 같으면 이름순으로 앞선 것입니다. 몫은 그 횟수를 모든 실패의 수로
    나누어 반올림한 값입니다.
    """
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        if (c.get("failure_total") != rc.failure_total or c.get("top_failure_reason") != rc.top_failure_reason
                or c.get("top_failure_count") != rc.top_failure_count
                or not _same_number(c.get("top_failure_share"), rc.top_failure_share)):
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C05", "실패 유형 쏠림이 실패 3회 이상이고 `top_failure_share`가 `top_reason_share_limit`을 넘을 때만 붙었는지 확인합니다.")
def concentration_recomputed(ctx: CheckContext):
    """실패가 3회 이상이고 몫이 한도보다 크면 실패 유형 쏠림 판정을 내리고, 몫이 한도와 같거나 실패가 3회보다
    적으면 내리지 않습니다. 몫이나 한도를 계산할 수 없으면 카드는 판정을 보류합니다.
    """
    failed = []
    for c in ctx.cards:
        verdict = c.get("verdict")
        if verdict not in (FAILURES_CONCENTRATED, CYCLE_OVER, DEPLOY):
            continue
        rc = ctx.task(c)
        total, share, limit = rc.failure_total, rc.top_failure_share, rc.threshold("top_reason_share_limit")
        if total is None:
            failed.append(c["task_id"])
            continue
        decided = total < 3 or (share is not None and limit is not None)
        fires = total >= 3 and share is not None and limit is not None and share > limit
        if verdict == FAILURES_CONCENTRATED and decided and not fires:
            failed.append(c["task_id"])
        if verdict in (CYCLE_OVER, DEPLOY) and (not decided or fires):
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C06", "`cycle_sec_median`을 다시 계산하고(짝수면 가운데 두 값의 평균) `max_cycle_sec`보다 클 때만 작업 주기 초과인지 확인합니다.")
def cycle_recomputed(ctx: CheckContext):
    """평가들의 `cycle_sec` 중앙값(평가 수가 짝수면 가운데 두 값의 평균)을 반올림하고, 그 값이
    상한(`max_cycle_sec`)보다 클 때에만 작업 주기 초과입니다.
    """
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        if not _same_number(c.get("cycle_sec_median"), rc.cycle_sec_median):
            failed.append(c["task_id"])
            continue
        limit = rc.threshold("max_cycle_sec", low=None, high=None)
        if limit is not None and limit <= 0:
            limit = None
        median = rc.cycle_sec_median
        if c.get("verdict") == CYCLE_OVER and median is not None and limit is not None and not median > limit:
            failed.append(c["task_id"])
        if c.get("verdict") == DEPLOY and not (median is not None and limit is not None and median <= limit):
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C07", "`more_episode_count`를 `min_episode_count` − `episode_count`(음수면 0)로 다시 계산하고, 수집 줄이나 `episode_count`가 없으면 비었는지 확인합니다.")
def more_episodes_recomputed(ctx: CheckContext):
    """더 모을 에피소드 수는 태스크의 최소 에피소드 수에서 데이터셋 줄이 가진 수를 뺀 값이며 0보다 작아지지
    않습니다. 데이터셋 줄이나 그 줄의 `episode_count` 값이 없으면 비워 둡니다.
    """
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        expected = None
        if rc.dataset is not None and rc.spec is not None:
            have = parse_decimal(rc.dataset.raw.get("episode_count"))
            need = parse_decimal(rc.spec.raw.get("min_episode_count"))
            if have is not None and need is not None and have >= 0 and need >= 0:
                expected = int(max(Decimal(0), need - have))
        if c.get("more_episode_count") != expected or isinstance(c.get("more_episode_count"), bool):
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C08", "평가 회차가 한 줄도 없는 태스크는 성공률·실패·사유·주기 여섯 칸이 모두 비었는지 확인합니다.")
def no_runs_no_stats(ctx: CheckContext):
    """평가가 없는 태스크에는 평가 통계를 계산할 바탕이 없습니다."""
    return [c["task_id"] for c in ctx.cards if not ctx.task(c).runs and any(c.get(k) is not None for k in _STATS)]


@CHECKS.register("C09", "`blocked_cause` 값이 학습에 없는 조건에만 있고, 능력 짝이 어긋나면 능력 불일치·평가가 없으면 평가 미실시인지 확인합니다.")
def blocked_cause_recomputed(ctx: CheckContext):
    """데이터셋 줄이 없거나 그 줄의 요구 능력(`required_skill`)이 태스크의 것과 다르면(또는 어느 한쪽이
    비었으면) 능력 불일치입니다. 그렇지 않고 회차에 이 태스크의 평가가 없으면(또는 평가를 가려낼 수 없으면)
    평가 미실시입니다. 다른 판정에는 원인이 붙지 않으며, 능력이 맞는 데이터셋 줄과 평가가 있어야 합니다. 판정을
    보류한 카드에도 원인이 붙지 않습니다.
    """
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        need = rc.spec.raw.get("required_skill") if rc.spec else None
        have = rc.dataset.raw.get("required_skill") if rc.dataset else None
        mismatch = rc.dataset is None or need is None or have is None or need != have
        no_runs = not rc.runs_known or not rc.runs
        expected = SKILL_MISMATCH if mismatch else NOT_EVALUATED if no_runs else None
        cause = c.get("blocked_cause")
        if c.get("verdict") is None and withheld_ok(c.get("withheld")):
            if cause is not None:  # a withheld card names no cause
                failed.append(c["task_id"])
        elif c.get("verdict") == NOT_IN_TRAINING:
            if cause not in BLOCKED_CAUSES or cause != expected:
                failed.append(c["task_id"])
        elif cause is not None or expected is not None:
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C10", "`recapture_site`·`recapture_hand` 값이 배포 후보이거나 수집 줄이 없으면 비고, 그 밖에는 수집 줄의 `capture_site`·`robot_hand_type`과 같은지 확인합니다.")
def recapture_copied(ctx: CheckContext):
    """다시 모을 현장과 손은 태스크의 데이터셋 줄에서 그대로 옮겨 옵니다. 배포 후보는 다시 모을 필요가 없습니다."""
    failed = []
    for c in ctx.cards:
        rc = ctx.task(c)
        if c.get("verdict") == DEPLOY or rc.dataset is None:
            expected: tuple[str | None, str | None] = (None, None)
        else:
            expected = (rc.dataset.raw.get("capture_site"), rc.dataset.raw.get("robot_hand_type"))
        if (c.get("recapture_site"), c.get("recapture_hand")) != expected:
            failed.append(c["task_id"])
    return failed


@CHECKS.register("C11", "`success_rate`·`top_failure_share` 값이 0 이상 1 이하이고 `cycle_sec_median`이 0보다 큰지 확인합니다.")
def value_ranges(ctx: CheckContext):
    """비율은 0 이상 1 이하이고, 주기 시간은 0보다 큽니다."""
    failed = []
    for c in ctx.cards:
        for name in ("success_rate", "top_failure_share"):
            v = _dec(c.get(name))
            if c.get(name) is not None and (v is None or not Decimal(0) <= v <= Decimal(1)):
                failed.append(c["task_id"])
        v = _dec(c.get("cycle_sec_median"))
        if c.get("cycle_sec_median") is not None and (v is None or v <= 0):
            failed.append(c["task_id"])
    return failed


CHECKS.add(CARD_CHECKS.evidence_field_check("C12", "`evidence`의 `field` 이름이 세 표의 열에 실제로 있는 이름인지 대조합니다."))
CHECKS.add(CARD_CHECKS.evidence_value_check("C13", "`agg` 값이 없는 `evidence`의 `value`가 인용한 줄의 값과 글자 그대로 같고, 여러 줄에서 센 값에는 `agg`가 붙었는지 확인합니다."))
CHECKS.add(CARD_CHECKS.polite_check("C14", "`summary` 값이 존댓말 한 문장으로 끝나는지(`hedge` 값이 있으면 `hedge`도) 확인합니다."))
