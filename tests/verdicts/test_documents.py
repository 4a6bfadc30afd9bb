"""verdicts.documents: strict JSON and YAML documents (issue 32, item 2) — a repeated
key keeps its first value and is named with its place and its mapping's path; every
key's place is known on demand."""

from __future__ import annotations

import re

import pytest

from verdicts.documents import MAX_LOCATED_CHARS, Repeat, model_keys, parse_json, parse_yaml
from verdicts.errors import InputError
from verdicts.suggest import close_name, misspelling
from verdicts.tables import read_tables

JSON = '{"a": 1,\n "b": {"x": 1, "x": 2},\n "c": [1, {"q": "a\\"{[", "q": 2}],\n "a": 3}'


def test_json_repeats_keep_the_first_value_and_name_their_places():
    doc = parse_json(JSON, "f.json")
    assert doc.data == {"a": 1, "b": {"x": 1}, "c": [1, {"q": 'a"{['}]}
    assert doc.repeats == [Repeat("x", 2, 16, 2, ("b",)), Repeat("q", 3, 26, 3, ("c", 1)), Repeat("a", 4, 2, 1, ())]
    assert doc.where(["b", "x"]) == (2, 8) and doc.where(["c", 1, "q"]) == (3, 12)
    assert doc.where(["nowhere"]) is None


def test_json_without_repeats_locates_keys_on_demand_within_the_bound():
    doc = parse_json('{\n  "a": {\n    "b": 1}}', "f.json")
    assert doc.repeats == [] and doc.where(["a", "b", "c"]) == (3, 5)
    big = '{"pad": "' + "x" * MAX_LOCATED_CHARS + '", "k": 1}'
    assert parse_json(big, "big.json").where(["k"]) is None  # past the bound no second parse


def test_json_errors_and_nesting_are_input_errors_with_places():
    with pytest.raises(InputError, match=r"f\.json:2:7: JSON으로 읽을 수 없습니다"):
        parse_json('{"a": 1,\n "b": }', "f.json")
    with pytest.raises(InputError, match="64단계보다 깊게"):
        parse_json("[" * 70 + "]" * 70, "deep.json")


@pytest.mark.parametrize("text,message", [
    ("a: " + "[" * 20_000 + "]" * 20_000, "64단계보다 깊게 중첩되어 YAML을 읽지 않았습니다"),  # libyaml's own limit first
    ("a: [1, 2", "YAML로 읽을 수 없습니다"),
    ("a:\n  - b\n c: 1", "YAML로 읽을 수 없습니다"),
])
def test_a_yaml_document_and_the_tables_say_the_same(tmp_path, text, message):
    """One reading of YAML (``verdicts.tables.reading_yaml``): a document and a table file
    get the same message for the same broken text, with file, line and column."""
    with pytest.raises(InputError) as doc:
        parse_yaml(text, "f.yaml")
    path = tmp_path / "f.yaml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as table:
        read_tables(path, ["t"], [])
    assert message in str(doc.value) and re.match(r"f\.yaml:\d+:\d+: ", str(doc.value)), doc.value
    assert str(table.value).endswith(str(doc.value)), (table.value, doc.value)


def test_yaml_repeats_and_places_and_merge_keys():
    doc = parse_yaml("base: &b {p: 1}\nm:\n  <<: *b\n  p: 2\n  q: 1\n  q: 3\n", "f.yaml")
    assert doc.data["m"] == {"p": 2, "q": 1}  # the mapping's own key wins over the merged one, which is no repeat
    assert doc.repeats == [Repeat("q", 6, 3, 5, ("m",))]
    assert doc.where(["m", "q"]) == (5, 3)


def test_yaml_keeps_the_alias_bound():
    bomb = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n" for i in range(8))
    with pytest.raises(InputError, match="별칭"):
        parse_yaml(bomb, "bomb.yaml")


def test_one_did_you_mean():
    assert close_name("conditon_expr", ["condition_expr", "order_no"]) == "condition_expr"
    assert close_name("zzz", ["condition_expr"]) is None
    assert misspelling("fial_on", ["fail_on"]) == " `fail_on` 키의 오타라면 `fail_on`으로 고치면 됩니다."


def test_model_keys_follow_nested_models():
    from verdicts.residue.model import Component

    assert "slot_kind" in model_keys(Component, ("binding", 0)) and "component_id" in model_keys(Component, ())
    assert model_keys(Component, ("component_id",)) == []
