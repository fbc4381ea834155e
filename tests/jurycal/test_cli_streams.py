"""What users see (issue 27): one word per role, quiet streams, errors that point at the line,
report files named after their report, help with units and examples, JSON keys as documented.

Each case of the issue's "Why" list is a test here; ``test_cli_hardening.py`` and
``test_cli_fuzz.py`` keep the older guarantees (no traceback, inputs never clobbered).
"""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from jurycal.cli import build_parser
from jurycal.cli.commands import COMMANDS
from regression.results import ROLES, Summary

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "jurycal" / "importers" / "fixtures"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    """Five generators a..e, five validators, 60 items each; every item of a..d labelled,
    e unlabelled; a single-judge calibration and test file; two models' for compare."""
    root = tmp_path_factory.mktemp("streams")
    rng = np.random.default_rng(27)
    rates = [(0.9, 0.8), (0.8, 0.7), (0.95, 0.6), (0.7, 0.9), (0.85, 0.85)]
    rows, human = [], []
    for generator, precision in zip("abcde", [0.5, 0.7, 0.8, 0.6, 0.65], strict=True):
        for item in range(60):
            truth = rng.random() < precision
            if generator != "e":
                human.append((generator, item, int(truth)))
            for v, (tpr, tnr) in enumerate(rates):
                label = rng.random() < tpr if truth else rng.random() >= tnr
                rows.append((generator, item, f"v{v}", int(label)))
    pd.DataFrame(rows, columns=["generator", "item", "validator", "label"]).to_csv(
        root / "j.csv", index=False
    )
    pd.DataFrame(human, columns=["generator", "item", "human"]).to_csv(root / "h.csv", index=False)
    truth = rng.random(300) < 0.6
    judge = np.where(truth, rng.random(300) < 0.85, rng.random(300) < 0.2).astype(int)
    model = np.repeat(["m1", "m2"], 150)
    pd.DataFrame({"model": model, "human": truth.astype(int), "judge": judge}).to_csv(
        root / "cal.csv", index=False
    )
    pd.DataFrame({"model": model, "item": np.tile(np.arange(150), 2), "judge": judge}).to_csv(
        root / "test.csv", index=False
    )
    pd.DataFrame({"human": truth.astype(int), "judge": judge}).to_csv(
        root / "cal1.csv", index=False
    )
    pd.DataFrame({"judge": judge}).to_csv(root / "test1.csv", index=False)
    return root


# --- item 1: one vocabulary of roles ------------------------------------------------------------


def test_every_surface_gives_a_generator_the_same_role(files, tmp_path, run_cli):
    """API interval() and to_frame(), CLI text and JSON of fit and rank, and the report card."""
    from regression.transfer import TransferModel

    judgments, human = pd.read_csv(files / "j.csv"), pd.read_csv(files / "h.csv")
    for frame in (judgments, human):
        frame["generator"] = frame["generator"].astype(str)
    result = TransferModel().fit_table(judgments, human, ["a", "b", "c"])
    expected = {"a": "calibration", "b": "calibration", "c": "calibration", "d": "held out"}
    expected["e"] = "unlabelled"
    assert result.interval()["role"].to_dict() == expected
    truth = human.groupby("generator")["human"].mean()
    frame = result.to_frame(truth=truth)
    assert frame["role"].to_dict() == expected
    assert set(expected.values()) <= set(ROLES)

    base = [str(files / "j.csv"), str(files / "h.csv"), "--calibration", "a", "b", "c"]
    for command in ("fit", "rank"):
        code, out, err = run_cli([command, *base, "--json"])
        assert code == 0, err
        payload = json.loads(out)
        rows = payload["generators"] if command == "fit" else payload["leaderboard"]
        assert {r["generator"]: r["role"] for r in rows} == expected, command
        card = tmp_path / f"{command}.md"
        code, out, err = run_cli([command, *base, "--report", str(card)])
        assert code == 0, err
        for generator, role in expected.items():
            assert re.search(rf"^{generator}\s.*\s{role}\s", out, re.M), (command, generator)
            row = rf"\| {generator}\s+\|(.*\|)?\s*{role}\s+\|"
            assert re.search(row, card.read_text()), (command, generator)
    assert "unannotated" not in out and "unannotated" not in card.read_text()


