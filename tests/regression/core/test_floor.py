"""The floored interval of a prediction-powered mean (regression.core.floor)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scipy import stats

from regression.core.floor import (
    design_mean_interval,
    floored_ppi_interval,
    unseen_share,
    unseen_shifts,
)
from regression.core.sides import (
    bounded_spread_half_widths,
    likelihood_half_widths,
    score_half_widths,
)
from regression.intervals import normal_quantile, wilson_interval
from regression.labels.interval import score_interval

BOUNDS = {"outcome_bounds": (0.0, 1.0), "prediction_bounds": (0.0, 1.0)}


@pytest.mark.parametrize("m", [1, 6, 7, 10, 25, 45, 46, 400])
def test_unseen_share_is_the_smaller_of_clopper_pearsons_and_wilsons_bound_for_no_success(
    m: int,
) -> None:
    """Clopper-Pearson's upper bound for no success in m trials is 1 - beta(alpha/2; m, 1);
    Wilson's, the upper root of (p_hat - p)^2 = z^2 p (1 - p) / m at p_hat = 0, by root
    finding; the share is Wilson's from 7 to 45 trials (the smaller, and missed with chance at
    most 0.05), Clopper-Pearson's elsewhere."""
    from scipy.optimize import brentq

    z = stats.norm.ppf(0.975)
    clopper_pearson = 1 - stats.beta.ppf(0.025, m, 1)
    wilson = brentq(lambda p: p**2 - z**2 * p * (1 - p) / m, 1e-9, 1.0)
    share = unseen_share(0.05, m / 1_000_000, 1_000_000)
    expected = wilson if 7 <= m <= 45 else clopper_pearson
    assert share == pytest.approx(expected, rel=1e-9)
    assert wilson < clopper_pearson or m > 45


def test_the_chance_a_sample_misses_the_share_is_at_most_mid_ps() -> None:
    """A sample of m misses the share with chance (1 - share)^m: 0.025 (Clopper-Pearson's)
    below seven units and from 46 on, Wilson's 0.047 at seven, 0.039 at ten, 0.030 at
    twenty; never more than 0.05, mid-p's."""
    missed = {m: (1 - unseen_share(0.05, m / 10_000, 10_000)) ** m for m in range(1, 400)}
    assert max(missed.values()) <= 0.05
    assert missed[7] == pytest.approx(0.0468, abs=5e-4)
    assert missed[10] == pytest.approx(0.0387, abs=5e-4)
    assert missed[20] == pytest.approx(0.0298, abs=5e-4)
    assert all(chance <= 0.025 + 1e-12 for m, chance in missed.items() if m >= 46 or m < 7)


@pytest.mark.parametrize(("drawn", "population"), [(10, 1000), (25, 1000), (200, 300), (20, 96)])
def test_a_uniform_draws_share_is_the_hypergeometric_chance_of_missing_every_unit(
    drawn: int, population: int
) -> None:
    """The fewest units a uniform draw without replacement misses with chance at most 0.025,
    from scipy's hypergeometric law: never more than the binomial share."""
    share = unseen_share(0.05, drawn / population, population, uniform=True)
    missed = [
        stats.hypergeom(population, k, drawn).pmf(0) for k in range(1, population - drawn + 1)
    ]
    fewest = next(k for k, chance in enumerate(missed, start=1) if chance <= 0.025)
    binomial = unseen_share(0.05, drawn / population, population)
    assert share == pytest.approx(min(fewest / population, binomial), rel=1e-12)


@settings(max_examples=40, deadline=None)
@given(st.integers(7, 200), st.booleans())
@example(10, True)
@example(25, False)
def test_labels_that_all_agree_get_no_wider_an_interval_than_wilsons(n: int, valid: bool) -> None:
    """n labels of a large population, all valid (or all invalid), judges that predict nothing:
    the floored interval leans on the labels alone and is no wider than their Wilson interval
    (Clopper-Pearson's bound for no success made it 1.11x Wilson's at ten labels)."""
    population = np.full(100_000, 0.5)
    labels = np.full(n, 1.0 if valid else 0.0)
    _, (low, high) = floored_ppi_interval(
        labels, population[:n], population, np.full(n, n / population.size), None, **BOUNDS
    )
    wilson = wilson_interval(int(labels.sum()), n)
    # Wilson's bound by two routes (the floor's closed form, the interval's roots): rounding only
    assert float(high - low) <= float(wilson.high - wilson.low) + 1e-9


