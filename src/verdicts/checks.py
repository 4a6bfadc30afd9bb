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
from .records import Frozen

__all__ = ["Check", "CheckRegistry", "run_checks", "Outcome", "TagNote", "merge_outcomes", "run_checks_part",
           "split_checks", "merge_split"]

Ctx = TypeVar("Ctx")


@dataclass(frozen=True)
class Check(Generic[Ctx]):
    """One automatic check.  ``func(ctx)`` returns the failing card keys (empty = passed),
    or a ``(failed_keys, note)`` pair when it wants to say how it decided.

    ``inputs_only``: the check judges the input tables, not the cards (its outcome is the
    same over any part of the cards), so a run made in parts runs it once, not per part.
    """

    id: str
    description: str
    func: Callable[[Ctx], Any]
    inputs_only: bool = False

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()

    def run(self, ctx: Ctx) -> CheckResult:
        return merge_outcomes(self, [self.run_part(ctx)])

    def run_part(self, ctx: Ctx) -> "Outcome":
        """The check over one part of a run (a context holding some of the cards): its
        failing keys and note, to be merged with the other parts' by
        :func:`merge_outcomes`."""
        try:
            outcome = self.func(ctx)
        except Exception as exc:  # a crashing check fails, loudly, instead of crashing the run
            return Outcome([], f"검사 코드가 {type(exc).__name__}: {exc} 로 멈췄습니다.", crashed=True)
        note = None
        if isinstance(outcome, tuple):
            outcome, note = outcome
        return Outcome([str(k) for k in outcome], note)


class TagNote(Frozen):
    """A check's note made from a set of tags (which methods decided, say), so that the
    notes of the parts of a run merge by union before ``render`` writes the sentence."""

    tags: frozenset
    render: Callable[[frozenset], "str | None"]

    __slots__ = ('tags', 'render')

    def __init__(self, tags: frozenset, render: Callable[[frozenset], "str | None"]):
        object.__setattr__(self, 'tags', tags)
        object.__setattr__(self, 'render', render)


@dataclass
class Outcome:
    """What one check found in one part of a run."""

    failed: list[str]
    note: "str | TagNote | None" = None
    crashed: bool = False


def merge_outcomes(check: Check[Any], parts: list[Outcome]) -> CheckResult:
    """One result from the outcomes of the parts of a run (in any order): the failing
    keys sorted and without repeats, notes merged (tag notes by union)."""
    failed = sorted(dict.fromkeys(k for part in parts for k in part.failed))
    crashed = [part.note for part in parts if part.crashed]
    if crashed:
        assert isinstance(crashed[0], str)  # a crashed part's note is the crash message
        return CheckResult(id=check.id, description=check.description, passed=False, failed_targets=failed, note=crashed[0])
    notes = [part.note for part in parts if part.note is not None]
    note: str | None = None
    tag_notes = [n for n in notes if isinstance(n, TagNote)]
    if notes and len(tag_notes) == len(notes):
        note = tag_notes[0].render(frozenset().union(*(n.tags for n in tag_notes)))
    elif notes:
        note = next((n for n in notes if isinstance(n, str)), None)
    return CheckResult(id=check.id, description=check.description, passed=not failed, failed_targets=failed, note=note)


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

    def register(self, check_id: str, description: str, *,
                 inputs_only: bool = False) -> Callable[[Callable[[Ctx], Any]], Callable[[Ctx], Any]]:
        """Register the decorated function as check ``check_id`` (``inputs_only``: see
        :class:`Check`)."""
        def decorate(func: Callable[[Ctx], Any]) -> Callable[[Ctx], Any]:
            if any(c.id == check_id for c in self._checks):
                raise ValueError(f"duplicate check id {check_id}")
            self._checks.append(Check(check_id, description, func, inputs_only))
            return func

        return decorate

    def add(self, check: Check[Ctx]) -> Check[Ctx]:
        """Register a check made elsewhere (the core's card checks, say), in order."""
        if any(c.id == check.id for c in self._checks):
            raise ValueError(f"duplicate check id {check.id}")
        self._checks.append(check)
        return check

    def __iter__(self):
        return iter(self._checks)

    def __len__(self) -> int:
        return len(self._checks)

    def run(self, ctx: Ctx) -> list[CheckResult]:
        return run_checks(self._checks, ctx)


def run_checks(checks: Iterable[Check[Ctx]], ctx: Ctx) -> list[CheckResult]:
    return [check.run(ctx) for check in checks]


def run_checks_part(checks: Iterable[Check[Ctx]], ctx: Ctx) -> list[Outcome]:
    """Every check over one part of a run (see :meth:`Check.run_part`)."""
    return [check.run_part(ctx) for check in checks]


def split_checks(checks: Iterable[Check[Ctx]]) -> tuple[list[Check[Ctx]], list[Check[Ctx]]]:
    """``checks`` as those run over each part of the cards and the ``inputs_only`` ones,
    run once per run (see :func:`merge_split`)."""
    checks = list(checks)
    return [c for c in checks if not c.inputs_only], [c for c in checks if c.inputs_only]


def merge_split(checks: Iterable[Check[Any]], per_part: list[list[Outcome]], once: list[Outcome]) -> list[CheckResult]:
    """The results, in the order of ``checks``, of a run whose card checks ran over parts
    (``per_part[i][j]``: the ``j``-th card check over part ``i``) and whose
    ``inputs_only`` checks ran once (``once[k]``: the ``k``-th of them), both in the order
    :func:`split_checks` gives."""
    out = []
    j = k = 0
    for check in checks:
        if check.inputs_only:
            parts, k = [once[k]], k + 1
        else:
            parts, j = [part[j] for part in per_part], j + 1
        out.append(merge_outcomes(check, parts))
    return out
