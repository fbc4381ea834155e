"""The Fig. 6-like leave-s-out plot (regression.plots.plot_leave_out)."""

import pandas as pd
import pytest

from jurycal.datasets import (
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression import leave_out_evaluation
from regression.plots import plot_leave_out


def test_plot_leave_out_draws_both_panels():
    truth = load_human_precision()
    table = leave_out_evaluation(
        load_validator_rates("none"),
        confusion=load_confusion("none"),
        precision=truth,
        sizes=[1, 2],
        models={},
    )
    released = load_paper_regression_errors()
    fig = plot_leave_out(table, released=released[released.repair_level == "none"], title="none")
    ax_a, ax_b = fig.axes
    assert len(ax_b.get_legend().get_texts()) == 3  # two baselines + the released line
    assert ax_a.get_xlabel() == "calibration generators s"
    with pytest.raises(ValueError, match=r"spread_method \('nope'\) not in the table"):
        plot_leave_out(table, spread_method="nope")
    with pytest.raises(ValueError, match=r"missing column\(s\) \['max_abs_error'\]"):
        plot_leave_out(pd.DataFrame({"s": [1], "method": ["x"]}))
