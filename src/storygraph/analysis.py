"""From a typed :class:`Scenario` to the facts the verdicts rest on.

* the scenario's graph (a ``networkx.DiGraph``, :func:`~storygraph.graph.scene_graph`:
  scenes are nodes, a branch whose both ends exist is an edge);
* which scenes are reached from an entry and which reach an ending;
* the conditions, parsed and checked against ``flag_spec`` (problems become issues);
* per scene, the shadowing decision, or why it was not decided.

Nothing here writes sentences or cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

import networkx as nx

from verdicts.errors import ConditionSyntaxError
from verdicts.korean import code, josa
from verdicts.model import InputIssue

from .conditions import Expr, TypeProblem, check_types, expr_facts, parse_condition, types_fit
from .budgets import DEFAULT_BUDGETS, BudgetExceeded, Budgets
from .fixes import FixMemo, condition_text_fix, quoted, type_problem_fix
from .facts import SceneShadowing, ShadowedBranch, Undecided
from .graph import components, reachable_from, reaching, scene_graph
from .liveness import LiveReach, StuckScene, live_reachability, uncovered
from .model import Branch, Scenario
from .shadowing import FlagDomain, decide_scene, flag_domain, make_flag_domain, menu_blockers

__all__ = ["Undecided", "SceneShadowing", "ShadowedBranch", "Analysis", "AnalysisMemo", "analyse", "analyse_again",
           "reachable_from", "reaching",
           "TABLE_FORMS"]


@dataclass
class Analysis:
    """Everything the verdicts, findings and cards of one scenario rest on (made by
    :func:`analyse`; read only afterwards)."""

    scenario: Scenario
    graph: nx.DiGraph
    entries: list[str]
    endings: list[str]
    #: ``None`` when it cannot be known (the ``is_entry`` / ``is_ending`` column is missing)
    reached: set[str] | None
    reaches_ending: set[str] | None
    shadowing: dict[str, SceneShadowing]
    conditions: dict[str, Expr | None]
    issues: list[InputIssue]
    #: branch id -> the shadowed branch that follows it (its ``overlapping_branch_id``)
    overlap: dict[str, str] = field(default_factory=dict)
    #: branch id -> how it is shadowed
    shadowed: dict[str, ShadowedBranch] = field(default_factory=dict)
    #: reachability through branches that can fire (``None`` when structural reachability is unknown)
    live: LiveReach | None = None
    #: scene id -> the flag assignments under which none of its branches fires
    stuck: dict[str, StuckScene] = field(default_factory=dict)
    #: scene id -> ``(covered, always)`` as the class enumeration of its conditions found
    #: them on the way (:func:`~storygraph.shadowing.decide_scene`): whether every
    #: assignment fires some branch, and the positions (last branch excluded) of the
    #: conditions true for every assignment.  Only for scenes so decided; the stuck search
    #: and the findings skip work with it and ask for themselves elsewhere.
    class_facts: dict[str, tuple[bool, tuple[int, ...]]] = field(default_factory=dict)
    #: what the caller's ``alongside`` function returned (see :func:`analyse`)
    alongside: Any = None
    #: in a run over several processes, the scenario facts every batch's checks share
    #: (a :class:`storygraph.checks.CheckContext` made while the scenes are decided)
    check_facts: Any = None
    #: branch id -> ``choice`` for the player choices (the ``kind`` column); absent = ``auto``
    kinds: dict[str, str] = field(default_factory=dict)
    #: branch id -> the story's own condition text, for the opaque conditions
    #: (``condition_opaque`` = 1: may or may not hold)
    opaque: dict[str, str | None] = field(default_factory=dict)
    #: whether the input carries the ``kind`` column (menu-aware input)
    menus: bool = False
    #: the once-only choices (``once_only``) of scenes a reader can come back to: by then
    #: the choice may be used up, so it covers no other branch (it is still decided)
    weak: set[str] = field(default_factory=set)
    #: branch id -> the construct as written, for the opaque jumps (``jump_opaque`` = 1:
    #: the branch may lead to any scene; ``to_scene`` is empty)
    opaque_jumps: dict[str, str] = field(default_factory=dict)
    #: the scenes some reader may reach once the opaque jumps may go anywhere (a superset
    #: of ``reached``; ``None``: as ``reached``), and those from which an ending may be
    #: reached (a superset of ``reaches_ending``)
    maybe_reached: set[str] | None = None
    maybe_reaches: set[str] | None = None
    #: flag -> where a write of it cannot be computed (``effect_opaque`` = 1): it may take
    #: any value there, so no finding rests on its range
    opaque_effects: dict[str, str] = field(default_factory=dict)
    #: ``(table, scene or branch id)`` -> ``(source_file, source_line)``: where an
    #: imported story writes the row (only rows that say so)
    positions: dict[tuple[str, str], tuple[str, int | None]] = field(default_factory=dict)
    #: whether the tables were imported from a story linted directly
    story: bool = False
    #: the per-scene budgets of the exact searches (:mod:`storygraph.budgets`)
    budgets: Budgets = DEFAULT_BUDGETS
    #: what the fixes (:mod:`storygraph.fixes`) make once for this analysis and read again
    fix_memo: FixMemo | None = field(default_factory=FixMemo, repr=False, compare=False)
    #: what :func:`~storygraph.findings.collect_findings` may keep from the last lint of
    #: the same scenario (a :class:`~storygraph.findings.FindingMemo`, set by
    #: :mod:`storygraph.incremental`); ``None``: everything is found afresh
    reuse: Any = None

    def incoming(self, scene_id: str) -> list[Branch]:
        return [b for b in self.scenario.branches if b.to_scene == scene_id]


_ABSENT = object()


@dataclass
class AnalysisMemo:
    """What :func:`analyse` keeps from one analysis of a scenario for the next analysis
    of the same scenario after an edit (:mod:`storygraph.incremental`).

    A scene's shadowing decision is kept under a key made of exactly what the decision
    reads: the scene's branches in input order (id, line, condition text, ``order_no``,
    ``kind``, opacity), whether the scene exists and its ``available_flags``, and the
    ``flag_spec`` rows of the flags its conditions use; the stuck search of a scene
    under that key and the ``flag_spec`` rows of its ``available_flags``.  What concerns
    the whole scenario (which columns exist, the files) is ``env``: when it changes,
    nothing is kept.  The graph is kept while the scenes and the edges between them
    stay the same, and the live reachability while the branches, the dead branches,
    the entries and the endings do.  Only what the last analysis used is kept."""

    env: Any = None
    #: scene key (its rows) -> ``(flags used, their flag_spec rows, order, undecided,
    #: shadowed, class facts, issues, scene key)``
    scenes: dict = field(default_factory=dict)
    #: ``(scene key, flag_spec rows of available_flags)`` -> stuck combinations or ``None``
    stuck: dict = field(default_factory=dict)
    #: ``(key, graph)``
    graph: Any = None
    #: ``(key, live reachability)``
    live: Any = None
    #: the refused ``flag_spec`` rows (flag -> line) of the scenario analysed
    rejected: dict = field(default_factory=dict)
    #: this analysis: scene id -> its key and the flag_spec rows its decision read (the
    #: stuck search and the cards read it)
    keys: dict = field(default_factory=dict)
    #: this analysis: scene id -> its decision as kept, with its key: equal to the last
    #: analysis's exactly when nothing the decision reads has changed, and the same
    #: object when the scene was not decided again
    tokens: dict = field(default_factory=dict)
    #: this analysis: how many scenes were decided again and how many were kept
    decided: int = 0
    kept: int = 0

    def flag_row(self, flags: Mapping[str, Any], name: str, rows: dict) -> Any:
        """What a decision may read of flag ``name``'s ``flag_spec`` row (``None``: not
        declared), remembered in ``rows`` for one analysis."""
        row = rows.get(name, _ABSENT)
        if row is _ABSENT:
            spec = flags.get(name)
            if spec is None and name in self.rejected:
                row = rows[name] = ("refused", self.rejected[name])
                return row
            row = rows[name] = None if spec is None else (spec.flag, spec.label, spec.type, spec.min_value, spec.max_value,
                                                         spec.values, spec.line, tuple(spec.raw.items()))
        return row


def analyse(scenario: Scenario, jobs: int = 1, alongside=None, on_part=None, meanwhile=None,
            memo: AnalysisMemo | None = None, budgets: Budgets = DEFAULT_BUDGETS) -> Analysis:
    """The facts every verdict rests on.  With ``jobs`` > 1 the per-scene work
    (shadowing, stuck combinations) is split over that many processes
    (:mod:`storygraph.partition`); the result is the same.

    ``alongside``, a function of the analysis that needs only the graph and the
    structural reachability, is run in one of the processes beside its share of the
    scenes; its result is kept in ``analysis.alongside``.  ``meanwhile()``, work of the
    caller's that needs none of the analysis, runs in this process while the others
    decide their first scenes.

    ``memo`` (one process only): what the previous analysis of the same scenario kept
    (:class:`AnalysisMemo`); the scenes whose inputs are unchanged keep their decisions
    instead of being decided again, and the result is the same as without it.

    ``budgets`` bound the exact searches of each scene (:mod:`storygraph.budgets`): past
    one, that scene's result is not decided and an issue says why."""
    if memo is not None:
        jobs = 1
        memo.rejected = scenario.rejected_flags
    issues: list[InputIssue] = []
    scenes = scenario.scenes
    edges = [(b.from_scene, b.to_scene) for b in scenario.branches if b.from_scene in scenes and b.to_scene in scenes]
    graph_key = (tuple(scenes), tuple(edges)) if memo is not None else None
    if memo is not None and memo.graph is not None and memo.graph[0] == graph_key:
        graph = memo.graph[1]
    else:
        graph = scene_graph(scenes, edges)
        if memo is not None:
            memo.graph = (graph_key, graph)
    entries = [s.scene_id for s in scenario.scenes.values() if s.is_entry]
    endings = [s.scene_id for s in scenario.scenes.values() if s.is_ending]
    has_entry_col = scenario.has("scene_states", "is_entry")
    has_ending_col = scenario.has("scene_states", "is_ending")
    issues.extend(_whole_issues(scenario, entries, endings))
    reached = reachable_from(graph, entries) if has_entry_col else None
    reaches = reaching(graph, endings) if has_ending_col else None

    _empty_enum_values(scenario)
    conditions = _parse_conditions(scenario, issues)
    analysis = Analysis(scenario, graph, entries, endings, reached, reaches, {}, conditions, issues, budgets=budgets)
    if scenario.has("story_branches", "kind") or scenario.has("story_branches", "condition_opaque"):
        _read_menu_columns(analysis)
    if scenario.has("story_branches", "jump_opaque") or scenario.has("flag_spec", "effect_opaque"):
        _read_opaque_parts(analysis)
    # sentences name a story's choices by their text (``choice_text``), tables' by id
    from . import templates

    templates.use_choice_texts({b.branch_id: " ".join(choice.split()) for b in scenario.branches
                                if (choice := b.raw.get("choice_text"))} if scenario.has("story_branches", "choice_text") else {})
    both = reached is not None and reaches is not None
    if jobs > 1:
        from .partition import decide_in_parts  # only a run shared by several processes

        analysis.alongside = decide_in_parts(analysis, jobs, _decide_all, _find_stuck, stuck=both, alongside=alongside,
                                             on_part=on_part, meanwhile=meanwhile)
    else:
        if meanwhile is not None:
            meanwhile()
        if alongside is not None:
            analysis.alongside = alongside(analysis)
        _decide_all(analysis, memo=memo)
    _check_available_flags(analysis)
    if scenario.has("scene_states", "source_file") or scenario.has("story_branches", "source_file"):
        _read_positions(analysis)
    if both:
        assert reached is not None and reaches is not None  # both
        jumps = analysis.opaque_jumps
        dead = set(analysis.shadowed) | {b.branch_id for b in scenario.branches
                                         if b.to_scene not in scenario.scenes and b.branch_id not in jumps}
        triples = [(b.branch_id, b.from_scene, b.to_scene) for b in scenario.branches]
        live_key = (graph_key, tuple(triples), frozenset(dead), tuple(entries), tuple(endings)) if memo is not None else None
        if memo is not None and memo.live is not None and memo.live[0] == live_key:
            analysis.live = memo.live[1]
        else:
            analysis.live = live_reachability(set(scenario.scenes), triples, dead, entries, endings, reached, reaches, graph)
            if memo is not None:
                memo.live = (live_key, analysis.live)
        if jobs <= 1:
            _find_stuck(analysis, memo)
    return analysis


