"""Settings for everything pytest collects here: tests/ and the docstring examples of the packages.

It lives at the root, not in a package, so that it is not installed with the library.
"""

from __future__ import annotations

import os

import pytest

# The plotting functions' examples draw figures; a test run has no display to show them on, and a
# GUI backend would open windows (or fail where DISPLAY names no server). Set before matplotlib
# loads, which is after this file; a backend already chosen is kept.
os.environ.setdefault("MPLBACKEND", "Agg")

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
