"""Incremental re-lint (issue 20, item 4): after random edits of generated scenarios, the
report of :class:`storygraph.incremental.IncrementalLint` is the same, byte for byte, as
a full lint of the edited file, in text and in JSON — and what is kept is really kept
(a one-row edit decides one scene again and makes a handful of cards).

The edits: add, remove or rename a scene; change a condition (another one, an empty
one, one that does not parse, one with an undeclared flag), an ``order_no`` (another
number, a repeated one, one that is no number), a flag's range or values, a branch's
``kind`` (auto/choice), its ``to_scene``, a scene's ``is_entry``/``is_ending`` or its
``available_flags``.  ``STORYGRAPH_DEEP=1`` runs many more examples.
"""

from __future__ import annotations

import csv
import io
import os
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from storygraph.domain import DOMAIN, lint
from storygraph.fuzz import KINDS, UNION_COLUMNS, generate
from storygraph.fuzz.scenario import MENU_KINDS
from storygraph.incremental import IncrementalLint
from verdicts.reporters import REPORTERS

from .strategies import plans

DEEP = bool(os.environ.get("STORYGRAPH_DEEP"))
EXAMPLES = 300 if DEEP else 25

EDITS = ("add_scene", "remove_scene", "rename_scene", "condition", "order_no", "flag_range", "kind", "to_scene",
         "entry_ending", "available_flags")


def _csv(rows: list[dict[str, str]], menus: bool) -> str:
    columns = list(UNION_COLUMNS) + (["kind"] if menus else [])
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow({c: r.get(c, "") for c in columns})
    return buf.getvalue()


def _edit(rows: list[dict[str, str]], what: str, rng: random.Random) -> None:
    """Apply one edit of kind ``what`` to the union rows, in place."""
    scenes = [r for r in rows if r.get("scene_id")]
    branches = [r for r in rows if r.get("branch_id")]
    flags = [r for r in rows if r.get("flag") and not r.get("scene_id")]
    ids = [r["scene_id"] for r in scenes]
    if what == "add_scene":
        new = f"NEW-{rng.randrange(10**6)}"
        row = {"scene_id": new, "title": rng.choice(["", "새 장면"]), "is_entry": "N", "is_ending": rng.choice(["Y", "N"]),
               "available_flags": ""}
        rows.insert(rng.randrange(len(rows) + 1), row)
        if ids and rng.random() < 0.7:  # and a branch to it
            rows.insert(rng.randrange(len(rows) + 1), {"branch_id": f"BR-{new}", "from_scene": rng.choice(ids), "to_scene": new,
                                                       "condition_expr": "", "order_no": str(rng.randint(1, 9))})
    elif what == "remove_scene" and scenes:
        rows.remove(rng.choice(scenes))
    elif what == "rename_scene" and scenes:
        row = rng.choice(scenes)
        old, new = row["scene_id"], rng.choice([f"RN-{rng.randrange(10**6)}", rng.choice(ids)])
        row["scene_id"] = new
        if rng.random() < 0.5:  # and the branches that name it
            for b in branches:
                for end in ("from_scene", "to_scene"):
                    if b.get(end) == old:
                        b[end] = new
    elif what == "condition" and branches:
        b = rng.choice(branches)
        others = [x["condition_expr"] for x in branches if x.get("condition_expr")]
        b["condition_expr"] = rng.choice([
            "", rng.choice(others) if others else "", f"not ({b.get('condition_expr') or 'true'})", "trust >",
            "nobody_knows == 1", f"{b.get('condition_expr') or 'true'} or has_key",
        ])
    elif what == "order_no" and branches:
        b = rng.choice(branches)
        same = [x for x in branches if x.get("from_scene") == b.get("from_scene") and x is not b]
        b["order_no"] = rng.choice([str(rng.randint(1, 6)), same[0]["order_no"] if same else "1", "x", "0", ""])
    elif what == "flag_range" and flags:
        f = rng.choice(flags)
        if f.get("type") == "int":
            lo = rng.randint(-2, 3)
            f["min_value"], f["max_value"] = str(lo), str(lo + rng.randint(-1, 9))
        elif f.get("type") == "enum":
            f["values"] = rng.choice(["맑음|흐림", "맑음|흐림|비|눈|안개", "|맑음", "북쪽|남쪽"])
        else:
            f["type"] = rng.choice(["bool", "int", "colour"])
    elif what == "kind" and branches:
        b = rng.choice(branches)
        b["kind"] = rng.choice(["auto", "choice", "choice", "", "menu"])
    elif what == "to_scene" and branches:
        b = rng.choice(branches)
        b["to_scene"] = rng.choice(ids + ["NOWHERE"]) if ids else "NOWHERE"
    elif what == "entry_ending" and scenes:
        s = rng.choice(scenes)
        key = rng.choice(["is_entry", "is_ending"])
        s[key] = "N" if s.get(key) in ("Y", "true", "1", "참", "yes") else "Y"
    elif what == "available_flags" and scenes:
        s = rng.choice(scenes)
        names = [f["flag"] for f in flags]
        s["available_flags"] = ",".join(rng.sample(names, rng.randint(0, len(names)))) if names else ""


