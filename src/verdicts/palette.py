"""One colour per verdict, shared by the report screen and the diagrams.

Colours follow a domain's verdict order: the passing verdicts are green, the findings
take the next colours of a fixed palette (so the same verdict has the same colour on the
screen and in the diagram of one domain).  Each colour is a ``(fill, stroke)`` pair of
hex codes; ``stroke`` is dark enough to be read as text on white and on its own ``fill``
(WCAG AA, 4.5:1, checked in the browser test).  Colour is never the only difference:
each verdict also has its own mark and border style (:func:`verdict_marks`).
"""

from __future__ import annotations

from typing import Iterable, TypeVar

__all__ = ["PASSING", "FINDINGS", "UNJUDGED", "UNDONE_LOOK", "UNDONE_MARK", "verdict_colours", "verdict_marks"]

_T = TypeVar("_T")

#: (fill, stroke) for a passing verdict
PASSING = ("#e3f2e5", "#256b29")
#: (fill, stroke) for the findings, in a domain's verdict order
FINDINGS = (
    ("#ece6f6", "#5e35b1"),  # purple
    ("#fde8e8", "#c62828"),  # red
    ("#fff0dd", "#a64200"),  # orange
    ("#fff7d6", "#7a5f00"),  # amber
    ("#e3eefb", "#1f5fa8"),  # blue
    ("#def3f1", "#00695c"),  # teal
    ("#f7e4ef", "#ad1457"),  # pink
)
#: (fill, stroke) for a target that has no card (its verdict was withheld)
UNJUDGED = ("#f2f2f2", "#666666")
#: (fill, stroke) and mark of a passing card that no real use bears out (listed among
#: the problems under its own verdict label: the mark tells it from a real pass)
UNDONE_LOOK = ("#fff4e0", "#8a4b00")
UNDONE_MARK = ("⚠", "dashed")
#: the mark and border of a withheld card (grey, with UNJUDGED's colours: neither a problem nor a pass)
WITHHELD_MARK = ("?", "dotted")


def verdict_colours(verdicts: Iterable[str], passing: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Map every verdict to its ``(fill, stroke)`` colours.

    >>> c = verdict_colours(["나쁨", "좋음", "모름"], ["좋음"])
    >>> c["좋음"] == PASSING, c["나쁨"] == FINDINGS[0], c["모름"] == FINDINGS[1]
    (True, True, True)
    """
    return _in_order(verdicts, passing, PASSING, FINDINGS)


#: the mark and border style of the passing verdicts, then of the findings in order
PASSING_MARK = ("✓", "solid")
FINDING_MARKS = (("✕", "solid"), ("▲", "dashed"), ("◆", "double"), ("●", "dotted"), ("■", "solid"), ("★", "dashed"), ("✚", "double"))


def verdict_marks(verdicts: Iterable[str], passing: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Map every verdict to a ``(mark, border style)`` pair, so that verdicts differ by
    shape as well as colour.

    >>> m = verdict_marks(["나쁨", "좋음", "모름"], ["좋음"])
    >>> m["좋음"], m["나쁨"], m["모름"]
    (('✓', 'solid'), ('✕', 'solid'), ('▲', 'dashed'))
    """
    return _in_order(verdicts, passing, PASSING_MARK, FINDING_MARKS)


def _in_order(verdicts: Iterable[str], passing: Iterable[str], for_passing: _T, for_findings: tuple[_T, ...]) -> dict[str, _T]:
    """``for_passing`` for every passing verdict; the findings take ``for_findings`` in
    turn, in the domain's verdict order (round again past the last)."""
    passing = set(passing)
    out: dict[str, _T] = {}
    findings = 0
    for verdict in verdicts:
        if verdict in passing:
            out[verdict] = for_passing
        else:
            out[verdict] = for_findings[findings % len(for_findings)]
            findings += 1
    return out
