"""Diagrams of a linted scenario: Graphviz (DOT, SVG, PNG) and Mermaid.

Scenes are nodes and branches are edges.  What the diagram tells apart:

* **shape** — an entry scene is a house (``house``), an ending a double octagon
  (``doubleoctagon``), a scene no reader reaches a hexagon (``hexagon``), any other scene
  a rounded box; a ``to_scene`` that is not a known scene is drawn as a dashed *ghost*
  node;
* **colour** — the verdict of the scene's or the branch's card (the colours of
  :mod:`verdicts.palette`, the same as on the report screen), explained by a legend;
* **edge label** — ``order_no`` and the condition in words, as the cards word it (and
  the ``branch_id`` below; the ``condition_expr`` as written is the edge's tooltip);
* **dashed edge** — a branch that never fires (shadowed by earlier branches, or a
  condition that cannot hold).

Every user string reaches DOT only inside an HTML-like label, escaped, and every node
gets a generated name (``s0``, ``s1`` …), so a title or id such as ``<script>``, ``"``,
``\\N`` or a newline shows as text.  Large scenarios: :func:`diagram_model` can keep
only the neighbourhood of the findings or of one scene, and :func:`layout` refuses a
graph above a node/edge limit and stops ``dot`` after a timeout, with a message that
says what to do instead.

>>> from storygraph import lint
>>> model = diagram_model(lint("examples/lighthouse/scenario.csv"), focus="SC-17", hops=1)
>>> sorted(n.key for n in model.nodes)
['SC-16', 'SC-17', 'SC-18', 'SC-25']
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, Literal, Protocol, Sequence

import graphviz

from verdicts.errors import VerdictsError
from verdicts.korean import code, josa
from verdicts.palette import UNJUDGED, verdict_colours
from verdicts.safe_text import clean

from .model import BRANCH, REACHED_AND_ENDS, SCENE, UNREACHED, VERDICTS

if TYPE_CHECKING:
    from verdicts.model import Card, Finding

    from .analysis import Analysis
    from .model import Scenario


__all__ = [
    "DiagramError", "DiagramTooLarge", "DNode", "DEdge", "DiagramModel", "diagram_model", "to_graphviz", "to_dot",
    "to_mermaid", "layout", "render_svg", "write_diagram", "MAX_NODES", "MAX_EDGES", "DOT_TIMEOUT", "FONT",
]

#: above these, :func:`layout` refuses to run ``dot`` and asks for a focus instead
MAX_NODES = 600
MAX_EDGES = 2400
#: seconds ``dot`` may take before it is stopped
DOT_TIMEOUT = 30.0
#: Korean-capable font asked of Graphviz (installed by scripts/setup.sh as fonts-nanum)
FONT = "NanumGothic"
#: default hops around the findings / around one scene
FINDINGS_HOPS = 1
SCENE_HOPS = 2

GHOST: Final = "ghost"
Role = Literal["entry", "ending", "unreached", "scene", "ghost"]
SHAPES: dict[str, str] = {
    "entry": "house",
    "ending": "doubleoctagon",
    "unreached": "hexagon",
    "scene": "box",
    "ghost": "box",
}
#: how the legend names each shape
SHAPE_WORDS: dict[str, str] = {
    "entry": "집 모양 = 시작 장면(`is_entry`)",
    "ending": "이중 팔각형 = 엔딩(`is_ending`)",
    "unreached": "육각형 = 어디서도 안 닿는 장면",
    "scene": "둥근 상자 = 그 밖의 장면",
    "ghost": "점선 상자 = 없는 장면(`to_scene`이 목록에 없음)",
}


class DiagramError(VerdictsError):
    """A diagram cannot be made as asked (unknown focus scene, ``dot`` missing or failing)."""


class DiagramTooLarge(DiagramError):
    """The graph is above the node/edge limit, or ``dot`` did not finish in time."""


@dataclass(frozen=True)
class DNode:
    """One node: a scene, or a ghost for a target that is not a scene."""

    name: str  # generated DOT/Mermaid name, never user text
    key: str  # scene_id
    title: str | None
    role: Role
    verdict: str | None  # None: ghost, or the scene's card was withheld
    #: some readers get stuck here: no branch fires for them (the stuck-combination finding)
    stuck: bool = False


@dataclass(frozen=True)
class DEdge:
    name: str
    branch_id: str
    tail: str  # node name
    head: str
    order_no: int | None
    #: the condition in words (as the cards say it); the written ``condition_expr`` when
    #: it could not be read
    condition: str | None
    verdict: str | None
    never_fires: bool
    #: the ``condition_expr`` as written (shown on hover)
    written: str | None = None


@dataclass
class DiagramModel:
    """The nodes and edges to draw, after any focus, with what was left out."""

    nodes: list[DNode]
    edges: list[DEdge]
    total_nodes: int
    total_edges: int
    focus: str | None = None
    hops: int | None = None
    counts: dict[str, int] = field(default_factory=dict)
    #: ghost nodes (missing targets) among ``total_nodes``
    total_ghosts: int = 0

    @property
    def partial(self) -> bool:
        return len(self.nodes) < self.total_nodes or len(self.edges) < self.total_edges

    def caption(self) -> str:
        """A Korean line saying what the diagram shows."""
        if self.focus == "findings" and not self.nodes and self.total_nodes:
            return "판정이 끝까지 닿음이 아닌 대상이 없어 초점을 맞출 곳이 없습니다."
        if not self.partial:
            ghosts = sum(1 for n in self.nodes if n.role == GHOST)
            extra = f"(없는 장면 {ghosts}개 따로)" if ghosts else ""
            return f"장면 {len(self.nodes) - ghosts}개{extra}와 분기 {len(self.edges)}개를 모두 그렸습니다."
        what = "판정이 끝까지 닿음이 아닌 대상" if self.focus == "findings" else f"장면 {self.focus}"
        kept = sum(1 for n in self.nodes if n.role != GHOST)
        return (f"{what} 둘레 {self.hops}걸음만 그렸습니다: 전체 장면 {self.total_nodes - self.total_ghosts}개 가운데 {kept}개, "
                f"분기 {self.total_edges}개 가운데 {len(self.edges)}개입니다.")


# ---------------------------------------------------------------------------- model


class LintedScenario(Protocol):
    """What a diagram reads of a finished lint (a :class:`storygraph.domain.LintResult`):
    named here so that this module needs nothing from the domain above it."""

    @property
    def scenario(self) -> Scenario: ...

    @property
    def cards(self) -> Sequence[Card]: ...

    @property
    def findings(self) -> Sequence[Finding]: ...

    @property
    def analysis(self) -> Analysis: ...


def diagram_model(result: LintedScenario, *, focus: str | None = None, hops: int | None = None) -> DiagramModel:
    """Choose what to draw.

    Parameters
    ----------
    result
        A finished lint (:func:`storygraph.lint`).
    focus
        ``None`` for everything; ``"findings"`` for the scenes concerned by any card
        whose verdict is not ``끝까지 닿음`` (and missing targets), plus ``hops`` steps
        around them; or a ``scene_id`` for ``hops`` steps around that scene.  Steps
        follow branches in either direction.
    hops
        Defaults to 1 around the findings and 2 around a scene.

    Raises
    ------
    DiagramError
        ``focus`` names no known scene.
    """
    sc = result.scenario
    cards = {c.key: c for c in result.cards}
    shadowed = result.analysis.shadowed if getattr(result, "analysis", None) else {}
    reached = result.analysis.reached if getattr(result, "analysis", None) else None

    stuck = {f.target for f in result.findings if f.code == "stuck-combination"}
    names: dict[str, str] = {}
    nodes: dict[str, DNode] = {}
    for i, scene in enumerate(sc.scenes.values()):
        card = cards.get(scene.scene_id)
        verdict = card.verdict if card is not None and card.target_kind == SCENE else None
        unreached = verdict == UNREACHED or (verdict is None and reached is not None and scene.scene_id not in reached)
        role: Role = "unreached" if unreached else "entry" if scene.is_entry else "ending" if scene.is_ending else "scene"
        names[scene.scene_id] = f"s{i}"
        nodes[scene.scene_id] = DNode(f"s{i}", scene.scene_id, scene.title, role, verdict, scene.scene_id in stuck)
    ghosts = 0

    def node_for(scene_id: str) -> str:
        nonlocal ghosts
        if scene_id not in names:
            names[scene_id] = f"g{ghosts}"
            nodes[scene_id] = DNode(f"g{ghosts}", scene_id, None, GHOST, None)
            ghosts += 1
        return names[scene_id]

    conditions = result.analysis.conditions if getattr(result, "analysis", None) else {}

    def words(b) -> str | None:
        """A branch's condition as the cards word it (``신뢰도 3 이상``), not as code."""
        from .templates import describe_condition

        expr = conditions.get(b.branch_id)
        if expr is None or not (b.condition_expr or "").strip():
            return b.condition_expr
        try:
            return describe_condition(expr, sc.flags).name
        except Exception:  # noqa: BLE001 - a wording must never stop the diagram
            return b.condition_expr

    edges: list[DEdge] = []
    for j, b in enumerate(sc.branches):
        card = cards.get(b.branch_id)
        edges.append(DEdge(
            name=f"b{j}", branch_id=b.branch_id, tail=node_for(b.from_scene), head=node_for(b.to_scene),
            order_no=b.order_no, condition=words(b),
            verdict=card.verdict if card is not None and card.target_kind == BRANCH else None,
            never_fires=b.branch_id in shadowed, written=b.condition_expr,
        ))
    all_nodes = list(nodes.values())
    counts: dict[str, int] = {}
    for c in result.cards:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    model = DiagramModel(all_nodes, edges, len(all_nodes), len(edges), counts=counts, total_ghosts=ghosts)
    if focus is None:
        return model

    if focus == "findings":
        hops = FINDINGS_HOPS if hops is None else hops
        seeds = {n.name for n in all_nodes if n.role == GHOST or (n.verdict is not None and n.verdict != REACHED_AND_ENDS)}
        for e in edges:
            if e.verdict is not None and e.verdict != REACHED_AND_ENDS:
                seeds.update((e.tail, e.head))
    else:
        if focus not in sc.scenes:
            raise DiagramError(f"초점으로 준 장면 {josa(code(focus), '이/가')} `scene_id` 목록에 없습니다.")
        hops = SCENE_HOPS if hops is None else hops
        seeds = {names[focus]}
    if hops < 0:
        raise DiagramError("`--hops` 값은 0 이상이어야 합니다.")
    from .graph import within_hops  # (a diagram of the whole scenario walks nothing)

    keep = within_hops([n.name for n in all_nodes], [(e.tail, e.head) for e in edges], seeds, hops)
    return DiagramModel(
        nodes=[n for n in all_nodes if n.name in keep],
        edges=[e for e in edges if e.tail in keep and e.head in keep],
        total_nodes=len(all_nodes), total_edges=len(edges), focus=focus, hops=hops, counts=counts, total_ghosts=ghosts,
    )


