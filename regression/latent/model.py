"""Latent-trait regression over the generator x validator matrix (agreeableness paper, section 5).

Each generator i has a precision g_i (the share of its outputs that are valid);
each validator j a TPR v+_j and a TNR v-_j. A validator calls an output of
generator i valid with probability (section 5.1, eq. (1); App. C.2, eq. (8))

    P_hat[i, j] = g_i v+_j + (1 - g_i)(1 - v-_j).

:class:`LatentTraitModel` fits g, v+ and v- to the observed matrix, anchored by
human labels on a few "calibration" generators, with one of two losses:

* ``loss="paper"``: App. C.4, eqs. (11)-(13): mean BCE over the observed cells
  plus lambda-weighted RMSEs pulling g (calibration generators), v+ and v- towards
  their anchors; L-BFGS-B in the box [0, 1].
* ``loss="likelihood"`` (default): the binomial log-likelihood of the counts
  behind every cell plus the calibration data (human labels ~ g on calibration
  generators; each validator's votes on human-valid / human-invalid items ~
  v+ / 1 - v-). Cells backed by more items weigh more, and the anchors are data
  with their own sample sizes instead of penalties with hand-tuned weights.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats
from scipy.optimize import minimize

from regression._latent_items import ItemVotes, draw_item_weights, encode_items, item_replicates
from regression._latent_losses import (
    LatentData,
    likelihood_loss,
    paper_loss,
    predicted_rates,
    split_theta,
)
from regression._latent_profile import profile_interval
from regression.checks import check_alpha, check_alternative, check_counts
from regression.anchors import Anchors
from regression.counts import Counts, counts_from_judgments
from regression.intervals import ConfidenceInterval

__all__ = [
    "ConvergenceWarning",
    "MisfitWarning",
    "LatentTraitModel",
    "LatentTraitResult",
    "UnidentifiedWarning",
    "fresh_rng",
    "pearson_dispersion",
    "select_best",
]

LOSSES = ("likelihood", "paper")
STARTS = ("paper", "released")
BACKENDS = ("scipy", "torch")
GRADIENTS = ("exact", "released")
INTERVAL_METHODS = ("auto", "profile", "parametric", "nonparametric", "items")
#: Parameters of the likelihood stay this far inside (0, 1) so that every log is finite.
LIKELIHOOD_MARGIN = 1e-6
#: The released code's start jitter: uniform(-eps/2, eps/2) on g and on v+ / v-.
JITTER_G, JITTER_V = 1e-3, 1e-2
#: Two restarts "converged to the best" when their losses differ by at most this (relative).
SAME_OPTIMUM_RTOL = 1e-6

SeedLike = int | np.random.Generator | np.random.RandomState | None


class ConvergenceWarning(UserWarning):
    """The optimiser stopped without meeting its convergence test."""


class UnidentifiedWarning(UserWarning):
    """The fit is not identified by the data (no anchors, or a validator with J <= 0)."""


class MisfitWarning(UserWarning):
    """The cells vary far more than binomial sampling allows: the model does not hold."""


#: The fit warns of misfit when Pearson's chi-square test rejects the model at this level.
MISFIT_P_VALUE = 1e-3


def pearson_dispersion(theta: np.ndarray, data: LatentData) -> tuple[float, float]:
    """Pearson dispersion of the cells and the p-value of the chi-square goodness-of-fit test.

    ``chi2 = sum_c (k_c - n_c P_hat_c)^2 / (n_c P_hat_c (1 - P_hat_c))`` over the
    cells the likelihood uses, ``df = cells - parameters``; the dispersion
    ``chi2 / df`` is about 1 when eq. (1) holds with fixed TPR / TNR.
    """
    keep = data.in_likelihood & (data.n > 0)
    hat = np.clip(predicted_rates(theta, data)[keep], 1e-12, 1 - 1e-12)
    n = data.n[keep]
    chi2 = float(np.sum(n * (data.rate[keep] - hat) ** 2 / (hat * (1 - hat))))
    df = max(int(keep.sum()) - data.n_params, 1)
    return chi2 / df, float(stats.chi2.sf(chi2, df))


def select_best(thetas: np.ndarray, losses: np.ndarray, data: LatentData) -> tuple[int, np.ndarray]:
    """The restart with the lowest loss; unanchored, it is mirrored onto the mean-J > 0 branch.

    The mirror ``(g, tpr, tnr) -> (1 - g, 1 - tnr, 1 - tpr)`` leaves every P_hat
    (eq. (1)) and so every unanchored loss unchanged.
    """
    best = int(np.argmin(losses))
    theta = thetas[best].copy()
    if not data.anchored:
        g, tpr, tnr = split_theta(theta, data.n_gen)
        if np.mean(tpr + tnr - 1.0) < 0:
            theta = np.concatenate([1.0 - g, 1.0 - tnr, 1.0 - tpr])
    return best, theta


def fresh_rng(seed: SeedLike) -> np.random.Generator | np.random.RandomState:
    """A new generator in the state ``seed`` describes (copies a given generator's state)."""
    if isinstance(seed, (np.random.Generator, np.random.RandomState)):
        return copy.deepcopy(seed)
    return np.random.default_rng(seed)


def _rng(seed: SeedLike) -> np.random.Generator | np.random.RandomState:
    if isinstance(seed, (np.random.Generator, np.random.RandomState)):
        return seed
    return np.random.default_rng(seed)


@dataclass(frozen=True, eq=False)
class _Inputs:
    """What a fit was given, kept so the result can refit (bootstrap, new generators)."""

    rates: pd.DataFrame
    n: pd.DataFrame | None
    anchors: Anchors
    equal_weights: bool
    #: The votes and human labels, encoded (``fit_table`` only): the item bootstrap resamples them.
    items: ItemVotes | None = None


@dataclass(frozen=True, eq=False)
class LatentTraitResult:
    """A fitted latent-trait model.

    Attributes
    ----------
    precision : Series
        Estimated precision g per generator (index: generators).
    tpr, tnr : Series
        Estimated TPR (v+) and TNR (v-) per validator (index: validators).
    loss : float
        The training loss of the kept restart (the lowest).
    converged : bool
        Whether the kept restart met the optimiser's convergence test.
    n_restarts_converged_to_best : int
        Restarts whose final loss is within a relative 1e-6 of the best.
    n_restarts : int
    restart_losses : ndarray
        The final loss of every restart.
    loss_name : str
        ``"paper"`` or ``"likelihood"``.
    equal_weights : bool
        True when no counts were given: every cell then weighs the same.
    warnings : tuple of str
        Everything worth knowing before trusting the numbers (skipped anchors,
        an unidentified fit, J <= 0, no convergence, equal weights).
    message : str
        The optimiser's message for the kept restart.
    dispersion : float
        Pearson chi-square / df of the cells at the estimate: about 1 when the
        model holds and the counts are real; far above 1 when TPR / TNR vary
        between generators (then neither the estimates nor the intervals
        deserve trust). Meaningless with ``equal_weights``.
    """

    precision: pd.Series
    tpr: pd.Series
    tnr: pd.Series
    loss: float
    converged: bool
    n_restarts_converged_to_best: int
    n_restarts: int
    restart_losses: np.ndarray = field(repr=False)
    loss_name: str
    equal_weights: bool
    warnings: tuple[str, ...]
    message: str = ""
    dispersion: float = float("nan")
    model: LatentTraitModel | None = field(default=None, repr=False)
    inputs: _Inputs | None = field(default=None, repr=False)

    @property
    def youden_j(self) -> pd.Series:
        """J = TPR + TNR - 1 per validator (DESIGN.md names)."""
        return (self.tpr + self.tnr - 1.0).rename("youden_j")

    @property
    def theta(self) -> np.ndarray:
        """The flat parameter vector ``[g, tpr, tnr]``."""
        return np.concatenate([self.precision.to_numpy(), self.tpr.to_numpy(), self.tnr.to_numpy()])

    def fitted_rates(self) -> pd.DataFrame:
        """``P_hat`` for every generator x validator pair (eq. (1))."""
        g = self.precision.to_numpy()[:, None]
        values = g * self.tpr.to_numpy()[None, :] + (1 - g) * (1 - self.tnr.to_numpy()[None, :])
        return pd.DataFrame(values, index=self.precision.index, columns=self.tpr.index)

    def add_generators(
        self, rates: pd.DataFrame, counts: pd.DataFrame | None = None
    ) -> LatentTraitResult:
        """Estimate new, unannotated generators: append their rows and refit (section 5.1).

        Parameters
        ----------
        rates : DataFrame
            New rows (generators) x validators of the fraction labelled valid (NaN = absent).
            Validators must be among the fitted ones.
        counts : DataFrame, optional
            Items behind each new rate; required when the original fit had counts.

        Returns
        -------
        LatentTraitResult
            A refit on all rows with the same anchors and settings, started from
            the current estimates (the new generators from their row means).
        """
        model, inputs = self._require_refit_state()
        if not isinstance(rates, pd.DataFrame):
            raise ValueError(f"rates must be a pandas DataFrame; got {type(rates).__name__}.")
        clash = [g for g in rates.index if g in inputs.rates.index]
        if clash:
            raise ValueError(f"generator(s) {clash} are already in the fit; give only new rows.")
        unknown = [v for v in rates.columns if v not in inputs.rates.columns]
        if unknown:
            raise ValueError(
                f"validator(s) {unknown} are not in the fit; it has {list(inputs.rates.columns)}."
            )
        if inputs.equal_weights:
            if counts is not None:
                raise ValueError(
                    "the original fit had no counts; give none for the new rows either."
                )
            new_n = None
        else:
            if counts is None:
                raise ValueError("the original fit had counts; give counts for the new rows too.")
            assert inputs.n is not None  # a fit with counts keeps them
            new_n = pd.concat([inputs.n, counts.reindex(columns=inputs.rates.columns)])
        new_rates = pd.concat([inputs.rates, rates.reindex(columns=inputs.rates.columns)])
        start = pd.concat(
            [self.precision, rates.reindex(columns=inputs.rates.columns).mean(axis=1)]
        )
        warm = np.concatenate([start.to_numpy(), self.tpr.to_numpy(), self.tnr.to_numpy()])
        return model._fit(new_rates, new_n, inputs.anchors, extra_start=warm)

    def interval(
        self,
        alpha: float = 0.05,
        *,
        method: str = "auto",
        n_boot: int = 200,
        seed: SeedLike = 0,
        alternative: str = "two-sided",
        quasi: bool = True,
    ) -> pd.DataFrame:
        """Per-generator confidence intervals for the precision g.

        Parameters
        ----------
        alpha : float
            1 - confidence level.
        method : {"auto", "profile", "parametric", "nonparametric", "items"}
            ``"auto"`` (default): ``"profile"`` for an anchored likelihood fit,
            ``"nonparametric"`` for the paper loss, else ``"parametric"`` (see
            :meth:`interval_method`).
            ``"parametric"``: percentile bootstrap; every count is redrawn from
            the fitted model: ``k_ij ~ Bin(n_ij, P_hat_ij)``, the calibration
            counts from ``Bin(m_h, g_h)``, ``Bin(tp + fn, tpr_j)``,
            ``Bin(tn + fp, tnr_j)``. ``"nonparametric"``: the same draws from the
            observed proportions (``k_ij / n_ij``, the anchors' values): a
            bootstrap of the items within each cell. ``"profile"`` (likelihood
            loss, anchored fits only): the profile-likelihood interval
            ``{gamma : D_i(gamma) <= phi z^2}``, where ``D_i`` is the deviance
            with g_i held at gamma and every other parameter refitted; see
            ``quasi``. ``"items"`` (only for a fit by :meth:`LatentTraitModel.fit_table`):
            percentile bootstrap of the *items*: each generator's items (the
            union of its items in the judgments and the human labels) are
            redrawn with replacement, stratified by generator, and every cell
            count, the pooled TPR / TNR confusion counts and the human precision
            of the calibration generators are recomputed from the redrawn items.
        n_boot : int
            Bootstrap replicates; each is refitted from the estimate (one start).
        seed : int, Generator or None
            Seeds the bootstrap draws.
        alternative : {"two-sided", "less", "greater"}
            The one convention of :mod:`regression.intervals`.
        quasi : bool
            Only for ``"profile"``: scale the deviance by ``phi = max(1,
            dispersion)``, the Pearson dispersion of the cells
            (quasi-likelihood; McCullagh & Nelder 1989, section 9.2). Default
            True: the interval then widens with the extra-binomial variation the
            cells show instead of assuming eq. (1) holds exactly. ``False`` gives
            the plain likelihood interval (phi = 1).

        Returns
        -------
        DataFrame
            Index: generators; columns ``estimate, low, high``;
            ``attrs["method"]`` is the method used and, for ``"profile"``,
            ``attrs["phi"]`` the deviance scale.

        Raises
        ------
        ValueError
            A method not recognized; ``n_boot < 2``; ``"profile"`` on a paper-loss
            or unanchored fit; ``"items"`` on a result without item-level votes
            (from :meth:`LatentTraitModel.fit` or :meth:`add_generators`).

        Notes
        -----
        What the count bootstraps (``"parametric"``, ``"nonparametric"``)
        cover: the binomial sampling of the items behind every cell and every
        anchor, *given* the model (eq. (1)) and independence between cells. They do not cover that one item is judged by
        several validators (their votes are correlated), nor that TPR / TNR may
        differ between generators (the paper's stability assumption, section 5),
        nor the optimiser's own noise; with ``counts=None`` the items per cell are
        the pseudo-count the fit used, so the width is only indicative.
        Precision anchors given without counts are held fixed.

        The item bootstrap (``"items"``) covers the sampling of the items
        themselves: that one item is judged by every validator (an item that
        fools one validator tends to fool others, and its true validity moves all
        its votes together), and that on the calibration generators the same
        items give the cells, the TPR / TNR anchors and the human precision.
        Where votes on an item are correlated it is wider than the count
        bootstraps, which treat every cell as independent. It is a nonparametric
        bootstrap of the data, not of the model: it does not need eq. (1) to
        hold for its resampling, but its percentiles are those of the same
        estimator, so a bias of the model (a generator-specific TPR / TNR) is
        not covered; nor is the optimiser's noise. The target is the precision
        of the population of outputs each generator's items were drawn from. A
        cell or an anchor that receives no item in a replicate adds nothing
        (count 0; its value stays the original as a placeholder, which the
        paper loss, ignoring counts, then uses). Cost: like the other bootstraps
        (``n_boot`` refits in one batch) plus one sparse product per kind of
        count; the votes are encoded once by ``fit_table``.

        The profile interval is exact in large samples when the model holds
        (Wilks), respects [0, 1] and the curvature of the likelihood (an
        unannotated generator's interval is wide and skewed where TPR + TNR - 1
        is small). With ``quasi=True`` it also widens with misfit, but only by
        one factor for all cells: it corrects for variation that looks like
        noise, not for a validator whose TNR on one generator is systematically
        off. With ``counts=None`` the cells weigh a pseudo-count; the quasi
        scaling then cancels that arbitrary weight for the cells (chi-square and
        deviance both grow with it) but not for the anchors, so the width is
        indicative. It costs about ten batches of ``2 n_gen`` constrained refits.
        """
        alpha = check_alpha(alpha)
        check_alternative(alternative)
        method = self.interval_method(method)
        model, inputs = self._require_refit_state()
        data = model._data(inputs.rates, inputs.n, inputs.anchors)
        theta = self.theta
        if method == "profile":
            return self._profile(model, data, alpha, alternative, quasi)
        if int(n_boot) < 2:
            raise ValueError(f"n_boot ({n_boot!r}) must be at least 2.")
        rng = _rng(seed)
        if method == "items":
            if inputs.items is None:
                raise ValueError(
                    "method='items' resamples items, so it needs the item-level votes; this "
                    "result does not keep them (it was fitted from a matrix with fit(), or "
                    "extended with add_generators()). Fit with LatentTraitModel.fit_table("
                    "judgments, human_labels, calibration_generators) to use it."
                )
            weights = draw_item_weights(inputs.items, int(n_boot), rng)
            datas = item_replicates(data, inputs.items, weights)
            return self._percentile_table(model, datas, theta, alpha, alternative, method)
        if method == "parametric":
            cell_p = np.clip(predicted_rates(theta, data), 0.0, 1.0)
            g, tpr, tnr = split_theta(theta, data.n_gen)
            p_g, p_tpr, p_tnr = g[data.g_idx], tpr[data.tpr_idx], tnr[data.tnr_idx]
        else:
            cell_p, p_g, p_tpr, p_tnr = data.rate, data.g_val, data.tpr_val, data.tnr_val
        n_cell = np.rint(data.n).astype(np.int64)
        datas = []
        for _ in range(int(n_boot)):
            rate = rng.binomial(n_cell, cell_p) / np.maximum(n_cell, 1)
            datas.append(
                replace(
                    data,
                    rate=rate,
                    g_val=_redraw(rng, data.g_n, p_g),
                    tpr_val=_redraw(rng, data.tpr_n, p_tpr),
                    tnr_val=_redraw(rng, data.tnr_n, p_tnr),
                )
            )
        return self._percentile_table(model, datas, theta, alpha, alternative, method)

    def _percentile_table(
        self,
        model: LatentTraitModel,
        datas: list[LatentData],
        theta: np.ndarray,
        alpha: float,
        alternative: str,
        method: str,
    ) -> pd.DataFrame:
        """Refit every replicate (one start each, one batch) and take quantiles.

        The likelihood refits from the estimate: its optimum is unique, so this
        only saves iterations. The paper loss refits from the replicate's own
        first start, as the estimator does: from the estimate, L-BFGS-B stalls at
        once on the RMSE kink and the unanchored generators' intervals collapse
        to a point.
        """
        if model.loss == "likelihood":
            starts = np.repeat(theta[None, :], len(datas), axis=0)
        else:
            starts = np.stack([model.first_start(d) for d in datas])
        thetas, _, _, _ = model._solve(datas, starts)
        boot = thetas[:, : len(self.precision)]
        lo_q = alpha / 2 if alternative == "two-sided" else alpha
        low = np.quantile(boot, lo_q, axis=0)
        high = np.quantile(boot, 1 - lo_q, axis=0)
        if alternative == "less":
            low = np.zeros_like(low)
        if alternative == "greater":
            high = np.ones_like(high)
        return self._interval_table(low, high, method=method)

    def _interval_table(self, low: np.ndarray, high: np.ndarray, **attrs: Any) -> pd.DataFrame:
        table = pd.DataFrame(
            {"estimate": self.precision.to_numpy(), "low": low, "high": high},
            index=self.precision.index,
        )
        table.attrs.update(attrs)
        return table

    def interval_method(self, method: str = "auto") -> str:
        """The method ``interval(method=...)`` uses.

        ``"auto"`` is ``"profile"`` for an anchored likelihood fit,
        ``"nonparametric"`` for the paper loss and ``"parametric"`` for an
        unanchored likelihood fit. The paper loss's estimate is where L-BFGS-B
        stalls near its start (the row means), so what varies between samples
        is the data's row means; a parametric bootstrap would redraw from the
        fitted rates, whose row means the fit does not reproduce, and shift
        every replicate away from the estimate.
        """
        methods = INTERVAL_METHODS
        if method not in methods:
            raise ValueError(f"method ({method!r}) not recognized; must be one of {methods}.")
        if method != "auto":
            return method
        if self.loss_name == "paper":
            return "nonparametric"
        anchored = self.inputs is not None and not self.inputs.anchors.is_empty
        return "profile" if anchored else "parametric"

    def _profile(
        self,
        model: LatentTraitModel,
        data: LatentData,
        alpha: float,
        alternative: str,
        quasi: bool,
    ) -> pd.DataFrame:
        if model.loss != "likelihood":
            raise ValueError(
                f"method='profile' needs loss='likelihood'; this fit used loss={model.loss!r}, "
                "which is not a likelihood (use a bootstrap method)."
            )
        if not data.anchored:
            raise ValueError(
                "method='profile' needs anchors: an unanchored fit is only determined up to "
                "the mirror g <-> 1 - g, so its profile has two equal peaks."
            )
        phi = max(1.0, self.dispersion) if quasi and np.isfinite(self.dispersion) else 1.0
        low, high = profile_interval(
            model, data, self.theta, alpha=alpha, alternative=alternative, phi=phi
        )
        return self._interval_table(low, high, method="profile", phi=phi)

    def confidence_interval(
        self, confidence_level: float = 0.95, alternative: str = "two-sided", **kwargs: Any
    ) -> ConfidenceInterval:
        """``(low, high)`` Series of :meth:`interval` at ``confidence_level`` (STYLE.md point 2)."""
        table = self.interval(1 - confidence_level, alternative=alternative, **kwargs)
        return ConfidenceInterval(table["low"], table["high"])

    def _require_refit_state(self) -> tuple[LatentTraitModel, _Inputs]:
        if self.model is None or self.inputs is None:
            raise ValueError(
                "this result does not keep its inputs; refit with LatentTraitModel.fit."
            )
        return self.model, self.inputs


def _redraw(rng: Any, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Binomial proportions ``Bin(n, p) / n``; entries without a count stay at p."""
    n_int = np.rint(n).astype(np.int64)
    drawn = rng.binomial(np.maximum(n_int, 0), np.clip(p, 0.0, 1.0)) / np.maximum(n_int, 1)
    return np.where(n_int > 0, drawn, p)


class LatentTraitModel:
    """Latent-trait regression g, v+, v- over a generator x validator matrix.

    Parameters
    ----------
    loss : {"likelihood", "paper"}
        ``"likelihood"`` (default): joint binomial likelihood of the counts and
        the calibration data. ``"paper"``: App. C.4, eqs. (11)-(13).
    lambdas : (float, float, float)
        ``(lambda_g, lambda_v+, lambda_v-)`` of the paper loss (section 5.1:
        2, 1, 10). Ignored by the likelihood.
    n_restarts : int
        Starts per fit; the one with the lowest training loss is kept (section 5.2: 25).
    start : {"paper", "released"}, optional
        ``"paper"``: g = row means of the matrix, TPR = TNR = 1 (App. D);
        ``"released"``: g = row means, TPR = TNR = 0.5, as the paper's released
        code does (with 10 runs). Default: ``"paper"`` for the paper loss,
        ``"released"`` for the likelihood, whose log terms make a start on the
        boundary slow for the torch backend's Newton steps (15-29 iterations on
        the paper's matrix instead of 6-10); an anchored likelihood fit reaches
        the same optimum from either. Every restart but the first
        adds the released code's jitter, uniform in +-0.0005 on g and +-0.005 on
        TPR / TNR, then clips into the box.
    backend : {"scipy", "torch"}
        ``"scipy"``: L-BFGS-B with the exact gradient, one start after
        another. ``"torch"``: the same losses in torch, every start (and every
        problem of a bootstrap or leave-s-out run) optimised as one batch: the
        likelihood by a projected Newton method with its exact Hessian, the
        paper loss by a projected L-BFGS. The two agree to 1e-4 on the
        likelihood; on the paper loss, whose estimate is where the optimiser
        stops on its kink (see Notes), to a few hundredths.
    gradient : {"exact", "released"}
        Only for ``loss="paper"``: ``"released"`` uses the forward-difference
        gradient the released code's scipy call computed numerically (in closed
        form, no extra cost), to follow that code's optimiser path; see Notes.
    ftol, gtol : float, optional
        Convergence tolerances of L-BFGS-B. Defaults: scipy's (2.2e-9, 1e-5) for
        the paper loss, as the released code; 1e-13 and 1e-9 for the likelihood.
    max_iter : int
        Iterations per start.
    seed : int, Generator, RandomState or None
        The jitter of the restarts. A ``RandomState`` is used as is (the
        released code drew from ``np.random.seed(42)``).

    Notes
    -----
    **Identifiability.** Without anchors the model has a mirror solution
    (g <-> 1 - g, v+ <-> 1 - v-, same P_hat) and, more generally, a family of
    solutions ``g -> a g + b`` that fit equally well. jurycal keeps the branch
    with mean Youden J > 0 (validators better than chance) and warns that an
    unanchored fit is unreliable (section 5.2: 15.8 % max error at s = 0).

    **The paper loss is not smooth at its optimum.** Each RMSE term is a scaled
    Euclidean norm, with a kink where its anchors are met exactly; with lambda_v-
    = 10 the optimum sits on that kink. L-BFGS-B then stops wherever its line
    search stalls, so the estimates depend on the gradient and the start, not
    only on the loss. The released numbers (Fig. 6) come from scipy's
    forward-difference gradient; ``gradient="released"`` reproduces that path.

    **Why the likelihood.** It weights every cell by the items behind it, uses
    the calibration data with their real sample sizes (a TNR anchor measured on
    40 invalid items is not as sure as one on 400), needs no tuned lambdas, and
    is smooth, so its optimum is well defined and both backends find it.

    Examples
    --------
    >>> from jurycal.datasets import load_confusion, load_human_precision, load_validator_rates
    >>> rates = load_validator_rates("none")
    >>> truth = load_human_precision()
    >>> anchors = Anchors.from_confusion(load_confusion("none"), ["gpt-4o", "gpt-4-turbo"],
    ...                                  precision=truth[["gpt-4o", "gpt-4-turbo"]])
    >>> result = LatentTraitModel(loss="paper", n_restarts=3).fit(rates, anchors=anchors)
    >>> round(float(result.precision["gpt-4o"]), 2)
    0.94
    """

    def __init__(
        self,
        *,
        loss: str = "likelihood",
        lambdas: tuple[float, float, float] = (2.0, 1.0, 10.0),
        n_restarts: int = 25,
        start: str | None = None,
        backend: str = "scipy",
        gradient: str = "exact",
        ftol: float | None = None,
        gtol: float | None = None,
        max_iter: int = 15000,
        seed: SeedLike = 0,
    ) -> None:
        self.loss = loss
        self.lambdas = lambdas
        self.n_restarts = n_restarts
        self.start = start
        self.backend = backend
        self.gradient = gradient
        self.ftol = ftol
        self.gtol = gtol
        self.max_iter = max_iter
        self.seed = seed

    @classmethod
    def paper_release(cls, **overrides: Any) -> LatentTraitModel:
        """The paper's released configuration: paper loss, 10 runs from TPR = TNR = 0.5,
        forward-difference gradient path, jitter drawn from ``RandomState(42)``."""
        settings: dict[str, Any] = dict(
            loss="paper",
            n_restarts=10,
            start="released",
            gradient="released",
            seed=np.random.RandomState(42),
        )
        settings.update(overrides)
        return cls(**settings)

    def __repr__(self) -> str:
        return (
            f"LatentTraitModel(loss={self.loss!r}, lambdas={self.lambdas!r}, n_restarts="
            f"{self.n_restarts!r}, start={self.start!r}, backend={self.backend!r}, "
            f"gradient={self.gradient!r}, seed={self.seed!r})"
        )

    # ------------------------------------------------------------------ checks
    def _check_settings(self) -> None:
        for name, value, allowed in (
            ("loss", self.loss, LOSSES),
            ("start", self.start_name, STARTS),
            ("backend", self.backend, BACKENDS),
            ("gradient", self.gradient, GRADIENTS),
        ):
            if value not in allowed:
                raise ValueError(f"{name} ({value!r}) not recognized; must be one of {allowed}.")
        if self.gradient == "released" and self.loss != "paper":
            raise ValueError("gradient='released' exists only for loss='paper'.")
        if self.gradient == "released" and self.backend != "scipy":
            raise ValueError(
                "gradient='released' follows scipy's L-BFGS-B path; use backend='scipy'."
            )
        lambdas = np.asarray(self.lambdas, dtype=float)
        if lambdas.shape != (3,) or not np.all(np.isfinite(lambdas) & (lambdas >= 0)):
            raise ValueError(f"lambdas ({self.lambdas!r}) must be three finite numbers >= 0.")
        if not isinstance(self.n_restarts, (int, np.integer)) or self.n_restarts < 1:
            raise ValueError(f"n_restarts ({self.n_restarts!r}) must be a whole number >= 1.")

    @property
    def start_name(self) -> str:
        """The start in use: ``start``, or the loss's default when it is None."""
        if self.start is not None:
            return self.start
        return "paper" if self.loss == "paper" else "released"

    def _lambdas(self) -> tuple[float, float, float]:
        lg, lp, ln = (float(x) for x in self.lambdas)
        return lg, lp, ln

    @property
    def bounds(self) -> tuple[float, float]:
        """The box the parameters live in: [0, 1] for the paper, just inside it for the likelihood."""
        if self.loss == "likelihood":
            return LIKELIHOOD_MARGIN, 1.0 - LIKELIHOOD_MARGIN
        return 0.0, 1.0

    def _tolerances(self) -> tuple[float, float]:
        if self.loss == "paper":
            return (
                2.220446049250313e-09 if self.ftol is None else self.ftol,
                1e-5 if self.gtol is None else self.gtol,
            )
        return (1e-13 if self.ftol is None else self.ftol, 1e-9 if self.gtol is None else self.gtol)

    # --------------------------------------------------------------- fitting
    def fit(
        self,
        rates: pd.DataFrame | Counts,
        counts: pd.DataFrame | Counts | None = None,
        anchors: Anchors | None = None,
    ) -> LatentTraitResult:
        """Fit g, v+, v- to a generator x validator matrix.

        Parameters
        ----------
        rates : DataFrame or Counts
            Generators (index) x validators (columns) of the fraction labelled
            valid; NaN marks an absent cell (never run, or no labels). A
            :class:`~regression.counts.Counts` gives rates and counts at once.
        counts : DataFrame or Counts, optional
            The items behind each rate (``n_labeled``). Without them the
            likelihood weights every cell equally (as backed by the median
            number of items behind the precision anchors, or 1) and the result
            says so; the paper loss never needs them.
        anchors : Anchors, optional
            Calibration data; none gives the unanchored (s = 0) fit, with a warning.

        Returns
        -------
        LatentTraitResult

        Raises
        ------
        ValueError
            Bad settings; rates outside [0, 1] or infinite; counts that are not
            whole numbers, disagree with the rates, or have more valid than
            labelled items; a generator or validator without a single observed
            cell; anchors naming generators or validators not in the matrix;
            duplicate generators or validators.
        """
        self._check_settings()
        table, n = _matrix_inputs(rates, counts)
        return self._fit(table, n, Anchors() if anchors is None else anchors)

    def fit_table(
        self,
        judgments: pd.DataFrame,
        human_labels: pd.DataFrame | None = None,
        calibration_generators: Iterable[str] | None = None,
    ) -> LatentTraitResult:
        """Fit from the judgments table and human labels (DESIGN.md data model).

        Counts come from :func:`~regression.counts.counts_from_judgments`;
        anchors from :meth:`Anchors.from_human_labels` on
        ``calibration_generators`` (default: every generator with human labels).
        """
        self._check_settings()
        counts = counts_from_judgments(judgments)
        if human_labels is None:
            if calibration_generators:
                raise ValueError("calibration_generators given without human_labels.")
            anchors = Anchors()
        else:
            anchors = Anchors.from_human_labels(judgments, human_labels, calibration_generators)
        items, _ = encode_items(judgments, human_labels, counts.rates)
        return self._fit(counts.rates, counts.n_labeled.astype(float), anchors, items=items)

    def _data(self, rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors) -> LatentData:
        return _build_data(rates, n, anchors, equal_n=_default_n(anchors, n))

    def _fit(
        self,
        rates: pd.DataFrame,
        n: pd.DataFrame | None,
        anchors: Anchors,
        extra_start: np.ndarray | None = None,
        items: ItemVotes | None = None,
    ) -> LatentTraitResult:
        self._check_settings()
        _check_anchor_labels(anchors, rates)
        data = self._data(rates, n, anchors)
        starts = self.starts(data, _rng(self.seed))
        if extra_start is not None:
            starts[0] = np.clip(extra_start, *self.bounds)
        thetas, losses, converged, messages = self._solve([data] * len(starts), starts)
        best, theta = select_best(thetas, losses, data)
        notes = list(anchors.notes)
        same = np.abs(losses - losses[best]) <= SAME_OPTIMUM_RTOL * max(1.0, abs(losses[best]))
        if self.loss == "likelihood" and n is None:
            notes.append(
                "no counts given: every cell weighs the same (as if backed by "
                f"{_default_n(anchors, n):g} items); pass counts to weight cells by their items."
            )
        if self.loss == "likelihood" and not anchors.is_empty and not anchors.has_counts:
            notes.append(
                "anchors without counts: each anchor value is treated as backed by "
                f"{_default_n(anchors, n):g} items; build them with Anchors.from_confusion or "
                "give precision_n / tpr_n / tnr_n."
            )
        g, tpr, tnr = split_theta(theta, data.n_gen)
        if not data.anchored:
            notes.append(
                "unanchored fit (no calibration data): g is identified only up to the mirror "
                "solution and an affine family; jurycal keeps mean J > 0, but the estimates "
                "depend on the start and are unreliable (paper section 5.2: 15.8 % max error at s = 0)."
            )
            warnings.warn(notes[-1], UnidentifiedWarning, stacklevel=3)
        j = tpr + tnr - 1.0
        if np.any(j <= 0):
            bad = list(rates.columns[j <= 0])
            notes.append(
                f"validator(s) {bad} have Youden J <= 0 at the estimate: no better than chance."
            )
            warnings.warn(notes[-1], UnidentifiedWarning, stacklevel=3)
        dispersion, p_fit = pearson_dispersion(theta, data)
        if n is not None and p_fit < MISFIT_P_VALUE:
            notes.append(
                f"the cells vary {dispersion:.1f} times more than binomial sampling allows "
                f"(Pearson chi-square test p = {p_fit:.1e}): TPR / TNR are not stable across "
                "generators, so the model (paper section 5's assumption) does not hold here; "
                "distrust the estimates and the intervals."
            )
            warnings.warn(notes[-1], MisfitWarning, stacklevel=3)
        if not converged[best]:
            notes.append(
                f"the kept restart did not converge ({messages[best]}); raise max_iter or "
                "n_restarts, or check the data."
            )
            warnings.warn(notes[-1], ConvergenceWarning, stacklevel=3)
        return LatentTraitResult(
            precision=pd.Series(g.copy(), index=rates.index, name="precision"),
            tpr=pd.Series(tpr.copy(), index=rates.columns, name="tpr"),
            tnr=pd.Series(tnr.copy(), index=rates.columns, name="tnr"),
            loss=float(losses[best]),
            converged=bool(converged[best]),
            n_restarts_converged_to_best=int(same.sum()),
            n_restarts=len(losses),
            restart_losses=losses,
            loss_name=self.loss,
            equal_weights=n is None,
            warnings=tuple(notes),
            message=messages[best],
            dispersion=dispersion,
            model=copy.copy(self),
            inputs=_Inputs(rates, n, anchors, n is None, items),
        )

    def starts(self, data: LatentData, rng: Any) -> np.ndarray:
        """The ``n_restarts`` starting points, one per row (see ``start``)."""
        base = self.first_start(data)
        out = np.empty((self.n_restarts, data.n_params))
        out[0] = base
        for r in range(1, self.n_restarts):
            x = base.copy()
            x[: data.n_gen] += rng.uniform(-JITTER_G / 2, JITTER_G / 2, data.n_gen)
            x[data.n_gen : data.n_gen + data.n_val] += rng.uniform(
                -JITTER_V / 2, JITTER_V / 2, data.n_val
            )
            x[data.n_gen + data.n_val :] += rng.uniform(-JITTER_V / 2, JITTER_V / 2, data.n_val)
            out[r] = self._into_box(x)
        return out

    def first_start(self, data: LatentData) -> np.ndarray:
        """The start without jitter: g = row means, TPR = TNR = 1 or 0.5 (see ``start``)."""
        sums = np.bincount(data.rows, weights=data.rate, minlength=data.n_gen)
        cells = np.bincount(data.rows, minlength=data.n_gen)
        v0 = 1.0 if self.start_name == "paper" else 0.5
        return self._into_box(
            np.concatenate([sums / np.maximum(cells, 1), np.full(2 * data.n_val, v0)])
        )

    def _into_box(self, x: np.ndarray) -> np.ndarray:
        x = np.clip(x, 0.0, 1.0)
        return np.clip(x, 1e-3, 1 - 1e-3) if self.loss == "likelihood" else x

    def _solve(
        self,
        datas: Sequence[LatentData],
        starts: np.ndarray,
        bounds: tuple[np.ndarray, np.ndarray] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
        """Minimise the loss of ``datas[b]`` from ``starts[b]`` for every b.

        ``bounds``: per-problem boxes ``(lower, upper)`` shaped like ``starts``
        (``lower == upper`` holds a coordinate fixed, as the profile likelihood
        does); default the model's box for every coordinate.
        """
        if bounds is None:
            bounds = (np.full(starts.shape, self.bounds[0]), np.full(starts.shape, self.bounds[1]))
        lower, upper = bounds
        starts = np.clip(starts, lower, upper)
        ftol, gtol = self._tolerances()
        if self.backend == "torch":
            from regression._latent_torch import solve_batch

            return solve_batch(
                datas,
                starts,
                loss=self.loss,
                lambdas=self._lambdas(),
                bounds=(lower, upper),
                ftol=ftol,
                gtol=gtol,
                max_iter=self.max_iter,
            )
        thetas = np.empty_like(starts)
        losses = np.empty(len(starts))
        converged = np.empty(len(starts), dtype=bool)
        messages = []
        for b, (data, x0) in enumerate(zip(datas, starts, strict=True)):
            fun = self.objective(data)
            res = minimize(
                fun,
                x0,
                jac=True,
                method="L-BFGS-B",
                bounds=list(zip(lower[b], upper[b], strict=True)),
                options={"ftol": ftol, "gtol": gtol, "maxiter": self.max_iter},
            )
            thetas[b] = res.x
            losses[b] = fun(res.x)[0]
            converged[b] = bool(res.success)
            messages.append(str(res.message))
        return thetas, losses, converged, messages

    def objective(self, data: LatentData) -> Any:
        """``theta -> (loss, gradient)`` for this model's loss on ``data``."""
        if self.loss == "likelihood":
            return lambda theta: likelihood_loss(theta, data)
        lambdas = self._lambdas()
        gradient = self.gradient
        return lambda theta: paper_loss(theta, data, lambdas, gradient)


# ---------------------------------------------------------------------- inputs
def _matrix_inputs(
    rates: pd.DataFrame | Counts, counts: pd.DataFrame | Counts | None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Validated ``(rates, n or None)``: NaN rates are absent cells, n == 0 on them."""
    if isinstance(rates, Counts):
        if counts is not None:
            raise ValueError("rates is already a Counts object; do not pass counts as well.")
        return _checked_rates(rates.rates), rates.n_labeled.astype(float)
    table = _checked_rates(rates)
    if counts is None:
        _check_coverage(table.notna().to_numpy(), table)
        return table, None
    if isinstance(counts, Counts):
        if not (counts.generators.equals(table.index) and counts.validators.equals(table.columns)):
            counts = counts + Counts(
                pd.DataFrame(0, index=table.index, columns=table.columns),
                pd.DataFrame(0, index=table.index, columns=table.columns),
            )
        implied = counts.rates.reindex(index=table.index, columns=table.columns)
        both = implied.notna().to_numpy() & table.notna().to_numpy()
        if not np.allclose(implied.to_numpy()[both], table.to_numpy()[both], atol=1e-9):
            raise ValueError("rates disagree with counts.n_valid / counts.n_labeled.")
        n_frame = counts.n_labeled.reindex(index=table.index, columns=table.columns)
    else:
        if not isinstance(counts, pd.DataFrame):
            raise ValueError(f"counts must be a DataFrame or Counts; got {type(counts).__name__}.")
        if set(counts.index) != set(table.index) or set(counts.columns) != set(table.columns):
            raise ValueError("counts must have the same generators and validators as rates.")
        n_frame = counts.reindex(index=table.index, columns=table.columns)
    n = n_frame.to_numpy(dtype=float)
    n = np.where(np.isnan(n), 0.0, n)
    check_counts("counts", n)
    present = table.notna().to_numpy()
    clash = present & (n == 0)
    if clash.any():
        i, j = np.argwhere(clash)[0]
        raise ValueError(
            f"rate {table.iat[i, j]!r} for generator {table.index[i]!r} and validator "
            f"{table.columns[j]!r} has no items behind it (count 0); make it NaN or give its count."
        )
    n = np.where(present, n, 0.0)
    _check_coverage(present, table)
    return table, pd.DataFrame(n, index=table.index, columns=table.columns)


def _checked_rates(rates: Any) -> pd.DataFrame:
    if not isinstance(rates, pd.DataFrame):
        raise ValueError(f"rates must be a pandas DataFrame; got {type(rates).__name__}.")
    for axis, labels in (("generator", rates.index), ("validator", rates.columns)):
        if labels.has_duplicates:
            raise ValueError(
                f"{axis} {labels[labels.duplicated()][0]!r} appears more than once in rates."
            )
    values = rates.to_numpy(dtype=float)
    bad = ~np.isnan(values) & ~((values >= 0) & (values <= 1))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"rates must lie in [0, 1] (NaN marks an absent cell); got {values[i, j].item()!r} for "
            f"generator {rates.index[i]!r} and validator {rates.columns[j]!r}."
        )
    return pd.DataFrame(
        values, index=rates.index.rename("generator"), columns=rates.columns.rename("validator")
    )


def _check_coverage(present: np.ndarray, table: pd.DataFrame) -> None:
    for axis, labels, seen in (
        ("generator", table.index, present.any(axis=1)),
        ("validator", table.columns, present.any(axis=0)),
    ):
        if not seen.all():
            raise ValueError(
                f"{axis} {labels[~seen][0]!r} has no labels (every cell is absent); drop it "
                "or add its counts."
            )


def _check_anchor_labels(anchors: Anchors, rates: pd.DataFrame) -> None:
    if not isinstance(anchors, Anchors):
        raise ValueError(f"anchors must be an Anchors object; got {type(anchors).__name__}.")
    unknown = [g for g in anchors.precision.index if g not in rates.index]
    if unknown:
        raise ValueError(f"anchors name generator(s) {unknown} that are not in the matrix.")
    for name in ("tpr", "tnr"):
        unknown = [v for v in getattr(anchors, name).index if v not in rates.columns]
        if unknown:
            raise ValueError(
                f"{name} anchors name validator(s) {unknown} that are not in the matrix."
            )


def _default_n(anchors: Anchors, n: pd.DataFrame | None) -> float:
    """Items assumed behind a value that came without its count (equal weights).

    The median items behind the precision anchors (a generator's items), else the
    median items behind an observed cell, else 1 (the scale then does not matter).
    """
    if anchors.precision_n is not None and len(anchors.precision_n):
        return float(np.median(anchors.precision_n.to_numpy()))
    if n is not None:
        positive = n.to_numpy(dtype=float)
        positive = positive[positive > 0]
        if positive.size:
            return float(np.median(positive))
    return 1.0


def _build_data(
    rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors, equal_n: float = 1.0
) -> LatentData:
    values = rates.to_numpy(dtype=float)
    rows, cols = np.nonzero(~np.isnan(values))
    rate = values[rows, cols]
    cell_n = np.full(rate.shape, equal_n) if n is None else n.to_numpy(dtype=float)[rows, cols]
    gen_pos = {g: i for i, g in enumerate(rates.index)}
    val_pos = {v: j for j, v in enumerate(rates.columns)}
    pooled_gen = np.zeros(len(rates.index), dtype=bool)
    for g in anchors.pooled_from:
        if g in gen_pos:
            pooled_gen[gen_pos[g]] = True
    pooled_val = np.zeros(len(rates.columns), dtype=bool)
    for name in ("tpr_n", "tnr_n"):
        counted = getattr(anchors, name)
        if counted is not None:
            for v in counted.index:
                pooled_val[val_pos[v]] = True
    in_likelihood = ~(pooled_gen[rows] & pooled_val[cols])

    def block(
        values: pd.Series, counts: pd.Series | None, pos: dict[Any, int]
    ) -> tuple[np.ndarray, ...]:
        idx = np.array([pos[k] for k in values.index], dtype=np.int64)
        m = np.full(len(values), equal_n) if counts is None else counts.to_numpy(dtype=float)
        return idx, values.to_numpy(dtype=float), m

    g_idx, g_val, g_n = block(anchors.precision, anchors.precision_n, gen_pos)
    tpr_idx, tpr_val, tpr_n = block(anchors.tpr, anchors.tpr_n, val_pos)
    tnr_idx, tnr_val, tnr_n = block(anchors.tnr, anchors.tnr_n, val_pos)
    return LatentData(
        n_gen=len(rates.index),
        n_val=len(rates.columns),
        rows=rows,
        cols=cols,
        rate=rate,
        n=cell_n,
        in_likelihood=in_likelihood,
        g_idx=g_idx,
        g_val=g_val,
        g_n=g_n,
        tpr_idx=tpr_idx,
        tpr_val=tpr_val,
        tpr_n=tpr_n,
        tnr_idx=tnr_idx,
        tnr_val=tnr_val,
        tnr_n=tnr_n,
    )
