"""Grouping cards by verdict, and the text and JSON forms of a report (the reporter
classes that choose between every format are in :mod:`verdicts.reporters`).

Reporters take a finished :class:`~verdicts.model.Report` and return text; they never
compute verdicts.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from contextvars import ContextVar
from functools import partial

from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, NamedTuple, Sequence


from .model import UNDONE, WITHHELD, Card, Report, aggregate_words, group_of, label_of
from .safe_text import clean, continuation

if TYPE_CHECKING:
    from .domain import Domain


__all__ = ["group_by_verdict", "first_view_groups", "text_keys", "render_text", "render_json", "iter_json", "iter_json_bytes", "encode_items", "write_items", "Segment", "card_text", "place_text", "iter_text_bytes", "dumps_indented", "show_passing_in_full", "fix_line", "shown_cards", "summary_counts", "report_summary", "total_line", "CARD_CAP", "Part", "card_sub", "card_indent", "group_blobs", "card_parts"]


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
        groups.setdefault(label_of(card), []).append(card)
    return groups


def first_view_groups(cards: Iterable[Card], domain: Domain) -> "OrderedDict[str, list[Card]]":
    """The groups every first view lists (text and screen): :func:`group_by_verdict`,
    with the passing cards that no real use bears out (:data:`~verdicts.model.UNDONE`)
    taken out into the domain's ``undone_group``, one of the problems."""
    groups = group_by_verdict(cards, domain.verdicts)
    undone = [c for v in domain.passing_verdicts for c in groups.get(v, ()) if c.data.get(UNDONE)]
    if undone:
        for v in domain.passing_verdicts:
            if v in groups:
                groups[v] = [c for c in groups[v] if not c.data.get(UNDONE)]
        groups[domain.undone_group] = undone
    return groups


def text_keys(domain: Domain, card: dict) -> "list[tuple[str, bool]]":
    """Where a writer of the text report files a card's lines (``card`` as JSON): under
    its first-view group (:func:`verdicts.model.group_of`) as ``(group, False)``, and,
    for a passing card with a hedge (listed without ``--all``), again as ``(group, True)``."""
    group = group_of(card, domain.passing_verdicts, domain.undone_group)
    if card.get("hedge") and group in domain.passing_verdicts:
        return [(group, False), (group, True)]
    return [(group, False)]


#: the head of the withheld group in the text report
WITHHELD_HEAD = "읽지 못한 부분에 달려 있어 판정하지 않았습니다. 문제도 통과도 아닙니다."


def _withheld_first(groups: "dict", passing: Sequence[str]) -> list:
    """The groups in the order the text report shows them: the problems, then
    :data:`~verdicts.model.WITHHELD` (neither a problem nor a pass), then the rest."""
    items = list(groups.items())
    held = [kv for kv in items if kv[0] == WITHHELD]
    rest = [kv for kv in items if kv[0] != WITHHELD]
    problems = [kv for kv in rest if kv[0] not in passing]
    return problems + held + [kv for kv in rest if kv[0] in passing]


class Part(NamedTuple):
    """The lines of some of a group's cards, in order, as one writer made them: ``sub``
    says under which heading they go (``None``: none; else ``(subgroup key, rank)``,
    rank 0 for the root's own cards, listed first); ``whole`` the part (bytes, a file or
    a :class:`Segment`), ``n`` its number of cards, ``first(k)`` the same for its first ``k`` cards only."""

    sub: Any
    n: int
    whole: Any
    first: Callable[[int], Any]


def card_sub(domain: Domain, roots: "Mapping[str, tuple[str, str, bool]]", group: str, key: str, card: Any) -> Any:
    """The ``sub`` of a :class:`Part` for a card of ``group``: its root cause
    (:meth:`~verdicts.domain.Domain.root_causes`, ``roots``) in the domain's
    ``root_cause_verdict``, its ``subgroup_field`` value where the domain has one
    (``card`` a card or its JSON), else ``None``."""
    if group == domain.root_cause_verdict and roots:
        root = roots.get(key)
        return (root[0], 0 if root[2] else 1) if root else None
    name = domain.subgroup_field.get(group)
    if not name:
        return None
    value = card.get(name) if isinstance(card, dict) else getattr(card, name, None)
    return None if value is None else (value, 1)


def card_indent(sub: Any) -> str:
    """The indent of a card's lines: deeper under a subgroup's heading."""
    return "  " if sub is None else "    "


