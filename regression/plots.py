"""Figures for the regression package (matplotlib is imported inside each function)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from regression._validation import require_columns

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["plot_leave_out"]


def plot_leave_out(
    table: pd.DataFrame,
    *,
    spread_method: str | None = None,
    released: pd.DataFrame | None = None,
    title: str | None = None,
) -> Figure:
    """A figure like the agreeableness paper's Fig. 6 from :func:`leave_out_evaluation`.

    Parameters
    ----------
    table : DataFrame
        The output of :func:`regression.leave_out.leave_out_evaluation`.
    spread_method : str, optional
        The method whose MaxAE over calibration subsets is drawn as boxes per s
        (panel a, Fig. 6a); default the first model method in ``table``.
    released : DataFrame, optional
        The paper's released errors for one repair level (``calibration_size,
        max_abs_error``, e.g. from ``jurycal.datasets.load_paper_regression_errors``),
        drawn as a reference line in panel b.
    title : str, optional

    Returns
    -------
    matplotlib.figure.Figure
        (a) the spread of MaxAE over calibration subsets per s; (b) the mean
        MaxAE per s of every method, with the range over subsets as error bars.

    Examples
    --------
    >>> table = pd.DataFrame({"s": [1, 1, 2], "calibration_generators": ["a", "b", "a;b"],
    ...                       "method": ["likelihood"] * 3, "max_abs_error": [0.02, 0.03, 0.01],
    ...                       "loss": [0.1, 0.1, 0.1]})
    >>> fig = plot_leave_out(table)
    >>> len(fig.axes)
    2
    """
    import matplotlib.pyplot as plt

    require_columns(table, ("s", "method", "max_abs_error"), "table")
    methods = list(dict.fromkeys(table["method"]))
    model_methods = (
        [m for m in methods if table.loc[table["method"] == m, "loss"].notna().any()]
        if "loss" in table.columns
        else methods
    )
    if spread_method is None:
        spread_method = (model_methods or methods)[0]
    if spread_method not in methods:
        raise ValueError(f"spread_method ({spread_method!r}) not in the table; it has {methods}.")
    fig, (ax_a, ax_b) = plt.subplots(1, 2, figsize=(11, 4.2))
    chosen = table[table["method"] == spread_method]
    sizes = sorted(chosen["s"].unique())
    ax_a.boxplot(
        [100 * chosen.loc[chosen["s"] == s, "max_abs_error"].dropna().to_numpy() for s in sizes],
        positions=sizes,
        showmeans=True,
    )
    ax_a.set_xlabel("calibration generators s")
    ax_a.set_ylabel("MaxAE on held-out generators (%)")
    ax_a.set_title(f"(a) spread over calibration subsets: {spread_method}")
    for method in methods:
        rows = table[table["method"] == method].dropna(subset=["max_abs_error"])
        if rows.empty:
            continue
        stats = rows.groupby("s")["max_abs_error"].agg(["mean", "min", "max"]) * 100
        yerr = np.vstack([stats["mean"] - stats["min"], stats["max"] - stats["mean"]])
        ax_b.errorbar(stats.index, stats["mean"], yerr=yerr, fmt="-o", capsize=4, label=method)
    if released is not None:
        require_columns(released, ("calibration_size", "max_abs_error"), "released")
        ref = released.groupby("calibration_size")["max_abs_error"].mean() * 100
        ref = ref[ref.index.isin(table["s"].unique())]
        ax_b.plot(ref.index, ref.to_numpy(), "k--", label="paper (released)")
    ax_b.set_xlabel("calibration generators s")
    ax_b.set_ylabel("mean MaxAE (%)")
    ax_b.set_yscale("log")
    ax_b.set_title("(b) mean MaxAE by method (bars: range over subsets)")
    ax_b.legend(fontsize=8)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