# ---------------------------------------------------------------------------- graphviz


def html_text(text: object) -> str:
    r"""Escape any text for a Graphviz HTML-like label: ``& < > " '`` become entities,
    a newline becomes ``<BR/>``, other control and direction characters are shown as
    visible escapes (:func:`verdicts.safe_text.clean`).

    >>> html_text('<script>alert("1")</script> & 장면\n둘')
    '&lt;script&gt;alert(&quot;1&quot;)&lt;/script&gt; &amp; 장면<BR/>둘'
    """
    s = str(text).replace("\r\n", "\n").replace("\r", "\n")
    s = "\n".join(clean(line) for line in s.split("\n"))  # controls and direction marks shown, not obeyed
    s = s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")
    # dot expands \N, \G, \E … even inside HTML labels (after resolving entities): an
    # invisible word joiner after each backslash keeps the text as written
    s = s.replace("\\", "\\\u2060")
    return s.replace("\n", "<BR/>")


def _colours(result_verdicts=VERDICTS) -> dict[str, tuple[str, str]]:
    return verdict_colours(result_verdicts, [REACHED_AND_ENDS])


def _node_label(n: DNode) -> str:
    if n.role == GHOST:
        return f'<<FONT POINT-SIZE="12">{html_text(n.key)}</FONT><BR/><FONT POINT-SIZE="9">(없는 장면)</FONT>>'
    title = html_text(n.title) if n.title else html_text(n.key)
    mark = '<BR/><FONT POINT-SIZE="9" COLOR="#b00020">⚠ 막히는 조합 있음</FONT>' if n.stuck else ""
    return f'<<B>{title}</B><BR/><FONT POINT-SIZE="9">{html_text(n.key)}</FONT>{mark}>'


