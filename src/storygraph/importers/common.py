"""What every importer shares: the rows it writes, the flag registry, and the condition
translator from each format's spelling into our condition language.

An importer reads its format statement by statement and tells a :class:`StoryBuilder`
what it saw — a scene, a branch with a parsed condition, a declaration or an assignment,
a construct it cannot translate.  :meth:`StoryBuilder.finish` then types the flags (from
declarations, every assignment and the comparisons), renders every condition into
``condition_expr`` (or marks it opaque), numbers the branches per scene and returns an
:class:`ImportedStory`.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from verdicts import safe_csv
from verdicts.korean import code
from verdicts.model import InputIssue

__all__ = [
    "SceneRow", "BranchRow", "FlagRow", "ImportedStory", "Construct", "place", "StoryBuilder", "Cond", "Opaque",
    "parse_expr", "Dialect", "UNION_COLUMNS", "write_csv", "quote_code", "read_text", "unreadable", "MAX_STORY_BYTES",
    "MAX_NESTING", "visit_flag_name", "translate", "resolve_names", "negate", "none_of", "last_line", "literal", "increment",
    "csv_text",
]

#: Stories larger than this are refused with a clear message (a real story is far smaller).
MAX_STORY_BYTES = 16 * 1024 * 1024
#: Deeper nesting (parentheses, hooks, blocks, indentation levels) is reported, not followed.
MAX_NESTING = 64
#: earlier cases of an ``elseif`` chain that a later case's condition names (``not a and
#: not b …``); past it the case's condition is opaque (the branch is withheld, not guessed)
MAX_CASES = 64

UNION_COLUMNS = (
    "scene_id", "title", "is_entry", "is_ending", "available_flags",
    "branch_id", "from_scene", "to_scene", "condition_expr", "order_no", "kind",
    "condition_opaque", "condition_source", "once_only", "jump_opaque", "jump_source", "choice_text",
    "flag", "label", "type", "min_value", "max_value", "values",
    "declared_at", "read_at", "written_at", "read_opaque", "effect_opaque", "effect_source", "undeclared",
    "source_file", "source_line",
)

_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_WORD = re.compile(r"[$_]?[^\W\d][\w.]*")


def unreadable(exc: Exception, path: Path | str) -> str:
    """Why ``path`` could not be read, from the :class:`~verdicts.errors.InputError` of
    :func:`read_text`, without the path it starts with and without the final period
    (for a message about that file that names it already)."""
    from verdicts.files import reason_of

    return reason_of(exc, path)


def read_text(path: Path) -> str:
    """The text of a story file (or of a file it includes): UTF-8 (BOM or not), else
    CP949; read by :func:`verdicts.files.read_file` (a regular file only, after links;
    at most :data:`MAX_STORY_BYTES`).

    Control characters other than tab and line breaks are replaced by spaces, so that a
    stray byte never changes how lines are split or how a message prints.
    """
    from verdicts.errors import InputError
    from verdicts.files import read_file

    data = read_file(path, MAX_STORY_BYTES, "이야기")
    for encoding in ("utf-8-sig", "cp949"):
        try:
            text = data.decode(encoding)
            break
        except UnicodeDecodeError:
            continue
    else:
        raise InputError(f"{path}: UTF-8도 CP949도 아닌 바이트가 있어 읽을 수 없습니다.")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROL.sub(" ", text)


#: how a message names the files of a folder story, by format
_FOLDER_FILES = {"twee": "Twee 파일(.twee, .tw)", "yarn": "Yarn 파일(.yarn)"}


def story_texts(folder: Path, fmt: str) -> list[tuple[str, str]]:
    """``(file name, text)`` of every file of the ``fmt`` story in ``folder``
    (:func:`.files.story_files`, each read by :func:`read_text`); an :class:`InputError`
    when the folder cannot be listed or holds none."""
    from verdicts.errors import InputError
    from verdicts.files import os_error

    from .files import story_files

    try:
        files = story_files(folder, fmt)
    except OSError as exc:
        raise os_error(folder, exc) from None
    if not files:
        raise InputError(f"{folder}: 폴더에 {_FOLDER_FILES[fmt]}이 없습니다.")
    return [(str(f), read_text(f)) for f in files]


def quote_code(text: str, limit: int = 60) -> str:
    """Source text quoted for a message: one line, bounded, in backticks."""
    one = " ".join(str(text).split())
    # `? ` and `! ` would read as the end of a sentence (the original stays in condition_source)
    one = one.replace("? ", "?").replace("! ", "!")
    if len(one) > limit:
        one = one[: limit - 1] + "…"
    return "`" + one.replace("`", "'") + "`"


def visit_flag_name(scene_id: str) -> str:
    """The derived int flag counting visits of a scene: ``visits.<scene>``."""
    return "visits." + _sanitize(scene_id)


_NAME_OK = re.compile(r"[^\W\d][\w.]*\Z")
_KEYWORDS = {"and", "or", "not", "true", "false"}


def _sanitize(name: str) -> str:
    out = re.sub(r"[^\w.]", "_", name)
    if not out or not _NAME_OK.match(out) or out.lower() in _KEYWORDS:
        out = "v_" + out
    return out


# ----------------------------------------------------------------------------- rows


@dataclass
class SceneRow:
    scene_id: str
    title: str | None = None
    is_entry: bool = False
    is_ending: bool = False
    available_flags: list[str] = field(default_factory=list)
    source_file: str | None = None
    source_line: int | None = None

    def to_row(self) -> dict[str, Any]:
        return {"scene_id": self.scene_id, "title": self.title or "", "is_entry": _b(self.is_entry),
                "is_ending": _b(self.is_ending), "available_flags": ",".join(self.available_flags),
                "source_file": self.source_file or "", "source_line": _n(self.source_line)}


@dataclass
class BranchRow:
    branch_id: str
    from_scene: str
    to_scene: str
    condition_expr: str = ""
    order_no: int = 1
    kind: str = "auto"
    condition_opaque: bool = False
    condition_source: str = ""
    once_only: bool = False
    source_file: str | None = None
    source_line: int | None = None
    #: other lines whose construct this branch stands for (the ``-> x`` under a choice),
    #: kept for tests and messages, not written to the CSV
    via_lines: tuple[int, ...] = ()
    #: an opaque jump: the branch may lead to a scene we cannot name (``to_scene`` is
    #: empty); ``jump_source`` is the construct as written
    jump_opaque: bool = False
    jump_source: str = ""
    #: what the reader sees for a choice or link (cards name a choice by it)
    choice_text: str = ""

    def to_row(self) -> dict[str, Any]:
        return {"branch_id": self.branch_id, "from_scene": self.from_scene, "to_scene": self.to_scene,
                "condition_expr": self.condition_expr, "order_no": str(self.order_no), "kind": self.kind,
                "condition_opaque": "1" if self.condition_opaque else "", "condition_source": self.condition_source,
                "once_only": "1" if self.once_only else "",
                "jump_opaque": "1" if self.jump_opaque else "", "jump_source": self.jump_source,
                "choice_text": self.choice_text,
                "source_file": self.source_file or "", "source_line": _n(self.source_line)}


@dataclass
class FlagRow:
    """A flag, with where the story declares, reads and writes it (``file:line``
    places): the unused-, write-only- and undeclared-variable findings rest on these."""

    flag: str
    label: str
    type: str
    min_value: int | None = None
    max_value: int | None = None
    values: list[str] = field(default_factory=list)
    declared_at: list[str] = field(default_factory=list)
    read_at: list[str] = field(default_factory=list)
    written_at: list[str] = field(default_factory=list)
    #: a write whose effect we cannot compute: the flag may take any value there
    effect_opaque: bool = False
    effect_source: str = ""
    #: the story reads some variable by a name computed while playing (``{prefix & "n"}``,
    #: ``State.variables[name]``): ``file:line: text`` of the first such read, which may
    #: read this flag too
    read_opaque: str = ""
    #: the format needs a declaration (ChoiceScript, ink) and there is none
    undeclared: bool = False
    #: the first read or write in reading order (where an engine stops on an undeclared one)
    first_use: str = ""

    def to_row(self) -> dict[str, Any]:
        return {"flag": self.flag, "label": self.label, "type": self.type, "min_value": _n(self.min_value),
                "max_value": _n(self.max_value), "values": "|".join(self.values),
                "declared_at": "|".join(self.declared_at), "read_at": "|".join(self.read_at),
                "written_at": "|".join(self.written_at), "read_opaque": self.read_opaque,
                "effect_opaque": "1" if self.effect_opaque else "",
                "effect_source": self.effect_source,
                # the place where the engine stops: the first use, in reading order
                "undeclared": (self.first_use or "1") if self.undeclared else ""}


def _b(v: bool) -> str:
    return "true" if v else "false"


def _n(v: int | None) -> str:
    return "" if v is None else str(v)


@dataclass(frozen=True)
class Construct:
    """A line of the source that must become a branch, a scene or an input issue: found by
    a format's own scanner (:func:`scan_constructs` of each importer module), which reads
    the text line by line, apart from the importer, so that the import can check itself
    (``docs/importers.md``, "The import checks itself")."""

    file: str
    line: int
    kind: str  # "branch" (a choice, link, jump, option, divert) or "scene" (a knot, passage, node …)
    text: str = ""
    #: for a scene: the name it must keep
    name: str | None = None


@dataclass
class ImportedStory:
    """The three tables of an imported story, its issues and the format's name.

    ``constructs`` are the construct lines the format's scanner found in the source, and
    ``accounted`` the lines the importer read on purpose into no branch, with why (an
    external link, a divert inside a function); the import self-check compares them
    with the rows and issues.
    """

    format: str
    source: str
    scenes: list[SceneRow]
    branches: list[BranchRow]
    flags: list[FlagRow]
    issues: list[InputIssue]
    constructs: list[Construct] = field(default_factory=list)
    accounted: dict[tuple[str, int], str] = field(default_factory=dict)

    def rows(self) -> list[dict[str, Any]]:
        """Every record as a union-CSV row (scenes, then branches, then flags)."""
        return ([s.to_row() for s in self.scenes] + [b.to_row() for b in self.branches]
                + [f.to_row() for f in self.flags])

    def tables(self) -> dict[str, list[dict[str, Any]]]:
        return {"scene_states": [s.to_row() for s in self.scenes],
                "story_branches": [b.to_row() for b in self.branches],
                "flag_spec": [f.to_row() for f in self.flags]}


def write_csv(story: ImportedStory, out: Any) -> None:
    """Write ``story`` as one union CSV to ``out`` (a path or a text stream), UTF-8."""
    if isinstance(out, (str, Path)):
        with open(out, "w", encoding="utf-8", newline="") as fh:
            write_csv(story, fh)
        return
    writer = safe_csv.DictWriter(out, fieldnames=list(UNION_COLUMNS), lineterminator="\n", extrasaction="raise")
    writer.writeheader()
    for row in story.rows():
        writer.writerow({c: row.get(c, "") for c in UNION_COLUMNS})


def csv_text(story: ImportedStory) -> str:
    buf = io.StringIO()
    write_csv(story, buf)
    return buf.getvalue()


# ----------------------------------------------------------------------------- conditions


class Opaque(Exception):
    """A condition our language cannot express; ``what`` says which part, in Korean
    (a noun phrase such as ``두 변수를 서로 비교하는``)."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


