"""storygraph on the report screen: what it adds to the shared screen of
:mod:`verdicts.screen` — the scenario diagram and each card's context table (the branches
of the scene concerned, in ``order_no`` order, with their destination's title); the
verification notes are the domain's own (``StorygraphDomain.notes``).

>>> from storygraph import DOMAIN, lint
>>> html = report_html(lint("examples/lighthouse/scenario.csv"), DOMAIN, diagram=False)
>>> "끝까지 닿음" in html and "자동 검증" in html
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from verdicts.screen import ContextTable, GradingPanel, ScreenExtras, anchors_for, render_html

from .diagram import DOT_TIMEOUT, MAX_EDGES, MAX_NODES, DiagramError, DiagramTooLarge, check_size, diagram_model, render_svg
from verdicts.version import tool_version

from .model import Branch

if TYPE_CHECKING:
    from .domain import LintResult

__all__ = ["context_tables", "screen_extras", "report_html", "empty_html"]

# ``domain`` below is storygraph's Domain (``storygraph.DOMAIN``), passed in: this module
# sits below ``storygraph.domain``, which asks it for the screen's extras.

def _ordered(result: LintResult, scene_id: str) -> list[Branch]:
    state = result.analysis.shadowing.get(scene_id) if getattr(result, "analysis", None) else None
    if state is not None:
        return list(state.ordered)
    branches = [b for b in result.scenario.branches if b.from_scene == scene_id]
    return sorted(branches, key=lambda b: (b.order_no is None, b.order_no or 0, b.line))


#: at most this many branches in one card's context table: a scene of thousands of
#: branches would otherwise put thousands of rows under each of its thousands of cards
MAX_CONTEXT_ROWS = 25


def _window(n: int, centre: int | None) -> range:
    """The rows shown of ``n``: all when few, else :data:`MAX_CONTEXT_ROWS` around
    ``centre`` (from the first row when there is none)."""
    if n <= MAX_CONTEXT_ROWS:
        return range(n)
    start = 0 if centre is None else min(max(0, centre - MAX_CONTEXT_ROWS // 2), n - MAX_CONTEXT_ROWS)
    return range(start, start + MAX_CONTEXT_ROWS)


def context_tables(result: LintResult) -> dict[str, ContextTable]:
    """Card key -> the branches leaving the scene concerned (the scene itself for a
    scene card, the ``from_scene`` for a branch card), in order, with columns
    ``branch_id`` / ``title`` (of the destination) / ``condition_expr`` / ``order_no``.

    The card's own branch is marked, and so is every branch that never fires.  Past
    :data:`MAX_CONTEXT_ROWS` branches only that many around the card's own branch are
    shown, and the caption says which.
    """
    sc = result.scenario
    shadowed = result.analysis.shadowed if getattr(result, "analysis", None) else {}
    tables: dict[str, ContextTable] = {}
    # per scene, its branches in order and the position of each branch id (the first of a
    # repeated one), made once: a scene's thousands of cards share them (issue 19)
    scenes: dict[str, tuple[list[Branch], dict[str, int]]] = {}
    for card in result.cards:
        scene_id = card.scene_id
        if scene_id is None:
            continue
        scene = sc.scenes.get(scene_id)
        name = f"{scene.title} ({scene_id})" if scene and scene.title else scene_id
        known = scenes.get(scene_id)
        if known is None:
            ordered = _ordered(result, scene_id)
            position: dict[str, int] = {}
            for k, b in enumerate(ordered):
                position.setdefault(b.branch_id, k)
            known = scenes[scene_id] = (ordered, position)
        ordered, position = known
        window = range(len(ordered))
        if len(ordered) > MAX_CONTEXT_ROWS:
            window = _window(len(ordered), position.get(card.branch_id))
        rows, marks = [], {}
        for i, b in zip(range(len(window)), (ordered[k] for k in window)):
            dest = sc.scenes.get(b.to_scene)
            title = (f"{dest.title} → {b.to_scene}" if dest and dest.title else f"→ {b.to_scene}") if dest else f"(없는 장면) → {b.to_scene}"
            rows.append([b.branch_id, title, b.condition_expr or "", b.order_no])
            notes = []
            if b.branch_id == card.branch_id:
                notes.append("이 카드")
            if b.branch_id == getattr(card, "overlapping_branch_id", None):
                notes.append("뒤에서 덮이는 분기")
            if b.branch_id in shadowed:
                notes.append("나오지 않음")
            if notes:
                marks[i] = " · ".join(notes)
        shown = "" if len(window) == len(ordered) else \
            f", {len(ordered):,}개 가운데 {window.start + 1:,}–{window.stop:,}번째"
        tables[card.key] = ContextTable(
            caption=f"{name}에서 나가는 분기 (`order_no` 순서, title = 도착 장면{shown})",
            columns=["branch_id", "title", "condition_expr", "order_no"],
            rows=rows, highlight=marks, empty=f"{name}에서 나가는 분기가 없습니다.",
        )
    return tables


def _diagram(result: LintResult, links: dict[str, str], timeout: float, max_nodes: int = MAX_NODES,
             max_edges: int = MAX_EDGES) -> tuple[str | None, str | None, dict[str, str], str | None]:
    """(svg, caption, targets, error): the whole scenario when it fits, else the findings
    with their neighbours, else the findings alone, else a message saying why; targets
    maps a card key to its node's or edge's element id in the SVG."""
    candidates = [diagram_model(result), diagram_model(result, focus="findings"), diagram_model(result, focus="findings", hops=0)]
    model = next((m for m in candidates if _fits(m, max_nodes, max_edges)), None)
    if model is None:
        whole = candidates[0]
        return None, None, {}, (f"장면 {whole.total_nodes}개, 분기 {whole.total_edges}개로 화면에 그리기에 너무 큽니다: 판정이 나온 곳만 "
                            f"추려도 장면 {len(candidates[2].nodes)}개입니다. storygraph render 경로 --focus 장면ID --hops N 으로 "
                            "한 장면 둘레를 그려 보세요.")
    try:
        svg = render_svg(model, timeout=timeout, links=links, max_nodes=max_nodes, max_edges=max_edges)
    except DiagramError as exc:
        return None, None, {}, str(exc)
    targets = {n.key: f"node-{n.name}" for n in model.nodes if n.role != "ghost"}
    targets.update({e.branch_id: f"edge-{e.name}" for e in model.edges})
    return svg, model.caption(), targets, None


def _fits(model, max_nodes: int, max_edges: int) -> bool:
    try:
        check_size(model, max_nodes=max_nodes, max_edges=max_edges)
    except DiagramTooLarge:
        return False
    return True


def screen_extras(result: LintResult, domain, *, diagram: bool = True, grading: GradingPanel | None = None, upload: bool = False,
                  upload_limit_bytes: int | None = None, banner: str | None = None, timeout: float = DOT_TIMEOUT,
                  max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES, live: str | None = None, sample: bool = False) -> ScreenExtras:
    """Everything storygraph adds to the shared screen for ``result``.

    The diagram is the whole scenario when it is within ``max_nodes``/``max_edges``, else
    the neighbourhood of the findings, else the findings alone, else a message.
    """
    links = anchors_for(result.cards)
    svg = caption = error = None
    targets: dict[str, str] = {}
    if diagram:
        svg, caption, targets, error = _diagram(result, links, timeout, max_nodes, max_edges)
    return ScreenExtras(
        diagram_svg=svg, diagram_caption=caption, diagram_error=error, diagram_targets=targets, context=context_tables(result),
        notes=domain.notes, grading=grading, upload=upload,
        upload_limit_bytes=upload_limit_bytes, banner=banner, heading="storygraph 보고서 — " + domain.title,
        tool=f"storygraph {tool_version()}", live=live, sample=sample,
    )


def report_html(result: LintResult, domain, **options) -> str:
    """The report screen of a lint as one self-contained HTML document (options: see
    :func:`screen_extras`)."""
    return render_html(result, domain, screen_extras(result, domain, **options))


def empty_html(domain, *, upload_limit_bytes: int | None = None, banner: str | None = None) -> str:
    """The served page before anything was uploaded: the upload form, the sample button
    and the always-visible panels (empty checks and grading, the notes)."""
    return render_html(None, domain, ScreenExtras(
        notes=domain.notes, upload=True, upload_limit_bytes=upload_limit_bytes, banner=banner,
        heading="storygraph 보고서 — " + domain.title, tool=f"storygraph {tool_version()}",
    ))