def _edge_label(e: DEdge) -> str:
    order = "?" if e.order_no is None else str(e.order_no)
    cond = html_text(e.condition) if e.condition else "(조건 없음)"
    tail = " · 나오지 않음" if e.never_fires else ""
    return f'<{order} · {cond}<BR/><FONT POINT-SIZE="8">{html_text(e.branch_id)}{tail}</FONT>>'


def _legend(model: DiagramModel, colours: dict[str, tuple[str, str]]) -> str:
    rows = ['<TR><TD COLSPAN="2"><B>범례</B></TD></TR>']
    for verdict, (fill, stroke) in colours.items():
        n = model.counts.get(verdict, 0)
        rows.append(f'<TR><TD BGCOLOR="{fill}" WIDTH="18"><FONT COLOR="{stroke}">■</FONT></TD>'
                    f'<TD ALIGN="LEFT">{html_text(verdict)} ({n})</TD></TR>')
    rows.append(f'<TR><TD BGCOLOR="{UNJUDGED[0]}" WIDTH="18"> </TD><TD ALIGN="LEFT">판정 보류(입력 문제)</TD></TR>')
    for role in ("entry", "ending", "unreached", "scene", "ghost"):
        rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT">{html_text(SHAPE_WORDS[role])}</TD></TR>')
    rows.append('<TR><TD COLSPAN="2" ALIGN="LEFT">점선 화살표 = 앞 순번에 덮여 나오지 않는 분기</TD></TR>')
    rows.append('<TR><TD COLSPAN="2" ALIGN="LEFT"><FONT COLOR="#b00020">붉은 이중 테두리 ⚠</FONT> = 어떤 독자에게는 분기가 하나도 걸리지 않는 장면</TD></TR>')
    rows.append('<TR><TD COLSPAN="2" ALIGN="LEFT">화살표 글씨 = 순번 · 조건(말로 푼 것, 원문은 화살표에 마우스를 올리면 보입니다)</TD></TR>')
    if model.partial:
        rows.append(f'<TR><TD COLSPAN="2" ALIGN="LEFT">{html_text(model.caption())}</TD></TR>')
    return '<<TABLE BORDER="0" CELLBORDER="1" CELLSPACING="0" CELLPADDING="4">' + "".join(rows) + "</TABLE>>"


