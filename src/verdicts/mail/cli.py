"""``verdicts mail import …`` reads a real mailbox into the mail domain's three tables, and
``verdicts mail serve`` serves its report screen (a thin layer over
:mod:`verdicts.mail.importer`, :mod:`verdicts.mail.imap` and :mod:`verdicts.mail.pages`;
mounted through the entry-point group ``verdicts.commands``).

Exit codes of ``import``: 0 the tables were written from every message; 1 they were written, but
something is missing (a message or log line that could not be read, a connection that
broke part-way: each named on stderr); 2 nothing could be read.
"""

from __future__ import annotations

import csv
import os
import shutil
from pathlib import Path
from typing import Optional

import typer

from verdicts.errors import InputError

from .importer import Mail, import_mailbox, read_log, read_mails, write_tables
from .imap import is_imap_url, read_imap
from .model import ACTION_POLICY

app = typer.Typer(help="메일함을 읽어 mail 도메인의 세 표를 만들고(import), 보고서 화면을 엽니다(serve).", no_args_is_help=True)

#: where the IMAP password is read from when no --password-file is given
PASSWORD_ENV = "VERDICTS_IMAP_PASSWORD"


def _password(file: Optional[Path]) -> str:
    if file is not None:
        try:
            return (file.read_text(encoding="utf-8").splitlines() or [""])[0]
        except OSError as exc:
            raise InputError(f"{file}: 비밀번호 파일을 읽지 못했습니다 ({exc.strerror or exc}).") from None
    value = os.environ.get(PASSWORD_ENV)
    if value is None:
        raise InputError(f"IMAP 비밀번호가 없습니다. 환경 변수 {PASSWORD_ENV}에 넣거나 --password-file로 주세요.")
    return value


def _read(source: str, password_file: Optional[Path], cafile: Optional[Path], problems: list[str],
          broken: list[str]) -> list[Mail]:
    if is_imap_url(source):
        got = read_imap(source, _password(password_file), cafile=str(cafile) if cafile else None)
        problems.extend(got.problems)
        if got.broken:
            broken.append(got.broken)
        return got.mails
    return read_mails(source, problems)


