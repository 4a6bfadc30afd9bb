"""Small helpers for writing Korean sentences from templates.

Particles depend on whether the preceding word ends in a consonant (받침): ``은/는``,
``이/가``, ``을/를``, ``과/와``, ``으로/로``.  Templates call :func:`josa` so that a scene
title or a flag label reads naturally whatever it is.
"""

from __future__ import annotations

import re
from typing import Iterable

__all__ = ["code", "josa", "has_final_consonant", "is_polite_sentence", "polite_sentences", "polite_endings", "join_clauses",
           "number_word"]

# How the last character of a non-Hangul word is read aloud: does it end in a consonant,
# and is that consonant ㄹ (which takes 로, not 으로)?
_DIGIT_FINAL = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ", "8": "ㄹ", "9": ""}
#: a round number is read by its last unit: 십, 백, 천, 만 (십만, 백만, 천만), 억
_ZEROS_FINAL = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ", 4: "ㄴ", 5: "ㅂ", 6: "ㄱ", 7: "ㄴ", 8: "ㄱ"}
# an English word is read as Korean loanwords are written: -l is ㄹ (hotel 호텔), -m ㅁ,
# -n ㄴ, -ng ㅇ; -r, -er, -or are not sounded (Tower 타워, weather 웨더); other final
# consonants get a vowel (key 키, desk 데스크, set 세트)
_LATIN_FINAL = {"l": "ㄹ", "m": "ㅁ", "n": "ㄴ"}
# a word of capitals is spelled out letter by letter (SQL 에스큐엘, ROM 롬 but HTML 에이치티엠엘)
_LETTER_FINAL = {"L": "ㄹ", "M": "ㅁ", "N": "ㄴ", "R": "ㄹ"}
_JONG = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ",
         "ㅆ", "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]

_PAIRS = {
    "은/는": ("은", "는"),
    "이/가": ("이", "가"),
    "을/를": ("을", "를"),
    "과/와": ("과", "와"),
    "이나/나": ("이나", "나"),
    "이라/라": ("이라", "라"),
    "으로/로": ("으로", "로"),
    "이고/고": ("이고", "고"),
    "이며/며": ("이며", "며"),
}


_TRAILING = re.compile(r"[\s'\"’”\]}>.,!?]+$")
#: characters that may end a word without being read (stripped before looking)
_SKIPPED_ENDS = frozenset(" \t\r\n\f\v'\"’”]}>.,!?)")
_NONZERO_DIGITS = frozenset("123456789")


def _final(word: str) -> str:
    """The final consonant of how ``word`` is read ('' for a vowel ending)."""
    ch = word[-1:]
    if ch and ch not in _SKIPPED_ENDS and not ch.isspace():
        stripped = word  # the common case: nothing to strip (ids, titles, numbers)
    else:
        stripped = word.rstrip()
        # a particle after a parenthesis attaches to the word before it: BR-14(…)를
        while stripped.endswith(")") and "(" in stripped:
            stripped = stripped[: stripped.rindex("(")].rstrip()
        stripped = _TRAILING.sub("", stripped)
        if not stripped:
            return ""
        ch = stripped[-1]
    code = ord(ch)
    if 0xAC00 <= code <= 0xD7A3:
        return _JONG[(code - 0xAC00) % 28]
    if ch in _NONZERO_DIGITS:
        # a number ending in 1–9 is read by its last digit (after a decimal point too)
        return _DIGIT_FINAL[ch]
    if ch == "0":  # (1–9 above; other characters Python calls digits, such as ², are not read as numbers)
        return _number_final(stripped)
    if ch in "`」』”":  # quoted code, a quoted title or value: read what is quoted
        inner = stripped[:-1]
        opener = {"`": "`", "」": "「", "』": "『", "”": "“"}[ch]
        if opener in inner:
            inner = inner[inner.rindex(opener) + 1:]
        if ch == "`":
            # code is read to its last word: a closing parenthesis or quote of a
            # condition is not an annotation (`a or (b <= 6)`으로, `lamp == "꺼짐"`을)
            inner = inner.rstrip("\"') ") or inner
        return _final(inner) if inner else ""
    return _latin_final(stripped)


