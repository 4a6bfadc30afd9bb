"""Bad input never crashes and never hides the rest: each problem is an issue naming
table, line, column and reason, only the cells that depend on it stop, the others are
judged as before."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from verdicts.extraction import judge_batch
from verdicts.extraction.model import MAX_PAGE_CHARS

from .conftest import read_example, write_form

NAMES = ("worker_outputs", "source_pages", "field_rules")


def write(folder: Path, tables: dict) -> Path:
    for name in NAMES:
        rows = tables[name]
        with open(folder / f"{name}.csv", "w", newline="", encoding="utf-8") as f:
            w = csv.DictWriter(f, list(rows[0]), delimiter="\t" if name == "source_pages" else ",", lineterminator="\n")
            w.writeheader()
            w.writerows(rows)
    return folder


def _row(rows, **match):
    return next(r for r in rows if all(r[k] == v for k, v in match.items()))


def _cards(report):
    return {c.key: c for c in report.cards}


def _issue(report, **fields):
    hits = [i for i in report.issues if all(getattr(i, k) == v for k, v in fields.items())]
    assert hits, (fields, [i.to_json() for i in report.issues])
    issue = hits[0]
    assert issue.file and issue.table and issue.reason.endswith("니다.")
    for fallback in ("이(가)", "을(를)", "은(는)", "와(과)", "(으)로"):
        assert fallback not in issue.reason
    return issue


def _unchanged(report, *except_keys):
    """Every other card keeps the verdict it has on the clean example."""
    base = _cards(judge_batch(write_form("csv", None)))
    for key, card in _cards(report).items():
        if key not in except_keys and key in base:
            assert card.verdict == base[key].verdict, key


def test_a_page_number_that_is_not_a_number(tmp_path):
    t = read_example()
    _row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name")["evidence_page"] = "첫쪽"
    report = judge_batch(write(tmp_path, t))
    issue = _issue(report, table="worker_outputs", column="evidence_page", line=3)
    assert "`첫쪽`" in issue.reason
    card = _cards(report)["R-20931:ceo_name"]
    assert card.verdict is None and "`evidence_page` 열의 `첫쪽`을 읽을 수 없어" in card.withheld["reason"]
    assert [(w["table"], w["line"], w["column"]) for w in card.withheld["where"]] == [("worker_outputs", 3, "evidence_page")]
    # the worker's unreadable page is an input issue on its row; the checks judge our verdicts, which are right
    assert all(r.passed for r in report.checks)
    _unchanged(report, "R-20931:ceo_name")


def test_a_page_past_the_runs_last(tmp_path):
    t = read_example()
    _row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name")["evidence_page"] = "9"
    report = judge_batch(write(tmp_path, t))
    issue = _issue(report, table="worker_outputs", column="evidence_page", line=3)
    assert "9쪽" in issue.reason and "4쪽까지" in issue.reason
    card = _cards(report)["R-20931:ceo_name"]
    assert card.verdict == "근거 문구가 원문에 없음" and "1쪽 입찰 참가 신청서" in card.hedge
    # issue 31, item 5: a worker citing a page that does not exist made self-check 3 fail
    # (exit 3, "our verdicts may be wrong"); it is a finding about the input, the checks pass
    assert all(r.passed for r in report.checks)
    _unchanged(report, "R-20931:ceo_name")


def test_a_page_missing_between_the_runs_pages_is_a_finding_on_the_row(tmp_path):
    t = read_example()
    _row(t["source_pages"], run_id="R-20931", page="3")["page"] = "5"
    report = judge_batch(write(tmp_path, t))
    issue = _issue(report, table="worker_outputs", column="evidence_page", line=5)
    assert issue.reason == "`R-20931`의 원문은 5쪽까지 있지만 3쪽이 빠져 있어 근거 쪽수 3쪽은 없는 쪽입니다."
    card = _cards(report)["R-20931:construction_capacity_krw"]
    assert card.verdict == "형식이 규칙과 다름" and card.source_value is None
    assert all(r.passed for r in report.checks)


def test_a_card_resting_on_a_page_that_does_not_exist_still_fails_check_3(tmp_path):
    from verdicts.extraction.checks import CHECKS, CheckContext

    t = read_example()
    _row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name")["evidence_page"] = "9"
    report = judge_batch(write(tmp_path, t))
    cards = [c.to_json() for c in report.cards]
    card = next(c for c in cards if c["item_key"] == "R-20931:ceo_name")
    card["verdict"], card["source_value"] = "원문과 맞음", "홍길동"  # a verdict that rests on page 9
    results = {r.id: r for r in CHECKS.run(CheckContext(report.inputs.tables, cards))}
    assert results["3"].failed_targets == ["R-20931:ceo_name"]


def test_a_page_row_that_cannot_be_read_stops_the_cells_citing_a_missing_page(tmp_path):
    # the row of page 2 of R-20931 has a page number that cannot be read: the page cannot
    # be loaded, so the cells citing page 2 stop (the review queue's reload state)
    # instead of being judged 근거 문구가 원문에 없음 as if the worker cited a page that does not exist
    t = read_example()
    _row(t["source_pages"], run_id="R-20931", page="2")["page"] = "둘째"
    report = judge_batch(write(tmp_path, t))
    _issue(report, table="source_pages", column="page", line=_source_line(tmp_path, "둘째"))
    assert not [i for i in report.issues if i.table == "worker_outputs" and i.column == "evidence_page"]
    card = _cards(report)["R-20931:biz_reg_no"]
    line = _source_line(tmp_path, "둘째")
    assert card.verdict is None and card.withheld["reason"].startswith(
        f"`source_pages` 표 {line}번째 줄을 읽지 못해 근거로 든 2쪽을 불러올 수 없어 ")
    assert [(w["table"], w["line"], w["column"]) for w in card.withheld["where"]] == [("source_pages", line, "page")]
    assert all(r.passed for r in report.checks)
    assert _cards(report)["R-20931:ceo_name"].verdict == "원문과 맞음"


def _source_line(folder: Path, text: str) -> int:
    lines = (folder / "source_pages.csv").read_text(encoding="utf-8").split("\n")
    return next(i for i, line in enumerate(lines, start=1) if line.startswith(f"R-20931\t{text}\t"))


def test_a_pattern_that_is_not_a_regular_expression(tmp_path):
    t = read_example()
    _row(t["field_rules"], field_name="biz_reg_no")["pattern"] = r"^(\d{3}-\d{2}-\d{5}$"
    report = judge_batch(write(tmp_path, t))
    _issue(report, table="field_rules", column="pattern", line=4)
    cards = _cards(report)
    for run in ("R-20931", "R-20935", "R-20940"):
        assert cards[f"{run}:biz_reg_no"].verdict is None
        assert "`field_rules` 표 4번째 줄 `pattern` 열의" in cards[f"{run}:biz_reg_no"].withheld["reason"]
    assert all(r.passed for r in report.checks)
    _unchanged(report, "R-20931:biz_reg_no", "R-20935:biz_reg_no", "R-20940:biz_reg_no")


def test_a_field_name_given_twice_keeps_the_first_rule(tmp_path):
    t = read_example()
    t["field_rules"].append({"field_name": "ceo_name", "label": "대표", "value_type": "biz_no", "required": "false", "pattern": ""})
    report = judge_batch(write(tmp_path, t))
    issue = _issue(report, table="field_rules", column="field_name", line=9)
    assert "3번째 줄" in issue.reason
    assert _cards(report)["R-20935:ceo_name"].verdict == "필수 칸이 빔"
    assert all(r.passed for r in report.checks)
    _unchanged(report)


def test_a_run_with_no_pages(tmp_path):
    t = read_example()
    t["source_pages"] = [r for r in t["source_pages"] if r["run_id"] != "R-20940"]
    report = judge_batch(write(tmp_path, t))
    _issue(report, table="worker_outputs", column="run_id", line=14)
    cards = _cards(report)
    assert cards["R-20940:ceo_name"].verdict is None
    assert "`source_pages` 표에 실행 `R-20940`의 쪽이 없어" in cards["R-20940:ceo_name"].withheld["reason"]
    assert cards["R-20940:company_name"].verdict == "필수 칸이 빔"
    assert all(r.passed for r in report.checks if r.id != "3")
    _unchanged(report, "R-20940:ceo_name", "R-20940:biz_reg_no")


def test_nul_bytes_in_a_page_text(tmp_path):
    t = read_example()
    _row(t["source_pages"], run_id="R-20931", page="2")["text"] += "\x00\x00"
    report = judge_batch(write(tmp_path, t))
    issue = _issue(report, table="source_pages", column="text", line=7)
    assert "NUL" in issue.reason and "`R-20931`의 2쪽" in issue.reason
    card = _cards(report)["R-20931:biz_reg_no"]
    assert card.verdict is None and [(w["table"], w["line"], w["column"]) for w in card.withheld["where"]] == [
        ("source_pages", 7, "text")]
    assert all(r.passed for r in report.checks)
    _unchanged(report, "R-20931:biz_reg_no")


def test_a_huge_page_text(tmp_path):
    # a JSON document carries a cell of any size; a CSV cell that large is refused by the kit's reader
    t = read_example()
    _row(t["source_pages"], run_id="R-20935", page="3")["text"] += "가" * MAX_PAGE_CHARS
    path = tmp_path / "runs.json"
    path.write_text(json.dumps(t, ensure_ascii=False), encoding="utf-8")
    report = judge_batch(path)
    issue = _issue(report, table="source_pages", column="text")
    assert "한도" in issue.reason and issue.line is not None
    card = _cards(report)["R-20935:construction_capacity_krw"]
    assert card.verdict is None and "`text` 열의 글을 쓸 수 없어" in card.withheld["reason"]
    assert all(r.passed for r in report.checks)
    _unchanged(report, "R-20935:construction_capacity_krw")


def test_unknown_fields_and_repeated_cells(tmp_path):
    t = read_example()
    t["worker_outputs"].append({**_row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name"), "value": "김철수"})
    t["worker_outputs"].append({**_row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name"), "field_name": "ceo_mood"})
    report = judge_batch(write(tmp_path, t))
    _issue(report, table="worker_outputs", column="field_name", line=18)
    _issue(report, table="worker_outputs", column="field_name", line=19)
    assert _cards(report)["R-20931:ceo_name"].ai_value == "홍길동"
    assert all(r.passed for r in report.checks)
    _unchanged(report)


def test_malformed_run_events_stop_only_their_cells(tmp_path):
    folder = write_form("jsonl", tmp_path)
    lines = (folder / "worker_outputs.jsonl").read_text(encoding="utf-8").splitlines()
    # line 2: R-20931 ceo_name, cut off mid-way; line 5: a page given as an object; an unreadable line
    lines[1] = lines[1][:60]
    event = json.loads(lines[4])
    event["evidence_page"] = {"page": 4}
    lines[4] = json.dumps(event, ensure_ascii=False)
    lines.append("{not json at all")
    (folder / "worker_outputs.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report = judge_batch(folder)
    _issue(report, table="worker_outputs", line=2)
    _issue(report, table="worker_outputs", line=5, column="evidence_page")
    _issue(report, table="worker_outputs", line=17)
    cards = _cards(report)
    for key, line in (("R-20931:ceo_name", 2), ("R-20931:credit_grade", 5)):
        # no verdict (the seed's reload state), not an empty required field
        assert cards[key].verdict is None and cards[key].ai_value is None and cards[key].hedge is None
        assert cards[key].withheld["where"] == [{"file": str(folder / "worker_outputs.jsonl"), "table": "worker_outputs",
                                                 "line": line, "column": "value"}]
        assert f"`worker_outputs` {line}번째 줄의 이벤트를 읽을 수 없어" in cards[key].summary
    assert all(r.passed for r in report.checks), [r for r in report.checks if not r.passed]
    _unchanged(report, "R-20931:ceo_name", "R-20931:credit_grade")


def test_every_issue_names_its_table_line_and_column(tmp_path):
    t = read_example()
    _row(t["worker_outputs"], run_id="R-20931", field_name="ceo_name")["evidence_page"] = "x"
    _row(t["field_rules"], field_name="biz_reg_no")["pattern"] = "("
    _row(t["field_rules"], field_name="ceo_name")["required"] = "아마"
    _row(t["field_rules"], field_name="main_phone")["value_type"] = "tel"
    report = judge_batch(write(tmp_path, t))
    assert len(report.issues) == 4
    for issue in report.issues:
        assert issue.table and issue.line and issue.column and issue.reason
