"""The review queue's store and its HTTP routes, for real: SQLite on disk, the server in a
subprocess.  Decisions survive restarts, a stale second decision is refused naming who
decided first, a correction is checked against the field's pattern, broken cells are
reloaded, and time to decide is summarised."""

from __future__ import annotations

import json
import re
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from verdicts.extraction.review import (
    LEGACY, MIGRATIONS, CellChanged, ReviewError, ReviewStore, StaleDecision, percentile,
)

from .conftest import EXAMPLE, write_form
from .review_server import csrf_token, free_port, reviewing


@pytest.fixture
def store(tmp_path):
    s = ReviewStore(tmp_path / "review.sqlite3")
    s.load(EXAMPLE)
    return s


def test_paused_runs_count_their_waiting_cells(store):
    assert store.paused() == [
        {"run_id": "R-20931", "cells": 7, "waiting": 7, "stale": 0, "broken": 0},
        {"run_id": "R-20935", "cells": 6, "waiting": 6, "stale": 0, "broken": 0},
        {"run_id": "R-20940", "cells": 4, "waiting": 4, "stale": 0, "broken": 0},
    ]
    assert store.schema_version() == MIGRATIONS[-1][0]


def test_decisions_record_who_when_old_and_new_and_survive_a_new_store(store):
    first = store.decide("R-20931:biz_reg_no", "correct", reviewer="김검토", new_value="123-45-67891",
                         opened_at=1000.0, now=1004.5)
    assert (first.old_value, first.new_value, first.reviewer, first.seconds) == ("123-45-67819", "123-45-67891", "김검토", 4.5)
    store.decide("R-20931:ceo_name", "approve", reviewer="김검토")
    store.decide("R-20931:credit_grade", "reject", reviewer="김검토")
    again = ReviewStore(store.path)
    rows = {r["field_name"]: r for r in again.export("R-20931")}
    assert rows["biz_reg_no"]["value"] == "123-45-67891" and rows["biz_reg_no"]["decision"] == "correct"
    assert rows["ceo_name"]["value"] == "홍길동" and rows["credit_grade"]["value"] is None
    assert rows["company_name"]["decision"] is None
    assert again.paused()[0]["waiting"] == 4


def test_a_stale_second_decision_is_refused_naming_who_decided_first(store):
    store.decide("R-20931:biz_reg_no", "approve", reviewer="김검토", seen=0)
    with pytest.raises(StaleDecision, match="김검토 님이"):
        store.decide("R-20931:biz_reg_no", "reject", reviewer="이검토", seen=0)
    last = store.history("R-20931:biz_reg_no")[-1]
    later = store.decide("R-20931:biz_reg_no", "reject", reviewer="이검토", seen=last.id)
    assert later.old_value == "123-45-67819" and later.new_value is None


def test_a_correction_must_match_the_fields_pattern(store):
    with pytest.raises(ReviewError, match="형식 규칙"):
        store.decide("R-20931:construction_capacity_krw", "correct", reviewer="김검토", new_value="120억")
    done = store.decide("R-20931:construction_capacity_krw", "correct", reviewer="김검토", new_value="12034500000")
    assert done.new_value == "12034500000"
    with pytest.raises(ReviewError, match="비어"):
        store.decide("R-20931:ceo_name", "correct", reviewer="김검토", new_value=" ")


def test_reloading_a_run_keeps_its_decisions(store):
    store.decide("R-20931:ceo_name", "approve", reviewer="김검토")
    store.load(EXAMPLE)
    assert store.cell("R-20931:ceo_name").last.reviewer == "김검토"


