"""The front door: a few stable names listed once in regression/__init__.pyi, loaded on first use."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import ensemble
import jurycal
import regression
import repair

PACKAGES = (regression, ensemble, repair, jurycal)


def _stub_names(package):
    """The names ``package/__init__.pyi`` re-exports (``from .module import name as name``)."""
    stub = ast.parse(Path(package.__file__).with_suffix(".pyi").read_text(encoding="utf-8"))
    return sorted(
        alias.name for node in stub.body if isinstance(node, ast.ImportFrom) for alias in node.names
    )


def _loaded_after(code):
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_the_front_door_is_the_stub_and_small():
    assert _stub_names(regression) == regression.__all__
    assert len(regression.__all__) <= 30


@pytest.mark.parametrize("package", PACKAGES, ids=lambda package: package.__name__)
def test_every_package_loads_its_stubs_names_on_first_use(package):
    assert set(_stub_names(package)) <= set(package.__all__)
    assert not _loaded_after(f"import {package.__name__}") & {"numpy", "pandas", "scipy"}
    for name in _stub_names(package):
        assert getattr(package, name) is not None, name


def test_simulators_live_under_one_namespace():
    from regression import simulate

    assert {"simulate_latent_world", "simulate_single_judge", "coverage_study"} <= set(
        simulate.__all__
    )
    assert not [n for n in regression.__all__ if n.startswith("simulate_")]


@pytest.mark.parametrize(
    "code",
    [
        "import regression.errors",
        "from regression.errors import ConvergenceWarning, MisfitWarning, UnidentifiedWarning",
        "from regression import JurycalWarning, InputError",
    ],
)
def test_the_warnings_load_no_solver(code):
    loaded = _loaded_after(code)
    assert not loaded & {"scipy.optimize", "torch", "regression.latent.solver"}


def test_a_name_not_at_the_front_door_is_an_attribute_error():
    with pytest.raises(AttributeError, match="rg_estimate"):
        regression.rg_estimate  # noqa: B018 -- it lives in regression.single_judge only
