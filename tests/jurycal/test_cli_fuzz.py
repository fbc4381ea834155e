"""Fuzzing the command line: whatever the files and arguments, exit 0 or one error line.

Malformed CSV / JSON Lines / Parquet inputs (random bytes, truncated files,
wrong columns, weird labels, huge and negative numbers) and argument values
go through ``main(argv)`` in-process. Every run must end with exit code 0, 1
(one ``jurycal: error:`` line) or 2 (argparse's usage error); never 3 (an
unexpected error), never a traceback, and no input file may change.
"""

import contextlib
import hashlib
import io
import json
import tempfile
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from jurycal.cli import main

COLUMNS = {
    "judgments": ["generator", "item", "validator", "label"],
    "human": ["generator", "item", "human"],
    "calibration": ["model", "human", "judge"],
    "test": ["model", "item", "judge"],
    "items": ["generator", "task", "item", "line", "feedback"],
    "outputs": ["generator", "task", "validator", "raw"],
}

# What a command reads, in order, and options it may be given.
COMMANDS = {
    "vote": (["judgments"], ["--threshold", "--rule", "--human", "-o"]),
    "count": (["judgments"], ["--threads", "--memory-limit", "-o"]),
    "judge": (["calibration", "test"], ["--alpha", "--method", "--model"]),
    "compare": (["calibration", "test"], ["--n-boot", "--alpha", "--unpaired"]),
    "pick-threshold": (["judgments", "human"], ["--rule", "--metric"]),
    "repair": (["items", "outputs"], ["--report", "--fuzzy-threshold"]),
    "fit": (["judgments", "human"], ["--calibration", "--n-boot"]),
    "estimate": (["judgments", "human"], ["--generator"]),
    "rank": (["judgments", "human"], ["--calibration", "--alpha"]),
}

NAMES = st.sampled_from(["a", "b", "1", "2", 1, 2, "A", "", " a", "ä", None])
CELLS = st.one_of(
    NAMES,
    st.sampled_from([0, 1, 2, -1, 1.0, 0.5, 1e300, -(2**62), True, "valid", "maybe", "", "nan"]),
    st.integers(),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
)
NUMBERS = st.sampled_from(
    ["0", "1", "2", "3", "-1", "-5", "1000000000", "100000000000000000000", "0.5", "x", "1e9", ""]
)
OPTION_VALUES = {
    "--threshold": NUMBERS,
    "--threads": NUMBERS,
    "--memory-limit": st.sampled_from(["1GB", "64MB", "none", "0", "-1GB", "x", ""]),
    "--n-boot": NUMBERS,
    "--alpha": st.sampled_from(["0.05", "0", "1", "-0.1", "nan", "inf", "x"]),
    "--fuzzy-threshold": st.sampled_from(["85", "0", "100", "101", "-3", "nan", "x"]),
    "--rule": st.sampled_from(["majority", "supermajority", "minority_veto", "median"]),
    "--metric": st.sampled_from(["max_abs_error", "balanced_accuracy", "nope"]),
    "--method": st.sampled_from(["rogan-gladen", "ppi++", "naive", "bayes"]),
    "--model": NAMES.map(str),
    "--generator": NAMES.map(str),
    "--calibration": NAMES.map(str),
}


@st.composite
def tables(draw, kind):
    """A table meant to be ``kind``: its columns, sometimes one dropped or a junk one added."""
    columns = list(COLUMNS[kind])
    if draw(st.booleans()) and draw(st.booleans()):
        columns.remove(draw(st.sampled_from(columns)))
    if draw(st.booleans()) and draw(st.booleans()):
        columns.append(draw(st.sampled_from(["junk", "label", "human", "model"])))
    n = draw(st.integers(0, 30))
    messy = draw(st.booleans())
    # mostly tidy values, so that the data reach the estimators, with weird cells mixed in
    tidy = {
        "generator": st.sampled_from(["a", "b", "1"]),
        "model": st.sampled_from(["a", "b"]),
        "validator": st.sampled_from(["v1", "v2", "v3"]),
        "item": st.integers(0, 5),
        "task": st.integers(0, 2),
        "line": st.integers(0, 9),
        "label": st.sampled_from([0, 1]),
        "human": st.sampled_from([0, 1]),
        "judge": st.sampled_from([0, 1]),
        "feedback": st.sampled_from(["use a loop", "add a test"]),
        "raw": st.sampled_from(['[{"feedback": "use a loop", "line": 1, "label": "valid"}]', "{"]),
    }
    rows = []
    for i in range(n):
        row = {}
        for c in columns:
            weird = messy and draw(st.integers(0, 5)) == 0
            row[c] = draw(CELLS) if weird or c not in tidy else draw(tidy[c])
        if "item" in row and not messy:
            row["item"] = i  # unique, so that tidy tables reach the estimators
        rows.append(row)
    return pd.DataFrame(rows, columns=columns)


def _serialise(frame, path, mangle, data):
    """Write ``frame`` to ``path`` in its format, then maybe damage the bytes."""
    name = path.name
    try:
        if name.endswith(".parquet"):
            frame.astype(str).to_parquet(path)
        elif ".jsonl" in name:
            frame.to_json(path, orient="records", lines=True)
        else:
            frame.to_csv(path, index=False)
    except Exception:  # a frame pandas cannot write: random bytes stand in
        path.write_bytes(data.draw(st.binary(max_size=200)))
    if mangle == "truncate" and path.stat().st_size:
        content = path.read_bytes()
        path.write_bytes(content[: data.draw(st.integers(0, len(content) - 1))])
    elif mangle == "random":
        path.write_bytes(data.draw(st.binary(max_size=300)))


