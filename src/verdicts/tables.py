"""Reading input tables from the four accepted forms and typing their rows.

Every domain reads named tables (``scene_states``, ``evaluation_run`` …) from

1. a CSV file (one table, or the union of several that a domain splits itself),
2. a folder of CSV files named after the tables,
3. an ``.xlsx`` workbook with one sheet per table,
4. a JSON or YAML document mapping table names to lists of records.

CSV bytes are decoded as UTF-8 (with or without BOM) or CP949, and the encoding used is
reported.  Line numbers are physical lines of the file (header = 1), so that an issue can
be found in a text editor.  Bad cells never raise: they become
:class:`~verdicts.model.InputIssue` records and the row keeps what is still good.
"""

from __future__ import annotations

import csv
import difflib
import io
import json
import re
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any, Iterable, Literal

from .errors import InputError
from .korean import josa
from .model import InputIssue, SourceInfo

__all__ = [
    "RawRow",
    "RawTable",
    "Column",
    "TableSpec",
    "Row",
    "TypedTable",
    "decode_bytes",
    "read_csv",
    "read_tables",
    "type_table",
    "parse_bool",
    "MAX_INPUT_BYTES",
    "load_typed_tables",
    "shared_index",
]

#: Refuse files larger than this (bytes) with a clear message instead of exhausting memory.
MAX_INPUT_BYTES = 512 * 1024 * 1024

ColumnType = Literal["str", "bool", "int", "float", "list"]

_TRUE = {"true", "1", "yes", "y", "참", "t"}
_FALSE = {"false", "0", "no", "n", "거짓", "f"}


class RawRow:
    """One record as text: ``values`` maps each column present to its cell (``None`` = empty).

    A row read from a CSV file keeps the cells as the reader gave them (``cells``, with
    ``index`` naming their positions) and builds ``values`` (cells stripped, empty ones
    ``None``) only when it is first asked for, so that a domain splitting a union file
    into tables (several rows over the same cells) or typing the rows does not pay for a
    dict per row it never reads.
    """

    __slots__ = ("line", "_values", "cells", "index")

    def __init__(self, line: int, values: dict[str, str | None] | None = None,
                 cells: list[str] | None = None, index: dict[str, int] | None = None):
        self.line = line
        self._values = values
        #: the cells as read (unstripped, at least as many as the header), or ``None``
        self.cells = cells
        #: column name -> position in ``cells`` (the first of repeated names)
        self.index = index

    @property
    def values(self) -> dict[str, str | None]:
        if self._values is None:
            cells = self.cells
            self._values = {name: (cells[i].strip() or None) for name, i in self.index.items()}
        return self._values

    @values.setter
    def values(self, values: dict[str, str | None]) -> None:
        self._values = values

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RawRow):
            return NotImplemented
        return self.line == other.line and self.values == other.values

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces

    def __repr__(self) -> str:
        return f"RawRow(line={self.line!r}, values={self.values!r})"


@dataclass
class RawTable:
    """One table as read from disk, before typing."""

    name: str
    file: str
    form: str
    encoding: str | None
    columns: list[str]
    rows: list[RawRow]
    header_line: int = 1

    def source(self) -> SourceInfo:
        return SourceInfo(
            file=self.file, table=self.name, form=self.form, encoding=self.encoding, rows=len(self.rows)
        )


@dataclass(frozen=True)
class Column:
    """A column of a table contract: its name, value type, whether a row needs it, and
    whether the header may lack it without an issue (``optional``)."""

    name: str
    type: ColumnType = "str"
    required: bool = False
    optional: bool = False


@dataclass(frozen=True)
class TableSpec:
    """The contract of one input table.  ``key`` names the unique id column, if any."""

    name: str
    columns: tuple[Column, ...]
    key: str | None = None

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


@dataclass(slots=True)
class Row:
    """A typed row.  ``values`` holds typed cells of present columns (``None`` = empty or
    invalid); ``raw`` the original texts; ``invalid`` the columns whose text did not
    parse (each already reported as an issue)."""

    line: int
    values: dict[str, Any]
    raw: dict[str, str | None]
    invalid: set[str] = field(default_factory=set)

    def get(self, name: str, default: Any = None) -> Any:
        return self.values.get(name, default)


