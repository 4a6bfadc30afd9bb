"""Measuring an evaluation card on a labelled set, the way card E3's changelog quotes
its figures: per-answer agreement with the labels, and for the defect class the
precision, recall and F1 on a seeded, stratified development/validation split repeated
over seeds, plus the stability of the answers over ``reps`` repetitions of the OCR
reader.

The judge is exact (it has no parameter to fit), so the development part is not used
to tune anything: it is reported beside the validation part so that a later version
that is tuned on development components can be compared on the same splits.

>>> prf([("body_blank", "body_blank"), ("complete", "template_left"), ("outside_left", "complete")],
...     {"template_left", "body_blank", "outside_left"})
{'n': 3, 'tp': 1, 'fp': 1, 'fn': 1, 'precision': 0.5, 'recall': 0.5, 'f1': 0.5}
"""

from __future__ import annotations

import random
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from statistics import mean
from typing import Any, Iterable, Sequence

from verdicts.errors import InputError
from verdicts.grading import read_gold
from verdicts.model import InputIssue, aggregate_words

from .evalcard import CardFileError, EvalCard, load_card, read_card_text
from .pictures import UnreadablePicture
from .readers import DEFAULT_READER, Reader, ReaderUnavailable, given_texts, ocr_texts

__all__ = ["Measurement", "measure", "prf", "stratified_split", "render_measurement", "changelog_entry", "record",
           "MEASURE_MARK"]

#: how a changelog entry written by :func:`record` starts its figures (found again for 「이전→지금」)
MEASURE_MARK = "verdicts card measure"
DEV_SHARE = 0.6  # the seed's v8 split: 68 development, 44 validation of 112


def _r(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def prf(pairs: Iterable[tuple[str, str]], defects: set[str] | frozenset[str]) -> dict[str, Any]:
    """Precision, recall and F1 of the defect class over ``(gold, answer)`` pairs
    (``None`` where a ratio has no denominator)."""
    pairs = list(pairs)
    tp = sum(g in defects and a in defects for g, a in pairs)
    fp = sum(g not in defects and a in defects for g, a in pairs)
    fn = sum(g in defects and a not in defects for g, a in pairs)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall) if precision is not None and recall is not None and precision + recall
          else (0.0 if precision is not None and recall is not None else None))
    return {"n": len(pairs), "tp": tp, "fp": fp, "fn": fn, "precision": _r(precision), "recall": _r(recall), "f1": _r(f1)}


def stratified_split(gold: dict[str, str], seed: int, dev_share: float = DEV_SHARE) -> tuple[list[str], list[str]]:
    """The keys of ``gold`` (key -> answer) split into development and validation,
    each answer (stratum) in the same share, shuffled by ``seed``.

    >>> dev, val = stratified_split({f"k{i}": "a" if i < 10 else "b" for i in range(15)}, seed=1)
    >>> len(dev), len(val), sum(k in dev for k in ("k10", "k11", "k12", "k13", "k14"))
    (9, 6, 3)
    """
    rng = random.Random(seed)
    dev: list[str] = []
    val: list[str] = []
    strata: dict[str, list[str]] = {}
    for key in sorted(gold):
        strata.setdefault(gold[key], []).append(key)
    for answer in sorted(strata):
        keys = strata[answer]
        rng.shuffle(keys)
        cut = round(len(keys) * dev_share)
        dev += keys[:cut]
        val += keys[cut:]
    return sorted(dev), sorted(val)


@dataclass
class Measurement:
    """What :func:`measure` found (its JSON is :meth:`to_json`)."""

    card_id: str
    card_version: int
    labelled: int
    per_answer: dict[str, dict[str, Any]]
    agreement: dict[str, Any]
    splits: list[dict[str, Any]]
    validation: dict[str, Any]
    development: dict[str, Any]
    stability: dict[str, Any] | None
    ocr_agreement: dict[str, Any] | None
    disagreements: list[dict[str, str]] = field(default_factory=list)
    issues: list[InputIssue] = field(default_factory=list)
    gold_path: str = ""
    inputs: str = ""
    #: the card's ``aggregate`` over the judged answers and over the labels (ratio: the
    #: share of defects), as a run reports it (:meth:`verdicts.domain.Domain.aggregate`)
    aggregate: dict[str, Any] | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "card": {"id": self.card_id, "version": self.card_version}, "labelled": self.labelled,
            "inputs": self.inputs, "gold": self.gold_path,
            "agreement": self.agreement, "per_answer": self.per_answer, "splits": self.splits,
            "validation": self.validation, "development": self.development, "stability": self.stability,
            "ocr_agreement": self.ocr_agreement, "aggregate": self.aggregate, "disagreements": self.disagreements,
            "issues": [i.to_json() for i in self.issues],
        }


