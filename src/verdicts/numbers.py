"""Exact numbers for verdict fields: parsing decimals as written and rounding half up.

Seeds ask for rates and medians "rounded to two decimals" and compare the *rounded* value
with a threshold.  Python's :func:`round` rounds half to even and works on binary floats
(``round(0.625, 2) == 0.62``, ``round(2.675, 2) == 2.67``), which is wrong for these
fields.  Here values stay exact — :class:`~fractions.Fraction` for ratios of counts,
:class:`~decimal.Decimal` parsed from the cell text for measured values — and are rounded
half up (away from zero on a tie) only once, at the end.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Iterable, Union

__all__ = ["Exact", "exact", "parse_decimal", "round_half_up", "as_number", "median_exact"]

Exact = Union[int, Decimal, Fraction]


def parse_decimal(text: str | None) -> Decimal | None:
    """The cell text as an exact decimal, or ``None`` when it is empty or not a finite
    number.  Thousands separators are ignored.

    >>> parse_decimal("12.45"), parse_decimal(" 1,200 "), parse_decimal("abc"), parse_decimal("nan")
    (Decimal('12.45'), Decimal('1200'), None, None)
    """
    if text is None:
        return None
    cleaned = str(text).strip().replace(",", "")
    if not cleaned:
        return None
    try:
        value = Decimal(cleaned)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def exact(value: int | float | str | Decimal | Fraction) -> Exact:
    """``value`` as an exact number.  A float is read as its shortest decimal spelling
    (``0.1`` → ``Decimal('0.1')``), i.e. as a person wrote it, not as its binary value."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, (int, Decimal, Fraction)):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    parsed = parse_decimal(value)
    if parsed is None:
        raise ValueError(f"not a number: {value!r}")
    return parsed


def round_half_up(value: int | float | str | Decimal | Fraction, places: int = 2) -> Decimal:
    """Round the exact ``value`` to ``places`` decimals, ties away from zero.

    >>> round_half_up(Fraction(5, 8)), round_half_up("2.675"), round_half_up(Fraction(2, 3)), round_half_up(0.125)
    (Decimal('0.63'), Decimal('2.68'), Decimal('0.67'), Decimal('0.13'))
    >>> round_half_up(Fraction(-5, 8)), round_half_up(7, 2), round_half_up(Decimal("24.9") / 2)
    (Decimal('-0.63'), Decimal('7.00'), Decimal('12.45'))
    """
    x = Fraction(exact(value))
    scaled = x * 10**places
    n, r = divmod(abs(scaled.numerator), scaled.denominator)
    if 2 * r >= scaled.denominator:
        n += 1
    if scaled < 0:
        n = -n
    return Decimal(n).scaleb(-places)


def as_number(value: Decimal | None) -> int | float | None:
    """A rounded decimal as the JSON number a card shows (a float; the decimal's
    shortest spelling is kept, so ``Decimal('12.45')`` shows as ``12.45``).

    >>> as_number(Decimal("0.60")), as_number(Decimal("12.45")), as_number(None)
    (0.6, 12.45, None)
    """
    if value is None:
        return None
    return float(value)


def median_exact(values: Iterable[Exact]) -> Fraction:
    """The median of exact values (the mean of the two middle ones when their number is
    even), as an exact fraction.

    >>> median_exact([Decimal("12.4"), Decimal("12.5")])
    Fraction(249, 20)
    """
    ordered = sorted(Fraction(v) for v in values)
    if not ordered:
        raise ValueError("median of no values")
    mid = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[mid]
    return (ordered[mid - 1] + ordered[mid]) / 2