@dataclass
class TypedTable:
    """A table after typing: good rows, the columns that were present, and its source."""

    spec: TableSpec
    file: str
    form: str
    encoding: str | None
    present: set[str]
    rows: list[Row]
    rejected: list[RawRow] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.spec.name

    def has(self, column: str) -> bool:
        return column in self.present

    def missing(self) -> list[str]:
        return [c for c in self.spec.column_names if c not in self.present]


# --------------------------------------------------------------------------- decoding


def decode_bytes(data: bytes, file: str) -> tuple[str, str]:
    """Decode ``data`` as UTF-8 (BOM or not) or CP949 and say which one was used."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise InputError(f"{file}: UTF-8 BOM이 있지만 {exc.start}번째 바이트부터 UTF-8로 읽을 수 없습니다.") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("cp949"), "cp949"
        except UnicodeDecodeError:
            raise InputError(
                f"{file}: UTF-8로도 CP949로도 읽을 수 없는 바이트가 {utf8_error.start}번째에 있습니다. "
                "파일을 UTF-8 CSV로 다시 저장해 주세요."
            ) from None


def _read_bytes(path: Path) -> bytes:
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise InputError(f"{path}: 파일을 열 수 없습니다 ({exc.strerror}).") from None
    if size > MAX_INPUT_BYTES:
        raise InputError(f"{path}: 파일이 {size:,}바이트로 한도 {MAX_INPUT_BYTES:,}바이트를 넘습니다.")
    try:
        return path.read_bytes()
    except OSError as exc:
        raise InputError(f"{path}: 파일을 읽을 수 없습니다 ({exc.strerror}).") from None


def _sniff_delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", "\t", ";")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _clean_header(name: str) -> str:
    return name.strip().lstrip("\ufeff").strip()


_FIRST_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*")


def read_csv(path: Path, table: str, issues: list[InputIssue]) -> RawTable:
    """Read one CSV file into a :class:`RawTable` named ``table``.

    Rows keep their physical starting line (a quoted cell may span lines).  A row with
    more cells than the header is reported; fewer cells are read as empty (spreadsheets
    drop trailing empty cells).  Entirely empty rows are skipped.

    The records are parsed in one call; when every record is one physical line (no
    quoted line break), record ``i`` is line ``header + i`` and no per-record line
    bookkeeping is needed.  Otherwise, or when a record does not parse, the file is read
    again record by record (:func:`_read_records_one_by_one`).
    """
    text, encoding = decode_bytes(_read_bytes(path), str(path))
    file = str(path)
    if not text.strip():
        issues.append(InputIssue(file=file, table=table, line=1, reason="파일이 비어 있어 머리글(열 이름) 줄이 없습니다."))
        return RawTable(table, file, "csv", encoding, [], [])
    delimiter = _sniff_delimiter(_FIRST_LINE.match(text).group())  # == text.splitlines()[0]
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = next(reader)
    except csv.Error as exc:
        raise InputError(f"{file}:1: 머리글 줄을 CSV로 읽을 수 없습니다 ({exc}).") from None
    header_end = reader.line_num
    columns = [_clean_header(h) for h in header]
    seen: dict[str, int] = {}
    for index, name in enumerate(columns):
        if not name:
            continue
        if name in seen:
            issues.append(
                InputIssue(file=file, table=table, line=1, column=name,
                           reason=f"열 이름 '{name}'이(가) {seen[name] + 1}번째와 {index + 1}번째에 두 번 있습니다. 앞의 열만 씁니다.")
            )
        else:
            seen[name] = index
    try:
        records = list(reader)
    except csv.Error:
        records = None
    if records is None or reader.line_num != header_end + len(records):
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
        next(reader)
        rows = _read_records_one_by_one(reader, len(columns), seen, file, table, issues)
    elif _all_full(records, len(columns)):
        # the usual file: every record as long as the header and none blank
        rows = list(map(RawRow, range(header_end + 1, header_end + 1 + len(records)), repeat(None), records, repeat(seen)))
    else:
        rows = []
        ncols = len(columns)
        padding = [""] * ncols
        line = header_end
        for cells in records:
            line += 1
            joined = "".join(cells)
            if not joined or joined.isspace():  # no cell with a non-blank character
                continue
            n = len(cells)
            if n > ncols:
                _extra_cells(cells, ncols, file, table, line, issues)
            elif n < ncols:
                cells += padding[n:]
            rows.append(RawRow(line, None, cells, seen))
    return RawTable(table, file, "csv", encoding, [c for c in columns if c], rows)


def _all_full(records: list[list[str]], ncols: int) -> bool:
    """Whether every record has exactly ``ncols`` cells and some non-blank character."""
    if not records:
        return True
    if set(map(len, records)) != {ncols}:
        return False
    joined = list(map("".join, records))
    return "" not in joined and not any(map(str.isspace, joined))


def _extra_cells(cells: list[str], ncols: int, file: str, table: str, line: int, issues: list[InputIssue]) -> None:
    extra = [c for c in cells[ncols:] if c.strip()]
    if extra:
        issues.append(
            InputIssue(file=file, table=table, line=line,
                       reason=f"칸이 머리글보다 많습니다 (머리글 {ncols}칸, 이 줄 {len(cells)}칸); 넘치는 값 {extra!r}은 읽지 않았습니다.")
        )


def _read_records_one_by_one(reader, ncols: int, seen: dict[str, int], file: str, table: str,
                             issues: list[InputIssue]) -> list[RawRow]:
    """The records after the header, each with the physical line it starts on; a record
    that does not parse is an issue and reading goes on after it."""
    rows: list[RawRow] = []
    next_line = reader.line_num + 1
    while True:
        start = next_line
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as exc:
            issues.append(InputIssue(file=file, table=table, line=start, reason=f"CSV로 읽을 수 없는 줄입니다 ({exc})."))
            next_line = reader.line_num + 1
            continue
        next_line = reader.line_num + 1
        if not any(c.strip() for c in cells):
            continue
        if len(cells) > ncols:
            _extra_cells(cells, ncols, file, table, start, issues)
        values: dict[str, str | None] = {}
        for name, index in seen.items():
            cell = cells[index].strip() if index < len(cells) else ""
            values[name] = cell if cell else None
        rows.append(RawRow(start, values))
    return rows


def _cell_text(value: Any) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if hasattr(value, "isoformat"):
        return value.isoformat()
    text = str(value).strip()
    return text or None


def _read_xlsx(path: Path, wanted: Iterable[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    try:
        import openpyxl
    except ImportError as exc:  # pragma: no cover - dependency declared
        raise InputError("xlsx를 읽으려면 openpyxl이 필요합니다.") from exc
    try:
        book = openpyxl.load_workbook(path, read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds; none may escape
        raise InputError(f"{path}: xlsx 통합 문서로 읽을 수 없습니다 ({type(exc).__name__}: {exc}).") from None
    tables: dict[str, RawTable] = {}
    file = str(path)
    try:
        for sheet_name in book.sheetnames:
            name = sheet_name.strip()
            if name not in wanted:
                continue
            sheet = book[sheet_name]
            iterator = sheet.iter_rows(values_only=True)
            header = next(iterator, None)
            if header is None:
                tables[name] = RawTable(name, file, "xlsx", None, [], [])
                continue
            columns = [_clean_header(_cell_text(h) or "") for h in header]
            index_of = {}
            for i, c in enumerate(columns):
                if c and c not in index_of:
                    index_of[c] = i
            rows = []
            for line, cells in enumerate(iterator, start=2):
                texts = [_cell_text(c) for c in cells]
                if not any(texts):
                    continue
                rows.append(RawRow(line, {c: (texts[i] if i < len(texts) else None) for c, i in index_of.items()}))
            tables[name] = RawTable(name, f"{file}#{sheet_name}", "xlsx", None, [c for c in columns if c], rows)
    finally:
        book.close()
    return tables


def _yaml_records(path: Path, wanted: Iterable[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    import yaml

    text, encoding = decode_bytes(_read_bytes(path), str(path))
    file = str(path)
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        raise InputError(f"{file}{where}: JSON/YAML로 읽을 수 없습니다 ({getattr(exc, 'problem', exc)}).") from None
    if not isinstance(data, dict) or node is None or not isinstance(node, yaml.MappingNode):
        raise InputError(f"{file}: 최상위가 표 이름을 키로 하는 객체여야 합니다 (예: {{\"{next(iter(wanted))}\": [...]}}).")
    form = "json" if path.suffix.lower() == ".json" else "yaml"
    tables: dict[str, RawTable] = {}
    for key_node, value_node in node.value:
        name = str(key_node.value).strip()
        if name not in wanted:
            continue
        records = data.get(key_node.value)
        if records is None:
            records = []
        if not isinstance(records, list):
            issues.append(InputIssue(file=file, table=name, line=key_node.start_mark.line + 1,
                                     reason=f"'{name}'은(는) 행 목록(배열)이어야 합니다."))
            continue
        item_nodes = value_node.value if isinstance(value_node, yaml.SequenceNode) else []
        columns: list[str] = []
        rows: list[RawRow] = []
        for record, item_node in zip(records, item_nodes):
            line = item_node.start_mark.line + 1
            if not isinstance(record, dict):
                issues.append(InputIssue(file=file, table=name, line=line, reason="행이 키-값 객체가 아닙니다."))
                continue
            values = {}
            for k, v in record.items():
                col = _clean_header(str(k))
                if col not in columns:
                    columns.append(col)
                if isinstance(v, (list, tuple)):
                    v = ",".join(str(x) for x in v)
                values[col] = _cell_text(v)
            rows.append(RawRow(line, values))
        # columns absent from every record are missing; columns absent from some records are empty there
        for row in rows:
            for col in columns:
                row.values.setdefault(col, None)
        tables[name] = RawTable(name, file, form, encoding, columns, rows)
    return tables


def read_tables(path: Path, names: list[str], issues: list[InputIssue], *, single_csv_table: str | None = None) -> dict[str, RawTable]:
    """Read the named tables from ``path`` in whichever form it has.

    A single CSV file becomes one table named ``single_csv_table`` (a domain that accepts
    a union CSV splits it itself).  Tables absent from a folder, workbook or document are
    simply absent from the result; the domain decides whether that is an issue.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: 그런 파일이나 폴더가 없습니다.")
    if path.is_dir():
        tables = {}
        for name in names:
            candidates = [path / f"{name}.csv", path / f"{name}.CSV"]
            for candidate in candidates:
                if candidate.is_file():
                    tables[name] = read_csv(candidate, name, issues)
                    break
        if not tables:
            raise InputError(f"{path}: 폴더에 {', '.join(n + '.csv' for n in names)} 가운데 어느 것도 없습니다.")
        return tables
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".txt"):
        if single_csv_table is None:
            raise InputError(f"{path}: CSV 파일 하나로는 읽을 수 없습니다. 표마다 CSV가 든 폴더를 주세요.")
        return {single_csv_table: read_csv(path, single_csv_table, issues)}
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path, names, issues)
    if suffix in (".json", ".yaml", ".yml"):
        return _yaml_records(path, names, issues)
    raise InputError(f"{path}: 알 수 없는 형식입니다 (.csv, .xlsx, .json, .yaml 또는 폴더를 주세요).")


