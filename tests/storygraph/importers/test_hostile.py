"""Hostile input: very deep nesting and unclosed brackets on one long line stay bounded
in time and memory, and end as issues or opaque conditions, never as a crash."""

from __future__ import annotations

import time

import pytest

from storygraph.importers import import_story

from .helpers import check_invariants

N = 50_000
CASES = {
    "braces.ink": "-> a\n=== a ===\n" + "{" * N + "-> b" + "}" * N + "\n=== b ===\n-> END\n",
    "parens.ink": "-> a\n=== a ===\n* {" + "(" * N + "} [x] -> END\n",
    "tunnels.ink": "-> a\n=== a ===\n" + "-> a ->" * (N // 10) + "\n",
    "hooks.twee": ":: A\n" + "(if: $x)[" * N + "[[B]]\n\n:: B\n",
    "ifs.twee": ":: A\n" + "<<if $x>>" * N + "[[B]]\n\n:: B\n",
    "brackets.twee": ":: A\n" + "[[" * N + "\n",
    "links.twee": ":: A\n" + '<<link "' * N + "\n",
    "options.yarn": "title: A\n---\n-> x <<if " + "(" * N + ">>\n===\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_hostile_story_is_bounded(name, tmp_path):
    path = tmp_path / name
    path.write_text(CASES[name], encoding="utf-8")
    start = time.perf_counter()
    story = import_story(path)
    assert time.perf_counter() - start < 30
    check_invariants(story)
    if name not in ("tunnels.ink", "links.twee"):  # those two are well formed, or plain text
        assert story.issues or any(b.condition_opaque for b in story.branches)
