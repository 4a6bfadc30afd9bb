"""The rounds database: save and show through the real command, migrations, a failed
run storing nothing, and several processes saving at once."""

from __future__ import annotations

import json
import multiprocessing
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import BIN, EXAMPLES, ROOT
from verdicts.errors import VerdictsError
from verdicts.robot import judge_round
from verdicts.rounds import MIGRATIONS, RoundStore, default_db_path

ROBOT = EXAMPLES / "robot"
LIGHTHOUSE = EXAMPLES / "lighthouse" / "scenario.csv"


def test_save_then_show_gives_back_the_round_as_it_was(cli, tmp_path):
    db = tmp_path / "nested" / "dir" / "rounds.sqlite3"
    assert not db.exists()
    ran = cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, "--format", "json", check_code=1)
    assert db.exists() and "1번 회차로 저장했습니다" in ran.stderr
    shown = cli("verdicts", "show", "robot", "--db", db, "--format", "json", check_code=1)
    assert shown.stdout == ran.stdout  # byte for byte
    text_run = cli("verdicts", "run", "robot", ROBOT, check_code=1).stdout
    text_show = cli("verdicts", "show", "robot", "--db", db, check_code=1).stdout
    header, _, body = text_show.partition("\n\n")
    assert header.startswith("저장된 회차 #1 · ") and str(ROBOT) in header
    assert body == text_run


def test_show_is_per_domain_and_works_for_storygraph_too(cli, tmp_path):
    db = tmp_path / "rounds.sqlite3"
    robot = cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, "--format", "json").stdout
    story = cli("verdicts", "run", "storygraph", LIGHTHOUSE, "--save", "--db", db, "--format", "json").stdout
    assert cli("verdicts", "show", "robot", "--db", db, "--format", "json").stdout == robot
    assert cli("verdicts", "show", "storygraph", "--db", db, "--format", "json").stdout == story


def test_the_last_round_is_shown(cli, tmp_path):
    db = tmp_path / "rounds.sqlite3"
    cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db)
    smaller = tmp_path / "round"
    smaller.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        lines = (ROBOT / f"{name}.csv").read_text(encoding="utf-8").splitlines()
        keep = lines[:1] + [ln for ln in lines[1:] if ln.startswith("pick-bin-A01,")]
        (smaller / f"{name}.csv").write_text("\n".join(keep) + "\n", encoding="utf-8")
    cli("verdicts", "run", "robot", smaller, "--save", "--db", db, check_code=0)
    shown = json.loads(cli("verdicts", "show", "robot", "--db", db, "--format", "json", check_code=0).stdout)
    assert [c["task_id"] for c in shown["cards"]] == ["pick-bin-A01"]
    assert RoundStore(db).count("robot") == 2


def test_a_failed_run_stores_nothing(cli, tmp_path):
    db = tmp_path / "rounds.sqlite3"
    proc = cli("verdicts", "run", "robot", tmp_path / "nowhere", "--save", "--db", db, check_code=2)
    assert "Traceback" not in proc.stderr
    assert not db.exists() or RoundStore(db).count() == 0
    cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, check_code=1)
    cli("verdicts", "run", "robot", tmp_path / "nowhere", "--save", "--db", db, check_code=2)
    assert RoundStore(db).count() == 1


def test_a_save_that_cannot_hash_its_inputs_stores_nothing(tmp_path):
    folder = tmp_path / "round"
    folder.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        (folder / f"{name}.csv").write_bytes((ROBOT / f"{name}.csv").read_bytes())
    report = judge_round(folder)
    (folder / "dataset_index.csv").unlink()
    store = RoundStore(tmp_path / "rounds.sqlite3")
    with pytest.raises(VerdictsError):
        store.save(report, folder, exit_code=1)
    assert store.count() == 0


def test_show_without_a_stored_round(cli, tmp_path):
    """A mistyped --db is an error and creates nothing; a database without a round of the
    domain says so."""
    missing = tmp_path / "empty.sqlite3"
    proc = cli("verdicts", "show", "robot", "--db", missing, check_code=2)
    assert "회차 데이터베이스가 없습니다" in proc.stderr and not missing.exists()
    db = tmp_path / "other.sqlite3"
    RoundStore(db).schema_version()  # an empty, migrated database
    proc = cli("verdicts", "show", "robot", "--db", db, check_code=1)
    assert "저장된 robot 회차가 없습니다" in proc.stderr


def test_a_database_from_a_newer_schema_is_refused(cli, tmp_path):
    import sqlite3

    db = tmp_path / "newer.sqlite3"
    RoundStore(db).schema_version()
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_version VALUES (99, 'from the future', '2030-01-01')")
    for args in (("show", "robot"), ("run", "robot", str(ROBOT), "--save")):
        proc = cli("verdicts", *args, "--db", db, check_code=2)
        assert "더 새로운 판" in proc.stderr and "스키마 99" in proc.stderr and "Traceback" not in proc.stderr
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT COUNT(*) FROM rounds").fetchone()[0] == 0  # nothing written


def test_show_reads_a_database_in_a_read_only_folder(cli, tmp_path):
    if os.geteuid() == 0:
        import pytest

        pytest.skip("root writes into a read-only folder anyway")
    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "rounds.sqlite3"
    cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, check_code=1)
    folder.chmod(0o555)
    try:
        proc = cli("verdicts", "show", "robot", "--db", db, check_code=1)
        assert proc.stdout.startswith("저장된 회차 #1")
    finally:
        folder.chmod(0o755)


