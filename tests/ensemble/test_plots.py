"""ensemble.plots: Fig. 5 of the agreeableness paper (error against threshold, per rule)."""

import numpy as np
import pytest
from matplotlib.figure import Figure

from ensemble import simulate_votes, sweep_thresholds
from ensemble.plots import plot_threshold_sweep


def sweeps():
    rates = dict(tpr=[0.95] * 7, tnr=[0.3] * 7, n_items=300, difficulty_sd=1.0, seed=4)
    with_missing = simulate_votes([0.9, 0.8], missing_rate=0.1, **rates)
    without = simulate_votes([0.9, 0.8], **rates)
    return {
        "10 % missing": sweep_thresholds(with_missing.votes, with_missing.human),
        "no missing": sweep_thresholds(without.votes, without.human),
    }


def test_one_panel_per_sweep_two_rules_each():
    fig = plot_threshold_sweep(sweeps())
    assert isinstance(fig, Figure)
    assert len(fig.axes) == 2
    for ax in fig.axes:
        assert len(ax.lines) == 4  # a line and a best-threshold marker per rule
    assert [ax.get_title() for ax in fig.axes] == ["10 % missing", "no missing"]


def test_mirror_puts_the_veto_on_the_majority_line_without_missing_votes():
    fig = plot_threshold_sweep(sweeps(), mirror=True)
    majority, _, veto, _ = fig.axes[1].lines
    order = np.argsort(veto.get_xdata())
    np.testing.assert_array_equal(  # exact: the plotted values themselves, reordered
        majority.get_xdata(), np.asarray(veto.get_xdata())[order]
    )
    np.testing.assert_array_equal(  # exact: the plotted values themselves, reordered
        majority.get_ydata(), np.asarray(veto.get_ydata())[order]
    )


def test_best_marker_sits_at_the_minimum():
    table = sweeps()["no missing"]
    fig = plot_threshold_sweep(table, "max_abs_error")
    line, marker = fig.axes[0].lines[:2]
    # exact: the marker is placed at a plotted value
    assert marker.get_ydata()[0] == min(line.get_ydata())
    fig = plot_threshold_sweep(table, "balanced_accuracy")
    line, marker = fig.axes[0].lines[:2]
    # exact: the marker is placed at a plotted value
    assert marker.get_ydata()[0] == max(line.get_ydata())


def test_plot_bad_input():
    with pytest.raises(ValueError, match=r"metric \('rmse'\) not recognized"):
        plot_threshold_sweep(sweeps(), "rmse")
    with pytest.raises(ValueError, match=r"sweeps is empty"):
        plot_threshold_sweep({})
    with pytest.raises(ValueError, match=r"sweep 'x' is missing column\(s\) \['threshold'\]"):
        plot_threshold_sweep({"x": sweeps()["no missing"].drop(columns="threshold")})
