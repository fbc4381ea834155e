"""Win rates from pairwise verdicts and a sample of human votes, with one joint error.

The estimand is each generator's win rate over its battles in the table: the
mean of its human score (a win 1, a tie 1/2, a loss 0) over every battle it
played, as the human voters would have voted on all of them. The human votes
are a sample of the battles, drawn independently with known inclusion
probabilities ``pi_b`` (uniform: ``n / N``).

**Human votes alone** (``labels_only``): the weighted mean of the generator's
scores on its voted battles, weights ``1 / pi_b`` (Hajek).

**Prediction-powered** (``ppi++``): with ``f_b`` the judges' cross-fitted
prediction of the battle's human score (:mod:`regression.pairwise.predict`)
and ``lam_g`` in [0, 1],
``theta_g = lam_g * mean_{b in g}(f_b) + sum_{voted b in g} w_b (s_b - lam_g f_b) / sum w_b``
(PPI++, Angelopoulos, Duchi & Zrnic, 2023, for a finite population of
battles as in Zrnic & Candes, 2024). ``lam_g`` minimises the estimate's
variance, ``Cov(s, f) / Var(f)`` over the voted battles with a win and a
loss pseudo-vote, under the engine's rule set
(:func:`regression.core.tuning.guarded_lam`: ``lam_g = 1``, the difference
estimator, where the generator's voted battles all carry one prediction,
``lam_g = 0`` where its votes all agree, clipped to [0, 1] otherwise);
``lam_g = 0`` is the human votes alone, so judges that predict nothing cost
nothing.

**Joint error.** A battle's score counts for both its generators (their
scores sum to 1), once with each sign, so the estimates' errors are
correlated: the engine's linearised joint covariance
(:mod:`regression.core.covariance`) of the residuals ``r = s - lam f``, each
generator's terms scaled by ``n_g / (n_g - 1 - [lam_g > 0])`` for the mean
(and ``lam_g``) estimated from its ``n_g`` votes. Each generator's terms are
divided by the battles its own votes stand for, ``N^_g = sum_{voted b in g}
1 / pi_b`` (the variance estimator of the Hajek mean, Sarndal, Swensson & Wretman,
1992, ch. 5), not by its ``N_g`` battles: under a uniform draw that is the
variance given the ``n_g`` votes the generator happened to get, ``(1 - pi)
s^2 / n_g``, where ``N_g`` would make it grow with ``n_g`` and under-cover the
generators with few votes. Every generator's variance also counts two
pseudo-votes, a win and a loss predicted at the voted mean, each weighing as
one of its drawn votes (``1 / pi`` their mean; the table's drawn votes' where
it has none), so a generator whose few votes all agree, or whose votes are
all held (``pi = 1``) on part of its battles, does not get a zero-width
interval. A generator needs three votes for an interval: by default the
engine's floored interval of its prediction-powered mean
(:meth:`~regression.pairwise.PairwiseWinRates.bounds`, docs/intervals.md);
``interval_method="betting"``, the betting interval (Waudby-Smith & Ramdas
2024), valid at any number of votes; ``interval_method="normal"``, the normal
interval from this variance, clipped to [0, 1]. The joint error is normal.

**Reach.** A generator whose battles the draw did not reach (some had
probability 0: :mod:`regression.pairwise.design`) gets no estimate, with its
reason and an :class:`~regression.errors.UnidentifiedWarning` naming it.
"""

from __future__ import annotations

import numpy as np

from regression.core.covariance import dof_scale, joint_covariance, linearised_terms
from regression.core.sampling import design_weights, hajek_mean
from regression.core.tuning import design_moments, guarded_lam, with_pseudo_outcomes
from regression.pairwise.design import UNREACHED_HINT, DesignReach, battle_sides
from regression.pairwise.predict import cross_fit, judge_features
from regression.pairwise.result import MIN_VOTES, PairwiseWinRates
from regression.pairwise.table import PairwiseTable
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = ["win_rates"]


