"""The graded-scores study (benchmarks/bench_scores.py): its simulated worlds and the one-cell run;
its coverage is the benchmark's to report, not this test's."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def study(benchmark):
    return benchmark("bench_scores")


def test_a_simulated_world_keeps_the_judges_named_and_every_generators_truth(study):
    world, scores, human, truth = study.simulated_world({"pile": 0.6}, ("noise",))
    assert set(scores["validator"]) == {"noise"}
    assert set(world.scores["validator"]) > {"noise"}
    assert list(truth.index) == list(human["generator"].unique())
    assert truth.notna().all()


def test_one_cell_prints_each_generators_coverage(study, monkeypatch, capsys):
    monkeypatch.setattr(study, "DRAWS", 2)
    study.bench_cell("ratings spread:10")
    printed = capsys.readouterr().out
    assert "ratings spread, 10 ratings per generator" in printed
    assert printed.count("model-") == study.SIM_GENERATORS


def test_an_unknown_cell_names_the_worlds(study):
    with pytest.raises(SystemExit, match="ratings piled at the top"):
        study.bench_cell("ratings everywhere:10")
