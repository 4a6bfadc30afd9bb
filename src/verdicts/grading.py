"""The self-grading runner shared by every domain: hand-made gold verdicts against the
automatic ones.

A gold file is a CSV with the domain's key column (``target_no``, ``task_id`` …) and
``verdict``, plus optional columns the domain also compares (``overlapping_branch_id``,
``blocked_cause`` …) and a free ``note``.  The result has the shape the report screen's
self-grading panel reads (see ``docs/grading.md``)::

    {"agreement": {"agreed": 170, "total": 180, "rate": 0.9444},
     "per_verdict": {"끝까지 닿음": {"gold": 90, "agreed": 88, "rate": 0.9778}, …},
     "confusion": {"<gold verdict>": {"<automatic verdict>": 3, …}, …},
     "disagreements": [{"key", "gold", "automatic", "kind", "fields", "summary", "note", "line"}, …],
     "provenance": {"domain", "inputs": [{"path", "sha256"}], "gold": {"path", "sha256"},
                    "tool", "version", "time"},
     "issues": [<input issue>, …]}

A gold row naming a target that has no card, or a verdict outside the domain's list, is
an issue, never a crash.
"""

from __future__ import annotations

import hashlib
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

from .korean import code, josa
from .model import Card, InputIssue

from .tables import read_csv

if TYPE_CHECKING:
    from .domain import Domain

__all__ = ["GoldRow", "GradeResult", "read_gold", "grade", "grade_domain", "merge_results", "render_grade_text", "sha256_of"]

NO_CARD = "(카드 없음)"


@dataclass(frozen=True)
class GoldRow:
    key: str
    verdict: str
    fields: dict[str, str | None]
    note: str | None
    line: int


@dataclass
class GradeResult:
    agreement: dict[str, Any]
    per_verdict: dict[str, dict[str, Any]]
    confusion: dict[str, dict[str, int]]
    disagreements: list[dict[str, Any]]
    provenance: dict[str, Any]
    issues: list[InputIssue] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "agreement": self.agreement,
            "per_verdict": self.per_verdict,
            "confusion": self.confusion,
            "disagreements": self.disagreements,
            "provenance": self.provenance,
            "issues": [i.to_json() for i in self.issues],
        }


def sha256_of(path: str | Path) -> str:
    """SHA-256 of a file, or of a folder's regular files (sorted by name, each name and
    content; read a block at a time, links and special files left out).  A file that
    cannot be read is an :class:`~verdicts.errors.InputError` naming it."""
    path = Path(path)
    digest = hashlib.sha256()
    try:
        if path.is_dir():
            children = sorted(p for p in path.rglob("*") if p.is_file() and not p.is_symlink())
            for child in children:
                digest.update(child.relative_to(path).as_posix().encode())
                _feed(digest, child)
        else:
            _feed(digest, path)
    except OSError as exc:
        from .errors import InputError

        where = getattr(exc, "filename", None) or path
        raise InputError(f"{where}: 출처를 남기려고 읽다가 멈췄습니다 ({exc.strerror or exc}).") from None
    return digest.hexdigest()


def _feed(digest, file: Path) -> None:
    """Hash ``file``, opened only when it is a regular file (:func:`verdicts.files.open_file`:
    a FIFO among the inputs would otherwise wait forever)."""
    from .files import open_file

    with open_file(file) as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)


def read_gold(path: str | Path, *, key_field: str, verdicts: Sequence[str], compared: Sequence[str] = ()) -> tuple[list[GoldRow], list[InputIssue]]:
    """Read a gold CSV; bad rows become issues and are left out of the grading."""
    issues: list[InputIssue] = []
    table = read_csv(Path(path), "gold", issues)
    file = str(path)
    for needed in (key_field, "verdict"):
        if needed not in table.columns:
            issues.append(InputIssue(file=file, table="gold", line=1, column=needed, reason=f"정답 파일에 {code(needed)} 열이 없습니다."))
    if any(i.line == 1 and i.column in (key_field, "verdict") for i in issues):
        return [], issues
    rows: list[GoldRow] = []
    seen: dict[str, int] = {}
    for raw in table.rows:
        key, verdict = raw.values.get(key_field), raw.values.get("verdict")
        if not key:
            issues.append(InputIssue(file=file, table="gold", line=raw.line, column=key_field, reason=f"{code(key_field)} 칸이 비어 있어 이 정답 줄은 채점하지 않았습니다."))
            continue
        if verdict not in verdicts:
            issues.append(InputIssue(file=file, table="gold", line=raw.line, column="verdict",
                                     reason=f"{code('verdict')} 칸의 값 {josa(code(verdict), '은/는')} 판정 목록({', '.join(verdicts)})에 없는 값이라 "
                                            "이 정답 줄은 채점하지 않았습니다."))
            continue
        if key in seen:
            issues.append(InputIssue(file=file, table="gold", line=raw.line, column=key_field,
                                     reason=f"{key}의 정답이 {seen[key]}번째 줄에 이미 있어 이 줄은 채점하지 않았습니다."))
            continue
        seen[key] = raw.line
        assert verdict is not None  # one of ``verdicts`` (checked above)
        rows.append(GoldRow(key, verdict, {c: raw.values.get(c) for c in compared if c in table.columns}, raw.values.get("note"), raw.line))
    return rows, issues