@dataclass
class Dialect:
    """How one format spells conditions.

    ``words`` maps a lower-cased word to an operator token (``is`` → ``==``);
    ``resolve(name)`` says what a name means: ``("flag", key)``, ``("const", value)``,
    ``("visit", scene_id)`` or ``None`` (an ordinary flag named after the word);
    ``call(name, args)`` translates a function call into a node or raises
    :class:`Opaque`.
    """

    words: dict[str, str]
    resolve: Callable[[str], Any] = lambda name: None
    call: Callable[[str, list], Any] | None = None
    strip_sigil: bool = True


COMMON_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false"}

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<num>\d+(?:\.\d+)?)
  | (?P<str>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<op>===|!==|==|!=|<=|>=|<>|&&|\|\||->|[-+*/%<>=!(),?^\[\]{}:])
  | (?P<name>[$_]?[^\W\d][\w.]*|\$[\w.]+|_\w*)
""", re.VERBOSE)


def _tokenize(text: str, dialect: Dialect) -> list[tuple[str, Any]]:
    out: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if m is None:
            raise Opaque(f"읽지 못한 글자({code(text[pos])})가 있는")
        pos = m.end()
        kind = m.lastgroup
        value = m.group()
        if kind == "ws":
            continue
        if kind == "num":
            if "." in value:
                out.append(("float", value))
            else:
                out.append(("int", int(value)))
        elif kind == "str":
            out.append(("str", _unescape(value[1:-1])))
        elif kind == "name":
            word = dialect.words.get(value.lower())
            if word is not None:
                # Harlowe/SugarCube spell "is not" as two words
                if word == "==" and out and out[-1] == ("op", "=="):
                    pass
                out.append(("op", word))
            else:
                out.append(("name", value))
        else:
            out.append(("op", {"===": "==", "!==": "!=", "<>": "!=", "=": "=="}.get(value, value)))
    # "is not" → "!="
    merged: list[tuple[str, Any]] = []
    for tok in out:
        if tok == ("op", "not") and merged and merged[-1] == ("op", "=="):
            merged[-1] = ("op", "!=")
            continue
        merged.append(tok)
    return merged


def _unescape(s: str) -> str:
    return re.sub(r"\\(.)", r"\1", s)


# AST nodes are tuples: ("and", a, b) ("or", a, b) ("not", a) ("cmp", op, l, r)
# ("name", n) ("int", v) ("str", s) ("bool", b) ("call", name, args) ("arith", op, l, r)
# ("visit", scene_id) ("float", text) ("divert", target)


class _Parser:
    def __init__(self, toks: list[tuple[str, Any]]):
        self.toks = toks
        self.i = 0
        self.depth = 0

    def peek(self) -> tuple[str, Any] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, Any]:
        tok = self.peek()
        if tok is None:
            raise Opaque("끝이 덜 닫힌")
        self.i += 1
        return tok

    def op(self, *names: str) -> str | None:
        tok = self.peek()
        if tok is not None and tok[0] == "op" and tok[1] in names:
            self.i += 1
            return tok[1]
        return None

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise Opaque(f"{MAX_NESTING}겹보다 깊이 중첩된")

    def expr(self):
        self.enter()
        left = self.and_()
        while True:
            if self.op("or", "||"):
                left = ("or", left, self.and_())
            elif self.op("xor", "^"):
                raise Opaque("배타적 논리합(xor)이 든")
            else:
                break
        self.depth -= 1
        return left

    def and_(self):
        left = self.not_()
        while self.op("and", "&&"):
            left = ("and", left, self.not_())
        return left

    def not_(self):
        if self.op("not", "!"):
            self.enter()
            node = ("not", self.not_())
            self.depth -= 1
            return node
        return self.cmp()

    def cmp(self):
        left = self.arith()
        op = self.op("==", "!=", "<", "<=", ">", ">=", "?", "contains")
        if op is None:
            return left
        right = self.arith()
        if self.op("==", "!=", "<", "<=", ">", ">="):
            raise Opaque("비교가 이어진")
        if op in ("?", "contains"):
            return ("contains", left, right)
        return ("cmp", op, left, right)

    def arith(self):
        left = self.unary()
        while True:
            op = self.op("+", "-", "*", "/", "%", "mod")
            if op is None:
                return left
            left = ("arith", op, left, self.unary())

    def unary(self):
        if self.op("-"):
            tok = self.take()
            if tok[0] == "int":
                return ("int", -tok[1])
            raise Opaque("산술 계산이 든")
        return self.primary()

    def primary(self):
        tok = self.take()
        kind, value = tok
        if kind in ("int", "str", "float"):
            return (kind, value)
        if kind == "op" and value in ("true", "false"):
            return ("bool", value == "true")
        if kind == "op" and value == "(":
            node = self.expr()
            if not self.op(")"):
                raise Opaque("괄호가 닫히지 않은")
            return node
        if kind == "op" and value == "->":
            target = self.take()
            if target[0] != "name":
                raise Opaque("읽지 못한 문법이 든")
            return ("divert", target[1])
        if kind == "name":
            if self.op("("):
                args = []
                if not self.op(")"):
                    while True:
                        args.append(self.expr())
                        if self.op(")"):
                            break
                        if not self.op(","):
                            raise Opaque("읽지 못한 함수 호출이 든")
                return ("call", value, args)
            return ("name", value)
        raise Opaque(f"읽지 못한 기호({value})가 든")


def parse_expr(text: str, dialect: Dialect):
    """Parse ``text`` in ``dialect`` into an AST tuple, or raise :class:`Opaque`."""
    toks = _tokenize(text, dialect)
    if not toks:
        raise Opaque("비어 있는")
    p = _Parser(toks)
    node = p.expr()
    if (extra := p.peek()) is not None:
        raise Opaque(f"읽지 못한 문법({extra[1]})이 든")
    return node


@dataclass
class Cond:
    """A branch condition as the importer saw it: a conjunction of parsed parts (an AST
    each, or an :class:`Opaque` explaining why a part could not be read) with the source
    text of each part."""

    parts: list[tuple[Any, str]] = field(default_factory=list)

    def and_(self, node: Any, source: str) -> "Cond":
        return Cond(self.parts + [(node, source)])

    def plus(self, other: "Cond | None") -> "Cond":
        return Cond(self.parts + (other.parts if other else []))

    @property
    def source(self) -> str:
        texts = [s for _, s in self.parts if s]
        return " and ".join(f"({t})" if len(texts) > 1 else t for t in texts)

    def __bool__(self) -> bool:
        return bool(self.parts)


def parsed(text: str, dialect: Dialect) -> Any:
    """``parse_expr`` that returns the :class:`Opaque` instead of raising it."""
    try:
        return parse_expr(text, dialect)
    except Opaque as exc:
        return exc
    except RecursionError:  # pragma: no cover - bounded by MAX_NESTING
        return Opaque("너무 깊이 중첩된")


def chain_of(node: tuple) -> list:
    """The operands of a run of one connective (``a and b and c`` however it nests), in
    order, found without recursion: an ``elseif`` chain of thousands of cases is a
    ``none_of`` as deep as it is long."""
    kind = node[0]
    out: list = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, tuple) and n and n[0] == kind:
            stack.append(n[2])
            stack.append(n[1])
        else:
            out.append(n)
    return out


def negate(node: Any) -> Any:
    if isinstance(node, Opaque):
        return node
    return ("not", node)


def none_of(previous: list) -> Any:
    """``not a and not b …`` of earlier cases (an :class:`Opaque` if one is opaque;
    ``None`` when there is no earlier case)."""
    if len(previous) > MAX_CASES:
        # the condition of the k-th case names the k-1 before it: a chain of thousands
        # would write millions of comparisons (its tables grow with the chain's square)
        return Opaque(f"앞선 경우가 {MAX_CASES}개보다 많은 `elseif` 사슬 안에 있는")
    node: tuple | None = None
    for p in previous:
        if isinstance(p, Opaque):
            return p
        node = ("not", p) if node is None else ("and", node, ("not", p))
    return node


def last_line(nodes: list) -> int | None:
    """The line of the last line of an indented block (``nodes`` with ``line`` and
    ``children``), going down into the last node's children."""
    while nodes:
        last = nodes[-1]
        if not last.children:
            return last.line
        nodes = last.children
    return None


