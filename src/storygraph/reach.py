"""Counting, for every scene at once, how many scenes of a kind it can reach — in
linear passes instead of one graph search per scene.

The cards say how many endings a scene still leads to, and how many scenes lie onward of
a scene that reaches no ending.  Asking ``nx.descendants`` once per scene is quadratic
(each search may walk the whole graph).  Here the graph is condensed into its strongly
connected components by networkx (:func:`networkx.condensation`).  Walking the
components in reverse topological order, a component with one successor adds its own
targets to that successor's count; only a component with several successors needs the
union of their sets, made as an int used as a bitset and kept for the merges above it.
"""

from __future__ import annotations

from typing import Hashable, Iterable

import networkx as nx

__all__ = ["reach_counts"]


def reach_counts(graph: nx.DiGraph, targets: Iterable[Hashable]) -> dict:
    """For every node of ``graph`` (a ``networkx.DiGraph`` or a view of one), how many
    ``targets`` it reaches (itself included when it is one).

    A component with a single successor component reaches its own targets plus exactly
    what that successor reaches (the two sets are disjoint in a DAG), so its count is a
    sum and no bitset is made for it unless a component with several successors needs
    its set.  Chains therefore cost linear time; only real merges OR bitsets.

    >>> reach_counts(nx.DiGraph([("a", "b"), ("a", "c"), ("b", "d"), ("c", "d")]), "cd")
    {'a': 2, 'b': 1, 'c': 2, 'd': 1}
    """
    dag = nx.condensation(graph)
    # components numbered in reverse topological order: every successor before its component
    order = list(nx.topological_sort(dag))[::-1]
    number = {c: i for i, c in enumerate(order)}
    comp_of = {node: number[c] for node, c in dag.graph["mapping"].items()}
    comps = [dag.nodes[c]["members"] for c in order]
    target_set = set(targets)
    n = len(comps)
    comp_succ: list[list[int]] = [[number[d] for d in dag.succ[c]] for c in order]
    # bit positions of each component's own targets
    own: list[list[int]] = [[] for _ in comps]
    next_bit = 0
    for ci, comp in enumerate(comps):
        for node in comp:
            if node in target_set:
                own[ci].append(next_bit)
                next_bit += 1
    width = (next_bit + 7) // 8

    memo: dict[int, int] = {}

    def bitset(ci: int) -> int:
        """The set of targets reachable from component ``ci``, as an int (iterative:
        follow single-successor links down to a memoised or merging component)."""
        chain: list[int] = []
        cur = ci
        while cur not in memo and len(comp_succ[cur]) == 1:
            chain.append(cur)
            cur = comp_succ[cur][0]
        if cur not in memo:
            base = 0
            for cj in comp_succ[cur]:
                base |= bitset(cj)  # merges below were memoised in an earlier step
            memo[cur] = base | _bits(own[cur], width)
        if not chain:
            return memo[cur]
        positions = [b for c in chain for b in own[c]]
        result = memo[cur] | _bits(positions, width)
        memo[ci] = result
        return result

    counts = [0] * n
    for ci in range(n):  # reverse topological: successors come first
        out = comp_succ[ci]
        if len(out) == 1:
            counts[ci] = len(own[ci]) + counts[out[0]]
        elif not out:
            counts[ci] = len(own[ci])
        else:
            counts[ci] = bitset(ci).bit_count()
    return {node: counts[comp_of[node]] for node in graph}


def _bits(positions: list[int], width: int) -> int:
    """An int with exactly the given bits set (built in one pass over a byte array)."""
    if not positions:
        return 0
    if len(positions) < 8:
        value = 0
        for p in positions:
            value |= 1 << p
        return value
    buf = bytearray(width)
    for p in positions:
        buf[p >> 3] |= 1 << (p & 7)
    return int.from_bytes(buf, "little")
