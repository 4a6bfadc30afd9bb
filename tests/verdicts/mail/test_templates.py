"""The mail domain's Korean sentences: every verdict has its templates, every sentence
the example round and the rule cases make is one polite sentence with its particles
chosen for the word before them, and numbers read as a Korean reader writes them."""

from __future__ import annotations

import inspect
import tempfile
from datetime import date
from decimal import Decimal
from pathlib import Path

import yaml
from hypothesis import given, strategies as st

from tests.conftest import EXAMPLES
from verdicts.korean import is_polite_sentence
from verdicts.mail import DOMAIN, judge_mailbox
from verdicts.mail import templates as T

from .test_rule_cases import CASES_FILE, write_mailbox

FALLBACKS = ("이(가)", "을(를)", "은(는)", "(으)로", "과(와)", "와(과)", "(이)")


def test_every_verdict_names_its_templates_and_they_live_in_the_templates_module():
    for rule in DOMAIN.rules():
        assert rule.templates, rule.code
        assert all(inspect.getmodule(t) is T for t in rule.templates), rule.code
    assert {r.verdict for r in DOMAIN.rules()} == set(DOMAIN.verdicts)


def test_no_fallback_particle_and_no_semicolon_in_the_templates():
    source = inspect.getsource(T)
    for fallback in FALLBACKS:
        assert fallback not in source, fallback


def _all_cards():
    yield from judge_mailbox(EXAMPLES / "mail").cards
    for case in yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["cases"]:
        folder = Path(tempfile.mkdtemp())
        write_mailbox(folder, case)
        yield from judge_mailbox(folder).cards


def test_every_summary_and_hedge_is_one_polite_sentence():
    for card in _all_cards():
        for text in (card.summary, *card.hedges):
            if text is None:
                continue
            assert is_polite_sentence(text), (card.key, text)
            assert ";" not in text and not any(f in text for f in FALLBACKS), (card.key, text)


def test_particles_follow_the_number_before_them():
    assert "확신도 0.42가" in T.unconfirmed(counterpart="통신사", kind="결제 안내 회신", confidence=Decimal("0.42"), minimum=Decimal("0.7"))
    assert "확신도 0.50이" in T.unconfirmed(counterpart="통신사", kind="결제 안내 회신", confidence=Decimal("0.5"), minimum=Decimal("0.7"))
    assert T.head("학원", "부재 안내") == "학원 대화에 나간 부재 안내는"
    assert T.head("", "회신") == "이 대화에 나간 회신은"


def test_amounts_days_and_hours():
    assert [T.won(Decimal(v)) for v in ("1200000", "1200000.0", "150000", "55000", "100000000", "120000000", "35000000")] == [
        "120만원", "120만원", "15만원", "55,000원", "1억원", "1억 2,000만원", "3,500만원"]
    assert T.day(date(2026, 3, 14)) == "3월 14일" and T.day(date(2026, 12, 31), date(2027, 1, 2)) == "2026년 12월 31일"
    assert [T.hours(Decimal(v)) for v in ("15.52", "12.00", "0.13", "6.50")] == ["15.52", "12", "0.13", "6.5"]


@given(st.integers(min_value=1, max_value=10**12))
def test_every_whole_amount_reads_back(n):
    text = T.won(Decimal(n))
    total = 0
    for part in text.removesuffix("원").split(" "):
        if part.endswith("억"):
            total += int(part[:-1].replace(",", "")) * 10**8
        elif part.endswith("만"):
            total += int(part[:-1].replace(",", "")) * 10**4
        else:
            total += int(part.replace(",", ""))
    assert total == n
