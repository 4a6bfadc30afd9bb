"""The condition language: parsing ``condition_expr`` into a typed AST, checking it
against ``flag_spec``, evaluating it, and converting it to sympy.

The grammar lives in ``grammar/condition.lark``.  A text that does not follow it raises
:class:`~verdicts.errors.ConditionSyntaxError` with the 1-based position, what was
expected there and the text with a caret; lark's own exceptions never escape.

>>> parse_condition("3 <= trust and !has_key")
And(args=(Compare(flag='trust', op='>=', value=3, pos=6), Not(arg=FlagTrue(flag='has_key', pos=17))))
>>> parse_condition("1 < trust < 4")
And(args=(Compare(flag='trust', op='>', value=1, pos=5), Compare(flag='trust', op='<', value=4, pos=5)))
"""

from __future__ import annotations

import operator
import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Union

from verdicts.errors import ConditionSyntaxError
from verdicts.korean import josa
from verdicts.records import Frozen

from .model import Flag

if TYPE_CHECKING:  # lark is imported when a text needs the grammar (see parse_condition)
    from lark import Lark, Token, Tree
    from lark.exceptions import UnexpectedInput

__all__ = [
    "Const", "FlagTrue", "Compare", "Not", "And", "Or", "Expr",
    "parse_condition", "MAX_NESTING", "MAX_INT_DIGITS", "grammar_text", "flags_of", "expr_facts", "expr_atoms", "OPS",
    "TypeProblem", "check_types", "types_fit", "compile3", "Eval3", "evaluate", "to_sympy", "render",
]

# ----------------------------------------------------------------------------- AST


# the nodes are frozen records (verdicts.records: what a frozen dataclass with slots gave,
# without compiling its methods at import)
_set = object.__setattr__


class Const(Frozen):
    """Always true or always false (an empty condition is ``Const(True)``)."""

    __slots__ = ("value",)
    value: bool

    def __init__(self, value: bool):
        _set(self, "value", value)


class FlagTrue(Frozen):
    """A bare flag name: the (bool) flag is true."""

    __slots__ = ("flag", "pos")
    flag: str
    pos: int

    def __init__(self, flag: str, pos: int):
        _set(self, "flag", flag)
        _set(self, "pos", pos)


class Compare(Frozen):
    """``flag op value`` with the flag always on the left (``3 <= t`` becomes ``t >= 3``).
    ``op`` is one of ``== != < <= > >=`` (``=`` is read as ``==``)."""

    __slots__ = ("flag", "op", "value", "pos")
    flag: str
    op: str
    value: int | str | bool
    pos: int

    def __init__(self, flag: str, op: str, value: int | str | bool, pos: int):
        _set(self, "flag", flag)
        _set(self, "op", op)
        _set(self, "value", value)
        _set(self, "pos", pos)


class Not(Frozen):
    __slots__ = ("arg",)
    arg: "Expr"

    def __init__(self, arg: "Expr"):
        _set(self, "arg", arg)


class And(Frozen):
    __slots__ = ("args",)
    args: tuple["Expr", ...]

    def __init__(self, args: tuple["Expr", ...]):
        _set(self, "args", args)


class Or(Frozen):
    __slots__ = ("args",)
    args: tuple["Expr", ...]

    def __init__(self, args: tuple["Expr", ...]):
        _set(self, "args", args)


Expr = Union[Const, FlagTrue, Compare, Not, And, Or]

_FLIP = {"==": "==", "!=": "!=", "<": ">", "<=": ">=", ">": "<", ">=": "<="}
#: the comparison operators of the AST as functions (``Compare.op`` -> its test)
OPS: dict[str, Callable[[Any, Any], bool]] = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
}

# ----------------------------------------------------------------------------- parsing


def grammar_text() -> str:
    """The grammar, from the installed package or, in a source checkout, ``grammar/``."""
    from importlib import resources

    try:
        return resources.files("storygraph").joinpath("grammar/condition.lark").read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        here = Path(__file__).resolve()
        for parent in here.parents:
            candidate = parent / "grammar" / "condition.lark"
            if candidate.is_file():
                return candidate.read_text(encoding="utf-8")
        raise


@lru_cache(maxsize=1)
def _parser() -> Lark:
    from lark import Lark

    return Lark(grammar_text(), parser="lalr", propagate_positions=False, maybe_placeholders=False)


