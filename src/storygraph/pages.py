"""The pages ``storygraph serve`` serves (:func:`verdicts.serve.create_app`): the empty
screen with the upload form, the bundled sample, and the screen of an upload.  The page
makers run in the server's worker processes, so they are picklable
(:func:`functools.partial` of module functions).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from verdicts.errors import VerdictsError

from .diagram import DOT_TIMEOUT
from .domain import DOMAIN, lint
from .screen import empty_html, report_html

if TYPE_CHECKING:
    from .incremental import IncrementalLint

__all__ = ["server_pages", "sample_path", "watched_linter"]


def sample_path() -> Path:
    """The bundled sample scenario (``examples/lighthouse``): packaged with the wheel as
    ``storygraph/sample/scenario.csv``, else found beside the source tree."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "sample" / "scenario.csv", here.parents[1] / "examples" / "lighthouse" / "scenario.csv"):
        if candidate.is_file():
            return candidate
    raise VerdictsError("샘플 시나리오(examples/lighthouse/scenario.csv)를 찾지 못했습니다.")


def _judged_page(path: Path, names: dict[str, str], *, limit: int, timeout: float, sample: bool = False) -> str:
    """The served screen of an upload (run in the server's worker process)."""
    from verdicts.serve import relabel_files

    return report_html(relabel_files(lint(path), names), DOMAIN, upload=True, upload_limit_bytes=limit, timeout=timeout, sample=sample)


def _sample_page(*, limit: int, timeout: float) -> str:
    """The served screen of the bundled sample (run in the server's worker process)."""
    path = sample_path()
    return _judged_page(path, {str(path): "샘플: examples/lighthouse/scenario.csv"}, limit=limit, timeout=timeout, sample=True)


#: ``serve --watch``: per followed scenario, what its last lint made (the page maker
#: runs in a worker that stays between saves, so each save re-lints incrementally)
_FOLLOWED: dict[str, "IncrementalLint"] = {}


def watched_linter(path: Path) -> "IncrementalLint":
    """The :class:`~storygraph.incremental.IncrementalLint` of a followed scenario."""
    import os

    from .incremental import IncrementalLint

    return _FOLLOWED.setdefault(os.path.abspath(path), IncrementalLint())


def _watched_page(path: Path, *, timeout: float) -> str:
    """The live screen of a followed scenario (``serve --watch``; run in the kept worker):
    only what the save changed is linted again."""
    from .domain import find_config, load_config

    report = watched_linter(path).lint(path, load_config(find_config(path)))
    return report_html(report, DOMAIN, live="/events", timeout=timeout)


def _empty_page(banner: str | None, *, limit: int) -> str:
    return empty_html(DOMAIN, upload_limit_bytes=limit, banner=banner)


def server_pages(*, max_bytes: int | None = None, timeout: float = DOT_TIMEOUT):
    """The pages :func:`verdicts.serve.create_app` serves for storygraph (the page
    makers are picklable: they run in the server's worker processes)."""
    from functools import partial

    from verdicts.serve import MAX_UPLOAD_BYTES, ServerPages

    limit = max_bytes or MAX_UPLOAD_BYTES
    return ServerPages(judge=partial(_judged_page, limit=limit, timeout=timeout),
                       sample=partial(_sample_page, limit=limit, timeout=timeout),
                       empty=partial(_empty_page, limit=limit), max_bytes=limit, temp_prefix="storygraph-upload-",
                       watched=partial(_watched_page, timeout=timeout),
                       preload=("storygraph.pages", "storygraph.screen", "storygraph.domain", "storygraph.cli"))
