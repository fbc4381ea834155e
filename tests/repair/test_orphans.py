"""Responses that meet no generator item: the reasons, the example keys, the close-match hints."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from repair.entries import parse_responses
from repair.orphans import close_match, orphan_reasons, orphan_table
from repair.pairs import ask_pairs
from repair.report import share

GENERATORS = ["gpt-4o", "gpt-4o-mini", "claude_3_opus"]


@pytest.mark.parametrize(
    ("value", "known", "hint"),
    [
        ("GPT-4o", GENERATORS, "'GPT-4o' matches 'gpt-4o' ignoring case"),
        ("gpt-4o ", GENERATORS, "'gpt-4o ' matches 'gpt-4o' ignoring surrounding spaces"),
        (
            " Claude_3_Opus",
            GENERATORS,
            "' Claude_3_Opus' matches 'claude_3_opus' ignoring case and surrounding spaces",
        ),
        # A CSV read the task as text, the JSON as a number (numpy scalars read as plain values).
        ("7", pd.Series([7, 8]), "'7' (text) matches 7 (int) ignoring type"),
        (np.int64(7), ["7", "8"], "7 (int) matches '7' (text) ignoring type"),
        # A close spelling: rapidfuzz ratio on lower-cased text with punctuation as spaces.
        ("gpt4o mini", GENERATORS, "'gpt4o mini' is close to 'gpt-4o-mini' (ratio 95)"),
        ("llama-3", GENERATORS, None),
        (9, [7, 8], None),
        ("x", [], None),
    ],
)
def test_close_match(value, known, hint):
    assert close_match(value, known) == hint


def test_close_match_threshold_is_the_least_ratio():
    assert close_match("gpt4o", ["gpt-4o"], threshold=90) is not None  # ratio 91
    assert close_match("gpt4o", ["gpt-4o"], threshold=92) is None


def test_reasons_and_table():
    items = pd.DataFrame({"generator": ["g", "g", "h"], "task": [1, 2, 3]})
    outputs = pd.DataFrame(
        {"generator": ["g", "G", "G", "g", "h", "x"], "task": [1, 1, 2, 5, 1, 1], "validator": "v"}
    )
    asked = ask_pairs(items, outputs)
    assert asked.orphan.tolist() == [False, True, True, True, True, True]
    reasons = orphan_reasons(items, outputs, asked.orphan)
    assert reasons.tolist() == [
        "",
        "unknown_generator",
        "unknown_generator",
        "unknown_task",
        "unknown_pair",
        "unknown_generator",
    ]
    orphans = outputs[asked.orphan].assign(reason=reasons[asked.orphan])
    table = orphan_table(orphans, items)
    assert table.to_dict("index") == {
        "unknown_generator": {
            "outputs": 3,
            "keys": 2,
            "examples": "'G' (2), 'x' (1)",
            "hint": "'G' matches 'g' ignoring case",
        },
        "unknown_task": {"outputs": 1, "keys": 1, "examples": "5 (1)", "hint": ""},
        "unknown_pair": {
            "outputs": 1,
            "keys": 1,
            "examples": "('h', 1) (1)",
            "hint": "generator 'h' has no item of task 1; generator(s) 'g' have",
        },
    }


def test_examples_show_the_most_frequent_keys_first_and_say_when_there_are_more():
    items = pd.DataFrame({"generator": ["g"], "task": [1]})
    orphans = pd.DataFrame(
        {"generator": ["a", "b", "b", "c", "d", "d", "d"], "task": 1, "reason": "unknown_generator"}
    )
    table = orphan_table(orphans, items)
    assert table.loc["unknown_generator", "examples"] == "'d' (3), 'b' (2), 'a' (1), ..."
    assert table.loc["unknown_generator", "keys"] == 4


def test_empty_orphans_give_an_empty_table():
    table = orphan_table(
        pd.DataFrame({"generator": [], "task": [], "reason": []}),
        pd.DataFrame({"generator": ["g"], "task": [1]}),
    )
    assert table.empty and list(table.columns) == ["outputs", "keys", "examples", "hint"]


def test_parse_responses_statuses():
    raws = np.array(
        [
            '{"feedback_lines": []}',
            "{'feedback_lines': [1]}",
            "   ",
            None,
            "no JSON",
            "{'feedback_lines': []}",
        ],
        dtype=object,
    )
    orphan = np.array([False, False, False, False, False, True])
    status, parsed = parse_responses(raws, orphan, tolerant=True)
    assert status.tolist() == [
        "strict",
        "tolerant",
        "missing_output",
        "missing_output",
        "unparseable",
        "orphan",
    ]
    assert parsed == [(0, False, []), (1, True, [1])]
    status, parsed = parse_responses(raws, orphan, tolerant=False)
    assert status[1] == "unparseable" and parsed == [(0, False, [])]


def test_share_never_says_nan():
    assert share(1, 3) == "33.3%" and share(0, 5) == "0.0%" and share(0, 0) == "none"
