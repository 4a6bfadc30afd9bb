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
