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

from verdicts.commandline import Command, Group, fail, int_in

PROG = "verdicts review"
_DB_HELP = "검토 데이터베이스(SQLite) 파일 (기본: `$VERDICTS_REVIEW_DB`, 없으면 `~/.local/share/verdicts/review.sqlite3`)"


def alone(load: list[Path] | None, db: Optional[Path], host: str, port: int) -> int:
    """명령 없이 쓰면 --load로 준 입력을 대기열에 넣고 검토 대기열을 엽니다."""
    return _serve(load or [], db, host, port)


def serve(paths: list[Path], db: Optional[Path], host: str, port: int) -> int:
    """PATH들의 실행을 대기열에 넣고 검토 화면을 엽니다. 주소는 표준 출력에 씁니다."""
    return _serve(paths or [], db, host, port)


def _serve(paths: list[Path], db: Optional[Path], host: str, port: int) -> int:
    from verdicts.errors import VerdictsError
    from verdicts.serve import bind, create_app, run_server, url_of

    from .review import ReviewStore
    from .review_web import review_pages, review_routes

    try:
        store = ReviewStore(db)
        for path in paths:
            store.load(path)
    except VerdictsError as exc:
        raise fail(str(exc), prog=PROG)
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise fail(f"{host}:{port}에서 서버를 열지 못했습니다 ({exc}).", prog=PROG)
    app_ = create_app(review_pages(), routes=review_routes(store))
    print(url_of(sock) + "review", flush=True)
    run_server(app_, sock)
    return 0


def stats(db: Optional[Path], format: str) -> int:
    """결정에 걸린 시간을 칸별, 판정별로 중앙값과 90백분위로 보여 줍니다."""
    from verdicts.errors import VerdictsError

    from .review import ReviewStore

    try:
        data = ReviewStore(db).stats()
    except VerdictsError as exc:
        raise fail(str(exc), prog=f"{PROG} stats")
    if format == "json":
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return 0
    for part, title in (("field_name", "칸별"), ("verdict", "판정별")):
        sys.stdout.write(f"■ {title}\n")
        for row in data[part]:
            sys.stdout.write(f"  {row[part]}\t결정 {row['decisions']}건\t중앙값 {row['median']}초\t90백분위 {row['p90']}초\n")
    return 0


def export(run_id: str, db: Optional[Path], format: str) -> int:
    """RUN_ID 실행의 고친 값을 CSV나 JSON으로 씁니다."""
    from verdicts.errors import VerdictsError

    from .review import ReviewStore

    store = ReviewStore(db)
    try:
        out = store.export_csv(run_id) if format == "csv" else json.dumps(store.export(run_id), ensure_ascii=False, indent=2) + "\n"
    except VerdictsError as exc:
        raise fail(str(exc), prog=f"{PROG} export")
    sys.stdout.write(out)
    return 0


def _server_options(c: Command) -> None:
    c.option("--db", type=Path, metavar="FILE", help=_DB_HELP)
    c.option("--host", default="127.0.0.1", metavar="ADDRESS", help="열 주소 (기본은 이 컴퓨터 안에서만)")
    c.option("--port", type=int_in("--port", 0, 65535), default=8766, metavar="PORT", help="포트 (0이면 빈 포트를 고릅니다)")


def commands(group: Group) -> None:
    """추출 값 검토 대기열: 명령 없이 쓰면 대기열을 열고, stats는 결정에 걸린 시간을, export는 고친 값을 보여 줍니다."""
    c = group.alone(alone)
    c.option("--load", action="append", type=Path, metavar="PATH", help="실행을 대기열에 넣을 입력 (여러 번 줄 수 있습니다)")
    _server_options(c)

    c = group.command("serve", serve)
    c.argument("paths", nargs="*", type=Path, metavar="PATH", help="실행을 대기열에 넣을 입력 (도메인이 읽는 어떤 꼴이든)")
    _server_options(c)

    c = group.command("stats", stats)
    c.option("--db", type=Path, metavar="FILE", help=_DB_HELP)
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")

    c = group.command("export", export)
    c.argument("run_id", metavar="RUN_ID", help="고친 값을 낼 실행 id")
    c.option("--db", type=Path, metavar="FILE", help=_DB_HELP)
    c.option("--format", "-f", choices=["csv", "json"], default="csv", help="출력 형식")


#: the name the entry point had when this group was a typer app: a virtual environment installed
#: before (its entry-point metadata not yet rewritten by scripts/setup.sh) still finds the group
app = commands


if __name__ == "__main__":  # pragma: no cover
    from verdicts.cli import main

    raise SystemExit(main(["review", *sys.argv[1:]]))
