"""The screen's figure of one component: its picture (when it has one) with every text
read off it boxed in its source's colour, over the template's node boxes.

Without a picture the figure is drawn from the data: the ``frame_tree`` boxes (dashed)
and ``outside_nodes`` boxes (dotted), and each given text written in its box.  Every
text from the inputs is escaped; the picture is embedded as a ``data:`` PNG (the only
image source the screen's Content-Security-Policy allows), scaled to half size.
"""

from __future__ import annotations

import base64
import io
from html import escape
from pathlib import Path
from typing import Any, Sequence

from verdicts.screen import CardFigure

from .analysis import PLACEHOLDER, STRUCTURAL, TEMPLATE, USER
from .model import PICTURE, Component, VisibleText
from .pictures import UnreadablePicture, open_picture, picture_path

__all__ = ["SOURCE_COLOURS", "SOURCE_NAMES", "component_figure", "picture_data_uri"]

#: the box colour of each source (가 user text, 나 placeholder, 다 structural token, 라 template text)
SOURCE_COLOURS = {USER: "#1b7f3b", PLACEHOLDER: "#d97706", STRUCTURAL: "#2563eb", TEMPLATE: "#c62828"}
SOURCE_NAMES = {USER: "(가) 사용자 글", PLACEHOLDER: "(나) 임시 문구", STRUCTURAL: "(다) 구조 토큰", TEMPLATE: "(라) 템플릿 글"}
#: the embedded picture's width (half of 1920: enough to read, a quarter of the bytes)
_THUMB_WIDTH = 960


def picture_data_uri(path: Path) -> str:
    """The picture at ``path`` as a ``data:image/png`` URI, scaled to half size.

    Raises :class:`~.pictures.UnreadablePicture`.
    """
    picture = open_picture(path)
    picture.thumbnail((_THUMB_WIDTH, _THUMB_WIDTH * PICTURE[1] // PICTURE[0]))
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG", optimize=True)
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode("ascii")


def _rect(box: Sequence[float], **attrs: Any) -> str:
    x, y, w, h = box
    extra = " ".join(f'{k.replace("_", "-")}="{escape(str(v))}"' for k, v in attrs.items())
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" {extra}/>'


def component_figure(component: Component, texts: Sequence[VisibleText], attributions: Sequence[dict[str, Any]],
                     folder: Path) -> CardFigure:
    """The figure of ``component``: ``texts`` (what step 1 read, in order) boxed by the
    source of the matching ``attributions`` (the card's, same order)."""
    picture, problem = None, None
    if component.result_thumb:
        try:
            picture = picture_data_uri(picture_path(folder, component.result_thumb))
        except UnreadablePicture as exc:
            problem = str(exc)
    width, height = PICTURE
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="{escape(component.component_id)}" data-picture="{"yes" if picture else "no"}">']
    if picture:
        parts.append(f'<image href="{picture}" x="0" y="0" width="{width}" height="{height}"/>')
    else:
        parts.append(f'<rect x="0" y="0" width="{width}" height="{height}" fill="#fafafa"/>')
    for node in component.frame_tree:
        if node.box is not None:
            parts.append(_rect(node.box, fill="none", stroke="#9e9e9e", stroke_width=2, stroke_dasharray="10 8",
                               data_node=node.node_id, **{"class": "frame"}))
    for outside in component.outside_nodes:
        if outside.box is not None:
            parts.append(_rect(outside.box, fill="none", stroke="#616161", stroke_width=3, stroke_dasharray="2 8",
                               data_node=outside.node_id, **{"class": "outside"}))
    boxed = 0
    for text, attribution in zip(texts, attributions):
        if text.box is None:
            continue
        boxed += 1
        source = attribution.get("source", "")
        colour = SOURCE_COLOURS.get(source, "#000000")
        x, y, w, h = text.box
        where = f'{attribution.get("slot_kind")}({attribution.get("node")})' if attribution.get("node") else attribution.get("slot_kind")
        title = f"『{text.text}』→{source}, {where}"
        parts.append(f'<g class="read" data-source="{escape(source)}" data-place="{escape(str(attribution.get("place")))}">'
                     f'<title>{escape(title)}</title>')
        if not picture:
            parts.append(f'<text x="{x + 6:g}" y="{y + h * 0.75:g}" font-size="{max(12, min(40, h * 0.7)):g}" fill="#222">'
                         f'{escape(" ".join(text.text.split()))}</text>')
        parts.append(_rect(text.box, fill=colour, fill_opacity="0.10", stroke=colour, stroke_width=5))
        parts.append(f'<text x="{x:g}" y="{max(22, y - 6):g}" font-size="24" font-weight="bold" fill="{colour}">{escape(source)}</text></g>')
    parts.append("</svg>")
    unboxed = len(texts) - boxed
    if picture:
        caption = f"그림(`result_thumb`) 위에 읽은 글 {boxed}개를 출처별 색 상자로 표시했습니다."
    elif problem:
        caption = f"그림을 열지 못해({problem}) 노드 상자 위에 읽은 글 {boxed}개를 출처별 색 상자로 그렸습니다."
    else:
        caption = f"그림이 없어 노드 상자(점선) 위에 주어진 글 {boxed}개를 출처별 색 상자로 그렸습니다."
    if unboxed:
        caption += f" 위치 없이 주어진 글 {unboxed}개는 그리지 않았습니다."
    legend = [(SOURCE_COLOURS[s], SOURCE_NAMES[s]) for s in (USER, PLACEHOLDER, STRUCTURAL, TEMPLATE)]
    legend += [("#9e9e9e", "경계 안 노드(`frame_tree`)"), ("#616161", "경계 밖 노드(`outside_nodes`)")]
    return CardFigure("".join(parts), caption, legend)
