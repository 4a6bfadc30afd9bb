"""The report screen in a real browser: Debian's headless Chromium driven by Playwright
(the ``browser`` and ``page`` fixtures of ``tests/browser.py``).  Screenshots go to
``test-artifacts/`` (git-ignored).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser import ARTIFACTS
from tests.storygraph.screen_server import served

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
#: the groups of the lighthouse screen in order: the problems (the passing cards no reader bears out among them), then the pass
VERDICTS = ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "표로만 닿음", "끝까지 닿음")


def _used_fonts(page, selector: str) -> list[str]:
    """The fonts Chromium really used to draw the text of ``selector`` (DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [f["familyName"] for f in fonts]


def _visible_groups(page) -> dict[str, int]:
    out = {}
    for g in page.locator("section.group").all():
        assert g.is_visible()
        out[g.get_attribute("data-verdict")] = int(g.locator("h2 .count").get_attribute("data-count"))
    return out


def test_written_report_offline_with_every_panel(page, report_file):
    page.goto(report_file.as_uri())
    groups = _visible_groups(page)
    assert list(groups) == list(VERDICTS)
    assert sum(groups.values()) == page.locator("details.card").count()
    # always visible, without any click
    assert page.locator("#checks table.checks tr").count() >= 10
    assert page.locator("#checks").is_visible()
    for part in ("자동", "수동", "정직 경계선"):
        assert page.locator(f'#notes [data-part="{part}"] li').first.is_visible()
    assert page.locator('#grading [data-state="empty"]').is_visible()
    assert page.locator("#diagram svg").is_visible()
    assert page.locator("#issues").is_visible()
    # Korean is drawn with a Korean font, not a fallback box
    fonts = _used_fonts(page, 'details.card[data-key="SC-19"] .summary')
    assert any("Nanum" in f or "CJK" in f for f in fonts), fonts
    page.screenshot(path=str(ARTIFACTS / "report.png"))
    assert page.external_requests == [] and page.dialogs == []


def test_a_row_expands_to_evidence_and_context(page, report_file):
    page.goto(report_file.as_uri())
    card = page.locator('details.card[data-key="BR-13"]')
    evidence = card.locator("table.evidence")
    assert not evidence.is_visible()
    card.locator("summary").click()
    assert evidence.is_visible()
    assert evidence.locator("th").all_inner_texts()[:4] == ["source", "field", "agg", "value"]
    context = card.locator("table.context")
    assert context.is_visible()
    assert context.locator("th").all_inner_texts()[:4] == ["branch_id", "title", "condition_expr", "order_no"]
    rows = context.locator("tbody tr")
    assert rows.nth(0).locator("td").first.inner_text() == "BR-11"
    assert context.locator("tr.hl").count() >= 2  # this card and the branch it covers
    card.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "report-expanded.png"))
    page.get_by_role("button", name="모두 접기").click()
    assert not evidence.is_visible()


def test_clicking_a_scene_in_the_diagram_opens_its_card(page, report_file):
    page.goto(report_file.as_uri())
    page.locator("#diagram svg g.node", has_text="SC-19").locator("a").first.click()
    card = page.locator('details.card[data-key="SC-19"]')
    # Playwright's own polling: a string predicate (wait_for_function) would need eval,
    # which the report's Content-Security-Policy rightly forbids
    expect(card).to_have_attribute("open", "")
    expect(card.locator("table.evidence")).to_be_visible()
    page.locator("#diagram").screenshot(path=str(ARTIFACTS / "diagram.png"))


def test_a_card_shows_where_it_is_in_the_diagram(page, report_file):
    page.goto(report_file.as_uri())
    card = page.locator('details.card[data-key="BR-42"]')
    card.locator("summary").click()
    card.get_by_role("button", name="그림에서 보기").click()
    flashed = page.locator("#diagram svg .flash")
    assert flashed.count() == 1
    assert flashed.get_attribute("class") == "edge flash"
    assert "BR-42" in flashed.text_content()
    assert flashed.is_visible()


def test_filter_box(page, report_file):
    page.goto(report_file.as_uri())
    page.fill("#filter", "BR-42")
    visible = [c for c in page.locator("details.card").all() if c.is_visible()]
    assert [c.get_attribute("data-key") for c in visible] == ["BR-42"]


def test_script_in_a_title_shows_as_text(page, tmp_path):
    from tests.conftest import run

    out = tmp_path / "hostile.html"
    run("storygraph", "lint", ROOT / "tests" / "data" / "screen" / "hostile.json", "--html", out)
    page.goto(out.as_uri())
    page.wait_for_timeout(300)
    assert page.dialogs == []
    summary = page.locator('details.card[data-key="S1"] .summary')
    assert "<script>alert(1)</script>" in summary.inner_text()
    assert page.locator("#diagram svg text", has_text="<script>alert(1)</script>").count() == 1
    assert page.locator("img").count() == 0


def test_served_sample_button(page, server):
    url, _ = server
    page.goto(url + "/")
    assert page.locator("section.group").count() == 0
    page.get_by_role("button", name="샘플 데이터로 보기").click()
    page.wait_for_url("**/sample*")
    groups = _visible_groups(page)
    assert list(groups) == list(VERDICTS) and groups["끝까지 닿음"] > 0
    page.locator('details.card[data-key="BR-42"] summary').click()
    assert page.locator('details.card[data-key="BR-42"] table.evidence').is_visible()
    page.screenshot(path=str(ARTIFACTS / "served-sample.png"))
    assert page.external_requests == []


