""":class:`ScoreModel`: each generator's mean human rating from judges' scores and a few ratings."""

from __future__ import annotations

import numbers
import warnings
from typing import Any

import numpy as np
import pandas as pd

from regression.errors import JurycalWarning
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.scores.estimate import (
    MIN_RATINGS,
    cross_fitted_prediction,
    estimate_rated,
    transport_errors,
)
from regression.scores.predict import fit_predictor
from regression.scores.result import ScoreResult
from regression.scores.table import ScoreTable, check_scores
from regression.settings import Interval, Options, Settings

__all__ = ["FewRatingsWarning", "ScoreModel", "fit_scores"]

#: The option that learns the transport bound from the rated generators held out in turn.
HELD_OUT = "held-out"


class FewRatingsWarning(JurycalWarning):
    """A generator has too few ratings for its own estimate: its estimate is transported."""


class ScoreModel(Settings):
    """Each generator's mean human rating from several judges' scores and a few human ratings.

    Prediction-powered (:mod:`regression.scores.estimate`): a predictor of the
    rating from every judge's score, isotonic per judge and stacked with
    non-negative weights (:mod:`regression.scores.predict`), cross-fitted and
    pooled over the generators, corrected per generator by its own ratings with
    a power-tuned weight; generators without ratings get the calibration
    transported from the rated ones, within a transport bound.

    Parameters
    ----------
    interval : {"betting", "normal"}
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`) the rated
        generators' interval: the engine's bounded interval on the rating scale
        (default), or the normal one (undercovers a skewed rating at few ratings).
    judges : bool
        False: the ratings alone (``lam = 0``), for comparison.
    transport_bias : "held-out", float >= 0 or None
        The bound on a transported generator's error, in rating points:
        learnt from the rated generators held out in turn (default), given,
        or None (no bound: a transported interval is the whole scale).
    seed : int
        Seeds the folds of the cross-fit and the betting interval.

    Examples
    --------
    >>> from regression.scores.simulate import score_world
    >>> world = score_world(n_generators=3, n_items=60, n_rated=20, seed=0)
    >>> fit = ScoreModel(interval="normal").fit_table(world.scores, world.ratings, scale=(1, 5))
    >>> table = fit.interval()
    >>> bool(((table["low"] <= table["estimate"]) & (table["estimate"] <= table["high"])).all())
    True
    """

    parameter_constraints = {
        "interval": [Options(BOUNDED_INTERVAL_METHODS)],
        "judges": [bool],
        "transport_bias": [Options((HELD_OUT,)), Interval(numbers.Real, 0, None), None],
        "seed": [Interval(numbers.Integral, 0, None)],
    }

    def __init__(
        self,
        *,
        interval: str = BOUNDED_INTERVAL_METHODS[0],
        judges: bool = True,
        transport_bias: float | str | None = HELD_OUT,
        seed: int = 0,
    ) -> None:
        self.interval = interval
        self.judges = judges
        self.transport_bias = transport_bias
        self.seed = seed

    def fit_table(
        self, scores: pd.DataFrame, human: pd.DataFrame, *, scale: Any = None
    ) -> ScoreResult:
        """Check the tables (:func:`~regression.scores.table.check_scores`) and estimate.

        Parameters
        ----------
        scores : DataFrame
            ``generator, item, validator, score``.
        human : DataFrame
            ``generator, item, human``, optionally ``inclusion_probability``.
        scale : (float, float), optional
            The rating scale; default read from the ratings, with a
            :class:`~regression.scores.table.ScaleWarning`.

        Raises
        ------
        InputError
            A setting outside its constraints, or a bad value in a table (its row and column).
        """
        self.check_settings()
        table = check_scores(scores, human, scale)
        return fit_scores(
            table,
            judges=self.judges,
            interval=self.interval,
            transport_bias=self.transport_bias,
            seed=self.seed,
        )


def fit_scores(
    table: ScoreTable,
    *,
    judges: bool = True,
    interval: str = BOUNDED_INTERVAL_METHODS[0],
    transport_bias: float | str | None = HELD_OUT,
    seed: int = 0,
) -> ScoreResult:
    """Estimate every generator of a checked :class:`~regression.scores.table.ScoreTable`."""
    caught: list[str] = []
    f = cross_fitted_prediction(table, seed=seed)
    y = table.outcome
    pi = table.units["inclusion_probability"].to_numpy(dtype=float)
    codes = table.generator_codes
    rated = {}
    positions = {}
    for g, name in enumerate(table.generators):
        mine = codes == g
        on = mine & table.rated
        if on.sum() < MIN_RATINGS:
            if on.any():
                message = (
                    f"{name!r} has {int(on.sum())} rating(s), fewer than {MIN_RATINGS}: its "
                    "estimate is transported from the other generators' calibration."
                )
                warnings.warn(message, FewRatingsWarning, stacklevel=3)
                caught.append(message)
            continue
        rated[str(name)] = estimate_rated(y[on], f[on], f[mine], pi[on], judges=judges)
        positions[g] = rated[str(name)]
    names = [str(g) for g in table.generators]
    all_rated = table.rated & np.isin(codes, list(positions))
    y0 = np.nan_to_num(y)
    if all_rated.sum() >= 2:
        predictor = fit_predictor(table.scores[all_rated], y0[all_rated], seed=seed)
        prediction = predictor(table.scores)
    else:
        predictor = fit_predictor(table.scores[:0], y0[:0], seed=seed)
        prediction = np.full(len(table.units), np.nan)
    transported = pd.Series(
        pd.Series(prediction).groupby(codes).mean().reindex(range(len(names))).to_numpy(),
        index=pd.Index(names, name="generator"),
    )
    held = transport_errors(table, positions, seed=seed)
    held_out = pd.Series({names[g]: value for g, value in held.items()}, dtype=float).reindex(
        transported.index
    )
    if not rated:
        message = "no generator has enough ratings: every estimate is transported, with no bound."
        warnings.warn(message, FewRatingsWarning, stacklevel=3)
        caught.append(message)
    return ScoreResult(
        table=table,
        rated=rated,
        transported=transported,
        held_out=held_out,
        predictor=predictor,
        interval_method=interval,
        method="ppi++" if judges else "labels_only",
        transport_bias=transport_bias,
        warnings=tuple(caught),
        seed=seed,
    )
