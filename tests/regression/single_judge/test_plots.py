"""The single-judge figures draw what their data say."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from regression import estimate_prevalence
from regression.simulate import coverage_study
from regression.single_judge import shared_calibration_bias
from regression.single_judge.plots import (  # noqa: E402
    plot_bias_vs_delta_j,
    plot_coverage,
    plot_interval_length,
    plot_single_judge,
)


def test_single_judge_forest_plots_each_interval():
    calibration = pd.DataFrame(
        {"human": [1] * 40 + [0] * 40, "judge": [1] * 36 + [0] * 4 + [1] * 10 + [0] * 30}
    )
    result = estimate_prevalence(calibration, [1] * 300 + [0] * 200)
    fig = plot_single_judge(result)
    segments = fig.axes[0].collections[0].get_segments()
    assert len(segments) == 3
    assert segments[1][0][0] == pytest.approx(
        result.rogan_gladen.bounds(result.rogan_gladen.alpha, result.rogan_gladen.alternative)[0]
    )


def test_coverage_plot_uses_the_study():
    study = coverage_study(np.linspace(0.1, 0.9, 5), n_rep=300, seed=0)
    fig = plot_coverage(study)
    x, y = fig.axes[0].lines[0].get_data()
    np.testing.assert_allclose(np.asarray(y, dtype=float), study["coverage"])


def test_adaptive_allocation_is_shorter_in_lee_fig3():
    fig = plot_interval_length((0.3,))
    symmetric, adaptive = fig.axes[0].lines[:2]
    # Lee et al. Fig. 3: the solid (Algorithm 1) curve lies below the dashed one.
    assert np.all(adaptive.get_ydata() <= symmetric.get_ydata() + 1e-12)
    assert adaptive.get_ydata()[-1] < symmetric.get_ydata()[-1]


def test_bias_vs_delta_j_matches_app_c():
    fig = plot_bias_vs_delta_j([0.0, 0.1], j_a=0.3, theta_a=0.55)
    shared = fig.axes[0].lines[1].get_ydata()
    assert shared[0] == pytest.approx(0.0)  # equal judge quality: no shared-calibration bias
    q_b = (1 + 0.3 - 0.1) / 2
    assert shared[1] == pytest.approx(shared_calibration_bias(0.55, 0.65, 0.65, q_b, q_b))
