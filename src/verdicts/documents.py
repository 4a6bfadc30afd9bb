"""Strict documents: JSON and YAML read so that no key is lost without a word.

Every JSON, JSON-lines and YAML document the kit and its domains read goes through here
(residue components and evaluation cards, extraction run events, the mail agent's log,
a grading run's output, rule-case files) or through :mod:`verdicts.tables` (scenarios
and every domain's tables), which follows the same rules; TOML configurations are
:mod:`verdicts.config`'s:

* a key repeated in one object is an input issue naming its line and column, and the
  first value is kept (JSON and YAML parsers keep the last one silently);
* a key the format does not know is an input issue naming its line, with the known key
  it most likely misspells (:mod:`verdicts.suggest`) — also when nothing else in the
  document is wrong.

Positions cost nothing on the common path: a JSON text is parsed by the C scanner with a
hook that only notices a repeated key (and then keeps the first value).  A repeated
key's place is found by one pass over the text's strings and punctuation
(:func:`_json_repeats`, linear); every other key's place only when asked
(:meth:`Document.where`), by a second parse with the position-aware pure-Python scanner
(:func:`json.scanner.py_make_scanner` with an object parser that remembers where each
key is), for documents up to :data:`MAX_LOCATED_CHARS`.  YAML nodes carry their own
marks, so the YAML loader keeps every key's line and column as it builds.
"""

from __future__ import annotations

import bisect
import json
import json.scanner
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Collection, Sequence

from .errors import InputError
from .korean import code
from .tables import MAX_DEPTH, depth_over, json_int, json_syntax_error, reading_yaml, yaml_loader

__all__ = ["Document", "Located", "Repeat", "parse_json", "parse_yaml", "unknown_keys", "model_keys", "MAX_LOCATED_CHARS"]


class Located(dict):
    """A mapping read from a document that knows where each of its keys stands:
    ``marks[key] = (line, column)``, both from 1."""

    __slots__ = ("marks",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.marks: dict[Any, tuple[int, int]] = {}


@dataclass(frozen=True)
class Repeat:
    """A key written twice in one mapping: the place of the repeat and of the first."""

    key: str
    line: int
    column: int
    first_line: int
    #: the keys leading to the mapping (``("frame_tree", 0)``); empty at the top
    path: tuple[Any, ...] = ()

    def reason(self) -> str:
        """The issue's sentence (the file and line are the issue's own fields)."""
        where = "같은 줄에" if self.first_line == self.line else f"{self.first_line}번째 줄에"
        return f"{code(self.key)} 키가 {where} 이미 있어 이 두 번째 값은 읽지 않고 앞의 값을 썼습니다."


@dataclass
class Document:
    """A parsed document: its data (first values of repeated keys kept), the repeats,
    and the places of its keys (:meth:`where`)."""

    data: Any
    repeats: list[Repeat]
    _locate: Callable[[], Any] | None = field(default=None, repr=False)
    _located: Any = field(default=None, repr=False)

    def plain(self) -> Any:
        """The data with every :class:`Located` mapping a plain ``dict`` (for a consumer
        that checks the exact type, such as a YAML dumper); built without recursion."""
        def copy(node: Any) -> Any:
            return dict(node) if isinstance(node, dict) else list(node) if isinstance(node, list) else node

        top = copy(self.data)
        stack = [top]
        while stack:
            node = stack.pop()
            items = node.items() if isinstance(node, dict) else enumerate(node)
            for key, value in list(items):
                if isinstance(value, (dict, list)):
                    node[key] = copy(value)
                    stack.append(node[key])
        return top

    def where(self, path: Sequence[Any]) -> tuple[int, int] | None:
        """``(line, column)`` of the key at the end of ``path`` (keys and list indexes
        from the top, as pydantic's ``loc``), or of the nearest mapping key on the way
        when the path goes further than the document; ``None`` when nothing on it can be
        placed."""
        if self._located is None and self._locate is not None:
            try:
                self._located = self._locate()
            except RecursionError:  # not met within MAX_DEPTH; a place is a courtesy, never a crash
                self._locate = None
        node, best = self._located if self._located is not None else self.data, None
        for part in path:
            if isinstance(node, Located) and part in node:
                best = node.marks.get(part, best)
                node = node[part]
            elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
                node = node[part]
            else:
                break
        return best


# --------------------------------------------------------------------------- JSON


class _Lines:
    """Line and column of offsets into ``text``, in any order (a bisection over the line
    breaks, found once)."""

    def __init__(self, text: str):
        self.breaks = [m.start() for m in re.finditer("\n", text)]

    def __call__(self, offset: int) -> tuple[int, int]:
        before = bisect.bisect_left(self.breaks, offset)  # line breaks before ``offset``
        start = self.breaks[before - 1] + 1 if before else 0
        return before + 1, offset - start + 1


def _key_start(text: str, value_at: int) -> int:
    """The offset of the opening quote of the key whose value starts at ``value_at``."""
    i = value_at - 1
    while i > 0 and text[i] in " \t\r\n:":
        i -= 1
    # ``i`` is the key's closing quote; walk back to an opening quote not escaped
    j = i - 1
    while j >= 0:
        if text[j] == '"':
            k = j - 1
            while k >= 0 and text[k] == "\\":
                k -= 1
            if (j - k - 1) % 2 == 0:
                return j
        j -= 1
    return max(i, 0)


class _LocatingDecoder(json.JSONDecoder):
    """A decoder whose objects are :class:`Located` (the pure-Python scanner, with an
    object parser that remembers where each value, hence each key, starts)."""

    def __init__(self, text: str, repeats: list[Repeat]):
        super().__init__(parse_int=json_int, parse_constant=str)
        self.text, self.repeats = text, repeats
        self.place = _Lines(text)
        self.parse_object = self._object  # the scanner's hook
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]  # not in the stubs
        self.memo: dict = {}

    def _object(self, s_and_end, strict, scan_once, object_hook, object_pairs_hook, memo=None):
        starts: list[int] = []

        def scan(s: str, at: int):
            starts.append(at)
            return scan_once(s, at)

        pairs, end = json.decoder.JSONObject(s_and_end, strict, scan, None, list, memo)
        out = Located()
        for (key, value), at in zip(pairs, starts):
            place = self.place(_key_start(self.text, at))
            if key in out:
                self.repeats.append(Repeat(key, place[0], place[1], out.marks[key][0]))
                continue
            out[key] = value
            out.marks[key] = place
        return out, end


