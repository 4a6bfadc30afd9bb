"""Byte identity: every bundled example, the robot round, grading, ``explain`` and a
corpus of generated scenarios print exactly what ``tests/golden/out/`` holds.

A refactor must leave these bytes alone; a change that means to alter an output
rewrites them with ``python tests/golden/make.py`` and names the difference.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))
import make  # noqa: E402

CASES = make.commands()


@pytest.mark.parametrize("name,argv", CASES, ids=[n for n, _ in CASES])
def test_output_is_byte_identical(name: str, argv: list[str]) -> None:
    want = (make.OUT / name).read_bytes()
    code, out = make.run(argv)
    got = out + f"\n[exit {code}]\n".encode()
    if got != want:
        diff = difflib.unified_diff(want.decode("utf-8", "replace").splitlines(), got.decode("utf-8", "replace").splitlines(),
                                    "golden", "now", lineterm="", n=1)
        pytest.fail(f"{name} differs from tests/golden/out/{name}:\n" + "\n".join(list(diff)[:60]))