def win_rates(
    table: PairwiseTable,
    *,
    judges: bool = True,
    seed: int = 0,
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
) -> PairwiseWinRates:
    """The win rate of every generator of a checked table (see the module docstring).

    Parameters
    ----------
    table : PairwiseTable
        From :func:`~regression.pairwise.check_pairwise`.
    judges : bool
        False: the human votes alone (``lam = 0``), with the same joint error.
    seed : int
        Seeds the folds of the cross-fitted predictor and the betting interval's orders.
    interval_method : {"floored", "betting", "normal"}
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`) ``"floored"`` (default): the
        engine's normal interval floored where the votes show no judge error; ``"betting"``:
        each generator's interval is the betting interval of its bounded prediction-powered mean
        (:meth:`PairwiseWinRates.bounds`), valid at any number of votes; ``"normal"``: the
        normal interval from the linearised variance, which rests on the votes' own spread.
        The joint error (comparisons, rank sets) is normal either way.

    Returns
    -------
    PairwiseWinRates
        Method ``ppi++``; ``labels_only`` with ``judges=False`` or when no
        judge gave a decisive verdict; ``mean_of_judges`` (the judges' own win rates, uncorrected,
        no interval) when there are no human votes, with a
        :class:`FewVotesWarning`.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": range(6), "generator_a": ["x", "y", "x"] * 2,
    ...                          "generator_b": ["y", "z", "z"] * 2, "validator": "j",
    ...                          "verdict": ["a", "a", "a", "a", "b", "tie"]})
    >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(
    ...     human=["a", "a", "a", "b", "b", "a"])
    >>> fit = win_rates(check_pairwise(verdicts, human))
    >>> fit.estimate.round(3).to_dict()  # every battle voted: the humans' own win rates
    {'x': 0.75, 'y': 0.5, 'z': 0.25}
    """
    n_gen = len(table.generators)
    battle, generator, sign = battle_sides(table)
    reach = DesignReach(table)
    voted = table.human_row >= 0
    x = judge_features(table)
    if interval_method not in BOUNDED_INTERVAL_METHODS:
        raise ValueError(
            f"interval_method ({interval_method!r}) not recognized; must be one of "
            f"{', '.join(map(repr, BOUNDED_INTERVAL_METHODS))}."
        )
    if not voted.any():
        return _judges_only(table)
    decisive = judges and bool(np.any(x != 0))
    f = cross_fit(x, table.human, seed=seed) if decisive else np.full(table.n_battles, 0.5)
    s_side = 0.5 + sign * (table.human[battle] - 0.5)  # NaN where unvoted
    f_side = 0.5 + sign * (f[battle] - 0.5)
    weight = np.where(voted[battle], 1.0 / table.inclusion_probability[battle], 0.0)
    estimate, se0, lam = (np.full(n_gen, np.nan) for _ in range(3))
    phi = np.zeros((table.n_battles, n_gen))  # each voted battle's term of the linearised error
    pseudo = np.zeros(n_gen)
    for g in range(n_gen):
        mine = generator == g
        on = mine & voted[battle]
        if on.sum() < MIN_VOTES or not reach.reached[g]:
            continue  # no estimate: PairwiseResult.from_arrays warns
        w, y, q = weight[on], s_side[on], f_side[on]
        lam[g] = _power_tuning(w, y, q, f_side[mine]) if decisive else 0.0
        r = y - lam[g] * q
        m = hajek_mean(r, w)
        estimate[g] = lam[g] * f_side[mine].mean() + m
        # degrees of freedom: the mean, and lam where it was tuned (a Bessel correction)
        scale = dof_scale(on.sum(), 1, tuned=bool(lam[g] > 0))
        stand_for, drawn = reach.stand_for[g], reach.drawn_weight[g]
        phi[battle[on], g] = linearised_terms(r, w, stand_for, scale)
        se0[g] = _human_only_se(w, y, stand_for, q.mean(), drawn)
        pseudo[g] = _pseudo_variance(drawn, lam[g], q.mean(), m, stand_for)
    return PairwiseWinRates.from_arrays(
        table,
        estimate,
        joint_covariance(phi) + np.diag(pseudo),
        "ppi++" if decisive else "labels_only",
        lam=lam,
        se_labels_only=se0,
        unidentified=reach.unreached(),
        hint=UNREACHED_HINT,
        prediction=f if decisive else None,
        interval_method=interval_method,
        seed=seed,
    )


def _power_tuning(w: np.ndarray, y: np.ndarray, q: np.ndarray, population: np.ndarray) -> float:
    """``Cov(y, q) / Var(q)`` weighted by ``(1 - pi) / pi^2``, with a win and a loss pseudo-vote
    at the mean prediction and the mean weight, under the engine's rule set."""
    spread = design_weights(1.0 / w) + 1e-12
    at_mean = float(design_weights(1.0 / w.mean())) + 1e-12
    y_aug, q_aug, c_aug, _ = with_pseudo_outcomes(
        y, q, spread, spread, at=float(q.mean()), centre_weight=at_mean, spread_weight=at_mean
    )
    _, covariance, variance = design_moments(y_aug, q_aug, c_aug, c_aug)
    return guarded_lam(covariance, variance, predictions=q, population=population, outcomes=y)


def _human_only_se(
    w: np.ndarray, y: np.ndarray, stand_for: float, q_mean: float, drawn_weight: float
) -> float:
    m = hajek_mean(y, w)
    variance = dof_scale(len(y)) * np.sum(design_weights(1.0 / w) * (y - m) ** 2) / stand_for**2
    return float(np.sqrt(variance + _pseudo_variance(drawn_weight, 0.0, q_mean, m, stand_for)))


def _pseudo_variance(
    drawn_weight: float, lam: float, q_mean: float, m: float, stand_for: float
) -> float:
    """Two pseudo-votes, a win and a loss predicted at the voted mean, each weighing as a drawn
    vote (:attr:`~regression.pairwise.design.DesignReach.drawn_weight`: held votes, drawn for
    sure, carry no variance, but the battles they do not hold could have been drawn)."""
    r = np.array([0.0, 1.0]) - lam * q_mean
    return float(np.sum(design_weights(np.array(1.0 / drawn_weight)) * (r - m) ** 2) / stand_for**2)


def _judges_only(table: PairwiseTable) -> PairwiseWinRates:
    """No human votes: each generator's mean score in the judges' verdicts, uncorrected."""
    n_gen = len(table.generators)
    given = ~np.isnan(table.score)
    row_gen = np.concatenate(
        [table.battle_a[table.battle[given]], table.battle_b[table.battle[given]]]
    )
    row_score = np.concatenate([table.score[given], 1.0 - table.score[given]])
    total = np.bincount(row_gen, weights=row_score, minlength=n_gen)
    count = np.bincount(row_gen, minlength=n_gen)
    with np.errstate(invalid="ignore", divide="ignore"):
        return PairwiseWinRates.uncorrected(table, total / count)
