"""`jurycal repair` on part of the bundled messy sample: every pair accounted for."""

import json

import pandas as pd
import pytest

from jurycal.cli import main
from jurycal.datasets import load_repair_sample
from repair import repair_judgments


@pytest.fixture(scope="module")
def sample(tmp_path_factory):
    root = tmp_path_factory.mktemp("repair")
    items, outputs = load_repair_sample()
    tasks = sorted(items["task"].unique())[:40]
    items = items[items["task"].isin(tasks)]
    outputs = outputs[outputs["task"].isin(tasks)]
    items.to_csv(root / "items.csv", index=False)
    outputs.to_json(root / "outputs.jsonl", orient="records", lines=True)
    return root, items, outputs


def test_repair_writes_every_pair_and_reports(sample, capsys):
    root, items, outputs = sample
    out, report = root / "judgments.parquet", root / "report.csv"
    argv = ["repair", str(root / "items.csv"), str(root / "outputs.jsonl"), "-o", str(out)]
    assert main(argv + ["--report", str(report), "--json", "--quiet"]) == 0
    payload = json.loads(capsys.readouterr().out)
    judgments = pd.read_parquet(out)
    expected, _ = repair_judgments(items, outputs, progress=False)
    assert payload["pairs"] == len(judgments) == len(expected)
    assert not judgments.duplicated(["generator", "item", "validator"]).any()
    merged = judgments.merge(expected, on=["generator", "item", "validator"])
    # exact: votes and labels are 0, 1 or NaN
    assert (merged["label_x"].fillna(-1) == merged["label_y"].fillna(-1)).all()
    rows = pd.read_csv(report).set_index("validator")
    assert rows.loc["all", "rate_after"] < rows.loc["all", "rate_before"]


def test_repair_level_none_leaves_more_missing(sample, capsys):
    root, _, _ = sample
    argv = ["repair", str(root / "items.csv"), str(root / "outputs.jsonl")]
    rates = {}
    for level in ("none", "all"):
        out = root / f"{level}.csv"
        assert main(argv + ["-o", str(out), "--repairs", level, "--json", "--quiet"]) == 0
        summary = {r["validator"]: r for r in json.loads(capsys.readouterr().out)["per_validator"]}
        rates[level] = summary["all"]["rate_after"]
    assert rates["all"] < rates["none"]


def test_repair_bad_input(sample, tmp_path, capsys):
    root, _, _ = sample
    pd.DataFrame({"generator": ["g"], "task": [1]}).to_csv(tmp_path / "items.csv", index=False)
    argv = ["repair", str(tmp_path / "items.csv"), str(root / "outputs.jsonl"), "-o", "x.csv"]
    assert main(argv) == 1
    assert "missing column(s)" in capsys.readouterr().err
