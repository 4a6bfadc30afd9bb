"""ink (inkle's scripting language, ``.ink`` source) → the three tables.

Scenes: the top of the story (``(top)``, the entry), every knot (``knot``), stitch
(``knot.stitch``), labelled gather or choice (``knot.stitch.label``), unlabelled gather
(``knot.gather-12``), choice body that holds more than one way on (``knot.choice-12``)
and the continuation after a tunnel call (``knot.after-12``); ``END`` and ``DONE`` are
ending scenes.  Branches: diverts are ``auto`` in reading order, choices are ``choice``
(``once_only`` for ``*``), an invisible default choice (``* -> x``) is an ``auto``
fallback after the choices.  See ``docs/importers.md``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verdicts.errors import InputError

from .common import (Cond, Dialect, MAX_NESTING, Opaque, StoryBuilder, literal, negate, none_of, quote_code,
                     read_text, translate, unreadable)

__all__ = ["import_ink", "import_ink_text"]

_KNOT = re.compile(r"^\s*={2,}\s*(function\s+)?([^\W\d]\w*)\s*(\([^)]*\))?\s*=*\s*$")
_STITCH = re.compile(r"^\s*=\s*([^\W\d]\w*)\s*(\([^)]*\))?\s*$")
_CHOICE = re.compile(r"^\s*((?:[*+]\s*)+)(.*)$")
_GATHER = re.compile(r"^\s*((?:-(?!>)\s*)+)(.*)$")
_LABEL = re.compile(r"^\s*\(\s*([^\W\d]\w*)\s*\)")
_DECL = re.compile(r"^\s*(VAR|CONST)\s+([^\W\d]\w*)\s*=\s*(.*?)\s*$")
_LOGIC = re.compile(r"^\s*~\s*(.*)$")
_ASSIGN = re.compile(r"^(?:temp\s+)?([^\W\d]\w*)\s*(=|\+=|-=|\+\+|--)\s*(.*)$")
_DIVERT = re.compile(r"(->->|->)\s*([^\W\d][\w.]*)?(\s*\([^()]*\))?")
_SEQ_WORDS = ("stopping", "cycle", "shuffle", "once")


_INCLUDE = re.compile(r"^\s*INCLUDE\s+(.+?)\s*$")
#: files an ink story may include, at most (INCLUDE chains and cycles are bounded)
MAX_INCLUDES = 200


def import_ink(path: Path, name: str | None = None) -> "StoryBuilder":
    """Read ``path`` and every file it ``INCLUDE``s (relative to the including file),
    as one story whose scenes and branches point at their own file and line."""
    main = name or str(path)
    text = read_text(path)
    parts: list[tuple[str, str]] = [(main, text)]
    problems: list[tuple[str, int, str]] = []
    seen = {path.resolve()}
    queue = [(path, main, text)]
    while queue:
        here, shown, body = queue.pop(0)
        for no, line in enumerate(body.split("\n"), 1):
            m = _INCLUDE.match(line)
            if not m:
                continue
            target = here.parent / m.group(1)
            shown_target = str(Path(shown).parent / m.group(1))
            if target.resolve() in seen:
                continue
            if len(seen) >= MAX_INCLUDES:
                problems.append((shown, no, f"불러오는 파일이 {MAX_INCLUDES}개를 넘어 이 줄의 파일은 읽지 않았습니다."))
                continue
            try:
                included = read_text(target)
            except InputError as exc:
                problems.append((shown, no, f"이 줄이 불러오는 파일({quote_code(m.group(1))})을 읽지 못해({unreadable(exc, target)}) "
                                            "그 파일의 장면은 옮기지 않았습니다."))
                continue
            seen.add(target.resolve())
            parts.append((shown_target, included))
            queue.append((target, shown_target, included))
    builder = _Ink(main).run_files(parts)
    for file, line, reason in problems:
        builder.issue(file, line, reason)
    return builder


@dataclass
class _Item:
    kind: str  # content | choice | gather
    line: int
    text: str
    level: int = 0
    sticky: bool = False
    ctx: Cond = field(default_factory=Cond)
    label: str | None = None


@dataclass
class _Container:
    scene_id: str
    knot: str | None
    stitch: str | None
    line: int
    items: list[_Item] = field(default_factory=list)
    function: bool = False


def _strip_comments(text: str) -> list[str]:
    """Lines with ``//`` and ``/* */`` comments blanked (line numbers kept)."""
    out = []
    in_block = False
    for raw in text.split("\n"):
        if not in_block and "/" not in raw:
            out.append(raw.rstrip())  # the common line: no comment can start in it
            continue
        line = []
        i = 0
        in_str = False
        while i < len(raw):
            if in_block:
                end = raw.find("*/", i)
                if end < 0:
                    i = len(raw)
                    break
                in_block = False
                i = end + 2
                continue
            ch = raw[i]
            if ch == '"':
                in_str = not in_str
            if not in_str and raw.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if not in_str and raw.startswith("//", i):
                break
            line.append(ch)
            i += 1
        out.append("".join(line).rstrip())
    return out


