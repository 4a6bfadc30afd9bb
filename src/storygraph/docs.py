"""Documentation generated from the rules' and checks' docstrings.

``docs/verdicts.md`` is written by :func:`render_verdict_docs`; a test fails when the
file is stale or a rule or check has no documentation, so the docs and the code never
drift apart.
"""

from __future__ import annotations

from verdicts.docs import SECTIONS, split_doc

from .checks import CHECKS
from .rules import BRANCH_RULES, SCENE_RULES, Rule

__all__ = ["SECTIONS", "render_verdict_docs", "rule_doc_sections", "doc_sections", "explain_text", "explainable_names"]


def rule_doc_sections(rule: Rule) -> tuple[str, dict[str, str]]:
    """The headline and the four sections of a rule's docstring."""
    return split_doc(rule.doc)


def doc_sections(doc: str) -> dict[str, str]:
    """The *What it flags / Why it matters / Example / Instead* sections of a docstring."""
    return split_doc(doc)[1]


def render_verdict_docs() -> str:
    out = [
        "# Verdicts and checks",
        "",
        "Generated from the docstrings in `src/storygraph/rules.py` and `src/storygraph/checks.py`",
        "by `python -m storygraph.docs > docs/verdicts.md`; do not edit by hand.",
        "",
        "Rules are tried in order; the first that fires gives the verdict.",
        "",
    ]
    for title, rules in (("Scenes (장면)", SCENE_RULES), ("Branches (분기)", BRANCH_RULES)):
        out += [f"## {title}", ""]
        for rule in rules:
            headline, sections = rule_doc_sections(rule)
            out += [f"### `{rule.verdict}` · `{rule.code}`", "", headline, ""]
            for name in SECTIONS:
                out += [f"**{name}.** {sections.get(name, '')}", ""]
    from .findings import KINDS

    out += ["## Lint findings (린트 발견)", "",
            "Condition-aware findings beside the verdicts; each has a stable code (`storygraph explain CODE`).", ""]
    for kind in KINDS:
        headline, sections = split_doc(kind.doc)
        out += [f"### `{kind.code}` · {kind.title}", "", headline, ""]
        for name in SECTIONS:
            out += [f"**{name}.** {sections.get(name, '')}", ""]
    out += ["## Automatic checks (자동 검증)", "", "| id | check | how it is recomputed |", "|---|---|---|"]
    for check in CHECKS:
        doc = " ".join(check.doc.split())
        out.append(f"| {check.id} | {check.description} | {doc} |")
    out.append("| SCHEMA | 모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다. | Every card is validated against the seed's schema, kept in `src/verdicts/schemas/storygraph.card.schema.json`. |")
    return "\n".join(out) + "\n"


def explainable_names() -> list[str]:
    """Every name ``storygraph explain`` accepts (see :func:`verdicts.docs.explainable_names`)."""
    from .domain import DOMAIN

    return DOMAIN.explainable_names()


def explain_text(name: str) -> str | None:
    """The documentation of a verdict, finding code or check id, as plain text; ``None``
    when the name is unknown (see :func:`verdicts.docs.explain_text`)."""
    from .domain import DOMAIN

    return DOMAIN.explain(name)


if __name__ == "__main__":  # pragma: no cover
    print(render_verdict_docs(), end="")
