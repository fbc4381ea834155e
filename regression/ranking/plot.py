"""The leaderboard's figure: legible from a handful of generators to hundreds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from regression.ranking.board import Leaderboard

__all__ = ["MATRIX_MAX", "NAMED_MAX", "plot_board"]

#: Generators up to which the decided-pairs matrix is drawn (beyond, its cells are too small to read).
MATRIX_MAX = 40
#: Generators named on the estimates panel of a larger board: the top ones and those asked for.
NAMED_MAX = 25
BLUE, ORANGE, PALE = "#1f4e79", "#e66101", "#8fb3d9"  # colour-blind safe


def plot_board(
    board: Leaderboard,
    title: str | None = None,
    *,
    generators: Sequence[Any] = (),
    quantity: str = "precision",
) -> Figure:
    """A leaderboard's estimates with intervals and rank sets, best on top.

    Up to :data:`MATRIX_MAX` generators: every estimate with its interval and rank set, beside the
    decided-pairs matrix. More: the top :data:`NAMED_MAX` and the generators asked for, beside
    every generator's rank set in order of estimate (those asked for in orange). ``quantity``
    names the estimates' axis (``"win rate"`` for an arena's board).

    Raises
    ------
    InputError
        A generator of ``generators`` not on the board.
    """
    import matplotlib.pyplot as plt

    board.shown(None, generators)  # names every generator asked for, or raises
    table = board.table
    g = len(table)
    if g <= MATRIX_MAX:
        figure, (left, right) = plt.subplots(
            1, 2, figsize=(11, 1.2 + 0.38 * g), gridspec_kw={"width_ratios": [3, 2]}
        )
        _estimates(left, table, board.alpha, generators, quantity)
        _matrix(right, board)
    else:
        rows = board.shown(NAMED_MAX, generators)
        figure, (left, right) = plt.subplots(
            1, 2, figsize=(13, 1.6 + 0.3 * len(rows)), gridspec_kw={"width_ratios": [1, 1]}
        )
        _estimates(left, rows, board.alpha, generators, quantity)
        if len(rows) > NAMED_MAX:  # the generators asked for, below the top: set them apart
            left.axhline(
                len(rows) - NAMED_MAX - 0.5, color="#999999", linestyle="--", linewidth=0.8
            )
        left.set_title(
            f"top {NAMED_MAX} of {g}" + (" and those asked for" if len(generators) else ""),
            loc="left",
            fontsize=10,
        )
        _all_rank_sets(right, table, generators)
    figure.suptitle(title or f"Leaderboard ({board.method})")
    figure.tight_layout()
    return figure


def _estimates(
    axes: Axes, table: pd.DataFrame, alpha: float, named: Sequence[Any], quantity: str
) -> None:
    """Points with marginal intervals, best on top, each name with its rank set."""
    y = np.arange(len(table))[::-1]
    has_interval = table[["low", "high"]].notna().all(axis=1).to_numpy()
    err = np.vstack(
        [
            (table["estimate"] - table["low"]).to_numpy(),
            (table["high"] - table["estimate"]).to_numpy(),
        ]
    )
    axes.errorbar(
        table["estimate"][has_interval],
        y[has_interval],
        xerr=err[:, has_interval],
        fmt="o",
        color=BLUE,
        ecolor=PALE,
        elinewidth=3,
        capsize=0,
    )
    axes.plot(table["estimate"][~has_interval], y[~has_interval], "o", color=BLUE)
    labels = [
        f"{name}  [{lo}-{hi}]" if lo != hi else f"{name}  [{lo}]"
        for name, lo, hi in zip(table.index, table["low_rank"], table["high_rank"], strict=True)
    ]
    axes.set_yticks(y, labels, fontsize=8 if len(table) > 20 else 10)
    for tick, name in zip(axes.get_yticklabels(), table.index, strict=True):
        if name in named:
            tick.set_color(ORANGE)
            tick.set_fontweight("bold")
    axes.set_ylim(-0.7, len(table) - 0.3)
    axes.set_xlabel(f"{quantity}, {1 - alpha:.0%} interval")
    axes.grid(axis="x", alpha=0.3)
    axes.set_title("estimate and [rank set]", loc="left", fontsize=10)


def _matrix(axes: Axes, board: Leaderboard) -> None:
    from matplotlib.colors import ListedColormap

    names = list(board.table.index)
    axes.imshow(
        board.decided().to_numpy(),
        cmap=ListedColormap([ORANGE, "#eeeeee", "#1f78b4"]),
        vmin=-1,
        vmax=1,
    )
    axes.set_xticks(range(len(names)), names, rotation=60, ha="right", fontsize=8)
    axes.set_yticks(range(len(names)), names, fontsize=8)
    axes.set_title(
        f"row above (blue) / below (orange) column ({board.procedure})", loc="left", fontsize=10
    )


def _all_rank_sets(axes: Axes, table: pd.DataFrame, named: Sequence[Any]) -> None:
    """Every generator's rank set as a bar from its best to its worst rank, in order of estimate."""
    g = len(table)
    x = np.arange(1, g + 1)
    asked = table.index.isin(list(named))
    low, high = table["low_rank"].to_numpy(), table["high_rank"].to_numpy()
    axes.vlines(x[~asked], low[~asked], high[~asked], color=PALE, linewidth=max(0.6, 300 / g))
    axes.plot(x, table["rank"].to_numpy(), ".", color=BLUE, markersize=max(1.5, 200 / g))
    axes.vlines(x[asked], low[asked], high[asked], color=ORANGE, linewidth=2.5)
    for position in np.flatnonzero(asked):
        axes.annotate(
            str(table.index[position]),
            (x[position], high[position]),
            xytext=(4, 4),
            textcoords="offset points",
            color=ORANGE,
            fontsize=9,
            fontweight="bold",
        )
    axes.plot([1, g], [1, g], color="#999999", linewidth=0.8, linestyle=":")
    axes.set_xlim(0, g + 1)
    axes.set_ylim(g + 1, 0)
    axes.set_xlabel("place on the board (by estimate)")
    axes.set_ylabel("rank set (1 = best)")
    axes.grid(alpha=0.3)
    axes.set_title(f"rank sets of all {g} generators", loc="left", fontsize=10)
