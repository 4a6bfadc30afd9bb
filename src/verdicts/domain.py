"""What a verdict domain plugs into the shared core, and the registry of domains.

A domain adds only its inputs, rules, checks and sentence templates; loading helpers,
the card/evidence model, check running, schema validation, grouping and reporters are
shared.  Each domain module exposes one :class:`Domain` instance.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar

from .checks import Check
from .engine import Rule, RuleBook
from .model import Card, InputIssue, Report
from .schema import schema_check, set_schema_finder

_R = TypeVar("_R", bound=Report)

__all__ = ["Domain", "Report", "get_domain", "domain_names", "ENTRY_POINT_GROUP"]


@dataclass
class Made:
    """What the card stage of a run makes (:meth:`Domain.make_cards`)."""

    #: the cards (:attr:`Domain.card_type`)
    cards: list[Any]
    #: the same cards as JSON (what the checks and the schema check read; ``None`` when
    #: the domain's checks and ``schema`` read the cards otherwise)
    card_json: list[dict[str, Any]] | None
    #: every input issue of the run (the inputs' and the analysis's), in any order
    issues: list[Any]
    #: the findings beside the cards (a domain with lint findings)
    findings: list[Any] = field(default_factory=list)
    #: makes the schema check's result from what the stage knows of its cards (an
    #: incremental run keeps each unchanged card's validity), else ``None``
    schema: Callable[[], Any] | None = None


class Domain(ABC):
    """A family of verdicts over one kind of record: what a domain declares, and what
    the core derives from it for every domain (explain, docs, SARIF rules, the exit rule).

    Subclasses set the class attributes and implement :meth:`judge` and :meth:`checks`.
    """

    #: short name used on the command line (``verdicts run NAME``) and for the schema file
    name: str
    #: one Korean line saying what the domain decides
    title: str
    #: the card class (a :class:`~verdicts.model.Card` subclass)
    card_type: type[Card]
    #: every verdict, in the order of precedence (first match wins) — also the screen order
    verdicts: tuple[str, ...]
    #: verdicts that are not findings (a run with only these exits 0)
    passing_verdicts: frozenset[str]
    #: the group, among the problems of every first view, of the passing cards that no
    #: real use bears out (:data:`~verdicts.model.UNDONE`), and the sentence heading it
    undone_group: str = "통과지만 실제로는 막힘"
    undone_head: str = "판정은 통과지만 실제로는 그대로 이루어지지 않는 대상입니다."
    #: what ``explain`` and the docs page say of that group (none: the domain has none)
    undone_doc: str | None = None
    #: the rule books (one per kind of target), in order: the rules' docstrings are the docs
    books: tuple[RuleBook, ...] = ()
    #: the lint findings a domain reports beside its cards (each with ``code``, ``title``, ``doc``)
    finding_kinds: tuple[Any, ...] = ()
    #: the card field that says which kind of target a card judges (storygraph: target_kind)
    kind_field: str | None = None
    #: how ``explain`` names each kind of target
    kind_labels: dict[str, str] = {}
    #: the column that subdivides a verdict group on screen, per verdict (robot: blocked_cause)
    subgroup_field: dict[str, str] = {}
    #: the verdict whose cards the text report lists under their root cause
    #: (:meth:`root_causes`; storygraph: 끝에 못 감 under the dead end it runs into)
    root_cause_verdict: str | None = None
    #: the columns of the expandable evidence table on screen, in order
    evidence_columns: tuple[str, ...] = ("field", "agg", "value")
    #: card fields a gold file may also give and the grading runner compares
    gold_fields: tuple[str, ...] = ()
    #: the docs page generated from the docstrings (relative to the repository), its
    #: title, and a sentence on the rules' order beside "first that fires"
    docs_page: str | None = None
    docs_title: str = "판정과 자동 검증"
    docs_note: str | None = None
    #: verification notes for the screen: "자동" (what the checks cover), "수동" (what a
    #: person must look at), "정직 경계선" (what the tool cannot know) → Korean sentences
    notes: dict[str, list[str]] = {}

    #: what one input is called in a progress line over several (storygraph: 시나리오)
    input_noun: str = "입력"
    #: the domain's input tables (their names and columns tell its inputs from another
    #: domain's, :mod:`verdicts.recognise`)
    table_specs: tuple[Any, ...] = ()

    @property
    def default_input_kind(self) -> str:
        return f"{self.name} 도메인의 입력"

    @property
    def input_kind(self) -> str:
        """What the domain's input is called when another kind is refused (storygraph:
        시나리오 표)."""
        return self.default_input_kind

    def registered_domains(self) -> list["Domain"]:
        """Every registered domain that loads (the ones an input may belong to)."""
        out = []
        for name in domain_names():
            try:
                out.append(get_domain(name))
            except Exception:  # noqa: BLE001 - a broken plug-in must not hide the others
                continue
        return out

    def input_names(self) -> dict[str, frozenset[str]]:
        """Each input table's name → its column names (from :attr:`table_specs`)."""
        return {spec.name: frozenset(spec.column_names) for spec in self.table_specs}

    def input_columns(self) -> list[tuple[frozenset[str], frozenset[str]]]:
        """Each input table's columns, with those that only this table's rows have
        (its key and required columns)."""
        return [(frozenset(spec.column_names), frozenset(c.name for c in spec.columns if c.required or c.name == spec.key))
                for spec in self.table_specs]

    #: the class of the report (a :class:`Report` subclass may name what it keeps)
    report_type: type[Report] = Report

    def load(self, path: Path) -> Any:
        """The typed inputs at ``path`` (with ``issues``, ``sources`` and ``tables``);
        raises :class:`~verdicts.errors.InputError` only when nothing can be read."""
        raise NotImplementedError(f"{type(self).__name__} reads no inputs")

    def build(self, inputs: Any) -> list[dict[str, Any]]:
        """Every card of ``inputs`` as the schema-shaped dict, through the rule books."""
        raise NotImplementedError(f"{type(self).__name__} builds no cards")

    def check_context(self, inputs: Any, cards: list[dict[str, Any]]) -> Any:
        """What the domain's checks read: the inputs and the cards as JSON."""
        raise NotImplementedError(f"{type(self).__name__} declares no check context")

    # ---------------------------------------------------------------- the stages of a run
    # read, analyse, make cards, check, finish (acceptances, schema) — :meth:`judge` runs
    # them in one process for every domain; a table domain declares :meth:`load`,
    # :meth:`build` and :meth:`check_context`, a domain with more to do overrides a stage.

    def refuse(self, path: Path) -> None:
        """Refuse ``path`` when it is plainly another kind of input
        (:func:`verdicts.recognise.refuse_foreign`)."""
        from .recognise import refuse_foreign

        refuse_foreign(self, path)

    def analyse(self, inputs: Any, config: Any, progress: Any, jobs: int | None = None) -> Any:
        """What the cards rest on, made from the typed inputs (a table domain's rules
        read the inputs themselves: the inputs).  ``jobs``, in a run over several
        processes (:meth:`stream_to`), is how many share it: a domain may split its
        analysis over them."""
        return inputs

    def work_size(self, inputs: Any) -> int:
        """How many targets the inputs hold, for choosing how many processes share a run
        (:func:`verdicts.parallel.choose_jobs`); a table domain's run stays in one."""
        return 0

    def card_plan(self, facts: Any, config: Any, jobs: int, progress: Any) -> Any:
        """A :class:`verdicts.streaming.CardPlan` to make, check and write the cards in
        batches over ``jobs`` processes, or ``None``: the run is made in one piece."""
        return None

    def accepts_anything(self, facts: Any, config: Any) -> bool:
        """Whether something may be accepted in this run (then it is made in one piece:
        an acceptance can reach across batches)."""
        return bool(getattr(config, "accept", ()))

    def make_cards(self, facts: Any, progress: Any) -> Made:
        """Every card of the run, the same cards as JSON, the input issues and the
        findings (a table domain: :meth:`build` through its rule books, the inputs'
        issues, no findings)."""
        data = self.build(facts)
        return Made([self.card_type(d) for d in data], data, list(facts.issues))

    def run_checks(self, facts: Any, made: Made) -> list[Any]:
        """The domain's automatic checks over the cards (:meth:`check_context`)."""
        assert made.card_json is not None  # (a table domain's cards are always made as JSON)
        context = self.check_context(facts, made.card_json)
        return [check.run(context) for check in self.checks()]

    def assemble(self, facts: Any, made: Made, checks: list[Any]) -> Report:
        """The report of the run before :meth:`finish`: the cards, the input issues in
        the one order (:func:`issue_order`), the checks, the inputs read."""
        report = self.report_type(self.name, made.cards, sorted(made.issues, key=issue_order), checks, facts.sources,
                                  made.findings)
        report.inputs = facts
        return report

    def closing_checks(self, report: Report) -> list[Any]:
        """Checks shown after the schema check (storygraph: a story's import self-check)."""
        return []

    def judge(self, path: Path, config: Any = None, progress: Any = None) -> Report:
        """Read ``path``, judge every target, run the checks, and :meth:`finish` the
        report under ``config``: the stages above, in one process.

        Raises :class:`~verdicts.errors.InputError` only when nothing at all can be read,
        or when ``path`` is plainly another kind of input (:mod:`verdicts.recognise`).
        """
        from .progress import SILENT

        progress = progress or SILENT
        with self.collector():
            progress.start("읽기")
            self.refuse(path)
            inputs = self.load(path)
            progress.start("분석")
            return self.judged(self.analyse(inputs, config, progress), config, progress)

    def collector(self) -> Any:
        """How the cyclic garbage collector is held during a run: paused
        (:func:`verdicts.perf.without_gc`; a run makes many objects and frees few)."""
        from .perf import without_gc

        return without_gc()

    def judged(self, facts: Any, config: Any = None, progress: Any = None) -> Report:
        """The stages after the analysis: cards, checks, the report, :meth:`finish`."""
        from .progress import SILENT

        progress = progress or SILENT
        made = self.make_cards(facts, progress)
        progress.start("자동 검증")
        checks = self.run_checks(facts, made)
        report = self.finish(self.assemble(facts, made, checks), config, made.card_json, schema=made.schema)
        progress.close()
        return report

    @abstractmethod
    def checks(self) -> list[Check[Any]]:
        """The domain's automatic checks, in their seed's order."""

    def documented_checks(self) -> list[Check[Any]]:
        """The checks ``explain`` and the docs page describe: :meth:`checks`, and any a
        domain shows only on some runs (storygraph's import self-check)."""
        return self.checks()

    def expand_paths(self, paths: list[Path]) -> list[Path]:
        """The inputs named on the command line (storygraph expands folders of
        scenarios); each path as it is by default."""
        return list(paths)

    def streamed(self, path: Path, out: Any, format: str, config: Any = None, progress: Any = None,
                 jobs: int | None = None) -> tuple[Report, bool]:
        """The run of one input written to the binary stream ``out`` in ``format`` as it is
        made, the strategy chosen by the run: the stages of :meth:`judge`, the analysis
        shared by ``jobs`` processes (else as many as the cores and the input's size
        call for), then the cards made, checked and written in batches over them when the
        domain gives a :meth:`card_plan` and nothing may be accepted
        (:func:`verdicts.streaming.stream_cards`), else made in one piece and written by
        the format's reporter.  Returns the report (without its cards when they were
        streamed) and whether it fails the run (:func:`verdicts.accept.failing`)."""
        from .accept import failing
        from .parallel import choose_jobs
        from .progress import SILENT
        from .reporters import REPORTERS

        progress = progress or SILENT
        config = config if config is not None else self.config_type()
        with self.collector():
            progress.start("읽기")
            self.refuse(path)
            inputs = self.load(path)
            progress.start("분석")
            n = choose_jobs(self.work_size(inputs), jobs)
            facts = self.analyse(inputs, config, progress, jobs=n)
            plan = None if self.accepts_anything(facts, config) else self.card_plan(facts, config, n, progress)
            if plan is None:
                report = self.judged(facts, config, progress)
                for piece in REPORTERS[format].pieces(report, self):
                    out.write(piece)
                return report, failing(self, report, config)
            from .streaming import stream_cards

            return stream_cards(self, plan, out, format, n, progress, failing=lambda r: failing(self, r, config))

    def stream_to(self, path: Path, out: Any, format: str, config: Any, progress: Any = None, jobs: int | None = None) -> int:
        """The run of one input on ``out`` (:meth:`streamed`) and its exit code: 3 when an
        automatic check failed (with the Korean line on stderr), else 1 when the run
        fails, else 0."""
        import sys

        from .accept import CHECKS_FAILED, checks_failed_message, failed_checks

        report, fails = self.streamed(path, out, format, config, progress, jobs)
        failed = failed_checks(report)
        if failed:
            sys.stderr.write(f"{self.name}: {checks_failed_message(failed)}\n")
            return CHECKS_FAILED
        return int(fails)

    # ------------------------------------------------------------------ derived by the core
    def rules(self) -> list[Rule]:
        """Every verdict rule, book by book, in precedence order."""
        return [rule for book in self.books for rule in book]

    def verdict_codes(self) -> dict[str, str]:
        """Every rule's stable code → its verdict label."""
        return {rule.code: rule.verdict for rule in self.rules()}

    def rule_of(self, card: dict[str, Any]) -> Rule | None:
        """The rule that gave a card (as JSON) its verdict: same verdict, same target
        kind, the same fixed fields."""
        kind = card.get(self.kind_field) if self.kind_field else None
        for rule in self.rules():
            if rule.verdict != card.get("verdict") or (rule.kind is not None and rule.kind != kind):
                continue
            if all(card.get(k) == v for k, v in rule.stamp.items()):
                return rule
        return None

    def card_location(self, card: dict[str, Any]) -> tuple[str | None, int | None]:
        """The table and physical line of the row a card judges (where SARIF and GitHub
        annotations point): the first evidence item that cites a row of the domain's
        first table with a line.  Domains override it when a card's row lives elsewhere."""
        table = self.card_table(card)
        for item in card.get(self.card_type.evidence_field) or ():
            if item.get("source") == table and item.get("line") is not None and not item.get("agg"):
                return table, item["line"]
        return table, None

    def card_table(self, card: dict[str, Any]) -> str | None:
        """The input table whose row a card judges."""
        return None

    # ------------------------------------------------------------------ what the domain's package ships
    def card_schema_text(self) -> str:
        """The domain's card schema as shipped by its own package: the data file
        ``schemas/<name>.card.schema.json`` beside the domain's module (a domain package
        outside ``src/verdicts`` ships its own; the bundled domains keep theirs in
        ``verdicts/schemas``)."""
        from importlib import resources

        package = type(self).__module__.rpartition(".")[0] or type(self).__module__
        return resources.files(package).joinpath("schemas", f"{self.name}.card.schema.json").read_text(encoding="utf-8")

    def distribution(self) -> str | None:
        """The installed distribution that provides the domain's package (its name), or
        ``None`` when it runs from a tree that was never installed."""
        point = _entry_points().get(self.name)
        dist = getattr(point, "dist", None)
        if dist is not None:  # the distribution that registers the domain
            return dist.metadata["Name"]
        from importlib.metadata import packages_distributions

        top = type(self).__module__.split(".")[0]
        names = packages_distributions().get(top) or []
        return names[0] if names else None

    def tool_version(self) -> str:
        """The version of :meth:`distribution` (``0.0.0+unknown`` when not installed)."""
        from importlib.metadata import PackageNotFoundError, version

        dist = self.distribution()
        try:
            return version(dist) if dist else "0.0.0+unknown"
        except PackageNotFoundError:  # pragma: no cover
            return "0.0.0+unknown"

    def information_uri(self) -> str | None:
        """Where the domain's rules are documented, from its distribution's project URLs:
        its docs page in its ``Repository`` (``…/blob/main/<docs_page>``) when it names
        one, else its ``Documentation`` or ``Homepage`` URL, else ``None``."""
        from importlib.metadata import PackageNotFoundError, metadata

        dist = self.distribution()
        if not dist:
            return None
        try:
            urls = metadata(dist).get_all("Project-URL") or []
        except PackageNotFoundError:  # pragma: no cover
            return None
        found = {k.strip().lower(): v.strip() for k, v in (u.split(",", 1) for u in urls if "," in u)}
        if self.docs_page and "repository" in found:
            return f"{found['repository'].rstrip('/')}/blob/main/{self.docs_page}"
        return found.get("documentation") or found.get("homepage")

    def converted_tables(self, sources: list[Any]) -> list[str]:
        """The tables of a run that were converted from another form (a story in its own
        format): their line numbers are those of a table nobody sees, so a result with no
        place of its own points at the file alone.  None by default."""
        return []

    def root_causes(self, report: Any) -> dict[str, tuple[str, str, bool]]:
        """For the cards of ``root_cause_verdict`` in ``report``: card key → ``(root
        key, heading, whether it is the root's own card)``.  The text report lists such
        cards under one heading per root, the root's own cards first; a card not named
        has no heading.  None here."""
        return {}

    def card_place(self, card: dict[str, Any]) -> tuple[str, int | None] | None:
        """Where the row a card judges is written when that is not a row of an input
        table — a story imported from its own format: the story's file and line — else
        ``None``.  SARIF results, GitHub annotations and the text report point there
        (instead of :meth:`card_location`)."""
        return None

    def finding_place(self, finding: Any, report: Any) -> tuple[str | None, int | None] | None:
        """Where the text report says a finding of ``report`` is (shown after its
        target), or ``None`` (the default: findings point at the input's rows only in
        SARIF, JSON and annotations)."""
        return None

    # ------------------------------------------------------------------ configuration and acceptance
    #: the configuration's class (:class:`verdicts.config.Config` or a subclass)
    @property
    def config_type(self) -> type:
        from .config import Config

        return Config

    @property
    def config_file(self) -> tuple[str, tuple[str, ...]]:
        """The configuration's file name, and its table's path in a ``pyproject.toml``."""
        return "verdicts.toml", ("tool", "verdicts", self.name)

    def ignore_rows(self, report: Report) -> list[tuple[str, str, str | None, str, int | None]]:
        """Input rows whose ``lint_ignore`` cell records an intended finding:
        ``(target, reason, file, table, line)``."""
        return []

    def extend_acceptances(self, report: Report, accepted: dict[str, str]) -> dict[str, str]:
        """More cards accepted because of the ones already accepted (``key -> reason``)."""
        return {}

    def screen_extras(self, report: Report, grading: Any = None) -> Any:
        """What the report screen shows beside the generic panels (a diagram, context
        tables); the generic screen with the grading panel by default."""
        from .screen import ScreenExtras

        return ScreenExtras(grading=grading)

    def explainable_names(self) -> list[str]:
        """Every name ``verdicts explain`` takes: verdict labels, rule codes, finding
        codes and check ids."""
        from .docs import explainable_names

        return explainable_names(self)

    def explain(self, name: str) -> str | None:
        """The documentation of a verdict (label or code), a finding code or a check id,
        as plain text; ``None`` for an unknown name."""
        from .docs import explain_text

        return explain_text(self, name)

    def finish(self, report: _R, config: Any = None, card_json: list[dict[str, Any]] | None = None,
               schema: Callable[[], Any] | None = None) -> _R:
        """The last steps every domain shares: what ``config`` and the inputs accept is
        marked (on a copy, :func:`verdicts.accept.apply_acceptances`), then the schema
        check every domain shows beside its own checks is appended.

        ``card_json``, when given, is the cards' JSON already made for the checks (one
        pass over the cards instead of two on large runs); ``schema``, when given, makes
        the schema check's result from what the caller already knows of its cards (an
        incremental re-lint keeps each unchanged card's).  Neither is used once a card is
        accepted, since its JSON then carries the reason."""
        from .accept import apply_acceptances

        config = config if config is not None else self.config_type()
        report = apply_acceptances(self, report, config)
        report.config = config.source
        if any(c.accepted for c in report.cards):
            card_json = schema = None
        report.checks.append(schema() if schema is not None else schema_check(self.name, report.cards, card_json))
        report.checks.extend(self.closing_checks(report))
        if type(self).aggregate is not Domain.aggregate:
            found = self.aggregate(card_json if card_json is not None else [c.to_json() for c in report.cards])
            if found is not None:
                report.extra["aggregate"] = found
        return report

    def follow_up(self, report: Report, plan: Path) -> Any:
        """After the round: what the plan actually made (a table at ``plan``) does for what
        the cards asked for (robot: the recapture site and hand against the collection
        plan), as an object with ``to_json()``, ``render_text()`` and ``passed``; ``None``
        (the default) when the domain's seed asks for no such follow-up."""
        return None

    def aggregate(self, cards: list[dict[str, Any]]) -> dict[str, Any] | None:
        """What the run's cards add up to, when the domain's seed says (residue's card E3:
        ``aggregate: ratio``, the share of defects): ``{"kind", "defects", "total",
        "value"}``, written in JSON as ``aggregate`` and on every summary line; ``None``
        (the default) for none."""
        return None

    def exit_code(self, report: Report, config: Any = None) -> int:
        """0 when nothing fails the run under ``config`` (the one exit rule,
        :func:`verdicts.accept.failing`), else 1."""
        from .accept import exit_code

        return exit_code(self, report, config)


