"""The docs come from the docstrings: every rule and check is documented, and
docs/verdicts.md is the generated text."""

from __future__ import annotations

import pytest

from storygraph.checks import CHECKS
from storygraph.docs import SECTIONS, rule_doc_sections
from storygraph.rules import RULES
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


def test_every_verdict_has_one_rule_with_its_templates():
    from storygraph import templates as T
    from storygraph.rules import BRANCH_RULES, SCENE_RULES

    assert [r.verdict for r in SCENE_RULES] == list(SCENE_VERDICTS)
    assert [r.verdict for r in BRANCH_RULES] == list(BRANCH_VERDICTS)
    for rule in RULES:
        assert rule.templates and all(t.__module__ == T.__name__ for t in rule.templates), rule.code
    owned = {t.__name__ for rule in RULES for t in rule.templates}
    summaries = {n for n in dir(T) if n.startswith(("scene_", "branch_")) and callable(getattr(T, n))}
    assert summaries <= owned, f"summary templates no rule uses: {sorted(summaries - owned)}"


def test_every_finding_kind_documents_all_four_sections():
    from storygraph.findings import KINDS
    from verdicts.docs import split_doc

    for kind in KINDS:
        headline, sections = split_doc(kind.doc)
        assert headline.startswith(kind.code)
        for name in SECTIONS:
            assert sections.get(name), f"{kind.code} lacks '{name}'"


def test_explain_knows_every_verdict_label_code_and_finding():
    from storygraph.docs import explain_text, explainable_names

    names = explainable_names()
    assert {"끝까지 닿음", "어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "shadowed", "stuck-combination"} <= set(names)
    for name in names:
        text = explain_text(name)
        if name in {c.id for c in CHECKS} | {"SCHEMA", "C11"}:
            assert text and text.startswith(name), name
        elif name in ("판정 보류", "withheld"):
            assert text and text.startswith("판정 보류 · withheld"), name
        elif name in ("표로만 닿음", "undone"):
            assert text and text.startswith("표로만 닿음 · undone") and "`undone`" in text, name
        else:
            assert text and "잡는 것:" in text and "고치는 법:" in text, name
    assert explain_text("no-such-thing") is None
