"""ChoiceScript (a ``scenes/`` folder with ``startup.txt``) → the three tables.

Scenes: each scene file of ``*scene_list`` (``startup``, ``chapter1`` …), each
``*label`` (``chapter1.label``), each option body that holds more than one way on
(``chapter1.option-12``), the continuation after a ``*fake_choice`` or a ``*gosub``
(``chapter1.after-12``), lines that no flow reaches (``chapter1.line-30``, after a
``*goto``/``*choice``), and the dead ends ChoiceScript stops at with an error
(``chapter1.fall-12``: falling out of a ``*choice`` option or into an ``*else``);
``*ending`` is the ending scene.  Branches: ``*goto``, ``*goto_scene``, ``*gosub``,
``*return``, ``*finish`` (to the next scene of ``*scene_list``) and falling into a
``*label`` are ``auto``; ``*choice``/``*fake_choice`` options are ``choice``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verdicts.errors import InputError

from .common import (Cond, Dialect, MAX_NESTING, Opaque, StoryBuilder, last_line, literal, none_of, quote_code,
                     read_text, translate, unreadable)

__all__ = ["import_choicescript"]

ENDING = "*ending"
_WORDS = {"and": "and", "or": "or", "not": "not", "true": "true", "false": "false", "modulo": "%"}


@dataclass
class _Node:
    line: int
    text: str
    children: list["_Node"] = field(default_factory=list)


def import_choicescript(path: Path) -> StoryBuilder:
    folder = path.parent if path.is_file() else path
    if not (folder / "startup.txt").is_file() and (folder / "scenes" / "startup.txt").is_file():
        folder = folder / "scenes"
    if not (folder / "startup.txt").is_file():
        raise InputError(f"{path}: ChoiceScript의 startup.txt를 찾지 못했습니다.")
    return _ChoiceScript(folder).run()


class _ChoiceScript:
    def __init__(self, folder: Path):
        self.folder = folder
        self.b = StoryBuilder("choicescript", str(folder))
        self.scene_list: list[str] = []
        self.trees: dict[str, list[_Node]] = {}
        self.files: dict[str, str] = {}
        self.labels: dict[str, dict[str, int]] = {}
        self.calls: list[tuple[str, str, str, int]] = []  # (target file, target scene, continuation, line)
        self.returns: list[tuple[str, str, str, int]] = []  # (file, scene, file name, line)
        self.implicit = False
        self.file = ""
        self.name = ""
        self.dialect = Dialect(_WORDS, self._resolve, self._call)
        self._counter = 0

    # ------------------------------------------------------------------ reading

    def run(self) -> StoryBuilder:
        startup = self._read("startup")
        if startup is None:
            raise InputError(f"{self.folder / 'startup.txt'}: 파일을 읽을 수 없습니다.")
        self._scene_list(startup)
        if not self.scene_list:
            self.scene_list = ["startup"]
        elif self.scene_list[0] != "startup":
            self.scene_list.insert(0, "startup")
        for name in list(self.scene_list):
            if name not in self.trees and self._read(name) is None:
                self.b.issue(self.files.get("startup"), None, f"`*scene_list`에 적힌 장면 파일({quote_code(name + '.txt')})이 없어 그 장면으로 가는 분기는 없는 장면을 가리킵니다.")
        # scene files named by *goto_scene but not listed
        for name in list(self.trees):
            self._prescan(name)
        for name in [n for n in self.scene_list if n in self.trees] + [n for n in self.trees if n not in self.scene_list]:
            self._scene_file(name)
        for file_name, scene, fname, line in self.returns:
            conts = [c for tf, _t, c, _l in self.calls if tf == fname]
            if not conts:
                self.b.issue(self.files[file_name], line, "`*return` 줄이 있지만 이 장면 파일의 라벨로 `*gosub`하는 곳이 없어 돌아갈 곳을 정하지 못했습니다.")
            for c in conts:
                self.b.branch(scene, c, None, "choice" if len(conts) > 1 else "auto", self.files[file_name], line)
        if any(br[1] == ENDING for br in self.b.branches):
            self.b.scene(ENDING, "이야기 끝 (*ending)", None, None, ending=True)
        return self.b

    def _read(self, name: str) -> list[_Node] | None:
        path = self.folder / f"{name}.txt"
        if not path.is_file():
            return None
        try:
            text = read_text(path)
        except InputError as exc:
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

    def _prescan(self, name: str) -> None:
        labels: dict[str, int] = {}
        stack = list(reversed(self.trees[name]))
        while stack:
            node = stack.pop()
            cmd, args = _command(node.text)
            if cmd in ("set", "temp", "create"):
                self._set(args, node.line, self.files[name], create=cmd != "set")
            elif cmd in ("rand", "input_number"):
                parts = args.split()
                if len(parts) == 3:
                    for v in parts[1:]:
                        lv = literal(v)
                        self.b.assign(parts[0].lower(), lv if isinstance(lv, int) else None, self.files[name], node.line)
            elif cmd == "input_text":
                parts = args.split()
                if parts:
                    self.b.issue(self.files[name], node.line, f"`*input_text`로 받는 값은 미리 알 수 없어 변수 {quote_code(parts[0])}의 값 목록에 넣지 못했습니다.")
            elif cmd == "label":
                labels.setdefault(args.strip().lower(), node.line)
            elif cmd == "goto_scene" or cmd == "gosub_scene":
                target = args.split()[0] if args.split() else ""
                if target and target not in self.trees and re.fullmatch(r"[\w-]+", target):
                    self._read(target)
            stack.extend(reversed(node.children))
        self.labels[name] = labels

    # ------------------------------------------------------------------ names

    def _resolve(self, name: str):
        return ("name", name.lower())

    def _call(self, name: str, args: list):
        raise Opaque(f"함수 호출({name})이 든")

    def _cond(self, text: str) -> Any:
        # ChoiceScript writes equality as `=`, concatenation as `&`, and {name} for a computed reference
        if "{" in text or "&" in text.replace("&&", ""):
            return Opaque("계산된 변수 이름이나 문자열 잇기가 든")
        if "%" in text:
            return Opaque("산술 계산이 든")
        return translate(text, self.dialect)

    # ------------------------------------------------------------------ flow

    def _scene_file(self, name: str) -> None:
        self.name = name
        self.file = self.files[name]
        self.b.scene(name, name, self.file, 1, entry=(name == "startup"))
        scene, falls = self._block(self.trees[name], name, Cond(), top=True)
        if falls:
            last = last_line(self.trees[name]) or 1
            self._finish(scene, Cond(), last)

    def _next_scene(self) -> str:
        if self.name in self.scene_list:
            i = self.scene_list.index(self.name)
            if i + 1 < len(self.scene_list):
                return self.scene_list[i + 1]
        return ENDING

    def _finish(self, scene: str, cond: Cond, line: int) -> None:
        self.b.branch(scene, self._next_scene(), cond, "auto", self.file, line)

    def _label_scene(self, file_name: str, label: str) -> str:
        return f"{file_name}.{label.lower()}"

    def _target(self, label: str, line: int) -> str:
        label = label.strip().lower()
        if label not in self.labels.get(self.name, {}):
            return self._label_scene(self.name, label)  # reported by the lint as a missing scene
        return self._label_scene(self.name, label)

    def _block(self, nodes: list[_Node], scene: str, ctx: Cond, top: bool = False) -> tuple[str, bool]:
        """Emit the branches of ``nodes`` from ``scene`` under ``ctx``; returns the scene
        the flow is in at the end and whether it may fall out of the block's end."""
        falls = True
        i = 0
        nodes = list(nodes)
        while i < len(nodes):
            node = nodes[i]
            cmd, args = _command(node.text)
            if node.children and cmd not in ("choice", "fake_choice", "if", "elseif", "elsif", "else", "scene_list"):
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
                target = self._label_scene(self.name, args.split()[0] if args.split() else "")
                self.b.scene(target, args.strip() or target, self.file, node.line)
                if falls:
                    self.b.branch(scene, target, ctx if ctx else None, "auto", self.file, node.line)
                scene, falls = target, True
                i += 1
                continue
            if cmd in ("goto", "gotoref", "goto_scene", "gosub", "gosub_scene", "finish", "ending", "restart",
                       "return", "goto_random_scene", "redirect_scene", "abort"):
                scene, falls = self._jump(cmd, args, node, scene, ctx)
                i += 1
                continue
            if cmd in ("choice", "fake_choice"):
                scene, falls = self._choice(cmd, node, scene, ctx)
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
                scene, falls = self._if_chain(chain, scene, ctx)
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
        previous: list[Any] = []
        any_falls = False
        has_else = chain[-1][1] is None and chain[-1][2] == "else"
        for k, (node, cond_node, source) in enumerate(chain):
            if source == "else":
                here = none_of(previous)
                src = "else"
            else:
                before = none_of(previous)
                here = cond_node if before is None else (before if isinstance(before, Opaque) else cond_node if isinstance(cond_node, Opaque) else ("and", before, cond_node))
                src = source
                previous.append(cond_node)
            sub_ctx = ctx.and_(here, src) if here is not None else ctx
            end_scene, falls = self._block(node.children, scene, sub_ctx)
            if falls and k + 1 < len(chain) and not self.implicit:
                # ChoiceScript stops with an error: "It is illegal to fall in to an *else statement"
                dead = f"{self.name}.fall-{node.line}"
                self.b.scene(dead, f"{self.name} {node.line}번째 줄 (*else로 떨어지는 곳)", self.file, node.line)
                self.b.branch(end_scene, dead, sub_ctx if end_scene == scene else None, "auto", self.file,
                              last_line(node.children) or node.line)
                self.b.issue(self.file, last_line(node.children) or node.line,
                             "이 `*if` 블록이 `*goto`나 `*finish` 없이 끝나 바로 다음 `*elseif`나 `*else`로 떨어지는데 ChoiceScript는 여기서 오류로 멈추므로, 이 길은 막힌 곳으로 적었습니다.")
                continue
            if end_scene != scene and falls:
                # a label inside the block: the rest of the file continues from there
                scene = end_scene
            any_falls = any_falls or falls
        return scene, any_falls or not has_else

    def _jump(self, cmd: str, args: str, node: _Node, scene: str, ctx: Cond) -> tuple[str, bool]:
        parts = args.split()
        line = node.line
        cond = ctx if ctx else None
        if cmd == "goto":
            self.b.branch(scene, self._target(parts[0] if parts else "", line), cond, "auto", self.file, line)
        elif cmd == "goto_scene":
            target = parts[0] if parts else ""
            to = self._label_scene(target, parts[1]) if len(parts) > 1 else target
            self.b.branch(scene, to, cond, "auto", self.file, line)
        elif cmd in ("gosub", "gosub_scene"):
            if cmd == "gosub":
                target_file, to = self.name, self._target(parts[0] if parts else "", line)
            else:
                target_file = parts[0] if parts else ""
                to = self._label_scene(target_file, parts[1]) if len(parts) > 1 else target_file
            cont = f"{self.name}.after-{line}"
            self.b.branch(scene, to, cond, "auto", self.file, line)
            self.b.scene(cont, f"`{self.name}` {line}번째 줄 `*{cmd}`에서 돌아온 뒤", self.file, line)
            self.calls.append((target_file, to, cont, line))
            if cond:
                self.b.branch(scene, cont, None, "auto", self.file, line)
            return cont, True
        elif cmd == "return":
            self.returns.append((self.name, scene, self.name, line))
        elif cmd == "finish":
            self._finish(scene, ctx, line)
        elif cmd == "ending":
            self.b.branch(scene, ENDING, cond, "auto", self.file, line)
        elif cmd == "restart":
            self.b.branch(scene, "startup", cond, "auto", self.file, line)
        elif cmd == "abort":
            pass
        else:
            self.b.issue(self.file, line, f"*{cmd} 줄은 가는 곳을 실행할 때에야 정하므로 분기로 옮기지 않았습니다.")
        # within its block a jump always leaves; the block's condition is on the branch
        return scene, False

    def _choice(self, cmd: str, node: _Node, scene: str, ctx: Cond) -> tuple[str, bool]:
        fake = cmd == "fake_choice"
        cont = None
        if fake:
            cont = f"{self.name}.after-{node.line}"
        options = self._options(node.children, Cond())
        if not options:
            self.b.issue(self.file, node.line, f"`*{cmd}` 아래에 `#` 기호로 시작하는 선택지가 없어 이 자리는 막힌 곳이 됩니다.")
        for opt, cond, once in options:
            full = ctx.plus(cond)
            title = opt.text.lstrip("#").strip().rstrip(".") or f"{opt.line}번째 줄의 선택지"
            body = opt.children
            only = _only_jump(body)
            if only is not None and not only[2].children:  # (lines indented under the jump: _block names them)
                c2, a2, jnode = only
                target = self._jump_target(c2, a2)
                if target is not None:
                    self.b.branch(scene, target, full, "choice", self.file, opt.line, once, via=jnode.line)
                    continue
            if fake and not any(_flows_deep(n) for n in body):
                # (a body with a way on anywhere in it — a stray option line, a jump
                # indented under text — goes through _block below, which reads or names it)
                self.b.branch(scene, cont, full, "choice", self.file, opt.line, once)
                continue
            sub = f"{self.name}.option-{opt.line}"
            self.b.scene(sub, title, self.file, opt.line)
            self.b.branch(scene, sub, full, "choice", self.file, opt.line, once)
            end_scene, falls = self._block(body, sub, Cond())
            if falls:
                if fake:
                    self.b.branch(end_scene, cont, None, "auto", self.file, last_line(body) or opt.line)
                else:
                    self.b.issue(self.file, last_line(body) or opt.line,
                                 "이 선택지가 `*goto`나 `*finish` 없이 끝나 `*choice` 밖으로 떨어지는데 ChoiceScript는 여기서 오류로 멈추므로, 이 선택지는 막힌 곳으로 적었습니다.")
        if fake:
            self.b.scene(cont, f"`{self.name}` {node.line}번째 줄 `*fake_choice` 뒤", self.file, node.line)
            return cont, True
        return scene, False

    def _jump_target(self, cmd: str, args: str) -> str | None:
        parts = args.split()
        if cmd == "goto" and parts:
            return self._target(parts[0], 0)
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

    def _set(self, args: str, line: int, file: str | None, create: bool = False) -> None:
        m = re.match(r"^\s*([\w]+)\s*(.*)$", args)
        if not m:
            return
        name, value = m.group(1).lower(), m.group(2).strip()
        if name == "implicit_control_flow" and literal(value) is True:
            self.implicit = True
        fm = re.match(r"^(%[+-]|[+-])\s*(\S+)$", value)
        if fm:
            v = literal(fm.group(2))
            self.b.assign(name, (fm.group(1), v if isinstance(v, int) and not isinstance(v, bool) else None), file, line)
            return
        v = literal(value)
        if create and v is not None:
            self.b.declare(name, v, file, line, label=name)
        else:
            self.b.assign(name, v, file, line)


def _command(text: str) -> tuple[str | None, str]:
    m = re.match(r"^\*(\w+)\s*(.*)$", text.strip())
    if not m:
        return None, ""
    return m.group(1).lower(), m.group(2)


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
    flows = [n for n in body if _flows(n)]
    if len(flows) == 1 and flows[0] is body[-1]:
        cmd, args = _command(flows[0].text)
        if cmd in ("goto", "goto_scene", "finish", "ending"):
            return cmd, args, flows[0]
    return None


def _close(text: str) -> int:
    depth = 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
    return len(text) - 1


