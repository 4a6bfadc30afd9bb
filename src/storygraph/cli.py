"""The ``storygraph`` command: a thin layer over the library.

It parses options, calls the library and picks a reporter.  Library errors are caught
here only, and turned into a message and an exit code: 0 when every target is
``끝까지 닿음`` and nothing else was found, 1 when there are findings or input issues, 2
when the input cannot be read at all (or the command line is wrong).

The command line is parsed with the standard library's :mod:`argparse` (messages,
help and "did you mean" in Korean, :mod:`verdicts.commandline`): a creator runs
``storygraph lint`` many times an hour, and a command-line framework that imports a
hundred modules before reading a single option cost more than the whole lint of a
small scenario (docs/decisions.md, "Instant start").  Each command imports what it
uses when it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from verdicts.commandline import CommandLine, fail, int_in, number_in

__all__ = ["main", "run", "build"]


def _echo(message: str) -> None:
    sys.stderr.write(message + "\n")


def _check_outputs(*pairs: tuple[str, Path | None], folder: bool = False) -> None:
    """Refuse, before any work, an output path that cannot take its file (exit 2)."""
    from verdicts.errors import OutputPathError
    from verdicts.outputs import check_output_file, check_output_folder

    for option, path in pairs:
        if path is None:
            continue
        try:
            (check_output_folder if folder else check_output_file)(path, option)
        except OutputPathError as exc:
            raise fail(str(exc))


# ----------------------------------------------------------------------------- lint
def lint(paths: list[Path], format: str | None, config: Path | None, html: Path | None, dot: Path | None,
         grading: Path | None, quiet: bool, jobs: int | None, all_: bool = False, fix: bool = False) -> int:
    """시나리오의 장면과 분기를 하나하나 판정해 판정별 카드, 입력 문제, 자동 검증을 차례로
    보여 줍니다. 여러 경로를 주면 하나씩 차례로 보고하고, 읽을 수 없는 파일이 있어도 나머지는
    판정합니다. 종료 코드는 가장 나쁜 결과를 따릅니다."""
    from verdicts.perf import without_gc

    if fix:
        from .applying import fix_command

        if len(paths) != 1 or html or dot or grading or format:
            raise fail("`--fix` 옵션은 시나리오 하나에만, 다른 출력 옵션 없이 쓸 수 있습니다.")
        return fix_command(paths[0])
    # the collector paused from here, as a run pauses it: the libraries a lint imports
    # (networkx, sympy) make many objects and few cycles
    with without_gc():
        return _lint(paths, format, config, html, dot, grading, quiet, jobs, all_)


def _lint(paths: list[Path], format: str | None, config: Path | None, html: Path | None, dot: Path | None,
          grading: Path | None, quiet: bool, jobs: int | None, all_: bool) -> int:
    from verdicts.errors import VerdictsError
    from verdicts.pipeline import Options, judge, judge_one, render_single, tolerant_stdout, write_report_to_stdout

    from .domain import DOMAIN

    if all_:
        from verdicts.report import show_passing_in_full

        show_passing_in_full()
    options = Options(format=format, config=config, jobs=jobs, quiet=quiet)
    if not (html or dot or grading):
        return judge(DOMAIN, paths, options)
    targets = DOMAIN.expand_paths(paths)
    if len(targets) != 1:
        raise fail("`--html`, `--dot`, `--grading` 옵션은 시나리오 하나에만 쓸 수 있습니다.")
    if grading is not None and html is None:
        raise fail("`--grading` 옵션은 `--html` 옵션과 함께 써야 합니다. 자가채점 칸은 보고서 화면에 있습니다.")
    _check_outputs(("--html", html), ("--dot", dot))
    # one scenario whose report the diagram or the screen needs as a whole
    target = targets[0]
    try:
        report, cfg = judge_one(DOMAIN, target, options, "storygraph")
    except VerdictsError as exc:
        _echo(f"storygraph: {exc}")
        tolerant_stdout()
        sys.stdout.write(render_single(DOMAIN, target, str(exc), options.format or "text"))
        return 2
    fmt = options.format or cfg.format
    try:
        if dot is not None:
            from .diagram import diagram_model, write_diagram

            write_diagram(diagram_model(report, focus=cfg.diagram.focus, hops=cfg.diagram.hops if cfg.diagram.focus else None),
                          dot, format="dot")
            _echo(f"storygraph: 그림(DOT)을 {dot}에 썼습니다.")
        if html is not None:
            from verdicts.outputs import write_output
            from verdicts.screen import load_grading

            from .screen import report_html

            panel = load_grading(grading, DOMAIN, inputs=[target]) if grading is not None else None
            write_output(html, report_html(report, DOMAIN, grading=panel))
            _echo(f"storygraph: 보고서 화면을 {html}에 썼습니다.")
    except VerdictsError as exc:
        raise fail(str(exc))
    if fmt == "json":
        write_report_to_stdout(DOMAIN, report, "json")  # streamed: large reports are never one string
    else:
        tolerant_stdout()
        sys.stdout.write(render_single(DOMAIN, target, report, fmt))
    from verdicts.accept import CHECKS_FAILED, checks_failed_message, exit_code, failed_checks

    code = exit_code(DOMAIN, report, cfg)
    if code == CHECKS_FAILED:
        _echo(f"storygraph: {checks_failed_message(failed_checks(report))}")
    return code


def fix(path: Path, dry_run: bool, no_backup: bool) -> int:
    """린트가 내놓은 고치는 법을 시나리오 파일에 바로 적용합니다. 바꿀 곳을 차이(diff)로 보여 주고,
    고친 칸 밖은 바이트 하나 바꾸지 않으며 원래 파일은 FILE.bak으로 남깁니다. 다 쓴 뒤 다시
    검사해 남은 문제를 한 줄로 알려 줍니다. 이야기 파일(ink, Twine, ChoiceScript, Yarn)은 고쳐
    쓰지 않고 원본의 줄마다 고치는 법만 보여 줍니다."""
    from .applying import fix_command

    return fix_command(path, dry_run=dry_run, backup=not no_backup)


def watch(paths: list[Path], config: Path | None, debounce: int) -> int:
    """시나리오(또는 그 설정 파일)를 저장할 때마다 다시 검사합니다. 문제를 먼저 보여 주고,
    지난 저장 뒤로 새로 생긴 문제와 고쳐진 문제를 알려 줍니다. 멈추려면 Ctrl+C를 누르세요."""
    from verdicts.pipeline import Options

    from .domain import DOMAIN
    from .incremental import incremental_judge
    from .watch import watch as follow

    targets = DOMAIN.expand_paths(paths)
    options = Options(config=config, quiet=True)
    # each save re-lints incrementally: only what the edit can change is made again
    return follow(DOMAIN, targets, options, debounce_ms=debounce, judge=incremental_judge(options))


def explain(name: "str | list[str] | None" = None) -> int:
    """판정이나 린트 발견, 자동 검증이 무엇을 잡는지, 왜 문제인지, 예시와 고치는 법을 보여
    줍니다. NAME 없이 부르면 설명할 수 있는 이름을 한 줄 설명과 함께 모두 보여 줍니다.
    여러 낱말로 된 이름(`조건이 겹침`)은 따옴표 없이 써도 됩니다."""
    from verdicts.korean import code, josa

    if isinstance(name, list):  # the words of a name given without quotes
        name = " ".join(name) or None

    from .docs import explain_text, explainable_names

    if name is None or not name.strip():
        from verdicts.docs import render_explain_index

        from .domain import DOMAIN

        sys.stdout.write(render_explain_index(DOMAIN, "storygraph explain"))
        return 0
    text = explain_text(name.strip())
    if text is None:
        from verdicts.suggest import close_name

        names = explainable_names()
        close = close_name(name.strip(), names)
        hint = f" 혹시 {josa(code(close), '을/를')} 찾으셨나요?" if close else ""
        raise fail(f"{josa(code(name), '이라/라')}는 이름은 알 수 없습니다.{hint} 쓸 수 있는 이름은 "
                   f"{', '.join(code(n) for n in names)}입니다.")
    sys.stdout.write(text + "\n")
    return 0


def grade(path: Path, gold: Path | None, format: str) -> int:
    """자동 판정을 손으로 만든 정답 판정과 견줍니다. 전체와 판정별 일치율, 혼동표, 어긋난
    대상을 모두 보여 줍니다 (모두 맞고 정답 파일에 문제가 없으면 0, 아니면 1)."""
    import json

    from verdicts.errors import VerdictsError
    from verdicts.grading import render_grade_text

    from .grading import grade_path

    try:
        result = grade_path(path, gold)
    except VerdictsError as exc:
        raise fail(str(exc))
    if format == "json":
        sys.stdout.write(json.dumps(result.to_json(), ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_grade_text(result))
    return 0 if not result.disagreements and not result.issues else 1


def _parse_plants(items: list[str], scenes: int) -> dict[str, int]:
    from .fuzz import KINDS, default_plants

    counts = default_plants(scenes)
    for item in items:
        kind, sep, number = item.partition("=")
        kind = kind.strip().replace("-", "_")
        if not sep or not number.strip().isdigit():
            from verdicts.korean import code

            raise fail(f"`--plant` 값은 `KIND=N` 꼴이어야 합니다. 받은 값은 {code(item)}입니다.")
        if kind == "all":
            counts = {k: int(number) for k in KINDS}
        elif kind in KINDS:
            counts[kind] = int(number)
        else:
            from verdicts.korean import code

            raise fail(f"알 수 없는 결함 종류 {code(kind)}입니다. 있는 종류는 {', '.join(code(k) for k in ('all', *KINDS))}입니다.")
    return counts


def fuzz(seed: int, scenes: int, flags: int, out: Path | None, plant: list[str], format: str) -> int:
    """결함을 심은 시나리오를 무작위로 만들어 검사하고, 종류별로 심은 수와 잡은 수, 그리고
    그 밖의 발견을 설명된 것과 아닌 것으로 나눠 보여 줍니다 (모두 잡고 설명 안 된 것이 없으면 0)."""
    import json

    from verdicts.errors import VerdictsError

    from .fuzz import render_fuzz_text, run_fuzz

    counts = _parse_plants(plant, scenes)
    _check_outputs(("--out", out), folder=True)
    progress = None
    if sys.stderr.isatty() and scenes >= 500:
        progress = _progress_bar()
    try:
        gen, report, outcome, timings = run_fuzz(seed, scenes, flags, counts, out, progress=progress)
    except VerdictsError as exc:
        raise fail(str(exc))
    finally:
        if progress is not None:
            progress.close()
    result = {"seed": seed, "scenes": len(gen.scenes), "branches": len(gen.branches), "flags": len(gen.flags),
              "out": str(out) if out else None, **outcome.to_json(), "timings": timings}
    if format == "json":
        sys.stdout.write(json.dumps(result, ensure_ascii=False, indent=2) + "\n")
    else:
        sys.stdout.write(render_fuzz_text(result))
    return 0 if outcome.ok else 1


class _progress_bar:
    """A progress bar on stderr (only used when stderr is a terminal)."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"),
                            TimeElapsedColumn(), console=Console(stderr=True), transient=True)
        self.bar.start()
        self.tasks: dict[str, TaskID] = {}

    def __call__(self, phase: str, done: int, total: int) -> None:
        label = {"generate": "시나리오 만드는 중", "lint": "검사하는 중"}.get(phase, phase)
        if phase not in self.tasks:
            self.tasks[phase] = self.bar.add_task(label, total=total)
        self.bar.update(self.tasks[phase], completed=done, total=total)

    def close(self) -> None:
        self.bar.stop()


