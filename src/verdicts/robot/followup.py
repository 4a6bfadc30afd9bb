"""After a round: did the collection plan actually made cover the recapture each card
asked for (the seed's grading runner, week 2: "다시 찍으라고 짚은 현장과 손 형태가 실제
수집 계획과 맞았는지 회차가 끝난 뒤 되짚습니다").

The plan is a table ``collection_plan``, read by the kit's table reader in any form it
reads (a CSV file or a folder holding ``collection_plan.csv``, .xlsx, JSON, YAML):

* ``task_id`` — the task the episodes are planned for (required);
* ``capture_site`` — where they will be captured (as ``dataset_index.capture_site``);
* ``robot_hand_type`` — with which hand (as ``dataset_index.robot_hand_type``);
* ``episode_count`` — how many episodes are planned (a whole number ≥ 0).

A task may have several rows (several sites or hands).  For each card of the round:

* ``covered`` (계획에 맞음) — rows at the asked site with the asked hand plan at least the
  missing episodes (``more_episode_count``; any episode when that is empty or 0);
* ``short`` (회차 모자람) — such rows exist but plan fewer episodes than are missing;
* ``elsewhere`` (다른 현장이나 손) — the task is planned, but not at that site with that hand;
* ``missing`` (계획에 없음) — the plan has no row for the task;
* ``unknown`` (회차 알 수 없음) — rows at that site with that hand exist, but too few
  episodes can be read to tell (a row's ``episode_count`` is empty or unreadable);
* ``not_asked`` (요청 없음) — the card asked for no recapture (a deployment candidate, a
  withheld card, a task with no dataset row); its sentence says what the plan holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from verdicts.korean import code, josa
from verdicts.model import InputIssue, SourceInfo
from verdicts.tables import Column, TableSpec, load_typed_tables

from .model import DEPLOY

__all__ = ["COLLECTION_PLAN", "STATUSES", "PlanRow", "TaskFollowUp", "FollowUp", "load_plan", "follow_up"]

COLLECTION_PLAN = TableSpec(
    "collection_plan",
    (
        Column("task_id", "str", required=True),
        Column("capture_site"),
        Column("robot_hand_type"),
        Column("episode_count", "int"),
    ),
)

#: each status and the words the report shows it under
STATUSES: dict[str, str] = {"covered": "계획에 맞음", "short": "회차 모자람", "elsewhere": "다른 현장이나 손",
                            "missing": "계획에 없음", "unknown": "회차 알 수 없음", "not_asked": "요청 없음"}


@dataclass(frozen=True)
class PlanRow:
    """One row of the plan (``episodes`` ``None`` when empty or unreadable: an issue)."""

    task_id: str
    site: str | None
    hand: str | None
    episodes: int | None
    line: int

    def words(self) -> str:
        site = f"{self.site} 현장" if self.site else "현장 미정"
        hand = f"{code(self.hand)} 손" if self.hand else "손 미정"
        count = f" {self.episodes:,}회" if self.episodes is not None else ""
        return f"{site} · {hand}{count}"


@dataclass(frozen=True)
class TaskFollowUp:
    """What the plan does for one card's recapture."""

    task_id: str
    verdict: str | None
    site: str | None
    hand: str | None
    more: int | None
    status: str
    planned: int
    rows: tuple[PlanRow, ...]
    sentence: str

    def to_json(self) -> dict[str, Any]:
        return {"task_id": self.task_id, "verdict": self.verdict, "recapture_site": self.site,
                "recapture_hand": self.hand, "more_episode_count": self.more, "status": self.status,
                "planned_episodes": self.planned, "plan_lines": [r.line for r in self.rows], "sentence": self.sentence}


