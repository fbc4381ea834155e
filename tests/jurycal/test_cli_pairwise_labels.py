"""`jurycal suggest` and `jurycal plan` on a pairwise verdict table (told by its columns)."""

import json

import pandas as pd
import pytest

from jurycal.cli import main
from regression.pairwise import PairwiseModel
from regression.pairwise.simulate import pairwise_world

KEYS = ["item", "generator_a", "generator_b"]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    root = tmp_path_factory.mktemp("pairwise")
    world = pairwise_world(5, 400, 60, seed=2)
    world.verdicts.to_csv(root / "verdicts.csv", index=False)
    world.human.to_csv(root / "human.csv", index=False)  # a uniform draw: no probabilities
    world.human.assign(inclusion_probability=1.0).to_csv(root / "held.csv", index=False)
    return root, world


def test_suggest_vote_and_fit_round_trip(files, capsys):
    root, world = files
    out = root / "to_vote.csv"
    argv = ["suggest", str(root / "verdicts.csv"), "--labels", str(root / "held.csv")]
    assert main([*argv, "--budget", "30", "--seed", "3", "-o", str(out), "--width", "0.2"]) == 0
    captured = capsys.readouterr()
    assert "30 battles to vote" in captured.out and "human votes needed" in captured.out
    assert "inclusion_probability 1" in captured.out
    chosen = pd.read_csv(out)
    assert list(chosen.columns) == [*KEYS, "inclusion_probability"]
    assert len(chosen) == 30 and not set(chosen["item"]) & set(world.human["item"])
    voted = chosen.merge(world.votes, on=KEYS)
    human = pd.concat([world.human.assign(inclusion_probability=1.0), voted])
    fit = PairwiseModel().fit_table(world.verdicts, human)
    assert (fit.n_labels.sum() // 2) == 90 and fit.method == "ppi++"


def test_after_a_uniform_draw_suggest_draws_to_join_it_as_one(files, capsys):
    """The votes so far carry no inclusion_probability (a uniform draw): the new battles are
    drawn uniformly with the probability of the joined draw, (60 + 30) / 400, and all the
    votes pass back as one uniform draw."""
    root, world = files
    out = root / "to_join.csv"
    argv = ["suggest", str(root / "verdicts.csv"), "--labels", str(root / "human.csv")]
    assert main([*argv, "--budget", "30", "--seed", "3", "-o", str(out), "--width", "0.2"]) == 0
    text = capsys.readouterr().out
    assert "to join your earlier votes (a uniform draw) as one uniform draw" in text
    assert "every vote, old and new, with the inclusion_probability of" in text
    assert "are one uniform draw" in text  # the plan's note
    chosen = pd.read_csv(out)
    assert chosen["inclusion_probability"].to_numpy() == pytest.approx(90 / 400)
    assert len(chosen) == 30 and not set(chosen["item"]) & set(world.human["item"])
    human = pd.concat(
        [world.human, chosen.merge(world.votes, on=KEYS).drop(columns="inclusion_probability")]
    )
    fit = PairwiseModel().fit_table(world.verdicts, human)
    assert (fit.n_labels.sum() // 2) == 90 and not fit.table.weighted
    assert main([*argv, "--budget", "30", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["one_draw"] is True


def test_suggest_json_keys_and_counts(files, capsys):
    root, _ = files
    argv = ["suggest", str(root / "verdicts.csv"), "--budget", "12", "--json"]
    assert main(argv) == 0
    payload = json.loads(capsys.readouterr().out)
    assert set(payload) == {"items", "per_generator", "output", "objective", "one_draw"}
    assert payload["one_draw"] is False  # no votes so far to join
    assert payload["objective"] == "win rates"  # the default, said in the JSON
    assert len(payload["items"]) == 12 and sum(payload["per_generator"].values()) == 24


def test_plan_text_and_json(files, capsys):
    root, _ = files
    held = ["plan", str(root / "verdicts.csv"), "--labels", str(root / "held.csv")]
    assert main([*held, "--width", "0.15", "--generator", "g01", "g02"]) == 0
    text = capsys.readouterr().out
    assert "human votes needed for a 95% interval at most 15.0 points wide" in text
    assert "The votes held (n_labels) stay fixed and stand only for their own battles" in text
    argv = ["plan", str(root / "verdicts.csv"), "--labels", str(root / "human.csv")]
    assert main([*argv, "--width", "0.15", "--generator", "g01", "g02"]) == 0
    text = capsys.readouterr().out  # votes so far a uniform draw: joined, not held
    assert "The votes so far (n_labels) are one uniform draw" in text
    assert "The votes held (n_labels) stay fixed" not in text
    assert main(["plan", str(root / "verdicts.csv"), "--width", "0.15"]) == 0
    assert "stand only for their own battles" not in capsys.readouterr().out  # no vote held
    assert main([*argv, "--width", "0.15", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)["plan"]
    assert {row["generator"] for row in plan} == {"g00", "g01", "g02", "g03", "g04"}
    assert all(row["active"] <= row["uniform"] <= row["n_battles"] for row in plan)


def test_bad_verdict_word_is_named_at_its_line(files, capsys):
    root, world = files
    bad = world.verdicts.head(8).copy()
    bad.loc[5, "verdict"] = "maybe"
    bad.to_csv(root / "bad.csv", index=False)
    assert main(["plan", str(root / "bad.csv"), "--width", "0.2"]) == 1
    err = capsys.readouterr().err  # the sixth row is line 7, after the header
    assert f"verdicts file {str(root / 'bad.csv')!r} line 7, column 'verdict'" in err
    assert "maybe" in err


def test_human_vote_on_an_unjudged_battle_is_named_in_the_vote_file(files, capsys):
    root, world = files
    votes = world.human.head(3).copy()
    votes.loc[2, "item"] = 99_999
    votes.to_csv(root / "stray.csv", index=False)
    argv = ["suggest", str(root / "verdicts.csv"), "--labels", str(root / "stray.csv")]
    assert main([*argv, "--budget", "5"]) == 1
    assert f"human-vote file {str(root / 'stray.csv')!r} line 4" in capsys.readouterr().err


def test_budget_over_the_battles_warns_on_stderr(files, capsys):
    root, world = files
    small = world.verdicts[world.verdicts["item"] < 6]
    small.to_csv(root / "small.csv", index=False)
    assert main(["suggest", str(root / "small.csv"), "--budget", "10"]) == 0
    captured = capsys.readouterr()
    assert "jurycal: warning: budget 10 is more than the 6 unvoted battles" in captured.err
    assert "6 battles to vote" in captured.out
