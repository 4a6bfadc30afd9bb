"""A command line with subcommands on the standard library's :mod:`argparse`, speaking
Korean: help, usage, every error, and "did you mean" for commands and options.

A command is a function; its arguments and options are declared beside it
(:meth:`Command.argument`, :meth:`Command.option`, :meth:`Command.flag`) and arrive as
keyword arguments named after them.  Commands may be grouped under a name
(:meth:`CommandLine.group`: ``verdicts mail import``), and a group may run a function of
its own when no command of it is named (:meth:`Group.alone`).  The function returns the exit code, or raises
:class:`Exit` (:func:`fail` writes a one-line message first).  A wrong command line is
one message on stderr naming what was wrong and how to ask for help, with exit code 2
and nothing on stdout (so ``--format json`` never gets plain text).

>>> cl = CommandLine("tool", "도구입니다.")
>>> c = cl.command("greet", lambda name, loud: print(name.upper() if loud else name) or 0)
>>> c.argument("name"); c.flag("--loud")
>>> cl.run(["greet", "--loud", "하나"])
하나
0
>>> g = cl.group("mail", "메일 명령입니다.")
>>> c = g.command("count", lambda n: print(n * 2) or 0)
>>> c.argument("n", type=int)
>>> cl.run(["mail", "count", "21"])
42
0
"""

from __future__ import annotations

import argparse
import errno
import io
import re
import sys
from typing import Any, Callable, Sequence

from .korean import code, josa

__all__ = ["CommandLine", "Command", "Group", "Exit", "fail", "int_in", "number_in", "BROKEN_PIPE", "ENVIRONMENT",
           "finish", "environment_reason"]

#: the exit code when the reader of standard output went away (128 + SIGPIPE, as a shell reports it)
BROKEN_PIPE = 141
#: the exit code of an environment failure (:class:`~verdicts.errors.EnvironmentFailure`:
#: closed standard output, a full disk, a file name that is not UTF-8, an unreadable CA
#: certificate file), apart from 2 (the input or the command line) and 3 (a self-check)
ENVIRONMENT = 4

#: what an operating-system error met while writing means (the path is named before it)
_WRITE_REASONS = {
    errno.ENOSPC: "디스크에 남은 자리가 없어 쓰지 못했습니다",
    errno.EDQUOT: "디스크 할당량을 다 써서 쓰지 못했습니다",
    errno.EFBIG: "파일이 허용된 크기를 넘어 쓰지 못했습니다",
    errno.EIO: "입출력 오류로 쓰지 못했습니다",
    errno.EBADF: "닫혀 있어 쓰지 못했습니다",
    errno.EROFS: "읽기 전용 파일 시스템이라 쓰지 못했습니다",
    errno.EACCES: "권한이 없어 쓰지 못했습니다",
    errno.EPERM: "권한이 없어 쓰지 못했습니다",
}


def environment_reason(exc: OSError) -> str:
    """The one-line message of an operating-system error no command turned into its own
    message: the file it names (else standard output, where every other write of a
    command goes) and the reason in Korean."""
    reason = _WRITE_REASONS.get(exc.errno or 0)
    if exc.filename is not None:
        where = exc.filename.decode("utf-8", "backslashreplace") if isinstance(exc.filename, bytes) else str(exc.filename)
    elif reason is not None:  # a write without a file name: standard output, where the report goes
        where = "표준 출력"
    else:
        return f"운영체제가 작업을 거부해 멈췄습니다 ({exc.strerror or type(exc).__name__})."
    return f"{_shown(where)}: {reason or f'운영체제가 거부해 멈췄습니다 ({exc.strerror or type(exc).__name__})'}."


