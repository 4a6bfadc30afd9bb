"""The automatic-check framework.

Each domain declares numbered checks (the seeds' "자동 검증").  A check is a small named
unit: an ``id``, a Korean ``description`` and a function that recomputes its claim from
the inputs *independently* of the code that made the cards, returning the keys of the
cards it failed on.  The engine, not the check, stamps id and description on the result
and turns an unexpected exception into a failed check (a broken check must never hide
the report).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, TypeVar

from .model import CheckResult

__all__ = ["Check", "CheckRegistry", "run_checks"]

Ctx = TypeVar("Ctx")


@dataclass(frozen=True)
class Check(Generic[Ctx]):
    """One automatic check.  ``func(ctx)`` returns the failing card keys (empty = passed),
    or a ``(failed_keys, note)`` pair when it wants to say how it decided."""

    id: str
    description: str
    func: Callable[[Ctx], Any]

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()

    def run(self, ctx: Ctx) -> CheckResult:
        try:
            outcome = self.func(ctx)
        except Exception as exc:  # a crashing check fails, loudly, instead of crashing the run
            return CheckResult(id=self.id, description=self.description, passed=False, failed_targets=[],
                               note=f"검사 코드가 {type(exc).__name__}: {exc} 로 멈췄습니다.")
        note = None
        if isinstance(outcome, tuple):
            outcome, note = outcome
        failed = sorted(dict.fromkeys(str(k) for k in outcome))
        return CheckResult(id=self.id, description=self.description, passed=not failed, failed_targets=failed, note=note)


class CheckRegistry(Generic[Ctx]):
    """An ordered list of checks, filled with the :meth:`register` decorator.

    >>> checks = CheckRegistry()
    >>> @checks.register("C01", "모든 카드에 요약이 있는지 봅니다.")
    ... def summary_present(cards):
    ...     '''Every card has a summary.'''
    ...     return [c["key"] for c in cards if not c.get("summary")]
    >>> [r.passed for r in checks.run([{"key": "a", "summary": "네."}])]
    [True]
    """

    def __init__(self) -> None:
        self._checks: list[Check[Ctx]] = []

    def register(self, check_id: str, description: str) -> Callable[[Callable[[Ctx], Any]], Callable[[Ctx], Any]]:
        def decorate(func: Callable[[Ctx], Any]) -> Callable[[Ctx], Any]:
            if any(c.id == check_id for c in self._checks):
                raise ValueError(f"duplicate check id {check_id}")
            self._checks.append(Check(check_id, description, func))
            return func

        return decorate

    def __iter__(self):
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)

    def run(self, ctx: Ctx) -> list[CheckResult]:
        return run_checks(self._checks, ctx)


def run_checks(checks: Iterable[Check[Ctx]], ctx: Ctx) -> list[CheckResult]:
    return [check.run(ctx) for check in checks]
