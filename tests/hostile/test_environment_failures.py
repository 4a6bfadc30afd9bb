"""Environment failures (issue 32, item 6): a file name that is not UTF-8, a closed
standard output, a full disk, a CA certificate file that cannot be read.  Each is one
line on stderr naming the thing and the reason, exit code 4 (apart from 2, the input
or the command line, and 3, a self-check), never a traceback and never half a report.

The commands run for real in a subprocess; a full disk is ``/dev/full`` (standard
output, ``--html``) and, for a regular file, a file-size limit (``RLIMIT_FSIZE``) under
which the write fails as on a full disk.
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.hostile.inputs import BIN, EXAMPLES, ROOT, SMALL_STORY, UNION_HEADER

ENVIRONMENT = 4
STORY = "\n".join([UNION_HEADER, *SMALL_STORY]) + "\n"


def run(*args, stdout=subprocess.PIPE, fsize: int | None = None, close_stdout: bool = False,
        env: dict | None = None) -> subprocess.CompletedProcess:
    """Run a console script (``storygraph``, ``verdicts``) with at most 120 seconds."""
    command, *rest = args

    def limits() -> None:
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
        if close_stdout:
            os.close(1)

    return subprocess.run([str(BIN / command), *map(os.fsdecode, rest)], stdout=stdout, stderr=subprocess.PIPE,
                          timeout=120, cwd=ROOT, stdin=subprocess.DEVNULL, preexec_fn=limits,
                          env={**os.environ, "VERDICTS_JOBS": "1", **(env or {})})


def one_line(proc: subprocess.CompletedProcess, *says: str) -> str:
    """The exit code is 4 and stderr is one line without a traceback, saying ``says``."""
    err = proc.stderr.decode("utf-8")
    assert proc.returncode == ENVIRONMENT, (proc.returncode, err[-2000:])
    assert "Traceback" not in err and "Exception ignored" not in err, err[-2000:]
    assert len(err.strip().splitlines()) == 1, err
    for s in says:
        assert s in err, err
    return err


def _story(folder: Path, name: str = "s.csv") -> Path:
    path = folder / name
    path.write_text(STORY, encoding="utf-8")
    return path


def _round(folder: Path) -> Path:
    target = folder / "round"
    target.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        shutil.copy(EXAMPLES / "robot" / f"{name}.csv", target / f"{name}.csv")
    return target


# --------------------------------------------------------------------------- file names


@pytest.mark.parametrize("program", ["storygraph", "verdicts"])
def test_a_file_name_that_is_not_utf8_on_the_command_line(tmp_path, program):
    name = os.fsdecode(b"\xff\xfe.csv")
    _story(tmp_path, name)
    command = ["lint", tmp_path / name, "--format", "json"] if program == "storygraph" else \
        ["run", "robot", tmp_path / name, "--format", "json"]
    proc = run(program, *command)
    one_line(proc, "\\xff\\xfe.csv", "UTF-8")
    assert proc.stdout == b""  # no JSON begun


def test_a_file_name_that_is_not_utf8_in_a_folder(tmp_path):
    """A folder of scenarios holding one: nothing is written on stdout (the issue's
    half-written JSON), the name is shown with its bytes."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    _story(folder, "good.csv")
    _story(folder, os.fsdecode(b"\xffbad.csv"))
    proc = run("storygraph", "lint", folder, "--format", "json")
    one_line(proc, "\\xffbad.csv")
    assert proc.stdout == b""


# --------------------------------------------------------------------------- standard output


@pytest.mark.parametrize("command", [
    ["storygraph", "lint", "{story}"],
    ["storygraph", "lint", "{story}", "--format", "json"],
    ["storygraph", "import", str(EXAMPLES / "twine" / "market.twee")],
    ["storygraph", "--help"],
    ["verdicts", "run", "robot", "{round}", "--format", "json"],
    ["verdicts", "list"],
], ids=lambda c: " ".join(c[:2] + c[3:]))
def test_a_closed_standard_output(tmp_path, command):
    args = [a.format(story=_story(tmp_path), round=_round(tmp_path) if "{round}" in a else "") for a in command]
    one_line(run(*args, close_stdout=True), "표준 출력이 닫혀")