def _whole_issues(scenario: Scenario, entries: list[str], endings: list[str]) -> list[InputIssue]:
    """The issues of a scenario with no entry or no ending."""
    issues = []
    scene_file = scenario.files.get("scene_states")
    if scenario.scenes and scenario.has("scene_states", "is_entry") and not entries:
        issues.append(InputIssue(file=scene_file, table="scene_states", column="is_entry",
                                 reason="시작 장면 표시(`is_entry`)가 참인 장면이 하나도 없어 어느 장면에도 닿을 수 없습니다."))
    if scenario.scenes and scenario.has("scene_states", "is_ending") and not endings:
        issues.append(InputIssue(file=scene_file, table="scene_states", column="is_ending",
                                 reason="엔딩 표시(`is_ending`)가 참인 장면이 하나도 없어 어느 장면도 끝에 닿을 수 없습니다."))
    return issues


def analyse_again(last: Analysis, scenario: Scenario, changes: Any, memo: AnalysisMemo,
                  budgets: Budgets = DEFAULT_BUDGETS) -> Analysis | None:
    """The analysis of ``scenario``, which differs from the scenario of ``last`` (made
    with ``memo``) only in the rows ``changes`` names (:class:`storygraph.reread.Changes`:
    the same ids, lines and columns; the unchanged scenes, branches and flags are the
    same objects), made from ``last``: only the scenes whose branches or
    ``available_flags`` changed are decided again, their issues made again, the stuck
    search run again where a decision, a scene row or reachability moved; the graph,
    reachability and live reachability are kept while what they read is.  The result is
    the same as :func:`analyse` with ``memo``.  ``None`` when this cannot be done (menus,
    imported positions, a branch that left its scene, …): analyse in full."""
    sc = scenario
    before = last.scenario
    if (changes.full or before.flags is not sc.flags or before.columns is not sc.columns or last.budgets != budgets
            or not sc.has_flag_table or last.kinds or last.opaque or last.menus or last.positions
            or last.reached is None or last.reaches_ending is None or last.live is None or memo.live is None
            or not sc.has("story_branches", "condition_expr") or not sc.has("scene_states", "available_flags")
            or any(sc.has(t, c) for t in ("scene_states", "story_branches") for c in ("source_file", "kind", "condition_opaque"))
            or _has_opaque_parts(sc)
            or any(o.from_scene != n.from_scene for o, n in changes.branches)):
        return None
    scenes = sc.scenes
    moved = any(o.to_scene != n.to_scene for o, n in changes.branches)
    marks = any((o.is_entry, o.is_ending) != (n.is_entry, n.is_ending) for o, n in changes.scenes.values())
    graph = last.graph
    if moved:
        edges = [(b.from_scene, b.to_scene) for b in sc.branches if b.from_scene in scenes and b.to_scene in scenes]
        graph = scene_graph(scenes, edges)
        memo.graph = ((tuple(scenes), tuple(edges)), graph)
    entries, endings = last.entries, last.endings
    if marks:
        entries = [s.scene_id for s in scenes.values() if s.is_entry]
        endings = [s.scene_id for s in scenes.values() if s.is_ending]
    reached, reaches = last.reached, last.reaches_ending
    if moved or marks:
        reached, reaches = reachable_from(graph, entries), reaching(graph, endings)
    # the scenes decided again, and the lines whose issues are made again
    redo = {n.from_scene for _, n in changes.branches}
    redo.update(s for s, (o, n) in changes.scenes.items() if o.available_flags != n.available_flags)
    again = [b for b in sc.branches if b.from_scene in redo] if redo else []
    stuck_again = redo | set(changes.scenes) | (reached ^ last.reached)
    lines = {b.line for b in again} | {scenes[s].line for s in stuck_again if s in scenes}
    issues = _whole_issues(sc, entries, endings)
    issues += [i for i in last.issues if i.line is not None and i.line not in lines]
    conditions = dict(last.conditions)
    if again:
        conditions.update(_parse_conditions(replace(sc, branches=again), issues))
    a = Analysis(sc, graph, entries, endings, reached, reaches, dict(last.shadowing), conditions, issues, budgets=budgets)
    a.class_facts = {s: f for s, f in last.class_facts.items() if s not in redo}
    if again:
        # decided afresh through a memo of their own, whose keys and decisions are then the memo's
        own = AnalysisMemo(env=None, rejected=sc.rejected_flags)
        groups: dict[str, list[Branch]] = {}
        for b in again:
            groups.setdefault(b.from_scene, []).append(b)
        _decide_all(a, items=list(groups.items()), first=False, memo=own)
        memo.keys, memo.tokens = dict(memo.keys), dict(memo.tokens)
        for s in groups:
            old_key = memo.keys.get(s)
            if old_key is not None:
                memo.scenes.pop(old_key[0], None)
            memo.keys[s], memo.tokens[s] = own.keys[s], own.tokens[s]
            memo.scenes[own.keys[s][0]] = own.tokens[s]
        memo.decided, memo.kept = own.decided, len(memo.keys) - own.decided
    else:
        memo.decided, memo.kept = 0, len(memo.keys)
    # the shadowed branches in the order of the scenes, as a full analysis lists them
    a.shadowed, a.overlap = {}, {}
    for state in a.shadowing.values():
        for bid, info in state.shadowed.items():
            a.shadowed[bid] = info
            if info.previous is not None:
                a.overlap[info.previous] = bid
    _check_available_flags(a, [s for s in scenes if s in stuck_again])
    dead = set(a.shadowed) | {b.branch_id for b in sc.branches if b.to_scene not in scenes}
    live_key = memo.live[0]
    if not moved and not marks and frozenset(dead) == live_key[2]:
        a.live = last.live
    else:
        triples = [(b.branch_id, b.from_scene, b.to_scene) for b in sc.branches]
        a.live = live_reachability(set(scenes), triples, dead, entries, endings, reached, reaches, graph)
        graph_key = memo.graph[0] if memo.graph is not None else None
        memo.live = ((graph_key, tuple(triples), frozenset(dead), tuple(entries), tuple(endings)), a.live)
    # the stuck search again where it can have changed; the others' results as they were, in scene order
    _find_stuck(a, memo, only=stuck_again)
    found = a.stuck
    a.stuck = {}
    for s in a.shadowing:
        got = found.get(s) if s in stuck_again else last.stuck.get(s)
        if got is not None:
            a.stuck[s] = got
    return a


