"""Calibration anchors pooled from confusion tables or human labels (regression.data.anchors)."""

import numpy as np
import pandas as pd
import pytest

from regression.data.anchors import Anchors, confusion_from_judgments
from regression.datasets import load_agreeableness_judgments, load_confusion
from regression.errors import DuplicateRowError


def test_pooled_anchors_match_the_data_readme_facts():
    # regression/datasets/README.md: pooled over the 6 annotated generators,
    # TPR 0.84-0.98 and TNR 0.14-0.54 per validator (repaired data).
    anchors = Anchors.from_confusion(load_confusion("feedback+lines+labels"))
    assert (
        round(anchors.tpr.min(), 2) == 0.84  # exact: integer counts; rates rounded to 2 decimals
        and round(anchors.tpr.max(), 2)  # exact: integer counts; rates rounded to 2 decimals
        == 0.98
    )
    assert (
        round(anchors.tnr.min(), 2) == 0.14  # exact: integer counts; rates rounded to 2 decimals
        and round(anchors.tnr.max(), 2)  # exact: integer counts; rates rounded to 2 decimals
        == 0.54
    )


def test_pooling_sums_counts_before_dividing():
    # The released code: stats += VALIDATOR_COUNTS[gen]; TPR = tp / (tp + fn) of the sums.
    conf = load_confusion("none")
    anchors = Anchors.from_confusion(conf, ["gpt-4o", "gpt-4-turbo"])
    rows = conf[(conf.validator == "gpt-4o") & conf.generator.isin(["gpt-4o", "gpt-4-turbo"])]
    assert anchors.tpr["gpt-4o"] == pytest.approx(rows.tp.sum() / (rows.tp.sum() + rows.fn.sum()))
    assert anchors.tnr_n["gpt-4o"] == rows.tn.sum() + rows.fp.sum()
    assert anchors.pooled_from == ("gpt-4o", "gpt-4-turbo")


def test_human_labels_reproduce_the_released_confusion_tables():
    judgments, human = load_agreeableness_judgments("feedback")
    mine = (
        confusion_from_judgments(judgments, human)
        .set_index(["generator", "validator"])
        .sort_index()
    )
    released = load_confusion("feedback").set_index(["generator", "validator"]).sort_index()
    pd.testing.assert_frame_equal(  # exact: integer counts; rates rounded to 2 decimals
        mine, released[mine.columns].loc[mine.index], check_dtype=False
    )
    anchors = Anchors.from_human_labels(judgments, human, ["gpt-4o"])
    assert anchors.precision["gpt-4o"] == pytest.approx(
        human[human.generator == "gpt-4o"].human.mean()
    )


def test_generator_without_invalid_items_skips_the_tnr_anchor_and_says_so():
    conf = pd.DataFrame(
        {
            "generator": ["g1", "g1"],
            "validator": ["v", "w"],
            "tp": [9, 8],
            "fn": [1, 2],
            "fp": [0, 0],
            "tn": [0, 0],
        }
    )
    anchors = Anchors.from_confusion(conf, ["g1"], precision={"g1": 1.0})
    assert len(anchors.tnr) == 0 and len(anchors.tpr) == 2
    assert any("no human-invalid items" in note for note in anchors.notes)
    assert any("'v' saw no human-invalid item" in note for note in anchors.notes)


def test_bad_anchor_inputs_name_the_value():
    conf = load_confusion("none")
    with pytest.raises(
        ValueError, match=r"calibration generator\(s\) \['nope'\] not in the confusion table"
    ):
        Anchors.from_confusion(conf, ["nope"])
    with pytest.raises(
        ValueError, match=r"precision misses calibration generator\(s\) \['gpt-4o'\]"
    ):
        Anchors.from_confusion(conf, ["gpt-4o"], precision={"gpt-4-turbo": 0.9})
    with pytest.raises(ValueError, match=r"tpr must lie in \[0, 1\]; got 1.5"):
        Anchors(tpr={"v": 1.5})
    with pytest.raises(
        DuplicateRowError,
        match=r"confusion repeats \(generator, validator\) = \('gpt-4o', 'gpt-4o'\) at row \d+",
    ):
        Anchors.from_confusion(pd.concat([conf, conf.iloc[[2]]]))
    with pytest.raises(ValueError, match=r"tp must be non-negative whole counts; got -1"):
        Anchors.from_confusion(conf.assign(tp=-1))


def test_plain_values_and_empty():
    anchors = Anchors(precision={"g": 0.9}, tpr={"v": 0.95, "w": np.nan})
    assert list(anchors.tpr.index) == ["v"] and not anchors.has_counts
    assert Anchors.from_confusion(load_confusion("none"), []).is_empty
