"""Why a validator response meets no generator item, and what it probably meant.

A response answers the items of its (generator, task) (:mod:`repair.pairs`).
When no item has that generator and task, the response is an orphan: it is
left out of the judgments and counted in the repair report under one of
:data:`ORPHAN_REASONS`, with a few example keys and, where one exists, a hint
naming the key it probably meant: the same text in another case or with
surrounding spaces (``'GPT-4o'`` for ``'gpt-4o'``), the same text as another
type (the text ``'7'`` for the number ``7``, as when one table came from CSV
and the other from JSON), or a close spelling (rapidfuzz ratio >= 85, the
agreeableness paper's matching threshold, App. B.3).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
from rapidfuzz import fuzz, process, utils

from regression.checks import plain

__all__ = [
    "HINT_THRESHOLD",
    "ORPHAN_REASONS",
    "UNKNOWN_GENERATOR",
    "UNKNOWN_PAIR",
    "UNKNOWN_TASK",
    "close_match",
    "nothing_matched_message",
    "orphan_reasons",
    "orphan_table",
]

#: Why a response is an orphan: its generator is in no item; its task is in no item; or both
#: are, but never together (the response's generator has no item of that task).
UNKNOWN_GENERATOR, UNKNOWN_TASK, UNKNOWN_PAIR = "unknown_generator", "unknown_task", "unknown_pair"
ORPHAN_REASONS = (UNKNOWN_GENERATOR, UNKNOWN_TASK, UNKNOWN_PAIR)

#: Least rapidfuzz ratio (0-100) for a "close to" hint.
HINT_THRESHOLD = 85.0

# Distinct example keys shown per reason, and distinct keys looked up for a hint.
_N_EXAMPLES = 3


def orphan_reasons(
    generator_items: pd.DataFrame, validator_outputs: pd.DataFrame, orphan: np.ndarray
) -> np.ndarray:
    """Each response's orphan reason (one of :data:`ORPHAN_REASONS`), ``""`` for the others.

    Parameters
    ----------
    generator_items, validator_outputs : DataFrame
        With ``generator`` and ``task`` columns.
    orphan : ndarray of bool
        Which responses meet no item (:attr:`repair.pairs.AskedPairs.orphan`).

    Returns
    -------
    ndarray of object

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> items = pd.DataFrame({"generator": ["g", "h"], "task": [1, 2]})
    >>> outputs = pd.DataFrame({"generator": ["g", "G", "g", "g"], "task": [1, 1, 3, 2]})
    >>> orphan_reasons(items, outputs, np.array([False, True, True, True])).tolist()
    ['', 'unknown_generator', 'unknown_task', 'unknown_pair']
    """
    known_generator = validator_outputs["generator"].isin(generator_items["generator"]).to_numpy()
    known_task = validator_outputs["task"].isin(generator_items["task"]).to_numpy()
    reasons = np.select(
        [~known_generator, ~known_task], [UNKNOWN_GENERATOR, UNKNOWN_TASK], default=UNKNOWN_PAIR
    ).astype(object)
    reasons[~np.asarray(orphan, dtype=bool)] = ""
    return reasons


def _describe_type(value: Any) -> str:
    return "text" if isinstance(value, str) else type(value).__name__


def close_match(
    value: Any, known: Iterable[Any], *, threshold: float = HINT_THRESHOLD
) -> str | None:
    """A hint naming the known key that ``value`` probably means, or ``None``.

    Parameters
    ----------
    value : object
        A generator or task that matched nothing.
    known : iterable
        The keys that exist (in ``generator_items``).
    threshold : float, default 85
        Least rapidfuzz ratio (0-100, after lower-casing and removing
        punctuation) for a "close to" hint.

    Returns
    -------
    str or None
        The first that applies: the same text as another type; the same text
        ignoring case and surrounding spaces; the closest spelling scoring at
        least ``threshold`` (text only).

    Examples
    --------
    >>> close_match("GPT-4o", ["gpt-4o", "claude_3_opus"])
    "'GPT-4o' matches 'gpt-4o' ignoring case"
    >>> close_match("7", [7, 8])
    "'7' (text) matches 7 (int) ignoring type"
    >>> close_match("gpt4o-mini", ["gpt-4o-mini"])
    "'gpt4o-mini' is close to 'gpt-4o-mini' (ratio 95)"
    >>> close_match("llama", ["gpt-4o"]) is None
    True
    """
    value = plain(value)
    candidates = [plain(k) for k in pd.unique(pd.Series(list(known), dtype=object))]
    text = str(value)
    for candidate in candidates:
        if str(candidate) == text and type(candidate) is not type(value):
            return (
                f"{value!r} ({_describe_type(value)}) matches {candidate!r} "
                f"({_describe_type(candidate)}) ignoring type"
            )
    folded = text.strip().casefold()
    for candidate in candidates:
        other = str(candidate)
        if other.strip().casefold() == folded:
            if other.casefold() == text.casefold():
                how = "case"
            elif other.strip() == text.strip():
                how = "surrounding spaces"
            else:
                how = "case and surrounding spaces"
            return f"{value!r} matches {candidate!r} ignoring {how}"
    if not isinstance(value, str):
        return None
    texts = [c for c in candidates if isinstance(c, str)]
    best = process.extractOne(
        value, texts, scorer=fuzz.ratio, processor=utils.default_process, score_cutoff=threshold
    )
    if best is None:
        return None
    return f"{value!r} is close to {best[0]!r} (ratio {best[1]:.0f})"


def _counted(keys: pd.Series) -> pd.Series:
    """Distinct keys with their number of responses, most frequent first (ties: first seen)."""
    codes, uniques = pd.factorize(keys)
    counts = np.bincount(codes, minlength=len(uniques))
    order = np.argsort(-counts, kind="stable")
    return pd.Series(counts[order], index=pd.Index(uniques, dtype=object)[order])


def _key_text(key: Any) -> str:
    if isinstance(key, tuple):
        return "(" + ", ".join(repr(plain(k)) for k in key) + ")"
    return repr(plain(key))


def orphan_table(orphans: pd.DataFrame, generator_items: pd.DataFrame) -> pd.DataFrame:
    """The orphan responses counted per reason, with example keys and a hint.

    Parameters
    ----------
    orphans : DataFrame
        One row per orphan response: ``generator``, ``task`` and ``reason``
        (from :func:`orphan_reasons`).
    generator_items : DataFrame
        The items, with ``generator`` and ``task``: where the hints look.

    Returns
    -------
    DataFrame
        Index ``reason`` (only the reasons that occur, in the order of
        :data:`ORPHAN_REASONS`); ``outputs`` (responses), ``keys`` (distinct
        keys: generators, tasks or (generator, task) pairs), ``examples`` (the
        most frequent few, each with its count) and ``hint`` (what the first
        few keys probably meant, ``""`` when nothing is close).

    Examples
    --------
    >>> import pandas as pd
    >>> items = pd.DataFrame({"generator": ["gpt-4o"], "task": [7]})
    >>> orphans = pd.DataFrame({"generator": ["GPT-4o", "GPT-4o"], "task": [7, 8],
    ...                         "reason": "unknown_generator"})
    >>> table = orphan_table(orphans, items)
    >>> table[["outputs", "keys", "examples"]].to_dict("records")
    [{'outputs': 2, 'keys': 1, 'examples': "'GPT-4o' (2)"}]
    >>> table.loc["unknown_generator", "hint"]
    "'GPT-4o' matches 'gpt-4o' ignoring case"
    """
    rows = []
    for reason in ORPHAN_REASONS:
        part = orphans[orphans["reason"] == reason]
        if part.empty:
            continue
        if reason == UNKNOWN_GENERATOR:
            keys = _counted(part["generator"])
            hints = [close_match(k, generator_items["generator"]) for k in keys.index[:_N_EXAMPLES]]
        elif reason == UNKNOWN_TASK:
            keys = _counted(part["task"])
            hints = [close_match(k, generator_items["task"]) for k in keys.index[:_N_EXAMPLES]]
        else:
            keys = _counted(
                pd.Series(list(zip(part["generator"], part["task"], strict=True)), dtype=object)
            )
            hints = [_pair_hint(key, generator_items) for key in keys.index[:_N_EXAMPLES]]
        examples = ", ".join(f"{_key_text(k)} ({n})" for k, n in keys.iloc[:_N_EXAMPLES].items())
        if len(keys) > _N_EXAMPLES:
            examples += ", ..."
        rows.append((reason, len(part), len(keys), examples, "; ".join(h for h in hints if h)))
    table = pd.DataFrame(rows, columns=["reason", "outputs", "keys", "examples", "hint"])
    return table.set_index("reason").astype({"outputs": "int64", "keys": "int64"})


def _pair_hint(key: tuple[Any, Any], generator_items: pd.DataFrame) -> str:
    generator, task = key
    owners = pd.unique(generator_items.loc[generator_items["task"] == task, "generator"])
    listed = ", ".join(repr(plain(g)) for g in owners[:_N_EXAMPLES])
    more = ", ..." if len(owners) > _N_EXAMPLES else ""
    return (
        f"generator {plain(generator)!r} has no item of task {plain(task)!r}; "
        f"generator(s) {listed}{more} have"
    )


def nothing_matched_message(table: pd.DataFrame, n_outputs: int, n_items: int) -> str:
    """The error message when no response meets any item: counts, examples and hints per reason.

    Parameters
    ----------
    table : DataFrame
        As returned by :func:`orphan_table` (every response an orphan).
    n_outputs, n_items : int
        The rows of ``validator_outputs`` and of ``generator_items``.

    Returns
    -------
    str
    """
    if n_items == 0:
        return (
            f"generator_items has no rows, so none of the {n_outputs:,} validator_outputs rows "
            "has items to answer."
        )
    parts = []
    for reason, row in table.iterrows():
        what = str(reason).replace("_", " ")
        part = f"{row['outputs']:,} with an {what} (e.g. {row['examples']})"
        if row["hint"]:
            part += f": {row['hint']}"
        parts.append(part)
    return (
        f"none of the {n_outputs:,} validator_outputs rows matches the (generator, task) "
        f"of any generator_items row; {'; '.join(parts)}. Keys are compared exactly (case "
        "and type included)."
    )
