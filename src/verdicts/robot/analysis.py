"""Run statistics of one task: success rate, failure counts and reasons, cycle median.

Ratios are computed exactly (:class:`~fractions.Fraction`) and rounded half up to two
decimals once, with :func:`verdicts.numbers.round_half_up`; verdicts compare the rounded
values, as the seed says.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from verdicts.numbers import median_exact, round_half_up

from .model import Run

__all__ = ["RunStats", "run_stats"]


@dataclass(frozen=True)
class RunStats:
    """What a task's runs say.  Every field is ``None`` when the task has no runs;
    the success-derived ones also when some run's ``success`` is unknown, and the median
    when some run's ``cycle_sec`` is unknown.

    ``unnamed_failures`` counts failed runs with an empty ``failure_reason``: they are in
    ``failure_total`` (the share's denominator) but name no reason.
    """

    runs: int
    successes: int | None
    success_rate: Decimal | None
    failure_total: int | None
    top_failure_reason: str | None
    top_failure_count: int | None
    top_failure_share: Decimal | None
    cycle_sec_median: Decimal | None
    unnamed_failures: int | None
    unknown_success: int
    unknown_cycle: int


def run_stats(runs: list[Run]) -> RunStats:
    """Statistics of ``runs`` (one task's runs of the round).

    >>> from decimal import Decimal as D
    >>> def r(ok, reason=None, sec="10"):
    ...     return Run("t", "m", None, ok, reason, D(sec), 2)
    >>> s = run_stats([r(True), r(False, "slip"), r(False, "slip"), r(False), r(False, "drop"),
    ...                r(True), r(True), r(True)])
    >>> s.success_rate, s.failure_total, s.top_failure_reason, s.top_failure_count, s.top_failure_share
    (Decimal('0.50'), 4, 'slip', 2, Decimal('0.50'))
    """
    n = len(runs)
    unknown_success = sum(1 for r in runs if r.success is None)
    unknown_cycle = sum(1 for r in runs if r.cycle_sec is None)
    if n == 0:
        return RunStats(0, None, None, None, None, None, None, None, None, 0, 0)
    median = round_half_up(median_exact(r.cycle_sec for r in runs if r.cycle_sec is not None)) if unknown_cycle == 0 else None
    if unknown_success:
        return RunStats(n, None, None, None, None, None, None, median, None, unknown_success, unknown_cycle)
    successes = sum(1 for r in runs if r.success)
    failures = [r for r in runs if r.success is False]
    named = Counter(r.failure_reason for r in failures if r.failure_reason)
    reason = count = share = None
    if named:
        reason, count = min(named.items(), key=lambda kv: (-kv[1], kv[0]))
        share = round_half_up(Fraction(count, len(failures)))
    return RunStats(
        runs=n, successes=successes, success_rate=round_half_up(Fraction(successes, n)),
        failure_total=len(failures), top_failure_reason=reason, top_failure_count=count, top_failure_share=share,
        cycle_sec_median=median, unnamed_failures=sum(1 for r in failures if not r.failure_reason),
        unknown_success=0, unknown_cycle=unknown_cycle,
    )
