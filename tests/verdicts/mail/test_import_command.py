"""`verdicts mail import`, run as a user runs it (a subprocess), over the same mailbox
as a Maildir, as mbox files and in a real IMAP server (dovecot on loopback, STARTTLS with
a certificate made for the run): the same tables from each; what it reads and notes;
a failed login, a dropped connection and a malformed message give clear errors and lose
nothing already read."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

from verdicts.mail import judge_mailbox
from verdicts.mail.importer import import_mailbox, write_tables
from verdicts.mail.imap import read_imap

from . import imap_server
from .mailboxes import POLICY, received, sent, write_log, write_maildir, write_mbox

ROOT = Path(__file__).resolve().parents[3]
USER, PASSWORD = "agent", "맑은-하늘-42"


def _run(*args: str, password: str | None = PASSWORD) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "VERDICTS_IMAP_PASSWORD"}
    if password is not None:
        env["VERDICTS_IMAP_PASSWORD"] = password
    return subprocess.run([sys.executable, "-m", "verdicts.cli", "mail", "import", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)


def _rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


@pytest.fixture(scope="module")
def imap():
    why = imap_server.available()
    if why:
        pytest.fail(why)
    with imap_server.dovecot({USER: PASSWORD, "other": "x"}) as server:
        server.fill(USER, PASSWORD, "INBOX", received())
        server.fill(USER, PASSWORD, "Sent", sent())
        yield server


@pytest.fixture
def policy(tmp_path):
    path = tmp_path / "policy.csv"
    path.write_text(POLICY, encoding="utf-8")
    return path


def test_the_same_tables_from_maildir_mbox_and_imap(tmp_path, imap, policy):
    log = write_log(tmp_path / "agent.jsonl")
    inbox, sent_dir = write_maildir(tmp_path / "Maildir")
    inbox_mbox, sent_mbox = write_mbox(tmp_path / "mbox")
    sources = {
        "maildir": (inbox, sent_dir),
        "mbox": (inbox_mbox, sent_mbox),
        "imap": (imap.url(USER), imap.url(USER, "Sent")),
    }
    outs = {}
    for name, (received_from, sent_from) in sources.items():
        out = tmp_path / f"out-{name}"
        done = _run(received_from, "-o", out, "--sent", sent_from, "--log", log, "--policy", policy,
                    "--cafile", imap.cafile)
        # the log's third line is no JSON: named, and the exit code says something is missing
        assert done.returncode == 1, done.stderr
        assert f"{log} 3번째 줄" in done.stderr and "JSON으로 읽지 못해" in done.stderr
        assert "받은 메일 5통을 `mailbox_thread.csv`에, 보낸 메일 4통 가운데 3통을 `agent_action.csv`에 썼습니다" in done.stderr
        # the user's own reply and the mail the agent only claims to have sent are named, not dropped
        assert "보낸 메일 <s4@home.example>" in done.stderr and "에이전트 기록에 없어" in done.stderr
        assert "<s9@home.example>" in done.stderr and "보낸 편지함에서 찾지 못해" in done.stderr
        # two amounts in the quote mail: which one was taken, and why
        assert "`1.2억 원`, `￦12,000,000`으로 여럿이라" in done.stderr
        outs[name] = out
    for table in ("mailbox_thread.csv", "agent_action.csv", "action_policy.csv"):
        assert (outs["maildir"] / table).read_bytes() == (outs["mbox"] / table).read_bytes() == (outs["imap"] / table).read_bytes(), table

    threads = {r["subject"]: r for r in _rows(outs["imap"] / "mailbox_thread.csv")}
    assert list(threads) == ["3월 관리비 안내", "부가세 신고 자료 요청", "RE: 부가세 신고 자료 요청", "견적서 송부", "모임 장소 안내"]
    fee, tax, follow, quote, club = threads.values()
    assert (fee["counterpart"], fee["body_amount"], fee["body_due_date"], fee["reply_deadline"]) == \
        ("관리사무소", "350000", "2026-03-10", "2026-03-10T23:59+09:00")
    # ks_c_5601-1987 subject and body; 모레 read from the received day; 14:00 UTC written as 23:00 in Seoul
    assert (tax["counterpart"], tax["received_at"], tax["body_due_date"]) == ("김세무사", "2026-03-02T23:00+09:00", "2026-03-04")
    # the reply joins its thread through In-Reply-To/References; the quoted 3월 5일 is not its fact
    assert follow["thread_id"] == tax["thread_id"] != fee["thread_id"]
    assert (tax["thread_key"], tax["thread_by"]) == ("<r2@acct.example>", "대화의 첫 메일")
    assert (follow["thread_key"], follow["thread_by"]) == ("<s2@home.example>", "References")
    assert (follow["body_amount"], follow["body_due_date"]) == ("1200000", "2026-03-14")
    # HTML only, CP949: the amount by the word 견적/금액, 다음 주 금요일 from Wednesday 4 March
    assert (quote["body_amount"], quote["body_due_date"]) == ("120000000", "2026-03-13")
    assert "`1.2억 원`, `￦12,000,000`으로 여럿이라" in quote["body_note"] and fee["body_note"] == ""
    assert (club["counterpart"], club["body_amount"], club["body_due_date"]) == ("동호회", "", "")

    actions = {r["action_no"]: r for r in _rows(outs["imap"] / "agent_action.csv")}
    assert list(actions) == ["ACT-1", "ACT-2", "ACT-3"]
    assert actions["ACT-1"]["thread_id"] == fee["thread_id"] and actions["ACT-3"]["thread_id"] == tax["thread_id"]
    # what was really sent: the quoted line of ACT-1's mail is cut, its own words read
    assert (actions["ACT-1"]["extracted_amount"], actions["ACT-1"]["extracted_due_date"]) == ("350000", "2026-03-10")
    assert actions["ACT-2"]["extracted_due_date"] == "2026-03-05"

    report = judge_mailbox(outs["imap"])
    verdicts = {c.key: c.verdict for c in report.cards}
    assert verdicts == {"ACT-1": "원문대로 나감", "ACT-2": "메일에 없는 사실 지어냄", "ACT-3": "확인 받아야 하는데 그냥 보냄"}
    assert report.issues == [] and all(c.passed for c in report.checks)


def test_a_failed_login_names_the_server_and_writes_nothing(tmp_path, imap):
    out = tmp_path / "out"
    done = _run(imap.url(USER), "-o", out, "--cafile", imap.cafile, password="틀린 비밀번호")
    assert done.returncode == 2
    assert f"{imap.url(USER)}: agent로 로그인하지 못했습니다" in done.stderr and "AUTHENTICATIONFAILED" in done.stderr
    assert not out.exists()
    done = _run(imap.url(USER), "-o", out, "--cafile", imap.cafile, password=None)
    assert done.returncode == 2 and "VERDICTS_IMAP_PASSWORD" in done.stderr


def test_an_untrusted_certificate_is_refused_not_skipped(tmp_path, imap):
    done = _run(imap.url(USER), "-o", tmp_path / "out")
    assert done.returncode == 2 and "STARTTLS" in done.stderr and "certificate" in done.stderr


def test_a_missing_folder_is_named(tmp_path, imap):
    done = _run(imap.url(USER, "보관함"), "-o", tmp_path / "out", "--cafile", imap.cafile)
    assert done.returncode == 2 and "`보관함`이라는 폴더를 열지 못했습니다" in done.stderr


def test_imaps_reads_the_same_mail_as_starttls(imap):
    plain = read_imap(imap.url(USER), PASSWORD, cafile=imap.cafile)
    tls = read_imap(imap.url(USER).replace("imap://", "imaps://").replace(f":{imap.port}/", f":{imap.tls_port}/"), PASSWORD,
                    cafile=imap.cafile)
    assert plain.starttls and not tls.starttls
    assert [(m.message_id, m.subject, m.text) for m in tls.mails] == [(m.message_id, m.subject, m.text) for m in plain.mails]
    assert len(tls.mails) == 5


@pytest.mark.parametrize("reply_bytes", [0, 40], ids=["before-the-answer", "part-way-through-the-answer"])
def test_a_dropped_connection_keeps_what_was_read(imap, reply_bytes):
    """The connection is cut at a named point, not by a kill racing the fetches: a relay
    between the importer and dovecot ends it at the command after the second message
    (the third FETCH), either before the server hears it or after 40 bytes of the
    server's (TLS) answer, so exactly two messages are read, whatever the load."""
    with imap_server.CuttingRelay(imap.host, imap.port) as relay:
        def cut_after_two(done: int, total: int) -> None:
            if done == 2:
                relay.cut_at_next_command(reply_bytes)

        url = imap.url(USER).replace(f":{imap.port}/", f":{relay.port}/")
        got = read_imap(url, PASSWORD, cafile=imap.cafile, timeout=20, progress=cut_after_two)
    assert relay.cuts == 1
    assert got.starttls and got.total == 5 and got.problems == []
    assert [m.message_id for m in got.mails] == ["<r1@apt.example>", "<r2@acct.example>"]
    assert got.broken == (f"{url}: 메일 5통 가운데 2통을 읽고 UID 3을 받는 사이에 연결이 끊겼습니다 (서버가 연결을 닫음). "
                          "읽은 메일은 그대로 두었고, 나머지 3통은 다시 읽어야 합니다.")
    # what was read still makes its rows
    rows = import_mailbox(got.mails)["mailbox_thread"]
    assert [r["subject"] for r in rows] == ["3월 관리비 안내", "부가세 신고 자료 요청"]