# --------------------------------------------------------------------------- typing


def parse_bool(text: str) -> bool | None:
    """``true/false/1/0/yes/no/y/n/참/거짓`` (case-insensitive); ``None`` if none of them."""
    lowered = text.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    return None


def _parse_int(text: str) -> int | None:
    t = text.strip().replace(",", "")
    try:
        return int(t)
    except ValueError:
        try:
            f = float(t)
        except ValueError:
            return None
        return int(f) if f.is_integer() else None


def _parse_float(text: str) -> float | None:
    try:
        value = float(text.strip().replace(",", ""))
    except ValueError:
        return None
    return value if value == value and value not in (float("inf"), float("-inf")) else None


_TYPE_WORDS = {
    "bool": "참/거짓 값(true/false, 1/0, yes/no, 참/거짓)",
    "int": "정수",
    "float": "숫자",
}


def _convert(col: Column, text: str) -> tuple[Any, bool]:
    if col.type == "str":
        return text, True
    if col.type == "bool":
        value = parse_bool(text)
        return value, value is not None
    if col.type == "int":
        value = _parse_int(text)
        return value, value is not None
    if col.type == "float":
        value = _parse_float(text)
        return value, value is not None
    if col.type == "list":
        items = tuple(part.strip() for part in text.replace("|", ",").split(",") if part.strip())
        return items, True
    raise ValueError(col.type)  # pragma: no cover


