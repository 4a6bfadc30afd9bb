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

__all__ = ["Progress", "SILENT", "StageTimes", "for_terminal", "STAGE_WORDS", "display_width", "elapsed_words"]

#: set to 1 to have each stage's wall and CPU time and the peak memory written to stderr
DELAY_ENV = "VERDICTS_PROGRESS_DELAY"
TIMINGS_ENV = "VERDICTS_TIMINGS"


#: what each stage is called on the progress line, in plain words
STAGE_WORDS = {
    "읽기": "파일 읽는 중",
    "분석": "길과 조건 살피는 중",
    "발견": "린트 발견 찾는 중",
    "카드 준비": "판정 준비 중",
    "카드": "판정 카드 만드는 중",
    "자동 검증": "자동 검증 중",
    "쓰기": "보고서 쓰는 중",
}


def display_width(text: str) -> int:
    """Columns ``text`` takes on a terminal (Hangul and other wide characters: two)."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


def elapsed_words(seconds: float) -> str:
    """``12초``, ``3분 5초``, ``1시간 2분``.

    >>> elapsed_words(4.2), elapsed_words(185), elapsed_words(3720)
    ('4초', '3분 5초', '1시간 2분')
    """
    s = int(seconds)
    if s < 60:
        return f"{s}초"
    if s < 3600:
        return f"{s // 60}분 {s % 60}초"
    return f"{s // 3600}시간 {s % 3600 // 60}분"


def _columns(stream: TextIO) -> int:
    import shutil

    try:
        columns = os.get_terminal_size(stream.fileno()).columns
    except (AttributeError, OSError, ValueError):
        columns = shutil.get_terminal_size((80, 24)).columns
    return max(20, columns or 80)


class Progress:
    """One line on ``stream``, ``\\r``-rewritten: the stage in plain words, the percent
    done, the elapsed time, then (as the terminal's width allows) the counts and a bar.
    The line never wraps (it is cut to the terminal's width, 50 columns included) and
    is erased when the run ends.

    >>> import io
    >>> out = io.StringIO()
    >>> p = Progress(out, delay=0.0, interval=0.0, columns=80)
    >>> p.start("카드", {"장면": 2, "분기": 3})
    >>> p.advance("장면"); p.advance("분기", 3)
    >>> out.getvalue().split("\\r")[-1].replace("\\x1b[K", "")
    '판정 카드 만드는 중 80% · 0초 · 장면 1/2 · 분기 3/3 [################----]'
    >>> p.close(); out.getvalue().endswith("\\r\\x1b[K")
    True
    """

    enabled = True

    def __init__(self, stream: TextIO, *, delay: float = 1.0, interval: float = 0.1, width: int = 20, columns: int | None = None):
        self.stream, self.delay, self.interval, self.width = stream, delay, interval, width
        self.columns = columns
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

    def line(self, now: float) -> str:
        """The progress line as it fits the terminal (without control characters)."""
        done, total = sum(self.done.values()), sum(self.total.values())
        stage = STAGE_WORDS.get(self.stage, self.stage)
        head = f"{stage} {min(100, int(100 * done / total))}%" if total else f"{stage}…"
        head += f" · {elapsed_words(now - self.began)}"
        counts = " · ".join(f"{k} {self.done.get(k, 0):,}/{v:,}" for k, v in self.total.items())
        filled = int(self.width * done / total) if total else 0
        bar = f"[{'#' * filled}{'-' * (self.width - filled)}]" if total else ""
        room = (self.columns or _columns(self.stream)) - 1
        for candidate in (" · ".join(p for p in (head, counts) if p) + (f" {bar}" if bar else ""),
                          " · ".join(p for p in (head, counts) if p), head):
            if display_width(candidate) <= room:
                return candidate
        cut = ""
        for ch in head:
            if display_width(cut + ch) > room - 1:
                return cut + "…"
            cut += ch
        return cut

    def _draw(self, force: bool = False, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if now - self.began < self.delay:
            return
        if not force and now - self.last < self.interval:
            return
        self.last = now
        self.stream.write(f"\r{self.line(now)}\x1b[K")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        """Erase the line (only if anything was drawn): the report follows on a clean
        terminal."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = False


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
        self.stage = None  # type: ignore[assignment]  # no stage running (None here; the bar starts from "")

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
        self.stage = None  # type: ignore[assignment]  # no stage running (see __init__)


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