def group_blobs(parts: "Iterable[Part]", headings: "Mapping[Any, str]") -> "tuple[int, list]":
    """A group's number of cards and the blobs of its first :func:`shown_cards` cards'
    lines, from its :class:`Part` in card order: by subgroup (in the order of their
    first card, each with its heading and count; its root's own cards first), cut after
    the last card shown.  The one way every writer of the text report lays out a group."""
    subs: OrderedDict[Any, list[Part]] = OrderedDict()
    for part in parts:
        subs.setdefault(None if part.sub is None else part.sub[0], []).append(part)
    total = sum(p.n for ps in subs.values() for p in ps)
    left = shown_cards(total)
    blobs: list = []
    for key, ps in subs.items():
        if left <= 0:
            break
        if key is not None:
            ps = sorted(ps, key=lambda p: p.sub[1])  # stable: the root's own cards first
            heading = headings.get(key, key)
            blobs.append(f"  ▸ {clean(str(heading))} ({sum(p.n for p in ps):,})\n".encode("utf-8"))
        for part in ps:
            if left <= 0:
                break
            if part.n:
                blobs.append(part.whole if part.n <= left else part.first(left))
            left -= part.n
    return total, blobs


def card_parts(items: "Iterable[tuple[Any, bytes]]") -> "list[Part]":
    """:class:`Part` of cards' lines given one by one as ``(sub, lines)``, the lines of
    consecutive cards with the same ``sub`` together."""
    runs: list[tuple[Any, list[bytes]]] = []
    for sub, text in items:
        if runs and runs[-1][0] == sub:
            runs[-1][1].append(text)
        else:
            runs.append((sub, [text]))
    return [Part(sub, len(texts), b"".join(texts), partial(_joined_first, texts)) for sub, texts in runs]


def _joined_first(texts: "list[bytes]", k: int) -> bytes:
    return b"".join(texts[:k])


def place_text(place: "tuple[str | None, int | None] | None") -> str:
    """`` (file:line)`` after a key in the text report, or nothing."""
    if not place or not place[0]:
        return ""
    file, line = place
    return f" ({clean(file)}:{line})" if line is not None else f" ({clean(file)})"


def card_text(verdict: str, key: str, summary, hedge, accepted=None, indent: str = "  ", place=None, fix=None) -> str:
    """A card's lines in the text report (each ending in a newline): label · key (and
    its place in an imported story, :meth:`~verdicts.domain.Domain.card_place`) and
    summary, the hedge below, then how to fix it when the card says (text from the
    inputs made safe, :func:`verdicts.safe_text.clean`)."""
    mark = f" [의도됨: {clean(accepted)}]" if accepted else ""
    text = f"{indent}{clean(verdict)} · {clean(key)}{place_text(place)}  {clean(summary)}{mark}\n"
    if hedge:
        text += f"{indent}  ↳ {clean(hedge)}\n"
    return text + fix_line(fix, indent + "  ")


def fix_line(fix, indent: str) -> str:
    """The ``고치는 법:`` line of a card, finding or issue that carries a fix (else nothing)."""
    if not fix or not fix.get("text"):
        return ""
    return f"{indent}고치는 법: {clean(fix['text'])}\n"


def _text_head(report: Report) -> list[str]:
    lines = []
    for src in report.sources:
        enc = f", {src.encoding}" if src.encoding else ""
        lines.append(f"입력: {clean(src.file)} [{clean(src.table)}, {src.form}{clean(enc)}, {src.rows}행]")
    if report.config is not None:
        lines.append(f"설정: {clean(report.config)}")
    if report.sources or report.config is not None:
        lines.append("")
    return lines


#: whether the text report lists every passing card and check (``--all``) instead of
#: counting them
PASSING_IN_FULL: ContextVar[bool] = ContextVar("PASSING_IN_FULL", default=False)


def show_passing_in_full(on: bool = True) -> None:
    """Make the text reports of this process (and of the processes it forks) list every
    passing card and check (``--all``)."""
    PASSING_IN_FULL.set(on)


#: the phrases of the text report's first view, kept together (the summary's head, the
#: problems by kind below it, the line ending a group that shows only its first cards)
SUMMARY_HEAD = "요약: "
PROBLEM_KINDS_HEAD = "  문제 종류: "
MORE_CARDS = "  … {n}건 더 — 모두 보려면 --all을 붙이세요."
#: the most cards a group of the text report lists without ``--all``
CARD_CAP = 20


