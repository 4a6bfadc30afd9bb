"""The report screen: one self-contained HTML page for any verdict domain.

:func:`render_html` takes a domain, its finished :class:`~verdicts.domain.Report` and
optional :class:`ScreenExtras` (a diagram, per-card context tables, verification notes,
a grading run's output, an upload form) and returns one HTML document with its CSS and
script inline: no network, system fonts only.  The panels (see ``docs/screen.md``):

* the verdict groups, in the domain's order, each with its count (and subgroups when the
  domain sets ``subgroup_field``); one row per card — verdict label · key + summary — that
  expands to the hedge, the card's own fields, its evidence (``source`` / ``field`` /
  ``agg`` / ``value``) and its context table;
* the input issues (file, line, column, reason) — the groups stay when there are issues;
* the diagram, when the domain supplies one;
* always visible: the automatic checks with pass/fail, the verification notes in three
  parts (자동 / 수동 / 정직 경계선) and the self-grading panel, which stays empty unless a
  grading run's JSON output (the shape in :mod:`verdicts.grading`) is given.

Every user-supplied string goes through :func:`html.escape`; the only markup not made
here is the diagram SVG, which comes from Graphviz (which escapes its text) and is
stripped of anything but the ``<svg>`` element.  A Content-Security-Policy lets only this
page's own script (by hash) run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from html import escape as html_escape
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .errors import InputError
from .grading import sha256_of
from .model import WITHHELD, Card, Evidence, Report, aggregate_words, card_field_names, label_of
from .korean import code
from .palette import UNDONE_LOOK, UNDONE_MARK, UNJUDGED, WITHHELD_MARK, verdict_colours, verdict_marks
from .safe_text import clean
from .report import first_view_groups

if TYPE_CHECKING:
    from .domain import Domain


__all__ = ["ContextTable", "CardFigure", "CardListPanel", "ScreenExtras", "GradingPanel", "render_html", "load_grading", "FONT_STACK", "NOTE_PARTS",
           "csp_hash"]

#: the Korean font stack (fonts-nanum is installed by scripts/setup.sh)
FONT_STACK = '"NanumGothic", "Nanum Gothic", "NanumBarunGothic", "Noto Sans CJK KR", "Noto Sans KR", ' \
             '"Apple SD Gothic Neo", "Malgun Gothic", sans-serif'
#: the three parts of the verification notes, in screen order
NOTE_PARTS = ("자동", "수동", "정직 경계선")
#: what each part means, shown under its heading
NOTE_HINTS = {
    "자동": "위 자동 검증이 매번 다시 계산해 확인하는 것",
    "수동": "사람이 직접 봐야 하는 것",
    "정직 경계선": "이 도구가 알 수 없는 것",
}
#: fields of a card shown elsewhere on its row (not in the field list)
_SHOWN = {"verdict", "summary", "hedge", "evidence", "accepted"}
#: keys a grading run's JSON output must have (see verdicts.grading)
GRADING_KEYS = ("agreement", "per_verdict", "confusion", "disagreements", "provenance")


@dataclass
class ContextTable:
    """A small table shown under a card's evidence (storygraph: the branches of the scene
    concerned, in order).  ``highlight`` are row indexes to mark, ``marks`` a short
    note per marked row."""

    caption: str
    columns: list[str]
    rows: list[list[Any]]
    highlight: dict[int, str] = field(default_factory=dict)
    empty: str = "보여 줄 줄이 없습니다."


@dataclass
class CardListPanel:
    """A panel of its own that lists some of the cards again (mail: the actions sent on a
    low confidence), one row per card with a link that opens the card's row and the
    card fields named in ``columns``; ``empty`` is shown when ``keys`` is empty."""

    id: str
    title: str
    keys: list[str]
    columns: list[str]
    intro: str = ""
    empty: str = "해당하는 카드가 없습니다."


@dataclass
class CardFigure:
    """A picture for one card: an ``<svg>`` made by the domain (kept to the ``<svg>``
    element and stripped of scripts by :func:`clean_svg`), a caption, and a legend of
    ``(colour, meaning)`` pairs shown under it."""

    svg: str
    caption: str
    legend: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class GradingPanel:
    """A grading run's JSON output, as read by :func:`load_grading`, with where it was
    read from and whether its inputs are the ones on screen (``None``: unknown)."""

    data: dict[str, Any]
    path: str
    same_inputs: bool | None = None


@dataclass
class ScreenExtras:
    """What a domain may add to the screen beyond its report."""

    #: an ``<svg>`` document (from Graphviz) and a line saying what it shows
    diagram_svg: str | None = None
    diagram_caption: str | None = None
    #: shown in the diagram panel instead of a diagram (too big, dot missing …)
    diagram_error: str | None = None
    #: card key -> its context table
    context: dict[str, ContextTable] = field(default_factory=dict)
    #: "자동" / "수동" / "정직 경계선" -> sentences; defaults to ``domain.notes``
    notes: dict[str, list[str]] | None = None
    grading: GradingPanel | None = None
    #: the served page: an upload form and the sample button on top
    upload: bool = False
    upload_limit_bytes: int | None = None
    accept: str = ".csv,.xlsx,.json,.yaml,.yml"
    #: the upload panel's heading, the line under the form (what it takes; the size
    #: limit is added) and the text of the empty groups before anything was judged
    upload_title: str = "시나리오 올리기"
    upload_formats: str = "세 표를 합친 CSV 하나, CSV 여러 개(`scene_states.csv` · `story_branches.csv` · `flag_spec.csv`), .xlsx 통합 문서, JSON 또는 YAML"
    empty_groups: str = "아직 검사한 시나리오가 없습니다. 파일을 올리거나 “샘플 데이터로 보기”를 누르세요."
    #: a message shown above everything (an upload error)
    banner: str | None = None
    #: the stored round this screen shows (``verdicts show DOMAIN --html``): its number,
    #: when it was saved and from which input, tagged at the top of the summary line
    stored_round: str | None = None
    #: page heading; defaults to the domain's title
    heading: str | None = None
    #: tool name and version for the footer
    tool: str | None = None
    #: card key -> id of its element in the diagram SVG (a "그림에서 보기" button on the row)
    diagram_targets: dict[str, str] = field(default_factory=dict)
    #: panels of their own listing some cards again, shown under the verdict groups
    panels: list[CardListPanel] = field(default_factory=list)
    #: card key -> a figure shown in the card's body above its evidence (residue: the
    #: component's picture with the texts read off it boxed and coloured by source)
    figures: dict[str, "CardFigure"] = field(default_factory=dict)
    #: the screen of the bundled sample (labelled as such)
    sample: bool = False
    #: a served page that follows its file: the server-sent-events path it listens on
    #: (the page then fetches itself again and updates in place, keeping what was open)
    live: str | None = None


# ---------------------------------------------------------------------------- helpers


def csp_hash(text: str) -> str:
    """The Content-Security-Policy source that lets exactly this inline script or style
    run (``'sha256-…'`` of its UTF-8 text).

    >>> csp_hash("")
    "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
    """
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii") + "'"


def escape(text: Any, quote: bool = True) -> str:
    """:func:`html.escape` of text that may come from the inputs: control and direction
    characters shown as visible escapes (:func:`verdicts.safe_text.clean`), line breaks
    kept, so the page is well-formed whatever a title holds."""
    text = text if isinstance(text, str) else str(text)
    if not text.isprintable():
        text = "\n".join(clean(line) for line in text.split("\n"))
    return html_escape(text, quote)


def _e(value: Any) -> str:
    """Escape any value as HTML text (``None`` shows as an em dash); control and
    direction characters from the inputs are shown as visible escapes
    (:func:`verdicts.safe_text.clean`), line breaks kept."""
    if value is None:
        return '<span class="none">—</span>'
    if isinstance(value, bool):
        return "참" if value else "거짓"
    if isinstance(value, (list, tuple)):
        text = ", ".join(str(v) for v in value)
    elif isinstance(value, dict):
        text = json.dumps(value, ensure_ascii=False)
    else:
        text = str(value)
    return escape(text)


def _asset(name: str) -> str:
    return resources.files("verdicts").joinpath("screen_assets", name).read_text(encoding="utf-8")


def card_anchor(index: int) -> str:
    """The element id of the ``index``-th card's row (ids never contain user text)."""
    return f"card-{index}"


