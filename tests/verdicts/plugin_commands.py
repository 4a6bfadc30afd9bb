"""A domain's own command group, as a plug-in package would register it (used by
tests/verdicts/test_contract.py): ``[project.entry-points."verdicts.commands"]
demo = "tests.verdicts.plugin_commands:commands"``."""

import sys

from verdicts.commandline import Group


def hello(name: str) -> int:
    """이름을 받아 확인했다고 답합니다."""
    sys.stdout.write(f"{name} 확인했습니다.\n")
    return 0


def commands(group: Group) -> None:
    """시험용 명령 묶음입니다."""
    group.command("hello", hello).argument("name", metavar="NAME")


def broken(group: Group) -> None:
    """선언하다가 실패하는 명령 묶음입니다."""
    group.command("half", hello)
    raise RuntimeError("일부러 실패합니다")
