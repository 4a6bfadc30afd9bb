"""Korean sentence templates of storygraph, keyed by verdict.

Every summary is one polite sentence (``-니다.``) that a creator who never saw this tool
can read: scenes by ``title``, flags by ``label``, with the deciding numbers.  Each
hedge is one caveat, one sentence (:class:`verdicts.engine.Caveat`), weighed by how much
it limits the verdict; a card with several shows them one a sentence.
"""

from __future__ import annotations

import re
from contextvars import ContextVar
from typing import Mapping, Sequence

from verdicts.engine import ASIDE, NARROWS, UNKNOWN, Caveat
from verdicts.korean import code, josa, number_word
from verdicts.records import Frozen

from .conditions import And, Compare, Const, Expr, FlagTrue, Not, Or, types_fit
from .model import Flag

__all__ = ["describe_condition", "id_list", "Caveat", "Cond", "Pred", "when"]

# ------------------------------------------------------------------ conditions in words
#
# A condition is worded as a Korean predicate with its subject ("열쇠가 있다", "신뢰도가
# 3 이상이다", "등불이 꺼졌다"), kept in the five endings sentences need: ``when`` (있을
# 때), ``adn`` (있는 독자), ``conj`` (있고 …), ``disj`` (있거나 …), ``cond`` (있다면).

_FORMS = ("when", "adn", "conj", "disj", "cond")


class Pred(Frozen):
    """A condition as a predicate: ``subject`` (with its particle and a space, or '') and
    the predicate in each of :data:`_FORMS`."""

    __slots__ = ("subject", "forms")
    subject: str
    forms: tuple[str, str, str, str, str]

    def __init__(self, subject: str, forms: tuple[str, str, str, str, str]):
        object.__setattr__(self, "subject", subject)
        object.__setattr__(self, "forms", forms)

    def text(self, form: str) -> str:
        return self.subject + self.forms[_FORMS.index(form)]


def _with_final(syllable: str, jong: int) -> str:
    """``syllable`` (no final consonant) with final consonant number ``jong`` added."""
    return chr(ord(syllable) + jong)


_J_N, _J_L, _J_SS = 4, 8, 20  # ㄴ, ㄹ, ㅆ


def _copula(subject: str, comp: str) -> Pred:
    """``신뢰도가 3 이상이다``."""
    return Pred(subject, (comp + "일", comp + "인", comp + "이고", comp + "이거나", josa(comp, "이라/라") + "면"))


def _not_copula(subject: str, comp: str) -> Pred:
    """``날씨가 안개가 아니다``."""
    base = josa(comp, "이/가") + " 아니"
    return Pred(subject, (base[:-1] + "닐", base[:-1] + "닌", base + "고", base + "거나", base + "라면"))


def _stem(subject: str, stem: str) -> Pred:
    """A verb or adjective stem: ``있``, ``없``."""
    last = stem[-1]
    jong = (ord(last) - 0xAC00) % 28
    if jong:  # 있, 밝: -을, -은
        adn = stem + ("는" if stem in ("있", "없") else "은")
        return Pred(subject, (stem + "을", adn, stem + "고", stem + "거나", stem + "다면"))
    return Pred(subject, (stem[:-1] + _with_final(last, _J_L), stem[:-1] + _with_final(last, _J_N),
                          stem + "고", stem + "거나", stem + "다면"))


def flag_name(spec: Flag) -> str:
    """A flag's label, else its name quoted as code (for lists after the word 플래그)."""
    word = flag_word(spec)
    return word[len("플래그 "):] if word.startswith("플래그 `") else word


def flag_word(spec: Flag) -> str:
    """How sentences call a flag: its label, else its name quoted as code."""
    label = " ".join((spec.label or "").split())
    if label and (label != spec.flag or not re.search(r"[^\s가-힣]", label)):
        return label
    # no label, or an imported story's flag labelled with its own name: code, after the
    # noun that says what it is
    return f"플래그 {code(spec.flag)}"


def _subject(label: str) -> str:
    return josa(label, "이/가") + " "


def _value_pred(label: str, value: str, negate: bool = False) -> Pred:
    """``날씨가 “비”이다``: an enum value verbatim between quotation marks, whatever
    its form (a noun, 비; a noun form of a verb or adjective, 꺼짐, 흐림), so no value
    is put into a tense or read as a noun it is not (docs/decisions.md)."""
    shown = quote_value(value)
    return _not_copula(_subject(label), shown) if negate else _copula(_subject(label), shown)


def quote_value(value: str) -> str:
    """An enum value as sentences name it: ``“비”``; one that holds a quotation mark,
    a backquote, a line break or surrounding spaces is quoted as code.

    >>> quote_value("비"), quote_value("꺼짐"), quote_value(" 비")
    ('“비”', '“꺼짐”', '` 비`')
    """
    if value and value.strip() == value and not re.search(r"[“”`\n\r]", value):
        return f"“{value}”"
    return code(value)


def exists_pred(label: str, truth: bool) -> Pred:
    """``열쇠가 있다`` / ``열쇠가 없다`` (a true/false flag)."""
    return _stem(_subject(label), "있" if truth else "없")


def enum_pred(label: str, values: Sequence[str]) -> Pred:
    """``날씨가 맑음이거나 안개이다``: one of several values."""
    preds = [_value_pred(label, v) for v in values]
    return any_of(preds) if len(preds) > 1 else preds[0]


def range_pred(label: str, ranges: Sequence[tuple[int | None, int | None]]) -> Pred:
    """``신뢰도가 2 이하이거나 4 이상이다``: closed ranges (``None``: no lower or upper end)."""
    preds = []
    for lo, hi in ranges:
        if lo is None:
            preds.append(_copula(_subject(label), f"{hi} 이하"))
        elif hi is None:
            preds.append(_copula(_subject(label), f"{lo} 이상"))
        elif lo == hi:
            preds.append(_copula(_subject(label), str(lo)))
        else:
            preds.append(_copula(_subject(label), f"{lo} 이상 {hi} 이하"))
    return any_of(preds) if len(preds) > 1 else preds[0]


def _int_pred(label: str, op: str, value: int) -> Pred:
    subject = _subject(label)
    if op == ">=":
        return _copula(subject, f"{value} 이상")
    if op == "<=":
        return _copula(subject, f"{value} 이하")
    if op == ">":
        return Pred(subject, (f"{value}보다 클", f"{value}보다 큰", f"{value}보다 크고", f"{value}보다 크거나", f"{value}보다 크다면"))
    if op == "<":
        return Pred(subject, (f"{value}보다 작을", f"{value}보다 작은", f"{value}보다 작고", f"{value}보다 작거나", f"{value}보다 작다면"))
    if op == "!=":
        return _not_copula(subject, str(value))
    return _copula(subject, str(value))


