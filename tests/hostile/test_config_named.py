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


def test_a_config_name_held_by_a_fifo_or_a_link_to_a_device_stops_the_run(cli, tmp_path):
    """A configuration file's name held by something that is not a regular file is refused
    by name (exit 2), never waited on and never passed over for an ancestor's file."""
    import os

    (tmp_path / "storygraph.toml").write_text('fail_on = []\n', encoding="utf-8")  # the ancestor's, never applied
    folder = tmp_path / "s"
    folder.mkdir()
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", folder / "scenario.csv")
    os.mkfifo(folder / "pyproject.toml")
    proc = cli("storygraph", "lint", folder / "scenario.csv", check_code=2)
    assert "pyproject.toml: 일반 파일이 아니라 FIFO(이름 있는 파이프)라서 읽지 않았습니다." in proc.stderr
    (folder / "pyproject.toml").unlink()
    (folder / "storygraph.toml").symlink_to("/dev/zero")
    proc = cli("storygraph", "lint", folder / "scenario.csv", check_code=2)
    assert "storygraph.toml: 링크가 가리키는 /dev/zero가 일반 파일이 아니라 문자 장치라서 읽지 않았습니다." in proc.stderr
