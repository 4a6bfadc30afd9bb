"""The residue report screen in a real browser (Debian's headless Chromium driven by
Playwright, as the other screens): components grouped by answer, each card's figure —
the picture with the texts read off it boxed in their source's colour, or the node
boxes when there is no picture — and an unreadable picture shown as an input issue
while the rest is judged."""

from __future__ import annotations

import csv
import shutil
from collections import Counter
from pathlib import Path

import pytest
import yaml

from tests.browser import verdicts_screen

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
EXAMPLES = ROOT / "examples" / "residue"


@pytest.fixture(scope="module")
def screen(tmp_path_factory) -> Path:
    return verdicts_screen("residue", EXAMPLES, tmp_path_factory.mktemp("screen") / "residue.html")


def _open(page, key: str):
    """Open a card's row as a reader does: a group shows its first five rows, so first the
    "나머지 N건 모두 보기" fold the row may sit behind."""
    card = page.locator(f'details.card[data-key="{key}"]')
    fold = page.locator("details.fold.more", has=card)
    if fold.count():
        fold.locator("xpath=./summary").click()
    card.locator("summary").click()
    return card


def test_components_are_grouped_by_answer(page, screen):
    page.goto(screen.as_uri())
    gold = Counter(row["verdict"] for row in csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8")))
    for verdict, count in gold.items():
        expect(page.locator(f'section.group[data-verdict="{verdict}"] h2 .count')).to_have_text(f"{count}건")
    expect(page.locator("#checks h2 .count")).to_have_text("6/6 통과")
    expect(page.locator('#notes .note-part[data-part="정직 경계선"] li').first).to_be_visible()
    assert page.external_requests == []


def test_a_pictured_card_shows_its_picture_with_the_read_texts_boxed_by_source(page, screen, tmp_path):
    page.goto(screen.as_uri())
    card = _open(page, "DO-0706")
    figure = card.locator("figure.card-figure")
    expect(figure).to_be_visible()
    svg = figure.locator("svg")
    expect(svg).to_have_attribute("data-picture", "yes")
    # the picture is embedded and drawn (the page's policy lets data: images load)
    size = svg.locator("image").evaluate("i => { const b = i.getBBox(); return [b.width, b.height]; }")
    assert size == [1920, 1080]
    data = yaml.safe_load((EXAMPLES / "DO-0706.yaml").read_text(encoding="utf-8"))
    read = figure.locator("g.read")
    expect(read).to_have_count(len(data["visible_texts"]))
    template = figure.locator('g.read[data-source="라"]')
    expect(template).to_have_count(1)
    assert "『A열』→라" in template.locator("title").text_content()
    assert template.locator("rect").get_attribute("stroke") == "#c62828"
    users = figure.locator('g.read[data-source="가"] rect')
    assert set(users.evaluate_all("rs => rs.map(r => r.getAttribute('stroke'))")) == {"#1b7f3b"}
    expect(figure.locator("figcaption")).to_contain_text("그림(`result_thumb`) 위에 읽은 글 10개")
    # the boxes sit on the drawn texts: the template box is where 「A열」 was drawn
    box = template.locator("rect").evaluate("r => [r.x.baseVal.value, r.y.baseVal.value]")
    assert box == [data["visible_texts"][8]["box"][0], data["visible_texts"][8]["box"][1]]
    card.screenshot(path=str(tmp_path / "DO-0706.png"))
    assert not [e for e in page.console_errors if "Content Security Policy" in e]


def test_a_card_without_picture_draws_the_node_boxes(page, screen):
    page.goto(screen.as_uri())
    card = _open(page, "DO-0405")
    svg = card.locator("figure.card-figure svg")
    expect(svg).to_have_attribute("data-picture", "no")
    data = yaml.safe_load((EXAMPLES / "DO-0405.yaml").read_text(encoding="utf-8"))
    expect(svg.locator("rect.frame")).to_have_count(sum(1 for n in data["frame_tree"] if n.get("box")))
    expect(svg.locator('g.read[data-source="라"] text').first).to_have_text("기본 타이틀")
    expect(card.locator("figcaption")).to_contain_text("그림이 없어 노드 상자")
    expect(card.locator("table.evidence")).to_contain_text("『기본 타이틀』→라")


def test_an_unreadable_picture_is_an_issue_and_the_rest_is_shown(page, tmp_path):
    folder = tmp_path / "set"
    folder.mkdir()
    shutil.copy(EXAMPLES / "DO-0001.yaml", folder)
    bad = yaml.safe_load((EXAMPLES / "DO-0002.yaml").read_text(encoding="utf-8"))
    del bad["visible_texts"]
    bad["result_thumb"] = "DO-0002.png"
    (folder / "DO-0002.yaml").write_text(yaml.safe_dump(bad, allow_unicode=True), encoding="utf-8")
    (folder / "DO-0002.png").write_bytes(b"not a picture")
    page.goto(verdicts_screen("residue", folder, tmp_path / "bad.html").as_uri())
    issues = page.locator("#issues table.issues tbody tr")
    expect(issues).to_have_count(1)
    expect(issues.first).to_contain_text("DO-0002.yaml")
    expect(issues.first).to_contain_text("result_thumb")
    expect(issues.first).to_contain_text("그림 형식으로 알아볼 수 없는 파일입니다.")
    expect(page.locator("details.card")).to_have_count(1)
    expect(page.locator('details.card[data-key="DO-0001"]')).to_have_count(1)