def import_ink_text(text: str, file: str) -> StoryBuilder:
    """One ink text (``INCLUDE`` lines are reported, not followed)."""
    return _Ink(file).run(text)


class _Ink:
    def __init__(self, file: str):
        self.file = file
        self.b = StoryBuilder("ink", file)
        self.containers: list[_Container] = []
        self.symbols: dict[str, str] = {}  # full path -> scene id
        self.knots: dict[str, _Container] = {}
        self.consts: dict[str, Any] = {}
        self.vars: set[str] = set()
        self.divert_values: dict[str, list[str]] = {}
        self.tunnel_calls: list[tuple[str, str, int]] = []  # (target scene, continuation, line)
        self.tunnel_returns: list[tuple[str, str | None, int]] = []  # (scene, knot, line)
        self.container: _Container | None = None
        self.dialect = Dialect({"and": "and", "or": "or", "not": "not", "true": "true", "false": "false",
                                "mod": "%", "has": "?", "hasnt": "?"}, self._resolve, self._call)
        self.used_ends: set[str] = set()
        self.origin: list[tuple[str, int]] = []
        self.starts: set[int] = set()
        self.following = False

    # ------------------------------------------------------------------ pass 1: structure

    def run_files(self, parts: list[tuple[str, str]]) -> StoryBuilder:
        """Several files as one story: their lines are read one after the other (each
        included file starts again at the top level), then every position is mapped back
        to its own file and line."""
        lines: list[str] = []
        self.origin = []
        self.starts = set()
        for file, text in parts:
            own = _strip_comments(text)
            self.starts.add(len(lines) + 1)
            self.origin.extend((file, k) for k in range(1, len(own) + 1))
            lines.extend(own)
        self.following = True
        self._run_lines(lines)
        self._map_back()
        return self.b

    def _ln(self, line: int) -> int:
        """The line within its own file (ids and titles use it)."""
        return self.origin[line - 1][1] if self.origin and 0 < line <= len(self.origin) else line

    def _map_back(self) -> None:
        if not self.origin:
            return
        def where(file, line):
            if file == self.file and line is not None and 0 < line <= len(self.origin):
                return self.origin[line - 1]
            return file, line
        for scene in self.b.scenes.values():
            scene.source_file, scene.source_line = where(scene.source_file, scene.source_line)
        branches = []
        for from_scene, to_scene, cond, kind, file, line, once, via in self.b.branches:
            f2, l2 = where(file, line)
            via2 = where(file, via)[1] if via is not None else None
            branches.append((from_scene, to_scene, cond, kind, f2, l2, once, via2))
        self.b.branches = branches
        self.b.issues = [i.replace(**dict(zip(("file", "line"), where(i.file, i.line)))) for i in self.b.issues]
        for facts in self.b.flags.values():
            if facts.first is not None:
                facts.first = where(*facts.first)

    def run(self, text: str) -> StoryBuilder:
        return self._run_lines(_strip_comments(text))

    def _run_lines(self, lines: list[str]) -> StoryBuilder:
        self._prescan(lines)
        top = _Container("(top)", None, None, 1)
        self.containers.append(top)
        cur = top
        knot: _Container | None = None
        self.container = cur
        blocks: list[dict] = []  # open multi-line { } blocks
        for no, line in enumerate(lines, 1):
            if no in self.starts and no > 1:
                # an included file starts again at the top level
                cur, knot, blocks = top, None, []
                self.container = cur
            stripped = line.strip()
            if not stripped:
                continue
            m = _KNOT.match(line)
            if m and not blocks:
                name = m.group(2)
                cur = knot = self.container = _Container(name, name, None, no, function=bool(m.group(1)))
                self.containers.append(cur)
                continue
            m = _STITCH.match(line)
            if m and not blocks and knot is not None and not stripped.startswith("=="):
                sid = f"{knot.knot}.{m.group(1)}"
                cur = self.container = _Container(sid, knot.knot, m.group(1), no, function=knot.function)
                self.containers.append(cur)
                continue
            if _DECL.match(line):
                continue
            word = stripped.split(None, 1)[0]
            if word == "LIST":
                self.b.issue(self.file, no, "LIST 선언은 목록 값을 다루는데 우리 플래그는 참거짓·정수·열거형뿐이라 옮기지 않았고, 이 목록을 쓰는 조건은 알 수 없는 조건으로 남습니다.")
                continue
            if word == "INCLUDE":
                if self.following:
                    continue  # read by import_ink, after this file
                self.b.issue(self.file, no, f"다른 파일을 불러오는 줄({quote_code(stripped)})은 따라가지 않았으니, 그 파일의 장면이 필요하면 그 파일도 따로 가져와 주세요.")
                continue
            if word == "EXTERNAL":
                continue
            m = _LOGIC.match(line)
            if m:
                self._logic(m.group(1), no)
                continue
            # multi-line conditional blocks: {cond:  - case:  - else:  }
            if blocks and re.match(r"^\s*-(?!>)", line):
                handled, rest = self._case(blocks, stripped)
                if handled:
                    if rest.strip():
                        cur.items.append(_Item("content", no, rest, ctx=self._ctx(blocks)))
                    continue
            if stripped == "}" and blocks:
                blocks.pop()
                continue
            if self._open_block(line, no, blocks):
                continue
            m = _CHOICE.match(line)
            if m:
                bullets = m.group(1)
                rest = m.group(2)
                lm = _LABEL.match(rest)
                label = lm.group(1) if lm else None
                if lm:
                    rest = rest[lm.end():]
                cur.items.append(_Item("choice", no, rest, bullets.count("*") + bullets.count("+"), "+" in bullets,
                                       self._ctx(blocks), label))
                continue
            m = _GATHER.match(line)
            if m and not blocks:
                rest = m.group(2)
                lm = _LABEL.match(rest)
                label = lm.group(1) if lm else None
                if lm:
                    rest = rest[lm.end():]
                cur.items.append(_Item("gather", no, rest, m.group(1).count("-"), label=label))
                continue
            cur.items.append(_Item("content", no, line, ctx=self._ctx(blocks)))
        if blocks:
            self.b.issue(self.file, blocks[-1]["line"], "여기서 연 중괄호 블록이 파일 끝까지 닫히지 않아, 그 안의 조건은 블록이 파일 끝까지 이어진다고 보고 옮겼습니다.")
        return self._emit()

    def _prescan(self, lines: list[str]) -> None:
        """Names first (knots, stitches, labels, VAR, CONST), so that conditions and
        diverts can name what comes later in the file."""
        knot: str | None = None
        function = False
        container: str | None = None
        for no, line in enumerate(lines, 1):
            if no in self.starts and no > 1:
                knot, function, container = None, False, None
            m = _KNOT.match(line)
            if m:
                knot, function = m.group(2), bool(m.group(1))
                container = knot
                if not function:
                    self._symbol(knot, knot, no)
                continue
            m = _STITCH.match(line)
            if m and knot is not None and not line.strip().startswith("=="):
                container = f"{knot}.{m.group(1)}"
                if not function:
                    self._symbol(container, container, no)
                continue
            m = _DECL.match(line)
            if m:
                self._declare(m.group(1), m.group(2), m.group(3), no)
                continue
            m = _CHOICE.match(line) or _GATHER.match(line)
            if m and not function:
                lm = _LABEL.match(m.group(2))
                if lm:
                    path = f"{container or '(top)'}.{lm.group(1)}"
                    self._symbol(path, path, no)

    def _symbol(self, path: str, scene_id: str, line: int) -> None:
        if path in self.symbols:
            self.b.issue(self.file, line, f"같은 이름({quote_code(path)})이 이미 앞에서 쓰여, 뒤의 것은 다른 장면으로 따로 읽지 않았습니다.")
            return
        self.symbols[path] = scene_id

    def _declare(self, kind: str, name: str, value_text: str, line: int) -> None:
        dm = re.fullmatch(r"->\s*([^\W\d][\w.]*)", value_text)
        if dm:
            self.vars.add(name)
            self.divert_values.setdefault(name, []).append(dm.group(1))
            return
        value = literal(value_text)
        if kind == "CONST":
            if value is None:
                self.b.issue(self.file, line, f"상수 {quote_code(name)}의 값({quote_code(value_text)})이 글자 그대로의 값이 아니라 조건에 넣지 못했습니다.")
                return
            self.consts[name] = value
            return
        self.vars.add(name)
        if value is None:
            self.b.issue(self.file, line, f"변수 {quote_code(name)}의 처음 값({quote_code(value_text)})이 글자 그대로의 값이 아니라 범위를 대입문으로만 잡았습니다.")
            self.b.flag(name, name, self.file, line)
        else:
            self.b.declare(name, value, self.file, line, label=name)

    def _logic(self, text: str, line: int) -> None:
        m = _ASSIGN.match(text.strip())
        if not m:
            return
        name, op, value = m.group(1), m.group(2), m.group(3).strip()
        if name == "return":
            return
        if op == "=":
            dm = re.fullmatch(r"->\s*([^\W\d][\w.]*)", value)
            if dm:
                self.divert_values.setdefault(name, []).append(dm.group(1))
                return
            v = literal(value)
            if v is None:
                im = re.fullmatch(rf"{re.escape(name)}\s*([+-])\s*(\d+)", value)
                self.b.assign(name, (im.group(1), int(im.group(2))) if im else None, self.file, line)
            else:
                self.b.assign(name, v, self.file, line)
        elif op in ("++", "--"):
            self.b.assign(name, ("+" if op == "++" else "-", 1), self.file, line)
        else:
            v = literal(value)
            self.b.assign(name, (op[0], v) if isinstance(v, int) and not isinstance(v, bool) else None, self.file, line)

    # multi-line blocks: {cond:  - case:  - else:  }
    def _open_block(self, line: str, no: int, blocks: list[dict]) -> bool:
        s = line.strip()
        if not s.startswith("{") or s.count("{") <= s.count("}"):
            return False
        if len(blocks) >= MAX_NESTING:
            self.b.issue(self.file, no, f"중괄호 블록이 {MAX_NESTING}겹보다 깊어 안쪽 조건은 옮기지 않았습니다.")
            blocks.append({"line": no, "type": "seq", "head": None, "cases": [], "cur": Opaque("너무 깊이 중첩된")})
            return True
        head = s[1:].strip()
        block: dict[str, Any] = {"line": no, "cases": [], "cur": None, "head": None, "type": "plain"}
        if head.endswith(":"):
            head = head[:-1].strip()
            words = head.split()
            if words and all(w in _SEQ_WORDS for w in words):
                block["type"] = "seq"
                block["cur"] = Opaque("차례나 무작위로 고르는 대안(sequence/shuffle)이 든")
            else:
                block["type"] = "if"
                block["head"] = head
                block["cur"] = translate(head, self.dialect)
                block["cases"].append(block["cur"])
                block["source"] = head
        elif head:
            # text on the opening line that is not a condition: keep it as content
            return False
        blocks.append(block)
        return True

    def _case(self, blocks: list[dict], stripped: str) -> tuple[bool, str]:
        block = blocks[-1]
        body = stripped[1:].strip()
        if block["type"] == "seq":
            return True, body
        m = re.match(r"^([^:]*?)\s*:(.*)$", body)
        if not m:
            return False, ""
        case, rest = m.group(1).strip(), m.group(2)
        if case == "else":
            block["cur"] = none_of(block["cases"]) or ("bool", True)
            block["source"] = "else"
            return True, rest
        if block["type"] == "if" and not block.get("switch"):
            # `{x:` followed by `- 1:` cases is a switch on x
            block["switch"] = True
            block["cases"] = []
        if block.get("switch"):
            node = translate(f"({block['head']}) == ({case})", self.dialect)
            source = f"{block['head']} == {case}"
        else:
            node = translate(case, self.dialect)
            source = case
        before = none_of(block["cases"])
        if isinstance(node, Opaque) or isinstance(before, Opaque):
            cur = node if isinstance(node, Opaque) else before
        else:
            cur = node if before is None else ("and", before, node)
        block["cases"].append(node)
        block["cur"] = cur
        block["source"] = source
        return True, rest

    def _ctx(self, blocks: list[dict]) -> Cond:
        cond = Cond()
        for block in blocks:
            if block["cur"] is not None and block["cur"] != ("bool", True):
                cond = cond.and_(block["cur"], block.get("source") or "")
        return cond

    # ------------------------------------------------------------------ names

    def _resolve(self, name: str):
        if name in self.consts:
            v = self.consts[name]
            return ("bool", v) if isinstance(v, bool) else ("int", v) if isinstance(v, int) else ("str", v) if isinstance(v, str) else ("float", str(v))
        if name in self.vars:
            return ("name", name)
        scene = self._target(name, quiet=True)
        if scene is not None:
            return ("visit", scene)
        return ("name", name)

    def _call(self, name: str, args: list):
        if name == "READ_COUNT" and len(args) == 1 and args[0][0] == "divert":
            scene = self._target(args[0][1], quiet=True)
            if scene is not None:
                return ("visit", scene)
        if name in ("RANDOM", "SEED_RANDOM", "SHUFFLE"):
            raise Opaque("무작위 값이 든")
        if name in ("TURNS", "TURNS_SINCE", "CHOICE_COUNT"):
            raise Opaque(f"실행 중에만 알 수 있는 값({name})이 든")
        raise Opaque(f"함수 호출({name})이 든")

    def _target(self, name: str, quiet: bool = False) -> str | None:
        """The scene id a divert target names, from the current container's scope."""
        if name in ("END", "DONE"):
            return name
        c = self.container
        candidates = []
        if c is not None:
            candidates.append(f"{c.scene_id}.{name}")
            if c.knot:
                candidates.append(f"{c.knot}.{name}")
        candidates.append(name)
        for cand in candidates:
            if cand in self.symbols:
                return self.symbols[cand]
        if "." not in name:
            hits = [sid for path, sid in self.symbols.items() if path.endswith("." + name)
                    and c is not None and c.knot and path.startswith(c.knot + ".")]
            if len(hits) == 1:
                return hits[0]
        return None

    # ------------------------------------------------------------------ pass 2: flow

    def _emit(self) -> StoryBuilder:
        b = self.b
        top = self.containers[0]
        b.scene("(top)", "이야기 시작", self.file, 1, entry=True)
        for c in self.containers:
            if c.function:
                continue
            self.container = c
            if c is not top:
                title = c.scene_id
                b.scene(c.scene_id, title, self.file, c.line)
            flow_items = [i for i in c.items if i.kind != "logic"]
            if c is not top and c.stitch is None and not flow_items:
                first = next((s for s in self.containers if s.knot == c.knot and s.stitch is not None), None)
                if first is not None:
                    b.branch(c.scene_id, first.scene_id, None, "auto", self.file, c.line)
                    continue
            self._weave(flow_items, 1, c.scene_id, None, c.line)
        # tunnel returns go back to every place that called into the tunnel's knot
        for scene, knot, line in self.tunnel_returns:
            conts = [(cont, cl) for target, cont, cl in self.tunnel_calls
                     if target == knot or (knot is not None and target.startswith(knot + "."))]
            if not conts:
                b.issue(self.file, line, "터널에서 돌아가는 화살표가 있지만 이 터널을 부르는 곳이 없어 돌아갈 장면을 정하지 못했습니다.")
            for cont, _ in conts:
                b.branch(scene, cont, None, "choice" if len(conts) > 1 else "auto", self.file, line)
        for end in sorted(self.used_ends):
            b.scene(end, f"이야기 끝 (-> {end})", None, None, ending=True)
        return b

    def _weave(self, items: list[_Item], level: int, scene: str, after: str | None, line: int) -> None:
        """One weave: sections split at gathers of this level."""
        if level > MAX_NESTING:
            self.b.issue(self.file, line, f"선택지가 {MAX_NESTING}겹보다 깊게 중첩되어 안쪽은 옮기지 않았습니다.")
            return
        sections: list[tuple[_Item | None, list[_Item]]] = [(None, [])]
        for item in items:
            if item.kind == "gather" and item.level <= level:
                sections.append((item, []))
            else:
                sections[-1][1].append(item)
        ids = [scene] + [self._gather_id(g) for g, _ in sections[1:]]
        for k, (gather, body) in enumerate(sections):
            sec_scene = ids[k]
            nxt = ids[k + 1] if k + 1 < len(sections) else after
            if gather is not None:
                title = gather.label or f"{self.container.scene_id} {self._ln(gather.line)}번째 줄의 모임"
                self.b.scene(sec_scene, title, self.file, gather.line)
                body = [_Item("content", gather.line, gather.text)] + body if gather.text.strip() else body
            last_line = body[-1].line if body else (gather.line if gather else line)
            self._section(body, level, sec_scene, nxt, last_line)

    def _gather_id(self, g: _Item) -> str:
        if g.label:
            return f"{self.container.scene_id}.{g.label}"
        return f"{self.container.scene_id}.gather-{self._ln(g.line)}"

    def _section(self, body: list[_Item], level: int, scene: str, nxt: str | None, last_line: int) -> None:
        lead: list[_Item] = []
        choices: list[tuple[_Item, list[_Item]]] = []
        for item in body:
            if item.kind == "choice" and (item.level <= level or not choices):
                choices.append((item, []))
            elif choices:
                choices[-1][1].append(item)
            else:
                lead.append(item)
        cur = scene
        falls = True
        for item in lead:
            cur, stopped = self._content(item, cur)
            falls = falls and not stopped
        fallbacks = []
        for choice, cbody in choices:
            if self._is_fallback(choice):
                fallbacks.append((choice, cbody))
                continue
            self._choice(choice, cbody, level, cur, nxt)
        for choice, cbody in fallbacks:
            self._choice(choice, cbody, level, cur, nxt, kind="auto")
        if not choices and falls:
            if nxt is not None:
                self.b.branch(cur, nxt, None, "auto", self.file, last_line)
            else:
                self.b.issue(self.file, last_line, "흐름이 여기서 내용 끝에 닿는데 끝내는 화살표(`-> END`, `-> DONE`)도, 선택지도, 다른 곳으로 가는 화살표도 없어 이 장면을 끝에 못 가는 곳으로 두었습니다.")

    @staticmethod
    def _is_fallback(choice: _Item) -> bool:
        text = re.sub(r"^\s*(\{[^{}]*\}\s*)*", "", choice.text)
        return text.strip().startswith("->") or not text.strip()

    def _choice(self, choice: _Item, body: list[_Item], level: int, scene: str, nxt: str | None,
                kind: str = "choice") -> None:
        text = choice.text
        cond = Cond(list(choice.ctx.parts))
        while True:
            m = re.match(r"^\s*\{([^{}]*)\}", text)
            if not m:
                break
            cond = cond.and_(translate(m.group(1), self.dialect), m.group(1).strip())
            text = text[m.end():]
        title = re.sub(r"\s*->.*$", "", text).replace("[", "").replace("]", "").strip() or f"{self._ln(choice.line)}번째 줄의 선택지"
        chain = self._chains(text, Cond())
        flow_body = [i for i in body if i.kind in ("choice", "gather") or self._has_flow(i)]
        once = not choice.sticky and kind == "choice"
        # the body's one way on, when it has exactly one: an unconditional plain divert
        chains = [(c, choice.line) for c in chain] + [(c, i.line) for i in flow_body if i.kind == "content"
                                                      for c in self._chains(i.text, i.ctx)]
        only = None
        if (len(chains) == 1 and not chains[0][0][0] and not chains[0][0][1]["tunnels"] and chains[0][0][1]["final"]
                and not chains[0][0][1]["return"] and not chains[0][0][1]["threads"]
                and all(i.kind == "content" for i in flow_body)):
            only = chains[0][0][1]["final"]
        if choice.label is None and only is not None:
            for t, extra in self._resolve_target(only, chains[0][1]):
                self.b.branch(scene, t, cond.plus(extra), kind, self.file, choice.line, once, via=chains[0][1])
            return
        if choice.label is None and not flow_body and not chain and nxt is not None:
            self.b.branch(scene, nxt, cond, kind, self.file, choice.line, once)
            return
        sub = f"{self.container.scene_id}.{choice.label}" if choice.label else f"{self.container.scene_id}.choice-{self._ln(choice.line)}"
        self.b.scene(sub, title, self.file, choice.line)
        self.b.branch(scene, sub, cond, kind, self.file, choice.line, once)
        items = ([_Item("content", choice.line, text)] if chain else []) + body
        self._weave(items, level + 1, sub, nxt, choice.line)

    def _has_flow(self, item: _Item) -> bool:
        return item.kind in ("content",) and ("->" in item.text or "<-" in item.text)

    def _content(self, item: _Item, scene: str) -> tuple[str, bool]:
        """Emit the branches of one content line from ``scene``; returns the scene that
        later content continues in and whether the flow surely stops here."""
        stopped = False
        for cond, chain in self._chains(item.text, item.ctx):
            for t in chain["threads"]:
                for target, extra in self._resolve_target(t, item.line):
                    self.b.branch(scene, target, cond.plus(extra), "choice", self.file, item.line)
            if chain["tunnels"]:
                for t in chain["tunnels"]:
                    cont = f"{self.container.scene_id}.after-{self._ln(item.line)}"
                    n = 2
                    while cont in self.b.scenes:
                        cont = f"{self.container.scene_id}.after-{self._ln(item.line)}-{n}"
                        n += 1
                    for target, extra in self._resolve_target(t, item.line):
                        self.b.branch(scene, target, cond.plus(extra), "auto", self.file, item.line)
                        self.tunnel_calls.append((target, cont, item.line))
                    self.b.scene(cont, f"{self.container.scene_id} {self._ln(item.line)}번째 줄 터널에서 돌아온 뒤", self.file, item.line)
                    if cond:
                        self.b.branch(scene, cont, None, "auto", self.file, item.line)
                    scene = cont
                    cond = Cond()
            if chain["final"]:
                for target, extra in self._resolve_target(chain["final"], item.line):
                    self.b.branch(scene, target, cond.plus(extra), "auto", self.file, item.line)
                if not cond:
                    stopped = True
            if chain["return"]:
                self.tunnel_returns.append((scene, self.container.knot or self.container.scene_id, item.line))
                if not cond:
                    stopped = True
        return scene, stopped

    def _resolve_target(self, name: str, line: int) -> list[tuple[str, Cond | None]]:
        if name in self.divert_values:
            values = []
            for v in self.divert_values[name]:
                t = self._target(v) or v
                if t not in values:
                    values.append(t)
            if name not in self.vars:
                self.vars.add(name)
            for t in values:
                self.b.assign(name, t, self.file, line)
            return [(t, Cond([(("cmp", "==", ("name", name), ("str", t)), f"{name} == -> {t}")])) for t in values]
        if name in self.vars:
            self.b.issue(self.file, line, f"변수 {quote_code(name)}에 담긴 곳으로 가는 화살표인데 그 변수에 넣는 값을 찾지 못해, 이 화살표는 옮기지 않았습니다.")
            return []
        target = self._target(name)
        if target in ("END", "DONE"):
            self.used_ends.add(target)
        return [(target or name, None)]

    def _chains(self, text: str, ctx: Cond, depth: int = 0) -> list[tuple[Cond, dict]]:
        """The divert chains of ``text`` with the condition each one runs under
        (inline ``{cond: a|b}`` alternatives add their condition)."""
        out: list[tuple[Cond, dict]] = []
        if depth == 0 and "{" in text and _brace_depth(text) > MAX_NESTING:
            # too deep to take apart: its ways on are kept, under a condition we cannot know
            return [(ctx.and_(Opaque(f"{MAX_NESTING}겹보다 깊이 중첩된"), text.strip()[:60]), _chain_of(text))]
        plain = []
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "{":
                end = _matching(text, i)
                if end < 0:
                    plain.append(text[i:])
                    break
                inner = text[i + 1:end]
                if "->" in inner or "<-" in inner:
                    if depth >= MAX_NESTING:
                        out.append((ctx.and_(Opaque("너무 깊이 중첩된"), inner), _chain_of(inner)))
                    else:
                        out.extend(self._inline(inner, ctx, depth))
                plain.append(" ")
                i = end + 1
                continue
            plain.append(ch)
            i += 1
        rest = "".join(plain)
        chain = _chain_of(rest)
        if chain["final"] or chain["tunnels"] or chain["return"] or chain["threads"]:
            out.append((ctx, chain))
        return out

    def _inline(self, inner: str, ctx: Cond, depth: int) -> list[tuple[Cond, dict]]:
        colon = _top_level(inner, ":")
        if colon >= 0 and "->" not in inner[:colon]:
            head = inner[:colon].strip()
            alts = _split_top(inner[colon + 1:], "|")
            node = translate(head, self.dialect)
            out = []
            out.extend(self._chains(alts[0], ctx.and_(node, head), depth + 1))
            if len(alts) > 1:
                out.extend(self._chains("|".join(alts[1:]), ctx.and_(negate(node), f"not ({head})"), depth + 1))
            return out
        alts = _split_top(inner.lstrip("~&!"), "|")
        if len(alts) > 1:
            opaque = Opaque("차례나 무작위로 고르는 대안(sequence/shuffle)이 든")
            out = []
            for alt in alts:
                out.extend(self._chains(alt, ctx.and_(opaque, "{" + inner + "}"), depth + 1))
            return out
        return self._chains(inner, ctx, depth + 1)


