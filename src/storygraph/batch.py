"""Several scenarios in one run: which paths are scenarios, and how their reports combine.

A file is a scenario.  A folder holding ``scene_states.csv`` is one scenario in the
folder form; any other folder is searched (not recursively beyond one level of folders)
for scenario files (``.csv``, ``.xlsx``, ``.json``, ``.yaml``, ``.yml``; gold files
``*.gold.csv`` are skipped) and folder-form scenarios.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.errors import InputError

__all__ = ["expand_paths", "is_folder_scenario", "SCENARIO_SUFFIXES"]

SCENARIO_SUFFIXES = {".csv", ".xlsx", ".xlsm", ".json", ".yaml", ".yml"}


def is_folder_scenario(path: Path) -> bool:
    return path.is_dir() and any((path / n).is_file() for n in ("scene_states.csv", "scene_states.CSV"))


def _scenario_file(path: Path) -> bool:
    name = path.name.lower()
    return path.is_file() and path.suffix.lower() in SCENARIO_SUFFIXES and not name.endswith(".gold.csv") and not name.startswith(".")


def expand_paths(paths: list[Path]) -> list[Path]:
    """The scenarios named by ``paths``, in order, each once."""
    out: list[Path] = []
    for path in paths:
        if not path.exists():
            out.append(path)  # reported by the lint of that path, so the others still run
            continue
        if path.is_file() or is_folder_scenario(path):
            out.append(path)
            continue
        found = sorted(p for p in path.iterdir() if _scenario_file(p) or is_folder_scenario(p))
        if not found:
            raise InputError(f"{path}: 폴더에 시나리오 파일({', '.join(sorted(SCENARIO_SUFFIXES))})이나 scene_states.csv가 든 폴더가 없습니다.")
        out.extend(found)
    seen: set[Path] = set()
    unique = []
    for p in out:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique
