"""Issue 32, item 4: regular expressions from data are compiled by a linear-time engine
(RE2, :mod:`verdicts.patterns`).  A catastrophic pattern finishes at once; a construct RE2
cannot run in linear time (a backreference, a lookaround) is an input issue naming the
rule, its file and line; a correction checked against a field's pattern never hangs the
review queue."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from tests.hostile.inputs import assert_clean, run_bounded
from verdicts.extraction.review import ReviewError, ReviewStore
from verdicts.patterns import PatternError, compile_pattern, fullmatches

from .conftest import EXAMPLE, read_example
from .test_bad_input import _row, write

CATASTROPHIC = r"(a+)+$"
VICTIM = "a" * 50 + "b"  # under Python's re: 2^50 ways to split the a's before failing


def _within(seconds: float, work):
    """Run ``work`` in a thread; fail (rather than hang the suite) past ``seconds``."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = work()
        except Exception as exc:  # noqa: BLE001 - handed back to the test
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in out:
        raise out["error"]
    return out.get("value"), time.monotonic() - started


def test_a_catastrophic_field_rule_is_judged_at_once(tmp_path: Path) -> None:
    t = read_example()
    _row(t["field_rules"], field_name="biz_reg_no")["pattern"] = CATASTROPHIC
    _row(t["worker_outputs"], run_id="R-20931", field_name="biz_reg_no")["value"] = VICTIM
    outcome = run_bounded("verdicts", "run", "extraction", write(tmp_path, t), "--format", "json", timeout=60)
    assert_clean(outcome, 1)
    assert outcome.seconds < 30
    card = next(c for c in outcome.json()["cards"] if c["item_key"] == "R-20931:biz_reg_no")
    assert card["verdict"] == "형식이 규칙과 다름"
    assert all(c["passed"] for c in outcome.json()["checks"])


@pytest.mark.parametrize("pattern,said", [(r"^(\d)\1$", "역참조"), (r"^(?P<d>\d)(?P=d)$", "역참조"),
                                          (r"^(?!0)\d+$", "앞뒤 살피기"), (r"^(?<=x)\d$", "앞뒤 살피기")])
def test_a_pattern_re2_cannot_run_is_an_issue_naming_the_rule(tmp_path: Path, pattern: str, said: str) -> None:
    t = read_example()
    _row(t["field_rules"], field_name="biz_reg_no")["pattern"] = pattern
    outcome = run_bounded("verdicts", "run", "extraction", write(tmp_path, t), "--format", "json", timeout=60)
    assert_clean(outcome, 1)
    assert "re2.cc" not in outcome.stderr and outcome.stderr.strip() == ""
    hits = [i for i in outcome.json()["issues"] if i["column"] == "pattern"]
    assert len(hits) == 1
    issue = hits[0]
    assert issue["table"] == "field_rules" and issue["line"] == 4 and issue["file"].endswith("field_rules.csv")
    assert said in issue["reason"] and "`biz_reg_no`" in issue["reason"] and issue["reason"].endswith("니다.")


def test_a_correction_against_a_catastrophic_pattern_is_refused_at_once(tmp_path: Path) -> None:
    folder = tmp_path / "tables"
    folder.mkdir()
    t = read_example()
    _row(t["field_rules"], field_name="construction_capacity_krw")["pattern"] = CATASTROPHIC
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(write(folder, t))
    key = "R-20931:construction_capacity_krw"

    def decide():
        with pytest.raises(ReviewError, match="형식 규칙"):
            store.decide(key, "correct", reviewer="김검토", new_value=VICTIM)

    _, seconds = _within(20, decide)
    assert seconds < 5


def test_python_classes_keep_their_unicode_meaning() -> None:
    assert fullmatches(r"\w+", "한글abc_1") and fullmatches(r"\d+", "１２３") and fullmatches(r"\s", "\u3000")
    assert fullmatches(r"[\w-]+", "가-나") and fullmatches(r"[^\d]+", "ab") and not fullmatches(r"\D", "5")
    assert fullmatches(r"^\d{3}-\d{2}-\d{5}$", "123-45-67891") and not fullmatches(r"^\d{3}-\d{2}-\d{5}$", "123-45-6789")
    assert fullmatches(r"a\Z", "a") and fullmatches(r"[]a]+", "]a]")
    with pytest.raises(PatternError, match="문법"):
        compile_pattern("(")


def test_the_example_rules_compile() -> None:
    for row in read_example()["field_rules"]:
        if row["pattern"]:
            compile_pattern(row["pattern"])
    assert EXAMPLE.is_dir()


def test_a_decision_is_judged_off_the_servers_event_loop(tmp_path: Path) -> None:
    """While one reviewer's correction is being judged (its pattern matched, the database
    written), the queue still answers others: the work runs in a worker thread."""
    import asyncio
    from urllib.parse import urlencode

    from starlette.applications import Starlette

    from verdicts.extraction.review_web import review_routes

    release = threading.Event()
    order: list[str] = []

    class Slow(ReviewStore):
        def decide(self, *args, **kwargs):
            order.append("decide started")
            release.wait(5)
            order.append("decide ended")
            return super().decide(*args, **kwargs)

    store = Slow(tmp_path / "review.sqlite3")
    store.load(EXAMPLE)
    app = Starlette(routes=review_routes(store))

    pages: list[bytes] = []

    async def call(method: str, path: str, body: bytes = b"") -> int:
        scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
                 "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
                 "headers": [(b"content-type", b"application/x-www-form-urlencoded"), (b"host", b"127.0.0.1")],
                 "client": ("127.0.0.1", 1), "server": ("127.0.0.1", 80)}
        sent = False
        status: list[int] = []

        async def receive():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            await asyncio.sleep(3600)

        async def send(message):
            if message["type"] == "http.response.start":
                status.append(message["status"])
            elif message["type"] == "http.response.body":
                pages.append(message.get("body", b""))

        await app(scope, receive, send)
        return status[0]

    async def main() -> None:
        # the cell's page, as a browser opens it first: the form's token and the cell's fingerprint
        import re

        assert await call("GET", "/review/cell/R-20931:biz_reg_no") == 200
        page = b"".join(pages).decode("utf-8")
        hidden = dict(re.findall(r'name="(csrf_token|fingerprint)" value="([^"]*)"', page))
        form = urlencode({"item_key": "R-20931:biz_reg_no", "action": "approve", "reviewer": "김검토", "seen": "0",
                          **hidden}).encode()
        deciding = asyncio.create_task(call("POST", "/review/decide", form))
        while "decide started" not in order:
            await asyncio.sleep(0.01)
        assert await asyncio.wait_for(call("GET", "/review"), 10) == 200
        order.append("queue answered")
        release.set()
        assert await deciding == 303

    asyncio.run(asyncio.wait_for(main(), 30))
    assert order == ["decide started", "queue answered", "decide ended"]