def _check_available_flags(a: Analysis, only: Iterable[str] | None = None) -> None:
    """A flag listed in ``available_flags`` but missing from ``flag_spec`` is an issue
    (of the scenes ``only``, when given)."""
    sc = a.scenario
    if not sc.has_flag_table:
        return
    for scene in sc.scenes.values() if only is None else [sc.scenes[s] for s in only if s in sc.scenes]:
        for f in scene.available_flags or ():
            if f not in sc.flags and f not in sc.rejected_flags:  # (a refused row has its own issue)
                a.issues.append(InputIssue(file=sc.files.get("scene_states"), table="scene_states", line=scene.line,
                                           column="available_flags", reason=f"`available_flags`에 적힌 플래그 {josa(code(f), '이/가')} `flag_spec`에 없습니다."))


def _find_stuck(a: Analysis, memo: AnalysisMemo | None = None, only: set | None = None) -> None:
    """The stuck combinations of every scene (of the scenes ``only``, when given: the
    memo then keeps what it kept of the others too)."""
    sc = a.scenario
    flags = sc.flags
    reached = a.reached
    facts = a.class_facts
    kept: dict = {}
    rows: dict = {}
    for scene_id, state in a.shadowing.items():
        if only is not None and scene_id not in only:
            continue
        scene = sc.scenes.get(scene_id)
        if scene is None or state.undecided is not None or not scene.available_flags or scene.is_ending:
            continue
        if reached is None or scene_id not in reached:
            continue
        if any(f not in flags for f in scene.available_flags):
            continue
        known = facts.get(scene_id)
        if known is not None and known[0]:
            continue  # every assignment fires a branch: nobody is stuck
        key = None
        if memo is not None:
            key = (memo.keys[scene_id], tuple(memo.flag_row(flags, f, rows) for f in scene.available_flags))
            stuck = memo.stuck.get(key, _ABSENT)
            if stuck is not _ABSENT:
                kept[key] = stuck
                if stuck is not None:
                    a.stuck[scene_id] = stuck
                continue
        exprs = [a.conditions[b.branch_id] for b in state.ordered]
        try:
            stuck = uncovered(exprs, flags, list(scene.available_flags), a.budgets)  # type: ignore[arg-type]
        except BudgetExceeded as exc:
            # not kept by the memo: a larger budget in the configuration decides it next time
            a.stuck[scene_id] = StuckScene(scene_id, None, None, [], {}, tuple(scene.available_flags), limit=exc.words())
            a.issues.append(InputIssue(
                file=sc.files.get("scene_states"), table="scene_states", line=scene.line, column="available_flags",
                reason=(f"장면 {josa(scene_id, '은/는')} 플래그 조합이 너무 많아 어떤 조합에서 독자가 멈추는지를 계산 한도"
                        f"({exc.words()}) 안에 다 따지지 못해 판정하지 않았습니다. 한도는 설정 파일의 [budget] {exc.name}로 "
                        "늘릴 수 있습니다."),
            ))
            continue
        if key is not None:
            kept[key] = stuck
        if stuck is not None:
            stuck.scene_id = scene_id
            a.stuck[scene_id] = stuck
    if memo is not None:
        if only is None:
            memo.stuck = kept
        else:
            memo.stuck.update(kept)


