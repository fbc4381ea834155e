"""`jurycal fit` and `jurycal estimate` on the bundled item-level votes."""

import json

import pandas as pd
import pytest

from jurycal.cli import main
from jurycal.datasets import load_agreeableness_judgments
from regression import LatentTraitModel, TransferModel
from regression.errors import MisfitWarning

CALIBRATION = ["gpt-4o", "claude_3_opus", "deepseek-chat"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("latent")
    judgments, human = load_agreeableness_judgments("feedback+lines+labels")
    judgments.to_parquet(root / "judgments.parquet")
    human.to_csv(root / "human.csv", index=False)
    return root, judgments, human


def test_fit_matches_the_library_and_marks_roles(files, capsys, tmp_path):
    root, judgments, human = files
    argv = ["fit", str(root / "judgments.parquet"), str(root / "human.csv"), "--calibration"]
    card = tmp_path / "card.md"
    options = ["--estimator", "likelihood", "--n-boot", "20", "--json", "--report", str(card)]
    assert main(argv + CALIBRATION + options) == 0
    payload = json.loads(capsys.readouterr().out)
    with pytest.warns(MisfitWarning):
        expected = LatentTraitModel(loss="likelihood", seed=0).fit_table(
            judgments, human, CALIBRATION
        )
    rows = {r["generator"]: r for r in payload["generators"]}
    for generator, value in expected.precision.items():
        assert rows[generator]["estimate"] == pytest.approx(value, abs=1e-6)
        assert rows[generator]["low"] <= rows[generator]["estimate"] <= rows[generator]["high"]
    assert {rows[g]["role"] for g in CALIBRATION} == {"calibration"}
    assert rows["gpt-4-turbo"]["role"] == "held out" and rows["gpt-4-turbo"]["abs_error"] > 0
    # the model does not hold on these votes, and the fit says so (agreeableness data)
    assert any("does not hold" in w for w in payload["warnings"])
    assert "Latent-trait regression (likelihood loss)" in card.read_text()
    assert "profile-likelihood intervals (deviance scaled by the Pearson dispersion" in (
        card.read_text()
    )
    assert card.with_suffix(".html").exists()


def test_estimate_a_new_generator_equals_a_full_refit(files, capsys):
    root, judgments, human = files
    argv = ["estimate", str(root / "judgments.parquet"), str(root / "human.csv")]
    argv += ["--generator", "qwen-coder-plus", "--estimator", "likelihood", "--interval", "none"]
    argv += ["--json", "--calibration"]
    assert main(argv + CALIBRATION) == 0
    payload = json.loads(capsys.readouterr().out)
    rows = {r["generator"]: r for r in payload["generators"]}
    with pytest.warns(MisfitWarning):
        full = LatentTraitModel(loss="likelihood", seed=0).fit_table(judgments, human, CALIBRATION)
    assert rows["qwen-coder-plus"]["estimate"] == pytest.approx(
        full.precision["qwen-coder-plus"], abs=1e-4
    )


def test_fit_by_default_estimates_with_the_transfer_estimator_and_its_self_check(
    files, capsys, tmp_path
):
    root, judgments, human = files
    argv = ["fit", str(root / "judgments.parquet"), str(root / "human.csv"), "--calibration"]
    card = tmp_path / "card.md"
    assert main(argv + CALIBRATION + ["--json", "--report", str(card)]) == 0
    payload = json.loads(capsys.readouterr().out)
    expected = TransferModel().fit_table(judgments, human, CALIBRATION)
    rows = {r["generator"]: r for r in payload["generators"]}
    for generator, value in expected.precision.items():
        assert rows[generator]["estimate"] == pytest.approx(value, abs=1e-9)
    held_out = [g for g in rows if rows[g]["role"] == "held out"]
    assert held_out and all(
        rows[g]["low"] <= rows[g]["estimate"] <= rows[g]["high"] for g in held_out
    )
    assert payload["method"] == "transfer"
    assert "self-check: " + expected.self_check_text() in payload["notes"]
    assert expected.self_check_text().startswith("on your 3 calibration generators")
    assert payload["covers"] == expected.covers
    assert {r["method"] for r in payload["self_check"]} >= {
        "transfer",
        "offset",
        "calibration_mean",
    }
    assert {r["generator"] for r in payload["diagnostics"]} == set(rows)
    text = card.read_text()
    assert "self-check: on your 3 calibration generators" in text
    assert "the judges' J on this kind of data is" in text
    # the plain-text output says the same
    assert main(argv + CALIBRATION) == 0
    out = capsys.readouterr().out
    assert "self-check: on your 3 calibration generators" in out
    assert "the judges' J on this kind of data is" in out


def test_fit_with_one_calibration_generator_says_no_self_check_is_possible(files, capsys):
    root, _, _ = files
    argv = ["fit", str(root / "judgments.parquet"), str(root / "human.csv")]
    assert main(argv + ["--calibration", "gpt-4o"]) == 0
    assert "no self-check possible" in capsys.readouterr().out


def test_estimate_with_the_default_equals_a_full_fit(files, capsys):
    root, judgments, human = files
    argv = ["estimate", str(root / "judgments.parquet"), str(root / "human.csv")]
    assert (
        main(argv + ["--generator", "qwen-coder-plus", "--json", "--calibration"] + CALIBRATION)
        == 0
    )
    rows = {r["generator"]: r for r in json.loads(capsys.readouterr().out)["generators"]}
    full = TransferModel().fit_table(judgments, human, CALIBRATION)
    assert rows["qwen-coder-plus"]["estimate"] == pytest.approx(
        full.precision["qwen-coder-plus"], abs=1e-9
    )
    assert rows["qwen-coder-plus"]["role"] == "held out"


def test_fit_and_estimate_bad_input(files, capsys):
    root, _, _ = files
    argv = ["estimate", str(root / "judgments.parquet"), str(root / "human.csv")]
    assert main(argv + ["--generator", "gpt-9"]) == 1
    err = capsys.readouterr().err
    assert "generator 'gpt-9' is not in the judgments file" in err
    assert "names there: 'claude_3_opus', 'deepseek-chat'," in err
    argv = ["fit", str(root / "judgments.parquet"), str(root / "human.csv")]
    assert main(argv + ["--calibration", "nobody"]) == 1
    assert "nobody" in capsys.readouterr().err
    pd.DataFrame({"generator": ["g"], "item": [0]}).to_csv(root / "bad.csv", index=False)
    assert main(["fit", str(root / "judgments.parquet"), str(root / "bad.csv")]) == 1
    assert "missing column(s) ['human']" in capsys.readouterr().err


def test_rank_prints_the_leaderboard_and_writes_its_card(files, capsys, tmp_path):
    root, judgments, human = files
    argv = ["rank", str(root / "judgments.parquet"), str(root / "human.csv"), "--calibration"]
    card = tmp_path / "card.md"
    options = ["--json", "--report", str(card), "--plot", str(tmp_path / "rank.png")]
    assert main(argv + ["gpt-4o", "claude_3_opus", "gpt-4-turbo"] + options) == 0
    payload = json.loads(capsys.readouterr().out)
    board = {r["generator"]: r for r in payload["leaderboard"]}
    assert set(board) == set(judgments["generator"].unique())
    for row in board.values():
        assert 1 <= row["low_rank"] <= row["rank"] <= row["high_rank"] <= len(board)
    # the two labelled ends, 9 points apart on 900-odd labels each, are decided
    decided = {
        (p["generator_a"], p["generator_b"]): p["decided"]
        for p in payload["pairs"]
        if p["decided"] != "undecided"
    }
    assert decided[("gpt-4-turbo", "claude_3_opus")] == "b higher"
    assert payload["could_be_best"] == [g for g, r in board.items() if r["low_rank"] == 1]
    assert payload["pairs_level"] == "step-down"
    assert "Leaderboard (transfer)" in card.read_text()
    assert "<img" in card.with_suffix(".html").read_text()
    assert (tmp_path / "rank.png").stat().st_size > 0


def test_rank_compares_the_pairs_asked_for_and_names_a_stranger(files, capsys):
    root, _, _ = files
    argv = ["rank", str(root / "judgments.parquet"), str(root / "human.csv"), "--calibration"]
    argv += ["gpt-4o", "claude_3_opus", "gpt-4-turbo"]
    assert main(argv + ["--pairs", "gpt-4o:deepseek-chat", "--one-at-a-time", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert [(p["generator_a"], p["generator_b"]) for p in payload["pairs"]] == [
        ("gpt-4o", "deepseek-chat")
    ]
    assert payload["pairs_level"] == "one at a time"
    assert main(argv + ["--pairs", "gpt-4o:nobody"]) == 1
    assert "generator 'nobody' is not in this fit" in capsys.readouterr().err
    assert main(argv[:-2] + ["--alpha", "0.1"]) == 1  # one calibration generator left
    assert "Label a second generator" in capsys.readouterr().err
