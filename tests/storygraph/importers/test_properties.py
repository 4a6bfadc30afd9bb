"""Properties over generated stories: whatever lines a story is made of, the importer
never raises, its tables are well formed, every condition it writes parses, every
message is one polite sentence, and every line that holds a way on becomes a branch or
an issue."""

from __future__ import annotations

from hypothesis import example, given, strategies as st

from storygraph.importers.choicescript import _ChoiceScript
from storygraph.importers.ink import import_ink_text
from storygraph.importers.twee import import_twee_text
from storygraph.importers.yarn import import_yarn_text

from .helpers import check_invariants, nothing_dropped

NAMES = st.sampled_from(["a", "b", "c", "END", "DONE", "a.s", "b.g", "missing"])
CONDS = st.sampled_from(["x", "not x", "n > 2", "n == m", "RANDOM(1, 3) > 1", "a", "s == \"q\"", "(n + 1) > 2",
                         "x and n >= 1", "", "((((x))))", "n >", "x or"])

INK_LINE = st.one_of(
    st.builds(lambda n: f"-> {n}", NAMES),
    st.builds(lambda b, c, n: f"{b} {{{c}}} [go] -> {n}" if c else f"{b} [go] -> {n}",
              st.sampled_from(["*", "+", "* *", "**", "+ +"]), CONDS, NAMES),
    st.builds(lambda b: f"{b} [stay]", st.sampled_from(["*", "+", "* *"])),
    st.builds(lambda g, n: f"{g} -> {n}", st.sampled_from(["-", "- -", "- (g)"]), NAMES),
    st.sampled_from(["- plain gather", "=== a ===", "=== b ===", "= s", "= g", "VAR x = false", "VAR n = 0",
                     "CONST m = 2", "~ n++", "~ n = n + 2", "~ s = \"q\"", "text", "{x: -> a | -> b}", "{~-> a|-> b}",
                     "-> a ->", "->->", "<- b", "{ x:", "- else:", "}", "{", "- n > 1: -> a", "-> END", "LIST l = p"]),
)


@given(st.lists(INK_LINE, max_size=25))
def test_ink_any_lines(lines):
    text = "\n".join(lines)
    story = import_ink_text(text, "gen.ink").finish()
    check_invariants(story)
    nothing_dropped(story, text, r"->|<-|^\s*[*+]")


TWEE_BODY = st.lists(st.sampled_from([
    "[[b]]", "[[go->c]]", "[[b<-back]]", "[[t|a]]", "(link-goto: \"a\")", "(go-to: \"b\")", "(if: $x)[[[c]]]",
    "(else:)[(link: \"l\")[(go-to: \"a\")]]", "(unless: $n > 2)[ [[a]] ]", "<<if $x>>[[a]]<<else>>[[b]]<</if>>",
    "<<link \"t\" \"c\">><</link>>", "<<goto \"a\">>", "<<goto $d>>", "(set: $d to \"b\")", "<<set $n += 1>>",
    "(if: $n is $m)[[[a]]]", "[", "]", "(if:", "<<if", "text", "(display: \"a\")"]), max_size=8)


@given(st.lists(TWEE_BODY, min_size=1, max_size=5))
def test_twee_any_passages(bodies):
    text = "\n\n".join(f":: {name}\n" + "\n".join(body) for name, body in zip(["a", "b", "c", "d", "e"], bodies))
    story = import_twee_text(text, "gen.twee").finish()
    check_invariants(story)
    nothing_dropped(story, text, r"\[\[|\((link|go-?to)[\w-]*:|<<(link|goto)\b")


YARN_LINE = st.one_of(
    st.builds(lambda i, n: " " * i + f"<<jump {n}>>", st.integers(0, 6), st.sampled_from(["A", "B", "Nope"])),
    st.builds(lambda i, c: " " * i + (f"-> pick <<if {c}>>" if c else "-> pick"), st.integers(0, 6), CONDS),
    st.builds(lambda i, s: " " * i + s, st.integers(0, 6), st.sampled_from([
        "<<if $x>>", "<<elseif $n > 1>>", "<<else>>", "<<endif>>", "<<stop>>", "<<set $n to 1>>", "line",
        "<<detour B>>", "<<return>>", "=> random line", "<<jump {$d}>>", "<<declare $x = false>>"])),
)


@given(st.lists(YARN_LINE, max_size=20), st.lists(YARN_LINE, max_size=10))
def test_yarn_any_lines(a, b):
    text = "title: A\n---\n" + "\n".join(a) + "\n===\ntitle: B\n---\n" + "\n".join(b) + "\n===\n"
    story = import_yarn_text(text, "gen.yarn").finish()
    check_invariants(story)
    nothing_dropped(story, text, r"^\s*(->|<<\s*(jump|stop|detour|return)\b)")


CS_LINE = st.builds(lambda i, s: " " * (2 * i) + s, st.integers(0, 4), st.sampled_from([
    "*choice", "*fake_choice", "#option", "*if (x) #opt", "*selectable_if (n > 1) #opt", "*goto l", "*goto nowhere",
    "*label l", "*finish", "*ending", "*if x", "*elseif n = 2", "*else", "*set n + 1", "*set x true", "text",
    "*gosub l", "*return", "*goto_scene other", "*gotoref v", "*set s \"q\"", "*if (n = m)"]))


@given(st.lists(CS_LINE, max_size=25))
# an option line indented under an option of a *fake_choice whose body has no jump: it was
# dropped without an issue (the body was not read at all)
@example(["*fake_choice", "  #option", "    #option", "*choice"])
# a line indented under the only jump of an option was not read either
@example(["*choice", "  #option", "    *goto l", "      #option"])
@example(["*fake_choice", "  #option", "    *selectable_if (n > 1) #opt", "*choice"])
def test_choicescript_any_lines(lines):
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        text = "*create x false\n*create n 0\n" + "\n".join(lines) + "\n"
        (folder / "startup.txt").write_text(text, encoding="utf-8")
        story = _ChoiceScript(folder).run().finish()
        check_invariants(story)
        marker = r"^\s*(\*(goto|goto_scene|gosub|return|finish|ending|gotoref)\b|.*#)"
        labels = {s.source_line for s in story.scenes}
        from verdicts.model import InputIssue
        story.issues = story.issues + [InputIssue(file="x", line=n, reason="label") for n in labels]
        nothing_dropped(story, text, marker)
