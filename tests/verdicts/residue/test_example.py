"""The example set: every component is judged, the answers agree with gold.csv, every
automatic check passes, and the set covers all five answers."""

from __future__ import annotations

import csv
from pathlib import Path

from verdicts.residue import ANSWERS, judge_components

EXAMPLES = Path(__file__).resolve().parents[3] / "examples" / "residue"


def test_every_component_is_judged_as_its_gold_answer():
    report = judge_components(EXAMPLES)
    gold = {row["component_id"]: row for row in csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8"))}
    files = sorted(EXAMPLES.glob("DO-*.yaml"))
    assert len(files) == len(gold) >= 30
    assert report.issues == []
    got = {c.component_id: c.answer for c in report.cards}
    assert got == {k: row["answer"] for k, row in gold.items()}
    assert {row["verdict"] for row in gold.values()} == set(ANSWERS.values())
    assert all(c.passed for c in report.checks), [c for c in report.checks if not c.passed]


def test_the_cli_runs_on_the_examples(cli):
    import json

    proc = cli("verdicts", "run", "residue", str(EXAMPLES), "--format", "json", check_code=1)
    data = json.loads(proc.stdout)
    assert len(data["cards"]) == len(list(EXAMPLES.glob("DO-*.yaml"))) and {c["answer"] for c in data["cards"]} == set(ANSWERS)
    complete = next(c for c in data["cards"] if c["component_id"] == "DO-0001")
    assert complete["evidence"] == "잔존 후보 없음 ⇒ complete" and complete["defect"] is False


def test_annotations_point_at_each_component_file(cli):
    proc = cli("verdicts", "run", "residue", str(EXAMPLES), "--format", "github", check_code=1)
    lines = [line for line in proc.stdout.splitlines() if line.startswith("::warning")]
    gold = list(csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8")))
    assert len(lines) == sum(row["answer"] in ("template_left", "body_blank", "outside_left") for row in gold)
    for line in lines:
        key = line.split("· ", 1)[1].split(":", 1)[0]
        assert f"file={EXAMPLES / key}.yaml" in line or f"/{key}.yaml," in line


# ---------------------------------------------------------------------------- labels checked without the judge
#: the answer each deciding plant kind leads to; kinds that decide nothing map to None
PLANT_KINDS = {"template": "template_left", "misfit": "template_left", "blank": "body_blank", "placeholder_blank": "body_blank",
               "outside": "outside_left", "satellite": "satellite_only", "token": None, "variant": None,
               "replaced": None, "shown_as": None, "not_blank": None}
#: kinds whose text is on the picture but is no page value; kinds whose page value is not on it
SHOWN_KINDS = {"template", "misfit", "placeholder_blank", "outside", "satellite", "token", "variant", "replaced"}
UNSHOWN_KINDS = {"blank", "shown_as", "not_blank"}
PRECEDENCE = ["template_left", "body_blank", "outside_left", "satellite_only"]


def _plain(text) -> str:
    return " ".join(str(text).split())


def test_every_label_follows_from_what_was_planted():
    """An independent check of gold.csv (no judge code): each component's plants lead,
    by the card's order of precedence, to its gold answer, and the plants account for
    every difference between the picture's texts and the user's texts — nothing
    unplanned is on the picture, and no page value is missing unplanned."""
    import yaml
    from collections import Counter

    rows = list(csv.DictReader(open(EXAMPLES / "gold.csv", encoding="utf-8")))
    assert len(rows) >= 100
    for row in rows:
        plants = [p.split(":", 1) for p in row["plants"].split(" | ") if p]
        assert all(kind in PLANT_KINDS and text for kind, text in plants), row
        led = {PLANT_KINDS[kind] for kind, _ in plants} - {None}
        wanted = next((a for a in PRECEDENCE if a in led), "complete")
        assert wanted == row["answer"], f"{row['component_id']}: plants lead to {wanted}, gold says {row['answer']}"
        data = yaml.safe_load((EXAMPLES / f"{row['component_id']}.yaml").read_text(encoding="utf-8"))
        values = [_plain(v) for item in data["page_yaml"] for v in item.values() if v not in (None, "")]
        shown = [_plain(v["text"]) for v in data["visible_texts"]]
        # the seed's user texts: page values, binding texts, non-null `now`
        users = values + [_plain(b["text"]) for b in data["binding"] if b.get("text")]
        users += [_plain(o["now"]) for o in data["outside_nodes"] if o.get("now")]
        extras = Counter(t for t in shown if t not in users)
        missing = Counter(v for v in values if v not in shown)
        assert extras == Counter(_plain(t) for k, t in plants if k in SHOWN_KINDS), row["component_id"]
        assert missing == Counter(_plain(t) for k, t in plants if k in UNSHOWN_KINDS), row["component_id"]


def test_check_r5_fails_a_hedge_of_two_caveats_or_an_impolite_one():
    """R5: the summary and each caveat are one polite sentence, and the hedge says one
    caveat (issue 30, item 6) — two glued with “…고,” fail it, as an impolite one does."""
    from verdicts.residue.checks import polite

    class Ctx:
        cards = [c.to_json() for c in judge_components(EXAMPLES).cards]

    assert polite(Ctx) == []
    card = Ctx.cards[0]
    key = card["component_id"]
    glued = "위치 없이 주어진 글 하나는 글자만 보고 자리를 정했고, 경계 밖 “2024”는 남은 데이터로 세지 않았습니다."
    for change in ({"hedge": glued}, {"hedge": "자리를 정했습니다.", "more_hedges": ["남은 데이터로 세지 않았다."]}):
        Ctx.cards = [{**card, **change}]
        assert polite(Ctx) == [key], change
    Ctx.cards = [{**card, "hedge": "위치 없이 주어진 글 하나는 글자만 보고 자리를 정했습니다.",
                  "more_hedges": ["경계 밖 “2024”는 남은 데이터로 세지 않았습니다."]}]
    assert polite(Ctx) == []
