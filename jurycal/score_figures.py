"""The graded-scores card's figures: each judge's calibration curve, the leaderboard of mean ratings.

Kept apart from :mod:`jurycal.report` (the card itself), which they use only
through its public leaderboard figure conventions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from regression.ranking import Leaderboard

__all__ = ["CALIBRATION_PANELS", "calibration_curves", "calibration_plot", "score_plot"]


#: The most judges a calibration figure draws, one panel each (the rest are named in its caption).
CALIBRATION_PANELS = 20
# A judge with more distinct scores than this is binned by quantiles, into this many bins
_SCORE_BINS = 10


def calibration_curves(scores: pd.DataFrame, human: pd.DataFrame) -> pd.DataFrame:
    """Each judge's calibration curve: the mean human rating of the rated outputs per judge score.

    A judge with at most ten distinct scores gets one point per score; one with more, one
    point per decile of its scores on the rated outputs (at the bin's mean score).

    Parameters
    ----------
    scores : DataFrame
        ``generator, item, validator, score``.
    human : DataFrame
        ``generator, item, human``: the ratings.

    Returns
    -------
    DataFrame
        ``validator, score, human, se, n``: per judge and bin, the mean score, the mean
        rating, its standard error (NaN for a bin of one) and the number of rated outputs.

    Examples
    --------
    >>> scores = pd.DataFrame({"generator": ["g"] * 4, "item": [1, 2, 3, 4],
    ...                        "validator": "j", "score": [1, 1, 2, 2]})
    >>> human = pd.DataFrame({"generator": ["g"] * 4, "item": [1, 2, 3, 4],
    ...                       "human": [1, 2, 4, 4]})
    >>> calibration_curves(scores, human)[["score", "human", "n"]].to_dict("list")
    {'score': [1.0, 2.0], 'human': [1.5, 4.0], 'n': [2, 2]}
    """
    rated = scores.dropna(subset=["score"]).merge(
        human.dropna(subset=["human"])[["generator", "item", "human"]], on=["generator", "item"]
    )
    rows = []
    for judge, own in rated.groupby("validator", sort=False):
        values = own["score"].astype(float)
        if values.nunique() <= _SCORE_BINS:
            bins = values
        else:
            bins = pd.qcut(values, _SCORE_BINS, labels=False, duplicates="drop")
        grouped = own.assign(score=values, bin=bins).groupby("bin")
        table = grouped.agg(
            score=("score", "mean"),
            human=("human", "mean"),
            sd=("human", "std"),
            n=("human", "size"),
        )
        table["se"] = table["sd"] / table["n"] ** 0.5
        rows.append(table.drop(columns="sd").assign(validator=judge))
    columns = ["validator", "score", "human", "se", "n"]
    if not rows:
        return pd.DataFrame(columns=columns)
    return pd.concat(rows, ignore_index=True)[columns]


def calibration_plot(
    scores: pd.DataFrame,
    human: pd.DataFrame,
    *,
    scale: tuple[float, float] | None = None,
    fitted: pd.DataFrame | None = None,
) -> Figure:
    """Each judge's calibration curve (:func:`calibration_curves`), one panel per judge.

    The mean human rating per judge score with a 95 % normal band (1.96 standard errors),
    the point's area by its number of rated outputs; each panel on its judge's own score
    axis, the ratings' axis shared (``scale`` when given). ``fitted``: the curves an
    estimator fitted (``validator, score, rating``, e.g.
    :meth:`regression.scores.ScoreResult.calibration_curves`), drawn as orange steps. Up to
    :data:`CALIBRATION_PANELS` judges, in the order of the score table.
    """
    import matplotlib.pyplot as plt

    from regression.ranking.plot import BLUE, ORANGE, PALE

    curves = calibration_curves(scores, human)
    judges = list(dict.fromkeys(curves["validator"]))[:CALIBRATION_PANELS]
    columns = min(4, max(1, len(judges)))
    rows = max(1, -(-len(judges) // columns))
    figure, axes = plt.subplots(
        rows, columns, figsize=(3.1 * columns, 2.5 * rows), squeeze=False, sharey=True
    )
    for k, panel in enumerate(axes.ravel()):
        if k >= len(judges):
            panel.set_visible(False)
            continue
        curve = curves[curves["validator"] == judges[k]]
        band = 1.96 * curve["se"].fillna(0).to_numpy()
        middle = curve["human"].to_numpy()
        panel.vlines(curve["score"], middle - band, middle + band, color=PALE, linewidth=3)
        sizes = 12 + 60 * curve["n"].to_numpy() / max(1, int(curve["n"].max()))
        panel.scatter(curve["score"], curve["human"], s=sizes, color=BLUE, zorder=3)
        panel.plot(curve["score"], curve["human"], color=BLUE, linewidth=0.8)
        if fitted is not None:
            own = fitted[fitted["validator"] == judges[k]].sort_values("score")
            panel.step(own["score"], own["rating"], where="post", color=ORANGE, linewidth=1.2)
        if scale is not None:
            panel.set_ylim(scale[0] - 0.05 * np.ptp(scale), scale[1] + 0.05 * np.ptp(scale))
        panel.set_title(str(judges[k]), fontsize=9, loc="left")
        panel.grid(alpha=0.3)
        panel.tick_params(labelsize=8)
        if k % columns == 0:
            panel.set_ylabel("mean human rating", fontsize=8)
        if k >= len(judges) - columns:
            panel.set_xlabel("judge's score", fontsize=8)
    # fixed margins: tight_layout would draw the figure once more to measure 20 panels
    figure.subplots_adjust(
        left=0.07,
        right=0.98,
        bottom=0.5 / (2.5 * rows),
        top=1 - 0.35 / (2.5 * rows),
        hspace=0.45,
        wspace=0.12,
    )
    return figure


def score_plot(board: Leaderboard) -> Figure:
    """The figure of a leaderboard of mean human ratings (:func:`~regression.ranking.plot.plot_board`)."""
    from regression.ranking.plot import plot_board

    return plot_board(
        board, f"Leaderboard of mean human ratings ({board.method})", quantity="mean rating"
    )
