"""Hostile and broken input files, built on the spot (nothing large is committed), and
a runner for the real commands in a subprocess with bounded time and memory.

Every builder writes into a folder it is given and returns the path to lint.  The
runner (:func:`run_bounded`) limits the address space of the command to
:data:`MEMORY_LIMIT` (1 GiB) and its wall-clock time; a test then asserts the exit code,
that stderr holds no ``Traceback``, and what the report says.
"""

from __future__ import annotations

import io
import json
import os
import resource
import shutil
import subprocess
import sys
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
EXAMPLES = ROOT / "examples"
MEMORY_LIMIT = 1 << 30  # RLIMIT_AS of every command run here

UNION_HEADER = "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no"


@dataclass
class Outcome:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self):
        return json.loads(self.stdout)

    def issues(self) -> list[dict]:
        data = self.json()
        return data["issues"] if isinstance(data, dict) else [i for item in data for i in item.get("issues", [])]


def _limits(memory: int, nobody: bool):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        if nobody:
            os.setgid(65534)
            os.setuid(65534)

    return apply


def run_bounded(*args: str | os.PathLike, timeout: float = 60, memory: int = MEMORY_LIMIT, stdin=subprocess.DEVNULL,
                nobody: bool = False, env: dict | None = None) -> Outcome:
    """Run an installed console script (``storygraph``, ``verdicts``) with at most
    ``memory`` bytes of address space and ``timeout`` seconds; ``nobody`` drops root's
    rights first (so that a missing permission is really missing)."""
    command, *rest = map(str, args)
    started = time.monotonic()
    full_env = {**os.environ, "VERDICTS_JOBS": "1", **(env or {})}
    proc = subprocess.run([str(BIN / command), *rest], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          stdin=stdin, preexec_fn=_limits(memory, nobody), env=full_env)
    return Outcome(proc.returncode, proc.stdout, proc.stderr, time.monotonic() - started)


def assert_clean(outcome: Outcome, code: int | tuple[int, ...]) -> None:
    """No traceback, and the exit code expected."""
    codes = code if isinstance(code, tuple) else (code,)
    assert "Traceback" not in outcome.stderr, outcome.stderr[-3000:]
    assert outcome.code in codes, f"exit {outcome.code}\nstdout:\n{outcome.stdout[-2000:]}\nstderr:\n{outcome.stderr[-2000:]}"


# --------------------------------------------------------------------------- the five entry points

GOLDS = {"storygraph": "target_no,verdict\nS1,끝까지 닿음\n", "robot": "task_id,verdict\npick-bin-A01,배포 후보\n"}


def entry_command(entry: str, path: Path, work: Path) -> list[str | os.PathLike]:
    """The command line of one entry point reading ``path``."""
    if entry == "lint":
        return ["storygraph", "lint", path, "--format", "json", "--quiet", "--jobs", "1"]
    if entry == "render":
        return ["storygraph", "render", path, "-o", work / "out.dot"]
    if entry == "grade":
        gold = work / "gold.csv"
        gold.write_text(GOLDS["storygraph"], encoding="utf-8")
        return ["storygraph", "grade", path, gold]
    if entry == "robot-run":
        return ["verdicts", "run", "robot", path, "--format", "json"]
    if entry == "robot-grade":
        gold = work / "gold.csv"
        gold.write_text(GOLDS["robot"], encoding="utf-8")
        return ["verdicts", "grade", "robot", path, gold]
    raise ValueError(entry)


ENTRIES = ("lint", "render", "grade", "robot-run", "robot-grade")


# --------------------------------------------------------------------------- CSV

def union_csv(folder: Path, rows: list[str], name: str = "scenario.csv", header: str = UNION_HEADER) -> Path:
    path = folder / name
    path.write_text(header + "\n" + "".join(r + "\n" for r in rows), encoding="utf-8")
    return path


SMALL_STORY = [
    "S1,시작,Y,N,,,,,,",
    "S2,갈림길,N,N,,,,,,",
    "S3,끝,N,Y,,,,,,",
    ",,,,,B1,S1,S2,,1",
    ",,,,,B2,S2,S3,,1",
]


def robot_round(folder: Path) -> Path:
    """A copy of the example round (three CSVs) to plant a defect in."""
    round_folder = folder / "round"
    round_folder.mkdir()
    for name in ("evaluation_run", "task_spec", "dataset_index"):
        shutil.copy(EXAMPLES / "robot" / f"{name}.csv", round_folder / f"{name}.csv")
    return round_folder


# --------------------------------------------------------------------------- JSON and YAML

def billion_laughs(folder: Path, name: str = "bomb.yaml") -> Path:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i, letter in enumerate("bcdefghi"):
        prev = "abcdefghi"[i]
        lines.append(f"{letter}: &{letter} [" + ",".join([f"*{prev}"] * 9) + "]")
    lines.append("scene_states: [{scene_id: *i, is_entry: true}]")
    lines.append("story_branches: []")
    lines.append("evaluation_run: [{task_id: *i}]")
    lines.append("task_spec: [{task_id: *i}]")
    lines.append("dataset_index: []")
    path = folder / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def deeply_nested(folder: Path, depth: int, suffix: str) -> Path:
    value = "[" * depth + "1" + "]" * depth
    text = ('{"scene_states": [{"scene_id": "S1", "is_entry": true, "is_ending": true, "title": ' + value + '}], '
            '"story_branches": [], "task_spec": [{"task_id": "t", "required_skill": ' + value + '}]}')
    path = folder / f"deep{depth}{suffix}"
    path.write_text(text + "\n", encoding="utf-8")
    return path