def test_served_upload_of_a_broken_file_keeps_the_other_groups(page, server):
    url, tmpdir = server
    page.goto(url + "/")
    page.set_input_files("#files", str(EXAMPLES / "lighthouse-broken" / "scenario.csv"))
    page.get_by_role("button", name="검사하기").click()
    page.wait_for_url("**/upload")
    issues = page.locator("#issues table.issues tbody tr")
    assert issues.count() >= 1 and issues.first.is_visible()
    first = issues.first.locator("td").all_inner_texts()
    assert first[0] == "scenario.csv" and first[4]  # file and reason
    groups = _visible_groups(page)
    # every verdict group, in order (표로만 닿음 only when a card is in it)
    assert list(groups) == [v for v in VERDICTS if v in groups] and set(VERDICTS) - set(groups) <= {"표로만 닿음"}
    assert sum(groups.values()) > 0
    page.screenshot(path=str(ARTIFACTS / "served-broken.png"), full_page=False)
    assert list(tmpdir.iterdir()) == []


def test_served_upload_of_several_csvs_is_the_folder_form(page, server):
    url, _ = server
    page.goto(url + "/")
    folder = EXAMPLES / "lighthouse-folder"
    page.set_input_files("#files", [str(folder / f"{t}.csv") for t in ("scene_states", "story_branches", "flag_spec")])
    page.get_by_role("button", name="검사하기").click()
    page.wait_for_url("**/upload")
    assert page.locator("#inputs").inner_text().count("scene_states.csv") == 1
    assert _visible_groups(page)["없는 장면을 가리킴"] >= 1


def test_too_big_upload_is_stopped_in_the_page(page, tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with served(tmpdir, "--max-upload-mb", "0.002") as url:
        page.goto(url + "/")
        page.set_input_files("#files", str(EXAMPLES / "lighthouse" / "scenario.csv"))
        page.get_by_role("button", name="검사하기").click()
        error = page.locator(".upload-error")
        error.wait_for(state="visible")
        assert "너무 큽니다" in error.inner_text()
        assert page.url.rstrip("/") == url


MERMAID_JS = ROOT / ".venv" / "share" / "mermaid" / "mermaid.min.js"


@pytest.mark.parametrize("scenario", [EXAMPLES / "lighthouse" / "scenario.csv", ROOT / "tests" / "data" / "screen" / "hostile.json"],
                         ids=["lighthouse", "hostile"])
def test_mermaid_output_renders_in_mermaid(page, tmp_path, scenario):
    """`--format mermaid` is parsed and drawn by Mermaid itself (its bundle fetched by
    scripts/setup.sh --test), with every title shown as text."""
    if not MERMAID_JS.exists():
        pytest.skip("Mermaid's bundle is missing (scripts/setup.sh --test fetches it with npm)")
    from tests.conftest import run

    out = tmp_path / "story.mmd"
    run("storygraph", "render", scenario, "-o", out, "--format", "mermaid", check_code=0)
    page.set_content('<html><body><div id="out"></div></body></html>')
    page.add_script_tag(path=str(MERMAID_JS))
    result = page.evaluate("""async (src) => {
        mermaid.initialize({startOnLoad: false, securityLevel: 'strict'});
        try { await mermaid.parse(src); const r = await mermaid.render('story', src);
              document.getElementById('out').innerHTML = r.svg; return 'ok'; }
        catch (e) { return 'error: ' + e.message; } }""", out.read_text(encoding="utf-8"))
    assert result == "ok"
    text = page.locator("#out").inner_text()
    from storygraph import lint

    for scene in lint(scenario).scenario.scenes.values():
        first_line = scene.title.splitlines()[0]
        assert first_line in text or first_line.replace("\\", "") in text.replace("\\", ""), scene.title
    assert page.locator("#out script, #out img").count() == 0 and page.dialogs == []
    page.screenshot(path=str(ARTIFACTS / f"mermaid-{scenario.stem}.png"), full_page=True)


def test_serve_watch_updates_the_open_page_after_a_save(page, tmp_path):
    """``storygraph serve --watch PATH`` in the real browser: save a changed file and the
    open page shows the new verdicts without a reload click, keeping the card the reader
    had opened and where they had scrolled to."""
    scenario = tmp_path / "story" / "scenario.csv"
    scenario.parent.mkdir()
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", scenario)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with served(tmpdir, "--watch", str(scenario)) as url:
        page.goto(url + "/")
        missing = page.locator('details.card[data-key="BR-42"]')
        expect(missing).to_have_attribute("data-verdict", "없는 장면을 가리킴")
        kept = page.locator('details.card[data-key="SC-19"]')
        kept.locator("summary").click()
        expect(kept).to_have_attribute("open", "")
        page.evaluate("window.scrollTo(0, 400)")
        scrolled = page.evaluate("window.scrollY")
        text = scenario.read_text(encoding="utf-8")
        temp = scenario.with_name("~scenario.tmp")
        temp.write_text(text.replace("SC-88", "SC-01", 1), encoding="utf-8")
        temp.replace(scenario)  # as a spreadsheet program saves
        expect(page.locator("body")).to_have_attribute("data-version", "1", timeout=30_000)
        expect(page.locator('details.card[data-key="BR-42"]')).not_to_have_attribute("data-verdict", "없는 장면을 가리킴")
        expect(page.locator('details.card[data-key="SC-19"]')).to_have_attribute("open", "")
        assert abs(page.evaluate("window.scrollY") - scrolled) < 5
        page.screenshot(path=str(ARTIFACTS / "serve-watch-after-save.png"))
        assert page.external_requests == []
