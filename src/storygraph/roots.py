"""The root cause of each ``끝에 못 감`` card: the dead end it runs into.

Many scenes and branches that cannot reach an ending are caused by one dead end — a
scene with no branch out, or a loop a reader goes round with no way out.  The text
report lists them under that dead end (:meth:`verdicts.domain.Domain.root_causes`),
its own cards first.  The dead ends are the strongly connected components of the stuck
scenes with no edge out (:func:`storygraph.graph.dead_ends`); a scene or branch that
leads to several goes under the nearest.
"""

from __future__ import annotations

from verdicts.korean import code

from .analysis import Analysis
from .graph import dead_ends
from .templates import dead_end_heading

__all__ = ["root_causes"]


def root_causes(analysis: Analysis) -> dict[str, tuple[str, str, bool]]:
    """Scene or branch id → ``(dead end, heading, whether it is the dead end's own)``
    for every scene from which no ending can be got to and every branch into one
    (nothing when that cannot be known)."""
    if analysis.reaches_ending is None:
        return {}
    scenario = analysis.scenario
    ends = analysis.reaches_ending
    stuck = [s for s in analysis.graph if s not in ends]
    if not stuck:
        return {}
    nearest = dead_ends(analysis.graph, stuck)
    headings: dict[tuple, str] = {}

    def named(scene_id: str) -> str:
        scene = scenario.scenes.get(scene_id)
        return f"{scene.name}({code(scene_id)})" if scene and scene.name != scene_id else code(scene_id)

    def root_of(nodes: tuple) -> tuple[str, str]:
        if nodes not in headings:
            loop = len(nodes) > 1 or analysis.graph.has_edge(nodes[0], nodes[0])
            headings[nodes] = dead_end_heading(names=[named(n) for n in nodes], loop=loop)
        return str(nodes[0]), headings[nodes]

    out: dict[str, tuple[str, str, bool]] = {}
    for scene_id, nodes in nearest.items():
        root, heading = root_of(nodes)
        out[str(scene_id)] = (root, heading, scene_id in nodes)
    for branch in scenario.branches:
        nodes = nearest.get(branch.to_scene)
        if nodes is None or branch.branch_id in out:
            continue
        root, heading = root_of(nodes)
        out[branch.branch_id] = (root, heading, branch.from_scene in nodes)
    return out
