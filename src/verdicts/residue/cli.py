"""``verdicts card …``: show and validate evaluation card files (a thin layer over
:mod:`verdicts.residue.evalcard`; mounted through the entry-point group
``verdicts.commands``)."""

from __future__ import annotations

from pathlib import Path

import typer

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
