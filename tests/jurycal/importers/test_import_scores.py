"""The importers' score table: each judge's numeric score as the tool wrote it, not thresholded.

Inspect AI on logs Inspect 0.3.285 wrote (fixtures/real/inspect_scores_*.eval, made by
benchmarks/importer_fixtures/inspect_score_runs.py: two 1-5 graders, one reply without a
rating); promptfoo and DeepEval on their own output (fixtures/real); MT-Bench on FastChat's
single-grade layout (fixtures/handmade: FastChat calls hosted judges and is not run here).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from jurycal.cli import main
from jurycal.importers import SCORE_IMPORTERS, import_judgments, import_scores
from jurycal.importers.names import SCORE_IMPORTER_NAMES
from jurycal.io import read_table

FIXTURES = Path(__file__).parent / "fixtures"
REAL = FIXTURES / "real"
INSPECT_SCORES = sorted(REAL.glob("inspect_scores_*.eval"))


def by_key(scores: pd.DataFrame) -> dict[tuple[str, str, str], float]:
    return {
        (g, i, v): float(s)
        for g, i, v, s in scores[["generator", "item", "validator", "score"]].itertuples(
            index=False
        )
    }


def test_the_names_offered_are_the_registrys() -> None:
    assert tuple(SCORE_IMPORTERS) == SCORE_IMPORTER_NAMES


def test_inspect_keeps_each_graders_1_to_5_score_and_the_unparsed_one_missing() -> None:
    result = import_scores("inspect_scores", INSPECT_SCORES)
    got = by_key(result.scores)
    # the graders' replies of inspect_score_runs.py: rater-a "RATING: 5, 2, 4" on echo-gen and
    # "3, no idea, 1" on loud-gen; rater-b "4, 4, 4" and "3, 3, 2"
    a, b = "mockllm/rater-a", "mockllm/rater-b"
    # exact: numbers read from the log as written, no arithmetic
    assert got[("mockllm/echo-gen", "1#1", a)] == 5.0
    assert got[("mockllm/echo-gen", "2#1", a)] == 2.0  # exact: read as written
    assert got[("mockllm/loud-gen", "3#1", a)] == 1.0  # exact: read as written
    assert got[("mockllm/loud-gen", "3#1", b)] == 2.0  # exact: read as written
    # Score.unscored: no row, never a 0
    assert ("mockllm/loud-gen", "2#1", a) not in got
    assert len(got) == 11 and list(result.scores.columns) == [
        "generator",
        "item",
        "validator",
        "score",
    ]
    assert any("1 of 12 judge-output pairs have no usable score" in n for n in result.notes)
    assert not any("label" in note for note in result.notes)  # a score import has no labels


def test_inspect_scorer_used_twice_is_two_graders_as_inspect_names_them() -> None:
    # Inspect lists both scorers as "likert" and keys the second "likert1" in the samples
    judgments = import_judgments("inspect", INSPECT_SCORES, threshold=3).judgments
    assert set(judgments["validator"]) == {"mockllm/rater-a", "mockllm/rater-b"}
    # the 1-5 values cut at 3 as asked (score >= 3 valid); the unparsed one missing
    labels = judgments.set_index(["generator", "item", "validator"])["label"]
    assert labels["mockllm/echo-gen", "2#1", "mockllm/rater-a"] == 0
    assert labels["mockllm/echo-gen", "1#1", "mockllm/rater-b"] == 1
    assert pd.isna(labels["mockllm/loud-gen", "2#1", "mockllm/rater-a"])


def test_inspect_verdict_logs_have_no_score_to_import() -> None:
    with pytest.raises(ValueError, match=r"no numeric score .* \(jurycal import inspect\)"):
        import_scores("inspect_scores", REAL / "inspect_echo-gen.eval")


def test_mt_bench_ratings_kept_1_to_10_and_minus_one_missing() -> None:
    scores = import_scores("mt_bench_scores", FIXTURES / "mt_bench_gpt-4_single.jsonl").scores
    got = by_key(scores)
    assert got[("vicuna-13b-v1.3", "81#t1", "gpt-4")] == 8.0  # exact: read as written
    assert got[("vicuna-13b-v1.3", "81#t2", "gpt-4")] == 6.0  # exact: read as written
    assert ("vicuna-13b-v1.3", "111#t1", "gpt-4") not in got  # FastChat's -1: no rating
    rerun = FIXTURES / "handmade" / "mt_bench_gpt-4_single_rerun.jsonl"
    kept = by_key(import_scores("mt_bench_scores", rerun, duplicates="last").scores)
    # the re-run's ratings replace the failed ones (-1), as FastChat keeps the last record
    assert kept == {  # exact: integer ratings read as written
        ("llama-normal", "81#t1", "gpt-4"): 9.0,
        ("llama-normal", "82#t1", "gpt-4"): 8.0,
        ("llama-terse", "81#t1", "gpt-4"): 2.0,
        ("llama-terse", "82#t1", "gpt-4"): 7.0,
    }


def test_promptfoo_and_deepeval_keep_the_graders_0_to_1_scores() -> None:
    promptfoo = import_scores("promptfoo_scores", REAL / "promptfoo_two_providers.json").scores
    # grader.py scores 1.0 when the rubric is met, 0.2 when not; the contains assertion is no judge
    assert set(promptfoo["score"]) == {0.2, 1.0}  # exact: read from the JSON as written
    assert len(promptfoo) == 8 and promptfoo["validator"].nunique() == 2
    runs = [REAL / "deepeval_echo-gen.json", REAL / "deepeval_loud-gen.json"]
    deepeval = import_scores("deepeval_scores", runs).scores
    # exact: the stub judges' two scores, read from the JSON as written
    assert set(deepeval["score"]) == {0.3, 0.9}
    assert set(deepeval["generator"]) == {"echo-gen", "loud-gen"}


def test_a_grader_error_is_a_missing_score_not_its_zero() -> None:
    # promptfoo writes score 0 beside graderError: the grader said nothing
    scores = import_scores("promptfoo_scores", FIXTURES / "promptfoo_results.json").scores
    got = by_key(scores)
    assert ("mini", "1", "anthropic:messages:claude-3-5-sonnet-latest") not in got
    assert got[("mini", "1", "openai:gpt-4o")] == 0.3  # exact: read as written


def test_cli_writes_the_score_table_and_refuses_judgments_options(tmp_path, capsys) -> None:
    out = tmp_path / "scores.csv"
    code = main(["import", "inspect_scores", *map(str, INSPECT_SCORES), "-o", str(out), "--json"])
    account = json.loads(capsys.readouterr().out)
    assert code == 0
    table = read_table(out)
    assert list(table.columns) == ["generator", "item", "validator", "score"] and len(table) == 11
    assert not table["score"].isna().any() and account["n_scores"] == 11
    assert account["score_range"] == [1.0, 5.0]  # exact: a min and a max of values read
    assert np.isclose(table["score"].sum(), 5 + 4 + 2 + 4 + 4 + 4 + 3 + 3 + 1 + 2 + 3)
    code = main(["import", "mt_bench_scores", str(FIXTURES / "mt_bench_gpt-4_single.jsonl"),
                 "-o", str(tmp_path / "s.csv"), "--threshold", "7"])  # fmt: skip
    assert code == 1
    assert "--threshold set(s) a judgments import" in capsys.readouterr().err
    assert not (tmp_path / "s.csv").exists()
