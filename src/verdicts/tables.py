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
import io
import json
import os
import posixpath
import re
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import repeat
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Iterator, Literal, Mapping

from .errors import InputError
from .files import os_error, os_reason, path_kind, read_file
from .korean import code, josa
from .model import InputIssue, SourceInfo
from .records import Frozen
from .safe_csv import unguard
from .suggest import close_names, misspelling

__all__ = [
    "os_error",
    "os_reason",
    "RawRow",
    "document_tables",
    "TRUE_WORDS",
    "FALSE_WORDS",
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
    "read_csv_text",
    "MAX_JSON_BYTES",
    "MAX_YAML_BYTES",
    "MAX_YAML_NODES",
    "MAX_DEPTH",
    "depth_over",
    "MAX_COLUMNS",
    "MAX_XLSX_BYTES",
    "MAX_XLSX_ROW",
    "MAX_XLSX_UNCOMPRESSED",
    "path_kind",
    "read_regular_file",
    "safe_yaml_load",
    "safe_yaml_precheck",
    "reading_yaml",
    "yaml_loader",
    "json_int",
    "json_syntax_error",
    "load_typed_tables",
    "shared_index",
]

# Limits on what one input may make the reader do (docs/security.md, "Input limits").
# Past each one the input, or the part concerned, is refused with a message naming it.

#: Refuse CSV files larger than this (bytes) instead of exhausting memory.
MAX_INPUT_BYTES = 512 * 1024 * 1024
#: JSON documents: larger ones are refused.
MAX_JSON_BYTES = 64 * 1024 * 1024
#: YAML documents (parsed far more slowly than JSON): larger ones are refused.
MAX_YAML_BYTES = 8 * 1024 * 1024
#: Nodes of a YAML document once every alias is expanded ("billion laughs" are refused).
MAX_YAML_NODES = 2_000_000
#: Nesting of lists and mappings in JSON and YAML.
MAX_DEPTH = 64
#: Columns of a CSV header or a sheet (a spreadsheet's own limit is 16,384).
MAX_COLUMNS = 16_384
#: CSV records that do not parse before the rest of the file is given up.
MAX_CSV_PROBLEMS = 1_000
#: Repeated column names reported one by one before one summary issue.
MAX_REPEATED_ISSUES = 10
#: Unknown columns compared with a missing one for a "did you mean" hint.
MAX_SUGGESTION_COLUMNS = 200
#: JSON and YAML keys that start with this are the author's own (notes, YAML anchors):
#: neither read nor reported; every other key a table does not know is an input issue.
OWN_KEY_PREFIX = "x-"
#: ``.xlsx`` files (compressed), their parts' uncompressed total, parts, shared strings,
#: characters of text read, and characters of one cell (a spreadsheet's own limit).
MAX_XLSX_BYTES = 64 * 1024 * 1024
MAX_XLSX_UNCOMPRESSED = 256 * 1024 * 1024
MAX_XLSX_PARTS = 1_000
MAX_XLSX_SHARED_STRINGS = 1_000_000
MAX_XLSX_TEXT_CHARS = 64 * 1024 * 1024
MAX_CELL_CHARS = 32_767
#: Rows of a sheet (a spreadsheet's own limit): a row numbered past it is an issue and
#: not read, so that a row number is never taken as a count of rows to make.
MAX_XLSX_ROW = 1_048_576

ColumnType = Literal["str", "bool", "int", "float", "list"]

_TRUE = {"true", "1", "yes", "y", "참", "t"}
_FALSE = {"false", "0", "no", "n", "거짓", "f"}
#: the words a boolean cell is read as true or false by (lower case)
TRUE_WORDS, FALSE_WORDS = frozenset(_TRUE), frozenset(_FALSE)


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
            cells, index = self.cells, self.index
            assert cells is not None and index is not None  # a row keeps its values or its cells
            self._values = {name: (cells[i].strip() or None) for name, i in index.items()}
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
    #: JSON and YAML: column -> the line of the first record holding it
    first_lines: dict[str, int] = field(default_factory=dict)
    #: JSON and YAML: ``(the line a record starts on, a key it holds) -> the key's line``
    key_line: Callable[[int, str], int] | None = field(default=None, compare=False, repr=False)
    #: JSON and YAML: each row's record as offsets ``(start, end)`` in the decoded text
    #: (parallel to ``rows``; YAML: from its first key to the end of its last value), and
    #: the table's list (``[`` … ``]``, or the YAML sequence) and whether it is written in
    #: flow style — where ``storygraph fix`` adds and removes records
    spans: list[tuple[int, int]] = field(default_factory=list, compare=False, repr=False)
    list_span: tuple[int, int] | None = field(default=None, compare=False, repr=False)
    flow: bool = field(default=False, compare=False, repr=False)

    def source(self) -> SourceInfo:
        return SourceInfo(
            file=self.file, table=self.name, form=self.form, encoding=self.encoding, rows=len(self.rows)
        )


_set = object.__setattr__  # the fields of a frozen record (verdicts.records)


class Column(Frozen):
    """A column of a table contract: its name, value type, whether a row needs it,
    whether the header may lack it without an issue (``optional``), and whether its
    cells are free text that may span lines holding separators (``free_text``: a page
    of a document, a mail body; see :func:`read_csv`).  A required column may be empty
    in a row whose ``unless`` cell says yes (``1``, ``true`` …): storygraph's ``to_scene``
    of an opaque jump, whose destination cannot be named."""

    __slots__ = ("name", "type", "required", "optional", "free_text", "unless")
    name: str
    type: ColumnType
    required: bool
    optional: bool
    free_text: bool
    unless: str | None

    def __init__(self, name: str, type: ColumnType = "str", required: bool = False, optional: bool = False,
                 free_text: bool = False, unless: str | None = None):
        _set(self, "name", name)
        _set(self, "type", type)
        _set(self, "required", required)
        _set(self, "optional", optional)
        _set(self, "free_text", free_text)
        _set(self, "unless", unless)


class TableSpec(Frozen):
    """The contract of one input table.  ``key`` names the unique id column, if any."""

    __slots__ = ("name", "columns", "key")
    name: str
    columns: tuple[Column, ...]
    key: str | None

    def __init__(self, name: str, columns: tuple[Column, ...], key: str | None = None):
        _set(self, "name", name)
        _set(self, "columns", columns)
        _set(self, "key", key)

    def column(self, name: str) -> Column:
        for col in self.columns:
            if col.name == name:
                return col
        raise KeyError(name)

    @property
    def column_names(self) -> list[str]:
        return [c.name for c in self.columns]


def free_text_of(specs: Iterable[TableSpec]) -> dict[str, set[str]]:
    """Table → its free-text columns, as :func:`read_tables` takes them."""
    return {spec.name: {c.name for c in spec.columns if c.free_text} for spec in specs}


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


# --------------------------------------------------------------------------- opening and decoding

def _read_bytes(path: Path, limit: int = MAX_INPUT_BYTES, form: str = "입력") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them, read by the
    kit's one way to open a file (:func:`verdicts.files.read_file`): a FIFO or a device
    (``/dev/stdin``) is refused instead of waiting forever, and a folder, a symbolic-link
    loop or a missing permission is a message, never a traceback."""
    return read_file(path, limit, form, what="표로 읽을")


def read_regular_file(path: Path | str, limit: int, form: str) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``; ``form`` names the kind
    of file in the message past it): :func:`verdicts.files.read_file`."""
    return read_file(path, limit, form)


def decode_bytes(data: bytes, file: str) -> tuple[str, str]:
    """Decode ``data`` as UTF-8 (BOM or not), UTF-16 (with its BOM) or CP949 and say
    which one was used."""
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data[3:].decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as exc:
            raise InputError(f"{file}: UTF-8 BOM이 있지만 {exc.start + 3}번째 바이트부터 UTF-8로 읽을 수 없습니다.") from None
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as exc:
            why = "바이트 수가 홀수라 마지막 글자가 잘렸습니다" if exc.reason == "truncated data" else "짝이 없는 서로게이트가 있습니다"
            raise InputError(f"{file}: UTF-16 BOM이 있지만 {exc.start}번째 바이트부터 UTF-16으로 읽을 수 없어({why}) UTF-8로 다시 저장해야 합니다.") from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as utf8_error:
        try:
            return data.decode("cp949"), "cp949"
        except UnicodeDecodeError:
            raise InputError(
                f"{file}: UTF-8로도 CP949로도 읽을 수 없는 바이트가 {utf8_error.start}번째에 있어 "
                "파일을 UTF-8 CSV로 다시 저장해야 합니다."
            ) from None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(text: str) -> str:
    return _SURROGATE.sub("\ufffd", text)


def _sniff_delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", "\t", ";")}
    best = max(counts, key=lambda d: counts[d])
    return best if counts[best] > 0 else ","


def _clean_header(name: str) -> str:
    return name.strip().lstrip("\ufeff").strip()


#: the readers' own rules, for code that edits a CSV where the reader found its cells (verdicts.fixing)
sniff_delimiter = _sniff_delimiter
clean_header = _clean_header


_FIRST_LINE = re.compile(r"[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]*")


def _cut(text: str, limit: int = 80) -> str:
    """``text`` as it is, or its start and its length when it is longer than ``limit``."""
    return text if len(text) <= limit else f"{text[:40]}…({len(text):,}자)"


def _shown(text: str, limit: int = 40) -> str:
    """``text`` quoted for a message, cut to ``limit`` characters."""
    return code(text if len(text) <= limit else text[:limit] + "…")


