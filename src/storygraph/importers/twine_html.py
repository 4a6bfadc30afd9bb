"""Twine stories kept as HTML: a Twine 2 archive or published story (``<tw-storydata>``
with ``<tw-passagedata>`` children) and a Twine 1 published story (``<div tiddler=…>``
inside ``<div id="storeArea">``).

:func:`is_twine_html` tells, cheaply and without importing the importers, whether a file
is such a story (for :func:`storygraph.importers.detect` and the folder listings);
:func:`read_html_story` reads the passages out of the HTML for :mod:`.twee`, each with the
line of the HTML file that every line of its text stands on.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["HTML_SUFFIXES", "is_twine_html", "folder_html", "looks_like_html", "read_html_story", "HtmlPassage",
           "HtmlStory"]

HTML_SUFFIXES = (".html", ".htm")
#: what marks a Twine story in the bytes of an HTML file (lower-cased)
_MARKS = (b"<tw-storydata", b'id="storearea"', b"id='storearea'", b'id="store-area"', b"id='store-area'")
_CHUNK = 1 << 20
#: the same bound as :data:`.common.MAX_STORY_BYTES` (kept here so that asking costs no import)
_MAX_BYTES = 16 * 1024 * 1024


def is_twine_html(path: str | Path) -> bool:
    """``path`` is an ``.html``/``.htm`` file holding a Twine story (Twine 2
    ``<tw-storydata>``, Twine 1 ``storeArea``).  Never raises."""
    path = Path(path)
    if not path.name.lower().endswith(HTML_SUFFIXES):
        return False
    from verdicts.errors import InputError
    from verdicts.files import open_file

    try:
        with open_file(path) as fh:
            tail = b""
            read = 0
            while read < _MAX_BYTES:
                chunk = fh.read(_CHUNK)
                if not chunk:
                    return False
                read += len(chunk)
                window = (tail + chunk).lower()
                if any(mark in window for mark in _MARKS):
                    return True
                tail = window[-32:]
    except (OSError, InputError):  # not a regular file: its reading says why
        return False
    return False


#: names of story files of the other formats (a folder holding one is not an HTML story's)
_OTHER_STORIES = (".ink", ".ink.json", ".twee", ".tw", ".twee3", ".tw3", ".yarn")


def folder_html(folder: str | Path) -> Path | None:
    """The one Twine HTML story of ``folder`` when it holds no other story file (not
    its subfolders; hidden files left out), else ``None``.  Never raises."""
    try:
        files = [p for p in Path(folder).iterdir() if not p.name.startswith(".") and not p.is_dir()]
    except OSError:
        return None
    if any(p.name.lower().endswith(_OTHER_STORIES) for p in files) or any(p.name.lower() == "startup.txt" for p in files):
        return None
    found = [p for p in files if is_twine_html(p)]
    return found[0] if len(found) == 1 else None


def looks_like_html(text: str) -> bool:
    """The text of a file given as a Twine story is HTML: an HTML document, or one that
    holds Twine story data (a Twee file has neither)."""
    head = text[:4096].lstrip().lower()
    if head.startswith(("<!doctype", "<html", "<tw-storydata")):
        return True
    low = text.lower()
    return "<tw-storydata" in low or any(mark.decode() in low for mark in _MARKS[1:])


@dataclass
class HtmlPassage:
    name: str
    tags: list[str]
    #: the line of the passage's tag
    line: int
    #: the passage text, HTML-unescaped
    body: str
    #: the line of the HTML file each line of ``body`` stands on
    lines: list[int]
    pid: str = ""


@dataclass
class HtmlStory:
    name: str
    format: str
    format_version: str
    start: str | None
    #: the line of ``<tw-storydata>`` (Twine 1: of the store area)
    line: int
    passages: list[HtmlPassage] = field(default_factory=list)
    #: the story's JavaScript (``<script role="script">``): ``(line, text, lines)``
    scripts: list[HtmlPassage] = field(default_factory=list)
    #: ``startnode`` names no passage (the pid as written)
    start_missing: str | None = None
    twine1: bool = False


_STORY = re.compile(r"<tw-storydata\b([^<>]*)>", re.I)
_STORY_END = re.compile(r"</tw-storydata\s*>", re.I)
_PASSAGE = re.compile(r"<tw-passagedata\b([^<>]*)>(.*?)</tw-passagedata\s*>", re.I | re.S)
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.I | re.S)
_ATTR = re.compile(r"""([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+)))?""")
_STORE = re.compile(r"""<div\b[^>]*\bid\s*=\s*["'](?:storeArea|store-area)["'][^>]*>""", re.I)
_TIDDLER = re.compile(r"<div\b([^<>]*\btiddler\s*=[^<>]*)>(.*?)</div\s*>", re.I | re.S)


def _attrs(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in _ATTR.finditer(text):
        value = next((g for g in m.group(2, 3, 4) if g is not None), "")
        out.setdefault(m.group(1).lower(), html.unescape(value))
    return out


class _Lines:
    """Line numbers of offsets in one text."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1


def _unescaped(raw: str, first_line: int) -> tuple[str, list[int]]:
    """``raw`` (HTML-escaped text starting on ``first_line``) unescaped, with the file
    line of each of its lines (an escaped line break stays on its line)."""
    out: list[str] = []
    lines: list[int] = []
    for k, part in enumerate(raw.split("\n")):
        pieces = html.unescape(part).replace("\r\n", "\n").replace("\r", "\n").split("\n")
        out.extend(pieces)
        lines.extend([first_line + k] * len(pieces))
    return "\n".join(out), lines


def read_html_story(text: str) -> list[HtmlStory]:
    """Every Twine story in ``text`` (an archive holds several; a published story one),
    Twine 2 first; an empty list when the HTML holds none."""
    where = _Lines(text)
    stories: list[HtmlStory] = []
    for m in _STORY.finditer(text):
        attrs = _attrs(m.group(1))
        if not {"name", "startnode", "ifid", "format"} & set(attrs):
            continue  # the words of a story format's code, not a story
        end = _STORY_END.search(text, m.end())
        stop = end.start() if end else len(text)
        story = HtmlStory(attrs.get("name", ""), attrs.get("format", ""), attrs.get("format-version", ""), None,
                          where.line(m.start()))
        pids: dict[str, str] = {}
        for pm in _PASSAGE.finditer(text, m.end(), stop):
            pa = _attrs(pm.group(1))
            first = where.line(pm.start(2))
            body, lines = _unescaped(pm.group(2), first)
            passage = HtmlPassage(pa.get("name", ""), pa.get("tags", "").split(), where.line(pm.start()), body, lines,
                                  pa.get("pid", ""))
            story.passages.append(passage)
            pids.setdefault(passage.pid, passage.name)
        for sm in _SCRIPT.finditer(text, m.end(), stop):
            body, lines = _unescaped(sm.group(2), where.line(sm.start(2)))
            story.scripts.append(HtmlPassage("Story JavaScript", ["script"], where.line(sm.start()), body, lines))
        start = attrs.get("startnode", "")
        if start:
            story.start = pids.get(start)
            if story.start is None:
                story.start_missing = start
        stories.append(story)
    if stories:
        return stories
    store = _STORE.search(text)
    if store is None:
        return []
    lower = text[:200_000].lower()
    fmt = "SugarCube" if "sugarcube" in lower else "Sugarcane"
    story = HtmlStory("", fmt, "1", None, where.line(store.start()), twine1=True)
    for tm in _TIDDLER.finditer(text, store.end()):
        pa = _attrs(tm.group(1))
        line = where.line(tm.start(2))
        # Twine 1 keeps a passage on one line: \n, \t and \s (a backslash) escaped
        body = re.sub(r"\\([nts])", lambda e: {"n": "\n", "t": "\t", "s": "\\"}[e.group(1)],
                      html.unescape(tm.group(2).replace("\n", "\\n")))
        story.passages.append(HtmlPassage(pa.get("tiddler", ""), pa.get("tags", "").split(), where.line(tm.start()),
                                          body, [line] * (body.count("\n") + 1)))
    return [story]