class _Operand:
    __slots__ = ("kind", "value", "pos", "text")

    def __init__(self, kind: str, value: Any, pos: int, text: str):
        self.kind, self.value, self.pos, self.text = kind, value, pos, text


class _SemanticError(Exception):
    def __init__(self, pos: int, message: str):
        self.pos, self.message = pos, message


def _column(tok: Token) -> int:
    """The 1-based position of a token of a parse (lark sets it on every token it reads)."""
    assert tok.start_pos is not None
    return tok.start_pos + 1


class _ToAstRules:
    """The grammar's tree to our AST, one method per rule (lark's ``Transformer`` is
    mixed in by :func:`_to_ast`)."""

    def any_of(self, *args):
        return args[0] if len(args) == 1 else Or(tuple(args))

    def all_of(self, *args):
        return args[0] if len(args) == 1 else And(tuple(args))

    def negation(self, arg):
        return Not(arg)

    def bare_flag(self, tok: Token):
        return FlagTrue(str(tok), _column(tok))

    def truth(self, tok: Token):
        return Const(str(tok).lower() == "true")

    def flag_operand(self, tok: Token):
        return _Operand("flag", str(tok), _column(tok), str(tok))

    def int_operand(self, tok: Token):
        digits = len(tok.lstrip("+-"))
        if digits > MAX_INT_DIGITS:
            pos = _column(tok)
            raise _SemanticError(pos, f"{pos}번째 글자의 정수가 {digits:,}자리라 너무 깁니다; 정수는 {MAX_INT_DIGITS:,}자리까지만 쓸 수 있습니다.")
        return _Operand("int", int(tok), _column(tok), str(tok))

    def string_operand(self, tok: Token):
        return _Operand("str", str(tok)[1:-1], _column(tok), str(tok))

    def bool_operand(self, tok: Token):
        return _Operand("bool", str(tok).lower() == "true", _column(tok), str(tok))

    def comparison(self, *items):
        parts = []
        for i in range(0, len(items) - 2, 2):
            left, op_tok, right = items[i], items[i + 1], items[i + 2]
            op = "==" if str(op_tok) == "=" else str(op_tok)
            if left.kind == "flag" and right.kind != "flag":
                parts.append(Compare(left.value, op, right.value, left.pos))
            elif right.kind == "flag" and left.kind != "flag":
                parts.append(Compare(right.value, _FLIP[op], left.value, right.pos))
            elif left.kind == "flag":
                raise _SemanticError(right.pos, f"두 플래그 {josa(_q(left.text), '과/와')} {josa(_q(right.text), '을/를')} 서로 비교할 수는 없습니다. 한쪽은 정수나 따옴표 문자열이어야 합니다. 문자열 값이라면 {_q(chr(34) + right.text + chr(34))}처럼 따옴표로 감싸 주세요.")
            else:
                raise _SemanticError(left.pos, f"{_q(f'{left.text} {op_tok} {right.text}')}에는 플래그가 없습니다. 비교의 한쪽은 플래그 이름이어야 합니다.")
        return parts[0] if len(parts) == 1 else And(tuple(parts))


@lru_cache(maxsize=1)
def _to_ast():
    from lark import Transformer, v_args

    # the rules are copied into the class itself: v_args rewrites only a class's own methods
    rules = {k: v for k, v in vars(_ToAstRules).items() if not k.startswith("__")}
    return v_args(inline=True)(type("_ToAst", (Transformer,), rules))()


_TOKEN_WORDS = {
    "NAME": "플래그 이름",
    "SIGNED_INT": "정수",
    "STRING": "따옴표 문자열",
    "LPAR": "`(`",
    "RPAR": "`)`",
    "COMP_OP": "비교 연산자(`==` `!=` `<` `<=` `>` `>=`)",
    "_AND": "`and`",
    "_OR": "`or`",
    "_NOT": "`not`",
    "TRUE": "`true`",
    "FALSE": "`false`",
    "$END": "식의 끝",
}
_KEYWORD_TOKENS = {"_AND", "_OR", "_NOT", "TRUE", "FALSE"}
_ORDER = ["NAME", "SIGNED_INT", "STRING", "TRUE", "FALSE", "LPAR", "_NOT", "COMP_OP", "_AND", "_OR", "RPAR", "$END"]


def _expected_words(expected: set[str]) -> list[str]:
    names = [t for t in _ORDER if t in expected] + sorted(t for t in expected if t not in _ORDER)
    words = []
    for t in names:
        w = _TOKEN_WORDS.get(t, t)
        if w not in words:
            words.append(w)
    return words


