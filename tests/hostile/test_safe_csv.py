"""Every CSV we write shows a formula-looking cell as text in a spreadsheet (a leading
``'``), keeps plain numbers as numbers, and reads back exactly through our own reader:
`storygraph import`'s union CSV, `verdicts mail import`'s tables (the action policy
too), the review queue's export and a fuzz scenario, each with a `=HYPERLINK(…)`
value (``verdicts.safe_csv``)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from verdicts.safe_csv import TRIGGERS, guard, unguard
from verdicts.tables import read_csv

from ..conftest import run

ROOT = Path(__file__).resolve().parents[2]
LINK = '=HYPERLINK("http://x","y")'


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def _risky(cell: str) -> bool:
    """Whether a spreadsheet would read ``cell`` as a formula (its first character)."""
    return bool(cell) and cell[0] in TRIGGERS and not (cell[:1] in "+-" and cell[1:].replace(",", "").replace(".", "", 1).isdigit())


@given(st.text(alphabet=st.sampled_from(list("'=+-@\t\r0123456789.,eE가 x")), max_size=8) | st.text(max_size=12))
def test_a_guarded_cell_is_never_a_formula_and_reads_back_exactly(text):
    cell = guard(text)
    assert unguard(cell) == text
    assert not _risky(cell) or cell == text  # only a plain signed number keeps its sign in front


@pytest.mark.parametrize("number", ["-5", "+3", "-0.25", "-1,200", "-1e3", "-.5"])
def test_plain_numbers_stay_numbers(number):
    assert guard(number) == number == unguard(number)


def test_a_hand_typed_apostrophe_survives_where_it_is_no_guard():
    assert unguard("'평범한 글") == "'평범한 글" and unguard("it's") == "it's" and guard("'평범한 글") == "'평범한 글"


def test_storygraph_import_guards_its_cells_and_lint_reads_them_back(tmp_path):
    story = tmp_path / "story.twee"
    story.write_text(':: StoryData\n{"start": "Start"}\n\n:: Start\n<<set $gold to -5>>'
                     f'[[{LINK}->End]]\n[[@SUM(A1)->End]]\n[[-보증금->End]]\n\n:: End\n끝.\n\n:: =외딴 방\n아무도 오지 않는 방.\n',
                     encoding="utf-8")
    out = tmp_path / "scenario.csv"
    proc = run("storygraph", "import", story, "-o", out)
    assert proc.returncode in (0, 1), proc.stderr
    text = out.read_text(encoding="utf-8")
    choices = [r[16] for r in _cells(text)[1:] if r[16]]
    assert choices == ["'" + LINK, "'@SUM(A1)", "'-보증금"]
    assert not any(_risky(c) for row in _cells(text) for c in row)
    # our reader gives the story's own words back
    table = read_csv(out, "scenario", [])
    assert [r.values["choice_text"] for r in table.rows if r.values["choice_text"]] == [LINK, "@SUM(A1)", "-보증금"]
    lint = run("storygraph", "lint", out, "-f", "json", "--jobs", "1")
    assert lint.returncode in (0, 1) and "Traceback" not in lint.stderr
    report = json.loads(lint.stdout)
    assert not [i for i in report["issues"] if "choice_text" in (i.get("column") or "")]
    assert "'=외딴 방" in text  # a scene's name too, and the card names the scene as the story does
    assert any("=외딴 방" in c["summary"] and "'=외딴" not in c["summary"] for c in report["cards"])


def _mail(subject: str, sender: str) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "me@home.example"
    msg["Subject"] = subject
    msg["Date"] = "Mon, 02 Mar 2026 09:00:00 +0900"
    msg["Message-ID"] = "<f1@x.example>"
    msg.set_content("관리비는 35만원이며 3월 10일까지 납부해 주세요.\n")
    return msg.as_bytes()


def test_mail_import_guards_its_tables_and_the_run_reads_them_back(tmp_path):
    import mailbox

    inbox = mailbox.mbox(tmp_path / "inbox.mbox")
    inbox.add(_mail(LINK, "=cmd <a@x.example>"))
    inbox.close()
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"message_id": "<none@x.example>", "action_kind": "+회신"}, ensure_ascii=False) + "\n",
                   encoding="utf-8")
    sent = mailbox.mbox(tmp_path / "sent.mbox")
    sent.close()
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "VERDICTS_IMAP_PASSWORD"}
    done = subprocess.run([sys.executable, "-m", "verdicts.cli", "mail", "import", str(tmp_path / "inbox.mbox"), "-o", str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    text = (out / "mailbox_thread.csv").read_text(encoding="utf-8")
    assert "'" + LINK.replace('"', '""') in text and not any(_risky(c) for row in _cells(text) for c in row)
    table = read_csv(out / "mailbox_thread.csv", "mailbox_thread", [])
    assert table.rows[0].values["subject"] == LINK and table.rows[0].values["counterpart"] == "=cmd"
    # the policy table written from the log's kinds
    from verdicts.mail.cli import _write_policy

    policy_out = tmp_path / "policy"
    policy_out.mkdir()
    _write_policy(policy_out, None, [LINK, "-5"])
    rows = _cells((policy_out / "action_policy.csv").read_text(encoding="utf-8"))
    assert [r[0] for r in rows[1:]] == ["'" + LINK, "-5"]
    # the mail run reads the tables back as they were
    from verdicts.mail import judge_mailbox

    report = judge_mailbox(out)
    assert not [i for i in report.issues if i.column in ("subject", "counterpart")]


def test_review_export_guards_a_corrected_value(tmp_path):
    from verdicts.extraction.review import ReviewStore

    from ..verdicts.extraction.conftest import EXAMPLE

    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(EXAMPLE)
    store.decide("R-20931:company_name", "correct", reviewer="@검토", new_value=LINK)
    text = store.export_csv("R-20931")
    head, *rows = _cells(text)
    row = dict(zip(head, next(r for r in rows if r[0] == "R-20931:company_name")))
    assert row["value"] == "'" + LINK and row["reviewer"] == "'@검토"
    assert not any(_risky(c) for r in _cells(text) for c in r)
    cli = subprocess.run([str(Path(sys.executable).parent / "verdicts"), "review", "export", "R-20931", "--db",
                          str(store.path)], capture_output=True, text=True, timeout=120)
    assert cli.returncode == 0 and cli.stdout == text
    # the export reads back through our reader as the reviewer typed it
    (tmp_path / "export.csv").write_text(text, encoding="utf-8")
    table = read_csv(tmp_path / "export.csv", "export", [])
    assert next(r.values["value"] for r in table.rows if r.values["item_key"] == "R-20931:company_name") == LINK


def test_a_fuzz_scenario_csv_guards_its_cells():
    from storygraph.fuzz.generation import generate

    scenario = generate(seed=7, scenes=30)
    text = scenario.to_csv([{"scene_id": "S1", "title": LINK, "min_value": "-5"}])
    cells = _cells(text)[1]
    assert "'" + LINK in cells and "-5" in cells
