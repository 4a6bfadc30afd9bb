"""The ``고치는 법`` of every problem card, lint finding and input issue is verified by
applying it: the suggested edits are written into the scenario's own CSV, the scenario
is linted again, and the problem the fix addresses must be gone while no other problem
appears (a target that already had a problem card may show the verdict the fixed one
hid: ``조건이 겹침`` comes before ``끝에 못 감`` in the verdicts' order).  Over the bundled examples, the golden fuzz corpus and scenarios generated with
planted defects (hypothesis).
"""

from __future__ import annotations

import csv
import io
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import example, given, settings, strategies as st

from storygraph.conditions import parse_condition
from storygraph.domain import lint
from storygraph.fixes import KEYS, MAX_ATOMS, apply_edits, edit_distance, quoted, region_condition
from storygraph.fuzz import KINDS, generate
from storygraph.model import Flag
from storygraph.shadowing import make_flag_domain
from verdicts.korean import is_polite_sentence
from verdicts.model import Card

from ..conftest import DEEP, EXAMPLES, ROOT
from .strategies import plans

CORPUS = sorted((ROOT / "tests" / "golden" / "corpus").glob("fuzz-*.csv"))
PASSING = "끝까지 닿음"


# ----------------------------------------------------------------------------- the scenario as CSV rows


