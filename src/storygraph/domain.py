"""storygraph as a verdict domain: lint a scenario into cards, issues, checks and findings."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.checks import Check
from verdicts.domain import Domain, Report
from verdicts.perf import without_gc
from verdicts.progress import SILENT, Progress

from .analysis import Analysis, analyse
from .cards import build_cards
from .checks import CHECKS, CheckContext
from .loading import load_scenario
from .model import REACHED_AND_ENDS, VERDICTS, Scenario, StoryCard

__all__ = ["StorygraphDomain", "DOMAIN", "lint", "LintResult"]


class LintResult(Report):
    """A :class:`~verdicts.domain.Report` that also keeps the scenario and its analysis
    (the diagram and the screen need them)."""

    scenario: Scenario
    analysis: Analysis


class StorygraphDomain(Domain):
    name = "storygraph"
    title = "창작자가 짠 시나리오 분기가 어디서 막히는지 알려줍니다."
    card_type = StoryCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({REACHED_AND_ENDS})

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def judge(self, path: Path) -> Report:
        return lint(path)


DOMAIN = StorygraphDomain()


def _issue_order(issue) -> tuple:
    return (issue.file or "", issue.line or 0, issue.column or "", issue.position or 0)


def lint(path: str | Path, progress: Progress = SILENT) -> LintResult:
    """Judge every scene and branch of the scenario at ``path``.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    with without_gc():
        progress.start("읽기")
        scenario = load_scenario(path)
        progress.start("분석")
        analysis = analyse(scenario)
        progress.start("카드", {"장면": len(scenario.scenes), "분기": len(scenario.branches)})
        cards, withheld, findings = build_cards(analysis, progress)
        issues = sorted(scenario.issues + analysis.issues + withheld, key=_issue_order)
        card_json = [c.to_json() for c in cards]
        progress.start("자동 검증")
        checks = CHECKS.run(CheckContext(scenario, card_json))
        report = LintResult("storygraph", list(cards), issues, checks, scenario.sources, findings)
        report.scenario = scenario
        report.analysis = analysis
        DOMAIN.finish(report, card_json)
        progress.close()
        return report
