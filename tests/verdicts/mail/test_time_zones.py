"""Time zones kept (issue 31, item 3): imported times carry their offset in the
mailbox's zone, relative days in a body are read on the day the mail arrived in that
zone (``Asia/Seoul`` unless ``--time-zone`` or the ``time_zone`` key says otherwise),
the import says which zone it used, and tables written without offsets still load (as
UTC)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from email.mime.text import MIMEText
from pathlib import Path

import pytest

from verdicts.errors import ConfigError
from verdicts.mail import judge_mailbox
from verdicts.mail.domain import DOMAIN
from verdicts.mail.importer import import_mailbox, read_mails, write_tables
from verdicts.config import load_config

ROOT = Path(__file__).resolve().parents[3]
POLICY = "action_kind,max_reply_hours,min_confidence,needs_confirm\n회신,6,0.7,false\n"
LOG = '{"message_id": "<reply@me.example>", "action_no": "ACT-1", "action_kind": "회신", "confidence": 0.9}\n'


def _eml(path: Path, body: str, when: str, mid: str, sender: str, reply_to: str | None = None) -> None:
    msg = MIMEText(body, "plain", "utf-8")
    msg["Subject"] = "자료 요청" if reply_to is None else "Re: 자료 요청"
    msg["From"] = sender
    msg["To"] = "me@me.example" if reply_to is None else "tax@acct.example"
    msg["Date"] = when
    msg["Message-ID"] = mid
    if reply_to:
        msg["In-Reply-To"] = reply_to
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(msg.as_bytes())


def _monday_morning(folder: Path, date_header: str) -> tuple[Path, Path, Path]:
    """A mail received Monday 2 March 2026 08:00 in Seoul (Sunday 23:00 UTC) asking for
    the papers "내일까지", and the agent's correct reply: by 3월 3일."""
    _eml(folder / "in" / "ask.eml", "부가세 자료를 내일까지 보내 주세요.", date_header, "<ask@acct.example>", "세무사 <tax@acct.example>")
    _eml(folder / "sent" / "reply.eml", "자료를 3월 3일까지 보내 드리겠습니다.", "Mon, 02 Mar 2026 09:00:00 +0900",
         "<reply@me.example>", "me@me.example", "<ask@acct.example>")
    log = folder / "agent.jsonl"
    log.write_text(LOG, encoding="utf-8")
    return folder / "in", folder / "sent", log


@pytest.mark.parametrize("date_header", ["Mon, 02 Mar 2026 08:00:00 +0900", "Sun, 01 Mar 2026 23:00:00 +0000"])
def test_tomorrow_is_read_on_the_mailbox_day_not_the_utc_day(tmp_path, date_header):
    inbox, sent, log = _monday_morning(tmp_path, date_header)
    from verdicts.mail.importer import read_log

    tables = import_mailbox(read_mails(inbox), read_mails(sent), read_log(log))
    [row] = tables["mailbox_thread"]
    # whatever offset the sender wrote, the table says the moment in Seoul, offset and all
    assert (row["received_at"], row["body_due_date"], row["reply_deadline"]) == \
        ("2026-03-02T08:00+09:00", "2026-03-03", "2026-03-03T23:59+09:00")
    [action] = tables["agent_action"]
    assert (action["sent_at"], action["extracted_due_date"]) == ("2026-03-02T09:00+09:00", "2026-03-03")
    folder = tmp_path / "tables"
    write_tables(tables, folder)
    (folder / "action_policy.csv").write_text(POLICY, encoding="utf-8")
    report = judge_mailbox(folder)
    [card] = report.cards
    assert card.verdict == "원문대로 나감" and report.issues == [] and all(c.passed for c in report.checks)
    # the evidence quotes the moments as the table holds them, offset included
    assert {"2026-03-02T08:00+09:00", "2026-03-02T09:00+09:00"} <= {e.value for e in card.evidence}


def test_a_zone_names_the_day_and_the_offset(tmp_path):
    inbox, _, _ = _monday_morning(tmp_path, "Mon, 02 Mar 2026 08:00:00 +0900")
    [row] = import_mailbox(read_mails(inbox), time_zone="UTC")["mailbox_thread"]
    assert (row["received_at"], row["body_due_date"]) == ("2026-03-01T23:00+00:00", "2026-03-02")


