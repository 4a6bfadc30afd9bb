"""Issue 17, Deliver 6: the polite-sentence check (C10) does not split a sentence at
the user's own punctuation, and a failing self-check changes the exit code (3) with a
Korean line saying that the verdicts may be wrong."""

from __future__ import annotations

import subprocess
import sys

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


#: ``storygraph`` with a defect of ours planted: the template of 끝까지 닿음 writes two
#: sentences (issue 32, item 7: a title with a full stop is the creator's and is accepted,
#: so only a defect of the tool's own can make a self-check fail)
_PLANTED = ("import sys, storygraph.templates as T\n"
            "first = T.scene_reaches\n"
            "T.scene_reaches = lambda **kw: first(**kw) + ' 그렇습니다.'\n"
            "from storygraph.cli import run\n"
            "sys.argv[0] = 'storygraph'\n"
            "run()\n")


def _planted(*args, check_code: int) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-c", _PLANTED, *map(str, args)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == check_code, f"exit {proc.returncode}\nstdout:\n{proc.stdout[-3000:]}\nstderr:\n{proc.stderr[-3000:]}"
    return proc


def test_a_failing_self_check_exits_three_with_a_korean_warning(tmp_path):
    path = _scenario(tmp_path, "시작")
    for fmt in ("text", "json", "sarif", "github"):
        proc = _planted("lint", path, "--format", fmt, "--jobs", "1", check_code=CHECKS_FAILED)
        assert "자동 검증 C10이 실패했으므로 이번 판정은 틀렸을 수 있으니" in proc.stderr
    # several inputs: the worst code, and the warning names the input
    ok = tmp_path / "ok"
    ok.mkdir()
    proc = _planted("lint", path, _scenario(ok, "시작"), "--jobs", "1", check_code=CHECKS_FAILED)
    assert "C10" in proc.stderr


def test_a_title_of_two_sentences_is_a_title(tmp_path, cli):
    """Issue 32, item 7: before, this title made C10 fail and the run exit 3."""
    proc = cli("storygraph", "lint", _scenario(tmp_path, "끝났습니다. 정말"), "--all", check_code=0)
    assert "끝났습니다. 정말" in proc.stdout and "[실패]" not in proc.stdout


def test_exit_code_rule(tmp_path):
    report = lint(_scenario(tmp_path, "시작"))
    assert exit_code(DOMAIN, report) == 0 and failed_checks(report) == []
    report.checks = [*report.checks, CheckResult(id="CX", description="x", passed=False, failed_targets=["S"])]
    assert exit_code(DOMAIN, report) == CHECKS_FAILED == 3
    assert failed_checks(report) == ["CX"]
