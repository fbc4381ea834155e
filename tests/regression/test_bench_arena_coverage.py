"""The real-arena coverage study (benchmarks/bench_arena_coverage.py) runs at a few draws, the
votes alone beside the default on the same draws; its coverage is the benchmark's to report."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def study(benchmark):
    return benchmark("bench_arena_coverage")


def test_every_generator_is_checked_against_its_win_rate_over_every_vote(study):
    table = study.study(draws=3)
    assert sorted(table["method"].unique()) == ["jurycal", "votes alone"]
    assert table.groupby("method").size().tolist() == [12, 12]  # every generator, each method
    assert table["coverage"].between(0, 1).all() and (table["width"] > 0).all()
    # the truth is each generator's win rate over every vote: shares of wins, ties halved
    assert table["truth"].between(0.2, 0.85).all()
    assert abs(table.groupby("method")["truth"].mean().iloc[0] - 0.5) < 0.1


def test_the_quick_run_prints_its_table(study, capsys):
    study.main(["--quick"])
    printed = capsys.readouterr().out
    assert "coverage: jurycal" in printed and "votes alone: coverage" in printed
