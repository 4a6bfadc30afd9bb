"""A domain's own command group, as a plug-in package would register it (used by
tests/verdicts/test_contract.py)."""

import typer

app = typer.Typer(help="시험용 명령 묶음입니다.")


@app.command("hello")
def hello(name: str) -> None:
    typer.echo(f"{name} 확인했습니다.")
