"""ink compiled by inklecate (``.ink.json``, the runtime format) → the three tables.

The JSON has no source lines, so ``source_line`` stays empty and issues name the file
and the container path instead.  Scenes: the top of the story (``(top)``), every knot,
stitch and labelled gather or choice (named containers), unlabelled gathers
(``knot.g-0``) and choice bodies that hold more than one way on (``knot.c-0``);
``END`` and ``DONE`` are ending scenes.  Conditions are rebuilt from the evaluation
blocks (``"ev"`` … ``"/ev"``) before conditional diverts and choice points.
Tunnels, threads and function calls are reported (see ``docs/importers.md``).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from verdicts.errors import InputError

from .common import MAX_NESTING, Cond, Opaque, StoryBuilder, quote_code, read_text

__all__ = ["import_ink_json"]

_INTERNAL = re.compile(r"^(?:[cg]-\d+|[sbc]|\d+)$")


class _C:
    """A container: its ordered content, named children, parent and name."""

    __slots__ = ("content", "named", "parent", "name", "path")
    path: str  # (declared here: a child reads its parent's while it is made)

    def __init__(self, raw: list, parent: "_C | None", name: str | None, depth: int):
        if depth > MAX_NESTING * 4:
            raise InputError("ink JSON의 컨테이너가 너무 깊이 중첩되어 읽지 않았습니다.")
        self.parent = parent
        self.name = name
        tail = raw[-1] if raw else None
        body = raw[:-1] if raw else []
        self.named: dict[str, _C] = {}
        meta = tail if isinstance(tail, dict) else {}
        if isinstance(meta.get("#n"), str):
            self.name = meta["#n"]
        base = parent.path + "." if parent is not None and parent.path else ""
        self.path = base + (self.name if self.name is not None else "")
        self.content: list[Any] = []
        for i, item in enumerate(body):
            if isinstance(item, list):
                child = _C(item, self, None, depth + 1)
                if child.name is None:
                    child.path = base + (self.name or "") + f".{i}" if self.path else str(i)
                self.content.append(child)
            else:
                self.content.append(item)
        for key, value in meta.items():
            if key in ("#f", "#n") or not isinstance(value, list):
                continue
            self.named[key] = _C(value, self, key, depth + 1)

    def child(self, comp: str) -> Any:
        if comp == "^":
            return self.parent
        if comp.isdigit():
            i = int(comp)
            return self.content[i] if i < len(self.content) else None
        if comp in self.named:
            return self.named[comp]
        for item in self.content:
            if isinstance(item, _C) and item.name == comp:
                return item
        return None


def import_ink_json(path: Path) -> StoryBuilder:
    text = read_text(path)
    try:
        doc = json.loads(text)
    except ValueError as exc:
        raise InputError(f"{path}: JSON으로 읽을 수 없습니다 ({str(exc)[:80]}).") from None
    if not isinstance(doc, dict) or not isinstance(doc.get("root"), list):
        raise InputError(f"{path}: inklecate가 만든 ink JSON(inkVersion, root)이 아닙니다.")
    try:
        return _InkJson(str(path), doc).run()
    except RecursionError:
        raise InputError(f"{path}: ink JSON이 너무 깊이 중첩되어 읽지 않았습니다.") from None


class _InkJson:
    def __init__(self, file: str, doc: dict):
        self.file = file
        self.b = StoryBuilder("ink-json", file)
        self.root = _C(doc["root"], None, None, 0)
        self.root.path = ""
        self.scene_ids: dict[int, str] = {}
        self.walked: set[tuple[int, str]] = set()
        self.ends: set[str] = set()

    def run(self) -> StoryBuilder:
        top = next((c for c in self.root.content if isinstance(c, _C)), None)
        decl = self.root.named.get("global decl")
        if decl is not None:
            self._declarations(decl)
        self.b.scene("(top)", "이야기 시작", self.file, None, entry=True)
        if top is not None:
            self.scene_ids[id(top)] = "(top)"
        for name, knot in self.root.named.items():
            if name == "global decl":
                continue
            self._register(knot, name)
        if top is not None:
            self._walk_scene(top, "(top)")
        for name, knot in self.root.named.items():
            if name != "global decl":
                self._walk_all(knot)
        for end in sorted(self.ends):
            self.b.scene(end, f"이야기 끝 (-> {end})", None, None, ending=True)
        return self.b

    def _register(self, c: _C, sid: str) -> None:
        self.scene_ids[id(c)] = sid
        self.b.scene(sid, sid, self.file, None)
        for name, child in c.named.items():
            if not _INTERNAL.match(name):
                self._register(child, f"{sid}.{name}")

    def _walk_all(self, c: _C) -> None:
        sid = self.scene_ids.get(id(c))
        if sid is not None and not sid.startswith("(top)"):
            self._walk_scene(c, sid)
        for name, child in c.named.items():
            if not _INTERNAL.match(name):
                self._walk_all(child)

    # ------------------------------------------------------------------ paths

    def _resolve(self, origin: _C, path: str) -> Any:
        comps = path.split(".")
        if path.startswith("."):
            comps = comps[1:]
            node: Any = origin
            if comps and comps[0] == "^":
                comps = comps[1:]  # the first ^ of a relative path is the object's own container
        else:
            node = self.root
        for comp in comps:
            if not isinstance(node, _C):
                return None
            node = node.child(comp)
        return node

    def _scene_of(self, c: Any) -> str | None:
        while isinstance(c, _C):
            sid = self.scene_ids.get(id(c))
            if sid is not None:
                return sid
            c = c.parent
        return None

    # ------------------------------------------------------------------ flow

    def _walk_scene(self, c: _C, sid: str) -> None:
        if (id(c), sid) in self.walked:
            return
        self.walked.add((id(c), sid))
        cur, falls = self._walk(c, sid, Cond(), [], 0)
        if falls:
            self.b.issue(self.file, None, f"컨테이너 {quote_code(c.path or '(top)')}의 흐름이 내용 끝에 닿는데 끝내는 화살표도 선택지도 없어 이 장면을 끝에 못 가는 곳으로 두었습니다.")

    def _walk(self, c: _C, sid: str, ctx: Cond, stack: list, depth: int) -> tuple[str, bool]:
        if depth > MAX_NESTING:
            self.b.issue(self.file, None, f"컨테이너({quote_code(c.path)})가 너무 깊이 중첩되어 안쪽은 옮기지 않았습니다.")
            return sid, False
        falls = True
        in_ev = False
        in_str: list[str] | None = None
        has_choice = False
        for item in c.content:
            if isinstance(item, _C):
                inner_sid = self.scene_ids.get(id(item))
                if inner_sid is None and item.name is not None and item.name.startswith("g-") and not falls:
                    continue  # a gather no flow falls into (inklecate ends the top with one); a divert to it walks it
                if inner_sid is None and item.name is not None and _INTERNAL.match(item.name) and item.name.startswith("g-"):
                    inner_sid = f"{sid.split('.g-')[0]}.{item.name}"
                    self.b.scene(inner_sid, f"{c.path} 모임 {item.name}", self.file, None)
                    self.scene_ids[id(item)] = inner_sid
                if inner_sid is not None and inner_sid != sid:
                    if falls and not has_choice:
                        self.b.branch(sid, inner_sid, ctx if ctx else None, "auto", self.file, None)
                    sid, falls, has_choice = inner_sid, True, False
                    self.walked.add((id(item), inner_sid))
                sid, falls2 = self._walk(item, sid, ctx, stack, depth + 1)
                falls = falls and falls2
                continue
            if isinstance(item, str):
                if item == "ev":
                    in_ev = True
                elif item == "/ev":
                    in_ev = False
                elif item == "str":
                    in_str = []
                elif item == "/str":
                    stack.append(("str", "".join(in_str or [])))
                    in_str = None
                elif in_str is not None and item.startswith("^"):
                    in_str.append(item[1:])
                elif item in ("end", "done"):
                    end = item.upper()
                    self.ends.add(end)
                    self.b.branch(sid, end, ctx if ctx else None, "auto", self.file, None)
                    falls = False
                elif item == "->->":
                    self.b.issue(self.file, None, f"컨테이너 {quote_code(c.path)}의 터널 돌아가기는 JSON에서 돌아갈 곳을 알 수 없어 옮기지 않았으니, .ink 원본을 가져오면 옮겨집니다.")
                    falls = False
                elif item == "thread":
                    self.b.issue(self.file, None, f"컨테이너 {quote_code(c.path)}의 스레드는 JSON 가져오기에서 옮기지 않았으니, .ink 원본을 가져오면 옮겨집니다.")
                elif in_ev:
                    _apply_op(stack, item)
                continue
            if isinstance(item, (bool, int, float)) and in_ev:
                stack.append(("bool", item) if isinstance(item, bool) else ("int", item) if isinstance(item, int) else ("float", str(item)))
                continue
            if not isinstance(item, dict):
                continue
            if in_ev and ("VAR?" in item or "CNT?" in item or "^->" in item):
                if "VAR?" in item:
                    stack.append(("name", item["VAR?"]))
                elif "CNT?" in item:
                    target = self._resolve(c, item["CNT?"])
                    tsid = self._scene_of(target)
                    stack.append(("visit", tsid) if tsid else Opaque("읽지 못한 방문 횟수가 든"))
                else:
                    stack.append(("divert", item["^->"]))
                continue
            if "VAR=" in item or "temp=" in item:
                name: Any = item.get("VAR=") or item.get("temp=")  # JSON: the name the compiler wrote
                value = stack.pop() if stack else None
                if isinstance(value, tuple) and value[0] in ("int", "bool", "str"):
                    self.b.assign(name, value[1], self.file, None)
                else:
                    self.b.assign(name, None, self.file, None)
                continue
            if "->" in item:
                cond = ctx
                if item.get("c"):
                    node = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
                    cond = ctx.and_(node, _source(node))
                if item.get("var"):
                    self.b.issue(self.file, None, f"컨테이너 {quote_code(c.path)}의 변수에 담긴 곳으로 가는 화살표({quote_code(item['->'])})는 JSON 가져오기에서 옮기지 않았습니다.")
                    continue
                target = self._resolve(c, item["->"])
                if target is None:
                    self.b.branch(sid, item["->"], cond if cond else None, "auto", self.file, None)
                    falls = falls and bool(item.get("c"))
                    continue
                tsid = self._scene_of(target) if not (isinstance(target, _C) and id(target) in self.scene_ids) else self.scene_ids[id(target)]
                if isinstance(target, _C) and target.name is not None and target.name.startswith("g-") and id(target) not in self.scene_ids:
                    tsid = f"{sid.split('.g-')[0]}.{target.name}"
                    self.scene_ids[id(target)] = tsid
                    self.b.scene(tsid, f"{target.parent.path if target.parent else ''} 모임 {target.name}", self.file, None)
                    self._walk_scene(target, tsid)
                if tsid is not None and tsid != sid:
                    self.b.branch(sid, tsid, cond if cond else None, "auto", self.file, None)
                elif isinstance(target, _C) and (id(target), sid) not in self.walked:
                    # an inline branch of the same scene ({cond: …}): its content runs under the condition
                    self.walked.add((id(target), sid))
                    self._walk(target, sid, cond, stack, depth + 1)
                if not item.get("c"):
                    falls = False
                continue
            if "*" in item:
                flg = int(item.get("flg", 0))
                if flg & 0x4 and stack:
                    stack.pop()
                if flg & 0x2 and stack:
                    stack.pop()
                cond = ctx
                if flg & 0x1:
                    node = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
                    cond = ctx.and_(node, _source(node))
                kind = "auto" if flg & 0x8 else "choice"
                target = self._resolve(c, item["*"])
                self._choice(sid, target, cond, kind, bool(flg & 0x10) and kind == "choice", item["*"], depth)
                has_choice = True
                continue
            if "f()" in item or "->t->" in item or "x()" in item:
                key = "->t->" if "->t->" in item else None
                if key:
                    target = self._resolve(c, item[key])
                    tsid = self._scene_of(target)
                    self.b.branch(sid, tsid or item[key], ctx if ctx else None, "auto", self.file, None)
                    self.b.issue(self.file, None, f"컨테이너 {quote_code(c.path)}의 터널 호출은 돌아올 곳을 JSON에서 알 수 없어 가는 분기만 옮겼습니다.")
                continue
        return sid, falls and not has_choice

    def _choice(self, sid: str, target: Any, cond: Cond, kind: str, once: bool, path: str, depth: int) -> None:
        if not isinstance(target, _C):
            self.b.branch(sid, path, cond if cond else None, kind, self.file, None, once)
            return
        named = self.scene_ids.get(id(target))
        if named is not None:
            self.b.branch(sid, named, cond if cond else None, kind, self.file, None, once)
            self._walk_scene(target, named)
            return
        # one plain divert out of the body: the choice leads straight there
        exits = [x for x in target.content if isinstance(x, dict) and ("->" in x or "*" in x)] + \
                [x for x in target.content if x in ("end", "done")]
        if len(exits) == 1 and isinstance(exits[0], dict) and "->" in exits[0] and not exits[0].get("c") \
                and not exits[0].get("var") and not any(isinstance(x, _C) for x in target.content):
            t = self._resolve(target, exits[0]["->"])
            tsid = self._scene_of(t) if not (isinstance(t, _C) and t.name and t.name.startswith("g-")) else None
            if isinstance(t, _C) and t.name and t.name.startswith("g-"):
                tsid = self.scene_ids.get(id(t)) or f"{sid.split('.g-')[0]}.{t.name}"
                if id(t) not in self.scene_ids:
                    self.scene_ids[id(t)] = tsid
                    self.b.scene(tsid, f"{t.parent.path if t.parent else ''} 모임 {t.name}", self.file, None)
                    self._walk_scene(t, tsid)
            if tsid is not None:
                self.b.branch(sid, tsid, cond if cond else None, kind, self.file, None, once)
                return
        if len(exits) == 1 and exits[0] in ("end", "done"):
            end = exits[0].upper()
            self.ends.add(end)
            self.b.branch(sid, end, cond if cond else None, kind, self.file, None, once)
            return
        sub = f"{sid.split('.g-')[0]}.{target.name or 'c'}"
        self.scene_ids[id(target)] = sub
        self.b.scene(sub, f"{target.path} 선택지", self.file, None)
        self.b.branch(sid, sub, cond if cond else None, kind, self.file, None, once)
        self._walk_scene(target, sub)

    def _declarations(self, decl: _C) -> None:
        stack: list = []
        for item in decl.content:
            if isinstance(item, bool):
                stack.append(item)
            elif isinstance(item, (int, float)):
                stack.append(item)
            elif isinstance(item, str) and item.startswith("^"):
                stack.append(item[1:])
            elif isinstance(item, dict) and "VAR=" in item:
                value = stack.pop() if stack else None
                if isinstance(value, dict):
                    continue
                if value is None:
                    self.b.flag(item["VAR="], item["VAR="])
                else:
                    self.b.declare(item["VAR="], value, self.file, None, label=item["VAR="])
            elif isinstance(item, dict) and "^->" in item:
                stack.append(item)
            elif item == "str" or item == "/str":
                continue


_BINARY = {"==": "cmp", "!=": "cmp", ">": "cmp", "<": "cmp", ">=": "cmp", "<=": "cmp", "&&": "and", "||": "or",
           "+": "arith", "-": "arith", "*": "arith", "/": "arith", "%": "arith", "MIN": "arith", "MAX": "arith"}


def _apply_op(stack: list, op: str) -> None:
    if op in _BINARY:
        b = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
        a = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
        if isinstance(a, Opaque) or isinstance(b, Opaque):
            stack.append(a if isinstance(a, Opaque) else b)
            return
        kind = _BINARY[op]
        if kind == "cmp":
            stack.append(("cmp", op, a, b))
        elif kind in ("and", "or"):
            stack.append((kind, a, b))
        else:
            stack.append(("arith", op, a, b))
    elif op == "!":
        a = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
        stack.append(a if isinstance(a, Opaque) else ("not", a))
    elif op == "~":
        a = stack.pop() if stack else Opaque("읽지 못한 조건이 든")
        stack.append(("int", -a[1]) if isinstance(a, tuple) and a[0] == "int" else Opaque("산술 계산이 든"))
    elif op == "du":
        if stack:
            stack.append(stack[-1])
    elif op in ("pop", "out"):
        if stack:
            stack.pop()
    elif op in ("rnd", "srnd", "seq"):
        if stack:
            stack.pop()
        if op != "srnd":
            stack.append(Opaque("무작위 값이나 차례가 든"))
    elif op in ("visit", "turn", "turns", "choiceCnt", "readc"):
        if op in ("turns", "readc") and stack:
            stack.pop()
        stack.append(Opaque(f"실행 중에만 알 수 있는 값({op})이 든"))


def _source(node: Any) -> str:
    """A readable ink spelling of a rebuilt condition (for ``condition_source``)."""
    if isinstance(node, Opaque) or not isinstance(node, tuple):
        return "(알 수 없음)"
    kind = node[0]
    if kind == "cmp":
        return f"{_source(node[2])} {node[1]} {_source(node[3])}"
    if kind in ("and", "or"):
        return f"({_source(node[1])} {kind} {_source(node[2])})"
    if kind == "not":
        return f"not {_source(node[1])}"
    if kind == "arith":
        return f"({_source(node[2])} {node[1]} {_source(node[3])})"
    if kind == "name":
        return node[1]
    if kind == "visit":
        return f"{node[1]}"
    if kind == "str":
        return json.dumps(node[1], ensure_ascii=False)
    if kind == "bool":
        return "true" if node[1] else "false"
    return str(node[1])