def _located_json(text: str) -> Any:
    """The JSON ``text`` with every object a :class:`Located` (first values kept)."""
    return _LocatingDecoder(text, []).decode(text)


def _fill_paths(data: Any, repeats: list[Repeat]) -> None:
    """Give each repeat the path of its mapping (found by the repeat's line among the
    keys' marks; walked without recursion)."""
    if not repeats:
        return
    lines: dict[tuple[Any, int], tuple[Any, ...]] = {}
    stack: list[tuple[Any, tuple[Any, ...]]] = [(data, ())]
    while stack:
        node, path = stack.pop()
        if isinstance(node, Located):
            for key, value in node.items():
                lines.setdefault((key, node.marks[key][0]), path)
                stack.append((value, (*path, key)))
        elif isinstance(node, list):
            stack.extend((v, (*path, i)) for i, v in enumerate(node))
    for i, r in enumerate(repeats):
        found = lines.get((r.key, r.first_line))
        if found is not None:
            repeats[i] = Repeat(r.key, r.line, r.column, r.first_line, found)


#: JSON documents up to this size (characters) have every key's place on demand
#: (:meth:`Document.where`, a second parse by the pure-Python scanner, about 3 s a
#: megabyte); a larger one names the places of repeated keys only.
MAX_LOCATED_CHARS = 1 << 20

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]')


def _json_repeats(text: str) -> list[Repeat]:
    """The repeated keys of the valid JSON ``text``, found by one pass over its strings
    and punctuation (at the regular-expression engine's speed; values are skipped)."""
    lines = _Lines(text)
    repeats: list[Repeat] = []
    # open containers: [is an object, keys -> offset, the current key or index]
    stack: list[list[Any]] = []
    last: re.Match[str] | None = None  # the last string, a key when a ``:`` follows
    for m in _TOKEN.finditer(text):
        c = m.group()[0]
        if c == '"':
            last = m
            continue
        if c == ":" and last is not None and stack and stack[-1][0]:
            key = json.loads(last.group())
            top = stack[-1]
            top[2] = key
            if key in top[1]:
                line, column = lines(last.start())
                path = tuple(frame[2] for frame in stack[:-1])
                repeats.append(Repeat(key, line, column, lines(top[1][key])[0], path))
            else:
                top[1][key] = last.start()
        elif c == ",":
            if stack and not stack[-1][0]:
                stack[-1][2] += 1
        elif c in "{[":
            stack.append([c == "{", {}, None if c == "{" else 0])
        elif stack:
            stack.pop()
        last = None
    return repeats


