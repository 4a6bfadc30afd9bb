"""ink (inkle's scripting language, ``.ink`` source) → the three tables, read by ink's
own compiler.

The story is compiled by inkjs's compiler (the npm package ``inkjs``, pinned in
``ink_bridge/package.json``) on Node.js: ``ink_bridge/bridge.js`` walks the runtime
container tree the compiler builds - the flow the engine really runs - and reads what
the runtime has lost (conditions as written, which names are globals, temporaries,
parameters or constants, ``ref`` parameters, file and line) from the parsed hierarchy
the compiler links to it.  It prints one JSON document; this module maps it into
scenes, branches and flags through :class:`~.common.StoryBuilder`.

Scenes: the top of the story (``(top)``, the entry), every knot (``knot``; not a knot that
only names its stitches), stitch (``knot.stitch``), labelled gather or choice
(``knot.stitch.label``), unlabelled gather (``knot.gather-12``), choice body that holds
more than one way on (``knot.choice-12``), the continuation after a tunnel call or a
thread that offers no choice (``knot.after-12``), and the copies of a tunnel's scenes
made for its other calls (``knot.stitch@12``: the engine goes back to the call it came
from); ``END`` and ``DONE`` are ending scenes.  See ``docs/importers.md``.
"""

from __future__ import annotations

import json
import os
import re
import selectors
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verdicts.errors import InputError
from verdicts.korean import josa

from .common import MAX_NESTING, MAX_STORY_BYTES, Construct, Cond, Opaque, StoryBuilder, negate, place, quote_code, read_text

__all__ = ["import_ink", "import_ink_text", "scan_constructs", "BRIDGE", "INKJS_VERSION"]

#: the bridge script and its pinned dependencies (``npm ci`` there: ``scripts/setup.sh``)
BRIDGE = Path(__file__).resolve().with_name("ink_bridge")
INKJS_VERSION = "2.4.0"
#: how long the compiler may take, and how much it may print, before the story is refused
TIMEOUT_SECONDS = 120
MAX_OUTPUT_BYTES = 256 * 1024 * 1024
#: files an ink story may include, at most
MAX_INCLUDES = 200
#: targets of one divert through a variable, at most, before it becomes an opaque jump
MAX_DIVERT_TARGETS = 64
#: branches made from all the diverts through variables together, at most: each such
#: divert becomes one branch per target, so thousands of them over dozens of targets made
#: hundreds of thousands of branches from a 94 KB story; past it a divert through a
#: variable is an opaque jump (its cards withheld, never judged on a guess)
MAX_VARIABLE_BRANCHES = 10_000
#: how far a thread's choices are followed through its diverts, and how many scenes at most
MAX_THREAD_DEPTH = 16
MAX_THREAD_STEPS = 2000
#: scenes copied for tunnel calls and threads (each call's own way back), at most; and the
#: calls of one tunnel whose sharing of its scenes is looked into, at most
MAX_COPIES = 3000
MAX_SHARED_CALLS = 64

_SETUP = "`bash scripts/setup.sh`"


# ----------------------------------------------------------------------------- running the bridge


def _node() -> str:
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        raise InputError(f"ink 이야기는 ink 컴파일러(inkjs)로 읽는데 그 컴파일러를 돌릴 Node.js(`node`)가 없어 읽지 못했으니, "
                         f"{_SETUP}를 실행해 Node.js와 inkjs {INKJS_VERSION}를 설치해 주세요.")
    return node


