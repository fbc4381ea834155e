"""The command line never loses data, never shows a traceback, and says what went wrong where.

Exit codes under test (``jurycal.cli``): 1 bad input or output, 2 usage
(argparse, values out of bounds), 3 an unexpected error.
"""

import gzip
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import jurycal.cli.vote
from jurycal.cli import main
from jurycal.cli.common import MAX_RESTARTS
from regression.checks import MAX_N_BOOT


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _one_line_error(err):
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jurycal: error: "), err
    return lines[0]


@pytest.fixture(scope="module")
def votes(tmp_path_factory):
    """Generators named 1..4 (integers in the files), 5 validators, 80 items each;
    human labels for generators 1..3 in a CSV, for all four in JSON Lines."""
    root = tmp_path_factory.mktemp("hardening")
    rng = np.random.default_rng(0)
    rates = [(0.9, 0.8), (0.8, 0.7), (0.95, 0.6), (0.7, 0.9), (0.85, 0.85)]
    rows, human = [], []
    for generator, precision in zip([1, 2, 3, 4], [0.5, 0.7, 0.8, 0.6], strict=True):
        for item in range(80):
            truth = rng.random() < precision
            human.append((generator, item, int(truth)))
            for v, (tpr, tnr) in enumerate(rates):
                label = rng.random() < tpr if truth else rng.random() >= tnr
                rows.append((generator, item, f"v{v}", int(label)))
    judgments = pd.DataFrame(rows, columns=["generator", "item", "validator", "label"])
    labels = pd.DataFrame(human, columns=["generator", "item", "human"])
    judgments.to_csv(root / "j.csv", index=False)
    judgments.to_parquet(root / "j.parquet")
    labels[labels["generator"] < 4].to_csv(root / "h.csv", index=False)
    labels.to_json(root / "h_all.jsonl", orient="records", lines=True)
    return root


# --- outputs never clobber inputs; writes are atomic; unwritable paths ------------------


@pytest.mark.parametrize("command", ["vote", "count"])
def test_output_equal_to_the_input_is_refused(votes, monkeypatch, command, run_cli):
    path = votes / "j.csv"
    before = _digest(path)
    monkeypatch.chdir(votes)
    for output in (str(path), "./j.csv", "../" + votes.name + "/j.csv"):
        code, out, err = run_cli([command, "j.csv", "-o", output])
        assert code == 1 and out == ""
        line = _one_line_error(err)
        assert f"output {str(Path(output))!r} is the input file 'j.csv'" in line
    assert _digest(path) == before


def test_output_through_a_link_to_the_input_is_refused(votes, tmp_path, run_cli):
    link = tmp_path / "link.csv"
    link.symlink_to(votes / "j.csv")
    code, _, err = run_cli(["vote", str(votes / "j.csv"), "-o", str(link)])
    assert code == 1 and "is the input file" in _one_line_error(err)


def test_repair_refuses_to_overwrite_either_input(tmp_path, run_cli):
    items = tmp_path / "items.csv"
    outputs = tmp_path / "outputs.jsonl"
    items.write_text("generator,task,item,line,feedback\ng,1,0,3,fix it\n")
    outputs.write_text('{"generator": "g", "task": 1, "validator": "v", "raw": "[]"}\n')
    before = _digest(outputs)
    for flag in ("-o", "--report"):
        argv = ["repair", str(items), str(outputs), "-o", str(tmp_path / "out.csv")]
        argv += [flag, str(outputs)]
        code, _, err = run_cli(argv)
        assert code == 1 and "is the input file" in _one_line_error(err)
    assert _digest(outputs) == before


def test_unwritable_outputs_fail_before_any_work(votes, tmp_path, run_cli):
    cases = {
        str(tmp_path / "no" / "such" / "dir" / "labels.csv"): "no such directory",
        str(tmp_path): "it is a directory",
    }
    for output, reason in cases.items():
        code, out, err = run_cli(["vote", str(votes / "j.csv"), "-o", output])
        assert code == 1 and out == ""
        assert f"cannot write {output!r}: {reason}" in _one_line_error(err)
    assert list(tmp_path.iterdir()) == []


