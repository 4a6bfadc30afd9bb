"""The import structure of ``src/``: no import cycles at run time, and no private name
imported from another module.

Every module under ``src/`` is parsed with :mod:`ast` and every import statement counts —
at module level and inside functions — with relative imports resolved against the
importing module's package.  ``from pkg import name`` is an edge to the module
``pkg.name`` when that is a module, else to ``pkg``.  (Importing ``pkg.mod`` also runs
``pkg/__init__.py``; as import-linter does, that is not an edge, or every package that
re-exports its modules would be one big cycle with them.)

An import under ``if TYPE_CHECKING:`` (its ``else`` branch runs, so it counts) is a
type-only edge: it never runs, so it may point back up — a service annotating the
domain that calls it (docs/decisions.md, "Types and lint in CI").  Type-only edges are
kept apart; every other edge is a run-time edge, and the run-time graph has no cycle: a
new one fails the test, naming the modules and lines.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import pytest

SRC = Path(__file__).resolve().parent.parent / "src"

@dataclass(frozen=True)
class Import:
    source: str  # the importing module
    target: str  # the imported module (under src/)
    names: tuple[str, ...]  # the names of a ``from`` import that are not modules
    line: int
    type_only: bool = False  # under ``if TYPE_CHECKING:`` (never run)


def find_modules(root: Path) -> dict[str, tuple[Path, bool]]:
    """Dotted module name -> (file, is a package ``__init__``)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        out[".".join(parts)] = (path, package)
    return out


