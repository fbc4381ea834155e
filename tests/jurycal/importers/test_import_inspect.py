"""Inspect AI logs (.json and .eval) into the judgments table."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest

from jurycal.importers import ImportFormatError, read_inspect_log

GRADER = "anthropic/claude-3-5-haiku-latest"  # the scorer's configured grader model
MINI = "openai/gpt-4o-mini"

# Expected rows of fixtures/inspect_log.json, by hand from the file: C -> 1, I -> 0,
# grade_parse_failure -> missing, P -> missing (default), N -> missing; sample 8's vote is the
# scorer's original I (history[0]); the person's edit to C is the human label.
EXPECTED = [
    (MINI, "paris#1", GRADER, 1),
    (MINI, "paris#1", "panel_qa", 1),
    (MINI, "paris#2", GRADER, 0),
    (MINI, "paris#2", "panel_qa", 0),
    (MINI, "7#1", GRADER, None),
    (MINI, "7#1", "panel_qa", None),
    (MINI, "8#1", GRADER, 0),
    (MINI, "8#1", "panel_qa", None),
]


CARRIED = ("explanation", "score")


def rows(frame: pd.DataFrame) -> list[tuple]:
    return [
        tuple(None if v is pd.NA else v for v in row)
        for row in frame.drop(columns=[c for c in CARRIED if c in frame]).itertuples(index=False)
    ]


def test_json_log_reads_into_exact_rows(fixtures: Path) -> None:
    result = read_inspect_log(fixtures / "inspect_log.json")
    assert rows(result.judgments) == EXPECTED
    assert str(result.judgments["label"].dtype) == "Int64"
    assert rows(result.human) == [(MINI, "8#1", 1)]
    assert result.threshold_used is None
    assert result.source_format == "inspect"
    assert result.unknown_fields == ("sample.review_queue",)


def test_notes_say_what_the_log_could_not(fixtures: Path) -> None:
    notes = " | ".join(read_inspect_log(fixtures / "inspect_log.json").notes)
    assert "keeps only their combined grade" in notes and "panel_qa" in notes
    assert "1 partial grades P read as missing" in notes
    assert "1 unscored grades (grade_parse_failure) read as missing" in notes
    assert "3 of 8 votes have no usable verdict" in notes


def test_eval_zip_reads_like_the_json_log(
    fixtures: Path, tmp_path: Path, eval_zip: Callable[..., Path]
) -> None:
    log = json.loads((fixtures / "inspect_log.json").read_text())
    path = eval_zip(tmp_path / "run.eval", log)
    result = read_inspect_log(path)
    assert sorted(rows(result.judgments), key=str) == sorted(EXPECTED, key=str)
    assert rows(result.human) == [(MINI, "8#1", 1)]


def test_eval_zip_without_samples_falls_back_to_summaries(
    fixtures: Path, tmp_path: Path, eval_zip: Callable[..., Path]
) -> None:
    log = json.loads((fixtures / "inspect_log.json").read_text())
    result = read_inspect_log(eval_zip(tmp_path / "run.eval", log, samples=False))
    assert len(result.judgments) == len(EXPECTED)
    assert any("read summaries.json" in note for note in result.notes)


def test_a_directory_reads_every_log_in_it(
    fixtures: Path, tmp_path: Path, eval_zip: Callable[..., Path]
) -> None:
    log = json.loads((fixtures / "inspect_log.json").read_text())
    eval_zip(tmp_path / "a.eval", log)
    log["eval"]["model"] = "openai/gpt-4o"
    (tmp_path / "b.json").write_text(json.dumps(log))
    result = read_inspect_log(tmp_path)
    assert set(result.judgments["generator"]) == {MINI, "openai/gpt-4o"}
    assert len(result.judgments) == 2 * len(EXPECTED)


@pytest.mark.parametrize(("policy", "label"), [("missing", None), ("valid", 1), ("invalid", 0)])
def test_partial_grade_follows_the_flag(fixtures: Path, policy: str, label: int | None) -> None:
    result = read_inspect_log(fixtures / "inspect_log.json", partial=policy)
    row = result.judgments.query("item == '7#1' and validator == 'panel_qa'")["label"].iloc[0]
    assert (None if row is pd.NA else row) == label


def test_unknown_partial_policy_is_refused(fixtures: Path) -> None:
    with pytest.raises(ValueError, match=r"partial \('half'\) not recognized"):
        read_inspect_log(fixtures / "inspect_log.json", partial="half")


def log_with_values(values: list[object], explanation: str | None = None) -> dict:
    samples = [
        {"id": i, "epoch": 1, "scores": {"judge": {"value": v, "explanation": explanation}}}
        for i, v in enumerate(values)
    ]
    return {"eval": {"task": "t", "model": "m"}, "samples": samples}


def test_numeric_scores_use_the_threshold(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with_values([0.2, 0.5, 0.9, 1, 0, True])))
    default = read_inspect_log(path)
    assert default.judgments["label"].tolist() == [0, 1, 1, 1, 0, 1]
    assert default.threshold_used == 0.5  # exact: a threshold passed through as given
    strict = read_inspect_log(path, threshold=0.95)
    assert strict.judgments["label"].tolist() == [0, 0, 0, 1, 0, 1]
    assert strict.threshold_used == 0.95  # exact: a threshold passed through as given


def test_binary_scores_need_no_threshold(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with_values([1, 0, "yes", "false"])))
    result = read_inspect_log(path)
    assert result.judgments["label"].tolist() == [1, 0, 1, 0]
    assert result.threshold_used is None


def test_grades_outside_unit_interval_need_a_threshold(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with_values([3, 8])))
    with pytest.raises(ValueError, match=r"numeric score 3.0, outside \[0, 1\]: pass a threshold"):
        read_inspect_log(path)
    assert read_inspect_log(path, threshold=7).judgments["label"].tolist() == [0, 1]


def test_old_style_parse_failure_is_missing_not_zero(tmp_path: Path) -> None:
    # Inspect before Score.unscored wrote INCORRECT with this explanation (scorer/_model.py).
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with_values(["I"], "Grade not found in model output: hmm")))
    assert read_inspect_log(path).judgments["label"].isna().all()


def test_unknown_grade_is_missing_and_noted(tmp_path: Path) -> None:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(log_with_values(["B+"])))
    result = read_inspect_log(path)
    assert result.judgments["label"].isna().all()
    assert any("'B+' is not C/P/I/N" in note for note in result.notes)


def test_the_same_log_twice_is_refused_naming_both_files(fixtures: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.json"
    copy.write_text((fixtures / "inspect_log.json").read_text())
    with pytest.raises(
        ValueError, match=r"appears in .*inspect_log\.json.* and .*copy.*--duplicates last"
    ):
        read_inspect_log([fixtures / "inspect_log.json", copy])


def test_a_file_that_is_not_a_log_is_rejected_by_name(fixtures: Path, tmp_path: Path) -> None:
    with pytest.raises(ImportFormatError, match=r"promptfoo_results\.json: not an Inspect AI log"):
        read_inspect_log(fixtures / "promptfoo_results.json")
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(ImportFormatError, match=r"broken\.json: not an Inspect AI log.*line 1"):
        read_inspect_log(broken)


def test_a_zip_that_is_not_an_eval_log_is_rejected(tmp_path: Path) -> None:
    import zipfile

    path = tmp_path / "other.eval"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(ImportFormatError, match=r"other\.eval: a zip, but not an Inspect AI log"):
        read_inspect_log(path)


def test_missing_path_is_named(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="nowhere.eval"):
        read_inspect_log(tmp_path / "nowhere.eval")