def test_demo_out_on_an_existing_file_is_refused(tmp_path, run_cli):
    target = tmp_path / "report.txt"
    target.write_text("keep me")
    code, _, err = run_cli(["demo", "--out", str(target)])
    assert code == 1 and "is a file; the demo writes into a directory" in _one_line_error(err)
    assert target.read_text() == "keep me"


def test_a_failing_plot_leaves_no_partial_file(votes, tmp_path, monkeypatch, run_cli):
    import matplotlib.figure

    def broken(self, *args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(matplotlib.figure.Figure, "savefig", broken)
    png = tmp_path / "sweep.png"
    argv = ["pick-threshold", str(votes / "j.csv"), str(votes / "h.csv"), "--plot", str(png)]
    code, _, err = run_cli(argv)
    assert code == 1 and "No space left on device" in _one_line_error(err)
    assert list(tmp_path.iterdir()) == []


# --- unreadable inputs: one line naming the file and the line ------------------------------


#: Words of the libraries underneath (pandas' C parser, DuckDB, pyarrow) that must never reach a user.
LIBRARY_WORDS = ("Error tokenizing", "C error", "EOF inside string", "sniffing", "Invalid Input",
                 "Parser Error", "DuckDB", "ArrowInvalid", "position ")  # fmt: skip


@pytest.mark.parametrize(
    ("name", "content", "expected", "line"),
    [
        ("j.csv.gz", b"generator,item,validator,label\n", "is not a complete gzip file", None),
        ("j.csv", b"", "is empty", None),
        ("j.jsonl", b"", "is empty", None),
        (
            "j.csv",
            "generator,item,validator,label\ng,0,v,1\ng\xe9,1,v,0\n".encode("latin-1"),
            "line 3: not UTF-8 text",
            3,
        ),
        (
            "j.jsonl",
            b'{"generator": "g", "item": 0, "validator": "v", "label": 1}\n{"generator": "g", "it',
            "line 2: not a JSON object",
            2,
        ),
        ("j.parquet", b"PAR1 not really", "not a Parquet file", None),
        ("j.csv", b'generator,item,validator,label\ng,0,v,1\ng,"1,v,0\n',
         "line 3: a quoted field opens here and never closes", 3),
        ("j.csv", b"generator,item,validator,label\ng,0,v,1\ng,1,v,0,7\n",
         "line 3: 5 fields where the header has 4", 3),
    ],
)  # fmt: skip
def test_unreadable_inputs_name_the_file_and_line(tmp_path, name, content, expected, line, run_cli):
    """``vote`` reads with pandas, ``count`` with DuckDB: both word the fault the same way, name the
    file and line (in ``--json`` too), and no library's words pass through (issue 39 item 1)."""
    path = tmp_path / name
    path.write_bytes(content)
    for command in (["vote", str(path)], ["count", str(path)]):
        code, out, err = run_cli(command)
        assert code == 1 and out == ""
        message = _one_line_error(err)
        assert str(path) in message and expected in message, command
        assert not any(word in message for word in LIBRARY_WORDS), message
        code, _, err = run_cli([*command, "--json"])
        record = json.loads(err)["error"]
        assert (code, record["file"], record["line"]) == (1, str(path), line), command


def test_truncated_gzip_names_the_file(tmp_path, run_cli):
    """``vote`` (pandas) and ``count`` (DuckDB, whose CSV fault is then located by a scan) say the
    same words, not zlib's."""
    path = tmp_path / "j.csv.gz"
    data = gzip.compress(b"generator,item,validator,label\n" + b"g,0,v,1\n" * 10_000)
    path.write_bytes(data[: len(data) // 2])
    for command in ("vote", "count"):
        code, _, err = run_cli([command, str(path)])
        message = _one_line_error(err)
        assert code == 1 and "is not a complete gzip file (it breaks off before its end)" in message
        assert "Compressed file ended" not in message


def test_a_row_with_too_many_fields_names_its_line(tmp_path, run_cli):
    path = tmp_path / "j.csv"
    path.write_text("generator,item,validator,label\ng,0,v,1\ng,1,v,0,extra\n")
    code, _, err = run_cli(["vote", str(path)])
    assert code == 1 and "line 3: 5 fields where the header has 4" in _one_line_error(err)


def test_duplicates_are_reported_by_file_line(votes, tmp_path, run_cli):
    path = tmp_path / "j.csv"
    path.write_text("generator,item,validator,label\ng,0,v,1\ng,1,v,0\ng,2,v,1\ng,1,v,1\n")
    code, _, err = run_cli(["vote", str(path)])
    assert code == 1
    # the header is line 1, so rows 1 and 3 (0-based) are lines 3 and 5
    assert (
        "line 5, column 'validator': the row repeats (generator, item, validator) = ('g', 1, 'v'), "
        "first seen at line 3" in _one_line_error(err)
    )
    jsonl = tmp_path / "h.jsonl"
    jsonl.write_text('{"generator":"g","item":0,"human":1}\n{"generator":"g","item":0,"human":0}\n')
    code, _, err = run_cli(["pick-threshold", str(votes / "j.csv"), str(jsonl)])
    assert code == 1 and "line 2, column 'item'" in _one_line_error(err)
    assert "first seen at line 1" in _one_line_error(err)


# --- arguments out of bounds: refused up front (usage, exit 2) --------------------------------


def test_likelihood_settings_with_the_transfer_default_are_refused(votes, run_cli):
    files = [str(votes / "j.csv"), str(votes / "h.csv")]
    code, out, err = run_cli(["fit", *files, "--interval", "items", "--n-boot", "50"])
    line = _one_line_error(err)
    assert code == 1 and out == ""
    assert "--interval, --n-boot set(s) the likelihood and paper-loss fits" in line
    assert "Add --estimator likelihood (or paper) to use them." in line


def test_huge_bootstrap_and_restart_counts_are_refused(votes, run_cli):
    files = [str(votes / "j.csv"), str(votes / "h.csv")]
    code, _, err = run_cli(["fit", *files, "--n-boot", "1000000000"])
    assert code == 2 and f"from 2 to {MAX_N_BOOT:,}" in err and "Traceback" not in err
    code, _, err = run_cli(["fit", *files, "--restarts", "100000000"])
    assert code == 2 and f"at most {MAX_RESTARTS:,}" in err
    code, _, err = run_cli(["compare", *files, "--models", "1", "2", "--n-boot", "1"])
    assert code == 2 and "--n-boot" in err
    code, _, err = run_cli(["count", files[0], "--threads", "-5"])
    assert code == 2 and "must be at least 1" in err
    # DuckDB starts every thread at once: 10^9 of them killed the process (exit 127)
    code, _, err = run_cli(["count", files[0], "--threads", "1000000000"])
    assert code == 2 and "at most 1,024" in err
    code, _, err = run_cli(["judge", *files, "--alpha", "1.5"])
    assert code == 2 and "strictly between 0 and 1" in err


# --- names that look like numbers ------------------------------------------------------------


def test_integer_looking_generator_names_match_across_files(votes, run_cli):
    argv = ["fit", str(votes / "j.parquet"), str(votes / "h.csv"), "--calibration", "1", "2"]
    code, out, err = run_cli(
        argv + ["--estimator", "likelihood", "--restarts", "2", "--interval", "none", "--json"]
    )
    assert code == 0, err
    roles = {r["generator"]: r["role"] for r in json.loads(out)["generators"]}
    assert roles == {"1": "calibration", "2": "calibration", "3": "held out", "4": "unlabelled"}
    argv = ["estimate", str(votes / "j.csv"), str(votes / "h.csv"), "--generator", "4"]
    code, out, err = run_cli(
        argv + ["--estimator", "likelihood", "--restarts", "2", "--interval", "none"]
    )
    assert code == 0, err
    assert out.startswith("4: precision ") and "no human label of its own" in out
    # the shift it caused, never "at most 0.0000" where it is below the printed precision
    assert re.search(r"estimates by (at most 0\.\d*[1-9]\d*|less than 0\.0001)\.", out)


def test_unknown_names_list_known_ones(votes, run_cli):
    argv = ["estimate", str(votes / "j.csv"), str(votes / "h.csv"), "--generator", "7"]
    code, _, err = run_cli(argv)
    line = _one_line_error(err)
    assert code == 1 and "generator '7' is not in the judgments file" in line
    assert "names there: '1', '2', '3', '4'." in line
    argv = ["fit", str(votes / "j.csv"), str(votes / "h.csv"), "--calibration", "1", "4"]
    code, _, err = run_cli(argv)
    line = _one_line_error(err)
    assert code == 1 and "calibration generator '4' is not in the human-label file" in line


def test_estimate_of_a_labelled_generator_checks_it_against_its_labels(votes, run_cli):
    argv = ["estimate", str(votes / "j.csv"), str(votes / "h_all.jsonl"), "--generator", "4"]
    code, out, err = run_cli(
        argv + ["--estimator", "likelihood", "--restarts", "2", "--interval", "none", "--json"]
    )
    assert code == 0, err
    payload = json.loads(out)
    row = {r["generator"]: r for r in payload["generators"]}["4"]
    assert payload["n_human_labels"] == 80 and row["role"] == "held out"
    assert row["abs_error"] == pytest.approx(abs(row["estimate"] - row["human"]))
    code, out, _ = run_cli(
        argv + ["--estimator", "likelihood", "--restarts", "2", "--interval", "none"]
    )
    assert "its 80 human labels (precision" in out and "no human label" not in out


# --- judge refuses to pool models ------------------------------------------------------------


def test_judge_refuses_a_file_with_two_models(tmp_path, run_cli):
    rng = np.random.default_rng(5)
    cal = pd.DataFrame(
        {
            "model": np.repeat(["a", "b"], 100),
            "human": rng.integers(0, 2, 200),
            "judge": rng.integers(0, 2, 200),
        }
    )
    cal["judge"] = np.where(rng.random(200) < 0.85, cal["human"], 1 - cal["human"])
    test = pd.DataFrame({"model": np.repeat(["a", "b"], 300), "judge": rng.integers(0, 2, 600)})
    cal.to_csv(tmp_path / "cal.csv", index=False)
    test.to_csv(tmp_path / "test.csv", index=False)
    argv = ["judge", str(tmp_path / "cal.csv"), str(tmp_path / "test.csv")]
    code, _, err = run_cli(argv)
    line = _one_line_error(err)
    assert code == 1 and "holds 2 models ('a', 'b')" in line and "--model" in line
    code, out, err = run_cli(argv + ["--model", "b", "--json"])
    assert code == 0, err
    payload = json.loads(out)
    assert payload["model"] == "b" and payload["n"] == 300 and payload["m0"] + payload["m1"] == 100


# --- repair accounts for dropped responses -----------------------------------------------------


@pytest.fixture
def repair_files(tmp_path):
    items = pd.DataFrame(
        {
            "generator": ["gpt-4o"] * 2 + ["claude"] * 2,
            "task": [1, 1, 1, 1],
            "item": [0, 1, 0, 1],
            "line": [3, 7, 2, 9],
            "feedback": ["use a loop", "name the variable", "add a test", "check the bound"],
        }
    )
    raw = json.dumps(
        [
            {"feedback": "use a loop", "line_number": 3, "classification": "valid"},
            {"feedback": "name the variable", "line_number": 7, "classification": "invalid"},
        ]
    )
    outputs = pd.DataFrame(
        {"generator": ["GPT-4o", "GPT-4o"], "task": [1, 1], "validator": ["v1", "v2"], "raw": raw}
    )
    items.to_csv(tmp_path / "items.csv", index=False)
    outputs.to_json(tmp_path / "outputs.jsonl", orient="records", lines=True)
    return tmp_path, items, outputs


def test_repair_that_matches_nothing_fails_and_says_why(repair_files, run_cli):
    root, _, _ = repair_files
    out = root / "judgments.csv"
    argv = ["repair", str(root / "items.csv"), str(root / "outputs.jsonl"), "-o", str(out)]
    code, stdout, err = run_cli(argv)
    line = _one_line_error(err)
    assert code == 1 and stdout == "" and not out.exists()
    assert "none of the 2 validator_outputs rows matches the (generator, task)" in line
    assert "'GPT-4o' matches 'gpt-4o' ignoring case" in line
    assert "nan" not in line


def test_repair_counts_the_responses_it_dropped(repair_files, run_cli):
    root, _, outputs = repair_files
    both = pd.concat([outputs, outputs.assign(generator="claude")])
    both.to_json(root / "outputs.jsonl", orient="records", lines=True)
    argv = ["repair", str(root / "items.csv"), str(root / "outputs.jsonl")]
    code, out, err = run_cli(argv + ["-o", str(root / "j.csv")])
    assert code == 0, err
    assert "2 orphan (answering no generator item, left out)" in out
    assert "unknown_generator: 2 response(s), e.g. 'GPT-4o' (2)" in out
    assert "hint: 'GPT-4o' matches 'gpt-4o' ignoring case" in out
    assert "nan%" not in out
    code, out, err = run_cli(argv + ["-o", str(root / "j2.csv"), "--json"])
    payload = json.loads(out)
    assert payload["n_orphan_outputs"] == 2 and payload["responses"]["orphan"] == 2
    assert payload["orphans"][0]["reason"] == "unknown_generator"
    assert payload["pairs"] == 4  # claude's 2 items x 2 validators


# --- polish ------------------------------------------------------------------------------------


def test_version():
    from jurycal import __version__

    run = subprocess.run(
        [sys.executable, "-m", "jurycal", "--version"], capture_output=True, text=True, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == f"jurycal {__version__}"


def test_vote_writes_integer_labels_and_reports_its_threshold(votes, tmp_path, run_cli):
    out = tmp_path / "labels.csv"
    argv = ["vote", str(votes / "j.parquet"), "--rule", "supermajority", "-o", str(out), "--json"]
    code, stdout, err = run_cli(argv)
    assert code == 0, err
    payload = json.loads(stdout)
    # ceil(2 V / 3) of V = 5 validators (ensemble.default_threshold)
    assert payload["threshold"] == 4 and payload["threshold_is_default"] is True
    text = out.read_text().splitlines()
    assert text[0] == "generator,item,label"
    assert {line.rsplit(",", 1)[1] for line in text[1:]} <= {"0", "1", ""}
    parquet = tmp_path / "labels.parquet"
    assert main(["vote", str(votes / "j.csv"), "-o", str(parquet), "--quiet"]) == 0
    assert str(pd.read_parquet(parquet)["label"].dtype) == "Int8"


def _keys(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys(inner)


def test_no_json_output_has_a_stray_index_key(votes, tmp_path, run_cli):
    j, h = str(votes / "j.csv"), str(votes / "h.csv")
    runs = [
        ["vote", j, "--human", h],
        ["count", j],
        ["pick-threshold", j, h],
        ["fit", j, h, "--estimator", "likelihood", "--restarts", "2", "--interval", "none"],
    ]
    for argv in runs:
        code, out, err = run_cli(argv + ["--json"])
        assert code == 0, err
        keys = set(_keys(json.loads(out)))
        assert "index" not in keys and "level_0" not in keys, argv


def test_plot_into_a_directory_names_the_file(votes, tmp_path, run_cli):
    argv = [
        "fit",
        str(votes / "j.csv"),
        str(votes / "h.csv"),
        "--estimator",
        "likelihood",
        "--restarts",
        "2",
    ]
    code, out, err = run_cli(argv + ["--plot", str(tmp_path)])
    assert code == 0, err
    assert f"jurycal: written: {tmp_path / 'fit.png'}" in err
    assert (tmp_path / "fit.png").read_bytes().startswith(b"\x89PNG")


def test_fit_plot_draws_the_computed_intervals(votes, tmp_path, monkeypatch, run_cli):
    import jurycal.cli.latent as latent

    drawn = []
    original = latent.save_plot

    def spy(args, figure):
        drawn.append(figure)
        return original(args, figure)

    monkeypatch.setattr(latent, "save_plot", spy)
    argv = [
        "fit",
        str(votes / "j.csv"),
        str(votes / "h.csv"),
        "--estimator",
        "likelihood",
        "--restarts",
        "2",
        "--json",
    ]
    code, out, err = run_cli(argv + ["--plot", str(tmp_path / "fit.png")])
    assert code == 0, err
    table = json.loads(out)["generators"]
    (axis,) = drawn[0].axes
    segments = axis.collections[0].get_segments()  # one interval line per generator
    assert len(segments) == len(table) == 4
    lows = sorted(float(s[0][0]) for s in segments)
    assert lows == pytest.approx(sorted(r["low"] for r in table))


def test_no_progress_bars_when_stderr_is_not_a_terminal(votes, run_cli):
    code, _, err = run_cli(["count", str(votes / "j.csv")])
    assert code == 0 and err == ""
    code, _, err = run_cli(["count", str(votes / "j.csv"), "--progress"])
    assert code == 0 and "count" in err  # DuckDB's progress, named for the step
    code, _, err = run_cli(["vote", str(votes / "j.csv"), "--progress"])
    assert code == 0 and "read" in err  # the step bar names the step


def test_an_unexpected_error_is_one_line_with_a_hint(votes, monkeypatch, run_cli):
    def broken(*args):
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(jurycal.cli.vote, "read_votes", broken)
    code, _, err = run_cli(["vote", str(votes / "j.csv")])
    line = _one_line_error(err)
    assert code == 3 and "unexpected RuntimeError: boom second line" in line
    assert "JURYCAL_DEBUG=1" in line
    monkeypatch.setenv("JURYCAL_DEBUG", "1")
    with pytest.raises(RuntimeError, match="boom"):
        main(["vote", str(votes / "j.csv")])


def test_warnings_print_one_line_each(votes, monkeypatch, run_cli):
    import warnings

    from regression.errors import JurycalWarning

    def noisy(args):
        warnings.warn("first\nand more", JurycalWarning, stacklevel=1)
        return 0

    monkeypatch.setattr(jurycal.cli.vote, "run", noisy)
    monkeypatch.setattr(
        "jurycal.cli.vote.register",
        lambda sub: sub.add_parser("vote").set_defaults(handler=noisy),
    )
    code, _, err = run_cli(["vote"])
    assert code == 0 and err == "jurycal: warning: first and more\n"


def test_a_label_that_is_not_binary_is_named_by_its_line(tmp_path, run_cli):
    path = tmp_path / "j.jsonl"
    rows = [{"generator": "g", "item": i, "validator": "v", "label": 1} for i in range(3)]
    rows[2]["label"] = "maybe"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    code, _, err = run_cli(["vote", str(path)])
    line = _one_line_error(err)
    assert (
        code == 1
        and f"judgments file {str(path)!r} line 3, column 'label': label must be 0/1" in line
    )
    assert "got 'maybe'" in line and "position" not in line


def test_items_read_as_numbers_in_one_file_and_text_in_another_match(votes, tmp_path, run_cli):
    human = pd.read_csv(votes / "h.csv")
    human["item"] = "0" + human["item"].astype(str)  # '07': text in every format
    human["item"] = human["item"].str.lstrip("0").replace("", "0")
    human.to_json(tmp_path / "h.jsonl", orient="records", lines=True)
    assert pd.read_json(tmp_path / "h.jsonl", lines=True, dtype=False)["item"].dtype.kind != "i"
    argv = ["vote", str(votes / "j.parquet"), "--human", str(tmp_path / "h.jsonl"), "--json"]
    code, out, err = run_cli(argv)
    assert code == 0, err
    rates = {r["rate"]: r for r in json.loads(out)["rates"]}
    assert rates["tpr"]["n"] + rates["tnr"]["n"] == 240  # every human label found its item
