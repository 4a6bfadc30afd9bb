"""``verdicts card …``: show and validate evaluation card files (a thin layer over
:mod:`verdicts.residue.evalcard`; mounted through the entry-point group
``verdicts.commands``)."""

from __future__ import annotations

from pathlib import Path

import typer

from verdicts.errors import InputError
from verdicts.korean import josa

from .evalcard import CardFileError, bundled_cards, card_path, load_card

app = typer.Typer(help="평가 카드(E3 등)를 보여 주고 카드 파일을 검사합니다.", no_args_is_help=True)


@app.command("show")
def show(card_id: str = typer.Argument(..., help="카드 id(E3)")) -> None:
    """Print a bundled card: its id, version, question, answers and changelog."""
    if card_id not in bundled_cards():
        typer.echo(f"'{card_id}' 카드는 없습니다(있는 카드: {', '.join(bundled_cards())}).", err=True)
        raise typer.Exit(2)
    try:
        card = load_card(card_path(card_id))
    except CardFileError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2)
    bad = set(card.defect_keys())
    typer.echo(f"{card.id} v{card.version} · {card.name} ({card.bundle}, 단위 {card.unit})")
    typer.echo("")
    typer.echo(card.question.rstrip())
    typer.echo("")
    typer.echo("답(판정 차례는 질문에 적힌 대로):")
    for option in card.answers.options:
        typer.echo(f"  {option.key:<15} {option.label}{'  [결함]' if option.key in bad else ''}")
    typer.echo("")
    typer.echo(f"집계 {card.aggregate} · 정답 {card.truth.kind} · 모델 {card.model.current} · 반복 {card.reps}회")
    typer.echo("변경 기록:")
    for entry in card.changelog:
        typer.echo(f"  - {entry}")


@app.command("validate")
def validate(file: Path = typer.Argument(..., help="검사할 카드 YAML 파일")) -> None:
    """Validate a card file against the card schema; exit 1 naming every failing key."""
    try:
        card = load_card(file)
    except CardFileError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(1)
    typer.echo(f"{file}: {card.id} v{card.version} 카드가 스키마에 맞습니다.")


def _card_file(card: str) -> Path:
    """A bundled card's file by its id, else the path given."""
    if card in bundled_cards():
        return card_path(card)
    path = Path(card)
    if not path.is_file():
        typer.echo(f"'{card}'는 번들 카드 id({', '.join(bundled_cards())})도 카드 파일도 아닙니다.", err=True)
        raise typer.Exit(2)
    return path


@app.command("measure")
def measure(
    card: str = typer.Argument(..., help="카드 id(E3)나 카드 YAML 파일"),
    labelled: Path = typer.Argument(..., help="라벨이 붙은 컴포넌트 폴더(정답은 그 안의 gold.csv)"),
    gold: Path | None = typer.Option(None, "--gold", help="정답 CSV(component_id, verdict); 기본은 폴더의 gold.csv"),
    seeds: int = typer.Option(5, "--seeds", min=1, help="개발/검증 분할을 되풀이할 시드 수(0부터)"),
    reps: int | None = typer.Option(None, "--reps", min=0, help="OCR 반복 수(기본은 카드의 reps, 0이면 재지 않음)"),
    reader: str = typer.Option("auto", "--reader", help="1단계 읽기: auto(주어진 글, 없으면 OCR), given, ocr"),
    format: str = typer.Option("text", "--format", help="text 또는 json"),
    record: bool = typer.Option(False, "--record", help="잰 수치를 changelog에 적어 카드의 새 판을 씁니다"),
) -> None:
    """Measure a card on a labelled set: per-answer agreement, defect precision, recall
    and F1 over seeded stratified splits, OCR stability; ``--record`` writes the next
    version of the card with the figures in its changelog."""
    import json

    from .measure import measure as run_measure, record as write_record, render_measurement
    from .readers import READERS

    if reader not in READERS:
        typer.echo(f"읽기 방식 '{reader}'는 없습니다(있는 것: {', '.join(READERS)}).", err=True)
        raise typer.Exit(2)
    if format not in ("text", "json"):
        typer.echo(f"형식 '{format}'는 없습니다(text, json).", err=True)
        raise typer.Exit(2)
    file = _card_file(card)
    try:
        loaded = load_card(file)
        result = run_measure(loaded, labelled, gold, seeds=range(seeds), reps=reps, reader=READERS[reader])
    except InputError as exc:
        typer.echo(str(exc), err=True)
        raise typer.Exit(2)
    if format == "json":
        typer.echo(json.dumps(result.to_json(), ensure_ascii=False, indent=2))
    else:
        typer.echo(render_measurement(result), nl=False)
    if record:
        try:
            updated = write_record(file, result)
        except CardFileError as exc:
            typer.echo(str(exc), err=True)
            raise typer.Exit(2)
        typer.echo(f"{file}: 카드 {josa(updated.id, '을/를')} {josa(f'v{updated.version}', '으로/로')} 올리고 changelog 끝에 측정 기록을 더했습니다.",
                   err=format == "json")
    raise typer.Exit(1 if result.issues else 0)
