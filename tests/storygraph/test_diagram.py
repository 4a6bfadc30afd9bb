"""Diagrams: the real ``dot`` lays them out, and the SVG says what the spec asks."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from storygraph import lint
from storygraph.diagram import (
    DiagramError, DiagramTooLarge, diagram_model, layout, render_svg, to_dot, to_mermaid, write_diagram,
)

ROOT = Path(__file__).resolve().parents[2]
LIGHTHOUSE = ROOT / "examples" / "lighthouse" / "scenario.csv"
HOSTILE = ROOT / "tests" / "data" / "screen" / "hostile.json"
SVG = "{http://www.w3.org/2000/svg}"


def _svg_tree(svg: str) -> ET.Element:
    return ET.fromstring(svg.encode("utf-8"))


def _groups(root: ET.Element, cls: str) -> dict[str, ET.Element]:
    """SVG groups of class ``node``/``edge`` by their id."""
    return {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("class") == cls}


def _text(g: ET.Element) -> str:
    return " ".join(t.text or "" for t in g.iter(f"{SVG}text"))


@pytest.fixture(scope="module")
def lighthouse():
    return lint(LIGHTHOUSE)


@pytest.fixture(scope="module")
def lighthouse_svg(lighthouse):
    return render_svg(diagram_model(lighthouse))


def test_every_scene_and_branch_is_drawn(lighthouse, lighthouse_svg):
    root = _svg_tree(lighthouse_svg)
    nodes, edges = _groups(root, "node"), _groups(root, "edge")
    scenes = lighthouse.scenario.scenes
    missing_targets = {b.to_scene for b in lighthouse.scenario.branches if b.to_scene not in scenes}
    # one node per scene, one ghost per missing target, and the legend
    assert len(nodes) == len(scenes) + len(missing_targets) + 1
    assert len(edges) == len(lighthouse.scenario.branches)
    texts = " ".join(_text(g) for g in nodes.values())
    for scene in scenes.values():
        assert scene.title in texts and scene.scene_id in texts


def test_shapes_tell_entries_endings_and_unreached_apart(lighthouse):
    model = diagram_model(lighthouse)
    dot = to_dot(model)
    by_key = {n.key: n for n in model.nodes}
    verdict = {c.key: c.verdict for c in lighthouse.cards}
    for scene in lighthouse.scenario.scenes.values():
        node = by_key[scene.scene_id]
        line = next(ln for ln in dot.splitlines() if ln.strip().startswith(node.name + " "))
        if verdict[scene.scene_id] == "어디서도 안 닿음":
            assert "shape=hexagon" in line
        elif scene.is_entry:
            assert "shape=house" in line
        elif scene.is_ending:
            assert "shape=doubleoctagon" in line
        else:
            assert "shape=box" in line


def test_ghost_node_for_missing_target(lighthouse, lighthouse_svg):
    missing = [b for b in lighthouse.scenario.branches if b.to_scene not in lighthouse.scenario.scenes]
    assert missing, "the example has a branch pointing at a missing scene"
    root = _svg_tree(lighthouse_svg)
    ghosts = [g for gid, g in _groups(root, "node").items() if gid.startswith("node-g")]
    assert len(ghosts) == len({b.to_scene for b in missing})
    for g in ghosts:
        assert "(없는 장면)" in _text(g)
        assert any(p.get("stroke-dasharray") for p in g.iter(f"{SVG}polygon"))


def test_edges_carry_order_and_condition_and_never_firing_ones_are_dashed(lighthouse, lighthouse_svg):
    root = _svg_tree(lighthouse_svg)
    model = diagram_model(lighthouse)
    edges = _groups(root, "edge")
    shadowed = set(lighthouse.analysis.shadowed)
    assert shadowed, "the example has branches that never fire"
    for e in model.edges:
        g = edges[f"edge-{e.name}"]
        text = _text(g)
        assert text.startswith(f"{e.order_no} · "), text
        if e.condition:
            assert e.condition in text
        dashed = any(p.get("stroke-dasharray") for p in g.iter(f"{SVG}path"))
        assert dashed == (e.branch_id in shadowed), e.branch_id


def test_colours_follow_verdicts_and_legend_counts(lighthouse, lighthouse_svg):
    root = _svg_tree(lighthouse_svg)
    legend = _groups(root, "node")["legend"]
    text = _text(legend)
    counts: dict[str, int] = {}
    for c in lighthouse.cards:
        counts[c.verdict] = counts.get(c.verdict, 0) + 1
    for verdict in ("끝까지 닿음", "어디서도 안 닿음", "없는 장면을 가리킴", "조건이 겹침", "끝에 못 감"):
        assert f"{verdict} ({counts.get(verdict, 0)})" in text
    # two scenes with different verdicts get different fill colours
    model = diagram_model(lighthouse)
    nodes = _groups(root, "node")
    fills = {}
    for n in model.nodes:
        if n.verdict:
            poly = next(nodes[f"node-{n.name}"].iter(f"{SVG}polygon"), None)
            path = next(nodes[f"node-{n.name}"].iter(f"{SVG}path"), None)
            shape = poly if poly is not None else path
            fills.setdefault(n.verdict, set()).add(shape.get("fill"))
    assert all(len(f) == 1 for f in fills.values())
    assert len({next(iter(f)) for f in fills.values()}) == len(fills)


def test_hostile_titles_render_as_text():
    result = lint(HOSTILE)
    svg = render_svg(diagram_model(result))
    root = _svg_tree(svg)  # well-formed XML despite quotes, <, &, newlines
    assert not list(root.iter(f"{SVG}script"))
    assert "<script" not in svg and "<img" not in svg and "<b>" not in svg
    texts = [t.text or "" for t in root.iter(f"{SVG}text")]
    joined = " ".join(texts)
    raw = json.loads(HOSTILE.read_text(encoding="utf-8"))
    assert "<script>alert(1)</script>" in texts
    assert '따옴표 "인용"과 \'작은\' 따옴표' in texts
    assert "<img src=x onerror=alert(2)>" in texts
    # a newline in a title becomes a line break: both lines are there
    assert "줄" in texts and "바꿈 & <b>굵게</b>" in texts
    # \N would be dot's "node name": it must stay as typed (an invisible word joiner follows each backslash)
    backslashed = next(s for s in raw["scene_states"] if s["scene_id"] == "S<4>")["title"]
    assert backslashed in joined.replace("\u2060", "")
    assert "<script>ghost</script>" in joined  # the ghost's id
    # the condition in words on the edge (its user text as text), the condition_expr as written in the tooltip
    assert '3보다 작' in joined and '<b>&' in joined and "<b>&" not in svg


def test_dot_source_has_no_unescaped_user_markup():
    dot = to_dot(diagram_model(lint(HOSTILE)))
    # outside double-quoted strings (tooltips, plain text to dot) no user markup is left:
    # HTML-like labels carry it only as entities
    unquoted = re.sub(r'"(?:[^"\\]|\\.)*"', '""', dot)
    assert "<script>" not in unquoted and "<img" not in unquoted and "<b>" not in unquoted
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in unquoted


def test_focus_on_one_scene_keeps_its_neighbourhood(lighthouse):
    model = diagram_model(lighthouse, focus="SC-05", hops=1)
    keys = {n.key for n in model.nodes}
    neighbours = {b.to_scene for b in lighthouse.scenario.branches if b.from_scene == "SC-05"}
    neighbours |= {b.from_scene for b in lighthouse.scenario.branches if b.to_scene == "SC-05"}
    assert keys == neighbours | {"SC-05"}
    assert all({e.tail, e.head} <= {n.name for n in model.nodes} for e in model.edges)
    assert model.partial and "SC-05" in model.caption()
    wider = diagram_model(lighthouse, focus="SC-05", hops=2)
    assert keys < {n.key for n in wider.nodes}


def test_focus_on_findings_keeps_every_finding(lighthouse):
    model = diagram_model(lighthouse, focus="findings", hops=0)
    keys = {n.key for n in model.nodes}
    for card in lighthouse.cards:
        if card.verdict == "끝까지 닿음":
            continue
        if card.target_kind == "장면":
            assert card.target_no in keys
        else:
            branch = next(b for b in lighthouse.scenario.branches if b.branch_id == card.target_no)
            assert {branch.from_scene, branch.to_scene} <= keys
    assert len(keys) < len(lighthouse.scenario.scenes)


def test_unknown_focus_scene_is_an_error(lighthouse):
    with pytest.raises(DiagramError, match="SC-404"):
        diagram_model(lighthouse, focus="SC-404")


def _chain_scenario(tmp_path: Path, n: int) -> Path:
    rows = ["scene_id,title,is_entry,is_ending,branch_id,from_scene,to_scene,condition_expr,order_no"]
    for i in range(n):
        rows.append(f"S{i},장면 {i},{'Y' if i == 0 else 'N'},{'Y' if i == n - 1 else 'N'},,,,,")
    for i in range(n - 1):
        rows.append(f",,,,B{i},S{i},S{i + 1},,1")
        rows.append(f",,,,C{i},S{i},S{(i * 7 + 3) % n},,2")
    path = tmp_path / "big.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_too_big_graph_is_refused_with_a_clear_message(tmp_path):
    result = lint(_chain_scenario(tmp_path, 60))
    model = diagram_model(result)
    with pytest.raises(DiagramTooLarge, match="--focus"):
        render_svg(model, max_nodes=50)
    # the focus makes it fit
    svg = render_svg(diagram_model(result, focus="S10", hops=1), max_nodes=50)
    assert "S10" in svg


def test_dot_that_takes_too_long_is_stopped(tmp_path):
    result = lint(_chain_scenario(tmp_path, 300))
    with pytest.raises(DiagramTooLarge, match="초 안에"):
        layout(to_dot(diagram_model(result)), "svg", timeout=0.01)


def test_mermaid_escapes_and_shapes():
    text = to_mermaid(diagram_model(lint(HOSTILE)), fenced=True)
    assert text.startswith("```mermaid\nflowchart TD\n")
    body = text.split("```")[1]
    assert "<script" not in body and "<img" not in body
    assert "#lt;script#gt;alert(1)#lt;/script#gt;" in body
    assert "#quot;인용#quot;" in body
    assert re.search(r'-\.->\|"[^"]*"\|', body) is None or "나오지 않음" in body
    # every node line has a generated name, never the user's id
    for line in body.splitlines():
        m = re.match(r"\s+(\S+?)[\[\(\{]", line)
        if m:
            assert re.fullmatch(r"[sg]\d+", m.group(1)), line


def test_write_diagram_by_suffix(tmp_path, lighthouse):
    model = diagram_model(lighthouse)
    assert write_diagram(model, tmp_path / "a.dot") == "dot"
    assert (tmp_path / "a.dot").read_text(encoding="utf-8").startswith("digraph")
    assert write_diagram(model, tmp_path / "a.png") == "png"
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert write_diagram(model, tmp_path / "a.svg") == "svg"
    _svg_tree((tmp_path / "a.svg").read_text(encoding="utf-8"))
    assert write_diagram(model, tmp_path / "a.md") == "mermaid"
    with pytest.raises(DiagramError, match="확장자"):
        write_diagram(model, tmp_path / "a.txt")


# ------------------------------------------------------------------ the commands


def test_render_command_writes_svg(cli, tmp_path):
    out = tmp_path / "story.svg"
    proc = cli("storygraph", "render", LIGHTHOUSE, "-o", out, check_code=0)
    assert "svg" in proc.stderr
    root = _svg_tree(out.read_text(encoding="utf-8"))
    assert len(_groups(root, "edge")) == len(lint(LIGHTHOUSE).scenario.branches)


def test_render_command_mermaid_and_focus(cli, tmp_path):
    out = tmp_path / "story.txt"
    cli("storygraph", "render", LIGHTHOUSE, "-o", out, "--format", "mermaid", "--focus", "SC-17", "--hops", "1", check_code=0)
    text = out.read_text(encoding="utf-8")
    assert text.startswith("flowchart TD")
    assert "선장실" in text and "부두의 첫 만남" not in text


def test_render_command_too_big_fails_cleanly(cli, tmp_path):
    proc = cli("storygraph", "render", _chain_scenario(tmp_path, 40), "-o", tmp_path / "x.svg", "--max-nodes", "10", check_code=2)
    assert "--focus" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "x.svg").exists()


def test_lint_dot_option(cli, tmp_path):
    out = tmp_path / "story.dot"
    proc = cli("storygraph", "lint", LIGHTHOUSE, "--dot", out)
    assert proc.returncode == 1  # the example has findings
    dot = out.read_text(encoding="utf-8")
    assert dot.startswith("digraph") and "SC-88" in dot
    assert layout(dot, "svg").startswith(b"<?xml")


def test_stuck_scenes_are_marked_in_dot_svg_and_mermaid(tmp_path):
    from storygraph import lint
    from storygraph.diagram import diagram_model, render_svg, to_dot, to_mermaid
    from tests.conftest import EXAMPLES

    report = lint(EXAMPLES / "lighthouse" / "scenario.csv")
    model = diagram_model(report)
    stuck = [n.key for n in model.nodes if n.stuck]
    assert stuck == ["SC-21"]
    dot = to_dot(model)
    node = next(n for n in model.nodes if n.key == "SC-21")
    line = next(l for l in dot.splitlines() if l.strip().startswith(node.name + " "))
    assert "peripheries=2" in line and "막히는 조합" in line
    assert "막히는 조합" in render_svg(model)
    assert "⚠ 막히는 조합 있음" in to_mermaid(model)


def test_a_focused_diagram_too_large_suggests_what_was_not_tried_yet():
    # --focus findings already given: the message suggests fewer hops, one scene or higher
    # limits, never the --focus findings the user just ran
    from storygraph.diagram import check_size

    result = lint(LIGHTHOUSE)
    whole = diagram_model(result)
    findings = diagram_model(result, focus="findings")
    tight = diagram_model(result, focus="findings", hops=0)
    with pytest.raises(DiagramTooLarge) as whole_err:
        check_size(whole, max_nodes=1)
    with pytest.raises(DiagramTooLarge) as findings_err:
        check_size(findings, max_nodes=1)
    with pytest.raises(DiagramTooLarge) as tight_err:
        check_size(tight, max_nodes=1)
    assert "`--focus findings`로" in str(whole_err.value)
    assert "`--focus findings`로" not in str(findings_err.value) and "`--hops 0`으로" in str(findings_err.value)
    assert "--hops" not in str(tight_err.value).split("한도를")[0].replace("--hops N", "")
    assert "--max-nodes" in str(tight_err.value)


def test_dot_out_of_time_on_a_focus_on_findings_does_not_suggest_that_focus():
    """A ``dot`` stopped on ``--focus findings`` suggests what was not tried yet (issue 30,
    item 4), not the focus the user just gave."""
    result = lint(LIGHTHOUSE)
    with pytest.raises(DiagramTooLarge) as focused:
        render_svg(diagram_model(result, focus="findings", hops=1), timeout=1e-4)
    with pytest.raises(DiagramTooLarge) as whole:
        render_svg(diagram_model(result), timeout=1e-4)
    assert "배치를 끝내지 못해" in str(focused.value) and "`--focus findings`" not in str(focused.value)
    assert "`--hops 0`으로" in str(focused.value)
    assert "`--focus findings`로" in str(whole.value)


def test_render_focus_findings_past_the_limits_draws_the_first_problems(cli, tmp_path):
    """Where the neighbourhoods of every problem are more than the limit, ``--focus
    findings`` draws those of the problems listed first (as the report screen does), says
    so and gives the ``--max-nodes`` that draws them all (issue 30, item 4)."""
    from storygraph.fuzz import generate

    path = tmp_path / "scenario.csv"
    path.write_text(generate(3, 2000, 4, None).to_csv(), encoding="utf-8")
    out = tmp_path / "problems.svg"
    proc = cli("storygraph", "render", path, "-o", out, "--focus", "findings", "--max-edges", "300", check_code=0)
    drawn = re.search(r"전체 장면 2,000개 가운데 (\d+)개", proc.stderr)
    assert drawn and 0 < int(drawn.group(1)) <= 100, proc.stderr
    need = re.search(r"`--max-nodes (\d+)`[을를] 붙이세요", proc.stderr)
    assert need and int(need.group(1)) > int(drawn.group(1)), proc.stderr
    root = ET.parse(out).getroot()
    nodes = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "node"]
    assert int(drawn.group(1)) <= len(nodes)  # (and the missing scenes drawn apart)
    # a limit the user gives is kept: past it the command refuses and says why
    refused = cli("storygraph", "render", path, "-o", tmp_path / "x.svg", "--focus", "findings", "--max-nodes", "10", check_code=2)
    assert "너무 큽니다" in refused.stderr