def type_table(raw: RawTable, spec: TableSpec, issues: list[InputIssue]) -> TypedTable:
    """Type the rows of ``raw`` by ``spec``.

    * a column of the contract absent from the header is one issue (on the header line);
      a close misspelling is suggested;
    * an empty required cell rejects the row (issue);
    * a cell that does not parse as its type is an issue, and the row is kept with that
      value unknown (``None``, listed in ``Row.invalid``);
    * a repeated ``key`` rejects the later row (issue naming the first line).
    """
    if raw.form in ("json", "yaml"):
        # records carry no header: an omitted key is an empty cell, not a missing column
        present = set(spec.column_names)
    else:
        present = {c for c in raw.columns if c in spec.column_names}
    unknown = [c for c in raw.columns if c not in spec.column_names]
    for name in spec.column_names:
        if name not in present and not spec.column(name).optional:
            hint = difflib.get_close_matches(name, unknown, n=1, cutoff=0.75)
            tail = f" 비슷한 이름 '{hint[0]}' 열이 있는데, 오타라면 '{name}'(으)로 고쳐 주세요." if hint else ""
            issues.append(
                InputIssue(file=raw.file, table=spec.name, line=raw.header_line, column=name,
                           reason=f"'{name}' 열이 없어 이 열에 기대는 판정은 내리지 않았습니다.{tail}")
            )
    rows: list[Row] = []
    rejected: list[RawRow] = []
    first_line_of: dict[Any, int] = {}
    names = [col.name for col in spec.columns if col.name in present]
    # typed columns with a table of conversions per text: most cells repeat (Y/N, numbers)
    converted = [(col.name, col, {}) for col in spec.columns if col.name in present and col.type != "str"]
    required = [col.name for col in spec.columns if col.name in present and col.required]
    key_name = spec.key if spec.key and spec.key in present else None
    # rows read from CSV whose columns are exactly the contract's, in its order: copy the texts
    index = shared_index(raw.rows)
    same_columns = index is not None and list(index) == names
    cell_items = list(index.items()) if same_columns else None
    for raw_row in raw.rows:
        if cell_items is not None:  # build the texts from the cells here (as RawRow.values would)
            cells = raw_row.cells
            texts = raw_row._values = {name: (cells[i].strip() or None) for name, i in cell_items}
            values = texts.copy()
        else:
            texts = raw_row.values
            values = {name: texts.get(name) for name in names}
        # the common row: every cell parses and no required cell is empty
        clean = True
        for name, col, table in converted:
            text = values[name]
            if text is not None:
                value = table.get(text, _UNPARSED)
                if value is _UNPARSED:
                    value, ok = _convert(col, text)
                    if not ok:
                        clean = False
                        break
                    table[text] = value
                values[name] = value
        if clean:
            for name in required:
                if values[name] is None:
                    clean = False
                    break
        if not clean:
            values, invalid, reject_reason = _type_row(raw, spec, present, raw_row, issues)
            if reject_reason is not None:
                issues.append(InputIssue(file=raw.file, table=spec.name, line=raw_row.line, column=reject_reason[0], reason=reject_reason[1]))
                rejected.append(raw_row)
                continue
        else:
            invalid = set()
        if key_name is not None:
            key = values.get(key_name)
            if key in first_line_of:
                issues.append(
                    InputIssue(file=raw.file, table=spec.name, line=raw_row.line, column=key_name,
                               reason=f"{key_name} '{key}'이(가) {first_line_of[key]}번째 줄에 이미 있습니다. 앞의 줄만 판정합니다.")
                )
                rejected.append(raw_row)
                continue
            first_line_of[key] = raw_row.line
        # the raw cells are only read from here on: share them rather than copy them
        rows.append(Row(raw_row.line, values, texts, invalid))
    return TypedTable(spec, raw.file, raw.form, raw.encoding, present, rows, rejected)


