"""storygraph as a verdict domain: lint a scenario into cards, issues, checks and findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from verdicts import streaming
from verdicts.checks import Check
from verdicts.domain import Domain, Made, Report, issue_order
from verdicts.progress import SILENT, Progress
from verdicts.recognise import refuse_foreign

from .analysis import TABLE_FORMS, Analysis, analyse
from .cards import CardBuilder, build_cards, graph_counts, withheld_issues
from .checks import CHECKS, CheckContext
from .findings import HEDGING_KINDS, KINDS, collect_findings
from .loading import load_scenario
from .model import BRANCH, NO_ENDING, REACHED_AND_ENDS, SCENE, SHADOWING, TABLE_SPECS, VERDICTS, Scenario, StoryCard
from .roots import root_causes
from .rules import BRANCH_BOOK, SCENE_BOOK

if TYPE_CHECKING:
    from .config import Config

__all__ = ["StorygraphDomain", "DOMAIN", "lint", "lint_to", "STREAMED_FORMATS", "LintResult", "find_config", "load_config", "failing"]


class LintResult(Report):
    """A :class:`~verdicts.domain.Report` that also keeps the scenario and its analysis
    (the diagram and the screen need them)."""

    @property
    def analysis(self) -> Analysis:
        """The analysis the cards rest on (the report's ``inputs``)."""
        return self.inputs

    @property
    def scenario(self) -> Scenario:
        """The scenario read."""
        return self.inputs.scenario


class StorygraphDomain(Domain):
    name = "storygraph"
    title = "창작자가 짠 시나리오 분기가 어디서 막히는지 알려줍니다."
    card_type = StoryCard
    verdicts = VERDICTS
    passing_verdicts = frozenset({REACHED_AND_ENDS})
    undone_group = "표로만 닿음"
    root_cause_verdict = NO_ENDING
    undone_head = "표의 길로는 끝까지 닿지만 실제 독자는 지나가지 못하거나 끝까지 가지 못하는 장면과 분기입니다."
    undone_doc = (
        "`끝까지 닿음` 판정은 표의 길만 따집니다. 그 길이 한 번도 걸리지 않는 분기(앞 순번에 가려졌거나 조건이 "
        "플래그 범위 안에서 참이 될 수 없는 분기)에 기대고 있으면 실제 독자는 그 장면에 들어오지 못하거나 엔딩까지 "
        "가지 못합니다. 그런 카드는 판정 이름을 명세 그대로 `끝까지 닿음`으로 두되, 요약 문장이 그 까닭을 먼저 말하고, "
        "JSON 카드의 `undone` 필드에 까닭의 코드(`reached-only-through-dead-branch`, `ending-only-through-dead-branch`, "
        "`never-fires`, `unsatisfiable-condition`)와 문장(`reason`)을 적습니다. 글 보고서와 화면은 이 카드들을 "
        "문제 가운데 `표로만 닿음` 묶음으로 따로 보여 주고, 요약은 문제로 셉니다. 고치는 법은 그 길을 막는 분기의 "
        "린트 발견에 있습니다.")
    books = (SCENE_BOOK, BRANCH_BOOK)
    finding_kinds = tuple(KINDS)

    def cell_locator(self, file: Path):
        """Where an edit (a cell set, a row added or removed) goes in a scenario CSV (SARIF
        ``fixes``; :func:`storygraph.cells.cell_locator`)."""
        from .cells import cell_locator

        return cell_locator(file)
    kind_field = "target_kind"
    kind_labels = {SCENE: "장면 카드", BRANCH: "분기 카드"}
    docs_page = "docs/verdicts.md"
    docs_title = "판정과 자동 검증"
    #: compared with the card when a gold row fills it (``storygraph grade``, ``verdicts grade``)
    gold_fields = ("overlapping_branch_id",)
    notes = {
        "자동": [
            "열 가지 자동 검증이 시작 장면에서의 닿음, 없는 장면, 조건 겹침, 엔딩까지의 길을 카드와 따로 다시 계산해 맞춰 봅니다.",
            "근거 항목이 입력에 실제로 있는 열을 인용하는지, agg 없이 적은 값이 인용한 줄의 값과 같은지 대조합니다.",
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 저마다 존댓말 한 문장인지, 단서 한 문장이 단서 하나만 말하는지 봅니다.",
        ],
        "수동": [
            "조건이 겹침으로 잡힌 분기가 창작자가 일부러 둔 것인지 사람이 확인합니다.",
            "끝에 못 감으로 잡힌 장면이 의도한 열린 결말인지 창작자에게 묻고, 그렇다면 그 결정을 기록합니다.",
        ],
        "정직 경계선": [
            "겹침은 `flag_spec`에 적힌 범위 안의 조합만 따지므로, 게임이 실제로 플래그를 어떤 순서로 바꾸는지는 알지 못합니다.",
            "쓸 수 있는 플래그(`available_flags`)가 비어 있는 장면의 분기는 겹침을 따지지 않고, 그렇다고 단서에 남깁니다.",
            "독자가 실제로 어느 길을 고를지, 그 장면이 읽을 만한지는 판정하지 않습니다.",
            "자가채점 수치는 정답 파일로 러너를 돌린 결과가 있을 때만 출처와 함께 보여 주고, 예측 화면에서는 비워 둡니다.",
        ],
    }

    def checks(self) -> list[Check[Any]]:
        return list(CHECKS)

    def documented_checks(self) -> list[Check[Any]]:
        """The ten checks, and the import self-check shown for a story read by an importer."""
        from .importers.selfcheck import DESCRIPTION, IMPORT_CHECK, import_check

        return [*CHECKS, Check(IMPORT_CHECK, DESCRIPTION, import_check)]

    def card_table(self, card: dict[str, Any]) -> str:
        return "scene_states" if card.get("target_kind") == SCENE else "story_branches"

    def root_causes(self, report: Any) -> dict[str, tuple[str, str, bool]]:
        """The dead end each ``끝에 못 감`` card runs into (:mod:`storygraph.roots`)."""
        analysis = getattr(report, "inputs", None)
        return root_causes(analysis) if isinstance(analysis, Analysis) else {}

    def card_place(self, card: dict[str, Any]) -> tuple[str, int | None] | None:
        """For a row of an imported story, whose card cites ``source_file`` and
        ``source_line``: that file and line (a ChoiceScript scene file, an ink file
        included by another …); else ``None``."""
        table = self.card_table(card)
        places: list[tuple[str | None, int | None]] = []
        file = None
        for item in card.get("evidence") or ():
            if item.get("source") != table or item.get("agg"):
                continue
            if item.get("field") == "source_file":
                file = str(item.get("value") or "").strip() or None
            elif item.get("field") == "source_line":
                value = str(item.get("value") or "").strip()
                places.append((file, int(value) if value.isdigit() else None))
        if not places:
            return None
        # a 조건이 겹침 card points at the branch that never fires (cited last), so a
        # hidden choice is marked on its own line
        file, line = places[-1] if card.get("verdict") == SHADOWING and len(places) > 1 else places[0]
        return (file, line) if file else None

    def converted_tables(self, sources: list[Any]) -> list[str]:
        """The tables imported from a story in its own format."""
        return [src.table for src in sources if src.form not in TABLE_FORMS]

    def finding_place(self, finding: Any, report: Any) -> tuple[str | None, int | None] | None:
        """A finding on a row written in a story (linted in its own format, or tables
        with ``source_file``) shows its file and line in the text report too."""
        tables = {src.file for src in report.sources if src.form in TABLE_FORMS}
        return (finding.file, finding.line) if finding.file and finding.file not in tables else None

    @property
    def config_type(self) -> type:
        from .config import Config

        return Config

    config_file = ("storygraph.toml", ("tool", "storygraph"))

    def ignore_rows(self, report: Report) -> list:
        from .accept import ignore_rows

        return ignore_rows(report)

    def extend_acceptances(self, report: Report, accepted: dict[str, str]) -> dict[str, str]:
        from .accept import open_endings

        return open_endings(report, accepted)

    def screen_extras(self, report: Report, grading: Any = None) -> Any:
        """The diagram and each card's context table (the branches of its scene)."""
        from .screen import screen_extras

        return screen_extras(cast(LintResult, report), self, grading=grading)  # storygraph's reports are LintResults

    input_noun = "시나리오"
    input_kind = "시나리오 표"
    table_specs = TABLE_SPECS

    # the stages of the kit's run (verdicts.domain.Domain.judge)
    def refuse(self, path: Path) -> None:
        _refuse_other_kinds(path)

    def load(self, path: Path) -> Scenario:
        return load_scenario(path)

    def analyse(self, inputs: Scenario, config: Any, progress: Any, jobs: int | None = None) -> Analysis:
        """The graph, reachability and every scene's decisions; in a run over ``jobs``
        processes the scenes are decided in parts, the cards' reach counts are made in
        one of them, and the facts the checks of every batch share are made here
        meanwhile."""
        from .config import Config

        budgets = (config or Config()).budget.budgets()
        if jobs is None:
            return analyse(inputs, budgets=budgets)
        shared = CheckContext(inputs, [])

        def check_facts():
            # the scenario facts the checks of every batch read: made once, from the
            # inputs alone, while the other processes start deciding scenes
            shared.reached(), shared.to_ending(), shared.rows(), shared.branches_by_scene(), shared.to_scenes()

        a = analyse(inputs, jobs=jobs, alongside=graph_counts, on_part=progress.part, meanwhile=check_facts, budgets=budgets)
        a.check_facts = shared
        return a

    def work_size(self, inputs: Scenario) -> int:
        return len(inputs.scenes) + len(inputs.branches)

    def accepts_anything(self, facts: Analysis, config: Any) -> bool:
        return _accepts_anything(facts.scenario, config)

    def card_plan(self, facts: Analysis, config: Any, jobs: int, progress: Any) -> streaming.CardPlan:
        """The cards of the scenes and branches in batches: the findings that add to
        cards' hedges are found first, the others while the cards are made."""
        analysis, scenario = facts, facts.scenario
        shared = analysis.check_facts if analysis.check_facts is not None else CheckContext(scenario, [])
        progress.start("발견")
        findings, extra_hedges = collect_findings(analysis, [k for k in KINDS if k.code in HEDGING_KINDS])
        progress.start("카드 준비")
        builder = CardBuilder(analysis, extra_hedges).prepare(analysis.alongside)

        def build(kind: str, chunk, here: Progress, step: int):
            cards, held = builder.build(chunk if kind == SCENE else (), chunk if kind == BRANCH else (), here, step=step)
            return cards, held[kind]

        def assemble(found: list, withheld: dict[str, int], checks: list) -> LintResult:
            # every kind's findings in the order of KINDS (the sort is stable: each kind's own order stays)
            order = {k.code: i for i, k in enumerate(KINDS)}
            every = sorted(findings + found, key=lambda f: order[f.code])
            issues = sorted(scenario.issues + analysis.issues + withheld_issues(analysis, withheld), key=issue_order)
            if scenario.import_check is not None:
                checks = [*checks, scenario.import_check]
            return LintResult("storygraph", [], issues, checks, scenario.sources, every, config=config.source)

        return streaming.CardPlan(
            targets={SCENE: list(scenario.scenes.values()), BRANCH: scenario.branches},
            build=build, checks=CHECKS, check_context=lambda data: CheckContext(scenario, data, shared._cache),
            assemble=assemble,
            # the findings that did not add to cards' hedges are found while the cards are made
            side_tasks=[k for k in KINDS if k.code not in HEDGING_KINDS],
            run_side=lambda kind: collect_findings(analysis, [kind])[0],
            fail_on=config.failing_set(DOMAIN), sources=scenario.sources,
            counts={"장면": len(scenario.scenes), "분기": len(scenario.branches)},
            roots=root_causes(analysis),
        )

    def make_cards(self, facts: Analysis, progress: Any) -> Made:
        scenario = facts.scenario
        progress.start("카드", {"장면": len(scenario.scenes), "분기": len(scenario.branches)})
        cards, withheld, findings = build_cards(facts, progress)
        return Made(list(cards), [c.to_json() for c in cards], scenario.issues + facts.issues + withheld, findings)

    def run_checks(self, facts: Analysis, made: Made) -> list[Any]:
        assert made.card_json is not None  # (made by make_cards above)
        return CHECKS.run(CheckContext(facts.scenario, made.card_json))

    def assemble(self, facts: Analysis, made: Made, checks: list[Any]) -> LintResult:
        scenario = facts.scenario
        report = LintResult("storygraph", made.cards, sorted(made.issues, key=issue_order), checks, scenario.sources,
                            made.findings)
        report.inputs = facts
        return report

    def closing_checks(self, report: Report) -> list[Any]:
        """A story's import self-check, after the schema check (as a streamed run puts it)."""
        check = report.scenario.import_check  # type: ignore[attr-defined]
        return [check] if check is not None else []

    def expand_paths(self, paths: list[Path]) -> list[Path]:
        """Scenario files, and folders of them (a folder with ``scene_states.csv`` is one
        scenario in the folder form)."""
        from .batch import expand_paths

        return expand_paths(paths)

DOMAIN = StorygraphDomain()


def find_config(start: Path) -> Path | None:
    """The nearest ``storygraph.toml``, or ``pyproject.toml`` with ``[tool.storygraph]``,
    from ``start`` (a file or folder) upwards (:func:`verdicts.config.find_config`)."""
    from verdicts.config import find_config as find

    return find(DOMAIN, start)


def load_config(path: Path | None) -> "Config":
    """storygraph's configuration from ``path``, ``None`` giving the defaults
    (:func:`verdicts.config.load_config`)."""
    from verdicts.config import load_config as load

    return cast("Config", load(DOMAIN, path))  # DOMAIN.config_type is storygraph's Config


def failing(report: Report, config: "Config") -> bool:
    """Whether the run fails under ``config`` (:func:`verdicts.accept.failing`)."""
    from verdicts.accept import failing as fails

    return fails(DOMAIN, report, config)



def _refuse_other_kinds(path: str | Path) -> None:
    """Refuse another domain's tables (:func:`verdicts.recognise.refuse_foreign`); a
    story in its own format (ink, Twine, …) is the importers' to read."""
    from .stories import story_format

    if story_format(Path(path)) is None:
        refuse_foreign(DOMAIN, Path(path))


def lint(path: str | Path, config: "Config | None" = None, progress: Progress = SILENT) -> LintResult:
    """Judge every scene and branch of the scenario at ``path`` (the kit's run,
    :meth:`verdicts.domain.Domain.judge`).

    With a :class:`~storygraph.config.Config`, the findings it (or a ``lint_ignore``
    column) records as intended are marked accepted.  Raises
    :class:`~verdicts.errors.InputError` only when nothing can be read.
    """
    return DOMAIN.judge(Path(path), config, progress)  # type: ignore[return-value]


def _accepts_anything(scenario: Scenario, config: "Config") -> bool:
    return bool(config.accept) or scenario.has("scene_states", "lint_ignore") or scenario.has("story_branches", "lint_ignore")


#: the report formats :func:`lint_to` writes (every format of ``storygraph lint``)
STREAMED_FORMATS = streaming.STREAMED_FORMATS


def lint_to(path: str | Path, out, format: str = "json", config: "Config | None" = None, progress: Progress = SILENT,
            jobs: int | None = None, check_results: list | None = None) -> bool:
    """Lint ``path`` and write the report in ``format`` (``json``, ``text``, ``sarif`` or
    ``github``) to the binary stream ``out``: the kit's run written as it is made
    (:meth:`verdicts.domain.Domain.streamed` — on a large scenario the findings, the
    cards, their checks, the schema check and their JSON or text lines are made as tasks
    that the processes share, one per core; a scenario whose findings may be accepted is
    made in one piece).  The output is the same, byte for byte, as :func:`lint` followed
    by that format's reporter.  Returns whether the run fails under ``config``;
    ``check_results``, when given, receives the report's check results."""
    if format not in STREAMED_FORMATS:
        raise ValueError(f"format {format!r}: lint_to writes {', '.join(STREAMED_FORMATS)}")
    report, fails = DOMAIN.streamed(Path(path), out, format, config, progress, jobs)
    if check_results is not None:
        check_results.extend(report.checks)
    return fails