@dataclass
class FollowUp:
    """The follow-up of one round against one plan."""

    tasks: list[TaskFollowUp]
    issues: list[InputIssue] = field(default_factory=list)
    sources: list[SourceInfo] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Every asked recapture is covered and the plan was read without an issue."""
        return not self.issues and all(t.status in ("covered", "not_asked") for t in self.tasks)

    def to_json(self) -> dict[str, Any]:
        counts = {s: sum(t.status == s for t in self.tasks) for s in STATUSES}
        return {"tasks": [t.to_json() for t in self.tasks], "counts": counts,
                "issues": [i.to_json() for i in self.issues], "inputs": [s.to_json() for s in self.sources]}

    def render_text(self) -> str:
        lines = [f"입력: {s.file} [{s.table}, {s.form}]" for s in self.sources]
        for status, label in STATUSES.items():
            tasks = [t for t in self.tasks if t.status == status]
            if tasks:
                lines += ["", f"■ {label} ({len(tasks):,})"] + [f"  {label} · {t.task_id}  {t.sentence}" for t in tasks]
        if self.issues:
            lines += ["", f"■ 입력 문제 ({len(self.issues):,})"]
            lines += [f"  {i.file}:{i.line or ''} {i.table} {i.column or ''} — {i.reason}" for i in self.issues]
        counts = " · ".join(f"{label} {sum(t.status == s for t in self.tasks):,}건" for s, label in STATUSES.items())
        return "\n".join(lines + ["", f"요약: {counts}" + (f" · 입력 문제 {len(self.issues):,}건" if self.issues else "")]) + "\n"


def load_plan(path: str | Path) -> tuple[list[PlanRow], list[InputIssue], list[SourceInfo]]:
    """The plan's rows, its input issues and where it was read from (the kit's table
    reader: a CSV file, or ``collection_plan`` in a folder, workbook or document).

    Raises :class:`~verdicts.errors.InputError` when nothing can be read."""
    issues: list[InputIssue] = []
    raw, typed = load_typed_tables(Path(path), [COLLECTION_PLAN], issues, required=[COLLECTION_PLAN.name],
                                   single_csv_table=COLLECTION_PLAN.name)
    table = typed.get(COLLECTION_PLAN.name)
    rows = []
    for row in table.rows if table is not None else ():
        task = row.get("task_id")
        if not task:
            continue  # the kit's reader already named the empty required cell
        rows.append(PlanRow(task, row.get("capture_site") or None, row.get("robot_hand_type") or None,
                            row.get("episode_count") if "episode_count" not in row.invalid else None, row.line))
    for r in rows:
        if r.episodes is not None and r.episodes < 0:
            issues.append(InputIssue(file=table.file if table else str(path), table=COLLECTION_PLAN.name, line=r.line,
                                     column="episode_count",
                                     reason=f"계획한 회차 {r.episodes}가 0보다 작아 이 줄은 세지 않았습니다."))
    rows = [r for r in rows if r.episodes is None or r.episodes >= 0]
    return rows, issues, [t.source() for t in raw.values()]


def _planned_words(rows: list[PlanRow]) -> str:
    return ", ".join(r.words() for r in rows)


def _one(card: dict[str, Any], rows: list[PlanRow]) -> TaskFollowUp:
    task, verdict = card["task_id"], card.get("verdict")
    site, hand, more = card.get("recapture_site"), card.get("recapture_hand"), card.get("more_episode_count")
    name = code(task)
    if verdict == DEPLOY or verdict is None or site is None or hand is None:
        why = ("배포 후보라 다시 찍을 것이 없었고" if verdict == DEPLOY
               else "판정을 보류해 다시 찍을 현장과 손을 정하지 않았고" if verdict is None
               else "수집 줄이 없어 다시 찍을 현장과 손을 정하지 못했고")
        held = f"수집 계획에는 {josa(_planned_words(rows), '이/가')} 잡혀 있습니다." if rows else "수집 계획에도 없습니다."
        return TaskFollowUp(task, verdict, site, hand, more, "not_asked", sum(r.episodes or 0 for r in rows), tuple(rows),
                            f"{josa(name, '은/는')} {why} {held}")
    asked = f"{josa(name, '은/는')} {site} 현장에서 {code(hand)} 손으로 다시 찍으라고 했"
    if not rows:
        return TaskFollowUp(task, verdict, site, hand, more, "missing", 0, (),
                            f"{asked}지만 수집 계획에 이 태스크가 없습니다.")
    match = [r for r in rows if r.site == site and r.hand == hand]
    planned = sum(r.episodes or 0 for r in match)
    if not match:
        return TaskFollowUp(task, verdict, site, hand, more, "elsewhere", 0, tuple(rows),
                            f"{asked}지만 수집 계획에는 {_planned_words(rows)}만 잡혀 있습니다.")
    need = more if more else 1
    if planned < need and any(r.episodes is None for r in match):
        return TaskFollowUp(task, verdict, site, hand, more, "unknown", planned, tuple(match),
                            f"{asked}고 수집 계획에 같은 현장과 손의 줄이 있지만, 그 회차를 읽을 수 없는 줄이 있어 "
                            "모자란 회차를 채우는지 알 수 없습니다.")
    if planned >= need:
        fills = f"모자란 {more:,}회를 채웁니다" if more else "요청한 재수집을 덮습니다"
        return TaskFollowUp(task, verdict, site, hand, more, "covered", planned, tuple(match),
                            f"{asked}고, 수집 계획에 같은 현장과 손으로 {planned:,}회가 잡혀 있어 {fills}.")
    gap = f"모자란 {more:,}회에 {more - planned:,}회 못 미칩니다" if more else "한 회도 찍지 않습니다"
    return TaskFollowUp(task, verdict, site, hand, more, "short", planned, tuple(match),
                        f"{asked}지만, 수집 계획에는 같은 현장과 손으로 {planned:,}회만 잡혀 있어 {gap}.")


def follow_up(cards: list[dict[str, Any]], plan: str | Path) -> FollowUp:
    """Each card's recapture against the plan at ``plan`` (the cards of one round, as
    JSON); plan rows for a task the round does not hold are input issues."""
    rows, issues, sources = load_plan(plan)
    by_task: dict[str, list[PlanRow]] = {}
    for r in rows:
        by_task.setdefault(r.task_id, []).append(r)
    known = {c["task_id"] for c in cards}
    file = sources[0].file if sources else str(plan)
    for r in rows:
        if r.task_id not in known:
            issues.append(InputIssue(file=file, table=COLLECTION_PLAN.name, line=r.line, column="task_id",
                                     reason=f"태스크 {josa(code(r.task_id), '이/가')} 이번 회차에 없어 이 줄은 견주지 않았습니다."))
    issues.sort(key=lambda i: (i.line or 0, i.column or ""))
    return FollowUp([_one(c, by_task.get(c["task_id"], [])) for c in cards], issues, sources)