def grade(cards: Iterable[Card], gold: Sequence[GoldRow], *, verdicts: Sequence[str], domain: str, inputs: Sequence[str | Path],
          gold_path: str | Path, tool: str, version: str, issues: Sequence[InputIssue] = (), gold_file: str | None = None) -> GradeResult:
    """Compare ``cards`` with ``gold``.

    A gold row agrees when the card has the same verdict and every compared field of the
    row that is filled equals the card's (an empty gold cell means "not compared").
    """
    by_key = {c.key: c for c in cards}
    issues = list(issues)
    confusion: dict[str, dict[str, int]] = {v: {} for v in verdicts}
    per: dict[str, dict[str, Any]] = {v: {"gold": 0, "agreed": 0, "rate": None} for v in verdicts}
    disagreements: list[dict[str, Any]] = []
    agreed = total = 0
    for row in gold:
        card = by_key.get(row.key)
        if card is None:
            issues.append(InputIssue(file=gold_file or str(gold_path), table="gold", line=row.line, column=None,
                                     reason=f"정답 줄의 {row.key}에 해당하는 카드가 없습니다 (없는 대상이거나 입력 문제로 판정을 보류한 대상)."))
            continue
        total += 1
        per[row.verdict]["gold"] += 1
        confusion[row.verdict][card.verdict] = confusion[row.verdict].get(card.verdict, 0) + 1
        differing = {}
        for name, expected in row.fields.items():
            if expected in (None, ""):
                continue
            actual = getattr(card, name, None)
            if str(actual) != expected:
                differing[name] = {"gold": expected, "automatic": actual}
        if card.verdict == row.verdict and not differing:
            agreed += 1
            per[row.verdict]["agreed"] += 1
            continue
        kind = f"{row.verdict} → {card.verdict}" if card.verdict != row.verdict else f"{row.verdict}: {', '.join(differing)} 다름"
        disagreements.append({
            "key": row.key, "gold": row.verdict, "automatic": card.verdict, "kind": kind, "fields": differing,
            "summary": card.summary, "note": row.note, "line": row.line,
        })
    for _v, stats in per.items():
        stats["rate"] = round(stats["agreed"] / stats["gold"], 4) if stats["gold"] else None
    provenance = {
        "domain": domain,
        "inputs": [{"path": str(p), "sha256": sha256_of(p)} for p in inputs],
        "gold": {"path": str(gold_path), "sha256": sha256_of(gold_path)},
        "tool": tool,
        "version": version,
        "time": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
    }
    return GradeResult(
        agreement={"agreed": agreed, "total": total, "rate": round(agreed / total, 4) if total else None},
        per_verdict=per, confusion={k: v for k, v in confusion.items()}, disagreements=disagreements,
        provenance=provenance, issues=issues,
    )


