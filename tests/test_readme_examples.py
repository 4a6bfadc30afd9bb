"""The README's example commands run as written (issue 30, item 5): each line of its
``sh`` blocks that a creator would type is run from the checkout with the installed
commands, and must end with 0 or 1 (1: the examples hold planted problems), write its
report, and print no traceback.  Output files go to a temporary folder; the lines that
start a server, follow a file, store into or read from a database, or run the set-up
scripts are listed apart with the reason, so that a new README line is run unless it says
why not."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

#: README lines not run here, by their start, with why
NOT_RUN = {
    "bash scripts/": "the set-up and the whole suite: what CI itself runs",
    "storygraph serve": "a server (tests/storygraph/test_serve.py runs it)",
    "storygraph watch": "follows a file until stopped (tests/storygraph/test_watch.py)",
    "verdicts review": "a server and its database (tests/verdicts/extraction/)",
    "verdicts run robot examples/robot --save": "writes the user's rounds database (tests/verdicts/test_rounds.py)",
    "verdicts show robot": "reads the rounds database a --save wrote",
    "verdicts card validate my-card.yaml": "an example of the user's own file",
}
#: file names in README lines that are outputs: written to a temporary folder instead
OUTPUTS = ("report.html", "r.html", "story.svg")


def readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", text, re.S):
        for line in block.splitlines():
            command = line.split("#", 1)[0].strip()
            if command:
                lines.append(command)
    return lines


COMMANDS = readme_commands()
RUN = [c for c in COMMANDS if not any(c.startswith(p) for p in NOT_RUN)]


def test_the_readme_has_commands_and_every_skip_names_a_line():
    assert len(RUN) >= 30
    for start in NOT_RUN:
        assert any(c.startswith(start) for c in COMMANDS), f"no README line starts with {start!r}: drop it from NOT_RUN"


@pytest.mark.parametrize("command", RUN)
def test_a_readme_command_runs_as_written(command, tmp_path):
    argv = shlex.split(command)
    argv = [str(tmp_path / a) if a in OUTPUTS else a for a in argv]
    argv[0] = str(BIN / argv[0])
    env = {**os.environ, "NO_COLOR": "1"}
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode in (0, 1), (command, proc.returncode, proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, (command, proc.stderr[-2000:])
    assert proc.stdout.strip() or any((tmp_path / name).exists() for name in OUTPUTS), command
    for name in OUTPUTS:
        if name in command.split():
            assert (tmp_path / name).stat().st_size > 0, command
