"""Korean sentence templates of the residue domain, keyed by answer.

Every summary is one polite sentence with its deciding texts between “” and their
count; particles go through :func:`verdicts.korean.josa` on the text itself, so a
quoted text takes the particle its last sound asks for.  Hedges are
``(connective, final)`` clause pairs joined by :func:`verdicts.korean.join_clauses`.
"""

from __future__ import annotations

from verdicts.engine import Clause
from verdicts.korean import josa

__all__ = [
    "quoted", "template_left", "body_blank", "outside_left", "satellite_only", "complete",
    "hedge_unseen", "hedge_replaced_data", "hedge_unboxed", "SUMMARIES",
]


def quoted(text: str, pair: str | None = None) -> str:
    """``text`` between quotation marks (“…”), followed by the right form of ``pair``
    (the corner brackets “” are the seed's evidence line's, not a sentence's).

    >>> quoted("기본 타이틀", "이/가"), quoted("20XX년", "이/가"), quoted("STEP 1", "은/는")
    ('“기본 타이틀”이', '“20XX년”이', '“STEP 1”은')
    """
    text = " ".join(text.split())
    if pair is None:
        return f"“{text}”"
    return f"“{text}”{josa(text, pair)[len(text):]}"


def _more(count: int) -> str:
    return f" 등 {count}개" if count > 1 else ""


def template_left(texts: list[str]) -> str:
    """>>> template_left(["기본 타이틀", "A항목"])
    '경계 안에 템플릿 글 “기본 타이틀” 등 2개가 그림에 남아 있습니다.'
    """
    if len(texts) > 1:
        return f"경계 안에 템플릿 글 {quoted(texts[0])}{_more(len(texts))}가 그림에 남아 있습니다."
    return f"경계 안에 템플릿 글 {quoted(texts[0], '이/가')} 그림에 남아 있습니다."


def body_blank(page_text: str, shown: str | None, count: int) -> str:
    """>>> body_blank("시장 조사", "설명을 입력해주세요.", 1)
    '이 장의 내용 “시장 조사”가 들어갈 본문 자리에 임시 문구 “설명을 입력해주세요.”만 보입니다.'
    >>> body_blank("시장 조사", None, 2)
    '이 장의 내용 “시장 조사” 등 2개가 들어갈 본문 자리가 비어 있습니다.'
    """
    what = f"{quoted(page_text)}{_more(count)}가" if count > 1 else quoted(page_text, "이/가")
    if shown is None:
        return f"이 장의 내용 {what} 들어갈 본문 자리가 비어 있습니다."
    return f"이 장의 내용 {what} 들어갈 본문 자리에 임시 문구 {quoted(shown)}만 보입니다."


def outside_left(text: str, kind: str, count: int) -> str:
    """>>> outside_left("20XX년", "차트·표·다이어그램 데이터", 1)
    '경계 밖에 차트·표·다이어그램 데이터 “20XX년”이 그림에 남아 있습니다.'
    """
    what = f"{quoted(text)}{_more(count)}가" if count > 1 else quoted(text, "이/가")
    return f"경계 밖에 {kind} {what} 그림에 남아 있습니다."


def satellite_only(text: str, count: int) -> str:
    """>>> satellite_only("제목을 입력해주세요.", 1)
    '임시 문구 “제목을 입력해주세요.”는 위성 자리나 남는 자리에만 있어 결함으로 세지 않습니다.'
    """
    what = f"{quoted(text)}{_more(count)}는" if count > 1 else quoted(text, "은/는")
    return f"임시 문구 {what} 위성 자리나 남는 자리에만 있어 결함으로 세지 않습니다."


def complete(count: int, not_counted: int = 0) -> str:
    """``not_counted``: texts read that are neither user text nor structural tokens and
    still leave nothing (template text of a chart whose cells were replaced).

    >>> complete(3), complete(0)
    ('그림에서 읽은 글 3개가 모두 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다.', '그림에서 읽은 글이 없고 비어 보이는 본문 자리도 없습니다.')
    >>> complete(5, 1)
    '그림에서 읽은 글 5개 가운데 하나는 남은 것으로 세지 않는 글이고 나머지는 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다.'
    >>> complete(1)
    '그림에서 읽은 글 하나가 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다.'
    """
    if count == 0:
        return "그림에서 읽은 글이 없고 비어 보이는 본문 자리도 없습니다."
    if not_counted:
        some = "하나는" if not_counted == 1 else f"{not_counted}개는"
        if not_counted == count:
            return f"그림에서 읽은 글 {'하나' if count == 1 else f'{count}개 모두'}가 남은 것으로 세지 않는 글이라 남은 자리가 없습니다."
        return (f"그림에서 읽은 글 {count}개 가운데 {some} 남은 것으로 세지 않는 글이고 "
                "나머지는 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다.")
    if count == 1:
        return "그림에서 읽은 글 하나가 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다."
    return f"그림에서 읽은 글 {count}개가 모두 이 장의 내용이나 구조 토큰이어서 남은 자리가 없습니다."


def hedge_unseen(text: str, count: int) -> Clause:
    what = f"{quoted(text)}{_more(count)}가" if count > 1 else quoted(text, "이/가")
    return (f"이 장의 내용 {what} 그림에 보이지 않지만 비어 보이는 본문 자리가 없어 빈 자리로 세지 않았고",
            f"이 장의 내용 {what} 그림에 보이지 않지만 비어 보이는 본문 자리가 없어 빈 자리로 세지 않았습니다.")


def hedge_replaced_data(text: str) -> Clause:
    return (f"경계 밖 {quoted(text, '은/는')} 칸이 바뀐 표나 차트의 글이라 남은 데이터로 세지 않았고",
            f"경계 밖 {quoted(text, '은/는')} 칸이 바뀐 표나 차트의 글이라 남은 데이터로 세지 않았습니다.")


def hedge_unboxed(count: int) -> Clause:
    what = "위치 없이 주어진 글 하나는" if count == 1 else f"위치 없이 주어진 글 {count}개는"
    return (f"{what} 글자만 보고 자리를 정했고", f"{what} 글자만 보고 자리를 정했습니다.")


#: the summary template of each answer key
SUMMARIES = {
    "template_left": template_left, "body_blank": body_blank, "outside_left": outside_left,
    "satellite_only": satellite_only, "complete": complete,
}