def shown_cards(count: int) -> int:
    """How many of a group's ``count`` cards the text report lists: all with ``--all``
    (:func:`show_passing_in_full`), else at most :data:`CARD_CAP`."""
    return count if PASSING_IN_FULL.get() else min(count, CARD_CAP)


def _issue_lines(report: Report) -> list[str]:
    if not report.issues:
        return []
    lines = [f"■ 입력 문제 ({len(report.issues):,})"]
    for issue in report.issues:
        lines.append(f"  {clean(issue.where())} — {continuation(issue.reason, '    ')}")
        if getattr(issue, "fix", None):
            lines.append(fix_line(issue.fix, "    ").rstrip("\n"))
    return lines + [""]


def _finding_lines(report: Report, domain: Domain) -> list[str]:
    """The lint findings (a withheld one is listed in the withheld group instead), the
    first :func:`shown_cards` of each code."""
    findings = [f for f in report.findings if not getattr(f, "withheld", None)]
    if not findings:
        return []
    by_code: OrderedDict[str, list] = OrderedDict()
    for finding in findings:
        by_code.setdefault(finding.code, []).append(finding)
    lines = [f"■ 린트 발견 ({len(findings):,})"]
    for same in by_code.values():  # at most CARD_CAP of a kind, as a group lists its cards
        lines += _finding_rows(same[:shown_cards(len(same))], report, domain)
        more = _more_line(len(same)).decode("utf-8")
        if more:
            lines.append(more.rstrip("\n"))
    return lines + [""]


def _finding_rows(findings, report: Report, domain: Domain) -> list[str]:
    lines = []
    for finding in findings:
        accepted = getattr(finding, "accepted", None)
        mark = f" [의도됨: {clean(accepted)}]" if accepted else ""
        place = domain.finding_place(finding, report)
        held = getattr(finding, "withheld", None)
        message = held["reason"] if held else finding.message
        # the row is headed by the kind's Korean name (its code is for `explain` and `lint_ignore`)
        heading = next((k.title for k in domain.finding_kinds if k.code == finding.code), finding.code)
        lines.append(f"  {clean(heading)} · {clean(finding.target)}{place_text(place)}  {clean(message)}{mark}")
        if getattr(finding, "fix", None) and not held:
            lines.append(fix_line(finding.fix, "    ").rstrip("\n"))
    return lines


def _check_lines(report: Report, judged: int) -> list[str]:
    """The automatic checks: one line when all pass, every failing check named (all with
    ``--all``); nothing green when nothing was judged (an empty or header-only input)."""
    if not report.checks:
        return []
    if judged == 0:
        return ["■ 자동 검증: 판정한 대상이 없어 검증할 것이 없습니다.", ""]
    passed = sum(1 for c in report.checks if c.passed)
    lines = [f"■ 자동 검증 ({passed}/{len(report.checks)} 통과)"]
    full = PASSING_IN_FULL.get()
    for check in report.checks:
        if check.passed and not full:
            continue
        status = "통과" if check.passed else "실패"
        tail = f" — 실패: {', '.join(map(clean, check.failed_targets))}" if check.failed_targets else ""
        note = f" ({clean(check.note)})" if check.note else ""
        lines.append(f"  [{status}] {check.id} {check.description}{tail}{note}")
    return lines + [""]


def summary_counts(report: Report, counts: dict[str, int], passing: Sequence[str], undone_group: str | None = None) -> dict[str, Any]:
    """What the summary of one report says, as numbers that add up over several reports
    (:func:`total_line`): the cards of each verdict (``counts``), the withheld ones
    (cards and findings), the input issues, the findings shown, the checks and the
    domain's aggregate."""
    from .fixing import fixable_count

    return {
        "counts": {v: n for v, n in counts.items()},
        "passing": list(passing),
        "undone_group": undone_group,
        "held": counts.get(WITHHELD, 0) + sum(1 for f in report.findings if getattr(f, "withheld", None)),
        "issues": len(report.issues),
        "findings": sum(1 for f in report.findings if not getattr(f, "withheld", None)),
        "checks": len(report.checks),
        "checks_failed": sum(1 for c in report.checks if not c.passed),
        "aggregate": report.extra.get("aggregate") if hasattr(report, "extra") else None,
        "fixable": fixable_count(report, passing),
    }


