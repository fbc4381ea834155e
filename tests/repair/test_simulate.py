"""The simulator of messy validator responses (prompt format: agreeableness paper App. A.2)."""

from __future__ import annotations

import json
from dataclasses import fields

import numpy as np
import pandas as pd
import pytest

from repair import ALL, NONE, MessRates, repair_judgments, simulate_validator_outputs

CLEAN = MessRates(**{f.name: 0.0 for f in fields(MessRates)})


@pytest.fixture(scope="module")
def small(sample, votes):
    """The real items and votes of the first 120 tasks of two generators, three validators."""
    items, _ = sample
    items = items[items["generator"].isin(["gpt-4o", "claude_3_opus"]) & (items["task"] <= 120)]
    labels = votes[votes["validator"].isin(["gpt-4.1", "gemini-1.5-flash", "deepseek-chat"])]
    labels = labels.merge(items[["generator", "item"]], on=["generator", "item"])
    return items.reset_index(drop=True), labels.reset_index(drop=True)


def test_clean_responses_are_the_prompt_format_and_carry_the_labels(small):
    items, labels = small
    sim = simulate_validator_outputs(items, labels, rates=CLEAN, seed=3, progress=False)
    assert (
        sim.outputs["raw"]
        .map(lambda r: set(json.loads(r)) == {"mistakes", "fixes", "feedback_lines"})
        .all()
    )
    judgments, report = repair_judgments(items, sim.outputs, repairs=NONE, progress=False)
    merged = judgments.merge(
        sim.truth, on=["generator", "item", "validator"], suffixes=("", "_true")
    )
    assert len(merged) == len(labels)
    assert (merged["label"].isna() == merged["label_true"].isna()).all()  # a missing vote: no entry
    voted = merged["label_true"].notna()
    # exact: votes and labels are 0, 1 or NaN
    assert (merged.loc[voted, "label"] == merged.loc[voted, "label_true"]).all()
    assert (merged["recoverable"] == voted).all()  # exact: truth values


def test_same_seed_same_text_other_seed_other_text(small):
    items, labels = small
    a = simulate_validator_outputs(items, labels, seed=11, progress=False)
    b = simulate_validator_outputs(items, labels, seed=11, progress=False)
    c = simulate_validator_outputs(items, labels, seed=12, progress=False)
    pd.testing.assert_frame_equal(a.outputs, b.outputs)  # exact: same seed, same path
    pd.testing.assert_frame_equal(a.truth, b.truth)  # exact: same seed, same path
    # exact: other seeds draw other outputs: a difference, not a rounding
    assert not a.outputs["raw"].equals(c.outputs["raw"])


def _only(kind: str, rate: float) -> MessRates:
    return MessRates(**({f.name: 0.0 for f in fields(MessRates)} | {kind: rate}))


ENTRY_KINDS = [
    "key_variants",
    "label_synonyms",
    "line_formats",
    "shortened_feedback",
    "dropped_entry",
]


@pytest.mark.parametrize("kind", ENTRY_KINDS)
def test_each_entry_mess_at_its_rate(small, kind):
    items, labels = small
    rate = 0.3
    sim = simulate_validator_outputs(items, labels, rates=_only(kind, rate), seed=5, progress=False)
    voted = sim.truth["label"].notna()
    hit = sim.truth.loc[voted, "mess"].str.contains(kind)
    n = int(voted.sum())
    # Bernoulli(rate) per entry: within 4 Monte Carlo standard errors (shortening skips texts of
    # fewer than 6 words, so it is marked on every draw but changes only longer texts).
    assert abs(hit.mean() - rate) < 4 * np.sqrt(rate * (1 - rate) / n)


@pytest.mark.parametrize(
    "kind",
    [
        "missing_output",
        "truncation",
        "python_literals",
        "top_level_list",
        "trailing_commas",
        "extra_entries",
    ],
)
def test_each_response_mess_at_its_rate(small, kind):
    items, labels = small
    rate = 0.3
    sim = simulate_validator_outputs(items, labels, rates=_only(kind, rate), seed=6, progress=False)
    per_response = sim.truth.merge(items[["generator", "item", "task"]], on=["generator", "item"])
    per_response = per_response.groupby(["generator", "task", "validator"])["mess"].first()
    hit = per_response.str.contains(kind)
    n = len(per_response)
    assert abs(hit.mean() - rate) < 4 * np.sqrt(rate * (1 - rate) / n)


def test_repair_recovers_the_recoverable_pairs_under_heavy_mess(small):
    items, labels = small
    heavy = MessRates().scaled(4.0)
    sim = simulate_validator_outputs(items, labels, rates=heavy, seed=9, progress=False)
    judgments, report = repair_judgments(items, sim.outputs, repairs=ALL, progress=False)
    merged = judgments.merge(
        sim.truth, on=["generator", "item", "validator"], suffixes=("", "_true")
    )
    recoverable = merged[merged["recoverable"]]
    assert recoverable["label"].notna().mean() > 0.98
    labelled = recoverable[recoverable["label"].notna()]
    assert (labelled["label"] == labelled["label_true"]).mean() > 0.999
    assert merged.loc[~merged["recoverable"], "label"].isna().all()
    assert report.missing_rate_before > 2 * report.missing_rate_after


def test_validator_scale_silences_a_validator(small):
    items, labels = small
    sim = simulate_validator_outputs(
        items,
        labels,
        rates=MessRates(fence=0.0).scaled(5.0),
        validator_scale={"gpt-4.1": 0.0},
        seed=2,
        progress=False,
    )
    clean = sim.truth[sim.truth["validator"] == "gpt-4.1"]
    assert set(clean["mess"]) <= {"", "no_vote"}
    assert (sim.truth[sim.truth["validator"] != "gpt-4.1"]["mess"] != "").mean() > 0.2


def test_bad_simulation_input(small):
    items, labels = small
    with pytest.raises(ValueError, match=r"prose must lie in \[0, 1\]; got 1.5"):
        MessRates(prose=1.5)
    with pytest.raises(ValueError, match=r"rates must be a MessRates; got dict"):
        simulate_validator_outputs(items, labels, rates={"prose": 0.1})
    with pytest.raises(ValueError, match=r"labels is missing column\(s\) \['label'\]"):
        simulate_validator_outputs(items, labels.drop(columns="label"))
    with pytest.raises(
        ValueError, match=r"pair without a generator item: generator 'gpt-4o', item 99999"
    ):
        extra = pd.DataFrame(
            {"generator": ["gpt-4o"], "item": [99999], "validator": ["gpt-4.1"], "label": [1]}
        )
        simulate_validator_outputs(items, pd.concat([labels, extra]))
    with pytest.raises(
        ValueError, match=r"validator_scale\['gpt-4.1'\] \(-1\) must be a finite number >= 0"
    ):
        simulate_validator_outputs(items, labels, validator_scale={"gpt-4.1": -1})
