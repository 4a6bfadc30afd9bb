"""Sharing the per-target half of a large run among the machine's cores.

Python runs one thread of Python code at a time, so a run uses a second core only in a
second process.  :func:`fork_tasks` does ``count`` numbered tasks in ``n`` processes:
this one and children forked from it.  A forked child starts with everything the parent
had built (the loaded tables, the analysis) without copying or pickling it; the task
numbers wait in a pipe, and each process takes the next one whenever it is free, so a
process slowed by a heavy task (or by the machine) does fewer of them and all finish at
about the same time.  A child hands back only its tasks' small picklable results
(through a temporary file); bytes it wrote for the report stay in a file of its own.

If a child fails — it crashed, was killed, or raised — every task it did not bring back
is done again in this process, so a run never loses a task; only speed is lost.
Without ``os.fork`` (Windows) every task is done here, one after the other.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any, Callable

__all__ = ["available_cores", "choose_jobs", "fork_tasks", "MAX_TASKS"]

#: the environment variable that sets the number of processes (``1`` turns forking off)
JOBS_ENV = "VERDICTS_JOBS"


def available_cores() -> int:
    """Cores this process may run on (its CPU affinity where the OS tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def choose_jobs(targets: int, requested: int | None = None, *, min_per_job: int = 1_500) -> int:
    """How many processes to use for ``targets`` cards: ``requested`` (or the
    ``VERDICTS_JOBS`` environment variable) when given, else one per core, but never so
    many that a part has fewer than ``min_per_job`` targets (forking a small run costs
    more than it saves) and never more than the cores — a number asked for too: a
    million processes would only thrash.  Always one where ``os.fork`` is missing or
    other threads are running (a fork copies only the calling thread, and a lock another
    thread held would stay held in the child).

    >>> choose_jobs(1_000, None)
    1
    >>> choose_jobs(1_000, 10**9) <= available_cores()  # (one beside other threads)
    True
    """
    if requested is None:
        env = os.environ.get(JOBS_ENV, "").strip()
        if env.isdigit() and int(env) > 0:
            requested = int(env)
    threading = sys.modules.get("threading")  # no thread was started when it was never imported
    if not hasattr(os, "fork") or (threading is not None and threading.active_count() > 1):
        return 1  # forking a process that runs other threads (a server) is not safe
    if requested is not None:
        return max(1, min(requested, available_cores()))
    return max(1, min(available_cores(), targets // min_per_job))


#: the most tasks :func:`fork_tasks` hands out (their numbers wait in a pipe, whose
#: buffer holds 64 KiB on Linux: 4 bytes a task)
MAX_TASKS = 16_384


def fork_tasks(n: int, count: int, do: Callable[[int, int], Any],
               on_part: Callable[[int, float, float], None] | None = None,
               meanwhile: Callable[[], None] | None = None) -> list[Any]:
    """``[do(0, w), …, do(count-1, w)]``, the tasks shared by ``n`` processes.

    Each process — this one (``w`` = 0) and ``n - 1`` forked children (``w`` = 1 …) —
    takes the next task number from a pipe until none is left, so the tasks are spread
    by how long each actually takes.  ``do(task, w)`` returns a picklable result; ``w``
    tells it which process it runs in (to write to a file of that process's own).  A
    child's results come back when it has no task left.  Every task a child did not
    bring back (it crashed, was killed, or raised) is done again here.  ``on_part(w,
    wall, cpu)`` is told how long each process worked.  ``meanwhile()``, when given,
    runs here before this process takes its first task (work only this process needs
    later, done while the children start on the tasks).
    """
    report = on_part or (lambda w, wall, cpu: None)
    if count > MAX_TASKS:
        raise ValueError(f"{count} tasks: at most {MAX_TASKS} can be shared")
    if n <= 1 or count <= 1 or not hasattr(os, "fork"):
        wall, cpu = time.perf_counter(), time.process_time()
        if meanwhile is not None:
            meanwhile()
        results = [do(t, 0) for t in range(count)]
        report(0, time.perf_counter() - wall, time.process_time() - cpu)
        return results
    # what only a forked run needs
    import pickle
    import signal
    import tempfile
    import traceback

    read_end, write_end = os.pipe()
    os.write(write_end, b"".join(t.to_bytes(4, "little") for t in range(count)))
    os.close(write_end)  # every number is in the pipe: an empty pipe now reads as the end

    def take() -> int | None:
        data = os.read(read_end, 4)  # reads of a pipe do not interleave: each number goes to one reader
        return int.from_bytes(data, "little") if len(data) == 4 else None

    def run(w: int, into: Any) -> tuple[float, float]:
        wall, cpu = time.perf_counter(), time.process_time()
        while (t := take()) is not None:
            into[t] = do(t, w)
        return time.perf_counter() - wall, time.process_time() - cpu

    sys.stdout.flush()
    sys.stderr.flush()
    children: list[tuple[int, int, Any]] = []  # (process number, pid, file)
    brought: dict[int, Any] = {}  # task -> result, from this process and the children
    try:
        for w in range(1, n):
            out = tempfile.TemporaryFile(prefix="verdicts-tasks-")
            pid = os.fork()
            if pid == 0:  # the child: take tasks until none is left, write what it did, leave
                code = 0
                try:
                    # each result is written as soon as its task is done (the pickling is
                    # spread over the run, and nothing piles up here), then how long it took
                    spent: tuple[float, float] | None = run(w, _Written(out, pickle))
                    pickle.dump((None, spent), out, protocol=pickle.HIGHEST_PROTOCOL)
                    out.flush()
                except KeyboardInterrupt:
                    code = 130
                except BaseException:  # noqa: BLE001 - its tasks are redone by the parent
                    code = 1
                    try:
                        sys.stderr.write(f"verdicts: worker process {w} failed; its tasks are redone in the main process\n"
                                         + traceback.format_exc())
                        sys.stderr.flush()
                    except BaseException:  # noqa: BLE001
                        pass
                finally:
                    os._exit(code)
            children.append((w, pid, out))
        if meanwhile is not None:
            meanwhile()
        report(0, *run(0, brought))
    except BaseException:
        for _, pid, _ in children:  # the run fails: the children's work would be thrown away
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:  # pragma: no cover - it already ended
                pass
        raise
    finally:
        for w, pid, out in children:
            _, status = os.waitpid(pid, 0)
            if os.waitstatus_to_exitcode(status) == 0:
                out.seek(0)
                done: dict[int, Any] = {}
                spent = None
                try:
                    while True:
                        t, value = pickle.load(out)
                        if t is None:  # the last record: how long the child worked
                            spent = value
                            break
                        done[t] = value
                except Exception:  # noqa: BLE001 - a truncated file: its tasks are redone
                    done, spent = {}, None
                brought.update(done)
                if spent is not None:
                    report(w, *spent)
            out.close()
        os.close(read_end)
    return [brought[t] if t in brought else do(t, 0) for t in range(count)]


class _Written:
    """Where a forked child puts its results: each ``(task, result)`` is pickled to the
    child's file as soon as it is set."""

    __slots__ = ("out", "pickle")

    def __init__(self, out: Any, pickle: Any):
        self.out, self.pickle = out, pickle

    def __setitem__(self, task: int, result: Any) -> None:
        self.pickle.dump((task, result), self.out, protocol=self.pickle.HIGHEST_PROTOCOL)
