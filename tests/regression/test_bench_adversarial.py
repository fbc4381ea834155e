"""The adversarial grid (benchmarks/bench_adversarial.py) runs at its quick size and reports every
column; its coverage is the benchmark's to report, not this test's (four draws a cell)."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="module")
def grid(benchmark):
    return benchmark("bench_adversarial")


@pytest.fixture(scope="module")
def records(grid):
    return grid.label_grid(grid.QUICK)


def test_quick_grid_reports_every_column(grid, records, capsys):
    assert set(grid.RECORD_COLUMNS) <= set(records.columns)
    worlds = records.drop_duplicates(["generator", "mode", "share", "shift"])
    assert set(worlds["mode"]) == set(grid.MODES)
    assert set(records["n"]) == set(grid.QUICK.n_values)
    assert set(records["design"]) == {"uniform", "active"}
    assert set(records["option"]) == {"default", "held-out"}
    assert (records["draws"] == grid.QUICK.draws).all()  # exact: integer counts
    assert records["hits"].between(0, records["draws"]).all()
    cells = grid.report(records, "quick")
    for column in ("coverage", "se", "width", "wilson", "ratio", "outside", "wilson coverage"):
        assert cells[column].notna().all(), column
    printed = capsys.readouterr().out
    for heading in ("per generator", "lowest cells", "Held-out option", "Targets, normal"):
        assert heading in printed, heading
    # the labels-alone interval's own coverage on the draws the suggested design makes
    chosen = cells[(cells["design"] == cells["suggest"]) & (cells["option"] == "default")]
    floored = chosen[chosen["method"] == "floored"]
    under = int((floored["wilson coverage"] < grid.TARGET_CELL).sum())
    assert (
        f"The labels-alone Wilson interval itself, on the same draws: cells under "
        f"{grid.TARGET_CELL} {under} of {len(floored)}" in printed
    )


def test_active_cells_are_checked_to_be_active(grid, records):
    active = records[records["design"] == "active"]
    assert (active["active check"] == "ok").all()
    assert (active["pi_spread"] >= grid.ACTIVE_SPREAD).all()
    assert (records.loc[records["design"] == "uniform", "pi_spread"] == 1.0).all()  # exact: n / N


def test_blind_spot_is_a_kind_every_judge_gets_wrong(grid):
    judgments, human, blind = grid.adversarial_world(
        (0.5, 0.9, 0.8), 1, "accepted together", 0.05, items=400, validators=4, seed=3
    )
    new = judgments[judgments["generator"] == "g1"].pivot(
        index="item", columns="validator", values="label"
    )
    y = human.loc[human["generator"] == "g1", "human"].to_numpy()
    assert blind.size == 20
    assert (y[blind] == 0).all()
    assert (new.to_numpy()[blind] == 1).all()
    # elsewhere the judges err independently, at 8-15 % a vote
    others = np.setdiff1d(np.arange(400), blind)
    wrong = (new.to_numpy()[others] != y[others, None]).mean()
    assert 0.05 < wrong < 0.2


def test_unknown_interval_method_is_named(grid):
    with pytest.raises(ValueError, match="interval_method 'wald' not recognized"):
        grid.label_grid(grid.QUICK, methods=("wald",))


def test_defensive_share_study_reports_both_designs(grid):
    study = grid.defensive_share_study(draws=3)
    assert set(study["eps"]) == {1e-6, 0.5}  # exact: the literals the study sets
    assert study["coverage"].between(0, 1).all()
    # the mixture keeps the blind items' chance at least half the uniform one, by construction
    mixed = study[study["eps"] == 0.5]  # exact: the literal the study sets
    assert (mixed["blind pi / uniform"] >= 0.5 - 1e-9).all()