def _brace_depth(text: str) -> int:
    depth = top = 0
    for c in text:
        if c == "{":
            depth += 1
            top = max(top, depth)
        elif c == "}":
            depth -= 1
    return top


def _matching(text: str, i: int) -> int:
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return -1


def _top_level(text: str, ch: str) -> int:
    depth = 0
    for j, c in enumerate(text):
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c == ch and depth == 0:
            if ch == ":" and text[j:j + 2] == "::":
                continue
            return j
    return -1


def _split_top(text: str, ch: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for j, c in enumerate(text):
        if c in "{(":
            depth += 1
        elif c in "})":
            depth -= 1
        elif c == ch and depth == 0:
            parts.append(text[start:j])
            start = j + 1
    parts.append(text[start:])
    return parts


def _chain_of(text: str) -> dict:
    """``-> a -> b ->``, ``->->``, ``<- t`` in one stretch of text."""
    chain: dict[str, Any] = {"tunnels": [], "final": None, "return": False, "threads": []}
    for m in re.finditer(r"<-\s*([^\W\d][\w.]*)", text):
        chain["threads"].append(m.group(1))
    text = re.sub(r"<-\s*([^\W\d][\w.]*)", " ", text)
    steps = [(m.group(1), m.group(2)) for m in _DIVERT.finditer(text)]
    for k, (arrow, target) in enumerate(steps):
        if arrow == "->->":
            chain["return"] = True
            continue
        if target is None:
            continue
        if k + 1 < len(steps):  # `-> t ->` and `-> t -> u`: a tunnel call
            chain["tunnels"].append(target)
        else:
            chain["final"] = target
    return chain
