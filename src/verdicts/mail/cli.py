"""``verdicts mail import …`` reads a real mailbox into the mail domain's three tables, and
``verdicts mail serve`` serves its report screen (a thin layer over
:mod:`verdicts.mail.importer`, :mod:`verdicts.mail.imap` and :mod:`verdicts.mail.pages`;
mounted through the entry-point group ``verdicts.commands``).

Exit codes of ``import``: 0 the tables were written from every message; 1 they were written, but
something is missing (a message or log line that could not be read, a connection that
broke part-way: each named on stderr); 2 nothing could be read.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

from verdicts import safe_csv
from verdicts.commandline import Group, fail, int_in, number_in
from verdicts.errors import InputError, VerdictsError

if TYPE_CHECKING:  # pragma: no cover
    from .importer import Mail

IMPORT, SERVE = "verdicts mail import", "verdicts mail serve"


def _say(prog: str, message: str) -> None:
    sys.stderr.write(f"{prog}: {message}\n")

#: where the IMAP password is read from when no --password-file is given
PASSWORD_ENV = "VERDICTS_IMAP_PASSWORD"


def _password(file: Optional[Path]) -> str:
    if file is not None:
        from verdicts.files import read_file

        try:
            return (read_file(file, 1 << 16, "비밀번호").decode("utf-8").splitlines() or [""])[0]
        except UnicodeDecodeError:
            raise InputError(f"{file}: 비밀번호 파일이 UTF-8이 아닙니다.") from None
    value = os.environ.get(PASSWORD_ENV)
    if value is None:
        raise InputError(f"IMAP 비밀번호가 없습니다. 환경 변수 {PASSWORD_ENV}에 넣거나 --password-file로 주세요.")
    return value


class _Budget:
    """What one import may still spend on IMAP: the deadline (a monotonic time, started
    at the first IMAP source) and the bytes read so far, against the run's cap."""

    def __init__(self, seconds: float, max_message_mb: float, max_import_mb: float):
        self.seconds = seconds
        self.deadline: float | None = None
        self.max_message = int(max_message_mb * 1024 * 1024)
        self.max_run = int(max_import_mb * 1024 * 1024)
        self.read = 0


def _read(source: str, password_file: Optional[Path], cafile: Optional[Path], problems: list[str],
          broken: list[str], budget: _Budget) -> list["Mail"]:
    import time

    from .imap import is_imap_url, read_imap
    from .importer import read_mails

    if is_imap_url(source):
        password = _password(password_file)
        if budget.deadline is None:
            budget.deadline = time.monotonic() + budget.seconds
        got = read_imap(source, password, cafile=str(cafile) if cafile else None, deadline=budget.deadline,
                        max_message_bytes=budget.max_message, max_run_bytes=budget.max_run, already=budget.read)
        budget.read += got.size
        problems.extend(got.problems)
        if got.broken:
            broken.append(got.broken)
        return got.mails
    return read_mails(source, problems)


def _config(out: Path, config: Optional[Path]) -> "tuple[Any, Path | None]":
    """The mail configuration of an import (``--config``, else the one found from OUT
    upwards, where ``verdicts run mail OUT`` finds it) and its path."""
    from verdicts.config import find_config, load_config

    from .domain import DOMAIN

    path = config if config is not None else find_config(DOMAIN, out)
    return load_config(DOMAIN, path), path


def _budget(settings: Any, imap_timeout: Optional[float], max_message_mb: Optional[float],
            max_import_mb: Optional[float]) -> _Budget:
    """The IMAP bounds: each option, else the configuration's ``[imap]`` key, else the default."""
    options = settings.imap
    return _Budget(imap_timeout if imap_timeout is not None else options.timeout,
                   max_message_mb if max_message_mb is not None else options.max_message_mb,
                   max_import_mb if max_import_mb is not None else options.max_import_mb)


def _write_policy(out: Path, policy: Optional[Path], kinds: list[str]) -> str | None:
    from .model import ACTION_POLICY

    target = out / "action_policy.csv"
    if policy is not None:
        from verdicts.errors import VerdictsError
        from verdicts.files import read_file
        from verdicts.outputs import write_output
        from verdicts.tables import MAX_INPUT_BYTES

        data = read_file(policy, MAX_INPUT_BYTES, "처리 종류 정책")  # a FIFO or /dev/zero is refused, never copied
        try:
            write_output(target, data)
        except VerdictsError as exc:
            raise InputError(str(exc)) from None
        return None
    if target.exists():
        return None
    with open(target, "w", newline="", encoding="utf-8") as f:
        w = safe_csv.writer(f)
        w.writerow(ACTION_POLICY.column_names)
        for kind in kinds:
            w.writerow([kind] + [""] * (len(ACTION_POLICY.column_names) - 1))
    return (f"{target}: 에이전트 기록에 나온 처리 종류 {len(kinds)}개를 적었습니다. 판정하기 전에 "
            "`max_reply_hours`, `min_confidence`, `needs_confirm` 칸을 채워 주세요.")


