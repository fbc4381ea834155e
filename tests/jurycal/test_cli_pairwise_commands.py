"""Pairwise verdicts through every command that reads them (issue 28, item 5; issue 30, item 4):
``rank --pairs`` / ``--one-at-a-time``, ``report``, the one detector of a pairwise table, one
check of the verdicts per ``rank``, and a summary and figure built once for card and output."""

import json

import matplotlib.pyplot as plt
import pytest
from hypothesis import given
from hypothesis import strategies as st

from jurycal.datasets import load_agreeableness_judgments
from regression.pairwise import PairwiseModel
from regression.pairwise.board import pairwise_board
from regression.ranking import Leaderboard, compare

# the arena's four generators (the bundled data's README)
CLAUDE, GEMINI, FLASH = "claude-opus-4-20250514", "gemini-2.5-pro", "gemini-2.5-flash"


@pytest.fixture(scope="module")
def labelled(tmp_path_factory):
    """The bundled agreeableness votes and labels, their first 150 items per generator (a
    judgments file ranked fast)."""
    root = tmp_path_factory.mktemp("labelled")
    judgments, human = load_agreeableness_judgments("feedback+lines+labels")
    first = human.groupby("generator").head(150)
    keys = ["generator", "item"]
    judgments.merge(first[keys], on=keys).to_parquet(root / "j.parquet")
    first.to_csv(root / "h.csv", index=False)
    return [str(root / "j.parquet"), str(root / "h.csv")]


def _files(arena):
    root, *_ = arena
    return [str(root / "verdicts.csv"), str(root / "human.csv")]


@pytest.fixture
def drawn(monkeypatch):
    """Count the figures drawn, each a blank small one (the card's PNG then takes no time)."""
    import jurycal.report
    import regression.ranking.plot

    calls = {"pairwise_plot": 0, "plot_board": 0}

    def blank(name):
        def draw(*args, **kwargs):
            calls[name] += 1
            return plt.figure(figsize=(1, 1))

        return draw

    monkeypatch.setattr(jurycal.report, "pairwise_plot", blank("pairwise_plot"))
    monkeypatch.setattr(regression.ranking.plot, "plot_board", blank("plot_board"))
    yield calls
    plt.close("all")  # the blank figures, so later tests do not inherit them


def _arena_board(arena, seed=0):
    _, verdicts, human = arena
    result = PairwiseModel(seed=seed).fit_table(verdicts, human)
    return pairwise_board(result, 0.05, seed=seed)


# --- 1. rank --pairs and --one-at-a-time --------------------------------------------


@pytest.mark.parametrize(("option", "level"), [([], "simultaneous"), (["--one-at-a-time"], "one at a time")])  # fmt: skip
def test_the_pairs_asked_for_get_the_librarys_intervals(arena, run_cli, option, level):
    asked = [(CLAUDE, GEMINI), (FLASH, GEMINI)]
    pairs = [f"{a}:{b}" for a, b in asked]
    code, out, err = run_cli(["rank", *_files(arena), "--pairs", *pairs, *option, "--json"])
    assert code == 0, err
    payload = json.loads(out)
    board = _arena_board(arena)
    expected = compare(board.joint, 0.05, asked, level == "simultaneous", seed=0)
    assert payload["pairs_level"] == level
    got = [(p["generator_a"], p["generator_b"], p["low"], p["high"]) for p in payload["pairs"]]
    want = expected[["generator_a", "generator_b", "low", "high"]].itertuples(index=False)
    assert got == [tuple(row) for row in want]
    assert all(p["low"] < p["estimate"] < p["high"] for p in payload["pairs"])


def test_simultaneous_pair_intervals_are_wider_than_each_alone(arena, run_cli):
    widths = {}
    for option in ([], ["--one-at-a-time"]):
        argv = ["rank", *_files(arena), "--pairs", f"{CLAUDE}:{GEMINI}", f"{FLASH}:{GEMINI}"]
        code, out, err = run_cli([*argv, *option, "--json"])
        assert code == 0, err
        widths[bool(option)] = [p["high"] - p["low"] for p in json.loads(out)["pairs"]]
    assert all(s > a for s, a in zip(widths[False], widths[True], strict=True))


