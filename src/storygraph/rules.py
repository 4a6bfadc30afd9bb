"""The verdict rules of storygraph, in order of precedence (first match wins).

Each rule owns its predicate (:meth:`test`), its evidence and its sentence
(:meth:`write`, through :mod:`.templates`); the engine (:mod:`verdicts.engine`) tries
them in order and builds the card.  Rules read the facts of one run through ``ctx``, a
:class:`~storygraph.cards.CardBuilder` (the analysis, and the whole-graph counts and
names it keeps).  A rule that lacks what it needs answers
:class:`~verdicts.engine.Missing`: the book's policy is ``withhold`` — the card is not
made and the missing column is already an input issue (the seed forbids guessing).

Each rule's docstring is its documentation — *잡는 것 / 왜 문제인가 / 예시 / 고치는 법* — and is what ``docs/`` and ``storygraph explain`` print.
"""

from __future__ import annotations

import re

from typing import TYPE_CHECKING, Any

from verdicts.engine import Draft, Missing, Rule, RuleBook, Withhold
from verdicts.korean import code

from . import templates as T
from .conditions import flags_of
from .model import BRANCH, MISSING_TARGET, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, UNREACHED, Branch, Scene, StoryCard

if TYPE_CHECKING:
    # ``ctx`` below is the run's CardBuilder; cards.py imports this module, so the edge back
    # is for the type checker only (docs/decisions.md, "Types and lint in CI")
    from .cards import CardBuilder

__all__ = ["SCENE_RULES", "BRANCH_RULES", "RULES", "SCENE_BOOK", "BRANCH_BOOK", "VERDICT_CODES"]

_MISSING_ENTRY = Missing(("scene_states.is_entry",))
_MISSING_ENDING = Missing(("scene_states.is_ending",))
_MISSING_ID = Missing(("scene_states.scene_id",))
#: no ``story_branches`` table at all (a misspelt file or sheet name): where a scene
#: leads is unknown, so neither its reach nor its way to an ending is judged
_MISSING_BRANCHES = Missing(("story_branches.from_scene", "story_branches.to_scene"))


def _scene_cell(scene: Scene, field: str, *, raw: bool = False) -> dict[str, Any]:
    """Cite ``field`` of the scene's row: the typed cell, or with ``raw`` the text as written."""
    value = scene.raw.get(field) if raw else getattr(scene, field)
    return {"source": "scene_states", "field": field, "value": value, "line": scene.line}


def _branch_cell(branch: Branch, field: str) -> dict[str, Any]:
    value = getattr(branch, field)
    if field == "to_scene" and not value:
        value = None  # an opaque jump's empty cell
    return {"source": "story_branches", "field": field, "value": value, "line": branch.line}


def _count(field: str, value: int, source: str) -> dict[str, Any]:
    return {"source": source, "field": field, "agg": "count", "value": value}


# ----------------------------------------------------------------------------- withheld (판정 보류)
#
# An imported story may hold opaque jumps (a way to a scene the importer cannot name):
# a scene that one of them might reach is not called unreached, and a scene from which
# one can be got to is not called stuck; the card is withheld, naming the jump.


def _withhold_unreached(ctx, scene_id: str, branch_id: str | None = None) -> "Withhold | None":
    maybe = ctx.a.maybe_reached
    if maybe is None or scene_id not in maybe:
        return None
    jumps = ctx.reached_jumps()
    source, words, where = ctx.jump_words(jumps[0])
    name = ctx.name(scene_id)
    if branch_id is None:
        reason = T.withheld_unreached(name=name, source=source, place=words, more=len(jumps) - 1)
    else:
        reason = T.withheld_branch_unreached(branch_id=branch_id, name=name, source=source, place=words, more=len(jumps) - 1)
    return Withhold(reason, [where], ctx.jump_evidence(jumps[0]))


