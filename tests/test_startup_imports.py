"""Instant start: importing a command line pulls in none of the heavy libraries, and a
lint of a plain scenario imports only what it uses (issue 20) — networkx for its graph
and sympy for the minimal forms of its fixes, the design card's libraries at work
(issue 29).  Each check runs in a fresh interpreter, as a user's command does."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: what importing a command line must never import
DENY = ["sympy", "networkx", "openpyxl", "jsonschema", "playwright", "z3"]
#: and what a lint of a small CSV scenario without configuration, errors or menus does
#: not need either: the grammar's parser (conditions take the fast path), YAML, the
#: server, the diagram, the SAT solver, the configuration's validator, the
#: command-line framework of the other commands, the compiled schema validator (a few
#: cards are checked by the schema as Python functions) and the TOML parser (the
#: project's pyproject.toml above the example has no [tool.storygraph])
DENY_IN_LINT = [d for d in DENY if d not in ("networkx", "sympy")] + ["lark", "yaml", "starlette", "uvicorn", "graphviz", "pysat", "pydantic", "typer", "click",
                       "jsonschema_rs", "tomllib"]


def _modules_after(code: str) -> set[str]:
    probe = code + "\nimport sys, json\nprint(json.dumps(sorted(sys.modules)), file=sys.__stderr__)"
    proc = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert proc.returncode in (0, 1), proc.stderr[-2000:]
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def _denied(modules: set[str], deny: list[str]) -> list[str]:
    return sorted(m for m in modules if any(m == d or m.startswith(d + ".") for d in deny))


@pytest.mark.parametrize("cli", ["storygraph.cli", "verdicts.cli"])
def test_importing_a_command_line_imports_nothing_heavy(cli):
    assert _denied(_modules_after(f"import {cli}"), DENY) == []


def test_a_lint_of_a_plain_scenario_imports_only_what_it_uses():
    code = (
        "import sys\n"
        "from storygraph.cli import main\n"
        "main(['lint', 'examples/lighthouse/scenario.csv', '--quiet', '--format', 'json'])\n"
    )
    modules = _modules_after(code)
    assert _denied(modules, DENY_IN_LINT) == []
    # the graph is networkx's, and the example's stuck combinations and fixes are minimised by sympy
    assert {"networkx", "sympy"} <= modules


def test_the_deny_list_check_sees_a_heavy_import():
    # the probe itself: a module that is imported is seen
    assert _denied(_modules_after("import networkx"), DENY) != []
