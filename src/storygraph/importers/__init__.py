"""Importers: stories written in ink, Twine/Twee 3, ChoiceScript and Yarn Spinner, read
into the three tables (as union-CSV rows) with ``kind`` on branches and
``source_file``/``source_line`` on scenes and branches.

>>> from storygraph.importers import import_story, write_csv   # doctest: +SKIP
>>> story = import_story("examples/ink/lighthouse.ink")          # doctest: +SKIP
>>> write_csv(story, "scenario.csv")                             # doctest: +SKIP

Every construct an importer cannot translate becomes an
:class:`~verdicts.model.InputIssue` on ``story.issues`` (file, line, a polite Korean
reason); nothing is dropped silently.  See ``docs/importers.md``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from verdicts.errors import InputError

if TYPE_CHECKING:
    from .common import ImportedStory

from .files import MULTI_FILE_SUFFIXES

__all__ = ["FORMATS", "detect", "import_story", "write_csv", "csv_text", "ImportedStory", "SceneRow", "BranchRow",
           "FlagRow", "UNION_COLUMNS"]

_FROM_COMMON = frozenset({"BranchRow", "FlagRow", "ImportedStory", "SceneRow", "UNION_COLUMNS", "csv_text", "write_csv"})


def __getattr__(name: str):
    # the rows, the story and the CSV writer live in .common, imported when first asked
    # for: a lint asks only whether its file is a story (:func:`detect`)
    if name in _FROM_COMMON:
        from . import common

        return getattr(common, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: format names, as ``detect`` returns them and ``--format`` accepts them
FORMATS = ("ink", "ink-json", "twee", "choicescript", "yarn")


def _folder_format(folder: Path) -> str | None:
    """``twee`` or ``yarn`` when every story file of ``folder`` is of that format."""
    try:
        names = [p.name.lower() for p in folder.iterdir() if not p.name.startswith(".") and not p.is_dir()]
    except OSError:
        return None
    found = set()
    for name in names:
        if name.endswith((".ink", ".ink.json")):
            return None
        for fmt, suffixes in MULTI_FILE_SUFFIXES.items():
            if name.endswith(suffixes):
                found.add(fmt)
    return found.pop() if len(found) == 1 else None


def detect(path: str | Path) -> str | None:
    """The format of ``path`` by its extension or shape, or ``None``.

    ``.ink`` → ink; ``.ink.json`` (or a ``.json`` with ``inkVersion``) → ink-json;
    ``.twee``/``.tw`` → twee; ``.yarn`` → yarn; a folder holding ``startup.txt`` (or
    ``scenes/startup.txt``), or a ``startup.txt`` itself → choicescript; a folder whose
    story files are all Twee (or all Yarn) files → twee (yarn): one story of them all;
    an ``.html``/``.htm`` file, or a folder holding one Twine HTML story and no other
    story → twee (the importer reads Twine 2 archive and published HTML, Twine 1
    published HTML, and says so when an HTML file holds no Twine story).
    """
    path = Path(path)
    name = path.name.lower()
    if path.is_dir():
        from .choicescript import has_startup

        if has_startup(path) or has_startup(path / "scenes"):
            return "choicescript"
        found = _folder_format(path)
        if found is None:
            from .twine_html import folder_html

            if folder_html(path) is not None:
                return "twee"
        return found
    if name.endswith(".ink.json"):
        return "ink-json"
    suffix = path.suffix.lower()
    if suffix == ".ink":
        return "ink"
    if suffix in (".twee", ".tw", ".twee3", ".tw3", ".html", ".htm"):
        return "twee"
    if suffix == ".yarn":
        return "yarn"
    if name == "startup.txt":
        return "choicescript"
    if suffix == ".json":
        from verdicts.files import head

        first = head(path, 4096)
        if first is not None and b'"inkVersion"' in first:
            return "ink-json"
    if suffix == ".txt":
        from verdicts.files import head

        first = head(path, 65536)
        if first is not None and (b"*scene_list" in first or b"*choice" in first):
            return "choicescript"
    return None


def import_story(path: str | Path, fmt: str | None = None, **options: Any) -> ImportedStory:
    """Read the story at ``path`` (format ``fmt``, else detected) into an
    :class:`ImportedStory`.  Raises :class:`~verdicts.errors.InputError` when the file
    cannot be read at all or its format is not known; everything else is an issue.

    A folder of Twee files (or of Yarn files) is one story, as Tweego and Yarn Spinner
    compile it: see :func:`storygraph.importers.files.story_files`.

    Options: twee ``ending_tag`` (default ``"ending"``); yarn ``entries``
    (``"unreached"``, the default, or a node title).
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path}: 파일이나 폴더가 없습니다.")
    fmt = fmt or detect(path)
    if fmt is None:
        raise InputError(f"{path}: 어느 형식인지 알 수 없습니다 (.ink, .ink.json, .twee, .tw, Twine의 .html, .yarn, ChoiceScript의 startup.txt나 scenes 폴더를 주세요).")
    if fmt not in FORMATS:
        raise InputError(f"{path}: 알 수 없는 형식(`{fmt}`)이라 읽지 않았습니다 ({', '.join(FORMATS)} 가운데 하나를 주세요).")
    try:
        builder = _builder(path, fmt, options)
    except ValueError as exc:
        # Python converts at most 4,300 digits between text and int
        # (sys.get_int_max_str_digits); an importer reading a literal of more refuses the
        # story here, naming where the number is (docs/security.md)
        if "integer string conversion" not in str(exc):
            raise
        raise InputError(_long_integer(path)) from None
    story = builder.finish()
    # the import checks itself against the format's own line scanner (independent of
    # the importer): storygraph.checks, "the import self-check"
    from importlib import import_module

    scan = getattr(import_module(f".{_MODULES[fmt]}", __name__), "scan_constructs", None)
    if scan is not None:
        story.constructs = scan(path)
    return story