def _check_inkjs() -> None:
    package = BRIDGE / "node_modules" / "inkjs" / "package.json"
    try:
        version = json.loads(package.read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        version = None
    if version != INKJS_VERSION:
        found = f"(지금은 {version}) " if version else ""
        raise InputError(f"ink 이야기를 읽을 ink 컴파일러 inkjs {INKJS_VERSION}가 설치되어 있지 않아 {found}읽지 못했으니, "
                         f"{_SETUP}를 실행해 설치해 주세요.")


def _run_bridge(path: Path, text: str) -> dict:
    """Compile ``path`` (whose text is ``text``) with the bridge; its JSON document.

    Bounded: the compiler gets :data:`TIMEOUT_SECONDS` and may print
    :data:`MAX_OUTPUT_BYTES`; past either, or when it cannot run, an
    :class:`InputError` in Korean."""
    node = _node()
    _check_inkjs()
    from verdicts.files import file_limit

    # an INCLUDEd file is capped as the main file is (VERDICTS_MAX_FILE_BYTES replaces both)
    per_file = file_limit(MAX_STORY_BYTES)
    limits = {"maxFileBytes": per_file, "maxTotalBytes": max(64 * 1024 * 1024, per_file)}
    request = json.dumps({"main": str(path.resolve()), "text": text, "limits": limits}, ensure_ascii=False).encode("utf-8")
    env = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"}
    with tempfile.TemporaryFile() as stdin:
        stdin.write(request)
        stdin.seek(0)
        try:
            proc = subprocess.Popen([node, "--max-old-space-size=2048", "--stack-size=4000", str(BRIDGE / "bridge.js")],
                                    stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=str(BRIDGE),
                                    env=env)
        except OSError as exc:
            raise InputError(f"{path}: ink 컴파일러를 돌릴 Node.js를 실행하지 못했으니({exc.strerror or exc}) "
                             f"{_SETUP}를 실행해 주세요.") from None
        assert proc.stdout is not None and proc.stderr is not None  # both are PIPE
        chunks: list[bytes] = []
        size = 0
        errors = b""
        deadline = time.monotonic() + TIMEOUT_SECONDS
        problem = None
        with selectors.DefaultSelector() as sel:
            sel.register(proc.stdout, selectors.EVENT_READ)
            sel.register(proc.stderr, selectors.EVENT_READ)
            open_streams = 2
            while open_streams:
                left = deadline - time.monotonic()
                if left <= 0:
                    problem = "time"
                    break
                for key, _ in sel.select(timeout=min(left, 1.0)):
                    # (selectors types a key's file as an int or a file: these are the two pipes)
                    data = os.read(key.fileobj.fileno(), 1 << 20)  # type: ignore[union-attr]
                    if not data:
                        sel.unregister(key.fileobj)
                        open_streams -= 1
                    elif key.fileobj is proc.stdout:
                        chunks.append(data)
                        size += len(data)
                        if size > MAX_OUTPUT_BYTES:
                            problem = "size"
                            break
                    else:
                        errors = (errors + data)[-4000:]
                if problem:
                    break
        if problem:
            proc.kill()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover - killed above
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    if problem == "time":
        raise InputError(f"{path}: ink 컴파일러가 {TIMEOUT_SECONDS}초 안에 끝나지 않아 이 이야기를 읽지 않았습니다.")
    if problem == "size":
        raise InputError(f"{path}: ink 컴파일러가 내놓은 결과가 {MAX_OUTPUT_BYTES:,}바이트를 넘어 이 이야기를 읽지 않았습니다.")
    raw = b"".join(chunks)
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        last = " ".join(errors.decode("utf-8", "replace").split())[-160:]
        why = "메모리가 모자랐거나 " if "heap" in last.lower() or "memory" in last.lower() else ""
        raise InputError(f"{path}: ink 컴파일러가 {why}도중에 멈춰(종료 코드 {proc.returncode}) 이 이야기를 읽지 못했습니다"
                         + (f" ({quote_code(last, 120)})." if last else ".")) from None
    if not isinstance(doc, dict):
        raise InputError(f"{path}: ink 컴파일러의 결과를 알아볼 수 없어 이 이야기를 읽지 못했습니다.")
    if doc.get("fatal") == "missing-inkjs":
        raise InputError(f"ink 이야기를 읽을 ink 컴파일러 inkjs {INKJS_VERSION}를 Node.js가 찾지 못했으니, {_SETUP}를 실행해 설치해 주세요.")
    return doc


# ----------------------------------------------------------------------------- entry points


def import_ink(path: Path, name: str | None = None) -> StoryBuilder:
    """Compile ``path`` and every file it ``INCLUDE``s (relative to its folder, as
    inklecate reads them) into one story whose scenes and branches point at their own
    file and line."""
    path = Path(path)
    main = name or str(path)
    text = read_text(path)
    return _Mapper(main, path, _run_bridge(path, text)).run()


def import_ink_text(text: str, file: str) -> StoryBuilder:
    """One ink text, compiled as a file named ``file`` in an empty folder (its
    ``INCLUDE`` lines find nothing and are reported)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / (Path(file).name or "story.ink")
        path.write_text(text, encoding="utf-8")
        doc = _run_bridge(path, read_text(path))
        return _Mapper(file, path, doc).run()


# ----------------------------------------------------------------------------- expressions


_OPS = {"==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}
_LOGIC = {"&&": "and", "and": "and", "||": "or", "or": "or"}
_ARITH = {"+", "-", "*", "/", "%", "mod"}
_RUNTIME_ONLY = {"TURNS_SINCE", "TURNS", "CHOICE_COUNT", "READ_COUNT", "SEED_RANDOM"}


def _literal(tree: Any, depth: int = 0) -> Any:
    """The value of a literal (constants substituted), else ``None``."""
    if not isinstance(tree, dict) or depth > MAX_NESTING:
        return None
    t = tree.get("t")
    if t in ("int", "bool", "str"):
        return tree.get("v")
    if t == "float":
        return float(tree.get("v"))  # type: ignore[arg-type]  # (a float literal carries "v"; without, TypeError as before)
    if t == "const":
        return _literal(tree.get("value"), depth + 1)
    if t == "un" and tree.get("op") == "-":
        inner = _literal(tree.get("e"), depth + 1)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner
    return None


def _translate(tree: Any, depth: int = 0) -> Any:
    """A JSON expression of the bridge as our AST (or raise :class:`Opaque`)."""
    if not isinstance(tree, dict):
        raise Opaque("읽지 못한 문법이 든")
    if depth > MAX_NESTING:
        raise Opaque(f"{MAX_NESTING}겹보다 깊이 중첩된")
    t = tree.get("t")
    if t == "int":
        value = tree.get("v")
        if type(value) is not int:  # (the compiler writes an integer past its range as null)
            raise Opaque("정수로 나타낼 수 없는 수가 든")
        return ("int", value)
    if t == "float":
        return ("float", str(tree["v"]))
    if t == "bool":
        return ("bool", bool(tree["v"]))
    if t == "str":
        return ("str", str(tree["v"]))
    if t == "const":
        return _translate(tree.get("value"), depth + 1)
    if t == "var":
        return ("name", tree["name"])
    if t == "visit":
        return ("visit", tree["scene"])
    if t == "divert":
        if tree.get("scene"):
            return ("str", tree["scene"])
        raise Opaque("찾지 못한 곳을 가리키는 값이 든")
    if t == "temp":
        raise Opaque("매개변수나 임시 변수(`temp`)를 따지는" if not tree.get("param") else "매개변수를 따지는")
    if t == "list":
        raise Opaque("목록(`LIST`) 값을 따지는")
    if t == "all":
        items = [_translate(x, depth + 1) for x in tree.get("items") or []]
        if not items:
            return ("bool", True)
        node = items[0]
        for x in items[1:]:
            node = ("and", node, x)
        return node
    if t == "bin":
        op = tree.get("op")
        left, right = _translate(tree.get("l"), depth + 1), _translate(tree.get("r"), depth + 1)
        if op in _OPS:
            return ("cmp", _OPS[op], left, right)
        if op in _LOGIC:
            return (_LOGIC[op], left, right)
        if op in _ARITH:
            return ("arith", op, left, right)
        if op in ("?", "has"):
            return ("contains", left, right)
        if op in ("!?", "hasnt"):
            return ("not", ("contains", left, right))
        raise Opaque(f"연산자({op})가 든")
    if t == "un":
        op = tree.get("op")
        inner = _translate(tree.get("e"), depth + 1)
        if op in ("!", "not"):
            return ("not", inner)
        if op == "-" and inner[0] == "int":
            return ("int", -inner[1])
        raise Opaque("산술 계산이 든")
    if t == "call":
        name = tree.get("name") or "?"
        if name in ("RANDOM", "LIST_RANDOM"):
            raise Opaque(f"무작위 값({name})이 든")
        if name in _RUNTIME_ONLY:
            raise Opaque(f"실행 중에만 알 수 있는 값({name})이 든")
        if name.startswith("LIST_"):
            raise Opaque(f"목록 함수({name})가 든")
        raise Opaque(f"함수 호출({name})이 든")
    raise Opaque("읽지 못한 문법이 든")


def _ast(tree: Any) -> Any:
    try:
        return _translate(tree)
    except Opaque as exc:
        return exc
    except RecursionError:  # pragma: no cover - bounded by MAX_NESTING
        return Opaque("너무 깊이 중첩된")


def _clean_source(src: str | None) -> str | None:
    """A condition as written, without the braces and colon around it."""
    if not src:
        return src
    text = src.strip()
    if text.endswith(":"):
        text = text[:-1].rstrip()
    if text.startswith("{") and text.endswith("}") and text.count("{") == 1:
        text = text[1:-1].strip()
    return text


def _render(tree: Any, depth: int = 0) -> str:
    """An ink-like spelling of a JSON expression (when the source text is not at hand)."""
    if not isinstance(tree, dict) or depth > 12:
        return "…"
    t = tree.get("t")
    if t in ("int", "float"):
        return str(tree.get("v"))
    if t == "bool":
        return "true" if tree.get("v") else "false"
    if t == "str":
        return json.dumps(tree.get("v"), ensure_ascii=False)
    if t in ("var", "temp", "const", "list"):
        return str(tree.get("name") or "…")
    if t == "visit":
        return str(tree.get("scene"))
    if t == "divert":
        return f"-> {tree.get('scene') or tree.get('text') or '?'}"
    if t == "bin":
        return f"{_render(tree.get('l'), depth + 1)} {tree.get('op')} {_render(tree.get('r'), depth + 1)}"
    if t == "un":
        op = tree.get("op")
        return f"{op} {_render(tree.get('e'), depth + 1)}" if op == "not" else f"{op}{_render(tree.get('e'), depth + 1)}"
    if t == "all":
        return " and ".join(_render(x, depth + 1) for x in tree.get("items") or [])
    if t == "call":
        return f"{tree.get('name')}({', '.join(_render(x, depth + 1) for x in tree.get('args') or [])})"
    return "…"


# ----------------------------------------------------------------------------- the mapping


_LOOSE_END = "Apparent loose end"
#: compiler messages the tables say in their own way: a divert to a missing target is a
#: branch to a scene that does not exist (`없는 장면을 가리킴`), an undeclared variable is a
#: flag marked `undeclared`
_SAID_BY_TABLES = ("Divert target not found", "Unresolved variable", "Variable could not be found to assign to")
_INCLUDE_FAILED = re.compile(r"Failed to load: '(.*)'\.\s*Error:.*STORYGRAPH:([\w-]+)", re.S)
_INCLUDE_WHY = {
    "outside": "이야기 폴더 밖에 있어",
    "not-file": "일반 파일이 아니라",
    "missing": "없어",
    "too-big": "너무 커서",
    "too-many": f"불러오는 파일이 {MAX_INCLUDES}개를 넘어",
    "encoding": "UTF-8도 CP949도 아닌 바이트가 있어",
    "unreadable": "읽을 수 없어",
}
_ACCOUNTED = {
    "function": "함수 안의 화살표는 값을 계산하는 함수의 흐름이라 장면 사이의 분기로 옮기지 않았습니다.",
    "via": "선택지의 분기가 이 줄의 화살표로 곧장 가므로 이 줄은 그 분기에 담겼습니다.",
    "thread-done": "스레드로 모은 선택지를 보여 주는 자리라 이야기의 끝으로 옮기지 않았습니다.",
    "namespace": "자기 내용 없이 스티치만 담은 매듭이고 이 매듭 자체로 가는 화살표가 없어, 장면이 아니라 스티치들의 이름으로 두었습니다.",
    "menu-end": "이야기 첫머리의 내용이 끝나는 자리라 앞의 메뉴를 보여 줄 뿐이므로 이야기의 끝으로 가는 분기로 옮기지 않았습니다.",
}


@dataclass
class _Fold:
    """What running a thread adds to the menu of the scene that starts it."""

    #: the choices on its way, each with the conditions on the way to it
    choices: list[tuple[dict, Cond]] = field(default_factory=list)
    #: ``("end", "END", cond, exit)``, ``("missing", name, cond, exit)``,
    #: ``("opaque", source, cond, exit)``: the story ends, a divert to nowhere, a way we cannot follow
    leaves: list[tuple[str, str, Cond, dict | None]] = field(default_factory=list)
    #: the scenes (keys) it runs, and the ways into them it takes
    context: set[str] = field(default_factory=set)
    edges: set[tuple[str, str]] = field(default_factory=set)
    #: where it ends: ``(scene key, the `-> DONE` exit)``, or ``(scene key, None)`` where the content runs out
    ends: list[tuple[str, dict | None]] = field(default_factory=list)


def _signature(e: dict) -> tuple:
    """What an exit of the bridge says, whichever walk found it."""
    cond = tuple((p.get("src"), p.get("neg"), p.get("line"), p.get("opaque")) for p in e.get("cond") or [])
    return (e["k"], e.get("file"), e.get("line"), e.get("to"), e.get("which"), e.get("missing"), e.get("variable"),
            e.get("invisible"), e.get("live"), cond)


@dataclass
class _Copy:
    """The scenes of one tunnel call's (or thread's) own way to its ``->->``: copies of
    the tunnel's scenes, whose ``->->`` goes back to that call only."""

    names: dict[str, str]  # scene (key) -> the copy's scene id
    back: str  # the scene after the call
    site: str  # the scene that calls
    line: int | None  # the line of the call
    region: frozenset[str]


@dataclass
class _Flow:
    name: str
    function: bool
    params: list[dict] = field(default_factory=list)


