"""The review queue as a careful server, over real HTTP (``verdicts review`` in a
subprocess): a cross-site or token-less POST changes nothing, only form and JSON bodies
are read, every page carries a Content-Security-Policy that lets only its own script and
style run, an unknown cell or run is a 404 page and a database that cannot be read a 503
page, never a traceback; a request head past 16 KB is 431 however it arrives."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import urllib.error
import urllib.parse
import urllib.request

import pytest

from .conftest import EXAMPLE
from .review_server import csrf_token, reviewing

CELL = "R-20931:ceo_name"
FORM = "application/x-www-form-urlencoded"


def _request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, dict, str]:
    req = urllib.request.Request(url, data=data, headers=headers or {}, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, {k.lower(): v for k, v in resp.headers.items()}, resp.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, {k.lower(): v for k, v in exc.headers.items()}, exc.read().decode("utf-8")


def _decision(base: str, key: str = CELL) -> str | None:
    rows = json.loads(_request(f"{base}/review/export/{key.split(':')[0]}.json")[2])
    return next(r["decision"] for r in rows if r["item_key"] == key)


def _fields(token: str | None, key: str = CELL) -> dict[str, str]:
    fields = {"item_key": key, "action": "approve", "reviewer": "김검토", "seen": "0"}
    if token is not None:
        fields["csrf_token"] = token
    return fields


def _seen(base: str, key: str) -> dict[str, str]:
    """The cell's fingerprint as its page carries it (a decision is bound to what was seen)."""
    _, _, page = _request(f"{base}/review/cell/{key}")
    found = re.search(r'name="fingerprint" value="([^"]*)"', page)
    assert found, page[:500]
    return {"fingerprint": found.group(1)}


def _banner(page: str) -> str:
    found = re.search(r'role="alert" id="banner">([^<]*)<', page)
    assert found, page[:500]
    return found.group(1)


@pytest.fixture(scope="module")
def queue(tmp_path_factory):
    db = tmp_path_factory.mktemp("review") / "review.sqlite3"
    with reviewing(db, EXAMPLE) as base:
        yield base, db.parent / f"{db.stem}-server.log"


@pytest.mark.parametrize("headers", [
    {"Origin": "http://evil.example"},
    {"Origin": "null"},  # a sandboxed frame, a file:// page
    {"Referer": "http://evil.example/page.html"},  # no Origin: the Referer decides
    {"Origin": "http://127.0.0.1:1"},  # another port is another origin
])
def test_a_cross_site_post_is_refused_and_records_nothing(queue, headers):
    base, _ = queue
    token = csrf_token(base, CELL)
    data = urllib.parse.urlencode(_fields(token)).encode()
    status, _, page = _request(f"{base}/review/decide", data, {"Content-Type": FORM, **headers})
    assert status == 403 and "다른 사이트의 페이지에서 보낸 요청" in _banner(page)
    assert _decision(base) is None


@pytest.mark.parametrize("token", [None, "", "forged-token"])
def test_a_post_without_the_servers_token_is_refused_and_records_nothing(queue, token):
    base, _ = queue
    data = urllib.parse.urlencode(_fields(token)).encode()
    status, _, page = _request(f"{base}/review/decide", data, {"Content-Type": FORM, "Origin": base})
    assert status == 403 and "CSRF 토큰" in _banner(page)
    assert _decision(base) is None
    status, _, _ = _request(f"{base}/review/sample", b"", {"Content-Type": FORM})
    assert status == 403


@pytest.mark.parametrize("ctype", ["text/plain", "text/plain; charset=utf-8", None, "application/xml"])
def test_a_body_that_is_not_a_form_or_json_is_refused_with_415(queue, ctype):
    base, _ = queue
    data = urllib.parse.urlencode(_fields(csrf_token(base, CELL))).encode()
    req = urllib.request.Request(f"{base}/review/decide", data=data, method="POST")
    if ctype is None:
        req.remove_header("Content-type")  # urllib adds a form type by itself
        req.add_unredirected_header("Content-Type", "")
    else:
        req.add_header("Content-Type", ctype)
    try:
        urllib.request.urlopen(req, timeout=30)
        raise AssertionError("accepted")
    except urllib.error.HTTPError as exc:
        status, page = exc.code, exc.read().decode("utf-8")
    assert status == 415 and "받지 않습니다" in _banner(page)
    assert _decision(base) is None


def test_a_json_client_decides_with_the_token_in_a_header_or_a_field(queue):
    base, _ = queue
    token = csrf_token(base, "R-20931:company_name")
    body = json.dumps({**_fields(None, "R-20931:company_name"), **_seen(base, "R-20931:company_name")}).encode()
    status, _, _ = _request(f"{base}/review/decide", body, {"Content-Type": "application/json", "X-CSRF-Token": token})
    assert status == 200 and _decision(base, "R-20931:company_name") == "approve"
    body = json.dumps({**_fields(token, "R-20931:biz_reg_no"), **_seen(base, "R-20931:biz_reg_no"), "action": "reject",
                       "seen": 0}).encode()
    status, _, _ = _request(f"{base}/review/decide", body, {"Content-Type": "application/json; charset=utf-8"})
    assert status == 200 and _decision(base, "R-20931:biz_reg_no") == "reject"
    status, _, page = _request(f"{base}/review/decide", b"[1, 2]", {"Content-Type": "application/json", "X-CSRF-Token": token})
    assert status == 400 and "객체여야" in _banner(page)