def test_a_sample_that_shows_no_error_keeps_the_shift_a_missed_share_could_cause() -> None:
    confident = np.full(1000, 0.99)
    widths = []
    for n in (25, 100, 400):
        estimate, (low, high) = floored_ppi_interval(
            np.ones(n), confident[:n], confident, np.full(n, n / 1000), None, **BOUNDS
        )
        assert low < estimate <= high
        # labels alone (lam 0): the gap below is the estimate itself, 1
        share = unseen_share(0.05, n / 1000, 1000, uniform=True)
        assert estimate - low == pytest.approx(share, rel=1e-9)
        widths.append(high - low)
    assert widths[0] > widths[1] > widths[2] > 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.floats(0, 1), min_size=1, max_size=7),
    st.integers(0, 7),
    st.floats(0, 1),
    st.floats(-0.5, 1),
    st.floats(-0.5, 1),
)
def test_the_unseen_shift_is_the_worst_set_of_that_many_units(
    predictions: list[float], count: int, lam: float, from_low: float, to_high: float
) -> None:
    """Against every set of at most ``count`` units, by brute force: the most they move the
    mean down (each by ``from_low + lam f``) and up (``to_high - lam f``); never more than
    ``count`` units at the predictions' extremes."""
    from itertools import combinations

    f = np.array(predictions)
    count = min(count, f.size)
    down, up = unseen_shifts(float(count), f.size, f, np.array([lam]), [from_low], [to_high])
    sets = [list(c) for k in range(count + 1) for c in combinations(range(f.size), k)]
    worst_down = max(float(np.sum(from_low + lam * f[c])) for c in sets) / f.size
    worst_up = max(float(np.sum(to_high - lam * f[c])) for c in sets) / f.size
    assert down[0] == pytest.approx(worst_down, abs=1e-12)
    assert up[0] == pytest.approx(worst_up, abs=1e-12)
    extremes = count / f.size
    assert down[0] <= extremes * max(from_low + lam * f.max(), 0.0) + 1e-12
    assert up[0] <= extremes * max(to_high - lam * f.min(), 0.0) + 1e-12


def test_a_blind_spot_can_hide_only_where_the_judges_leave_room_for_one() -> None:
    """Judges that score 1 % of the population low: the most an unseen share can raise the mean
    is those 1 %'s gaps and the rest's small ones, not the share times the lowest one's gap."""
    f = np.r_[np.full(10, 0.1), np.full(990, 0.9)]
    n = 100
    y = np.full(n, 0.9)  # the sample's units all from the 0.9 group, their residuals 0
    estimate, (low, high) = floored_ppi_interval(
        y, y, f, np.full(n, n / f.size), 1.0, outcome_bounds=(0, 1), prediction_bounds=(0, 1)
    )
    count = unseen_share(0.05, n / f.size, f.size, uniform=True) * f.size
    assert count > 10
    assert estimate == pytest.approx(f.mean(), abs=1e-12)
    assert high - estimate == pytest.approx((10 * 0.9 + (count - 10) * 0.1) / f.size, abs=1e-12)
    assert estimate - low == pytest.approx(count * 0.9 / f.size, abs=1e-12)


def test_a_graded_sample_that_missed_a_blind_spot_does_not_lean_on_the_judges_for_a_narrow_interval():
    """300 outputs, 30 rated 0 that the judges score 0.95, the rest spread over the scale and
    scored near their rating; 200 samples of 20 from the rest (the blind spot missed). The
    floor binds at PPI++'s weight, and the weight is judged by normal part plus shift: the
    draws cover 0.76 (0.605 with the weight of the narrowest interval, which put most of the
    floor's room into the normal part's luck; the ratings alone 0.91)."""
    rng = np.random.default_rng(0)
    size, blind = 300, 30
    y = np.r_[np.zeros(blind), rng.choice([0, 0.25, 0.5, 0.75, 1], size - blind)]
    scored = np.clip(0.8 * y[blind:] + 0.1 + rng.normal(0, 0.1, size - blind), 0, 1)
    f = np.r_[np.full(blind, 0.95), scored]
    draws, hits = np.random.default_rng(1), 0
    for _ in range(200):
        pick = draws.choice(np.arange(blind, size), 20, replace=False)
        _, (low, high) = floored_ppi_interval(
            y[pick], f[pick], f, np.full(20, 20 / size), None, **BOUNDS
        )
        hits += int(low <= y.mean() <= high)
    assert hits / 200 >= 0.7


