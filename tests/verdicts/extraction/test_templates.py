"""Every verdict has its rule and templates; every sentence the domain writes is one
polite Korean sentence without a fallback particle or a semicolon; the labels are the
seed's, verbatim."""

from __future__ import annotations

import json
import re

import pytest

from verdicts.extraction import DOMAIN, judge_batch
from verdicts.extraction import templates as T
from verdicts.extraction.model import VERDICTS
from verdicts.korean import is_polite_sentence

from .conftest import EXAMPLE
from .test_rule_cases import CASES_FILE, write_run

FALLBACKS = ("이(가)", "을(를)", "은(는)", "와(과)", "과(와)", "(으)로", "(이)라")


def _sentences(report):
    for card in report.cards:
        yield card.summary
        if card.hedge:
            yield card.hedge


def _every_report(tmp_path):
    import yaml

    yield judge_batch(EXAMPLE)
    for i, case in enumerate(yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["cases"]):
        folder = tmp_path / str(i)
        folder.mkdir()
        yield judge_batch(write_run(folder, case))


def test_every_verdict_has_a_rule_naming_its_templates():
    by_verdict = {rule.verdict: rule for rule in DOMAIN.rules()}
    assert tuple(by_verdict) == VERDICTS
    for rule in by_verdict.values():
        assert rule.templates and all(getattr(T, f.__name__) is f for f in rule.templates)


def test_every_sentence_is_one_polite_sentence_with_real_particles(tmp_path):
    seen = 0
    for report in _every_report(tmp_path):
        for text in _sentences(report):
            seen += 1
            assert is_polite_sentence(text), text
            assert ";" not in text and not any(f in text for f in FALLBACKS), text
        for issue in report.issues:
            assert not any(f in issue.reason for f in FALLBACKS), issue.reason
    assert seen > 40


@pytest.mark.parametrize("value, particle", [
    ("홍길동", "은"), ("123-45-67819", "는"), ("8,450,000,000", "과"), ("BBB+", "는"), ("약 120억", "은"),
])
def test_particles_follow_how_the_quoted_value_is_read(value, particle):
    text = T.differs(label="칸", value=value, source=value, page=1, doc="원문", digits=False, position=1)
    assert text.startswith(f"칸 값 `{value}`{particle} ") or f"`{value}`{particle}" in text


def test_the_verdicts_are_the_seeds_labels_verbatim(seeds):
    text = (seeds / "000_e5ac3b89ee6b4ff3.txt").read_text(encoding="utf-8")
    schema = json.loads(re.search(r'^\{"type":"object".*$', text, re.M).group(0))
    assert set(schema["properties"]["verdict"]["enum"]) == set(VERDICTS)


def test_code_is_quoted_and_never_the_subject(tmp_path):
    for report in _every_report(tmp_path):
        for text in _sentences(report):
            # code may take a subject particle only as an apposition to a Korean noun
            # before it (상호 값 `(주)한빛건설`은), as the house style test reads it
            for m in re.finditer(r"`[^`]+`(?=[이가은는]\s)", text):
                before = text[:m.start()].rstrip()
                assert before and re.search(r"[가-힣,]$", before), text
