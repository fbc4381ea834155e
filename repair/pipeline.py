"""``repair_judgments``: raw validator responses to the judgments table, with a report that loses nothing.

Agreeableness paper §3-4 and App. B.2-B.3: 9.4 % of the validator outputs
could not be used as produced ("missing or mismatched fields in the JSON
output"); repairing feedback text, line numbers and labels brought that to
3.2 %. :func:`repair_judgments` applies those repairs (and tolerant parsing)
in named steps: tie responses to the items they answer (:mod:`repair.pairs`),
read their entries (:mod:`repair.entries`), match entries to the asked pairs
with and without the repairs (:mod:`repair.matching`), and account for every
input row (:mod:`repair.report`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import JUDGMENT_COLUMNS, plain, refuse_repeats, require_columns

from .alignment import FeedbackTexts
from .entries import parse_responses, read_entries
from .labels import LabelPolicy
from .lines import parse_line, strict_line_key
from .matching import Matching, match_pairs, repair_names
from .orphans import nothing_matched_message, orphan_reasons, orphan_table
from .pairs import GENERATOR_ITEM_COLUMNS, VALIDATOR_OUTPUT_COLUMNS, AskedPairs, ask_pairs
from .report import RepairReport, build_report
from .switches import ALL, FUZZY_THRESHOLD, NONE, PARSING, Repair, check_repairs

__all__ = ["REPAIRED_COLUMNS", "repair_judgments"]

#: The repaired judgments table: the judgments schema, then the task, the repairs the label
#: needed (or why it is missing) and the validator's entry it came from.
REPAIRED_COLUMNS = (*JUDGMENT_COLUMNS, "task", "repair", "raw")

# Responses beyond this many get progress bars.
_PROGRESS_MIN = 10_000


def _check_inputs(
    generator_items: pd.DataFrame, validator_outputs: pd.DataFrame, fuzzy_threshold: float
) -> tuple[float, np.ndarray, np.ndarray]:
    """Validate the inputs; return the threshold, the feedback texts and the responses."""
    require_columns(generator_items, GENERATOR_ITEM_COLUMNS, "generator_items")
    require_columns(validator_outputs, VALIDATOR_OUTPUT_COLUMNS, "validator_outputs")
    bad_threshold = f"fuzzy_threshold ({fuzzy_threshold!r}) must be a number in (0, 100]."
    try:
        threshold = float(fuzzy_threshold)
    except (TypeError, ValueError):
        raise ValueError(bad_threshold) from None
    if not 0.0 < threshold <= 100.0:
        raise ValueError(bad_threshold)
    for frame, name, columns in (
        (generator_items, "generator_items", ("generator", "task", "item")),
        (validator_outputs, "validator_outputs", ("generator", "task", "validator")),
    ):
        for column in columns:
            missing = frame[column].isna().to_numpy()
            if missing.any():
                row = plain(frame.index[missing.argmax()])
                raise ValueError(f"{name}[{column!r}] has a missing value at row {row!r}.")
    refuse_repeats(
        generator_items,
        ["generator", "item"],
        "generator_items",
        "an item is unique within a generator",
    )
    refuse_repeats(
        validator_outputs,
        ["generator", "task", "validator"],
        "validator_outputs",
        "keep one response per (generator, task, validator)",
    )
    feedback = generator_items["feedback"].to_numpy(dtype=object)
    for position, text in enumerate(feedback):
        if not isinstance(text, str):
            raise ValueError(
                f"generator_items['feedback'] must be text; got {plain(text)!r} at row "
                f"{plain(generator_items.index[position])!r}."
            )
    raws = validator_outputs["raw"].to_numpy(dtype=object)
    for position, raw in enumerate(raws):
        if not (isinstance(raw, str) or _is_missing(raw)):
            raise ValueError(
                f"validator_outputs['raw'] must be text (or missing); got {type(raw).__name__} "
                f"{raw!r:.60} at row {plain(validator_outputs.index[position])!r}."
            )
    return threshold, feedback, raws


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


def _check_policy(label_policy: LabelPolicy | None) -> LabelPolicy:
    policy = LabelPolicy() if label_policy is None else label_policy
    if not isinstance(policy, LabelPolicy):
        raise ValueError(f"label_policy must be a LabelPolicy; got {type(policy).__name__}.")
    return policy


def _require_a_match(
    generator_items: pd.DataFrame, validator_outputs: pd.DataFrame, asked: AskedPairs
) -> None:
    """Raise when there are responses and every one of them is an orphan."""
    if len(validator_outputs) == 0 or not asked.orphan.all():
        return
    orphans = validator_outputs[["generator", "task"]].assign(
        reason=orphan_reasons(generator_items, validator_outputs, asked.orphan)
    )
    table = orphan_table(orphans, generator_items)
    raise ValueError(nothing_matched_message(table, len(validator_outputs), len(generator_items)))


def _item_texts(
    generator_items: pd.DataFrame, asked: AskedPairs, feedback: np.ndarray
) -> FeedbackTexts:
    lines = generator_items["line"].to_numpy(dtype=object)
    spans = [parse_line(v) for v in lines]
    return FeedbackTexts(
        block=asked.item_block,
        text=feedback,
        start=np.array([s[0] if s else -1 for s in spans], dtype=np.int64),
        end=np.array([s[1] if s else -1 for s in spans], dtype=np.int64),
        line_key=np.array([strict_line_key(v) for v in lines], dtype=object),
    )


def _judgments_table(
    generator_items: pd.DataFrame,
    asked: AskedPairs,
    after: Matching,
    entry_raw: np.ndarray,
    repair: np.ndarray,
) -> pd.DataFrame:
    item = asked.pair_item
    matched = after.entry >= 0
    raw = np.where(matched, entry_raw[np.maximum(after.entry, 0)] if len(entry_raw) else None, None)
    return pd.DataFrame(
        {
            "generator": generator_items["generator"].to_numpy()[item],
            "item": generator_items["item"].to_numpy()[item],
            "validator": asked.validators.to_numpy()[asked.pair_validator],
            "label": pd.array(after.label, dtype="Int8"),
            "task": generator_items["task"].to_numpy()[item],
            "repair": repair.astype(str),
            "raw": pd.Series(raw, dtype=object),
        },
        columns=list(REPAIRED_COLUMNS),
    )


def repair_judgments(
    generator_items: pd.DataFrame,
    validator_outputs: pd.DataFrame,
    *,
    fuzzy_threshold: float = FUZZY_THRESHOLD,
    repairs: Repair = ALL,
    label_policy: LabelPolicy | None = None,
    progress: bool = True,
) -> tuple[pd.DataFrame, RepairReport]:
    """Turn raw validator responses into the judgments table, repairing what can be repaired.

    Parameters
    ----------
    generator_items : DataFrame
        One row per feedback item: ``generator``, ``task``, ``item`` (unique
        within a generator), ``line`` (an int, a range such as ``"2-3"``, or
        missing) and ``feedback`` (text).
    validator_outputs : DataFrame
        One row per (generator, task, validator) response: ``generator``,
        ``task``, ``validator`` and ``raw``, the validator's whole response for
        that task's feedback (nominally the JSON of the paper's App. A.2;
        missing or blank when there was none).
    fuzzy_threshold : float, default 85
        Least rapidfuzz score (0-100) for a fuzzy match (the paper's 85 %, App. B.3).
    repairs : Repair, default ALL
        The repairs to apply (:class:`repair.Repair` flags combined with ``|``;
        ``PAPER_LEVELS`` names the paper's four levels, ``NONE`` takes the
        outputs as produced).
    label_policy : LabelPolicy, optional
        Label synonyms and what an invented label becomes (default: invalid).
    progress : bool, default True
        Show progress bars when there are more than 10,000 responses.

    Returns
    -------
    judgments : DataFrame
        One row per asked pair (every item of a generator x every validator
        with at least one response for that generator), in the order of
        ``generator_items``, with :data:`REPAIRED_COLUMNS`: ``generator, item,
        validator, label`` (Int8: 1 valid, 0 invalid, ``<NA>`` missing),
        ``task``, ``repair`` (``exact``; the repairs that made the match
        possible joined by ``+``, e.g.
        ``feedback+labels``; or why there is no label: ``missing_output``,
        ``unparseable``, ``unmatched``, ``bad_label``) and ``raw`` (the
        validator's matched entry as JSON, ``None`` when none matched).
    report : RepairReport
        Missing rates before and after (per validator and per failure type),
        the labels that needed repair, and every input row that did not end
        up in ``judgments``: entries that matched no item, unparseable
        responses, orphan responses (whose generator and task meet no item,
        counted by reason with examples and a hint such as ``'GPT-4o' matches
        'gpt-4o' ignoring case``) and items no validator answered for.
        :meth:`RepairReport.describe` says it in a few lines.

    Raises
    ------
    ValueError
        A missing column, a missing key value, duplicate items within a
        generator, two responses for one (generator, task, validator), feedback
        that is not text, a response that is neither text nor missing, a bad
        threshold, ``repairs`` or ``label_policy``; and when there are
        responses but none of them has the (generator, task) of any item
        (naming the unmatched keys and what they probably meant). Never on
        the content of a response: any text is parsed as far as it goes.

    Notes
    -----
    Agreeableness paper §4 and App. B.2-B.3. A response holds entries; an entry
    is used when it matches an item of the same generator and task (module
    :mod:`repair.alignment`: exact text, then rapidfuzz at ``fuzzy_threshold``,
    one to one per response, the line number breaking near-ties). An item's
    pair with a validator fails, in this order, when the response is missing,
    when no entry can be read from it, when no entry matches the item, or when
    the matched entry's label is missing or unreadable.

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"generator": "gpt-4o", "task": 7, "item": [0, 1], "line": [2, "4-5"],
    ...     "feedback": ["Use int() to convert the input to a number.",
    ...                  "The loop should stop at n, not n + 1: use range(n)."]})
    >>> raw = '''Here is my assessment:
    ... ```json
    ... {"mistakes": ["reads a string"], "fixes": ["int(input())"],
    ...  "feedback_lines": [
    ...   {"line_num": "line 2", "feedback": "Use int() to convert the input to a number",
    ...    "analysis": "Right: input() returns a string.", "classification": "Valid"},
    ...   {"line_number": 4, "feedback": "The loop should stop at n, not n + 1",
    ...    "analysis": "Hedged.", "classification": "partially valid"},
    ... ]}
    ... ```'''
    >>> outputs = pd.DataFrame({"generator": ["gpt-4o"] * 2, "task": 7,
    ...                         "validator": ["claude_3_opus", "gpt-4.1"], "raw": [raw, None]})
    >>> judgments, report = repair_judgments(items, outputs)
    >>> judgments[["item", "validator", "label", "repair"]]
       item      validator  label                         repair
    0     0  claude_3_opus      1  parsing+feedback+lines+labels
    1     0        gpt-4.1   <NA>                 missing_output
    2     1  claude_3_opus      0  parsing+feedback+lines+labels
    3     1        gpt-4.1   <NA>                 missing_output
    >>> report.missing_rate_before, report.missing_rate_after
    (1.0, 0.5)
    """
    repairs = check_repairs(repairs)
    policy = _check_policy(label_policy)
    threshold, feedback, raws = _check_inputs(generator_items, validator_outputs, fuzzy_threshold)
    show = progress and len(validator_outputs) > _PROGRESS_MIN

    asked = ask_pairs(generator_items, validator_outputs)
    _require_a_match(generator_items, validator_outputs, asked)
    status, parsed = parse_responses(raws, asked.orphan, tolerant=PARSING in repairs, progress=show)
    entries = read_entries(parsed, policy)
    items = _item_texts(generator_items, asked, feedback)
    after = match_pairs(repairs, entries, items, asked, status, threshold=threshold, progress=show)
    before = (
        after
        if repairs == NONE
        else match_pairs(NONE, entries, items, asked, status, threshold=threshold)
    )
    judgments = _judgments_table(
        generator_items,
        asked,
        after,
        entries.raw,
        repair_names(repairs, entries, after, items, asked),
    )
    report = build_report(
        judgments,
        before,
        after,
        entries,
        asked,
        status,
        repairs,
        generator_items,
        validator_outputs,
    )
    return judgments, report