def _summary_words(data: dict[str, Any]) -> str:
    """The summary's words from :func:`summary_counts` (or their sum): what needs looking
    at (the passing cards no real use bears out among them, said apart), what was
    withheld, the input issues and findings, then what passed and the checks."""
    counts, passing, undone_group = data["counts"], data["passing"], data["undone_group"]
    problems = sum(n for v, n in counts.items() if v not in passing and v != WITHHELD)
    undone = counts.get(undone_group, 0) if undone_group else 0
    parts = [f"문제 {problems:,}건" + (f"({undone_group} {undone:,}건 포함)" if undone else "")]
    if data.get("fixable"):
        parts.append(f"고칠 수 있는 문제 {data['fixable']:,}건")
    if data["held"]:
        parts.append(f"{WITHHELD} {data['held']:,}건")
    if data["issues"]:
        parts.append(f"입력 문제 {data['issues']:,}건")
    if data["findings"]:
        parts.append(f"린트 발견 {data['findings']:,}건")
    parts.extend(f"{clean(v)} {counts.get(v, 0):,}건" for v in passing)
    if data["aggregate"] is not None:
        parts.append(aggregate_words(data["aggregate"]))
    if not sum(counts.values()):
        parts.append("판정한 대상 없음")
    elif data["checks"]:
        parts.append(f"자동 검증 {data['checks'] - data['checks_failed']}/{data['checks']} 통과")
    return " · ".join(parts)


def _summary_line(report: Report, counts: dict[str, int], passing: Sequence[str], undone_group: str | None = None) -> str:
    """The closing line (:func:`_summary_words` of this report)."""
    return SUMMARY_HEAD + _summary_words(summary_counts(report, counts, passing, undone_group))


def _problem_kinds_line(counts: dict[str, int], passing: Sequence[str]) -> str | None:
    """The second line of the opening summary: the problems by kind, in the order their
    groups follow (nothing when there is none)."""
    kinds = [(v, n) for v, n in counts.items() if n and v not in passing and v != WITHHELD]
    if not kinds:
        return None
    return PROBLEM_KINDS_HEAD + " · ".join(f"{clean(v)} {n:,}건" for v, n in kinds)


def report_summary(report: Report, domain: Domain) -> dict[str, Any]:
    """:func:`summary_counts` of a whole report, its cards counted by first-view group
    as :func:`render_text` counts them (for the grand total over several inputs)."""
    groups = first_view_groups(report.cards, domain)
    counts = {v: len(cs) for v, cs in groups.items()}
    return summary_counts(report, counts, [v for v in counts if v in domain.passing_verdicts], domain.undone_group)