def render(path: Path, output: Path, format: str | None, focus: str | None, hops: int | None, timeout: float,
           max_nodes: int | None, max_edges: int) -> int:
    """시나리오를 그림으로 그립니다. 장면은 점, 분기는 화살표이고 판정에 따라 색과 모양이 다릅니다."""
    from verdicts.errors import VerdictsError

    from .diagram import diagram_model, write_diagram
    from .domain import find_config, lint as run_lint, load_config

    _check_outputs(("-o", output))
    try:
        cfg = load_config(find_config(path))
        report = run_lint(path, config=cfg)
        focus = focus if focus is not None else cfg.diagram.focus
        hops = hops if hops is not None else (cfg.diagram.hops if cfg.diagram.focus else None)
        model = diagram_model(report, focus=focus, hops=hops)
        limit = max_nodes or cfg.diagram.max_nodes
        if focus == "findings" and max_nodes is None and (len(model.nodes) > limit or len(model.edges) > max_edges):
            # past the limits: the problems listed first, as many neighbourhoods as fit
            # (the report screen's picture); the caption says how to draw them all
            from .domain import DOMAIN
            from .screen import problems_model

            from verdicts.korean import code, josa

            need = len(model.nodes)
            part = problems_model(report, DOMAIN, diagram_model(report), min(limit, max_edges // 3))
            if part is not None:
                model = part[0]
                model.note += f" 둘레를 모두 그리려면 {josa(code(f'--max-nodes {need}'), '을/를')} 붙이세요."
        fmt = write_diagram(model, output, format=format, timeout=timeout, max_nodes=limit, max_edges=max_edges)
    except VerdictsError as exc:
        raise fail(str(exc))
    _echo(f"storygraph: {fmt} 그림을 {output}에 썼습니다. {model.caption()}")
    if report.issues:
        _echo(f"storygraph: 입력 문제가 {len(report.issues)}건 있습니다: storygraph lint {path} 로 확인하세요 (판정을 보류한 대상은 회색입니다).")
    return 0


def serve(host: str, port: int, max_upload_mb: float, allow_remote: bool, lint_timeout: float, max_lints: int,
          read_timeout: float, body_timeout: float, watch: Path | None) -> int:
    """보고서 화면을 엽니다. 시나리오를 올리거나 '샘플 데이터로 보기'를 누르세요. --watch PATH를
    주면 PATH의 보고서를 보여 주고, 저장할 때마다 열린 화면을 그 자리에서 새로 고칩니다."""
    from verdicts.korean import josa
    from verdicts.serve import ServerLimits, bind, create_app, is_loopback, run_server, url_of

    from .pages import server_pages

    if not is_loopback(host) and not allow_remote:
        raise fail(f"{josa(host, '은/는')} 이 컴퓨터 밖에서도 닿는 주소입니다. 이 서버에는 로그인이 없으니 127.0.0.1로 여세요. "
                   "꼭 밖에 열어야 하면 --allow-remote를 붙이세요. 어떻게 열어야 안전한지는 docs/security.md에 있습니다.")
    max_bytes = int(max_upload_mb * 1024 * 1024)
    limits = ServerLimits(max_bytes=max_bytes, lint_timeout=lint_timeout, max_lints=max_lints, header_timeout=read_timeout,
                          read_timeout=read_timeout, body_timeout=body_timeout)
    if watch is not None and not watch.exists():
        raise fail(f"{watch}: 따라갈 시나리오가 없습니다.")
    server = create_app(server_pages(max_bytes=max_bytes), limits, loopback_only=is_loopback(host),
                        log=lambda line: _echo(f"storygraph: {line}"), watch=watch)
    try:
        sock = bind(host, port)
    except OSError as exc:
        raise fail(f"{host}:{port}에서 서버를 열지 못했습니다: {exc}")
    url = url_of(sock)
    _echo(f"storygraph: {url} 에서 보고서 화면을 엽니다 (멈추려면 Ctrl+C).")
    print(url, flush=True)
    run_server(server, sock)
    _echo("storygraph: 서버를 멈췄습니다.")
    return 0


def import_(path: Path, out: str | None, fmt: str | None, ending_tag: str, entries: str) -> int:
    """이야기를 그 형식 그대로 읽어 세 표(합친 CSV 하나)로 옮깁니다. 옮길 수 없는 구문은
    하나하나 '파일:줄 — 까닭'으로 알려 줍니다."""
    from .import_cli import import_command

    return import_command(path, out, fmt, ending_tag=ending_tag, entries=entries)


# ----------------------------------------------------------------------------- the command line
def build() -> CommandLine:
    """The ``storygraph`` command line: every command, its arguments and options."""
    cl = CommandLine("storygraph", "창작자가 짠 시나리오 분기가 어디서 막히는지 알려줍니다.")

    c = cl.command("lint", lint)
    c.argument("paths", nargs="+", type=Path, metavar="PATH",
               help="시나리오: scenario.csv(세 표를 합친 CSV), CSV 폴더, .xlsx 통합 문서, JSON/YAML, 시나리오 폴더, "
                    "또는 이야기 파일(.ink, .twee, .yarn, ChoiceScript)")
    c.option("--format", "-f", choices=["text", "json", "sarif", "github"], help="출력 형식 (기본: 설정 파일의 값, 없으면 text)")
    c.option("--config", type=Path, metavar="FILE", help="시나리오 폴더부터 위로 찾는 설정 대신 쓸 storygraph.toml 또는 pyproject.toml")
    c.option("--html", type=Path, metavar="FILE", help="보고서 화면도 HTML 파일 하나로 씁니다 (시나리오 하나)")
    c.option("--dot", type=Path, metavar="FILE", help="시나리오 그림도 Graphviz DOT로 씁니다 (시나리오 하나)")
    c.option("--grading", type=Path, metavar="FILE", help="--html의 자가채점 칸을 채울 채점 결과 JSON")
    c.flag("--quiet", "-q", help="진행 줄을 쓰지 않습니다 (터미널에서 1초 넘게 걸릴 때만 나옵니다)")
    c.option("--jobs", "-j", type=int_in("--jobs", 1), metavar="N",
             help="프로세스 수: 큰 시나리오의 카드나 여러 시나리오를 나눠 맡깁니다 (기본: 코어마다 하나, `VERDICTS_JOBS`로도 정합니다)")
    c.option("--all", dest="all_", action="store_true",
             help="글 보고서에 끝까지 닿음 카드와 통과한 자동 검증을 모두 적습니다 (기본은 개수만 적습니다)")
    c.flag("--fix", help="고치는 법을 파일에 바로 적용합니다 (`storygraph fix`와 같습니다)")

    c = cl.command("fix", fix)
    c.argument("path", type=Path, metavar="PATH", help="고칠 시나리오: 합친 CSV, CSV 폴더, .xlsx, JSON/YAML 또는 이야기 파일")
    c.flag("--dry-run", help="바꿀 곳을 차이로 보여 주기만 하고 파일은 그대로 둡니다")
    c.flag("--no-backup", help="원래 파일을 FILE.bak으로 남기지 않습니다")

    c = cl.command("watch", watch)
    c.argument("paths", nargs="+", type=Path, metavar="PATH", help="따라갈 시나리오 (lint처럼 파일이나 폴더)")
    c.option("--config", type=Path, metavar="FILE", help="위로 찾는 설정 대신 쓸 storygraph.toml")
    c.option("--debounce", type=int_in("--debounce", 10, 10_000), default=400, metavar="MS",
             help="한 번 저장하며 생긴 마지막 사건 뒤로 기다릴 밀리초 (저장 한 번에 검사 한 번)")

    c = cl.command("explain", explain)
    c.argument("name", nargs="*", default=None, metavar="NAME",
               help="판정 이름(한국어 이름이나 shadowed 같은 코드), 린트 발견 코드 또는 검증 번호; 여러 낱말이면 따옴표 없이 "
                    "이어 써도 됩니다 (없으면 쓸 수 있는 이름을 모두 보여 줍니다)")

    c = cl.command("grade", grade)
    c.argument("path", type=Path, metavar="PATH", help="시나리오, 또는 NAME.csv와 NAME.gold.csv 쌍이 든 정답 폴더")
    c.argument("gold", type=Path, nargs="?", default=None, metavar="GOLD",
               help="정답 CSV: `target_no`, `verdict`, 그리고 있으면 `overlapping_branch_id`와 `note`")
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")

    c = cl.command("fuzz", fuzz)
    c.option("--seed", type=int, default=1, metavar="N", help="난수 씨앗: 같은 씨앗이면 같은 시나리오가 나옵니다")
    c.option("--scenes", type=int_in("--scenes", 1), default=200, metavar="N", help="장면 수 (심은 장면 포함)")
    c.option("--flags", type=int_in("--flags", 0), default=4, metavar="N", help="`flag_spec`의 플래그 수")
    c.option("--out", type=Path, metavar="DIR", help="scenario.csv와 manifest.json을 남길 폴더")
    c.option("--plant", action="append", default=[], metavar="KIND=N",
             help="심을 결함 KIND=N, 여러 번 줄 수 있습니다 (all=N은 모든 종류; 기본은 장면 200개마다 종류별 하나)")
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")

    c = cl.command("render", render)
    c.argument("path", type=Path, metavar="PATH", help="시나리오 (받아들이는 어떤 꼴이든)")
    c.option("--output", "-o", type=Path, required=True, metavar="FILE",
             help="쓸 곳: .dot, .svg, .png (확장자로 정합니다), Mermaid는 .md/.mmd")
    c.option("--format", "-f", choices=["dot", "svg", "png", "mermaid"], help="확장자로 정한 형식 대신 쓸 형식")
    c.option("--focus", metavar="WHERE", help="`findings`(끝까지 닿음이 아닌 카드 둘레) 또는 장면 id")
    c.option("--hops", type=int_in("--hops", 0), metavar="N", help="초점 둘레로 몇 걸음까지 (기본: findings는 1, 장면은 2)")
    c.option("--timeout", type=number_in("--timeout", 0.1), default=30.0, metavar="SECONDS", help="dot이 쓸 수 있는 초")
    c.option("--max-nodes", type=int_in("--max-nodes", 1), metavar="N",
             help="이보다 많은 장면은 그리지 않습니다 (--focus를 쓰세요; 기본 600 또는 설정 값)")
    c.option("--max-edges", type=int_in("--max-edges", 1), default=2400, metavar="N",
             help="이보다 많은 분기는 그리지 않습니다 (--focus를 쓰세요)")

    c = cl.command("serve", serve)
    c.option("--host", default="127.0.0.1", metavar="ADDRESS", help="열 주소 (기본은 이 컴퓨터 안에서만)")
    c.option("--port", type=int_in("--port", 0, 65535), default=8765, metavar="PORT", help="포트 (0이면 빈 포트를 고릅니다)")
    c.option("--max-upload-mb", type=number_in("--max-upload-mb", 0.001), default=20.0, metavar="MB", help="받을 수 있는 가장 큰 업로드 (메가바이트)")
    c.flag("--allow-remote", help="루프백이 아닌 --host를 허락합니다 (서버에 로그인이 없으니 로그인이 있는 것 뒤에 두세요)")
    c.option("--lint-timeout", type=number_in("--lint-timeout", 0.1), default=30.0, metavar="SECONDS", help="검사 하나가 쓸 수 있는 초")
    c.option("--max-lints", type=int_in("--max-lints", 1), default=2, metavar="N", help="한꺼번에 돌리는 검사 수 (넘치면 차례를 기다립니다)")
    c.option("--read-timeout", type=number_in("--read-timeout", 0.1), default=10.0, metavar="SECONDS",
             help="요청을 보내다 멈춰도 되는 초 (머리글을 보내는 데도)")
    c.option("--body-timeout", type=number_in("--body-timeout", 0.1), default=60.0, metavar="SECONDS",
             help="업로드 하나를 다 보내는 데 쓸 수 있는 초")
    c.option("--watch", type=Path, metavar="PATH", help="따라갈 시나리오: 저장할 때마다 / 의 보고서를 그 자리에서 새로 고칩니다")

    c = cl.command("import", import_)
    c.argument("path", type=Path, metavar="STORY",
               help="이야기: .ink, .ink.json(inklecate), .twee/.tw(Twine), ChoiceScript scenes/ 폴더나 startup.txt, .yarn")
    c.option("--out", "-o", metavar="FILE", help="쓸 합친 CSV (기본: 표준 출력)")
    c.option("--from", dest="fmt", metavar="FORMAT", help="이야기 형식 (ink, ink-json, twee, choicescript, yarn; 기본: 확장자로)")
    c.option("--ending-tag", default="ending", metavar="TAG", help="Twine: 엔딩을 뜻하는 passage 태그")
    c.option("--entries", default="unreached", metavar="WHICH",
             help="Yarn: `unreached`(`Start`와 어느 `jump`도 닿지 않는 노드) 또는 노드 제목 하나")
    return cl


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``storygraph`` command line with ``argv`` (default: the process's); the exit code."""
    return build().main(argv, version=_version)


def _version() -> str:
    from verdicts.version import tool_version

    return f"storygraph {tool_version()}"


def run() -> None:
    """The ``storygraph`` command: :func:`main`, then a fast exit.

    A large lint leaves millions of objects behind; letting the interpreter free them
    one by one at exit took about four seconds at 100,000 scenes, longer than the
    floor's whole run.  Once the command has finished and its output is flushed there is
    nothing left to clean up (files are closed, temporary files already unlinked), so
    the process ends with :func:`os._exit` instead, with the command's exit code.
    In-process callers use :func:`main` and exit normally.
    """
    import os

    try:
        code: object = main()
    except SystemExit as exc:
        code = exc.code
    if isinstance(code, str):  # sys.exit("message"): printed as Python would
        sys.stderr.write(code + "\n")
        code = 1
    from verdicts.commandline import finish

    # the last of the output flushed: a reader gone away is 141, a full disk 4 with its line
    os._exit(finish(0 if code is None else code if isinstance(code, int) else 1, "storygraph"))


if __name__ == "__main__":  # pragma: no cover
    run()
