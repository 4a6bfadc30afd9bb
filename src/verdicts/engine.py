"""The rule engine every domain runs: ordered verdict rules, one home per verdict.

A verdict rule is a small class (yamllint's shape): its docstring is its documentation
(*잡는 것 / 왜 문제인가 / 예시 / 고치는 법*, printed by ``verdicts explain``
and the docs pages); :meth:`Rule.test` is its predicate; :meth:`Rule.write` cites its
evidence and writes its sentence (the summary, and the hedges only this verdict has)
through the domain's templates.  A domain declares its rules in precedence order in a
:class:`RuleBook`; the engine — not the rule — tries them in order, stamps the verdict,
its stable code and the fields the rule fixes (robot's ``blocked_cause``), and builds
the card dict in the schema's field order.

A rule whose verdict would rest on something the tool could not read exactly (an
opaque part of an imported story) returns :class:`Withhold`, with the reason and the
places: the card gets no verdict label (``verdict`` is ``None``), the reason as its
summary and a machine-readable ``withheld`` field; it is neither a problem nor a pass
(the kit's one "판정 보류" state, ``docs/verdicts.md``).

One convention for "cannot decide" in every domain: a rule whose input lacks a value it
needs returns :class:`Missing` naming those values (``table.column``).  What happens
then is the domain's declared policy, decided once in the rule book:

* ``"stop"`` — the verdict stops at that rule: the card stays under the rule's verdict,
  the rule writes a sentence that names the missing value (robot, mail, extraction);
* ``"withhold"`` — no card is made: the missing column is already an input issue and the
  domain counts the withheld cards (storygraph, whose seed forbids guessing a verdict).

>>> class Big(Rule):
...     '''big — the number is large.'''
...     verdict, code = "큼", "big"
...     def test(self, ctx, n):
...         return Missing(("t.n",)) if n is None else n > 9
...     def write(self, ctx, n, draft):
...         draft.summary = "값이 큽니다." if not draft.missing else "값이 없어 멈췄습니다."
>>> class Small(Rule):
...     '''small — anything else.'''
...     verdict, code = "작음", "small"
...     def write(self, ctx, n, draft):
...         draft.summary = "값이 작습니다."
>>> book = RuleBook((Big(), Small()), fields=("n", "verdict", "evidence", "summary", "hedge"))
>>> book.card(None, 12, {"n": 12})
{'n': 12, 'verdict': '큼', 'evidence': [], 'summary': '값이 큽니다.', 'hedge': None}
>>> book.card(None, 3, {"n": 3})["verdict"], book.decide(None, None).missing
('작음', ('t.n',))
>>> class Unread(Rule):
...     '''unread: the number could not be read.'''
...     verdict, code = "큼", "big"
...     def test(self, ctx, n):
...         return Withhold("값을 읽지 못해 판정하지 않았습니다.", [{"file": "a.txt", "line": 3}]) if n == "?" else False
>>> card = RuleBook((Unread(), Small()), fields=("n", "verdict", "evidence", "summary", "hedge")).card(None, "?", {"n": "?"})
>>> card["verdict"], card["summary"], card["withheld"]["where"]
(None, '값을 읽지 못해 판정하지 않았습니다.', [{'file': 'a.txt', 'line': 3}])
"""

from __future__ import annotations

from typing import Any, Callable, ClassVar, Generic, Iterable, Literal, Mapping, Sequence, TypeVar

from .korean import join_clauses
from .records import Frozen

__all__ = ["Missing", "Withhold", "Rule", "Decision", "Draft", "RuleBook", "Clause"]

C = TypeVar("C")
T = TypeVar("T")

#: a hedge clause: ``(connective form, final form)``, joined by :func:`verdicts.korean.join_clauses`
Clause = tuple[str, str]


class Missing(Frozen):
    """The values (``table.column``) a rule needed and found empty, unreadable or absent."""

    __slots__ = ("values",)
    values: tuple[str, ...]

    def __init__(self, values: tuple[str, ...]):
        object.__setattr__(self, "values", values)

    @staticmethod
    def among(needed: dict[str, Any]) -> "Missing | None":
        """The names of ``needed`` (``table.column`` → value) whose value is ``None``, as a
        :class:`Missing`, or ``None`` when every value is there.

        >>> Missing.among({"t.a": 1, "t.b": None}), Missing.among({"t.a": 1})
        (Missing(values=('t.b',)), None)
        """
        gaps = tuple(name for name, value in needed.items() if value is None)
        return Missing(gaps) if gaps else None