def _digest(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _check_outcome(code, err):
    assert "Traceback" not in err, err
    assert code in (0, 1, 2), (code, err)
    if code == 1:
        errors = [line for line in err.splitlines() if not line.startswith("jurycal: warning: ")]
        assert len(errors) == 1 and errors[0].startswith("jurycal: error: "), err
    if code == 2:
        assert "error:" in err, err


# Stays: the CLI's contract (no traceback, inputs untouched) over every command; 120 examples
# spread over the commands are what reach their rarer options.
@pytest.mark.slow
@settings(
    max_examples=120,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_the_cli_never_crashes_or_changes_an_input(data):
    command = data.draw(st.sampled_from(sorted(COMMANDS)))
    inputs, options = COMMANDS[command]
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        paths = []
        for kind in inputs:
            ending = data.draw(st.sampled_from([".csv", ".jsonl", ".parquet", ".csv.gz"]))
            path = root / f"{kind}{ending}"
            mangle = data.draw(st.sampled_from(["none", "none", "none", "truncate", "random"]))
            _serialise(data.draw(tables(kind)), path, mangle, data)
            paths.append(path)
        argv = [command, *map(str, paths)]
        if command == "repair":
            argv += ["-o", str(root / "judgments.csv")]
        if command == "compare":
            argv += ["--models", "a", "b", "--n-boot", "20"]
        if command in ("fit", "estimate"):
            argv += ["--estimator", "likelihood", "--restarts", "1", "--interval", "none"]
        if command == "estimate":
            argv += ["--generator", "b"]
        for option in data.draw(st.lists(st.sampled_from(options), unique=True, max_size=3)):
            if option in ("--unpaired",):
                argv.append(option)
            elif option in ("-o", "--report"):
                target = data.draw(
                    st.sampled_from(["out.csv", "out.parquet", "out.jsonl", "in", "nodir/x.csv"])
                )
                argv += [option, str(paths[0] if target == "in" else root / target)]
            elif option == "--human":
                human = root / "extra_human.csv"
                data.draw(tables("human")).to_csv(human, index=False)
                paths.append(human)
                argv += [option, str(human)]
            else:
                argv += [option, data.draw(OPTION_VALUES[option])]
        before = {p: _digest(p) for p in paths}
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as stop:
                code = stop.code
        event(f"{command} exit {code}")
        _check_outcome(code, err.getvalue())
        assert {p: _digest(p) for p in paths} == before
        if code == 0 and "--json" in argv:
            json.loads(out.getvalue())


# --- file arguments: directories, empty files, unreadable files, the input as the output ---------

# Each command with its input files (by what they hold) and the output flag it writes with.
FILE_COMMANDS = {
    "vote": (["judgments"], "-o"),
    "count": (["judgments"], "-o"),
    "judge": (["calibration", "test"], "--plot"),
    "compare": (["calibration", "test"], "--plot"),
    "report": (["calibration", "test"], "-o"),
    "pick-threshold": (["judgments", "human"], "--plot"),
    "repair": (["items", "outputs"], "-o"),
    "fit": (["judgments", "human"], "--report"),
    "rank": (["judgments", "human"], "--report"),
    "suggest": (["judgments"], "-o"),
}
FAULTS = ("directory", "empty", "unreadable", "missing", "output is the input")


def _file_argv(root, command, fault, position):
    """``jurycal command`` on good files with one fault at input ``position``."""
    kinds, flag = FILE_COMMANDS[command]
    paths = []
    for i, kind in enumerate(kinds):
        path = root / f"{kind}{i}.csv"
        good = {"label": [1, 0], "human": [1, 0], "judge": [1, 0], "item": [1, 2], "task": [1, 2]}
        frame = pd.DataFrame({c: good.get(c, ["g", "g"]) for c in COLUMNS[kind]})
        frame.to_csv(path, index=False)
        paths.append(path)
    target = paths[position]
    if fault == "directory":
        target.unlink()
        target.mkdir()
    elif fault == "empty":
        target.write_bytes(b"")
    elif fault == "missing":
        target.unlink()
    argv = [command, *map(str, paths)]
    if command == "compare":
        argv += ["--models", "g", "h"]
    if command == "suggest":
        argv += ["--budget", "1"]
    ending = {"--report": ".md", "--plot": ".png"}.get(
        flag, ".md" if command == "report" else ".csv"
    )
    output = target if fault == "output is the input" else root / f"out{ending}"
    return [*argv, flag, str(output)], target


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    command=st.sampled_from(sorted(FILE_COMMANDS)),
    fault=st.sampled_from(FAULTS),
    position=st.integers(0, 1),
)
def test_file_arguments_fail_with_one_line_naming_the_file(command, fault, position):
    import os
    from unittest import mock

    position = min(position, len(FILE_COMMANDS[command][0]) - 1)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        argv, target = _file_argv(root, command, fault, position)
        before = {
            p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.iterdir() if p.is_file()
        }
        real_access = os.access

        def access(path, mode):  # the tests run as root, who reads everything: deny one file
            return (
                False if Path(path) == target and fault == "unreadable" else real_access(path, mode)
            )

        out, err = io.StringIO(), io.StringIO()
        with mock.patch("os.access", access), contextlib.redirect_stdout(out):
            with contextlib.redirect_stderr(err):
                try:
                    code = main(argv)
                except SystemExit as stop:
                    code = stop.code
        event(f"{fault}: exit {code}")
        assert code == 1, (argv, err.getvalue())
        lines = err.getvalue().strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("jurycal: error: "), err.getvalue()
        assert str(target) in lines[0] or target.name in lines[0], lines[0]
        expected = {
            "directory": "is a directory",
            "empty": "empty",
            "unreadable": "permission denied",
            "missing": "no such file",
            "output is the input": "input",
        }[fault]
        assert expected in lines[0], lines[0]
        after = {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in before}
        assert after == before, argv
