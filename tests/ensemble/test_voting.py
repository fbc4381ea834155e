"""ensemble.voting: the rules of the agreeableness paper, section 4, on hand-computed votes."""

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from ensemble import (
    NoVoteWarning,
    default_threshold,
    tally_votes,
    vote,
    vote_matrices,
    vote_matrix,
)

NAN = np.nan
# Five validators. A: 3 valid / 2 invalid; B: 2 valid / 1 invalid / 2 missing;
# C: 1 valid / 3 invalid / 1 missing; D: no vote cast.
VOTES = np.array(
    [
        [1, 1, 1, 0, 0],
        [1, 1, NAN, NAN, 0],
        [0, 0, 0, NAN, 1],
        [NAN, NAN, NAN, NAN, NAN],
    ]
)


def quiet_vote(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        return vote(*args, **kwargs)


def test_default_thresholds():
    # Section 4: Simple Majority is 8 of 14, Super Majority 10 of 14.
    assert default_threshold("majority", 14) == 8
    assert default_threshold("supermajority", 14) == 10
    # The veto mirroring supermajority: 14 - 10 + 1.
    assert default_threshold("minority_veto", 14) == 5
    assert [default_threshold("majority", v) for v in (1, 2, 3, 4)] == [1, 2, 2, 3]
    assert [default_threshold("supermajority", v) for v in (1, 3, 5, 6)] == [1, 2, 4, 4]


def test_tally_counts_each_kind_of_vote():
    t = tally_votes(VOTES)
    assert t.n_valid.tolist() == [3, 2, 1, 0]
    assert t.n_invalid.tolist() == [2, 1, 3, 0]
    assert t.n_missing.tolist() == [0, 2, 1, 5]
    assert t.no_vote.tolist() == [False, False, False, True]
    assert (t.n_items, t.n_validators, t.n_no_vote) == (4, 5, 1)
    assert t.missing_fraction == pytest.approx(8 / 20)


@pytest.mark.parametrize(
    ("rule", "threshold", "expected"),
    [
        ("majority", None, [1, 0, 0, 0]),  # k = 3: B has only 2 valid votes, missing is not valid
        ("majority", 2, [1, 1, 0, 0]),
        ("majority", 1, [1, 1, 1, 0]),
        ("supermajority", None, [0, 0, 0, 0]),  # k = 4
        ("minority_veto", None, [0, 1, 0, 1]),  # n = 2 invalid votes veto; D has none
        ("minority_veto", 1, [0, 0, 0, 1]),
        ("minority_veto", 3, [1, 1, 0, 1]),
        ("minority_veto", 5, [1, 1, 1, 1]),
    ],
)
def test_rules_by_hand_paper_missing_policy(rule, threshold, expected):
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        quiet_vote(VOTES, rule, threshold), expected
    )


@pytest.mark.parametrize(
    ("rule", "threshold", "expected"),
    [
        # valid iff n_valid / n_cast >= 3/5: A 3/5 yes, B 2/3 yes, C 1/4 no, D missing
        ("majority", 3, [1, 1, 0, NAN]),
        # valid iff n_valid / n_cast >= 4/5: none
        ("supermajority", None, [0, 0, 0, NAN]),
        # invalid iff n_invalid / n_cast >= 2/5: A 2/5 yes, B 1/3 no, C 3/4 yes
        ("minority_veto", 2, [0, 1, 0, NAN]),
    ],
)
def test_rules_by_hand_ignore_missing(rule, threshold, expected):
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        quiet_vote(VOTES, rule, threshold, missing="ignore"), expected
    )


def test_no_vote_items_are_reported():
    with pytest.warns(
        NoVoteWarning, match=r"1 of 4 item\(s\) had no vote cast .* labelled invalid"
    ):
        vote(VOTES, "majority")
    with pytest.warns(NoVoteWarning, match=r"labelled valid \(rule='minority_veto'"):
        vote(VOTES, "minority_veto")
    with pytest.warns(NoVoteWarning, match=r"labelled NaN"):
        vote(VOTES, "majority", missing="ignore")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        vote(VOTES[:3], "majority")  # every item has a vote: silent