def merge_results(results: Sequence[GradeResult], *, gold_path: str | Path, verdicts: Sequence[str], domain: str, tool: str,
                  version: str) -> GradeResult:
    """Add up the results of several (inputs, gold) pairs graded one by one — a gold
    *suite* — into one result of the same shape.

    Each disagreement gains ``"input"``, the path of the input it belongs to (keys such as
    ``SC-01`` repeat across inputs); ``provenance.inputs`` lists every input and
    ``provenance.gold`` gets ``"files"``, every gold file with its SHA-256.
    """
    agreed = sum(r.agreement["agreed"] for r in results)
    total = sum(r.agreement["total"] for r in results)
    per: dict[str, dict[str, Any]] = {v: {"gold": 0, "agreed": 0, "rate": None} for v in verdicts}
    confusion: dict[str, dict[str, int]] = {v: {} for v in verdicts}
    disagreements: list[dict[str, Any]] = []
    issues: list[InputIssue] = []
    inputs: list[dict[str, str]] = []
    gold_files: list[dict[str, str]] = []
    for r in results:
        for v, stats in r.per_verdict.items():
            slot = per.setdefault(v, {"gold": 0, "agreed": 0, "rate": None})
            slot["gold"] += stats["gold"]
            slot["agreed"] += stats["agreed"]
        for gold_v, row in r.confusion.items():
            target = confusion.setdefault(gold_v, {})
            for auto_v, n in row.items():
                target[auto_v] = target.get(auto_v, 0) + n
        where = r.provenance["inputs"][0]["path"] if r.provenance["inputs"] else None
        disagreements.extend({**d, "input": where} for d in r.disagreements)
        issues.extend(r.issues)
        inputs.extend(r.provenance["inputs"])
        gold_files.append(r.provenance["gold"])
    for stats in per.values():
        stats["rate"] = round(stats["agreed"] / stats["gold"], 4) if stats["gold"] else None
    provenance = {
        "domain": domain,
        "inputs": inputs,
        "gold": {"path": str(gold_path), "sha256": sha256_of(gold_path), "files": gold_files},
        "tool": tool,
        "version": version,
        "time": datetime.now(timezone.utc).replace(microsecond=0).isoformat(),
    }
    return GradeResult(
        agreement={"agreed": agreed, "total": total, "rate": round(agreed / total, 4) if total else None},
        per_verdict=per, confusion=confusion, disagreements=disagreements, provenance=provenance, issues=issues,
    )


def _cells(text: str) -> int:
    """Terminal cells taken by ``text`` (Hangul and other wide characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def render_grade_text(result: GradeResult) -> str:
    """Agreement overall and per verdict, the confusion table, the disagreements grouped
    by kind (``gold → automatic`` verdicts, or which compared field differs)."""
    a = result.agreement
    lines = [f"판정 일치: {a['agreed']}/{a['total']}" + (f" ({a['rate'] * 100:.1f}%)" if a["rate"] is not None else "")]
    lines.append("")
    lines.append("사유별 일치:")
    for v, s in result.per_verdict.items():
        rate = f"{s['rate'] * 100:.1f}%" if s["rate"] is not None else "-"
        lines.append(f"  {v}: {s['agreed']}/{s['gold']} ({rate})")
    lines.append("")
    verdicts = list(result.per_verdict)
    lines.append("혼동표 (행 = 정답, 열 = 자동 판정):")
    width = max(_cells(v) for v in verdicts) + 2
    lines.append(" " * width + " | ".join(verdicts))
    for gold_v in verdicts:
        row = result.confusion.get(gold_v, {})
        lines.append(gold_v + " " * (width - _cells(gold_v)) + " | ".join(str(row.get(v, 0)).rjust(_cells(v)) for v in verdicts))
    lines.append("")
    lines.append(f"어긋난 자리 ({len(result.disagreements)}):")
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for d in result.disagreements:
        by_kind.setdefault(d["kind"], []).append(d)
    for kind, items in by_kind.items():
        lines.append(f"  [{kind}] ({len(items)})")
        for d in items:
            note = f" — 메모: {d['note']}" if d.get("note") else ""
            where = f"{Path(d['input']).name} " if d.get("input") else ""
            lines.append(f"    {where}{d['key']}: 정답 {d['gold']} / 자동 {d['automatic']} {d['summary']}{note}")
    if result.issues:
        lines.append("")
        lines.append(f"정답 파일 문제 ({len(result.issues)}):")
        for i in result.issues:
            lines.append(f"  {i.where()} — {i.reason}")
    p = result.provenance
    lines.append("")
    lines.append(f"출처: {p['tool']} {p['version']} · {p['time']} · 정답 {p['gold']['path']} (sha256 {p['gold']['sha256'][:12]}…)")
    return "\n".join(lines) + "\n"


def grade_domain(domain: "Domain", path: str | Path, gold_path: str | Path, *, tool: str = "verdicts") -> GradeResult:
    """Judge ``path`` with ``domain`` and grade its cards against the gold CSV at
    ``gold_path`` (the domain's key column, ``verdict`` and its ``gold_fields``).

    Raises :class:`~verdicts.errors.InputError` when the inputs cannot be read at all.
    """
    from importlib.metadata import PackageNotFoundError, version

    try:
        tool_version = version("storygraph")
    except PackageNotFoundError:  # pragma: no cover - running from a bare checkout
        tool_version = "0.0.0+unknown"
    report = domain.judge(Path(path))
    gold, issues = read_gold(gold_path, key_field=domain.card_type.key_field, verdicts=domain.verdicts,
                             compared=domain.gold_fields)
    return grade(report.cards, gold, verdicts=domain.verdicts, domain=domain.name, inputs=[path], gold_path=gold_path,
                 tool=tool, version=tool_version, issues=issues)
