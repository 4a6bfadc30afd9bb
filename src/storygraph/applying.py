"""``storygraph fix``: the fixes of one lint, applied to the creator's own file.

The fixes are chosen by :func:`verdicts.fixing.choose_fixes` (one per problem; of two
fixes that edit one cell the first, the other left for the next run), applied to the rows
by :func:`storygraph.fixes.apply_edits` and written back by :func:`verdicts.fixing.rewrite`
(docs/decisions.md, "Applying fixes").  A story read by an importer is not edited: its
fixes are printed at their source lines as suggestions.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from verdicts.errors import InputError
from verdicts.fixing import FileChangedError, changes, choose_fixes, digest, problem_fixes, rewrite, rows_of, unified_diff
from verdicts.korean import josa
from verdicts.model import Report
from verdicts.tables import RawTable

from .fixes import apply_edits
from .cells import raw_tables as _raw_tables, read_file as _read

__all__ = ["Plan", "plan_fixes", "write_plan", "left_line", "fix_command"]


@dataclass
class Plan:
    """What ``storygraph fix`` will do: per file, the bytes read and the bytes to write."""

    path: Path
    report: Report
    applied: list[Mapping[str, Any]] = field(default_factory=list)
    held: list[Mapping[str, Any]] = field(default_factory=list)
    #: file -> (bytes read at lint time, bytes to write)
    files: dict[Path, tuple[bytes, bytes]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    encodings: dict[Path, str] = field(default_factory=dict)

    def diff(self) -> str:
        out = []
        for file, (old, new) in self.files.items():
            if old == new:
                continue
            if file.suffix.lower() in (".xlsx", ".xlsm"):
                out.append(f"{file}: 통합 문서라 차이를 줄로 보여 줄 수 없습니다. 고칠 곳은 아래 고치는 법과 같습니다.\n")
                out.extend(f"  - {f.get('text', '')}\n" for f in self.applied)
                continue
            out.append(unified_diff(str(file), old, new, self.encodings.get(file, "utf-8")))
        return "".join(out)

    @property
    def changed(self) -> bool:
        return any(old != new for old, new in self.files.values())


def _file_of(path: Path, table: RawTable) -> Path:
    """The file a table was read from (a sheet of a workbook names ``FILE#sheet``)."""
    return path if path.is_file() else Path(table.file)


#: passes of one ``storygraph fix``: the fixes of a lint applied, the result linted again
#: (in a copy) and the fixes it still offers applied, until none is left or this many
PASSES = 5


def _claims(edit: Mapping[str, Any]) -> set[tuple[str, str, str]]:
    """What an added branch takes besides its own row: its id (two fixes number their new
    branch alike) and the order of its scene's branches (two branches added to one scene
    would share the last place, and the second would never be taken)."""
    if edit.get("action") != "add" or edit.get("table") != "story_branches":
        return set()
    row = edit.get("row") or {}
    return {("story_branches", str(row.get("branch_id") or "").strip(), "*"),
            ("story_branches", "\x00from " + str(row.get("from_scene") or "").strip(), "*")}


def _one_pass(path: Path, report: Report, raw: Mapping[str, RawTable], files: list[Path],
              read: Mapping[Path, bytes]) -> tuple[list[Mapping[str, Any]], list[Mapping[str, Any]], dict[Path, bytes], list[str]]:
    """The fixes ``report`` offers, chosen and applied to the rows read (``raw``): those
    applied, those held back, the new bytes of each file and notes on what was left out."""
    from .domain import DOMAIN

    before = rows_of(raw)
    after = before
    applied: list[Mapping[str, Any]] = []
    chosen, held = choose_fixes((fix for _, fix in problem_fixes(report, DOMAIN.passing_verdicts)), _claims)
    for fix in chosen:
        try:
            after = apply_edits(after, fix["edits"])
        except (KeyError, ValueError):
            held.append(fix)  # a row it names is gone (an earlier fix removed it)
            continue
        applied.append(fix)
    todo = changes(before, after)
    new: dict[Path, bytes] = {}
    notes: list[str] = []
    for file in files:
        mine = {name: t for name, t in raw.items() if _file_of(path, t) == file}
        part = {name: c for name, c in todo.items() if name in mine}
        if not part:
            new[file] = read[file]
            continue
        new[file], more = rewrite(file, read[file], mine, part)
        notes.extend(more)
    return applied, held, new, notes


def plan_fixes(path: Path, config: Any = None, passes: int = PASSES) -> Plan:
    """Lint ``path`` and work out the new bytes of its files with the fixes applied: the
    fixes of the lint, then (in a copy of the files, up to ``passes`` passes) those the
    lint of the result still offers — a fix held back for clashing with another, or one
    for a problem a fix uncovered — until none is left."""
    from .domain import find_config, lint, load_config

    raw = _raw_tables(path)
    files = sorted({_file_of(path, t) for t in raw.values()})
    read = {f: _read(f) for f in files}
    cfg = config if config is not None else load_config(find_config(path))
    report = lint(path, config=cfg)
    for f in files:  # what the lint read must be what the plan edits
        if digest(_read(f)) != digest(read[f]):
            raise FileChangedError(f"{f}: 검사하는 사이에 파일이 바뀌어 고치지 않았습니다. 다시 실행하세요.")
    plan = Plan(path, report)
    raw = _raw_tables(path)
    for table in raw.values():
        encoding = table.encoding or "utf-8"
        plan.encodings[_file_of(path, table)] = {"utf-8-sig": "utf-8-sig", "cp949": "cp949", "utf-16": "utf-16"}.get(encoding, "utf-8")
    applied, plan.held, now, plan.notes = _one_pass(path, report, raw, files, read)
    plan.applied.extend(applied)
    if applied and passes > 1 and not plan.notes and any(now[f] != read[f] for f in files):
        with tempfile.TemporaryDirectory(prefix="storygraph-fix-") as folder:
            copy = _copy_of(path, Path(folder))
            where = {f: copy if path.is_file() else copy / f.relative_to(path) for f in files}
            seen = {tuple(now[f] for f in files)}
            for _ in range(passes - 1):
                for f in files:
                    where[f].parent.mkdir(parents=True, exist_ok=True)
                    where[f].write_bytes(now[f])
                try:
                    again = lint(copy, config=cfg)
                    raw_copy = _raw_tables(copy)
                except InputError:
                    break  # the edited copy does not read: keep what the passes so far made
                copies = sorted({_file_of(copy, t) for t in raw_copy.values()})
                back = {where[f]: f for f in files}
                if any(c not in back for c in copies):
                    break
                applied, held, made, notes = _one_pass(copy, again, raw_copy, copies, {c: now[back[c]] for c in copies})
                made_now = {back[c]: b for c, b in made.items()}
                if notes or not applied or all(made_now[f] == now[f] for f in made_now):
                    break
                state = tuple(made_now.get(f, now[f]) for f in files)
                if state in seen:
                    break
                seen.add(state)
                now.update(made_now)
                plan.applied.extend(applied)
                plan.held = held
    for f in files:
        plan.files[f] = (read[f], now[f])
    return plan


def _copy_of(path: Path, folder: Path) -> Path:
    """Where the copy of the scenario at ``path`` goes in ``folder`` (the same file name,
    or the folder's own name for a folder of tables)."""
    return folder / path.name


def write_plan(plan: Plan, backup: bool = True) -> list[Path]:
    """Write the plan's files (each through a temporary file renamed over it, the old one
    kept as ``FILE.bak`` when ``backup``).  Refuses, writing nothing, when a file is no
    longer what was read."""
    for file, (old, _) in plan.files.items():
        try:
            now = _read(file)
        except InputError:
            now = b""
        if digest(now) != digest(old):
            raise FileChangedError(f"{file}: 읽은 뒤로 파일이 바뀌어 고침을 쓰지 않았습니다. 다시 실행하세요.")
    written = []
    for file, (old, new) in plan.files.items():
        if old == new:
            continue
        if backup:
            _atomic_write(file.with_name(file.name + ".bak"), old, like=file)
        _atomic_write(file, new, like=file)
        written.append(file)
    return written


def _atomic_write(target: Path, data: bytes, like: Path) -> None:
    handle, temp = tempfile.mkstemp(prefix="." + target.name + ".", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        try:
            os.chmod(temp, like.stat().st_mode & 0o7777)
        except OSError:
            pass
        os.replace(temp, target)
    except BaseException:
        if os.path.exists(temp):
            os.unlink(temp)
        raise


def left_line(report: Report) -> str:
    """What a lint leaves, in one line: problems per kind."""
    from .domain import DOMAIN

    kinds: Counter[str] = Counter()
    for card in report.cards:
        if card.verdict not in DOMAIN.passing_verdicts and not getattr(card, "accepted", None):
            kinds[card.verdict] += 1
    titles = {k.code: k.title for k in DOMAIN.finding_kinds}
    for finding in report.findings:
        if not finding.accepted and not finding.withheld:
            kinds[titles.get(finding.code, finding.code)] += 1
    if report.issues:
        kinds["입력 문제"] += len(report.issues)
    fixable = len(problem_fixes(report, DOMAIN.passing_verdicts))
    if not kinds:
        return "다시 검사하니 남은 문제가 없습니다."
    listed = ", ".join(f"{kind} {n:,}건" for kind, n in sorted(kinds.items(), key=lambda kv: (-kv[1], kv[0])))
    tail = f" 그 가운데 고칠 수 있는 문제는 {fixable:,}건이니 한 번 더 실행하세요." if fixable else ""
    return f"다시 검사하니 남은 문제는 {listed}입니다.{tail}"


def _suggest(path: Path) -> int:
    """A story: each fix at its source line, nothing written."""
    from .domain import DOMAIN, find_config, lint, load_config

    report = lint(path, config=load_config(find_config(path)))
    problems = problem_fixes(report, DOMAIN.passing_verdicts)
    out = sys.stdout
    if not problems:
        out.write(f"{path}: 고칠 수 있는 문제가 없습니다.\n")
        return 0
    seen = set()
    for problem, fix in problems:
        line = getattr(problem, "line", None)
        if line is None:
            evidence = getattr(problem, "evidence", None) or []
            line = next((e.line for e in evidence if getattr(e, "line", None)), None)
        key = (line, fix.get("text"))
        if key in seen:
            continue
        seen.add(key)
        out.write(f"{path}:{line if line is not None else '?'}: {fix.get('text', '')}\n")
    out.write(f"{josa('이야기 파일', '은/는')} 고쳐 쓰지 않습니다. 위 {len(seen):,}곳을 원본에서 손으로 고치세요.\n")
    return 0


def fix_command(path: Path, dry_run: bool = False, backup: bool = True) -> int:
    """The ``storygraph fix`` command (exit 0 done, 2 refused or unreadable)."""
    from .batch import is_folder_scenario, table_files
    from .stories import folder_story, story_format

    if path.is_dir() and not is_folder_scenario(path):
        found = folder_story(path, table_files(path))
        if found is not None and story_format(found) is not None:
            return _suggest(path)  # a folder holding a story (ChoiceScript's scenes/, Twine chapters)
    if story_format(path) is not None:
        return _suggest(path)
    try:
        plan = plan_fixes(path)
    except FileChangedError as exc:
        sys.stderr.write(f"storygraph: {exc}\n")
        return 2
    except InputError as exc:
        sys.stderr.write(f"storygraph: {exc}\n")
        return 2
    for note in plan.notes:
        sys.stderr.write(f"storygraph: {note}\n")
    if not plan.changed:
        sys.stdout.write(f"{path}: 적용할 고침이 없습니다. {left_line(plan.report)}\n")
        return 0
    sys.stdout.write(plan.diff())
    held = f" 같은 칸을 고치는 {len(plan.held):,}건은 다음 실행으로 미뤘습니다." if plan.held else ""
    if dry_run:
        sys.stdout.write(f"고침 {len(plan.applied):,}건을 보여 주기만 하고 파일은 그대로 두었습니다(--dry-run).{held}\n")
        return 0
    try:
        written = write_plan(plan, backup=backup)
    except (FileChangedError, OSError) as exc:
        sys.stderr.write(f"storygraph: {exc}\n")
        return 2
    kept = f" 원래 파일은 {', '.join(str(f) + '.bak' for f in written)}에 두었습니다." if backup else ""
    sys.stdout.write(f"고침 {len(plan.applied):,}건을 {', '.join(map(str, written))}에 썼습니다.{kept}{held}\n")
    from .domain import find_config, lint, load_config

    try:
        after = lint(path, config=load_config(find_config(path)))
    except InputError as exc:
        sys.stderr.write(f"storygraph: 고친 파일을 다시 읽지 못했습니다: {exc}\n")
        return 2
    sys.stdout.write(left_line(after) + "\n")
    return 0

