"""The analysis' graph functions are pure (the caller's graph is never changed), and a
condition nested too deeply is an input issue of its row, not a crash."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, strategies as st

from storygraph.analysis import analyse, reachable_from, reaching
from storygraph.conditions import MAX_NESTING
from storygraph.graph import SceneGraph
from storygraph.loading import load_scenario


def snapshot(g: nx.DiGraph) -> tuple:
    return (list(g.nodes(data=True)), list(g.edges(data=True)), dict(g.graph),
            {n: dict(nbrs) for n, nbrs in g.adj.items()}, {n: dict(nbrs) for n, nbrs in g.pred.items()})


edges = st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=30)


@pytest.mark.parametrize("fn", [reachable_from, reaching])
@given(edges=edges, starts=st.lists(st.integers(0, 20), max_size=4))
def test_graph_functions_leave_the_callers_graph_unchanged(fn, edges, starts):
    g = nx.DiGraph(edges)
    g.add_nodes_from(range(0, 13, 3))
    before = snapshot(g)
    got = fn(g, starts)
    assert snapshot(g) == before  # starts missing from the graph were not added
    # the same answer as networkx, where networkx can answer
    want = set(starts)
    for s in starts:
        if s in g:
            want |= nx.descendants(g, s) if fn is reachable_from else nx.ancestors(g, s)
    assert got == want


@given(edges=edges, starts=st.lists(st.integers(0, 20), max_size=4))
def test_the_scene_graph_walks_as_networkx_does(edges, starts):
    nodes = sorted({n for e in edges for n in e} | set(range(0, 13, 3)))
    g = SceneGraph(nodes, edges)
    ref = nx.DiGraph()
    ref.add_nodes_from(nodes)
    ref.add_edges_from(edges)
    assert g.nodes == list(ref.nodes) and list(g.edges()) == list(ref.edges)
    assert g.to_networkx().adj == ref.adj
    for n in nodes:
        assert list(g.successors(n)) == list(ref.successors(n))
        assert list(g.predecessors(n)) == list(ref.predecessors(n))
    assert reachable_from(g, starts) == reachable_from(ref, starts)
    assert reaching(g, starts) == reaching(ref, starts)


def test_an_edge_to_an_unknown_node_is_refused():
    with pytest.raises(ValueError):
        SceneGraph(["a"], [("a", "b")])


def test_a_start_outside_the_graph_is_reached_alone():
    g = nx.DiGraph([("a", "b")])
    assert reachable_from(g, ["a", "zz"]) == {"a", "b", "zz"}
    assert reaching(g, ("zz",)) == {"zz"}
    assert "zz" not in g and g.number_of_nodes() == 2


@pytest.mark.parametrize("condition", [
    "(" * 244 + "x" + ")" * 244,
    "not " * 978 + "x",
    "(not " * (MAX_NESTING // 2 + 1) + "x" + ")" * (MAX_NESTING // 2 + 1),
])
def test_a_too_deeply_nested_condition_is_an_input_issue(tmp_path, condition):
    path = tmp_path / "scenario.csv"
    path.write_text(
        "scene_id,title,is_entry,is_ending,available_flags,branch_id,from_scene,to_scene,condition_expr,order_no,flag,label,type\n"
        "A,시작,Y,N,x,,,,,,,,\n"
        "B,끝,N,Y,,,,,,,,,\n"
        f',,,,,B1,A,B,"{condition}",1,,,\n'
        ",,,,,B2,A,B,x,2,,,\n"
        ",,,,,,,,,,x,엑스,bool\n",
        encoding="utf-8",
    )
    analysis = analyse(load_scenario(path))
    issues = [i for i in analysis.issues if i.column == "condition_expr"]
    assert len(issues) == 1 and issues[0].line == 4
    assert f"{MAX_NESTING}단계" in issues[0].reason and issues[0].position is not None
    assert analysis.conditions["B1"] is None and analysis.shadowing["A"].undecided.code == "syntax"