# --- item 2: report files named after their report ----------------------------------------------


def test_reports_name_their_figures_and_never_share_a_file(files, tmp_path, run_cli):
    base = [str(files / "j.csv"), str(files / "h.csv"), "--calibration", "a", "b", "c"]
    written = {}
    for name in ("leaderboard", "other"):
        code, _, err = run_cli(["rank", *base, "--report", str(tmp_path / f"{name}.md")])
        assert code == 0, err
        written[name] = [line.removeprefix("jurycal: written: ") for line in err.splitlines()]
    assert written["leaderboard"] == [
        str(tmp_path / n) for n in ("leaderboard.md", "leaderboard-1.png", "leaderboard.html")
    ]
    assert "](leaderboard-1.png)" in (tmp_path / "leaderboard.md").read_text()
    assert sorted(p.name for p in tmp_path.glob("*.png")) == ["leaderboard-1.png", "other-1.png"]


@pytest.mark.parametrize("command", ["fit", "rank"])
def test_a_report_path_that_is_an_input_is_refused(files, tmp_path, command, run_cli):
    judgments = tmp_path / "judgments.csv"
    judgments.write_bytes((files / "j.csv").read_bytes())
    before = judgments.read_bytes()
    code, out, err = run_cli(
        [command, str(judgments), str(files / "h.csv"), "--report", str(judgments)]
    )
    assert code == 1 and out == ""
    assert "is an input file" in err and not (tmp_path / "judgments.md").exists()
    assert judgments.read_bytes() == before


def test_a_report_whose_figure_would_replace_an_input_is_refused(files, tmp_path, run_cli):
    figure_named = tmp_path / "card-1.png"
    pd.read_csv(files / "j.csv").to_csv(figure_named.with_suffix(".csv"), index=False)
    figure_named.write_bytes(b"not a figure, an input")
    argv = ["vote", str(figure_named.with_suffix(".csv"))]
    assert run_cli(argv)[0] == 0
    from jurycal.cli.common import check_files

    with pytest.raises(ValueError, match=r"figures as card-1.png, .* replacing the input"):
        check_files([figure_named], card=tmp_path / "card.md")


def test_report_command_names_its_card_and_lists_every_file(files, tmp_path, run_cli):
    argv = ["report", str(files / "cal1.csv"), str(files / "test1.csv"), "-o", str(tmp_path / "c")]
    code, out, err = run_cli(argv)
    assert code == 0, err
    written = [f"jurycal: written: {tmp_path / n}" for n in ("c.md", "c-1.png", "c.html")]
    assert err.splitlines() == written  # the card, its figure (the three estimators), the page
    assert "# jurycal report card" not in out  # a summary on stdout, the card in the files


# --- item 3: streams -----------------------------------------------------------------------------


def test_warnings_go_to_stderr_with_the_program_name(files, run_cli):
    code, out, err = run_cli(
        ["fit", str(files / "j.csv"), str(files / "h.csv"), "--calibration", "a"]
    )
    assert code == 0, err
    assert "warning" not in out.lower().replace("no warning", "")
    assert err and all(line.startswith("jurycal: warning: ") for line in err.splitlines())


@pytest.mark.parametrize(
    "argv, code, kind",
    [
        (["vote", "missing.csv"], 1, "FileError"),
        (["suggest", "j.csv", "--budget", "ten"], 2, "ArgumentError"),
        (["vote", "j.csv", "--threshold", "0"], 2, "ArgumentError"),
    ],
)
def test_under_json_an_error_is_one_json_object_on_stderr(
    files, monkeypatch, argv, code, kind, run_cli
):
    monkeypatch.chdir(files)
    got, out, err = run_cli([*argv, "--json"])
    assert got == code and out == ""
    record = json.loads(err)["error"]
    assert set(record) == {"type", "message", "file", "line", "column", "exit_code"}
    assert record["type"] == kind and record["exit_code"] == code


