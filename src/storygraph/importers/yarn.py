"""Yarn Spinner (``.yarn``) → the three tables, read as Yarn Spinner 3 runs it.

Scenes: nodes (``title:``), option bodies that hold more than one way on
(``Node.option-12``), the continuation after an option group or a ``<<detour>>``
(``Node.after-12``) and lines after a ``<<jump>>`` that no flow reaches
(``Node.line-30``); the end of the dialogue is the ending scene ``(end)``.  Entries:
every node that no jump reaches (the default, ``entries="unreached"``), or one named
node.  Branches: ``<<jump>>``, ``<<detour>>``/``<<return>>``, ``<<stop>>`` and the end of
a node are ``auto``; ``->`` options are ``choice``.

As Yarn Spinner runs it:

* ``<<detour Node>>`` runs ``Node`` and comes back to the line after the detour when
  ``Node`` ends or reaches ``<<return>>``; a node that only detours reach goes back to
  every such line (a ``choice`` among them when there are several: the caller, not a
  flag, decides), a node that a jump reaches (or that starts the dialogue) ends the
  dialogue there (a jump clears the return stack), and ``<<stop>>`` always does;
* a **node group** — nodes sharing one title, each with ``when:`` headers — is one
  scene ``Title`` that goes to each member (``Title.when-1``, ``Title.when-2`` … in
  reading order, a scene each) as a ``choice`` under the member's ``when:`` conditions
  (``always``: none; ``once``: the branch is ``once_only``; ``once if c``: both); when no
  member is sure to run, the group may also run none and return at once;
* a **smart variable** (``<<declare $x = expression>>``) is computed, not stored:
  reading it reads the variables of its expression, and a condition on it is read as
  that expression (opaque when the expression does not translate).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verdicts.korean import code, josa

from .common import (Cond, Construct, Dialect, MAX_NESTING, Opaque, StoryBuilder, last_line, literal, none_of,
                     quote_code, read_text, story_texts, translate)

__all__ = ["import_yarn", "import_yarn_text", "import_yarn_folder", "scan_constructs"]

END = "(end)"
#: a case of an <<if>>/<<elseif>> chain longer than MAX_NESTING cases, past that many
_LONG_CHAIN = Opaque(f"{MAX_NESTING}개보다 긴 <<elseif>> 사슬의 뒤쪽이라 앞 조건을 다 담지 못한")
_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "is": "==", "eq": "==",
          "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "xor": "xor"}
_CMD = re.compile(r"^<<\s*(\w+)\s*(.*?)\s*>>\s*(?:#.*)?$")
_HEADER = re.compile(r"^\s*([\w.-]+)\s*:\s*(.*)$")
_VAR = re.compile(r"\$([A-Za-z_]\w*)")
_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_ASSIGN = re.compile(r"^\$(\w+)\s*(=|to|\+=|-=|\*=|/=|%=)\s*(.*?)(?:\s+as\s+\w+)?$")


@dataclass
class _Node:
    line: int
    text: str
    children: list["_Node"] = field(default_factory=list)


@dataclass
class _YarnNode:
    """A node as read: its scene id (the title, or ``Title.when-N`` for a member of a
    node group), the line of its ``title:`` header, its body and its ``when:`` headers."""

    scene: str
    line: int
    tree: list[_Node]
    file: str
    title: str
    whens: list[tuple[int, str]] = field(default_factory=list)


def import_yarn(path: Path, entries: str = "unreached", name: str | None = None) -> StoryBuilder:
    return import_yarn_text(read_text(path), name or str(path), entries)


def import_yarn_text(text: str, file: str, entries: str = "unreached") -> StoryBuilder:
    return _Yarn(file, entries).run([(file, text)])


def import_yarn_folder(folder: Path, entries: str = "unreached") -> StoryBuilder:
    """Every ``.yarn`` file of ``folder`` (sorted by name) read as one dialogue, as Yarn
    Spinner compiles a project: the nodes of all files together (a ``<<jump>>`` may go to
    a node of another file), each scene, branch and issue pointing at its own file and
    line; a node title used in two files is an issue naming both places (Yarn Spinner
    stops there), unless every node of that title has ``when:`` headers (a node group)."""
    return _Yarn(str(folder), entries).run(story_texts(folder, "yarn"))


# ----------------------------------------------------------------------------- the line scanner


def _headers(lines: list[str]):
    """``(start, body_start, [(line, key, value)])`` of each node of a file, by its
    ``---`` line (``body_start`` is the index after it), and the index after its ``===``."""
    i, n = 0, len(lines)
    while i < n:
        start = i
        found: list[tuple[int, str, str]] = []
        while i < n and lines[i].strip() != "---":
            m = _HEADER.match(lines[i])
            if m:
                found.append((i + 1, m.group(1).lower(), m.group(2).strip()))
            elif lines[i].strip() and not lines[i].strip().startswith("//"):
                break
            i += 1
        if i >= n or lines[i].strip() != "---":
            yield start, None, found, n
            return
        i += 1
        body = i
        while i < n and lines[i].strip() != "===":
            i += 1
        i += 1
        yield start, body, found, i


def scan_constructs(path: str | Path) -> list[Construct]:
    """Every node and every line with a way on, found line by line with regular
    expressions, apart from the importer (the import self-check compares them).

    A ``title:`` header is a scene named by its title, or ``Title.when-N`` for the N-th
    node (in reading order, over the files of a folder sorted by name) of a title whose
    nodes all have ``when:`` headers; ``->`` option lines, ``<<jump>>``, ``<<detour>>``,
    ``<<return>>`` and ``<<stop>>`` lines of node bodies are branches.
    """
    path = Path(path)
    if path.is_dir():
        sources = story_texts(path, "yarn")
    else:
        sources = [(str(path), read_text(path))]
    nodes: list[tuple[str, int, str, bool]] = []  # (file, title line, title, has when)
    bodies: list[tuple[str, list[str], int, int]] = []
    for file, text in sources:
        lines = text.split("\n")
        for start, body, found, after in _headers(lines):
            if body is None:
                break
            title = next((v for _, k, v in found if k == "title"), None)
            title_line = next((ln for ln, k, _ in found if k == "title"), start + 1)
            if title:
                nodes.append((file, title_line, title, any(k == "when" for _, k, _ in found)))
            bodies.append((file, lines, body, after - 1))
    grouped: dict[str, bool] = {}
    for _f, _l, title, has_when in nodes:
        grouped.setdefault(title, has_when)
    count: dict[str, int] = {}
    out: list[Construct] = []
    for file, line, title, has_when in nodes:
        name = title
        if grouped[title] and has_when:
            count[title] = count.get(title, 0) + 1
            name = f"{title}.when-{count[title]}"
        out.append(Construct(file, line, "scene", f"title: {title}", name))
    for file, lines, body, end in bodies:
        for k in range(body, min(end, len(lines))):
            raw = lines[k]
            if re.match(r"^\s*(->|<<\s*(jump|detour|return|stop)\b)", raw):
                out.append(Construct(file, k + 1, "branch", raw.strip()))
    return out


# ----------------------------------------------------------------------------- the importer


class _Yarn:
    def __init__(self, file: str, entries: str):
        self.file = file
        self.entries = entries
        self.b = StoryBuilder("yarn", file)
        self.real = self.b
        self.dry = False
        self.nodes: list[_YarnNode] = []
        self._titles: dict[str, tuple[str, int, bool]] = {}  # title → (file, line, a node group)
        self.groups: dict[str, list[_YarnNode]] = {}
        self.node = ""
        self.callee = ""
        #: (callee, continuation) of every <<detour>> the flow reads, and the callees a
        #: jump reaches (learnt by a first reading, used by the second)
        self.detours: list[tuple[str, str]] = []
        self.jumped: set[str] = set()
        self.conts: dict[str, list[str]] = {}
        self.smart: dict[str, tuple[str, str, int]] = {}  # smart variable → (expression, file, line)
        self._expanding: list[str] = []
        self.dialect = Dialect(_WORDS, self._resolve, self._call)

    def run(self, sources: list[tuple[str, str]]) -> StoryBuilder:
        """Read the nodes of every ``(file, text)`` of one dialogue, then the dialogue."""
        source = self.file
        for file, text in sources:
            self.file = file
            self._read_nodes(text)
        self._story()
        self.file = source
        self._entries()
        return self.b

    def _read_nodes(self, text: str) -> None:
        lines = text.split("\n")
        for start, body, found, after in _headers(lines):
            if body is None:
                if any(line.strip() for line in lines[start:after]):
                    self.b.issue(self.file, start + 1, "노드 머리(title: … ---)를 찾지 못해 이 뒤의 내용은 옮기지 않았습니다.")
                break
            title = next((v for _, k, v in found if k == "title"), None)
            head_line = next((ln for ln, k, _ in found if k == "title"), start + 1)
            whens = [(ln, v) for ln, k, v in found if k == "when"]
            if not title:
                self.b.issue(self.file, head_line, "노드에 title이 없어 이 노드는 옮기지 않았습니다.")
                continue
            first = self._titles.get(title)
            if first is not None and not (first[2] and whens):
                if first[0] == self.file:
                    self.b.issue(self.file, head_line, f"같은 이름의 노드({quote_code(title)})가 앞에 또 있어 뒤의 것은 옮기지 않았습니다.")
                else:
                    self.b.issue(self.file, head_line, f"같은 이름의 노드({quote_code(title)})가 {first[0]} {first[1]}번째 줄에도 있어 "
                                                       "이 파일의 것은 옮기지 않았습니다 (Yarn Spinner도 이름이 겹치면 멈춥니다).")
                continue
            if first is None:
                self._titles[title] = (self.file, head_line, bool(whens))
            tree = self._tree([(k + 1, lines[k]) for k in range(body, min(after - 1, len(lines)))])
            scene = title
            if whens:
                members = self.groups.setdefault(title, [])
                scene = f"{title}.when-{len(members) + 1}"
            node = _YarnNode(scene, head_line, tree, self.file, title, whens)
            if whens:
                self.groups[title].append(node)
            self.nodes.append(node)

    def _story(self) -> None:
        # declarations and assignments first (they type the flags), then every read
        for node in self.nodes:
            self.file = node.file
            self._smart(node.tree)
        for node in self.nodes:
            self.file = node.file
            self._prescan(node.tree)
        for node in self.nodes:
            self.file = node.file
            self._reads(node)
        # the flow, twice: the first reading (into a scratch builder) learns every
        # <<detour>> and every jump, so that the second writes the end of each node
        # (and each <<return>>) as the branches back to where it was entered from
        self.b, self.dry = StoryBuilder("yarn", self.file), True
        self._flow()
        self.conts = {}
        for callee, cont in self.detours:
            self.conts.setdefault(callee, [])
            if cont not in self.conts[callee]:
                self.conts[callee].append(cont)
        self.b, self.dry = self.real, False
        self._flow()
        if any(br[1] == END for br in self.b.branches):
            self.b.scene(END, "대화 끝", None, None, ending=True)

    def _flow(self) -> None:
        self.detours = []
        for node in self.nodes:
            if node.scene == node.title:
                self.b.scene(node.title, node.title, node.file, node.line)
            elif node is self.groups[node.title][0]:
                self.b.scene(node.title, f"{node.title} (노드 묶음)", node.file, node.line)
            if node.scene != node.title:
                self.b.scene(node.scene, f"{node.title} (when: {' / '.join(v for _, v in node.whens)})", node.file, node.line)
        for node in self.nodes:
            if node.scene != node.title and node is self.groups[node.title][0]:
                self._group(node.title, self.groups[node.title])
            self.node, self.file, self.callee = node.scene, node.file, node.title
            scene, falls = self._walk(node.tree, node.scene, Cond())
            if falls:
                self._leave(scene, Cond(), last_line(node.tree) or node.line)

    def _group(self, title: str, members: list[_YarnNode]) -> None:
        """The scene of a node group: a branch to each member under its ``when:``
        conditions, and — when no member is sure to run — the way out Yarn Spinner takes
        when none can (it returns at once)."""
        sure = False
        for member in members:
            cond, once = Cond(), False
            for _line, value in member.whens:
                text = value.strip()
                m = re.match(r"^once\b\s*(?:if\b\s*(.*))?$", text)
                if text == "always":
                    continue
                if m:
                    once = True
                    if m.group(1):
                        cond = cond.and_(translate(m.group(1), self.dialect), m.group(1))
                    continue
                cond = cond.and_(translate(text, self.dialect), text)
            sure = sure or not cond
            where = member.whens[0][0] if member.whens else member.line
            self.file = member.file
            self.b.branch(title, member.scene, cond if cond else None, "choice", member.file, where, once)
        if not sure:
            self.file = members[0].file
            self.callee = title
            targets = self._return_targets(title)
            for t in targets:
                self.b.branch(title, t, None, "choice", members[0].file, members[0].line)

    def _return_targets(self, callee: str) -> list[str]:
        """Where the end of ``callee`` (or its ``<<return>>``) goes: back after every
        ``<<detour>>`` into it, and the end of the dialogue when something else than a
        detour enters it (a jump clears the return stack; the first node has none)."""
        conts = list(self.conts.get(callee, []))
        if not conts or callee in self.jumped or callee == "Start" or callee == self.entries:
            conts.append(END)
        return conts

    def _leave(self, scene: str, cond: Cond, line: int) -> None:
        targets = self._return_targets(self.callee)
        for t in targets:
            self.b.branch(scene, t, cond if cond else None, "choice" if len(targets) > 1 else "auto", self.file, line)

    def _entries(self) -> None:
        titles = list(dict.fromkeys(n.title for n in self.nodes))
        if self.entries == "unreached":
            # a jump from inside the node itself (a loop) does not bring a reader in
            known = set(titles)
            owner = {}
            for sid in self.b.scenes:
                head = sid
                while head not in known and "." in head:
                    head = head.rsplit(".", 1)[0]
                if head in known:
                    owner[sid] = head
            targets = {br[1] for br in self.b.branches if owner.get(br[0]) != br[1]}
            for t in titles:
                if t not in targets or t == "Start":
                    self.b.scenes[t].is_entry = True
        elif self.entries in self.b.scenes:
            self.b.scenes[self.entries].is_entry = True
        else:
            where = "파일에" if len({n.file for n in self.nodes}) <= 1 else "폴더의 어느 파일에도"
            self.b.issue(self.file, None, f"시작 노드로 정한 이름({quote_code(self.entries)})이 {where} 없어 시작 장면을 정하지 못했습니다.")

    def _tree(self, body: list[tuple[int, str]]) -> list[_Node]:
        root = _Node(0, "")
        stack: list[tuple[int, _Node]] = [(-1, root)]
        for no, raw in body:
            content = raw.strip()
            if not content or content.startswith("//"):
                continue
            expanded = raw.expandtabs(4)
            indent = len(expanded) - len(expanded.lstrip())
            while stack and stack[-1][0] >= indent:
                stack.pop()
            if len(stack) > MAX_NESTING:
                self.b.issue(self.file, no, f"들여쓰기가 {MAX_NESTING}단계보다 깊어 이 줄은 옮기지 않았습니다.")
                continue
            node = _Node(no, content)
            stack[-1][1].children.append(node)
            stack.append((indent, node))
        return root.children

    # ------------------------------------------------------------------ variables

    def _smart(self, tree: list[_Node]) -> None:
        """The smart variables: ``<<declare $x = expression>>`` (not a single value)."""
        for node in _all(tree):
            m = _CMD.match(node.text)
            if m and m.group(1).lower() == "declare":
                am = _ASSIGN.match(m.group(2))
                if am and am.group(2) in ("=", "to") and literal(am.group(3).strip()) is None:
                    self.smart.setdefault(am.group(1), (am.group(3).strip(), self.file, node.line))

    def _prescan(self, tree: list[_Node]) -> None:
        stack = list(tree)
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            m = _CMD.match(node.text)
            if not m:
                continue
            cmd, args = m.group(1).lower(), m.group(2)
            if cmd not in ("declare", "set"):
                continue
            am = _ASSIGN.match(args)
            if not am:
                continue
            key, op, value = am.group(1), am.group(2), am.group(3).strip()
            if cmd == "declare" and key in self.smart:
                continue
            if key in self.smart:
                self.b.issue(self.file, node.line, f"스마트 변수 {josa(code('$' + key), '은/는')} 식으로 셈하는 값이라 Yarn Spinner에서 바꿀 수 없으므로 "
                                                   "이 줄은 옮기지 않았습니다.")
                continue
            v = literal(value)
            if op in ("+=", "-="):
                if isinstance(v, int) and not isinstance(v, bool):
                    self.b.assign(key, (op[0], v), self.file, node.line)
                else:
                    self.b.assign(key, None, self.file, node.line)
            elif op in ("*=", "/=", "%="):
                self.b.effect_opaque(key, node.text, self.file, node.line)
            elif v is None:
                im = re.fullmatch(rf"\$({re.escape(key)})\s*([+-])\s*(\d+)", value)
                if im:
                    self.b.assign(key, (im.group(2), int(im.group(3))), self.file, node.line)
                else:
                    # another variable, arithmetic, a function: the new value cannot be computed
                    self.b.effect_opaque(key, node.text, self.file, node.line)
            elif cmd == "declare":
                self.b.declare(key, v, self.file, node.line, label=key)
            else:
                self.b.assign(key, v, self.file, node.line)

    def _read_var(self, key: str, file: str, line: int) -> None:
        """``$key`` is read at ``file:line``; a smart variable reads its expression's."""
        if key in self.smart:
            if key in self._expanding or len(self._expanding) > MAX_NESTING:
                return
            self._expanding.append(key)
            try:
                for var in _VAR.findall(_STRING.sub("", self.smart[key][0])):
                    self._read_var(var, file, line)
            finally:
                self._expanding.pop()
            return
        self.b.read(key, file, line)

    def _reads(self, node: _YarnNode) -> None:
        """Every variable the node reads, wherever: its ``when:`` headers, conditions,
        interpolation ``{$x}`` in lines and options, ``<<if>>`` on a line, commands'
        arguments, the right-hand side of ``<<set>>``."""
        for line, value in node.whens:
            for var in _VAR.findall(_STRING.sub("", value)):
                self._read_var(var, node.file, line)
        stack = list(node.tree)
        while stack:
            item = stack.pop()
            stack.extend(item.children)
            text = item.text
            m = _CMD.match(text)
            if m:
                cmd, args = m.group(1).lower(), m.group(2)
                if cmd == "declare":
                    continue
                if cmd == "set":
                    am = re.match(r"^\$(\w+)\s*(?:=|to|\+=|-=|\*=|/=|%=)\s*(.*)$", args)
                    if am:
                        target, args = am.group(1), am.group(2)
                        for var in _VAR.findall(_STRING.sub("", args)):
                            if var != target:
                                self._read_var(var, node.file, item.line)
                        continue
                for var in _VAR.findall(_STRING.sub("", args)):
                    self._read_var(var, node.file, item.line)
                continue
            # a line or an option: {…} interpolation, and <<…>> conditions on it
            for part in re.findall(r"\{([^{}]*)\}", text) + re.findall(r"<<(.*?)>>", text):
                for var in _VAR.findall(_STRING.sub("", part)):
                    self._read_var(var, node.file, item.line)

    def _resolve(self, name: str):
        if not name.startswith("$"):
            return None
        key = name[1:]
        if key not in self.smart:
            return None
        if key in self._expanding or len(self._expanding) > MAX_NESTING:
            raise Opaque("서로를 가리키는 스마트 변수가 든")
        self._expanding.append(key)
        try:
            node = translate(self.smart[key][0], self.dialect)
        finally:
            self._expanding.pop()
        if isinstance(node, Opaque):
            raise Opaque(f"옮기지 못하는 식의 스마트 변수(${key})가 든")
        return node

    def _call(self, name: str, args: list):
        if name in ("visited", "visited_count") and len(args) == 1 and args[0][0] == "str":
            node = ("visit", args[0][1])
            return ("cmp", ">", node, ("int", 0)) if name == "visited" else node
        if name in ("random", "random_range", "dice"):
            raise Opaque("무작위 값이 든")
        raise Opaque(f"함수 호출({name})이 든")

    # ------------------------------------------------------------------ flow

    def _walk(self, nodes: list[_Node], scene: str, ctx: Cond, depth: int = 0) -> tuple[str, bool]:
        """Emit the branches of ``nodes`` from ``scene`` under ``ctx``; returns the scene
        the flow is in at the end and whether it may go on past the last line.  Once the
        flow has moved on to another scene (after an option group or a detour), only
        readers who met ``ctx`` are there: the condition is not repeated."""
        nodes = _flat(nodes)
        start = scene
        falls = True
        i = 0
        while i < len(nodes):
            here = ctx if scene == start else Cond()
            node = nodes[i]
            text = node.text
            m = _CMD.match(text)
            cmd = m.group(1).lower() if m else None
            args = m.group(2) if m else ""
            if not falls and (cmd in ("jump", "stop", "detour", "return", "if") or text.startswith(("->", "=>"))):
                dead = f"{self.node}.line-{node.line}"
                self.b.scene(dead, f"{self.node} {node.line}번째 줄 (흐름이 닿지 않는 곳)", self.file, node.line)
                scene, falls = dead, True
                here = Cond()
            if text.startswith(("->", "=>")):
                j = i
                group = []
                while j < len(nodes) and nodes[j].text.startswith(text[:2]):
                    group.append(nodes[j])
                    j += 1
                scene, falls = self._options(group, scene, here, depth, random_lines=text.startswith("=>"))
                i = j
                continue
            if cmd == "if":
                chain = [(node, args)]
                blocks: list[list[_Node]] = [list(node.children)]
                j = i + 1
                closed = False
                level = 0  # <<if>> blocks written inside this one without indentation
                while j < len(nodes):
                    m2 = _CMD.match(nodes[j].text)
                    c2 = m2.group(1).lower() if m2 else None
                    if level == 0 and c2 in ("elseif", "else"):
                        assert m2 is not None  # c2 was read from it
                        chain.append((nodes[j], m2.group(2) if c2 == "elseif" else None))
                        blocks.append(list(nodes[j].children))
                    elif level == 0 and c2 == "endif":
                        closed = True
                        j += 1
                        break
                    else:
                        if c2 == "if":
                            level += 1
                        elif c2 == "endif":
                            level -= 1
                        blocks[-1].append(nodes[j])
                    j += 1
                if not closed:
                    self.b.issue(self.file, node.line, "<<if>> 줄에 맞는 <<endif>> 줄이 없어 노드 끝까지를 이 블록으로 보았습니다.")
                if depth >= MAX_NESTING:
                    self.b.issue(self.file, node.line, f"<<if>> 블록이 {MAX_NESTING}겹보다 깊게 중첩되어 안쪽은 옮기지 않았습니다.")
                    self._dropped([n for block in blocks for n in block], node.line)
                    i = j
                    continue
                previous: list[Any] = []
                sources: list[str] = []
                results = []
                has_else = chain[-1][1] is None and len(chain) > 1
                for k, ((cnode, ctext), block) in enumerate(zip(chain, blocks)):
                    before = none_of(previous)
                    here_c: tuple | Opaque | None
                    if k >= MAX_NESTING:
                        # (each case carries the negation of every case before it: past
                        # this, the conditions would grow with the square of the chain)
                        here_c, src = _LONG_CHAIN, ctext or "else"
                        previous.append(here_c)
                        sources.append(src)
                    elif ctext is None:
                        here_c, src = before, "else"
                    else:
                        c = translate(ctext, self.dialect)
                        here_c = c if before is None else (before if isinstance(before, Opaque) else c if isinstance(c, Opaque) else ("and", before, c))
                        src = ctext
                        previous.append(c)
                        sources.append(ctext)
                    sub = here.and_(here_c, src) if here_c is not None else here
                    end_scene, f = self._walk(block, scene, sub, depth + 1)
                    results.append((end_scene, f, sub, cnode.line))
                if all(end == scene for end, f, _, _ in results if f):
                    falls = any(f for _, f, _, _ in results) or not has_else
                else:
                    # an option group or a detour inside a block: what follows <<endif>> is a scene of its own
                    join = f"{self.node}.after-{node.line}-if"
                    self.b.scene(join, f"{self.node} {node.line}번째 줄 <<if>> 뒤", self.file, node.line)
                    for end, f, sub, cline in results:
                        if f:
                            self.b.branch(end, join, sub if (end == scene and sub) else None, "auto", self.file, cline)
                    if not has_else:
                        rest = none_of(previous)
                        src = " and ".join(f"not ({s})" for s in sources)
                        cond = here.and_(rest, src) if rest is not None else here
                        self.b.branch(scene, join, cond if cond else None, "auto", self.file, node.line)
                    scene, falls = join, True
                i = j
                continue
            if cmd == "jump":
                self._jump(args, scene, here, node.line)
                falls = False
            elif cmd == "stop":
                self.b.branch(scene, END, here if here else None, "auto", self.file, node.line)
                falls = False
            elif cmd == "detour":
                cont = f"{self.node}.after-{node.line}"
                self.b.scene(cont, f"{self.node} {node.line}번째 줄 <<detour>>에서 돌아온 뒤", self.file, node.line)
                target = args.strip()
                if target.startswith("{"):
                    # a node named while playing: a way to a scene we cannot name, and back
                    self.b.jump_opaque(scene, text, here if here else None, "auto", self.file, node.line)
                else:
                    self.b.branch(scene, target, here if here else None, "auto", self.file, node.line)
                    self.detours.append((target, cont))
                scene, falls = cont, True
            elif cmd == "return":
                self._leave(scene, here, node.line)
                falls = False
            elif cmd in ("elseif", "else", "endif"):
                self.b.issue(self.file, node.line, f"앞에 여는 <<if>> 줄이 없는 <<{cmd}>> 줄이라 이 줄은 건너뛰고 그 아래 줄은 조건 없이 읽었습니다.")
                nodes[i + 1:i + 1] = _flat(node.children)
            i += 1
        return scene, falls

    def _dropped(self, nodes: list[_Node], line: int) -> None:
        """An issue on every line with a way on inside a block that was not read."""
        for node in _all(nodes):
            m = _CMD.match(node.text)
            if node.text.startswith("->") or (m and m.group(1).lower() in ("jump", "detour", "return", "stop")):
                self.b.issue(self.file, node.line, f"{line}번째 줄의 옮기지 않은 블록 안에 있어 이 줄도 옮기지 않았습니다.")

    def _jump(self, args: str, scene: str, ctx: Cond, line: int) -> None:
        target = args.strip()
        if target.startswith("{"):
            self.b.jump_opaque(scene, f"<<jump {target}>>", ctx if ctx else None, "auto", self.file, line)
            return
        self.jumped.add(target)
        self.b.branch(scene, target, ctx if ctx else None, "auto", self.file, line)

    def _options(self, group: list[_Node], scene: str, ctx: Cond, depth: int, random_lines: bool) -> tuple[str, bool]:
        cont = f"{self.node}.after-{group[0].line}"
        need_cont = False
        for opt in group:
            text = opt.text[2:].strip()
            cond = Cond(list(ctx.parts))
            m = re.search(r"<<\s*if\s+(.*?)\s*>>", text)
            if m:
                cond = cond.and_(translate(m.group(1), self.dialect), m.group(1))
                text = text[:m.start()] + text[m.end():]
            if random_lines:
                cond = cond.and_(Opaque("무작위로 고르는 줄 묶음(=>)이 든"), opt.text)
            shown = re.sub(r"(^|\s)#\S+", " ", text).strip()
            title = shown or f"{opt.line}번째 줄의 선택지"
            kind = "auto" if random_lines else "choice"
            words = None if random_lines else shown
            body = _flat(opt.children)
            flows = [n for n in body if _flows_deep(n)]
            m2 = _CMD.match(flows[0].text) if len(flows) == 1 and flows[0] is body[-1] else None
            if m2 is not None:
                c2 = m2.group(1).lower()
                if c2 == "jump" and not m2.group(2).strip().startswith("{"):
                    self.jumped.add(m2.group(2).strip())
                    self.b.branch(scene, m2.group(2).strip(), cond, kind, self.file, opt.line, via=flows[0].line, text=words)
                    self.b.account(self.file, flows[0].line, "선택지의 본문이 이 이동 하나뿐이라 선택지 분기가 이 줄을 대신합니다.")
                    continue
                if c2 == "stop":
                    self.b.branch(scene, END, cond, kind, self.file, opt.line, via=flows[0].line, text=words)
                    self.b.account(self.file, flows[0].line, "선택지의 본문이 이 멈춤 하나뿐이라 선택지 분기가 이 줄을 대신합니다.")
                    continue
            if not flows:
                self.b.branch(scene, cont, cond, kind, self.file, opt.line, text=words)
                need_cont = True
                continue
            if depth >= MAX_NESTING:
                self.b.issue(self.file, opt.line, f"선택지가 {MAX_NESTING}겹보다 깊게 중첩되어 안쪽은 옮기지 않았습니다.")
                self._dropped(body, opt.line)
                continue
            sub = f"{self.node}.option-{opt.line}"
            self.b.scene(sub, title, self.file, opt.line)
            self.b.branch(scene, sub, cond, kind, self.file, opt.line, text=words)
            end_scene, falls = self._walk(body, sub, Cond(), depth + 1)
            if falls:
                self.b.branch(end_scene, cont, None, "auto", self.file, last_line(body) or opt.line)
                need_cont = True
        if need_cont:
            self.b.scene(cont, f"{self.node} {group[0].line}번째 줄 선택지 뒤", self.file, group[0].line)
            return cont, True
        return scene, False


def _all(nodes: list[_Node]):
    """Every node under ``nodes``, in reading order."""
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        stack.extend(reversed(node.children))


def _flat(nodes: list[_Node]) -> list[_Node]:
    """Indentation only matters under options and ``<<if>>`` markers: other lines'
    indented followers are read as the lines after them."""
    out: list[_Node] = []
    stack = list(reversed(nodes))
    while stack:
        node = stack.pop()
        m = _CMD.match(node.text)
        keeps = node.text.startswith(("->", "=>")) or (m is not None and m.group(1).lower() in ("if", "elseif", "else"))
        if keeps or not node.children:
            out.append(node)
        else:
            out.append(_Node(node.line, node.text))
            stack.extend(reversed(node.children))
    return out


def _flows(node: _Node) -> bool:
    m = _CMD.match(node.text)
    if m and m.group(1).lower() in ("jump", "stop", "detour", "return", "if"):
        return True
    return node.text.startswith(("->", "=>"))


def _flows_deep(node: _Node) -> bool:
    stack = [node]
    while stack:
        n = stack.pop()
        m = _CMD.match(n.text)
        if _flows(n) or (m is not None and m.group(1).lower() in ("elseif", "else", "endif")):
            return True
        stack.extend(n.children)
    return False