def read_csv(path: Path, table: str, issues: list[InputIssue], *, free_text: Collection[str] = ()) -> RawTable:
    """Read one CSV file into a :class:`RawTable` named ``table``.

    Rows keep their physical starting line (a quoted cell may span lines).  A row with
    more cells than the header is reported; fewer cells are read as empty (spreadsheets
    drop trailing empty cells).  Entirely empty rows are skipped.

    The records are parsed strictly (a quote that opens a cell must close it, and
    nothing but a separator may follow the closing quote) in one call; when every
    record is one physical line (no quoted line break), record ``i`` is line
    ``header + i`` and no per-record line bookkeeping is needed.  Otherwise, or when a
    record does not parse, the file is read again record by record
    (:func:`_read_records_carefully`): a broken record is an issue at the line and
    character of its quote, and reading goes on from the next line, so that a lone
    ``"`` never swallows the rows after it.
    """
    text, encoding = decode_bytes(_read_bytes(path, MAX_INPUT_BYTES, "CSV"), str(path))
    return read_csv_text(text, str(path), table, issues, encoding=encoding, free_text=free_text)


def read_csv_text(text: str, file: str, table: str, issues: list[InputIssue], *, encoding: str = "utf-8",
                  free_text: Collection[str] = ()) -> RawTable:
    """:func:`read_csv` of CSV ``text`` already read from ``file`` (decoded as ``encoding``)."""
    if not text.strip():
        issues.append(InputIssue(file=file, table=table, line=1, reason="파일이 비어 있어 머리글(열 이름) 줄이 없습니다."))
        return RawTable(table, file, "csv", encoding, [], [])
    first = _FIRST_LINE.match(text)
    assert first is not None  # ``*``: it always matches
    first_line = first.group()  # == text.splitlines()[0]
    delimiter = _sniff_delimiter(first_line)
    header_cells = first_line.count(delimiter) + 1
    try:
        if header_cells > MAX_COLUMNS and '"' not in first_line and text[len(first_line):len(first_line) + 1] in ("\r", "\n", ""):
            # a header far wider than any spreadsheet: split only what is read, and never
            # hold millions of header cells (the records follow as usual, from line 2)
            header = first_line.split(delimiter, MAX_COLUMNS)[:MAX_COLUMNS]
            rest = text[len(first_line):]
            rest = rest[2:] if rest.startswith("\r\n") else rest[1:]
            del first_line
            reader = csv.reader(io.StringIO("\n" + rest, newline=""), delimiter=delimiter, strict=True)
            next(reader)  # the blank line standing for the header
        else:
            del first_line
            reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
            header = next(reader)
            header_cells = len(header)
    except csv.Error:
        lines = io.StringIO(text, newline="").readlines()
        problem = _record_problem(lines, 0, delimiter)
        if problem is None:
            raise InputError(f"{file}:1: 머리글 줄을 CSV로 읽을 수 없습니다.") from None
        raise InputError(f"{file}:{problem[0] + 1}: 머리글 줄의 {problem[3]} 열 이름을 읽을 수 없습니다.") from None
    header_end = reader.line_num
    if header_cells > MAX_COLUMNS:
        issues.append(InputIssue(file=file, table=table, line=1,
                                 reason=f"머리글에 칸이 {header_cells:,}개 있어 한도 {MAX_COLUMNS:,}개 뒤의 열은 읽지 않았습니다."))
        del header[MAX_COLUMNS:]
    columns = [_clean_header(h) for h in header]
    seen: dict[str, int] = {}
    repeated = 0
    for index, name in enumerate(columns):
        if not name:
            continue
        if name in seen:
            repeated += 1
            if repeated <= MAX_REPEATED_ISSUES:
                issues.append(
                    InputIssue(file=file, table=table, line=1, column=name,
                               reason=f"{code(name)} 열이 {seen[name] + 1}번째와 {index + 1}번째에 두 번 있어 앞의 열만 씁니다.")
                )
        else:
            seen[name] = index
    if repeated > MAX_REPEATED_ISSUES:
        issues.append(InputIssue(file=file, table=table, line=1,
                                 reason=f"이미 나온 열 이름이 모두 {repeated:,}번 다시 나와 앞의 {MAX_REPEATED_ISSUES}개만 따로 적었고 나머지도 앞의 열만 씁니다."))
    ncols = len(columns)
    try:
        records = list(reader)
    except csv.Error:
        records = None
    if records and "'" in text:  # a cell our writers guarded (verdicts.safe_csv) reads back as it was
        records = [[unguard(c) if c[:1] == "'" else c for c in cells] for cells in records]
    if records is None or reader.line_num != header_end + len(records):
        lines = io.StringIO(text, newline="").readlines()
        rows = _read_records_carefully(lines, header_end, ncols, seen, delimiter, file, table, issues,
                                       free={seen[n] for n in free_text if n in seen})
    elif _all_full(records, ncols):
        # the usual file: every record as long as the header and none blank
        rows = list(map(RawRow, range(header_end + 1, header_end + 1 + len(records)), repeat(None), records, repeat(seen)))
    else:
        rows = []
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
    """Report the non-empty cells past the header's width and drop every cell past it."""
    extra = [c for c in cells[ncols:] if c.strip()]
    if extra:
        more = len(extra) - 3
        shown = ", ".join(_shown(c) for c in extra[:3]) + ((" 외 하나" if more == 1 else f" 외 {more:,}개") if more > 0 else "")
        issues.append(
            InputIssue(file=file, table=table, line=line,
                       reason=f"이 줄의 칸이 머리글보다 많아(머리글 {ncols}칸, 이 줄 {len(cells)}칸) 넘치는 값 {josa(shown, '은/는')} "
                              f"읽지 않았습니다.")
        )
    del cells[ncols:]


def _record_problem(lines: list[str], start: int, delimiter: str) -> tuple[int, int, int, str] | None:
    """Where the record that starts at ``lines[start]`` breaks strict CSV:
    ``(line index, 1-based character, 0-based cell, reason as a clause)``, or ``None`` when its
    quotes are sound (then only a cell's size can be at fault)."""
    special = re.compile(f"[{re.escape(delimiter)}\"\\r\\n]")
    cell = 0
    opened: tuple[int, int, int] | None = None
    at_start = True  # at the start of a cell (a quote there opens a quoted cell)
    after_quote = False  # just after a closing quote
    for index in range(start, len(lines)):
        line = lines[index]
        j = 0
        end = len(line)
        while j < end:
            if opened is not None:  # inside a quoted cell: find the next quote
                k = line.find('"', j)
                if k < 0:
                    j = end
                    break
                if k + 1 < end and line[k + 1] == '"':
                    j = k + 2
                    continue
                opened = None
                after_quote = True
                j = k + 1
                continue
            ch = line[j]
            if after_quote:
                if ch == delimiter:
                    cell += 1
                    after_quote, at_start = False, True
                    j += 1
                    continue
                if ch in "\r\n":
                    return None
                return index, j + 1, cell, f"{j + 1}번째 글자에서 따옴표로 닫은 칸 뒤에 구분자 없이 {_shown(ch)} 글자가 이어져"
            if at_start and ch == '"':
                opened = (index, j + 1, cell)
                at_start = False
                j += 1
                continue
            m = special.search(line, j)
            if m is None:
                at_start = False
                break
            ch = m.group()
            if ch == delimiter:
                cell += 1
                at_start = True
                j = m.end()
            elif ch in "\r\n":
                return None
            else:  # a quote inside an unquoted cell is kept as it is
                at_start = False
                j = m.end()
        if opened is None:  # only a quoted cell carries a record over to the next line
            return None
    if opened is not None:
        return opened[0], opened[1], opened[2], f"{opened[1]}번째 글자의 따옴표(\")로 연 칸이 파일 끝까지 닫히지 않아"
    return None


