"""Rounds kept in a local SQLite database, for every domain.

``verdicts run DOMAIN PATH --save`` stores the finished report of a run — its cards,
input issues and check results exactly as the JSON reporter writes them — with the
domain, the time, the input path and the SHA-256 of every input file, in one
transaction.  ``verdicts show DOMAIN`` reads the last stored round back, so that before
a new round is brought in the last one can be shown as it was.

Where the database lives: ``--db PATH``, else the ``VERDICTS_DB`` environment variable,
else ``$XDG_DATA_HOME/verdicts/rounds.sqlite3`` (``~/.local/share/verdicts/…`` when
``XDG_DATA_HOME`` is unset).  It is created on first use.

Schema changes are numbered migrations applied in order, each once, recorded in the
``schema_version`` table.  Several processes may save at once: the database runs in WAL
mode with a busy timeout, and every write (a migration, a round) is one ``BEGIN
IMMEDIATE`` transaction, so a writer waits for another instead of failing or
interleaving.  A run that could not read its input never reaches :meth:`RoundStore.save`,
and a save that fails rolls back: nothing half-stored remains.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from .errors import InputError, VerdictsError
from .korean import code
from .model import CheckResult, Finding, InputIssue, Report, SourceInfo, file_of
from .report import render_json

if TYPE_CHECKING:
    from .domain import Domain

__all__ = ["ENV_VAR", "MIGRATIONS", "RoundStore", "StoredRound", "RoundsError", "default_db_path", "report_from_json",
           "schema_version_of", "apply_migrations"]

ENV_VAR = "VERDICTS_DB"
#: seconds a writer waits for another writer before giving up
BUSY_TIMEOUT = 60.0


class RoundsError(VerdictsError):
    """The rounds database cannot be opened, migrated or written."""


#: (version, what it changes, SQL) — append only; never edit a released migration
MIGRATIONS: tuple[tuple[int, str, str], ...] = (
    (1, "rounds and their input files", """
        CREATE TABLE rounds (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            domain TEXT NOT NULL,
            saved_at TEXT NOT NULL,
            input_path TEXT NOT NULL,
            report_json TEXT NOT NULL,
            exit_code INTEGER NOT NULL
        );
        CREATE TABLE round_inputs (
            round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            table_name TEXT NOT NULL,
            file TEXT NOT NULL,
            sha256 TEXT NOT NULL
        );
    """),
    (2, "one digest over all inputs, the tool version, and lookup by domain", """
        ALTER TABLE rounds ADD COLUMN inputs_sha256 TEXT NOT NULL DEFAULT '';
        ALTER TABLE rounds ADD COLUMN tool_version TEXT NOT NULL DEFAULT '';
        CREATE INDEX rounds_by_domain ON rounds(domain, id);
        CREATE INDEX round_inputs_by_round ON round_inputs(round_id);
    """),
)


def default_db_path() -> Path:
    """``$VERDICTS_DB``, else ``$XDG_DATA_HOME/verdicts/rounds.sqlite3``."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "verdicts" / "rounds.sqlite3"


@dataclass(frozen=True)
class StoredRound:
    """One saved round, as stored."""

    id: int
    domain: str
    saved_at: str
    input_path: str
    inputs_sha256: str
    inputs: list[dict[str, str]]
    report_json: str
    exit_code: int
    tool_version: str

    @property
    def data(self) -> dict[str, Any]:
        """The stored report, checked: a JSON object whose sections are lists."""
        try:
            data = json.loads(self.report_json)
        except (ValueError, RecursionError):
            data = None
        if not isinstance(data, dict) or not all(isinstance(data.get(k, []), list) for k in ("cards", "issues", "checks", "findings", "inputs")):
            raise RoundsError(f"저장된 {self.id}번 회차의 보고서를 읽을 수 없습니다. 데이터베이스가 손상되었을 수 있습니다.")
        return data


def _sha256(path: Path) -> str:
    from .files import open_file

    digest = hashlib.sha256()
    with open_file(path) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def report_from_json(domain: Domain, data: dict[str, Any]) -> Report:
    """Rebuild a :class:`~verdicts.domain.Report` from its JSON (``Report.to_json``), so
    that the reporters render a stored round exactly as they rendered the run; a stored
    item that does not fit its model is a :class:`RoundsError`."""
    try:
        return _report_from_json(domain, data)
    except (TypeError, ValueError, AttributeError) as exc:
        raise RoundsError(f"저장된 회차의 보고서가 {domain.name} 도메인의 모양과 맞지 않아 보여 줄 수 없습니다 ({type(exc).__name__}).") from None


