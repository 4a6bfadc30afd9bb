"""verdicts.parallel: tasks done in forked children come back in order, and the tasks of a
child that fails are redone in the main process."""

from __future__ import annotations

import os
import time

import pytest

from verdicts.parallel import available_cores, choose_jobs, fork_tasks

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")


def _in_a_fresh_process(code: str, env: dict | None = None) -> str:
    """``code`` run by a new interpreter (no thread but its own, as a command starts; the
    suite's process may hold a browser driver's threads, beside which choose_jobs rightly
    refuses to fork)."""
    import os
    import subprocess
    import sys

    environ = {k: v for k, v in os.environ.items() if k != "VERDICTS_JOBS"}
    environ.update(env or {})
    proc = subprocess.run([sys.executable, "-c", "from verdicts.parallel import choose_jobs, available_cores\n" + code],
                          capture_output=True, text=True, env=environ, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_choice_of_jobs():
    cores = available_cores()
    out = _in_a_fresh_process("print(choose_jobs(100), choose_jobs(100, 2))").split()
    assert out == ["1", str(min(2, cores))]  # small runs are not split; asked for, within the cores
    assert _in_a_fresh_process("print(choose_jobs(100))", {"VERDICTS_JOBS": "2"}).split() == [str(min(2, cores))]
    assert _in_a_fresh_process("print(choose_jobs(10**7))", {"VERDICTS_JOBS": "1"}).split() == ["1"]


def test_no_fork_while_other_threads_run():
    code = ("import threading\n"
            "stop = threading.Event(); thread = threading.Thread(target=stop.wait); thread.start()\n"
            "during = choose_jobs(10**7, 4)\n"
            "stop.set(); thread.join()\n"
            "print(during, choose_jobs(10**7, 4))")
    assert _in_a_fresh_process(code).split() == ["1", str(min(4, available_cores()))]


def test_tasks_come_back_in_order_whichever_process_did_them():
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
    parent = os.getpid()

    def do(t, w):
        if os.getpid() == parent:
            raise ValueError(f"bad task {t}")
        # the child is slow, so this process surely takes a task too (on a busy machine a
        # quick child could take all eight before this process read one)
        time.sleep(0.5)
        return t

    with pytest.raises(ValueError, match="bad task"):
        fork_tasks(2, 8, do)


def test_tasks_without_fork_run_here_in_order():
    assert fork_tasks(1, 5, lambda t, w: (t, w)) == [(t, 0) for t in range(5)]
    with pytest.raises(ValueError, match="at most"):
        fork_tasks(2, 10**6, lambda t, w: t)


@pytest.mark.parametrize("n", [1, 2])
def test_meanwhile_runs_here_before_this_process_takes_a_task(n):
    parent = os.getpid()
    events = []

    def do(t, w):
        if os.getpid() == parent:
            events.append(("task", t))
        return t

    assert fork_tasks(n, 6, do, meanwhile=lambda: events.append(("meanwhile", os.getpid()))) == list(range(6))
    assert events[0] == ("meanwhile", parent)
    assert events.count(("meanwhile", parent)) == 1


def test_a_number_of_processes_asked_for_is_capped_at_the_cores():
    # --jobs 1000000 or VERDICTS_JOBS=1000000 would otherwise fork a million processes
    cores = str(available_cores())
    assert _in_a_fresh_process("print(choose_jobs(10**6, 10**6))").split() == [cores]
    assert _in_a_fresh_process("print(choose_jobs(10**6, None), choose_jobs(10**6, 1))",
                               {"VERDICTS_JOBS": str(10**9)}).split() == [cores, "1"]
