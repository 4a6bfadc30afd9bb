"""The review queue in a real browser (Chromium via Playwright, as the other screens):
approve, correct and reject round-trip to the database and survive a restart; a stale
second decision is refused; a broken event shows its reload state while the rest work;
a whole run is reviewed with the keyboard alone; an empty queue opens the sample run; a
decision sent from a page opened before the cell changed (the server restarted between)
is refused saying what changed, and a decided cell whose values changed returns to the
queue marked, with its old decision; a page that cannot be loaded gives the reload state."""

from __future__ import annotations

import json
import urllib.parse
import urllib.request

import pytest

from .conftest import EXAMPLE, write_form
from .review_server import free_port, reviewing
from .test_review import _copy_example, _rerun

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402


def _cell(base: str, key: str) -> str:
    return f"{base}/review/cell/{urllib.parse.quote(key)}"


def _export(base: str, run: str) -> dict[str, dict]:
    with urllib.request.urlopen(f"{base}/review/export/{run}.json", timeout=30) as resp:
        return {r["field_name"]: r for r in json.loads(resp.read())}


def test_approve_correct_reject_round_trip_and_survive_a_restart(context, tmp_path):
    db = tmp_path / "review.sqlite3"
    page = context.new_page()
    with reviewing(db, EXAMPLE) as base:
        page.goto(_cell(base, "R-20931:ceo_name"))
        expect(page.locator("#phrase")).to_have_text("대표이사 홍길동")
        page.fill("#reviewer", "김검토")
        page.click("#approve")
        expect(page).to_have_url(_cell(base, "R-20931:biz_reg_no"))
        expect(page.locator("#reviewer")).to_have_value("김검토")  # remembered
        page.fill("#new-value", "123-45-67891")
        page.press("#new-value", "Enter")
        expect(page).to_have_url(_cell(base, "R-20931:construction_capacity_krw"))
        page.goto(_cell(base, "R-20931:credit_grade"))
        expect(page.locator("#hedge")).to_contain_text("BBB0")
        page.click("#reject")
        rows = _export(base, "R-20931")
    assert rows["ceo_name"]["decision"] == "approve" and rows["biz_reg_no"]["value"] == "123-45-67891"
    assert rows["credit_grade"]["decision"] == "reject" and rows["credit_grade"]["value"] is None
    with reviewing(db) as base:
        page.goto(f"{base}/review/run/R-20931")
        states = page.locator("#cells .state").all_inner_texts()
        assert states.count("승인") == 1 and states.count("수정") == 1 and states.count("거절") == 1
        page.goto(_cell(base, "R-20931:biz_reg_no"))
        expect(page.locator("#history")).to_contain_text("123-45-67819")
        expect(page.locator("#decided")).to_contain_text("김검토")
        page.goto(f"{base}/review/stats")
        expect(page.locator("#stats-field_name")).to_contain_text("biz_reg_no")


def test_a_stale_second_decision_is_refused(context, tmp_path):
    with reviewing(tmp_path / "review.sqlite3", EXAMPLE) as base:
        first, second = context.new_page(), context.new_page()
        for pg in (first, second):
            pg.goto(_cell(base, "R-20935:credit_valid_until"))
        first.fill("#reviewer", "김검토")
        first.click("#approve")
        second.fill("#reviewer", "이검토")
        second.click("#reject")
        expect(second.locator("#banner")).to_contain_text("김검토 님이")
        assert _export(base, "R-20935")["credit_valid_until"]["decision"] == "approve"


def test_a_broken_event_shows_its_reload_state_while_the_rest_work(context, tmp_path):
    folder = write_form("jsonl", tmp_path)
    events = folder / "worker_outputs.jsonl"
    good = events.read_text(encoding="utf-8")
    lines = good.splitlines()
    lines[1] = lines[1][:60]
    events.write_text("\n".join(lines) + "\n", encoding="utf-8")
    page = context.new_page()
    with reviewing(tmp_path / "review.sqlite3", folder) as base:
        page.goto(f"{base}/review/run/R-20931")
        row = page.locator("#cells tr", has_text="R-20931:ceo_name")
        expect(row.locator(".state")).to_have_text("다시 불러오기")
        page.goto(_cell(base, "R-20931:ceo_name"))
        expect(page.locator("#reload-state")).to_be_visible()
        expect(page.locator("#approve")).to_have_count(0)
        page.goto(_cell(base, "R-20931:company_name"))
        page.fill("#reviewer", "김검토")
        page.click("#approve")
        events.write_text(good, encoding="utf-8")
        page.goto(_cell(base, "R-20931:ceo_name"))
        page.click("#reload")
        expect(page.locator("#verdict")).to_have_text("원문과 맞음")
        expect(page.locator("#approve")).to_be_visible()
        assert _export(base, "R-20931")["company_name"]["decision"] == "approve"