def test_a_malformed_message_is_named_and_the_rest_is_read(tmp_path, imap):
    imap.fill("other", "x", "INBOX", [received()[0], b"X-Broken: yes\r\n\r\n\xff\xfe not a mail at all\r\n"])
    out = tmp_path / "out"
    done = _run(imap.url("other"), "-o", out, "--cafile", imap.cafile, password="x")
    assert done.returncode == 1, done.stderr
    assert f"{imap.url('other')} UID 2: Date 머리글이 없어 보내거나 받은 시각을 알 수 없습니다." in done.stderr
    assert f"{imap.url('other')} UID 2: Message-ID가 없어" in done.stderr
    rows = _rows(out / "mailbox_thread.csv")
    assert len(rows) == 2 and rows[1]["subject"] == "3월 관리비 안내" and rows[0]["received_at"] == ""
    # judging the tables names the line that has no received_at instead of dropping it
    write_tables({"agent_action": []}, out)
    (out / "action_policy.csv").write_text(POLICY, encoding="utf-8")
    report = judge_mailbox(out)
    assert any(i.table == "mailbox_thread" and i.line == 2 and i.column == "received_at" for i in report.issues)


def test_file_sources_errors_are_named(tmp_path):
    done = _run(tmp_path / "없는 폴더", "-o", tmp_path / "out")
    assert done.returncode == 2 and f"{tmp_path / '없는 폴더'}: 그런 파일이나 폴더가 없습니다." in done.stderr
    not_mbox = tmp_path / "notes.txt"
    not_mbox.write_text("장보기 목록\n", encoding="utf-8")
    done = _run(not_mbox, "-o", tmp_path / "out")
    assert done.returncode == 2 and "mbox 파일은 `From `으로 시작해야" in done.stderr
    inbox, sent_dir = write_maildir(tmp_path / "Maildir")
    done = _run(inbox, "-o", tmp_path / "out", "--sent", sent_dir)
    assert done.returncode == 2 and "보낸 메일(--sent)과 에이전트 기록(--log)은 함께 주세요" in done.stderr