def _one_of(words: list[str]) -> str:
    if len(words) == 1:
        return josa(words[0], "이/가")
    return f"{', '.join(words)} 가운데 하나가"


def _balanced(prefix: str) -> bool:
    return prefix.count("(") <= prefix.count(")")


def _friendly(text: str, exc: UnexpectedInput) -> ConditionSyntaxError:
    """Turn lark's exception into a message with position and what was expected; a
    closing parenthesis is only suggested when one is open."""
    err = _friendly_raw(text, exc)
    if "`)`" in err.expected and _balanced(text[: err.position - 1]):
        expected = [w for w in err.expected if w != "`)`"]
        message = err.message.replace(_one_of(err.expected), _one_of(expected)) if expected else err.message
        return ConditionSyntaxError(text, err.position, expected, message)
    return err


def _friendly_raw(text: str, exc: UnexpectedInput) -> ConditionSyntaxError:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if isinstance(exc, UnexpectedCharacters):
        assert exc.pos_in_stream is not None  # the lexer's position of the character
        pos = exc.column if exc.column and exc.column > 0 else exc.pos_in_stream + 1
        ch = text[pos - 1] if 0 < pos <= len(text) else ""
        hint = {"&": " '그리고'는 `and`나 `&&`로 씁니다.", "|": " '또는'은 `or`나 `||`로 씁니다.",
                '"': " 따옴표가 닫히지 않았습니다.", "'": " 따옴표가 닫히지 않았습니다."}.get(ch, "")
        expected = _expected_words(set(exc.allowed or ()))
        exp_text = f" 이 자리에는 {_one_of(expected)} 와야 합니다." if expected else ""
        return ConditionSyntaxError(text, pos, expected, f"{pos}번째 글자 {josa(_q(ch), '은/는')} 조건식에 쓸 수 없습니다.{hint}{exp_text}")
    if isinstance(exc, (UnexpectedToken, UnexpectedEOF)):
        token = getattr(exc, "token", None)
        expected = _expected_words(set(getattr(exc, "expected", None) or getattr(exc, "accepts", None) or ()))
        at_end = token is None or token.type == "$END"
        if at_end:
            pos = len(text.rstrip()) + 1
            return ConditionSyntaxError(
                text, pos, expected,
                f"식이 {pos}번째 글자에서 끝났는데 {_one_of(expected)} 더 와야 합니다.",
            )
        assert token is not None  # else at_end
        pos = token.start_pos + 1 if token.start_pos is not None else 1
        word = str(token)
        extra = ""
        if token.type in _KEYWORD_TOKENS and "플래그 이름" in expected:
            extra = f" {josa(_q(word), '은/는')} 예약어라 플래그 이름으로 쓸 수 없습니다."
        return ConditionSyntaxError(
            text, pos, expected,
            f"{pos}번째 글자의 {josa(_q(word), '은/는')} 이 자리에 올 수 없습니다. 이 자리에는 {_one_of(expected)} 와야 합니다.{extra}",
        )
    return ConditionSyntaxError(text, 1, [], f"조건식을 읽을 수 없습니다 ({exc}).")  # pragma: no cover


#: how deeply parentheses and ``not`` may nest, counted together (``not (not x)`` is
#: three levels deep at ``x``).  Deeper text is a syntax error: no creator writes it, and
#: every walk over a tree (lark's own transformer included) would otherwise run out of
#: Python's recursion limit on it.
MAX_NESTING = 100
#: the most digits an integer of a condition may have (longer is a syntax error): far
#: past any flag's range, and short enough that a class boundary (``c + 1``) and every
#: count made from it can still be written out (Python refuses to write integers over
#: 4,300 digits)
MAX_INT_DIGITS = 1000


