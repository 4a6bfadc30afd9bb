"""The review queue's store and its HTTP routes, for real: SQLite on disk, the server in a
subprocess.  Decisions survive restarts, a stale second decision is refused naming who
decided first, a correction is checked against the field's pattern, broken cells are
reloaded, and time to decide is summarised."""

from __future__ import annotations

import json
import sqlite3
import urllib.error
import urllib.parse
import urllib.request

import pytest

from verdicts.extraction.review import MIGRATIONS, ReviewError, ReviewStore, StaleDecision, percentile

from .conftest import EXAMPLE, write_form
from .review_server import csrf_token, reviewing


@pytest.fixture
def store(tmp_path):
    s = ReviewStore(tmp_path / "review.sqlite3")
    s.load(EXAMPLE)
    return s


def test_paused_runs_count_their_waiting_cells(store):
    assert store.paused() == [
        {"run_id": "R-20931", "cells": 7, "waiting": 7, "broken": 0},
        {"run_id": "R-20935", "cells": 6, "waiting": 6, "broken": 0},
        {"run_id": "R-20940", "cells": 4, "waiting": 4, "broken": 0},
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
        status, where, _ = _post(base + "/review/decide", item_key="R-20931:biz_reg_no", action="correct",
                                 reviewer="김검토", new_value="123-45-67891", seen="0", opened_at="")
        assert status == 200 and where.endswith(urllib.parse.quote("R-20931:construction_capacity_krw"))
        status, _, page = _post(base + "/review/decide", item_key="R-20931:biz_reg_no", action="approve",
                                reviewer="이검토", seen="0")
        assert status == 409 and "김검토 님이" in page
        status, _, page = _post(base + "/review/decide", item_key="R-20931:construction_capacity_krw", action="correct",
                                reviewer="김검토", new_value="약 120억", seen="0")
        assert status == 422 and "형식 규칙" in page
    with reviewing(db) as base:
        status, text = _get(base + "/review/export/R-20931.json")
        rows = {r["field_name"]: r for r in json.loads(text)}
        assert rows["biz_reg_no"]["value"] == "123-45-67891" and rows["biz_reg_no"]["reviewer"] == "김검토"
        status, text = _get(base + "/review/export/R-20931.csv")
        assert "123-45-67891,correct,김검토" in text


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
    assert csv_text.splitlines()[2].endswith("approve,김검토," + store.history("R-20931:ceo_name")[0].decided_at)


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
        status, _, _ = _post(base + "/review/decide", item_key="R/20931:biz_reg_no", action="approve", reviewer="김검토", seen="0")
        assert status == 200
        status, text = _get(base + "/review/export/" + urllib.parse.quote("R/20931") + ".json")
        assert status == 200 and any(r["field_name"] == "biz_reg_no" for r in json.loads(text))