def _report_from_json(domain: Domain, data: dict[str, Any]) -> Report:
    return Report(
        domain=domain.name,
        cards=[domain.card_type.from_json(c) for c in data.get("cards", [])],
        issues=[InputIssue(**i) for i in data.get("issues", [])],
        checks=[CheckResult(**c) for c in data.get("checks", [])],
        sources=[SourceInfo(**s) for s in data.get("inputs", [])],
        findings=[Finding(**f) for f in data.get("findings", [])],
        config=data.get("config") if isinstance(data.get("config"), str) else None,
        extra={"aggregate": data["aggregate"]} if isinstance(data.get("aggregate"), dict) else {},
    )


def _switch_to_wal(conn: sqlite3.Connection) -> None:
    """``PRAGMA journal_mode = WAL``, retried while other processes hold the lock.

    Switching a fresh database to WAL needs a lock that SQLite does not always wait for
    through the busy timeout: several processes opening a new database at once saw an
    immediate "database is locked".  Once the file is in WAL mode the pragma is a no-op.
    """
    deadline = time.monotonic() + BUSY_TIMEOUT
    pause = 0.01
    while True:
        try:
            conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.5)


class RoundStore:
    """The rounds database at ``path`` (created and migrated on first use by a writer;
    a reader never creates or changes it)."""

    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_db_path()

    @contextmanager
    def connect(self, *, read_only: bool = False) -> Iterator[sqlite3.Connection]:
        """A connection; ``read_only`` opens an existing database without creating,
        migrating or locking anything (a database in a folder we may not write to is
        read as it is)."""
        try:
            if read_only:
                if not self.path.is_file():
                    raise RoundsError(f"{self.path}: 회차 데이터베이스가 없습니다. `verdicts run DOMAIN PATH --save`로 먼저 저장해 주세요.")
                flags = "mode=ro" if os.access(self.path.parent, os.W_OK) else "mode=ro&immutable=1"
                conn = sqlite3.connect(f"{self.path.resolve().as_uri()}?{flags}", uri=True, timeout=BUSY_TIMEOUT,
                                       isolation_level=None)
            else:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise RoundsError(f"{self.path}: 회차 데이터베이스를 열 수 없습니다 ({exc}).") from None
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT * 1000)}")
            if read_only:
                self._check_version(self._version(conn))
            else:
                _switch_to_wal(conn)
                conn.execute("PRAGMA foreign_keys = ON")
                self._migrate(conn)
            yield conn
        except sqlite3.Error as exc:
            raise RoundsError(f"{self.path}: 회차 데이터베이스 오류입니다 ({exc}).") from None
        finally:
            conn.close()

    def _check_version(self, current: int) -> None:
        """A database made by a newer schema than this tool knows is refused."""
        latest = MIGRATIONS[-1][0]
        if current > latest:
            raise RoundsError(f"{self.path}: 더 새로운 판의 verdicts가 만든 회차 데이터베이스(스키마 {current})라서 "
                              f"스키마 {latest}까지 아는 이 판으로는 열지 않습니다. verdicts를 새 판으로 올려 주세요.")

    def _migrate(self, conn: sqlite3.Connection) -> None:
        self._check_version(schema_version_of(conn))
        apply_migrations(conn, MIGRATIONS, _now)

    @staticmethod
    def _version(conn: sqlite3.Connection) -> int:
        return schema_version_of(conn)

    def schema_version(self) -> int:
        with self.connect() as conn:
            return self._version(conn)

    def save(self, report: Report, input_path: str | Path, *, exit_code: int, tool_version: str = "") -> int:
        """Store ``report`` as one round in one transaction; returns its id."""
        inputs = []
        for source in report.sources:
            file = Path(file_of(source.file))  # an .xlsx sheet's file, not the sheet
            try:
                inputs.append((source.table, str(file), _sha256(file)))
            except OSError as exc:
                raise RoundsError(f"{file}: 입력 파일의 해시를 계산할 수 없어 회차를 저장하지 않았습니다 ({exc.strerror}).") from None
            except InputError as exc:  # no longer a regular file
                raise RoundsError(f"{exc} 입력 파일의 해시를 계산할 수 없어 회차를 저장하지 않았습니다.") from None
        overall = hashlib.sha256("".join(f"{t}\0{h}\n" for t, _f, h in sorted(inputs)).encode()).hexdigest()
        # stored in the very layout `--format json` prints, so `show` gives it back byte for byte
        from .domain import get_domain
        from .errors import VerdictsError

        try:
            domain = get_domain(report.domain)
        except VerdictsError:  # a report of a domain no longer installed: its JSON without the domain's sections
            domain = None
        text = render_json(report, domain).rstrip("\n")
        with self.connect() as conn:
            conn.execute("BEGIN IMMEDIATE")
            try:
                cur = conn.execute(
                    "INSERT INTO rounds (domain, saved_at, input_path, report_json, exit_code, inputs_sha256, tool_version) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (report.domain, _now(), str(input_path), text, exit_code, overall, tool_version),
                )
                round_id = cur.lastrowid
                conn.executemany("INSERT INTO round_inputs (round_id, table_name, file, sha256) VALUES (?, ?, ?, ?)",
                                 [(round_id, t, f, h) for t, f, h in inputs])
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        assert round_id is not None  # an INSERT sets it
        return int(round_id)

    def last(self, domain: str) -> StoredRound | None:
        """The most recently stored round of ``domain``, or ``None`` (read only: the
        database is never created, migrated or changed here)."""
        with self.connect(read_only=True) as conn:
            if self._version(conn) < 1:
                return None
            if self._version(conn) < 2:  # a database nobody has written to since schema 2
                row = conn.execute(
                    "SELECT id, domain, saved_at, input_path, '', report_json, exit_code, '' "
                    "FROM rounds WHERE domain = ? ORDER BY id DESC LIMIT 1", (domain,)).fetchone()
            else:
                row = conn.execute(
                    "SELECT id, domain, saved_at, input_path, inputs_sha256, report_json, exit_code, tool_version "
                    "FROM rounds WHERE domain = ? ORDER BY id DESC LIMIT 1", (domain,)).fetchone()
            if row is None:
                return None
            inputs = [{"table": t, "file": f, "sha256": h} for t, f, h in
                      conn.execute("SELECT table_name, file, sha256 FROM round_inputs WHERE round_id = ? ORDER BY rowid", (row[0],))]
        exit_code = row[6]
        if not isinstance(exit_code, int) or isinstance(exit_code, bool) or exit_code not in (0, 1, 2, 3):
            raise RoundsError(f"{self.path}: 저장된 {row[0]}번 회차의 종료 코드({code(exit_code)})가 올바르지 않습니다. "
                              "데이터베이스가 손상되었을 수 있습니다.")
        texts = [row[1], row[2], row[3], row[4], row[5], row[7]]
        if not all(isinstance(t, str) for t in texts):
            raise RoundsError(f"{self.path}: 저장된 {row[0]}번 회차의 칸 가운데 글자가 아닌 값이 있습니다. 데이터베이스가 손상되었을 수 있습니다.")
        return StoredRound(id=row[0], domain=row[1], saved_at=row[2], input_path=row[3], inputs_sha256=row[4], inputs=inputs,
                           report_json=row[5], exit_code=exit_code, tool_version=row[7])

    def count(self, domain: str | None = None) -> int:
        with self.connect() as conn:
            if domain is None:
                return conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0]
            return conn.execute("SELECT COUNT(*) FROM rounds WHERE domain = ?", (domain,)).fetchone()[0]


def schema_version_of(conn: sqlite3.Connection) -> int:
    """The highest migration applied to the database of ``conn`` (0 for none)."""
    exists = conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'").fetchone()
    if not exists:
        return 0
    row = conn.execute("SELECT MAX(version) FROM schema_version").fetchone()
    return row[0] or 0


def apply_migrations(conn: sqlite3.Connection, migrations: tuple[tuple[int, str, str], ...], now) -> None:
    """Apply the numbered ``migrations`` (version, what it changes, SQL) that the database
    lacks, in one ``BEGIN IMMEDIATE`` transaction (another process may have migrated
    meanwhile: the version is read again inside it), recording each with ``now()``."""
    if schema_version_of(conn) >= migrations[-1][0]:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)")
        current = schema_version_of(conn)
        for version, description, sql in migrations:
            if version <= current:
                continue
            for statement in (s.strip() for s in sql.split(";")):
                if statement:
                    conn.execute(statement)
            conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (version, description, now()))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
