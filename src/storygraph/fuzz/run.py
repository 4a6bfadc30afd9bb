"""One fuzz run — generate, write, lint, compare — and its terminal report (what
``storygraph fuzz`` prints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Mapping

from .comparison import Outcome, compare
from .generation import generate
from .scenario import KINDS, Generated, PlantSpec

__all__ = ["run_fuzz", "render_fuzz_text"]


def run_fuzz(seed: int, scenes: int, flags: int = 4, plant: PlantSpec | None = None, out: str | Path | None = None,
             progress: Callable[[str, int, int], None] | None = None) -> tuple[Generated, Any, Outcome, dict[str, float]]:
    """Generate, write (when ``out``), lint and compare; returns the timings in seconds
    too (``generate``, ``lint``, ``compare``, ``total``).

    Without ``out`` the scenario is written to a temporary folder that is removed
    afterwards (lint reads files, as a creator's run would).
    """
    import tempfile
    import time

    from ..domain import lint

    t0 = time.perf_counter()
    gen = generate(seed, scenes, flags, plant, progress=(lambda d, t: progress("generate", d, t)) if progress else None)
    t1 = time.perf_counter()
    if out is None:
        with tempfile.TemporaryDirectory(prefix="storygraph-fuzz-") as tmp:
            scenario, _ = gen.write(tmp)
            if progress:
                progress("lint", 0, 1)
            report = lint(scenario)
    else:
        scenario, _ = gen.write(out)
        if progress:
            progress("lint", 0, 1)
        report = lint(scenario)
    t2 = time.perf_counter()
    outcome = compare(gen, report)
    t3 = time.perf_counter()
    if progress:
        progress("lint", 1, 1)
    return gen, report, outcome, {"generate": round(t1 - t0, 3), "lint": round(t2 - t1, 3), "compare": round(t3 - t2, 3),
                                  "total": round(t3 - t0, 3)}


_KIND_WORDS = {
    "unreached_scene": "아무도 안 가리키는 장면", "island": "섬", "missing_target": "없는 장면으로 가는 분기",
    "shadowed_one": "앞 분기 하나에 가려진 분기", "shadowed_union": "앞 분기 둘 이상에 함께 가려진 분기",
    "unsatisfiable": "참이 될 수 없는 조건", "dead_end": "막다른 장면", "loop_no_exit": "출구 없는 고리",
    "stuck_combination": "분기가 하나도 걸리지 않는 조합", "reached_only_through_dead_branch": "죽은 분기로만 들어가는 장면",
    "ending_only_through_dead_branch": "죽은 분기로만 엔딩에 가는 장면", "unused_flag": "쓰이지 않는 플래그",
    "available_flag_unused": "장면에서 쓰이지 않는 플래그", "comparison_out_of_range": "범위 밖 비교",
    "always_true_condition": "늘 참인 조건",
    "hidden_choice": "메뉴 앞 자동 분기에 가려진 선택지", "plain_menu": "겹치는 선택지뿐인 메뉴(찾을 것 없음)",
}


def _describe(mark: Mapping[str, Any]) -> str:
    if mark.get("what") == "card":
        extra = f" (overlapping_branch_id {mark['overlapping_branch_id']})" if mark.get("overlapping_branch_id") else ""
        return f"{mark['target']}: {mark['verdict']}{extra}"
    if mark.get("what") == "finding":
        return f"{mark['target']}: 발견 {mark['code']}"
    return f"{mark['target']}: 입력 문제 — {mark.get('code')}"


def render_fuzz_text(result: Mapping[str, Any]) -> str:
    """The terminal report of one fuzz run (``result`` as ``storygraph fuzz --format
    json`` prints it)."""
    lines = [f"storygraph fuzz · seed {result['seed']} · 장면 {result['scenes']} · 분기 {result['branches']} · 플래그 {result['flags']}"
             + (f" → {result['out']}" if result.get("out") else "")]
    lines.append("")
    width = max(len(k) for k in KINDS) + 2
    lines.append(f"{'결함 종류':<{width - 4}}  심음  잡음  놓침")
    tp = tc = 0
    for k in KINDS:
        p, c = result["planted"][k], result["caught"][k]
        tp, tc = tp + p, tc + c
        lines.append(f"{k:<{width}}{p:>4}  {c:>4}  {p - c:>4}   {_KIND_WORDS[k]}")
    lines.append(f"{'합계':<{width - 2}}{tp:>4}  {tc:>4}  {tp - tc:>4}")
    for m in result["missed"]:
        where = ", ".join(m["scenes"] + m["branches"] + ([m["flag"]] if m.get("flag") else []))
        lines.append(f"  놓침: {m['kind']} {where} — {m.get('why', '')}")
    lines.append("")
    explained, unexplained = result["explained"], result["unexplained"]
    lines.append(f"심지 않은 발견 {len(explained) + len(unexplained)}건: 심은 결함으로 설명됨 {len(explained)}건, 설명 안 됨(오탐) {len(unexplained)}건")
    for m in sorted(explained, key=lambda m: (m["because"], m["target"])):
        lines.append(f"  설명됨  {_describe(m)} ← {m['because']}")
    for m in unexplained:
        lines.append(f"  오탐    {_describe(m)}")
    lines.append("")
    failed = result["checks_failed"]
    lines.append("자동 검증: 모두 통과" if not failed else f"자동 검증 실패: {', '.join(failed)}")
    t = result["timings"]
    lines.append(f"시간: 생성 {t['generate']:.2f}초 · 쓰기와 검사 {t['lint']:.2f}초 · 대조 {t['compare']:.2f}초 · 합계 {t['total']:.2f}초")
    lines.append("결과: " + ("심은 결함을 모두 잡았고 설명되지 않은 발견이 없습니다." if result["ok"] else "놓친 결함이나 설명되지 않은 발견이 있습니다."))
    return "\n".join(lines) + "\n"