def test_keyboard_only_review_of_a_whole_run(context, tmp_path):
    page = context.new_page()
    with reviewing(tmp_path / "review.sqlite3", EXAMPLE) as base:
        page.goto(_cell(base, "R-20940:company_name"))
        page.focus("#reviewer")
        page.keyboard.type("박검토")
        page.keyboard.press("Tab")  # into the value box
        page.keyboard.type("한결상회")
        page.keyboard.press("Enter")  # correct
        expect(page).to_have_url(_cell(base, "R-20940:ceo_name"))
        for following in ("R-20940:biz_reg_no", "R-20940:credit_grade"):
            page.keyboard.press("a")  # approve, then on to the next waiting cell
            expect(page).to_have_url(_cell(base, following))
        page.keyboard.press("r")
        expect(page).to_have_url(f"{base}/review/run/R-20940")
        rows = _export(base, "R-20940")
        assert [rows[f]["decision"] for f in ("company_name", "ceo_name", "biz_reg_no", "credit_grade")] == \
            ["correct", "approve", "approve", "reject"]
        assert rows["company_name"]["value"] == "한결상회" and all(r["reviewer"] == "박검토" for r in rows.values())
        page.goto(f"{base}/review")
        expect(page.locator("#runs")).not_to_contain_text("R-20940")


def test_n_moves_to_the_next_waiting_cell_and_an_empty_queue_opens_the_sample(context, tmp_path):
    page = context.new_page()
    with reviewing(tmp_path / "review.sqlite3") as base:
        page.goto(f"{base}/review")
        expect(page.locator("#empty")).to_contain_text("검토할 칸이 없습니다")
        page.click("#open-sample")
        expect(page.locator("#runs")).to_contain_text("R-20931")
        page.goto(_cell(base, "R-20931:company_name"))
        page.keyboard.press("n")
        expect(page).to_have_url(_cell(base, "R-20931:ceo_name"))


def test_a_change_between_opening_and_deciding_is_refused_and_the_decided_cell_returns_stale(context, tmp_path):
    folder = _copy_example(tmp_path / "runs")
    db = tmp_path / "review.sqlite3"
    port = free_port()
    decided, opened = context.new_page(), context.new_page()
    with reviewing(db, folder, port=port) as base:
        decided.goto(_cell(base, "R-20931:construction_capacity_krw"))
        decided.fill("#reviewer", "김검토")
        decided.click("#approve")
        expect(decided).to_have_url(_cell(base, "R-20931:credit_grade"))
        opened.goto(_cell(base, "R-20931:biz_reg_no"))  # left open across the change and the restart
        expect(opened.locator("#ai-value")).to_have_text("123-45-67819")
    _rerun(folder, construction_capacity_krw="12034500000", biz_reg_no="123-45-67891")
    with reviewing(db, folder, port=port) as base:  # the reload brings the re-run's values
        opened.click("#approve")
        expect(opened.locator("#banner")).to_contain_text(
            "바뀐 것은 AI 값(`123-45-67819` → `123-45-67891`), 판정(원문 값과 다름 → 원문과 맞음)입니다.")
        expect(opened.locator("#ai-value")).to_have_text("123-45-67891")  # the cell as it is now
        assert _export(base, "R-20931")["biz_reg_no"]["decision"] is None
        opened.click("#approve")  # decided on what it now shows
        expect(opened).to_have_url(_cell(base, "R-20931:construction_capacity_krw"))
        assert _export(base, "R-20931")["biz_reg_no"]["value"] == "123-45-67891"
        # the approved cell is back in the queue, marked, with the old decision and what changed
        decided.goto(f"{base}/review")
        row = decided.locator("#queue tr", has_text="R-20931:construction_capacity_krw")
        expect(row.locator(".state")).to_have_text("값이 바뀌어 다시 검토")
        expect(decided.locator("#queue tbody[data-group='원문과 맞음']")).to_contain_text("R-20931:construction_capacity_krw")
        row.locator("a").click()
        expect(decided.locator("#stale")).to_contain_text("값이 바뀌어 다시 검토")
        expect(decided.locator("#stale-decision")).to_contain_text("김검토 님이")
        expect(decided.locator("#stale-decision")).to_contain_text("AI 값(`약 120억` → `12034500000`)")
        exported = _export(base, "R-20931")["construction_capacity_krw"]
        assert exported["state"] == "stale" and exported["decision"] is None
        assert exported["stale_decision"]["value"] == "약 120억"
        decided.click("#approve")
        expect(decided).not_to_have_url(_cell(base, "R-20931:construction_capacity_krw"))
        exported = _export(base, "R-20931")["construction_capacity_krw"]
        assert exported["state"] == "decided" and exported["value"] == "12034500000"
        assert not decided.console_errors
        assert [e for e in opened.console_errors if "409" not in e] == []  # the refusal's status, and nothing else


