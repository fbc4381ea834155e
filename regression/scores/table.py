"""Judges' scores and human ratings, checked once into a :class:`ScoreTable`.

Two tables (docs/design.md, the data model):

- **scores**: ``generator, item, validator, score``, one row per judge and
  output; ``score`` a number, each judge on its own scale (a 1-10 grade, a
  0-1 rubric score, a reward model's logit): the predictor only uses its order.
- **ratings**: ``generator, item, human``, a number on the rating scale, on
  any subset of the scored outputs, drawn uniformly (``n / N`` per generator)
  or with each rated output's ``inclusion_probability``.

The rating scale ``(low, high)`` is declared, or read from the ratings'
smallest and largest values with a :class:`ScaleWarning` (a scale read from
the data is the widest the ratings show, not the one the raters were given).
Binary labels are the special case ``scale=(0, 1)``.

:func:`validate_scores` and :func:`validate_ratings` raise an
:class:`~regression.errors.InputError` at the first bad value, with its row
(0-based position in the table as given) and column, so that a reader of
files names the line.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import (
    PROBABILITY_COLUMN,
    check_inclusion_probabilities,
    plain,
    rank_in_order,
    refuse_repeats,
    require_columns,
)
from regression.errors import InputError, JurycalWarning, MissingValueError

__all__ = [
    "RATING_COLUMNS",
    "SCORE_COLUMNS",
    "ScaleWarning",
    "ScoreTable",
    "check_scale",
    "check_scores",
    "validate_ratings",
    "validate_scores",
]

#: The columns of a judges' score table.
SCORE_COLUMNS = ("generator", "item", "validator", "score")
#: The columns of a human rating table (``inclusion_probability`` optional).
RATING_COLUMNS = ("generator", "item", "human")


class ScaleWarning(JurycalWarning):
    """The rating scale was not declared: it was read from the ratings."""


def _numbers(table: pd.DataFrame, column: str, name: str) -> np.ndarray:
    """``table[column]`` as floats; an :class:`InputError` at the first missing, non-number or infinite value."""
    raw = table[column]
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float)
    if raw.dtype == bool:  # True / False are verdicts, not numbers on a scale
        values = np.full(len(raw), np.nan)
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = plain(raw.iloc[row])
        if pd.isna(value):
            raise MissingValueError(
                f"{name} has a missing {column} at row {row}; drop or fill the row first.",
                row=row,
                column=column,
            )
        raise InputError(
            f"{name} has {column} {value!r} at row {row}; it must be a finite number.",
            row=row,
            column=column,
            value=value,
        )
    return values


def _keys(table: pd.DataFrame, columns: Sequence[str], name: str) -> None:
    """An error at the first missing key or repeated key (the key is ``columns``)."""
    for column in columns:
        missing = table[column].isna().to_numpy()
        if missing.any():
            row = int(np.flatnonzero(missing)[0])
            raise MissingValueError(
                f"{name} has a missing {column} at row {row}.", row=row, column=column
            )
    refuse_repeats(table, columns, name, f"keep one row per ({', '.join(columns)})")


def validate_scores(scores: pd.DataFrame, name: str = "scores") -> pd.DataFrame:
    """The judges' scores as a fresh ``generator, item, validator, score`` frame, ``score`` float.

    Raises
    ------
    InputError
        A missing column (:class:`~regression.errors.MissingColumnError`), a
        missing key or score, a score that is not a finite number, or a
        repeated ``(generator, item, validator)``; ``row`` and ``column`` say where.

    Examples
    --------
    >>> validate_scores(pd.DataFrame({"generator": ["a"], "item": [1], "validator": ["j"],
    ...                               "score": ["7"]}))["score"].tolist()
    [7.0]
    >>> bad = pd.DataFrame({"generator": ["a", "a"], "item": [1, 2], "validator": "j",
    ...                     "score": [7, "good"]})
    >>> try:
    ...     validate_scores(bad)
    ... except InputError as error:
    ...     print(error.row, error.column, error.value)
    1 score good
    """
    require_columns(scores, SCORE_COLUMNS, name)
    if len(scores) == 0:
        raise InputError(f"{name} has no rows.", column="score")
    table = scores[list(SCORE_COLUMNS)].reset_index(drop=True)
    _keys(table, ("generator", "item", "validator"), name)
    return table.assign(score=_numbers(table, "score", name))


def check_scale(scale: Any) -> tuple[float, float]:
    """``(low, high)``, two finite numbers with ``low < high``, else an :class:`InputError`.

    Examples
    --------
    >>> check_scale((1, 5))
    (1.0, 5.0)
    """
    try:
        low, high = (float(v) for v in scale)
    except (TypeError, ValueError):
        raise InputError(
            f"scale {scale!r} is not two numbers (low, high).", column="scale", value=scale
        ) from None
    if not (np.isfinite(low) and np.isfinite(high) and low < high):
        raise InputError(
            f"scale {scale!r} must be two finite numbers with low < high.",
            column="scale",
            value=scale,
        )
    return low, high


def validate_ratings(
    ratings: pd.DataFrame,
    scale: Any = None,
    scores: pd.DataFrame | None = None,
    name: str = "ratings",
) -> tuple[pd.DataFrame, tuple[float, float]]:
    """The human ratings as a fresh ``generator, item, human[, inclusion_probability]`` frame, and the scale.

    Parameters
    ----------
    ratings : DataFrame
        ``generator, item, human``, optionally ``inclusion_probability``.
    scale : (float, float), optional
        The rating scale; default: the ratings' smallest and largest values,
        with a :class:`ScaleWarning`.
    scores : DataFrame, optional
        The checked judges' scores (:func:`validate_scores`): a rating on an
        output no judge scored is refused.
    name : str
        The table's name in errors.

    Raises
    ------
    InputError
        A missing column, a missing key or rating, a rating that is not a
        number, outside the declared scale, a repeated ``(generator, item)``,
        an ``inclusion_probability`` outside (0, 1], or a rated output no
        judge scored; ``row`` and ``column`` say where.

    Examples
    --------
    >>> human = pd.DataFrame({"generator": ["a", "a"], "item": [1, 2], "human": [4, 6]})
    >>> try:
    ...     validate_ratings(human, scale=(1, 5))
    ... except InputError as error:
    ...     print(error.row, error.column, error.value)
    1 human 6
    """
    require_columns(ratings, RATING_COLUMNS, name)
    columns = list(RATING_COLUMNS)
    if PROBABILITY_COLUMN in ratings.columns:
        columns.append(PROBABILITY_COLUMN)
    table = ratings[columns].reset_index(drop=True)
    _keys(table, ("generator", "item"), name)
    values = _numbers(table, "human", name)
    if scale is None:
        if values.size == 0 or values.min() == values.max():
            raise InputError(
                f"{name} hold {'no rating' if values.size == 0 else 'one value only'}: declare "
                "the rating scale (scale=(low, high)).",
                column="human",
            )
        low, high = float(values.min()), float(values.max())
        warnings.warn(
            f"the rating scale was not declared; read from the ratings as ({low:g}, {high:g}). "
            "Declare it (scale=(low, high)) if the raters could give more.",
            ScaleWarning,
            stacklevel=2,
        )
    else:
        low, high = check_scale(scale)
        outside = (values < low) | (values > high)
        if outside.any():
            row = int(np.flatnonzero(outside)[0])
            raise InputError(
                f"{name} has human {plain(table['human'].iloc[row])!r} at row {row}, outside "
                f"the rating scale ({low:g}, {high:g}).",
                row=row,
                column="human",
                value=plain(table["human"].iloc[row]),
            )
    check_inclusion_probabilities(table, name)
    if scores is not None:
        scored = pd.MultiIndex.from_frame(scores[["generator", "item"]].drop_duplicates())
        unscored = ~pd.MultiIndex.from_frame(table[["generator", "item"]]).isin(scored)
        if unscored.any():
            row = int(np.flatnonzero(unscored)[0])
            key = tuple(plain(v) for v in table[["generator", "item"]].iloc[row])
            raise InputError(
                f"{name} rate (generator, item) = {key!r} at row {row}, which no judge scored.",
                row=row,
                column="item",
                value=key,
            )
    return table.assign(human=values), (low, high)


@dataclass(frozen=True, eq=False)
class ScoreTable:
    """The scored outputs, the judges' scores on them and the human ratings, output by output.

    Attributes
    ----------
    units : DataFrame
        One row per scored ``(generator, item)``, ordered by their text
        (so the fit does not depend on the tables' row order): ``generator, item``, ``human`` (NaN where unrated) and
        ``inclusion_probability`` (NaN where unrated; ``n / N`` for a
        generator rated uniformly).
    scores : ndarray, shape (n_units, n_validators)
        Each judge's score of each output (NaN where it gave none).
    validators : Index
        The judges, in order of first appearance.
    generators : Index
        The generators, in order of first appearance.
    scale : (float, float)
        The rating scale.
    """

    units: pd.DataFrame
    scores: np.ndarray
    validators: pd.Index
    generators: pd.Index
    scale: tuple[float, float]

    @property
    def rated(self) -> np.ndarray:
        """Whether each unit has a human rating."""
        return self.units["human"].notna().to_numpy()

    @property
    def outcome(self) -> np.ndarray:
        """The ratings rescaled to [0, 1] by the scale (NaN where unrated)."""
        low, high = self.scale
        return (self.units["human"].to_numpy(dtype=float) - low) / (high - low)

    @property
    def generator_codes(self) -> np.ndarray:
        """Each unit's generator as its position in :attr:`generators`."""
        return self.generators.get_indexer(self.units["generator"])

    def n_labels(self) -> pd.Series:
        """Human ratings per generator."""
        counts = pd.Series(self.rated).groupby(self.generator_codes).sum()
        return pd.Series(
            counts.reindex(range(len(self.generators)), fill_value=0).to_numpy(dtype=int),
            index=self.generators,
            name="n_labels",
        )


def check_scores(scores: pd.DataFrame, ratings: pd.DataFrame, scale: Any = None) -> ScoreTable:
    """Check both tables (:func:`validate_scores`, :func:`validate_ratings`) into a :class:`ScoreTable`.

    Examples
    --------
    >>> scores = pd.DataFrame({"generator": "a", "item": [1, 2, 3], "validator": "j",
    ...                        "score": [0.2, 0.9, 0.5]})
    >>> human = pd.DataFrame({"generator": "a", "item": [1, 2], "human": [2, 5]})
    >>> table = check_scores(scores, human, scale=(1, 5))
    >>> table.units["inclusion_probability"].round(3).tolist()[:2], table.outcome.tolist()[:2]
    ([0.667, 0.667], [0.25, 1.0])
    """
    checked = validate_scores(scores)
    with warnings.catch_warnings():
        # the note is the caller's: raised again below with its stacklevel
        warnings.simplefilter("ignore", ScaleWarning)
        human, bounds = validate_ratings(ratings, scale, checked)
    if scale is None:
        warnings.warn(
            f"the rating scale was not declared; read from the ratings as ({bounds[0]:g}, "
            f"{bounds[1]:g}). Declare it (scale=(low, high)) if the raters could give more.",
            ScaleWarning,
            stacklevel=2,
        )
    units = checked[["generator", "item"]].drop_duplicates()
    generators = pd.Index(pd.unique(units["generator"]), name="generator")
    # the units in one order whatever the tables' row order (the cross-fit's folds follow it)
    order = np.lexsort((rank_in_order(units["item"]), rank_in_order(units["generator"])))
    units = units.iloc[order].reset_index(drop=True)
    # and the judges: the stacked predictor's columns (tied or collinear judges leave its
    # weights to the columns' order)
    named = pd.unique(checked["validator"])
    validators = pd.Index(named[np.argsort(rank_in_order(named))], name="validator")
    position = pd.MultiIndex.from_frame(units).get_indexer(
        pd.MultiIndex.from_frame(checked[["generator", "item"]])
    )
    matrix = np.full((len(units), len(validators)), np.nan)
    matrix[position, validators.get_indexer(checked["validator"])] = checked["score"].to_numpy()
    at = pd.MultiIndex.from_frame(units).get_indexer(
        pd.MultiIndex.from_frame(human[["generator", "item"]])
    )
    rating = np.full(len(units), np.nan)
    rating[at] = human["human"].to_numpy()
    probability = np.full(len(units), np.nan)
    if PROBABILITY_COLUMN in human.columns:
        given = pd.to_numeric(human[PROBABILITY_COLUMN], errors="coerce").to_numpy(dtype=float)
        probability[at] = given
    codes = generators.get_indexer(units["generator"])
    rated = ~np.isnan(rating)
    for g in range(len(generators)):
        mine = codes == g
        missing = mine & rated & np.isnan(probability)
        # uniform where not given: the generator's n rated of N scored
        probability[missing] = rated[mine].sum() / mine.sum()
    units = units.assign(human=rating, **{PROBABILITY_COLUMN: probability})
    return ScoreTable(units, matrix, validators, generators, bounds)
