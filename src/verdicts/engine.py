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

* ``"hold"`` — the card is withheld (:class:`Withhold`): no verdict label, the reason
  and the places from the book's ``hold`` function, usually :func:`withhold_cells`
  naming each value that stopped it by table, line and column (robot, mail, extraction:
  their seeds give such a card no verdict);
* ``"withhold"`` — no card is made: the missing column is already an input issue and the
  domain counts the withheld cards (storygraph, whose seed forbids guessing a verdict).

>>> class Big(Rule):
...     '''big — the number is large.'''
...     verdict, code = "큼", "big"
...     def test(self, ctx, n):
...         return Missing(("t.n",)) if n is None else n > 9
...     def write(self, ctx, n, draft):
...         draft.summary = "값이 큽니다."
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

from operator import attrgetter
from typing import Any, Callable, ClassVar, Generic, Iterable, Literal, Mapping, Sequence, TypeVar

from .korean import code, josa
from .records import Frozen

__all__ = ["Missing", "Withhold", "HeldCell", "withhold_cells", "Rule", "Decision", "Draft", "RuleBook", "Caveat",
           "UNKNOWN", "NARROWS", "ASIDE", "MORE_HEDGES"]

C = TypeVar("C")
T = TypeVar("T")

# The weight of a caveat: how much it limits what the verdict can claim.  A card's
# caveats are ordered by weight, ties in the order the card was written (the value that
# stopped the verdict, the verdict's own caveats, what holds whatever the verdict, the
# lint findings'); the first is the card's ``hedge``, the others its ``more_hedges``.

#: the verdict rests on something the tool could not read, count or decide (an empty or
#: unreadable cell, an opaque part of a story, a question left undecided or skipped)
UNKNOWN = 0
#: a decided fact that narrows the verdict's claim (a branch that never fires, readers
#: stuck, a value seen but not cited): the verdict holds on the tables, not in real use
NARROWS = 1
#: what the verdict leaves to a person or says beside it (which edit to make, where to
#: look, another reason the same row also meets)
ASIDE = 2

#: the card field of the caveats after the first (absent when there are none)
MORE_HEDGES = "more_hedges"


class Caveat(Frozen):
    """One caveat of a card: ``text`` is one polite Korean sentence making one claim,
    ``weight`` one of :data:`UNKNOWN`, :data:`NARROWS`, :data:`ASIDE`.

    >>> Caveat("값이 비어 세지 못했습니다.", UNKNOWN)
    Caveat(text='값이 비어 세지 못했습니다.', weight=0)
    """

    __slots__ = ("text", "weight")
    text: str
    weight: int

    def __init__(self, text: str, weight: int):
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "weight", weight)


def ordered_caveats(caveats: Iterable[Caveat]) -> list[str]:
    """The texts of ``caveats`` by weight, ties in their order, each said once.

    >>> ordered_caveats([Caveat("다른 사유에도 걸렸습니다.", ASIDE), Caveat("값이 비었습니다.", UNKNOWN),
    ...                  Caveat("값이 비었습니다.", UNKNOWN)])
    ['값이 비었습니다.', '다른 사유에도 걸렸습니다.']
    """
    return list(dict.fromkeys(c.text for c in sorted(caveats, key=attrgetter("weight"))))


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


class HeldCell(Frozen):
    """A value a verdict needed and could not use: the cell of ``table`` at ``line``
    (``None``: the table has no such row) in ``column``, its ``text`` (``None``: empty),
    whether the table has the column at all, and the ``file`` it was read from.  ``how``
    says what is wrong in the domain's words when none of those does (the stem of a
    clause: “`worker_outputs` 표 3번째 줄의 이벤트를 읽을 수 없”)."""

    __slots__ = ("table", "line", "column", "text", "present", "file", "how")
    table: str
    line: int | None
    column: str
    text: str | None
    present: bool
    file: str | None
    how: str | None

    def __init__(self, table: str, line: int | None, column: str, text: str | None, *, present: bool = True,
                 file: str | None = None, how: str | None = None):
        object.__setattr__(self, "table", table)
        object.__setattr__(self, "line", line)
        object.__setattr__(self, "column", column)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "present", present)
        object.__setattr__(self, "file", file)
        object.__setattr__(self, "how", how)

    def words(self) -> tuple[str, str]:
        """What is wrong with the cell, as a clause (connective form, final form minus
        the ending): ``(“… 읽을 수 없고”, “… 읽을 수 없어”)``."""
        if self.how is not None:
            base = self.how
        elif not self.present:
            base = f"{code(self.table)} 표에 {code(self.column)} 열이 없"
        else:
            row = f"{code(self.table)} 표 {self.line}번째 줄" if self.line is not None else f"{code(self.table)} 표"
            if self.text is None or not self.text.strip():
                base = f"{row}의 {code(self.column)} 열이 비어 있"
            else:
                shown = self.text if len(self.text) <= 40 else self.text[:39] + "…"
                base = f"{row} {code(self.column)} 열의 {josa(code(shown), '을/를')} 읽을 수 없"
        return base + "고", base + "어"

    def place(self) -> dict[str, Any]:
        """The machine-readable place (``withheld.where``)."""
        out: dict[str, Any] = {}
        if self.file:
            out["file"] = self.file
        out["table"] = self.table
        if self.line is not None:
            out["line"] = self.line
        out["column"] = self.column
        return out