def test_a_page_that_cannot_be_loaded_gives_the_reload_state_without_buttons(context, tmp_path):
    folder = _copy_example(tmp_path / "runs")
    pages = folder / "source_pages.csv"
    good = pages.read_text(encoding="utf-8")
    assert "R-20931\t2\t" in good
    pages.write_text(good.replace("R-20931\t2\t", "R-20931\t둘째\t", 1), encoding="utf-8")
    page = context.new_page()
    with reviewing(tmp_path / "review.sqlite3", folder) as base:
        page.goto(f"{base}/review")
        group = page.locator("#queue tbody[data-group='다시 불러오기']")
        expect(group).to_contain_text("R-20931:biz_reg_no")
        page.goto(_cell(base, "R-20931:biz_reg_no"))
        expect(page.locator("#state")).to_have_text("다시 불러오기")
        expect(page.locator("#verdict")).to_have_count(0)
        expect(page.locator("#approve")).to_have_count(0)
        pages.write_text(good, encoding="utf-8")
        page.click("#reload")
        expect(page.locator("#verdict")).to_have_text("원문 값과 다름")
        expect(page.locator("#approve")).to_be_visible()


def test_deciding_works_under_the_pages_policy_and_a_cross_site_form_changes_nothing(context, tmp_path):
    # the page's own script (keys, the remembered reviewer) runs under its
    # Content-Security-Policy, its form carries the server's token; a page of another
    # origin (another port) that posts the same form, as a form or as text/plain, is refused
    import http.server
    import threading
    from functools import partial

    page = context.new_page()
    with reviewing(tmp_path / "review.sqlite3", EXAMPLE) as base:
        response = page.goto(_cell(base, "R-20931:ceo_name"))
        assert "script-src 'sha256-" in response.headers["content-security-policy"]
        assert page.locator('#decide input[name="csrf_token"]').count() == 1
        page.fill("#reviewer", "김검토")
        page.locator("#phrase").click()  # out of the text box: the key goes to the page's script
        page.keyboard.press("a")
        expect(page).to_have_url(_cell(base, "R-20931:biz_reg_no"))
        assert not page.console_errors, page.console_errors  # a blocked script would be reported here
        assert _export(base, "R-20931")["ceo_name"]["decision"] == "approve"

        site = tmp_path / "elsewhere"
        site.mkdir()
        for name, enctype in (("form.html", "application/x-www-form-urlencoded"), ("plain.html", "text/plain")):
            (site / name).write_text(
                f'<!doctype html><form method="post" action="{base}/review/decide" enctype="{enctype}">'
                '<input name="item_key" value="R-20931:biz_reg_no"><input name="action" value="reject">'
                '<input name="reviewer" value="남"><input name="seen" value="0"><input name="csrf_token" value="guess">'
                '</form><script>document.forms[0].submit()</script>', encoding="utf-8")
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), partial(http.server.SimpleHTTPRequestHandler,
                                                                              directory=str(site)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            for name in ("form.html", "plain.html"):
                other = context.new_page()
                with other.expect_response(f"{base}/review/decide") as answer:
                    other.goto(f"http://127.0.0.1:{server.server_address[1]}/{name}")
                assert answer.value.status == 403
                expect(other.locator("#banner")).to_contain_text("다른 사이트의 페이지에서 보낸 요청")
        finally:
            server.shutdown()
            server.server_close()
        assert _export(base, "R-20931")["biz_reg_no"]["decision"] is None