def _range_flag(ctx, branch_id: str) -> str | None:
    """A flag of the branch's condition that an opaque effect may set to any value, when
    the branch never fires because its condition cannot hold in the flags' ranges (a
    claim that rests on those ranges)."""
    info = ctx.a.shadowed.get(branch_id)
    effects = ctx.a.opaque_effects
    if not effects or info is None or not info.unsatisfiable:
        return None
    expr = ctx.a.conditions.get(branch_id)
    return next((f for f in sorted(flags_of(expr)) if f in effects), None) if expr is not None else None


def _withhold_range(ctx, branch_id: str) -> "Withhold | None":
    flag = _range_flag(ctx, branch_id)
    if flag is None:
        return None
    spec = ctx.flags.get(flag)
    source = ctx.a.opaque_effects[flag]
    m = re.match(r"^(.*?):(\d+): ", source)
    where = {"file": m.group(1), "line": int(m.group(2))} if m else {"table": "flag_spec", "line": spec.line if spec else None}
    evidence = [{"source": "flag_spec", "field": "effect_source", "value": spec.raw.get("effect_source"), "line": spec.line}] if spec else []
    return Withhold(T.withheld_range(label=T.flag_word(spec) if spec else code(flag), source=source), [where], evidence)


def _withhold_no_ending(ctx, scene_id: str, branch_id: str | None = None) -> "Withhold | None":
    maybe = ctx.a.maybe_reaches
    if maybe is None or scene_id not in maybe:
        return None
    found = ctx.jump_after(scene_id)
    if found is None:  # pragma: no cover - maybe_reaches holds only scenes that get to a jump or an ending
        return None
    bid, more = found
    source, words, where = ctx.jump_words(bid)
    if branch_id is None:
        reason = T.withheld_no_ending(name=ctx.name(scene_id), source=source, place=words, more=more)
    else:
        reason = T.withheld_branch_no_ending(branch_id=branch_id, to_name=ctx.name(scene_id), source=source, place=words,
                                             more=more)
    return Withhold(reason, [where], ctx.jump_evidence(bid))


# ----------------------------------------------------------------------------- scenes


class SceneUnreached(Rule["CardBuilder", Scene]):
    """어디서도 안 닿음 — 어느 시작 장면에서 출발해도 이 장면에 닿는 길이 없습니다.

    잡는 것:
        어떤 독자도 볼 수 없는 장면을 잡습니다. 시작 장면(`is_entry`)이 아니고, 시작 장면에서 분기를 따라가는
        어떤 길도 이 장면에 이르지 않습니다. 이 장면을 가리키는 분기가 아예 없거나, 가리키는 분기가 모두 그
        자신도 닿지 않는 장면에서 출발하는 경우(섬)입니다.
    왜 문제인가:
        써 둔 내용을 아무도 읽지 못합니다. 지운 분기나 실수로 다른 곳을 가리키게 된 분기의 흔적인 경우가
        많습니다.
    예시:
        장면 `SC-19`(선장의 고백)는 시작 장면이 아니고, 이 장면을 `to_scene`으로 적은 분기도 없습니다.
    고치는 법:
        독자가 닿는 장면에서 이 장면으로 오는 분기를 더하거나, 이야기가 여기서 시작한다면 `is_entry`로
        표시하거나, 장면을 지우세요.
    """

    verdict, code, kind = UNREACHED, "unreached", SCENE
    stamp = {"reaches_ending": None}  # not known for a scene nobody reaches
    templates = (T.scene_unreached, T.hedge_island)

    def test(self, ctx, scene):
        if not ctx.has_branch_table:
            return _MISSING_BRANCHES
        reached = ctx.a.reached
        if reached is None:
            return _MISSING_ENTRY
        if scene.scene_id in reached:
            return False
        return _withhold_unreached(ctx, scene.scene_id) or True

    def write(self, ctx, scene, draft):
        incoming = ctx.incoming.get(scene.scene_id, [])
        if ctx.has_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        draft.evidence.append(_count("to_scene", len(incoming), "story_branches"))
        sources = [ctx.labelled(s) for s in dict.fromkeys(b.from_scene for b in incoming)]
        for b in incoming[:5]:
            draft.evidence.append(_branch_cell(b, "from_scene"))
        draft.summary = T.scene_unreached(name=scene.spoken, incoming=len(incoming), sources=sources)
        if incoming:
            draft.hedge(T.hedge_island(sources=sources))