def _number_final(text: str) -> str:
    """The final consonant of the number ``text`` ends with, read in Sino-Korean."""
    found = re.search(r"[0-9,]*[0-9]$", text)
    assert found is not None, text  # the caller saw a digit at the end
    digits = found.group().replace(",", "")
    if digits.strip("0") == "":
        return _DIGIT_FINAL["0"]
    if len(text) > len(digits) and text[-len(digits) - 1:-len(digits)] == ".":
        return _DIGIT_FINAL.get(digits[-1], "")  # after a decimal point each digit is read alone
    zeros = len(digits) - len(digits.rstrip("0"))
    if zeros:
        return _ZEROS_FINAL.get(zeros % 8 or 8, "ㄱ")
    return _DIGIT_FINAL.get(digits[-1], "")


def _latin_final(text: str) -> str:
    """The final consonant of how the Latin word at the end of ``text`` is read."""
    m = re.search(r"[A-Za-z]+$", text)
    if not m:
        return ""
    word = m.group()
    # an abbreviation is spelled letter by letter (SQL 에스큐엘, HTML, API); a longer
    # word in capitals with a vowel is a word (NAME 네임, FILE 파일, a placeholder)
    if word.isupper() and (len(word) <= 3 or not re.search(r"[AEIOU]", word)):
        return _LETTER_FINAL.get(word[-1], "")
    low = word.lower()
    if low.endswith("ng"):
        return "ㅇ"
    # a short vowel before a final stop keeps it: luck 럭, robot 로봇, web 웹
    stop = re.search(r"(?:^|[^aeiou])[aeiou](ck|[ptkb])$", low)
    if stop:
        return {"ck": "ㄱ", "k": "ㄱ", "p": "ㅂ", "b": "ㅂ", "t": "ㅅ"}[stop.group(1)]
    if low.endswith("ype"):
        return "ㅂ"  # type 타입
    if len(low) >= 2 and low[-1] == "e" and low[-2] not in "aeiouy":
        # a silent e: name 네임, code 코드, file 파일
        return _LATIN_FINAL.get(low[-2], "") if low[-2] in "lmn" else ""
    return _LATIN_FINAL.get(low[-1], "")


def code(text: object) -> str:
    """``text`` quoted as code (an id, a column name, a condition as written): ```BR-13```.

    Sentences never let code stand bare; :func:`josa` reads through the quotes
    (```BR-13```을, ```Tower```는).
    """
    return f"`{text}`"


def has_final_consonant(word: str) -> bool:
    return _final(word) != ""


def josa(word: str, pair: str) -> str:
    """``word`` followed by the right form of ``pair`` (e.g. ``"은/는"``).

    >>> josa("등대", "은/는"), josa("선장의 고백", "이/가"), josa("항구", "으로/로"), josa("SC-1", "으로/로")
    ('등대는', '선장의 고백이', '항구로', 'SC-1로')
    >>> josa("`trust == 0 or (trust <= 6)`", "으로/로"), josa('`lamp == "꺼짐"`', "을/를")
    ('`trust == 0 or (trust <= 6)`으로', '`lamp == "꺼짐"`을')
    >>> josa("`storygraph explain NAME`", "으로/로"), josa("`--dry-run`", "으로/로"), josa("“비”", "이/가")
    ('`storygraph explain NAME`으로', '`--dry-run`으로', '“비”가')
    """
    key = (word, pair)
    done = _JOSA_DONE.get(key)
    if done is not None:
        return done
    with_final, without = _PAIRS[pair]
    final = _final(word)
    if pair == "으로/로":
        done = word + (without if final in ("", "ㄹ") else with_final)
    else:
        done = word + (with_final if final else without)
    if len(_JOSA_DONE) >= _JOSA_KEEP:
        _JOSA_DONE.clear()
    _JOSA_DONE[key] = done
    return done


#: words with their particle, remembered: a large lint names each scene and branch in
#: several sentences (bounded, so a long-running process does not grow without end)
_JOSA_DONE: dict[tuple[str, str], str] = {}
_JOSA_KEEP = 1 << 15


_POLITE_END = re.compile(r"(니다|세요|지요|까요)\.$")


