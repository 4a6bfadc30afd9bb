"""What the rules read from a cell: the source value taken from the evidence phrase, the
comparison by value type, and where else in the run the phrase or the value appears."""

from __future__ import annotations

import re
import unicodedata

from .model import DIGIT_TYPES, Cell, Page

__all__ = ["source_value_of", "comparable", "same_value", "first_difference", "phrase_page", "value_page",
           "pattern_matches", "line_with", "labelled_line"]

_SEPARATOR = " : "


def source_value_of(phrase: str, value_type: str | None) -> str | None:
    """The value an evidence phrase states: the part after `` : `` when there is one,
    else its last whitespace-separated word; for ``amount_krw`` without a trailing
    ``원``.  ``None`` when nothing is left.

    >>> source_value_of("등록번호 : 123-45-67891", "biz_no"), source_value_of("대표이사 홍길동", "text")
    ('123-45-67891', '홍길동')
    >>> source_value_of("시공능력평가액 : 8,450,000,000원", "amount_krw"), source_value_of("합계 : 원", "amount_krw")
    ('8,450,000,000', None)
    """
    if _SEPARATOR in phrase:
        value = phrase.split(_SEPARATOR, 1)[1].strip()
    else:
        words = phrase.split()
        value = words[-1] if words else ""
    if value_type == "amount_krw" and value.endswith("원"):
        value = value[:-1].rstrip()
    return value or None


def comparable(value: str, value_type: str) -> str:
    """The form two values are compared in: digits only for ``biz_no``, ``amount_krw``,
    ``phone``, ``date``; NFKC for ``text`` and ``grade`` (``㈜`` reads ``(주)``).

    >>> comparable("123-45-67891", "biz_no"), comparable("㈜한빛", "text")
    ('1234567891', '(주)한빛')
    """
    normal = unicodedata.normalize("NFKC", value)
    if value_type in DIGIT_TYPES:
        return "".join(ch for ch in normal if "0" <= ch <= "9")
    return normal.strip()


def same_value(a: str, b: str, value_type: str) -> bool:
    return comparable(a, value_type) == comparable(b, value_type)


def first_difference(a: str, b: str) -> int:
    """The 1-based position of the first character where ``a`` and ``b`` differ."""
    for i, (x, y) in enumerate(zip(a, b), start=1):
        if x != y:
            return i
    return min(len(a), len(b)) + 1


def pattern_matches(pattern, value: str) -> bool:
    """Whether the compiled ``pattern`` matches ``value`` entirely."""
    return pattern.fullmatch(value) is not None


def phrase_page(cell: Cell, phrase: str, skip: int | None = None) -> Page | None:
    """The first page of the cell's run (by number) other than ``skip`` whose text holds
    ``phrase`` verbatim."""
    for number in sorted(cell.pages):
        page = cell.pages[number]
        if number != skip and page.text is not None and phrase in page.text:
            return page
    return None


def value_page(cell: Cell, value: str) -> Page | None:
    """The first page of the cell's run that states ``value`` as a word of its own."""
    if not value.strip():
        return None
    word = re.compile(r"(?<!\S)" + re.escape(value.strip()) + r"(?!\S)")
    for number in sorted(cell.pages):
        page = cell.pages[number]
        if page.text is not None and word.search(page.text):
            return page
    return None


def line_with(page: Page, key: str, limit: int = 60) -> str | None:
    """The first line of ``page`` that holds ``key`` (stripped, cut to ``limit``
    characters), for a hedge that shows what the cited page says instead."""
    if page.text is None or not key.strip():
        return None
    for line in page.text.splitlines():
        if key in line:
            line = " ".join(line.split())
            return line if len(line) <= limit else line[: limit - 1] + "…"
    return None


def labelled_line(cell: Cell, label: str, limit: int = 60) -> tuple[Page, str] | None:
    r"""The first line of the run's pages whose key (before `` : ``) and the field's label
    begin alike (``대표자`` for ``대표자명``), for a hedge that tells the operator where an
    empty field's value may stand.

    >>> from .model import FieldRule
    >>> page = Page("R", 1, "사업자등록증", "사업자등록증\n대표자 : 이서준", 3)
    >>> rule = FieldRule("ceo_name", "대표자명", "text", True, None, None, 2)
    >>> labelled_line(Cell("R", rule, None, {1: page}), "대표자명")[1]
    '대표자 : 이서준'
    """
    for number in sorted(cell.pages):
        page = cell.pages[number]
        for line in (page.text or "").splitlines():
            key = line.split(_SEPARATOR, 1)[0].strip() if _SEPARATOR in line else ""
            if len(key) >= 2 and (label.startswith(key) or key.startswith(label)):
                line = " ".join(line.split())
                return page, (line if len(line) <= limit else line[: limit - 1] + "…")
    return None