def _joined(preds: Sequence[Pred], link: str) -> Pred:
    """Preds joined by ``conj`` (and) or ``disj`` (or); a subject repeated right after
    itself is said once (``신뢰도가 2 이상이고 4 이하이다``)."""
    texts = []
    previous = None
    for p in preds[:-1]:
        texts.append((p.subject if p.subject != previous else "") + p.text(link)[len(p.subject):])
        previous = p.subject
    last = preds[-1]
    subject = last.subject if last.subject != previous else ""
    head = " ".join(texts) + " " + subject
    return Pred("", tuple(head + f for f in last.forms))  # type: ignore[arg-type]


def _case(pred: Pred) -> Pred:
    """A compound inside another as one noun: ``(A이고 B인) 경우이다``."""
    return _copula("", pred.text("adn") + " 경우")


def all_of(preds: Sequence[Pred]) -> Pred:
    return preds[0] if len(preds) == 1 else _joined(preds, "conj")


def any_of(preds: Sequence[Pred]) -> Pred:
    return preds[0] if len(preds) == 1 else _joined(preds, "disj")


_NEGATED_OP = {">=": "<", ">": "<=", "<=": ">", "<": ">=", "==": "!=", "!=": "=="}


#: the predicate of each comparison already worded: (kind, flag, op, value's type,
#: value, negation) -> (the flag's spec it was worded with, the predicate); the same
#: comparisons recur across a scenario's conditions
_ATOM_PREDS: dict[tuple, tuple[Flag, Pred]] = {}
_ATOM_PREDS_KEPT = 1 << 16


def _pred(expr: Expr, flags: Mapping[str, Flag], negate: bool = False) -> Pred:
    """The predicate of a condition whose types fit its flags."""
    kind = type(expr)
    if kind is Compare or kind is FlagTrue:
        spec = flags[expr.flag]  # type: ignore[union-attr]
        key = ((kind, expr.flag, expr.op, type(expr.value), expr.value, negate) if kind is Compare  # type: ignore[union-attr]
               else (kind, expr.flag, negate))  # type: ignore[union-attr]
        known = _ATOM_PREDS.get(key)
        if known is not None and known[0] is spec:
            return known[1]
        pred = _atom_pred(expr, spec, negate)
        if len(_ATOM_PREDS) >= _ATOM_PREDS_KEPT:
            _ATOM_PREDS.clear()
        _ATOM_PREDS[key] = (spec, pred)
        return pred
    return _compound_pred(expr, flags, negate)


def _atom_pred(expr: Expr, spec: Flag, negate: bool) -> Pred:
    if isinstance(expr, FlagTrue):
        return exists_pred(flag_word(spec), not negate)
    op = _NEGATED_OP[expr.op] if negate else expr.op  # type: ignore[union-attr]
    if spec.type == "bool":
        return exists_pred(flag_word(spec), bool(expr.value) == (op == "=="))  # type: ignore[union-attr]
    if spec.type == "enum":
        return _value_pred(flag_word(spec), str(expr.value), negate=op == "!=")  # type: ignore[union-attr]
    return _int_pred(flag_word(spec), op, int(expr.value))  # type: ignore[union-attr]


def _compound_pred(expr: Expr, flags: Mapping[str, Flag], negate: bool) -> Pred:
    if isinstance(expr, Const):
        truth = expr.value != negate
        return _copula("", "늘 참인 조건" if truth else "늘 거짓인 조건")
    if isinstance(expr, Not):
        if isinstance(expr.arg, (FlagTrue, Compare, Not, Const)):
            return _pred(expr.arg, flags, not negate)
        inner = _pred(expr.arg, flags)
        return _case(inner) if negate else _not_copula("", inner.text("adn") + " 경우")
    assert isinstance(expr, (And, Or))  # an atom is _atom_pred's
    args = list(expr.args)
    outer_and = isinstance(expr, And) != negate  # De Morgan under a negation
    parts = []
    for arg in args:
        p = _pred(arg, flags, negate)
        inner_and = isinstance(arg, And) != negate
        if isinstance(arg, (And, Or)) and inner_and != outer_and:
            p = _case(p)
        parts.append(p)
    return all_of(parts) if outer_and else any_of(parts)


class Cond(Frozen):
    """A branch condition as sentences use it: ``when`` (``신뢰도가 3 이상일 때``,
    ``조건 없이``), ``name`` (in parentheses after a branch id) and ``adn`` (before a
    noun: ``신뢰도가 3 이상인``)."""

    __slots__ = ("when", "name", "adn")
    when: str
    name: str
    adn: str

    def __init__(self, when: str, name: str, adn: str):
        object.__setattr__(self, "when", when)
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "adn", adn)


NO_CONDITION = Cond("조건 없이", "조건 없음", "조건이 없는")
UNREAD_CONDITION = Cond("읽지 못한 조건식에 따라", "읽지 못한 조건식", "읽지 못한 조건식이 가리키는")
#: how an opaque condition (``condition_opaque``) is named in sentences
OPAQUE_CONDITION = Cond("알 수 없는 조건에 따라", "알 수 없는 조건", "알 수 없는 조건이 가리키는")


def describe_condition(expr: Expr | None, flags: Mapping[str, Flag], source: str | None = None) -> Cond:
    """The condition in words, flags by label: ``trust >= 3 and not has_key`` →
    ``신뢰도가 3 이상이고 열쇠가 없을 때``.  A condition whose types do not fit its flags
    (``has_key >= 1`` on a true/false flag) is not worded: it is quoted as written."""
    if expr is None:
        return UNREAD_CONDITION
    if isinstance(expr, Const) and expr.value:
        return NO_CONDITION
    if not types_fit(expr, flags):
        if not (source and source.strip()):
            return Cond("형식이 맞지 않는 조건식에 따라", "형식이 맞지 않는 조건식", "형식이 맞지 않는 조건식에 맞는")
        shown = code(source.strip())
        return Cond(f"형식이 맞지 않는 조건식 {shown}에 따라", f"형식이 맞지 않는 조건식 {shown}", f"조건식 {shown}에 맞는")
    pred = _pred(expr, flags)
    return Cond(pred.text("when") + " 때", pred.text("when") + " 때", pred.text("adn"))


def when(cond: Cond) -> str:
    """``신뢰도가 5 이상일 때`` or ``조건 없이``."""
    return cond.when


#: longer lists name the first few and count the rest
ID_LIST_LIMIT = 5


#: branch id -> what the reader sees of that choice or link (``choice_text`` of a story
#: read by an importer), set for each analysis (:func:`use_choice_texts`)
CHOICE_TEXTS: ContextVar[Mapping[str, str]] = ContextVar("CHOICE_TEXTS", default={})  # noqa: B039 - never mutated: set() replaces it