def test_the_pair_table_uses_the_words_and_keys_of_the_judgments_rank(arena, labelled, run_cli):
    """The board's pairs are its step-down decisions; pairs asked for have intervals. A
    judgments file and a pairwise one give the same keys and levels."""
    first = {"pairwise": f"{CLAUDE}:{GEMINI}", "judgments": "gpt-4o:deepseek-chat"}
    seen = {}
    for kind, files in (("pairwise", _files(arena)), ("judgments", labelled)):
        for option in ([], ["--pairs", first[kind]]):
            code, out, err = run_cli(["rank", *files, *option, "--json"])
            assert code == 0, err
            payload = json.loads(out)
            seen[kind, len(option)] = (payload["pairs_level"], sorted(payload["pairs"][0]))
    assert {k: v for (kind, k), v in seen.items() if kind == "pairwise"} == {
        k: v for (kind, k), v in seen.items() if kind == "judgments"
    }
    assert seen["pairwise", 0] == (
        "step-down", ["decided", "estimate", "generator_a", "generator_b", "se", "var_ratio"]
    )  # fmt: skip
    assert seen["pairwise", 2][0] == "simultaneous"
    assert {"low", "high"} <= set(seen["pairwise", 2][1])


def test_the_step_down_pairs_are_those_the_rank_sets_rest_on(arena, run_cli):
    code, out, err = run_cli(["rank", *_files(arena), "--json"])
    assert code == 0, err
    payload = json.loads(out)
    rank = {r["generator"]: r for r in payload["leaderboard"]}
    above = dict.fromkeys(rank, 0)  # generators decided above each, by the pair table
    below = dict.fromkeys(rank, 0)
    for pair in payload["pairs"]:
        a, b = pair["generator_a"], pair["generator_b"]
        winner, loser = (a, b) if pair["decided"] == "a higher" else (b, a)
        if pair["decided"] != "undecided":
            above[loser] += 1
            below[winner] += 1
    # the rank sets are those decisions' (Mogstad et al. 2024): 1 + above, G - below
    assert any(above.values())
    for g, row in rank.items():
        assert (row["low_rank"], row["high_rank"]) == (1 + above[g], len(rank) - below[g])
    code, out, _ = run_cli(["rank", *_files(arena)])
    assert "the step-down decisions the rank sets rest on" in out
    assert "pairs asked for" not in out
    code, out, _ = run_cli(["rank", *_files(arena), "--pairs", f"{CLAUDE}:{GEMINI}"])
    assert "pairs asked for (simultaneous):\ngenerator_a" in out


def test_a_pair_naming_an_unknown_generator_is_one_error_naming_it(arena, run_cli):
    code, out, err = run_cli(["rank", *_files(arena), "--pairs", f"{CLAUDE}:gemini-2.5-PRO"])
    assert code == 1 and out == ""
    assert err.count("\n") == 1 and "generator 'gemini-2.5-PRO' is not in the leaderboard" in err
    assert "did you mean 'gemini-2.5-pro'?" in err
    code, _, err = run_cli(["rank", _files(arena)[0], "--one-at-a-time"])
    assert (
        code == 1 and "--one-at-a-time needs the leaderboard's intervals, and without HUMAN" in err
    )


# --- 2. report VERDICTS HUMAN -o CARD -----------------------------------------------


def test_report_writes_the_card_rank_writes(arena, tmp_path, run_cli, drawn):
    (tmp_path / "rank").mkdir()
    (tmp_path / "report").mkdir()
    code, _, err = run_cli(["rank", *_files(arena), "--report", str(tmp_path / "rank" / "card")])
    assert code == 0, err
    code, out, err = run_cli(["report", *_files(arena), "-o", str(tmp_path / "report" / "card")])
    assert code == 0, err
    card = (tmp_path / "report" / "card.md").read_text()
    assert card == (tmp_path / "rank" / "card.md").read_text()
    assert card.startswith("# jurycal report card: leaderboard from pairwise verdicts")
    assert "![" in card and "| human voters |" in card
    assert "Leaderboard from pairwise verdicts: win rates (ppi++)" in out
    code, out, _ = run_cli(["report", *_files(arena), "-o", str(tmp_path / "c"), "--json"])
    assert set(json.loads(out)) == {"written", "markdown"}
    assert json.loads(out)["written"][0] == str(tmp_path / "c.md")


def test_report_refuses_the_single_judge_options_on_pairwise_verdicts(arena, tmp_path, run_cli):
    for option in (["--models", "a", "b"], ["--method", "ppi++"], ["--n-boot", "50"]):
        code, _, err = run_cli(["report", *_files(arena), "-o", str(tmp_path / "c"), *option])
        assert code == 1 and f"{option[0]} sets the single-judge estimate" in err
        assert not (tmp_path / "c.md").exists()


