"""The real ``verdicts`` command over the bundled runs: every format, the HTML screen,
saving and showing a round, explain and docs — all from the kit."""

from __future__ import annotations

import json

import pytest

from .conftest import EXAMPLE, write_form


def test_text_report_groups_by_verdict(cli):
    proc = cli("verdicts", "run", "extraction", EXAMPLE, "-q", check_code=1)
    out = proc.stdout
    assert out.index("■ 필수 칸이 빔") < out.index("■ 형식이 규칙과 다름") < out.index("■ 근거 문구가 원문에 없음") \
        < out.index("■ 원문 값과 다름") < out.index("■ 원문과 맞음")
    assert "근거 문구가 원문에 없음 · R-20935:credit_valid_until" in out


@pytest.mark.parametrize("form", ["xlsx", "json", "yaml", "jsonl"])
def test_every_form_from_the_command_line(form, tmp_path, cli):
    proc = cli("verdicts", "run", "extraction", write_form(form, tmp_path), "-f", "json", "-q", check_code=1)
    data = json.loads(proc.stdout)
    assert len(data["cards"]) == 17 and data["issues"] == []
    assert all(c["passed"] for c in data["checks"])


def test_sarif_and_github(cli):
    sarif = json.loads(cli("verdicts", "run", "extraction", EXAMPLE, "-f", "sarif", "-q", check_code=1).stdout)
    results = sarif["runs"][0]["results"]
    assert {r["ruleId"] for r in results} >= {"required-empty", "not-in-source", "differs-from-source", "format-broken"}
    github = cli("verdicts", "run", "extraction", EXAMPLE, "-f", "github", "-q", check_code=1).stdout
    assert "worker_outputs.csv" in github


def test_html_save_and_show(tmp_path, cli):
    page, db = tmp_path / "screen.html", tmp_path / "rounds.sqlite3"
    cli("verdicts", "run", "extraction", EXAMPLE, "--html", page, "--save", "--db", db, "-q", check_code=1)
    html = page.read_text(encoding="utf-8")
    assert "R-20931:biz_reg_no" in html and "원문 값과 다름" in html
    shown = cli("verdicts", "show", "extraction", "--db", db, check_code=1).stdout
    assert "R-20935:ceo_name" in shown


def test_explain_a_verdict_and_a_check(cli):
    assert "잡는 것:" in cli("verdicts", "explain", "extraction", "원문 값과 다름", check_code=0).stdout
    assert "NFKC" in cli("verdicts", "explain", "extraction", "7", check_code=0).stdout