def test_a_json_error_names_the_file_line_and_column(files, tmp_path, run_cli):
    path = tmp_path / "j.csv"
    frame = pd.read_csv(files / "j.csv").astype({"label": object})
    frame.loc[7, "label"] = "maybe"
    frame.to_csv(path, index=False)
    code, out, err = run_cli(["vote", str(path), "--json"])
    record = json.loads(err)["error"]
    assert code == 1 and out == ""
    assert (record["file"], record["line"], record["column"]) == (str(path), 9, "label")
    assert record["type"] == "LabelError"


# --- item 4: every input error names the file and its 1-based line -------------------------------


@pytest.mark.parametrize("ending, first", [(".csv", 2), (".jsonl", 1), (".parquet", 1)])
def test_a_bad_inclusion_probability_is_named_by_file_and_line(
    files, tmp_path, ending, first, run_cli
):
    human = pd.read_csv(files / "h.csv")
    human["inclusion_probability"] = 1.0
    human.loc[101, "inclusion_probability"] = 1.7
    path = tmp_path / f"human{ending}"
    if ending == ".csv":
        human.to_csv(path, index=False)
    elif ending == ".jsonl":
        human.to_json(path, orient="records", lines=True)
    else:
        human.to_parquet(path)
    code, _, err = run_cli(["fit", str(files / "j.csv"), str(path)])
    assert code == 1
    assert (
        f"human-label file {str(path)!r} line {101 + first}, column 'inclusion_probability'" in err
    )
    assert "at row" not in err


def test_a_directory_is_not_called_a_missing_file(tmp_path, run_cli):
    (tmp_path / "dir.csv").mkdir()
    code, _, err = run_cli(["vote", str(tmp_path / "dir.csv")])
    assert code == 1 and "is a directory" in err and "no such file" not in err


def test_a_usage_error_never_shows_an_internal_name(run_cli):
    code, _, err = run_cli(["suggest", "j.csv", "--budget", "ten"])
    assert code == 2 and "'ten' is not a whole number" in err and "_positive_int" not in err


@pytest.mark.parametrize(
    "command, extra", [("suggest", ["--budget", "5"]), ("plan", ["--width", "0.1"])]
)
def test_a_human_file_given_as_rank_takes_it_points_to_labels(run_cli, command, extra):
    """rank and estimate take HUMAN as a second file, suggest and plan as --labels HUMAN: the
    usage error for the second file says so."""
    code, _, err = run_cli([command, "j.csv", "h.csv", *extra])
    assert code == 2 and "unrecognized arguments: h.csv" in err
    assert f"{command} takes the human labels held so far as --labels HUMAN" in err
    code, _, err = run_cli(["vote", "j.csv", "extra.csv"])
    assert code == 2 and "--labels" not in err


def test_a_misspelt_option_is_pointed_to_its_near_match(run_cli):
    """--generators for --generator: the usage error names the option meant, not --labels (the
    option's value is no second file)."""
    code, _, err = run_cli(["suggest", "j.csv", "--budget", "5", "--generators", "g1"])
    assert code == 2 and "did you mean --generator?" in err and "--labels" not in err
    code, _, err = run_cli(["rank", "j.csv", "--alpah", "0.1"])
    assert code == 2 and "did you mean --alpha?" in err
    code, _, err = run_cli(["rank", "j.csv", "--zzz"])
    assert code == 2 and err.strip().endswith("unrecognized arguments: --zzz")


def test_a_bad_label_among_numbers_written_as_text_is_the_one_blamed(files, tmp_path, run_cli):
    frame = pd.read_csv(files / "j.csv")
    frame["label"] = frame["label"].astype(float).astype(str)  # "1.0", "0.0"
    frame.loc[40, "label"] = "yes"
    frame.to_csv(tmp_path / "j.csv", index=False)
    code, _, err = run_cli(["vote", str(tmp_path / "j.csv")])
    assert code == 1 and "line 42, column 'label'" in err and "got 'yes'" in err


