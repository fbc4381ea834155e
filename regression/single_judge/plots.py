"""Single-judge figures, each a function returning a :class:`matplotlib.figure.Figure`.

matplotlib is imported inside each function, so importing :mod:`regression`
never loads it.

* :func:`plot_single_judge`: naive, Rogan-Gladen and PPI++ with their intervals.
* :func:`plot_comparison`: Delta theta by the four comparison estimators.
* :func:`plot_coverage`: coverage and interval length against theta (Lee Fig. 5(b)).
* :func:`plot_interval_length`: interval length against calibration size,
  symmetric vs adaptive allocation (Lee Fig. 3).
* :func:`plot_bias_vs_delta_j`: asymptotic bias of Delta theta against Delta J
  (Fiedler Fig. 1, right column; App. C).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from regression.plotting import legend_outside, readable_ticks

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from regression.single_judge.comparison_results import ModelComparison
    from regression.single_judge.estimators import SingleJudgeResult

__all__ = [
    "plot_bias_vs_delta_j",
    "plot_comparison",
    "plot_coverage",
    "plot_interval_length",
    "plot_single_judge",
]


def _forest(
    names: list[str],
    estimates: list[Any],
    lows: list[Any],
    highs: list[Any],
    xlabel: str,
    title: str,
) -> Figure:
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.5 * len(names)))
    y = np.arange(len(names))[::-1]
    est = np.asarray(estimates, dtype=float)
    ax.hlines(y, lows, highs, color="C0", lw=2)
    ax.plot(est, y, "o", color="C0")
    ax.set_yticks(y, names)
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    readable_ticks(ax)
    return fig


def plot_single_judge(result: SingleJudgeResult) -> Figure:
    """Naive, Rogan-Gladen and PPI++ estimates of theta with their intervals."""
    rows = [result.naive, result.rogan_gladen, result.ppi]
    return _forest(
        [r.method for r in rows],
        [r.estimate for r in rows],
        [r.bounds(r.alpha, r.alternative).low for r in rows],
        [r.bounds(r.alpha, r.alternative).high for r in rows],
        "theta (valid-rate)",
        f"One judge: J = {result.youden_j:.2f}, n = {result.n}, m = {result.m0 + result.m1}",
    )


def plot_comparison(result: ModelComparison) -> Figure:
    """Delta theta by each comparison estimator with its bootstrap interval."""
    dj_low, dj_high = result.delta_j.bounds(result.delta_j.alpha, result.delta_j.alternative)
    fig = _forest(
        [e.method for e in result.estimates],
        [e.estimate for e in result.estimates],
        [e.bounds(e.alpha, e.alternative).low for e in result.estimates],
        [e.bounds(e.alpha, e.alternative).high for e in result.estimates],
        f"Delta theta = theta[{result.labels[0]}] - theta[{result.labels[1]}]",
        f"Delta J = {result.delta_j.estimate:+.2f} [{dj_low:+.2f}, {dj_high:+.2f}]",
    )
    fig.axes[0].axvline(0, color="grey", lw=1)
    return fig


def plot_coverage(study: pd.DataFrame, *, alpha: float = 0.05) -> Figure:
    """Coverage (with +/- 2 MC SE) and mean length against theta: Lee et al. Fig. 5(b).

    ``study`` is the table of :func:`regression.simulate.coverage_study`.
    """
    import matplotlib.pyplot as plt

    fig, (ax_cov, ax_len) = plt.subplots(1, 2, figsize=(10, 3.6))
    ax_cov.errorbar(
        study["theta"],
        study["coverage"],
        yerr=2 * study["coverage_mcse"],
        fmt="o",
        label="adjusted (Lee eqs. 8-12)",
    )
    ax_cov.plot(study["theta"], study["naive_coverage"], "x", color="C3", label="naive")
    ax_cov.axhline(1 - alpha, color="grey", ls=":", label=f"nominal {1 - alpha:.0%}")
    ax_cov.set(xlabel="theta", ylabel="coverage", ylim=(max(0.0, ax_cov.get_ylim()[0]), 1.0))
    legend_outside(ax_cov)
    ax_len.plot(study["theta"], study["mean_length"], "o-", label="adjusted")
    ax_len.plot(study["theta"], study["naive_length"], "x-", color="C3", label="naive")
    ax_len.set(xlabel="theta", ylabel="mean interval length")
    legend_outside(ax_len)
    fig.tight_layout()
    return fig


def plot_interval_length(
    p_hats: Any = (0.3, 0.5, 0.7, 0.9),
    *,
    tpr: float = 0.9,
    tnr: float = 0.7,
    m: Any = None,
    n: int = 10**9,
    alpha: float = 0.05,
) -> Figure:
    """Interval length against calibration size, m0 = m1 (dashed) vs Algorithm 1 (solid): Lee Fig. 3.

    The test size ``n`` is taken very large (the figure's n -> infinity), so
    the length is the calibration part alone. Algorithm 1 is given the true
    rates through a pilot of 10 items per class.
    """
    import matplotlib.pyplot as plt

    from regression.single_judge.rogan_gladen import allocate_calibration, rg_interval

    sizes = np.arange(40, 1001, 20) if m is None else np.asarray(m)
    fig, ax = plt.subplots(figsize=(6, 4))
    for k, p_hat in enumerate(np.atleast_1d(p_hats)):
        half = sizes // 2
        low, high = rg_interval(p_hat, tpr, tnr, n, half, sizes - half, alpha)
        ax.plot(sizes, np.asarray(high) - np.asarray(low), ls="--", color=f"C{k}")
        n_neg, n_pos = allocate_calibration(sizes, p_hat, 10, round(10 * tpr), round(10 * tnr))
        low, high = rg_interval(p_hat, tpr, tnr, n, n_pos, n_neg, alpha)
        ax.plot(sizes, np.asarray(high) - np.asarray(low), color=f"C{k}", label=f"p_hat = {p_hat}")
    ax.set(
        xlabel="calibration size m",
        ylabel="interval length",
        title=f"TNR = {tnr}, TPR = {tpr}; dashed m0 = m1, solid Algorithm 1",
    )
    legend_outside(ax)
    fig.tight_layout()
    return fig


def plot_bias_vs_delta_j(
    delta_j: Any = None, *, j_a: float = 0.3, theta_a: float = 0.55, delta: float = 0.05
) -> Figure:
    """Asymptotic bias of Delta theta against Delta J = J_A - J_B: Fiedler Fig. 1 (right column).

    The judge is symmetric per model (TPR = TNR, so J = 2 q - 1), model A's
    J is held at ``j_a`` and theta_B = theta_A - delta. Three estimators:
    naive (judge valid-rates), Rogan-Gladen with B's calibration applied to
    both models (the shared-calibration bias of App. C), and model-specific
    Rogan-Gladen (consistent: bias 0).
    """
    import matplotlib.pyplot as plt

    from regression.single_judge.comparison import shared_calibration_bias

    dj = np.linspace(-0.2, 0.2, 81) if delta_j is None else np.asarray(delta_j, dtype=float)
    q_a = (1 + j_a) / 2
    q_b = (1 + j_a - dj) / 2
    theta_b = theta_a - delta
    p_a = theta_a * q_a + (1 - theta_a) * (1 - q_a)
    p_b = theta_b * q_b + (1 - theta_b) * (1 - q_b)
    shared = shared_calibration_bias(theta_a, q_a, q_a, q_b, q_b)
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(dj, (p_a - p_b) - delta, label="naive")
    ax.plot(dj, shared, label="RG, shared calibration (B's)")
    ax.plot(dj, np.zeros_like(dj), label="RG, model-specific")
    ax.axhline(0, color="grey", lw=0.8)
    ax.set(
        xlabel="Delta J = J_A - J_B",
        ylabel="asymptotic bias of Delta theta",
        title=f"J_A = {j_a}, theta_A = {theta_a}, true Delta theta = {delta}",
    )
    legend_outside(ax)
    fig.tight_layout()
    return fig
