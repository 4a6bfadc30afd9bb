"""``storygraph serve`` for real: every accepted upload form, the size limit, temporary
files removed, and nothing served outside the page itself."""

from __future__ import annotations

import csv
import http.client
import io
import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from openpyxl import Workbook

from tests.storygraph.screen_server import leftovers, multipart, served
from storygraph import lint

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
FOLDER = EXAMPLES / "lighthouse-folder"
TABLES = ("scene_states", "story_branches", "flag_spec")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    tmpdir = tmp_path_factory.mktemp("server-tmp")
    with served(tmpdir) as url:
        yield url, tmpdir


def request(url: str, method: str, path: str, body: bytes | None = None, headers: dict | None = None):
    """Send ``path`` exactly as written (no normalisation) and return (status, text)."""
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.putrequest(method, path, skip_accept_encoding=True, skip_host="Host" in (headers or {}))
        for k, v in (headers or {}).items():
            conn.putheader(k, v)
        if body is not None and "Content-Length" not in (headers or {}):
            conn.putheader("Content-Length", str(len(body)))
        conn.endheaders()
        if body is not None:
            conn.send(body)
        resp = conn.getresponse()
        return resp.status, resp.read().decode("utf-8", "replace")
    finally:
        conn.close()


def upload(url: str, files: list[tuple[str, bytes]]):
    ctype, body = multipart(files)
    return request(url, "POST", "/upload", body, {"Content-Type": ctype})


def group_counts(html: str) -> dict[str, int]:
    return {v: int(n) for v, n in re.findall(r'<section class="group"[^>]*data-verdict="([^"]+)"[^>]*><h2>.*?data-count="(\d+)"', html)}


def expected_counts(path: Path) -> dict[str, int]:
    """The screen's groups and their counts: the verdicts, the passing cards no real reader
    bears out in their own group (표로만 닿음) when there are any."""
    from verdicts.report import first_view_groups

    from storygraph.domain import DOMAIN

    counts = {v: 0 for v in ("어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감", "끝까지 닿음")}
    for group, cards in first_view_groups(lint(path).cards, DOMAIN).items():
        if cards or group in counts:
            counts[group] = len(cards)
    return counts


def test_landing_page_has_the_upload_form_and_sample_button(server):
    url, _ = server
    status, html = request(url, "GET", "/")
    assert status == 200
    assert 'action="/upload"' in html and 'enctype="multipart/form-data"' in html
    assert "샘플 데이터로 보기" in html
    for panel in ("checks", "notes", "grading"):
        assert f'id="{panel}"' in html


def test_sample(server):
    url, _ = server
    status, html = request(url, "GET", "/sample")
    assert status == 200
    assert group_counts(html) == expected_counts(EXAMPLES / "lighthouse" / "scenario.csv")
    assert "샘플: examples/lighthouse/scenario.csv" in html
    assert "<svg" in html


@pytest.mark.parametrize("path", [
    "/../../etc/passwd", "/..%2f..%2fetc%2fpasswd", "//etc/passwd", "/sample/../../pyproject.toml",
    "/%2e%2e/%2e%2e/etc/passwd", "/static/../README.md", "/..\\..\\etc\\passwd", "/pyproject.toml",
    "/src/verdicts/screen.py", "/examples/lighthouse/scenario.csv", "/screen_assets/screen.css",
])
def test_nothing_outside_the_page_is_served(server, path):
    url, _ = server
    status, html = request(url, "GET", path)
    assert status == 404
    assert "root:" not in html and "[build-system]" not in html and "import" not in html.split("<script>")[0]
    assert "scene_id,title" not in html


def _folder_files() -> list[tuple[str, bytes]]:
    return [(f"{t}.csv", (FOLDER / f"{t}.csv").read_bytes()) for t in TABLES]


def _xlsx() -> bytes:
    wb = Workbook()
    wb.remove(wb.active)
    for t in TABLES:
        ws = wb.create_sheet(t)
        with open(FOLDER / f"{t}.csv", encoding="utf-8-sig", newline="") as fh:
            for row in csv.reader(fh):
                ws.append(row)
    buf = io.BytesIO()
    wb.save(buf)
    return buf.getvalue()


def _yaml() -> bytes:
    doc = {}
    for t in TABLES:
        with open(FOLDER / f"{t}.csv", encoding="utf-8-sig", newline="") as fh:
            doc[t] = [{k: v for k, v in row.items() if v != ""} for row in csv.DictReader(fh)]
    return yaml.safe_dump(doc, allow_unicode=True).encode("utf-8")


def test_every_accepted_form_gives_the_same_screen(server):
    url, tmpdir = server
    expected = expected_counts(FOLDER)
    forms = {
        "union csv": [("scenario.csv", (EXAMPLES / "lighthouse" / "scenario.csv").read_bytes())],
        "folder": _folder_files(),
        "xlsx": [("scenario.xlsx", _xlsx())],
        "yaml": [("scenario.yaml", _yaml())],
    }
    for form, files in forms.items():
        status, html = upload(url, files)
        assert status == 200, (form, html[:500])
        assert group_counts(html) == expected, form
        assert str(tmpdir) not in html, form  # the temporary path never shows
    assert leftovers(tmpdir) == []  # uploads removed


