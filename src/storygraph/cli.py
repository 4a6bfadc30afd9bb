"""The ``storygraph`` command: a thin layer over the library.

It parses options, calls the library and picks a reporter.  Library errors are caught
here only, and turned into a message and an exit code: 0 when every target is
``끝까지 닿음`` and nothing else was found, 1 when there are findings or input issues, 2
when the input cannot be read at all.
"""

from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from verdicts.errors import VerdictsError
from verdicts.report import REPORTERS

from .domain import DOMAIN, lint as run_lint

app = typer.Typer(
    name="storygraph",
    help="창작자가 짠 시나리오 분기가 어디서 막히는지 알려줍니다 (tells where a branching scenario gets stuck).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def _fail(message: str, code: int = 2) -> "typer.Exit":
    typer.echo(f"storygraph: {message}", err=True)
    return typer.Exit(code)


@app.callback()
def main() -> None:
    """storygraph — scenario linter."""


@app.command()
def lint(
    path: Path = typer.Argument(..., help="scenario.csv (union of the three tables), a folder of CSVs, an .xlsx workbook, or JSON/YAML."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f", help="Output format."),
) -> None:
    """Judge every scene and branch and print the cards grouped by verdict, then the
    input issues, then the automatic checks."""
    try:
        report = run_lint(path)
    except VerdictsError as exc:
        raise _fail(str(exc))
    sys.stdout.write(REPORTERS[format.value](report, DOMAIN))
    raise typer.Exit(DOMAIN.exit_code(report))


@app.command()
def grade(
    path: Path = typer.Argument(..., help="The scenario (any accepted form), or a gold suite folder of NAME.csv + NAME.gold.csv pairs."),
    gold: Optional[Path] = typer.Argument(None, help="Gold CSV: target_no, verdict, optional overlapping_branch_id and note."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f", help="Output format."),
) -> None:
    """Compare the automatic verdicts with hand-made gold verdicts: agreement overall and
    per verdict, a confusion table and every disagreement (exit 0 when all agree and the
    gold file has no issue, else 1)."""
    from verdicts.grading import render_grade_text

    from .grading import grade_path

    try:
        result = grade_path(path, gold)
    except VerdictsError as exc:
        raise _fail(str(exc))
    if format is OutputFormat.json:
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_grade_text(result))
    raise typer.Exit(0 if not result.disagreements and not result.issues else 1)


if __name__ == "__main__":  # pragma: no cover
    app()
