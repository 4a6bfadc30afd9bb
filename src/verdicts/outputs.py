"""Writing an output file a person named (``--html``, ``--dot``, ``render -o``, ``fuzz
--out``): every way it can fail is a :class:`~verdicts.errors.VerdictsError` naming the
path and the reason in Korean, never a traceback.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_output(folder / "없는 폴더" / "r.html", "x")
Traceback (most recent call last):
...
verdicts.errors.OutputPathError: .../없는 폴더/r.html: 이 파일을 담을 폴더가 없습니다 (.../없는 폴더). 폴더를 먼저 만들어 주세요.
>>> write_output(folder, "x")
Traceback (most recent call last):
...
verdicts.errors.OutputPathError: ...: 파일이 아니라 폴더입니다. 폴더 안에 쓸 파일 이름까지 적어 주세요.

A path in the wrong place (no folder to hold it, a folder where a file goes, a file
where a folder goes) is said in one wording, by :func:`misplaced`, whether it is found
before any work (:func:`check_output_file`, naming the option) or when writing.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import EnvironmentFailure, OutputPathError, VerdictsError
from .korean import josa

__all__ = ["write_output", "output_folder", "output_error", "misplaced", "check_output_file", "check_output_folder"]

#: operating-system refusals that are not about where the path is (that is :func:`misplaced`)
_REASONS = {
    errno.EACCES: "쓸 권한이 없습니다 (파일이나 그 폴더의 권한을 확인해 주세요)",
    errno.EPERM: "쓸 권한이 없습니다",
    errno.EROFS: "읽기 전용 파일 시스템이라 쓰지 못했습니다",
    errno.ENOSPC: "디스크에 남은 자리가 없어 쓰지 못했습니다",
    errno.ELOOP: "심볼릭 링크가 끝없이 서로를 가리켜 쓰지 못했습니다",
    errno.ENAMETOOLONG: "경로가 너무 길어 쓰지 못했습니다",
}


#: refusals of the machine rather than of the path: an :class:`EnvironmentFailure` (exit 4)
_ENVIRONMENT = {errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG}


def output_error(path: Path | str, exc: OSError, what: str = "파일") -> Exception:
    """The message for an operating-system error met while writing ``path`` (a 파일 or
    a 폴더 to make): a :class:`VerdictsError` (exit 2), or for a full disk or an
    input/output error an :class:`EnvironmentFailure` (exit 4)."""
    if exc.errno in _ENVIRONMENT:
        from .commandline import environment_reason

        exc.filename = str(path)
        return EnvironmentFailure(environment_reason(exc))
    problem = misplaced(Path(path), what)
    if problem is not None:
        return OutputPathError(problem)
    reason = _REASONS.get(exc.errno or 0) or f"운영체제가 거부해 쓰지 못했습니다 ({exc.strerror or type(exc).__name__})"
    return VerdictsError(f"{path}: {reason}.")


def write_output(path: Path | str, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, or raise a
    :class:`~verdicts.errors.VerdictsError` saying why it cannot be written.

    A regular file (or a new one) is written whole or not at all: into a temporary file
    beside it, renamed over it once complete, so that a full disk never leaves half a
    report behind.  A path that is not a regular file (``/dev/stdout``, a FIFO) is
    written in place."""
    path = Path(path)
    problem = misplaced(path)
    if problem is not None:
        raise OutputPathError(problem)
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if _kind(path) == "other":
        try:
            with open(path, "wb") as f:
                f.write(raw)
        except OSError as exc:
            raise output_error(path, exc) from None
        return
    real = Path(os.path.realpath(path))  # through a link, as writing in place would go
    temporary = real.with_name(f".{real.name}.{os.getpid()}.tmp")
    try:
        try:
            mode = stat.S_IMODE(os.stat(real).st_mode)
        except OSError:
            mode = None
        with open(temporary, "xb") as f:
            f.write(raw)
        if mode is not None:
            os.chmod(temporary, mode)
        os.replace(temporary, real)
    except OSError as exc:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise output_error(path, exc) from None


