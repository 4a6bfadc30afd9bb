"""The extraction domain: does each value an AI worker extracted match the source document?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.model import WITHHELD_NOTE
from verdicts.checks import Check
from verdicts.domain import Domain, Report

from .checks import CHECKS, CheckContext
from .loading import load_batch
from .model import MATCHES, VERDICTS, Batch, ExtractionCard, TABLE_SPECS
from .rules import BOOK, build_cards

__all__ = ["ExtractionDomain", "DOMAIN", "judge_batch", "ExtractionReport"]


class ExtractionReport(Report):
    """A :class:`~verdicts.domain.Report` that also keeps the batch it was made from."""

    batch: Batch


class ExtractionDomain(Domain):
    name = "extraction"
    table_specs = TABLE_SPECS
    title = "AI Worker가 서류에서 뽑은 값이 원문과 맞는지 칸마다 가립니다."
    card_type = ExtractionCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({MATCHES})
    evidence_columns = ("source", "field", "agg", "value")
    books = (BOOK,)
    docs_page = "docs/extraction.md"
    docs_title = "추출한 값: 판정과 자동 검증"
    docs_note = ("입력에서 읽을 수 없는 칸이 필요한 규칙에 이르면 명세가 말하는 다시 불러오기 상태처럼 "
                 f"{WITHHELD_NOTE}. 문구는 가리킨 쪽에서만 찾고, "
                 "그 문구가 있는 다른 쪽은 단서에서 알려 줍니다(`docs/decisions.md`를 보세요).")
    input_noun = "실행 묶음"
    notes = {
        "자동": [
            "열한 가지 자동 검증이 입력 표에서 필수 여부, 형식, 근거 문구의 위치, 원문 값을 따로 다시 읽어 카드마다 판정 차례를 되짚습니다.",
            "원문 값은 인용 문구의 쌍점 뒤나 마지막 어절에서 다시 뽑아, 숫자 칸은 숫자만, 글자 칸은 NFKC로 바꾼 뒤 견줍니다.",
            "근거 항목이 세 표에 실제로 있는 열을 인용하는지, 인용한 줄의 값과 같은지, 원문에 있다고 본 문구가 그 실행의 쪽에 정말 있는지 대조합니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말로 끝나는지 봅니다.",
        ],
        "수동": [
            "근거 문구가 원문에 없음으로 나온 칸 가운데 같은 문구가 다른 쪽에 있어 쪽수만 틀린 칸이 몇 건인지 운영자가 세어, 모든 쪽을 찾을지 정합니다.",
            "운영자가 한 칸을 열고 승인, 수정, 거절 가운데 하나를 고르기까지 걸린 시간을 열 칸쯤 재어 화면 배치를 고칩니다.",
        ],
        "정직 경계선": [
            "이 도구는 인용 문구가 근거로 든 쪽에 글자 그대로 있는지만 보므로, 줄바꿈이나 띄어쓰기가 조금만 달라도 원문에 없다고 판정합니다.",
            "원문 값은 문구의 형태로만 뽑으므로 한 줄에 값이 둘 적힌 문구라면 엉뚱한 값을 뽑을 수 있습니다.",
            "원문 자체가 틀렸거나 서류가 위조되었는지는 이 도구가 알 수 없습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def card_table(self, card: dict[str, Any]) -> str:
        return "worker_outputs"

    report_type = ExtractionReport

    def load(self, path: Path) -> Batch:
        return load_batch(path)

    def build(self, inputs: Batch) -> list[dict[str, Any]]:
        return build_cards(inputs)

    def check_context(self, inputs: Batch, cards: list[dict[str, Any]]) -> CheckContext:
        return CheckContext(inputs.tables, cards)


DOMAIN = ExtractionDomain()


def judge_batch(path: str | Path, config: Any = None) -> ExtractionReport:
    """Judge every cell of the runs at ``path`` and run the checks (``DOMAIN.judge``).

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    return DOMAIN.judge(Path(path), config)  # type: ignore[return-value]
