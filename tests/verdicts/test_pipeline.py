"""The one pipeline (verdicts.pipeline.judge) for every domain: several inputs in one
report, the same bytes with 1 and 2 processes, an unreadable input reported while the
others are judged, the worst exit code."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import EXAMPLES


@pytest.fixture
def rounds(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(EXAMPLES / "robot", a)
    shutil.copytree(EXAMPLES / "robot", b)
    (b / "task_spec.csv").write_text("task_id,required_skill\nonly-one,pick\n", encoding="utf-8")
    return a, b


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_several_rounds_same_bytes_with_one_and_two_processes(cli, rounds, fmt):
    a, b = rounds
    one = cli("verdicts", "run", "robot", a, b, "--format", fmt, "--jobs", "1", check_code=1)
    two = cli("verdicts", "run", "robot", a, b, "--format", fmt, "--jobs", "2", check_code=1)
    assert one.stdout == two.stdout and one.stdout
    if fmt == "json":
        report = json.loads(one.stdout)
        assert list(dict.fromkeys(c["input"] for c in report["cards"])) == [str(a), str(b)]
        assert len([c for c in report["cards"] if c["input"] == str(a)]) == 30
        assert [c["task_id"] for c in report["cards"] if c["input"] == str(b)] == ["only-one"]
    if fmt == "text":
        assert one.stdout.index(f"━━ {a} ━━") < one.stdout.index(f"━━ {b} ━━")


def test_an_unreadable_input_does_not_stop_the_others(cli, rounds, tmp_path):
    a, _ = rounds
    missing = tmp_path / "nowhere"
    proc = cli("verdicts", "run", "robot", missing, a, check_code=2)
    assert f"━━ {missing} ━━" in proc.stdout and "읽지 못했습니다" in proc.stdout
    assert f"━━ {a} ━━" in proc.stdout and "■ 자동 검증" in proc.stdout
    assert "Traceback" not in proc.stderr and str(missing) in proc.stderr


def test_one_input_is_the_plain_report(cli):
    one = cli("verdicts", "run", "robot", EXAMPLES / "robot", check_code=1).stdout
    assert not one.startswith("━━") and one.count("■ 자동 검증") == 1
