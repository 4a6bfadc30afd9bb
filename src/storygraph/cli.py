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

from .domain import DOMAIN

app = typer.Typer(
    name="storygraph",
    help="창작자가 짠 시나리오 분기가 어디서 막히는지 알려줍니다 (tells where a branching scenario gets stuck).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def _fail(message: str, code: int = 2) -> "typer.Exit":
    typer.echo(f"storygraph: {message}", err=True)
    return typer.Exit(code)


def _show_version(value: bool) -> None:
    if value:
        from verdicts.version import tool_version

        typer.echo(f"storygraph {tool_version()}")
        raise typer.Exit(0)


@app.callback()
def main(version: bool = typer.Option(False, "--version", "-V", callback=_show_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    """storygraph — scenario linter."""


class LintFormat(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


@app.command()
def lint(
    paths: list[Path] = typer.Argument(..., help="Scenarios: scenario.csv (union of the three tables), a folder of CSVs, an .xlsx workbook, JSON/YAML, or folders of scenarios."),
    format: Optional[LintFormat] = typer.Option(None, "--format", "-f", help="Output format (default: the configuration's, else text)."),
    config: Optional[Path] = typer.Option(None, "--config", help="A storygraph.toml or pyproject.toml to use instead of the one found from the scenario's folder upwards."),
    html: Path | None = typer.Option(None, "--html", help="Also write the report screen as one self-contained HTML file (one scenario)."),
    dot: Path | None = typer.Option(None, "--dot", help="Also write the scenario diagram as Graphviz DOT source (one scenario)."),
    grading: Path | None = typer.Option(None, "--grading", help="A grading run's JSON output to fill the self-grading panel of --html."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line on stderr (it only appears on a terminal, for runs over a second)."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes: for the cards of a large scenario (default: one per core, none under 1,500 cards per process), or for several scenarios (one at a time each); also VERDICTS_JOBS."),
) -> None:
    """Judge every scene and branch and print the cards grouped by verdict, then the
    input issues, then the automatic checks.  Several paths are reported one after the
    other; one unreadable file does not stop the others; the exit code is the worst."""
    from verdicts.pipeline import Options, judge, judge_one, render_single, tolerant_stdout, write_report_to_stdout

    options = Options(format=format.value if format else None, config=config, jobs=jobs, quiet=quiet)
    if not (html or dot or grading):
        raise typer.Exit(judge(DOMAIN, paths, options))
    targets = DOMAIN.expand_paths(paths)
    if len(targets) != 1:
        raise _fail("--html, --dot, --grading 은 시나리오 하나에만 쓸 수 있습니다.")
    if grading is not None and html is None:
        raise _fail("--grading 은 --html 과 함께 써야 합니다 (자기 채점 칸은 보고서 화면에 있습니다).")
    # one scenario whose report the diagram or the screen needs as a whole
    target = targets[0]
    try:
        report, cfg = judge_one(DOMAIN, target, options, "storygraph")
    except VerdictsError as exc:
        typer.echo(f"storygraph: {exc}", err=True)
        tolerant_stdout()
        sys.stdout.write(render_single(DOMAIN, target, str(exc), "text"))
        raise typer.Exit(2)
    fmt = options.format or cfg.format
    try:
        if dot is not None:
            from .diagram import diagram_model, write_diagram

            write_diagram(diagram_model(report, focus=cfg.diagram.focus, hops=cfg.diagram.hops if cfg.diagram.focus else None),
                          dot, format="dot")
            typer.echo(f"storygraph: 그림(DOT)을 {dot}에 썼습니다.", err=True)
        if html is not None:
            from verdicts.screen import load_grading

            from .screen import report_html

            panel = load_grading(grading, DOMAIN, inputs=[target]) if grading is not None else None
            from verdicts.outputs import write_output

            write_output(html, report_html(report, DOMAIN, grading=panel))
            typer.echo(f"storygraph: 보고서 화면을 {html}에 썼습니다.", err=True)
    except VerdictsError as exc:
        raise _fail(str(exc))
    if fmt == "json":
        write_report_to_stdout(DOMAIN, report, "json")  # streamed: large reports are never one string
    else:
        tolerant_stdout()
        sys.stdout.write(render_single(DOMAIN, target, report, fmt))
    from verdicts.accept import CHECKS_FAILED, checks_failed_message, exit_code, failed_checks

    code = exit_code(DOMAIN, report, cfg)
    if code == CHECKS_FAILED:
        typer.echo(f"storygraph: {checks_failed_message(failed_checks(report))}", err=True)
    raise typer.Exit(code)


@app.command()
def watch(
    paths: list[Path] = typer.Argument(..., help="Scenarios to follow (files or folders, as for lint)."),
    config: Optional[Path] = typer.Option(None, "--config", help="A storygraph.toml to use instead of the one found upwards."),
    debounce: int = typer.Option(400, "--debounce", min=10, max=10_000, help="Milliseconds of quiet after the last event of a save before linting (one save = one lint)."),
) -> None:
    """Lint again on every save of a scenario (or its configuration): the problems first,
    then what is new and what is fixed since the last save.  Stop with Ctrl+C."""
    from verdicts.pipeline import Options

    from .incremental import incremental_judge
    from .watch import watch as follow

    targets = DOMAIN.expand_paths(paths)
    options = Options(config=config, quiet=True)
    # each save re-lints incrementally: only what the edit can change is made again
    raise typer.Exit(follow(DOMAIN, targets, options, debounce_ms=debounce, judge=incremental_judge(options)))


@app.command()
def explain(name: str = typer.Argument(..., help="A verdict (Korean label or code such as shadowed) or a lint finding code.")) -> None:
    """What a verdict or a lint finding flags, why it matters, an example, what to do instead."""
    from .docs import explain_text, explainable_names

    text = explain_text(name.strip())
    if text is None:
        raise _fail(f"'{name}'은(는) 알 수 없는 이름입니다. 쓸 수 있는 이름: {', '.join(explainable_names())}")
    typer.echo(text)


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


def _parse_plants(items: list[str], scenes: int) -> dict[str, int]:
    from .fuzz import KINDS, default_plants

    counts = default_plants(scenes)
    for item in items:
        kind, sep, number = item.partition("=")
        kind = kind.strip().replace("-", "_")
        if not sep or not number.strip().isdigit():
            raise _fail(f"--plant 는 KIND=N 꼴이어야 합니다: '{item}'")
        if kind == "all":
            counts = {k: int(number) for k in KINDS}
        elif kind in KINDS:
            counts[kind] = int(number)
        else:
            raise _fail(f"알 수 없는 결함 종류 '{kind}' (있는 종류: all, {', '.join(KINDS)})")
    return counts


@app.command()
def fuzz(
    seed: int = typer.Option(1, "--seed", help="Random seed: the same seed gives the same scenario."),
    scenes: int = typer.Option(200, "--scenes", help="How many scenes, planted ones included."),
    flags: int = typer.Option(4, "--flags", help="How many flags in flag_spec."),
    out: Optional[Path] = typer.Option(None, "--out", help="Folder for scenario.csv and manifest.json (kept)."),
    plant: list[str] = typer.Option([], "--plant", help="KIND=N, repeatable (all=N sets every kind); default one of each per 200 scenes."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f", help="Output format."),
) -> None:
    """Generate a random scenario with planted defects, lint it and print planted
    against caught per kind, and every other finding, explained or not (exit 0 when
    every plant is caught and nothing is unexplained)."""
    from .fuzz import render_fuzz_text, run_fuzz

    counts = _parse_plants(plant, scenes)
    progress = None
    if sys.stderr.isatty() and scenes >= 500:
        progress = _progress_bar()
    try:
        gen, report, outcome, timings = run_fuzz(seed, scenes, flags, counts, out, progress=progress)
    except VerdictsError as exc:
        raise _fail(str(exc))
    finally:
        if progress is not None:
            progress.close()
    result = {"seed": seed, "scenes": len(gen.scenes), "branches": len(gen.branches), "flags": len(gen.flags),
              "out": str(out) if out else None, **outcome.to_json(), "timings": timings}
    if format is OutputFormat.json:
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_fuzz_text(result))
    raise typer.Exit(0 if outcome.ok else 1)


class _progress_bar:
    """A progress bar on stderr (only used when stderr is a terminal)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                            TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self.bar.start()
        self.tasks: dict[str, int] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        label = {"generate": "시나리오 만드는 중", "lint": "검사하는 중"}.get(phase, phase)
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(label, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)

    def close(self) -> None:
        self.bar.stop()


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
    max_nodes: Optional[int] = typer.Option(None, "--max-nodes", min=1, help="Refuse to lay out more scenes than this (use --focus); default 600 or the configuration's."),
    max_edges: int = typer.Option(2400, "--max-edges", min=1, help="Refuse to lay out more branches than this (use --focus)."),
) -> None:
    """Draw the scenario: scenes as nodes, branches as edges, coloured by verdict."""
    from .diagram import diagram_model, write_diagram
    from .domain import find_config, lint as run_lint, load_config

    try:
        cfg = load_config(find_config(path))
        report = run_lint(path, config=cfg)
        focus = focus if focus is not None else cfg.diagram.focus
        hops = hops if hops is not None else (cfg.diagram.hops if cfg.diagram.focus else None)
        model = diagram_model(report, focus=focus, hops=hops)
        fmt = write_diagram(model, output, format=format.value if format else None, timeout=timeout,
                            max_nodes=max_nodes or cfg.diagram.max_nodes, max_edges=max_edges)
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
    allow_remote: bool = typer.Option(False, "--allow-remote", help="Allow a --host that is not loopback (the server has no login: put it behind something that has one)."),
    lint_timeout: float = typer.Option(30.0, "--lint-timeout", min=0.1, help="Seconds one lint may take before it is stopped."),
    max_lints: int = typer.Option(2, "--max-lints", min=1, help="Lints running at once; more wait their turn."),
    read_timeout: float = typer.Option(10.0, "--read-timeout", min=0.1, help="Seconds a client may pause while sending a request (and to send its headers)."),
    body_timeout: float = typer.Option(60.0, "--body-timeout", min=0.1, help="Seconds a client may take to send a whole upload."),
    watch: Optional[Path] = typer.Option(None, "--watch", help="A scenario to follow: / shows its report and updates it in place after every save."),
) -> None:
    """Serve the report screen: upload a scenario, or press 샘플 데이터로 보기; with
    --watch PATH, the report of PATH, updated in the open page after every save."""
    from verdicts.korean import josa
    from verdicts.serve import ServerLimits, bind, create_app, is_loopback, run_server, url_of

    from .pages import server_pages

    if not is_loopback(host) and not allow_remote:
        raise _fail(f"{josa(host, '은/는')} 이 컴퓨터 밖에서도 닿는 주소입니다. 이 서버에는 로그인이 없으니 127.0.0.1로 여세요. "
                    "꼭 밖에 열어야 하면 --allow-remote를 붙이세요. 어떻게 열어야 안전한지는 docs/security.md에 있습니다.")
    max_bytes = int(max_upload_mb * 1024 * 1024)
    limits = ServerLimits(max_bytes=max_bytes, lint_timeout=lint_timeout, max_lints=max_lints, header_timeout=read_timeout,
                          read_timeout=read_timeout, body_timeout=body_timeout)
    if watch is not None and not watch.exists():
        raise _fail(f"{watch}: 따라갈 시나리오가 없습니다.")
    app = create_app(server_pages(max_bytes=max_bytes), limits, loopback_only=is_loopback(host),
                     log=lambda line: typer.echo(f"storygraph: {line}", err=True), watch=watch)
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise _fail(f"{host}:{port}에서 서버를 열지 못했습니다: {exc}")
    url = url_of(sock)
    typer.echo(f"storygraph: {url} 에서 보고서 화면을 엽니다 (멈추려면 Ctrl+C).", err=True)
    print(url, flush=True)
    run_server(app, sock)
    typer.echo("storygraph: 서버를 멈췄습니다.", err=True)


@app.command("import")
def import_(
    path: Path = typer.Argument(..., help="A story: .ink, .ink.json (inklecate), .twee/.tw (Twine), a ChoiceScript scenes/ folder or startup.txt, .yarn."),
    out: Optional[str] = typer.Option(None, "--out", "-o", help="The union CSV to write (default: standard output)."),
    fmt: Optional[str] = typer.Option(None, "--from", help="The story's format (ink, ink-json, twee, choicescript, yarn); default: from the extension."),
    ending_tag: str = typer.Option("ending", "--ending-tag", help="Twine: the passage tag that marks an ending."),
    entries: str = typer.Option("unreached", "--entries", help="Yarn: 'unreached' (Start and every node no jump reaches) or one node's title."),
) -> None:
    """Read a story in its own format into the three tables (one union CSV); every
    construct that cannot be translated is printed as file:line — reason."""
    from .import_cli import import_command

    raise typer.Exit(import_command(path, out, fmt, ending_tag=ending_tag, entries=entries))


def run() -> None:
    """The ``storygraph`` command: :data:`app`, then a fast exit.

    A large lint leaves millions of objects behind; letting the interpreter free them
    one by one at exit took about four seconds at 100,000 scenes, longer than the
    floor's whole run.  Once the command has finished and its output is flushed there is
    nothing left to clean up (files are closed, temporary files already unlinked), so
    the process ends with :func:`os._exit` instead, with the command's exit code.
    In-process callers (tests with typer's ``CliRunner``) use :data:`app` and exit
    normally.
    """
    import os

    try:
        app()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    if isinstance(code, str):  # sys.exit("message"): printed as Python would
        sys.stderr.write(code + "\n")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):  # the reader went away, or the stream was closed
        pass
    os._exit(0 if code is None else code if isinstance(code, int) else 1)


if __name__ == "__main__":  # pragma: no cover
    run()