def _full(path: Path) -> tuple[bytes, bytes]:
    report = lint(path)
    return (b"".join(REPORTERS["text"].pieces(report, DOMAIN)), b"".join(REPORTERS["json"].pieces(report, DOMAIN)))


def _incremental(linter: IncrementalLint, path: Path) -> tuple[bytes, bytes]:
    report = linter.lint(path)
    return linter.render(report, "text"), linter.render(report, "json")


def _first_lint(tmp_path: Path, seed: int, gen, menus: bool):
    """The generated scenario written as CSV and linted once incrementally (the same
    report as a full lint): its rows, whether it has menus, the edits' random source,
    its path and the linter that keeps what it made."""
    rows = gen.rows()
    menus = menus or any(r.get("kind") for r in rows)
    path = tmp_path / f"s{seed}.csv"
    path.write_text(_csv(rows, menus), encoding="utf-8")
    linter = IncrementalLint()
    assert _incremental(linter, path) == _full(path)
    return rows, menus, random.Random(seed), path, linter


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), plan=plans(40, 80), menus=st.booleans(),
       edits=st.lists(st.lists(st.sampled_from(EDITS), min_size=1, max_size=3), min_size=1, max_size=4))
def test_incremental_report_is_the_full_report(tmp_path, seed, plan, menus, edits):
    scenes, plant = plan  # fewer plants (no menu kinds) need no more scenes
    if not menus:
        plant = {k: 0 if k in MENU_KINDS else n for k, n in plant.items()}
    rows, menus, rng, path, linter = _first_lint(tmp_path, seed, generate(seed, scenes, flags=4, plant=plant), menus)
    for save in edits:
        for what in save:
            _edit(rows, what, rng)
        path.write_text(_csv(rows, menus), encoding="utf-8")
        text, json = _incremental(linter, path)
        full_text, full_json = _full(path)
        assert text == full_text, save
        assert json == full_json, save


def test_a_one_row_edit_is_made_again_alone(tmp_path):
    """A changed condition: its scene is decided again and only the cards that cite the
    branch or its scene's decision are made again; the report is the full one."""
    gen = generate(11, 60, flags=4)
    rows = gen.rows()
    path = tmp_path / "scenario.csv"
    path.write_text(_csv(rows, False), encoding="utf-8")
    linter = IncrementalLint()
    linter.lint(path)
    assert linter.last["cards kept"] == 0
    branch = next(r for r in rows if r.get("branch_id") and r.get("condition_expr"))
    siblings = sum(1 for r in rows if r.get("from_scene") == branch["from_scene"])
    branch["condition_expr"] = f"not ({branch['condition_expr']})"
    path.write_text(_csv(rows, False), encoding="utf-8")
    report = linter.lint(path)
    assert linter.last["scenes decided"] == 1
    assert 1 <= linter.last["cards made"] <= siblings
    assert linter.last["check runs"] == 1
    assert linter.render(report, "json") == _full(path)[1]
    assert linter.last["read"] == "rows 1"  # the changed line alone was read again
    again = linter.lint(path)  # saved again unchanged: nothing is made
    assert (linter.last["scenes decided"], linter.last["cards made"], linter.last["check runs"]) == (0, 0, 0)
    assert linter.last["read"] == "same" and linter.last["finding units found"] == 0
    assert linter.render(again, "text") == _full(path)[0]


