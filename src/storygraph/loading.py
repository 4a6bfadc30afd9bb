"""Reading a scenario from any of the four accepted forms into a :class:`Scenario`.

1. one CSV holding the union of the three tables' columns (a row with ``branch_id`` is
   a branch, a row with ``flag`` and neither ``scene_id`` nor ``branch_id`` is a flag,
   any other row is a scene);
2. a folder with ``scene_states.csv``, ``story_branches.csv`` and optionally
   ``flag_spec.csv``;
3. an ``.xlsx`` workbook with sheets of those names;
4. a JSON or YAML document with those three keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from verdicts.korean import code, josa
from verdicts.model import InputIssue
from verdicts.errors import InputError
from verdicts.tables import RawRow, RawTable, Row, TypedTable, load_typed_tables, path_kind, shared_index

from .model import TABLE_SPECS, Branch, Flag, FlagType, Scenario, Scene
from .batch import is_folder_scenario, table_files
from .stories import folder_story, point_at_story, story_format, write_story_csv

__all__ = ["load_scenario", "split_union", "scene_of", "branch_of", "UNION"]

UNION = "scenario"


def split_union(union: RawTable) -> dict[str, RawTable]:
    """Split a union CSV into the three tables by which id cells a row fills."""
    header = set(union.columns)
    own = {spec.name: set(spec.column_names) for spec in TABLE_SPECS}
    all_known = set().union(*own.values())
    parts: dict[str, list[RawRow]] = {spec.name: [] for spec in TABLE_SPECS}
    index = shared_index(union.rows)
    if index is not None:
        # rows read from one CSV file: test the id cells in place, without a dict per row
        scenes, branches, flags = parts["scene_states"], parts["story_branches"], parts["flag_spec"]
        b, f, s = index.get("branch_id"), index.get("flag"), index.get("scene_id")
        for row in union.rows:
            cells = row.cells
            assert cells is not None  # read from CSV with the shared index
            if b is not None and cells[b].strip():
                branches.append(row)
            elif f is not None and cells[f].strip() and not (s is not None and cells[s].strip()):
                flags.append(row)
            else:
                scenes.append(row)
    else:
        for row in union.rows:
            v = row.values
            if v.get("branch_id"):
                parts["story_branches"].append(row)
            elif v.get("flag") and not v.get("scene_id"):
                parts["flag_spec"].append(row)
            else:
                parts["scene_states"].append(row)
    tables = {}
    for spec in TABLE_SPECS:
        if spec.name == "flag_spec" and not (header & own["flag_spec"]):
            continue  # the file carries no flag table at all
        # columns of this table, plus unknown ones (so a misspelt column can be suggested)
        columns = [c for c in union.columns if c in own[spec.name] or c not in all_known]
        if index is not None:
            # the table's rows share the union's cells, read through the table's own columns
            own_index = {c: index[c] for c in columns}
            rows = [RawRow(r.line, None, r.cells, own_index) for r in parts[spec.name]]
        else:
            rows = [RawRow(r.line, {c: r.values.get(c) for c in columns}) for r in parts[spec.name]]
        tables[spec.name] = RawTable(spec.name, union.file, union.form, union.encoding, columns, rows, union.header_line)
    return tables


def _is_dir(path: Path) -> bool:
    try:
        return path_kind(path) == "dir"
    except InputError:
        return False  # reading it says why


def load_scenario(path: str | Path) -> Scenario:
    """Read and type a scenario.  Bad rows and missing columns become issues on the
    returned :class:`Scenario`; :class:`~verdicts.errors.InputError` is raised only when
    nothing can be read.  A story in its own format (``.ink``, ``.ink.json``,
    ``.twee``/``.tw``, a ChoiceScript folder or ``startup.txt``, ``.yarn``) is imported
    first (:mod:`storygraph.stories`)."""
    path = Path(path)
    if _is_dir(path):
        # a folder of stories rather than tables (or both, or neither: a Korean message)
        tables = table_files(path) if not is_folder_scenario(path) else [path / "scene_states.csv"]
        found = folder_story(path, tables)
        if found is not None and found != path:
            return load_scenario(found)
    story = story_format(path)
    if story is not None:
        # a story in its own format (ink, Twee, ChoiceScript, Yarn): imported, then read as tables
        import tempfile

        with tempfile.TemporaryDirectory(prefix="storygraph-") as folder:
            csv, imported = write_story_csv(path, story, Path(folder))
            return point_at_story(load_scenario(csv), imported, path, csv)
    issues: list[InputIssue] = []
    raw, typed = load_typed_tables(path, TABLE_SPECS, issues, required=("scene_states", "story_branches"),
                                   single_csv_table=UNION, split=split_union)

    scenes: dict[str, Scene] = {}
    rejected_scene_lines: list[int] = []
    if "scene_states" in typed:
        t = typed["scene_states"]
        rejected_scene_lines = [r.line for r in t.rejected]
        if not t.rows and not t.rejected:
            # a header alone, or an emptied document: nothing would be judged, and the run must not pass
            issues.append(InputIssue(file=t.file, table=t.name, line=1 if t.form in ("csv", "xlsx") else None,
                                     reason="장면이 한 줄도 없어 판정할 대상이 없습니다."))
        # without the scene_id column no row names a scene (the missing column is an issue)
        for row in t.rows if t.has("scene_id") else ():
            scene = scene_of(row)
            scenes[scene.scene_id] = scene
    branches: list[Branch] = []
    if "story_branches" in typed:
        t = typed["story_branches"]
        # likewise a branch needs its id and both ends (a missing column is an issue)
        for row in t.rows if all(t.has(c) for c in ("branch_id", "from_scene", "to_scene")) else ():
            branches.append(branch_of(row, t, issues))
    flags: dict[str, Flag] = {}
    rejected_flags: dict[str, int] = {}
    if "flag_spec" in typed:
        t = typed["flag_spec"]
        for row in t.rows if t.has("flag") else ():
            flag = _flag_from_row(row.values, row.line, row.raw, t, issues)
            if flag is not None:
                flags[flag.flag] = flag
            else:
                rejected_flags.setdefault(row.values["flag"], row.line)
        for name in flags:
            rejected_flags.pop(name, None)
    sources = [tbl.source() for tbl in raw.values()]
    return Scenario(
        scenes=scenes, branches=branches, flags=flags, issues=issues, sources=sources,
        columns={name: set(tbl.present) for name, tbl in typed.items()},
        files={name: tbl.file for name, tbl in typed.items()},
        rejected_scene_lines=rejected_scene_lines,
        rejected_flags=rejected_flags,
        has_flag_table="flag_spec" in typed,
    )


def scene_of(row: Row) -> Scene:
    """The scene of a typed ``scene_states`` row (its table has the ``scene_id`` column)."""
    v = row.values
    get = v.get
    return Scene(v["scene_id"], get("title"), get("is_entry"), get("is_ending"), get("available_flags") or None, row.line,
                 row.raw)


def branch_of(row: Row, t: TypedTable, issues: list[InputIssue]) -> Branch:
    """The branch of a typed ``story_branches`` row of ``t`` (which has the id and both
    ends); an ``order_no`` below 1 is an issue."""
    v = row.values
    get = v.get
    order = get("order_no")
    valid = "order_no" not in row.invalid
    if order is not None and order < 1:
        issues.append(InputIssue(file=t.file, table=t.name, line=row.line, column="order_no",
                                 reason=f"`order_no` 값은 1 이상이어야 하는데 {order}입니다."))
        valid = False
    # an opaque jump has no destination we can name (``to_scene`` empty, ``jump_opaque`` 1)
    return Branch(v["branch_id"], v["from_scene"], v["to_scene"] or "", get("condition_expr"), order, row.line, row.raw, valid,
                  "condition_expr" not in row.invalid)


def _flag_from_row(v: dict, line: int, raw: dict, t: TypedTable, issues: list[InputIssue]) -> Flag | None:
    def issue(column: str | None, reason: str) -> None:
        issues.append(InputIssue(file=t.file, table=t.name, line=line, column=column, reason=reason))

    kind = (v.get("type") or "").strip().lower()
    values = tuple(v.get("values") or ())
    lo, hi = v.get("min_value"), v.get("max_value")
    if not kind:
        kind = "enum" if values else ("int" if lo is not None or hi is not None else "bool")
        if t.has("type"):
            issue("type", f"플래그 {code(v['flag'])}의 `type` 칸이 비어 있어 다른 칸을 보고 {josa(code(kind), '으로/로')} 읽었습니다.")
    if kind in ("boolean", "bool"):
        kind = "bool"
    elif kind in ("int", "integer", "number"):
        kind = "int"
    elif kind in ("enum", "choice", "str", "string"):
        kind = "enum"
    else:
        issue("type", f"`type` 칸에 적힌 {josa(code(v.get('type')), '은/는')} `bool`, `int`, `enum` 가운데 하나가 아니라 이 플래그를 쓰는 조건은 따지지 않습니다.")
        return None
    if kind == "int" and lo is not None and hi is not None and lo > hi:
        issue("min_value", f"`min_value` 값 {josa(str(lo), '이/가')} `max_value` 값 {hi}보다 커서 이 플래그를 쓰는 조건은 따지지 않습니다.")
        return None
    if kind == "enum" and not values:
        issue("values", f"열거형 플래그 {code(v['flag'])}의 `values` 칸이 비어 있어 이 플래그를 쓰는 조건은 따지지 않습니다.")
        return None
    # kind: one of the three after the reading above
    return Flag(flag=v["flag"], label=v.get("label"), type=cast(FlagType, kind), min_value=lo, max_value=hi, values=values, line=line, raw=raw)
