"""``verdicts card …``: show and validate evaluation card files (a thin layer over
:mod:`verdicts.residue.evalcard`; mounted through the entry-point group
``verdicts.commands``)."""

from __future__ import annotations

import sys
from pathlib import Path

from verdicts.commandline import Group, fail, int_in
from verdicts.korean import code, josa

PROG = "verdicts card"


def _out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def show(card_id: str) -> int:
    """번들 카드 하나의 id, 판, 질문, 답, 변경 기록을 보여 줍니다."""
    from .evalcard import CardFileError, bundled_cards, card_path, load_card

    if card_id not in bundled_cards():
        raise fail(f"{code(card_id)} 카드는 없습니다. 있는 카드: {', '.join(code(c) for c in bundled_cards())}.", prog=f"{PROG} show")
    try:
        card = load_card(card_path(card_id))
    except CardFileError as exc:
        raise fail(str(exc), prog=f"{PROG} show")
    bad = set(card.defect_keys())
    _out(f"{card.id} v{card.version} · {card.name} ({card.bundle}, 단위 {card.unit})")
    _out()
    _out(card.question.rstrip())
    _out()
    _out("답(판정 차례는 질문에 적힌 대로):")
    for option in card.answers.options:
        _out(f"  {option.key:<15} {option.label}{'  [결함]' if option.key in bad else ''}")
    _out()
    _out(f"집계 {card.aggregate} · 정답 {card.truth.kind} · 모델 {card.model.current} · 반복 {card.reps}회")
    _out("변경 기록:")
    for entry in card.changelog:
        _out(f"  - {entry}")
    return 0


def validate(file: Path) -> int:
    """카드 파일을 카드 스키마에 비춰 검사합니다. 맞지 않으면 어긋난 키를 모두 적고 1로 끝납니다."""
    from .evalcard import CardFileError, load_card

    try:
        card = load_card(file)
    except CardFileError as exc:
        raise fail(str(exc), 1, prog=f"{PROG} validate")
    _out(f"{file}: {card.id} v{card.version} 카드가 스키마에 맞습니다.")
    return 0


def _card_file(card: str) -> Path:
    """A bundled card's file by its id, else the path given."""
    from .evalcard import bundled_cards, card_path

    if card in bundled_cards():
        return card_path(card)
    path = Path(card)
    if not path.is_file():
        raise fail(f"카드 {josa(code(card), '은/는')} 번들 카드 id({', '.join(code(c) for c in bundled_cards())})도 아니고 카드 파일도 "
                   "아닙니다.",
                   prog=f"{PROG} measure")
    return path


def measure(card: str, labelled: Path, gold: Path | None, seeds: int, reps: int | None, reader: str, format: str,
            record: bool) -> int:
    """라벨이 붙은 모음에서 카드를 잽니다: 답별 일치율, 결함의 정밀도, 재현율, F1(시드를 바꾼
    층화 분할마다)과 OCR 안정성. --record를 주면 잰 수치를 changelog에 적은 카드의 다음 판을 씁니다."""
    import json

    from verdicts.errors import InputError

    from .evalcard import CardFileError, load_card
    from .measure import measure as run_measure, record as write_record, render_measurement
    from .readers import READERS

    prog = f"{PROG} measure"
    if reader not in READERS:
        raise fail(f"읽기 방식 {josa(code(reader), '은/는')} 없습니다. 있는 것: {', '.join(code(r) for r in READERS)}.", prog=prog)
    file = _card_file(card)
    try:
        loaded = load_card(file)
        result = run_measure(loaded, labelled, gold, seeds=range(seeds), reps=reps, reader=READERS[reader])
    except InputError as exc:
        raise fail(str(exc), prog=prog)
    if format == "json":
        _out(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        sys.stdout.write(render_measurement(result))
    if record:
        try:
            updated = write_record(file, result)
        except CardFileError as exc:
            raise fail(str(exc), prog=prog)
        (sys.stderr if format == "json" else sys.stdout).write(
            f"{file}: 카드 {josa(updated.id, '을/를')} {josa(f'v{updated.version}', '으로/로')} 올리고 changelog 끝에 측정 기록을 더했습니다.\n")
    return 1 if result.issues else 0


def commands(group: Group) -> None:
    """평가 카드(E3 등)를 보여 주고 카드 파일을 검사하고 잽니다."""
    c = group.command("show", show)
    c.argument("card_id", metavar="CARD", help="카드 id (E3)")

    c = group.command("validate", validate)
    c.argument("file", type=Path, metavar="FILE", help="검사할 카드 YAML 파일")

    c = group.command("measure", measure)
    c.argument("card", metavar="CARD", help="카드 id(E3)나 카드 YAML 파일")
    c.argument("labelled", type=Path, metavar="FOLDER", help="라벨이 붙은 컴포넌트 폴더 (정답은 그 안의 gold.csv)")
    c.option("--gold", type=Path, metavar="FILE", help="정답 CSV(`component_id`, `verdict`) (기본: 폴더의 `gold.csv`)")
    c.option("--seeds", type=int_in("--seeds", 1), default=5, metavar="N", help="개발/검증 분할을 되풀이할 시드 수 (0부터)")
    c.option("--reps", type=int_in("--reps", 0), metavar="N", help="OCR 반복 수 (기본: 카드의 reps, 0이면 재지 않습니다)")
    c.option("--reader", default="auto", metavar="HOW", help="1단계 읽기: auto(주어진 글, 없으면 OCR), given, ocr")
    c.option("--format", "-f", choices=["text", "json"], default="text", help="출력 형식")
    c.flag("--record", help="잰 수치를 changelog에 적어 카드의 새 판을 씁니다")


#: the name the entry point had when this group was a typer app: a virtual environment installed
#: before (its entry-point metadata not yet rewritten by scripts/setup.sh) still finds the group
app = commands
