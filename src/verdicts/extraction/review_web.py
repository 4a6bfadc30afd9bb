"""The review queue's pages and routes, mounted on the kit's server
(:func:`verdicts.serve.create_app`).

* ``GET /review`` — paused runs with how many cells wait, and the waiting cells grouped
  by verdict (or, with none, a sentence and a button that opens the sample run);
* ``GET /review/run/{run_id}`` — the run's cells grouped by verdict, with their state;
* ``GET /review/cell/{item_key}`` — the card, the source page with the evidence phrase
  highlighted (or the page the hedge names), the decision form and its history; a cell
  whose decision was made on other values is marked "값이 바뀌어 다시 검토" with that
  decision and what changed;
* ``POST /review/decide`` — approve, correct or reject (form fields ``item_key``,
  ``action``, ``reviewer``, ``new_value``, ``seen``, ``opened_at``, and ``fingerprint``,
  the state of the cell the page showed: a page older than the cell is refused, 409);
* ``POST /review/reload/{item_key}`` — read a broken cell's input again;
* ``POST /review/sample`` — load the bundled sample runs;
* ``GET /review/export/{run_id}.csv`` and ``.json`` — the corrected values;
* ``GET /review/stats`` — time to decide, median and 90th percentile per field and verdict.

Every ``POST`` carries the server's CSRF token (each form gets it as a hidden field; a
JSON client sends it as ``csrf_token`` or in ``X-CSRF-Token``) and comes from the
server's own pages (the kit's guard checks ``Origin``/``Referer`` and the body's type).
Every page is sent with a Content-Security-Policy that lets only its own script and
style run (by hash).  An unknown cell or run is a 404 page, a database that cannot be
read a 503 page, each with its sentence.

Keyboard: ``a`` approve, ``c`` correct (the value box), ``r`` reject, ``n`` the next
waiting cell, ``Enter`` in the value box sends the correction.
"""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any
from urllib.parse import quote

from verdicts.model import WITHHELD
from verdicts.safe_text import clean
from verdicts.screen import csp_hash, escape
from verdicts.serve import ServerPages, new_csrf_token, read_form, with_csrf

from .model import VERDICTS
from .review import Cell, MissingCell, ReviewError, ReviewStore, StaleDecision

__all__ = ["review_routes", "review_pages", "SAMPLE", "highlighted_page", "ACTION_LABELS", "STATE_LABELS", "GROUPS"]

#: how the three decisions read on screen
ACTION_LABELS = {"approve": "승인", "correct": "수정", "reject": "거절"}
#: how a cell's state reads on screen (a decided cell reads as its decision)
STATE_LABELS = {"waiting": "대기", "stale": "값이 바뀌어 다시 검토", "reload": "다시 불러오기"}
#: the queue's groups, in order: the verdicts in the order the rules are tried, a cell
#: whose verdict was withheld, then the cells to reload (they have no verdict to show)
RELOAD = STATE_LABELS["reload"]
GROUPS: tuple[str, ...] = (*VERDICTS, WITHHELD, RELOAD)

#: the bundled sample runs (the "샘플 실행 열기" button loads them)
SAMPLE = Path(__file__).resolve().parents[3] / "examples" / "extraction"

_STYLE = """
body{font-family:system-ui,'Noto Sans KR',sans-serif;margin:2rem;max-width:72rem;color:#222}
a{color:#0b57d0}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.3rem .6rem;text-align:left}
.banner{padding:.6rem 1rem;border-radius:.4rem;margin:1rem 0}.error{background:#fde2e1}.ok{background:#e3f4e1}
.page{white-space:pre-wrap;border:1px solid #ccc;padding:1rem;background:#fafafa}mark{background:#ffe066}
.verdict{font-weight:bold}.broken{background:#fff4d6}.keys{color:#666;font-size:.9em}
.stale{background:#e8f0fe}.stale-mark{font-weight:bold;color:#174ea6}
tbody.group th{background:#f1f3f4}code:empty{display:inline-block;min-width:2em;border-bottom:1px dashed #999}
button{font-size:1rem;margin-right:.5rem}
"""


def _text(value: Any) -> str:
    """A value as HTML text: an empty value (``None``) shows as nothing."""
    return "" if value is None else escape(value)


def _group(cell: Cell) -> str:
    if cell.broken:
        return RELOAD
    verdict = cell.card.get("verdict")
    return verdict if verdict in VERDICTS else WITHHELD