def _settings(settings: Any, path: "Path | None", time_zone: Optional[str],
              subject_window_days: Optional[int]) -> tuple[str, str, int]:
    """The zone and the subject window of this import: the options, else the mail
    configuration, else the defaults; and where the zone came from, in words."""
    from .config import MailConfig
    from .values import read_zone

    assert isinstance(settings, MailConfig)
    zone = time_zone if time_zone is not None else settings.time_zone
    read_zone(zone)  # a name that names no zone: refused before any mail is read
    given = ("`--time-zone` 옵션" if time_zone is not None else f"설정 파일 {path}" if settings.source and
             settings.time_zone != MailConfig().time_zone else "기본값")
    days = subject_window_days if subject_window_days is not None else settings.subject_window_days
    return zone.strip(), given, days


def import_(source: str, out: Path, sent: Optional[str], log: Optional[Path], policy: Optional[Path],
            password_file: Optional[Path], cafile: Optional[Path], time_zone: Optional[str] = None,
            subject_window_days: Optional[int] = None, imap_timeout: Optional[float] = None,
            max_message_mb: Optional[float] = None, max_import_mb: Optional[float] = None,
            config: Optional[Path] = None) -> int:
    """받은 메일(과 에이전트가 보낸 메일, 그 기록)을 읽어 OUT 폴더에 mailbox_thread.csv,
    agent_action.csv, action_policy.csv를 씁니다. 종료 코드는 모든 메일을 읽었으면 0, 표는
    썼지만 읽지 못한 것이 있으면 1, 아무것도 읽지 못했으면 2입니다."""
    from .importer import import_mailbox, read_log, write_tables

    if (sent is None) != (log is None):
        raise fail("보낸 메일(--sent)과 에이전트 기록(--log)은 함께 주세요. 보낸 메일마다 그 기록을 찾아 맞춰 봅니다.", prog=IMPORT)
    problems: list[str] = []
    notes: list[str] = []
    broken: list[str] = []
    try:
        settings, path = _config(out, config)
        zone, given, days = _settings(settings, path, time_zone, subject_window_days)
        budget = _budget(settings, imap_timeout, max_message_mb, max_import_mb)
        received = _read(source, password_file, cafile, problems, broken, budget)
        sent_mails = _read(sent, password_file, cafile, problems, broken, budget) if sent is not None else []
        records = read_log(log, problems) if log is not None else []
        tables = import_mailbox(received, sent_mails, records, notes, time_zone=zone, subject_window_days=days)
        write_tables(tables, out)
        kinds = list(dict.fromkeys(r["action_kind"] for r in tables["agent_action"] if r["action_kind"]))
        policy_note = _write_policy(out, policy, kinds)
    except VerdictsError as exc:
        raise fail(str(exc), prog=IMPORT)
    for line in problems + broken:
        sys.stderr.write(f"문제: {line}\n")
    for line in notes + ([policy_note] if policy_note else []):
        sys.stderr.write(f"참고: {line}\n")
    sys.stderr.write(f"받은 메일 {len(received)}통을 `mailbox_thread.csv`에, 보낸 메일 {len(sent_mails)}통 가운데 "
                     f"{len(tables['agent_action'])}통을 `agent_action.csv`에 썼습니다 ({out}).\n")
    sys.stderr.write(f"시각은 {zone} 시간대({given})로 오프셋을 붙여 적었고, `내일`이나 `모레` 같은 날짜는 그 시간대에서 "
                     "메일을 받은 날부터 셌습니다.\n")
    sys.stderr.write(f"제목이 같은 메일은 상대가 같고 {days}일 이내일 때만 한 대화로 묶었습니다.\n")
    return 1 if problems or broken else 0


