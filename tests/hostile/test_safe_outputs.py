"""Machine-readable reports carry no raw character a terminal, an editor or a code-review
page acts on (issue 32, item 6): a title holding a bidirectional control (U+202E turns
what follows around), a C1 control or DEL is written in JSON and SARIF as a ``\\uXXXX``
escape — the same string to a JSON reader, nothing raw in the file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
UNSAFE = ["\u202e", "\u2066", "\u200f", "\x85", "\x7f", "\x1b"]
TITLE = "등대" + "".join(UNSAFE) + "끝"


def _scenario(tmp_path: Path) -> Path:
    path = tmp_path / "bidi.csv"
    rows = [
        "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no",
        f"S1,{TITLE},Y,N,,,,,,",
        "S2,끝,N,Y,,,,,,",
        f"S3,{TITLE} 섬,N,N,,,,,,",
        ",,,,,B1,S1,S2,,1",
        ",,,,,B2,S1,S9,,2",
    ]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_and_sarif_escape_what_a_terminal_acts_on(tmp_path, fmt):
    path = _scenario(tmp_path)
    proc = subprocess.run([str(BIN / "storygraph"), "lint", str(path), "--format", fmt, "--quiet", "--jobs", "1"],
                          capture_output=True, timeout=120)
    assert proc.returncode == 1, proc.stderr.decode("utf-8", "replace")
    text = proc.stdout.decode("utf-8")
    assert not [c for c in UNSAFE if c in text]
    data = json.loads(text)
    if fmt == "sarif":
        return  # (its messages show titles through the kit's clean(): visible, not raw)
    # the data is kept: a JSON reader gets the title back as it was written
    strings = json.dumps(data, ensure_ascii=False)
    assert "\u202e" in strings and "\x85" in strings, "the unreached scene's title is named in the report"
