"""Korean sentence templates of the extraction domain, keyed by verdict.

Each summary is the one polite sentence (``-니다.``) an operator reads before choosing
to approve, correct or reject a cell: the field's label, the value the AI worker gave,
and the page and words of the source it was checked against.  A card whose verdict
stopped at a rule because a value could not be read says so in its summary.  Values
and quoted phrases are in single quotes, code (patterns, ``table.column``) in
backquotes and never the subject; particles come from :func:`verdicts.korean.josa`.
Each hedge is one caveat in one sentence (:class:`verdicts.engine.Caveat`).
"""

from __future__ import annotations

from verdicts.engine import ASIDE, NARROWS, Caveat
from verdicts.korean import josa, number_word

__all__ = ["q", "where"]

#: the worker, as the seed names it (the particle written out: the name is read 워커)
_WORKER = "AI Worker가"


def q(text: str, limit: int = 60) -> str:
    """A value or phrase quoted as written (in backquotes, :func:`verdicts.korean.code`),
    on one line, cut to ``limit`` characters.

    >>> q("홍길동"), q("가" * 70)[-3:]
    ('`홍길동`', '가…`')
    """
    text = " ".join(str(text).split())
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return f"`{text}`"


def where(page: int, doc: str) -> str:
    """``2쪽 사업자등록증``."""
    return f"{page}쪽 {doc}"


# ------------------------------------------------------------------ 필수 칸이 빔


def empty_no_row(*, label: str) -> str:
    return f"{_WORKER} 필수 칸 {josa(label, '을/를')} 이번 실행에서 내지 않아 검토할 값이 없습니다."


def empty_value(*, label: str, source: str | None, page: int | None, doc: str | None) -> str:
    head = f"{_WORKER} 필수 칸 {josa(label, '을/를')} 빈 값으로 냈"
    if source is not None and page is not None:
        return head + f"지만 {where(page, doc or '원문')}에는 {josa(q(source), '이/가')} 적혀 있습니다."
    return head + "습니다."


def hedge_no_row(*, pages: int) -> Caveat:
    if not pages:
        whole = "원문을"
    elif pages <= 10:
        whole = f"이 실행의 원문 {number_word(pages)} 쪽을 모두"
    else:
        whole = f"이 실행의 원문 전체({pages}쪽)를"
    return Caveat(f"인용할 문구도 없으니 운영자가 {whole} 직접 보고 값을 채워야 합니다.", ASIDE)


def hedge_labelled_line(*, page: int, doc: str, line: str) -> Caveat:
    return Caveat(f"{where(page, doc)}의 {q(line)} 줄에 값이 있을 수 있으니 운영자가 그 줄을 보고 값을 채워야 합니다.", ASIDE)


# ------------------------------------------------------------------ 형식이 규칙과 다름


def format_broken(*, label: str, value: str, pattern: str, source: str | None, page: int | None, doc: str | None) -> str:
    head = f"{label} 값 {josa(q(value), '이/가')} 형식 규칙 `{pattern}`에 맞지 않"
    if source is not None and page is not None:
        return head + f"고 {where(page, doc or '원문')}에는 {josa(q(source), '이/가')} 적혀 있습니다."
    return head + "습니다."


# ------------------------------------------------------------------ 근거 문구가 원문에 없음


def no_evidence(*, label: str, value: str) -> str:
    return f"{_WORKER} {label} 값 {josa(q(value), '을/를')} 내면서 근거 쪽수도 인용 문구도 대지 않았습니다."


def no_phrase(*, label: str, value: str, page: int) -> str:
    return f"{_WORKER} {label} 값 {josa(q(value), '을/를')} 내면서 {page}쪽을 가리켰지만 인용 문구는 비워 두었습니다."


def no_page(*, label: str, phrase: str) -> str:
    return f"{label}의 인용 문구 {josa(q(phrase), '은/는')} 근거 쪽수가 비어 있어 원문의 어느 쪽과 대조할지 정할 수 없습니다."


def page_absent(*, label: str, phrase: str, page: int, last: int) -> str:
    """The worker cites a page the run does not have: past its last page, or one missing
    between its pages."""
    pages = f"원문({last}쪽까지)" if page > last else "원문"
    return (f"{label}의 근거 쪽수 {page}쪽은 이 실행의 {pages}에 없는 쪽이라 인용 문구 "
            f"{josa(q(phrase), '을/를')} 대조하지 못했습니다.")


def not_on_page(*, label: str, phrase: str, page: int, doc: str) -> str:
    return f"{label}의 인용 문구 {josa(q(phrase), '이/가')} 근거로 든 {where(page, doc)}에서 그대로 찾아지지 않습니다."


def hedge_other_page(*, page: int, doc: str) -> Caveat:
    return Caveat(f"같은 문구가 {where(page, doc)}에 있어 쪽수만 틀린 칸일 수 있으니 운영자가 {page}쪽을 보고 승인할지 정해야 합니다.",
                  ASIDE)


def hedge_cited_line(*, page: int, line: str) -> Caveat:
    return Caveat(f"{page}쪽에는 {josa(q(line), '이/가')} 적혀 있으니 운영자가 그 줄을 보고 값을 고칠지 정해야 합니다.", ASIDE)


def hedge_value_seen(*, value: str, page: int, doc: str) -> Caveat:
    return Caveat(f"값 {josa(q(value), '은/는')} {where(page, doc)}에서 보이지만 근거를 대지 않은 값이라 원문과 맞음으로 보지 않았습니다.",
                  NARROWS)


# ------------------------------------------------------------------ 원문 값과 다름


def differs(*, label: str, value: str, source: str, page: int, doc: str, digits: bool, position: int) -> str:
    head = f"{label} 값 {josa(q(value), '은/는')} {where(page, doc)}에 적힌 {josa(q(source), '과/와')} "
    if digits:
        return head + f"숫자만 견줘도 {position}번째 숫자부터 다릅니다."
    return head + "다릅니다."


def nothing_to_compare(*, label: str, value: str, phrase: str, page: int, doc: str) -> str:
    return (f"{where(page, doc)}에서 인용 문구 {josa(q(phrase), '을/를')} 찾았지만 그 문구에서 원문 값을 뽑지 못해 "
            f"{label} 값 {josa(q(value), '이/가')} 맞는지 확인할 수 없습니다.")


# ------------------------------------------------------------------ 원문과 맞음


def matches(*, label: str, value: str, source: str, phrase: str, page: int, doc: str, how: str) -> str:
    """``how``: ``same`` (the same text), ``digits`` (the same digits), ``nfkc`` (the same
    once normalised)."""
    head = f"{label} 값 {josa(q(value), '은/는')} {where(page, doc)}"
    if how == "digits":
        return head + f"에 적힌 {josa(q(source), '과/와')} 숫자만 견주면 같습니다."
    if how == "nfkc":
        return head + f"에 적힌 {josa(q(source), '과/와')} 글자 모양만 다를 뿐 같은 값입니다."
    return head + f"의 인용 문구 {q(phrase)}에 적힌 값과 같습니다."