def add_summaries(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """Two :func:`summary_counts` added (the grand total over several inputs); an
    aggregate only when both have one of the same kind."""
    counts = dict(a["counts"])
    for v, n in b["counts"].items():
        counts[v] = counts.get(v, 0) + n
    agg = None
    x, y = a["aggregate"], b["aggregate"]
    if isinstance(x, dict) and isinstance(y, dict) and x.get("kind") == y.get("kind"):
        defects, total = x["defects"] + y["defects"], x["total"] + y["total"]
        value = (round(defects / total, 4) if total else None) if x["kind"] == "ratio" else defects
        agg = {**x, "defects": defects, "total": total, "value": value}
    return {**a, "counts": counts, "aggregate": agg,
            **{k: a[k] + b[k] for k in ("held", "issues", "findings", "checks", "checks_failed", "fixable")}}


def total_line(summaries: "Sequence[dict[str, Any]]", inputs: int) -> str:
    """The closing line of a text report over several inputs: the summaries of the
    inputs read (:func:`summary_counts`) added up, and how many inputs there were."""
    read = len(summaries)
    head = f"전체 합계(입력 {inputs:,}개" + (f" 중 읽은 {read:,}개" if read != inputs else "") + "): "
    if not summaries:
        return head + "판정한 대상 없음"
    total = summaries[0]
    for s in summaries[1:]:
        total = add_summaries(total, s)
    return head + _summary_words(total)


def _passing_head(verdict: str, count: int, listed: bool, hedged: int = 0) -> str:
    """The head of a passing verdict: its count, and what is listed under it (without
    ``--all``: only the cards that carry a hedge, which may undo the verdict)."""
    if listed or count == 0 or hedged == count:
        return f"■ {verdict} ({count:,})"
    if hedged:
        return f"■ {verdict} ({count:,}) — 단서가 붙은 {hedged:,}건만 적습니다. 모두 보려면 --all을 붙이세요."
    return f"■ {verdict} ({count:,}) — 목록을 보려면 --all을 붙이세요."


def render_text(report: Report, domain: Domain) -> str:
    """The summary first (:func:`_summary_line`, and the problems by kind), then the
    problems: each verdict that is not passing, with its cards (label · key
    · summary, hedge below), then the input issues, the lint findings, the automatic
    checks (the failing ones; all with ``--all``), the passing verdicts counted (their
    cards listed with ``--all``; without it, those that carry a hedge — a caveat that may
    undo the verdict, as the screen shows them above the fold), the inputs read, and the
    summary again as the closing line.  Written by :func:`iter_text_bytes`, the one text writer, with each verdict's
    card lines (its first :func:`shown_cards`, in subgroups where the domain has them)
    made here."""
    groups = first_view_groups(report.cards, domain)
    roots = domain.root_causes(report)
    headings = {root: heading for root, heading, _ in roots.values()}

    def lines_of(verdict: str, cards: list[Card]) -> "tuple[int, list]":
        items = []
        for card in cards:
            sub = card_sub(domain, roots, verdict, str(card.key), card)
            items.append((sub, card_text(label_of(card), card.key, card.summary, card.hedge, getattr(card, "accepted", None),
                                         card_indent(sub), domain.card_place(card.to_json()),
                                         card.data.get("fix") if hasattr(card, "data") else None).encode("utf-8")))
        return group_blobs(card_parts(items), headings)

    card_groups = {v: lines_of(v, cards) for v, cards in groups.items()}
    hedged = {v: lines_of(v, [c for c in groups[v] if c.hedge]) for v in groups if v in domain.passing_verdicts}
    return b"".join(iter_text_bytes(report, domain, card_groups, hedged)).decode("utf-8")


def iter_text_bytes(report: Report, domain: Domain, card_groups: "dict[str, tuple[int, list]]",
                    hedged: "dict[str, tuple[int, list]] | None" = None):
    """The text of :func:`render_text` as UTF-8 pieces, with the cards' lines already
    written elsewhere: ``card_groups`` maps each verdict to its number of cards and the
    parts of the lines of its first :func:`shown_cards` cards (:func:`card_text`
    encoded; bytes, files or :class:`Segment`), in order (a domain's subgroup lines
    among them); ``hedged`` the same for the passing cards that carry a hedge (listed
    without ``--all``).  A group with more cards than it shows ends in
    :data:`MORE_CARDS`."""
    groups = {v: card_groups.get(v, (0, [])) for v in domain.verdicts}
    groups.update(card_groups)  # a verdict outside the domain's list comes last, as group_by_verdict puts it
    passing = [v for v in groups if v in domain.passing_verdicts]
    full = PASSING_IN_FULL.get()
    held_findings = [f for f in report.findings if getattr(f, "withheld", None)]
    if held_findings:
        groups.setdefault(WITHHELD, (0, []))
    ordered = _withheld_first(groups, passing)
    counts = {v: c for v, (c, _) in groups.items()}
    summary = _summary_line(report, counts, passing, domain.undone_group)
    kinds = _problem_kinds_line({v: c for v, (c, _) in ordered}, passing)
    yield (summary + "\n" + (kinds + "\n" if kinds else "") + "\n").encode("utf-8")
    for verdict, (count, blobs) in ordered:
        if verdict in passing or not (count or (verdict == WITHHELD and held_findings)):
            continue
        if verdict == WITHHELD:
            yield f"■ {verdict} ({count + len(held_findings):,}) — {WITHHELD_HEAD}\n".encode("utf-8")
        elif verdict == domain.undone_group and verdict not in domain.verdicts:
            yield f"■ {verdict} ({count:,}) — {domain.undone_head}\n".encode("utf-8")
        else:
            yield f"■ {verdict} ({count:,})\n".encode("utf-8")
        for blob in blobs:
            yield from _blob_pieces(blob)
        yield _more_line(count)
        if verdict == WITHHELD:
            yield "".join(line + "\n" for line in _finding_rows(held_findings, report, domain)).encode("utf-8")
        yield b"\n"
    judged = sum(count for count, _ in groups.values())
    tail = _issue_lines(report) + _finding_lines(report, domain) + _check_lines(report, judged)
    yield "".join(line + "\n" for line in tail).encode("utf-8")
    for verdict in passing:
        count, blobs = groups[verdict]
        n_hedged, hedged_blobs = (hedged or {}).get(verdict, (0, []))
        yield (_passing_head(verdict, count, full, n_hedged) + "\n").encode("utf-8")
        for blob in blobs if full else hedged_blobs:
            yield from _blob_pieces(blob)
        if not full:
            yield _more_line(n_hedged)
    yield ("\n" + "".join(line + "\n" for line in _text_head(report)) + summary + "\n").encode("utf-8")


def _more_line(count: int) -> bytes:
    """:data:`MORE_CARDS` when a group of ``count`` cards shows fewer (else nothing)."""
    left = count - shown_cards(count)
    return MORE_CARDS.format(n=f"{left:,}").encode("utf-8") + b"\n" if left > 0 else b""


def render_json(report: Report, domain: Domain | None) -> str:
    """One JSON object ``{"cards", "issues", "checks", …}``, one card (issue, check …)
    per line.

    Each item is written compactly by orjson; an ``indent`` would send the whole report
    through the json module's pure-Python encoder, which took longer than the rest of
    the lint on a scenario of 100,000 scenes.

    >>> from verdicts.model import Report
    >>> print(render_json(Report("d", [], [], []), None), end="")
    {
      "cards": [],
      "issues": [],
      "checks": [],
      "inputs": []
    }
    """
    return "".join(iter_json(report, domain))


def _sections(report: Report, domain_passing: "frozenset[str] | None" = None):
    """``(key, items)`` in the order of :meth:`Report.to_json`, items made lazily, so a
    large report is never held as JSON all at once."""
    if type(report).to_json is not Report.to_json:  # a report that shapes its own JSON
        yield from report.to_json().items()
        return
    yield "cards", (c.to_json() for c in report.cards)
    yield "issues", (i.to_json() for i in report.issues)
    yield "checks", (c.to_json() for c in report.checks)
    if report.findings:
        yield "findings", (f.to_json() for f in report.findings)
    if "aggregate" in report.extra:
        yield "aggregate", report.extra["aggregate"]
    if domain_passing is not None:
        from .fixing import fixable_count

        fixable = fixable_count(report, domain_passing)
        if fixable:  # how many problems carry a fix `storygraph fix` applies
            yield "fixable", fixable
    yield "inputs", (s.to_json() for s in report.sources)
    if report.config is not None:
        yield "config", report.config


def dumps_indented(obj) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2)``, made by orjson (about twenty
    times faster on a SARIF log of 50,000 scenes, and the same text), the standard
    library for what orjson refuses (integers beyond 64 bits, non-string keys).

    >>> print(dumps_indented({"a": [1, "빛"], "b": {}}))
    {
      "a": [
        1,
        "빛"
      ],
      "b": {}
    }
    """
    import orjson

    try:
        text = orjson.dumps(obj, option=orjson.OPT_INDENT_2).decode("utf-8")
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        text = json.dumps(obj, ensure_ascii=False, indent=2)
    return _UNSAFE_TEXT.sub(_escape_char, text) if _UNSAFE_TEXT.search(text) else text


#: characters a JSON encoder leaves raw that a terminal, an editor or a code-review page
#: acts on: DEL, the C1 controls and the bidirectional controls (U+202E turns what follows
#: around).  JSON has them only inside strings, where they are written as ``\uXXXX``
#: escapes instead: the same string to every JSON reader, nothing raw in the file.
_UNSAFE_TEXT = re.compile("[\x7f\x80-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_UNSAFE_BYTES = re.compile(b"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8e\x8f\xaa-\xae]|\xe2\x81[\xa6-\xa9]")


def _escape_char(m: re.Match) -> str:
    return f"\\u{ord(m.group()):04x}"


def _escape_bytes(m: re.Match) -> bytes:
    return f"\\u{ord(m.group().decode('utf-8')):04x}".encode("ascii")


def _encode(item) -> bytes:
    """One item as compact UTF-8 JSON: orjson (about six times the standard library's C
    encoder on cards), the standard library for what orjson refuses (integers beyond 64
    bits, non-string keys), so any report the json module could write is written; the
    characters of :data:`_UNSAFE_BYTES` as escapes.

    >>> _encode({"title": "a" + chr(0x202E) + "b" + chr(0x1B)})
    b'{"title":"a\\\\u202eb\\\\u001b"}'
    """
    try:
        data = _orjson_dumps(item)
    except TypeError:  # orjson.JSONEncodeError is a TypeError
        data = json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return _UNSAFE_BYTES.sub(_escape_bytes, data) if _UNSAFE_BYTES.search(data) else data


def _orjson_dumps(item) -> bytes:
    """``orjson.dumps``: on its first call orjson is imported and this name is rebound to
    it (a text report never imports orjson)."""
    global _orjson_dumps
    import orjson

    _orjson_dumps = orjson.dumps  # type: ignore[assignment]  # the same call, with options never passed here
    return orjson.dumps(item)


#: what separates two items of a section in the JSON report
ITEM_SEPARATOR = b",\n    "


def encode_items(items) -> bytes:
    """Items encoded and joined as they stand inside a section of the JSON report (a
    part of the cards made elsewhere is passed to :func:`iter_json_bytes` this way)."""
    return ITEM_SEPARATOR.join(map(_encode, items))


def write_items(items, out, batch: int = 2048) -> None:
    """:func:`encode_items` of ``items`` written to the binary file ``out`` a batch at a
    time (a part of a large report never sits in memory as one string)."""
    items = list(items)
    for start in range(0, len(items), batch):
        if start:
            out.write(ITEM_SEPARATOR)
        out.write(encode_items(items[start:start + batch]))


class Segment(NamedTuple):
    """``length`` bytes of the binary file ``file`` from ``offset``: a part of the cards
    that a worker process wrote beside its other parts."""

    file: Any
    offset: int
    length: int


def _blob_pieces(blob, chunk: int = 1 << 20):
    """The bytes of a part: a bytes object as is, a binary file from its start, a
    :class:`Segment` from its offset."""
    if isinstance(blob, (bytes, bytearray)):
        yield blob
        return
    if isinstance(blob, Segment):
        blob.file.seek(blob.offset)
        left = blob.length
        while left > 0:
            piece = blob.file.read(min(chunk, left))
            if not piece:
                raise OSError(f"a part of the cards ended {left} bytes early")
            left -= len(piece)
            yield piece
        return
    blob.seek(0)
    while True:
        piece = blob.read(chunk)
        if not piece:
            return
        yield piece


def _blob_empty(blob) -> bool:
    if isinstance(blob, (bytes, bytearray)):
        return not blob
    if isinstance(blob, Segment):
        return blob.length == 0
    blob.seek(0, 2)
    return blob.tell() == 0


def iter_json_bytes(report: Report, domain: Domain | None, card_blobs: Sequence[Any] | None = None):
    """The text of :func:`render_json` as UTF-8 pieces (what ``--format json`` writes).

    ``card_blobs``, when given, are the cards already encoded by :func:`encode_items`
    or :func:`write_items` in parts (bytes, binary files or :class:`Segment` of files,
    in order; empty parts allowed) and stand for ``report.cards``."""
    yield b"{\n"
    first_section = True
    for key, value in _sections(report, domain.passing_verdicts if domain is not None else None):
        head = b"" if first_section else b",\n"
        first_section = False
        name = _encode(key)
        if key == "cards" and card_blobs is not None:
            blobs = [b for b in card_blobs if not _blob_empty(b)]
            if not blobs:
                yield head + b"  " + name + b": []"
                continue
            yield head + b"  " + name + b": [\n    "
            for i, blob in enumerate(blobs):
                if i:
                    yield ITEM_SEPARATOR
                yield from _blob_pieces(blob)  # a part may be tens of megabytes
            yield b"\n  ]"
        elif isinstance(value, (list, tuple)) or hasattr(value, "__next__"):
            opened = False
            for item in value:
                yield (head + b"  " + name + b": [\n    " if not opened else b",\n    ") + _encode(item)
                opened = True
            yield b"\n  ]" if opened else head + b"  " + name + b": []"
        else:
            yield head + b"  " + name + b": " + _encode(value)
    yield b"\n}\n"


def iter_json(report: Report, domain: Domain | None):
    """The text of :func:`render_json` in pieces."""
    for piece in iter_json_bytes(report, domain):
        yield piece.decode("utf-8")


