"""Applying the fixes of one run to the user's own file (``storygraph fix``).

A fix is ``{"text": …, "edits": […]}`` (docs/conditions.md).  This module picks the
fixes of a run (:func:`choose_fixes`: one per problem, the first of two that edit the
same cell), and writes the difference between the tables as read and the tables with the
edits applied back into the file in its own form (:func:`rewrite`): a CSV is edited as
text — only the cells named, the rows added at the end of their table's section, the
rows removed — in its own encoding and line endings; an ``.xlsx`` workbook through
openpyxl (the other sheets and the formatting kept); JSON and YAML as text too — a value
replaced where it stands, a record removed or added (laid out like its neighbour), the
result read back before it is written (comments and layout kept).  Where each row is comes from
the readers of :mod:`verdicts.tables`; nothing here parses a table another way.

The domain applies its edits to rows (``apply_edits``); rows keep a mark (:data:`MARK`)
naming the row read, so that a changed, added or removed row is known even when two rows
share a key.
"""

from __future__ import annotations

import bisect
import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Iterable, Mapping

from .errors import InputError
from .korean import code, josa
from .model import Report
from .tables import FALSE_WORDS as _FALSE, TRUE_WORDS as _TRUE, RawTable, clean_header as _clean_header, decode_bytes, sniff_delimiter as _sniff_delimiter

__all__ = ["MARK", "FIXABLE_CARDS", "card_fixable", "fixable_count", "problem_fixes", "choose_fixes", "rows_of", "Change", "changes", "rewrite", "CsvCells", "digest",
           "unified_diff", "FileChangedError"]

#: the key a row read from the file carries through ``apply_edits``: ``(table, index)``
MARK = "\x00row"


class FileChangedError(InputError):
    """The file changed between reading it and writing the fixes."""


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _has_edits(fix: Any) -> bool:
    return isinstance(fix, Mapping) and bool(fix.get("edits"))


def problem_fixes(report: Report, passing: Iterable[str] = ()) -> list[tuple[Any, dict[str, Any]]]:
    """Each problem of ``report`` that carries a fix with edits, with its fix: the cards
    whose verdict is not in ``passing``, the lint findings (not accepted, not withheld)
    and the input issues, in that order."""
    passing = set(passing)
    out: list[tuple[Any, dict[str, Any]]] = []
    for card in report.cards:
        if not getattr(card, "accepted", None) and card_fixable(card.data, passing):
            out.append((card, dict(card.data["fix"])))
    for finding in report.findings:
        if not finding.accepted and not finding.withheld and _has_edits(finding.fix):
            out.append((finding, finding.fix))  # type: ignore[arg-type]
    for issue in report.issues:
        if _has_edits(issue.fix):
            out.append((issue, issue.fix))  # type: ignore[arg-type]
    return out


#: ``Report.extra`` key: the number of fixable problem cards of a run whose cards were
#: written as they were made (not held in the report)
FIXABLE_CARDS = "fixable_cards"


def card_fixable(card: Mapping[str, Any], passing: Collection[str]) -> bool:
    """Whether a card (its dict) is a problem that carries a fix with edits."""
    return (card.get("verdict") not in passing and card.get("withheld") is None and not card.get("accepted")
            and _has_edits(card.get("fix")))


def fixable_count(report: Report, passing: Iterable[str] = ()) -> int:
    """How many problems of ``report`` carry a fix that ``storygraph fix`` can apply (the
    cards counted as they were made when the report does not hold them)."""
    passing = frozenset(passing)
    found = len(problem_fixes(report, passing))
    if not report.cards:
        found += int(report.extra.get(FIXABLE_CARDS, 0))
    return found


