"""The greenhouse domain: one table, ``plants`` (``plant_id``, ``name``,
``days_since_water``, ``max_dry_days``), two verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from verdicts.card_checks import CardChecks, TableCheckContext
from verdicts.checks import Check
from verdicts.domain import Domain
from verdicts.engine import Missing, Rule, RuleBook
from verdicts.korean import josa
from verdicts.model import Card
from verdicts.tables import Column, TableSpec, load_typed_tables

__all__ = ["DOMAIN", "GreenhouseDomain"]

THIRSTY = "물 줘야 함"
FINE = "괜찮음"

PLANTS = TableSpec("plants", (
    Column("plant_id", "str", required=True),
    Column("name"),
    Column("days_since_water", "int"),
    Column("max_dry_days", "int"),
), key="plant_id")


class PlantCard(Card):
    __slots__ = ()
    key_field: ClassVar[str] = "plant_id"
    field_names: ClassVar[tuple[str, ...]] = ("plant_id", "verdict", "evidence", "summary", "hedge")


def thirsty_sentence(*, name: str, days: int, limit: int) -> str:
    return f"{josa(name, '은/는')} 물을 준 지 {days}일이 지나 견딜 수 있는 {limit}일을 넘었습니다."


def fine_sentence(*, name: str, days: int, limit: int) -> str:
    return f"{josa(name, '은/는')} 물을 준 지 {days}일이라 견딜 수 있는 {limit}일 안에 있습니다."


def _cells(row) -> list[dict[str, Any]]:
    return [{"source": "plants", "field": f, "value": row.values.get(f), "line": row.line}
            for f in ("plant_id", "days_since_water", "max_dry_days")]


class Thirsty(Rule):
    """물 줘야 함 — 물을 준 지 견딜 수 있는 날보다 오래되었습니다.

    잡는 것:
        `days_since_water`가 `max_dry_days`보다 큰 식물을 잡습니다.
    왜 문제인가:
        그대로 두면 식물이 마릅니다.
    예시:
        `days_since_water`가 5이고 `max_dry_days`가 3인 고사리입니다.
    고치는 법:
        오늘 물을 주고 `days_since_water`를 0으로 적으세요.
    """

    verdict, code = THIRSTY, "thirsty"
    templates = (thirsty_sentence,)

    def test(self, ctx, row):
        days, limit = row.values.get("days_since_water"), row.values.get("max_dry_days")
        gap = Missing.among({"plants.days_since_water": days, "plants.max_dry_days": limit})
        return gap if gap is not None else days > limit

    def write(self, ctx, row, draft):
        draft.evidence += _cells(row)
        draft.summary = thirsty_sentence(name=row.values.get("name") or row.values["plant_id"],
                                         days=row.values["days_since_water"], limit=row.values["max_dry_days"])


class Fine(Rule):
    """괜찮음 — 물을 준 지 견딜 수 있는 날 안에 있습니다.

    잡는 것:
        잘못된 것은 없습니다.
    왜 문제인가:
        문제가 아닙니다.
    예시:
        `days_since_water`가 1이고 `max_dry_days`가 3인 선인장입니다.
    고치는 법:
        바꿀 것이 없습니다.
    """

    verdict, code = FINE, "fine"
    templates = (fine_sentence,)

    def write(self, ctx, row, draft):
        draft.evidence += _cells(row)
        draft.summary = fine_sentence(name=row.values.get("name") or row.values["plant_id"],
                                      days=row.values.get("days_since_water"), limit=row.values.get("max_dry_days"))


BOOK = RuleBook((Thirsty(), Fine()), fields=PlantCard.field_names, on_missing="withhold")

CARD_CHECKS = CardChecks(key_field="plant_id", enums={"verdict": (THIRSTY, FINE)},
                         required=("plant_id", "verdict", "evidence", "summary"), tables=("plants",))
CHECKS = list(CARD_CHECKS.all({"enum": ("G1", "`verdict` 값이 두 판정 가운데 하나인지 확인합니다."),
                               "required": ("G2", "필수 칸이 모두 있는지 확인합니다."),
                               "field": ("G3", "근거가 입력의 실제 열을 인용하는지 대조합니다."),
                               "value": ("G4", "근거 값이 인용한 줄의 값과 같은지 확인합니다."),
                               "polite": ("G5", "요약이 존댓말 한 문장인지 확인합니다.")}).values())


class Plants:
    """The typed ``plants`` table, with its issues and sources."""

    def __init__(self, tables, issues, sources):
        self.tables, self.issues, self.sources = tables, issues, sources


class GreenhouseDomain(Domain):
    name = "greenhouse"
    title = "온실의 식물마다 물을 줘야 하는지 판정합니다."
    table_specs = (PLANTS,)
    card_type = PlantCard
    verdicts = (THIRSTY, FINE)
    passing_verdicts = frozenset({FINE})
    books = (BOOK,)
    docs_page = "docs/greenhouse.md"
    docs_title = "온실: 판정과 자동 검증"
    notes = {
        "자동": ["다섯 가지 자동 검증이 카드의 판정 이름, 필수 칸, 근거의 열과 값, 문장을 입력 표와 맞춰 봅니다."],
        "수동": ["흙이 정말 말랐는지는 사람이 손으로 만져 봅니다."],
        "정직 경계선": ["이 도구는 적힌 날수만 믿으므로, 비가 들이쳤는지는 알지 못합니다."],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def card_table(self, card: dict[str, Any]) -> str:
        return "plants"

    def load(self, path: Path) -> Plants:
        issues: list = []
        raw, typed = load_typed_tables(Path(path), (PLANTS,), issues, required=("plants",), single_csv_table="plants")
        return Plants(typed, issues, [t.source() for t in raw.values()])

    def build(self, inputs: Plants) -> list[dict[str, Any]]:
        table = inputs.tables.get("plants")
        cards = []
        for row in table.rows if table is not None else ():
            card = BOOK.card(self, row, {"plant_id": row.values["plant_id"]})
            if card is not None:
                cards.append(card)
        return cards

    def check_context(self, inputs: Plants, cards: list[dict[str, Any]]) -> TableCheckContext:
        return TableCheckContext(inputs.tables, cards, key_column="plant_id")


DOMAIN = GreenhouseDomain()