class _Mapper:
    def __init__(self, main: str, path: Path, doc: dict):
        self.main = main
        self.path = Path(path)
        self.abs_main = str(Path(path).resolve())
        self.doc = doc
        self.b = StoryBuilder("ink", main, declarations_required=True)
        self.ids: dict[str, str] = {}
        self.key_of: dict[str, str] = {}  # scene id -> the bridge's key
        self.scenes: dict[str, dict] = {}
        self.folds: dict[str, _Fold] = {}  # thread target (key) -> what running it does
        self.thread_only: set[str] = set()  # scenes only ever run inside a thread
        self.merged: dict[str, str] = {}  # the continuation after a thread that offers choices -> its scene
        self.hidden: set[str] = set()  # scenes (keys) not written: knots that only name their stitches
        self.thread_returns: dict[str, list[str]] = {}  # scene only threads run -> where its thread ends go
        self._model: dict[int, str] = {}  # thread exit -> "fold" | "run"
        self._thread_ends: set[tuple[str, int | None]] = set()
        self._run_targets: set[str] = set()  # one-scene targets of threads that only run
        self._backs: dict[str, list[str]] = {}  # scene (key) -> where its `->->` (or thread end) goes back to
        self._entry: dict[tuple[str, int, str], str] = {}  # (scene, call, target) -> the copy it enters
        self._copies: list[_Copy] = []
        self._copy: _Copy | None = None  # the copy being written
        self._scene_key: str | None = None
        self._regions: dict[str, frozenset[str]] = {}
        self._succ_cache: dict[str, list[str]] | None = None
        self._plain_succ: dict[str, list[str]] = {}
        self._dead: set[tuple] = set()
        self._pending: Cond | None = None  # the exit being written follows collected choices
        self._order: dict[str, int] = {}
        self.ends: set[str] = set()
        self.flows: dict[str, _Flow] = {}
        self.values: dict[str, list] = {}  # global variable -> value trees (declared and assigned)
        self.lists: set[str] = set()
        self._targets: dict[tuple, list | None] = {}  # a divert variable -> the scenes it may hold
        self._too_many: set[tuple] = set()
        self._fanned = 0  # branches made from diverts through variables (MAX_VARIABLE_BRANCHES)
        self._fan_said = False
        self._exit_flow: dict[int, str | None] = {}
        self._returns_to: dict[str, list[str]] | None = None

    def file(self, name: str | None) -> str:
        if name is None or name == self.abs_main:
            return self.main
        return str(Path(self.main).parent / name)

    # ------------------------------------------------------------------ run

    def run(self) -> StoryBuilder:
        doc = self.doc
        fatal = doc.get("fatal")
        self._messages(doc.get("messages") or [])
        if fatal:
            detail = doc.get("detail") if fatal in ("parse", "export") else None
            reason = ("이야기가 너무 깊이 중첩되어 ink 컴파일러가 끝까지 읽지 못했으므로" if fatal == "deep" else
                      f"ink 컴파일러가 이야기를 끝까지 읽지 못했으므로({quote_code(detail or fatal, 100)})")
            self.b.issue(self.main, None, f"{reason} 이 이야기의 장면과 분기는 옮기지 않았습니다.")
            self._untranslated()
            return self.b
        for flow in doc.get("flows") or []:
            if flow.get("name"):
                self.flows[flow["name"]] = _Flow(flow["name"], bool(flow.get("function")), flow.get("params") or [])
        self._declarations()
        self._index()
        self._threads()
        self._calls()
        self._scenes()
        for sc in self._ordered:
            self._exits(sc)
        self._emit_copies()
        for end in sorted(self.ends):
            self.b.scene(end, f"이야기 끝 (-> {end})", None, None, ending=True)
        self._assignments()
        self._reads()
        for acc in doc.get("accounted") or []:
            self.b.account(self.file(acc.get("file")), acc.get("line"), _ACCOUNTED.get(acc.get("why"), acc.get("why", "")))
        for issue in doc.get("issues") or []:
            if issue.get("code") == "deep":
                self.b.issue(self.file(issue.get("file")), issue.get("line"),
                             f"선택지나 조건이 {MAX_NESTING}겹보다 깊게 중첩되어 그 안쪽은 옮기지 않았습니다.")
        if doc.get("aborted"):
            self.b.issue(self.main, None, "이야기의 흐름이 너무 크거나 복잡해 정해 둔 한도 안에서 다 따라가지 못했으므로, "
                                          "뒤쪽의 분기 가운데 옮기지 않은 것이 있습니다.")
        if doc.get("aborted") or doc.get("issues") or any(m.get("type") in ("error", "stopped")
                                                          for m in doc.get("messages") or []):
            self._untranslated()
        return self.b

    def _untranslated(self) -> None:
        """After a problem already reported (the compiler's error, nesting too deep, a
        limit reached), every construct line that did not become a branch, a scene or
        an issue gets an issue of its own: nothing is dropped silently."""
        covered: set[tuple[str | None, int | None]] = set()
        for _from_scene, _to_scene, _cond, _kind, file, line, _once, via in self.b.branches:
            covered.add((file, line))
            if via is not None:
                covered.add((file, via))
        covered.update((i.file, i.line) for i in self.b.issues)
        covered.update(self.b.accounted)
        lines = {(sc.source_file, sc.source_line) for sc in self.b.scenes.values()}
        for c in _scan(self.path, self.main):
            if (c.file, c.line) in covered:
                continue
            if c.kind == "scene" and (c.name in self.b.scenes or (c.file, c.line) in lines):
                continue
            what = "장면은" if c.kind == "scene" else "선택지나 화살표는"
            self.b.issue(c.file, c.line, f"이 줄의 {what} 앞서 알린 문제(ink 컴파일러의 오류, 너무 깊은 중첩, 한도) 때문에 "
                                         "표로 옮기지 못했습니다.")
            covered.add((c.file, c.line))

    # ------------------------------------------------------------------ messages

    def _messages(self, messages: list[dict]) -> None:
        for m in messages:
            text = str(m.get("text") or "")
            kind = m.get("type")
            file = self.file(m.get("file")) if m.get("file") is not None or m.get("line") is not None else self.main
            line = m.get("line")
            if kind == "error" and any(text.startswith(s) for s in _SAID_BY_TABLES):
                continue
            if text.startswith(_LOOSE_END):
                self.b.issue(file, line, "흐름이 여기서 내용 끝에 닿는데 끝내는 화살표(`-> END`, `-> DONE`)도, 선택지도, "
                                         "다른 곳으로 가는 화살표도 없어 이 장면을 끝에 못 가는 곳으로 두었습니다.")
                continue
            inc = _INCLUDE_FAILED.search(text)
            if inc:
                why = _INCLUDE_WHY.get(inc.group(2), "읽을 수 없어")
                self.b.issue(file, line, f"이 줄이 불러오는 파일({quote_code(inc.group(1))})은 {why} 읽지 않았으므로, "
                                         "그 파일의 장면은 옮기지 않았습니다.")
                continue
            if text.startswith("Recursive INCLUDE detected"):
                self.b.issue(file, line, "이 줄이 불러오는 파일은 이미 읽고 있는 파일이라(`INCLUDE`가 돌고 돕니다) 다시 읽지 않았습니다.")
                continue
            if kind == "todo":
                continue  # the author's own TODO note
            if kind == "stopped":
                self.b.issue(file, line, f"ink 컴파일러가 이 줄의 {josa(quote_code(text), '을/를')} 읽지 못하고 멈춰, 이 줄부터 파일 끝까지는 "
                                         "이야기에 들어가지 않았습니다.")
                continue
            said = "오류" if kind == "error" else "경고"
            self.b.issue(file, line, f"ink 컴파일러가 이 줄에 {said}({quote_code(text, 160)})를 냈습니다.")

    # ------------------------------------------------------------------ declarations

    def _declarations(self) -> None:
        doc = self.doc
        for lst in doc.get("lists") or []:
            self.lists.add(lst["name"])
            self.b.issue(self.file(lst.get("file")), lst.get("line"),
                         "LIST 선언은 목록 값을 다루는데 우리 플래그는 참거짓·정수·열거형뿐이라 옮기지 않았고, 이 목록을 쓰는 조건은 알 수 없는 조건으로 남습니다.")
        for decl in doc.get("decls") or []:
            name = decl["name"]
            file, line = self.file(decl.get("file")), decl.get("line")
            tree = decl.get("value")
            self.values.setdefault(name, []).append(tree)
            value = self._value(tree)
            if value is None:
                # declared with a value we cannot compute: declared here, any value
                facts = self.b.flag(name, name, file, line)
                if place(file, line) not in facts.declared_at:
                    facts.declared_at.append(place(file, line))
                self.b.effect_opaque(name, f"VAR {name} = {decl.get('src') or _render(tree)}", file, line)
            else:
                self.b.declare(name, value, file, line, label=name)
        # every value a global may hold (a divert through it goes to each of them)
        for a in doc.get("assigns") or []:
            if a.get("scope") in ("global", "undeclared"):
                self.values.setdefault(a["name"], []).append({"t": "step"} if a.get("inc") else a.get("value"))
        for call in doc.get("calls") or []:
            # a variable passed to a `ref` parameter may be changed there (passed by value
            # it may not: `-> landfall(next_stop)` leaves next_stop as it is)
            info = self.flows.get(call.get("target") or "")
            params = info.params if info is not None else None
            for index, arg in enumerate(call.get("args") or []):
                by_ref = params is None or (index < len(params) and params[index].get("ref"))
                if arg.get("ref") and arg.get("scope") in ("global", "undeclared") and by_ref:
                    self.values.setdefault(arg["ref"], []).append({"t": "ref"})

    def _value(self, tree: Any) -> Any:
        """A declared or assigned value: a literal, or the scene a divert target names."""
        if isinstance(tree, dict) and tree.get("t") == "divert":
            return tree.get("scene")
        return _literal(tree)

    # ------------------------------------------------------------------ scenes

    def _index(self) -> None:
        """The bridge's scenes by key, their ids, their order, and the flow of every exit."""
        scenes = self.doc.get("scenes") or []
        files: dict[str | None, int] = {self.abs_main: 0}
        for name in self.doc.get("files") or []:   # in the order the compiler included them
            files.setdefault(name, len(files))
        for sc in scenes:
            self.ids[sc["key"]] = sc["id"]
            self.key_of[sc["id"]] = sc["key"]
            self.scenes[sc["key"]] = sc
            files.setdefault(sc.get("file"), len(files))
            for e in sc.get("exits") or []:
                self._exit_flow[id(e)] = sc.get("flow")
        self._ordered = sorted(scenes, key=lambda s: (s["kind"] != "top", files.get(s.get("file"), 0),
                                                      s.get("line") or 0, int(s["key"][1:])))
        self._order = {sc["key"]: n for n, sc in enumerate(self._ordered)}

    def _scenes(self) -> None:
        for sc in self._ordered:
            if sc["key"] in self.merged:
                continue   # read as part of the scene whose thread it follows
            if sc["key"] in self.hidden:
                continue   # accounted for where it was found (_namespaces)
            self.b.scene(sc["id"], self._title(sc), self.file(sc.get("file")), sc.get("line"), entry=sc["kind"] == "top")

    def _title(self, sc: dict) -> str:
        kind, line = sc["kind"], sc.get("line")
        flow = sc.get("flow") or "(top)"
        if kind == "top":
            return "이야기 시작"
        if kind in ("knot", "stitch"):
            return sc["id"]
        if kind == "gather":
            return sc["id"].rsplit(".", 1)[-1] if not sc["id"].rsplit(".", 1)[-1].startswith("gather-") else f"{flow} {line}번째 줄의 모임"
        if kind in ("choice", "label"):
            return sc.get("title") or f"{line}번째 줄의 선택지"
        if kind == "after" and sc.get("after") == "thread":
            return f"{flow} {line}번째 줄 스레드 다음"
        if kind == "after":
            return f"{flow} {line}번째 줄 터널에서 돌아온 뒤"
        return sc["id"]

    # ------------------------------------------------------------------ conditions

    def _cond(self, parts: list[dict]) -> Cond:
        cond = Cond()
        for p in parts:
            if "opaque" in p:
                what = {"sequence": "차례나 무작위로 고르는 대안(sequence/shuffle)이 든"}.get(p["opaque"], "읽지 못한 조건이 든")
                node: Any = Opaque(what)
                src = p.get("src") or "{…}"
            else:
                node = _ast(p.get("expr"))
                src = _clean_source(p.get("src")) or _render(p.get("expr"))
            if p.get("neg"):
                node = negate(node)
                src = f"not ({src})"
            cond = cond.and_(node, src)
        return cond

    # ------------------------------------------------------------------ exits

    def _exits(self, sc: dict) -> None:
        key = sc["key"]
        if key in self.hidden or key in self.merged:
            return   # no scene, or read as part of the scene whose thread it follows
        self._emit(key, self.ids[key], None)

    def _emit(self, key: str, scene: str, copy: _Copy | None) -> None:
        """Write the branches of scene ``key`` as scene ``scene`` (the scene itself, or
        its copy for one tunnel call or thread: ``copy``)."""
        self._copy = copy
        self._scene_key = key
        # a thread that offers choices does not split the scene: what follows the `<-`
        # (its continuation) is read as this scene's, in place
        pairs = self._expanded(key, set())
        exits = [e for e, _ in pairs]
        src = {id(e): k for e, k in pairs}
        if copy is not None:   # what nobody reaches is said once, in the scene itself
            exits = [e for e in exits if e.get("live")]
        # an invisible default choice is a fallback: after every choice of the scene (a
        # thread's choices are choices of this menu)
        choices = [k for k, e in enumerate(exits)
                   if (e["k"] == "choice" and not e.get("invisible")) or self._model.get(id(e)) == "fold"]
        if choices:
            last = choices[-1]
            fallbacks = [e for k, e in enumerate(exits) if e["k"] == "choice" and e.get("invisible") and k < last]
            if fallbacks:
                moved = {id(e) for e in fallbacks}
                rest = [e for e in exits if id(e) not in moved]
                at = next(k for k, e in enumerate(rest) if e is exits[last]) + 1
                exits = rest[:at] + fallbacks + rest[at:]
        thread_done: list[dict] = []
        kept = []
        offered = False
        for e in exits:
            if e.get("live") and ((e["k"] == "choice" and not e.get("invisible")) or self._model.get(id(e)) == "fold"):
                offered = True
            if offered and e["k"] == "end" and e.get("live"):
                if e.get("which") == "DONE" and any(self._model.get(id(x)) == "fold" and x.get("live") for x in exits):
                    # `-> DONE` after a thread that offers choices shows them: no ending
                    thread_done.append(e)
                    continue
                if e.get("generated"):
                    # the end the compiler adds where the top of the story runs out: after a
                    # menu it shows the menu (the story ends there only when no choice is
                    # offered, as when a scene's content runs out)
                    self.b.account(self.file(e.get("file")), e.get("line"), _ACCOUNTED["menu-end"])
                    continue
            kept.append(e)
        exits = kept
        pending = self._pending_choices(exits)
        run_back = self._run_back(key)
        back = self.thread_returns.get(key) if copy is None else None
        for e in exits:
            self._pending = pending.get(id(e))
            if e["k"] == "end" and e.get("which") == "DONE" and e.get("live"):
                if run_back:   # a thread that only runs ends here: the flow goes on after its `<-`
                    self._go_back(scene, e, run_back)
                    continue
                if back and (src[id(e)], id(e)) in self._thread_ends:
                    self._return_from_thread(scene, e, back)
                    continue
            self._exit(scene, e, thread_done, src[id(e)])
        self._pending = None
        for k in dict.fromkeys(src.values()):
            runs_out_at = self.scenes[k].get("runsOutAt")
            if not runs_out_at or not self.scenes[k].get("runsOut"):
                continue
            where = {"cond": [], "file": runs_out_at.get("file"), "line": runs_out_at.get("line")}
            if run_back and k == key:
                self._go_back(scene, where, run_back)
            elif back and self.thread_returns.get(k) and (k, None) in self._thread_ends:
                # the thread's content ends here: the thread ends, and so does its part of the menu
                self._return_from_thread(scene, where, self.thread_returns[k])
        self._copy = None
        self._scene_key = None

    def _expanded(self, key: str, seen: set) -> list[tuple[dict, str]]:
        """The exits of scene ``key``, with the exits of the continuation of every thread
        that offers choices in its place (each with the key of the scene it comes from)."""
        out: list[tuple[dict, str]] = []
        if key in seen or len(seen) > MAX_THREAD_STEPS:
            return out
        seen.add(key)
        exits = self.scenes[key].get("exits") or []
        own = {_signature(x) for x in exits}
        for e in exits:
            out.append((e, key))
            if self._model.get(id(e)) == "fold" and e.get("cont") in self.scenes:
                # a thread under a condition (`{x: <- talk}`): the scene's own walk went on
                # after the block too; what both walked is written once
                have = own | {_signature(x) for x, _ in out}
                out.extend(pair for pair in self._expanded(e["cont"], seen) if _signature(pair[0]) not in have)
        return out

    def _pending_choices(self, exits: list[dict]) -> dict[int, Cond]:
        """The ways on the flow takes after it has collected choices (choices inside a
        conditional, ``{c: * [A]}``, followed by a divert, a tunnel call or a
        ``->->``): the engine takes them at once and keeps the collected choices for
        the next menu it shows, so neither waits for the other - each such way becomes a
        ``choice`` of the menu, under the conditions on the way to it (the negations of
        the ways out before it).  ``-> END`` there ends the story before any menu is
        shown: it moves before the choices (``exits`` is reordered in place)."""
        out: dict[int, Cond] = {}
        guard = Cond()
        seen_choice = None
        ends = []
        for n, e in enumerate(exits):
            if not e.get("live"):
                continue
            k = e["k"]
            if (k == "choice" and not e.get("invisible")) or self._model.get(id(e)) == "fold":
                if seen_choice is None:
                    seen_choice = n
                continue
            if k == "choice" or (k == "end" and e.get("which") == "DONE") or k not in ("go", "end", "tunnel", "return", "thread"):
                continue   # a fallback, the end that shows the menu
            own = self._cond(e.get("cond") or [])
            if seen_choice is not None:
                out[id(e)] = guard
                if k == "end":
                    ends.append(e)
            if own:
                guard = guard.plus(self._negated(own))
        if ends and seen_choice is not None:
            first = exits[seen_choice]
            for e in ends:
                exits.remove(e)
            at = exits.index(first)
            exits[at:at] = ends
        return out

    def _way(self, kind: str, cond: Cond, e: dict) -> tuple[str, Cond]:
        """The kind and condition of a way on: a ``choice`` under the conditions on the
        way to it when it follows collected choices (:meth:`_pending_choices`; ``-> END``
        stays ``auto``, before the choices)."""
        if self._pending is None:
            return kind, cond
        return (kind if e["k"] == "end" else "choice"), self._pending.plus(cond)

    def _name(self, key: str) -> str:
        """The scene a way to ``key`` goes to: its copy when the scene being written is a
        copy and ``key`` is in it, else the scene itself (or the scene a continuation
        after a thread is read into)."""
        seen = set()
        while key in self.merged and key not in seen:
            seen.add(key)
            key = self.merged[key]
        if self._copy is not None and key in self._copy.names:
            return self._copy.names[key]
        return self.ids.get(key, key)

    def _exit(self, scene: str, e: dict, thread_done: list[dict], src: str | None = None) -> None:
        b = self.b
        k = e["k"]
        if not e.get("live"):
            # what follows a divert is written where it stands, once (continuations walk it again)
            mark = (k, e.get("file"), e.get("line"), e.get("to"), e.get("which"), e.get("missing"), e.get("variable"))
            if mark in self._dead:
                return
            self._dead.add(mark)
        cond = self._cond(e.get("cond") or [])
        file, line = self.file(e.get("file")), e.get("line")
        if k == "go":
            if e.get("variable"):
                self._divert(scene, e, cond, file, line, f"-> {e['variable']}")
                return
            kind, cond = self._way("auto", cond, e)
            b.branch(scene, self._target(e), cond or None, kind, file, line)
        elif k == "end":
            self.ends.add(e["which"])
            kind, cond = self._way("auto", cond, e)
            b.branch(scene, e["which"], cond or None, kind, file, line)
        elif k == "choice":
            kind = "auto" if e.get("invisible") else "choice"
            via = e.get("via")
            via_line = None
            if via and self.file(via.get("file")) == file:
                via_line = via.get("line")
            if via and via.get("line") is not None:
                b.account(self.file(via.get("file")), via.get("line"), _ACCOUNTED["via"])
            to = e["end"] if e.get("end") else self._target(e)
            if e.get("end"):
                self.ends.add(e["end"])
            b.branch(scene, to, cond or None, kind, file, line, bool(e.get("once")) and kind == "choice", via=via_line,
                     text=e.get("text") or None)
        elif k == "tunnel":
            if e.get("variable") and self._divert_targets(e) is None:
                kind, cond = self._way("auto", cond, e)
                b.jump_opaque(scene, f"-> {e['variable']} ->", cond or None, kind, file, line)
                b.issue(file, line, f"변수 {quote_code(e['variable'])}에 담긴 곳으로 가는 터널이라 어느 장면으로 들어가는지 정하지 못해, "
                                    "그곳에서 돌아오는 분기는 옮기지 않았습니다.")
                return
            self._divert(scene, e, cond, file, line, f"-> {e.get('variable')} ->", call=True)
        elif k == "return":
            self._return(scene, e, cond, file, line, src)
        elif k == "thread":
            self._thread(scene, e, cond, file, line, thread_done)

    def _target(self, e: dict) -> str:
        if e.get("to"):
            return self._name(e["to"])
        return str(e.get("missing") or "?")

    # ------------------------------------------------------------------ diverts through variables

    def _divert_targets(self, e: dict) -> list[tuple[str, Cond]] | None:
        """The scenes (keys) a divert, tunnel call or thread goes to, each with the
        condition under which it goes there (``d == -> x`` for a global ``d``); ``[]``
        for a target that does not exist; ``None`` when a value of its variable is not a
        literal divert target (or there are too many), an opaque jump."""
        if e.get("to"):
            return [(e["to"], Cond())]
        if not e.get("variable"):
            return []
        known, flag, name = self._variable_values(e)
        if known is None or len(known) > MAX_DIVERT_TARGETS:
            return None
        out: list[tuple[str, Cond]] = []
        for target in known:
            key = self.key_of.get(target)
            if key is None:
                continue
            extra = Cond([(("cmp", "==", ("name", name), ("str", target)), f"{name} == -> {target}")]) if flag else Cond()
            out.append((key, extra))
        return out

    def _variable_values(self, e: dict) -> tuple[list[str] | None, bool, str]:
        """The scenes (ids) the variable of a divert may hold, whether it is a story flag
        (a global) rather than a parameter or temporary, and its name."""
        name, scope = e["variable"], e.get("scope")
        flag = scope in ("global", "undeclared")
        key: tuple[str | None, ...] = (name,) if flag else (name, self._flow_of_exit(e))
        if key not in self._targets:
            trees = self.values.get(name, []) if flag else self._parameter_values(key[1], name)
            if not flag:
                # a story variable passed as the argument (`-> landfall(next_stop)`): its values
                trees = [v for t in trees for v in (self.values.get(t["name"], [None])
                                                   if isinstance(t, dict) and t.get("t") == "var" else [t])]
            literal = bool(trees) and all(isinstance(t, dict) and t.get("t") == "divert" and t.get("scene") for t in trees)
            self._targets[key] = list(dict.fromkeys(t["scene"] for t in trees)) if literal else None
        return self._targets[key], flag, name

    def _divert(self, scene: str, e: dict, cond: Cond, file: str, line: int | None, source: str,
                call: bool = False) -> None:
        """A divert or tunnel call (``call``) through a variable or to a plain target: a
        branch to every scene it may go to (a tunnel call: into the copy of the tunnel
        made for this call, when there is one)."""
        targets = self._divert_targets(e)
        flag = True
        if e.get("variable"):
            known, flag, name = self._variable_values(e)
            if known is not None and len(known) > MAX_DIVERT_TARGETS:
                key = (name,) if flag else (name, self._flow_of_exit(e))
                if key not in self._too_many:
                    self._too_many.add(key)
                    self.b.issue(file, line, f"변수 {quote_code(name)}에 담길 수 있는 곳이 {len(known):,}군데로 너무 많아"
                                             f"(최대 {MAX_DIVERT_TARGETS}군데) 그 변수를 거치는 화살표는 하나하나 분기로 옮기지 않고 "
                                             "어디로 갈지 모르는 분기로 두었습니다.")
        if targets is not None and e.get("variable") and len(targets) > 1:
            if self._fanned + len(targets) > MAX_VARIABLE_BRANCHES:
                if not self._fan_said:
                    self._fan_said = True
                    self.b.issue(file, line, f"변수에 담긴 곳으로 가는 화살표가 모두 {MAX_VARIABLE_BRANCHES:,}개보다 많은 분기가 되어, "
                                             "여기부터는 변수를 거치는 화살표를 하나하나 분기로 옮기지 않고 어디로 갈지 모르는 "
                                             "분기로 두었습니다.")
                targets = None
            else:
                self._fanned += len(targets)
        if targets is None:
            kind, cond = self._way("auto", cond, e)
            self.b.jump_opaque(scene, source, cond or None, kind, file, line)
            return
        if not targets:
            kind, cond = self._way("auto", cond, e)
            self.b.branch(scene, self._target(e), cond or None, kind, file, line)
            return
        # a parameter or temporary: the caller, not a flag, decides
        kind, cond = self._way("choice" if not flag and len(targets) > 1 else "auto", cond, e)
        for target, extra in targets:
            dest = self._entry.get((scene, id(e), target), self._name(target)) if call else self._name(target)
            self.b.branch(scene, dest, cond.plus(extra) or None, kind, file, line)

    def _parameter_values(self, flow: str | None, name: str) -> list:
        """The values a parameter or temporary holding a divert target may take: the
        arguments every call passes, the assignments in its flow."""
        trees: list = []
        for a in self.doc.get("assigns") or []:
            if a.get("name") == name and a.get("flow") == flow and a.get("scope") in ("temp", "param"):
                trees.append(a.get("value"))
        knot = (flow or "").split(".")[0]
        for f in (flow, knot):
            info = self.flows.get(f or "")
            if info is None:
                continue
            names = [p.get("name") for p in info.params]
            if name not in names:
                continue
            index = names.index(name)
            for call in self.doc.get("calls") or []:
                if call.get("target") == f and index < len(call.get("args") or []):
                    trees.append(call["args"][index].get("value"))
            for s in self.doc.get("scenes") or []:
                for x in s.get("exits") or []:
                    if x.get("to") and self.ids.get(x["to"]) == f and x.get("args") and index < len(x["args"]):
                        trees.append(x["args"][index])
            break
        return trees

    def _flow_of_exit(self, e: dict) -> str | None:
        return self._exit_flow.get(id(e))

    # ------------------------------------------------------------------ the graph of the bridge's scenes

    def _succ(self) -> dict[str, list[str]]:
        """Where the flow may go from each scene (keys): diverts, threads, choices, and
        from a tunnel call to what follows it (not into the tunnel: that returns)."""
        if self._succ_cache is not None:
            return self._succ_cache
        succ: dict[str, list[str]] = {}
        self._succ_cache = succ
        returns = {sc["key"] for sc in self.scenes.values()
                   if any(e["k"] == "return" and e.get("live") for e in sc.get("exits") or [])}
        for sc in self.scenes.values():
            nxt = succ.setdefault(sc["key"], [])
            for e in sc.get("exits") or []:
                if e["k"] == "tunnel":
                    if e.get("cont") in self.scenes:
                        nxt.append(e["cont"])
                elif e["k"] in ("go", "thread"):
                    nxt.extend(to for to, _ in self._divert_targets(e) or [])
                    if e["k"] == "thread" and e.get("cont") in self.scenes:
                        nxt.append(e["cont"])
                elif e["k"] == "choice" and e.get("to") in self.scenes:
                    nxt.append(e["to"])
        self._plain_succ = {k: list(v) for k, v in succ.items()}
        # what follows a tunnel call is reached only when the tunnel can come back: drop
        # the continuations of tunnels from which no `->->` can be reached (they divert away)
        for sc in self.scenes.values():
            for e in sc.get("exits") or []:
                if e["k"] == "tunnel" and e.get("cont") in self.scenes:
                    targets = self._divert_targets(e)
                    if targets is not None and not any(self._reach(to, plain=True) & returns for to, _ in targets):
                        succ[sc["key"]] = [n for n in succ[sc["key"]] if n != e["cont"]]
        return succ

    def _reach(self, start: str, plain: bool = False) -> set[str]:
        """The scenes the flow may reach from ``start`` (``plain``: also what follows
        tunnels that never come back)."""
        seen = {start}
        stack = [start]
        succ = self._succ()
        if plain:
            succ = self._plain_succ
        while stack:
            for n in succ.get(stack.pop(), ()):
                if n not in seen:
                    seen.add(n)
                    stack.append(n)
        return seen

    def _entries(self) -> dict[str, set[tuple[str, str]]]:
        """Every way into each scene (key): ``(from, how)``, ``how`` one of ``thread``,
        ``flow`` (divert, tunnel, return, what follows a thread) and ``choice``."""
        entries: dict[str, set[tuple[str, str]]] = {}
        for sc in self.scenes.values():
            for e in sc.get("exits") or []:
                k = e["k"]
                if k in ("go", "tunnel", "thread"):
                    for to, _ in self._divert_targets(e) or []:
                        entries.setdefault(to, set()).add((sc["key"], "thread" if k == "thread" else "flow"))
                    if e.get("cont") in self.scenes and k == "thread":
                        entries.setdefault(e["cont"], set()).add((sc["key"], "flow"))
                elif k == "choice" and e.get("to"):
                    entries.setdefault(e["to"], set()).add((sc["key"], "choice"))
        for ret, conts in self._return_map().items():
            for cont in conts:
                entries.setdefault(cont, set()).add((ret, "flow"))
        return entries

    def _namespaces(self, entries: dict[str, set[tuple[str, str]]]) -> None:
        """A knot with no content of its own that nothing diverts to (``=== game ===``
        holding ``= init`` …, entered as ``-> game.init``) is a name for its stitches,
        not a place: no scene, so it is not called unreached."""
        for sc in self.scenes.values():
            exits = sc.get("exits") or []
            if sc["kind"] != "knot" or entries.get(sc["key"]) or len(exits) != 1:
                continue
            e = exits[0]
            to = self.scenes.get(e.get("to") or "")
            if (e["k"] == "go" and e.get("generated") and not e.get("cond") and to is not None
                    and to["kind"] == "stitch" and to["id"].startswith(sc["id"] + ".")):
                self.hidden.add(sc["key"])
                self.b.account(self.file(sc.get("file")), sc.get("line"), _ACCOUNTED["namespace"])
                self.b.account(self.file(e.get("file")), e.get("line"), _ACCOUNTED["namespace"])

    # ------------------------------------------------------------------ threads

    def _threads(self) -> None:
        """Run every thread (``<- t``) as the engine does.

        A thread runs ``t`` at once, inside the scene that starts it: its text, its
        changes, its diverts and the tunnels it calls; its choices join that scene's
        menu; at ``-> DONE`` or the end of its content the thread ends and the scene goes
        on after the ``<-`` (*Writing with ink*, "Threads"; the runtime's ``Done`` and
        ``PopThread``).  Two cases:

        * a thread that may offer a choice (``fold``): the scene keeps its menu in one
          place - the thread's choices are branches of the scene at the ``<-`` line, the
          flow after the ``<-`` stays the scene's, and a ``choice`` branch into ``t``
          (offered when one of its choices is) keeps ``t`` reached; where the thread
          ends (``-> DONE``, the end of its content) ``t`` goes back to the scene, when
          ``t`` is only ever run inside threads;
        * a thread that offers nothing (``run``: it only changes variables, or ends the
          story): an ``auto`` branch into ``t`` at the ``<-`` line, and where the thread
          ends, back to what follows the ``<-`` (a scene ``….after-<line>``, as after a
          tunnel call).  A one-scene ``t`` goes back to that ``<-`` only, as the
          engine's does: it is copied for each ``<-`` but one (see :meth:`_calls`)."""
        thread_exits: list[tuple[str, dict]] = []
        for sc in self.scenes.values():
            for e in sc.get("exits") or []:
                if e["k"] == "thread":
                    thread_exits.append((sc["key"], e))
                    for to, _ in self._divert_targets(e) or []:
                        self._fold_thread(to)
        for host, e in thread_exits:
            targets = self._divert_targets(e)
            offers = targets is None or any(self.folds[to].choices or any(x[0] == "opaque" for x in self.folds[to].leaves)
                                            for to, _ in targets)
            self._model[id(e)] = "fold" if offers else "run"
            if offers and e.get("cont") in self.scenes:
                self.merged[e["cont"]] = host
        entries = self._entries()
        self._namespaces(entries)
        if not thread_exits:
            return
        # the scenes only ever run inside threads
        context: set[str] = set()
        inside: set[tuple[str, str]] = set()
        for fold in self.folds.values():
            context |= fold.context
            inside |= fold.edges
        only = {k for k in context if self.scenes[k]["kind"] != "top"}
        changed = True
        while changed:
            changed = False
            for k in sorted(only):
                for frm, how in entries.get(k, ()):
                    if how == "thread" or (how == "flow" and frm in only and (frm, k) in inside):
                        continue
                    only.discard(k)
                    changed = True
                    break
        self.thread_only = only
        # where each thread ends, and where the flow goes from there
        for host, e in thread_exits:
            for to, _ in self._divert_targets(e) or []:
                fold = self.folds[to]
                if self._model[id(e)] == "run" and self._simple(to):
                    self._run_targets.add(to)   # a call of its own: see _calls
                    continue
                back = self._name(host) if self._model[id(e)] == "fold" else self.ids.get(e.get("cont"))  # type: ignore[arg-type]  # no cont (None): no scene
                if back is None:
                    continue
                for k, exit_ in fold.ends:
                    if k in only:
                        self._thread_ends.add((k, id(exit_) if exit_ is not None else None))
                        self.thread_returns.setdefault(k, [])
                        if back not in self.thread_returns[k]:
                            self.thread_returns[k].append(back)

    def _simple(self, key: str) -> bool:
        """Whether the thread target ``key`` is one scene that only ends (a knot that
        counts time and says ``-> DONE``)."""
        fold = self.folds[key]
        sc = self.scenes[key]
        return (fold.context == {key} and sc["kind"] != "top"
                and all(e["k"] == "end" for e in sc.get("exits") or [] if e.get("live")))

    def _fold_thread(self, start: str) -> _Fold:
        """What running a thread into ``start`` (a key) does: the choices on its way
        (each with the conditions on the way to it), where it ends the story or goes
        where we cannot follow, the scenes it runs, the ways into them it takes, and
        where it ends (``-> DONE``, the end of a scene's content)."""
        fold = self.folds.get(start)
        if fold is not None:
            return fold
        fold = self.folds[start] = _Fold()
        seen: set[tuple] = set()
        name = self.ids.get(start, start)

        def visit(key: str, cond: Cond, stack: tuple, depth: int) -> None:
            sc = self.scenes.get(key)
            if sc is None or (key, stack) in seen:
                return
            if depth > MAX_THREAD_DEPTH or len(seen) >= MAX_THREAD_STEPS:
                fold.leaves.append(("opaque", f"<- {name}", cond, None))
                return
            seen.add((key, stack))
            fold.context.add(key)
            guard = Cond()
            for e in sc.get("exits") or []:
                if not e.get("live"):
                    continue
                own = self._cond(e.get("cond") or [])
                here = cond.plus(guard).plus(own)
                k = e["k"]
                if k == "choice":
                    fold.choices.append((e, here))
                    continue
                if k == "end":
                    if e.get("which") == "END":   # the story ends, thread or not
                        fold.leaves.append(("end", "END", here, e))
                    else:   # `-> DONE`: the thread ends, the scene that started it goes on
                        fold.ends.append((key, e))
                elif k in ("go", "tunnel", "thread"):
                    targets = self._divert_targets(e)
                    if targets is None:
                        source = f"<- {e['variable']}" if k == "thread" else (
                            f"-> {e['variable']} ->" if k == "tunnel" else f"-> {e['variable']}")
                        fold.leaves.append(("opaque", source, here, e))
                    elif not targets:
                        fold.leaves.append(("missing", self._target(e), here, e))
                    for to, extra in targets or []:
                        fold.edges.add((key, to))
                        if k == "tunnel":
                            nxt = stack + (e["cont"],) if e.get("cont") else stack
                        elif e.get("onwards"):
                            nxt = stack[:-1]
                        else:
                            nxt = stack
                        visit(to, here.plus(extra), nxt, depth + 1)
                    if k == "thread":   # a thread inside the thread: this one goes on after it
                        if e.get("cont") in self.scenes:
                            fold.edges.add((key, e["cont"]))
                            visit(e["cont"], here, stack, depth + 1)
                        break
                elif k == "return":
                    if stack:
                        fold.edges.add((key, stack[-1]))
                        visit(stack[-1], here, stack[:-1], depth + 1)
                    else:   # back to a tunnel call made before the thread started
                        fold.leaves.append(("opaque", "->->", here, e))
                else:
                    continue
                if not own:
                    break   # the flow leaves here: nothing after it runs in this thread
                guard = guard.plus(self._negated(own))
            else:
                if sc.get("runsOut"):   # the end of its content ends the thread too
                    fold.ends.append((key, None))

        visit(start, Cond(), (), 0)
        return fold

    def _negated(self, cond: Cond) -> Cond:
        """``not (cond)`` as one part (opaque when a part of ``cond`` is)."""
        nodes = [node for node, _ in cond.parts]
        opaque = next((n for n in nodes if isinstance(n, Opaque)), None)
        if opaque is not None:
            node: Any = opaque
        else:
            node = nodes[0]
            for n in nodes[1:]:
                node = ("and", node, n)
            node = ("not", node)
        return Cond([(node, f"not ({cond.source})")])

    def _any_of(self, conds: list[Cond]) -> Cond | None:
        """``a or b …`` of the conditions as one part (``None``: always; opaque when a
        part is)."""
        if not conds or any(not c for c in conds):
            return None
        nodes = []
        for c in conds:
            parts = [node for node, _ in c.parts]
            opaque = next((n for n in parts if isinstance(n, Opaque)), None)
            if opaque is not None:
                return Cond([(opaque, " or ".join(f"({x.source})" for x in conds))])
            node = parts[0]
            for n in parts[1:]:
                node = ("and", node, n)
            nodes.append(node)
        node = nodes[0]
        for n in nodes[1:]:
            node = ("or", node, n)
        return Cond([(node, " or ".join(f"({c.source})" if len(conds) > 1 else c.source for c in conds))])

    def _thread(self, scene: str, e: dict, cond: Cond, file: str, line: int | None, thread_done: list[dict]) -> None:
        b = self.b
        targets = self._divert_targets(e)
        if targets is None:
            b.jump_opaque(scene, f"<- {e['variable']}", cond or None, "choice", file, line)
            return
        if not targets:
            b.branch(scene, self._target(e), cond or None, "choice", file, line)
            return
        if self._model.get(id(e)) == "run":
            # the thread only runs: into it now, and back to what follows the `<-` where it ends
            kind, cond = self._way("auto", cond, e)
            for to, extra in targets:
                dest = self._entry.get((scene, id(e), to), self._name(to))
                b.branch(scene, dest, cond.plus(extra) or None, kind, file, line)
            return
        # the `-> DONE` that shows these choices is where they are offered: the first of
        # them stands for that line too
        dones = [d.get("line") for d in thread_done if d.get("line") is not None and self.file(d.get("file")) == file]
        for d in thread_done:
            b.account(self.file(d.get("file")), d.get("line"), _ACCOUNTED["thread-done"])
        n = 0
        for to, extra in targets:
            fold = self._fold_thread(to)
            here = cond.plus(extra)
            # what ends the story or goes where we cannot follow happens at once, before
            # the menu is shown
            for what, target, path_cond, _ in fold.leaves:
                if what == "end":
                    self.ends.add(target)
                    b.branch(scene, target, here.plus(path_cond) or None, "auto", file, line)
                elif what == "missing":
                    b.branch(scene, target, here.plus(path_cond) or None, "auto", file, line)
                else:
                    b.jump_opaque(scene, target, here.plus(path_cond) or None, "choice", file, line)
            offered: list[Cond] = []
            once = True
            for choice, path_cond in fold.choices:
                kind = "auto" if choice.get("invisible") else "choice"
                dest = choice["end"] if choice.get("end") else self._target(choice)
                if choice.get("end"):
                    self.ends.add(choice["end"])
                b.branch(scene, dest, here.plus(path_cond) or None, kind, file, line,
                         bool(choice.get("once")) and kind == "choice",
                         via=dones[0] if dones and n == 0 else None, text=choice.get("text") or None)
                if kind == "choice":
                    offered.append(path_cond)
                    once = once and bool(choice.get("once"))
                n += 1
            # the thread's own scene is run from here: a way into it, offered when one of
            # its choices is (and used up when they all are)
            if offered or any(x[0] == "opaque" for x in fold.leaves):
                entry = self._any_of(offered) if offered else Cond([(Opaque("어디로 갈지 모르는 곳이 든"), f"<- {self.ids[to]}")])
                b.branch(scene, self._name(to), here.plus(entry) or None, "choice", file, line, bool(offered) and once,
                         via=dones[0] if dones and n == 0 else None, text=f"<- {self.ids[to]}")
                n += 1

    def _return_from_thread(self, scene: str, e: dict, back: list[str]) -> None:
        """Where a thread that offers choices ends (``-> DONE``, the end of its content)
        in a scene only threads run: back to the scene that started it."""
        cond = self._cond(e.get("cond") or [])
        file, line = self.file(e.get("file")), e.get("line")
        for to in back:
            self.b.branch(scene, to, cond or None, "choice", file, line)

    # ------------------------------------------------------------------ tunnels and threads that come back

    def _return_map(self) -> dict[str, list[str]]:
        """For every scene (key) with a ``->->``: the continuations (keys) it may go back
        to - those of every call whose tunnel reaches it without passing through another
        tunnel call (that one returns to its own)."""
        if self._returns_to is not None:
            return self._returns_to
        calls: list[tuple[str, str]] = []
        for sc in self.scenes.values():
            for e in sc.get("exits") or []:
                if e["k"] == "tunnel" and e.get("cont") in self.scenes:
                    calls.extend((to, e["cont"]) for to, _ in self._divert_targets(e) or [])
        reach = {target: self._reach(target, plain=True) for target, _ in calls}
        out: dict[str, list[str]] = {}
        for sc in self.scenes.values():
            if any(e["k"] == "return" for e in sc.get("exits") or []):
                out[sc["key"]] = list(dict.fromkeys(cont for target, cont in calls if sc["key"] in reach[target]))
        self._returns_to = out
        return out

    def _region(self, target: str) -> frozenset[str]:
        """The scenes of a tunnel into ``target`` on the way to its ``->->``: those its
        flow reaches (not going into the tunnels it calls) from which a ``->->`` can be
        reached."""
        if target in self._regions:
            return self._regions[target]
        reach = self._reach(target)
        succ = self._succ()
        pred: dict[str, list[str]] = {}
        for k in reach:
            for n in succ.get(k, ()):
                if n in reach:
                    pred.setdefault(n, []).append(k)
        found = {k for k in reach if any(e["k"] == "return" and e.get("live") for e in self.scenes[k].get("exits") or [])}
        stack = list(found)
        while stack:
            for p in pred.get(stack.pop(), ()):
                if p not in found:
                    found.add(p)
                    stack.append(p)
        region = frozenset(found)
        self._regions[target] = region
        return region

    def _call_region(self, e: dict, target: str) -> frozenset[str]:
        """The scenes a call (``e``: a tunnel call, or a thread that only runs) into
        ``target`` runs on its way back (empty: it never comes back)."""
        if e["k"] == "thread":
            return frozenset([target]) if target in self._run_targets else frozenset()
        return self._region(target)

    def _shared_regions(self) -> set[frozenset[str]]:
        """The tunnels (and threads that only run) whose calls may all share one set of
        scenes, going back to every call: those where every call's continuation leads
        on to every other call anyway (the calls of a game loop), so that going back to
        another call than the one we came from adds no way the engine lacks.  Decided
        over the flow with tunnels entered and left only where that is exact, growing
        as more sharing is shown harmless."""
        calls: list[tuple[str, str, frozenset[str]]] = []   # (site, continuation, region)
        for sc in self.scenes.values():
            for e in sc.get("exits") or []:
                run = e["k"] == "thread" and self._model.get(id(e)) == "run"
                if (e["k"] == "tunnel" or run) and e.get("cont") in self.scenes:
                    for target, _ in self._divert_targets(e) or []:
                        region = self._call_region(e, target)
                        if region:
                            calls.append((sc["key"], e["cont"], region))
        # calls whose ways back share a scene go together
        parent: dict[str, str] = {}

        def root(k: str) -> str:
            while parent.setdefault(k, k) != k:
                parent[k] = parent[parent[k]]
                k = parent[k]
            return k

        for _, _, region in calls:
            first = root(next(iter(region)))
            for k in region:
                parent[root(k)] = first
        by_root: dict[str, list[int]] = {}
        for n, (_, _, region) in enumerate(calls):
            by_root.setdefault(root(next(iter(region))), []).append(n)
        groups = list(by_root.values())
        graph: dict[str, set[str]] = {k: set(v) for k, v in self._succ().items()}
        for sc in self.scenes.values():   # into tunnels and threads
            for e in sc.get("exits") or []:
                if e["k"] in ("tunnel", "thread"):
                    graph[sc["key"]].update(to for to, _ in self._divert_targets(e) or [])

        def add_returns(group: list[int]) -> None:
            for m in group:
                for k in calls[m][2]:
                    graph.setdefault(k, set()).update(calls[j][1] for j in group)

        def reaches(start: str) -> set[str]:
            seen = {start}
            stack = [start]
            while stack:
                for n in graph.get(stack.pop(), ()):
                    if n not in seen:
                        seen.add(n)
                        stack.append(n)
            return seen

        shared: set[frozenset[str]] = set()
        pending = []
        for g in groups:
            if len(g) == 1:
                add_returns(g)   # one call: its way back is exact
            elif len(g) <= MAX_SHARED_CALLS:
                pending.append(g)
        changed = True
        while changed and pending:
            changed = False
            for g in list(pending):
                sites = {calls[m][0] for m in g}
                if all(sites <= reaches(calls[m][1]) | {calls[m][0]} for m in g):
                    add_returns(g)
                    shared.update(calls[m][2] for m in g)
                    pending.remove(g)
                    changed = True
        return shared

    def _calls(self) -> None:
        """Decide where every tunnel (``-> t ->``) and every thread that only runs
        (``<- t``, a one-scene ``t``) goes back to: the engine goes back to the call it
        came from (its call stack).  When every call's continuation leads on to every
        other call anyway (a game loop), the tunnel's scenes are shared and its ``->->``
        goes back to every call (``choice``: the caller decides), which adds no way the
        engine lacks (:meth:`_shared_regions`).  Otherwise each call gets the scenes of
        its own way to the ``->->`` (or to the thread's end): the first call of a
        tunnel takes the scenes themselves, every other call takes copies of them,
        named ``scene@line`` after the line of the call (``entre.checkCold@94``), whose
        ``->->`` goes back to that call only.  Past :data:`MAX_COPIES` copied scenes, a
        call takes the scenes themselves and their ``->->`` goes back to every call."""
        shared = self._shared_regions()
        owned: set[str] = set()
        names_used = set(self.ids.values())
        queue: list[tuple[str, dict, _Copy | None]] = []
        for sc in self._ordered:
            if sc["key"] in self.merged or sc["key"] in self.hidden:
                continue
            for e, _ in self._expanded(sc["key"], set()):
                queue.append((sc["key"], e, None))
        copied = 0
        while queue:
            site, e, copy = queue.pop(0)
            run = e["k"] == "thread" and self._model.get(id(e)) == "run"
            if not (e["k"] == "tunnel" or run) or e.get("cont") not in self.scenes:
                continue
            if copy is not None and not e.get("live"):
                continue
            self._copy = copy
            site_name = self._name(site)
            back = self._name(e["cont"])
            self._copy = None
            for target, _ in self._divert_targets(e) or []:
                region = self._call_region(e, target)
                if not region:
                    continue
                shareable = not run or region <= self.thread_only
                if region in shared or (shareable and target not in owned) or copied + len(region) > MAX_COPIES:
                    # the tunnel's own scenes (going back to this call too)
                    owned |= region
                    for k in region:
                        if back not in self._backs.setdefault(k, []):
                            self._backs[k].append(back)
                    continue
                names: dict[str, str] = {}
                for k in sorted(region, key=lambda k: self._order[k]):
                    base = f"{self.ids[k]}@{e.get('line')}"
                    name, n = base, 2
                    while name in names_used:
                        name = f"{base}-{n}"
                        n += 1
                    names_used.add(name)
                    names[k] = name
                new = _Copy(names, back, site_name, e.get("line"), frozenset(region))
                self._copies.append(new)
                copied += len(region)
                self._entry[(site_name, id(e), target)] = names[target]
                for k in sorted(region, key=lambda k: self._order[k]):
                    if k in self.merged:
                        continue
                    for x, _ in self._expanded(k, set()):
                        queue.append((k, x, new))

    def _run_back(self, key: str) -> list[str] | None:
        """Where a thread that only runs goes on when it ends in scene ``key`` (being
        written, itself or as a copy): after its ``<-``."""
        if key not in self._run_targets:
            return None
        if self._copy is not None:
            return [self._copy.back] if key in self._copy.region else None
        return self._backs.get(key)

    def _go_back(self, scene: str, e: dict, back: list[str]) -> None:
        cond = self._cond(e.get("cond") or [])
        file, line = self.file(e.get("file")), e.get("line")
        kind = "choice" if len(back) > 1 else "auto"
        for to in back:
            self.b.branch(scene, to, cond or None, kind, file, line)

    def _return(self, scene: str, e: dict, cond: Cond, file: str, line: int | None, src: str | None) -> None:
        """``->->``, in its place among the scene's branches: back to what follows the
        call this way into the tunnel came from."""
        if self._copy is not None and src in self._copy.region:
            back = [self._copy.back]
        else:
            back = self._backs.get(src or "", [])
        if not back:
            # a `->->` no call comes back through (it follows a divert, or a tunnel that
            # never comes back): nobody gets here; back to the calls whose tunnel it is
            back = list(dict.fromkeys(self._name(k) for k in self._return_map().get(src or "", [])))
        if not back:
            self.b.issue(file, line, "터널에서 돌아가는 화살표가 있지만 이 터널을 부르는 곳이 없어 돌아갈 장면을 정하지 못했습니다.")
            return
        if not e.get("live"):
            back = back[:1]   # nobody gets here: said once
        kind, cond = self._way("choice" if len(back) > 1 else "auto", cond, e)
        for to in back:
            self.b.branch(scene, to, cond or None, kind, file, line)

    def _emit_copies(self) -> None:
        """The copies :meth:`_calls` made, each scene after the scene it copies."""
        for copy in self._copies:
            for key in sorted(copy.region, key=lambda k: self._order[k]):
                if key in self.merged:
                    continue
                sc = self.scenes[key]
                title = f"{self._title(sc)} ({copy.site} {copy.line}번째 줄에서 부른 것)"
                self.b.scene(copy.names[key], title, self.file(sc.get("file")), sc.get("line"))
                self._emit(key, copy.names[key], copy)

    # ------------------------------------------------------------------ variables

    def _effect(self, a: dict) -> tuple:
        """What an assignment does to its variable: ``("set", v)``, ``("step", op, n)``
        or ``("opaque", source)``."""
        name, tree = a["name"], a.get("value")
        source = a.get("src") or f"~ {name} = {_render(tree) if tree else '…'}"
        if a.get("inc"):
            n = 1 if tree is None else _literal(tree)
            if isinstance(n, int) and not isinstance(n, bool):
                return ("step", a["inc"], n)
            return ("opaque", source)
        value = self._value(tree)
        if value is not None:
            return ("set", value)
        if isinstance(tree, dict) and tree.get("t") == "bin" and tree.get("op") in ("+", "-"):
            left, right = tree.get("l") or {}, tree.get("r") or {}
            def same(x):  # noqa: E306 - the variable itself (or the parameter itself)
                return x.get("t") in ("var", "temp") and x.get("name") == name
            n = _literal(right) if same(left) else (_literal(left) if tree.get("op") == "+" and same(right) else None)
            if isinstance(n, int) and not isinstance(n, bool):
                return ("step", tree["op"], n)
        return ("opaque", source)

    def _apply(self, name: str, effect: tuple, file: str, line: int | None) -> None:
        if effect[0] == "set":
            self.b.assign(name, effect[1], file, line)
        elif effect[0] == "step":
            self.b.assign(name, (effect[1], effect[2]), file, line)
        else:
            self.b.effect_opaque(name, effect[1], file, line)

    def _assignments(self) -> None:
        doc = self.doc
        param_writes: dict[tuple[str, str], list[tuple]] = {}
        for a in doc.get("assigns") or []:
            scope = a.get("scope")
            if scope in ("global", "undeclared"):
                if a["name"] in self.lists:
                    continue
                file, line = self.file(a.get("file")), a.get("line")
                self._apply(a["name"], self._effect(a), file, line)
            elif scope == "param" and a.get("flow"):
                param_writes.setdefault((a["flow"], a["name"]), []).append(self._effect(a))
        # calls passing a variable to a `ref` parameter: the function's writes are the caller's
        calls_in: dict[str, list[dict]] = {}
        for call in doc.get("calls") or []:
            calls_in.setdefault(call.get("flow") or "", []).append(call)
        memo: dict[tuple[str, str], list[tuple]] = {}

        def effects(flow: str, param: str, stack: frozenset) -> list[tuple]:
            key = (flow, param)
            if key in memo:
                return memo[key]
            if key in stack or len(stack) > MAX_NESTING:
                return [("opaque", f"{flow}(ref {param})")]
            found = list(param_writes.get(key, []))
            for call in calls_in.get(flow, []):
                info = self.flows.get(call.get("target") or "")
                if info is None:
                    continue
                for index, p in enumerate(info.params):
                    args = call.get("args") or []
                    if p.get("ref") and index < len(args) and args[index].get("ref") == param \
                            and args[index].get("scope") == "param":
                        found.extend(effects(info.name, p["name"], stack | {key}))
            memo[key] = found
            return found

        for call in doc.get("calls") or []:
            info = self.flows.get(call.get("target") or "")
            if info is None:
                continue
            args = call.get("args") or []
            for index, p in enumerate(info.params):
                if not p.get("ref") or index >= len(args):
                    continue
                arg = args[index]
                if arg.get("scope") not in ("global", "undeclared") or not arg.get("ref") or arg["ref"] in self.lists:
                    continue
                file, line = self.file(call.get("file")), call.get("line")
                for effect in effects(info.name, p["name"], frozenset()):
                    self._apply(arg["ref"], effect, file, line)

    def _reads(self) -> None:
        for r in self.doc.get("reads") or []:
            if r["name"] in self.lists:
                continue
            self.b.read(r["name"], self.file(r.get("file")), r.get("line"))


