"""Twine stories kept as HTML — a Twine 2 published story or library archive
(``<tw-storydata>``), a Twine 1 published story (``<div tiddler>``) — read directly by
``storygraph lint`` and ``storygraph import``, each row at its line of the HTML file."""

from __future__ import annotations

import csv

from storygraph.importers import detect, import_story
from storygraph.importers.selfcheck import import_check
from storygraph.importers.twee import scan_constructs
from storygraph.stories import is_story_file, story_entries

from .helpers import check_invariants

#: a published SugarCube story: the format's code around the story data (which even names
#: ``<tw-storydata``), the story's JavaScript and style sheet, HTML-escaped passage text
PUBLISHED = """<!DOCTYPE html>
<html>
<head><meta charset="utf-8"><title>Ferry</title>
<script>/* the story format: document.querySelector("tw-storydata"); var s = "<tw-storydata"; [[NotAPassage]] */</script>
</head>
<body>
<tw-storydata name="Ferry" startnode="2" creator="Twine" creator-version="2.6.2" ifid="A1B2" format="SugarCube" format-version="2.36.1" options="" hidden><style role="stylesheet" id="twine-user-stylesheet" type="text/twine-css">body { color: red; }</style><script role="script" id="twine-user-script" type="text/twine-javascript">Macro.add(&quot;jump&quot;, { handler() { Engine.play(this.args[0]); } });</script><tw-passagedata pid="1" name="StoryInit" tags="" position="0,0" size="100,100">&lt;&lt;set $ticket to &quot;none&quot;&gt;&gt;</tw-passagedata>
<tw-passagedata pid="2" name="Dock &amp; Pier" tags="" position="100,100" size="100,100">The ferry waits.
&lt;&lt;if $ticket is &quot;none&quot;&gt;&gt;[[Buy a ticket-&gt;Booth]]&lt;&lt;endif&gt;&gt;
[[Board|Deck]]</tw-passagedata>
<tw-passagedata pid="3" name="Booth" tags="" position="200,100" size="100,100">&lt;&lt;set $ticket to &quot;paid&quot;&gt;&gt;
[[Back-&gt;Dock &amp; Pier]]</tw-passagedata>
<tw-passagedata pid="4" name="Deck" tags="ending" position="300,100" size="100,100">Sea &#39;n&#39; sky.
&lt;&lt;if $ticket is &quot;paid&quot;&gt;&gt;[[Cabin]]&lt;&lt;/if&gt;&gt;
[[Twine|https://twinery.org]]</tw-passagedata>
</tw-storydata>
<script title="Twine engine code">var x = 1;</script>
</body>
</html>
"""

TWINE1 = """<html><head><title>Old</title><script>/* Sugarcane */</script></head>
<body>
<div id="storeArea" data-size="4" hidden>
<div tiddler="StoryTitle" tags="" created="201401010000" modifier="twee">Old story</div>
<div tiddler="Start" tags="" created="201401010000" modifier="twee">Hello.\\n&lt;&lt;if $key eq 1&gt;&gt;[[Open|Vault]]&lt;&lt;else&gt;&gt;[[Look]]&lt;&lt;endif&gt;&gt;\\n&lt;&lt;set $key = 1&gt;&gt;</div>
<div tiddler="Look" tags="" created="201401010000" modifier="twee">&lt;&lt;choice "Start" "Back"&gt;&gt;</div>
<div tiddler="Vault" tags="" created="201401010000" modifier="twee">The end.</div>
</div>
</body></html>
"""


def _write(tmp_path, text: str, name: str = "ferry.html"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_published_html_is_read_with_lines_of_the_html_file(tmp_path):
    path = _write(tmp_path, PUBLISHED)
    assert detect(path) == "twee" and is_story_file(path)
    story = import_story(path)
    check_invariants(story)
    assert [(s.scene_id, s.is_entry, s.is_ending, s.source_line) for s in story.scenes] == [
        ("Dock & Pier", True, False, 8), ("Booth", False, False, 11), ("Deck", False, True, 13)]
    assert [(b.branch_id, b.to_scene, b.condition_expr, b.source_line, b.choice_text) for b in story.branches] == [
        ("Dock & Pier#1", "Booth", 'ticket == "none"', 9, "Buy a ticket"), ("Dock & Pier#2", "Deck", "", 10, "Board"),
        ("Booth#1", "Dock & Pier", "", 12, "Back"), ("Deck#1", "Cabin", 'ticket == "paid"', 14, "Cabin")]
    ticket = next(f for f in story.flags if f.flag == "ticket")
    assert ticket.values == ["none", "paid"] and ticket.declared_at == [f"{path}:7"] and ticket.written_at == [f"{path}:11"]
    assert "웹 주소" in story.accounted[(str(path), 15)]   # the external link: no branch
    assert story.issues == []
    assert import_check(story).passed


def test_lint_reads_the_html_story_end_to_end(cli, tmp_path):
    path = _write(tmp_path, PUBLISHED)
    proc = cli("storygraph", "lint", path, "--quiet", "--jobs", "1")
    assert proc.returncode == 1, proc.stderr   # Cabin is missing
    assert "Traceback" not in proc.stderr
    assert f"없는 장면을 가리킴 · Deck#1 ({path}:14)" in proc.stdout
    assert "[실패]" not in proc.stdout


def test_import_writes_the_union_csv_of_the_html_story(cli, tmp_path):
    path = _write(tmp_path, PUBLISHED)
    out = tmp_path / "ferry.csv"
    proc = cli("storygraph", "import", path, "-o", out)
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(out.open(encoding="utf-8")))
    assert [r["scene_id"] for r in rows if r["scene_id"]] == ["Dock & Pier", "Booth", "Deck"]
    assert {r["source_file"] for r in rows if r["scene_id"]} == {str(path)}
    forced = cli("storygraph", "import", path, "--from", "twee", "-o", out)
    assert forced.returncode == 0 and out.read_text(encoding="utf-8").count("\n") == len(rows) + 1


