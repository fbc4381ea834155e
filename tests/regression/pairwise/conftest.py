"""The simulated arenas the pairwise tests share: ``world`` of test_win_rate.py, as a fixture (the
tests are not a package, --import-mode=importlib, so a test file cannot import another)."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest


@pytest.fixture(scope="session")
def world() -> Callable[..., Any]:
    """``world(seed, **options) -> (verdicts, human, true win rates)``; see test_win_rate.py."""
    spec = importlib.util.spec_from_file_location(
        "pairwise_worlds", Path(__file__).with_name("test_win_rate.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.world  # type: ignore[no-any-return]