@lru_cache(maxsize=1 << 18)
def parse_condition(text: str | None) -> Expr:
    """Parse a ``condition_expr``; empty or blank text is ``Const(True)``.

    Raises :class:`~verdicts.errors.ConditionSyntaxError`, also for parentheses and
    ``not`` nested more than :data:`MAX_NESTING` levels deep.  Results are cached, so an
    identical condition text is parsed once per process.  Well-formed texts take a fast
    hand-written path (:func:`_fast_parse`) that builds the very same tree as the lark
    grammar; anything it is not sure of goes to lark, which also writes every error
    message.

    >>> parse_condition("  ")
    Const(value=True)
    >>> parse_condition("(" * 101 + "x" + ")" * 101)
    Traceback (most recent call last):
    ...
    verdicts.errors.ConditionSyntaxError: 101번째 글자에서 괄호와 not이 100단계보다 깊게 겹칩니다. 100단계까지만 쓸 수 있으니 식을 나누거나 겹친 괄호를 줄여 주세요.
    """
    if text is None or not text.strip():
        return Const(True)
    atoms: list = []
    fast = _fast_parse(text, atoms)
    if fast is not None:
        _remember(fast, atoms)  # the parse met every atom in reading order: no walk needed later
        return fast
    return _lark_parse(text)


def _lark_parse(text: str) -> Expr:
    """The grammar's own parse (``grammar/condition.lark``), with friendly errors."""
    from lark.exceptions import UnexpectedInput, VisitError

    try:
        tree = _parser().parse(text)
    except UnexpectedInput as exc:
        raise _friendly(text, exc) from None
    _check_nesting(text, tree)
    try:
        return _to_ast().transform(tree)
    except VisitError as exc:
        inner = exc.orig_exc
        if isinstance(inner, _SemanticError):
            raise ConditionSyntaxError(text, inner.pos, [], inner.message) from None
        raise ConditionSyntaxError(text, 1, [], f"조건식을 읽을 수 없습니다 ({inner}).") from None


def _check_nesting(text: str, tree: Tree) -> None:
    """Raise :class:`ConditionSyntaxError` when ``tree`` (lark's, not yet transformed)
    nests parentheses and ``not`` more than :data:`MAX_NESTING` levels deep; the caret
    goes under the ``(`` or ``not`` that opens the first level too many.

    A level is a ``negation`` node or an ``any_of`` node below the root (the grammar
    makes one ``any_of`` for the whole text and one inside each pair of parentheses).
    The walk keeps its own stack: the tree may be far deeper than Python's recursion
    limit.
    """
    from lark import Tree

    stack: list[tuple[Tree, int]] = [(tree, 0)]
    while stack:
        node, level = stack.pop()
        if node.data in ("negation", "any_of") and node is not tree:
            level += 1
            if level > MAX_NESTING:
                raise _too_deep(text, node)
        stack.extend((child, level) for child in node.children if isinstance(child, Tree))


def _too_deep(text: str, node: Tree) -> ConditionSyntaxError:
    """The error for ``node``, the first level past the limit: its openers (``(``,
    ``not``, ``!``) stand right before its leftmost token, one for each level met on the
    way down to it."""
    from lark import Tree

    openers = 0
    while isinstance(node, Tree):
        if node.data in ("negation", "any_of"):
            openers += 1
        node = node.children[0]
    pos = node.start_pos  # 0-based start of the leftmost token
    while openers:
        pos = len(text[:pos].rstrip(" \t\f\r\n"))
        if text[pos - 1] in "(!":
            pos -= 1
        else:  # a ``not`` keyword
            pos -= 3
        openers -= 1
    return ConditionSyntaxError(
        text, pos + 1, [],
        f"{pos + 1}번째 글자에서 괄호와 not이 {MAX_NESTING}단계보다 깊게 겹칩니다. "
        f"{MAX_NESTING}단계까지만 쓸 수 있으니 식을 나누거나 겹친 괄호를 줄여 주세요.",
    )


# The fast path: a tokenizer and a parser for the same grammar.  It returns ``None`` (and
# lark takes over) on anything unusual: an error of any kind, a word that lark would split
# at a keyword, a comparison of two flags, nesting past MAX_NESTING.
#
# One ``findall`` cuts the whole text into (space, operator, string, int, word) tuples;
# the positions follow from the lengths.  ``findall`` skips what matches nothing, so the
# lengths must add up to the text (less trailing space), else the text is left to lark.
_SCAN = re.compile(
    r"([ \t\f\r\n]*)(?:(==|!=|<=|>=|&&|\|\||[<>=!()])|(\"[^\"\n]*\"|'[^'\n]*')|([+-]?\d+(?![\w.]))|([^\W\d][\w.]*))"
)
_KEYWORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false"}
_KEYWORD_PREFIX = re.compile(r"(?i:and|or|not|true|false)\b")
_OP_KINDS = {"&&": "and", "||": "or", "!": "not", "(": "(", ")": ")"}
_COMPARE = {"==": "==", "!=": "!=", "<=": "<=", ">=": ">=", "<": "<", ">": ">", "=": "=="}


