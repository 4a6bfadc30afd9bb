"""Issue 31, item 4: where a seed gives no verdict, every sibling domain withholds the
card through the kit — no verdict label, the reason naming the value and its place, its
own group on every screen and in the summary, a machine-readable field in JSON and SARIF,
a GitHub notice, and ``fail_on: withheld`` — all through the real command line.

The three findings of the issue, each planted in a copy of the domain's bundled example:
mail, an amount nobody can read in ``extracted_amount`` (``120만원`` itself is read: it is
how Korean writes 1,200,000); extraction, a malformed run event on an optional field;
robot, an empty ``success``.  Before the fix each carried a defect label (메일에 없는 사실
지어냄, 필수 칸이 빔, 성공률 미달) and counted among the problems.
"""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.conftest import EXAMPLES


def _replace(path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _mail(folder):
    _replace(folder / "agent_action.csv", "ACT-20260303-002,TH-1042,회신,2026-03-02T16:10,1.00,1200000,,",
             "ACT-20260303-002,TH-1042,회신,2026-03-02T16:10,1.00,120만원쯤,,")
    return "ACT-20260303-002", {"table": "agent_action", "line": 3, "column": "extracted_amount"}, "`120만원쯤`을 읽을 수 없어"


def _extraction(folder):
    # the worker's rows as run events; the optional credit_valid_until event of R-20935 is malformed
    rows = (folder / "worker_outputs.csv").read_text(encoding="utf-8").splitlines()
    (folder / "worker_outputs.csv").unlink()
    import csv
    events = []
    for number, row in enumerate(csv.DictReader(rows), start=1):
        if row["run_id"] == "R-20935" and row["field_name"] == "credit_valid_until":
            line = number
            events.append(json.dumps({**row, "value": {"date": row["value"]}}, ensure_ascii=False))
        else:
            events.append(json.dumps(row, ensure_ascii=False))
    (folder / "worker_outputs.jsonl").write_text("\n".join(events) + "\n", encoding="utf-8")
    return "R-20935:credit_valid_until", {"table": "worker_outputs", "line": line, "column": "value"}, "이벤트를 읽을 수 없어"


def _robot(folder):
    path = folder / "evaluation_run.csv"
    lines = path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    at = header.index("success")
    number = next(i for i, line in enumerate(lines) if line.startswith("pick-bin-A01,"))
    cells = lines[number].split(",")
    cells[at] = ""
    lines[number] = ",".join(cells)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return "pick-bin-A01", {"table": "evaluation_run", "line": number + 1, "column": "success"}, "`success` 열이 비어 있어"


PLANTS = {"mail": (_mail, "action_no", "메일에 없는 사실 지어냄"), "extraction": (_extraction, "item_key", "필수 칸이 빔"),
          "robot": (_robot, "task_id", "성공률 미달")}


@pytest.mark.parametrize("domain", sorted(PLANTS))
def test_a_card_that_stopped_on_an_unreadable_value_is_withheld_everywhere(cli, tmp_path, domain):
    plant, key_field, old_label = PLANTS[domain]
    folder = tmp_path / domain
    shutil.copytree(EXAMPLES / domain, folder, ignore=shutil.ignore_patterns("gold", "gold.csv", "*.py", "README.md"))
    key, place, words = plant(folder)

    data = json.loads(cli("verdicts", "run", domain, folder, "--format", "json", "-q", check_code=None).stdout)
    card = next(c for c in data["cards"] if c[key_field] == key)
    assert card["verdict"] is None and card["verdict"] != old_label
    held = card["withheld"]
    assert [{k: w[k] for k in ("table", "line", "column")} for w in held["where"]] == [place]
    assert held["where"][0]["file"].startswith(str(folder))
    assert words in held["reason"] and f"{place['line']}번째 줄" in held["reason"] and held["reason"].endswith("판정하지 않았습니다.")
    assert card["summary"] == held["reason"] and card["hedge"] is None
    assert all(c["passed"] for c in data["checks"]), [c for c in data["checks"] if not c["passed"]]

    # text: its own group, and the summary counts it apart from problems and passes
    text = cli("verdicts", "run", domain, folder, "-q", check_code=None).stdout
    assert f"판정 보류 · {key}" in text and f"{old_label} · {key}" not in text
    closing = text.strip().splitlines()[-1]
    assert "판정 보류 1건" in closing
    problems = sum(1 for c in data["cards"] if c["verdict"] is not None and c["verdict"] not in _passing(domain))
    assert re.search(rf"문제 {problems:,}건", closing)

    # SARIF: an open result at no level, with the reason and places as a property
    sarif = json.loads(cli("verdicts", "run", domain, folder, "--format", "sarif", "-q", check_code=None).stdout)
    [result] = [r for r in sarif["runs"][0]["results"] if r.get("properties", {}).get(key_field) == key]
    assert (result["ruleId"], result["kind"], result["level"]) == ("withheld", "open", "none")
    assert result["properties"]["withheld"] == held

    # GitHub: a notice, not a warning
    github = cli("verdicts", "run", domain, folder, "--format", "github", "-q", check_code=None).stdout
    [line] = [x for x in github.splitlines() if f"판정 보류 · {key}" in x]
    assert line.startswith("::notice ")

    # the HTML screen: its own group, and in the summary line
    html = tmp_path / f"{domain}.html"
    cli("verdicts", "run", domain, folder, "--html", html, "-q", check_code=None)
    page = html.read_text(encoding="utf-8")
    assert re.search(r'data-verdict="판정 보류" data-state="withheld"', page)
    assert "판정 보류 1건</a>" in page

    # fail_on: only when it names `withheld` does a withheld card fail the run
    (folder / "verdicts.toml").write_text(f"[{domain}]\nfail_on = []\n", encoding="utf-8")
    cli("verdicts", "run", domain, folder, "-q", check_code=0)
    (folder / "verdicts.toml").write_text(f'[{domain}]\nfail_on = ["withheld"]\n', encoding="utf-8")
    cli("verdicts", "run", domain, folder, "-q", check_code=1)


def _passing(domain: str) -> set[str]:
    from verdicts.domain import get_domain

    return set(get_domain(domain).passing_verdicts)


def test_an_amount_written_the_korean_way_is_read_not_withheld(cli, tmp_path):
    # 120만원 in the amount column is 1,200,000: the seed's own card says the reply put in
    # “120만원이라는 금액”, so the card is the seed's 메일에 없는 사실 지어냄, not withheld
    folder = tmp_path / "mail"
    shutil.copytree(EXAMPLES / "mail", folder)
    _replace(folder / "agent_action.csv", "ACT-20260303-002,TH-1042,회신,2026-03-02T16:10,1.00,1200000,,",
             "ACT-20260303-002,TH-1042,회신,2026-03-02T16:10,1.00,120만원,,")
    data = json.loads(cli("verdicts", "run", "mail", folder, "--format", "json", "-q", check_code=None).stdout)
    card = next(c for c in data["cards"] if c["action_no"] == "ACT-20260303-002")
    assert card["verdict"] == "메일에 없는 사실 지어냄" and "withheld" not in card and data["issues"] == []
    assert "120만원" in card["summary"]


def test_a_withheld_cell_is_shown_and_decided_in_the_review_queue(tmp_path):
    # a pattern that does not compile withholds the cells of its field: the queue shows them
    # under 판정 보류 (not a raw None) and a reviewer's decision on one is stored
    from verdicts.extraction.review import ReviewStore
    from verdicts.extraction.review_web import _cell, _run

    folder = tmp_path / "extraction"
    shutil.copytree(EXAMPLES / "extraction", folder, ignore=shutil.ignore_patterns("gold", "README.md"))
    rules = folder / "field_rules.csv"
    rules.write_text("\n".join(line.replace(r"^\d{3}-\d{2}-\d{5}$", r"^(\d{3}-\d{2}-\d{5}$") if line.startswith("biz_reg_no")
                               else line for line in rules.read_text(encoding="utf-8").splitlines()) + "\n", encoding="utf-8")
    store = ReviewStore(tmp_path / "review.sqlite3")
    store.load(folder)
    cell = store.cell("R-20931:biz_reg_no")
    assert cell.card["verdict"] is None and cell.card["withheld"]["where"][0]["column"] == "pattern"
    for page in (_run(store, "R-20931"), _cell(store, "R-20931:biz_reg_no")):
        assert "판정 보류" in page and ">None<" not in page
    store.decide("R-20931:biz_reg_no", "approve", reviewer="김검토")
    assert store.cell("R-20931:biz_reg_no").last.verdict == "판정 보류"
