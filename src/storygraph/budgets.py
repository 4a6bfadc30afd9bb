"""Budgets of the analyses whose worst case grows faster than the input (issue 19).

Deciding whether a later branch is covered by earlier ones, and which flag assignments
leave a reader stuck, are exact searches over range classes: on every scenario a person
writes they take milliseconds, but a small file can be built to make them exponential
(22 int flags each tested once: 3^22 class points), or quadratic in the branches of one
scene (thousands of overlapping branches, each covered only by many earlier ones).  So
each search counts its work in units that do not depend on the machine — steps of the
SAT solver (its propagations, its own measure of work: every assignment it derives, so
a hard question stops inside the solver; and per question one step per variable of the
scene's encoding, which the solver resets whatever the answer) and condition
evaluations — and stops when its scene's budget is spent.  The scene's result is then *not decided*: its cards say so in their
hedge, an input issue says why and which setting raises the budget, and the run goes
on.  The same input always gives the same output: nothing here measures time.

The defaults are far above anything the bundled examples, the golden corpus or the
verdict tests need (``benchmarks/budgets.py`` prints the most any of them spends, next
to each default), and low enough that each hostile file of issue 19 is linted in a few
seconds.  They are set in the configuration file:

.. code-block:: toml

    [budget]
    sat_steps = 100000000        # per scene: SAT solver steps (shadowing)
    stuck_evaluations = 1000000  # per scene: condition evaluations of the stuck search
"""

from __future__ import annotations

from verdicts.records import Frozen

__all__ = ["Budgets", "BudgetExceeded", "Meter", "DEFAULT_BUDGETS", "BUDGET_NAMES"]


class Budgets(Frozen):
    """Per-scene budgets of the exact searches (see the module's text)."""

    #: steps of the SAT solver over every question of one scene (whether each branch can
    #: fire, and the search for the smallest set of earlier branches that covers a
    #: shadowed one): its propagations, and per question the variables of the encoding.
    #: On a scene decided over its class grid the same budget counts the grid's covering
    #: search: per mask operation one step and one per 64 bytes it reads
    sat_steps: int
    #: condition evaluations of the stuck-combination search of one scene (each visited
    #: combination of flag classes evaluates every branch's condition once)
    stuck_evaluations: int
    __slots__ = ("sat_steps", "stuck_evaluations")

    def __init__(self, sat_steps: int = 100_000_000, stuck_evaluations: int = 1_000_000):
        object.__setattr__(self, "sat_steps", sat_steps)
        object.__setattr__(self, "stuck_evaluations", stuck_evaluations)


DEFAULT_BUDGETS = Budgets()

#: each budget in the words of a sentence ("… 한도(겹침 계산 20,000단계)를 넘어")
BUDGET_NAMES = {
    "sat_steps": "겹침 계산 {limit:,}단계",
    "stuck_evaluations": "조건 평가 {limit:,}번",
}


class BudgetExceeded(Exception):
    """A search spent its budget: ``name`` is the field of :class:`Budgets`, ``limit``
    its value."""

    def __init__(self, name: str, limit: int):
        super().__init__(name, limit)
        self.name, self.limit = name, limit

    def words(self) -> str:
        """The budget in words: ``겹침 계산 5,000,000단계``."""
        return BUDGET_NAMES[self.name].format(limit=self.limit)


#: when a list, every :class:`Meter` made is appended to it (``benchmarks/budgets.py``
#: reads what each search spent)
RECORD: list | None = None


class Meter:
    """What is left of one budget: :meth:`spend` raises :class:`BudgetExceeded` once
    more than ``limit`` units were spent."""

    __slots__ = ("name", "limit", "left")

    def __init__(self, name: str, limit: int):
        self.name, self.limit, self.left = name, limit, limit
        if RECORD is not None:
            RECORD.append(self)

    def spend(self, units: int = 1) -> None:
        self.left -= units
        if self.left < 0:
            raise BudgetExceeded(self.name, self.limit)

    @property
    def spent(self) -> int:
        return self.limit - self.left
