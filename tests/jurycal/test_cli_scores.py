"""Score tables from the command line (issue 38 item 6, issue 39 item 3): ``rank``, ``estimate``
and the others tell a score table (generator, item, validator, score) by its columns, read the
human ratings beside it, and place every input error at its file's 1-based line and column.

The files are the bundled HANNA stories (one criterion) written as a user would: the 20 judges'
scores, and a seeded sample of 10 rated stories per system."""

import json

import pytest

from jurycal.cli.scores import is_score_table
from jurycal.datasets import load_hanna


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
    assert "score 'high'; it must be a finite number" in error["message"]


def test_a_rating_outside_the_declared_scale_names_its_line(hanna, run_cli):
    bad = _edit(hanna, "ratings.csv", 12, "human", "6", "bad_ratings.csv")
    code, _, err = run_cli(["rank", str(hanna / "scores.csv"), bad, "--scale", "1", "5"])
    assert code == 1
    assert f"rating file '{bad}' line 12, column 'human': " in err
    assert "outside the rating scale (1, 5)" in err


def test_a_repeated_rating_names_both_lines(hanna, run_cli):
    import pandas as pd

    ratings = pd.read_csv(hanna / "ratings.csv")
    pd.concat([ratings, ratings.iloc[[3]]]).to_csv(hanna / "twice.csv", index=False)
    code, _, err = run_cli(["rank", str(hanna / "scores.csv"), str(hanna / "twice.csv")])
    assert code == 1
    assert f"line {len(ratings) + 2}, column 'item': the row repeats (generator, item)" in err
    assert "first seen at line 5" in err


def test_a_rating_that_is_not_a_number_in_json_lines_names_its_record(hanna, run_cli):
    import pandas as pd

    ratings = pd.read_json(hanna / "ratings.jsonl", lines=True)
    ratings["human"] = ratings["human"].astype(object)
    ratings.loc[4, "human"] = "five"
    ratings.to_json(hanna / "words.jsonl", orient="records", lines=True)
    code, _, err = run_cli(["estimate", str(hanna / "scores.csv"), str(hanna / "words.jsonl"),
                            "--generator", "GPT"])  # fmt: skip
    assert code == 1
    assert "line 5, column 'human': ratings has human 'five'; it must be a finite number" in err


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
    assert "'label' column" not in err and "got ['generator', 'item', 'validator', 'label']" in err


def test_a_file_separated_by_semicolons_is_named_as_such(hanna, tmp_path, run_cli):
    text = (hanna / "scores.csv").read_text(encoding="utf-8").replace(",", ";")
    (tmp_path / "scores.csv").write_text(text, encoding="utf-8")
    for extra in ([], ["--scale", "1", "5"]):
        code, _, err = run_cli(["rank", str(tmp_path / "scores.csv"), str(hanna / "ratings.csv"),
                                *extra])  # fmt: skip
        assert code == 1 and "one column whose name holds semicolons: a .csv file" in err, extra
        assert "got ['generator;item;validator;score']" in err


@pytest.fixture(scope="module")
def ranked(hanna):
    """``jurycal rank scores.csv ratings.csv --scale 1 5 --json``, run once: its JSON and stderr."""
    from jurycal.cli import main

    with pytest.MonkeyPatch.context() as patch:
        import io

        out, err = io.StringIO(), io.StringIO()
        patch.setattr("sys.stdout", out)
        patch.setattr("sys.stderr", err)
        code = main(["rank", str(hanna / "scores.csv"), str(hanna / "ratings.csv"),
                     "--scale", "1", "5", "--json"])  # fmt: skip
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue()), err.getvalue()


def test_rank_gives_the_leaderboard_of_mean_ratings_as_json(ranked):
    payload, err = ranked
    board = payload["leaderboard"]
    assert len(board) == 11 and {row["n_labels"] for row in board} == {10}
    for row in board:
        assert 1 <= row["low"] <= row["estimate"] <= row["high"] <= 5, row
        assert 1 <= row["low_rank"] <= row["rank"] <= row["high_rank"] <= 11, row
    # the human-written story: mean Coherence rating 4.43 over all 96 ratings, every
    # generator's at most 3.31 (the data's README): first on the board, and could be best
    assert board[0]["generator"] == "Human" and "Human" in payload["could_be_best"]
    # exact: the scale as declared, passed through
    assert payload["scale"] == [1.0, 5.0] and payload["scale_from"] == "declared"
    assert len(payload["judges"]) == 20 and len(payload["generators"]) == 11
    assert "note:" not in err  # the scale was declared


