"""The shared report screen renders any domain: groups, subgroups, evidence with
``source``, checks, notes, grading, issues — and escapes every user string."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import ClassVar

import pytest

from verdicts.domain import Domain, Report
from verdicts.errors import InputError
from verdicts.grading import grade, read_gold
from verdicts.model import Card, CheckResult, Evidence, InputIssue
from verdicts.screen import ContextTable, ScreenExtras, load_grading, render_html, rich


class TaskCard(Card):
    __slots__ = ()
    key_field: ClassVar[str] = "task_id"
    field_names: ClassVar[tuple[str, ...]] = ("task_id", "verdict", "blocked_cause", "evidence", "summary", "hedge")


class RoundDomain(Domain):
    """A small robot-like domain: verdicts split by ``blocked_cause`` on screen."""

    name = "round"
    title = "로봇 과제 판정"
    card_type = TaskCard
    verdicts = ("막힘", "통과")
    passing_verdicts = frozenset({"통과"})
    subgroup_field = {"막힘": "blocked_cause"}
    notes = {"자동": ["자동 문장입니다."], "수동": ["수동 문장입니다."], "정직 경계선": ["경계 문장입니다."]}

    def judge(self, path: Path) -> Report:  # pragma: no cover - not used here
        raise NotImplementedError

    def checks(self):
        return []


def _report() -> Report:
    cards = [
        TaskCard.of(task_id="T-1", verdict="막힘", blocked_cause="gripper", summary="집게가 <b>세 번</b> 미끄러졌습니다.",
                 evidence=[Evidence(source="evaluation_run", field="success", agg="count", value=3),
                           Evidence(source="task_spec", field="task_name", value="<script>alert('x')</script>")]),
        TaskCard.of(task_id="T-2", verdict="막힘", blocked_cause="camera", summary="카메라가 꺼졌습니다.", hedge="원인은 추정입니다.",
                 evidence=[Evidence(source="evaluation_run", field="frames", value=0)]),
        TaskCard.of(task_id="T-3", verdict="막힘", blocked_cause="gripper", summary="집게가 닫히지 않았습니다.", evidence=[]),
        TaskCard.of(task_id="T-4", verdict="통과", summary="끝까지 해냈습니다.", evidence=[Evidence(field="success", value=True)]),
    ]
    issues = [InputIssue(file="run.csv", table="evaluation_run", line=7, column="task_id", reason="task_id가 비어 있습니다 <&>.")]
    checks = [CheckResult(id="R01", description="판정이 목록 안에 있습니다.", passed=True, failed_targets=[]),
              CheckResult(id="R02", description="근거 열이 있습니다.", passed=False, failed_targets=["T-3"], note="하나 실패")]
    return Report("round", cards, issues, checks)


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.scripts: list[str] = []
        self.ids: set[str] = set()
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get("id"):
            self.ids.add(a["id"])
        if tag == "script":
            self._in_script = True
            self.scripts.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.scripts[-1] += data


def test_generic_domain_gets_every_panel():
    html = render_html(_report(), RoundDomain())
    p = _Collect()
    p.feed(html)
    assert {"issues", "groups", "checks", "notes", "grading"} <= p.ids
    assert len(p.scripts) == 1  # only the page's own script
    # subgroups by blocked_cause with counts
    assert re.search(r'data-subgroup="gripper"><h3><code>blocked_cause</code> = gripper <span class="count">\(2\)</span>', html)
    assert 'data-subgroup="camera"' in html
    # evidence table shows the source column when present
    assert "<th>source</th><th>field</th><th>agg</th><th>value</th>" in html
    # counts per group
    assert 'data-verdict="막힘"' in html and 'data-count="3"' in html and 'data-count="1"' in html
    # notes come from the domain, in three parts
    for part, sentence in RoundDomain.notes.items():
        assert f'data-part="{part}"' in html and sentence[0] in html
    # a failing check names its cards
    assert 'data-check="R02" data-passed="false"' in html and "T-3" in html
    assert "1/2 통과" in html


def test_user_strings_are_escaped():
    html = render_html(_report(), RoundDomain())
    assert "<b>세 번</b>" not in html and "&lt;b&gt;세 번&lt;/b&gt;" in html
    assert "<script>alert" not in html and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html
    assert "비어 있습니다 &lt;&amp;&gt;." in html


def test_content_security_policy_allows_only_the_page_script():
    import base64
    import hashlib

    html = render_html(_report(), RoundDomain())
    p = _Collect()
    p.feed(html)
    digest = base64.b64encode(hashlib.sha256(p.scripts[0].encode()).digest()).decode()
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html).group(1)
    assert f"script-src &#x27;sha256-{digest}&#x27;" in csp
    assert "default-src &#x27;none&#x27;" in csp


def test_self_contained_no_external_resources():
    html = render_html(_report(), RoundDomain())
    assert not re.search(r'(src|href)\s*=\s*"(https?:)?//', html)
    assert "@import" not in html and "url(" not in html


def test_context_table_and_highlight():
    extras = ScreenExtras(context={"T-1": ContextTable("T-1 의 이웃", ["a", "b"], [["<x>", 1], ["y", 2]], highlight={1: "이 카드"})})
    html = render_html(_report(), RoundDomain(), extras)
    assert "<caption>T-1 의 이웃</caption>" in html
    assert '<tr class="hl"><td>y</td><td>2</td><td class="mark">이 카드</td></tr>' in html
    assert "<td>&lt;x&gt;</td>" in html


def test_grading_panel_is_empty_on_a_prediction_screen():
    html = render_html(_report(), RoundDomain())
    assert 'data-state="empty"' in html and 'data-mode="prediction"' in html
    assert 'class="agreement"' not in html


def _grading_file(tmp_path: Path, domain: Domain, report: Report, input_file: Path) -> Path:
    gold = tmp_path / "gold.csv"
    gold.write_text("task_id,verdict,note\nT-1,막힘,\nT-2,통과,사람은 통과로 봄\nT-4,통과,\n", encoding="utf-8")
    rows, issues = read_gold(gold, key_field="task_id", verdicts=domain.verdicts)
    result = grade(report.cards, rows, verdicts=domain.verdicts, domain=domain.name, inputs=[input_file], gold_path=gold,
                   tool="test", version="0", issues=issues)
    out = tmp_path / "grading.json"
    out.write_text(json.dumps(result.to_json(), ensure_ascii=False), encoding="utf-8")
    return out


def test_grading_panel_filled_from_a_grading_run(tmp_path):
    domain, report = RoundDomain(), _report()
    input_file = tmp_path / "run.csv"
    input_file.write_text("task_id\nT-1\n", encoding="utf-8")
    panel = load_grading(_grading_file(tmp_path, domain, report, input_file), domain, inputs=[input_file])
    assert panel.same_inputs is True
    html = render_html(report, domain, ScreenExtras(grading=panel))
    assert 'data-mode="grading"' in html and 'data-state="filled"' in html
    # 3 gold rows, T-2 disagrees: 2 of 3 agree
    assert "판정 일치 <b>2/3</b> (66.7%)" in html
    assert "<code>T-2</code> 정답 <b>통과</b> / 자동 <b>막힘</b>" in html and "사람은 통과로 봄" in html
    assert "gold.csv" in html and "sha256" in html and "test 0" in html
    # a changed input is flagged
    input_file.write_text("task_id\nT-9\n", encoding="utf-8")
    panel = load_grading(tmp_path / "grading.json", domain, inputs=[input_file])
    assert panel.same_inputs is False
    assert "sha256 불일치" in render_html(report, domain, ScreenExtras(grading=panel))


@pytest.mark.parametrize("content, message", [
    ("not json", "읽지 못했습니다"),
    ("[]", "JSON 객체"),
    ('{"agreement": {}}', "채점기 출력이 아닙니다"),
    # a key written twice (issue 32, item 2): which value is the run's cannot be known
    ('{"agreement": {},\n "agreement": {"x": 1}}', r"g\.json:2:2: 채점 결과 JSON에 `agreement` 키가 두 번 있어"),
    ('{"agreement": {}, "per_verdict": {}, "confusion": {}, "disagreements": [], "provenance": {}}', "provenance"),
    ('{"agreement": {}, "per_verdict": {}, "confusion": {}, "disagreements": [], '
     '"provenance": {"tool": "t", "time": "x", "gold": {}, "domain": "mail"}}', "mail"),
])
def test_load_grading_refuses_what_is_not_a_grading_run(tmp_path, content, message):
    path = tmp_path / "g.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        load_grading(path, RoundDomain())


def test_empty_page_before_upload():
    html = render_html(None, RoundDomain(), ScreenExtras(upload=True, upload_limit_bytes=1024 * 1024))
    assert 'action="/upload"' in html and "샘플 데이터로 보기" in html
    assert 'id="checks"' in html and 'id="notes"' in html and 'id="grading"' in html
    assert "1.0MB" in html


def test_verdicts_run_writes_the_generic_screen(cli, tmp_path, examples):
    out = tmp_path / "screen.html"
    proc = cli("verdicts", "run", "storygraph", examples / "lighthouse" / "scenario.csv", "--html", out, "--format", "json")
    assert proc.returncode == 1
    cards = json.loads(proc.stdout)["cards"]
    html = out.read_text(encoding="utf-8")
    assert html.count('<details class="card"') == len(cards)
    for panel in ("checks", "notes", "grading", "issues"):
        assert f'id="{panel}"' in html


def test_robot_round_on_the_shared_screen(cli, tmp_path, examples):
    """The robot domain shows its cards in the same screen: subgroups by blocked_cause,
    evidence with source/field/agg/value, its own verification notes."""
    from verdicts.domain import get_domain

    out = tmp_path / "robot.html"
    proc = cli("verdicts", "run", "robot", examples / "robot", "--html", out, "--format", "json")
    assert proc.returncode in (0, 1), proc.stderr
    cards = json.loads(proc.stdout)["cards"]
    html = out.read_text(encoding="utf-8")
    assert html.count('<details class="card"') == len(cards)
    domain = get_domain("robot")
    for verdict, field_name in domain.subgroup_field.items():
        causes = {c[field_name] for c in cards if c["verdict"] == verdict}
        for cause in causes:
            n = sum(1 for c in cards if c["verdict"] == verdict and c[field_name] == cause)
            assert f'data-subgroup="{cause}"><h3><code>{field_name}</code> = {cause} <span class="count">({n})</span>' in html
    assert "<th>source</th><th>field</th><th>agg</th><th>value</th>" in html
    for sentences in domain.notes.values():
        assert sentences and rich(sentences[0]) in html  # its code quoted as <code>


def test_robot_round_with_a_grading_run_fills_the_panel(cli, tmp_path):
    import json

    from tests.conftest import EXAMPLES

    grading = tmp_path / "grading.json"
    proc = cli("verdicts", "grade", "robot", EXAMPLES / "robot", EXAMPLES / "robot" / "gold.csv", "--format", "json")
    grading.write_text(proc.stdout, encoding="utf-8")
    assert json.loads(proc.stdout)["agreement"]["total"] == 30
    page = tmp_path / "robot.html"
    cli("verdicts", "run", "robot", EXAMPLES / "robot", "--html", page, "--grading", grading)
    html = page.read_text(encoding="utf-8")
    assert "30/30" in html and "정직 경계선" in html
    # without --html, --grading is refused with a message
    assert cli("verdicts", "run", "robot", EXAMPLES / "robot", "--grading", grading).returncode == 2