def _write_policy(out: Path, policy: Optional[Path], kinds: list[str]) -> str | None:
    target = out / "action_policy.csv"
    if policy is not None:
        try:
            shutil.copyfile(policy, target)
        except OSError as exc:
            raise InputError(f"{policy}: 처리 종류 정책 파일을 복사하지 못했습니다 ({exc.strerror or exc}).") from None
        return None
    if target.exists():
        return None
    with open(target, "w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(ACTION_POLICY.column_names)
        for kind in kinds:
            w.writerow([kind] + [""] * (len(ACTION_POLICY.column_names) - 1))
    return (f"{target}: 에이전트 기록에 나온 처리 종류 {len(kinds)}개를 적었습니다. 판정하기 전에 "
            "max_reply_hours, min_confidence, needs_confirm 칸을 채워 주세요.")


@app.command("import")
def import_(
    source: str = typer.Argument(..., help="받은 메일: Maildir 폴더, mbox 파일, .eml 파일이나 .eml 폴더, 또는 imap://(imaps://)사용자@서버:포트/폴더"),
    out: Path = typer.Option(..., "--out", "-o", help="세 표(CSV)를 쓸 폴더(없으면 만듭니다)"),
    sent: Optional[str] = typer.Option(None, "--sent", help="에이전트가 보낸 메일(보낸 편지함): 받은 메일과 같은 형식"),
    log: Optional[Path] = typer.Option(None, "--log", help="에이전트 기록: 한 줄에 JSON 하나(message_id, action_kind, confidence …)"),
    policy: Optional[Path] = typer.Option(None, "--policy", help="action_policy.csv로 복사할 처리 종류 정책 파일"),
    password_file: Optional[Path] = typer.Option(None, "--password-file", help=f"IMAP 비밀번호가 첫 줄에 적힌 파일 (없으면 ${PASSWORD_ENV})"),
    cafile: Optional[Path] = typer.Option(None, "--cafile", help="IMAP 서버 인증서를 확인할 CA 인증서 파일(PEM)"),
) -> None:
    """Read received mail (and the agent's sent mail with its log) into
    mailbox_thread.csv, agent_action.csv and action_policy.csv in OUT."""
    if (sent is None) != (log is None):
        typer.echo("verdicts mail import: 보낸 메일(--sent)과 에이전트 기록(--log)은 함께 주세요. 보낸 메일마다 그 기록을 찾아 맞춰 봅니다.", err=True)
        raise typer.Exit(2)
    problems: list[str] = []
    notes: list[str] = []
    broken: list[str] = []
    try:
        received = _read(source, password_file, cafile, problems, broken)
        sent_mails = _read(sent, password_file, cafile, problems, broken) if sent is not None else []
        records = read_log(log, problems) if log is not None else []
        tables = import_mailbox(received, sent_mails, records, notes)
        write_tables(tables, out)
        kinds = list(dict.fromkeys(r["action_kind"] for r in tables["agent_action"] if r["action_kind"]))
        policy_note = _write_policy(out, policy, kinds)
    except InputError as exc:
        typer.echo(f"verdicts mail import: {exc}", err=True)
        raise typer.Exit(2)
    for line in problems + broken:
        typer.echo(f"문제: {line}", err=True)
    for line in notes + ([policy_note] if policy_note else []):
        typer.echo(f"참고: {line}", err=True)
    typer.echo(f"받은 메일 {len(received)}통을 mailbox_thread.csv에, 보낸 메일 {len(sent_mails)}통 가운데 "
               f"{len(tables['agent_action'])}통을 agent_action.csv에 썼습니다 ({out}).", err=True)
    raise typer.Exit(1 if problems or broken else 0)


@app.command("serve")
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="열 주소(기본은 이 컴퓨터 안에서만)"),
    port: int = typer.Option(8766, "--port", min=0, max=65535, help="포트(0이면 빈 포트를 고릅니다)"),
    max_upload_mb: float = typer.Option(20.0, "--max-upload-mb", min=0.001, help="받을 수 있는 가장 큰 업로드(MB)"),
    allow_remote: bool = typer.Option(False, "--allow-remote", help="이 컴퓨터 밖에서도 닿는 --host를 허락합니다(서버에 로그인이 없습니다)"),
) -> None:
    """Serve the mail report screen: upload the three tables, or press 샘플 데이터로 보기."""
    from verdicts.korean import josa
    from verdicts.serve import ServerLimits, bind, create_app, is_loopback, run_server, url_of

    from .pages import server_pages

    if not is_loopback(host) and not allow_remote:
        typer.echo(f"verdicts mail serve: {josa(host, '은/는')} 이 컴퓨터 밖에서도 닿는 주소입니다. 이 서버에는 로그인이 없으니 "
                   "127.0.0.1로 여세요. 꼭 밖에 열어야 하면 --allow-remote를 붙이세요.", err=True)
        raise typer.Exit(2)
    max_bytes = int(max_upload_mb * 1024 * 1024)
    app_ = create_app(server_pages(max_bytes=max_bytes), ServerLimits(max_bytes=max_bytes), loopback_only=is_loopback(host),
                      log=lambda line: typer.echo(f"verdicts mail serve: {line}", err=True))
    try:
        sock = bind(host, port)
    except OSError as exc:
        typer.echo(f"verdicts mail serve: {host}:{port}에서 서버를 열지 못했습니다 ({exc}).", err=True)
        raise typer.Exit(2)
    url = url_of(sock)
    typer.echo(f"verdicts mail serve: {url} 에서 보고서 화면을 엽니다 (멈추려면 Ctrl+C).", err=True)
    print(url, flush=True)
    run_server(app_, sock)
    typer.echo("verdicts mail serve: 서버를 멈췄습니다.", err=True)
