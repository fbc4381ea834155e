"""AlpacaEval annotations and MT-Bench judgments into the judgments table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from jurycal.importers import (
    ImportFormatError,
    read_alpaca_eval_annotations,
    read_mt_bench_judgments,
)
from jurycal.importers.records import short_hash

ANNOTATOR = "weighted_alpaca_eval_gpt4_turbo"


CARRIED = ("explanation", "score")


def rows(frame: pd.DataFrame) -> list[tuple]:
    return [
        tuple(None if v is pd.NA else v for v in row)
        for row in frame.drop(columns=[c for c in CARRIED if c in frame]).itertuples(index=False)
    ]


# fixtures/alpaca_eval_annotations.json by hand: preference 1 + P(output_2 preferred);
# 1.8 -> 0.8 >= 0.5 valid, 1.2 -> 0.2 invalid, 1.5 draw missing, null missing, 2.0 valid.
ALPACA_EXPECTED = [
    ("my-model-7b", short_hash("Name three primary colours."), ANNOTATOR, 1),
    ("my-model-7b", short_hash("Write a haiku about rain."), ANNOTATOR, 0),
    ("my-model-7b", short_hash("What is 2+2?"), ANNOTATOR, None),
    ("my-model-7b", short_hash("Translate 'cat' to French."), ANNOTATOR, None),
    ("my-model-7b", short_hash("Give a synonym for 'happy'."), ANNOTATOR, 1),
]


def test_alpaca_eval_reads_into_exact_rows(fixtures: Path) -> None:
    result = read_alpaca_eval_annotations(fixtures / "alpaca_eval_annotations.json")
    assert rows(result.judgments) == ALPACA_EXPECTED
    assert result.threshold_used == 0.5  # exact: a threshold passed through as given
    assert result.unknown_fields == ("annotation.length_bucket",)
    assert "1 draws read as missing" in result.notes


def test_alpaca_eval_threshold_moves_the_cut(fixtures: Path) -> None:
    result = read_alpaca_eval_annotations(fixtures / "alpaca_eval_annotations.json", threshold=0.9)
    assert result.judgments["label"].tolist() == [0, 0, pd.NA, pd.NA, 1]


def test_alpaca_eval_baseline_in_the_second_slot_flips_the_preference(
    fixtures: Path, tmp_path: Path
) -> None:
    data = json.loads((fixtures / "alpaca_eval_annotations.json").read_text())
    for row in data:
        row["generator_1"], row["generator_2"] = row["generator_2"], row["generator_1"]
        if isinstance(row["preference"], (int, float)):
            row["preference"] = 3 - row["preference"]
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(data))
    swapped = read_alpaca_eval_annotations(path, baseline="gpt4_turbo")
    assert rows(swapped.judgments) == ALPACA_EXPECTED


def test_alpaca_eval_ambiguous_baseline_is_refused(fixtures: Path, tmp_path: Path) -> None:
    data = json.loads((fixtures / "alpaca_eval_annotations.json").read_text())
    data[0]["generator_1"] = "claude-2"
    path = tmp_path / "mixed.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"generator_1 holds 2 models .* pass baseline="):
        read_alpaca_eval_annotations(path)


def test_alpaca_eval_model_outputs_are_not_annotations(tmp_path: Path) -> None:
    path = tmp_path / "model_outputs.json"
    path.write_text(json.dumps([{"instruction": "x", "output": "y", "generator": "m"}]))
    with pytest.raises(ImportFormatError, match=r"model_outputs\.json: not AlpacaEval annotations"):
        read_alpaca_eval_annotations(path)


# fixtures/mt_bench_gpt-4_*.jsonl by hand: ratings 8, 6, -1, 7, 3 cut at >= 7; pairwise against
# the baseline gpt-3.5-turbo (model_2): model_1 wins both orders -> 1, model_2 both -> 0,
# disagreeing orders, tie and error -> missing.
MT_EXPECTED = [
    ("vicuna-13b-v1.3", "81#t1", "gpt-4:single", 1),
    ("vicuna-13b-v1.3", "81#t2", "gpt-4:single", 0),
    ("vicuna-13b-v1.3", "111#t1", "gpt-4:single", None),
    ("llama-2-7b-chat", "81#t1", "gpt-4:single", 1),
    ("llama-2-7b-chat", "111#t1", "gpt-4:single", 0),
    ("vicuna-13b-v1.3", "81#t1", "gpt-4:pair", 1),
    ("vicuna-13b-v1.3", "82#t1", "gpt-4:pair", 0),
    ("vicuna-13b-v1.3", "83#t1", "gpt-4:pair", None),
    ("vicuna-13b-v1.3", "84#t1", "gpt-4:pair", None),
    ("vicuna-13b-v1.3", "85#t1", "gpt-4:pair", None),
]


def test_mt_bench_reads_into_exact_rows(fixtures: Path) -> None:
    files = [fixtures / "mt_bench_gpt-4_single.jsonl", fixtures / "mt_bench_gpt-4_pair.jsonl"]
    result = read_mt_bench_judgments(files)
    assert rows(result.judgments) == MT_EXPECTED
    assert result.threshold_used == 7.0  # exact: a threshold passed through as given
    notes = " | ".join(result.notes)
    assert "1 pairwise inconsistent verdicts read as missing" in notes
    assert "1 unparsed ratings (-1) read as missing" in notes


def test_mt_bench_single_alone_names_the_judge_only(fixtures: Path) -> None:
    result = read_mt_bench_judgments(fixtures / "mt_bench_gpt-4_single.jsonl", threshold=6)
    assert set(result.judgments["validator"]) == {"gpt-4"}
    assert result.judgments["label"].tolist() == [1, 1, pd.NA, 1, 0]


def test_mt_bench_pair_alone_has_no_threshold(fixtures: Path) -> None:
    result = read_mt_bench_judgments(fixtures / "mt_bench_gpt-4_pair.jsonl")
    assert result.threshold_used is None


def test_mt_bench_baseline_as_model_1(fixtures: Path) -> None:
    result = read_mt_bench_judgments(
        fixtures / "mt_bench_gpt-4_pair.jsonl", baseline="vicuna-13b-v1.3"
    )
    assert set(result.judgments["generator"]) == {"gpt-3.5-turbo"}
    assert result.judgments["label"].tolist() == [0, 1, pd.NA, pd.NA, pd.NA]


def test_mt_bench_bad_line_is_named(tmp_path: Path) -> None:
    path = tmp_path / "gpt-4_single.jsonl"
    path.write_text('{"question_id": 1, "judge": ["gpt-4", "single-v1"], "model": "m", '
                    '"score": 5}\n{"question_id": 2}\n')  # fmt: skip
    with pytest.raises(ImportFormatError, match=r"gpt-4_single\.jsonl, line 2: not MT-Bench"):
        read_mt_bench_judgments(path)
    path.write_text("not json\n")
    with pytest.raises(ImportFormatError, match=r"line 1: not MT-Bench judgments.*invalid JSON"):
        read_mt_bench_judgments(path)