def test_received_mail_alone_writes_three_tables(tmp_path):
    inbox, _ = write_maildir(tmp_path / "Maildir")
    out = tmp_path / "out"
    done = _run(inbox, "-o", out, password=None)
    assert done.returncode == 0, done.stderr
    assert len(_rows(out / "mailbox_thread.csv")) == 5 and _rows(out / "agent_action.csv") == []
    assert (out / "action_policy.csv").read_text(encoding="utf-8").splitlines() == \
        ["action_kind,max_reply_hours,min_confidence,needs_confirm"]


def test_no_password_is_sent_to_a_server_that_offers_no_tls():
    # a real dovecot with TLS switched off (no STARTTLS, as a stripping relay would show it):
    # the reader refuses before LOGIN, and the server saw no authentication at all
    from verdicts.errors import InputError

    why = imap_server.available()
    if why:
        pytest.fail(why)
    with imap_server.dovecot({USER: PASSWORD}, tls=False) as server:
        with pytest.raises(InputError) as refused:
            read_imap(server.url(USER), PASSWORD, timeout=20)
        log = (server.config.parent / "dovecot.log").read_text(errors="replace")
    said = str(refused.value)
    assert "STARTTLS" in said and "imaps://" in said and PASSWORD not in said
    assert "Login: user=" not in log and "auth failed" not in log.lower()


