"""Validation of cards against each domain's JSON Schema (kept as data files).

The schemas in ``verdicts/schemas/`` are the seeds' output contracts, verbatim.

A lint of a large scenario validates hundreds of thousands of cards.  ``jsonschema``
interprets the schema anew for every card (about 170 µs a card here), so the pass/fail
decision is made by a validator that ``fastjsonschema`` compiles once into plain Python
(about 9 µs a card); ``jsonschema`` still writes the readable messages of the cards that
fail.  The compiled validator is used only when the schema keeps to keywords that mean
the same in every draft fastjsonschema knows (see ``_PLAIN_KEYWORDS``); any other
schema is checked by ``jsonschema`` alone.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable

import jsonschema

try:  # declared as a dependency; the fallback keeps validation exact without it
    import fastjsonschema
except ImportError:  # pragma: no cover
    fastjsonschema = None

from .model import Card, CheckResult

__all__ = ["load_schema", "card_valid", "card_errors", "schema_check"]


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


#: keywords whose meaning is the same from draft 4 to 2020-12
_PLAIN_KEYWORDS = frozenset({
    "$schema", "$comment", "description", "title", "type", "enum", "const", "properties", "required", "items",
    "additionalProperties", "minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems",
})


def _plain(node: Any) -> bool:
    if isinstance(node, list):
        return all(_plain(x) for x in node)
    if not isinstance(node, dict):
        return True
    for key, value in node.items():
        if key not in _PLAIN_KEYWORDS:
            return False
        if key == "properties":
            if not all(_plain(v) for v in value.values()):
                return False
        elif key in ("items", "additionalProperties") and not _plain(value):
            return False
    return True


@lru_cache(maxsize=None)
def _fast_validator(domain: str):
    """A compiled pass/fail validator, or ``None`` when the schema needs jsonschema."""
    schema = load_schema(domain)
    if fastjsonschema is None or not _plain(schema):
        return None
    draft7 = {k: v for k, v in schema.items() if k != "$schema"}
    return fastjsonschema.compile(draft7)


def card_valid(domain: str, card: dict[str, Any]) -> bool:
    """Whether one card as JSON validates against the domain's schema."""
    fast = _fast_validator(domain)
    if fast is None:
        return _validator(domain).is_valid(card)
    try:
        fast(card)
    except fastjsonschema.JsonSchemaException:
        return False
    return True


def card_errors(domain: str, card: dict[str, Any]) -> list[str]:
    """Human-readable schema violations of one card as JSON (empty when valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(card)'}: {e.message}" for e in _validator(domain).iter_errors(card)]


def schema_check(domain: str, cards: Iterable[Card], card_json: Iterable[dict[str, Any]] | None = None) -> CheckResult:
    """The always-shown check that every card validates against the domain's schema
    (``card_json``: the cards as JSON, when the caller already made them)."""
    cards = list(cards)
    jsons = list(card_json) if card_json is not None else [card.to_json() for card in cards]
    failed = [card.key for card, data in zip(cards, jsons) if not card_valid(domain, data)]
    return CheckResult(
        id="SCHEMA",
        description="모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다.",
        passed=not failed,
        failed_targets=failed,
    )
