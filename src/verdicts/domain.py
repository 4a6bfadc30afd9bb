"""What a verdict domain plugs into the shared core, and the registry of domains.

A domain adds only its inputs, rules, checks and sentence templates; loading helpers,
the card/evidence model, check running, schema validation, grouping and reporters are
shared.  Each domain module exposes one :class:`Domain` instance.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .checks import Check
from .model import Card, CheckResult, Finding, InputIssue, SourceInfo
from .schema import schema_check

__all__ = ["Domain", "Report", "DOMAINS", "get_domain", "domain_names"]


@dataclass
class Report:
    """Everything one run produced: cards, input issues, check results, lint findings
    and where the inputs came from.  Reporters render it; nothing else mutates it."""

    domain: str
    cards: list[Card]
    issues: list[InputIssue]
    checks: list[CheckResult]
    sources: list[SourceInfo] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "cards": [c.to_json() for c in self.cards],
            "issues": [i.to_json() for i in self.issues],
            "checks": [c.to_json() for c in self.checks],
        }
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        out["inputs"] = [s.model_dump() for s in self.sources]
        return out


class Domain(ABC):
    """A family of verdicts over one kind of record.

    Subclasses set the class attributes and implement :meth:`judge`.
    """

    #: short name used on the command line (``verdicts run NAME``) and for the schema file
    name: str
    #: one Korean line saying what the domain decides
    title: str
    #: the card class (a :class:`~verdicts.model.Card` subclass)
    card_type: type[Card]
    #: every verdict, in the order of precedence (first match wins) — also the screen order
    verdicts: tuple[str, ...]
    #: verdicts that are not findings (a run with only these exits 0)
    passing_verdicts: frozenset[str]
    #: the column that subdivides a verdict group on screen, per verdict (robot: blocked_cause)
    subgroup_field: dict[str, str] = {}
    #: the columns of the expandable evidence table on screen, in order
    evidence_columns: tuple[str, ...] = ("field", "agg", "value")
    #: card fields a gold file may also give and the grading runner compares
    gold_fields: tuple[str, ...] = ()
    #: verification notes for the screen: "자동" (what the checks cover), "수동" (what a
    #: person must look at), "정직 경계선" (what the tool cannot know) → Korean sentences
    notes: dict[str, list[str]] = {}

    @abstractmethod
    def judge(self, path: Path) -> Report:
        """Read ``path``, judge every target and run the checks.

        Raises :class:`~verdicts.errors.InputError` only when nothing at all can be read.
        """

    @abstractmethod
    def checks(self) -> list[Check[Any]]:
        """The domain's automatic checks, in their seed's order."""

    def finish(self, report: Report, card_json: list[dict[str, Any]] | None = None) -> Report:
        """Append the schema check every domain shows beside its own checks.

        ``card_json``, when given, is the cards' JSON already made for the checks (one
        pass over the cards instead of two on large runs)."""
        report.checks.append(schema_check(self.name, report.cards, card_json))
        return report

    def exit_code(self, report: Report) -> int:
        """0 when every card passes and no issue was found, else 1."""
        bad = any(c.verdict not in self.passing_verdicts and not getattr(c, "accepted", None) for c in report.cards)
        return 1 if bad or report.issues or report.findings else 0


#: registered domains: name -> "module:attribute" (imported on first use)
DOMAINS: dict[str, str] = {
    "storygraph": "storygraph.domain:DOMAIN",
    "robot": "verdicts.robot.domain:DOMAIN",
}


def domain_names() -> list[str]:
    return list(DOMAINS)


def get_domain(name: str) -> Domain:
    try:
        target = DOMAINS[name]
    except KeyError:
        from .errors import VerdictsError

        raise VerdictsError(f"알 수 없는 도메인 '{name}'입니다. 있는 도메인: {', '.join(DOMAINS)}") from None
    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)
