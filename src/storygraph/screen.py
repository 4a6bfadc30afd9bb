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

import shlex
from typing import TYPE_CHECKING

from verdicts.korean import code, josa
from verdicts.model import WITHHELD
from verdicts.screen import ContextTable, GradingPanel, ScreenExtras, anchors_for, group_sections, ordered_groups, render_html

from .diagram import DOT_TIMEOUT, MAX_EDGES, MAX_NODES, DiagramError, diagram_model, problem_neighbourhoods, render_svg
from verdicts.version import tool_version

from .model import Branch

if TYPE_CHECKING:
    from .domain import LintResult

__all__ = ["context_tables", "screen_extras", "report_html", "empty_html", "problem_keys", "WHOLE_SCENES", "SHOWN_SCENES"]

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


#: the screen draws the whole scenario up to this many scenes (and three branches a
#: scene); past it, the neighbourhoods of the problems listed first
WHOLE_SCENES = 150
#: the most scenes the picture of a larger scenario holds (readable at the page's width)
SHOWN_SCENES = 40


def problem_keys(result: LintResult, domain) -> list[str]:
    """The keys of the problem cards in the order the screen lists them
    (:func:`verdicts.screen.ordered_groups`, rows by :func:`verdicts.screen.group_sections`),
    taken in turn from each problem group: the first of each, then the second …, so a
    picture made from the first few shows every kind of problem."""
    roots = domain.root_causes(result)
    passing = domain.passing_verdicts
    lists = [[c.key for _, _, cs in group_sections(v, cards, domain, roots) for c in cs]
             for _, v, cards in ordered_groups(result, domain) if v not in passing and v != WITHHELD and cards]
    out: list[str] = []
    for i in range(max(map(len, lists), default=0)):
        out.extend(keys[i] for keys in lists if i < len(keys))
    return out


def _diagram(result: LintResult, domain, links: dict[str, str], timeout: float, max_nodes: int = MAX_NODES,
             max_edges: int = MAX_EDGES) -> tuple[str | None, str | None, dict[str, str], str | None]:
    """(svg, caption, targets, error): the whole scenario up to :data:`WHOLE_SCENES`
    scenes, else the neighbourhoods of the problems listed first, at most
    :data:`SHOWN_SCENES` scenes (:func:`problem_neighbourhoods`; the start scenes' when
    there is no problem), with a caption saying what is drawn and how to draw more;
    a message instead when nothing fits or ``dot`` fails.  ``targets`` maps a card key
    to its node's or edge's element id in the SVG."""
    whole = diagram_model(result)
    caption: str | None = None
    if len(whole.nodes) <= min(max_nodes, WHOLE_SCENES) and len(whole.edges) <= min(max_edges, 3 * WHOLE_SCENES):
        model = whole
    else:
        part = problems_model(result, domain, whole, min(max_nodes, SHOWN_SCENES))
        if part is None:
            return None, None, {}, (f"장면 {whole.total_nodes - whole.total_ghosts:,}개, 분기 {whole.total_edges:,}개로 화면에 그리기에 너무 큽니다. "
                                    "`storygraph render 경로 --focus 장면ID --hops N`으로 한 장면 둘레를 그려 보세요.")
        model, what = part
        caption = model.note + " " + _more_words(result, whole, what)
    try:
        svg = render_svg(model, timeout=timeout, links=links, max_nodes=max_nodes, max_edges=max_edges)
    except DiagramError as exc:
        return None, None, {}, str(exc)
    targets = {n.key: f"node-{n.name}" for n in model.nodes if n.role != "ghost"}
    targets.update({e.branch_id: f"edge-{e.name}" for e in model.edges})
    return svg, caption or model.caption(), targets, None


def problems_model(result: LintResult, domain, whole, max_nodes: int):
    """The picture of a scenario too large to draw whole: the neighbourhoods of the
    problems listed first (the start scenes' when there is none), at most ``max_nodes``
    scenes, with its note saying what is drawn; and what it is drawn around (``문제`` or
    ``시작 장면``).  ``None`` when not even one neighbourhood fits.  The report screen and
    ``storygraph render --focus findings`` past its limits draw this."""
    keys = problem_keys(result, domain)
    what = "문제"
    if not keys:
        keys, what = [n.key for n in whole.nodes if n.role == "entry"], "시작 장면"
    model, used = problem_neighbourhoods(whole, keys, max_nodes=max_nodes)
    if not model.nodes:
        return None
    kept = sum(1 for n in model.nodes if n.role != "ghost")
    branches = (f"분기 {whole.total_edges:,}개 가운데 {_count(len(model.edges), '개')}입니다" if model.edges
                else "그 사이에 분기는 없습니다")
    model.note = (f"{what} {_count(used, '건')}의 둘레 1걸음만 그렸습니다: 전체 장면 {whole.total_nodes - whole.total_ghosts:,}개 가운데 "
                  f"{_count(kept, '개')}{'이고' if not model.edges else ','} {branches}.")
    return model, what


def _count(n: int, unit: str) -> str:
    """A count as a sentence says it: one in words (``하나``, ``한 건``), else digits.

    >>> _count(1, "개"), _count(1, "건"), _count(1200, "개")
    ('하나', '한 건', '1,200개')
    """
    if n == 1:
        return "하나" if unit == "개" else f"한 {unit}"
    return f"{n:,}{unit}"


def _more_words(result: LintResult, whole, what: str) -> str:
    """How to draw what the screen left out: every problem's neighbourhood (with the
    ``--max-nodes`` it needs), or the whole scenario."""
    files = sorted({s.file for s in result.sources})
    path = shlex.quote(files[0]) if len(files) == 1 else "경로"
    render = f"storygraph render {path}"
    big = whole.total_nodes > MAX_NODES or whole.total_edges > MAX_EDGES
    whole_cmd = code(f"{render}" + (f" --max-nodes {whole.total_nodes} --max-edges {whole.total_edges}" if big else "") + " -o 전체.svg")
    whole_words = (f"시나리오 전체는 {josa(whole_cmd, '으로/로')} 그릴 수 있지만 장면이 많아 오래 걸립니다." if big
                   else f"시나리오 전체는 {josa(whole_cmd, '으로/로')} 그릴 수 있습니다.")
    if what != "문제":
        return whole_words
    around = diagram_model(result, focus="findings")
    limit = (f" --max-nodes {len(around.nodes)}" if len(around.nodes) > MAX_NODES else "") \
        + (f" --max-edges {len(around.edges)}" if len(around.edges) > MAX_EDGES else "")
    focus_cmd = code(f"{render} --focus findings{limit} -o 문제.svg")
    return (f"문제마다 둘레를 모두 보려면 {josa(focus_cmd, '으로/로')}, 장면 하나 둘레는 {code('--focus 장면ID')}로 그리세요. "
            + whole_words)


def screen_extras(result: LintResult, domain, *, diagram: bool = True, grading: GradingPanel | None = None, upload: bool = False,
                  upload_limit_bytes: int | None = None, banner: str | None = None, timeout: float = DOT_TIMEOUT,
                  max_nodes: int = MAX_NODES, max_edges: int = MAX_EDGES, live: str | None = None, sample: bool = False) -> ScreenExtras:
    """Everything storygraph adds to the shared screen for ``result``.

    The diagram is the whole scenario up to :data:`WHOLE_SCENES` scenes, else the
    neighbourhoods of the first problems listed (:func:`_diagram`), else a message.
    """
    links = anchors_for(result.cards)
    svg = caption = error = None
    targets: dict[str, str] = {}
    if diagram:
        svg, caption, targets, error = _diagram(result, domain, links, timeout, max_nodes, max_edges)
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
