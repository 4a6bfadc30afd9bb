"""What the exact searches spend of their budgets (``storygraph.budgets``), on the
scenarios a budget must never stop and on the hostile files of issue 19 it must stop
quickly.

For each input: the most any one scene spent of each budget (SAT propagations of the
shadowing decision, condition evaluations of the stuck search), whether a budget was
passed, and the lint's wall time.  The first group is every bundled example, the
golden corpus, the rule cases and generated scenarios of the sizes the tests use; the
second builds the hostile files (22 and 24 int flags each tested once, 2,000 and 5,000
overlapping branches on one scene).  The defaults must be far above the first group's
figures and the second group must finish in seconds.

Usage: ``python benchmarks/budgets.py [--quick]`` (``--quick``: no 5,000-branch files).
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def corpus(work: Path):
    """(name, path) of every scenario the verdict tests lint."""
    from storygraph.fuzz import generate
    from tests.storygraph.test_rule_cases import write_scenario
    from verdicts.testing import load_cases

    for path in sorted((ROOT / "examples").rglob("*")):
        if path.suffix in (".csv", ".json", ".yaml", ".xlsx") and path.parent.name not in ("robot", "mail", "extraction", "residue", "gold"):
            if path.suffix != ".csv" or path.name == "scenario.csv":
                yield str(path.relative_to(ROOT)), path
    folder = ROOT / "examples" / "lighthouse-folder"
    if folder.is_dir():
        yield "examples/lighthouse-folder/", folder
    for path in sorted((ROOT / "tests" / "golden" / "corpus").glob("*.csv")):
        yield str(path.relative_to(ROOT)), path
    for i, param in enumerate(load_cases(ROOT / "tests" / "storygraph" / "cases")):
        case = param.values[0] if hasattr(param, "values") else param
        if "scenario" in case:
            path = work / f"case{i}.json"
            write_scenario(case["scenario"], path)
            yield f"rule case {case.get('name', i)}", path
    from tests.storygraph.test_stress import _wide_scene

    for n in (2000, 5000):
        yield f"test_stress wide scene, {n:,} branches", _wide_scene(work / f"wide{n}.csv", n)
    for seed, scenes, flags in ((1, 200, 4), (11, 400, 4), (3, 2000, 4), (7, 600, 8), (5, 300, 12)):
        out = work / f"gen-{seed}-{scenes}-{flags}"
        path, _ = generate(seed=seed, scenes=scenes, flags=flags).write(out)
        yield f"fuzz seed={seed} scenes={scenes} flags={flags}", path


def hostile(work: Path, quick: bool):
    from tests.hostile.builders import many_flags, overlapping_branches

    for n in (22, 24):
        yield f"{n} int flags each tested once", many_flags(work, n)
    for n in ((2000,) if quick else (2000, 5000)):
        yield f"{n:,} overlapping branches on one scene", overlapping_branches(work, n)


def measure(path: Path) -> dict:
    from storygraph import budgets
    from storygraph.domain import lint

    budgets.RECORD = []
    started = time.perf_counter()
    report = lint(path)
    seconds = time.perf_counter() - started
    spent: dict[str, int] = {}
    for meter in budgets.RECORD:
        spent[meter.name] = max(spent.get(meter.name, 0), meter.spent)
    budgets.RECORD = None
    passed = sum("계산 한도" in i.reason for i in report.issues)
    return {"spent": spent, "budget_issues": passed, "seconds": round(seconds, 2)}


def main() -> None:
    from storygraph.budgets import DEFAULT_BUDGETS

    quick = "--quick" in sys.argv
    print(json.dumps({"defaults": DEFAULT_BUDGETS.__dict__}))
    most: dict[str, int] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for group, items in (("corpus", corpus(work)), ("hostile", hostile(work, quick))):
            for name, path in items:
                row = {"group": group, "input": name, **measure(path)}
                print(json.dumps(row, ensure_ascii=False), flush=True)
                if group == "corpus":
                    for k, v in row["spent"].items():
                        most[k] = max(most.get(k, 0), v)
    share = {k: f"{v / getattr(DEFAULT_BUDGETS, k):.2%}" for k, v in most.items()}
    print(json.dumps({"corpus_most": most, "of_default": share}))


if __name__ == "__main__":
    main()
