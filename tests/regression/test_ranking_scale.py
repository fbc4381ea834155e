"""The scalable pair family decides what forming every pair x draw decided (regression.ranking.family).

The implementation before the ranking scaled is kept in
benchmarks/ranking_reference.py; here both run on small boards (2 to 20
generators), several joint errors (normal, t, a bootstrap's own draws with
ties, tied estimates, a transfer fit's) and must give identical rank sets and
pair intervals for the same seed.
"""

import warnings

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from regression import InputError, JointError
from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.ranking import compare, leaderboard, rank_sets, rank_sets_from_decisions
from regression.ranking.family import PairFamily, TooFewDrawsWarning, pair_positions
from regression.ranking.plot import plot_board
from regression.results import Summary
from regression.transfer.model import TransferModel

from .test_ranking import joint


@pytest.fixture(scope="module")
def reference(benchmark):
    """benchmarks/ranking_reference.py: the every-pair-x-draw rank sets these are checked against."""
    return benchmark("ranking_reference")


def boards():
    """(name, joint error): small boards with the joint errors the estimators give."""
    rng = np.random.default_rng(20)
    out = []
    for g in (2, 3, 5, 8, 12, 20):
        a = rng.normal(size=(g, g))
        random = (a @ a.T / g + np.eye(g)) * 0.01**2
        shared = np.full((g, g), 0.015**2) + np.diag(rng.uniform(0.002, 0.01, g) ** 2)
        estimate = np.sort(rng.uniform(0.7, 0.95, g))
        out.append((f"iid {g}", joint(estimate, np.eye(g) * 0.01**2)))
        out.append((f"random {g}", joint(estimate, random)))
        out.append((f"shared t3 {g}", joint(estimate, shared, df=3.0)))
        tied = estimate.copy()
        tied[: g // 2] = tied[0]
        out.append((f"tied {g}", joint(tied, shared)))
        # a bootstrap's own draws: few, and rounded so that many tie
        draws = np.round(rng.normal(scale=0.01, size=(300, g)), 3)
        out.append((f"bootstrap {g}", joint(estimate, np.cov(draws, rowvar=False), draws=draws)))
    return out


BOARDS = boards()


@pytest.mark.parametrize("name, error", BOARDS, ids=[name for name, _ in BOARDS])
def test_rank_sets_and_pairs_are_those_of_every_pair_x_draw(name, error, reference):
    for alpha in (0.05, 0.2):
        new = rank_sets(error, alpha, n_draws=5000, seed=3)
        old = reference.reference_rank_sets(error, alpha, n_draws=5000, seed=3)
        # two algorithms over the same draws: sums in other orders
        pd.testing.assert_frame_equal(new, old, check_exact=False, rtol=1e-12)
        for simultaneous in (True, False):
            new_pairs = compare(error, alpha, simultaneous=simultaneous, n_draws=5000, seed=3)
            old_pairs = reference.reference_pairs(
                error, alpha, simultaneous=simultaneous, n_draws=5000, seed=3
            )
            pd.testing.assert_frame_equal(
                new_pairs[list(old_pairs.columns)], old_pairs, check_exact=False, rtol=1e-12
            )  # two algorithms


def test_pairs_asked_for_are_those_of_every_pair_x_draw(reference):
    _, error = BOARDS[-4]  # 20 generators, shared t3
    asked = [("g3", "g0"), ("g19", "g7"), ("g5", "g6")]
    positions = pair_positions(error.estimate.index, asked)
    new = compare(error, pairs=asked, n_draws=5000, seed=1)
    old = reference.reference_pairs(error, pairs=positions, n_draws=5000, seed=1)
    # two algorithms over the same draws: sums in other orders
    pd.testing.assert_frame_equal(new[list(old.columns)], old, check_exact=False, rtol=1e-12)


@pytest.mark.float_sensitive
def test_a_transfer_fits_joint_error_ranks_as_before(reference):
    world = transfer_world("informative", seed=4, n_generators=12, n_validators=5, n_items=300)
    calibration = list(world.precision.index[:4])
    anchors = Anchors.from_confusion(
        world.confusion, calibration, precision=world.sample_precision[calibration]
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        error = TransferModel().fit(world.counts, anchors=anchors).joint_error()
    pd.testing.assert_frame_equal(
        rank_sets(error, n_draws=8000, seed=2),
        reference.reference_rank_sets(error, n_draws=8000, seed=2),
        check_exact=False,
        rtol=1e-12,  # two algorithms over the same draws
    )


@settings(max_examples=25, deadline=None)
@given(
    st.integers(2, 9),
    st.integers(0, 2**16),
    st.sampled_from([0.01, 0.05, 0.3]),
    st.sampled_from([None, 1, 3]),
)
@pytest.mark.float_sensitive
def test_any_small_board_decides_as_before(reference, g, seed, alpha, digits):
    # random covariance, estimates and draws (rounded to `digits` decimals: ties) of any size
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(g, g))
    covariance = (a @ a.T / g + rng.uniform(0, 1) * np.eye(g)) * 0.01
    draws = rng.multivariate_normal(np.zeros(g), covariance, size=int(rng.integers(20, 3000)))
    if digits is not None:
        draws = np.round(draws, digits)
    error = joint(rng.normal(scale=0.2, size=g), covariance, draws=draws)
    pd.testing.assert_frame_equal(
        rank_sets(error, alpha),
        reference.reference_rank_sets(error, alpha),
        check_exact=False,
        rtol=1e-12,  # two algorithms over the same draws
    )


def test_threads_change_nothing():
    _, error = BOARDS[-4]
    one = compare(error, n_draws=5000, seed=1)
    pd.testing.assert_frame_equal(  # exact: same seeded draws, same path
        compare(error, n_draws=5000, seed=1, threads=2), one
    )


@pytest.mark.float_sensitive
@pytest.mark.parametrize("ordered", [False, True])
def test_the_tails_hold_the_top_of_each_pairs_null_law(ordered):
    # ordered: draws sorted by size, so that the first draws (where the candidate threshold is
    # read) are the smallest of every column and the threshold must fall back to the exact one
    _, error = BOARDS[-3]  # 20 generators, tied estimates
    draws = np.random.default_rng(0).standard_normal((6000, 20)) * 0.01
    if ordered:
        draws = np.sort(draws, axis=0)
    error = JointError(error.estimate, error.covariance, draws=np.round(draws, 4))
    a, b = pair_positions(error.estimate.index, None)
    family = PairFamily(error, a, b)
    family.find_tails(30, np.ones(len(family), dtype=bool))
    null = (family.draws[family.a] - family.draws[family.b]) / family.sd[:, None]
    order = np.argsort(null, axis=1, kind="stable")[:, ::-1][:, :30]
    np.testing.assert_array_equal(family.tail_draw, order)  # exact: same seeded draws, same path
    # the test's own formula for the standardised differences against the code's
    np.testing.assert_allclose(
        family.tail_value, np.take_along_axis(null, order, axis=1), rtol=1e-12, atol=1e-12
    )


# ------------------------------------------------------------------ the leaderboard's pair table


class _Result:
    """The least a result needs to be ranked: interval() and a fixed joint error."""

    method = "transfer"
    warnings = ()

    def __init__(self, error):
        self.error = error

    def joint_error(self, seed=0):
        return self.error

    def interval(self, alpha=0.05, *, alternative="two-sided"):
        sd = np.sqrt(np.diag(self.error.covariance))
        estimate = self.error.estimate
        return pd.DataFrame(
            {"estimate": estimate, "low": estimate - 2 * sd, "high": estimate + 2 * sd}
        ).assign(method="transfer")


@pytest.mark.parametrize("name, error", BOARDS[-10:], ids=[name for name, _ in BOARDS[-10:]])
def test_the_pair_table_shows_the_decisions_the_rank_sets_rest_on(name, error):
    board = leaderboard(_Result(error), 0.2)
    assert board.procedure == "step-down" and "low" not in board.pairs
    matrix = board.decided().clip(lower=0).to_numpy().astype(bool)
    rebuilt = rank_sets_from_decisions(board.table["estimate"], matrix)
    pd.testing.assert_frame_equal(  # exact: same seeded draws, same path
        rebuilt, board.table[list(rebuilt.columns)]
    )
    # every decided pair agrees with the rank sets: the one above can take no rank the other's
    # set forbids it to pass
    table = board.table
    for row in board.pairs[board.pairs["decided"] != "undecided"].itertuples():
        high, low = (
            (row.generator_a, row.generator_b)
            if row.decided == "a higher"
            else (row.generator_b, row.generator_a)
        )
        assert table.loc[high, "high_rank"] < len(table) and table.loc[low, "low_rank"] > 1
    single = leaderboard(_Result(error), 0.2, pairs="single-step")
    assert single.procedure == "single-step" and {"low", "high"} <= set(single.pairs)
    # the single-step decides a subset of what the step-down decides
    said = single.pairs["decided"] != "undecided"
    # exact: decided is a truth value
    assert (single.pairs.loc[said, "decided"] == board.pairs.loc[said, "decided"]).all()
    with pytest.raises(ValueError, match="pairs \\('both'\\) must be one of"):
        leaderboard(_Result(error), pairs="both")


def test_the_leaderboard_answers_the_result_contract():
    _, error = BOARDS[-4]  # 20 generators
    result = _Result(error)
    board = leaderboard(result, 0.1)
    assert isinstance(board.summary(board.alpha), Summary)
    # to_frame is the interval and the rank sets: the board's table, one code path
    columns = list(board.table.columns)
    pd.testing.assert_frame_equal(  # exact: same seeded draws, same path
        board.to_frame(board.alpha, top=None)[columns], board.table
    )
    # another level ranks again from the same joint error and seed
    again = leaderboard(result, 0.2).table
    pd.testing.assert_frame_equal(  # exact: same seeded draws, same path
        board.to_frame(0.2, top=None)[columns], again
    )
    assert board.summary(0.2).notes[0].startswith("80% marginal intervals")
    pd.testing.assert_index_equal(  # exact: same seeded draws, same path
        board.interval(board.alpha).index, board.table.index
    )
    assert list(board.interval(0.2).columns[:4]) == ["estimate", "low", "high", "method"]
    assert board.warnings == () and board.diagnostics().empty


def test_a_large_board_shows_its_top_and_the_generators_named():
    g = 60
    rng = np.random.default_rng(1)
    covariance = np.full((g, g), 0.01**2) + np.diag(rng.uniform(0.003, 0.01, g) ** 2)
    error = joint(np.sort(rng.uniform(0.5, 0.9, g)), covariance)
    board = leaderboard(_Result(error), n_draws=4000)
    summary = board.summary(board.alpha, top=10, generators=["g0"])
    shown = summary.tables["leaderboard"]
    assert list(shown.index) == [*board.table.index[:10], "g0"]
    pairs = summary.tables["decided pairs"]
    assert len(pairs) and (pairs[["higher", "lower"]] == "g0").any(axis=1).all()
    # winner first, the largest difference first, each difference the board's own
    assert list(pairs.columns) == ["higher", "lower", "difference", "se"]
    assert (pairs["difference"] > 0).all() and pairs["difference"].is_monotonic_decreasing
    estimate = board.table["estimate"]
    np.testing.assert_allclose(  # one subtraction of the same two floats: to rounding
        pairs["difference"],
        estimate[pairs["higher"]].to_numpy() - estimate[pairs["lower"]].to_numpy(),
        rtol=1e-12,
    )
    assert any("top 10 of 60" in note for note in summary.notes)
    with pytest.raises(InputError, match="generator 'nope' is not on this leaderboard"):
        board.summary(generators=["nope"])
    figure = plot_board(board, generators=["g0"])
    assert len(figure.axes) == 2 and "all 60" in figure.axes[1].get_title(loc="left")
    assert figure.axes[0].get_xlabel() == "precision, 95% interval"
    plt.close(figure)
    figure = plot_board(board, quantity="win rate")
    assert figure.axes[0].get_xlabel() == "win rate, 95% interval"
    plt.close(figure)


def test_draws_that_cannot_balance_the_family_fall_back_to_one_critical_value():
    # 380 ordered pairs of independent errors and 200 draws of their own (a bootstrap's): every
    # draw is some pair's largest, so the balanced level would be each pair's largest draw;
    # the maximum's quantile holds the level instead, one critical value for every pair
    rng = np.random.default_rng(5)
    estimate = np.linspace(0.5, 0.9, 20)
    few = joint(estimate, np.eye(20) * 1e-4, draws=rng.normal(scale=0.01, size=(200, 20)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        pairs = compare(few)
        rank_sets(few)
    critical = (pairs["estimate"] - pairs["low"]) / pairs["se"]
    assert critical.to_numpy() == pytest.approx(np.full(len(pairs), critical.iloc[0]), rel=1e-12)
    # enough draws to balance: each pair its own critical value
    many = joint(estimate, np.eye(20) * 1e-4, draws=rng.normal(scale=0.01, size=(20_000, 20)))
    critical = compare(many).eval("(estimate - low) / se")
    assert critical.nunique() > 1
    # fewer draws than 1 / alpha: even the maximum's quantile is its largest draw
    with pytest.warns(TooFewDrawsWarning, match="10 draws cannot resolve a family-wise level"):
        rank_sets(joint(estimate, np.eye(20) * 1e-4, draws=rng.normal(size=(10, 20))))
