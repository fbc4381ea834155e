"""What the commands say, in words a user can act on (issue 39 item 2): the right verb, the same
count on every surface, each warning once, counts with thousands separators."""

import json
import random
import re

import pytest

from jurycal.datasets import load_agreeableness_judgments


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Votes of 40 items per annotated generator with their human labels; a one-judge calibration
    of two models (model a has one item with no judge label) and a paired test file."""
    root = tmp_path_factory.mktemp("words")
    judgments, human = load_agreeableness_judgments()
    judgments[judgments["item"] < 40].to_csv(root / "judgments.csv", index=False)
    human[human["item"] < 40].to_csv(root / "human.csv", index=False)
    draw = random.Random(1)
    rows = ["model,human,judge"]
    for model in "ab":
        for _ in range(30):
            truth = draw.random() < 0.6
            rows.append(f"{model},{int(truth)},{int(truth if draw.random() < 0.8 else not truth)}")
    rows.append("a,1,")
    (root / "calibration.csv").write_text("\n".join(rows) + "\n")
    test = [f"{m},{i},{int(draw.random() < 0.6)}" for m in "ab" for i in range(50)]
    (root / "test.csv").write_text("\n".join(["model,item,judge", *test]) + "\n")
    return root


@pytest.mark.parametrize(
    ("metric", "verb"), [("balanced_accuracy", "maximises"), ("max_abs_error", "minimises")]
)
def test_pick_threshold_says_whether_it_maximised_or_minimised(files, run_cli, metric, verb):
    argv = ["pick-threshold", str(files / "judgments.csv"), str(files / "human.csv")]
    code, out, _ = run_cli([*argv, "--metric", metric])
    assert code == 0 and f"{verb} {metric}" in out.splitlines()[0]


def test_compare_and_judge_count_the_same_dropped_item(files, run_cli):
    """judge drops model a's calibration item with no judge label; compare says so too, and
    says of each count what was dropped (it once read "0 dropped" for the test items alone)."""
    cal, test = str(files / "calibration.csv"), str(files / "test.csv")
    code, _, err = run_cli(["judge", cal, test, "--model", "a"])
    assert code == 0 and "1 calibration item(s) with a missing judge label were dropped" in err
    code, out, _ = run_cli(["compare", cal, test, "--models", "a", "b", "--n-boot", "200"])
    design = next(line for line in out.splitlines() if line.startswith("design:"))
    assert "n = 50, 0 dropped for a missing judge label" in design
    assert "m = 60, 1 dropped for a missing judge label" in design


def test_each_warning_is_said_once(files, run_cli):
    cal, test = str(files / "calibration.csv"), str(files / "test.csv")
    for argv in (
        ["compare", cal, test, "--models", "a", "b", "--n-boot", "200"],
        ["judge", cal, test, "--model", "a", "--method", "ppi++"],
        ["suggest", str(files / "judgments.csv"), "--budget", "3"],
    ):
        _, _, err = run_cli(argv)
        said = [line for line in err.splitlines() if line.startswith("jurycal: warning:")]
        assert len(said) == len(set(said)), (argv, said)
        # one wording: no two warnings share their first five words
        heads = [" ".join(line.split()[2:7]) for line in said]
        assert len(heads) == len(set(heads)), (argv, said)


def test_two_outputs_of_one_name_are_not_called_an_input(tmp_path, run_cli):
    source = tmp_path / "question.jsonl"
    source.write_text("{}\n")
    out = tmp_path / "x.csv"
    code, _, err = run_cli(
        ["import", "mt_bench", str(source), "-o", str(out), "--human-out", str(out)]
    )
    assert code == 1 and "two outputs are one file" in err and "input" not in err


def test_counts_are_printed_with_thousands_separators(tmp_path, run_cli):
    rows = [f"g,{i},{v},{(i + len(v)) % 2}" for i in range(1200) for v in ("v1", "v2", "v3")]
    path = tmp_path / "votes.csv"
    path.write_text("\n".join(["generator,item,validator,label", *rows]) + "\n")
    code, out, _ = run_cli(["vote", str(path)])
    assert code == 0 and "1,200 items x 3 validators" in out
    code, out, err = run_cli(["suggest", str(path), "--budget", "5000"])
    assert code == 0 and "budget 5,000" in out + err
    assert not re.search(r"\b\d{4,}\b", err), err  # a count of four digits or more, unseparated


def test_the_budget_warning_names_generators_in_words(files, run_cli):
    """Every item labelled: the warning once named a Python list (``[]``)."""
    argv = ["suggest", str(files / "judgments.csv"), "--labels", str(files / "human.csv")]
    code, _, err = run_cli([*argv, "--budget", "100000", "--json"])
    assert code == 0 and "budget 100,000 is more than the 0 unlabelled items" in err
    assert "[" not in err and "]" not in err


def test_json_of_a_usage_error_names_the_option(run_cli):
    code, _, err = run_cli(["rank", "in.csv", "--seed", "-3", "--json"])
    record = json.loads(err)["error"]
    assert code == 2 and record["exit_code"] == 2 and "--seed" in record["message"]
