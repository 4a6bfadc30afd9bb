"""The bundled example round (examples/mail), through the real ``verdicts`` command and
in every input form."""

from __future__ import annotations

import csv
import json

import openpyxl
import pytest
import yaml

from tests.conftest import EXAMPLES
from verdicts.mail import judge_mailbox
from verdicts.schema import card_errors

ROUND = EXAMPLES / "mail"
GOLD = ROUND / "gold.csv"
TABLES = ("agent_action", "mailbox_thread", "action_policy")
VERDICT_COUNTS = {"메일에 없는 사실 지어냄": 2, "같은 대화에 두 번 답장": 1, "확인 받아야 하는데 그냥 보냄": 2,
                  "회신 기한 넘겨 처리": 3, "원문대로 나감": 7}


def test_every_verdict_with_every_check_passing(cli):
    data = json.loads(cli("verdicts", "run", "mail", ROUND, "--format", "json", check_code=1).stdout)
    assert list(data)[:3] == ["cards", "issues", "checks"]
    assert len(data["cards"]) == 15 and data["issues"] == []
    counts: dict[str, int] = {}
    for card in data["cards"]:
        counts[card["verdict"]] = counts.get(card["verdict"], 0) + 1
    assert counts == VERDICT_COUNTS
    assert [c["id"] for c in data["checks"]] == [f"C{i:02d}" for i in range(1, 10)] + ["SCHEMA"]
    assert all(c["passed"] for c in data["checks"])
    assert all(card_errors("mail", c) == [] for c in data["cards"])
    assert all({"field", "value"} <= set(e) for c in data["cards"] for e in c["evidence"])


def test_text_groups_in_the_seed_order(cli):
    out = cli("verdicts", "run", "mail", ROUND, check_code=1).stdout
    passing = "원문대로 나감"  # problems first, the passing verdict counted after the checks
    heads = ([f"■ {v} ({n})" for v, n in VERDICT_COUNTS.items() if v != passing] + ["■ 자동 검증 (10/10 통과)"]
             + [f"■ {passing} ({VERDICT_COUNTS[passing]})", "요약: "])
    positions = [out.index(h) for h in heads[:-1]] + [out.rindex(heads[-1])]  # the summary first and last
    assert positions == sorted(positions) and out.startswith("요약: ")
    assert "120만원" in out and "3월 14일" in out and "8분 늦었습니다" in out and "0.13시간" not in out


@pytest.mark.parametrize("fmt, marker", [("sarif", '"version": "2.1.0"'), ("github", "::warning")])
def test_sarif_and_github_point_at_the_action_rows(cli, fmt, marker):
    out = cli("verdicts", "run", "mail", ROUND, "--format", fmt, check_code=1).stdout
    assert marker in out and "agent_action.csv" in out
    if fmt == "github":  # each action at its own row (header = line 1), the second reply too
        lines = {line.split(": ")[0].split(" · ")[-1]: line.split("line=")[1].split(",")[0] for line in out.splitlines()
                 if line.startswith("::warning")}
        assert lines["ACT-20260303-006"] == "7" and lines["ACT-20260303-005"] == "6"


def test_html_save_show_explain_and_docs(cli, tmp_path):
    page, db = tmp_path / "report.html", tmp_path / "rounds.sqlite3"
    run = cli("verdicts", "run", "mail", ROUND, "--html", page, "--save", "--db", db, "--format", "json", check_code=1)
    html = page.read_text(encoding="utf-8")
    assert "ACT-20260303-006" in html and "같은 대화에 두 번 답장" in html
    shown = cli("verdicts", "show", "mail", "--db", db, "--format", "json", check_code=1)
    assert json.loads(shown.stdout) == json.loads(run.stdout)
    text = cli("verdicts", "explain", "mail", "late", check_code=0).stdout
    assert text.startswith("회신 기한 넘겨 처리") and "0.125" in text
    assert "C09" in cli("verdicts", "explain", "mail", "C09", check_code=0).stdout


