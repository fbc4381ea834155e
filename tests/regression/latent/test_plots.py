"""The many-judge figures draw what their data say (regression.latent.plots)."""

import itertools
import warnings

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from regression import LatentTraitModel, leave_out_evaluation
from regression.datasets import (  # noqa: E402
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression.latent.plots import (  # noqa: E402
    plot_latent_fit,
    plot_leave_out,
    plot_precision_intervals,
    plot_validator_rates,
)
from regression.simulate import simulate_item_votes


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


def test_validator_rates_plot_pools_generators():
    confusion = load_confusion("feedback+lines+labels")
    fig = plot_validator_rates(confusion)
    tnr, tpr = fig.axes[0].collections[0].get_offsets().T
    assert len(tpr) == 14
    # data README: pooled TPR 0.84-0.98, TNR 0.14-0.54 (after all repairs)
    assert 0.83 <= tpr.min() and tpr.max() <= 0.99 and 0.13 <= tnr.min() and tnr.max() <= 0.55


def _label_boxes(ax):
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    return [t.get_window_extent(renderer) for t in ax.texts if t.get_text()]


def test_validator_labels_do_not_overlap():
    # The 14 validators of the released data crowd into TNR 0.07-0.25, TPR 0.95-0.98.
    fig = plot_validator_rates(load_confusion("none"))
    boxes = _label_boxes(fig.axes[0])
    assert len(boxes) == 14
    assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))
    labels = {t.get_text() for t in fig.axes[0].texts if t.get_text()}
    assert labels == set(load_confusion("none")["validator"])


def test_latent_fit_labels_do_not_overlap_and_intervals_are_drawn():
    world = simulate_item_votes(6, 8, 40, n_annotated=3, seed=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = LatentTraitModel(loss="likelihood", n_restarts=1).fit_table(
            world.judgments, world.human_labels, list(world.annotated)
        )
    fig = plot_latent_fit(result, world.human_labels)
    boxes = _label_boxes(fig.axes[1])
    assert len(boxes) == 8
    assert not any(a.overlaps(b) for a, b in itertools.combinations(boxes, 2))
    table = result.to_frame(0.1, method="parametric", n_boot=20)
    fig = plot_precision_intervals(table, title="Precision per generator, 90% parametric intervals")
    ax = fig.axes[0]
    segments = ax.collections[0].get_segments()
    assert len(segments) == len(table)
    np.testing.assert_allclose([s[0][0] for s in segments], table["low"])
    np.testing.assert_allclose([s[1][0] for s in segments], table["high"])
    assert ax.get_title() == "Precision per generator, 90% parametric intervals"
    legend = {t.get_text() for t in ax.get_legend().get_texts()}
    assert legend == {"human labels", "calibration", "unlabelled"}  # human: the anchors
    with pytest.raises(ValueError, match=r"missing column\(s\) \['low', 'high'\]"):
        plot_precision_intervals(result.to_frame(method=None).drop(columns=["low", "high"]))
