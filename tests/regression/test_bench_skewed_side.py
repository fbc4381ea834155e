"""The skewed-side study (benchmarks/bench_skewed_side.py) runs at a few draws and compares its three
normal parts on the same draws; its coverage is the benchmark's to report, not this test's."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def study(benchmark):
    return benchmark("bench_skewed_side")


def test_every_part_is_at_least_students_and_the_shape_at_most_the_likelihood(study):
    table = study.study(study.CELLS[:1] + study.CELLS[5:6], draws=300)
    # exact: Student's width over itself is the mean of ones
    assert table["Student width"].tolist() == [1.0, 1.0]
    assert (table["shape width"] >= 1.0).all()
    assert (table["likelihood width"] >= table["shape width"] - 1e-12).all()
    assert table.index.get_level_values("n").tolist() == [50, 30]  # exact: the cells' sizes


def test_the_quick_run_prints_its_table(study, capsys):
    study.main(["--quick"])
    printed = capsys.readouterr().out
    assert "shape coverage" in printed and "tail 10 % at -3" in printed