def issue_order(issue: InputIssue) -> tuple:
    """How every report lists its input issues (the one order): by file, line, column
    and place in the cell."""
    return (issue.file or "", issue.line or 0, issue.column or "", issue.position or 0)


#: the entry-point group a domain registers under (``pyproject.toml``:
#: ``[project.entry-points."verdicts.domains"] NAME = "module:DOMAIN"``)
ENTRY_POINT_GROUP = "verdicts.domains"


def _entry_points() -> dict[str, Any]:
    from importlib.metadata import entry_points

    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def domain_names() -> list[str]:
    """The registered domains, by name."""
    return sorted(_entry_points())


def get_domain(name: str) -> Domain:
    """The domain registered as ``name`` (loaded on first use)."""
    points = _entry_points()
    try:
        point = points[name]
    except KeyError:
        from .errors import VerdictsError
        from .korean import code
        from .suggest import close_name

        known = ", ".join(code(p) for p in sorted(points)) or "없음"
        close = close_name(name, points)
        hint = f" 혹시 {code(close)} 도메인을 쓰려던 것인가요?" if close else ""
        raise VerdictsError(f"{code(name)} 도메인은 등록되어 있지 않습니다(등록된 도메인: {known}).{hint}") from None
    domain = point.load()
    if not isinstance(domain, Domain):
        from .errors import VerdictsError
        from .korean import code, josa

        raise VerdictsError(f"{josa(code(point.value), '이/가')} 가리키는 값은 `Domain`이 아니어서 {code(name)} 도메인으로 쓸 수 "
                            "없습니다.")
    return domain


# a schema the kit does not hold comes from the registered domain's own package
set_schema_finder(lambda name: get_domain(name).card_schema_text())