def _swallowed_lines(cells: list[str], delimiter: str, ncols: int, free: Collection[int] = ()) -> int | None:
    """The cell of a record spanning several lines that looks like a lone ``"`` closed
    by another one lines later: a record with more cells than the header, or a
    multi-line cell holding a whole row's separators (the header's less one), or a line
    of it with half of them (at least two each time).  ``None`` when the record looks
    like a real multi-line cell.  Cells of free-text columns (``free``: a page of a
    document, a mail body) may hold any number of separators on many lines: only the
    record's cell count can tell there."""
    spanning = [i for i, cell in enumerate(cells) if ("\n" in cell or "\r" in cell)]
    if not spanning:
        return None
    if len(cells) > ncols:
        return spanning[0]
    per_line, per_cell = max(2, (ncols - 1) // 2), max(2, ncols - 1)
    for i in spanning:
        if i in free:
            continue
        cell = cells[i]
        if cell.count(delimiter) >= per_cell or any(part.count(delimiter) >= per_line for part in cell.splitlines()):
            return i
    return None


def _cell_name(seen: dict[str, int], cell: int) -> str | None:
    for name, index in seen.items():
        if index == cell:
            return name
    return None


def _read_records_carefully(lines: list[str], first: int, ncols: int, seen: dict[str, int], delimiter: str,
                            file: str, table: str, issues: list[InputIssue], free: Collection[int] = ()) -> list[RawRow]:
    """The records from ``lines[first]`` on, each with the physical line it starts on.

    A record that does not parse strictly, or whose quoted cell swallows what looks like
    whole rows, is an issue naming its line, cell and the character of the quote; that
    line is not read and reading starts again on the next line."""
    rows: list[RawRow] = []
    i = first
    total = len(lines)
    problems = 0
    while i < total:
        reader = csv.reader(map(lines.__getitem__, range(i, total)), delimiter=delimiter, strict=True)
        consumed = 0
        start = i
        restart = None
        try:
            for cells in reader:
                start = i + consumed
                span = reader.line_num - consumed
                consumed = reader.line_num
                if span > 1:
                    cell = _swallowed_lines(cells, delimiter, ncols, free)
                    if cell is not None:
                        column = _quote_column(lines[start], delimiter, cell)
                        issues.append(InputIssue(
                            file=file, table=table, line=start + 1, column=_cell_name(seen, cell),
                            reason=(f"{column}번째 글자의 따옴표(\")로 연 칸이 {start + span}번째 줄에서야 닫혀 사이의 줄이 "
                                    "모두 한 칸에 들어가므로 짝 없는 따옴표로 보고 이 줄은 읽지 않았습니다.")))
                        restart = start + 1
                        break
                if not any(c.strip() for c in cells):
                    continue
                if len(cells) > ncols:
                    _extra_cells(cells, ncols, file, table, start + 1, issues)
                values: dict[str, str | None] = {}
                for name, index in seen.items():
                    cell_text = unguard(cells[index]).strip() if index < len(cells) else ""
                    values[name] = cell_text if cell_text else None
                rows.append(RawRow(start + 1, values))
            else:
                restart = total
        except csv.Error as exc:
            start = i + consumed
            problem = _record_problem(lines, start, delimiter)
            if problem is not None:
                line_index, _, cell, why = problem
                where = f"{line_index + 1}번째 줄 " if line_index != start else ""
                reason = f"{where}{why} 이 줄은 읽지 않았습니다."
                cell_column = _cell_name(seen, cell)
            else:
                reason = (f"한 칸이 {csv.field_size_limit():,}자를 넘어 이 줄은 읽지 않았습니다." if "field larger" in str(exc)
                          else f"CSV로 읽을 수 없는 줄이라 읽지 않았습니다 ({exc}).")
                cell_column = None
            issues.append(InputIssue(file=file, table=table, line=start + 1, column=cell_column, reason=reason))
            restart = start + 1
        problems += restart < total
        if problems > MAX_CSV_PROBLEMS:
            issues.append(InputIssue(file=file, table=table, line=restart + 1,
                                     reason=f"CSV로 읽을 수 없는 줄이 {MAX_CSV_PROBLEMS:,}개를 넘어 {restart + 1}번째 줄부터는 읽지 않았습니다."))
            break
        i = restart
    return rows


def _quote_column(line: str, delimiter: str, cell: int) -> int:
    """The 1-based character of the quote that opens cell ``cell`` on ``line``."""
    index = 0
    j = 0
    quoted = False
    while j < len(line):
        ch = line[j]
        if quoted:
            if ch == '"':
                if line[j + 1:j + 2] == '"':
                    j += 2
                    continue
                quoted = False
        elif ch == delimiter:
            index += 1
        elif ch == '"' and (j == 0 or line[j - 1] == delimiter):
            if index == cell:
                return j + 1
            quoted = True
        j += 1
    return 1


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


def depth_over(value: Any, limit: int) -> bool:
    """Whether lists and mappings nest deeper than ``limit`` inside ``value`` (walked
    without recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return True
        if isinstance(item, dict):
            stack.extend((v, depth + 1) for v in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((v, depth + 1) for v in item)
    return False


class _Records:
    """The tables of a JSON or YAML document as they are found: each record with its
    line, the key lines for duplicate keys, turned into :class:`RawTable` at the end."""

    def __init__(self, file: str, form: str, encoding: str | None, issues: list[InputIssue], check_surrogates: bool):
        self.file, self.form, self.encoding, self.issues = file, form, encoding, issues
        self.check_surrogates = check_surrogates
        self.tables: dict[str, RawTable] = {}
        self.known: dict[str, set[str]] = {}
        self.wanted: Collection[str] = ()

    def issue(self, table: str | None, line: int | None, reason: str, column: str | None = None) -> None:
        self.issues.append(InputIssue(file=self.file, table=table, line=line, column=column, reason=reason))

    def table(self, name: str, line: int, first_line: int | None) -> RawTable | None:
        """A new table ``name`` whose key is on ``line``, or ``None`` when the key was
        already there (``first_line``): the later table is an issue and is not read."""
        if first_line is not None:
            self.issue(name, line, f"{code(name)} 표가 {first_line}번째 줄에 이미 있어 이 줄의 두 번째 표는 읽지 않았습니다.")
            return None
        table = self.tables[name] = RawTable(name, self.file, self.form, self.encoding, [], [])
        self.known[name] = set()
        return table

    def unknown_table(self, name: str, line: int) -> None:
        """A top-level key that names no table of the format: an issue (with the table it
        most likely misspells), and nothing of it is read."""
        if name.startswith(OWN_KEY_PREFIX):
            return
        hint = misspelling(name, sorted(self.wanted), what="표")
        self.issue(None, line, f"{code(_cut(name))} 키는 읽는 표의 이름이 아니라 읽지 않았습니다.{hint}")

    def refuse(self, name: str, line: int) -> None:
        """The table ``name`` is not a list of records: an issue, and no table."""
        del self.tables[name], self.known[name]
        self.issue(name, line, f"{code(name)} 표의 값이 행 목록(배열)이 아니라서 이 표는 읽지 않았습니다.")

    def add(self, table: RawTable, record: Any, line: int, duplicates: list[tuple[str, int]],
            line_of_key: Callable[[str], int] | None = None, span: tuple[int, int] | None = None) -> None:
        """One record of ``table``; ``duplicates`` holds the keys it repeats with their lines
        (the first value of a key is kept); ``span``: where the record is in the text."""
        if not isinstance(record, dict):
            self.issue(table.name, line, "행이 키-값 객체가 아니라 이 행은 읽지 않았습니다.")
            return
        if span is not None:
            table.spans.append(span)
        for key, key_line in duplicates:
            self.issue(table.name, key_line, f"{_shown(key)} 키가 이 행에 두 번 있어 앞의 값만 읽었습니다.", column=key)
        values: dict[str, str | None] = {}
        for k, v in record.items():
            col = _clean_header(str(k))
            if self.check_surrogates and _SURROGATE.search(col):
                col = _without_surrogates(col)
            if col in values:  # keys equal once stripped
                continue
            if isinstance(v, (list, tuple, dict)) and depth_over(v, MAX_DEPTH - 3):
                self.issue(table.name, line, f"값이 {MAX_DEPTH}단계보다 깊게 중첩되어 이 칸은 읽지 않았습니다.", column=col)
                values[col] = None
                continue
            if isinstance(v, (list, tuple)):
                v = ",".join(str(x) for x in v)
            text = _cell_text(v)
            if self.check_surrogates and text is not None and _SURROGATE.search(text):
                self.issue(table.name, line, "짝 없는 서로게이트 문자(\\ud800~\\udfff)가 있어 그 글자는 U+FFFD(�)로 바꿔 읽었습니다.", column=col)
                text = _without_surrogates(text)
            values[col] = text
        known = self.known[table.name]
        if col_names := [c for c in values if c not in known]:
            table.columns.extend(col_names)
            known.update(col_names)
            table.first_lines.update({c: line_of_key(c) if line_of_key else line for c in col_names})
        table.rows.append(RawRow(line, values))

    def finish(self, text: str) -> dict[str, RawTable]:
        # columns absent from every record are missing; columns absent from some records are empty there
        locate = _key_locator(text, self.form)
        for table in self.tables.values():
            table.key_line = locate
            for row in table.rows:
                values = row.values
                for col in table.columns:
                    values.setdefault(col, None)
        return self.tables


def _key_locator(text: str, form: str) -> Callable[[int, str], int]:
    """``(line, key) -> the line of the first `key:` from the start of ``line`` on`` in a
    JSON or YAML ``text`` (the record starting on ``line`` holds the key; its line when
    the key cannot be found)."""
    breaks: list[int] = []

    def locate(line: int, key: str) -> int:
        import bisect

        if not breaks:
            breaks.extend(m.start() for m in re.finditer("\n", text))
            breaks.append(len(text))
        start = breaks[line - 2] + 1 if line >= 2 else 0
        if form == "json":
            pattern = re.escape(json.dumps(key, ensure_ascii=False)) + r"[ \t\r\n]*:"
        else:
            pattern = r"""(?<![\w-])["']?""" + re.escape(key) + r"""["']?[ \t]*:"""
        m = re.compile(pattern).search(text, start, breaks[-1])
        return bisect.bisect_left(breaks, m.start()) + 1 if m else line

    return locate


def json_int(text: str) -> int | str:
    """A JSON integer; past Python's 4,300-digit limit the digits stay text (the typing
    step then reports them)."""
    return int(text) if len(text) <= 4000 else text


def _line_counter(text: str):
    """``line(offset)`` for increasing offsets, counting line breaks once."""
    state = [0, 1]

    def line(offset: int) -> int:
        last, number = state
        if offset < last:
            return text.count("\n", 0, offset) + 1
        number += text.count("\n", last, offset)
        state[0], state[1] = offset, number
        return number

    return line


def _json_records(text: str, file: str, encoding: str | None, wanted: set[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    """Read a JSON document (strict JSON: RFC 8259, tabs allowed, no YAML values) of
    tables.  Each record is parsed by the C scanner on its own, so that its line is
    known; a repeated key is an issue naming it and its line, and the first value is
    kept."""
    duplicates: list[str] = []

    def pairs(items: list[tuple[str, Any]]) -> dict:
        record: dict = {}
        for key, value in items:
            if key in record:
                duplicates.append(key)
            else:
                record[key] = value
        return record

    decoder = json.JSONDecoder(object_pairs_hook=pairs, parse_int=json_int, parse_constant=str)
    scan = decoder.scan_once  # type: ignore[attr-defined]  # made by JSONDecoder.__init__ (not in the stubs)
    # ``*``: it always matches
    ws: Callable[[str, int], re.Match[str]] = re.compile(r"[ \t\n\r]*").match  # type: ignore[assignment]
    line_of = _line_counter(text)
    found = _Records(file, "json", encoding, issues, check_surrogates="\\u" in text and bool(_ESCAPED_SURROGATE.search(text)))
    found.wanted = wanted
    first_key_line: dict[str, int] = {}
    start = 0
    try:
        pos = ws(text, 0).end()
        if text[pos:pos + 1] != "{":
            _json_loads_or_fail(text, file, decoder)
            raise InputError(f"{file}: 최상위가 표 이름을 키로 하는 객체여야 합니다 (예: {{\"{sorted(wanted)[0]}\": [...]}}).")
        pos = ws(text, pos + 1).end()
        while text[pos] != "}":
            start = pos
            if text[pos] != '"':
                raise ValueError
            key, pos = json.decoder.scanstring(text, pos + 1)  # type: ignore[attr-defined]  # public, not in the stubs
            key_line = line_of(start)
            pos = ws(text, pos).end()
            if text[pos] != ":":
                raise ValueError
            pos = ws(text, pos + 1).end()
            name = key.strip()
            table = None
            if name in wanted:
                table = found.table(name, key_line, first_key_line.get(name))
                first_key_line.setdefault(name, key_line)
            else:
                found.unknown_table(name, key_line)
            if table is not None and text[pos] == "[":
                opened = pos
                pos = ws(text, pos + 1).end()
                if text[pos] == "]":
                    pos += 1
                else:
                    while True:
                        start = pos
                        duplicates.clear()
                        record, pos = scan(text, pos)
                        line = line_of(start)
                        repeated = [(k, _key_line(text, start, pos, k, line)) for k in dict.fromkeys(duplicates)]
                        found.add(table, record, line, repeated, _first_key_lines(text, start, pos, line), (start, pos))
                        pos = ws(text, pos).end()
                        if text[pos] == ",":
                            pos = ws(text, pos + 1).end()
                            continue
                        if text[pos] != "]":
                            raise ValueError
                        pos += 1
                        break
                table.list_span, table.flow = (opened, pos), True
            else:
                start = pos
                value, pos = scan(text, pos)
                if table is not None and value is not None:
                    found.refuse(name, key_line)
            pos = ws(text, pos).end()
            if text[pos] == ",":
                pos = ws(text, pos + 1).end()
                if text[pos] != '"':
                    raise ValueError
                continue
            if text[pos] != "}":
                raise ValueError
        pos += 1
        if ws(text, pos).end() != len(text):
            raise ValueError
    except RecursionError:
        raise InputError(f"{file}:{line_of(start)}: 값이 너무 깊게 중첩되어(한도 {MAX_DEPTH}단계) JSON을 읽을 수 없습니다.") from None
    except (ValueError, IndexError, StopIteration):
        _json_loads_or_fail(text, file, decoder)
        raise InputError(f"{file}: JSON으로 읽을 수 없습니다.") from None
    return found.finish(text)


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")


def _first_key_lines(text: str, start: int, end: int, default: int) -> Callable[[str], int]:
    """``key -> the line of its first "key":`` in the record between ``start`` and ``end``."""
    return lambda key: _key_line(text, start, end, key, default, nth=1)


def _key_line(text: str, start: int, end: int, key: str, default: int, nth: int = 2) -> int:
    """The line of the ``nth`` ``"key":`` between ``start`` and ``end`` (the second: a
    repeated key)."""
    pattern = re.compile(re.escape(json.dumps(key, ensure_ascii=False)) + r"[ \t\r\n]*:")
    hits = [m.start() for _, m in zip(range(nth), pattern.finditer(text, start, end))]
    if len(hits) < nth:
        return default
    return text.count("\n", 0, hits[nth - 1]) + 1


def _json_loads_or_fail(text: str, file: str, decoder: json.JSONDecoder) -> None:
    """Raise the JSON parser's own complaint about ``text`` with its line and column."""
    try:
        decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise json_syntax_error(file, exc) from None
    except RecursionError:
        raise InputError(f"{file}: 값이 너무 깊게 중첩되어(한도 {MAX_DEPTH}단계) JSON을 읽을 수 없습니다.") from None


def json_syntax_error(file: str, exc: json.JSONDecodeError) -> InputError:
    """The JSON parser's complaint as our message, naming ``file``, line and column."""
    return InputError(f"{file}:{exc.lineno}:{exc.colno}: JSON으로 읽을 수 없습니다 ({_JSON_ERRORS.get(exc.msg, exc.msg)}).")


_JSON_ERRORS = {
    "Expecting value": "값이 와야 할 자리입니다",
    "Expecting property name enclosed in double quotes": "큰따옴표로 감싼 키가 와야 할 자리입니다",
    "Expecting ',' delimiter": "쉼표(,)가 와야 할 자리입니다",
    "Expecting ':' delimiter": "쌍점(:)이 와야 할 자리입니다",
    "Extra data": "문서가 끝난 뒤에 다른 내용이 있습니다",
    "Unterminated string starting at": "닫히지 않은 문자열이 여기서 시작합니다",
    "Invalid control character at": "문자열 안에 제어 문자가 있습니다",
    "Invalid \\escape": "잘못된 역슬래시 이스케이프입니다",
    "Invalid \\uXXXX escape": "잘못된 \\uXXXX 이스케이프입니다",
}


def yaml_loader():
    """PyYAML's safe loader (libyaml's when it is there) whose integers past Python's
    4,300-digit limit stay text instead of raising."""
    import yaml

    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    loader = _YAML_LOADERS.get(base)
    if loader is None:
        class Loader(base):
            pass

        def construct_int(self, node):
            try:
                value = yaml.SafeLoader.construct_yaml_int(self, node)
            except ValueError:
                return self.construct_scalar(node)
            return value if value.bit_length() <= 13_000 else self.construct_scalar(node)

        Loader.add_constructor("tag:yaml.org,2002:int", construct_int)
        loader = _YAML_LOADERS[base] = Loader
    return loader


_YAML_LOADERS: dict = {}


def safe_yaml_precheck(text: str, file: str, loader) -> None:
    """Walk the events of ``text`` once, without building anything: refuse nesting past
    :data:`MAX_DEPTH` and a document whose aliases expand past :data:`MAX_YAML_NODES`
    nodes (the "billion laughs"), before anything is composed."""
    import yaml

    sizes: dict[str, int] = {}  # anchor -> nodes it expands to
    stack: list[list] = []  # open collections: [anchor, nodes so far]
    total = 0  # nodes of the document with every alias expanded
    for event in yaml.parse(text, Loader=loader):
        kind = type(event)
        if kind is yaml.ScalarEvent:
            size = 1
            if event.anchor is not None:
                sizes[event.anchor] = 1
        elif kind is yaml.AliasEvent:
            size = sizes.get(event.anchor, 1)
        elif kind is yaml.SequenceStartEvent or kind is yaml.MappingStartEvent:
            if len(stack) >= MAX_DEPTH:
                raise InputError(f"{file}:{event.start_mark.line + 1}: 값이 {MAX_DEPTH}단계보다 깊게 중첩되어 YAML을 읽지 않았습니다.")
            stack.append([event.anchor, 1])
            size = 1
        elif kind is yaml.SequenceEndEvent or kind is yaml.MappingEndEvent:
            anchor, size = stack.pop()
            if anchor is not None:
                sizes[anchor] = size
            if stack:
                stack[-1][1] += size
            continue
        else:
            continue
        if stack and kind is not yaml.SequenceStartEvent and kind is not yaml.MappingStartEvent:
            stack[-1][1] += size
        total += size
        if total > MAX_YAML_NODES:
            raise InputError(f"{file}:{event.start_mark.line + 1}: 별칭(*)을 펼치면 값이 {MAX_YAML_NODES:,}개를 넘어 YAML을 읽지 않았습니다.")


def safe_yaml_load(text: str, file: str) -> Any:
    """The YAML document ``text`` as the tables read it: nesting past :data:`MAX_DEPTH`
    and aliases expanding past :data:`MAX_YAML_NODES` nodes refused first (an
    :class:`InputError` naming ``file`` and the line), then one safe parse."""
    import yaml

    loader = yaml_loader()
    safe_yaml_precheck(text, file, loader)
    return yaml.load(text, Loader=loader)  # noqa: S506 - a safe loader


@contextmanager
def reading_yaml(text: str, file: str, loader_class=None) -> Iterator[Any]:
    """A loader over the YAML document ``text`` (``loader_class``: :func:`yaml_loader`
    or one built on it), given once nesting and aliases passed
    :func:`safe_yaml_precheck`, and disposed of after.  Whatever goes wrong while it
    reads is an :class:`InputError` naming ``file`` (and the line and column when the
    parser knows them): a syntax error, libyaml's own nesting limit, a recursion, a value
    that cannot be built.  Every YAML document the kit reads goes through here (the
    tables, and :func:`verdicts.documents.parse_yaml`).

    >>> with reading_yaml("a: [1, 2]", "t.yaml") as loader:
    ...     loader.get_single_data()
    {'a': [1, 2]}
    >>> try:
    ...     with reading_yaml("a: [1, 2", "t.yaml") as loader:
    ...         loader.get_single_data()
    ... except InputError as exc:
    ...     print(str(exc).split(":")[0], "YAML로 읽을 수 없습니다" in str(exc))
    t.yaml True
    """
    import yaml

    loader_class = loader_class or yaml_loader()
    try:
        safe_yaml_precheck(text, file, loader_class)
        loader = loader_class(text)
        try:
            yield loader
        finally:
            loader.dispose()
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark else ""
        problem = str(getattr(exc, "problem", None) or exc)
        if "nesting depth" in problem:  # libyaml's own limit, met before ours on a very deep flow collection
            raise InputError(f"{file}{where}: 값이 {MAX_DEPTH}단계보다 깊게 중첩되어 YAML을 읽지 않았습니다.") from None
        raise InputError(f"{file}{where}: YAML로 읽을 수 없습니다 ({problem}).") from None
    except RecursionError:
        raise InputError(f"{file}: 값이 너무 깊게 중첩되어(한도 {MAX_DEPTH}단계) YAML을 읽을 수 없습니다.") from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise InputError(f"{file}: YAML 값을 읽을 수 없습니다 ({type(exc).__name__}: {exc}).") from None


def _yaml_records(text: str, file: str, encoding: str | None, wanted: set[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    import yaml

    with reading_yaml(text, file) as loader:
        node = loader.get_single_node()
        found = _Records(file, "yaml", encoding, issues, check_surrogates=bool(_SURROGATE.search(text)) or "\\" in text)
        found.wanted = wanted
        if node is None or not isinstance(node, yaml.MappingNode):
            raise InputError(f"{file}: 최상위가 표 이름을 키로 하는 객체여야 합니다 (예: {sorted(wanted)[0]}: [...]).")
        first_key_line: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = loader.construct_object(key_node, deep=True)
            name = str(key).strip()
            if name not in wanted:
                found.unknown_table(name, key_node.start_mark.line + 1)
                continue
            key_line = key_node.start_mark.line + 1
            table = found.table(name, key_line, first_key_line.get(name))
            first_key_line.setdefault(name, key_line)
            if table is None:
                continue
            if isinstance(value_node, yaml.ScalarNode) and loader.construct_object(value_node) is None:
                continue
            if not isinstance(value_node, yaml.SequenceNode):
                found.refuse(name, key_line)
                continue
            for item in value_node.value:
                line = item.start_mark.line + 1
                repeated: list[tuple[str, int]] = []
                key_lines: dict[str, int] = {}
                if isinstance(item, yaml.MappingNode):
                    for k_node, _ in item.value:
                        if isinstance(k_node, yaml.ScalarNode):
                            key_lines.setdefault(_clean_header(k_node.value), k_node.start_mark.line + 1)
                    keys: set = set()
                    for k_node, _ in item.value:
                        if isinstance(k_node, yaml.ScalarNode):
                            if k_node.value in keys:
                                repeated.append((k_node.value, k_node.start_mark.line + 1))
                            keys.add(k_node.value)
                record = loader.construct_object(item, deep=True)
                if repeated and isinstance(record, dict):
                    # PyYAML keeps the last value of a repeated key; keep the first, as for JSON
                    for k_node, v_node in reversed(item.value):
                        if isinstance(k_node, yaml.ScalarNode) and k_node.value in {k for k, _ in repeated}:
                            record[loader.construct_object(k_node)] = loader.construct_object(v_node, deep=True)
                end = max((n.end_mark.index for pair in item.value for n in pair), default=item.end_mark.index) \
                    if isinstance(item, yaml.MappingNode) else item.end_mark.index
                found.add(table, record, line, repeated, _lines_getter(key_lines, line), (item.start_mark.index, end))
            table.list_span, table.flow = (value_node.start_mark.index, value_node.end_mark.index), bool(value_node.flow_style)
    return found.finish(text)


def _lines_getter(lines: dict[str, int], default: int) -> Callable[[str], int]:
    """``key -> its line`` from ``lines``, else ``default``."""
    return lambda key: lines.get(key, default)


def document_tables(text: str, file: str, form: str, wanted: Iterable[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    """The tables of a JSON (``form`` ``json``) or YAML document already decoded (what
    ``storygraph fix`` reads back before it writes one)."""
    reader = _json_records if form == "json" else _yaml_records
    return reader(text, file, None, set(wanted), issues)


def _document_records(path: Path, wanted: Iterable[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    """The tables of a JSON (``.json``) or YAML (``.yaml``, ``.yml``) document."""
    is_json = path.suffix.lower() == ".json"
    limit = MAX_JSON_BYTES if is_json else MAX_YAML_BYTES
    text, encoding = decode_bytes(_read_bytes(path, limit, "JSON" if is_json else "YAML"), str(path))
    reader = _json_records if is_json else _yaml_records
    return reader(text, str(path), encoding, set(wanted), issues)


class _XlsxReader:
    """A bounded reader of the parts of an ``.xlsx`` workbook this project needs.

    The workbook is a zip of XML parts.  Before anything is decompressed the declared
    sizes are checked (a zip bomb is refused); each part is then streamed through expat
    with a byte budget, a document type declaration (and so any entity) is refused, and
    XML that ends early is an error naming the part, line and column.  Cell values are
    read as a spreadsheet program would show them (the cached value of a formula); a
    formula without a cached value is an issue per cell, never an empty cell.
    """

    def __init__(self, path: Path, issues: list[InputIssue]):
        import zipfile

        self.path, self.file, self.issues = path, str(path), issues
        data = _read_bytes(path, MAX_XLSX_BYTES, "xlsx")
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as exc:
            raise InputError(f"{path}: xlsx 통합 문서(zip)로 읽을 수 없습니다 ({exc}).") from None
        if len(infos) > MAX_XLSX_PARTS:
            raise InputError(f"{path}: xlsx 안의 파일이 {len(infos):,}개로 한도 {MAX_XLSX_PARTS:,}개를 넘어 읽지 않았습니다.")
        declared = sum(info.file_size for info in infos)
        if declared > MAX_XLSX_UNCOMPRESSED:
            raise InputError(f"{path}: xlsx를 풀면 {declared:,}바이트로 한도 {MAX_XLSX_UNCOMPRESSED:,}바이트를 넘어 읽지 않았습니다.")
        self.names = {info.filename for info in infos}
        self.budget = MAX_XLSX_UNCOMPRESSED
        self.text_budget = MAX_XLSX_TEXT_CHARS

    # ----------------------------------------------------------------- XML parts

    def parse(self, name: str, start, end=None, text=None) -> None:
        """Stream the part ``name`` through expat with the given handlers (tag names
        without their namespace prefix)."""
        from xml.parsers import expat

        import zipfile

        where = f"{self.file}#{name}"
        parser = expat.ParserCreate()
        parser.buffer_text = True

        def refuse(*_args):
            raise InputError(f"{where}:{parser.CurrentLineNumber}: xlsx 안의 XML에 문서형 선언(DTD)이나 엔티티가 있어 읽지 않았습니다.")

        parser.StartDoctypeDeclHandler = refuse
        parser.EntityDeclHandler = refuse
        parser.ExternalEntityRefHandler = refuse
        parser.StartElementHandler = lambda tag, attrs: start(tag.rpartition(":")[2], attrs)
        if end is not None:
            parser.EndElementHandler = lambda tag: end(tag.rpartition(":")[2])
        if text is not None:
            parser.CharacterDataHandler = text
        try:
            with self.zip.open(name) as stream:
                while True:
                    chunk = stream.read(1 << 20)
                    self.budget -= len(chunk)
                    if self.budget < 0:
                        raise InputError(f"{self.file}: xlsx를 풀어 읽은 내용이 한도 {MAX_XLSX_UNCOMPRESSED:,}바이트를 넘어 읽지 않았습니다.")
                    parser.Parse(chunk, not chunk)
                    if not chunk:
                        break
        except expat.ExpatError as exc:
            reason = "끝나기 전에 잘렸습니다" if exc.code in (expat.errors.codes[expat.errors.XML_ERROR_NO_ELEMENTS],
                                                        expat.errors.codes[expat.errors.XML_ERROR_UNCLOSED_TOKEN],
                                                        expat.errors.codes[expat.errors.XML_ERROR_PARTIAL_CHAR]) \
                else f"XML 문법에 맞지 않습니다 ({expat.errors.messages[exc.code]})"
            raise InputError(f"{where}:{exc.lineno}:{exc.offset + 1}: xlsx 안의 XML이 {reason}.") from None
        except (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError) as exc:
            raise InputError(f"{where}: xlsx 안의 파일을 풀 수 없습니다 ({exc}).") from None
        except RecursionError:  # pragma: no cover - expat does not recurse
            raise InputError(f"{where}: xlsx 안의 XML이 너무 깊게 중첩되어 읽지 않았습니다.") from None

    def relationships(self, part: str) -> dict[str, tuple[str, str]]:
        """``Id -> (type, target part)`` of the relationships of ``part``."""
        folder, _, base = part.rpartition("/")
        rels = f"{folder}/_rels/{base}.rels" if folder else f"_rels/{base}.rels"
        found: dict[str, tuple[str, str]] = {}
        if rels not in self.names:
            return found

        def start(tag, attrs):
            if tag == "Relationship" and attrs.get("TargetMode") != "External":
                target = attrs.get("Target", "")
                target = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
                found[attrs.get("Id", "")] = (attrs.get("Type", ""), target)

        self.parse(rels, start)
        return found

    # ----------------------------------------------------------------- the workbook

    def sheets(self) -> tuple[list[tuple[str, str]], dict[str, tuple[str, str]], str, bool]:
        """``[(sheet name, part)]``, the workbook's relationships, its part and whether
        its dates count from 1904."""
        root = self.relationships("")
        workbook = next((target for kind, target in root.values() if kind.endswith("/officeDocument")), "xl/workbook.xml")
        if workbook not in self.names:
            raise InputError(f"{self.file}: xlsx 통합 문서에 {josa(workbook, '이/가')} 없어 시트를 찾을 수 없습니다.")
        rels = self.relationships(workbook)
        listed: list[tuple[str, str]] = []
        date1904 = [False]

        def start(tag, attrs):
            if tag == "sheet":
                rid = next((v for k, v in attrs.items() if k == "id" or k.endswith(":id")), None)
                kind, target = rels.get(rid or "", ("", ""))
                listed.append((attrs.get("name", ""), target))
            elif tag == "workbookPr":
                date1904[0] = attrs.get("date1904", "0").lower() in ("1", "true")

        self.parse(workbook, start)
        return listed, rels, workbook, date1904[0]

    def shared_strings(self, part: str | None) -> list[str]:
        strings: list[str] = []
        if part is None or part not in self.names:
            return strings
        state = {"in_si": False, "skip": 0, "parts": []}
        budget = [MAX_XLSX_TEXT_CHARS]

        def start(tag, attrs):
            if tag == "si":
                state["in_si"], state["parts"] = True, []
            elif tag in ("rPh", "phoneticPr"):
                state["skip"] += 1

        def end(tag):
            if tag == "si":
                text = "".join(state["parts"])
                strings.append(text)
                state["in_si"] = False
                if len(strings) > MAX_XLSX_SHARED_STRINGS:
                    raise InputError(f"{self.file}#{part}: 공유 문자열이 한도 {MAX_XLSX_SHARED_STRINGS:,}개를 넘어 읽지 않았습니다.")
            elif tag in ("rPh", "phoneticPr"):
                state["skip"] -= 1

        def text(data):
            if state["in_si"] and not state["skip"]:
                state["parts"].append(data)
                budget[0] -= len(data)
                if budget[0] < 0:
                    raise InputError(f"{self.file}#{part}: 공유 문자열이 모두 {MAX_XLSX_TEXT_CHARS:,}자를 넘어 읽지 않았습니다.")

        self.parse(part, start, end, text)
        return strings

    def date_styles(self, part: str | None) -> tuple[set[int], set[int]]:
        """The cell styles that show numbers as dates, and those that show durations."""
        dates: set[int] = set()
        durations: set[int] = set()
        if part is None or part not in self.names:
            return dates, durations
        from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format, is_timedelta_format

        custom: dict[int, str] = {}
        xf_formats: list[int] = []
        state = {"in_xfs": False}

        def start(tag, attrs):
            if tag == "numFmt":
                try:
                    custom[int(attrs.get("numFmtId", "-1"))] = attrs.get("formatCode", "")
                except ValueError:
                    pass
            elif tag == "cellXfs":
                state["in_xfs"] = True
            elif tag == "xf" and state["in_xfs"]:
                try:
                    xf_formats.append(int(attrs.get("numFmtId", "0")))
                except ValueError:
                    xf_formats.append(0)

        def end(tag):
            if tag == "cellXfs":
                state["in_xfs"] = False

        self.parse(part, start, end)
        for style, fmt_id in enumerate(xf_formats):
            code = custom.get(fmt_id, BUILTIN_FORMATS.get(fmt_id))
            if code and is_date_format(code):
                dates.add(style)
                if is_timedelta_format(code):
                    durations.add(style)
        return dates, durations

    def rows(self, part: str, where: str, shared: list[str], dates: set[int], durations: set[int], date1904: bool):
        """``[(row number, [cell value or None, …])]`` of a sheet, the formulas without a
        cached value as ``[(row, column index, reference, formula)]``, the cells that
        cannot be read, and the row numbers past :data:`MAX_XLSX_ROW` as written (those
        rows are not read: a sheet's rows are kept as given, never made up to a number)."""
        rows: list[tuple[int, list]] = []
        uncached: list[tuple[int, int, str, str]] = []
        problems: list[tuple[int, int, str, str]] = []  # (row, column, reference, reason)
        far: list[str] = []  # row numbers past MAX_XLSX_ROW, as written
        st: dict[str, Any] = {"row": 0, "col": -1, "cells": None, "buf": None, "v": None, "f": None, "in_is": False, "skip": 0}

        def start(tag, attrs):
            if tag == "c":
                ref = attrs.get("r")
                col = _column_index(ref) if ref else st["col"] + 1
                st.update(col=col, ref=ref or f"#{col + 1}", t=attrs.get("t", "n"), s=attrs.get("s"), v=None, f=None, inline=[])
            elif tag == "row":
                r = attrs.get("r")
                number = r.strip() if r is not None else ""
                if number.isascii() and number.isdigit() and len(number) > len(str(MAX_XLSX_ROW)):
                    number = str(MAX_XLSX_ROW + 1)  # (never converted whole: 5,000 digits are refused, not parsed)
                try:
                    st["row"] = int(number) if r is not None else st["row"] + 1
                except ValueError:
                    st["row"] += 1
                st["col"] = -1
                st["cells"] = []
                if st["row"] > MAX_XLSX_ROW:
                    far.append(_shown(r or str(st["row"])))
                    st["row"] = MAX_XLSX_ROW
                    st["cells"] = None
            elif tag == "v" or tag == "f":
                st["buf"] = []
                st["tag"] = tag
            elif tag == "is":
                st["in_is"] = True
            elif tag == "t" and st["in_is"] and not st["skip"]:
                st["buf"] = []
                st["tag"] = "t"
            elif tag == "rPh":
                st["skip"] += 1

        def end(tag):
            if tag in ("v", "f", "t") and st["buf"] is not None and st.get("tag") == tag:
                value = "".join(st["buf"])
                st["buf"] = None
                if tag == "v":
                    st["v"] = value
                elif tag == "f":
                    st["f"] = value
                else:
                    st["inline"].append(value)
            elif tag == "f" and st.get("tag") == "f":
                st["f"] = ""
            elif tag == "is":
                st["in_is"] = False
            elif tag == "rPh":
                st["skip"] -= 1
            elif tag == "c":
                cells = st["cells"]
                if cells is None:
                    return
                col = st["col"]
                if col < 0 or col >= MAX_COLUMNS:
                    problems.append((st["row"], -1, st["ref"], f"열이 한도 {MAX_COLUMNS:,}개 밖이라 이 칸은 읽지 않았습니다"))
                    return
                value, problem = self.cell_value(st, shared, dates, durations, date1904)
                if problem is not None:
                    problems.append((st["row"], col, st["ref"], problem))
                    value = None
                elif value is None and st["f"] is not None:
                    uncached.append((st["row"], col, st["ref"], st["f"]))
                if value is not None:
                    if isinstance(value, str):
                        self.text_budget -= len(value)
                        if self.text_budget < 0:
                            raise InputError(f"{where}: 칸의 글자가 모두 {MAX_XLSX_TEXT_CHARS:,}자를 넘어 읽지 않았습니다.")
                    if len(cells) <= col:
                        cells.extend([None] * (col + 1 - len(cells)))
                    cells[col] = value
            elif tag == "row":
                if st["cells"]:
                    rows.append((st["row"], st["cells"]))
                st["cells"] = None

        def text(data):
            if st["buf"] is not None:
                st["buf"].append(data)

        self.parse(part, start, end, text)
        return rows, uncached, problems, far

    @staticmethod
    def cell_value(st: dict, shared: list[str], dates: set[int], durations: set[int], date1904: bool) -> tuple[Any, str | None]:
        """The value of the cell in ``st`` as openpyxl would give it, or a reason it
        cannot be read."""
        kind, raw = st["t"], st["v"]
        if kind == "inlineStr":
            value: Any = "".join(st["inline"]) if st["inline"] else None
        elif raw is None or raw == "":
            return None, None
        elif kind == "s":
            try:
                value = shared[int(raw)]
            except (ValueError, IndexError):
                return None, f"공유 문자열 번호 {_shown(raw)}에 해당하는 문자열이 없어 이 칸은 읽지 않았습니다"
        elif kind in ("str", "e", "d"):
            value = raw
        elif kind == "b":
            value = raw.strip() in ("1", "true")
        else:
            text = raw.strip()
            try:
                if "." in text or "E" in text or "e" in text:
                    value = float(text)
                else:
                    value = int(text)
            except ValueError:
                return None, f"숫자 칸인데 숫자로 읽을 수 없는 값({_shown(text)})이 들어 있어 이 칸은 읽지 않았습니다"
            style = st["s"]
            if style is not None and style.isdigit() and int(style) in dates:
                from openpyxl.utils.datetime import CALENDAR_MAC_1904, CALENDAR_WINDOWS_1900, from_excel

                try:
                    value = from_excel(value, CALENDAR_MAC_1904 if date1904 else CALENDAR_WINDOWS_1900,
                                       timedelta=int(style) in durations)
                except (ValueError, OverflowError, TypeError):
                    pass
        if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
            return None, f"칸의 글자가 {len(value):,}자로 한도 {MAX_CELL_CHARS:,}자를 넘어 이 칸은 읽지 않았습니다"
        return value, None


def _column_index(ref: str) -> int:
    """0-based column of a cell reference such as ``B7`` (-1 when it names none)."""
    letters = 0
    index = 0
    for ch in ref:
        if "A" <= ch <= "Z":
            index = index * 26 + (ord(ch) - 64)
            letters += 1
            if letters > 3:
                return -1
        elif "a" <= ch <= "z":
            index = index * 26 + (ord(ch) - 96)
            letters += 1
            if letters > 3:
                return -1
        else:
            break
    return index - 1


def _numbered_rows(rows: list[tuple[int, list]], sheet_file: str, table: str, issues: list[InputIssue]) -> list[tuple[int, list]]:
    """The rows of a sheet in the order of their numbers, as a spreadsheet shows them.

    A workbook stores rows in increasing order with numbers from 1; a crafted one may
    not: a row numbered 0 or below is an issue and is not read (it has no place in the
    sheet), rows stored out of order are one issue and are read in number order, and a
    row number used twice is an issue and the later row is not read."""
    def issue(line: int | None, reason: str) -> None:
        issues.append(InputIssue(file=sheet_file, table=table, line=line, reason=reason))

    kept: list[tuple[int, list]] = []
    seen: set[int] = set()
    out_of_order: tuple[int, int] | None = None
    last = 0
    for line, cells in rows:
        if line <= 0:
            first = next((text for c in cells if (text := _cell_text(c))), None)
            shown = f"(첫 값 {code(_cut(first, 40))})" if first else "(빈 행)"
            issue(None, f"행 번호가 {line:,}인 행{shown}이 있는데, 행 번호는 1부터 시작하므로 이 행은 읽지 않았습니다.")
            continue
        if line in seen:
            issue(line, f"행 번호가 {line:,}인 행이 두 번 저장되어 있어 뒤의 행은 읽지 않았습니다.")
            continue
        if line < last and out_of_order is None:
            out_of_order = (last, line)
        last = max(last, line)
        seen.add(line)
        kept.append((line, cells))
    if out_of_order is not None:
        before, after = out_of_order
        issue(after, f"행이 번호 순서대로 저장되어 있지 않아(행 {before:,} 다음에 행 {after:,}) 스프레드시트가 보여 주는 대로 "
                     "행 번호 순으로 읽었습니다.")
        kept.sort(key=lambda row: row[0])
    return kept


def _read_xlsx(path: Path, wanted: Iterable[str], issues: list[InputIssue]) -> dict[str, RawTable]:
    """The sheets of ``wanted`` names (the header is row 1; lines are row numbers)."""
    reader = _XlsxReader(path, issues)
    file = str(path)
    wanted = set(wanted)
    listed, rels, _, date1904 = reader.sheets()
    chosen = [(name, part) for name, part in listed if name.strip() in wanted]
    if not chosen:
        return {}
    shared_part = next((target for kind, target in rels.values() if kind.endswith("/sharedStrings")), None)
    styles_part = next((target for kind, target in rels.values() if kind.endswith("/styles")), None)
    shared = reader.shared_strings(shared_part)
    dates, durations = reader.date_styles(styles_part)
    tables: dict[str, RawTable] = {}
    for sheet_name, part in chosen:
        name = sheet_name.strip()
        if name in tables:
            continue
        sheet_file = f"{file}#{sheet_name}"
        if part not in reader.names:
            issues.append(InputIssue(file=sheet_file, table=name, reason=f"{code(sheet_name)} 시트의 내용({part})이 통합 문서 안에 없어 이 표는 읽지 않았습니다."))
            continue
        stored, uncached, problems, far = reader.rows(part, sheet_file, shared, dates, durations, date1904)
        for number in far[:MAX_REPEATED_ISSUES]:
            issues.append(InputIssue(file=sheet_file, table=name, reason=f"행 번호 {josa(number, '이/가')} 시트의 한도 "
                                                                         f"{MAX_XLSX_ROW:,}행을 넘어 이 행은 읽지 않았습니다."))
        if len(far) > MAX_REPEATED_ISSUES:
            issues.append(InputIssue(file=sheet_file, table=name, reason=f"그 밖에도 행 번호가 시트의 한도 {MAX_XLSX_ROW:,}행을 넘는 "
                                                                         f"행 {len(far) - MAX_REPEATED_ISSUES:,}개를 읽지 않았습니다."))
        rows = _numbered_rows(stored, sheet_file, name, issues)
        by_row = dict(rows)
        header = by_row.get(1, [])
        columns = [_clean_header(_cell_text(h) or "") for h in header]
        index_of: dict[str, int] = {}
        for i, c in enumerate(columns):
            if c and c not in index_of:
                index_of[c] = i

        def column_name(col: int) -> str | None:
            return columns[col] or None if 0 <= col < len(columns) else None  # noqa: B023 - used for this sheet only, within its iteration

        for row, col, ref, reason in problems:
            issues.append(InputIssue(file=sheet_file, table=name, line=row, column=column_name(col), reason=f"{code(ref)} 칸은 {reason}."))
        for row, col, ref, formula in uncached:
            shown = f"수식 {code('=' + formula)}" if formula else "수식"
            issues.append(InputIssue(file=sheet_file, table=name, line=row, column=column_name(col),
                                     reason=f"{code(ref)} 칸에는 {shown}만 있고 계산된 값이 저장되어 있지 않아 빈 칸으로 읽었으니 "
                                            "스프레드시트 프로그램에서 다시 계산해 저장하면 됩니다."))
        raw_rows = []
        for line, cells in rows:
            if line <= 1:
                continue
            texts = [_cell_text(c) for c in cells]
            if not any(texts):
                continue
            raw_rows.append(RawRow(line, {c: (texts[i] if i < len(texts) else None) for c, i in index_of.items()}))
        tables[name] = RawTable(name, sheet_file, "xlsx", None, [c for c in columns if c], raw_rows)
    return tables


def read_tables(path: Path, names: list[str], issues: list[InputIssue], *, single_csv_table: str | None = None,
                free_text: Mapping[str, Collection[str]] | None = None) -> dict[str, RawTable]:
    """Read the named tables from ``path`` in whichever form it has.  ``free_text``:
    table → its columns of free text, whose CSV cells may span lines holding separators
    (see :func:`read_csv`).

    A single CSV file becomes one table named ``single_csv_table`` (a domain that accepts
    a union CSV splits it itself).  Tables absent from a folder, workbook or document are
    simply absent from the result; the domain decides whether that is an issue.
    """
    path = Path(path)
    kind = path_kind(path)
    if kind == "missing":
        raise InputError(f"{path}: 그런 파일이나 폴더가 없습니다.")
    if kind == "dir":
        tables = {}
        for name in names:
            for candidate in (path / f"{name}.csv", path / f"{name}.CSV"):
                # anything there that is not a regular file (a folder, a FIFO) is refused by read_csv with its reason
                if path_kind(candidate) != "missing":
                    tables[name] = read_csv(candidate, name, issues, free_text=(free_text or {}).get(name, ()))
                    break
        if not tables:
            raise InputError(f"{path}: 폴더에 {', '.join(n + '.csv' for n in names)} 가운데 어느 것도 없습니다.")
        return tables
    suffix = path.suffix.lower()
    if suffix in (".csv", ".tsv", ".txt"):
        if single_csv_table is None:
            raise InputError(f"{path}: 이 도메인의 표는 CSV 파일 하나로는 읽을 수 없어 표마다 CSV가 든 폴더가 필요합니다.")
        return {single_csv_table: read_csv(path, single_csv_table, issues,
                                           free_text=(free_text or {}).get(single_csv_table, ()))}
    if suffix in (".xlsx", ".xlsm"):
        return _read_xlsx(path, names, issues)
    if suffix in (".json", ".yaml", ".yml"):
        return _document_records(path, names, issues)
    raise InputError(f"{path}: 알 수 없는 형식이라 읽지 않았습니다 (.csv, .xlsx, .json, .yaml 파일이나 폴더를 읽습니다).")


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
        number = _parse_int(text)
        return number, number is not None
    if col.type == "float":
        real = _parse_float(text)
        return real, real is not None
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
    spec_names = set(spec.column_names)
    misspelt: dict[str, str] = {}  # JSON and YAML: a record's unknown key -> the column it most likely misspells
    if raw.form in ("json", "yaml"):
        # records carry no header: an omitted key is an empty cell, not a missing column;
        # a column no record holds while an unknown key misspells it is missing, as in CSV
        misspelt = _record_misspellings(raw, spec, issues)
        present = spec_names - {col for col in misspelt.values() if col not in raw.first_lines}
    else:
        present = {c for c in raw.columns if c in spec_names}
    # a "did you mean" hint looks at the first unknown columns only (a header may hold thousands)
    unknown = [c for c in raw.columns[:MAX_SUGGESTION_COLUMNS + len(spec_names)] if c not in spec_names][:MAX_SUGGESTION_COLUMNS]
    for name in spec.column_names:
        if name not in present and (not spec.column(name).optional or name in misspelt.values()):
            hint = [k for k, v in misspelt.items() if v == name][:1] or _close_columns(name, unknown)
            tail = f"는데, 비슷한 이름의 {code(hint[0])} 열이 오타라면 {josa(code(name), '으로/로')} 고치면 됩니다" if hint else "습니다"
            line = raw.first_lines.get(hint[0], raw.header_line) if hint and raw.form in ("json", "yaml") else raw.header_line
            issues.append(
                InputIssue(file=raw.file, table=spec.name, line=line, column=name,
                           reason=f"{code(name)} 열이 없어 이 열에 기대는 판정은 내리지 않았{tail}.")
            )
    rows: list[Row] = []
    rejected: list[RawRow] = []
    first_line_of: dict[Any, int] = {}
    names = [col.name for col in spec.columns if col.name in present]
    # typed columns with a table of conversions per text: most cells repeat (Y/N, numbers)
    converted: list[tuple[str, Column, dict[str, Any]]] = [(col.name, col, {}) for col in spec.columns if col.name in present and col.type != "str"]
    required = [col.name for col in spec.columns if col.name in present and col.required]
    key_name = spec.key if spec.key and spec.key in present else None
    # rows read from CSV whose columns are exactly the contract's, in its order: copy the texts
    index = shared_index(raw.rows)
    same_columns = index is not None and list(index) == names
    cell_items = list(index.items()) if index is not None and same_columns else None
    for raw_row in raw.rows:
        if cell_items is not None:  # build the texts from the cells here (as RawRow.values would)
            cells = raw_row.cells
            assert cells is not None  # read from CSV with the shared index
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
                if misspelt:
                    _unknown_in_row(raw, spec, misspelt, present, raw_row, values, set(), issues)
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
                               reason=f"{code(key_name)} 값 {code(key)}의 줄이 {first_line_of[key]}번째 줄에 이미 있어 앞의 줄만 판정합니다.")
                )
                rejected.append(raw_row)
                continue
            first_line_of[key] = raw_row.line
        if misspelt:
            _unknown_in_row(raw, spec, misspelt, present, raw_row, values, invalid, issues)
        # the raw cells are only read from here on: share them rather than copy them
        rows.append(Row(raw_row.line, values, texts, invalid))
    return TypedTable(spec, raw.file, raw.form, raw.encoding, present, rows, rejected)


_UNPARSED = object()


def _close_columns(name: str, candidates: list[str]) -> list[str]:
    """The candidate most likely a misspelling of the column ``name`` (as a list of at
    most one), compared as the CSV header's "did you mean" always has."""
    return close_names(name, candidates, 1, cutoff=0.75)


def _record_misspellings(raw: RawTable, spec: TableSpec, issues: list[InputIssue]) -> dict[str, str]:
    """The keys of JSON or YAML records that are not columns of ``spec``: each is an
    issue on the first record holding it.  Returns key -> the column it most likely
    misspells (those are reported with the rows or the missing column instead)."""
    known = spec.column_names
    misspelt: dict[str, str] = {}
    others = [key for key in raw.columns if key not in known and not key.startswith(OWN_KEY_PREFIX)]
    for key in others[:MAX_SUGGESTION_COLUMNS]:
        close = _close_columns(key, known)
        if close:
            misspelt[key] = close[0]
    others = [key for key in others if key not in misspelt]
    for key in others[:MAX_REPEATED_ISSUES]:
        count = sum(1 for row in raw.rows if row.values.get(key) is not None)
        more = f" 이 키가 있는 행은 {count:,}개입니다." if count > 1 else ""
        issues.append(InputIssue(file=raw.file, table=spec.name, line=raw.first_lines.get(key), column=None,
                                 reason=f"{code(_cut(key))} 키는 {code(spec.name)} 표의 열이 아니라 읽지 않았습니다.{more}"))
    if len(others) > MAX_REPEATED_ISSUES:
        rest = others[MAX_REPEATED_ISSUES:]
        issues.append(InputIssue(file=raw.file, table=spec.name, line=raw.first_lines.get(rest[0]), column=None,
                                 reason=f"그 밖에도 {code(spec.name)} 표의 열이 아닌 키가 {len(rest):,}개 더 있어 읽지 않았습니다."))
    return misspelt


def _unknown_in_row(raw: RawTable, spec: TableSpec, misspelt: dict[str, str], present: set[str], raw_row: RawRow,
                    values: dict[str, Any], invalid: set[str], issues: list[InputIssue]) -> None:
    """A record holding a key that misspells a column the table has: an issue on its
    line, and when the record leaves that column empty its value is unknown (listed in
    ``invalid``, so that what depends on it is not judged on an empty cell)."""
    texts = raw_row.values
    for key, column in misspelt.items():
        if texts.get(key) is None or column not in present:
            continue  # not in this record, or the column is missing (one issue for the table)
        unknown = texts.get(column) is None
        line = raw.key_line(raw_row.line, key) if raw.key_line is not None else raw_row.line
        if unknown:
            invalid.add(column)
            values[column] = None
        then = f"이 줄의 {code(column)} 값은 알 수 없는 값으로 두었습니다" if unknown else f"이 줄은 {code(column)} 열의 값만 읽었습니다"
        issues.append(InputIssue(file=raw.file, table=spec.name, line=line, column=column,
                                 reason=f"{code(_cut(key))} 키는 {code(spec.name)} 표의 열이 아니라 읽지 않았고, {then}."
                                        + misspelling(key, [column], what="열", cutoff=0)))


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
            if col.required and reject_reason is None and not _excused(col, raw_row):
                reject_reason = (col.name, f"필수 열 {code(col.name)}의 값이 비어 있어 이 줄은 판정하지 않았습니다.")
            values[col.name] = None
            continue
        value, ok = _convert(col, text)
        if not ok:
            invalid.add(col.name)
            values[col.name] = None
            issues.append(
                InputIssue(file=raw.file, table=spec.name, line=raw_row.line, column=col.name,
                           reason=f"{code(_cut(text))} 값은 {josa(_TYPE_WORDS[col.type], '이/가')} 아닙니다.")
            )
            if col.required and reject_reason is None:
                reject_reason = (col.name, f"필수 열 {code(col.name)}의 값을 읽을 수 없어 이 줄은 판정하지 않았습니다.")
        else:
            values[col.name] = value
    return values, invalid, reject_reason


_YES = frozenset({"1", "true", "yes", "y", "t", "참"})


def _excused(col: Column, raw_row: RawRow) -> bool:
    """Whether the empty required cell of ``col`` is allowed in this row (its ``unless``
    cell says yes)."""
    if col.unless is None:
        return False
    flag = raw_row.values.get(col.unless)
    return isinstance(flag, str) and flag.strip().lower() in _YES


def json_dumps(data: Any) -> str:
    """JSON text as every reporter writes it: UTF-8, Korean kept readable."""
    return json.dumps(data, ensure_ascii=False, indent=2)


def _table_names(path: Path, known: set[str]) -> list[str]:
    """The names of the other tables ``path`` holds (a folder's ``*.csv`` files, a
    workbook's sheets), for a "did you mean" hint on a missing table; the first
    :data:`MAX_SUGGESTION_COLUMNS` only."""
    names: list[str] = []
    try:
        if path.is_dir():
            for entry in sorted(os.listdir(path))[:MAX_SUGGESTION_COLUMNS * 10]:
                stem, dot, suffix = entry.rpartition(".")
                if dot and suffix.lower() == "csv" and stem not in known:
                    names.append(stem)
        elif path.suffix.lower() in (".xlsx", ".xlsm"):
            listed = _XlsxReader(path, []).sheets()[0]
            names = [n.strip() for n, _ in listed if n.strip() not in known]
    except (OSError, InputError):
        return []
    return names[:MAX_SUGGESTION_COLUMNS]


def load_typed_tables(path: Path, specs: Iterable[TableSpec], issues: list[InputIssue], *, required: Iterable[str],
                      single_csv_table: str | None = None, split=None) -> tuple[dict[str, RawTable], dict[str, TypedTable]]:
    """Read the tables of ``specs`` from ``path`` in any form and type them.

    A table of ``required`` that is absent becomes one issue; ``split`` turns a single
    CSV (read as ``single_csv_table``) into the domain's tables.  Raises
    :class:`~verdicts.errors.InputError` when no table at all could be read.
    """
    path = Path(path)
    specs = list(specs)
    raw = read_tables(path, [s.name for s in specs], issues, single_csv_table=single_csv_table, free_text=free_text_of(specs))
    if single_csv_table is not None and single_csv_table in raw and split is not None:
        raw = split(raw[single_csv_table])
    others: list[str] | None = None
    required = set(required)
    for name in [s.name for s in specs]:
        if name not in raw:
            where = str(path / f"{name}.csv") if path.is_dir() else str(path)
            if others is None:
                others = _table_names(path, set(raw) | {s.name for s in specs})
            import difflib

            hint = difflib.get_close_matches(name, others, n=1, cutoff=0.75)
            if name not in required:
                if hint:  # an optional table under a misspelt name is not read: never silently
                    shown = code(hint[0] + ".csv") + " 파일" if path.is_dir() else code(hint[0]) + " 시트"
                    fixed = code(name + ".csv") if path.is_dir() else code(name)
                    seen = str(path / f"{hint[0]}.csv") if path.is_dir() else where
                    issues.append(InputIssue(file=seen, table=name, reason=f"{josa(shown, '은/는')} 읽지 않았는데, {code(name)} 표라면 이름을 "
                                                                            f"{josa(fixed, '으로/로')} 고치면 됩니다."))
                continue
            if hint and path.is_dir():
                tail = (f"는데, 폴더에 있는 {code(hint[0] + '.csv')} 파일이 이 표라면 이름을 "
                        f"{josa(code(name + '.csv'), '으로/로')} 고치면 됩니다")
            elif hint:
                tail = f"는데, {code(hint[0])} 시트가 이 표라면 이름을 {josa(code(name), '으로/로')} 고치면 됩니다"
            else:
                tail = "습니다"
            issues.append(InputIssue(file=where, table=name, reason=f"{code(name)} 표가 없어 이 표에 기대는 판정은 내리지 않았{tail}."))
    typed = {spec.name: type_table(raw[spec.name], spec, issues) for spec in specs if spec.name in raw}
    if not typed:
        raise InputError(f"{path}: 읽을 수 있는 표가 하나도 없습니다.")
    return raw, typed
