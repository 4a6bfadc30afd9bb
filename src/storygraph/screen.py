"""storygraph on the report screen: what it adds to the shared screen of
:mod:`verdicts.screen` — the scenario diagram and each card's context table (the branches
of the scene concerned, in ``order_no`` order, with their destination's title); the
verification notes are the domain's own (``StorygraphDomain.notes``).

>>> from storygraph import lint
>>> html = report_html(lint("examples/lighthouse/scenario.csv"), diagram=False)
>>> "끝까지 닿음" in html and "자동 검증" in html
True
"""

from __future__ import annotations

from pathlib import Path

from verdicts.errors import VerdictsError
from verdicts.screen import ContextTable, GradingPanel, ScreenExtras, anchors_for, render_html

from .diagram import DOT_TIMEOUT, MAX_EDGES, MAX_NODES, DiagramError, DiagramTooLarge, check_size, diagram_model, render_svg
from .domain import DOMAIN, LintResult
from .model import Branch

__all__ = ["context_tables", "screen_extras", "report_html", "empty_html"]

def _ordered(result: LintResult, scene_id: str) -> list[Branch]:
    state = result.analysis.shadowing.get(scene_id) if getattr(result, "analysis", None) else None
    if state is not None:
        return list(state.ordered)
    branches = [b for b in result.scenario.branches if b.from_scene == scene_id]
    return sorted(branches, key=lambda b: (b.order_no is None, b.order_no or 0, b.line))


def context_tables(result: LintResult) -> dict[str, ContextTable]:
    """Card key -> the branches leaving the scene concerned (the scene itself for a
    scene card, the ``from_scene`` for a branch card), in order, with columns
    ``branch_id`` / ``title`` (of the destination) / ``condition_expr`` / ``order_no``.

    The card's own branch is marked, and so is every branch that never fires.
    """
    sc = result.scenario
    shadowed = result.analysis.shadowed if getattr(result, "analysis", None) else {}
    tables: dict[str, ContextTable] = {}
    for card in result.cards:
        scene_id = card.scene_id
        if scene_id is None:
            continue
        scene = sc.scenes.get(scene_id)
        name = f"{scene.title} ({scene_id})" if scene and scene.title else scene_id
        ordered = _ordered(result, scene_id)
        rows, marks = [], {}
        for i, b in enumerate(ordered):
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
        tables[card.key] = ContextTable(
            caption=f"{name}에서 나가는 분기 (order_no 순서, title = 도착 장면)",
            columns=["branch_id", "title", "condition_expr", "order_no"],
            rows=rows, highlight=marks, empty=f"{name}에서 나가는 분기가 없습니다.",
        )
    return tables


def _diagram(result: LintResult, links: dict[str, str], timeout: float, max_nodes: int = MAX_NODES,
             max_edges: int = MAX_EDGES) -> tuple[str | None, str | None, str | None, dict[str, str]]:
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


def screen_extras(result: LintResult, *, diagram: bool = True, grading: GradingPanel | None = None, upload: bool = False,
                  upload_limit_bytes: int | None = None, banner: str | None = None, timeout: float = DOT_TIMEOUT,
                  max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES) -> ScreenExtras:
    """Everything storygraph adds to the shared screen for ``result``.

    The diagram is the whole scenario when it is within ``max_nodes``/``max_edges``, else
    the neighbourhood of the findings, else the findings alone, else a message.
    """
    from . import __version__

    links = anchors_for(result.cards)
    svg = caption = error = None
    targets: dict[str, str] = {}
    if diagram:
        svg, caption, targets, error = _diagram(result, links, timeout, max_nodes, max_edges)
    return ScreenExtras(
        diagram_svg=svg, diagram_caption=caption, diagram_error=error, diagram_targets=targets, context=context_tables(result),
        notes=DOMAIN.notes, grading=grading, upload=upload,
        upload_limit_bytes=upload_limit_bytes, banner=banner, heading="storygraph 보고서 — " + DOMAIN.title,
        tool=f"storygraph {__version__}",
    )


def report_html(result: LintResult, **options) -> str:
    """The report screen of a lint as one self-contained HTML document (options: see
    :func:`screen_extras`)."""
    return render_html(result, DOMAIN, screen_extras(result, **options))


def empty_html(*, upload_limit_bytes: int | None = None, banner: str | None = None) -> str:
    """The served page before anything was uploaded: the upload form, the sample button
    and the always-visible panels (empty checks and grading, the notes)."""
    from . import __version__

    return render_html(None, DOMAIN, ScreenExtras(
        notes=DOMAIN.notes, upload=True, upload_limit_bytes=upload_limit_bytes, banner=banner,
        heading="storygraph 보고서 — " + DOMAIN.title, tool=f"storygraph {__version__}",
    ))


def sample_path() -> Path:
    """The bundled sample scenario (``examples/lighthouse``): packaged with the wheel as
    ``storygraph/sample/scenario.csv``, else found beside the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "sample" / "scenario.csv", here.parents[1] / "examples" / "lighthouse" / "scenario.csv"):
        if candidate.is_file():
            return candidate
    raise VerdictsError("샘플 시나리오(examples/lighthouse/scenario.csv)를 찾지 못했습니다.")


def _judged_page(path: Path, names: dict[str, str], *, limit: int, timeout: float) -> str:
    """The served screen of an upload (run in the server's worker process)."""
    from verdicts.serve import relabel_files

    from .domain import lint

    return report_html(relabel_files(lint(path), names), upload=True, upload_limit_bytes=limit, timeout=timeout)


def _sample_page(*, limit: int, timeout: float) -> str:
    """The served screen of the bundled sample (run in the server's worker process)."""
    path = sample_path()
    return _judged_page(path, {str(path): "샘플: examples/lighthouse/scenario.csv"}, limit=limit, timeout=timeout)


def _empty_page(banner: str | None, *, limit: int) -> str:
    return empty_html(upload_limit_bytes=limit, banner=banner)


def server_pages(*, max_bytes: int | None = None, timeout: float = DOT_TIMEOUT):
    """The pages :func:`verdicts.serve.create_app` serves for storygraph (the page
    makers are picklable: they run in the server's worker processes)."""
    from functools import partial

    from verdicts.serve import MAX_UPLOAD_BYTES, ServerPages

    limit = max_bytes or MAX_UPLOAD_BYTES
    return ServerPages(judge=partial(_judged_page, limit=limit, timeout=timeout),
                       sample=partial(_sample_page, limit=limit, timeout=timeout),
                       empty=partial(_empty_page, limit=limit), max_bytes=limit, temp_prefix="storygraph-upload-",
                       preload=("storygraph.screen", "storygraph.domain", "storygraph.cli"))
