"""The card as data: E3 loads and keeps the seed's keys and labels; a broken card file
is refused with messages naming the key; ``verdicts card show`` and ``validate``."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from verdicts.residue import ANSWERS
from verdicts.residue.evalcard import CardFileError, card_path, load_card

SEED_LABELS = {"complete": "완성", "satellite_only": "위성 자리만 비어 있음", "body_blank": "본문 자리 비어 있음",
               "outside_left": "경계 밖 잔존", "template_left": "템플릿 글 남음"}


def test_e3_keeps_the_seed_keys_and_labels():
    card = load_card(card_path("E3"))
    assert {o.key: o.label for o in card.answers.options} == SEED_LABELS == ANSWERS
    assert set(card.defect_keys()) == {"template_left", "body_blank", "outside_left"}
    assert (card.id, card.version, card.reps, card.aggregate, card.truth.kind) == ("E3", 9, 5, "ratio", "human")
    assert len(card.changelog) == 8 and card.changelog[-1].startswith("v9")


def broken(tmp_path: Path, change) -> Path:
    data = yaml.safe_load(card_path("E3").read_text(encoding="utf-8"))
    change(data)
    path = tmp_path / "card.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return path


@pytest.mark.parametrize("change, key", [
    (lambda d: d.pop("reps"), "reps"),
    (lambda d: d["answers"]["options"][2].pop("label"), "answers.options.2.label"),
    (lambda d: d.__setitem__("version", "nine"), "version"),
    (lambda d: d["defect"].__setitem__("bad", ["nosuch"]), "defect.bad names keys that are not answers: nosuch"),
    (lambda d: d["answers"]["options"].append({"key": "complete", "label": "완성"}), "answer keys repeat: complete"),
])
def test_a_broken_card_names_its_key(tmp_path, change, key):
    with pytest.raises(CardFileError) as err:
        load_card(broken(tmp_path, change))
    assert key in str(err.value)


def test_card_commands(cli, tmp_path):
    shown = cli("verdicts", "card", "show", "E3", check_code=0).stdout
    assert shown.startswith("E3 v9") and "template_left   템플릿 글 남음  [결함]" in shown and "complete        완성\n" in shown
    assert "없습니다" in cli("verdicts", "card", "show", "E9", check_code=2).stderr
    assert "스키마에 맞습니다" in cli("verdicts", "card", "validate", str(card_path("E3")), check_code=0).stdout
    bad = broken(tmp_path, lambda d: d.pop("model"))
    proc = cli("verdicts", "card", "validate", str(bad), check_code=1)
    assert "model: Field required" in proc.stderr and "Traceback" not in proc.stderr
