"""``storygraph fix``: the fixes applied to copies of the bundled scenario in each form the
readers take, by the real command; everything outside the edited cells kept byte for byte."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from pathlib import Path

import pytest

from storygraph.applying import plan_fixes, write_plan
from storygraph.domain import lint
from verdicts.fixing import FileChangedError

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "examples" / "lighthouse" / "scenario.csv"
COLUMNS = {
    "scene_states": ["scene_id", "title", "is_entry", "is_ending", "available_flags"],
    "story_branches": ["branch_id", "from_scene", "to_scene", "condition_expr", "order_no"],
    "flag_spec": ["flag", "label", "type", "min_value", "max_value", "values"],
}


def problems(path: Path) -> int:
    report = lint(path)
    from storygraph.domain import DOMAIN

    return (sum(1 for c in report.cards if c.verdict not in DOMAIN.passing_verdicts)
            + sum(1 for f in report.findings if not f.accepted and not f.withheld) + len(report.issues))


def tables() -> dict[str, list[dict[str, str]]]:
    """The example's three tables, split as the union reader splits them."""
    out: dict[str, list[dict[str, str]]] = {name: [] for name in COLUMNS}
    for row in csv.DictReader(io.StringIO(LIGHTHOUSE.read_text(encoding="utf-8"))):
        name = "story_branches" if row["branch_id"] else "flag_spec" if row["flag"] and not row["scene_id"] else "scene_states"
        out[name].append({c: row[c] for c in COLUMNS[name]})
    return out


def kept_lines(before: bytes, after: bytes, encoding: str) -> tuple[int, int]:
    """How many lines of ``before`` come back unchanged in ``after`` (byte for byte, with
    their line endings), and how many lines ``before`` has."""
    old = io.StringIO(before.decode(encoding), newline="").readlines()
    new = set(io.StringIO(after.decode(encoding), newline="").readlines())
    return sum(1 for line in old if line in new), len(old)


@pytest.mark.parametrize("encoding, bom, newline", [("utf-8", b"", "\n"), ("cp949", b"", "\r\n"), ("utf-8", b"\xef\xbb\xbf", "\r\n")])
def test_fix_applies_to_a_csv_in_its_own_encoding_and_line_endings(tmp_path, cli, encoding, bom, newline):
    text = LIGHTHOUSE.read_text(encoding="utf-8").replace("\n", newline)
    path = tmp_path / "scenario.csv"
    original = bom + text.encode(encoding)
    path.write_bytes(original)
    before = problems(path)

    dry = cli("storygraph", "fix", path, "--dry-run", check_code=0)
    assert path.read_bytes() == original and not (tmp_path / "scenario.csv.bak").exists()
    assert "+,,,,,BR-14,SC-05,SC-12,trust >= 3 and has_key,3" in dry.stdout and "--dry-run" in dry.stdout

    done = cli("storygraph", "fix", path, check_code=0)
    after = path.read_bytes()
    assert (tmp_path / "scenario.csv.bak").read_bytes() == original
    assert after.startswith(bom) and (bom or not after.startswith(b"\xef\xbb\xbf"))
    decoded = after[len(bom):].decode(encoding)  # the encoding kept (CP949 is not UTF-8)
    assert decoded.count("\r\n") == (decoded.count("\n") if newline == "\r\n" else 0)
    assert before > 0 and problems(path) == 0  # the passes leave nothing (the reach fixes included)
    assert "남은 문제가 없습니다" in done.stdout
    # every line the edits do not name is kept byte for byte
    kept, total = kept_lines(original[len(bom):], after[len(bom):], encoding)
    edited = {"BR-13", "BR-14", "BR-42", "BR-45", "BR-51", "BR-62", "SC-16", "weather"}
    ids = [(row[0], row[5], row[10]) for row in csv.reader(io.StringIO(text, newline=""))]
    named = sum(1 for row_ids in ids if edited & set(row_ids))
    assert kept == total - named
    # the quoting of an untouched cell is kept, and so is the row the fix added at the end of the branches
    assert '"trust,has_key"' in decoded and ',SC-21,SC-06,"lamp == ""꺼짐"" and not has_key",3' in decoded
    # the added branches each get their own id, and go at the end of the branches
    lines = decoded.splitlines()
    known = {row[5] for row in csv.reader(io.StringIO(text, newline="")) if len(row) > 5}
    added = [x for x in lines if re.match(r",,,,,BR-\d+,", x) and x.split(",")[5] not in known]
    assert len(added) == len({x.split(",")[5] for x in added}) >= 2
    assert lines.index(added[-1]) + 1 == lines.index(next(x for x in lines if ",trust,신뢰도," in x))


def test_a_file_changed_between_reading_and_writing_is_refused(tmp_path):
    path = tmp_path / "scenario.csv"
    shutil.copy(LIGHTHOUSE, path)
    plan = plan_fixes(path)
    assert plan.changed
    path.write_bytes(path.read_bytes() + b"SC-99,new,N,Y,,,,,,,,,,,,\n")  # the creator saves meanwhile
    changed = path.read_bytes()
    with pytest.raises(FileChangedError, match="바뀌어"):
        write_plan(plan)
    assert path.read_bytes() == changed and not (tmp_path / "scenario.csv.bak").exists()


