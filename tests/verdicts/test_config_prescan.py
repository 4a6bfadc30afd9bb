"""A ``pyproject.toml`` above a scenario is parsed only when its lines can hold the
domain's table (``verdicts.config._may_hold``): every way TOML can spell the table is
seen, so the configuration found is the same as when every file was parsed."""

from __future__ import annotations

import tomllib

import pytest

from verdicts.config import _may_hold

KEYS = ("tool", "storygraph")

HOLDING = [
    '[tool.storygraph]\nformat = "json"\n',
    '[ tool . storygraph ]\nformat = "json"\n',
    '[tool."storygraph"]\nformat = "json"\n',
    "[\"tool\".'storygraph']\nformat = \"json\"\n",
    '[tool.storygraph.diagram]\nhops = 2\n',
    '[[tool.storygraph.accept]]\ntarget = "SC-01"\nreason = "일부러 둡니다."\n',
    '[tool]\nstorygraph = { format = "json" }\n',
    '[tool]\nstorygraph.format = "json"\n',
    'tool.storygraph.format = "json"\n',
    'tool = { storygraph = { format = "json" } }\n',
    '  \t[tool.storygraph]  # indented, with a comment\nformat = "json"\n',
    '[tool."stor\\u0079graph"]\nformat = "json"\n',
    '[project]\nname = "x"\n\n[tool.storygraph]\r\nformat = "json"\r\n',
]
NOT_HOLDING = [
    '[project]\nname = "storygraph"\n\n[project.scripts]\nstorygraph = "storygraph.cli:run"\n',
    '[tool.hatch.build]\npackages = ["src/storygraph"]\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    '# [tool.storygraph] in a comment\n[tool.ruff]\nline-length = 120\n',
    '',
]


@pytest.mark.parametrize("text", HOLDING)
def test_every_spelling_of_the_table_is_seen(tmp_path, text):
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8", newline="")
    assert "storygraph" in tomllib.loads(text).get("tool", {})  # the examples are what they claim
    assert _may_hold(path, KEYS)


@pytest.mark.parametrize("text", NOT_HOLDING)
def test_a_file_without_the_table_is_not_parsed(tmp_path, text):
    path = tmp_path / "pyproject.toml"
    path.write_text(text, encoding="utf-8")
    assert "storygraph" not in tomllib.loads(text).get("tool", {})
    assert not _may_hold(path, KEYS)


def test_a_file_read_here_with_trouble_is_parsed_as_before(tmp_path):
    path = tmp_path / "pyproject.toml"
    path.write_bytes(b"[tool.x]\nname = \"\xff\"\n")  # not UTF-8: the parser names the problem
    assert _may_hold(path, KEYS)
    assert _may_hold(tmp_path / "missing.toml", KEYS)