def _empty_enum_values(scenario: Scenario) -> None:
    """An enum flag whose ``values`` holds an empty item (``|happy``) can be the empty
    string: the table reader drops empty list items, so the value is put back here, in
    its place (``values`` = ``|happy`` gives ``("", "happy")``), before any condition
    is checked against it."""
    for spec in scenario.flags.values():
        if spec.type != "enum":
            continue
        text = spec.raw.get("values")
        if not isinstance(text, str) or "" in spec.values:
            continue
        items = [part.strip() for part in text.replace("|", ",").split(",")]
        if len(items) > 1 and "" in items:
            spec.values = tuple(dict.fromkeys(items))


def _read_positions(a: Analysis) -> None:
    """The optional ``source_file``/``source_line`` columns: where each row is written
    in the story it was imported from.  Issues on such a row are moved there."""
    sc = a.scenario
    by_line: dict[tuple[str, int], tuple[str, int | None]] = {}
    for table, rows in (("scene_states", sc.scenes.values()), ("story_branches", sc.branches)):
        for row in rows:
            file = (row.raw.get("source_file") or "").strip()
            if not file:
                continue
            text = (row.raw.get("source_line") or "").strip()
            where = (file, int(text) if text.isdigit() else None)
            a.positions[(table, row.scene_id if table == "scene_states" else row.branch_id)] = where  # type: ignore[union-attr]
            by_line[(table, row.line)] = where
    # a story linted directly (storygraph.stories): its tables' lines are those of a
    # generated file, which nobody sees; a row with no place in the story has no line
    a.story = bool(sc.sources) and all(src.form not in TABLE_FORMS for src in sc.sources)
    if by_line or a.story:
        a.issues[:] = [_moved(i, by_line, a.story) for i in a.issues]


#: the forms of input tables (any other form is a story imported into tables)
TABLE_FORMS = frozenset({"csv", "xlsx", "json", "yaml"})


def _moved(issue: InputIssue, by_line: dict, story: bool) -> InputIssue:
    where = by_line.get((issue.table, issue.line)) if issue.line is not None else None
    if where is None:
        return issue.replace(line=None, position=None) if story and issue.line is not None else issue
    return issue.replace(file=where[0], line=where[1], position=None)


_KINDS = {"auto": "auto", "choice": "choice", "": "auto"}
_TRUE = {"1", "true", "yes", "y", "참", "t"}


def _read_menu_columns(a: Analysis) -> None:
    """The optional ``kind`` and ``condition_opaque`` columns (``docs/choices.md``).

    A ``kind`` that is neither ``auto`` nor ``choice`` is an input issue and its scene's
    shadowing is not decided; an opaque branch's condition reads as "may hold" (true)
    for the stuck search and takes no part in shadowing."""
    sc = a.scenario
    file = sc.files.get("story_branches")
    always = parse_condition(None)
    for b in sc.branches:
        raw = b.raw
        text = (raw.get("kind") or "").strip()
        if text:
            # (a JSON or YAML document "has" every column: a filled cell says the input knows menus)
            a.menus = True
        kind = _KINDS.get(text.lower())
        if kind is None:
            a.issues.append(InputIssue(file=file, table="story_branches", line=b.line, column="kind",
                                       reason=f"`kind` 칸에 적힌 {josa(code(text), '은/는')} `auto`나 `choice`가 아니라 이 장면의 겹침은 따지지 않았습니다."))
            a.kinds[b.branch_id] = "?"
        elif kind == "choice":
            a.kinds[b.branch_id] = kind
        if (raw.get("condition_opaque") or "").strip().lower() in _TRUE:
            source = raw.get("condition_source")
            a.opaque[b.branch_id] = " ".join(source.split()) if source else None
            a.conditions[b.branch_id] = always
    if sc.has("story_branches", "once_only"):
        once = [b for b in sc.branches if a.kinds.get(b.branch_id) == "choice"
                and (b.raw.get("once_only") or "").strip().lower() in _TRUE]
        if once:
            # a scene on a cycle can be come back to, with its once-only choices used up
            cyclic = {node for comp in components(a.graph) if len(comp) > 1 for node in comp}
            cyclic.update(x for x, _ in nx.selfloop_edges(a.graph))
            a.weak = {b.branch_id for b in once if b.from_scene in cyclic}


def _has_opaque_parts(sc: Scenario) -> bool:
    """Whether a branch is an opaque jump or a flag has an opaque effect (by the cells: a
    JSON or YAML document "has" every column)."""
    return (sc.has("story_branches", "jump_opaque") and any((b.raw.get("jump_opaque") or "").strip() for b in sc.branches)
            or sc.has("flag_spec", "effect_opaque") and any((f.raw.get("effect_opaque") or "").strip() for f in sc.flags.values()))


def records_uses(sc: Scenario) -> bool:
    """Whether the tables say where each flag is declared, read and written (a story read
    by an importer); by the cells, since a JSON or YAML document "has" every column."""
    return sc.has("flag_spec", "read_at") and any(
        (f.raw.get(c) or "").strip() for f in sc.flags.values() for c in ("declared_at", "read_at", "written_at"))


def _read_opaque_parts(a: Analysis) -> None:
    """The opaque jumps (``jump_opaque``: a way to a scene the importer could not name)
    and opaque effects (``effect_opaque``: a flag that may take any value) of an
    imported story, and what they make uncertain: with an opaque jump out of a scene
    some reader reaches, any scene may be reached; from a scene that can get to an
    opaque jump, an ending may be reached (``docs/importers.md``, "What is exact, what
    is opaque, what is withheld")."""
    sc = a.scenario
    for b in sc.branches:
        if (b.raw.get("jump_opaque") or "").strip().lower() in _TRUE:
            a.opaque_jumps[b.branch_id] = " ".join((b.raw.get("jump_source") or "").split())
    for f in sc.flags.values():
        if (f.raw.get("effect_opaque") or "").strip().lower() in _TRUE:
            a.opaque_effects[f.flag] = " ".join((f.raw.get("effect_source") or "").split())
    if not a.opaque_jumps:
        return
    by_id = {b.branch_id: b for b in sc.branches}
    sources = {by_id[bid].from_scene for bid in a.opaque_jumps if by_id[bid].from_scene in sc.scenes}
    if a.reached is not None:
        a.maybe_reached = set(sc.scenes) if sources & a.reached else a.reached
    if a.reaches_ending is not None:
        a.maybe_reaches = reaching(a.graph, [*a.endings, *sources]) if a.endings else a.reaches_ending


def _parse_conditions(scenario: Scenario, issues: list[InputIssue]) -> dict[str, Expr | None]:
    out: dict[str, Expr | None] = {}
    file = scenario.files.get("story_branches")
    if not scenario.has("story_branches", "condition_expr"):
        return {b.branch_id: None for b in scenario.branches}
    for b in scenario.branches:
        if not b.condition_valid:  # a misspelt key left it unknown (already an issue)
            out[b.branch_id] = None
            continue
        try:
            out[b.branch_id] = parse_condition(b.condition_expr)
        except ConditionSyntaxError as exc:
            out[b.branch_id] = None
            fix = condition_text_fix(b.condition_expr or "", scenario.flags, exc.position, b.branch_id)
            issues.append(InputIssue(
                file=file, table="story_branches", line=b.line, column="condition_expr", position=exc.position,
                reason=f"조건식 문법 오류: {exc.message}{did_you_mean(fix)}\n{exc.caret}", fix=fix,
            ))
    return out


def did_you_mean(fix: dict[str, Any] | None) -> str:
    """`` 혹시 `trust >= 2`를 쓰려던 것인가요?``: the likely intended condition of a
    condition fix (its new ``condition_expr``), for the issue's own message; nothing
    without one.

    >>> did_you_mean({"text": "…", "edits": [{"action": "set", "column": "condition_expr", "value": "trust >= 2"}]})
    ' 혹시 `trust >= 2`를 쓰려던 것인가요?'
    """
    for edit in (fix or {}).get("edits", ()):
        if edit.get("column") == "condition_expr" and edit.get("value"):
            return f" 혹시 {quoted(edit['value'], '을/를')} 쓰려던 것인가요?"
    return ""


def _decide_all(a: Analysis, items=None, first: bool = True, memo: AnalysisMemo | None = None) -> None:
    """Decide the shadowing of the scenes ``items`` (``(scene_id, branches)`` pairs; all
    scenes by default); ``first``: also report what concerns the whole scenario.
    ``memo``: keep the decisions of the scenes whose inputs are unchanged
    (:class:`AnalysisMemo`)."""
    sc = a.scenario
    has_flag_table = sc.has_flag_table
    conditions = a.conditions
    file = sc.files.get("story_branches")
    missing_column = next(
        (col for table, col in (("scene_states", "available_flags"), ("story_branches", "condition_expr"), ("story_branches", "order_no"))
         if not sc.has(table, col)),
        None,
    )
    if first and not has_flag_table and any((known := conditions.get(b.branch_id)) is not None and expr_facts(known)[0] for b in sc.branches):
        a.issues.append(InputIssue(file=file, table="flag_spec",
                                   reason="`flag_spec` 표가 없어 조건식의 플래그 범위를 알 수 없어 플래그를 쓰는 장면의 겹침은 따지지 않았습니다."))
    flags = sc.flags
    # per condition tree (by id; the trees live in ``conditions``): flags, constants, type problems
    infos: dict[int, tuple[tuple[str, ...], dict[str, frozenset], tuple[TypeProblem, ...]]] = {}
    # per (flag, constants): its classes.  In a decided scene every constant has its flag's
    # type, so the constants are exactly those flag_domain looks at.
    domain_memo: dict[tuple, FlagDomain] = {}
    no_always: tuple[int, ...] = ()
    scenes = sc.scenes
    can_decide = missing_column is None and has_flag_table
    bool_domains = {f: flag_domain(spec, ()) for f, spec in flags.items() if spec.type == "bool"}
    kinds, opaque = a.kinds, a.opaque
    menu_info = bool(kinds or opaque or a.weak)
    kept: dict = {}
    if memo is not None:
        env = (missing_column, has_flag_table, a.menus, menu_info, file, a.budgets)
        if memo.env != env:
            memo.env, memo.scenes = env, {}
        memo.keys, memo.tokens, memo.decided, memo.kept = {}, {}, 0, 0
        used_of: dict[int, tuple[str, ...]] = {}  # condition tree (by id, alive all along) -> its flags
        rows: dict = {}
    for scene_id, branches in (sc.branches_from().items() if items is None else items):
        if memo is not None:
            # what this scene's decision reads: its rows (the key), and the flag_spec rows
            # of the flags its conditions use (kept with the decision, compared on a hit)
            scene = scenes.get(scene_id)
            key = (scene_id, scene is None, scene.available_flags if scene is not None else None,
                   tuple([(b.branch_id, b.line, b.condition_expr, b.order_no, b.order_valid, kinds.get(b.branch_id),
                           b.branch_id in opaque, opaque.get(b.branch_id), b.branch_id in a.weak) for b in branches]))
            done = memo.scenes.get(key)
            if done is not None and done[1] == tuple([memo.flag_row(flags, f, rows) for f in done[0]]):
                memo.keys[scene_id] = (key, done[1])
                memo.tokens[scene_id] = done
                _restore(a, scene_id, branches, done)
                kept[key] = done
                memo.kept += 1
                continue
            memo.decided += 1
            mark = len(a.issues)
        _decide_one(a, scene_id, branches, sc, conditions, file, missing_column, flags, infos, domain_memo, no_always, scenes,
                    can_decide, bool_domains, kinds, opaque, menu_info, has_flag_table)
        if memo is not None:
            names: dict[str, None] = {}
            for b in branches:
                expr = conditions.get(b.branch_id)
                if expr is not None:
                    fl = used_of.get(id(expr))
                    if fl is None:
                        fl = used_of[id(expr)] = expr_facts(expr)[0]
                    names.update(dict.fromkeys(fl))
            used = tuple(sorted(names))
            flag_rows = tuple([memo.flag_row(flags, f, rows) for f in used])
            memo.keys[scene_id] = (key, flag_rows)
            state = a.shadowing[scene_id]
            where = {id(b): i for i, b in enumerate(branches)}
            kept[key] = memo.tokens[scene_id] = (
                used, flag_rows, tuple(where[id(b)] for b in state.ordered), state.undecided,
                tuple(state.shadowed.values()), a.class_facts.get(scene_id), tuple(a.issues[mark:]), key)
    if memo is not None:
        memo.scenes = kept


def _restore(a: Analysis, scene_id: str, branches: list[Branch], done: tuple) -> None:
    """A scene's decision kept by :class:`AnalysisMemo`, on this analysis's branches."""
    _, _, order, undecided, shadowed, facts, issues, _ = done
    state = SceneShadowing(scene_id, [branches[i] for i in order], undecided)
    a.shadowing[scene_id] = state
    for info in shadowed:
        state.shadowed[info.branch_id] = info
        a.shadowed[info.branch_id] = info
        if info.previous is not None:
            a.overlap[info.previous] = info.branch_id
    if facts is not None:
        a.class_facts[scene_id] = facts
    a.issues.extend(issues)


def _decide_one(a: Analysis, scene_id: str, branches: list[Branch], sc, conditions, file, missing_column, flags, infos,
                domain_memo, no_always, scenes, can_decide, bool_domains, kinds, opaque, menu_info, has_flag_table) -> None:
    """One scene's decision (the body of :func:`_decide_all`)."""
    dup: list[str] = []
    if len(branches) > 1:
        ordered = sorted(branches, key=_order_key)
        if len({b.order_no for b in ordered}) != len(ordered):
            # duplicated order_no within a scene: the order between them is unknown
            seen: dict[int, Branch] = {}
            for b in ordered:
                if b.order_no is None:
                    continue
                if b.order_no in seen:
                    dup.append(b.branch_id)
                    a.issues.append(InputIssue(file=file, table="story_branches", line=b.line, column="order_no",
                                               reason=f"장면 {code(scene_id)}에서 나가는 분기 {josa(code(seen[b.order_no].branch_id), '과/와')} `order_no` 값이 {josa(str(b.order_no), '으로/로')} 같아 둘 중 어느 분기가 먼저 걸리는지 알 수 없습니다."))
                else:
                    seen[b.order_no] = b
    else:
        ordered = branches
    state = SceneShadowing(scene_id, ordered)
    a.shadowing[scene_id] = state
    scene = scenes.get(scene_id)
    available = scene.available_flags if scene is not None else None
    ok = can_decide and not dup
    blockers = None
    bad_kind: list[str] = []
    if menu_info:
        scene_kinds = [kinds.get(b.branch_id, "auto") for b in ordered]
        bad_kind = [b.branch_id for b, k in zip(ordered, scene_kinds) if k == "?"]
        if bad_kind:
            ok = False
        else:
            blockers = menu_blockers(scene_kinds, [b.branch_id in opaque for b in ordered],
                                     [b.branch_id in a.weak for b in ordered] if a.weak else None)
    exprs = []
    scene_infos: list[tuple | None] = []
    # the flags the conditions use, in order of first use, and the constants of each
    used: dict[str, None] = {}
    cuts: dict[str, Any] = {}
    for b in ordered:
        expr = conditions.get(b.branch_id)
        exprs.append(expr)
        if expr is None:
            scene_infos.append(None)
            ok = False
            continue
        info = infos.get(id(expr))
        if info is None:
            info = infos[id(expr)] = _expr_info(expr, flags, has_flag_table)
        scene_infos.append(info)
        if info[2] or b.order_no is None or not b.order_valid:
            ok = False
        for f in info[0]:
            used[f] = None
        for f, values in info[1].items():
            have = cuts.get(f)
            cuts[f] = values if have is None else have | values
    if available is None:
        if a.menus and not used and scene is not None:
            # a menu-aware input whose scene tests no flag: one assignment, nothing to vary
            available = ()
        else:
            ok = False
    if ok:
        for f in used:
            if f not in available:  # type: ignore[operator]
                ok = False
                break
    if not ok:
        # something to report or a reason not to decide: the full account
        state.undecided = _why_undecided(a, scene_id, ordered, missing_column, dup, scene_infos, available, bad_kind)
        if state.undecided is not None:
            return
    # the classes of every flag the conditions use, cut at their constants
    domains: dict[str, FlagDomain] = {}
    for f in used:
        dom = bool_domains.get(f)
        if dom is None:
            key = (f, cuts.get(f, _NONE))
            dom = domain_memo.get(key)
            if dom is None:
                # (an int or enum flag's constants all have its type here, so
                # flag_domain's own filtering and per-process memory are not needed)
                spec = flags[f]
                dom = domain_memo[key] = (make_flag_domain(spec, key[1]) if spec.type in ("int", "enum")
                                          else flag_domain(spec, key[1]))
        domains[f] = dom
    try:
        decided, covered, always = decide_scene(exprs, domains, used=list(used), blockers=blockers,
                                                budget=a.budgets)
    except BudgetExceeded as exc:
        state.undecided = Undecided("budget", column="condition_expr", budget=exc.words())
        a.issues.append(InputIssue(
            file=file, table="story_branches", line=ordered[0].line, column="condition_expr",
            reason=(f"장면 {scene_id}에서 나가는 분기 {len(ordered):,}개의 조건이 겹치는지를 계산 한도({exc.words()}) 안에 "
                    f"다 따지지 못해 이 장면의 조건 겹침은 판정하지 않았습니다. 한도는 설정 파일의 [budget] {exc.name}로 "
                    "늘릴 수 있습니다."),
        ))
        return
    if covered is not None:
        last = len(ordered) - 1
        kept = tuple(j for j in always if j < last) if always else no_always
        a.class_facts[scene_id] = (covered, kept if kept else no_always)
    for j, shadow in decided.items():
        b = ordered[j]
        info = ShadowedBranch(
            branch_id=b.branch_id, scene_id=scene_id,
            covered_by=tuple(ordered[i].branch_id for i in shadow.covered_by),
            unsatisfiable=shadow.unsatisfiable,
            previous=ordered[j - 1].branch_id if j > 0 else None,
            role=_role(scene_kinds, j) if blockers is not None else "auto",
        )
        state.shadowed[b.branch_id] = info
        a.shadowed[b.branch_id] = info
        if info.previous is not None:
            a.overlap[info.previous] = b.branch_id


_NONE: frozenset = frozenset()


def _role(kinds: list[str], j: int) -> str:
    """What branch ``j`` is under the menu rule: ``choice``, ``fallback`` (an ``auto``
    after the first choice) or ``auto``."""
    if kinds[j] == "choice":
        return "choice"
    return "fallback" if "choice" in kinds[:j] else "auto"


def _expr_info(expr: Expr, flags, has_flag_table: bool) -> tuple[tuple[str, ...], dict[str, frozenset], tuple[TypeProblem, ...]]:
    """``(flags, constants, type problems)`` of one condition tree."""
    expr_flags, values = expr_facts(expr)
    consts = {f: frozenset(v) for f, v in values.items()}
    if not has_flag_table:
        return expr_flags, consts, ()
    return expr_flags, consts, (() if types_fit(expr, flags) else tuple(check_types(expr, flags)))


def _order_key(b: Branch) -> tuple:
    return (b.order_no is None, b.order_no if b.order_no is not None else 0, b.line)


def _why_undecided(a: Analysis, scene_id: str, ordered: list[Branch], missing_column: str | None, dup: list[str],
                   infos: list, available: tuple[str, ...] | None = None, bad_kind: list[str] | None = None) -> Undecided | None:
    """Report every type problem of the scene's conditions as an issue, then say why its
    shadowing cannot be decided (``None`` when it can).  ``infos``: per branch, the
    ``(flags, constants, type problems)`` of its condition (``None`` when unreadable)."""
    sc = a.scenario
    flags = sc.flags
    has_flag_table = sc.has_flag_table
    conditions = a.conditions
    file = sc.files.get("story_branches")
    undeclared: list[str] = []
    refused: list[str] = []
    not_available: list[str] = []
    typed: list[str] = []
    culprit_branches: list[str] = []
    broken = False
    for b, info in zip(ordered, infos):
        if info is None:
            broken = True
            continue
        for p in info[2]:
            reason = p.reason
            if p.undeclared and p.flag in sc.rejected_flags:
                refused.append(p.flag)
                reason = (f"플래그 {code(p.flag)}의 `flag_spec` 행({sc.rejected_flags[p.flag]}번째 줄)을 받아들이지 않아 "
                          "이 조건은 따지지 않았습니다.")
            else:
                (undeclared if p.undeclared else typed).append(p.flag)
            culprit_branches.append(b.branch_id)
            fix = None if reason is not p.reason else type_problem_fix(b.condition_expr or "", flags, p.flag, p.pos, b.branch_id)
            a.issues.append(InputIssue(file=file, table="story_branches", line=b.line, column="condition_expr",
                                       position=p.pos, reason=reason + did_you_mean(fix), fix=fix))
        for f in info[0]:
            if not has_flag_table:
                undeclared.append(f)
                culprit_branches.append(b.branch_id)
            elif available is not None and f not in available and f in flags:
                not_available.append(f)
                culprit_branches.append(b.branch_id)
                a.issues.append(InputIssue(file=file, table="story_branches", line=b.line, column="condition_expr",
                                           reason=f"조건식이 쓰는 플래그 {josa(code(f), '이/가')} 장면 {code(scene_id)}의 `available_flags`에 없습니다."))
    if missing_column is not None:
        return Undecided("column", column=missing_column)
    if available is None:
        return Undecided("no_flags")
    if bad_kind:
        return Undecided("kind", column="kind", branch_ids=tuple(bad_kind))
    for b in ordered:
        if b.order_no is None or not b.order_valid:
            break
    else:
        if not dup and not broken and not culprit_branches:
            return None
    culprits = tuple(dict.fromkeys(culprit_branches))
    bad_order = tuple(b.branch_id for b in ordered if b.order_no is None or not b.order_valid)
    if bad_order or dup:
        return Undecided("order", column="order_no", branch_ids=bad_order + tuple(dup))
    if broken:
        return Undecided("syntax", column="condition_expr", branch_ids=tuple(b.branch_id for b in ordered if conditions.get(b.branch_id) is None))
    if undeclared:
        return Undecided("undeclared", column="flag", branch_ids=culprits, flags=tuple(dict.fromkeys(undeclared)))
    if refused:
        return Undecided("bad_flag", column="flag", branch_ids=culprits, flags=tuple(dict.fromkeys(refused)))
    if typed:
        return Undecided("type", column="condition_expr", branch_ids=culprits, flags=tuple(dict.fromkeys(typed)))
    if not_available:
        return Undecided("not_available", column="available_flags", branch_ids=culprits, flags=tuple(dict.fromkeys(not_available)))
    return None
