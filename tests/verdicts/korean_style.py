"""What a careful Korean editor would strike out of a sentence the tools write.

:func:`style_problems` names each defect found in one text (an empty list: none);
:func:`kiwi_problems` adds what needs a morphological analyser (kiwipiepy): a particle
or ending glued to a noun that does not take it, a noun form used with ``일 때``, and
spacing that the analyser would change.  ``tests/verdicts/test_korean_style.py`` runs
both over every text the bundled examples make.
"""

from __future__ import annotations

import re
from functools import lru_cache

from verdicts.docs import SECTIONS as _KOREAN_HEADINGS
from verdicts.korean import josa

__all__ = ["style_problems", "kiwi_problems", "strip_quoted", "KINDS", "english_headings"]

#: every defect kind, for the test that each one is caught
KINDS = ("fallback-particle", "semicolon", "repeated-word", "seed-term", "count-word", "noun-form-predicate",
         "logic-word", "unquoted-code", "code-subject", "particle-agreement", "space-before-particle",
         "spacing", "single-quoted-code", "english-heading", "quantifier-particle", "decimal-hours",
         "enum-value-form", "quotation-mark", "translationese", "rejected-term", "card-field-term", "jargon")

_FALLBACK = re.compile(r"이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|와\(과\)|과\(와\)|\(으\)로|\(이\)|\(은\)|\(을\)|\(과\)")
#: the seeds' own words (left: what drifted, right: the seed's term)
SEED_TERMS = {"자기 채점": "자가채점", "자기채점": "자가채점", "검증 메모": "검증 노트"}
_COUNTS = [
    (re.compile(r"(?<![\d,.\-])0\s?(개|곳|명|건|번|가지|줄)(?![\d가-힣]*번째)"), "a count of zero in digits (say 하나도 없어)"),
    (re.compile(r"(?<![\d,.\-])1\s?(개|곳|가지)[이가은는을를]? ?(모두|다|합쳐서|함께)"), "'1개가 모두' (say 하나뿐인)"),
    (re.compile(r"(?<![\d,.])(\d[\d,]*)(개|곳) 가운데 \1\2"), "'3개 가운데 3개' (say 모두)"),
    (re.compile(r"(?<![\d,.\-])1(개|곳|명|건)(?! 이상)"), "a count of one in digits (say 하나, 한 곳)"),
]
_NOUN_FORM = re.compile(r"[가-힣](음|함|짐|림|힘|김|됨|없음|있음|아님)(일|인|이고|이거나|이라면|이면) ")
_LOGIC = re.compile(r"[가-힣] 그리고 [가-힣]")
_REPEATED = re.compile(r"(?<![가-힣])([가-힣]{2,}) \1(?![가-힣])")
#: text between quotes is the creator's (a title, a value, code): not judged
_QUOTED = re.compile(r"`[^`]*`|'[^']*'|\"[^\"]*\"|‘[^’]*’|“[^”]*”|「[^」]*」|『[^』]*』")
_CODE_WORD = re.compile(r"(?<![A-Za-z0-9_`'\"])([A-Za-z]+_[A-Za-z0-9_]+|[A-Z]{1,4}-\d+[A-Za-z0-9\-]*|[A-Z]{1,3}\d{2,})(?![A-Za-z0-9_\-`'\"])")
_CODE_OP = re.compile(r"(?<=\s)(>=|<=|==|!=|=>|&&|\|\||<|>)(?=\s)")
#: (``이`` is left out: after a space it is mostly the determiner, 이 장면)
_SPACE_PARTICLE = re.compile(r"[A-Za-z0-9_`'\"\]] (의|가|은|는|을|를|와|과|에|에서|로|으로|에는|에도|도|만)(?=[\s.,]|$)")
#: ``code``, ``Latin`` or digits followed by a particle
_PARTICLE_AFTER = re.compile(r"(`[^`]+`|'[^']+'|[A-Za-z0-9][A-Za-z0-9\-.,]*)(으로|은|는|이|가|을|를|과|와|로)(?=[\s.,)]|$)")
_PAIR = {"은": "은/는", "는": "은/는", "이": "이/가", "가": "이/가", "을": "을/를", "를": "을/를", "과": "과/와", "와": "과/와",
         "으로": "으로/로", "로": "으로/로"}
