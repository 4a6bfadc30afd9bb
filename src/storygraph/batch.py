"""Several scenarios in one run: which paths are scenarios, and how their reports combine.

A file is a scenario.  A folder holding ``scene_states.csv`` is one scenario in the
folder form; any other folder is searched (not recursively beyond one level of folders)
for scenario files (``.csv``, ``.xlsx``, ``.json``, ``.yaml``, ``.yml``; gold files
``*.gold.csv`` are skipped) and folder-form scenarios.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.errors import InputError
from verdicts.tables import path_kind

__all__ = ["expand_paths", "is_folder_scenario", "SCENARIO_SUFFIXES"]

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
    if path.suffix.lower() not in SCENARIO_SUFFIXES or name.endswith(".gold.csv") or name.startswith("."):
        return False
    return _kind(path) != "dir"


def expand_paths(paths: list[Path]) -> list[Path]:
    """The scenarios named by ``paths``, in order, each once.

    Never raises for one path: a path that is missing, cannot be looked at, or is a
    folder without any scenario is kept as it is, and linting it reports why (so that
    one bad path does not stop the others)."""
    out: list[Path] = []
    for path in paths:
        if _kind(path) != "dir" or is_folder_scenario(path):
            out.append(path)
            continue
        try:
            found = sorted(p for p in path.iterdir() if _scenario_entry(p) or is_folder_scenario(p))
        except OSError:
            found = []
        out.extend(found or [path])
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
