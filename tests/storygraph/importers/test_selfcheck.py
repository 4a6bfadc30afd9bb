"""The import checks itself (issue 28, item 3): every construct line the format's own
scanner finds in the source — each choice, link, jump, option, divert; each knot,
stitch, passage, label, node — became a branch or a scene of the tables, an input issue
naming that line, or a line accounted for on purpose.  A construct the importer drops,
or a passage it merges into another, fails ``C11`` (``[실패]``, exit 3).

Each format's bundled example passes; then the importer is made to drop one construct
(a branch row) or to merge one scene into another, and the check must name the line."""

from __future__ import annotations

import io
from contextlib import redirect_stderr, redirect_stdout

import pytest

from storygraph.importers import import_story
from storygraph.importers.common import StoryBuilder
from storygraph.importers.selfcheck import IMPORT_CHECK, import_check
from tests.conftest import EXAMPLES

STORIES = {
    "ink": EXAMPLES / "ink" / "lighthouse.ink",
    "twee": EXAMPLES / "twine" / "market.twee",
    "choicescript": EXAMPLES / "choicescript",
    "yarn": EXAMPLES / "yarn" / "ferry.yarn",
}


@pytest.mark.parametrize("fmt", list(STORIES))
def test_the_bundled_example_passes_the_self_check(fmt):
    story = import_story(STORIES[fmt])
    assert story.constructs, f"{fmt}: the format has no construct scanner"
    result = import_check(story)
    assert result.id == IMPORT_CHECK and result.passed, result.failed_targets


def _dropping(monkeypatch, which: str) -> list:
    """Make :meth:`StoryBuilder.finish` drop one branch (the first with a line) or merge
    one scene into the entry; return the dropped row (filled when finish runs)."""
    dropped: list = []
    finish = StoryBuilder.finish

    def lossy(self):
        story = finish(self)
        if which == "branch":
            # a branch that alone stands for a construct line (no other row on its line)
            lines = [(r.source_file, r.source_line) for r in [*story.branches, *story.scenes]]
            victim = next(b for b in story.branches if b.source_line is not None and not b.via_lines
                          and lines.count((b.source_file, b.source_line)) == 1)
            story.branches.remove(victim)
        else:  # a named scene merged into another: its name is gone
            victim = next(s for s in story.scenes if s.source_line is not None and not s.is_entry)
            story.scenes.remove(victim)
            for b in story.branches:  # (its branches now leave from the entry)
                if b.from_scene == victim.scene_id:
                    b.from_scene = next(s.scene_id for s in story.scenes if s.is_entry)
        dropped.append(victim)
        return story

    monkeypatch.setattr(StoryBuilder, "finish", lossy)
    return dropped


@pytest.mark.parametrize("which", ["branch", "scene"])
@pytest.mark.parametrize("fmt", list(STORIES))
def test_a_dropped_construct_fails_the_check_at_its_line(fmt, which, monkeypatch):
    dropped = _dropping(monkeypatch, which)
    story = import_story(STORIES[fmt])
    result = import_check(story)
    victim = dropped[0]
    assert not result.passed
    # every construct line the victim stood for that nothing else accounts for is named
    assert any(t.endswith(f":{victim.source_line}") for t in result.failed_targets), (victim, result.failed_targets)


def test_a_dropped_construct_makes_the_lint_exit_3_with_the_failed_check(monkeypatch):
    from storygraph.cli import main

    _dropping(monkeypatch, "branch")
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["lint", str(STORIES["ink"]), "--quiet", "--jobs", "1"])
    assert code == 3
    assert f"[실패] {IMPORT_CHECK}" in out.getvalue()
    assert IMPORT_CHECK in err.getvalue()