# ----------------------------------------------------------------------------- the construct scan


_SCAN_KNOT = re.compile(r"^\s*={2,}\s*(function\b\s*)?([^\W\d]\w*)")
_SCAN_STITCH = re.compile(r"^\s*=(?!=)\s*([^\W\d]\w*)")
_SCAN_CHOICE = re.compile(r"^\s*[*+]")
_SCAN_INCLUDE = re.compile(r"^\s*INCLUDE\s+(.+?)\s*$")
_SCAN_THREAD = re.compile(r"<-\s*[^\W\d]")
_SCAN_DECL = re.compile(r"^\s*(VAR|CONST|LIST|EXTERNAL|~)")


def _without_comments(text: str) -> list[str]:
    """The lines of ``text`` with ``//`` and ``/* */`` comments blanked, as ink's own
    comment eliminator does (no quoting), line numbers kept."""
    out = []
    in_block = False
    for raw in text.split("\n"):
        if not in_block and "/" not in raw:
            out.append(raw)
            continue
        line = []
        i = 0
        while i < len(raw):
            if in_block:
                end = raw.find("*/", i)
                if end < 0:
                    i = len(raw)
                    break
                in_block = False
                i = end + 2
                continue
            if raw.startswith("/*", i):
                in_block = True
                i += 2
                continue
            if raw.startswith("//", i):
                break
            line.append(raw[i])
            i += 1
        out.append("".join(line))
    return out


