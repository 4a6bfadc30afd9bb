"""Bad input: each bad row or cell is an issue naming table, line, column and reason,
and everything else is still judged (the bundled round's 15 cards stay as they were)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import EXAMPLES
from verdicts.korean import is_polite_sentence
from verdicts.mail import judge_mailbox

ROUND = EXAMPLES / "mail"


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "round"
    shutil.copytree(ROUND, folder)
    (folder / "gold.csv").unlink()
    return folder


def _append(path: Path, *lines: str) -> int:
    """Append rows; return the physical line of the first one."""
    text = path.read_text(encoding="utf-8")
    first = text.count("\n") + 1
    path.write_text(text + "".join(line + "\n" for line in lines), encoding="utf-8")
    return first


BAD_ACTIONS = [
    ("ACT-X-01,TH-1041,회신,어제 오후 3시,0.9,,,", "sent_at", "날짜와 시각이 아니어서"),
    ("ACT-X-02,TH-1041,회신,2026-03-02T12:00,1.4,,,", "confidence", "0 이상 1 이하의 숫자가 아니어서"),
    ("ACT-X-03,TH-1041,회신,2026-03-02T12:00,-0.1,,,", "confidence", "0 이상 1 이하의 숫자가 아니어서"),
    ("ACT-X-04,TH-1041,회신,2026-03-02T12:00,,,,", "confidence", "비어 있어"),
    ("ACT-X-05,TH-9999,회신,2026-03-02T12:00,0.9,,,", "thread_id", "`mailbox_thread`에 없어"),
    ("ACT-X-06,TH-1041,회신,2026-03-01T08:00,0.9,,,", "sent_at", "어느 메일에 답했는지 알 수 없으므로"),
    ("ACT-X-07,TH-1041,독촉,2026-03-02T12:00,0.9,,,", "action_kind", "`action_policy`에 `독촉`이 없어"),
    ("ACT-20260303-001,TH-1041,회신,2026-03-02T12:00,0.9,,,", "action_no", "번째 줄에 이미 있"),
]


def test_every_bad_action_is_an_issue_and_the_rest_is_judged(tmp_path):
    expected = {c.key: c.to_json() for c in judge_mailbox(ROUND).cards}
    folder = _copy(tmp_path)
    first = _append(folder / "agent_action.csv", *(row for row, _, _ in BAD_ACTIONS))
    report = judge_mailbox(folder)
    assert {c.key: c.to_json() for c in report.cards} == expected
    assert all(c.passed for c in report.checks)
    assert len(report.issues) == len(BAD_ACTIONS)
    for offset, (_, column, reason) in enumerate(BAD_ACTIONS):
        line = first + offset
        issue = next(i for i in report.issues if i.line == line)
        assert (issue.table, issue.column) == ("agent_action", column), issue
        assert reason in issue.reason and issue.file.endswith("agent_action.csv"), issue


def test_our_own_issue_sentences_are_polite_and_use_no_fallback_particles(tmp_path):
    folder = _copy(tmp_path)
    _append(folder / "agent_action.csv", *(row for row, _, _ in BAD_ACTIONS))
    _append(folder / "mailbox_thread.csv", "TH-1041,관리사무소,추가 안내,3월 2일 오후,,,")
    report = judge_mailbox(folder)
    # the kit's own sentences (an empty required cell, a repeated key) are not this domain's
    ours = [i.reason for i in report.issues if "필수 값" not in i.reason and "번째 줄에 이미 있" not in i.reason]
    assert ours
    for reason in ours:
        assert is_polite_sentence(reason), reason
        assert not any(f in reason for f in ("이(가)", "을(를)", "은(는)", "(으)로", "과(와)")), reason


def test_unreadable_received_at_drops_only_that_message(tmp_path):
    folder = _copy(tmp_path)
    line = _append(folder / "mailbox_thread.csv", "TH-1041,관리사무소,추가 안내,3월 2일 오후,,,")
    report = judge_mailbox(folder)
    assert [(i.table, i.line, i.column) for i in report.issues] == [("mailbox_thread", line, "received_at")]
    assert len(report.cards) == 15 and all(c.passed for c in report.checks)


def test_a_message_received_after_the_reply_does_not_change_the_card(tmp_path):
    folder = _copy(tmp_path)
    _append(folder / "mailbox_thread.csv", "TH-1042,세무사,Re: 부가세 신고 자료 요청,2026-03-02T18:00,,1200000,")
    cards = {c.key: c for c in judge_mailbox(folder).cards}
    assert cards["ACT-20260303-002"].verdict == "메일에 없는 사실 지어냄"


def test_a_missing_agent_action_column_shows_the_line_instead_of_the_cards(tmp_path, cli):
    folder = _copy(tmp_path)
    path = folder / "agent_action.csv"
    rows = [line.split(",") for line in path.read_text(encoding="utf-8").splitlines()]
    index = rows[0].index("confidence")
    path.write_text("\n".join(",".join(r[:index] + r[index + 1:]) for r in rows) + "\n", encoding="utf-8")
    report = judge_mailbox(folder)
    assert report.cards == []
    assert [(i.table, i.line, i.column) for i in report.issues] == [("agent_action", 1, "confidence")]
    page = tmp_path / "report.html"
    proc = cli("verdicts", "run", "mail", folder, "--html", page, "--format", "json", check_code=1)
    assert json.loads(proc.stdout)["issues"][0]["column"] == "confidence"
    html = page.read_text(encoding="utf-8")
    assert "confidence" in html and "입력 문제" in html


@pytest.mark.parametrize("table", ["mailbox_thread", "action_policy"])
def test_a_missing_table_is_one_issue_and_no_crash(tmp_path, table):
    folder = _copy(tmp_path)
    (folder / f"{table}.csv").unlink()
    report = judge_mailbox(folder)
    assert report.cards == []
    assert [(i.table, i.column) for i in report.issues] == [(table, None)]


def test_an_unreadable_threshold_is_an_issue_and_stops_only_what_needs_it(tmp_path):
    folder = _copy(tmp_path)
    path = folder / "action_policy.csv"
    path.write_text(path.read_text(encoding="utf-8").replace("부재 안내,12,0.60,false", "부재 안내,열두 시간,1.5,false"),
                    encoding="utf-8")
    report = judge_mailbox(folder)
    assert [(i.table, i.line, i.column) for i in report.issues] == [("action_policy", 4, "max_reply_hours"),
                                                                    ("action_policy", 4, "min_confidence")]
    cards = {c.key: c for c in report.cards}
    assert len(cards) == 15 and all(c.passed for c in report.checks)
    absent = cards["ACT-20260303-013"]  # the one 부재 안내: its deadline is stated, so the late rule stops there
    assert absent.verdict is None and absent.low_confidence is False and absent.hedge is None
    assert absent.withheld["where"] == [{"file": str(path), "table": "action_policy", "line": 4, "column": "max_reply_hours"}]
    assert "`max_reply_hours` 열의 `열두 시간`을 읽을 수 없어" in absent.withheld["reason"] == absent.summary