class _Bail(Exception):
    pass


def _tokens(text: str) -> list[tuple[str, Any, int]] | None:
    """``(kind, value, 1-based position)`` triples, or ``None`` when unsure."""
    out: list[tuple[str, Any, int]] = []
    append = out.append
    end = 0
    for space, op, string, number, word in _SCAN.findall(text):
        start = end + len(space) + 1
        if op:
            end = start + len(op) - 1
            kind = _OP_KINDS.get(op)
            if kind is None:
                append(("cmp", _COMPARE[op], start))
            else:
                append((kind, op, start))
        elif word:
            end = start + len(word) - 1
            kind = _KEYWORDS.get(word.lower())
            if kind is not None:
                append((kind, word, start))
            elif _KEYWORD_PREFIX.match(word):
                return None  # lark reads a keyword and then the rest: let it say so
            else:
                append(("name", word, start))
        elif number:
            if len(number) > MAX_INT_DIGITS:
                return None  # lark's parse says that it is too long
            end = start + len(number) - 1
            append(("int", int(number), start))
        else:
            end = start + len(string) - 1
            append(("str", string[1:-1], start))
    if end != len(text) and text[end:].strip(" \t\f\r\n"):
        return None  # something matched no token (or the lengths do not add up)
    return out


def _operand(tok: tuple[str, Any, int]) -> tuple[str, Any, int]:
    kind, value, pos = tok
    if kind == "name":
        return "flag", value, pos
    if kind == "int" or kind == "str":
        return tok
    if kind == "true" or kind == "false":
        return "bool", kind == "true", pos
    raise _Bail


def _fast_compare(left: tuple[str, Any, int], op: str, right: tuple[str, Any, int]) -> Compare:
    """One comparison, the flag put on the left; :class:`_Bail` when both or neither
    side is a flag (lark then writes the message)."""
    if left[0] == "flag" and right[0] != "flag":
        return Compare(left[1], op, right[1], left[2])
    if right[0] == "flag" and left[0] != "flag":
        return Compare(right[1], _FLIP[op], left[1], right[2])
    raise _Bail


def _fast_parse(text: str, atoms: list | None = None) -> Expr | None:
    """The grammar's tree for ``text``, or ``None`` when lark should decide.

    A loop with an explicit stack of open parentheses (no recursion, whatever the
    depth): ``or`` binds loosest, then ``and``, then ``not``; a comparison chain
    ``1 < x < 4`` is an ``And`` of its links.  Every comparison and bare flag made is
    appended to ``atoms`` when given (so in reading order).
    """
    toks = _tokens(text)
    if not toks:
        return None
    if atoms is None:
        atoms = []
    try:
        return _loop(toks, atoms)
    except _Bail:
        return None


def _loop(toks: list[tuple[str, Any, int]], atoms: list) -> Expr | None:
    n = len(toks)
    stack: list[tuple[list, list, int]] = []
    or_parts: list[Expr] = []
    and_parts: list[Expr] = []
    nots = 0
    #: open parentheses and pending ``not`` around the current position (see MAX_NESTING)
    level = 0
    i = 0
    while True:
        # an operand is expected
        if i >= n:
            return None
        kind, value, pos = toks[i]
        if kind == "not" or kind == "(":
            level += 1
            if level > MAX_NESTING:
                return None  # lark says so, with the position
            i += 1
            if kind == "not":
                nots += 1
            else:
                stack.append((or_parts, and_parts, nots))
                or_parts, and_parts, nots = [], [], 0
            continue
        node: Expr
        if i + 1 < n and toks[i + 1][0] == "cmp":
            left = _operand(toks[i])
            parts: list[Expr] = []
            i += 1
            while i < n and toks[i][0] == "cmp":
                op = toks[i][1]
                if i + 1 >= n:
                    return None
                right = _operand(toks[i + 1])
                parts.append(_fast_compare(left, op, right))  # _Bail: lark explains
                left = right
                i += 2
            atoms.extend(parts)
            node = parts[0] if len(parts) == 1 else And(tuple(parts))
        elif kind == "name":
            node = FlagTrue(value, pos)
            atoms.append(node)
            i += 1
        elif kind == "true" or kind == "false":
            node = Const(kind == "true")
            i += 1
        else:
            return None
        level -= nots
        while nots:
            node = Not(node)
            nots -= 1
        and_parts.append(node)
        # an operator, a closing parenthesis or the end is expected
        while True:
            kind = toks[i][0] if i < n else "$end"
            if kind == "and":
                i += 1
                break
            if kind == "or":
                or_parts.append(and_parts[0] if len(and_parts) == 1 else And(tuple(and_parts)))
                and_parts = []
                i += 1
                break
            group = and_parts[0] if len(and_parts) == 1 else And(tuple(and_parts))
            if or_parts:
                or_parts.append(group)
                group = Or(tuple(or_parts))
            if kind == ")" and stack:
                or_parts, and_parts, nots = stack.pop()
                i += 1
                level -= 1 + nots
                while nots:
                    group = Not(group)
                    nots -= 1
                and_parts.append(group)
                continue
            if kind == "$end" and not stack:
                return group
            return None