@pytest.mark.parametrize("url", ["imap://agent:hunter2@host/INBOX", "imap://agent:hunter2@host:port/INBOX",
                                 "imap://agent:hunter2@/INBOX", "pop3://agent:hunter2@host/INBOX"])
def test_a_password_in_the_address_is_never_repeated(url):
    from verdicts.errors import InputError
    from verdicts.mail.imap import parse_imap_url

    with pytest.raises(InputError) as refused:
        parse_imap_url(url)
    assert "hunter2" not in str(refused.value) and "agent" in str(refused.value)


@pytest.mark.parametrize("content", [None, b"not a certificate\n"])
def test_a_missing_or_broken_ca_file_is_named_not_a_traceback(tmp_path, content):
    from verdicts.errors import EnvironmentFailure  # exit 4: the machine's CA file, not the mail (issue 32, item 6)

    cafile = tmp_path / "ca.pem"
    if content is not None:
        cafile.write_bytes(content)
    with pytest.raises(EnvironmentFailure) as refused:
        read_imap("imap://agent@127.0.0.1:9/INBOX", "x", cafile=str(cafile))
    assert str(cafile) in str(refused.value) and "CA" in str(refused.value)


def test_run_on_a_mailbox_says_how_to_import_it(tmp_path):
    """`verdicts run mail` given a mailbox instead of tables (issue 31, item 6) answers
    with the import command for that path, in one sentence, and exit code 2."""
    inbox, _ = write_maildir(tmp_path / "Maildir")
    inbox_mbox, _ = write_mbox(tmp_path / "mbox")
    emls = tmp_path / "eml"
    emls.mkdir()
    (emls / "1.eml").write_bytes(received()[0])
    forms = {inbox: "Maildir 메일함은", inbox_mbox: "mbox 메일함은", emls / "1.eml": ".eml 메일은", emls: ".eml 메일 폴더는"}
    for path, named in forms.items():
        done = subprocess.run([sys.executable, "-m", "verdicts.cli", "run", "mail", str(path)], capture_output=True, text=True,
                              cwd=ROOT, timeout=120)
        assert done.returncode == 2, done.stderr
        said = done.stderr.strip().splitlines()[-1]
        assert said == (f"verdicts: {path}: {named} 표가 아니라 바로 판정할 수 없으니 `verdicts mail import {path} -o DIR`로 "
                        "세 표를 만든 뒤 `verdicts run mail DIR`로 판정해 주세요.")
    # tables with a mail beside them are the tables: judged, not refused
    out = tmp_path / "tables"
    write_tables({"mailbox_thread": [], "agent_action": []}, out)
    (out / "action_policy.csv").write_text(POLICY, encoding="utf-8")
    (out / "1.eml").write_bytes(received()[0])
    from verdicts.mail.domain import DOMAIN

    DOMAIN.refuse(out)
