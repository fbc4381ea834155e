"""Many-judge figures, each a function returning a :class:`matplotlib.figure.Figure`.

matplotlib is imported inside each function, so importing :mod:`regression`
never loads it.

* :func:`plot_validator_rates`: each validator's TPR against its TNR
  (agreeableness paper Fig. 4).
* :func:`plot_leave_out`: leave-s-out error against calibration size (Fig. 6).
* :func:`plot_latent_fit`: a fitted model's precisions (beside human ones) and
  validators' TPR against TNR.
* :func:`plot_precision_intervals`: the interval table a fit computed
  (:meth:`~regression.latent.result.LatentTraitResult.to_frame`).

Point labels are placed by :func:`label_points` so that they do not overlap.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from regression.checks import require_columns
from regression.plotting import legend_outside, readable_ticks

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "ROLE_COLOURS",
    "label_points",
    "plot_latent_fit",
    "plot_leave_out",
    "plot_precision_intervals",
    "plot_validator_rates",
]


def label_points(ax: Any, x: Any, y: Any, names: Any, *, fontsize: float = 7) -> list[Any]:
    """Label every point so that no two labels overlap; a grey line joins a moved label to its point.

    Labels are placed one by one, left to right, each at the first free spot
    (its text box overlaps no marker and no label placed before it) of a spiral of offsets
    around its point: 8 directions at radii 4, 9, 14, ... points, spots inside
    the axes first. The figure is drawn once to measure the text.

    Parameters
    ----------
    ax : matplotlib Axes
    x, y : array-like
        Point positions in data coordinates.
    names : iterable
        One label per point.
    fontsize : float

    Returns
    -------
    list of matplotlib Annotation
        The labels, in the order of ``names`` (leader lines are separate,
        empty annotations).
    """
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    names = [str(name) for name in names]
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    angles = np.deg2rad([45, 0, 90, 135, 180, 225, 270, 315])
    spiral = [(3.0, 3.0)] + [
        (r * np.cos(t), r * np.sin(t)) for r in np.arange(9.0, 200.0, 5.0) for t in angles
    ]
    from matplotlib.transforms import Bbox

    # The markers are obstacles too: a label may not cover any point.
    radius = 3.5 * fig.dpi / 72
    boxes: list[Any] = [
        Bbox.from_extents(px - radius, py - radius, px + radius, py + radius)
        for px, py in ax.transData.transform(np.column_stack([x, y]))
    ]
    labels: list[Any] = [None] * len(names)
    for k in np.lexsort((y, x)):
        note = ax.annotate(
            names[k],
            (x[k], y[k]),
            xytext=spiral[0],
            textcoords="offset points",
            fontsize=fontsize,
        )
        best = next(
            (
                offset
                for offset in spiral
                if _free(note, offset, boxes, renderer) and _inside(note, offset, frame, renderer)
            ),
            None,
        )
        if best is None:  # no free spot inside the axes: the first free one outside
            best = next((o for o in spiral if _free(note, o, boxes, renderer)), spiral[-1])
        note.set_position(best)
        boxes.append(note.get_window_extent(renderer).expanded(1.05, 1.1))
        labels[k] = note
        if best != spiral[0]:  # a leader line from the point to its moved label
            ax.annotate(
                "",
                (x[k], y[k]),
                xytext=best,
                textcoords="offset points",
                arrowprops={"arrowstyle": "-", "color": "0.6", "lw": 0.5, "shrinkA": 0},
            )
    return labels


def _free(note: Any, offset: tuple[float, float], boxes: list[Any], renderer: Any) -> bool:
    note.set_position(offset)
    box = note.get_window_extent(renderer).expanded(1.05, 1.1)
    return not any(box.overlaps(other) for other in boxes)


def _inside(note: Any, offset: tuple[float, float], frame: Any, renderer: Any) -> bool:
    note.set_position(offset)
    box = note.get_window_extent(renderer)
    return bool(frame.contains(box.x0, box.y0) and frame.contains(box.x1, box.y1))


def plot_validator_rates(confusion: pd.DataFrame) -> Figure:
    """Each validator's TPR against its TNR, pooled over the generators given: agreeableness Fig. 4.

    ``confusion`` has columns ``validator, tp, fn, fp, tn`` (one row per
    generator and validator, as ``regression.datasets.load_confusion``). The
    labels are placed by :func:`label_points`, so they do not overlap.
    """
    import matplotlib.pyplot as plt

    require_columns(confusion, ("validator", "tp", "fn", "fp", "tn"), "confusion")
    pooled = confusion.groupby("validator", sort=False)[["tp", "fn", "fp", "tn"]].sum()
    tpr = pooled["tp"] / (pooled["tp"] + pooled["fn"])
    tnr = pooled["tn"] / (pooled["tn"] + pooled["fp"])
    fig, ax = plt.subplots(figsize=(6, 4.5))
    ax.scatter(tnr, tpr)
    ax.set(
        xlabel="TNR (invalid items caught)",
        ylabel="TPR (valid items endorsed)",
        title="Validators: agreeable (high TPR), poor at rejecting (low TNR)",
    )
    ax.grid(alpha=0.3)
    fig.tight_layout()
    label_points(ax, tnr.to_numpy(), tpr.to_numpy(), pooled.index)
    return fig


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
        max_abs_error``, e.g. from ``regression.datasets.load_paper_regression_errors``),
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
    legend_outside(ax_b)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig


def plot_latent_fit(result: Any, human: pd.DataFrame | None = None) -> Figure:
    """Two panels: precision per generator (dots; human-labelled precision as crosses) and
    the validators' fitted TPR against TNR.

    ``result`` is a :class:`~regression.latent.result.LatentTraitResult`; ``human``
    the human labels (``generator, item, human``), optional.
    """
    import matplotlib.pyplot as plt

    fig, (ax_g, ax_v) = plt.subplots(1, 2, figsize=(11, 0.5 + 0.32 * len(result.precision)))
    y = np.arange(len(result.precision))[::-1]
    ax_g.plot(result.precision.to_numpy(), y, "o", label="estimate")
    if human is not None:
        truth = human.groupby("generator")["human"].mean().reindex(result.precision.index)
        ax_g.plot(truth.to_numpy(), y, "x", color="C3", label="human labels")
    ax_g.set_yticks(y, [str(g) for g in result.precision.index])
    ax_g.set(xlabel="precision g", title=f"Generators ({result.loss_name} loss)")
    legend_outside(ax_g)
    ax_v.scatter(result.tnr.to_numpy(), result.tpr.to_numpy())
    ax_v.set(xlabel="TNR", ylabel="TPR", title="Validators (fitted)")
    fig.tight_layout()
    label_points(ax_v, result.tnr.to_numpy(), result.tpr.to_numpy(), result.tpr.index)
    return fig


#: Marker colour per role of :meth:`LatentTraitResult.to_frame`.
ROLE_COLOURS = {
    "calibration": "C2",
    "held out": "C1",
    "partially labelled": "C4",
    "unlabelled": "C0",
}


def plot_precision_intervals(table: pd.DataFrame, *, title: str | None = None) -> Figure:
    """The precision intervals a fit computed, one line per generator (a forest plot).

    Parameters
    ----------
    table : DataFrame
        :meth:`LatentTraitResult.to_frame` (columns ``generator, estimate, low,
        high``, optionally ``role`` and ``human``) or
        :meth:`LatentTraitResult.interval` (index: generators; ``estimate, low,
        high``).
    title : str, optional
        Default: "Precision per generator, intervals".

    Returns
    -------
    matplotlib.figure.Figure
        Estimates as dots on their intervals, coloured by role; human precision,
        where given, as crosses.

    Raises
    ------
    ValueError
        If ``table`` lacks ``estimate``, ``low`` or ``high`` (e.g. a
        ``to_frame(method=None)`` table).

    Examples
    --------
    >>> table = pd.DataFrame({"estimate": [0.9, 0.7], "low": [0.85, 0.6], "high": [0.95, 0.8]},
    ...                      index=["g1", "g2"])
    >>> fig = plot_precision_intervals(table)
    >>> len(fig.axes[0].collections[0].get_segments())
    2
    """
    import matplotlib.pyplot as plt

    require_columns(table, ("estimate", "low", "high"), "table")
    names = (table["generator"] if "generator" in table.columns else table.index).astype(str)
    roles = table["role"] if "role" in table.columns else pd.Series("", index=table.index)
    colours = [ROLE_COLOURS.get(role, "C0") for role in roles]
    y = np.arange(len(table))[::-1]
    fig, ax = plt.subplots(figsize=(6.5, 0.8 + 0.32 * len(table)))
    ax.hlines(y, table["low"], table["high"], colors=colours, lw=2)
    ax.scatter(table["estimate"], y, c=colours, zorder=3)
    if "human" in table.columns and table["human"].notna().any():
        ax.plot(table["human"], y, "x", color="C3", label="human labels")
    for role, colour in ROLE_COLOURS.items():
        if (roles == role).any():
            ax.plot([], [], "o", color=colour, label=role)
    legend_outside(ax)  # beside the intervals, never over one
    ax.set_yticks(y, list(names))
    ax.set(xlabel="precision g", title=title or "Precision per generator, intervals")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    readable_ticks(ax)
    return fig
