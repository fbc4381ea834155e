"""What the pairwise tests share, as fixtures (the tests are not a package, --import-mode=importlib,
so a test file cannot import another): the simulated arena ``world`` of test_win_rate.py, and
``sample_votes``, which keeps a uniform sample of a fully voted table's votes."""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from regression.pairwise import PairwiseTable


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


def _sample_votes(table: PairwiseTable, n_votes: int, seed: int) -> PairwiseTable:
    voted = np.zeros(table.n_battles, dtype=bool)
    voted[np.random.default_rng(seed).choice(table.n_battles, n_votes, replace=False)] = True
    row = np.full(table.n_battles, -1)
    row[voted] = np.arange(n_votes)
    return replace(
        table,
        human=np.where(voted, table.human, np.nan),
        inclusion_probability=np.where(voted, n_votes / table.n_battles, np.nan),
        human_row=row,
    )


@pytest.fixture(scope="session")
def sample_votes() -> Callable[[PairwiseTable, int, int], PairwiseTable]:
    """``sample_votes(table, n_votes, seed)``: the (fully voted) table with a uniform sample of
    ``n_votes`` battles keeping their votes, as if only those had been drawn, without checking
    the tables again (the truth and the sample share one check)."""
    return _sample_votes
