"""The result of a latent-trait fit: estimates, intervals and tables.

:class:`LatentTraitResult` holds the precision g per generator and the TPR /
TNR per validator (agreeableness paper, section 5.1, eq. (1)), the fit's
diagnostics, and what the fit was given (:class:`~regression.latent.inputs.FitInputs`), from
which its bootstrap and profile intervals re-solve the loss on replicate data. The fit
itself, and a fit with new generators started from a result, is in :mod:`regression.latent.fit`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import SeedLike, as_rng, check_alpha, check_alternative, check_n_boot
from regression.latent.bootstrap import count_replicates, percentile_ends, replicate_precisions
from regression.latent.data import LatentData
from regression.latent.inputs import FitInputs
from regression.latent.items import draw_item_weights, item_replicates
from regression.latent.profile import profile_interval
from regression.latent.solver import (
    Solver,
)
from regression.ranking import Ranked
from regression.registry import DEFAULT_N_BOOT, INTERVAL_METHODS
from regression.results import JointError, Result, interval_frame, with_roles

__all__ = ["INTERVAL_METHODS", "LatentTraitResult"]


@dataclass(frozen=True, eq=False)
class LatentTraitResult(Ranked, Result):
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
    model: Solver | None = field(default=None, repr=False)
    inputs: FitInputs | None = field(default=None, repr=False)

    #: The keyword options :meth:`summary` passes to :meth:`to_frame`, beyond ``alpha``: the
    #: interval's settings among them (the CLI reads this).
    JOINT_OPTIONS: ClassVar[tuple[str, ...]] = ("method", "n_boot", "progress")
    SUMMARY_OPTIONS: ClassVar[tuple[str, ...]] = (
        "truth",
        "method",
        "n_boot",
        "seed",
        "calibration",
        "progress",
    )

    @property
    def youden_j(self) -> pd.Series:
        """Youden's J = TPR + TNR - 1 per validator."""
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

    def interval(
        self,
        alpha: float = 0.05,
        *,
        method: str | None = "auto",
        n_boot: int = DEFAULT_N_BOOT,
        seed: SeedLike = 0,
        alternative: str = "two-sided",
        quasi: bool = True,
        progress: bool | None = None,
    ) -> pd.DataFrame:
        """Per-generator confidence intervals for the precision g.

        Parameters
        ----------
        alpha : float
            1 - confidence level.
        method : {"auto", "profile", "parametric", "nonparametric", "items"} or None
            None: no interval (``low`` and ``high`` NaN; quick). ``"auto"`` (default): ``"profile"`` for an anchored likelihood fit,
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
        progress : bool or None
            A progress bar over the bootstrap refits (scipy backend). None:
            only when stderr is a terminal.

        Returns
        -------
        DataFrame
            Index: generators; the contract's columns (:func:`regression.results.interval_frame`):
            ``estimate, low, high, method`` (the fit's loss), ``role`` and
            ``n_labels``. :meth:`interval_method` names the interval method and
            :meth:`interval_covers` says what it covers.

        Raises
        ------
        ValueError
            A method not recognized; ``n_boot`` outside
            :func:`regression.checks.check_n_boot`'s range; ``"profile"`` on a paper-loss
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
        unlabelled generator's interval is wide and skewed where TPR + TNR - 1
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
        if method is None:
            nan = np.full(len(self.precision), np.nan)
            return self._interval_table(nan, nan)
        method = self.interval_method(method)
        model, inputs = self._require_refit_state()
        data = inputs.data()
        if method == "profile":
            return self._profile(model, data, alpha, alternative, quasi)
        datas = self._replicates(method, n_boot, seed)
        low, high = percentile_ends(model, datas, self.theta, alpha, alternative, progress=progress)
        return self._interval_table(low, high)

    def _replicates(self, method: str, n_boot: int, seed: SeedLike) -> list[LatentData]:
        """The bootstrap data sets of ``method`` ("parametric", "nonparametric" or "items")."""
        n_boot = check_n_boot(n_boot)
        rng = as_rng(seed)
        _, inputs = self._require_refit_state()
        data = inputs.data()
        if method == "items":
            if inputs.items is None:
                raise ValueError(
                    "method='items' resamples items, so it needs the item-level votes; this "
                    "result does not keep them (it was fitted from a matrix with fit(), or "
                    "extended with add_generators()). Fit with LatentTraitModel.fit_table("
                    "judgments, human_labels, calibration_generators) to use it."
                )
            weights = draw_item_weights(inputs.items, n_boot, rng)
            return item_replicates(data, inputs.items, weights)
        return count_replicates(data, self.theta, method, n_boot, rng)

    def joint_error(
        self,
        *,
        method: str | None = None,
        n_boot: int = DEFAULT_N_BOOT,
        seed: SeedLike = 0,
        progress: bool | None = None,
    ) -> JointError:
        """The joint law of the generators' errors, from one bootstrap of the whole fit.

        Each replicate refits every generator at once, so the draws
        ``ghat* - ghat`` keep how the estimates move together (shared anchors,
        shared judges); :meth:`compare` and :meth:`rank_sets` use them.

        Parameters
        ----------
        method : {"items", "parametric", "nonparametric"}, optional
            As in :meth:`interval`; default ``"items"`` for a fit by
            :meth:`LatentTraitModel.fit_table` (it keeps the item votes), else
            ``"parametric"`` for the likelihood and ``"nonparametric"`` for the
            paper loss. What each covers: :meth:`interval_covers`.
        n_boot : int
        seed : int, Generator or None
        progress : bool or None

        Raises
        ------
        ValueError
            An unknown method, or ``"items"`` on a fit without item votes.
        """
        if method is None:
            has_items = self.inputs is not None and self.inputs.items is not None
            method = "items" if has_items else self.interval_method("auto")
            if method == "profile":
                method = "parametric"
        if method not in ("items", "parametric", "nonparametric"):
            raise ValueError(
                f"method ({method!r}) not recognized; the joint error is a bootstrap: "
                "'items', 'parametric' or 'nonparametric'."
            )
        model, _ = self._require_refit_state()
        datas = self._replicates(method, n_boot, seed)
        boot = replicate_precisions(model, datas, self.theta, progress=progress)
        draws = boot - self.precision.to_numpy()[None, :]
        index = pd.Index(self.precision.index, name="generator")
        return JointError(
            estimate=pd.Series(self.precision.to_numpy(), index=index, name="estimate"),
            covariance=pd.DataFrame(np.cov(draws, rowvar=False), index=index, columns=index),
            draws=draws,
            covers=self.interval_covers(method, n_boot=n_boot),
        )

    def _interval_table(self, low: np.ndarray, high: np.ndarray) -> pd.DataFrame:
        anchors = self.inputs.anchors if self.inputs is not None else None
        calibration = set(anchors.calibration_generators) if anchors is not None else set()
        labels = (
            anchors.precision_n
            if anchors is not None and anchors.precision_n is not None
            else pd.Series(dtype=float)
        )
        generators = self.precision.index
        return interval_frame(
            generators,
            self.precision.to_numpy(),
            low,
            high,
            self.method,
            role=["calibration" if g in calibration else "unlabelled" for g in generators],
            n_labels=labels.reindex(generators).fillna(0).to_numpy(),
        )

    @property
    def method(self) -> str:
        """The estimator's name: the loss, ``"likelihood"`` or ``"paper"``."""
        return self.loss_name

    @property
    def covers(self) -> str:
        """What the default interval (:meth:`interval_method` ``"auto"``) covers."""
        return self.interval_covers()

    def interval_covers(
        self, method: str = "auto", *, n_boot: int = DEFAULT_N_BOOT, quasi: bool = True
    ) -> str:
        """What :meth:`interval` with these settings covers, in a sentence."""
        method = self.interval_method(method)
        if method == "profile":
            phi = max(1.0, self.dispersion) if quasi and np.isfinite(self.dispersion) else 1.0
            scale = (
                f"deviance scaled by the Pearson dispersion {phi:.2f} (quasi-likelihood)"
                if phi > 1
                else "no dispersion scaling"
            )
            return (
                f"profile-likelihood intervals ({scale}): item sampling given the model, "
                "widened for extra-binomial noise; a systematic generator-specific TPR / TNR "
                "can still put the truth outside"
            )
        if method == "items":
            return (
                f"item bootstrap intervals ({n_boot} replicates resampling each "
                "generator's items with replacement, every cell, anchor and human precision "
                "recomputed from them): item sampling, including the correlation of one item's "
                "votes across validators and the items the anchors share with the cells; "
                "not model misfit (a generator-specific TPR / TNR)"
            )
        source = "the fit" if method == "parametric" else "the observed proportions"
        return (
            f"bootstrap intervals ({n_boot} replicates redrawing every count from "
            f"{source}): item sampling within cells and calibration sampling; not model misfit, "
            "not item correlation across validators"
        )

    def diagnostics(self) -> pd.DataFrame:
        """The fit's own checks, one row: training loss, convergence, restarts, dispersion."""
        return pd.DataFrame(
            {
                "loss": [self.loss_name],
                "training_loss": [self.loss],
                "converged": [self.converged],
                "restarts_at_best": [self.n_restarts_converged_to_best],
                "restarts": [self.n_restarts],
                "dispersion": [self.dispersion],
            }
        )

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
        model: Solver,
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
        return self._interval_table(low, high)

    def details(
        self,
        alpha: float = 0.05,
        *,
        truth: pd.Series | None = None,
        calibration: Iterable[str] | None = None,
    ) -> pd.DataFrame:
        """Per generator: role, human precision, items and error (:func:`~regression.results.with_roles`).

        Parameters
        ----------
        truth : Series, optional
            Human-labelled precision per generator where known (e.g.
            ``human_labels.groupby("generator")["human"].mean()``). Default: the
            precision anchors of the calibration generators.
        calibration : iterable of str, optional
            The generators whose human labels anchor the fit; default those
            with a precision anchor.

        Returns
        -------
        DataFrame
            Index: generators; ``role`` (``calibration``: its human labels anchor
            the fit; ``held out``: human precision the fit did not use, its error
            an honest check; ``unlabelled``), ``human`` (NaN where unknown), ``n``
            (the most items any validator labelled for the generator; NaN without
            counts) and ``abs_error`` (held-out generators only).
        """
        anchored = list(self.inputs.anchors.calibration_generators) if self.inputs else []
        chosen = anchored if calibration is None else list(calibration)
        if truth is None:
            truth = self.inputs.anchors.precision if self.inputs else pd.Series(dtype=float)
        table = pd.DataFrame(
            {"generator": self.precision.index, "estimate": self.precision.to_numpy()}
        )
        n = None if self.inputs is None else self.inputs.n
        table = with_roles(table, truth, n, chosen).set_index("generator")
        return table[["role", "human", "n", "abs_error"]]

    ESTIMATES: ClassVar[str] = "precision"
    INTERVAL_OPTIONS: ClassVar[tuple[str, ...]] = ("method", "n_boot", "seed", "progress")

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"Latent-trait regression ({self.loss_name} loss)"

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The fit in a sentence, and what the interval of ``options`` covers (:meth:`interval_covers`).

        :meth:`summary` passes its keywords to :meth:`to_frame` (``method=None``: no
        interval, which is quicker) and here.
        """
        method = options.get("method", "auto")
        return (
            f"Latent-trait fit ({self.loss_name} loss): training loss {self.loss:.4f}, "
            f"converged {self.converged}, {self.n_restarts_converged_to_best} of "
            f"{self.n_restarts} restarts at the best loss, Pearson dispersion "
            f"{self.dispersion:.2f} (about 1 when the model holds).",
            "No intervals were computed."
            if method is None
            else f"{1 - alpha:.0%} intervals: "
            + self.interval_covers(method, n_boot=options.get("n_boot", DEFAULT_N_BOOT))
            + ".",
        )

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The validators' TPR, TNR and J, and the fit's :meth:`diagnostics`."""
        validators = pd.DataFrame({"tpr": self.tpr, "tnr": self.tnr, "youden_j": self.youden_j})
        return {"validators": validators, "fit": self.diagnostics()}

    def _require_refit_state(self) -> tuple[Solver, FitInputs]:
        if self.model is None or self.inputs is None:
            raise ValueError(
                "this result does not keep its inputs; refit with LatentTraitModel.fit."
            )
        return self.model, self.inputs
