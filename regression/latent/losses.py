"""Losses of the latent-trait model and their exact gradients (numpy).

The model (agreeableness paper, section 5.1, eq. (1); App. C.2, eq. (8)):
``P_hat[i, j] = g[i] * tpr[j] + (1 - g[i]) * (1 - tnr[j])``. Parameters are one
flat vector ``theta = [g (n_gen), tpr (n_val), tnr (n_val)]``; the observed
cells are a coordinate list ``(rows, cols)``, so a dense matrix and a sparse one
(absent cells simply not listed) go through the same code.

Each loss returns ``(value, gradient)`` for ``scipy.optimize.minimize(jac=True)``.
"""

from __future__ import annotations

import numpy as np

from regression.latent.data import LatentData

__all__ = [
    "BCE_CLIP",
    "FD_STEP",
    "likelihood_loss",
    "likelihood_weight",
    "paper_loss",
    "predicted_rates",
    "split_theta",
]

#: The released code clips P_hat and 1 - P_hat to [1e-9, 1] inside the BCE.
BCE_CLIP = 1e-9
#: scipy's default L-BFGS-B finite-difference step (``eps``), used by the released code.
FD_STEP = 1e-8


def split_theta(theta: np.ndarray, n_gen: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``theta -> (g, tpr, tnr)`` (views, no copies)."""
    n_val = (theta.shape[-1] - n_gen) // 2
    return theta[..., :n_gen], theta[..., n_gen : n_gen + n_val], theta[..., n_gen + n_val :]


def predicted_rates(theta: np.ndarray, data: LatentData) -> np.ndarray:
    """Eq. (1) on the observed cells: ``g_i tpr_j + (1 - g_i)(1 - tnr_j)``."""
    g, tpr, tnr = split_theta(theta, data.n_gen)
    gi = g[data.rows]
    return gi * tpr[data.cols] + (1.0 - gi) * (1.0 - tnr[data.cols])


def _rmse_and_grad(residual: np.ndarray) -> tuple[float, np.ndarray]:
    """``sqrt(mean(r^2))`` and its gradient ``r / (n * rmse)``; the gradient at r = 0 is 0.

    The RMSE is a scaled Euclidean norm: not differentiable where every residual
    is 0. There the zero vector is a subgradient (the minimum-norm one), which
    is what we return.
    """
    size = residual.size
    rmse = float(np.sqrt(np.mean(residual**2)))
    if rmse == 0.0:
        return 0.0, np.zeros(size)
    return rmse, residual / (size * rmse)


def _rmse_forward_difference(residual: np.ndarray, step: np.ndarray) -> tuple[float, np.ndarray]:
    """RMSE and ``[rmse(r + step_k e_k) - rmse(r)] / step_k`` for every k, in closed form."""
    size = residual.size
    total = float(np.sum(residual**2))
    rmse = np.sqrt(total / size)
    moved = np.sqrt(np.maximum(total + 2.0 * residual * step + step**2, 0.0) / size)
    denominator = moved + rmse
    change = np.divide(
        (2.0 * residual * step + step**2) / size,
        denominator,
        out=np.zeros(size),
        where=denominator > 0,
    )
    return float(rmse), change / step


def _bce_cells(rate: np.ndarray, hat: np.ndarray) -> np.ndarray:
    """Per-cell BCE of the released code: logs of P_hat and 1 - P_hat clipped to [1e-9, 1]."""
    low = np.minimum(np.maximum(hat, BCE_CLIP), 1.0)
    high = np.minimum(np.maximum(1.0 - hat, BCE_CLIP), 1.0)
    return -(rate * np.log(low) + (1.0 - rate) * np.log(high))


def _released_steps(theta: np.ndarray) -> np.ndarray:
    """The step scipy's 2-point rule takes in each coordinate inside the box [0, 1]."""
    step = np.where(theta + FD_STEP > 1.0, -FD_STEP, FD_STEP)
    return (theta + step) - theta


def paper_loss(
    theta: np.ndarray,
    data: LatentData,
    lambdas: tuple[float, float, float] = (2.0, 1.0, 10.0),
    gradient: str = "exact",
) -> tuple[float, np.ndarray]:
    """The paper's loss (App. C.4, eqs. (11)-(13)) and its gradient.

    ``L = mean BCE over observed cells + lg RMSE(g - g_anchor) + l+ RMSE(tpr - tpr_anchor)
    + l- RMSE(tnr - tnr_anchor)``; each RMSE runs over the anchored entries only
    and is dropped when there are none (the released code's s = 0 case).

    Parameters
    ----------
    gradient : {"exact", "released"}
        ``"exact"``: the analytic gradient (a minimum-norm subgradient at an
        RMSE kink). ``"released"``: the forward difference with step 1e-8 that
        the paper's released code made scipy compute numerically (it passed no
        gradient), evaluated in closed form per coordinate at the cost of one
        gradient. It differs from the exact one only near the RMSE kinks, where
        it steers L-BFGS-B along the released code's path.
    """
    g, tpr, tnr = split_theta(theta, data.n_gen)
    rows, cols, rate = data.rows, data.cols, data.rate
    n_cells = rows.size
    g_r, tpr_c, tnr_c = g[rows], tpr[cols], tnr[cols]
    hat = g_r * tpr_c + (1.0 - g_r) * (1.0 - tnr_c)
    bce = _bce_cells(rate, hat)
    value = float(bce.sum() / n_cells)
    blocks = (
        (lambdas[0], data.g_idx, data.g_val, 0),
        (lambdas[1], data.tpr_idx, data.tpr_val, data.n_gen),
        (lambdas[2], data.tnr_idx, data.tnr_val, data.n_gen + data.n_val),
    )
    grad = np.zeros_like(theta)
    if gradient == "exact":
        inside1 = hat >= BCE_CLIP
        inside0 = (1.0 - hat) >= BCE_CLIP
        with np.errstate(divide="ignore", invalid="ignore"):
            d_hat = (
                -(
                    np.where(inside1, rate / np.maximum(hat, BCE_CLIP), 0.0)
                    - np.where(inside0, (1.0 - rate) / np.maximum(1.0 - hat, BCE_CLIP), 0.0)
                )
                / n_cells
            )
        grad[: data.n_gen] = np.bincount(
            rows, weights=d_hat * (tpr_c + tnr_c - 1.0), minlength=data.n_gen
        )
        grad[data.n_gen : data.n_gen + data.n_val] = np.bincount(
            cols, weights=d_hat * g_r, minlength=data.n_val
        )
        grad[data.n_gen + data.n_val :] = np.bincount(
            cols, weights=-d_hat * (1.0 - g_r), minlength=data.n_val
        )
        for weight, idx, anchor, offset in blocks:
            if idx.size:
                rmse, block_grad = _rmse_and_grad(theta[offset + idx] - anchor)
                value += weight * rmse
                grad[offset + idx] += weight * block_grad
        return value, grad
    if gradient != "released":
        raise ValueError(f"gradient ({gradient!r}) not recognized; must be 'exact' or 'released'.")
    step = _released_steps(theta)
    s_g, s_tpr, s_tnr = split_theta(step, data.n_gen)
    # Moving g_i changes row i by s_g[i] * (tpr + tnr - 1); tpr_j / tnr_j change column j.
    moves = (
        (s_g[rows] * (tpr_c + tnr_c - 1.0), rows, data.n_gen, 0),
        (s_tpr[cols] * g_r, cols, data.n_val, data.n_gen),
        (-s_tnr[cols] * (1.0 - g_r), cols, data.n_val, data.n_gen + data.n_val),
    )
    for shift, group, size, offset in moves:
        change = np.bincount(group, weights=_bce_cells(rate, hat + shift) - bce, minlength=size)
        grad[offset : offset + size] = change / n_cells / step[offset : offset + size]
    for weight, idx, anchor, offset in blocks:
        if idx.size:
            rmse, block_grad = _rmse_forward_difference(
                theta[offset + idx] - anchor, step[offset + idx]
            )
            value += weight * rmse
            grad[offset + idx] += weight * block_grad
    return value, grad


def likelihood_weight(data: LatentData) -> float:
    """W, the observations the likelihood counts: its loss is the negative log-likelihood / W."""
    total = data.n[data.in_likelihood].sum() + data.g_n.sum() + data.tpr_n.sum() + data.tnr_n.sum()
    return max(float(total), 1.0)


def likelihood_loss(theta: np.ndarray, data: LatentData) -> tuple[float, np.ndarray]:
    """Mean negative binomial log-likelihood of the counts and the calibration data.

    ``-[sum_cells k log P_hat + (n - k) log(1 - P_hat)
    + sum_h a_h log g_h + (m_h - a_h) log(1 - g_h)
    + sum_j tp_j log tpr_j + fn_j log(1 - tpr_j) + tn_j log tnr_j + fp_j log(1 - tnr_j)] / W``
    with ``k = rate * n`` and W the total number of observations, so the value
    is per observation. Cells whose votes the anchors pool
    (``in_likelihood == False``) are left out: the confusion counts are a finer
    summary of the same votes. Parameters must lie strictly inside (0, 1).
    """
    g, tpr, tnr = split_theta(theta, data.n_gen)
    keep = data.in_likelihood
    rows, cols = data.rows[keep], data.cols[keep]
    n = data.n[keep]
    k = data.rate[keep] * n
    g_r, tpr_c, tnr_c = g[rows], tpr[cols], tnr[cols]
    hat = g_r * tpr_c + (1.0 - g_r) * (1.0 - tnr_c)
    total = likelihood_weight(data)
    nll = -float(np.sum(k * np.log(hat) + (n - k) * np.log1p(-hat)))
    d_hat = -(k / hat - (n - k) / (1.0 - hat))
    grad = np.zeros_like(theta)
    n_gen, n_val = data.n_gen, data.n_val
    grad[:n_gen] = np.bincount(rows, weights=d_hat * (tpr_c + tnr_c - 1.0), minlength=n_gen)
    grad[n_gen : n_gen + n_val] = np.bincount(cols, weights=d_hat * g_r, minlength=n_val)
    grad[n_gen + n_val :] = np.bincount(cols, weights=-d_hat * (1.0 - g_r), minlength=n_val)
    for idx, val, m, offset in (
        (data.g_idx, data.g_val, data.g_n, 0),
        (data.tpr_idx, data.tpr_val, data.tpr_n, n_gen),
        (data.tnr_idx, data.tnr_val, data.tnr_n, n_gen + n_val),
    ):
        if idx.size:
            p = theta[offset + idx]
            hits = val * m
            nll -= float(np.sum(hits * np.log(p) + (m - hits) * np.log1p(-p)))
            grad[offset + idx] -= hits / p - (m - hits) / (1.0 - p)
    return nll / total, grad / total
