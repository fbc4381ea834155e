"""Pairwise differences and rank sets for many generators, from the joint error of their estimates.

The generators' estimates share judges and calibration, so their errors move
together: a difference can be known better (or worse) than the two levels
suggest, and ranks read off overlapping marginal intervals say almost nothing.
Everything here works on a :class:`~regression.results.JointError` (the joint
law of ``estimate - truth``) and draws from it, so it serves every estimator
that can describe its joint error: the transfer estimator, the latent-trait
fit's bootstrap, a single judge's Rogan-Gladen estimates sharing one
calibration table.

* :func:`compare`: simultaneous (or one-at-a-time) intervals for the
  differences ``g_a - g_b``.
* :func:`rank_sets`: for every generator at once, the ranks it may hold
  (1 = highest precision), by the step-down procedure of Mogstad, Romano,
  Shaikh and Wilhelm (2024, *Inference for ranks with applications to
  mobility across neighbourhoods and academic achievement across countries*,
  Review of Economic Studies; section 3.2, Algorithm 3.1; the ``csranks``
  package).
* :func:`could_be_best`: the generators whose rank set contains 1.

How the family-wise level is held. For every ordered pair (a, b) the
statistic is ``T_ab = (ghat_a - ghat_b) / sd_ab`` with ``sd_ab`` the scale of
the difference; its null law is that of ``(e_a - e_b) / sd_ab`` for ``e``
drawn from the joint error. The components of the error may have different
laws (a normal item-sampling part, a heavy-tailed t part from a handful of
calibration generators), so one critical value for all pairs would let the
heavy-tailed pairs take the whole error budget. The critical values are
*balanced* instead (Beran 1988, *Balanced simultaneous confidence sets*,
JASA 83; the min-p form of Westfall and Young 1993): every pair is tested at
the same marginal level ``q``, chosen so that the largest of the pairs'
marginal percentiles exceeds ``q`` with probability ``alpha``. With a normal
joint error this is the max-|t| procedure. The step-down repeats the choice
over the pairs not yet decided (Romano and Wolf 2005), which can only decide
more pairs and keeps the family-wise error at ``alpha``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import SeedLike, as_rng, check_alpha
from regression.errors import InputError
from regression.results import JointError, Summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "N_DRAWS",
    "Leaderboard",
    "Ranked",
    "bonferroni_rank_sets",
    "compare",
    "could_be_best",
    "error_draws",
    "leaderboard",
    "projection_rank_sets",
    "rank_sets",
    "rank_sets_from_decisions",
]

#: Draws of the joint error behind every critical value when the joint error carries none.
N_DRAWS = 20_000
#: Floor on a difference's scale, so that two estimates with no error between them stay comparable.
SCALE_FLOOR = 1e-12


def error_draws(joint: JointError, n_draws: int = N_DRAWS, seed: SeedLike = 0) -> np.ndarray:
    """``(n, G)`` draws of ``estimate - truth``: the joint error's own, else from its law.

    Without draws: a multivariate normal with ``joint.covariance`` (``df = inf``)
    or a multivariate t with that scale matrix and ``joint.df`` degrees of
    freedom (a normal draw divided by one ``sqrt(chi2_df / df)``).
    """
    if joint.draws is not None:
        return np.asarray(joint.draws, dtype=float)
    rng = as_rng(seed)
    scale = joint.covariance.to_numpy(dtype=float)
    g = len(scale)
    draws = rng.standard_normal((n_draws, g)) @ _root(scale).T
    if np.isfinite(joint.df):
        draws /= np.sqrt(rng.chisquare(joint.df, n_draws) / joint.df)[:, None]
    return draws


def _root(scale: np.ndarray) -> np.ndarray:
    """``L`` with ``L L' = scale``: Cholesky (unique, so the draws do not depend on the BLAS
    kernel), or the symmetric root of the eigendecomposition where ``scale`` is singular."""
    symmetric = (scale + scale.T) / 2
    try:
        return np.linalg.cholesky(symmetric)
    except np.linalg.LinAlgError:
        values, vectors = np.linalg.eigh(symmetric)
        return (vectors * np.sqrt(np.clip(values, 0.0, None))) @ vectors.T


def _check_joint(joint: JointError) -> None:
    if len(joint.estimate) < 2:
        raise InputError(
            f"comparing generators needs at least two; this result has {len(joint.estimate)} "
            f"({list(joint.estimate.index)}).",
            value=len(joint.estimate),
        )
    if not np.all(np.isfinite(joint.estimate.to_numpy(dtype=float))):
        bad = joint.estimate[~np.isfinite(joint.estimate.to_numpy(dtype=float))]
        raise InputError(
            f"generator {bad.index[0]!r} has no finite estimate ({bad.iloc[0]!r}); leave it "
            "out before comparing.",
            value=bad.index[0],
        )


def _ordered_pairs(
    generators: pd.Index, pairs: Iterable[Sequence[Any]] | None
) -> tuple[np.ndarray, np.ndarray]:
    """Positions ``(a, b)`` of the ordered pairs of the family: both directions of each pair."""
    if pairs is None:
        a, b = np.triu_indices(len(generators), k=1)
    else:
        a_list, b_list = [], []
        for pair in pairs:
            if isinstance(pair, str) or len(pair) != 2:
                raise InputError(
                    f"a pair must name two generators, e.g. ('gpt-4o', 'claude'); got {pair!r}.",
                    value=pair,
                )
            for name in pair:
                if name not in generators:
                    raise InputError(
                        f"pair {tuple(pair)!r} names generator {name!r}, which is not in this "
                        f"result; its generators are {list(generators)}.",
                        value=name,
                    )
            if pair[0] == pair[1]:
                raise InputError(f"pair {tuple(pair)!r} names one generator twice.", value=pair)
            a_list.append(generators.get_loc(pair[0]))
            b_list.append(generators.get_loc(pair[1]))
        if not a_list:
            raise InputError("pairs is empty: name at least one pair, or pass None for all.")
        a, b = np.array(a_list), np.array(b_list)
    return np.concatenate([a, b]), np.concatenate([b, a])


class _Family:
    """The ordered pairs' observed statistics, their null draws and their marginal percentiles."""

    def __init__(
        self, joint: JointError, a: np.ndarray, b: np.ndarray, n_draws: int, seed: SeedLike
    ) -> None:
        estimate = joint.estimate.to_numpy(dtype=float)
        scale = joint.covariance.to_numpy(dtype=float)
        draws = error_draws(joint, n_draws, seed)
        self.a, self.b = a, b
        self.difference = estimate[a] - estimate[b]
        variance = scale[a, a] + scale[b, b] - 2 * scale[a, b]
        self.sd = np.sqrt(np.maximum(variance, SCALE_FLOOR**2))
        self.null = (draws[:, a] - draws[:, b]) / self.sd
        self.observed = self.difference / self.sd
        # each draw's percentile within its own pair's null law (the min-p form)
        order = np.argsort(self.null, axis=0, kind="stable")
        percentile = np.empty_like(self.null)
        n = len(self.null)
        np.put_along_axis(percentile, order, (np.arange(1, n + 1)[:, None] / n), axis=0)
        self.percentile = percentile

    def critical(self, alpha: float, active: np.ndarray, simultaneous: bool = True) -> np.ndarray:
        """Per ordered pair, the critical value of a one-sided test at the balanced level."""
        if simultaneous:
            worst = self.percentile[:, active].max(axis=1)
            level = float(np.quantile(worst, 1 - alpha, method="higher"))
        else:
            level = 1 - alpha / 2
        return np.quantile(self.null, level, axis=0, method="higher")


