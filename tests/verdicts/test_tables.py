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
    assert "`flag` 열이 없어" in by[(1, "flag")] and "`flg`" in by[(1, "flag")]  # misspelling suggested
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


# --------------------------------------------------------------------------- strict and bounded reading (issue 19)


def test_a_header_wider_than_any_spreadsheet_keeps_its_first_columns_and_the_lines(tmp_path):
    import verdicts.tables as tables

    header = ",".join(["id", "note"] + [f"x{i}" for i in range(tables.MAX_COLUMNS + 5)])
    raw, issues = _read(tmp_path, header + "\r\n1,a\r\n\r\n2,b\r\n")
    assert len(raw.columns) == tables.MAX_COLUMNS and raw.columns[:2] == ["id", "note"]
    assert [(r.line, r.values["id"]) for r in raw.rows] == [(2, "1"), (4, "2")]
    assert [i.reason for i in issues] == [f"머리글에 칸이 {tables.MAX_COLUMNS + 7:,}개 있어 한도 {tables.MAX_COLUMNS:,}개 뒤의 열은 읽지 않았습니다."]


@pytest.mark.parametrize("text,line,column,words", [
    ('id,note\n1,"open\n2,x\n', 2, "note", "3번째 글자의 따옴표(\")로 연 칸이 파일 끝까지 닫히지 않아"),
    ('id,note\n1,"a"b\n2,x\n', 2, "note", "6번째 글자에서 따옴표로 닫은 칸 뒤에 구분자 없이 `b` 글자가 이어져"),
    ('id,note\n"1\n2,x\n', 2, "id", "1번째 글자의 따옴표"),
])
def test_broken_quotes_are_issues_and_the_next_lines_are_read(tmp_path, text, line, column, words):
    raw, issues = _read(tmp_path, text)
    assert [(i.line, i.column) for i in issues] == [(line, column)] and words in issues[0].reason
    assert [(r.line, r.values["id"]) for r in raw.rows] == [(3, "2")]


def test_a_real_multiline_cell_is_not_mistaken_for_a_lone_quote(tmp_path):
    raw, issues = _read(tmp_path, 'id,note,n\n1,"첫째 줄, 둘째\n셋째",3\n2,x,4\n')
    assert issues == [] and [r.values["note"] for r in raw.rows] == ["첫째 줄, 둘째\n셋째", "x"]


def test_json_records_keep_their_lines_and_first_values(tmp_path):
    path = tmp_path / "s.json"
    path.write_text('{"other": {"x": [1, 2]},\n "things": [\n\t{"id": "a", "n": 1},\n\t{"id": "b",\n\t "n": 2, "n": 3}, 7\n ]}', encoding="utf-8")
    issues: list = []
    tables = read_tables(path, ["things"], issues)
    assert [(r.line, r.values) for r in tables["things"].rows] == [(3, {"id": "a", "n": "1"}), (4, {"id": "b", "n": "2"})]
    # the top-level key that names no table is an issue too (issue 32, item 2)
    assert [(i.line, i.column) for i in issues] == [(1, None), (5, "n"), (5, None)]


def test_yaml_anchors_within_the_bound_are_read_and_past_it_refused(tmp_path, monkeypatch):
    import verdicts.tables as tables

    path = tmp_path / "s.yaml"
    path.write_text("base: &b {n: 3}\nthings:\n  - {id: a, <<: *b}\n  - {id: b, <<: *b}\n", encoding="utf-8")
    assert [r.values for r in read_tables(path, ["things"], [])["things"].rows] == [{"id": "a", "n": "3"}, {"id": "b", "n": "3"}]
    monkeypatch.setattr(tables, "MAX_YAML_NODES", 8)
    with pytest.raises(InputError, match=r"s\.yaml:3: 별칭\(\*\)을 펼치면 값이 8개를 넘어"):
        read_tables(path, ["things"], [])


def test_xlsx_cells_read_as_openpyxl_reads_them(tmp_path):
    import datetime

    import openpyxl

    from verdicts.tables import _cell_text

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "things"
    sheet.append(["id", "when", "n", "f", "b", "t", "dur", "formula"])
    sheet.append(["a", datetime.datetime(2024, 5, 1, 12, 30), 3, 0.1, True, "  text ", datetime.timedelta(hours=5), "=1+2"])
    sheet.append(["b", datetime.date(2024, 5, 2), 10**20, 1e-7, False, "여러\n줄", datetime.time(8, 15), None])
    book.save(tmp_path / "b.xlsx")
    issues: list = []
    mine = read_tables(tmp_path / "b.xlsx", ["things"], issues)["things"]
    theirs = list(openpyxl.load_workbook(tmp_path / "b.xlsx", read_only=True, data_only=True)["things"].iter_rows(values_only=True))
    assert [list(r.values.values()) for r in mine.rows] == [[_cell_text(c) for c in row] for row in theirs[1:]]
    assert [(i.line, i.column) for i in issues] == [(2, "formula")] and "`H2` 칸에는 수식 `=1+2`만" in issues[0].reason


