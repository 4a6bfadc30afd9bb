"""The verdict rules of storygraph, one small named unit each, in order of precedence.

A rule answers ``True`` (this verdict), ``False`` (try the next rule) or ``None`` (the
input lacks what the rule needs: the card is withheld and the missing column is already
an issue).  Each rule's docstring is its documentation — *What it flags / Why it
matters / Example / Instead* — and is what ``docs/`` and ``storygraph explain`` print.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

from .analysis import Analysis
from .model import BRANCH, MISSING_TARGET, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, UNREACHED, Branch, Scene

__all__ = ["Rule", "SCENE_RULES", "BRANCH_RULES", "RULES", "judge_scene", "judge_branch"]

T = TypeVar("T")


@dataclass(frozen=True)
class Rule(Generic[T]):
    verdict: str
    code: str
    kind: str
    func: Callable[[Analysis, T], "bool | None"]

    @property
    def doc(self) -> str:
        return (self.func.__doc__ or "").strip()


# ----------------------------------------------------------------------------- scenes


def scene_unreached(a: Analysis, scene: Scene) -> bool | None:
    """어디서도 안 닿음 — no path from any entry scene reaches this scene.

    What it flags:
        A scene that no reader can ever see: it is not an entry (``is_entry``) and no
        chain of branches from an entry leads to it — either nothing points at it, or
        everything that does leaves from scenes that are unreached themselves (an island).
    Why it matters:
        Written content that nobody reads, and often a sign of a branch that was deleted
        or pointed elsewhere by mistake.
    Example:
        ``SC-19`` (선장의 고백) is not an entry and no ``to_scene`` names it.
    Instead:
        Add a branch from a reached scene to it, mark it ``is_entry`` if it is a start,
        or delete it.
    """
    if a.reached is None:
        return None
    return scene.scene_id not in a.reached


def scene_no_ending(a: Analysis, scene: Scene) -> bool | None:
    """끝에 못 감 — reached from an entry, but no ending can be reached from it.

    What it flags:
        A scene readers do reach, after which no path leads to any ``is_ending`` scene:
        a dead end with no outgoing branch, or a loop with no exit.
    Why it matters:
        Readers get stuck with no way to finish the story.
    Example:
        ``SC-27`` (폐선 창고) leads only to ``SC-31`` (부서진 무전기), which has no branch out
        and is not an ending.
    Instead:
        Add a branch towards an ending, or mark the last scene ``is_ending`` if the open
        end is intended (then record that decision, see the manual checks).
    """
    if a.reaches_ending is None:
        return None
    return scene.scene_id not in a.reaches_ending


def scene_reaches(a: Analysis, scene: Scene) -> bool | None:
    """끝까지 닿음 — reached from an entry, and an ending is reachable from it.

    What it flags:
        Nothing wrong: readers can arrive here and can still finish the story.
    Why it matters:
        It is the verdict every scene and branch should have.
    Example:
        ``SC-01`` (부두의 첫 만남) is an entry from which three endings can be reached.
    Instead:
        Nothing to change.
    """
    return True


# ----------------------------------------------------------------------------- branches


def branch_missing_target(a: Analysis, branch: Branch) -> bool | None:
    """없는 장면을 가리킴 — the branch's ``to_scene`` is not a known scene.

    What it flags:
        A branch whose destination is not among the ``scene_id`` values of
        ``scene_states``.
    Why it matters:
        A reader who takes it falls out of the story; usually a deleted scene or a typo.
    Example:
        ``BR-42`` leaves 등대지기의 방 for ``SC-88``, which no scene row has.
    Instead:
        Point the branch at an existing scene, or add the missing scene.
    """
    if not a.scenario.has("scene_states", "scene_id"):
        return None
    return branch.to_scene not in a.scenario.scenes


def branch_unreached(a: Analysis, branch: Branch) -> bool | None:
    """어디서도 안 닿음 — the branch leaves from a scene that no reader reaches.

    What it flags:
        A branch whose ``from_scene`` is unreached from every entry, or is not a known
        scene at all.
    Why it matters:
        The choice is never offered to anyone.
    Example:
        A branch leaving ``SC-19``, which nothing leads to.
    Instead:
        Make its scene reachable, or remove the branch.
    """
    if branch.from_scene not in a.scenario.scenes:
        return True
    if a.reached is None:
        return None
    return branch.from_scene not in a.reached


def branch_shadowing(a: Analysis, branch: Branch) -> bool | None:
    """조건이 겹침 — the next branch of the same scene can never fire.

    What it flags:
        Branches are tried in ``order_no`` order and the first whose condition holds is
        taken.  When every flag combination (over the scene's ``available_flags`` and
        their ``flag_spec`` ranges) that makes a later branch's condition true also
        makes an earlier one true, the later branch never fires.  The card goes on the
        branch immediately before it, with ``overlapping_branch_id`` naming it.  Merely
        overlapping conditions are normal and not flagged.
    Why it matters:
        Content behind the later branch is unreachable through it, and the creator
        usually meant the more specific condition to win.
    Example:
        ``BR-13`` (``trust >= 3``, 순번 3) before ``BR-14`` (``trust >= 3 and has_key``,
        순번 4): every reader who satisfies BR-14 is caught by BR-13 first.
    Instead:
        Put the more specific branch first, or narrow the earlier condition
        (``trust >= 3 and not has_key``).
    """
    return branch.branch_id in a.overlap


def branch_no_ending(a: Analysis, branch: Branch) -> bool | None:
    """끝에 못 감 — the branch leads to a scene from which no ending can be reached.

    What it flags:
        A branch of a reached scene whose ``to_scene`` reaches no ``is_ending`` scene.
    Why it matters:
        Readers who choose it can never finish the story.
    Example:
        ``BR-27`` from 폐선 창고 to 부서진 무전기, a dead end.
    Instead:
        Lead the destination on to an ending, or make the open end an ending.
    """
    if a.reaches_ending is None:
        return None
    return branch.to_scene not in a.reaches_ending


def branch_reaches(a: Analysis, branch: Branch) -> bool | None:
    """끝까지 닿음 — reached, and its destination can still reach an ending.

    What it flags:
        Nothing wrong: the branch is offered to readers and leads on towards an ending.
    Why it matters:
        It is the verdict every branch should have.
    Example:
        ``BR-21`` from 밀수선 갑판 to 항구의 아침.
    Instead:
        Nothing to change.
    """
    return True


SCENE_RULES: tuple[Rule[Scene], ...] = (
    Rule(UNREACHED, "unreached", SCENE, scene_unreached),
    Rule(NO_ENDING, "no-ending", SCENE, scene_no_ending),
    Rule(REACHED_AND_ENDS, "reaches-ending", SCENE, scene_reaches),
)
BRANCH_RULES: tuple[Rule[Branch], ...] = (
    Rule(MISSING_TARGET, "missing-scene", BRANCH, branch_missing_target),
    Rule(UNREACHED, "unreached", BRANCH, branch_unreached),
    Rule(SHADOWING, "shadowed", BRANCH, branch_shadowing),
    Rule(NO_ENDING, "no-ending", BRANCH, branch_no_ending),
    Rule(REACHED_AND_ENDS, "reaches-ending", BRANCH, branch_reaches),
)
RULES = SCENE_RULES + BRANCH_RULES


def _first(rules, a: Analysis, target) -> str | None:
    for rule in rules:
        outcome = rule.func(a, target)
        if outcome is None:
            return None
        if outcome:
            return rule.verdict
    return None  # pragma: no cover - the last rule always fires


def judge_scene(a: Analysis, scene: Scene) -> str | None:
    """The scene's verdict, or ``None`` when the input lacks what it needs."""
    return _first(SCENE_RULES, a, scene)


def judge_branch(a: Analysis, branch: Branch) -> str | None:
    """The branch's verdict, or ``None`` when the input lacks what it needs."""
    return _first(BRANCH_RULES, a, branch)
