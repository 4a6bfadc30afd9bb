"""Where the rows and cells of a scenario file are, as the readers found them: for
``storygraph fix`` (:mod:`storygraph.applying`) and for the SARIF ``fixes`` of a lint."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from verdicts.model import InputIssue
from verdicts.tables import RawTable, free_text_of, read_tables

from .loading import UNION, split_union
from .model import TABLE_SPECS

__all__ = ["raw_tables", "read_file", "cell_locator"]


def raw_tables(path: Path) -> dict[str, RawTable]:
    """The scenario's tables as the readers give them (a union CSV split as lint splits it)."""
    issues: list[InputIssue] = []
    raw = read_tables(path, [s.name for s in TABLE_SPECS], issues, single_csv_table=UNION, free_text=free_text_of(TABLE_SPECS))
    if UNION in raw:
        raw = split_union(raw[UNION])
    return raw


def read_file(file: Path) -> bytes:
    """The file's bytes, read as the readers read an input (the same size limit)."""
    from verdicts.tables import MAX_INPUT_BYTES, read_regular_file

    return read_regular_file(file, MAX_INPUT_BYTES, "시나리오")


def cell_locator(path: Path) -> Callable[[Mapping[str, Any]], tuple[int, int, int, int, str] | None] | None:
    """For SARIF fixes: a function giving, for an edit, the region of the CSV at ``path``
    it replaces and the new text, ``(start line, start column, end line, end column,
    text)`` — a ``set``: its cell and the new cell; a ``remove``: the row's line with its
    break and nothing; an ``add``: an empty region at the end of the table's last row and
    a line break with the new row, where ``storygraph fix`` puts it — or ``None`` when the
    edit cannot be placed; ``None`` instead of a function when ``path`` is not a CSV of
    the scenario."""
    from verdicts.fixing import CsvCells

    from .fixes import KEYS

    raw = raw_tables(path)
    if any(t.form != "csv" for t in raw.values()):
        return None
    lines: dict[tuple[str, str], int] = {}
    last: dict[str, int] = {}
    for name, table in raw.items():
        key = KEYS.get(name)
        for row in table.rows:
            value = (row.values.get(key) or "") if key else ""
            lines.setdefault((name, value), row.line)  # the first row with the key, as apply_edits takes it
            last[name] = max(last.get(name, 0), row.line)
    cells = CsvCells(read_file(path), str(path))

    def locate(edit: Mapping[str, Any]) -> tuple[int, int, int, int, str] | None:
        action, table = edit.get("action"), str(edit.get("table"))
        if action == "add":
            spot = cells.after_record(last[table], edit.get("row") or {}) if table in last else None
            return None if spot is None else (spot[0], spot[1], spot[0], spot[1], spot[2])
        line = lines.get((table, str(edit.get("row"))))
        if line is None:
            return None
        if action == "remove":
            region = cells.record_region(line)
            return None if region is None else (*region, "")
        if action != "set":
            return None
        place = cells.position(line, str(edit.get("column")))
        if place is None:
            return None
        at, start, end, old = place
        value = "" if edit.get("value") is None else str(edit["value"])
        return at, start, at, end, cells.quoted(value, old.startswith('"'))

    return locate
