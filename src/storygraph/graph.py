"""The scenario's graph and every walk a lint takes over it, done by networkx.

The graph is a ``networkx.DiGraph``: scenes are nodes (in input order), a branch whose
both ends are scenes is an edge (several branches between the same two scenes are one
edge).  The walks are networkx's algorithms, one each:

* :func:`reachable_from` and :func:`reaching` — the scenes a reader can get to from the
  entries, and the scenes from which an ending can be got to (breadth-first layers,
  :func:`networkx.bfs_layers`, the second over :func:`networkx.reverse_view`);
* :func:`reachable_avoiding` — the same through the branches that can fire only, the
  edges every branch of which is dead left out (:func:`networkx.restricted_view`), or
  inside a set of scenes (a subgraph view);
* :func:`components` — the strongly connected components (the cycles a reader can go
  round, behind ``끝에 못 감`` and behind a once-only choice that can be used up), from
  :func:`networkx.strongly_connected_components` (:mod:`storygraph.reach` counts over
  their :func:`networkx.condensation`);
* :func:`dead_ends` — the dead end each stuck scene runs into (a component of the
  stuck scenes with no way out, from the :func:`networkx.condensation`);
* :func:`nearest_source`, :func:`shortest_way` and :func:`within_hops` — the nearest of
  several scenes (breadth first from all of them at once), a shortest way between two
  scenes, and the scenes near some (a diagram's focus).

networkx is imported with this module, that is when a lint analyses its first scenario;
``storygraph --help`` and ``--version`` do not import it.

>>> g = scene_graph(["a", "b", "c"], [("a", "b"), ("a", "b"), ("b", "c")])
>>> list(g.successors("a")), list(g.predecessors("c")), g.number_of_edges()
(['b'], ['b'], 2)
>>> sorted(reachable_from(g, ["b"])), sorted(reaching(g, ["b", "gone"]))
(['b', 'c'], ['a', 'b', 'gone'])
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping, TypeVar

import networkx as nx

#: a node of a graph (any hashable: scene ids here)
_Node = TypeVar("_Node", bound=Hashable)

__all__ = [
    "scene_graph", "reachable_from", "reaching", "reachable_avoiding", "components",
    "nearest_source", "shortest_way", "ShortestWays", "within_hops", "dead_ends",
]


def scene_graph(nodes: Iterable[Hashable], edges: Iterable[tuple[Hashable, Hashable]]) -> nx.DiGraph:
    """A ``networkx.DiGraph`` of ``nodes`` (in order) and ``edges``; an edge naming a node
    the graph does not hold is refused (``ValueError``) rather than added as a node."""
    g = nx.DiGraph()
    g.add_nodes_from(nodes)
    n = len(g)
    g.add_edges_from(edges)
    if len(g) != n:
        extra = list(g.nodes)[n:]
        raise ValueError(f"an edge names {extra[0]!r}, a node the graph does not hold")
    return g


def _layers(graph, starts: Iterable[Hashable]) -> set:
    """``starts`` and every node reachable from them in ``graph`` (a start that is not a
    node of the graph is in the answer, alone)."""
    seen = set(starts)
    inside = [s for s in seen if s in graph]
    if inside:
        for layer in nx.bfs_layers(graph, inside):
            seen.update(layer)
    return seen


def reachable_from(graph: nx.DiGraph, sources: Iterable[Hashable]) -> set:
    """Nodes on a path from any of ``sources``, the sources included.

    Parameters
    ----------
    graph : networkx.DiGraph
        Read only: nothing is added to it or changed in it.
    sources : iterable of nodes
        A source that is not a node of ``graph`` is in the answer, alone.

    Examples
    --------
    >>> g = scene_graph(["entry", "hall", "end", "island"], [("entry", "hall"), ("hall", "end"), ("island", "hall")])
    >>> sorted(reachable_from(g, ["entry"]))
    ['end', 'entry', 'hall']
    >>> sorted(reachable_from(g, ["gone"])), "gone" in g
    (['gone'], False)
    """
    return _layers(graph, sources)


def reaching(graph: nx.DiGraph, targets: Iterable[Hashable]) -> set:
    """Nodes from which some of ``targets`` can be reached, the targets included (a target
    that is not a node of ``graph`` is in the answer, alone).

    >>> g = scene_graph(["entry", "hall", "end", "cellar"], [("entry", "hall"), ("hall", "end"), ("hall", "cellar")])
    >>> sorted(reaching(g, ["end"]))
    ['end', 'entry', 'hall']
    """
    return _layers(nx.reverse_view(graph), targets)


def reachable_avoiding(graph: nx.DiGraph, starts: Iterable[Hashable], *, cut: Iterable[tuple[Hashable, Hashable]] = (),
                       inside: set | None = None, backwards: bool = False) -> set:
    """What :func:`reachable_from` (or, ``backwards``, :func:`reaching`) gives when the
    edges ``cut`` are left out and, with ``inside``, only those nodes may be passed
    through (a start outside ``inside`` is not in the answer).

    >>> g = scene_graph("abcd", [("a", "b"), ("b", "c"), ("a", "d"), ("d", "c")])
    >>> sorted(reachable_avoiding(g, ["a"], cut=[("a", "b")])), sorted(reachable_avoiding(g, ["c"], inside={"b", "c"}, backwards=True))
    (['a', 'c', 'd'], ['b', 'c'])
    """
    cut = list(cut)
    view = nx.restricted_view(graph, (), cut) if cut else graph
    if inside is not None:
        view = view.subgraph(inside)
        starts = [s for s in starts if s in inside]
    return _layers(nx.reverse_view(view) if backwards else view, starts)


def components(graph: nx.DiGraph) -> list[set]:
    """The strongly connected components of ``graph``, each a set of nodes.

    >>> sorted(map(sorted, components(scene_graph("abc", [("a", "b"), ("b", "a"), ("b", "c")]))))
    [['a', 'b'], ['c']]
    """
    return list(nx.strongly_connected_components(graph))


def nearest_source(graph: nx.DiGraph, sources: Mapping[_Node, object], backwards: bool = False) -> dict:
    """For every node reachable from one of ``sources`` (node -> label) — with
    ``backwards``, every node from which one can be reached — the label of the nearest
    one: breadth first from
    all of them at once, ties going to the source named first, then to the node found
    first.  (A virtual root with an edge to each source in order makes it one
    :func:`networkx.bfs_edges` walk.)

    >>> g = scene_graph("abcd", [("a", "b"), ("b", "c"), ("d", "c")])
    >>> nearest_source(g, {"c": "C", "d": "D"}, backwards=True)
    {'c': 'C', 'd': 'D', 'b': 'C', 'a': 'C'}
    """
    root = _Root()
    view = nx.reverse_view(graph) if backwards else graph
    walk = nx.DiGraph()
    walk.add_node(root)
    walk.add_edges_from((root, s) for s in sources if s in graph)
    walk.add_edges_from(view.edges)
    label: dict = {}
    for parent, child in nx.bfs_edges(walk, root):
        label[child] = sources[child] if parent is root else label[parent]
    for s in sources:  # a source that is not a node of the graph is its own nearest
        label.setdefault(s, sources[s])
    return label


def dead_ends(graph: nx.DiGraph, stuck: Iterable[Hashable]) -> dict:
    """For every node of ``stuck`` (nodes none of whose ways lead out of ``stuck``: the
    scenes from which no ending can be got to), the dead end it runs into: a strongly
    connected component of ``stuck`` with no edge out of it — a scene with no branch
    out, or a loop a reader goes round without a way out — as the tuple of its nodes in
    the graph's order; the nearest one by graph distance when there are several (ties to
    the dead end whose first node comes first), from the
    :func:`networkx.condensation` of the stuck scenes.

    >>> g = scene_graph("abcde", [("a", "b"), ("b", "a"), ("c", "a"), ("c", "d"), ("e", "d")])
    >>> dead_ends(g, "abcd")
    {'a': ('a', 'b'), 'b': ('a', 'b'), 'd': ('d',), 'c': ('a', 'b')}
    """
    sub = graph.subgraph([n for n in stuck if n in graph])
    condensed = nx.condensation(sub)
    order = {n: i for i, n in enumerate(graph)}
    sinks = []
    for c in condensed:
        if condensed.out_degree(c) == 0:
            sinks.append(tuple(sorted(condensed.nodes[c]["members"], key=order.__getitem__)))
    sinks.sort(key=lambda nodes: order[nodes[0]])
    return nearest_source(sub, {n: nodes for nodes in sinks for n in nodes}, backwards=True)


class _Root:
    """The virtual root of :func:`nearest_source`: a node equal to nothing else."""

    __slots__ = ()


def shortest_way(edges: Iterable[tuple[Hashable, Hashable, object]], start: Hashable, home: Hashable) -> list | None:
    """The edge data (the third item of each ``(from, to, data)``) along a shortest way from
    ``start`` to ``home``, breadth first from ``start`` with the edges in the order given
    (of several edges between the same two nodes the first counts); ``[]`` when ``start``
    is ``home``, ``None`` when there is no way.

    >>> shortest_way([("a", "b", 1), ("b", "c", 2), ("a", "c", 3)], "a", "c"), shortest_way([("a", "b", 1)], "b", "a")
    ([3], None)
    """
    return ShortestWays(edges).way(start, home)


class ShortestWays:
    """:func:`shortest_way` over one set of edges asked many times: the graph is built once
    and each start's breadth-first tree once (a lint asking the way between many pairs of
    scenes did both for every pair: work that grew with the square of the story)."""

    def __init__(self, edges: Iterable[tuple[Hashable, Hashable, object]]):
        g = nx.DiGraph()
        for a, b, data in edges:
            if not g.has_edge(a, b):
                g.add_edge(a, b, data=data)
        self.graph = g
        self._parents: dict[Hashable, dict] = {}

    def way(self, start: Hashable, home: Hashable) -> list | None:
        if start == home:
            return []
        g = self.graph
        if start not in g or home not in g:
            return None
        parents = self._parents.get(start)
        if parents is None:
            parents = self._parents[start] = dict(nx.bfs_predecessors(g, start))
        if home not in parents:
            return None
        path = [home]
        while path[-1] != start:
            path.append(parents[path[-1]])
        path.reverse()
        return [g.edges[a, b]["data"] for a, b in zip(path, path[1:])]


def within_hops(nodes: Iterable[Hashable], edges: Iterable[tuple[Hashable, Hashable]], seeds: Iterable[Hashable],
                hops: int) -> set:
    """The nodes at most ``hops`` steps from some of ``seeds`` in the graph of ``nodes`` and
    ``edges`` taken without direction (the seeds included; a seed that is not a node is
    kept alone).

    >>> sorted(within_hops("abcd", [("a", "b"), ("c", "b"), ("c", "d")], ["a"], 2))
    ['a', 'b', 'c']
    """
    around = nx.Graph()
    around.add_nodes_from(nodes)
    around.add_edges_from(edges)
    seen = set(seeds)
    inside = [s for s in seen if s in around]
    if inside:
        for depth, layer in enumerate(nx.bfs_layers(around, inside)):
            if depth > hops:
                break
            seen.update(layer)
    return seen