class SceneNoEnding(Rule["CardBuilder", Scene]):
    """끝에 못 감 — 시작 장면에서 닿지만 여기서는 어느 엔딩에도 닿지 못합니다.

    잡는 것:
        독자가 실제로 들어오지만 그 뒤로 어떤 길도 `is_ending` 장면에 이르지 않는 장면을 잡습니다. 나가는 분기가
        없는 막다른 장면이거나, 빠져나갈 길이 없는 고리입니다.
    왜 문제인가:
        독자가 이야기를 끝낼 길 없이 갇힙니다.
    예시:
        장면 `SC-27`(폐선 창고)은 장면 `SC-31`(부서진 무전기)로만 이어지는데, 그 장면은 나가는 분기가 없고
        엔딩도 아닙니다.
    고치는 법:
        엔딩 쪽으로 가는 분기를 더하세요. 열린 결말을 뜻했다면 마지막 장면을 `is_ending`으로 표시하고, 그 결정을
        기록해 두세요(수동 검증 항목을 보세요).
    """

    verdict, code, kind = NO_ENDING, "no-ending", SCENE
    stamp = {"reaches_ending": False}
    templates = (T.scene_no_ending,)

    def test(self, ctx, scene):
        good = ctx.a.reaches_ending
        if good is None:
            return _MISSING_ENDING
        if scene.scene_id in good:
            return False
        return _withhold_no_ending(ctx, scene.scene_id) or True

    def write(self, ctx, scene, draft):
        out = ctx.outgoing.get(scene.scene_id, [])
        draft.evidence.append(_scene_cell(scene, "is_ending"))
        for b in out[:5]:
            draft.evidence.append(_branch_cell(b, "to_scene"))
        draft.evidence.append(_count("from_scene", len(out), "story_branches"))
        draft.evidence.append(_count("is_ending", 0, "scene_states"))
        draft.summary = T.scene_no_ending(name=scene.spoken, outgoing=len(out), onward=ctx.onward_count(scene.scene_id),
                                          endings=ctx.endings)


class SceneReaches(Rule["CardBuilder", Scene]):
    """끝까지 닿음 — 시작 장면에서 닿고 여기서 엔딩에도 닿을 수 있습니다.

    잡는 것:
        잘못된 것은 없습니다. 독자가 여기 들어올 수 있고 여기서 이야기를 끝까지 마칠 수도 있습니다.
    왜 문제인가:
        문제가 아닙니다. 모든 장면과 분기가 받아야 할 판정입니다.
    예시:
        장면 `SC-01`(부두의 첫 만남)은 시작 장면이고, 여기서 엔딩 세 곳에 모두 닿을 수 있습니다.
    고치는 법:
        바꿀 것이 없습니다.
    """

    verdict, code, kind = REACHED_AND_ENDS, "reaches-ending", SCENE
    stamp = {"reaches_ending": True}
    templates = (T.scene_reaches,)

    def write(self, ctx, scene, draft):
        n = ctx.reachable_endings(scene.scene_id)
        if scene.is_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        if scene.is_ending:
            draft.evidence.append(_scene_cell(scene, "is_ending"))
        draft.evidence.append(_count("is_ending", n, "scene_states"))
        draft.summary = T.scene_reaches(name=scene.spoken, is_entry=bool(scene.is_entry), is_ending=bool(scene.is_ending),
                                        reachable_endings=n, endings=ctx.endings)


# ----------------------------------------------------------------------------- branches


