"""Small helpers that keep large runs fast.

A lint of 100,000 scenes builds millions of small objects (rows, cards, evidence) and
frees almost none of them until the end.  CPython's cyclic garbage collector is
triggered by allocations and, in its oldest generation, walks every live object: on
such a run it kept re-walking a heap that only grows, and took about a third of the
time.  None of these objects form reference cycles that need collecting during the run,
so the collector is paused while a run builds its report and resumed afterwards.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator

__all__ = ["without_gc"]


@contextmanager
def without_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block (reference counting still
    frees memory as usual); it is re-enabled afterwards if it was enabled before.

    >>> import gc
    >>> with without_gc():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if not gc.get_freeze_count():
                # every object made in the block is still in the youngest generation: the
                # first allocation after gc.enable() would walk them all (a third of a
                # second at 10,000 scenes).  Freezing and unfreezing moves them to the
                # oldest generation at once, so that walk waits for the next full
                # collection, which a short command never reaches.  (Skipped when some
                # caller keeps objects frozen on purpose: unfreezing would undo that.)
                gc.freeze()
                gc.unfreeze()
            gc.enable()
