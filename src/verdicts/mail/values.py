"""Reading the cells the rules compare: moments, days and amounts.

Amounts are compared as numbers (``1200000`` = ``1200000.0`` = ``1,200,000``), days as
days (``2026-03-04`` = ``2026.3.4``), moments as moments.  Each reader answers ``None``
for a text it cannot read; the loader turns that into an input issue.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timezone, tzinfo
from decimal import Decimal

from verdicts.errors import InputError
from verdicts.korean import code, josa
from verdicts.numbers import parse_decimal
from verdicts.safe_text import clean

from .hangul_values import amounts_in

__all__ = ["read_moment", "read_day", "read_amount", "read_fraction", "read_zone"]

_DAY = re.compile(r"^\s*(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})\s*\.?\s*$")


def read_moment(text: str | None) -> datetime | None:
    """An ISO 8601 date-time (``2026-03-02T10:00``, seconds and an offset optional; a
    space for ``T``; ``Z`` for UTC).  The moment keeps its offset; one written without
    an offset is taken as UTC (tables written before the importer wrote offsets:
    ``docs/decisions.md``), so that every moment compares with every other.

    >>> read_moment("2026-03-02T10:00"), read_moment("2026-03-02 19:30:15").second
    (datetime.datetime(2026, 3, 2, 10, 0, tzinfo=datetime.timezone.utc), 15)
    >>> read_moment("2026-03-02T10:00+09:00") == read_moment("2026-03-02T01:00Z")
    True
    >>> read_moment("2026-03-02T10:00+09:00").isoformat(), read_moment("내일"), read_moment("2026-03-02")
    ('2026-03-02T10:00:00+09:00', None, None)
    """
    if text is None:
        return None
    cleaned = text.strip()
    if len(cleaned) < 16 or cleaned[10] not in "Tt ":
        return None
    if cleaned.endswith(("Z", "z")):
        cleaned = cleaned[:-1] + "+00:00"
    try:
        moment = datetime.fromisoformat(cleaned)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=timezone.utc)
    return moment


def read_day(text: str | None) -> date | None:
    """A calendar day: ``2026-03-04``, ``2026-3-4``, ``2026.3.4``, ``2026/03/04``; a
    date-time counts as the day written, in its own offset.

    >>> read_day("2026-03-04") == read_day("2026.3.4") == read_day("2026-03-04T09:00") == read_day("2026-03-04T08:00+09:00")
    True
    >>> read_day("3월 4일"), read_day("2026-02-30")
    (None, None)
    """
    if text is None:
        return None
    match = _DAY.match(text)
    if match:
        try:
            return date(int(match[1]), int(match[2]), int(match[3]))
        except ValueError:
            return None
    moment = read_moment(text)
    return moment.date() if moment is not None else None


def read_amount(text: str | None) -> Decimal | None:
    """An amount of money as a number, thousands separators, a leading ``₩`` and a
    trailing ``원`` allowed, or as Korean writes it when the whole cell is one amount
    (``120만원``, ``1억 2,000만원``: :func:`~.hangul_values.amounts_in`); negative
    amounts are not amounts, nor is a cell holding more than the amount.

    >>> read_amount("1,200,000") == read_amount("1200000.0") == read_amount("₩1,200,000원") == 1200000
    True
    >>> read_amount("120만원") == read_amount("120만") == read_amount("1억 2,000만원") / 100 == 1200000
    True
    >>> read_amount("약 120만원"), read_amount("120만원쯤"), read_amount("-5"), read_amount("백이십만원")
    (None, None, None, None)
    """
    if text is None:
        return None
    stripped = text.strip()
    cleaned = stripped.removeprefix("₩").removesuffix("원").strip()
    value = parse_decimal(cleaned)
    if value is None:
        found = amounts_in(stripped)
        if len(found) == 1 and found[0].start == 0 and found[0].end == len(stripped):
            value = found[0].value
    if value is None or value < 0:
        return None
    return value


def read_fraction(text: str | None) -> Decimal | None:
    """A number from 0 to 1 (a confidence, a threshold), else ``None``.

    >>> read_fraction("0.42"), read_fraction("1"), read_fraction("1.2"), read_fraction("높음")
    (Decimal('0.42'), Decimal('1'), None, None)
    """
    value = parse_decimal(text)
    if value is None or not Decimal(0) <= value <= Decimal(1):
        return None
    return value


def read_zone(name: str) -> tzinfo:
    """The time zone of an IANA name (``Asia/Seoul``, ``UTC``).

    Raises :class:`~verdicts.errors.InputError` naming it when there is no such zone.

    >>> read_zone("Asia/Seoul").utcoffset(datetime(2026, 3, 2))
    datetime.timedelta(seconds=32400)
    """
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError, OSError):
        shown = clean(name if len(name) <= 60 else name[:59] + "…")
        raise InputError(f"시간대 {josa(code(shown), '을/를')} 찾지 못했습니다. `Asia/Seoul`, `UTC`처럼 IANA 시간대 이름을 "
                         "써 주세요.") from None
