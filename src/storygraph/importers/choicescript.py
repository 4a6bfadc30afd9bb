"""ChoiceScript (a ``scenes/`` folder with ``startup.txt``) → the three tables, read as
the engine (``web/scene.js`` of ChoiceScript) runs it.

Scenes: each scene file of ``*scene_list`` (``startup``, ``chapter1`` …), each
``*label`` (``chapter1.label``), each option body that holds more than one way on
(``chapter1.option-12``), the continuation after a ``*choice``/``*fake_choice`` whose
options go on to the next line, after a ``*gosub`` (``chapter1.after-12``) and after an
``*if`` whose blocks end in different places (``chapter1.after-12-if``), lines that no
flow reaches (``chapter1.line-30``, after a ``*goto``/``*choice``), and the dead ends
ChoiceScript stops at with an error (``chapter1.fall-12``: falling into an ``*else``);
``*ending`` is the ending scene.  Branches: ``*goto``, ``*goto_scene``, ``*gosub``,
``*return``, ``*finish`` (to the next scene of ``*scene_list``) and falling into a
``*label`` are ``auto``; ``*choice``/``*fake_choice`` options are ``choice``.

The engine's rules, as ``scene.js`` has them:

* an option's body that ends without a jump goes on to the line after the whole
  ``*choice`` when nothing of the block follows it (the last option), and in a
  ``*fake_choice`` (or with ``implicit_control_flow``) from every option; otherwise the
  next line is another option or an option-level ``*if`` and the engine stops ("fall
  out of a *choice"), or an ``*else``/``*elseif`` ("fall in to an *else");
* ``*return`` goes back to the line after the ``*gosub``/``*gosub_scene`` that called
  the subroutine it ends;
* a variable must be made by ``*create`` (at the top of ``startup.txt``) or ``*temp``
  (in the same scene file) before it is read or set, or the engine stops
  ("Non-existent variable"): the builder is made with ``declarations_required`` and a
  variable without either is marked ``undeclared``.  A ``*temp`` belongs to its scene
  file: the same name made in two files (or made in one and used in another) is one
  flag per file, ``<file>.<name>``.  ``*params`` and the engine's own ``choice_…``
  values are not story flags;
* every ``.txt`` file of the folder is a scene file (the engine's ``choicescript_*``
  screens aside): one that nothing names is never played;
* a name computed while playing (``*gosub_scene {s} {l}``, ``*goto {x}``, ``*gotoref``,
  ``{x}``, ``arr[i]``, ``*set {x}``) is narrowed to the places and variables whose names
  fit the values its parts may hold (:class:`_Names`); what cannot be narrowed is an
  opaque jump, a read or write of any variable.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from verdicts.errors import InputError
from verdicts.korean import code, josa
from verdicts.patterns import PatternError, compile_linear

from .common import (Cond, Construct, Dialect, MAX_NESTING, Opaque, StoryBuilder, last_line, literal, none_of,
                     quote_code, read_text, translate, unreadable)

__all__ = ["import_choicescript", "scan_constructs"]

ENDING = "*ending"
#: a case of an *if/*elseif chain longer than MAX_NESTING cases, past that many
_LONG_CHAIN = Opaque(f"{MAX_NESTING}개보다 긴 `*elseif` 사슬의 뒤쪽이라 앞 조건을 다 담지 못한")
STATS = "choicescript_stats"
_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "modulo": "%"}
#: commands the engine takes only at the top of startup.txt (``Scene.initialCommands``)
_INITIAL = {"create", "create_array", "scene_list", "title", "author", "comment", "achievement", "product", "ifid"}
#: commands whose indented lines are data, not a block of the story
_DATA_BLOCKS = {"scene_list", "stat_chart", "achievement"}
#: the engine's functions (``Scene.tokens`` FUNCTION) and named operators
_FUNCTIONS = {"not", "round", "timestamp", "log", "length", "auto"}
_KEYWORDS = {"and", "or", "modulo", "true", "false"}
_EXPR_TOKEN = re.compile(r'\s+|"(?:[^"\\]|\\.)*"?|\d+(?:\.\d+)?|[A-Za-z_]\w*|.', re.S)
#: an option line: reuse modifiers, then an inline ``*if``/``*selectable_if (…)``, then ``#``
_OPTION_LINE = re.compile(r"^\s*(?:\*(?:hide_reuse|disable_reuse|allow_reuse)\s+)*"
                          r"(?:\*(?:if|selectable_if)\s*\(.*\)\s*)?#")
_JUMP_LINE = re.compile(r"^\s*\*(goto|goto_scene|gosub|gosub_scene|finish|ending|return|gotoref|restart|"
                        r"goto_random_scene)\b", re.I)
_LABEL_LINE = re.compile(r"^\s*\*label\s+(\S+)", re.I)
_SCENE_REF = re.compile(r"^\s*\*(?:goto_scene|gosub_scene)\s+([\w-]+)", re.I)


@dataclass
class _Node:
    line: int
    text: str
    children: list["_Node"] = field(default_factory=list)


def has_startup(folder: Path) -> bool:
    """Whether ``folder`` holds a ``startup.txt`` that is not a folder (a FIFO or a link
    to a device counts: reading it says why it cannot be read)."""
    startup = folder / "startup.txt"
    return os.path.lexists(startup) and not startup.is_dir()


def _game_folder(path: Path) -> Path:
    """The folder holding ``startup.txt`` for ``path`` (a folder, ``scenes/`` or a file)."""
    folder = path if path.is_dir() or not os.path.lexists(path) else path.parent
    if not has_startup(folder) and has_startup(folder / "scenes"):
        folder = folder / "scenes"
    return folder


def import_choicescript(path: Path) -> StoryBuilder:
    folder = _game_folder(Path(path))
    if not has_startup(folder):
        raise InputError(f"{path}: ChoiceScript의 startup.txt를 찾지 못했습니다.")
    return _ChoiceScript(folder).run()


# ----------------------------------------------------------------------------- the line scanner


def scan_constructs(path: str | Path) -> list[Construct]:
    """Every scene container and every line with a way on, found line by line with
    regular expressions, apart from the importer (the import self-check compares them).

    The files are ``startup.txt``, those its ``*scene_list`` names, the files a
    ``*goto_scene``/``*gosub_scene`` names, and every other ``.txt`` file of the folder
    but the engine's own ``choicescript_*`` screens; each file is a scene (line 1)
    and each ``*label`` line a scene ``<file>.<label>``; ``#option`` lines (with their
    ``*if (…)``/``*selectable_if (…)``/reuse modifiers) and ``*goto``, ``*goto_scene``,
    ``*gosub``, ``*gosub_scene``, ``*finish``, ``*ending``, ``*return``, ``*gotoref``,
    ``*restart``, ``*goto_random_scene`` lines are branches.  ``choicescript_stats.txt``
    (the stats screen) is not part of the story's flow and is not scanned.
    """
    folder = _game_folder(Path(path))
    out: list[Construct] = []
    texts: dict[str, list[str]] = {}
    queue = ["startup"]
    try:
        startup = read_text(folder / "startup.txt").split("\n")
    except (InputError, OSError):
        return out
    in_list, list_indent = False, 0
    for raw in startup:
        stripped = raw.strip()
        indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
        if re.match(r"\*scene_list\b", stripped, re.I):
            in_list, list_indent = True, indent
            continue
        if in_list:
            if not stripped:
                continue
            if indent <= list_indent:
                in_list = False
            else:
                name = re.sub(r"^\$\S*\s*", "", stripped).strip()
                if name:
                    queue.append(name)
    seen: set[str] = set()
    while queue:
        while queue:
            name = queue.pop(0)
            if name in seen or name == STATS:
                continue
            seen.add(name)
            file = folder / f"{name}.txt"
            try:
                lines = read_text(file).split("\n") if file.is_file() else None
            except (InputError, OSError):
                lines = None
            if lines is None:
                continue
            texts[name] = lines
            for raw in lines:
                m = _SCENE_REF.match(raw)
                if m and m.group(1) not in seen:
                    queue.append(m.group(1))
        # then every other scene file of the folder
        queue = [p.stem for p in sorted(folder.glob("*.txt")) if p.stem not in seen and not p.stem.startswith("choicescript_")]
    for name, lines in texts.items():
        scene_file = str(folder / f"{name}.txt")
        out.append(Construct(scene_file, 1, "scene", name, name))
        data_indent = None  # the lines indented under *scene_list, *stat_chart, *achievement are data
        for no, raw in enumerate(lines, 1):
            if not raw.strip():
                continue
            indent = len(raw.expandtabs(4)) - len(raw.expandtabs(4).lstrip())
            if data_indent is not None and indent > data_indent:
                continue
            data_indent = None
            if re.match(r"^\s*\*comment\b", raw, re.I):
                continue
            if re.match(r"^\s*\*(scene_list|stat_chart|achievement)\b", raw, re.I):
                data_indent = indent
                continue
            m = _LABEL_LINE.match(raw)
            if m:
                out.append(Construct(scene_file, no, "scene", raw.strip(), f"{name}.{m.group(1).lower()}"))
            elif _OPTION_LINE.match(raw) or _JUMP_LINE.match(raw):
                out.append(Construct(scene_file, no, "branch", raw.strip()))
    return out


# ----------------------------------------------------------------------------- expressions


def _close(text: str, start: int = 0, pair: str = "()") -> int:
    """The index of the bracket closing the one at ``start`` (the end when unclosed)."""
    depth = 0
    for i in range(start, len(text)):
        c = text[i]
        if c == pair[0]:
            depth += 1
        elif c == pair[1]:
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


def _interpolations(text: str, depth: int = 0) -> list[str]:
    """The expressions a line of text prints: ``${x}``, ``$!{x}``, ``$!!{x}``, and the
    chooser of ``@{x a|b}``, ``@{(x > 2) a|b}`` (the options may hold more)."""
    out: list[str] = []
    pos = 0
    while depth <= MAX_NESTING:
        m = re.compile(r"[$@]!?!?\{").search(text, pos)
        if m is None:
            break
        start = m.end()
        level, end = 0, -1
        for i in range(start, len(text)):
            c = text[i]
            if c == "{":
                level += 1
            elif c == "}":
                if level == 0:
                    end = i
                    break
                level -= 1
        if end < 0:
            break
        body = text[start:end]
        if m.group().startswith("$"):
            out.append(body)
        else:
            stripped = body.lstrip()
            if stripped.startswith("("):
                close = _close(stripped)
                out.append(stripped[1:close])
                rest = stripped[close + 1:]
            else:
                parts = stripped.split(" ", 1)
                out.append(parts[0])
                rest = parts[1] if len(parts) > 1 else ""
            out.extend(_interpolations(rest, depth + 1))
        pos = end + 1
    return out


# ----------------------------------------------------------------------------- names computed while playing

#: what a name or a value is known to be: literal pieces, and ``None`` for a piece that
#: may be any text (``"test_" & x`` is ``("test_", None)``; ``(None,)`` may be anything)
Glob = tuple
_TOP: Glob = (None,)
#: a piece that is a number written out (what arithmetic, ``*rand`` and ``*input_number`` give)
_NUM = 0
_NUMBER: Glob = (_NUM,)
_BOOL = frozenset({("true",), ("false",)})
#: the engine's operators, by what they give
_ARITHMETIC = {"+", "-", "*", "/", "%", "modulo"}
_LOGIC = {"<", ">", "=", "!", "and", "or"}
#: a variable keeps at most this many known values; more are widened to the text they begin with
MAX_VALUES = 32
#: a jump whose computed name may lead to more places than this stays an opaque jump
MAX_TARGETS = 64
_MAX_PIECES = 9
_SOLVE_ROUNDS = 60
#: how much matching and joining of values the solving may do before it gives up (then
#: every computed name may be anything, as when it cannot be narrowed)
_SOLVE_BUDGET = 500_000
#: commands after which the flow never reaches the next line of the same block (``*bug``
#: stops the engine with an error)
_STOPS = {"goto", "goto_scene", "finish", "ending", "return", "restart", "gotoref", "goto_random_scene", "abort",
          "redirect_scene", "bug"}


def _glob(*parts: str | int | None) -> Glob:
    out: list[str | int | None] = []
    for p in parts:
        if p is None:
            if not out or out[-1] is not None:
                out.append(None)
        elif p == _NUM and not isinstance(p, str):
            out.append(_NUM)
        elif p:
            assert isinstance(p, str)  # _NUM is the only int part
            if out and isinstance(out[-1], str):
                out[-1] += p
            else:
                out.append(p)
    if len(out) > _MAX_PIECES:
        return _glob(*out[:_MAX_PIECES - 1], None)
    return tuple(out)


@lru_cache(maxsize=4096)
def _glob_regex(glob: Glob, fold: bool) -> Any:
    # RE2 (linear in the name): under a backtracking engine, ``.*a.*a.*a.*b`` against a
    # name of 400 ``a`` ran for minutes
    return compile_linear(("(?si)" if fold else "(?s)")
                          + "".join(".*" if p is None else r"-?\d+(?:\.\d+)?" if p == _NUM and not isinstance(p, str)
                                    else re.escape(p) for p in glob))


def _matches(glob: Glob, name: str, fold: bool = True) -> bool:
    try:
        return _glob_regex(glob, fold).fullmatch(name) is not None
    except PatternError:  # pieces too large for RE2's memory bound: the name may be any of them
        return True


def _covers(a: Glob, b: Glob) -> bool:
    """Every text ``b`` may be is one ``a`` may be (as far as cheaply known)."""
    if a == b or a == _TOP:
        return True
    if len(b) == 0 or (len(b) == 1 and isinstance(b[0], str)):
        return _matches(a, b[0] if b else "", fold=False)
    return len(a) == 2 and a[1] is None and isinstance(a[0], str) and isinstance(b[0], str) and b[0].startswith(a[0])


def _widen(values) -> frozenset:
    vals = set(values)
    if _TOP in vals:
        return frozenset({_TOP})
    if len(vals) > 1 and any(None in v for v in vals):
        open_ = [v for v in vals if None in v or _NUM in v]
        vals = {v for v in vals if not any(o != v and _covers(o, v) for o in open_)}
    if len(vals) > MAX_VALUES:
        return _families(vals)
    return frozenset(vals)


def _families(values) -> frozenset:
    """Too many values, widened to the few texts they begin with (each followed by
    anything): ``module_1`` … ``module_40`` become ``module_…``."""
    heads = [v[0] if v and isinstance(v[0], str) else "" for v in values]
    cut = {""}
    for k in range(max(map(len, heads), default=0), -1, -1):
        cut = {h[:k] for h in heads}
        if len(cut) <= MAX_VALUES // 4:
            break
    return _widen(_glob(h, None) for h in cut)


def _cat(a: frozenset, b: frozenset) -> frozenset:
    """``a & b``: every value of ``a`` followed by every value of ``b``."""
    if len(a) * len(b) > 4 * MAX_VALUES:
        return _families(a)
    return _widen(_glob(*x, *y) for x in a for y in b)


def _string_glob(token: str) -> Glob:
    """A string literal as the engine reads it: ``${x}``, ``@{…}`` inside it are text
    known only while playing."""
    body = token[1:-1] if len(token) > 1 and token.endswith('"') else token[1:]
    body = re.sub(r"\\(.)", r"\1", body)
    parts: list[str | None] = []
    pos = 0
    for m in re.finditer(r"[$@]!?!?\{", body):
        if m.start() < pos:
            continue
        parts.append(body[pos:m.start()])
        end = _close(body, m.end() - 1, "{}")
        parts.append(None)
        pos = end + 1
    parts.append(body[pos:])
    return _glob(*parts)


def _tokens(text: str) -> list[str]:
    return [t for t in _EXPR_TOKEN.findall(text) if not t.isspace()]


def _closing(toks: list[str], i: int) -> int:
    """The index of the bracket closing ``toks[i]`` (``len(toks)`` when unclosed)."""
    pair = {"(": ")", "[": "]", "{": "}"}[toks[i]]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j] == toks[i]:
            depth += 1
        elif toks[j] == pair:
            depth -= 1
            if depth == 0:
                return j
    return len(toks)


def _reference(toks: list[str], i: int = 0) -> tuple[tuple | None, int]:
    """The name a command acts on, as the engine's ``evaluateReference`` reads it:
    ``("lit", name)``, ``("curly", tokens)`` for ``{expr}`` (the name is the value),
    ``("elem", name, [index tokens…])`` for ``name[i]`` (``name_<i>``); and where the rest begins."""
    if i >= len(toks):
        return None, i
    tok = toks[i]
    if tok == "{":
        end = _closing(toks, i)
        return ("curly", toks[i + 1:end]), end + 1
    if re.fullmatch(r"\w+", tok):
        j, indexes = i + 1, []
        while j < len(toks) and toks[j] == "[":
            end = _closing(toks, j)
            indexes.append(toks[j + 1:end])
            j = end + 1
        return (("elem", tok, indexes) if indexes else ("lit", tok)), j
    return None, i + 1


def _primaries(toks: list[str]) -> list[list[str]]:
    """The arguments of a call, each one value as the engine's ``evaluateValueToken``
    takes it (a string, a number, a name with its ``[…]``, ``(…)``, ``{…}``, a function)."""
    out: list[list[str]] = []
    i = 0
    while i < len(toks):
        start, tok = i, toks[i]
        if tok in ("(", "{"):
            i = _closing(toks, i) + 1
        elif re.fullmatch(r"[A-Za-z_]\w*", tok):
            i += 1
            if tok.lower() in _FUNCTIONS and i < len(toks) and toks[i] == "(":
                i = _closing(toks, i) + 1
            while i < len(toks) and toks[i] == "[":
                i = _closing(toks, i) + 1
        else:
            i += 1
        out.append(toks[start:i])
    return out


def _jump_spec(cmd: str, args: str) -> tuple[tuple | None, tuple | None, list[str]]:
    """Where a jump goes, as ``scene.js`` parses it: the scene part and the label part
    (each as :func:`_reference` gives it; ``None`` when absent) and the argument tokens.
    ``*goto`` and ``*gosub`` name a label of their own file (the scene part is ``None``)."""
    text = args.strip()
    if cmd in ("goto", "gotoref"):
        if cmd == "gotoref":
            return None, ("value", _tokens(text)), []
        if re.search(r"[\[{]", text):
            ref, _ = _reference(_tokens(text))
            return None, ref, []
        return None, ("lit", text.split()[0]) if text.split() else None, []
    if cmd == "gosub":
        word = text.split()[0] if text.split() else ""
        rest = text[len(word):]
        ref = _reference(_tokens(word))[0] if re.search(r"[\[{]", word) else ("lit", word)
        return None, ref, _tokens(rest)
    # goto_scene, gosub_scene, redirect_scene
    if re.search(r"[\[{]", text):
        toks = _tokens(text)
        scene, i = _reference(toks)
        label, j = _reference(toks, i) if i < len(toks) else (None, i)
        return scene, label, toks[j:]
    m = re.match(r"(\S+)\s+(\S+)\s*(.*)$", text, re.S)
    if m:
        return ("lit", m.group(1)), ("lit", m.group(2)), _tokens(m.group(3))
    return (("lit", text) if text else None), None, []


def _script_effects(code_text: str) -> tuple[list[str], list[str], list[tuple[str, bool]], bool]:
    """What a ``*script`` line (JavaScript the engine runs) does to the story's
    variables, as far as its text names them: the names it reads and writes as
    ``stats.x``/``temps.x`` (or ``stats["x"]``), the name beginnings it reads or writes as
    ``stats["x_" + …]`` (``(beginning, written)``), and whether it touches a name it does
    not spell out (``stats[name]``, ``setVar(…)``, a whole new ``stats``): then any
    variable may be read or changed."""
    reads: list[str] = []
    writes: list[str] = []
    prefixes: list[tuple[str, bool]] = []
    unknown = bool(re.search(r"\bsetVar\s*\(|\b(?:stats|temps)\s*=(?!=)", code_text))
    for m in re.finditer(r"\b(?:stats|temps)\s*(?:\.\s*(\w+)|\[\s*(['\"])((?:[^'\"\\]|\\.)*)\2\s*(\+)?|\[)", code_text):
        end = m.end()
        if m.group(2) is not None:
            close = code_text.find("]", end)
            end = close + 1 if close >= 0 else len(code_text)
        assigning = re.match(r"\s*(?:=(?!=)|\+=|-=|\*=|/=|\+\+|--)", code_text[end:]) is not None
        name = (m.group(1) or m.group(3) or "").lower()
        if m.group(1) is None and m.group(2) is None:
            unknown = True  # stats[name]: a name we cannot read
        elif m.group(4):
            prefixes.append((name, assigning))
        elif name:
            (writes if assigning else reads).append(name)
    return reads, writes, prefixes, unknown


#: events of the variable facts that name no variable (a read or write of any one)
_ANY_EVENTS = ("readany", "writeany", "scriptprefix")


def _plain_name(ref: tuple | None) -> str | None:
    """The variable a reference names when nothing in it is computed (``x``, ``arr[2]``)."""
    if ref is None or ref[0] == "curly" or ref[0] == "value" or ref[0] == "glob":
        return None
    if ref[0] == "lit":
        return ref[1].lower()
    if all(len(index) == 1 and re.fullmatch(r"\d+", index[0]) for index in ref[2]):
        return "_".join([ref[1].lower()] + [index[0] for index in ref[2]])
    return None


def _split_reference(args: str) -> tuple[str, str] | None:
    """``(name, rest)`` of ``*set name rest``, the name as written (``x``, ``arr[i]``, ``{x}``)."""
    text = args.strip()
    if text.startswith("{"):
        end = _close(text, 0, "{}")
        return text[:end + 1], text[end + 1:].strip()
    m = re.match(r"\w+", text)
    if not m:
        return None
    j = m.end()
    while j < len(text) and text[j] == "[":
        j = _close(text, j, "[]") + 1
    return text[:j], text[j:].strip()


def _computed(ref: tuple | None) -> bool:
    return ref is not None and ref[0] != "lit"


class _Names:
    """What the names a story computes while playing may be: the values each variable
    may hold (literal text, or text with unknown pieces), read flow-insensitively from
    every ``*create``, ``*temp``, ``*set``, ``*params`` (the arguments of the calls that
    reach it) and write by a computed name; then the places ``*goto {x}``,
    ``*gosub_scene {s} {l}``, ``*gotoref`` can lead to (the scene files and labels whose
    names fit) and the variables ``{x}``, ``arr[i]`` can name.  A value that cannot be
    computed may be any text; nothing is guessed."""

    def __init__(self, cs: _ChoiceScript):
        self.cs = cs
        self.files = [n for n in cs.trees if n != STATS]
        self.temps: dict[str, set[str]] = {n: set(cs.temps.get(n, {})) | set(cs.params.get(n, set())) for n in cs.trees}
        self.globals: set[str] = set(cs.created)
        #: (file, target reference, value): value is a token list, ("&", tokens) or None (any value)
        self.writes: list[tuple[str, tuple, Any]] = []
        #: (file, names, label or None, exact): a *params line; exact when only calls reach it
        self.params: list[tuple[str, list[str], str | None, bool]] = []
        #: (caller file, (scene part, label part), argument tokens)
        self.calls: list[tuple[str, tuple, list[list[str]]]] = []
        #: files with a *goto/*gotoref to a computed label (it may enter any of their labels)
        self.loose: set[str] = set()
        self.values: dict[tuple[str, str], frozenset] = {}
        self.stable = True
        self._depth = 0
        self._spent = 0
        self._memo: dict[tuple, frozenset] = {}
        self._names_of: dict[tuple, list[str]] = {}
        for name in cs.trees:  # (the stats screen too: it may set variables)
            self._collect(name, cs.trees[name])
        self._solve()

    # -- reading the story

    def _collect(self, name: str, tree: list[_Node]) -> None:
        gone_to = {(_command(n.text)[1].split() or [""])[0].lower() for n in _walk(tree) if _command(n.text)[0] == "goto"}
        for parent, siblings in self._sibling_lists(tree):
            for k, node in enumerate(siblings):
                cmd, args = _command(node.text)
                if cmd == "params":
                    label, exact = self._params_label(parent, siblings, k, gone_to)
                    names = [w.lower() for w in re.findall(r"\w+", args)]
                    self.params.append((name, names, label, exact))
        for node in _walk(tree, skip_data=True):
            cmd, args = _command(node.text)
            while cmd in ("hide_reuse", "disable_reuse", "allow_reuse"):
                cmd, args = _command(args.strip())
            if cmd in ("create", "temp"):
                m = re.match(r"\s*(\w+)(.*)$", args, re.S)
                if m and m.group(2).strip():
                    self.writes.append((name, ("lit", m.group(1)), _tokens(m.group(2))))
                if m and cmd == "create":
                    self.globals.add(m.group(1).lower())
            elif cmd in ("create_array", "temp_array"):
                parts = args.split()
                if len(parts) >= 2:
                    arr = parts[0].lower()
                    elements = sorted(self.cs.arrays.get(arr, ()), key=lambda e: int(e.rsplit("_", 1)[1]))
                    values = parts[2:]
                    for k, elem in enumerate(elements, 1):
                        value = values[k - 1] if len(values) >= k else (values[0] if len(values) == 1 else None)
                        self.writes.append((name, ("lit", elem), _tokens(value) if value else None))
                    self.writes.append((name, ("lit", f"{arr}_count"), [parts[1]]))
            elif cmd == "set":
                toks = _tokens(args)
                ref, i = _reference(toks)
                if ref is not None:
                    rest = toks[i:]
                    if rest and rest[0] == "&":
                        self.writes.append((name, ref, ("&", rest[1:])))
                    elif rest and rest[0] in ("+", "-", "*", "/", "%"):
                        self.writes.append((name, ref, ["0", "+", "0"]))  # arithmetic: a number
                    else:
                        self.writes.append((name, ref, rest))
            elif cmd == "setref":
                toks = _tokens(args)
                first = _primaries(toks)[:1]
                if first:
                    self.writes.append((name, ("curly", first[0]), toks[len(first[0]):]))
            elif cmd in ("rand", "input_number", "input_text"):
                ref, _ = _reference(_tokens(args))
                if ref is not None:
                    self.writes.append((name, ref, None if cmd == "input_text" else ["0", "+", "0"]))
            elif cmd in ("gosub", "gosub_scene", "goto_scene"):
                scene, to_label, rest = _jump_spec(cmd, args)
                if cmd == "gosub":
                    scene = ("lit", name)
                if cmd != "goto_scene" or rest:
                    self.calls.append((name, (scene, to_label), _primaries(rest)))
            elif cmd in ("goto", "gotoref"):
                _scene, to_label, _rest = _jump_spec(cmd, args)
                if cmd == "gotoref" or _computed(to_label):
                    self.loose.add(name)
            elif cmd == "script":
                _reads, written, prefixes, unknown = _script_effects(args)
                for var in written:
                    self.globals.add(var)
                    self.writes.append((name, ("lit", var), None))
                for prefix, writes in prefixes:
                    if writes:
                        self.writes.append((name, ("glob", _glob(prefix, None)), None))
                if unknown:
                    self.writes.append((name, ("glob", _TOP), None))

    @staticmethod
    def _sibling_lists(tree: list[_Node]):
        """Every list of lines at one level, with the line they are indented under."""
        stack: list[tuple[_Node | None, list[_Node]]] = [(None, tree)]
        while stack:
            parent, nodes = stack.pop()
            yield parent, nodes
            for node in nodes:
                if node.children and _command(node.text)[0] not in _DATA_BLOCKS:
                    stack.append((node, node.children))

    @staticmethod
    def _params_label(parent: _Node | None, siblings: list[_Node], k: int, gone_to: set[str]) -> tuple[str | None, bool]:
        """The label a ``*params`` line (``siblings[k]``) takes its arguments from, and
        whether only the calls to that label reach it: it comes right after the
        ``*label``, nothing falls into the label from above (the line before it stops
        the flow, or it opens an ``*if (false)`` block) and no ``*goto`` names it."""
        if k == 0 or _command(siblings[k - 1].text)[0] != "label":
            return None, False
        label = (_command(siblings[k - 1].text)[1].split() or [""])[0].lower()
        if k >= 2:
            if _command(siblings[k - 2].text)[0] not in _STOPS:
                return label, False
        elif parent is not None and not re.fullmatch(r"\*if\s*\(?\s*false\s*\)?\s*", parent.text.strip(), re.I):
            return label, False
        return label, label not in gone_to

    # -- values

    def _var(self, var: str, file: str) -> frozenset:
        var = var.lower()
        if re.fullmatch(r"param_\d+", var):
            # the anonymous parameters: any argument of a call into the file
            return self.values.get((file, "param_"), frozenset())
        if var == "param_count":
            return frozenset({_NUMBER})
        if var.startswith("choice_") or var == "param" or var == "implicit_control_flow":
            return frozenset({_TOP})
        out: set = set()
        temps = self.temps.get(file, set())
        if var in temps:
            out |= self.values.get((file, var), frozenset())
        if var not in temps or var in self.globals:
            out |= self.values.get(("", var), frozenset())
        return _widen(out)

    def _named(self, globs: frozenset, file: str) -> frozenset:
        """The values of the variables a computed name may be."""
        if _TOP in globs:
            return frozenset({_TOP})
        out: set = set()
        for var in self._candidates(globs, file):
            out |= self._var(var, file)
        if any(_matches(g, "param_1") for g in globs):  # param[i]
            out |= self._var("param_1", file)
        return _widen(out)

    def _candidates(self, globs: frozenset, file: str) -> list[str]:
        key = (globs, file)
        if self._spent > _SOLVE_BUDGET:
            return []  # (given up: the solving is not used)
        if key not in self._names_of:
            names = self.temps.get(file, set()) | self.globals
            self._spent += len(names) * len(globs)
            self._names_of[key] = sorted(v for v in names if any(_matches(g, v) for g in globs))
        return self._names_of[key]

    def expr(self, toks: list[str], file: str) -> frozenset:
        """The values an expression may have: values joined with ``&``; arithmetic gives
        a number, a comparison ``true`` or ``false``; anything else may be any value."""
        if not toks:
            return frozenset()
        if self._depth > MAX_NESTING:
            return frozenset({_TOP})
        memo = (tuple(toks), file)
        if memo in self._memo:
            return self._memo[memo]
        self._depth += 1
        try:
            self._memo[memo] = out = self._expr(toks, file)
            self._spent += len(out) + len(toks)
            return out
        finally:
            self._depth -= 1

    def _expr(self, toks: list[str], file: str) -> frozenset:
        parts = _primaries(toks)
        operators = _ARITHMETIC | _LOGIC | {"&"}
        ops = {p[0].lower() for p in parts if len(p) == 1 and p[0].lower() in operators}
        values = [p for p in parts if not (len(p) == 1 and p[0].lower() in operators)]
        if not ops and len(values) == 1:
            return self.value(values[0], file)
        if ops & _LOGIC:
            return _BOOL
        if ops and ops <= _ARITHMETIC:
            return frozenset({_NUMBER})
        if ops == {"&"} and len(values) == len(parts) - len(values) + 1:
            value = self.value(values[0], file)
            for more in values[1:]:
                value = _cat(value, self.value(more, file))
            return value
        return frozenset({_TOP})

    def value(self, toks: list[str], file: str) -> frozenset:
        """The values one argument (a value as ``evaluateValueToken`` takes it) may have."""
        if not toks:
            return frozenset()
        tok = toks[0]
        if tok.startswith('"'):
            return frozenset({_string_glob(tok)})
        if re.fullmatch(r"\d+(\.\d+)?", tok):
            return frozenset({(tok,)})
        if tok == "(":
            return self.expr(toks[1:_closing(toks, 0)], file)
        if tok == "{":
            return self._named(self._lower(self.expr(toks[1:_closing(toks, 0)], file)), file)
        if re.fullmatch(r"[A-Za-z_]\w*", tok):
            low = tok.lower()
            if low in _FUNCTIONS and len(toks) > 1 and toks[1] == "(":
                return _BOOL if low == "not" else frozenset({_NUMBER}) if low != "auto" else frozenset({_TOP})
            if low in ("true", "false") and len(toks) == 1:
                return frozenset({(low,)})
            if len(toks) > 1 and toks[1] == "[":
                return self._named(self.names(_reference(toks)[0], file), file)
            return self._var(low, file)
        return frozenset({_TOP})

    @staticmethod
    def _lower(globs: frozenset) -> frozenset:
        return frozenset(tuple(p.lower() if isinstance(p, str) else p for p in g) for g in globs)

    def names(self, ref: tuple | None, file: str, fold: bool = True) -> frozenset:
        """The names a reference may be (lower case unless ``fold`` is off: scene names)."""
        if ref is None:
            return frozenset()
        if ref[0] == "lit":
            return frozenset({(ref[1].lower() if fold else ref[1],)})
        if ref[0] == "glob":
            return frozenset({ref[1]})
        if ref[0] in ("curly", "value"):
            out = self.expr(ref[1], file)
        else:  # elem
            out = frozenset({(ref[1],)})
            for index in ref[2]:
                out = _cat(_cat(out, frozenset({("_",)})), self.expr(index, file))
        return self._lower(out) if fold else out

    # -- solving

    def _solve(self) -> None:
        for _ in range(_SOLVE_ROUNDS):
            if self._spent > _SOLVE_BUDGET:
                break  # too much to narrow: every computed name may be anything
            self._memo = {}  # (the values change between rounds only)
            before = dict(self.values)
            new: dict[tuple[str, str], set] = {}

            def put(key: tuple[str, str], vals: frozenset, new: dict = new) -> None:
                if vals:
                    new.setdefault(key, set()).update(vals)

            for file, ref, value in self.writes:
                if value is None:
                    vals = frozenset({_TOP})
                elif isinstance(value, tuple):
                    # x & "…", again and again: x followed by anything
                    vals = _cat(self._written_var_values(file, ref), frozenset({_TOP}))
                else:
                    vals = self.expr(value, file)
                for key in self._write_keys(file, ref):
                    put(key, vals)
            calls_into: dict[tuple[str, str | None], list] = {}
            by_file: dict[str, list] = {}
            unknown: list = []
            for caller, spec, args in self.calls:
                targets = self.resolve(spec, caller)
                if targets is None:
                    unknown.append((caller, args))
                    continue
                for target in targets:
                    calls_into.setdefault(target, []).append((caller, args))
                    by_file.setdefault(target[0], []).append((caller, args))
            for file, sources in by_file.items():
                for caller, args in sources + unknown:
                    for arg in args:
                        put((file, "param_"), self.value(arg, caller))
            for file, names, label, exact in self.params:
                if exact and not unknown and file not in self.loose:
                    sources = calls_into.get((file, label), [])
                    for k, var in enumerate(names):
                        for caller, args in sources:
                            if k < len(args):
                                put((file, var), self.value(args[k], caller))
                else:
                    every: set = set()
                    for caller, args in by_file.get(file, []) + unknown:
                        for arg in args:
                            every |= self.value(arg, caller)
                    for var in names:
                        put((file, var), frozenset(every))
            for slot, found in new.items():
                self.values[slot] = _widen(self.values.get(slot, frozenset()) | found)
            if self.values == before:
                return
        self.stable = False

    def _written_var_values(self, file: str, ref: tuple) -> frozenset:
        if ref[0] == "lit":
            return self._var(ref[1], file)
        return self._named(self.names(ref, file), file)

    def _write_keys(self, file: str, ref: tuple) -> list[tuple[str, str]]:
        globs = self.names(ref, file)
        if _TOP in globs:
            names = self.temps.get(file, set()) | self.globals
            self._spent += len(names)
        elif ref[0] == "lit":
            names = {ref[1].lower()}
        else:
            names = set(self._candidates(globs, file))
        keys = []
        for var in names:
            if var in self.temps.get(file, set()):
                keys.append((file, var))
            if var not in self.temps.get(file, set()) or var in self.globals:
                keys.append(("", var))
        return keys

    def resolve(self, spec: tuple, file: str) -> list[tuple[str, str | None]] | None:
        """The places ``(file, label or None)`` a jump with parts ``spec`` may go on at:
        the scene files and their labels whose names fit what the parts may be (a name
        that fits none stops the engine); ``None`` when more than :data:`MAX_TARGETS`."""
        scene_ref, label_ref = spec
        if scene_ref is None:
            files = [file]
        elif scene_ref[0] == "lit":
            files = [scene_ref[1]]
        else:
            globs = self.names(scene_ref, file, fold=False)
            files = [f for f in self.files if any(_matches(g, f, fold=False) for g in globs)]
        out: list[tuple[str, str | None]]
        if label_ref is None:
            out = [(f, None) for f in files]
        elif label_ref[0] == "lit":
            out = [(f, label_ref[1].lower()) for f in files]
        else:
            globs = self.names(label_ref, file)
            out = [(f, label) for f in files for label in self.cs.labels.get(f, {}) if any(_matches(g, label) for g in globs)]
        return out if len(out) <= MAX_TARGETS else None

    def variables(self, ref: tuple, file: str) -> list[str] | None:
        """The variables a computed name (``{x}``, ``arr[i]``) may be, or ``None`` when it
        may be any variable."""
        globs = self.names(ref, file)
        if not self.stable or _TOP in globs:
            return None
        return self._candidates(globs, file)


# ----------------------------------------------------------------------------- the importer


class _ChoiceScript:
    def __init__(self, folder: Path):
        self.folder = folder
        self.b = StoryBuilder("choicescript", str(folder), declarations_required=True)
        self.real = self.b
        self.dry = False
        self.scene_list: list[str] = []
        self.trees: dict[str, list[_Node]] = {}
        self.files: dict[str, str] = {}
        self.labels: dict[str, dict[str, int]] = {}
        #: gosub calls seen by the flow: (target file, target scene, continuation, call scene, line)
        self.calls: list[tuple[str, str, str, str, int]] = []
        #: *return lines seen by the flow: (file name, scene, line)
        self.returns: list[tuple[str, str, int]] = []
        #: where each *return goes back to, from the first reading: (file, line) -> continuations
        self.return_targets: dict[tuple[str, int], list[str]] = {}
        #: files whose top (before their first *label) some branch enters
        self.top_entered: set[str] = set()
        self.implicit = False
        self.file = ""
        self.name = ""
        self.dialect = Dialect(_WORDS, self._resolve, self._call)
        # declarations: *create (global), *temp and *params per file
        self.created: dict[str, tuple[str, int]] = {}
        self.temps: dict[str, dict[str, int]] = {}
        self.params: dict[str, set[str]] = {}
        self.arrays: dict[str, set[str]] = {}  # array name -> element variables
        self.scopes: dict[str, set[str]] = {}
        self.refused: dict[str, InputError] = {}  # scene files that could not be read, and why

    # ------------------------------------------------------------------ reading

    def run(self) -> StoryBuilder:
        startup = self._read("startup")
        if startup is None:
            raise self.refused.get("startup") or InputError(f"{self.folder / 'startup.txt'}: 파일을 읽을 수 없습니다.")
        self._scene_list(startup)
        if not self.scene_list:
            self.scene_list = ["startup"]
        elif self.scene_list[0] != "startup":
            self.scene_list.insert(0, "startup")
        for name in list(self.scene_list):
            if name not in self.trees and self._read(name) is None and self._absent(name):
                self.b.issue(self.files.get("startup"), None, f"`*scene_list`에 적힌 장면 파일({quote_code(name + '.txt')})이 없어 그 장면으로 가는 분기는 없는 장면을 가리킵니다.")
        # scene files named by *goto_scene/*gosub_scene, and the stats screen (read for
        # its variables only: it is not part of the story's flow)
        queue = list(self.trees)
        while queue:
            for target in self._scene_refs(queue.pop(0)):
                if target not in self.trees and target != STATS and self._read(target) is not None:
                    queue.append(target)
        # every other scene file of the folder: the engine never plays one that nothing
        # names (quicktest calls it untested), but a computed *goto_scene may reach it
        for path in sorted(self.folder.glob("*.txt")):
            if path.stem not in self.trees and not path.stem.startswith("choicescript_") and not path.is_dir():
                self._read(path.stem)
        if STATS not in self.trees and (self.folder / f"{STATS}.txt").is_file():
            self._read(STATS)
        self._declarations()
        self.names = _Names(self)
        self._facts()
        # the flow, twice: the first reading (into a scratch builder) learns where every
        # *return goes back to and which files are entered at their top, so that the
        # second writes each *return's branches in their place among the others
        self.b, self.dry = StoryBuilder("choicescript", str(self.folder)), True
        self._flow()
        self._learn_returns()
        self.b, self.dry = self.real, False
        self._flow()
        if any(br[1] == ENDING for br in self.b.branches):
            self.b.scene(ENDING, "이야기 끝 (*ending)", None, None, ending=True)
        return self.b

    def _absent(self, name: str) -> bool:
        """No scene file ``name`` (a file that could not be read has its own issue)."""
        path = self.folder / f"{name}.txt"
        return not os.path.lexists(path) or path.is_dir()

    def _read(self, name: str) -> list[_Node] | None:
        path = self.folder / f"{name}.txt"
        if self._absent(name):  # a FIFO or a link to a device is read, and refused with its reason
            return None
        try:
            text = read_text(path)
        except InputError as exc:
            self.refused[name] = exc
            self.b.issue(str(path), None, f"장면 파일을 읽지 못해({unreadable(exc, path)}) 이 장면은 옮기지 않았습니다.")
            return None
        self.files[name] = str(path)
        self.trees[name] = self._tree(text, str(path))
        return self.trees[name]

    def _tree(self, text: str, file: str) -> list[_Node]:
        root = _Node(0, "")
        stack: list[tuple[int, _Node]] = [(-1, root)]
        for no, raw in enumerate(text.split("\n"), 1):
            if not raw.strip():
                continue
            expanded = raw.expandtabs(4)
            indent = len(expanded) - len(expanded.lstrip())
            content = expanded.strip()
            if content.lower().startswith("*comment"):
                continue
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if len(stack) > MAX_NESTING:
                self.b.issue(file, no, f"들여쓰기가 {MAX_NESTING}단계보다 깊어 이 줄은 옮기지 않았습니다.")
                continue
            node = _Node(no, content)
            stack[-1][1].children.append(node)
            stack.append((indent, node))
        return root.children

    def _scene_list(self, nodes: list[_Node]) -> None:
        for node in nodes:
            cmd, args = _command(node.text)
            if cmd == "scene_list":
                for child in node.children:
                    name = child.text.strip()
                    name = re.sub(r"^\$\S*\s*", "", name).strip()
                    if name:
                        self.scene_list.append(name)

    def _scene_refs(self, name: str) -> list[str]:
        out = []
        for node in _walk(self.trees[name]):
            cmd, args = _command(node.text)
            if cmd in ("goto_scene", "gosub_scene"):
                target = args.split()[0] if args.split() else ""
                if target and re.fullmatch(r"[\w-]+", target):
                    out.append(target)
        return out

    # ------------------------------------------------------------------ variables

    def _declarations(self) -> None:
        """``*create``, ``*create_array``, ``*temp``, ``*temp_array``, ``*params`` and
        ``*label`` of every file (the flow and the variables' names need them first)."""
        for name, tree in self.trees.items():
            file = self.files[name]
            temps = self.temps.setdefault(name, {})
            params = self.params.setdefault(name, set())
            labels: dict[str, int] = {}
            initial = name == "startup"
            for node in _walk(tree, skip_data=True):
                cmd, args = _command(node.text)
                if cmd is None or cmd not in _INITIAL and cmd != "bug":
                    initial = False
                elif cmd in _INITIAL and not initial:
                    self.b.issue(file, node.line, f"{code('*' + cmd)} 줄은 ChoiceScript가 startup.txt 맨 앞(다른 명령과 글보다 앞)에서만 "
                                                  "받으므로 여기서 오류로 멈춥니다.")
                if cmd in ("create", "create_array", "temp", "temp_array"):
                    head = re.match(r"\s*(\w*)", args)
                    assert head is not None  # the pattern matches any text
                    var = head.group(1).lower()
                    if not var:
                        continue
                    made = [var]
                    if cmd.endswith("_array"):
                        parts = args.split()
                        size = literal(parts[1]) if len(parts) > 1 else None
                        if isinstance(size, int) and not isinstance(size, bool) and 0 < size <= 10_000:
                            made = [f"{var}_{k}" for k in range(1, size + 1)] + [f"{var}_count"]
                            self.arrays[var] = set(made[:-1])
                        else:
                            made = [f"{var}_count"]
                    for v in made:
                        if cmd.startswith("create"):
                            if v in self.created and v == var:
                                first = self.created[v]
                                self.b.issue(file, node.line, f"변수 {josa(code(v), '이/가')} {first[0]} {first[1]}번째 줄에서 이미 `*create`되어 "
                                                              "ChoiceScript가 여기서 오류로 멈춥니다.")
                            self.created.setdefault(v, (file, node.line))
                        else:
                            temps.setdefault(v, node.line)
                elif cmd == "params":
                    params.update(w.lower() for w in re.findall(r"\w+", args))
                elif cmd == "label":
                    label = args.split()[0].lower() if args.split() else ""
                    if label in labels:
                        self.b.issue(file, node.line, f"라벨 {josa(code(label), '이/가')} {labels[label]}번째 줄에도 있어 "
                                                      "ChoiceScript가 이 장면 파일을 불러올 때 오류로 멈추므로, 뒤의 것은 옮기지 않았습니다.")
                    else:
                        labels[label] = node.line
                if cmd in ("set", "create", "temp") and re.match(r"\s*implicit_control_flow\s+true\s*$", args, re.I):
                    self.implicit = True
            self.labels[name] = labels

    def _scope(self, var: str, file_name: str) -> str | None:
        """Which variable ``var`` is in ``file_name``: ``"global"`` (``*create``), the
        file's own (``"temp:<file>"``, its ``*temp``), ``"undeclared"`` (neither: the
        engine stops there; every such use is one missing variable), ``None`` for the
        engine's own values and ``*params`` (not story flags)."""
        if var.startswith("choice_") or re.fullmatch(r"param(_\d+|_count)?", var) or var in self.params.get(file_name, ()):
            return None
        if var in self.temps.get(file_name, {}):
            return f"temp:{file_name}"
        if var in self.created:
            return "global"
        if var == "implicit_control_flow":
            return None  # read as false while it is not created
        return "undeclared"

    def _key(self, var: str, file_name: str) -> str | None:
        """The flag key of ``var`` as ``file_name`` sees it: the name itself, or
        ``<file>.<name>`` for a ``*temp`` when the name is also another variable
        elsewhere (a ``*temp`` of another file, a ``*create``, a use with neither)."""
        scope = self._scope(var, file_name)
        if scope is None:
            return None
        if not scope.startswith("temp:") or len(self.scopes.get(var, {scope}) | {scope}) <= 1:
            key = var
        else:
            key = f"{file_name}.{var}"
        if key not in self.b.flags:
            self.b.flag(key, var)
        return key

    def _facts(self) -> None:
        """Every read and write of every line of every file (the flow is not needed:
        a variable read anywhere is read), into the builder with file and line."""
        events: list[tuple] = []
        for name, tree in self.trees.items():
            self.name, self.file = name, self.files[name]
            for node in _walk(tree):
                self._line_facts(node, events)
        # the names are known now: which are one variable in several files
        for op, var, name, *_ in events:
            scope = self._scope(var, name) if op not in _ANY_EVENTS else None
            if scope is not None:
                self.scopes.setdefault(var, set()).add(scope)
        for var, (_file, _line) in self.created.items():
            self.scopes.setdefault(var, set()).add("global")
        for name, temps in self.temps.items():
            for var in temps:
                self.scopes.setdefault(var, set()).add(f"temp:{name}")
        literals: dict[str, list[Any]] = {}
        for op, var, name, _file, _line, value in events:
            if op in ("assign", "declare") and value is not None and not isinstance(value, tuple):
                key = self._key(var, name)
                if key is not None:
                    literals.setdefault(key, []).append(value)
        unknown_decls = []
        script_places: list[tuple[str, int]] = []
        # a *script that sets stats["x_" + …]: every variable named x_… may be made there
        prefixed = [e for e in events if e[0] == "scriptprefix"]
        if prefixed:
            used = {(var, name) for op, var, name, *_ in events if op not in _ANY_EVENTS}
            for _op, prefix, _name, file, line, (source, written) in prefixed:
                for var, name in sorted(used):
                    if var.startswith(prefix) and self._scope(var, name) in ("global", "undeclared"):
                        events.append(("script" if written else "read", var, name, file, line, source if written else None))
        used = {var for op, var, *_ in events if op in ("read", "assign", "opaque", "script")}
        events = [e if e[0] != "autodeclare" else ("declare",) + e[1:] for e in events
                  if e[0] != "autodeclare" or e[1] in used]
        for op, var, name, file, line, value in events:
            if op == "scriptprefix":
                continue
            if op == "readany":
                self.b.read_any(var, file, line)
                continue
            if op == "writeany":
                self.b.write_any(var, file, line)
                if value == "script":
                    script_places.append((file, line))
                continue
            key = self._key(var, name)
            if key is None:
                continue
            if op == "read":
                self.b.read(key, file, line)
            elif op == "assign":
                self.b.assign(key, value, file, line)
            elif op == "declare":
                if value is None:
                    unknown_decls.append((key, file, line))
                else:
                    self.b.declare(key, value, file, line, label=var)
            elif op == "script":
                # made or set by JavaScript the engine runs: declared there, its value unknown
                self.b.declare(key, None, file, line, label=var)
                self.b.effect_opaque(key, value, file, line)
            elif op == "opaque":
                self.b.effect_opaque(key, value, file, line)
        for key, file, line in unknown_decls:
            # a declaration without a literal value: typed by the values set elsewhere
            known = literals.get(key)
            self.b.declare(key, known[0] if known else 0, file, line, label=key.rsplit(".", 1)[-1])
        if script_places:
            # a *script that sets variables it does not name may make any of them: none is
            # called undeclared
            file, line = script_places[0]
            for key, facts in list(self.b.flags.items()):
                if not facts.declared_at and facts.visit_of is None:
                    self.b.declare(key, None, file, line, label=facts.label)

    def _line_facts(self, node: _Node, events: list) -> None:
        name, file, line = self.name, self.file, node.line
        text = node.text

        def read_expr(expr: str | list[str], skip: str | None = None) -> None:
            self._read_tokens(_tokens(expr) if isinstance(expr, str) else expr, skip, events, line)

        def write(ref_text: str, value: Any, source: str) -> list[str] | None:
            """The variables ``ref_text`` (``x``, ``arr[2]``, ``arr[i]``, ``{x}``) may be,
            each given ``value`` (a literal, an increment, ``None``: unknown); ``None``
            when it may be any variable (then any variable may change here)."""
            ref, _ = _reference(_tokens(ref_text))
            if ref is None:
                return []
            var = _plain_name(ref)
            targets: list[str] | None
            if var is not None:
                targets = [var]
            else:
                for inner in ([ref[1]] if ref[0] == "curly" else ref[2]):
                    read_expr(inner)
                targets = self.names.variables(ref, name)
                if targets is None:
                    events.append(("writeany", source, name, file, line, None))
                    return None
                if isinstance(value, tuple) and value[0] not in ("%+", "%-"):
                    value = None  # one of several may be raised: its range is not known
            for var in targets:
                if value is None:
                    events.append(("opaque", var, name, file, line, source))
                else:
                    events.append(("assign", var, name, file, line, value))
            return targets

        for expr in _interpolations(text):
            read_expr(expr.replace('\\"', '"'))  # (inside a string literal its quotes are escaped)
        cmd, args = _command(text)
        # reuse modifiers before an option
        while cmd in ("hide_reuse", "disable_reuse", "allow_reuse"):
            cmd, args = _command(args.strip())
        if cmd is None:
            return
        if cmd in ("if", "elseif", "elsif", "selectable_if"):
            stripped = args.strip()
            if stripped.startswith("(") and "#" in stripped[_close(stripped):]:
                read_expr(stripped[:_close(stripped) + 1])
            else:
                read_expr(args)
        elif cmd == "set":
            split = _split_reference(args)
            if split:
                ref_text, value = split
                ref, _ = _reference(_tokens(ref_text))
                var = _plain_name(ref) if ref else None
                if var is not None:
                    self._set(var, value, line, events)
                else:
                    write(ref_text, self._set_value(value), f"*set {args.strip()}")
                read_expr(value, skip=var)
        elif cmd in ("temp", "create"):
            m = re.match(r"^\s*(\w+)\s*(.*)$", args)
            if m:
                var, value = m.group(1).lower(), m.group(2).strip()
                v = literal(value) if value else None
                events.append(("declare", var, name, file, line, v))
                if var == "implicit_control_flow" and cmd == "create":
                    events.append(("read", var, name, file, line, None))  # the engine reads it at every block's end
                if value and v is None:
                    read_expr(value, skip=var)
                    events.append(("opaque", var, name, file, line, text))
        elif cmd in ("create_array", "temp_array"):
            parts = args.split()
            if parts:
                var = parts[0].lower()
                values = [literal(v) for v in parts[2:]]
                for elem in sorted(self.arrays.get(var, ())) or []:
                    k = int(elem.rsplit("_", 1)[1])
                    elem_value = values[k - 1] if len(values) >= k else (values[0] if len(values) == 1 else None)
                    events.append(("declare", elem, name, file, line, elem_value))
                size = literal(parts[1]) if len(parts) > 1 else None
                # (the engine makes <name>_count itself: a flag only when the story uses it)
                events.append(("autodeclare", f"{var}_count", name, file, line, size if isinstance(size, int) else None))
        elif cmd in ("rand", "input_number"):
            split = _split_reference(args)
            parts = split[1].split() if split else []
            if split and len(parts) == 2:
                bounds = [literal(v) for v in parts]
                known = all(isinstance(v, int) and not isinstance(v, bool) for v in bounds)
                for v in (bounds if known else [None]):
                    write(split[0], v, text.strip())
                for v, b in zip(parts, bounds):
                    if b is None:
                        read_expr(v)
        elif cmd == "input_text":
            split = _split_reference(args)
            if split:
                write(split[0], None, text.strip())
        elif cmd == "setref":
            # the variable written is named by the value of the first expression
            toks = _tokens(args)
            first = _primaries(toks)[:1]
            read_expr(toks)
            targets = self.names.variables(("value", first[0]), name) if first else None
            if targets is None:
                events.append(("writeany", text.strip(), name, file, line, None))
            else:
                for var in targets:
                    events.append(("opaque", var, name, file, line, text.strip()))
        elif cmd == "script":
            reads, written, prefixes, unknown = _script_effects(args)
            for var in reads:
                events.append(("read", var, name, file, line, None))
            for var in written:
                events.append(("script", var, name, file, line, text.strip()))
            for prefix, prefix_written in prefixes:
                events.append(("scriptprefix", prefix, name, file, line, (text.strip(), prefix_written)))
            if unknown:
                events.append(("writeany", text.strip(), name, file, line, "script"))
                events.append(("readany", text.strip(), name, file, line, None))
        elif cmd in ("print", "gotoref"):
            read_expr(args)
        elif cmd in ("goto", "goto_scene", "gosub", "gosub_scene", "redirect_scene"):
            scene_ref, label_ref, rest = _jump_spec(cmd, args)
            for ref in (scene_ref, label_ref):
                if ref is not None and ref[0] != "lit":
                    read_expr(ref[1] if ref[0] in ("curly", "value") else [t for idx in ref[2] for t in ("(", *idx, ")")])
            if rest:
                read_expr(rest)
        elif cmd == "stat_chart":
            for child in _walk(node.children):
                words = child.text.split()
                if len(words) >= 2 and words[0].lower() in ("text", "percent", "opposed_pair"):
                    events.append(("read", words[1].lower(), name, file, child.line, None))

    def _read_tokens(self, toks: list[str], skip: str | None, events: list, line: int, depth: int = 0) -> None:
        """Record every variable an expression reads: its names, the elements its
        ``arr[i]`` may be and the variables its ``{…}`` may name (any variable, when the
        name cannot be narrowed)."""
        name, file = self.name, self.file
        if depth > MAX_NESTING:
            return
        i = 0
        while i < len(toks):
            tok = toks[i]
            nxt = toks[i + 1] if i + 1 < len(toks) else ""
            if tok == "{":
                end = _closing(toks, i)
                inner = toks[i + 1:end]
                self._read_ref(("curly", inner), "{" + " ".join(inner) + "}", events, line)
                self._read_tokens(inner, None, events, line, depth + 1)
                i = end + 1
                continue
            if re.fullmatch(r"[A-Za-z_]\w*", tok):
                low = tok.lower()
                if (low in _FUNCTIONS and nxt == "(") or low in _KEYWORDS:
                    i += 1
                    continue
                if nxt == "[":
                    ref, j = _reference(toks, i)
                    assert ref is not None  # a name (matched above) followed by "[" is always a reference
                    var = _plain_name(ref)
                    if var is not None:
                        if var != skip:
                            events.append(("read", var, name, file, line, None))
                    else:
                        self._read_ref(ref, " ".join(toks[i:j]), events, line)
                    for index in ref[2]:
                        self._read_tokens(index, None, events, line, depth + 1)
                    i = j
                    continue
                if low != skip:
                    events.append(("read", low, name, file, line, None))
            i += 1

    def _read_ref(self, ref: tuple, source: str, events: list, line: int) -> None:
        targets = self.names.variables(ref, self.name)
        if targets is None:
            events.append(("readany", source, self.name, self.file, line, None))
            return
        for var in targets:
            events.append(("read", var, self.name, self.file, line, None))

    @staticmethod
    def _set_value(value: str) -> Any:
        """The value ``*set <name> value`` gives: a literal, an increment, else ``None``."""
        fm = re.match(r"^(%[+-]|[+-])\s*(\S+)$", value)
        if fm:
            v = literal(fm.group(2))
            return (fm.group(1), v if isinstance(v, int) and not isinstance(v, bool) else None)
        return literal(value)

    def _set(self, var: str, value: str, line: int, events: list) -> None:
        name, file = self.name, self.file
        fm = re.match(r"^(%[+-]|[+-])\s*(\S+)$", value)
        if fm:
            v = literal(fm.group(2))
            events.append(("assign", var, name, file, line, (fm.group(1), v if isinstance(v, int) and not isinstance(v, bool) else None)))
            return
        v = literal(value)
        if v is not None:
            events.append(("assign", var, name, file, line, v))
            return
        # x + n written out (`*set x x + 1`, `*set x (x - 2)`) is a step
        inner = value[1:-1].strip() if value.startswith("(") and _close(value) == len(value) - 1 else value
        im = re.fullmatch(rf"{re.escape(var)}\s*([+-])\s*(\d+)", inner, re.I)
        if im:
            events.append(("assign", var, name, file, line, (im.group(1), int(im.group(2)))))
            return
        # anything else (another variable, arithmetic, a string joined with &): the new
        # value cannot be computed
        events.append(("opaque", var, name, file, line, f"*set {var} {value}"))

    # ------------------------------------------------------------------ names in conditions

    def _resolve(self, name: str):
        var = name.lower()
        if var.startswith("choice_"):
            raise Opaque(f"엔진이 정하는 값({var})을 따지는")
        key = self._key(var, self.name)
        if key is None:
            if var == "implicit_control_flow":
                return ("bool", False)
            raise Opaque(f"서브루틴에 넘긴 값({var})을 따지는")
        return ("name", key)

    def _call(self, name: str, args: list):
        raise Opaque(f"함수 호출({name})이 든")

    def _cond(self, text: str) -> Any:
        # ChoiceScript writes equality as `=`, concatenation as `&`, and {name} for a computed reference
        text = re.sub(r"\b([A-Za-z_]\w*)\[\s*(\d+)\s*\]", r"\1_\2", text)  # arr[2] is arr_2
        if "{" in text or "[" in text or "&" in text.replace("&&", ""):
            return Opaque("계산된 변수 이름이나 문자열 잇기가 든")
        if "%" in text:
            return Opaque("산술 계산이 든")
        return translate(text, self.dialect)

    # ------------------------------------------------------------------ flow

    def _flow(self) -> None:
        self.calls, self.returns = [], []
        for name in [n for n in self.scene_list if n in self.trees] + [n for n in self.trees if n not in self.scene_list and n != STATS]:
            self._scene_file(name)

    def _learn_returns(self) -> None:
        """Where each ``*return`` goes back to: the continuation of every call whose
        subroutine reaches that ``*return`` (within its file, a nested call standing for
        its own return), else of every call into its file."""
        owner: dict[str, str] = {}
        by_path = {path: name for name, path in self.files.items()}
        for sid, row in self.b.scenes.items():
            if row.source_file in by_path:
                owner[sid] = by_path[row.source_file]
        call_edges = {(c[3], c[1]) for c in self.calls}
        succ: dict[str, list[str]] = {}
        for br in self.b.branches:
            if (br[0], br[1]) not in call_edges:
                succ.setdefault(br[0], []).append(br[1])
        for _tf, _t, cont, at, _l in self.calls:
            succ.setdefault(at, []).append(cont)
        reach_cache: dict[str, set[str]] = {}

        def reach(start: str, file_name: str) -> set[str]:
            if start not in reach_cache:
                seen, stack = {start}, [start]
                while stack:
                    for nxt in succ.get(stack.pop(), ()):
                        if nxt not in seen and owner.get(nxt) == file_name:
                            seen.add(nxt)
                            stack.append(nxt)
                reach_cache[start] = seen
            return reach_cache[start]

        into: dict[str, list[tuple[str, str, str, str, int]]] = {}
        for c in self.calls:
            into.setdefault(c[0], []).append(c)
        for file_name, scene, line in self.returns:
            calls = into.get(file_name, [])
            hits = [c[2] for c in calls if scene in reach(c[1], file_name)]
            conts = hits or [c[2] for c in calls]
            self.return_targets[(self.files[file_name], line)] = list(dict.fromkeys(conts))
        self.top_entered = {br[1] for br in self.b.branches if br[1] in self.trees}

    def _scene_file(self, name: str) -> None:
        self.name = name
        self.file = self.files[name]
        tree = self.trees[name]
        first_label = next((k for k, node in enumerate(tree) if _command(node.text)[0] == "label"), None)
        empty_top = (name != "startup" and first_label is not None and not self.dry and name not in self.top_entered
                     and all(_command(node.text)[0] == "bug" for node in tree[:first_label]))
        if empty_top:
            # the file begins with a *label (perhaps after a *bug that stops whoever comes
            # in at the top) and nothing enters it at its top (a file of subroutines
            # entered by *gosub_scene file label): its top is no scene
            self.b.account(self.file, 1, "장면 파일이 `*label`로 시작하고 파일 맨 앞으로 들어오는 분기가 없어 "
                                         "파일 맨 앞은 장면으로 적지 않았습니다.")
            scene, falls = self._block(tree, name, Cond(), falls=False)
        else:
            self.b.scene(name, name, self.file, 1, entry=(name == "startup"))
            scene, falls = self._block(tree, name, Cond())
        if falls:
            last = last_line(tree) or 1
            self._finish(scene, Cond(), last)

    def _next_scene(self) -> str:
        if self.name in self.scene_list:
            i = self.scene_list.index(self.name)
            if i + 1 < len(self.scene_list):
                return self.scene_list[i + 1]
        return ENDING

    def _finish(self, scene: str, cond: Cond, line: int) -> None:
        self.b.branch(scene, self._next_scene(), cond if cond else None, "auto", self.file, line)

    def _label_scene(self, file_name: str, label: str) -> str:
        return f"{file_name}.{label.lower()}"

    def _target(self, label: str) -> str:
        return self._label_scene(self.name, label.strip())  # a missing label is reported by the lint

    def _block(self, nodes: list[_Node], scene: str, ctx: Cond, falls: bool = True) -> tuple[str, bool]:
        """Emit the branches of ``nodes`` from ``scene`` under ``ctx``; returns the scene
        the flow is in at the end and whether it may fall out of the block's end.  Once
        the flow has moved on to another scene (a label, the line after a choice or a
        call), only readers who met ``ctx`` are there: the condition is not repeated."""
        start = scene
        i = 0
        nodes = list(nodes)
        while i < len(nodes):
            here = ctx if scene == start else Cond()
            node = nodes[i]
            cmd, args = _command(node.text)
            if node.children and cmd not in ("choice", "fake_choice", "if", "elseif", "elsif", "else") and cmd not in _DATA_BLOCKS:
                # ChoiceScript refuses an indent without a block; the indented lines are read as the next ones
                self.b.issue(self.file, node.children[0].line, "앞 줄이 블록을 여는 줄이 아닌데 들여 쓰여 있어, 이 줄부터는 들여쓰기 없이 이어지는 줄로 읽었습니다.")
                nodes[i + 1:i + 1] = node.children
                node = nodes[i] = _Node(node.line, node.text)
            if cmd is None:
                if node.text.startswith("#"):
                    self.b.issue(self.file, node.line, "`#` 기호로 시작하는 선택지 줄이 `*choice`나 `*fake_choice` 아래에 들여 쓰여 있지 않아 옮기지 않았습니다.")
                self._dropped_below(node)
                i += 1
                continue
            if cmd in ("if", "elseif", "elsif", "selectable_if", "hide_reuse", "disable_reuse", "allow_reuse") and \
                    re.search(r"^\*\w+\s*(\(.*\))?\s*#", node.text):
                self.b.issue(self.file, node.line, "`#` 기호로 시작하는 선택지 줄이 `*choice`나 `*fake_choice` 아래에 들여 쓰여 있지 않아 옮기지 않았습니다.")
                self._dropped_below(node)
                i += 1
                continue
            if not falls and cmd != "label":
                # nothing flows here: what follows (until a label) is a scene no one enters
                if _flows_deep(node):
                    dead = f"{self.name}.line-{node.line}"
                    self.b.scene(dead, f"{self.name} {node.line}번째 줄 (흐름이 닿지 않는 곳)", self.file, node.line)
                    scene, falls = dead, True
                    continue
                i += 1
                continue
            if cmd == "label":
                label = args.split()[0].lower() if args.split() else ""
                if self.labels.get(self.name, {}).get(label, node.line) != node.line:
                    i += 1  # a second *label of the same name: reported, not read
                    continue
                target = self._label_scene(self.name, label)
                self.b.scene(target, args.strip() or target, self.file, node.line)
                if falls:
                    self.b.branch(scene, target, here if here else None, "auto", self.file, node.line)
                scene, falls = target, True
                i += 1
                continue
            if cmd in ("goto", "gotoref", "goto_scene", "gosub", "gosub_scene", "finish", "ending", "restart",
                       "return", "goto_random_scene", "redirect_scene", "abort"):
                scene, falls = self._jump(cmd, args, node, scene, here)
                i += 1
                continue
            if cmd in ("choice", "fake_choice"):
                scene, falls = self._choice(cmd, node, scene, here)
                i += 1
                continue
            if cmd == "if":
                # the chain: *if, then *elseif/*elsif siblings, then an optional *else
                chain = [(node, self._cond(args), args)]
                j = i + 1
                while j < len(nodes):
                    c2, a2 = _command(nodes[j].text)
                    if c2 in ("elseif", "elsif"):
                        chain.append((nodes[j], self._cond(a2), a2))
                        j += 1
                    elif c2 == "else":
                        chain.append((nodes[j], None, "else"))
                        j += 1
                        break
                    else:
                        break
                scene, falls = self._if_chain(chain, scene, here)
                i = j
                continue
            if cmd in ("elseif", "elsif", "else"):
                self.b.issue(self.file, node.line, f"앞에 여는 `*if` 줄이 없는 `*{cmd}` 줄이라 이 블록은 옮기지 않았습니다.")
                self._dropped_below(node)
                i += 1
                continue
            i += 1
        return scene, falls

    def _if_chain(self, chain: list, scene: str, ctx: Cond) -> tuple[str, bool]:
        """An ``*if``/``*elseif``/``*else`` chain.  When a block moves the flow to another
        scene (a label, a ``*fake_choice``, a call), the blocks and the readers who
        entered none of them meet again in a scene of their own, ``<file>.after-<line>-if``."""
        previous: list[Any] = []
        results: list[tuple[str, bool, Cond, int]] = []
        sources: list[str] = []
        has_else = chain[-1][2] == "else"
        here: Any  # a case's condition: an expression tuple, or Opaque
        for k, (node, cond_node, source) in enumerate(chain):
            if k >= MAX_NESTING:
                # (each case carries the negation of every case before it: past this,
                # the conditions would grow with the square of the chain)
                here, src = _LONG_CHAIN, source
                previous.append(here)
                sources.append(source)
            elif source == "else":
                here = none_of(previous)
                src = "else"
            else:
                before = none_of(previous)
                here = cond_node if before is None else (before if isinstance(before, Opaque) else cond_node if isinstance(cond_node, Opaque) else ("and", before, cond_node))
                src = source
                previous.append(cond_node)
                sources.append(source)
            sub_ctx = ctx.and_(here, src) if here is not None else ctx
            # `*if false` (as in `*if (false)` around a *label that only *gosub enters):
            # the engine never runs into the block
            never = cond_node == ("bool", False) and source != "else"
            end_scene, falls = self._block(node.children, scene, sub_ctx, falls=not never)
            end_line = last_line(node.children) or node.line
            if falls and k + 1 < len(chain) and not self.implicit:
                # ChoiceScript stops with an error: "It is illegal to fall in to an *else statement"
                dead = f"{self.name}.fall-{node.line}"
                self.b.scene(dead, f"{self.name} {node.line}번째 줄 (*else로 떨어지는 곳)", self.file, node.line)
                self.b.branch(end_scene, dead, sub_ctx if (end_scene == scene and sub_ctx) else None, "auto", self.file, end_line)
                self.b.issue(self.file, end_line,
                             "이 `*if` 블록이 `*goto`나 `*finish` 없이 끝나 바로 다음 `*elseif`나 `*else`로 떨어지는데 ChoiceScript는 여기서 오류로 멈추므로, 이 길은 막힌 곳으로 적었습니다.")
                continue
            results.append((end_scene, falls, sub_ctx, end_line))
        if all(end == scene for end, falls, _, _ in results if falls):
            return scene, any(falls for _, falls, _, _ in results) or not has_else
        join = f"{self.name}.after-{chain[0][0].line}-if"
        self.b.scene(join, f"{self.name} {chain[0][0].line}번째 줄 `*if` 뒤", self.file, chain[0][0].line)
        for end, falls, sub, line in results:
            if falls:
                self.b.branch(end, join, sub if (end == scene and sub) else None, "auto", self.file, line)
        if not has_else:
            rest = none_of(previous)
            src = " and ".join(f"not ({s.strip()})" for s in sources)
            cond = ctx.and_(rest, src) if rest is not None else ctx
            self.b.branch(scene, join, cond if cond else None, "auto", self.file, chain[0][0].line)
        return join, True

    def _jump(self, cmd: str, args: str, node: _Node, scene: str, ctx: Cond) -> tuple[str, bool]:
        parts = args.split()
        line = node.line
        cond = ctx if ctx else None
        if cmd in ("goto", "gotoref", "goto_scene", "gosub", "gosub_scene"):
            scene_ref, label_ref, _rest = _jump_spec(cmd, args)
            if cmd == "gotoref" or _computed(scene_ref) or _computed(label_ref):
                return self._computed_jump(cmd, node, scene, cond, scene_ref, label_ref)
        if cmd == "goto_random_scene":
            # the scene is drawn while playing: a way to a scene we cannot name
            self.b.jump_opaque(scene, node.text, cond, "auto", self.file, line)
        elif cmd == "goto":
            self.b.branch(scene, self._target(parts[0] if parts else ""), cond, "auto", self.file, line)
        elif cmd == "goto_scene":
            target = parts[0] if parts else ""
            to = self._label_scene(target, parts[1]) if len(parts) > 1 else target
            self.b.branch(scene, to, cond, "auto", self.file, line)
        elif cmd in ("gosub", "gosub_scene"):
            if cmd == "gosub":
                target_file, to = self.name, self._target(parts[0] if parts else "")
            else:
                target_file = parts[0] if parts else ""
                to = self._label_scene(target_file, parts[1]) if len(parts) > 1 else target_file
            cont = f"{self.name}.after-{line}"
            self.b.branch(scene, to, cond, "auto", self.file, line)
            self.calls.append((target_file, to, cont, scene, line))
            self.b.scene(cont, f"`{self.name}` {line}번째 줄 `*{cmd}`에서 돌아온 뒤", self.file, line)
            return cont, True
        elif cmd == "return":
            self.returns.append((self.name, scene, line))
            conts = self.return_targets.get((self.file, line), [])
            if not conts and not self.dry:
                self.b.issue(self.file, line, "`*return` 줄이 있지만 이 장면 파일로 `*gosub`하는 곳이 없어 돌아갈 곳을 정하지 못했습니다.")
            for c in conts:
                self.b.branch(scene, c, cond, "choice" if len(conts) > 1 else "auto", self.file, line)
        elif cmd == "finish":
            self._finish(scene, ctx, line)
        elif cmd == "ending":
            self.b.branch(scene, ENDING, cond, "auto", self.file, line)
        elif cmd == "restart":
            self.b.branch(scene, "startup", cond, "auto", self.file, line)
        elif cmd == "abort":
            pass
        else:  # redirect_scene
            self.b.issue(self.file, line, "`*redirect_scene`은 능력치 화면에서만 쓸 수 있어 ChoiceScript가 여기서 오류로 멈춥니다.")
        # within its block a jump always leaves; the block's condition is on the branch
        return scene, False

    def _computed_jump(self, cmd: str, node: _Node, scene: str, cond: Cond | None, scene_ref: tuple | None,
                       label_ref: tuple | None) -> tuple[str, bool]:
        """A jump whose scene or label is computed while playing (``*goto {x}``,
        ``*gosub_scene {s} {l}``, ``*gotoref``): a branch to each place its name may be
        (:class:`_Names`; ``choice`` when there are several: the value, not the reader
        or a flag condition, decides), or an opaque jump when that cannot be narrowed."""
        line = node.line
        call = cmd in ("gosub", "gosub_scene")
        targets = self.names.resolve((scene_ref, label_ref), self.name) if self.names.stable else None
        if scene_ref is not None and scene_ref[0] == "lit" and scene_ref[1] not in self.trees:
            targets = [(scene_ref[1], None)]  # no such scene file: the lint names the missing scene
        ids: list[tuple[str, str]] = []
        if targets is not None:
            for file_name, label in targets:
                to = file_name if label is None else self._label_scene(file_name, label)
                if (file_name, to) not in ids:
                    ids.append((file_name, to))
        cont = f"{self.name}.after-{line}"
        if targets is None:
            self.b.jump_opaque(scene, node.text, cond, "auto", self.file, line)
        elif not ids and not self.dry and not self._has_values(scene_ref, label_ref):
            # (the parameters of a routine nobody calls, a variable nothing sets)
            self.b.issue(self.file, line, f"{josa(code('*' + cmd), '이/가')} 이름을 셈하는 변수에 값을 주는 곳(값을 넘기는 호출, "
                                          "값을 정하는 줄)이 이야기에 없어, 여기에 닿으면 ChoiceScript가 오류로 멈추므로 "
                                          "이 줄에서 이어지는 분기는 적지 않았습니다.")
        elif not ids and not self.dry:
            self.b.issue(self.file, line, f"{josa(code('*' + cmd), '이/가')} 셈하는 이름이 될 수 있는 값({self._values_text(scene_ref, label_ref)}) 가운데 "
                                          "이야기에 있는 장면이나 라벨의 이름이 없어, 여기에 닿으면 ChoiceScript가 오류로 멈추므로 "
                                          "이 줄에서 이어지는 분기는 적지 않았습니다.")
        for file_name, to in ids:
            self.b.branch(scene, to, cond, "choice" if len(ids) > 1 else "auto", self.file, line)
            if call:
                self.calls.append((file_name, to, cont, scene, line))
        if call:
            self.b.scene(cont, f"`{self.name}` {line}번째 줄 `*{cmd}`에서 돌아온 뒤", self.file, line)
            return cont, True
        return scene, False

    def _has_values(self, scene_ref: tuple | None, label_ref: tuple | None) -> bool:
        return all(self.names.names(ref, self.name) for ref in (scene_ref, label_ref) if ref is not None and ref[0] != "lit")

    def _values_text(self, scene_ref: tuple | None, label_ref: tuple | None) -> str:
        """The names a computed jump may be, as the issue quotes them (``"none"``, ``"north"``)."""
        shown: list[str] = []
        for ref, fold in ((scene_ref, False), (label_ref, True)):
            if ref is not None and ref[0] != "lit":
                for g in sorted(self.names.names(ref, self.name, fold=fold), key=str)[:6]:
                    text = '"' + "".join("…" if p is None else "#" if not isinstance(p, str) else p for p in g) + '"'
                    if text not in shown:
                        shown.append(text)
        return ", ".join(shown)

    def _choice(self, cmd: str, node: _Node, scene: str, ctx: Cond) -> tuple[str, bool]:
        fake = cmd == "fake_choice"
        # what an option's body that ends without a jump falls onto: the line after the
        # block (nothing of the block follows it), another option or option-level *if
        # (the engine goes on after the block in a *fake_choice, stops in a *choice), or
        # an *else/*elseif (the engine stops in both)
        level = self._option_level(node.children)
        follows = {ln: (level[k + 1][1] if k + 1 < len(level) else None) for k, (ln, _kind) in enumerate(level)}
        cont = f"{self.name}.after-{node.line}"
        need_cont = False
        options = self._options(node.children, Cond())
        if not options:
            self.b.issue(self.file, node.line, f"`*{cmd}` 아래에 `#` 기호로 시작하는 선택지가 없어 이 자리는 막힌 곳이 됩니다.")
        for opt, cond, once in options:
            full = ctx.plus(cond)
            shown = opt.text.lstrip("#").strip()
            title = shown.rstrip(".") or f"{opt.line}번째 줄의 선택지"
            body = opt.children
            nxt = follows.get(opt.line)
            if nxt is None and not body and not fake and not self.implicit:
                # the engine refuses the whole *choice when its last option has no body
                sub = f"{self.name}.option-{opt.line}"
                self.b.scene(sub, title, self.file, opt.line)
                self.b.branch(scene, sub, full, "choice", self.file, opt.line, once, text=shown)
                self.b.issue(self.file, opt.line, "`*choice`의 마지막 선택지에 본문이 없는데 ChoiceScript는 이 `*choice`를 보여 줄 때 오류로 멈추므로, "
                                                  "이 선택지는 막힌 곳으로 적었습니다.")
                continue
            if nxt is None or (nxt != "else" and (fake or self.implicit)) or (nxt == "else" and self.implicit):
                fall = "cont"
            else:
                fall = "else" if nxt == "else" else "out"
            only = _only_jump(body)
            if only is not None and not only[2].children:  # (lines indented under the jump: _block names them)
                c2, a2, jnode = only
                target = self._jump_target(c2, a2)
                if target is not None:
                    self.b.branch(scene, target, full, "choice", self.file, opt.line, once, via=jnode.line, text=shown)
                    self.b.account(self.file, jnode.line, "선택지의 본문이 이 이동 하나뿐이라 선택지 분기가 이 줄을 대신합니다.")
                    continue
            if fall == "cont" and not any(_flows_deep(n) for n in body):
                # (a body with a way on anywhere in it — a stray option line, a jump
                # indented under text — goes through _block below, which reads or names it)
                self.b.branch(scene, cont, full, "choice", self.file, opt.line, once, text=shown)
                need_cont = True
                continue
            sub = f"{self.name}.option-{opt.line}"
            self.b.scene(sub, title, self.file, opt.line)
            self.b.branch(scene, sub, full, "choice", self.file, opt.line, once, text=shown)
            end_scene, falls = self._block(body, sub, Cond())
            if not falls:
                continue
            end = last_line(body) or opt.line
            if fall == "cont":
                self.b.branch(end_scene, cont, None, "auto", self.file, end)
                need_cont = True
            elif fall == "else":
                self.b.issue(self.file, end, "이 선택지가 `*goto`나 `*finish` 없이 끝나 바로 다음 `*elseif`나 `*else`로 떨어지는데 "
                                             "ChoiceScript는 여기서 오류로 멈추므로, 이 선택지는 막힌 곳으로 적었습니다.")
            else:
                self.b.issue(self.file, end, "이 선택지가 `*goto`나 `*finish` 없이 끝나 다음 선택지로 떨어지는데 ChoiceScript는 "
                                             "`*choice`에서 마지막이 아닌 선택지가 이렇게 끝나면 오류로 멈추므로, 이 선택지는 막힌 곳으로 적었습니다.")
        if need_cont:
            what = "*fake_choice" if fake else "*choice"
            self.b.scene(cont, f"`{self.name}` {node.line}번째 줄 `{what}` 뒤", self.file, node.line)
            return cont, True
        return scene, False

    def _option_level(self, nodes: list[_Node], depth: int = 0) -> list[tuple[int, str]]:
        """The option-level lines of a choice block in reading order, each with what it
        is to an option body falling onto it: ``option`` (an option, or an ``*if`` the
        engine marks as an option's end), ``if``, ``else`` (``*else``/``*elseif``) or
        ``other``."""
        out: list[tuple[int, str]] = []
        for node in nodes:
            text = node.text
            cmd, args = _command(text)
            while cmd in ("hide_reuse", "disable_reuse", "allow_reuse"):
                text = args.strip()
                cmd, args = _command(text)
            if text.startswith("#") or (cmd in ("if", "selectable_if", "elseif", "elsif") and re.match(r"^\(.*\)\s*#", args.strip())):
                out.append((node.line, "option"))
            elif cmd == "if":
                out.append((node.line, "if"))
                if depth < MAX_NESTING:
                    out.extend(self._option_level(node.children, depth + 1))
            elif cmd in ("elseif", "elsif", "else"):
                out.append((node.line, "else"))
                if depth < MAX_NESTING:
                    out.extend(self._option_level(node.children, depth + 1))
            else:
                out.append((node.line, "other"))
        return out

    def _jump_target(self, cmd: str, args: str) -> str | None:
        parts = args.split()
        if any(c in args for c in "{["):
            return None
        if cmd == "goto" and parts:
            return self._target(parts[0])
        if cmd == "goto_scene" and parts:
            return self._label_scene(parts[0], parts[1]) if len(parts) > 1 else parts[0]
        if cmd == "finish":
            return self._next_scene()
        if cmd == "ending":
            return ENDING
        return None

    def _options(self, nodes: list[_Node], cond: Cond, depth: int = 0) -> list[tuple[_Node, Cond, bool]]:
        """The options of a choice, with the ``*if`` conditions around or before each."""
        out: list[tuple[_Node, Cond, bool]] = []
        previous: list[Any] = []
        for node in nodes:
            text = node.text
            once = False
            c = cond
            while text.startswith("*"):
                cmd, args = _command(text)
                if cmd in ("hide_reuse", "disable_reuse"):
                    once = True
                    text = args.strip()
                    continue
                if cmd == "allow_reuse":
                    text = args.strip()
                    continue
                if cmd in ("if", "selectable_if", "elseif", "elsif") and args.strip().startswith("("):
                    end = _close(args.strip())
                    expr = args.strip()[:end + 1]
                    rest = args.strip()[end + 1:].strip()
                    if rest.startswith("#"):
                        c = c.and_(self._cond(expr), expr)
                        text = rest
                        continue
                if cmd in ("if", "elseif", "elsif", "else") and depth < MAX_NESTING:
                    if cmd == "if":
                        previous = []
                    node_cond = self._cond(args) if cmd != "else" else None
                    if len(previous) >= MAX_NESTING:
                        node_cond = _LONG_CHAIN
                    before = none_of(previous)
                    if cmd == "else":
                        here = before
                    else:
                        here = node_cond if before is None else (before if isinstance(before, Opaque) else node_cond if isinstance(node_cond, Opaque) else ("and", before, node_cond))
                        previous.append(node_cond)
                    inner = c.and_(here, args.strip() or cmd) if here is not None else c
                    out.extend(self._options(node.children, inner, depth + 1))
                    text = ""
                    break
                if cmd in ("set", "temp"):
                    self._dropped_below(node)
                    text = ""
                    break
                self.b.issue(self.file, node.line, f"선택지 목록 안의 *{cmd} 줄은 옮기지 않았습니다.")
                self._dropped_below(node)
                text = ""
                break
            if text.startswith("#"):
                out.append((_Node(node.line, text, node.children), c, once))
            elif text:
                self.b.issue(self.file, node.line, "선택지 목록 안에 `#` 기호로 시작하지 않는 줄이 있어 옮기지 않았습니다.")
                self._dropped_below(node)
        return out

    def _dropped_below(self, node: _Node) -> None:
        """An issue on every line with a way on inside a block that was not translated."""
        stack = list(node.children)
        while stack:
            child = stack.pop()
            stack.extend(child.children)
            if child.text.startswith("#") or _flows(child) or "#" in child.text:
                self.b.issue(self.file, child.line, f"{node.line}번째 줄의 옮기지 않은 블록 안에 있어 이 줄도 옮기지 않았습니다.")


def _command(text: str) -> tuple[str | None, str]:
    m = re.match(r"^\*(\w+)\s*(.*)$", text.strip())
    if not m:
        return None, ""
    return m.group(1).lower(), m.group(2)


def _walk(nodes: list[_Node], skip_data: bool = False):
    """Every node under ``nodes`` in reading order (``skip_data``: not the indented
    lines of ``*scene_list``, ``*stat_chart`` and ``*achievement``, which are data)."""
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        if skip_data and _command(node.text)[0] in _DATA_BLOCKS:
            continue
        stack.extend(reversed(node.children))


def _flows(node: _Node) -> bool:
    cmd, _ = _command(node.text)
    if cmd in ("goto", "goto_scene", "gosub", "gosub_scene", "finish", "ending", "choice", "fake_choice", "label",
               "return", "restart", "if", "gotoref", "goto_random_scene", "redirect_scene"):
        return True
    return False


def _flows_deep(node: _Node) -> bool:
    """The line or one indented under it holds a way on (a jump, a label, an option)."""
    stack = [node]
    while stack:
        n = stack.pop()
        if _flows(n) or "#" in n.text or (_command(n.text)[0] in ("elseif", "elsif", "else")):
            return True
        stack.extend(n.children)
    return False


def _only_jump(body: list[_Node]):
    """The one jump an option's body ends with, when nothing else in it has a way on."""
    flows = [n for n in body if _flows_deep(n)]
    if len(flows) == 1 and flows[0] is body[-1]:
        cmd, args = _command(flows[0].text)
        if cmd in ("goto", "goto_scene", "finish", "ending"):
            return cmd, args, flows[0]
    return None
