"""The leaderboard's figure: legible from a handful of generators to hundreds."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from regression.plotting import readable_ticks

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

    from regression.ranking.board import Leaderboard

__all__ = ["MATRIX_MAX", "NAMED_MAX", "plot_board", "plotted_rows"]

#: Generators up to which the decided-pairs matrix is drawn (beyond, its cells are too small to read).
MATRIX_MAX = 40
#: Generators named on the estimates panel of a larger board: the top ones and those asked for.
NAMED_MAX = 25
BLUE, ORANGE, PALE = "#1f4e79", "#e66101", "#8fb3d9"  # colour-blind safe


def plotted_rows(
    board: Leaderboard, top: int | None = None, generators: Sequence[Any] = ()
) -> pd.DataFrame:
    """The rows :func:`plot_board` draws estimates of: the top ``top`` and ``generators``.

    As the summary's table (:meth:`Leaderboard.shown`); without ``top``, every
    generator up to :data:`MATRIX_MAX` and the top :data:`NAMED_MAX` beyond, and
    never more than :data:`NAMED_MAX` on a board larger than :data:`MATRIX_MAX`.
    """
    return board.shown(_top_drawn(len(board.table), top), generators)


def _top_drawn(g: int, top: int | None) -> int:
    """How many of a board of ``g`` :func:`plot_board` draws from the top (before those named)."""
    most = g if g <= MATRIX_MAX else NAMED_MAX
    return most if top is None else min(top, most)


def plot_board(
    board: Leaderboard,
    title: str | None = None,
    *,
    generators: Sequence[Any] = (),
    quantity: str = "precision",
    top: int | None = None,
) -> Figure:
    """A leaderboard's estimates with intervals and rank sets, best on top.

    Up to :data:`MATRIX_MAX` generators: the estimates with their intervals and rank sets,
    beside the decided-pairs matrix between them. More: the top :data:`NAMED_MAX` and the
    generators asked for, beside every generator's rank set in order of estimate (those asked
    for in orange). ``top``: the rows drawn, as the summary's ``--top`` shows them
    (:func:`plotted_rows`). ``quantity`` names the estimates' axis (``"win rate"`` for an
    arena's board).

    Raises
    ------
    InputError
        A generator of ``generators`` not on the board.
    """
    import matplotlib.pyplot as plt

    board.shown(None, generators)  # names every generator asked for, or raises
    table = board.table
    g = len(table)
    rows = plotted_rows(board, top, generators)
    first = _top_drawn(g, top)
    if g <= MATRIX_MAX:
        figure, (left, right) = plt.subplots(
            1,
            2,
            figsize=(11, max(3.0, 1.2 + 0.38 * len(rows))),
            gridspec_kw={"width_ratios": [3, 2]},
        )
        _estimates(left, rows, board.alpha, generators, quantity)
        _matrix(right, board, rows.index)
        if len(rows) < g:
            left.set_title(
                f"estimate and [rank set]: top {first} of {g}"
                + (" and those asked for" if first < len(rows) else ""),
                loc="left",
                fontsize=10,
            )
    else:
        figure, (left, right) = plt.subplots(
            1, 2, figsize=(13, 1.6 + 0.3 * len(rows)), gridspec_kw={"width_ratios": [1, 1]}
        )
        _estimates(left, rows, board.alpha, generators, quantity)
        if first < len(rows):  # the generators asked for, below the top: set them apart
            left.axhline(len(rows) - first - 0.5, color="#999999", linestyle="--", linewidth=0.8)
        left.set_title(
            f"top {first} of {g}" + (" and those asked for" if len(generators) else ""),
            loc="left",
            fontsize=10,
        )
        _all_rank_sets(right, table, generators)
    figure.suptitle(title or f"Leaderboard ({board.method})")
    figure.tight_layout()
    readable_ticks(left)
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


def _matrix(axes: Axes, board: Leaderboard, names: Sequence[Any]) -> None:
    """The pairs decided between ``names`` (rows and columns in the board's order)."""
    from matplotlib.colors import ListedColormap

    names = list(names)
    axes.imshow(
        board.decided().loc[names, names].to_numpy(),
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
