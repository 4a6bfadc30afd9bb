"""Configuration for every domain: the default format, what fails a run, and the
findings a person recorded as intended.

A domain's configuration is found from the input's folder upwards (or given with
``--config``): storygraph reads ``storygraph.toml`` or ``[tool.storygraph]`` of a
``pyproject.toml``; the other domains read the ``[DOMAIN]`` table of ``verdicts.toml``
or ``[tool.verdicts.DOMAIN]`` of a ``pyproject.toml``.

.. code-block:: toml

    format = "text"                      # default output format
    fail_on = ["성공률 미달", "findings", "issues"]   # verdicts (label or code), finding codes, findings, issues

    [[accept]]                           # a finding that is intended
    target = "insert-peg-B01"            # the card's key (or a finding's target)
    reason = "이번 회차는 일부러 낮은 목표로 돌렸습니다."
    # code = "below-target"              # optional: a verdict (label or code) or a finding code

Unknown keys are errors naming the key and the file.
"""

from __future__ import annotations

import os
from pathlib import Path
import dataclasses
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal, TypeVar, dataclass_transform

from .errors import ConfigError, InputError
from .korean import code, josa

__all__ = ["Config", "Acceptance", "find_config", "load_config", "known_fail_on", "default_fail_on"]


#: a configuration is a frozen dataclass: the defaults cost nothing to make (a run
#: without a configuration file never imports pydantic), and a file is validated by
#: pydantic against the same class (:func:`load_config`); unknown keys are errors.
#: Limits beyond the type are declared on the field (``field(metadata=limits(...))``)
#: and checked with the file's other problems (:func:`_limit_problems`).
_T = TypeVar("_T")


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def config_record(cls: type[_T]) -> type[_T]:
    """``@dataclass(frozen=True, kw_only=True)``, spelled once (and known to type checkers
    as a dataclass maker)."""
    return dataclass(frozen=True, kw_only=True)(cls)


STRICT = {"extra": "forbid"}


def limits(ge: float | None = None, le: float | None = None, min_length: int | None = None) -> dict[str, Any]:
    """A configuration field's limits, as its ``dataclasses.field`` metadata."""
    return {"limits": (ge, le, min_length)}


@config_record
class Acceptance:
    __pydantic_config__ = STRICT

    target: str = field(metadata=limits(min_length=1))
    reason: str = field(metadata=limits(min_length=1))
    code: str | None = None


@config_record
class Config:
    """What every domain's configuration holds; a domain may extend it
    (:attr:`verdicts.domain.Domain.config_type`, a subclass made with
    :data:`config_record`)."""

    __pydantic_config__ = STRICT

    format: Literal["text", "json", "sarif", "github"] = "text"
    #: ``None``: every verdict that does not pass, every finding and every issue
    fail_on: tuple[str, ...] | None = None
    accept: tuple[Acceptance, ...] = ()
    #: where it was read from (None for the defaults)
    source: str | None = None

    def failing_set(self, domain) -> frozenset[str]:
        """What fails a run: verdict labels, rule codes (a code names its rule alone:
        robot's ``skill-mismatch`` is one of two rules of ``학습에 없는 조건``), finding
        codes, ``findings`` and ``issues``."""
        return frozenset(self.fail_on if self.fail_on is not None else default_fail_on(domain))


def default_fail_on(domain) -> tuple[str, ...]:
    return tuple(v for v in domain.verdicts if v not in domain.passing_verdicts) + ("findings", "issues")


def known_fail_on(domain) -> set[str]:
    return (set(domain.verdicts) | set(domain.verdict_codes()) | {k.code for k in domain.finding_kinds}
            | {"findings", "issues", "withheld"})