def use_choice_texts(texts: Mapping[str, str]) -> None:
    """Name the choices of this analysis by their text in every sentence made from now on
    in this process (and the processes it forks)."""
    CHOICE_TEXTS.set(texts)


def bref(branch_id: str) -> str:
    """A branch as a sentence names it: a choice by what the reader sees (```[Confess]```),
    any other branch by its id (```BR-13```)."""
    text = CHOICE_TEXTS.get().get(branch_id)
    return code(f"[{text}]") if text else code(branch_id)


def id_list(ids: Sequence[str]) -> str:
    """```BR-1```, ```BR-1`과 `BR-2```, …; ids quoted (a choice by its text); past five,
    the first four and ``외 N개`` (a hedge on a scene with 2,000 branches stays readable)."""
    texts = CHOICE_TEXTS.get()
    ids = [bref(i) if i in texts else code(i) for i in ids]
    if len(ids) > ID_LIST_LIMIT:
        return f"{', '.join(ids[:ID_LIST_LIMIT - 1])} 외 {len(ids) - ID_LIST_LIMIT + 1}개"
    if len(ids) <= 1:
        return "".join(ids)
    return ", ".join(ids[:-2] + [josa(ids[-2], "과/와") + " " + ids[-1]])


def comma_list(ids: Sequence[str]) -> str:
    """```BR-1`, `BR-2`, `BR-3```: ids quoted and joined by commas alone, for a list that
    a particle (과/와) follows; past five, the first four and ``외 N개``."""
    ids = [code(i) for i in ids]
    if len(ids) > ID_LIST_LIMIT:
        return f"{', '.join(ids[:ID_LIST_LIMIT - 1])} 외 {len(ids) - ID_LIST_LIMIT + 1}개"
    return ", ".join(ids)


def branches(ids: Sequence[str]) -> str:
    """``분기 `BR-1```, ``분기 `BR-1`과 `BR-2```: ids after the noun that says what they are."""
    return "분기 " + id_list(ids)


def _count(n: int, counter: str = "개") -> str:
    return f"{n:,}{counter}"


# ------------------------------------------------------------------ counting words


def name_list(names: Sequence[str]) -> str:
    """Scene names (already quoted where they hold an id) joined like :func:`id_list`."""
    names = list(names)
    if len(names) > ID_LIST_LIMIT:
        return f"{', '.join(names[:ID_LIST_LIMIT - 1])} 외 {len(names) - ID_LIST_LIMIT + 1}곳"
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-2] + [josa(names[-2], "과/와") + " " + names[-1]])


def _no_ending_reached(endings: int) -> str:
    """``엔딩 3개 가운데 어디에도 닿지 못합니다`` (without the final ``니다.``)."""
    if endings == 0:
        return "닿을 엔딩이 하나도 없어 이야기를 끝내지 못합"
    if endings == 1:
        return "하나뿐인 엔딩에 닿지 못합"
    return f"엔딩 {_count(endings)} 가운데 어디에도 닿지 못합"


def _some_endings(reachable: int, endings: int) -> str:
    """``엔딩 3개 가운데 2개``, ``엔딩 3개 모두``, ``하나뿐인 엔딩``."""
    if endings == 1:
        return "하나뿐인 엔딩"
    if reachable == endings:
        return f"엔딩 {_count(endings)} 모두"
    if reachable == 1:
        return f"엔딩 {_count(endings)} 가운데 하나"
    return f"엔딩 {_count(endings)} 가운데 {_count(reachable)}"


def _up_to(reach: str) -> str:
    """``reach`` of :func:`_some_endings` with the particle of a way leading there:
    ``엔딩 3개 가운데 2개까지``, ``하나뿐인 엔딩까지``, but ``엔딩 3개 모두로`` (a quantifier
    takes no ``까지``: ``모두까지`` reads wrong)."""
    return reach + "로" if reach.endswith("모두") else reach + "까지"


# ------------------------------------------------------------------ scene summaries


def scene_unreached(*, name: str, incoming: int, sources: Sequence[str]) -> str:
    if incoming == 0:
        return f"{josa(name, '은/는')} 시작 장면이 아닌데 이 장면으로 오는 분기가 하나도 없어 독자가 들어올 길이 없습니다."
    if incoming == 1:
        return (f"{josa(name, '으로/로')} 오는 분기는 하나뿐인데 그 분기가 독자가 닿지 못하는 {name_list(sources)}에서 출발해 "
                f"이 장면에도 아무도 들어오지 못합니다.")
    return (f"{josa(name, '으로/로')} 오는 분기 {_count(incoming)}가 모두 독자가 닿지 못하는 "
            f"{name_list(sources)}에서 출발해 이 장면에도 아무도 들어오지 못합니다.")


def scene_no_ending(*, name: str, outgoing: int, onward: int, endings: int) -> str:
    if outgoing == 0:
        return f"{josa(name, '은/는')} 엔딩이 아닌데 나가는 분기가 하나도 없어 여기 들어온 독자는 그 자리에서 멈춥니다."
    if onward == 0:
        return f"{name}에 들어온 독자는 이 장면을 맴돌 뿐 {_no_ending_reached(endings)}니다."
    where = "이어지는 장면 한 곳" if onward == 1 else f"이어지는 장면 {_count(onward, '곳')}"
    return f"{name}에 들어온 독자는 {josa(where, '을/를')} 돌아도 {_no_ending_reached(endings)}니다."


def scene_reaches(*, name: str, is_entry: bool, is_ending: bool, reachable_endings: int, endings: int) -> str:
    if is_ending and not is_entry:
        return f"{josa(name, '은/는')} 엔딩 장면이라 여기 닿은 독자는 이야기를 마칩니다."
    reach = _some_endings(reachable_endings, endings)
    if is_entry:
        return f"시작 장면인 {name}에서 출발한 독자는 {reach}에 닿을 수 있습니다."
    return f"{name}에 들어온 독자는 {_up_to(reach)} 길이 이어집니다."


def undone(*, why: str, summary: str) -> str:
    """The summary of a card whose verdict stands on the tables' paths while a hedge
    undoes it for real readers: the hedge's point first.  ``why`` ends so that ``지만``
    may follow (``실제 독자는 여기 닿지 못하``)."""
    return f"{why}지만, 표의 길만 따지면 {summary}"


def undone_reason(why: str) -> str:
    """``why`` of :func:`undone` as a sentence of its own (the card's ``undone`` reason):
    ``…닿지 못하`` → ``…닿지 못합니다.``, ``…걸리지 않`` → ``…걸리지 않습니다.``"""
    if why.endswith("하"):
        return why[:-1] + "합니다."
    if why.endswith("않"):
        return why + "습니다."
    raise ValueError(f"an undone clause ends in 하 or 않: {why!r}")