def test_a_graded_sample_that_caught_a_blind_spot_a_few_times_leans_toward_it():
    """300 outputs, 15 rated 0 that the judges score 0.95 (a 5 % blind spot), the rest spread over
    the scale and scored near their rating; 400 uniform samples of 100, which catch it about five
    times. The floor does not bind; the normal part's side toward the blind spot takes the
    likelihood interval's shape: 0.955 (a symmetric normal part: 0.93, 6 % narrower)."""
    rng = np.random.default_rng(0)
    size, blind, n = 300, 15, 100
    y = np.r_[np.zeros(blind), rng.choice([0.25, 0.5, 0.75, 1], size - blind)]
    scored = np.clip(0.8 * y[blind:] + 0.1 + rng.normal(0, 0.1, size - blind), 0, 1)
    f = np.r_[np.full(blind, 0.95), scored]
    draws, hits = np.random.default_rng(1), 0
    for _ in range(400):
        pick = draws.choice(size, n, replace=False)
        _, (low, high) = floored_ppi_interval(
            y[pick], f[pick], f, np.full(n, n / size), None, **BOUNDS
        )
        hits += int(low <= y.mean() <= high)
    assert hits / 400 >= 0.945


def test_without_the_floor_it_is_the_normal_interval_of_ppi() -> None:
    rng = np.random.default_rng(3)
    q = rng.uniform(0.05, 0.95, 2000)
    y = (rng.random(2000) < q).astype(float)
    pick = rng.choice(2000, 200, replace=False)
    pi = np.full(200, 0.1)
    lam = 0.8
    estimate, (low, high) = floored_ppi_interval(
        y[pick], q[pick], q, pi, lam, floor=False, **BOUNDS
    )
    residual = y[pick] - lam * q[pick]
    expected = lam * q.mean() + residual.mean()
    # the Hajek design variance of a uniform Poisson design: (1 - pi) / n times the spread
    half = normal_quantile(0.05) * np.sqrt(
        (1 - 0.1) * np.mean((residual - residual.mean()) ** 2) / 200
    )
    assert estimate == pytest.approx(expected, abs=1e-12)
    assert (low, high) == pytest.approx((expected - half, expected + half), abs=1e-12)


@pytest.mark.parametrize("rating", [0.75, 1.0])
def test_ten_ratings_that_all_agree_keep_the_whole_floor(rating: float) -> None:
    """No spread: the sample's most extreme residual is its mean, and the floor binds fully on
    each side, graded (all 4s of 1-5) or at a bound (all 5s, the two-valued path)."""
    population = np.full(1000, 0.6)
    estimate, (low, high) = floored_ppi_interval(
        np.full(10, rating), population[:10], population, np.full(10, 0.01), 0.0, **BOUNDS
    )
    share = unseen_share(0.05, 0.01, 1000, uniform=True)
    assert estimate == rating
    # lam = 0: the worst residuals are the scale's ends, 0 below and 1 above
    assert estimate - low == pytest.approx(share * rating, rel=1e-12)
    assert high == pytest.approx(min(rating + share * (1 - rating), 1.0), rel=1e-12)