def _section(domain, data: dict[str, Any], path: Path) -> dict[str, Any] | None:
    """The domain's table of a parsed configuration file, or ``None`` when the file
    holds none."""
    own, tool = domain.config_file
    if path.name == "pyproject.toml":
        node: Any = data
        for key in tool:
            if not isinstance(node, dict) or key not in node:
                return None
            node = node[key]
        return node if isinstance(node, dict) else None
    if own != "verdicts.toml":
        return data  # the domain's own file (or one given with --config) is all its own
    section = data.get(domain.name)
    if isinstance(section, dict):
        return section
    # a shared verdicts.toml without the domain's table holds nothing for it; a file
    # given with --config may hold the keys at the top
    return None if path.name == "verdicts.toml" else data


def _is(test) -> bool:
    """``test()``, with a folder we may not look into counted as holding nothing."""
    try:
        return test()
    except OSError:
        return False


def _shown(path: Path) -> Path:
    """The path as reports name it: relative to the working folder when inside it."""
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return path
    return Path(rel) if not rel.startswith("..") else path


def _may_hold(pyproject: Path, keys: tuple[str, ...]) -> bool:
    """Whether the TOML file ``pyproject`` can hold the table ``keys`` (``tool.storygraph``),
    read from its lines without parsing it: only a file that can is parsed.

    A project's ``pyproject.toml`` above a scenario is the common case and rarely has the
    table, and importing the TOML parser and parsing the file cost a small lint about
    70 million instructions, as much as the floor of reading the scenario.  The test is
    a necessary condition: the table can only come from a line that starts (after
    spaces, and a ``[`` or ``[[`` for a table's header) with the dotted key of ``keys``
    or of its first keys followed by ``]`` (a table that may hold the rest) or ``=``
    (an inline table), each key bare or quoted; a file with ``\\u`` escapes (a key
    spelt with them) or that cannot be read here is parsed as before.
    """
    import re

    from .files import head

    data = head(pyproject, MAX_CONFIG_BYTES + 1)
    if data is None:  # its reading says why
        return True
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    if len(data) > MAX_CONFIG_BYTES or "\\u" in text or "\\U" in text:
        return True
    quoted = [f"(?:{re.escape(k)}|\"{re.escape(k)}\"|'{re.escape(k)}')" for k in keys]
    dot = r"[ \t]*\.[ \t]*"
    ends = [dot.join(quoted[:i + 1]) + r"[ \t]*[\]=]" for i in range(len(keys) - 1)]
    ends.append(dot.join(quoted) + r"[ \t]*[.\]=]")
    return re.search(r"^[ \t\ufeff]*(?:\[\[?[ \t]*)?(?:" + "|".join(ends) + ")", text, re.M) is not None


def find_config(domain, start: Path) -> Path | None:
    """The nearest configuration file of ``domain`` from ``start`` (a file or folder)
    upwards."""
    own, tool = domain.config_file
    try:
        folder = start.resolve()
    except (OSError, RuntimeError):  # a symlink loop: look from where it was named
        folder = Path(os.path.abspath(start))
    if not _is(folder.is_dir):
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        path = candidate / own
        _refuse_special(path)
        if _is(path.is_file):
            return _shown(path)
        pyproject = candidate / "pyproject.toml"
        _refuse_special(pyproject)
        # a pyproject.toml that may hold the table and cannot be read stops the run (its
        # ConfigError names it): a parent folder's configuration never stands in for it
        if _is(pyproject.is_file) and _may_hold(pyproject, tool):
            try:
                data = _parse_toml(pyproject)
            except ConfigError as exc:
                raise ConfigError(str(exc).replace(str(pyproject), str(_shown(pyproject)), 1)) from None
            if _section(domain, data, pyproject) is not None:
                return _shown(pyproject)
    return None


def _refuse_special(path: Path) -> None:
    """A configuration file's name held by a FIFO, a device or a link to one stops the
    run, named with its kind (never waited on, never passed over for a parent's file)."""
    from .files import path_kind, read_file

    try:
        if path_kind(path) != "other":
            return
        read_file(path, 1)  # raises, naming the path and its kind
    except InputError as exc:
        raise ConfigError(str(exc).replace(str(path), str(_shown(path)), 1)) from None


