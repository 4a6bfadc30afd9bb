"""Step 1 readers: what is visible on a component's picture.

A reader is a plain function ``reader(component, folder) -> list[VisibleText] | None``
(``None``: it has nothing to read for this component; ``folder`` is the component
file's folder, where a relative ``result_thumb`` is found).  Three are bundled:

* :func:`given_texts` — the component's own ``visible_texts`` (for tests, and for a
  model-backed reader that wrote them beforehand);
* :func:`ocr_texts` — Tesseract with its Korean and English data on ``result_thumb``
  (Debian's ``tesseract-ocr`` and ``tesseract-ocr-kor``, installed by
  ``scripts/setup.sh``): each node box of the component read line by line (the lines
  cut out by the ink's projection, read as single lines), the rest of the picture read
  whole when it holds ink; the words grouped into texts by line and gap, each with its
  box;
* :func:`given_or_ocr` (the default) — the given texts when the file has them, else
  the picture read by OCR.

A picture that cannot be read raises :class:`~.pictures.UnreadablePicture`, and a
missing Tesseract raises :class:`ReaderUnavailable`; the domain turns either into an
input issue for that component only.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Sequence

from verdicts.errors import InputError

from .model import PICTURE, Component, FrameNode, OutsideNode, VisibleText
from .pictures import open_picture, picture_path

if TYPE_CHECKING:
    from PIL.Image import Image

__all__ = [
    "Reader", "ReaderUnavailable", "OcrWord", "given_texts", "ocr_texts", "given_or_ocr", "read_picture",
    "words_to_texts", "parse_tsv", "READERS", "DEFAULT_READER", "TESSERACT_LANGUAGES",
]

Reader = Callable[[Component, Path], "list[VisibleText] | None"]

#: Tesseract's languages: Korean pages carry English words and numbers too
TESSERACT_LANGUAGES = "kor+eng"
#: page segmentation 11 ("sparse text"): a slide's texts are scattered, not a column of prose
_PSM = "11"
#: page segmentation 7 ("a single text line") for the lines cut out of node boxes
_LINE_PSM = "7"
#: a word whose confidence is below this and that holds no letter or digit is noise
#: (a table rule or an icon read as ``|`` or ``—``), not a visible text
_NOISE_CONFIDENCE = 60.0
#: two words of one line farther apart than this many line heights are two texts
_GAP_IN_HEIGHTS = 1.5
#: two words of one text closer than this many line heights are one word (no space between)
_SPACE_IN_HEIGHTS = 0.2
_TIMEOUT_SECONDS = 120


class ReaderUnavailable(InputError):
    """The OCR reader cannot run here (Tesseract or its Korean data is missing)."""


def given_texts(component: Component, folder: Path) -> list[VisibleText] | None:
    """The texts given in the component file (``visible_texts``), or ``None`` when the
    file gives none and the picture would have to be read."""
    return list(component.visible_texts) if component.visible_texts is not None else None


@dataclass(frozen=True)
class OcrWord:
    """One word Tesseract read: its text, box, confidence and line."""

    text: str
    box: tuple[int, int, int, int]
    confidence: float
    line: tuple[int, int, int]


def parse_tsv(tsv: str) -> list[OcrWord]:
    """The words of Tesseract's TSV output, in reading order (empty and page rows left out).

    >>> head = "level\\tpage_num\\tblock_num\\tpar_num\\tline_num\\tword_num\\tleft\\ttop\\twidth\\theight\\tconf\\ttext"
    >>> parse_tsv(head + "\\n5\\t1\\t2\\t1\\t1\\t1\\t50\\t150\\t60\\t30\\t96.5\\t기획\\n5\\t1\\t2\\t1\\t1\\t2\\t0\\t0\\t1\\t1\\t-1\\t ")
    [OcrWord(text='기획', box=(50, 150, 60, 30), confidence=96.5, line=(2, 1, 1))]
    """
    words = []
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) != 12 or cells[0] != "5" or not cells[11].strip():
            continue
        left, top, width, height = (int(c) for c in cells[6:10])
        words.append(OcrWord(cells[11].strip(), (left, top, width, height), float(cells[10]),
                             (int(cells[2]), int(cells[3]), int(cells[4]))))
    return words


def _is_noise(word: OcrWord) -> bool:
    has_content = any(unicodedata.category(ch)[0] in "LN" for ch in word.text)
    return not has_content and word.confidence < _NOISE_CONFIDENCE


def _node_of(box: tuple[float, float, float, float], places: Sequence[tuple[float, float, float, float]]) -> int | None:
    """The index of the smallest place holding the centre of ``box`` (``None``: none)."""
    cx, cy = box[0] + box[2] / 2, box[1] + box[3] / 2
    holding = [(p[2] * p[3], i) for i, p in enumerate(places) if p[0] <= cx <= p[0] + p[2] and p[1] <= cy <= p[1] + p[3]]
    return min(holding)[1] if holding else None


def words_to_texts(words: list[OcrWord], places: Sequence[tuple[float, float, float, float]] = ()) -> list[VisibleText]:
    """Words grouped into visible texts: the words of one Tesseract line, split where
    two words stand farther apart than 1.5 line heights or sit on two different
    ``places`` (node boxes: two cells side by side are two texts even when Tesseract
    reads them as one line), joined by a space (by nothing where they stand closer than
    a fifth of the line's height: one word Tesseract gave in pieces), boxed by the union
    of their boxes.
    Noise (no letter or digit, low confidence) is dropped.

    >>> w = lambda t, x, c=95.0: OcrWord(t, (x, 100, 40, 30), c, (1, 1, 1))
    >>> [(t.text, t.box) for t in words_to_texts([w("시장", 0), w("조사", 50), w("01", 300), w("|", 400, 40.0)])]
    [('시장 조사', (0.0, 100.0, 90.0, 30.0)), ('01', (300.0, 100.0, 40.0, 30.0))]
    >>> [t.text for t in words_to_texts([w("기획", 0), w("실행", 50)], places=[(0, 0, 45, 200), (45, 0, 100, 200)])]
    ['기획', '실행']
    >>> [t.text for t in words_to_texts([w("2", 0), w("분", 43), w("기", 86)])]
    ['2분기']
    """
    lines: dict[tuple[int, int, int], list[OcrWord]] = {}
    for word in words:
        if not _is_noise(word):
            lines.setdefault(word.line, []).append(word)
    texts = []
    for line in lines.values():
        line.sort(key=lambda w: w.box[0])
        height = max(w.box[3] for w in line)
        groups: list[list[OcrWord]] = [[line[0]]]
        for word in line[1:]:
            last = groups[-1][-1]
            if (word.box[0] - (last.box[0] + last.box[2]) > _GAP_IN_HEIGHTS * height
                    or (places and _node_of(word.box, places) != _node_of(last.box, places))):
                groups.append([word])
            else:
                groups[-1].append(word)
        for group in groups:
            x0 = min(w.box[0] for w in group)
            y0 = min(w.box[1] for w in group)
            x1 = max(w.box[0] + w.box[2] for w in group)
            y1 = max(w.box[1] + w.box[3] for w in group)
            x0, y0 = max(0, x0), max(0, y0)
            x1, y1 = min(PICTURE[0], x1), min(PICTURE[1], y1)
            text = group[0].text
            for before, word in zip(group, group[1:]):
                # Tesseract often gives each Hangul syllable as a word: a gap narrower
                # than a space (a fifth of the line's height) is no space
                text += ("" if word.box[0] - (before.box[0] + before.box[2]) < _SPACE_IN_HEIGHTS * height else " ") + word.text
            texts.append(VisibleText(text=text, box=(x0, y0, x1 - x0, y1 - y0)))
    return texts


def _tesseract() -> str:
    found = shutil.which("tesseract")
    if found is None:
        raise ReaderUnavailable("Tesseract가 설치되어 있지 않아 그림을 읽지 못했습니다(scripts/setup.sh가 설치합니다).")
    return found


def _otsu(histogram: list[int]) -> int | None:
    """Otsu's threshold of a 256-bin grey histogram (``None``: one grey only, nothing to split)."""
    total = sum(histogram)
    weighted = sum(i * n for i, n in enumerate(histogram))
    best, threshold, below, below_weighted = -1.0, None, 0, 0
    for level in range(255):
        below += histogram[level]
        below_weighted += level * histogram[level]
        above = total - below
        if below == 0 or above == 0:
            continue
        between = below * above * (below_weighted / below - (weighted - below_weighted) / above) ** 2
        if between > best:
            best, threshold = between, level
    return threshold


def _ink(grey: "Image") -> "Image | None":
    """``grey`` binarised (Otsu) with the ink white on black, the ink being the side
    with fewer pixels (dark text on a light slide or light text on a dark one);
    ``None`` when ``grey`` has a single grey (no ink)."""
    histogram = grey.histogram()
    threshold = _otsu(histogram)
    if threshold is None:
        return None
    dark = sum(histogram[: threshold + 1])
    light = sum(histogram) - dark
    if dark <= light:
        return grey.point(lambda v: 255 if v <= threshold else 0)
    return grey.point(lambda v: 255 if v > threshold else 0)


def _runs(flags: Sequence[int]) -> list[tuple[int, int]]:
    """The ``[start, end)`` runs of non-zero flags.

    >>> _runs([0, 1, 1, 0, 1])
    [(1, 3), (4, 5)]
    """
    runs, start = [], None
    for i, flag in enumerate((*flags, 0)):
        if flag and start is None:
            start = i
        elif not flag and start is not None:
            runs.append((start, i))
            start = None
    return runs


def _lines(ink: "Image") -> list[tuple[int, int]]:
    """The rows ``[top, bottom)`` of the text lines in ``ink`` (a binarised crop), by
    its horizontal projection: a run of inked rows is a line, and a run shorter than
    half its neighbour, or parted from it by less than a sixth of the taller one (the
    parts of one Hangul syllable, an accent, a colon), belongs to that neighbour."""
    lines = _runs(ink.getprojection()[1])
    merged: list[tuple[int, int]] = []
    for top, bottom in lines:
        if merged:
            last_top, last_bottom = merged[-1]
            tall = max(bottom - top, last_bottom - last_top)
            if (top - last_bottom < tall / 6 or min(bottom - top, last_bottom - last_top) < tall / 2
                    and top - last_bottom < tall / 2):
                merged[-1] = (last_top, bottom)
                continue
        merged.append((top, bottom))
    return merged


def _leaves(places: Sequence[tuple[float, float, float, float]]) -> list[tuple[int, int, int, int]]:
    """The places (as pixel edges ``x0, y0, x1, y1`` inside the picture) that hold no
    other place: the boxes a text is written in (a table's cells, not the table)."""
    edges = []
    for x, y, w, h in places:
        x0, y0 = max(0, int(x)), max(0, int(y))
        x1, y1 = min(PICTURE[0], int(x + w + 0.999)), min(PICTURE[1], int(y + h + 0.999))
        if x1 > x0 and y1 > y0 and (x0, y0, x1, y1) not in edges:
            edges.append((x0, y0, x1, y1))
    return [e for e in edges if not any(o != e and e[0] <= o[0] and e[1] <= o[1] and o[2] <= e[2] and o[3] <= e[3]
                                        for o in edges)]


#: a line crop is scaled up until its text is this many pixels high (at most ×4):
#: Tesseract's data is trained on text about this size
_LINE_HEIGHT = 40
#: white margin around a line crop, in line heights (half a height made Tesseract return
#: nothing for some short lines, 「실행」 among them; a whole height read them all)
_MARGIN = 1.0


@dataclass(frozen=True)
class _Line:
    """One text line cut out of a place: its picture for Tesseract, where it came from."""

    image: "Image"
    left: int
    top: int
    scale: float


def _line_crops(grey: "Image", leaf: tuple[int, int, int, int]) -> list[_Line]:
    """The text lines inside ``leaf`` cut out of ``grey``: each line's inked extent,
    binarised black on white, in a white margin; a small line is scaled up (from the
    grey picture, then binarised) until its text is about 40 px high."""
    from PIL import Image

    crop = grey.crop(leaf)
    ink = _ink(crop)
    if ink is None or ink.getbbox() is None:
        return []
    out = []
    for top, bottom in _lines(ink):
        box = ink.crop((0, top, ink.width, bottom)).getbbox()
        if box is None:
            continue
        height = bottom - top
        scale = min(4.0, max(1.0, _LINE_HEIGHT / height))
        margin = max(8, round(_MARGIN * height))
        line = ink.crop((box[0], top, box[2], bottom))
        if scale > 1:
            # scaled as grey and binarised again: smoother strokes than a scaled binary picture
            line = line.resize((round(line.width * scale), round(line.height * scale)), Image.Resampling.LANCZOS)  # the same value as Image.LANCZOS
            line = line.point(lambda v: 255 if v >= 128 else 0)
        edge = round(margin * scale)
        framed = Image.new("L", (line.width + 2 * edge, line.height + 2 * edge), 255)
        framed.paste(line.point(lambda v: 0 if v else 255), (edge, edge))
        out.append(_Line(framed, leaf[0] + box[0] - margin, leaf[1] + top - margin, scale))
    return out


def _run_tesseract(source: str | bytes, psm: str, folder: str | None = None) -> str:
    """Tesseract's TSV for ``source`` (PNG bytes on stdin, or a list file of pictures)."""
    # one thread: the machine is shared, and a picture is small
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    command = [_tesseract(), "stdin" if isinstance(source, bytes) else source, "stdout", "-l", TESSERACT_LANGUAGES,
               "--psm", psm, "tsv"]
    try:
        proc = subprocess.run(command, input=source if isinstance(source, bytes) else None, capture_output=True, env=env,
                              timeout=_TIMEOUT_SECONDS, cwd=folder)
    except subprocess.TimeoutExpired:
        raise ReaderUnavailable(f"Tesseract가 {_TIMEOUT_SECONDS}초 안에 그림을 다 읽지 못했습니다.") from None
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ReaderUnavailable("Tesseract가 그림을 읽지 못했습니다(" + (detail[-1] if detail else f"종료 코드 {proc.returncode}")
                                + "). 한국어 데이터(tesseract-ocr-kor)가 있는지 확인해 주세요.")
    return proc.stdout.decode("utf-8", "replace")


def _read_lines(lines: list[_Line]) -> list[OcrWord]:
    """The words of every line crop, read in one Tesseract run (a list of pictures, one
    line each: page segmentation 7), placed back on the picture; each crop is a line."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="residue-ocr-") as folder:
        names = []
        for i, line in enumerate(lines):
            names.append(f"{i}.png")
            line.image.save(Path(folder) / names[-1], format="PNG")
        (Path(folder) / "lines.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
        tsv = _run_tesseract("lines.txt", _LINE_PSM, folder)
    words = []
    for page, page_words in _pages(tsv).items():
        if not 1 <= page <= len(lines):
            continue
        line = lines[page - 1]
        for word in page_words:
            x, y, w, h = word.box
            box = (line.left + round(x / line.scale), line.top + round(y / line.scale), max(1, round(w / line.scale)),
                   max(1, round(h / line.scale)))
            words.append(OcrWord(word.text, box, word.confidence, (-page, 0, 0)))
    return words


def _pages(tsv: str) -> dict[int, list[OcrWord]]:
    """The words of Tesseract's TSV by page number (a run over a list of pictures)."""
    pages: dict[int, list[str]] = {}
    head, *rows = tsv.splitlines() or [""]
    for row in rows:
        cells = row.split("\t")
        if len(cells) == 12 and cells[1].isdigit():
            pages.setdefault(int(cells[1]), []).append(row)
    return {page: parse_tsv("\n".join([head, *page_rows])) for page, page_rows in pages.items()}


def read_picture(picture: "Image", places: Sequence[tuple[float, float, float, float]] = ()) -> list[VisibleText]:
    """The visible texts Tesseract reads on ``picture`` (an opened 1920×1080 image),
    split at the boundaries of ``places`` (see :func:`words_to_texts`).

    When the component's node boxes (``places``) are known, each box that holds no other
    box is read on its own: its text lines are found by the ink's horizontal projection
    (Otsu binarisation), cut out, scaled up when small, and read as single lines
    (page segmentation 7), all lines of the picture in one Tesseract run.  Read whole
    with sparse-text segmentation, Tesseract drops a digit standing before Hangul
    (「2분기」 → 「분기」); read as one line, it keeps it.  The whole picture is read
    too (sparse text) only when some ink lies outside those boxes, and of that read only
    the words outside them are kept.

    Raises :class:`ReaderUnavailable` when Tesseract or its Korean data is missing or
    does not finish.
    """
    from PIL import ImageDraw

    grey = picture.convert("L")
    leaves = _leaves(places)
    lines = [line for leaf in leaves for line in _line_crops(grey, leaf)]
    words = _read_lines(lines) if lines else []
    rest = _ink(grey)
    if rest is not None and leaves:
        draw = ImageDraw.Draw(rest)
        for x0, y0, x1, y1 in leaves:
            draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=0)
    if rest is not None and rest.getbbox() is not None:
        buffer = io.BytesIO()
        picture.save(buffer, format="PNG")
        page_words = parse_tsv(_run_tesseract(buffer.getvalue(), _PSM))
        words += [w for w in page_words if _node_of(w.box, [(x0, y0, x1 - x0, y1 - y0) for x0, y0, x1, y1 in leaves]) is None]
    return words_to_texts(words, places)


def ocr_texts(component: Component, folder: Path) -> list[VisibleText] | None:
    """The texts Tesseract reads on the component's ``result_thumb``, or ``None`` when
    it has no picture.  Raises :class:`~.pictures.UnreadablePicture` or
    :class:`ReaderUnavailable`."""
    if not component.result_thumb:
        return None
    # the seed matches texts to nodes by their boxes: words on two nodes are two texts
    nodes: tuple[FrameNode | OutsideNode, ...] = (*component.frame_tree, *component.outside_nodes)
    places = [n.box for n in nodes if n.box is not None]
    return read_picture(open_picture(picture_path(folder, component.result_thumb)), places)


def given_or_ocr(component: Component, folder: Path) -> list[VisibleText] | None:
    """The given ``visible_texts`` when the file has them, else OCR on ``result_thumb``."""
    given = given_texts(component, folder)
    return given if given is not None else ocr_texts(component, folder)


#: the readers by the name the command line takes
READERS: dict[str, Reader] = {"auto": given_or_ocr, "given": given_texts, "ocr": ocr_texts}
DEFAULT_READER: Reader = given_or_ocr
