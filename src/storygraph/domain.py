"""storygraph as a verdict domain: lint a scenario into cards, issues, checks and findings."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from verdicts import streaming
from verdicts.checks import Check
from verdicts.domain import Domain, Made, Report, issue_order
from verdicts.perf import without_gc
from verdicts.progress import SILENT, Progress
from verdicts.recognise import refuse_foreign

from .analysis import TABLE_FORMS, Analysis, analyse
from .cards import CardBuilder, build_cards, graph_counts, withheld_issues
from .checks import CHECKS, CheckContext
from .findings import HEDGING_KINDS, KINDS, collect_findings
from .loading import load_scenario
from .model import BRANCH, REACHED_AND_ENDS, SCENE, SHADOWING, TABLE_SPECS, VERDICTS, Scenario, StoryCard
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
    books = (SCENE_BOOK, BRANCH_BOOK)
    finding_kinds = tuple(KINDS)
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
            "모든 카드가 출력 스키마를 통과하는지, 요약과 단서가 존댓말 한 문장인지 봅니다.",
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

    def analyse(self, inputs: Scenario, config: Any, progress: Any) -> Analysis:
        from .config import Config

        return analyse(inputs, budgets=(config or Config()).budget.budgets())

    def make_cards(self, facts: Analysis, progress: Any) -> Made:
        scenario = facts.scenario
        progress.start("카드", {"장면": len(scenario.scenes), "분기": len(scenario.branches)})
        cards, withheld, findings = build_cards(facts, progress)
        return Made(list(cards), [c.to_json() for c in cards], scenario.issues + facts.issues + withheld, findings)

    def run_checks(self, facts: Analysis, made: Made) -> list[Any]:
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

    def stream_to(self, path: Path, out: Any, format: str, config: Any, progress: Any = None, jobs: int | None = None) -> bool | int:
        """:func:`lint_to`: a large scenario's cards made by every core and streamed.
        Whether the run fails, or :data:`verdicts.accept.CHECKS_FAILED` (with a Korean
        line on stderr) when an automatic check failed."""
        import sys

        from verdicts.accept import CHECKS_FAILED, checks_failed_message

        checks: list = []
        fails = lint_to(path, out, format, config=config, progress=progress or SILENT, jobs=jobs, check_results=checks)
        failed = [c.id for c in checks if not c.passed]
        if failed:
            sys.stderr.write(f"storygraph: {checks_failed_message(failed)}\n")
            return CHECKS_FAILED
        return fails


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
    ``github``) to the binary stream ``out``; return whether the run fails under
    ``config`` (see :func:`verdicts.accept.failing`).

    The output is the same, byte for byte, as :func:`lint` followed by that format's
    reporter.  On a large scenario the findings, the cards, their checks, the schema
    check and their JSON or text lines are made as tasks that the processes share, one
    process per core (the core's :func:`verdicts.streaming.stream_cards`); each batch of cards is
    written as bytes as soon as it is made instead of kept as card objects (the text
    lines by verdict, to be put in the report's groups; for SARIF and GitHub, only the
    results of the cards that are not ``끝까지 닿음`` come back).  A scenario whose findings may
    be accepted (``[[accept]]`` or a ``lint_ignore`` column) goes through :func:`lint`,
    because an acceptance can reach across parts.  ``check_results``, when given, receives
    the report's check results.
    """
    if format not in STREAMED_FORMATS:
        raise ValueError(f"format {format!r}: lint_to writes {', '.join(STREAMED_FORMATS)}")
    from verdicts.parallel import choose_jobs

    from .config import Config

    config = config or Config()
    with without_gc():
        progress.start("읽기")
        _refuse_other_kinds(path)
        scenario = load_scenario(path)
        progress.start("분석")
        n = choose_jobs(len(scenario.scenes) + len(scenario.branches), jobs)
        shared = CheckContext(scenario, [])

        def check_facts():
            # the scenario facts the checks of every batch read: made once, from the
            # inputs alone, while the other processes start deciding scenes
            shared.reached(), shared.to_ending(), shared.rows(), shared.branches_by_scene(), shared.to_scenes()

        analysis = analyse(scenario, jobs=n, alongside=graph_counts, on_part=progress.part, meanwhile=check_facts,
                           budgets=config.budget.budgets())
        if _accepts_anything(scenario, config):
            # an acceptance can reach across parts: the run is the kit's in one process,
            # written by the format's one writer
            from verdicts.reporters import REPORTERS

            report = DOMAIN.judged(analysis, config, progress)
            for piece in REPORTERS[format].pieces(report, DOMAIN):
                out.write(piece)
            if check_results is not None:
                check_results.extend(report.checks)
            return failing(report, config)
        progress.start("발견")
        # the findings that add to cards' hedges now; the others while the cards are made
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

        plan = streaming.CardPlan(
            targets={SCENE: list(scenario.scenes.values()), BRANCH: scenario.branches},
            build=build, checks=CHECKS, check_context=lambda data: CheckContext(scenario, data, shared._cache),
            assemble=assemble,
            # the findings that did not add to cards' hedges are found while the cards are made
            side_tasks=[k for k in KINDS if k.code not in HEDGING_KINDS],
            run_side=lambda kind: collect_findings(analysis, [kind])[0],
            fail_on=config.failing_set(DOMAIN), sources=scenario.sources,
            counts={"장면": len(scenario.scenes), "분기": len(scenario.branches)},
        )
        report, fails = streaming.stream_cards(DOMAIN, plan, out, format, n, progress, failing=lambda r: failing(r, config))
        if check_results is not None:
            check_results.extend(report.checks)
        return fails
