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
    html: Path | None = typer.Option(None, "--html", help="Also write the report screen as one self-contained HTML file."),
    dot: Path | None = typer.Option(None, "--dot", help="Also write the scenario diagram as Graphviz DOT source."),
    grading: Path | None = typer.Option(None, "--grading", help="A grading run's JSON output to fill the self-grading panel of --html."),
) -> None:
    """Judge every scene and branch and print the cards grouped by verdict, then the
    input issues, then the automatic checks."""
    try:
        report = run_lint(path)
        if dot is not None:
            from .diagram import diagram_model, write_diagram

            write_diagram(diagram_model(report), dot, format="dot")
            typer.echo(f"storygraph: 그림(DOT)을 {dot}에 썼습니다.", err=True)
        if html is not None:
            from verdicts.screen import load_grading

            from .screen import report_html

            panel = load_grading(grading, DOMAIN, inputs=[path]) if grading is not None else None
            html.write_text(report_html(report, grading=panel), encoding="utf-8")
            typer.echo(f"storygraph: 보고서 화면을 {html}에 썼습니다.", err=True)
        elif grading is not None:
            raise _fail("--grading 은 --html 과 함께 써야 합니다 (자기 채점 칸은 보고서 화면에 있습니다).")
    except VerdictsError as exc:
        raise _fail(str(exc))
    sys.stdout.write(REPORTERS[format.value](report, DOMAIN))
    raise typer.Exit(DOMAIN.exit_code(report))


class DiagramFormat(str, Enum):
    dot = "dot"
    svg = "svg"
    png = "png"
    mermaid = "mermaid"


@app.command()
def render(
    path: Path = typer.Argument(..., help="The scenario, in any accepted form."),
    output: Path = typer.Option(..., "--output", "-o", help="Where to write: .dot, .svg, .png (by suffix), or .md/.mmd for Mermaid."),
    format: DiagramFormat | None = typer.Option(None, "--format", "-f", help="Override the format chosen by the suffix (mermaid for Markdown)."),
    focus: str | None = typer.Option(None, "--focus", help="'findings' (around every card that is not 끝까지 닿음) or a scene_id."),
    hops: int | None = typer.Option(None, "--hops", min=0, help="Steps around the focus (default 1 for findings, 2 for a scene)."),
    timeout: float = typer.Option(30.0, "--timeout", min=0.1, help="Seconds dot may take before it is stopped."),
    max_nodes: int = typer.Option(600, "--max-nodes", min=1, help="Refuse to lay out more scenes than this (use --focus)."),
    max_edges: int = typer.Option(2400, "--max-edges", min=1, help="Refuse to lay out more branches than this (use --focus)."),
) -> None:
    """Draw the scenario: scenes as nodes, branches as edges, coloured by verdict."""
    from .diagram import diagram_model, write_diagram

    try:
        report = run_lint(path)
        model = diagram_model(report, focus=focus, hops=hops)
        fmt = write_diagram(model, output, format=format.value if format else None, timeout=timeout,
                            max_nodes=max_nodes, max_edges=max_edges)
    except VerdictsError as exc:
        raise _fail(str(exc))
    typer.echo(f"storygraph: {fmt} 그림을 {output}에 썼습니다. {model.caption()}", err=True)
    if report.issues:
        typer.echo(f"storygraph: 입력 문제가 {len(report.issues)}건 있습니다: storygraph lint {path} 로 확인하세요 (판정을 보류한 대상은 회색입니다).", err=True)


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (local only by default)."),
    port: int = typer.Option(8765, "--port", min=0, max=65535, help="Port (0 picks a free one)."),
    max_upload_mb: float = typer.Option(20.0, "--max-upload-mb", min=0.001, help="Largest upload accepted, in megabytes."),
) -> None:
    """Serve the report screen: upload a scenario, or press 샘플 데이터로 보기."""
    from verdicts.serve import make_server

    from .screen import server_pages

    try:
        server = make_server(host, port, server_pages(max_bytes=int(max_upload_mb * 1024 * 1024)))
    except OSError as exc:
        raise _fail(f"{host}:{port}에서 서버를 열지 못했습니다: {exc}")
    bound_host, bound_port = server.server_address[:2]
    typer.echo(f"storygraph: http://{bound_host}:{bound_port}/ 에서 보고서 화면을 엽니다 (멈추려면 Ctrl+C).", err=True)
    print(f"http://{bound_host}:{bound_port}/", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":  # pragma: no cover
    app()
