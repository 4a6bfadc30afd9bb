"""Steps 2 and 3 of card E3, mechanically: attribute each visible text to its first
matching source, place it by ``slot_kind``, and find the blank body places.

The functions are pure: they take a :class:`~.model.Component` and the texts step 1
read, and return a :class:`Reading` the rules decide on.  Nothing here looks at how a
place looks: a place is a satellite or a body place by its ``slot_kind`` alone.

>>> from .model import Component
>>> c = Component(component_id="D", page_yaml=[{"label": "기획"}], binding=[], frame_tree=[],
...               outside_nodes=[], placeholder_table=["제목 입력"],
...               visible_texts=[{"text": "기획"}, {"text": "제목 입력"}, {"text": "01"}, {"text": "기본 타이틀"}])
>>> [(a.text, a.source) for a in analyse(c, c.visible_texts).attributions]
[('기획', '가'), ('제목 입력', '나'), ('01', '다'), ('기본 타이틀', '라')]
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable

from .model import BODY_KINDS, SATELLITE_KINDS, Component, FrameNode, OutsideNode, VisibleText

__all__ = [
    "USER", "PLACEHOLDER", "STRUCTURAL", "TEMPLATE", "Attribution", "Blank", "OutsideResidue", "Reading",
    "analyse", "norm", "strip_label", "is_ordinal_marker", "is_short_label", "replaced_nodes",
    "DATA_RESIDUE", "TEXT_RESIDUE", "PLACEHOLDER_RESIDUE",
]

USER, PLACEHOLDER, STRUCTURAL, TEMPLATE = "가", "나", "다", "라"
#: the kinds of what is left outside the bound area (written in the evidence)
PLACEHOLDER_RESIDUE, TEXT_RESIDUE, DATA_RESIDUE = "임시 문구", "템플릿 원문 글", "차트·표·다이어그램 데이터"
_DATA_ELEMENTS = frozenset({"chart", "table", "diagram"})

_SPACE = re.compile(r"\s+")
_TRUNCATION = re.compile(r"(…|\.\.\.+|‥)+$")
# a field prefix such as "label:" or "설명 :" (a short name, then a colon, then the text)
_LABEL_PREFIX = re.compile(r"^\s*[^\s:：][^:：\n]{0,19}[:：]\s*(?=\S)")
_ORDINAL = re.compile(r"^(?:\d{1,2}\.?|step\s*\d{1,2})$", re.IGNORECASE)
_SHORT_LABEL = re.compile(r"^(?:[A-Z]|VS)$")
_LOOSE = re.compile(r"[\W_]+")
_QUESTION_KEYS = frozenset({"q", "question", "질문"})
_ANSWER_KEYS = frozenset({"a", "answer", "답", "답변"})


def norm(text: Any) -> str:
    """A text as compared: NFKC, no whitespace (line breaks and spacing are no
    difference), case folded, a trailing ellipsis (truncation) dropped.

    >>> norm("시장 조사와\\n목표 설정…"), norm("Ｑ")
    ('시장조사와목표설정', 'q')
    """
    if text is None:
        return ""
    text = unicodedata.normalize("NFKC", str(text))
    return _TRUNCATION.sub("", _SPACE.sub("", text)).casefold()


def strip_label(text: str) -> str:
    """``text`` without a leading field prefix (``label: 기획`` → ``기획``).

    >>> strip_label("label: 기획"), strip_label("12:30"), strip_label("기획")
    ('기획', '12:30', '기획')
    """
    stripped = _LABEL_PREFIX.sub("", text, count=1)
    # a time or a ratio (12:30, 3:1) is not a prefix
    if stripped != text and re.fullmatch(r"\s*\d+\s*[:：]\s*\d.*", text):
        return text
    return stripped


def _loose(text: str) -> str:
    return _LOOSE.sub("", norm(text))


def is_ordinal_marker(text: str) -> bool:
    """A marker's ordinal: ``01``, ``2``, ``10.``, ``STEP 1``.

    >>> [is_ordinal_marker(t) for t in ("01", "STEP 1", "Step2", "1 steps", "フェーズ1", "2024")]
    [True, True, True, False, False, False]
    """
    return bool(_ORDINAL.match(unicodedata.normalize("NFKC", text).strip()))


def is_short_label(text: str) -> bool:
    """A one-letter or short label (``A``, ``Q``, ``VS``, ``O``, ``X``)."""
    return bool(_SHORT_LABEL.match(unicodedata.normalize("NFKC", text).strip()))


@dataclass(frozen=True)
class Attribution:
    """One visible text with its source (가 user, 나 placeholder, 다 structural token,
    라 template text), the node it was matched to, its ``slot_kind`` and its place
    (``body``, ``satellite`` or ``outside``)."""

    text: str
    source: str
    node: str | None
    slot_kind: str
    place: str
    #: how the source was decided, for the record (``frame_tree 원문``, ``다시 찾음`` …)
    note: str | None = None
    #: the frame_tree / outside_nodes original the template text was confirmed as
    origin: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "source": self.source, "node": self.node, "slot_kind": self.slot_kind, "place": self.place}


@dataclass(frozen=True)
class Blank:
    """A body place that shows empty or a placeholder while its page_yaml content
    appears nowhere on the picture."""

    node: str
    slot_kind: str
    shows: str | None  # the placeholder it shows, or None for an empty place
    page_text: str
    field: str
    item: int


@dataclass(frozen=True)
class OutsideResidue:
    attribution: Attribution
    kind: str


@dataclass
class Reading:
    """What steps 2 and 3 found on one component."""

    attributions: list[Attribution]
    template_inside: list[Attribution] = field(default_factory=list)
    blanks: list[Blank] = field(default_factory=list)
    outside: list[OutsideResidue] = field(default_factory=list)
    #: placeholders on satellite places, or on surplus body places that are not blank
    other_placeholders: list[Attribution] = field(default_factory=list)
    #: page_yaml content not seen, with no place showing empty or a placeholder for it
    unseen: list[str] = field(default_factory=list)
    #: template texts on a chart/table/diagram outside whose cells were replaced
    replaced_data: list[Attribution] = field(default_factory=list)
    #: visible texts matched by their words alone (no box given)
    unboxed: int = 0


def replaced_nodes(component: Component) -> set[str]:
    """The bound nodes (``binding`` with a ``sheet_id``) and all their descendants in
    ``frame_tree`` by ``parent``: places the user text replaced, whose frame_tree text
    is not on the picture.

    >>> from .model import Component
    >>> c = Component(component_id="D", page_yaml=[], placeholder_table=[], outside_nodes=[],
    ...     binding=[{"node_id": "t", "sheet_id": "s1", "slot_kind": "unit_field"}],
    ...     frame_tree=[{"node_id": "t", "slot_kind": "unit_field"}, {"node_id": "c1", "parent": "t", "slot_kind": "unit_field"},
    ...                 {"node_id": "c2", "parent": "c1", "slot_kind": "unit_field"}, {"node_id": "x", "slot_kind": "unbound_core"}])
    >>> sorted(replaced_nodes(c))
    ['c1', 'c2', 't']
    """
    bound = {b.node_id for b in component.binding if b.sheet_id}
    parent = {n.node_id: n.parent for n in component.frame_tree}
    out = set(bound)
    for node in parent:
        seen = set()
        current: str | None = node
        while current is not None and current not in seen:
            if current in bound:
                out.add(node)
                break
            seen.add(current)
            current = parent.get(current)
    return out


# ---------------------------------------------------------------------------- step 2 helpers
class _UserText:
    """The user's texts of one component (page_yaml values, binding texts, non-null
    ``now``), ready for the look-ups of (가)."""

    def __init__(self, component: Component):
        texts = [str(v) for item in component.page_yaml for v in item.values() if v not in (None, "")]
        texts += [b.text for b in component.binding if b.text]
        texts += [o.now for o in component.outside_nodes if o.now]
        self.normed = sorted({norm(t) for t in texts if norm(t)}, key=len, reverse=True)
        self.words = {norm(w) for t in texts for w in re.split(r"[\s,.;:!?()\[\]/·]+", t) if w}
        self.loose = [_loose(t) for t in texts if _loose(t)]

    def has(self, text: str) -> bool:
        """Whether ``text`` is user text: the whole of it, or a part (truncated, partly
        visible, over several lines), or several user texts run together.  A text of one
        or two characters must be a whole user text or one of its words (an ``O`` is
        not user text because ``OKR`` is)."""
        for candidate in dict.fromkeys((norm(text), norm(strip_label(text)))):
            if not candidate:
                continue
            if len(candidate) <= 2:
                if candidate in self.words or candidate in self.normed:
                    return True
                continue
            if any(candidate in u for u in self.normed):
                return True
            rest = candidate
            for u in self.normed:  # longest first
                rest = rest.replace(u, "")
            if not rest:
                return True
        return False

    def has_loosely(self, text: str) -> bool:
        """The second look-up before calling a text template text: punctuation and
        symbols dropped as well."""
        loose = _loose(strip_label(text))
        return len(loose) > 2 and any(loose in u for u in self.loose)


def _label_misfits(component: Component, labels: list[tuple[int, str]]) -> set[int]:
    """Which short labels (index, text) do not fit this page's items (then template
    text, 라).  Sequence letters fit when they are A, B, C … once each, as many as the
    items; ``Q``/``A`` fit a page whose items are questions with answers, at most one
    pair per item; ``VS`` fits two items; ``O``/``X`` fit when there is one per item."""
    items = component.page_yaml
    n = len(items)
    texts = {i: unicodedata.normalize("NFKC", t).strip() for i, t in labels}
    misfit: set[int] = set()
    qa_shaped = n > 0 and all(
        {k.casefold() for k in item} & _QUESTION_KEYS and {k.casefold() for k in item} & _ANSWER_KEYS for item in items)
    has_q = any(t == "Q" for t in texts.values())
    qa = {i for i, t in texts.items() if t in ("Q", "A")} if has_q else set()
    if qa:
        q_count = sum(1 for i in qa if texts[i] == "Q")
        a_count = len(qa) - q_count
        if not qa_shaped or q_count > n or a_count > n:
            misfit |= qa
    vs = {i for i, t in texts.items() if t == "VS"}
    if vs and (n != 2 or len(vs) != 1):
        misfit |= vs
    ox = {i for i, t in texts.items() if t in ("O", "X")}
    if ox and len(ox) != n:
        misfit |= ox
    letters = {i for i, t in texts.items() if i not in qa and i not in vs and i not in ox}
    if letters:
        seq = sorted(texts[i] for i in letters)
        wanted = [chr(ord("A") + k) for k in range(n)]
        if seq != wanted:
            misfit |= letters
    return misfit


def _is_placeholder(text: str, placeholders: set[str]) -> bool:
    """A phrase of the placeholder table, also truncated or partly visible (three
    characters or more of its beginning: 「제목을 입력해…」).

    >>> _is_placeholder("제목을 입력해…", {norm("제목을 입력해주세요.")}), _is_placeholder("제목을", {norm("제목")})
    (True, False)
    """
    for candidate in dict.fromkeys((norm(text), norm(strip_label(text)))):
        if candidate in placeholders or (len(candidate) >= 3 and any(p.startswith(candidate) for p in placeholders)):
            return True
    return False


# ---------------------------------------------------------------------------- node matching
def _area(box) -> float:
    return box[2] * box[3]


def _contains(box, point) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def _match(component: Component, seen: VisibleText, replaced: set[str]) -> FrameNode | OutsideNode | None:
    """The node a visible text sits on: the smallest node box holding the text box's
    centre, else a node whose text (a non-replaced frame_tree original, an outside
    node's ``now`` or original, a bound node's text) is this text."""
    nodes: list[FrameNode | OutsideNode] = [*component.frame_tree, *component.outside_nodes]
    if seen.box is not None:
        x, y, w, h = seen.box
        centre = (x + w / 2, y + h / 2)
        holding = [n for n in nodes if n.box is not None and _contains(n.box, centre)]
        if holding:
            return min(holding, key=lambda n: _area(n.box))
        return None
    target = norm(strip_label(seen.text))
    for node in component.outside_nodes:
        if target and target in (norm(node.now), norm(node.template_text)):
            return node
    frame = {n.node_id: n for n in component.frame_tree}
    for b in component.binding:
        if b.text and target and target in norm(b.text) and b.node_id in frame:
            return frame[b.node_id]
    for frame_node in component.frame_tree:
        if frame_node.node_id not in replaced and target and target == norm(frame_node.text):
            return frame_node
    return None


# ---------------------------------------------------------------------------- steps 2 and 3
def analyse(component: Component, visible: Iterable[VisibleText]) -> Reading:
    """Attribute and place every visible text of ``component`` and find its blanks."""
    visible = list(visible)
    replaced = replaced_nodes(component)
    users = _UserText(component)
    placeholders = {norm(p) for p in component.placeholder_table if norm(p)}
    bound_kind = {b.node_id: b.slot_kind for b in component.binding}
    originals = {norm(n.text): n.node_id for n in component.frame_tree if n.text}
    originals.update({norm(o.template_text): o.node_id for o in component.outside_nodes if o.template_text})

    matched = [_match(component, v, replaced) for v in visible]
    first: list[str | None] = []
    for v, node in zip(visible, matched):
        data_outside = isinstance(node, OutsideNode) and node.element in _DATA_ELEMENTS
        if users.has(v.text):
            first.append(USER)
        elif _is_placeholder(v.text, placeholders):
            first.append(PLACEHOLDER)
        elif is_ordinal_marker(v.text) and not data_outside:
            first.append(STRUCTURAL)
        elif is_short_label(v.text) and not data_outside:
            first.append(None)  # decided below, against the page's items
        else:
            first.append(TEMPLATE)
    misfits = _label_misfits(component, [(i, visible[i].text) for i, s in enumerate(first) if s is None])

    reading = Reading(attributions=[])
    for i, (v, node, source) in enumerate(zip(visible, matched, first)):
        note = None
        if source is None:
            source = TEMPLATE if i in misfits else STRUCTURAL
            note = "항목 수와 어긋난 이름표" if i in misfits else "항목 수에 맞는 이름표"
        origin = None
        if source == TEMPLATE:
            if users.has_loosely(v.text):
                source, note = USER, "다시 찾은 사용자 글"
            else:
                origin = originals.get(norm(v.text))
        if isinstance(node, OutsideNode):
            slot_kind = node.slot_kind
            place = "outside"
        elif node is not None:
            slot_kind = bound_kind.get(node.node_id, node.slot_kind)
            place = "satellite" if slot_kind in SATELLITE_KINDS else "body"
        else:
            slot_kind, place = "unbound_core", "body"
        if v.box is None:
            reading.unboxed += 1
        reading.attributions.append(Attribution(v.text, source, node.node_id if node else None, slot_kind, place, note, origin))

    _place(component, visible, matched, reading, replaced, users)
    return reading


def _place(component: Component, visible: list[VisibleText], matched: list[Any], reading: Reading,
           replaced: set[str], users: _UserText) -> None:
    attrs = reading.attributions
    # inside: template text is left whatever its place
    reading.template_inside = [a for a in attrs if a.source == TEMPLATE and a.place != "outside"]
    # outside
    outside_nodes = {o.node_id: o for o in component.outside_nodes}
    for a in attrs:
        if a.place != "outside":
            continue
        node = outside_nodes[a.node]  # type: ignore[index]
        satellite = node.satellite or node.slot_kind in SATELLITE_KINDS
        if a.source == PLACEHOLDER:
            if satellite:
                reading.other_placeholders.append(a)
            else:
                reading.outside.append(OutsideResidue(a, PLACEHOLDER_RESIDUE))
        elif a.source == TEMPLATE:
            if node.element in _DATA_ELEMENTS:
                if node.cells_replaced:
                    reading.replaced_data.append(a)
                else:
                    reading.outside.append(OutsideResidue(a, DATA_RESIDUE))
            else:
                reading.outside.append(OutsideResidue(a, TEXT_RESIDUE))

    # blanks: page_yaml content seen nowhere, and a body place showing empty or a placeholder
    seen_norms = [norm(strip_label(v.text)) for v in visible] + [norm(v.text) for v in visible]
    joined = "".join(norm(v.text) for v in visible)
    user_seen = [norm(strip_label(a.text)) for a in attrs if a.source == USER]

    def visible_anywhere(value: str) -> bool:
        target = norm(value)
        if not target or target in joined or any(target in s for s in seen_norms):
            return True
        # truncated or partly visible: a user text on the picture that is a part of it
        return any(len(s) >= 2 and s in target for s in user_seen)

    missing = [(i, k, str(v)) for i, item in enumerate(component.page_yaml) for k, v in item.items()
               if v not in (None, "") and not visible_anywhere(str(v))]
    on_node: dict[str, list[Attribution]] = {}
    for a in attrs:
        if a.node is not None:
            on_node.setdefault(a.node, []).append(a)
    children = {n.parent for n in component.frame_tree if n.parent}
    bound_text = {b.node_id: norm(b.text) for b in component.binding if b.text}

    def shows(node: FrameNode) -> tuple[bool, str | None]:
        """(whether the place shows empty or a placeholder, the placeholder)."""
        here = on_node.get(node.node_id, [])
        if not here:
            return node.box is not None, None
        # a marker or short label on a place is not its content: only such tokens and
        # placeholders there leave the place empty
        if all(a.source in (PLACEHOLDER, STRUCTURAL) for a in here):
            shown = next((a.text for a in here if a.source == PLACEHOLDER), None)
            return True, shown
        return False, None

    places = [n for n in component.frame_tree
              if n.role == "text" and n.node_id not in children
              and (bound_kind_of(component, n)) in BODY_KINDS]
    used: set[str] = set()
    blank_nodes: set[str] = set()
    for item, key, value in missing:
        target = norm(value)
        chosen = None
        # the value's own bound place decides when there is one; other places only
        # when the value was bound nowhere
        own = next((n for n in places if n.node_id not in used and bound_text.get(n.node_id)
                    and (target in bound_text[n.node_id] or bound_text[n.node_id] in target)), None)
        if own is not None:
            blank, shown = shows(own)
            if blank:
                chosen = (own, shown)
        else:
            for place in places:
                if place.node_id in used or place.node_id in bound_text:
                    continue
                blank, shown = shows(place)
                if blank:
                    chosen = (place, shown)
                    break
        if chosen is None:
            reading.unseen.append(value)
            continue
        blank_node, shown = chosen
        used.add(blank_node.node_id)
        blank_nodes.add(blank_node.node_id)
        reading.blanks.append(Blank(blank_node.node_id, bound_kind_of(component, blank_node), shown, value, key, item))

    for a in attrs:
        if a.source == PLACEHOLDER and a.place != "outside" and a.node not in blank_nodes:
            reading.other_placeholders.append(a)


def bound_kind_of(component: Component, node: FrameNode) -> str:
    """A frame_tree node's ``slot_kind``, the binding's when the node is bound."""
    for b in component.binding:
        if b.node_id == node.node_id:
            return b.slot_kind
    return node.slot_kind
