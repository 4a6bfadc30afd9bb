"""storygraph as a verdict domain: lint a scenario into cards, issues, checks and findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from verdicts.checks import Check
from verdicts.domain import Domain, Report

from .analysis import Analysis, analyse
from .cards import build_cards
from .checks import CHECKS, CheckContext
from .loading import load_scenario
from .model import REACHED_AND_ENDS, VERDICTS, Scenario, StoryCard

if TYPE_CHECKING:
    from .config import Config

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
    #: compared with the card when a gold row fills it (``storygraph grade``, ``verdicts grade``)
    gold_fields = ("overlapping_branch_id",)
    notes = {
        "자동": [
            "열 가지 자동 검증이 시작 장면에서의 닿음, 없는 장면, 조건 겹침, 엔딩까지의 길을 카드와 따로 다시 계산해 맞춰 봅니다.",
            "근거 항목이 입력에 실제로 있는 열을 인용하는지, agg 없이 적은 값이 인용한 줄의 값과 같은지 대조합니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말 한 문장인지 봅니다.",
        ],
        "수동": [
            "조건이 겹침으로 잡힌 분기가 창작자가 일부러 둔 것인지 사람이 확인합니다.",
            "끝에 못 감으로 잡힌 장면이 의도한 열린 결말인지 창작자에게 묻고, 그렇다면 그 결정을 기록합니다.",
        ],
        "정직 경계선": [
            "겹침은 flag_spec에 적힌 범위 안의 조합만 따지므로, 게임이 실제로 플래그를 어떤 순서로 바꾸는지는 알지 못합니다.",
            "available_flags가 비어 있는 장면의 분기는 겹침을 따지지 않고, 그렇다고 단서에 남깁니다.",
            "독자가 실제로 어느 길을 고를지, 그 장면이 읽을 만한지는 판정하지 않습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def judge(self, path: Path) -> Report:
        return lint(path)


DOMAIN = StorygraphDomain()


def _issue_order(issue) -> tuple:
    return (issue.file or "", issue.line or 0, issue.column or "", issue.position or 0)


def lint(path: str | Path, config: "Config | None" = None) -> LintResult:
    """Judge every scene and branch of the scenario at ``path``.

    With a :class:`~storygraph.config.Config`, the findings it (or a ``lint_ignore``
    column) records as intended are marked accepted.  Raises
    :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    scenario = load_scenario(path)
    analysis = analyse(scenario)
    cards, withheld, findings = build_cards(analysis)
    issues = sorted(scenario.issues + analysis.issues + withheld, key=_issue_order)
    checks = CHECKS.run(CheckContext(scenario, [c.to_json() for c in cards]))
    report = LintResult("storygraph", list(cards), issues, checks, scenario.sources, findings)
    report.scenario = scenario
    report.analysis = analysis
    from .accept import apply_acceptances
    from .config import Config

    apply_acceptances(report, config or Config())
    return DOMAIN.finish(report)  # type: ignore[return-value]