def _known_prefix(name: str, modules) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING`` (any module's, as spelled)."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _type_only_nodes(tree: ast.AST) -> set[int]:
    """The ids of the nodes inside the body of an ``if TYPE_CHECKING:`` (not its ``else``)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.body:
                out.update(id(n) for n in ast.walk(stmt))
    return out


def find_imports(root: Path = SRC) -> list[Import]:
    """Every import of a module under ``root`` by a module under ``root``."""
    modules = find_modules(root)
    out: list[Import] = []
    for name, (path, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        type_only = _type_only_nodes(tree)
        for node in ast.walk(tree):
            hidden = id(node) in type_only
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _known_prefix(alias.name, modules)
                    if target and target != name:
                        out.append(Import(name, target, (), node.lineno, hidden))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                    base_name = ".".join(base + ([node.module] if node.module else []))
                else:
                    base_name = node.module or ""
                plain: list[str] = []
                for alias in node.names:
                    sub = f"{base_name}.{alias.name}"
                    if sub in modules:
                        if sub != name:
                            out.append(Import(name, sub, (), node.lineno, hidden))
                    else:
                        plain.append(alias.name)
                target = _known_prefix(base_name, modules)
                if plain and target and target != name:
                    out.append(Import(name, target, tuple(plain), node.lineno, hidden))
    return out


def _canonical(cycle: list[str]) -> tuple[str, ...]:
    k = cycle.index(min(cycle))
    return tuple(cycle[k:] + cycle[:k])


def runtime_imports(imports: list[Import]) -> list[Import]:
    """The imports that run (at module level or inside a function): all but those under
    ``if TYPE_CHECKING:``."""
    return [imp for imp in imports if not imp.type_only]


def find_cycles(imports: list[Import]) -> dict[tuple[str, ...], str]:
    """Every elementary import cycle -> a description with the line of each import."""
    graph = nx.DiGraph()
    where: dict[tuple[str, str], int] = {}
    for imp in sorted(imports, key=lambda i: i.type_only):  # a run-time line first
        graph.add_edge(imp.source, imp.target)
        where.setdefault((imp.source, imp.target), imp.line)
    out = {}
    for cycle in nx.simple_cycles(graph):
        key = _canonical(cycle)
        steps = [f"{a} (line {where[a, b]})" for a, b in zip(key, key[1:] + key[:1])]
        out[key] = " → ".join(steps + [key[0]])
    return out


def find_private_imports(imports: list[Import]) -> dict[tuple[str, str, str], int]:
    """``from X import _name`` across modules: (importer, X, name) -> line."""
    return {(imp.source, imp.target, n): imp.line for imp in imports for n in imp.names
            if n.startswith("_") and not n.startswith("__")}


@pytest.fixture(scope="module")
def imports() -> list[Import]:
    return find_imports()


def test_no_import_cycle_in_src(imports):
    cycles = find_cycles(runtime_imports(imports))
    new = [text for _, text in sorted(cycles.items())]
    assert not new, "import cycles in src/:\n" + "\n".join(new)


def test_type_only_imports_are_seen_in_src(imports):
    """The edges annotations need back up are there, and only as type-only edges
    (``verdicts.report`` names the ``Domain`` that calls it)."""
    report_domain = [i for i in imports if (i.source, i.target) == ("verdicts.report", "verdicts.domain")]
    assert report_domain and all(i.type_only for i in report_domain)
    assert find_cycles(imports)  # with them, the graph has cycles: the run-time graph has none


def test_no_private_name_imported_across_modules(imports):
    found = find_private_imports(imports)
    new = [f"{src}:{line} imports {name} from {target}" for (src, target, name), line in sorted(found.items())]
    assert not new, "private names imported across modules:\n" + "\n".join(new)


# ----------------------------------------------------------------------------- the tool itself


def test_the_import_graph_sees_hidden_and_relative_imports(tmp_path):
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("from . import leaf\n")
    (pkg / "a.py").write_text("from .b import thing\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n    from .sub.leaf import _secret\n")
    (pkg / "sub" / "leaf.py").write_text("import pkg.a\nfrom ..b import f\n_secret = 1\n")
    imports = find_imports(tmp_path)
    edges = {(i.source, i.target) for i in imports}
    assert ("pkg.b", "pkg.a") in edges  # inside a function
    assert ("pkg.sub", "pkg.sub.leaf") in edges  # ``from . import module``
    assert ("pkg.sub.leaf", "pkg.b") in edges  # two dots
    assert set(find_cycles(imports)) == {("pkg.a", "pkg.b"), ("pkg.b", "pkg.sub.leaf"), ("pkg.a", "pkg.b", "pkg.sub.leaf")}
    assert find_private_imports(imports) == {("pkg.b", "pkg.sub.leaf", "_secret"): 3}
    assert "pkg.a (line 1) → pkg.b (line 2) → pkg.a" in find_cycles(imports).values()


def test_type_only_edges_do_not_make_a_cycle_and_run_time_ones_do(tmp_path):
    """An import under ``if TYPE_CHECKING:`` is type-only; one in its ``else``, inside a
    function or at module level runs, and a cycle of those still fails."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "low.py").write_text(
        "from typing import TYPE_CHECKING\nimport typing\n"
        "if TYPE_CHECKING:\n    from .high import High\n"
        "if typing.TYPE_CHECKING:\n    from . import top\nelse:\n    top = None\n"
        "def f():\n    from .middle import g\n")
    (pkg / "high.py").write_text("from .low import f\nclass High: ...\n")
    (pkg / "top.py").write_text("from . import low\n")
    (pkg / "middle.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    pass\nelse:\n    from . import low\ng = 1\n")
    imports = find_imports(tmp_path)
    kinds = {(i.source, i.target): i.type_only for i in imports}
    assert kinds[("pkg.low", "pkg.high")] is True
    assert kinds[("pkg.low", "pkg.top")] is True  # ``typing.TYPE_CHECKING``
    assert kinds[("pkg.low", "pkg.middle")] is False  # inside a function
    assert kinds[("pkg.middle", "pkg.low")] is False  # the ``else`` branch runs
    assert set(find_cycles(imports)) == {("pkg.high", "pkg.low"), ("pkg.low", "pkg.top"), ("pkg.low", "pkg.middle")}
    # the run-time graph keeps the cycle through the function-level import, and only it
    assert set(find_cycles(runtime_imports(imports))) == {("pkg.low", "pkg.middle")}
    assert "pkg.low (line 10) → pkg.middle (line 5) → pkg.low" in find_cycles(runtime_imports(imports)).values()
