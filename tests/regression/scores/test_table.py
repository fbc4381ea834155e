"""The score and rating tables: every bad value refused with its row and column."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from regression.errors import DuplicateRowError, InputError, MissingColumnError, MissingValueError
from regression.scores import ScaleWarning, check_scores, validate_ratings, validate_scores


def _scores() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "generator": ["a", "a", "a", "b", "b"],
            "item": [1, 2, 3, 1, 2],
            "validator": "j",
            "score": [0.1, 0.5, 0.9, 0.3, 0.7],
        }
    )


def _ratings() -> pd.DataFrame:
    return pd.DataFrame({"generator": ["a", "a", "b"], "item": [1, 3, 2], "human": [2, 5, 4]})


@pytest.mark.parametrize(
    ("column", "value", "error", "match"),
    [
        ("score", "high", InputError, "score 'high' at row 2"),
        ("score", np.inf, InputError, "score inf at row 2"),
        ("score", None, MissingValueError, "missing score at row 2"),
        ("item", 1, DuplicateRowError, r"repeats \(generator, item, validator\).*row 2, first"),
        ("generator", None, MissingValueError, "missing generator at row 2"),
    ],
)
def test_a_bad_score_is_named_with_its_row_and_column(column, value, error, match):
    scores = _scores().astype({"score": object, "generator": object})
    scores.loc[2, column] = value
    with pytest.raises(error, match=match) as caught:
        validate_scores(scores)
    assert caught.value.row == 2 and caught.value.column in (column, "validator")


def test_a_table_without_its_columns_is_refused():
    with pytest.raises(MissingColumnError, match="missing column"):
        validate_scores(_scores().drop(columns="score"))
    with pytest.raises(MissingColumnError, match="missing column"):
        validate_ratings(_ratings().drop(columns="human"), (1, 5))


@pytest.mark.parametrize(
    ("row", "column", "value", "match"),
    [
        (1, "human", 6, "human 6 at row 1, outside the rating scale"),
        (1, "human", "five", "human 'five' at row 1"),
        (2, "item", 3, r"rate \(generator, item\) = \('b', 3\) at row 2, which no judge scored"),
        (1, "item", 1, r"repeats \(generator, item\)"),
        (0, "inclusion_probability", 1.5, "inclusion_probability 1.5 at row 0"),
    ],
)
def test_a_bad_rating_is_named_with_its_row_and_column(row, column, value, match):
    ratings = _ratings().astype({"human": object})
    ratings["inclusion_probability"] = 0.5
    ratings.loc[row, column] = value
    with pytest.raises(InputError, match=match) as caught:
        validate_ratings(ratings, (1, 5), validate_scores(_scores()))
    assert caught.value.row == row and caught.value.column == column


def test_a_scale_not_declared_is_read_from_the_ratings_with_a_note():
    with pytest.warns(ScaleWarning, match=r"read from the ratings as \(2, 5\)"):
        table = check_scores(_scores(), _ratings())
    assert table.scale == (2.0, 5.0)  # exact: the ratings' own integers, read as floats
    with pytest.raises(InputError, match="declare the rating scale"):
        validate_ratings(_ratings().assign(human=3))
    with pytest.raises(InputError, match="low < high"):
        validate_ratings(_ratings(), (5, 1))


def test_the_table_holds_each_output_once_with_its_design():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a declared scale: no note
        table = check_scores(_scores(), _ratings(), scale=(1, 5))
    assert table.units[["generator", "item"]].values.tolist() == [
        ["a", 1],
        ["a", 2],
        ["a", 3],
        ["b", 1],
        ["b", 2],
    ]
    # uniform where not given: a has 2 of 3 rated, b 1 of 2 (exact: one division each)
    pi = table.units["inclusion_probability"].to_numpy()
    # exact: one division of two counts each, as the literals are
    assert pi[[0, 2, 4]].tolist() == [2 / 3, 2 / 3, 1 / 2] and np.isnan(pi[[1, 3]]).all()
    # exact: (rating - 1) / 4 of integers, each a power-of-two fraction
    assert table.outcome[[0, 2, 4]].tolist() == [0.25, 1.0, 0.75]
    assert table.n_labels().to_dict() == {"a": 2, "b": 1}


def test_binary_labels_are_the_scale_zero_one():
    ratings = _ratings().assign(human=[0, 1, 1])
    table = check_scores(_scores(), ratings, scale=(0, 1))
    assert table.outcome[[0, 2, 4]].tolist() == [0.0, 1.0, 1.0]  # exact: (0 or 1 - 0) / 1