def test_ratings_that_span_the_scale_get_the_t_interval_not_the_floor() -> None:
    """A graded sample with a rating at each end of the scale shows the extremes: no gap is left
    to floor, and, the sample being symmetric, the interval is Student's t-interval of the
    ratings with the finite-population factor, narrower than the share times the gap from the
    mean."""
    ratings = np.r_[0.0, np.full(28, 0.5), 1.0]
    population = np.full(1000, 0.6)
    n = ratings.size
    estimate, (low, high) = floored_ppi_interval(
        ratings, population[:n], population, np.full(n, n / 1000), 0.0, **BOUNDS
    )
    half = stats.t.ppf(0.975, n - 1) * ratings.std(ddof=1) / np.sqrt(n) * np.sqrt(1 - n / 1000)
    # the design variance and the t quantile by two routes (sums, scipy.stats): rounding only
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half), rel=1e-9)
    assert estimate == pytest.approx(0.5, rel=1e-12)
    assert half < unseen_share(0.05, n / 1000, 1000, uniform=True) * 0.5  # the floor from the mean


def test_a_skewed_sample_shares_students_width_as_the_likelihood_interval_does() -> None:
    """Ratings spread over the middle of the scale with two at 0, spanning nothing above: the side
    below is Student's width times twice the likelihood interval's share below, the side above
    Student's."""
    ratings = np.r_[0.0, 0.0, np.tile([0.5, 0.75], 14)]
    population = np.full(1000, 0.6)
    n = ratings.size
    estimate, (low, high) = floored_ppi_interval(
        ratings, population[:n], population, np.full(n, n / 1000), 0.0, **BOUNDS
    )
    variance = ratings.var() / n * (1 - n / 1000)
    quantile = stats.t.ppf(0.975, n - 1) * np.sqrt(n / (n - 1))
    student = quantile * np.sqrt(variance)
    below, above = likelihood_half_widths(ratings[None], np.ones(n), np.array([student]))
    assert estimate - low > 1.05 * student
    # the design variance and the t quantile by two routes (sums, scipy.stats): rounding only
    assert estimate - low == pytest.approx(2 * student * below[0] / (below[0] + above[0]), rel=1e-9)
    assert high - estimate == pytest.approx(student, rel=1e-9)


def test_the_bounded_spread_side_with_a_binomial_variance_is_wilsons() -> None:
    """V = p (1 - p) / n at the centre p: the score side is Wilson's interval, on any scale."""
    for p, n in [(0.8, 10), (0.03, 200), (0.5, 7)]:
        below, above = bounded_spread_half_widths(
            np.array([1 + 4 * p]), np.array([16 * p * (1 - p) / n]), 1.959964, (1.0, 5.0)
        )
        low, high = score_interval(p, n, 0.05)
        # Wilson's closed form against the quadratic's roots: rounding only
        assert (1 + 4 * p - below[0], 1 + 4 * p + above[0]) == pytest.approx(
            (1 + 4 * low, 1 + 4 * high), rel=1e-6
        )


def test_ratings_piled_near_the_top_lengthen_the_side_below() -> None:
    """Ratings piled at the top with one low one seen: the sample shows the extremes (no floor
    gap), and the side below is the score side's, longer than Student's; the side above is
    Student's."""
    ratings = np.r_[0.0, np.full(9, 0.75), np.full(30, 1.0)]
    population = np.full(1000, 0.6)
    n = ratings.size
    estimate, (low, high) = floored_ppi_interval(
        ratings, population[:n], population, np.full(n, n / 1000), 0.0, **BOUNDS
    )
    half = stats.t.ppf(0.975, n - 1) * ratings.std(ddof=1) / np.sqrt(n) * np.sqrt(1 - n / 1000)
    # the design variance and the t quantile by two routes (sums, scipy.stats): rounding only
    assert high - estimate == pytest.approx(half, rel=1e-9)
    assert estimate - low > 1.05 * half