class Tables:
    """The CSV file(s) of a scenario as rows, to be edited and written again in the same
    form (one union file, or a folder of three) and encoding."""

    def __init__(self, path: Path):
        self.path = path
        self.files: dict[str, tuple[list[str], list[dict[str, str]], str]] = {}
        if path.is_dir():
            for table in KEYS:
                f = path / f"{table}.csv"
                if f.exists():
                    self.files[table] = self._read(f)
        else:
            self.files[""] = self._read(path)

    @staticmethod
    def _read(f: Path) -> tuple[list[str], list[dict[str, str]], str]:
        data = f.read_bytes()
        for encoding in ("utf-8-sig", "cp949"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
        return list(rows[0].keys()) if rows else next(csv.reader(io.StringIO(text))), rows, encoding

    def edited(self, edits, out: Path) -> Path:
        """The scenario with ``edits`` applied, written under ``out``."""
        if "" in self.files:
            header, rows, encoding = self.files[""]
            by_table = {t: [r for r in rows if (r.get(k) or "").strip()] for t, k in KEYS.items()}
            done = apply_edits(by_table, edits)
            # back into one list: each table's rows where they were, added rows at the end
            out_rows, used = [], {t: 0 for t in KEYS}
            kept = {t: {(r[KEYS[t]] or "").strip() for r in done[t]} for t in KEYS}
            new = {t: {(r[KEYS[t]] or "").strip(): r for r in done[t]} for t in KEYS}
            for r in rows:
                table = next((t for t, k in KEYS.items() if (r.get(k) or "").strip()), None)
                if table is None:
                    out_rows.append(r)
                    continue
                key = (r[KEYS[table]] or "").strip()
                if key in kept[table]:
                    out_rows.append({**r, **new[table].pop(key)})
            for t in KEYS:
                for r in new[t].values():
                    out_rows.append({h: r.get(h, "") for h in header})
            target = out / self.path.name
            self._write(target, header, out_rows, encoding)
            return target
        folder = out / self.path.name
        folder.mkdir()
        tables = {t: rows for t, (_, rows, _) in self.files.items()}
        done = apply_edits(tables, edits)
        for t, (header, _, encoding) in self.files.items():
            self._write(folder / f"{t}.csv", header, [{h: r.get(h, "") for h in header} for r in done[t]], encoding)
        return folder

    @staticmethod
    def _write(f: Path, header, rows, encoding) -> None:
        buf = io.StringIO(newline="")
        w = csv.DictWriter(buf, fieldnames=header, lineterminator="\n")
        w.writeheader()
        w.writerows(rows)
        f.write_bytes(buf.getvalue().encode("utf-8" if encoding == "utf-8-sig" else encoding))


def _row_keys(path: Path) -> dict[tuple[str, int], str]:
    """(file, physical line) -> the row's key, to name an issue by its row."""
    out = {}
    files = [path / f"{t}.csv" for t in KEYS] if path.is_dir() else [path]
    for f in files:
        if not f.exists():
            continue
        _, rows, _ = Tables._read(f)
        for i, r in enumerate(rows, start=2):
            key = next(((r.get(k) or "").strip() for k in KEYS.values() if (r.get(k) or "").strip()), None)
            if key:
                out[(str(f), i)] = key
    return out


def _problems(report, path: Path) -> dict[tuple, object]:
    """Every problem of a report by a name that survives the edit (an issue by its row's
    key, not its line)."""
    keys = _row_keys(path)
    out: dict[tuple, object] = {}
    for c in report.cards:
        if c.verdict == "조건이 겹침":  # the problem is the branch that never fires, whichever branch the card is on
            out[("shadowed", c.overlapping_branch_id, c.target_no)] = c
        elif c.verdict != PASSING:
            out[("card", c.target_no, c.verdict)] = c
    for f in report.findings:
        out[("finding", f.code, f.target)] = f
    for i in report.issues:
        row = keys.get((i.file, i.line), None) if i.line is not None else None
        # the problem, not its "did you mean" (which another fix may change or take away)
        reason = re.sub(r"\d+", "#", re.sub(r" 혹시 `.*`\S* 쓰려던 것인가요\?$", "", i.reason.split("\n")[0]))
        out[("issue", i.table, i.column, row if row is not None else i.line, reason)] = i
    return out


def _fixes(problems: dict[tuple, object]):
    for name, item in problems.items():
        fix = item.data.get("fix") if isinstance(item, Card) else item.fix  # type: ignore[attr-defined]
        if fix is not None:
            yield name, fix


def _check_every_fix(path: Path, tmp: Path) -> int:
    """Apply each fix of the scenario at ``path`` and lint again; return how many."""
    tables = Tables(path)
    (tmp / "base").mkdir()
    base = tables.edited([], tmp / "base")
    before = _problems(lint(base), base)
    checked = 0
    for n, (name, fix) in enumerate(_fixes(before)):
        text = fix["text"]
        assert is_polite_sentence(text), text
        assert not re.search(r"\((이|가|은|는|을|를|와|과|으로)\)", text), text
        if not fix["edits"]:
            continue
        out = tmp / f"fix{n}"
        out.mkdir()
        edited = tables.edited(fix["edits"], out)
        after = _problems(lint(edited), edited)
        if name[0] == "shadowed":
            assert not any(k[:2] == name[:2] for k in after), f"{name} is still there after {fix}"
        else:
            assert name not in after, f"{name} is still there after {fix}"
        # a target that had a problem card may now show the verdict the fixed one hid
        # (the verdicts' order of precedence); any other problem is new
        had = {k[1] for k in before if k[0] == "card"} | {k[2] for k in before if k[0] == "shadowed"}
        shadowed = {k[1] for k in before if k[0] == "shadowed"}
        new = {k for k in set(after) - set(before)
               if not (k[0] == "card" and k[1] in had) and not (k[0] == "shadowed" and k[1] in shadowed)}
        assert not new, f"{fix} brought {sorted(map(str, new))}"
        checked += 1
        shutil.rmtree(out)
    return checked


# ----------------------------------------------------------------------------- the examples and the corpus


@pytest.mark.parametrize("name", ["lighthouse/scenario.csv", "lighthouse-broken/scenario.csv", "lighthouse-folder",
                                  "accepted/scenario.csv", "gold/cafe.csv", "gold/palace.csv", "gold/school.csv", "gold/station.csv"])
def test_every_fix_of_the_examples_removes_its_problem_and_adds_none(name, tmp_path):
    checked = _check_every_fix(EXAMPLES / name, tmp_path)
    if name.startswith("lighthouse"):
        assert checked >= 5


def test_the_lighthouse_fixes_say_what_to_write(tmp_path):
    report = lint(EXAMPLES / "lighthouse" / "scenario.csv")
    fixes = {(f.code, f.target): f.fix for f in report.findings}
    stuck = fixes[("stuck-combination", "SC-21")]
    assert stuck["edits"][0]["row"]["condition_expr"] == 'lamp == "꺼짐" and not has_key'
    assert fixes[("comparison-out-of-range", "BR-51")]["edits"][0]["value"] == "trust >= 5"
    assert fixes[("always-true-condition", "BR-45")]["edits"][0]["value"] == "trust <= 3"
    cards = {c.target_no: c.data.get("fix") for c in report.cards}
    assert cards["BR-42"]["edits"][0]["column"] == "to_scene"
    assert cards["BR-42"]["edits"][0]["value"] in {"SC-08", "SC-18", "SC-28"}
    assert cards["BR-13"]["edits"] == [
        {"action": "set", "table": "story_branches", "row": "BR-14", "column": "order_no", "value": 3},
        {"action": "set", "table": "story_branches", "row": "BR-13", "column": "order_no", "value": 4},
    ]
    broken = lint(EXAMPLES / "lighthouse-broken" / "scenario.csv")
    syntax = [i for i in broken.issues if i.column == "condition_expr"]
    assert syntax[0].fix["edits"][0]["value"] == "trust >= 2"


@pytest.mark.slow
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_every_fix_of_the_golden_corpus_removes_its_problem_and_adds_none(path, tmp_path):
    assert _check_every_fix(path, tmp_path) > 0


def test_one_corpus_scenario_in_the_default_run(tmp_path):
    assert _check_every_fix(CORPUS[0], tmp_path) > 0


# ----------------------------------------------------------------------------- generated scenarios


def _planted(*kinds: str) -> dict[str, int]:
    return {k: int(k in kinds) for k in KINDS}


@settings(max_examples=40 if DEEP else 5)
@given(seed=st.integers(0, 2**32 - 1), plan=plans(20, 60), flags=st.integers(1, 5))
# a comparison out of range whose likely intended form cuts the flag's classes anew: the
# readers it strands are found on the new classes (a fix once missed them)
@example(seed=0, plan=(20, _planted("ending_only_through_dead_branch", "comparison_out_of_range")), flags=1)
# dropping or narrowing a shadowed branch must not leave a flag of available_flags that
# no condition tests any more (available-flag-unused after the re-lint)
@example(seed=195, plan=(20, _planted(
    "island", "shadowed_one", "loop_no_exit", "reached_only_through_dead_branch", "ending_only_through_dead_branch",
    "comparison_out_of_range", "always_true_condition", "hidden_choice")), flags=1)
@example(seed=3718170, plan=(54, _planted(
    "comparison_out_of_range", "always_true_condition", "plain_menu", "stuck_combination", "shadowed_union",
    "available_flag_unused")), flags=4)
def test_every_fix_of_a_generated_scenario_removes_its_problem_and_adds_none(seed, plan, flags, tmp_path_factory):
    scenes, plant = plan
    gen = generate(seed, scenes, flags, plant)
    tmp = tmp_path_factory.mktemp("gen")
    path = tmp / "scenario.csv"
    path.write_text(gen.to_csv(), encoding="utf-8")
    work = tmp / "work"
    work.mkdir()
    _check_every_fix(path, work)


# ----------------------------------------------------------------------------- typos


@pytest.mark.parametrize("text, want", [
    ("trust => 2", "trust >= 2"),
    ("trust =< 2", "trust <= 2"),
    ("trust >= 3 an has_key", "trust >= 3 and has_key"),
    ("trsut >= 3", "trust >= 3"),
    ("has_key & trust > 1", "has_key and trust > 1"),
])
def test_condition_typos_get_their_likely_intended_text(text, want, tmp_path):
    path = tmp_path / "scenario.csv"
    path.write_text(
        "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,flag,label,type,min_value,max_value,values\n"
        "S1,시작,Y,N,trust|has_key,,,,,,,,,,,\nS2,끝,N,Y,,,,,,,,,,,,\n"
        f",,,,,B1,S1,S2,{text},1,,,,,,\n,,,,,B2,S1,S2,has_key,2,,,,,,\n,,,,,B3,S1,S2,,3,,,,,,\n"
        ",,,,,,,,,,trust,신뢰도,int,0,5,\n,,,,,,,,,,has_key,열쇠,bool,,,\n", encoding="utf-8")
    report = lint(path)
    fixed = [i for i in report.issues if i.fix]
    assert fixed, report.issues
    assert fixed[0].fix["edits"][0]["value"] == want
    # the message itself says what was likely meant (issue 18), not only the fix field
    first_line = fixed[0].reason.split("\n")[0]
    assert first_line.endswith(f"혹시 {quoted(want, '을/를')} 쓰려던 것인가요?"), fixed[0].reason
    work = tmp_path / "w"
    work.mkdir()
    _check_every_fix(path, work)


def test_a_scene_past_the_fix_bound_says_why_it_has_no_fix(tmp_path):
    """A scene of more than MAX_FIX_BRANCHES branches is not decided again for each
    candidate fix: its 조건이 겹침 card says so in its fix line, with nothing to apply."""
    from storygraph.fixes import MAX_FIX_BRANCHES

    n = MAX_FIX_BRANCHES + 1
    rows = ["S1,시작,Y,N,trust,,,,,,,,,,,", "S2,끝,N,Y,,,,,,,,,,,,"]
    # trust >= 0 covers every later branch; each later one is shadowed
    rows += [f",,,,,B{i},S1,S2,trust >= {0 if i == 1 else i % 5},{i},,,,,," for i in range(1, n + 1)]
    rows += [",,,,,,,,,,trust,신뢰도,int,0,5,"]
    path = tmp_path / "scenario.csv"
    path.write_text("scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,"
                    "flag,label,type,min_value,max_value,values\n" + "\n".join(rows) + "\n", encoding="utf-8")
    report = lint(path)
    first = next(c for c in report.cards if c.data.get("branch_id") == "B1")
    assert first.data["verdict"] == "조건이 겹침"
    fix = first.data["fix"]
    assert fix["edits"] == []
    assert fix["text"] == (f"분기가 {n:,}개나 되는 장면이라 고친 결과를 하나하나 다시 판정해 볼 수 없어 "
                           "고치는 법을 싣지 않았습니다."), fix
    assert is_polite_sentence(fix["text"])


# ----------------------------------------------------------------------------- the parts


def test_region_condition_merges_int_classes_into_intervals():
    trust = Flag("trust", "신뢰도", "int", 0, 9, (), 1)
    key = Flag("has_key", "열쇠", "bool", None, None, (), 2)
    flags = {"trust": trust, "has_key": key}
    domains = {"trust": make_flag_domain(trust, frozenset({3, 6})), "has_key": make_flag_domain(key, frozenset())}
    # trust classes: 0-2, 3, 4-5, 6, 7-9 ; inside: trust 3..6 without the key
    inside = {(c, 0) for c in (1, 2, 3)}
    expr, minimised = region_condition(inside, ["trust", "has_key"], domains, flags)
    assert minimised
    from storygraph.conditions import render
    assert render(expr) == "trust >= 3 and trust <= 6 and not has_key"
    assert parse_condition(render(expr)) is not None


def test_region_condition_is_bounded():
    flags = {f"n{i}": Flag(f"n{i}", None, "int", 0, 20, (), i) for i in range(3)}
    domains = {f: make_flag_domain(spec, frozenset({2, 5, 9, 14})) for f, spec in flags.items()}
    order = list(flags)
    assert sum(len(domains[f].points) - 1 for f in order) > MAX_ATOMS
    from itertools import product

    from storygraph.conditions import compile3

    # a diagonal pattern: every class of every flag tells points apart, so nothing
    # merges and the region stays past the bound
    points = list(product(*[range(len(domains[f].points)) for f in order]))
    k = len(domains[order[0]].points)
    inside = {p for p in points if sum(p) % k == 0}
    expr, minimised = region_condition(inside, order, domains, flags)
    assert not minimised
    holds = compile3(expr)
    for p in points:
        assert bool(holds({f: domains[f].points[c][0] for f, c in zip(order, p)})) == (p in inside)


def test_classes_the_region_cannot_tell_apart_are_merged_before_minimising():
    # three int flags of nine classes each (24 variables): past the bound as they stand,
    # but the region only asks whether n0 is in its first class and n2 is not
    flags = {f"n{i}": Flag(f"n{i}", None, "int", 0, 20, (), i) for i in range(3)}
    domains = {f: make_flag_domain(spec, frozenset({2, 5, 9, 14})) for f, spec in flags.items()}
    order = list(flags)
    from itertools import product

    from storygraph.conditions import render

    points = list(product(*[range(len(domains[f].points)) for f in order]))
    inside = {p for p in points if p[0] == 0 and p[2] != 0}
    expr, minimised = region_condition(inside, order, domains, flags)
    assert minimised
    assert render(expr) == "n0 <= 1 and n2 >= 2"


def test_edit_distance_and_quoting():
    assert edit_distance("SC-88", "SC-28") == 1
    assert edit_distance("trsut", "trust") == 1
    assert edit_distance("abcdef", "uvwxyz", 2) == 3
    assert quoted("trust >= 3", "으로/로") == "`trust >= 3`으로"
    assert quoted('lamp == "꺼짐"', "이라/라") == '`lamp == "꺼짐"`이라'


@settings(max_examples=200 if DEEP else 40)
@given(width=st.integers(1, 6), data=st.data())
def test_the_minimal_sum_read_back_from_sympy_is_the_function_and_prime(width, data):
    """sympy's form, read back into products, holds exactly on the minterms (don't-cares
    free), and no product keeps a literal it could drop (each is a prime implicant)."""
    from storygraph.fixes import minimal_sum

    points = list(range(1 << width))
    kind = data.draw(st.lists(st.sampled_from("10-"), min_size=len(points), max_size=len(points)))
    ones = [p for p, k in zip(points, kind) if k == "1"]
    cares = [p for p, k in zip(points, kind) if k == "-"]
    zeros = {p for p, k in zip(points, kind) if k == "0"}
    terms = minimal_sum(width, ones, cares)
    full = (1 << width) - 1
    if terms is None:
        assert not zeros
        return
    covered = {p for p in points if any((p & ~m & full) == v for v, m in terms)}
    assert set(ones) <= covered
    assert not covered & zeros
    for v, m in terms:
        for b in range(width):
            if not m >> b & 1:  # freeing a kept variable would take in a zero
                wider = m | 1 << b
                assert any((p & ~wider & full) == (v & ~wider & full) for p in zeros)


# ----------------------------------------------------------------------------- where the fix is shown


def test_the_fix_is_shown_in_every_format(tmp_path):
    import json
    import subprocess
    import sys

    exe = Path(sys.executable).parent / "storygraph"
    path = "examples/lighthouse/scenario.csv"

    def run(*args: str) -> str:
        return subprocess.run([str(exe), "lint", path, "--quiet", *args], cwd=ROOT, capture_output=True, text=True).stdout

    want = "분기 `BR-45`의 조건을 `trust <= 3`으로 좁히면 뒤 순번인 분기 `BR-46`도 걸리는 독자가 생깁니다."
    assert f"    고치는 법: {want}\n" in run()
    cards = {c["target_no"]: c for c in json.loads(run("--format", "json"))["cards"]}
    assert cards["BR-45"]["fix"]["text"] == want
    assert "fix" not in cards["BR-01"]
    sarif = json.loads(run("--format", "sarif"))
    fixed = [r for r in sarif["runs"][0]["results"] if (r.get("properties") or {}).get("fix")]
    assert any(r["properties"]["fix"]["text"] == want for r in fixed)
    assert f"%0A고치는 법: {want}" in run("--format", "github")
    html = tmp_path / "screen.html"
    run("--html", str(html))
    from verdicts.screen import rich
    screen = html.read_text(encoding="utf-8")  # on the card's row and under its finding, code as code
    assert f'<span class="fix"><b>고치는 법</b> {rich(want)}</span>' in screen and f'<p class="fix"><b>고치는 법</b> {rich(want)}</p>' in screen


# ----------------------------------------------------------------------------- reach fixes, checked (issue 30, item 2)


SMALL = """scene_id,title,is_entry,is_ending,branch_id,from_scene,to_scene,condition_expr,order_no
S1,시작,true,false,,,,,
S2,갈림길,false,false,,,,,
S3,끝,false,true,,,,,
S4,막다른 길,false,false,,,,,
S5,낡은 창고,false,false,,,,,
S6,창고 안쪽,false,false,,,,,
,,,,B1,S1,S2,,1
,,,,B2,S2,S3,,1
,,,,B3,S1,S4,,2
,,,,B4,S5,S6,,1
,,,,B5,S6,S3,,1
"""


def _apply_and_lint(path: Path, edits, tmp: Path):
    out = tmp / "edited"
    out.mkdir(exist_ok=True)
    edited = Tables(path).edited(edits, out)
    return _problems(lint(edited), edited)


@pytest.mark.parametrize("kind", ["끝에 못 감", "어디서도 안 닿음"])
@pytest.mark.parametrize("where", ["lighthouse", "small"])
def test_every_reach_problem_has_a_checked_fix_at_its_root(kind, where, tmp_path):
    if where == "small":
        path = tmp_path / "small.csv"
        path.write_text(SMALL, encoding="utf-8")
    else:
        path = EXAMPLES / "lighthouse" / "scenario.csv"
    report = lint(path)
    before = _problems(report, path)
    cards = [c for c in report.cards if c.verdict == kind]
    assert cards
    roots = {c.target_no: c.data["fix"] for c in cards if c.data.get("fix", {}).get("edits")}
    assert roots, "no card of the kind carries edits"
    for c in cards:
        fix = c.data.get("fix")
        assert fix is not None, f"{c.target_no} has no fix"
        assert is_polite_sentence(fix["text"]), fix["text"]
        if not fix["edits"]:  # it points to the card at its root, by id
            assert any(f"`{root}`" in fix["text"] for root in roots) or any(
                f"`{e['row']['from_scene']}`" in fix["text"] or f"`{e['row']['to_scene']}`" in fix["text"]
                for f in roots.values() for e in f["edits"]), fix["text"]
    for target, fix in roots.items():
        assert fix.get("verified") is True
        assert "가장 가까운" in fix["text"]  # why this scene
        after = _apply_and_lint(path, fix["edits"], tmp_path)
        assert ("card", target, kind) not in after, f"{target} still {kind} after {fix}"
        had = {k[1] for k in before if k[0] == "card"} | {k[2] for k in before if k[0] == "shadowed"}
        new = {k for k in set(after) - set(before) if not (k[0] == "card" and k[1] in had)
               and not (k[0] == "shadowed" and k[2] in had)}
        assert not new, f"{fix} brought {sorted(map(str, new))}"


def test_the_small_scenario_dead_end_fix_offers_marking_it_an_ending(tmp_path):
    path = tmp_path / "small.csv"
    path.write_text(SMALL, encoding="utf-8")
    cards = {c.target_no: c for c in lint(path).cards}
    dead_end = cards["S4"].data["fix"]
    # (numbered past the highest id, B5, by S4's place among the scenes: the fourth, so B9)
    assert dead_end["edits"] == [{"action": "add", "table": "story_branches", "row": {
        "branch_id": "B9", "from_scene": "S4", "to_scene": "S1", "condition_expr": "", "order_no": 1}}]
    assert "`is_ending` 칸을 참으로" in dead_end["text"]
    # the unreached region S5 -> S6 is fixed at S5, its root; S6 and the branches point there
    assert cards["S5"].data["fix"]["edits"][0]["row"]["to_scene"] == "S5"
    assert cards["S6"].data["fix"]["edits"] == [] and "`S5`" in cards["S6"].data["fix"]["text"]
    assert "`S5`" in cards["B5"].data["fix"]["text"]
    # the branch that leads into the dead end points to the dead end's card
    assert "`S4`" in cards["B3"].data["fix"]["text"]


def test_a_fix_the_reanalysis_refutes_is_not_offered_and_says_why():
    from storygraph.analysis import analyse
    from storygraph.fixes import verified
    from storygraph.loading import load_scenario

    a = analyse(load_scenario(EXAMPLES / "lighthouse" / "scenario.csv"))
    # a "fix" that sends the dead end SC-29 into the other dead end SC-31 leaves it stuck
    bogus = {"text": "x", "edits": [{"action": "add", "table": "story_branches", "row": {
        "branch_id": "BR-99", "from_scene": "SC-29", "to_scene": "SC-31", "condition_expr": "", "order_no": 1}}]}
    out = verified(a, bogus, ("SC-29", "끝에 못 감"))
    assert out["edits"] == [] and out["verified"] is False
    assert is_polite_sentence(out["text"]) and "`SC-29`" in out["text"] and "끝에 못 감" in out["text"]
    good = {"text": "x", "edits": [{"action": "set", "table": "scene_states", "row": "SC-29", "column": "is_ending", "value": True}]}
    assert verified(a, good, ("SC-29", "끝에 못 감"))["verified"] is True


# ----------------------------------------------------------------------------- the local check and the whole re-analysis


def _checked_fixes(path: Path, local: bool, decided: list[int] | None = None) -> dict[tuple[str, str], object]:
    """Every card's and finding's fix with edits of ``path`` -> how it was checked, with the
    local check on or off (the whole re-analysis for every fix, without a work bound);
    ``decided`` gets the number of fixes the local check decided itself."""
    from storygraph import fixes as F

    saved = F.LOCAL[0], F.VERIFY_WORK, F._local_check
    F.LOCAL[0], F.VERIFY_WORK = local, (F.VERIFY_WORK if local else 10**12)
    count = [0]

    def counted(*args):
        out = saved[2](*args)
        count[0] += out is not F._FULL
        return out

    F._local_check = counted
    try:
        report = lint(path)
    finally:
        F.LOCAL[0], F.VERIFY_WORK, F._local_check = saved
    if decided is not None:
        decided.append(count[0])
    out: dict[tuple[str, str], object] = {}
    for c in report.cards:
        fix = c.data.get("fix")
        if fix is not None and ("verified" in fix):
            out[(c.target_no, c.verdict)] = fix["verified"]
    for f in report.findings:
        if f.fix is not None and "verified" in f.fix:
            out[(f.target, f.code)] = f.fix["verified"]
    return out


ORACLE = [CORPUS[0], CORPUS[2], EXAMPLES / "lighthouse" / "scenario.csv", EXAMPLES / "lighthouse-broken" / "scenario.csv",
          *sorted(p for p in (EXAMPLES / "gold").glob("*.csv") if not p.name.endswith(".gold.csv"))]


@pytest.mark.parametrize("path", ORACLE, ids=[f"{p.parent.name}-{p.stem}" for p in ORACLE])
def test_the_local_check_says_what_the_whole_reanalysis_says(path):
    """Every fix the local check decides gets the answer the whole re-analysis gives."""
    decided: list[int] = []
    local, whole = _checked_fixes(path, True, decided), _checked_fixes(path, False)
    assert local.keys() == whole.keys() and len(local) >= 3
    assert local == whole
    assert decided[0] >= len(local) // 3  # (the local check decides most of them itself)


@pytest.mark.slow
def test_the_local_check_agrees_at_2000_scenes(tmp_path):
    path = tmp_path / "scenario.csv"
    path.write_text(generate(7, 2000, 8, None).to_csv(), encoding="utf-8")
    decided: list[int] = []
    local, whole = _checked_fixes(path, True, decided), _checked_fixes(path, False)
    assert local == whole and decided[0] >= 100


@settings(max_examples=25 if DEEP else 4, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), plan=plans(20, 80), flags=st.integers(1, 5))
def test_the_local_check_agrees_on_generated_scenarios(seed, plan, flags, tmp_path_factory):
    scenes, plant = plan
    path = tmp_path_factory.mktemp("gen") / "scenario.csv"
    path.write_text(generate(seed, scenes, flags, plant).to_csv(), encoding="utf-8")
    assert _checked_fixes(path, True) == _checked_fixes(path, False)