def _limit_problems(cls: Any, data: Any, prefix: str) -> list[str]:
    """The values of ``data`` (a file's table for ``cls``) outside their fields' limits,
    nested tables and arrays of tables included; values of the wrong type are pydantic's
    to report."""
    import typing

    if not isinstance(data, dict):
        return []
    hints = typing.get_type_hints(cls)
    problems = []
    for f in dataclasses.fields(cls):
        if f.name not in data:
            continue
        value, key = data[f.name], prefix + f.name
        ge, le, min_length = f.metadata.get("limits", (None, None, None))
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if number and ge is not None and value < ge:
            problems.append(f"{code(key)}: {ge:g} 이상이어야 합니다 (받은 값: {value:g})")
        if number and le is not None and value > le:
            problems.append(f"{code(key)}: {le:g} 이하여야 합니다 (받은 값: {value:g})")
        if isinstance(value, str) and min_length is not None and len(value) < min_length:
            problems.append(f"{code(key)}: 비어 있으면 안 됩니다")
        inner = hints.get(f.name)
        args = typing.get_args(inner)
        if dataclasses.is_dataclass(inner):
            problems += _limit_problems(inner, value, key + ".")
        elif args and dataclasses.is_dataclass(args[0]) and isinstance(value, list):
            for i, item in enumerate(value):
                problems += _limit_problems(args[0], item, f"{key}.{i}.")
    return problems


@lru_cache(maxsize=None)
def _validator(cls: type):
    """pydantic's validator of a configuration class (made once per class)."""
    from pydantic import TypeAdapter

    return TypeAdapter(cls)


#: a configuration file larger than this is refused (a real one is a few hundred bytes)
MAX_CONFIG_BYTES = 1 << 20


def _parse_toml(path: Path) -> dict[str, Any]:
    """The TOML document at ``path`` (:func:`_read_toml`)."""
    return _read_toml(path)[0]


