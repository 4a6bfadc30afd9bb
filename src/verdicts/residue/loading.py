"""Reading components: one YAML or JSON file each, a folder of them is a set.

A file that breaks the component's shape — a missing key, a value of the wrong kind, a
box outside the 1920×1080 picture, a ``parent`` chain that loops, a repeated
``component_id`` — becomes an :class:`~verdicts.model.InputIssue` naming the file, the
key and the reason, and only that component is left unjudged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from pydantic import ValidationError

from verdicts.documents import Document, model_keys
from verdicts.errors import InputError
from verdicts.korean import code, josa
from verdicts.model import InputIssue, SourceInfo
from verdicts.suggest import misspelling

from .model import PICTURE, Component, FrameNode, OutsideNode, VisibleText

__all__ = ["ComponentSet", "load_components", "component_files", "parent_cycle", "TABLE"]

#: the table name issues and sources use for a component file
TABLE = "component"
_SUFFIXES = (".yaml", ".yml", ".json")


@dataclass
class ComponentSet:
    """The components read from a path, the files they came from, and the issues."""

    components: list[Component] = field(default_factory=list)
    files: dict[str, str] = field(default_factory=dict)  # component_id -> file
    issues: list[InputIssue] = field(default_factory=list)
    sources: list[SourceInfo] = field(default_factory=list)
    base: dict[str, Path] = field(default_factory=dict)  # component_id -> its folder
    #: filled by the domain's build step: component_id -> the texts step 1 read
    visible: dict[str, list[Any]] = field(default_factory=dict)

    def by_id(self) -> dict[str, Component]:
        return {c.component_id: c for c in self.components}


def component_files(path: Path) -> list[Path]:
    """The component files at ``path``: the file itself, or a folder's ``*.yaml``,
    ``*.yml`` and ``*.json`` files in name order (not recursive)."""
    if path.is_dir():
        # a FIFO or a link to a device among them is listed, so that reading it says why it is refused
        return sorted(p for p in path.iterdir() if not p.is_dir() and p.suffix.lower() in _SUFFIXES)
    return [path]


def _parse(path: Path) -> Document:
    """A component file, read as every input is (a FIFO or a device is refused without
    waiting; sizes, nesting and YAML aliases bounded: :mod:`verdicts.tables`), as a
    strict document: repeated keys and the place of every key known
    (:mod:`verdicts.documents`)."""
    from ..documents import parse_json, parse_yaml
    from ..tables import MAX_JSON_BYTES, MAX_YAML_BYTES, read_regular_file

    is_json = path.suffix.lower() == ".json"
    text = read_regular_file(path, MAX_JSON_BYTES if is_json else MAX_YAML_BYTES, "컴포넌트").decode("utf-8")
    return (parse_json if is_json else parse_yaml)(text, str(path))


def _key(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(component)"


_REASONS = {
    "missing": "필요한 키가 없습니다.",
    "extra_forbidden": "알 수 없는 키입니다.",
}


def parent_cycle(nodes: list[Any]) -> list[str] | None:
    """The node ids of the first ``parent`` loop among ``nodes`` (in order), or ``None``.

    >>> from types import SimpleNamespace as N
    >>> parent_cycle([N(node_id="a", parent="b"), N(node_id="b", parent="a")])
    ['a', 'b']
    >>> parent_cycle([N(node_id="a", parent=None), N(node_id="b", parent="a")]) is None
    True
    """
    parents = {n.node_id: n.parent for n in nodes}
    for start in parents:
        seen: list[str] = []
        node: str | None = start
        while node is not None and node in parents:
            if node in seen:
                return seen[seen.index(node):]
            seen.append(node)
            node = parents[node]
    return None


def _box_problems(component: Component) -> list[tuple[str, str]]:
    width, height = PICTURE
    out = []
    groups: tuple[tuple[str, Sequence[FrameNode | OutsideNode | VisibleText]], ...] = (
        ("frame_tree", component.frame_tree), ("outside_nodes", component.outside_nodes),
        ("visible_texts", component.visible_texts or []))
    for name, items in groups:
        for i, item in enumerate(items):
            box = item.box
            if box is None:
                continue
            x, y, w, h = box
            if w < 0 or h < 0 or x < 0 or y < 0 or x + w > width or y + h > height:
                out.append((f"{name}[{i}].box", f"{josa('상자 [' + ', '.join(f'{v:g}' for v in box) + ']', '이/가')} {width}x{height} 그림 밖으로 나갑니다."))
    return out


def _check(component: Component) -> list[tuple[str, str]]:
    problems = _box_problems(component)
    loop = parent_cycle(component.frame_tree)
    if loop:
        problems.append(("frame_tree.parent", f"parent가 {josa(' → '.join(loop + loop[:1]), '으로/로')} 돌아 고리를 이룹니다."))
    return problems


def load_components(path: str | Path) -> ComponentSet:
    """Every component at ``path``, with an issue for each file that cannot be judged.

    Raises :class:`~verdicts.errors.InputError` only when ``path`` does not exist or
    holds no component file at all.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: 파일이나 폴더가 없습니다.")
    files = component_files(path)
    if not files:
        raise InputError(f"{path}: 컴포넌트 파일(`.yaml`, `.yml`, `.json`)이 없습니다.")
    out = ComponentSet()
    for file in files:
        name = str(file)

        def issue(key: str | None, reason: str, line: int | None = None) -> None:
            out.issues.append(InputIssue(file=name, table=TABLE, line=line, column=key, reason=reason))  # noqa: B023 - used for this file only, within its iteration

        try:
            doc = _parse(file)
            data = doc.data
        except InputError as exc:  # not a regular file, too large, nested too deeply, an alias bomb
            text = str(exc).removeprefix(f"{name}:").lstrip()
            line, _, rest = text.partition(": ")
            at = int(line) if line.isdigit() else None
            out.issues.append(InputIssue(file=name, table=TABLE, line=at, reason=rest if at is not None else text))
            continue
        except (OSError, UnicodeDecodeError) as exc:
            issue(None, f"파일을 읽지 못했습니다({type(exc).__name__}).")
            continue
        except Exception as exc:  # noqa: BLE001 - a YAML or JSON parser error of any kind
            issue(None, f"YAML이나 JSON으로 읽을 수 없습니다({type(exc).__name__}).")
            continue
        if not isinstance(data, dict):
            issue(None, "컴포넌트 파일은 키와 값의 묶음 하나여야 합니다.")
            continue
        for repeat in doc.repeats:  # the first value is kept; the component is still judged
            issue(_key((*repeat.path, repeat.key)), repeat.reason(), repeat.line)
        try:
            component = Component.model_validate(data)
        except ValidationError as exc:
            for error in exc.errors():
                place = doc.where(error["loc"])
                reason = _REASONS.get(error["type"], f"값이 맞지 않습니다({error['msg']}).")
                if error["type"] == "extra_forbidden":
                    reason += misspelling(str(error["loc"][-1]), model_keys(Component, error["loc"][:-1]))
                issue(_key(error["loc"]), reason, place[0] if place else None)
            continue
        problems = _check(component)
        if component.component_id in out.files:
            problems.append(("component_id", f"같은 컴포넌트 {josa(code(component.component_id), '을/를')} {code(out.files[component.component_id])}에서 이미 "
                                             "읽었습니다."))
        if problems:
            for key, reason in problems:
                issue(key, reason)
            continue
        out.components.append(component)
        out.files[component.component_id] = name
        out.base[component.component_id] = file.parent
        # each component is its own table: SARIF and GitHub annotations find a card's file by it
        out.sources.append(SourceInfo(file=name, table=component.component_id, form=file.suffix.lower().lstrip("."), encoding="utf-8", rows=1))
    return out