#: the files :func:`_long_integer` looks through (a story's own suffixes)
_SOURCE_SUFFIXES = (".ink", ".json", ".twee", ".tw", ".html", ".htm", ".txt", ".yarn")


def _long_integer(path: Path) -> str:
    """The message for a story holding an integer too long to convert: the first run of
    more than Python's limit of digits in the story's files, by file, line and column."""
    import re
    import sys

    from verdicts.errors import InputError
    from verdicts.files import read_file

    limit = sys.get_int_max_str_digits() or 4300
    files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.suffix.lower() in _SOURCE_SUFFIXES)[:10_000]
    for file in files:
        try:
            data = read_file(file, 64 * 1024 * 1024, "이야기")
        except InputError:  # not a regular file, too large: the import names it
            continue
        for m in re.finditer(rb"[0-9]+", data):
            if m.end() - m.start() > limit:
                line = data.count(b"\n", 0, m.start()) + 1
                column = m.start() - (data.rfind(b"\n", 0, m.start()) + 1) + 1
                return (f"{file}:{line}:{column}: 정수가 {m.end() - m.start():,}자리라 이 이야기를 읽지 않았습니다 "
                        f"(이야기 파일의 정수는 {limit:,}자리까지만 읽습니다).")
    return f"{path}: {limit:,}자리가 넘는 정수가 있어 이 이야기를 읽지 않았습니다."


def _builder(path: Path, fmt: str, options: dict[str, Any]) -> Any:
    """The importer of ``fmt`` run over ``path`` (its builder, not yet finished)."""
    if fmt == "ink":
        from .ink import import_ink
        builder = import_ink(path)
    elif fmt == "ink-json":
        from .ink_json import import_ink_json
        builder = import_ink_json(path)
    elif fmt == "twee":
        from .twee import import_twee, import_twee_folder
        if path.is_dir():
            builder = import_twee_folder(path, ending_tag=options.get("ending_tag", "ending"))
        else:
            builder = import_twee(path, ending_tag=options.get("ending_tag", "ending"))
    elif fmt == "choicescript":
        from .choicescript import import_choicescript
        builder = import_choicescript(path)
    else:
        from .yarn import import_yarn, import_yarn_folder
        if path.is_dir():
            builder = import_yarn_folder(path, entries=options.get("entries", "unreached"))
        else:
            builder = import_yarn(path, entries=options.get("entries", "unreached"))
    return builder


#: the module of each format (each may define ``scan_constructs(path)``)
_MODULES = {"ink": "ink", "ink-json": "ink_json", "twee": "twee", "choicescript": "choicescript", "yarn": "yarn"}
