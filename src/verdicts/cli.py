"""The ``verdicts`` command: run any registered domain over its inputs."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from .domain import DOMAINS, get_domain
from .errors import VerdictsError
from .report import REPORTERS

app = typer.Typer(
    name="verdicts",
    help="판정 도메인을 실행합니다 (runs a verdict domain over its input tables).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


@app.callback()
def main() -> None:
    """verdicts — the family of verdict domains."""


@app.command("list")
def list_domains() -> None:
    """Name every domain with what it decides."""
    for name in DOMAINS:
        try:
            title = get_domain(name).title
        except Exception as exc:  # a broken plug-in must not hide the others
            title = f"(불러오지 못함: {exc})"
        typer.echo(f"{name}\t{title}")


@app.command()
def run(
    domain: str = typer.Argument(..., help="Domain name (see `verdicts list`)."),
    path: Path = typer.Argument(..., help="The domain's inputs: a folder of CSVs, an .xlsx workbook or JSON/YAML."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f"),
    html: Path | None = typer.Option(None, "--html", help="Also write the report screen as one self-contained HTML file."),
) -> None:
    """Judge every target of DOMAIN and print the cards grouped by verdict."""
    try:
        plugin = get_domain(domain)
        report = plugin.judge(path)
        if html is not None:
            from .screen import render_html

            html.write_text(render_html(report, plugin), encoding="utf-8")
            typer.echo(f"verdicts: 보고서 화면을 {html}에 썼습니다.", err=True)
    except VerdictsError as exc:
        typer.echo(f"verdicts: {exc}", err=True)
        raise typer.Exit(2)
    sys.stdout.write(REPORTERS[format.value](report, plugin))
    raise typer.Exit(plugin.exit_code(report))


if __name__ == "__main__":  # pragma: no cover
    app()