def undone_reached_only_dead(*, branches: Sequence[str]) -> str:
    return f"한 번도 걸리지 않는 {branches_(branches, '을/를')} 거쳐야만 들어오는 곳이라 실제 독자는 여기 닿지 못하"


def undone_ending_only_dead(*, branches: Sequence[str]) -> str:
    return f"엔딩으로 가는 길이 한 번도 걸리지 않는 {branches_(branches, '뿐')}이라 실제 독자는 끝까지 가지 못하"


def branches_(ids: Sequence[str], particle: str) -> str:
    """``분기 `BR-14`를``: the branches with a particle (or ``뿐``)."""
    text = "분기 " + id_list(ids)
    return text + particle if "/" not in particle else josa(text, particle)


def undone_never_fires() -> str:
    return "이 분기는 앞 분기에 가려 실제로는 한 번도 걸리지 않"


def undone_unsatisfiable() -> str:
    return "이 분기의 조건은 플래그 범위 안에서 참이 될 수 없어 실제로는 한 번도 걸리지 않"


# ------------------------------------------------------------------ branch summaries


def branch_missing_target(*, branch_id: str, from_name: str, condition: Cond, to_scene: str, scenes: int) -> str:
    return (f"{from_name}에서 {when(condition)} 갈라지는 분기 {josa(bref(branch_id), '이/가')} 장면 {_count(scenes)}의 목록에 없는 "
            f"{josa(code(to_scene), '을/를')} 가리켜 그 자리에서 이야기가 끊깁니다.")


def branch_unreached(*, branch_id: str, from_scene: str, from_name: str | None, incoming: int) -> str:
    if from_name is None:
        return (f"분기 {josa(bref(branch_id), '이/가')} 출발하는 장면 {josa(code(from_scene), '은/는')} 장면 목록에 없어 "
                f"이 분기를 지나는 독자가 없습니다.")
    if incoming == 0:
        return (f"{from_name}에는 들어오는 분기가 하나도 없어 그곳에서 출발하는 분기 {josa(bref(branch_id), '을/를')} "
                f"지나는 독자가 없습니다.")
    return (f"{from_name}에는 시작 장면에서 이어지는 길이 없어 그곳에서 출발하는 분기 {josa(bref(branch_id), '을/를')} "
            f"지나는 독자가 없습니다.")


def branch_shadowing(*, branch_id: str, order_no: int | None, from_name: str, later_id: str, later_order: int | None,
                     later_condition: Cond, covers: Sequence[str], unsatisfiable: bool, role: str = "auto") -> str:
    later = f"순번 {later_order}인 분기 {bref(later_id)}({later_condition.name})"
    if role == "choice" and not unsatisfiable:
        return (f"{from_name}에서 메뉴보다 앞선 자동 {josa(branches(covers), '이/가')} {josa(later, '이/가')} 열릴 모든 경우에 "
                f"먼저 걸려 이 선택지는 어떤 독자에게도 제시되지 않습니다.")
    if role == "fallback" and not unsatisfiable:
        return (f"{from_name}에서 {josa(branches(covers), '이/가')} 모든 독자에게 늘 하나 이상 걸리거나 제시되어 메뉴 뒤의 대비 분기인 "
                f"{josa(later, '은/는')} 어떤 독자에게도 걸리지 않습니다.")
    if unsatisfiable:
        return (f"{from_name}에서 순번 {order_no}인 분기 {bref(branch_id)} 바로 뒤의 {josa(later, '은/는')} "
                f"플래그 범위 안에서 조건이 참이 될 수 없어 어떤 독자에게도 나오지 않습니다.")
    if list(covers) == [branch_id]:
        return (f"{from_name}에서 순번 {order_no}인 분기 {bref(branch_id)}의 조건이 {josa(later, '을/를')} 남김없이 덮어 "
                f"뒤의 분기는 어떤 독자에게도 나오지 않습니다.")
    together = "" if len(covers) == 1 else "함께 "  # one earlier branch covers alone
    return (f"{from_name}에서 앞 순번 {id_list(covers)}의 조건이 {together}{josa(later, '을/를')} 남김없이 덮어 "
            f"뒤의 분기는 어떤 독자에게도 나오지 않습니다.")


def branch_no_ending(*, branch_id: str, from_name: str, to_name: str, endings: int) -> str:
    return (f"{from_name}에서 {josa(to_name, '으로/로')} 가는 분기 {josa(bref(branch_id), '을/를')} 탄 독자는 "
            f"그 뒤로 {_no_ending_reached(endings)}니다.")


def branch_reaches(*, branch_id: str, from_name: str, condition: Cond, to_name: str, to_is_ending: bool, reachable_endings: int,
                   endings: int | None = None) -> str:
    if to_is_ending:
        return (f"{from_name}에서 {when(condition)} 엔딩 {josa(to_name, '으로/로')} 바로 이어지는 분기 {josa(bref(branch_id), '은/는')} "
                f"이야기를 끝까지 이끕니다.")
    reach = _some_endings(reachable_endings, endings) if endings is not None else f"엔딩 {_count(reachable_endings)}"
    return (f"{from_name}에서 {when(condition)} {josa(to_name, '으로/로')} 이어지는 분기 {josa(bref(branch_id), '은/는')} "
            f"그 뒤로 {_up_to(reach)} 길이 열려 있습니다.")


# ------------------------------------------------------------------ hedges


def hedge_never_fires(*, covers: Sequence[str], same_target: bool, to_name: str, role: str = "auto") -> Caveat:
    if role == "choice":
        head = f"메뉴보다 앞선 자동 {josa(branches(covers), '이/가')} 늘 먼저 걸려 이 선택지는 메뉴에 나오지 않"
    elif role == "fallback":
        head = f"{josa(branches(covers), '이/가')} 늘 하나 이상 걸리거나 제시되어 메뉴 뒤의 이 대비 분기는 실제로 걸리지 않"
    else:
        head = f"앞 순번 {josa(branches(covers), '이/가')} 조건을 모두 덮어 이 분기는 실제로 나오지 않"
    if same_target:
        return Caveat(f"{head}지만 같은 {josa(to_name, '으로/로')} 가는 중복이라 길이 끊기지는 않습니다.", NARROWS)
    return Caveat(f"{head}으므로 {josa(to_name, '으로/로')} 가는 이 길은 어떤 독자도 밟지 못하는 길입니다.", NARROWS)


def hedge_unsatisfiable(*, condition: Cond, first: bool) -> Caveat:
    head = "순번 맨 앞이라 가리는 분기는 없지만 " if first else ""
    return Caveat(f"{head}이 분기는 {condition.adn} 경우에만 나오는데 그런 경우가 플래그 범위 안에 없어 한 번도 나오지 않습니다.",
                  NARROWS)


