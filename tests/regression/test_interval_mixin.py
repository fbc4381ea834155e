"""regression.intervals.IntervalMixin: one ci / confidence_interval pair for every result."""

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ensemble import EnsemblePrecision, Proportion
from regression import ConfidenceInterval, compare_models, estimate_prevalence, ppi_mean
from regression.intervals import IntervalMixin, alpha_from_level, wilson_interval
from regression.single_judge import BootstrapResult, CalibrationTable, delta_youden_j, youden_j


@dataclass(frozen=True)
class _Share(IntervalMixin):
    k: int
    n: int
    alpha: float = 0.05
    alternative: str = "two-sided"

    def _bounds(self, alpha: float, alternative: str) -> ConfidenceInterval:
        low, high = wilson_interval(self.k, self.n, alpha, alternative)
        return ConfidenceInterval(float(low), float(high))


def _results():
    cal = CalibrationTable(tp=40, fn=10, fp=15, tn=35)
    test = [1] * 60 + [0] * 40
    comparison = compare_models(test, [1] * 50 + [0] * 50, cal, cal, n_boot=2000, seed=0)
    single = estimate_prevalence(cal, test, alpha=0.1)
    return {
        "bootstrap": BootstrapResult(0.5, np.linspace(0, 1, 101), alpha=0.1),
        "ppi": ppi_mean([1, 0] * 10, [1, 0] * 9 + [0, 0], [1, 0, 1] * 20),
        "youden": youden_j(cal, alpha=0.2, alternative="greater"),
        "delta_j": delta_youden_j(cal, cal, n_boot=2000, seed=0),
        "prevalence": single.rogan_gladen,
        "single": single,
        "comparison": comparison["rg-model-specific"],
        "proportion": Proportion(np.array(7), np.array(10)),
        "precision": EnsemblePrecision(
            ("a", "b"), np.array([3, 8]), np.array([10, 10]), np.zeros(2)
        ),
    }


@pytest.mark.parametrize("name", list(_results()))
def test_ci_is_the_interval_at_the_results_own_level_and_side(name):
    res = _results()[name]
    assert isinstance(res, IntervalMixin)
    low, high = res.ci
    ref_low, ref_high = res.confidence_interval(1 - res.alpha, res.alternative)
    np.testing.assert_array_equal(low, ref_low)
    np.testing.assert_array_equal(high, ref_high)
    assert res.ci._fields == ("low", "high")


@pytest.mark.parametrize("name", list(_results()))
def test_every_result_refuses_a_bad_level_or_side_by_name(name):
    res = _results()[name]
    with pytest.raises(ValueError, match=r"confidence_level \(1\.0\) must lie strictly between"):
        res.confidence_interval(1.0)
    with pytest.raises(ValueError, match=r"alternative \('up'\) not recognized"):
        res.confidence_interval(0.9, "up")


def test_results_without_a_level_default_to_two_sided_95():
    p = Proportion(np.array(7), np.array(10))
    assert (p.alpha, p.alternative) == (0.05, "two-sided")
    low, high = wilson_interval(7, 10)
    assert p.ci == (pytest.approx(low), pytest.approx(high))


def test_one_sided_follows_scipy():
    # 'less' is an upper confidence bound (low at the lower limit), 'greater' a lower bound.
    share = _Share(3, 10)
    assert share.confidence_interval(0.95, "less").low == 0.0
    assert share.confidence_interval(0.95, "greater").high == 1.0
    upper = share.confidence_interval(0.95, "less").high
    assert upper < share.confidence_interval(0.95).high  # z_{0.95} < z_{0.975}


def test_a_class_without_bounds_says_so():
    class Bare(IntervalMixin):
        pass

    with pytest.raises(NotImplementedError, match=r"Bare does not define _bounds"):
        _ = Bare().ci


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(0, 50),
    extra=st.integers(1, 50),
    lo=st.floats(0.5, 0.9),
    gap=st.floats(0.01, 0.09),
)
def test_a_higher_level_never_gives_a_narrower_interval(k, extra, lo, gap):
    share = _Share(k, k + extra)
    narrow, wide = share.confidence_interval(lo), share.confidence_interval(lo + gap)
    assert wide.low <= narrow.low + 1e-12 and wide.high >= narrow.high - 1e-12


def test_alpha_from_level():
    assert alpha_from_level(0.95) == pytest.approx(0.05)
    for bad in (0, 1, -0.1, 1.5, float("nan")):
        with pytest.raises(ValueError, match=r"confidence_level"):
            alpha_from_level(bad)
