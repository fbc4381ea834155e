"""The layout the house promises (docs/design.md, "Layers"), read from the source with ast.

Every import counts, the ones inside functions and under ``TYPE_CHECKING`` too:
a lazy import is still a dependency.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The stages: the library the application (jurycal) is built on.
STAGES = ("repair", "ensemble", "regression")
PACKAGES = (*STAGES, "jurycal")
MAX_LINES = 600
#: regression's ground floor: every other part of regression may import these; they import
#: only each other (and numpy, scipy, pandas), never a sub-package.
GROUND_FLOOR = (
    "regression.checks",
    "regression.errors",
    "regression.intervals",
    "regression.progress",
    "regression.results",
    "regression.settings",
    "regression.text_table",
)


def _modules() -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            parts = list(relative.with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _imports(module: str, path: Path) -> set[str]:
    """Every module ``path`` imports, relative imports resolved."""
    found: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                found.add(".".join([*base, node.module] if node.module else base))
            elif node.module is not None:
                found.add(node.module)
    return found


MODULES = dict(_modules())
IMPORTS = {module: _imports(module, path) for module, path in MODULES.items()}


def _part(module: str) -> str:
    """The sub-package (or top-level module) of regression that ``module`` belongs to."""
    return ".".join(module.split(".")[:2])


@pytest.mark.parametrize("module", sorted(MODULES))
def test_no_module_over_600_lines(module):
    n_lines = len(MODULES[module].read_text(encoding="utf-8").splitlines())
    assert n_lines <= MAX_LINES, f"{MODULES[module]} has {n_lines} lines (at most {MAX_LINES})"


def test_no_stage_imports_the_application():
    reaching_up = sorted(
        f"{module} imports {target}"
        for module, targets in IMPORTS.items()
        if module.split(".")[0] in STAGES
        for target in targets
        if target.split(".")[0] == "jurycal"
    )
    assert reaching_up == []


def test_the_ground_floor_imports_only_itself():
    upward = sorted(
        f"{module} imports {target}"
        for module in GROUND_FLOOR
        for target in IMPORTS[module]
        if target.split(".")[0] in PACKAGES and target not in GROUND_FLOOR
    )
    assert upward == []


def _part_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for module, targets in IMPORTS.items():
        if module.split(".")[0] != "regression":
            continue
        source = _part(module)
        graph.setdefault(source, set())
        for target in targets:
            if target.split(".")[0] == "regression" and _part(target) != source:
                graph[source].add(_part(target))
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a path that returns to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)) is not None:
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)) is not None:
            return found
    return None


def test_no_cycle_between_regressions_parts():
    # The front door (regression/__init__.py) names every part, so a part that imports
    # through it closes a cycle: parts import each other by their own module paths.
    assert _cycle(_part_graph()) is None, " -> ".join(_cycle(_part_graph()) or [])


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
