"""How many labels a generator needs for a target interval width, uniform or active.

The prediction rests on the predictor ``q_i`` of :mod:`regression.labels.predict`
read as calibrated (``E[y_i | votes] = q_i``): the prediction-powered residual
of item ``i`` then has variance ``v_i = q_i (1 - q_i)`` (``lam = 1``), the
labels alone ``q_i (1 - q_i) + (q_i - theta)^2``. A sample of ``n`` drawn with
probabilities ``pi_i`` has design variance ``sum_i (1 - pi_i) / pi_i v_i / N^2``
(Poisson sampling; Zrnic & Candes, 2024, section 3 for the active optimum
``pi_i ~ sqrt(v_i)``). The width is that of the Wilson interval at the effective
sample size ``theta (1 - theta) / V``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from regression.checks import check_alpha
from regression.intervals import normal_quantile
from regression.labels.partial import DOUBT

__all__ = [
    "ACTIVE_FLOOR",
    "active_probabilities",
    "effective_size",
    "labels_needed",
    "predicted_width",
]

#: Every item's share of the active weights is at least this fraction of the mean weight.
ACTIVE_FLOOR = 0.2


def active_probabilities(q: np.ndarray, n: int, floor: float = ACTIVE_FLOOR) -> np.ndarray:
    """Inclusion probabilities summing to ``n``, proportional to ``sqrt(q(1 - q)) + floor * mean``, capped at 1.

    Examples
    --------
    >>> pi = active_probabilities(np.array([0.5, 0.5, 0.99, 0.99]), 2)
    >>> round(float(pi.sum()), 6), bool(pi[0] > pi[2] > 0)
    (2.0, True)
    """
    q = np.asarray(q, dtype=float)
    size = np.sqrt(np.clip(q * (1 - q), 0.0, None))
    size = size + floor * max(float(size.mean()), 1e-6)
    pi = np.zeros_like(size)
    capped = np.zeros(size.size, dtype=bool)
    n = min(int(n), size.size)
    for _ in range(size.size + 1):
        free = n - capped.sum()
        pi = np.where(capped, 1.0, free * size / size[~capped].sum())
        over = (pi > 1.0) & ~capped
        if not over.any():
            break
        capped |= over
    return np.minimum(pi, 1.0)


def effective_size(q: np.ndarray, n: np.ndarray | int, design: str = "uniform") -> np.ndarray:
    """Predicted effective sample size of :func:`~regression.labels.partial.ppi_design_mean` with ``n`` labels.

    ``n_0 * A_0 / A_lam`` as the estimator computes it, with the sums replaced
    by their expectations over the design: ``A = sum_i pi_i c_i v_i`` plus the
    two pseudo-labels' ``c_min (theta^2 + (1 - theta)^2)``, ``c_i = (1 - pi_i) / pi_i^2``,
    ``n_0 = N^2 / sum_i pi_i c_i``; ``v_i`` the judges' residual variance or
    the labels' own, whichever power tuning would choose. Vectorised in ``n``.
    """
    q = np.asarray(q, dtype=float)
    big_n = q.size
    theta = float(q.mean())
    v_judges = q * (1 - q)
    v_labels = v_judges + (q - theta) ** 2
    pseudo = theta**2 + (1 - theta) ** 2
    out = []
    for m in np.atleast_1d(n):
        m = int(max(min(m, big_n), 1))
        pi = np.full(big_n, m / big_n) if design == "uniform" else active_probabilities(q, m)
        if m >= big_n:
            out.append(float(big_n))
            continue
        c = (1 - pi) / pi**2
        c_min = float(c[pi < 1].min()) if (pi < 1).any() else 0.0
        a_0 = float((pi * c * v_labels).sum()) + c_min * pseudo
        a_lam = min(float((pi * c * v_judges).sum()) + c_min * pseudo, a_0)
        n_0 = min(big_n**2 / max(float((pi * c).sum()), 1e-12), float(big_n))
        out.append(n_0 * a_0 / max(a_lam, 1e-15))
    return np.array(out)


def predicted_width(
    q: np.ndarray,
    n: np.ndarray | int,
    design: str = "uniform",
    alpha: float = 0.05,
    transfer_sd: float = float("nan"),
) -> np.ndarray:
    """Predicted width of the Wilson interval at the effective sample size, with ``n`` labels.

    With ``transfer_sd`` the transfer estimate joins as in
    :func:`~regression.labels.partial.combine_transfer`, its expected squared
    disagreement being its variance plus the labels' (and :data:`~regression.labels.partial.DOUBT`
    times the labels' variance on top).
    """
    alpha = check_alpha(alpha)
    z = normal_quantile(alpha)
    q = np.asarray(q, dtype=float)
    theta = float(np.clip(q.mean(), 1e-3, 1 - 1e-3))
    m = effective_size(q, n, design)
    if np.isfinite(transfer_sd):
        m = m + theta * (1 - theta) / (2 * transfer_sd**2 + (1 + DOUBT) * theta * (1 - theta) / m)
    denom = 1 + z**2 / m
    return 2 * z * np.sqrt(theta * (1 - theta) / m + z**2 / (4 * m**2)) / denom


def labels_needed(
    q: np.ndarray,
    width: float,
    design: str = "uniform",
    alpha: float = 0.05,
    transfer_sd: float = float("nan"),
) -> int:
    """The fewest labels whose predicted width is at most ``width`` (``N`` if none reaches it)."""
    big_n = len(q)
    grid = np.unique(np.clip(np.round(np.geomspace(1, big_n, 200)).astype(int), 1, big_n))
    widths = predicted_width(q, grid, design, alpha, transfer_sd)
    ok = np.flatnonzero(widths <= width)
    if ok.size == 0:
        return big_n
    hi = int(grid[ok[0]])
    lo = int(grid[ok[0] - 1]) if ok[0] > 0 else 1
    for m in range(lo, hi + 1):
        if predicted_width(q, m, design, alpha, transfer_sd)[0] <= width:
            return m
    return hi


def plan_frame(rows: list[dict[str, object]]) -> pd.DataFrame:
    """The plan as a table indexed by generator."""
    return pd.DataFrame(rows).set_index("generator")
