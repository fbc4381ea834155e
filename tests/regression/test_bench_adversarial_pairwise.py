"""The pairwise adversarial grid (benchmarks/bench_adversarial_pairwise.py) runs at its quick size
and reports every column; its coverage is the benchmark's to report, not this test's (three draws a
cell)."""

from __future__ import annotations

import numpy as np
import pytest


@pytest.fixture(scope="module")
def grid(benchmark):
    return benchmark("bench_adversarial_pairwise")


@pytest.fixture(scope="module")
def records(grid):
    return grid.pairwise_grid(grid.QUICK)


def test_quick_grid_reports_every_column(grid, benchmark, records, capsys):
    adversarial = benchmark("bench_adversarial")
    assert list(records.columns) == [*grid.AXES, *adversarial.RECORD_COLUMNS, *grid.EXTRA_COLUMNS]
    assert set(records["mode"]) == set(adversarial.MODES)
    assert set(records["design"]) == set(grid.DESIGNS)
    assert set(records["estimand"]) == {"win rate", "strength"}
    # a share of draws: an interval in at most every draw, covering in at most those
    assert (records["attempts"] == grid.QUICK.draws).all()  # exact: integer counts
    assert records["draws"].between(0, records["attempts"]).all()
    assert records["hits"].between(0, records["draws"]).all()
    assert records["win rate"].between(0, 1).all()
    grid.main(["--quick"])
    printed = capsys.readouterr().out
    for heading in (
        "Intervals given",
        "Pairwise win rates",
        "Bradley-Terry strengths",
        "per generator",
        "Targets, floored",
        "Targets, normal",
        "won or lost every",
        "The suggested design",
    ):
        assert heading in printed, heading
    # the grid's own tables are the three designs': suggested is reported apart
    assert "suggested" not in printed.split("### Pairwise win rates", 1)[1]


def test_suggested_joins_the_pilot_passed_as_a_uniform_draw(grid, records):
    """The suggested cells pass the pilot as a uniform draw, and suggest_labels joins it where
    that is predicted narrower (in the quick grid's worlds: every draw); active holds it."""
    suggested = records[records["design"] == "suggested"]
    assert suggested["one_draw"].between(0, 1).all() and suggested["one_draw"].max() > 0
    assert records.loc[records["design"] != "suggested", "one_draw"].isna().all()
    table = grid.suggested_table(records, grid.least_draws(grid.QUICK))
    assert set(table.index.get_level_values("design")) == {"uniform", "active", "suggested"}
    assert table["coverage_min"].between(0, 1).all() and (table["ratio"] > 0).all()


def test_active_cells_are_checked_to_be_active(grid, benchmark, records):
    active = records[records["design"] == "active"]
    assert (active["active check"] == "ok").all()
    assert (active["pi_spread"] >= benchmark("bench_adversarial").ACTIVE_SPREAD).all()
    assert (records.loc[records["design"] == "uniform", "pi_spread"] == 1.0).all()  # exact: n / N


def test_roles_follow_the_design(grid, records):
    new = f"g{grid.QUICK.new[0]:02d}"
    assert set(records.loc[records["generator"] == new, "role"]) == {"new"}
    subset = records[records["design"] == "subset"]
    assert set(subset.loc[subset["generator"] != new, "role"]) == {"outside"}
    # the subset draws only the new generator's battles: every draw gives it an interval
    assert (subset.loc[subset["role"] == "new", "draws"] == grid.QUICK.draws).all()  # exact: counts


def test_no_finite_strength_for_a_generator_that_won_or_lost_every_vote(records):
    strengths = records[records["estimand"] == "strength"]
    assert strengths["extreme"].sum() > 0  # 4 votes a generator: some win or lose them all
    assert (strengths["extreme_finite"] == 0).all()


def test_blind_spot_is_a_kind_every_judge_gets_wrong(grid):
    arena = grid.adversarial_arena(5, 400, 4, "accepted together", 0.1, judges=3, seed=2)
    table = arena.table
    new = list(table.generators).index("g04")
    plays_a = table.battle_a[arena.blind] == new
    assert ((table.battle_b[arena.blind] == new) | plays_a).all()
    # the new generator lost every blind battle by the human vote ...
    assert (np.where(plays_a, table.human[arena.blind], 1 - table.human[arena.blind]) == 0).all()
    # ... and every judge gives it the win there
    rows = np.isin(table.battle, arena.blind)
    given = np.where(plays_a, 1.0, 0.0)[np.searchsorted(arena.blind, table.battle[rows])]
    assert (table.score[rows] == given).all()  # exact: scores are 0, 1/2, 1
    assert arena.blind.size == round(0.1 * table.battles_per_generator()["g04"])
    # elsewhere the judges err independently, at 8-15 % a verdict
    elsewhere = ~np.isin(table.battle, arena.blind)
    wrong = (table.score[elsewhere] != table.human[table.battle[elsewhere]]).mean()
    assert 0.05 < wrong < 0.2


def test_unknown_interval_method_is_named(grid):
    with pytest.raises(ValueError, match="interval_method 'wald' not recognized"):
        grid.pairwise_grid(grid.QUICK, methods=("wald",))