def anchors_for(cards: Sequence[Card]) -> dict[str, str]:
    """Card key -> ``#card-N`` (for links from a diagram)."""
    return {c.key: "#" + card_anchor(i) for i, c in enumerate(cards)}


_SVG_START = re.compile(r"<svg\b", re.I)


def clean_svg(svg: str) -> str:
    """Keep only the ``<svg>…</svg>`` element of an SVG document (no XML declaration,
    doctype or comments), with any ``<script>`` or ``on…=`` handler removed as a second
    line of defence (Graphviz never writes them)."""
    m = _SVG_START.search(svg)
    if not m:
        return ""
    body = svg[m.start():]
    end = body.rfind("</svg>")
    body = body[: end + len("</svg>")] if end >= 0 else body
    body = re.sub(r"<!--.*?-->", "", body, flags=re.S)
    body = re.sub(r"<script\b.*?</script\s*>", "", body, flags=re.S | re.I)
    body = re.sub(r"\son[a-z]+\s*=\s*(\"[^\"]*\"|'[^']*')", "", body, flags=re.I)
    return body


# ---------------------------------------------------------------------------- grading


def load_grading(path: str | Path, domain: Domain, *, inputs: Iterable[str | Path] = ()) -> GradingPanel:
    """Read a grading run's JSON output for the self-grading panel.

    Raises :class:`~verdicts.errors.InputError` when the file is not such an output (a
    key is missing, it has no provenance, or it graded another domain): the panel is
    filled only from real runs.  ``same_inputs`` compares the SHA-256 of ``inputs`` with
    the ones the run recorded.
    """
    from .documents import parse_json
    from .files import read_file
    from .tables import MAX_JSON_BYTES

    path = Path(path)
    try:
        doc = parse_json(read_file(path, MAX_JSON_BYTES, "채점 결과").decode("utf-8-sig"), str(path))
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: 채점 결과 JSON을 읽지 못했습니다 ({exc}).") from None
    except InputError as exc:  # not JSON: the parser's place and reason
        raise InputError(str(exc).replace("JSON으로 읽을 수 없습니다", "채점 결과 JSON을 읽지 못했습니다")) from None
    if doc.repeats:  # a grading run's output never repeats a key: this file was edited
        r = doc.repeats[0]
        raise InputError(f"{path}:{r.line}:{r.column}: 채점 결과 JSON에 {code('.'.join(map(str, (*r.path, r.key))))} 키가 두 번 있어 "
                         f"어느 값이 채점 결과인지 알 수 없습니다({r.first_line}번째 줄에 처음 있습니다).")
    data = doc.data
    if not isinstance(data, dict):
        raise InputError(f"{path}: 채점 결과는 JSON 객체여야 합니다.")
    missing = [k for k in GRADING_KEYS if k not in data]
    if missing:
        raise InputError(f"{path}: 채점기 출력이 아닙니다. {', '.join(code(k) for k in missing)} 키가 없습니다.")
    prov = data["provenance"]
    if not isinstance(prov, dict) or not all(k in prov for k in ("tool", "time", "gold")):
        raise InputError(f"{path}: 채점 결과의 `provenance`에 `tool`, `time`, `gold` 키가 있어야 합니다.")
    if prov.get("domain") not in (None, domain.name):
        raise InputError(f"{path}: 이 채점 결과는 {code(prov.get('domain'))} 도메인의 것이라 {domain.name} 화면에 쓸 수 없습니다.")
    same: bool | None = None
    recorded = sorted(i["sha256"] for i in prov.get("inputs", []) if isinstance(i, dict) and i.get("sha256"))
    current = []
    for p in inputs:
        try:
            current.append(sha256_of(p))
        except OSError:
            current = []
            break
    if recorded and current:
        same = sorted(current) == recorded
    return GradingPanel(data=data, path=str(path), same_inputs=same)


