"""The docs come from the docstrings: every rule and check is documented, and
docs/verdicts.md is the generated text."""

from __future__ import annotations

import pytest

from storygraph.checks import CHECKS
from storygraph.docs import SECTIONS, render_verdict_docs, rule_doc_sections
from storygraph.rules import RULES
from storygraph.templates import BRANCH_SUMMARIES, SCENE_SUMMARIES
from storygraph.model import BRANCH_VERDICTS, SCENE_VERDICTS
from tests.conftest import ROOT


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.kind}-{r.code}")
def test_every_rule_documents_all_four_sections(rule):
    headline, sections = rule_doc_sections(rule)
    assert headline.startswith(rule.verdict)
    for name in SECTIONS:
        assert sections.get(name), f"{rule.verdict} ({rule.kind}) lacks '{name}'"


def test_every_check_is_documented():
    for check in CHECKS:
        assert check.doc, check.id


def test_every_verdict_has_a_summary_template():
    assert set(SCENE_SUMMARIES) == set(SCENE_VERDICTS)
    assert set(BRANCH_SUMMARIES) == set(BRANCH_VERDICTS)


def test_docs_file_is_generated_from_the_docstrings():
    assert (ROOT / "docs" / "verdicts.md").read_text(encoding="utf-8") == render_verdict_docs(), \
        "docs/verdicts.md is stale: run `python -m storygraph.docs > docs/verdicts.md`"
