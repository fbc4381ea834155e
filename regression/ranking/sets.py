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
    check_generators,
    check_joint,
    error_draws,
    level_error,
    pair_positions,
    ranked_part,
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
    "step_down",
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
        higher"`` or ``"undecided"``: whether the interval excludes 0). A pair
        with a generator without an interval (:func:`rank_sets`) has no
        interval (NaN) and is undecided; the family is the other pairs.

    Raises
    ------
    InputError
        Fewer than two generators, a pair naming an unknown generator (or one
        twice), an empty ``pairs``.
    ValueError
        ``alpha`` outside (0, 1).
    """
    alpha = check_alpha(alpha)
    check_generators(joint)
    a, b = pair_positions(joint.estimate.index, pairs)
    ranked, keep, _ = ranked_part(joint)
    position = np.full(len(joint.estimate), -1)
    position[keep] = np.arange(len(keep))
    both = (position[a] >= 0) & (position[b] >= 0)
    names = joint.estimate.index
    table = pd.DataFrame(
        {
            "generator_a": names[a],
            "generator_b": names[b],
            **dict.fromkeys(["estimate", "low", "high", "se", "var_ratio"], np.nan),
            "decided": "undecided",
        }
    )
    if both.any():
        family = PairFamily(ranked, position[a[both]], position[b[both]], n_draws, seed, threads)
        if simultaneous:
            everything = np.ones(len(family), dtype=bool)
            critical = family.balanced_critical(alpha, everything)
        else:
            critical = family.single_critical(1 - alpha / 2)
        measured = pair_table(ranked, family, critical)
        if both.all():
            return measured
        table.loc[both, measured.columns] = measured.to_numpy()
        table = table.astype({c: float for c in ["estimate", "low", "high", "se", "var_ratio"]})
    return table


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


def rank_sets_from_decisions(
    estimate: pd.Series, higher: np.ndarray, reasons: pd.Series | None = None
) -> pd.DataFrame:
    """Rank sets from a matrix of decided pairs (``higher[a, b]``: a decided above b).

    ``reasons``: why each generator without an interval has none (its row
    and column of ``higher`` are empty, so its set is the full range).

    Returns
    -------
    DataFrame
        Indexed by generator in decreasing order of estimate (one without an
        estimate last): ``estimate``, ``rank`` (of the estimate; missing
        without one), ``low_rank`` (best rank it may hold: 1 + the generators
        decided above it), ``high_rank`` (worst: G - those decided below it),
        ``could_be_best`` (``low_rank == 1``) and ``reason`` (why a generator
        has the full range 1..G without being decided; empty for the others).
    """
    g = len(estimate)
    above = higher.sum(axis=0)
    below = higher.sum(axis=1)
    rank = estimate.rank(ascending=False, method="min")
    table = pd.DataFrame(
        {
            "estimate": estimate.to_numpy(dtype=float),
            "rank": rank.to_numpy(dtype=int) if rank.notna().all() else rank.astype("Int64"),
            "low_rank": 1 + above,
            "high_rank": g - below,
        },
        index=pd.Index(estimate.index, name="generator"),
    )
    table["could_be_best"] = table["low_rank"] == 1
    given = pd.Series(dtype=object) if reasons is None else reasons
    table["reason"] = given.reindex(table.index).fillna("").astype(object)
    return table.sort_values(["estimate"], ascending=False, kind="stable")


def decided_matrix(family: PairFamily, decided: np.ndarray, g: int) -> np.ndarray:
    """``higher[a, b]``: the ordered pair (a, b) was decided (a above b)."""
    higher = np.zeros((g, g), dtype=bool)
    higher[family.a[decided], family.b[decided]] = True
    return higher


def step_down(
    joint: JointError,
    alpha: float,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
    threads: int = 1,
) -> tuple[pd.DataFrame, PairFamily | None, JointError, np.ndarray, np.ndarray]:
    """The step-down over the generators with an interval, and every generator's rank set.

    Returns the rank sets (:func:`rank_sets_from_decisions`), the family of
    the ranked generators' pairs (None below two), their joint error, the
    ordered pairs decided and the first step's critical values.
    """
    check_generators(joint)
    ranked, keep, reasons = ranked_part(joint)
    g = len(joint.estimate)
    higher = np.zeros((g, g), dtype=bool)
    family = None
    decided = first = np.zeros(0)
    if len(keep) >= 2:
        a, b = pair_positions(ranked.estimate.index, None)
        family = PairFamily(ranked, a, b, n_draws, seed, threads)
        decided, first = family.step_down(alpha)
        higher[np.ix_(keep, keep)] = decided_matrix(family, decided, len(keep))
    table = rank_sets_from_decisions(joint.estimate, higher, reasons)
    n = n_draws if family is None else family.n
    table.attrs.update(alpha=alpha, n_draws=n, level_error=level_error(alpha, n))
    return table, family, ranked, decided, first


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

    A generator without an interval (a non-finite estimate or error
    variance: e.g. too few human votes) may hold any rank: its set is
    ``[1, G]`` and ``reason`` says why. The step-down runs over the others
    alone (``R = G - U`` of them, their joint error being valid whatever
    the U unranked generators' values are), giving each ranked generator a
    set ``[l, h]`` among the R that holds for all R at once with probability
    ``1 - alpha``. Its rank among all G is its rank among the R plus the
    number of unranked generators above it, anything from 0 to U; so its set
    among all G is ``[l, h + U]``: the best rank stays, the worst widens by
    one for each unranked generator, which could lie below it. Every set
    holds whenever the R sets do, so the family-wise level stays ``1 -
    alpha``. The formula above gives exactly this, counting only decided pairs.

    The critical values come from ``n_draws`` draws of a joint error given
    by its law (its own draws where it carries them); ``attrs`` of the table
    holds ``alpha``, ``n_draws`` and ``level_error``, the Monte Carlo
    standard deviation of the family-wise level they hold
    (:func:`~regression.ranking.family.level_error`: 0.0015 at alpha 0.05
    and 20,000 draws, on a board of any size for a joint error given by its
    law).

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
    return step_down(joint, alpha, n_draws=n_draws, seed=seed, threads=threads)[0]


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
