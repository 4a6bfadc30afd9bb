"""The mail report screen in a real browser (Debian's headless Chromium driven by
Playwright, as the other screens): the low-confidence list as its own panel, whose rows
open the card with its field/agg/value/quote evidence; the checks and the empty
self-grading panel; an empty ``confidence`` shown as an input issue with its line while
the rest of the screen stays up."""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "examples" / "mail"
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
#: the sample's actions whose confidence is below their kind's minimum (two of each outcome)
LOW = ["ACT-20260303-007", "ACT-20260303-008", "ACT-20260303-012", "ACT-20260303-015"]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("Chromium is missing: run `bash scripts/setup.sh --test`.")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="ko-KR")
    pg = context.new_page()
    pg.external = []

    def guard(route):
        if route.request.url.startswith(("file://", "data:", "about:")):
            route.continue_()
        else:
            pg.external.append(route.request.url)
            route.abort()

    pg.route("**/*", guard)
    yield pg
    context.close()


def _screen(inputs: Path, out: Path) -> Path:
    """The screen as a user makes it: `verdicts run mail INPUTS --html OUT`."""
    done = subprocess.run([sys.executable, "-m", "verdicts.cli", "run", "mail", str(inputs), "--html", str(out), "-q"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert out.exists(), done.stderr
    return out


def test_the_low_confidence_list_is_its_own_panel_and_opens_each_card(page, tmp_path):
    page.goto(_screen(EXAMPLE, tmp_path / "mail.html").as_uri())
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
    assert page.external == []


def test_an_empty_confidence_names_its_line_and_the_screen_stays_up(page, tmp_path):
    inputs = tmp_path / "round"
    shutil.copytree(EXAMPLE, inputs)
    actions = (inputs / "agent_action.csv").read_text(encoding="utf-8").splitlines()
    line = next(i for i, row in enumerate(actions, start=1) if row.startswith("ACT-20260303-008,"))
    fields = actions[line - 1].split(",")
    fields[4] = ""
    actions[line - 1] = ",".join(fields)
    (inputs / "agent_action.csv").write_text("\n".join(actions) + "\n", encoding="utf-8")
    page.goto(_screen(inputs, tmp_path / "bad.html").as_uri())
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
    tmpdir, run_dir = tmp_path / "tmp", tmp_path / "run"
    tmpdir.mkdir()
    run_dir.mkdir(mode=0o700)
    env = dict(os.environ, TMPDIR=str(tmpdir), XDG_RUNTIME_DIR=str(run_dir))
    log = open(tmp_path / "server.log", "w")
    proc = subprocess.Popen([sys.executable, "-m", "verdicts.cli", "mail", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=log, text=True, env=env, cwd=ROOT)
    try:
        line = proc.stdout.readline().strip()
        assert line.startswith("http://127.0.0.1:"), (tmp_path / "server.log").read_text()
        yield line.rstrip("/")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
        log.close()


def test_before_a_mailbox_is_connected_the_screen_offers_the_sample(browser, tmp_path):
    context = browser.new_context(viewport={"width": 1300, "height": 900}, locale="ko-KR")
    page = context.new_page()
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
    context.close()