def _diverts_in(line: str) -> bool:
    """Whether ``line`` holds a divert, tunnel or thread (and not only divert-target
    values such as ``d == -> knot`` or ``f(-> knot)``)."""
    if _SCAN_THREAD.search(line):
        return True
    for m in re.finditer(r"->", line):
        before = line[:m.start()].rstrip()
        if before.endswith(("(", ",", "=", "return")) and not before.endswith("->"):
            continue
        return True
    return False


def _include_target(root: Path, name: str) -> Path | None:
    target = root / name
    try:
        real = target.resolve()
        if not real.is_relative_to(root.resolve()) or not real.is_file():
            return None
    except (OSError, RuntimeError):
        return None
    return target


def scan_constructs(path: str | Path) -> list[Construct]:
    """Every construct line of the story at ``path`` and its ``INCLUDE``d files, found
    line by line with regular expressions (independently of the compiler): knot and
    stitch headers (``scene``, with the scene id they must keep), choices, diverts,
    tunnel calls and returns, threads (``branch``).  ``//`` and ``/* */`` comments are
    skipped; functions' headers are not scenes (their diverts are constructs)."""
    return _scan(Path(path), str(path))


def _scan(path: Path, main: str) -> list[Construct]:
    """:func:`scan_constructs`, naming the main file ``main``."""
    root = path.parent
    found: list[Construct] = []
    queue: list[tuple[Path, str]] = [(path, main)]
    seen: set[Path] = set()
    while queue and len(seen) < MAX_INCLUDES:
        here, shown = queue.pop(0)
        try:
            key = here.resolve()
        except (OSError, RuntimeError):
            continue
        if key in seen:
            continue
        seen.add(key)
        try:
            text = read_text(here)
        except InputError:
            continue
        knot: str | None = None
        function = False
        for no, line in enumerate(_without_comments(text), 1):
            m = _SCAN_INCLUDE.match(line)
            if m:
                target = _include_target(root, m.group(1))
                if target is not None:
                    queue.append((target, str(Path(main).parent / m.group(1))))
                continue
            m = _SCAN_KNOT.match(line)
            if m:
                function = bool(m.group(1))
                knot = m.group(2)
                if not function:
                    found.append(Construct(shown, no, "scene", line.strip(), knot))
                continue
            m = _SCAN_STITCH.match(line)
            if m:
                if knot is not None and not function:
                    found.append(Construct(shown, no, "scene", line.strip(), f"{knot}.{m.group(1)}"))
                continue
            if _SCAN_DECL.match(line):
                continue
            if _SCAN_CHOICE.match(line) or _diverts_in(line):
                found.append(Construct(shown, no, "branch", line.strip()))
    return found
