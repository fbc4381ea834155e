"""Fuzzy alignment of validator entries with generator items (agreeableness paper §4, App. B.3)."""

from __future__ import annotations

import numpy as np
import pytest
from rapidfuzz import fuzz

from repair.alignment import (
    STAGE_EXACT,
    STAGE_FUZZY,
    EntryTexts,
    FeedbackTexts,
    align_entries,
    assign,
    process_text,
    text_scores,
)

from .conftest import SWAP_FEEDBACK


def _lines(values):
    return {
        "start": np.array([v[0] if v else -1 for v in values], dtype=np.int64),
        "end": np.array([v[1] if v else -1 for v in values], dtype=np.int64),
        "line_key": np.array([f"{v[0]}" if v else None for v in values], dtype=object),
    }


def _items(texts, lines, block=None):
    block = np.zeros(len(texts), dtype=np.int64) if block is None else np.asarray(block)
    return FeedbackTexts(block=block, text=np.array(texts, dtype=object), **_lines(lines))


def _entries(texts, lines, block=None):
    items = _items(texts, lines, block)
    return EntryTexts(**vars(items), group=np.zeros(len(texts), dtype=np.int64))


def _align(entry_texts, entry_lines, item_texts, item_lines, **kwargs):
    kwargs = {"threshold": 85.0, "fuzzy": True, "repair_lines": True} | kwargs
    return align_entries(
        _entries(entry_texts, entry_lines), _items(item_texts, item_lines), **kwargs
    )


def test_scores_forgive_clipping_and_dropped_words_but_not_other_feedback():
    items = process_text(SWAP_FEEDBACK)
    lazy = process_text(
        [
            SWAP_FEEDBACK[0][:60] + "...",  # clipped prefix
            "statement x, y = x, y assigns each variable to itself, nothing is exchanged",  # words dropped
            "Add comments to explain the swap.",  # another feedback
        ]
    )
    scores = text_scores(lazy, items, threshold=85)
    assert scores.shape == (3, 3)
    assert scores[0, 0] == 100 and scores[1, 1] >= 85
    assert np.all(scores[2] == 0)
    # The score is max(token_set_ratio, partial_ratio) on processed text (module docstring).
    expected = max(fuzz.token_set_ratio(lazy[1], items[1]), fuzz.partial_ratio(lazy[1], items[1]))
    # exact: the same two rapidfuzz calls the code makes
    assert scores[1, 1] == np.float32(expected)


def test_short_texts_use_the_plain_ratio():
    items = process_text(
        ["Use elif here.", "Use elif instead of a second if on line 4 and line 5."]
    )
    scores = text_scores(process_text(["use elif"]), items, threshold=50)
    assert scores[0, 1] == 0  # partial / token-set would give 100 to any text containing "use elif"
    assert 50 <= scores[0, 0] < 100


def test_assign_is_one_to_one_not_greedy():
    # Entries 0 and 1 of one response both score best on item 7; a greedy pass would give item 7
    # twice. The assignment gives entry 1 its second choice (item 8), maximising the total.
    group = np.array([0, 0, 0, 0])
    row = np.array([0, 0, 1, 1])
    col = np.array([7, 8, 7, 8])
    chosen = assign(group, row, col, np.array([99.0, 60.0, 98.0, 90.0]))
    assert chosen.tolist() == [True, False, False, True]
    # Different responses never compete.
    chosen = assign(np.array([0, 1]), np.array([0, 1]), np.array([7, 7]), np.array([90.0, 95.0]))
    assert chosen.tolist() == [True, True]


def test_exact_text_wins_and_fuzzy_fills_in():
    result = _align(
        [SWAP_FEEDBACK[0], SWAP_FEEDBACK[1][:70]],
        [(1, 1), None],
        SWAP_FEEDBACK,
        [(1, 1), (2, 3), (4, 4)],
    )
    assert result.item.tolist() == [0, 1]
    assert result.stage.tolist() == [STAGE_EXACT, STAGE_FUZZY]
    assert result.score[0] == 100


def test_duplicated_texts_are_told_apart_by_line():
    text = "Use integer division '//' instead of '/' to remove the extracted digit."
    result = _align([text, text], [(5, 5), (2, 2)], [text, text], [(2, 2), (5, 5)])
    assert result.item.tolist() == [1, 0]
    # A range is matched by its start line when no item has the same range (paper §4).
    result = _align([text, text], [(5, 7), (2, 3)], [text, text], [(2, 2), (5, 5)])
    assert result.item.tolist() == [1, 0]


def test_near_ties_go_to_the_line_but_a_clearly_better_text_wins():
    items = [
        "The syntax for converting to string is incorrect. Use 'name = str(name)' instead.",
        "The syntax for converting to string is incorrect. Use 'age = str(age)' instead.",
    ]
    clipped = "The syntax for converting to string is incorrect. Use"
    result = _align([clipped], [(5, 5)], items, [(4, 4), (5, 5)])
    assert result.item.tolist() == [1]  # both score 100: the line decides
    result = _align([items[0]], [(5, 5)], items, [(4, 4), (5, 5)])
    assert result.item.tolist() == [0]  # exact text beats a wrong line


def test_without_line_repair_the_line_must_be_written_as_the_item():
    result = _align(
        [SWAP_FEEDBACK[0]], [(2, 2)], SWAP_FEEDBACK, [(1, 1), (2, 3), (4, 4)], repair_lines=False
    )
    assert result.item.tolist() == [-1] and not result.had_candidate[0]


def test_without_feedback_repair_only_exact_text_matches():
    result = _align(
        [SWAP_FEEDBACK[0][:70]], [(1, 1)], SWAP_FEEDBACK, [(1, 1), (2, 3), (4, 4)], fuzzy=False
    )
    assert result.item.tolist() == [-1]


def test_threshold_is_the_least_score_kept():
    entry = ["x, y = x, y assigns every variable to itself; nothing is swapped. Write x, y = y, x."]
    score = float(
        text_scores(process_text(entry), process_text([SWAP_FEEDBACK[1]]), threshold=1)[0, 0]
    )
    assert 85 < score < 90  # a paraphrase: token-set ratio 87.0
    for threshold, matched in ((score - 0.01, 0), (score + 0.01, -1)):  # float32 scores
        result = _align([entry[0]], [None], [SWAP_FEEDBACK[1]], [None], threshold=threshold)
        assert result.item.tolist() == [matched]


def test_entries_without_text_or_block_are_skipped():
    result = align_entries(
        _entries([None, SWAP_FEEDBACK[0]], [None, None], block=[0, -1]),
        _items(SWAP_FEEDBACK[:1], [None]),
        threshold=85,
        fuzzy=True,
        repair_lines=True,
    )
    assert result.item.tolist() == [-1, -1]


def test_texts_of_unequal_length_are_refused():
    with pytest.raises(ValueError, match=r"FeedbackTexts.text has 2 values; block has 1"):
        FeedbackTexts(
            block=np.zeros(1, dtype=np.int64),
            text=np.array(["a", "b"], dtype=object),
            **_lines([None]),
        )
    with pytest.raises(ValueError, match=r"EntryTexts.group has 3 values; block has 1"):
        EntryTexts(**vars(_items(["a"], [None])), group=np.zeros(3, dtype=np.int64))
