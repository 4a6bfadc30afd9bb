"""Reading tables: encodings, physical line numbers, bad cells and rows become issues."""

from __future__ import annotations

import pytest

from verdicts.errors import InputError
import csv
import io

from hypothesis import given
from hypothesis import strategies as st

from verdicts.tables import (Column, RawRow, RawTable, TableSpec, _read_records_carefully, _type_row, parse_bool, read_csv,
                             read_tables, type_table)

SPEC = TableSpec("things", (Column("id", "str", required=True), Column("flag", "bool"), Column("n", "int"), Column("note")), key="id")


def _read(tmp_path, text: str | bytes, name="t.csv"):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    issues = []
    raw = read_csv(path, "things", issues)
    return raw, issues


@pytest.mark.parametrize("encoding,label", [("utf-8", "utf-8"), ("utf-8-sig", "utf-8-sig"), ("cp949", "cp949")])
def test_encodings_are_detected_and_reported(tmp_path, encoding, label):
    raw, issues = _read(tmp_path, "id,note\n1,등대지기의 방\n".encode(encoding))
    assert raw.encoding == label and raw.columns == ["id", "note"] and raw.rows[0].values["note"] == "등대지기의 방"


def test_undecodable_bytes_are_an_input_error(tmp_path):
    with pytest.raises(InputError, match="CP949"):
        _read(tmp_path, b"id,note\n1,\xff\xfe\xfd\x80\n")


def test_physical_lines_survive_multiline_cells_and_blank_rows(tmp_path):
    raw, _ = _read(tmp_path, 'id,note\n1,"two\nlines"\n\n2,x\n')
    assert [(r.line, r.values["id"]) for r in raw.rows] == [(2, "1"), (5, "2")]


def test_extra_cells_are_reported_and_short_rows_read_as_empty(tmp_path):
    raw, issues = _read(tmp_path, "id,note\n1,a,unexpected\n2\n")
    assert raw.rows[1].values == {"id": "2", "note": None}
    assert len(issues) == 1 and issues[0].line == 2 and "unexpected" in issues[0].reason


def test_semicolon_and_tab_separated_files(tmp_path):
    raw, _ = _read(tmp_path, "id;note\n1;x\n")
    assert raw.rows[0].values == {"id": "1", "note": "x"}
    raw, _ = _read(tmp_path, "id\tnote\n1\tx\n")
    assert raw.rows[0].values == {"id": "1", "note": "x"}


def test_typing_reports_bad_cells_missing_columns_and_duplicates(tmp_path):
    raw, issues = _read(tmp_path, "id,flg,n\n1,,x\n,,2\n1,,3\n2,,4\n")
    table = type_table(raw, SPEC, issues)
    by = {(i.line, i.column): i.reason for i in issues}
    assert "'flag' 열이 없어" in by[(1, "flag")] and "'flg'" in by[(1, "flag")]  # misspelling suggested
    assert (1, "note") in by
    assert "정수" in by[(2, "n")]
    assert "비어" in by[(3, "id")]
    assert "2번째 줄" in by[(4, "id")]
    assert [r.values["id"] for r in table.rows] == ["1", "2"]
    assert table.rows[0].values["n"] is None and "n" in table.rows[0].invalid


@pytest.mark.parametrize("text,value", [("true", True), ("Y", True), ("예", None), ("참", True), ("거짓", False), ("0", False), ("No", False), ("maybe", None)])
def test_booleans(text, value):
    assert parse_bool(text) is value


def test_unknown_form_and_missing_path(tmp_path):
    with pytest.raises(InputError, match="없습니다"):
        read_tables(tmp_path / "nope.csv", ["things"], [])
    (tmp_path / "x.pdf").write_bytes(b"%PDF")
    with pytest.raises(InputError, match="알 수 없는 형식"):
        read_tables(tmp_path / "x.pdf", ["things"], [])


def test_broken_json_names_the_line(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"things": [\n  {"id": 1},\n  {"id": 2,,}\n]}\n', encoding="utf-8")
    with pytest.raises(InputError, match=r"s\.json:3"):
        read_tables(path, ["things"], [])


def test_yaml_records_keep_their_lines(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("things:\n  - id: a\n    n: 3\n  - id: b\n", encoding="utf-8")
    tables = read_tables(path, ["things"], [])
    assert [(r.line, r.values["id"]) for r in tables["things"].rows] == [(2, "a"), (4, "b")]


_CELLS = ["", " ", "a", " b ", "1", "x,y", "\u3000", '"q"', '"two\nlines"', '"r\r"', "Y", "maybe", "2.5", "-3"]


@given(rows=st.lists(st.lists(st.sampled_from(_CELLS), max_size=5), max_size=6), newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_reading_at_once_matches_reading_record_by_record(tmp_path_factory, rows, newline):
    """read_csv's fast path (all records parsed in one call) gives the rows, lines and
    issues of the record-by-record reader it falls back to."""
    text = "id,flag,n" + newline + newline.join(",".join(r) for r in rows) + newline
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(text.encode("utf-8"))
    issues: list = []
    raw = read_csv(path, "things", issues)
    expected_issues: list = []
    lines = io.StringIO(text, newline="").readlines()
    expected = _read_records_carefully(lines, 1, 3, {"id": 0, "flag": 1, "n": 2}, ",", str(path), "things", expected_issues)
    assert [(r.line, r.values) for r in raw.rows] == [(r.line, r.values) for r in expected]
    assert issues == expected_issues
    typed_issues: list = []
    table = type_table(raw, SPEC, typed_issues)
    # typing the same rows held as dicts (no shared cells) takes the general path
    dict_rows = RawTable("things", str(path), "csv", "utf-8", raw.columns, [RawRow(r.line, dict(r.values)) for r in raw.rows])
    dict_issues: list = []
    assert type_table(dict_rows, SPEC, dict_issues).rows == table.rows and dict_issues == typed_issues
    for row in table.rows:
        assert _type_row(raw, SPEC, table.present, RawRow(row.line, row.raw), [])[:2] == (row.values, row.invalid)
