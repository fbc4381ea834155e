"""No library's words reach a user (issue 39 item 1): each case the issue found, then a fuzz.

numpy's, pandas', scipy's and DuckDB's messages are for jurycal's developers; a user
gets a usage error naming the option (exit 2), or an error naming the file, its 1-based
line and the column (exit 1), or a clean result.
"""

import argparse
import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import jurycal.cli.judge
import jurycal.cli.options as options
from jurycal.cli import build_parser
from jurycal.cli.commands import COMMANDS
from jurycal.datasets import load_agreeableness_judgments

#: What the libraries underneath say; none of it may be in what jurycal prints.
LIBRARY_WORDS = (
    "invalid value encountered",
    "divide by zero",
    "expected non-negative integer",
    "Invalid Input Error",
    "Parser Error",
    "sniffing",
    "Error tokenizing",
    "Traceback",
)


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Small real inputs: 40 items of each annotated generator, every validator, their human
    labels, and a one-judge calibration and test file with a missing human label (line 5)."""
    root = tmp_path_factory.mktemp("leaks")
    judgments, human = load_agreeableness_judgments()
    judgments = judgments[judgments["item"] < 40]
    human = human[human["item"] < 40]
    judgments.to_csv(root / "judgments.csv", index=False)
    human.to_csv(root / "human.csv", index=False)
    (root / "calibration.csv").write_text("human,judge\n1,1\n0,0\n1,1\n,1\n1,0\n0,0\n1,1\n")
    (root / "test.csv").write_text("judge\n1\n0\n1\n1\n")
    return root


def _clean(stream):
    return not any(word in stream for word in LIBRARY_WORDS)


@pytest.mark.parametrize(
    "argv",
    [
        ["suggest", "judgments.csv", "--budget", "3"],
        ["plan", "judgments.csv", "--width", "0.1"],
        ["suggest", "judgments.csv", "--budget", "50", "--generator", "gpt-4o", "--width", "0.08"],
    ],
)
def test_suggest_and_plan_without_labels_print_no_numpy_warning(files, run_cli, monkeypatch, argv):
    monkeypatch.chdir(files)
    code, out, err = run_cli(argv)
    assert code == 0 and out
    assert _clean(err), err


@pytest.mark.parametrize("command", ["rank", "fit", "estimate", "compare", "suggest", "report"])
@pytest.mark.parametrize("seed", ["-1", "4294967296", "1.5", "x"])
def test_a_bad_seed_is_a_usage_error_naming_the_option(run_cli, command, seed):
    code, out, err = run_cli([command, "in.csv", f"--seed={seed}"])
    assert code == 2 and out == ""
    assert "argument --seed:" in err and repr(seed) in err


@pytest.mark.parametrize("limit", ["lots", "-1GB", "0MB", "4 parsecs", ""])
def test_count_refuses_a_memory_limit_it_cannot_read_as_usage(files, run_cli, limit):
    code, _, err = run_cli(["count", str(files / "judgments.csv"), f"--memory-limit={limit}"])
    assert code == 2 and "argument --memory-limit:" in err and _clean(err)


def test_count_takes_a_memory_limit_with_any_unit(files, run_cli):
    for limit in ("512MB", "2GiB", "none", "1.5GB"):
        code, out, _ = run_cli(["count", str(files / "judgments.csv"), "--memory-limit", limit])
        assert code == 0 and "labels in" in out


@pytest.mark.parametrize(
    ("content", "line", "column"),
    [
        ("generator,item,validator,label\na,1,v,1\na,2,v,maybe\n", 3, "label"),
        ("generator,item,validator,label\na,1,v,1\na,1,v,0\n", 3, "validator"),
        ("generator,item,validator,label\na,1,v,1\na,2\n", 3, "validator"),
        ('generator,item,validator,label\na,1,v,1\na,"2,v,1\n', 3, None),
        ("generator,item,validator\na,1,v\n", None, "label"),
        ("generator,item,validator,label\n", None, None),
    ],
    ids=["label", "duplicate", "missing-name", "open-quote", "no-label-column", "header-only"],
)
def test_count_places_its_errors_as_every_other_command(tmp_path, run_cli, content, line, column):
    """``count`` (DuckDB) and ``vote`` (pandas) give one error: file, line, column, JSON."""
    path = tmp_path / "votes.csv"
    path.write_text(content)
    records = []
    for command in ("count", "vote"):
        code, out, err = run_cli([command, str(path), "--json"])
        record = json.loads(err)["error"]
        assert code == 1 and out == "" and _clean(record["message"]), record
        records.append(record)
    assert records[0] == records[1]
    assert (records[0]["file"], records[0]["line"], records[0]["column"]) == (
        str(path),
        line,
        column,
    )
    assert "filename" not in records[0]["message"]  # the DuckDB reader's column is not the file's


def test_count_names_both_files_of_a_key_repeated_across_them(tmp_path, run_cli):
    for name in ("a.csv", "b.csv"):
        (tmp_path / name).write_text("generator,item,validator,label\ng,1,v,1\n")
    code, _, err = run_cli(["count", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"), "--json"])
    record = json.loads(err)["error"]
    assert code == 1 and record["file"] == str(tmp_path / "a.csv")
    assert "a.csv line 2" in record["message"] and "b.csv line 2" in record["message"]


def test_judge_names_the_file_line_of_a_missing_calibration_label(files, run_cli):
    calibration, test = str(files / "calibration.csv"), str(files / "test.csv")
    code, _, err = run_cli(["judge", calibration, test])
    assert code == 1 and f"'{calibration}' line 5, column 'human'" in err and _clean(err)
    assert "position" not in err  # the library's 0-based position, replaced by the line
    code, _, err = run_cli(["judge", calibration, test, "--json"])
    record = json.loads(err)["error"]
    assert (record["file"], record["line"], record["column"]) == (calibration, 5, "human")


def test_judge_counts_lines_of_the_whole_file_when_one_model_is_chosen(tmp_path, run_cli):
    (tmp_path / "c.csv").write_text("model,human,judge\nb,1,1\na,1,1\na,0,0\na,,1\n")
    (tmp_path / "t.csv").write_text("model,judge\na,1\n")
    argv = ["judge", str(tmp_path / "c.csv"), str(tmp_path / "t.csv"), "--model", "a", "--json"]
    code, _, err = run_cli(argv)
    assert code == 1 and json.loads(err)["error"]["line"] == 5


def test_a_library_warning_is_reported_as_a_bug_in_jurycals_words(files, run_cli, monkeypatch):
    """A numerical warning that escapes a fix still reaches the user in jurycal's words."""

    def run(args):
        import numpy as np

        np.divide(np.zeros(1), np.zeros(1))  # numpy: "invalid value encountered in divide"
        warnings.warn("the pandas way is deprecated", FutureWarning, stacklevel=1)
        return 0

    monkeypatch.setattr(jurycal.cli.judge, "run", run)
    code, _, err = run_cli(["judge", str(files / "calibration.csv"), str(files / "test.csv")])
    assert code == 0 and _clean(err) and "deprecated" not in err
    assert err.count("jurycal: warning:") == 1 and "a bug in jurycal" in err


