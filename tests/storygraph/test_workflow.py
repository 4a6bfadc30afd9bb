"""Fitting into a creator's workflow: SARIF and GitHub annotations, configuration,
intended findings, explain, and several scenarios in one run (issue 8)."""

from __future__ import annotations

import csv
import io
import json
import shutil

import jsonschema
import pytest

from tests.conftest import EXAMPLES, ROOT

LIGHTHOUSE = EXAMPLES / "lighthouse" / "scenario.csv"
ACCEPTED = EXAMPLES / "accepted" / "scenario.csv"
SARIF_SCHEMA = json.loads((ROOT / "tests" / "data" / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))


def test_sarif_from_lighthouse_validates_and_points_at_rows(cli):
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--format", "sarif", check_code=1)
    log = json.loads(proc.stdout)
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    run = log["runs"][0]
    rules = {r["id"]: r for r in run["rules"]} if "rules" in run else {r["id"]: r for r in run["tool"]["driver"]["rules"]}
    assert {"unreached", "missing-scene", "shadowed", "no-ending", "stuck-combination", "input-issue"} <= set(rules)
    assert "잡는 것" in rules["shadowed"]["help"]["text"] and "고치는 법" in rules["shadowed"]["help"]["text"]
    by_target = {r["properties"].get("target_no") or r["properties"].get("target"): r for r in run["results"] if "properties" in r}
    sc19 = by_target["SC-19"]
    assert sc19["ruleId"] == "unreached"
    loc = sc19["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].endswith("examples/lighthouse/scenario.csv")
    line = loc["region"]["startLine"]
    assert LIGHTHOUSE.read_text(encoding="utf-8").splitlines()[line - 1].startswith("SC-19,")
    assert "BR-13" in by_target and by_target["BR-13"]["ruleId"] == "shadowed"
    assert not any(r["properties"].get("verdict") == "끝까지 닿음" for r in run["results"] if "properties" in r)


def test_github_annotations(cli):
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--format", "github", check_code=1)
    lines = proc.stdout.splitlines()
    assert lines and all(l.startswith(("::warning ", "::error ")) for l in lines)
    sc19 = next(l for l in lines if "SC-19" in l)
    assert "file=examples/lighthouse/scenario.csv" in sc19 and ",line=20," in sc19 and "title=storygraph unreached" in sc19


def test_intended_findings_are_kept_greyed_and_the_run_exits_zero(cli, tmp_path):
    proc = cli("storygraph", "lint", ACCEPTED, check_code=0)
    assert "조건이 겹침 · BR-1" in proc.stdout and "[의도됨: 물때가 2 이상이면" in proc.stdout
    assert "끝에 못 감 · SC-D" in proc.stdout and "[의도됨: 끝없는 수평선은 열린 결말로 남깁니다.]" in proc.stdout
    data = json.loads(cli("storygraph", "lint", ACCEPTED, "--format", "json", check_code=0).stdout)
    cards = {c["target_no"]: c for c in data["cards"]}
    assert cards["BR-1"]["verdict"] == "조건이 겹침" and cards["BR-1"]["accepted"].startswith("물때가")
    assert cards["SC-D"]["verdict"] == "끝에 못 감" and cards["BR-5"]["accepted"]
    sarif = json.loads(cli("storygraph", "lint", ACCEPTED, "--format", "sarif", check_code=0).stdout)
    suppressed = [r for r in sarif["runs"][0]["results"] if r.get("suppressions")]
    assert {r["properties"]["target_no"] for r in suppressed} >= {"BR-1", "SC-D"}
    html = tmp_path / "r.html"
    cli("storygraph", "lint", ACCEPTED, "--html", html, check_code=0)
    page = html.read_text(encoding="utf-8")
    assert page.count('class="card is-accepted"') >= 2 and "의도됨: 끝없는 수평선은 열린 결말로 남깁니다." in page


def _copy(tmp_path, config: str | None, name="storygraph.toml"):
    folder = tmp_path / "repo" / "scenarios"
    folder.mkdir(parents=True)
    shutil.copy(ACCEPTED, folder / "scenario.csv")
    if config is not None:
        (tmp_path / "repo" / name).write_text(config, encoding="utf-8")
    return folder / "scenario.csv"


def test_config_is_found_upwards_in_pyproject(cli, tmp_path):
    path = _copy(tmp_path, '[project]\nname = "x"\n\n[tool.storygraph]\nformat = "json"\n\n[[tool.storygraph.accept]]\ntarget = "BR-1"\nreason = "의도"\n',
                 name="pyproject.toml")
    proc = cli("storygraph", "lint", path)
    data = json.loads(proc.stdout)  # the default format came from the configuration
    assert {c["target_no"]: c.get("accepted") for c in data["cards"]}["BR-1"] == "의도"
    assert proc.returncode == 0


def test_unknown_config_key_names_key_and_file(cli, tmp_path):
    path = _copy(tmp_path, 'fail_on = ["issues"]\ncolour = "red"\n')
    proc = cli("storygraph", "lint", path, check_code=2)
    assert "colour" in proc.stderr and "storygraph.toml" in proc.stderr and "Traceback" not in proc.stderr


def test_stale_acceptance_is_reported(cli, tmp_path):
    path = _copy(tmp_path, '[[accept]]\ntarget = "BR-99"\nreason = "옛날 것"\n')
    proc = cli("storygraph", "lint", path, "--format", "json", check_code=1)
    issues = json.loads(proc.stdout)["issues"]
    assert any("BR-99" in i["reason"] and i["file"].endswith("storygraph.toml") for i in issues)


def test_fail_on_and_explicit_config(cli, tmp_path):
    only_missing = tmp_path / "missing.toml"
    only_missing.write_text('fail_on = ["missing-scene"]\n', encoding="utf-8")
    cli("storygraph", "lint", LIGHTHOUSE, "--config", only_missing, check_code=1)  # BR-42 points at SC-88
    only_issues = tmp_path / "issues.toml"
    only_issues.write_text('fail_on = ["issues"]\n', encoding="utf-8")
    cli("storygraph", "lint", LIGHTHOUSE, "--config", only_issues, check_code=0)
    bad = tmp_path / "bad.toml"
    bad.write_text('fail_on = ["nonsense"]\n', encoding="utf-8")
    assert "nonsense" in cli("storygraph", "lint", LIGHTHOUSE, "--config", bad, check_code=2).stderr


def test_several_paths_and_folders_one_bad_file_does_not_stop_the_others(cli, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    shutil.copy(LIGHTHOUSE, folder / "a.csv")
    shutil.copytree(EXAMPLES / "lighthouse-folder", folder / "b")
    (folder / "broken.xlsx").write_bytes(b"not a workbook")
    (folder / "a.gold.csv").write_text("target_no,verdict\n", encoding="utf-8")
    proc = cli("storygraph", "lint", folder, ACCEPTED, "--format", "json", check_code=2)
    report = json.loads(proc.stdout)
    # one object, the same as one input's, every item naming its input (in the order of the paths)
    assert set(report) >= {"cards", "issues", "checks", "inputs"}
    inputs = list(dict.fromkeys(c["input"].rsplit("/", 1)[-1] for c in report["cards"]))
    assert inputs == ["a.csv", "b", "scenario.csv"]
    broken = [i for i in report["issues"] if i["input"].endswith("broken.xlsx")]
    assert len(broken) == 1 and "xlsx" in broken[0]["reason"] and broken[0]["file"].endswith("broken.xlsx")
    by_input = {name: [c for c in report["cards"] if c["input"].endswith(name)] for name in ("a.csv", "/b")}
    assert len(by_input["a.csv"]) == len(by_input["/b"]) == 78
    assert {c["input"] for c in report["checks"]} == {c["input"] for c in report["cards"]}
    text = cli("storygraph", "lint", ACCEPTED, LIGHTHOUSE, check_code=1).stdout
    assert text.count("━━ ") == 2


def test_explain(cli):
    proc = cli("storygraph", "explain", "조건이 겹침", check_code=0)
    assert "잡는 것:" in proc.stdout and "고치는 법:" in proc.stdout
    assert "stuck-combination" in cli("storygraph", "explain", "stuck-combination", check_code=0).stdout
    proc = cli("storygraph", "explain", "bogus", check_code=2)
    assert "shadowed" in proc.stderr


@pytest.mark.parametrize("name", ["storygraph-lint"])
def test_pre_commit_hook_definition(name):
    import yaml

    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(h for h in hooks if h["id"] == name)
    assert hook["entry"] == "storygraph lint" and hook["language"] == "python"
    import re

    assert re.search(hook["files"], "story/scenario.csv") and re.search(hook["exclude"], "gold/a.gold.csv")


def test_sarif_fixes_replace_the_cells_the_fix_sets(cli):
    """Results whose fix sets cells of the CSV carry SARIF ``fixes``; each replacement's
    region is the cell named (its old text there), and the log still validates."""
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--format", "sarif", check_code=1)
    log = json.loads(proc.stdout)
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    run = log["runs"][0]
    assert run["columnKind"] == "unicodeCodePoints"
    lines = LIGHTHOUSE.read_text(encoding="utf-8").splitlines()
    fixed = [r for r in run["results"] if "fixes" in r]
    assert len(fixed) >= 5
    for result in fixed:
        edits = result["properties"]["fix"]["edits"]
        if any(e["action"] != "set" for e in edits):
            continue  # rows added and removed: test_sarif_fixes_that_add_or_remove_rows_give_the_rows_storygraph_fix_gives
        (change,) = result["fixes"][0]["artifactChanges"]
        assert change["artifactLocation"]["uri"].endswith("examples/lighthouse/scenario.csv")
        assert len(change["replacements"]) == len(edits)
        for edit, rep in zip(edits, change["replacements"]):
            region = rep["deletedRegion"]
            line = lines[region["startLine"] - 1]
            old = line[region["startColumn"] - 1:region["endColumn"] - 1]
            new = line[:region["startColumn"] - 1] + rep["insertedContent"]["text"] + line[region["endColumn"] - 1:]
            row = next(csv.reader([new]))
            assert edit["row"] in row and str(edit["value"]) in row and old != rep["insertedContent"]["text"]


def _sarif_applied(text: str, replacements: list[dict]) -> str:
    """``text`` with SARIF replacements applied (lines and columns counted from 1 in
    characters, regions of the original text, applied from the last)."""
    starts = [0]
    for line in io.StringIO(text, newline="").readlines():
        starts.append(starts[-1] + len(line))

    def offset(line: int, column: int) -> int:
        return starts[line - 1] + column - 1

    spans = []
    for rep in replacements:
        region = rep["deletedRegion"]
        start = offset(region["startLine"], region["startColumn"])
        end = offset(region.get("endLine", region["startLine"]), region["endColumn"])
        spans.append((start, end, (rep.get("insertedContent") or {}).get("text", "")))
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


@pytest.mark.parametrize("example", [LIGHTHOUSE, EXAMPLES / "lighthouse-broken" / "scenario.csv"])
def test_sarif_fixes_that_add_or_remove_rows_give_the_rows_storygraph_fix_gives(cli, tmp_path, example):
    """A result whose fix adds a branch (the reach fixes) or removes a row carries SARIF
    ``fixes`` too: applied by a tool as SARIF says, they give the tables the edits give."""
    from storygraph.cells import raw_tables
    from storygraph.fixes import apply_edits
    from verdicts.fixing import MARK, rows_of
    from verdicts.tables import decode_bytes

    proc = cli("storygraph", "lint", example, "--format", "sarif", check_code=1)
    log = json.loads(proc.stdout)
    jsonschema.validators.validator_for(SARIF_SCHEMA)(SARIF_SCHEMA).validate(log)
    data = example.read_bytes()
    text, encoding = decode_bytes(data, str(example))
    before = rows_of(raw_tables(example))
    kinds = set()
    for result in log["runs"][0]["results"]:
        edits = (result.get("properties") or {}).get("fix", {}).get("edits") or []
        if not any(e["action"] in ("add", "remove") for e in edits):
            continue
        assert "fixes" in result, result["properties"]["fix"]
        kinds |= {e["action"] for e in edits}
        (change,) = result["fixes"][0]["artifactChanges"]
        copy = tmp_path / "scenario.csv"
        copy.write_bytes(_sarif_applied(text, change["replacements"]).encode("cp949" if encoding == "cp949" else "utf-8"))
        got = {n: [{k: v for k, v in r.items() if k != MARK} for r in rows] for n, rows in rows_of(raw_tables(copy)).items()}
        want = {n: [{k: v for k, v in r.items() if k != MARK} for r in rows] for n, rows in apply_edits(before, edits).items()}
        assert {n: [{k: v for k, v in r.items() if v} for r in rows] for n, rows in got.items()} == \
            {n: [{k: v for k, v in r.items() if v} for r in rows] for n, rows in want.items()}
    assert kinds == {"add", "remove"} or (example != LIGHTHOUSE and "add" in kinds)
