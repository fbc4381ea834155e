"""The shared input checks and binomial intervals (regression.checks, regression.intervals)."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from regression.checks import (
    check_alpha,
    check_alternative,
    check_probability,
    coerce_binary,
    require_columns,
)
from regression.intervals import normal_quantile, wald_interval, wilson_interval


def test_coerce_binary_accepts_documented_forms():
    out = coerce_binary("y", [True, 0, 1.0, " Valid ", "INVALID", "true", "0"])
    np.testing.assert_array_equal(out, [1, 0, 1, 1, 0, 1, 0])  # exact: 0/1 labels


def test_coerce_binary_missing():
    out = coerce_binary("y", [1, None, np.nan, pd.NA], allow_missing=True)
    assert out[0] == 1 and np.isnan(out[1:]).all()
    with pytest.raises(ValueError, match=r"y has 3 missing label\(s\) \(first at position 1\)"):
        coerce_binary("y", [1, None, np.nan, pd.NA])


@pytest.mark.parametrize("bad", [2, -1, 0.5, "maybe", "partially valid"])
def test_coerce_binary_names_the_offender(bad):
    with pytest.raises(ValueError, match=rf"got {bad!r} at position 1"):
        coerce_binary("judge", [1, bad])


def test_check_probability_and_alpha():
    with pytest.raises(ValueError, match=r"tpr must lie in \[0, 1\]; got 1.2"):
        check_probability("tpr", [0.5, 1.2])
    with pytest.raises(ValueError, match=r"p_hat must lie in \[0, 1\]; got nan"):
        check_probability("p_hat", np.nan)
    for bad in (0, 1, -0.1, 1.5):
        with pytest.raises(ValueError, match=r"alpha .* must lie strictly between 0 and 1"):
            check_alpha(bad)
    with pytest.raises(ValueError, match=r"alternative \('ekki'\) not recognized"):
        check_alternative("ekki")


def test_require_columns_lists_expected():
    with pytest.raises(ValueError, match=r"missing column\(s\) \['label'\]; expected columns"):
        require_columns(pd.DataFrame({"generator": [1]}), ["generator", "label"], "judgments")


def test_normal_quantile():
    assert normal_quantile(0.05) == pytest.approx(1.959963985)  # z_{0.975}
    assert normal_quantile(0.05, "less") == pytest.approx(1.644853627)  # z_{0.95}


def test_wilson_matches_closed_form():
    # Wilson (1927) by hand: k = 7, n = 20, z = 1.959964
    z, p, n = 1.959963985, 0.35, 20
    center = (p + z**2 / (2 * n)) / (1 + z**2 / n)
    half = z / (1 + z**2 / n) * np.sqrt(p * (1 - p) / n + z**2 / (4 * n**2))
    low, high = wilson_interval(7, 20)
    assert low == pytest.approx(center - half) and high == pytest.approx(center + half)


@pytest.mark.parametrize("interval", [wald_interval, wilson_interval])
def test_one_sided_conventions(interval):
    low2, high2 = interval(30, 100, alpha=0.1)
    low_less, high_less = interval(30, 100, alpha=0.05, alternative="less")
    low_gr, high_gr = interval(30, 100, alpha=0.05, alternative="greater")
    # a one-sided 95 % bound is the matching end of the two-sided 90 % interval
    assert (low_less, high_less) == (0.0, pytest.approx(high2))
    assert (low_gr, high_gr) == (pytest.approx(low2), 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_contains_point_estimate(k, n):
    k = min(k, n)
    low, high = wilson_interval(k, n)
    assert 0 <= low <= k / n <= high <= 1


def test_binomial_bad_input():
    with pytest.raises(ValueError, match=r"k \(11\) must not be greater than n \(10\)"):
        wilson_interval(11, 10)
    with pytest.raises(ValueError, match="n must be positive; got 0"):
        wald_interval(0, 0)


def test_coerce_binary_fast_paths_keep_shape_and_name_offender():
    np.testing.assert_array_equal(  # exact: 0/1 labels
        coerce_binary("y", np.array([[1, 0], [0, 1]])), [[1, 0], [0, 1]]
    )
    series = pd.Series([1, pd.NA, 0], dtype="Int8", index=[10, 11, 12])
    out = coerce_binary("label", series, allow_missing=True)
    assert out[0] == 1 and np.isnan(out[1]) and out[2] == 0
    with pytest.raises(ValueError, match=r"got 3 at position 2"):
        coerce_binary("label", pd.Series([1, 0, 3], dtype="Int8"))
    with pytest.raises(ValueError, match=r"got 0.5 at position 1"):
        coerce_binary("label", np.array([1.0, 0.5]))


@given(st.lists(st.sampled_from([0, 1, True, False, "valid", "Invalid", None]), max_size=30))
def test_coerce_binary_object_input_matches_elementwise(labels):
    expected = [np.nan if v is None else float(v in (1, True, "valid")) for v in labels]
    np.testing.assert_array_equal(  # exact: 0/1 labels
        coerce_binary("y", labels, allow_missing=True), expected
    )