def test_pandas_in_pandas_out_index_kept():
    frame = pd.DataFrame(
        VOTES[:3], index=pd.Index(["x", "y", "z"], name="id"), columns=list("abcde")
    )
    frame = frame.astype("Float64")  # nullable, pd.NA for missing
    out = vote(frame, "majority", 2)
    assert isinstance(out, pd.Series)
    assert out.index.equals(frame.index)  # exact: the index's labels, no floats
    assert out.tolist() == [1.0, 1.0, 0.0]  # exact: votes and labels are 0, 1 or NaN


def judgments_table():
    return pd.DataFrame(
        {
            "generator": ["g", "g", "g", "g", "h", "h"],
            "item": [0, 0, 1, 1, 7, 7],
            "validator": ["a", "b", "a", "b", "a", "b"],
            "label": pd.array([1, 1, 1, pd.NA, 0, 1], dtype="Int8"),
        }
    )


def test_judgments_table_gives_generator_item_index():
    out = vote(judgments_table(), "majority", 2)
    assert out.index.names == ["generator", "item"]
    # exact: votes and labels are 0, 1 or NaN
    assert out.to_dict() == {("g", 0): 1.0, ("g", 1): 0.0, ("h", 7): 0.0}


def test_vote_matrix_and_per_generator_matrices():
    wide = vote_matrix(judgments_table())
    assert list(wide.columns) == ["a", "b"]
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        wide.to_numpy(), [[1, 1], [1, NAN], [0, 1]]
    )
    per = vote_matrices(judgments_table())
    assert list(per) == ["g", "h"]
    assert per["h"].index.tolist() == [7]
    assert per["g"].shape == (2, 2)


def test_pairs_never_labelled_are_missing_votes():
    table = judgments_table().iloc[:-1]  # validator b never labelled item ("h", 7)
    assert np.isnan(vote_matrix(table).loc[("h", 7), "b"])


def test_paper_data_every_item_has_a_vote():
    from regression.datasets import load_agreeableness_judgments

    judgments, human = load_agreeableness_judgments("feedback")
    t = tally_votes(judgments)
    assert t.n_items == len(human) == 5972
    assert t.n_no_vote == 0
    assert 0.01 < t.missing_fraction < 0.05  # data README: 1-4 % missing


binary_votes = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 30), st.integers(1, 16)),
    elements=st.sampled_from([0.0, 1.0]),
)
votes_with_missing = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 30), st.integers(1, 16)),
    elements=st.sampled_from([0.0, 1.0, NAN]),
)


@given(binary_votes, st.data())
def test_mirror_identity_without_missing_votes(votes, data):
    # Fig. 5 caption: valid voting at k mirrors minority veto at V - k + 1.
    n_validators = votes.shape[1]
    k = data.draw(st.integers(1, n_validators))
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        vote(votes, "majority", k), vote(votes, "minority_veto", n_validators - k + 1)
    )


@given(binary_votes, st.data())
def test_ignore_policy_changes_nothing_without_missing_votes(votes, data):
    rule = data.draw(st.sampled_from(["majority", "supermajority", "minority_veto"]))
    k = data.draw(st.integers(1, votes.shape[1]))
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        vote(votes, rule, k), vote(votes, rule, k, missing="ignore")
    )


@settings(max_examples=60)
@given(votes_with_missing, st.data())
def test_missing_votes_push_majority_down_and_veto_up(votes, data):
    # Section 4: under the paper's policy a missing vote can only turn a label
    # invalid under valid voting and valid under the veto.
    rule = data.draw(st.sampled_from(["majority", "minority_veto"]))
    k = data.draw(st.integers(1, votes.shape[1]))
    fill = data.draw(st.sampled_from([0.0, 1.0]))
    filled = np.where(np.isnan(votes), fill, votes)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        before, after = vote(votes, rule, k), vote(filled, rule, k)
    if rule == "majority":
        assert (
            np.all(before <= after)
            if fill == 1.0  # exact: votes and labels are 0, 1 or NaN
            else np.all(before == after)
        )
    else:
        assert (
            np.all(before >= after)
            if fill == 0.0  # exact: votes and labels are 0, 1 or NaN
            else np.all(before == after)
        )