def test_a_closed_standard_output_is_no_failure_when_nothing_goes_there(tmp_path):
    story = _story(tmp_path)
    out = tmp_path / "out.csv"
    proc = run("storygraph", "import", EXAMPLES / "twine" / "market.twee", "-o", out, close_stdout=True)
    assert proc.returncode == 0, proc.stderr.decode()
    assert out.read_text(encoding="utf-8").startswith("scene_id,")
    assert story.exists()


@pytest.mark.parametrize("command", [
    ["storygraph", "lint", "{story}"],
    ["storygraph", "lint", "{story}", "--format", "json"],
    ["storygraph", "lint", "{story}", "--format", "sarif"],
    ["storygraph", "render", "{story}", "-o", "/dev/stdout", "--format", "dot"],
    ["verdicts", "run", "robot", "{round}"],
    ["verdicts", "run", "robot", "{round}", "--format", "json"],
], ids=lambda c: " ".join(c[:2] + c[3:]))
def test_standard_output_on_a_full_disk(tmp_path, command):
    args = [a.format(story=_story(tmp_path), round=_round(tmp_path) if "{round}" in a else "") for a in command]
    with open("/dev/full", "wb") as full:
        proc = run(*args, stdout=full)
    err = one_line(proc, "디스크에 남은 자리가 없어")
    assert "표준 출력" in err or "/dev/stdout" in err, err


# --------------------------------------------------------------------------- files written


@pytest.mark.parametrize("program", ["storygraph", "verdicts"])
def test_html_onto_a_full_device(tmp_path, program):
    target = _story(tmp_path) if program == "storygraph" else _round(tmp_path)
    command = ["lint", target] if program == "storygraph" else ["run", "robot", target]
    proc = run(program, *command, "--quiet", "--html", "/dev/full", stdout=subprocess.DEVNULL)
    one_line(proc, "/dev/full", "디스크에 남은 자리가 없어")


def test_a_report_file_is_written_whole_or_not_at_all(tmp_path):
    """The disk fills while the report screen is written (a file-size limit far below
    its size): exit 4, and the file that was there is untouched, no temporary left."""
    story = _story(tmp_path)
    report = tmp_path / "report.html"
    report.write_text("앞의 보고서", encoding="utf-8")
    proc = run("storygraph", "lint", story, "--quiet", "--html", report, stdout=subprocess.DEVNULL, fsize=20_000)
    one_line(proc, str(report))
    assert report.read_text(encoding="utf-8") == "앞의 보고서"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.html", "s.csv"]
    proc = run("storygraph", "lint", story, "--quiet", "--html", report, stdout=subprocess.DEVNULL)
    assert proc.returncode in (0, 1) and "<html" in report.read_text(encoding="utf-8")


def test_an_imported_table_is_written_whole_or_not_at_all(tmp_path):
    out = tmp_path / "scenario.csv"
    proc = run("storygraph", "import", EXAMPLES / "twine" / "market.twee", "-o", out, fsize=300)
    one_line(proc, str(out))
    assert not out.exists() and list(tmp_path.iterdir()) == []


# --------------------------------------------------------------------------- certificates


@pytest.mark.parametrize("case", ["missing", "folder", "fifo", "no-certificate", "no-permission"])
def test_a_ca_file_that_cannot_be_used(tmp_path, case):
    ca = tmp_path / "ca.pem"
    if case == "folder":
        ca.mkdir()
    elif case == "fifo":
        os.mkfifo(ca)
    elif case == "no-certificate":
        ca.write_text("인증서가 아닙니다\n", encoding="utf-8")
    elif case == "no-permission":
        ca.write_text("-----BEGIN CERTIFICATE-----\n", encoding="utf-8")
        ca.chmod(0)
        if os.geteuid() == 0:
            pytest.skip("root reads a file without permission anyway")
    proc = run("verdicts", "mail", "import", "imaps://agent@127.0.0.1:9/INBOX", "--cafile", ca, "-o", tmp_path / "out",
               env={"VERDICTS_IMAP_PASSWORD": "x"})
    one_line(proc, str(ca), "CA 인증서")
    assert not (tmp_path / "out").exists()


def test_the_exit_code_is_documented():
    """README and docs name exit code 4 for environment failures."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    security = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    from verdicts.commandline import ENVIRONMENT as documented

    assert documented == ENVIRONMENT
    assert "`4` the environment failed" in readme and "VERDICTS_MAX_FILE_BYTES" in security