# --- the fuzz: every numeric option of every command ------------------------------------------

#: The argparse types that check a number, declared once in jurycal.cli.options.
NUMBER_TYPES = {
    getattr(options, name)
    for name in (
        "alpha_value",
        "fraction_value",
        "fuzzy_threshold_value",
        "memory_limit_value",
        "n_boot_value",
        "number_value",
        "positive_int",
        "restarts_value",
        "seed_value",
        "threads_value",
        "transfer_bias_value",
        "width_value",
    )
}


def _options(command):
    """The options of ``command`` that take a value, with their argparse type."""
    parser = build_parser([command])
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        action.option_strings[-1]: action.type
        for action in sub.choices[command]._actions
        if action.option_strings and action.nargs != 0
    }


NUMERIC = sorted(
    (command, option)
    for command in COMMANDS
    for option, kind in _options(command).items()
    if kind in NUMBER_TYPES
)


def test_every_number_an_option_takes_is_checked_by_a_declared_type():
    """No option is typed ``int`` or ``float`` bare: those let -1, nan and inf through."""
    for command in COMMANDS:
        for option, kind in _options(command).items():
            assert kind not in (int, float), (command, option)
    assert ("rank", "--seed") in NUMERIC and ("count", "--memory-limit") in NUMERIC


#: The values a hostile user types for a number.
HOSTILE = ["-1", "0", "0.5", "1e400", "99999999999999999999", "nan", "inf", "-inf", "lots", ""]


def _inputs(files, command):
    """Arguments that make ``command`` run on the small files (its other options at defaults)."""
    j, h = str(files / "judgments.csv"), str(files / "human.csv")
    c, t = str(files / "calibration_ok.csv"), str(files / "test.csv")
    return {
        "vote": [j],
        "count": [j],
        "pick-threshold": [j, h],
        "fit": [j, h],
        "estimate": [j, h, "--generator", "gpt-4o"],
        "rank": [j, h],
        "suggest": [j, "--budget", "5"],
        "plan": [j, "--width", "0.1"],
        "judge": [c, t],
        # compare needs --models and a model column: its numbers are the parser's to check
    }.get(command)


@pytest.mark.slow  # an example the parser accepts runs the command on real (small) files
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(case=st.sampled_from(NUMERIC), value=st.sampled_from(HOSTILE))
def test_numeric_options_give_a_usage_error_naming_them_or_a_clean_result(
    files, run_cli, case, value
):
    command, option = case
    (files / "calibration_ok.csv").write_text("human,judge\n1,1\n0,0\n1,1\n0,1\n1,0\n0,0\n1,1\n")
    inputs = _inputs(files, command)
    # a command whose inputs are of another kind: the parser's answer is enough
    argv = [command, *(inputs or []), f"{option}={value}", *([] if inputs else ["--help"])]
    code, out, err = run_cli(argv)
    assert code in (0, 1, 2), (argv, code, err)
    assert _clean(out + err), (argv, err)
    if code == 2:
        assert f"argument {option}" in err, (argv, err)
    if code == 1:
        assert err.startswith("jurycal: error:") and err.count("\n") == 1, (argv, err)
    if value in ("nan", "inf", "-inf", "1e400", "lots", ""):  # never a number an option means
        assert code == 2, (argv, err)
