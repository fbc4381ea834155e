"""Each generator's mean human rating: prediction-powered where rated, transported where not.

**Rated generators.** The estimand is the generator's mean human rating over
its scored outputs, as the raters would have rated all of them. Its rated
outputs are a sample drawn with known inclusion probabilities ``pi`` (uniform:
``n / N``). With ``f`` the cross-fitted prediction of the rating from every
judge's score (:mod:`regression.scores.predict`, pooled over the generators:
:func:`~regression.core.crossfit.cross_fit` over all rated outputs, so no
output is predicted from its own rating) and the rating rescaled to [0, 1],

    theta_g = lam_g mean_{u in g}(f_u) + sum_{rated u in g} w_u (y_u - lam_g f_u) / sum w_u,

``w = 1 / pi`` (PPI++, Angelopoulos, Duchi & Zrnic, 2023, section 2; the
Hajek form for a design, Zrnic & Candes, 2024). ``lam_g`` is power-tuned on
the generator's own ratings with two pseudo-ratings at the scale's ends,
under the engine's rules (:func:`regression.core.bounded.design_lam`):
``lam_g = 0`` is the ratings alone, so judges that predict nothing cost
nothing; a generator whose ratings all agree (ten 5s) gets ``lam_g = 0``.
The predictor is pooled (one calibration from every rated generator) and the
correction is per generator, so a judge lenient to one generator is
corrected by that generator's own ratings.

**Its interval** is the engine's bounded interval on the rating scale
(``"betting"``, :func:`regression.core.ppi_interval`), or ``"normal"``: the
linearised design variance (:mod:`regression.core.covariance`), a Bessel
correction for the mean and ``lam``, two pseudo-ratings at the scale's ends
in the variance, clipped to the scale. The normal interval undercovers a
skewed rating at ten ratings (the ratings piled at the top show no spread);
the bounded one is built for it.

**Generators without ratings** get the calibration transported from the
rated generators: ``T_g = mean_{u in g} f_u``, the predictor fitted on every
rated output. Its error is a transport bias the ratings cannot see; its
interval is ``T_g +- B``, ``B`` learnt from the rated generators held out in
turn (:func:`transport_errors`, :func:`~regression.labels.bias.held_out_bound`:
the largest held-out error plus ``z`` times its standard error), valid if the
new generator is no more unlike the rated ones than they are unlike each
other.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from regression.core.bounded import design_lam, ppi_interval
from regression.core.covariance import dof_scale, linearised_terms
from regression.core.crossfit import cross_fit
from regression.core.sampling import design_weights, hajek_mean
from regression.intervals import ConfidenceInterval, normal_bounds
from regression.scores.predict import fit_predictor, predictor_fit
from regression.scores.table import ScoreTable

__all__ = [
    "MIN_RATINGS",
    "RatedEstimate",
    "cross_fitted_prediction",
    "estimate_rated",
    "transport_errors",
]

#: Ratings a generator needs for its own estimate (fewer: it is transported).
MIN_RATINGS = 3


@dataclass(frozen=True, eq=False)
class RatedEstimate:
    """One rated generator's prediction-powered estimate, on the [0, 1]-rescaled scale.

    Attributes
    ----------
    estimate : float
    lam : float
        The power-tuning weight in [0, 1] (0: the ratings alone).
    y, f, pi : ndarray
        The rescaled ratings, their cross-fitted predictions and inclusion probabilities.
    f_all : ndarray
        The predictions on every scored output of the generator.
    terms : ndarray
        Each rated output's term of the linearised error (:func:`~regression.core.covariance.linearised_terms`).
    pseudo_variance : float
        The two pseudo-ratings' part of the variance.
    variance_ratings : float
        The variance of the ratings alone (``lam = 0``), the same way.
    judges : bool
        Whether the judges were used (False: ``lam`` is 0 by setting).
    """

    estimate: float
    lam: float
    y: np.ndarray
    f: np.ndarray
    pi: np.ndarray
    f_all: np.ndarray
    terms: np.ndarray
    pseudo_variance: float
    variance_ratings: float
    judges: bool = True

    @property
    def variance(self) -> float:
        """The normal interval's variance: the linearised terms' and the pseudo-ratings'."""
        return float(np.sum(self.terms**2) + self.pseudo_variance)

    @property
    def worth(self) -> float:
        """The ratings the judges are worth, ``n (V_ratings / V - 1)``; exactly 0 where ``lam`` is 0."""
        if self.lam == 0:
            return 0.0
        return float(self.y.size * (self.variance_ratings / self.variance - 1.0))

    def normal(self, alpha: float, alternative: str) -> ConfidenceInterval:
        """The normal interval within [0, 1]."""
        low, high = normal_bounds(
            self.estimate, np.sqrt(self.variance), alpha, alternative, limits=(0.0, 1.0)
        )
        return ConfidenceInterval(np.float64(low), np.float64(high))

    def bounded(self, alpha: float, alternative: str, *, seed: int = 0) -> ConfidenceInterval:
        """The engine's betting interval within [0, 1] (:func:`regression.core.bounded.ppi_interval`).

        ``lam`` tuned predictably by the engine where the judges are used
        (a ``lam`` tuned on every draw would void the capital's guarantee),
        fixed at 0 for the ratings alone; the hull with :attr:`estimate`, which
        the engine's own estimate equals up to rounding.
        """
        _, (low, high) = ppi_interval(
            self.y,
            self.f,
            self.f_all,
            self.pi,
            None if self.judges else 0.0,
            outcome_bounds=(0.0, 1.0),
            prediction_bounds=(0.0, 1.0),
            alpha=alpha,
            seed=seed,
            alternative=alternative,
        )
        low, high = min(float(low), self.estimate), max(float(high), self.estimate)
        return ConfidenceInterval(np.float64(low), np.float64(high))


