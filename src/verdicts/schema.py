"""Validation of cards against each domain's JSON Schema (kept as data files).

The schemas in ``verdicts/schemas/`` are the seeds' output contracts, verbatim.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

import jsonschema

from .model import Card, CheckResult

__all__ = ["load_schema", "card_errors", "schema_check"]


@lru_cache(maxsize=None)
def load_schema(domain: str) -> dict[str, Any]:
    """The card schema of ``domain`` (``storygraph``, ``robot`` …)."""
    text = resources.files("verdicts.schemas").joinpath(f"{domain}.card.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def _validator(domain: str) -> jsonschema.protocols.Validator:
    schema = load_schema(domain)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def card_errors(domain: str, card: dict[str, Any]) -> list[str]:
    """Human-readable schema violations of one card as JSON (empty when valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(card)'}: {e.message}" for e in _validator(domain).iter_errors(card)]


def schema_check(domain: str, cards: Iterable[Card]) -> CheckResult:
    """The always-shown check that every card validates against the domain's schema."""
    failed = [card.key for card in cards if card_errors(domain, card.to_json())]
    return CheckResult(
        id="SCHEMA",
        description="모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다.",
        passed=not failed,
        failed_targets=failed,
    )
