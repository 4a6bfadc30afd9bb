"""The report screen puts the problems first (issue 18, item 4), in real Chromium:
summary strip, problem groups open and passing ones folded, hedges that undo a passing
verdict marked without opening the row, Korean line breaking, a phone-sized screen
(390 px) with a short header, reflowing tables and no sideways scroll, verdicts told
apart by mark and border as well as colour, every text at WCAG AA contrast (4.5:1), the
sample labelled, upload by a Korean button or by drag and drop.

Screenshots of the desktop and phone screens go to ``test-artifacts/`` (untracked: a
test run never changes the repository; copy them to ``docs/img/`` for docs/screen.md)."""

from __future__ import annotations

import pytest

from tests.browser import ARTIFACTS, new_context
from tests.conftest import EXAMPLES, run

#: the contrast of every text node's colour against the background it is drawn on
CONTRAST_JS = """
() => {
  const parse = (c) => { const m = c.match(/rgba?\\(([^)]+)\\)/); if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number); return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1]; };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const background = (el) => { for (let e = el; e; e = e.parentElement) { const b = parse(getComputedStyle(e).backgroundColor);
    if (b && b[3] > 0.5) return b; } return [255, 255, 255, 1]; };
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el || el.closest("svg, script, style")) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || !el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const s = getComputedStyle(el); const fg = parse(s.color); const bg = background(el);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    out.push({ text: n.textContent.trim().slice(0, 40), ratio: (a + 0.05) / (b + 0.05), color: s.color, bg: bg.join(",") });
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def broken_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("front") / "broken.html"
    run("storygraph", "lint", EXAMPLES / "lighthouse-broken" / "scenario.csv", "--html", out)
    return out


def test_problems_first_strip_folded_passing_and_marked_hedges(page, report_file):
    page.goto(report_file.as_uri())
    strip = page.locator("#summary-strip")
    assert strip.is_visible()
    text = strip.inner_text()
    # the text report's own opening lines, word for word: one summary, not a second one
    summary, kinds = run("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv").stdout.splitlines()[:2]
    assert "scenario.csv" in text and text.endswith(summary) and "문제 27건(표로만 닿음 8건 포함)" in summary
    assert page.locator("#problem-kinds").inner_text() == kinds.strip()
    states = [g.get_attribute("data-state") for g in page.locator("section.group").all()]
    assert states == ["problem"] * 5 + ["passing"]
    assert page.locator('section[data-state="problem"] details.card').first.locator("summary").is_visible()
    passing = page.locator('section[data-state="passing"]')
    assert passing.locator("details.fold.rest").get_attribute("open") is None
    assert not passing.locator("details.fold.rest details.card").first.locator("summary").is_visible()
    # a green card no real reader bears out: among the problems, its label the seed's, its own mark
    undone = page.locator('section[data-verdict="표로만 닿음"]')
    assert undone.get_attribute("data-state") == "problem"
    assert "실제 독자는 지나가지 못하거나" in undone.inner_text()
    # eight rows: the first five in view (sorted by key), the rest behind the fold
    assert [r.get_attribute("data-key") for r in undone.locator("details.card").all() if r.locator("summary").is_visible()] \
        == ["BR-14", "BR-46", "BR-51", "BR-62", "SC-12"]
    assert not undone.locator('details.card[data-key="SC-28"] summary').is_visible()
    undone.get_by_text("나머지 3건 모두 보기").click()
    for key in ("SC-12", "SC-28", "BR-14"):
        row = undone.locator(f'details.card[data-key="{key}"] summary')
        assert row.is_visible() and "끝까지 닿음" in row.inner_text() and "⚠" in row.inner_text()
        assert passing.locator(f'details.card[data-key="{key}"]').count() == 0
    # a caveat alone keeps its card a pass: marked, readable without opening
    row = passing.locator('details.card[data-undone][data-key="SC-21"] summary')
    assert row.is_visible() and "판정에 단서가 붙었습니다" in row.inner_text()
    # a card in the fold opens with its fold (a link from the diagram)
    key = passing.locator("details.fold.rest details.card").first.get_attribute("id")
    page.goto(report_file.as_uri() + "#" + key)
    assert page.locator(f"#{key} summary").is_visible()
    page.goto(report_file.as_uri())
    page.screenshot(path=str(ARTIFACTS / "report.png"))


def test_korean_breaks_by_words_and_a_font_fallback(page, report_file):
    page.goto(report_file.as_uri())
    style = page.evaluate("() => { const s = getComputedStyle(document.body); return [s.wordBreak, s.fontFamily]; }")
    assert style[0] == "keep-all"
    assert style[1].rstrip().endswith("sans-serif")  # the generic family when no Korean font is installed


def test_verdicts_differ_by_mark_and_border_not_colour_alone(page, report_file):
    page.goto(report_file.as_uri())
    seen = {}
    for badge in page.locator("section.group > h2 .badge").all():
        mark = badge.locator(".mark").inner_text()
        border = badge.evaluate("b => getComputedStyle(b).borderTopStyle")
        seen[badge.inner_text()] = (mark, border)
    assert len(seen) == 6 and len({m for m, _ in seen.values()}) == 6  # the five verdicts and 표로만 닿음


@pytest.mark.parametrize("which", ["report_file", "broken_file"])
def test_every_text_at_wcag_aa_contrast(page, request, which):
    page.goto(request.getfixturevalue(which).as_uri())
    page.get_by_role("button", name="모두 펼치기").click()
    texts = page.evaluate(CONTRAST_JS)
    assert len(texts) > 100
    low = [t for t in texts if t["ratio"] < 4.5]
    assert low == [], low[:10]


def test_phone_width_short_header_reflowing_tables_no_sideways_scroll(browser, broken_file):
    context = new_context(browser, viewport={"width": 390, "height": 844}, device_scale_factor=2)
    pg = context.new_page()
    try:
        pg.goto(broken_file.as_uri())
        assert pg.locator("header").bounding_box()["height"] <= 844 / 6
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
        assert pg.locator("table.issues td").first.evaluate("td => getComputedStyle(td).display") == "block"
        pg.get_by_role("button", name="모두 펼치기").click()
        assert pg.evaluate("() => document.documentElement.scrollWidth") <= 390
        texts = pg.evaluate(CONTRAST_JS)
        assert [t for t in texts if t["ratio"] < 4.5] == []
        pg.get_by_role("button", name="모두 접기").click()
        pg.screenshot(path=str(ARTIFACTS / "report-phone.png"))
    finally:
        context.close()


def test_sample_is_labelled_and_a_file_can_be_dropped(page, server):
    url, _ = server
    page.goto(url + "/")
    assert page.locator("label.pick").inner_text() == "파일 고르기"
    page.get_by_role("button", name="샘플 데이터로 보기").click()
    page.wait_for_url("**/sample*")
    assert "샘플 데이터입니다" in page.locator(".sample-note").inner_text()
    assert "샘플 데이터" in page.locator("#summary-strip").inner_text()
    # drop a scenario onto the box: the file is picked, then checked
    csv = (EXAMPLES / "lighthouse" / "scenario.csv").read_text(encoding="utf-8")
    page.evaluate("""(csv) => {
        const dt = new DataTransfer();
        dt.items.add(new File([csv], "dropped.csv", { type: "text/csv" }));
        const box = document.getElementById("drop");
        box.dispatchEvent(new DragEvent("dragover", { dataTransfer: dt, bubbles: true, cancelable: true }));
        box.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }""", csv)
    assert page.locator(".picked").inner_text() == "dropped.csv"
    page.get_by_role("button", name="검사하기").click()
    page.wait_for_selector("#summary-strip")
    assert "dropped.csv" in page.locator("#summary-strip").inner_text()
    assert page.locator(".sample-note").count() == 0


@pytest.mark.parametrize("content", ["", "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no\n"])
def test_an_empty_or_header_only_upload_shows_no_green_check(page, server, tmp_path, content):
    url, _ = server
    path = tmp_path / "scenario.csv"
    path.write_text(content, encoding="utf-8")
    page.goto(url + "/")
    page.set_input_files("#files", str(path))
    page.get_by_role("button", name="검사하기").click()
    page.wait_for_load_state()
    assert page.locator("#checks .pass").count() == 0
    assert page.locator("#checks .count.all-pass").count() == 0