def test_report_takes_the_estimand_and_top_as_rank_does(arena, tmp_path, run_cli, drawn):
    (tmp_path / "rank").mkdir()
    (tmp_path / "report").mkdir()
    options = ["--estimand", "bradley_terry", "--top", "2"]
    code, _, err = run_cli(["rank", *_files(arena), *options, "--report", str(tmp_path / "rank/c")])
    assert code == 0, err
    code, out, err = run_cli(["report", *_files(arena), *options, "-o", str(tmp_path / "report/c")])
    assert code == 0, err
    card = (tmp_path / "report" / "c.md").read_text()
    assert card == (tmp_path / "rank" / "c.md").read_text()
    assert "Bradley-Terry strengths" in out and "Bradley-Terry strengths" in card


def test_report_refuses_the_pairwise_options_on_a_single_judge(tmp_path, run_cli):
    calibration = tmp_path / "cal.csv"
    calibration.write_text("human,judge\n" + "1,1\n0,0\n" * 20)
    test = tmp_path / "test.csv"
    test.write_text("judge\n" + "1\n0\n" * 20)
    for option in (["--estimand", "bradley_terry"], ["--top", "3"]):
        code, _, err = run_cli(["report", str(calibration), str(test), "-o",
                                str(tmp_path / "c"), *option])  # fmt: skip
        assert code == 1 and f"{option[0]} sets a pairwise leaderboard" in err
        assert not (tmp_path / "c.md").exists()


# --- 3. one detector: the files given the wrong way round ---------------------------


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (["rank", "{human}", "{verdicts}"], "jurycal rank VERDICTS HUMAN"),
        (["report", "{human}", "{verdicts}", "-o", "{card}"], "jurycal report VERDICTS HUMAN"),
        (
            ["suggest", "{human}", "--labels", "{verdicts}", "--budget", "5"],
            "jurycal suggest VERDICTS --labels HUMAN",
        ),  # fmt: skip
        (
            ["plan", "{human}", "--labels", "{verdicts}", "--width", "0.1"],
            "jurycal plan VERDICTS --labels HUMAN",
        ),  # fmt: skip
    ],
)
def test_every_command_names_the_swapped_files(arena, tmp_path, run_cli, command, usage):
    verdicts, human = _files(arena)
    names = {"verdicts": verdicts, "human": human, "card": str(tmp_path / "card")}
    code, out, err = run_cli([part.format(**names) for part in command])
    assert code == 1 and out == ""
    assert f"{human!r} holds human votes (a human column, no verdict)" in err
    assert f"give the judges' verdicts first, then the human votes: {usage}" in err
    assert "missing" not in err


@pytest.mark.parametrize(
    ("command", "what"),
    [
        (["fit", "{verdicts}", "{human}"], "judgments file"),
        (["judge", "{human}", "{verdicts}"], "calibration file"),
        (["vote", "{human}"], "judgments file"),
    ],  # fmt: skip
)
def test_the_other_commands_name_a_pairwise_table_and_who_reads_it(arena, run_cli, command, what):
    verdicts, human = _files(arena)
    names = {"verdicts": verdicts, "human": human}
    code, _, err = run_cli([part.format(**names) for part in command])
    first = names[command[1].strip("{}")]
    assert code == 1 and f"{what} {first!r} is a pairwise table (generator_a, generator_b" in err
    assert "jurycal rank, report, suggest and plan read pairwise tables" in err


# --- 4. the verdicts checked once, an error placed by its table ---------------------


def test_rank_checks_the_pairwise_tables_once(arena, monkeypatch, run_cli):
    import regression.pairwise.model
    import regression.pairwise.table

    calls = []
    check = regression.pairwise.table.check_pairwise

    def counted(*args, **kwargs):
        calls.append(1)
        return check(*args, **kwargs)

    monkeypatch.setattr(regression.pairwise.model, "check_pairwise", counted)
    monkeypatch.setattr(regression.pairwise.table, "check_pairwise", counted)
    monkeypatch.setattr(regression.pairwise, "check_pairwise", counted)
    code, _, err = run_cli(["rank", *_files(arena)])
    assert code == 0, err
    assert len(calls) == 1


@pytest.mark.parametrize(
    ("where", "column", "word", "what"),
    [
        ("verdicts", "verdict", "much better", "verdicts file"),
        ("human", "human", "meh", "human-vote file"),
    ],  # fmt: skip
)
def test_a_bad_word_is_named_at_its_files_line(arena, tmp_path, run_cli, where, column, word, what):
    _, verdicts, human = arena
    table = (verdicts if where == "verdicts" else human).copy()
    table.loc[99, column] = word
    path = tmp_path / f"{where}.csv"
    table.to_csv(path, index=False)
    files = _files(arena)
    files[where == "human"] = str(path)
    code, _, err = run_cli(["rank", *files])
    assert code == 1
    assert err.startswith(f"jurycal: error: {what} {str(path)!r} line 101, column {column!r}: ")
    assert repr(word) in err


