"""``storygraph lint --html``: one self-contained file with every panel of the spec."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from storygraph import lint
from storygraph.screen import context_tables
from verdicts.screen import rich

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "examples" / "lighthouse" / "scenario.csv"
BROKEN = ROOT / "examples" / "lighthouse-broken" / "scenario.csv"
HOSTILE = ROOT / "tests" / "data" / "screen" / "hostile.json"


@pytest.fixture(scope="module")
def lighthouse_html(tmp_path_factory):
    from tests.conftest import run

    out = tmp_path_factory.mktemp("html") / "report.html"
    proc = run("storygraph", "lint", LIGHTHOUSE, "--html", out)
    assert proc.returncode == 1, proc.stderr  # findings, as in the example
    return out.read_text(encoding="utf-8")


def _cards(cli, path) -> list[dict]:
    return json.loads(cli("storygraph", "lint", path, "--format", "json").stdout)["cards"]


def test_groups_with_counts_match_the_cards(cli, lighthouse_html):
    cards = _cards(cli, LIGHTHOUSE)
    for verdict in ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "끝까지 닿음"):
        n = sum(1 for c in cards if c["verdict"] == verdict and not c.get("undone"))
        assert re.search(rf'data-verdict="{verdict}"[^>]*>.*?data-count="{n}"', lighthouse_html), verdict
    # the passing cards no real reader bears out: a problem group of their own
    n = sum(1 for c in cards if c.get("undone"))
    assert n == 8 and re.search(rf'data-verdict="표로만 닿음" data-state="problem"[^>]*>.*?data-count="{n}"', lighthouse_html)
    rows = re.findall(r'<details class="card" id="card-\d+" data-key="([^"]+)" data-verdict="([^"]+)"(?: data-undone)?>', lighthouse_html)
    assert sorted(rows) == sorted((c["target_no"], c["verdict"]) for c in cards)


def test_a_row_is_verdict_key_and_summary_and_expands_to_evidence(cli, lighthouse_html):
    card = next(c for c in _cards(cli, LIGHTHOUSE) if c["target_no"] == "BR-13")
    block = re.search(r'<details class="card"[^>]*data-key="BR-13".*?</details>', lighthouse_html, re.S).group(0)
    assert f'{card["verdict"]}</span>' in block and "<code class=\"key\">BR-13</code>" in block
    assert rich(card["summary"]) in block  # its code quoted as <code>
    assert "<th>source</th><th>field</th><th>agg</th><th>value</th>" in block
    for ev in card["evidence"]:
        assert f'<td class="mono">{ev["field"]}</td>' in block
    # the context table: the branches of SC-05 in order_no order, with destination titles
    result = lint(LIGHTHOUSE)
    ordered = sorted((b for b in result.scenario.branches if b.from_scene == "SC-05"), key=lambda b: b.order_no)
    positions = [block.index(f"<td>{b.branch_id}</td>") for b in ordered]
    assert positions == sorted(positions)
    for b in ordered:
        assert result.scenario.scenes[b.to_scene].title in block
    assert "<th>title</th><th>condition_expr</th><th>order_no</th>" in block
    assert "뒤에서 덮이는 분기" in block  # BR-14, covered by BR-13


def test_always_visible_panels(lighthouse_html):
    for panel in ("checks", "notes", "grading", "issues", "diagram"):
        assert f'id="{panel}"' in lighthouse_html
    for check in ("C01", "C05", "C10"):
        assert f'data-check="{check}"' in lighthouse_html
    for part in ("자동", "수동", "정직 경계선"):
        assert f'data-part="{part}"' in lighthouse_html
    assert 'data-state="empty"' in lighthouse_html  # prediction screen
    assert "<svg" in lighthouse_html and 'href="#card-' in lighthouse_html


def test_self_contained(lighthouse_html):
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', lighthouse_html)
    assert "NanumGothic" in lighthouse_html and "Noto Sans CJK KR" in lighthouse_html
    assert lighthouse_html.count("<script") == 1


def test_partly_broken_input_keeps_the_other_groups(cli, tmp_path):
    out = tmp_path / "broken.html"
    proc = cli("storygraph", "lint", BROKEN, "--html", out)
    assert proc.returncode == 1
    html = out.read_text(encoding="utf-8")
    issues = json.loads(cli("storygraph", "lint", BROKEN, "--format", "json").stdout)["issues"]
    assert issues
    assert f'입력 문제 <span class="count">{len(issues)}건</span>' in html
    for issue in issues:
        assert rich(issue["reason"]) in html  # its code quoted as <code>
        if issue["line"] is not None:
            assert f'<td class="num" data-label="line">{issue["line"]}</td>' in html
    groups = re.findall(r'data-verdict="([^"]+)"[^>]*><h2>.*?data-count="(\d+)"', html)
    assert len(groups) == 5 and sum(int(n) for _, n in groups) > 0
    assert "cp949" in html.lower()  # the encoding read is said


def test_grading_option_fills_the_panel(cli, tmp_path):
    from verdicts.grading import grade, read_gold

    from storygraph.domain import DOMAIN

    gold = tmp_path / "gold.csv"
    gold.write_text("target_no,verdict\nSC-19,어디서도 안 닿음\nBR-42,없는 장면을 가리킴\nSC-01,끝에 못 감\n", encoding="utf-8")
    rows, issues = read_gold(gold, key_field="target_no", verdicts=DOMAIN.verdicts)
    result = grade(lint(LIGHTHOUSE).cards, rows, verdicts=DOMAIN.verdicts, domain="storygraph", inputs=[LIGHTHOUSE],
                   gold_path=gold, tool="storygraph", version="test", issues=issues)
    grading = tmp_path / "grading.json"
    grading.write_text(json.dumps(result.to_json(), ensure_ascii=False), encoding="utf-8")
    out = tmp_path / "graded.html"
    cli("storygraph", "lint", LIGHTHOUSE, "--html", out, "--grading", grading, check_code=1)
    html = out.read_text(encoding="utf-8")
    assert 'data-mode="grading"' in html and 'data-state="filled"' in html
    assert "판정 일치 <b>2/3</b>" in html  # SC-01 is 끝까지 닿음, the gold row says otherwise
    assert "sha256 일치" in html and "gold.csv" in html
    # not a grading run's output: refused, exit 2
    bad = tmp_path / "bad.json"
    bad.write_text('{"agreement": 1}', encoding="utf-8")
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--html", tmp_path / "x.html", "--grading", bad, check_code=2)
    assert "채점기 출력이 아닙니다" in proc.stderr


def test_script_title_shows_as_text(cli, tmp_path):
    out = tmp_path / "hostile.html"
    cli("storygraph", "lint", HOSTILE, "--html", out)
    html = out.read_text(encoding="utf-8")
    assert html.count("<script") == 1  # only the page's own
    assert "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_context_tables_cover_every_card():
    result = lint(LIGHTHOUSE)
    tables = context_tables(result)
    assert set(tables) == {c.key for c in result.cards}
    # a scene card's table lists the branches leaving that scene
    assert [r[0] for r in tables["SC-14"].rows] == ["BR-60", "BR-61", "BR-62"]
    assert tables["SC-31"].rows == []


def _long_chain(tmp_path: Path, n: int) -> Path:
    rows = ["scene_id,title,is_entry,is_ending,branch_id,from_scene,to_scene,condition_expr,order_no"]
    rows += [f"S{i},장면 {i},{'Y' if i == 0 else 'N'},{'Y' if i == n - 1 else 'N'},,,,," for i in range(n)]
    rows += [f",,,,B{i},S{i},S{i + 1},,1" for i in range(n - 1)]
    rows.append(",,,,BX,S5,S-missing,,2")  # one finding, near the start
    path = tmp_path / "chain.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_large_scenario_screen_falls_back_to_the_findings(tmp_path):
    from storygraph.domain import DOMAIN
    from storygraph.screen import report_html

    result = lint(_long_chain(tmp_path, 80))
    html = report_html(result, DOMAIN, max_nodes=30)
    assert "<svg" in html and "둘레 1걸음만 그렸습니다" in html
    svg = html[html.index("<svg"):html.index("</svg>")]
    assert "S&#45;missing" in svg and "장면 40" not in svg  # graphviz writes "-" as &#45;
    html = report_html(result, DOMAIN, max_nodes=1)
    assert "<svg" not in html and 'class="fail diagram-error"' in html and "--focus" in html
    assert 'data-count="' in html  # the groups are still there
