"""ink JSON (inklecate's runtime format) importer, on a fixture written by hand after
the documented format (``story_harbor.ink.json``: the compiled form of

    VAR gold = 0
    VAR tries = 1
    -> harbor
    === harbor ===
    Hello.
    * [Talk] -> keeper
    * {gold > 2} [Buy] -> shop
    * [Wait]
    - Night.
    {gold > tries: -> shop}
    -> END
    === keeper ===
    ~ gold = 3
    -> harbor
    === shop ===
    -> DONE
)."""

from __future__ import annotations

import json

import pytest

from storygraph.importers import detect, import_story
from verdicts.errors import InputError

from .helpers import HERE, branch_rows, check_invariants, flag_rows, lint_loads, scene_rows

STORY = HERE / "story_harbor.ink.json"


@pytest.fixture(scope="module")
def story():
    return import_story(STORY)


def test_detected_as_ink_json(tmp_path):
    assert detect(STORY) == "ink-json"
    other = tmp_path / "compiled.json"
    other.write_text(STORY.read_text(encoding="utf-8"), encoding="utf-8")
    assert detect(other) == "ink-json"


def test_rows(story):
    assert scene_rows(story) == [
        ("(top)", True, False, "", None),
        ("harbor", False, False, "gold", None),
        ("keeper", False, False, "", None),
        ("shop", False, False, "", None),
        ("harbor.g-0", False, False, "", None),
        ("DONE", False, True, "", None),
        ("END", False, True, "", None),
    ]  # the gather inklecate puts after the top's divert is not a scene: no flow reaches it
    assert branch_rows(story) == [
        ("(top)#1", "(top)", "harbor", "auto", "", None, False, None),
        ("harbor#1", "harbor", "keeper", "choice", "", None, True, None),
        ("harbor#2", "harbor", "shop", "choice", "gold > 2", None, True, None),
        ("harbor.g-0#1", "harbor.g-0", "shop", "auto", "", "gold > tries", False, None),
        ("harbor.g-0#2", "harbor.g-0", "END", "auto", "", None, False, None),
        ("harbor#3", "harbor", "harbor.g-0", "choice", "", None, True, None),
        ("keeper#1", "keeper", "harbor", "auto", "", None, False, None),
        ("shop#1", "shop", "DONE", "auto", "", None, False, None),
    ]
    assert flag_rows(story) == [("gold", "int", 0, 3, ""), ("tries", "int", 1, 1, "")]
    assert story.issues == []  # `gold > tries` is an opaque condition in the tables, no problem of the story
    assert all(b.source_file == str(STORY) for b in story.branches)
    check_invariants(story)


def test_lint_loads_the_import(story, tmp_path):
    lint_loads(story, tmp_path)


def test_tunnels_and_threads_are_reported(tmp_path):
    doc = {"inkVersion": 21, "root": [[{"->": "a"}, None], "done", {
        "a": ["thread", {"->t->": "b"}, "end", {"#f": 1}],
        "b": ["->->", {"#f": 1}]}]}
    path = tmp_path / "t.ink.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    story = import_story(path)
    assert len(story.issues) == 3
    check_invariants(story)


@pytest.mark.parametrize("text", ["{", "[]", '{"inkVersion": 21}'])
def test_not_ink_json_is_an_input_error(tmp_path, text):
    path = tmp_path / "bad.ink.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError):
        import_story(path)


def test_deep_json_is_refused_clearly(tmp_path):
    path = tmp_path / "deep.ink.json"
    nested = "null"
    for _ in range(600):
        nested = f'["^x", {nested}, null]'
    path.write_text('{"inkVersion": 21, "root": ' + nested + "}", encoding="utf-8")
    with pytest.raises(InputError, match="깊이"):
        import_story(path)
