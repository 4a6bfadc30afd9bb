"""Is this input the kind a domain reads?  (``storygraph lint examples/robot``)

A domain judging another domain's tables used to print a report with no cards, one
issue per missing column and every check passed.  Before loading, :func:`refuse_foreign`
looks at what the input shows cheaply — a CSV's header line, a folder's CSV file names
and headers, a JSON or YAML document's top-level keys — and refuses it
(:class:`~verdicts.errors.InputError`, exit 2) when it holds nothing of the domain's
own, naming the registered domain whose tables it looks like.

What counts as the domain's own: a table name (a folder's ``NAME.csv``, a document's
top-level key), a required or key column, or two of its columns; what counts as
another domain's: a table name of it, or one of its columns that no other domain has.
Inputs this cannot look at (a workbook, a story format, an empty or unreadable file)
are left to the loader, which says what is wrong with them.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from .errors import InputError
from .files import head
from .records import Frozen

__all__ = ["InputShape", "input_shape", "foreign_input_message", "refuse_foreign"]

#: bytes read to find a CSV's header line or a YAML document's top-level keys
_PEEK = 64 * 1024
#: the largest JSON document parsed only to look at its keys
_JSON_PEEK = 2 * 1024 * 1024
#: files of a folder looked at, at most
_MAX_FILES = 64
_YAML_KEY = re.compile(r"^([A-Za-z_][\w-]*)\s*:", re.MULTILINE)


class InputShape(Frozen):
    """What an input shows without being read: names of its tables (file stems of a
    folder, top-level keys of a document) and the column names it holds."""

    __slots__ = ("tables", "columns", "csv")
    tables: frozenset[str]
    columns: frozenset[str]
    #: whether the columns come from a single CSV file's header
    csv: bool

    def __init__(self, tables: frozenset[str], columns: frozenset[str], csv: bool = False):
        object.__setattr__(self, "tables", tables)
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "csv", csv)

    def __bool__(self) -> bool:
        return bool(self.tables or self.columns)


def _decode(data: bytes) -> str | None:
    """The text of ``data`` in UTF-8 or CP949 (cut at a character boundary), or ``None``
    (UTF-16, binary, broken bytes: the loader says what is wrong with them)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data:
        return None
    for encoding in ("utf-8-sig", "cp949"):
        for cut in range(4):  # the peek may end inside a character
            try:
                return data[: len(data) - cut].decode(encoding)
            except UnicodeDecodeError:
                continue
    return None


def _csv_header(path: Path) -> list[str]:
    data = head(path, _PEEK)
    if data is None:
        return []
    text = _decode(data)
    if text is None:
        return []
    first = text.splitlines()[0] if text.strip() else ""
    if not first.strip():
        return []
    counts = {d: first.count(d) for d in (",", "\t", ";")}
    delimiter = max(counts, key=lambda d: counts[d]) if max(counts.values()) else ","
    try:
        row = next(csv.reader(io.StringIO(first), delimiter=delimiter))
    except (csv.Error, StopIteration):
        return []
    return [cell.strip().lstrip("\ufeff").strip() for cell in row if cell.strip()]


def _document_keys(path: Path) -> tuple[set[str], set[str]]:
    """Top-level keys of a JSON or YAML document (as table names), and the keys of the
    first record under each of them (as columns)."""
    suffix = path.suffix.lower()
    try:
        if suffix == ".json":
            whole = head(path, _JSON_PEEK + 1)
            if whole is None or len(whole) > _JSON_PEEK:
                return set(), set()
            text = _decode(whole)
            data = json.loads(text) if text is not None else None
            if not isinstance(data, dict):
                return set(), set()
            columns: set[str] = set()
            for value in data.values():
                if isinstance(value, list) and value and isinstance(value[0], dict):
                    columns |= {str(k) for k in value[0]}
            return {str(k) for k in data}, columns
        first = head(path, _PEEK)
        text = _decode(first) if first is not None else None
        return (set(_YAML_KEY.findall(text)) if text is not None else set()), set()
    except (OSError, ValueError, RecursionError):
        return set(), set()