def test_show_reads_without_writing(cli, tmp_path):
    """Even for root, whom a read-only folder does not stop: show opens the database read
    only, so the database file is left byte for byte as it was (SQLite may add its shared
    memory index beside a WAL database, as any reader does)."""
    db = tmp_path / "rounds.sqlite3"
    cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, check_code=1)
    before = db.read_bytes()
    cli("verdicts", "show", "robot", "--db", db, check_code=1)
    assert db.read_bytes() == before


def test_stored_values_are_checked_on_read(cli, tmp_path):
    import sqlite3

    db = tmp_path / "rounds.sqlite3"
    cli("verdicts", "run", "robot", ROBOT, "--save", "--db", db, check_code=1)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rounds SET exit_code = 77")
    proc = cli("verdicts", "show", "robot", "--db", db, check_code=2)
    assert "종료 코드" in proc.stderr and "Traceback" not in proc.stderr
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE rounds SET exit_code = 1, report_json = '{not json'")
    for fmt in ("text", "json"):
        proc = cli("verdicts", "show", "robot", "--db", db, "--format", fmt, check_code=2)
        assert "보고서를 읽을 수 없습니다" in proc.stderr and "Traceback" not in proc.stderr


def test_the_path_comes_from_the_environment(tmp_path):
    db = tmp_path / "from-env.sqlite3"
    env = {**os.environ, "VERDICTS_DB": str(db)}
    proc = subprocess.run([str(BIN / "verdicts"), "run", "robot", str(ROBOT), "--save"], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1 and db.exists()
    env.pop("VERDICTS_DB")
    env["XDG_DATA_HOME"] = str(tmp_path / "xdg")
    code = "from verdicts.rounds import default_db_path; print(default_db_path())"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60).stdout.strip()
    assert out == str(tmp_path / "xdg" / "verdicts" / "rounds.sqlite3")
    assert default_db_path().name == "rounds.sqlite3"


def test_migrations_are_applied_in_order_to_an_old_database(tmp_path):
    db = tmp_path / "old.sqlite3"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE schema_version (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)")
    version, description, sql = MIGRATIONS[0]
    conn.executescript(sql)
    conn.execute("INSERT INTO schema_version VALUES (?, ?, ?)", (version, description, "2026-01-01T00:00:00+00:00"))
    report = json.dumps({"cards": [], "issues": [], "checks": [], "inputs": []})
    conn.execute("INSERT INTO rounds (domain, saved_at, input_path, report_json, exit_code) VALUES ('robot', 't', 'old', ?, 0)", (report,))
    conn.commit()
    conn.close()
    store = RoundStore(db)
    assert store.schema_version() == MIGRATIONS[-1][0]
    old = store.last("robot")
    assert old.input_path == "old" and old.inputs_sha256 == "" and old.report_json == report
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT version FROM schema_version ORDER BY version")] == [m[0] for m in MIGRATIONS]
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()
    store.save(judge_round(ROBOT), ROBOT, exit_code=1)
    assert store.count("robot") == 2 and len(store.last("robot").inputs) == 3


def _save_many(db: str, n: int) -> list[int]:
    report = judge_round(ROBOT)
    store = RoundStore(db)
    return [store.save(report, ROBOT, exit_code=1) for _ in range(n)]


def test_processes_saving_at_once_on_a_fresh_database(tmp_path):
    db = str(tmp_path / "busy.sqlite3")
    with multiprocessing.get_context("spawn").Pool(4) as pool:
        ids = [i for chunk in pool.starmap(_save_many, [(db, 8)] * 4) for i in chunk]
    assert sorted(ids) == list(range(1, 33))
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert conn.execute("SELECT COUNT(*) FROM round_inputs").fetchone()[0] == 32 * 3
    assert conn.execute("SELECT COUNT(DISTINCT report_json) FROM rounds").fetchone()[0] == 1
    assert [r[0] for r in conn.execute("SELECT version FROM schema_version")] == [m[0] for m in MIGRATIONS]
    conn.close()


def test_commands_saving_at_once(tmp_path):
    db = tmp_path / "cli.sqlite3"
    procs = [subprocess.Popen([str(BIN / "verdicts"), "run", "robot", str(ROBOT), "--save", "--db", str(db), "--format", "json"],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
    outs = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [1] * 6, [err for _, err in outs]
    store = RoundStore(db)
    assert store.count("robot") == 6
    assert json.loads(store.last("robot").report_json) == json.loads(outs[0][0])


def test_a_round_in_a_folder_whose_name_holds_a_hash_is_saved(cli, tmp_path):
    """A ``#`` in a folder or file name is part of the name (only an .xlsx sheet suffix is
    not): the inputs are hashed where they are and the round is stored."""
    import shutil

    folder = tmp_path / "회차 #2"
    shutil.copytree(ROBOT, folder)
    db = tmp_path / "rounds.sqlite3"
    proc = cli("verdicts", "run", "robot", folder, "--save", "--db", db, check_code=1)
    assert "1번 회차로 저장했습니다" in proc.stderr
    stored = RoundStore(db).last("robot")
    assert stored is not None and all(i["file"].startswith(str(folder)) for i in stored.inputs)
