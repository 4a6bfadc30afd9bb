"""The analysis' graph functions are pure (the caller's graph is never changed), and a
condition nested too deeply is an input issue of its row, not a crash."""

from __future__ import annotations

import networkx as nx
import pytest
from hypothesis import given, strategies as st

from storygraph.analysis import analyse, reachable_from, reaching
from storygraph.conditions import MAX_NESTING
from storygraph.graph import nearest_source, reachable_avoiding, scene_graph, shortest_way
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


@given(edges=edges)
def test_the_scene_graph_keeps_the_input_order(edges):
    nodes = sorted({n for e in edges for n in e} | set(range(0, 13, 3)))
    g = scene_graph(nodes, edges)
    ref = nx.DiGraph()
    ref.add_nodes_from(nodes)
    ref.add_edges_from(edges)
    assert list(g.nodes) == nodes and list(g.edges) == list(ref.edges)
    assert g.number_of_edges() == len(set(edges))


def test_an_edge_to_an_unknown_node_is_refused():
    with pytest.raises(ValueError):
        scene_graph(["a"], [("a", "b")])


@given(edges=edges, starts=st.lists(st.integers(0, 12), max_size=4), cut=st.lists(st.tuples(st.integers(0, 12), st.integers(0, 12)), max_size=6),
       inside=st.none() | st.sets(st.integers(0, 12)))
def test_a_walk_avoiding_edges_and_staying_inside_is_a_walk_of_the_smaller_graph(edges, starts, cut, inside):
    g = scene_graph(range(13), edges)
    before = snapshot(g)
    for backwards in (False, True):
        smaller = g.copy()
        smaller.remove_edges_from(cut)
        if inside is not None:
            smaller = smaller.subgraph(inside).copy()
        if backwards:
            smaller = smaller.reverse()
        kept = [s for s in starts if inside is None or s in inside]
        want = set(kept).union(*(nx.descendants(smaller, s) for s in kept))
        assert reachable_avoiding(g, starts, cut=cut, inside=inside, backwards=backwards) == want
    assert snapshot(g) == before


@given(edges=edges, sources=st.lists(st.integers(0, 12), max_size=4, unique=True))
def test_the_nearest_source_is_one_at_the_least_distance(edges, sources):
    g = scene_graph(range(13), edges)
    labels = {s: f"L{s}" for s in sources}
    got = nearest_source(g, labels, backwards=True)
    rev = g.reverse()
    dist = {s: nx.single_source_shortest_path_length(rev, s) for s in sources}
    for node in range(13):
        near = [dist[s][node] for s in sources if node in dist[s]]
        if not near:
            assert node not in got
            continue
        # the label names a source at the least distance
        assert dist[int(got[node][1:])][node] == min(near)
    # ties go to the source named first
    if sources:
        assert got[sources[0]] == labels[sources[0]]


@given(edges=edges, start=st.integers(0, 12), home=st.integers(0, 12))
def test_a_shortest_way_is_a_way_of_the_least_length(edges, start, home):
    triples = [(a, b, i) for i, (a, b) in enumerate(edges)]
    way = shortest_way(triples, start, home)
    g = nx.DiGraph(edges)
    g.add_nodes_from([start, home])
    if not nx.has_path(g, start, home):
        assert way is None
        return
    assert way is not None and len(way) == nx.shortest_path_length(g, start, home)
    at = start
    for i in way:
        a, b, _ = triples[i]
        assert a == at and i == min(j for j, t in enumerate(triples) if t[:2] == (a, b))
        at = b
    assert at == home


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
