"""The floor-level study (benchmarks/bench_floor_level.py) runs at a few draws and moves only what it says
it moves; its coverage is the benchmark's to report, not this test's."""

from __future__ import annotations

import numpy as np
import pytest

from regression.core import floor


@pytest.fixture(scope="module")
def study(benchmark):
    return benchmark("bench_floor_level")


def test_the_floor_level_moves_the_missed_share_and_nothing_else(study):
    default = floor.unseen_share(0.05, 0.025, 1000, uniform=True)
    with study.floor_at(0.025):  # the default at 95 %: alpha / 2 a side
        assert floor.unseen_share(0.05, 0.025, 1000, uniform=True) == pytest.approx(default)
    with study.floor_at(0.2):
        assert floor.unseen_share(0.05, 0.025, 1000, uniform=True) < default
    with study.floor_at(None):
        assert floor.unseen_share(0.05, 0.025, 1000, uniform=True) == 0.0  # exact: no floor
    assert floor.unseen_share(0.05, 0.025, 1000, uniform=True) == default  # exact: restored


def test_a_blind_spot_lowers_the_humans_precision_by_its_share_and_not_the_judges(study):
    y_clear, q_clear = study._world(0.0, 5)
    y_blind, q_blind = study._world(0.05, 5)
    assert y_clear.mean() - y_blind.mean() == pytest.approx(0.05, abs=0.006)
    assert abs(q_clear.mean() - q_blind.mean()) < 0.01


def test_the_quick_study_reports_every_level_and_share(study, capsys):
    rows = study.level_study((0.0, 0.04), (25,), (0.025, 0.2, None), draws=3)
    table = study.summarise(rows)
    # exact: the levels are the labels passed in, not computed
    assert list(table.index.get_level_values("level")) == [0.025, 0.2, "none"]
    assert {"width / Wilson", "0 %", "4 %", "lowest"} <= set(table.columns)
    assert table["lowest"].between(0, 1).all()
    widths = table["width / Wilson"].to_numpy()
    assert widths[0] >= widths[1] >= widths[2]  # a lower guard, a narrower interval
    graded = study.graded_study(("piled",), (10,), (0.025, None), draws=1)
    # exact: labels passed in, and a count
    assert set(graded["level"]) == {0.025, "none"} and graded["generator"].nunique() == 5
    hanna = study.hanna_study((10,), (0.025,), draws=1, criteria=("Coherence",))
    assert len(hanna) == 1 and np.isfinite(hanna["ratio"]).all()
    study.main(["--quick"])
    printed = capsys.readouterr().out
    for heading in ("The floor's level", "Graded scores", "HANNA"):
        assert heading in printed, heading
