"""The review queue's store: paused runs, their cells, and the operators' decisions in a
local SQLite database.

A run is *paused* while some of its cells wait for a decision.  ``load`` judges an input
(any form the domain reads) and keeps each cell's card, its field's pattern and label,
and the run's pages, so the queue survives restarts without the input.  Loading the same
run again replaces its cards and keeps every decision.

A decision is one of ``approve`` (the AI's value stands), ``correct`` (a new value,
which must match the field's pattern entirely) and ``reject`` (no value).  It records
the reviewer, the time, the old and the new value, and the seconds from opening the
cell to deciding.  Two reviewers never lose an update: each decision names the last
decision its reviewer saw (``seen``), and one made on a stale view is refused with the
name of whoever decided first.  Every write is one ``BEGIN IMMEDIATE`` transaction.

A decision is bound to what its reviewer saw: it records the cell's AI value, source
value and verdict, and their fingerprint (:func:`fingerprint`).  When a load brings the
cell other values, the decision is *stale*: the cell waits again, its page shows the old
decision and what changed, and the export leaves the cell undecided with the old
decision in a column of its own.  A decision sent with the fingerprint of a state the
cell no longer holds (a page opened before the change) is refused, saying what changed;
every state a cell has held is kept in ``cell_states`` so that it can be said.

A cell whose run event could not be read, or whose cited page could not be loaded, is
*broken*: it is not decided but reloaded (``reload`` reads its run's input again);
every other cell keeps its verdict and its decisions.

Schema changes are numbered migrations applied in order, each once, recorded in
``schema_version`` (the approach of :mod:`verdicts.rounds`).
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import sqlite3
import statistics
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from verdicts.errors import VerdictsError
from verdicts import safe_csv
from verdicts.korean import code, josa
from verdicts.patterns import fullmatches
from verdicts.model import WITHHELD
from verdicts.rounds import apply_migrations, schema_version_of
from verdicts.safe_text import clean

from .domain import judge_batch
from .rules import BOOK, CellFacts
from .templates import q

__all__ = ["ReviewStore", "ReviewError", "StaleDecision", "CellChanged", "MissingCell", "DatabaseBroken", "Cell", "Decision",
           "MIGRATIONS", "ACTIONS", "BROKEN_VALUES", "ENV_VAR", "LEGACY", "STATES", "default_review_db", "percentile",
           "fingerprint", "changes"]

ENV_VAR = "VERDICTS_REVIEW_DB"
BUSY_TIMEOUT = 30.0
ACTIONS = ("approve", "correct", "reject")
#: a cell stopped on one of these values cannot be decided, only reloaded
BROKEN_VALUES = ("worker_outputs.value", "source_pages.text")
#: the fingerprint of a decision made before decisions recorded what they were made on
#: and found not to fit the cell at the upgrade (``docs/decisions.md``): it matches no state
LEGACY = "legacy"
#: a cell's state in the queue and the export: waiting for its first decision, decided
#: (on what it holds now), stale (decided on other values), or to be reloaded
STATES = ("waiting", "decided", "stale", "reload")

MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "paused runs, their cells and the decisions", """
        CREATE TABLE runs (
            run_id TEXT PRIMARY KEY,
            input_path TEXT NOT NULL,
            pages_json TEXT NOT NULL,
            loaded_at TEXT NOT NULL
        );
        CREATE TABLE cells (
            item_key TEXT PRIMARY KEY,
            run_id TEXT NOT NULL REFERENCES runs(run_id),
            field_name TEXT NOT NULL,
            position INTEGER NOT NULL,
            label TEXT NOT NULL,
            pattern TEXT,
            card_json TEXT NOT NULL,
            broken TEXT
        );
        CREATE INDEX cells_by_run ON cells(run_id, position);
        CREATE TABLE decisions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            item_key TEXT NOT NULL,
            run_id TEXT NOT NULL,
            field_name TEXT NOT NULL,
            verdict TEXT NOT NULL,
            action TEXT NOT NULL,
            old_value TEXT,
            new_value TEXT,
            reviewer TEXT NOT NULL,
            decided_at TEXT NOT NULL,
            seconds REAL
        );
        CREATE INDEX decisions_by_cell ON decisions(item_key, id);
    """),
    # Decisions bound to what was seen (issue 31).  A decision made before it is bound to
    # the cell as stored at the upgrade when its verdict and the AI value its cell's first
    # decision started from are the stored cell's; otherwise it is stale from the start
    # (LEGACY matches no state).  ``cell_fingerprint`` is registered on every connection.
    (2, "decisions record the AI value, source value and verdict they were made on", """
        ALTER TABLE decisions ADD COLUMN ai_value TEXT;
        ALTER TABLE decisions ADD COLUMN source_value TEXT;
        ALTER TABLE decisions ADD COLUMN fingerprint TEXT;
        CREATE TABLE cell_states (
            item_key TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            ai_value TEXT,
            source_value TEXT,
            verdict TEXT,
            seen_at TEXT NOT NULL,
            PRIMARY KEY (item_key, fingerprint)
        );
        INSERT OR IGNORE INTO cell_states
            SELECT c.item_key,
                   cell_fingerprint(json_extract(c.card_json, '$.ai_value'), json_extract(c.card_json, '$.source_value'),
                                    json_extract(c.card_json, '$.verdict')),
                   json_extract(c.card_json, '$.ai_value'), json_extract(c.card_json, '$.source_value'),
                   json_extract(c.card_json, '$.verdict'), r.loaded_at
            FROM cells c JOIN runs r ON r.run_id = c.run_id;
        UPDATE decisions SET (ai_value, source_value, fingerprint) =
            (SELECT s.ai_value, s.source_value, s.fingerprint FROM cell_states s WHERE s.item_key = decisions.item_key)
            WHERE EXISTS (SELECT 1 FROM cell_states s WHERE s.item_key = decisions.item_key AND s.verdict = decisions.verdict
                          AND s.ai_value IS (SELECT d.old_value FROM decisions d WHERE d.item_key = decisions.item_key
                                             ORDER BY d.id LIMIT 1));
        UPDATE decisions SET fingerprint = 'legacy',
            ai_value = (SELECT d.old_value FROM decisions d WHERE d.item_key = decisions.item_key ORDER BY d.id LIMIT 1)
            WHERE fingerprint IS NULL;
    """),
    # The queue's CSRF token lives with its decisions (issue 31 and 32): a page opened
    # before a restart still posts, and then meets the check of what it was made on.
    (3, "the queue's own secrets (its CSRF token)", """
        CREATE TABLE secrets (
            name TEXT PRIMARY KEY,
            value TEXT NOT NULL
        );
    """),
)


class ReviewError(VerdictsError):
    """A decision or a load is refused (the message says why, in Korean)."""

    #: the status of the page that says so (:func:`verdicts.serve.create_app`)
    http_status = 422


class MissingCell(ReviewError):
    """The queue holds no cell (or run) of that id."""

    http_status = 404


class DatabaseBroken(ReviewError):
    """The review database cannot be opened or read (not a database, damaged, locked
    past the wait, not allowed)."""

    http_status = 503


class StaleDecision(ReviewError):
    """A decision made on a view that another reviewer's decision has outdated."""