class Withhold(Frozen):
    """The verdict of this rule would rest on something the tool could not read exactly:
    ``reason`` (one polite Korean sentence naming it), ``where`` (its places:
    ``{"file", "line"}`` or ``{"table", "line", "column"}``) and the ``evidence`` that
    cites it."""

    __slots__ = ("reason", "where", "evidence")
    reason: str
    where: tuple[dict[str, Any], ...]
    evidence: tuple[dict[str, Any], ...]

    def __init__(self, reason: str, where: Iterable[dict[str, Any]] = (), evidence: Iterable[dict[str, Any]] = ()):
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "where", tuple(where))
        object.__setattr__(self, "evidence", tuple(evidence))


class Rule(Generic[C, T]):
    """One verdict rule.  Subclasses set :attr:`verdict` and :attr:`code`, and override
    :meth:`test` (the last rule of a book may keep the default, which always fires) and
    :meth:`write`.  The class docstring is the rule's documentation."""

    #: the verdict label, verbatim from the seed
    verdict: ClassVar[str]
    #: a stable English code (``verdicts explain``, SARIF rule ids, ``fail_on``)
    code: ClassVar[str]
    #: what the rule judges when a domain has several kinds of target (storygraph: 장면, 분기)
    kind: ClassVar[str | None] = None
    #: card fields the rule fixes besides the verdict (robot: ``{"blocked_cause": "능력 불일치"}``)
    stamp: ClassVar[Mapping[str, Any]] = {}

    def test(self, ctx: C, item: T) -> "bool | Missing | Withhold":
        """Whether the verdict applies (``True``), the next rule is to be tried
        (``False``), the input lacks what the rule needs (:class:`Missing`), or the
        verdict would rest on what could not be read exactly (:class:`Withhold`)."""
        return True

    def write(self, ctx: C, item: T, draft: "Draft") -> None:
        """Cite the evidence and write the summary (and this verdict's own hedges) on
        ``draft``."""
        raise NotImplementedError(f"{type(self).__name__} writes no card")

    @property
    def doc(self) -> str:
        return (type(self).__doc__ or "").strip()

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.verdict!r}, {self.code!r})"


class Decision(Frozen):
    """The rule that gave the verdict, what it missed when the verdict stopped there,
    and why it was withheld (:class:`Withhold`) when it was."""

    __slots__ = ("rule", "missing", "withheld")
    rule: Rule
    missing: tuple[str, ...]
    withheld: "Withhold | None"

    def __init__(self, rule: Rule, missing: tuple[str, ...] = (), withheld: "Withhold | None" = None):
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "missing", missing)
        object.__setattr__(self, "withheld", withheld)

    @property
    def verdict(self) -> str | None:
        return None if self.withheld is not None else self.rule.verdict

    @property
    def code(self) -> str:
        return self.rule.code

    @property
    def stopped(self) -> bool:
        return bool(self.missing)


class Draft:
    """A card being written by its rule: evidence items (schema-shaped dicts), hedge
    clauses, the summary.  ``decision`` tells the rule whether it stopped on a missing
    value.  ``undone`` (``{"code", "reason"}``) marks a passing verdict that no real use
    bears out (:data:`verdicts.model.UNDONE`)."""

    __slots__ = ("decision", "evidence", "hedges", "summary", "undone")

    def __init__(self, decision: Decision):
        self.decision = decision
        self.evidence: list[dict[str, Any]] = []
        self.hedges: list[Clause] = []
        self.summary: str | None = None
        self.undone: dict[str, str] | None = None

    @property
    def missing(self) -> tuple[str, ...]:
        return self.decision.missing

    def hedge(self, clause: Clause | None) -> None:
        if clause is not None:
            self.hedges.append(clause)


