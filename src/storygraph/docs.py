"""Documentation generated from the rules' and checks' docstrings.

``docs/verdicts.md`` is written by :func:`render_verdict_docs` (``verdicts docs storygraph``); a test fails when the
file is stale or a rule or check has no documentation, so the docs and the code never
drift apart.
"""

from __future__ import annotations

from verdicts.docs import SECTIONS, split_doc

from verdicts.engine import Rule

__all__ = ["SECTIONS", "render_verdict_docs", "rule_doc_sections", "doc_sections", "explain_text", "explainable_names"]


def rule_doc_sections(rule: Rule) -> tuple[str, dict[str, str]]:
    """The headline and the four sections of a rule's docstring."""
    return split_doc(rule.doc)


def doc_sections(doc: str) -> dict[str, str]:
    """The *잡는 것 / 왜 문제인가 / 예시 / 고치는 법* sections of a docstring."""
    return split_doc(doc)[1]


def render_verdict_docs() -> str:
    """``docs/verdicts.md`` (:func:`verdicts.docs.render_domain_docs` of storygraph)."""
    from verdicts.docs import render_domain_docs

    from .domain import DOMAIN

    return render_domain_docs(DOMAIN)


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