#: how many places a withheld reason names (``where`` holds them all)
_NAMED = 3
#: how many lines of one column a withheld reason names
_LINES = 5


def withhold_cells(cells: Sequence[HeldCell], question: str, target: str,
                   evidence: Iterable[dict[str, Any]] = ()) -> Withhold:
    """The :class:`Withhold` of a card that stopped on ``cells``: one sentence naming
    each value and its place, what could not be told (``question``: “보낸 값이 원문에
    있는지”) and what was therefore not judged (``target``: “이 처리”), and the places
    as ``where``.

    >>> w = withhold_cells([HeldCell("t", 4, "amount", "약 120만")], "금액이 맞는지", "이 줄")
    >>> w.reason
    '`t` 표 4번째 줄 `amount` 열의 `약 120만`을 읽을 수 없어 금액이 맞는지 알 수 없으므로 이 줄은 판정하지 않았습니다.'
    >>> w.where
    ({'table': 't', 'line': 4, 'column': 'amount'},)
    """
    unique = list(dict.fromkeys(cells))
    # empty cells of one column are named together: “7, 8, 9번째 줄의 … 열이 비어 있어”
    groups: dict[Any, list[HeldCell]] = {}
    for c in unique:
        empty = c.how is None and c.present and c.line is not None and not (c.text or "").strip()
        groups.setdefault((c.table, c.column) if empty else c, []).append(c)
    clauses = []
    for group in list(groups.values())[:_NAMED]:
        if len(group) == 1:
            clauses.append(group[0].words())
        else:
            shown = group[:_LINES]
            lines = ", ".join(str(c.line) for c in shown) + "번째 줄"
            if len(group) > len(shown):
                lines += f" 등 {len(group):,}개 줄"
            base = f"{code(group[0].table)} 표 {lines}의 {code(group[0].column)} 열이 비어 있"
            clauses.append((base + "고", base + "어"))
    if len(groups) > _NAMED:
        rest = f"그 밖의 {len(groups) - _NAMED:,}곳도 마찬가지"
        clauses.append((rest + "이고", rest + "여서"))
    head = ", ".join([c[0] for c in clauses[:-1]] + [clauses[-1][1]])
    reason = f"{head} {question} 알 수 없으므로 {josa(target, '은/는')} 판정하지 않았습니다."
    return Withhold(reason, [c.place() for c in unique], evidence)


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
    """A card being written by its rule: evidence items (schema-shaped dicts), its
    caveats (:class:`Caveat`), the summary.  ``decision`` tells the rule whether it stopped on a missing
    value.  ``undone`` (``{"code", "reason"}``) marks a passing verdict that no real use
    bears out (:data:`verdicts.model.UNDONE`)."""

    __slots__ = ("decision", "evidence", "hedges", "summary", "undone")

    def __init__(self, decision: Decision):
        self.decision = decision
        self.evidence: list[dict[str, Any]] = []
        self.hedges: list[Caveat] = []
        self.summary: str | None = None
        self.undone: dict[str, str] | None = None

    @property
    def missing(self) -> tuple[str, ...]:
        return self.decision.missing

    def hedge(self, caveat: Caveat | None) -> None:
        if caveat is not None:
            self.hedges.append(caveat)


class RuleBook(Generic[C, T]):
    """A domain's rules for one kind of target, in precedence order (first match wins).

    ``fields`` are the card's fields in the schema's order; ``on_missing`` the domain's
    policy for a rule that cannot decide (see the module docstring; ``hold`` writes the
    reason under ``"hold"``).  ``hedges`` are the
    domain's hedges that do not belong to one verdict (a branch that never fires, say),
    called after the rule wrote the card: ``hedges(ctx, item, draft)``; ``lead`` the
    ones that come before the rule's own (the value that stopped the verdict).
    """

    def __init__(self, rules: Sequence[Rule[C, T]], *, fields: Sequence[str],
                 on_missing: Literal["withhold", "hold"] = "withhold",
                 lead: Callable[[C, T, Draft], None] | None = None,
                 hedges: Callable[[C, T, Draft], None] | None = None,
                 hold: "Callable[[C, T, Rule[C, T], tuple[str, ...]], Withhold] | None" = None,
                 evidence_field: str = "evidence"):
        if not rules:
            raise ValueError("a rule book needs at least one rule")
        if (on_missing == "hold") != (hold is not None):
            raise ValueError('on_missing="hold" and a hold function go together')
        self.rules = tuple(rules)
        self.fields = tuple(fields)
        self.on_missing = on_missing
        #: ``hold(ctx, item, rule, missing)``: the :class:`Withhold` of a card whose
        #: ``rule`` lacked the values ``missing`` (``on_missing="hold"``)
        self.hold = hold
        #: the card field the evidence items go to (:attr:`verdicts.model.Card.evidence_field`)
        self.evidence_field = evidence_field
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
                if self.hold is not None:
                    return Decision(rule, outcome.values, withheld=self.hold(ctx, item, rule, outcome.values))
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
        data[self.evidence_field] = draft.evidence
        data["summary"] = draft.summary
        # one caveat a sentence: the weightiest is the hedge, the others follow it
        caveats = ordered_caveats(draft.hedges)
        data["hedge"] = caveats[0] if caveats else None
        if len(caveats) > 1:
            data[MORE_HEDGES] = caveats[1:]
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
        data[self.evidence_field] = draft.evidence + [dict(e) for e in w.evidence]
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
