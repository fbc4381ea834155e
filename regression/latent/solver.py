"""Minimising a latent-trait loss: settings, starts, restarts, the best pick and the fit check.

:class:`Solver` holds the settings of a fit (loss, lambdas, restarts, start,
backend, gradient, tolerances, seed) and minimises the loss of one or many
:class:`~regression.latent.data.LatentData` problems: the restarts of one fit,
the constrained refits of the profile likelihood, the calibration subsets of a
leave-s-out run and the replicates of a bootstrap all go through
:meth:`Solver.solve`. :class:`~regression.latent.model.LatentTraitModel` is a
Solver with the public fitting methods.

The losses are those of :mod:`regression.latent.losses` (agreeableness paper,
App. C.4, eqs. (11)-(13), and the binomial likelihood); the starts follow
App. D (g = row means, TPR = TNR = 1) or the paper's released code (TPR = TNR
= 0.5), the restarts add the released code's jitter.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy import special
from scipy.optimize import minimize
from tqdm.auto import tqdm

from regression.checks import SeedLike
from regression.data.anchors import Anchors
from regression.errors import ConvergenceWarning, MisfitWarning, UnidentifiedWarning
from regression.latent.data import LatentData, latent_data
from regression.latent.losses import likelihood_loss, paper_loss, predicted_rates, split_theta
from regression.progress import show_progress
from regression.registry import BACKENDS, DEFAULT_RESTARTS
from regression.settings import Interval, Options, Settings

__all__ = [
    "BACKENDS",
    "TORCH_MISSING",
    "GRADIENTS",
    "LOSSES",
    "MISFIT_P_VALUE",
    "STARTS",
    "ConvergenceWarning",
    "MisfitWarning",
    "Restarts",
    "require_torch",
    "Solver",
    "UnidentifiedWarning",
    "pearson_dispersion",
    "select_best",
]

LOSSES = ("likelihood", "paper")
STARTS = ("paper", "released")
GRADIENTS = ("exact", "released")
#: Parameters of the likelihood stay this far inside (0, 1) so that every log is finite.
LIKELIHOOD_MARGIN = 1e-6
#: The released code's start jitter: uniform(-eps/2, eps/2) on g and on v+ / v-.
JITTER_G, JITTER_V = 1e-3, 1e-2
#: Two restarts "converged to the best" when their losses differ by at most this (relative).
SAME_OPTIMUM_RTOL = 1e-6
#: The fit warns of misfit when Pearson's chi-square test rejects the model at this level.
MISFIT_P_VALUE = 1e-3


def pearson_dispersion(theta: np.ndarray, data: LatentData) -> tuple[float, float]:
    """Pearson dispersion of the data and the p-value of the chi-square goodness-of-fit test.

    ``chi2 = sum (k - n p)^2 / (n p (1 - p))`` over every binomial observation
    the likelihood uses: the cells (``p = P_hat``, eq. (1)) and the anchors
    (the calibration generators' human precision with ``p = g``, the pooled
    TPR / TNR counts with ``p = v+ / v-``); ``df = observations - parameters``.
    The dispersion ``chi2 / df`` is about 1 when eq. (1) holds with fixed TPR /
    TNR. The anchors count as observations because they are: leaving them out
    (cells only) leaves ``cells - parameters`` degrees of freedom, which on a
    small matrix is near 0 and makes a model that holds look misfitted.
    """
    keep = data.in_likelihood & (data.n > 0)
    hat = np.clip(predicted_rates(theta, data)[keep], 1e-12, 1 - 1e-12)
    n = data.n[keep]
    chi2 = float(np.sum(n * (data.rate[keep] - hat) ** 2 / (hat * (1 - hat))))
    observations = int(keep.sum())
    g, tpr, tnr = split_theta(theta, data.n_gen)
    for model, idx, value, count in (
        (g, data.g_idx, data.g_val, data.g_n),
        (tpr, data.tpr_idx, data.tpr_val, data.tpr_n),
        (tnr, data.tnr_idx, data.tnr_val, data.tnr_n),
    ):
        used = count > 0
        p = np.clip(model[idx[used]], 1e-12, 1 - 1e-12)
        chi2 += float(np.sum(count[used] * (value[used] - p) ** 2 / (p * (1 - p))))
        observations += int(used.sum())
    df = max(observations - data.n_params, 1)
    return chi2 / df, float(special.chdtrc(df, chi2))  # scipy.stats.chi2.sf, which calls it


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


#: What a user without PyTorch is told: the torch backend is an extra of the install.
TORCH_MISSING = (
    "backend='torch' (--backend torch) needs PyTorch, an optional extra of jurycal: "
    "pip install 'jurycal[torch]' (or use the default backend, scipy)."
)


def require_torch() -> None:
    """Raise ``ModuleNotFoundError`` naming the ``jurycal[torch]`` extra when torch is not installed.

    Only the torch backend imports torch; the check looks for it without importing it.
    """
    from importlib.util import find_spec

    if find_spec("torch") is None:
        raise ModuleNotFoundError(TORCH_MISSING, name="torch")


@dataclass(frozen=True, eq=False)
class Restarts:
    """Every restart of one fit and the one kept.

    Attributes
    ----------
    thetas : ndarray
        ``(n_restarts, n_params)`` final parameters of every restart.
    losses : ndarray
        The final loss of every restart.
    converged : ndarray of bool
        Whether each restart met the optimiser's convergence test.
    messages : list of str
        The optimiser's message per restart.
    best : int
        The kept restart (lowest loss).
    theta : ndarray
        Its parameters, mirrored onto the mean-J > 0 branch when unanchored.
    """

    thetas: np.ndarray
    losses: np.ndarray
    converged: np.ndarray
    messages: list[str]
    best: int
    theta: np.ndarray

    @property
    def n_same(self) -> int:
        """Restarts whose loss is within a relative 1e-6 of the best."""
        best = self.losses[self.best]
        same = np.abs(self.losses - best) <= SAME_OPTIMUM_RTOL * max(1.0, abs(best))
        return int(same.sum())


class Solver(Settings):
    """The settings of a latent-trait fit and the minimisation of its loss.

    The parameters are those of :class:`~regression.latent.model.LatentTraitModel`,
    which documents them.
    """

    parameter_constraints = {
        "loss": [Options(LOSSES)],
        "start": [None, Options(STARTS)],
        "backend": [Options(BACKENDS)],
        "gradient": [Options(GRADIENTS)],
        "n_restarts": [Interval(numbers.Integral, 1, None)],
        "ftol": [None, Interval(numbers.Real, 0, None)],
        "gtol": [None, Interval(numbers.Real, 0, None)],
        "max_iter": [Interval(numbers.Integral, 1, None)],
    }

    def __init__(
        self,
        *,
        loss: str = "likelihood",
        lambdas: tuple[float, float, float] = (2.0, 1.0, 10.0),
        n_restarts: int = DEFAULT_RESTARTS,
        start: str | None = None,
        backend: str = BACKENDS[0],
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

    # ------------------------------------------------------------------ settings
    def check_settings(self) -> None:
        """Raise a ``ValueError`` naming the first setting that is not recognized or clashes.

        Each setting against :attr:`parameter_constraints` (an
        :class:`~regression.errors.InputError`), then the settings that clash.
        """
        super().check_settings()
        if self.gradient == "released" and self.loss != "paper":
            raise ValueError("gradient='released' exists only for loss='paper'.")
        if self.gradient == "released" and self.backend != "scipy":
            raise ValueError(
                "gradient='released' follows scipy's L-BFGS-B path; use backend='scipy'."
            )
        if self.backend == "torch":
            require_torch()
        lambdas = np.asarray(self.lambdas, dtype=float)
        if lambdas.shape != (3,) or not np.all(np.isfinite(lambdas) & (lambdas >= 0)):
            raise ValueError(f"lambdas ({self.lambdas!r}) must be three finite numbers >= 0.")

    @property
    def start_name(self) -> str:
        """The start in use: ``start``, or the loss's default when it is None."""
        if self.start is not None:
            return self.start
        return "paper" if self.loss == "paper" else "released"

    def lambda_values(self) -> tuple[float, float, float]:
        """``(lambda_g, lambda_v+, lambda_v-)`` as floats."""
        lg, lp, ln = (float(x) for x in self.lambdas)
        return lg, lp, ln

    @property
    def bounds(self) -> tuple[float, float]:
        """The box the parameters live in: [0, 1] for the paper, just inside it for the likelihood."""
        if self.loss == "likelihood":
            return LIKELIHOOD_MARGIN, 1.0 - LIKELIHOOD_MARGIN
        return 0.0, 1.0

    def tolerances(self) -> tuple[float, float]:
        """``(ftol, gtol)``: the given ones, else the loss's defaults."""
        if self.loss == "paper":
            return (
                2.220446049250313e-09 if self.ftol is None else self.ftol,
                1e-5 if self.gtol is None else self.gtol,
            )
        return (1e-13 if self.ftol is None else self.ftol, 1e-9 if self.gtol is None else self.gtol)

    # ------------------------------------------------------------------ data and starts
    def data(self, rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors) -> LatentData:
        """The :class:`LatentData` of checked inputs (see :func:`regression.latent.data.latent_data`)."""
        return latent_data(rates, n, anchors)

    def starts(self, data: LatentData, rng: Any) -> np.ndarray:
        """The ``n_restarts`` starting points, one per row: the first start, then jittered copies."""
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
            out[r] = self.into_box(x)
        return out

    def first_start(self, data: LatentData) -> np.ndarray:
        """The start without jitter: g = row means, TPR = TNR = 1 (``"paper"``) or 0.5."""
        sums = np.bincount(data.rows, weights=data.rate, minlength=data.n_gen)
        cells = np.bincount(data.rows, minlength=data.n_gen)
        v0 = 1.0 if self.start_name == "paper" else 0.5
        return self.into_box(
            np.concatenate([sums / np.maximum(cells, 1), np.full(2 * data.n_val, v0)])
        )

    def into_box(self, x: np.ndarray) -> np.ndarray:
        """``x`` clipped into [0, 1], and for the likelihood 1e-3 inside it."""
        x = np.clip(x, 0.0, 1.0)
        return np.clip(x, 1e-3, 1 - 1e-3) if self.loss == "likelihood" else x

    # ------------------------------------------------------------------ minimising
    def restarts(
        self, data: LatentData, rng: Any, extra_start: np.ndarray | None = None
    ) -> Restarts:
        """Minimise from every start of :meth:`starts` (the first replaced by ``extra_start``)."""
        starts = self.starts(data, rng)
        if extra_start is not None:
            starts[0] = np.clip(extra_start, *self.bounds)
        thetas, losses, converged, messages = self.solve([data] * len(starts), starts)
        best, theta = select_best(thetas, losses, data)
        return Restarts(thetas, losses, converged, messages, best, theta)

    def solve(
        self,
        datas: Sequence[LatentData],
        starts: np.ndarray,
        bounds: tuple[np.ndarray, np.ndarray] | None = None,
        *,
        progress: bool | None = False,
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
        """Minimise the loss of ``datas[b]`` from ``starts[b]`` for every b.

        Parameters
        ----------
        datas : sequence of LatentData
            The problems; the torch backend needs them to share their cells.
        starts : ndarray
            ``(len(datas), n_params)``, clipped into ``bounds``.
        bounds : (ndarray, ndarray), optional
            Per-problem boxes ``(lower, upper)`` shaped like ``starts``
            (``lower == upper`` holds a coordinate fixed, as the profile
            likelihood does); default the model's box for every coordinate.
        progress : bool or None
            A progress bar over the problems (scipy backend; the torch backend
            solves them as one batch). None: only when stderr is a terminal.

        Returns
        -------
        (thetas, losses, converged, messages)
            Per problem: the final parameters, loss, convergence flag and the
            optimiser's message.
        """
        if bounds is None:
            bounds = (np.full(starts.shape, self.bounds[0]), np.full(starts.shape, self.bounds[1]))
        lower, upper = bounds
        starts = np.clip(starts, lower, upper)
        ftol, gtol = self.tolerances()
        if self.backend == "torch":
            require_torch()
            from regression.latent.torch_backend import solve_batch

            return solve_batch(
                datas,
                starts,
                loss=self.loss,
                lambdas=self.lambda_values(),
                bounds=(lower, upper),
                ftol=ftol,
                gtol=gtol,
                max_iter=self.max_iter,
            )
        thetas = np.empty_like(starts)
        losses = np.empty(len(starts))
        converged = np.empty(len(starts), dtype=bool)
        messages = []
        problems = zip(datas, starts, strict=True)
        bar = tqdm(problems, total=len(starts), disable=not show_progress(progress), desc="fits")
        for b, (data, x0) in enumerate(bar):
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
        """``theta -> (loss, gradient)`` for this solver's loss on ``data``."""
        if self.loss == "likelihood":
            return lambda theta: likelihood_loss(theta, data)
        lambdas = self.lambda_values()
        gradient = self.gradient
        return lambda theta: paper_loss(theta, data, lambdas, gradient)
