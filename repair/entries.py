"""Validator responses read into entries: each response's status, every entry's fields as columns.

A response (the validator's whole answer for one task, agreeableness paper
App. A.2) is parsed strictly, or tolerantly under the ``PARSING`` repair
(:mod:`repair.parsing`); its entries become one row each of :class:`Entries`,
holding every field both as written under the prompt's own keys (``feedback``,
``line_number``, ``classification``) and as read by the repairs (other keys,
line formats, label synonyms; App. B.3).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .labels import LabelPolicy, normalise_label, strict_label
from .lines import parse_line, strict_line_key
from .parsing import (
    PARSE_FAILED,
    PARSE_STRICT,
    PARSE_TOLERANT,
    normalise_key,
    parse_strict,
    parse_tolerant,
)

__all__ = [
    "FEEDBACK_KEYS",
    "LABEL_KEYS",
    "LINE_KEYS",
    "MISSING_OUTPUT",
    "ORPHAN",
    "RESPONSE_STATUSES",
    "UNPARSEABLE",
    "Entries",
    "parse_responses",
    "read_entries",
]

#: Keys (after ``normalise_key``) read for each field; the first is the prompt's own (App. A.2).
FEEDBACK_KEYS = (
    "feedback",
    "feedbackline",
    "feedbacktext",
    "feedbackitem",
    "tafeedback",
    "text",
    "comment",
    "message",
)
LINE_KEYS = ("linenumber", "linenum", "lineno", "linenumbers", "line", "lines", "linenr", "ln")
LABEL_KEYS = (
    "classification",
    "label",
    "verdict",
    "class",
    "validity",
    "judgment",
    "judgement",
    "decision",
    "result",
    "isvalid",
    "valid",
)

#: A response's status: read as the asked JSON, recovered by tolerant parsing, nothing readable,
#: blank or missing, or for a (generator, task) without generator items (so never read).
MISSING_OUTPUT, UNPARSEABLE, ORPHAN = "missing_output", "unparseable", "orphan"
RESPONSE_STATUSES = (PARSE_STRICT, PARSE_TOLERANT, UNPARSEABLE, MISSING_OUTPUT, ORPHAN)


@dataclass(frozen=True)
class Entries:
    """Every entry of the parsed responses, one row per entry, as numpy columns.

    Attributes
    ----------
    output : ndarray of int
        The response (row position in ``validator_outputs``) the entry comes from.
    position : ndarray of int
        The entry's position in its response's list.
    tolerant : ndarray of bool
        The response needed tolerant parsing (the ``PARSING`` repair).
    raw : ndarray of object
        The entry as JSON (``repr`` when it is not JSON-serialisable).
    text_strict, text_any : ndarray of object
        The feedback text under the prompt's key ``feedback``, and under any of
        :data:`FEEDBACK_KEYS`; ``None`` when there is none.
    line_key : ndarray of object
        ``line_number`` as written (:func:`repair.lines.strict_line_key`), ``None`` when absent.
    start, end : ndarray of int
        The line range read from any of :data:`LINE_KEYS`, ``-1`` when none.
    label_strict, label_norm : ndarray of float
        The label as asked (``"valid"`` / ``"invalid"`` under ``classification``)
        and as read by the label repair (any of :data:`LABEL_KEYS`, synonyms,
        the policy): 1.0, 0.0 or NaN.
    label_kind, label_text : ndarray of object
        How the label was read (:data:`repair.labels.LABEL_SYNONYM`, ...) and its canonical text.
    """

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

    def __len__(self) -> int:
        return len(self.output)


def parse_responses(
    raws: np.ndarray, orphan: np.ndarray, *, tolerant: bool, progress: bool = False
) -> tuple[np.ndarray, list[tuple[int, bool, list[Any]]]]:
    """Parse every response that has text and generator items to meet.

    Parameters
    ----------
    raws : ndarray of object
        The responses: text, or missing (``None``, NaN, ``pd.NA``).
    orphan : ndarray of bool
        Responses for a (generator, task) without items: not parsed.
    tolerant : bool
        Try the tolerant parser when strict parsing fails (the ``PARSING`` repair).
    progress : bool, default False
        Show a progress bar.

    Returns
    -------
    status : ndarray of object
        Each response's status, one of :data:`RESPONSE_STATUSES`.
    parsed : list of (int, bool, list)
        For each response with entries: its row position, whether it needed
        tolerant parsing, and its entries as parsed.

    Examples
    --------
    >>> import numpy as np
    >>> raws = np.array(['{"feedback_lines": []}', "{'feedback_lines': [1]}", "", None],
    ...                 dtype=object)
    >>> status, parsed = parse_responses(raws, np.array([False, False, False, True]), tolerant=True)
    >>> status.tolist(), parsed
    (['strict', 'tolerant', 'missing_output', 'orphan'], [(0, False, []), (1, True, [1])])
    """
    n = len(raws)
    status = np.full(n, UNPARSEABLE, dtype=object)
    parsed: list[tuple[int, bool, list[Any]]] = []
    rows: Any = range(n)
    if progress:
        from tqdm.auto import tqdm

        rows = tqdm(rows, desc="parsing responses", unit="response", leave=False)
    for k in rows:
        raw = raws[k]
        if orphan[k]:
            status[k] = ORPHAN
        elif not isinstance(raw, str) or not raw.strip():
            status[k] = MISSING_OUTPUT
        elif (strict := parse_strict(raw)) is not None:
            status[k] = PARSE_STRICT
            parsed.append((k, False, strict))
        elif tolerant and (result := parse_tolerant(raw)).status != PARSE_FAILED:
            status[k] = PARSE_TOLERANT
            parsed.append((k, True, result.entries))
    return status, parsed


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


def _first(
    entry: dict[Any, Any], keys: dict[str, Any], names: tuple[str, ...], want_text: bool
) -> Any:
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


_PROMPT_KEYS = frozenset({"line_number", "feedback", "analysis", "classification"})
_NOT_AN_ENTRY = (None, None, None, -1, -1, math.nan, math.nan, "missing", "")


def read_entries(parsed: Sequence[tuple[int, bool, list[Any]]], policy: LabelPolicy) -> Entries:
    """Read the fields of every parsed entry, as written and as the repairs read them.

    Parameters
    ----------
    parsed : sequence of (int, bool, list)
        As returned by :func:`parse_responses`.
    policy : LabelPolicy
        How labels become 1 / 0 / missing under the label repair.

    Returns
    -------
    Entries
        One row per entry; an entry that is not an object has no text, line or label.

    Notes
    -----
    Agreeableness paper App. B.3: validators write other keys ("line_num"
    instead of "line_number"), other line formats ("line 3") and invented
    labels ("partially valid"); both readings are kept so that one parse
    serves every repair level.

    Examples
    --------
    >>> entries = read_entries([(0, False, [{"lineNum": "line 3", "feedback": "Use elif.",
    ...                                      "verdict": "Valid."}])], LabelPolicy())
    >>> entries.line_key.tolist(), entries.start.tolist(), entries.label_strict.tolist()
    ([None], [3], [nan])
    >>> entries.label_norm.tolist(), entries.label_kind.tolist()
    ([1.0], ['synonym'])
    """
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
                fields.append(
                    (
                        feedback,
                        feedback,
                        strict_line_key(line),
                        start,
                        end,
                        strict,
                        value,
                        kind,
                        text,
                    )
                )
                continue
            keys = reader.normalised_keys(entry)
            start, end = reader.line(_first(entry, keys, LINE_KEYS, False))
            value, kind, text = reader.label(_first(entry, keys, LABEL_KEYS, False))
            fields.append(
                (
                    feedback,
                    _first(entry, keys, FEEDBACK_KEYS, True),
                    strict_line_key(line) if "line_number" in entry else None,
                    start,
                    end,
                    strict,
                    value,
                    kind,
                    text,
                )
            )
    n = len(heads)
    output, position, tolerant, raw = zip(*heads, strict=True) if n else ((),) * 4
    columns = list(zip(*fields, strict=True)) if n else [()] * 9

    def objects(values: tuple[Any, ...]) -> np.ndarray:
        array = np.empty(n, dtype=object)
        array[:] = values
        return array

    return Entries(
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
