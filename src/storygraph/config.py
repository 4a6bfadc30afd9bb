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

Unknown keys are errors naming the key and the file.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from verdicts.errors import ConfigError

from .model import VERDICTS
from .rules import VERDICT_CODES

__all__ = ["Config", "DiagramOptions", "Acceptance", "find_config", "load_config", "VERDICT_CODES", "DEFAULT_FAIL_ON"]

DEFAULT_FAIL_ON = ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "findings", "issues")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class DiagramOptions(_Strict):
    focus: str | None = None
    hops: int = Field(2, ge=0, le=50)
    max_nodes: int = Field(600, ge=1)


class Acceptance(_Strict):
    target: str = Field(min_length=1)
    reason: str = Field(min_length=1)
    code: str | None = None


class Config(_Strict):
    format: Literal["text", "json", "sarif", "github"] = "text"
    fail_on: tuple[str, ...] = DEFAULT_FAIL_ON
    diagram: DiagramOptions = DiagramOptions()
    accept: tuple[Acceptance, ...] = ()
    #: where it was read from (None for the defaults)
    source: str | None = None

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


def find_config(start: Path) -> Path | None:
    """The nearest ``storygraph.toml``, or ``pyproject.toml`` with ``[tool.storygraph]``,
    from ``start`` (a file or folder) upwards."""
    folder = start.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        own = candidate / "storygraph.toml"
        if own.is_file():
            return own
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            try:
                if "storygraph" in tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}):
                    return pyproject
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                continue
    return None


def load_config(path: Path | None) -> Config:
    """Read and validate a configuration file (``None`` gives the defaults)."""
    if path is None:
        return Config()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"{path}: 설정 파일이 없습니다.") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: TOML로 읽을 수 없습니다 ({exc}).") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("storygraph", {})
    try:
        return Config(**data, source=str(path))
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"])
            if err["type"] == "extra_forbidden":
                problems.append(f"알 수 없는 키 '{key}'")
            else:
                problems.append(f"'{key}': {err['msg']}")
        raise ConfigError(f"{path}: 설정이 올바르지 않습니다 — " + "; ".join(problems)) from None