def _state(cell: Cell) -> str:
    state = cell.state
    current = cell.current
    return ACTION_LABELS[current.action] if state == "decided" and current else STATE_LABELS[state]


def _grouped(cells: list[Cell], table_id: str) -> str:
    """The cells as one table, a row group per verdict (in :data:`GROUPS` order, with its
    count); each row: the verdict, the cell, its one-line summary and its state."""
    groups: dict[str, list[Cell]] = {}
    for c in cells:
        groups.setdefault(_group(c), []).append(c)
    body = ""
    for name in (g for g in GROUPS if g in groups):
        rows = "".join(
            f'<tr class="{"broken" if c.broken else "stale" if c.stale else ""}"><td class="verdict">{_text(c.card.get("verdict"))}</td>'
            f'<td><a href="/review/cell/{quote(c.item_key)}">{escape(c.item_key)}</a></td>'
            f'<td>{_text(c.card.get("summary"))}</td><td class="state">{_state(c)}</td></tr>' for c in groups[name])
        body += (f'<tbody class="group" data-group="{escape(name)}"><tr><th colspan="4" scope="rowgroup">'
                 f'<span class="group-name">{escape(name)}</span> <span class="count">{len(groups[name])}칸</span></th></tr>'
                 f"{rows}</tbody>")
    return (f'<table id="{table_id}"><thead><tr><th>판정</th><th>칸</th><th>요약</th><th>상태</th></tr></thead>'
            f"{body}</table>")


def _page(title: str, body: str, banner: str | None = None, ok: str | None = None) -> str:
    notes = ""
    if banner:
        notes += f'<div class="banner error" role="alert" id="banner">{escape(banner)}</div>'
    if ok:
        notes += f'<div class="banner ok" role="status">{escape(ok)}</div>'
    return (f'<!doctype html><html lang="ko"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f"<style>{_STYLE}</style></head><body><p><a href=\"/review\">검토 대기열</a> · "
            f"<a href=\"/review/stats\">결정 시간</a></p><h1>{escape(title)}</h1>{notes}{body}</body></html>")


def highlighted_page(card: dict[str, Any], pages: dict[int, dict[str, Any]]) -> tuple[int | None, str, str | None]:
    """``(page number, HTML of its text with the phrase marked, note)``: the cited page
    when the phrase is on it, else the first page of the run holding the phrase (the
    hedge's page), else the cited page unmarked."""
    ev = {e.get("field"): e.get("value") for e in card.get("evidence") or () if not e.get("agg")}
    phrase, cited = ev.get("evidence_text"), ev.get("evidence_page")
    cited = cited if isinstance(cited, int) and cited in pages else None
    shown, note = cited, None
    if phrase and (cited is None or phrase not in (pages[cited].get("text") or "")):
        other = next((n for n in sorted(pages) if phrase in (pages[n].get("text") or "")), None)
        if other is not None:
            shown = other
            note = (f"근거로 든 {cited}쪽에는 문구가 없어 같은 문구가 있는 {other}쪽을 보여 드립니다." if cited
                    else f"같은 문구가 있는 {other}쪽을 보여 드립니다.")
    if shown is None:
        shown = min(pages) if pages else None
    if shown is None:
        return None, "", "이 실행에는 불러온 원문 쪽이 없습니다."
    text = pages[shown].get("text")
    if text is None:
        return shown, "", f"{shown}쪽 본문을 불러오지 못했습니다."
    if phrase and phrase in text:
        at = text.index(phrase)
        html = escape(text[:at]) + f'<mark id="phrase">{escape(phrase)}</mark>' + escape(text[at + len(phrase):])
    else:
        html = escape(text)
    return shown, html, note


