"""Reading a batch of extraction runs into a :class:`~verdicts.extraction.model.Batch`.

The three tables ``worker_outputs``, ``source_pages`` and ``field_rules`` come in any of
the kit's forms (a folder of CSVs, an ``.xlsx`` workbook, a JSON/YAML document, see
:mod:`verdicts.tables`).  ``worker_outputs`` may also arrive as run events, one JSON
object per line, as a worker streams them: ``worker_outputs.jsonl`` in the folder, or a
``.jsonl`` file given as the input with the other two tables beside it.  A malformed
event is an issue for its line; when its ``run_id`` and ``field_name`` can still be
made out, only that cell stops (it is judged as unreadable, not as missing).

Every other problem is one :class:`~verdicts.model.InputIssue` naming table, line,
column and reason; the row or cell concerned is set aside and the rest is judged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from verdicts.documents import Repeat, parse_json, unknown_keys
from verdicts.errors import InputError
from verdicts.files import read_file
from verdicts.korean import code, josa
from verdicts.model import InputIssue
from verdicts.suggest import close_name, misspelling
from verdicts.patterns import PatternError, compile_pattern
from verdicts.tables import (
    OWN_KEY_PREFIX, MAX_JSON_BYTES, RawRow, RawTable, Row, TypedTable, decode_bytes, load_typed_tables, parse_bool, path_kind,
    type_table,
)

from .model import (
    MAX_PAGE_CHARS, TABLE_SPECS, VALUE_TYPES, WORKER_OUTPUTS, Batch, FieldRule, Page, WorkerRow,
)

__all__ = ["load_batch", "read_events", "EVENTS_FILE"]

#: the run events' file name in a folder input
EVENTS_FILE = "worker_outputs.jsonl"

_EVENT_COLUMNS = tuple(c.name for c in WORKER_OUTPUTS.columns)
_ID = {name: re.compile(r'"' + name + r'"\s*:\s*"((?:[^"\\]|\\.)*)"') for name in ("run_id", "field_name")}


def _shown(text: str, limit: int = 30) -> str:
    text = " ".join(str(text).split())
    return "`" + (text if len(text) <= limit else text[: limit - 1] + "…") + "`"


def _event_cell(value: Any) -> tuple[str | None, bool]:
    """An event's value as a cell's text, and whether it could be read as one."""
    if value is None:
        return None, True
    if isinstance(value, bool) or isinstance(value, (dict, list)):
        return None, False
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    return (text or None), True


def read_events(path: Path, issues: list[InputIssue]) -> tuple[RawTable, dict[int, str]]:
    """The run events at ``path`` as the ``worker_outputs`` table, and the lines of the
    events that could not be read but whose cell is known (line → reason)."""
    file = str(path)
    data = read_file(path, MAX_JSON_BYTES, "실행 이벤트")
    text, encoding = decode_bytes(data, file)
    rows: list[RawRow] = []
    broken: dict[int, str] = {}

    def issue(line: int, reason: str, column: str | None = None) -> None:
        issues.append(InputIssue(file=file, table="worker_outputs", line=line, column=column, reason=reason))

    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            doc = parse_json(line, file)
            event = doc.data
        except InputError:
            event = None
        if not isinstance(event, dict):
            ids = {name: m.group(1) for name, pattern in _ID.items() if (m := pattern.search(line))}
            if len(ids) == 2:
                reason = "이벤트가 JSON 객체로 읽히지 않아 이 칸의 값과 근거를 알 수 없습니다."
                issue(number, reason)
                broken[number] = reason
                rows.append(RawRow(number, {**dict.fromkeys(_EVENT_COLUMNS), **ids}))
            else:
                issue(number, "이벤트가 JSON 객체로 읽히지 않고 어느 칸의 이벤트인지도 알 수 없어 건너뛰었습니다.")
            continue
        # a key written twice keeps its first value; a key no event has is not read, and
        # when it misspells one the event left empty, that cell's event is unreadable
        for repeat in doc.repeats:
            issue(number, _repeat_reason(repeat, line), repeat.key)
        unread: list[str] = []
        for key in unknown_keys(event, _EVENT_COLUMNS):
            if key.startswith(OWN_KEY_PREFIX):
                continue
            close = close_name(key, _EVENT_COLUMNS)
            lost = close is not None and event.get(close) is None and close not in ("run_id", "field_name")
            then = f" 이 이벤트에는 {code(close)} 값이 없어 이 칸은 읽지 못한 이벤트로 둡니다." if lost else ""
            issue(number, f"{_shown(key)} 키는 실행 이벤트의 열이 아니라 읽지 않았습니다.{then}{misspelling(key, _EVENT_COLUMNS)}", close)
            if lost:
                unread.append(key)
        values: dict[str, str | None] = {}
        bad: list[str] = []
        for name in _EVENT_COLUMNS:
            cell, ok = _event_cell(event.get(name))
            values[name] = cell
            if not ok:
                bad.append(name)
        ids_bad = [n for n in bad if n in ("run_id", "field_name")]
        if ids_bad:
            issue(number, f"`{ids_bad[0]}` 값이 글자나 숫자가 아니어서 어느 칸의 이벤트인지 알 수 없어 건너뛰었습니다.", ids_bad[0])
            continue
        if bad:
            names = ", ".join(f"`{n}`" for n in bad)
            reason = f"{names} 값이 글자나 숫자가 아니어서 이 칸의 이벤트를 읽지 못했습니다."
            issue(number, reason, bad[0])
            broken[number] = reason
            values.update(dict.fromkeys(("value", "evidence_page", "evidence_text")))
        elif unread:
            broken[number] = f"{', '.join(_shown(k) for k in unread)} 키가 실행 이벤트의 열이 아니라 이 칸의 이벤트를 읽지 못했습니다."
            values.update(dict.fromkeys(("value", "evidence_page", "evidence_text")))
        rows.append(RawRow(number, values))
    return RawTable("worker_outputs", file, "jsonl", encoding, list(_EVENT_COLUMNS), rows, header_line=0), broken


def _repeat_reason(repeat: Repeat, line: str) -> str:
    """A key written twice in one event (one line): the places are characters of it."""
    first = line.find(json.dumps(repeat.key, ensure_ascii=False)) + 1
    where = f"{first}번째 글자에" if first > 0 else "앞에"
    return (f"{_shown(repeat.key)} 키가 이 줄 {where} 이미 있어 {repeat.column}번째 글자의 두 번째 값은 "
            "읽지 않고 앞의 값을 썼습니다.")


def _where(path: Path) -> tuple[Path, Path | None]:
    """The tables' path and the run events' file, if any."""
    # a FIFO or a device in their place is read too, and refused with its reason
    if path.suffix.lower() == ".jsonl" and path_kind(path) not in ("dir", "missing"):
        return path.parent, path
    if path_kind(path) == "dir" and path_kind(path / EVENTS_FILE) not in ("dir", "missing"):
        return path, path / EVENTS_FILE
    return path, None


class _Reader:
    """Issues in this domain's words, and rows set aside (moved to ``rejected``)."""

    def __init__(self, issues: list[InputIssue]):
        self.issues = issues

    def issue(self, t: TypedTable, row: Row | None, column: str | None, reason: str) -> None:
        self.issues.append(InputIssue(file=t.file, table=t.name, line=row.line if row else None, column=column, reason=reason))

    @staticmethod
    def set_aside(t: TypedTable, rows: list[Row]) -> None:
        if rows:
            gone = {id(r) for r in rows}
            t.rejected.extend(RawRow(r.line, r.raw) for r in rows)
            t.rows = [r for r in t.rows if id(r) not in gone]


