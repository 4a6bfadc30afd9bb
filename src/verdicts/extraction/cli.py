"""``verdicts review`` — the review queue's commands, mounted by the kit's
``verdicts.commands`` entry point (also ``python -m verdicts.extraction.cli``):
``verdicts review [--load PATH]…`` (or ``serve PATH…``) serves the queue on 127.0.0.1,
``stats`` prints the time to decide, ``export`` a run's corrected values.  A thin layer
over :mod:`.review` and :mod:`.review_web`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer

from verdicts.errors import VerdictsError

from .review import ENV_VAR, ReviewStore

app = typer.Typer(name="review", help="추출 값 검토 대기열 (the extraction review queue).", no_args_is_help=False,
                  add_completion=False, pretty_exceptions_enable=False)

DB = typer.Option(None, "--db", envvar=ENV_VAR, help=f"Review database (SQLite); default ${ENV_VAR} or ~/.local/share/verdicts/review.sqlite3.")


def _fail(message: str) -> typer.Exit:
    typer.echo(f"verdicts review: {message}", err=True)
    return typer.Exit(2)


HOST = typer.Option("127.0.0.1", "--host")
PORT = typer.Option(8766, "--port", help="0 picks a free port.")


@app.callback(invoke_without_command=True)
def main(ctx: typer.Context, load: list[Path] = typer.Option(None, "--load", help="An input whose runs join the queue (repeatable)."),
         db: Optional[Path] = DB, host: str = HOST, port: int = PORT) -> None:
    """Without a command: serve the queue (after loading each --load input)."""
    if ctx.invoked_subcommand is None:
        _serve(load or [], db, host, port)


@app.command()
def serve(paths: list[Path] = typer.Argument(None, help="Inputs whose runs join the queue (any form the domain reads)."),
          db: Optional[Path] = DB, host: str = HOST, port: int = PORT) -> None:
    """Load PATHS into the queue and serve it; the URL is printed on stdout."""
    _serve(paths or [], db, host, port)


def _serve(paths: list[Path], db: Optional[Path], host: str, port: int) -> None:
    from verdicts.serve import bind, create_app, run_server, url_of

    from .review_web import review_pages, review_routes

    store = ReviewStore(db)
    try:
        for path in paths:
            store.load(path)
    except VerdictsError as exc:
        raise _fail(str(exc))
    sock = bind(host, port)
    app_ = create_app(review_pages(), routes=review_routes(store))
    print(url_of(sock) + "review", flush=True)
    run_server(app_, sock)


@app.command()
def stats(db: Optional[Path] = DB, format: str = typer.Option("text", "--format", "-f")) -> None:
    """Time to decide: median and 90th percentile per field and per verdict."""
    try:
        data = ReviewStore(db).stats()
    except VerdictsError as exc:
        raise _fail(str(exc))
    if format == "json":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    for part, title in (("field_name", "칸별"), ("verdict", "판정별")):
        sys.stdout.write(f"■ {title}\n")
        for row in data[part]:
            sys.stdout.write(f"  {row[part]}\t결정 {row['decisions']}건\t중앙값 {row['median']}초\t90백분위 {row['p90']}초\n")


@app.command()
def export(run_id: str, db: Optional[Path] = DB, format: str = typer.Option("csv", "--format", "-f")) -> None:
    """The corrected values of RUN_ID as CSV or JSON."""
    store = ReviewStore(db)
    try:
        out = store.export_csv(run_id) if format == "csv" else json.dumps(store.export(run_id), ensure_ascii=False, indent=2) + "\n"
    except VerdictsError as exc:
        raise _fail(str(exc))
    sys.stdout.write(out)


if __name__ == "__main__":  # pragma: no cover
    app()