class RuleBook(Generic[C, T]):
    """A domain's rules for one kind of target, in precedence order (first match wins).

    ``fields`` are the card's fields in the schema's order; ``on_missing`` the domain's
    policy for a rule that cannot decide (see the module docstring).  ``hedges`` are the
    domain's hedges that do not belong to one verdict (a branch that never fires, say),
    called after the rule wrote the card: ``hedges(ctx, item, draft)``; ``lead`` the
    ones that come before the rule's own (the value that stopped the verdict).
    """

    def __init__(self, rules: Sequence[Rule[C, T]], *, fields: Sequence[str],
                 on_missing: Literal["stop", "withhold"] = "stop",
                 lead: Callable[[C, T, Draft], None] | None = None,
                 hedges: Callable[[C, T, Draft], None] | None = None):
        if not rules:
            raise ValueError("a rule book needs at least one rule")
        self.rules = tuple(rules)
        self.fields = tuple(fields)
        self.on_missing = on_missing
        self.lead = lead
        self.common_hedges = hedges
        self._blank = dict.fromkeys(self.fields)
        codes = [r.code for r in self.rules]
        if len(set(zip(codes, (r.verdict for r in self.rules)))) != len(codes):
            raise ValueError(f"duplicate rule in {codes}")

    def __iter__(self):
        return iter(self.rules)

    def __len__(self) -> int:
        return len(self.rules)

    def decide(self, ctx: C, item: T) -> Decision:
        """Try the rules in order: the first that fires, or the first that lacks a
        value, decides."""
        for rule in self.rules:
            outcome = rule.test(ctx, item)
            if outcome is True:
                return Decision(rule)
            if outcome.__class__ is Missing:
                return Decision(rule, outcome.values)
            if outcome.__class__ is Withhold:
                return Decision(rule, withheld=outcome)
            if outcome:  # any other true value
                return Decision(rule)
        raise ValueError(f"no rule of {[r.code for r in self.rules]} fired: the last rule must always fire")

    def card(self, ctx: C, item: T, values: Mapping[str, Any] | Callable[[Decision], Mapping[str, Any]]) -> dict[str, Any] | None:
        """The card of ``item`` as the schema-shaped dict, or ``None`` when it is
        withheld.  ``values`` are the card's other fields (facts filled whatever the
        verdict), or a function of the decision that gives them."""
        decision = self.decide(ctx, item)
        if decision.missing and self.on_missing == "withhold":
            return None
        return self.write(ctx, item, decision, values)

    def write(self, ctx: C, item: T, decision: Decision,
              values: Mapping[str, Any] | Callable[[Decision], Mapping[str, Any]]) -> dict[str, Any]:
        """The card of an item already decided (see :meth:`card`)."""
        rule = decision.rule
        if decision.withheld is not None:
            return self._withheld(ctx, item, decision, decision.withheld, values(decision) if callable(values) else values)
        draft = Draft(decision)
        if self.lead is not None:
            self.lead(ctx, item, draft)
        rule.write(ctx, item, draft)
        if self.common_hedges is not None:
            self.common_hedges(ctx, item, draft)
        data = self._blank.copy()
        data.update(values(decision) if callable(values) else values)
        data["verdict"] = rule.verdict
        if rule.stamp:
            data.update(rule.stamp)
        data["evidence"] = draft.evidence
        data["summary"] = draft.summary
        data["hedge"] = join_clauses(draft.hedges) if draft.hedges else None
        if draft.undone is not None:
            data["undone"] = draft.undone
        return data

    def _withheld(self, ctx: C, item: T, decision: Decision, w: Withhold, values: Mapping[str, Any]) -> dict[str, Any]:
        """A withheld card: no verdict label, the evidence every card of the kind cites
        (``lead``) and that of what could not be read, the reason as its sentence and in
        ``withheld``."""
        draft = Draft(decision)
        if self.lead is not None:
            self.lead(ctx, item, draft)
        data = self._blank.copy()
        data.update(values)
        data["verdict"] = None
        data["evidence"] = draft.evidence + [dict(e) for e in w.evidence]
        data["summary"] = w.reason
        data["hedge"] = None
        data["withheld"] = {"reason": w.reason, "where": [dict(x) for x in w.where]}
        return data

    def codes(self) -> dict[str, str]:
        """Every rule's code → its verdict (several rules may share a verdict)."""
        return {r.code: r.verdict for r in self.rules}


def rules_of(books: Iterable[RuleBook]) -> list[Rule]:
    """Every rule of ``books``, in order."""
    return [r for book in books for r in book]
