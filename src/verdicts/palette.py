"""One colour per verdict, shared by the report screen and the diagrams.

Colours follow a domain's verdict order: the passing verdicts are green, the findings
take the next colours of a fixed palette (so the same verdict has the same colour on the
screen and in the diagram of one domain).  Each colour is a ``(fill, stroke)`` pair of
hex codes; ``stroke`` is dark enough to be read as text on white.
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["PASSING", "FINDINGS", "UNJUDGED", "verdict_colours"]

#: (fill, stroke) for a passing verdict
PASSING = ("#e3f2e5", "#2e7d32")
#: (fill, stroke) for the findings, in a domain's verdict order
FINDINGS = (
    ("#ece6f6", "#5e35b1"),  # purple
    ("#fde8e8", "#c62828"),  # red
    ("#fff0dd", "#d35400"),  # orange
    ("#fff7d6", "#8d6e00"),  # amber
    ("#e3eefb", "#1f5fa8"),  # blue
    ("#def3f1", "#00796b"),  # teal
    ("#f7e4ef", "#ad1457"),  # pink
)
#: (fill, stroke) for a target that has no card (its verdict was withheld)
UNJUDGED = ("#f2f2f2", "#666666")


def verdict_colours(verdicts: Iterable[str], passing: Iterable[str]) -> dict[str, tuple[str, str]]:
    """Map every verdict to its ``(fill, stroke)`` colours.

    >>> c = verdict_colours(["나쁨", "좋음", "모름"], ["좋음"])
    >>> c["좋음"] == PASSING, c["나쁨"] == FINDINGS[0], c["모름"] == FINDINGS[1]
    (True, True, True)
    """
    passing = set(passing)
    out: dict[str, tuple[str, str]] = {}
    i = 0
    for verdict in verdicts:
        if verdict in passing:
            out[verdict] = PASSING
        else:
            out[verdict] = FINDINGS[i % len(FINDINGS)]
            i += 1
    return out
