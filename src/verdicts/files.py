"""The one way every reader opens an input file (issue 32, item 1).

Tables (CSV, xlsx, JSON, YAML), story files and their ``INCLUDE``s, mail (an ``.eml``,
an mbox, a Maildir's messages), run events, agent logs, evaluation cards, pictures,
configuration files and the heads read to recognise a file's kind are all opened here:

- **regular files only**, after following symbolic links: the path is looked at with
  ``os.stat`` *before* it is opened, so that a FIFO, a device (``/dev/zero``,
  ``/dev/stdin``), a socket — or a link to one, which a pull request can carry — is
  refused without being opened (a FIFO would wait forever for a writer; a device may
  act on being opened).  The file is then opened non-blocking and checked again with
  ``fstat``, so that a path swapped in between is refused too;
- **a size cap** per kind of file (the ``limit`` each reader passes: 512 MB for a CSV,
  64 MB for JSON, 16 MB for a story file, 1 MB for a configuration, …), checked before a
  byte is read and again while reading (a file that grows).  The environment variable
  :data:`LIMIT_ENV` (``VERDICTS_MAX_FILE_BYTES``) replaces every cap with one number of
  bytes, to read a larger file than the defaults allow (or to try a refusal without
  writing gigabytes);
- every refusal is an :class:`~verdicts.errors.InputError` naming the path and the
  reason in Korean (exit code 2 at the command line, or an input issue for that file),
  never a wait or a traceback.

Only bundled resources (the grammar, the schemas, the screen's assets), the ink
compiler's own ``package.json`` and the files the tools themselves wrote (the review
server's cache) are read elsewhere; ``tests/hostile/test_one_way_to_open.py`` fails when
another reader appears.
"""

from __future__ import annotations

import errno
import os
import stat
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, Iterator, Literal

from .errors import EnvironmentFailure, InputError
from .korean import code, josa

__all__ = ["read_file", "open_file", "head", "path_kind", "os_error", "os_reason", "file_limit", "LIMIT_ENV",
           "special_kind", "reason_of", "utf8_name"]

#: the environment variable that replaces every size cap of :func:`read_file` (bytes)
LIMIT_ENV = "VERDICTS_MAX_FILE_BYTES"

_OS_REASONS = {
    errno.ENOENT: "그런 파일이나 폴더가 없습니다",
    errno.EACCES: "읽을 권한이 없습니다 (파일이나 그 위 폴더의 권한을 확인해 주세요)",
    errno.EPERM: "읽을 권한이 없습니다",
    errno.ELOOP: "심볼릭 링크가 끝없이 서로를 가리켜 실제 파일에 닿지 못합니다",
    errno.ENOTDIR: "경로 중간에 폴더가 아닌 것이 있습니다",
    errno.ENAMETOOLONG: "경로가 너무 깁니다",
    errno.EISDIR: "파일이 아니라 폴더입니다",
}

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def os_reason(exc: OSError) -> str:
    """What an operating-system error means for a reader, as a clause (no final period)."""
    reason = _OS_REASONS.get(exc.errno or 0)
    if reason is not None:
        return reason
    return f"운영체제가 거부했습니다 ({exc.strerror or type(exc).__name__})"


def os_error(path: Path | str, exc: OSError) -> InputError:
    """The :class:`~verdicts.errors.InputError` of ``path`` that could not be read: the path and the reason in Korean."""
    return InputError(f"{path}: {os_reason(exc)}.")


def reason_of(exc: Exception, path: Path | str) -> str:
    """Why ``path`` could not be read, from its :class:`InputError`, without the path it
    starts with and without the final period (for a message that names the file already)."""
    text = str(exc)
    prefix = f"{path}: "
    return (text[len(prefix):] if text.startswith(prefix) else text).rstrip(".")


def _nul(path: Path | str) -> InputError:
    return InputError(f"{path}: 경로에 NUL 문자가 있어 열 수 없습니다.")


