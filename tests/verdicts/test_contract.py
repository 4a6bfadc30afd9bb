"""Every registered domain keeps the kit's contract (rules documented with their
templates, checks documented, explain answers every name, schema and notes in place),
and a domain plugs in through the entry point alone."""

from __future__ import annotations

import subprocess
import sys

import pytest

from verdicts.domain import domain_names, get_domain
from verdicts.testing import contract_problems


def test_the_bundled_domains_are_registered_as_entry_points():
    assert {"storygraph", "robot"} <= set(domain_names())


@pytest.mark.parametrize("name", domain_names())
def test_domain_keeps_the_contract(name):
    assert contract_problems(get_domain(name)) == []


def test_contract_names_a_broken_rule():
    from verdicts.engine import RuleBook

    robot = get_domain("robot")
    broken = type("Broken", (type(robot),), {})()
    first = type(robot.books[0].rules[0])
    undocumented = type("Undocumented", (first,), {"__doc__": "다른 말 — nothing."})()
    broken.books = (RuleBook((undocumented, *robot.books[0].rules[1:]), fields=robot.books[0].fields),)
    problems = contract_problems(broken)
    assert any("headline must start" in p for p in problems) and any("lacks '잡는 것'" in p for p in problems)


@pytest.mark.parametrize("name", domain_names())
def test_explain_from_the_command_line(name, cli):
    domain = get_domain(name)
    rule = domain.rules()[0]
    proc = cli("verdicts", "explain", name, rule.code)
    assert proc.stdout.startswith(rule.verdict) and "잡는 것:" in proc.stdout and "고치는 법:" in proc.stdout
    wrong = cli("verdicts", "explain", name, rule.code[:-1] + "x", check_code=2)
    assert "찾으셨나요" in wrong.stderr and rule.code in wrong.stderr and "Traceback" not in wrong.stderr


def test_an_unknown_domain_is_a_clear_error(cli):
    proc = cli("verdicts", "explain", "nosuch", "x", check_code=2)
    assert "`nosuch` 도메인은 등록되어 있지 않습니다" in proc.stderr and "robot" in proc.stderr


@pytest.mark.parametrize("name", domain_names())
def test_docs_page_is_generated_from_the_docstrings(name, cli):
    from tests.conftest import ROOT
    from verdicts.docs import render_domain_docs

    domain = get_domain(name)
    assert domain.docs_page, f"{name} names no docs page"
    page = ROOT / domain.docs_page
    assert page.read_text(encoding="utf-8") == render_domain_docs(domain), \
        f"{domain.docs_page} is stale: run `verdicts docs {name} > {domain.docs_page}`"
    assert cli("verdicts", "docs", name, check_code=0).stdout == render_domain_docs(domain)


def test_a_domain_mounts_its_own_commands(monkeypatch, capsys):
    """A package registers ``[project.entry-points."verdicts.commands"] NAME = "mod:commands"``
    and ``verdicts NAME …`` runs the commands that function declares; one that cannot be
    loaded, or fails while declaring, is left out with a message and the others run."""
    import importlib.metadata as md

    from verdicts import cli

    points = [md.EntryPoint("demo", "tests.verdicts.plugin_commands:commands", cli.COMMANDS_GROUP),
              md.EntryPoint("broken", "tests.verdicts.no_such_module:commands", cli.COMMANDS_GROUP),
              md.EntryPoint("half", "tests.verdicts.plugin_commands:broken", cli.COMMANDS_GROUP),
              md.EntryPoint("run", "tests.verdicts.plugin_commands:commands", cli.COMMANDS_GROUP)]
    monkeypatch.setattr(md, "entry_points", lambda group=None: [p for p in points if p.group == group])
    assert cli.main(["demo", "hello", "등대"]) == 0
    out, err = capsys.readouterr()
    assert out == "등대 확인했습니다.\n"
    assert "`broken` 명령 묶음을 불러오지 못해 뺐습니다" in err and "`half` 명령 묶음을 불러오지 못해 뺐습니다" in err
    assert "`run` 명령 묶음은 이미 있는 명령과 이름이 같아 뺐습니다" in err
    assert cli.main(["half", "half", "x"]) == 2  # taken out again, not half there
    out, err = capsys.readouterr()
    assert out == "" and "`half` 명령은 없습니다" in err
    assert cli.main(["-h"]) == 0
    out, _ = capsys.readouterr()
    assert "시험용 명령 묶음입니다." in out and "half" not in out
