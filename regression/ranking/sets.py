"""Pair intervals, rank sets and could-be-best from a joint error (the package docstring says how)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import SeedLike, check_alpha
from regression.ranking.family import (
    N_DRAWS,
    SCALE_FLOOR,
    PairFamily,
    check_joint,
    error_draws,
    pair_positions,
)
from regression.results import JointError

__all__ = [
    "bonferroni_rank_sets",
    "compare",
    "could_be_best",
    "decided_matrix",
    "pair_table",
    "projection_rank_sets",
    "rank_sets",
    "rank_sets_from_decisions",
]


def compare(
    joint: JointError,
    alpha: float = 0.05,
    pairs: Iterable[Sequence[Any]] | None = None,
    simultaneous: bool = True,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
    threads: int = 1,
) -> pd.DataFrame:
    """Intervals for the differences of precision ``g_a - g_b``.

    Parameters
    ----------
    joint : JointError
        The estimates and the joint law of their errors.
    alpha : float
        1 - confidence level.
    pairs : iterable of (a, b), optional
        The pairs to compare; default every pair (a before b in the
        estimate's order).
    simultaneous : bool
        True (default): the intervals hold for all the pairs asked for at
        once, with probability ``1 - alpha`` (balanced max-|t| over the joint
        error; package docstring). False: each interval alone.
    n_draws : int
        Draws of the joint error when it carries none.
    seed : int, Generator or None
        Seeds those draws.
    threads : int
        Threads that find the pairs' null tails (the results do not depend on it).

    Returns
    -------
    DataFrame
        One row per pair: ``generator_a, generator_b, estimate`` (``ghat_a -
        ghat_b``), ``low, high``, ``se`` (the difference's scale),
        ``var_ratio`` (that scale squared over the sum of the two estimates'
        own: below 1 the difference is known better than the levels, because
        their errors move together) and ``decided`` (``"a higher"``, ``"b
        higher"`` or ``"undecided"``: whether the interval excludes 0).

    Raises
    ------
    InputError
        Fewer than two generators, a generator without a finite estimate, a
        pair naming an unknown generator (or one twice), an empty ``pairs``.
    ValueError
        ``alpha`` outside (0, 1).
    """
    alpha = check_alpha(alpha)
    check_joint(joint)
    a, b = pair_positions(joint.estimate.index, pairs)
    family = PairFamily(joint, a, b, n_draws, seed, threads)
    if simultaneous:
        everything = np.ones(len(family), dtype=bool)
        critical = family.critical(family.balanced_position(alpha, everything))
    else:
        critical = family.single_position_values(1 - alpha / 2)
    return pair_table(joint, family, critical)


def pair_table(joint: JointError, family: PairFamily, critical: np.ndarray) -> pd.DataFrame:
    """:func:`compare`'s table from the family and one critical value per ordered pair."""
    generators = joint.estimate.index
    half = len(family) // 2
    a, b = family.pair_a, family.pair_b
    difference = family.difference[:half]
    sd = family.sd[:half]
    low = difference - critical[:half] * sd
    high = difference + critical[half:] * sd
    scale = np.diag(joint.covariance.to_numpy(dtype=float))
    own = scale[a] + scale[b]
    decided = np.where(low > 0, "a higher", np.where(high < 0, "b higher", "undecided"))
    return pd.DataFrame(
        {
            "generator_a": generators[a],
            "generator_b": generators[b],
            "estimate": difference,
            "low": low,
            "high": high,
            "se": sd,
            "var_ratio": sd**2 / np.where(own > 0, own, np.nan),
            "decided": decided,
        }
    )


def rank_sets_from_decisions(estimate: pd.Series, higher: np.ndarray) -> pd.DataFrame:
    """Rank sets from a matrix of decided pairs (``higher[a, b]``: a decided above b).

    Returns
    -------
    DataFrame
        Indexed by generator in decreasing order of estimate: ``estimate``,
        ``rank`` (of the estimate), ``low_rank`` (best rank it may hold: 1 +
        the generators decided above it), ``high_rank`` (worst: G - those
        decided below it), ``could_be_best`` (``low_rank == 1``).
    """
    g = len(estimate)
    above = higher.sum(axis=0)
    below = higher.sum(axis=1)
    table = pd.DataFrame(
        {
            "estimate": estimate.to_numpy(dtype=float),
            "rank": estimate.rank(ascending=False, method="min").to_numpy(dtype=int),
            "low_rank": 1 + above,
            "high_rank": g - below,
        },
        index=pd.Index(estimate.index, name="generator"),
    )
    table["could_be_best"] = table["low_rank"] == 1
    return table.sort_values(["estimate"], ascending=False, kind="stable")


def decided_matrix(family: PairFamily, decided: np.ndarray, g: int) -> np.ndarray:
    """``higher[a, b]``: the ordered pair (a, b) was decided (a above b)."""
    higher = np.zeros((g, g), dtype=bool)
    higher[family.a[decided], family.b[decided]] = True
    return higher


def rank_sets(
    joint: JointError,
    alpha: float = 0.05,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
    threads: int = 1,
) -> pd.DataFrame:
    """Simultaneous rank sets: every generator's true rank lies in its set, all at once, w.p. ``1 - alpha``.

    The step-down procedure of Mogstad, Romano, Shaikh and Wilhelm (2024,
    section 3.2): test every ordered pair's hypothesis ``g_a <= g_b`` with
    the balanced max statistic over the pairs not yet decided, decide those
    that exceed it, and repeat over the rest until no pair is decided. The
    rank set of a is then ``[1 + #(decided above a), G - #(decided below a)]``.

    Returns
    -------
    DataFrame
        See :func:`rank_sets_from_decisions`; ranks are 1 = the highest estimate.

    Raises
    ------
    InputError, ValueError
        As :func:`compare`.
    """
    alpha = check_alpha(alpha)
    check_joint(joint)
    a, b = pair_positions(joint.estimate.index, None)
    family = PairFamily(joint, a, b, n_draws, seed, threads)
    decided, _ = family.step_down(alpha)
    return rank_sets_from_decisions(
        joint.estimate, decided_matrix(family, decided, len(joint.estimate))
    )


def could_be_best(
    joint: JointError,
    alpha: float = 0.05,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
    threads: int = 1,
) -> list[Any]:
    """The generators whose simultaneous rank set (:func:`rank_sets`) contains rank 1."""
    table = rank_sets(joint, alpha, n_draws=n_draws, seed=seed, threads=threads)
    return list(table.index[table["could_be_best"]])


def bonferroni_rank_sets(intervals: pd.DataFrame) -> pd.DataFrame:
    """Rank sets read off marginal intervals: a above b where a's interval lies wholly above b's.

    Simultaneous when the intervals are (e.g. each at level ``1 - alpha / G``,
    Bonferroni): the baseline :func:`rank_sets` is measured against.
    ``intervals``: indexed by generator with ``estimate, low, high``.
    """
    low = intervals["low"].to_numpy(dtype=float)
    high = intervals["high"].to_numpy(dtype=float)
    higher = low[:, None] > high[None, :]
    return rank_sets_from_decisions(intervals["estimate"], higher)


def projection_rank_sets(
    joint: JointError, alpha: float = 0.05, *, n_draws: int = N_DRAWS, seed: SeedLike = 0
) -> pd.DataFrame:
    """Rank sets from projecting one confidence ellipsoid for the vector of precisions.

    The set ``{g : (ghat - g)' S^+ (ghat - g) <= c}``, ``c`` the ``1 - alpha``
    quantile of that quadratic form over the joint error's draws (a chi-square
    with G degrees of freedom for a normal error); a pair is decided where the
    whole ellipsoid lies on one side of ``g_a = g_b``, i.e. ``|ghat_a - ghat_b|
    > sqrt(c) sd_ab``. The approach of prediction-powered ranking (Chatzi et
    al., 2024) for one confidence region; the baseline :func:`rank_sets` is
    measured against.
    """
    alpha = check_alpha(alpha)
    check_joint(joint)
    scale = joint.covariance.to_numpy(dtype=float)
    draws = error_draws(joint, n_draws, seed)
    inverse = np.linalg.pinv(scale)
    quadratic = np.einsum("ni,ij,nj->n", draws, inverse, draws)
    c = float(np.quantile(quadratic, 1 - alpha))
    estimate = joint.estimate.to_numpy(dtype=float)
    difference = estimate[:, None] - estimate[None, :]
    diag = np.diag(scale)
    sd = np.sqrt(np.maximum(diag[:, None] + diag[None, :] - 2 * scale, SCALE_FLOOR**2))
    higher = difference > np.sqrt(c) * sd
    np.fill_diagonal(higher, False)
    return rank_sets_from_decisions(joint.estimate, higher)