def _queue(store: ReviewStore, ok: str | None = None) -> str:
    runs = store.runs()
    paused = [r for r in runs if r["waiting"]]
    if not paused:
        body = ('<p id="empty">지금은 검토할 칸이 없습니다.</p>'
                '<form method="post" action="/review/sample"><button id="open-sample" type="submit">샘플 실행 열기</button></form>')
    else:
        rows = "".join(
            f'<tr><td><a href="/review/run/{quote(r["run_id"])}">{escape(r["run_id"])}</a></td>'
            f'<td class="waiting">{r["waiting"]}</td><td>{r["cells"]}</td><td class="stale-count">{r["stale"]}</td>'
            f'<td>{r["broken"]}</td></tr>' for r in paused)
        body = ("<table id=\"runs\"><tr><th>멈춘 실행</th><th>기다리는 칸</th><th>전체 칸</th><th>값이 바뀌어 다시 검토할 칸</th>"
                f"<th>다시 불러올 칸</th></tr>{rows}</table>")
        body += (f'<p id="page-only">근거 문구가 원문에 없음으로 나온 칸 가운데 같은 문구가 다른 쪽에 있어 쪽수만 틀린 칸은 '
                 f"{store.page_only_wrong()}칸입니다.</p>")
        body += "<h2>기다리는 칸</h2>" + _grouped(store.waiting_cells(), "queue")
    done = [r for r in runs if not r["waiting"]]
    if done:
        body += "<h2>검토를 마친 실행</h2><ul>" + "".join(
            f'<li><a href="/review/run/{quote(r["run_id"])}">{escape(r["run_id"])}</a> · '
            f'<a href="/review/export/{quote(r["run_id"])}.csv">CSV</a> · '
            f'<a href="/review/export/{quote(r["run_id"])}.json">JSON</a></li>' for r in done) + "</ul>"
    return _page("검토 대기열", body, ok=ok)


def _run(store: ReviewStore, run_id: str) -> str:
    cells = store.run_cells(run_id)
    if not cells:
        raise MissingCell(f"검토 대기열에 {clean(run_id)} 실행이 없습니다.")
    body = (_grouped(cells, "cells") +
            f'<p><a href="/review/export/{quote(run_id)}.csv">고친 값 CSV</a> · '
            f'<a href="/review/export/{quote(run_id)}.json">고친 값 JSON</a></p>')
    return _page(f"실행 {run_id}", body)


_SCRIPT = """
<script>
const form = document.getElementById('decide');
if (form) {
  form.elements.opened_at.value = String(Date.now() / 1000);
  const who = form.elements.reviewer;
  who.value = localStorage.getItem('reviewer') || who.value;
  form.addEventListener('submit', () => localStorage.setItem('reviewer', who.value));
  const send = (action) => { const b = form.querySelector('button[value="' + action + '"]'); form.requestSubmit(b); };
  form.elements.new_value.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') { e.preventDefault(); send('correct'); }
  });
  document.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'INPUT' || e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'a') { e.preventDefault(); send('approve'); }
    else if (e.key === 'r') { e.preventDefault(); send('reject'); }
    else if (e.key === 'c') { e.preventDefault(); form.elements.new_value.focus(); }
  });
}
document.addEventListener('keydown', (e) => {
  if (e.target.tagName === 'INPUT') return;
  const next = document.getElementById('next');
  if (e.key === 'n' && next) { e.preventDefault(); location.href = next.href; }
});
</script>
"""


#: what a review page may run and load: its own script and style (by hash), nothing else
_CSP = (f"default-src 'none'; script-src {csp_hash(_SCRIPT.split('<script>', 1)[1].rsplit('</script>', 1)[0])}; "
        f"style-src {csp_hash(_STYLE)}; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'")


