"""`--transfer-bias` on the commands that estimate partially labelled generators."""

import json

import pandas as pd
import pytest

from jurycal.cli import main
from jurycal.datasets import load_agreeableness_judgments


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("transfer_bias")
    judgments, human = load_agreeableness_judgments()
    judgments.to_parquet(root / "judgments.parquet")
    own = human[human["generator"] == "gpt-4o"].sample(50, random_state=0)
    partial = human[human["generator"] != "gpt-4o"]
    pd.concat([partial, own]).to_csv(root / "partial.csv", index=False)
    return root


@pytest.mark.parametrize("option", ["none", "held-out", "0.02"])
def test_fit_transfer_bias(files, capsys, option):
    argv = ["fit", str(files / "judgments.parquet"), str(files / "partial.csv")]
    assert main(argv + ["--transfer-bias", option, "--json"]) == 0
    rows = {r["generator"]: r for r in json.loads(capsys.readouterr().out)["generators"]}
    assert rows["gpt-4o"]["role"] == "partially labelled"
    assert rows["gpt-4o"]["low"] < rows["gpt-4o"]["estimate"] < rows["gpt-4o"]["high"]


def test_bound_narrows_and_default_is_labels_and_votes(files, capsys):
    argv = ["fit", str(files / "judgments.parquet"), str(files / "partial.csv"), "--json"]
    widths = {}
    for option in ("none", "0.01"):
        assert main(argv + ["--transfer-bias", option]) == 0
        rows = {r["generator"]: r for r in json.loads(capsys.readouterr().out)["generators"]}
        widths[option] = rows["gpt-4o"]["high"] - rows["gpt-4o"]["low"]
    assert widths["0.01"] < widths["none"]


@pytest.mark.parametrize("bad", ["ten", "-0.1", "5"])
def test_bad_transfer_bias_is_a_usage_error(files, capsys, bad):
    argv = ["fit", str(files / "judgments.parquet"), str(files / "partial.csv")]
    with pytest.raises(SystemExit) as info:
        main(argv + ["--transfer-bias", bad])
    assert info.value.code == 2
    assert "none, held-out or a fraction in [0, 1]" in capsys.readouterr().err
