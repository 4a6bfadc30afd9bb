"""Step 1 readers: what is visible on a component's picture.

A reader is a plain function ``reader(component, folder) -> list[VisibleText] | None``
(``None``: it has nothing to read for this component; ``folder`` is the component
file's folder, where a relative ``result_thumb`` is found).  Three are bundled:

* :func:`given_texts` — the component's own ``visible_texts`` (for tests, and for a
  model-backed reader that wrote them beforehand);
* :func:`ocr_texts` — Tesseract with its Korean and English data on ``result_thumb``
  (Debian's ``tesseract-ocr`` and ``tesseract-ocr-kor``, installed by
  ``scripts/setup.sh``): the words it reads, grouped into texts by line and gap, each
  with its box;
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

from .model import PICTURE, Component, VisibleText
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
#: a word whose confidence is below this and that holds no letter or digit is noise
#: (a table rule or an icon read as ``|`` or ``—``), not a visible text
_NOISE_CONFIDENCE = 60.0
#: two words of one line farther apart than this many line heights are two texts
_GAP_IN_HEIGHTS = 1.5
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
    reads them as one line), joined by a space, boxed by the union of their boxes.
    Noise (no letter or digit, low confidence) is dropped.

    >>> w = lambda t, x, c=95.0: OcrWord(t, (x, 100, 40, 30), c, (1, 1, 1))
    >>> [(t.text, t.box) for t in words_to_texts([w("시장", 0), w("조사", 50), w("01", 300), w("|", 400, 40.0)])]
    [('시장 조사', (0.0, 100.0, 90.0, 30.0)), ('01', (300.0, 100.0, 40.0, 30.0))]
    >>> [t.text for t in words_to_texts([w("기획", 0), w("실행", 50)], places=[(0, 0, 45, 200), (45, 0, 100, 200)])]
    ['기획', '실행']
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
            texts.append(VisibleText(text=" ".join(w.text for w in group), box=(x0, y0, x1 - x0, y1 - y0)))
    return texts


def _tesseract() -> str:
    found = shutil.which("tesseract")
    if found is None:
        raise ReaderUnavailable("Tesseract가 설치되어 있지 않아 그림을 읽지 못했습니다(scripts/setup.sh가 설치합니다).")
    return found


def read_picture(picture: "Image", places: Sequence[tuple[float, float, float, float]] = ()) -> list[VisibleText]:
    """The visible texts Tesseract reads on ``picture`` (an opened 1920×1080 image),
    split at the boundaries of ``places`` (see :func:`words_to_texts`).

    Raises :class:`ReaderUnavailable` when Tesseract or its Korean data is missing or
    does not finish.
    """
    buffer = io.BytesIO()
    picture.save(buffer, format="PNG")
    # one thread: the machine is shared, and a picture is small
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        proc = subprocess.run([_tesseract(), "stdin", "stdout", "-l", TESSERACT_LANGUAGES, "--psm", _PSM, "tsv"],
                              input=buffer.getvalue(), capture_output=True, env=env, timeout=_TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:
        raise ReaderUnavailable(f"Tesseract가 {_TIMEOUT_SECONDS}초 안에 그림을 다 읽지 못했습니다.") from None
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ReaderUnavailable("Tesseract가 그림을 읽지 못했습니다(" + (detail[-1] if detail else f"종료 코드 {proc.returncode}")
                                + "). 한국어 데이터(tesseract-ocr-kor)가 있는지 확인해 주세요.")
    return words_to_texts(parse_tsv(proc.stdout.decode("utf-8", "replace")), places)


def ocr_texts(component: Component, folder: Path) -> list[VisibleText] | None:
    """The texts Tesseract reads on the component's ``result_thumb``, or ``None`` when
    it has no picture.  Raises :class:`~.pictures.UnreadablePicture` or
    :class:`ReaderUnavailable`."""
    if not component.result_thumb:
        return None
    # the seed matches texts to nodes by their boxes: words on two nodes are two texts
    places = [n.box for n in (*component.frame_tree, *component.outside_nodes) if n.box is not None]
    return read_picture(open_picture(picture_path(folder, component.result_thumb)), places)


def given_or_ocr(component: Component, folder: Path) -> list[VisibleText] | None:
    """The given ``visible_texts`` when the file has them, else OCR on ``result_thumb``."""
    given = given_texts(component, folder)
    return given if given is not None else ocr_texts(component, folder)


#: the readers by the name the command line takes
READERS: dict[str, Reader] = {"auto": given_or_ocr, "given": given_texts, "ocr": ocr_texts}
DEFAULT_READER: Reader = given_or_ocr