def serve(host: str, port: int, max_upload_mb: float, allow_remote: bool) -> int:
    """mail 보고서 화면을 엽니다. 세 표를 올리거나 '샘플 데이터로 보기'를 누르면 됩니다."""
    from verdicts.korean import josa
    from verdicts.serve import ServerLimits, bind, create_app, is_loopback, run_server, url_of

    from .pages import server_pages

    if not is_loopback(host) and not allow_remote:
        raise fail(f"{josa(host, '은/는')} 이 컴퓨터 밖에서도 닿는 주소입니다. 이 서버에는 로그인이 없으니 "
                   "127.0.0.1로 여세요. 꼭 밖에 열어야 하면 --allow-remote를 붙이세요.", prog=SERVE)
    max_bytes = int(max_upload_mb * 1024 * 1024)
    app_ = create_app(server_pages(max_bytes=max_bytes), ServerLimits(max_bytes=max_bytes), loopback_only=is_loopback(host),
                      log=lambda line: _say(SERVE, line))
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise fail(f"{host}:{port}에서 서버를 열지 못했습니다 ({exc}).", prog=SERVE)
    url = url_of(sock)
    _say(SERVE, f"{url} 에서 보고서 화면을 엽니다 (멈추려면 Ctrl+C).")
    print(url, flush=True)
    run_server(app_, sock)
    _say(SERVE, "서버를 멈췄습니다.")
    return 0


def commands(group: Group) -> None:
    """메일함을 읽어 mail 도메인의 세 표를 만들고(import), 보고서 화면을 엽니다(serve)."""
    c = group.command("import", import_)
    c.argument("source", metavar="SOURCE",
               help="받은 메일: Maildir 폴더, mbox 파일, .eml 파일이나 .eml 폴더, 또는 imap://(imaps://)사용자@서버:포트/폴더")
    c.option("--out", "-o", type=Path, required=True, metavar="DIR", help="세 표(CSV)를 쓸 폴더 (없으면 만듭니다)")
    c.option("--sent", metavar="SOURCE", help="에이전트가 보낸 메일(보낸 편지함): 받은 메일과 같은 형식")
    c.option("--log", type=Path, metavar="FILE", help="에이전트 기록: 한 줄에 JSON 하나(`message_id`, `action_kind`, `confidence` …)")
    c.option("--policy", type=Path, metavar="FILE", help="`action_policy.csv`로 복사할 처리 종류 정책 파일")
    c.option("--password-file", type=Path, metavar="FILE", help=f"IMAP 비밀번호가 첫 줄에 적힌 파일 (없으면 ${PASSWORD_ENV})")
    c.option("--cafile", type=Path, metavar="FILE", help="IMAP 서버 인증서를 확인할 CA 인증서 파일(PEM)")
    c.option("--time-zone", metavar="ZONE",
             help="시각을 적고 `내일` 같은 날짜를 셀 메일함의 시간대 (IANA 이름, 기본은 설정의 `time_zone`, 없으면 Asia/Seoul)")
    c.option("--subject-window-days", type=int_in("--subject-window-days", 0, 3650), metavar="DAYS",
             help="제목과 상대가 같은 메일을 한 대화로 묶는 최대 간격(일) (기본은 설정의 `subject_window_days`, 없으면 30)")
    c.option("--imap-timeout", type=number_in("--imap-timeout", 0.1), metavar="SECONDS",
             help="IMAP에서 가져오기 전체에 쓸 수 있는 초 (기본 120, 설정의 `[imap] timeout`)")
    c.option("--max-message-mb", type=number_in("--max-message-mb", 0.001), metavar="MB",
             help="IMAP에서 읽을 메일 한 통의 가장 큰 크기, 넘으면 이름을 대고 건너뜁니다 (기본 50, 설정의 `[imap] max_message_mb`)")
    c.option("--max-import-mb", type=number_in("--max-import-mb", 0.001), metavar="MB",
             help="IMAP에서 한 번에 가져올 가장 큰 크기, 닿으면 멈추고 알립니다 (기본 512, 설정의 `[imap] max_import_mb`)")
    c.option("--config", type=Path, metavar="FILE", help="출력 폴더부터 위로 찾는 설정 대신 쓸 verdicts.toml 또는 pyproject.toml")

    c = group.command("serve", serve)
    c.option("--host", default="127.0.0.1", metavar="ADDRESS", help="열 주소 (기본은 이 컴퓨터 안에서만)")
    c.option("--port", type=int_in("--port", 0, 65535), default=8766, metavar="PORT", help="포트 (0이면 빈 포트를 고릅니다)")
    c.option("--max-upload-mb", type=number_in("--max-upload-mb", 0.001), default=20.0, metavar="MB",
             help="받을 수 있는 가장 큰 업로드 (메가바이트)")
    c.flag("--allow-remote", help="이 컴퓨터 밖에서도 닿는 --host를 허락합니다 (서버에 로그인이 없습니다)")


#: the name the entry point had when this group was a typer app: a virtual environment installed
#: before (its entry-point metadata not yet rewritten by scripts/setup.sh) still finds the group
app = commands