def hedge_opaque(*, source: str | None) -> Caveat:
    written = f"이 분기의 조건은 원래 {josa(code(source), '이라/라')}고 적혀 있는데" if source else "이 분기의 원래 조건은"
    return Caveat(f"{written} 조건식 언어로 옮기지 못해 적힌 그대로 읽지 못했으므로 걸릴 수도 있고 안 걸릴 수도 있는 것으로 보아 "
                  f"겹침과 막힌 조합을 따지지 않았습니다.", UNKNOWN)


def hedge_later_unsatisfiable(*, later_id: str) -> Caveat:
    return Caveat(f"뒤 순번의 분기 {josa(bref(later_id), '은/는')} 이 분기와 상관없이 조건 자체가 참이 될 수 없는 경우입니다.", NARROWS)


def hedge_undecided(*, reason_code: str, scene_name: str, siblings: Sequence[str], column: str | None,
                    branch_ids: Sequence[str], flags: Sequence[str], story: bool = False) -> Caveat:
    """``flags`` by label (an undeclared one by its name, quoted).  ``story``: the scenario
    was read by an importer (ink, Twine, ChoiceScript, Yarn), whose author wrote no
    `flag_spec` table: the flags are the story's own declarations."""
    kind = reason_code
    spec = code("flag_spec")
    others = f"같은 장면의 분기 {josa(comma_list(siblings), '과/와')} " if siblings else ""
    reason = {
        "no_flags": f"{scene_name}에 쓸 수 있는 플래그({code('available_flags')})가 적혀 있지 않아",
        "column": f"입력에 {code(column)} 열이 없어",
        "order": f"{branches(branch_ids)}의 {code('order_no')} 값이 비었거나 겹쳐 어느 분기가 먼저 걸리는지 몰라",
        "syntax": f"{branches(branch_ids)}의 조건식을 읽지 못해",
        "kind": f"{branches(branch_ids)}의 {code('kind')} 값이 {code('auto')}도 {code('choice')}도 아니라 어느 분기가 먼저 걸리는지 몰라",
        "undeclared": f"{'이야기가 선언하지 않은' if story else spec + '에 없는'} 플래그 {josa(name_list(flags), '을/를')} 써서",
        "bad_flag": f"{'선언을 받아들이지 않은' if story else spec + '에서 받아들이지 않은'} 플래그 {josa(name_list(flags), '을/를')} 써서",
        "type": f"플래그 {name_list(flags)}의 비교가 {'이야기에 선언된' if story else spec + '의'} 형식과 맞지 않아",
        "not_available": f"플래그 {josa(name_list(flags), '이/가')} {scene_name}의 {code('available_flags')}에 없어",
        "budget": f"{scene_name}에서 나가는 분기의 조건이 너무 많이 얽혀 계산 한도 안에 끝나지 않아",
    }[kind]
    return Caveat(f"{reason} {others}조건이 겹치는지는 따지지 않았습니다.", UNKNOWN)


def hedge_island(*, sources: Sequence[str]) -> Caveat:
    return Caveat(f"이 장면은 독자가 닿지 못하는 {name_list(sources)}에서만 들어오는 자리라 그쪽에 길을 내면 함께 열립니다.", ASIDE)


def hedge_missing_target(*, to_scene: str, close: str | None, rejected_lines: Sequence[int]) -> Caveat:
    if close:
        base = (f"장면 {josa(code(to_scene), '은/는')} 있는 장면 {code(close)}의 오타일 수도 있어 분기를 고칠지 장면을 새로 만들지는 "
                f"창작자가 정")
    elif rejected_lines:
        lines = ", ".join(str(n) for n in rejected_lines[:3])
        base = (f"{code('scene_id')} 값이 비어 판정하지 못한 장면 줄({lines}번째 줄)이 장면 {code(to_scene)}일 수도 있어 "
                f"그 줄을 채울지 분기를 고칠지는 창작자가 정")
    else:
        base = f"장면 {josa(code(to_scene), '이/가')} 지운 장면인지 아직 쓰지 않은 장면인지는 알 수 없어 장면을 만들지 분기를 옮길지는 창작자가 정"
    return Caveat(base + "합니다.", ASIDE)


def hedge_from_missing_scene(*, from_scene: str) -> Caveat:
    return Caveat(f"출발 장면 {josa(code(from_scene), '이/가')} 목록에 없어 이 분기의 조건이 겹치는지도 따지지 않았습니다.", UNKNOWN)


# ------------------------------------------------------------------ lint findings


def _count_text(count: int | None, total: int | None) -> str:
    if count is None or total is None:
        return "셀 수 없이 많은 조합"
    if count == total:
        return f"조합 {_count(total)} 모두"
    if count == 1:
        return f"조합 {_count(total)} 가운데 하나"
    return f"조합 {_count(total)} 가운데 {_count(count)}"


def region_readers(region: Sequence[Pred | None], more: int = 0) -> str:
    """``등불이 “꺼짐”이고 열쇠가 없는 독자``: the readers of uncovered flag combinations."""
    texts = [p.text("adn") + " 독자" if p is not None else "모든 독자" for p in region]
    text = " 또는 ".join(texts)
    if more:
        text += f" 외 {more}가지 경우의 독자"
    return text


def region_when(region: Sequence[Pred | None], more: int = 0) -> str:
    """``등불이 “꺼짐”이고 열쇠가 없을 때``: the same combinations as a condition."""
    if any(p is None for p in region):
        return "모든 경우"
    text = any_of([p for p in region if p is not None]).text("when") + " 때" if region else "모든 경우"
    return text + (f" 외 {more}가지" if more else "")


def assignment_if(pred: Pred) -> str:
    """``신뢰도가 2이고 열쇠가 없다면``: one example combination."""
    return pred.text("cond")


def _nothing_taken(menu: bool) -> str:
    return "자동 분기가 하나도 걸리지 않고 선택지도 하나 제시되지 않아" if menu else "나가는 분기가 하나도 걸리지 않아"


def finding_stuck(*, name: str, readers: str, count: int | None, total: int | None, example: str,
                  menu: bool = False) -> str:
    return (f"{name}에서 {readers}에게는 {_nothing_taken(menu)}({_count_text(count, total)}) "
            f"예를 들어 {example} 이야기가 멈춥니다.")


def hedge_stuck_undecided() -> Caveat:
    return Caveat("플래그 조합이 너무 많아 어떤 조합의 독자가 이 장면에서 멈추는지는 계산 한도 안에 다 따지지 못했습니다.", UNKNOWN)