def test_gold_agrees_and_a_changed_gold_splits_the_disagreements_by_rule(cli, tmp_path):
    data = json.loads(cli("verdicts", "grade", "mail", ROUND, GOLD, "--format", "json", check_code=0).stdout)
    assert data["agreement"] == {"agreed": 15, "total": 15, "rate": 1.0}
    assert data["provenance"]["domain"] == "mail"
    rows = list(csv.DictReader(GOLD.open(encoding="utf-8")))
    for row in rows:
        if row["action_no"] in ("ACT-20260303-003", "ACT-20260303-006"):
            row["verdict"] = "회신 기한 넘겨 처리"  # a reader who looks only at the clock
        if row["action_no"] == "ACT-20260303-015":
            row["verdict"] = "확인 받아야 하는데 그냥 보냄"  # one who forgets needs_confirm
    changed = tmp_path / "gold.csv"
    with changed.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    out = cli("verdicts", "grade", "mail", ROUND, changed, check_code=1).stdout
    assert "판정 일치: 12/15" in out
    block = out[out.index("어긋난 자리 (3)"):]
    assert "[회신 기한 넘겨 처리 → 메일에 없는 사실 지어냄] (1)" in block
    assert "[회신 기한 넘겨 처리 → 같은 대화에 두 번 답장] (1)" in block
    assert "[확인 받아야 하는데 그냥 보냄 → 원문대로 나감] (1)" in block


def _tables() -> dict[str, list[dict[str, str]]]:
    return {name: list(csv.DictReader((ROUND / f"{name}.csv").open(encoding="utf-8"))) for name in TABLES}


def _comparable(report) -> list[dict]:
    """The cards without the line numbers, which differ from form to form."""
    out = []
    for card in report.cards:
        data = dict(card.to_json())
        data["evidence"] = [{k: v for k, v in e.items() if k != "line"} for e in data["evidence"]]
        out.append(data)
    return out


def test_xlsx_json_and_yaml_forms_give_the_same_cards(tmp_path):
    expected = _comparable(judge_mailbox(ROUND))
    tables = _tables()
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in tables.items():
        sheet = book.create_sheet(name)
        sheet.append(list(rows[0]))
        for row in rows:
            sheet.append([value for value in row.values()])
    book.save(tmp_path / "round.xlsx")
    records = {name: [{k: v for k, v in row.items() if v != ""} for row in rows] for name, rows in tables.items()}
    (tmp_path / "round.json").write_text(json.dumps(records, ensure_ascii=False), encoding="utf-8")
    (tmp_path / "round.yaml").write_text(yaml.safe_dump(records, allow_unicode=True), encoding="utf-8")
    for name in ("round.xlsx", "round.json", "round.yaml"):
        report = judge_mailbox(tmp_path / name)
        assert report.issues == [], (name, report.issues)
        assert _comparable(report) == expected, name
        assert all(c.passed for c in report.checks), name


def test_a_workbook_with_real_date_and_time_cells(tmp_path):
    from datetime import date as day, datetime

    book = openpyxl.Workbook()
    book.remove(book.active)
    sheet = book.create_sheet("agent_action")
    sheet.append(["action_no", "thread_id", "action_kind", "sent_at", "confidence", "extracted_amount", "extracted_due_date"])
    sheet.append(["A1", "TH-1", "회신", datetime(2026, 3, 2, 17, 7, 30), 0.88, 1200000, day(2026, 3, 4)])
    sheet = book.create_sheet("mailbox_thread")
    sheet.append(["thread_id", "counterpart", "subject", "received_at", "reply_deadline", "body_amount", "body_due_date"])
    sheet.append(["TH-1", "세무사", "자료 요청", datetime(2026, 3, 2, 11, 0), datetime(2026, 3, 2, 17, 0), "1,200,000", day(2026, 3, 4)])
    sheet = book.create_sheet("action_policy")
    sheet.append(["action_kind", "max_reply_hours", "min_confidence", "needs_confirm"])
    sheet.append(["회신", 6, 0.7, False])
    book.save(tmp_path / "round.xlsx")
    report = judge_mailbox(tmp_path / "round.xlsx")
    [card] = report.cards
    assert report.issues == [] and all(c.passed for c in report.checks)
    assert (card.verdict, card.overdue_hours) == ("회신 기한 넘겨 처리", 0.13)
