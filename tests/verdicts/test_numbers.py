"""Rounding half up on exact values, against decimal's own ROUND_HALF_UP."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from verdicts.numbers import median_exact, parse_decimal, round_half_up


@pytest.mark.parametrize("value,expected", [
    (Fraction(5, 8), "0.63"), (Fraction(1, 8), "0.13"), ("2.675", "2.68"), ("1.005", "1.01"), (Fraction(2, 3), "0.67"),
    (Fraction(1, 3), "0.33"), ("12.425", "12.43"), (Fraction(-5, 8), "-0.63"), (0.125, "0.13"), (7, "7.00"),
])
def test_known_ties_and_non_ties(value, expected):
    assert round_half_up(value) == Decimal(expected)


def test_python_round_differs_on_these_ties():
    # the reason this helper exists: round() rounds half to even, on binary floats
    assert round(0.625, 2) == 0.62 and round(2.675, 2) == 2.67
    assert round_half_up("0.625") == Decimal("0.63") and round_half_up("2.675") == Decimal("2.68")


@given(st.integers(-10**6, 10**6), st.integers(1, 10**4), st.integers(0, 4))
def test_agrees_with_decimal_half_up(num, den, places):
    with localcontext() as ctx:
        ctx.prec = 80
        expected = (Decimal(num) / Decimal(den)).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    assert round_half_up(Fraction(num, den), places) == expected


@given(st.lists(st.decimals(min_value=0, max_value=1000, places=2, allow_nan=False), min_size=1, max_size=30))
def test_median_is_the_middle_of_the_sorted_values(values):
    ordered = sorted(values)
    m = median_exact(values)
    below = sum(1 for v in ordered if v < m)
    above = sum(1 for v in ordered if v > m)
    assert below <= len(values) // 2 and above <= len(values) // 2
    if len(values) % 2:
        assert m in [Fraction(v) for v in values]


def test_parse_decimal_keeps_what_was_written():
    assert parse_decimal("0.10") == Decimal("0.10") and parse_decimal("") is None and parse_decimal("inf") is None
