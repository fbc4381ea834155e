"""`jurycal suggest`, `jurycal plan` and partial labels through `jurycal estimate`."""

import json

import pandas as pd
import pytest

from jurycal.cli import main
from jurycal.datasets import load_agreeableness_judgments


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("labels")
    judgments, human = load_agreeableness_judgments()
    judgments.to_parquet(root / "judgments.parquet")
    human[human["generator"] != "gpt-4o"].to_csv(root / "others.csv", index=False)
    return root, judgments, human


def test_suggest_label_estimate_round_trip(files, capsys):
    root, _, human = files
    out = root / "to_label.csv"
    argv = ["suggest", str(root / "judgments.parquet"), "--labels", str(root / "others.csv")]
    assert main(argv + ["--budget", "40", "--seed", "3", "-o", str(out), "--width", "0.1"]) == 0
    text = capsys.readouterr().out
    assert "40 items to label" in text and "labels needed" in text
    chosen = pd.read_csv(out)
    assert list(chosen.columns) == ["generator", "item", "inclusion_probability"]
    assert len(chosen) == 40 and set(chosen["generator"]) == {"gpt-4o"}
    labelled = chosen.merge(human, on=["generator", "item"])
    pd.concat([human[human["generator"] != "gpt-4o"], labelled]).to_csv(
        root / "partial.csv", index=False
    )
    argv = ["estimate", str(root / "judgments.parquet"), str(root / "partial.csv")]
    assert main(argv + ["--generator", "gpt-4o", "--json"]) == 0
    rows = {r["generator"]: r for r in json.loads(capsys.readouterr().out)["generators"]}
    assert rows["gpt-4o"]["role"] == "partially labelled"
    assert rows["gpt-4o"]["n_labels"] == 40
    assert rows["gpt-4o"]["low"] < rows["gpt-4o"]["estimate"] < rows["gpt-4o"]["high"]


def test_plan_prints_labels_needed(files, capsys):
    root, _, _ = files
    argv = ["plan", str(root / "judgments.parquet"), "--labels", str(root / "others.csv")]
    assert main(argv + ["--width", "0.08", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)["plan"]
    assert plan[0]["generator"] == "gpt-4o" and plan[0]["uniform"] > 10


def test_bad_probability_is_one_error_line(files, capsys):
    root, _, human = files
    bad = human.head(5).copy()
    bad["inclusion_probability"] = [0.5, 0.5, 0.5, 2.0, 0.5]
    bad.to_csv(root / "bad.csv", index=False)
    argv = ["suggest", str(root / "judgments.parquet"), "--labels", str(root / "bad.csv")]
    assert main(argv + ["--budget", "5"]) == 1
    err = capsys.readouterr().err  # the fourth row is line 5, after the header
    assert f"{str(root / 'bad.csv')!r} line 5, column 'inclusion_probability'" in err
    assert "inclusion_probability 2.0;" in err and "at row" not in err