# ----------------------------------------------------------------------------- walking


def _walk(expr: Expr) -> Iterator[Expr]:
    stack = [expr]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, Not):
            stack.append(node.arg)
        elif isinstance(node, (And, Or)):
            stack.extend(reversed(node.args))


#: id(expr) -> (expr, flags, constants): the analysis, the findings and the cards ask
#: the same questions of the same (cached, immutable) trees many times over.  The tree is
#: kept in the entry so that its id cannot be reused while the entry exists.
_FACTS: dict[int, tuple[Expr, tuple[str, ...], dict[str, tuple], tuple]] = {}
_FACTS_LIMIT = 1 << 19


def expr_facts(expr: Expr) -> tuple[tuple[str, ...], dict[str, tuple]]:
    """``(flags, constants)`` of ``expr``: the flag names it uses in order of first
    appearance, and for each flag the literal values it is compared with.  Remembered per
    tree; the answer is shared, so callers must not change it."""
    hit = _FACTS.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[1], hit[2]
    entry = _learn(expr)
    return entry[1], entry[2]


def expr_atoms(expr: Expr) -> tuple:
    """The comparisons and bare flags of ``expr``, in reading order (remembered per tree)."""
    hit = _FACTS.get(id(expr))
    if hit is not None and hit[0] is expr:
        return hit[3]
    return _learn(expr)[3]


def _learn(expr: Expr) -> tuple[Expr, tuple[str, ...], dict[str, tuple], tuple]:
    atoms = []
    stack = [expr]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is Compare or kind is FlagTrue:
            atoms.append(node)
        elif kind is Not:
            stack.append(node.arg)  # type: ignore[union-attr]
        elif kind is And or kind is Or:
            stack.extend(reversed(node.args))  # type: ignore[union-attr]
    return _remember(expr, atoms)


def _remember(expr: Expr, atoms: list) -> tuple[Expr, tuple[str, ...], dict[str, tuple], tuple]:
    """Record the facts of ``expr`` given its atoms in reading order."""
    seen: dict[str, None] = {}
    consts: dict[str, set] = {}
    for node in atoms:
        seen[node.flag] = None
        if type(node) is Compare:
            have = consts.get(node.flag)
            if have is None:
                consts[node.flag] = {node.value}
            else:
                have.add(node.value)
    # (the values as a tuple: a scenario holds one entry per distinct condition, and a
    # frozenset costs four times the memory)
    entry = (expr, tuple(seen), {f: tuple(v) for f, v in consts.items()}, tuple(atoms))
    if len(_FACTS) >= _FACTS_LIMIT:
        _FACTS.clear()
    _FACTS[id(expr)] = entry
    return entry


def flags_of(expr: Expr) -> list[str]:
    """Flag names used, in order of first appearance."""
    return list(expr_facts(expr)[0])


def render(expr: Expr) -> str:
    """A canonical text of the expression (for messages and tests)."""
    if isinstance(expr, Const):
        return "true" if expr.value else "false"
    if isinstance(expr, FlagTrue):
        return expr.flag
    if isinstance(expr, Compare):
        v = f'"{expr.value}"' if isinstance(expr.value, str) else (str(expr.value).lower() if isinstance(expr.value, bool) else str(expr.value))
        return f"{expr.flag} {expr.op} {v}"
    if isinstance(expr, Not):
        return f"not {_paren(expr.arg)}"
    if isinstance(expr, And):
        return " and ".join(_paren(a) for a in expr.args)
    return " or ".join(_paren(a) for a in expr.args)