def _cell(store: ReviewStore, item_key: str, banner: str | None = None, ok: str | None = None, reviewer: str = "") -> str:
    c = store.cell(item_key)
    card = c.card
    number, text, note = highlighted_page(card, store.pages(c.run_id))
    # a cell to reload shows that state where a verdict would be: it has none to decide on
    shown = (f'<span class="state" id="state">{RELOAD}</span>' if c.broken else
             f'<span class="verdict" id="verdict">{_text(card.get("verdict")) or WITHHELD}</span>')
    head = (f'<p>{shown} · {escape(c.label)} '
            f'(<code>{escape(c.field_name)}</code>)</p><p id="summary">{_text(card.get("summary"))}</p>')
    if card.get("hedge"):
        head += f'<p id="hedge">{escape(card["hedge"])}</p>'
    head += (f'<p>AI 값: <code id="ai-value">{_text(card.get("ai_value"))}</code> · 원문 값: '
             f'<code id="source-value">{_text(card.get("source_value"))}</code></p>')
    if c.broken:
        form = (f'<div class="broken" id="reload-state"><p>이 칸은 입력을 읽지 못해 판정 대신 다시 불러오기 상태입니다.</p>'
                f'<form method="post" action="/review/reload/{quote(item_key)}"><button id="reload" type="submit">다시 불러오기</button>'
                "</form></div>")
    else:
        last = c.last
        if last is not None and c.stale:
            what = c.changed()
            why = (f"바뀐 것은 {escape(', '.join(what))}입니다." if what else
                   "이 결정은 무엇을 보고 내렸는지 기록하기 전의 결정이라 지금 값과 견줄 수 없습니다.")
            decided = (f'<div class="stale" id="stale" role="status"><p class="stale-mark">{STATE_LABELS["stale"]}</p>'
                       f'<p id="stale-decision">{escape(last.reviewer)} 님이 {escape(last.decided_at)}에 '
                       f'{ACTION_LABELS[last.action]}한 결정은 지금과 다른 값을 보고 내린 것이라 다시 검토해야 합니다. {why}</p>'
                       f'<p class="keys">그 결정의 값: <code>{_text(last.new_value)}</code> · 그때의 AI 값: '
                       f'<code>{_text(last.ai_value)}</code> · 그때의 판정: {_text(last.verdict)}</p></div>')
        elif last is not None:
            decided = (f'<p id="decided">{escape(last.reviewer)} 님이 {escape(last.decided_at)}에 '
                       f'{ACTION_LABELS[last.action]}했습니다.</p>')
        else:
            decided = ""
        form = (f'{decided}<form method="post" action="/review/decide" id="decide">'
                f'<input type="hidden" name="item_key" value="{escape(item_key)}">'
                f'<input type="hidden" name="seen" value="{last.id if last else 0}">'
                f'<input type="hidden" name="fingerprint" value="{c.fingerprint}">'
                '<input type="hidden" name="opened_at" value="">'
                f'<label>검토자 <input name="reviewer" id="reviewer" value="{escape(reviewer)}" required></label> '
                f'<label>고친 값 <input name="new_value" id="new-value"></label>'
                + (f' <span class="keys">형식 규칙 <code>{escape(c.pattern)}</code></span>' if c.pattern else "")
                + '<p><button type="submit" name="action" value="approve" id="approve">승인 (a)</button>'
                '<button type="submit" name="action" value="correct" id="correct">수정 (c, Enter)</button>'
                '<button type="submit" name="action" value="reject" id="reject">거절 (r)</button></p></form>')
    following = store.next_waiting(c.run_id, after=item_key)
    nav = (f'<p class="keys"><a href="/review/run/{quote(c.run_id)}">실행 {escape(c.run_id)}</a>'
           + (f' · <a id="next" href="/review/cell/{quote(following)}">다음 칸 (n)</a>' if following and following != item_key else "")
           + "</p>")
    source = f"<h2>원문 {number}쪽</h2>" if number else "<h2>원문</h2>"
    if note:
        source += f'<p id="page-note">{escape(note)}</p>'
    source += f'<div class="page" id="page">{text}</div>'
    history = store.history(item_key)
    if history:
        source += "<h2>결정 기록</h2><table id=\"history\"><tr><th>검토자</th><th>시각</th><th>결정</th><th>이전 값</th><th>새 값</th><th>걸린 시간(초)</th></tr>" + "".join(
            f"<tr><td>{escape(d.reviewer)}</td><td>{escape(d.decided_at)}</td><td>{ACTION_LABELS[d.action]}</td><td>{_text(d.old_value)}</td>"
            f"<td>{_text(d.new_value)}</td><td>{_text(d.seconds)}</td></tr>" for d in history) + "</table>"
    return _page(item_key, head + form + nav + source + _SCRIPT, banner=banner, ok=ok)


def _stats(store: ReviewStore) -> str:
    stats = store.stats()
    body = ""
    for part, title in (("field_name", "칸별"), ("verdict", "판정별")):
        rows = "".join(f"<tr><td>{_text(r[part])}</td><td>{r['decisions']}</td><td>{r['median']}</td><td>{r['p90']}</td></tr>"
                       for r in stats[part])
        body += (f"<h2>{title}</h2><table id=\"stats-{part}\"><tr><th>{title[:-1]}</th><th>결정 수</th><th>중앙값(초)</th>"
                 f"<th>90백분위(초)</th></tr>{rows}</table>")
    if not stats["field_name"]:
        body = "<p>아직 시간이 기록된 결정이 없습니다.</p>"
    return _page("결정까지 걸린 시간", body)


