"""``storygraph grade``: the real command over the gold suite and over broken gold files."""

from __future__ import annotations

import hashlib
import json
import shutil

from storygraph.model import VERDICTS

GOLD = "examples/gold"


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_gold_suite_agrees_with_the_hand_made_labels(cli, examples):
    """The 180 hand-labelled targets of examples/gold (labels reasoned from the spec)."""
    proc = cli("storygraph", "grade", GOLD, "--format", "json", check_code=0)
    result = json.loads(proc.stdout)
    assert set(result) == {"agreement", "per_verdict", "confusion", "disagreements", "provenance", "issues"}
    assert result["agreement"] == {"agreed": 180, "total": 180, "rate": 1.0}
    assert list(result["per_verdict"]) == list(VERDICTS)
    assert sum(v["gold"] for v in result["per_verdict"].values()) == 180
    assert all(v["gold"] > 0 for v in result["per_verdict"].values())  # every verdict is exercised
    assert result["disagreements"] == [] and result["issues"] == []
    prov = result["provenance"]
    assert prov["tool"] == "storygraph" and prov["domain"] == "storygraph" and prov["time"].endswith("+00:00")
    inputs = {p["path"]: p["sha256"] for p in prov["inputs"]}
    for name in ("school", "station", "palace", "cafe"):
        scenario = examples / "gold" / f"{name}.csv"
        assert inputs[f"{GOLD}/{name}.csv"] == _sha(scenario)
    golds = {g["path"]: g["sha256"] for g in prov["gold"]["files"]}
    assert golds[f"{GOLD}/cafe.gold.csv"] == _sha(examples / "gold" / "cafe.gold.csv")


def test_text_output_prints_agreement_and_confusion(cli):
    proc = cli("storygraph", "grade", GOLD, check_code=0)
    assert "판정 일치: 180/180 (100.0%)" in proc.stdout
    assert "혼동표" in proc.stdout and "어긋난 자리 (0)" in proc.stdout


def test_bad_gold_rows_are_issues_and_disagreements_show_both_verdicts(cli, tmp_path, examples):
    gold = tmp_path / "gold.csv"
    gold.write_text(
        "target_no,verdict,overlapping_branch_id,note\n"
        "SC-19,어디서도 안 닿음,,right\n"           # agrees
        "SC-23,끝까지 닿음,,wrong on purpose\n"     # SC-23 is a loop with no exit
        "BR-13,조건이 겹침,BR-99,wrong partner\n"   # right verdict, wrong overlapping_branch_id
        "SC-404,끝까지 닿음,,no such target\n"
        "BR-01,잘 됨,,not a verdict\n"
        "SC-19,끝에 못 감,,repeated target\n"
        ",끝까지 닿음,,empty key\n",
        encoding="utf-8",
    )
    proc = cli("storygraph", "grade", examples / "lighthouse" / "scenario.csv", gold, "--format", "json", check_code=1)
    result = json.loads(proc.stdout)
    assert result["agreement"] == {"agreed": 1, "total": 3, "rate": 0.3333}
    by_key = {d["key"]: d for d in result["disagreements"]}
    assert by_key["SC-23"]["gold"] == "끝까지 닿음" and by_key["SC-23"]["automatic"] == "끝에 못 감"
    assert by_key["SC-23"]["summary"].endswith("니다.") and by_key["SC-23"]["note"] == "wrong on purpose"
    assert by_key["BR-13"]["fields"] == {"overlapping_branch_id": {"gold": "BR-99", "automatic": "BR-14"}}
    assert result["confusion"]["끝까지 닿음"] == {"끝에 못 감": 1}
    lines = sorted(i["line"] for i in result["issues"])
    assert lines == [5, 6, 7, 8]
    assert result["provenance"]["gold"]["sha256"] == _sha(gold)
    # the text form says the same, without crashing
    text = cli("storygraph", "grade", examples / "lighthouse" / "scenario.csv", gold, check_code=1).stdout
    assert "판정 일치: 1/3" in text and "정답 파일 문제 (4)" in text and "SC-23: 정답 끝까지 닿음 / 자동 끝에 못 감" in text


def test_gold_without_verdict_column_is_an_issue(cli, tmp_path, examples):
    gold = tmp_path / "gold.csv"
    gold.write_text("target_no,label\nSC-01,끝까지 닿음\n", encoding="utf-8")
    result = json.loads(cli("storygraph", "grade", examples / "lighthouse" / "scenario.csv", gold, "-f", "json", check_code=1).stdout)
    assert result["agreement"]["total"] == 0 and result["agreement"]["rate"] is None
    assert [i["column"] for i in result["issues"]] == ["verdict"]


def test_suite_with_a_gold_file_but_no_scenario(cli, tmp_path, examples):
    suite = tmp_path / "suite"
    suite.mkdir()
    shutil.copy(examples / "gold" / "cafe.csv", suite)
    shutil.copy(examples / "gold" / "cafe.gold.csv", suite)
    shutil.copy(examples / "gold" / "school.gold.csv", suite / "orphan.gold.csv")
    result = json.loads(cli("storygraph", "grade", suite, "-f", "json", check_code=1).stdout)
    assert result["agreement"]["total"] == 48
    assert len(result["issues"]) == 1 and "orphan" in result["issues"][0]["file"]


def test_a_folder_without_gold_files_needs_a_gold_argument(cli, examples):
    proc = cli("storygraph", "grade", examples / "lighthouse-folder", check_code=2)
    assert proc.stderr.startswith("storygraph:")
