"""The layout the house promises (docs/design.md, "Layers"), checked on the source.

The layer rules are import-linter contracts in pyproject.toml (``lint-imports``, also run by
``make lint``). import-linter reads import statements, every one (inside functions and under
``TYPE_CHECKING`` too), but two kinds of import escape it, and this module checks them with
``ast``: an import a string names (``importlib.import_module("jurycal.datasets")``, a
``"module:Class"`` entry), and ``from regression import latent`` inside regression, which
import-linter reads as an import of ``regression.latent`` and not of the front door it goes
through. The checks are then shown to go red on a copy of the packages with each kind of
violation injected.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
#: The stages: the library the application (jurycal) is built on.
STAGES = ("repair", "ensemble", "regression")
PACKAGES = (*STAGES, "jurycal")
MAX_LINES = 600
#: The calls that import the module their first argument names (``files`` imports the package
#: whose resources it opens).
IMPORTING_CALLS = {"import_module", "__import__", "find_spec", "files", "attach"}
#: A lazy ``"module:Name"`` entry (a registry's estimators) in the application.
APP_ENTRY = re.compile(r"^jurycal(\.\w+)*:\w+$")


def _modules(root: Path) -> Iterator[tuple[str, Path]]:
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            yield ".".join(parts), path


def _called_name(call: ast.Call) -> str:
    return call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")


def dynamic_imports_of_the_application(root: Path) -> list[str]:
    """Each place a stage imports ``jurycal`` by a string, as ``module line: string``."""
    found = []
    for module, path in _modules(root):
        if module.split(".")[0] not in STAGES:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and _called_name(node) in IMPORTING_CALLS:
                named = node.args[0] if node.args else None
                if (
                    isinstance(named, ast.Constant)
                    and isinstance(named.value, str)
                    and named.value.split(".")[0] == "jurycal"
                ):
                    found.append(f"{module} line {node.lineno}: {named.value}")
            elif (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and APP_ENTRY.match(node.value)
            ):
                found.append(f"{module} line {node.lineno}: {node.value}")
    return found


def submodules_through_the_front_door(root: Path) -> list[str]:
    """Each ``from package import submodule`` whose package contains the importing module.

    The import runs the package's ``__init__`` (the front door), which names the parts: a part
    imports another by its path (``import regression.latent``, ``from regression.latent import
    ...``). import-linter records the import as one of the submodule, so it cannot see this.
    """
    modules = dict(_modules(root))
    found = []
    for module, path in modules.items():
        is_package = path.name == "__init__.py"
        here = module.split(".") if is_package else module.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                source = ".".join(here[: len(here) - node.level + 1] + [node.module or ""]).strip(
                    "."
                )
            else:
                source = node.module or ""
            contains = module.startswith(source + ".") if source else False
            for alias in node.names:
                if contains and f"{source}.{alias.name}" in modules:
                    found.append(f"{module} line {node.lineno}: from {source} import {alias.name}")
    return found


def lint_imports(root: Path) -> subprocess.CompletedProcess[str]:
    """import-linter's contracts (``root``/pyproject.toml) on the packages under ``root``."""
    command = "import sys; from importlinter.cli import lint_imports_command as c; sys.exit(c())"
    return subprocess.run(
        [sys.executable, "-c", command, "--config", str(root / "pyproject.toml"), "--no-cache"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
        capture_output=True,
        text=True,
        check=False,
    )


@pytest.mark.parametrize("module", sorted(dict(_modules(ROOT))))
def test_no_module_over_600_lines(module):
    path = dict(_modules(ROOT))[module]
    n_lines = len(path.read_text(encoding="utf-8").splitlines())
    assert n_lines <= MAX_LINES, f"{path} has {n_lines} lines (at most {MAX_LINES})"


def test_the_import_contracts_hold():
    done = lint_imports(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_stage_imports_the_application_by_a_string():
    assert dynamic_imports_of_the_application(ROOT) == []


def test_no_module_imports_a_submodule_through_its_packages_front_door():
    assert submodules_through_the_front_door(ROOT) == []


@pytest.fixture(scope="module")
def copy_of_the_packages(tmp_path_factory):
    """The packages' sources (no data) and pyproject.toml, in a folder of their own."""
    root = tmp_path_factory.mktemp("house")
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            root / package,
            ignore=lambda folder, names: [
                name
                for name in names
                if not (Path(folder, name).is_dir() and name != "__pycache__")
                and not name.endswith((".py", ".pyi"))
            ],
        )
    shutil.copy(ROOT / "pyproject.toml", root)
    return root


def _all_checks(root: Path) -> list[str]:
    broken = dynamic_imports_of_the_application(root) + submodules_through_the_front_door(root)
    done = lint_imports(root)
    if done.returncode != 0:
        broken.append(done.stdout + done.stderr)
    return broken


#: Each violation: the file it is appended to, the line, and what the report names.
VIOLATIONS = {
    "a submodule through the front door": (
        "regression/latent/model.py",
        "from regression import labels",
        "from regression import labels",
    ),
    "a name through the front door": (
        "regression/registry.py",
        "from regression import LatentTraitModel",
        "regression.registry -> regression",
    ),
    "a stage importing the application by a string": (
        "ensemble/voting.py",
        'importlib.import_module("jurycal.datasets")',
        "jurycal.datasets",
    ),
    "a stage importing the application": (
        "repair/pipeline.py",
        "import jurycal.datasets",
        "repair.pipeline -> jurycal.datasets",
    ),
    "a cycle between two of regression's parts": (
        "regression/labels/partial.py",
        "import regression.transfer.model",
        "regression.labels.partial -> regression.transfer.model",
    ),
    "a cycle between two modules of a package": (
        "ensemble/metrics.py",
        "import ensemble.threshold",
        "No cycles are allowed in ensemble",
    ),
    "the wings importing each other": (
        "regression/latent/fit.py",
        "import regression.single_judge.ppi",
        "regression.latent.fit -> regression.single_judge.ppi",
    ),
    "the engine importing a part above it": (
        "regression/core/__init__.py",
        "import regression.labels.partial",
        "regression.core -> regression.labels.partial",
    ),
}


def test_the_checks_pass_the_clean_copy(copy_of_the_packages):
    assert _all_checks(copy_of_the_packages) == []


@pytest.mark.parametrize("violation", sorted(VIOLATIONS))
def test_the_checks_catch_an_injected_violation(copy_of_the_packages, tmp_path, violation):
    root = tmp_path / "house"
    shutil.copytree(copy_of_the_packages, root)
    relative, line, named = VIOLATIONS[violation]
    target = root / relative
    target.parent.mkdir(exist_ok=True)  # regression/core/, where the engine is not yet in
    before = target.read_text(encoding="utf-8") if target.exists() else ""
    target.write_text(before + f"\nimport importlib\n{line}\n", encoding="utf-8")
    broken = _all_checks(root)
    assert broken, f"{violation} passed every check"
    assert named in "\n".join(broken)
