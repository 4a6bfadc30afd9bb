"""Reading one evaluation round from a folder of CSVs, an ``.xlsx`` workbook or a
JSON/YAML document into a :class:`~verdicts.robot.model.Round`.

The three tables are ``evaluation_run``, ``task_spec`` and ``dataset_index`` (CSV files
or sheets named after them).  Numbers that verdicts compare are kept as exact decimals
parsed from the cell text, so that rounding and thresholds work on the values as
written.  Every problem becomes an :class:`~verdicts.model.InputIssue`; only what
depends on it is withheld.
"""

from __future__ import annotations

from collections import Counter
from decimal import Decimal
from pathlib import Path

from verdicts.korean import code, josa
from verdicts.model import InputIssue
from verdicts.numbers import parse_decimal
from verdicts.tables import Row, TypedTable, load_typed_tables

from .model import TABLE_SPECS, DatasetRow, Round, Run, TaskSpec

__all__ = ["load_round"]


def _issue(t: TypedTable, row: Row | None, column: str | None, reason: str) -> InputIssue:
    return InputIssue(file=t.file, table=t.name, line=row.line if row else None, column=column, reason=reason)


def _decimal(t: TypedTable, row: Row, column: str, issues: list[InputIssue], *, low: str | None = None,
             high: str | None = None, positive: bool = False) -> Decimal | None:
    """The cell as an exact decimal, ``None`` when empty, unreadable (already an issue
    from typing) or out of range (an issue here)."""
    if column in row.invalid:
        return None
    value = parse_decimal(row.raw.get(column))
    if value is None:
        return None
    if positive and value <= 0:
        issues.append(_issue(t, row, column, f"`{column}` 값 {josa(code(row.raw[column]), '은/는')} 0보다 커야 해서 이 값은 쓰지 않았습니다."))
        return None
    # ``low`` and ``high`` are literal numbers of this module: parse_decimal reads them
    if (low is not None and value < parse_decimal(low)) or (high is not None and value > parse_decimal(high)):  # type: ignore[operator]
        issues.append(_issue(t, row, column, f"`{column}` 값 {josa(code(row.raw[column]), '은/는')} {low} 이상 {high} 이하여야 해서 이 값은 쓰지 않았습니다."))
        return None
    return value


