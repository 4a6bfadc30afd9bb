"""Output safety (issue 19, item 2 and Deliver 3): text from a hostile input never acts on
a terminal or a CI log, and SVG/HTML stay well-formed.

The inputs are built here: a scenario whose titles, ids, labels and conditions carry ESC
and OSC sequences, BEL, a right-to-left override, and a line break followed by a GitHub
workflow command; a condition that is a workflow command and does not parse (its text
used to be echoed on a line of its own)."""

from __future__ import annotations

import json
import re
import shutil
import xml.etree.ElementTree as ET

import pytest

from tests.conftest import EXAMPLES

#: what must never reach a report: ESC, BEL, other C0/C1 controls but tab and line
#: break, direction overrides and isolates, line and paragraph separators
UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u2028\u2029]")

EVIL_TITLE = "등대\x1b]0;pwned\x07 \x1b[2J입구\u202eevil"
EVIL_ID = "B\n::warning::injected"


@pytest.fixture
def hostile(tmp_path):
    doc = {
        "scene_states": [
            {"scene_id": "A", "title": EVIL_TITLE, "is_entry": True, "is_ending": False, "available_flags": "trust"},
            {"scene_id": EVIL_ID, "title": "끝\u2028다음 줄", "is_entry": False, "is_ending": True},
        ],
        "story_branches": [
            {"branch_id": "b1", "from_scene": "A", "to_scene": EVIL_ID, "condition_expr": "::error file=x::pwned", "order_no": 1},
            {"branch_id": "b2", "from_scene": "A", "to_scene": "C\x1b[31m", "condition_expr": "trust >= 1", "order_no": 2},
        ],
        "flag_spec": [{"flag": "trust", "label": "신뢰\x07도", "type": "int", "min_value": 0, "max_value": 5}],
    }
    path = tmp_path / "evil.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def _command_lines(text: str) -> list[str]:
    """Lines a GitHub runner would read as a workflow command (``::`` or ``##[`` after
    leading spaces)."""
    return [line for line in text.splitlines() if line.lstrip().startswith(("::", "##["))]


#: raw C0/C1 controls (JSON writes them as \u escapes; the data itself keeps every
#: character, so that an evidence value still equals its cell)
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_no_control_or_direction_character_reaches_a_log(cli, hostile, fmt):
    proc = cli("storygraph", "lint", hostile, "--format", fmt, check_code=1)
    assert not UNSAFE.search(proc.stdout), UNSAFE.findall(proc.stdout)
    assert not UNSAFE.search(proc.stderr)
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_keeps_the_data_and_escapes_controls(cli, hostile, fmt):
    proc = cli("storygraph", "lint", hostile, "--format", fmt, check_code=1)
    assert not CONTROLS.search(proc.stdout)
    if fmt == "json":
        cards = {c["target_no"]: c for c in json.loads(proc.stdout)["cards"]}
        assert any(e["value"] == EVIL_TITLE for e in cards["A"]["evidence"])  # the cell, verbatim


def test_text_output_never_starts_a_line_with_a_workflow_command(cli, hostile):
    out = cli("storygraph", "lint", hostile, check_code=1).stdout
    assert _command_lines(out) == []
    # the bad condition is still shown, under its message, marked as quoted text
    assert "│ ::error file=x::pwned" in out
    assert "\\x1b]0;pwned\\x07" in out  # visible, not acted on


def test_github_annotations_are_ours_alone(cli, hostile):
    out = cli("storygraph", "lint", hostile, "--format", "github", check_code=1).stdout
    lines = out.splitlines()
    assert lines and all(re.match(r"::(warning|error) (file=[^,]+,)?(line=\d+,)?title=storygraph [a-z-]+::", line) for line in lines)
    assert not any("::warning::injected" in line.split("::", 2)[1] for line in lines)


def test_svg_and_html_are_well_formed(cli, hostile, tmp_path):
    svg = tmp_path / "d.svg"
    cli("storygraph", "render", hostile, "-o", svg, check_code=0)
    ET.parse(svg)  # raises on ill-formed XML
    assert not UNSAFE.search(svg.read_text(encoding="utf-8"))
    html = tmp_path / "r.html"
    cli("storygraph", "lint", hostile, "--html", html, check_code=1)
    assert not UNSAFE.search(html.read_text(encoding="utf-8"))


def test_a_file_name_with_hash_space_and_hangul_round_trips(cli, tmp_path):
    folder = tmp_path / "팀 #2"
    folder.mkdir()
    target = folder / "장면 #1.csv"
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", target)
    log = json.loads(cli("storygraph", "lint", target, "--format", "sarif", check_code=1).stdout)
    from urllib.parse import unquote

    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in log["runs"][0]["results"] if r.get("locations")}
    assert uris and all("#" not in u and " " not in u for u in uris)
    assert {unquote(u) for u in uris} == {str(target)} or {unquote(u) for u in uris} == {str(target.relative_to(tmp_path))}
    github = cli("storygraph", "lint", target, "--format", "github", check_code=1).stdout
    assert f"file={target}".replace(":", "%3A").replace(",", "%2C") in github