def test_a_broken_event_is_reloaded_while_the_other_cells_are_decided(tmp_path):
    folder = write_form("jsonl", tmp_path)
    events = folder / "worker_outputs.jsonl"
    good = events.read_text(encoding="utf-8").splitlines()
    broken = list(good)
    broken[1] = broken[1][:60]
    events.write_text("\n".join(broken) + "\n", encoding="utf-8")
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(folder)
    cell = store.cell("R-20931:ceo_name")
    assert cell.broken == "worker_outputs.value"
    with pytest.raises(ReviewError, match="다시 불러와야"):
        store.decide("R-20931:ceo_name", "approve", reviewer="김검토")
    store.decide("R-20931:company_name", "approve", reviewer="김검토")
    assert store.reload("R-20931:ceo_name").broken == "worker_outputs.value"
    events.write_text("\n".join(good) + "\n", encoding="utf-8")
    fixed = store.reload("R-20931:ceo_name")
    assert fixed.broken is None and fixed.card["verdict"] == "원문과 맞음"
    assert store.cell("R-20931:company_name").last.reviewer == "김검토"


def test_time_to_decide_per_field_and_verdict(store):
    for key, seconds in (("R-20931:ceo_name", 3.0), ("R-20935:company_name", 5.0), ("R-20940:ceo_name", 10.0)):
        store.decide(key, "approve", reviewer="김검토", opened_at=100.0, now=100.0 + seconds)
    store.decide("R-20935:ceo_name", "reject", reviewer="김검토")  # no time: left out
    stats = store.stats()
    assert {r["field_name"]: (r["decisions"], r["median"], r["p90"]) for r in stats["field_name"]} == {
        "ceo_name": (2, 6.5, 9.3), "company_name": (1, 5.0, 5.0)}
    assert stats["verdict"] == [{"verdict": "원문과 맞음", "decisions": 3, "median": 5.0, "p90": 9.0}]
    assert percentile([1.0, 2.0], 90) == 1.9


def test_migrations_are_numbered_and_recorded(tmp_path):
    store = ReviewStore(tmp_path / "r.sqlite3")
    store.runs()
    with sqlite3.connect(store.path) as conn:
        assert [r[0] for r in conn.execute("SELECT version FROM schema_version")] == [m[0] for m in MIGRATIONS]


# ------------------------------------------------------------------ over HTTP, for real


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as resp:
            return resp.status, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode("utf-8")


def _shown(base: str, key: str) -> str:
    """The fingerprint the cell's page carries (what it shows of the cell)."""
    status, page = _get(base + "/review/cell/" + urllib.parse.quote(key))
    assert status == 200
    found = re.search(r'name="fingerprint" value="([0-9a-f]{64})"', page)
    assert found, page
    return found.group(1)


def _post(url: str, **fields) -> tuple[int, str, str]:
    # as a browser does: the page that holds the form gives the server's token
    fields.setdefault("csrf_token", csrf_token(url, fields.get("item_key")))
    data = urllib.parse.urlencode(fields).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST"), timeout=30) as resp:
            return resp.status, resp.url, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, url, exc.read().decode("utf-8")


def test_served_queue_decisions_survive_a_restart(tmp_path):
    db = tmp_path / "review.sqlite3"
    with reviewing(db, EXAMPLE) as base:
        status, page = _get(base + "/review")
        assert status == 200 and "R-20931" in page and "멈춘 실행" in page
        assert "쪽수만 틀린 칸은 1칸입니다." in page  # R-20935:credit_valid_until
        status, page = _get(base + "/review/cell/" + urllib.parse.quote("R-20935:credit_valid_until"))
        assert '<mark id="phrase">유효기간 : 2027-02-02</mark>' in page and "2쪽을 보여 드립니다" in page
        shown = _shown(base, "R-20931:biz_reg_no")
        status, where, _ = _post(base + "/review/decide", item_key="R-20931:biz_reg_no", action="correct",
                                 reviewer="김검토", new_value="123-45-67891", seen="0", opened_at="", fingerprint=shown)
        assert status == 200 and where.endswith(urllib.parse.quote("R-20931:construction_capacity_krw"))
        status, _, page = _post(base + "/review/decide", item_key="R-20931:biz_reg_no", action="approve",
                                reviewer="이검토", seen="0", fingerprint=shown)
        assert status == 409 and "김검토 님이" in page
        status, _, page = _post(base + "/review/decide", item_key="R-20931:construction_capacity_krw", action="correct",
                                reviewer="김검토", new_value="약 120억", seen="0",
                                fingerprint=_shown(base, "R-20931:construction_capacity_krw"))
        assert status == 422 and "형식 규칙" in page
    with reviewing(db) as base:
        status, text = _get(base + "/review/export/R-20931.json")
        rows = {r["field_name"]: r for r in json.loads(text)}
        assert rows["biz_reg_no"]["value"] == "123-45-67891" and rows["biz_reg_no"]["reviewer"] == "김검토"
        status, text = _get(base + "/review/export/R-20931.csv")
        assert "R-20931:biz_reg_no,R-20931,biz_reg_no,decided,원문 값과 다름,123-45-67819,123-45-67891,correct,김검토" in text