def hedge_stuck(*, readers: str, count: int | None, total: int | None, menu: bool = False) -> Caveat:
    return Caveat(f"{readers}에게는 {_nothing_taken(menu)}({_count_text(count, total)}) 이 장면에서 멈춥니다.", NARROWS)


def finding_reached_only_dead(*, name: str, branches: Sequence[str]) -> str:
    return (f"{josa(name, '은/는')} 실제로는 한 번도 걸리지 않는 {josa(id_list(branches), '을/를')} 거쳐야만 들어올 수 있어 "
            f"어떤 독자도 닿지 못합니다.")


def hedge_reached_only_dead(*, branches: Sequence[str]) -> Caveat:
    return Caveat(f"이 장면으로 오는 길은 실제로 걸리지 않는 {id_list(branches)}에 기대고 있어 실제 독자는 여기 닿지 못합니다.", NARROWS)


def finding_used_up_menu(*, name: str, choices: Sequence[str]) -> str:
    some = "하나" if len(choices) == 1 else _count(len(choices))
    return (f"{josa(name, '은/는')} 한 번만 고를 수 있는 선택지 {some}({id_list(choices)})만 내놓는데 "
            f"어느 것을 골라도 이 장면으로 돌아올 수 있어, 모두 고른 독자가 다시 오면 고를 것이 남지 않아 이야기가 멈춥니다.")


def finding_ending_only_dead(*, name: str, branches: Sequence[str]) -> str:
    return (f"{name}에서 엔딩으로 가는 길은 실제로 한 번도 걸리지 않는 {id_list(branches)}뿐이라 "
            f"여기 온 독자는 이야기를 끝내지 못합니다.")


def hedge_ending_only_dead(*, branches: Sequence[str]) -> Caveat:
    return Caveat(f"엔딩으로 가는 길이 실제로 걸리지 않는 {id_list(branches)}에 기대고 있어 실제 독자는 끝까지 가지 못합니다.", NARROWS)


def finding_unsatisfiable(*, branch_id: str, condition: Cond) -> str:
    return (f"분기 {josa(bref(branch_id), '은/는')} {condition.adn} 경우에만 나오는데 그런 경우가 플래그 범위 안에 없어 "
            f"한 번도 나오지 않습니다.")


def finding_unused_flag(*, flag: str, label: str) -> str:
    shown = code(flag) if label == flag else f"{label}({code(flag)})"
    return f"{code('flag_spec')}에 선언된 플래그 {josa(shown, '은/는')} 어느 조건식에도 쓰이지 않습니다."


def finding_available_unused(*, name: str, flags: Sequence[str]) -> str:
    return (f"{name}의 {code('available_flags')}에 적힌 플래그 {josa(name_list(flags), '은/는')} "
            f"이 장면의 어느 분기 조건에도 쓰이지 않습니다.")


def finding_out_of_range(*, branch_id: str, comparison: str, label: str, lo: int | None, hi: int | None, truth: bool) -> str:
    always = "늘 참" if truth else "늘 거짓"
    return (f"분기 {bref(branch_id)}의 비교 {josa(code(comparison), '은/는')} {label}의 범위 {lo}–{hi} 안에서 {always}이라 "
            f"아무것도 가르지 못합니다.")


def finding_always_true(*, branch_id: str, condition: str, later: Sequence[str]) -> str:
    return (f"분기 {bref(branch_id)}의 조건 {josa(code(condition), '은/는')} 어떤 독자에게나 참이라 "
            f"뒤 순번의 {josa(branches(later), '은/는')} 한 번도 나오지 않습니다.")


# ------------------------------------------------------------------ withheld (판정 보류)
#
# A verdict that would rest on an opaque part of an imported story is withheld: the card
# says which construct could not be read, where, and what was therefore not decided.


def _places(n: int) -> str:
    """``한 곳``, ``세 곳`` (a native counting word and a space), ``12곳`` (digits, none)."""
    word = number_word(n)
    return f"{word} 곳" if word != str(n) else f"{n}곳"


def _jump_words(source: str, place: str | None, more: int) -> str:
    """```story.ink` 40번째 줄의 이동 `-> d``` (``… 등 이동 3곳`` when there are more) — the
    opaque jump a withheld card rests on, as the subject of its sentence."""
    where = f"{place} " if place else ""
    if more:
        return f"{where}이동 {code(source or '?')} 등 이동 {_places(more + 1)}"
    return f"{where}이동 {code(source or '?')}"


def place_at(file: str | None, line: int | None) -> str | None:
    """```story.ink` 40번째 줄`` (or ```story.ink```), or ``None`` with no file."""
    if not file:
        return None
    return f"{code(file)} {line}번째 줄" if line is not None else code(file)


def place_words(file: str | None, line: int | None) -> str | None:
    """```story.ink` 40번째 줄의`` (or ```story.ink`의``), or ``None`` with no file."""
    at = place_at(file, line)
    return None if at is None else at + "의"


def withheld_unreached(*, name: str, source: str, place: str | None, more: int) -> str:
    jump = _jump_words(source, place, more)
    return (f"{josa(jump, '이/가')} 어느 장면으로 갈지 알 수 없어 {name}에 독자가 닿는지는 "
            "판정하지 않았습니다.")


def withheld_branch_unreached(*, branch_id: str, name: str, source: str, place: str | None, more: int) -> str:
    jump = _jump_words(source, place, more)
    return (f"{josa(jump, '이/가')} 어느 장면으로 갈지 알 수 없어 {name}에서 출발하는 분기 "
            f"{josa(bref(branch_id), '을/를')} 지나는 독자가 있는지는 판정하지 않았습니다.")


def withheld_no_ending(*, name: str, source: str, place: str | None, more: int) -> str:
    jump = _jump_words(source, place, more)
    return (f"{name}에서 갈 수 있는 {josa(jump, '이/가')} 어느 장면으로 갈지 알 수 없어 여기서 엔딩에 "
            "닿는지는 판정하지 않았습니다.")


def withheld_branch_no_ending(*, branch_id: str, to_name: str, source: str, place: str | None, more: int) -> str:
    jump = _jump_words(source, place, more)
    return (f"분기 {josa(bref(branch_id), '이/가')} 가는 {to_name}에서 갈 수 있는 {josa(jump, '이/가')} "
            "어느 장면으로 갈지 알 수 없어 이 길로 엔딩에 닿는지는 판정하지 않았습니다.")


def withheld_own_jump(*, branch_id: str, source: str, place: str | None) -> str:
    jump = _jump_words(source, place, 0)
    return (f"분기 {josa(bref(branch_id), '은/는')} {josa(jump, '이라/라')} 가는 곳을 알 수 없어 독자가 어느 장면에 닿고 "
            "엔딩까지 가는지는 판정하지 않았습니다.")


