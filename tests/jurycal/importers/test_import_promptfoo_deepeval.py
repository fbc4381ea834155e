"""promptfoo results and DeepEval test runs into the judgments table."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from jurycal.importers import (
    ImportFormatError,
    read_deepeval_run,
    read_promptfoo_results,
)
from jurycal.importers.records import short_hash

GPT4O = "openai:gpt-4o"
SONNET = "anthropic:messages:claude-3-5-sonnet-latest"  # the fixture's defaultTest grader
HAIKU = "anthropic:messages:claude-3-5-haiku-latest"


CARRIED = ("explanation", "score")


def rows(frame: pd.DataFrame) -> list[tuple]:
    return [
        tuple(None if v is pd.NA else v for v in row)
        for row in frame.drop(columns=[c for c in CARRIED if c in frame]).itertuples(index=False)
    ]


# fixtures/promptfoo_results.json by hand: generator = provider label ("mini") or id; the
# llm-rubric names its provider; factuality has none, so defaultTest's grader; the grader error
# is missing; the factuality inside the assert-set is read; "contains" is not a judge; r4 errored
# before grading and gives no vote.
PROMPTFOO_EXPECTED = [
    ("mini", "0", GPT4O, 1),
    ("mini", "0", SONNET, 1),
    ("mini", "1", GPT4O, 0),
    ("mini", "1", SONNET, None),
    (HAIKU, "0", GPT4O, 1),
    (HAIKU, "0", SONNET, 0),
]


def test_promptfoo_reads_into_exact_rows(fixtures: Path) -> None:
    result = read_promptfoo_results(fixtures / "promptfoo_results.json")
    assert rows(result.judgments) == PROMPTFOO_EXPECTED
    assert rows(result.human) == [("mini", "1", 1)]
    assert result.threshold_used is None
    assert result.unknown_fields == ("result.cacheHit",)
    notes = " | ".join(result.notes)
    assert "1 deterministic assertions (not judges) skipped" in notes
    assert "1 grader errors read as missing" in notes
    assert "1 results without a grading result" in notes


def test_promptfoo_threshold_reads_scores(fixtures: Path) -> None:
    result = read_promptfoo_results(fixtures / "promptfoo_results.json", threshold=0.85)
    # scores in the fixture: 1, 0.9, 0.3, (grader error), 0.8, 0.4
    assert result.judgments["label"].tolist() == [1, 1, 0, pd.NA, 0, 0]
    assert result.threshold_used == 0.85  # exact: a threshold passed through as given


def test_promptfoo_items_by_vars_hash(fixtures: Path) -> None:
    result = read_promptfoo_results(fixtures / "promptfoo_results.json", item_key="vars")
    cats = short_hash({"text": "cats sleep a lot"})
    assert result.judgments["item"].iloc[0] == cats
    assert set(result.judgments["item"]) == {cats, short_hash({"text": "dogs bark"})}


def test_promptfoo_several_prompts_name_the_prompt(fixtures: Path, tmp_path: Path) -> None:
    data = json.loads((fixtures / "promptfoo_results.json").read_text())
    data["results"]["results"][2]["promptIdx"] = 1
    path = tmp_path / "two_prompts.json"
    path.write_text(json.dumps(data))
    # promptfoo numbers every provider x prompt pair: promptIdx alone is not another prompt.
    generators = set(read_promptfoo_results(path).judgments["generator"])
    assert generators == {"mini", HAIKU}
    for result in data["results"]["results"][2:]:
        result["promptId"] = "p1"
        result["prompt"] = {"raw": "Summarise briefly: {{text}}", "label": "brief"}
    path.write_text(json.dumps(data))
    generators = set(read_promptfoo_results(path).judgments["generator"])
    assert generators == {"mini [summarise]", f"{HAIKU} [brief]"}


def test_promptfoo_two_rubrics_by_one_grader_stay_two_validators(tmp_path: Path) -> None:
    rubric = {"pass": True, "score": 1, "assertion": {"type": "llm-rubric", "provider": GPT4O}}
    failing = {"pass": False, "score": 0, "assertion": {"type": "llm-rubric", "provider": GPT4O}}
    data = {"results": {"version": 3, "results": [
        {"provider": {"id": "p"}, "promptIdx": 0, "testIdx": 0,
         "gradingResult": {"pass": False, "componentResults": [rubric, failing]}}]}}  # fmt: skip
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    result = read_promptfoo_results(path)
    assert rows(result.judgments) == [
        ("p", "0", f"{GPT4O}:llm-rubric", 1),
        ("p", "0", f"{GPT4O}:llm-rubric#2", 0),
    ]


def test_promptfoo_rejects_other_files_by_name(fixtures: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"inspect_log\.json: not a promptfoo output file"):
        read_promptfoo_results(fixtures / "inspect_log.json")
    with pytest.raises(ValueError, match=r"item_key \('hash'\) not recognized"):
        read_promptfoo_results(fixtures / "promptfoo_results.json", item_key="hash")


# fixtures/deepeval_latest_test_run.json by hand: one evaluation model (gpt-4.1) serves two
# metrics, so the validators are "gpt-4.1:<metric>"; the errored Faithfulness is missing.
DEEPEVAL_EXPECTED = [
    ("support-bot-v3", "test_case_0", "gpt-4.1:Answer Relevancy", 1),
    ("support-bot-v3", "test_case_0", "gpt-4.1:Faithfulness", 1),
    ("support-bot-v3", "test_case_1", "gpt-4.1:Answer Relevancy", 0),
    ("support-bot-v3", "test_case_1", "gpt-4.1:Faithfulness", None),
]


def test_deepeval_reads_into_exact_rows(fixtures: Path) -> None:
    result = read_deepeval_run(
        fixtures / "deepeval_latest_test_run.json", generator="support-bot-v3"
    )
    assert rows(result.judgments) == DEEPEVAL_EXPECTED
    assert result.human.empty
    assert result.unknown_fields == ("testCase.sentiment",)
    assert any("generator not recorded; taken from the argument" in n for n in result.notes)
    assert any("1 metrics that errored read as missing" in n for n in result.notes)


def test_deepeval_without_a_generator_asks_for_one(fixtures: Path) -> None:
    with pytest.raises(ValueError, match=r"does not record the generator .* pass generator="):
        read_deepeval_run(fixtures / "deepeval_latest_test_run.json")


def test_deepeval_recorded_model_is_the_generator(fixtures: Path, tmp_path: Path) -> None:
    data = json.loads((fixtures / "deepeval_latest_test_run.json").read_text())["testRunData"]
    data["hyperparameters"] = {"model": "gpt-4o-mini", "prompt template": "v2"}
    path = tmp_path / "run.json"
    path.write_text(json.dumps(data))  # a run saved without the testRunData wrapper
    result = read_deepeval_run(path)
    assert set(result.judgments["generator"]) == {"gpt-4o-mini"}
    assert not any("not recorded" in n for n in result.notes)


def test_deepeval_threshold_reads_scores(fixtures: Path) -> None:
    path = fixtures / "deepeval_latest_test_run.json"
    result = read_deepeval_run(path, threshold=0.95, generator="g")
    assert result.judgments["label"].tolist() == [0, 1, 0, pd.NA]
    assert result.threshold_used == 0.95  # exact: a threshold passed through as given


def test_deepeval_rejects_other_files_by_name(fixtures: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"alpaca_eval_annotations\.json: not a DeepEval"):
        read_deepeval_run(fixtures / "alpaca_eval_annotations.json", generator="g")
