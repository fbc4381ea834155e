"""regression.intervals.OneEstimate: a result of one estimand, its interval() built from bounds()."""

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ensemble import Proportion
from regression import ConfidenceInterval, compare_models, estimate_prevalence, ppi_mean
from regression.intervals import OneEstimate, wilson_interval
from regression.results import Result
from regression.single_judge import BootstrapResult, CalibrationTable, delta_youden_j, youden_j


@dataclass(frozen=True)
class _Share(OneEstimate):
    k: int
    n: int

    method: ClassVar[str] = "naive"

    @property
    def estimate(self) -> float:
        return self.k / self.n

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
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
    }


@pytest.mark.parametrize("name", list(_results()))
def test_the_interval_is_the_bounds_in_the_contracts_table(name):
    res = _results()[name]
    assert isinstance(res, OneEstimate) and isinstance(res, Result)
    for alpha, alternative in [(0.05, "two-sided"), (0.2, "less"), (0.1, "greater")]:
        table = res.interval(alpha, alternative=alternative)
        low, high = res.bounds(alpha, alternative)
        # the same numbers through one code path: exact
        np.testing.assert_array_equal(  # exact: bounds clipped to [0, 1]; one code path
            table["low"].to_numpy(), np.reshape(low, -1)
        )
        np.testing.assert_array_equal(  # exact: bounds clipped to [0, 1]; one code path
            table["high"].to_numpy(), np.reshape(high, -1)
        )
        assert set(table["method"]) == {res.method}
    assert res.bounds()._fields == ("low", "high")


@pytest.mark.parametrize("name", list(_results()))
def test_every_result_refuses_a_bad_level_or_side_by_name(name):
    res = _results()[name]
    with pytest.raises(ValueError, match=r"alpha \(1\.0\) must lie strictly between"):
        res.interval(1.0)
    with pytest.raises(ValueError, match=r"alternative \('up'\) not recognized"):
        res.interval(0.1, alternative="up")


def test_one_row_is_named_by_the_estimand_and_an_array_numbers_its_rows():
    assert _Share(3, 10).interval().index.tolist() == ["share"]
    table = Proportion(np.array([7, 0]), np.array([10, 0])).interval()
    assert table.index.tolist() == [0, 1] and np.isnan(table.loc[1, "low"])


def test_one_sided_follows_scipy():
    # 'less' is an upper confidence bound (low at the lower limit), 'greater' a lower bound.
    share = _Share(3, 10)
    assert share.bounds(0.05, "less").low == 0.0  # exact: bounds clipped to [0, 1]; one code path
    assert (
        share.bounds(0.05, "greater").high == 1.0  # exact: bounds clipped to [0, 1]; one code path
    )
    upper = share.bounds(0.05, "less").high
    assert upper < share.bounds(0.05).high  # z_{0.95} < z_{0.975}


def test_a_class_without_bounds_says_so():
    class Bare(OneEstimate):
        estimate = 0.5

    with pytest.raises(NotImplementedError, match=r"Bare does not define bounds"):
        Bare().interval()


def test_to_frame_and_summary_are_built_from_interval_and_diagnostics():
    res = _results()["ppi"]
    frame = res.to_frame(0.1)
    pd.testing.assert_frame_equal(  # exact: bounds clipped to [0, 1]; one code path
        frame[list(res.interval(0.1).columns)], res.interval(0.1)
    )
    summary = res.summary(0.1)
    assert summary.title == res.title and summary.warnings == res.warnings
    assert "90% interval" in " ".join(summary.notes)


@settings(max_examples=60, deadline=None)
@given(
    k=st.integers(0, 50),
    extra=st.integers(1, 50),
    lo=st.floats(0.5, 0.9),
    gap=st.floats(0.01, 0.09),
)
def test_a_higher_level_never_gives_a_narrower_interval(k, extra, lo, gap):
    share = _Share(k, k + extra)
    narrow, wide = share.bounds(1 - lo), share.bounds(1 - lo - gap)
    assert wide.low <= narrow.low + 1e-12 and wide.high >= narrow.high - 1e-12
