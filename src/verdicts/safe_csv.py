"""CSV cells a spreadsheet shows as text: the one way every CSV we write guards its
cells, and the one way our readers undo it.

A spreadsheet opening a CSV runs a cell that starts with ``=``, ``+``, ``-`` or ``@`` as
a formula (``=HYPERLINK("http://x","y")`` is a link that leaks what the sheet holds;
``=cmd|…`` once ran programs), and a leading tab or carriage return hides such a start
from a naive check.  Any text we copy from a mailbox, a story file or a reviewer can
start that way, so every cell we write goes through :func:`guard`:

* a cell that starts with one of those characters, after any run of ``'``, gets one
  ``'`` in front — what a spreadsheet itself writes to keep typed text as text;
* a plain number keeps its sign (``-5``, ``+3``, ``-0.25``, ``-1,200``, ``-1e3``): a
  number in a numeric column stays a number for every reader.

Our readers (:mod:`verdicts.tables`) undo it with :func:`unguard`: one leading ``'`` is
dropped where :func:`guard` would have put it, so what we write reads back exactly
(``guard`` also protects a cell that already started with ``'=…``, by adding one more).

>>> guard('=HYPERLINK("http://x","y")'), guard("-5"), guard("-보증금"), guard("'=1"), guard("평범한 글")
('\\'=HYPERLINK("http://x","y")', '-5', "'-보증금", "''=1", '평범한 글')
>>> all(unguard(guard(t)) == t for t in ["=1+1", "-5", "@SUM(A1)", "\\tx", "'=x", "''+y", "'", "it's", ""])
True
"""

from __future__ import annotations

import csv
import re
from typing import Any, Iterable, Mapping

__all__ = ["guard", "unguard", "guarded", "DictWriter", "writer", "TRIGGERS"]

#: the first characters a spreadsheet reads as the start of a formula (or that hide one)
TRIGGERS = "=+-@\t\r"

_NEEDS = re.compile(r"'*[=+\-@\t\r]")
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][+-]?\d+)?")
_GUARDED = re.compile(r"''*[=+\-@\t\r]")


def guard(value: Any) -> Any:
    """``value`` as a CSV cell a spreadsheet shows as text (see the module); anything
    that is not a string (a number, ``None``) is returned as it is."""
    if not isinstance(value, str) or not value or _NEEDS.match(value) is None:
        return value
    if value[0] in "+-" and _NUMBER.fullmatch(value) and any(ch.isdigit() for ch in value):
        return value
    return "'" + value


def unguard(text: str) -> str:
    """A cell as it was before :func:`guard` (one leading ``'`` dropped where ``guard``
    puts one; every other cell unchanged)."""
    return text[1:] if text[:1] == "'" and _GUARDED.match(text) else text


def guarded(row: Iterable[Any]) -> list[Any]:
    """Every cell of ``row`` through :func:`guard`."""
    return [guard(v) for v in row]


class DictWriter:
    """:class:`csv.DictWriter` (same arguments) whose every cell goes through
    :func:`guard`, the header's too."""

    def __init__(self, out: Any, fieldnames: Iterable[str], restval: Any = "", extrasaction: str = "raise",
                 **options: Any):
        self.fieldnames = list(fieldnames)
        self._known = set(self.fieldnames)
        self.restval, self.extrasaction = restval, extrasaction
        self.writer = csv.writer(out, **options)

    def writeheader(self) -> Any:
        return self.writer.writerow(guarded(self.fieldnames))

    def writerow(self, rowdict: Mapping[str, Any]) -> Any:
        if self.extrasaction == "raise":
            extra = [k for k in rowdict if k not in self._known]
            if extra:
                raise ValueError(f"dict contains fields not in fieldnames: {', '.join(map(repr, extra))}")
        return self.writer.writerow(guarded(rowdict.get(k, self.restval) for k in self.fieldnames))

    def writerows(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            self.writerow(row)


class _Writer:
    """:func:`csv.writer` whose every cell goes through :func:`guard`."""

    def __init__(self, out: Any, **options: Any):
        self._writer = csv.writer(out, **options)

    @property
    def dialect(self):
        return self._writer.dialect

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow(guarded(row))

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def writer(out: Any, **options: Any) -> _Writer:
    """:func:`csv.writer` whose every cell goes through :func:`guard`."""
    return _Writer(out, **options)
