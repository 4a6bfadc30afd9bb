"""The terminal puts the problems first (issue 18, item 5): the summary, problems, input
issues, findings, the checks, the passing targets counted (listed with ``--all``; without
it only those whose hedge may undo the verdict, the first 20), the inputs read, the
summary again as the closing line; colour on a terminal only, ``NO_COLOR`` respected; errors stay JSON under
``--format json``; the progress line in plain words, with percent and elapsed time,
fitting 50 columns and erased at the end; "did you mean" for config keys and explain
names."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys

from tests.conftest import BIN, EXAMPLES, ROOT
from verdicts.progress import Progress, display_width

LIGHTHOUSE = EXAMPLES / "lighthouse" / "scenario.csv"


def _headings(text: str) -> list[str]:
    return [line.split(" (")[0].split(":")[0] for line in text.splitlines() if line.startswith("■ ")]


def test_problems_first_then_issues_findings_checks_passing_and_one_summary(cli):
    proc = cli("storygraph", "lint", EXAMPLES / "lighthouse-broken" / "scenario.csv")
    heads = _headings(proc.stdout)
    assert heads[-4:] == ["■ 입력 문제", "■ 린트 발견", "■ 자동 검증", "■ 끝까지 닿음"], heads
    assert all(h not in ("■ 입력 문제", "■ 린트 발견", "■ 자동 검증", "■ 끝까지 닿음") for h in heads[:-4]) and heads[:-4]
    lines = proc.stdout.rstrip("\n").splitlines()
    assert lines[-1].startswith("요약: 문제 ") and "입력 문제 3건" in lines[-1] and "끝까지 닿음 59건" in lines[-1]
    # counted; only the passing cards that carry a hedge are listed
    cards = json.loads(cli("storygraph", "lint", EXAMPLES / "lighthouse-broken" / "scenario.csv", "--format", "json").stdout)["cards"]
    hedged = [c["target_no"] for c in cards if c["verdict"] == "끝까지 닿음" and c["hedge"]]
    listed = [line.split(" · ")[1].split()[0] for line in lines if line.startswith("  끝까지 닿음 · ")]
    assert hedged and listed == hedged[:20]  # at most the first 20, then how many more and how to see them
    assert (f"  … {len(hedged) - 20}건 더 — 모두 보려면 --all을 붙이세요.\n" in proc.stdout) == (len(hedged) > 20)
    assert "[통과]" not in proc.stdout  # only failing checks are listed


def test_all_lists_every_passing_card_and_check(cli):
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--all")
    assert proc.stdout.count("  끝까지 닿음 · ") == 59
    assert proc.stdout.count("[통과]") == 11
    assert proc.stdout.rstrip().splitlines()[-1].startswith("요약: ")


def test_verdicts_run_takes_all_too(cli):
    plain = cli("verdicts", "run", "robot", EXAMPLES / "robot", "-q")
    full = cli("verdicts", "run", "robot", EXAMPLES / "robot", "-q", "--all")
    cards = json.loads(cli("verdicts", "run", "robot", EXAMPLES / "robot", "-q", "-f", "json").stdout)["cards"]
    hedged = sum(1 for c in cards if c["verdict"] == "배포 후보" and c["hedge"])
    assert plain.stdout.count("배포 후보 · ") == hedged < 8 and full.stdout.count("배포 후보 · ") == 8


def test_a_passing_card_no_real_reader_bears_out_is_listed_among_the_problems(cli):
    """SC-12 and SC-28 reach an ending by the table but no reader gets there, BR-14 and
    BR-51 never fire: their verdict label stays the seed's 끝까지 닿음, but the first view
    lists them among the problems, in a group of their own that says why, before the
    findings and the passing group, and the summary counts them as problems."""
    out = cli("storygraph", "lint", LIGHTHOUSE).stdout
    head = "■ 표로만 닿음 (8) — 표의 길로는 끝까지 닿지만 실제 독자는 지나가지 못하거나 끝까지 가지 못하는 장면과 분기입니다.\n"
    assert head in out
    group = out[out.index(head):out.index("\n\n", out.index(head))]
    assert out.index(head) < out.index("■ 린트 발견") < out.index("■ 끝까지 닿음")
    for target in ("SC-12", "SC-15", "SC-25", "SC-28", "BR-14", "BR-46", "BR-51", "BR-62"):
        at = group.index(f"  끝까지 닿음 · {target}  ")  # the label stays the seed's
        assert "표의 길만 따지면" in group[at:group.index("\n", at)]
        assert group[group.index("\n", at) + 1:].startswith("    ↳ ")
    passing = out[out.index("■ 끝까지 닿음"):]
    assert passing.startswith("■ 끝까지 닿음 (51) — 단서가 붙은 2건만 적습니다. 모두 보려면 --all을 붙이세요.\n")
    # (BR-21 and BR-22 of 밀수선 갑판 share one caveat, said once on BR-21: issue 30, item 6)
    assert "끝까지 닿음 · SC-12 " not in passing and "끝까지 닿음 · SC-21 " in passing  # a caveat alone stays a pass
    assert "끝까지 닿음 · SC-01 " not in out  # a card without a hedge is counted only
    assert out.rstrip().splitlines()[-1].startswith("요약: 문제 27건(표로만 닿음 8건 포함) · ")
    # JSON keeps the seed's verdict and says why, machine-readably
    cards = {c["target_no"]: c for c in json.loads(cli("storygraph", "lint", LIGHTHOUSE, "-f", "json").stdout)["cards"]}
    assert cards["SC-12"]["verdict"] == "끝까지 닿음"
    assert cards["SC-12"]["undone"] == {"code": "reached-only-through-dead-branch",
                                        "reason": "한 번도 걸리지 않는 분기 `BR-14`를 거쳐야만 들어오는 곳이라 실제 독자는 여기 닿지 못합니다."}
    assert cards["SC-28"]["undone"]["code"] == "ending-only-through-dead-branch"
    assert cards["BR-14"]["undone"]["code"] == "never-fires" and cards["BR-51"]["undone"]["code"] == "unsatisfiable-condition"
    assert "undone" not in cards["SC-21"] and "undone" not in cards["SC-01"]


def test_a_header_only_input_shows_no_passed_check(cli, tmp_path):
    path = tmp_path / "one.csv"
    path.write_text(LIGHTHOUSE.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")
    proc = cli("storygraph", "lint", path)
    assert "통과" not in proc.stdout
    assert "■ 자동 검증: 판정한 대상이 없어 검증할 것이 없습니다." in proc.stdout
    assert proc.stdout.rstrip().endswith("판정한 대상 없음")


def _run(env_extra: dict, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    env.update(env_extra)
    return subprocess.run([str(BIN / "storygraph"), *map(str, args)], capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)


def test_colour_only_when_asked_and_no_color_wins():
    assert "\x1b[" not in _run({}, "lint", LIGHTHOUSE).stdout  # a pipe: plain
    coloured = _run({"FORCE_COLOR": "1"}, "lint", LIGHTHOUSE).stdout
    assert "\x1b[1;31m■ 어디서도 안 닿음" in coloured and "\x1b[1;32m■ 끝까지 닿음" in coloured
    assert "\x1b[" not in _run({"FORCE_COLOR": "1", "NO_COLOR": "1"}, "lint", LIGHTHOUSE).stdout
    # the colour is only added: without the escapes, the same bytes
    import re

    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == _run({}, "lint", LIGHTHOUSE).stdout


def test_an_error_under_format_json_is_json(cli):
    for args in (["storygraph", "lint", EXAMPLES / "robot" / "task_spec.csv"], ["storygraph", "lint", EXAMPLES / "robot"],
                 ["verdicts", "run", "mail", EXAMPLES / "robot"]):
        proc = cli(*args, "--format", "json")
        assert proc.returncode == 2
        data = json.loads(proc.stdout)
        # the same object as a report: what could not be read is an input issue naming the file
        assert isinstance(data, dict) and data["cards"] == [] and data["issues"]
        assert all(issue["file"] and issue["reason"] for issue in data["issues"])


def test_progress_line_in_plain_words_fits_fifty_columns_and_erases_itself():
    out = io.StringIO()
    p = Progress(out, delay=0.0, interval=0.0, columns=50)
    p.start("카드", {"장면": 20_000, "분기": 30_000})
    p.advance("장면", 10_000)
    p.advance("분기", 5_000)
    drawn = [line.replace("\x1b[K", "") for line in out.getvalue().split("\r") if line.replace("\x1b[K", "")]
    assert drawn and all(display_width(line) < 50 for line in drawn)
    assert drawn[-1].startswith("판정 카드 만드는 중 30% · 0초")
    p.close()
    assert out.getvalue().endswith("\r\x1b[K") and "\n" not in out.getvalue()
    wide = io.StringIO()
    q = Progress(wide, delay=0.0, interval=0.0, columns=120)
    q.start("카드", {"장면": 20_000})
    q.advance("장면", 20_000)
    assert "장면 20,000/20,000" in wide.getvalue()


def test_did_you_mean_for_config_keys_and_explain_names(cli, tmp_path):
    (tmp_path / "scenario.csv").write_bytes(LIGHTHOUSE.read_bytes())
    (tmp_path / "storygraph.toml").write_text('fial_on = ["issues"]\n[diagram]\nfocsu = "findings"\n', encoding="utf-8")
    proc = cli("storygraph", "lint", tmp_path / "scenario.csv")
    assert proc.returncode == 2
    assert "알 수 없는 키 `fial_on`(1번째 줄, 혹시 `fail_on`?)" in proc.stderr and "`diagram.focsu`(3번째 줄, 혹시 `focus`?)" in proc.stderr
    proc = cli("storygraph", "explain", "shadowd")
    assert proc.returncode == 2 and "혹시 `shadowed`를 찾으셨나요?" in proc.stderr and "(는)" not in proc.stderr
