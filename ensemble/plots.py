"""Figures for ensemble voting: error against threshold per rule (agreeableness paper, Fig. 5)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

import pandas as pd

from regression.checks import require_columns
from regression.plotting import legend_outside

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = ["plot_threshold_sweep"]

_LABELS = {
    "max_abs_error": "max abs error of precision",
    "mean_abs_error": "mean abs error of precision",
    "tpr": "TPR",
    "tnr": "TNR",
    "balanced_accuracy": "balanced accuracy",
}


def plot_threshold_sweep(
    sweeps: pd.DataFrame | Mapping[str, pd.DataFrame],
    metric: str = "max_abs_error",
    *,
    mirror: bool = False,
) -> Figure:
    """Plot a score against the threshold, one line per rule, one panel per sweep (Fig. 5).

    Parameters
    ----------
    sweeps : DataFrame or mapping of title -> DataFrame
        Output(s) of :func:`ensemble.sweep_thresholds`; a mapping gives one panel
        per entry, e.g. ``{"9.4 % missing": ..., "3.2 % missing": ...}`` as in
        the paper's Fig. 5 (a) and (b).
    metric : str
        The column to plot: ``max_abs_error`` (default), ``mean_abs_error``,
        ``tpr``, ``tnr`` or ``balanced_accuracy``.
    mirror : bool
        Plot the minority veto at ``V - n + 1``, the valid-vote threshold it
        mirrors, so that without missing votes its line lies on the majority
        line (Fig. 5's caption).

    Returns
    -------
    matplotlib.figure.Figure
        The best threshold of each rule is marked (lowest error, highest accuracy).

    Raises
    ------
    ValueError
        For an unknown metric, an empty mapping, or a table lacking the sweep columns.

    Examples
    --------
    >>> sweep = pd.DataFrame({"rule": ["majority"] * 2 + ["minority_veto"] * 2,
    ...                       "threshold": [1, 2, 1, 2], "max_abs_error": [0.1, 0.0, 0.0, 0.1]})
    >>> fig = plot_threshold_sweep(sweep)
    >>> len(fig.axes), len(fig.axes[0].lines)
    (1, 4)
    """
    from matplotlib.figure import Figure

    if metric not in _LABELS:
        raise ValueError(f"metric ({metric!r}) not recognized; must be one of {list(_LABELS)}.")
    panels = dict(sweeps) if isinstance(sweeps, Mapping) else {"": sweeps}
    if not panels:
        raise ValueError("sweeps is empty; expected at least one sweep table.")
    for title, table in panels.items():
        require_columns(table, ["rule", "threshold", metric], f"sweep {title!r}")
    higher_is_better = metric in ("tpr", "tnr", "balanced_accuracy")
    fig = Figure(figsize=(4.2 * len(panels), 3.4), layout="constrained")
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    for ax, (title, table) in zip(axes, panels.items(), strict=True):
        n_validators = int(table["threshold"].max())
        for rule, rows in table.groupby("rule", sort=False):
            x = rows["threshold"].to_numpy()
            if mirror and rule == "minority_veto":
                x = n_validators - x + 1
            y = rows[metric].to_numpy(dtype=float)
            label = f"{rule} (at V - n + 1)" if mirror and rule == "minority_veto" else str(rule)
            (line,) = ax.plot(x, y, marker="o", markersize=3, label=label)
            best = int(y.argmax() if higher_is_better else y.argmin())
            ax.plot(x[best], y[best], marker="*", markersize=12, color=line.get_color())
        ax.set_title(title)
        ax.set_xlabel("valid-vote threshold" if mirror else "threshold k (votes)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel(_LABELS[metric])
    legend_outside(axes[-1], fontsize="small")  # beside the last panel, over no line
    return fig