def _mean_of(parts: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name in ("precision", "recall", "f1"):
        values = [p[name] for p in parts if p[name] is not None]
        out[name] = _r(mean(values)) if values else None
        out[f"{name}_min"] = _r(min(values)) if values else None
        out[f"{name}_max"] = _r(max(values)) if values else None
    out["n"] = round(mean(p["n"] for p in parts)) if parts else 0
    return out


def _answers(components, base, files, reader: Reader, issues: list[InputIssue]) -> dict[str, str]:
    from .loading import TABLE
    from .rules import build_card

    out = {}
    for component in components:
        key = component.component_id
        try:
            texts = reader(component, base[key])
        except (UnreadablePicture, ReaderUnavailable) as exc:
            issues.append(InputIssue(file=files[key], table=TABLE, column="result_thumb", reason=f"{component.result_thumb}: {exc}"))
            continue
        if texts is not None:
            out[key] = build_card(component, texts)["answer"]
    return out


def measure(card: EvalCard, path: str | Path, gold_path: str | Path | None = None, *, seeds: Sequence[int] = (0, 1, 2, 3, 4),
            dev_share: float = DEV_SHARE, reps: int | None = None, reader: Reader = DEFAULT_READER) -> Measurement:
    """Judge the labelled set at ``path`` (components, and ``gold.csv`` beside them
    unless ``gold_path`` is given) and measure ``card`` on it.

    ``reps`` (the card's by default) is how many times the OCR reader reads each
    component that has a ``result_thumb``; ``0`` leaves stability out.

    Raises :class:`~verdicts.errors.InputError` when nothing can be read or no label
    matches a judged component.
    """
    from .loading import load_components

    path = Path(path)
    gold_file = Path(gold_path) if gold_path is not None else (path if path.is_dir() else path.parent) / "gold.csv"
    if not gold_file.is_file():
        raise InputError(f"{gold_file}: 라벨 파일(gold.csv)이 없습니다.")
    loaded = load_components(path)
    issues = list(loaded.issues)
    rows, gold_issues = read_gold(gold_file, key_field="component_id", verdicts=[card.label(k) for k in card.keys()])
    issues += gold_issues
    key_of = {card.label(k): k for k in card.keys()}
    gold = {row.key: key_of[row.verdict] for row in rows}
    answers = _answers(loaded.components, loaded.base, loaded.files, reader, issues)
    for row in rows:
        if row.key not in answers:
            issues.append(InputIssue(file=str(gold_file), table="gold", line=row.line, column="component_id",
                                     reason=f"라벨이 붙은 {row.key}의 판정이 없어 측정에서 뺐습니다."))
    gold = {k: v for k, v in gold.items() if k in answers}
    if not gold:
        raise InputError(f"{gold_file}: 판정한 컴포넌트와 맞는 라벨이 하나도 없습니다.")
    defects = frozenset(card.defect_keys())

    per_answer = {}
    for key in card.keys():
        labelled = [k for k, g in gold.items() if g == key]
        agreed = sum(answers[k] == key for k in labelled)
        per_answer[key] = {"label": card.label(key), "gold": len(labelled), "agreed": agreed,
                           "rate": _r(agreed / len(labelled)) if labelled else None}
    agreed = sum(answers[k] == g for k, g in gold.items())
    agreement = {"agreed": agreed, "total": len(gold), "rate": _r(agreed / len(gold))}
    disagreements = [{"component_id": k, "gold": g, "answer": answers[k]} for k, g in sorted(gold.items()) if answers[k] != g]

    splits: list[dict[str, Any]] = []
    for seed in seeds:
        dev, val = stratified_split(gold, seed, dev_share)
        splits.append({"seed": seed, "development": prf(((gold[k], answers[k]) for k in dev), defects),
                       "validation": prf(((gold[k], answers[k]) for k in val), defects)})

    reps = card.reps if reps is None else reps
    stability = ocr_agreement = None
    pictured = [c for c in loaded.components if c.result_thumb and c.component_id in gold]
    if reps > 0 and pictured:
        runs: dict[str, list[str]] = {c.component_id: [] for c in pictured}
        for _ in range(reps):
            for key, answer in _answers(pictured, loaded.base, loaded.files, ocr_texts, issues).items():
                runs[key].append(answer)
        runs = {k: v for k, v in runs.items() if len(v) == reps}
        if runs:
            modal = {k: Counter(v).most_common(1)[0] for k, v in runs.items()}
            stability = {"reps": reps, "components": len(runs), "reader": "ocr",
                         "value": _r(mean(count / reps for _, count in modal.values()))}
            with_given = [c for c in pictured if c.component_id in runs and c.visible_texts is not None]
            if with_given:
                given = _answers(with_given, loaded.base, loaded.files, given_texts, [])
                same = [k for k in given if modal[k][0] == given[k]]
                ocr_agreement = {"agreed": len(same), "total": len(given), "rate": _r(len(same) / len(given)),
                                 "differing": sorted(set(given) - set(same)),
                                 "gold_agreed": sum(modal[k][0] == gold[k] for k in runs)}
    # one issue per file and reason, though the reader read it reps times
    issues = list({(i.file, i.column, i.reason, i.line): i for i in issues}.values())
    return Measurement(card.id, card.version, len(gold), per_answer, agreement, splits,
                       _mean_of([s["validation"] for s in splits]), _mean_of([s["development"] for s in splits]),
                       stability, ocr_agreement, disagreements, issues, str(gold_file), str(path),
                       aggregate_of(card.aggregate, defects, [answers[k] for k in gold], list(gold.values())))


def aggregate_of(kind: str, defects: frozenset[str], answers: list[str], labels: list[str]) -> dict[str, Any] | None:
    """The card's ``aggregate`` of the judged ``answers`` and of the ``labels``: for
    ``ratio`` the share of defects (``count``: how many; ``mean`` has no meaning for
    categorical answers and gives ``None``).

    >>> aggregate_of("ratio", frozenset({"bad"}), ["bad", "ok", "ok", "ok"], ["bad", "bad", "ok", "ok"])["answers"]
    {'kind': 'ratio', 'defects': 1, 'total': 4, 'value': 0.25}
    """
    if kind not in ("ratio", "count"):
        return None

    def one(values: list[str]) -> dict[str, Any]:
        n = sum(1 for v in values if v in defects)
        value = (_r(n / len(values)) if values else None) if kind == "ratio" else n
        return {"kind": kind, "defects": n, "total": len(values), "value": value}

    return {"kind": kind, "answers": one(answers), "labels": one(labels)}


# ---------------------------------------------------------------------------- output
def _f(value: float | None) -> str:
    """A figure as the changelog writes it: up to three decimals, at least one.

    >>> _f(1), _f(0.8235), _f(0.9), _f(None)
    ('1.0', '0.824', '0.9', '—')
    """
    if value is None:
        return "—"
    text = f"{value:.3f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _l(text: Any, width: int) -> str:
    """``text`` padded on the right to ``width`` terminal columns (a Hangul syllable takes two)."""
    text = str(text)
    return text + " " * max(0, width - _width(text))


def _rt(text: Any, width: int) -> str:
    text = str(text)
    return " " * max(0, width - _width(text)) + text


def _row(seed: Any, d: dict[str, Any], v: dict[str, Any]) -> str:
    return ("  " + _l(seed, 6) + _rt(_f(d["precision"]), 12) + _rt(_f(d["recall"]), 8) + _rt(_f(d["f1"]), 8)
            + _rt(_f(v["precision"]), 14) + _rt(_f(v["recall"]), 8) + _rt(_f(v["f1"]), 8))


def render_measurement(m: Measurement) -> str:
    """The measurement as the text table ``verdicts card measure`` prints."""
    lines = [f"카드 {m.card_id} v{m.card_version} 측정 · 라벨 {m.labelled}개 ({m.gold_path})", "", "답별 일치:",
             "  " + _l("답", 16) + _rt("라벨", 6) + _rt("일치", 6) + _rt("비율", 8)]
    for key, s in m.per_answer.items():
        lines.append("  " + _l(key, 16) + _rt(s["gold"], 6) + _rt(s["agreed"], 6) + _rt(_f(s["rate"]), 8))
    a = m.agreement
    lines.append("  " + _l("전체", 16) + _rt(a["total"], 6) + _rt(a["agreed"], 6) + _rt(_f(a["rate"]), 8))
    if m.aggregate is not None and m.aggregate["kind"] == "ratio":
        lines += ["", f"집계(ratio): 판정 {aggregate_words(m.aggregate['answers'])} · 라벨 {aggregate_words(m.aggregate['labels'])}"]
    first = m.splits[0] if m.splits else None
    if first is not None:
        dev_n, val_n = first["development"]["n"], first["validation"]["n"]
        lines += ["", f"결함 분류 · 층화 시드 분할 {len(m.splits)}회(개발 {dev_n} · 검증 {val_n}):",
                  "  " + _l("시드", 6) + _rt("개발 정밀도", 12) + _rt("재현율", 8) + _rt("F1", 8) + _rt("검증 정밀도", 14) + _rt("재현율", 8) + _rt("F1", 8)]
        for s in m.splits:
            lines.append(_row(s["seed"], s["development"], s["validation"]))
        lines.append(_row("평균", m.development, m.validation))
    lines.append("")
    if m.stability is None:
        lines.append("반복 안정도: 그림(`result_thumb`)이 있는 라벨 컴포넌트가 없거나 반복 수가 0이라 재지 않았습니다.")
    else:
        s = m.stability
        lines.append(f"반복 안정도(OCR {s['reps']}회, 그림 {s['components']}개): {_f(s['value'])}")
    if m.ocr_agreement is not None:
        o = m.ocr_agreement
        lines.append(f"OCR 답과 주어진 글의 답 일치: {o['agreed']}/{o['total']} ({_f(o['rate'])})"
                     + (f" · 다른 컴포넌트: {', '.join(o['differing'])}" if o["differing"] else ""))
    if m.disagreements:
        lines += ["", "라벨과 다른 답:"] + [f"  {d['component_id']}: 라벨 {d['gold']}, 판정 {d['answer']}" for d in m.disagreements]
    if m.issues:
        lines += ["", f"입력 문제 {len(m.issues)}건:"] + [f"  {i.file}: {i.column or ''} {i.reason}".rstrip() for i in m.issues]
    return "\n".join(lines) + "\n"


_PREVIOUS = {name: re.compile(rf"{label} (?:[0-9.—]+→)?(\d+(?:\.\d+)?)")
             for name, label in (("precision", "검증 정밀도"), ("recall", "재현율"), ("f1", "F1"), ("stability", "반복"))}


def _previous(card: EvalCard) -> dict[str, str]:
    """The figures of the last changelog entry this runner wrote (none before it)."""
    for entry in reversed(card.changelog):
        if MEASURE_MARK in entry:
            return {name: m.group(1) for name, pattern in _PREVIOUS.items() if (m := pattern.search(entry))}
    return {}


def changelog_entry(card: EvalCard, m: Measurement, when: date) -> str:
    """The changelog line of the next version, with the measured figures (「이전→지금」
    against the last entry this runner wrote)."""
    before = _previous(card)

    def fig(name: str, value: float | None) -> str:
        now = _f(value)
        return f"{before[name]}→{now}" if name in before and before[name] != now else now

    first = m.splits[0]
    v = m.validation
    text = (f"v{card.version + 1} ({when.isoformat()}): {MEASURE_MARK} 로 라벨 {m.labelled} 단위를 쟀습니다. "
            f"답별 일치 {m.agreement['agreed']}/{m.agreement['total']}. "
            f"라벨 {m.labelled} 단위 시드 분할(개발 {first['development']['n']} · 검증 {first['validation']['n']}) {len(m.splits)}회: "
            f"검증 정밀도 {fig('precision', v['precision'])}, 재현율 {fig('recall', v['recall'])}, F1 {fig('f1', v['f1'])}")
    if m.stability is not None:
        text += f", 반복 {fig('stability', m.stability['value'])}(OCR {m.stability['reps']}회, 그림 {m.stability['components']}개)"
    return text + "."


def _yaml_quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def record(card_file: Path, m: Measurement, when: date | None = None) -> EvalCard:
    """Write the next version of the card in ``card_file``: ``version`` raised by one
    and a changelog entry with the measured figures appended.  The rest of the file
    (its comments and wording) is kept as written; the new file is validated before it
    replaces the old one.

    Raises :class:`~.evalcard.CardFileError` when the file cannot be updated.
    """
    card = load_card(card_file)
    text = read_card_text(card_file)
    entry = changelog_entry(card, m, when or date.today())
    lines = text.splitlines()
    version_at = [i for i, line in enumerate(lines) if re.fullmatch(r"version:\s*\d+\s*", line)]
    log_at = [i for i, line in enumerate(lines) if re.fullmatch(r"changelog:\s*", line)]
    if len(version_at) != 1 or len(log_at) != 1:
        raise CardFileError(f"{card_file}: version 줄과 changelog 줄을 하나씩 찾지 못해 새 판을 적지 못했습니다.")
    lines[version_at[0]] = f"version: {card.version + 1}"
    end = log_at[0] + 1
    while end < len(lines) and (lines[end].startswith(("-", " ")) or not lines[end].strip()):
        end += 1
    while end > log_at[0] + 1 and not lines[end - 1].strip():
        end -= 1
    lines.insert(end, f"- {_yaml_quoted(entry)}")
    new_text = "\n".join(lines) + "\n"
    temp = card_file.with_name(card_file.name + ".new")
    temp.write_text(new_text, encoding="utf-8")
    try:
        updated = load_card(temp)
        if updated.version != card.version + 1 or updated.changelog[-1] != entry:
            raise CardFileError(f"{card_file}: 새 판의 changelog 끝에 측정 기록이 들어가지 않았습니다.")
    except CardFileError:
        temp.unlink()
        raise
    temp.replace(card_file)
    return updated
