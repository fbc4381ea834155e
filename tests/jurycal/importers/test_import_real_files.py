"""The importers on files the tools themselves wrote (fixtures/real) and on hand-made files in
AlpacaEval's and FastChat's published layouts (fixtures/handmade).

fixtures/real holds the output of Inspect AI 0.3.285, promptfoo 0.121.20 and
DeepEval 4.3.1, run offline by benchmarks/importer_fixtures/regenerate.sh. AlpacaEval and
FastChat are not run here (they call hosted judges), and their published files are not
copied into the repository: fixtures/handmade follows their field layout (one annotator per
model; a re-run appended after failed judgments, as FastChat writes it).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pandas as pd
import pytest

from ensemble import vote, vote_judgments
from jurycal.cli import main
from jurycal.importers import (
    ImportFormatError,
    import_judgments,
    read_alpaca_eval_annotations,
    read_deepeval_run,
    read_inspect_log,
    read_mt_bench_judgments,
    read_promptfoo_results,
)
from jurycal.importers.zipped import ZSTD_METHOD
from jurycal.io import read_table

REAL = Path(__file__).parent / "fixtures" / "real"
HANDMADE = Path(__file__).parent / "fixtures" / "handmade"
PANEL = ["mockllm/grader-a", "mockllm/grader-b", "mockllm/grader-c"]
ALPACA = sorted(HANDMADE.glob("alpaca_eval_*.json"))
MT_RERUN = HANDMADE / "mt_bench_gpt-4_single_rerun.jsonl"


def votes(frame: pd.DataFrame) -> dict[tuple[str, str, str], int | None]:
    """(generator, item, validator) -> label, with a missing label as None."""
    return {
        (g, i, v): None if pd.isna(label) else int(label)
        for g, i, v, label in frame[["generator", "item", "validator", "label"]].itertuples(
            index=False
        )
    }


# -- Inspect AI --------------------------------------------------------------------------


def test_inspect_eval_members_are_zstd_and_read() -> None:
    path = REAL / "inspect_echo-gen.eval"
    with zipfile.ZipFile(path) as archive:
        assert {info.compress_type for info in archive.infolist()} == {ZSTD_METHOD}
        with pytest.raises(NotImplementedError):
            archive.read("header.json")  # what Python's zipfile alone does before 3.14
    result = read_inspect_log(path)
    assert len(result.judgments) == 12  # 3 samples x (3 panel graders + 1 single grader)
    assert result.unknown_fields == ()


def test_inspect_panel_gives_one_validator_per_grader() -> None:
    result = read_inspect_log([REAL / "inspect_echo-gen.eval", REAL / "inspect_loud-gen.eval"])
    assert sorted(result.judgments["validator"].unique()) == [*PANEL, "mockllm/grader-d"]
    got = votes(result.judgments)
    # the graders' scripted replies: a = C, I, C; b = C, C, (no grade); c = I, I, C; d = C, I, C
    for generator in ("mockllm/echo-gen", "mockllm/loud-gen"):
        assert [got[(generator, f"{s}#1", PANEL[0])] for s in (1, 2, 3)] == [1, 0, 1]
        assert [got[(generator, f"{s}#1", PANEL[1])] for s in (1, 2, 3)] == [1, 1, None]
        assert [got[(generator, f"{s}#1", PANEL[2])] for s in (1, 2, 3)] == [0, 0, 1]
        assert [got[(generator, f"{s}#1", "mockllm/grader-d")] for s in (1, 2, 3)] == [1, 0, 1]
    assert "2 panel votes withheld (grader_failed) read as missing" in result.notes
    reasons = result.judgments.set_index(["generator", "item", "validator"])["explanation"]
    assert reasons[("mockllm/echo-gen", "3#1", PANEL[1])].startswith("Grade not found")
    assert reasons[("mockllm/echo-gen", "2#1", PANEL[0])] == "Wrong sum.\nGRADE: I"


def test_inspect_json_log_reads_as_the_eval_zip() -> None:
    from_json = votes(read_inspect_log(REAL / "inspect_echo-gen.json").judgments)
    from_zip = votes(read_inspect_log(REAL / "inspect_echo-gen.eval").judgments)
    assert from_json and from_json.items() <= from_zip.items()  # the json run logged sample 1


def test_inspect_truncated_eval_is_one_error_naming_the_file(tmp_path: Path) -> None:
    data = (REAL / "inspect_echo-gen.eval").read_bytes()
    cut = tmp_path / "cut.eval"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.raises(ImportFormatError, match=r"cut\.eval: a truncated or corrupt \.eval zip"):
        read_inspect_log(cut)


def test_inspect_corrupt_zstd_member_is_one_error_naming_file_and_member(tmp_path: Path) -> None:
    source = REAL / "inspect_echo-gen.eval"
    with zipfile.ZipFile(source) as archive:
        info = archive.getinfo("header.json")
    data = bytearray(source.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + 8  # past the zstd magic
    for k in range(start, start + 64):
        data[k] ^= 0xFF
    bad = tmp_path / "bad.eval"
    bad.write_bytes(bytes(data))
    with pytest.raises(ImportFormatError, match=r"bad\.eval: member 'header\.json' is corrupt"):
        read_inspect_log(bad)


def test_inspect_the_same_run_twice_keeps_the_last_with_duplicates_last(tmp_path: Path) -> None:
    copy = tmp_path / "again.eval"
    shutil.copy(REAL / "inspect_echo-gen.eval", copy)
    with pytest.raises(ValueError, match=r"12 vote\(s\) repeat .*--duplicates last"):
        read_inspect_log([REAL / "inspect_echo-gen.eval", copy])
    result = read_inspect_log([REAL / "inspect_echo-gen.eval", copy], duplicates="last")
    assert len(result.judgments) == 12
    assert any(note.startswith("12 repeated vote(s)") for note in result.notes)


# -- promptfoo ---------------------------------------------------------------------------


def test_promptfoo_two_providers_one_prompt_are_named_by_provider() -> None:
    result = read_promptfoo_results(REAL / "promptfoo_two_providers.json")
    assert set(result.judgments["generator"]) == {"echo-gen", "loud-gen"}
    lenient = "file://grader.py (strictness=lenient)"
    strict = "file://grader.py (strictness=strict)"
    assert set(result.judgments["validator"]) == {lenient, strict}
    assert votes(result.judgments) == {
        ("echo-gen", "0", lenient): 1, ("echo-gen", "0", strict): 1,
        ("echo-gen", "1", lenient): 1, ("echo-gen", "1", strict): 0,
        ("loud-gen", "0", lenient): 0, ("loud-gen", "0", strict): 0,
        ("loud-gen", "1", lenient): 0, ("loud-gen", "1", strict): 0,
    }  # fmt: skip
    assert "2 deterministic assertions (not judges) skipped" in result.notes
    assert set(result.judgments["score"]) == {1.0, 0.2}  # exact: scores as the file gives them
    assert result.judgments["explanation"].str.contains("grader: ").all()
    assert result.unknown_fields == ()


def test_promptfoo_graders_with_one_id_and_no_config_fall_back_to_position(
    tmp_path: Path,
) -> None:
    def strip(node: object) -> object:  # every grading provider object -> its bare id
        if isinstance(node, dict):
            if node.get("id") == "file://grader.py":
                return "file://grader.py"
            return {key: strip(value) for key, value in node.items()}
        return [strip(value) for value in node] if isinstance(node, list) else node

    data = strip(json.loads((REAL / "promptfoo_two_providers.json").read_text()))
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    result = read_promptfoo_results(path)
    assert set(result.judgments["validator"]) == {
        "file://grader.py:llm-rubric",
        "file://grader.py:llm-rubric#2",
    }
    assert any("told apart by position" in note for note in result.notes)


# -- DeepEval ----------------------------------------------------------------------------


def test_deepeval_runs_of_several_models_import_together() -> None:
    files = [REAL / f"deepeval_{name}.json" for name in ("echo-gen", "loud-gen", "unrecorded")]
    result = read_deepeval_run(files, generator="plain-gen")
    assert result.judgments.groupby("generator").size().to_dict() == {
        "echo-gen": 6,
        "loud-gen": 6,
        "plain-gen": 6,
    }
    assert set(result.judgments["validator"]) == {"stub-judge-lenient", "stub-judge-strict"}
    row = result.judgments.iloc[0]
    # exact: the score as the file gives it
    assert (row["score"], row["explanation"]) == (0.9, "stub-judge-lenient: correct and concise")
    assert [n for n in result.notes if "taken from the argument" in n] == [
        f"{files[2]}: generator not recorded; taken from the argument ('plain-gen')."
    ]


def test_deepeval_without_generator_names_the_file_that_records_none() -> None:
    with pytest.raises(ValueError, match=r"deepeval_unrecorded\.json does not record"):
        read_deepeval_run([REAL / "deepeval_echo-gen.json", REAL / "deepeval_unrecorded.json"])


# -- AlpacaEval, MT-Bench: hand-made files in the published layout -------------------------------------------------


def test_alpaca_eval_one_annotator_per_model_votes_among_the_present() -> None:
    result = read_alpaca_eval_annotations(ALPACA)
    judgments = result.judgments
    assert judgments.groupby("generator")["validator"].nunique().to_dict() == {
        "Mixtral-8x7B-Instruct-v0.1": 1,
        "gpt4": 1,
    }
    labels, panel = vote_judgments(judgments, "majority")
    assert panel["n_validators"].tolist() == [1, 1]
    by_generator = labels.groupby(level="generator").mean().to_dict()
    own = judgments.groupby("generator")["label"].mean().to_dict()
    assert by_generator == pytest.approx(own)  # each model's own annotator decides
    assert (
        by_generator[  # exact: 0/1 votes and their share of 2; same votes, same path
            "Mixtral-8x7B-Instruct-v0.1"
        ]
        == 0.5
    )
    # exact: votes and labels are 0, 1 or NaN; one code path
    assert vote(judgments, "majority").equals(labels)
    # the cot annotator's explanation is kept
    gpt4 = judgments[judgments["generator"] == "gpt4"]
    assert gpt4["explanation"].str.len().gt(0).all()


def test_cli_vote_on_alpaca_eval_reports_absent_validators(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "ae.csv"
    assert main(["import", "alpaca_eval", *map(str, ALPACA), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["vote", str(out), "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    precision = {row["generator"]: row["estimate"] for row in payload["precision"]}
    # exact: a share of integer counts, one rounding, through JSON (repr round trip)
    assert precision == {"Mixtral-8x7B-Instruct-v0.1": 0.5, "gpt4": 0.25}
    assert [row["absent"] for row in payload["validators_present"]] == [
        "alpaca_eval_cot_gpt4_turbo_fn",
        "alpaca_eval_gpt4_turbo_fn",
    ]
    assert main(["vote", str(out)]) == 0
    assert "validators absent for a generator" in capsys.readouterr().out


def test_mt_bench_rerun_is_refused_naming_the_option_then_last_kept() -> None:
    with pytest.raises(ValueError, match=r"appears twice in .*rerun\.jsonl.*--duplicates last"):
        read_mt_bench_judgments(MT_RERUN)
    result = read_mt_bench_judgments(MT_RERUN, duplicates="last")
    rows = [json.loads(line) for line in MT_RERUN.read_text().splitlines()]
    last = {(r["model"], f"{r['question_id']}#t{r['turn']}"): r["score"] for r in rows}
    got = result.judgments.set_index(["generator", "item"])["score"].to_dict()
    assert got == {key: float(score) for key, score in last.items()}
    assert len(rows) - len(result.judgments) == 2
    assert result.notes[0].startswith("2 repeated vote(s)")
    assert result.judgments["explanation"].notna().all()


def test_cli_import_duplicates_last_and_carried_columns_survive(tmp_path: Path) -> None:
    out = tmp_path / "mt.parquet"
    assert main(["import", "mt_bench", str(MT_RERUN), "-o", str(out), "--duplicates", "last"]) == 0
    table = read_table(out)
    assert list(table.columns) == [
        "generator",
        "item",
        "validator",
        "label",
        "explanation",
        "score",
    ]
    with pytest.raises(ValueError, match="--duplicates last"):
        import_judgments("mt_bench", MT_RERUN)


def test_carried_columns_are_ignored_by_counting_and_voting(tmp_path: Path) -> None:
    from jurycal.counting import count_files, count_frame

    judgments = read_promptfoo_results(REAL / "promptfoo_two_providers.json").judgments
    assert {"explanation", "score"} <= set(judgments.columns)
    bare = judgments[["generator", "item", "validator", "label"]]
    path = tmp_path / "votes.csv"
    judgments.to_csv(path, index=False)
    expected = count_frame(bare)
    for counts in (count_frame(judgments), count_files([path])):
        for part in ("n_valid", "n_labelled"):
            pd.testing.assert_frame_equal(  # exact: 0/1 votes and their share of 2; same votes, same path
                getattr(counts, part), getattr(expected, part), check_dtype=False
            )
    pd.testing.assert_series_equal(  # exact: 0/1 votes and their share of 2; same votes, same path
        vote(judgments, "majority"), vote(bare, "majority")
    )