def _shown(text: str) -> str:
    """``text`` as it can be printed: bytes that are not UTF-8 (a file name's) as ``\\xff``."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _environment(program: str, message: str) -> int:
    _discard_stdout()
    try:
        sys.stderr.write(f"{program}: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):  # nowhere left to say it: the exit code does
        pass
    return ENVIRONMENT


def _discard_stdout() -> None:
    """Point descriptor 1 at the null device, so that what is still buffered for
    standard output goes nowhere at exit instead of failing again with a traceback."""
    import os

    try:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != 1:
            os.dup2(null, 1)
            os.close(null)
    except OSError:
        pass


class _ClosedOutput(io.TextIOBase):
    """Standard output when the command was started with it closed (``>&-``): writing
    to it is an :class:`~verdicts.errors.EnvironmentFailure`, so that a command that
    writes nothing there (``--quiet``, ``--html``) still works."""

    encoding = "utf-8"

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        from .errors import EnvironmentFailure

        raise EnvironmentFailure("표준 출력이 닫혀 있어 결과를 쓰지 못했습니다.")


def _guard_streams() -> None:
    """A closed standard output or error (the process started without descriptor 1 or
    2): the descriptor is taken by the null device (so that no file opened later lands
    on it), standard output refuses writes with a message, standard error goes nowhere."""
    import os

    for fd, name in ((1, "stdout"), (2, "stderr")):
        if getattr(sys, name) is not None:
            continue
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_WRONLY)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if name == "stdout":
            sys.stdout = _ClosedOutput()
        else:
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - for the whole process


def _not_utf8(argv: Sequence[str]) -> str | None:
    """The first argument holding bytes that are not UTF-8 (Python keeps them as lone surrogates)."""
    for arg in argv:
        if any("\udc80" <= ch <= "\udcff" for ch in arg):
            return arg
    return None


def finish(code: int, program: str) -> int:
    """Flush standard output and error at the end of a command; the exit code, changed
    when the last of the output cannot be written (141 for a reader gone away, 4 with a
    one-line message for a full disk or a closed stream)."""
    from .errors import EnvironmentFailure

    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        _discard_stdout()
        code = BROKEN_PIPE
    except EnvironmentFailure as exc:
        code = _environment(program, str(exc))
    except OSError as exc:
        code = _environment(program, environment_reason(exc))
    except ValueError:  # closed already
        pass
    try:
        if sys.stderr is not None:
            sys.stderr.flush()
    except (OSError, ValueError):
        pass
    return code


class Exit(Exception):
    """Leave the command with ``code``."""

    def __init__(self, code: int = 0):
        super().__init__(code)
        self.code = code


_PROGRAM = ["verdicts"]


def fail(message: str, code: int = 2, prog: str | None = None) -> Exit:
    """Write ``program: message`` on stderr (``prog``: a group's command, e.g.
    ``verdicts mail import``); the :class:`Exit` to raise."""
    sys.stderr.write(f"{prog or _PROGRAM[0]}: {message}\n")
    return Exit(code)


def int_in(option: str, low: int | None = None, high: int | None = None) -> Callable[[str], int]:
    """An argument type: a whole number in ``[low, high]``, with a Korean message."""

    def read(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{code(option)} 값은 정수여야 합니다 (받은 값: {code(text)}).") from None
        _check_range(option, value, low, high)
        return value

    return read


def number_in(option: str, low: float | None = None, high: float | None = None) -> Callable[[str], float]:
    """An argument type: a number in ``[low, high]``, with a Korean message."""

    def read(text: str) -> float:
        try:
            value = float(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"{code(option)} 값은 수여야 합니다 (받은 값: {code(text)}).") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{code(option)} 값은 유한한 수여야 합니다.")
        _check_range(option, value, low, high)
        return value

    return read


def _check_range(option: str, value: float, low: float | None, high: float | None) -> None:
    if low is not None and value < low:
        raise argparse.ArgumentTypeError(f"{code(option)} 값은 {low:g} 이상이어야 합니다 (받은 값: {value:g}).")
    if high is not None and value > high:
        raise argparse.ArgumentTypeError(f"{code(option)} 값은 {high:g} 이하여야 합니다 (받은 값: {value:g}).")


class _Formatter(argparse.HelpFormatter):
    def add_usage(self, usage, actions, groups, prefix=None):
        return super().add_usage(usage, actions, groups, "사용법: ")


class _Parser(argparse.ArgumentParser):
    """An argparse parser whose errors are raised (the command line words them)."""

    def error(self, message: str):
        raise _Wrong(self, message)


class _Wrong(Exception):
    def __init__(self, parser: argparse.ArgumentParser, message: str):
        super().__init__(message)
        self.parser, self.message = parser, message


def _suggest(word: str, choices: Sequence[str], noun: str) -> str:
    """" 혹시 `lint` 명령을 쓰려던 것인가요?" for the closest of ``choices``, or nothing."""
    from .suggest import close_name

    close = close_name(word, choices)
    return f" 혹시 {code(close)} {josa(noun, '을/를')} 쓰려던 것인가요?" if close else ""


class Command:
    """One subcommand: its function and its parser."""

    def __init__(self, name: str, func: Callable[..., int] | None, parser: argparse.ArgumentParser):
        self.name, self.func, self.parser = name, func, parser
        self._options = parser._optionals
        self._arguments = parser._positionals

    def values(self, ns: argparse.Namespace) -> dict[str, Any]:
        """The keyword arguments of :attr:`func`: this command's own arguments and options."""
        return {a.dest: getattr(ns, a.dest) for a in self.parser._actions
                if a.dest not in (argparse.SUPPRESS, "help") and not isinstance(a, argparse._SubParsersAction)}

    def argument(self, name: str, **kw: Any) -> None:
        self._arguments.add_argument(name, **kw)

    def option(self, *names: str, **kw: Any) -> None:
        self._options.add_argument(*names, **kw)

    def flag(self, *names: str, help: str | None = None) -> None:
        self._options.add_argument(*names, action="store_true", help=help)

    def option_strings(self) -> list[str]:
        return [s for a in self.parser._actions for s in a.option_strings]


