"""Step 1 readers: what is visible on a component's picture.

A reader is a plain function ``reader(component, folder) -> list[VisibleText] | None``
(``None``: it cannot read this component).  The default, :func:`given_texts`, takes the
component's own ``visible_texts``.  An OCR reader (Tesseract with Korean data on
``result_thumb``) plugs in here with the same signature; it is the next step of the
issue and not written yet.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from .model import Component, VisibleText

__all__ = ["Reader", "given_texts", "DEFAULT_READER"]

Reader = Callable[[Component, Path], "list[VisibleText] | None"]


def given_texts(component: Component, folder: Path) -> list[VisibleText] | None:
    """The texts given in the component file (``visible_texts``), or ``None`` when the
    file gives none and the picture would have to be read."""
    return list(component.visible_texts) if component.visible_texts is not None else None


DEFAULT_READER: Reader = given_texts
