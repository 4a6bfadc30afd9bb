"""The ``verdicts`` command: run any registered domain over its inputs, keep rounds,
show the last one, grade against a gold file.

A thin layer: it parses options, calls the library and picks a reporter.  Library errors
are caught here only and turned into a message and an exit code: 0 when every card
passes and nothing else was found, 1 when there are findings or input issues (or, for
``grade``, disagreements), 2 when the input cannot be read at all, the rounds database
cannot be used or the command line is wrong.

The command line is :mod:`verdicts.commandline` (the standard library's argparse,
speaking Korean), as ``storygraph``'s is.  A domain adds its own commands under its
name (``verdicts mail import``) through the entry-point group ``verdicts.commands``
(:data:`COMMANDS_GROUP`): the entry point names a function that declares them on a
:class:`verdicts.commandline.Group`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, Sequence

from .commandline import CommandLine, fail, int_in

__all__ = ["main", "run", "build", "COMMANDS_GROUP", "unknown_name_message"]

#: the entry-point group of a domain's own commands, mounted as ``verdicts NAME …``
#: (``[project.entry-points."verdicts.commands"] mail = "verdicts.mail.cli:commands"``):
#: each names a function ``commands(group)`` declaring the group's commands, whose
#: docstring is the group's help
COMMANDS_GROUP = "verdicts.commands"

_DB_HELP = "회차 데이터베이스(SQLite) 파일 (기본: `$VERDICTS_DB`, 없으면 `~/.local/share/verdicts/rounds.sqlite3`)"


def _domain(name: str):
    from .domain import get_domain
    from .errors import VerdictsError

    try:
        return get_domain(name)
    except VerdictsError as exc:
        raise fail(str(exc))


# ----------------------------------------------------------------------------- commands
def list_domains() -> int:
    """등록된 도메인마다 이름과 그 도메인이 판정하는 것을 한 줄씩 보여 줍니다."""
    from .domain import domain_names, get_domain

    for name in domain_names():
        try:
            title = get_domain(name).title
        except Exception as exc:  # noqa: BLE001 - a broken plug-in must not hide the others
            title = f"(불러오지 못함: {exc})"
        sys.stdout.write(f"{name}\t{title}\n")
    return 0


def run_domain(domain: str, paths: list[Path], format: str | None, config: Path | None, save: bool, db: Path | None,
               html: Path | None, grading: Path | None, quiet: bool, jobs: int | None, all_: bool = False) -> int:
    """DOMAIN의 판정 대상을 하나하나 판정해 판정별 카드, 입력 문제, 발견, 자동 검증을 차례로
    보여 줍니다. 여러 입력을 주면 하나씩 차례로 보고합니다. 종료 코드는 아무 문제가 없으면 0,
    발견이나 입력 문제가 있으면 1, 읽을 수 없는 입력이 있으면 2입니다."""
    from .errors import VerdictsError
    from .pipeline import Options, judge, judge_one, write_report_to_stdout
    from .reporters import REPORTERS, HtmlReporter

    if grading is not None and html is None:
        raise fail("`--grading` 옵션은 `--html` 옵션과 함께 써야 합니다. 자가채점 칸은 보고서 화면에 있습니다.")
    plugin = _domain(domain)
    if all_:
        from .report import show_passing_in_full

        show_passing_in_full()
    options = Options(format=format, config=config, jobs=jobs, quiet=quiet)
    if not (save or html):
        return judge(plugin, paths, options, prog="verdicts")
    if len(paths) != 1:
        raise fail("`--save`와 `--html` 옵션은 입력 하나에만 쓸 수 있습니다.")
    path = paths[0]
    if html is not None:
        from .outputs import check_output_file

        try:
            check_output_file(html, "--html")
        except VerdictsError as exc:
            raise fail(str(exc))
    try:
        report, cfg = judge_one(plugin, path, options, "verdicts")
        if html is not None:
            from .outputs import write_output
            from .screen import load_grading

            panel = load_grading(grading, plugin, inputs=[path]) if grading is not None else None
            screen = REPORTERS["html"]
            assert isinstance(screen, HtmlReporter)  # the one that takes a grading panel
            write_output(html, screen.render(report, plugin, grading=panel))
            sys.stderr.write(f"verdicts: 보고서 화면을 {html}에 썼습니다.\n")
    except VerdictsError as exc:
        raise fail(str(exc))
    code = plugin.exit_code(report, cfg)
    if save:
        from .rounds import RoundStore
        from .version import tool_version

        try:
            store = RoundStore(db)
            round_id = store.save(report, path, exit_code=code, tool_version=tool_version())
        except VerdictsError as exc:
            raise fail(str(exc))
        sys.stderr.write(f"verdicts: {store.path}에 {round_id}번 회차로 저장했습니다.\n")
    write_report_to_stdout(plugin, report, format or cfg.format)
    return code


def show(domain: str, format: str, db: Path | None, html: Path | None = None) -> int:
    """DOMAIN의 마지막으로 저장된 회차를 저장된 그대로 보여 줍니다 (JSON은 바이트 하나까지 같게).
    --html을 주면 그 회차의 보고서 화면도 씁니다: 새 회차를 들이기 전에 지난 회차를 화면으로 봅니다."""
    from .errors import VerdictsError
    from .reporters import REPORTERS
    from .rounds import RoundStore, report_from_json
    from .safe_text import clean

    plugin = _domain(domain)
    try:
        store = RoundStore(db)
        stored = store.last(plugin.name)
    except VerdictsError as exc:
        raise fail(str(exc))
    if stored is None:
        raise fail(f"{store.path}에 저장된 {plugin.name} 회차가 없습니다. `verdicts run {plugin.name} PATH --save`로 먼저 저장해 주세요.", 1)
    header = (f"저장된 회차 #{stored.id} · {stored.saved_at} · {clean(stored.input_path)} "
              f"(입력 sha256 {clean(stored.inputs_sha256[:12])}…, {clean(stored.tool_version) or '버전 미상'})")
    if html is not None:
        _stored_screen(plugin, stored, html)
    try:
        if format == "json":
            stored.data  # noqa: B018 - checked before it is printed
            text = None
        else:
            text = REPORTERS["text"].render(report_from_json(plugin, stored.data), plugin)
    except VerdictsError as exc:
        raise fail(str(exc))
    if text is None:
        sys.stderr.write(header + "\n")
        sys.stdout.write(stored.report_json + "\n")
    else:
        sys.stdout.write(header + "\n\n")
        sys.stdout.write(text)
    return stored.exit_code


def _stored_screen(plugin, stored, html: Path) -> None:
    """Write the report screen of a stored round to ``html``, tagged with its number, time
    and input (the stored report's own cards, issues and checks, as they were; what a
    domain draws from its inputs — a diagram, pictures — is not stored and not drawn)."""
    from .errors import VerdictsError
    from .outputs import check_output_file, write_output
    from .rounds import report_from_json
    from .screen import ScreenExtras, render_html

    try:
        check_output_file(html, "--html")
        report = report_from_json(plugin, stored.data)
        extras = ScreenExtras(stored_round=f"저장된 회차 #{stored.id} · {stored.saved_at} · {stored.input_path}")
        write_output(html, render_html(report, plugin, extras))
    except VerdictsError as exc:
        raise fail(str(exc))
    sys.stderr.write(f"verdicts: 저장된 {stored.id}번 회차의 보고서 화면을 {html}에 썼습니다.\n")


def followup(domain: str, path: Path, plan: Path, format: str) -> int:
    """회차가 끝난 뒤 PATH의 카드가 요청한 것(robot: 다시 찍을 현장과 손, 모자란 회차)을 실제로 세운
    계획 PLAN과 견줍니다. 요청마다 계획이 덮으면 0, 덮지 못한 것이나 계획 표의 문제가 있으면 1입니다."""
    from .errors import VerdictsError
    from .pipeline import Options, judge_one
    from .tables import json_dumps

    plugin = _domain(domain)
    try:
        report, _ = judge_one(plugin, path, Options(quiet=True), "verdicts")
        result = plugin.follow_up(report, plan)
    except VerdictsError as exc:
        raise fail(str(exc))
    if result is None:
        raise fail(f"{plugin.name} 도메인에는 회차 뒤에 계획과 견주는 되짚기가 없습니다.")
    sys.stdout.write(json_dumps(result.to_json()) + "\n" if format == "json" else result.render_text())
    return 0 if result.passed else 1


def explain(domain: str, name: "str | list[str] | None" = None) -> int:
    """DOMAIN의 판정, 발견, 자동 검증이 무엇을 잡는지, 왜 문제인지, 예시와 고치는 법을 보여
    줍니다 (문서 쪽과 같은 docstring에서 만듭니다). NAME 없이 부르면 설명할 수 있는 이름을
    한 줄 설명과 함께 모두 보여 줍니다."""
    plugin = _domain(domain)
    if isinstance(name, list):  # the words of a name given without quotes
        name = " ".join(name) or None
    if name is None or not name.strip():
        from .docs import render_explain_index

        sys.stdout.write(render_explain_index(plugin, f"verdicts explain {plugin.name}"))
        return 0
    text = plugin.explain(name.strip())
    if text is None:
        raise fail(unknown_name_message(name, plugin.explainable_names()))
    sys.stdout.write(text + "\n")
    return 0


def docs(domain: str) -> int:
    """DOMAIN의 문서 쪽(판정 규칙, 발견, 자동 검증, 참고)을 docstring에서 만들어 보여 줍니다."""
    from .docs import render_domain_docs

    sys.stdout.write(render_domain_docs(_domain(domain)))
    return 0


def unknown_name_message(name: str, known: list[str]) -> str:
    """One sentence for a name ``explain`` does not know, with the closest names."""
    from .korean import code, josa
    from .suggest import close_names

    close = close_names(name.strip(), known, n=3, cutoff=0.5)
    if len(close) == 1:
        hint = f" 혹시 {josa(code(close[0]), '을/를')} 찾으셨나요?"
    elif close:
        hint = f" 혹시 {', '.join(code(c) for c in close)} 가운데 하나를 찾으셨나요?"
    else:
        hint = ""
    return (f"{code(name)}에 해당하는 판정, 발견 코드, 검증 번호가 없습니다. 쓸 수 있는 이름: "
            f"{', '.join(code(n) for n in known)}.{hint}")


def grade(domain: str, path: Path, gold: Path, format: str) -> int:
    """연구자가 GOLD에 고른 판정을 자동 판정과 견줍니다 (모두 맞고 정답 파일에 문제가 없으면
    0, 아니면 1)."""
    from .errors import VerdictsError
    from .grading import grade_domain, render_grade_text
    from .tables import json_dumps

    plugin = _domain(domain)
    try:
        result = grade_domain(plugin, path, gold)
    except VerdictsError as exc:
        raise fail(str(exc))
    except OSError as exc:
        raise fail(f"{gold}: 정답 파일을 읽을 수 없습니다 ({exc.strerror}).")
    if format == "json":
        sys.stdout.write(json_dumps(result.to_json()) + "\n")
    else:
        sys.stdout.write(render_grade_text(result))
    return 0 if not result.disagreements and not result.issues else 1


# ----------------------------------------------------------------------------- the command line
def build() -> CommandLine:
    """The ``verdicts`` command line: every command and every domain's command group."""
    cl = CommandLine("verdicts", "판정 도메인을 입력 표에 돌려 대상마다 판정 카드를 만듭니다.")
    domain_help = "도메인 이름 (`verdicts list`로 봅니다)"

    cl.command("list", list_domains)

    c = cl.command("run", run_domain)
    c.argument("domain", metavar="DOMAIN", help=domain_help)
    c.argument("paths", nargs="+", type=Path, metavar="PATH",
               help="도메인의 입력: CSV 폴더, .xlsx 통합 문서, JSON/YAML (여럿이면 하나씩 판정해 한 보고서로 냅니다)")
    c.option("--format", "-f", choices=["text", "json", "sarif", "github"],
             help="출력 형식: text, json, sarif(SARIF 2.1.0), github(워크플로 주석) (기본: 설정 파일의 값, 없으면 text)")
    c.option("--config", type=Path, metavar="FILE", help="입력 폴더부터 위로 찾는 설정 대신 쓸 verdicts.toml 또는 pyproject.toml")
    c.flag("--save", help="이 회차를 회차 데이터베이스에 저장합니다 (입력 하나)")
    c.option("--db", type=Path, metavar="FILE", help=_DB_HELP)
    c.option("--html", type=Path, metavar="FILE", help="보고서 화면도 HTML 파일 하나로 씁니다 (입력 하나)")
    c.option("--grading", type=Path, metavar="FILE",
             help="--html의 자가채점 칸을 채울 채점 결과 JSON (`verdicts grade DOMAIN … --format json`의 출력)")
    c.flag("--quiet", "-q", help="진행 줄을 쓰지 않습니다")
    c.option("--jobs", "-j", type=int_in("--jobs", 1), metavar="N",
             help="여러 입력을 나눠 맡을 프로세스 수 (기본: 코어마다 하나, `VERDICTS_JOBS`로도 정합니다)")
    c.option("--all", dest="all_", action="store_true",
             help="글 보고서에 통과한 카드와 자동 검증을 모두 적습니다 (기본은 개수만 적습니다)")

    c = cl.command("show", show)
    c.argument("domain", metavar="DOMAIN", help=domain_help)
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")
    c.option("--db", type=Path, metavar="FILE", help=_DB_HELP)
    c.option("--html", type=Path, metavar="FILE", help="그 회차의 보고서 화면도 HTML 파일 하나로 씁니다")

    c = cl.command("followup", followup)
    c.argument("domain", metavar="DOMAIN", help=domain_help)
    c.argument("path", type=Path, metavar="PATH", help="도메인의 입력 (끝난 회차)")
    c.argument("plan", type=Path, metavar="PLAN",
               help="실제로 세운 계획: robot은 `collection_plan` 표(`task_id`, `capture_site`, `robot_hand_type`, "
                    "`episode_count`)의 CSV 파일이나 그 표가 든 폴더, .xlsx, JSON, YAML")
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")

    c = cl.command("explain", explain)
    c.argument("domain", metavar="DOMAIN", help=domain_help)
    c.argument("name", nargs="*", default=None, metavar="NAME",
               help="판정(한국어 이름이나 코드), 린트 발견 코드 또는 검증 번호; 여러 낱말이면 따옴표 없이 이어 써도 됩니다 "
                    "(없으면 쓸 수 있는 이름을 모두 보여 줍니다)")

    c = cl.command("docs", docs)
    c.argument("domain", metavar="DOMAIN", help=domain_help)

    c = cl.command("grade", grade)
    c.argument("domain", metavar="DOMAIN", help=domain_help)
    c.argument("path", type=Path, metavar="PATH", help="도메인의 입력")
    c.argument("gold", type=Path, metavar="GOLD", help="정답 CSV: 대상 키 열, verdict, 도메인이 견주는 칸, note")
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")

    _mount_domain_commands(cl)
    return cl