def _first_sentence(doc: str) -> str | None:
    return doc.split(". ")[0].rstrip(".") + "." if doc else None


def _add_parser(sub: argparse._SubParsersAction, name: str, doc: str, prog: str, positionals: str) -> argparse.ArgumentParser:
    """A subparser speaking Korean, with ``-h``."""
    parser = sub.add_parser(name, help=_first_sentence(doc), description=doc or None, formatter_class=_Formatter,
                            add_help=False, allow_abbrev=False, prog=prog)
    parser._optionals.title = "옵션"
    parser._positionals.title = positionals
    parser.add_argument("-h", "--help", action="help", help="이 도움말을 보여 줍니다")
    return parser


class Group:
    """Commands under one name (``verdicts mail import``, ``verdicts mail serve``)."""

    def __init__(self, name: str, parser: argparse.ArgumentParser):
        self.name, self.parser = name, parser
        self._sub = parser.add_subparsers(dest=f"_command {name}", metavar="COMMAND", parser_class=_Parser)
        self.commands: dict[str, Command] = {}
        #: run when no command of the group is named: the group's help, unless :meth:`alone`
        self.when_alone = Command(name, None, parser)
        parser.set_defaults(_run=self.when_alone)

    def command(self, name: str, func: Callable[..., int]) -> Command:
        return _add_command(self._sub, self.commands, self.parser.prog, name, func)

    def alone(self, func: Callable[..., int]) -> Command:
        """Run ``func`` when no command of the group is named; declare its options on the
        :class:`Command` returned (they are the group's own, given before a command)."""
        self.when_alone.func = func
        return self.when_alone


def _add_command(sub, commands: dict[str, Command], prog: str, name: str, func: Callable[..., int]) -> Command:
    """The command ``name`` under ``prog`` (a program or a group), running ``func``; its
    help is ``func``'s docstring."""
    doc = " ".join((func.__doc__ or "").split())
    parser = _add_parser(sub, name, doc, f"{prog} {name}", "인자")
    cmd = commands[name] = Command(name, func, parser)
    parser.set_defaults(_run=cmd)
    return cmd


