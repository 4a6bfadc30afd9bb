"""What every domain is tested by: the contract a domain must keep, and rule cases as
data (sqlfluff's shape: named cases in YAML behind one parametrised runner).

A domain's test module needs only::

    from verdicts.testing import contract_problems, load_cases, check_case

    def test_contract():
        assert contract_problems(DOMAIN) == []

    @pytest.mark.parametrize("case", load_cases(CASES_DIR))
    def test_rule_case(case, tmp_path):
        report = DOMAIN.judge(write_inputs(case, tmp_path))
        check_case(report, case["expect"])
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .docs import SECTIONS, split_doc
from .domain import Domain, Report
from .korean import is_polite_sentence

__all__ = ["contract_problems", "load_cases", "check_case", "CaseFailure"]


class CaseFailure(AssertionError):
    """A rule case whose report does not match its expectation."""


def contract_problems(domain: Domain) -> list[str]:
    """What ``domain`` breaks of the contract every domain keeps (empty when none):

    * every verdict of the closed list has a rule, the last rule of each book always
      fires, rule codes are unique per verdict;
    * every rule documents *잡는 것 / 왜 문제인가 / 예시 / 고치는 법*, its
      headline starts with its verdict, and it names its sentence templates;
    * every finding kind and check is documented; ``explain`` answers every name;
    * the schema loads and its verdict enum is the domain's list;
    * the verification notes are polite sentences in the three parts.
    """
    from .schema import load_schema

    problems: list[str] = []
    rules = domain.rules()
    if not rules:
        problems.append("no rule book")
    covered = {r.verdict for r in rules}
    for verdict in domain.verdicts:
        if verdict not in covered:
            problems.append(f"verdict {verdict} has no rule")
    for book in domain.books:
        last = book.rules[-1]
        if any("test" in vars(cls) for cls in type(last).__mro__ if cls.__name__ != "Rule"):
            problems.append(f"the last rule of a book ({last.code}) must always fire: it may not override test()")
    seen: dict[tuple[str, str | None], str] = {}
    for rule in rules:
        key = (rule.code, rule.kind)
        if key in seen:
            problems.append(f"rule code {rule.code} used twice")
        seen[key] = rule.verdict
        headline, sections = split_doc(rule.doc)
        if not headline.startswith(rule.verdict):
            problems.append(f"{rule.code}: the docstring's headline must start with {rule.verdict}")
        for name in SECTIONS:
            if not sections.get(name):
                problems.append(f"{rule.code}: the docstring lacks '{name}'")
        if not getattr(rule, "templates", None):
            problems.append(f"{rule.code}: names no sentence templates")
    for kind in domain.finding_kinds:
        headline, sections = split_doc(kind.doc)
        if not headline.startswith(kind.code) or any(not sections.get(n) for n in SECTIONS):
            problems.append(f"finding {kind.code}: the docstring lacks its headline or a section")
    for check in domain.checks():
        if not (check.id and check.description and check.doc):
            problems.append(f"check {check.id}: no description or docstring")
    for name in domain.explainable_names():
        if not domain.explain(name):
            problems.append(f"explain {name!r} gives nothing")
    try:
        schema = load_schema(domain.name)
        enum = schema["properties"]["verdict"]["enum"]
        if set(enum) != set(domain.verdicts):
            problems.append(f"schema verdict enum {enum} is not the domain's {list(domain.verdicts)}")
    except Exception as exc:  # noqa: BLE001 - any failure to load is a broken contract
        problems.append(f"schema: {exc}")
    if list(domain.notes) != ["자동", "수동", "정직 경계선"]:
        problems.append("the verification notes need the parts 자동, 수동, 정직 경계선")
    for part, sentences in domain.notes.items():
        for sentence in sentences:
            if not is_polite_sentence(sentence):
                problems.append(f"note ({part}) is not one polite sentence: {sentence}")
    return problems


def load_cases(where: str | Path) -> list[Any]:
    """The cases of a YAML file, or of every ``*.yaml`` of a folder, as pytest params
    with their names as ids (``file: name``)."""
    import pytest

    from .documents import parse_yaml

    from .files import read_file
    from .tables import MAX_YAML_BYTES

    where = Path(where)
    files = sorted(where.glob("*.yaml")) if where.is_dir() else [where]
    params = []
    for file in files:
        doc = parse_yaml(read_file(file, MAX_YAML_BYTES, "YAML").decode("utf-8"), str(file))
        if doc.repeats:  # a case written with a key twice would test only one of its values
            r = doc.repeats[0]
            raise ValueError(f"{file}:{r.line}: {'.'.join(map(str, (*r.path, r.key)))} is written twice (first on line {r.first_line})")
        data = doc.plain()
        cases = data["cases"] if isinstance(data, dict) else data
        for case in cases:
            params.append(pytest.param(case, id=f"{file.stem}: {case['name']}"))
    return params


def _fail(message: str, *context: Any) -> None:
    raise CaseFailure(message + "".join(f"\n  {c!r}" for c in context))


def check_case(report: Report, expect: dict[str, Any], *, lines: dict[str, int] | None = None,
               all_checks_pass: bool = True) -> None:
    """Assert that ``report`` gives what a rule case expects.

    ``expect`` may hold:

    * ``cards``: ``{key: {field: value}}`` — each card's fields;
    * ``verdicts``: ``{key: verdict}``, and for any card field ``F``, ``F: {key: value}``
      (``overlapping`` for ``overlapping_branch_id``);
    * ``hedge_contains``: ``{key: text}``; ``hedge_mentions``: ``{key: [words]}``;
    * ``withheld``: ``{key: [words]}`` — the card is withheld (no verdict label) and its
      reason names each word (a column, ``2번째 줄``);
    * ``evidence_values``: ``{key: [values cited]}`` (``""`` matches an empty cell);
    * ``issues``: issues that must be there, each a dict of issue fields (``row`` is a
      key whose line ``lines`` gives); without ``issues`` there must be none;
    * ``findings``: findings that must be there (fields; ``data`` compared by key);
      ``no_findings``: codes or dicts that must not be there.

    Whatever the case, every automatic check must pass (``all_checks_pass``).
    """
    cards = {c.key: c for c in report.cards}

    def card(key: str):
        if key not in cards:
            _fail(f"no card for {key}", sorted(cards))
        return cards[key]

    fields: dict[str, dict[str, Any]] = {}
    for key, values in (expect.get("cards") or {}).items():
        fields.setdefault(key, {}).update(values)
    for key, verdict in (expect.get("verdicts") or {}).items():
        fields.setdefault(key, {})["verdict"] = verdict
    reserved = {"cards", "verdicts", "hedge_contains", "hedge_mentions", "withheld", "evidence_values", "issues", "findings",
                "no_findings"}
    for name, per_key in expect.items():
        if name in reserved:
            continue
        column = "overlapping_branch_id" if name == "overlapping" else name
        for key, value in per_key.items():
            fields.setdefault(key, {})[column] = value
    for key, wanted in fields.items():
        data = card(key).to_json()
        for column, value in wanted.items():
            if data.get(column) != value:
                _fail(f"{key}.{column}: {data.get(column)!r} != {value!r}", data.get("summary"), data.get("hedge"))
    for key, words in (expect.get("withheld") or {}).items():
        data = card(key).to_json()
        held = data.get("withheld")
        if data.get("verdict") is not None or not isinstance(held, dict):
            _fail(f"{key}: not withheld", data.get("verdict"), data.get("summary"))
        for word in words:
            if str(word) not in held["reason"]:
                _fail(f"{key}: the withheld reason does not name {word!r}", held["reason"])
    for key, text in (expect.get("hedge_contains") or {}).items():
        hedge = card(key).hedge
        if not hedge or text not in hedge:
            _fail(f"{key}: the hedge does not contain {text!r}", hedge)
    for key, words in (expect.get("hedge_mentions") or {}).items():
        hedge = card(key).hedge or ""
        for word in words:
            word = str(word)  # YAML reads 0.55 as a number
            if word not in hedge:
                _fail(f"{key}: the hedge does not mention {word!r}", hedge)
    for key, values in (expect.get("evidence_values") or {}).items():
        cited = [e.get("value") for e in card(key).to_json().get(card(key).evidence_field, [])]
        for value in values:
            if value not in cited and not (value == "" and None in cited):
                _fail(f"{key}: {value!r} is not cited", cited)
    for wanted in expect.get("issues") or []:
        matches = [i for i in report.issues
                   if all(getattr(i, k) == v for k, v in wanted.items() if k != "row")
                   and ("row" not in wanted or (lines is not None and i.line == lines.get(wanted["row"])))]
        if not matches:
            _fail(f"no issue like {wanted}", [i.to_json() for i in report.issues])
    if "issues" not in expect and report.issues:
        _fail("unexpected issues", [i.to_json() for i in report.issues])
    for wanted in expect.get("findings") or []:
        if not any(_finding_matches(f, wanted) for f in report.findings):
            _fail(f"no finding like {wanted}", [f.to_json() for f in report.findings])
    for unwanted in expect.get("no_findings") or []:
        unwanted = {"code": unwanted} if isinstance(unwanted, str) else unwanted
        hits = [f.to_json() for f in report.findings if _finding_matches(f, unwanted)]
        if hits:
            _fail(f"findings that should not be there: {unwanted}", hits)
    if all_checks_pass:
        failed = [c.to_json() for c in report.checks if not c.passed]
        if failed:
            _fail("automatic checks failed", failed)


def _finding_matches(finding: Any, wanted: dict[str, Any]) -> bool:
    for key, value in wanted.items():
        if key == "data":
            if not finding.data or any(finding.data.get(k) != v for k, v in value.items()):
                return False
        elif getattr(finding, key) != value:
            return False
    return True