_SUBJECT_CODE = re.compile(r"(`[^`]+`)(이|가|은|는)(?=\s)")
#: code (ASCII) between single quotes instead of backquotes: ``'trsut'``, ``'--plant'``
#: (a quote opens after a space, a bracket or the start and closes before Hangul, a
#: space, punctuation or the end, so an apostrophe inside a word is not one)
_SINGLE_QUOTED = re.compile(r"(?:^|(?<=[\s(\[{:,/=]))'([!-&(-~](?:[ -&(-~]*[!-&(-~])?)'(?=[가-힣\s.,;:)\]}]|$)")
#: the English section headings of rule documentation (the docs say 잡는 것 / 왜 문제인가 /
#: 예시 / 고치는 법): ``What it flags:``, ``**Instead.**``
_ENGLISH_HEADING = re.compile(r"(?m)^\s*(?:\*\*)?(What it flags|Why it matters|Example|Instead)(?::|\.\*\*)")


#: a quantifier takes no 까지: ``엔딩 3개 모두까지`` (say 모두로, 모두에)
_QUANTIFIER = re.compile(r"(모두|전부|다)까지(?![가-힣])")
#: hours as a decimal: ``0.13시간`` (say 8분, 1시간 20분)
_DECIMAL_HOURS = re.compile(r"\d\.\d+ ?시간")
#: an enum value put into a tense or read as a bare noun instead of quoted verbatim
#: (docs/decisions.md): ``날씨가 흐렸을 때``, ``등불이 꺼졌고``, ``날씨가 비일 때``
_ENUM_FORM = re.compile(r"[가-힣][이가] (?:[가-힣]*(?:졌|렸|혔|겼)(?:을 때|고 |지 않았을 때)|(?!참|끝|둘|셋|넷)[가-힣](?:일 때|일 경우|인 경우))")
_CODE = re.compile(r"`[^`]*`")
#: the corner brackets are not everyday quotation marks (code in backquotes, text in “…”)
_CORNER = re.compile(r"[『』「」]")
#: literal translations an editor sends back, with what to say instead
TRANSLATIONESE = {
    "카드를 세우": "판정을 정하다", "독자를 가르": "참도 거짓도 될 수 있다", "독자를 가릅": "참도 거짓도 될 수 있다",
    "조합이 모두 닫히": "조합에도 갈 길이 생기다", "조합이 모두 닫힙": "조합에도 갈 길이 생기다",
}
#: docs/glossary.md: one term a concept (left: the term not to use, right: ours)
REJECTED_TERMS = {"컬럼": "열", "사이클": "주기", "페이지": "쪽 (a page of a document)", "셀": "칸"}
_REJECTED = re.compile(r"(?<![가-힣])(컬럼|사이클|셀)(?![가-힣]*\s?수)|(?<!웹 )(?<!사이트의 )페이지")
#: a key of a card in the JSON output is a 필드, never a 칸 or 열 (those are the input tables')
CARD_FIELDS = ("undone", "withheld", "overlapping_branch_id", "overdue_hours", "low_confidence", "reached_from_entry",
               "reaches_ending", "hedge", "summary", "verdict", "fixes", "evidence_items")
_CARD_FIELD = re.compile(r"`(?:" + "|".join(CARD_FIELDS) + r")` (?:칸|열)")
#: words of our own making a creator does not know: 시드 (the task's original), 키트, 결정 N
_JARGON = re.compile(r"(?<![가-힣])(시드|키트)(?![가-힣]*\s?(?:분할|값))|결정 \d+")

def strip_quoted(text: str) -> str:
    """``text`` with every quoted span replaced by a placeholder word (``X``)."""
    return _QUOTED.sub("인용", text)


