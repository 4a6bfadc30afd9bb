"""Hypothesis strategies shared by the tests of generated scenarios.

A scenario generator refuses plant counts that do not fit its scenes (``ConfigError``,
tested as the refusal it is in ``test_fuzz.py``); a property test draws only requests
that can be built, by sizing the scenes to the plants it drew first.
"""

from __future__ import annotations

from hypothesis import strategies as st

from storygraph.fuzz import KINDS, MENU_KINDS, scenes_needed

__all__ = ["plans", "plant_counts"]


def plant_counts(most: int = 1, kinds: tuple[str, ...] = KINDS, least: int = 0) -> st.SearchStrategy[dict[str, int]]:
    """Counts of each kind in ``kinds`` between ``least`` and ``most`` (the others 0)."""
    return st.fixed_dictionaries({k: st.integers(least, most) if k in kinds else st.just(0) for k in KINDS})


@st.composite
def plans(draw, lo: int, hi: int, plant: st.SearchStrategy[dict[str, int]] | None = None,
          menus: bool = True) -> tuple[int, dict[str, int]]:
    """``(scenes, plant)``: plant counts first, then a scene count between ``lo`` and
    ``hi`` raised to what the plants need (:func:`scenes_needed`), so that every drawn
    request can be built whatever the seed.  ``menus=False`` plants no menu kind."""
    counts = dict(draw(plant if plant is not None else plant_counts()))
    if not menus:
        counts = {k: 0 if k in MENU_KINDS else n for k, n in counts.items()}
    need = scenes_needed(counts)
    return draw(st.integers(max(lo, need), max(hi, need))), counts
