"""Robot gets configuration, acceptance and the exit rule from the core: a verdicts.toml
beside the round accepts a card (kept, greyed with its reason, no longer failing), a
stale acceptance is an issue, fail_on decides the exit code, and nothing of it is robot
code."""

from __future__ import annotations

import json
import shutil

from tests.conftest import EXAMPLES


def _round(tmp_path, toml: str):
    folder = tmp_path / "round"
    shutil.copytree(EXAMPLES / "robot", folder)
    (folder / "verdicts.toml").write_text(toml, encoding="utf-8")
    return folder


def test_an_accepted_card_stays_visible_with_its_reason(cli, tmp_path):
    folder = _round(tmp_path, '[robot]\n[[robot.accept]]\ntarget = "insert-peg-B01"\nreason = "이번 회차는 목표를 낮춰 돌렸습니다."\n')
    data = json.loads(cli("verdicts", "run", "robot", folder, "--format", "json").stdout)
    card = next(c for c in data["cards"] if c["task_id"] == "insert-peg-B01")
    assert card["verdict"] == "성공률 미달" and card["accepted"] == "이번 회차는 목표를 낮춰 돌렸습니다."
    assert all("accepted" not in c for c in data["cards"] if c["task_id"] != "insert-peg-B01")
    text = cli("verdicts", "run", "robot", folder).stdout
    assert "insert-peg-B01" in text and "[의도됨: 이번 회차는 목표를 낮춰 돌렸습니다.]" in text
    sarif = json.loads(cli("verdicts", "run", "robot", folder, "--format", "sarif").stdout)
    suppressed = [r for r in sarif["runs"][0]["results"] if r.get("suppressions")]
    assert [r["properties"]["task_id"] for r in suppressed] == ["insert-peg-B01"]


def test_a_stale_acceptance_is_an_issue(cli, tmp_path):
    folder = _round(tmp_path, '[robot]\n[[robot.accept]]\ntarget = "no-such-task"\nreason = "예전 태스크입니다."\n')
    data = json.loads(cli("verdicts", "run", "robot", folder, "--format", "json", check_code=1).stdout)
    assert any(i["table"] == "accept" and "no-such-task" in i["reason"] for i in data["issues"])


def test_fail_on_decides_the_exit_code(cli, tmp_path):
    # only the skill-mismatch cards fail the run; accept every one of them and it passes
    data = json.loads(cli("verdicts", "run", "robot", EXAMPLES / "robot", "--format", "json").stdout)
    mismatched = [c["task_id"] for c in data["cards"] if c.get("blocked_cause") == "능력 불일치"]
    assert mismatched
    entries = "".join(f'[[robot.accept]]\ntarget = "{t}"\nreason = "다음 회차에 모읍니다."\n' for t in mismatched)
    folder = _round(tmp_path, f'[robot]\nfail_on = ["skill-mismatch"]\n{entries}')
    cli("verdicts", "run", "robot", folder, check_code=0)
    folder2 = _round(tmp_path / "b", '[robot]\nfail_on = ["skill-mismatch"]\n')
    cli("verdicts", "run", "robot", folder2, check_code=1)


def test_unknown_keys_and_values_are_named(cli, tmp_path):
    folder = _round(tmp_path, '[robot]\nfail_on = ["nonsense"]\n')
    assert "nonsense" in cli("verdicts", "run", "robot", folder, check_code=2).stderr
    folder2 = _round(tmp_path / "b", '[robot]\ncolour = "red"\n')
    assert "colour" in cli("verdicts", "run", "robot", folder2, check_code=2).stderr
