"""The fast condition parser builds exactly the tree the lark grammar builds, or steps
aside (returns ``None``) so that lark decides — on generated texts: valid conditions in
every spelling the grammar allows, the same conditions broken in random places, odd
spacing and keyword look-alikes, and nesting around :data:`MAX_NESTING`.  Every error,
whichever path saw the text first, is lark's."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, strategies as st

from storygraph.conditions import (
    MAX_NESTING, And, Compare, Const, FlagTrue, Not, Or, _fast_parse, _lark_parse, _learn, expr_atoms, parse_condition,
)
from verdicts.errors import ConditionSyntaxError


def lark_outcome(text: str):
    """Lark's tree, or its error as ``(position, expected, message)``."""
    try:
        return _lark_parse(text)
    except ConditionSyntaxError as err:
        return (err.position, err.expected, err.message)


def public_outcome(text: str):
    parse_condition.cache_clear()
    try:
        return parse_condition(text)
    except ConditionSyntaxError as err:
        return (err.position, err.expected, err.message)


def assert_fast_agrees(text: str) -> object:
    """The property itself; returns lark's outcome."""
    fast = _fast_parse(text)
    slow = lark_outcome(text)
    if isinstance(slow, tuple):
        assert fast is None, f"fast path accepted {text!r}, which the grammar rejects: {slow}"
    elif fast is not None:
        assert fast == slow, text
        # the atoms the fast parse records are those a walk of the tree finds
        assert tuple(_learn(fast)[3]) == tuple(expr_atoms(parse_condition(text)))
    # what callers see is lark's outcome: its tree, or its error message and position
    assert public_outcome(text) == slow, text
    return slow


# ----------------------------------------------------------------------------- valid texts

# names the grammar reads as flags, including keyword look-alikes and dotted / Korean names
flag_names = st.sampled_from(["trust", "has_key", "notable", "android", "orange", "true_love", "x.y", "신뢰도", "n0", "_x"])
ints = st.integers(-50, 1_000_000)
strings = st.sampled_from(["south", "north", "a b", "", "남쪽"])
cmp_ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "="])
spaces = st.sampled_from(["", " ", "  ", "\t", " \n "])


@st.composite
def values(draw) -> str:
    kind = draw(st.integers(0, 2))
    if kind == 0:
        n = draw(ints)
        return draw(st.sampled_from([str(n), f"+{n}" if n >= 0 else str(n)]))
    if kind == 1:
        quote = draw(st.sampled_from(['"', "'"]))
        return quote + draw(strings) + quote
    return draw(st.sampled_from(["true", "false", "TRUE", "False"]))


@st.composite
def comparisons(draw) -> str:
    """``flag op value``, ``value op flag``, or a chain ``v < flag < v``."""
    flag, sp = draw(flag_names), draw(spaces)
    shape = draw(st.integers(0, 2))
    if shape == 0:
        return f"{flag}{sp}{draw(cmp_ops)}{sp}{draw(values())}"
    if shape == 1:
        return f"{draw(values())}{sp}{draw(cmp_ops)} {flag}"
    return f"{draw(values())} {draw(cmp_ops)} {flag} {draw(cmp_ops)} {draw(values())}"


@st.composite
def conditions(draw, depth: int = 3) -> str:
    """A valid condition in a random spelling (and/&&/AND, or/||, not/!/NOT, redundant
    parentheses, spacing)."""
    kind = draw(st.integers(0, 6 if depth else 2))
    if kind == 0:
        return draw(flag_names)
    if kind == 1:
        return draw(comparisons())
    if kind == 2:
        return draw(st.sampled_from(["true", "false", "True"]))
    if kind == 3:
        word = draw(st.sampled_from(["not ", "!", "NOT ", "! ", "not("]))
        inner = draw(conditions(depth=depth - 1))
        if word.endswith("("):
            return f"{word}{inner})"
        return f"{word}({inner})" if draw(st.booleans()) else word + _atomic(inner)
    if kind == 4:
        return f"({draw(spaces)}{draw(conditions(depth=depth - 1))}{draw(spaces)})"
    word = draw(st.sampled_from([" and ", " && ", " AND ", "&&"] if kind == 5 else [" or ", " || ", " Or ", "||"]))
    parts = [draw(conditions(depth=depth - 1)) for _ in range(draw(st.integers(2, 4)))]
    return word.join(p if _atomic(p) == p else f"({p})" for p in parts)


def _atomic(text: str) -> str:
    """``text`` as an operand of ``not``/``and``/``or``: bracketed unless it is a bare
    word, comparison or negation."""
    t = text.strip()
    if any(w in t.lower() for w in (" and ", " or ", "&&", "||", "and(", "or(")):
        return f"({text})"
    return text


@given(spaces, conditions(), spaces)
def test_valid_conditions_take_the_fast_path_to_the_grammar_tree(before, text, after):
    text = before + text + after
    slow = assert_fast_agrees(text)
    assert not isinstance(slow, tuple), (text, slow)
    # well-formed, and no word that starts with a keyword: the fast path must not step
    # aside (it is what keeps 121,000 conditions at 100k scenes cheap)
    assert _fast_parse(text) is not None, text


# ----------------------------------------------------------------------------- broken texts

breakers = st.sampled_from(["(", ")", "and", "or", "not", "!", "==", "<", "&", "|", "\"", "'", "3", "x", "true", ",", "=<", "&&"])


