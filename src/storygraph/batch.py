"""Several scenarios in one run: which paths are scenarios, and how their reports combine.

A file is a scenario (or a story in its own format).  A folder holding
``scene_states.csv`` is one scenario in the folder form, and a folder holding a
ChoiceScript ``startup.txt`` (or ``scenes/startup.txt``) is one story; any other folder
is searched (not recursively beyond one level of folders) for scenario files (``.csv``,
``.xlsx``, ``.json``, ``.yaml``, ``.yml``; gold files ``*.gold.csv`` are skipped), story
files (``.ink`` — not one that another ``.ink`` there includes —, ``.ink.json``,
``.twee``/``.tw``, ``.yarn``: :func:`storygraph.stories.story_entries`), folder-form
scenarios and ChoiceScript folders.  A folder whose own files are both scenario tables
and stories, or neither, is kept as it is: its lint says so in Korean.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.errors import InputError
from verdicts.files import path_kind

from .stories import is_story_file, story_entries

__all__ = ["expand_paths", "is_folder_scenario", "table_files", "SCENARIO_SUFFIXES"]

SCENARIO_SUFFIXES = {".csv", ".xlsx", ".xlsm", ".json", ".yaml", ".yml"}


def _kind(path: Path) -> str:
    """:func:`verdicts.tables.path_kind`, with ``"unreadable"`` for a path that cannot
    even be looked at (its lint says why)."""
    try:
        return path_kind(path)
    except InputError:
        return "unreadable"


def is_folder_scenario(path: Path) -> bool:
    return _kind(path) == "dir" and any(_kind(path / n) != "missing" for n in ("scene_states.csv", "scene_states.CSV"))


def _scenario_entry(path: Path) -> bool:
    """A file of a searched folder that is a scenario by its name; one that is not a
    regular file (a FIFO, a symbolic-link loop) is kept too, so that its lint says why
    it cannot be read instead of it being skipped without a word."""
    name = path.name.lower()
    if path.suffix.lower() not in SCENARIO_SUFFIXES or name.endswith(".gold.csv") or name.startswith(".") or is_story_file(path):
        return False
    return _kind(path) != "dir"


def _is_story_folder(path: Path) -> bool:
    """A ChoiceScript story: one folder, one story."""
    return _kind(path) == "dir" and story_entries(path) == [path]


def table_files(folder: Path) -> list[Path]:
    """The scenario files directly in ``folder`` (sorted; never raises)."""
    try:
        return sorted(p for p in folder.iterdir() if _scenario_entry(p))
    except OSError:
        return []


def expand_paths(paths: list[Path]) -> list[Path]:
    """The scenarios named by ``paths``, in order, each once.

    Never raises for one path: a path that is missing, cannot be looked at, or is a
    folder without any scenario is kept as it is, and linting it reports why (so that
    one bad path does not stop the others)."""
    out: list[Path] = []
    for path in paths:
        if _kind(path) != "dir" or is_folder_scenario(path) or _is_story_folder(path):
            out.append(path)
            continue
        try:
            folders = [p for p in path.iterdir() if _kind(p) == "dir" and (is_folder_scenario(p) or _is_story_folder(p))]
        except OSError:
            folders = []
        tables, stories = table_files(path), story_entries(path)
        if tables and stories:
            out.append(path)  # tables and stories side by side: its lint says which is which
            continue
        out.extend(sorted(tables + stories + folders) or [path])
    seen: set[Path] = set()
    unique = []
    for p in out:
        try:
            key = p.resolve()
        except (OSError, RuntimeError):  # a symbolic-link loop (RuntimeError before Python 3.13)
            key = p.absolute()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique
