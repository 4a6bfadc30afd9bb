"""Every verdict has its sentence templates and its documented rule; sentences are polite."""

from __future__ import annotations

from decimal import Decimal

from verdicts.engine import UNKNOWN
from verdicts.korean import is_polite_sentence, joins_caveats
from verdicts.robot import templates as T
from verdicts.robot.model import BLOCKED_CAUSES, NOT_IN_TRAINING, VERDICTS
from verdicts.robot.rules import RULES


def test_every_verdict_and_cause_has_a_rule_with_its_templates():
    combos = {(v, None) for v in VERDICTS if v != NOT_IN_TRAINING} | {(NOT_IN_TRAINING, c) for c in BLOCKED_CAUSES}
    assert {(r.verdict, r.stamp.get("blocked_cause")) for r in RULES} == combos
    assert [r.verdict for r in RULES][-1] == "배포 후보"
    for rule in RULES:
        assert rule.templates and all(t.__module__ == T.__name__ for t in rule.templates), rule.code


def test_every_summary_template_belongs_to_one_rule():
    import inspect

    summaries = {name for name, f in inspect.getmembers(T, inspect.isfunction)
                 if f.__module__ == T.__name__ and not name.startswith(("hedge_", "_")) and name not in ("pct", "sec", "where")}
    owned = [t.__name__ for rule in RULES for t in rule.templates if not t.__name__.startswith("hedge_")]
    assert sorted(owned) == sorted(summaries)


def test_every_rule_documents_what_why_example_instead():
    from verdicts.docs import SECTIONS

    for rule in RULES:
        for section in SECTIONS:
            assert f"{section}:" in rule.doc, (rule.code, section)


def test_each_hedge_is_one_caveat_in_one_polite_sentence():
    caveats = [
        T.hedge_unnamed_failures(total=4, unnamed=1),
        T.hedge_few_failures(total=2, share=Decimal("1.00"), limit=Decimal("0.5")), T.hedge_episode_count_empty(),
        T.hedge_min_episode_empty(), T.hedge_no_dataset_table(), T.hedge_no_runs(), T.hedge_success_unknown(unknown=2),
        T.hedge_cycle_unknown(unknown=1),
    ]
    for caveat in caveats:
        assert is_polite_sentence(caveat.text) and not joins_caveats(caveat.text), caveat
        assert caveat.weight == UNKNOWN  # each says what the verdict could not count or decide