def test_rank_prints_what_the_judges_are_worth_beside_the_board_and_the_judges_below(
    hanna, run_cli
):
    import pandas as pd

    from regression.scores import ScoreModel

    files = [str(hanna / "scores.csv"), str(hanna / "ratings.csv")]
    code, out, err = run_cli(["rank", *files, "--scale", "1", "5"])
    assert code == 0, err
    result = ScoreModel().fit_table(pd.read_csv(files[0]), pd.read_csv(files[1]), scale=(1, 5))
    worth = result.diagnostics()["judges_worth"].round()
    board = out.split("leaderboard:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert board[0].split()[-1] == "judges_worth"
    printed = {}
    for line in board[1:]:
        name = next(g for g in worth.index if line.startswith(f"{g} "))
        printed[name] = float(line.split()[-1])
    assert printed == pytest.approx(worth.to_dict(), abs=1e-9)
    judges = out.split("judges:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert judges[0].split()[:2] == ["validator", "n_scored"]
    assert sorted(line.split()[0] for line in judges[1:]) == sorted(result.judges().index)


def test_an_undeclared_scale_is_taken_from_the_ratings_with_a_note(hanna, run_cli):
    import pandas as pd

    ratings = pd.read_csv(hanna / "ratings.csv")
    low, high = ratings["human"].min(), ratings["human"].max()
    code, out, err = run_cli(["estimate", str(hanna / "scores.csv"), str(hanna / "ratings.csv"),
                              "--generator", "HINT", "--json"])  # fmt: skip
    assert code == 0
    assert (
        f"jurycal: note: the rating scale was not declared; read from the ratings as ({low:g}"
        in err
    )
    payload = json.loads(out)
    assert payload["scale"] == [low, high] and payload["scale_from"] == "ratings"
    row = payload["estimate"]
    assert payload["generator"] == "HINT" and row["low"] <= row["estimate"] <= row["high"]
    assert payload["n_human_ratings"] == 10


@pytest.mark.slow  # draws two figures (the board, a panel per judge): the card as a user gets it
def test_report_writes_the_card_with_the_calibration_curves(hanna, run_cli, tmp_path):
    import pandas as pd

    scores = pd.read_csv(hanna / "scores.csv")
    five = scores[scores["validator"].str.endswith("prompt2")]  # 5 judges: a small figure
    five.to_parquet(tmp_path / "scores.parquet")
    code, _, err = run_cli(["report", str(tmp_path / "scores.parquet"), str(hanna / "ratings.csv"),
                            "-o", str(tmp_path / "card"), "--scale", "1", "5"])  # fmt: skip
    assert code == 0, err
    card = (tmp_path / "card.md").read_text()
    assert "## Leaderboard" in card and "## The judges" in card
    assert "Each judge's calibration" in card
    assert (tmp_path / "card-1.png").exists() and (tmp_path / "card-2.png").exists()
    assert (tmp_path / "card.html").exists()


def test_from_a_tools_file_to_the_leaderboard(tmp_path, run_cli):
    """Inspect's own logs (two 1-5 graders) imported, then ranked with ratings of every output."""
    from pathlib import Path

    import pandas as pd

    real = Path(__file__).parent / "importers" / "fixtures" / "real"
    logs = [str(p) for p in sorted(real.glob("inspect_scores_*.eval"))]
    code, _, err = run_cli(["import", "inspect_scores", *logs, "-o", str(tmp_path / "s.csv")])
    assert code == 0, err
    scores = pd.read_csv(tmp_path / "s.csv")
    outputs = scores[["generator", "item"]].drop_duplicates()
    # echo-gen's answers are right (2, 4, 6 asked: "2", "5", "6"), loud-gen's shouted
    ratings = outputs.assign(human=[5, 2, 5, 2, 2, 1])
    ratings.to_csv(tmp_path / "r.csv", index=False)
    code, out, err = run_cli(["rank", str(tmp_path / "s.csv"), str(tmp_path / "r.csv"),
                              "--scale", "1", "5", "--json"])  # fmt: skip
    assert code == 0, err
    board = {row["generator"]: row for row in json.loads(out)["leaderboard"]}
    assert set(board) == {"mockllm/echo-gen", "mockllm/loud-gen"}
    assert board["mockllm/echo-gen"]["rank"] == 1
    assert all(row["n_labels"] == 3 for row in board.values())


def test_suggest_draws_unrated_outputs_to_the_budget(hanna, run_cli, tmp_path):
    import pandas as pd

    out = tmp_path / "to_rate.csv"
    code, _, err = run_cli(["suggest", str(hanna / "scores.csv"), "--labels",
                            str(hanna / "ratings.csv"), "--scale", "1", "5", "--budget", "12",
                            "--seed", "3", "-o", str(out)])  # fmt: skip
    assert code == 0, err
    draw = pd.read_csv(out)
    assert list(draw.columns) == ["generator", "item", "inclusion_probability"]
    assert len(draw) == 12 and draw["inclusion_probability"].between(0, 1, "right").all()
    rated = pd.read_csv(hanna / "ratings.csv")
    again = draw.merge(rated, on=["generator", "item"])
    assert again.empty  # only outputs not rated yet


def test_plan_gives_the_ratings_a_width_needs_in_rating_points(hanna, run_cli):
    code, out, err = run_cli(["plan", str(hanna / "scores.csv"), "--labels",
                              str(hanna / "ratings.csv"), "--scale", "1", "5",
                              "--width", "0.1", "--json"])  # fmt: skip
    assert code == 0, err
    payload = json.loads(out)
    plan = {row["generator"]: row for row in payload["plan"]}
    assert len(plan) == 11 and payload["scale"] == [1.0, 5.0]  # exact: as declared
    for row in plan.values():
        assert row["n_labels"] == 10 and row["n_outputs"] == 96
        # a narrower interval than now needs more ratings than held, and at most all 96
        if row["width_now"] > 0.4:
            assert 10 < row["uniform"] <= 96 and row["more_uniform"] == row["uniform"] - 10
    code, out, err = run_cli(["plan", str(hanna / "scores.csv"), "--width", "0.1"])
    assert code == 1 and "declare the rating scale with --scale LOW HIGH" in err


def test_rank_keys_are_the_ones_docs_cli_md_gives_for_score_tables(ranked):
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    section = text.split("#### Score tables: `jurycal rank SCORES HUMAN")[1].split("\n### ")[0]
    keys = re.search(r"JSON keys:\s+`([^`]*)`", section).group(1)
    payload, _ = ranked
    assert set(payload) == {k.strip() for k in keys.split(",")}
