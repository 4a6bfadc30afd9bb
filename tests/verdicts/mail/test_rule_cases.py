"""Rule cases as data (rule_cases.yaml): each case is a small mailbox written as CSVs,
judged for real, compared field by field by the shared runner, and every automatic check
(the schema's among them) must pass on it."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
import yaml

from verdicts.mail import judge_mailbox
from verdicts.mail.model import ACTION_POLICY, AGENT_ACTION, MAILBOX_THREAD
from verdicts.testing import check_case, load_cases

CASES_FILE = Path(__file__).parent / "rule_cases.yaml"
DEFAULTS = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))["defaults"]


def _write(path: Path, columns: list[str], rows: list[dict]) -> None:
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, columns)
        w.writeheader()
        for row in rows:
            w.writerow({c: row.get(c, "") for c in columns})


def write_mailbox(folder: Path, case: dict) -> None:
    messages = [{**DEFAULTS["message"], **m} for m in case.get("messages", []) + case.get("more_messages", [])]
    actions = [{**DEFAULTS["action"], **a} for a in case["actions"]]
    policy = {p["action_kind"]: p for p in DEFAULTS["policy"]}
    policy.update({p["action_kind"]: p for p in case.get("policy", [])})
    _write(folder / "mailbox_thread.csv", MAILBOX_THREAD.column_names, messages)
    _write(folder / "agent_action.csv", AGENT_ACTION.column_names, actions)
    _write(folder / "action_policy.csv", ACTION_POLICY.column_names, list(policy.values()))


@pytest.mark.parametrize("case", load_cases(CASES_FILE))
def test_rule_case(case, tmp_path):
    write_mailbox(tmp_path, case)
    expect = {"cards": case["expect"], "hedge_mentions": case.get("hedge_mentions", {}),
              "evidence_values": case.get("evidence_values", {}), "issues": case.get("issues", [])}
    check_case(judge_mailbox(tmp_path), expect)