class CellChanged(StaleDecision):
    """A decision sent from a page that showed the cell in a state it no longer holds."""


def fingerprint(ai_value: str | None, source_value: str | None, verdict: str | None) -> str:
    """The SHA-256 of the canonical JSON of what a reviewer sees of a cell: its AI value,
    source value and verdict.

    >>> fingerprint("홍길동", "홍길동", "원문과 맞음") == fingerprint("홍길동", "홍길동", "원문과 맞음")
    True
    >>> fingerprint("홍길동", None, "원문과 맞음") == fingerprint("홍길동", "홍길동", "원문과 맞음")
    False
    """
    seen = {"ai_value": ai_value, "source_value": source_value, "verdict": verdict}
    return hashlib.sha256(json.dumps(seen, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")).hexdigest()


def _shown(value: str | None) -> str:
    """A value in a sentence about what changed: quoted on one line and cut short as the
    cards quote values, ``빈 값`` or ``없음``."""
    if value is None:
        return "없음"
    return "빈 값" if value == "" else q(value)


def changes(before: dict[str, Any], after: dict[str, Any], *, source_known: bool = True) -> list[str]:
    """What differs between two states of a cell (``ai_value``, ``source_value``,
    ``verdict``), each as ``이름(전 → 후)``; the source value only when ``before`` recorded it.

    >>> changes({"ai_value": "약 120억", "source_value": None, "verdict": "형식이 규칙과 다름"},
    ...         {"ai_value": "12034500000", "source_value": None, "verdict": "원문과 맞음"})
    ['AI 값(`약 120억` → `12034500000`)', '판정(형식이 규칙과 다름 → 원문과 맞음)']
    """
    out = []
    for name, label in (("ai_value", "AI 값"), ("source_value", "원문 값")):
        if name == "source_value" and not source_known:
            continue
        if before.get(name) != after.get(name):
            out.append(f"{label}({_shown(before.get(name))} → {_shown(after.get(name))})")
    if before.get("verdict") != after.get("verdict"):
        out.append(f"판정({before.get('verdict') or '없음'} → {after.get('verdict') or '없음'})")
    return out


def default_review_db() -> Path:
    """``$VERDICTS_REVIEW_DB``, else ``$XDG_DATA_HOME/verdicts/review.sqlite3``."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "verdicts" / "review.sqlite3"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Decision:
    id: int
    item_key: str
    action: str
    old_value: str | None
    new_value: str | None
    reviewer: str
    decided_at: str
    seconds: float | None
    verdict: str
    #: what the decision was made on: the cell's AI value and source value (with
    #: ``verdict``), and their fingerprint (:data:`LEGACY` for an old decision that did
    #: not fit the cell at the upgrade)
    ai_value: str | None = None
    source_value: str | None = None
    fingerprint: str | None = None

    @property
    def seen(self) -> dict[str, Any]:
        return {"ai_value": self.ai_value, "source_value": self.source_value, "verdict": self.verdict}


@dataclass(frozen=True)
class Cell:
    """One cell of a paused run as the queue shows it."""

    item_key: str
    run_id: str
    field_name: str
    position: int
    label: str
    pattern: str | None
    card: dict[str, Any]
    broken: str | None
    last: Decision | None

    @property
    def seen(self) -> dict[str, Any]:
        """What a reviewer sees of the cell now (a decision is bound to it)."""
        return {"ai_value": self.card.get("ai_value"), "source_value": self.card.get("source_value"),
                "verdict": self.card.get("verdict")}

    @property
    def fingerprint(self) -> str:
        return fingerprint(**self.seen)

    @property
    def current(self) -> Decision | None:
        """The last decision when it was made on what the cell holds now, else ``None``."""
        last = self.last
        if last is None or self.broken or last.fingerprint != self.fingerprint:
            return None
        return last

    @property
    def stale(self) -> bool:
        """Decided, but on other values than the cell holds now (and not to be reloaded)."""
        return self.last is not None and not self.broken and self.current is None

    @property
    def state(self) -> str:
        """One of :data:`STATES`."""
        if self.broken:
            return "reload"
        if self.last is None:
            return "waiting"
        return "stale" if self.current is None else "decided"

    @property
    def waiting(self) -> bool:
        return self.current is None

    def changed(self) -> list[str]:
        """What changed since the last decision was made (empty when it is current)."""
        last = self.last
        if last is None or self.current is not None:
            return []
        return changes(last.seen, self.seen, source_known=last.fingerprint != LEGACY)

    def evidence(self, field: str) -> Any:
        for item in self.card.get("evidence") or ():
            if item.get("field") == field and not item.get("agg"):
                return item.get("value")
        return None


def percentile(values: list[float], p: float) -> float:
    """The ``p``-th percentile (0–100) by linear interpolation between closest ranks.

    >>> percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), percentile([4.0], 50)
    (9.1, 4.0)
    """
    ordered = sorted(values)
    if len(ordered) == 1:
        return float(ordered[0])
    rank = (len(ordered) - 1) * p / 100
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return round(ordered[low] + (ordered[high] - ordered[low]) * (rank - low), 3)


class ReviewStore:
    """The review database at ``path`` (created and migrated on first use)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_review_db()

    @contextmanager
    def connect(self) -> Iterator[sqlite3.Connection]:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise DatabaseBroken(f"{self.path}: 검토 데이터베이스를 열 수 없습니다({clean(str(exc))}).") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.create_function("cell_fingerprint", 3, fingerprint, deterministic=True)
            self._migrate(conn)
            yield conn
        except sqlite3.Error as exc:
            raise DatabaseBroken(f"{self.path}: 검토 데이터베이스를 읽지 못했습니다({clean(str(exc))}). 파일이 깨졌다면 "
                                 "백업에서 되살리거나 다른 `--db`로 열어 주세요.") from None
        except json.JSONDecodeError as exc:
            raise DatabaseBroken(f"{self.path}: 검토 데이터베이스에 든 카드를 읽지 못했습니다({exc.msg}). 파일이 깨졌다면 "
                                 "백업에서 되살리거나 다른 `--db`로 열어 주세요.") from None
        finally:
            conn.close()

    @staticmethod
    def _version(conn: sqlite3.Connection) -> int:
        return schema_version_of(conn)

    def _migrate(self, conn: sqlite3.Connection) -> None:
        apply_migrations(conn, MIGRATIONS, _now)

    def csrf_token(self) -> str:
        """The queue's CSRF token (made once, kept in the database): every page's forms
        carry it and every ``POST`` must, and a page opened before a restart of the
        server still carries the right one."""
        import secrets

        with self.connect() as conn:
            conn.execute("INSERT OR IGNORE INTO secrets (name, value) VALUES ('csrf', ?)", (secrets.token_urlsafe(32),))
            return conn.execute("SELECT value FROM secrets WHERE name = 'csrf'").fetchone()[0]

    def schema_version(self) -> int:
        with self.connect() as conn:
            return self._version(conn)

    # ------------------------------------------------------------------ loading runs
    def load(self, path: str | Path, only: str | None = None) -> list[str]:
        """Judge the input at ``path`` and keep its runs (only the cell ``only`` when
        given: a reload); returns the run ids kept."""
        path = Path(path).resolve()
        report = judge_batch(path)
        batch = report.inputs
        broken: dict[str, str] = {}
        for cell in batch.cells():
            decision = BOOK.decide(batch, CellFacts(batch, cell))
            hit = [m for m in decision.missing if m in BROKEN_VALUES]
            if decision.withheld is not None:  # a rule that withholds names the unreadable cell's place
                hit += [f"{w.get('table')}.{w.get('column')}" for w in decision.withheld.where
                        if f"{w.get('table')}.{w.get('column')}" in BROKEN_VALUES]
            if hit:
                broken[cell.key] = hit[0]
        runs: dict[str, list] = {}
        for position, card in enumerate(report.cards):
            runs.setdefault(card.run_id, []).append((position, card))
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for run_id, cards in runs.items():
                    if only is not None and only not in {c.key for _, c in cards}:
                        continue
                    pages = {str(n): {"doc_name": p.doc_name, "text": p.text} for n, p in batch.pages.get(run_id, {}).items()}
                    conn.execute("INSERT INTO runs VALUES (?, ?, ?, ?) ON CONFLICT(run_id) DO UPDATE SET "
                                 "input_path = excluded.input_path, pages_json = excluded.pages_json, loaded_at = excluded.loaded_at",
                                 (run_id, str(path), json.dumps(pages, ensure_ascii=False), _now()))
                    for position, card in cards:
                        if only is not None and card.key != only:
                            continue
                        rule = batch.rules[card.field_name]
                        data = card.to_json()
                        seen = (data.get("ai_value"), data.get("source_value"), data.get("verdict"))
                        conn.execute("INSERT OR IGNORE INTO cell_states VALUES (?, ?, ?, ?, ?, ?)",
                                     (card.key, fingerprint(*seen), *seen, _now()))
                        conn.execute(
                            "INSERT INTO cells VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(item_key) DO UPDATE SET "
                            "position = excluded.position, label = excluded.label, pattern = excluded.pattern, "
                            "card_json = excluded.card_json, broken = excluded.broken",
                            (card.key, run_id, card.field_name, position, rule.label,
                             None if rule.pattern_broken else rule.pattern_text,
                             json.dumps(data, ensure_ascii=False), broken.get(card.key)))
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return list(runs)

    def reload(self, item_key: str) -> Cell:
        """Read the input of the cell's run again and replace the cell's card."""
        cell = self.cell(item_key)
        with self.connect() as conn:
            path = conn.execute("SELECT input_path FROM runs WHERE run_id = ?", (cell.run_id,)).fetchone()[0]
        try:
            self.load(path, only=item_key)
        except VerdictsError as exc:
            raise ReviewError(f"{path}: 입력을 다시 읽지 못했습니다({exc}).") from None
        return self.cell(item_key)

    # ------------------------------------------------------------------ reading the queue
    @staticmethod
    def _decision(row) -> Decision | None:
        return None if row is None else Decision(*row)

    _DECISION = ("SELECT id, item_key, action, old_value, new_value, reviewer, decided_at, seconds, verdict, ai_value, "
                 "source_value, fingerprint FROM decisions")

    def _cells(self, conn, where: str, args: tuple) -> list[Cell]:
        out = []
        for row in conn.execute("SELECT item_key, run_id, field_name, position, label, pattern, card_json, broken FROM cells "
                                f"WHERE {where} ORDER BY run_id, position", args):
            last = conn.execute(self._DECISION + " WHERE item_key = ? ORDER BY id DESC LIMIT 1", (row[0],)).fetchone()
            out.append(Cell(row[0], row[1], row[2], row[3], row[4], row[5], json.loads(row[6]), row[7], self._decision(last)))
        return out

    def runs(self) -> list[dict[str, Any]]:
        """Every run with its cell count, how many wait (stale ones among them), and how
        many are broken."""
        with self.connect() as conn:
            rows = conn.execute("SELECT run_id FROM runs ORDER BY run_id").fetchall()
            out = []
            for (run_id,) in rows:
                cells = self._cells(conn, "run_id = ?", (run_id,))
                out.append({"run_id": run_id, "cells": len(cells), "waiting": sum(1 for c in cells if c.waiting),
                            "stale": sum(1 for c in cells if c.stale), "broken": sum(1 for c in cells if c.broken)})
        return out

    def waiting_cells(self) -> list[Cell]:
        """Every cell that waits for a decision (stale and broken ones too), run by run."""
        with self.connect() as conn:
            return [c for c in self._cells(conn, "1 = 1", ()) if c.waiting]

    def page_only_wrong(self) -> int:
        """The seed's manual count: cells judged 근거 문구가 원문에 없음 whose phrase is on
        another page of the run (the hedge names it; the card cites that page)."""
        with self.connect() as conn:
            cards = [json.loads(r[0]) for r in conn.execute("SELECT card_json FROM cells")]
        return sum(1 for c in cards if c.get("verdict") == "근거 문구가 원문에 없음" and any(
            e.get("source") == "source_pages" and e.get("field") == "page" for e in c.get("evidence") or ()))

    def paused(self) -> list[dict[str, Any]]:
        """The runs with a cell still waiting."""
        return [r for r in self.runs() if r["waiting"]]

    def run_cells(self, run_id: str) -> list[Cell]:
        with self.connect() as conn:
            return self._cells(conn, "run_id = ?", (run_id,))

    def cell(self, item_key: str) -> Cell:
        with self.connect() as conn:
            cells = self._cells(conn, "item_key = ?", (item_key,))
        if not cells:
            raise MissingCell(f"검토 대기열에 {clean(item_key)} 칸이 없습니다.")
        return cells[0]

    def pages(self, run_id: str) -> dict[int, dict[str, Any]]:
        with self.connect() as conn:
            row = conn.execute("SELECT pages_json FROM runs WHERE run_id = ?", (run_id,)).fetchone()
        return {int(k): v for k, v in json.loads(row[0]).items()} if row else {}

    def history(self, item_key: str) -> list[Decision]:
        with self.connect() as conn:
            return [Decision(*r) for r in conn.execute(self._DECISION + " WHERE item_key = ? ORDER BY id", (item_key,))]

    def next_waiting(self, run_id: str, after: str | None = None) -> str | None:
        """The next waiting cell of the run after ``after`` (wrapping round), or ``None``."""
        cells = [c for c in self.run_cells(run_id) if c.waiting and not c.broken]
        keys = [c.item_key for c in cells]
        if not keys:
            return None
        if after is None:
            return keys[0]
        everything = [c.item_key for c in self.run_cells(run_id)]
        start = everything.index(after) if after in everything else -1
        for key in everything[start + 1:] + everything[:start + 1]:
            if key in keys:
                return key
        return None

    # ------------------------------------------------------------------ deciding
    def decide(self, item_key: str, action: str, *, reviewer: str, new_value: str | None = None, seen: int = 0,
               opened_at: float | None = None, now: float | None = None, shown: str | None = None) -> Decision:
        """Record a decision on the cell; ``seen`` is the id of the last decision the
        reviewer saw (0: none), ``opened_at`` when the cell was opened (epoch seconds),
        ``shown`` the fingerprint of the cell as the reviewer's page showed it (a page
        always sends it; ``None``: the caller binds the decision to the cell as it is)."""
        reviewer = (reviewer or "").strip()
        if action not in ACTIONS:
            raise ReviewError(f"결정은 승인, 수정, 거절 가운데 하나여야 합니다(받은 값: {code(action)}).")
        if not reviewer:
            raise ReviewError("검토자 이름이 비어 있어 결정을 남기지 않았습니다.")
        cell = self.cell(item_key)
        if cell.broken:
            raise ReviewError("이 칸은 입력을 읽지 못한 상태라 먼저 다시 불러와야 결정할 수 있습니다.")
        if shown is not None and shown != cell.fingerprint:  # said before any other refusal (checked again below)
            with self.connect() as conn:
                raise CellChanged(self._changed_message(conn, cell, shown))
        if action == "correct":
            new_value = (new_value or "").strip()
            if not new_value:
                raise ReviewError("수정할 값이 비어 있습니다.")
            matched = fullmatches(cell.pattern, new_value) if cell.pattern else True
            if matched is None:  # (kept by an older version: a pattern RE2 refuses)
                raise ReviewError(f"{cell.label} 칸의 형식 규칙 {josa(code(cell.pattern), '을/를')} 이제는 쓸 수 없어 고친 값이 "
                                  "맞는지 가리지 못했으니 먼저 다시 불러와 주세요.")
            if not matched:
                raise ReviewError(f"고친 값 {josa(code(new_value), '이/가')} {cell.label} 칸의 형식 규칙 `{cell.pattern}`에 맞지 않습니다.")
        now = time.time() if now is None else now
        seconds = round(now - opened_at, 3) if opened_at is not None and 0 <= now - opened_at < 86_400 else None
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                # the cell as it is inside the transaction: a load may have changed it since
                held = self._cells(conn, "item_key = ?", (item_key,))
                if not held or held[0].broken:
                    raise ReviewError(f"검토 대기열에 {item_key} 칸이 없습니다." if not held else
                                      "이 칸은 입력을 읽지 못한 상태라 먼저 다시 불러와야 결정할 수 있습니다.")
                cell = held[0]
                if shown is not None and shown != cell.fingerprint:
                    raise CellChanged(self._changed_message(conn, cell, shown))
                last = cell.last
                if (last.id if last else 0) != seen:
                    raise StaleDecision(f"{last.reviewer} 님이 {last.decided_at}에 이 칸을 먼저 결정해 이 결정은 받지 않았습니다."
                                        if last else "이 칸의 결정이 취소된 뒤라 이 결정은 받지 않았습니다.")
                # a stale decision's value was given for other values: start again from the AI's
                current = cell.current
                old = current.new_value if current else cell.card.get("ai_value")
                new = {"approve": old, "correct": new_value, "reject": None}[action]
                looked = cell.seen
                cur = conn.execute(
                    "INSERT INTO decisions (item_key, run_id, field_name, verdict, action, old_value, new_value, reviewer, "
                    "decided_at, seconds, ai_value, source_value, fingerprint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (item_key, cell.run_id, cell.field_name, looked["verdict"] or WITHHELD, action, old, new, reviewer,
                     datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="seconds"), seconds,
                     looked["ai_value"], looked["source_value"], cell.fingerprint))
                decision_id = cur.lastrowid
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        return next(d for d in self.history(item_key) if d.id == decision_id)

    @staticmethod
    def _changed_message(conn: sqlite3.Connection, cell: Cell, shown: str) -> str:
        """Why a decision sent from a page showing the state ``shown`` is refused: what
        changed since, when that state is known."""
        if not shown:
            return ("결정을 보낸 화면이 이 칸의 어떤 값을 보여 줬는지 알 수 없어 이 결정은 받지 않았습니다. "
                    "칸을 다시 열어 지금 값을 보고 결정해 주세요.")
        row = conn.execute("SELECT ai_value, source_value, verdict FROM cell_states WHERE item_key = ? AND fingerprint = ?",
                           (cell.item_key, shown)).fetchone()
        what = changes({"ai_value": row[0], "source_value": row[1], "verdict": row[2]}, cell.seen) if row else []
        if not what:
            return ("이 칸은 결정을 보낸 화면을 연 뒤에 바뀌어 이 결정은 받지 않았습니다. "
                    "지금 값을 보고 다시 결정해 주세요.")
        return (f"이 칸은 결정을 보낸 화면을 연 뒤에 바뀌어 이 결정은 받지 않았습니다. 바뀐 것은 {', '.join(what)}입니다. "
                "지금 값을 보고 다시 결정해 주세요.")

    # ------------------------------------------------------------------ what comes out
    def stats(self) -> dict[str, list[dict[str, Any]]]:
        """Time to decide: count, median and 90th percentile of seconds per field and per
        verdict (decisions without a time are left out)."""
        with self.connect() as conn:
            rows = conn.execute("SELECT field_name, verdict, seconds FROM decisions WHERE seconds IS NOT NULL").fetchall()
        out: dict[str, list[dict[str, Any]]] = {}
        for part, index in (("field_name", 0), ("verdict", 1)):
            groups: dict[str, list[float]] = {}
            for row in rows:
                groups.setdefault(row[index], []).append(row[2])
            out[part] = [{part: k, "decisions": len(v), "median": round(statistics.median(v), 3), "p90": percentile(v, 90)}
                         for k, v in sorted(groups.items())]
        return out

    def export(self, run_id: str) -> list[dict[str, Any]]:
        """The run's cells with their final value: the value of the last decision made on
        what the cell holds now, else the AI's value (the cell is undecided).  ``state``
        is one of :data:`STATES`; a decision made on other values is never paired with
        the cell's values: it is in ``stale_decision`` with what it was made on."""
        rows = []
        for c in self.run_cells(run_id):
            current, last = c.current, c.last
            old = None
            if last is not None and current is None:
                old = {"decision": last.action, "value": last.new_value, "reviewer": last.reviewer,
                       "decided_at": last.decided_at, **last.seen}
            rows.append({"item_key": c.item_key, "run_id": c.run_id, "field_name": c.field_name, "state": c.state,
                         "verdict": c.card.get("verdict"), "ai_value": c.card.get("ai_value"),
                         "value": current.new_value if current else c.card.get("ai_value"),
                         "decision": current.action if current else None, "reviewer": current.reviewer if current else None,
                         "decided_at": current.decided_at if current else None, "stale_decision": old})
        return rows

    def export_csv(self, run_id: str) -> str:
        """:meth:`export` as CSV; ``stale_decision`` is its JSON object (empty when none)."""
        rows = self.export(run_id)
        out = io.StringIO()
        writer = safe_csv.DictWriter(out, ["item_key", "run_id", "field_name", "state", "verdict", "ai_value", "value", "decision",
                                           "reviewer", "decided_at", "stale_decision"], lineterminator="\n")
        writer.writeheader()
        for row in rows:
            old = row["stale_decision"]
            writer.writerow({**row, "stale_decision": json.dumps(old, ensure_ascii=False) if old else None})
        return out.getvalue()