def _mount_domain_commands(cl: CommandLine) -> None:
    """Mount every registered domain command group; one that cannot be loaded is left
    out with a message (a broken plug-in must not take the other commands down)."""
    from importlib.metadata import entry_points

    from .korean import code

    for point in entry_points(group=COMMANDS_GROUP):
        if point.name in cl.commands or point.name in cl.groups:
            sys.stderr.write(f"verdicts: {code(point.name)} 명령 묶음은 이미 있는 명령과 이름이 같아 뺐습니다.\n")
            continue
        try:
            declare = point.load()
            if not callable(declare) or not hasattr(declare, "__code__"):
                raise TypeError("명령 묶음은 commands(group) 함수여야 합니다")
            declare(cl.group(point.name, declare.__doc__ or ""))
        except Exception as exc:  # noqa: BLE001 - any failure of a plug-in
            cl.drop(point.name)
            sys.stderr.write(f"verdicts: {code(point.name)} 명령 묶음을 불러오지 못해 뺐습니다 ({type(exc).__name__}: {exc}).\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``verdicts`` command line with ``argv`` (default: the process's); the exit code."""
    return build().main(argv, version=_version)


def _version() -> str:
    from .version import tool_version

    return f"verdicts {tool_version()}"


def run() -> None:
    """The ``verdicts`` command: :func:`main`, its output flushed, then its exit code (a
    reader of standard output that went away is exit 141, a full disk or a closed
    standard output exit 4 with one line on stderr, without a traceback)."""
    from .commandline import finish

    sys.exit(finish(main(), "verdicts"))


#: console scripts installed before ``verdicts`` moved off typer call ``verdicts.cli:app``
app: Callable[[], None] = run


if __name__ == "__main__":  # pragma: no cover
    run()
