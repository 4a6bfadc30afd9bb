"""Issue 17, Deliver 6: the polite-sentence check (C10) does not split a sentence at
the user's own punctuation, and a failing self-check changes the exit code (3) with a
Korean line saying that the verdicts may be wrong."""

from __future__ import annotations

from storygraph import lint
from storygraph.domain import DOMAIN
from verdicts.accept import CHECKS_FAILED, exit_code, failed_checks
from verdicts.korean import is_polite_sentence, polite_sentences
from verdicts.model import CheckResult

HEADER = "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no\n"


def _scenario(tmp_path, title: str):
    path = tmp_path / "s.csv"
    path.write_text(HEADER + f"S,{title},true,false,,,,,,\nE,끝,false,true,,,,,,\n,,,,,b1,S,E,,1\n", encoding="utf-8")
    return path


def test_a_title_with_a_question_mark_is_not_a_sentence_break(tmp_path, cli):
    for title in ("Do you know him? Yes", "Wait! Stop", "정말? 네"):
        report = lint(_scenario(tmp_path, title))
        c10 = next(c for c in report.checks if c.id == "C10")
        assert c10.passed, (title, c10.failed_targets)
    proc = cli("storygraph", "lint", _scenario(tmp_path, "Do you know him? Yes"), check_code=0)
    assert "[실패]" not in proc.stdout


def test_the_sentence_test_still_finds_two_polite_sentences():
    texts = ["길이 없습니다. 다시 보세요.", "길이 없습니까? 있습니다.", "원래 '끝났습니다. 정말'라고 적혀 있습니다.",
             "Do you know him? Yes에서 나가는 분기가 없습니다."]
    assert polite_sentences(texts) == [False, False, True, True]
    assert [is_polite_sentence(t) for t in texts] == [False, False, True, True]


def test_a_failing_self_check_exits_three_with_a_korean_warning(tmp_path, cli):
    # a title that is itself two polite sentences: C10 fails on the cards quoting it
    path = _scenario(tmp_path, "끝났습니다. 정말")
    for fmt in ("text", "json", "sarif", "github"):
        proc = cli("storygraph", "lint", path, "--format", fmt, check_code=CHECKS_FAILED)
        assert "자동 검증 C10이 실패했으므로 이번 판정은 틀렸을 수 있으니" in proc.stderr
    # several inputs: the worst code, and the warning names the input
    ok = tmp_path / "ok"
    ok.mkdir()
    proc = cli("storygraph", "lint", path, _scenario(ok, "시작"), check_code=CHECKS_FAILED)
    assert "C10" in proc.stderr


def test_exit_code_rule(tmp_path):
    report = lint(_scenario(tmp_path, "시작"))
    assert exit_code(DOMAIN, report) == 0 and failed_checks(report) == []
    report.checks = [*report.checks, CheckResult(id="CX", description="x", passed=False, failed_targets=["S"])]
    assert exit_code(DOMAIN, report) == CHECKS_FAILED == 3
    assert failed_checks(report) == ["CX"]