def input_shape(path: Path) -> InputShape:
    """What ``path`` shows of its kind; empty when nothing can be seen cheaply."""
    path = Path(path)
    try:
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.is_file())[:_MAX_FILES]
        elif path.is_file():
            files = [path]
        else:
            return InputShape(frozenset(), frozenset())
    except OSError:
        return InputShape(frozenset(), frozenset())
    tables: set[str] = set()
    columns: set[str] = set()
    for file in files:
        suffix = file.suffix.lower()
        if suffix in (".csv", ".tsv"):
            header = _csv_header(file)
            if header:
                columns |= set(header)
                if path.is_dir():
                    tables.add(file.stem)
        elif suffix in (".json", ".yaml", ".yml"):
            keys, inner = _document_keys(file)
            tables |= keys
            columns |= keys | inner
    single_csv = len(files) == 1 and files[0].suffix.lower() in (".csv", ".tsv") and path.is_file()
    return InputShape(frozenset(tables), frozenset(columns), single_csv)


def _owns(domain: Any, shape: InputShape) -> bool:
    """Whether ``shape`` holds something of ``domain``'s own."""
    names = domain.input_names()
    if shape.tables & set(names):
        return True
    for spec_columns, strong in domain.input_columns():
        found = shape.columns & spec_columns
        if found & strong or len(found) >= 2:
            return True
    return False


def _likely(domain: Any, shape: InputShape, others: list[Any]) -> tuple[Any, list[str], list[str], bool] | None:
    """The other domain ``shape`` looks most like: ``(domain, what matched, its tables
    that matched, whether by table name)``."""
    best: tuple[int, Any, list[str], list[str], bool] | None = None
    mine = set().union(*domain.input_names().values(), domain.input_names())
    for other in others:
        if other.name == domain.name:
            continue
        names = other.input_names()
        theirs = set().union(*(cols for o in others if o is not other for cols in o.input_names().values()))
        tables = sorted(shape.tables & set(names))
        if tables:
            candidate = (1000 * len(tables), other, tables, tables, True)
        else:
            hit = {name: shape.columns & cols for name, cols in names.items() if (shape.columns & cols) - theirs - mine}
            if not hit:
                continue
            matched = sorted(set().union(*hit.values()))
            # one table named only when every matched column is that table's
            whole = [name for name in hit if set(matched) <= names[name]]
            candidate = (len(matched), other, matched, whole[:1] or sorted(hit), False)
        if best is None or candidate[0] > best[0]:
            best = candidate
    return None if best is None else best[1:]


def foreign_input_message(domain: Any, path: Path, registered: list[Any] | None = None) -> str | None:
    """The message refusing ``path`` for ``domain``, or ``None`` when it may be the
    domain's input (or cannot be told)."""
    shape = input_shape(path)
    if not shape or _owns(domain, shape):
        return None
    if registered is None:
        registered = domain.registered_domains()
    from .korean import josa

    kind = domain.input_kind
    likely = _likely(domain, shape, registered)
    if likely is not None:
        other, matched, tables, by_name = likely
        shown = f"{', '.join(matched[:4])}{', …' if len(matched) > 4 else ''}"
        if len(tables) == 1 and len(other.input_names()) > 1 and (by_name or len(matched) >= 2):
            what = f"{other.name} 도메인의 {tables[0]} 표입니다"
        elif other.input_kind != other.default_input_kind or len(tables) > 1 or len(matched) >= 2:
            what = f"{other.name} 도메인의 {other.input_kind if other.input_kind != other.default_input_kind else '표'}입니다"
        else:
            return (f"{path}: {josa(kind, '이/가')} 아닙니다. 열 이름({shown})이 {other.name} 도메인의 열입니다. "
                    f"verdicts run {other.name} 명령으로 검사해 보세요.")
        by = "파일 이름" if by_name else "열 이름"
        return (f"{path}: {josa(kind, '이/가')} 아닙니다. {josa(f'{by}({shown})', '으로/로')} 보아 {what}. "
                f"verdicts run {other.name} 명령으로 검사해 보세요.")
    if shape.tables or not shape.csv:
        return None  # a document or folder no domain claims: the loader says what is wrong with it
    strong = list(dict.fromkeys(c for _, cols in domain.input_columns() for c in sorted(cols)))
    if strong:
        return f"{path}: {josa(kind, '이/가')} 아닙니다. {kind}에 꼭 있어야 할 열({', '.join(strong)}) 가운데 하나도 없습니다."
    return f"{path}: {josa(kind, '이/가')} 아닙니다. {kind}의 열({', '.join(sorted(set().union(*domain.input_names().values())))}) 가운데 맞는 것이 없습니다."


def refuse_foreign(domain: Any, path: Path) -> None:
    """Raise :class:`~verdicts.errors.InputError` with :func:`foreign_input_message`
    when ``path`` is plainly not ``domain``'s input."""
    message = foreign_input_message(domain, path)
    if message is not None:
        raise InputError(message)
