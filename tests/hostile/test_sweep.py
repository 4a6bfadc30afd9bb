"""The hostile-input sweep (:mod:`tests.hostile.sweep`): by default a bounded slice —
a few hostile files (an output-safety attack, a lone quote, 22 flags each tested once, a
FIFO) through the main entry points; marked slow, every hostile file through every
entry point (``scripts/hostile_sweep.py`` prints the same with the time)."""

from __future__ import annotations

import pytest

from tests.conftest import DEEP
from tests.hostile.sweep import SLICE_ENTRIES, sweep


def _report(runs) -> str:
    bad = [r for r in runs if r.problems]
    return "\n".join(f"{r.file} / {r.entry}: {'; '.join(r.problems)}" for r in bad)


def test_a_slice_of_the_sweep(tmp_path):
    runs = sweep(tmp_path, names=["evil-text", "lone-quote", "flags22", "fifo"], entry_names=SLICE_ENTRIES + ("verdicts run residue", "verdicts grade residue"),
                 server=False)
    assert len(runs) == 4 * (len(SLICE_ENTRIES) + 2)
    assert not any(r.problems for r in runs), _report(runs)


@pytest.mark.slow
@pytest.mark.skipif(not DEEP, reason="the whole sweep takes many minutes: scripts/test.sh --deep (the slice above runs always)")
def test_the_whole_sweep(tmp_path):
    runs = sweep(tmp_path, jobs=2)
    assert len({r.file for r in runs}) >= 20
    assert not any(r.problems for r in runs), _report(runs)
