"""``repair_judgments``: raw validator responses to the judgments table, with a report that loses nothing.

Agreeableness paper §3-4 and App. B.2-B.3: 9.4 % of the validator outputs
could not be used as produced ("missing or mismatched fields in the JSON
output"); repairing feedback text, line numbers and labels brought that to
3.2 %. :func:`repair_judgments` applies those repairs (and tolerant parsing)
and accounts for every (generator item, validator) pair that was asked, every
validator response and every entry in it.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import require_columns

from .alignment import STAGE_FUZZY, align_entries
from .labels import LABEL_INVENTED, LABEL_SYNONYM, LabelPolicy, normalise_label, strict_label
from .lines import parse_line, strict_line_key
from .parsing import PARSE_FAILED, PARSE_STRICT, normalise_key, parse_strict, parse_tolerant
from .switches import ALL, FEEDBACK, LABELS, LINES, NONE, PARSING, Repair, check_repairs

__all__ = [
    "FAILURE_TYPES",
    "FEEDBACK_KEYS",
    "GENERATOR_ITEM_COLUMNS",
    "JUDGMENT_COLUMNS",
    "LABEL_KEYS",
    "LINE_KEYS",
    "VALIDATOR_OUTPUT_COLUMNS",
    "RepairReport",
    "repair_judgments",
]

GENERATOR_ITEM_COLUMNS = ("generator", "task", "item", "line", "feedback")
VALIDATOR_OUTPUT_COLUMNS = ("generator", "task", "validator", "raw")
JUDGMENT_COLUMNS = ("generator", "item", "validator", "label", "task", "repair", "raw")

#: Why a pair has no label, in the order a pair meets them (the paper's Fig. 8 failure types).
MISSING_OUTPUT, UNPARSEABLE, UNMATCHED, BAD_LABEL = "missing_output", "unparseable", "unmatched", "bad_label"
FAILURE_TYPES = (MISSING_OUTPUT, UNPARSEABLE, UNMATCHED, BAD_LABEL)

#: Keys (after ``normalise_key``) read for each field; the first is the prompt's own (App. A.2).
FEEDBACK_KEYS = ("feedback", "feedbackline", "feedbacktext", "feedbackitem", "tafeedback", "text",
                 "comment", "message")
LINE_KEYS = ("linenumber", "linenum", "lineno", "linenumbers", "line", "lines", "linenr", "ln")
LABEL_KEYS = ("classification", "label", "verdict", "class", "validity", "judgment", "judgement",
              "decision", "result", "isvalid", "valid")

_REPAIR_NAMES = ((PARSING, "parsing"), (FEEDBACK, "feedback"), (LINES, "lines"), (LABELS, "labels"))
_NO_TEXT, _BELOW, _LOST = "no_feedback_text", "below_threshold", "lost_assignment"


@dataclass(frozen=True)
class RepairReport:
    """Accounting of one :func:`repair_judgments` run.

    "Before" is the outputs as produced (``repairs=NONE``: strict JSON, exact
    text, lines and labels as written); "after" is the run's ``repairs``.

    Attributes
    ----------
    by_validator : DataFrame
        Index ``validator``; ``pairs``, ``missing_before``, ``missing_after``,
        ``rate_before``, ``rate_after``.
    failures : DataFrame
        The paper's Fig. 8 in long form: ``validator, failure, before, after``
        (pair counts per failure type, every combination listed).
    repairs : Series
        Pairs per ``repair`` value after the run (``exact``, ``feedback``,
        ``parsing+lines``, ..., and the failure types).
    labels : DataFrame
        Every label that needed the label repair among matched entries:
        ``text`` (canonical), ``kind`` (``synonym`` / ``invented``), ``label``
        it became (1 / 0 / NA under the policy), ``count``.
    unmatched_entries : DataFrame
        Every parsed entry that matched no item: ``generator, task, validator,
        position`` (in its response), ``raw`` (the entry as JSON), ``reason``
        (``below_threshold``: no item scored high enough; ``lost_assignment``:
        another entry of the response took its item; ``no_feedback_text``).
    unparseable_outputs : DataFrame
        Responses from which no entry could be read: ``generator, task, validator, raw``.
    orphan_outputs : DataFrame
        Responses for a (generator, task) without generator items: ``generator,
        task, validator, raw``; not parsed.
    outputs : Series
        Responses per status (index ``status``): ``strict`` (the asked JSON),
        ``tolerant`` (recovered by tolerant parsing), ``unparseable``,
        ``missing_output`` (blank or missing ``raw``), ``orphan``; they sum to
        ``n_outputs``.
    n_outputs, n_entries, n_pairs : int
        Responses given, entries parsed from them (after the run's repairs), pairs asked.
    """

    by_validator: pd.DataFrame
    failures: pd.DataFrame
    repairs: pd.Series
    labels: pd.DataFrame
    unmatched_entries: pd.DataFrame
    unparseable_outputs: pd.DataFrame
    orphan_outputs: pd.DataFrame
    outputs: pd.Series
    n_outputs: int
    n_entries: int
    n_pairs: int

    @property
    def missing_rate_before(self) -> float:
        """Fraction of the asked pairs without a label, outputs as produced."""
        return _rate(int(self.by_validator["missing_before"].sum()), self.n_pairs)

    @property
    def missing_rate_after(self) -> float:
        """Fraction of the asked pairs without a label after the repairs."""
        return _rate(int(self.by_validator["missing_after"].sum()), self.n_pairs)

    def by_failure(self) -> pd.DataFrame:
        """Pairs per failure type (index), ``before`` and ``after``, with their rates among all pairs."""
        table = self.failures.groupby("failure", sort=False)[["before", "after"]].sum()
        table = table.reindex(list(FAILURE_TYPES))
        table["rate_before"] = table["before"] / max(self.n_pairs, 1)
        table["rate_after"] = table["after"] / max(self.n_pairs, 1)
        return table

    def summary(self) -> pd.DataFrame:
        """``by_validator`` with an ``all`` row: the missing rate before and after, per validator."""
        total = self.by_validator[["pairs", "missing_before", "missing_after"]].sum().astype(float)
        total["rate_before"] = self.missing_rate_before
        total["rate_after"] = self.missing_rate_after
        table = pd.concat([self.by_validator, total.to_frame("all").T])
        table.index.name = "validator"
        return table.astype({"pairs": "int64", "missing_before": "int64", "missing_after": "int64"})


def _py(value: Any) -> Any:
    """A numpy scalar as the plain Python value, so messages read ``item 10``, not ``np.int64(10)``."""
    return value.item() if isinstance(value, np.generic) else value


def _rate(count: int, total: int) -> float:
    return count / total if total else math.nan


def _check_inputs(
    generator_items: pd.DataFrame, validator_outputs: pd.DataFrame, fuzzy_threshold: float
) -> tuple[float, np.ndarray, np.ndarray]:
    """Validate the inputs; return the threshold, the feedback texts and the responses as object arrays."""
    require_columns(generator_items, GENERATOR_ITEM_COLUMNS, "generator_items")
    require_columns(validator_outputs, VALIDATOR_OUTPUT_COLUMNS, "validator_outputs")
    try:
        threshold = float(fuzzy_threshold)
    except (TypeError, ValueError):
        raise ValueError(f"fuzzy_threshold ({fuzzy_threshold!r}) must be a number in (0, 100].") from None
    if not 0.0 < threshold <= 100.0:
        raise ValueError(f"fuzzy_threshold ({fuzzy_threshold!r}) must be a number in (0, 100].")
    for frame, name, columns in (
        (generator_items, "generator_items", ("generator", "task", "item")),
        (validator_outputs, "validator_outputs", ("generator", "task", "validator")),
    ):
        for column in columns:
            missing = frame[column].isna().to_numpy()
            if missing.any():
                raise ValueError(
                    f"{name}[{column!r}] has a missing value at row {_py(frame.index[missing.argmax()])!r}."
                )
    duplicated = generator_items.duplicated(["generator", "item"]).to_numpy()
    if duplicated.any():
        row = generator_items.iloc[int(duplicated.argmax())]
        raise ValueError(
            f"generator_items has duplicate items: generator {_py(row['generator'])!r}, "
            f"item {_py(row['item'])!r} "
            "appears more than once; item must be unique within a generator."
        )
    duplicated = validator_outputs.duplicated(["generator", "task", "validator"]).to_numpy()
    if duplicated.any():
        row = validator_outputs.iloc[int(duplicated.argmax())]
        raise ValueError(
            f"validator_outputs has more than one response for generator {_py(row['generator'])!r}, "
            f"task {_py(row['task'])!r}, validator {_py(row['validator'])!r}; keep one per "
            "(generator, task, validator)."
        )
    feedback = generator_items["feedback"].to_numpy(dtype=object)
    for position, text in enumerate(feedback):
        if not isinstance(text, str):
            raise ValueError(
                f"generator_items['feedback'] must be text; got {_py(text)!r} at row "
                f"{_py(generator_items.index[position])!r}."
            )
    raws = validator_outputs["raw"].to_numpy(dtype=object)
    for position, raw in enumerate(raws):
        if not (isinstance(raw, str) or _is_missing(raw)):
            raise ValueError(
                f"validator_outputs['raw'] must be text (or missing); got {type(raw).__name__} "
                f"{raw!r:.60} at row {_py(validator_outputs.index[position])!r}."
            )
    return threshold, feedback, raws


def _is_missing(value: Any) -> bool:
    if value is None or value is pd.NA:
        return True
    return isinstance(value, float) and math.isnan(value)


class _Reader:
    """Reads the fields of validator entries, caching the label and line normalisers per value."""

    def __init__(self, policy: LabelPolicy) -> None:
        self.policy = policy
        self.keys: dict[Any, str] = {}
        self.labels: dict[tuple[type, Any], tuple[float, str, str]] = {}
        self.lines: dict[tuple[type, Any], tuple[int, int]] = {}

    def label(self, value: Any) -> tuple[float, str, str]:
        try:
            cache_key = (type(value), value)
            hit = self.labels.get(cache_key)
        except TypeError:  # unhashable (a list or dict)
            return normalise_label(value, self.policy)
        if hit is None:
            hit = self.labels[cache_key] = normalise_label(value, self.policy)
        return hit

    def line(self, value: Any) -> tuple[int, int]:
        try:
            cache_key = (type(value), value)
            hit = self.lines.get(cache_key)
        except TypeError:
            span = parse_line(value)
            return span if span is not None else (-1, -1)
        if hit is None:
            span = parse_line(value)
            hit = self.lines[cache_key] = span if span is not None else (-1, -1)
        return hit

    def normalised_keys(self, entry: dict[Any, Any]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        for key in entry:
            name = self.keys.get(key)
            if name is None:
                name = self.keys[key] = normalise_key(key)
            found.setdefault(name, key)
        return found


def _first(entry: dict[Any, Any], keys: dict[str, Any], names: tuple[str, ...], want_text: bool) -> Any:
    for name in names:
        if name in keys:
            value = entry[keys[name]]
            if value is None or (want_text and not isinstance(value, str)):
                continue
            return value
    return None


_ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def _dump(entry: Any) -> str:
    try:
        return _ENCODE(entry)
    except (TypeError, ValueError, RecursionError):
        return repr(entry)


@dataclass
class _Entries:
    output: np.ndarray
    position: np.ndarray
    tolerant: np.ndarray
    raw: np.ndarray
    text_strict: np.ndarray
    text_any: np.ndarray
    line_key: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label_strict: np.ndarray
    label_norm: np.ndarray
    label_kind: np.ndarray
    label_text: np.ndarray


_PROMPT_KEYS = frozenset({"line_number", "feedback", "analysis", "classification"})
_NOT_AN_ENTRY = (None, None, None, -1, -1, math.nan, math.nan, "missing", "")


def _read_entries(parsed: list[tuple[int, bool, list[Any]]], policy: LabelPolicy) -> _Entries:
    reader = _Reader(policy)
    heads: list[tuple[int, int, bool, str]] = []
    fields: list[tuple[Any, ...]] = []
    for out, is_tolerant, entries in parsed:
        for k, entry in enumerate(entries):
            heads.append((out, k, is_tolerant, _dump(entry)))
            if not isinstance(entry, dict):
                fields.append(_NOT_AN_ENTRY)
                continue
            feedback = entry.get("feedback")
            if not isinstance(feedback, str):
                feedback = None
            line = entry.get("line_number")
            label = entry.get("classification")
            strict = strict_label(label)
            if entry.keys() == _PROMPT_KEYS:  # the prompt's own keys: no variants to look for
                start, end = reader.line(line)
                value, kind, text = reader.label(label)
                fields.append((feedback, feedback, strict_line_key(line), start, end, strict,
                               value, kind, text))
                continue
            keys = reader.normalised_keys(entry)
            start, end = reader.line(_first(entry, keys, LINE_KEYS, False))
            value, kind, text = reader.label(_first(entry, keys, LABEL_KEYS, False))
            fields.append((feedback, _first(entry, keys, FEEDBACK_KEYS, True),
                           strict_line_key(line) if "line_number" in entry else None,
                           start, end, strict, value, kind, text))
    n = len(heads)
    output, position, tolerant, raw = zip(*heads, strict=True) if n else ((),) * 4
    columns = list(zip(*fields, strict=True)) if n else [()] * 9

    def objects(values: tuple[Any, ...]) -> np.ndarray:
        array = np.empty(n, dtype=object)
        array[:] = values
        return array

    return _Entries(
        output=np.asarray(output, dtype=np.int64),
        position=np.asarray(position, dtype=np.int64),
        tolerant=np.asarray(tolerant, dtype=bool),
        raw=objects(raw),
        text_strict=objects(columns[0]),
        text_any=objects(columns[1]),
        line_key=objects(columns[2]),
        start=np.asarray(columns[3], dtype=np.int64),
        end=np.asarray(columns[4], dtype=np.int64),
        label_strict=np.asarray(columns[5], dtype=float),
        label_norm=np.asarray(columns[6], dtype=float),
        label_kind=objects(columns[7]),
        label_text=objects(columns[8]),
    )


@dataclass
class _Pass:
    """One alignment of all entries under one set of repairs, seen from the asked pairs."""

    label: np.ndarray  # per pair: 1.0 / 0.0 / NaN
    failure: np.ndarray  # per pair: a failure type or ""
    entry: np.ndarray  # per pair: matched entry or -1
    item_of: np.ndarray  # per entry: matched item or -1
    stage: np.ndarray
    had_candidate: np.ndarray


def _run_pass(
    repairs: Repair,
    entries: _Entries,
    output_block: np.ndarray,
    output_status: np.ndarray,
    item_block: np.ndarray,
    item_text: np.ndarray,
    item_lines: tuple[np.ndarray, np.ndarray, np.ndarray],
    pair_item: np.ndarray,
    pair_output: np.ndarray,
    threshold: float,
    progress: bool,
) -> _Pass:
    usable = np.ones(len(entries.output), dtype=bool) if PARSING in repairs else ~entries.tolerant
    block = np.where(usable, output_block[entries.output], -1)
    text = entries.text_any if FEEDBACK in repairs else entries.text_strict
    alignment = align_entries(
        block, entries.output, text, (entries.start, entries.end, entries.line_key),
        item_block, item_text, item_lines,
        threshold=threshold, fuzzy=FEEDBACK in repairs, repair_lines=LINES in repairs,
        progress=progress,
    )
    n_items = max(len(item_block), 1)
    matched = np.flatnonzero(alignment.item >= 0)
    match_keys = pd.Index(entries.output[matched] * n_items + alignment.item[matched])
    entry = np.full(len(pair_item), -1, dtype=np.int64)
    has_output = pair_output >= 0
    found = match_keys.get_indexer(pair_output[has_output] * n_items + pair_item[has_output])
    entry[np.flatnonzero(has_output)[found >= 0]] = matched[found[found >= 0]]
    labels = entries.label_norm if LABELS in repairs else entries.label_strict
    label = np.where(entry >= 0, labels[np.maximum(entry, 0)] if len(labels) else np.nan, np.nan)
    status = np.where(has_output, output_status[np.maximum(pair_output, 0)], MISSING_OUTPUT)
    if PARSING not in repairs:
        status = np.where(status == "tolerant", UNPARSEABLE, status)
    failure = np.select(
        [status == MISSING_OUTPUT, status == UNPARSEABLE, entry < 0, np.isnan(label)],
        [MISSING_OUTPUT, UNPARSEABLE, UNMATCHED, BAD_LABEL],
        default="",
    ).astype(object)
    return _Pass(label, failure, entry, alignment.item, alignment.stage, alignment.had_candidate)


def _repair_names(
    repairs: Repair, entries: _Entries, entry: np.ndarray, stage: np.ndarray,
    item_line_key: np.ndarray, pair_item: np.ndarray,
) -> np.ndarray:
    """For matched pairs: which repairs made the match (and its label) possible."""
    used = {
        "parsing": entries.tolerant[entry],
        "feedback": (stage[entry] == STAGE_FUZZY)
        | np.fromiter((a is None or a != b for a, b in
                       zip(entries.text_strict[entry], entries.text_any[entry], strict=True)),
                      bool, len(entry)),
        "lines": np.fromiter((a is None or a != b for a, b in
                              zip(entries.line_key[entry], item_line_key[pair_item], strict=True)),
                             bool, len(entry)),
        "labels": np.isnan(entries.label_strict[entry]),
    }
    names = np.full(len(entry), "", dtype=object)
    for flag, name in _REPAIR_NAMES:
        if flag in repairs:
            names = np.where(used[name], np.where(names == "", name, names + "+" + name), names)
    return np.where(names == "", "exact", names).astype(object)


def repair_judgments(
    generator_items: pd.DataFrame,
    validator_outputs: pd.DataFrame,
    *,
    fuzzy_threshold: float = 85,
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
        ``generator_items``: ``generator, item, validator, label`` (Int8: 1
        valid, 0 invalid, ``<NA>`` missing), ``task``, ``repair`` (``exact``;
        the repairs that made the match possible joined by ``+``, e.g.
        ``feedback+labels``; or why there is no label: ``missing_output``,
        ``unparseable``, ``unmatched``, ``bad_label``) and ``raw`` (the
        validator's matched entry as JSON, ``None`` when none matched).
    report : RepairReport
        Missing rates before and after (per validator and per failure type),
        the labels that needed repair, and every entry, response and orphan
        that did not end up in ``judgments``.

    Raises
    ------
    ValueError
        A missing column, a missing key value, duplicate items within a
        generator, two responses for one (generator, task, validator), feedback
        that is not text, a response that is neither text nor missing, a bad
        threshold, ``repairs`` or ``label_policy``. Never on the content of a
        response: any text is parsed as far as it goes.

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
    policy = LabelPolicy() if label_policy is None else label_policy
    if not isinstance(policy, LabelPolicy):
        raise ValueError(f"label_policy must be a LabelPolicy; got {type(policy).__name__}.")
    threshold, item_text, raws = _check_inputs(generator_items, validator_outputs, fuzzy_threshold)

    # Blocks: one per (generator, task); codes shared by items and responses.
    n_items, n_outputs = len(generator_items), len(validator_outputs)
    keys = pd.MultiIndex.from_arrays([
        pd.concat([generator_items["generator"], validator_outputs["generator"]], ignore_index=True),
        pd.concat([generator_items["task"], validator_outputs["task"]], ignore_index=True),
    ])
    block_codes, _ = pd.factorize(keys)
    item_block = block_codes[:n_items].astype(np.int64)
    output_block = block_codes[n_items:].astype(np.int64)
    orphan = ~np.isin(output_block, item_block)
    validator_codes, validators = pd.factorize(validator_outputs["validator"])
    generator_codes, generators = pd.factorize(
        pd.concat([generator_items["generator"], validator_outputs["generator"]], ignore_index=True)
    )
    item_generator = generator_codes[:n_items]
    output_generator = generator_codes[n_items:]

    # Parse every response that has text and items to meet.
    status = np.full(n_outputs, PARSE_FAILED, dtype=object)
    parsed: list[tuple[int, bool, list[Any]]] = []
    rows: Any = range(n_outputs)
    if progress and n_outputs > 10_000:
        from tqdm.auto import tqdm

        rows = tqdm(rows, desc="parsing responses", unit="response", leave=False)
    for k in rows:
        raw = raws[k]
        if orphan[k]:
            continue
        if not isinstance(raw, str) or not raw.strip():
            status[k] = MISSING_OUTPUT
            continue
        strict = parse_strict(raw)
        if strict is not None:
            status[k] = PARSE_STRICT
            parsed.append((k, False, strict))
        elif PARSING in repairs:
            result = parse_tolerant(raw)
            if result.status != PARSE_FAILED:
                status[k] = "tolerant"
                parsed.append((k, True, result.entries))
    status = np.where(status == PARSE_FAILED, UNPARSEABLE, status)
    entries = _read_entries(parsed, policy)

    # The asked pairs: every item of a generator x every validator that answered for it.
    has_items = np.isin(output_generator, item_generator)
    asked = pd.DataFrame({"g": output_generator[has_items], "v": validator_codes[has_items]})
    asked = asked.drop_duplicates().sort_values(["g", "v"], kind="stable")
    items_frame = pd.DataFrame({"g": item_generator, "i": np.arange(n_items)})
    pairs = items_frame.merge(asked, on="g", how="inner").sort_values(["i", "v"], kind="stable")
    pair_item = pairs["i"].to_numpy(np.int64)
    pair_validator = pairs["v"].to_numpy(np.int64)
    n_validators = max(len(validators), 1)
    output_keys = pd.Index(output_block * n_validators + validator_codes)
    pair_output = output_keys.get_indexer(item_block[pair_item] * n_validators + pair_validator)

    item_lines_raw = generator_items["line"].to_numpy(dtype=object)
    spans = [parse_line(v) for v in item_lines_raw]
    item_lines = (
        np.array([s[0] if s else -1 for s in spans], dtype=np.int64),
        np.array([s[1] if s else -1 for s in spans], dtype=np.int64),
        np.array([strict_line_key(v) for v in item_lines_raw], dtype=object),
    )
    common = (entries, output_block, status, item_block, item_text, item_lines, pair_item, pair_output,
              threshold)
    after = _run_pass(repairs, *common, progress and n_outputs > 10_000)
    before = after if repairs == NONE else _run_pass(NONE, *common, False)

    # The judgments table.
    matched = after.entry >= 0
    repair_col = after.failure.copy()
    ok = matched & (after.failure == "")
    repair_col[ok] = _repair_names(repairs, entries, after.entry[ok], after.stage, item_lines[2],
                                   pair_item[ok])
    entry_raw = pd.Series(np.where(matched, entries.raw[np.maximum(after.entry, 0)]
                                   if len(entries.raw) else None, None), dtype=object)
    judgments = pd.DataFrame({
        "generator": generator_items["generator"].to_numpy()[pair_item],
        "item": generator_items["item"].to_numpy()[pair_item],
        "validator": validators.to_numpy()[pair_validator],
        "label": pd.array(after.label, dtype="Int8"),
        "task": generator_items["task"].to_numpy()[pair_item],
        "repair": repair_col.astype(str),
        "raw": entry_raw,
    })
    report = _report(
        judgments, before, after, entries, validator_outputs, status, orphan, policy, repairs,
        n_outputs, pair_validator, validators,
    )
    return judgments, report


def _report(
    judgments: pd.DataFrame, before: _Pass, after: _Pass, entries: _Entries,
    validator_outputs: pd.DataFrame, status: np.ndarray, orphan: np.ndarray, policy: LabelPolicy,
    repairs: Repair, n_outputs: int, pair_validator: np.ndarray, validators: pd.Index,
) -> RepairReport:
    n_pairs = len(judgments)
    validator_names = validators.to_numpy()[pair_validator]
    flags = pd.DataFrame({
        "validator": validator_names,
        "missing_before": before.failure != "",
        "missing_after": after.failure != "",
    })
    by_validator = flags.groupby("validator", sort=False).agg(
        pairs=("missing_before", "size"),
        missing_before=("missing_before", "sum"),
        missing_after=("missing_after", "sum"),
    )
    by_validator = by_validator.reindex([v for v in validators if v in by_validator.index])
    by_validator["rate_before"] = by_validator["missing_before"] / by_validator["pairs"]
    by_validator["rate_after"] = by_validator["missing_after"] / by_validator["pairs"]

    grid = pd.MultiIndex.from_product([by_validator.index, FAILURE_TYPES], names=["validator", "failure"])
    counts = {
        name: pd.Series(1, index=pd.MultiIndex.from_arrays([validator_names[p.failure != ""],
                                                             p.failure[p.failure != ""]]))
        .groupby(level=[0, 1]).sum()
        for name, p in (("before", before), ("after", after))
    }
    failures = pd.DataFrame({
        name: count.reindex(grid, fill_value=0).astype("int64") for name, count in counts.items()
    }).reset_index()

    repair_counts = judgments["repair"].value_counts()
    repair_counts.index.name = "repair"

    used = after.entry[after.entry >= 0]
    if LABELS in repairs and used.size:
        kinds = entries.label_kind[used]
        needed = np.isin(kinds, [LABEL_SYNONYM, LABEL_INVENTED])
        labels = pd.DataFrame({
            "text": entries.label_text[used][needed],
            "kind": kinds[needed],
            "label": pd.array(entries.label_norm[used][needed], dtype="Int8"),
        })
        labels = (labels.groupby(["text", "kind", "label"], dropna=False).size().rename("count")
                  .reset_index().sort_values(["count", "text"], ascending=[False, True],
                                             ignore_index=True))
    else:
        labels = pd.DataFrame({"text": pd.Series(dtype=object), "kind": pd.Series(dtype=object),
                               "label": pd.array([], dtype="Int8"), "count": pd.Series(dtype="int64")})

    usable = np.ones(len(entries.output), dtype=bool) if PARSING in repairs else ~entries.tolerant
    unmatched = np.flatnonzero(usable & (after.item_of < 0))
    has_text = np.fromiter(
        (isinstance(t, str) for t in (entries.text_any if FEEDBACK in repairs else entries.text_strict)[unmatched]),
        bool, len(unmatched),
    )
    reason = np.where(~has_text, _NO_TEXT, np.where(after.had_candidate[unmatched], _LOST, _BELOW))
    rows = entries.output[unmatched]
    unmatched_entries = pd.DataFrame({
        "generator": validator_outputs["generator"].to_numpy()[rows],
        "task": validator_outputs["task"].to_numpy()[rows],
        "validator": validator_outputs["validator"].to_numpy()[rows],
        "position": entries.position[unmatched],
        "raw": entries.raw[unmatched].astype(str),
        "reason": reason.astype(str),
    })
    columns = list(VALIDATOR_OUTPUT_COLUMNS)
    failed = ~orphan & ((status == UNPARSEABLE) | ((status == "tolerant") & (PARSING not in repairs)))
    unparseable = validator_outputs.loc[failed, columns].reset_index(drop=True)
    orphans = validator_outputs.loc[orphan, columns].reset_index(drop=True)
    statuses = np.where(orphan, "orphan", np.where(failed, UNPARSEABLE, status))
    output_counts = (pd.Series(statuses, dtype=object).value_counts()
                     .reindex([PARSE_STRICT, "tolerant", UNPARSEABLE, MISSING_OUTPUT, "orphan"], fill_value=0)
                     .rename_axis("status").rename("outputs").astype("int64"))
    return RepairReport(
        by_validator=by_validator,
        failures=failures,
        repairs=repair_counts,
        labels=labels,
        unmatched_entries=unmatched_entries,
        unparseable_outputs=unparseable,
        orphan_outputs=orphans,
        outputs=output_counts,
        n_outputs=n_outputs,
        n_entries=int(usable.sum()),
        n_pairs=n_pairs,
    )
