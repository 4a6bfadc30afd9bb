"""Linting a story in its own format: ``storygraph lint story.ink`` (or ``.ink.json``,
``.twee``/``.tw``, a ChoiceScript folder or ``startup.txt``, ``.yarn``, a folder of
Twee files or of Yarn files, read as one story).

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

import re
from pathlib import Path
from typing import TYPE_CHECKING

from verdicts.errors import InputError
from verdicts.files import head as read_head
from verdicts.model import SourceInfo

from .importers import detect
from .importers.files import MULTI_FILE_SUFFIXES

if TYPE_CHECKING:
    from .importers.common import ImportedStory

from .model import Branch, Scenario, Scene

__all__ = ["story_format", "write_story_csv", "point_at_story", "story_entries", "is_story_file", "folder_story",
           "STORY_KINDS"]

#: what a folder of stories may hold, as the messages name it
STORY_KINDS = "`.ink`, `.ink.json`, `.twee`, `.tw`, Twine의 `.html`, `.yarn`, ChoiceScript의 `startup.txt`"
_STORY_SUFFIXES = (".ink", ".ink.json", ".twee", ".tw", ".twee3", ".tw3", ".yarn")
#: HTML files are stories only when they hold a Twine story (:func:`is_story_file`)
_HTML_SUFFIXES = (".html", ".htm")
_INCLUDE = re.compile(rb"^[ \t]*INCLUDE[ \t]+(.+?)[ \t]*$", re.MULTILINE)
#: how much of an .ink file is searched for INCLUDE lines when a folder is listed
_INCLUDE_HEAD = 1 << 20


def story_format(path: Path) -> str | None:
    """The story format of ``path`` (see :func:`storygraph.importers.detect`), or
    ``None`` for a scenario in one of the table forms."""
    if path.suffix.lower() in (".csv", ".xlsx", ".xlsm", ".yaml", ".yml"):
        return None
    try:
        return detect(path)
    except OSError:
        return None


def is_story_file(path: Path) -> bool:
    """A story file by its name (``.ink``, ``.ink.json``, ``.twee``/``.tw``, ``.yarn``),
    or an ``.html``/``.htm`` file that holds a Twine story (by its content)."""
    name = path.name.lower()
    if name.startswith("."):
        return False
    if name.endswith(_HTML_SUFFIXES):
        from .importers.twine_html import is_twine_html

        return is_twine_html(path)
    return name.endswith(_STORY_SUFFIXES)


def story_entries(folder: Path) -> list[Path]:
    """The stories a folder holds, each to be linted on its own: the folder itself when
    it is a ChoiceScript story (``startup.txt`` or ``scenes/startup.txt``), or when it
    holds several Twee files (``.twee``/``.tw``) or several Yarn files — one story of
    them all, as Tweego and Yarn Spinner compile a folder (a folder that also holds
    stories of another format is kept whole too: :func:`folder_story` says why it is
    not read); else every story file in it (sorted), except an ``.ink`` file that another
    ``.ink`` file of the folder ``INCLUDE``s (it is read as part of that story).  Never
    raises."""
    try:
        if detect(folder) == "choicescript":
            return [folder]
        files = sorted(p for p in folder.iterdir() if is_story_file(p) and not p.is_dir())
    except OSError:
        return []
    if _several_of_one(files):
        return [folder]
    included: set[Path] = set()
    for ink in (p for p in files if p.suffix.lower() == ".ink"):
        head = read_head(ink, _INCLUDE_HEAD)
        if head is None:
            continue  # its lint says why
        for m in _INCLUDE.finditer(head):
            try:
                included.add((ink.parent / m.group(1).decode("utf-8", "replace")).resolve())
            except (OSError, RuntimeError, ValueError):
                continue
    return [p for p in files if p.suffix.lower() != ".ink" or _resolved(p) not in included]


def _several_of_one(files: list[Path]) -> list[Path]:
    """The files of the first multi-file format (Twee, Yarn) that has several of them."""
    for suffixes in MULTI_FILE_SUFFIXES.values():
        group = [p for p in files if p.name.lower().endswith(suffixes)]
        if len(group) > 1:
            return group
    return []


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def folder_story(folder: Path, tables: list[Path]) -> Path | None:
    """The one story to read for ``folder`` (which holds the scenario files ``tables``),
    or ``None`` when it holds no story and is read as tables.  Raises
    :class:`~verdicts.errors.InputError` with a Korean message naming what was found
    when the folder holds both tables and stories, several stories, or nothing at all."""
    stories = story_entries(folder)
    if stories and tables:
        # a JSON or YAML document beside a story is a scenario only when it holds one
        # (a project's package.json, a notes file, an engine's record are not)
        tables = [t for t in tables if _may_be_scenario(t)]
    if stories == [folder] and detect(folder) is None:
        # several Twee (or Yarn) files, which make one story, beside stories of another format
        try:
            files = sorted(p for p in folder.iterdir() if is_story_file(p) and not p.is_dir())
        except OSError:
            files = []
        group = _several_of_one(files)
        others = [p for p in files if p not in group]
        kind = "Twee" if group and group[0].name.lower().endswith(MULTI_FILE_SUFFIXES["twee"]) else "Yarn"
        raise InputError(f"{folder}: 폴더에 {kind} 파일 여러 개({_names(group)})와 다른 형식의 이야기 파일({_names(others)})이 "
                         f"함께 있어 읽지 않았습니다. {kind} 파일은 폴더째 한 이야기로 읽으니, 다른 이야기는 다른 폴더로 옮기거나 "
                         "파일을 하나씩 주세요.")
    if stories and tables:
        raise InputError(f"{folder}: 폴더에 시나리오 표({_names(tables)})와 이야기({_names(stories, folder)})가 함께 있어 "
                         "어느 쪽을 읽을지 정하지 않았습니다. 읽을 파일이나 폴더를 따로 주세요.")
    if len(stories) > 1:
        raise InputError(f"{folder}: 폴더에 이야기 파일이 {len(stories)}개({_names(stories)}) 있어 하나만 골라 읽지 않았습니다. "
                         "파일을 하나씩 주거나 `storygraph lint` 명령에 폴더를 주세요.")
    if stories:
        return stories[0]
    if not tables:
        raise InputError(f"{folder}: 폴더에 시나리오 표(`scene_states.csv`, `scenario.csv` 같은 `.csv`, `.xlsx`, `.json`, `.yaml` 파일)도, "
                         f"이야기 파일({STORY_KINDS})도 없습니다.")
    return None


def _may_be_scenario(path: Path) -> bool:
    """Whether a file of a folder may hold scenario tables: a CSV or a workbook, or a
    JSON or YAML document that names the ``scene_states`` table in its first 64 KB."""
    if path.suffix.lower() not in (".json", ".yaml", ".yml"):
        return True
    head = read_head(path, 1 << 16)
    return head is None or b"scene_states" in head  # None: its lint says why it cannot be read


def _names(paths: list[Path], folder: Path | None = None, limit: int = 3) -> str:
    names = []
    for p in paths:
        if p != folder:
            names.append(p.name)
        elif detect(folder) == "choicescript":
            names.append("startup.txt")
        else:  # a folder of Twee or Yarn files: the files
            try:
                names.extend(f.name for f in sorted(folder.iterdir()) if is_story_file(f) and not f.is_dir())
            except OSError:
                names.append(folder.name)
    shown = ", ".join(f"`{n}`" for n in names[:limit])
    return shown + (f" 외 {len(names) - limit}개" if len(names) > limit else "")


def write_story_csv(path: Path, fmt: str, folder: Path) -> tuple[Path, ImportedStory]:
    """Import the story at ``path`` and write its union CSV into ``folder``."""
    from .importers import import_story, write_csv

    story = import_story(path, fmt)
    out = folder / "scenario.csv"
    write_csv(story, out)
    return out, story


def point_at_story(scenario: Scenario, story: ImportedStory, path: Path, csv: Path) -> Scenario:
    """``scenario`` (read from ``csv``) made to point at the story ``path``."""
    name = str(path)
    generated = str(csv)
    where: dict[int, tuple[str, int | None]] = {}
    rows: list[Scene | Branch] = [*scenario.scenes.values(), *scenario.branches]
    for row in rows:
        file = (row.raw.get("source_file") or "").strip()
        line = (row.raw.get("source_line") or "").strip()
        if file:
            where[row.line] = (file, int(line) if line.isdigit() else None)
    issues = []
    for issue in scenario.issues:
        if issue.file == generated:
            file, story_line = where.get(issue.line or -1, (name, None))
            issue = issue.replace(file=file, line=story_line)
        issues.append(issue)
    own = [i if i.file else i.replace(file=name) for i in story.issues]
    scenario.issues = own + issues
    scenario.files = {table: (name if file == generated else file) for table, file in scenario.files.items()}
    scenario.sources = [SourceInfo(file=name, table=s.table, form=story.format, encoding=s.encoding, rows=s.rows)
                        if s.file == generated else s for s in scenario.sources]
    from .importers.selfcheck import import_check

    scenario.import_check = import_check(story)
    return scenario