def _paren(expr: Expr) -> str:
    return f"({render(expr)})" if isinstance(expr, (And, Or)) else render(expr)


# ----------------------------------------------------------------------------- types


class TypeProblem(Frozen):
    """A well-formed condition that does not fit ``flag_spec`` (position is 1-based)."""

    flag: str
    pos: int
    reason: str
    #: True when the flag is simply not declared (as opposed to a misuse of a declared one)
    undeclared: bool

    __slots__ = ('flag', 'pos', 'reason', 'undeclared')

    def __init__(self, flag: str, pos: int, reason: str, undeclared: bool = False):
        object.__setattr__(self, 'flag', flag)
        object.__setattr__(self, 'pos', pos)
        object.__setattr__(self, 'reason', reason)
        object.__setattr__(self, 'undeclared', undeclared)


def check_types(expr: Expr, flags: Mapping[str, Flag]) -> list[TypeProblem]:
    """Problems of ``expr`` against the declared flags: undeclared flags, values of the
    wrong type, enum values that are not declared, orderings on bool or enum flags."""
    problems: list[TypeProblem] = []
    for node in _walk(expr):
        if not isinstance(node, (FlagTrue, Compare)):
            continue
        spec = flags.get(node.flag)
        if spec is None:
            problems.append(TypeProblem(node.flag, node.pos, f"플래그 {josa(_q(node.flag), '이/가')} `flag_spec`에 없습니다.", undeclared=True))
            continue
        if isinstance(node, FlagTrue):
            if spec.type != "bool":
                kind = "정수" if spec.type == "int" else "열거형"
                problems.append(TypeProblem(node.flag, node.pos, f"플래그 {josa(_q(node.flag), '은/는')} {kind} 플래그라 이름만 쓸 수 없고 {_q(node.flag + ' == …')}처럼 비교해야 합니다."))
            continue
        value, op = node.value, node.op
        if spec.type == "bool":
            if op not in ("==", "!="):
                problems.append(TypeProblem(node.flag, node.pos, f"참/거짓 플래그 {_q(node.flag)}에는 {josa(_q(op), '을/를')} 쓸 수 없습니다. `==`나 `!=`로 비교해 주세요."))
            elif not (isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))):
                problems.append(TypeProblem(node.flag, node.pos, f"참/거짓 플래그 {josa(_q(node.flag), '을/를')} {josa(_show(value), '과/와')} 비교했습니다. `true`나 `false`, 또는 `1`이나 `0`과 비교해 주세요."))
        elif spec.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                problems.append(TypeProblem(node.flag, node.pos, f"정수 플래그 {josa(_q(node.flag), '을/를')} {josa(_show(value), '과/와')} 비교했습니다. 정수와 비교해 주세요."))
        elif spec.type == "enum":
            if not isinstance(value, str):
                problems.append(TypeProblem(node.flag, node.pos, f"열거형 플래그 {josa(_q(node.flag), '을/를')} {josa(_show(value), '과/와')} 비교했습니다. {_q(chr(34) + (spec.values[0] if spec.values else '값') + chr(34))}처럼 따옴표로 감싼 값과 비교해 주세요."))
            elif op not in ("==", "!="):
                problems.append(TypeProblem(node.flag, node.pos, f"열거형 플래그 {_q(node.flag)}에는 {josa(_q(op), '을/를')} 쓸 수 없습니다. `==`나 `!=`로 비교해 주세요."))
            elif value not in spec.values:
                problems.append(TypeProblem(node.flag, node.pos, f"값 {josa(_q(value), '은/는')} 열거형 플래그 {_q(node.flag)}에 선언된 값이 아닙니다 (선언된 값: {', '.join(_q(v) for v in spec.values)})."))
    return problems


def types_fit(expr: Expr, flags: Mapping[str, Flag]) -> bool:
    """Whether :func:`check_types` finds nothing wrong with ``expr`` (the same tests,
    answered without writing the problems down)."""
    for node in expr_atoms(expr):
        spec = flags.get(node.flag)
        if spec is None:
            return False
        kind = spec.type
        if type(node) is FlagTrue:
            if kind != "bool":
                return False
            continue
        value, op = node.value, node.op
        if kind == "bool":
            if op not in ("==", "!=") or not (isinstance(value, bool) or (isinstance(value, int) and value in (0, 1))):
                return False
        elif kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return False
        elif kind == "enum":
            if not isinstance(value, str) or op not in ("==", "!=") or value not in spec.values:
                return False
    return True


