"""Validation of cards against each domain's JSON Schema (kept as data files).

The schemas in ``verdicts/schemas/`` are the seeds' output contracts, verbatim.

A lint of a large scenario validates hundreds of thousands of cards.  ``jsonschema``
interprets the schema anew for every card (about 170 µs a card here), so the pass/fail
decision is made by ``jsonschema_rs``, which compiles the schema once in Rust (about
1 µs a card, every draft); ``jsonschema`` still writes the readable messages of the cards
that fail.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Iterable

from .model import Card, CheckResult

if TYPE_CHECKING:
    import jsonschema

__all__ = ["load_schema", "card_valid", "card_errors", "schema_check", "schema_result"]


@lru_cache(maxsize=None)
def load_schema(domain: str) -> dict[str, Any]:
    """The card schema of ``domain`` (``storygraph``, ``robot`` …)."""
    text = resources.files("verdicts.schemas").joinpath(f"{domain}.card.schema.json").read_text(encoding="utf-8")
    return json.loads(text)


@lru_cache(maxsize=None)
def _validator(domain: str) -> "jsonschema.protocols.Validator":
    import jsonschema  # only for the cards that fail, and for their messages (about 40 ms to import)

    schema = load_schema(domain)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


@lru_cache(maxsize=None)
def _fast_validator(domain: str):
    """The domain's schema compiled by jsonschema_rs (pass/fail only)."""
    import jsonschema_rs

    return jsonschema_rs.validator_for(load_schema(domain))


def card_valid(domain: str, card: dict[str, Any]) -> bool:
    """Whether one card as JSON validates against the domain's schema."""
    try:
        return _fast_validator(domain).is_valid(card)
    except (ValueError, TypeError, OverflowError):
        # a value jsonschema_rs cannot convert (an integer beyond 64 bits …): the
        # pure-Python validator decides
        return _validator(domain).is_valid(card)


def card_errors(domain: str, card: dict[str, Any]) -> list[str]:
    """Human-readable schema violations of one card as JSON (empty when valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(card)'}: {e.message}" for e in _validator(domain).iter_errors(card)]


def schema_check(domain: str, cards: Iterable[Card], card_json: Iterable[dict[str, Any]] | None = None) -> CheckResult:
    """The always-shown check that every card validates against the domain's schema
    (``card_json``: the cards as JSON, when the caller already made them)."""
    cards = list(cards)
    jsons = list(card_json) if card_json is not None else [card.to_json() for card in cards]
    valid = _fast_validator(domain).is_valid
    failed = []
    for card, data in zip(cards, jsons):
        try:
            ok = valid(data)
        except (ValueError, TypeError, OverflowError):
            ok = _validator(domain).is_valid(data)
        if not ok:
            failed.append(card.key)
    return schema_result(failed)


def schema_result(failed: list[str]) -> CheckResult:
    """The SCHEMA check's result given the keys of the cards that failed, in card order
    (a run made in parts validates each part and puts the keys together)."""
    return CheckResult(
        id="SCHEMA",
        description="모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다.",
        passed=not failed,
        failed_targets=failed,
    )
