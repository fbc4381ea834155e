"""The graded-score adversarial grid (benchmarks/bench_adversarial_scores.py) runs at its quick size and
reports every column through bench_adversarial.report; its coverage is the benchmark's to report, not
this test's (three draws a cell)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats


@pytest.fixture(scope="module")
def grid(benchmark):
    return benchmark("bench_adversarial_scores")


@pytest.fixture(scope="module")
def records(grid):
    return grid.score_grid(grid.QUICK)


def test_quick_grid_reports_every_column(benchmark, grid, records, capsys):
    binary = benchmark("bench_adversarial")
    comparison = {"wilson_hits": "t_hits", "wilson_width": "t_width"}
    assert {comparison.get(c, c) for c in binary.RECORD_COLUMNS} <= set(records.columns)
    assert set(records["world"]) == set(grid.WORLDS)
    assert set(records["mode"]) == set(grid.MODES)
    assert set(records["n"]) == set(grid.QUICK.n_values)
    assert set(records["design"]) == {"uniform", "active"}
    # five generators of each world, each a cell of every n, design and method
    assert len(records) == 3 * 5 * len(grid.QUICK.n_values) * 2 * len(grid.DEFAULT_METHODS)
    assert (records["crashed"] == 0).all()  # exact: integer counts
    assert records["hits"].between(0, records["draws"]).all()
    assert records["t_hits"].between(0, records["draws"]).all()
    assert records["no_judges_hits"].between(0, records["draws"]).all()
    cells = binary.report(records, "quick", axes=("world",), alone="t", truth="truth")
    counted = cells[cells["active check"] != "uniform"]
    for column in ("coverage", "se", "width", "t", "ratio", "outside", "t coverage"):
        assert counted[column].notna().all(), column
    printed = capsys.readouterr().out
    for heading in ("per generator", "lowest cells", "over the labels-alone t", "Targets, floored"):
        assert heading in printed, heading
    assert grid.without_judges(cells).notna().all().all()
    designs = grid.active_against_uniform(cells)
    # the two worlds whose judges see quality have an active design for every generator
    assert (designs.xs("floored", level="method")["cells"] >= 5).all()
    assert designs["width_ratio"].notna().all()
    assert designs["suggest_active"].between(0, 1).all()


def test_interval_without_judges_is_on_the_rating_scale(grid, records):
    # on the same uniform draws of ratings spread over the scale, at 50 ratings the floored
    # interval without the judges is a normal interval (its floor, 1 - 0.025^(1/50) = 7 % of the
    # scale's reach, is below the normal half-width there): the t-interval's width times the
    # finite-population correction sqrt(1 - n / N) (the t-interval has none), up to the quantiles
    # (1.96 / 2.01) and the variance estimators: within 20 %, not a scale's factor 4 off
    cells = records[
        (records["world"] == "spread")
        & (records["design"] == "uniform")
        & (records["n"] == 50)
        & (records["method"] == "floored")
    ]
    correction = np.sqrt(1 - 50 / grid.QUICK.items)
    ratio = cells["no_judges_width"].sum() / (cells["t_width"].sum() * correction)
    assert 0.8 < ratio < 1.2


def test_active_cells_are_checked_to_be_active(grid, records):
    active = records[records["design"] == "active"]
    judged = active[active["world"] != "no signal"]
    assert (judged["active check"] == "ok").all()
    assert (judged["pi_spread"] >= grid.ACTIVE_SPREAD).all()
    assert (judged["draws"] == grid.QUICK.draws).all()  # exact: integer counts
    # judges that predict nothing leave no active design: its cells fail, without draws
    blind = active[active["world"] == "no signal"]
    assert (blind["active check"] == "uniform").all()
    assert (blind["draws"] == 0).all()  # exact: integer counts
    assert (records.loc[records["design"] == "uniform", "pi_spread"] == 1.0).all()  # exact: n / N


def test_blind_spot_is_rated_low_and_scored_high_by_every_judge(grid):
    scores, human = grid.score_adversarial_world("spread", items=200, seed=3)
    rubric = scores[scores["validator"] == "rubric"].set_index(["generator", "item"])["score"]
    rated = human.set_index(["generator", "item"])["human"]
    # exact: the ratings are whole numbers 1-5
    blind = rated.xs("s1 high together 10%").eq(1) & rubric.xs("s1 high together 10%").gt(0.9)
    # 20 outputs of the blind spot, every judge seeing quality 2.5 (the rubric above 0.9 unless
    # its noise is below -1.4 sd); an output of natural rating 1 scores that high about never
    assert 17 <= int(blind.sum()) <= 22
    diffuse = rated.xs("s4 diffuse").eq(1) & rubric.xs("s4 diffuse").gt(0.9)  # exact: whole ratings
    assert int(diffuse.sum()) <= 2


def test_judges_predict_nothing_in_the_no_signal_world(grid):
    scores, human = grid.score_adversarial_world("no signal", items=300, seed=0)
    joined = scores.merge(human, on=["generator", "item"])
    for judge, block in joined.groupby("validator"):
        rho = stats.spearmanr(block["score"], block["human"]).statistic
        # 1,500 outputs: a rank correlation of 0 has standard error 0.026
        assert abs(rho) < 0.1, judge


def test_unknown_world_and_method_are_named(grid):
    with pytest.raises(ValueError, match="world 'flat' not recognized"):
        grid.score_adversarial_world("flat")
    with pytest.raises(ValueError, match="interval_method 'wald' not recognized"):
        grid.score_grid(grid.QUICK, methods=("wald",))
