"""Shared checks for the importer tests: rows as tuples, the 'nothing silently
dropped' property, the polite-sentence rule and a real lint of the imported CSV."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from storygraph.conditions import parse_condition
from storygraph.importers import ImportedStory, write_csv
from verdicts.korean import is_polite_sentence

HERE = Path(__file__).resolve().parent
BIN = Path(sys.executable).parent


def branch_rows(story: ImportedStory) -> list[tuple]:
    """(branch_id, from, to, kind, condition_expr, opaque source or None, once_only, source_line)"""
    return [(b.branch_id, b.from_scene, b.to_scene, b.kind, b.condition_expr,
             b.condition_source if b.condition_opaque else None, b.once_only, b.source_line)
            for b in story.branches]


def scene_rows(story: ImportedStory) -> list[tuple]:
    """(scene_id, is_entry, is_ending, available_flags, source_line)"""
    return [(s.scene_id, s.is_entry, s.is_ending, ",".join(s.available_flags), s.source_line) for s in story.scenes]


def flag_rows(story: ImportedStory) -> list[tuple]:
    return [(f.flag, f.type, f.min_value, f.max_value, "|".join(f.values)) for f in story.flags]


def issue_lines(story: ImportedStory) -> list[int | None]:
    return [i.line for i in story.issues]


def import_written(path: Path, text: str) -> ImportedStory:
    """Write ``text`` to ``path`` and import it; the invariants and the import self-check
    (C11) hold."""
    from storygraph.importers import import_story
    from storygraph.importers.selfcheck import import_check

    path.write_text(text, encoding="utf-8")
    story = import_story(path)
    check_invariants(story)
    check = import_check(story)
    assert check is not None and check.passed, check.failed_targets
    return story


def check_invariants(story: ImportedStory) -> None:
    """Every condition parses in our language; every issue is one polite sentence; ids
    are unique; order_no runs 1.. per scene; every branch leaves a known scene."""
    for b in story.branches:
        if b.condition_expr:
            parse_condition(b.condition_expr)
        assert not (b.condition_opaque and b.condition_expr)
        assert b.kind in ("auto", "choice")
    for issue in story.issues:
        assert is_polite_sentence(issue.reason), issue.reason
        assert "이(가)" not in issue.reason and "은(는)" not in issue.reason and "을(를)" not in issue.reason
    ids = [s.scene_id for s in story.scenes]
    assert len(ids) == len(set(ids))
    bids = [b.branch_id for b in story.branches]
    assert len(bids) == len(set(bids))
    per: dict[str, list[int]] = {}
    for b in story.branches:
        per.setdefault(b.from_scene, []).append(b.order_no)
        assert b.from_scene in ids, b
    for orders in per.values():
        assert orders == list(range(1, len(orders) + 1))
    flags = {f.flag for f in story.flags}
    for s in story.scenes:
        for name in s.available_flags:
            assert name in flags, (s.scene_id, name)


def nothing_dropped(story: ImportedStory, text: str, marker: str, skip: str | None = None) -> None:
    """Every line matching ``marker`` (a link, choice or divert) is a branch's line, a
    line a branch stands for (``via_lines``) or an issue's line."""
    covered = {b.source_line for b in story.branches}
    for b in story.branches:
        covered.update(b.via_lines)
    covered.update(i.line for i in story.issues)
    missing = []
    for no, line in enumerate(text.split("\n"), 1):
        if re.search(marker, line) and not (skip and re.search(skip, line)):
            if no not in covered:
                missing.append((no, line))
    assert not missing, f"lines with a way on but no branch and no issue: {missing}"


def lint_loads(story: ImportedStory, tmp_path: Path) -> subprocess.CompletedProcess:
    """Write the union CSV and run the real ``storygraph lint`` on it: it must load and
    judge (exit 0 or 1), never crash or refuse the file."""
    out = tmp_path / "scenario.csv"
    write_csv(story, out)
    proc = subprocess.run([str(BIN / "storygraph"), "lint", str(out), "--quiet", "--jobs", "1", "--format", "json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    return proc