_UNPARSED = object()


def shared_index(rows: list[RawRow]) -> dict[str, int] | None:
    """The column index all ``rows`` share when every one of them still holds the cells
    of one CSV reading and has not built its ``values`` yet, else ``None``."""
    if not rows or rows[0].cells is None:
        return None
    index = rows[0].index
    for row in rows:
        if row.index is not index or row._values is not None:
            return None
    return index


def _type_row(raw: RawTable, spec: TableSpec, present: set[str], raw_row: RawRow,
              issues: list[InputIssue]) -> tuple[dict[str, Any], set[str], tuple[str, str] | None]:
    """Type one row cell by cell, reporting each bad cell: ``(values, invalid columns,
    (column, reason) of the first reason to reject the row or None)``."""
    values: dict[str, Any] = {}
    invalid: set[str] = set()
    reject_reason: tuple[str, str] | None = None
    for col in spec.columns:
        if col.name not in present:
            continue
        text = raw_row.values.get(col.name)
        if text is None:  # empty cell, or a key the record omitted
            if col.required and reject_reason is None:
                reject_reason = (col.name, f"필수 값 '{col.name}'이(가) 비어 있어 이 줄은 판정하지 않았습니다.")
            values[col.name] = None
            continue
        value, ok = _convert(col, text)
        if not ok:
            invalid.add(col.name)
            values[col.name] = None
            issues.append(
                InputIssue(file=raw.file, table=spec.name, line=raw_row.line, column=col.name,
                           reason=f"'{text}'은(는) {josa(_TYPE_WORDS[col.type], '이/가')} 아닙니다.")
            )
            if col.required and reject_reason is None:
                reject_reason = (col.name, f"필수 값 '{col.name}'을(를) 읽을 수 없어 이 줄은 판정하지 않았습니다.")
        else:
            values[col.name] = value
    return values, invalid, reject_reason


