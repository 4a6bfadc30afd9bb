"""Output paths (issue 18, item 7): ``--html``, ``--dot``, ``render -o`` and ``fuzz
--out`` pointing into a folder that does not exist, onto a folder (or, for ``--out``,
onto a file) give one line on stderr naming the option, exit 2, and no traceback —
before any work is done — for ``storygraph`` and for every domain under ``verdicts run``."""

from __future__ import annotations

import pytest

from tests.conftest import EXAMPLES

SCENARIO = EXAMPLES / "lighthouse" / "scenario.csv"

#: every domain with a bundled input, for ``verdicts run DOMAIN INPUT --html``
DOMAIN_INPUTS = {
    "storygraph": SCENARIO,
    "robot": EXAMPLES / "robot",
    "mail": EXAMPLES / "mail",
    "extraction": EXAMPLES / "extraction",
    "residue": EXAMPLES / "residue" / "DO-0001.yaml",
}


def _bad_targets(tmp_path, folder_wanted: bool = False):
    a_file = tmp_path / "a-file.txt"
    a_file.write_text("x", encoding="utf-8")
    missing = tmp_path / "no-such-folder" / ("out" if folder_wanted else "out.html")
    under_file = a_file / ("out" if folder_wanted else "out.html")
    onto = a_file if folder_wanted else tmp_path
    return {"missing folder": missing, "under a file": under_file, "onto the wrong kind": onto}


def _assert_one_line_refusal(proc, option: str, written_before: set):
    assert proc.returncode == 2, proc.stderr
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert f" {option} " in lines[0] and lines[0].endswith("."), lines[0]
    assert proc.stdout == "", "the report is not printed when its files cannot be written"


@pytest.mark.parametrize("case", ["missing folder", "under a file", "onto the wrong kind"])
@pytest.mark.parametrize("option", ["--html", "--dot"])
def test_lint_outputs(cli, tmp_path, option, case):
    target = _bad_targets(tmp_path)[case]
    proc = cli("storygraph", "lint", SCENARIO, option, target)
    _assert_one_line_refusal(proc, option, set())


@pytest.mark.parametrize("case", ["missing folder", "under a file", "onto the wrong kind"])
def test_render_output(cli, tmp_path, case):
    target = _bad_targets(tmp_path)[case]
    target = target.with_suffix(".svg") if target.suffix else target
    proc = cli("storygraph", "render", SCENARIO, "-o", target)
    _assert_one_line_refusal(proc, "-o", set())


@pytest.mark.parametrize("case", ["missing folder", "under a file", "onto the wrong kind"])
def test_fuzz_out(cli, tmp_path, case):
    target = _bad_targets(tmp_path, folder_wanted=True)[case]
    proc = cli("storygraph", "fuzz", "--scenes", "200", "--out", target)
    _assert_one_line_refusal(proc, "--out", set())
    assert not (tmp_path / "no-such-folder").exists()


def test_fuzz_out_into_a_new_folder_of_an_existing_one_still_works(cli, tmp_path):
    proc = cli("storygraph", "fuzz", "--scenes", "200", "--out", tmp_path / "new")
    assert proc.returncode in (0, 1), proc.stderr
    assert (tmp_path / "new" / "scenario.csv").is_file()


@pytest.mark.parametrize("domain", sorted(DOMAIN_INPUTS))
@pytest.mark.parametrize("case", ["missing folder", "onto the wrong kind"])
def test_verdicts_run_html(cli, tmp_path, domain, case):
    target = _bad_targets(tmp_path)[case]
    proc = cli("verdicts", "run", domain, DOMAIN_INPUTS[domain], "--html", target, "-q")
    _assert_one_line_refusal(proc, "--html", set())


def test_the_html_is_written_when_the_path_is_good(cli, tmp_path):
    proc = cli("storygraph", "lint", SCENARIO, "--html", tmp_path / "r.html", "--dot", tmp_path / "r.dot")
    assert proc.returncode == 1, proc.stderr
    assert (tmp_path / "r.html").stat().st_size > 0 and (tmp_path / "r.dot").read_text(encoding="utf-8").startswith("digraph")