def test_units_held_for_sure_enter_exactly() -> None:
    q = np.full(10, 0.5)
    estimate, (low, high) = floored_ppi_interval(
        np.r_[np.ones(5), np.zeros(5)], q, q, np.ones(10), None, **BOUNDS
    )
    assert (estimate, float(low), float(high)) == (0.5, 0.5, 0.5)  # exact: every unit held


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 60),
    precision=st.floats(0.0, 1.0),
    strength=st.floats(0.5, 1.0),
    seed=st.integers(0, 2**16),
    alpha=st.sampled_from([0.01, 0.05, 0.2]),
)
def test_interval_in_bounds_holds_its_estimate_and_nests(
    n: int, precision: float, strength: float, seed: int, alpha: float
) -> None:
    rng = np.random.default_rng(seed)
    y_all = (rng.random(200) < precision).astype(float)
    q = np.where(y_all == 1, strength, 1 - strength)
    pick = rng.choice(200, n, replace=False)
    pi = np.full(n, n / 200)
    estimate, (low, high) = floored_ppi_interval(
        y_all[pick], q[pick], q, pi, None, alpha=alpha, **BOUNDS
    )
    assert 0.0 <= low <= estimate <= high <= 1.0
    _, (low_99, high_99) = floored_ppi_interval(
        y_all[pick], q[pick], q, pi, None, alpha=alpha / 2, **BOUNDS
    )
    assert (
        high_99 - low_99 >= high - low - 1e-12
    )  # a surer level is no narrower (chosen lam may differ)


def test_the_engine_dispatches_each_method_and_refuses_others() -> None:
    q = np.linspace(0.1, 0.9, 100)
    y = (q > 0.5).astype(float)
    args = (y[:30], q[:30], q, np.full(30, 0.3), 0.5)  # one lam: the floor only widens
    floored = design_mean_interval("floored", *args, **BOUNDS)
    normal = design_mean_interval("normal", *args, **BOUNDS)
    betting = design_mean_interval("betting", *args, **BOUNDS)
    assert floored[1].low <= normal[1].low and normal[1].high <= floored[1].high
    assert betting[1].low <= betting[0] <= betting[1].high
    with pytest.raises(ValueError, match="'wald'"):
        design_mean_interval("wald", *args, **BOUNDS)


@pytest.mark.parametrize("method", ["floored", "normal", "betting"])
def test_every_method_refuses_what_the_betting_interval_refuses(method: str) -> None:
    q = np.linspace(0.1, 0.9, 20)
    y = (q > 0.5).astype(float)
    with pytest.raises(ValueError, match=r"probabilities: 0\.0 is not in \(0, 1\]"):
        design_mean_interval(
            method, y[:5], q[:5], q, np.r_[0.25, 0.25, 0.0, 0.25, 0.25], None, **BOUNDS
        )
    with pytest.raises(ValueError, match=r"outcomes: value 2\.0 .* not within the bounds"):
        design_mean_interval(method, np.r_[y[:4], 2.0], q[:5], q, np.full(5, 0.25), None, **BOUNDS)
    with pytest.raises(ValueError, match=r"lam 1\.5 must be in \[0, 1\]"):
        design_mean_interval(method, y[:5], q[:5], q, np.full(5, 0.25), 1.5, **BOUNDS)
    with pytest.raises(ValueError, match=r"population_probabilities \(19\) must match"):
        design_mean_interval(
            method, y[:5], q[:5], q, np.full(5, 0.25), None,
            population_probabilities=np.full(19, 0.25), **BOUNDS,
        )  # fmt: skip


@pytest.mark.parametrize("valid", [0, 3, 47, 93, 100])
def test_the_score_part_at_lam_zero_is_wilsons_interval_with_the_finite_population_factor(
    valid: int,
) -> None:
    n, big_n = 100, 1000
    y = np.r_[np.ones(valid), np.zeros(n - valid)]
    f = np.random.default_rng(valid).uniform(0, 1, n)
    w = np.full(n, big_n / n)
    p = valid / n
    # the Hajek design variance of a uniform Poisson design, (1 - pi) p (1 - p) / n
    variance = np.array([(1 - n / big_n) * p * (1 - p) / n])
    below, above = score_half_widths(
        y == 1, f, w, np.zeros(1), np.array([p]), variance, normal_quantile(0.05), (0.0, 1.0)
    )
    if valid in (0, n):  # no spread on either side: the floor alone decides there
        # exact: no spread at u_hat (k = 0) leaves the double root c, and c - c is 0
        assert below[0] == above[0] == 0.0
        return
    low, high = score_interval(p, n / (1 - n / big_n))
    # two closed forms of one quadratic's roots: agreement to rounding
    assert (p - below[0], p + above[0]) == pytest.approx((float(low), float(high)), abs=1e-12)


