"""The text report's first view scales (issue 30, item 4): the summary first (and last),
the problems by kind under it, the inputs read after the problems; each group lists at
most 20 cards and says how many more (``--all`` lists them all); the ``끝에 못 감`` cards
under the dead end they run into, its own cards first; one grand total over several
inputs.  The streamed writer and the incremental lint write the same bytes."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from storygraph.domain import DOMAIN, lint, lint_to
from storygraph.incremental import IncrementalLint
from tests.conftest import EXAMPLES
from verdicts.report import CARD_CAP, PASSING_IN_FULL, render_text

LIGHTHOUSE = EXAMPLES / "lighthouse" / "scenario.csv"
HEAD = "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,flag,label,type,min_value,max_value,values"


def _dead_ends(tmp_path: Path, n: int = 30) -> Path:
    """An entry with ``n`` branches, each into a scene with no branch out (the
    ``n`` == i-th one taken when ``n`` is i), and a last one into the ending: ``n``
    dead ends, each with its scene's card and its branch's card under ``끝에 못 감``."""
    rows = [HEAD, "SC-00,갈림길,Y,N,n,,,,,,,,,,,", "SC-99,집,N,Y,,,,,,,,,,,,"]
    rows += [f"SC-{i:02},막다른 방 {i},N,N,,,,,,,,,,,," for i in range(1, n + 1)]
    rows += [f",,,,,BR-{i:02},SC-00,SC-{i:02},n == {i},{i},,,,,," for i in range(1, n + 1)]
    rows += [f",,,,,BR-99,SC-00,SC-99,,{n + 1},,,,,,", ",,,,,,,,,,n,갈림 번호,int,0,40,"]
    path = tmp_path / "dead_ends.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _group(out: str, head: str) -> str:
    at = out.index(head)
    return out[at:out.index("\n\n", at)]


def test_the_summary_comes_first_and_last_and_the_inputs_after_the_problems(cli):
    out = cli("storygraph", "lint", LIGHTHOUSE).stdout
    lines = out.rstrip("\n").splitlines()
    assert lines[0] == lines[-1] and lines[0].startswith("요약: 문제 27건(표로만 닿음 8건 포함) · 고칠 수 있는 문제 22건 · 린트 발견 13건 · 끝까지 닿음 51건")  # with the reach fixes (issue 30, item 2)
    # the problems by kind, in the order their groups follow, adding up to the problems
    assert lines[1] == "  문제 종류: 어디서도 안 닿음 4건 · 없는 장면을 가리킴 1건 · 조건이 겹침 4건 · 끝에 못 감 10건 · 표로만 닿음 8건"
    assert lines[2] == "" and lines[3].startswith("■ 어디서도 안 닿음 (4)")
    heads = [line.split(" (")[0] for line in lines if line.startswith("■ ")]
    assert heads == ["■ 어디서도 안 닿음", "■ 없는 장면을 가리킴", "■ 조건이 겹침", "■ 끝에 못 감", "■ 표로만 닿음",
                     "■ 린트 발견", "■ 자동 검증", "■ 끝까지 닿음"]
    echo = [i for i, line in enumerate(lines) if line.startswith("입력: ")]
    assert len(echo) == 3 and echo[0] > max(i for i, line in enumerate(lines) if line.startswith("■ "))
    assert lines[echo[-1] + 1] == "" and echo[-1] + 2 == len(lines) - 1


def test_a_domain_with_many_inputs_shows_its_problems_before_them(cli):
    """residue named 102 inputs before its first problem."""
    out = cli("verdicts", "run", "residue", EXAMPLES / "residue", "-q").stdout
    lines = out.splitlines()
    assert lines[0].startswith("요약: ")
    first_input = next(i for i, line in enumerate(lines) if line.startswith("입력: "))
    assert first_input > max(i for i, line in enumerate(lines) if line.startswith("■ ")) > 0
    assert lines[-1] == lines[0]


def test_a_group_lists_its_first_20_cards_and_all_with_all(cli, tmp_path):
    path = _dead_ends(tmp_path)
    out = cli("storygraph", "lint", path).stdout
    group = _group(out, "■ 끝에 못 감 (60)")
    assert group.count("  끝에 못 감 · ") == CARD_CAP == 20
    assert group.endswith("\n  … 40건 더 — 모두 보려면 --all을 붙이세요.")
    # by dead end: each room's own card first, then the branch into it; ten rooms shown
    assert group.count("  ▸ ") == 10 and "  ▸ 막다른 방 10(`SC-10`) — 나가는 분기가 없는 장면 (2)\n" in group
    room = _group(out, "  ▸ 막다른 방 3(`SC-03`)")
    cards = [line.split(" · ")[1].split()[0] for line in room.splitlines()[1:] if line.lstrip().startswith("끝에 못 감 · ")]
    assert cards[:2] == ["SC-03", "BR-03"]  # (each card's 고치는 법 line under it)
    assert "SC-11" not in group and "요약: 문제 60건" in out.splitlines()[0]
    full = cli("storygraph", "lint", path, "--all").stdout
    group = _group(full, "■ 끝에 못 감 (60)")
    assert group.count("  끝에 못 감 · ") == 60 and group.count("  ▸ ") == 30 and "건 더" not in full


@pytest.mark.parametrize("full", [False, True])
def test_the_streamed_and_incremental_writers_cut_and_group_the_same(tmp_path, monkeypatch, full):
    import verdicts.streaming as streaming

    path = _dead_ends(tmp_path)
    token = PASSING_IN_FULL.set(full)
    try:
        expected = render_text(lint(path), DOMAIN).encode("utf-8")
        assert (b"\xe2\x80\xa6 40" in expected) is not full  # "… 40건 더"
        for batch in (1, 7, 50):  # the cut falls inside a batch's part, or between parts
            monkeypatch.setattr(streaming, "BATCH", batch)
            monkeypatch.setattr(streaming, "MIN_BATCH", 1)
            out = io.BytesIO()
            lint_to(path, out, "text", jobs=2)
            assert out.getvalue() == expected, batch
        linter = IncrementalLint()
        assert linter.render(linter.lint(path), "text") == expected
    finally:
        PASSING_IN_FULL.reset(token)


def test_the_dead_ends_of_the_lighthouse_head_their_cards(cli):
    """SC-23 and SC-24 go round each other; SC-29 and SC-31 have no branch out, and
    SC-27 leads only to SC-31: each card goes under the dead end it runs into."""
    group = _group(cli("storygraph", "lint", LIGHTHOUSE).stdout, "■ 끝에 못 감 (10)")
    subs: dict[str, list[str]] = {}
    for line in group.splitlines()[1:]:
        if line.startswith("  ▸ "):
            head = line[4:]
            subs[head] = []
        elif line.startswith("    끝에 못 감 · "):
            subs[head].append(line.split(" · ")[1].split()[0])
    assert subs == {
        "안개 속 표류(`SC-23`), 같은 바위(`SC-24`) — 서로 오갈 뿐 밖으로 나가는 분기가 없는 장면 2곳 (5)":
            ["SC-23", "SC-24", "BR-34", "BR-35", "BR-10"],
        "부서진 무전기(`SC-31`) — 나가는 분기가 없는 장면 (4)": ["SC-31", "SC-27", "BR-24", "BR-27"],
        "막힌 수문(`SC-29`) — 나가는 분기가 없는 장면 (1)": ["SC-29"],
    }


def test_a_run_over_several_inputs_ends_in_one_grand_total(cli, tmp_path):
    broken = EXAMPLES / "lighthouse-broken" / "scenario.csv"
    out = cli("storygraph", "lint", LIGHTHOUSE, broken, tmp_path / "none.csv").stdout
    one = [json.loads(cli("storygraph", "lint", p, "-f", "json").stdout) for p in (LIGHTHOUSE, broken)]
    problems = sum(1 for r in one for c in r["cards"] if c["verdict"] != "끝까지 닿음" or c.get("undone"))
    passing = sum(1 for r in one for c in r["cards"] if c["verdict"] == "끝까지 닿음" and not c.get("undone"))
    assert out.rstrip("\n").splitlines()[-1] == (
        f"전체 합계(입력 3개 중 읽은 2개): 문제 {problems}건(표로만 닿음 8건 포함) · "
        f"고칠 수 있는 문제 {sum(r.get('fixable', 0) for r in one)}건 · 입력 문제 3건 · 린트 발견 16건 · "
        f"끝까지 닿음 {passing}건 · 자동 검증 22/22 통과")
    # the kit's other domains too
    for name in ("a", "b"):
        shutil.copytree(EXAMPLES / "robot", tmp_path / name)
    out = cli("verdicts", "run", "robot", tmp_path / "a", tmp_path / "b", "-q").stdout
    assert out.rstrip("\n").splitlines()[-1] == "전체 합계(입력 2개): 문제 44건 · 배포 후보 16건 · 자동 검증 30/30 통과"


def test_findings_of_one_kind_are_listed_20_at_most_too(cli, tmp_path):
    path = _dead_ends(tmp_path, 2)
    rows = path.read_text(encoding="utf-8").splitlines()
    rows += [f",,,,,,,,,,unused{i},안 쓰는 값 {i},int,0,3," for i in range(25)]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    out = cli("storygraph", "lint", path).stdout
    group = _group(out, "■ 린트 발견 (25)")
    assert group.count("  쓰이지 않는 플래그 · ") == 20 and group.endswith("\n  … 5건 더 — 모두 보려면 --all을 붙이세요.")
    assert "린트 발견 25건" in out.splitlines()[0]
    full = _group(cli("storygraph", "lint", path, "--all").stdout, "■ 린트 발견 (25)")
    assert full.count("  쓰이지 않는 플래그 · ") == 25 and "건 더" not in full
