"""Twine stories (Twee 3 and Twee 1 files, Twine 2 archive and published HTML, Twine 1
published HTML) read as their story format's engine reads them → the three tables.

Scenes: passages (``StoryTitle``, ``StoryData``, ``StoryInit`` and the other special
passages, and passages tagged ``startup``/``header``/``footer``/``script``/
``stylesheet``/``widget``, are not scenes; their assignments still type the flags, and
their reads count).  The entry is ``StoryData``'s ``start`` (HTML: ``startnode``; else
``Start``); an ending is a passage tagged ``ending`` (configurable) or one without any
way on.  Branches: ``[[links]]``, ``(link-goto:)``, ``(link:)``/``(click:)`` hooks,
``<<link>>``/``<<button>>``/``<<choice>>``/``<<actions>>`` are ``choice``;
``(go-to:)``/``<<goto>>`` outside a link are ``auto``.  Conditions come from the
``(if:)``/``(else-if:)``/``(else:)``/``(unless:)`` hooks and the
``<<if>>``/``<<elseif>>``/``<<else>>``/``<<switch>>`` blocks around them (closed by
``<</if>>`` or Twine 1's ``<<endif>>``).  ``(display:)``/``<<include>>`` and widgets are
read where they are used.

A link target built from variables is expanded over the values the story gives those
variables (one branch per value, under the condition that the variable holds it); when
the values are not all known, or the target cannot be computed, it is an **opaque jump**
(a way to a scene we cannot name), never a missing scene.  So is a call of a macro the
story defines in JavaScript that may jump.  Every variable read anywhere (text,
``(print:)``, ``<<print>>``, macro arguments, conditions) and written (``(set:)``,
``(put:)``, ``<<set>>``, setter links, input macros) is recorded with its file and line;
a write we cannot compute is an opaque effect.  ``_temporary`` variables are not story
flags.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import AbstractSet, Any

from verdicts.korean import code, josa

from . import twine_html
from .common import (Cond, Construct, Dialect, MAX_NESTING, Opaque, StoryBuilder, literal, negate, none_of, parse_expr,
                     quote_code, read_text, story_texts, translate)

__all__ = ["import_twee", "import_twee_text", "import_twee_folder", "scan_constructs", "SPECIAL_NAMES", "SPECIAL_TAGS"]

_HEADER = re.compile(r"^::\s*((?:[^\\\[\]{}]|\\.)*?)\s*(?:\[([^\]]*)\])?\s*(\{.*\})?\s*$")
SPECIAL_NAMES = {"StoryTitle", "StoryData", "StoryInit", "StoryCaption", "StoryMenu", "StoryBanner", "StorySubtitle",
                 "StoryAuthor", "StoryInterface", "StoryShare", "PassageReady", "PassageDone", "PassageHeader",
                 "PassageFooter", "StorySettings", "StoryIncludes"}
SPECIAL_TAGS = {"startup", "header", "footer", "script", "stylesheet", "widget", "debug-startup", "debug-header",
                "debug-footer", "Twine.private", "Twine.image", "Twine.audio", "Twine.video", "Twine.vtt", "annotation",
                "init"}
#: passages whose text is not story markup (code, style, media, notes)
_RAW_TAGS = {"script", "stylesheet", "Twine.image", "Twine.audio", "Twine.video", "Twine.vtt", "annotation"}
#: passages that run once before the story: their literal assignments are declarations
_INIT_NAMES = {"StoryInit"}
_INIT_TAGS = {"startup", "debug-startup", "init"}

#: a line that holds a way on: a link, a link or go-to macro (the line scanner's
#: pattern, also used to account for such lines inside text that is not markup)
CONSTRUCT = re.compile(
    r"\[\[|\[[<>]?img\[|\((?:link-?goto|click-?goto|link-?reveal-?goto|mouse-?(?:over|out)-?goto|go-?to|redirect"
    r"|(?:link-?|click-?|icon-?)?undo)\s*:|<<\s*(?:link|button|goto|back|return|choice|actions|click)\b", re.I)
_EXTERNAL = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*://|mailto:|tel:|javascript:)", re.I)

#: how far one macro's arguments are looked for their end, and how much text failed
#: looks may cover in one passage (hostile input stays linear)
_MACRO_LIMIT = 20_000
_SCAN_BUDGET = 1_000_000
#: widget and include expansions in one passage, variable-target expansions per target
_EXPANSIONS = 400
_MAX_VALUES = 64
_MAX_INCLUDE_DEPTH = 8
#: distinct conditions checked for a contradiction between an include and a link in it
_SAT_QUESTIONS = 20_000

_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "is": "==", "isnot": "!=",
          "eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "contains": "contains",
          "to": "to"}


def import_twee(path: Path, ending_tag: str = "ending", name: str | None = None) -> StoryBuilder:
    """A Twee file, or a Twine HTML file (archive or published story)."""
    path = Path(path)
    text = read_text(path)
    return _Twee(name or str(path), ending_tag).run([(name or str(path), text)])


def import_twee_text(text: str, file: str, ending_tag: str = "ending") -> StoryBuilder:
    return _Twee(file, ending_tag).run([(file, text)])


def import_twee_folder(folder: Path, ending_tag: str = "ending") -> StoryBuilder:
    """Every Twee file of ``folder`` (``.twee``, ``.tw``; sorted by name) read as one
    story, as Tweego compiles a folder: the passages of all files together, each scene,
    branch and issue pointing at its own file and line; a passage name used in two files
    is an issue naming both places (Tweego stops there).  A folder without Twee files
    that holds one Twine HTML story is that story."""
    from verdicts.errors import InputError

    try:
        texts = story_texts(folder, "twee")
    except InputError:
        html = _folder_html(folder)
        if html is None:
            raise
        return import_twee(html, ending_tag)
    return _Twee(str(folder), ending_tag).run(texts)


def _folder_html(folder: Path) -> Path | None:
    return twine_html.folder_html(folder)


# ----------------------------------------------------------------------------- passages


@dataclass
class _Passage:
    name: str
    tags: list[str]
    line: int
    body: str
    special: bool = False
    file: str = ""
    #: the file line of each line of ``body`` (HTML); ``None``: the lines after the header
    lines: list[int] | None = None
    _starts: list[int] | None = None

    def line_of(self, offset: int) -> int:
        if self._starts is None:
            self._starts = [0] + [m.end() for m in re.finditer("\n", self.body)]
        starts = self._starts
        lo, hi = 0, len(starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        if self.lines is not None:
            return self.lines[min(lo, len(self.lines) - 1)] if self.lines else self.line
        return self.line + 1 + lo


def _family(story_format: str) -> str:
    """Which markup the story format reads: ``harlowe``, ``sugar`` (SugarCube, and
    Twine 1's Sugarcane, Jonah, Responsive), ``both`` (not said: Twine 1 Twee) or
    ``links`` (Chapbook, Snowman and others: only ``[[links]]`` are read)."""
    low = story_format.strip().lower()
    if not low:
        return "both"
    if low.startswith("harlowe"):
        return "harlowe"
    if low.startswith(("sugarcube", "sugarcane", "jonah", "responsive")):
        return "sugar"
    return "links"


# ----------------------------------------------------------------------------- tokens


@dataclass
class _Tok:
    kind: str  # link | sc | close | hm | hopen | hclose | var | skip | js | badlink | badmacro
    start: int
    end: int
    name: str = ""
    args: str = ""
    body: str = ""
    setter: str | None = None
    hook: bool = False
    chain: str = ""
    why: str = ""
    #: where ``body`` starts in the passage text (JavaScript, skipped text)
    at: int = 0


_LINK = re.compile(r"\[\[((?:[^\[\]\n]|\]\[|\[[^\[\]\n]*\])*+)\]\]")
_IMG = re.compile(r"\[[<>]?img\[([^\]\n]*)\](?:\[([^\]\n]*)\])?(?:\[([^\]\n]*)\])?\]", re.I)
_SC = re.compile(r"""<<(?P<close>/)?[ \t]*(?P<name>[=\-]|[A-Za-z_][\w-]*)(?P<args>(?:[^<>"'`\[]++|<(?!<)|"(?:[^"\\\n]|\\.)*+"
                 |'(?:[^'\\\n]|\\.)*+'|`(?:[^`\\]|\\.)*+`|\[\[(?:[^\]\n]|\](?!\]))*+\]\]|>(?!>)|["'`\[])*+)>>""",
                 re.X | re.S)
_SC_START = re.compile(r"<<[ \t]*(?:/[ \t]*)?(?:[=\-]|[A-Za-z_])")
_CHAIN = re.compile(r"[ \t]*\+[ \t]*\(([A-Za-z][\w-]*|[$_][^\W\d]\w*)[ \t]*:")
_HOOK = re.compile(r"[ \t]*(?:\|[\w-]+>)?\[")
_DATA_PASSAGE = re.compile(r"""data-passage\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.I)
_SUGAR_VAR = re.compile(r"\$([^\W\d]\w*(?:\.[^\W\d]\w*)*)")
_HARLOWE_VAR = re.compile(r"\$([^\W\d]\w*)")


def _master(family: str) -> re.Pattern:
    harlowe = family in ("harlowe", "both")
    sugar = family in ("sugar", "both")
    parts = [r"(?P<cmt>" + (r"/\*|/%|" if sugar else "") + r"<!--)"]
    if harlowe:
        parts.append(r"(?P<tick>`+)")
    if sugar:
        parts.append(r'(?P<verb>"""|<nowiki>|\{\{\{)')
    parts.append(r"(?P<tag><(?:script|style)\b)")
    if sugar:
        parts.append(r"(?P<img>\[[<>]?img\[)")
    parts.append(r"(?P<link>\[\[)")
    if sugar:
        parts.append(r"(?P<sc><<)")
    if harlowe:
        parts.append(r"(?P<hm>\((?:[A-Za-z][\w-]*|[$_][^\W\d]\w*)[ \t]*:)")
        parts.append(r"(?P<hopen>\[)|(?P<hclose>\])")
    if family != "links":
        parts.append(r"(?P<var>(?<![\w$\\])\$(?:\$|[^\W\d]))")
    if sugar:
        parts.append(r"(?P<dp>data-passage\s*=)")
    return re.compile("|".join(parts), re.I)


_MASTERS = {f: _master(f) for f in ("harlowe", "sugar", "both", "links")}
_CLOSERS = {"/*": "*/", "/%": "%/", "<!--": "-->", '"""': '"""', "<nowiki>": "</nowiki>", "{{{": "}}}"}


def _possessive(text: str, i: int) -> bool:
    """The ``'`` at ``i`` is Harlowe's possessive ``'s`` (``$x's name``), not a quote."""
    return (i > 0 and (text[i - 1].isalnum() or text[i - 1] in "_)]") and text[i + 1:i + 2] in ("s", "S")
            and not (text[i + 2:i + 3].isalnum() or text[i + 2:i + 3] == "_"))


_PAREN_STOP = re.compile(r"""[()"'\\\[\]]""")
_DQ = re.compile(r'"(?:[^"\\]|\\.)*+"', re.S)
_SQ = re.compile(r"'(?:[^'\\]|\\.)*+'", re.S)


def _close_paren(text: str, start: int, budget: list[int]) -> int:
    """The index of the ``)`` closing a Harlowe macro whose arguments start at
    ``start`` (strings, nested parentheses and hooks skipped; ``'s`` is no quote);
    -1 when it is not closed within reach, -2 when nested deeper than the bound."""
    end = min(len(text), start + _MACRO_LIMIT, start + max(budget[0], 0))
    depth, hook, i = 1, 0, start
    while True:
        m = _PAREN_STOP.search(text, i, end)
        if m is None:
            budget[0] -= end - start
            return -1
        c, i = m.group(), m.start()
        if hook:
            hook += 1 if c == "[" else -1 if c == "]" else 0
            i += 1
            continue
        if c in "\"'":
            if c == "'" and _possessive(text, i):
                i += 1
                continue
            q = (_DQ if c == '"' else _SQ).match(text, i, end)
            if q is None:
                budget[0] -= end - start
                return -1
            i = q.end()
            continue
        if c == "\\":
            i += 2
            continue
        if c == "(":
            depth += 1
            if depth > MAX_NESTING:
                budget[0] -= i - start
                return -2
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        elif c == "[":
            hook = 1
        i += 1


def _tokenize(text: str, family: str) -> list[_Tok]:
    """The constructs of one passage's text, in order, for its story format."""
    toks: list[_Tok] = []
    pattern = _MASTERS[family]
    harlowe = family in ("harlowe", "both")
    lower: str | None = None
    absent: set[str] = set()  # closers known not to occur after this point
    last_gtgt = text.rfind(">>")
    budget = [_SCAN_BUDGET]
    pos = 0
    while True:
        m = pattern.search(text, pos)
        if m is None:
            break
        s, g = m.start(), m.lastgroup
        if g == "cmt" or g == "verb":
            opener = m.group().lower()
            closer = _CLOSERS[opener]
            e = -1
            if closer not in absent:
                if opener == "<nowiki>":
                    lower = lower if lower is not None else text.lower()
                    e = lower.find(closer, m.end())
                else:
                    e = text.find(closer, m.end())
                if e < 0:
                    absent.add(closer)
            if e < 0:
                pos = m.end()
                continue
            toks.append(_Tok("skip", s, e + len(closer), body=text[s:e + len(closer)], at=s,
                             why="comment" if g == "cmt" else "verbatim"))
            pos = e + len(closer)
            continue
        if g == "tick":
            run = m.group()
            key = "`" * len(run)
            if key in absent:
                pos = m.end()
                continue
            closing = re.compile(r"(?<!`)" + key + r"(?!`)").search(text, m.end())
            if closing is None:
                absent.add(key)
                pos = m.end()
                continue
            toks.append(_Tok("skip", s, closing.end(), body=text[s:closing.end()], at=s, why="verbatim"))
            pos = closing.end()
            continue
        if g == "tag":
            kind = "script" if m.group().lower().startswith("<script") else "style"
            closer = f"</{kind}"
            lower = lower if lower is not None else text.lower()
            e = -1 if closer in absent else lower.find(closer, m.end())
            if e < 0:
                absent.add(closer)
                pos = m.end()
                continue
            gt = text.find(">", e)
            stop = gt + 1 if gt >= 0 else len(text)
            open_end = text.find(">", m.end(), e)
            inner_start = open_end + 1 if open_end >= 0 else m.end()
            toks.append(_Tok("js" if kind == "script" else "skip", s, stop, body=text[inner_start:e], at=inner_start,
                             why=kind))
            pos = stop
            continue
        if g == "img":
            im = _IMG.match(text, s)
            if im is None or not im.group(2):
                toks.append(_Tok("imgonly", s, im.end() if im else m.end()))
                pos = im.end() if im else m.end()
                continue
            toks.append(_Tok("link", s, im.end(), body=im.group(2), setter=im.group(3), name="img"))
            pos = im.end()
            continue
        if g == "link":
            if harlowe and text.startswith("[[[", s):
                toks.append(_Tok("hopen", s, s + 1))
                pos = s + 1
                continue
            lm = _LINK.match(text, s)
            if lm is None:
                toks.append(_Tok("badlink", s, s + 2))
                pos = s + 2
                continue
            body, setter = lm.group(1), None
            if "][" in body:
                body, setter = body.split("][", 1)
            toks.append(_Tok("link", s, lm.end(), body=body, setter=setter))
            pos = lm.end()
            continue
        if g == "sc":
            if s > last_gtgt - 2 or budget[0] <= 0:
                toks.append(_Tok("badsc", s, m.end()))
                pos = s + 1  # `<<<goto`: the macro may start at the next `<`
                continue
            if not _SC_START.match(text, s):
                pos = s + 1  # `<<` before no macro name: text
                continue
            stop = min(len(text), s + _MACRO_LIMIT)
            sm = _SC.match(text, s, stop)
            if sm is None:
                budget[0] -= stop - s
                toks.append(_Tok("badsc", s, m.end()))
                pos = s + 1
                continue
            name = sm.group("name")
            if sm.group("close"):
                toks.append(_Tok("close", s, sm.end(), name=name.lower()))
                pos = sm.end()
                continue
            if name.lower() == "script":
                # <<script>> … <</script>>: JavaScript, not markup
                em = re.compile(r"<<\s*(?:/\s*|end)script\s*>>", re.I).search(text, sm.end())
                stop = em.start() if em else len(text)
                toks.append(_Tok("js", s, em.end() if em else len(text), body=text[sm.end():stop], at=sm.end(),
                                 why="script"))
                pos = em.end() if em else len(text)
                continue
            toks.append(_Tok("sc", s, sm.end(), name=name, args=sm.group("args"), at=sm.start("args")))
            pos = sm.end()
            continue
        if g == "hm":
            macro_head = re.match(r"\(([^:\s]+)", m.group())
            assert macro_head is not None  # the token opens a macro call: (name:
            name = macro_head.group(1)
            if budget[0] <= 0:
                pos = m.end()
                continue
            close = _close_paren(text, m.end(), budget)
            if close < 0:
                toks.append(_Tok("badmacro", s, m.end(), name=name, why="deep" if close == -2 else "open"))
                pos = m.end()
                continue
            args = text[m.end():close]
            pos = close + 1
            chain = []
            while True:
                cm = _CHAIN.match(text, pos)
                if cm is None:
                    break
                cclose = _close_paren(text, cm.end(), budget)
                if cclose < 0:
                    break
                chain.append(text[cm.end():cclose])
                pos = cclose + 1
            hook = False
            hm = _HOOK.match(text, pos)
            if hm is not None:
                at = hm.end() - 1
                if not text.startswith("[[", at) or text.startswith("[[[", at):
                    hook = True
                    pos = hm.end()
            toks.append(_Tok("hm", s, pos, name=name, args=args, hook=hook, chain=" ".join(chain)))
            continue
        if g == "hopen":
            toks.append(_Tok("hopen", s, s + 1))
            pos = s + 1
            continue
        if g == "hclose":
            toks.append(_Tok("hclose", s, s + 1))
            pos = s + 1
            continue
        if g == "var":
            if m.group() == "$$":
                pos = s + 2
                continue
            vm = (_HARLOWE_VAR if family == "harlowe" else _SUGAR_VAR).match(text, s)
            assert vm is not None  # the token is a variable: the same pattern found it
            toks.append(_Tok("var", s, vm.end(), name=vm.group(1)))
            pos = vm.end()
            continue
        if g == "dp":
            dm = _DATA_PASSAGE.match(text, s)
            if dm is None:
                pos = m.end()
                continue
            toks.append(_Tok("link", s, dm.end(), body=dm.group(1) if dm.group(1) is not None else dm.group(2), name="data-passage"))
            pos = dm.end()
            continue
        pos = m.end()  # pragma: no cover - every group is handled above
    if budget[0] <= 0:
        toks.append(_Tok("budget", len(text), len(text)))
    return toks


# ----------------------------------------------------------------------------- the story


class _NotExpr(Exception):
    """The text is not an expression (a passage name that merely holds a ``$``)."""


@dataclass
class _Frame:
    kind: str  # hook | if | link | timed | switch | for | options | plain
    cond: Any = None
    source: str = ""
    #: a link's text (a go-to inside it is that link's choice)
    text: str | None = None
    chain: list = field(default_factory=list)
    closer: str | None = None
    #: the subject of a <<switch>>, the variable of a <<cycle>>/<<listbox>>
    subject: str = ""


@dataclass
class _Ctx:
    """Where a piece of text is read: the passage it is written in (``p``, for lines),
    the scene its ways on leave from (``owner``), how (``mode``: ``scene``, ``special``
    — a link would belong to every passage —, or ``widget`` — a widget's definition),
    the conditions around it, the host's branch list, the includes and widgets it is
    inside (bounded), a widget call's arguments and the expansions left."""

    p: _Passage
    owner: str
    mode: str
    base: Cond | None
    out: list
    including: tuple = ()
    args: list[str] | None = None
    budget: list = field(default_factory=lambda: [_EXPANSIONS])
    init: bool = False
    #: read inside a link's body (an include or widget there): its go-tos are that link's choice
    chooser: tuple | None = None

    def subst(self, text: str) -> str:
        """``_args[0]``/``$args[0]`` of a widget replaced by the call's arguments."""
        if not self.args or "args" not in text:
            return text
        args = self.args
        return re.sub(r"[$_]args\[(\d+)\]", lambda m: args[int(m.group(1))] if int(m.group(1)) < len(args) else m.group(), text)


_LINK_HOOKS = {"link", "linkreveal", "linkrepeat", "linkrerun", "linkreplace", "linkappend", "linkprepend", "click",
               "clickreplace", "clickappend", "clickprepend", "clickrerun", "mouseover", "mouseoverreplace",
               "mouseoverappend", "mouseoverprepend", "mouseout", "mouseoutreplace", "mouseoutappend",
               "mouseoutprepend", "linkshow"}
_GOTO_LINKS = {"linkgoto", "clickgoto", "linkrevealgoto", "mouseovergoto", "mouseoutgoto"}
_UNDO = {"undo", "linkundo", "clickundo", "iconundo"}
_RESTART = {"restart", "reload", "iconrestart", "linkrestart"}
_TIMED = {"after", "live", "event", "more", "timed"}
_LOOPS = {"for", "loop"}
_H_INPUTS = {"inputbox", "forceinputbox", "input", "forceinput", "dropdown", "cyclinglink", "seqlink", "checkbox",
             "checkboxes", "radio", "mocklink"}
_SC_LINKS = {"link", "button", "click", "linkappend", "linkprepend", "linkreplace"}
#: SugarCube 2 and Twine 1 macros that never move the reader (the others are read above)
_SC_BUILTINS = {"addclass", "removeclass", "toggleclass", "copy", "remove", "replace", "append", "prepend", "type",
                "audio", "cacheaudio", "createaudiogroup", "createplaylist", "masteraudio", "playlist", "removeaudiogroup",
                "removeplaylist", "waitforaudio", "track", "do", "done", "run", "script", "capture", "nobr", "silently",
                "unset", "remember", "forget", "memorize", "redo", "stop", "next", "break", "continue", "option",
                "optionsfrom", "cycle", "listbox", "print", "=", "-", "set", "if", "elseif", "else", "switch", "case",
                "default", "for", "widget", "timed", "repeat", "transition", "t8n", "actions", "choice", "back",
                "return", "display", "include", "goto", "link", "button", "click", "notify", "endif", "endsilently",
                "endnobr", "endwidget", "endfor", "endswitch"}
_SC_INPUTS = {"textbox", "textarea", "numberbox", "checkbox", "radiobutton", "textinput", "radio"}
#: JavaScript of a macro that may send the reader elsewhere (or show another passage)
_JS_JUMPY = re.compile(r"Engine\s*\.\s*(?:play|go|goTo|show|forward|backward|restart)\b|(?:Story|tale)\s*\.\s*get\b"
                       r"|state\s*\.\s*display|window\s*\.\s*location|Macro\s*\.\s*get\s*\(")
#: JavaScript that sends the reader to another passage
_JS_MOVES = re.compile(r"Engine\s*\.\s*(?:play|go|goTo|show|forward|backward|restart)\b|state\s*\.\s*display|window\s*\.\s*location")
_JS_VAR = re.compile(r"(?:State\s*\.\s*variables|state\s*\.\s*active\s*\.\s*variables|variables\s*\(\s*\)"
                     r"|state\s*\.\s*history\s*\[\s*0\s*\]\s*\.\s*variables|(?<![\w.$])V)"
                     r"\s*(?:\.\s*(?P<name>[^\W\d]\w*)|\[\s*[\"'](?P<key>[^\W\d]\w*)[\"']\s*\])"
                     r"(?P<op>\s*(?:[-+*/%]?=(?!=)|\+\+|--))?(?P<rest>[^;\n]*)")
_JS_ANY = re.compile(r"(?:State\s*\.\s*variables|state\s*\.\s*active\s*\.\s*variables|variables\s*\(\s*\)"
                     r"|state\s*\.\s*history\s*\[\s*0\s*\]\s*\.\s*variables)"
                     r"\s*(?:\[\s*(?![\"'\s])[^\]\n]*\](?P<set>\s*[-+*/%]?=(?!=))?|(?![\s.\[\w]))")
_JS_GETVAR = re.compile(r"State\s*\.\s*(getVar|setVar)\s*\(\s*[\"']\$([^\W\d][\w.]*)")
_JS_PLAY = re.compile(r"\b(?:Engine\s*\.\s*play|state\s*\.\s*display|Engine\s*\.\s*show)\s*\(\s*(?:([\"'])((?:(?!\1)[^\\\n])*)\1)?")
_MACRO_ADD = re.compile(r"Macro\s*\.\s*add\s*\(\s*(\[[^\]]*\]|\"[^\"]*\"|'[^']*'|`[^`]*`)\s*,\s*(\"[^\"]*\"|'[^']*')?")
_OLD_MACRO = re.compile(r"\bmacros\s*(?:\.\s*([A-Za-z_]\w*)|\[\s*[\"']([^\"']+)[\"']\s*\])\s*=")
_STRINGS = re.compile(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'')
_POSSESSIVE = re.compile(r"(?<=[\w)\]])'s(?![\w])")


def _norm(name: str) -> str:
    """A Harlowe macro name as Harlowe compares them: case, ``-`` and ``_`` ignored."""
    return name.lower().replace("-", "").replace("_", "")


def _without_strings(text: str) -> str:
    return _STRINGS.sub(" ", _POSSESSIVE.sub("  ", text))


class _Twee:
    def __init__(self, file: str, ending_tag: str):
        self.file = file
        self.ending_tag = ending_tag
        self.b = StoryBuilder("twee", file)
        self.passages: dict[str, _Passage] = {}
        self.order: list[_Passage] = []
        self.scripts: list[_Passage] = []
        self.story_format = ""
        self.family = "both"
        self.start: str | None = None
        self.data_line: int | None = None
        self.data_file: str | None = None
        self.dialect = Dialect(_WORDS, self._resolve, self._call)
        self._translated: dict[tuple, Any] = {}
        self.included: set[str] = set()
        self._toks: dict[int, list[_Tok]] = {}
        # what the whole story says, learnt before any passage is read
        self.values: dict[str, list] = {}
        self.unknown: set[str] = set()
        self.widgets: dict[str, tuple[_Passage, int, int]] = {}
        self.macros: dict[str, bool] = {}  # a macro defined in JavaScript -> it may jump
        self.aliases: dict[str, str] = {}
        self.harlowe_macros: dict[str, bool] = {}  # a (macro:) kept in a variable -> it may jump
        self.includers: set[str] = set()  # macros of the story's JavaScript that show the passage they name
        self.macro_targets: dict[str, int] = {}  # … that go to the passage given as argument N
        # lists of literals the story keeps, and variables given one of their elements
        self.lists: dict[str, list] = {}
        self.changed_lists: set[str] = set()
        self.elements: list[tuple[str, str]] = []
        #: values a variable takes only as an element of a list (the list may never get that far)
        self.loose: dict[str, set] = {}
        self._visit_owner = ""
        self._owner = ""
        #: variables given a first value before the story starts, and where each is first written
        self._initialised: set[str] = set()
        self._sat: dict[tuple, bool] = {}
        self._first_write: dict[str, tuple[str, int]] = {}
        #: (owner, branch or opaque jump) in the order the builder gets them
        self.entries: list[tuple] = []
        self.html = False
        self.twee1 = False

    # ------------------------------------------------------------------ reading the files

    def run(self, sources: list[tuple[str, str]]) -> StoryBuilder:
        """Read the passages of every ``(file, text)`` of one story, then the story."""
        from verdicts.errors import InputError

        # a story without StoryData is Twee 1: its compiler strips the colons around a name (`:::x` is `x`)
        self.twee1 = not any(_STORY_DATA.search(text) for _, text in sources)
        for file, text in sources:
            self.file = file
            if file.lower().endswith(twine_html.HTML_SUFFIXES) or twine_html.looks_like_html(text):
                self._html(file, text)
            else:
                self._passages(file, text)
        if not self.order:
            if self.html:
                raise InputError(f"{sources[0][0]}: Twine 이야기에 패시지가 하나도 없어 읽을 것이 없습니다.")
            raise InputError(f"{sources[0][0] if len(sources) == 1 else self.file}: Twee 패시지(`::`로 시작하는 머리줄)가 "
                             "하나도 없어 Twine 이야기로 읽을 것이 없습니다.")
        data = self.passages.get("StoryData")
        if not self.html:
            # what concerns the whole story is said at StoryData, else at the top of the first file
            self.data_file = data.file if data is not None else sources[0][0]
            self.data_line = data.line if data is not None else 1
            if data is not None:
                try:
                    meta = json.loads(data.body or "{}")
                    self.story_format = str(meta.get("format", ""))
                    self.start = meta.get("start")
                except (ValueError, AttributeError):
                    self.b.issue(self.data_file, data.line, "StoryData의 JSON을 읽지 못해 시작 패시지를 이름이 Start인 패시지로 잡았습니다.")
        assert self.data_file is not None  # set above, or by _html
        self.file = self.data_file
        self.family = _family(self.story_format)
        if self.family == "links":
            self.b.issue(self.data_file, self.data_line, f"이야기 형식 {quote_code(self.story_format)}의 매크로는 옮기지 않고 `[[링크]]`만 옮겼습니다.")
        stories = [p for p in self.order if not p.special]
        if self.start is None or self.start not in self.passages:
            if self.start is not None:
                self.b.issue(self.data_file, self.data_line, f"StoryData의 시작 패시지({quote_code(self.start)})가 없어 시작 장면을 다른 패시지로 잡았습니다.")
            self.start = "Start" if "Start" in self.passages else (stories[0].name if stories else None)
        for p in self.order:
            if not self._raw(p):
                self._toks[id(p)] = _tokenize(p.body, self.family)
        self._learn()
        # special passages first: StoryInit and startup give the flags their first values
        for p in self.order:
            if not p.special:
                continue
            self.b.account(p.file, p.line, f"특별한 패시지 {josa(code(p.name), '은/는')} 장면이 아니라 장면으로 옮기지 않았습니다.")
            if self._raw(p) or p.name in ("StoryTitle", "StoryData"):
                self._read_raw(p)
            else:
                self._walk(p, "widget" if "widget" in p.tags else "special",
                           init=p.name in _INIT_NAMES or bool(_INIT_TAGS & set(p.tags)))
        for p in self.scripts:
            self._read_raw(p)
        for p in stories:
            self.b.scene(p.name, p.name, p.file, p.line, entry=p.name == self.start, ending=self.ending_tag in p.tags)
        walked: dict[str, list] = {}
        for p in stories:
            before = len(self.entries)
            self._walk(p, "scene")
            walked[p.name] = self.entries[before:]
        self._unset_values()
        # a passage that is only ever included is a fragment of its hosts, not a place of its own
        linked = {e[1] for e in self.entries if e[1]} | {self.start}
        fragments = {name for name in self.included if name not in linked}
        for p in stories:
            if p.name in fragments:
                self.b.scenes.pop(p.name, None)
                self.b.account(p.file, p.line, f"패시지 {josa(code(p.name), '은/는')} 다른 패시지에 끌어 쓰이기만 해 그 패시지의 일부로 읽었습니다.")
                continue
            mine = walked[p.name]
            if not mine and self.ending_tag not in p.tags:
                self.b.scenes[p.name].is_ending = True
            for owner, target, cond, kind, file, line, once, text, source in mine:
                if target is None:
                    self.b.jump_opaque(owner, source, cond, kind, file, line, once, text=text)
                else:
                    self.b.branch(owner, target, cond, kind, file, line, once, text=text)
        return self.b

    def _unset_values(self) -> None:
        """A variable the story writes but never gives a first value (in ``StoryInit``, a
        ``startup`` passage or the start passage before any block) has the engine's value
        before its first write: Harlowe's 0, SugarCube's and Twine 1's ``undefined``.  A
        number in Harlowe gets 0 among its values; otherwise (``undefined`` compares
        false with everything, no value of ours does that) the variable may take a value we
        cannot name: an opaque effect.  A true/false variable needs nothing: both are its
        values already."""
        for key, (file, line) in self._first_write.items():
            if key in self._initialised:
                continue
            values = self.values.get(key, [])
            if values and all(isinstance(v, bool) for v in values):
                continue
            numbers = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            if self.family == "harlowe" and numbers:
                self.b.assign(key, 0, file, line)
            else:
                self.b.effect_opaque(key, "처음 값을 넣기 전의 값", file, line)

    def _passages(self, file: str, text: str) -> None:
        cur: _Passage | None = None
        body: list[str] = []
        skipped = "첫 패시지 머리줄(`::`) 앞의 글이라 Tweego처럼 읽지 않았습니다."
        for no, line in enumerate(text.split("\n"), 1):
            if line.startswith("::"):
                if cur is not None:
                    cur.body = "\n".join(body)
                m = _HEADER.match(line)
                if not m:
                    self.b.issue(file, no, "패시지 머리줄을 읽지 못해 이 패시지는 건너뛰었습니다.")
                    cur, skipped = None, "머리줄을 읽지 못해 건너뛴 패시지의 글이라 옮기지 않았습니다."
                    continue
                name = _passage_name(m.group(1), self.twee1)
                tags = (m.group(2) or "").split()
                first = self.passages.get(name)
                if first is not None:
                    self._duplicate(file, no, name, first)
                    cur, skipped = None, "이름이 겹쳐 읽지 않은 패시지의 글이라 옮기지 않았습니다."
                    continue
                cur = self._add(_Passage(name, tags, no, "", file=file))
                body = []
            elif cur is not None:
                body.append(line)
            elif CONSTRUCT.search(line):
                self.b.account(file, no, skipped)
        if cur is not None:
            cur.body = "\n".join(body)

    def _duplicate(self, file: str, line: int, name: str, first: _Passage) -> None:
        if first.file == file:
            self.b.issue(file, line, f"같은 이름의 패시지({quote_code(name)})가 앞에 또 있어 뒤의 것은 읽지 않았습니다.")
        else:
            self.b.issue(file, line, f"같은 이름의 패시지({quote_code(name)})가 {first.file} {first.line}번째 줄에도 있어 "
                                     "이 파일의 것은 읽지 않았습니다 (Tweego도 이름이 겹치면 멈춥니다).")

    def _add(self, p: _Passage) -> _Passage:
        p.special = p.name in SPECIAL_NAMES or any(t in SPECIAL_TAGS for t in p.tags)
        self.passages[p.name] = p
        self.order.append(p)
        return p

    def _html(self, file: str, text: str) -> None:
        from verdicts.errors import InputError

        self.html = True
        stories = twine_html.read_html_story(text)
        if not stories:
            raise InputError(f"{file}: HTML 파일이지만 Twine 이야기(Twine 2의 `<tw-storydata>`나 Twine 1의 `storeArea`)가 "
                             "들어 있지 않아 읽지 않았습니다.")
        story = stories[0]
        self.data_file, self.data_line = file, story.line
        self.story_format = story.format
        self.start = story.start if not story.twine1 else "Start"
        if story.start_missing is not None:
            self.b.issue(file, story.line, f"`startnode`의 패시지 번호({quote_code(story.start_missing)})가 가리키는 패시지가 없어 "
                                           "시작 장면을 다른 패시지로 잡았습니다.")
        if len(stories) > 1:
            self.b.issue(file, stories[1].line, f"보관 파일에 이야기가 {len(stories)}개 있어 첫 이야기 {quote_code(story.name)}만 "
                                                "읽었습니다 (다른 이야기는 Twine에서 하나씩 내보내 주세요).")
            for other in stories[1:]:
                for hp in other.passages + other.scripts:
                    self.b.account(file, hp.line, "보관 파일의 다른 이야기라 읽지 않았습니다.")
                    for k, body_line in enumerate(hp.body.split("\n")):
                        if CONSTRUCT.search(body_line):
                            self.b.account(file, hp.lines[k], "보관 파일의 다른 이야기라 읽지 않았습니다.")
        for hp in story.passages:
            if not hp.name:
                self.b.issue(file, hp.line, "이름이 없는 패시지라 읽지 않았습니다.")
                continue
            first = self.passages.get(hp.name)
            if first is not None:
                self._duplicate(file, hp.line, hp.name, first)
                continue
            self._add(_Passage(hp.name, hp.tags, hp.line, hp.body, file=file, lines=hp.lines))
        for hp in story.scripts:
            self.scripts.append(_Passage(hp.name, hp.tags, hp.line, hp.body, special=True, file=file, lines=hp.lines))

    @staticmethod
    def _raw(p: _Passage) -> bool:
        return bool(_RAW_TAGS & set(p.tags))

    # ------------------------------------------------------------------ what the story says everywhere

    def _learn(self) -> None:
        """Before any passage is read: the values every variable is given anywhere (for
        link targets built from variables), the widgets, and the macros the story's
        JavaScript defines."""
        for p in self.order + self.scripts:
            if "script" in p.tags:
                self._learn_macros(p.body)
                self._learn_js(p.body)
        for p in self.order:
            toks = self._toks.get(id(p))
            if toks is None:
                continue
            for i, tok in enumerate(toks):
                if tok.kind == "sc" and tok.name.lower() == "widget" and "widget" in p.tags:
                    name = literal(tok.args.strip().split()[0]) if tok.args.strip() else None
                    if isinstance(name, str) and name not in self.widgets:
                        self.widgets[name] = (p, i + 1, self._closing(toks, i, "widget"))
                for key, effect, _src, _rhs in self._writes(tok, None):
                    self._learn_effect(key, effect)
                if tok.kind == "hm" and _norm(tok.name) == "set" and re.search(r"\(\s*macro\s*:", tok.args, re.I):
                    m = re.match(r"\s*(?:[\w-]+-type\s+)?\$([^\W\d]\w*)", tok.args)
                    if m:
                        self.harlowe_macros[m.group(1)] = bool(re.search(
                            r"\(\s*(?:go-?to|redirect|link-?goto|click-?goto|link-?reveal-?goto|display)\s*:|\[\[", tok.args, re.I))
                if tok.kind == "js":
                    self._learn_js(tok.body)
        for key, source in self.elements:
            values = self.lists.get(source)
            if values is None or source in self.changed_lists or key in self.unknown:
                self.unknown.add(key)
                continue
            if any(v in self.passages for v in values):
                # a list of passage names: a name no passage has is where the list never gets
                values = self.lists[source] = [v for v in values if v in self.passages]
            kept = self.values.setdefault(key, [])
            for v in values:
                if v not in kept:
                    kept.append(v)
                    self.loose.setdefault(key, set()).add(v)

    def _learn_macros(self, js: str) -> None:
        starts = list(_MACRO_ADD.finditer(js))
        for k, m in enumerate(starts):
            body = js[m.end():starts[k + 1].start() if k + 1 < len(starts) else len(js)]
            names = re.findall(r"[\"'`]([^\"'`]+)[\"'`]", m.group(1))
            alias = literal(m.group(2)) if m.group(2) else None
            for name in names:
                if isinstance(alias, str):
                    self.aliases[name.lower()] = alias.lower()
                else:
                    self._learn_macro(name, body)
        # Twine 1: macros['a'] = macros['b'] = { … } (names chained before one body)
        olds = list(_OLD_MACRO.finditer(js))
        names = []
        for k, m in enumerate(olds):
            names.append(m.group(1) or m.group(2))
            stop = olds[k + 1].start() if k + 1 < len(olds) else len(js)
            body = js[m.end():stop]
            if body.strip():
                for name in names:
                    self._learn_macro(name, body)
                names = []

    def _learn_macro(self, name: str, body: str) -> None:
        """What a macro of the story's JavaScript does with the reader: shows the passage
        it is given (``Story.get(…)``/``tale.get(…)`` and its text rendered: read as an
        include), may jump (``Engine.play``, ``state.display``…: an opaque jump), or
        neither (text)."""
        target = re.search(r"(?:Engine\s*\.\s*play|state\s*\.\s*display)\s*\(\s*(?:this\s*\.\s*args|params)\s*\[\s*(\d+)\s*\]\s*\)",
                           body)
        if target and len(_JS_MOVES.findall(body)) == 1:
            # Engine.play(this.args[0]): it goes to the passage it is given, as <<goto>>
            self.macro_targets[name.lower()] = int(target.group(1))
        if re.search(r"\b(?:Story|tale)\s*\.\s*get\s*\(", body) and \
                re.search(r"\.text\b|Wikifier|\.wiki\s*\(|processText", body) and not _JS_MOVES.search(body):
            self.includers.add(name.lower())
            self.macros[name.lower()] = False
        else:
            self.macros[name.lower()] = bool(_JS_JUMPY.search(body))

    def _learn_js(self, js: str) -> None:
        for m in _JS_VAR.finditer(js):
            if m.group("op"):
                self._learn_effect(m.group("name") or m.group("key"), _js_effect(m.group("op"), m.group("rest")))
        for m in _JS_GETVAR.finditer(js):
            if m.group(1) == "setVar":
                self.unknown.add(m.group(2))

    def _learn_effect(self, key: str, effect: tuple) -> None:
        if key.startswith("_"):
            return
        if effect[0] == "list":
            kept = self.lists.setdefault(key, [])
            kept.extend(v for v in effect[1] if v not in kept)
            self.unknown.add(key)  # the variable holds a list, not one value
            return
        if effect[0] != "element":
            self.changed_lists.add(key)
        if effect[0] == "element":
            self.elements.append((key, effect[1]))
            return
        values = self.values.setdefault(key, [])
        if effect[0] == "values":
            new = effect[1]
        elif effect[0] == "range" and effect[2] - effect[1] <= _MAX_VALUES:
            new = list(range(effect[1], effect[2] + 1))
        elif effect[0] == "toggle":
            new = [True, False]
        else:
            self.unknown.add(key)
            return
        for v in new:
            if v not in values:
                values.append(v)

    @staticmethod
    def _closing(toks: list[_Tok], i: int, name: str) -> int:
        depth = 0
        for j in range(i + 1, len(toks)):
            t = toks[j]
            if t.kind == "sc" and t.name.lower() == name:
                depth += 1
            elif (t.kind == "close" and t.name == name) or (t.kind == "sc" and t.name.lower() == "end" + name):
                if depth == 0:
                    return j
                depth -= 1
        return len(toks)

    # ------------------------------------------------------------------ writes

    def _writes(self, tok: _Tok, ctx: _Ctx | None) -> list[tuple[str, tuple, str, str]]:
        """``(key, effect, source, right-hand side)`` of each variable ``tok`` writes;
        an effect is ``("values", [v…])``, ``("range", lo, hi)``, ``("step", (op, n))``,
        ``("toggle",)`` or ``("opaque",)``."""
        sub = ctx.subst if ctx is not None else (lambda t: t)
        if tok.kind == "link" and tok.setter:
            return self._sets(sub(tok.setter), None)
        if tok.kind == "sc":
            name = tok.name.lower()
            args = sub(tok.args)
            if name == "set":
                return self._sets(args, None)
            if name == "unset":
                return [(v, ("opaque",), f"<<unset {args.strip()}>>", "") for v in re.findall(r"\$([^\W\d][\w.]*)", args)]
            if name in _SC_INPUTS:
                parts = _split_values(args)
                m = re.match(r"""\s*["']?\$([^\W\d][\w.]*)""", parts[0]) if parts else None
                if not m:
                    return []
                source = f"<<{tok.name}{tok.args}>>"
                vals = [literal(a) for a in parts[1:3]]
                if name == "checkbox" and len(parts) >= 3 and all(v is not None for v in vals):
                    return [(m.group(1), ("values", vals), source, "")]
                if name in ("radiobutton", "radio") and len(parts) >= 2 and vals[0] is not None:
                    return [(m.group(1), ("values", vals[:1]), source, "")]
                return [(m.group(1), ("opaque",), source, "")]
            return []
        if tok.kind == "hm":
            name = _norm(tok.name)
            args = sub(tok.args)
            if name in ("set", "put", "move", "unpack"):
                return self._sets(args, name)
            if name in _H_INPUTS:
                m = re.search(r"\b2?bind\s+\$([^\W\d]\w*)", args)
                if not m:
                    return []
                rest = [literal(a) for a in _split_args(args[m.end():].lstrip(" ,"))]
                source = f"({tok.name}:{tok.args})"
                if name in ("checkbox",):
                    return [(m.group(1), ("toggle",), source, "")]
                if name in ("dropdown", "cyclinglink", "seqlink") and rest and all(v is not None for v in rest):
                    return [(m.group(1), ("values", [v for v in rest if v != ""] or rest), source, "")]
                return [(m.group(1), ("opaque",), source, "")]
        return []

    def _sets(self, text: str, harlowe: str | None) -> list[tuple[str, tuple, str, str]]:
        out = []
        for part in _split_values(text, sep=",;"):
            part = part.strip()
            if not part:
                continue
            if harlowe in ("put", "move", "unpack"):
                m = re.match(r"^(.*?)\s+into\s+(?:[\w-]+-type\s+)?([$_][^\W\d]\w*)((?:\s*'s\s+\S+)*)\s*$", part, re.S)
                if m:
                    effect = ("opaque",) if m.group(3) or harlowe == "unpack" else self._effect(m.group(1), m.group(2))
                    out.append((m.group(2)[1:] if m.group(2)[0] == "$" else m.group(2), effect, part, m.group(1)))
                continue
            m = re.match(r"^(?:[\w-]+-type\s+)?([$_][^\W\d][\w.]*)((?:\s*'s\s+\S+)*|(?:\[[^\]]*\])*)\s*"
                         r"(to\b|=(?!=)|\+=|-=|\*=|/=|%=|\+\+|--)\s*(.*)$", part, re.S)
            if m:
                var, op, rhs = m.group(1), m.group(3), m.group(4)
                key = var[1:] if var[0] == "$" else var
                if m.group(2):
                    effect = ("opaque",)  # one entry of a collection: the variable changes in a way not followed
                elif op in ("++", "--"):
                    effect = ("step", ("+" if op == "++" else "-", 1))
                elif op in ("+=", "-="):
                    v = literal(rhs)
                    effect = ("step", (op[0], v)) if isinstance(v, int) and not isinstance(v, bool) else ("opaque",)
                elif op in ("to", "="):
                    effect = self._effect(rhs, var)
                else:
                    effect = ("opaque",)
                out.append((key, effect, part, rhs))
                continue
            m = re.match(r"^(\+\+|--)\s*([$_][^\W\d][\w.]*)\s*$", part)
            if m:
                key = m.group(2)[1:] if m.group(2)[0] == "$" else m.group(2)
                out.append((key, ("step", ("+" if m.group(1) == "++" else "-", 1)), part, ""))
                continue
            m = re.match(r"^\s*\$([^\W\d]\w*)", part)
            if m:  # a method call or anything else that changes a variable: not followed
                out.append((m.group(1), ("opaque",), part, part[m.end():]))
        return out

    def _effect(self, rhs: str, var: str) -> tuple:
        v = literal(rhs)
        if v is not None:
            return ("values", [v])
        t = " ".join(rhs.split())
        me = re.escape(var)
        m = re.fullmatch(rf"(?:it|{me})\s*([+-])\s*(\d+)", t)
        if m:
            return ("step", (m.group(1), int(m.group(2))))
        if re.fullmatch(rf"(?:not\s+|!\s*)(?:it|{me})", t):
            return ("toggle",)
        t = re.sub(r"\(\s*([A-Za-z][\w-]*)\s*:", lambda e: _norm(e.group(1)) + "(", t)
        m = re.fullmatch(r"either\((.*)\)", t, re.S | re.I)
        if m:
            vals = [literal(a) for a in _split_args(m.group(1))]
            if vals and all(x is not None for x in vals):
                return ("values", vals)
        m = re.fullmatch(r"random\((.*)\)", t, re.S | re.I)
        if m:
            vals = [literal(a) for a in _split_args(m.group(1))]
            if all(isinstance(x, int) and not isinstance(x, bool) for x in vals) and len(vals) in (1, 2):
                lo, hi = (0, vals[0]) if len(vals) == 1 else (min(vals), max(vals))
                return ("range", lo, hi)
        # a list of literals (Harlowe (a:), SugarCube [ ]): the values an element of it can take
        m = re.fullmatch(r"(?:a|array)\((.*)\)|\[(.*)\]", t, re.S | re.I)
        if m:
            vals = [literal(a) for a in _split_args(m.group(1) if m.group(1) is not None else m.group(2))]
            if all(isinstance(x, str) or (isinstance(x, int) and not isinstance(x, bool)) for x in vals):
                return ("list", vals)
        # one element of a list the story keeps
        m = (re.fullmatch(r"\$([^\W\d]\w*)\s*'s\s+(?:\d+(?:st|nd|rd|th)|last|random)", t)
             or re.fullmatch(r"\$([^\W\d]\w*)(?:\[\d+\]|\.(?:random|pluck|shift|pop|first|last)\(\s*\))", t)
             or re.fullmatch(r"either\(\s*\.\.\.\s*\$([^\W\d]\w*)\s*\)", t))
        if m:
            return ("element", m.group(1))
        return ("opaque",)

    def _apply_writes(self, ctx: _Ctx, writes: list, line: int, top: bool = False) -> None:
        """Record ``writes`` at ``line``; ``top``: outside any block of the passage (in the
        start passage, such a write gives the variable its first value, as ``StoryInit``)."""
        file = ctx.p.file
        init = ctx.init
        first = init or (top and ctx.mode == "scene" and ctx.p.name == self.start == ctx.owner)
        for key, effect, source, rhs in writes:
            if rhs:
                self._reads(ctx, rhs, line, skip={key})
            if key.startswith("_") or key == "args":
                continue  # a temporary is no story flag
            if first:
                self._initialised.add(key)
            self._first_write.setdefault(key, (file, line))
            if effect[0] == "values":
                for v in effect[1]:
                    if init:
                        self.b.declare(key, v, file, line)
                    else:
                        self.b.assign(key, v, file, line)
            elif effect[0] == "range":
                for v in effect[1:]:
                    if init:
                        self.b.declare(key, v, file, line)
                    else:
                        self.b.assign(key, v, file, line)
            elif effect[0] == "step":
                self.b.assign(key, effect[1], file, line)
            elif effect[0] == "toggle":
                self.b.assign(key, True, file, line)
                self.b.assign(key, False, file, line)
            elif effect[0] == "element" and key not in self.unknown and effect[1] in self.lists:
                for v in self.lists[effect[1]]:
                    self.b.assign(key, v, file, line)
            else:
                self.b.effect_opaque(key, source, file, line)

    # ------------------------------------------------------------------ reads

    def _reads(self, ctx: _Ctx, text: str, line: int, skip: AbstractSet[str] = frozenset()) -> None:
        """Every story variable ``text`` (macro arguments) names is read at ``line``."""
        if "$" not in text:
            return
        pattern = _HARLOWE_VAR if self.family == "harlowe" else _SUGAR_VAR
        for m in pattern.finditer(_without_strings(text)):
            self._read_var(ctx, m.group(1), line, skip)

    def _read_var(self, ctx: _Ctx, key: str, line: int, skip: AbstractSet[str] = frozenset()) -> None:
        if key in skip or key == "args" or key.startswith("args."):
            return
        parts = key.split(".")
        for k in range(1, len(parts)):
            prefix = ".".join(parts[:k])
            if prefix in self.values or prefix in self.unknown:
                self.b.read(prefix, ctx.p.file, line)
        self.b.read(key, ctx.p.file, line)

    def _js(self, ctx: _Ctx, js: str, at: int, cond: Cond | None, chooser: tuple | None) -> None:
        """JavaScript in a passage (``<<run>>``, ``<<script>>``, ``<script>``): the story
        variables it reads and writes, and where it sends the reader."""
        p = ctx.p
        for m in _JS_VAR.finditer(js):
            line = p.line_of(at + m.start())
            key = m.group("name") or m.group("key")
            if m.group("op"):
                self._apply_writes(ctx, [(key, _js_effect(m.group("op"), m.group("rest")), m.group(0).strip(), "")], line)
            else:
                self._read_var(ctx, key, line)
        for m in _JS_ANY.finditer(js):
            # a variable whose name is computed while playing, or all of them at once
            line = p.line_of(at + m.start())
            if m.group("set"):
                self.b.write_any(m.group(0).strip(), p.file, line)
            else:
                self.b.read_any(m.group(0).strip(), p.file, line)
        for m in _JS_GETVAR.finditer(js):
            line = p.line_of(at + m.start())
            if m.group(1) == "setVar":
                self.b.effect_opaque(m.group(2), m.group(0) + " …", p.file, line)
            else:
                self._read_var(ctx, m.group(2), line)
        if cond is None:
            return
        for m in _JS_PLAY.finditer(js):
            line = p.line_of(at + m.start())
            kind = "choice" if chooser else "auto"
            text = chooser[1] if chooser else None
            if m.group(2) is not None:
                self._emit(ctx, cond, [(m.group(2), None)], None, kind, line, text)
            else:
                self._emit(ctx, cond, [], js[m.start():m.start() + 80], kind, line, text)

    # ------------------------------------------------------------------ conditions

    def _resolve(self, name: str):
        low = name.lower()
        if low in ("visits", "visit"):
            return ("visit", self._visit_owner)
        if name.startswith("_") and len(name) > 1:
            raise Opaque(f"임시 변수({code(name)})를 따지는")
        m = re.match(r"(?:State\.variables|V)\.([^\W\d][\w.]*)$", name)
        if m:
            return ("name", m.group(1))
        if not name.startswith("$"):
            raise Opaque(f"변수가 아닌 이름({code(name)})을 따지는")
        return None

    def _call(self, name: str, args: list):
        low = name.lower()
        if low == "history" and not args:
            return ("history",)
        if low == "visited":
            if not args:
                return ("visit", self._visit_owner)
            if len(args) == 1 and args[0][0] == "str":
                return ("visit", args[0][1])
        if low == "hasvisited" and len(args) == 1 and args[0][0] == "str":
            return ("cmp", ">", ("visit", args[0][1]), ("int", 0))
        if low in ("random", "either", "randomfloat"):
            raise Opaque("무작위 값이 든")
        raise Opaque(f"함수 호출({name})이 든")

    def _translate(self, text: str, ctx: _Ctx) -> Any:
        text = ctx.subst(text)
        key = (text, ctx.owner)
        done = self._translated.get(key)
        if done is None:
            self._visit_owner = ctx.owner
            done = self._translated[key] = self._translate_new(text)
        return done

    def _translate_new(self, text: str) -> Any:
        if self.family in ("harlowe", "both"):
            code_only = re.sub(r'"(?:[^"\\\n]|\\.)*"', " ", text)
            if re.search(r"\btime\b", code_only):
                return Opaque("지나간 시간(`time`)을 따지는")
            if _POSSESSIVE.search(code_only) or re.search(r"\b(?:of|its)\b", code_only):
                return Opaque("데이터 묶음의 값(`'s`, `of`)을 따지는")
            # Harlowe's `it` is the left side of the comparison before it
            if re.search(r"\bit\b", text):
                last = [None]

                def it(m: re.Match) -> str:
                    if m.group(1):
                        last[0] = m.group(1)
                        return m.group(1)
                    return last[0] or "it"
                text = "".join(piece if piece[:1] == '"' else re.sub(r"(\$[^\W\d]\w*)|\bit\b", it, piece)
                               for piece in re.split(r'("(?:[^"\\\n]|\\.)*")', text))
        # Harlowe macros inside a condition, such as (history:) and (visited: "P"), read as calls
        text = re.sub(r"\(([A-Za-z][\w-]*):", lambda m: m.group(1).replace("-", "_") + "(", text)
        return translate(text, self.dialect)

    # ------------------------------------------------------------------ link targets

    def _targets(self, raw: str, ctx: _Ctx, how: str) -> tuple[list[tuple[str, Cond | None]], bool]:
        """Where a link or jump to ``raw`` leads: ``(passage name, the condition under which
        it goes there)`` pairs, and whether it may also lead somewhere we cannot name.
        ``how``: ``link`` (the target of ``[[…]]``, which the story format may evaluate)
        or ``expr`` (a macro argument)."""
        raw = ctx.subst(raw).strip()
        self._owner = ctx.owner
        if how == "expr":
            inner = re.fullmatch(r"\[\[(.*)\]\]", raw, re.S)
            if inner:
                return self._targets(_split_link(inner.group(1), self.family)[1], ctx, "link")
            v = literal(raw)
            if isinstance(v, str):
                return [(v, None)], False
            if re.fullmatch(r"[^\s$_\"'`(\[][^\s\"'`()]*", raw) and not re.fullmatch(r"[\d.]+|true|false|null|undefined", raw) \
                    and "." not in raw and self.family != "harlowe":
                return [(raw, None)], False  # SugarCube reads a bare word as a string
            if raw.startswith("`") and raw.endswith("`") and len(raw) > 1:
                raw = raw[1:-1]
            try:
                return self._expand(self._values(raw)), False
            except (_NotExpr, Opaque):
                return [], True
        call = self.family != "harlowe" and re.search(r"\b[A-Za-z_]\w*\s*\([^()]*\)", raw)
        if raw in self.passages or not (call or re.search(r"(?<![\w$])[$_][^\W\d]|\([A-Za-z][\w-]*:|^[\"'`]", raw)):
            return [(raw, None)], False
        if self.family == "harlowe" or (self.family == "both" and not call and not re.match(r"^[\"'`]", raw)):
            try:
                return self._expand(self._template(raw)), False
            except Opaque:
                return [], True
        # SugarCube evaluates a target that is no passage name as an expression
        try:
            return self._expand(self._values(raw[1:-1] if raw[:1] == raw[-1:] == "`" else raw)), False
        except Opaque:
            return [], True
        except _NotExpr:
            if self.family == "both" and "$" in raw:
                return [], True
            return [(raw, None)], False

    def _expand(self, values: list[tuple[str, list]]) -> list[tuple[str, Cond | None]]:
        """The passages a computed target names; when it names no passage at all, it is
        read as a way we cannot name (the values seen are not the ones that matter)."""
        if any(parts for _, parts in values) and not any(v in self.passages for v, _ in values):
            raise Opaque("이야기에 있는 패시지를 하나도 가리키지 않는")
        # an element of a list that names no passage: the list may never get that far
        values = [(v, parts) for v, parts in values if v in self.passages or not self._loose(parts)]
        return [(v, Cond(parts) if parts else None) for v, parts in values]

    def _loose(self, parts: list) -> bool:
        for node, _ in parts:
            if isinstance(node, tuple) and node[0] == "cmp" and node[2][0] == "name" and \
                    node[3][1] in self.loose.get(node[2][1], ()):
                return True
        return False

    def _values(self, text: str) -> list[tuple[str, list]]:
        text = re.sub(r"\(\s*([A-Za-z][\w-]*)\s*:", lambda e: _norm(e.group(1)) + "(", text)
        if _POSSESSIVE.search(re.sub(r'"(?:[^"\\\n]|\\.)*"', " ", text)):
            raise Opaque("데이터 묶음의 값을 쓰는")
        try:
            node = parse_expr(text, Dialect(_WORDS))
        except Opaque:
            raise _NotExpr() from None
        except RecursionError:  # pragma: no cover - bounded by MAX_NESTING
            raise Opaque("너무 깊이 중첩된") from None
        return self._values_of(node)

    def _values_of(self, node: Any) -> list[tuple[str, list]]:
        kind = node[0]
        if kind == "str":
            return [(node[1], [])]
        if kind == "int":
            return [(str(node[1]), [])]
        if kind == "name":
            return self._var_values(node[1])
        if kind == "arith" and node[1] == "+":
            left, right = self._values_of(node[2]), self._values_of(node[3])
            if len(left) * len(right) > _MAX_VALUES:
                raise Opaque("경우가 너무 많은")
            return [(a + b, pa + pb) for a, pa in left for b, pb in right]
        if kind == "call" and node[1].lower() == "either":
            out = []
            for arg in node[2]:
                for v, parts in self._values_of(arg):
                    out.append((v, parts + [(Opaque("무작위로 고르는"), "either(…)")]))
            if len(out) > _MAX_VALUES:
                raise Opaque("경우가 너무 많은")
            return out
        if kind == "call" and node[1] == "passage" and not node[2]:
            return [(self._owner, [])]  # SugarCube, Twine 1: the passage shown now
        if kind == "call" and node[1] in ("previous", "lastVisited") and not node[2]:
            return [(_BACK, [])]
        if kind == "call" and node[1].lower() in ("print", "text", "str", "string") and len(node[2]) == 1:
            return self._values_of(node[2][0])
        if kind == "call" and "." not in node[1] and node[1].lower() not in _KNOWN_CALLS:
            raise _NotExpr()  # `Chapter (1)`: no function the engine knows, so a name as written
        raise Opaque("계산식인")

    def _var_values(self, name: str) -> list[tuple[str, list]]:
        if not name.startswith("$"):
            raise Opaque("변수가 아닌 값을 쓰는")
        key = name[1:]
        values = self.values.get(key)
        if key in self.unknown or not values or len(values) > _MAX_VALUES:
            raise Opaque("값을 다 알 수 없는 변수를 쓰는")
        kinds = {type(v) for v in values}
        out = []
        for v in values:
            text = ("true" if v else "false") if isinstance(v, bool) else str(v)
            value_node = ("bool", v) if isinstance(v, bool) else ("int", v) if isinstance(v, int) else ("str", str(v))
            node = ("cmp", "==", ("name", key), value_node) if len(kinds) == 1 and not isinstance(v, float) \
                else Opaque("여러 종류의 값을 가지는 변수를 따지는")
            shown = f'"{v}"' if isinstance(v, str) else text
            out.append((text, [(node, f"{name} is {shown}")]))
        return out

    def _template(self, raw: str) -> list[tuple[str, list]]:
        """A Harlowe link target with markup in it (``$colour door``, ``(print: $n)``):
        its text for each combination of the values its parts take."""
        pieces: list[list[tuple[str, list]]] = []
        pos = 0
        for m in re.finditer(r"(?<![\w$])[$_][^\W\d]\w*|\(([A-Za-z][\w-]*)\s*:", raw):
            if m.start() < pos:
                continue
            if m.start() > pos:
                pieces.append([(raw[pos:m.start()], [])])
            if m.group(1) is not None:
                if _norm(m.group(1)) not in ("print", "text", "str", "string"):
                    raise Opaque("매크로가 든")
                close = _close_paren(raw, m.end(), [_MACRO_LIMIT])
                if close < 0:
                    raise Opaque("괄호가 닫히지 않은")
                try:
                    pieces.append(self._values(raw[m.end():close]))
                except _NotExpr:
                    raise Opaque("읽지 못한 식이 든") from None
                pos = close + 1
                continue
            if raw.startswith("'s", m.end()):
                raise Opaque("데이터 묶음의 값을 쓰는")
            if m.group().startswith("_"):
                raise Opaque("임시 변수를 쓰는")
            pieces.append(self._var_values(m.group()))
            pos = m.end()
        if pos < len(raw):
            pieces.append([(raw[pos:], [])])
        out: list[tuple[str, list]] = [("", [])]
        for options in pieces:
            if len(out) * len(options) > _MAX_VALUES:
                raise Opaque("경우가 너무 많은")
            out = [(a + b, pa + pb) for a, pa in out for b, pb in options]
        return [(v.strip(), parts) for v, parts in out]

    # ------------------------------------------------------------------ reading passages

    def _walk(self, p: _Passage, mode: str, init: bool = False) -> None:
        out: list = []
        ctx = _Ctx(p, p.name, mode, None, out, (p.name,), None, [_EXPANSIONS], init)
        toks = self._toks[id(p)]
        _Reading(self, ctx, toks, 0, len(toks)).run()
        self._foreign(p)
        if mode == "scene":
            # a (go-to:) or <<goto>> leaves the passage whatever links it shows: the
            # automatic branches come first, then the links in reading order
            self.entries.extend([e for auto, e in out if auto] + [e for auto, e in out if not auto])

    def _read_raw(self, p: _Passage) -> None:
        """A passage that is not story markup (JavaScript, a style sheet, ``StoryData``):
        the variables its JavaScript reads and writes; its link-like lines are text."""
        if "script" in p.tags:
            ctx = _Ctx(p, p.name, "special", None, [], (p.name,))
            self._js(ctx, p.body, 0, None, None)
            why = "자바스크립트 안의 글이라 링크로 읽지 않았습니다."
        else:
            why = f"{josa(code(p.name), '은/는')} 이야기 글이 아닌 패시지라 그 안의 글은 링크로 읽지 않았습니다."
        self._account_region(p, 0, p.body, why)

    def _account_region(self, p: _Passage, at: int, text: str, why: str) -> None:
        if not CONSTRUCT.search(text):
            return
        offset = at
        for part in text.split("\n"):
            if CONSTRUCT.search(part):
                self.b.account(p.file, p.line_of(offset), why)
            offset += len(part) + 1

    def _foreign(self, p: _Passage) -> None:
        """Lines that look like the other story format's links are text in this one."""
        if self.family == "both":
            return
        pattern = {"harlowe": _SUGAR_ONLY, "sugar": _HARLOWE_ONLY, "links": CONSTRUCT}[self.family]
        if not pattern.search(p.body):
            return
        why = (f"이야기 형식 {quote_code(self.story_format)}에서는 매크로가 아닌 글자라 분기로 옮기지 않았습니다."
               if self.family != "links" else f"이야기 형식 {quote_code(self.story_format)}의 매크로는 읽지 않았습니다.")
        offset = 0
        for part in p.body.split("\n"):
            if pattern.search(part) and not (self.family == "links" and "[[" in part):
                self.b.account(p.file, p.line_of(offset), why)
            offset += len(part) + 1

    def _emit(self, ctx: _Ctx, cond: Cond, pairs: list, opaque: str | None, kind: str, line: int,
              text: str | None, once: bool = False) -> None:
        """Branches to ``pairs`` (and an opaque jump when ``opaque`` holds the construct
        as written) from the scene ``ctx`` reads for."""
        if ctx.mode == "special":
            self.b.issue(ctx.p.file, line, f"특별한 패시지({quote_code(ctx.owner)})에 있는 링크는 모든 패시지에 붙거나 시작 전에 도는 "
                                           "것이라 분기로 옮기지 않았습니다.")
            return
        if ctx.mode == "widget":
            self.b.account(ctx.p.file, line, "위젯 정의 안의 링크라 위젯을 부르는 패시지마다 그 패시지의 분기로 옮겼습니다.")
            return
        auto = kind == "auto"
        base = len(ctx.base.parts) if ctx.base else 0
        for name, extra in pairs:
            if base:
                parts = cond.parts + (extra.parts if extra else [])
                if not self._satisfiable(parts) and self._satisfiable(parts[base:]):
                    # read through an include whose own condition rules this link out: on that
                    # way the link is never shown (it is, where the passage is read otherwise)
                    self.b.account(ctx.p.file, line, "끌어 쓴 자리의 조건과 이 링크의 조건이 함께 참일 수 없어, 그 자리에서는 "
                                                     "나오지 않는 링크라 분기로 옮기지 않았습니다.")
                    continue
            if _EXTERNAL.match(name):
                self.b.account(ctx.p.file, line, f"{josa(quote_code(name), '은/는')} 웹 주소라 패시지 사이의 분기가 아닙니다.")
                continue
            if name == _BACK:
                self.b.account(ctx.p.file, line, "`previous()`로 가는 링크는 지나온 패시지로 되돌아가는 것이라 새 길을 더하지 않아 "
                                                 "분기로 옮기지 않았습니다.")
                continue
            ctx.out.append((auto, (ctx.owner, name, cond.plus(extra), kind, ctx.p.file, line, once, text, "")))
        if opaque is not None:
            ctx.out.append((auto, (ctx.owner, None, cond, kind, ctx.p.file, line, once, text, opaque[:200])))

    def _satisfiable(self, parts: list) -> bool:
        """:func:`_satisfiable`, remembered, and given up (``True``: nothing is pruned)
        after a bounded number of new questions, so that no story makes it slow."""
        key = tuple(_atom(node) for node, _ in parts)
        done = self._sat.get(key)
        if done is None:
            if len(self._sat) >= _SAT_QUESTIONS:
                return True
            done = self._sat[key] = _satisfiable(parts)
        return done

    def _link(self, ctx: _Ctx, cond: Cond, tok: _Tok, line: int) -> None:
        if tok.name in ("img", "data-passage"):
            text, target = None, tok.body
        else:
            text, target = _split_link(tok.body, self.family)
        if tok.setter:
            self._apply_writes(ctx, self._writes(tok, ctx), line)
        if _EXTERNAL.match(target):
            self.b.account(ctx.p.file, line, f"링크 {josa(quote_code(target), '은/는')} 웹 주소로 가는 링크라 패시지 사이의 분기가 아닙니다.")
            return
        self._reads(ctx, target, line)
        pairs, opaque = self._targets(target, ctx, "link")
        self._emit(ctx, cond, pairs, ctx.p.body[tok.start:tok.end] if opaque else None, "choice", line, text)

    def _over_budget(self, ctx: _Ctx, cond: Cond, line: int, source: str) -> None:
        if ctx.mode == "scene":
            self.b.issue(ctx.p.file, line, f"위젯과 끌어 쓰기(`<<include>>`, `(display:)`)가 {_EXPANSIONS}번 넘게 겹쳐 이 자리부터는 "
                                           "펼치지 않고 어디로 갈지 모르는 길로 적었습니다.")
        self._emit(ctx, cond, [], source, "choice", line, None)


#: functions of SugarCube, Twine 1 and Harlowe a link target may call
_KNOWN_CALLS = {"either", "random", "randomfloat", "passage", "previous", "lastvisited", "visited", "visitedtags",
                "tags", "turns", "time", "print", "text", "str", "string", "upperfirst", "lowerfirst", "uppercase",
                "lowercase", "substring", "source", "nth", "cond", "a", "array", "dm", "ds", "history", "count"}
#: the target of a link to ``previous()``: back where the reader came from
_BACK = "\x00previous"
_SUGAR_ONLY = re.compile(r"<<\s*(?:link|button|goto|back|return|choice|actions|click)\b|\[[<>]?img\[", re.I)
_HARLOWE_ONLY = re.compile(r"\((?:link-?goto|click-?goto|link-?reveal-?goto|mouse-?(?:over|out)-?goto|go-?to|redirect"
                           r"|(?:link-?|click-?|icon-?)?undo)\s*:", re.I)


class _Reading:
    """One reading of a run of tokens (a passage, an included passage, a widget's body)
    with its own stack of hooks and blocks."""

    def __init__(self, tw: _Twee, ctx: _Ctx, toks: list[_Tok], i0: int, i1: int):
        self.tw, self.ctx, self.toks, self.i0, self.i1 = tw, ctx, toks, i0, i1
        self.stack: list[_Frame] = []
        self.last_chain: dict[int, list] = {}
        # nesting past the bound is counted, not kept: what it guards is not claimed
        self.over = [0, False]
        self.closers: set[str] = set()
        for t in toks[i0:i1]:
            if t.kind == "close":
                self.closers.add(t.name)
            elif t.kind == "sc" and t.name.lower().startswith("end"):
                self.closers.add(t.name.lower()[3:])

    # -- the state

    def cond(self) -> Cond:
        parts = list(self.ctx.base.parts) if self.ctx.base else []
        parts += [(f.cond, f.source) for f in self.stack if f.cond is not None]
        if self.over[0]:
            parts.append((Opaque(f"{MAX_NESTING}겹보다 깊이 중첩된"), "(…)"))
        return Cond(parts)

    def push(self, frame: _Frame) -> None:
        if len(self.stack) >= MAX_NESTING:
            if not self.over[1]:
                self.over[1] = True
                if self.ctx.mode != "widget":
                    self.tw.b.issue(self.ctx.p.file, self.ctx.p.line, f"훅이나 블록이 {MAX_NESTING}겹보다 깊게 중첩되어 그 안쪽 분기의 "
                                                                      "조건은 알 수 없는 조건으로 적었습니다.")
            self.over[0] += 1
            return
        self.stack.append(frame)

    def close(self, name: str) -> bool:
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k].closer == name:
                del self.stack[k:]
                return True
        return False

    def goto_kind(self) -> tuple[str, str | None]:
        """A go-to inside a link (or a timer) is that link's choice; elsewhere it is automatic."""
        for f in reversed(self.stack):
            if f.kind in ("link", "timed"):
                return "choice", f.text
        return self.ctx.chooser or ("auto", None)

    def chooser(self) -> tuple | None:
        kind, text = self.goto_kind()
        return (kind, text) if kind == "choice" else None

    def source(self, tok: _Tok) -> str:
        return self.ctx.p.body[tok.start:tok.end]

    # -- the tokens

    def run(self) -> None:
        tw, ctx, p = self.tw, self.ctx, self.ctx.p
        for i in range(self.i0, self.i1):
            tok = self.toks[i]
            kind = tok.kind
            if kind == "skip":
                tw._account_region(p, tok.at, tok.body, "주석이나 그대로 보여 주는 글 안이라 링크로 읽지 않았습니다.")
                continue
            line = p.line_of(tok.start)
            if kind == "var":
                if not tok.name.startswith("_"):
                    tw._read_var(ctx, tok.name, line)
            elif kind == "link":
                tw._link(ctx, self.cond(), tok, line)
            elif kind == "imgonly":
                tw.b.account(p.file, line, "가는 곳이 없는 그림이라 링크가 아닙니다.")
            elif kind == "badlink":
                tw.b.issue(p.file, line, "링크를 여는 `[[`가 같은 줄에서 `]]`로 닫히지 않아 링크로 읽지 않았습니다.")
            elif kind == "badsc":
                if CONSTRUCT.match(p.body, tok.start):
                    tw.b.issue(p.file, line, "매크로를 여는 `<<`가 `>>`로 닫히지 않아 이 매크로는 글자로 읽었습니다.")
            elif kind == "badmacro":
                if tw.family == "harlowe" or CONSTRUCT.match(p.body, tok.start):
                    tw.b.issue(p.file, line, "매크로의 괄호가 닫히지 않아 이 매크로는 글자로 읽었습니다." if tok.why == "open" else
                               f"매크로의 괄호가 {MAX_NESTING}겹보다 깊게 중첩되어 이 매크로는 글자로 읽었습니다.")
            elif kind == "budget":
                tw.b.issue(p.file, p.line, "패시지에 닫히지 않은 매크로가 너무 많아 뒤쪽의 매크로는 글자로 읽었습니다.")
            elif kind == "js":
                kind_text = self.goto_kind()
                tw._js(ctx, tok.body, tok.at, self.cond(), kind_text if kind_text[0] == "choice" else None)
                tw._account_region(p, tok.start, p.body[tok.start:tok.end], "자바스크립트 안의 글이라 링크로 읽지 않았습니다.")
            elif kind == "hopen":
                self.push(_Frame("plain", closer="]"))
            elif kind == "hclose":
                if self.over[0]:
                    self.over[0] -= 1
                elif self.stack and self.stack[-1].closer == "]":
                    self.stack.pop()
            elif kind == "close":
                if self.over[0]:
                    self.over[0] -= 1
                else:
                    self.close(tok.name)
                source = self.source(tok)
                if CONSTRUCT.search(source):
                    tw._account_region(p, tok.start, source, "닫는 매크로 안의 글이라 분기로 옮기지 않았습니다.")
            elif kind in ("hm", "sc"):
                before = (len(ctx.out), len(tw.b.issues), len(tw.b.accounted))
                if kind == "hm":
                    self.harlowe(tok, line)
                else:
                    self.sugar(tok, line)
                source = self.source(tok)
                if CONSTRUCT.search(tok.args) or (before == (len(ctx.out), len(tw.b.issues), len(tw.b.accounted))
                                                  and CONSTRUCT.search(source)):
                    # what looks like a link inside the arguments of a macro that makes no way on
                    tw.b.account(p.file, line, f"매크로 {quote_code(source[:2] + tok.name)}의 인자 안에 든 글이라 분기로 옮기지 "
                                               "않았습니다.")
                cut = source.find("\n")
                if cut >= 0:  # a macro over several lines: what looks like a link further down is its argument
                    tw._account_region(p, tok.start + cut + 1, source[cut + 1:],
                                       f"{line}번째 줄에서 시작한 매크로의 인자 안이라 그 매크로로 읽었습니다.")

    # -- Harlowe

    def chain_cond(self, name: str, args: str) -> tuple[Any, str]:
        """The condition of ``(if:)``/``(unless:)``/``(else-if:)``/``(else:)`` and the
        chain it continues (Harlowe's ``else`` follows the hook before it)."""
        tw, ctx = self.tw, self.ctx
        depth = len(self.stack)
        if name in ("if", "unless"):
            node = tw._translate(args, ctx)
            if name == "unless":
                node = negate(node)
            self.last_chain[depth] = [node]
            return node, (args if name == "if" else f"not ({args})")
        chain = self.last_chain.get(depth, [])
        before = none_of(chain)
        if name == "else":
            return before, "else"
        node = tw._translate(args, ctx)
        self.last_chain[depth] = chain + [node]
        return _and(before, node), args

    def harlowe(self, tok: _Tok, line: int) -> None:
        tw, ctx, p = self.tw, self.ctx, self.ctx.p
        n = _norm(tok.name)
        args = ctx.subst(tok.args).strip()
        frame: _Frame | None = None
        if n in ("set", "put", "move", "unpack") or n in _H_INPUTS:
            tw._apply_writes(ctx, tw._writes(tok, ctx), line, top=not self.stack and ctx.base is None and n in ("set", "put"))
            if n in _H_INPUTS:
                self.args_links(n, args, line)
        else:
            tw._reads(ctx, args + " " + tok.chain, line)
            self.args_links(n, args, line)
        if n in ("if", "elseif", "unless", "else"):
            node, source = self.chain_cond(n, args)
            frame = _Frame("hook", node, source, closer="]")
        elif n in _LINK_HOOKS:
            parts = _split_args(args)
            text = literal(parts[0]) if parts else None
            frame = _Frame("link", text=text if isinstance(text, str) else None, closer="]")
        elif n in _GOTO_LINKS:
            parts = _split_args(args)
            target = parts[-1] if parts else ""
            shown = literal(parts[0]) if parts else None
            pairs, opaque = tw._targets(target, ctx, "expr")
            text = shown if isinstance(shown, str) else None
            tw._emit(ctx, self.cond(), pairs, self.source(tok) if opaque else None, "choice", line, text)
            frame = _Frame("link", text=text, closer="]")
        elif n in ("goto", "redirect"):
            kind, text = self.goto_kind()
            pairs, opaque = tw._targets(args, ctx, "expr")
            tw._emit(ctx, self.cond(), pairs, self.source(tok) if opaque else None, kind, line, text)
        elif n == "display":
            self.include(args, line, "(display:)")
        elif n in _UNDO:
            tw.b.account(p.file, line, f"{josa(quote_code('(' + tok.name + ':)'), '은/는')} 지나온 패시지로 되돌아가는 것이라 "
                                       "새 길을 더하지 않아 분기로 옮기지 않았습니다.")
        elif n in _RESTART:
            tw.b.account(p.file, line, f"{josa(quote_code('(' + tok.name + ':)'), '은/는')} 이야기를 처음부터 다시 시작하는 것이라 "
                                       "분기로 옮기지 않았습니다.")
        elif n in ("gotourl", "openurl"):
            tw.b.account(p.file, line, "웹 주소로 가는 매크로라 패시지 사이의 분기가 아닙니다.")
        elif n in _TIMED:
            frame = _Frame("timed", closer="]")
        elif n in _LOOPS:
            frame = _Frame("for", Opaque("반복(`(for:)`) 안에서 몇 번 도는지에 달린"), f"({tok.name}: {args})", closer="]")
        elif n == "linkstorylet":
            tw._emit(ctx, self.cond(), [], self.source(tok), "choice", line, None)
        elif tok.name[:1] in "$_":
            # a macro the story keeps in a variable ((macro:)): it may jump when its code does
            if tw.harlowe_macros.get(tok.name[1:]) or "[[" in args:
                tw._emit(ctx, self.cond(), self.named(args), self.source(tok), "choice", line, None)
        if tok.hook:
            self.push(frame or _Frame("plain", closer="]"))

    def args_links(self, n: str, args: str, line: int) -> None:
        """``[[links]]`` written inside a macro's arguments."""
        tw, ctx = self.tw, self.ctx
        if n in ("print", "text", "str", "string", "=", "-") and ('"' in args or "'" in args):
            self.printed(args, line, f"<<{n} …>>" if n in ("=", "-") or n in _SC_BUILTINS else f"({n}: …)")
            return
        if "[[" not in args:
            return
        if n in ("set", "put", "move", "unpack", "unset", "remember", "if", "elseif", "unless", "else", "switch", "case", "run"):
            tw.b.account(ctx.p.file, line, "매크로 인자 속 글자에 든 링크라 그 자리의 분기로 옮기지 않았습니다.")
            return
        shown_as = f"<<{n} …>>" if n in ("=", "-") or n in _SC_BUILTINS else f"({n}: …)"
        cond = self.cond().and_(Opaque("매크로 인자 안의 링크가 보이는지가 매크로에 달린"), shown_as)
        for m in _LINK.finditer(args):
            body, setter = m.group(1), None
            if "][" in body:
                body, setter = body.split("][", 1)
            tw._link(ctx, cond, _Tok("link", 0, 0, body=body, setter=setter), line)

    def printed(self, args: str, line: int, shown_as: str) -> None:
        """The markup in the strings a print macro shows (``<<print either("[[A]]",
        "[[B]]")>>``): read as text of the passage, at the macro's line; one string of
        several, or one picked at random, is shown under a condition we cannot write."""
        tw, ctx, p = self.tw, self.ctx, self.ctx.p
        strings = [m.group() for m in _STRINGS.finditer(args)]
        random = len(strings) > 1 or re.search(r"either|random", args, re.I)
        for quoted in strings:
            content = re.sub(r"\\(.)", r"\1", quoted[1:-1])
            if not CONSTRUCT.search(content) and "<<" not in content and "data-passage" not in content:
                continue
            if ctx.budget[0] <= 0:
                tw._over_budget(ctx, self.cond(), line, shown_as)
                return
            ctx.budget[0] -= 1
            cond = self.cond()
            if random:
                cond = cond.and_(Opaque("여러 글 가운데 하나를 골라 보여 주는"), shown_as)
            shown = _Passage(p.name, p.tags, line, content, file=p.file, lines=[line] * (content.count("\n") + 1))
            sub = _Ctx(shown, ctx.owner, ctx.mode, cond, ctx.out, ctx.including, ctx.args, ctx.budget, ctx.init,
                       self.chooser())
            toks = _tokenize(content, tw.family)
            _Reading(tw, sub, toks, 0, len(toks)).run()

    def named(self, args: str) -> list[tuple[str, None]]:
        """The passages a macro's arguments name (``[[P]]``, ``"P"``)."""
        names = [_split_link(m.group(1).split("][")[0], self.tw.family)[1] for m in _LINK.finditer(args)]
        names += [v for v in (literal(s) for s in _STRINGS.findall(args)) if isinstance(v, str)]
        out: list[tuple[str, None]] = []
        for name in names:
            if name in self.tw.passages and (name, None) not in out:
                out.append((name, None))
        return out

    # -- SugarCube (and Twine 1)

    def sugar(self, tok: _Tok, line: int) -> None:
        tw, ctx, p = self.tw, self.ctx, self.ctx.p
        n = tok.name.lower()
        n = tw.aliases.get(n, n)
        args = ctx.subst(tok.args).strip()
        if n.startswith("end") and any(f.closer == n[3:] for f in self.stack):
            self.close(n[3:])  # Twine 1 and SugarCube 1: <<endif>>, <<endsilently>> …
            return
        if n.startswith("end") and self.over[0] and n[3:] in self.closers:
            self.over[0] -= 1
            return
        if n in ("set", "unset", "remember") or n in _SC_INPUTS:
            tw._apply_writes(ctx, tw._writes(tok, ctx), line, top=not self.stack and ctx.base is None and n in ("set", "put"))
        else:
            tw._reads(ctx, args, line)
        if n in ("set", "unset", "remember", "if", "elseif", "switch", "case", "print", "=", "-"):
            self.args_links(n, args, line)
        if n == "if":
            node = tw._translate(args, ctx)
            self.push(_Frame("if", node, args, chain=[node], closer="if"))
        elif n in ("elseif", "else"):
            a = args.strip()
            if n == "else" and re.match(r"if\b", a):
                n, a = "elseif", a[2:].strip()
            if self.over[0]:
                return  # the block it continues was too deep to keep
            k = next((k for k in range(len(self.stack) - 1, -1, -1) if self.stack[k].kind == "if"), None)
            if k is None:
                return
            del self.stack[k + 1:]
            f = self.stack[k]
            before = none_of(f.chain)
            if n == "else":
                f.cond, f.source = before, "else"
            else:
                node = tw._translate(a, ctx)
                f.cond, f.source = _and(before, node), a
                f.chain.append(node)
        elif n == "switch":
            self.push(_Frame("switch", None, "", subject=args, closer="switch"))
        elif n in ("case", "default"):
            if self.over[0] or not self.stack or self.stack[-1].kind != "switch":
                return
            f = self.stack[-1]
            before = none_of(f.chain)
            if n == "default":
                f.cond, f.source = before, "default"
            else:
                values = _split_values(args)
                node = None
                for v in values:
                    one = tw._translate(f"({f.subject}) == ({v})", ctx)
                    node = one if node is None else (one if isinstance(one, Opaque) else node if isinstance(node, Opaque) else ("or", node, one))
                node = node if node is not None else Opaque("값이 없는 case가 든")
                f.cond, f.source = _and(before, node), " or ".join(f"{f.subject} == {v}" for v in values)
                f.chain.append(node)
        elif n == "for":
            self.push(_Frame("for", Opaque("반복문(`<<for>>`) 안에서 몇 번 도는지에 달린"), f"<<for {args}>>", closer="for"))
        elif n in _SC_LINKS:
            text = self.sugar_link(tok, args, line, n, once=False)
            if not _LINK.search(args) and len(_split_values(args)) < 2 and n in ("link", "button", "click"):
                tw.b.account(p.file, line, f"{josa(quote_code('<<' + tok.name + '>>'), '은/는')} 가는 패시지 없이 본문만 실행하는 "
                                           "링크라, 본문 안의 이동만 분기로 옮겼습니다.")
            if n in self.closers:
                self.push(_Frame("link", text=text, closer=n))
        elif n == "goto":
            kind, text = self.goto_kind()
            self.sugar_target(tok, args, line, kind, text)
        elif n == "choice":
            link = _LINK.search(args)
            if link:
                self.sugar_link(tok, args, line, n, once=False)
            else:
                parts = _split_values(args)
                shown = literal(parts[1]) if len(parts) > 1 else literal(parts[0]) if parts else None
                self.sugar_target(tok, parts[0] if parts else "", line, "choice", shown if isinstance(shown, str) else None)
        elif n == "actions":
            for part in _split_values(args):
                if part.startswith("[["):
                    self.sugar_link(tok, part, line, n, once=True)
                else:
                    shown = literal(part)
                    self.sugar_target(tok, part, line, "choice", shown if isinstance(shown, str) else None, once=True)
        elif n in ("back", "return"):
            if _LINK.search(args):
                self.sugar_link(tok, args, line, n, once=False)
            else:
                tw.b.account(p.file, line, f"{josa(quote_code('<<' + tok.name + '>>'), '은/는')} 지나온 패시지로 되돌아가는 것이라 "
                                           "새 길을 더하지 않아 분기로 옮기지 않았습니다.")
        elif n in ("include", "display"):
            parts = _split_values(args)
            self.include(parts[0] if parts else "", line, f"<<{tok.name}>>")
        elif n == "run":
            self.run_js(tok, args, line)
        elif n in _SC_INPUTS:
            parts = _split_values(args)
            if n in ("textbox", "numberbox") and len(parts) >= 3:
                # pressing Enter goes to the passage given last
                self.sugar_target(tok, parts[2], line, "choice", None)
            if _LINK.search(args):
                self.sugar_link(tok, args, line, n, once=False)
        elif n in ("timed", "repeat"):
            if n in self.closers:
                self.push(_Frame("timed", closer=n))
        elif n in ("cycle", "listbox"):
            parts = _split_values(args)
            m = re.match(r"""["']?\$([^\W\d][\w.]*)""", parts[0]) if parts else None
            if n in self.closers:
                self.push(_Frame("options", subject=m.group(1) if m else "", closer=n))
        elif n in ("option", "optionsfrom"):
            options = next((f for f in reversed(self.stack) if f.kind == "options"), None)
            if options is not None and options.subject:
                parts = _split_values(args)
                value = literal(parts[1] if len(parts) > 1 else parts[0]) if parts and n == "option" else None
                effect = ("values", [value]) if value is not None else ("opaque",)
                tw._apply_writes(ctx, [(options.subject, effect, f"<<{tok.name}{tok.args}>>", "")], line)
        elif n == "widget":
            self.push(_Frame("plain", closer="widget"))
        elif tok.name in tw.widgets:
            self.widget(tok.name, args, line, tok)
            if n in self.closers:
                self.push(_Frame("plain", closer=n))
        elif n in tw.macro_targets and len(_split_values(args)) > tw.macro_targets[n]:
            kind, text = self.goto_kind()
            self.sugar_target(tok, _split_values(args)[tw.macro_targets[n]], line, kind, text)
        elif n in tw.includers:
            parts = _split_values(args)
            self.include(parts[0] if parts else "", line, f"<<{tok.name}>>")
        elif tok.name in tw.passages and n not in tw.macros and n not in _SC_BUILTINS:
            # Twine 1: <<name>> shows the passage of that name, as <<display>>
            quoted = f'"{tok.name}"' if '"' not in tok.name else f"'{tok.name}'"
            self.include(quoted, line, f"<<{tok.name}>>")
        elif n in ("print", "=", "-", "set", "unset", "remember", "elseif", "case"):
            pass
        else:
            # a macro of the story's own JavaScript, or one we do not know: it may jump
            # when its code does or when it is given a link (a macro defined nowhere we can
            # see, also when it is given a passage's name)
            unknown = n not in tw.macros and n not in _SC_BUILTINS
            if tw.macros.get(n) or "[[" in args or (unknown and self.named(args)):
                shown = next((v for v in (literal(s) for s in _STRINGS.findall(args)) if isinstance(v, str)), None)
                tw._emit(ctx, self.cond(), self.named(args), self.source(tok), "choice", line, shown)
            if n in self.closers:
                self.push(_Frame("plain", closer=n))

    def sugar_link(self, tok: _Tok, args: str, line: int, n: str, once: bool) -> str | None:
        """``<<link "Text" "P">>``, ``<<link [[Text|P]]>>`` and the like: the branch, and
        the link's text."""
        tw, ctx = self.tw, self.ctx
        m = _LINK.search(args)
        if m:
            body, setter = m.group(1), None
            if "][" in body:
                body, setter = body.split("][", 1)
            text: str | None
            text, target = _split_link(body, tw.family)
            if setter:
                tw._apply_writes(ctx, tw._sets(ctx.subst(setter), None), line)
            if _EXTERNAL.match(target):
                tw.b.account(ctx.p.file, line, f"링크 {josa(quote_code(target), '은/는')} 웹 주소로 가는 링크라 패시지 사이의 분기가 아닙니다.")
                return text
            pairs, opaque = tw._targets(target, ctx, "link")
            tw._emit(ctx, self.cond(), pairs, self.source(tok) if opaque else None, "choice", line, text, once)
            return text
        parts = _split_values(args)
        shown = literal(parts[0]) if parts else None
        text = shown if isinstance(shown, str) else (parts[0] if parts else None)
        if len(parts) >= 2 and n in ("link", "button", "click"):
            self.sugar_target(tok, parts[1], line, "choice", text, once)
        return text

    def sugar_target(self, tok: _Tok, arg: str, line: int, kind: str, text: str | None, once: bool = False) -> None:
        tw, ctx = self.tw, self.ctx
        if _EXTERNAL.match(literal(arg) if isinstance(literal(arg), str) else arg):
            tw.b.account(ctx.p.file, line, "웹 주소로 가는 링크라 패시지 사이의 분기가 아닙니다.")
            return
        pairs, opaque = tw._targets(arg, ctx, "expr")
        tw._emit(ctx, self.cond(), pairs, self.source(tok) if opaque else None, kind, line, text, once)

    def run_js(self, tok: _Tok, args: str, line: int) -> None:
        tw, ctx = self.tw, self.ctx
        kind_text = self.goto_kind()
        at = tok.at if args == tok.args else tok.start
        tw._js(ctx, args, at, self.cond(), kind_text if kind_text[0] == "choice" else None)
        for key, effect, source, rhs in tw._sets(args, None):
            if effect[0] == "opaque":
                tw._apply_writes(ctx, [(key, effect, source, rhs)], line)

    # -- text read elsewhere

    def include(self, arg: str, line: int, macro: str) -> None:
        """``<<include>>``/``(display:)``: the included passage's links are shown here,
        under the conditions around the include, each at its own line."""
        tw, ctx = self.tw, self.ctx
        if ctx.mode == "widget":
            return
        cond = self.cond()
        pairs, opaque = tw._targets(arg, ctx, "expr")
        if opaque:
            tw._emit(ctx, cond, [], f"{macro} {arg}", "choice", line, None)
        for name, extra in pairs:
            target = tw.passages.get(name)
            toks = tw._toks.get(id(target)) if target is not None else None
            if toks is None or name in ctx.including or len(ctx.including) > _MAX_INCLUDE_DEPTH:
                why = "가 가리키는 패시지를 찾지 못해" if toks is None else "가 패시지를 되풀이해 끌어와"
                tw.b.issue(ctx.p.file, line, f"매크로({quote_code(macro)}){why} 그 안의 분기는 옮기지 않았습니다.")
                continue
            if ctx.budget[0] <= 0:
                tw._over_budget(ctx, cond, line, f"{macro} {arg}")
                continue
            ctx.budget[0] -= 1
            tw.included.add(name)
            assert target is not None  # else no toks
            sub = _Ctx(target, ctx.owner, ctx.mode, cond.plus(extra), ctx.out, ctx.including + (name,), None, ctx.budget,
                       ctx.init, self.chooser())
            _Reading(tw, sub, toks, 0, len(toks)).run()

    def widget(self, name: str, args: str, line: int, tok: _Tok) -> None:
        """A widget's body read where the widget is called, with the call's arguments as
        ``_args``; a widget that calls itself is read once."""
        tw, ctx = self.tw, self.ctx
        if ctx.mode == "widget":
            return
        key = f"<<{name}>>"
        if key in ctx.including:
            return
        wp, a, b = tw.widgets[name]
        if len(ctx.including) > _MAX_INCLUDE_DEPTH or ctx.budget[0] <= 0:
            tw._over_budget(ctx, self.cond(), line, self.source(tok))
            return
        ctx.budget[0] -= 1
        sub = _Ctx(wp, ctx.owner, ctx.mode, self.cond(), ctx.out, ctx.including + (key,), _split_values(args),
                   ctx.budget, ctx.init, self.chooser())
        _Reading(tw, sub, tw._toks[id(wp)], a, b).run()


def _satisfiable(parts: list) -> bool:
    """Whether the conjunction of condition ``parts`` can hold when every comparison, flag
    and unreadable part is taken as a truth value of its own (so ``False`` is certain: the
    parts contradict each other whatever the flags' ranges); up to 10 such atoms."""
    atoms: dict[str, int] = {}
    nodes = [node for node, _ in parts]

    def collect(node: Any) -> bool:
        if isinstance(node, tuple) and node[0] in ("and", "or"):
            return collect(node[1]) and collect(node[2])
        if isinstance(node, tuple) and node[0] == "not":
            return collect(node[1])
        if isinstance(node, tuple) and node[0] == "bool":
            return True
        atoms.setdefault(_atom(node), len(atoms))
        return len(atoms) <= 10

    try:
        if not all(collect(n) for n in nodes):
            return True

        def value(node: Any, bits: int) -> bool:
            if isinstance(node, tuple) and node[0] == "and":
                return value(node[1], bits) and value(node[2], bits)
            if isinstance(node, tuple) and node[0] == "or":
                return value(node[1], bits) or value(node[2], bits)
            if isinstance(node, tuple) and node[0] == "not":
                return not value(node[1], bits)
            if isinstance(node, tuple) and node[0] == "bool":
                return bool(node[1])
            return bool(bits >> atoms[_atom(node)] & 1)

        return any(all(value(n, bits) for n in nodes) for bits in range(1 << len(atoms)))
    except RecursionError:  # pragma: no cover - conditions are bounded by MAX_NESTING
        return True


def _js_effect(op: str, rest: str) -> tuple:
    """The effect of ``State.variables.x <op> <rest>`` in JavaScript."""
    op = op.strip()
    if op in ("++", "--"):
        return ("step", ("+" if op == "++" else "-", 1))
    v = literal(rest.strip().rstrip(")"))
    if op in ("+=", "-=") and isinstance(v, int) and not isinstance(v, bool):
        return ("step", (op[0], v))
    if op == "=" and v is not None:
        return ("values", [v])
    return ("opaque",)


def _atom(node: Any) -> str:
    # two unreadable parts are never the same part, whatever they say
    return f"opaque-{id(node)}" if isinstance(node, Opaque) else repr(node)


def _and(before: Any, node: Any) -> Any:
    if before is None:
        return node
    if isinstance(before, Opaque):
        return before
    if isinstance(node, Opaque):
        return node
    return ("and", before, node)


def _split_link(body: str, family: str) -> tuple[str, str]:
    """``(text, target)`` of a link's body: Harlowe takes the rightmost ``->`` and the
    leftmost ``<-`` first, SugarCube and Twine 1 the ``|``."""
    seps = ("->", "<-", "|") if family == "harlowe" else ("|", "->", "<-")
    for sep in seps:
        if sep in body:
            if sep == "|":
                text, target = body.split("|", 1)
            elif sep == "->":
                text, target = body.rsplit("->", 1)
            else:
                target, text = body.split("<-", 1)
            return text.strip(), target.strip()
    return body.strip(), body.strip()


def _split_args(text: str) -> list[str]:
    return [a.strip() for a in _split_values(text, sep=",")]


def _split_values(text: str, sep: str | None = None) -> list[str]:
    """Split macro arguments at any of ``sep`` (``None``: whitespace) outside quotes and
    brackets (Harlowe's possessive ``'s`` is not a quote)."""
    parts, cur, quote, depth = [], [], None, 0
    for i, c in enumerate(text):
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
            continue
        if c in "\"'`" and not (c == "'" and _possessive(text, i)):
            quote = c
            cur.append(c)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if depth <= 0 and ((sep is None and c.isspace()) or (sep is not None and c in sep)):
            if "".join(cur).strip():
                parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


# ----------------------------------------------------------------------------- the line scanner


_STORY_DATA = re.compile(r"^::\s*StoryData\b", re.M)


def _passage_name(raw: str, twee1: bool) -> str:
    name = re.sub(r"\\(.)", r"\1", raw).strip()
    return name.strip(" :") if twee1 else name


_SCAN_HEADER = re.compile(r"^::\s*((?:[^\\\[\]{}]|\\.)*?)\s*(?:\[[^\]]*\])?\s*(?:\{.*\})?\s*$")


def scan_constructs(path: str | Path) -> list[Construct]:
    """Every passage header (``scene``, with its name) and every line holding a link, a
    go-to or a link macro (``branch``) of the Twine story at ``path`` (a Twee file, a
    folder of them, or a Twine HTML file), found line by line with regular expressions,
    apart from the importer: the import checks itself against this list."""
    from .files import story_files

    path = Path(path)
    if path.is_dir():
        files = story_files(path, "twee")
        if not files:
            html = _folder_html(path)
            files = [html] if html is not None else []
    else:
        files = [path]
    out: list[Construct] = []
    texts = []
    for f in files:
        try:
            texts.append((f, read_text(f)))
        except Exception:  # noqa: BLE001 - the importer says why the file cannot be read
            continue
    twee1 = not any(_STORY_DATA.search(text) for _, text in texts)
    for f, text in texts:
        name = str(f)
        if f.name.lower().endswith(twine_html.HTML_SUFFIXES) or twine_html.looks_like_html(text):
            out.extend(_scan_html(name, text))
            continue
        for no, line in enumerate(text.split("\n"), 1):
            if line.startswith("::"):
                m = _SCAN_HEADER.match(line)
                out.append(Construct(name, no, "scene", line.strip()[:200], _passage_name(m.group(1), twee1) if m else None))
            elif CONSTRUCT.search(line):
                out.append(Construct(name, no, "branch", line.strip()[:200]))
    return out


def _scan_html(name: str, text: str) -> list[Construct]:
    import bisect
    import html as _html

    out: list[Construct] = []
    starts = [0] + [m.end() for m in re.finditer("\n", text)]
    for pattern, key in ((r"<tw-passagedata\b([^<>]*)>(.*?)</tw-passagedata\s*>", "name"),
                         (r"<div\b([^<>]*\btiddler\s*=[^<>]*)>(.*?)</div\s*>", "tiddler")):
        for m in re.finditer(pattern, text, re.I | re.S):
            am = re.search(rf"""\b{key}\s*=\s*(?:"([^"]*)"|'([^']*)')""", m.group(1), re.I)
            if am is None:
                continue
            passage = _html.unescape(am.group(1) if am.group(1) is not None else am.group(2))
            out.append(Construct(name, bisect.bisect_right(starts, m.start()), "scene", m.group(0)[:120].split("\n")[0],
                                 passage))
            first = bisect.bisect_right(starts, m.start(2))
            for k, raw in enumerate(m.group(2).split("\n")):
                body = _html.unescape(raw)
                if CONSTRUCT.search(body):
                    out.append(Construct(name, first + k, "branch", " ".join(body.split())[:200]))
    out.sort(key=lambda c: c.line)
    return out
