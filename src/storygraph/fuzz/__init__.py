"""Random scenarios with planted defects, and the count of planted against caught.

:func:`generate` builds a scenario of a given size from ``random.Random(seed)`` — the same
seed, size, flag count and plant counts always give the same scenario — made of a
healthy backbone (every scene reached from an entry and reaching an ending, no branch
shadowed, no condition unsatisfiable) and a stated number of each planted defect:

``unreached_scene``
    a scene no branch points at (its own branches lead into the story);
``island``
    two to four scenes that point at each other but at which nothing reached points;
``missing_target``
    a branch of a reached scene whose ``to_scene`` is no scene;
``shadowed_one``
    a branch whose condition implies the condition of the branch right before it;
``shadowed_union``
    a branch covered by two earlier branches together (``t >= 3`` then ``t < 3``) but by
    neither alone;
``unsatisfiable``
    a branch whose condition cannot hold within the flags' ranges (``t > max``,
    ``b and not b`` …), at ``order_no`` 1 or later;
``dead_end``
    one or two reached scenes that lead nowhere and are not endings;
``loop_no_exit``
    two or three reached scenes that lead only to each other;

and the condition-aware findings beyond the verdicts (named after their finding codes):

``stuck_combination``
    a reached scene whose branches leave some flag assignments uncovered (no fallback);
    the generator counts the uncovered assignments itself;
``reached_only_through_dead_branch``
    one to three scenes entered only through a branch that never fires (shadowed by one
    branch, by a union, or unsatisfiable), leading back into the story;
``ending_only_through_dead_branch``
    one or two reached scenes whose only way towards an ending is such a dead branch
    (their live branches loop among themselves);
``unused_flag``
    a flag declared in ``flag_spec`` that no condition uses;
``available_flag_unused``
    a flag listed in a scene's ``available_flags`` that none of its conditions uses;
``comparison_out_of_range``
    a comparison fixed by the flag's range (``t > 9`` with maximum 5), folded into a
    condition so that the condition still means what it did (``c or t > 9``);
``always_true_condition``
    a written condition true for every reader (``t >= 3 or t < 3``) with later branches.

The three plants that make a branch dead (``shadowed_one``, ``shadowed_union``,
``unsatisfiable``) sometimes send it to a fresh scene behind it, whose
``reached-only-through-dead-branch`` finding is then an explained consequence.

Healthy and planted conditions are checked while generating by brute force over the
full product of each scene's flag ranges — the reference definition, with the package's
own small evaluator (:class:`Cond`) — so the generator never relies on the code it tests.

:func:`compare` then matches a :class:`~storygraph.domain.LintResult` against the
manifest: per kind, how many plants were caught; every other finding is either
*explained* (a consequence of a plant, e.g. the branches leaving an unreached scene) or
*unexplained* (a false positive).

The package is four modules, each importing only those before it:
:mod:`~storygraph.fuzz.scenario` (what is built: kinds, flags, conditions, scenes,
branches, plants, marks, the builder), :mod:`~storygraph.fuzz.planting` (one defect in a
host scene), :mod:`~storygraph.fuzz.generation` (the backbone and the plants around it)
and :mod:`~storygraph.fuzz.comparison` (a report against the plants); :mod:`~storygraph.fuzz.run`
is the ``storygraph fuzz`` run and its terminal report.

>>> g = generate(seed=1, scenes=40, plant={"island": 1})
>>> [p.kind for p in g.plants]
['island']
>>> g.to_csv() == generate(seed=1, scenes=40, plant={"island": 1}).to_csv()
True
"""

from .comparison import Outcome, compare, observed_marks
from .generation import default_plants, generate, scenes_needed
from .run import render_fuzz_text, run_fuzz
from .scenario import (
    KINDS, MENU_KINDS, TRUE, UNION_COLUMNS, BranchDef, Cond, FlagDef, Generated, Mark, Plant, PlantSpec, SceneDef,
)

__all__ = [
    "KINDS", "MENU_KINDS", "scenes_needed", "PlantSpec", "Plant", "FlagDef", "SceneDef", "BranchDef", "Generated", "generate", "default_plants",
    "Mark", "Outcome", "compare", "observed_marks", "run_fuzz", "render_fuzz_text", "UNION_COLUMNS", "Cond", "TRUE",
]
