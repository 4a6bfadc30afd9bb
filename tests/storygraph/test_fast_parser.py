"""The fast condition parser builds exactly the tree the lark grammar builds, or steps
aside (returns ``None``) so that lark decides — on generated texts, including odd
spacing, keyword look-alikes and broken input."""

from __future__ import annotations

from hypothesis import given, strategies as st

from storygraph.conditions import _fast_parse, _lark_parse
from verdicts.errors import ConditionSyntaxError

names = st.sampled_from(["trust", "has_key", "notable", "android", "orange", "x.y", "신뢰도", "and", "or", "not", "TRUE", "n0"])
numbers = st.integers(-20, 1_000_000).map(str) | st.sampled_from(["+3", "007", "3.5", "3abc"])
strings = st.sampled_from(['"south"', "'north'", '"a b"', '"'])
operands = names | numbers | strings | st.sampled_from(["true", "False"])
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
    fast = _fast_parse(text)
    try:
        slow = _lark_parse(text)
    except ConditionSyntaxError:
        assert fast is None, f"fast path accepted {text!r}, which the grammar rejects"
        return
    if fast is not None:
        assert fast == slow


def test_common_texts_take_the_fast_path():
    for text in ["trust >= 3 and has_key", "1 < trust < 4", "not (route == 'south' or x)", "a && !b || c"]:
        assert _fast_parse(text) == _lark_parse(text)
