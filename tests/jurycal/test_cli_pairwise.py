"""``jurycal rank VERDICTS [HUMAN]`` on pairwise verdicts (issue 28, item 5): the leaderboard of
win rates, the judges' diagnostics, errors at the file's line, the report card."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jurycal.datasets import load_arena_pairwise
from jurycal.report import Report, add_pairwise_leaderboard
from regression.pairwise import PairwiseModel
from regression.pairwise.board import pairwise_board, pairwise_rows, pairwise_summary

ROOT = Path(__file__).resolve().parents[2]


def _files(arena):
    root, *_ = arena
    return [str(root / "verdicts.csv"), str(root / "human.csv")]


def test_rank_gives_the_librarys_win_rates_and_rank_sets(arena, run_cli):
    root, verdicts, human = arena
    code, out, err = run_cli(["rank", *_files(arena), "--json", "--seed", "3"])
    assert code == 0, err
    payload = json.loads(out)
    result = PairwiseModel(seed=3).fit_table(verdicts, human)
    board = pairwise_board(result, 0.05, seed=3)
    rows = pd.DataFrame(payload["leaderboard"]).set_index("generator")
    assert list(rows.index) == list(board.table.index)  # best first
    expected = result.interval(0.05).loc[rows.index]
    np.testing.assert_allclose(
        rows[["estimate", "low", "high"]], expected[["estimate", "low", "high"]]
    )
    assert rows["low_rank"].tolist() == board.table["low_rank"].tolist()
    assert rows["high_rank"].tolist() == board.table["high_rank"].tolist()
    assert rows["n_labels"].sum() == 2 * 300  # a vote counts for both generators of its battle
    assert payload["method"] == "ppi++" and payload["estimand"] == "win_rate"
    assert payload["n_labels"] == 300 and payload["n_battles"] == 877
    judges = {r["validator"]: r for r in payload["judges"]}
    assert set(judges) == {"gpt-4o-mini", "gpt-5.2", "human voters"}
    # the data README: gpt-4o-mini picks the answer shown first (model_a) on 56.5 % of battles
    assert judges["gpt-4o-mini"]["first_shown_rate"] == pytest.approx(0.5651, abs=1e-4)
    assert payload["could_be_best"] == [g for g in rows.index if rows.loc[g, "could_be_best"]]
    assert {"generator_a", "generator_b", "decided"} <= set(payload["pairs"][0])
    assert payload["covers"] == result.covers and err == ""


def test_rank_keys_are_the_ones_docs_cli_md_gives_for_pairwise_verdicts(arena, run_cli):
    section = (ROOT / "docs" / "cli.md").read_text().split("\n### `jurycal rank ")[1]
    pairwise = section.split("#### Pairwise verdicts")[1].split("\n### ")[0]
    documented = {k.strip() for k in re.search(r"JSON keys: `([^`]*)`", pairwise)[1].split(",")}
    code, out, err = run_cli(["rank", *_files(arena), "--json"])
    assert code == 0, err
    assert set(json.loads(out)) == documented


def test_rank_prints_the_board_the_judges_and_what_the_intervals_cover(arena, run_cli):
    code, out, err = run_cli(["rank", *_files(arena), "--top", "2"])
    assert code == 0, err
    board = out.split("leaderboard:\n")[1].split("\n\n")[0].splitlines()
    assert board[0].split() == [
        "generator", "rank", "estimate", "low", "high", "low_rank", "high_rank", "n_labels",
        "judges_worth",
    ]  # fmt: skip
    assert len(board) == 1 + 2  # --top 2
    assert "judges:\nvalidator" in out and "human voters" in out
    assert "rank sets (1 = the highest estimate) hold for every generator at once" in out
    assert "300 of 877 battles have a human vote (a uniform sample)" in out
    assert "the random choice of the voted battles" in out  # what the intervals cover
    assert "nan" not in out.lower().replace("nano", "")


def test_without_human_votes_the_judges_win_rates_come_uncorrected_with_a_warning(arena, run_cli):
    root, verdicts, _ = arena
    code, out, err = run_cli(["rank", str(root / "verdicts.csv"), "--json"])
    assert code == 0
    payload = json.loads(out)
    assert payload["method"] == "mean_of_judges" and payload["pairs"] == []
    rows = pd.DataFrame(payload["leaderboard"]).set_index("generator")
    assert rows[["low", "high", "low_rank", "high_rank"]].isna().all().all()
    # claude-opus-4 plays every battle: its win rate is its share of the judges' picks
    picks = verdicts.dropna(subset=["verdict"])
    claude = np.where(
        picks["generator_a"].str.startswith("claude"),
        picks["verdict"] == "a",
        picks["verdict"] == "b",
    ).mean()
    assert rows.loc["claude-opus-4-20250514", "estimate"] == pytest.approx(claude)
    assert err.startswith("jurycal: warning: there are no human votes")
    code, out, _ = run_cli(["rank", str(root / "verdicts.csv")])
    assert "(uncorrected)" in out and "no interval, no rank set" in out and "low_rank" not in out


def _broken(root, name, table, row, column, value):
    frame = table.copy()
    frame.loc[row, column] = value
    path = root / name
    frame.to_csv(path, index=False)
    return path


@pytest.mark.parametrize(
    ("where", "column", "value", "kind", "says"),
    [
        ("verdicts", "verdict", "A>>>B", "VerdictError", "the words read are"),
        ("verdicts", "generator_b", "<generator_a>", "BattleError", "generator_a equal to"),
        ("human", "generator_b", "<generator_a>", "BattleError", "generator_a equal to"),
        ("human", "item", "no-such-item", "BattleError", "no judge gave a verdict on item"),
        ("human", "human", "maybe", "VerdictError", "'maybe'"),
    ],
)
def test_a_bad_row_is_named_at_its_file_line(
    arena, tmp_path, where, column, value, kind, says, run_cli
):
    root, verdicts, human = arena
    table = verdicts if where == "verdicts" else human
    row = 40
    if value.startswith("<"):
        value = table.loc[row, value.strip("<>")]
    path = _broken(tmp_path, f"{where}.csv", table, row, column, value)
    files = _files(arena)
    files[0 if where == "verdicts" else 1] = str(path)
    code, _, err = run_cli(["rank", *files, "--json"])
    error = json.loads(err)["error"]
    assert code == 1 and error["type"] == kind and says in error["message"]
    assert (error["file"], error["line"], error["column"]) == (str(path), row + 2, column)
    what = "verdicts file" if where == "verdicts" else "human-vote file"
    assert error["message"].startswith(f"{what} {str(path)!r} line {row + 2}, column {column!r}")


@pytest.mark.parametrize("where", ["verdicts", "human"])
def test_a_duplicate_row_is_named_at_its_line(arena, tmp_path, where, run_cli):
    root, verdicts, human = arena
    table = verdicts if where == "verdicts" else human
    path = tmp_path / f"{where}.csv"
    pd.concat([table, table.iloc[[7]]]).to_csv(path, index=False)
    files = _files(arena)
    files[0 if where == "verdicts" else 1] = str(path)
    code, _, err = run_cli(["rank", *files])
    assert code == 1 and f"line {len(table) + 2}" in err and "repeats" in err


def test_a_human_vote_on_a_pair_the_judges_did_not_judge_names_the_pairs_they_did(
    arena, tmp_path, run_cli
):
    root, verdicts, human = arena
    frame = human.copy()
    others = sorted(
        set(verdicts["generator_a"]) - {frame.loc[3, "generator_a"], frame.loc[3, "generator_b"]}
    )
    frame.loc[3, "generator_b"] = others[0]
    frame.to_csv(tmp_path / "h.csv", index=False)
    code, _, err = run_cli(["rank", _files(arena)[0], str(tmp_path / "h.csv")])
    assert code == 1 and "line 5, column 'generator_b'" in err
    assert "the generators differ from the judged battle(s) of item" in err


def test_the_fits_options_are_refused_not_ignored(arena, run_cli):
    code, _, err = run_cli(["rank", *_files(arena), "--calibration", "x", "--n-boot", "50"])
    assert code == 1 and "--calibration, --n-boot set(s) the fit of a judgments table" in err
    code, _, err = run_cli(["rank", *_files(arena), "--estimand", "elo"])
    assert code == 1 and "'elo'" in err
    code, _, err = run_cli(["rank", _files(arena)[0], "--plot", "board.png"])
    assert code == 1 and "without HUMAN" in err


def test_the_files_given_the_wrong_way_round_are_named_so(arena, run_cli):
    verdicts, human = _files(arena)
    code, _, err = run_cli(["rank", human, verdicts])
    assert code == 1 and "holds human votes (a human column, no verdict)" in err
    assert "jurycal rank VERDICTS HUMAN" in err


def test_a_judgments_file_still_needs_its_human_labels(tmp_path, run_cli):
    judgments = tmp_path / "j.csv"
    judgments.write_text("generator,item,validator,label\ng,1,v,1\n")
    code, _, err = run_cli(["rank", str(judgments)])
    assert code == 1 and "needs HUMAN" in err
    code, _, err = run_cli(["rank", str(judgments), str(judgments), "--estimand", "win_rate"])
    assert code == 1 and "--estimand sets the estimate from pairwise verdicts" in err


def test_any_table_format_and_names_written_as_numbers(tmp_path, run_cli):
    """Parquet verdicts and JSON Lines votes, generators numbered 1..3 and items text in one file,
    numbers in the other: read as every command reads them."""
    rng = np.random.default_rng(5)
    pairs = [(1, 2), (1, 3), (2, 3)] * 40
    verdicts = pd.DataFrame(
        {
            "item": np.arange(120),
            "generator_a": [a for a, _ in pairs],
            "generator_b": [b for _, b in pairs],
            "validator": "judge",
            "verdict": rng.choice(["a", "b", "tie"], 120),
        }
    )
    human = verdicts[["item", "generator_a", "generator_b"]].iloc[:60].copy()
    human["human"] = rng.choice(["a", "b"], 60)
    verdicts.to_parquet(tmp_path / "v.parquet")
    human.assign(item=human["item"].astype(str)).to_json(
        tmp_path / "h.jsonl", orient="records", lines=True
    )
    code, out, err = run_cli(
        ["rank", str(tmp_path / "v.parquet"), str(tmp_path / "h.jsonl"), "--json"]
    )
    assert code == 0, err
    rows = pd.DataFrame(json.loads(out)["leaderboard"])
    assert sorted(rows["generator"]) == ["1", "2", "3"] and rows["n_labels"].sum() == 120


def test_a_generator_with_too_few_votes_is_listed_without_a_rank(arena, tmp_path, run_cli):
    root, verdicts, human = arena
    qwen = human["generator_a"].str.startswith("qwen") | human["generator_b"].str.startswith("qwen")
    human[~qwen | (np.cumsum(qwen) <= 2)].to_csv(tmp_path / "h.csv", index=False)
    code, out, err = run_cli(["rank", _files(arena)[0], str(tmp_path / "h.csv"), "--json"])
    assert code == 0
    rows = pd.DataFrame(json.loads(out)["leaderboard"]).set_index("generator")
    qwen_row = rows.loc["qwen3-235b-a22b-no-thinking"]
    assert rows.index[-1] == qwen_row.name and qwen_row[["estimate", "low_rank"]].isna().all()
    assert rows.drop(qwen_row.name)["low_rank"].notna().all()
    # the others' worst ranks allow for it: nothing is decided below the last ranked generator,
    # whose worst rank is then the last of all, qwen's place included
    assert rows.drop(qwen_row.name)["high_rank"].max() == len(rows)
    assert "has 2 human vote(s): too few for an interval" in err


def test_the_report_card(arena, tmp_path, run_cli):
    card = tmp_path / "arena.md"
    code, _, err = run_cli(["rank", *_files(arena), "--report", str(card)])
    assert code == 0, err
    text = card.read_text()
    assert "## Leaderboard from pairwise verdicts: win rates (ppi++)" in text
    assert "### judges" in text and "| human voters |" in text
    assert "![" in text and (tmp_path / "arena-1.png").stat().st_size > 0
    assert f"jurycal: written: {card}" in err


def test_the_plot_names_its_axis_the_win_rate(arena, tmp_path, monkeypatch, run_cli):
    import jurycal.report

    drawn, draw = [], jurycal.report.pairwise_plot
    monkeypatch.setattr(
        jurycal.report, "pairwise_plot", lambda *a, **k: drawn.append(draw(*a, **k)) or drawn[-1]
    )
    plot = tmp_path / "board.png"
    code, _, err = run_cli(["rank", *_files(arena), "--plot", str(plot)])
    assert code == 0, err
    assert drawn[0].axes[0].get_xlabel() == "win rate, 95% interval"
    assert plot.stat().st_size > 0 and f"jurycal: written: {plot}" in err


def test_the_card_of_a_fit_without_votes_has_no_figure():
    verdicts, _ = load_arena_pairwise()
    with pytest.warns(UserWarning, match="no human votes"):
        result = PairwiseModel().fit_table(verdicts)
    board = pairwise_board(result)
    report = Report("x")
    add_pairwise_leaderboard(report, result, board)
    assert board is None and report.figure_names("x") == []
    assert "Win rates from the judges' verdicts alone (uncorrected)" in report.to_markdown()
    assert pairwise_rows(result, board)["rank"].tolist() == [1, 2, 3, 4]


WORDS = st.sampled_from(["a", "b", "tie", "A>B", "model_b", "1.5", "", "maybe", None, 3, "ab"])
GENERATORS = st.sampled_from(["x", "y", "z", "1", "", None])


@st.composite
def pairwise_files(draw):
    """Verdicts and human votes, mostly tidy, with bad words, one generator on both sides,
    missing cells, repeated rows and votes on battles never judged mixed in."""
    n = draw(st.integers(1, 25))
    rows = []
    for i in range(n):
        a, b = draw(st.sampled_from([("x", "y"), ("x", "z"), ("y", "z")]))
        if draw(st.integers(0, 6)) == 0:
            a, b = draw(GENERATORS), draw(GENERATORS)
        verdict = draw(st.sampled_from(["a", "b", "tie"]) if draw(st.booleans()) else WORDS)
        item = i if draw(st.integers(0, 6)) else draw(st.integers(0, 3))
        position = draw(st.sampled_from(["ab", "ba", "ab", "BA", None]))
        rows.append((item, a, b, draw(st.sampled_from(["j1", "j2"])), verdict, position))
    verdicts = pd.DataFrame(
        rows, columns=["item", "generator_a", "generator_b", "validator", "verdict", "position"]
    )
    chosen = draw(st.lists(st.integers(0, n - 1), max_size=n))
    human = verdicts.iloc[chosen][["item", "generator_a", "generator_b"]].copy()
    human["human"] = [
        draw(st.sampled_from(["a", "b", "tie"]) if draw(st.booleans()) else WORDS) for _ in chosen
    ]
    if draw(st.integers(0, 4)) == 0 and len(human):
        human.iloc[0, 0] = 99  # a vote on a battle no judge saw
    return verdicts, human


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(pairwise_files())
def test_any_pairwise_table_gives_a_board_or_one_error_line(tmp_path, run_cli, tables):
    verdicts, human = tables
    verdicts.to_csv(tmp_path / "v.csv", index=False)
    human.to_csv(tmp_path / "h.csv", index=False)
    code, out, err = run_cli(["rank", str(tmp_path / "v.csv"), str(tmp_path / "h.csv")])
    assert "Traceback" not in err and code in (0, 1), (code, err)
    if code == 1:
        errors = [line for line in err.splitlines() if not line.startswith("jurycal: warning: ")]
        assert len(errors) == 1 and errors[0].startswith("jurycal: error: "), err
        # a row's fault names its file and line
        located = re.search(r"(verdicts|human-vote) file '.*' line \d+, column '\w+'", errors[0])
        assert located or errors[0].endswith("has no rows."), errors[0]
    else:
        assert "leaderboard:" in out or "win rates:" in out


def test_top_sets_the_rows_of_a_judgments_leaderboard_too(tmp_path, run_cli):
    rng = np.random.default_rng(1)
    rows, human = [], []
    for generator, precision in zip("abcd", [0.5, 0.6, 0.7, 0.8], strict=True):
        for item in range(40):
            truth = rng.random() < precision
            human.append((generator, item, int(truth)))
            rows += [
                (generator, item, f"v{v}", int(rng.random() < (0.85 if truth else 0.2)))
                for v in range(3)
            ]
    pd.DataFrame(rows, columns=["generator", "item", "validator", "label"]).to_csv(
        tmp_path / "j.csv", index=False
    )
    pd.DataFrame(human, columns=["generator", "item", "human"]).to_csv(
        tmp_path / "h.csv", index=False
    )
    code, out, err = run_cli(
        ["rank", str(tmp_path / "j.csv"), str(tmp_path / "h.csv"), "--top", "2"]
    )
    assert code == 0, err
    assert len(out.split("leaderboard:\n")[1].split("\n\n")[0].splitlines()) == 1 + 2
    assert "Shown: the top 2 of 4 generators" in out


def test_the_summary_names_the_quantity_after_the_estimand():
    verdicts, human = load_arena_pairwise()
    result = PairwiseModel().fit_table(verdicts, human.sample(200, random_state=1))
    board = pairwise_board(result)
    assert pairwise_summary(result, board).title.endswith("win rates (ppi++)")
    named = pairwise_summary(result, board, estimand="bradley_terry")
    assert named.title == "Leaderboard from pairwise verdicts: Bradley-Terry strengths (ppi++)"


def test_votes_that_give_one_generator_an_interval_say_so_and_rank_nothing(tmp_path, run_cli):
    """A draw aimed at g00 (suggest --generator g00) reaches g00 alone: the summary gives g00's
    prediction-powered interval and says there is nothing to rank; it does not call the estimates
    the judges' uncorrected ones, and no generator gets a rank."""
    from regression.pairwise import suggest_labels
    from regression.simulate import pairwise_world

    world = pairwise_world(6, 900, 0, seed=4)
    picks = suggest_labels(world.verdicts, None, 90, generators=["g00"], seed=1)
    human = picks.merge(world.votes, on=["item", "generator_a", "generator_b"])
    world.verdicts.to_csv(tmp_path / "verdicts.csv", index=False)
    human.to_csv(tmp_path / "human.csv", index=False)
    files = [str(tmp_path / "verdicts.csv"), str(tmp_path / "human.csv")]
    code, out, err = run_cli(["rank", *files])
    assert code == 0, err
    assert "Win rates with human votes: too few generators to rank" in out
    assert "1 generator(s) have an interval" in out and "uncorrected" not in out
    assert "did not reach" in err
    code, out, _ = run_cli(["rank", *files, "--json"])
    rows = pd.DataFrame(json.loads(out)["leaderboard"]).set_index("generator")
    assert rows["rank"].isna().all()
    assert rows["low"].notna().sum() == 1 and rows.loc["g00", "low"] < rows.loc["g00", "high"]
    code, _, err = run_cli(["rank", *files, "--plot", str(tmp_path / "board.png")])
    assert code == 1 and "fewer than two generators have an interval" in err
