"""The residue domain: judge card E3 over generated slide components.

Written on the kit's table-domain steps (:meth:`verdicts.domain.Domain.judge`):
:meth:`ResidueDomain.load` reads the component files, :meth:`ResidueDomain.build` reads
each picture with the domain's reader (step 1) and judges it (steps 2 and 3), and
:meth:`ResidueDomain.check_context` hands the checks what they recompute from.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.checks import Check
from verdicts.domain import Domain, Report
from verdicts.model import InputIssue

from .checks import CHECKS, CheckContext
from .loading import TABLE, ComponentSet, load_components
from .model import AGGREGATE, ANSWERS, COMPLETE, SATELLITE_ONLY, VERDICTS, Component, ResidueCard
from .pictures import UnreadablePicture
from .readers import DEFAULT_READER, Reader, ReaderUnavailable
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
    docs_title = "템플릿 잔존(카드 E3): 답과 자동 검증"
    docs_note = ("1단계에서 보이는 글을 읽습니다. 컴포넌트에 `visible_texts`가 있으면 그것을, 없으면 `result_thumb`에 "
                 "Tesseract(한국어와 영어)를 돌려 읽습니다. 규칙은 읽은 글을 판정하며, 데이터에만 있는 글은 없는 것으로 "
                 "봅니다(`docs/decisions.md`를 보세요).")
    notes = {
        "자동": [
            "다섯 가지 자동 검증이 답의 키와 라벨을 카드 E3 파일에서 다시 읽어 맞춰 보고, 근거가 그림에서 읽은 글만 인용하는지 대조합니다.",
            "보이는 글마다 출처가 하나씩 붙었는지, 경계 안 템플릿 글이 있으면 답이 `template_left`인지 판정 차례를 다시 따라갑니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 저마다 존댓말 한 문장인지, 단서 한 문장이 단서 하나만 말하는지 봅니다.",
        ],
        "수동": [
            "그림에서 읽은 글 목록이 실제 그림과 맞는지는 사람이 카드의 그림과 상자를 보고 확인합니다.",
            "항목 수에 맞춘 이름표 판단이 뜻까지 맞는지는 어긋남으로 나온 카드부터 사람이 봅니다.",
        ],
        "정직 경계선": [
            "글 읽기를 놓치면 그 글은 없는 글로 판정되므로, OCR이 잘못 읽은 글자는 템플릿 글로, 못 읽은 글은 빈 자리로 나올 수 있습니다.",
            "OCR은 Tesseract의 한국어 데이터로 읽으며, 예시 101개를 그림으로 그려 다시 읽었을 때 답이 주어진 글의 답과 같은 것은 65개였고, 예시에 딸린 그림 12개에서는 모두 같았습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def __init__(self, reader: Reader = DEFAULT_READER):
        #: step 1: how each component's visible texts are read
        self.reader = reader

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def aggregate(self, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
        """Card E3's ``aggregate: ratio``: the share of the judged components whose answer
        is a defect (rounded to four places; ``None`` with no component)."""
        defects = sum(1 for c in cards if c.get("defect") is True)
        return {"kind": AGGREGATE, "defects": defects, "total": len(cards),
                "value": round(defects / len(cards), 4) if cards else None}

    def card_table(self, card: dict[str, Any]) -> str:
        """A component's file is recorded under its ``component_id``."""
        return str(card.get("component_id"))

    input_kind = "컴포넌트 파일"

    def input_names(self) -> dict[str, frozenset[str]]:
        """One kind of file: a component, whose top-level keys are its fields."""
        return {TABLE: frozenset(Component.model_fields)}

    def input_columns(self) -> list[tuple[frozenset[str], frozenset[str]]]:
        return [(frozenset(Component.model_fields), frozenset({"component_id"}))]

    def screen_extras(self, report: Report, grading: Any = None) -> Any:
        """The generic screen with a figure on every card: the component's picture (or
        its node boxes) with the texts read off it boxed and coloured by source."""
        from verdicts.screen import ScreenExtras

        from .figures import component_figure

        inputs: ComponentSet | None = report.inputs
        figures = {}
        if inputs is not None:
            components = inputs.by_id()
            for card in report.cards:
                key = card.key
                if key in components and key in inputs.visible:
                    figures[key] = component_figure(components[key], inputs.visible[key], card.attributions or [],
                                                    inputs.base[key])
        return ScreenExtras(grading=grading, figures=figures)

    def load(self, path: Path) -> ComponentSet:
        return load_components(path)

    def build(self, inputs: ComponentSet) -> list[dict[str, Any]]:
        """Read each component with :attr:`reader` and judge what was read; a component
        whose picture cannot be read becomes an input issue and gets no card."""
        cards = []
        for component in inputs.components:
            key = component.component_id
            file = inputs.files[key]
            try:
                texts = self.reader(component, inputs.base[key])
            except (UnreadablePicture, ReaderUnavailable) as exc:
                inputs.issues.append(InputIssue(file=file, table=TABLE, column="result_thumb",
                                                reason=f"{component.result_thumb}: {exc} 이 컴포넌트는 판정하지 않았습니다."))
                continue
            if texts is None:
                inputs.issues.append(InputIssue(file=file, table=TABLE, column="visible_texts",
                                                reason="보이는 글이 주어지지 않았고 읽을 그림(`result_thumb`)도 없어 판정하지 않았습니다."))
                continue
            inputs.visible[key] = texts
            cards.append(build_card(component, texts))
        return cards

    def check_context(self, inputs: ComponentSet, cards: list[dict[str, Any]]) -> CheckContext:
        judged = {k: c for k, c in inputs.by_id().items() if k in inputs.visible}
        return CheckContext(judged, inputs.visible, cards)


DOMAIN = ResidueDomain()


def judge_components(path: str | Path, config: Any = None, reader: Reader = DEFAULT_READER) -> Report:
    """Judge every component at ``path`` (a file or a folder), reading each picture with
    ``reader`` (step 1), and run the checks.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    domain = DOMAIN if reader is DEFAULT_READER else ResidueDomain(reader)
    return domain.judge(Path(path), config)
