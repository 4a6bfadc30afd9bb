"""Twine 2 stories in Twee 3 (Harlowe and SugarCube) → the three tables.

Scenes: passages (``StoryTitle``, ``StoryData``, ``StoryInit`` and the other special
passages, and passages tagged ``startup``/``header``/``footer``/``script``/
``stylesheet``/``widget``, are skipped; their assignments still type the flags).  The
entry is ``StoryData``'s ``start`` (else ``Start``); an ending is a passage tagged
``ending`` (configurable) or one without any way on.  Branches: ``[[links]]``,
``(link-goto:)``, ``(link:)``/``(click:)`` hooks and ``<<link>>`` bodies are
``choice``; ``(go-to:)``/``<<goto>>`` outside a link are ``auto``.  Conditions come
from the ``(if:)``/``(else-if:)``/``(else:)``/``(unless:)`` hooks and the
``<<if>>``/``<<elseif>>``/``<<else>>``/``<<switch>>`` blocks around them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import (Cond, Dialect, MAX_NESTING, Opaque, StoryBuilder, literal, negate, none_of, quote_code,
                     read_text, story_texts, translate)

__all__ = ["import_twee", "import_twee_text", "import_twee_folder"]

_HEADER = re.compile(r"^::\s*((?:[^\\\[\]{}]|\\.)*?)\s*(?:\[([^\]]*)\])?\s*(\{.*\})?\s*$")
SPECIAL_NAMES = {"StoryTitle", "StoryData", "StoryInit", "StoryCaption", "StoryMenu", "StoryBanner", "StorySubtitle",
                 "StoryAuthor", "StoryInterface", "StoryShare", "PassageReady", "PassageDone", "PassageHeader",
                 "PassageFooter", "StorySettings", "StoryIncludes"}
SPECIAL_TAGS = {"startup", "header", "footer", "script", "stylesheet", "widget", "debug-startup", "debug-header",
                "debug-footer", "Twine.private", "Twine.image"}

_TOKEN = re.compile(r"""
    (?P<setlink>\[\[(?P<sl_body>[^\[\]\n]{0,1000})\]\[(?P<sl_set>[^\]\n]{0,1000})\]\])
  | (?P<link>\[\[(?P<l_body>[^\[\]\n]{0,1000})\]\])
  | (?P<scclose><</\s*(?P<scc_name>[\w-]+)\s*>>)
  | (?P<sc><<\s*(?P<sc_name>[\w-]+)(?P<sc_args>(?:[^>"'\n<]|<(?!<)|"[^"\n]*"|'[^'\n]*'|>(?!>))*)>>)
  | (?P<hmacro>\((?P<h_name>[A-Za-z][\w-]*):)
  | (?P<hopen>\[)
  | (?P<hclose>\])
""", re.VERBOSE)

_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "is": "==", "isnot": "!=",
          "eq": "==", "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "contains": "contains",
          "to": "to"}


def import_twee(path: Path, ending_tag: str = "ending", name: str | None = None) -> StoryBuilder:
    return import_twee_text(read_text(path), name or str(path), ending_tag)


def import_twee_text(text: str, file: str, ending_tag: str = "ending") -> StoryBuilder:
    return _Twee(file, ending_tag).run([(file, text)])


def import_twee_folder(folder: Path, ending_tag: str = "ending") -> StoryBuilder:
    """Every Twee file of ``folder`` (``.twee``, ``.tw``; sorted by name) read as one
    story, as Tweego compiles a folder: the passages of all files together, each scene,
    branch and issue pointing at its own file and line; a passage name used in two files
    is an issue naming both places (Tweego stops there)."""
    return _Twee(str(folder), ending_tag).run(story_texts(folder, "twee"))


@dataclass
class _Passage:
    name: str
    tags: list[str]
    line: int
    body: str
    special: bool = False
    file: str = ""


@dataclass
class _Frame:
    kind: str  # hook | if | link | switch | for | plain
    cond: Any = None
    source: str = ""
    link: str | None = None
    chain: list = field(default_factory=list)
    closer: str | None = None


class _Twee:
    def __init__(self, file: str, ending_tag: str):
        self.file = file
        self.ending_tag = ending_tag
        self.b = StoryBuilder("twee", file)
        self.passages: dict[str, _Passage] = {}
        self.story_format = ""
        self.start: str | None = None
        self.current: _Passage | None = None
        self.string_values: dict[str, list[str]] = {}
        self.dialect = Dialect(_WORDS, self._resolve, self._call)
        self._translated: dict[tuple[str, str], Any] = {}
        self.included: set[str] = set()

    def run(self, sources: list[tuple[str, str]]) -> StoryBuilder:
        """Read the passages of every ``(file, text)`` of one story, then the story."""
        order: list[_Passage] = []
        for file, text in sources:
            self.file = file
            self._passages(file, text, order)
        data = self.passages.get("StoryData")
        # what concerns the whole story is said at StoryData, else at the top of the first file
        self.file = data.file if data is not None else sources[0][0]
        if data is not None:
            try:
                meta = json.loads(data.body or "{}")
                self.story_format = str(meta.get("format", ""))
                self.start = meta.get("start")
            except (ValueError, AttributeError):
                self.b.issue(self.file, data.line, "StoryData의 JSON을 읽지 못해 시작 패시지를 이름이 Start인 패시지로 잡았습니다.")
        if self.story_format and self.story_format.lower() not in ("harlowe", "sugarcube"):
            self.b.issue(self.file, data.line if data else 1, f"이야기 형식 {quote_code(self.story_format)}의 매크로는 옮기지 않고 `[[링크]]`만 옮겼습니다.")
        stories = [p for p in order if not p.special]
        if self.start is None or self.start not in self.passages:
            if self.start is not None:
                self.b.issue(self.file, data.line if data else 1, f"StoryData의 시작 패시지({quote_code(self.start)})가 없어 시작 장면을 다른 패시지로 잡았습니다.")
            self.start = "Start" if "Start" in self.passages else (stories[0].name if stories else None)
        # special passages first: StoryInit and startup give the flags their first values
        for p in order:
            if p.special and p.name not in ("StoryTitle", "StoryData") and not {"script", "stylesheet"} & set(p.tags):
                self.current = p
                self._walk(p, emit=False)
        for p in stories:
            self.b.scene(p.name, p.name, p.file, p.line, entry=p.name == self.start,
                         ending=self.ending_tag in p.tags)
        for p in stories:
            self.current = p
            before = len(self.b.branches)
            self._walk(p, emit=True)
            if len(self.b.branches) == before and self.ending_tag not in p.tags:
                self.b.scenes[p.name].is_ending = True
        # a passage that is only ever included is a fragment of its hosts, not a place of its own
        linked = {br[1] for br in self.b.branches} | {self.start}
        fragments = {name for name in self.included if name not in linked}
        if fragments:
            self.b.branches = [br for br in self.b.branches if br[0] not in fragments]
            for name in fragments:
                self.b.scenes.pop(name, None)
        return self.b

    def _passages(self, file: str, text: str, order: list[_Passage]) -> None:
        cur: _Passage | None = None
        body: list[str] = []
        for no, line in enumerate(text.split("\n"), 1):
            if line.startswith("::"):
                if cur is not None:
                    cur.body = "\n".join(body)
                m = _HEADER.match(line)
                if not m:
                    self.b.issue(file, no, "패시지 머리줄을 읽지 못해 이 패시지는 건너뛰었습니다.")
                    cur = None
                    continue
                name = re.sub(r"\\(.)", r"\1", m.group(1)).strip()
                tags = (m.group(2) or "").split()
                cur = _Passage(name, tags, no, "", file=file)
                body = []
                first = self.passages.get(name)
                if first is not None:
                    if first.file == file:
                        self.b.issue(file, no, f"같은 이름의 패시지({quote_code(name)})가 앞에 또 있어 뒤의 것은 읽지 않았습니다.")
                    else:
                        self.b.issue(file, no, f"같은 이름의 패시지({quote_code(name)})가 {first.file} {first.line}번째 줄에도 있어 "
                                               "이 파일의 것은 읽지 않았습니다 (Tweego도 이름이 겹치면 멈춥니다).")
                    cur = None
                    continue
                cur.special = name in SPECIAL_NAMES or any(t in SPECIAL_TAGS for t in tags)
                self.passages[name] = cur
                order.append(cur)
            elif cur is not None:
                body.append(line)
        if cur is not None:
            cur.body = "\n".join(body)

    # ------------------------------------------------------------------ conditions

    def _resolve(self, name: str):
        low = name.lower()
        if low in ("visits", "visit"):
            return ("visit", self.current.name)
        if low == "it" or name.startswith("_") and len(name) > 1 and False:
            raise Opaque("it 같은 문맥 값을 쓰는")
        return None

    def _call(self, name: str, args: list):
        low = name.lower()
        if low == "history" and not args:
            return ("history",)
        if low in ("visited", "visitedtags") and low == "visited":
            if not args:
                return ("visit", self.current.name)
            if len(args) == 1 and args[0][0] == "str":
                return ("visit", args[0][1])
        if low == "hasvisited" and len(args) == 1 and args[0][0] == "str":
            return ("cmp", ">", ("visit", args[0][1]), ("int", 0))
        if low in ("random", "either", "randomfloat"):
            raise Opaque("무작위 값이 든")
        raise Opaque(f"함수 호출({name})이 든")

    def _translate(self, text: str) -> Any:
        key = (text, self.current.name if self.current else "")
        done = self._translated.get(key)
        if done is None:
            done = self._translated[key] = self._translate_new(text)
        return done

    def _translate_new(self, text: str) -> Any:
        # Harlowe macros inside a condition, such as (history:) and (visited: "P"), read as calls
        text = re.sub(r"\(([A-Za-z][\w-]*):", lambda m: m.group(1).replace("-", "_") + "(", text)
        return translate(text, self.dialect)

    # ------------------------------------------------------------------ the passage text

    def _walk(self, p: _Passage, emit: bool, owner: str | None = None, base: Cond | None = None,
              sink: tuple[list, list] | None = None, including: tuple[str, ...] = ()) -> None:
        """Read one passage's text.  An included passage (``<<include>>``,
        ``(display:)``) is read into its host: ``owner`` is the host's name, ``base`` the
        conditions around the include, ``sink`` the host's branch lists."""
        outer = self.file
        self.file = p.file
        try:
            self._read_passage(p, emit, owner, base, sink, including)
        finally:
            self.file = outer

    def _read_passage(self, p: _Passage, emit: bool, owner: str | None, base: Cond | None,
                      sink: tuple[list, list] | None, including: tuple[str, ...]) -> None:
        text = p.body
        owner = owner or p.name
        including = including + (p.name,)
        stack: list[_Frame] = []
        last_chain: dict[int, list] = {}
        pos = 0
        line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

        def line_of(offset: int) -> int:
            lo, hi = 0, len(line_starts) - 1
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if line_starts[mid] <= offset:
                    lo = mid
                else:
                    hi = mid - 1
            return p.line + 1 + lo

        def cond() -> Cond:
            parts = list(base.parts) if base else []
            parts += [(f.cond, f.source) for f in stack if f.cond is not None]
            if over[0]:
                parts.append((Opaque(f"{MAX_NESTING}겹보다 깊이 중첩된"), "(…)"))
            return Cond(parts)

        # a (go-to:) or <<goto>> leaves the passage whatever links it shows: the automatic
        # branches come first, then the links in reading order
        autos: list[tuple] = sink[0] if sink else []
        choices: list[tuple] = sink[1] if sink else []

        def include(arg: str, line: int, macro: str) -> None:
            name = literal(arg.strip())
            inner = re.match(r"\s*\[\[(.*?)\]\]\s*$", arg)
            if inner:
                name = _link_target(inner.group(1))
            target = self.passages.get(name) if isinstance(name, str) else None
            if target is None or name in including or len(including) > 8:
                if emit:
                    why = "가 가리키는 패시지를 찾지 못해" if target is None else "가 패시지를 되풀이해 끌어와"
                    self.b.issue(self.file, line, f"매크로({quote_code(macro)}){why} 그 안의 분기는 옮기지 않았습니다.")
                return
            # the included passage's links are shown here, under the conditions around the include
            self.included.add(target.name)
            self._walk(target, emit, owner, cond(), (autos, choices), including)

        # nesting past the bound is counted, not kept: what it guards is not claimed
        over = [0, False]

        def push(frame: _Frame) -> None:
            if len(stack) >= MAX_NESTING:
                if not over[1]:
                    over[1] = True
                    if emit:
                        self.b.issue(self.file, p.line, f"훅이나 블록이 {MAX_NESTING}겹보다 깊게 중첩되어 그 안쪽 분기의 조건은 알 수 없는 조건으로 적었습니다.")
                over[0] += 1
                return
            stack.append(frame)

        def in_link() -> bool:
            return any(f.kind == "link" for f in stack)

        def branch(target_text: str, kind: str, offset: int, computed: bool = False) -> None:
            if not emit:
                self.b.issue(self.file, line_of(offset), f"특별한 패시지({quote_code(p.name)})에 있는 링크는 모든 패시지에 붙거나 시작 전에 도는 것이라 분기로 옮기지 않았습니다.")
                return
            line = line_of(offset)
            for target, extra in self._targets(target_text, computed, line):
                (autos if kind == "auto" else choices).append((owner, target, cond().plus(extra), kind, self.file, line))

        while True:
            m = _TOKEN.search(text, pos)
            if m is None:
                break
            pos = m.end()
            kind = m.lastgroup if m.lastgroup in ("setlink", "link", "scclose", "sc", "hmacro", "hopen", "hclose") else None
            for g in ("setlink", "link", "scclose", "sc", "hmacro", "hopen", "hclose"):
                if m.group(g) is not None:
                    kind = g
                    break
            if kind in ("link", "setlink"):
                body = m.group("l_body") if kind == "link" else m.group("sl_body")
                target = _link_target(body)
                if kind == "setlink":
                    self._assignments(m.group("sl_set"), line_of(m.start()))
                computed = target[:1] in "$_" and self.story_format.lower() != "harlowe"
                branch(target, "choice", m.start(), computed)
                continue
            if kind == "hmacro":
                name = m.group("h_name").lower()
                args_end = _close_paren(text, m.end())
                if args_end < 0:
                    if emit:
                        self.b.issue(self.file, line_of(m.start()), "매크로의 괄호가 닫히지 않아 이 매크로는 글자로 읽었습니다.")
                    continue
                args = text[m.end():args_end].strip()
                pos = args_end + 1
                hook = re.match(r"[ \t]*\[", text[pos:])
                if hook and text.startswith("[[", pos + hook.end() - 1) and not text.startswith("[[[", pos + hook.end() - 1):
                    hook = None  # a [[link]] right after the macro, not a hook
                line = line_of(m.start())
                if name in ("if", "else-if", "elseif", "unless", "else"):
                    depth = len(stack)
                    if name in ("if", "unless"):
                        node = self._translate(args)
                        if name == "unless":
                            node = negate(node)
                        chain = [node]
                        frame_cond, source = node, (args if name == "if" else f"not ({args})")
                    else:
                        chain = last_chain.get(depth, [])
                        before = none_of(chain)
                        if name == "else":
                            frame_cond, source = before, "else"
                        else:
                            node = self._translate(args)
                            frame_cond = node if before is None else (before if isinstance(before, Opaque) else node if isinstance(node, Opaque) else ("and", before, node))
                            source = args
                            chain = chain + [node]
                    last_chain[depth] = chain
                    if hook:
                        push(_Frame("hook", frame_cond, source))
                        pos += hook.end()
                    continue
                if name in ("link", "click", "link-reveal", "link-repeat", "link-rerun", "click-replace",
                            "click-append", "click-prepend", "mouseover", "link-replace", "link-append", "link-prepend"):
                    if hook:
                        push(_Frame("link", None, "", link=args))
                        pos += hook.end()
                    continue
                if name in ("link-goto", "click-goto", "link-reveal-goto", "mouseover-goto"):
                    parts = _split_args(args)
                    tgt = parts[-1] if parts else ""
                    self._harlowe_target(tgt, "choice", m.start(), branch, line, emit)
                    if hook:
                        push(_Frame("plain"))
                        pos += hook.end()
                    continue
                if name in ("go-to", "goto"):
                    self._harlowe_target(args, "choice" if in_link() else "auto", m.start(), branch, line, emit)
                    continue
                if name in ("set", "put", "move"):
                    self._assignments(args, line, harlowe=name)
                    continue
                if name == "display":
                    include(args, line, "(display:)")
                    continue
                if name in ("undo", "link-undo", "redirect", "restart", "reload"):
                    if emit:
                        self.b.issue(self.file, line, f"매크로({quote_code('(' + name + ':)')})는 지나온 길이나 다른 패시지 내용에 따라 흐름이 달라져 분기로 옮기지 않았습니다.")
                    continue
                if hook:
                    push(_Frame("plain"))
                    pos += hook.end()
                continue
            if kind == "hopen":
                push(_Frame("plain", closer="]"))
                continue
            if kind == "hclose":
                if over[0]:
                    over[0] -= 1
                    continue
                if stack and stack[-1].kind in ("hook", "link", "plain") and stack[-1].closer in (None, "]"):
                    stack.pop()
                continue
            if kind == "sc":
                name = m.group("sc_name").lower()
                args = m.group("sc_args").strip()
                line = line_of(m.start())
                if name == "if":
                    node = self._translate(args)
                    push(_Frame("if", node, args, chain=[node], closer="if"))
                elif name in ("elseif", "else", "case", "default") and over[0]:
                    pass  # the block it continues was too deep to keep
                elif name in ("elseif", "else") and stack and stack[-1].kind == "if":
                    f = stack[-1]
                    before = none_of(f.chain)
                    if name == "else":
                        f.cond, f.source = before, "else"
                    else:
                        node = self._translate(args)
                        f.cond = node if before is None else (before if isinstance(before, Opaque) else node if isinstance(node, Opaque) else ("and", before, node))
                        f.source = args
                        f.chain.append(node)
                elif name == "switch":
                    push(_Frame("switch", None, "", link=args, closer="switch"))
                elif name in ("case", "default") and stack and stack[-1].kind == "switch":
                    f = stack[-1]
                    before = none_of(f.chain)
                    if name == "default":
                        f.cond, f.source = before, "default"
                    else:
                        values = _split_values(args)
                        node = None
                        for v in values:
                            n = self._translate(f"({f.link}) == ({v})")
                            node = n if node is None else (n if isinstance(n, Opaque) else node if isinstance(node, Opaque) else ("or", node, n))
                        node = node if node is not None else Opaque("값이 없는 case가 든")
                        f.cond = node if before is None else (before if isinstance(before, Opaque) else node if isinstance(node, Opaque) else ("and", before, node))
                        f.source = " or ".join(f"{f.link} == {v}" for v in values)
                        f.chain.append(node)
                elif name in ("for",):
                    push(_Frame("for", Opaque("반복문(`<<for>>`) 안에서 몇 번 도는지에 달린"), f"<<for {args}>>", closer="for"))
                elif name in ("link", "button"):
                    inner = re.match(r"\s*\[\[(.*?)\]\]", args)
                    push(_Frame("link", None, "", link=args, closer=name))
                    if inner:
                        branch(_link_target(inner.group(1)), "choice", m.start())
                    else:
                        parts = _split_values(args)
                        if len(parts) >= 2:
                            self._sugar_target(parts[1], "choice", m.start(), branch, line, emit)
                elif name == "goto":
                    inner = re.match(r"\s*\[\[(.*?)\]\]", args)
                    if inner:
                        branch(_link_target(inner.group(1)), "choice" if in_link() else "auto", m.start())
                    else:
                        self._sugar_target(args, "choice" if in_link() else "auto", m.start(), branch, line, emit)
                elif name in ("set", "run"):
                    self._assignments(args, line)
                elif name in ("unset",):
                    continue
                elif name in ("include", "display"):
                    include(args, line, f"<<{name}>>")
                elif name in ("back", "return", "actions", "choice", "click", "timed", "repeat"):
                    if emit:
                        self.b.issue(self.file, line, f"매크로({quote_code('<<' + name + '>>')})는 지나온 길이나 다른 패시지 내용, 시간에 따라 흐름이 달라져 분기로 옮기지 않았습니다.")
                continue
            if kind == "scclose":
                if over[0]:
                    over[0] -= 1
                    continue
                name = m.group("scc_name").lower()
                for k in range(len(stack) - 1, -1, -1):
                    if stack[k].closer == name:
                        del stack[k:]
                        break
                continue
        if sink is None:
            for args in autos + choices:
                self.b.branch(*args)

    def _harlowe_target(self, arg: str, kind: str, offset: int, branch, line: int, emit: bool) -> None:
        arg = arg.strip()
        v = literal(arg)
        if isinstance(v, str):
            branch(v, kind, offset)
        elif re.fullmatch(r"[$_][\w.]+", arg):
            branch(arg, kind, offset, computed=True)
        elif emit:
            self.b.issue(self.file, line, f"가는 곳이 계산식({quote_code(arg)})이라 어느 패시지인지 정하지 못해 이 분기는 옮기지 않았습니다.")

    _sugar_target = _harlowe_target

    def _targets(self, target: str, computed: bool, line: int) -> list[tuple[str, Cond | None]]:
        if not computed:
            return [(target, None)]
        key = target[1:]
        values = self.string_values.get(key, [])
        if not values:
            self.b.issue(self.file, line, f"가는 곳이 변수({quote_code(target)})인데 그 변수에 넣는 글자 값을 찾지 못해 이 분기는 옮기지 않았습니다.")
            return []
        return [(v, Cond([(("cmp", "==", ("name", key), ("str", v)), f"{target} is \"{v}\"")])) for v in values]

    def _assignments(self, text: str, line: int, harlowe: str | None = None) -> None:
        for part in _split_values(text, sep=","):
            part = part.strip()
            if harlowe == "put" or harlowe == "move":
                m = re.match(r"^(.*?)\s+into\s+([$_][\w.]+)\s*$", part)
                if m:
                    self._assign(m.group(2), "=", m.group(1), line)
                continue
            m = re.match(r"^([$_][\w.]+)\s*(to|=|\+=|-=|\+\+|--)\s*(.*)$", part)
            if m:
                self._assign(m.group(1), m.group(2), m.group(3), line)

    def _assign(self, var: str, op: str, value: str, line: int) -> None:
        key = var[1:]
        value = value.strip()
        if op in ("++", "--"):
            self.b.assign(key, ("+" if op == "++" else "-", 1), self.file, line)
            return
        if op in ("+=", "-="):
            v = literal(value)
            self.b.assign(key, (op[0], v) if isinstance(v, int) and not isinstance(v, bool) else None, self.file, line)
            return
        v = literal(value)
        if v is None:
            m = re.fullmatch(rf"(?:it|{re.escape(var)})\s*([+-])\s*(\d+)", value)
            self.b.assign(key, (m.group(1), int(m.group(2))) if m else None, self.file, line)
            return
        if isinstance(v, str):
            self.string_values.setdefault(key, [])
            if v not in self.string_values[key]:
                self.string_values[key].append(v)
        self.b.assign(key, v, self.file, line)


def _link_target(body: str) -> str:
    if "|" in body:
        return body.rsplit("|", 1)[1].strip()
    if "->" in body:
        return body.rsplit("->", 1)[1].strip()
    if "<-" in body:
        return body.split("<-", 1)[0].strip()
    return body.strip()


def _close_paren(text: str, start: int) -> int:
    depth = 1
    quote = None
    i = start
    while i < len(text):
        c = text[i]
        if quote:
            if c == "\\":
                i += 2
                continue
            if c == quote:
                quote = None
        elif c in "\"'":
            quote = c
        elif c == "(":
            depth += 1
            if depth > MAX_NESTING:
                return -1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return -1


def _split_args(text: str) -> list[str]:
    return [a.strip() for a in _split_values(text, sep=",")]


def _split_values(text: str, sep: str | None = None) -> list[str]:
    """Split macro arguments at ``sep`` (``None``: whitespace) outside quotes and brackets."""
    parts, cur, quote, depth = [], [], None, 0
    for c in text:
        if quote:
            cur.append(c)
            if c == quote:
                quote = None
            continue
        if c in "\"'":
            quote = c
            cur.append(c)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        if depth == 0 and ((sep is None and c.isspace()) or c == sep):
            if "".join(cur).strip():
                parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(c)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts
