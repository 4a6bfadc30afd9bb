"""Applying the fixes of one run to the user's own file (``storygraph fix``).

A fix is ``{"text": …, "edits": […]}`` (docs/conditions.md).  This module picks the
fixes of a run (:func:`choose_fixes`: one per problem, the first of two that edit the
same cell), and writes the difference between the tables as read and the tables with the
edits applied back into the file in its own form (:func:`rewrite`): a CSV is edited as
text — only the cells named, the rows added at the end of their table's section, the
rows removed — in its own encoding and line endings; an ``.xlsx`` workbook through
openpyxl (the other sheets and the formatting kept); JSON and YAML by replacing the value
on the line the reader located (comments and layout kept).  Where each row is comes from
the readers of :mod:`verdicts.tables`; nothing here parses a table another way.

The domain applies its edits to rows (``apply_edits``); rows keep a mark (:data:`MARK`)
naming the row read, so that a changed, added or removed row is known even when two rows
share a key.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Collection, Iterable, Mapping

from .errors import InputError
from .korean import code, josa
from .model import Report
from .tables import RawTable, clean_header as _clean_header, decode_bytes, sniff_delimiter as _sniff_delimiter

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


def choose_fixes(fixes: Iterable[Mapping[str, Any]]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]]]:
    """The fixes to apply in one pass, in order, and those held back: a fix given twice
    (several problems with one cause) is applied once; a fix that edits a cell an earlier
    chosen fix edits is held back for the next run (the re-lint offers it again if it is
    still needed)."""
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
        if self.lines:
            spans, _, _ = _record(self.text, 0, self.delimiter)
            for i, (s, e) in enumerate(spans):
                self.header.setdefault(_clean_header(self.text[s:e].strip('"')), i)

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


def _rewrite_csv(data: bytes, file: str, raw: Mapping[str, RawTable], todo: Mapping[str, Change]) -> tuple[bytes, list[str]]:
    text, encoding = decode_bytes(data, file)
    python_encoding = _python_encoding(encoding)
    if text.encode(python_encoding) != data:
        raise InputError(f"{file}: 읽은 글자를 같은 인코딩({encoding})으로 다시 쓰면 바이트가 달라져 고치지 않았습니다.")
    lines = _lines(text)
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line))
    newline = next((line[len(line.rstrip("\r\n")):] for line in lines if line.endswith(("\n", "\r"))), "\n")
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


def _typed(old: Any, value: str) -> Any:
    """The new value in the type of the old one: a number stays a number."""
    if isinstance(old, bool):
        return value
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
    text, encoding = decode_bytes(data, file)
    python_encoding = _python_encoding(encoding)
    lines = _lines(text)
    notes: list[str] = []
    decoder = json.JSONDecoder()
    for name, change in todo.items():
        table = raw[name]
        if change.added or change.removed:
            notes.append(f"{code(name)}의 줄을 더하거나 지우는 고침은 {form.upper()} 파일에 쓰지 않았습니다. "
                         "고치는 법을 보고 손으로 고치세요.")
        for index, cells in change.sets.items():
            row = table.rows[index]
            for column, value in cells.items():
                at = table.key_line(row.line, column) if table.key_line is not None else None
                line = lines[at - 1] if at is not None and 1 <= at <= len(lines) else ""
                body = line.rstrip("\r\n")
                ending = line[len(body):]
                new = _document_value(body, column, value, form, decoder)
                if new is None:
                    notes.append(f"{name}의 {row.line}번째 줄 레코드의 {josa(code(column), '은/는')} 그 줄에서 값을 "
                                 "찾지 못해 고치지 않았습니다.")
                    continue
                assert at is not None  # a line was found
                lines[at - 1] = new + ending
    return "".join(lines).encode(python_encoding), notes


def _document_value(line: str, key: str, value: str, form: str, decoder: json.JSONDecoder) -> str | None:
    """``line`` with the value of ``key`` replaced, or ``None`` when the line does not
    hold that key with a value on it."""
    if form == "json":
        m = re.search(r'"' + re.escape(key) + r'"\s*:\s*', line)
        if m is None:
            return None
        try:
            old, end = decoder.raw_decode(line, m.end())
        except ValueError:
            return None
        new = _typed(old, value) if not isinstance(old, str) else value
        return line[:m.end()] + json.dumps(new, ensure_ascii=False) + line[end:]
    m = re.match(r'(\s*(?:-\s+)?["\']?' + re.escape(key) + r'["\']?\s*:[ \t]*)(.*?)([ \t]+#.*)?$', line)
    if m is None or m.group(2).startswith(("|", ">", "&", "*", "[", "{")):
        return None
    old_text = m.group(2)
    if re.fullmatch(r"[+-]?\d+", value) and (re.fullmatch(r"[+-]?\d+", old_text) or not old_text):
        shown = value
    elif value == "":
        shown = '""'
    else:
        shown = json.dumps(value, ensure_ascii=False)
    return m.group(1) + shown + (m.group(3) or "")


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

