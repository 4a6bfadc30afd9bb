"""The residue domain: judge card E3 over generated slide components."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.checks import Check
from verdicts.domain import Domain, Report
from verdicts.model import InputIssue

from .checks import CHECKS, CheckContext
from .loading import TABLE, load_components
from .model import ANSWERS, COMPLETE, SATELLITE_ONLY, VERDICTS, ResidueCard
from .readers import DEFAULT_READER, Reader
from .rules import BOOK, build_card

__all__ = ["ResidueDomain", "DOMAIN", "judge_components"]


class ResidueDomain(Domain):
    name = "residue"
    title = "생성된 슬라이드 컴포넌트마다 임시 문구나 템플릿 글이 남아 보이는지 카드 E3로 판정합니다."
    card_type = ResidueCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({ANSWERS[SATELLITE_ONLY], ANSWERS[COMPLETE]})
    evidence_columns = ("source", "field", "value", "quote")
    gold_fields = ("answer",)
    books = (BOOK,)
    input_noun = "컴포넌트"
    docs_page = "docs/residue.md"
    docs_title = "Placeholder residue (card E3): answers and checks"
    docs_note = ("The reading step is given (`visible_texts`) for now; the rules judge what was read, "
                 "and a text only in the data does not exist (see `docs/decisions.md`).")
    notes = {
        "자동": [
            "다섯 가지 자동 검증이 답의 키와 라벨을 카드 E3 파일에서 다시 읽어 맞춰 보고, 근거가 그림에서 읽은 글만 인용하는지 대조합니다.",
            "보이는 글마다 출처가 하나씩 붙었는지, 경계 안 템플릿 글이 있으면 답이 'template_left'인지 판정 차례를 다시 따라갑니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말 한 문장인지 봅니다.",
        ],
        "수동": [
            "그림에서 읽은 글 목록이 실제 그림과 맞는지는 사람이 그림을 열어 확인합니다.",
            "항목 수에 맞춘 이름표 판단이 뜻까지 맞는지는 어긋남으로 나온 카드부터 사람이 봅니다.",
        ],
        "정직 경계선": [
            "이 도구는 주어진 보이는 글 목록을 그대로 믿으므로, 글 읽기를 놓치면 그 글은 없는 글로 판정됩니다.",
            "OCR 읽기는 아직 붙지 않았고, 읽기 함수는 바꿔 끼울 수 있게만 만들어 두었습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def card_table(self, card: dict[str, Any]) -> str:
        """A component's file is recorded under its ``component_id``."""
        return str(card.get("component_id"))

    def judge(self, path: Path, config: Any = None, progress: Any = None) -> Report:
        return judge_components(path, config)


DOMAIN = ResidueDomain()


def judge_components(path: str | Path, config: Any = None, reader: Reader = DEFAULT_READER) -> Report:
    """Judge every component at ``path`` (a file or a folder), reading each picture with
    ``reader`` (step 1), and run the checks.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    loaded = load_components(path)
    cards, issues = [], list(loaded.issues)
    components, visible = {}, {}
    for component in loaded.components:
        key = component.component_id
        texts = reader(component, loaded.base[key])
        if texts is None:
            issues.append(InputIssue(file=loaded.files[key], table=TABLE, column="visible_texts",
                                     reason="보이는 글이 주어지지 않았고 그림을 읽을 읽기 함수도 없어 판정하지 않았습니다."))
            continue
        components[key], visible[key] = component, texts
        cards.append(build_card(component, texts))
    checks = CHECKS.run(CheckContext(components, visible, cards))
    report = Report("residue", [ResidueCard(d) for d in cards], issues, checks, loaded.sources)
    return DOMAIN.finish(report, config)
