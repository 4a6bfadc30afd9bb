"""Writing an output file a person named (``--html``, ``--dot``, ``render -o``, ``fuzz
--out``): every way it can fail is a :class:`~verdicts.errors.VerdictsError` naming the
path and the reason in Korean, never a traceback.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> write_output(folder / "없는 폴더" / "r.html", "x")
Traceback (most recent call last):
...
verdicts.errors.VerdictsError: .../없는 폴더/r.html: 이 파일을 넣을 폴더가 없어 쓰지 못했습니다.
>>> write_output(folder, "x")
Traceback (most recent call last):
...
verdicts.errors.VerdictsError: ...: 파일이 아니라 폴더라서 그 자리에 쓰지 못했습니다.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from .errors import OutputPathError, VerdictsError
from .korean import josa

__all__ = ["write_output", "output_folder", "output_error", "check_output_file", "check_output_folder"]

_REASONS = {
    errno.ENOENT: "이 파일을 넣을 폴더가 없어 쓰지 못했습니다",
    errno.EISDIR: "파일이 아니라 폴더라서 그 자리에 쓰지 못했습니다",
    errno.ENOTDIR: "경로 중간에 폴더가 아닌 것이 있어 쓰지 못했습니다",
    errno.EACCES: "쓸 권한이 없습니다 (파일이나 그 폴더의 권한을 확인해 주세요)",
    errno.EPERM: "쓸 권한이 없습니다",
    errno.EROFS: "읽기 전용 파일 시스템이라 쓰지 못했습니다",
    errno.ENOSPC: "디스크에 남은 자리가 없어 쓰지 못했습니다",
    errno.ELOOP: "심볼릭 링크가 끝없이 서로를 가리켜 쓰지 못했습니다",
    errno.ENAMETOOLONG: "경로가 너무 길어 쓰지 못했습니다",
}


def output_error(path: Path | str, exc: OSError) -> VerdictsError:
    """The message for an operating-system error met while writing ``path``."""
    reason = _REASONS.get(exc.errno or 0) or f"운영체제가 거부해 쓰지 못했습니다 ({exc.strerror or type(exc).__name__})"
    return VerdictsError(f"{path}: {reason}.")


def write_output(path: Path | str, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path``, or raise a
    :class:`~verdicts.errors.VerdictsError` saying why it cannot be written."""
    path = Path(path)
    try:
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
        else:
            path.write_bytes(data)
    except OSError as exc:
        raise output_error(path, exc) from None
    except ValueError:  # a NUL character in the path
        raise VerdictsError(f"{path}: 경로에 NUL 문자가 있어 쓰지 못했습니다.") from None


def output_folder(path: Path | str) -> Path:
    """Make the folder ``path`` (and its parents) for outputs, or raise a
    :class:`~verdicts.errors.VerdictsError` saying why it cannot be made (a file in
    the way, no permission)."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir():
            raise VerdictsError(f"{path}: 폴더가 아니라 파일이라서 그 안에 쓰지 못했습니다.")
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise output_error(path, exc) from None
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


def _check_parent(path: Path, option: str, what: str = "파일") -> None:
    parent = path.parent if str(path.parent) else Path(".")
    kind = _kind(parent)
    if kind in ("missing", "under-file"):
        raise OutputPathError(f"{option} {path}: 이 {josa(what, '을/를')} 담을 폴더가 없습니다 ({parent}). 폴더를 먼저 만들어 주세요.")
    if kind != "dir":
        raise OutputPathError(f"{option} {path}: 이 {josa(what, '을/를')} 담을 자리({parent})가 폴더가 아닙니다.")


def check_output_file(path: str | Path, option: str) -> None:
    """Refuse, before any work is done, a path that cannot take a file: its folder does
    not exist or is a file, or the path is a folder (an existing file is replaced).
    The message names the option (:class:`~verdicts.errors.OutputPathError`).

    >>> check_output_file("/no/such/folder/report.html", "--html")
    Traceback (most recent call last):
    ...
    verdicts.errors.OutputPathError: --html /no/such/folder/report.html: 이 파일을 담을 폴더가 없습니다 (/no/such/folder). 폴더를 먼저 만들어 주세요.
    """
    path = Path(path)
    if _kind(path) == "dir":
        raise OutputPathError(f"{option} {path}: 파일이 아니라 폴더입니다. 폴더 안에 쓸 파일 이름까지 적어 주세요.")
    _check_parent(path, option)


def check_output_folder(path: str | Path, option: str) -> None:
    """Refuse, before any work is done, a folder path that is a file, or whose parent
    folder does not exist (the folder itself is made when missing)."""
    path = Path(path)
    kind = _kind(path)
    if kind == "dir":
        return
    if kind not in ("missing", "under-file"):  # under a file: its parent says so
        raise OutputPathError(f"{option} {path}: 폴더가 아니라 파일입니다. 결과를 담을 폴더를 적어 주세요.")
    _check_parent(path, option, "폴더")