def effect_words(source: str) -> tuple[str, str | None]:
    """``(construct, place in words)`` of an ``effect_source`` cell (``file:line: text``)."""
    m = re.match(r"^(.*?):(\d+): (.*)$", source or "")
    if m is None:
        return source, None
    return m.group(3), place_words(m.group(1), int(m.group(2)))


def withheld_range(*, label: str, source: str) -> str:
    text, place = effect_words(source)
    where = f"{place} " if place else ""
    return (f"플래그 {label}의 값은 {where}{code(text)}에서 셈할 수 없게 바뀌어 범위를 알 수 없으므로 "
            "이 발견은 판정하지 않았습니다.") if text else (
            f"플래그 {label}의 값이 셈할 수 없게 바뀌는 곳이 있어 범위를 알 수 없으므로 이 발견은 판정하지 않았습니다.")


def withheld_finding_jump(*, source: str, place: str | None, more: int) -> str:
    jump = _jump_words(source, place, more)
    return (f"{josa(jump, '이/가')} 어느 장면으로 갈지 알 수 없어 한 번도 걸리지 않는 분기 말고 다른 길이 있는지는 "
            "판정하지 않았습니다.")


def finding_write_only(*, flag: str, label: str, writes: int) -> str:
    shown = code(flag) if label == flag else f"{label}({code(flag)})"
    return f"변수 {josa(shown, '은/는')} {_places(writes)}에서 값이 바뀌지만 이야기 어디에서도 읽히지 않습니다."


def finding_unused_variable(*, flag: str, label: str) -> str:
    shown = code(flag) if label == flag else f"{label}({code(flag)})"
    return f"선언된 변수 {josa(shown, '은/는')} 이야기 어디에서도 읽히지도 바뀌지도 않습니다."


def finding_undeclared(*, flag: str, label: str, place: str | None) -> str:
    shown = code(flag) if label == flag else f"{label}({code(flag)})"
    if place:
        return f"변수 {josa(shown, '은/는')} 선언 없이 쓰여 엔진이 {place}에서 멈춥니다."
    return f"변수 {josa(shown, '은/는')} 선언 없이 쓰여 엔진이 이 변수를 처음 쓰는 자리에서 멈춥니다."


def withheld_unread(*, label: str, source: str) -> str:
    text, place = effect_words(source)
    where = f"{place} " if place else ""
    return (f"{where}{code(text)}처럼 이름을 셈해서 읽는 자리가 있어 {josa(label, '이/가')} 어디에서도 읽히지 않는지는 "
            "판정하지 않았습니다.")


def finding_used_up_menu_for(*, name: str, choices: Sequence[str], readers: str) -> str:
    every = "다 " if len(choices) > 1 else ""
    return (f"{name}의 한 번만 고를 수 있는 선택지 {josa(id_list(choices), '을/를')} {every}고르고 이 장면으로 돌아온 "
            f"독자 가운데 {readers}에게는 남은 분기가 하나도 맞지 않아 이야기가 멈춥니다.")


# ----------------------------------------------------------------------------- fixes of reach (issue 30)


def _after(word: str, pair: str) -> str:
    """The particle of ``pair`` for ``word``, alone (to follow ``word(`id`)``); a pair
    without two forms (``의``, ``에서``) as it is."""
    return josa(word, pair)[len(word):] if "/" in pair else pair


def _scene_label(name: str, scene_id: str, pair: str | None = None) -> str:
    """A scene as a fix names it: its title with its id (``막힌 수문(`SC-29`)``), or
    ``장면 `id``` when it has no title of its own; ``pair``'s particle after it."""
    if not name or name == scene_id:
        head, word = f"장면 {code(scene_id)}", code(scene_id)
    else:
        head, word = f"{name}({code(scene_id)})", name
    return head + (_after(word, pair) if pair else "")


def _closest(hops: int | None) -> str:
    """Why a scene was chosen: the nearest, or (no path at all) the first by id."""
    if hops is None:
        return "이 자리와 이어진 곳이 없어 id가 가장 앞선"
    far = "하나" if hops == 1 else f"{hops}개"
    return f"분기 방향은 따지지 않고 분기 {far}를 건너는 거리로 가장 가까운(거리가 같으면 id가 앞선)"


def fix_stuck_branch(source: str, source_id: str, order: int, new_id: str, target: str, target_id: str, hops: int | None,
                     dead_end: bool) -> str:
    """The fix of a region that reaches no ending: a branch from ``source`` to the nearest
    scene that readers reach and that reaches an ending (``hops`` branches away, the
    direction of the branches ignored, ties by id), and, for a dead end, the other way:
    make it an ending."""
    sentence = (f"{_scene_label(source, source_id, '의')} 맨 뒤 순번 {order}에 조건 없는 분기 {josa(code(new_id), '을/를')} 더해, "
                f"독자가 닿고 엔딩으로 이어지는 장면 가운데 {_closest(hops)} {_scene_label(target, target_id, '으로/로')} "
                f"보내면 엔딩까지 길이 이어집니다")
    if dead_end:
        sentence = sentence[:-len("이어집니다")] + ("이어지며, 여기서 이야기가 끝나는 것이 맞다면 분기 대신 "
                                               f"{code('is_ending')} 칸을 참으로 두어도 됩니다")
    return sentence + "."


def fix_unreached_branch(source: str, source_id: str, order: int, new_id: str, target: str, target_id: str,
                         hops: int | None) -> str:
    """The fix of a region no reader enters: a branch into its root from the nearest scene
    readers reach (ties by id), and the other way: make the root an entry."""
    return (f"독자가 닿는 장면 가운데 {_closest(hops)} {_scene_label(source, source_id, '의')} 맨 뒤 순번 {order}에 "
            f"조건 없는 분기 {josa(code(new_id), '을/를')} 더해 {_scene_label(target, target_id, '으로/로')} 보내면 독자가 들어오며, "
            f"여기서 이야기가 시작되는 것이 맞다면 분기 대신 그 장면의 {code('is_entry')} 칸을 참으로 두어도 됩니다.")


def fix_mark_entry(scene: str, scene_id: str) -> str:
    """The fix of an unreached region when no branch into it would be taken: an entry."""
    return (f"독자가 닿는 장면 가운데 분기를 더해도 앞 분기에 가리지 않는 곳이 없어, {_scene_label(scene, scene_id, '의')} "
            f"{code('is_entry')} 칸을 참으로 두어 시작 장면으로 삼으면 독자가 들어옵니다.")


def fix_mark_ending(scene: str, scene_id: str) -> str:
    """The fix of a dead end when no branch out of it would do: an ending."""
    return (f"{_scene_label(scene, scene_id, '에서')} 나가는 분기가 없으니 {code('is_ending')} 칸을 참으로 두어 엔딩으로 삼으면 "
            f"여기 온 독자의 이야기가 끝납니다.")


