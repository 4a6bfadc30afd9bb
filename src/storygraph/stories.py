"""Linting a story in its own format: ``storygraph lint story.ink`` (or ``.ink.json``,
``.twee``/``.tw``, a ChoiceScript folder or ``startup.txt``, ``.yarn``).

The story is imported (:mod:`storygraph.importers`) into a union CSV in a temporary
folder, which :func:`storygraph.loading.load_scenario` reads as any scenario; then the
scenario is made to point at the story, not at the generated file: the tables' file is
the story, an input issue on a row that carries ``source_file``/``source_line`` points
at that line, the importer's own issues come first.  (The cards, findings and SARIF
locations of such rows point at the story through the same columns: see
``docs/choices.md``.)

:mod:`storygraph.loading` calls this module, never the other way round.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.model import SourceInfo

from .importers import ImportedStory, detect, import_story, write_csv

from .model import Scenario

__all__ = ["story_format", "write_story_csv", "point_at_story"]


def story_format(path: Path) -> str | None:
    """The story format of ``path`` (see :func:`storygraph.importers.detect`), or
    ``None`` for a scenario in one of the table forms."""
    if path.suffix.lower() in (".csv", ".xlsx", ".xlsm", ".yaml", ".yml"):
        return None
    try:
        return detect(path)
    except OSError:
        return None


def write_story_csv(path: Path, fmt: str, folder: Path) -> tuple[Path, ImportedStory]:
    """Import the story at ``path`` and write its union CSV into ``folder``."""
    story = import_story(path, fmt)
    out = folder / "scenario.csv"
    write_csv(story, out)
    return out, story


def point_at_story(scenario: Scenario, story: ImportedStory, path: Path, csv: Path) -> Scenario:
    """``scenario`` (read from ``csv``) made to point at the story ``path``."""
    name = str(path)
    generated = str(csv)
    where: dict[int, tuple[str, int | None]] = {}
    for row in [*scenario.scenes.values(), *scenario.branches]:
        file = (row.raw.get("source_file") or "").strip()
        line = (row.raw.get("source_line") or "").strip()
        if file:
            where[row.line] = (file, int(line) if line.isdigit() else None)
    issues = []
    for issue in scenario.issues:
        if issue.file == generated:
            file, line = where.get(issue.line or -1, (name, None))
            issue = issue.replace(file=file, line=line)
        issues.append(issue)
    own = [i if i.file else i.replace(file=name) for i in story.issues]
    scenario.issues = own + issues
    scenario.files = {table: (name if file == generated else file) for table, file in scenario.files.items()}
    scenario.sources = [SourceInfo(file=name, table=s.table, form=story.format, encoding=s.encoding, rows=s.rows)
                        if s.file == generated else s for s in scenario.sources]
    return scenario


