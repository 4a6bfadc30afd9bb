"""The metrics runner: per-answer agreement, defect precision/recall/F1 on seeded
stratified splits, OCR stability, and ``--record`` writing the card's next version."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from verdicts.residue.evalcard import card_path, load_card
from verdicts.residue.measure import measure, prf, stratified_split

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "residue"
DEFECTS = {"template_left", "body_blank", "outside_left"}


@given(st.dictionaries(st.text(min_size=1, max_size=4), st.sampled_from(["a", "b", "c"]), min_size=1, max_size=60),
       st.integers(0, 50))
@settings(max_examples=60, deadline=None)
def test_a_split_is_a_stratified_partition(gold, seed):
    dev, val = stratified_split(gold, seed)
    assert sorted(dev + val) == sorted(gold) and not set(dev) & set(val)
    for answer in set(gold.values()):
        n = sum(v == answer for v in gold.values())
        assert sum(gold[k] == answer for k in dev) == round(n * 0.6)
    assert stratified_split(gold, seed) == (dev, val)


def test_prf_counts_the_defect_class():
    pairs = [("body_blank", "body_blank"), ("complete", "outside_left"), ("template_left", "satellite_only"),
             ("template_left", "outside_left"), ("complete", "complete")]
    # a defect answered as another defect is still a caught defect
    assert prf(pairs, DEFECTS) == {"n": 5, "tp": 2, "fp": 1, "fn": 1, "precision": 0.6667, "recall": 0.6667, "f1": 0.6667}
    assert prf([("complete", "complete")], DEFECTS)["precision"] is None


def labelled_copy(tmp_path: Path, relabel: dict[str, str] | None = None) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(EXAMPLES, folder, ignore=shutil.ignore_patterns("*.py", "*.md", "pictures"))
    card = load_card(card_path("E3"))
    rows = list(csv.DictReader(open(folder / "gold.csv", encoding="utf-8")))
    for row in rows:
        if relabel and row["component_id"] in relabel:
            row["answer"] = relabel[row["component_id"]]
            row["verdict"] = card.label(row["answer"])
    with open(folder / "gold.csv", "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    for yaml_file in folder.glob("*.yaml"):  # pictures are measured in the OCR test below
        text = yaml_file.read_text(encoding="utf-8")
        yaml_file.write_text("\n".join(l for l in text.splitlines() if not l.startswith("result_thumb:")) + "\n", encoding="utf-8")
    return folder


def test_the_examples_measure_against_their_labels(tmp_path):
    folder = labelled_copy(tmp_path)
    m = measure(load_card(card_path("E3")), folder, reps=0)
    gold = list(csv.DictReader(open(folder / "gold.csv", encoding="utf-8")))
    assert m.labelled == len(gold) and m.issues == []
    assert {k: s["gold"] for k, s in m.per_answer.items()} == {k: sum(r["answer"] == k for r in gold) for k in m.per_answer}
    assert m.agreement["rate"] == 1.0 and m.validation["f1"] == 1.0 and len(m.splits) == 5
    assert m.stability is None


def test_the_metrics_report_the_cards_defect_ratio(tmp_path, cli):
    # card E3's `aggregate: ratio`: the share of defects, among the judged answers and the labels
    folder = labelled_copy(tmp_path, {"DO-0001": "template_left"})  # a complete component labelled a defect
    gold = list(csv.DictReader(open(folder / "gold.csv", encoding="utf-8")))
    labelled = sum(r["answer"] in DEFECTS for r in gold)
    m = measure(load_card(card_path("E3")), folder, reps=0, seeds=[0])
    assert load_card(card_path("E3")).aggregate == "ratio"
    assert m.aggregate == {"kind": "ratio",
                           "answers": {"kind": "ratio", "defects": labelled - 1, "total": len(gold),
                                       "value": round((labelled - 1) / len(gold), 4)},
                           "labels": {"kind": "ratio", "defects": labelled, "total": len(gold),
                                      "value": round(labelled / len(gold), 4)}}
    data = json.loads(cli("verdicts", "card", "measure", "E3", str(folder), "--reps", "0", "--seeds", "1", "--format", "json",
                          check_code=0).stdout)
    assert data["aggregate"] == m.aggregate
    text = cli("verdicts", "card", "measure", "E3", str(folder), "--reps", "0", "--seeds", "1", check_code=0).stdout
    assert f"집계(ratio): 판정 결함 비율 {(labelled - 1) / len(gold):.2f}({len(gold)}건 가운데 {labelled - 1}건)" in text


def test_a_run_reports_the_defect_ratio_on_every_summary(cli, tmp_path):
    from verdicts.residue.model import AGGREGATE

    assert AGGREGATE == load_card(card_path("E3")).aggregate
    folder = labelled_copy(tmp_path)
    data = json.loads(cli("verdicts", "run", "residue", str(folder), "--format", "json", "-q", check_code=None).stdout)
    defects = sum(c["defect"] for c in data["cards"])
    total = len(data["cards"])
    # `evidence` is the seed's line, the items it joins are `evidence_items`
    for card in data["cards"]:
        assert isinstance(card["evidence"], str) and card["evidence"].endswith(f"⇒ {card['answer']}")
        assert card["evidence"] == ("; ".join(e["quote"] for e in card["evidence_items"]) or "잔존 후보 없음") + f" ⇒ {card['answer']}"
        assert "evidence_text" not in card
    assert data["aggregate"] == {"kind": "ratio", "defects": defects, "total": total, "value": round(defects / total, 4)}
    words = f"결함 비율 {defects / total:.2f}({total}건 가운데 {defects}건)"
    assert cli("verdicts", "run", "residue", str(folder), "-q", check_code=None).stdout.strip().splitlines()[-1].count(words) == 1
    html = tmp_path / "screen.html"
    cli("verdicts", "run", "residue", str(folder), "-q", "--html", str(html), check_code=None)
    assert f'<span class="aggregate">{words}</span>' in html.read_text(encoding="utf-8")
    # several inputs: one aggregate over every input's cards, as the text gives per input
    parts = [tmp_path / "p1", tmp_path / "p2"]
    for part, pattern in zip(parts, ("DO-00*.yaml", "DO-03*.yaml")):
        part.mkdir()
        for f in folder.glob(pattern):
            shutil.copy(f, part / f.name)
    both = json.loads(cli("verdicts", "run", "residue", *map(str, parts), "--format", "json", "-q", check_code=None).stdout)
    d, n = sum(c["defect"] for c in both["cards"]), len(both["cards"])
    assert d and both["aggregate"] == {"kind": "ratio", "defects": d, "total": n, "value": round(d / n, 4)}
    assert list(both)[-2:] == ["aggregate", "inputs"]
    # no other domain has an aggregate
    robot = json.loads(cli("verdicts", "run", "robot", str(EXAMPLES.parent / "robot"), "--format", "json", "-q", check_code=None).stdout)
    assert "aggregate" not in robot


def test_a_changed_label_moves_the_figures(tmp_path):
    # two complete components labelled as defects: the judge's answers become misses
    folder = labelled_copy(tmp_path, {"DO-0001": "template_left", "DO-0002": "body_blank"})
    m = measure(load_card(card_path("E3")), folder, reps=0, seeds=[0, 1, 2])
    assert m.agreement["agreed"] == m.agreement["total"] - 2
    assert m.per_answer["template_left"]["agreed"] == m.per_answer["template_left"]["gold"] - 1
    assert {d["component_id"] for d in m.disagreements} == {"DO-0001", "DO-0002"}
    every = prf(((g, a) for g, a in [("template_left", "complete"), ("body_blank", "complete")]), DEFECTS)
    assert every["fn"] == 2
    assert all(s["validation"]["fp"] == 0 for s in m.splits)
    assert sum(s["validation"]["fn"] + s["development"]["fn"] for s in m.splits) == 2 * 3
    assert m.validation["recall"] < 1.0 or m.development["recall"] < 1.0


def test_the_cli_prints_the_table_and_records_a_new_version(cli, tmp_path):
    folder = labelled_copy(tmp_path)
    card_file = tmp_path / "E3.yaml"
    shutil.copy(card_path("E3"), card_file)
    proc = cli("verdicts", "card", "measure", str(card_file), str(folder), "--reps", "0", check_code=0)
    assert "답별 일치" in proc.stdout and "검증 정밀도" in proc.stdout and "평균" in proc.stdout
    assert load_card(card_file).version == 9  # measuring alone changes nothing
    cli("verdicts", "card", "measure", str(card_file), str(folder), "--reps", "0", "--record", check_code=0)
    card = load_card(card_file)
    assert card.version == 10 and card.changelog[-1].startswith("v10 (")
    assert "검증 정밀도 1.0, 재현율 1.0, F1 1.0" in card.changelog[-1]
    assert card_file.read_text(encoding="utf-8").startswith("# Judge card E3")  # comments kept
    # a second recorded run with other labels writes before→after figures
    worse = labelled_copy(tmp_path / "b", {"DO-0001": "template_left", "DO-0002": "template_left", "DO-0003": "body_blank"})
    cli("verdicts", "card", "measure", str(card_file), str(worse), "--reps", "0", "--record", "--seeds", "3", check_code=0)
    card = load_card(card_file)
    assert card.version == 11 and "재현율 1.0→" in card.changelog[-1]


def test_the_cli_json_and_bad_arguments(cli, tmp_path):
    folder = labelled_copy(tmp_path)
    data = json.loads(cli("verdicts", "card", "measure", "E3", str(folder), "--reps", "0", "--format", "json", check_code=0).stdout)
    assert data["card"] == {"id": "E3", "version": 9} and data["agreement"]["rate"] == 1.0
    assert cli("verdicts", "card", "measure", "E9", str(folder), check_code=2).stderr
    assert "gold.csv" in cli("verdicts", "card", "measure", "E3", str(tmp_path / "nothing"), check_code=2).stderr
    assert cli("verdicts", "card", "measure", "E3", str(folder), "--reader", "model", check_code=2).stderr


@pytest.mark.skipif(shutil.which("tesseract") is None, reason="Tesseract is installed by scripts/setup.sh")
def test_stability_is_measured_with_ocr_on_the_pictures(tmp_path):
    import yaml

    from verdicts.residue.model import VisibleText
    from verdicts.residue.render import render_picture

    from .test_ocr import planted

    folder = tmp_path / "set"
    folder.mkdir()
    rows = []
    for cid, (answer, data) in list(planted().items())[:2]:
        render_picture([VisibleText(**v) for v in data["visible_texts"]], folder / f"{cid}.png")
        (folder / f"{cid}.yaml").write_text(yaml.safe_dump({"component_id": cid, **data, "result_thumb": f"{cid}.png"},
                                                           allow_unicode=True), encoding="utf-8")
        rows.append(f"{cid},{load_card(card_path('E3')).label(answer)}")
    (folder / "gold.csv").write_text("component_id,verdict\n" + "\n".join(rows) + "\n", encoding="utf-8")
    m = measure(load_card(card_path("E3")), folder, reps=2, seeds=[0])
    assert m.stability == {"reps": 2, "components": 2, "reader": "ocr", "value": 1.0}
    assert m.ocr_agreement["agreed"] == 2 and m.ocr_agreement["gold_agreed"] == 2
