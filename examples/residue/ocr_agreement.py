"""How far OCR can stand in for the given texts on this set: draw every component whose
texts all have boxes (as `make_examples.py` draws its pictures), read each picture back
with Tesseract, and compare the answer with the given-text answer and with the label.

    .venv/bin/python examples/residue/ocr_agreement.py      # about 3 s a component

Prints the agreement and the components whose answers differ, with what OCR read.
"""

from __future__ import annotations

import csv
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from verdicts.residue.loading import load_components  # noqa: E402
from verdicts.residue.pictures import open_picture  # noqa: E402
from verdicts.residue.readers import read_picture  # noqa: E402
from verdicts.residue.render import render_picture  # noqa: E402
from verdicts.residue.rules import build_card  # noqa: E402


def main() -> None:
    gold = {row["component_id"]: row["answer"] for row in csv.DictReader(open(HERE / "gold.csv", encoding="utf-8"))}
    loaded = load_components(HERE)
    drawn = [c for c in loaded.components if c.visible_texts and all(v.box is not None for v in c.visible_texts)]
    same = right = 0
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        for component in drawn:
            picture = render_picture(component.visible_texts, Path(folder) / f"{component.component_id}.png")
            places = [n.box for n in (*component.frame_tree, *component.outside_nodes) if n.box is not None]
            read = read_picture(open_picture(picture), places)
            given = build_card(component, list(component.visible_texts))["answer"]
            ocr = build_card(component, read)["answer"]
            same += ocr == given
            right += ocr == gold[component.component_id]
            if ocr != given:
                print(f"{component.component_id}: given {given}, OCR {ocr}; OCR read {[t.text for t in read]}")
    n = len(drawn)
    print(f"drawn {n} of {len(loaded.components)} components (the rest have texts without boxes)")
    print(f"OCR answer = given-text answer: {same}/{n} ({same / n:.3f}); OCR answer = label: {right}/{n} ({right / n:.3f})")
    print(f"{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
