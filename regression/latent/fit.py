"""The latent-trait fit: every restart of a solver on checked inputs, and the result it keeps.

:func:`fit_result` runs the restarts of a :class:`~regression.latent.solver.Solver`
(agreeableness paper, section 5.1) and describes the kept one as a
:class:`~regression.latent.result.LatentTraitResult`, with a note and a warning
for an unanchored fit, a validator no better than chance, misfit or no
convergence; :class:`~regression.latent.model.LatentTraitModel` calls it.
:func:`add_generators` fits a result's inputs with new rows, warm-started from it.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import pandas as pd

from regression.checks import as_rng
from regression.data.anchors import Anchors
from regression.data.matrix import check_anchor_labels, check_new_rows, default_n
from regression.labels.design import LabelDesign
from regression.latent.inputs import FitInputs
from regression.latent.items import ItemVotes, encode_items
from regression.latent.losses import split_theta
from regression.latent.result import LatentTraitResult
from regression.latent.solver import (
    MISFIT_P_VALUE,
    ConvergenceWarning,
    MisfitWarning,
    Solver,
    UnidentifiedWarning,
    pearson_dispersion,
)

__all__ = ["add_generators", "fit_result"]


def fit_result(
    solver: Solver,
    rates: pd.DataFrame,
    n: pd.DataFrame | None,
    anchors: Anchors,
    *,
    extra_start: np.ndarray | None = None,
    items: ItemVotes | None = None,
) -> LatentTraitResult:
    """Fit checked inputs with every restart of ``solver`` and describe the kept one.

    Parameters
    ----------
    solver : Solver
        The settings (a :class:`~regression.latent.model.LatentTraitModel`);
        a copy is kept on the result for refits.
    rates, n : DataFrame
        As :func:`~regression.latent.data.matrix_inputs` returns them.
    anchors : Anchors
    extra_start : ndarray, optional
        Replaces the first start (a warm start from an earlier fit).
    items : ItemVotes, optional
        The encoded votes, kept for the item bootstrap.

    Returns
    -------
    LatentTraitResult
        With a note (and a warning) for an unanchored fit, a validator with
        J <= 0, misfit (Pearson chi-square p < 1e-3) or no convergence.

    Raises
    ------
    ValueError
        Bad settings, or anchors naming generators or validators not in ``rates``.
    """
    solver.check_settings()
    check_anchor_labels(anchors, rates)
    data = solver.data(rates, n, anchors)
    fitted = solver.restarts(data, as_rng(solver.seed), extra_start)
    best, theta, losses = fitted.best, fitted.theta, fitted.losses
    converged, messages = fitted.converged, fitted.messages
    notes = list(anchors.notes)
    if solver.loss == "likelihood" and n is None:
        notes.append(
            "no counts given: every cell weighs the same (as if backed by "
            f"{default_n(anchors, n):g} items); pass counts to weight cells by their items."
        )
    if solver.loss == "likelihood" and not anchors.is_empty and not anchors.has_counts:
        notes.append(
            "anchors without counts: each anchor value is treated as backed by "
            f"{default_n(anchors, n):g} items; build them with Anchors.from_confusion or "
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
        n_restarts_converged_to_best=fitted.n_same,
        n_restarts=len(losses),
        restart_losses=losses,
        loss_name=solver.loss,
        equal_weights=n is None,
        warnings=tuple(notes),
        message=messages[best],
        dispersion=dispersion,
        model=copy.copy(solver),
        inputs=FitInputs(rates, n, anchors, n is None, items),
    )


def add_generators(
    solver: Solver,
    result: LatentTraitResult,
    rates: pd.DataFrame,
    counts: pd.DataFrame | None = None,
    *,
    design: LabelDesign | None = None,
) -> LatentTraitResult:
    """Estimate new, unlabelled generators: ``result``'s inputs with their rows, refit (section 5.1).

    Parameters
    ----------
    solver : Solver
        The settings (a :class:`~regression.latent.model.LatentTraitModel`).
    result : LatentTraitResult
        A fit that kept its inputs; the refit starts from its estimates (the
        new generators from their row means) with its anchors.
    rates : DataFrame
        New rows (generators) x validators of the fraction labelled valid (NaN = absent).
        Validators must be among the fitted ones.
    counts : DataFrame, optional
        Items behind each new rate; required when the original fit had counts.
    design : LabelDesign, optional
        The :class:`~regression.labels.design.LabelDesign` of the whole
        table (the fitted generators and the new ones), for a fit that keeps
        its item votes (:meth:`LatentTraitModel.fit_table`): the refit keeps
        them too, so ``interval(method="items")`` still works.

    Returns
    -------
    LatentTraitResult
        A fit on all rows.

    Raises
    ------
    ValueError
        A result without its inputs, a generator already in the fit, an
        unknown validator, or counts given (or missing) where the original fit
        had none (or had them).
    """
    inputs = result.inputs
    if inputs is None:
        raise ValueError("this result does not keep its inputs; refit with LatentTraitModel.fit.")
    check_new_rows(rates, inputs.rates)
    if inputs.equal_weights:
        if counts is not None:
            raise ValueError("the original fit had no counts; give none for the new rows either.")
        new_n = None
    else:
        if counts is None:
            raise ValueError("the original fit had counts; give counts for the new rows too.")
        assert inputs.n is not None  # a fit with counts keeps them
        new_n = pd.concat([inputs.n, counts.reindex(columns=inputs.rates.columns)])
    new_rates = pd.concat([inputs.rates, rates.reindex(columns=inputs.rates.columns)])
    start = pd.concat([result.precision, rates.reindex(columns=inputs.rates.columns).mean(axis=1)])
    warm = np.concatenate([start.to_numpy(), result.tpr.to_numpy(), result.tnr.to_numpy()])
    items = None
    if design is not None and inputs.items is not None:
        shared = inputs.items.item_key is not None
        items, _ = encode_items(design.encoded, new_rates, shared_items=shared)
    return fit_result(solver, new_rates, new_n, inputs.anchors, extra_start=warm, items=items)
