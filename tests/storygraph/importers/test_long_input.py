"""Issue 32, item 3: importers over long chains and huge numbers.  An ``elseif`` chain
of 3,000 cases is read without recursion and gives tables linear in it (a case past
``MAX_CASES`` earlier ones has an opaque condition, withheld rather than guessed); an
integer of 5,000 digits is refused naming its file, line and column, never a
traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from storygraph.importers.common import MAX_CASES
from tests.hostile.inputs import assert_clean, run_bounded

N = 3000
BIG = "9" * 5000


def _sugarcube(n: int) -> str:
    lines = [":: StoryData", '{"ifid":"D674C58C-DEFA-4F70-B7A2-27742230C0FC","format":"SugarCube","format-version":"2.36.1","start":"Start"}',
             "", ":: Start", "<<set $x to random(0, 10000)>>[[Next]]", "", ":: Next", "<<if $x is 0>>[[A]]"]
    lines += [f"<<elseif $x is {i}>>[[A]]" for i in range(1, n)]
    return "\n".join(lines + ["<<else>>[[A]]<</if>>", "", ":: A", "끝", ""])


def _harlowe(n: int) -> str:
    lines = [":: StoryData", '{"ifid":"D674C58C-DEFA-4F70-B7A2-27742230C0FD","format":"Harlowe","format-version":"3.3.8","start":"Start"}',
             "", ":: Start", "(set: $x to (random: 0, 10000))[[Next]]", "", ":: Next", "(if: $x is 0)[[[A]]]"]
    lines += [f"(else-if: $x is {i})[[[A]]]" for i in range(1, n)]
    return "\n".join(lines + ["(else:)[[[A]]]", "", ":: A", "끝", ""])


def _choicescript(n: int) -> str:
    lines = ["*create x 0", "*rand x 0 10000", "*choice", "  #가기"]
    lines += ["    *if x = 0", "      *goto a"]
    for i in range(1, n):
        lines += [f"    *elseif x = {i}", "      *goto a"]
    return "\n".join(lines + ["    *else", "      *goto a", "*label a", "*finish", ""])


def _yarn(n: int) -> str:
    lines = ["title: Start", "---", "<<declare $x = 0>>", "<<set $x = random_range(0, 10000)>>", "<<if $x == 0>>", "-> 가기", "  <<jump A>>"]
    for i in range(1, n):
        lines += [f"<<elseif $x == {i}>>", "-> 가기", "  <<jump A>>"]
    return "\n".join(lines + ["<<endif>>", "===", "title: A", "---", "끝", "===", ""])


CHAINS = {"sugarcube": ("chain.twee", _sugarcube), "harlowe": ("chain.twee", _harlowe),
          "choicescript": ("startup.txt", _choicescript), "yarn": ("chain.yarn", _yarn)}


@pytest.mark.parametrize("name", list(CHAINS))
def test_an_elseif_chain_of_thousands_is_read_in_linear_output(tmp_path: Path, name: str) -> None:
    file, make = CHAINS[name]
    path = tmp_path / file
    path.write_text(make(N), encoding="utf-8")
    small = tmp_path / "small"
    small.mkdir()
    (small / file).write_text(make(N // 4), encoding="utf-8")
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(outcome, (0, 1))
    assert "RecursionError" not in outcome.stderr
    report = outcome.json()
    assert [c["id"] for c in report["checks"] if not c["passed"]] == []
    # a quarter of the chain gives about a quarter of the report (the square was 16×)
    part = run_bounded("storygraph", "lint", small / file, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(part, (0, 1))
    assert len(outcome.stdout) < 6 * len(part.stdout), (len(part.stdout), len(outcome.stdout))
    # the cases past the cap are withheld from the shadowing search, never called shadowed by it
    hedged = [c for c in report["cards"] if c["verdict"] == "조건이 겹침"]
    assert len(hedged) <= MAX_CASES + 1


@pytest.mark.parametrize("file,text,where", [
    ("big.yarn", f"title: Start\n---\n<<declare $x = {BIG}>>\n<<jump A>>\n===\ntitle: A\n---\n끝\n===\n", "big.yarn:3:16"),
    ("big.twee", ':: StoryData\n{"ifid":"D674C58C-DEFA-4F70-B7A2-27742230C0FE","format":"SugarCube","format-version":"2.36.1","start":"Start"}\n\n'
                 f":: Start\n<<set $x to {BIG}>>[[A]]\n\n:: A\n끝\n", "big.twee:5:13"),
    ("startup.txt", f"*create x {BIG}\n*label a\n*finish\n", "startup.txt:1:11"),
])
def test_an_integer_of_thousands_of_digits_is_refused_naming_its_place(tmp_path: Path, file: str, text: str, where: str) -> None:
    path = tmp_path / file
    path.write_text(text, encoding="utf-8")
    outcome = run_bounded("storygraph", "lint", path, "--jobs", "1")
    assert_clean(outcome, 2)
    assert where in outcome.stderr and "5,000자리" in outcome.stderr


def test_an_ink_integer_past_the_compilers_range_is_no_traceback(tmp_path: Path) -> None:
    path = tmp_path / "big.ink"
    path.write_text(f"VAR x = 0\n~ x = 1\n-> start\n=== start ===\n{{x > {BIG}: -> a}}\n-> a\n=== a ===\n끝\n-> END\n", encoding="utf-8")
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(outcome, (0, 1, 2))


def test_an_agent_log_record_with_a_huge_integer_is_a_problem_not_a_traceback(tmp_path: Path) -> None:
    from verdicts.mail.importer import read_log

    log = tmp_path / "agent.jsonl"
    log.write_text(json.dumps({"message_id": "<a@x>", "action_kind": "reply"}) + "\n" + '{"message_id": "<b@x>", "n": ' + BIG + "}\n",
                   encoding="utf-8")
    problems: list[str] = []
    records = read_log(log, problems)
    assert [r["message_id"] for r in records] == ["<a@x>"]
    assert len(problems) == 1 and "2번째 줄" in problems[0]


def test_ink_diverts_through_variables_are_bounded_and_withheld_past_the_cap(tmp_path: Path) -> None:
    """400 diverts through a variable of 64 targets: 25,600 branches before; past
    ``MAX_VARIABLE_BRANCHES`` the later ones are opaque jumps, said once, and no card turns
    red because of it (their cards are withheld)."""
    from storygraph.importers.ink import MAX_VARIABLE_BRANCHES

    n = 400
    lines = ["VAR d = -> h0", "-> k0"]
    for j in range(64):
        lines += [f"=== h{j} ===", f"허브 {j}", "-> END"]
    for i in range(n):
        lines += [f"=== k{i} ===", f"~ d = -> h{(i * 7) % 64}", "* [a] -> d", f"* [b] -> {f'k{i + 1}' if i + 1 < n else 'END'}"]
    path = tmp_path / "fan.ink"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    outcome = run_bounded("storygraph", "lint", path, "--format", "json", "--jobs", "1", timeout=120)
    assert_clean(outcome, 1)
    report = outcome.json()
    said = [i for i in report["issues"] if f"{MAX_VARIABLE_BRANCHES:,}개" in i["reason"]]
    assert len(said) == 1 and said[0]["line"]
    assert {c["verdict"] for c in report["cards"] if c.get("verdict") is not None} == {"끝까지 닿음"}
    assert any(c.get("withheld") for c in report["cards"])
    assert [c["id"] for c in report["checks"] if not c["passed"]] == []
    assert len(report["cards"]) < MAX_VARIABLE_BRANCHES + 6 * n + 200  # (64 × 400 = 25,600 branches uncapped)
