"""``serve --watch``'s kept worker (issue 20, item 4): the followed file's pages are made
in one worker process that stays between saves, so that what a lint made is kept for the
next (an incremental re-lint); a page maker that errs is reported like any worker's, one
that runs past the time limit is stopped and the next request starts a fresh worker."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from verdicts.errors import VerdictsError
from verdicts.serve import ServerLimits, UploadError, _Kept, _Workers

_CALLS: list[int] = []


def pid_and_calls() -> str:
    """In the worker: its process id and how many times it was asked (kept state)."""
    _CALLS.append(1)
    return f"{os.getpid()} {len(_CALLS)}"


def refuse() -> str:
    raise VerdictsError("읽을 수 없는 시나리오입니다.")


def sleep_long() -> str:
    time.sleep(120)
    return "late"


@pytest.fixture(scope="module")
def workers():
    w = _Workers(ServerLimits(lint_timeout=8.0), ["tests.verdicts.test_serve_kept"])
    w.start()
    yield w
    w.kill_all()


def test_the_kept_worker_stays_and_keeps_its_state(workers, tmp_path: Path):
    kept = _Kept(workers)

    async def go():
        return [await kept.run(pid_and_calls, (), tmp_path) for _ in range(3)]

    try:
        outcomes = asyncio.run(go())
    finally:
        kept.stop()
    assert [kind for kind, _ in outcomes] == ["ok"] * 3
    pids = {text.split()[0] for _, text in outcomes}
    assert len(pids) == 1 and pids != {str(os.getpid())}
    assert [text.split()[1] for _, text in outcomes] == ["1", "2", "3"]


def test_an_error_is_reported_and_a_slow_page_is_stopped(workers, tmp_path: Path):
    kept = _Kept(workers)

    async def go():
        refused = await kept.run(refuse, (), tmp_path)
        first = await kept.run(pid_and_calls, (), tmp_path)
        with pytest.raises(UploadError) as late:
            await kept.run(sleep_long, (), tmp_path)
        again = await kept.run(pid_and_calls, (), tmp_path)
        return refused, first, late.value, again

    try:
        refused, first, late, again = asyncio.run(go())
    finally:
        kept.stop()
    assert refused == ("input", "읽을 수 없는 시나리오입니다.")
    assert "제한 시간" in str(late)
    assert first[0] == again[0] == "ok"
    assert first[1].split()[0] != again[1].split()[0]  # a fresh worker after the stopped one
    assert again[1].split()[1] == "1"


def test_the_watched_page_relints_incrementally(tmp_path: Path):
    """The page maker of ``serve --watch``: the second save of a one-row edit makes again
    only the cards it changes."""
    import shutil

    from storygraph.pages import _watched_page, watched_linter
    from tests.conftest import EXAMPLES

    scenario = tmp_path / "scenario.csv"
    shutil.copy(EXAMPLES / "lighthouse" / "scenario.csv", scenario)
    first = _watched_page(scenario, timeout=10)
    scenario.write_text(scenario.read_text(encoding="utf-8").replace("SC-88", "SC-01", 1), encoding="utf-8")
    second = _watched_page(scenario, timeout=10)
    assert first != second and 'data-live="/events"' in second or "/events" in second
    last = watched_linter(scenario).last
    assert last["cards kept"] > 0 and 0 < last["cards made"] < last["cards kept"]