def _q(text: Any) -> str:
    """``text`` quoted as code (:func:`verdicts.korean.code`), as messages quote what the
    creator wrote."""
    return f"`{text}`"


def _show(value: Any) -> str:
    """A compared value as the condition writes it, quoted as code."""
    if isinstance(value, bool):
        return _q("true" if value else "false")
    if isinstance(value, str):
        return _q(f'"{value}"')
    return _q(value)


# ----------------------------------------------------------------------------- evaluation

_UNSET = object()
Assignment = Mapping[str, Any]
Eval3 = Callable[[Assignment], "bool | None"]


def compile3(expr: Expr) -> Eval3:
    """A fast three-valued evaluator: ``True``/``False``, or ``None`` while a flag it
    needs is still unassigned.  Bool flags take ``True``/``False``; ``x == 1`` on a bool
    flag holds for ``True``."""
    if isinstance(expr, Const):
        value = expr.value
        return lambda a: value
    if isinstance(expr, FlagTrue):
        flag = expr.flag

        def flag_true(a: Assignment, flag=flag):
            v = a.get(flag, _UNSET)
            return None if v is _UNSET else v is True or v == 1

        return flag_true
    if isinstance(expr, Compare):
        flag, fn, const = expr.flag, OPS[expr.op], expr.value

        def compare(a: Assignment, flag=flag, fn=fn, const=const):
            v = a.get(flag, _UNSET)
            if v is _UNSET:
                return None
            try:
                return fn(v, const)
            except TypeError:
                return False

        return compare
    if isinstance(expr, Not):
        inner = compile3(expr.arg)

        def negate(a: Assignment):
            v = inner(a)
            return None if v is None else not v

        return negate
    parts = [compile3(x) for x in expr.args]
    if isinstance(expr, And):

        def all_of(a: Assignment):
            unknown = False
            for p in parts:
                v = p(a)
                if v is False:
                    return False
                if v is None:
                    unknown = True
            return None if unknown else True

        return all_of

    def any_of(a: Assignment):
        unknown = False
        for p in parts:
            v = p(a)
            if v is True:
                return True
            if v is None:
                unknown = True
        return None if unknown else False

    return any_of


def evaluate(expr: Expr, assignment: Assignment) -> bool:
    """The truth of ``expr`` under a full assignment of its flags."""
    value = compile3(expr)(assignment)
    if value is None:
        missing = [f for f in flags_of(expr) if f not in assignment]
        raise KeyError(f"unassigned flags: {missing}")
    return value


# ----------------------------------------------------------------------------- sympy


def to_sympy(expr: Expr, flags: Mapping[str, Flag]):
    """The expression as a sympy Boolean.

    Bool flags become boolean symbols, int flags integer symbols, enum flags integer
    symbols compared with the index of the value in ``values``.  Used for the symbolic
    form and simplification (and by the independent re-computation of check 6); the
    integer decision itself is made by :mod:`storygraph.shadowing`.
    """
    import sympy

    symbols: dict[str, Any] = {}

    def sym(name: str):
        if name not in symbols:
            spec = flags.get(name)
            if spec is not None and spec.type == "bool":
                symbols[name] = sympy.Symbol(name)
            else:
                symbols[name] = sympy.Symbol(name, integer=True)
        return symbols[name]

    def conv(e: Expr):
        if isinstance(e, Const):
            return sympy.true if e.value else sympy.false
        if isinstance(e, FlagTrue):
            return sym(e.flag)
        if isinstance(e, Compare):
            spec = flags.get(e.flag)
            if spec is not None and spec.type == "bool":
                truth = bool(e.value)
                lit = sym(e.flag) if truth else sympy.Not(sym(e.flag))
                return lit if e.op == "==" else sympy.Not(lit)
            value = e.value
            if spec is not None and spec.type == "enum":
                value = spec.values.index(value) if value in spec.values else -1
            rel = {"==": sympy.Eq, "!=": sympy.Ne, "<": sympy.Lt, "<=": sympy.Le, ">": sympy.Gt, ">=": sympy.Ge}[e.op]
            return rel(sym(e.flag), sympy.Integer(value))
        if isinstance(e, Not):
            return sympy.Not(conv(e.arg))
        if isinstance(e, And):
            return sympy.And(*[conv(a) for a in e.args])
        return sympy.Or(*[conv(a) for a in e.args])

    return conv(expr)