def test_broken_upload_shows_issues_and_keeps_the_groups(server):
    url, tmpdir = server
    status, html = upload(url, [("broken.csv", (EXAMPLES / "lighthouse-broken" / "scenario.csv").read_bytes())])
    assert status == 200
    issues = lint(EXAMPLES / "lighthouse-broken" / "scenario.csv").issues
    assert f'입력 문제 <span class="count">{len(issues)}건</span>' in html
    assert '<td class="mono">broken.csv</td>' in html
    counts = group_counts(html)
    assert len(counts) == 5 and sum(counts.values()) > 0
    assert leftovers(tmpdir) == []


def test_json_upload_with_hostile_titles(server):
    url, _ = server
    status, html = upload(url, [("hostile.json", (ROOT / "tests" / "data" / "screen" / "hostile.json").read_bytes())])
    assert status == 200
    assert html.count("<script") == 1 and "<img" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_file_name_cannot_escape_the_temporary_folder(server):
    url, tmpdir = server
    status, html = upload(url, [("../../../escape.csv", (EXAMPLES / "lighthouse" / "scenario.csv").read_bytes())])
    assert status == 200 and "escape.csv" in html
    assert not (tmpdir.parent / "escape.csv").exists() and not (tmpdir / "escape.csv").exists()
    assert leftovers(tmpdir) == []


@pytest.mark.parametrize("files, status, message", [
    ([], 400, "올린 파일이 없습니다"),
    ([("virus.exe", b"MZ")], 400, "받지 않는 형식"),
    ([("a.csv", b"x"), ("b.json", b"{}")], 400, "CSV 하나씩"),
    ([("bad.xlsx", b"PK\x03\x04 not a workbook")], 422, "올린 파일을 읽지 못했습니다: bad.xlsx: xlsx 통합 문서"),
    ([("bad.json", b"{")], 422, "읽지 못했습니다"),
])
def test_bad_uploads_get_a_clear_message(server, files, status, message):
    url, tmpdir = server
    got, html = upload(url, files)
    assert got == status
    assert message in html and 'role="alert"' in html
    assert str(tmpdir) not in html
    assert leftovers(tmpdir) == []


def test_empty_file_is_judged_with_its_issues(server):
    url, _ = server
    status, html = upload(url, [("empty.csv", b"")])
    assert status == 200
    assert re.search(r'입력 문제 <span class="count">[1-9]\d*건</span>', html)
    assert len(group_counts(html)) == 5


def test_upload_size_limit(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    with served(tmpdir, "--max-upload-mb", "0.002") as url:  # about 2 KB
        big = (EXAMPLES / "lighthouse" / "scenario.csv").read_bytes()
        assert len(big) > 2100
        status, html = upload(url, [("scenario.csv", big)])
        assert status == 413
        assert "파일이 너무 큽니다" in html and "한도는 2,097바이트" in html
        small = b"scene_id,title,is_entry,is_ending\nS1,a,Y,Y\n"
        status, _ = upload(url, [("s.csv", small)])
        assert status == 200
        status, html = request(url, "POST", "/upload", b"", {"Content-Type": "multipart/form-data; boundary=x", "Content-Length": "abc"})
        assert status == 400
    assert leftovers(tmpdir) == []


@pytest.mark.parametrize("host, status", [("evil.example", 403), ("evil.example:80", 403), ("localhost:1", 200), ("127.0.0.1", 200)])
def test_only_loopback_host_names_are_answered(server, host, status):
    url, _ = server
    got, html = request(url, "GET", "/sample", headers={"Host": host})
    assert got == status
    if status == 403:
        assert "<details" not in html


MOUNTED = r'''
import asyncio, sys
from starlette.routing import Route
try:  # the page makers moved from storygraph.screen to storygraph.pages
    from storygraph.pages import server_pages
except ImportError:
    from storygraph.screen import server_pages
from verdicts.serve import ServerLimits, bind, create_app, event_stream, run_server, url_of

async def events(request):
    async def saves():
        for n in range(3):
            await asyncio.sleep(0.2)
            yield ("reload", f"저장 {n}\n둘째 줄")
    return event_stream(saves(), heartbeat=0.1)

app = create_app(server_pages(), ServerLimits(), routes=[Route("/events", events)])
sock = bind("127.0.0.1", 0)
print(url_of(sock), flush=True)
run_server(app, sock)
'''


def test_mounted_event_stream_route(tmp_path):
    """A route mounted beside the three (the ground for live reload): server-sent
    events with heartbeats, behind the same guard (loopback host names only)."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, TMPDIR=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-c", MOUNTED], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        url = proc.stdout.readline().strip().rstrip("/")
        assert url.startswith("http://127.0.0.1:")
        parts = urlsplit(url)
        conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10)
        conn.request("GET", "/events")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.getheader("Content-Type").startswith("text/event-stream")
        text = resp.read().decode("utf-8")  # the stream ends after three events
        conn.close()
        assert text.startswith(": open\n\n") and ": keep-alive\n\n" in text
        assert "event: reload\ndata: 저장 0\ndata: 둘째 줄\n\n" in text and "data: 저장 2" in text
        assert request(url, "GET", "/events", headers={"Host": "evil.example"})[0] == 403
    finally:
        proc.terminate()
        assert proc.wait(timeout=15) == 0
