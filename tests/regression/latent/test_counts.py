"""Counts matrix: counting the judgments table, chunked sums, validation (regression.data.counts)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression.data.counts import Counts, counts_from_judgments
from regression.datasets import load_agreeableness_judgments


def _judgments(rows):
    return pd.DataFrame(rows, columns=["generator", "item", "validator", "label"])


def test_counts_count_valid_and_labelled_and_skip_missing():
    table = _judgments(
        [("g1", 1, "v1", 1), ("g1", 2, "v1", 0), ("g1", 3, "v1", pd.NA), ("g2", 1, "v2", "valid")]
    )
    counts = counts_from_judgments(table)
    assert counts.n_valid.loc["g1", "v1"] == 1 and counts.n_labelled.loc["g1", "v1"] == 2
    assert counts.n_labelled.loc["g1", "v2"] == 0  # never run: absent
    assert np.isnan(counts.rates.loc["g1", "v2"])
    assert counts.rates.loc["g2", "v2"] == 1.0  # exact: integer counts and their share


def test_all_missing_pair_is_kept_as_an_absent_cell():
    counts = counts_from_judgments(_judgments([("g", 1, "v", pd.NA), ("g", 1, "w", 1)]))
    assert list(counts.validators) == ["v", "w"]
    assert counts.n_labelled.loc["g", "v"] == 0


def test_real_judgments_match_the_released_rates():
    judgments, _ = load_agreeableness_judgments("feedback+lines+labels")
    counts = counts_from_judgments(judgments)
    # every vote row is accounted for: labelled + missing == rows
    missing = int(judgments["label"].isna().sum())
    assert int(counts.n_labelled.to_numpy().sum()) + missing == len(judgments)
    assert counts.n_labelled.shape == (6, 14)


def test_duplicate_triple_is_an_error_naming_it():
    table = _judgments([("g", 1, "v", 1), ("g", 2, "v", 0), ("g", 1, "v", 0)])
    with pytest.raises(
        ValueError,
        match=r"repeats \(generator, item, validator\) = \('g', 1, 'v'\) at row 2, first seen at row 0",
    ):
        counts_from_judgments(table)


def test_bad_label_and_missing_column():
    with pytest.raises(ValueError, match=r"got 'maybe' at position 1"):
        counts_from_judgments(_judgments([("g", 1, "v", 1), ("g", 2, "v", "maybe")]))
    with pytest.raises(ValueError, match=r"missing column\(s\) \['label'\]"):
        counts_from_judgments(pd.DataFrame({"generator": ["g"], "item": [1], "validator": ["v"]}))


def test_counts_validation_names_the_cell():
    frame = pd.DataFrame({"v": [3]}, index=["g"])
    with pytest.raises(
        ValueError,
        match=r"n_valid \(5\) must not be greater than n_labelled \(3\) for generator 'g' and validator 'v'",
    ):
        Counts(frame + 2, frame)
    with pytest.raises(ValueError, match=r"n_labelled must be non-negative whole counts; got 2.5"):
        Counts(frame * 0, frame - 0.5)
    with pytest.raises(ValueError, match="same generators"):
        Counts(frame, frame.rename(index={"g": "h"}))


def test_radd_zero_and_type_error():
    frame = pd.DataFrame({"v": [3]}, index=["g"])
    counts = Counts(frame, frame)
    assert (0 + counts) is counts
    with pytest.raises(TypeError):
        counts + 1  # noqa: B018


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from("abc"),
            st.integers(0, 5),
            st.sampled_from("xyz"),
            st.sampled_from([0, 1, None]),
        ),
        min_size=1,
        max_size=40,
        unique_by=lambda r: r[:3],
    ),
    st.integers(1, 5),
)
def test_chunked_counting_equals_counting_at_once(rows, n_chunks):
    table = _judgments(rows)
    whole = counts_from_judgments(table)
    chunks = np.array_split(np.arange(len(table)), n_chunks)
    summed = sum(counts_from_judgments(table.iloc[idx]) for idx in chunks if len(idx))
    pd.testing.assert_frame_equal(  # exact: integer counts and their share
        summed.n_valid.loc[whole.generators, whole.validators], whole.n_valid
    )
    pd.testing.assert_frame_equal(  # exact: integer counts and their share
        summed.n_labelled.loc[whole.generators, whole.validators], whole.n_labelled
    )
    assert int(whole.n_labelled.to_numpy().sum()) == int(table["label"].notna().sum())