# ---------------------------------------------------------------------------- panels


def _evidence_table(items: Sequence[Evidence]) -> str:
    if not items:
        return '<p class="muted">근거 항목이 없습니다.</p>'
    has_source = any(i.source is not None for i in items)
    has_quote = any(i.quote is not None for i in items)
    cols = (["source"] if has_source else []) + ["field", "agg", "value"] + (["quote"] if has_quote else [])
    head = "".join(f"<th>{c}</th>" for c in cols)
    rows = []
    for item in items:
        cells = []
        for c in cols:
            v = getattr(item, c)
            cls = ' class="mono"' if c in ("field", "value", "source") else ""
            cells.append(f"<td{cls}>{_e(v) if v is not None or c == 'value' else ''}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<table class="evidence"><caption>근거 (evidence)</caption><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def _context_table(ctx: ContextTable | None) -> str:
    if ctx is None:
        return ""
    if not ctx.rows:
        return f'<div class="context"><p class="caption">{escape(ctx.caption)}</p><p class="muted">{escape(ctx.empty)}</p></div>'
    head = "".join(f"<th>{escape(c)}</th>" for c in ctx.columns)
    rows = []
    for i, row in enumerate(ctx.rows):
        mark = ctx.highlight.get(i)
        cls = ' class="hl"' if mark is not None else ""
        cells = "".join(f"<td>{_e(v)}</td>" for v in row)
        note = f'<td class="mark">{escape(mark or "")}</td>' if ctx.highlight else ""
        rows.append(f"<tr{cls}>{cells}{note}</tr>")
    extra = "<th></th>" if ctx.highlight else ""
    return (f'<table class="context"><caption>{escape(ctx.caption)}</caption><thead><tr>{head}{extra}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _figure(figure: CardFigure | None) -> str:
    if figure is None:
        return ""
    legend = "".join(f'<li><span class="swatch" style="border-color:{escape(colour)}"></span>{escape(meaning)}</li>'
                     for colour, meaning in figure.legend)
    return (f'<figure class="card-figure">{clean_svg(figure.svg)}<figcaption>{escape(figure.caption)}'
            + (f'<ul class="legend">{legend}</ul>' if legend else "") + "</figcaption></figure>")


def _card_fields(card: Card) -> str:
    items = []
    # the evidence items are the table below; an ``evidence`` that is not them (residue's
    # one line in the seed's form) is a field like the others
    items_field = getattr(card, "evidence_field", "evidence")
    hidden = (_SHOWN - {"evidence"}) | {items_field}
    for name in card_field_names(card):
        if name in hidden:
            continue
        value = card.data.get(name) if name == "evidence" else getattr(card, name)
        items.append(f"<dt>{escape(name)}</dt><dd>{_e(value)}</dd>")
    return f'<dl class="fields">{"".join(items)}</dl>' if items else ""


def _fix_line(fix: dict[str, Any] | None) -> str:
    """The ``고치는 법`` of a card, finding or issue (nothing when it has none)."""
    if not fix or not fix.get("text"):
        return ""
    return f'<p class="fix"><b>고치는 법</b> {escape(fix["text"])}</p>'


_MARKS: dict[str, tuple[str, str]] = {}


def _badge(verdict: str, colours: dict[str, tuple[str, str]], look: str | None = None) -> str:
    """A verdict's badge: its colours, and its own mark and border style (never colour
    alone); ``look`` names another group whose colours and mark it wears (a passing
    verdict no real use bears out wears those of the domain's undone group)."""
    fill, stroke = colours.get(look or verdict, UNJUDGED)
    mark, border = _MARKS.get(look or verdict, ("?", "solid"))
    return (f'<span class="badge" style="background:{fill};color:{stroke};border-color:{stroke};border-style:{border}">'
            f'<span class="mark" aria-hidden="true">{mark}</span> {escape(verdict)}</span>')


def _card_row(card: Card, index: int, colours: dict[str, tuple[str, str]], extras: ScreenExtras, undone: bool = False,
              look: str | None = None) -> str:
    label = label_of(card)
    fill, stroke = colours.get(label, UNJUDGED)
    accepted = getattr(card, "accepted", None)
    acc = f'<span class="accepted">의도됨: {escape(accepted)}</span>' if accepted else ""
    # a hedge is read without opening the row; on a passing card it may undo the verdict
    warn = '<b class="undone">⚠ 판정에 단서가 붙었습니다</b> ' if undone else ""
    inline = f'<span class="hedge-inline">{warn}↳ {escape(card.hedge)}</span>' if getattr(card, "hedge", None) else ""
    fix = _fix_line(card.data.get("fix") if hasattr(card, "data") else None)
    target = extras.diagram_targets.get(card.key) if extras.diagram_svg else None
    locate = (f'<button type="button" class="locate" data-action="locate" data-target="{escape(target)}">그림에서 보기</button>'
              if target else "")
    return (
        f'<li><details class="card{" is-accepted" if accepted else ""}" id="{card_anchor(index)}" data-key="{escape(card.key)}" data-verdict="{escape(label)}"{" data-undone" if undone else ""}>'
        f'<summary>{_badge(label, colours, look)}'
        f' <span class="sep">·</span> <code class="key">{escape(card.key)}</code> <span class="summary">{escape(card.summary)}</span>{acc}{inline}</summary>'
        f'<div class="card-body">{fix}{locate}{_card_fields(card)}{_figure(extras.figures.get(card.key))}'
        f'{_evidence_table(card.evidence)}{_context_table(extras.context.get(card.key))}</div></details></li>'
    )


def _groups(report: Report, domain: Domain, colours: dict[str, tuple[str, str]], extras: ScreenExtras) -> str:
    """The verdict groups: the problems first, their rows in view; then the passing
    verdicts, their rows folded — except a passing card whose hedge undoes it, which is
    shown, marked, above the fold."""
    index = {id(c): i for i, c in enumerate(report.cards)}
    groups = list(enumerate(first_view_groups(report.cards, domain).items()))
    passing = domain.passing_verdicts
    problems = [g for g in groups if g[1][0] not in passing and g[1][0] != WITHHELD]
    held = [g for g in groups if g[1][0] == WITHHELD]
    ordered = problems + held + [g for g in groups if g[1][0] in passing]
    out = []
    for gi, (verdict, cards) in ordered:
        fill, stroke = colours.get(verdict, UNJUDGED)
        sub_field = domain.subgroup_field.get(verdict)
        is_passing = verdict in passing
        undone = [c for c in cards if is_passing and getattr(c, "hedge", None)] if is_passing else []
        rest = [c for c in cards if c not in undone] if undone else cards
        if not cards:
            body = '<p class="muted empty">이 판정을 받은 대상이 없습니다.</p>'
        elif sub_field:
            parts: dict[Any, list[Card]] = {}
            for c in rest:
                parts.setdefault(getattr(c, sub_field, None), []).append(c)
            body = "".join(
                f'<section class="subgroup" data-subgroup="{escape(str(sub))}"><h3><code>{escape(sub_field)}</code> = '
                f'{_e(sub)} <span class="count">({len(cs)})</span></h3><ul class="rows">'
                + "".join(_card_row(c, index[id(c)], colours, extras) for c in cs) + "</ul></section>"
                for sub, cs in parts.items()
            )
        elif verdict == domain.undone_group and verdict not in domain.verdicts:
            body = (f'<p class="group-head">{escape(domain.undone_head)}</p><ul class="rows">'
                    + "".join(_card_row(c, index[id(c)], colours, extras, look=verdict) for c in rest) + "</ul>")
        else:
            body = '<ul class="rows">' + "".join(_card_row(c, index[id(c)], colours, extras) for c in rest) + "</ul>"
        if is_passing and cards:
            shown = ('<ul class="rows undone-rows">' + "".join(_card_row(c, index[id(c)], colours, extras, undone=True) for c in undone)
                     + "</ul>") if undone else ""
            body = (shown + f'<details class="fold"><summary>나머지 {len(rest):,}건 펼치기</summary>{body}</details>') if rest else shown
        state = "passing" if is_passing else "withheld" if verdict == WITHHELD else "problem"
        out.append(
            f'<section class="group" id="group-{gi}" data-verdict="{escape(verdict)}" data-state="{state}" style="border-left-color:{stroke}">'
            f'<h2>{_badge(verdict, colours)} <span class="count" data-count="{len(cards)}">{len(cards):,}건</span></h2>{body}</section>'
        )
    return "".join(out)


def _card_list_panels(report: Report, extras: ScreenExtras) -> str:
    anchors = anchors_for(report.cards)
    by_key = {c.key: c for c in report.cards}
    out = []
    for panel in extras.panels:
        keys = [k for k in panel.keys if k in by_key]
        intro = f'<p class="muted">{escape(panel.intro)}</p>' if panel.intro else ""
        if not keys:
            body = f'<p class="muted empty">{escape(panel.empty)}</p>'
        else:
            head = "".join(f"<th>{escape(c)}</th>" for c in ["key", *panel.columns])
            rows = "".join(
                f'<tr data-key="{escape(k)}"><td><a class="mono" href="{anchors[k]}">{escape(k)}</a></td>'
                + "".join(f"<td>{_e(getattr(by_key[k], c, None))}</td>" for c in panel.columns) + "</tr>"
                for k in keys)
            body = f'<div class="scroll"><table class="card-list"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table></div>'
        out.append(f'<section class="panel" id="{escape(panel.id)}"><h2>{escape(panel.title)} '
                   f'<span class="count" data-count="{len(keys)}">{len(keys)}건</span></h2>{intro}{body}</section>')
    return "".join(out)


def _summary_chips(report: Report, domain: Domain, colours: dict[str, tuple[str, str]]) -> str:
    chips = []
    for gi, (verdict, cards) in enumerate(first_view_groups(report.cards, domain).items()):
        fill, stroke = colours.get(verdict, UNJUDGED)
        mark, border = _MARKS.get(verdict, ("?", "solid"))
        chips.append(f'<a class="chip" href="#group-{gi}" style="background:{fill};color:{stroke};border-color:{stroke};border-style:{border}">'
                     f'<span class="mark" aria-hidden="true">{mark}</span> {escape(verdict)} <b>{len(cards):,}</b></a>')
    n = len(report.issues)
    chips.append(f'<a class="chip issues-chip{" has" if n else ""}" href="#issues">입력 문제 <b>{n}</b></a>')
    return '<nav class="chips">' + "".join(chips) + "</nav>"


def _strip(report: Report, domain: Domain, extras: ScreenExtras) -> str:
    """One line on top: the file, then how many problems, input issues and findings,
    then what passed."""
    groups = first_view_groups(report.cards, domain)
    problems = sum(len(c) for v, c in groups.items() if v not in domain.passing_verdicts and v != WITHHELD)
    files = sorted({s.file for s in report.sources})
    name = ", ".join(files) if len(files) <= 2 else f"{files[0]} 외 {len(files) - 1}개"
    undone = len(groups.get(domain.undone_group, ())) if domain.undone_group not in domain.verdicts else 0
    among = f"({escape(domain.undone_group)} {undone:,}건 포함)" if undone else ""
    parts = [f'<b class="n-problems">문제 {problems:,}건{among}</b>', f'<a href="#issues">입력 문제 {len(report.issues):,}건</a>',
             f'<a href="#findings">린트 발견 {len(report.findings):,}건</a>']
    if groups.get(WITHHELD):
        parts.append(f'<a href="#group-{list(groups).index(WITHHELD)}">{WITHHELD} {len(groups[WITHHELD]):,}건</a>')
    parts += [f"{escape(v)} {len(c):,}건" for v, c in groups.items() if v in domain.passing_verdicts]
    if "aggregate" in report.extra:
        parts.append(f'<span class="aggregate">{escape(aggregate_words(report.extra["aggregate"]))}</span>')
    sample = '<span class="sample-tag">샘플 데이터</span> ' if extras.sample else ""
    if extras.stored_round:
        sample += f'<span class="sample-tag round-tag" id="stored-round">{escape(extras.stored_round)}</span> '
    return (f'<p class="strip" id="summary-strip">{sample}<span class="file">{escape(name)}</span>'
            f'<span class="counts"> · ' + " · ".join(parts) + "</span></p>")


def _issues(report: Report) -> str:
    if not report.issues:
        return ('<section class="panel" id="issues"><h2>입력 문제 <span class="count">0건</span></h2>'
                '<p class="muted">입력에서 문제를 찾지 못했습니다.</p></section>')
    rows = []
    for i in report.issues:
        col = i.column or ""
        if i.position is not None:
            col += f" (글자 {i.position})"
        rows.append(f'<tr><td class="mono" data-label="file">{_e(i.file)}</td><td data-label="table">{_e(i.table)}</td>'
                    f'<td class="num" data-label="line">{_e(i.line)}</td>'
                    f'<td class="mono" data-label="column">{escape(col) if col else _e(None)}</td>'
                    f'<td data-label="reason"><pre class="reason">{escape(i.reason)}</pre>'
                    f'{_fix_line(getattr(i, "fix", None))}</td></tr>')
    return (f'<section class="panel" id="issues"><h2>입력 문제 <span class="count">{len(report.issues)}건</span></h2>'
            '<p class="muted">아래 줄에 기대는 판정만 빠졌고, 나머지 판정 묶음은 그대로 보입니다.</p>'
            '<div class="scroll"><table class="issues reflow"><thead><tr><th>file</th><th>table</th><th>line</th><th>column</th><th>reason</th></tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table></div></section>')


_ACCEPTED_CLASS = ' class="is-accepted"'


def _findings(report: Report) -> str:
    if not report.findings:
        return ""
    rows = []
    for f in report.findings:
        accepted = getattr(f, "accepted", None)
        mark = f'<span class="accepted">의도됨: {escape(accepted)}</span>' if accepted else ""
        rows.append(f'<tr{_ACCEPTED_CLASS if accepted else ""}><td class="mono" data-label="code">{escape(f.code)}</td>'
                    f'<td class="mono" data-label="target">{escape(f.target)}</td><td data-label="message">{escape(f.message)}{mark}{_fix_line(getattr(f, "fix", None))}</td></tr>')
    body = "".join(rows)
    return (f'<section class="panel" id="findings"><h2>린트 발견 <span class="count">{len(report.findings)}건</span></h2>'
            f'<table class="findings reflow"><thead><tr><th>code</th><th>target</th><th>message</th></tr></thead><tbody>{body}</tbody></table></section>')


def _checks(report: Report, judged: bool = True) -> str:
    if report.checks and not judged:
        return ('<section class="panel always" id="checks"><h2>자동 검증 <span class="count none">검증할 것 없음</span></h2>'
                '<p class="muted nothing-judged">판정한 대상이 없어 자동 검증은 볼 것이 없습니다. 입력 문제를 먼저 확인하세요.</p></section>')
    passed = sum(1 for c in report.checks if c.passed)
    rows = []
    for c in report.checks:
        status = '<span class="pass">통과</span>' if c.passed else '<span class="fail">실패</span>'
        failed = (f'<div class="failed">실패한 카드: <code>{escape(", ".join(c.failed_targets))}</code></div>'
                  if c.failed_targets else "")
        note = f'<div class="muted">{escape(c.note)}</div>' if c.note else ""
        rows.append(f'<tr data-check="{escape(c.id)}" data-passed="{str(c.passed).lower()}"><td class="mono">{escape(c.id)}</td>'
                    f'<td>{status}</td><td>{escape(c.description)}{failed}{note}</td></tr>')
    body = (f'<table class="checks"><tbody>{"".join(rows)}</tbody></table>' if rows
            else '<p class="muted">이 보고서에는 자동 검증 결과가 없습니다.</p>')
    state = "none" if not report.checks else "all-pass" if passed == len(report.checks) else "some-fail"
    return (f'<section class="panel always" id="checks"><h2>자동 검증 <span class="count {state}">{passed}/{len(report.checks)} 통과</span></h2>'
            f'{body}</section>')


def _notes(notes: dict[str, list[str]] | None) -> str:
    parts = []
    for part in NOTE_PARTS:
        sentences = (notes or {}).get(part) or []
        items = "".join(f"<li>{escape(s)}</li>" for s in sentences) or '<li class="muted">적힌 내용이 없습니다.</li>'
        parts.append(f'<div class="note-part" data-part="{escape(part)}"><h3>{escape(part)} <small>{escape(NOTE_HINTS[part])}</small></h3>'
                     f"<ul>{items}</ul></div>")
    return f'<section class="panel always" id="notes"><h2>검증 노트</h2>{"".join(parts)}</section>'


def _pct(rate: Any) -> str:
    return "—" if rate is None else f"{float(rate) * 100:.1f}%"


def _grading(panel: GradingPanel | None, domain: Domain) -> str:
    head = '<section class="panel always" id="grading"><h2>자가채점</h2>'
    if panel is None:
        return (head + '<p class="empty-grading" data-state="empty">예측 화면입니다. 이 칸은 사람이 만든 정답 파일로 채점기를 돌린 '
                '결과(JSON)로만 채웁니다: 지금은 그런 결과가 없어 비워 둡니다.</p>'
                '<p class="muted">채우는 법: 채점기 출력 JSON을 <code>--grading 파일</code>로 넘겨 보고서를 다시 만듭니다.</p></section>')
    d = panel.data
    a = d.get("agreement", {})
    prov = d.get("provenance", {})
    verdicts = list(d.get("per_verdict", {})) or list(domain.verdicts)
    per_rows = "".join(
        f"<tr><td>{escape(v)}</td><td class='num'>{_e(s.get('agreed'))}/{_e(s.get('gold'))}</td><td class='num'>{_pct(s.get('rate'))}</td></tr>"
        for v, s in d.get("per_verdict", {}).items())
    conf = d.get("confusion", {})
    conf_head = "".join(f"<th>{escape(v)}</th>" for v in verdicts)
    conf_rows = "".join(
        f"<tr><th>{escape(g)}</th>" + "".join(
            f"<td class='num{' diag' if g == v else ''}'>{int(conf.get(g, {}).get(v, 0))}</td>" for v in verdicts) + "</tr>"
        for g in verdicts)
    dis = d.get("disagreements", [])
    dis_rows = "".join(
        f"<li><code>{_e(x.get('key'))}</code> 정답 <b>{_e(x.get('gold'))}</b> / 자동 <b>{_e(x.get('automatic'))}</b>"
        f" <span class='muted'>[{_e(x.get('kind'))}]</span>" + (f"<div class='muted'>메모: {_e(x.get('note'))}</div>" if x.get("note") else "")
        + "</li>" for x in dis) or "<li class='muted'>어긋난 자리가 없습니다.</li>"
    inputs = "".join(f"<li><code>{_e(i.get('path'))}</code> <span class='muted'>sha256 {_e(str(i.get('sha256', ''))[:12])}…</span></li>"
                     for i in prov.get("inputs", []) if isinstance(i, dict))
    gold = prov.get("gold", {}) if isinstance(prov.get("gold"), dict) else {"path": prov.get("gold")}
    match = {True: '<p class="pass">채점한 입력이 지금 화면의 입력과 같습니다 (sha256 일치).</p>',
             False: '<p class="fail">주의: 채점한 입력이 지금 화면의 입력과 다릅니다 (sha256 불일치). 아래 수치는 다른 입력의 것입니다.</p>',
             None: '<p class="muted">채점한 입력과 지금 입력이 같은지는 확인하지 못했습니다.</p>'}[panel.same_inputs]
    return (head + f'<p class="agreement" data-state="filled">판정 일치 <b>{_e(a.get("agreed"))}/{_e(a.get("total"))}</b> ({_pct(a.get("rate"))})</p>'
            + match
            + f'<table class="per-verdict"><caption>판정별 일치</caption><tbody>{per_rows}</tbody></table>'
            + f'<div class="scroll"><table class="confusion"><caption>혼동표 (행 = 정답, 열 = 자동 판정)</caption>'
              f'<thead><tr><th></th>{conf_head}</tr></thead><tbody>{conf_rows}</tbody></table></div>'
            + f'<h3>어긋난 자리 ({len(dis)})</h3><ul class="disagreements">{dis_rows}</ul>'
            + '<h3>출처</h3><ul class="provenance">'
              f'<li>채점 결과 파일: <code>{escape(panel.path)}</code></li>'
              f'<li>도구: {_e(prov.get("tool"))} {_e(prov.get("version"))} · 시각 {_e(prov.get("time"))}</li>'
              f'<li>정답 파일: <code>{_e(gold.get("path"))}</code> <span class="muted">sha256 {_e(str(gold.get("sha256", ""))[:12])}…</span></li>'
              f'{inputs}</ul></section>')


def _sources(report: Report) -> str:
    if not report.sources:
        return ""
    rows = "".join(f'<tr><td class="mono">{escape(s.file)}</td><td>{escape(s.table)}</td><td>{escape(s.form)}</td>'
                   f'<td>{_e(s.encoding)}</td><td class="num">{s.rows}</td></tr>' for s in report.sources)
    return ('<section class="panel" id="inputs"><h2>읽은 입력</h2><div class="scroll"><table><thead><tr><th>file</th><th>table</th>'
            f'<th>형식</th><th>인코딩</th><th>행</th></tr></thead><tbody>{rows}</tbody></table></div></section>')


def _diagram(extras: ScreenExtras) -> str:
    if extras.diagram_svg is None and extras.diagram_error is None:
        return ""
    caption = f'<p class="muted">{escape(extras.diagram_caption)}</p>' if extras.diagram_caption else ""
    if extras.diagram_svg is None:
        body = f'<p class="fail diagram-error">{escape(extras.diagram_error or "")}</p>'
    else:
        body = ('<div class="diagram-tools"><button type="button" data-action="fit">화면에 맞추기</button>'
                '<button type="button" data-action="actual">원래 크기</button>'
                '<span class="muted">장면이나 화살표를 누르면 그 카드가 열립니다.</span></div>'
                f'<div class="diagram fit">{clean_svg(extras.diagram_svg)}</div>')
    return f'<section class="panel" id="diagram"><h2>그림</h2>{caption}{body}</section>'


def _sample_note(extras: ScreenExtras) -> str:
    if not extras.sample:
        return ""
    return ('<div class="sample-note" role="note"><b>샘플 데이터입니다.</b> 함께 들어 있는 등대 시나리오(examples/lighthouse)를 '
            '검사한 화면입니다. 내 시나리오는 아래에서 올려 주세요.</div>')


def _upload(extras: ScreenExtras) -> str:
    if not extras.upload:
        return ""
    limit = extras.upload_limit_bytes
    limit_text = f"{limit / 1024 / 1024:.1f}MB" if limit and limit >= 1024 * 1024 else f"{(limit or 0) / 1024:.0f}KB"
    return (
        f'<section class="panel upload" id="upload"><h2>{escape(extras.upload_title)}</h2>'
        f'<form method="post" action="/upload" enctype="multipart/form-data" data-limit="{int(limit or 0)}">'
        '<div class="drop" id="drop"><p class="drop-hint">여기로 파일을 끌어다 놓거나</p>'
        f'<label class="pick" for="files">파일 고르기</label><input type="file" name="files" id="files" multiple accept="{escape(extras.accept)}" class="visually-hidden">'
        '<p class="picked muted" aria-live="polite">고른 파일이 없습니다.</p></div>'
        '<button type="submit">검사하기</button></form>'
        '<form method="get" action="/sample" class="inline"><button type="submit" id="sample">샘플 데이터로 보기</button></form>'
        f'<p class="muted">받는 형식: {escape(extras.upload_formats)}. 크기 한도 {escape(limit_text)}. '
        '올린 파일은 임시 폴더에서 검사한 뒤 바로 지웁니다.</p>'
        '<p class="upload-error fail" hidden></p></section>'
    )


# ---------------------------------------------------------------------------- page


def render_html(report: Report | None, domain: Domain, extras: ScreenExtras | None = None) -> str:
    """The whole screen as one HTML document.

    ``report`` may be ``None`` for the served page before anything was uploaded: then
    only the upload form, the empty panels and the notes are shown.
    """
    extras = extras or ScreenExtras()
    colours = verdict_colours(domain.verdicts, domain.passing_verdicts)
    _MARKS.clear()
    _MARKS.update(verdict_marks(domain.verdicts, domain.passing_verdicts))
    _MARKS[WITHHELD] = WITHHELD_MARK
    _MARKS[domain.undone_group] = UNDONE_MARK
    colours.setdefault(domain.undone_group, UNDONE_LOOK)
    notes = extras.notes if extras.notes is not None else getattr(domain, "notes", None)
    css = _asset("screen.css").replace("/*FONT_STACK*/", FONT_STACK)
    script = _asset("screen.js")
    csp = (f"default-src 'none'; style-src 'unsafe-inline'; script-src {csp_hash(script)}; img-src data:; "
           "form-action 'self'; base-uri 'none'" + ("; connect-src 'self'" if extras.live else ""))
    heading = extras.heading or domain.title
    banner = f'<div class="banner fail" role="alert">{escape(extras.banner)}</div>' if extras.banner else ""
    if report is None:
        main = f'<section class="panel" id="groups-empty"><h2>판정 묶음</h2><p class="muted">{escape(extras.empty_groups)}</p></section>'
        side = _checks(Report(domain.name, [], [], [])) + _notes(notes) + _grading(None, domain)
        chips = ""
        title = heading
    else:
        # the input issues first when there are any; an empty panel goes below the problems
        issues = _issues(report)
        main = ((issues if report.issues else "") + f'<div id="groups">{_groups(report, domain, colours, extras)}</div>'
                + _card_list_panels(report, extras) + _findings(report) + ("" if report.issues else issues) + _diagram(extras))
        side = _checks(report, bool(report.cards)) + _notes(notes) + _grading(extras.grading, domain) + _sources(report)
        chips = _strip(report, domain, extras) + _summary_chips(report, domain, colours)
        title = f"{heading} — " + ", ".join(sorted({s.file for s in report.sources})) if report.sources else heading
    mode = ("샘플 데이터 · " if extras.sample else "") + ("채점 화면" if extras.grading else "예측 화면")
    when = datetime.now(timezone.utc).replace(microsecond=0).isoformat()
    tool = escape(extras.tool or domain.name)
    return (
        '<!doctype html>\n<html lang="ko"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{escape(csp)}">'
        f"<title>{escape(title)}</title><style>{css}</style></head>"
        f'<body data-domain="{escape(domain.name)}" data-mode="{"grading" if extras.grading else "prediction"}"'
        + (f' data-live="{escape(extras.live)}"' if extras.live else "") + ">"
        f'<header><h1>{escape(heading)}</h1><p class="mode">{mode} · <span class="muted">{escape(domain.name)}</span></p>{chips}</header>'
        '<nav class="tools"><button type="button" data-action="expand">모두 펼치기</button>'
        '<button type="button" data-action="collapse">모두 접기</button>'
        '<input type="search" id="filter" placeholder="번호나 글자로 거르기" aria-label="번호나 글자로 거르기"></nav>'
        f"{banner}{_sample_note(extras)}{_upload(extras)}"
        f'<div class="layout"><main>{main}</main><aside>{side}</aside></div>'
        f'<footer class="muted">{tool} · {when} · 이 파일 하나로 열립니다 (외부 자원 없음).</footer>'
        f"<script>{script}</script></body></html>\n"
    )
