"""verdicts.parallel: parts done in forked children come back in order, and a part whose
child fails is redone in the main process."""

from __future__ import annotations

import os
import time

import pytest

from verdicts.parallel import choose_jobs, fork_parts

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def test_parts_come_back_in_order_from_other_processes():
    parent = os.getpid()

    def work(i):
        return (i, os.getpid() != parent), [f"part {i}".encode() * (i + 1)]

    results = fork_parts(4, work)
    assert [r[0][0] for r in results] == [0, 1, 2, 3]
    assert [r[0][1] for r in results] == [False, True, True, True]  # part 0 here, the others forked
    assert [r[1] for r in results] == [[b"part 0"], [b"part 1" * 2], [b"part 2" * 3], [b"part 3" * 4]]


def test_a_failed_child_part_is_redone_here(capfd):
    parent = os.getpid()

    def work(i):
        if os.getpid() != parent and i == 1:
            raise RuntimeError("worker broke")
        return (i, os.getpid() == parent), []

    results = fork_parts(3, work)
    assert [r[0] for r in results] == [(0, True), (1, True), (2, False)]
    assert "part 1 failed in a worker process" in capfd.readouterr().err


def test_an_error_in_every_process_reaches_the_caller():
    def work(i):
        raise ValueError(f"bad part {i}")

    with pytest.raises(ValueError, match="bad part"):
        fork_parts(2, work)


def test_choice_of_jobs(monkeypatch):
    monkeypatch.delenv("VERDICTS_JOBS", raising=False)
    assert choose_jobs(100) == 1  # small runs are not split
    assert choose_jobs(100, 2) == 2  # asked for
    monkeypatch.setenv("VERDICTS_JOBS", "3")
    assert choose_jobs(100) == 3
    monkeypatch.setenv("VERDICTS_JOBS", "1")
    assert choose_jobs(10**7) == 1


def test_no_fork_while_other_threads_run(monkeypatch):
    import threading

    monkeypatch.delenv("VERDICTS_JOBS", raising=False)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert choose_jobs(10**7, 4) == 1
    finally:
        stop.set()
        thread.join()
    assert choose_jobs(10**7, 4) == 4



def test_tasks_come_back_in_order_whichever_process_did_them():
    from verdicts.parallel import fork_tasks

    parent = os.getpid()
    seen = []

    def do(t, w):
        seen.append(t)  # only this process's own list grows
        return t * t, w, os.getpid() != parent

    results = fork_tasks(3, 40, do)
    assert [r[0] for r in results] == [t * t for t in range(40)]
    # each result says truthfully where it was made: process 0 is this one
    assert all((w == 0) == (not forked) for _, w, forked in results)
    assert sorted(seen) == [t for t, (_, w, _) in enumerate(results) if w == 0]


def test_tasks_of_a_failed_worker_are_redone_here(capfd):
    from verdicts.parallel import fork_tasks

    parent = os.getpid()

    def do(t, w):
        time.sleep(0.01)  # slow enough that the child takes a task before this process takes them all
        if os.getpid() != parent:
            raise RuntimeError("worker broke")
        return t, os.getpid() == parent

    results = fork_tasks(2, 12, do)
    assert [r[0] for r in results] == list(range(12))
    # the child broke: nothing it did came back, so every task was done (or redone) here
    assert all(here for _, here in results)
    assert "worker process 1 failed" in capfd.readouterr().err


def test_an_error_in_a_task_here_reaches_the_caller():
    from verdicts.parallel import fork_tasks

    parent = os.getpid()

    def do(t, w):
        if os.getpid() == parent:
            raise ValueError(f"bad task {t}")
        return t

    with pytest.raises(ValueError, match="bad task"):
        fork_tasks(2, 8, do)


def test_tasks_without_fork_run_here_in_order():
    from verdicts.parallel import fork_tasks

    assert fork_tasks(1, 5, lambda t, w: (t, w)) == [(t, 0) for t in range(5)]
    with pytest.raises(ValueError, match="at most"):
        fork_tasks(2, 10**6, lambda t, w: t)