@pytest.mark.parametrize("example", ["lighthouse"])
def test_accepted_findings_and_an_unchanged_example(example, tmp_path):
    """A bundled example with its configuration (acceptances mark cards): the same report
    as the full lint, twice."""
    from storygraph.domain import find_config, load_config
    from tests.conftest import EXAMPLES as ROOT

    path = ROOT / example / "scenario.csv"
    config = load_config(find_config(path))
    linter = IncrementalLint()
    for _ in range(2):
        report = linter.lint(path, config)
        full = lint(path, config)
        for fmt in ("text", "json"):
            assert linter.render(report, fmt) == b"".join(REPORTERS[fmt].pieces(full, DOMAIN))


IN_PLACE = ("condition", "order_no", "kind", "to_scene", "entry_ending", "available_flags", "title", "bad_cell", "flag_range")


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), menus=st.booleans(),
       edits=st.lists(st.lists(st.sampled_from(IN_PLACE), min_size=1, max_size=3), min_size=1, max_size=5))
def test_rows_read_again_alone_give_the_full_report(tmp_path, seed, menus, edits):
    """Edits that keep every line where it was (a scene's or a branch's cells changed,
    a cell that does not read, a flag's range) — the file is read again line by line
    where it can (:mod:`storygraph.reread`), and the report is the full lint's."""
    gen = generate(seed, 50, flags=4, plant={k: 1 for k in KINDS if menus or k not in MENU_KINDS})
    rows, menus, rng, path, linter = _first_lint(tmp_path, seed, gen, menus)
    by_rows = 0
    for save in edits:
        for what in save:
            if what == "title":
                s = rng.choice([r for r in rows if r.get("scene_id")])
                s["title"] = rng.choice(["", "다른 이름", s["scene_id"], "  여백 "])
            elif what == "bad_cell":
                b = rng.choice([r for r in rows if r.get("branch_id")])
                b["order_no"] = rng.choice(["둘", "-1", "1.5"])
            else:
                _edit(rows, what, rng)
        path.write_text(_csv(rows, menus), encoding="utf-8")
        text, json = _incremental(linter, path)
        by_rows += linter.last["read"].startswith("rows") or linter.last["read"] == "same"
        full_text, full_json = _full(path)
        assert text == full_text, save
        assert json == full_json, save
    if not any(w in ("bad_cell", "flag_range", "order_no") for save in edits for w in save):
        assert by_rows == len(edits)  # (a bad cell or a flag_spec row is read in full)


def test_a_story_followed_by_the_incremental_lint_has_its_import_check_once(tmp_path):
    # a story read by an importer carries its import self-check, after the schema check,
    # once — the incremental re-lint finishes through Domain.finish as the full lint does
    story = tmp_path / "lighthouse.ink"
    story.write_bytes((Path(__file__).resolve().parents[2] / "examples" / "ink" / "lighthouse.ink").read_bytes())
    report = IncrementalLint().lint(story)
    ids = [c.id for c in report.checks]
    assert ids == [c.id for c in lint(story).checks]
    assert len(ids) == len(set(ids)) and ids[-1] != "SCHEMA"
    for fmt in ("json", "text"):
        assert b"".join(REPORTERS[fmt].pieces(report, DOMAIN)) == b"".join(REPORTERS[fmt].pieces(lint(story), DOMAIN))