def test_an_empty_queue_offers_the_sample_run(tmp_path):
    with reviewing(tmp_path / "empty.sqlite3") as base:
        status, page = _get(base + "/review")
        assert "검토할 칸이 없습니다" in page and "샘플 실행 열기" in page
        status, where, page = _post(base + "/review/sample")
        assert status == 200 and "R-20940" in page


def test_verdicts_review_stats_and_export(store, tmp_path):
    import subprocess
    import sys

    store.decide("R-20931:ceo_name", "approve", reviewer="김검토", opened_at=10.0, now=12.0)
    from pathlib import Path

    run = [str(Path(sys.executable).parent / "verdicts"), "review"]
    out = subprocess.run([*run, "stats", "--db", str(store.path)], capture_output=True, text=True, check=True).stdout
    assert "ceo_name\t결정 1건\t중앙값 2.0초\t90백분위 2.0초" in out and "■ 판정별" in out
    data = json.loads(subprocess.run([*run, "stats", "--db", str(store.path), "-f", "json"], capture_output=True,
                                     text=True, check=True).stdout)
    assert data["verdict"][0]["verdict"] == "원문과 맞음"
    csv_text = subprocess.run([*run, "export", "R-20931", "--db", str(store.path)], capture_output=True, text=True,
                              check=True).stdout
    assert csv_text.splitlines()[2].endswith("decided,원문과 맞음,홍길동,홍길동,approve,김검토,"
                                             + store.history("R-20931:ceo_name")[0].decided_at + ",")


