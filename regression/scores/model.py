""":class:`ScoreModel`: each generator's mean human rating from judges' scores and a few ratings."""

from __future__ import annotations

import numbers
import warnings
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from regression.errors import InputError, JurycalWarning
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
    interval : {"floored", "betting", "normal"}
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`, docs/intervals.md)
        the rated generators' interval: the engine's floored interval on the
        rating scale (default), its betting interval (valid at any number of
        ratings, wider), or the normal one (undercovers a skewed rating at few
        ratings).
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
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", JurycalWarning)
            table = check_scores(scores, human, scale)
        for note in caught:  # raised again at the caller's line, and kept on the result
            warnings.warn(note.message, note.category, stacklevel=2)
        result = fit_scores(
            table,
            judges=self.judges,
            interval=self.interval,
            transport_bias=self.transport_bias,
            seed=self.seed,
        )
        checked = tuple(str(note.message) for note in caught)
        return replace(result, warnings=checked + result.warnings) if checked else result


def fit_scores(
    table: ScoreTable,
    *,
    judges: bool = True,
    interval: str = BOUNDED_INTERVAL_METHODS[0],
    transport_bias: float | str | None = HELD_OUT,
    seed: int = 0,
) -> ScoreResult:
    """Estimate every generator of a checked :class:`~regression.scores.table.ScoreTable`.

    Raises
    ------
    InputError
        Fewer than two rated outputs: nothing maps the judges' scores to the rating scale.
    """
    if table.rated.sum() < 2:
        raise InputError(
            f"the ratings hold {int(table.rated.sum())} rated output(s): at least two are needed "
            "to calibrate the judges' scores to the rating scale.",
            column="human",
        )
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
        rated[name] = positions[g] = estimate_rated(y[on], f[on], f[mine], pi[on], judges=judges)
    # the calibration carried to the other generators: fitted on every rating there is
    predictor = fit_predictor(table.scores[table.rated], y[table.rated], seed=seed)
    transported = pd.Series(
        pd.Series(predictor(table.scores)).groupby(codes).mean().to_numpy(), index=table.generators
    )
    held = transport_errors(table, positions, seed=seed)
    held_out = pd.Series(
        [held.get(g, np.nan) for g in range(len(table.generators))], index=table.generators
    )
    if not rated:
        message = (
            f"no generator has {MIN_RATINGS} ratings: every estimate is transported, with no bound."
        )
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
