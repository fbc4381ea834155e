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

**Its interval** is the engine's on the rating scale
(:func:`regression.core.floor.design_mean_interval`, docs/intervals.md):
``"floored"`` (default), Student's t-interval with each side at least the
shift a share of outputs the ratings may have missed could cause beyond the
most extreme residual they show (ratings that all agree: from their mean);
``"betting"``, the betting confidence interval of Waudby-Smith & Ramdas, 2024,
valid at any number of ratings for any distribution on the scale; or
``"normal"``: Wilson's score
interval at the effective sample size of the linearised design variance
(:mod:`regression.core.covariance`, a Bessel correction for the mean and
``lam``), as binary labels have it (:meth:`RatedEstimate.normal`). The
normal interval is valid for many ratings and can undercover a rating piled
at the top at ten; the betting one holds at any number, and is the widest.

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

from regression.core.bounded import design_lam
from regression.core.covariance import dof_scale, linearised_terms
from regression.core.crossfit import cross_fit
from regression.core.floor import design_mean_interval
from regression.core.sampling import design_weights, hajek_mean
from regression.intervals import ConfidenceInterval
from regression.labels.interval import score_interval
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
        Each rated output's term of the linearised error
        (:func:`~regression.core.covariance.linearised_terms`, Bessel-corrected
        for the mean and ``lam``).
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
    judges: bool = True

    @property
    def variance(self) -> float:
        """The linearised design variance (the normal interval's): the sum of the squared terms."""
        return float(np.sum(self.terms**2))

    def ratings_alone(self) -> RatedEstimate:
        """The same ratings without the judges (``lam = 0``)."""
        return estimate_rated(self.y, self.f, self.f_all, self.pi, judges=False)

    def bounds(
        self, method: str, alpha: float, alternative: str, *, seed: int = 0
    ) -> ConfidenceInterval:
        """The interval within [0, 1]: ``"floored"`` or ``"betting"`` (:meth:`bounded`), or ``"normal"`` (:meth:`normal`)."""
        if method == "normal":
            return self.normal(alpha, alternative)
        return self.bounded(method, alpha, alternative, seed=seed)

    def normal(self, alpha: float, alternative: str) -> ConfidenceInterval:
        """Wilson's score interval at the effective sample size, within [0, 1]: the ``"normal"`` interval.

        The form binary labels use (:mod:`regression.labels.partial`): a
        rating rescaled to [0, 1] with mean ``theta`` has variance at most
        ``theta (1 - theta)``, so the estimate is read as a proportion observed
        on ``n_eff = p (1 - p) / V`` trials, ``V`` the linearised design
        variance at the estimate ``p``, and the score interval takes at each
        candidate ``theta`` the variance ``theta (1 - theta) / n_eff`` (skewed
        near the scale's ends, as a rating piled there is). ``V`` is floored at
        what the ratings alone are worth at their Kish size ``n_0 = (sum
        w)^2 / sum c``, ``(1 - lam)^2`` times a proportion's variance at their
        mean, and ``p`` kept one pseudo-rating from the ends (Kish scale), so ten
        ratings that all agree keep a width. Valid for many ratings; at ten on a
        skewed scale it can undercover (the betting interval is the one valid at
        any number).
        """
        w = 1.0 / self.pi
        c = design_weights(self.pi)
        n_0 = min(float(w.sum()) ** 2 / max(float(c.sum()), 1e-12), float(self.f_all.size))
        edge = 1.0 / (n_0 + 2.0)
        own = float(np.clip(hajek_mean(self.y, w), edge, 1.0 - edge))
        variance = max(self.variance, (1.0 - self.lam) ** 2 * own * (1.0 - own) / n_0, 1e-15)
        p = float(np.clip(self.estimate, edge, 1.0 - edge))
        low, high = score_interval(p, p * (1.0 - p) / variance, alpha, alternative)
        low, high = min(float(low), self.estimate), max(float(high), self.estimate)
        return ConfidenceInterval(np.float64(low), np.float64(high))

    def bounded(
        self, method: str, alpha: float, alternative: str, *, seed: int = 0
    ) -> ConfidenceInterval:
        """The engine's interval ``method`` within [0, 1] (:func:`regression.core.floor.design_mean_interval`).

        ``lam`` chosen by the engine where the judges are used (floored: as
        :func:`~regression.core.floor.floored_ppi_interval` chooses it; betting: predictably, since a ``lam`` tuned on
        every draw would void the capital's guarantee), fixed at 0 for the
        ratings alone; the hull with :attr:`estimate`.
        """
        _, (low, high) = design_mean_interval(
            method,
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
    scale = dof_scale(y.size, 1, tuned=bool(lam > 0))
    terms = linearised_terms(residual, w, float(f_all.size), scale)
    return RatedEstimate(
        estimate=float(np.clip(estimate, 0.0, 1.0)),  # on the scale, as the truth is
        lam=float(lam),
        y=y,
        f=f,
        pi=pi,
        f_all=f_all,
        terms=terms,
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