def test_a_page_that_cannot_be_loaded_puts_its_cells_in_the_reload_state(tmp_path):
    import csv

    from .conftest import read_example

    tables = read_example()
    for row in tables["source_pages"]:
        if row["run_id"] == "R-20931" and row["page"] == "2":
            row["text"] = "사업자등록증\x00"
    for name, rows in tables.items():
        with open(tmp_path / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, list(rows[0]), delimiter="\t" if name == "source_pages" else ",", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(tmp_path)
    assert store.cell("R-20931:biz_reg_no").broken == "source_pages.text"
    assert [r["broken"] for r in store.runs()] == [1, 0, 0]
    assert store.cell("R-20931:ceo_name").broken is None


def test_the_kits_report_screen_is_served_beside_the_queue(tmp_path):
    with reviewing(tmp_path / "review.sqlite3") as base:
        status, page = _get(base + "/sample")
        assert status == 200 and "R-20931:biz_reg_no" in page and "원문 값과 다름" in page
        status, page = _get(base + "/")
        assert status == 200 and "/review" in page


def test_ids_with_a_slash_can_be_opened_decided_and_exported(tmp_path):
    # a run id holding "/" (and so every cell key of it): every page of the queue opens
    import csv

    from .conftest import read_example

    tables = read_example()
    for rows in tables.values():
        for row in rows:
            for key in ("run_id", "item_key"):
                if key in row and row[key]:
                    row[key] = row[key].replace("R-20931", "R/20931")
    for name, rows in tables.items():
        with open(tmp_path / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, list(rows[0]), delimiter="\t" if name == "source_pages" else ",", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    with reviewing(tmp_path / "review.sqlite3", tmp_path) as base:
        status, page = _get(base + "/review/run/" + urllib.parse.quote("R/20931"))
        assert status == 200 and "R/20931:biz_reg_no" in page
        status, page = _get(base + "/review/cell/" + urllib.parse.quote("R/20931:biz_reg_no"))
        assert status == 200 and "biz_reg_no" in page
        status, _, _ = _post(base + "/review/decide", item_key="R/20931:biz_reg_no", action="approve", reviewer="김검토", seen="0",
                             fingerprint=_shown(base, "R/20931:biz_reg_no"))
        assert status == 200
        status, text = _get(base + "/review/export/" + urllib.parse.quote("R/20931") + ".json")
        assert status == 200 and any(r["field_name"] == "biz_reg_no" for r in json.loads(text))


# ------------------------------------------------------------------ decisions bound to what was seen (issue 31)


def _copy_example(folder):
    """The bundled runs as CSVs in ``folder`` (to change them as a re-run would)."""
    import shutil

    folder.mkdir(exist_ok=True)
    for name in ("worker_outputs", "source_pages", "field_rules"):
        shutil.copy(EXAMPLE / f"{name}.csv", folder / f"{name}.csv")
    return folder


def _rerun(folder, **values):
    """The worker's values of R-20931 changed (``field=value``), as a re-run brings them."""
    import csv

    path = folder / "worker_outputs.csv"
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        if row["run_id"] == "R-20931" and row["field_name"] in values:
            row["value"] = values[row["field_name"]]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(rows[0]), lineterminator="\n")
        w.writeheader()
        w.writerows(rows)


CAPACITY, BIZ = "R-20931:construction_capacity_krw", "R-20931:biz_reg_no"


def test_a_decision_records_what_it_was_made_on_and_goes_stale_when_the_cell_changes(tmp_path):
    folder = _copy_example(tmp_path / "runs")
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(folder)
    before = store.cell(CAPACITY)
    done = store.decide(CAPACITY, "correct", reviewer="김검토", new_value="12034500000", shown=before.fingerprint)
    assert (done.ai_value, done.source_value, done.verdict) == ("약 120억", "12,034,500,000", "형식이 규칙과 다름")
    assert done.fingerprint == before.fingerprint and store.cell(CAPACITY).state == "decided"
    _rerun(folder, construction_capacity_krw="12034500001")
    store.load(folder)  # the re-run's values replace the card; the decision stays, but stale
    cell = store.cell(CAPACITY)
    assert cell.state == "stale" and cell.waiting and cell.current is None and cell.last.id == done.id
    assert cell.changed() == ["AI 값(`약 120억` → `12034500001`)", "판정(형식이 규칙과 다름 → 원문 값과 다름)"]
    assert store.paused()[0]["stale"] == 1 and store.next_waiting("R-20931") == "R-20931:company_name"
    row = next(r for r in store.export("R-20931") if r["item_key"] == CAPACITY)
    # the export never pairs the correction with a value it was not made on
    assert (row["state"], row["value"], row["decision"], row["reviewer"]) == ("stale", "12034500001", None, None)
    assert row["stale_decision"] == {"decision": "correct", "value": "12034500000", "reviewer": "김검토",
                                     "decided_at": done.decided_at, "ai_value": "약 120억",
                                     "source_value": "12,034,500,000", "verdict": "형식이 규칙과 다름"}
    line = next(x for x in store.export_csv("R-20931").splitlines() if x.startswith(CAPACITY))
    assert line.startswith(f"{CAPACITY},R-20931,construction_capacity_krw,stale,원문 값과 다름,12034500001,12034500001,,,,")
    assert json.loads(next(csv_row for csv_row in __import__("csv").reader([line]))[-1])["value"] == "12034500000"
    # decided again on what it holds now: approving starts from the AI's new value
    again = store.decide(CAPACITY, "approve", reviewer="이검토", seen=done.id, shown=cell.fingerprint)
    assert (again.old_value, again.new_value) == ("12034500001", "12034500001")
    assert store.cell(CAPACITY).state == "decided"
    # the values come back: the first decision is not current again, the last one is
    _rerun(folder, construction_capacity_krw="약 120억")
    store.load(folder)
    assert store.cell(CAPACITY).state == "stale"


def test_a_decision_from_a_page_older_than_the_cell_is_refused_saying_what_changed(tmp_path):
    folder = _copy_example(tmp_path / "runs")
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(folder)
    shown = store.cell(BIZ).fingerprint
    _rerun(folder, biz_reg_no="123-45-67891")
    store.load(folder)
    with pytest.raises(StaleDecision, match=r"바뀐 것은 AI 값\(`123-45-67819` → `123-45-67891`\), "
                                            r"판정\(원문 값과 다름 → 원문과 맞음\)입니다\.") as refused:
        store.decide(BIZ, "approve", reviewer="김검토", shown=shown)
    assert isinstance(refused.value, CellChanged)
    with pytest.raises(CellChanged, match="어떤 값을 보여 줬는지 알 수 없어"):
        store.decide(BIZ, "approve", reviewer="김검토", shown="")
    with pytest.raises(CellChanged, match="바뀌어 이 결정은 받지 않았습니다. 지금 값을"):
        store.decide(BIZ, "approve", reviewer="김검토", shown="0" * 64)  # a state the cell never had
    # the refusal comes before a correction's own check
    with pytest.raises(CellChanged):
        store.decide(BIZ, "correct", reviewer="김검토", new_value="bad", shown=shown)
    assert store.history(BIZ) == []
    assert store.decide(BIZ, "approve", reviewer="김검토", shown=store.cell(BIZ).fingerprint).new_value == "123-45-67891"


def test_a_version_1_database_is_migrated_and_its_old_decisions_bound_or_stale(tmp_path):
    # a database made before decisions recorded what they were made on (schema version 1)
    from verdicts.extraction import judge_batch
    from verdicts.rounds import apply_migrations

    path = tmp_path / "old.sqlite3"
    cards = {c.key: c.to_json() for c in judge_batch(EXAMPLE).cards}
    conn = sqlite3.connect(path, isolation_level=None)
    apply_migrations(conn, MIGRATIONS[:1], lambda: "2026-01-01T00:00:00+00:00")
    conn.execute("INSERT INTO runs VALUES ('R-20931', ?, '{}', '2026-01-01T00:00:00+00:00')", (str(EXAMPLE),))
    for position, key in enumerate((CAPACITY, BIZ, "R-20931:ceo_name")):
        conn.execute("INSERT INTO cells VALUES (?, 'R-20931', ?, ?, 'label', NULL, ?, NULL)",
                     (key, key.split(":")[1], position, json.dumps(cards[key], ensure_ascii=False)))
    old = ("INSERT INTO decisions (item_key, run_id, field_name, verdict, action, old_value, new_value, reviewer, decided_at, "
           "seconds) VALUES (?, 'R-20931', ?, ?, ?, ?, ?, '김검토', '2026-01-02T00:00:00+00:00', NULL)")
    # made on the cell as stored: its verdict and the AI value it started from are the cell's
    conn.execute(old, (CAPACITY, "construction_capacity_krw", "형식이 규칙과 다름", "correct", "약 120억", "12034500000"))
    conn.execute(old, (CAPACITY, "construction_capacity_krw", "형식이 규칙과 다름", "approve", "12034500000", "12034500000"))
    # made under another verdict: the cell was reloaded after it
    conn.execute(old, (BIZ, "biz_reg_no", "원문과 맞음", "approve", "123-45-67819", "123-45-67819"))
    # made on another AI value
    conn.execute(old, ("R-20931:ceo_name", "ceo_name", "원문과 맞음", "approve", "홍길순", "홍길순"))
    conn.close()
    store = ReviewStore(path)
    assert store.schema_version() == MIGRATIONS[-1][0]
    capacity = store.cell(CAPACITY)
    assert capacity.state == "decided" and capacity.last.ai_value == "약 120억"
    assert capacity.last.fingerprint == capacity.fingerprint
    biz = store.cell(BIZ)
    assert biz.state == "stale" and biz.last.fingerprint == LEGACY
    # the source value was never recorded: only what was is compared
    assert biz.changed() == ["판정(원문과 맞음 → 원문 값과 다름)"]
    ceo = store.cell("R-20931:ceo_name")
    assert ceo.state == "stale" and ceo.changed() == ["AI 값(`홍길순` → `홍길동`)"]
    rows = {r["item_key"]: r for r in store.export("R-20931")}
    assert rows[CAPACITY]["value"] == "12034500000" and rows[BIZ]["decision"] is None
    # the migration ran once, in order, and a second store finds nothing to do
    with sqlite3.connect(path) as c:
        assert [r[0] for r in c.execute("SELECT version FROM schema_version")] == [m[0] for m in MIGRATIONS]
    assert ReviewStore(path).cell(BIZ).state == "stale"


def test_an_unread_page_row_puts_the_cells_citing_it_in_the_reload_state_and_an_absent_page_does_not(tmp_path):
    import csv

    from .conftest import read_example

    tables = read_example()
    for row in tables["source_pages"]:
        if row["run_id"] == "R-20931" and row["page"] == "2":
            row["page"] = "둘째"
    for row in tables["worker_outputs"]:
        if row["field_name"] == "company_name" and row["run_id"] in ("R-20931", "R-20935"):
            row["evidence_page"] = "9"
    for name, rows in tables.items():
        with open(tmp_path / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, list(rows[0]), delimiter="\t" if name == "source_pages" else ",", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(tmp_path)
    # a page of R-20931 could not be loaded (its number is unreadable): the cells citing
    # page 2, or a page the run lacks (9: that row may be it), wait for a reload, undecidable
    assert store.cell(BIZ).broken == "source_pages.text"
    assert store.cell("R-20931:company_name").broken == "source_pages.text"
    with pytest.raises(ReviewError, match="다시 불러와야"):
        store.decide(BIZ, "approve", reviewer="김검토")
    assert store.cell("R-20931:ceo_name").broken is None  # page 1 was loaded
    # R-20935 has every page: its page 9 does not exist, a finding about the worker's output, decided as usual
    absent = store.cell("R-20935:company_name")
    assert absent.broken is None and absent.card["verdict"] == "근거 문구가 원문에 없음"
    assert "9쪽은 이 실행의 원문(3쪽까지)에 없는 쪽" in absent.card["summary"]
    assert store.decide("R-20935:company_name", "reject", reviewer="김검토").action == "reject"


# ------------------------------------------------------------------ over HTTP, with a restart between the change and the post


def test_served_a_change_between_opening_and_posting_is_refused_and_a_decided_cell_returns_stale(tmp_path):
    folder = _copy_example(tmp_path / "runs")
    db = tmp_path / "review.sqlite3"
    port = free_port()
    with reviewing(db, folder, port=port) as base:
        status, where, _ = _post(base + "/review/decide", item_key=CAPACITY, action="approve", reviewer="김검토", seen="0",
                                 fingerprint=_shown(base, CAPACITY))
        assert status == 200
        opened = _shown(base, BIZ)  # a page opened now, posted after the restart
    _rerun(folder, construction_capacity_krw="12034500000", biz_reg_no="123-45-67891")
    with reviewing(db, folder, port=port) as base:
        status, _, page = _post(base + "/review/decide", item_key=BIZ, action="approve", reviewer="김검토", seen="0",
                                fingerprint=opened)
        assert status == 409
        assert ("이 칸은 결정을 보낸 화면을 연 뒤에 바뀌어 이 결정은 받지 않았습니다. 바뀐 것은 "
                "AI 값(`123-45-67819` → `123-45-67891`), 판정(원문 값과 다름 → 원문과 맞음)입니다.") in page
        assert f'name="fingerprint" value="{_shown(base, BIZ)}"' in page  # the refusal shows the cell as it is now
        status, _, _ = _post(base + "/review/decide", item_key=BIZ, action="approve", reviewer="김검토", seen="0")
        assert status == 409  # a form that does not say what it showed is refused too
        rows = {r["item_key"]: r for r in json.loads(_get(base + "/review/export/R-20931.json")[1])}
        assert rows[BIZ]["decision"] is None and rows[BIZ]["state"] == "waiting"
        # the approved cell is back in the queue, marked, with the old decision shown
        assert rows[CAPACITY]["state"] == "stale" and rows[CAPACITY]["value"] == "12034500000"
        assert rows[CAPACITY]["decision"] is None and rows[CAPACITY]["stale_decision"]["ai_value"] == "약 120억"
        status, page = _get(base + "/review/cell/" + urllib.parse.quote(CAPACITY))
        assert 'id="stale"' in page and "값이 바뀌어 다시 검토" in page and "승인한 결정은 지금과 다른 값을 보고" in page
        assert "AI 값(`약 120억` → `12034500000`), 판정(형식이 규칙과 다름 → 원문과 맞음)" in page
        assert 'id="approve"' in page
        status, page = _get(base + "/review")
        row = re.search(r'<tr class="stale">.*?</tr>', page).group(0)
        assert CAPACITY in row and '<td class="state">값이 바뀌어 다시 검토</td>' in row
        assert '<td class="stale-count">1</td>' in page
        last = json.loads(_get(base + "/review/export/R-20931.json")[1])
        seen = next(r for r in last if r["item_key"] == CAPACITY)["stale_decision"]
        assert seen["decision"] == "approve"
        decision_id = re.search(r'name="seen" value="(\d+)"', _get(base + "/review/cell/" + urllib.parse.quote(CAPACITY))[1])
        status, _, _ = _post(base + "/review/decide", item_key=CAPACITY, action="approve", reviewer="이검토",
                             seen=decision_id.group(1), fingerprint=_shown(base, CAPACITY))
        assert status == 200
        rows = {r["item_key"]: r for r in json.loads(_get(base + "/review/export/R-20931.json")[1])}
        assert rows[CAPACITY]["state"] == "decided" and rows[CAPACITY]["value"] == "12034500000"
        assert rows[CAPACITY]["reviewer"] == "이검토" and rows[CAPACITY]["stale_decision"] is None


def test_served_queue_is_grouped_by_verdict_and_shows_no_raw_none(tmp_path):
    from verdicts.extraction.model import VERDICTS

    with reviewing(tmp_path / "review.sqlite3", EXAMPLE) as base:
        status, page = _get(base + "/review")
        groups = re.findall(r'<tbody class="group" data-group="([^"]+)"><tr><th colspan="4" scope="rowgroup">'
                            r'<span class="group-name">[^<]+</span> <span class="count">(\d+)칸</span>', page)
        assert [g for g, _ in groups] == [v for v in VERDICTS]  # the rules' order, every verdict present here
        assert dict(groups) == {"필수 칸이 빔": "2", "형식이 규칙과 다름": "1", "근거 문구가 원문에 없음": "3",
                                "원문 값과 다름": "1", "원문과 맞음": "10"}
        assert sum(int(n) for _, n in groups) == 17
        status, page = _get(base + "/review/run/R-20935")
        assert re.findall(r'data-group="([^"]+)"', page) == ["필수 칸이 빔", "근거 문구가 원문에 없음", "원문과 맞음"]
        # a cell without an AI value (no row) and without a source value, and its history
        status, _, _ = _post(base + "/review/decide", item_key="R-20935:ceo_name", action="reject", reviewer="김검토",
                             seen="0", fingerprint=_shown(base, "R-20935:ceo_name"))
        for path in ("/review", "/review/run/R-20935", "/review/cell/R-20935%3Aceo_name", "/review/stats"):
            status, page = _get(base + path)
            assert status == 200 and "None" not in page, path
        status, page = _get(base + "/review/cell/R-20935%3Aceo_name")
        assert '<code id="ai-value"></code>' in page and '<code id="source-value"></code>' in page