# --- item 6: text in the style of statsmodels' Summary ------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["fit", "j.csv", "h.csv", "--calibration", "a"],
        ["rank", "j.csv", "h.csv"],
        ["vote", "j.csv", "--human", "h.csv"],
        ["count", "j.csv"],
        ["pick-threshold", "j.csv", "h.csv"],
        ["plan", "j.csv", "--labels", "h.csv", "--width", "0.2"],
        ["judge", "cal1.csv", "test1.csv"],
    ],
)
def test_text_tables_have_no_pandas_artefacts(files, monkeypatch, argv, run_cli):
    monkeypatch.chdir(files)
    code, out, err = run_cli(argv)
    assert code == 0, err
    for artefact in ("NaN", "nan", "Empty DataFrame", "Columns: [", "[nan, nan]"):
        assert artefact not in out, (artefact, argv)
    assert not re.search(r"\b\d{2,}\.0{4}\b", out), argv  # a count printed as a float


def test_estimate_without_an_interval_says_so(files, run_cli):
    argv = ["estimate", str(files / "j.csv"), str(files / "h.csv"), "--calibration", "a"]
    code, out, err = run_cli([*argv, "--generator", "e"])
    assert code == 0, err
    assert "(no interval)" in out.splitlines()[0] and "[nan" not in out


# --- item 7: answers before the import -----------------------------------------------------------


HEAVY = ("pandas", "scipy", "torch", "numpy", "matplotlib", "duckdb")


@pytest.mark.parametrize(
    "argv",
    [[name, "--help"] for name in COMMANDS]
    + [["fit", "missing.csv", "missing.csv"], ["fit"], ["suggest", "j.csv", "--budget", "ten"]],
)
def test_help_usage_errors_and_missing_files_import_nothing_heavy(argv):
    code = (
        "import sys\nfrom jurycal.cli import main\n"
        f"try:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
        "print('modules:', ' '.join(sorted(m for m in sys.modules if '.' not in m)))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    said = [line for line in done.stdout.splitlines() if line.startswith("modules:")]
    loaded = set(said[-1].split()[1:])  # the modules, not the words of the help printed above
    assert "jurycal" in loaded
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))


def test_the_import_formats_offered_are_the_importers():
    """``jurycal import`` offers :data:`jurycal.importers.names.IMPORTER_NAMES` without importing
    the readers; :data:`jurycal.importers.IMPORTERS` holds one reader for each, in that order."""
    from jurycal.importers import IMPORTERS
    from jurycal.importers.names import IMPORTER_NAMES

    assert tuple(IMPORTERS) == IMPORTER_NAMES


# --- item 8: --help for every argument, units, examples; JSON keys as documented ----------------


@pytest.mark.parametrize("name", list(COMMANDS))
def test_every_argument_has_help_and_every_command_an_example(name):
    parser = build_parser([name])
    sub = parser._subparsers._group_actions[0].choices[name]  # argparse keeps them here
    for action in sub._actions:
        assert action.help, (name, action.dest)
    assert sub.epilog.startswith("examples:\n  jurycal ")
    assert all(line.startswith(f"  jurycal {name}") for line in sub.epilog.splitlines()[1:])


@pytest.mark.parametrize("value", ["85", "0", "1.5", "-0.1", "x"])
def test_fuzzy_threshold_is_a_fraction(value, run_cli):
    code, _, err = run_cli(["repair", "a.csv", "b.csv", "-o", "c.csv", "--fuzzy-threshold", value])
    assert code == 2 and "a fraction in (0, 1]" in err


def test_fuzzy_threshold_reaches_the_library_as_its_percent():
    from jurycal.cli.repair import _percent

    # exact: decimal arithmetic, set by construction
    assert [_percent(f) for f in (0.85, 0.9, 1.0, 0.07)] == [85.0, 90.0, 100.0, 7.0]


def _documented_keys():
    """Per command, the keys after 'JSON keys:' in docs/cli.md."""
    text = (ROOT / "docs" / "cli.md").read_text()
    keys = {}
    for section in text.split("\n### `jurycal ")[1:]:
        name = section.split()[0].rstrip("`")
        found = re.search(r"JSON keys: `([^`]*)`", section)
        assert found, f"docs/cli.md: no 'JSON keys:' for {name}"
        keys[name] = {k.strip() for k in found.group(1).split(",")}
    return keys


