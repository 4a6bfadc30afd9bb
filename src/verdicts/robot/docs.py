"""``docs/robot.md``, generated from the robot rules' and checks' docstrings.

Run ``python -m verdicts.robot.docs > docs/robot.md``; a test fails when the file is
stale.
"""

from __future__ import annotations

from verdicts.docs import SECTIONS, split_doc

from .checks import CHECKS
from .domain import DOMAIN
from .rules import RULES

__all__ = ["render_robot_docs"]


def render_robot_docs() -> str:
    out = [
        "# Robot tasks: verdicts and checks",
        "",
        "Generated from the docstrings in `src/verdicts/robot/rules.py` and `src/verdicts/robot/checks.py`",
        "by `python -m verdicts.robot.docs > docs/robot.md`; do not edit by hand.",
        "",
        "Rules are tried in order; the first that fires gives the verdict. A rule that needs a value",
        "the input leaves empty stops the verdict there (see `docs/decisions.md`).",
        "",
    ]
    for number, rule in enumerate(RULES, start=1):
        headline, sections = split_doc(rule.doc)
        cause = f" / `{rule.stamp['blocked_cause']}`" if rule.stamp.get("blocked_cause") else ""
        out += [f"## {number}. `{rule.verdict}`{cause} · `{rule.code}`", "", headline, ""]
        for name in SECTIONS:
            out += [f"**{name}.** {sections.get(name, '')}", ""]
    out += ["## Automatic checks (자동 검증)", "", "| id | check | how it is recomputed |", "|---|---|---|"]
    for check in CHECKS:
        out.append(f"| {check.id} | {check.description} | {' '.join(check.doc.split())} |")
    out.append("| SCHEMA | 모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다. | Every card is validated against the seed's schema, kept in `src/verdicts/schemas/robot.card.schema.json`. |")
    out += ["", "## Verification notes (검증 노트)", ""]
    for part, sentences in DOMAIN.notes.items():
        out += [f"**{part}**", ""] + [f"- {s}" for s in sentences] + [""]
    return "\n".join(out).rstrip("\n") + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(render_robot_docs(), end="")