class CommandLine:
    """A program of subcommands (see the module docstring)."""

    def __init__(self, program: str, description: str):
        self.program = program
        _PROGRAM[0] = program
        self.parser = _Parser(prog=program, description=description, formatter_class=_Formatter, add_help=False,
                              allow_abbrev=False)
        self.parser._optionals.title = "옵션"
        self.parser._positionals.title = "명령"
        self.parser.add_argument("-h", "--help", action="help", help="이 도움말을 보여 줍니다")
        self.parser.add_argument("-V", "--version", action="store_true", help="판 번호를 보여 줍니다")
        self._sub = self.parser.add_subparsers(dest="_command", metavar="COMMAND", parser_class=_Parser)
        self.parser.set_defaults(_run=None)
        self.commands: dict[str, Command] = {}
        self.groups: dict[str, Group] = {}

    def command(self, name: str, func: Callable[..., int]) -> Command:
        return _add_command(self._sub, self.commands, self.program, name, func)

    def group(self, name: str, description: str) -> Group:
        """Commands under ``name`` (``program name COMMAND …``); ``description``: the
        group's help, its first sentence listed beside the program's commands."""
        parser = _add_parser(self._sub, name, " ".join(description.split()), f"{self.program} {name}", "명령")
        group = self.groups[name] = Group(name, parser)
        return group

    def drop(self, name: str) -> None:
        """Take the command or group ``name`` out again (a plug-in that failed half-way)."""
        self.commands.pop(name, None)
        self.groups.pop(name, None)
        self._sub._name_parser_map.pop(name, None)
        self._sub.choices.pop(name, None)
        self._sub._choices_actions[:] = [a for a in self._sub._choices_actions if a.dest != name]

    def main(self, argv: Sequence[str] | None = None, version: Callable[[], str] | None = None) -> int:
        """:meth:`run` with ``argv`` (default: the process's), an :class:`Exit` raised
        by the command turned into its code: what a command line's ``main`` returns."""
        from .errors import EnvironmentFailure

        _guard_streams()
        args = list(sys.argv[1:] if argv is None else argv)
        bad = _not_utf8(args)
        if bad is not None:
            return _environment(self.program, f"인자 {code(_shown(bad))}에 UTF-8이 아닌 바이트가 있어 읽지 않았습니다. "
                                              "파일 이름을 UTF-8로 바꾸거나, UTF-8 이름의 링크를 만들어 그 이름으로 주세요.")
        try:
            return self.run(args, version=version)
        except Exit as exc:
            return exc.code
        except EnvironmentFailure as exc:
            return _environment(self.program, str(exc))
        except BrokenPipeError:
            _discard_stdout()
            return BROKEN_PIPE
        except OSError as exc:  # a write no command turned into its own message (a full disk)
            return _environment(self.program, environment_reason(exc))

    def run(self, argv: list[str], version: Callable[[], str] | None = None) -> int:
        """Parse ``argv`` and run its command; the exit code."""
        if not argv:
            self.parser.print_help()
            return 0
        if argv[0] in ("-V", "--version") and version is not None:
            sys.stdout.write(version() + "\n")
            return 0
        try:
            ns, extra = self.parser.parse_known_args(argv)
        except _Wrong as wrong:
            return self._wrong(wrong.parser, wrong.message, argv)
        except SystemExit as exc:  # -h: argparse printed the help and leaves
            return exc.code if isinstance(exc.code, int) else 0
        if getattr(ns, "version", False) and version is not None:
            sys.stdout.write(version() + "\n")
            return 0
        cmd: Command | None = ns._run
        if cmd is None:
            self.parser.print_help()
            return 0
        if extra:
            return self._unknown(cmd, extra)
        if cmd.func is None:  # a group named without one of its commands
            cmd.parser.print_help()
            return 0
        try:
            code = cmd.func(**cmd.values(ns))
        except Exit as exc:
            return exc.code
        except BrokenPipeError:
            # the reader went away (``| head``): stop quietly, as a shell command does
            # (the rest of the output goes nowhere instead of failing at exit)
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return BROKEN_PIPE
        return 0 if code is None else int(code)

    # ------------------------------------------------------------------ wrong command lines
    def _say(self, prog: str, message: str) -> int:
        sys.stderr.write(f"{prog}: {message}\n도움말: {prog} -h\n")
        return 2

    def _unknown(self, cmd: Command, extra: list[str]) -> int:
        word = extra[0]
        prog = cmd.parser.prog
        if word.startswith("-"):
            option = word.split("=", 1)[0]
            return self._say(prog, f"{code(option)} 옵션은 이 명령에 없습니다.{_suggest(option, cmd.option_strings(), '옵션')}")
        names = [c for a in cmd.parser._actions if isinstance(a, argparse._SubParsersAction) for c in a.choices]
        if names:  # a group's word that is none of its commands
            return self._say(prog, f"{code(word)} 명령은 없습니다.{_suggest(word, names, '명령')} 쓸 수 있는 명령: {', '.join(code(n) for n in names)}")
        return self._say(prog, f"이 명령은 {code(word)} 인자를 받지 않습니다.")

    def _wrong(self, parser: argparse.ArgumentParser, message: str, argv: list[str]) -> int:
        prog = parser.prog
        m = re.match(r"argument (\S+): invalid choice: '(.*)' \(choose from (.*)\)$", message, re.S)
        if m and m.group(1) in ("COMMAND", "_command"):
            word = m.group(2)
            names = [c.strip().strip("'") for c in m.group(3).split(",")]
            return self._say(prog, f"{code(word)} 명령은 없습니다.{_suggest(word, names, '명령')} 쓸 수 있는 명령: {', '.join(code(n) for n in names)}")
        if m:
            choices = [c.strip().strip("'") for c in m.group(3).split(",")]
            option = m.group(1).split("/")[0]
            return self._say(prog, f"{code(option)}에는 {code(m.group(2))} 값을 쓸 수 없습니다.{_suggest(m.group(2), choices, '값')} "
                                   f"쓸 수 있는 값: {', '.join(code(c) for c in choices)}")
        m = re.match(r"the following arguments are required: (.*)$", message)
        if m:
            return self._say(prog, f"꼭 줘야 하는 것이 빠졌습니다: {', '.join(code(n.strip()) for n in m.group(1).split(','))}")
        m = re.match(r"argument (\S+?)(?:/\S+)?: expected (one|at least one) argument", message)
        if m:
            many = "하나 이상" if m.group(2) != "one" else "하나"
            return self._say(prog, f"{code(m.group(1))} 뒤에 값이 {many} 와야 합니다.")
        m = re.match(r"argument (\S+?)(?:/\S+)?: invalid (\w+) value: '(.*)'$", message)
        if m:
            kind = {"int": "정수", "float": "수"}.get(m.group(2), m.group(2))
            return self._say(prog, f"{code(m.group(1))} 값은 {kind}여야 합니다 (받은 값: {code(m.group(3))}).")
        m = re.match(r"argument (\S+?)(?:/\S+)?: (.*)$", message, re.S)
        if m:  # our own types' messages are already Korean sentences
            return self._say(prog, m.group(2))
        m = re.match(r"unrecognized arguments: (.*)$", message)
        if m:
            word = m.group(1).split()[0]
            options = [s for a in parser._actions for s in a.option_strings]
            return self._say(prog, f"{code(word)} 옵션은 알 수 없습니다.{_suggest(word, options, '옵션')}")
        return self._say(prog, message)  # pragma: no cover - a message argparse may add later
