"""Evaluation cards as data: the YAML definition of one judgement (E3 and its kind).

A card file names its judgement (``id``, ``version``, ``bundle``, ``name``, ``unit``),
asks its ``question``, lists its ``inputs``, its ``answers`` (keys with their Korean
labels, in the file's order), which answers are defects, how results aggregate, where the
truth comes from, the threshold, the model and its repetitions, and a ``changelog``.
:func:`load_card` validates the file on load (pydantic) and turns every violation into
a :class:`CardFileError` whose message names the key (``answers.options.2.label``).

>>> card = load_card(card_path("E3"))
>>> card.id, card.version, card.defect_keys()
('E3', 9, ('template_left', 'body_blank', 'outside_left'))
>>> card.label("satellite_only")
'위성 자리만 비어 있음'
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from verdicts.documents import Document, model_keys
from verdicts.errors import InputError
from verdicts.suggest import misspelling

__all__ = ["EvalCard", "Answer", "Answers", "CardFileError", "load_card", "card_path", "card_errors_of", "bundled_cards"]


class CardFileError(InputError):
    """An evaluation card file that cannot be read or breaks the card schema; the
    message names the file and every failing key."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Answer(_Strict):
    #: the stable key (``template_left``)
    key: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    #: the Korean label, verbatim from the seed
    label: str = Field(min_length=1)


class Answers(_Strict):
    kind: Literal["categorical"]
    options: list[Answer] = Field(min_length=2)

    @field_validator("options")
    @classmethod
    def _unique(cls, options: list[Answer]) -> list[Answer]:
        keys = [o.key for o in options]
        repeated = sorted({k for k in keys if keys.count(k) > 1})
        if repeated:
            raise ValueError(f"answer keys repeat: {', '.join(repeated)}")
        return options


class Defect(_Strict):
    #: the answers counted as defects
    bad: list[str] = Field(min_length=1)


class Truth(_Strict):
    kind: Literal["human", "model", "rule"]


class Threshold(_Strict):
    basis: str | None = None
    value: float | None = None


class ModelSpec(_Strict):
    default: str
    current: str
    reasoning: Literal["low", "medium", "high"] | None = None


class Sample(_Strict):
    conditions: list[str] = Field(default_factory=list)
    scope: str | None = None


class EvalCard(_Strict):
    """One evaluation card (the schema every card file follows)."""

    id: str = Field(pattern=r"^[A-Z][0-9]+$")
    version: int = Field(ge=1)
    bundle: str
    name: str = Field(min_length=1)
    unit: str
    gold: bool = False
    status: str | None = None
    sample: Sample | None = None
    question: str = Field(min_length=1)
    #: the inputs; an input with named sub-keys is a one-key mapping (``binding: [slot_kind]``)
    inputs: list[str | dict[str, list[str]]] = Field(min_length=1)
    answers: Answers
    defect: Defect
    aggregate: Literal["ratio", "count", "mean"]
    truth: Truth
    allowed: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    threshold: Threshold
    model: ModelSpec
    reps: int = Field(ge=1)
    observe_only: bool = False
    purpose: str | None = None
    changelog: list[str] = Field(min_length=1)

    @model_validator(mode="after")
    def _defects_are_answers(self) -> "EvalCard":
        keys = {o.key for o in self.answers.options}
        unknown = [k for k in self.defect.bad if k not in keys]
        if unknown:
            raise ValueError(f"defect.bad names keys that are not answers: {', '.join(unknown)}")
        return self

    def keys(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.answers.options)

    def label(self, key: str) -> str:
        for option in self.answers.options:
            if option.key == key:
                return option.label
        raise KeyError(key)

    def defect_keys(self) -> tuple[str, ...]:
        return tuple(self.defect.bad)


def _where(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc) or "(card)"


def card_errors_of(data: Any, doc: Document | None = None) -> list[str]:
    """Every violation of the card schema in ``data`` (a parsed file), as
    ``key: reason`` lines (``key(line N): reason`` when ``doc``, the parsed document,
    knows the key's place); empty when the card is valid."""
    if not isinstance(data, dict):
        return ["(card): a card file holds one mapping"]
    try:
        EvalCard.model_validate(data)
    except ValidationError as exc:
        out = []
        for e in exc.errors():
            place = doc.where(e["loc"]) if doc is not None else None
            at = f"({place[0]}번째 줄)" if place else ""
            if e["type"] == "extra_forbidden":
                reason = "알 수 없는 키입니다." + misspelling(str(e["loc"][-1]), model_keys(EvalCard, e["loc"][:-1]))
            else:
                reason = e["msg"]
            out.append(f"{_where(e['loc'])}{at}: {reason}")
        return out
    return []


#: a card file larger than this is refused (a real one is a few kilobytes)
MAX_CARD_BYTES = 1 << 20


def read_card_text(path: Path) -> str:
    """The text of the card file ``path``, read by :func:`verdicts.files.read_file`;
    a :class:`CardFileError` naming the file when it cannot be read."""
    from ..files import read_file

    try:
        return read_file(path, MAX_CARD_BYTES, "카드").decode("utf-8")
    except InputError as exc:  # not a regular file, too large, no permission
        raise CardFileError(str(exc)) from None
    except UnicodeDecodeError as exc:
        raise CardFileError(f"{path}: {exc.start + 1}번째 바이트부터 UTF-8로 읽을 수 없습니다.") from None


def load_card(path: str | Path) -> EvalCard:
    """The card in the YAML file ``path``, validated.

    Raises :class:`CardFileError` naming the file and the failing keys.
    """
    from verdicts.documents import parse_yaml

    path = Path(path)
    text = read_card_text(path)
    try:
        doc = parse_yaml(text, str(path))
    except InputError as exc:  # not YAML, nested too deeply, aliases expanding too far
        raise CardFileError(str(exc)) from None
    data = doc.data
    if doc.repeats:  # a card is a contract: a key written twice is refused, not guessed
        raise CardFileError(f"{path}:{doc.repeats[0].line}: 카드 파일에 같은 키가 두 번 있습니다.\n"
                            + "\n".join(f"  {'.'.join(map(str, (*r.path, r.key)))}({r.line}번째 줄): {r.first_line}번째 줄에 이미 있는 키입니다."
                                         for r in doc.repeats))
    problems = card_errors_of(data, doc)
    if problems:
        raise CardFileError(f"{path}: 카드 스키마에 맞지 않는 키가 있습니다.\n" + "\n".join(f"  {p}" for p in problems))
    return EvalCard.model_validate(data)


def card_path(card_id: str) -> Path:
    """The bundled card file of ``card_id`` (``E3``)."""
    return Path(str(resources.files("verdicts.residue").joinpath("cards", f"{card_id}.yaml")))


def bundled_cards() -> list[str]:
    """The ids of the bundled cards."""
    folder = resources.files("verdicts.residue").joinpath("cards")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".yaml"))