def fix_at_root(root: str, root_id: str, stuck: bool) -> str:
    """The fix of a card whose problem comes from another scene: it points there."""
    why = "엔딩으로 가는 길이 없는" if stuck else "독자가 들어오는 길이 없는"
    return f"이 문제는 {why} {_scene_label(root, root_id, '에서')} 비롯되므로 그 장면 카드의 고치는 법을 따르면 함께 풀립니다."


def fix_not_offered(reason: str) -> str:
    """Said instead of a fix the re-analysis did not confirm (``reason``: what it found,
    ending in a connective such as ``…이 남아``)."""
    return f"찾은 고치는 법을 시나리오에 적용해 다시 따져 보니 {reason} 내놓지 않았습니다."


def fix_unchecked(size: int | None = None, limit: int | None = None, scene: str | None = None) -> str:
    """Why a fix was offered without being checked by analysing the scenario again."""
    if scene is not None:
        return (f"장면 {josa(code(scene), '은/는')} 분기나 플래그가 많아 고치는 법마다 다시 따지는 데 오래 걸리므로 "
                "이 고치는 법은 적용해 보지 않고 내놓았습니다.")
    if size is not None:
        return (f"장면과 분기가 {size:,}개로 많아 고치는 법마다 시나리오 전체를 다시 따지는 데 오래 걸리므로 "
                f"이 고치는 법은 적용해 보지 않고 내놓았습니다.")
    if limit is not None:
        return f"한 번에 적용해 보는 고치는 법 {limit}개를 넘어 이 고치는 법은 적용해 보지 않고 내놓았습니다."
    return "이 고치는 법의 수정은 메모리에서 적용해 볼 수 없는 종류라 적용해 보지 않고 내놓았습니다."


def fix_unverified_problem(target: str, verdict: str, fixed: bool) -> str:
    """The ``reason`` of :func:`fix_not_offered`: the target's problem stays, or a new one comes."""
    what = f"{verdict} 판정" if re.search(r"[가-힣]", verdict) else f"발견 {code(verdict)}"
    if not fixed:
        return f"{code(target)}의 {josa(what, '이/가')} 그대로 남아"
    return f"{code(target)}에 {josa(what, '이/가')} 새로 생겨"


def dead_end_heading(*, names: Sequence[str], loop: bool) -> str:
    """The heading of the ``끝에 못 감`` cards that run into one dead end (the text
    report): a scene with no branch out, or scenes a reader goes round with no way out
    (at most three named)."""
    if not loop:
        return f"{names[0]} — 나가는 분기가 없는 장면"
    if len(names) == 1:
        return f"{names[0]} — 제자리로 돌아올 뿐 밖으로 나가는 분기가 없는 장면"
    shown = ", ".join(names[:3]) + (f" 외 {len(names) - 3:,}곳" if len(names) > 3 else "")
    return f"{shown} — 서로 오갈 뿐 밖으로 나가는 분기가 없는 장면 {len(names):,}곳"
# ----------------------------------------------------------------------------- no fix, and why (issue 30, item 2)


def fix_none_missing(target: str, branch_id: str, near: Sequence[str] = ()) -> str:
    """Why a branch to a missing scene gets no edit: no id is spelled like it, or none of
    those that are is a scene readers reach and that reaches an ending."""
    if not near:
        why = f"{josa(code(target), '과/와')} 철자가 비슷한 장면 id가 없어 보낼 곳을 정할 수 없으니"
    else:
        why = (f"철자가 비슷한 장면 {josa(id_list(near), '은/는')} 독자가 닿고 엔딩으로 이어지는 곳이 아니어서 "
               "그리로 보내면 다른 문제가 생기니")
    return (f"{why}, 장면 {josa(code(target), '을/를')} 새로 만들거나 분기 {code(branch_id)}의 "
            f"{code('to_scene')} 칸을 이어질 장면의 id로 고치세요.")


def fix_none_tried(what: str) -> str:
    """Why a condition problem gets no edit: every candidate, decided again in its scene,
    left the problem or brought another (``what``: the problem, as a noun phrase)."""
    return (f"{what} 풀려고 만든 수정 후보는 장면을 다시 따져 보니 모두 문제가 그대로 남거나 다른 문제가 생기므로, "
            "어떤 독자가 이 분기를 타야 하는지 정해 조건을 손으로 고치세요.")


def fix_none_contradiction(branch_id: str) -> str:
    """Why an unsatisfiable condition without a comparison out of range gets no edit."""
    return (f"분기 {code(branch_id)}의 조건은 범위를 벗어난 비교 하나 때문이 아니라 조건끼리 서로 부딪쳐 참이 될 수 "
            "없고 어느 쪽을 고칠지는 정할 수 없으므로, 어떤 독자가 이 분기를 타야 하는지 정해 조건을 다시 쓰세요.")


def fix_none_dead(ids: Sequence[str]) -> str:
    """Why a scene reached (or ending) only through dead branches gets no edit: none of
    those branches has a fix of its own."""
    return (f"이 장면이 기대는 {branches_(ids, '은/는')} 어느 것도 고칠 내용이 나오지 않았으므로, "
            "그 분기 카드에 적힌 까닭을 보고 조건이나 순번을 손으로 고치세요.")


def fix_undone(code_: str, ids: Sequence[str], previous: str | None = None) -> str:
    """The fix of a card shown as 표로만 닿음: it points to where the problem is fixed (the
    branch hiding this one, this branch's own condition, or the branches that never fire)."""
    if code_ == "never-fires" and previous is not None:
        return (f"이 분기를 가리는 앞 순번 {branches_([previous], '의')} 카드에 적힌 고치는 법을 따르면 "
                "이 분기도 걸리게 됩니다.")
    if code_ in ("never-fires", "unsatisfiable-condition"):
        return "이 분기 조건이 참이 될 수 없다는 발견에 적힌 고치는 법을 따르면 이 분기도 걸리게 됩니다."
    return (f"이 문제는 한 번도 걸리지 않는 {branches_(ids, '에서')} 비롯되므로 같은 장면의 발견에 적힌 고치는 법을 "
            "따르면 함께 풀립니다.")


def fix_none_unlisted(scene_id: str, branch_id: str) -> str:
    """Why a branch out of a scene missing from the list gets no edit."""
    return (f"분기 {josa(code(branch_id), '이/가')} 떠나는 장면 {josa(code(scene_id), '은/는')} 장면 목록에 없어 "
            f"고칠 내용을 정할 수 없으니, 장면 {josa(code(scene_id), '을/를')} 목록에 더하거나 이 분기의 줄을 지우세요.")