def _read_toml(path: Path) -> tuple[dict[str, Any], str]:
    """The TOML document at ``path`` and its text; every way it can fail is a :class:`ConfigError`
    naming the file and the reason (a folder, a FIFO, a symbolic-link loop, no
    permission, too large, not UTF-8, not TOML, nested too deeply for the parser)."""
    from .tables import MAX_DEPTH, depth_over, path_kind, read_regular_file

    try:
        kind = path_kind(path)
        if kind == "missing":
            raise ConfigError(f"{path}: 설정 파일이 없습니다.")
        if kind == "dir":
            raise ConfigError(f"{path}: 설정 파일이 아니라 폴더입니다.")
        data = read_regular_file(path, MAX_CONFIG_BYTES, "설정")
    except InputError as exc:
        raise ConfigError(str(exc)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: {exc.start + 1}번째 바이트부터 UTF-8로 읽을 수 없습니다. 설정 파일은 UTF-8로 저장해야 합니다.") from None
    import tomllib  # only when a configuration file is read

    try:
        parsed = tomllib.loads(text)
        if depth_over(parsed, MAX_DEPTH):  # the same refusal whatever depth the parser reaches
            raise RecursionError
        return parsed, text
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(_toml_error(path, str(exc))) from None
    except RecursionError:
        raise ConfigError(f"{path}: 배열이나 표가 너무 깊게 겹쳐 있어 TOML로 읽을 수 없습니다.") from None
    except ValueError:  # an integer past the digits Python converts (tomllib converts every number it reads)
        import re
        import sys

        limit = sys.get_int_max_str_digits() or 4300
        long = next((m for m in re.finditer(r"[0-9_]+", text) if len(m.group()) > limit), None)
        where = f":{text.count(chr(10), 0, long.start()) + 1}" if long else ""
        raise ConfigError(f"{path}{where}: 정수가 {limit:,}자리를 넘어 TOML로 읽을 수 없습니다.") from None


#: tomllib's complaints, in our words (the rest are shown as tomllib says them)
_TOML_ERRORS = {
    "Cannot overwrite a value": "같은 키에 값을 두 번 적었습니다",
    "Cannot declare": "같은 표를 두 번 선언했습니다",
    "Cannot mutate immutable namespace": "이미 값이 정해진 키 아래에 다시 값을 적었습니다",
    "Invalid value": "값을 읽을 수 없습니다",
    "Invalid statement": "키 = 값 꼴이 아닙니다",
    "Expected '=' after a key in a key/value pair": "키 뒤에 `=`가 와야 합니다",
    "Unclosed array": "배열이 닫히지 않았습니다",
    "Unterminated string": "문자열이 닫히지 않았습니다",
    "Invalid initial character for a key part": "키가 올바른 글자로 시작하지 않습니다",
    "Expected newline or end of document after a statement": "한 줄에 키와 값을 하나만 적어야 합니다",
}


def _toml_error(path: Path, message: str) -> str:
    """A tomllib complaint as our message: the file, the line and column, the reason."""
    import re

    m = re.fullmatch(r"(.*?) \(at line (\d+), column (\d+)\)", message, re.S)
    if m is None:
        m = re.fullmatch(r"(.*?) \(at end of document\)", message, re.S)
        where, reason = "", message if m is None else m.group(1)
    else:
        where, reason = f":{m.group(2)}:{m.group(3)}", m.group(1)
    words = next((ours for theirs, ours in _TOML_ERRORS.items() if reason.startswith(theirs)), None)
    said = words or reason  # tomllib's own words only when we have none
    return f"{path}{where}: TOML로 읽을 수 없습니다 — {said}."


def _table_keys(domain, path: Path, data: dict[str, Any]) -> tuple[str, ...]:
    """The dotted keys of the domain's table in the file ``path`` (as :func:`_section`
    finds it): ``("tool", "storygraph")``, ``("robot",)`` or the top."""
    own, tool = domain.config_file
    if path.name == "pyproject.toml":
        return tool
    return (domain.name,) if own == "verdicts.toml" and isinstance(data.get(domain.name), dict) else ()


def _toml_key_line(text: str, table: tuple[str, ...], key: str) -> int | None:
    """The line of ``key`` (dotted, inside the table ``table``) in the TOML ``text``, read
    from its lines: table headers and ``key = value`` lines with bare or quoted keys
    (array-of-tables indexes are not followed: the first line spelling the key wins)."""
    import re

    part = r"""(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')"""
    dotted = rf"{part}(?:[ \t]*\.[ \t]*{part})*"
    header = re.compile(rf"^[ \t\ufeff]*\[\[?[ \t]*({dotted})[ \t]*\]")
    assign = re.compile(rf"^[ \t\ufeff]*({dotted})[ \t]*=")

    def split(text: str) -> tuple[str, ...]:
        return tuple(p.strip().strip("\"'") for p in re.findall(part, text))

    wanted = (*table, *(p for p in key.split(".") if not p.isdigit()))
    current: tuple[str, ...] = ()
    for number, line in enumerate(text.splitlines(), start=1):
        if m := header.match(line):
            current = split(m.group(1))
            if current == wanted:
                return number
        elif m := assign.match(line):
            full = (*current, *split(m.group(1)))
            if full == wanted:
                return number
    return None


def _field_types(model) -> dict:
    """Field name → annotation of a pydantic model or a dataclass."""
    import dataclasses
    import typing

    if hasattr(model, "model_fields"):
        return {name: f.annotation for name, f in model.model_fields.items()}
    if dataclasses.is_dataclass(model):
        try:
            hints = typing.get_type_hints(model)
        except Exception:  # noqa: BLE001 - an annotation that cannot be resolved
            hints = {}
        return {f.name: hints.get(f.name) for f in dataclasses.fields(model)}
    return {}


#: pydantic's complaints about a value's type, in our words
_TYPE_PROBLEMS = {
    "tuple_type": "배열이어야 합니다", "list_type": "배열이어야 합니다",
    "string_type": "문자열이어야 합니다",
    "int_type": "정수여야 합니다", "int_parsing": "정수여야 합니다", "int_from_float": "정수여야 합니다",
    "bool_type": "참/거짓(true/false) 값이어야 합니다", "bool_parsing": "참/거짓(true/false) 값이어야 합니다",
    "dict_type": "표여야 합니다", "model_type": "표여야 합니다", "dataclass_type": "표여야 합니다",
    "missing": "꼭 있어야 하는 키가 없습니다",
}


def _type_problem(err: Any) -> str:
    """One pydantic error about a value, as a clause."""
    if err["type"] == "literal_error" and err.get("ctx", {}).get("expected"):
        import re

        expected = re.sub(r"'([^']*)'", r"`\1`", str(err["ctx"]["expected"])).replace(" or ", ", ")
        return f"{expected} 가운데 하나여야 합니다"
    return _TYPE_PROBLEMS.get(err["type"], err["msg"])


def _did_you_mean(key: str, cls) -> str:
    """``(혹시 `fail_on`?)`` for a key close to one the configuration has."""
    from .suggest import close_name

    *parents, last = key.split(".")
    model = cls
    for part in parents:  # a nested table: its own keys
        model = _field_types(model).get(part)
        if model is None or not _field_types(model):
            return ""
    known = [name for name in _field_types(model) if name != "source"]
    close = close_name(last, known)
    return f"(혹시 {code(close)}?)" if close else ""


def load_config(domain, path: Path | None) -> Config:
    """Read and validate ``domain``'s configuration from ``path`` (``None`` gives the
    defaults)."""
    cls = domain.config_type
    if path is None:
        return cls()
    data, text = _read_toml(Path(path))
    section = _section(domain, data, path) or {}
    if not isinstance(section, dict):
        raise ConfigError(f"{path}: 설정이 올바르지 않습니다 — {domain.name}의 설정은 TOML 표여야 합니다.")
    from pydantic import ValidationError

    problems = _limit_problems(cls, section, "")
    first_line: int | None = None
    try:
        config = _validator(cls).validate_python({**section, "source": str(path)})
    except ValidationError as exc:
        table = _table_keys(domain, Path(path), data)
        for err in exc.errors():
            key = ".".join(str(p) for p in err["loc"])
            line = _toml_key_line(text, table, key)
            if line is not None and first_line is None:
                first_line = line
            at = f"{line}번째 줄" if line is not None else ""
            if err["type"] in ("extra_forbidden", "unexpected_keyword_argument"):
                hint = _did_you_mean(key, cls)[1:-1]  # 혹시 `fail_on`?
                notes = ", ".join(n for n in (at, hint) if n)
                problems.append(f"알 수 없는 키 {code(key)}" + (f"({notes})" if notes else ""))
            else:
                problems.append(f"{code(key)}" + (f"({at})" if at else "") + f": {_type_problem(err)}")
    if problems:
        where = f"{path}:{first_line}" if first_line is not None else f"{path}"
        raise ConfigError(f"{where}: 설정이 올바르지 않습니다 — " + ", ".join(problems)) from None
    if config.fail_on is not None:
        known = known_fail_on(domain)
        bad = [v for v in config.fail_on if v not in known]
        if bad:
            from .suggest import close_name

            table = _table_keys(domain, Path(path), data)
            line = _toml_key_line(text, table, "fail_on")
            where = f"{path}:{line}" if line is not None else f"{path}"
            close = [(v, c) for v in bad if (c := close_name(v, sorted(known))) is not None]
            hint = "".join(f" 혹시 {code(v)} 대신 {josa(code(c), '을/를')} 쓰려던 것인가요?" for v, c in close[:3])
            raise ConfigError(f"{where}: 설정이 올바르지 않습니다 — `fail_on`에 알 수 없는 값 {josa(', '.join(code(v) for v in bad), '이/가')} 있습니다. "
                              f"쓸 수 있는 값은 판정 이름이나 코드, 린트 발견 코드, `findings`, `issues`입니다.{hint}")
    return config
