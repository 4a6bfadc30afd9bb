"""The import structure of ``src/``: no import cycles, and no private name imported from
another module.

Every module under ``src/`` is parsed with :mod:`ast` and every import statement counts —
at module level, inside functions, under ``if TYPE_CHECKING`` — with relative imports
resolved against the importing module's package.  ``from pkg import name`` is an edge to
the module ``pkg.name`` when that is a module, else to ``pkg``.  (Importing ``pkg.mod``
also runs ``pkg/__init__.py``; as import-linter does, that is not an edge, or every
package that re-exports its modules would be one big cycle with them.)

There are none: a new one fails the test, naming the modules and lines.
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


def find_imports(root: Path = SRC) -> list[Import]:
    """Every import of a module under ``root`` by a module under ``root``."""
    modules = find_modules(root)
    out: list[Import] = []
    for name, (path, package) in modules.items():
        here = name if package else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    target = _known_prefix(alias.name, modules)
                    if target and target != name:
                        out.append(Import(name, target, (), node.lineno))
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
                            out.append(Import(name, sub, (), node.lineno))
                    else:
                        plain.append(alias.name)
                target = _known_prefix(base_name, modules)
                if plain and target and target != name:
                    out.append(Import(name, target, tuple(plain), node.lineno))
    return out


def _canonical(cycle: list[str]) -> tuple[str, ...]:
    k = cycle.index(min(cycle))
    return tuple(cycle[k:] + cycle[:k])


def find_cycles(imports: list[Import]) -> dict[tuple[str, ...], str]:
    """Every elementary import cycle -> a description with the line of each import."""
    graph = nx.DiGraph()
    where: dict[tuple[str, str], int] = {}
    for imp in imports:
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
    cycles = find_cycles(imports)
    new = [text for _, text in sorted(cycles.items())]
    assert not new, "import cycles in src/:\n" + "\n".join(new)


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