def style_problems(text: str) -> list[str]:
    """The defects of one emitted text, each as ``kind: detail``."""
    out: list[str] = []
    m = _ENGLISH_HEADING.search(text or "")
    if m:
        out.append(f"english-heading: {m.group(1)!r} (the sections are {'/'.join(_KOREAN_HEADINGS)})")
    if not text or not re.search(r"[가-힣]", text):
        return out
    m = _SINGLE_QUOTED.search(text)
    if m:
        out.append(f"single-quoted-code: {m.group()!r} (quote code in backquotes)")
    bare = strip_quoted(text)
    m = _FALLBACK.search(text)
    if m:
        out.append(f"fallback-particle: {m.group()}")
    for kind, pattern, why in (
            ("quantifier-particle", _QUANTIFIER, "a quantifier takes no 까지 (say 모두로, 모두에)"),
            ("decimal-hours", _DECIMAL_HOURS, "hours as a decimal (say 8분, 1시간 20분)"),
            ("enum-value-form", _ENUM_FORM, "an enum value worded in a tense or as a bare noun (quote it: 날씨가 “비”일 때)"),
            ("quotation-mark", _CORNER, "corner brackets as quotation marks (code in backquotes, text in “…”)"),
            ("rejected-term", _REJECTED, "a term docs/glossary.md rejects"),
            ("card-field-term", _CARD_FIELD, "a card's key is a 필드"),
            ("jargon", _JARGON, "a word of our own making (시드, 키트, 결정 N)")):
        subject = {"quotation-mark": _CODE.sub("", text), "card-field-term": text}.get(kind, bare)
        m = pattern.search(subject)
        if m:
            out.append(f"{kind}: {m.group()!r}: {why}")
    for wrong, right in TRANSLATIONESE.items():
        if wrong in bare:
            out.append(f"translationese: {wrong!r} (say {right})")
            break
    if ";" in bare:
        out.append("semicolon: ';' inside a Korean sentence")
    numbered = iter(range(1 << 30))
    m = _REPEATED.search(_QUOTED.sub(lambda _: f"인용{next(numbered)}", text))
    if m:
        out.append(f"repeated-word: {m.group()}")
    for wrong, right in SEED_TERMS.items():
        if wrong in text:
            out.append(f"seed-term: {wrong} (the seed says {right})")
    for pattern, why in _COUNTS:
        m = pattern.search(bare)
        if m:
            out.append(f"count-word: {m.group()!r}: {why}")
    m = _NOUN_FORM.search(bare + " ")
    if m:
        out.append(f"noun-form-predicate: {m.group().strip()!r}")
    if _LOGIC.search(bare):
        out.append("logic-word: '그리고' joining conditions")
    m = _CODE_WORD.search(bare) or _CODE_OP.search(bare)
    if m:
        out.append(f"unquoted-code: {m.group()!r}")
    for m in _SUBJECT_CODE.finditer(text):
        before = text[:m.start()].rstrip()
        if not before or before[-1] in ".:" or not re.search(r"[가-힣,]$", before):
            out.append(f"code-subject: {m.group()!r}")
            break
    for m in _PARTICLE_AFTER.finditer(text):
        word, particle = m.group(1), m.group(2)
        if particle == "이" and text[m.end():m.end() + 1] == "":
            continue
        expected = josa(word, _PAIR[particle])
        if expected != word + particle:
            out.append(f"particle-agreement: {word + particle!r} (should be {expected!r})")
            break
    m = _SPACE_PARTICLE.search(text)
    if m:
        out.append(f"space-before-particle: {m.group()!r}")
    return out


@lru_cache(maxsize=1)
def _kiwi():
    from kiwipiepy import Kiwi

    return Kiwi()


_NOUN = {"NNG", "NNP", "NNB", "NR", "NP", "SL", "SN", "SH"}
#: endings that may not follow a noun without the copula 이다 in between
_ENDING = {"ETM", "EC", "EF", "EP"}


def kiwi_problems(texts: list[str]) -> list[tuple[str, str]]:
    """``(text, problem)`` for what the analyser finds: an ending glued to a noun (a
    particle that does not fit the noun's last sound reads as one: 선창는), a noun form
    before the copula (꺼짐일 때), and a missing space after a particle (의방에,
    장면이아닌데).  Quoted text is read as one Latin word."""
    kiwi = _kiwi()
    out: list[tuple[str, str]] = []
    bares = [_QUOTED.sub("Q", t) for t in texts]
    for text, bare, tokens in zip(texts, bares, kiwi.tokenize(bares)):
        for before, prev, tok in zip([None] + tokens, tokens, tokens[1:]):
            glued = prev.end == tok.start
            if not glued:
                continue
            if prev.tag in _NOUN and tok.tag in _ENDING:
                out.append((text, f"particle-agreement: {bare[prev.start:tok.end]!r} reads as {prev.form}/{prev.tag}+{tok.form}/{tok.tag}"))
                break
            if prev.tag == "ETN" and tok.tag == "VCP":
                out.append((text, f"noun-form-predicate: {bare[max(0, prev.start - 3):tok.end + 2]!r}"))
                break
            attached = before is not None and before.end == prev.start and before.tag not in ("NP", "VCP")
            if attached and prev.tag.startswith("J") and tok.tag in _WORD_START:
                out.append((text, f"spacing: no space in {bare[max(0, prev.start - 4):tok.end + 2]!r}"))
                break
    return out


#: what starts a new word (after a particle, a space is missing before it)
_WORD_START = {"NNG", "NNP", "NP", "NR", "VV", "VA", "VCN", "MM", "MAG"}


def english_headings(text: str) -> list[str]:
    """The English section headings in a whole output (``explain``, a docs page): each
    line starting ``What it flags:``, ``**Instead.**`` …"""
    return [m.group() .strip() for m in _ENGLISH_HEADING.finditer(text)]