class BranchMissingTarget(Rule["CardBuilder", Branch]):
    """없는 장면을 가리킴 — 분기가 가리키는 도착 장면이 장면 목록에 없습니다.

    잡는 것:
        도착 장면(`to_scene`)이 `scene_states`의 `scene_id` 값 가운데 없는 분기를 잡습니다.
    왜 문제인가:
        이 분기를 고른 독자는 이야기 밖으로 떨어집니다. 대개 지운 장면이거나 오타입니다.
    예시:
        분기 `BR-42`는 등대지기의 방에서 `SC-88`로 가는데, 장면 표에는 `SC-88` 줄이 없습니다.
    고치는 법:
        분기가 있는 장면을 가리키게 고치거나, 빠진 장면을 더하세요.
    """

    verdict, code, kind = MISSING_TARGET, "missing-scene", BRANCH
    templates = (T.branch_missing_target, T.hedge_missing_target)

    def test(self, ctx, branch):
        if not ctx.has_scene_id:
            return _MISSING_ID
        return branch.to_scene not in ctx.sc.scenes and branch.branch_id not in ctx.a.opaque_jumps

    def write(self, ctx, branch, draft):
        to_scene = branch.to_scene
        draft.summary = T.branch_missing_target(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene),
                                                condition=ctx.cond(branch), to_scene=to_scene, scenes=len(ctx.sc.scenes))
        draft.evidence.append(_count("scene_id", len(ctx.sc.scenes), "scene_states"))
        draft.hedge(T.hedge_missing_target(to_scene=to_scene, close=ctx.same_spelling(to_scene),
                                           rejected_lines=ctx.sc.rejected_scene_lines))


class BranchUnreached(Rule["CardBuilder", Branch]):
    """어디서도 안 닿음 — 독자가 닿지 않는 장면에서 출발하는 분기입니다.

    잡는 것:
        출발 장면(`from_scene`)이 어느 시작 장면에서도 닿지 않거나 장면 목록에 아예 없는 분기를 잡습니다.
    왜 문제인가:
        이 선택지는 누구에게도 나오지 않습니다.
    예시:
        어떤 분기도 이어지지 않는 장면 `SC-19`에서 출발하는 분기입니다.
    고치는 법:
        출발 장면에 닿는 길을 만들거나, 분기를 지우세요.
    """

    verdict, code, kind = UNREACHED, "unreached", BRANCH
    templates = (T.branch_unreached, T.hedge_from_missing_scene)

    def test(self, ctx, branch):
        if branch.from_scene not in ctx.sc.scenes:
            return True
        reached = ctx.a.reached
        if reached is None:
            return _MISSING_ENTRY
        if branch.from_scene in reached:
            return False
        return _withhold_unreached(ctx, branch.from_scene, branch.branch_id) or True

    def write(self, ctx, branch, draft):
        bid, from_scene = branch.branch_id, branch.from_scene
        scene = ctx.sc.scenes.get(from_scene)
        if scene is None:
            draft.summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=None, incoming=0)
            draft.evidence.append(_count("scene_id", len(ctx.sc.scenes), "scene_states"))
            draft.hedge(T.hedge_from_missing_scene(from_scene=from_scene))
            return
        incoming = len(ctx.incoming.get(scene.scene_id, []))
        if ctx.has_entry:
            draft.evidence.append(_scene_cell(scene, "is_entry"))
        draft.evidence.append(_count("to_scene", incoming, "story_branches"))
        draft.summary = T.branch_unreached(branch_id=bid, from_scene=from_scene, from_name=scene.spoken, incoming=incoming)


