"""Intended findings and the exit rule, for every domain.

A person records that a finding is intended, with a reason, in two places:
``[[accept]]`` entries of the configuration (by ``target`` — a card's key or a finding's
target — and optionally ``code``: a verdict label or rule code, or a finding code), and
an optional ``lint_ignore`` column of an input row (its text is the reason; it accepts
the card's verdict and the findings on that row's target; a domain names such rows with
:meth:`~verdicts.domain.Domain.ignore_rows`).  An accepted finding keeps its verdict
and card: it is shown greyed with its reason and no longer fails the run.  An
acceptance that matches nothing is reported as an input issue, so stale ones do not
pile up.  A domain may extend what was accepted (storygraph: an accepted open ending
covers what leads only into it) with :meth:`~verdicts.domain.Domain.extend_acceptances`.

:func:`apply_acceptances` never changes the report it is given: it returns a new one.
"""

from __future__ import annotations

import copy
from typing import Any

from .config import Config
from .korean import code
from .model import WITHHELD_KEY, InputIssue

__all__ = ["apply_acceptances", "accepts_anything", "failing", "exit_code", "failed_checks", "checks_failed_message",
           "CHECKS_FAILED"]


def accepts_anything(domain, report, config: Config) -> bool:
    """Whether ``config`` or the inputs record any acceptance for ``report``."""
    return bool(config.accept) or bool(domain.ignore_rows(report))


def apply_acceptances(domain, report, config: Config):
    """A copy of ``report`` with the accepted cards and findings marked, and an issue for
    each acceptance that matched nothing (the given report is left as it was)."""
    rows = domain.ignore_rows(report)
    if not config.accept and not rows:
        return report
    passing = domain.passing_verdicts
    cards = {c.key: c for c in report.cards}
    accepted_cards: dict[str, str] = {}
    accepted_findings: dict[int, str] = {}
    findings_by_target: dict[str, list[int]] = {}
    for i, f in enumerate(report.findings):
        findings_by_target.setdefault(f.target, []).append(i)
    issues: list[InputIssue] = []

    def accept(target: str, code: str | None, reason: str) -> bool:
        matched = False
        card = cards.get(target)
        wanted = code or None
        if (card is not None and card.verdict not in passing and card.withheld is None
                and (wanted is None or _names(domain, card, wanted))):
            accepted_cards[target] = reason  # a later acceptance of the same target wins
            matched = True
        for i in findings_by_target.get(target, []):
            if wanted is None or wanted == report.findings[i].code:
                accepted_findings[i] = reason
                matched = True
        return matched

    for entry in config.accept:
        if not accept(entry.target, entry.code, entry.reason):
            what = code(entry.target) + (f"({code(entry.code)})" if entry.code else "")
            issues.append(InputIssue(file=config.source, table="accept", column="target",
                                     reason=f"의도된 것으로 적어 둔 {what}에 해당하는 판정이나 발견이 없습니다. 낡은 항목이면 지워 주세요."))
    for target, reason, file, table, line in rows:
        if not accept(target, None, reason):
            issues.append(InputIssue(file=file, table=table, line=line, column="lint_ignore",
                                     reason=f"`lint_ignore` 칸에 값이 적혀 있지만 {code(target)}에는 의도됨으로 둘 판정이나 발견이 없습니다. 낡은 값이면 지워 주세요."))
    for key, reason in domain.extend_acceptances(report, dict(accepted_cards)).items():
        accepted_cards.setdefault(key, reason)
    out = copy.copy(report)
    out.cards = [type(c)(c.data, accepted_cards[c.key]) if c.key in accepted_cards else c for c in report.cards]
    out.findings = [f.replace(accepted=accepted_findings[i]) if i in accepted_findings else f
                    for i, f in enumerate(report.findings)]
    out.issues = list(report.issues) + issues
    return out


def _names(domain, card, name: str) -> bool:
    """Whether ``name`` (a verdict label or a rule code) names the card's verdict."""
    if name == card.verdict:
        return True
    rule = domain.rule_of(card.data)
    return rule is not None and rule.code == name


def card_fails(domain, card: dict[str, Any], fail_on: frozenset[str]) -> bool:
    """The exit rule of one card (as JSON) that is not accepted: a withheld card fails
    the run only when ``fail_on`` holds ``withheld``; any other, when its verdict does
    not pass and ``fail_on`` names it, by label or by its rule's code.  (A streamed run
    applies it to each card as it is made; :func:`failing` to a report's cards.)"""
    if card.get("withheld") is not None:
        return WITHHELD_KEY in fail_on
    verdict = card["verdict"]
    if verdict in domain.passing_verdicts:
        return False
    if verdict in fail_on:
        return True
    if fail_on.isdisjoint(domain.verdict_codes()):
        return False
    rule = domain.rule_of(card)
    return rule is not None and rule.code in fail_on


def failing(domain, report, config: Config) -> bool:
    """The one exit rule: the run fails when a card that is not accepted fails it
    (:func:`card_fails`), a finding that is not accepted is in ``fail_on`` (by code, or
    all of them with ``findings``), or there is an input issue and ``fail_on`` holds
    ``issues``.  A withheld finding fails it only when ``fail_on`` holds ``withheld``."""
    fail_on = config.failing_set(domain)
    if "issues" in fail_on and report.issues:
        return True
    for card in report.cards:
        if not card.accepted and card_fails(domain, card.data, fail_on):
            return True
    for finding in report.findings:
        if getattr(finding, "accepted", None):
            continue
        if getattr(finding, "withheld", None) is not None:
            if WITHHELD_KEY in fail_on:
                return True
            continue
        if "findings" in fail_on or finding.code in fail_on:
            return True
    return False


#: the exit code of a run in which an automatic self-check failed: its verdicts may be wrong
CHECKS_FAILED = 3


def failed_checks(report) -> list[str]:
    """The ids of the automatic checks that failed on ``report``."""
    return [c.id for c in getattr(report, "checks", None) or () if not c.passed]


def checks_failed_message(ids) -> str:
    """The one Korean line said (on stderr) when a self-check failed."""
    from .korean import josa

    return (f"자동 검증 {josa(', '.join(ids), '이/가')} 실패했으므로 이번 판정은 틀렸을 수 있으니 "
            f"결과를 믿기 전에 실패한 검증이 가리키는 카드를 확인해 주세요.")


def exit_code(domain, report, config: Config | None = None) -> int:
    """:data:`CHECKS_FAILED` (3) when an automatic check failed (the verdicts may be
    wrong, whatever they are); else 1 when something fails the run (:func:`failing`);
    else 0."""
    if failed_checks(report):
        return CHECKS_FAILED
    return 1 if failing(domain, report, config or domain.config_type()) else 0
