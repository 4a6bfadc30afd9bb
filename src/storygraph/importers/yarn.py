"""Yarn Spinner (``.yarn``) → the three tables.

Scenes: nodes (``title:``), option bodies that hold more than one way on
(``Node.option-12``), the continuation after an option group or a ``<<detour>>``
(``Node.after-12``) and lines after a ``<<jump>>`` that no flow reaches
(``Node.line-30``); the end of the dialogue is the ending scene ``(end)``, reached by
``<<stop>>`` and by falling off the end of a node.  Entries: every node that no jump
reaches (the default, ``entries="unreached"``), or one named node.  Branches:
``<<jump>>``, ``<<detour>>``/``<<return>>``, ``<<stop>>`` and the end of a node are
``auto``; ``->`` options are ``choice``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .common import (Cond, Dialect, MAX_NESTING, Opaque, StoryBuilder, last_line, literal, none_of, quote_code,
                     read_text, story_texts, translate)

__all__ = ["import_yarn", "import_yarn_text", "import_yarn_folder"]

END = "(end)"
_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "is": "==", "eq": "==",
          "neq": "!=", "gt": ">", "gte": ">=", "lt": "<", "lte": "<=", "xor": "xor"}
_CMD = re.compile(r"^<<\s*(\w+)\s*(.*?)\s*>>\s*(?:#.*)?$")


@dataclass
class _Node:
    line: int
    text: str
    children: list["_Node"] = field(default_factory=list)


def import_yarn(path: Path, entries: str = "unreached", name: str | None = None) -> StoryBuilder:
    return import_yarn_text(read_text(path), name or str(path), entries)


def import_yarn_text(text: str, file: str, entries: str = "unreached") -> StoryBuilder:
    return _Yarn(file, entries).run([(file, text)])


def import_yarn_folder(folder: Path, entries: str = "unreached") -> StoryBuilder:
    """Every ``.yarn`` file of ``folder`` (sorted by name) read as one dialogue, as Yarn
    Spinner compiles a project: the nodes of all files together (a ``<<jump>>`` may go to
    a node of another file), each scene, branch and issue pointing at its own file and
    line; a node title used in two files is an issue naming both places (Yarn Spinner
    stops there)."""
    return _Yarn(str(folder), entries).run(story_texts(folder, "yarn"))


class _Yarn:
    def __init__(self, file: str, entries: str):
        self.file = file
        self.entries = entries
        self.b = StoryBuilder("yarn", file)
        self.nodes: list[tuple[str, int, list[_Node], str]] = []  # (title, line, body, file)
        self._titles: dict[str, tuple[str, int]] = {}  # title → (file, line)
        self.node = ""
        self.detours: list[tuple[str, str]] = []  # (target node, continuation)
        self.returns: list[tuple[str, str, int, str]] = []  # (scene, node, line, file)
        self.dialect = Dialect(_WORDS, lambda name: None, self._call)

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
        i = 0
        n = len(lines)
        while i < n:
            # header
            header: dict[str, str] = {}
            start = i
            while i < n and lines[i].strip() != "---":
                m = re.match(r"^\s*([\w.-]+)\s*:\s*(.*)$", lines[i])
                if m:
                    header[m.group(1).lower()] = m.group(2).strip()
                elif lines[i].strip() and not lines[i].strip().startswith("//"):
                    break
                i += 1
            if i >= n or lines[i].strip() != "---":
                if any(line.strip() for line in lines[start:i + 1]):
                    self.b.issue(self.file, start + 1, "노드 머리(title: … ---)를 찾지 못해 이 뒤의 내용은 옮기지 않았습니다.")
                break
            title = header.get("title")
            head_line = next((k + 1 for k in range(start, i) if lines[k].strip().lower().startswith("title")), start + 1)
            i += 1
            body_start = i
            while i < n and lines[i].strip() != "===":
                i += 1
            body = [(k + 1, lines[k]) for k in range(body_start, min(i, n))]
            i += 1
            if not title:
                self.b.issue(self.file, head_line, "노드에 title이 없어 이 노드는 옮기지 않았습니다.")
                continue
            first = self._titles.get(title)
            if first is not None:
                if first[0] == self.file:
                    self.b.issue(self.file, head_line, f"같은 이름의 노드({quote_code(title)})가 앞에 또 있어 뒤의 것은 옮기지 않았습니다.")
                else:
                    self.b.issue(self.file, head_line, f"같은 이름의 노드({quote_code(title)})가 {first[0]} {first[1]}번째 줄에도 있어 "
                                                       "이 파일의 것은 옮기지 않았습니다 (Yarn Spinner도 이름이 겹치면 멈춥니다).")
                continue
            self._titles[title] = (self.file, head_line)
            self.nodes.append((title, head_line, self._tree(body), self.file))

    def _story(self) -> None:
        # declarations and assignments first (they type the flags)
        for title, _, tree, file in self.nodes:
            self.file = file
            self._prescan(tree)
        for title, line, _, file in self.nodes:
            self.b.scene(title, title, file, line)
        for title, line, tree, file in self.nodes:
            self.node, self.file = title, file
            scene, falls = self._walk(tree, title, Cond())
            if falls:
                self.b.branch(scene, END, None, "auto", self.file, last_line(tree) or line)
        for scene, node, line, file in self.returns:
            conts = [c for t, c in self.detours if t == node]
            if not conts:
                self.b.issue(file, line, "<<return>> 줄이 있지만 이 노드로 <<detour>>하는 곳이 없어 대화가 여기서 끝난다고 보았습니다.")
                self.b.branch(scene, END, None, "auto", file, line)
            for c in conts:
                self.b.branch(scene, c, None, "choice" if len(conts) > 1 else "auto", file, line)
        if any(br[1] == END for br in self.b.branches):
            self.b.scene(END, "대화 끝", None, None, ending=True)

    def _entries(self) -> None:
        titles = [t for t, _, _, _ in self.nodes]
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
            where = "파일에" if len({f for _, _, _, f in self.nodes}) <= 1 else "폴더의 어느 파일에도"
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

    def _prescan(self, tree: list[_Node]) -> None:
        stack = list(tree)
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            m = _CMD.match(node.text)
            if not m:
                continue
            cmd, args = m.group(1).lower(), m.group(2)
            if cmd in ("declare", "set"):
                am = re.match(r"^(\$\w+)\s*(=|to|\+=|-=)\s*(.*?)(?:\s+as\s+\w+)?$", args)
                if not am:
                    continue
                key, op, value = am.group(1)[1:], am.group(2), am.group(3).strip()
                v = literal(value)
                if op in ("+=", "-="):
                    self.b.assign(key, (op[0], v) if isinstance(v, int) and not isinstance(v, bool) else None, self.file, node.line)
                elif v is None:
                    im = re.fullmatch(rf"\$({re.escape(key)})\s*([+-])\s*(\d+)", value)
                    self.b.assign(key, (im.group(2), int(im.group(3))) if im else None, self.file, node.line)
                elif cmd == "declare":
                    self.b.declare(key, v, self.file, node.line, label=key)
                else:
                    self.b.assign(key, v, self.file, node.line)

    def _call(self, name: str, args: list):
        if name in ("visited", "visited_count") and len(args) == 1 and args[0][0] == "str":
            node = ("visit", args[0][1])
            return ("cmp", ">", node, ("int", 0)) if name == "visited" else node
        if name in ("random", "random_range", "dice"):
            raise Opaque("무작위 값이 든")
        raise Opaque(f"함수 호출({name})이 든")

    def _walk(self, nodes: list[_Node], scene: str, ctx: Cond, depth: int = 0) -> tuple[str, bool]:
        nodes = _flat(nodes)
        falls = True
        i = 0
        while i < len(nodes):
            node = nodes[i]
            text = node.text
            m = _CMD.match(text)
            cmd = m.group(1).lower() if m else None
            args = m.group(2) if m else ""
            if not falls and (cmd in ("jump", "stop", "detour", "return", "if") or text.startswith(("->", "=>"))):
                dead = f"{self.node}.line-{node.line}"
                self.b.scene(dead, f"{self.node} {node.line}번째 줄 (흐름이 닿지 않는 곳)", self.file, node.line)
                scene, falls = dead, True
            if text.startswith(("->", "=>")):
                j = i
                group = []
                while j < len(nodes) and nodes[j].text.startswith(text[:2]):
                    group.append(nodes[j])
                    j += 1
                scene, falls = self._options(group, scene, ctx, depth, random_lines=text.startswith("=>"))
                i = j
                continue
            if cmd == "if":
                chain = [(node, args)]
                blocks: list[list[_Node]] = [list(node.children)]
                j = i + 1
                closed = False
                while j < len(nodes):
                    m2 = _CMD.match(nodes[j].text)
                    c2 = m2.group(1).lower() if m2 else None
                    if c2 in ("elseif", "else"):
                        chain.append((nodes[j], m2.group(2) if c2 == "elseif" else None))
                        blocks.append(list(nodes[j].children))
                    elif c2 == "endif":
                        closed = True
                        j += 1
                        break
                    else:
                        blocks[-1].append(nodes[j])
                    j += 1
                if not closed:
                    self.b.issue(self.file, node.line, "<<if>> 줄에 맞는 <<endif>> 줄이 없어 노드 끝까지를 이 블록으로 보았습니다.")
                if depth >= MAX_NESTING:
                    self.b.issue(self.file, node.line, f"<<if>> 블록이 {MAX_NESTING}겹보다 깊게 중첩되어 안쪽은 옮기지 않았습니다.")
                    i = j
                    continue
                previous: list[Any] = []
                results = []
                has_else = chain[-1][1] is None and len(chain) > 1
                for (cnode, ctext), block in zip(chain, blocks):
                    before = none_of(previous)
                    if ctext is None:
                        here, src = before, "else"
                    else:
                        c = translate(ctext, self.dialect)
                        here = c if before is None else (before if isinstance(before, Opaque) else c if isinstance(c, Opaque) else ("and", before, c))
                        src = ctext
                        previous.append(c)
                    sub = ctx.and_(here, src) if here is not None else ctx
                    end_scene, f = self._walk(block, scene, sub, depth + 1)
                    results.append((end_scene, f, sub, cnode.line))
                if all(end == scene for end, f, _, _ in results if f):
                    falls = any(f for _, f, _, _ in results) or not has_else
                else:
                    # an option group inside a block: what follows <<endif>> is a scene of its own
                    join = f"{self.node}.after-{node.line}-if"
                    self.b.scene(join, f"{self.node} {node.line}번째 줄 <<if>> 뒤", self.file, node.line)
                    for end, f, sub, cline in results:
                        if f:
                            self.b.branch(end, join, sub if end == scene else None, "auto", self.file, cline)
                    if not has_else:
                        rest = none_of(previous)
                        self.b.branch(scene, join, ctx.and_(rest, "else") if rest is not None else ctx, "auto", self.file, node.line)
                    scene, falls = join, True
                i = j
                continue
            if cmd == "jump":
                self._jump(args, scene, ctx, node.line)
                falls = False
            elif cmd == "stop":
                self.b.branch(scene, END, ctx if ctx else None, "auto", self.file, node.line)
                falls = False
            elif cmd == "detour":
                cont = f"{self.node}.after-{node.line}"
                self.b.scene(cont, f"{self.node} {node.line}번째 줄 <<detour>>에서 돌아온 뒤", self.file, node.line)
                target = args.strip()
                self.b.branch(scene, target, ctx if ctx else None, "auto", self.file, node.line)
                self.detours.append((target, cont))
                if ctx:
                    self.b.branch(scene, cont, None, "auto", self.file, node.line)
                scene, falls = cont, True
            elif cmd == "return":
                self.returns.append((scene, self.node, node.line, self.file))
                falls = False
            elif cmd in ("elseif", "else", "endif"):
                self.b.issue(self.file, node.line, f"앞에 여는 <<if>> 줄이 없는 <<{cmd}>> 줄이라 이 줄은 건너뛰고 그 아래 줄은 조건 없이 읽었습니다.")
                nodes[i + 1:i + 1] = _flat(node.children)
            i += 1
        return scene, falls

    def _jump(self, args: str, scene: str, ctx: Cond, line: int) -> None:
        target = args.strip()
        if target.startswith("{"):
            self.b.issue(self.file, line, f"가는 곳이 식({quote_code(target)})이라 어느 노드인지 정하지 못해 이 분기는 옮기지 않았습니다.")
            return
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
            title = re.sub(r"#\S+", "", text).strip() or f"{opt.line}번째 줄의 선택지"
            kind = "auto" if random_lines else "choice"
            body = _flat(opt.children)
            flows = [n for n in body if _flows_deep(n)]
            m2 = _CMD.match(flows[0].text) if len(flows) == 1 and flows[0] is body[-1] else None
            if m2 is not None:
                c2 = m2.group(1).lower()
                if c2 == "jump" and not m2.group(2).strip().startswith("{"):
                    self.b.branch(scene, m2.group(2).strip(), cond, kind, self.file, opt.line, via=flows[0].line)
                    continue
                if c2 == "stop":
                    self.b.branch(scene, END, cond, kind, self.file, opt.line, via=flows[0].line)
                    continue
            if not flows:
                self.b.branch(scene, cont, cond, kind, self.file, opt.line)
                need_cont = True
                continue
            if depth >= MAX_NESTING:
                self.b.issue(self.file, opt.line, f"선택지가 {MAX_NESTING}겹보다 깊게 중첩되어 안쪽은 옮기지 않았습니다.")
                continue
            sub = f"{self.node}.option-{opt.line}"
            self.b.scene(sub, title, self.file, opt.line)
            self.b.branch(scene, sub, cond, kind, self.file, opt.line)
            end_scene, falls = self._walk(body, sub, Cond(), depth + 1)
            if falls:
                self.b.branch(end_scene, cont, None, "auto", self.file, last_line(body) or opt.line)
                need_cont = True
        if need_cont:
            self.b.scene(cont, f"{self.node} {group[0].line}번째 줄 선택지 뒤", self.file, group[0].line)
            return cont, True
        return scene, False


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