def to_graphviz(model: DiagramModel, *, links: dict[str, str] | None = None) -> graphviz.Digraph:
    """The model as a :class:`graphviz.Digraph` (nothing is laid out yet).

    ``links`` maps a scene or branch id to a link target (the report screen passes
    ``#card-N``); links must not hold user text.
    """
    links = links or {}
    colours = _colours()
    g = graphviz.Digraph("storygraph", engine="dot")
    g.attr(rankdir="TB", fontname=FONT, nodesep="0.35", ranksep="0.5", bgcolor="white")
    g.attr("node", fontname=FONT, fontsize="11", style="filled,rounded", margin="0.12,0.06")
    g.attr("edge", fontname=FONT, fontsize="9", arrowsize="0.7")
    for n in model.nodes:
        fill, stroke = colours.get(n.verdict, UNJUDGED) if n.verdict else UNJUDGED
        attrs = {"shape": SHAPES[n.role], "fillcolor": fill, "color": stroke, "id": f"node-{n.name}",
                 "tooltip": graphviz.escape(clean(f"{n.key} · {n.verdict or ('없는 장면' if n.role == GHOST else '판정 보류')}"))}
        if n.role == GHOST:
            attrs.update(style="dashed,filled", fillcolor="white", color=colours.get("없는 장면을 가리킴", UNJUDGED)[1],
                         fontcolor=colours.get("없는 장면을 가리킴", UNJUDGED)[1])
        elif n.role != "scene":
            attrs["style"] = "filled"
        if n.role == "unreached":
            attrs["style"] = "filled,dashed" if n.verdict is None else "filled"
        if n.role == "entry":
            attrs["penwidth"] = "2"
        if n.stuck:
            attrs.update(peripheries="2", color="#b00020", penwidth="2")
        if n.key in links:
            attrs["href"] = graphviz.escape(links[n.key])
        g.node(n.name, label=_node_label(n), **attrs)
    for e in model.edges:
        stroke = colours.get(e.verdict, UNJUDGED)[1] if e.verdict else UNJUDGED[1]
        attrs = {"color": stroke, "fontcolor": stroke, "id": f"edge-{e.name}",
                 "tooltip": graphviz.escape(clean(f"{e.branch_id} · {e.verdict or '판정 보류'}" + (f" · {e.written}" if e.written else "")))}
        if e.never_fires:
            attrs.update(style="dashed", penwidth="1.2")
        else:
            attrs["penwidth"] = "1.4"
        if e.branch_id in links:
            attrs["href"] = graphviz.escape(links[e.branch_id])
        g.edge(e.tail, e.head, label=_edge_label(e), **attrs)
    g.node("legend", label=_legend(model, colours), shape="plaintext", style="", fillcolor="white", id="legend")
    return g


