"""The count bootstraps of a latent-trait fit and the percentile interval of any replicate set.

A replicate is a :class:`~regression.latent.data.LatentData` with redrawn
counts. The parametric bootstrap redraws every count from the fitted model
(agreeableness paper, section 5.1, eq. (1)): ``k_ij ~ Bin(n_ij, P_hat_ij)``
and the calibration counts from ``Bin(m_h, g_h)``, ``Bin(tp + fn, tpr_j)``,
``Bin(tn + fp, tnr_j)``; the nonparametric one draws the same counts from the
observed proportions. The item bootstrap (:mod:`regression.latent.items`)
builds its replicates from resampled items instead; all three are refitted
and summarised by :func:`percentile_ends`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from regression.latent.data import LatentData
from regression.latent.losses import predicted_rates, split_theta
from regression.latent.solver import Solver

__all__ = ["count_replicates", "percentile_ends", "replicate_precisions", "redraw_proportions"]


def redraw_proportions(rng: Any, n: np.ndarray, p: np.ndarray) -> np.ndarray:
    """Binomial proportions ``Bin(n, p) / n``; entries without a count stay at p."""
    n_int = np.rint(n).astype(np.int64)
    drawn = rng.binomial(np.maximum(n_int, 0), np.clip(p, 0.0, 1.0)) / np.maximum(n_int, 1)
    return np.where(n_int > 0, drawn, p)


def count_replicates(
    data: LatentData, theta: np.ndarray, method: str, n_boot: int, rng: Any
) -> list[LatentData]:
    """``n_boot`` replicates of ``data`` with every count redrawn.

    Parameters
    ----------
    data : LatentData
        The fitted problem.
    theta : ndarray
        The estimate; the parametric bootstrap draws from its rates (eq. (1)).
    method : {"parametric", "nonparametric"}
        Draw from the fitted rates and parameters, or from the observed
        proportions and anchor values.
    n_boot : int
        Replicates.
    rng : Generator or RandomState
        Consumed in the order cells, precision, TPR, TNR per replicate.

    Returns
    -------
    list of LatentData
    """
    if method == "parametric":
        cell_p = np.clip(predicted_rates(theta, data), 0.0, 1.0)
        g, tpr, tnr = split_theta(theta, data.n_gen)
        p_g, p_tpr, p_tnr = g[data.g_idx], tpr[data.tpr_idx], tnr[data.tnr_idx]
    else:
        cell_p, p_g, p_tpr, p_tnr = data.rate, data.g_val, data.tpr_val, data.tnr_val
    n_cell = np.rint(data.n).astype(np.int64)
    datas = []
    for _ in range(n_boot):
        rate = rng.binomial(n_cell, cell_p) / np.maximum(n_cell, 1)
        datas.append(
            replace(
                data,
                rate=rate,
                g_val=redraw_proportions(rng, data.g_n, p_g),
                tpr_val=redraw_proportions(rng, data.tpr_n, p_tpr),
                tnr_val=redraw_proportions(rng, data.tnr_n, p_tnr),
            )
        )
    return datas


def replicate_precisions(
    solver: Solver,
    datas: list[LatentData],
    theta: np.ndarray,
    *,
    progress: bool | None = False,
) -> np.ndarray:
    """Refit every replicate (one start each, one batch): ``(n_boot, n_gen)`` precisions.

    The likelihood refits from the estimate: its optimum is unique, so this
    only saves iterations. The paper loss refits from the replicate's own
    first start, as the estimator does: from the estimate, L-BFGS-B stalls at
    once on the RMSE kink and the unanchored generators' intervals collapse
    to a point.
    """
    if solver.loss == "likelihood":
        starts = np.repeat(theta[None, :], len(datas), axis=0)
    else:
        starts = np.stack([solver.first_start(d) for d in datas])
    thetas, _, _, _ = solver.solve(datas, starts, progress=progress)
    return thetas[:, : datas[0].n_gen]


def percentile_ends(
    solver: Solver,
    datas: list[LatentData],
    theta: np.ndarray,
    alpha: float,
    alternative: str,
    *,
    progress: bool | None = False,
) -> tuple[np.ndarray, np.ndarray]:
    """The percentile interval of :func:`replicate_precisions`.

    Returns
    -------
    (low, high) : ndarray
        Per generator; a one-sided interval's open end is 0 or 1.
    """
    boot = replicate_precisions(solver, datas, theta, progress=progress)
    lo_q = alpha / 2 if alternative == "two-sided" else alpha
    low = np.quantile(boot, lo_q, axis=0)
    high = np.quantile(boot, 1 - lo_q, axis=0)
    if alternative == "less":
        low = np.zeros_like(low)
    if alternative == "greater":
        high = np.ones_like(high)
    return low, high