def big_yaml(folder: Path, megabytes: int = 10) -> Path:
    path = folder / "big.yaml"
    with path.open("w", encoding="utf-8") as f:
        f.write("scene_states:\n")
        i = 0
        written = 0
        while written < megabytes * 1024 * 1024:
            line = f"  - {{scene_id: S{i}, title: 장면 {i}, is_entry: {'true' if i == 0 else 'false'}, is_ending: false}}\n"
            f.write(line)
            written += len(line.encode())
            i += 1
        f.write("story_branches: []\n")
    return path


# --------------------------------------------------------------------------- xlsx

_CONTENT_TYPES = ('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                  '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                  '<Default Extension="xml" ContentType="application/xml"/></Types>')
_ROOT_RELS = ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
              '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
              'Target="xl/workbook.xml"/></Relationships>')


def _workbook(sheets: list[str]) -> str:
    items = "".join(f'<sheet name="{n}" sheetId="{i + 1}" r:id="rId{i + 1}"/>' for i, n in enumerate(sheets))
    return ('<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
            'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
            f'<sheets>{items}</sheets></workbook>')


def _workbook_rels(sheets: list[str], shared: bool = False) -> str:
    items = "".join(f'<Relationship Id="rId{i + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
                    f'Target="worksheets/sheet{i + 1}.xml"/>' for i in range(len(sheets)))
    if shared:
        items += ('<Relationship Id="rIdS" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
                  'Target="sharedStrings.xml"/>')
    return ('<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            f'{items}</Relationships>')


def sheet_xml(rows: list[list[str]]) -> str:
    """A sheet whose cells are given as raw ``<c>`` contents keyed by position:
    each cell is either plain text (an inline string) or starts with ``<`` (raw XML
    inside ``<c>``, with ``t=`` given as ``t:KIND|`` prefix)."""
    out = []
    for r, cells in enumerate(rows, start=1):
        parts = []
        for c, cell in enumerate(cells):
            ref = f"{chr(65 + c)}{r}"
            if cell.startswith("t:"):
                kind, _, inner = cell[2:].partition("|")
                parts.append(f'<c r="{ref}" t="{kind}">{inner}</c>' if kind else f'<c r="{ref}">{inner}</c>')
            elif cell:
                parts.append(f'<c r="{ref}" t="inlineStr"><is><t>{cell}</t></is></c>')
        out.append(f'<row r="{r}">{"".join(parts)}</row>')
    return ('<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
            f'<sheetData>{"".join(out)}</sheetData></worksheet>')


def xlsx(folder: Path, sheets: dict[str, str], name: str = "book.xlsx", shared: list[str] | None = None) -> Path:
    """A workbook of ``{sheet name: sheet XML}`` written part by part, with a shared
    strings part when ``shared`` is given (cells point at it as ``t:s|<v>N</v>``)."""
    path = folder / name
    names = list(sheets)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _workbook(names))
        z.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(names, shared is not None))
        if shared is not None:
            items = "".join(f"<si><t>{text}</t></si>" for text in shared)
            z.writestr("xl/sharedStrings.xml", '<?xml version="1.0" encoding="UTF-8"?>'
                       f'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">{items}</sst>')
        for i, n in enumerate(names):
            z.writestr(f"xl/worksheets/sheet{i + 1}.xml", sheets[n])
    return path


def named_sheets(names: list[str] | None) -> dict[str, str]:
    """The story's two sheets, or when ``names`` are given one small sheet per name."""
    if names is None:
        return story_sheets()
    return {n: sheet_xml([["task_id", "required_skill"], ["t1", "pick"]]) for n in names}


def story_sheets(scene_cells: list[list[str]] | None = None) -> dict[str, str]:
    scenes = scene_cells or [["scene_id", "title", "is_entry", "is_ending"], ["S1", "시작", "Y", "N"], ["S2", "끝", "N", "Y"]]
    branches = [["branch_id", "from_scene", "to_scene", "condition_expr", "order_no"], ["B1", "S1", "S2", "", "t:|<v>1</v>"]]
    return {"scene_states": sheet_xml(scenes), "story_branches": sheet_xml(branches)}


def zip_bomb(folder: Path, megabytes: int = 300) -> Path:
    """A workbook whose one sheet inflates to ``megabytes`` of zeros from a few hundred
    kilobytes (written in chunks: the test process never holds it)."""
    path = folder / "bomb.xlsx"
    names = ["scene_states"]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _workbook(names))
        z.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(names))
        chunk = b"0" * (1 << 20)
        with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as f:
            for _ in range(megabytes):
                f.write(chunk)
    return path


def truncated_xlsx(folder: Path, names: list[str] | None = None) -> Path:
    sheets = named_sheets(names)
    first = next(iter(sheets))
    sheets[first] = sheets[first][: len(sheets[first]) // 2]
    return xlsx(folder, sheets, name="truncated.xlsx")


def dtd_xlsx(folder: Path, names: list[str] | None = None) -> Path:
    sheets = named_sheets(names)
    first = next(iter(sheets))
    body = sheets[first].split("?>", 1)[1]
    sheets[first] = ('<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
                     '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>' + body.replace("시작", "&b;"))
    return xlsx(folder, sheets, name="dtd.xlsx")


def bytes_file(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def in_memory_xlsx(sheets: dict[str, str]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", _CONTENT_TYPES)
        z.writestr("_rels/.rels", _ROOT_RELS)
        z.writestr("xl/workbook.xml", _workbook(list(sheets)))
        z.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(list(sheets)))
        for i, n in enumerate(sheets):
            z.writestr(f"xl/worksheets/sheet{i + 1}.xml", sheets[n])
    return buffer.getvalue()