@settings(max_examples=60)
@given(votes_with_missing, st.data())
def test_labels_do_not_depend_on_validator_order(votes, data):
    rule = data.draw(st.sampled_from(["majority", "supermajority", "minority_veto"]))
    missing = data.draw(st.sampled_from([None, "ignore"]))
    order = data.draw(st.permutations(range(votes.shape[1])))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
            vote(votes, rule, missing=missing), vote(votes[:, order], rule, missing=missing)
        )


@settings(max_examples=60)
@given(votes_with_missing)
def test_ignore_policy_labels_missing_exactly_the_no_vote_items(votes):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        labels = vote(votes, "minority_veto", 1, missing="ignore")
    np.testing.assert_array_equal(  # exact: votes and labels are 0, 1 or NaN
        np.isnan(labels), np.isnan(votes).all(axis=1)
    )


# -- bad input (section 4 of the issue) ----------------------------------------------------


@pytest.mark.parametrize("bad", [2.0, -1.0, 0.5])
def test_votes_other_than_0_1_nan(bad):
    votes = np.array([[1.0, 0.0], [1.0, bad]])
    with pytest.raises(ValueError, match=rf"got {bad!r} at item 1, validator 1"):
        vote(votes, "majority")


def test_string_votes_are_named():
    with pytest.raises(ValueError, match=r"got 'valid' at position \(0, 1\)"):
        vote([[1, "valid"]], "majority")


def test_judgments_labels_other_than_0_1_missing():
    table = judgments_table().astype({"label": object})
    table.loc[3, "label"] = "partially valid"
    with pytest.raises(ValueError, match=r"got 'partially valid' at position 3"):
        vote(table, "majority")
    table.loc[3, "label"] = 3
    with pytest.raises(ValueError, match=r"got 3 at position 3"):
        vote_matrix(table)


@pytest.mark.parametrize("bad", [0, 6, -1, 2.5, True])
def test_threshold_outside_1_to_v(bad):
    with pytest.raises(ValueError, match=rf"threshold \({bad!r}\) must"):
        vote(VOTES[:3], "majority", bad)


def test_threshold_message_names_the_range():
    with pytest.raises(
        ValueError, match=r"threshold \(6\) must lie in 1..5 \(the number of validators\)"
    ):
        vote(VOTES[:3], "minority_veto", 6)


@pytest.mark.parametrize("shape", [(0, 14), (5, 0), (0, 0)])
def test_empty_vote_matrix(shape):
    with pytest.raises(ValueError, match=r"votes is empty \(shape"):
        vote(np.zeros(shape), "majority")


def test_empty_judgments_table():
    with pytest.raises(ValueError, match=r"judgments is empty"):
        vote(judgments_table().iloc[:0], "majority")


def test_one_dimensional_votes():
    with pytest.raises(ValueError, match=r"2-D items x validators matrix; got 1 dimension"):
        vote([1, 0, 1], "majority")


def test_unknown_rule_and_policy():
    with pytest.raises(ValueError, match=r"rule \('majority_vote'\) not recognized"):
        vote(VOTES, "majority_vote")
    with pytest.raises(ValueError, match=r"rule \('Majority'\) not recognized"):
        vote(VOTES, "Majority")
    with pytest.raises(ValueError, match=r"missing \('drop'\) not recognized; must be None"):
        vote(VOTES, "majority", missing="drop")


def test_duplicated_votes_in_the_table():
    table = pd.concat([judgments_table(), judgments_table().iloc[[4]]], ignore_index=True)
    with pytest.raises(
        ValueError, match=r"1 duplicated vote\(s\); first: generator 'h', item 7, validator 'a'"
    ):
        vote_matrix(table)


def test_table_missing_columns_and_keys():
    with pytest.raises(ValueError, match=r"missing column\(s\) \['validator'\]"):
        vote_matrix(judgments_table().drop(columns="validator"))
    table = judgments_table()
    table.loc[2, "generator"] = None
    with pytest.raises(ValueError, match=r"missing generator at row 2"):
        vote_matrix(table)


def test_mapping_is_refused():
    with pytest.raises(ValueError, match=r"not a mapping"):
        vote(vote_matrices(judgments_table()), "majority")
