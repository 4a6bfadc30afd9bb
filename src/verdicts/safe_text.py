"""Text from the inputs made safe for a terminal, a CI log and a one-line field.

A title, an id, a condition or a file name comes from a user's file and may hold
characters meant for a terminal or a log reader: ESC and OSC sequences (clearing the
screen, setting the window title), BEL, right-to-left overrides that reorder what a
reader sees, or a line break followed by ``::error::`` (a GitHub workflow command, which
the runner reads on any line that starts with ``::`` after its leading spaces).  Every
report that prints such text on a line of its own making passes it through :func:`clean`:
control, format-direction and line-separator characters become visible escapes
(``\\x1b``, ``\\u202e``, ``\\n``), so user text can never end a line, start a new one,
or move the cursor.

>>> clean("등대\\x1b]0;pwned\\x07 지기"), clean("a\\nb::error::x"), clean("평범한 제목")
('등대\\\\x1b]0;pwned\\\\x07 지기', 'a\\\\nb::error::x', '평범한 제목')
>>> print(continuation("조건식을 읽지 못했습니다.\\ntrust >= \\n         ^", "    "))
조건식을 읽지 못했습니다.
    │ trust >=
    │          ^
"""

from __future__ import annotations

import re

__all__ = ["clean", "continuation"]

_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2028\u2029\u2060-\u2069\ufeff\ufff9-\ufffb]")
_NAMED = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape(match: re.Match) -> str:
    ch = match.group()
    named = _NAMED.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def clean(text: object) -> str:
    """``text`` on one line with every control, direction and separator character
    written as a visible escape (most texts are returned as they are)."""
    text = text if isinstance(text, str) else str(text)
    if text.isprintable():
        return text
    return _UNSAFE.sub(_escape, text)


def continuation(text: object, indent: str) -> str:
    """A text of several lines of our making (a message with a caret under a
    condition): each line cleaned, the lines after the first indented and marked with
    ``│`` so that none of them starts with the user's text."""
    lines = (text if isinstance(text, str) else str(text)).split("\n")
    return "\n".join([clean(lines[0])] + [f"{indent}│ {clean(line).rstrip()}" for line in lines[1:]])
