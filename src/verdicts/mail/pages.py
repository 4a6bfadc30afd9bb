"""The pages ``verdicts mail serve`` serves (:func:`verdicts.serve.create_app`): before a
mailbox is connected, the upload form and the sample button; the bundled sample
(``examples/mail``); the screen of uploaded tables, where a missing column or an empty
``confidence`` shows as an input issue naming its line while the rest is judged.  The
page makers run in the server's worker processes, so they are picklable.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path

from verdicts.errors import VerdictsError
from verdicts.screen import ScreenExtras, render_html

from .domain import DOMAIN, judge_mailbox

__all__ = ["server_pages", "sample_path"]

_UPLOAD = dict(
    upload_title="메일함 표 올리기",
    upload_formats=("세 표의 CSV(`agent_action.csv` · `mailbox_thread.csv` · `action_policy.csv`), 세 시트의 .xlsx 통합 문서, "
                    "세 키의 JSON 또는 YAML — 메일함에서 표를 만들려면 verdicts mail import를 쓰세요"),
    empty_groups="아직 연결한 메일함이 없습니다. 메일함에서 만든 표를 올리거나 “샘플 데이터로 보기”를 누르세요.",
)


def sample_path() -> Path:
    """The bundled sample round (``examples/mail``, beside the source tree)."""
    candidate = Path(__file__).resolve().parents[3] / "examples" / "mail"
    if (candidate / "agent_action.csv").is_file():
        return candidate
    raise VerdictsError("샘플 메일함(examples/mail)을 찾지 못했습니다.")


def _extras(report, limit: int) -> ScreenExtras:
    extras = DOMAIN.screen_extras(report) if report is not None else ScreenExtras()
    extras.upload, extras.upload_limit_bytes = True, limit
    for key, value in _UPLOAD.items():
        setattr(extras, key, value)
    return extras


def _judged_page(path: Path, names: dict[str, str], *, limit: int) -> str:
    """The served screen of an upload (run in the server's worker process)."""
    from verdicts.serve import relabel_files

    report = relabel_files(judge_mailbox(path), names)
    return render_html(report, DOMAIN, _extras(report, limit))


def _sample_page(*, limit: int) -> str:
    path = sample_path()
    return _judged_page(path, {str(path) + "/": "", str(path): "샘플: examples/mail"}, limit=limit)


def _empty_page(banner: str | None, *, limit: int) -> str:
    extras = _extras(None, limit)
    extras.banner = banner
    return render_html(None, DOMAIN, extras)


def server_pages(*, max_bytes: int | None = None):
    """The pages :func:`verdicts.serve.create_app` serves for the mail domain."""
    from verdicts.serve import MAX_UPLOAD_BYTES, ServerPages

    limit = max_bytes or MAX_UPLOAD_BYTES
    return ServerPages(judge=partial(_judged_page, limit=limit), sample=partial(_sample_page, limit=limit),
                       empty=partial(_empty_page, limit=limit), max_bytes=limit, temp_prefix="verdicts-mail-upload-",
                       preload=("verdicts.mail.pages", "verdicts.mail.domain", "verdicts.screen"))