def json_dumps(data: Any) -> str:
    """JSON text as every reporter writes it: UTF-8, Korean kept readable."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def load_typed_tables(path: Path, specs: Iterable[TableSpec], issues: list[InputIssue], *, required: Iterable[str],
                      single_csv_table: str | None = None, split=None) -> tuple[dict[str, RawTable], dict[str, TypedTable]]:
    """Read the tables of ``specs`` from ``path`` in any form and type them.

    A table of ``required`` that is absent becomes one issue; ``split`` turns a single
    CSV (read as ``single_csv_table``) into the domain's tables.  Raises
    :class:`~verdicts.errors.InputError` when no table at all could be read.
    """
    path = Path(path)
    specs = list(specs)
    raw = read_tables(path, [s.name for s in specs], issues, single_csv_table=single_csv_table)
    if single_csv_table is not None and single_csv_table in raw and split is not None:
        raw = split(raw[single_csv_table])
    for name in required:
        if name not in raw:
            where = str(path / f"{name}.csv") if path.is_dir() else str(path)
            issues.append(InputIssue(file=where, table=name, reason=f"'{name}' 표가 없어 이 표에 기대는 판정은 내리지 않았습니다."))
    typed = {spec.name: type_table(raw[spec.name], spec, issues) for spec in specs if spec.name in raw}
    if not typed:
        raise InputError(f"{path}: 읽을 수 있는 표가 하나도 없습니다.")
    return raw, typed
