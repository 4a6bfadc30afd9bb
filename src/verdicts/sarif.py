"""SARIF 2.1.0 and GitHub workflow annotations, for every domain.

Every card whose verdict is not a passing one, every lint finding and every input issue
becomes a result pointing at the file and line of the row concerned
(:meth:`~verdicts.domain.Domain.card_location`).  Rule ids are the stable codes of the
domain's rules and finding kinds, and their help text comes from the same docstrings as
the domain's docs page.  Accepted (intended) findings are kept, with a suppression
carrying the reason.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote, unquote
from typing import Any, Iterable

from .docs import SECTIONS, split_doc
from .model import WITHHELD, file_of, hedges_of
from .safe_text import clean
from .version import tool_version

__all__ = ["CardResults", "other_results", "sarif_results", "sarif_log_of_results", "render_sarif", "render_sarif_many",
           "render_sarif_results", "render_github", "github_lines", "INPUT_ISSUE", "info_uri"]

INPUT_ISSUE = "input-issue"
#: the rule id of a withheld card or finding (the tool could not decide)
WITHHELD_RULE = "withheld"
def info_uri(domain) -> str | None:
    """Where the domain's rules are documented: from the domain's own distribution
    (:meth:`verdicts.domain.Domain.information_uri`); ``None`` when it names nowhere."""
    getter = getattr(domain, "information_uri", None)
    return getter() if getter is not None else None


def _uri(file: str | None) -> str | None:
    """The SARIF ``uri`` of an input file: relative to the working folder when it is
    inside it, percent-encoded (a ``#``, a space or Hangul in a file name round-trip), an
    ``.xlsx`` sheet suffix (``book.xlsx#scene_states``) left out.

    >>> _uri("examples/a b#1/장면.csv"), _uri("/data/book.xlsx#scene_states")
    ('examples/a%20b%231/%EC%9E%A5%EB%A9%B4.csv', '/data/book.xlsx')
    """
    if not file:
        return None
    file = file_of(file)
    try:
        rel = os.path.relpath(file)
        path = Path(rel if not rel.startswith("..") else file)
    except ValueError:
        path = Path(file)
    return quote(path.as_posix(), safe="/:@!$&'()*+,;=-._~")


def _rules(domain) -> list[dict[str, Any]]:
    rules: dict[str, dict[str, Any]] = {}
    uri = info_uri(domain)
    for rule in domain.rules():
        if rule.verdict in domain.passing_verdicts or rule.code in rules:
            continue
        headline, sections = split_doc(rule.doc)
        rules[rule.code] = _rule(rule.code, rule.verdict, headline, sections, uri)
    for kind in domain.finding_kinds:
        headline, sections = split_doc(kind.doc)
        rules[kind.code] = _rule(kind.code, kind.title, headline, sections, uri)
    rules[WITHHELD_RULE] = {
        "id": WITHHELD_RULE, "name": "Withheld",
        "shortDescription": {"text": f"{WITHHELD} — 읽지 못한 부분에 달려 있어 판정하지 않았습니다."},
        "fullDescription": {"text": "판정이나 발견이 도구가 정확히 읽지 못한 부분(가는 곳을 알 수 없는 이동, 옮기지 못한 조건, "
                                    "값을 셈할 수 없는 변경)에 달려 있어 내리지 않았습니다. 문제도 통과도 아닙니다."},
        "help": {"text": "고치는 법: 결과가 가리키는 자리를 사람이 확인하세요. 그 부분을 도구가 읽는 형태로 바꾸면 판정이 나옵니다.",
                 "markdown": "**고치는 법.** 결과가 가리키는 자리를 사람이 확인하세요. 그 부분을 도구가 읽는 형태로 바꾸면 판정이 나옵니다."},
        "defaultConfiguration": {"level": "none"},
    }
    rules[INPUT_ISSUE] = {
        "id": INPUT_ISSUE, "name": "InputIssue",
        "shortDescription": {"text": "입력 문제 — 입력 형식대로 읽을 수 없는 줄, 열, 값이 있습니다."},
        "fullDescription": {"text": "잘못된 줄, 빠진 열, 비었거나 겹치는 식별자, 읽을 수 없는 조건식 같은 것입니다. "
                                    "그 값에 기대는 판정은 내지 않았고 나머지는 모두 판정했습니다."},
        "help": {"text": "고치는 법: 결과가 가리키는 줄과 열의 칸을 고치세요.",
                 "markdown": "**고치는 법.** 결과가 가리키는 줄과 열의 칸을 고치세요."},
        "defaultConfiguration": {"level": "error"},
    }
    return list(rules.values())


def _rule(code: str, label: str, headline: str, sections: dict[str, str], uri: str | None) -> dict[str, Any]:
    help_md = "\n\n".join(f"**{k}.** {v}" for k, v in sections.items())
    rule: dict[str, Any] = {
        "id": code,
        "name": "".join(part.capitalize() for part in code.split("-")),
        "shortDescription": {"text": headline},
        "fullDescription": {"text": sections.get(SECTIONS[0], headline)},
        "help": {"text": " ".join(f"{k}: {v}" for k, v in sections.items()), "markdown": help_md},
        "helpUri": uri,
        "defaultConfiguration": {"level": "warning"},
        "properties": {"label": label},
    }
    if uri is None:
        del rule["helpUri"]
    return rule


def _location(file: str | None, line: int | None) -> list[dict[str, Any]]:
    # a folder is no place a result can point at (a story read from a folder of files:
    # a row with no file of its own gets no location)
    if file and os.path.isdir(file):
        return []
    uri = _uri(file)
    if uri is None:
        return []
    physical: dict[str, Any] = {"artifactLocation": {"uri": uri}}
    if line:
        physical["region"] = {"startLine": line}
    return [{"physicalLocation": physical}]


def _files(sources: Iterable[Any]) -> dict[str, str]:
    """Each table's file (the first source that names the table)."""
    files: dict[str, str] = {}
    for src in sources:
        files.setdefault(src.table, src.file)
    return files


class CardResults:
    """Makes the SARIF result of each card whose verdict is not a passing one, from the
    card's fields alone, so that batches of cards made in other processes get theirs
    there."""

    def __init__(self, domain, sources: Iterable[Any]):
        self.domain = domain
        sources = list(sources)
        self.files = _files(sources)
        #: the tables read from a story in its own format (ink, Twine …): their lines are
        #: those of a converted table nobody sees, so a card with no place of its own in
        #: the story points at the story's file alone
        self.converted = set(getattr(domain, "converted_tables", lambda _: [])(sources))
        self.passing = domain.passing_verdicts
        self.key = domain.card_type.key_field
        self._codes: dict[tuple, str] = {}

    def code(self, card: dict[str, Any]) -> str:
        rule = self.domain.rule_of(card)
        return rule.code if rule is not None else card["verdict"]

    def result(self, card: dict[str, Any], accepted: str | None = None) -> dict[str, Any] | None:
        verdict = card["verdict"]
        held = card.get("withheld")
        if verdict in self.passing and held is None:
            return None
        domain = self.domain
        key = card[self.key]
        place = domain.card_place(card)
        if place is None:
            table, line = domain.card_location(card)
            file = self.files.get(table)
            if table in self.converted:
                line = None
        else:
            file, line = place
        summary, hedges = card.get("summary"), hedges_of(card)
        properties = {self.key: key}
        if domain.kind_field:
            properties[domain.kind_field] = card.get(domain.kind_field)
        properties["verdict"] = verdict
        for name in dict.fromkeys(domain.subgroup_field.values()):
            if card.get(name) is not None:
                properties[name] = card[name]
        if card.get("fix"):
            properties["fix"] = card["fix"]
        if held is not None:
            # the tool could not decide: SARIF's "open" result, at no level
            properties["withheld"] = held
            return {"ruleId": WITHHELD_RULE, "kind": "open", "level": "none",
                    "message": {"text": f"{WITHHELD} · {key}: {summary}"},
                    "locations": _location(file, line), "properties": properties}
        result = {
            "ruleId": self.code(card),
            "level": "warning",
            "message": {"text": f"{verdict} · {key}: {summary}" + (f" ({' '.join(hedges)})" if hedges else "")},
            "locations": _location(file, line),
            "properties": properties,
        }
        if accepted:
            result["suppressions"] = [{"kind": "external", "justification": accepted}]
        return result


def other_results(findings, issues) -> list[dict[str, Any]]:
    """The SARIF results of a report's lint findings and input issues (after its cards')."""
    results: list[dict[str, Any]] = []
    for finding in findings:
        held = getattr(finding, "withheld", None)
        result = {
            "ruleId": finding.code, "level": "warning",
            "message": {"text": f"{finding.target}: {finding.message}"},
            "locations": _location(finding.file, finding.line),
            "properties": {"target": finding.target},
        }
        if held is not None:
            result.update({"kind": "open", "level": "none",
                           "message": {"text": f"{WITHHELD} · {finding.target}: {held['reason']}"}})
            result["properties"]["withheld"] = held
        if getattr(finding, "fix", None):
            result["properties"]["fix"] = finding.fix
        if getattr(finding, "accepted", None):
            result["suppressions"] = [{"kind": "external", "justification": finding.accepted}]
        results.append(result)
    for issue in issues:
        where = " ".join(part for part in (issue.table, issue.column) if part)
        result = {
            "ruleId": INPUT_ISSUE, "level": "error",
            "message": {"text": f"{where}: {issue.reason}" if where else issue.reason},
            "locations": _location(issue.file, issue.line),
        }
        if getattr(issue, "fix", None):
            result["properties"] = {"fix": issue.fix}
        results.append(result)
    return results


def sarif_results(report, domain) -> list[dict[str, Any]]:
    """The SARIF results of one report (plain data: they can be pickled)."""
    make = CardResults(domain, report.sources)
    results = [make.result(c.to_json() if c.accepted is None else c.data, c.accepted) for c in report.cards]
    return [r for r in results if r is not None] + other_results(report.findings, report.issues)


def sarif_log_of_results(results: list[dict[str, Any]], domain, version: str | None = None) -> dict[str, Any]:
    """One SARIF log (one run) with ``results`` (of :func:`sarif_results`, maybe made in
    other processes)."""
    driver: dict[str, Any] = {"name": domain.name, "version": version or _version(domain)}
    uri = info_uri(domain)
    if uri is not None:
        driver["informationUri"] = uri
    driver["rules"] = _rules(domain)
    run: dict[str, Any] = {"tool": {"driver": driver}, "results": results}
    if _with_fixes(results, domain):
        run["columnKind"] = "unicodeCodePoints"  # the replacements count characters, as Python does
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [run],
    }


def _with_fixes(results: list[dict[str, Any]], domain) -> bool:
    """Give each result whose fix edits a CSV file, every edit placed there, a SARIF
    ``fixes`` entry (one replacement per edit: a cell set — its region and the new cell,
    quoted as the file quotes it; a row removed — its line, deleted; a row added — an
    insertion after its table's last row).  ``domain.cell_locator(file)``, when the domain
    has it, finds the cells.  Whether any result got one."""
    from urllib.parse import unquote

    locator_of = getattr(domain, "cell_locator", None)
    if locator_of is None:
        return False
    locators: dict[str, Any] = {}
    added = False
    for result in results:
        fix = (result.get("properties") or {}).get("fix")
        locations = result.get("locations") or []
        if not fix or not fix.get("edits") or not locations:
            continue
        uri = locations[0]["physicalLocation"]["artifactLocation"]["uri"]
        if not uri.lower().endswith(".csv"):
            continue
        if uri not in locators:
            try:
                locators[uri] = locator_of(Path(unquote(uri)))
            except Exception:  # noqa: BLE001 - a file gone or unreadable since the lint: no fixes, the rest stands
                locators[uri] = None
        locate = locators[uri]
        if locate is None:
            continue
        replacements = []
        for edit in fix["edits"]:
            place = locate(edit)
            if place is None:
                break
            line, start, end_line, end, text = place
            region = {"startLine": line, "startColumn": start, **({"endLine": end_line} if end_line != line else {}), "endColumn": end}
            replacements.append({"deletedRegion": region, **({"insertedContent": {"text": text}} if edit.get("action") != "remove" else {})})
        else:
            result["fixes"] = [{"description": {"text": fix.get("text") or ""},
                                "artifactChanges": [{"artifactLocation": {"uri": uri}, "replacements": replacements}]}]
            added = True
    return added


def _version(domain) -> str:
    """The version of the distribution that provides the domain (the kit's own version
    for an object that is not a :class:`~verdicts.domain.Domain`)."""
    getter = getattr(domain, "tool_version", None)
    return getter() if getter is not None else tool_version()


def render_sarif(report, domain) -> str:
    return render_sarif_many([report], domain)


def render_sarif_many(reports, domain) -> str:
    return render_sarif_results([result for report in reports for result in sarif_results(report, domain)], domain)


def render_sarif_results(results: list[dict[str, Any]], domain) -> str:
    """The SARIF log of ``results`` as indented JSON text (what ``--format sarif`` writes)."""
    from .report import dumps_indented

    return dumps_indented(sarif_log_of_results(results, domain)) + "\n"


def _escape_data(text: str) -> str:
    # line breaks stay (escaped, as the runner reads them); every other control or
    # direction character is written visibly, so no input can act on the log
    text = "\n".join(clean(line) for line in text.replace("\r\n", "\n").split("\n"))
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report, domain) -> str:
    """GitHub Actions workflow commands: one ``::warning``/``::error`` line per result."""
    return github_lines(sarif_results(report, domain), domain)


def github_lines(results: list[dict[str, Any]], domain) -> str:
    """The workflow commands of SARIF ``results`` (a suppressed one is left out)."""
    lines = []
    for result in results:
        if result.get("suppressions"):
            continue
        level = {"error": "error", "none": "notice", "note": "notice"}.get(result["level"], "warning")
        props = []
        loc = result["locations"][0]["physicalLocation"] if result["locations"] else None
        if loc:
            props.append(f"file={_escape_property(unquote(loc['artifactLocation']['uri']))}")
            if "region" in loc:
                props.append(f"line={loc['region']['startLine']}")
        props.append(f"title={_escape_property(domain.name + ' ' + result['ruleId'])}")
        text = result["message"]["text"]
        fix = (result.get("properties") or {}).get("fix")
        if fix and fix.get("text"):
            text += f"\n고치는 법: {fix['text']}"
        lines.append(f"::{level} {','.join(props)}::{_escape_data(text)}")
    return "\n".join(lines) + ("\n" if lines else "")
