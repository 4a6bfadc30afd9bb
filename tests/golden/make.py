"""Write (or check) the golden outputs: every bundled example through every report
format, the robot round, the gold grading, ``explain``, and a corpus of generated
scenarios, as the commands print them.

``python tests/golden/make.py [NAME …]`` rewrites ``tests/golden/out/`` (only the
outputs whose names contain a NAME, when given; a command that crashes stops it); the byte-identity test
(``tests/test_golden_outputs.py``) runs the same commands and compares.  Rewrite them
only for a change whose every difference is meant (and name it in the commit).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent / "out"
CORPUS = Path(__file__).resolve().parent / "corpus"
BIN = Path(sys.executable).parent

#: (name, argv) — run from the repository root with relative paths
SCENARIOS = [
    "examples/lighthouse/scenario.csv",
    "examples/lighthouse-folder",
    "examples/lighthouse-broken/scenario.csv",
    "examples/accepted/scenario.csv",
    "examples/gold/cafe.csv",
    "examples/gold/palace.csv",
    "examples/gold/school.csv",
    "examples/gold/station.csv",
    # stories in their own formats, linted directly (issue 17)
    "examples/ink/lighthouse.ink",
    "examples/twine/market.twee",
    "examples/choicescript",
    "examples/yarn/ferry.yarn",
]
#: generated scenarios (seed, scenes): made once by ``make.py --corpus`` and kept
FUZZ = [(1, 120), (2, 200), (3, 300), (4, 150), (5, 250)]


def corpus_paths() -> list[str]:
    return [f"tests/golden/corpus/fuzz-{seed}-{n}.csv" for seed, n in FUZZ]


def commands() -> list[tuple[str, list[str]]]:
    cmds: list[tuple[str, list[str]]] = []
    for path in SCENARIOS + corpus_paths():
        slug = path.replace("/", "_").replace(".csv", "")
        for fmt in ("text", "json", "sarif", "github"):
            cmds.append((f"lint-{slug}.{fmt}", ["storygraph", "lint", path, "--format", fmt, "--quiet", "--jobs", "1"]))
    cmds.append(("lint-many.text", ["storygraph", "lint", "examples/gold", "examples/accepted/scenario.csv", "--quiet", "--jobs", "1"]))
    cmds.append(("lint-many.json", ["storygraph", "lint", "examples/gold", "examples/accepted/scenario.csv", "--format", "json", "--quiet", "--jobs", "1"]))
    cmds.append(("grade-gold.text", ["storygraph", "grade", "examples/gold"]))
    cmds.append(("grade-gold.json", ["storygraph", "grade", "examples/gold", "--format", "json"]))
    for name in ("조건이 겹침", "shadowed", "stuck-combination", "끝에 못 감"):
        cmds.append((f"explain-{name.replace(' ', '_')}.text", ["storygraph", "explain", name]))
    for fmt in ("text", "json", "sarif", "github"):
        cmds.append((f"robot.{fmt}", ["verdicts", "run", "robot", "examples/robot", "--format", fmt]))
    for fmt in ("text", "json"):
        cmds.append((f"robot-grade.{fmt}", ["verdicts", "grade", "robot", "examples/robot", "examples/robot/gold.csv", "--format", fmt]))
    return cmds


_TIME = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")


def normalised(out: bytes) -> bytes:
    """The output with run times masked (a grading run's provenance names its time)."""
    return _TIME.sub(b"<TIME>", out)


def run(argv: list[str]) -> tuple[int, bytes]:
    env = {**os.environ, "VERDICTS_JOBS": "1", "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}
    exe = str(BIN / argv[0])
    proc = subprocess.run([exe, *argv[1:]], cwd=ROOT, capture_output=True, env=env, timeout=600)
    if b"Traceback" in proc.stderr:
        raise RuntimeError(f"{' '.join(argv)} crashed:\n{proc.stderr.decode('utf-8', 'replace')[-2000:]}")
    return proc.returncode, normalised(proc.stdout)


def make_corpus() -> None:
    sys.path.insert(0, str(ROOT / "src"))
    from storygraph.fuzz import generate

    CORPUS.mkdir(parents=True, exist_ok=True)
    for (seed, n), path in zip(FUZZ, corpus_paths()):
        (ROOT / path).write_text(generate(seed, n).to_csv(), encoding="utf-8")


def main() -> None:
    if "--corpus" in sys.argv:
        make_corpus()
    OUT.mkdir(parents=True, exist_ok=True)
    only = [a for a in sys.argv[1:] if not a.startswith("--")]
    for name, argv in commands():
        if only and not any(o in name for o in only):
            continue
        code, out = run(argv)
        (OUT / name).write_bytes(out + f"\n[exit {code}]\n".encode())
        print(f"{name}: exit {code}, {len(out)} bytes")


if __name__ == "__main__":
    main()
