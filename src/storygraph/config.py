"""Configuration: ``storygraph.toml``, or ``[tool.storygraph]`` in a ``pyproject.toml``,
found from the scenario's folder upwards (or given with ``--config``).

.. code-block:: toml

    format = "text"                      # default output format
    fail_on = ["조건이 겹침", "no-ending", "findings", "issues"]

    [diagram]
    focus = "findings"                   # or a scene id
    hops = 2
    max_nodes = 600

    [budget]                             # per scene (docs/security.md, storygraph.budgets)
    sat_steps = 100000000
    stuck_evaluations = 1000000

    [[accept]]                           # a finding that is intended
    target = "BR-13"
    reason = "앞 순번이 먼저 걸리게 둔 자리입니다."
    # code = "조건이 겹침"               # optional: the verdict label or code, or a finding code

Unknown keys are errors naming the key and the file.  Reading, finding and the shared
keys are the core's (:mod:`verdicts.config`; ``storygraph.domain.find_config`` and
``load_config`` call them for storygraph); storygraph adds ``[diagram]``.
"""

from __future__ import annotations

from dataclasses import field

from verdicts.config import STRICT, Acceptance, Config as BaseConfig, config_record, limits

from .budgets import DEFAULT_BUDGETS, Budgets
from .rules import VERDICT_CODES

__all__ = ["Config", "DiagramOptions", "BudgetOptions", "Acceptance", "VERDICT_CODES", "DEFAULT_FAIL_ON"]

DEFAULT_FAIL_ON = ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "findings", "issues")


@config_record
class DiagramOptions:
    __pydantic_config__ = STRICT

    focus: str | None = None
    hops: int = field(default=2, metadata=limits(ge=0, le=50))
    max_nodes: int = field(default=600, metadata=limits(ge=1))


@config_record
class BudgetOptions:
    """``[budget]``: the per-scene budgets of the exact searches (:mod:`storygraph.budgets`)."""

    __pydantic_config__ = STRICT

    sat_steps: int = field(default=DEFAULT_BUDGETS.sat_steps, metadata=limits(ge=1))
    stuck_evaluations: int = field(default=DEFAULT_BUDGETS.stuck_evaluations, metadata=limits(ge=1))

    def budgets(self) -> Budgets:
        return Budgets(self.sat_steps, self.stuck_evaluations)


@config_record
class Config(BaseConfig):
    """storygraph's configuration: the shared one (format, ``fail_on``, ``[[accept]]``)
    and the diagram's options."""

    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    diagram: DiagramOptions = field(default_factory=DiagramOptions)
    budget: BudgetOptions = field(default_factory=BudgetOptions)

    def __post_init__(self) -> None:
        # a verdict label and its code fail the same cards: keep one spelling (unknown
        # values are the core's to refuse, with the file named: verdicts.config.load_config)
        if self.fail_on is not None:
            object.__setattr__(self, "fail_on", tuple(VERDICT_CODES.get(v, v) for v in self.fail_on))

    def fails(self, verdict_or_code: str) -> bool:
        return verdict_or_code in self.fail_on
