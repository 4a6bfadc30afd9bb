"""A progress line on stderr for long runs.

It appears only when stderr is a terminal, only once a run has lasted about a second,
and it is redrawn at most ten times a second, so short runs, pipes and CI logs never see
it.  The library reports progress through :class:`Progress`; ``--quiet`` (or a
non-terminal stderr) gives the silent :data:`SILENT` instead.
"""

from __future__ import annotations

import os
import resource
import sys
import time
from typing import TextIO

__all__ = ["Progress", "SILENT", "StageTimes", "for_terminal"]

#: set to 1 to have each stage's wall and CPU time and the peak memory written to stderr
DELAY_ENV = "VERDICTS_PROGRESS_DELAY"
TIMINGS_ENV = "VERDICTS_TIMINGS"


class Progress:
    """Counts of what is done, drawn as one line ``\\r``-rewritten on ``stream``.

    >>> import io
    >>> out = io.StringIO()
    >>> p = Progress(out, delay=0.0, interval=0.0)
    >>> p.start("카드", {"장면": 2, "분기": 3})
    >>> p.advance("장면"); p.advance("분기", 3)
    >>> p.close()
    >>> out.getvalue().split("\\r")[-1].replace("\\x1b[K", "").strip()
    '카드 [################----]  장면 1/2 · 분기 3/3'
    """

    enabled = True

    def __init__(self, stream: TextIO, *, delay: float = 1.0, interval: float = 0.1, width: int = 20):
        self.stream, self.delay, self.interval, self.width = stream, delay, interval, width
        self.began = time.monotonic()
        self.last = 0.0
        self.stage = ""
        self.done: dict[str, int] = {}
        self.total: dict[str, int] = {}
        self.drawn = False

    def start(self, stage: str, totals: dict[str, int] | None = None) -> None:
        """Begin a stage (``읽기``, ``분석``, ``카드`` …) with the totals it counts towards."""
        self.stage = stage
        self.total = dict(totals or {})
        self.done = {k: 0 for k in self.total}
        self._draw(force=True)

    def advance(self, what: str, n: int = 1) -> None:
        self.done[what] = self.done.get(what, 0) + n
        now = time.monotonic()
        if now - self.last >= self.interval:
            self._draw(now=now)

    def part(self, i: int, wall: float, cpu: float) -> None:
        """How long part ``i`` of the stage took in its process (shown only by
        :class:`StageTimes`)."""

    def complete(self) -> None:
        """Count the stage as fully done (parts counted in other processes included)."""
        self.done = dict(self.total)
        self._draw(force=True)

    def _draw(self, force: bool = False, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now - self.began < self.delay:
            return
        if not force and now - self.last < self.interval:
            return
        self.last = now
        done, total = sum(self.done.values()), sum(self.total.values())
        filled = int(self.width * done / total) if total else 0
        bar = f" [{'#' * filled}{'-' * (self.width - filled)}]" if total else ""
        counts = " · ".join(f"{k} {self.done.get(k, 0):,}/{v:,}" for k, v in self.total.items())
        self.stream.write(f"\r{self.stage}{bar}  {counts}\x1b[K" if counts else f"\r{self.stage}…\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Draw the final counts and end the line (only if anything was drawn)."""
        if self.total:
            self._draw(force=True)
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()


class _Silent(Progress):
    enabled = False

    def __init__(self) -> None:  # noqa: D401 - nothing to set up
        pass

    def start(self, stage: str, totals: dict[str, int] | None = None) -> None:
        pass

    def advance(self, what: str, n: int = 1) -> None:
        pass

    def complete(self) -> None:
        pass

    def part(self, i: int, wall: float, cpu: float) -> None:
        pass

    def close(self) -> None:
        pass


#: the progress that shows nothing
SILENT: Progress = _Silent()


class StageTimes(_Silent):
    """Instead of a bar, one line per finished stage: wall seconds, CPU seconds of this
    process and its peak resident memory (what guided the work logged in benchmarks/LOG.md).
    Chosen by ``VERDICTS_TIMINGS=1``.

    >>> import io
    >>> out = io.StringIO()
    >>> t = StageTimes(out); t.start("읽기"); t.start("분석"); t.close()
    >>> [line.split()[0] for line in out.getvalue().splitlines()]
    ['읽기', '분석']
    """

    enabled = True

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.stage: str | None = None

    def _end(self) -> None:
        if self.stage is not None:
            wall, cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            self.stream.write(f"{self.stage} {wall:.2f} s (CPU {cpu:.2f} s), peak {peak:.0f} MB\n")
            self.stream.flush()

    def start(self, stage: str, totals: dict[str, int] | None = None) -> None:
        self._end()
        self.stage, self.wall, self.cpu = stage, time.perf_counter(), time.process_time()

    def part(self, i: int, wall: float, cpu: float) -> None:
        self.stream.write(f"  {self.stage}: part {i} {wall:.2f} s (CPU {cpu:.2f} s)\n")

    def close(self) -> None:
        self._end()
        self.stage = None


def for_terminal(quiet: bool = False, stream: TextIO | None = None) -> Progress:
    """A :class:`Progress` on stderr when it is a terminal and not ``quiet``, else
    :data:`SILENT`; :class:`StageTimes` when ``VERDICTS_TIMINGS`` is set."""
    stream = sys.stderr if stream is None else stream
    if os.environ.get(TIMINGS_ENV, "").strip() not in ("", "0"):
        return StageTimes(stream)
    if quiet or not getattr(stream, "isatty", lambda: False)():
        return SILENT
    try:  # how long a run goes unseen before the line appears (tests set it to 0)
        delay = max(0.0, float(os.environ.get(DELAY_ENV, "1.0")))
    except ValueError:
        delay = 1.0
    return Progress(stream, delay=delay)