def review_routes(store: ReviewStore) -> list[Any]:
    """The queue's Starlette routes over ``store``."""
    from starlette.concurrency import run_in_threadpool
    from starlette.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
    from starlette.routing import Route

    kept: list[str] = []

    def token() -> str:
        """The queue's CSRF token, from its database (a restart keeps it); a server whose
        database cannot be read makes one for itself (its pages say the database is broken)."""
        if not kept:
            try:
                kept.append(store.csrf_token())
            except ReviewError:
                return new_csrf_token()
        return kept[0]

    async def form(request) -> dict[str, str]:
        return await read_form(request, token())

    def html(text: str, status: int = 200) -> HTMLResponse:
        return HTMLResponse(with_csrf(text, token()), status_code=status, headers={"content-security-policy": _CSP})

    async def queue(request):
        return html(_queue(store))

    async def run(request):
        return html(_run(store, request.path_params["run_id"]))

    async def cell(request):
        try:
            return html(_cell(store, request.path_params["item_key"]))
        except ReviewError as exc:
            return html(_page("검토 대기열", "", banner=str(exc)), exc.http_status)

    async def decide(request):
        f = await form(request)
        key = f.get("item_key", "")
        try:
            opened = float(f["opened_at"]) if f.get("opened_at") else None
            seen = int(f.get("seen") or 0)
            # (in a worker thread: the correction is matched against the field's pattern,
            # a regular expression from data, and the database waits on its lock)
            await run_in_threadpool(store.decide, key, f.get("action", ""), reviewer=f.get("reviewer", ""),
                                    new_value=f.get("new_value"), seen=seen, opened_at=opened,
                                    shown=f.get("fingerprint", ""))
        except (ReviewError, ValueError) as exc:
            status = 409 if isinstance(exc, StaleDecision) else 422
            try:
                return html(_cell(store, key, banner=str(exc), reviewer=f.get("reviewer", "")), status)
            except ReviewError as missing:
                return html(_page("검토 대기열", "", banner=str(missing)), missing.http_status)
        run_id = store.cell(key).run_id
        following = store.next_waiting(run_id, after=key)
        where = f"/review/cell/{quote(following)}" if following else f"/review/run/{quote(run_id)}"
        return RedirectResponse(where, status_code=303)

    async def reload(request):
        await form(request)
        key = request.path_params["item_key"]
        try:
            c = await run_in_threadpool(store.reload, key)  # judges the cell again: its pattern too
        except ReviewError as exc:
            return html(_cell(store, key, banner=str(exc)), 422)
        ok = None if c.broken else "다시 불러와 이 칸을 판정했습니다."
        banner = "다시 불러왔지만 여전히 입력을 읽지 못했습니다." if c.broken else None
        return html(_cell(store, key, banner=banner, ok=ok))

    async def sample(request):
        await form(request)
        await run_in_threadpool(store.load, SAMPLE)
        return RedirectResponse("/review", status_code=303)

    async def export(request):
        run_id, form_ = request.path_params["run_id"], request.path_params["form"]
        if not store.run_cells(run_id):
            raise MissingCell(f"검토 대기열에 {clean(run_id)} 실행이 없습니다.")
        if form_ == "json":
            return Response(json.dumps(store.export(run_id), ensure_ascii=False, indent=2) + "\n",
                            media_type="application/json")
        return PlainTextResponse(store.export_csv(run_id), media_type="text/csv; charset=utf-8")

    async def stats(request):
        return html(_stats(store))

    return [
        Route("/review", queue, methods=["GET"]),
        # (ids may hold any character, a slash too: the path convertor takes the rest)
        Route("/review/run/{run_id:path}", run, methods=["GET"]),
        Route("/review/cell/{item_key:path}", cell, methods=["GET"]),
        Route("/review/decide", decide, methods=["POST"]),
        Route("/review/reload/{item_key:path}", reload, methods=["POST"]),
        Route("/review/sample", sample, methods=["POST"]),
        Route("/review/export/{run_id:path}.{form:str}", export, methods=["GET"]),
        Route("/review/stats", stats, methods=["GET"]),
    ]


# ------------------------------------------------------------------ the kit's report pages beside the queue


def _report_page(path: Path, names: dict[str, str]) -> str:
    from verdicts.reporters import REPORTERS
    from verdicts.serve import relabel_files

    from .domain import DOMAIN, judge_batch

    return REPORTERS["html"].render(relabel_files(judge_batch(path), names), DOMAIN)


def _sample_page() -> str:
    return _report_page(SAMPLE, {})


def _landing(banner: str | None) -> str:
    return _page("추출 값 검토", '<p><a href="/review">검토 대기열로 가기</a> · <a href="/sample">샘플 보고서 화면</a></p>',
                 banner=banner)


def review_pages() -> ServerPages:
    """The kit's pages (upload, sample report) for the server that hosts the queue."""
    return ServerPages(judge=partial(_report_page), sample=_sample_page, empty=_landing, csp=_CSP)
