"""Regular expressions that come from data (a field rule's ``pattern``, a reviewer's
correction checked against it), compiled by a linear-time engine.

Python's :mod:`re` backtracks: ``(a+)+$`` over ``"a" * 50 + "b"`` runs for hours, and a
pattern written in a user's table is not ours to trust.  :func:`compile_pattern` compiles
with RE2 (the ``google-re2`` package, module ``re2``), whose matching time grows with the
text, never exponentially; a construct RE2 cannot run in linear time (a backreference
``\\1`` or ``(?P=name)``, a lookahead or lookbehind ``(?=…)``, ``(?<!…)``, an atomic group)
is refused with :class:`PatternError`, a Korean reason the caller puts in an input issue
naming the rule, its file and line.

So that a pattern means what it meant under :mod:`re`, the character classes Python reads
in Unicode are written out for RE2 (which reads them in ASCII): ``\\d`` is any decimal
digit (``\\p{Nd}``), ``\\w`` any letter, number or ``_`` (so ``\\w+`` matches ``한글``), ``\\s``
any white space (U+3000 too), and ``\\Z`` is the end of the text.  ``\\b`` and ``\\B`` keep
RE2's ASCII meaning, and ``\\D``, ``\\W``, ``\\S`` inside ``[…]`` too (docs/security.md).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from .korean import code, josa

__all__ = ["PatternError", "compile_pattern", "compile_linear", "fullmatches", "MAX_PATTERN_CHARS", "MAX_PATTERN_MEMORY"]

#: characters of one pattern (a field rule's cell is far shorter)
MAX_PATTERN_CHARS = 4_096
#: memory RE2 may spend on one compiled pattern (its own default is 8 MB)
MAX_PATTERN_MEMORY = 8 << 20

#: Python's Unicode classes, for RE2: outside and inside ``[…]``
_SPACE = r"\t\n\v\f\r\x{1c}-\x{20}\x{85}\p{Z}"
_OUTSIDE = {"d": r"\p{Nd}", "D": r"\P{Nd}", "w": r"[\p{L}\p{N}_]", "W": r"[^\p{L}\p{N}_]",
            "s": f"[{_SPACE}]", "S": f"[^{_SPACE}]", "Z": r"\z"}
_INSIDE = {"d": r"\p{Nd}", "w": r"\p{L}\p{N}_", "s": _SPACE}


class PatternError(ValueError):
    """A pattern that cannot be compiled, with the reason in Korean: a clause that
    follows ``정규식 `…`은`` and ends so that the consequence follows (``역참조(…)가 있어
    값의 길이에 비례하는 시간 안에 맞춰 볼 수 없으므로``, ``문법에 맞지 않아(…)``)."""


def _translated(text: str) -> str:
    """``text`` with Python's Unicode classes written out for RE2 (see the module)."""
    out: list[str] = []
    i, n = 0, len(text)
    inside = False
    while i < n:
        ch = text[i]
        if ch == "\\" and i + 1 < n:
            nxt = text[i + 1]
            table = _INSIDE if inside else _OUTSIDE
            out.append(table.get(nxt, ch + nxt))
            i += 2
            continue
        if inside:
            if ch == "]":
                inside = False
        elif ch == "[":
            inside = True
            out.append(ch)
            i += 1
            # a ']' right after '[' or '[^' is a literal member
            if i < n and text[i] == "^":
                out.append("^")
                i += 1
            if i < n and text[i] == "]":
                out.append("]")
                i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def _reason(message: str, text: str) -> str:
    """A Korean clause for RE2's complaint about ``text``, to follow ``정규식 `…`은``."""
    linear = "값의 길이에 비례하는 시간 안에 맞춰 볼 수 없으므로"
    if ("invalid escape sequence: \\" in message and any(f"\\{d}" in text for d in "123456789")) or "(?P=" in text:
        return f"역참조(`\\1`, `(?P=이름)`)가 있어 {linear}"
    if "invalid perl operator: (?<" in message or "invalid perl operator: (?=" in message or "invalid perl operator: (?!" in message:
        return f"앞뒤 살피기(`(?=…)`, `(?!…)`, `(?<=…)`, `(?<!…)`)가 있어 {linear}"
    if "invalid perl operator" in message:
        return f"{josa(code(message.split(': ', 1)[-1]), '이/가')} 있어 {linear}"
    if "pattern too large" in message:
        return "너무 커서 한도 안에서 컴파일할 수 없으므로"
    return f"문법에 맞지 않아({message})"


def compile_pattern(text: str) -> Any:
    """A pattern written in the user's data, compiled by RE2 (remembered: the same rule
    is used on every value), or :class:`PatternError` with the reason."""
    if len(text) > MAX_PATTERN_CHARS:
        raise PatternError(f"{len(text):,}자로 한도 {MAX_PATTERN_CHARS:,}자를 넘어")
    return compile_linear(text)


@lru_cache(maxsize=4096)
def compile_linear(text: str) -> Any:
    """``text`` compiled by RE2, without a length limit (a pattern the tool composes from
    escaped pieces of the input, as the ChoiceScript importer's names computed while
    playing); :class:`PatternError` when RE2 refuses it."""
    import re2

    options = re2.Options()
    options.log_errors = False  # the reason goes into our issue, not to stderr
    options.max_mem = MAX_PATTERN_MEMORY
    try:
        return re2.compile(_translated(text), options=options)
    except re2.error as exc:
        message = exc.args[0].decode("utf-8", "replace") if exc.args and isinstance(exc.args[0], bytes) else str(exc)
        raise PatternError(_reason(message, text)) from None
    except (TypeError, ValueError) as exc:  # pragma: no cover - a text RE2 refuses before parsing
        raise PatternError(f"읽을 수 없어({exc})") from None


def fullmatches(text: str, value: str) -> bool | None:
    """Whether pattern ``text`` matches all of ``value`` (``None`` when the pattern
    cannot be compiled: that is an issue of its own)."""
    try:
        pattern = compile_pattern(text)
    except PatternError:
        return None
    return pattern.fullmatch(value) is not None
