"""Counting, for every scene at once, how many scenes of a kind it can reach — in
linear passes instead of one graph search per scene.

The cards say how many endings a scene still leads to, and how many scenes lie onward of
a scene that reaches no ending.  Asking ``nx.descendants`` once per scene is quadratic
(each search may walk the whole graph).  Here the graph is condensed into its strongly
connected components (iterative Tarjan, so a chain of 200,000 scenes needs no
recursion), and each component's reachable targets are an int used as a bitset, OR-ed
over its successors in reverse topological order.  A component's bitset is dropped as
soon as its last predecessor has used it, so only the frontier is kept in memory.
"""

from __future__ import annotations

from typing import Hashable, Iterable, Mapping, Sequence

__all__ = ["strongly_connected", "reach_counts"]


def strongly_connected(nodes: Sequence[Hashable], succ: Mapping[Hashable, Iterable[Hashable]]) -> tuple[dict, list[list]]:
    """Tarjan's algorithm without recursion.

    Returns ``(component_of, components)`` where ``components`` lists the strongly
    connected components in reverse topological order: every component that a
    component reaches comes before it.

    >>> comp, comps = strongly_connected("abc", {"a": "b", "b": "ac", "c": ""})
    >>> [sorted(c) for c in comps]
    [['c'], ['a', 'b']]
    """
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    comp_of: dict = {}
    comps: list[list] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(succ.get(root, ())))]
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    if nxt not in succ:
                        continue  # not a node of the graph
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ.get(nxt, ()))))
                    advanced = True
                    break
                if nxt in on_stack and index[nxt] < low[node]:
                    low[node] = index[nxt]
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp_of[w] = len(comps)
                    comp.append(w)
                    if w == node:
                        break
                comps.append(comp)
    return comp_of, comps


def reach_counts(nodes: Sequence[Hashable], succ: Mapping[Hashable, Iterable[Hashable]], targets: Iterable[Hashable]) -> dict:
    """For every node, how many ``targets`` it reaches (itself included when it is one).

    ``succ`` maps each node to its successors; successors that are not in ``succ`` are
    ignored.

    >>> reach_counts("abcd", {"a": "bc", "b": "d", "c": "d", "d": ""}, "cd")
    {'a': 2, 'b': 1, 'c': 2, 'd': 1}
    """
    comp_of, comps = strongly_connected(nodes, succ)
    target_set = set(targets)
    # successor components and how many predecessors still need each component's bitset
    comp_succ: list[set[int]] = [set() for _ in comps]
    waiting = [0] * len(comps)
    for ci, comp in enumerate(comps):
        out = comp_succ[ci]
        for node in comp:
            for nxt in succ.get(node, ()):
                cj = comp_of.get(nxt)
                if cj is not None and cj != ci and cj not in out:
                    out.add(cj)
                    waiting[cj] += 1
    bits: dict[int, int] = {}
    counts: dict = {}
    next_bit = 0
    for ci, comp in enumerate(comps):  # reverse topological: successors come first
        mine = 0
        for node in comp:
            if node in target_set:
                mine |= 1 << next_bit
                next_bit += 1
        for cj in comp_succ[ci]:
            mine |= bits[cj]
            waiting[cj] -= 1
            if waiting[cj] == 0:
                del bits[cj]
        if waiting[ci]:
            bits[ci] = mine
        n = mine.bit_count()
        for node in comp:
            counts[node] = n
    return {node: counts[node] for node in nodes if node in counts}
