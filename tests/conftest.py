"""Fixtures every test folder shares."""

from __future__ import annotations

import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

#: One BLAS and one OpenMP (torch) thread per test process, so that results and times do not
#: depend on the machine's load: on 2 busy cores the default threads oversubscribe them, and one
#: leave-s-out sweep took minutes instead of 30 s. numpy, scipy and torch read these variables
#: when they load, which is after this file (``make test`` also sets them before Python starts,
#: and subprocesses -- the CLI's, the notebooks' kernels -- inherit them). A value already set is
#: kept: ``make blas-check`` runs the float-sensitive tests with 2 BLAS threads on purpose.
THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
for _variable in THREAD_VARIABLES:
    os.environ.setdefault(_variable, "1")


def pytest_configure(config: pytest.Config) -> None:
    """Hold BLAS and torch to the thread counts above even where a library loaded before this
    file read its variable (a plugin importing numpy first): threadpoolctl sets the count of every
    BLAS loaded, so numpy's and scipy's are loaded here first."""
    import numpy  # noqa: F401  (loads numpy's BLAS)
    import scipy.linalg  # noqa: F401  (loads scipy's own BLAS)
    import threadpoolctl
    import torch

    threadpoolctl.threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]), user_api="blas")
    torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))


#: benchmarks/ is a folder of scripts, not a package: its studies serve the benchmarks, so they
#: live there, and the tests run small versions of them.
BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def load_benchmark(name: str) -> ModuleType:
    """The module ``benchmarks/<name>.py``, with benchmarks/ on the path while it loads (a
    benchmark may import its sibling modules)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(BENCHMARKS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCHMARKS))
    return module


@pytest.fixture(scope="session")
def benchmark() -> Callable[[str], ModuleType]:
    """``benchmark(name)``: the module ``benchmarks/<name>.py`` (:func:`load_benchmark`)."""
    return load_benchmark
