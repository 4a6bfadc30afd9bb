"""Drawing a component's picture from its data: each visible text at its box, black on
white, in a Korean font (NanumGothic Bold, from Debian's ``fonts-nanum``, installed by
``scripts/setup.sh``).

It makes the pictures the tests and the example set read back with OCR: planted
residue is drawn like any other text, so the OCR run and the given-text run of the same
component can be compared.  Texts are drawn at one size, 48 px bold: of the sizes and
Nanum faces tried on the example set's 76 distinct texts, it let Tesseract's Korean
data read the most of them exactly (55) and the most single letters.
"""

from __future__ import annotations

import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Iterable

from .model import PICTURE, VisibleText

__all__ = ["render_picture", "korean_font", "TEXT_SIZE"]

TEXT_SIZE = 48
_FALLBACK = Path("/usr/share/fonts/truetype/nanum/NanumGothicBold.ttf")


@lru_cache(maxsize=1)
def korean_font() -> Path:
    """The NanumGothic Bold font file (fontconfig's answer, else Debian's path).

    Raises :class:`FileNotFoundError` when no Korean font is installed.
    """
    try:
        found = subprocess.run(["fc-match", "-f", "%{file}", "NanumGothic:style=Bold"], capture_output=True, text=True,
                               timeout=30).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        found = ""
    for candidate in (Path(found) if found else None, _FALLBACK):
        if candidate is not None and candidate.is_file() and "nanum" in candidate.name.lower():
            return candidate
    raise FileNotFoundError("NanumGothic 글꼴이 없습니다(scripts/setup.sh가 fonts-nanum을 설치합니다).")


def render_picture(texts: Iterable[VisibleText], path: Path, size: int = TEXT_SIZE) -> Path:
    """Draw ``texts`` (each at the top left of its box, boxless texts left out) on a
    white 1920×1080 picture and save it as PNG at ``path``."""
    from PIL import Image, ImageDraw, ImageFont

    picture = Image.new("RGB", PICTURE, "white")
    draw = ImageDraw.Draw(picture)
    font = ImageFont.truetype(str(korean_font()), size)
    for text in texts:
        if text.box is None:
            continue
        x, y, _, h = text.box
        draw.text((x, y + max(0, (h - size) / 2)), text.text, font=font, fill="black")
    path.parent.mkdir(parents=True, exist_ok=True)
    picture.save(path, format="PNG", optimize=True)
    return path