def cross_fitted_prediction(table: ScoreTable, *, seed: int = 0) -> np.ndarray:
    """Every output's predicted rescaled rating, a rated one's from a fit without its fold.

    Pooled over the generators (:func:`~regression.core.crossfit.cross_fit`
    over all rated outputs); an unrated output gets the mean of the fold fits.
    """
    rated = np.flatnonzero(table.rated)
    y = np.nan_to_num(table.outcome)
    if rated.size < 2:
        return np.full(len(table.units), float(y[rated].mean()) if rated.size else 0.5)
    return cross_fit(predictor_fit(table.scores, y, seed=seed), len(table.units), rated, seed=seed)


def _pseudo_variance(w: np.ndarray, lam: float, f_mean: float, m: float, size: float) -> float:
    """Two pseudo-ratings, one at each end of the scale predicted at the rated mean, at the mean weight."""
    r = np.array([0.0, 1.0]) - lam * f_mean
    return float(np.sum(design_weights(1.0 / w.mean()) * (r - m) ** 2) / size**2)


def _variance(
    y: np.ndarray, f: np.ndarray, w: np.ndarray, lam: float, size: float
) -> tuple[np.ndarray, float]:
    r = y - lam * f
    scale = dof_scale(y.size, 1, tuned=bool(lam > 0))
    terms = linearised_terms(r, w, size, scale)
    return terms, _pseudo_variance(w, lam, float(f.mean()), hajek_mean(r, w), size)


def estimate_rated(
    y: np.ndarray, f: np.ndarray, f_all: np.ndarray, pi: np.ndarray, *, judges: bool = True
) -> RatedEstimate:
    """The prediction-powered estimate of one rated generator (module docstring).

    Parameters
    ----------
    y : ndarray
        Rescaled ratings (in [0, 1]) of the rated outputs.
    f : ndarray
        Their cross-fitted predictions.
    f_all : ndarray
        The predictions on all the generator's scored outputs.
    pi : ndarray
        The rated outputs' inclusion probabilities.
    judges : bool
        False: ``lam = 0``, the ratings alone.

    Examples
    --------
    Judges that say nothing (one prediction everywhere) leave the ratings' mean:

    >>> y = np.array([0.5, 1.0, 1.0, 0.75])
    >>> fit = estimate_rated(y, np.full(4, 0.8), np.full(10, 0.8), np.full(4, 0.4))
    >>> fit.lam, fit.estimate
    (0.0, 0.8125)
    """
    w = 1.0 / pi
    lam = design_lam(y, f, f_all, pi) if judges else 0.0
    # lam = 0 is the ratings' Hajek mean exactly, by structure (no 0 * f term added)
    residual = y - lam * f if lam else y
    estimate = (lam * float(f_all.mean()) if lam else 0.0) + hajek_mean(residual, w)
    size = float(f_all.size)
    terms, pseudo = _variance(y, f, w, lam, size)
    ratings_terms, ratings_pseudo = _variance(y, f, w, 0.0, size)
    return RatedEstimate(
        estimate=float(estimate),
        lam=float(lam),
        y=y,
        f=f,
        pi=pi,
        f_all=f_all,
        terms=terms,
        pseudo_variance=pseudo,
        variance_ratings=float(np.sum(ratings_terms**2) + ratings_pseudo),
        judges=judges,
    )


def transport_errors(
    table: ScoreTable, rated: dict[int, RatedEstimate], *, seed: int = 0
) -> dict[int, float]:
    """Per rated generator (by position): the transported estimate with its ratings held out.

    The predictor is fitted on the other rated generators' ratings only, and
    the generator's transported estimate is its mean prediction over its
    scored outputs; compared with the generator's own estimate it is the
    transport's held-out error.
    """
    codes = table.generator_codes
    y = np.nan_to_num(table.outcome)
    transported = {}
    for g in rated:
        train = np.flatnonzero(table.rated & (codes != g) & np.isin(codes, list(rated)))
        if train.size < 2:
            continue
        predictor = fit_predictor(table.scores[train], y[train], seed=seed)
        transported[g] = float(predictor(table.scores[codes == g]).mean())
    return transported