def _positive_int(text: str | None) -> int | None:
    if text is None:
        return None
    t = text.strip()
    if re.fullmatch(r"\d+(\.0+)?", t):
        n = int(t.split(".")[0])
        return n if n >= 1 else None
    return None


def _field_rules(t: TypedTable, r: _Reader) -> dict[str, FieldRule]:
    rules: dict[str, FieldRule] = {}
    aside: list[Row] = []
    for row in t.rows:
        raw = row.raw
        name = raw.get("field_name")
        if name is None:
            r.issue(t, row, "field_name", "`field_name` 칸이 비어 있어 이 규칙 줄은 쓰지 않았습니다.")
            aside.append(row)
            continue
        if name in rules:
            r.issue(t, row, "field_name", f"필드 {_shown(name)}의 규칙이 {rules[name].line}번째 줄에 이미 있어 이 줄은 쓰지 않고 앞의 규칙으로 판정했습니다.")
            aside.append(row)
            continue
        value_type = raw.get("value_type")
        if value_type not in VALUE_TYPES:
            said = (f"값 종류 {josa(_shown(value_type), '이/가')} {', '.join(f'`{v}`' for v in VALUE_TYPES)} 가운데 하나가 아니어서"
                    if value_type else "값 종류가 비어 있어")
            r.issue(t, row, "value_type", f"{said} {code(name)} 칸은 원문 값과 견주지 않았습니다.")
            row.invalid.add("value_type")
            value_type = None
        required_text = raw.get("required")
        required = parse_bool(required_text) if required_text is not None else None
        if required is None:
            shown = f"`required` 값 {josa(_shown(required_text), '을/를')} 참이나 거짓으로 읽지 못해" if required_text else "`required` 칸이 비어 있어"
            r.issue(t, row, "required", f"{shown} {code(name)} 칸이 비었을 때 필수인지 가리지 못합니다.")
            row.invalid.add("required")
        pattern_text = raw.get("pattern")
        pattern, broken = None, False
        if pattern_text is not None:
            try:
                pattern = compile_pattern(pattern_text)
            except PatternError as exc:
                broken = True
                row.invalid.add("pattern")
                r.issue(t, row, "pattern", f"정규식 {josa(_shown(pattern_text, 40), '은/는')} {exc} {code(name)} 칸의 형식은 가리지 않았습니다.")
        rules[name] = FieldRule(name, raw.get("label") or name, value_type, required, pattern_text, pattern, row.line, broken)
    r.set_aside(t, aside)
    return rules


