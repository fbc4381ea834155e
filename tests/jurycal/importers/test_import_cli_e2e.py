"""The registry, the ``jurycal import`` command module, robustness, and one round trip from a
tool's file to a report."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ensemble import ensemble_precision, vote
from jurycal.cli import build_parser, main
from jurycal.importers import IMPORTERS, ImportFormatError, import_judgments
from jurycal.io import read_table
from jurycal.report import Report
from regression import counts_from_judgments
from regression.results import Summary

ROOT = Path(__file__).resolve().parents[3]


def run_cli(argv: list[str]) -> int:
    """``jurycal ARGV`` in process; a bad input raises its ValueError (``main`` prints it)."""
    args = build_parser().parse_args(argv)
    return int(args.handler(args))


def test_registry_dispatches_by_name(fixtures: Path) -> None:
    result = import_judgments("mt_bench", fixtures / "mt_bench_gpt-4_single.jsonl", threshold=8)
    assert result.threshold_used == 8.0  # exact: a threshold passed through as given
    assert result.source_format == "mt_bench"
    assert (
        IMPORTERS["mt_bench"].default_threshold == 7.0  # exact: a threshold passed through as given
    )


def test_registry_refuses_unknown_format_and_foreign_option(fixtures: Path) -> None:
    with pytest.raises(ValueError, match=r"format \('langsmith'\) not recognized; must be one of"):
        import_judgments("langsmith", fixtures / "inspect_log.json")
    with pytest.raises(ValueError, match=r"'inspect' takes no option baseline \(its options: "):
        import_judgments("inspect", fixtures / "inspect_log.json", baseline="x")
    # None options are dropped, so a caller can pass every option it has.
    assert len(import_judgments("inspect", fixtures / "inspect_log.json", baseline=None).judgments)


def test_cli_writes_tables_and_prints_json(
    fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out, human = tmp_path / "votes.csv", tmp_path / "human.csv"
    code = run_cli(["import", "inspect", str(fixtures / "inspect_log.json"), "-o", str(out),
                    "--human-out", str(human), "--partial", "valid", "--json"])  # fmt: skip
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["n_votes"] == 8 and summary["n_missing_labels"] == 2
    assert summary["n_human_labels"] == 1 and summary["output"] == str(out)
    assert summary["unknown_fields"] == ["sample.review_queue"]
    votes = read_table(out)
    assert list(votes.columns)[:4] == ["generator", "item", "validator", "label"]
    assert set(votes.columns[4:]) <= {"explanation", "score"}
    assert votes["label"].isna().sum() == 2 and votes["label"].sum() == 3
    assert read_table(human).to_dict("records") == [
        {"generator": "openai/gpt-4o-mini", "item": "8#1", "human": 1}
    ]


def test_cli_plain_account_names_threshold_and_notes(
    fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "votes.parquet"
    run_cli(["import", "mt_bench", str(fixtures / "mt_bench_gpt-4_single.jsonl"), "-o", str(out)])
    text = capsys.readouterr().out
    assert "read 5 votes (1 without a usable verdict)" in text
    assert "threshold: score >= 7 is valid" in text
    assert "note: 1 unparsed ratings (-1) read as missing" in text
    assert len(pd.read_parquet(out)) == 5


def test_cli_deepeval_takes_the_generator(fixtures: Path, tmp_path: Path) -> None:
    out = tmp_path / "votes.jsonl"
    path = str(fixtures / "deepeval_latest_test_run.json")
    assert run_cli(["import", "deepeval", path, "-o", str(out), "--generator", "bot"]) == 0
    assert set(read_table(out)["generator"]) == {"bot"}


def test_cli_refuses_to_overwrite_an_input(fixtures: Path, tmp_path: Path) -> None:
    source = tmp_path / "gpt-4_single.jsonl"
    source.write_text((fixtures / "mt_bench_gpt-4_single.jsonl").read_text())
    with pytest.raises(ValueError, match=r"is the input file"):
        run_cli(["import", "mt_bench", str(source), "-o", str(source)])
    assert source.read_text() == (fixtures / "mt_bench_gpt-4_single.jsonl").read_text()


def test_cli_wrong_format_names_the_file(fixtures: Path, tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"promptfoo_results\.json: not an Inspect AI log"):
        run_cli(["import", "inspect", str(fixtures / "promptfoo_results.json"),
                 "-o", str(tmp_path / "v.csv")])  # fmt: skip
    assert not (tmp_path / "v.csv").exists()


def test_round_trip_from_an_inspect_log_to_a_report(fixtures: Path, tmp_path: Path) -> None:
    """fixture -> import -> judgments table -> ensemble and regression -> a report file."""
    result = import_judgments("inspect", fixtures / "inspect_log.json", partial="valid")
    table = tmp_path / "votes.csv"
    result.judgments.to_csv(table, index=False)
    judgments = read_table(table)  # what a user's next step reads back
    labels = vote(judgments, rule="majority", missing="ignore")
    assert isinstance(labels, pd.Series)  # indexed by (generator, item)
    # By hand, the majority of the votes cast per item: 7#1 missing + P (valid) -> 1; 8#1 I + N
    # (missing) -> 0; paris#1 C + C -> 1; paris#2 I + I -> 0.
    # exact: votes and labels are 0, 1 or NaN
    assert labels.sort_index().tolist() == [1.0, 0.0, 1.0, 0.0]
    precision = ensemble_precision(labels)
    # exact: a share of integer counts, one rounding
    assert precision.to_frame()["estimate"].tolist() == [0.5]
    counts = counts_from_judgments(judgments)
    assert int(counts.n_labelled.to_numpy().sum()) == 6  # 8 votes, 2 without a verdict
    report = Report("Imported from Inspect")
    report.add(
        Summary(
            "Precision",
            {"precision": precision.to_frame().reset_index()},
            (f"{len(judgments)} votes from {', '.join(result.sources)}.",),
            result.notes,
        )
    )
    path, *_ = report.write(tmp_path / "report.md")
    text = path.read_text()
    assert "| openai/gpt-4o-mini |" in text and "0.5000" in text
    assert "keeps only their combined grade" in text


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.floats(allow_nan=True)
    | st.sampled_from(["C", "I", "P", "N", "model", "x"]),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(
        st.sampled_from(["eval", "model", "samples", "id", "epoch", "scores", "value", "history",
                         "results", "provider", "gradingResult", "componentResults", "testCases",
                         "metricsData", "name", "instruction", "generator_1", "generator_2",
                         "preference", "metadata", "grading", "role", "assertion", "type"]),
        inner, max_size=6,
    ),
    max_leaves=20,
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=JSON, name=st.sampled_from(sorted(IMPORTERS)))
def test_any_json_gives_a_result_or_a_value_error(tmp_path: Path, data: object, name: str) -> None:
    """Whatever a file holds, an importer answers with a result or a ValueError, never a crash."""
    suffix = ".jsonl" if name == "mt_bench" else ".json"
    path = tmp_path / f"input{suffix}"
    path.write_text(json.dumps(data) if name != "mt_bench" else json.dumps(data) + "\n")
    options = {"deepeval": {"generator": "g"}, "alpaca_eval": {"baseline": "b"},
               "mt_bench": {"baseline": "b"}}.get(name, {})  # fmt: skip
    try:
        result = import_judgments(name, path, None, **options)
    except ValueError:
        return
    assert list(result.judgments.columns) == ["generator", "item", "validator", "label"]
    assert result.judgments["label"].dropna().isin([0, 1]).all()


FIXTURE_FILES = {
    "inspect": "inspect_log.json",
    "promptfoo": "promptfoo_results.json",
    "deepeval": "deepeval_latest_test_run.json",
    "alpaca_eval": "alpaca_eval_annotations.json",
    "mt_bench": "mt_bench_gpt-4_pair.jsonl",
}


def node_paths(obj: object, prefix: tuple = ()) -> list[tuple]:
    """Every position in a JSON document, as a tuple of keys and indices."""
    found = [prefix]
    if isinstance(obj, dict):
        for key, value in obj.items():
            found += node_paths(value, (*prefix, key))
    elif isinstance(obj, list):
        for index, value in enumerate(obj):
            found += node_paths(value, (*prefix, index))
    return found


def replaced(obj: object, path: tuple, value: object) -> object:
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(obj, dict):
        return {k: replaced(v, rest, value) if k == head else v for k, v in obj.items()}
    assert isinstance(obj, list)
    return [replaced(v, rest, value) if i == head else v for i, v in enumerate(obj)]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(name=st.sampled_from(sorted(FIXTURE_FILES)), pick=st.integers(0, 10_000), value=JSON)
def test_a_fixture_with_one_field_changed_gives_a_result_or_a_value_error(
    fixtures: Path, tmp_path: Path, name: str, pick: int, value: object
) -> None:
    """Any one field of a real-format file replaced by any JSON: a result or a ValueError."""
    source = fixtures / FIXTURE_FILES[name]
    if name == "mt_bench":
        document: object = [json.loads(line) for line in source.read_text().splitlines() if line]
    else:
        document = json.loads(source.read_text())
    paths = node_paths(document)
    mutated = replaced(document, paths[pick % len(paths)], value)
    path = tmp_path / source.name
    if name == "mt_bench":
        lines = mutated if isinstance(mutated, list) else [mutated]
        path.write_text("\n".join(json.dumps(line) for line in lines) + "\n")
    else:
        path.write_text(json.dumps(mutated))
    options = {"deepeval": {"generator": "g"}}.get(name, {})
    try:
        result = import_judgments(name, path, None, **options)
    except ValueError:
        return
    assert result.judgments["label"].dropna().isin([0, 1]).all()


def test_main_reports_a_wrong_format_in_one_line(
    fixtures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["import", "inspect", str(fixtures / "promptfoo_results.json"),
                 "-o", str(tmp_path / "v.csv")])  # fmt: skip
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1 and len(err) == 1 and "not an Inspect AI log" in err[0]
