"""Fixtures every test folder shares."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

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