def _pages(t: TypedTable, r: _Reader) -> dict[str, dict[int, Page]]:
    pages: dict[str, dict[int, Page]] = {}
    aside: list[Row] = []
    for row in t.rows:
        raw = row.raw
        run = raw.get("run_id")
        if run is None:
            r.issue(t, row, "run_id", "`run_id` 칸이 비어 있어 어느 실행의 쪽인지 알 수 없으므로 이 줄은 쓰지 않았습니다.")
            aside.append(row)
            continue
        page_text = raw.get("page")
        number = _positive_int(page_text)
        if number is None:
            said = f"쪽 번호 {josa(_shown(page_text), '이/가')} 1 이상의 정수가 아니어서" if page_text else "쪽 번호가 비어 있어"
            r.issue(t, row, "page", f"{said} 이 쪽은 쓰지 않았습니다.")
            aside.append(row)
            continue
        own = pages.setdefault(run, {})
        if number in own:
            r.issue(t, row, "page", f"{code(run)}의 {number}쪽이 {own[number].line}번째 줄에 이미 있어 이 줄은 쓰지 않았습니다.")
            aside.append(row)
            continue
        text = raw.get("text")
        if text is None:
            r.issue(t, row, "text", f"{code(run)}의 {number}쪽 본문이 비어 있어 이 쪽을 인용한 칸은 근거를 대조하지 못합니다.")
            row.invalid.add("text")
        elif "\x00" in text:
            r.issue(t, row, "text", f"{code(run)}의 {number}쪽 본문에 NUL 문자가 있어 이 쪽을 인용한 칸은 근거를 대조하지 못합니다.")
            row.invalid.add("text")
            text = None
        elif len(text) > MAX_PAGE_CHARS:
            r.issue(t, row, "text", f"{code(run)}의 {number}쪽 본문이 {len(text):,}자로 한도 {MAX_PAGE_CHARS:,}자를 넘어 이 쪽을 인용한 칸은 근거를 대조하지 못합니다.")
            row.invalid.add("text")
            text = None
        own[number] = Page(run, number, raw.get("doc_name"), text, row.line)
    r.set_aside(t, aside)
    return pages