def test_a_date_without_a_zone_is_read_as_utc_and_said(tmp_path):
    _eml(tmp_path / "a.eml", "안녕하세요.", "Mon, 02 Mar 2026 08:00:00 -0000", "<a@x.example>", "a@x.example")
    notes: list[str] = []
    [row] = import_mailbox(read_mails(tmp_path / "a.eml"), notes=notes)["mailbox_thread"]
    assert row["received_at"] == "2026-03-02T17:00+09:00"
    assert notes == [f"{tmp_path / 'a.eml'}: `Date` 머리글 `Mon, 02 Mar 2026 08:00:00 -0000`에는 시간대가 없어 UTC로 보았습니다."]


def _run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verdicts.cli", *map(str, args)], capture_output=True, text=True, cwd=ROOT,
                          env=dict(os.environ), timeout=120)


def test_the_import_command_takes_the_zone_from_its_option_or_the_configuration(tmp_path):
    inbox, sent, log = _monday_morning(tmp_path, "Mon, 02 Mar 2026 08:00:00 +0900")
    policy = tmp_path / "policy.csv"
    policy.write_text(POLICY, encoding="utf-8")
    common = ["--sent", sent, "--log", log, "--policy", policy]

    done = _run("mail", "import", inbox, "-o", tmp_path / "seoul", *common)
    assert done.returncode == 0, done.stderr
    assert "시각은 Asia/Seoul 시간대(기본값)로 오프셋을 붙여 적었고" in done.stderr
    assert "제목이 같은 메일은 상대가 같고 30일 이내일 때만 한 대화로 묶었습니다." in done.stderr

    done = _run("mail", "import", inbox, "-o", tmp_path / "utc", "--time-zone", "UTC", "--subject-window-days", "7", *common)
    assert done.returncode == 0, done.stderr
    assert "시각은 UTC 시간대(`--time-zone` 옵션)로" in done.stderr and "7일 이내일 때만" in done.stderr
    with open(tmp_path / "utc" / "mailbox_thread.csv", encoding="utf-8", newline="") as f:
        [row] = list(csv.DictReader(f))
    assert (row["received_at"], row["body_due_date"]) == ("2026-03-01T23:00+00:00", "2026-03-02")

    # the [mail] table of a verdicts.toml above OUT, where `verdicts run mail OUT` finds it too
    project = tmp_path / "project"
    project.mkdir()
    (project / "verdicts.toml").write_text('[mail]\ntime_zone = "America/New_York"\n', encoding="utf-8")
    done = _run("mail", "import", inbox, "-o", project / "tables", *common)
    assert done.returncode == 0, done.stderr
    assert "시각은 America/New_York 시간대(설정 파일" in done.stderr
    with open(project / "tables" / "mailbox_thread.csv", encoding="utf-8", newline="") as f:
        assert next(csv.DictReader(f))["received_at"] == "2026-03-01T18:00-05:00"

    # the report screen shows the moments with their offset
    screen = tmp_path / "screen.html"
    done = _run("run", "mail", tmp_path / "seoul", "--html", screen)
    assert done.returncode == 0, done.stderr
    assert "2026-03-02T08:00+09:00" in screen.read_text(encoding="utf-8")

    done = _run("mail", "import", inbox, "-o", tmp_path / "nowhere", "--time-zone", "Asia/Seul")
    assert done.returncode == 2 and "시간대 `Asia/Seul`을 찾지 못했습니다" in done.stderr
    assert not (tmp_path / "nowhere").exists()


def test_a_zone_in_the_configuration_that_names_no_zone_is_refused(tmp_path):
    config = tmp_path / "verdicts.toml"
    config.write_text('[mail]\ntime_zone = "Seoul"\nsubject_window_days = 14\n', encoding="utf-8")
    with pytest.raises(ConfigError, match="`time_zone`: 시간대 `Seoul`을 찾지 못했습니다"):
        load_config(DOMAIN, config)
    config.write_text('[mail]\ntime_zone = "Asia/Tokyo"\nsubject_window_days = 14\n', encoding="utf-8")
    loaded = load_config(DOMAIN, config)
    assert (loaded.time_zone, loaded.subject_window_days) == ("Asia/Tokyo", 14)


@pytest.mark.parametrize("name, shown", [("a" * 5000, "`" + "a" * 59 + "…`"), ("\x1b[2J", "`\\x1b[2J`"), ("../../etc/passwd", None)])
def test_a_hostile_zone_name_is_refused_short_and_visible(name, shown):
    from verdicts.errors import InputError
    from verdicts.mail.values import read_zone

    with pytest.raises(InputError) as refused:
        read_zone(name)
    said = str(refused.value)
    assert len(said) < 200 and "\x1b" not in said and "IANA 시간대 이름" in said
    assert shown is None or shown in said