@st.composite
def broken(draw) -> str:
    """A valid condition with a piece cut out, a token put in, or both."""
    text = draw(conditions())
    for _ in range(draw(st.integers(1, 2))):
        i = draw(st.integers(0, len(text)))
        if draw(st.booleans()):
            j = draw(st.integers(i, min(len(text), i + 4)))
            text = text[:i] + text[j:]
        else:
            text = text[:i] + draw(st.sampled_from(["", " "])) + draw(breakers) + draw(st.sampled_from(["", " "])) + text[i:]
    return text


@given(broken())
def test_broken_conditions_are_left_to_lark(text):
    assume(text.strip())
    assert_fast_agrees(text)


# the older generator: odd spacing, keyword look-alikes, numbers with letters, bad operators
names = st.sampled_from(["trust", "has_key", "notable", "android", "orange", "x.y", "신뢰도", "and", "or", "not", "TRUE", "n0"])
numbers = st.integers(-20, 1_000_000).map(str) | st.sampled_from(["+3", "007", "3.5", "3abc"])
quoted = st.sampled_from(['"south"', "'north'", '"a b"', '"'])
operands = names | numbers | quoted | st.sampled_from(["true", "False"])
ops = st.sampled_from(["==", "!=", "<", "<=", ">", ">=", "=", "=<", "<>"])
joins = st.sampled_from([" and ", " or ", " && ", " || ", " AND ", "and", " & "])
nots = st.sampled_from(["", "not ", "!", "NOT ", "not", "! "])


@st.composite
def texts(draw, depth=2):
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.integers(0, 4 if depth else 3))
        if kind == 0:
            atom = draw(names)
        elif kind in (1, 2):
            atom = draw(operands) + draw(st.sampled_from(["", " ", "  "])) + draw(ops) + " " + draw(operands)
            if draw(st.booleans()):
                atom += " " + draw(ops) + " " + draw(operands)
        elif kind == 3:
            atom = draw(st.sampled_from(["true", "false", "(", ")", "x ==", ""]))
        else:
            atom = "(" + draw(texts(depth=depth - 1)) + draw(st.sampled_from([")", "", "))"]))
        parts.append(draw(nots) + atom)
    out = parts[0]
    for p in parts[1:]:
        out += draw(joins) + p
    return draw(st.sampled_from(["", " ", "\t"])) + out + draw(st.sampled_from(["", " ", "\n"]))


@given(texts())
def test_fast_path_builds_the_grammar_tree_or_steps_aside(text):
    assume(text.strip())
    assert_fast_agrees(text)


# ----------------------------------------------------------------------------- nesting


@st.composite
def nested(draw) -> tuple[str, int]:
    """A condition whose deepest point is ``depth`` levels of parentheses and ``not``
    (around MAX_NESTING), maybe inside a larger condition; returns it with the depth."""
    depth = draw(st.integers(MAX_NESTING - 2, MAX_NESTING + 2))
    openers = draw(st.lists(st.sampled_from(["(", "not ", "!", "NOT ", "( "]), min_size=depth, max_size=depth))
    core = draw(st.sampled_from(["x", "trust >= 3", "1 < t < 4", "a and b"]))
    text = core
    for opener in reversed(openers):
        text = f"({text})" if opener.startswith("(") else f"{opener}{text}"
    prefix = draw(st.sampled_from(["", "a and ", "not b or ", "(c) && "]))
    return prefix + text, depth  # the prefix's own ``not`` and parentheses are shallow


@given(nested())
def test_nesting_beyond_the_limit_is_lark_s_syntax_error(case):
    text, depth = case
    slow = assert_fast_agrees(text)
    if depth <= MAX_NESTING:
        assert not isinstance(slow, tuple), (text, slow)
        assert _fast_parse(text) is not None, "within the limit the fast path decides"
    else:
        assert isinstance(slow, tuple), text
        position, _expected, message = slow
        assert f"{MAX_NESTING}단계" in message
        assert text[position - 1] in "(!nN", "the caret sits under an opener"


@pytest.mark.parametrize("text", [
    "(" * 244 + "x" + ")" * 244,
    "not " * 978 + "x",
    "!" * 978 + "x",
    "(not " * 300 + "x" + ")" * 300,
    "(" * 5000 + "x" + ")" * 5000,
    "trust > 1 and " + "(" * 1000 + "x" + ")" * 1000,
])
def test_very_deep_nesting_is_a_syntax_error_not_a_crash(text):
    with pytest.raises(ConditionSyntaxError) as info:
        parse_condition(text)
    assert f"{MAX_NESTING}단계" in info.value.message
    assert info.value.caret.split("\n")[1].index("^") == info.value.position - 1


def test_nesting_at_the_limit_parses_on_the_fast_path():
    text = "(" * (MAX_NESTING - 1) + "not x" + ")" * (MAX_NESTING - 1)
    tree = parse_condition(text)
    assert tree == Not(FlagTrue("x", MAX_NESTING + 4)) == _fast_parse(text) == _lark_parse(text)


def test_common_texts_take_the_fast_path():
    for text in ["trust >= 3 and has_key", "1 < trust < 4", "not (route == 'south' or x)", "a && !b || c"]:
        assert _fast_parse(text) == _lark_parse(text)
    assert _fast_parse("3 <= t || !(k)") == Or((Compare("t", ">=", 3, 6), Not(FlagTrue("k", 13))))
    assert _fast_parse("TRUE and a") == And((Const(True), FlagTrue("a", 10)))