def load_round(path: str | Path) -> Round:
    """Read and type one evaluation round.

    Raises :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    path = Path(path)
    issues: list[InputIssue] = []
    raw, typed = load_typed_tables(path, TABLE_SPECS, issues, required=[spec.name for spec in TABLE_SPECS])

    tasks: dict[str, TaskSpec] = {}
    if "task_spec" in typed and not typed["task_spec"].rows and not typed["task_spec"].rejected:
        # a header alone, or an emptied document: nothing would be judged, and the run must not pass
        t = typed["task_spec"]
        issues.append(InputIssue(file=t.file, table=t.name, line=1 if t.form in ("csv", "xlsx") else None,
                                 reason="태스크가 한 줄도 없어 판정할 대상이 없습니다."))
    tasks_known = "task_spec" in typed and typed["task_spec"].has("task_id")
    if tasks_known:
        t = typed["task_spec"]
        for row in t.rows:
            v = row.values
            minimum = v.get("min_episode_count")
            if minimum is not None and minimum < 0:
                issues.append(_issue(t, row, "min_episode_count", f"`min_episode_count` 값 {josa(str(minimum), '은/는')} 0 이상이어야 해서 이 값은 쓰지 않았습니다."))
                minimum = None
            tasks[v["task_id"]] = TaskSpec(
                task_id=v["task_id"], required_skill=v.get("required_skill"),
                target_success_rate=_decimal(t, row, "target_success_rate", issues, low="0", high="1"),
                top_reason_share_limit=_decimal(t, row, "top_reason_share_limit", issues, low="0", high="1"),
                max_cycle_sec=_decimal(t, row, "max_cycle_sec", issues, positive=True),
                min_episode_count=minimum, line=row.line, raw=row.raw,
            )

    datasets: dict[str, DatasetRow] = {}
    datasets_known = "dataset_index" in typed and typed["dataset_index"].has("task_id")
    if datasets_known:
        t = typed["dataset_index"]
        for row in t.rows:
            v = row.values
            if v["task_id"] not in tasks and tasks_known:
                issues.append(_issue(t, row, "task_id", f"`task_spec`에 없는 태스크 {code(v['task_id'])}의 수집 줄이라 어느 카드에도 쓰지 않았습니다."))
                continue
            count = v.get("episode_count")
            if count is not None and count < 0:
                issues.append(_issue(t, row, "episode_count", f"`episode_count` 값 {josa(str(count), '은/는')} 0 이상이어야 해서 이 값은 쓰지 않았습니다."))
                count = None
            datasets[v["task_id"]] = DatasetRow(
                task_id=v["task_id"], required_skill=v.get("required_skill"), episode_count=count,
                capture_site=v.get("capture_site"), robot_hand_type=v.get("robot_hand_type"), line=row.line, raw=row.raw,
            )

    runs: dict[str, list[Run]] = {}
    artifact: str | None = None
    runs_known = "evaluation_run" in typed and typed["evaluation_run"].has("task_id")
    if runs_known and tasks_known:
        t = typed["evaluation_run"]
        artifacts = Counter(row.values.get("model_artifact") for row in t.rows if row.values.get("model_artifact"))
        if artifacts:
            # the round's artifact: the most frequent one, ties by name
            artifact = sorted(artifacts.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
        seen_episode: dict[tuple[str, str], int] = {}
        for row in t.rows:
            v = row.values
            task_id = v["task_id"]
            if task_id not in tasks:
                issues.append(_issue(t, row, "task_id", f"`task_spec`에 없는 태스크 {code(task_id)}의 평가 줄이라 어느 카드에도 세지 않았습니다."))
                continue
            own = v.get("model_artifact")
            if own is not None and own != artifact:
                issues.append(_issue(t, row, "model_artifact",
                                     f"이 회차의 `model_artifact` 값 {josa(code(artifact), '과/와')} 다른 {code(own)}의 평가 줄이라 세지 않았습니다."))
                continue
            episode = v.get("episode_id")
            if episode is not None:
                first = seen_episode.get((task_id, episode))
                if first is not None:
                    issues.append(_issue(t, row, "episode_id",
                                         f"태스크 {code(task_id)}의 `episode_id` 값 {josa(code(episode), '이/가')} {first}번째 줄에 이미 있어 이 줄은 세지 않았습니다."))
                    continue
                seen_episode[(task_id, episode)] = row.line
            if t.has("success") and v.get("success") is None and "success" not in row.invalid:
                issues.append(_issue(t, row, "success", f"태스크 {code(task_id)}의 평가 줄에 `success` 값이 비어 있어 이 태스크의 성공률과 실패 집계는 비워 둡니다."))
            if t.has("cycle_sec") and v.get("cycle_sec") is None and "cycle_sec" not in row.invalid:
                issues.append(_issue(t, row, "cycle_sec", f"태스크 {code(task_id)}의 평가 줄에 `cycle_sec` 값이 비어 있어 이 태스크의 주기 중앙값은 비워 둡니다."))
            runs.setdefault(task_id, []).append(Run(
                task_id=task_id, model_artifact=own, episode_id=episode, success=v.get("success"),
                failure_reason=v.get("failure_reason") if v.get("success") is False else None,
                cycle_sec=_decimal(t, row, "cycle_sec", issues, positive=True), line=row.line, raw=row.raw,
            ))
    return Round(
        tasks=tasks, runs=runs, datasets=datasets, artifact=artifact, issues=issues,
        sources=[tbl.source() for tbl in raw.values()],
        columns={name: set(tbl.present) for name, tbl in typed.items()},
        files={name: tbl.file for name, tbl in typed.items()},
        runs_known=runs_known, datasets_known=datasets_known, tables=typed,
    )
