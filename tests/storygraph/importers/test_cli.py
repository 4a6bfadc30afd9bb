"""``storygraph import``: the real command, its exit codes and messages, and
:func:`storygraph.import_cli.import_command` without typer."""

from __future__ import annotations

import csv
import io

from storygraph.import_cli import import_command
from storygraph.importers import UNION_COLUMNS

from ...conftest import run
from .helpers import HERE


def test_import_writes_the_union_csv_and_reports_issues(tmp_path):
    out = tmp_path / "scenario.csv"
    proc = run("storygraph", "import", HERE / "story_yarn.yarn", "-o", out)
    # what our language cannot say is written in the tables, not reported as a problem of
    # the story (issue 28): nothing to report here
    assert proc.returncode == 0 and proc.stderr == ""
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert list(rows[0]) == list(UNION_COLUMNS)
    assert rows[0]["scene_id"] == "Start" and rows[0]["source_line"] == "1"
    assert [(r["jump_opaque"], r["jump_source"]) for r in rows if r["jump_opaque"]] == [("1", "<<jump {$next}>>")]
    # the `<<jump {$next}>>` of line 29 is an opaque jump, the condition of line 20 an opaque condition
    assert [(r["source_line"], r["condition_opaque"], r["condition_source"]) for r in rows if r["condition_opaque"]] == [
        ("20", "1", "$name == $gold")]
    # and the tables load in the linter
    lint = run("storygraph", "lint", out, "--quiet", "--jobs", "1")
    assert lint.returncode in (0, 1) and "Traceback" not in lint.stderr


def test_clean_story_exits_0_and_prints_to_stdout(tmp_path):
    story = tmp_path / "ok.ink"
    story.write_text("-> a\n=== a ===\n* [go] -> END\n", encoding="utf-8")
    proc = run("storygraph", "import", story)
    assert proc.returncode == 0 and proc.stderr == ""
    assert proc.stdout.startswith("scene_id,title,")


def test_unreadable_input_exits_2_with_one_korean_line(tmp_path):
    for path in (tmp_path / "missing.ink", tmp_path / "story.docx"):
        if path.suffix == ".docx":
            path.write_bytes(b"PK\x03\x04")
        proc = run("storygraph", "import", path, "-o", tmp_path / "x.csv")
        assert proc.returncode == 2
        assert len(proc.stderr.strip().split("\n")) == 1 and "Traceback" not in proc.stderr
        assert proc.stderr.strip().endswith("요).") or proc.stderr.strip().endswith("니다.")
        assert not (tmp_path / "x.csv").exists()


def test_undecodable_bytes_exit_2(tmp_path):
    path = tmp_path / "bad.ink"
    path.write_bytes(b"\xff\xfe\xfa" * 10)
    proc = run("storygraph", "import", path)
    assert proc.returncode == 2 and "CP949" in proc.stderr


def test_import_command_without_typer(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert import_command(HERE / "story_harlowe.twee", None, None, stdout=out, stderr=err) == 1
    assert out.getvalue().startswith("scene_id,")
    # (the `(go-to: "Room " + $n)` is an opaque jump and `$mood is $weather` an opaque condition: no issue)
    assert err.getvalue().count("\n") == 1
    assert import_command(HERE / "story_harlowe.twee", None, "nonsense", stdout=out, stderr=err) == 2


def test_format_can_be_forced(tmp_path):
    path = tmp_path / "story.txt"
    path.write_text("title: A\n---\nHi.\n===\n", encoding="utf-8")
    proc = run("storygraph", "import", path, "--from", "yarn")
    assert proc.returncode == 0 and "(end)" in proc.stdout


def test_twine_ending_tag_and_yarn_entries_options(tmp_path):
    twee = tmp_path / "t.twee"
    twee.write_text(":: Start\n[[Fin]]\n\n:: Fin [fin]\n[[Start]]\n", encoding="utf-8")
    proc = run("storygraph", "import", twee, "--ending-tag", "fin")
    assert proc.returncode == 0 and "Fin,Fin,false,true" in proc.stdout
    yarn = tmp_path / "t.yarn"
    yarn.write_text("title: A\n---\n<<jump B>>\n===\ntitle: B\n---\nHi.\n===\n", encoding="utf-8")
    proc = run("storygraph", "import", yarn, "--entries", "B")
    assert proc.returncode == 0 and "B,B,true,false" in proc.stdout and "A,A,false,false" in proc.stdout
