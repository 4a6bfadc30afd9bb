"""The per-scene half of the analysis, split over the cores.

Deciding shadowing and searching for stuck flag combinations is done scene by scene and
needs nothing from other scenes, so :func:`decide_in_parts` cuts the scenes (in the
order the serial analysis visits them) into contiguous batches that the processes share
through :func:`verdicts.parallel.fork_tasks`.  A worker sends back only what it decided, by
position and id — which branches of its scenes are shadowed and by which, why a scene was
not decided, the stuck combinations, the issues it raised — and the main process puts
the pieces back in order, so the :class:`~storygraph.analysis.Analysis` is the same as
one process would have made.

The analysis calls this module, never the other way round: ``decide`` and ``find_stuck``
come in as arguments, and the one record made here, :class:`~storygraph.facts.SceneShadowing`,
lives in :mod:`storygraph.facts`.
"""

from __future__ import annotations

from dataclasses import fields, replace
from typing import Any

from .facts import SceneShadowing

__all__ = ["decide_in_parts", "PER_SCENE_FIELDS", "check_read_only"]

#: the fields of an Analysis the per-scene work fills (everything else is read only)
PER_SCENE_FIELDS = ("shadowing", "issues", "overlap", "shadowed", "stuck", "class_facts")
#: batches of scenes per process: enough that the processes end together
BATCHES_PER_JOB = 8


def decide_in_parts(a, n: int, decide, find_stuck, *, stuck: bool, alongside=None, on_part=None, meanwhile=None):
    """Run ``decide(sub, items, first)`` (and ``find_stuck(sub)`` when ``stuck``) over
    batches of the scenes' branch lists, shared by ``n`` processes
    (:func:`verdicts.parallel.fork_tasks`), and merge the results into ``a`` in the
    serial order.

    ``decide`` and ``find_stuck`` are the serial analysis steps; ``sub`` is ``a`` with
    fresh containers for :data:`PER_SCENE_FIELDS`, ``items`` a batch of
    ``(scene_id, branches)`` and ``first`` true for the first batch only (which also
    reports what concerns the whole scenario).  ``alongside(a)``, when given, is one
    more task; its result is returned.  ``meanwhile()`` runs in this process before it
    takes a task (see :func:`~verdicts.parallel.fork_tasks`).
    """
    from verdicts.parallel import fork_tasks

    items = list(a.scenario.branches_from().items())
    names = {f.name for f in fields(a)}
    fresh = {name: type(getattr(a, name))() for name in PER_SCENE_FIELDS if name in names}
    # every other container is read only here: one that the per-scene work fills would be
    # lost on the way back, so it stops the run instead (see check_read_only)
    read_only = {name: _size(getattr(a, name)) for name in names if name not in fresh}
    count = max(1, min(len(items), n * BATCHES_PER_JOB))
    cuts = [len(items) * k // count for k in range(count + 1)]
    # the whole-graph work first: it is the longest task, and a late long task ends unevenly
    tasks = (["alongside"] if alongside is not None else []) + list(range(count))

    def do(t: int, w: int):
        task = tasks[t]
        if task == "alongside":
            return alongside(a)
        assert isinstance(task, int)  # the parts are numbered
        part = items[cuts[task]:cuts[task + 1]]
        sub = replace(a, **{k: type(v)() for k, v in fresh.items()})
        decide(sub, part, task == 0)
        if stuck:
            find_stuck(sub)
        check_read_only(sub, read_only)
        positions = {sid: {id(b): k for k, b in enumerate(branches)} for sid, branches in part}
        states = [(sid, [positions[sid][id(b)] for b in st.ordered], st.undecided, st.shadowed)
                  for sid, st in sub.shadowing.items()]
        rest: dict[str, Any] = {k: getattr(sub, k) for k in fresh if k != "shadowing"}
        return states, rest

    by_scene = dict(items)
    result = None
    for task, done in zip(tasks, fork_tasks(n, len(tasks), do, on_part, meanwhile)):
        if task == "alongside":
            result = done
            continue
        states, rest = done
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


def _size(value: Any) -> int | None:
    return len(value) if isinstance(value, (dict, list, set)) else None


def check_read_only(sub: Any, sizes: dict[str, int | None]) -> None:
    """Fail loudly when the per-scene work changed a field that is not one of
    :data:`PER_SCENE_FIELDS` (the merge would drop what it added)."""
    changed = [name for name, size in sizes.items() if size is not None and _size(getattr(sub, name)) != size]
    if changed:
        raise RuntimeError(f"the per-scene analysis filled {', '.join(changed)}, which storygraph.partition does not merge "
                           "back: add it to PER_SCENE_FIELDS")
