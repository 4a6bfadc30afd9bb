"""Comparing a lint report of a generated scenario with its plants: per kind, how many
were caught; every other finding is either explained (a consequence of a plant) or
unexplained (a false positive).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from verdicts.korean import code, josa

from .scenario import KINDS, OK, Generated, Mark

__all__ = ["Outcome", "observed_marks", "compare"]


@dataclass
class Outcome:
    """Planted against caught, per kind, and every other finding explained or not."""

    planted: dict[str, int]
    caught: dict[str, int]
    missed: list[dict[str, Any]]
    explained: list[dict[str, Any]]
    unexplained: list[dict[str, Any]]
    checks_failed: list[str]

    @property
    def ok(self) -> bool:
        return not self.missed and not self.unexplained and not self.checks_failed

    def to_json(self) -> dict[str, Any]:
        return {"planted": self.planted, "caught": self.caught, "missed": self.missed, "explained": self.explained,
                "unexplained": self.unexplained, "checks_failed": self.checks_failed, "ok": self.ok}


def observed_marks(report: Any) -> list[Mark]:
    """Every finding of a lint report as a :class:`Mark`: non-passing cards, lint
    findings, input issues and failed checks."""
    out = [Mark.card(c.target_no, c.verdict, c.overlapping_branch_id) for c in report.cards if c.verdict != OK]
    out += [Mark("finding", f.target, code=f.code) for f in report.findings]
    out += [Mark("issue", i.where(), code=i.reason) for i in report.issues]
    return out


def compare(gen: Generated, report: Any) -> Outcome:
    """Match a lint report of ``gen``'s scenario against its plants.

    A plant is caught when every mark it expects is observed — a finding with the
    planted values in its ``data`` (for a stuck combination the count and total the
    generator counted, and an example under which the generator's own evaluator finds
    no branch that fires; for a dead branch the branch named) — and, for shadowing, the
    analysis found the planted number of covering branches (one, or two or more).
    """
    seen = {m.key(): m for m in observed_marks(report)}
    data: dict[tuple[str, str], list[dict[str, Any]]] = {}
    for f in report.findings:
        data.setdefault((f.target, f.code), []).append(f.data or {})
    shadowed = getattr(getattr(report, "analysis", None), "shadowed", {})
    caught = {k: 0 for k in KINDS}
    planted = {k: 0 for k in KINDS}
    missed: list[dict[str, Any]] = []
    reasons: dict[tuple, str] = {}
    for p in gen.plants:
        planted[p.kind] += 1
        ok = all(m.key() in seen for m in p.expect)
        why = "" if ok else "기대한 판정이 나오지 않음"
        for m in p.expect if ok else ():
            if m.data is None:
                continue
            found = data.get((m.target, m.code or ""), [])
            match = next((d for d in found if _holds_data(d, m.data)), None)
            if match is None:
                ok, why = False, f"{m.target}의 {m.code} 값이 다름: 기대 {m.data}, 실제 {found}"
            elif m.code == "stuck-combination":
                why = _stuck_example_wrong(gen, m.target, match.get("example"))
                ok = not why
            if not ok:
                break
        if ok and p.cover is not None:
            info = shadowed.get(p.shadowed)
            size = len(info.covered_by) if info is not None else 0
            ok = info is not None and not info.unsatisfiable and ((size == 1) if p.cover == "one" else (size >= 2))
            why = "" if ok else f"덮는 분기 수가 다름 ({size})"
        if ok:
            caught[p.kind] += 1
        else:
            missed.append({**p.to_json(), "why": why})
        for m in p.expect:
            reasons.setdefault(m.key(), f"{p.kind} 결함 자체 ({p.where()})")
        for m in p.consequences:
            reasons.setdefault(m.key(), f"{p.kind} 결함의 결과 ({p.where()})")
    explained: list[dict[str, Any]] = []
    unexplained: list[dict[str, Any]] = []
    planted_keys = {m.key() for p in gen.plants for m in p.expect}
    for key, mark in seen.items():
        if key in planted_keys:
            continue
        if key in reasons:
            explained.append({**mark.to_json(), "because": reasons[key]})
        else:
            unexplained.append(mark.to_json())
    failed = [c.id for c in report.checks if not c.passed]
    return Outcome(planted, caught, missed, explained, unexplained, failed)


def _holds_data(found: Mapping[str, Any], want: Mapping[str, Any]) -> bool:
    """Every value of ``want`` is in ``found`` (lists of dead branches in any order)."""
    for k, v in want.items():
        got = found.get(k)
        if k == "dead_branches":
            if sorted(got or []) != sorted(v):
                return False
        elif got != v or type(got) is not type(v):
            return False
    return True


def _stuck_example_wrong(gen: Generated, scene_id: str, example: Any) -> str:
    """Why a stuck combination's example is not one (empty when it is): it must give
    every flag of the scene a value in its range, and no branch of the scene may hold
    under it — by the generator's own evaluator."""
    scene = next((s for s in gen.scenes if s.scene_id == scene_id), None)
    if scene is None or not isinstance(example, Mapping):
        return f"{scene_id}: 예시 조합이 없음"
    if set(example) != set(scene.available_flags):
        return f"{scene_id}: 예시 조합의 플래그 {josa(', '.join(code(f) for f in sorted(example)), '이/가')} `available_flags`와 다름"
    flags = {f.flag: f for f in gen.flags}
    for name, value in example.items():
        domain = flags[name].domain()
        if not any(value == v and type(value) is type(v) for v in domain):
            return f"{scene_id}: 예시 조합의 {josa(code(f'{name}={value!r}'), '이/가')} 범위 밖"
    for br in gen.branches:
        if br.from_scene == scene_id and br.condition.holds(example):
            shown = code(", ".join(f"{k}={v!r}" for k, v in example.items()))
            return f"{scene_id}: 예시 조합 {shown}에서 분기 {josa(code(br.branch_id), '이/가')} 걸림"
    return ""
