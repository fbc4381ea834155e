"""Typed errors carry where the fault is; every warning belongs to one family."""

import warnings

import pandas as pd
import pytest

from ensemble.voting import NoVoteWarning
from regression import InputError, JurycalWarning
from regression.checks import check_human_labels, coerce_binary, require_columns
from regression.data import encode_judgments
from regression.errors import (
    ConvergenceWarning,
    DuplicateRowError,
    LabelError,
    MisfitWarning,
    MissingColumnError,
    MissingValueError,
    SettingsWarning,
    UnidentifiedWarning,
)
from regression.single_judge.ppi import SmallCalibrationWarning

VOTES = pd.DataFrame(
    {
        "generator": ["g", "g", "h"],
        "item": [1, 2, 1],
        "validator": ["v", "v", "v"],
        "label": [1, 0, 1],
    }
)


def test_a_label_that_is_not_binary_names_its_row_column_and_value():
    with pytest.raises(LabelError, match="got 'maybe' at position 2") as caught:
        coerce_binary("label", [1, 0, "maybe"])
    error = caught.value
    assert isinstance(error, ValueError) and isinstance(error, InputError)
    assert (error.row, error.column, error.value) == (2, "label", "maybe")


def test_a_missing_column_is_named():
    with pytest.raises(MissingColumnError) as caught:
        require_columns(VOTES.drop(columns="label"), ["generator", "item", "label"], "judgments")
    assert caught.value.column == "label" and caught.value.value == ["label"]


def test_a_repeated_vote_and_a_repeated_human_label_give_the_key_and_row():
    with pytest.raises(DuplicateRowError) as caught:
        encode_judgments(pd.concat([VOTES, VOTES.iloc[[1]]], ignore_index=True))
    assert (caught.value.row, caught.value.value) == (3, ("g", 2, "v"))
    assert caught.value.first_row == 1  # the row it repeats
    human = pd.DataFrame({"generator": ["g", "g"], "item": [1, 1], "human": [1, 0]})
    with pytest.raises(DuplicateRowError) as caught:
        check_human_labels(human)
    assert (caught.value.row, caught.value.value, caught.value.first_row) == (1, ("g", 1), 0)
    assert "repeats (generator, item) = ('g', 1) at row 1, first seen at row 0" in str(caught.value)


def test_a_repeated_key_with_a_missing_value_finds_the_row_it_repeats():
    from regression.checks import first_repeat

    frame = pd.DataFrame({"g": ["a", None, "b", None], "i": [1, 2, 1, 2]})
    assert first_repeat(frame, ["g", "i"]) == (3, 1)  # missing values count as equal, as pandas'
    assert first_repeat(frame.iloc[:3], ["g", "i"]) is None


def test_missing_values_name_their_row():
    with pytest.raises(MissingValueError) as caught:
        encode_judgments(VOTES.assign(validator=["v", None, "v"]))
    assert (caught.value.row, caught.value.column) == (1, "validator")
    with pytest.raises(MissingValueError) as caught:
        coerce_binary("human", [1, None])
    assert caught.value.row == 1


@pytest.mark.parametrize(
    "category",
    [
        ConvergenceWarning,
        MisfitWarning,
        UnidentifiedWarning,
        SettingsWarning,
        SmallCalibrationWarning,
        NoVoteWarning,
    ],
)
def test_every_warning_is_a_jurycal_warning(category):
    assert issubclass(category, JurycalWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", JurycalWarning)  # one filter silences jurycal alone
        warnings.warn("quiet", category, stacklevel=1)