def _json_runs(files, tmp_path):
    j, h = str(files / "j.csv"), str(files / "h.csv")
    return {
        "judge": ["judge", str(files / "cal1.csv"), str(files / "test1.csv")],
        "compare": ["compare", str(files / "cal.csv"), str(files / "test.csv"), "--models", "m1", "m2", "--n-boot", "200"],
        "report": ["report", str(files / "cal1.csv"), str(files / "test1.csv"), "-o", str(tmp_path / "r")],
        "count": ["count", j],
        "fit": ["fit", j, h],
        "estimate": ["estimate", j, h, "--generator", "e"],
        "rank": ["rank", j, h],
        "suggest": ["suggest", j, "--labels", h, "--budget", "10"],
        "plan": ["plan", j, "--labels", h, "--width", "0.2"],
        "vote": ["vote", j],
        "pick-threshold": ["pick-threshold", j, h],
        "import": ["import", "mt_bench", str(FIXTURES / "mt_bench_gpt-4_single.jsonl"), "-o", str(tmp_path / "mt.csv")],
        "repair": None,  # tests/jurycal/test_cli_repair.py (needs the repair sample)
        "demo": None,  # below, with the pipeline replaced by a small card
    }  # fmt: skip


def test_json_keys_match_docs_cli_md_for_every_command(files, tmp_path, run_cli):
    documented = _documented_keys()
    runs = _json_runs(files, tmp_path)
    assert set(documented) == set(COMMANDS) == set(runs)
    for name, argv in runs.items():
        if argv is None:
            continue
        code, out, err = run_cli([*argv, "--json"])
        assert code == 0, (name, err)
        assert set(json.loads(out)) == documented[name], name


def test_json_keys_of_repair_and_demo_match_docs(tmp_path, monkeypatch, run_cli):
    documented = _documented_keys()
    items, outputs = tmp_path / "items.csv", tmp_path / "outputs.jsonl"
    items.write_text("generator,task,item,line,feedback\ng,1,0,3,fix the loop\n")
    outputs.write_text('{"generator": "g", "task": 1, "validator": "v", "raw": "[]"}\n')
    argv = ["repair", str(items), str(outputs), "-o", str(tmp_path / "j.csv"), "--json"]
    code, out, err = run_cli(argv)
    assert code == 0, err
    assert set(json.loads(out)) == documented["repair"]

    import jurycal.demo
    from jurycal.report import Report

    def small_demo(quiet, out_dir):
        card = Report("demo")
        card.add(Summary("1. One section"))
        Path(out_dir).mkdir(parents=True, exist_ok=True)
        return card, card.write(Path(out_dir) / "report.md")

    monkeypatch.setattr(jurycal.demo, "run_demo", small_demo)
    code, out, err = run_cli(["demo", "--out", str(tmp_path / "demo"), "--json"])
    assert code == 0, err
    assert set(json.loads(out)) == documented["demo"]


@pytest.mark.parametrize("command", ["judge", "compare", "pick-threshold", "fit", "rank"])
def test_plot_is_null_without_plot(files, tmp_path, command, run_cli):
    runs = _json_runs(files, tmp_path)
    code, out, err = run_cli([*runs[command], "--json"])
    assert code == 0, err
    assert json.loads(out)["plot"] is None


def test_count_spells_labelled_one_way(files, tmp_path, run_cli):
    code, out, _ = run_cli(["count", str(files / "j.csv"), "-o", str(tmp_path / "c.csv"), "--json"])
    assert code == 0 and "n_labeled" not in out
    assert list(pd.read_csv(tmp_path / "c.csv").columns) == [
        "generator",
        "validator",
        "n_valid",
        "n_labelled",
    ]


def test_compare_with_nothing_paired_says_to_use_unpaired(files, tmp_path, run_cli):
    test = pd.read_csv(files / "test.csv")
    test.loc[test["model"] == "m2", "item"] += 1000  # no item judged for both models
    test.to_csv(tmp_path / "test.csv", index=False)
    argv = ["compare", str(files / "cal.csv"), str(tmp_path / "test.csv"), "--models", "m1", "m2"]
    code, _, err = run_cli(argv)
    assert code == 1 and "add --unpaired" in err
    code, _, err = run_cli([*argv, "--unpaired", "--n-boot", "200"])
    assert code == 0, err