def parse_json(text: str, file: str) -> Document:
    """The JSON document ``text`` (strict JSON; integers past 4,000 digits and
    ``NaN``/``Infinity`` stay text; nesting past :data:`~verdicts.tables.MAX_DEPTH`
    refused).  A syntax error is an :class:`InputError` naming ``file``, line and
    column; a repeated key keeps its first value and is a :class:`Repeat` of the
    result."""
    repeated = False

    def pairs(items: list[tuple[str, Any]]) -> dict:
        nonlocal repeated
        out = dict(items)
        if len(out) != len(items):  # keep the first value of each key
            repeated = True
            out = {}
            for key, value in items:
                out.setdefault(key, value)
        return out

    decoder = json.JSONDecoder(object_pairs_hook=pairs, parse_int=json_int, parse_constant=str)
    too_deep = InputError(f"{file}: 값이 {MAX_DEPTH}단계보다 깊게 중첩되어 JSON을 읽지 않았습니다.")
    try:
        data = decoder.decode(text)
    except json.JSONDecodeError as exc:
        raise json_syntax_error(file, exc) from None
    except RecursionError:
        raise too_deep from None
    if depth_over(data, MAX_DEPTH):  # the same bound as the tables' (and the located parse's)
        raise too_deep
    locate = (lambda: _located_json(text)) if len(text) <= MAX_LOCATED_CHARS else None
    return Document(data, _json_repeats(text) if repeated else [], _locate=locate)


# --------------------------------------------------------------------------- YAML


def _located_loader():
    """The kit's safe YAML loader whose mappings are :class:`Located` and keep the first
    value of a repeated key (recorded in the loader's ``repeats``)."""
    import yaml

    base = yaml_loader()
    loader = _LOADERS.get(base)
    if loader is not None:
        return loader

    class LocatingLoader(base):
        def __init__(self, stream):
            super().__init__(stream)
            self.repeats: list[Repeat] = []

        def construct_located(self, node):
            out = Located()
            yield out
            own = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
            self.flatten_mapping(node)  # merge keys (``<<``) first; the mapping's own keys win over them
            merged = node.value[: len(node.value) - len(own)]
            for key_node, value_node in merged:
                key = self.construct_object(key_node, deep=True)
                out[key] = self.construct_object(value_node, deep=True)
                out.marks[key] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
            seen: set = set()
            for key_node, value_node in own:
                key = self.construct_object(key_node, deep=True)
                try:
                    hash(key)
                except TypeError:
                    raise yaml.constructor.ConstructorError(
                        "while constructing a mapping", node.start_mark, "found unhashable key", key_node.start_mark) from None
                place = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
                if key in seen:
                    self.repeats.append(Repeat(str(key), place[0], place[1], out.marks[key][0]))
                    continue
                seen.add(key)
                out[key] = self.construct_object(value_node, deep=True)
                out.marks[key] = place

    LocatingLoader.add_constructor("tag:yaml.org,2002:map", LocatingLoader.construct_located)
    _LOADERS[base] = LocatingLoader
    return LocatingLoader


_LOADERS: dict = {}


def parse_yaml(text: str, file: str) -> Document:
    """The YAML document ``text``, read as the tables read YAML (safe loader; nesting and
    alias expansion bounded before anything is built), every mapping a
    :class:`Located`.  A syntax error is an :class:`InputError` naming ``file``, line and
    column (:func:`verdicts.tables.reading_yaml`, the tables' own reading); a repeated
    key is a :class:`Repeat` of the result."""
    with reading_yaml(text, file, _located_loader()) as loader:
        data = loader.get_single_data()
        repeats = loader.repeats
    _fill_paths(data, repeats)
    return Document(data, repeats, _located=data)


# --------------------------------------------------------------------------- unknown keys


def unknown_keys(data: Any, known: Collection[str]) -> list[str]:
    """The keys of the mapping ``data`` that are not ``known``, in the document's order."""
    if not isinstance(data, dict):
        return []
    return [k for k in data if k not in known]



def model_keys(model: Any, loc: Sequence[Any]) -> list[str]:
    """The keys the pydantic ``model`` knows at ``loc`` (keys and list indexes from the
    top, as pydantic's ``loc`` of the mapping holding a key): the fields of the model
    found there, or none when the path leaves the models."""
    import typing

    from pydantic import BaseModel

    for part in loc:
        if isinstance(part, int):
            continue
        field_info = getattr(model, "model_fields", {}).get(part)
        if field_info is None:
            return []
        inner = field_info.annotation
        args = typing.get_args(inner)
        for arg in (inner, *args, *(a for x in args for a in typing.get_args(x))):
            if isinstance(arg, type) and issubclass(arg, BaseModel):
                model = arg
                break
        else:
            return []
    return list(getattr(model, "model_fields", {}))
