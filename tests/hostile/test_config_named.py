"""A configuration found in an ancestor folder is named in the report it changed (issue
19, item 6): text, JSON, and a stored round."""

from __future__ import annotations

import json
import shutil

from tests.conftest import EXAMPLES


def test_an_ancestor_config_is_named(cli, tmp_path):
    (tmp_path / "storygraph.toml").write_text('fail_on = ["issues"]\n', encoding="utf-8")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    target = deep / "scenario.csv"
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", target)
    text = cli("storygraph", "lint", target, check_code=0).stdout  # fail_on from the ancestor applies
    assert f"설정: {tmp_path / 'storygraph.toml'}" in text
    data = json.loads(cli("storygraph", "lint", target, "--format", "json", check_code=0).stdout)
    assert data["config"] == str(tmp_path / "storygraph.toml")


def test_no_config_no_line(cli):
    text = cli("storygraph", "lint", EXAMPLES / "lighthouse" / "scenario.csv", check_code=1).stdout
    assert "설정:" not in text


def test_robot_names_its_verdicts_toml(cli, tmp_path):
    folder = tmp_path / "round"
    shutil.copytree(EXAMPLES / "robot", folder)
    (tmp_path / "verdicts.toml").write_text("[robot]\nfail_on = []\n", encoding="utf-8")
    proc = cli("verdicts", "run", "robot", folder, "--format", "json", check_code=0)
    assert json.loads(proc.stdout)["config"] == str(tmp_path / "verdicts.toml")
