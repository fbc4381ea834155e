"""The ``jurycal demo`` report on the bundled arena battles (jurycal.demo)."""

import numpy as np
import pytest

from jurycal.cli import main
from jurycal.demo import arena_labels, run_demo


@pytest.fixture(scope="module")
def report():
    return run_demo(quiet=True, n_boot=2000)


def test_arena_labels_match_the_data_readme():
    labels = arena_labels()
    assert len(labels) == 1754 and labels["judge_label"].isna().sum() == 2
    # data README: true win rates 0.41 / 0.24 / 0.40 against the three opponents
    per_opp = labels[labels["judge"] == "gpt-5.2"].groupby("opponent")["human"].mean()
    np.testing.assert_allclose(sorted(per_opp), [0.24, 0.40, 0.41], atol=0.006)


def test_report_shows_three_estimators_and_diagnostics(report):
    for piece in (
        "== judge gpt-4o-mini ==",
        "== judge gpt-5.2 ==",
        "naive",
        "Rogan-Gladen",
        "PPI++",
    ):
        assert piece in report
    for opponent in ("gemini-2.5-flash", "gemini-2.5-pro", "qwen3-235b"):
        assert opponent in report
    assert "TPR" in report and "TNR" in report and "m1/m0" in report


def test_report_flags_the_weak_judges(report):
    # data README: J between 0.01 and 0.24, Fiedler's low-J regime: the warnings must say so
    assert report.count("low judge quality: J = ") >= 4
    assert "includes 0: the judge may be no better than chance" in report
    # the two missing judge answers are dropped and counted, not silently used
    assert "1 test item(s) with a missing judge label were dropped" in report


def test_report_compares_shared_and_model_specific(report):
    assert (
        report.count("Comparison Delta theta = theta[gemini-2.5-flash] - theta[gemini-2.5-pro]")
        == 2
    )
    for piece in ("rg-shared", "rg-model-specific", "ppi++-model-specific", "Delta J = ", "App. C"):
        assert piece in report


def test_report_is_reproducible(report):
    assert run_demo(quiet=True, n_boot=2000) == report
    assert run_demo(quiet=True, n_boot=2000, seed=1) != report


def test_cli_demo_prints_the_report(capsys):
    assert main(["--quiet", "demo"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("jurycal demo: single-judge estimation on LMArena battles")
