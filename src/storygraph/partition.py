"""The per-scene half of the analysis, split over the cores.

Deciding shadowing and searching for stuck flag combinations is done scene by scene and
needs nothing from other scenes, so :func:`decide_in_parts` hands each process a
contiguous slice of the scenes (in the order the serial analysis visits them) through
:func:`verdicts.parallel.fork_parts`.  A worker sends back only what it decided, by
position and id — which branches of its scenes are shadowed and by which, why a scene was
not decided, the stuck combinations, the issues it raised — and the main process puts
the pieces back in order, so the :class:`~storygraph.analysis.Analysis` is the same as
one process would have made.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from verdicts.parallel import fork_parts

__all__ = ["decide_in_parts", "PER_SCENE_FIELDS"]

#: the fields of an Analysis the per-scene work fills (everything else is read only)
PER_SCENE_FIELDS = ("shadowing", "issues", "overlap", "shadowed", "stuck", "class_facts")
#: the share of scenes, against 1 for the others, of the process that also runs the
#: ``alongside`` work (the whole-graph counts took about a fifth of a slice at 100k scenes)
ALONGSIDE_SHARE = 0.65


def decide_in_parts(a, n: int, decide, find_stuck, *, stuck: bool, alongside=None, on_part=None):
    """Run ``decide(sub, items, first)`` (and ``find_stuck(sub)`` when ``stuck``) over
    ``n`` slices of the scenes' branch lists and merge the results into ``a``.

    ``decide`` and ``find_stuck`` are the serial analysis steps; ``sub`` is ``a`` with
    fresh containers for :data:`PER_SCENE_FIELDS`, ``items`` a slice of
    ``(scene_id, branches)`` and ``first`` true for the first slice only (which also
    reports what concerns the whole scenario).  ``alongside(a)``, when given, runs in
    the last process, whose slice is made smaller for it; its result is returned.
    """
    items = list(a.scenario.branches_from().items())
    names = {f.name for f in fields(a)}
    fresh = {name: type(getattr(a, name))() for name in PER_SCENE_FIELDS if name in names}
    # slices by weight: the process that also runs ``alongside`` takes a smaller one
    weights = [1.0] * n
    if alongside is not None and n > 1:
        weights[-1] = ALONGSIDE_SHARE
    total = sum(weights)
    cuts = [round(len(items) * sum(weights[:k]) / total) for k in range(n + 1)]

    def work(i: int):
        part = items[cuts[i]:cuts[i + 1]]
        extra = alongside(a) if alongside is not None and i == n - 1 else None
        sub = replace(a, **{k: type(v)() for k, v in fresh.items()})
        decide(sub, part, i == 0)
        if stuck:
            find_stuck(sub)
        positions = {sid: {id(b): k for k, b in enumerate(branches)} for sid, branches in part}
        states = [(sid, [positions[sid][id(b)] for b in st.ordered], st.undecided, st.shadowed)
                  for sid, st in sub.shadowing.items()]
        rest: dict[str, Any] = {k: getattr(sub, k) for k in fresh if k != "shadowing"}
        return (states, rest, extra), []

    by_scene = dict(items)
    from .analysis import SceneShadowing

    result = None
    for (states, rest, extra), _ in fork_parts(n, work, on_part):
        if extra is not None:
            result = extra
        for sid, order, undecided, shadowed in states:
            branches = by_scene[sid]
            a.shadowing[sid] = SceneShadowing(sid, [branches[k] for k in order], undecided, shadowed)
        for name, value in rest.items():
            target = getattr(a, name)
            if isinstance(target, list):
                target.extend(value)
            else:
                target.update(value)
    return result