def test_xlsx_shared_strings_and_text_are_bounded(tmp_path, monkeypatch):
    import verdicts.tables as tables
    from tests.hostile.inputs import sheet_xml, xlsx

    rows = [["t:s|<v>0</v>", "t:s|<v>1</v>"], *[[f"t:s|<v>{2 + i}</v>", "t:s|<v>1</v>"] for i in range(20)]]
    path = xlsx(tmp_path, {"things": sheet_xml(rows)}, shared=["id", "note", *[f"id-{i}" for i in range(20)]])
    table = read_tables(path, ["things"], [])["things"]
    assert table.columns == ["id", "note"] and [r.values["id"] for r in table.rows][:2] == ["id-0", "id-1"]
    monkeypatch.setattr(tables, "MAX_XLSX_SHARED_STRINGS", 10)
    with pytest.raises(InputError, match=r"sharedStrings\.xml: 공유 문자열이 한도 10개를 넘어"):
        read_tables(path, ["things"], [])
    monkeypatch.setattr(tables, "MAX_XLSX_SHARED_STRINGS", 1000)
    monkeypatch.setattr(tables, "MAX_XLSX_TEXT_CHARS", 50)
    with pytest.raises(InputError, match=r"모두 50자를 넘어"):
        read_tables(path, ["things"], [])


_PLAIN = st.text(alphabet="ab가 1-", min_size=1, max_size=4).filter(lambda s: s.strip())


@given(rows=st.lists(st.lists(_PLAIN, min_size=3, max_size=3), min_size=2, max_size=12), data=st.data(),
       newline=st.sampled_from(["\n", "\r\n"]))
def test_lone_quotes_never_swallow_rows_silently(tmp_path_factory, rows, data, newline):
    """A file of plain rows with one or two lone ``"`` planted at the start or the end of
    a cell: every row holding one is an issue at its line, and every other row is read,
    with its own line and cells."""
    planted = sorted(set(data.draw(st.lists(st.integers(0, len(rows) - 1), min_size=1, max_size=2))))
    lines = []
    for i, cells in enumerate(rows):
        cells = list(cells)
        if i in planted:
            where = data.draw(st.integers(0, 2))
            cells[where] = '"' + cells[where] if data.draw(st.booleans()) else cells[where] + '"'
        lines.append(",".join(cells))
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(("id,flag,n" + newline + newline.join(lines) + newline).encode("utf-8"))
    issues: list = []
    raw = read_csv(path, "things", issues)
    read = {r.line: r.values for r in raw.rows}
    for i, cells in enumerate(rows):
        line = i + 2
        if i in planted and any(c.startswith('"') for c in lines[i].split(",")):  # a quote that opens a cell: this line is an issue, never a silent part of another row
            assert any(issue.line == line and "따옴표" in issue.reason for issue in issues), (lines, issues)
            assert line not in read
        elif i in planted:  # a quote at the end of a cell is kept as a character
            assert read[line] == dict(zip(["id", "flag", "n"], [c.strip() for c in lines[i].split(",")]))
        else:
            assert read[line] == dict(zip(["id", "flag", "n"], [c.strip() for c in cells])), (lines, issues)


def test_a_free_text_column_may_span_lines_with_separators(tmp_path):
    """A page of a document in a CSV cell (many lines, amounts written 12,034,500,000원)
    is read whole when its column is free text; the same cell in a plain column is taken
    for a lone quote that swallowed rows, as before."""
    from verdicts.tables import read_csv

    page = "건설업 등록증\n시공능력 평가액 : 12,034,500,000원\n대표자 : 김, 이, 박 공동\n주소 : 서울, 종로, 1"
    text = 'run_id,page,doc_name,text\nR-1,1,등록증,"' + page.replace('"', '""') + '"\nR-1,2,등록증,둘째 쪽\n'
    path = tmp_path / "source_pages.csv"
    path.write_text(text, encoding="utf-8")
    issues: list = []
    table = read_csv(path, "source_pages", issues, free_text={"text"})
    assert issues == [] and [r.values["text"] for r in table.rows] == [page, "둘째 쪽"]
    assert [r.line for r in table.rows] == [2, 6]
    issues = []
    plain = read_csv(path, "source_pages", issues)
    # in a plain column the same cell reads as a lone quote: an issue at its line, and the
    # lines after it read as rows of their own
    assert issues and issues[0].line == 2 and issues[0].column == "text" and plain.rows[0].line == 3
