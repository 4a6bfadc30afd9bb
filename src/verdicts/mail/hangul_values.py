"""Reading amounts and dates as Korean mail writes them, for the mailbox importer.

``120만원``, ``1,200,000원``, ``1.2억``, ``3천만 원``, ``₩1,200,000`` (or the full-width
``￦`` that EUC-KR and CP949 carry), ``1억 2,000만원``;
``3월 4일``, ``2026-03-04``, ``2026.3.4``, ``3/4``, ``내일``, ``모레``, ``다음 주 금요일``
(relative to the day the mail was received).  A body may hold several candidates: the
one next to a word that names a deadline or an amount wins, and the choice is noted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from typing import Generic, TypeVar

from verdicts.korean import josa

__all__ = ["Found", "amounts_in", "dates_in", "pick_amount", "pick_date", "repr_text"]

_V = TypeVar("_V")

_UNITS = {"억": 10**8, "천만": 10**7, "백만": 10**6, "십만": 10**5, "만": 10**4, "천": 10**3}
_NUM = r"\d[\d,]*(?:\.\d+)?"
_AMOUNT = re.compile(
    rf"(?P<won_sign>[₩￦]\s*)?(?P<body>{_NUM}\s*(?:억|천만|백만|십만|만|천)?(?:\s*{_NUM}\s*(?:천만|백만|십만|만|천))*)"
    r"(?P<suffix>\s*원)?"
)
_PART = re.compile(rf"({_NUM})\s*(억|천만|백만|십만|만|천)?")

_ISO = re.compile(r"(?<!\d)(\d{4})\s*[-./]\s*(\d{1,2})\s*[-./]\s*(\d{1,2})(?!\d)")
_MONTH_DAY = re.compile(r"(?<!\d)(\d{1,2})\s*월\s*(\d{1,2})\s*일")
_SLASH = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?![\d/])")
_WEEKDAYS = "월화수목금토일"
_RELATIVE = re.compile(rf"(오늘|내일|모레|글피|(이번|다음|다다음)\s*주\s*([{_WEEKDAYS}])요일)")

_DEADLINE_WORDS = ("마감", "기한", "까지", "납기", "제출일", "납부일", "due")
_AMOUNT_WORDS = ("금액", "청구", "납부", "결제", "견적", "비용", "회비", "총액", "합계")


@dataclass(frozen=True)
class Found(Generic[_V]):
    """A value read from a text: the value, where it stands, the text it was read from."""

    value: _V
    start: int
    end: int
    text: str


def _number(text: str) -> Decimal | None:
    try:
        return Decimal(text.replace(",", ""))
    except InvalidOperation:
        return None


def amounts_in(text: str) -> list[Found[Decimal]]:
    """Every amount of money in ``text``: a number with ``원``, ``₩`` or a unit of
    만 or 억 (``3천 명`` is not money, ``3천원`` is).

    >>> [f.value for f in amounts_in("견적은 120만원, 계약금 ₩300,000, 총 1억 2,000만원과 3천만 원입니다")]
    [Decimal('1200000'), Decimal('300000'), Decimal('120000000'), Decimal('30000000')]
    >>> [f.value for f in amounts_in("1.2억 원 / 1,200,000원 / 회의 3시")]
    [Decimal('120000000.0'), Decimal('1200000')]
    """
    found: list[Found[Decimal]] = []
    for match in _AMOUNT.finditer(text):
        body = match.group("body")
        parts = _PART.findall(body)
        has_unit = any(unit in ("억", "천만", "백만", "십만", "만") for _, unit in parts)
        if not (match.group("won_sign") or match.group("suffix") or has_unit):
            continue
        total = Decimal(0)
        for number, unit in parts:
            value = _number(number)
            if value is None:
                break
            total += value * _UNITS.get(unit, 1)
        else:
            found.append(Found(total, match.start(), match.end(), match.group(0).strip()))
    return found


def _next_weekday(base: date, weekday: int, weeks_ahead: int) -> date:
    monday = base - timedelta(days=base.weekday())
    return monday + timedelta(weeks=weeks_ahead, days=weekday)


def dates_in(text: str, received: date) -> list[Found[date]]:
    """Every day named in ``text``, relative words read from ``received``; a month and
    day without a year take the received year (the next year when that day has passed
    by more than half a year).

    >>> r = date(2026, 3, 2)
    >>> [str(f.value) for f in dates_in("3월 4일까지, 2026.3.14 또는 3/20, 내일, 다음 주 금요일", r)]
    ['2026-03-14', '2026-03-04', '2026-03-20', '2026-03-03', '2026-03-13']
    """
    found: list[Found[date]] = []
    taken: list[tuple[int, int]] = []

    def add(value: date | None, match: re.Match) -> None:
        if value is None or any(s < match.end() and match.start() < e for s, e in taken):
            return
        taken.append((match.start(), match.end()))
        found.append(Found(value, match.start(), match.end(), match.group(0)))

    def make(year: int, month: int, day: int) -> date | None:
        try:
            return date(year, month, day)
        except ValueError:
            return None

    def month_day(month: int, day: int) -> date | None:
        value = make(received.year, month, day)
        if value is not None and (received - value).days > 183:
            value = make(received.year + 1, month, day)
        return value

    for match in _ISO.finditer(text):
        add(make(int(match[1]), int(match[2]), int(match[3])), match)
    for match in _MONTH_DAY.finditer(text):
        add(month_day(int(match[1]), int(match[2])), match)
    for match in _SLASH.finditer(text):
        add(month_day(int(match[1]), int(match[2])), match)
    for match in _RELATIVE.finditer(text):
        word = match[1]
        if word in ("오늘", "내일", "모레", "글피"):
            value = received + timedelta(days=("오늘", "내일", "모레", "글피").index(word))
        else:
            value = _next_weekday(received, _WEEKDAYS.index(match[3]), ("이번", "다음", "다다음").index(match[2]))
        add(value, match)
    return found


def _distance(text: str, found: Found[_V], words: tuple[str, ...], reach: int = 12) -> int | None:
    """Characters between ``found`` and the closest of ``words`` within ``reach``."""
    best = None
    for word in words:
        for match in re.finditer(re.escape(word), text[max(0, found.start - reach - len(word)): found.end + reach]):
            offset = max(0, found.start - reach - len(word))
            start, end = match.start() + offset, match.end() + offset
            gap = found.start - end if end <= found.start else start - found.end if start >= found.end else 0
            if gap <= reach and (best is None or gap < best):
                best = gap
    return best


def repr_text(text: str) -> str:
    """A text quoted in a note, as written: ```3월 4일```."""
    return f"`{text}`"


def _pick(text: str, found: list[Found[_V]], words: tuple[str, ...], what: str) -> tuple[Found[_V] | None, str | None]:
    distinct = list({f.value: f for f in found}.values())
    if not distinct:
        return None, None
    if len(distinct) == 1:
        return distinct[0], None
    near = sorted((d, i) for i, f in enumerate(distinct) if (d := _distance(text, f, words)) is not None)
    chosen = distinct[near[0][1]] if near else distinct[0]
    shown = ", ".join(repr_text(f.text) for f in distinct)
    meaning = "기한" if what == "날짜" else "금액"
    how = f"{meaning}을 뜻하는 말이 가장 가까이 있는" if near else "본문에서 가장 먼저 나온"
    return chosen, f"본문에 {what} 후보가 {josa(shown, '으로/로')} 여럿이라 {how} {josa(repr_text(chosen.text), '을/를')} 골랐습니다."


def pick_amount(text: str) -> tuple[Found[Decimal] | None, str | None]:
    """The amount a body states, and a note when several were there."""
    return _pick(text, amounts_in(text), _AMOUNT_WORDS, "금액")


def pick_date(text: str, received: date) -> tuple[Found[date] | None, str | None]:
    """The day a body states as its deadline, and a note when several were there."""
    return _pick(text, sorted(dates_in(text, received), key=lambda f: f.start), _DEADLINE_WORDS, "날짜")