def to_dot(model: DiagramModel, *, links: dict[str, str] | None = None) -> str:
    """DOT source of the model."""
    return to_graphviz(model, links=links).source


def check_size(model: DiagramModel, *, max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES) -> None:
    """Raise :class:`DiagramTooLarge` when the model is above the limits."""
    if len(model.nodes) > max_nodes or len(model.edges) > max_edges:
        raise DiagramTooLarge(
            f"그림으로 그리기에 너무 큽니다: 장면 {len(model.nodes)}개, 분기 {len(model.edges)}개 "
            f"(한도 장면 {max_nodes}개, 분기 {max_edges}개). " + _narrower(model)
        )


def _narrower(model: DiagramModel) -> str:
    """What to try when a diagram is too large, by what was already asked: a focus the run
    did not have, else fewer hops, else one scene or higher limits."""
    if model.focus is None:
        return "`--focus findings`로 판정이 나온 곳 둘레만, 또는 `--focus 장면ID --hops N`으로 한 장면 둘레만 그려 보세요."
    if model.focus == "findings":
        fewer = f"{josa(code(f'--hops {model.hops - 1}'), '으로/로')} 둘레를 좁히거나, " if model.hops else ""
        return (f"판정이 나온 곳만으로도 이만큼이니 {fewer}`--focus 장면ID --hops N`으로 한 장면 둘레만 그리거나, "
                "`--max-nodes`와 `--max-edges`로 한도를 올려 보세요.")
    fewer = f"{josa(code(f'--hops {model.hops - 1}'), '으로/로')} " if model.hops else ""
    return f"{fewer}둘레를 좁히거나 `--max-nodes`와 `--max-edges`로 한도를 올려 보세요."