class BranchShadowing(Rule["CardBuilder", Branch]):
    """조건이 겹침 — 같은 장면의 바로 뒤 분기가 한 번도 걸리지 않습니다.

    잡는 것:
        분기는 순번(`order_no`) 차례로 따지며, 조건이 처음 맞는 분기로 갑니다. 뒤 분기의 조건을 참으로 만드는
        플래그 조합(장면의 `available_flags`와 그 플래그들의 `flag_spec` 범위 안에서)마다 앞 분기 가운데 하나의
        조건도 참이 된다면, 뒤 분기는 한 번도 걸리지 않습니다. 카드는 그 뒤 분기 바로 앞의 분기에 붙고, 뒤
        분기는 `overlapping_branch_id` 필드에 적힙니다. 조건이 그저 겹치기만 하는 것은 흔한 일이라 잡지 않습니다.
    왜 문제인가:
        뒤 분기 너머의 내용에는 그 분기로 갈 수 없습니다. 게다가 창작자는 대개 더 구체적인 조건이 먼저 걸리기를
        바랐습니다.
    예시:
        분기 `BR-13`(`trust >= 3`, 순번 3)이 분기 `BR-14`(`trust >= 3 and has_key`, 순번 4)보다 앞에 있어,
        `BR-14`의 조건을 채우는 독자는 모두 먼저 `BR-13`에 걸립니다.
    고치는 법:
        더 구체적인 분기를 앞에 두거나, 앞 분기의 조건을 좁히세요(`trust >= 3 and not has_key`).
    """

    verdict, code, kind = SHADOWING, "shadowed", BRANCH
    templates = (T.branch_shadowing, T.hedge_later_unsatisfiable)

    def test(self, ctx, branch):
        later = ctx.a.overlap.get(branch.branch_id)
        if later is None:
            return False
        return _withhold_range(ctx, later) or True

    def write(self, ctx, branch, draft):
        later_id = ctx.a.overlap[branch.branch_id]
        later = ctx.branch_by_id[later_id]
        info = ctx.a.shadowed[later_id]
        evidence = draft.evidence
        evidence.append(_branch_cell(branch, "order_no"))
        evidence.append(_branch_cell(later, "branch_id"))
        evidence.append(_branch_cell(later, "condition_expr"))
        evidence.append(_branch_cell(later, "order_no"))
        if ("story_branches", later_id) in ctx.a.positions:
            # where the story writes the branch that never fires: the card points there
            # (a hidden choice is marked on its own line)
            evidence += [{"source": "story_branches", "field": f, "value": later.raw.get(f), "line": later.line}
                         for f in ("source_file", "source_line")]
        for cid in info.covered_by:
            if cid != branch.branch_id:
                evidence.append(_branch_cell(ctx.branch_by_id[cid], "condition_expr"))
        scene = ctx.sc.scenes.get(branch.from_scene)
        if scene is not None:
            evidence.append(_scene_cell(scene, "available_flags", raw=True))
        used: list[str] = []
        for bid in (later_id, *info.covered_by):
            expr = ctx.a.conditions.get(bid)
            if expr is not None:
                used.extend(f for f in flags_of(expr) if f not in used)
        for f in used:
            spec = ctx.flags.get(f)
            if spec is None:
                continue
            if spec.type == "int":
                for col in ("min_value", "max_value"):
                    if getattr(spec, col) is not None:
                        evidence.append({"source": "flag_spec", "field": col, "value": getattr(spec, col), "line": spec.line})
            elif spec.type == "enum":
                evidence.append({"source": "flag_spec", "field": "values", "value": spec.raw.get("values"), "line": spec.line})
        if info.unsatisfiable:
            draft.hedge(T.hedge_later_unsatisfiable(later_id=later_id))
        draft.summary = T.branch_shadowing(
            branch_id=branch.branch_id, order_no=branch.order_no, from_name=ctx.name(branch.from_scene), later_id=later_id,
            later_order=later.order_no, later_condition=ctx.cond(later), covers=info.covered_by,
            unsatisfiable=info.unsatisfiable, role=info.role,
        )


class BranchNoEnding(Rule["CardBuilder", Branch]):
    """끝에 못 감 — 분기가 가는 장면에서 어느 엔딩에도 닿을 수 없습니다.

    잡는 것:
        독자가 닿는 장면에서 출발하지만, 도착 장면(`to_scene`)에서 어떤 `is_ending` 장면에도 닿지 못하는 분기를
        잡습니다.
    왜 문제인가:
        이 분기를 고른 독자는 이야기를 끝내지 못합니다.
    예시:
        폐선 창고에서 막다른 장면인 부서진 무전기로 가는 분기 `BR-27`입니다.
    고치는 법:
        도착 장면에서 엔딩으로 이어지는 길을 만들거나, 열린 결말을 엔딩으로 표시하세요.
    """

    verdict, code, kind = NO_ENDING, "no-ending", BRANCH
    templates = (T.branch_no_ending,)

    def test(self, ctx, branch):
        good = ctx.a.reaches_ending
        if good is None:
            return _MISSING_ENDING
        bid = branch.branch_id
        if bid in ctx.a.opaque_jumps:
            source, words, where = ctx.jump_words(bid)
            return Withhold(T.withheld_own_jump(branch_id=bid, source=source, place=words), [where], ctx.jump_evidence(bid))
        if branch.to_scene in good:
            return False
        return _withhold_no_ending(ctx, branch.to_scene, bid) or True

    def write(self, ctx, branch, draft):
        to = ctx.sc.scenes[branch.to_scene]
        draft.evidence.append(_scene_cell(to, "is_ending"))
        draft.evidence.append(_count("is_ending", 0, "scene_states"))
        draft.summary = T.branch_no_ending(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene), to_name=to.spoken,
                                           endings=ctx.endings)


