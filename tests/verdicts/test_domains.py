"""What a generic screen reads from every registered domain."""

from __future__ import annotations

import pytest

from verdicts.domain import domain_names, get_domain
from verdicts.korean import is_polite_sentence
from verdicts.schema import load_schema


@pytest.mark.parametrize("name", domain_names())
def test_domain_exposes_what_a_screen_needs(name):
    domain = get_domain(name)
    schema = load_schema(domain.name)
    assert list(domain.verdicts) == [v for v in domain.verdicts if v in schema["properties"]["verdict"]["enum"]]
    assert set(domain.verdicts) == set(schema["properties"]["verdict"]["enum"])
    assert set(domain.evidence_columns) <= {"source", "field", "agg", "value", "quote"}
    assert list(domain.notes) == ["자동", "수동", "정직 경계선"]
    assert all(domain.notes[k] and all(is_polite_sentence(s) for s in domain.notes[k]) for k in domain.notes)
    assert all(c.id and c.description and c.doc for c in domain.checks())
    for verdict, field in domain.subgroup_field.items():
        assert verdict in domain.verdicts and field in schema["properties"]
    assert set(domain.gold_fields) <= set(schema["properties"])


def test_robot_splits_its_not_in_training_group_by_cause():
    robot = get_domain("robot")
    assert robot.subgroup_field == {"학습에 없는 조건": "blocked_cause"}
    assert robot.evidence_columns == ("source", "field", "agg", "value")
    assert [c.id for c in robot.checks()] == [f"C{i:02d}" for i in range(1, 15)]
