"""Score tables from the command line (issue 38 item 6, issue 39 item 3): ``rank``, ``estimate``
and the others tell a score table (generator, item, validator, score) by its columns, read the
human ratings beside it, and place every input error at its file's 1-based line and column.

The files are the bundled HANNA stories (one criterion) written as a user would: the 20 judges'
scores, and a seeded sample of 10 rated stories per system."""

import json

import pytest

from jurycal.datasets import load_hanna
from jurycal.formats import is_score_table


@pytest.fixture(scope="module")
def hanna(tmp_path_factory):
    """Coherence: scores.csv (every judge, every story), ratings.csv (10 per system), and the
    same ratings as JSON Lines; returns the folder."""
    root = tmp_path_factory.mktemp("scores")
    scores, human = load_hanna("Coherence")
    rated = human.groupby("generator").sample(10, random_state=38).reset_index(drop=True)
    scores.to_csv(root / "scores.csv", index=False)
    rated.to_csv(root / "ratings.csv", index=False)
    rated.to_json(root / "ratings.jsonl", orient="records", lines=True)
    return root


def _edit(root, name, line, column, value, out):
    """``root/name`` (a CSV) with ``column`` of file line ``line`` (1-based, header line 1) set
    to ``value``, written as ``out``."""
    import pandas as pd

    frame = pd.read_csv(root / name, dtype=str)
    frame.loc[line - 2, column] = value
    frame.to_csv(root / out, index=False)
    return str(root / out)


def test_a_score_table_is_told_by_its_columns():
    assert is_score_table(["generator", "item", "validator", "score"])
    # a judgments import carries its raw score beside the label: still a judgments table
    assert not is_score_table(["generator", "item", "validator", "label", "score"])
    assert not is_score_table(["item", "generator_a", "generator_b", "validator", "verdict"])


def test_a_score_that_is_not_a_number_names_its_line_and_column(hanna, run_cli):
    bad = _edit(hanna, "scores.csv", 7, "score", "high", "bad_scores.csv")
    code, out, err = run_cli(["rank", bad, str(hanna / "ratings.csv"), "--json"])
    assert code == 1 and out == ""
    error = json.loads(err)["error"]
    assert error["line"] == 7 and error["column"] == "score" and error["file"] == bad
    assert "'high' is not a finite number" in error["message"]


def test_a_rating_outside_the_declared_scale_names_its_line(hanna, run_cli):
    bad = _edit(hanna, "ratings.csv", 12, "human", "6", "bad_ratings.csv")
    code, _, err = run_cli(["rank", str(hanna / "scores.csv"), bad, "--scale", "1", "5"])
    assert code == 1
    assert f"rating file '{bad}' line 12, column 'human': rating 6 lies outside" in err


def test_a_repeated_rating_names_both_lines(hanna, run_cli):
    import pandas as pd

    ratings = pd.read_csv(hanna / "ratings.csv")
    pd.concat([ratings, ratings.iloc[[3]]]).to_csv(hanna / "twice.csv", index=False)
    code, _, err = run_cli(["rank", str(hanna / "scores.csv"), str(hanna / "twice.csv")])
    assert code == 1
    assert f"line {len(ratings) + 2}: repeats line 5" in err


def test_a_rating_that_is_not_a_number_in_json_lines_names_its_record(hanna, run_cli):
    import pandas as pd

    ratings = pd.read_json(hanna / "ratings.jsonl", lines=True)
    ratings["human"] = ratings["human"].astype(object)
    ratings.loc[4, "human"] = "five"
    ratings.to_json(hanna / "words.jsonl", orient="records", lines=True)
    code, _, err = run_cli(["estimate", str(hanna / "scores.csv"), str(hanna / "words.jsonl"),
                            "--generator", "GPT"])  # fmt: skip
    assert code == 1
    assert "line 5, column 'human': 'five' is not a finite number" in err


@pytest.mark.parametrize(
    ("scale", "says"),
    [
        (["5", "1"], "LOW (5) must be below HIGH (1)"),
        (["1", "nan"], "'nan' is not a finite number"),
        (["one", "5"], "'one' is not a number"),
    ],
)
def test_a_bad_scale_is_a_usage_error(hanna, run_cli, scale, says):
    code, _, err = run_cli(["rank", str(hanna / "scores.csv"), str(hanna / "ratings.csv"),
                            "--scale", *scale])  # fmt: skip
    assert code == 2 and says in err


def test_options_of_other_tables_are_refused_with_a_score_table(hanna, run_cli):
    files = [str(hanna / "scores.csv"), str(hanna / "ratings.csv")]
    code, _, err = run_cli(["rank", *files, "--n-boot", "200"])
    assert code == 1 and "--n-boot set(s) a judgments fit" in err
    code, _, err = run_cli(["rank", files[0]])
    assert code == 1 and "give the human ratings too" in err
    code, _, err = run_cli(["rank", files[1], files[0]])  # the files the wrong way round
    assert code == 1


def test_scale_is_refused_with_a_judgments_table(tmp_path, run_cli):
    from jurycal.datasets import load_agreeableness_judgments

    judgments, human = load_agreeableness_judgments()
    judgments.head(200).to_csv(tmp_path / "j.csv", index=False)
    human.to_csv(tmp_path / "h.csv", index=False)
    code, _, err = run_cli(["rank", str(tmp_path / "j.csv"), str(tmp_path / "h.csv"),
                            "--scale", "0", "1"])  # fmt: skip
    assert code == 1 and "--scale sets the rating scale of a score table" in err
