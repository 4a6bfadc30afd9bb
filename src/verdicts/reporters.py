"""The interchangeable reporters, chosen by name, for every domain.

A reporter is a small class with a ``name``: :meth:`Reporter.render` takes a finished
:class:`~verdicts.model.Report` and its domain and returns the text, and
:meth:`Reporter.pieces` the same text as UTF-8 pieces for a stream (JSON is written an
item at a time, never held whole).  Text, JSON, SARIF 2.1.0, GitHub workflow
annotations and the HTML report screen (:data:`REPORTERS`).  Reporters never compute
verdicts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from .model import Report
from .report import iter_json_bytes, render_json, render_text

if TYPE_CHECKING:
    from .domain import Domain

__all__ = ["Reporter", "TextReporter", "JsonReporter", "SarifReporter", "GithubReporter", "HtmlReporter", "REPORTERS"]


class Reporter:
    """A report format.  Instances are also callable as ``reporter(report, domain)``."""

    name: ClassVar[str]
    #: whether the output is JSON-like (always UTF-8, wherever it goes)
    binary_safe: ClassVar[bool] = False

    def render(self, report: Report, domain: Domain) -> str:
        raise NotImplementedError

    def pieces(self, report: Report, domain: Domain) -> Iterator[bytes]:
        """The text of :meth:`render` as UTF-8 pieces."""
        yield self.render(report, domain).encode("utf-8")

    def __call__(self, report: Report, domain: Domain) -> str:
        return self.render(report, domain)


class TextReporter(Reporter):
    """Cards grouped by verdict, then input issues, lint findings and checks."""

    name = "text"

    def render(self, report: Report, domain: Domain) -> str:
        return render_text(report, domain)


class JsonReporter(Reporter):
    """``{"cards", "issues", "checks", …}``, one item per line, streamed."""

    name = "json"
    binary_safe = True

    def render(self, report: Report, domain: Domain) -> str:
        return render_json(report, domain)

    def pieces(self, report: Report, domain: Domain) -> Iterator[bytes]:
        return iter_json_bytes(report, domain)


class SarifReporter(Reporter):
    """A SARIF 2.1.0 log: one result per card that does not pass, finding and issue."""

    name = "sarif"
    binary_safe = True

    def render(self, report: Report, domain: Domain) -> str:
        from .sarif import render_sarif

        return render_sarif(report, domain)


class GithubReporter(Reporter):
    """GitHub Actions workflow commands, one per SARIF result."""

    name = "github"

    def render(self, report: Report, domain: Domain) -> str:
        from .sarif import render_github

        return render_github(report, domain)


class HtmlReporter(Reporter):
    """The report screen as one self-contained HTML page (the domain's extras: its
    diagram and context tables; a grading run's panel when given)."""

    name = "html"

    def render(self, report: Report, domain: Domain, grading: Any = None) -> str:
        from .screen import render_html

        return render_html(report, domain, domain.screen_extras(report, grading=grading))


#: every report format, by name
REPORTERS: dict[str, Reporter] = {r.name: r for r in (TextReporter(), JsonReporter(), SarifReporter(), GithubReporter(), HtmlReporter())}
