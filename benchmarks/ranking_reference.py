"""The pairwise family computed the direct way: every ordered pair x every draw.

Kept as the reference the scalable family (:mod:`regression.ranking.family`)
must agree with, decision for decision, for the same seed
(``tests/regression/test_ranking_scale.py``), and as the baseline of
``python benchmarks/run.py ranking_scale``. It holds an array of ordered pairs
x draws and re-sorts all of it at every step: 39,800 pairs x 20,000 draws at
200 generators. A joint error given by its law (no draws of its own) gives
every pair one known null law, so the balanced critical value is the
``1 - alpha`` quantile of the per-draw maximum and a single pair's is that
law's quantile; a joint error's own draws give each pair its percentiles,
unless they cannot resolve the balanced level at the first step (every pair's
critical value its largest draw), and then the maximum's quantile too.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

from regression.ranking import SCALE_FLOOR, error_draws, rank_sets_from_decisions
from regression.results import JointError

__all__ = ["reference_pairs", "reference_rank_sets"]


class _Family:
    """The ordered pairs' observed statistics, their null draws and their marginal percentiles."""

    def __init__(self, joint: JointError, a: np.ndarray, b: np.ndarray, n_draws: int, seed: int):
        estimate = joint.estimate.to_numpy(dtype=float)
        scale = joint.covariance.to_numpy(dtype=float)
        draws = error_draws(joint, n_draws, seed)
        self.law = None
        self.common: bool | None = None
        if joint.draws is None:
            self.law = stats.norm() if np.isinf(joint.df) else stats.t(joint.df)
        self.a, self.b = a, b
        self.difference = estimate[a] - estimate[b]
        variance = scale[a, a] + scale[b, b] - 2 * scale[a, b]
        self.sd = np.sqrt(np.maximum(variance, SCALE_FLOOR**2))
        self.null = (draws[:, a] - draws[:, b]) / self.sd
        self.observed = self.difference / self.sd
        order = np.argsort(self.null, axis=0, kind="stable")
        percentile = np.empty_like(self.null)
        n = len(self.null)
        np.put_along_axis(percentile, order, (np.arange(1, n + 1)[:, None] / n), axis=0)
        self.percentile = percentile

    def critical(self, alpha: float, active: np.ndarray, simultaneous: bool = True) -> np.ndarray:
        if not simultaneous:
            if self.law is not None:
                return np.full(len(self.a), float(self.law.ppf(1 - alpha / 2)))
            return np.quantile(self.null, 1 - alpha / 2, axis=0, method="higher")
        worst = self.percentile[:, active].max(axis=1)
        level = float(np.quantile(worst, 1 - alpha, method="higher"))
        n = len(self.null)
        if self.common is None:  # chosen at the first step, kept for the later ones
            unresolved = int(np.quantile(np.arange(n), level, method="higher")) == n - 1
            self.common = self.law is not None or unresolved
        if self.common:
            worst_value = self.null[:, active].max(axis=1)
            common = float(np.quantile(worst_value, 1 - alpha, method="higher"))
            return np.full(len(self.a), common)
        return np.quantile(self.null, level, axis=0, method="higher")


def _family(joint: JointError, a: np.ndarray, b: np.ndarray, n_draws: int, seed: int) -> _Family:
    return _Family(joint, np.concatenate([a, b]), np.concatenate([b, a]), n_draws, seed)


def reference_pairs(
    joint: JointError,
    alpha: float = 0.05,
    pairs: tuple[np.ndarray, np.ndarray] | None = None,
    simultaneous: bool = True,
    *,
    n_draws: int = 20_000,
    seed: int = 0,
) -> pd.DataFrame:
    """``compare``'s table, every pair x draw (``pairs``: positions ``(a, b)``; default all)."""
    a, b = pairs if pairs is not None else np.triu_indices(len(joint.estimate), k=1)
    family = _family(joint, np.asarray(a), np.asarray(b), n_draws, seed)
    critical = family.critical(alpha, np.ones(len(family.a), dtype=bool), simultaneous)
    half = len(family.a) // 2
    difference = family.difference[:half]
    sd = family.sd[:half]
    low = difference - critical[:half] * sd
    high = difference + critical[half:] * sd
    generators = joint.estimate.index
    return pd.DataFrame(
        {
            "generator_a": generators[family.a[:half]],
            "generator_b": generators[family.b[:half]],
            "estimate": difference,
            "low": low,
            "high": high,
            "decided": np.where(low > 0, "a higher", np.where(high < 0, "b higher", "undecided")),
        }
    )


def reference_rank_sets(
    joint: JointError, alpha: float = 0.05, *, n_draws: int = 20_000, seed: int = 0
) -> pd.DataFrame:
    """``rank_sets`` by the step-down over every ordered pair x every draw (every generator ranked)."""
    g = len(joint.estimate)
    a, b = np.triu_indices(g, k=1)
    family = _family(joint, a, b, n_draws, seed)
    active = np.ones(len(family.a), dtype=bool)
    while active.any():
        rejected = active & (family.observed > family.critical(alpha, active))
        if not rejected.any():
            break
        active &= ~rejected
    higher = np.zeros((g, g), dtype=bool)
    higher[family.a[~active], family.b[~active]] = True
    return rank_sets_from_decisions(joint.estimate, higher)