def test_a_same_origin_multipart_form_decides(queue):
    base, _ = queue
    token = csrf_token(base, "R-20931:credit_grade")
    fields = {**_fields(token, "R-20931:credit_grade"), **_seen(base, "R-20931:credit_grade")}
    body = "".join(f'--B\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n' for k, v in fields.items()) + "--B--\r\n"
    status, _, _ = _request(f"{base}/review/decide", body.encode(),
                            {"Content-Type": "multipart/form-data; boundary=B", "Origin": base, "Referer": base + "/review"})
    assert status == 200 and _decision(base, "R-20931:credit_grade") == "approve"


def _hash(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@pytest.mark.parametrize("path", ["/review", "/review/run/R-20935", "/review/cell/R-20935:ceo_name", "/review/stats", "/",
                                  "/review/cell/nope", "/nowhere"])
def test_every_review_page_carries_a_policy_that_lets_only_its_own_script_and_style_run(queue, path):
    base, _ = queue
    status, headers, page = _request(base + path)
    policy = headers.get("content-security-policy", "")
    assert "default-src 'none'" in policy and "unsafe-inline" not in policy and "frame-ancestors 'none'" in policy
    scripts = re.findall(r"<script>(.*?)</script>", page, re.S)
    styles = re.findall(r"<style>(.*?)</style>", page, re.S)
    assert styles and all(_hash(s) in policy for s in styles + scripts)
    assert ("/review/cell/R-" not in path) or scripts  # the cell page has its script, allowed by its hash


def test_an_unknown_cell_or_run_is_a_404_page_with_its_sentence(queue):
    base, log = queue
    token = csrf_token(base, CELL)
    for url, data in [(f"{base}/review/cell/R-1:nope", None), (f"{base}/review/run/R-1", None),
                      (f"{base}/review/export/R-1.csv", None),
                      (f"{base}/review/reload/R-1:nope", urllib.parse.urlencode({"csrf_token": token}).encode()),
                      (f"{base}/review/decide", urllib.parse.urlencode(_fields(token, "R-1:nope")).encode())]:
        status, headers, page = _request(url, data, {"Content-Type": FORM} if data is not None else None)
        assert status == 404, (url, page[:300])
        assert "검토 대기열에 R-1" in _banner(page) and headers["content-type"].startswith("text/html")
    assert "Traceback" not in log.read_text(encoding="utf-8")


def test_a_corrupt_database_is_a_503_page_on_every_route_never_a_traceback(tmp_path):
    db = tmp_path / "review.sqlite3"
    with reviewing(db, EXAMPLE) as base:
        token = csrf_token(base, CELL)
        for leftover in tmp_path.glob("review.sqlite3-*"):  # the write-ahead log and its index
            leftover.unlink()
        db.write_bytes(b"\x00garbage, not a database\n" * 4096)
        for url, data in [(f"{base}/review", None), (f"{base}/review/run/R-20931", None), (f"{base}/review/cell/{CELL}", None),
                          (f"{base}/review/stats", None), (f"{base}/review/export/R-20931.json", None),
                          (f"{base}/review/decide", urllib.parse.urlencode(_fields(token)).encode()),
                          (f"{base}/review/reload/{CELL}", urllib.parse.urlencode({"csrf_token": token}).encode())]:
            status, _, page = _request(url, data, {"Content-Type": FORM} if data is not None else None)
            assert status == 503, (url, page[:300])
            assert "검토 데이터베이스를 읽지 못했습니다" in _banner(page) and "백업" in _banner(page)
    log = (tmp_path / "review-server.log").read_text(encoding="utf-8")
    assert "Traceback" not in log


@pytest.mark.parametrize("split", [False, True])
def test_a_request_head_past_16_kb_is_431_whether_it_arrives_whole_or_in_pieces(queue, split):
    base, _ = queue
    host, port = base.removeprefix("http://").rsplit(":", 1)
    head = f"GET /review HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'a' * 17_000}\r\n\r\n".encode()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        if split:
            for at in range(0, len(head), 4096):
                sock.sendall(head[at:at + 4096])
        else:
            sock.sendall(head)  # one read: h11 alone would take it
        assert sock.recv(64).startswith(b"HTTP/1.1 431")
    small = f"GET /review HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: {'a' * 15_000}\r\nConnection: close\r\n\r\n".encode()
    with socket.create_connection((host, int(port)), timeout=10) as sock:
        sock.sendall(small)
        assert sock.recv(64).startswith(b"HTTP/1.1 200")


def test_the_token_outlives_a_restart_of_the_queue(tmp_path):
    """The token lives with the queue's database: a page opened before a restart still
    posts (its decision then meets the check of what it was made on)."""
    from .review_server import free_port, reviewing

    db, port = tmp_path / "review.sqlite3", free_port()
    with reviewing(db, EXAMPLE, port=port) as base:
        before = csrf_token(base, CELL)
    with reviewing(db, EXAMPLE, port=port) as base:
        assert csrf_token(base, CELL) == before
        status, _, _ = _request(f"{base}/review/decide", urllib.parse.urlencode({**_fields(before), **_seen(base, CELL)}).encode(),
                                {"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 200 and _decision(base, CELL) == "approve"
    other = tmp_path / "other.sqlite3"
    with reviewing(other, EXAMPLE, port=free_port()) as base:
        assert csrf_token(base, CELL) != before  # one queue's token opens no other queue
