"""Intended findings: a creator records that a finding is meant, with a reason.

Two places say so: ``[[accept]]`` entries of the configuration (by ``target`` and,
optionally, ``code``), and an optional ``lint_ignore`` column of the scene or branch row
(its text is the reason; it accepts the card's verdict and the findings on that target).
An accepted finding keeps its verdict and card; it is shown greyed with its reason and no
longer fails the run.  An acceptance that matches nothing is reported as an issue, so
that stale ones do not pile up.
"""

from __future__ import annotations

from verdicts.model import InputIssue

from .config import VERDICT_CODES, Config
from .model import NO_ENDING, REACHED_AND_ENDS, SCENE

__all__ = ["apply_acceptances", "failing"]


def apply_acceptances(report, config: Config) -> None:
    """Mark accepted cards and findings on ``report`` (a ``LintResult``), in place, and
    add an issue for each acceptance that matched nothing."""
    sc = report.scenario
    cards = {c.target_no: c for c in report.cards}
    findings_by_target: dict[str, list] = {}
    for i, f in enumerate(report.findings):
        findings_by_target.setdefault(f.target, []).append(i)

    def accept_target(target: str, code: str | None, reason: str) -> bool:
        matched = False
        card = cards.get(target)
        wanted = VERDICT_CODES.get(code, code) if code else None
        if card is not None and card.verdict != REACHED_AND_ENDS and (wanted is None or wanted == card.verdict):
            card.accepted = reason
            matched = True
        for i in findings_by_target.get(target, []):
            finding = report.findings[i]
            if wanted is None or wanted == finding.code:
                report.findings[i] = finding.model_copy(update={"accepted": reason})
                matched = True
        return matched

    for entry in config.accept:
        if not accept_target(entry.target, entry.code, entry.reason):
            what = f"{entry.target}" + (f" ({entry.code})" if entry.code else "")
            report.issues.append(InputIssue(file=config.source, table="accept", column="target",
                                            reason=f"의도된 것으로 적어 둔 {what}에 해당하는 판정이나 발견이 없습니다; 낡은 항목이면 지워 주세요."))
    for rows, table in ((sc.scenes.values(), "scene_states"), (sc.branches, "story_branches")):
        for row in rows:
            reason = (row.raw.get("lint_ignore") or "").strip()
            if not reason:
                continue
            target = getattr(row, "scene_id", None) if table == "scene_states" else row.branch_id
            if not accept_target(target, None, reason):
                report.issues.append(InputIssue(file=sc.files.get(table), table=table, line=row.line, column="lint_ignore",
                                                reason=f"lint_ignore가 적혀 있지만 {target}에는 의도됨으로 둘 판정이나 발견이 없습니다; 낡은 값이면 지워 주세요."))
    _cascade_open_endings(report, cards)


def _cascade_open_endings(report, cards) -> None:
    """An accepted ``끝에 못 감`` scene is an intended open ending: the ``끝에 못 감``
    branches and scenes that lead only into intended open endings are accepted with it."""
    open_endings = {c.target_no: c.accepted for c in report.cards
                    if c.target_kind == SCENE and c.verdict == NO_ENDING and c.accepted}
    if not open_endings:
        return
    sc = report.scenario
    stuck_scenes = {c.target_no for c in report.cards if c.target_kind == SCENE and c.verdict == NO_ENDING}
    outgoing = sc.branches_from()
    # a 끝에 못 감 scene is covered when every branch out of it goes to a covered scene
    covered = dict(open_endings)
    changed = True
    while changed:
        changed = False
        for scene_id in stuck_scenes - covered.keys():
            outs = [b for b in outgoing.get(scene_id, []) if b.to_scene in sc.scenes]
            if outs and all(b.to_scene in covered for b in outs):
                covered[scene_id] = covered[outs[0].to_scene]
                changed = True
    for scene_id, reason in covered.items():
        card = cards.get(scene_id)
        if card is not None and not card.accepted:
            card.accepted = f"의도한 열린 결말로만 이어집니다: {reason}"
    for b in sc.branches:
        card = cards.get(b.branch_id)
        if card is not None and card.verdict == NO_ENDING and not card.accepted and b.to_scene in covered:
            card.accepted = f"의도한 열린 결말로 이어집니다: {covered[b.to_scene]}"


def failing(report, config: Config) -> bool:
    """Whether the run fails under ``config``: a non-accepted card or finding whose
    verdict or code is in ``fail_on``, or an input issue when ``issues`` is."""
    fail_on = set(config.fail_on)
    if "issues" in fail_on and report.issues:
        return True
    for card in report.cards:
        if card.verdict != REACHED_AND_ENDS and card.verdict in fail_on and not card.accepted:
            return True
    for finding in report.findings:
        if getattr(finding, "accepted", None):
            continue
        if "findings" in fail_on or finding.code in fail_on:
            return True
    return False