def layout(dot_source: str, fmt: Literal["svg", "png"], *, timeout: float = DOT_TIMEOUT, model: DiagramModel | None = None) -> bytes:
    """Run the real ``dot`` binary on ``dot_source`` (of ``model``, when given) and
    return the output bytes.

    Raises
    ------
    DiagramTooLarge
        ``dot`` did not finish within ``timeout`` seconds (it is killed); the message
        suggests what the run of ``model`` did not try yet (:func:`_narrower`).
    DiagramError
        ``dot`` is not installed or failed.
    """
    exe = shutil.which("dot")
    if exe is None:
        raise DiagramError("Graphviz의 `dot` 프로그램이 없습니다. `scripts/setup.sh`를 실행해 설치하세요.")
    try:
        proc = subprocess.run([exe, f"-T{fmt}"], input=dot_source.encode("utf-8"), capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        hint = _narrower(model) if model is not None else "`--focus findings`나 `--focus 장면ID --hops N`으로 그릴 범위를 줄여 보세요."
        raise DiagramTooLarge(f"`dot`이 {timeout:g}초 안에 배치를 끝내지 못해 멈췄습니다. " + hint) from None
    if proc.returncode != 0:
        raise DiagramError(f"`dot`이 실패했습니다: {proc.stderr.decode('utf-8', 'replace').strip()[:500]}")
    return proc.stdout


def render_svg(model: DiagramModel, *, timeout: float = DOT_TIMEOUT, max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES,
               links: dict[str, str] | None = None) -> str:
    """Lay the model out with ``dot`` and return the SVG document (UTF-8 text)."""
    check_size(model, max_nodes=max_nodes, max_edges=max_edges)
    return layout(to_dot(model, links=links), "svg", timeout=timeout, model=model).decode("utf-8")


# ---------------------------------------------------------------------------- mermaid


def mermaid_text(text: object) -> str:
    """Escape text for a quoted Mermaid label (entity codes; newlines become ``<br/>``).

    >>> mermaid_text('a "b" <c> & #d')
    'a #quot;b#quot; #lt;c#gt; #amp; #35;d'
    """
    s = str(text).replace("\r\n", "\n").replace("\r", "\n")
    s = "\n".join(clean(line) for line in s.split("\n"))
    s = s.replace("#", "#35;")
    s = s.replace("&", "#amp;").replace('"', "#quot;").replace("<", "#lt;").replace(">", "#gt;")
    s = s.replace("|", "#124;").replace("`", "#96;")
    return s.replace("\n", "<br/>")


_MERMAID_SHAPES = {
    "entry": ('(["', '"])'),  # stadium
    "ending": ('[["', '"]]'),  # subroutine (double-sided box)
    "unreached": ('{{"', '"}}'),  # hexagon
    "scene": ('("', '")'),  # rounded box
    "ghost": ('["', '"]'),
}


def to_mermaid(model: DiagramModel, *, fenced: bool = False) -> str:
    """A Mermaid ``flowchart`` of the model (fenced as a Markdown code block if asked).

    Shapes: stadium = entry, double-sided box = ending, hexagon = unreached, rounded box
    = other scene, dashed box = missing scene; a dotted arrow never fires.
    """
    colours = _colours()
    lines = ["flowchart TD"]
    classes: dict[str, str] = {}
    for i, (verdict, (fill, stroke)) in enumerate(colours.items()):
        classes[verdict] = f"v{i}"
        lines.append(f"  classDef v{i} fill:{fill},stroke:{stroke},color:#222")
    lines.append(f"  classDef unjudged fill:{UNJUDGED[0]},stroke:{UNJUDGED[1]}")
    lines.append(f"  classDef ghost fill:#fff,stroke:{colours.get('없는 장면을 가리킴', UNJUDGED)[1]},stroke-dasharray:4 3")
    for n in model.nodes:
        open_, close = _MERMAID_SHAPES[n.role]
        text = (f"{mermaid_text(n.key)}<br/>(없는 장면)" if n.role == GHOST
                else f"{mermaid_text(n.title or n.key)}<br/><small>{mermaid_text(n.key)}</small>"
                + ("<br/>⚠ 막히는 조합 있음" if n.stuck else ""))
        lines.append(f"  {n.name}{open_}{text}{close}")
        cls = "ghost" if n.role == GHOST else classes.get(n.verdict or "", "unjudged")
        lines.append(f"  class {n.name} {cls}")
        if n.stuck:
            lines.append(f"  style {n.name} stroke:#b00020,stroke-width:3px")
    for i, e in enumerate(model.edges):
        order = "?" if e.order_no is None else str(e.order_no)
        cond = mermaid_text(e.condition) if e.condition else "(조건 없음)"
        label = f"{order} · {cond} · {mermaid_text(e.branch_id)}" + (" · 나오지 않음" if e.never_fires else "")
        arrow = "-.->" if e.never_fires else "-->"
        lines.append(f'  {e.tail} {arrow}|"{label}"| {e.head}')
        stroke = colours.get(e.verdict, UNJUDGED)[1] if e.verdict else UNJUDGED[1]
        lines.append(f"  linkStyle {i} stroke:{stroke},color:{stroke}")
    body = "\n".join(lines) + "\n"
    if not fenced:
        return body
    legend = ", ".join(f"{v} ({model.counts.get(v, 0)})" for v in colours)
    return f"```mermaid\n{body}```\n\n범례: 색 = 판정 — {legend}. " \
           "모양: 둥근 끝 상자 = 시작 장면, 양옆 줄 상자 = 엔딩, 육각형 = 어디서도 안 닿는 장면, 점선 상자 = 없는 장면. " \
           "점선 화살표 = 나오지 않는 분기. " + (model.caption() if model.partial else "") + "\n"


# ---------------------------------------------------------------------------- files

Format = Literal["dot", "svg", "png", "mermaid"]


def format_for(path: Path, requested: str | None = None) -> Format:
    """The output format: ``requested`` if given, else from the file suffix."""
    if requested:
        if requested not in ("dot", "svg", "png", "mermaid"):
            raise DiagramError(f"알 수 없는 그림 형식 {code(requested)}입니다 (`dot`, `svg`, `png`, `mermaid`).")
        return requested  # type: ignore[return-value]
    suffix = path.suffix.lower().lstrip(".")
    if suffix in ("dot", "gv"):
        return "dot"
    if suffix in ("svg", "png"):
        return suffix  # type: ignore[return-value]
    if suffix in ("md", "mmd", "mermaid"):
        return "mermaid"
    raise DiagramError(f"파일 이름 {code(path.name)}의 확장자로 형식을 알 수 없습니다. `.dot`, `.svg`, `.png`, `.md`(`.mmd`) 가운데 "
                      "하나를 쓰거나 `--format`을 주세요.")


def write_diagram(model: DiagramModel, path: str | Path, *, format: str | None = None, timeout: float = DOT_TIMEOUT,
                  max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES) -> Format:
    """Write the model to ``path`` in the format of its suffix (or ``format``).

    ``.dot`` writes the source without laying it out (no size limit); SVG and PNG run
    ``dot``; Mermaid writes a fenced Markdown block for ``.md`` and bare text otherwise.
    """
    from verdicts.outputs import write_output

    path = Path(path)
    fmt = format_for(path, format)
    if fmt == "dot":
        write_output(path, to_dot(model))
    elif fmt == "mermaid":
        check_size(model, max_nodes=max_nodes, max_edges=max_edges)
        write_output(path, to_mermaid(model, fenced=path.suffix.lower() == ".md"))
    else:
        check_size(model, max_nodes=max_nodes, max_edges=max_edges)
        write_output(path, layout(to_dot(model), fmt, timeout=timeout, model=model))
    return fmt