def output_folder(path: Path | str) -> Path:
    """Make the folder ``path`` (and its parents) for outputs, or raise a
    :class:`~verdicts.errors.VerdictsError` saying why it cannot be made (a file in
    the way, no permission)."""
    path = Path(path)
    problem = misplaced(path, "폴더", parents=True)
    if problem is not None:
        raise OutputPathError(problem)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise output_error(path, exc, "폴더") from None
    return path


# ---------------------------------------------------------------------------- before any work


def _kind(path: Path) -> str:
    """``file``, ``dir``, ``missing``, ``under-file`` or ``other`` (following links)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "missing"
    except NotADirectoryError:
        return "under-file"
    except (OSError, ValueError):  # no permission to look, NUL in the path
        return "other"
    if stat.S_ISDIR(st.st_mode):
        return "dir"
    return "file" if stat.S_ISREG(st.st_mode) else "other"


def misplaced(path: Path, what: str = "파일", option: str | None = None, *, parents: bool = False) -> str | None:
    """The one sentence for an output path where a ``what`` (``파일`` or ``폴더``) cannot
    go, or ``None`` when it can: a folder where a file goes, a file where a folder goes,
    no folder to hold it (unless ``parents``: missing folders will be made) or a file in
    the way.  ``option`` (``--html``) stands before the path when given.

    >>> misplaced(Path("/no/such/folder/report.html"), option="--html")
    '--html /no/such/folder/report.html: 이 파일을 담을 폴더가 없습니다 (/no/such/folder). 폴더를 먼저 만들어 주세요.'
    >>> misplaced(Path("/no/such/folder"), "폴더", parents=True) is None
    True
    """
    where = f"{option} {path}" if option else str(path)
    if "\0" in str(path):
        return f"{where}: 경로에 NUL 문자가 있어 쓰지 못합니다."
    kind = _kind(path)
    if what == "파일" and kind == "dir":
        return f"{where}: 파일이 아니라 폴더입니다. 폴더 안에 쓸 파일 이름까지 적어 주세요."
    if what == "폴더" and kind == "dir":
        return None
    if what == "폴더" and kind not in ("missing", "under-file"):  # under a file: its parent says so
        return f"{where}: 폴더가 아니라 파일입니다. 결과를 담을 폴더를 적어 주세요."
    parent = path.parent if str(path.parent) else Path(".")
    while parents and _kind(parent) in ("missing", "under-file") and parent != parent.parent:
        parent = parent.parent
    kind = _kind(parent)
    if kind in ("missing", "under-file"):
        return f"{where}: 이 {josa(what, '을/를')} 담을 폴더가 없습니다 ({parent}). 폴더를 먼저 만들어 주세요."
    if kind != "dir":
        return f"{where}: 이 {josa(what, '을/를')} 담을 자리({parent})가 폴더가 아닙니다."
    return None


def check_output_file(path: str | Path, option: str) -> None:
    """Refuse, before any work is done, a path that cannot take a file: its folder does
    not exist or is a file, or the path is a folder (an existing file is replaced).
    The message names the option (:class:`~verdicts.errors.OutputPathError`).

    >>> check_output_file("/no/such/folder/report.html", "--html")
    Traceback (most recent call last):
    ...
    verdicts.errors.OutputPathError: --html /no/such/folder/report.html: 이 파일을 담을 폴더가 없습니다 (/no/such/folder). 폴더를 먼저 만들어 주세요.
    """
    problem = misplaced(Path(path), "파일", option)
    if problem is not None:
        raise OutputPathError(problem)


def check_output_folder(path: str | Path, option: str) -> None:
    """Refuse, before any work is done, a folder path that is a file, or whose parent
    folder does not exist (the folder itself is made when missing)."""
    problem = misplaced(Path(path), "폴더", option)
    if problem is not None:
        raise OutputPathError(problem)