def is_polite_sentence(text: str | None) -> bool:
    """True when ``text`` is one Korean sentence in polite style ending in ``-니다.``.

    One sentence: no polite sentence ending (``-니다``, ``-세요``, ``-지요``, ``-까요``)
    followed by ``. ? !`` and a space before the final full stop, and some Hangul in it.
    Only such an ending is a break: a sentence written from templates ends each
    sentence so, while the user's own text quoted in it — a title such as
    ``Do you know him? Yes``, a condition, anything between quotes — is part of the
    sentence, whatever punctuation it holds.

    >>> is_polite_sentence("Do you know him? Yes에서 나가는 분기가 없습니다.")
    True
    >>> is_polite_sentence("원래 '끝났습니다. 정말'라고 적혀 있습니다.")
    True
    >>> is_polite_sentence("길이 없습니다. 다시 보세요.")
    False
    >>> is_polite_sentence("값 `끝났습니다. 정말`은 형식에 맞지 않습니다.")
    True
    """
    if not text or text != text.strip() or "\n" in text:
        return False
    if not _POLITE_END.search(text):
        return False
    if not re.search(r"[\uac00-\ud7a3]", text):
        return False
    return not _BREAK.search(_QUOTED.sub("", text[:-1]))


_POLITE_ENDINGS = ("니다.", "세요.", "지요.", "까요.")
#: a sentence break: a polite ending, then ``. ? !`` and a space
_BREAK = re.compile(r"(니다|니까|세요|지요|까요)[.?!]\s")
#: user text between quotes or quoted as code in backquotes (never a break)
_QUOTED = re.compile(r"`[^`\n]*`|'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”")


def polite_sentences(texts: list, quoted: Iterable[str] = ()) -> list[bool]:
    """``[is_polite_sentence(t) for t in texts]``, with cheap string tests first.

    A text ending politely, starting with no whitespace, without line break, ``?``,
    ``!`` or any full stop but the last one cannot hold a sentence break, so the regular
    expressions of :func:`is_polite_sentence` only run on the few texts that could.

    ``quoted``: the user's own texts that a sentence may name bare (a scene's title, a
    flag's label).  A title is a title: a full stop or a line break inside one is not a
    sentence break of ours, so such a text is read as one word before the test (only
    those holding a break or a line break matter, and only texts that fail are looked
    at again).

    >>> polite_sentences(["길이 없습니다.", " 길이 없습니다.", "길이 없다.", "그렇습니까? 그렇습니다.", None])
    [True, False, False, False, False]
    >>> polite_sentences(["배를 탑니다. 그리고에서 나가는 분기가 없습니다."], quoted=["배를 탑니다. 그리고"])
    [True]
    """
    out = [
        (t.endswith(_POLITE_ENDINGS) and not t[:1].isspace() and "\n" not in t
         and (("?" not in t and "!" not in t and t.count(".") == 1) or not _BREAK.search(_QUOTED.sub("", t[:-1]))))
        if type(t) is str else is_polite_sentence(t)
        for t in texts
    ]
    if all(out):
        return out
    risky = sorted({q for q in quoted if type(q) is str and q and (_BREAK.search(q + " ") or "\n" in q or "\r" in q)},
                   key=len, reverse=True)
    if not risky:
        return out
    for i, ok in enumerate(out):
        text = texts[i]
        if ok or type(text) is not str:
            continue
        for q in risky:
            if q in text:
                text = text.replace(q, "이름")
        if text != texts[i]:
            out[i] = is_polite_sentence(text)
    return out


def polite_endings(texts: list) -> list[bool]:
    """Whether each text ends in the polite style (``-니다.``, ``-세요.``, ``-지요.``,
    ``-까요.``), however many sentences it holds — what a seed asks when it says only
    “존댓말로 끝나는지”.

    >>> polite_endings(["길이 없습니다. 다시 보세요.", "길이 없다.", " 길이 없습니다. ", None])
    [True, False, True, False]
    """
    return [type(t) is str and bool(_POLITE_END.search(t.strip())) for t in texts]


def join_clauses(clauses: list[tuple[str, str]]) -> str | None:
    """Join several hedges into one sentence.

    Each clause is ``(connective_form, final_form)``: the connective form ends so that
    another clause may follow (``…않았고``), the final form ends the sentence
    (``…않았습니다.``).  Returns ``None`` for no clauses.
    """
    if not clauses:
        return None
    parts = [c[0] for c in clauses[:-1]] + [clauses[-1][1]]
    return ", ".join(parts)


_NATIVE = {1: "한", 2: "두", 3: "세", 4: "네", 5: "다섯", 6: "여섯", 7: "일곱", 8: "여덟", 9: "아홉", 10: "열"}


def number_word(n: int) -> str:
    """The native Korean counting word used before a counter (세 엔딩), digits beyond ten."""
    return _NATIVE.get(n, str(n))
