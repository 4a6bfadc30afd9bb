"""Korean sentence templates of the mail domain, keyed by verdict.

Every summary is one polite sentence (``-니다.``) that a user who never saw the agent's
prompt can read, with its deciding numbers: amounts as ``120만원``, days as ``3월 14일``,
times in hours and minutes (``15시간 31분``, ``8분``; the card's ``overdue_hours`` keeps
the decimal hours), confidences to two decimals (``0.42``).
A card whose verdict stopped at a rule because a value was unreadable says so.  Hedges
are ``(connective, final)`` clause pairs joined by :func:`verdicts.korean.join_clauses`;
the request to look at a low confidence comes last, since only its final form asks.
"""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Sequence, cast

from verdicts.engine import Clause
from verdicts.korean import code, josa, number_word

__all__ = [
    "won", "day", "hours", "duration", "score", "head", "made_up", "twice", "unconfirmed",
    "late", "as_original", "hedge_also_late", "hedge_also_unconfirmed",
    "hedge_also_twice", "hedge_sure_but_made_up", "hedge_confirmed_by", "hedge_min_unknown", "hedge_low_confidence",
]


def won(amount: Decimal) -> str:
    """An amount as a Korean reader writes it: ``120만원``, ``1억 2,000만원``, ``12,345원``.

    >>> won(Decimal(1200000)), won(Decimal("350000.0")), won(Decimal(120000000)), won(Decimal(12345)), won(Decimal(0))
    ('120만원', '35만원', '1억 2,000만원', '12,345원', '0원')
    """
    if amount != amount.to_integral_value():
        return f"{amount.normalize():,f}원"
    n = int(amount)
    if n == 0 or n % 10000:
        return f"{n:,}원"
    eok, man = divmod(n // 10000, 10000)
    parts = ([f"{eok:,}억"] if eok else []) + ([f"{man:,}만"] if man else [])
    return " ".join(parts) + "원"


def day(value: date, other: date | None = None) -> str:
    """``3월 14일``; with the year when ``other`` (the day it is compared with) is in
    another year.

    >>> day(date(2026, 3, 14)), day(date(2027, 3, 4), date(2026, 3, 4))
    ('3월 14일', '2027년 3월 4일')
    """
    text = f"{value.month}월 {value.day}일"
    if other is not None and other.year != value.year:
        return f"{value.year}년 " + text
    return text


def hours(value: Decimal) -> str:
    """Hours rounded to two decimals, without trailing zeros: ``15.52``, ``12``, ``0.13``.

    >>> hours(Decimal("15.52")), hours(Decimal("12.00")), hours(Decimal("6.50"))
    ('15.52', '12', '6.5')
    """
    text = format(value.quantize(Decimal("0.01")), "f")
    return text.rstrip("0").rstrip(".") if "." in text else text


def duration(value: Decimal) -> str:
    """Hours as a reader says them, to the nearest minute: ``8분``, ``1시간 20분``, ``12시간``
    (a sentence never says ``0.13시간``; the card's ``overdue_hours`` field stays a number).

    >>> duration(Decimal("0.13")), duration(Decimal("1.33")), duration(Decimal("12.00")), duration(Decimal("15.52"))
    ('8분', '1시간 20분', '12시간', '15시간 31분')
    >>> duration(Decimal("0.001")), duration(Decimal("0.5"))
    ('1분 미만', '30분')
    """
    minutes = int((value * 60).quantize(Decimal(1), rounding="ROUND_HALF_UP"))
    if minutes == 0 and value > 0:
        return "1분 미만"
    return _gap(minutes)


def score(value: Decimal) -> str:
    """A confidence or threshold to two decimals: ``0.42``, ``1.00``, ``0.70``."""
    return format(value.quantize(Decimal("0.01")), "f")


def _gap(minutes: int) -> str:
    """A time between two replies: ``39분``, ``1시간 5분``, ``3시간``."""
    if minutes < 60:
        return f"{minutes}분"
    h, m = divmod(minutes, 60)
    return f"{h}시간 {m}분" if m else f"{h}시간"


def head(counterpart: str, kind: str) -> str:
    """What the sentence is about: ``관리사무소 대화에 나간 회신은``."""
    where = f"{counterpart} 대화에" if counterpart else "이 대화에"
    return f"{where} 나간 {josa(kind, '은/는')}"


# ------------------------------------------------------------------ 메일에 없는 사실 지어냄


def _invented_phrase(column: str, sent, original) -> str:
    if column == "extracted_amount":
        return f"원문의 금액 {won(original)} 대신 {won(sent)}" if original is not None else f"원문에 없는 금액 {won(sent)}"
    if original is not None:
        return f"원문의 날짜 {day(original, sent)} 대신 {day(sent, original)}"
    return f"원문에 없는 날짜 {day(sent)}"


def made_up(*, counterpart: str, kind: str, invented: Sequence[tuple[str, object, object]]) -> str:
    """``invented``: ``(column, what was sent, what the original says or None)``."""
    phrases = [_invented_phrase(*item) for item in invented]
    if len(phrases) == 1:
        what = josa(phrases[0], "을/를")
    else:
        what = josa(phrases[0], "과/와") + " " + josa(phrases[1], "을/를")
    return f"{head(counterpart, kind)} {what} 적어 보냈습니다."


# ------------------------------------------------------------------ 같은 대화에 두 번 답장


def twice(*, counterpart: str, replies: int, previous: str, minutes: int) -> str:
    who = f"{counterpart} 대화" if counterpart else "이 대화"
    return (f"{who}의 같은 메일에 답장이 {number_word(replies)} 통 나갔는데, 앞선 답장 {code(previous)} 뒤 {_gap(minutes)} 만에 "
            f"다시 보냈고 그사이 새로 받은 메일은 없습니다.")


# ------------------------------------------------------------------ 확인 받아야 하는데 그냥 보냄


def unconfirmed(*, counterpart: str, kind: str, confidence: Decimal, minimum: Decimal) -> str:
    return (f"{head(counterpart, kind)} 사람 확인을 거쳐야 하는 종류인데 확신도 {josa(score(confidence), '이/가')} "
            f"기준 {score(minimum)}에 못 미친 채 확인 없이 나갔습니다.")


# ------------------------------------------------------------------ 회신 기한 넘겨 처리


def late(*, counterpart: str, kind: str, elapsed: Decimal, limit: Decimal, over: Decimal) -> str:
    return (f"{head(counterpart, kind)} 회신 기준이 {duration(limit)}인데 받은 지 {duration(elapsed)} 뒤에 나가 "
            f"{duration(over)} 늦었습니다.")


# ------------------------------------------------------------------ 원문대로 나감


def as_original(*, counterpart: str, kind: str, kept: Sequence[tuple[str, Decimal | date]], deadline: bool,
                elapsed_minutes: int, limit: Decimal | None) -> str:
    """``kept``: the values the agent wrote that the original says too (``(column, value)``);
    ``elapsed_minutes``: from receiving the message to sending the reply."""
    if kept:
        # the column says which: an amount in ``extracted_amount``, a day in ``extracted_due_date``
        shown = [f"금액 {won(cast(Decimal, v))}" if c == "extracted_amount" else f"날짜 {day(cast(date, v))}"
                 for c, v in kept]
        what = josa(shown[0], "을/를") if len(shown) == 1 else josa(shown[0], "과/와") + " " + josa(shown[1], "을/를")
        values = f"원문과 같은 {what} 적었고"
    else:
        values = "원문에 없는 금액이나 날짜를 넣지 않았고"
    if deadline and limit is not None:
        when = f"받은 지 {_gap(elapsed_minutes)} 만에" if elapsed_minutes else "받자마자"
        timing = f"{when} 나가 기준 {duration(limit)} 안에 들었습니다."
    else:
        timing = f"상대가 회신 기한을 적지 않은 메일이라 받은 지 {_gap(elapsed_minutes)} 뒤에 나간 것도 늦은 것으로 보지 않습니다."
    return f"{head(counterpart, kind)} {values} {timing}"


# ------------------------------------------------------------------ hedges


def hedge_also_late(*, over: Decimal) -> Clause:
    base = f"이 처리는 회신 기한도 {duration(over)} 넘겼지만 판정은 순서가 앞선 사유를 따랐고 넘긴 시간은 {code('overdue_hours')} 필드에 남겨 두었"
    return base + "고", base + "습니다."


def hedge_also_unconfirmed(*, confidence: Decimal, minimum: Decimal) -> Clause:
    base = (f"확신도 {josa(score(confidence), '이/가')} 기준 {score(minimum)}에 못 미쳤는데 사람 확인 없이 나가 "
            "확인 누락에도 걸렸")
    return base + "고", base + "습니다."


def hedge_also_twice(*, previous: str) -> Clause:
    base = f"새 메일 없이 앞선 답장 {code(previous)} 뒤에 다시 나간 답장이라 두 번 답장에도 걸렸"
    return base + "고", base + "습니다."


def hedge_sure_but_made_up(*, confidence: Decimal) -> Clause:
    base = f"확신도가 최댓값 {score(confidence)}인 채로 원문에 없는 값이 나갔으므로 확신도만 보고는 이런 답장을 거를 수 없"
    return base + "고", base + "습니다."


def hedge_confirmed_by(*, confidence: Decimal, minimum: Decimal, who: str) -> Clause:
    base = f"확신도 {josa(score(confidence), '이/가')} 기준 {score(minimum)}에 못 미쳤지만 {who}의 확인을 받고 나갔"
    return base + "고", base + "습니다."


def hedge_min_unknown() -> Clause:
    base = f"{code('action_policy')}의 {code('min_confidence')} 칸이 비어 있거나 읽을 수 없어 확신도를 기준과 견주지 못했"
    return base + "고", base + "습니다."


def hedge_low_confidence(*, confidence: Decimal, minimum: Decimal) -> Clause:
    base = (f"확신도 {josa(score(confidence), '이/가')} 기준 {score(minimum)}에 못 미쳤지만 사람 확인 대상이 아닌 종류라 "
            f"판정은 그대로 두고 {code('low_confidence')} 값만 참으로 두었")
    return base + "고", base + "으니 한 번 살펴보시기 바랍니다."
