"""The ``verdicts`` command line speaks Korean like ``storygraph``'s (issue 18): help and
usage, every usage error with "did you mean" for commands, a group's commands and
options, exit 2 with nothing on stdout, ``-h``/``--version``, exit 141 when the reader
of standard output goes away; the domains' command groups (``card``, ``mail``,
``review``) included.  Each case runs the real installed command."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXE = Path(sys.executable).parent / "verdicts"

#: words of typer's and click's own English (and argparse's, untranslated)
ENGLISH = re.compile(r"Usage:|Options|Arguments|Commands|Error|Missing|Invalid|No such|Try |usage:|"
                     r"positional arguments|show this help|required|invalid choice|unrecognized")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(EXE), *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.mark.parametrize("argv", [[], ["-h"], ["run", "-h"], ["show", "--help"], ["card", "-h"], ["card", "measure", "-h"],
                                  ["mail", "-h"], ["mail", "import", "-h"], ["mail", "serve", "-h"], ["review", "-h"],
                                  ["review", "stats", "-h"], ["mail"], ["card"]])
def test_help_is_korean(argv):
    proc = _run(*argv)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("사용법: verdicts") and "옵션:" in proc.stdout
    assert not ENGLISH.search(proc.stdout), proc.stdout


#: (argv, what the one-line message says); each exit 2, nothing on stdout
WRONG = [
    (["rnu", "robot", "examples/robot"], "`rnu` 명령은 없습니다. 혹시 `run` 명령을 쓰려던 것인가요?"),
    (["mail", "imprt", "x"], "verdicts mail: `imprt` 명령은 없습니다. 혹시 `import` 명령을 쓰려던 것인가요?"),
    (["card", "shwo", "E3"], "verdicts card: `shwo` 명령은 없습니다. 혹시 `show` 명령을 쓰려던 것인가요?"),
    (["review", "stat"], "verdicts review: `stat` 명령은 없습니다. 혹시 `stats` 명령을 쓰려던 것인가요?"),
    (["run", "robot", "examples/robot", "--fromat", "json"], "`--fromat` 옵션은 이 명령에 없습니다. 혹시 `--format` 옵션을"),
    (["mail", "serve", "--prot", "0"], "verdicts mail serve: `--prot` 옵션은 이 명령에 없습니다. 혹시 `--port` 옵션을"),
    (["card", "measure", "E3", "x", "--seed", "2"], "`--seed` 옵션은 이 명령에 없습니다. 혹시 `--seeds` 옵션을"),
    (["run", "robot", "examples/robot", "--format", "jsn"], "`--format`에는 `jsn` 값을 쓸 수 없습니다. 혹시 `json` 값을"),
    (["review", "export", "r1", "--format", "xml"], "`--format`에는 `xml` 값을 쓸 수 없습니다."),
    (["run", "robot", "examples/robot", "--jobs", "0"], "`--jobs` 값은 1 이상이어야 합니다 (받은 값: 0)."),
    (["mail", "serve", "--port", "70000"], "`--port` 값은 65535 이하여야 합니다 (받은 값: 70000)."),
    (["card", "show"], "verdicts card show: 꼭 줘야 하는 것이 빠졌습니다: `CARD`"),
    (["mail", "import", "inbox"], "꼭 줘야 하는 것이 빠졌습니다: `--out/-o`"),
    (["run", "robto", "examples/robot"], "`robto` 도메인은 등록되어 있지 않습니다"),
    (["run", "robto", "examples/robot"], "혹시 `robot` 도메인을 쓰려던 것인가요?"),
]


@pytest.mark.parametrize("argv, says", WRONG, ids=[" ".join(a) for a, _ in WRONG])
def test_a_wrong_command_line_is_one_korean_message_and_exit_2(argv, says):
    proc = _run(*argv)
    assert proc.returncode == 2 and proc.stdout == ""
    assert says in proc.stderr, proc.stderr
    assert not ENGLISH.search(proc.stderr) and "Traceback" not in proc.stderr, proc.stderr


@pytest.mark.parametrize("argv", [["run", "robot", "examples/robot", "--format", "json", "--jobs", "x"],
                                  ["run", "robot", "--format", "json"],
                                  ["show", "robot", "--format", "json", "--bogus"],
                                  ["review", "stats", "--format", "json", "--db"]])
def test_format_json_never_gets_plain_text_on_stdout(argv):
    proc = _run(*argv)
    assert proc.returncode == 2 and proc.stdout == "" and proc.stderr.strip()


def test_version():
    version = _run("--version")
    assert version.returncode == 0 and re.fullmatch(r"verdicts \d\S*\n", version.stdout)
    assert _run("-V").stdout == version.stdout


def test_a_reader_that_goes_away_is_exit_141():
    proc = subprocess.Popen([str(EXE), "run", "storygraph", "tests/golden/corpus/fuzz-5-250.csv", "--format", "json", "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    assert proc.stdout.read(100)
    proc.stdout.close()
    err = proc.stderr.read().decode("utf-8", "replace")
    assert proc.wait(timeout=120) == 141 and "Traceback" not in err


def test_every_group_command_still_runs(tmp_path):
    """The domains' commands through the new command line: a card shown and validated,
    the review statistics of an empty database (text and JSON)."""
    shown = _run("card", "show", "E3")
    assert shown.returncode == 0 and shown.stdout.startswith("E3 v")
    from verdicts.residue.evalcard import card_path

    valid = _run("card", "validate", str(card_path("E3")))
    assert valid.returncode == 0 and "스키마에 맞습니다" in valid.stdout
    db = tmp_path / "review.sqlite3"
    stats = _run("review", "stats", "--db", str(db))
    assert stats.returncode == 0 and "■ 칸별" in stats.stdout
    assert _run("review", "stats", "--db", str(db), "--format", "json").stdout.lstrip().startswith("{")


def test_typer_is_gone():
    """No module of the project imports typer (it was dropped from the dependencies)."""
    used = [str(p.relative_to(ROOT)) for p in (ROOT / "src").rglob("*.py")
            if re.search(r"^\s*(import typer|from typer)", p.read_text(encoding="utf-8"), re.M)]
    assert used == []
    assert '"typer' not in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
