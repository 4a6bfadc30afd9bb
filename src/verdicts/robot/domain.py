"""The robot domain: what to collect next for each task of an evaluation round."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.model import WITHHELD_NOTE
from verdicts.checks import Check
from verdicts.domain import Domain, Report

from .checks import CHECKS, CheckContext
from .loading import load_round
from .model import DEPLOY, NOT_IN_TRAINING, VERDICTS, RobotCard, Round, TABLE_SPECS
from .rules import BOOK, build_cards

__all__ = ["RobotDomain", "DOMAIN", "judge_round", "RobotReport"]


class RobotReport(Report):
    """A :class:`~verdicts.domain.Report` that also keeps the round it was made from."""

    round: Round


class RobotDomain(Domain):
    name = "robot"
    table_specs = TABLE_SPECS
    title = "평가가 끝난 로봇 태스크마다 다음에 무엇을 더 모을지 정합니다."
    card_type = RobotCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({DEPLOY})
    subgroup_field = {NOT_IN_TRAINING: "blocked_cause"}
    evidence_columns = ("source", "field", "agg", "value")
    gold_fields = ("blocked_cause",)
    books = (BOOK,)
    docs_page = "docs/robot.md"
    docs_title = "로봇 태스크: 판정과 자동 검증"
    docs_note = ("입력이 비워 둔 값이 필요한 규칙에 이르면 명세의 말대로 판정을 붙이지 않습니다. "
                 f"{WITHHELD_NOTE}(`docs/decisions.md`를 보세요).")
    notes = {
        "자동": [
            "열네 가지 자동 검증이 카드마다 입력 표에서 성공률, 실패 집계와 사유, 주기 중앙값, 더 모을 회차를 따로 다시 계산해 카드 값과 맞춰 봅니다.",
            "판정 차례(능력 확인, 평가 여부, 성공률, 실패 쏠림, 작업 주기)를 다시 따라가 각 카드가 처음 걸리는 규칙에 들어갔는지 확인합니다.",
            "근거 항목이 세 표에 실제로 있는 열을 인용하는지, agg 없이 적은 값이 인용한 줄의 값과 글자 그대로 같은지 대조합니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말 한 문장인지 봅니다.",
        ],
        "수동": [
            "실패 유형 쏠림으로 묶인 태스크는 재생 화면에서 표본 스무 건을 골라 정말 같은 실패인지 사람이 확인합니다.",
            "쏠림 상한과 최소 실패 3회 기준이 현장 감각과 맞는지 연구자와 함께 보고 `task_spec` 값을 고칩니다.",
            "다시 찍으라고 적은 현장과 손 형태가 실제 수집 계획과 맞았는지는 회차가 끝난 뒤 사람이 되짚습니다.",
        ],
        "정직 경계선": [
            "이 도구는 `failure_reason`에 적힌 이름을 그대로 믿고 세므로, 이름은 같아도 실제 실패 모습이 다른지는 알지 못합니다.",
            "사유 칸이 빈 실패는 분모에만 들어가므로 쏠림이 실제보다 낮게 보일 수 있습니다.",
            "필요한 값이 비어 판정을 보류한 카드는 판정 보류 묶음에 남고, 어느 판정이 맞는지는 값을 채운 뒤에야 알 수 있습니다.",
            "평가 회차가 적으면 성공률이 한두 번의 결과로 크게 흔들리는데, 이 도구는 신뢰구간을 계산하지 않습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def follow_up(self, report: Report, plan: Path) -> Any:
        """The seed's follow-up: each card's recapture site and hand against the collection
        plan actually made (:mod:`.followup`)."""
        from .followup import follow_up

        return follow_up([c.to_json() for c in report.cards], plan)

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def card_table(self, card: dict[str, Any]) -> str:
        return "task_spec"

    report_type = RobotReport

    def load(self, path: Path) -> Round:
        return load_round(path)

    def build(self, inputs: Round) -> list[dict[str, Any]]:
        return build_cards(inputs)

    def check_context(self, inputs: Round, cards: list[dict[str, Any]]) -> CheckContext:
        return CheckContext(inputs.tables, cards)


DOMAIN = RobotDomain()


def judge_round(path: str | Path, config: Any = None) -> RobotReport:
    """Judge every task of the round at ``path`` and run the checks (``DOMAIN.judge``).

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    return DOMAIN.judge(Path(path), config)  # type: ignore[return-value]
