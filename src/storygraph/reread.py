"""Reading a scenario again after an edit, one changed row at a time.

:class:`Reread` keeps the lines of a scenario written as one CSV file (the union of the
three tables) and the :class:`~storygraph.model.Scenario` read from them.  When the file
is read again with the same header and the same number of lines, only the lines that
changed are read (each through the same reader, splitter and typing as a full read:
:func:`verdicts.tables.read_csv_text`, :func:`storygraph.loading.split_union`,
:func:`verdicts.tables.type_table`); the unchanged scenes and branches are the very
objects of the last read, so what is made of them later can be kept by identity.

Anything else is read in full (:func:`storygraph.loading.load_scenario`): another form,
another encoding than plain UTF-8, line ends with ``\\r``, a quoted cell over several
lines anywhere in the file, a line added or removed, a changed header, a changed
``flag_spec`` row, a row that changes table or id, and a changed row that had or has an
input issue (a bad cell, a duplicate id …).  The scenario is the same either way; the
property test ``tests/storygraph/test_incremental.py`` checks the reports.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from verdicts.model import InputIssue
from verdicts.tables import read_csv_text, type_table

from .loading import UNION, branch_of, load_scenario, scene_of, split_union
from .model import TABLE_SPECS, Branch, Scenario, Scene
from .stories import story_format

__all__ = ["Reread", "Changes"]

#: past this many changed lines the file is read in full (reading row by row costs more)
MOST_LINES = 200

_SPECS = {spec.name: spec for spec in TABLE_SPECS}


@dataclass
class Changes:
    """What a read changed against the last one: ``None`` for ``scenes`` and
    ``branches`` when everything may have (a full read)."""

    #: scene id -> ``(old, new)`` Scene objects of the scene rows that changed
    scenes: dict[str, tuple[Scene, Scene]] | None = None
    #: ``(old, new)`` Branch objects of the branch rows that changed
    branches: list[tuple[Branch, Branch]] | None = None

    @property
    def full(self) -> bool:
        return self.scenes is None


@dataclass
class _Kept:
    path: str
    lines: list[str]
    scenario: Scenario
    #: line -> index in ``scenario.branches``
    branch_at: dict[int, int] = field(default_factory=dict)
    #: lines with an input issue of the reading
    issue_lines: frozenset = frozenset()


class Reread:
    """Read a scenario, again and again, reading only the changed rows when it can."""

    def __init__(self) -> None:
        self._kept: _Kept | None = None
        #: how the last read went: ``"full"``, ``"rows"`` (with how many) or ``"same"``
        self.last: str = ""

    def read(self, path: str | Path) -> tuple[Scenario, Changes]:
        """The scenario at ``path`` and what changed since the last read."""
        path = Path(path)
        kept = self._kept
        if kept is not None and kept.path == str(path):
            got = self._rows(kept, path)
            if got is not None:
                return got
        self._kept = None
        self.last = "full"
        before = _text(path)
        scenario = load_scenario(path)
        if before is not None and story_format(path) is None and _one_csv(scenario, str(path)):
            after = _text(path)
            lines = before.split("\n")
            # every line holds whole records only when no line has an odd number of quotes
            if after == before and all(line.count('"') % 2 == 0 for line in lines if '"' in line):
                self._kept = _Kept(str(path), lines, scenario, {b.line: i for i, b in enumerate(scenario.branches)},
                                   frozenset(i.line for i in scenario.issues if i.line is not None))
        return scenario, Changes()

    def _rows(self, kept: _Kept, path: Path) -> tuple[Scenario, Changes] | None:
        text = _text(path)
        if text is None:
            return None
        lines = text.split("\n")
        old = kept.lines
        if len(lines) != len(old) or lines[0] != old[0]:
            return None
        changed = [i for i, (x, y) in enumerate(zip(lines, old)) if x != y]
        if not changed:
            self.last = "same"
            return kept.scenario, Changes({}, [])
        if len(changed) > MOST_LINES:
            return None
        sc = kept.scenario
        scenes: dict[str, tuple[Scene, Scene]] = {}
        branches: list[tuple[Branch, Branch, int]] = []
        for i in changed:
            if lines[i].count('"') % 2:
                return None
            line = i + 1
            if line in kept.issue_lines:
                return None
            new = _one_row(lines[0], lines[i], line, kept.path)
            if new is None:
                return None
            if isinstance(new, Scene):
                was = sc.scenes.get(new.scene_id)
                if was is None or was.line != line:
                    return None
                scenes[new.scene_id] = (was, new)
            else:
                at = kept.branch_at.get(line)
                if at is None or sc.branches[at].branch_id != new.branch_id:
                    return None
                branches.append((sc.branches[at], new, at))
        scene_map = sc.scenes
        if scenes:
            scene_map = dict(scene_map)
            for sid, (_, new) in scenes.items():
                scene_map[sid] = new
        branch_list = sc.branches
        if branches:
            branch_list = list(branch_list)
            for _, new, at in branches:
                branch_list[at] = new
        scenario = replace(sc, scenes=scene_map, branches=branch_list, issues=list(sc.issues))
        kept.lines, kept.scenario = lines, scenario
        self.last = f"rows {len(changed)}"
        return scenario, Changes(scenes, [(o, n) for o, n, _ in branches])


def _text(path: Path) -> str | None:
    """The file as plain UTF-8 text with ``\\n`` line ends, else ``None``."""
    from verdicts.errors import InputError
    from verdicts.files import read_file
    from verdicts.tables import MAX_INPUT_BYTES

    try:
        data = read_file(path, MAX_INPUT_BYTES, "CSV")
    except InputError:  # the full reading says why
        return None
    if data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")) or b"\r" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _one_csv(scenario: Scenario, path: str) -> bool:
    """Whether the scenario was read from the one CSV file ``path``, as UTF-8."""
    return (path.lower().endswith(".csv") and bool(scenario.sources)
            and all(s.file == path and s.form == "csv" and s.encoding == "utf-8" for s in scenario.sources))


def _one_row(header: str, text: str, line: int, file: str) -> Scene | Branch | None:
    """The scene or branch of one changed line, read as a full read reads it; ``None``
    when the line is blank, is a flag, or has an input issue."""
    issues: list[InputIssue] = []
    union = read_csv_text(header + "\n" + text, file, UNION, issues)
    if issues or len(union.rows) != 1:
        return None
    union.rows[0].line = line
    for name, raw in split_union(union).items():
        if not raw.rows:
            continue
        if name == "flag_spec":
            return None
        typed = type_table(raw, _SPECS[name], issues)
        if typed.rejected or len(typed.rows) != 1 or any(i.line == line for i in issues):
            return None
        row = typed.rows[0]
        if name == "scene_states":
            return scene_of(row) if typed.has("scene_id") else None
        if not all(typed.has(c) for c in ("branch_id", "from_scene", "to_scene")):
            return None
        made = branch_of(row, typed, issues)
        return None if issues and any(i.line == line for i in issues) else made
    return None