def test_no_backup_and_lint_fix(tmp_path, cli):
    path = tmp_path / "scenario.csv"
    shutil.copy(LIGHTHOUSE, path)
    cli("storygraph", "lint", path, "--fix", check_code=0)
    assert (tmp_path / "scenario.csv.bak").exists() and path.read_bytes() != LIGHTHOUSE.read_bytes()
    again = tmp_path / "again.csv"
    shutil.copy(LIGHTHOUSE, again)
    cli("storygraph", "fix", again, "--no-backup", check_code=0)
    assert not (tmp_path / "again.csv.bak").exists() and again.read_bytes() == path.read_bytes()


def test_fix_applies_to_an_xlsx_workbook_keeping_other_sheets_and_formatting(tmp_path, cli):
    openpyxl = pytest.importorskip("openpyxl")
    from openpyxl.styles import Font

    book = openpyxl.Workbook()
    book.active.title = "메모"
    book["메모"]["A1"] = "이 시트는 그대로 남아야 합니다"
    for name, rows in tables().items():
        sheet = book.create_sheet(name)
        sheet.append(COLUMNS[name])
        for row in rows:
            sheet.append([int(row[c]) if c in ("order_no", "min_value", "max_value") and row[c] else (row[c] or None) for c in COLUMNS[name]])
        sheet["A1"].font = Font(bold=True)
    path = tmp_path / "scenario.xlsx"
    book.save(path)
    before = problems(path)
    cli("storygraph", "fix", path, check_code=0)
    after = openpyxl.load_workbook(path)
    assert after["메모"]["A1"].value == "이 시트는 그대로 남아야 합니다"
    assert after["story_branches"]["A1"].font.bold
    branches = {r[0]: r for r in after["story_branches"].iter_rows(min_row=2, values_only=True) if r[0]}
    assert branches["BR-14"][4] == 3 and branches["BR-13"][4] == 4 and "BR-62" not in branches and any(int(b[3:]) > 62 for b in branches)
    assert branches["BR-45"][3] == "trust <= 3"
    assert problems(path) < before


def _document(tmp_path: Path, form: str) -> Path:
    data = {name: [{c: (int(v) if c in ("order_no", "min_value", "max_value") and v else v) for c, v in row.items() if v != ""}
                   for row in rows] for name, rows in tables().items()}
    path = tmp_path / f"scenario.{form}"
    if form == "json":
        path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    else:
        import yaml

        text = yaml.safe_dump(data, allow_unicode=True, sort_keys=False)
        path.write_text("# 등대 시나리오 (주석은 남아야 합니다)\n" + text, encoding="utf-8")
    return path


@pytest.mark.parametrize("form", ["json", "yaml"])
def test_fix_edits_json_and_yaml_in_place(tmp_path, cli, form):
    path = _document(tmp_path, form)
    original = path.read_bytes()
    before = problems(path)
    done = cli("storygraph", "fix", path, check_code=0)
    after = path.read_bytes()
    assert problems(path) < before
    old_lines = original.decode().splitlines(keepends=True)
    new_lines = after.decode().splitlines(keepends=True)
    assert old_lines[1:4] == new_lines[1:4]  # lines not edited are kept
    assert any("trust <= 3" in b for b in new_lines) and not any("BR-62" in b for b in new_lines)  # a value set, a record removed
    assert any(re.search(r"BR-(6[3-9]|[7-9]\d)\b", b) for b in new_lines)  # a record added (a branch id past the highest)
    if form == "yaml":
        assert new_lines[0] == "# 등대 시나리오 (주석은 남아야 합니다)\n"
    assert "손으로 고치세요" not in done.stderr


def test_a_story_gets_suggestions_at_its_source_lines(tmp_path, cli):
    story = tmp_path / "lighthouse.ink"
    shutil.copy(ROOT / "examples" / "ink" / "lighthouse.ink", story)
    original = story.read_bytes()
    out = cli("storygraph", "fix", story, check_code=0)
    assert story.read_bytes() == original and not list(tmp_path.glob("*.bak"))
    assert f"{story}:" in out.stdout and "손으로 고치세요" in out.stdout


def test_the_text_summary_counts_the_fixable_problems(cli):
    from storygraph.domain import DOMAIN
    from verdicts.fixing import fixable_count

    report = lint(LIGHTHOUSE)
    n = fixable_count(report, DOMAIN.passing_verdicts)
    assert n >= 10  # the lighthouse's cards and findings that carry edits
    summary = cli("storygraph", "lint", LIGHTHOUSE).stdout.strip().splitlines()[-1]
    assert f" · 고칠 수 있는 문제 {n:,}건 · " in summary
    assert json.loads(cli("storygraph", "lint", LIGHTHOUSE, "--format", "json").stdout)["fixable"] == n


def test_the_json_report_of_several_scenarios_sums_their_fixable_problems(cli):
    one = json.loads(cli("storygraph", "lint", LIGHTHOUSE, "--format", "json").stdout)["fixable"]
    cafe = ROOT / "examples" / "gold" / "cafe.csv"
    other = json.loads(cli("storygraph", "lint", cafe, "--format", "json").stdout)["fixable"]
    both = json.loads(cli("storygraph", "lint", LIGHTHOUSE, cafe, "--format", "json").stdout)
    assert both["fixable"] == one + other and list(both)[-1] == "inputs"


@pytest.mark.parametrize("folder", ["choicescript", "twine-chapters"])
def test_a_folder_holding_a_story_is_not_rewritten(tmp_path, cli, folder):
    story = tmp_path / folder
    shutil.copytree(ROOT / "examples" / folder, story)
    before = {p: p.read_bytes() for p in story.rglob("*") if p.is_file()}
    cli("storygraph", "fix", story, check_code=0)
    assert {p: p.read_bytes() for p in story.rglob("*") if p.is_file()} == before
