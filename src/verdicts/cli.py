"""The ``verdicts`` command: run any registered domain over its inputs, keep rounds,
show the last one, grade against a gold file.

A thin layer: it parses options, calls the library and picks a reporter.  Library errors
are caught here only and turned into a message and an exit code: 0 when every card
passes and nothing else was found, 1 when there are findings or input issues (or, for
``grade``, disagreements), 2 when the input cannot be read at all or the rounds database
cannot be used.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer

from .domain import domain_names, get_domain
from .errors import VerdictsError
from .grading import grade_domain, render_grade_text
from .reporters import REPORTERS
from .rounds import ENV_VAR, RoundStore, report_from_json
from .tables import json_dumps
from .safe_text import clean
from .version import tool_version

app = typer.Typer(
    name="verdicts",
    help="판정 도메인을 실행합니다 (runs a verdict domain over its input tables).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class RunFormat(str, Enum):
    text = "text"
    json = "json"
    sarif = "sarif"
    github = "github"


DB_OPTION = typer.Option(None, "--db", envvar=ENV_VAR, help=f"Rounds database (SQLite); default ${ENV_VAR} or ~/.local/share/verdicts/rounds.sqlite3.")


def _fail(message: str, code: int = 2) -> typer.Exit:
    typer.echo(f"verdicts: {message}", err=True)
    return typer.Exit(code)


def _show_version(value: bool) -> None:
    if value:
        from verdicts.version import tool_version

        typer.echo(f"verdicts {tool_version()}")
        raise typer.Exit(0)


@app.callback()
def main(version: bool = typer.Option(False, "--version", "-V", callback=_show_version, is_eager=True,
                                      help="Print the version and exit.")) -> None:
    """verdicts — the family of verdict domains."""


@app.command("list")
def list_domains() -> None:
    """Name every domain with what it decides."""
    for name in domain_names():
        try:
            title = get_domain(name).title
        except Exception as exc:  # a broken plug-in must not hide the others
            title = f"(불러오지 못함: {exc})"
        typer.echo(f"{name}\t{title}")


@app.command()
def run(
    domain: str = typer.Argument(..., help="Domain name (see `verdicts list`)."),
    paths: list[Path] = typer.Argument(..., help="The domain's inputs: a folder of CSVs, an .xlsx workbook or JSON/YAML; several are judged one by one into one report."),
    format: Optional[RunFormat] = typer.Option(None, "--format", "-f", help="text, json, sarif (SARIF 2.1.0) or github (workflow annotations); default: the configuration's, else text."),
    config: Optional[Path] = typer.Option(None, "--config", help="A verdicts.toml (or pyproject.toml) to use instead of the one found from the inputs' folder upwards."),
    save: bool = typer.Option(False, "--save", help="Store this round in the rounds database (one input)."),
    db: Optional[Path] = DB_OPTION,
    html: Optional[Path] = typer.Option(None, "--html", help="Also write the report screen as one self-contained HTML file (one input)."),
    grading: Optional[Path] = typer.Option(None, "--grading", help="A grading run's JSON output (`verdicts grade DOMAIN … --format json`) for the self-grading panel of --html."),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="No progress line on stderr."),
    jobs: Optional[int] = typer.Option(None, "--jobs", "-j", min=1, help="Processes for several inputs (default: one per core); also VERDICTS_JOBS."),
    all_: bool = typer.Option(False, "--all", help="List every passing card and check in the text report (by default they are counted)."),
) -> None:
    """Judge every target of DOMAIN and print the cards grouped by verdict, then the
    input issues, findings and checks (the exit code: 0 nothing fails, 1 findings or
    issues, 2 an input could not be read)."""
    from .pipeline import Options, judge, judge_one, write_report_to_stdout

    if grading is not None and html is None:
        raise _fail("'--grading'은 '--html'과 함께 써야 합니다. 자가채점 칸은 보고서 화면에 있습니다.")
    try:
        plugin = get_domain(domain)
    except VerdictsError as exc:
        raise _fail(str(exc))
    if all_:
        from .report import show_passing_in_full

        show_passing_in_full()
    options = Options(format=format.value if format else None, config=config, jobs=jobs, quiet=quiet)
    if not (save or html):
        raise typer.Exit(judge(plugin, paths, options, prog="verdicts"))
    if len(paths) != 1:
        raise _fail("'--save'와 '--html'은 입력 하나에만 쓸 수 있습니다.")
    path = paths[0]
    if html is not None:
        from .outputs import check_output_file

        try:
            check_output_file(html, "--html")
        except VerdictsError as exc:
            raise _fail(str(exc))
    try:
        report, cfg = judge_one(plugin, path, options, "verdicts")
        if html is not None:
            from .screen import load_grading

            panel = load_grading(grading, plugin, inputs=[path]) if grading is not None else None
            from .outputs import write_output

            write_output(html, REPORTERS["html"].render(report, plugin, grading=panel))
            typer.echo(f"verdicts: 보고서 화면을 {html}에 썼습니다.", err=True)
    except VerdictsError as exc:
        raise _fail(str(exc))
    code = plugin.exit_code(report, cfg)
    if save:
        try:
            store = RoundStore(db)
            round_id = store.save(report, path, exit_code=code, tool_version=tool_version())
        except VerdictsError as exc:
            raise _fail(str(exc))
        typer.echo(f"verdicts: {store.path}에 {round_id}번 회차로 저장했습니다.", err=True)
    write_report_to_stdout(plugin, report, format.value if format else cfg.format)
    raise typer.Exit(code)


@app.command()
def show(
    domain: str = typer.Argument(..., help="Domain name (see `verdicts list`)."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f"),
    db: Optional[Path] = DB_OPTION,
) -> None:
    """Show the last stored round of DOMAIN as it was stored (JSON: byte for byte)."""
    try:
        plugin = get_domain(domain)
        store = RoundStore(db)
        stored = store.last(plugin.name)
    except VerdictsError as exc:
        raise _fail(str(exc))
    if stored is None:
        raise _fail(f"{store.path}에 저장된 {plugin.name} 회차가 없습니다. `verdicts run {plugin.name} PATH --save`로 먼저 저장해 주세요.", 1)
    header = (f"저장된 회차 #{stored.id} · {stored.saved_at} · {clean(stored.input_path)} "
              f"(입력 sha256 {clean(stored.inputs_sha256[:12])}…, {clean(stored.tool_version) or '버전 미상'})")
    try:
        text = REPORTERS["text"].render(report_from_json(plugin, stored.data), plugin) if format is not OutputFormat.json else None
        if format is OutputFormat.json:
            stored.data  # noqa: B018 - checked before it is printed
    except VerdictsError as exc:
        raise _fail(str(exc))
    if format is OutputFormat.json:
        typer.echo(header, err=True)
        sys.stdout.write(stored.report_json + "\n")
    else:
        sys.stdout.write(header + "\n\n")
        sys.stdout.write(text)
    raise typer.Exit(stored.exit_code)


@app.command()
def explain(
    domain: str = typer.Argument(..., help="Domain name (see `verdicts list`)."),
    name: str = typer.Argument(..., help="A verdict (Korean label or code), a lint finding code or a check id."),
) -> None:
    """What a verdict, a finding or a check of DOMAIN flags, why it matters, an example,
    what to do instead (from the same docstrings as the docs pages)."""
    try:
        plugin = get_domain(domain)
    except VerdictsError as exc:
        raise _fail(str(exc))
    text = plugin.explain(name.strip())
    if text is None:
        raise _fail(unknown_name_message(name, plugin.explainable_names()))
    typer.echo(text)


@app.command()
def docs(domain: str = typer.Argument(..., help="Domain name (see `verdicts list`).")) -> None:
    """Print DOMAIN's docs page (its rules, findings, checks and notes), generated from
    the docstrings."""
    from .docs import render_domain_docs

    try:
        plugin = get_domain(domain)
    except VerdictsError as exc:
        raise _fail(str(exc))
    sys.stdout.write(render_domain_docs(plugin))


def unknown_name_message(name: str, known: list[str]) -> str:
    """One sentence for a name ``explain`` does not know, with the closest names."""
    import difflib

    close = difflib.get_close_matches(name.strip(), known, n=3, cutoff=0.5)
    from .korean import josa

    if len(close) == 1:
        hint = f" 혹시 {josa(repr(close[0]), '을/를')} 찾으셨나요?"
    elif close:
        hint = f" 혹시 {', '.join(repr(c) for c in close)} 가운데 하나를 찾으셨나요?"
    else:
        hint = ""
    return f"'{name}'에 해당하는 판정, 발견 코드, 검증 번호가 없습니다. 쓸 수 있는 이름: {', '.join(known)}.{hint}"


@app.command()
def grade(
    domain: str = typer.Argument(..., help="Domain name (see `verdicts list`)."),
    path: Path = typer.Argument(..., help="The domain's inputs."),
    gold: Path = typer.Argument(..., help="Gold CSV: the key column, verdict, the domain's compared fields, note."),
    format: OutputFormat = typer.Option(OutputFormat.text, "--format", "-f"),
) -> None:
    """Compare the researchers' picks in GOLD with the automatic verdicts."""
    try:
        plugin = get_domain(domain)
        result = grade_domain(plugin, path, gold)
    except VerdictsError as exc:
        raise _fail(str(exc))
    except OSError as exc:
        raise _fail(f"{gold}: 정답 파일을 읽을 수 없습니다 ({exc.strerror}).")
    if format is OutputFormat.json:
        sys.stdout.write(json_dumps(result.to_json()) + "\n")
    else:
        sys.stdout.write(render_grade_text(result))
    raise typer.Exit(0 if not result.disagreements and not result.issues else 1)


#: the entry-point group of a domain's own commands (a typer app mounted as ``verdicts
#: NAME …``, e.g. ``verdicts mail import``): ``[project.entry-points."verdicts.commands"]``
COMMANDS_GROUP = "verdicts.commands"


def _mount_domain_commands() -> None:
    """Mount every registered domain command group; one that cannot be loaded is left
    out with a message (a broken plug-in must not take the other commands down)."""
    from importlib.metadata import entry_points

    for point in entry_points(group=COMMANDS_GROUP):
        try:
            sub = point.load()
        except Exception as exc:  # noqa: BLE001 - any failure of a plug-in
            typer.echo(f"verdicts: '{point.name}' 명령 묶음을 불러오지 못해 뺐습니다 ({type(exc).__name__}: {exc}).", err=True)
            continue
        app.add_typer(sub, name=point.name)


_mount_domain_commands()


if __name__ == "__main__":  # pragma: no cover
    app()
