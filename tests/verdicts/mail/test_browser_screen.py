"""The mail report screen in a real browser (Debian's headless Chromium driven by
Playwright, as the other screens): the low-confidence list as its own panel, whose rows
open the card with its field/agg/value/quote evidence; the checks and the empty
self-grading panel; an empty ``confidence`` shown as an input issue with its line while
the rest of the screen stays up."""

from __future__ import annotations

import contextlib
import shutil
import sys
from pathlib import Path

import pytest

from tests.browser import private_dirs, started, verdicts_screen

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "mail"
#: the sample's actions whose confidence is below their kind's minimum (two of each outcome)
LOW = ["ACT-20260303-007", "ACT-20260303-008", "ACT-20260303-012", "ACT-20260303-015"]


def test_the_low_confidence_list_is_its_own_panel_and_opens_each_card(page, tmp_path):
    page.goto(verdicts_screen("mail", EXAMPLE, tmp_path / "mail.html").as_uri())
    panel = page.locator("#low-confidence")
    expect(panel.locator("h2 .count")).to_have_text("4건")
    assert panel.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.key)") == LOW
    # whatever the verdict: two went to 확인 받아야 하는데 그냥 보냄, two went out as they were
    verdicts = panel.locator("tbody tr td:nth-child(2)").all_inner_texts()
    assert verdicts == ["확인 받아야 하는데 그냥 보냄", "원문대로 나감", "확인 받아야 하는데 그냥 보냄", "원문대로 나감"]
    card = page.locator('details.card[data-key="ACT-20260303-008"]')
    expect(card).not_to_have_attribute("open", "")
    panel.get_by_role("link", name="ACT-20260303-008").click()
    expect(card).to_have_attribute("open", "")
    expect(card.locator(".hedge-inline")).to_be_visible()
    evidence = card.locator("table.evidence")
    expect(evidence).to_be_visible()
    assert evidence.locator("thead th").all_inner_texts()[-4:] == ["field", "agg", "value", "quote"]
    assert "confidence" in evidence.locator("tbody td:nth-child(2)").all_inner_texts()
    # the other panels the seed lists are there beside it
    assert page.locator("section.group").count() == 5
    expect(page.locator("#checks h2 .count")).to_have_text("10/10 통과")
    expect(page.locator("#grading .empty-grading")).to_be_visible()
    expect(page.locator("#notes")).to_contain_text("정직 경계선")
    assert page.external_requests == []


def test_an_empty_confidence_names_its_line_and_the_screen_stays_up(page, tmp_path):
    inputs = tmp_path / "round"
    shutil.copytree(EXAMPLE, inputs)
    actions = (inputs / "agent_action.csv").read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(actions, start=1) if row.startswith("ACT-20260303-008,"))
    fields = actions[line - 1].split(",")
    fields[4] = ""
    actions[line - 1] = ",".join(fields)
    (inputs / "agent_action.csv").write_text("\n".join(actions) + "\n", encoding="utf-8")
    page.goto(verdicts_screen("mail", inputs, tmp_path / "bad.html").as_uri())
    issue = page.locator("#issues tbody tr").filter(has_text="agent_action")
    expect(issue).to_have_count(1)
    cells = issue.locator("td").all_inner_texts()
    assert cells[2] == str(line) and cells[3] == "confidence" and cells[4].strip()
    # that action's card is withheld (not judged on a confidence it does not have); the rest stand
    expect(page.locator('details.card[data-key="ACT-20260303-008"]')).to_have_count(0)
    expect(page.locator("details.card")).to_have_count(14)
    expect(page.locator("#low-confidence h2 .count")).to_have_text("3건")
    expect(page.locator("#checks")).to_be_visible()


@contextlib.contextmanager
def _serving(tmp_path: Path):
    """`verdicts mail serve --port 0` for real, in a subprocess; yields its base URL."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with started([sys.executable, "-m", "verdicts.cli", "mail", "serve", "--port", "0"], tmp_path / "server.log",
                 env=private_dirs(tmpdir)) as (_, url):
        yield url


def test_before_a_mailbox_is_connected_the_screen_offers_the_sample(page, tmp_path):
    with _serving(tmp_path) as base:
        page.goto(base + "/")
        expect(page.locator("#upload h2")).to_have_text("메일함 표 올리기")
        expect(page.locator("#groups-empty")).to_contain_text("아직 연결한 메일함이 없습니다")
        page.click("#sample")
        expect(page.locator("#low-confidence h2 .count")).to_have_text("4건", timeout=60_000)
        expect(page.locator("details.card")).to_have_count(15)
        expect(page.locator("#checks h2 .count")).to_have_text("10/10 통과")
        # an upload whose agent_action lacks its confidence column: the line and reason, the screen stays up
        upload = tmp_path / "upload"
        shutil.copytree(EXAMPLE, upload)
        rows = (upload / "agent_action.csv").read_text(encoding="utf-8").splitlines()
        (upload / "agent_action.csv").write_text(
            "\n".join(",".join(c for i, c in enumerate(r.split(",")) if i != 4) for r in rows) + "\n", encoding="utf-8")
        page.goto(base + "/")
        page.set_input_files("#files", [str(upload / n) for n in ("agent_action.csv", "mailbox_thread.csv", "action_policy.csv")])
        page.click("#upload button[type=submit]")
        issue = page.locator("#issues tbody tr").filter(has_text="agent_action")
        expect(issue.first).to_contain_text("confidence", timeout=60_000)
        cells = issue.first.locator("td").all_inner_texts()
        assert cells[0].endswith("agent_action.csv") and cells[2:4] == ["1", "confidence"] and "열이 없어" in cells[4]
        expect(page.locator("#upload")).to_be_visible()
        expect(page.locator("#checks")).to_be_visible()
