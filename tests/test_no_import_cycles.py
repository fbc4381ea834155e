"""No two files of the house import each other, directly or round a loop (issue 36, "no cycle of files").

The graph is read from the source with ast, so that nothing is run: a node is a
file of ``repair``, ``ensemble``, ``regression`` or ``jurycal``; an arrow runs
from a file to every file one of its import statements names. Every import
counts, the ones inside functions and under ``TYPE_CHECKING`` too (a lazy
import is still a dependency, and a cycle hidden in a function is still a
cycle). A package's ``__init__.pyi`` stub counts as its ``__init__.py``: the
lazy front door loads the names the stub lists. ``from package import name``
points at the module ``package.name`` where that is a file, else at the
package's ``__init__``. Importing a module runs its parents' ``__init__`` too,
but that implicit arrow is not drawn: every module would then be in a loop with
its own package's front door.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("repair", "ensemble", "regression", "jurycal")


def _files() -> dict[str, list[Path]]:
    """Each module's dotted name, with the files that hold its imports (``__init__.py`` and its stub)."""
    files: dict[str, list[Path]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py*")):
            if path.suffix not in (".py", ".pyi"):
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            files.setdefault(".".join(parts), []).append(path)
    return files


FILES = _files()


def _target(name: str) -> str | None:
    """The module of the house that an imported dotted name loads, if any."""
    while name and name not in FILES:
        name = name.rpartition(".")[0]
    return name or None


def _arrows(module: str, paths: list[Path]) -> set[str]:
    found: set[str] = set()
    is_package = any(path.stem == "__init__" for path in paths)
    package = module.split(".") if is_package else module.split(".")[:-1]
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(filter(None, (_target(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package[: len(package) - node.level + 1]
                    source = ".".join([*base, node.module] if node.module else base)
                else:
                    source = node.module or ""
                for alias in node.names:
                    # ``from package import module`` names the module's file
                    target = _target(f"{source}.{alias.name}") if source else None
                    found.update(filter(None, [target]))
    found.discard(module)
    return found


def _cycles(arrows: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(arrows.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                components.append(sorted(component))

    for node in sorted(arrows):
        if node not in index:
            visit(node)
    return components


ARROWS = {module: _arrows(module, paths) for module, paths in FILES.items()}


def test_the_graph_is_read():
    # the reader sees the house's arrows: a file that imports another from a function does count
    assert "regression.results" in ARROWS["regression.intervals"]
    assert "regression.text_table" in ARROWS["regression.results"]  # imported inside a method
    assert len(ARROWS) > 100


def test_a_cycle_is_found():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_file_imports_itself_round_a_loop():
    cycles = _cycles(ARROWS)
    assert not cycles, "import cycles between files: " + "; ".join(
        " <-> ".join(cycle) for cycle in cycles
    )
