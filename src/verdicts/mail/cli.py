"""``verdicts mail import …``: read a real mailbox into the mail domain's three tables (a
thin layer over :mod:`verdicts.mail.importer` and :mod:`verdicts.mail.imap`; mounted
through the entry-point group ``verdicts.commands``).

Exit codes: 0 the tables were written from every message; 1 they were written, but
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

app = typer.Typer(help="실제 메일함을 읽어 mail 도메인의 세 표를 만듭니다.", no_args_is_help=True)

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
        typer.echo("verdicts mail import: --sent와 --log는 함께 써야 합니다 (보낸 메일을 에이전트 기록과 맞춰 봅니다).", err=True)
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