def test_an_html_file_that_is_not_a_twine_story_is_refused_in_korean(cli, tmp_path):
    path = _write(tmp_path, "<!DOCTYPE html><html><body><p>hello [[not a link]]</p></body></html>\n", "page.html")
    assert not is_story_file(path)
    message = "HTML 파일이지만 Twine 이야기(Twine 2의 `<tw-storydata>`나 Twine 1의 `storeArea`)가 들어 있지 않아 읽지 않았습니다."
    for argv in (("lint", path), ("import", path), ("import", path, "--from", "twee")):
        proc = cli("storygraph", *argv)
        assert proc.returncode == 2 and message in proc.stderr and "Traceback" not in proc.stderr, argv
        assert "scene_id" not in proc.stdout   # never an empty table


def test_a_folder_holding_one_html_story(cli, tmp_path):
    folder = tmp_path / "story"
    folder.mkdir()
    _write(folder, PUBLISHED)
    _write(folder, "<html><body>notes</body></html>", "notes.html")   # not a story: left aside
    assert detect(folder) == "twee" and story_entries(folder) == [folder / "ferry.html"]
    assert [s.scene_id for s in import_story(folder).scenes] == ["Dock & Pier", "Booth", "Deck"]
    proc = cli("storygraph", "lint", folder, "--quiet", "--jobs", "1")
    assert proc.returncode == 1 and f"없는 장면을 가리킴 · Deck#1 ({folder / 'ferry.html'}:14)" in proc.stdout


def test_an_archive_of_two_stories_reads_the_first_and_says_so(tmp_path):
    second = ('<tw-storydata name="Other" startnode="1" format="Harlowe" ifid="C3">'
              '<tw-passagedata pid="1" name="Lone" tags="">[[Nowhere]]</tw-passagedata></tw-storydata>\n')
    first = PUBLISHED.split("<tw-storydata name=", 1)[1].split("</tw-storydata>")[0]
    path = _write(tmp_path, "<tw-storydata name=" + first + "</tw-storydata>\n" + second, "library.html")
    story = import_story(path)
    assert [s.scene_id for s in story.scenes] == ["Dock & Pier", "Booth", "Deck"]
    assert [(i.line, i.reason) for i in story.issues] == [
        (11, "보관 파일에 이야기가 2개 있어 첫 이야기 `Ferry`만 읽었습니다 (다른 이야기는 Twine에서 하나씩 내보내 주세요).")]
    assert import_check(story).passed   # the other story's lines are accounted for


def test_twine1_published_html(tmp_path):
    path = _write(tmp_path, TWINE1, "old.html")
    story = import_story(path)
    check_invariants(story)
    assert [(s.scene_id, s.is_entry, s.source_line) for s in story.scenes] == [("Start", True, 5), ("Look", False, 6),
                                                                               ("Vault", False, 7)]
    assert [(b.to_scene, b.condition_expr, b.source_line, b.choice_text) for b in story.branches] == [
        ("Vault", "key == 1", 5, "Open"), ("Look", "not key == 1", 5, "Look"), ("Start", "", 6, "Back")]
    assert import_check(story).passed


def test_scan_constructs_of_html_stories(tmp_path):
    published = [(c.line, c.kind, c.name) for c in scan_constructs(_write(tmp_path, PUBLISHED))]
    assert published == [(7, "scene", "StoryInit"), (8, "scene", "Dock & Pier"), (9, "branch", None), (10, "branch", None),
                         (11, "scene", "Booth"), (12, "branch", None), (13, "scene", "Deck"), (14, "branch", None),
                         (15, "branch", None)]
    old = [(c.line, c.kind, c.name) for c in scan_constructs(_write(tmp_path, TWINE1, "old.html"))]
    assert old == [(4, "scene", "StoryTitle"), (5, "scene", "Start"), (5, "branch", None), (6, "scene", "Look"),
                   (6, "branch", None), (7, "scene", "Vault")]


def test_an_html_story_without_passages_is_refused(tmp_path):
    import pytest
    from verdicts.errors import InputError

    path = _write(tmp_path, '<tw-storydata name="Empty" startnode="" format="Harlowe" ifid="E"></tw-storydata>\n', "empty.html")
    with pytest.raises(InputError, match="패시지가 하나도 없어"):
        import_story(path)