TABLES = st.sampled_from(["verdicts", "human votes", None])
COLUMNS = st.sampled_from(["item", "verdict", "human", "inclusion_probability", "other"])


@given(table=TABLES, column=COLUMNS, human_first=st.booleans(), row=st.integers(0, 10**6))
def test_an_error_lands_in_the_file_of_its_table_else_of_its_column(
    table, column, human_first, row
):
    from jurycal.cli.errors import FileError, Source, located
    from regression.errors import InputError

    verdicts = Source("v.csv", "verdicts file", ("item", "verdict"), "verdicts")
    human = Source("h.csv", "human-vote file", ("item", "human", "inclusion_probability"), "human votes")  # fmt: skip
    sources = [human, verdicts] if human_first else [verdicts, human]
    by_column = [s.path for s in sources if column in s.columns]
    expected = {"verdicts": "v.csv", "human votes": "h.csv"}.get(table) or next(
        iter(by_column), None
    )
    with pytest.raises(InputError) as caught, located(sources):
        raise InputError("bad", row=row, column=column, table=table)
    placed = caught.value.file if isinstance(caught.value, FileError) else None
    assert placed == expected
    if placed is not None:
        assert caught.value.line == row + 2  # a CSV's header is line 1


# --- 5. one summary and one figure for the card, stdout and --plot -----------------


def test_pairwise_rank_builds_the_summary_and_the_figure_once(
    arena, tmp_path, monkeypatch, run_cli, drawn
):
    import regression.pairwise.board

    built = []
    summarise = regression.pairwise.board.pairwise_summary
    monkeypatch.setattr(
        regression.pairwise.board,
        "pairwise_summary",
        lambda *a, **k: built.append(1) or summarise(*a, **k),
    )
    argv = ["rank", *_files(arena), "--report", str(tmp_path / "card")]
    code, out, err = run_cli([*argv, "--plot", str(tmp_path / "board.png")])
    assert code == 0, err
    assert (len(built), drawn["pairwise_plot"]) == (1, 1)
    assert (tmp_path / "card-1.png").exists() and (tmp_path / "board.png").exists()
    assert "leaderboard:" in out


def test_judgments_rank_builds_the_summary_and_the_figure_once(
    labelled, tmp_path, monkeypatch, run_cli, drawn
):
    built = []
    summarise = Leaderboard.summary
    monkeypatch.setattr(
        Leaderboard, "summary", lambda *a, **k: built.append(1) or summarise(*a, **k)
    )
    argv = ["rank", *labelled]
    code, out, err = run_cli(
        [*argv, "--report", str(tmp_path / "card"), "--plot", str(tmp_path / "board.png")]
    )
    assert code == 0, err
    assert (len(built), drawn["plot_board"]) == (1, 1)
    assert (tmp_path / "card-1.png").exists() and (tmp_path / "board.png").exists()


def test_suggest_draws_for_the_objective_asked_and_says_which(arena, run_cli, tmp_path):
    files = _files(arena)
    code, out, err = run_cli(
        ["suggest", files[0], "--labels", files[1], "--budget", "20", "--objective",
         "undecided pairs", "--json"]
    )  # fmt: skip
    assert code == 0, err
    payload = json.loads(out)
    assert payload["objective"] == "undecided pairs" and len(payload["items"]) == 20
    code, out, err = run_cli(["suggest", files[0], "--budget", "20", "--objective",
                              "undecided pairs"])  # fmt: skip
    # no votes held: no pilot leaderboard to aim at, so the draw says it narrowed the win rates
    assert code == 0 and out.startswith("drawn to narrow: the win rates")
    assert "jurycal: warning:" in err and "objective 'win rates'" in err
    # a big item number is an identifier: printed as written, without a thousands separator
    verdicts = arena[1].assign(item=arena[1]["item"].rank(method="dense").astype(int) + 10_000)
    verdicts.to_csv(tmp_path / "v.csv", index=False)
    code, out, _ = run_cli(["suggest", str(tmp_path / "v.csv"), "--budget", "3"])
    assert (
        code == 0
        and "10," not in out
        and any(
            line.split()[0].isdigit() and int(line.split()[0]) > 10_000
            for line in out.splitlines()
            if line.split()
        )
    )


def test_objective_is_refused_on_judgments(labelled, run_cli):
    code, _, err = run_cli(["suggest", labelled[0], "--labels", labelled[1], "--budget", "5",
                            "--objective", "undecided pairs"])  # fmt: skip
    assert code != 0 and "--objective 'undecided pairs' chooses what a pairwise draw" in err