class BranchReaches(Rule["CardBuilder", Branch]):
    """끝까지 닿음 — 독자가 닿는 분기이고 도착 장면에서 엔딩에 닿을 수 있습니다.

    잡는 것:
        잘못된 것은 없습니다. 독자에게 나오는 분기이고 엔딩 쪽으로 이어집니다.
    왜 문제인가:
        문제가 아닙니다. 모든 분기가 받아야 할 판정입니다.
    예시:
        밀수선 갑판에서 항구의 아침으로 가는 분기 `BR-21`입니다.
    고치는 법:
        바꿀 것이 없습니다.
    """

    verdict, code, kind = REACHED_AND_ENDS, "reaches-ending", BRANCH
    templates = (T.branch_reaches,)

    def write(self, ctx, branch, draft):
        to_scene = branch.to_scene
        to = ctx.sc.scenes[to_scene]
        n = ctx.reachable_endings(to_scene)
        if to.is_ending:
            draft.evidence.append(_scene_cell(to, "is_ending"))
        else:
            draft.evidence.append({"source": "scene_states", "field": "is_ending", "agg": "count", "value": n})
        draft.summary = T.branch_reaches(branch_id=branch.branch_id, from_name=ctx.name(branch.from_scene),
                                         condition=ctx.cond(branch), to_name=ctx.name(to_scene),
                                         to_is_ending=bool(to.is_ending), reachable_endings=n, endings=ctx.endings)


SCENE_RULES: tuple[Rule, ...] = (SceneUnreached(), SceneNoEnding(), SceneReaches())
BRANCH_RULES: tuple[Rule, ...] = (BranchMissingTarget(), BranchUnreached(), BranchShadowing(), BranchNoEnding(), BranchReaches())
RULES = SCENE_RULES + BRANCH_RULES

#: stable codes of the verdicts (also accepted wherever a Korean label is)
VERDICT_CODES: dict[str, str] = {r.code: r.verdict for r in RULES}


# ----------------------------------------------------------------------------- what every card of a kind says


def _scene_lead(ctx: "CardBuilder", scene: Scene, draft: Draft) -> None:
    """Every scene card cites the scene's id and title first."""
    draft.evidence.append(_scene_cell(scene, "scene_id"))
    if scene.title is not None:
        draft.evidence.append(_scene_cell(scene, "title"))
    if ("scene_states", scene.scene_id) in ctx.a.positions:
        draft.evidence += [_scene_cell(scene, "source_file", raw=True), _scene_cell(scene, "source_line", raw=True)]


def _scene_hedges(ctx: "CardBuilder", scene: Scene, draft: Draft) -> None:
    """The lint findings' hedges on the scene (stuck readers, reached only through a
    dead branch …)."""
    extra = ctx.extra_hedges.get(scene.scene_id)
    if extra:
        draft.hedges.extend(extra)
    live = ctx.a.live
    dead = live.reached_only_through.get(scene.scene_id) if live is not None else None
    if draft.decision.verdict == REACHED_AND_ENDS and draft.summary and live is not None:
        # the tables' paths reach an ending, real readers never get in (or never get
        # out to an ending): say that first
        blocked = live.ending_only_through.get(scene.scene_id)
        if dead:
            _undo(draft, "reached-only-through-dead-branch", T.undone_reached_only_dead(branches=sorted(set(dead))))
        elif blocked:
            _undo(draft, "ending-only-through-dead-branch", T.undone_ending_only_dead(branches=sorted(set(blocked))))


