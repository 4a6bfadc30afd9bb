"""Reading rule docstrings into the sections the generated docs show.

A rule's docstring starts with a headline (``<verdict> — what it means``) followed by the
sections *What it flags / Why it matters / Example / Instead*; every domain's docs page
is generated from them, so the docs and the code never drift apart.
"""

from __future__ import annotations

import textwrap

__all__ = ["SECTIONS", "split_doc"]

SECTIONS = ("What it flags", "Why it matters", "Example", "Instead")


def split_doc(doc: str) -> tuple[str, dict[str, str]]:
    """The headline and the sections of a rule's docstring, each on one line.

    >>> split_doc('''X — a thing.
    ...
    ...     What it flags:
    ...         Things.
    ...     Instead:
    ...         Nothing.
    ... ''')
    ('X — a thing.', {'What it flags': 'Things.', 'Instead': 'Nothing.'})
    """
    lines = doc.strip().splitlines()
    headline = lines[0].strip() if lines else ""
    body = textwrap.dedent("\n".join(lines[1:]))
    sections: dict[str, str] = {}
    current = None
    for line in body.splitlines():
        stripped = line.strip()
        if stripped.rstrip(":") in SECTIONS and stripped.endswith(":"):
            current = stripped.rstrip(":")
            sections[current] = ""
        elif current:
            sections[current] += stripped + " "
    return headline, {k: " ".join(v.split()) for k, v in sections.items()}
