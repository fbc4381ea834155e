"""The bundled sample of messy responses: provenance, and the repair against the paper's figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from repair import PAPER_LEVELS, repair_judgments

from .test_pipeline import check_accounting

SCRIPT = Path(__file__).resolve().parents[2] / "repair" / "datasets" / "make_repair_sample.py"


def test_sample_shapes(sample, votes):
    items, outputs = sample
    assert list(items.columns) == ["generator", "task", "item", "line", "feedback"]
    assert len(items) == 5972 and items["generator"].nunique() == 6
    assert not outputs.duplicated(["generator", "task", "validator"]).any()
    # One response per (generator, task, validator) but the few simulated as absent.
    n_tasks = items[["generator", "task"]].drop_duplicates().shape[0]
    assert 0.99 * 14 * n_tasks < len(outputs) <= 14 * n_tasks
    assert set(outputs["validator"]) == set(votes["validator"])


@pytest.mark.slow  # stays: the bundled sample must be what its script makes, and only running it tells
def test_sample_is_reproducible_from_its_script(sample):
    spec = importlib.util.spec_from_file_location("make_repair_sample", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    items, outputs, truth = module.make_repair_sample()
    bundled_items, bundled_outputs = sample
    pd.testing.assert_frame_equal(  # exact: strings and integers from a file round trip
        items.reset_index(drop=True), bundled_items, check_dtype=False
    )
    assert outputs["raw"].fillna("").tolist() == bundled_outputs["raw"].fillna("").tolist()
    assert (
        outputs[["generator", "task", "validator"]].values.tolist()
        == bundled_outputs[["generator", "task", "validator"]].values.tolist()
    )


def test_repair_cuts_the_missing_rate_like_the_paper(sample, sample_run):
    # Paper App. B.2-B.3: 9.4 % of the validator outputs unusable as produced, 3.2 % after repair.
    items, outputs = sample
    judgments, report = sample_run
    check_accounting(items, outputs, judgments, report)
    assert 0.085 < report.missing_rate_before < 0.105
    assert report.missing_rate_after < 0.035
    assert report.missing_rate_before / report.missing_rate_after > 2.5
    # Fig. 8: validators differ a lot in how often their outputs fail.
    rates = report.by_validator["rate_before"]
    assert rates.max() > 3 * rates.min()


def test_repair_recovers_the_votes(sample_run, votes):
    judgments, _ = sample_run
    merged = judgments.merge(votes, on=["generator", "item", "validator"], suffixes=("", "_vote"))
    assert len(merged) == len(votes)
    voted = merged[merged["label_vote"].notna()]
    labelled = voted[voted["label"].notna()]
    assert len(labelled) > 0.99 * len(voted)
    assert (labelled["label"] == labelled["label_vote"]).mean() > 0.999


def test_the_papers_levels_each_repair_more(sample):
    items, outputs = sample
    items = items[items["generator"] == "claude_3_opus"]
    outputs = outputs[outputs["generator"] == "claude_3_opus"]
    rates = []
    for level in PAPER_LEVELS.values():
        _, report = repair_judgments(items, outputs, repairs=level, progress=False)
        rates.append(report.missing_rate_after)
    assert rates[0] == report.missing_rate_before  # exact: a share of integer counts, one rounding
    assert all(a > b for a, b in zip(rates, rates[1:], strict=False))


def test_the_bundled_datas_levels_are_the_papers_levels():
    from regression.datasets import REPAIR_LEVELS

    assert REPAIR_LEVELS == tuple(PAPER_LEVELS)