def _cells(edit: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """The cells an edit touches: ``(table, row, column)``; a whole row is column ``*``."""
    table = str(edit.get("table"))
    if edit.get("action") == "add":
        row = edit.get("row") or {}
        return {(table, "+" + json.dumps(row, sort_keys=True, ensure_ascii=False, default=str), "*")}
    return {(table, str(edit.get("row")), str(edit.get("column") or "*"))}


def _clash(cells: set[tuple[str, str, str]], taken: set[tuple[str, str, str]]) -> bool:
    for table, row, column in cells:
        if (table, row, column) in taken or (table, row, "*") in taken:
            return True
        if column == "*" and any(t == table and r == row for t, r, _ in taken):
            return True
    return False


def choose_fixes(fixes: Iterable[Mapping[str, Any]], claims: Callable[[Mapping[str, Any]], set[tuple[str, str, str]]] | None = None,
                 ) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The fixes to apply in one pass, in order, and those held back: a fix given twice
    (several problems with one cause) is applied once; a fix that edits a cell an earlier
    chosen fix edits is held back for the next pass (the re-lint offers it again if it is
    still needed).  ``claims`` (the domain's): what an edit takes besides its cells, as
    ``(table, row, "*")`` — a row's new key, a place two added rows would share."""
    chosen: list[Mapping[str, Any]] = []
    held: list[Mapping[str, Any]] = []
    seen: set[str] = set()
    taken: set[tuple[str, str, str]] = set()
    for fix in fixes:
        key = json.dumps(fix.get("edits"), sort_keys=True, ensure_ascii=False, default=str)
        if key in seen:
            continue
        seen.add(key)
        cells: set[tuple[str, str, str]] = set()
        for edit in fix.get("edits") or ():
            cells |= _cells(edit)
            if claims is not None:
                cells |= claims(edit)
        if _clash(cells, taken):
            held.append(fix)
            continue
        taken |= cells
        chosen.append(fix)
    return chosen, held


def rows_of(raw: Mapping[str, RawTable]) -> dict[str, list[dict[str, Any]]]:
    """The tables as rows of text (empty cells ``""``), each row marked with :data:`MARK`."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, table in raw.items():
        out[name] = [{**{k: (v or "") for k, v in row.values.items()}, MARK: (name, i)} for i, row in enumerate(table.rows)]
    return out


@dataclass
class Change:
    """What the edits do to one table: cells set (row index → column → text), rows added
    (their cells), rows removed (row indexes)."""

    table: str
    sets: dict[int, dict[str, str]] = field(default_factory=dict)
    added: list[dict[str, str]] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.sets or self.added or self.removed)


def changes(before: Mapping[str, list[dict[str, Any]]], after: Mapping[str, list[dict[str, Any]]]) -> dict[str, Change]:
    """The difference between the rows read (:func:`rows_of`) and the rows edited."""
    out: dict[str, Change] = {}
    for name in set(before) | set(after):
        change = Change(name)
        old = {r[MARK]: r for r in before.get(name, [])}
        kept = set()
        for row in after.get(name, []):
            mark = row.get(MARK)
            if mark is None:
                change.added.append({k: "" if v is None else str(v) for k, v in row.items() if k != MARK})
                continue
            kept.add(mark)
            was = old[mark]
            cells = {k: "" if v is None else str(v) for k, v in row.items() if k != MARK and str(v or "") != str(was.get(k) or "")}
            if cells:
                change.sets[mark[1]] = cells
        change.removed = sorted(mark[1] for mark in old if mark not in kept)
        if change:
            out[name] = change
    return out


# ----------------------------------------------------------------------------- CSV


def _lines(text: str) -> list[str]:
    """The physical lines as the CSV reader counts them (``\\n``, ``\\r\\n`` or ``\\r``)."""
    return io.StringIO(text, newline="").readlines()


def _record(text: str, start: int, delimiter: str) -> tuple[list[tuple[int, int]], int, int]:
    """The cells of the record starting at ``start``: their spans, the end of the record
    (before its line break) and the end after it."""
    spans: list[tuple[int, int]] = []
    pos, n = start, len(text)
    while True:
        cell = pos
        if pos < n and text[pos] == '"':
            pos += 1
            while pos < n:
                if text[pos] == '"':
                    if pos + 1 < n and text[pos + 1] == '"':
                        pos += 2
                        continue
                    pos += 1
                    break
                pos += 1
        while pos < n and text[pos] not in (delimiter, "\n", "\r"):
            pos += 1
        spans.append((cell, pos))
        if pos < n and text[pos] == delimiter:
            pos += 1
            continue
        end = pos
        if text.startswith("\r\n", pos):
            pos += 2
        elif pos < n:
            pos += 1
        return spans, end, pos


def _quote(value: str, delimiter: str, quoted: bool = False) -> str:
    if quoted or any(ch in value for ch in (delimiter, '"', "\n", "\r")) or value != value.strip():
        return '"' + value.replace('"', '""') + '"'
    return value


def _python_encoding(encoding: str) -> str:
    return {"utf-8-sig": "utf-8-sig", "utf-16": "utf-16", "cp949": "cp949"}.get(encoding, "utf-8")


class CsvCells:
    """Where each cell of a CSV file is (for SARIF replacements): the file decoded once,
    its records found with the reader's delimiter and header names."""

    def __init__(self, data: bytes, file: str):
        self.text, _ = decode_bytes(data, file)
        self.lines = _lines(self.text)
        self.offsets = [0]
        for physical in self.lines:
            self.offsets.append(self.offsets[-1] + len(physical))
        self.delimiter = _sniff_delimiter(self.lines[0].rstrip("\r\n")) if self.lines else ","
        self.header: dict[str, int] = {}
        self.names: list[str] = []
        if self.lines:
            spans, _, _ = _record(self.text, 0, self.delimiter)
            self.names = [_clean_header(self.text[s:e].strip('"')) for s, e in spans]
            for i, name in enumerate(self.names):
                self.header.setdefault(name, i)
        self.newline = next((x[len(x.rstrip("\r\n")):] for x in self.lines if x.endswith(("\n", "\r"))), "\n")

    def record_region(self, line: int) -> tuple[int, int, int, int] | None:
        """The region of the one-line record on ``line`` with its line break, as
        ``(start line, start column, end line, end column)`` (to delete it), or ``None``."""
        if not 2 <= line <= len(self.lines):
            return None
        base = self.offsets[line - 1]
        _, end, after = _record(self.text, base, self.delimiter)
        if after != self.offsets[line]:
            return None
        if line < len(self.lines) and end < after:
            return line, 1, line + 1, 1
        # the last line: the break before it goes, with the record (the file's last break stays)
        previous = self.lines[line - 2]
        return line - 1, len(previous.rstrip("\r\n")) + 1, line, end - base + 1

    def after_record(self, line: int, cells: Mapping[str, Any]) -> tuple[int, int, str] | None:
        """Where a record with ``cells`` goes after the one-line record on ``line`` (the end
        of that line, before its break) and the text to insert there, as the file writes
        it: ``(line, column, text)``."""
        if not 1 <= line <= len(self.lines):
            return None
        _, end, after = _record(self.text, self.offsets[line - 1], self.delimiter)
        if after > self.offsets[line]:
            return None
        made = self.delimiter.join(_quote("" if cells.get(c) is None else str(cells.get(c)), self.delimiter) for c in self.names)
        return line, end - self.offsets[line - 1] + 1, self.newline + made

    def position(self, line: int, column: str) -> tuple[int, int, int, str] | None:
        """``(line, start column, end column, cell text)`` of the cell (1-based characters
        within the line, end exclusive), for a record on one line only."""
        if not 1 <= line <= len(self.lines) or column not in self.header:
            return None
        base = self.offsets[line - 1]
        spans, end, _ = _record(self.text, base, self.delimiter)
        if end > base + len(self.lines[line - 1]) or self.header[column] >= len(spans):
            return None
        s, e = spans[self.header[column]]
        return line, s - base + 1, e - base + 1, self.text[s:e]

    def quoted(self, value: str, was_quoted: bool) -> str:
        """``value`` as a cell of this file (quoted when it must be, or when it was)."""
        return _quote(value, self.delimiter, was_quoted)


def _text_of(data: bytes, file: str) -> tuple[str, str, list[str], list[int], str]:
    """The file's text, the encoding to write it back in, its physical lines, where each
    starts, and its line ending; refused when the text would not encode back to the
    same bytes (nothing can then be written without changing them)."""
    text, encoding = decode_bytes(data, file)
    python_encoding = _python_encoding(encoding)
    if text.encode(python_encoding) != data:
        raise InputError(f"{file}: 읽은 글자를 같은 인코딩({encoding})으로 다시 쓰면 바이트가 달라져 고치지 않았습니다.")
    lines = _lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    newline = next((line[len(line.rstrip("\r\n")):] for line in lines if line.endswith(("\n", "\r"))), "\n")
    return text, python_encoding, lines, offsets, newline


def _rewrite_csv(data: bytes, file: str, raw: Mapping[str, RawTable], todo: Mapping[str, Change]) -> tuple[bytes, list[str]]:
    text, python_encoding, lines, offsets, newline = _text_of(data, file)
    delimiter = _sniff_delimiter(lines[0].rstrip("\r\n")) if lines else ","
    header_spans, _, _ = _record(text, 0, delimiter)
    header_names = [_clean_header(text[s:e].strip('"')) for s, e in header_spans]
    header: dict[str, int] = {}
    for i, name in enumerate(header_names):
        header.setdefault(name, i)
    notes: list[str] = []
    replacements: list[tuple[int, int, str]] = []
    for name, change in todo.items():
        table = raw[name]
        for index, cells in change.sets.items():
            row = table.rows[index]
            spans, _, _ = _record(text, offsets[row.line - 1], delimiter)
            for column, value in cells.items():
                if column not in header or header[column] >= len(spans):
                    notes.append(f"{row.line}번째 줄에 {josa(code(column), '이/가')} 없어 그 값은 고치지 않았습니다.")
                    continue
                s, e = spans[header[column]]
                value = _truth_as(text[s:e].strip('"'), value)
                replacements.append((s, e, _quote(value, delimiter, text[s:s + 1] == '"')))
        for index in change.removed:
            row = table.rows[index]
            start = offsets[row.line - 1]
            _, _, after = _record(text, start, delimiter)
            replacements.append((start, after, ""))
        if change.added:
            if table.rows:
                last = max(table.rows, key=lambda r: r.line)
                _, end, after = _record(text, offsets[last.line - 1], delimiter)
            else:
                end = after = len(text)
            made = [delimiter.join(_quote(str(cells.get(c, "")), delimiter) for c in header_names) for cells in change.added]
            if after == end:  # the section ends the file without a line break: keep it so
                replacements.append((after, after, "".join(newline + m for m in made)))
            else:
                replacements.append((after, after, "".join(m + newline for m in made)))
    for s, e, new in sorted(replacements, key=lambda r: (r[0], r[1]), reverse=True):
        text = text[:s] + new + text[e:]
    return text.encode(python_encoding), notes


# ----------------------------------------------------------------------------- xlsx


#: the words of a yes/no cell, each with its opposite (``Y`` set true stays ``Y``)
_OPPOSITE = {"y": "n", "yes": "no", "1": "0", "true": "false", "t": "f", "참": "거짓"}
_OPPOSITE.update({v: k for k, v in list(_OPPOSITE.items())})


def _truth_as(old: str, value: str) -> str:
    """``value``, when it is a truth value and ``old`` one too, in ``old``'s words (the
    cell was ``N``: true is ``Y``, not ``True``); else ``value`` as it is."""
    was, new = old.strip().lower(), value.strip().lower()
    if was not in _OPPOSITE or new not in _TRUE | _FALSE:
        return value
    word = was if (was in _TRUE) == (new in _TRUE) else _OPPOSITE[was]
    return word.upper() if old.strip().isupper() else word.capitalize() if old.strip()[:1].isupper() else word


def _typed(old: Any, value: str) -> Any:
    """The new value in the type of the old one: a number stays a number, a truth value a
    truth value (in the old cell's words)."""
    if isinstance(old, bool):
        low = value.strip().lower()
        return True if low in _TRUE else False if low in _FALSE else value
    if isinstance(old, str):
        return _truth_as(old, value) if value != "" else None
    if isinstance(old, int) and re.fullmatch(r"[+-]?\d+", value.strip()):
        return int(value)
    if isinstance(old, float) and re.fullmatch(r"[+-]?\d+(\.\d+)?", value.strip()):
        return float(value)
    if old is None and re.fullmatch(r"[+-]?\d+", value.strip()) and len(value.strip()) < 15:
        return int(value)
    return value if value != "" else None


def _rewrite_xlsx(path: Path, raw: Mapping[str, RawTable], todo: Mapping[str, Change]) -> tuple[bytes, list[str]]:
    import openpyxl

    book = openpyxl.load_workbook(path)
    notes: list[str] = []
    for name, change in todo.items():
        table = raw[name]
        sheet = book[name]
        header: dict[str, int] = {}
        for cell in sheet[table.header_line]:
            if cell.value is not None:
                header.setdefault(_clean_header(str(cell.value)), cell.column)
        for index, cells in change.sets.items():
            row = table.rows[index]
            for column, value in cells.items():
                if column not in header:
                    notes.append(f"{name} 시트에 {josa(code(column), '이/가')} 없어 그 값은 고치지 않았습니다.")
                    continue
                target = sheet.cell(row=row.line, column=header[column])
                target.value = _typed(target.value, value)
        at = max((r.line for r in table.rows), default=table.header_line) + 1
        for cells in change.added:
            if any(c.value is not None for c in sheet[at]):
                sheet.insert_rows(at)
            for column, col in header.items():
                if cells.get(column, "") != "":
                    sheet.cell(row=at, column=col).value = _typed(None, str(cells[column]))
            at += 1
        for index in sorted(change.removed, key=lambda i: table.rows[i].line, reverse=True):
            sheet.delete_rows(table.rows[index].line)
    out = io.BytesIO()
    book.save(out)
    return out.getvalue(), notes


# ----------------------------------------------------------------------------- JSON and YAML


def _rewrite_document(data: bytes, file: str, form: str, raw: Mapping[str, RawTable],
                      todo: Mapping[str, Change]) -> tuple[bytes, list[str]]:
    """A JSON or YAML document with ``todo`` written as text edits: a value replaced where
    it stands, a removed record's lines (or its part of a one-line list) taken out with the
    list kept valid, an added record written after the table's last one in the layout, key
    order and quoting of that record.  The result is read back by the same reader and must
    give the rows intended, else the file is left as it is, with a note."""
    text, python_encoding, lines, offsets, newline = _text_of(data, file)
    notes: list[str] = []
    decoder = json.JSONDecoder()
    replacements: list[tuple[int, int, str]] = []
    expected: dict[str, list[dict[str, str]]] = {}
    for name, change in todo.items():
        table = raw[name]
        rows = [{k: (v or "") for k, v in row.values.items()} for row in table.rows]
        for index, cells in change.sets.items():
            row = table.rows[index]
            for column, value in cells.items():
                at = table.key_line(row.line, column) if table.key_line is not None else None
                line = lines[at - 1] if at is not None and 1 <= at <= len(lines) else ""
                place = _document_value(line.rstrip("\r\n"), column, value, form, decoder)
                if place is None:
                    notes.append(f"{name}의 {row.line}번째 줄 레코드의 {josa(code(column), '은/는')} 그 줄에서 값을 "
                                 "찾지 못해 고치지 않았습니다.")
                    continue
                assert at is not None  # a line was found
                s, e, shown = place
                start, end = offsets[at - 1] + s, offsets[at - 1] + e
                if form == "yaml":  # a scalar folded over more lines: they go with it
                    end = _yaml_scalar_end(lines, offsets, at, end)
                replacements.append((start, end, shown))
                rows[index][column] = value
        if change.added or change.removed:
            made = (_json_rows if form == "json" else _yaml_rows)(text, lines, offsets, newline, table, change)
            if isinstance(made, str):
                notes.append(f"{code(name)}의 줄을 더하거나 지우는 고침은 {made} {form.upper()} 파일에 쓰지 않았습니다. "
                             "고치는 법을 보고 손으로 고치세요.")
            else:
                replacements.extend(made)
                rows = [r for i, r in enumerate(rows) if i not in set(change.removed)] + [dict(a) for a in change.added]
        expected[name] = rows
    for s, e, new in sorted(replacements, key=lambda r: (r[0], r[1]), reverse=True):
        text = text[:s] + new + text[e:]
    if not _reads_back(text, file, form, raw, expected):
        return data, [*notes, f"{file}: 고친 문서를 다시 읽으니 표가 고치려던 것과 달라 이 파일에는 고침을 쓰지 않았습니다. "
                              "고치는 법을 보고 손으로 고치세요."]
    return text.encode(python_encoding), notes


def _yaml_scalar_end(lines: list[str], offsets: list[int], at: int, end: int) -> int:
    """The end of the value on line ``at`` (1-based) when it goes on over the lines below
    that are indented deeper than its key (a long scalar folded): the end of the last."""
    key = lines[at - 1]
    column = re.match(r"[ ]*(?:-[ ]+)?", key).end()  # type: ignore[union-attr]  # always matches
    last = at
    for number in range(at, len(lines)):
        body = lines[number].rstrip("\r\n")
        if not body.strip():
            continue
        if len(body) - len(body.lstrip(" ")) <= column or body.lstrip(" ").startswith("#"):
            break
        last = number + 1
    if last == at:
        return end
    return offsets[last - 1] + len(lines[last - 1].rstrip("\r\n"))


def _same(a: str, b: str) -> bool:
    """Whether two cells read the same (a truth value in any of its words)."""
    if a.strip() == b.strip():
        return True
    a, b = a.strip().lower(), b.strip().lower()
    return (a in _TRUE and b in _TRUE) or (a in _FALSE and b in _FALSE)


def _reads_back(text: str, file: str, form: str, raw: Mapping[str, RawTable], expected: Mapping[str, list[dict[str, str]]]) -> bool:
    """Whether ``text`` read by the document reader gives the rows ``expected`` (and the
    other tables of ``raw`` as they were)."""
    from .tables import document_tables

    issues: list[Any] = []
    try:
        back = document_tables(text, file, form, raw.keys(), issues)
    except InputError:
        return False
    for name, table in raw.items():
        want = expected.get(name) or [{k: (v or "") for k, v in row.values.items()} for row in table.rows]
        got = back.get(name)
        if got is None or len(got.rows) != len(want):
            return False
        for have, row in zip(got.rows, want):
            for column in set(have.values) | set(row):
                if not _same(have.values.get(column) or "", row.get(column) or ""):
                    return False
    return True


def _runs(indexes: Iterable[int]) -> list[tuple[int, int]]:
    """Consecutive indexes as ``(first, last)`` runs."""
    out: list[tuple[int, int]] = []
    for i in sorted(set(indexes)):
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


def _json_rows(text: str, lines: list[str], offsets: list[int], newline: str, table: RawTable,
               change: Change) -> list[tuple[int, int, str]] | str:
    """The text edits that remove and add ``change``'s records in a JSON list, or why not."""
    spans, n = table.spans, len(table.rows)
    if table.list_span is None or len(spans) != n:
        return "줄의 자리를 알 수 없어"
    if n == 0:
        return "표가 비어 본뜰 줄이 없어"
    out: list[tuple[int, int, str]] = []
    if len(set(change.removed)) == n:
        if change.added:
            return "표의 줄을 모두 지우고 새로 더하는 일이라"
        out.append((table.list_span[0] + 1, table.list_span[1] - 1, ""))
        return out
    for first, last in _runs(change.removed):
        if last < n - 1:
            out.append((spans[first][0], spans[last + 1][0], ""))
        else:
            out.append((spans[first - 1][1], spans[last][1], ""))
    if change.added:
        if n >= 2:
            between = text[spans[n - 2][1]:spans[n - 1][0]]
        else:
            line = bisect.bisect_right(offsets, spans[0][0]) - 1
            indent = text[offsets[line]:spans[0][0]]
            between = "," + newline + indent if not indent.strip() else ", "
        kept = [i for i in range(n) if i not in set(change.removed)]
        like = text[spans[kept[-1]][0]:spans[kept[-1]][1]]
        ascii_only = not any(ord(ch) > 127 for ch in text) and "\\u" in text
        made = [_json_record(like, cells, ascii_only) for cells in change.added]
        if any(m is None for m in made):
            return "본뜰 줄을 읽지 못해"
        out.append((spans[n - 1][1], spans[n - 1][1], "".join(between + m for m in made if m is not None)))
    return out


def _json_record(like: str, cells: Mapping[str, str], ascii_only: bool) -> str | None:
    """A JSON object of ``cells`` laid out as the record ``like``: its spacing, its key
    order, each value of the type ``like`` gives that key (a number stays a number)."""
    decoder = json.JSONDecoder(object_pairs_hook=list)
    try:
        pairs = decoder.decode(like)
    except ValueError:
        return None
    if not isinstance(pairs, list):
        return None
    opening = re.match(r"\{(\s*)", like)
    closing = re.search(r"(\s*)\}$", like)
    if opening is None or closing is None:
        return None
    w1, w3, colon, comma = opening.group(1), closing.group(1), ": ", ", "
    if pairs:
        pos = opening.end()
        try:
            _, pos = json.decoder.scanstring(like, pos + 1)  # type: ignore[attr-defined]  # public, not in the stubs
            m = re.compile(r"\s*:\s*").match(like, pos)
            if m is None:
                return None
            colon = m.group(0)
            _, pos = decoder.raw_decode(like, m.end())
        except ValueError:
            return None
        m = re.compile(r"\s*,\s*").match(like, pos)
        comma = m.group(0) if m else "," + (w1 or " ")
    old = {_clean_header(str(k)): (k, v) for k, v in pairs}
    items: list[str] = []
    for column in [*old, *(c for c in cells if c not in old)]:
        value = cells.get(column, "")
        key, was = old.get(column, (column, ""))
        if value == "":
            if column not in old:
                continue
            new: Any = None if was is None else ""
        else:
            new = _json_typed(was, value)
        items.append(json.dumps(key, ensure_ascii=ascii_only) + colon + json.dumps(new, ensure_ascii=ascii_only))
    return "{" + w1 + comma.join(items) + w3 + "}"


def _json_typed(old: Any, value: str) -> Any:
    """``value`` in the JSON type of ``old``: a boolean, a whole number or a number stays so."""
    low = value.strip().lower()
    if isinstance(old, bool):
        return True if low in _TRUE else False if low in _FALSE else value
    if isinstance(old, (int, float)) and not isinstance(old, bool):
        return _typed(old, value)
    return value


def _yaml_item(text: str, lines: list[str], offsets: list[int], span: tuple[int, int]) -> tuple[int, int, str] | None:
    """The lines of a block-style list item (first, last, 0-based) and what stands before
    its first key (``"  - "``), or ``None`` when it is not laid out so."""
    s, e = span
    first = bisect.bisect_right(offsets, s) - 1
    head = text[offsets[first]:s]
    if not re.fullmatch(r" *- +", head):
        return None
    last = bisect.bisect_right(offsets, max(s, e - 1)) - 1
    rest = text[e:offsets[last + 1]] if text[e - 1:e] not in ("\n", "\r") else ""
    if not re.fullmatch(r"[ \t]*(#[^\r\n]*)?(\r\n|\n|\r)?", rest):
        return None
    return first, last, head


_YAML_KEY = re.compile(r"""([^\s#'"{\[][^:#]*?|"[^"]*"|'[^']*')[ \t]*:(?:[ \t]+(.*?))?[ \t]*(?:#.*)?$""")


def _yaml_rows(text: str, lines: list[str], offsets: list[int], newline: str, table: RawTable,
               change: Change) -> list[tuple[int, int, str]] | str:
    """The text edits that remove and add ``change``'s records in a YAML block list, or why not."""
    spans, n = table.spans, len(table.rows)
    if table.list_span is None or len(spans) != n:
        return "줄의 자리를 알 수 없어"
    if table.flow:
        return "한 줄로 쓴 목록([…])이라"
    if n == 0:
        return "표가 비어 본뜰 줄이 없어"
    items = [_yaml_item(text, lines, offsets, span) for span in spans]
    if any(item is None for item in items) or _yaml_references(text, table.list_span):
        return "목록이 블록 꼴(- 키: 값)이 아니거나 앵커, 별칭, 태그가 있어"
    out: list[tuple[int, int, str]] = []
    for index in set(change.removed):
        first, last, _ = items[index]  # type: ignore[misc]
        out.append((offsets[first], offsets[last + 1], ""))
    if change.added:
        kept = [i for i in range(n) if i not in set(change.removed)]
        if not kept:
            return "표의 줄을 모두 지우고 새로 더하는 일이라"
        first, last, head = items[kept[-1]]  # type: ignore[misc]
        styles: dict[str, tuple[str, str]] = {}  # column -> (key as written, value as written)
        for number in range(first, last + 1):
            body = lines[number].rstrip("\r\n")
            if number == first:
                body = " " * len(head) + body[len(head):]
            if body[:len(head)].strip() or body[len(head):len(head) + 1] in (" ", "\t", "#", ""):
                continue  # a continuation, a comment or a blank line
            m = _YAML_KEY.match(body, len(head))
            if m:
                styles.setdefault(_clean_header(m.group(1).strip("'\"")), (m.group(1), m.group(2) or ""))
        if not styles:
            return "본뜰 줄을 읽지 못해"
        _, end_last, _ = items[n - 1]  # type: ignore[misc]
        at = offsets[end_last + 1]
        lead = "" if text[at - 1:at] in ("\n", "\r") else newline
        made = []
        for cells in change.added:
            entries = []
            for column in [*styles, *(c for c in cells if c not in styles)]:
                value = cells.get(column, "")
                if value == "" and column not in styles:
                    continue
                key, was = styles.get(column, (column, ""))
                entries.append(f"{key}: {_yaml_value(value, was)}")
            made.append("".join((head if i == 0 else " " * len(head)) + e + newline for i, e in enumerate(entries)))
        out.append((at, at, lead + "".join(made)))
    return out


def _yaml_references(text: str, span: tuple[int, int]) -> bool:
    """Whether the YAML between ``span`` holds an anchor, an alias or an explicit tag (a
    record another one may stand on, which a text edit could break)."""
    import yaml

    from .tables import yaml_loader

    for event in yaml.parse(text, Loader=yaml_loader()):
        if span[0] <= event.start_mark.index < span[1] and (
                isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) or getattr(event, "tag", None)):
            return True
    return False


def _yaml_value(value: str, was: str) -> str:
    """``value`` as a YAML scalar quoted as ``was`` is (plain when it reads back the same)."""
    if was.startswith("'") and "\n" not in value and "\r" not in value:
        return "'" + value.replace("'", "''") + "'"
    if not was.startswith(("'", '"')) and value and _plain_reads(value):
        return value
    return json.dumps(value, ensure_ascii=False)


def _plain_reads(value: str) -> bool:
    """Whether ``value`` written plain after ``key: `` reads back as itself."""
    from .tables import safe_yaml_load

    if value != value.strip() or any(ch in value for ch in "\r\n\t") or value[0] in "!&*%@`|>'\"#{[-?:,]}":
        return False
    try:
        back = safe_yaml_load(f"k: {value}\n", "")
    except (InputError, Exception):  # noqa: BLE001 - anything that does not read is not plain
        return False
    if not isinstance(back, dict) or set(back) != {"k"} or isinstance(back["k"], (dict, list)) or back["k"] is None:
        return False
    shown = back["k"]
    text = ("true" if shown else "false") if isinstance(shown, bool) else str(shown)
    return _same(text, value) and (not isinstance(shown, float) or text == value)


def _document_value(line: str, key: str, value: str, form: str, decoder: json.JSONDecoder) -> tuple[int, int, str] | None:
    """Where the value of ``key`` stands on ``line`` (start, end) and its new text, or
    ``None`` when the line does not hold that key with a value on it."""
    if form == "json":
        m = re.search(r'"' + re.escape(key) + r'"\s*:\s*', line)
        if m is None:
            return None
        try:
            old, end = decoder.raw_decode(line, m.end())
        except ValueError:
            return None
        new = _truth_as(old, value) if isinstance(old, str) else _typed(None, value) if old is None else _json_typed(old, value)
        return m.end(), end, json.dumps(new, ensure_ascii=False)
    m = re.match(r'(\s*(?:-\s+)?["\']?' + re.escape(key) + r'["\']?\s*:[ \t]*)(.*?)([ \t]+#.*)?$', line)
    if m is None or m.group(2).startswith(("|", ">", "&", "*", "[", "{")):
        return None
    old_text = m.group(2)
    if re.fullmatch(r"[+-]?\d+", value) and (re.fullmatch(r"[+-]?\d+", old_text) or not old_text):
        shown = value
    elif value == "":
        shown = '""'
    elif old_text[:1] in ("'", '"') and old_text[-1:] == old_text[:1] and len(old_text) > 1 \
            and old_text[1:-1].strip().lower() in _OPPOSITE and value.strip().lower() in _TRUE | _FALSE:
        shown = old_text[0] + _truth_as(old_text[1:-1], value) + old_text[0]  # a quoted yes/no stays quoted
    elif old_text.strip().lower() in _OPPOSITE and value.strip().lower() in _TRUE | _FALSE:
        shown = _truth_as(old_text, value)
    else:
        shown = json.dumps(value, ensure_ascii=False)
    return m.start(2), m.end(2), shown


# ----------------------------------------------------------------------------- one file


def rewrite(path: Path, data: bytes, raw: Mapping[str, RawTable], todo: Mapping[str, Change]) -> tuple[bytes, list[str]]:
    """The new bytes of ``path`` (read as ``data``) with ``todo`` applied, and notes on
    what was left out.  ``raw``: the tables as read from ``path`` (one form, one file)."""
    forms = {t.form for t in raw.values()}
    form = forms.pop() if len(forms) == 1 else ""
    if form == "csv":
        return _rewrite_csv(data, str(path), raw, todo)
    if form == "xlsx":
        return _rewrite_xlsx(path, raw, todo)
    if form in ("json", "yaml"):
        return _rewrite_document(data, str(path), form, raw, todo)
    raise InputError(f"{path}: 이 꼴의 파일에는 고침을 쓸 수 없습니다.")


def unified_diff(path: str, old: bytes, new: bytes, encoding: str = "utf-8") -> str:
    """The change as a unified diff of the file's lines (an xlsx workbook: none)."""
    import difflib

    try:
        a = _lines(old.decode(encoding))
        b = _lines(new.decode(encoding))
    except UnicodeDecodeError:
        return ""
    out = []
    for line in difflib.unified_diff(a, b, fromfile=f"{path} (지금)", tofile=f"{path} (고친 뒤)"):
        out.append(line if line.endswith(("\n", "\r")) else line + "\n\\ 파일 끝에 줄바꿈 없음\n")
    return "".join(out)