def path_kind(path: Path | str) -> Literal["file", "dir", "missing", "other"]:
    """What ``path`` is, following symbolic links: a regular file, a folder, nothing, or
    something else (a FIFO, a device, a socket).  A path that cannot be looked at (a
    symbolic-link loop, a folder without search permission) raises
    :class:`~verdicts.errors.InputError` naming it and the reason."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return "missing"
    except OSError as exc:
        raise os_error(path, exc) from None
    except ValueError:  # a NUL character in the path
        raise _nul(path) from None
    if stat.S_ISREG(mode):
        return "file"
    if stat.S_ISDIR(mode):
        return "dir"
    return "other"


def special_kind(mode: int) -> str:
    """The name of a file kind that is neither a regular file nor a folder."""
    if stat.S_ISFIFO(mode):
        return "FIFO(이름 있는 파이프)"
    if stat.S_ISCHR(mode):
        return "문자 장치"
    if stat.S_ISBLK(mode):
        return "블록 장치"
    if stat.S_ISSOCK(mode):
        return "소켓"
    return "특수 파일"


def utf8_name(path: Path | str) -> None:
    """Refuse a path whose name holds bytes that are not UTF-8 (Python keeps them as lone
    surrogates, which no report, JSON or terminal can carry): an
    :class:`~verdicts.errors.EnvironmentFailure` naming it with those bytes as ``\\xff``."""
    text = os.fspath(path)
    if isinstance(text, str) and any("\udc80" <= ch <= "\udcff" for ch in text):
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        raise EnvironmentFailure(f"{shown}: 파일 이름에 UTF-8이 아닌 바이트가 있어 읽지 않았습니다. "
                                 "이름을 UTF-8로 바꿔 주세요.")


def file_limit(limit: int) -> int:
    """``limit``, or the number of bytes :data:`LIMIT_ENV` gives in its place."""
    value = os.environ.get(LIMIT_ENV, "").strip().replace("_", "")
    if value.isdigit() and int(value) > 0:
        return int(value)
    return limit


def _not_regular(path: Path | str, mode: int, what: str) -> InputError:
    if stat.S_ISDIR(mode):
        return InputError(f"{path}: 파일이 아니라 폴더라서 {what} 수 없습니다.")
    kind = special_kind(mode)
    try:
        link = os.path.islink(path)
        real = os.path.realpath(path) if link else ""
    except (OSError, ValueError):
        link, real = False, ""
    if link and real != str(path):
        return InputError(f"{path}: 링크가 가리키는 {josa(real, '이/가')} 일반 파일이 아니라 "
                          f"{josa(kind, '이라/라')}서 읽지 않았습니다.")
    return InputError(f"{path}: 일반 파일이 아니라 {josa(kind, '이라/라')}서 읽지 않았습니다.")


def _too_large(path: Path | str, form: str, size: int | None, limit: int) -> InputError:
    how = f"{size:,}바이트로 " if size is not None else ""
    return InputError(f"{path}: {form} 파일이 {how}한도 {limit:,}바이트를 넘어 읽지 않았습니다 "
                      f"(더 큰 파일은 환경 변수 {josa(code(LIMIT_ENV), '으로/로')} 한도를 올려 읽을 수 있습니다).")


def _open_checked(path: Path | str, limit: int | None, form: str, what: str) -> tuple[int, int]:
    """A descriptor of the regular file ``path`` and the cap in force (looked at before
    it is opened, checked again once open); the caller closes it."""
    utf8_name(path)
    try:
        before = os.stat(path)
    except OSError as exc:
        raise os_error(path, exc) from None
    except ValueError:
        raise _nul(path) from None
    if not stat.S_ISREG(before.st_mode):
        raise _not_regular(path, before.st_mode, what)
    cap = file_limit(limit) if limit is not None else -1
    if cap >= 0 and before.st_size > cap:
        raise _too_large(path, form, before.st_size, cap)
    try:
        fd = os.open(path, _FLAGS)
    except OSError as exc:
        raise os_error(path, exc) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):  # swapped after it was looked at
            raise _not_regular(path, info.st_mode, what)
        if cap >= 0 and info.st_size > cap:
            raise _too_large(path, form, info.st_size, cap)
    except BaseException:
        os.close(fd)
        raise
    return fd, cap


def read_file(path: Path | str, limit: int, form: str = "입력", *, what: str = "읽을") -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them (or what
    :data:`LIMIT_ENV` says); ``form`` names the kind of file in the message past the cap
    (``CSV``, ``이야기``), ``what`` the verb of the message for a folder (``표로 읽을``).

    A FIFO, a device, a socket, a link to one of them, a folder, a symbolic-link loop, a
    missing permission or a file past the cap is an :class:`InputError` naming the path
    and the reason."""
    fd, cap = _open_checked(path, limit, form, what)
    try:
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, min(1 << 24, cap + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > cap:  # a file that grew while it was read
                raise _too_large(path, form, None, cap)
        return b"".join(chunks)
    except OSError as exc:
        raise os_error(path, exc) from None
    finally:
        os.close(fd)


@contextmanager
def open_file(path: Path | str, limit: int | None = None, form: str = "입력") -> Iterator[BinaryIO]:
    """The regular file ``path`` opened for reading in binary, checked as
    :func:`read_file` checks it (``limit=None``: no size cap, for a reader that reads in
    bounded blocks, such as a digest).  Errors while reading are the caller's."""
    fd, _ = _open_checked(path, limit, form, "읽을")
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as f:
        yield f


def head(path: Path | str, size: int) -> bytes | None:
    """The first ``size`` bytes of ``path`` when it is a regular file that can be read,
    else ``None`` (never raises, never waits): what recognising a file's kind peeks at."""
    try:
        fd, _ = _open_checked(path, None, "", "읽을")
    except InputError:
        return None
    try:
        return os.read(fd, size)
    except OSError:
        return None
    finally:
        os.close(fd)
