"""The mail domain: did the mail an AI agent sent on the user's behalf stick to what the
original said?"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from verdicts.model import WITHHELD_NOTE
from verdicts.checks import Check
from verdicts.domain import Domain, Report

from .checks import CHECKS, CheckContext
from .loading import load_mailbox
from .model import AS_ORIGINAL, VERDICTS, MailCard, Mailbox, TABLE_SPECS
from .rules import BOOK, build_cards

__all__ = ["MailDomain", "DOMAIN", "judge_mailbox", "MailReport"]


#: how the refusal of a mailbox names each form (verdicts.mail.importer.mailbox_form)
_FORMS = {"maildir": "Maildir 메일함", "mbox": "mbox 메일함", "eml": ".eml 메일", "eml-folder": ".eml 메일 폴더"}
_TABLE_SUFFIXES = (".csv", ".tsv", ".xlsx", ".json", ".yaml", ".yml")


class MailReport(Report):
    """A :class:`~verdicts.domain.Report` that also keeps the mailbox it was made from."""

    mailbox: Mailbox


class MailDomain(Domain):
    name = "mail"
    table_specs = TABLE_SPECS
    title = "AI가 대신 보낸 메일이 받은 메일에 있던 말대로 나갔는지 처리마다 가립니다."
    card_type = MailCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({AS_ORIGINAL})
    evidence_columns = ("field", "agg", "value", "quote")
    books = (BOOK,)

    @property
    def config_type(self) -> type:
        from .config import MailConfig

        return MailConfig

    docs_page = "docs/mail.md"
    docs_title = "AI 에이전트가 보낸 메일: 판정과 자동 검증"
    docs_note = ("답한 메일은 대화에서 `sent_at`과 같거나 그 전에 받은 메일 가운데 가장 늦은 것입니다. "
                 "`overdue_hours`와 `low_confidence`는 판정과 상관없이 채우고, 뒤의 규칙도 해당했다면 그 사유는 단서로 "
                 "적습니다. 입력에 있지만 읽을 수 없는 값이 필요한 규칙에 이르면 "
                 f"{WITHHELD_NOTE}(`docs/decisions.md`를 보세요). `120만원`처럼 한국어로 적은 금액 하나는 읽습니다. "
                 "명세에 실린 견본 카드는 `tests/verdicts/test_seed_cards.py`가 명세 문서에서 읽어 "
                 "검사하며, 모든 검증을 통과합니다.")
    notes = {
        "자동": [
            "아홉 가지 자동 검증이 카드마다 입력 표에서 답한 메일을 다시 찾아 `overdue_hours`와 `low_confidence`를 따로 계산해 카드 값과 맞춰 봅니다.",
            "상대가 회신 기한을 적지 않은 메일에 답한 처리는 얼마나 늦었든 `overdue_hours`가 비어 있는지 따로 확인합니다.",
            "근거 항목이 세 표에 실제로 있는 열을 인용하는지, `quote`와 `agg` 없는 `value`가 인용한 줄의 원문과 같은지 대조합니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말로 끝나는지 봅니다.",
        ],
        "수동": [
            "카드 문장이 에이전트의 프롬프트를 모르는 사용자에게도 그대로 읽히는지 사람이 읽어 봅니다.",
            "원문에 없는 값이라는 판정이 상대가 보낸 메일의 뜻과 어긋나지 않는지 받은 메일을 열어 사람이 확인합니다.",
            "확신도가 낮은 처리 목록은 사용자가 한 번씩 열어 보고, 기준 점수가 알맞은지 `action_policy`를 고칩니다.",
        ],
        "정직 경계선": [
            "이 도구는 표에 적힌 금액과 날짜만 견주므로, 본문의 다른 사실을 지어냈는지는 알지 못합니다.",
            "받은 메일의 금액과 날짜가 표에 옮겨질 때 틀렸다면 판정도 그만큼 틀립니다.",
            "같은 대화에 답장이 두 번 나갔는지는 `agent_action`에 기록된 처리만 보고 가리므로, 사람이 직접 보낸 답장은 세지 않습니다.",
            "시간대가 적히지 않은 시각은 UTC로 보고 계산하므로, 오프셋 없이 쓴 표에서는 모든 시각을 같은 시간대로 적어야 맞게 견줍니다.",
            "메일함에서 가져온 표의 대화는 `References`와 `In-Reply-To`로 묶고, 제목은 상대가 같고 정한 기간 안일 때만 묶으므로, 그런 머리글 없이 다른 주소로 이어 쓴 메일은 다른 대화가 됩니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def card_table(self, card: dict[str, Any]) -> str:
        return "agent_action"

    report_type = MailReport

    def refuse(self, path: Path) -> None:
        """A mailbox (Maildir, mbox, ``.eml``) given where the tables belong is refused
        with the command that turns it into tables; then the kit's look at another
        domain's tables."""
        from verdicts.errors import InputError
        from verdicts.korean import code, josa

        from .importer import mailbox_form

        form = None if Path(path).suffix.lower() in _TABLE_SUFFIXES else mailbox_form(path)
        try:
            if form == "eml-folder" and any(p.suffix.lower() in _TABLE_SUFFIXES for p in Path(path).iterdir()):
                form = None  # tables beside the mail: the tables are what is judged
        except OSError:
            form = None  # the loader says what cannot be read
        if form is not None:
            import shlex

            where = shlex.quote(str(path))
            raise InputError(f"{path}: {josa(_FORMS[form], '은/는')} 표가 아니라 바로 판정할 수 없으니 "
                             f"{josa(code(f'verdicts mail import {where} -o DIR'), '으로/로')} 세 표를 만든 뒤 "
                             f"{josa(code('verdicts run mail DIR'), '으로/로')} 판정해 주세요.")
        super().refuse(path)

    def load(self, path: Path) -> Mailbox:
        return load_mailbox(path)

    def build(self, inputs: Mailbox) -> list[dict[str, Any]]:
        return build_cards(inputs)

    def check_context(self, inputs: Mailbox, cards: list[dict[str, Any]]) -> CheckContext:
        return CheckContext(inputs.tables, cards)

    def screen_extras(self, report: Report, grading: Any = None) -> Any:
        """The generic screen plus the low-confidence list as its own panel: every card
        whose ``low_confidence`` is true, whatever its verdict, in card order."""
        from verdicts.screen import CardListPanel, ScreenExtras

        low = [c.key for c in report.cards if getattr(c, "low_confidence", None) is True]
        panel = CardListPanel(
            id="low-confidence", title="확신도가 낮았던 처리", keys=low, columns=["verdict", "thread_id", "counterpart"],
            intro="확신도(`confidence`)가 처리 종류의 `min_confidence`보다 낮았던 처리입니다. 판정과 상관없이 모두 모았으니 한 번씩 열어 보세요.",
            empty="확신도가 기준보다 낮았던 처리가 없습니다.")
        return ScreenExtras(grading=grading, panels=[panel])


DOMAIN = MailDomain()


def judge_mailbox(path: str | Path, config: Any = None) -> MailReport:
    """Judge every action of the mailbox round at ``path`` and run the checks (``DOMAIN.judge``).

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    return DOMAIN.judge(Path(path), config)  # type: ignore[return-value]