# ----------------------------------------------------------------------------- flags


@dataclass
class _FlagFacts:
    key: str
    label: str
    name: str
    declared: list[Any] = field(default_factory=list)
    assigned: list[Any] = field(default_factory=list)
    compared: list[Any] = field(default_factory=list)
    up: int = 0
    down: int = 0
    unknown_change: bool = False
    fairmath: bool = False
    visit_of: str | None = None
    first: tuple[str, int] | None = None
    constant: bool = False
    #: ``file:line`` places, in the order seen (each place once)
    declared_at: list[str] = field(default_factory=list)
    read_at: list[str] = field(default_factory=list)
    written_at: list[str] = field(default_factory=list)
    #: ``(place, source)`` of writes whose effect cannot be computed
    opaque_effects: list[tuple[str, str]] = field(default_factory=list)
    #: every place recorded in the lists above (a set beside them: a flag may be read in
    #: thousands of places), and the first read or write in reading order
    seen_places: set[tuple[str, str]] = field(default_factory=set)
    first_use: str | None = None


def place(file: str | None, line: int | None) -> str:
    """``file:line`` (``file`` alone when the line is not known)."""
    return f"{file or ''}:{line}" if line is not None else (file or "")


def _add_place(facts: "_FlagFacts", kind: str, file: str | None, line: int | None) -> None:
    """Record a ``declared``/``read``/``written`` place of ``facts`` (each place once)."""
    where = place(file, line)
    if not where or (kind, where) in facts.seen_places:
        return
    facts.seen_places.add((kind, where))
    getattr(facts, f"{kind}_at").append(where)
    if kind != "declared" and facts.first_use is None:
        facts.first_use = where


