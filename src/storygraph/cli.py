"""The ``storygraph`` command: a thin layer over the library.

It parses options, calls the library and picks a reporter.  Library errors are caught
here only, and turned into a message and an exit code: 0 when every target is
``끝까지 닿음`` and nothing else was found, 1 when there are findings or input issues, 2
when the input cannot be read at all.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from verdicts.errors import VerdictsError
from verdicts.progress import for_terminal
from verdicts.report import write_report

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
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line on stderr (it only appears on a terminal, for runs over a second)."),
) -> None:
    """Judge every scene and branch and print the cards grouped by verdict, then the
    input issues, then the automatic checks."""
    try:
        report = run_lint(path, for_terminal(quiet))
    except VerdictsError as exc:
        raise _fail(str(exc))
    write_report(format.value, report, DOMAIN, sys.stdout)
    raise typer.Exit(DOMAIN.exit_code(report))


if __name__ == "__main__":  # pragma: no cover
    app()
