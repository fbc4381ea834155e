"""One matching of validator entries to the asked pairs, under one set of repairs.

:func:`match_pairs` aligns the entries with the items (:mod:`repair.alignment`),
then gives every asked (item, validator) pair its label, or the first reason it
has none (the agreeableness paper's Fig. 8 failure types, App. B.2). It runs
once for the requested repairs and once with none, so the report can say what
the repairs bought.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .alignment import STAGE_FUZZY, EntryTexts, FeedbackTexts, align_entries
from .entries import MISSING_OUTPUT, UNPARSEABLE, Entries
from .pairs import AskedPairs
from .parsing import PARSE_TOLERANT
from .switches import FEEDBACK, LABELS, LINES, PARSING, Repair

__all__ = ["BAD_LABEL", "FAILURE_TYPES", "UNMATCHED", "Matching", "match_pairs", "repair_names"]

#: Why a pair has no label, in the order a pair meets them (the paper's Fig. 8 failure types):
#: no response, no entry readable from it, no entry matching the item, no readable label.
UNMATCHED, BAD_LABEL = "unmatched", "bad_label"
FAILURE_TYPES = (MISSING_OUTPUT, UNPARSEABLE, UNMATCHED, BAD_LABEL)

# The repairs a matched pair can have needed, in the order their names are joined.
_REPAIR_NAMES = ((PARSING, "parsing"), (FEEDBACK, "feedback"), (LINES, "lines"), (LABELS, "labels"))


@dataclass(frozen=True)
class Matching:
    """The entries matched to the asked pairs under one set of repairs.

    Attributes
    ----------
    label : ndarray of float
        Per pair: 1.0 (valid), 0.0 (invalid) or NaN (none).
    failure : ndarray of object
        Per pair: one of :data:`FAILURE_TYPES`, or ``""`` when it has a label.
    entry : ndarray of int
        Per pair: the matched entry (row of :class:`repair.entries.Entries`), ``-1`` for none.
    item_of : ndarray of int
        Per entry: the matched item, ``-1`` for none.
    stage : ndarray of int
        Per entry: how it was matched (:data:`repair.alignment.STAGE_FUZZY`, ...).
    had_candidate : ndarray of bool
        Per entry: some item scored above the threshold.
    usable : ndarray of bool
        Per entry: its response was read under these repairs (tolerant parsing
        needs ``PARSING``).
    """

    label: np.ndarray
    failure: np.ndarray
    entry: np.ndarray
    item_of: np.ndarray
    stage: np.ndarray
    had_candidate: np.ndarray
    usable: np.ndarray


def match_pairs(
    repairs: Repair,
    entries: Entries,
    items: FeedbackTexts,
    asked: AskedPairs,
    status: np.ndarray,
    *,
    threshold: float,
    progress: bool = False,
) -> Matching:
    """Align entries with items under ``repairs`` and label every asked pair.

    Parameters
    ----------
    repairs : Repair
        The repairs this matching may use.
    entries : Entries
        Every parsed entry (:func:`repair.entries.read_entries`).
    items : FeedbackTexts
        The generator items' texts, lines and blocks.
    asked : AskedPairs
        The asked pairs (:func:`repair.pairs.ask_pairs`).
    status : ndarray of object
        Each response's status (:func:`repair.entries.parse_responses`).
    threshold : float
        Least rapidfuzz score of a fuzzy match (the paper's 85, App. B.3).
    progress : bool, default False
        Show a progress bar in the fuzzy stage.

    Returns
    -------
    Matching

    Notes
    -----
    Agreeableness paper §4 and App. B.2-B.3. A pair fails, in this order, when
    its response is missing, when no entry can be read from it (a response
    read only by tolerant parsing counts as unreadable without ``PARSING``),
    when no entry matches the item, or when the matched entry's label is
    missing or unreadable.
    """
    usable = np.ones(len(entries), dtype=bool) if PARSING in repairs else ~entries.tolerant
    alignment = align_entries(
        EntryTexts(
            block=np.where(usable, asked.output_block[entries.output], -1),
            text=entries.text_any if FEEDBACK in repairs else entries.text_strict,
            start=entries.start,
            end=entries.end,
            line_key=entries.line_key,
            group=entries.output,
        ),
        items,
        threshold=threshold,
        fuzzy=FEEDBACK in repairs,
        repair_lines=LINES in repairs,
        progress=progress,
    )
    pair_item, pair_output = asked.pair_item, asked.pair_output
    n_items = max(len(items.block), 1)
    matched = np.flatnonzero(alignment.item >= 0)
    match_keys = pd.Index(entries.output[matched] * n_items + alignment.item[matched])
    entry = np.full(len(pair_item), -1, dtype=np.int64)
    has_output = pair_output >= 0
    found = match_keys.get_indexer(pair_output[has_output] * n_items + pair_item[has_output])
    entry[np.flatnonzero(has_output)[found >= 0]] = matched[found[found >= 0]]
    labels = entries.label_norm if LABELS in repairs else entries.label_strict
    label = np.where(entry >= 0, labels[np.maximum(entry, 0)] if len(labels) else np.nan, np.nan)
    pair_status = np.where(has_output, status[np.maximum(pair_output, 0)], MISSING_OUTPUT)
    if PARSING not in repairs:
        pair_status = np.where(pair_status == PARSE_TOLERANT, UNPARSEABLE, pair_status)
    failure = np.select(
        [pair_status == MISSING_OUTPUT, pair_status == UNPARSEABLE, entry < 0, np.isnan(label)],
        [MISSING_OUTPUT, UNPARSEABLE, UNMATCHED, BAD_LABEL],
        default="",
    ).astype(object)
    return Matching(
        label, failure, entry, alignment.item, alignment.stage, alignment.had_candidate, usable
    )


def repair_names(
    repairs: Repair, entries: Entries, matching: Matching, items: FeedbackTexts, asked: AskedPairs
) -> np.ndarray:
    """Per asked pair: the repairs its match needed joined by ``+``, ``exact``, or its failure type.

    Parameters
    ----------
    repairs : Repair
        The repairs of ``matching``; only these are named.
    entries : Entries
    matching : Matching
        The matching under ``repairs``.
    items : FeedbackTexts
        The generator items (their lines as written).
    asked : AskedPairs

    Returns
    -------
    ndarray of object
        ``exact``; names from ``parsing``, ``feedback``, ``lines``, ``labels``
        (e.g. ``feedback+labels``); or a failure type.
    """
    names = matching.failure.copy()
    ok = (matching.entry >= 0) & (matching.failure == "")
    entry, item = matching.entry[ok], asked.pair_item[ok]
    used = {
        "parsing": entries.tolerant[entry],
        "feedback": (matching.stage[entry] == STAGE_FUZZY)
        | np.fromiter(
            (
                a is None or a != b
                for a, b in zip(entries.text_strict[entry], entries.text_any[entry], strict=True)
            ),
            bool,
            len(entry),
        ),
        "lines": np.fromiter(
            (
                a is None or a != b
                for a, b in zip(entries.line_key[entry], items.line_key[item], strict=True)
            ),
            bool,
            len(entry),
        ),
        "labels": np.isnan(entries.label_strict[entry]),
    }
    joined = np.full(len(entry), "", dtype=object)
    for flag, name in _REPAIR_NAMES:
        if flag in repairs:
            joined = np.where(used[name], np.where(joined == "", name, joined + "+" + name), joined)
    names[ok] = np.where(joined == "", "exact", joined)
    return names.astype(object)
