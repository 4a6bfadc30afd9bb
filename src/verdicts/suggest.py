""""Did you mean": the known name a word most likely misspells.

One implementation for every place that meets a name it does not know — a CSV column,
a key of a JSON, YAML or TOML document, a command, a domain, a name ``explain`` knows —
so that a misspelling is answered the same way everywhere.  Callers bound the
candidates they pass (a header may hold thousands of columns: ``MAX_SUGGESTION_COLUMNS``
in :mod:`verdicts.tables`).
"""

from __future__ import annotations

from typing import Iterable

from .korean import code, josa

__all__ = ["close_names", "close_name", "misspelling"]


def close_names(word: str, known: Iterable[str], n: int = 1, cutoff: float = 0.6) -> list[str]:
    """Up to ``n`` known names closest to ``word`` (similarity at least ``cutoff``), the
    closest first."""
    import difflib

    return difflib.get_close_matches(str(word), list(known), n=n, cutoff=cutoff)


def close_name(word: str, known: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The known name ``word`` most likely misspells, or ``None``."""
    close = close_names(word, known, 1, cutoff)
    return close[0] if close else None


def misspelling(word: str, known: Iterable[str], what: str = "키", cutoff: float = 0.6) -> str:
    """``" `condition_expr` 키의 오타라면 `condition_expr`로 고치면 됩니다."`` for a ``word``
    close to a known name, else the empty string (a sentence to follow an issue's own)."""
    close = close_name(word, known, cutoff)
    if close is None:
        return ""
    return f" {code(close)} {what}의 오타라면 {josa(code(close), '으로/로')} 고치면 됩니다."
