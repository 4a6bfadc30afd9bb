"""storygraph's share of intended findings: the ``lint_ignore`` rows, and open endings.

The core (:mod:`verdicts.accept`) marks what ``[[accept]]`` and ``lint_ignore`` record as
intended and decides the exit code; storygraph adds only where its ``lint_ignore`` cells
are, and that an accepted ``끝에 못 감`` scene is an intended open ending: the branches
and scenes that lead only into it are accepted with it.
"""

from __future__ import annotations

from .model import NO_ENDING, SCENE

__all__ = ["ignore_rows", "open_endings"]


def ignore_rows(report) -> list[tuple[str, str, str | None, str, int | None]]:
    """The scene and branch rows whose ``lint_ignore`` cell holds a reason."""
    sc = report.scenario
    rows = []
    for items, table in ((sc.scenes.values(), "scene_states"), (sc.branches, "story_branches")):
        if not sc.has(table, "lint_ignore"):
            continue
        for row in items:
            reason = (row.raw.get("lint_ignore") or "").strip()
            if reason:
                target = row.scene_id if table == "scene_states" else row.branch_id
                rows.append((target, reason, sc.files.get(table), table, row.line))
    return rows


def open_endings(report, accepted: dict[str, str]) -> dict[str, str]:
    """An accepted ``끝에 못 감`` scene is an intended open ending: the ``끝에 못 감``
    scenes and branches that lead only into intended open endings are accepted with it."""
    cards = {c.key: c for c in report.cards}
    stuck_scenes = {c.target_no for c in report.cards if c.target_kind == SCENE and c.verdict == NO_ENDING}
    covered = {key: reason for key, reason in accepted.items() if key in stuck_scenes}
    if not covered:
        return {}
    sc = report.scenario
    outgoing = sc.branches_from()
    # a 끝에 못 감 scene is covered when every branch out of it goes to a covered scene
    changed = True
    while changed:
        changed = False
        for scene_id in stuck_scenes - covered.keys():
            outs = [b for b in outgoing.get(scene_id, []) if b.to_scene in sc.scenes]
            if outs and all(b.to_scene in covered for b in outs):
                covered[scene_id] = covered[outs[0].to_scene]
                changed = True
    more: dict[str, str] = {}
    for scene_id, reason in covered.items():
        if scene_id not in accepted and scene_id in cards:
            more[scene_id] = f"의도한 열린 결말로만 이어집니다: {reason}"
    for b in sc.branches:
        card = cards.get(b.branch_id)
        if card is not None and card.verdict == NO_ENDING and b.branch_id not in accepted and b.to_scene in covered:
            more[b.branch_id] = f"의도한 열린 결말로 이어집니다: {covered[b.to_scene]}"
    return more