class StoryBuilder:
    """Collects what an importer read and turns it into an :class:`ImportedStory`."""

    def __init__(self, fmt: str, source: str, declarations_required: bool = False):
        self.format = fmt
        self.source = source
        self.scenes: dict[str, SceneRow] = {}
        self.branches: list[tuple[str, str, Cond | None, str, str | None, int | None, bool, int | None]] = []
        self.flags: dict[str, _FlagFacts] = {}
        self.issues: list[InputIssue] = []
        self._names: dict[str, str] = {}
        #: the format stops at a variable used without a declaration (ChoiceScript's
        #: ``*create``/``*temp``, ink's ``VAR``): such a variable is marked ``undeclared``
        self.declarations_required = declarations_required
        #: opaque jumps: index into ``branches`` -> the construct as written
        self._opaque_jumps: dict[int, str] = {}
        self._texts: dict[int, str] = {}
        self._reads_any: list[tuple[str, str]] = []
        self._writes_any: list[tuple[str, str]] = []
        self.accounted: dict[tuple[str, int], str] = {}
        self.constructs: list[Construct] = []

    # -- what the importer saw

    def scene(self, scene_id: str, title: str | None = None, file: str | None = None, line: int | None = None,
              entry: bool = False, ending: bool = False) -> SceneRow:
        row = self.scenes.get(scene_id)
        if row is None:
            row = self.scenes[scene_id] = SceneRow(scene_id, title, entry, ending, [], file, line)
        else:
            row.is_entry = row.is_entry or entry
            row.is_ending = row.is_ending or ending
            if row.title is None:
                row.title = title
        return row

    def branch(self, from_scene: str, to_scene: str, cond: Cond | None = None, kind: str = "auto",
               file: str | None = None, line: int | None = None, once_only: bool = False, via: int | None = None,
               text: str | None = None) -> None:
        """A way from ``from_scene`` to ``to_scene``; ``text`` is what the reader sees
        for a choice or link (``Confess`` of ``* [Confess]``), by which cards name it."""
        if text:
            self._texts[len(self.branches)] = " ".join(text.split())
        self.branches.append((from_scene, to_scene, cond, kind, file, line, once_only, via))

    def jump_opaque(self, from_scene: str, source: str, cond: Cond | None = None, kind: str = "auto",
                    file: str | None = None, line: int | None = None, once_only: bool = False,
                    text: str | None = None) -> None:
        """A way out of ``from_scene`` to a scene we cannot name (a link target built at
        run time, a divert through a variable whose values are not all literal, a macro
        we cannot read): ``source`` is the construct as written.  The analysis reads it
        as "may lead to any scene", so that nothing it might reach is called unreached
        and nothing before it is called stuck; whatever depends on it is withheld."""
        self._opaque_jumps[len(self.branches)] = " ".join(source.split())
        if text:
            self._texts[len(self.branches)] = " ".join(text.split())
        self.branches.append((from_scene, "", cond, kind, file, line, once_only, None))

    def account(self, file: str | None, line: int | None, why: str) -> None:
        """The construct at ``file:line`` is read on purpose into no branch and no issue
        (``why``: an external link, a divert that only a function takes); the import
        self-check takes this as the construct's account."""
        if file is not None and line is not None:
            self.accounted.setdefault((file, line), why)

    def read(self, key: str, file: str | None = None, line: int | None = None) -> None:
        """The story reads variable ``key`` at ``file:line`` (anywhere: text,
        interpolation, a header, a function body, a condition we could not translate).
        The conditions the builder translates are recorded as reads by :meth:`finish`."""
        facts = self.flag(key, None, file, line)
        _add_place(facts, "read", file, line)

    def read_any(self, source: str, file: str | None = None, line: int | None = None) -> None:
        """The story reads a variable whose name is computed while playing (``source``:
        the construct as written): any variable may be read here, so none is called
        unread (unused-flag, write-only-flag are withheld)."""
        self._reads_any.append((place(file, line), " ".join(source.split())))

    def write_any(self, source: str, file: str | None = None, line: int | None = None) -> None:
        """The story writes a variable whose name is computed while playing (``*setref``):
        any variable may take any value here (an opaque effect on every flag)."""
        self._writes_any.append((place(file, line), " ".join(source.split())))

    def effect_opaque(self, key: str, source: str, file: str | None = None, line: int | None = None) -> None:
        """Variable ``key`` may change at ``file:line`` in a way we cannot compute
        (``source``: the statement as written): it may take any value there, so no
        finding about its range is given."""
        facts = self.flag(key, None, file, line)
        facts.unknown_change = True
        _add_place(facts, "written", file, line)
        facts.opaque_effects.append((place(file, line), " ".join(source.split())))

    def issue(self, file: str | None, line: int | None, reason: str, column: str | None = None) -> None:
        self.issues.append(InputIssue(file=file, line=line, column=column, reason=reason))

    def flag(self, key: str, label: str | None = None, file: str | None = None, line: int | None = None) -> _FlagFacts:
        facts = self.flags.get(key)
        if facts is None:
            name = _sanitize(key)
            base, n = name, 2
            while name in self._names.values():
                name = f"{base}_{n}"
                n += 1
            self._names[key] = name
            facts = self.flags[key] = _FlagFacts(key, label or key, name)
        if facts.first is None and file is not None:
            facts.first = (file, line or 0)
        return facts

    def visit_flag(self, scene_id: str) -> _FlagFacts:
        key = "visits:" + scene_id
        facts = self.flag(key, f"{scene_id} 방문 횟수")
        facts.name = self._names[key] = visit_flag_name(scene_id)
        facts.visit_of = scene_id
        return facts

    def declare(self, key: str, value: Any, file: str | None = None, line: int | None = None,
                label: str | None = None, constant: bool = False) -> None:
        """Record a declaration of ``key`` with its initial ``value`` (``None``: declared
        with a value not known here, which widens its range as an unknown change does)."""
        facts = self.flag(key, label, file, line)
        if value is None:
            # declared with a value not known here (``*temp x``, ``VAR x = f()``): it may be anything
            facts.unknown_change = True
        else:
            facts.declared.append(value)
        facts.constant = facts.constant or constant
        _add_place(facts, "declared", file, line)

    def assign(self, key: str, value: Any, file: str | None = None, line: int | None = None) -> None:
        """Record ``key = value``; ``value`` may be ``("+", n)``/``("-", n)`` for an
        increment, ``("%+", n)`` for fairmath, or ``None`` for a value not known (an
        expression: the range is widened past every constant it is compared with; use
        :meth:`effect_opaque` when the change cannot be bounded at all)."""
        facts = self.flag(key, None, file, line)
        _add_place(facts, "written", file, line)
        if isinstance(value, tuple):
            op, n = value
            if op in ("%+", "%-"):
                facts.fairmath = True
            elif isinstance(n, int) and op == "+":
                facts.up += abs(n) if n >= 0 else 0
                facts.down += -n if n < 0 else 0
            elif isinstance(n, int) and op == "-":
                facts.down += abs(n) if n >= 0 else 0
                facts.up += -n if n < 0 else 0
            else:
                facts.unknown_change = True
        elif value is None:
            facts.unknown_change = True
        else:
            facts.assigned.append(value)

    # -- the result

    def finish(self) -> ImportedStory:
        branches: list[BranchRow] = []
        order: dict[str, int] = {}
        # first pass: learn constants from comparisons (typing needs them), then render
        prepared = []
        for index, (from_scene, to_scene, cond, kind, file, line, once, via) in enumerate(self.branches):
            nodes = []
            if cond:
                for node, src in cond.parts:
                    nodes.append((node, src))
                    if not isinstance(node, Opaque):
                        for facts in self._learn(node):
                            _add_place(facts, "read", file, line)
                    else:
                        self._read_names(src, file, line)
            prepared.append((index, from_scene, to_scene, cond, kind, file, line, once, nodes, via))
        types = self._types()
        flag_rows = self._flag_rows(types)
        for index, from_scene, to_scene, cond, kind, file, line, once, nodes, via in prepared:
            n = order[from_scene] = order.get(from_scene, 0) + 1
            expr, opaque = "", False
            used: set[str] = set()
            source = cond.source if cond else ""
            if nodes:
                try:
                    texts = [self._render(node, types, used, 0) for node, _ in nodes]
                    texts = [t for t in texts if t != "true"]
                    if any(t == "false" for t in texts):
                        texts = ["false"]
                    expr = " and ".join(f"({t})" if (len(texts) > 1 and " or " in t) else t for t in texts)
                except Opaque:
                    # not a problem of the story: our language cannot say it (randomness,
                    # a variable compared with a variable …).  The branch is written as "may
                    # or may not hold" (``condition_opaque``, the original in
                    # ``condition_source``), its card's hedge says so, and what rests on it is
                    # withheld (docs/importers.md, "What is exact, what is opaque")
                    expr, opaque, used = "", True, set()
            jump = self._opaque_jumps.get(index)
            branches.append(BranchRow(f"{from_scene}#{n}", from_scene, to_scene, expr, n, kind, opaque,
                                      source if opaque else "", once, file, line,
                                      (via,) if via is not None and via != line else (),
                                      jump is not None, jump or "", self._texts.get(index, "")))
            if used and from_scene in self.scenes:
                scene = self.scenes[from_scene]
                for name in sorted(used):
                    if name not in scene.available_flags:
                        scene.available_flags.append(name)
        for scene in self.scenes.values():
            scene.available_flags.sort()
        seen: set[tuple] = set()
        issues = []
        for issue in self.issues:  # one message per place and reason (two ways out of one line share it)
            key = (issue.file, issue.line, issue.reason)
            if key not in seen:
                seen.add(key)
                issues.append(issue)
        self.issues = issues
        return ImportedStory(self.format, self.source, list(self.scenes.values()), branches, flag_rows, self.issues,
                             list(self.constructs), dict(self.accounted))

    def _learn(self, node: Any) -> list[_FlagFacts]:
        """Learn the constants ``node`` compares its flags with; the flags it reads."""
        read: list[_FlagFacts] = []
        stack = [node]
        while stack:
            n = stack.pop()
            if not isinstance(n, tuple):
                continue
            if n[0] in ("name", "visit"):
                ref = self._ref(n)
                if ref is not None:
                    read.append(ref)
            elif n[0] == "cmp":
                left, right = n[2], n[3]
                for a, b in ((left, right), (right, left)):
                    ref = self._ref(a)
                    if ref is not None and b[0] in ("int", "str", "bool"):
                        ref.compared.append(b[1])
                stack.extend([left, right])
            elif n[0] in ("and", "or", "arith", "contains"):
                stack.extend(n[1:] if n[0] != "arith" else n[2:])
            elif n[0] == "not":
                stack.append(n[1])
            elif n[0] == "call":
                stack.extend(n[2])
        return read

    def _read_names(self, source: str, file: str | None, line: int | None) -> None:
        """A condition we could not translate still reads the known variables it names."""
        for word in _WORD.findall(source or ""):
            for key in (word, word.lstrip("$_")):
                facts = self.flags.get(key)
                if facts is not None:
                    _add_place(facts, "read", file, line)
                    break

    def _ref(self, node: Any) -> _FlagFacts | None:
        if node[0] == "name":
            return self.flag(node[1])
        if node[0] == "visit":
            return self.visit_flag(node[1])
        return None

    def _types(self) -> dict[str, str]:
        types: dict[str, str] = {}
        for key, f in self.flags.items():
            values = f.declared + f.assigned
            if f.visit_of is not None or f.fairmath:
                types[key] = "int"
            elif any(isinstance(v, str) for v in values):
                types[key] = "enum"
            elif any(isinstance(v, bool) for v in values) and not any(
                    isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
                types[key] = "bool"
            elif values or f.up or f.down or f.unknown_change:
                types[key] = "int"
            elif any(isinstance(v, str) for v in f.compared):
                types[key] = "enum"
            elif any(isinstance(v, int) and not isinstance(v, bool) for v in f.compared):
                types[key] = "int"
            else:
                types[key] = "bool"
        return types

    def _flag_rows(self, types: dict[str, str]) -> list[FlagRow]:
        rows = []
        if self._writes_any:  # a write by a computed name may change any flag
            for f in self.flags.values():
                if not f.opaque_effects:
                    f.unknown_change = True
                    f.opaque_effects.append(self._writes_any[0])
        read_any = "".join(f"{where}: {src}" if where else src for where, src in self._reads_any[:1])
        for key, f in self.flags.items():
            if f.constant and not f.assigned:
                continue  # constants are substituted into the conditions
            kind = types[key]
            row = FlagRow(f.name, f.label, kind, declared_at=list(f.declared_at), read_at=list(f.read_at),
                          written_at=list(f.written_at), effect_opaque=bool(f.opaque_effects),
                          effect_source="".join(f"{where}: {src}" if where else src for where, src in f.opaque_effects[:1]),
                          undeclared=(self.declarations_required and f.visit_of is None and not f.declared_at),
                          read_opaque=read_any,
                          first_use=f.first_use or "")
            values = f.declared + f.assigned
            if kind == "int":
                if f.visit_of is not None:
                    top = max([v for v in f.compared if isinstance(v, int) and not isinstance(v, bool)] + [0])
                    row.min_value, row.max_value = 0, top + 1
                elif f.fairmath:
                    row.min_value, row.max_value = 0, 100
                else:
                    nums = [int(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
                    if any(isinstance(v, float) for v in values) and f.first:
                        self.issue(f.first[0], f.first[1], f"변수 {quote_code(f.label)}에 소수 값이 있어 정수로 잘라 범위를 잡았습니다.")
                    if not nums:
                        nums = [v for v in f.compared if isinstance(v, int) and not isinstance(v, bool)] or [0]
                        nums = nums + [0]
                    lo, hi = min(nums), max(nums)
                    # a counter raised (or lowered) by steps can go as far as a loop takes
                    # it: reach one past every constant it is compared with
                    cmp = [v for v in f.compared if isinstance(v, int) and not isinstance(v, bool)]
                    if f.up or f.unknown_change:
                        hi = max([hi + f.up] + [c + 1 for c in cmp])
                    if f.down or f.unknown_change:
                        lo = min([lo - f.down] + [c - 1 for c in cmp])
                    row.min_value, row.max_value = lo, hi
            elif kind == "enum":
                vals = [v for v in values if isinstance(v, str)]
                if not vals:
                    vals = [v for v in f.compared if isinstance(v, str)]
                seen: list[str] = []
                for v in vals:
                    if v not in seen:
                        seen.append(v)
                if any(not isinstance(v, str) for v in values) and f.first:
                    self.issue(f.first[0], f.first[1], f"변수 {quote_code(f.label)}에 문자열과 다른 종류의 값이 섞여 있어 문자열 값만 열거형 값으로 적었습니다.")
                row.values = seen or [""]
            rows.append(row)
        return rows

    def _render(self, node: Any, types: dict[str, str], used: set[str], prec: int) -> str:
        if isinstance(node, Opaque):
            raise node
        kind = node[0]
        if kind in ("and", "or"):
            p = 1 if kind == "or" else 2
            text = f" {kind} ".join(self._render(part, types, used, p) for part in chain_of(node))
            return f"({text})" if prec > p else text
        if kind == "not":
            inner = node[1]
            if inner[0] in ("name", "visit"):
                return self._truth(inner, types, used, negated=True)
            return f"not {self._render(inner, types, used, 3)}"
        if kind == "bool":
            return "true" if node[1] else "false"
        if kind in ("name", "visit"):
            return self._truth(node, types, used, negated=False)
        if kind == "cmp":
            return self._compare(node[1], node[2], node[3], types, used)
        if kind == "int":
            return "true" if node[1] else "false"
        if kind == "call":
            raise Opaque(f"함수 호출({node[1]})이 든")
        if kind == "arith":
            raise Opaque("산술 계산이 든")
        if kind == "contains":
            raise Opaque("포함 여부를 따지는")
        if kind == "history":
            raise Opaque("지나온 장면 목록(history)을 따지는")
        if kind == "str":
            raise Opaque("문자열만 있는")
        raise Opaque("읽지 못한 문법이 든")

    def _truth(self, node: Any, types: dict[str, str], used: set[str], negated: bool) -> str:
        facts = self._ref(node)
        assert facts is not None  # a name or a visit (as the callers test)
        key = facts.key
        if facts.constant and not facts.assigned and facts.declared:
            value = facts.declared[0]
            return "true" if bool(value) != negated else "false"
        kind = types.get(key, "bool")
        used.add(facts.name)
        if kind == "bool":
            return f"not {facts.name}" if negated else facts.name
        if kind == "int":
            return f"{facts.name} {'==' if negated else '!='} 0"
        raise Opaque("문자열 변수의 참거짓을 따지는")

    def _compare(self, op: str, left: Any, right: Any, types: dict[str, str], used: set[str]) -> str:
        lref = self._ref(left) if left[0] in ("name", "visit") else None
        rref = self._ref(right) if right[0] in ("name", "visit") else None
        # constants declared with CONST are values, not flags
        def const_of(node, ref):
            if ref is not None and ref.constant and not ref.assigned and ref.declared:
                return (_kind_of(ref.declared[0]), ref.declared[0])
            return node if node[0] in ("int", "str", "bool") else None
        lc, rc = const_of(left, lref), const_of(right, rref)
        if lc is not None and rc is not None:
            return "true" if _py_compare(op, lc[1], rc[1]) else "false"
        if lc is None and rc is None:
            if lref is not None and rref is not None:
                raise Opaque("두 변수를 서로 비교하는")
            if "arith" in (left[0], right[0]):
                raise Opaque("산술 계산이 든")
            if "call" in (left[0], right[0]):
                raise Opaque(f"함수 호출({(left if left[0] == 'call' else right)[1]})이 든")
            raise Opaque("읽지 못한 비교가 든")
        if lc is not None:
            left, right, lc, rc = right, left, None, lc
            lref = rref
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        if lref is None:
            if left[0] == "arith":
                raise Opaque("산술 계산이 든")
            if left[0] == "call":
                raise Opaque(f"함수 호출({left[1]})이 든")
            raise Opaque("읽지 못한 비교가 든")
        kind = types.get(lref.key, "bool")
        value = rc[1]
        used.add(lref.name)
        if rc[0] == "float":
            raise Opaque("소수와 비교하는")
        if kind == "bool":
            if isinstance(value, bool):
                return f"{lref.name} {op} {'true' if value else 'false'}"
            if isinstance(value, int) and value in (0, 1) and op in ("==", "!="):
                return f"{lref.name} {op} {'true' if value else 'false'}"
            raise Opaque("참거짓 변수를 다른 종류의 값과 비교하는")
        if kind == "int":
            if isinstance(value, bool):
                value = int(value)
            if not isinstance(value, int):
                raise Opaque("정수 변수를 문자열과 비교하는")
            return f"{lref.name} {op} {value}"
        if not isinstance(value, str):
            raise Opaque("문자열 변수를 다른 종류의 값과 비교하는")
        if op not in ("==", "!="):
            raise Opaque("문자열의 크기를 비교하는")
        if '"' not in value:
            return f'{lref.name} {op} "{value}"'
        if "'" not in value:
            return f"{lref.name} {op} '{value}'"
        raise Opaque("따옴표가 둘 다 든 문자열과 비교하는")


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return "str"


def _py_compare(op: str, a: Any, b: Any) -> bool:
    try:
        return {"==": a == b, "!=": a != b}[op] if op in ("==", "!=") else {
            "<": lambda: a < b, "<=": lambda: a <= b, ">": lambda: a > b, ">=": lambda: a >= b}[op]()
    except TypeError:
        return False


def literal(text: str) -> Any:
    """A declared or assigned value as Python: int, float, bool, str, or ``None`` when it
    is an expression (not a literal)."""
    t = text.strip()
    if re.fullmatch(r"[+-]?\d+", t):
        return int(t)
    if re.fullmatch(r"[+-]?\d+\.\d*", t):
        return float(t)
    if t.lower() in ("true", "false"):
        return t.lower() == "true"
    if len(t) >= 2 and t[0] == t[-1] and t[0] in "\"'" and t[0] not in t[1:-1]:
        return t[1:-1]
    return None


def increment(op: str, text: str) -> Any:
    """``x += n`` / ``x -= n`` as an :meth:`StoryBuilder.assign` value."""
    v = literal(text)
    if isinstance(v, int) and not isinstance(v, bool):
        return (op, v)
    return None


def iter_lines(text: str) -> Iterable[tuple[int, str]]:
    for i, line in enumerate(text.split("\n"), 1):
        yield i, line


def resolve_names(node: Any, dialect: Dialect) -> Any:
    """Replace names and calls by what ``dialect`` says they mean (flags keyed without
    their sigil, visit counts, constants); bounded by the parser's nesting limit."""
    if not isinstance(node, tuple):
        return node
    kind = node[0]
    if kind == "name":
        name = node[1]
        got = dialect.resolve(name)
        if got is not None:
            return got
        key = name[1:] if dialect.strip_sigil and name[:1] in "$_" and len(name) > 1 else name
        return ("name", key)
    if kind == "call":
        args = [resolve_names(a, dialect) for a in node[2]]
        if dialect.call is not None:
            return dialect.call(node[1], args)
        raise Opaque(f"함수 호출({node[1]})이 든")
    if kind == "contains":
        left, right = resolve_names(node[1], dialect), resolve_names(node[2], dialect)
        if left[0] == "history" and right[0] == "str":  # Harlowe: (history:) contains "P"
            return ("cmp", ">", ("visit", right[1]), ("int", 0))
        return ("contains", left, right)
    if kind in ("and", "or"):
        return (kind, resolve_names(node[1], dialect), resolve_names(node[2], dialect))
    if kind == "not":
        return ("not", resolve_names(node[1], dialect))
    if kind in ("cmp", "arith"):
        return (kind, node[1], resolve_names(node[2], dialect), resolve_names(node[3], dialect))
    return node


def translate(text: str, dialect: Dialect) -> Any:
    """``text`` parsed and resolved in ``dialect``: an AST, or the :class:`Opaque` saying
    why it cannot be translated."""
    try:
        return resolve_names(parse_expr(text, dialect), dialect)
    except Opaque as exc:
        return exc
    except RecursionError:  # pragma: no cover - bounded by MAX_NESTING
        return Opaque("너무 깊이 중첩된")
