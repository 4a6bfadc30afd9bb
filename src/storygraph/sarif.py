"""SARIF 2.1.0 and GitHub workflow-annotation reporters.

Every card whose verdict is not ``끝까지 닿음``, every lint finding and every input issue
becomes a result pointing at the file and line of the row concerned.  Rules carry the
stable code, and their help text comes from the same docstrings as ``docs/verdicts.md``.
Accepted (intended) findings are kept, with a suppression carrying the reason.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .docs import doc_sections, rule_doc_sections
from .findings import KINDS
from .model import REACHED_AND_ENDS, SCENE

__all__ = ["render_sarif", "render_sarif_many", "render_github", "sarif_log", "sarif_log_many", "sarif_log_of_results", "sarif_results", "render_sarif_results", "CardResults", "other_results", "github_lines"]

INPUT_ISSUE = "input-issue"
INFO_URI = "https://github.com/storygraph/storygraph/blob/main/docs/verdicts.md"


def _uri(file: str | None) -> str | None:
    if not file:
        return None
    file = file.split("#", 1)[0]  # an xlsx sheet suffix
    try:
        rel = os.path.relpath(file)
        path = Path(rel if not rel.startswith("..") else file)
    except ValueError:
        path = Path(file)
    return path.as_posix()


def _rules() -> list[dict[str, Any]]:
    from .rules import RULES

    rules: dict[str, dict[str, Any]] = {}
    for rule in RULES:
        if rule.verdict == REACHED_AND_ENDS or rule.code in rules:
            continue
        headline, sections = rule_doc_sections(rule)
        rules[rule.code] = _rule(rule.code, rule.verdict, headline, sections)
    for kind in KINDS:
        lines = kind.doc.splitlines()
        sections = doc_sections(kind.doc)
        rules[kind.code] = _rule(kind.code, kind.title, lines[0].strip(), sections)
    rules[INPUT_ISSUE] = {
        "id": INPUT_ISSUE, "name": "InputIssue",
        "shortDescription": {"text": "입력 문제 — a row, column or value that could not be read as the contract says."},
        "fullDescription": {"text": "A bad row, a missing column, an empty or duplicate id, or a condition that does not parse. What depends on it was withheld; everything else was judged."},
        "help": {"text": "Fix the cell named by the result's line and column.", "markdown": "Fix the cell named by the result's line and column."},
        "defaultConfiguration": {"level": "error"},
    }
    return list(rules.values())


def _rule(code: str, label: str, headline: str, sections: dict[str, str]) -> dict[str, Any]:
    help_md = "\n\n".join(f"**{k}.** {v}" for k, v in sections.items())
    return {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("-")),
        "shortDescription": {"text": headline},
        "fullDescription": {"text": sections.get("What it flags", headline)},
        "help": {"text": " ".join(f"{k}: {v}" for k, v in sections.items()), "markdown": help_md},
        "helpUri": INFO_URI,
        "defaultConfiguration": {"level": "warning"},
        "properties": {"label": label},
    }


def _location(file: str | None, line: int | None) -> list[dict[str, Any]]:
    uri = _uri(file)
    if uri is None:
        return []
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    if line:
        physical["region"] = {"startLine": line}
    return [{"physicalLocation": physical}]


def sarif_log(report, version: str) -> dict[str, Any]:
    """The SARIF log of one lint report (a ``LintResult``)."""
    return sarif_log_many([report], version)


def sarif_log_many(reports, version: str) -> dict[str, Any]:
    """One SARIF log (one run) with the results of several lint reports."""
    return sarif_log_of_results([result for report in reports for result in sarif_results(report)], version)


def sarif_log_of_results(results: list[dict[str, Any]], version: str) -> dict[str, Any]:
    """One SARIF log (one run) with ``results`` (of :func:`sarif_results`, maybe made in
    other processes)."""
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "storygraph", "version": version, "informationUri": INFO_URI, "rules": _rules()}},
            "results": results,
        }],
    }


class CardResults:
    """Makes the SARIF result of each card that is not ``끝까지 닿음``, from the card's
    fields, so that batches of cards made in other processes get theirs there."""

    def __init__(self, scenario):
        from .rules import RULES

        self.code_of = {(r.kind, r.verdict): r.code for r in RULES}
        self.sc = scenario
        self.branch_rows = {b.branch_id: b for b in reversed(scenario.branches)}  # the first row of an id wins
        self.scene_file = scenario.files.get("scene_states")
        self.branch_file = scenario.files.get("story_branches")

    def result(self, target_no: str, target_kind: str, verdict: str, summary, hedge, accepted=None) -> dict[str, Any] | None:
        if verdict == REACHED_AND_ENDS:
            return None
        if target_kind == SCENE:
            row, file = self.sc.scenes.get(target_no), self.scene_file
        else:
            row, file = self.branch_rows.get(target_no), self.branch_file
        result = {
            "ruleId": self.code_of[(target_kind, verdict)],
            "level": "warning",
            "message": {"text": f"{verdict} · {target_no}: {summary}" + (f" ({hedge})" if hedge else "")},
            "locations": _location(file, row.line if row else None),
            "properties": {"target_no": target_no, "target_kind": target_kind, "verdict": verdict},
        }
        if accepted:
            result["suppressions"] = [{"kind": "external", "justification": accepted}]
        return result


def other_results(findings, issues) -> list[dict[str, Any]]:
    """The SARIF results of a report's lint findings and input issues (after its cards')."""
    results: list[dict[str, Any]] = []
    for finding in findings:
        result = {
            "ruleId": finding.code, "level": "warning",
            "message": {"text": f"{finding.target}: {finding.message}"},
            "locations": _location(finding.file, finding.line),
            "properties": {"target": finding.target},
        }
        if getattr(finding, "accepted", None):
            result["suppressions"] = [{"kind": "external", "justification": finding.accepted}]
        results.append(result)
    for issue in issues:
        results.append({
            "ruleId": INPUT_ISSUE, "level": "error",
            "message": {"text": f"{issue.table or ''} {issue.column or ''}: {issue.reason}".strip()},
            "locations": _location(issue.file, issue.line),
        })
    return results


def sarif_results(report) -> list[dict[str, Any]]:
    """The SARIF results of one lint report (plain data: they can be pickled)."""
    make = CardResults(report.scenario)
    results = [make.result(c.target_no, c.target_kind, c.verdict, c.summary, c.hedge, getattr(c, "accepted", None))
               for c in report.cards]
    return [r for r in results if r is not None] + other_results(report.findings, report.issues)


def render_sarif(report, domain=None) -> str:
    return render_sarif_many([report])


def render_sarif_many(reports) -> str:
    return render_sarif_results([result for report in reports for result in sarif_results(report)])


def render_sarif_results(results: list[dict[str, Any]]) -> str:
    """The SARIF log of ``results`` as indented JSON text (what ``--format sarif`` writes)."""
    from verdicts.report import dumps_indented

    from . import __version__

    return dumps_indented(sarif_log_of_results(results, __version__)) + "\n"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report, domain=None) -> str:
    """GitHub Actions workflow commands: one ``::warning``/``::error`` line per result."""
    return github_lines(sarif_results(report))


def github_lines(results: list[dict[str, Any]]) -> str:
    """The workflow commands of SARIF ``results`` (a suppressed one is left out)."""
    lines = []
    for result in results:
        if result.get("suppressions"):
            continue
        level = "error" if result["level"] == "error" else "warning"
        props = []
        loc = result["locations"][0]["physicalLocation"] if result["locations"] else None
        if loc:
            props.append(f"file={_escape_property(loc['artifactLocation']['uri'])}")
            if "region" in loc:
                props.append(f"line={loc['region']['startLine']}")
        props.append(f"title={_escape_property('storygraph ' + result['ruleId'])}")
        lines.append(f"::{level} {','.join(props)}::{_escape_data(result['message']['text'])}")
    return "\n".join(lines) + ("\n" if lines else "")
