"""The built wheel carries the grammar and the card schemas, and works outside the checkout."""

from __future__ import annotations

import subprocess
import sys
import zipfile

from tests.conftest import ROOT


def test_wheel_ships_grammar_and_schemas(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    wheel = next(tmp_path.glob("storygraph-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "storygraph/grammar/condition.lark" in names
    assert "verdicts/schemas/storygraph.card.schema.json" in names
    # the report screen's inline assets and the sample behind "샘플 데이터로 보기"
    assert {"verdicts/screen_assets/screen.css", "verdicts/screen_assets/screen.js", "storygraph/sample/scenario.csv"} <= names
    assert zipfile.ZipFile(wheel).read("storygraph/grammar/condition.lark").decode() == (ROOT / "grammar" / "condition.lark").read_text()


def test_every_package_src_imports_is_declared():
    """A third-party module imported anywhere under ``src/`` (at module level or inside a
    function) is a declared dependency: `rich` was imported by `storygraph fuzz` and not
    declared, so a fresh install ended in ModuleNotFoundError on a terminal (issue 29)."""
    import ast
    import re
    import sys
    import tomllib
    from importlib.metadata import packages_distributions

    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    declared = {re.split(r"[<>=!~\[; ]", d, maxsplit=1)[0].lower().replace("_", "-") for d in project["dependencies"]}
    dists = packages_distributions()
    ours = {"storygraph", "verdicts", "tests"}
    missing = set()
    for path in (root / "src").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else [])
            for name in names:
                top = name.split(".")[0]
                if top in ours or top in sys.stdlib_module_names or top == "__future__":
                    continue
                # optional back-ends that code imports only when present, behind a message
                # (and pytest, which `verdicts.testing`, the kit for a domain's own tests, runs under)
                if top in {"z3", "kiwipiepy", "playwright", "pytest"}:
                    continue
                owners = {d.lower().replace("_", "-") for d in dists.get(top, [top])}
                if not owners & declared:
                    missing.add(f"{top} ({path.relative_to(root)})")
    assert sorted(missing) == []
