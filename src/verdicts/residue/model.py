"""The typed component and the residue card.

Answer keys and their Korean labels are the seed's, verbatim, in the order of
precedence (first match wins).  The card's ``verdict`` is the label (the kit groups by
it); ``answer`` is the key and ``label`` repeats the label, as the issue's output asks.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from verdicts.model import Card

__all__ = [
    "TEMPLATE_LEFT", "BODY_BLANK", "OUTSIDE_LEFT", "SATELLITE_ONLY", "COMPLETE", "ANSWERS", "VERDICTS", "DEFECTS", "AGGREGATE",
    "SATELLITE_KINDS", "BODY_KINDS", "SLOT_KINDS", "PICTURE", "REQUIRED_KEYS",
    "BindingNode", "FrameNode", "OutsideNode", "VisibleText", "Component", "ResidueCard", "CARD_FIELDS",
]

TEMPLATE_LEFT, BODY_BLANK, OUTSIDE_LEFT, SATELLITE_ONLY, COMPLETE = (
    "template_left", "body_blank", "outside_left", "satellite_only", "complete")
#: answer key -> its Korean label, in the order of precedence
ANSWERS: dict[str, str] = {
    TEMPLATE_LEFT: "템플릿 글 남음",
    BODY_BLANK: "본문 자리 비어 있음",
    OUTSIDE_LEFT: "경계 밖 잔존",
    SATELLITE_ONLY: "위성 자리만 비어 있음",
    COMPLETE: "완성",
}
VERDICTS: tuple[str, ...] = tuple(ANSWERS.values())
DEFECTS: frozenset[str] = frozenset({TEMPLATE_LEFT, BODY_BLANK, OUTSIDE_LEFT})
#: how card E3 aggregates its answers over a run (its ``aggregate``): the share of defects
AGGREGATE = "ratio"

SATELLITE_KINDS = frozenset({"satellite", "unbound_satellite"})
BODY_KINDS = frozenset({"unit_field", "unbound_core"})
SLOT_KINDS = ("satellite", "unbound_satellite", "unit_field", "unbound_core")
SlotKind = Literal["satellite", "unbound_satellite", "unit_field", "unbound_core"]
#: the picture every component is rendered at (width, height)
PICTURE = (1920, 1080)
REQUIRED_KEYS = ("component_id", "page_yaml", "binding", "frame_tree", "outside_nodes", "placeholder_table")

Box = tuple[float, float, float, float]


class _Node(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BindingNode(_Node):
    """A node the user text was bound into."""

    node_id: str
    sheet_id: str | None = None
    text: str | None = None
    slot_kind: SlotKind


class FrameNode(_Node):
    """A template node inside the bound area, before replacement.  ``role`` (optional,
    ours) marks places that are never blank: a photo place or decoration."""

    node_id: str
    parent: str | None = None
    text: str | None = None
    box: Box | None = None
    slot_kind: SlotKind
    role: Literal["text", "photo", "decoration"] = "text"


class OutsideNode(_Node):
    """A template node of the same component outside the bound area."""

    node_id: str
    template_text: str | None = None
    now: str | None = None
    element: Literal["text", "chart", "table", "diagram"] = "text"
    cells_replaced: bool = False
    satellite: bool = False
    slot_kind: SlotKind
    box: Box | None = None


class VisibleText(_Node):
    """A text read off the picture (step 1), with its box when the reader gives one."""

    text: str
    box: Box | None = None


class Component(BaseModel):
    """One generated slide component ("DO") and what was read off its picture."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    component_id: str = Field(min_length=1)
    page_yaml: list[dict[str, str | int | float | None]]
    binding: list[BindingNode]
    frame_tree: list[FrameNode]
    outside_nodes: list[OutsideNode]
    placeholder_table: list[str]
    visible_texts: list[VisibleText] | None = None
    result_thumb: str | None = None


CARD_FIELDS: tuple[str, ...] = (
    "component_id", "answer", "label", "verdict", "defect", "evidence", "evidence_items", "attributions", "summary", "hedge",
)


class ResidueCard(Card):
    """A residue card (see ``schemas/residue.card.schema.json``)."""

    key_field: ClassVar[str] = "component_id"
    field_names: ClassVar[tuple[str, ...]] = CARD_FIELDS
    #: ``evidence`` is the seed's one line (「『글』→출처, 자리 ⇒ 답」); the items it joins
    evidence_field: ClassVar[str] = "evidence_items"
