"""Colour for the text report on a terminal.

Only when standard output is a terminal, ``NO_COLOR`` is not set (https://no-color.org)
and ``TERM`` is not ``dumb``; ``FORCE_COLOR`` (non-empty) turns it on anywhere.  The
report's bytes are the same otherwise: colour is added line by line, as it is written.

>>> print(colour_line("■ 입력 문제 (2)", {"끝까지 닿음"}).encode("unicode_escape").decode())
\\x1b[1;33m■ 입력 문제 (2)\\x1b[0m
"""

from __future__ import annotations

import os
from typing import Any, Collection

__all__ = ["wants_colour", "colour_line", "colour_text", "ColourLines"]

RED, GREEN, YELLOW, DIM, BOLD, RESET = "\x1b[1;31m", "\x1b[1;32m", "\x1b[1;33m", "\x1b[2m", "\x1b[1m", "\x1b[0m"


def wants_colour(stream: Any) -> bool:
    """Whether to colour what goes to ``stream``."""
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    if os.environ.get("TERM", "") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def colour_line(line: str, passing: Collection[str]) -> str:
    """One line of the text report, coloured by what it is."""
    if line.startswith("■ "):
        label = line[2:].split(" (")[0].split(":")[0]
        if label in passing:
            return GREEN + line + RESET
        if label in ("입력 문제", "린트 발견"):
            return YELLOW + line + RESET
        if label == "자동 검증" and "(" not in line:
            return YELLOW + line + RESET  # nothing was judged: nothing to check
        if label == "자동 검증":
            return (GREEN if "실패" not in line and not _failing(line) else RED) + line + RESET
        return RED + line + RESET
    if line.lstrip().startswith("↳ "):
        return DIM + line + RESET
    if line.lstrip().startswith("[실패]"):
        return RED + line + RESET
    if line.startswith("요약: "):
        return BOLD + line + RESET
    return line


def _failing(line: str) -> bool:
    """``■ 자동 검증 (10/11 통과)``: some failed."""
    import re

    m = re.search(r"\((\d+)/(\d+) 통과\)", line)
    return bool(m and m.group(1) != m.group(2))


def colour_text(text: str, passing: Collection[str]) -> str:
    return "".join(colour_line(line, passing) + end for line, end in _lines(text))


def _lines(text: str):
    for chunk in text.splitlines(keepends=True):
        body = chunk.rstrip("\n")
        yield body, chunk[len(body):]


class ColourLines:
    """A binary stream's ``write`` that colours each complete line of UTF-8 text."""

    def __init__(self, out: Any, passing: Collection[str]):
        self.out, self.passing, self.rest = out, passing, b""

    def write(self, data: bytes) -> None:
        data = self.rest + bytes(data)
        head, sep, self.rest = data.rpartition(b"\n")
        if sep:
            self.out.write(colour_text(head.decode("utf-8", "replace") + "\n", self.passing).encode("utf-8"))

    def flush(self) -> None:
        if self.rest:
            self.out.write(colour_text(self.rest.decode("utf-8", "replace"), self.passing).encode("utf-8"))
            self.rest = b""
        flush = getattr(self.out, "flush", None)
        if flush:
            flush()
