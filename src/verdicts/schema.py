"""Validation of cards against each domain's JSON Schema (kept as data files).

The schemas in ``verdicts/schemas/`` are the seeds' output contracts, verbatim; the kit reads each
with its own optional fields (``more_hedges``; ``withheld`` for a withheld card).

Three validators, one decision:

* a few cards (a creator's scenario, one save of ``storygraph watch``) are checked by the
  schema compiled here into plain Python functions (:func:`compile_schema`).  It takes
  the keywords the card schemas use (``type``, ``enum``, ``const``, ``properties``,
  ``required``, ``additionalProperties``, ``items``, the lengths and the bounds) with
  JSON Schema 2020-12's meaning, and refuses a schema with any other keyword;
* many cards (hundreds of thousands at the large end) are checked by ``jsonschema_rs``,
  which compiles the schema once in Rust (about 1 µs a card) but is a 15 MB extension
  whose loading alone cost a small lint about 100 million instructions, more than the
  floor of reading the scenario;
* ``jsonschema`` (pure Python, every draft) writes the readable messages of the cards that
  fail, and decides the few values the others cannot take (an integer beyond 64 bits …).

A test makes random cards and asserts that the three agree.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .model import Card, CheckResult

if TYPE_CHECKING:
    import jsonschema

__all__ = ["load_schema", "set_schema_finder", "card_valid", "card_validator", "card_errors", "compile_schema", "schema_check",
           "schema_result", "MANY_CARDS"]

#: from this many cards on, the schema is checked by jsonschema_rs (loading it costs
#: about what the Python functions spend on a few thousand cards)
MANY_CARDS = 2000

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


#: the name under which a domain's schema of withheld cards is validated (``storygraph+withheld``)
WITHHELD_SUFFIX = "+withheld"

#: the ``withheld`` field of a card whose verdict was withheld (:mod:`verdicts.model`)
WITHHELD_FIELD = {
    "type": "object",
    "properties": {
        "reason": {"type": "string", "minLength": 1},
        "where": {"type": "array", "items": {"type": "object"}},
    },
    "required": ["reason", "where"],
}


#: the ``more_hedges`` field of a card with several caveats (:mod:`verdicts.engine`): the
#: caveats after its ``hedge``, each one polite sentence; every domain's schema is read
#: with it, since a seed's schema (residue's forbids other fields) does not know it
MORE_HEDGES_FIELD = {
    "type": "array",
    "items": {"type": "string", "minLength": 1},
}


#: how a schema the kit does not hold is found: ``name`` -> its text (set by
#: :mod:`verdicts.domain`: the registered domain's own package ships it)
_SCHEMA_FINDER: Callable[[str], str] | None = None


def set_schema_finder(finder: Callable[[str], str]) -> None:
    """Where :func:`load_schema` looks for a schema the kit does not hold."""
    global _SCHEMA_FINDER
    _SCHEMA_FINDER = finder


@lru_cache(maxsize=None)
def load_schema(domain: str) -> dict[str, Any]:
    """The card schema of ``domain`` (``storygraph``, ``robot`` …).

    ``<domain>+withheld`` is the kit's schema of a withheld card of that domain: the
    domain's own, except that ``verdict`` is ``null`` and the card carries a
    ``withheld`` object (its reason and places), so that no card is ever valid with no
    verdict and no reason.  Every schema is read with the kit's optional
    ``more_hedges`` field (:data:`MORE_HEDGES_FIELD`)."""
    if domain.endswith(WITHHELD_SUFFIX):
        schema = json.loads(json.dumps(load_schema(domain[: -len(WITHHELD_SUFFIX)])))
        props = schema.setdefault("properties", {})
        props["verdict"] = {"type": "null"}
        props["withheld"] = WITHHELD_FIELD
        schema["required"] = list(dict.fromkeys([*schema.get("required", []), "withheld"]))
        return schema
    name = f"{domain}.card.schema.json"
    bundled = Path(__file__).parent / "schemas" / name
    try:
        text = bundled.read_text(encoding="utf-8")
    except OSError:
        from importlib import resources

        try:  # installed somewhere files are not plain files (a zip)
            text = resources.files("verdicts.schemas").joinpath(name).read_text(encoding="utf-8")
        except (OSError, ModuleNotFoundError):
            # a domain outside the kit ships its own schema, found through its package
            # (the finder is set by verdicts.domain, which imports this module)
            if _SCHEMA_FINDER is None:
                raise
            text = _SCHEMA_FINDER(domain)
    schema = json.loads(text)
    if isinstance(schema.get("properties"), dict):
        schema["properties"].setdefault("more_hedges", MORE_HEDGES_FIELD)
    return schema


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


def _rust_valid(domain: str, card: Any) -> bool:
    try:
        return _fast_validator(domain).is_valid(card)
    except (ValueError, TypeError, OverflowError):
        # a value jsonschema_rs cannot convert (an integer beyond 64 bits …): the
        # pure-Python validator decides
        return _validator(domain).is_valid(card)


# ----------------------------------------------------------------------------- the schema as Python functions
class Unsure(Exception):
    """A value the Python functions leave to the other validators: a float that is not
    finite, a number beyond 2**53 (jsonschema_rs and Python would judge them apart)."""


class UnsupportedSchema(ValueError):
    """A schema with a keyword :func:`compile_schema` does not take."""


#: words that describe and do not validate
_ANNOTATIONS = frozenset({"$schema", "$comment", "description", "title", "examples", "default", "deprecated",
                          "readOnly", "writeOnly"})
_TAKEN = frozenset({"type", "enum", "const", "properties", "required", "additionalProperties", "items", "minLength",
                    "maxLength", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"}) | _ANNOTATIONS
_BIG = 2 ** 53


def _number(value: Any) -> bool:
    """Whether ``value`` is a JSON number (not a boolean); :class:`Unsure` for a float that
    is not finite or a number beyond 2**53, which jsonschema_rs and Python judge apart."""
    if isinstance(value, (int, float)) and value is not True and value is not False:
        if not -_BIG <= value <= _BIG:  # also false for a float that is not a number
            raise Unsure
        return True
    return False


def _integer(value: Any) -> bool:
    """Whether ``value`` is a JSON integer (2020-12 counts ``1.0``)."""
    return _number(value) and (isinstance(value, int) or value.is_integer())


#: the JSON types as tests of a Python value
_TYPES: dict[str, Callable[[Any], bool]] = {
    "null": lambda value: value is None,
    "boolean": lambda value: value is True or value is False,
    "string": lambda value: isinstance(value, str),
    "integer": _integer,
    "number": _number,
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, (list, tuple)),  # a tuple is written as a JSON array
}

#: the types whose Python classes say it all
_CLASSES: dict[str, type | tuple[type, ...]] = {"null": type(None), "boolean": bool, "string": str, "object": dict,
                                                 "array": (list, tuple)}


def _same(a: Any, b: Any) -> bool:
    """JSON equality: ``1`` and ``1.0`` are the same, ``true`` and ``1`` are not."""
    if _number(a) or _number(b):
        return _number(a) and _number(b) and a == b
    if isinstance(a, (list, tuple)) or isinstance(b, (list, tuple)):
        return (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_same(x, y) for x, y in zip(a, b)))
    if isinstance(a, dict) or isinstance(b, dict):
        return isinstance(a, dict) and isinstance(b, dict) and a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b or isinstance(a, str) and isinstance(b, str) and a == b


def _always(value: Any) -> bool:
    return True


def _never(value: Any) -> bool:
    return False


def compile_schema(schema: Any) -> Callable[[Any], bool]:
    """``schema`` (JSON Schema 2020-12) as a function of an instance: whether it is valid.
    The function raises :class:`Unsure` for a value it leaves to the other validators;
    :class:`UnsupportedSchema` is raised here for a keyword it does not take."""
    if schema is True or schema == {}:
        return _always
    if schema is False:
        return _never
    if not isinstance(schema, dict):
        raise UnsupportedSchema(f"not a schema: {schema!r}")
    unknown = sorted(set(schema) - _TAKEN)
    if unknown:
        raise UnsupportedSchema(f"keywords not taken: {', '.join(unknown)}")
    if schema.get("$schema", _DRAFT) != _DRAFT:
        raise UnsupportedSchema(f"draft {schema['$schema']}")
    tests: list[Callable[[Any], bool]] = []
    if "type" in schema:
        names = [schema["type"]] if isinstance(schema["type"], str) else list(schema["type"])
        if not set(names) <= set(_TYPES):
            raise UnsupportedSchema(f"type {schema['type']!r}")
        if set(names) <= set(_CLASSES):  # no number among them: one isinstance
            classes = tuple(_CLASSES[name] for name in names)
            tests.append(lambda value: isinstance(value, classes))
        else:
            kinds = tuple(_TYPES[name] for name in names)
            tests.append(kinds[0] if len(kinds) == 1 else lambda value: any(kind(value) for kind in kinds))
    if "enum" in schema:
        options = list(schema["enum"])
        if all(isinstance(o, str) for o in options):  # the common case: a set of words
            words = frozenset(options)
            tests.append(lambda value: isinstance(value, str) and value in words)
        else:
            tests.append(lambda value: any(_same(value, o) for o in options))
    if "const" in schema:
        const = schema["const"]
        tests.append(lambda value: _same(value, const))
    if "required" in schema:
        required = tuple(schema["required"])
        tests.append(lambda value: not isinstance(value, dict) or all(k in value for k in required))
    if "properties" in schema or "additionalProperties" in schema:
        properties = {k: compile_schema(v) for k, v in schema.get("properties", {}).items()}
        extra = compile_schema(schema.get("additionalProperties", True))

        def check_object(value: Any) -> bool:
            if isinstance(value, dict):
                for key, item in value.items():
                    if not properties.get(key, extra)(item):
                        return False
            return True

        tests.append(check_object)
    if "items" in schema:
        if not isinstance(schema["items"], (dict, bool)):
            raise UnsupportedSchema("items as an array (prefixItems in 2020-12)")
        each = compile_schema(schema["items"])
        tests.append(lambda value: not isinstance(value, (list, tuple)) or all(each(item) for item in value))
    holds: Callable[[Any, Any], bool]
    for word, holds in (("minLength", lambda n, bound: n >= bound), ("maxLength", lambda n, bound: n <= bound)):
        if word in schema:
            bound = schema[word]
            def length_holds(value: Any, bound: Any = bound, holds: Callable[[Any, Any], bool] = holds) -> bool:
                return not isinstance(value, str) or holds(len(value), bound)

            tests.append(length_holds)
    for word, holds in (("minimum", lambda x, b: x >= b), ("maximum", lambda x, b: x <= b),
                        ("exclusiveMinimum", lambda x, b: x > b), ("exclusiveMaximum", lambda x, b: x < b)):
        if word in schema:
            bound = schema[word]
            if not _number(bound):
                raise UnsupportedSchema(f"{word} {bound!r}")
            def number_holds(value: Any, bound: Any = bound, holds: Callable[[Any, Any], bool] = holds) -> bool:
                return not _number(value) or holds(value, bound)

            tests.append(number_holds)
    if not tests:
        return _always
    if len(tests) == 1:
        return tests[0]
    tests_ = tuple(tests)

    def valid(value: Any) -> bool:
        for test in tests_:
            if not test(value):
                return False
        return True

    return valid


@lru_cache(maxsize=None)
def _python_validator(domain: str) -> Callable[[Any], bool] | None:
    """The domain's schema as Python functions, or ``None`` when it uses a keyword they do
    not take (jsonschema_rs then checks every card)."""
    try:
        return compile_schema(load_schema(domain))
    except UnsupportedSchema:
        return None


def _schema_of(domain: str, card: Any) -> str:
    """The schema a card is validated against: its domain's, or the domain's schema of
    withheld cards when it carries ``withheld``."""
    return domain + WITHHELD_SUFFIX if isinstance(card, dict) and card.get("withheld") is not None else domain


def card_validator(domain: str, count: int = 1) -> Callable[[Any], bool]:
    """Whether one card as JSON validates against ``domain``'s schema (a withheld card:
    the domain's schema of withheld cards), for a run of about ``count`` cards: the
    schema as Python functions for a few, jsonschema_rs for many."""
    plain = _card_validator(domain, count)
    held: list[Callable[[Any], bool]] = []

    def valid(card: Any) -> bool:
        if isinstance(card, dict) and card.get("withheld") is not None:
            if not held:
                held.append(_card_validator(domain + WITHHELD_SUFFIX, count))
            return held[0](card)
        return plain(card)

    return valid


def _card_validator(domain: str, count: int) -> Callable[[Any], bool]:
    python = _python_validator(domain) if count < MANY_CARDS else None
    if python is None:
        return lambda card: _rust_valid(domain, card)

    def valid(card: Any) -> bool:
        try:
            return python(card)
        except Unsure:
            return _rust_valid(domain, card)

    return valid


_checked = [0]


def card_valid(domain: str, card: dict[str, Any]) -> bool:
    """Whether one card as JSON validates against the domain's schema (a process that
    asks about many cards one by one gets jsonschema_rs from the :data:`MANY_CARDS`-th on)."""
    _checked[0] += 1
    return card_validator(domain, _checked[0])(card)


def card_errors(domain: str, card: dict[str, Any]) -> list[str]:
    """Human-readable schema violations of one card as JSON (empty when valid)."""
    return [f"{'/'.join(map(str, e.absolute_path)) or '(card)'}: {e.message}"
            for e in _validator(_schema_of(domain, card)).iter_errors(card)]


def schema_check(domain: str, cards: Iterable[Card], card_json: Iterable[dict[str, Any]] | None = None) -> CheckResult:
    """The always-shown check that every card validates against the domain's schema
    (``card_json``: the cards as JSON, when the caller already made them)."""
    cards = list(cards)
    jsons = list(card_json) if card_json is not None else [card.to_json() for card in cards]
    valid = card_validator(domain, len(cards))
    return schema_result([card.key for card, data in zip(cards, jsons) if not valid(data)])


def schema_result(failed: list[str]) -> CheckResult:
    """The SCHEMA check's result given the keys of the cards that failed, in card order
    (a run made in parts validates each part and puts the keys together)."""
    return CheckResult(
        id="SCHEMA",
        description="모든 카드가 출력 스키마(JSON Schema)를 통과하는지 확인합니다.",
        passed=not failed,
        failed_targets=failed,
    )
