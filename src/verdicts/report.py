"""Grouping cards by verdict and the interchangeable reporters (terminal text, JSON).

Reporters take a finished :class:`~verdicts.domain.Report` and return text; they never
compute verdicts.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Iterable, Sequence

from .domain import Domain, Report
from .model import Card
from .tables import json_dumps

__all__ = ["group_by_verdict", "render_text", "render_json", "REPORTERS"]


def group_by_verdict(cards: Iterable[Card], order: Sequence[str]) -> "OrderedDict[str, list[Card]]":
    """Cards grouped by verdict, every verdict of ``order`` present (possibly empty),
    cards in their original order within a group.

    >>> from types import SimpleNamespace as Card
    >>> g = group_by_verdict([Card(k="a", verdict="y"), Card(k="b", verdict="x")], ["x", "y", "z"])
    >>> {v: [c.k for c in cs] for v, cs in g.items()}
    {'x': ['b'], 'y': ['a'], 'z': []}
    """
    groups: OrderedDict[str, list[Card]] = OrderedDict((v, []) for v in order)
    for card in cards:
        groups.setdefault(card.verdict, []).append(card)
    return groups


def _subgroups(domain: Domain, verdict: str, cards: list[Card]) -> list[tuple[str | None, list[Card]]]:
    field = domain.subgroup_field.get(verdict)
    if not field:
        return [(None, cards)]
    out: OrderedDict[str | None, list[Card]] = OrderedDict()
    for card in cards:
        out.setdefault(getattr(card, field, None), []).append(card)
    return list(out.items())


def render_text(report: Report, domain: Domain) -> str:
    """Cards grouped by verdict (label · key · summary, hedge below), then input issues,
    then lint findings, then the automatic checks."""
    lines: list[str] = []
    for src in report.sources:
        enc = f", {src.encoding}" if src.encoding else ""
        lines.append(f"입력: {src.file} [{src.table}, {src.form}{enc}, {src.rows}행]")
    if report.sources:
        lines.append("")
    groups = group_by_verdict(report.cards, domain.verdicts)
    for verdict, cards in groups.items():
        lines.append(f"■ {verdict} ({len(cards)})")
        for sub, sub_cards in _subgroups(domain, verdict, cards):
            indent = "  "
            if sub is not None:
                lines.append(f"  ▸ {sub} ({len(sub_cards)})")
                indent = "    "
            for card in sub_cards:
                accepted = getattr(card, "accepted", None)
                mark = f" [의도됨: {accepted}]" if accepted else ""
                lines.append(f"{indent}{card.verdict} · {card.key}  {card.summary}{mark}")
                if card.hedge:
                    lines.append(f"{indent}  ↳ {card.hedge}")
        lines.append("")
    lines.append(f"■ 입력 문제 ({len(report.issues)})")
    for issue in report.issues:
        lines.append(f"  {issue.where()} — {issue.reason}")
    lines.append("")
    if report.findings:
        lines.append(f"■ 린트 발견 ({len(report.findings)})")
        for finding in report.findings:
            accepted = getattr(finding, "accepted", None)
            mark = f" [의도됨: {accepted}]" if accepted else ""
            lines.append(f"  {finding.code} · {finding.target}  {finding.message}{mark}")
        lines.append("")
    passed = sum(1 for c in report.checks if c.passed)
    lines.append(f"■ 자동 검증 ({passed}/{len(report.checks)} 통과)")
    for check in report.checks:
        status = "통과" if check.passed else "실패"
        tail = f" — 실패: {', '.join(check.failed_targets)}" if check.failed_targets else ""
        note = f" ({check.note})" if check.note else ""
        lines.append(f"  [{status}] {check.id} {check.description}{tail}{note}")
    return "\n".join(lines) + "\n"


def render_json(report: Report, domain: Domain) -> str:
    """One JSON object ``{"cards", "issues", "checks", …}``."""
    return json_dumps(report.to_json()) + "\n"


REPORTERS = {"text": render_text, "json": render_json}
