"""The front door: a few stable names listed once in regression/__init__.pyi, loaded on first use."""

import subprocess
import sys
from pathlib import Path

import pytest

import regression
from regression.lazy import read_stub

STUB = Path(regression.__file__).with_suffix(".pyi")


def _loaded_after(code):
    probe = f"{code}\nimport sys\nprint(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(done.stdout.split())


def test_the_front_door_is_the_stub_and_small():
    exports = read_stub("regression", STUB)
    assert sorted(exports) == regression.__all__
    assert len(regression.__all__) <= 30
    for name in regression.__all__:
        assert getattr(regression, name) is not None, name


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


def test_a_name_that_left_the_front_door_resolves_with_a_warning_naming_its_home():
    from regression.single_judge import rg_estimate

    with pytest.warns(FutureWarning, match=r"import it from regression\.single_judge"):
        assert regression.rg_estimate is rg_estimate


def test_a_stub_line_that_is_not_a_relative_import_is_refused(tmp_path):
    stub = tmp_path / "__init__.pyi"
    stub.write_text("import os\n")
    with pytest.raises(ValueError, match="line 1: only 'from .module import name' lines"):
        read_stub("demo", stub)