def _outputs(t: TypedTable, r: _Reader, rules: dict[str, FieldRule] | None, broken: dict[int, str]
             ) -> dict[str, dict[str, WorkerRow]]:
    outputs: dict[str, dict[str, WorkerRow]] = {}
    aside: list[Row] = []
    for row in t.rows:
        raw = row.raw
        run, name = raw.get("run_id"), raw.get("field_name")
        if run is None or name is None:
            column = "run_id" if run is None else "field_name"
            r.issue(t, row, column, f"`{column}` 칸이 비어 있어 어느 실행의 어느 필드 값인지 알 수 없으므로 이 줄은 쓰지 않았습니다.")
            aside.append(row)
            continue
        if rules is not None and name not in rules:
            r.issue(t, row, "field_name", f"`field_rules`에 없는 필드 {josa(_shown(name), '이라/라')} 판정하지 않았습니다.")
            aside.append(row)
            continue
        own = outputs.setdefault(run, {})
        if name in own:
            r.issue(t, row, "field_name", f"{code(run)}의 {code(name)} 칸이 {own[name].line}번째 줄에 이미 있어 이 줄은 쓰지 않았습니다.")
            aside.append(row)
            continue
        reason = broken.get(row.line) if t.form == "jsonl" else None
        if reason is not None:
            row.invalid.update(("value", "evidence_page", "evidence_text"))
        page_text = raw.get("evidence_page")
        page = _positive_int(page_text)
        if page_text is not None and page is None:
            r.issue(t, row, "evidence_page", f"근거 쪽수 {josa(_shown(page_text), '이/가')} 1 이상의 정수가 아니어서 {code(run)}의 {code(name)} 칸은 근거를 대조하지 못합니다.")
            row.invalid.add("evidence_page")
        own[name] = WorkerRow(run, name, raw.get("value") or "", page, page_text, raw.get("evidence_text"), row.line,
                              broken=reason)
    r.set_aside(t, aside)
    return outputs


def load_batch(path: str | Path) -> Batch:
    """Read and type one batch of runs.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    path = Path(path)
    issues: list[InputIssue] = []
    where, events = _where(path)
    specs = TABLE_SPECS if events is None else tuple(s for s in TABLE_SPECS if s.name != "worker_outputs")
    raw, typed = load_typed_tables(where, specs, issues, required=[s.name for s in specs])
    broken: dict[int, str] = {}
    if events is not None:
        raw_events, broken = read_events(events, issues)
        raw["worker_outputs"] = raw_events
        typed["worker_outputs"] = type_table(raw_events, WORKER_OUTPUTS, issues)
    r = _Reader(issues)
    rules = _field_rules(typed["field_rules"], r) if "field_rules" in typed and typed["field_rules"].has("field_name") else {}
    rules_known = "field_rules" in typed and typed["field_rules"].has("field_name")
    pages_known = "source_pages" in typed and all(typed["source_pages"].has(c) for c in ("run_id", "page", "text"))
    pages = _pages(typed["source_pages"], r) if pages_known else {}
    outputs_known = "worker_outputs" in typed and all(typed["worker_outputs"].has(c) for c in ("run_id", "field_name"))
    outputs = _outputs(typed["worker_outputs"], r, rules if rules_known else None, broken) if outputs_known else {}
    runs = list(dict.fromkeys([*outputs, *pages]))
    # the page rows set aside (or rejected when typed): a cited page missing from the run
    # may be one of them, so that cell waits for a reload instead of being judged
    unread = [(row.values.get("run_id"), _positive_int(row.values.get("page")), row.line)
              for row in typed["source_pages"].rejected] if pages_known else []
    batch = Batch(rules=rules, runs=runs, outputs=outputs, pages=pages, issues=issues,
                  sources=[tbl.source() for tbl in raw.values()], tables=typed, pages_known=pages_known,
                  outputs_known=outputs_known, unread_pages=unread)
    if pages_known:
        t = typed["worker_outputs"] if outputs_known else None
        for run, rows in outputs.items():
            assert t is not None  # there are outputs only when worker_outputs was read
            first = min(rows.values(), key=lambda w: w.line)
            own = pages.get(run)
            if not own:
                issues.append(InputIssue(file=t.file, table="worker_outputs", line=first.line, column="run_id",
                                         reason=f"`source_pages`에 {code(run)}의 쪽이 하나도 없어 이 실행의 근거 문구는 대조하지 못합니다."))
                continue
            last = max(own)
            for w in rows.values():
                # a page the worker cites that the run does not have: a finding about its output
                if w.page is None or w.page in own or batch.unread_page(run, w.page):
                    continue
                reason = (f"근거 쪽수 {w.page}쪽은 {code(run)}의 원문({last}쪽까지)에 없는 쪽입니다." if w.page > last else
                          f"{code(run)}의 원문은 {last}쪽까지 있지만 {w.page}쪽이 빠져 있어 근거 쪽수 {w.page}쪽은 없는 쪽입니다.")
                issues.append(InputIssue(file=t.file, table="worker_outputs", line=w.line, column="evidence_page",
                                         reason=reason))
    return batch
