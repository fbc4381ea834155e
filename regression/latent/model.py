"""The latent-trait model over the generator x validator matrix (agreeableness paper, section 5).

Each generator i has a precision g_i (the share of its outputs that are valid);
each validator j a TPR v+_j and a TNR v-_j. A validator calls an output of
generator i valid with probability (section 5.1, eq. (1); App. C.2, eq. (8))

    P_hat[i, j] = g_i v+_j + (1 - g_i)(1 - v-_j).

:class:`LatentTraitModel` fits g, v+ and v- to the observed matrix, anchored by
human labels on a few "calibration" generators, with one of two losses (for
new generators whose judges move between generators, the default estimator is
:class:`~regression.transfer.model.TransferModel`: ``docs/new-generators.md``):

* ``loss="paper"``: App. C.4, eqs. (11)-(13): mean BCE over the observed cells
  plus lambda-weighted RMSEs pulling g (calibration generators), v+ and v- towards
  their anchors; L-BFGS-B in the box [0, 1].
* ``loss="likelihood"``: the binomial log-likelihood of the counts
  behind every cell plus the calibration data (human labels ~ g on calibration
  generators; each validator's votes on human-valid / human-invalid items ~
  v+ / 1 - v-). Cells backed by more items weigh more, and the anchors are data
  with their own sample sizes instead of penalties with hand-tuned weights.

The model is a :class:`~regression.latent.solver.Solver` (its settings and
minimisation) with the two ways in: :meth:`LatentTraitModel.fit` (a matrix) and
:meth:`LatentTraitModel.fit_table` (the judgments table).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from regression.data.anchors import Anchors
from regression.data.counts import Counts, counts_from_encoded
from regression.data.judgments import EncodedJudgments, HumanLabels, encode_judgments
from regression.data.matrix import matrix_inputs
from regression.labels.design import LabelDesign
from regression.latent.fit import add_generators, fit_result
from regression.latent.items import encode_items
from regression.latent.result import LatentTraitResult
from regression.latent.solver import Solver

__all__ = ["LatentTraitModel"]


class LatentTraitModel(Solver):
    """Latent-trait regression g, v+, v- over a generator x validator matrix.

    Parameters
    ----------
    loss : {"likelihood", "paper"}
        ``"likelihood"`` (default): joint binomial likelihood of the counts and the
        calibration data (eq. (1) with fixed TPR / TNR). ``"paper"``: App. C.4,
        eqs. (11)-(13).
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
    >>> from regression.datasets import load_confusion, load_human_precision, load_validator_rates
    >>> rates = load_validator_rates("none")
    >>> truth = load_human_precision()
    >>> anchors = Anchors.from_confusion(load_confusion("none"), ["gpt-4o", "gpt-4-turbo"],
    ...                                  precision=truth[["gpt-4o", "gpt-4-turbo"]])
    >>> result = LatentTraitModel(loss="paper", n_restarts=3).fit(rates, anchors=anchors)
    >>> round(float(result.precision["gpt-4o"]), 2)
    0.94
    """

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
            :class:`~regression.data.counts.Counts` gives rates and counts at once.
        counts : DataFrame or Counts, optional
            The items behind each rate (``n_labelled``). Without them the
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
        self.check_settings()
        table, n = matrix_inputs(rates, counts)
        return fit_result(self, table, n, Anchors() if anchors is None else anchors)

    def fit_table(
        self,
        judgments: pd.DataFrame | LabelDesign,
        human_labels: pd.DataFrame | HumanLabels | None = None,
        calibration_generators: Iterable[str] | None = None,
        *,
        shared_items: bool = False,
    ) -> LatentTraitResult:
        """Fit from the judgments table and human labels, each checked once.

        Parameters
        ----------
        judgments : DataFrame or LabelDesign
            ``generator, item, validator, label`` (see
            :func:`~regression.data.judgments.encode_judgments`), or the
            :class:`~regression.labels.design.LabelDesign` of both tables,
            already checked and encoded (then no ``human_labels``).
        human_labels : DataFrame or HumanLabels, optional
            ``generator, item, human``.
        calibration_generators : iterable of str, optional
            The generators whose human labels anchor the fit; default every
            generator with human labels.
        shared_items : bool
            An item id names the same prompt for every generator (all answered
            one benchmark). The joint error then keeps the pairing: the item
            bootstrap redraws prompts (:func:`~regression.latent.items.draw_item_weights`),
            and the transfer estimator pairs the calibration generators' labels
            (:func:`~regression.data.anchors.paired_precision_correlation`).

        Returns
        -------
        LatentTraitResult
            Keeps the encoded votes, so ``interval(method="items")`` works.

        Raises
        ------
        ValueError
            Bad settings, a bad judgments table or bad human labels (one error,
            naming the first offending value and its row),
            ``calibration_generators`` without ``human_labels``, or a
            calibration generator without human or validator labels.

        Notes
        -----
        The table is encoded once (:func:`~regression.data.judgments.encode_judgments`);
        the counts (:func:`~regression.data.counts.counts_from_encoded`), the
        anchors (:meth:`Anchors.from_encoded`) and the item codes of the item
        bootstrap (:func:`~regression.latent.items.encode_items`) derive from it.
        """
        self.check_settings()
        designed = isinstance(judgments, LabelDesign)
        if designed and human_labels is not None:
            raise ValueError("give a LabelDesign alone: it already holds the human labels.")
        if not designed and human_labels is None:
            if calibration_generators:
                raise ValueError("calibration_generators given without human_labels.")
        if isinstance(judgments, LabelDesign):
            return self._fit_encoded(judgments.encoded, calibration_generators, shared_items)
        encoded = encode_judgments(judgments, human_labels)
        return self._fit_encoded(encoded, calibration_generators, shared_items)

    def add_generators(
        self,
        result: Any,
        rates: pd.DataFrame,
        counts: pd.DataFrame | None = None,
        *,
        design: LabelDesign | None = None,
    ) -> LatentTraitResult:
        """Estimate new, unlabelled generators: ``result``'s inputs with their rows, fitted again.

        The fit starts from ``result``'s estimates (the new generators from
        their row means) with its anchors (section 5.1;
        :func:`regression.latent.fit.add_generators`).

        Parameters
        ----------
        result : LatentTraitResult
            A fit of this model (:meth:`fit` or :meth:`fit_table`).
        rates : DataFrame
            New rows (generators) x validators of the fraction labelled valid (NaN = absent).
        counts : DataFrame, optional
            Items behind each new rate; required when the original fit had counts.
        design : LabelDesign, optional
            The label design of the whole table, for a fit that keeps its item votes:
            the new fit keeps them too, so ``interval(method="items")`` still works.

        Raises
        ------
        ValueError
            Bad settings, a generator already in the fit, an unknown validator, or
            counts given (or missing) where the original fit had none (or had them).
        """
        self.check_settings()
        return add_generators(self, result, rates, counts, design=design)

    def _fit_encoded(
        self,
        encoded: EncodedJudgments,
        calibration_generators: Iterable[str] | None,
        shared_items: bool,
    ) -> LatentTraitResult:
        if encoded.human is None and calibration_generators:
            raise ValueError("calibration_generators given without human_labels.")
        counts = counts_from_encoded(encoded)
        anchors = (
            Anchors()
            if encoded.human is None
            else Anchors.from_encoded(encoded, calibration_generators, shared_items=shared_items)
        )
        items, _ = encode_items(encoded, counts.rates, shared_items=shared_items)
        return fit_result(self, counts.rates, counts.n_labelled.astype(float), anchors, items=items)