def compare(
    joint: JointError,
    alpha: float = 0.05,
    pairs: Iterable[Sequence[Any]] | None = None,
    simultaneous: bool = True,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
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
        error; module docstring). False: each interval alone.
    n_draws : int
        Draws of the joint error when it carries none.
    seed : int, Generator or None
        Seeds those draws.

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
    _check_joint(joint)
    a, b = _ordered_pairs(joint.estimate.index, pairs)
    return _pair_table(joint, _Family(joint, a, b, n_draws, seed), alpha, simultaneous)


def _pair_table(
    joint: JointError, family: _Family, alpha: float, simultaneous: bool
) -> pd.DataFrame:
    """:func:`compare`'s table from a family whose first half holds each pair once."""
    generators = joint.estimate.index
    a, b = family.a, family.b
    critical = family.critical(alpha, np.ones(len(a), dtype=bool), simultaneous)
    half = len(a) // 2
    forward, backward = slice(0, half), slice(half, None)
    difference = family.difference[forward]
    sd = family.sd[forward]
    low = difference - critical[forward] * sd
    high = difference + critical[backward] * sd
    scale = joint.covariance.to_numpy(dtype=float)
    own = np.diag(scale)[a[forward]] + np.diag(scale)[b[forward]]
    decided = np.where(low > 0, "a higher", np.where(high < 0, "b higher", "undecided"))
    return pd.DataFrame(
        {
            "generator_a": generators[a[forward]],
            "generator_b": generators[b[forward]],
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


def rank_sets(
    joint: JointError,
    alpha: float = 0.05,
    *,
    n_draws: int = N_DRAWS,
    seed: SeedLike = 0,
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
        See :func:`rank_sets_from_decisions`; ranks are 1 = highest precision.

    Raises
    ------
    InputError, ValueError
        As :func:`compare`.
    """
    alpha = check_alpha(alpha)
    _check_joint(joint)
    a, b = _ordered_pairs(joint.estimate.index, None)
    return _step_down(joint, _Family(joint, a, b, n_draws, seed), alpha)


def _step_down(joint: JointError, family: _Family, alpha: float) -> pd.DataFrame:
    """:func:`rank_sets` from the family of every ordered pair."""
    g = len(joint.estimate)
    a, b = family.a, family.b
    active = np.ones(len(a), dtype=bool)
    while active.any():
        rejected = active & (family.observed > family.critical(alpha, active))
        if not rejected.any():
            break
        active &= ~rejected
    higher = np.zeros((g, g), dtype=bool)
    higher[a[~active], b[~active]] = True
    return rank_sets_from_decisions(joint.estimate, higher)


def could_be_best(
    joint: JointError, alpha: float = 0.05, *, n_draws: int = N_DRAWS, seed: SeedLike = 0
) -> list[Any]:
    """The generators whose simultaneous rank set (:func:`rank_sets`) contains rank 1."""
    table = rank_sets(joint, alpha, n_draws=n_draws, seed=seed)
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
    _check_joint(joint)
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


@dataclass(frozen=True)
class Leaderboard:
    """Generators ordered by estimate, with intervals, simultaneous rank sets and decided pairs.

    Attributes
    ----------
    table : DataFrame
        Indexed by generator, best first: ``estimate, low, high`` (the marginal
        interval), ``rank, low_rank, high_rank, could_be_best`` and, where the
        result's interval has them, ``role, n_labels``.
    pairs : DataFrame
        :func:`compare` for every pair (simultaneous).
    alpha : float
    method : str
        The estimator's name.
    covers : str
        What the joint error accounts for.
    """

    table: pd.DataFrame
    pairs: pd.DataFrame
    alpha: float
    method: str
    covers: str

    def decided(self) -> pd.DataFrame:
        """Generators x generators, best first: +1 where the row is decided above the column, -1 below, 0 undecided."""
        order = list(self.table.index)
        matrix = pd.DataFrame(0, index=order, columns=order)
        for row in self.pairs.itertuples(index=False):
            if row.decided == "a higher":
                matrix.loc[row.generator_a, row.generator_b] = 1
                matrix.loc[row.generator_b, row.generator_a] = -1
            elif row.decided == "b higher":
                matrix.loc[row.generator_a, row.generator_b] = -1
                matrix.loc[row.generator_b, row.generator_a] = 1
        return matrix.rename_axis(index="generator", columns="versus")

    def summary(self) -> Summary:
        """The leaderboard and the decided pairs, with what they cover."""
        best = [str(g) for g in self.table.index[self.table["could_be_best"]]]
        decided = self.pairs[self.pairs["decided"] != "undecided"]
        notes = (
            f"{1 - self.alpha:.0%} marginal intervals; rank sets (1 = highest precision) hold for "
            f"every generator at once with probability {1 - self.alpha:.0%} (step-down over the "
            "pairwise differences, Mogstad, Romano, Shaikh and Wilhelm 2024).",
            f"Could be the best: {', '.join(best)}.",
            f"{len(decided)} of {len(self.pairs)} pairs decided; the pair intervals hold all at "
            "once. The joint error covers " + self.covers + ".",
        )
        pairs = decided if len(decided) else self.pairs.head(0)
        return Summary(
            f"Leaderboard ({self.method})",
            {"leaderboard": self.table, "decided pairs": pairs.reset_index(drop=True)},
            notes=notes,
        )

    def plot(self, title: str | None = None) -> Figure:
        """Points with marginal intervals, best on top, rank sets written beside; the decided-pairs matrix."""
        import matplotlib.pyplot as plt
        from matplotlib.colors import ListedColormap

        table = self.table
        g = len(table)
        height = 1.2 + 0.38 * g
        figure, (left, right) = plt.subplots(
            1, 2, figsize=(11, height), gridspec_kw={"width_ratios": [3, 2]}
        )
        y = np.arange(g)[::-1]
        has_interval = table[["low", "high"]].notna().all(axis=1).to_numpy()
        err = np.vstack(
            [
                (table["estimate"] - table["low"]).to_numpy(),
                (table["high"] - table["estimate"]).to_numpy(),
            ]
        )
        left.errorbar(
            table["estimate"][has_interval],
            y[has_interval],
            xerr=err[:, has_interval],
            fmt="o",
            color="#1f4e79",
            ecolor="#8fb3d9",
            elinewidth=3,
            capsize=0,
        )
        left.plot(table["estimate"][~has_interval], y[~has_interval], "o", color="#1f4e79")
        labels = [
            f"{name}  [{lo}-{hi}]" if lo != hi else f"{name}  [{lo}]"
            for name, lo, hi in zip(table.index, table["low_rank"], table["high_rank"], strict=True)
        ]
        left.set_yticks(y, labels)
        left.set_xlabel(f"precision, {1 - self.alpha:.0%} interval")
        left.grid(axis="x", alpha=0.3)
        left.set_title("estimate and [rank set]", loc="left", fontsize=10)
        matrix = self.decided().to_numpy()
        colours = ListedColormap(["#e66101", "#eeeeee", "#1f78b4"])  # colour-blind safe
        right.imshow(matrix, cmap=colours, vmin=-1, vmax=1)
        right.set_xticks(range(g), list(table.index), rotation=60, ha="right", fontsize=8)
        right.set_yticks(range(g), list(table.index), fontsize=8)
        right.set_title("row above (blue) / below (orange) column", loc="left", fontsize=10)
        figure.suptitle(title or f"Leaderboard ({self.method})")
        figure.tight_layout()
        return figure


def leaderboard(
    result: Any,
    alpha: float = 0.05,
    *,
    seed: SeedLike = 0,
    joint: JointError | None = None,
    **joint_options: Any,
) -> Leaderboard:
    """The leaderboard of any result with ``interval()`` and ``joint_error()``.

    ``joint``: the result's joint error if already built; else
    ``result.joint_error(seed=seed, **joint_options)`` (``joint_options``, e.g.
    ``n_boot`` for a latent-trait fit). The marginal intervals are
    ``result.interval(alpha)``. The rank sets and the pairs share one family of
    draws.
    """
    alpha = check_alpha(alpha)
    if joint is None:
        joint = result.joint_error(seed=seed, **joint_options)
    _check_joint(joint)
    a, b = _ordered_pairs(joint.estimate.index, None)
    family = _Family(joint, a, b, N_DRAWS, seed)
    ranks = _step_down(joint, family, alpha)
    intervals = result.interval(alpha)
    roles = [c for c in ("role", "n_labels") if c in intervals.columns]
    table = ranks.join(intervals[["low", "high", *roles]])
    columns = ["estimate", "low", "high", "rank", "low_rank", "high_rank", "could_be_best"]
    table = table[columns + roles]
    return Leaderboard(
        table=table,
        pairs=_pair_table(joint, family, alpha, simultaneous=True),
        alpha=alpha,
        method=str(result.method),
        covers=joint.covers,
    )


class Ranked:
    """``compare``, ``rank_sets`` and ``could_be_best`` for a result that has ``joint_error()``.

    ``joint_options`` are passed to the result's ``joint_error`` (e.g. the
    bootstrap of a latent-trait fit); ``seed`` seeds both it and the draws.
    """

    #: Defined by the result: the joint law of its estimates' errors.
    joint_error: Callable[..., JointError]
    #: The keyword options of the result's ``joint_error`` a caller may set (besides ``seed``).
    JOINT_OPTIONS: ClassVar[tuple[str, ...]] = ()

    def compare(
        self,
        alpha: float = 0.05,
        pairs: Iterable[Sequence[Any]] | None = None,
        simultaneous: bool = True,
        *,
        seed: SeedLike = 0,
        **joint_options: Any,
    ) -> pd.DataFrame:
        """Intervals for the differences ``g_a - g_b`` (:func:`regression.ranking.compare`)."""
        joint = self.joint_error(seed=seed, **joint_options)
        return compare(joint, alpha, pairs, simultaneous, seed=seed)

    def rank_sets(
        self, alpha: float = 0.05, *, seed: SeedLike = 0, **joint_options: Any
    ) -> pd.DataFrame:
        """Simultaneous rank sets (:func:`regression.ranking.rank_sets`)."""
        return rank_sets(self.joint_error(seed=seed, **joint_options), alpha, seed=seed)

    def could_be_best(
        self, alpha: float = 0.05, *, seed: SeedLike = 0, **joint_options: Any
    ) -> list[Any]:
        """The generators whose rank set contains 1 (:func:`regression.ranking.could_be_best`)."""
        return could_be_best(self.joint_error(seed=seed, **joint_options), alpha, seed=seed)

    def leaderboard(
        self, alpha: float = 0.05, *, seed: SeedLike = 0, **joint_options: Any
    ) -> Leaderboard:
        """Estimates, intervals, rank sets and decided pairs (:func:`regression.ranking.leaderboard`)."""
        return leaderboard(self, alpha, seed=seed, **joint_options)
