"""Issue 32, item 3: work and output that grow with the input, not with its square.

Each test builds a minimal hostile input on the spot and runs the real command in a
bounded subprocess (:func:`tests.hostile.inputs.run_bounded`)."""

from __future__ import annotations

from pathlib import Path

from storygraph.fixes import apply_edits
from tests.hostile import builders
from tests.hostile.inputs import assert_clean, run_bounded


def _json_size(folder: Path, n: int) -> int:
    folder.mkdir()
    path = builders.many_available_flags(folder, n)
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(outcome, 1)
    return len(outcome.stdout.encode("utf-8"))


def test_unused_flags_listed_by_a_scene_give_output_linear_in_the_flags(tmp_path: Path) -> None:
    """A scene listing n flags that no condition tests: every unused-flag fix used to
    write the scene's whole list less one flag (n fixes of n names: 2.6 GB of JSON from a
    747 KB file of 20,000 flags).  Four times the flags must give about four times the
    report, not sixteen."""
    small, large = _json_size(tmp_path / "a", 500), _json_size(tmp_path / "b", 2000)
    assert large < 5 * small, (small, large)


def test_the_unlist_edit_takes_one_flag_out_of_the_list() -> None:
    tables = {"scene_states": [{"scene_id": "S0", "available_flags": "f0|f1, f2"}]}
    edits = [{"action": "unlist", "table": "scene_states", "row": "S0", "column": "available_flags", "value": "f1"}]
    assert apply_edits(tables, edits)["scene_states"][0]["available_flags"] == "f0|f2"


def _far_row(number: str) -> str:
    cells = "".join(f'<c r="{col}{number}" t="inlineStr"><is><t>{text}</t></is></c>'
                    for col, text in zip("ABCD", ("S9", "먼 장면", "N", "Y")))
    return f'<row r="{number}">{cells}</row>'


def test_an_xlsx_row_numbered_past_the_sheet_limit_is_an_issue(tmp_path: Path) -> None:
    """A 2 KB workbook whose one row is numbered 99,999,999,999: the row number was
    taken as a count of rows to make (a MemoryError traceback, or gigabytes)."""
    from tests.hostile import inputs

    sheets = inputs.story_sheets()
    sheets["scene_states"] = sheets["scene_states"].replace("</sheetData>", _far_row("99999999999") + "</sheetData>")
    path = inputs.xlsx(tmp_path, sheets)
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", memory=512 << 20)
    assert_clean(outcome, 1)
    hits = [i for i in outcome.issues() if "`99999999999`" in i["reason"]]
    assert len(hits) == 1 and hits[0]["table"] == "scene_states" and "1,048,576" in hits[0]["reason"]
    assert "S9" not in {c["target_no"] for c in outcome.json()["cards"]}


def test_an_xlsx_row_number_of_thousands_of_digits_is_refused_unread(tmp_path: Path) -> None:
    from tests.hostile import inputs

    sheets = inputs.story_sheets()
    sheets["scene_states"] = sheets["scene_states"].replace("</sheetData>", _far_row("9" * 5000) + "</sheetData>")
    outcome = run_bounded("storygraph", "lint", inputs.xlsx(tmp_path, sheets), "--format", "json", "--jobs", "1")
    assert_clean(outcome, 1)
    assert any("행 번호" in i["reason"] and "1,048,576" in i["reason"] for i in outcome.issues())


def _timed(work) -> float:
    import threading
    import time

    box: dict = {}
    thread = threading.Thread(target=lambda: box.setdefault("value", work()), daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(30)
    assert not thread.is_alive(), "still running after 30 s"
    return time.monotonic() - started


def test_a_mail_subject_of_a_prefix_and_many_spaces_is_read_at_once() -> None:
    """Two adjacent ``\\s*`` in the reply-prefix pattern: a 260 KB subject of ``re`` and
    spaces took minutes (every split of the spaces was tried)."""
    from verdicts.mail.importer import normalized_subject

    assert normalized_subject("RE[2]: Fwd : 회신: 견적 요청") == "견적 요청"
    assert _timed(lambda: normalized_subject("re" + " " * 260_000 + "x")) < 2


def test_a_choicescript_computed_name_is_matched_in_linear_time() -> None:
    """A name computed while playing is a glob (``"a" & x & "a" & …``); matched by a
    backtracking engine, ``.*a.*a.*a.*a.*b`` against a label of 400 ``a`` ran for minutes."""
    from storygraph.importers.choicescript import _matches

    glob = (None, "a", None, "a", None, "a", None, "a", None, "b")
    assert _matches(("ch", None, "_", 0), "CH3_-12.5") and not _matches(("ch", 0), "ch")
    assert _timed(lambda: _matches(glob, "a" * 400)) < 2


def test_a_configuration_integer_of_thousands_of_digits_is_refused_with_its_line(tmp_path: Path) -> None:
    from tests.hostile.inputs import SMALL_STORY, union_csv

    (tmp_path / "storygraph.toml").write_text('[storygraph]\nformat = "text"\nfail_on = ' + "9" * 5000 + "\n", encoding="utf-8")
    outcome = run_bounded("storygraph", "lint", union_csv(tmp_path, SMALL_STORY), "--jobs", "1")
    assert_clean(outcome, 2)
    assert "storygraph.toml:3:" in outcome.stderr and "4,300자리" in outcome.stderr
