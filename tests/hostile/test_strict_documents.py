"""Strict documents (issue 32, item 2): no key and no record is lost without an input
issue naming its file and line, and a broken configuration stops the run.

One minimal input per root cause; each failed on the code before this item."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.conftest import EXAMPLES

# --------------------------------------------------------------------------- configuration


def _nested(tmp_path):
    """A scenario two folders below a storygraph.toml whose ``fail_on`` would let it pass."""
    (tmp_path / "storygraph.toml").write_text('fail_on = []\n', encoding="utf-8")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", deep / "scenario.csv")
    return deep / "scenario.csv"


def test_a_broken_pyproject_stops_the_run_instead_of_a_parents_config(cli, tmp_path):
    target = _nested(tmp_path)
    broken = tmp_path / "a" / "pyproject.toml"
    broken.write_text('[tool.storygraph]\nformat = "json"\nformat = "text"\n', encoding="utf-8")
    proc = cli("storygraph", "lint", target, check_code=2)
    assert f"{broken}:3" in proc.stderr
    assert "같은 키에 값을 두 번 적었습니다" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_pyproject_with_an_unknown_key_stops_the_run(cli, tmp_path):
    target = _nested(tmp_path)
    pyproject = tmp_path / "a" / "pyproject.toml"
    pyproject.write_text('[tool.storygraph]\nformat = "text"\n\n[tool.storygraph.diagram]\nhopz = 3\n', encoding="utf-8")
    proc = cli("storygraph", "lint", target, check_code=2)
    assert f"{pyproject}:5" in proc.stderr
    assert "알 수 없는 키 `diagram.hopz`(5번째 줄, 혹시 `hops`?)" in proc.stderr


def test_a_wrong_type_names_its_line_in_our_words(cli, tmp_path):
    config = tmp_path / "storygraph.toml"
    config.write_text('format = "text"\nfail_on = 3\n', encoding="utf-8")
    proc = cli("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv", "--config", config, check_code=2)
    assert f"{config}:2" in proc.stderr and "`fail_on`(2번째 줄): 배열이어야 합니다" in proc.stderr


def test_a_broken_verdicts_pyproject_stops_the_run(cli, tmp_path):
    folder = tmp_path / "a" / "round"
    shutil.copytree(EXAMPLES / "robot", folder)
    (tmp_path / "verdicts.toml").write_text("[robot]\nfail_on = []\n", encoding="utf-8")
    broken = tmp_path / "a" / "pyproject.toml"
    broken.write_text("[tool.verdicts.robot]\nfail_on = [\n", encoding="utf-8")
    proc = cli("verdicts", "run", "robot", folder, check_code=2)
    assert str(broken) in proc.stderr and "TOML로 읽을 수 없습니다" in proc.stderr
