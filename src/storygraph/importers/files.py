"""Which files make one story in the formats whose compiler reads a whole folder:
Tweego compiles every ``.twee``/``.tw`` file it is given, and Yarn Spinner compiles a
project's ``.yarn`` files together.  (Kept apart from :mod:`.common` so that telling
whether a folder is a story costs no more than listing it.)"""

from __future__ import annotations

from pathlib import Path

__all__ = ["MULTI_FILE_SUFFIXES", "story_files"]

#: the formats whose compiler reads every file of a folder as one story (Tweego takes
#: every .twee/.tw file it is given, Yarn Spinner compiles a project's .yarn files
#: together), with the names of those files
MULTI_FILE_SUFFIXES = {"twee": (".twee", ".tw", ".twee3", ".tw3"), "yarn": (".yarn",)}


def story_files(folder: str | Path, fmt: str) -> list[Path]:
    """The files of ``folder`` (not its subfolders) that make one ``fmt`` story
    (``twee`` or ``yarn``), sorted by name; hidden files are left out.  Raises
    :class:`OSError` when the folder cannot be listed."""
    suffixes = MULTI_FILE_SUFFIXES[fmt]
    return sorted((p for p in Path(folder).iterdir()
                   if not p.name.startswith(".") and p.name.lower().endswith(suffixes) and not p.is_dir()),
                  key=lambda p: p.name)
