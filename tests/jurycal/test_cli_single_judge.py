"""`jurycal judge` and `jurycal compare` through the command line, good and bad input."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from jurycal.cli import main
from regression import estimate_prevalence


def _labels(rng, n, theta, tpr, tnr):
    human = rng.random(n) < theta
    judge = np.where(human, rng.random(n) < tpr, rng.random(n) >= tnr)
    return human.astype(int), judge.astype(int)


@pytest.fixture
def single_files(tmp_path):
    rng = np.random.default_rng(1)
    human, judge = _labels(rng, 300, 0.6, 0.9, 0.8)
    _, test = _labels(rng, 2000, 0.4, 0.9, 0.8)
    cal_path, test_path = tmp_path / "cal.csv", tmp_path / "test.parquet"
    pd.DataFrame({"human": human, "judge": judge}).to_csv(cal_path, index=False)
    pd.DataFrame({"judge": test}).to_parquet(test_path)
    return cal_path, test_path


def test_judge_table_json_and_plot(single_files, tmp_path, capsys):
    cal_path, test_path = single_files
    assert main(["judge", str(cal_path), str(test_path), "--plot", str(tmp_path / "j.png")]) == 0
    text = capsys.readouterr().out
    assert "rogan-gladen" in text and "ppi++" in text and "naive" in text
    assert (tmp_path / "j.png").read_bytes().startswith(b"\x89PNG")

    assert main(["judge", str(cal_path), str(test_path), "--json", "--method", "ppi++"]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = estimate_prevalence(
        pd.read_csv(cal_path), pd.read_parquet(test_path)["judge"], method="ppi++"
    )
    assert payload["method"] == "ppi++"
    assert payload["estimate"] == pytest.approx(expected.estimate)
    assert payload["ci"] == pytest.approx(
        list(expected.bounds(expected.alpha, expected.alternative))
    )
    assert {row["method"] for row in payload["estimators"]} == {"naive", "rogan-gladen", "ppi++"}


def test_judge_names_the_default_method_and_its_interval(single_files, capsys):
    cal_path, test_path = single_files
    assert main(["judge", str(cal_path), str(test_path)]) == 0
    assert "Single-judge estimate of theta (ppi++ (floored interval))" in capsys.readouterr().out
    assert main(["judge", str(cal_path), str(test_path), "--interval", "normal", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert (payload["method"], payload["interval_method"]) == ("ppi++", "normal")
    assert "CLT" in payload["covers"]


def test_judge_answers_a_calibration_with_one_human_class(tmp_path, capsys):
    cal, test = tmp_path / "cal.csv", tmp_path / "test.csv"
    pd.DataFrame({"human": [1] * 30, "judge": [1] * 28 + [0] * 2}).to_csv(cal, index=False)
    pd.DataFrame({"judge": [1] * 80 + [0] * 20}).to_csv(test, index=False)
    assert main(["judge", str(cal), str(test), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["m0"] == 0 and 0 <= payload["ci"][0] <= payload["estimate"] <= 1
    assert main(["judge", str(cal), str(test), "--method", "rogan-gladen"]) == 1
    assert "rogan-gladen needs calibration items of both human classes" in capsys.readouterr().err


def test_judge_bad_input_exits_1_with_message(tmp_path, capsys):
    cal = tmp_path / "cal.csv"
    pd.DataFrame({"human": [1, 0, 2], "judge": [1, 0, 1]}).to_csv(cal, index=False)
    test = tmp_path / "test.csv"
    pd.DataFrame({"verdict": [1, 0]}).to_csv(test, index=False)
    assert main(["judge", str(cal), str(test)]) == 1
    # the third data row is line 4 of the file, after the header
    assert (
        "cal.csv' line 4, column 'human': human must be 0/1, bool or 'valid'/'invalid'; got 2."
        in (capsys.readouterr().err)
    )
    pd.DataFrame({"human": [1, 0, 1], "judge": [1, 0, 1]}).to_csv(cal, index=False)
    assert main(["judge", str(cal), str(test)]) == 1
    assert "missing column(s) ['judge']" in capsys.readouterr().err
    assert main(["judge", str(tmp_path / "nope.csv"), str(test)]) == 1
    assert "no such file" in capsys.readouterr().err


def test_usage_errors_exit_2():
    run = subprocess.run(
        [sys.executable, "-m", "jurycal", "judge"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2 and "usage: jurycal judge" in run.stderr
    run = subprocess.run(
        [sys.executable, "-m", "jurycal", "frobnicate"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2 and "invalid choice: 'frobnicate'" in run.stderr


@pytest.fixture
def comparison_files(tmp_path):
    rng = np.random.default_rng(2)
    cal_rows, test_rows = [], []
    for model, theta in (("alpha", 0.6), ("beta", 0.5)):
        human, judge = _labels(rng, 200, theta, 0.85, 0.8)
        cal_rows.append(pd.DataFrame({"model": model, "human": human, "judge": judge}))
        _, test = _labels(rng, 1000, theta, 0.85, 0.8)
        test_rows.append(pd.DataFrame({"model": model, "item": np.arange(1000), "judge": test}))
    cal_path, test_path = tmp_path / "cal.jsonl", tmp_path / "test.csv"
    pd.concat(cal_rows).to_json(cal_path, orient="records", lines=True)
    pd.concat(test_rows).to_csv(test_path, index=False)
    return cal_path, test_path


def test_compare_paired_json(comparison_files, capsys):
    cal_path, test_path = comparison_files
    argv = ["compare", str(cal_path), str(test_path), "--models", "alpha", "beta"]
    assert main(argv + ["--n-boot", "500", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["paired"] is True
    methods = {row["method"]: row for row in payload["estimators"]}
    assert set(methods) == {"naive", "rg-shared", "rg-model-specific", "ppi++-model-specific"}
    for row in methods.values():
        assert row["low"] <= row["estimate"] <= row["high"]
    assert payload["delta_j_ci"][0] <= payload["delta_j"] <= payload["delta_j_ci"][1]
    assert main(argv + ["--n-boot", "200", "--unpaired"]) == 0
    assert "independent test sets" in capsys.readouterr().out


def test_compare_bad_model_names(comparison_files, capsys):
    cal_path, test_path = comparison_files
    argv = ["compare", str(cal_path), str(test_path), "--models", "alpha", "gamma"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("jurycal: error: model 'gamma' is not in the calibration file ")
    assert err.endswith("cal.jsonl'; names there: 'alpha', 'beta'.\n")


def test_report_card_follows_fiedler_checklist(comparison_files, tmp_path, capsys):
    cal_path, test_path = comparison_files
    out = tmp_path / "card.md"
    argv = ["report", str(cal_path), str(test_path), "-o", str(out), "--models", "alpha", "beta"]
    assert main(argv + ["--n-boot", "300"]) == 0
    capsys.readouterr()
    card = out.read_text()
    for point in (  # Fiedler section 7, each point named (no numbers that would skip)
        "Estimand: theta",
        "Calibration: model-specific",
        "### Estimates with 95% intervals",
        "### Judge quality",
        "Delta J = J[alpha] - J[beta]",
        "## Comparison: alpha vs beta",
    ):
        assert point in card
    assert "<h2>Comparison: alpha vs beta</h2>" in out.with_suffix(".html").read_text()


def test_report_card_single_judge_warns_on_a_chance_judge(tmp_path, capsys):
    rng = np.random.default_rng(3)
    cal = pd.DataFrame({"human": rng.integers(0, 2, 200), "judge": rng.integers(0, 2, 200)})
    cal.to_csv(tmp_path / "cal.csv", index=False)
    pd.DataFrame({"judge": rng.integers(0, 2, 500)}).to_csv(tmp_path / "test.csv", index=False)
    argv = ["report", str(tmp_path / "cal.csv"), str(tmp_path / "test.csv"), "-o"]
    assert main(argv + [str(tmp_path / "card.md")]) == 0
    capsys.readouterr()
    card = (tmp_path / "card.md").read_text()
    assert "**Warnings:**" in card and "the diagnostics raise none" not in card
