"""``storygraph import FILE -o scenario.csv``: the work, without typer.

:func:`import_command` reads a story in its own format (ink, Twee 3, ChoiceScript,
Yarn Spinner), writes the union CSV and prints every issue as ``file:line — reason`` on
stderr.  It returns the exit code: 0 without issues, 1 with issues, 2 when the story
cannot be read (a one-line Korean message, never a traceback).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from verdicts.errors import VerdictsError
from verdicts.outputs import write_output

from .batch import table_files
from .importers import FORMATS, import_story, write_csv
from .importers.common import csv_text
from .stories import folder_story

__all__ = ["import_command"]


def import_command(path: str | Path, out: str | Path | None, fmt: str | None = None,
                   stdout: TextIO | None = None, stderr: TextIO | None = None, **options: str) -> int:
    """Import ``path`` (format ``fmt`` or detected) and write the union CSV to ``out``
    (``None`` or ``"-"``: standard output).  ``options`` go to
    :func:`~storygraph.importers.import_story` (``ending_tag``, ``entries``).  Returns
    the exit code."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    if fmt is not None and fmt not in FORMATS:
        stderr.write(f"storygraph: 알 수 없는 형식(`{fmt}`)이라 가져오지 않았습니다 ({', '.join(FORMATS)} 가운데 하나를 주세요).\n")
        return 2
    try:
        path = Path(path)
        if fmt is None and path.is_dir():
            # a folder holding one story (a ChoiceScript folder is one story itself)
            path = folder_story(path, table_files(path)) or path
        story = import_story(path, fmt, **options)
    except VerdictsError as exc:
        stderr.write(f"storygraph: {' '.join(str(exc).split())}\n")
        return 2
    except RecursionError:  # pragma: no cover - every importer is bounded; a last guard
        stderr.write(f"storygraph: {path}: 이야기가 너무 깊이 중첩되어 읽지 못했습니다.\n")
        return 2
    try:
        if out is None or str(out) == "-":
            write_csv(story, stdout)
            stdout.flush()
        else:  # whole or not at all (a full disk is exit 4 with its line)
            write_output(out, csv_text(story))
    except BrokenPipeError:  # the reader of standard output went away (| head)
        pass
    except VerdictsError as exc:
        stderr.write(f"storygraph: {exc}\n")
        return 2
    for issue in story.issues:
        where = issue.file or str(path)
        if issue.line is not None:
            where += f":{issue.line}"
        stderr.write(f"{where} — {issue.reason}\n")
    return 1 if story.issues else 0
