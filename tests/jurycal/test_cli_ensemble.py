"""`jurycal vote` and `jurycal pick-threshold` on the bundled votes, and their bad input."""

import json

import pandas as pd
import pytest

from ensemble import ensemble_precision, vote, vote_matrix
from jurycal.cli import main
from jurycal.datasets import load_agreeableness_judgments


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("votes")
    judgments, human = load_agreeableness_judgments("feedback+lines+labels")
    judgments.to_parquet(root / "judgments.parquet")
    human.to_csv(root / "human.csv", index=False)
    return root, judgments


def test_vote_matches_the_library_and_writes_labels(files, capsys):
    root, judgments = files
    argv = ["vote", str(root / "judgments.parquet"), "--rule", "minority_veto", "--threshold", "4"]
    assert (
        main(argv + ["--human", str(root / "human.csv"), "--json", "-o", str(root / "l.csv")]) == 0
    )
    payload = json.loads(capsys.readouterr().out)
    expected = ensemble_precision(vote(vote_matrix(judgments), "minority_veto", 4)).to_frame()
    got = {row["generator"]: row["estimate"] for row in payload["precision"]}
    assert got == pytest.approx(expected["estimate"].to_dict())
    rates = {row["rate"]: row["estimate"] for row in payload["rates"]}
    assert rates["tpr"] == pytest.approx(0.9554, abs=1e-4)  # paper section 4: TPR 95.5 %
    labels = pd.read_csv(root / "l.csv")
    assert len(labels) == 5972 and set(labels.columns) == {"generator", "item", "label"}


def test_pick_threshold_recovers_the_papers_n4(files, capsys, tmp_path):
    root, _ = files
    png = tmp_path / "sweep.png"
    argv = ["pick-threshold", str(root / "judgments.parquet"), str(root / "human.csv")]
    assert main(argv + ["--json", "--plot", str(png)]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["threshold"] == 4  # the paper's minority veto n = 4 (section 4)
    assert png.read_bytes().startswith(b"\x89PNG")


def test_vote_bad_input(tmp_path, capsys):
    bad = tmp_path / "j.csv"
    pd.DataFrame({"generator": ["g"], "item": [0], "validator": ["v"], "label": [2]}).to_csv(
        bad, index=False
    )
    assert main(["vote", str(bad)]) == 1
    assert "2" in capsys.readouterr().err
    pd.DataFrame({"generator": ["g"], "item": [0], "label": [1]}).to_csv(bad, index=False)
    assert main(["vote", str(bad)]) == 1
    assert "missing column(s) ['validator']" in capsys.readouterr().err
    pd.DataFrame({"generator": ["g"], "item": [0], "validator": ["v"], "label": [1]}).to_csv(
        bad, index=False
    )
    assert main(["vote", str(bad), "--threshold", "5"]) == 1
    assert "threshold" in capsys.readouterr().err


def test_count_streams_the_judgments_into_cells(files, capsys):
    root, judgments = files
    out = root / "counts.csv"
    argv = ["count", str(root / "judgments.parquet"), "-o", str(out)]
    assert main(argv + ["--quiet"]) == 0
    assert "6 generators x 14 validators" in capsys.readouterr().out
    counts = pd.read_csv(out)
    assert len(counts) == 6 * 14
    # every vote is accounted for: the labelled ones are in n_labelled, the rest were missing
    assert counts["n_labelled"].sum() == judgments["label"].notna().sum()
    expected = judgments.dropna(subset=["label"]).groupby(["generator", "validator"])["label"].sum()
    got = counts.set_index(["generator", "validator"])["n_valid"]
    assert (got.sort_index() == expected.sort_index().astype(int)).all()  # exact: integer counts
