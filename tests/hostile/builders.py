"""Every hostile file of issue 19, built on the spot: ``build_all(folder)`` writes each
one and returns ``{name: path}``.  The hostile-input sweep
(``tests/hostile/test_sweep.py``, ``scripts/hostile_sweep.py``) sends each through every
entry point; ``benchmarks/budgets.py`` times the analysis ones.

The builders of reading attacks live in :mod:`tests.hostile.inputs`; the ones here make
the analyses work: many flags each tested once (the stuck search is exponential in
them), many overlapping branches on one scene (the covering-set search is quadratic in
them), wide headers, deep conditions, and output-safety attacks.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Callable

from tests.hostile import inputs

HEADER = ("scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
          "flag,label,type,min_value,max_value,values")


def _write(path: Path, rows: list[str]) -> Path:
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def many_flags(folder: Path, n: int = 22) -> Path:
    """One scene whose ``n`` int flags (0–10) are each tested once, ``fN > 5``: every
    flag has three classes, and 2^n sub-cubes leave the reader stuck (1.6 KB at 22)."""
    names = [f"f{i}" for i in range(n)]
    rows = [HEADER, f"S0,시작,Y,N,{'|'.join(names)},,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,"]
    rows += [f",,,,,B{i},S0,S1,{f} > 5,{i + 1},,,,,," for i, f in enumerate(names)]
    rows += [f",,,,,,,,,,{f},{f},int,0,10," for f in names]
    return _write(folder / f"flags{n}.csv", rows)


def overlapping_branches(folder: Path, n: int = 2000) -> Path:
    """One scene with ``n`` branches on one int flag: the first half each hold at one
    value (``t == i``), the second half at ranges (``t >= k``) that only many of the
    first half cover together, so every later branch is shadowed and its covering set
    is a search over hundreds of earlier branches."""
    half = n // 2
    rows = [HEADER, "S0,시작,Y,N,t,,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,"]
    rows += [f",,,,,A{i},S0,S1,t == {i},{i + 1},,,,,," for i in range(half)]
    rows += [f",,,,,B{i},S0,S1,t >= {i % half},{half + i + 1},,,,,," for i in range(n - half)]
    rows.append(f",,,,,,,,,,t,t,int,0,{half - 1},")
    return _write(folder / f"overlap{n}.csv", rows)


def sliding_windows(folder: Path, n: int = 2000) -> Path:
    """One scene with ``n`` branches ``t >= i and t <= i + n/2``: every pair overlaps."""
    rows = [HEADER, "S0,시작,Y,N,t,,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,"]
    rows += [f",,,,,B{i},S0,S1,t >= {i} and t <= {i + n // 2},{i + 1},,,,,," for i in range(n)]
    rows.append(",,,,,,,,,,t,t,int,0,100000,")
    return _write(folder / f"windows{n}.csv", rows)


def not_equal_grid(folder: Path, values: int = 20, n: int = 2400) -> Path:
    """One scene on a flag of ``values`` values: one branch per value, then ``n``
    branches ``t != k``, each covered only by a pair of earlier ones (more than 24
    earlier branches: the irredundant-set search of the class enumeration)."""
    rows = [HEADER, "S0,시작,Y,N,t,,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,"]
    rows += [f",,,,,A{i},S0,S1,t == {i},{i + 1},,,,,," for i in range(values)]
    rows += [f",,,,,B{i},S0,S1,t != {i % values},{values + i + 1},,,,,," for i in range(n)]
    rows.append(f",,,,,,,,,,t,t,int,0,{values - 1},")
    return _write(folder / f"noteq{n}.csv", rows)


def many_available_flags(folder: Path, n: int = 3000) -> Path:
    """A scene listing ``n`` flags in ``available_flags`` (more than Python's recursion
    limit) of which its one condition tests the last."""
    names = [f"f{i}" for i in range(n)]
    rows = [HEADER, f"S0,시작,Y,N,{'|'.join(names)},,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,",
            f",,,,,B0,S0,S1,{names[-1]} > 5,1,,,,,,"]
    rows += [f",,,,,,,,,,{f},{f},int,0,10," for f in names]
    return _write(folder / f"available{n}.csv", rows)


def condition(folder: Path, name: str, text: str) -> Path:
    rows = [HEADER, "S0,시작,Y,N,t,,,,,,,,,,,", "S1,끝,N,Y,,,,,,,,,,,,",
            f',,,,,B0,S0,S1,"{text}",1,,,,,,', ",,,,,,,,,,t,t,int,0,10,"]
    return _write(folder / name, rows)


def wide_header(folder: Path, columns: int = 5_000_000) -> Path:
    path = folder / f"wide{columns}.csv"
    with path.open("w", encoding="utf-8") as f:
        f.write("scene_idd,titel,is_entry,is_ending," + ",".join(f"x{i}" for i in range(columns)) + "\n")
        f.write("S1,시작,Y,Y\n")
    return path


def evil_text(folder: Path) -> Path:
    """Titles, ids and conditions with ESC/OSC/BEL, a right-to-left override and
    workflow commands after line breaks."""
    doc = {
        "scene_states": [
            {"scene_id": "A", "title": "등대\x1b]0;pwned\x07 \x1b[2J입구\u202eevil", "is_entry": True, "is_ending": False,
             "available_flags": "trust"},
            {"scene_id": "B\n::warning::injected", "title": "끝\u2028다음 줄", "is_entry": False, "is_ending": True},
        ],
        "story_branches": [
            {"branch_id": "b1", "from_scene": "A", "to_scene": "B\n::warning::injected", "condition_expr": "::error file=x::pwned",
             "order_no": 1},
            {"branch_id": "b2", "from_scene": "A", "to_scene": "C\x1b[31m", "condition_expr": "trust >= 1", "order_no": 2},
        ],
        "flag_spec": [{"flag": "trust", "label": "신뢰\x07도", "type": "int", "min_value": 0, "max_value": 5}],
    }
    path = folder / "evil.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return path


def lone_quote(folder: Path) -> Path:
    rows = list(inputs.SMALL_STORY)
    rows[0] += '"'
    return inputs.union_csv(folder, rows, "lone-quote.csv")


def duplicate_keys(folder: Path) -> Path:
    path = folder / "dup.json"
    path.write_text('{\n"scene_states": [\n  {"scene_id": "S1", "is_entry": true, "is_ending": true,\n   "scene_id": "S9"}\n],\n'
                    '"story_branches": [],\n"scene_states": []\n}\n', encoding="utf-8")
    return path


def broken_utf16(folder: Path) -> Path:
    return inputs.bytes_file(folder, "odd-utf16.csv", b"\xff\xfe" + "scene_id".encode("utf-16-le") + b"\x00")


def symlink_loop(folder: Path) -> Path:
    (folder / "loop-a.csv").symlink_to(folder / "loop-b.csv")
    (folder / "loop-b.csv").symlink_to(folder / "loop-a.csv")
    return folder / "loop-a.csv"


def fifo(folder: Path) -> Path:
    os.mkfifo(folder / "fifo.csv")
    return folder / "fifo.csv"


#: name -> (builder of the file in a folder, whether it is slow to build or lint: only in the full sweep)
BUILDERS: dict[str, tuple[Callable[[Path], Path], bool]] = {
    "flags22": (lambda d: many_flags(d, 22), False),
    "flags24": (lambda d: many_flags(d, 24), False),
    "overlap2000": (lambda d: overlapping_branches(d, 2000), False),
    "overlap5000": (lambda d: overlapping_branches(d, 5000), True),
    "windows2000": (lambda d: sliding_windows(d, 2000), True),
    "noteq2400": (lambda d: not_equal_grid(d, 20, 2400), False),
    "available3000": (lambda d: many_available_flags(d, 3000), False),
    "parens244": (lambda d: condition(d, "parens.csv", "(" * 244 + "t > 1" + ")" * 244), False),
    "not978": (lambda d: condition(d, "nots.csv", "not " * 978 + "t > 1"), False),
    "int4400": (lambda d: condition(d, "bigint.csv", "t > " + "9" * 4400), False),
    "wide5m": (lambda d: wide_header(d), True),
    "evil-text": (evil_text, False),
    "lone-quote": (lone_quote, False),
    "dup-keys": (duplicate_keys, False),
    "utf16-odd": (broken_utf16, False),
    "billion-laughs": (lambda d: inputs.billion_laughs(d), False),
    "nested480-json": (lambda d: inputs.deeply_nested(d, 480, ".json"), False),
    "nested480-yaml": (lambda d: inputs.deeply_nested(d, 480, ".yaml"), False),
    "yaml10mb": (lambda d: inputs.big_yaml(d, 10), True),
    "xlsx-dtd": (lambda d: inputs.dtd_xlsx(d), False),
    "xlsx-truncated": (lambda d: inputs.truncated_xlsx(d), False),
    "xlsx-zip-bomb": (lambda d: inputs.zip_bomb(d, 300), True),
    "symlink-loop": (symlink_loop, False),
    "fifo": (fifo, False),
}


def build(name: str, folder: Path) -> Path:
    """The hostile file ``name`` of :data:`BUILDERS`, written in its own sub-folder."""
    own = folder / name
    own.mkdir(parents=True, exist_ok=True)
    return BUILDERS[name][0](own)


def build_all(folder: Path, slow: bool = True) -> dict[str, Path]:
    return {name: build(name, folder) for name, (_, is_slow) in BUILDERS.items() if slow or not is_slow}


# ------------------------------------------------------------- the readers of issue 32 (one way to open a file)


def ink_include_dev_zero(folder: Path) -> Path:
    """The 32-byte story of issue 32: an ink file that includes ``/dev/zero``."""
    path = folder / "include-zero.ink"
    path.write_text("INCLUDE /dev/zero\n시작\n-> END\n", encoding="utf-8")
    return path


def link_to_dev_zero(name: str) -> Callable[[Path], Path]:
    """A story or mail file that is a symbolic link to ``/dev/zero`` (a pull request can carry one)."""
    def build(folder: Path) -> Path:
        (folder / name).symlink_to("/dev/zero")
        return folder / name
    return build


def fifo_named(name: str) -> Callable[[Path], Path]:
    def build(folder: Path) -> Path:
        os.mkfifo(folder / name)
        return folder / name
    return build


def choicescript_scene_dev_zero(folder: Path) -> Path:
    """A ChoiceScript game whose second scene file links to ``/dev/zero``."""
    game = folder / "game"
    game.mkdir()
    (game / "startup.txt").write_text("*scene_list\n  startup\n  zero\n\n시작\n*finish\n", encoding="utf-8")
    (game / "zero.txt").symlink_to("/dev/zero")
    return game


def maildir_with_fifo(folder: Path) -> Path:
    box = folder / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    os.mkfifo(box / "cur" / "1.host:2,S")
    return box


READER_BUILDERS: dict[str, tuple[Callable[[Path], Path], bool]] = {
    "ink-include-dev-zero": (ink_include_dev_zero, False),
    "ink-link-dev-zero": (link_to_dev_zero("story.ink"), False),
    "twee-fifo": (fifo_named("story.twee"), False),
    "yarn-link-dev-zero": (link_to_dev_zero("story.yarn"), False),
    "choicescript-scene-dev-zero": (choicescript_scene_dev_zero, False),
    "eml-fifo": (fifo_named("mail.eml"), False),
    "mbox-link-dev-zero": (link_to_dev_zero("box.mbox"), False),
    "maildir-fifo": (maildir_with_fifo, False),
}
BUILDERS.update(READER_BUILDERS)
