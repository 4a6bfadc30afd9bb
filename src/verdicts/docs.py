"""Reading rule docstrings into the sections the generated docs show.

A rule's docstring starts with a headline (``<verdict> — what it means``) followed by the
sections *What it flags / Why it matters / Example / Instead*; every domain's docs page
is generated from them, so the docs and the code never drift apart.
"""

from __future__ import annotations

import textwrap

__all__ = ["SECTIONS", "split_doc", "explain_text", "explainable_names", "render_domain_docs"]

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


def _causes(domain, rule) -> list[str]:
    """The values a rule fixes in the fields that subdivide its verdict (robot's
    ``blocked_cause``)."""
    return [str(rule.stamp[f]) for f in dict.fromkeys(domain.subgroup_field.values()) if rule.stamp.get(f) is not None]


def _rule_title(domain, rule) -> str:
    cause = "".join(f" ({v})" for v in _causes(domain, rule))
    where = f" — {domain.kind_labels.get(rule.kind, rule.kind)}" if rule.kind else ""
    return f"{rule.verdict}{cause} · {rule.code}{where}"


def explainable_names(domain) -> list[str]:
    """Every name ``explain`` takes for ``domain``: verdict labels and rule codes,
    finding codes, check ids."""
    names: list[str] = []
    for rule in domain.rules():
        for n in (rule.verdict, rule.code):
            if n not in names:
                names.append(n)
    names += [k.code for k in domain.finding_kinds]
    names += [c.id for c in domain.checks()] + ["SCHEMA"]
    return names


def explain_text(domain, name: str) -> str | None:
    """The documentation of a verdict (Korean label or stable code), a finding code or a
    check id of ``domain`` as plain text (from the same docstrings as its docs page);
    ``None`` when the name is unknown."""
    blocks: list[tuple[str, str]] = []
    for rule in domain.rules():
        if name in (rule.verdict, rule.code):
            blocks.append((_rule_title(domain, rule), rule.doc))
    for kind in domain.finding_kinds:
        if name == kind.code:
            blocks.append((f"{kind.code} · {kind.title}", kind.doc))
    out: list[str] = []
    for title, doc in blocks:
        headline, sections = split_doc(doc)
        out += [title, "=" * len(title), headline, ""]
        for section in SECTIONS:
            out += [f"{section}:", f"    {sections.get(section, '')}", ""]
    if not blocks:
        checks = [c for c in domain.checks() if c.id.lower() == name.lower()]
        if name.upper() == "SCHEMA":
            title = "SCHEMA · 모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다."
            return "\n".join([title, "=" * len(title), f"Every card is validated against the seed's schema, kept as a data file ({domain.name}).", ""])
        for check in checks:
            title = f"{check.id} · {check.description}"
            out += [title, "=" * len(title), " ".join(check.doc.split()), ""]
    return "\n".join(out) if out else None


def render_domain_docs(domain) -> str:
    """The docs page of ``domain`` (``domain.docs_page``), from the same docstrings as
    ``explain``: its rules in order (book by book), its lint findings, its checks and its
    verification notes.  ``verdicts docs NAME`` prints it; a test fails when the file is
    stale."""
    out = [
        f"# {domain.docs_title}",
        "",
        f"Generated from the docstrings of the `{domain.name}` domain's rules and checks by",
        f"`verdicts docs {domain.name} > {domain.docs_page}`; do not edit by hand.",
        "",
        "Rules are tried in order; the first that fires gives the verdict." + (f" {domain.docs_note}" if domain.docs_note else ""),
        "",
    ]
    several = len(domain.books) > 1
    for book in domain.books:
        level = "###" if several else "##"
        if several:
            kind = book.rules[0].kind
            out += [f"## {domain.kind_labels.get(kind, kind)}", ""]
        for number, rule in enumerate(book, start=1):
            headline, sections = split_doc(rule.doc)
            fixed = "".join(f" / `{v}`" for v in _causes(domain, rule))
            out += [f"{level} {number}. `{rule.verdict}`{fixed} · `{rule.code}`", "", headline, ""]
            for name in SECTIONS:
                out += [f"**{name}.** {sections.get(name, '')}", ""]
    if domain.finding_kinds:
        out += ["## Lint findings (린트 발견)", "",
                f"Findings beside the verdicts; each has a stable code (`verdicts explain {domain.name} CODE`).", ""]
        for kind in domain.finding_kinds:
            headline, sections = split_doc(kind.doc)
            out += [f"### `{kind.code}` · {kind.title}", "", headline, ""]
            for name in SECTIONS:
                out += [f"**{name}.** {sections.get(name, '')}", ""]
    out += ["## Automatic checks (자동 검증)", "", "| id | check | how it is recomputed |", "|---|---|---|"]
    for check in domain.checks():
        out.append(f"| {check.id} | {check.description} | {' '.join(check.doc.split())} |")
    out.append(f"| SCHEMA | 모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다. | Every card is validated against the seed's "
               f"schema, kept in `src/verdicts/schemas/{domain.name}.card.schema.json`. |")
    out += ["", "## Verification notes (검증 노트)", ""]
    for part, sentences in domain.notes.items():
        out += [f"**{part}**", ""] + [f"- {s}" for s in sentences] + [""]
    return "\n".join(out).rstrip("\n") + "\n"
