"""Grading storygraph's verdicts against hand-made gold verdicts.

A thin storygraph layer over the shared runner :mod:`verdicts.grading`: the key column is
``target_no``, the compared field is ``overlapping_branch_id`` (an empty gold cell means
"not compared") and the verdict list is storygraph's five.

Two ways to call it:

* one scenario and its gold CSV (:func:`grade_scenario`);
* a gold *suite* folder (:func:`grade_suite`) holding pairs ``NAME.csv`` (the scenario,
  union-CSV form) and ``NAME.gold.csv`` (its gold rows); the results of every pair are
  added up into one result whose disagreements say which scenario they belong to.

The JSON shape is described in ``docs/grading.md``.
"""

from __future__ import annotations

from pathlib import Path

from verdicts.grading import GradeResult, grade_domain, merge_results

from verdicts.version import tool_version
from verdicts.korean import code, josa

from .domain import DOMAIN
from .model import VERDICTS

__all__ = ["GOLD_SUFFIX", "COMPARED", "gold_pairs", "grade_scenario", "grade_suite", "grade_path"]

GOLD_SUFFIX = ".gold.csv"
#: gold columns compared with the card beside ``verdict`` when the gold cell is filled
COMPARED = DOMAIN.gold_fields


def _version() -> str:
    return tool_version()


def grade_scenario(scenario: str | Path, gold: str | Path) -> GradeResult:
    """Lint ``scenario`` and compare its cards with the gold rows of ``gold``.

    Bad gold rows (no ``target_no``, a verdict outside the five, a repeated target, a
    target that has no card) are issues of the result, never exceptions.  Raises
    :class:`~verdicts.errors.InputError` only when the scenario cannot be read at all.
    """
    return grade_domain(DOMAIN, scenario, gold, tool="storygraph")


def gold_pairs(folder: str | Path) -> list[tuple[Path, Path]]:
    """``(scenario, gold)`` pairs of a suite folder: every ``NAME.gold.csv`` with its
    ``NAME.csv`` (or a folder ``NAME/`` holding the three tables), sorted by name."""
    folder = Path(folder)
    pairs = []
    for gold in sorted(folder.glob(f"*{GOLD_SUFFIX}")):
        stem = gold.name[: -len(GOLD_SUFFIX)]
        for candidate in (folder / f"{stem}.csv", folder / stem):
            if candidate.exists():
                pairs.append((candidate, gold))
                break
        else:
            pairs.append((folder / f"{stem}.csv", gold))
    return pairs


def grade_suite(folder: str | Path) -> GradeResult:
    """Grade every pair of a suite folder and add the results up.

    A gold file whose scenario is missing becomes an issue, and the other pairs are
    still graded.
    """
    from verdicts.model import InputIssue

    results: list[GradeResult] = []
    missing: list[InputIssue] = []
    for scenario, gold in gold_pairs(folder):
        if not scenario.exists():
            missing.append(InputIssue(file=str(gold), table="gold", reason=f"정답 파일에 맞는 시나리오 {josa(code(scenario.name), '이/가')} 없어 이 정답 파일은 채점하지 않았습니다."))
            continue
        results.append(grade_scenario(scenario, gold))
    merged = merge_results(results, gold_path=folder, verdicts=VERDICTS, domain="storygraph", tool="storygraph", version=_version())
    merged.issues = missing + merged.issues
    return merged


def grade_path(path: str | Path, gold: str | Path | None = None) -> GradeResult:
    """``grade_scenario(path, gold)``, or ``grade_suite(path)`` when ``gold`` is omitted
    and ``path`` is a folder of ``*.gold.csv`` pairs."""
    path = Path(path)
    if gold is None:
        if not (path.is_dir() and any(path.glob(f"*{GOLD_SUFFIX}"))):
            from verdicts.errors import InputError

            raise InputError(f"{path}: 정답 파일을 함께 주거나, *{GOLD_SUFFIX} 정답 파일이 든 폴더를 주세요.")
        return grade_suite(path)
    return grade_scenario(path, gold)
