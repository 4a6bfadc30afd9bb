"""Configuration: ``storygraph.toml``, or ``[tool.storygraph]`` in a ``pyproject.toml``,
found from the scenario's folder upwards (or given with ``--config``).

.. code-block:: toml

    format = "text"                      # default output format
    fail_on = ["조건이 겹침", "no-ending", "findings", "issues"]

    [diagram]
    focus = "findings"                   # or a scene id
    hops = 2
    max_nodes = 600

    [[accept]]                           # a finding that is intended
    target = "BR-13"
    reason = "앞 순번이 먼저 걸리게 둔 자리입니다."
    # code = "조건이 겹침"               # optional: the verdict label or code, or a finding code

Unknown keys are errors naming the key and the file.  Reading, finding and the shared
keys are the core's (:mod:`verdicts.config`; ``storygraph.domain.find_config`` and
``load_config`` call them for storygraph); storygraph adds ``[diagram]``.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

from verdicts.config import Acceptance, Config as BaseConfig

from .model import VERDICTS
from .rules import VERDICT_CODES

__all__ = ["Config", "DiagramOptions", "Acceptance", "VERDICT_CODES", "DEFAULT_FAIL_ON"]

DEFAULT_FAIL_ON = ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "findings", "issues")


class DiagramOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    focus: str | None = None
    hops: int = Field(2, ge=0, le=50)
    max_nodes: int = Field(600, ge=1)


class Config(BaseConfig):
    """storygraph's configuration: the shared one (format, ``fail_on``, ``[[accept]]``)
    and the diagram's options."""

    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    diagram: DiagramOptions = DiagramOptions()

    @field_validator("fail_on")
    @classmethod
    def _known(cls, values: tuple[str, ...]) -> tuple[str, ...]:
        from .findings import KINDS

        known = set(VERDICTS) | set(VERDICT_CODES) | {k.code for k in KINDS} | {"findings", "issues"}
        bad = [v for v in values if v not in known]
        if bad:
            raise ValueError(f"알 수 없는 값 {bad}; 쓸 수 있는 값: 판정 이름이나 코드, 린트 발견 코드, findings, issues")
        return tuple(VERDICT_CODES.get(v, v) for v in values)

    def fails(self, verdict_or_code: str) -> bool:
        return verdict_or_code in self.fail_on