def _undo(draft: Draft, code: str, why: str) -> None:
    """A passing card that real readers do not bear out: the reason first in its summary,
    and the card marked :data:`~verdicts.model.UNDONE` (listed among the problems)."""
    assert draft.summary is not None
    draft.summary = T.undone(why=why, summary=draft.summary)
    draft.undone = {"code": code, "reason": T.undone_reason(why)}


def _branch_lead(ctx: "CardBuilder", branch: Branch, draft: Draft) -> None:
    """Every branch card cites the branch's own cells first."""
    line = branch.line
    draft.evidence += [
        {"source": "story_branches", "field": "branch_id", "value": branch.branch_id, "line": line},
        {"source": "story_branches", "field": "from_scene", "value": branch.from_scene, "line": line},
        # (an opaque jump's cell is empty)
        {"source": "story_branches", "field": "to_scene", "value": branch.to_scene or None, "line": line},
    ]
    if ctx.has_condition:
        draft.evidence.append({"source": "story_branches", "field": "condition_expr", "value": branch.condition_expr, "line": line})
    if ("story_branches", branch.branch_id) in ctx.a.positions:
        # where the story writes the branch (SARIF and annotations point there)
        draft.evidence += [{"source": "story_branches", "field": f, "value": branch.raw.get(f), "line": line}
                           for f in ("source_file", "source_line")]


def _branch_hedges(ctx: "CardBuilder", branch: Branch, draft: Draft) -> None:
    """What holds of the branch whatever its verdict: it never fires (covered by earlier
    branches, or unsatisfiable), its scene's shadowing was not decided, and the lint
    findings' hedges."""
    a, bid = ctx.a, branch.branch_id
    own = a.shadowed.get(bid)
    if own is not None and _range_flag(ctx, bid) is not None:
        own = None  # "it never fires" would rest on a range an opaque effect may break
    if own is not None and draft.decision.verdict == REACHED_AND_ENDS and draft.summary:
        # the branch never fires: its path exists only on paper
        if own.unsatisfiable:
            _undo(draft, "unsatisfiable-condition", T.undone_unsatisfiable())
        else:
            _undo(draft, "never-fires", T.undone_never_fires())
    if own is not None:
        if own.unsatisfiable:
            draft.hedge(T.hedge_unsatisfiable(condition=ctx.cond(branch), first=own.previous is None))
        else:
            same = any(ctx.branch_by_id[c].to_scene == branch.to_scene for c in own.covered_by)
            draft.hedge(T.hedge_never_fires(covers=own.covered_by, same_target=same, to_name=ctx.name(branch.to_scene),
                                            role=own.role))
    if bid in a.opaque:
        draft.hedge(T.hedge_opaque(source=a.opaque[bid]))
    state = a.shadowing.get(branch.from_scene)
    if state is not None and state.undecided is not None:
        undecided = ctx.undecided_clause(branch)
        if undecided is not None:
            scene = ctx.sc.scenes.get(branch.from_scene)
            if scene is not None and ctx.has_available:
                item = _scene_cell(scene, "available_flags", raw=True)
                if item not in draft.evidence:
                    draft.evidence.append(item)
            draft.hedge(undecided)
    extra = ctx.extra_hedges.get(bid)
    if extra:
        draft.hedges.extend(extra)


SCENE_BOOK: RuleBook["CardBuilder", Scene] = RuleBook(SCENE_RULES, fields=StoryCard.field_names, on_missing="withhold",
                                                      lead=_scene_lead, hedges=_scene_hedges)
BRANCH_BOOK: RuleBook["CardBuilder", Branch] = RuleBook(BRANCH_RULES, fields=StoryCard.field_names, on_missing="withhold",
                                                        lead=_branch_lead, hedges=_branch_hedges)
