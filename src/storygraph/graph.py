"""The scenario's graph: scenes are nodes, a branch whose both ends exist is an edge.

It is kept as two adjacency mappings (``succ``, ``pred``: node -> the tuple of its
neighbours, each once, in the order the branches name them) because everything a lint
asks of it is a walk over neighbours: a ``networkx.DiGraph`` of 100,000 scenes cost a
tenth of a second to import, about a second to build and about a hundred megabytes to
hold, for no algorithm of its own.  :meth:`SceneGraph.to_networkx` gives the networkx
graph to whoever wants its algorithms (the tests check our walks against networkx's).

>>> g = SceneGraph(["a", "b", "c"], [("a", "b"), ("a", "b"), ("b", "c")])
>>> g.succ["a"], g.pred["c"], g.number_of_edges()
(('b',), ('b',), 2)
"""

from __future__ import annotations

from typing import Hashable, Iterable, Iterator

__all__ = ["SceneGraph"]

_NONE: tuple = ()


class SceneGraph:
    """A directed graph without edge data, read only once made."""

    __slots__ = ("succ", "pred", "_nodes")

    def __init__(self, nodes: Iterable[Hashable], edges: Iterable[tuple[Hashable, Hashable]]):
        order = dict.fromkeys(nodes)
        out: dict[Hashable, dict] = {}
        into: dict[Hashable, dict] = {}
        for a, b in edges:
            if a not in order or b not in order:
                raise ValueError(f"edge {a!r} -> {b!r} names a node the graph does not hold")
            nxt = out.get(a)
            if nxt is None:
                out[a] = {b: None}
            else:
                nxt[b] = None
            prv = into.get(b)
            if prv is None:
                into[b] = {a: None}
            else:
                prv[a] = None
        self._nodes = order
        #: node -> its successors (only nodes that have some)
        self.succ: dict[Hashable, tuple] = {a: tuple(nxt) for a, nxt in out.items()}
        #: node -> its predecessors (only nodes that have some)
        self.pred: dict[Hashable, tuple] = {b: tuple(prv) for b, prv in into.items()}

    def __contains__(self, node: object) -> bool:
        return node in self._nodes

    def __iter__(self) -> Iterator[Hashable]:
        return iter(self._nodes)

    def __len__(self) -> int:
        return len(self._nodes)

    @property
    def nodes(self) -> list[Hashable]:
        return list(self._nodes)

    def successors(self, node: Hashable) -> tuple:
        return self.succ.get(node, _NONE)

    def predecessors(self, node: Hashable) -> tuple:
        return self.pred.get(node, _NONE)

    def edges(self) -> Iterator[tuple[Hashable, Hashable]]:
        succ = self.succ
        for a in self._nodes:
            for b in succ.get(a, _NONE):
                yield a, b

    def number_of_edges(self) -> int:
        return sum(map(len, self.succ.values()))

    def to_networkx(self):
        """The same graph as a ``networkx.DiGraph`` (networkx is imported here only)."""
        import networkx as nx

        g = nx.DiGraph()
        g.add_nodes_from(self._nodes)
        g.add_edges_from(self.edges())
        return g
