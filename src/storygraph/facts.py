"""The per-scene records of the analysis: why a scene's shadowing was not decided, and
which branch is shadowed by which.

:mod:`storygraph.analysis` makes them and :mod:`storygraph.partition` moves them between
processes; both import them from here, so neither module needs the other's back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from verdicts.records import Frozen

from .model import Branch

__all__ = ["Undecided", "ShadowedBranch", "SceneShadowing"]


class Undecided(Frozen):
    """Why a scene's shadowing was not decided: a ``code`` and its details."""

    code: str  # column | no_flags | order | syntax | kind | undeclared | not_available | type | bad_flag | budget
    column: str | None
    branch_ids: tuple[str, ...]
    flags: tuple[str, ...]
    #: ``budget``: the budget that was spent, in words (``SAT 질문 20,000번``)
    budget: str | None

    __slots__ = ('code', 'column', 'branch_ids', 'flags', 'budget')

    def __init__(self, code: str, column: str | None = None, branch_ids: tuple[str, ...] = (), flags: tuple[str, ...] = (),
                 budget: str | None = None):
        object.__setattr__(self, 'code', code)
        object.__setattr__(self, 'column', column)
        object.__setattr__(self, 'branch_ids', branch_ids)
        object.__setattr__(self, 'flags', flags)
        object.__setattr__(self, 'budget', budget)


class ShadowedBranch(Frozen):
    """Branch ``branch_id`` never fires; ``covered_by`` are the earlier branches that
    together cover it (empty when its condition cannot hold at all)."""

    branch_id: str
    scene_id: str
    covered_by: tuple[str, ...]
    unsatisfiable: bool
    #: the branch immediately before it in order, which carries the ``조건이 겹침`` card
    previous: str | None
    #: ``auto`` (first match), ``choice`` (a player choice hidden by the automatic
    #: branches before the menu) or ``fallback`` (an automatic branch after the menu,
    #: never reached because something is always taken or offered)
    role: str

    __slots__ = ('branch_id', 'scene_id', 'covered_by', 'unsatisfiable', 'previous', 'role')

    def __init__(self, branch_id: str, scene_id: str, covered_by: tuple[str, ...], unsatisfiable: bool, previous: str | None,
                 role: str = "auto"):
        object.__setattr__(self, 'branch_id', branch_id)
        object.__setattr__(self, 'scene_id', scene_id)
        object.__setattr__(self, 'covered_by', covered_by)
        object.__setattr__(self, 'unsatisfiable', unsatisfiable)
        object.__setattr__(self, 'previous', previous)
        object.__setattr__(self, 'role', role)


@dataclass
class SceneShadowing:
    """One scene's branches in ``order_no`` order, and either why their shadowing was not
    decided or which of them are shadowed (by branch id)."""

    scene_id: str
    ordered: list[Branch]
    undecided: Undecided | None = None
    shadowed: dict[str, ShadowedBranch] = field(default_factory=dict)