def test_outcomes_at_their_bounds_keep_the_longer_of_the_wald_and_score_sides() -> None:
    """93 of 100 labels valid, a judge that sees nothing: below, Wilson's side is longer than
    Wald's (the Wald interval undercovers there); above, Wald's; the floored interval keeps
    both, and the normal interval Wald's alone."""
    n, big_n = 100, 1000
    y = np.r_[np.ones(93), np.zeros(7)]
    f = np.full(n, 0.5)
    pi = np.full(n, n / big_n)
    _, (low, high) = floored_ppi_interval(y, f, np.full(big_n, 0.5), pi, 0.0, **BOUNDS)
    _, (wald_low, wald_high) = floored_ppi_interval(
        y, f, np.full(big_n, 0.5), pi, 0.0, floor=False, **BOUNDS
    )
    wilson_low, _ = score_interval(0.93, n / (1 - n / big_n))
    assert low == pytest.approx(float(wilson_low), abs=1e-12) and low < wald_low
    assert high == pytest.approx(float(wald_high), abs=1e-12)


def test_binary_outcomes_with_a_strong_judge_keep_the_judges_gain() -> None:
    """The score part holds the judge's behaviour given the label as the sample shows it: a
    judge right on 97 % of items still narrows the interval well below the labels' Wilson."""
    rng = np.random.default_rng(4)
    big_n, n = 2000, 200
    y_all = (rng.random(big_n) < 0.6).astype(float)
    f_all = np.where(rng.random(big_n) < 0.97, y_all, 1 - y_all)
    pick = rng.choice(big_n, n, replace=False)
    _, (low, high) = floored_ppi_interval(
        y_all[pick], f_all[pick], f_all, np.full(n, n / big_n), None, **BOUNDS
    )
    wilson_low, wilson_high = score_interval(float(y_all[pick].mean()), n / (1 - n / big_n))
    assert high - low < 0.6 * float(wilson_high - wilson_low)


def test_a_batch_labelled_in_part_is_floored_as_the_labels_it_has():
    """Three labels that agree, passed back with the probability of a batch of 30 of 1,000 (the
    other 27 never labelled): the floor counts the 3 drawn, not the 30 the design promised, so
    the interval is that of a uniform draw of 3 (before: the width of 30 labels, [0.885, 1] in
    the CLI as a new user saw it)."""
    f = np.full(1000, 0.95)
    common = dict(outcome_bounds=(0, 1), prediction_bounds=(0, 1))
    _, part = floored_ppi_interval(np.ones(3), f[:3], f, np.full(3, 0.03), None, **common)
    _, three = floored_ppi_interval(np.ones(3), f[:3], f, np.full(3, 0.003), None, **common)
    _, whole = floored_ppi_interval(np.ones(30), f[:30], f, np.full(30, 0.03), None, **common)
    # the same arithmetic on the same three units: rounding of 3 / 1000 against 0.003 only
    assert np.allclose([part.low, part.high], [three.low, three.high], rtol=0, atol=1e-12)
    assert part.high - part.low > 3 * (whole.high - whole.low)


def test_an_active_batch_labelled_in_part_is_floored_as_the_labels_it_has():
    """An unequal design keeps its N pi_min for the sample it drew, and is capped at the units it
    has where they stand for too few of the population (3 of an active batch of 30 labelled)."""
    from regression.core.sampling import design_probabilities, systematic_sample

    rng = np.random.default_rng(4)
    f = np.clip(rng.beta(0.4, 0.1, 1000), 0.02, 0.99)
    pi = design_probabilities(f, 30, "active")
    assert np.ptp(pi) > 0  # an active draw
    pick = systematic_sample(pi, rng)
    common = dict(outcome_bounds=(0, 1), prediction_bounds=(0, 1))
    _, whole = floored_ppi_interval(np.ones(pick.size), f[pick], f, pi[pick], None, **common)
    kept = pick[:3]
    _, part = floored_ppi_interval(np.ones(3), f[kept], f, pi[kept], None, **common)
    assert part.high - part.low > 2.5 * (whole.high - whole.low)
    _, three = floored_ppi_interval(np.ones(3), f[kept], f, np.full(3, 0.003), None, **common)
    assert part.high - part.low >= three.high - three.low - 1e-12
