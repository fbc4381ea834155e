"""The ground floor of every stage: the table schema and the input checks.

Validate once, where data enters, and name the offending value. The three
stages (``regression``, ``ensemble``, ``repair``) and the ``jurycal``
application import these helpers from here, so that a bad probability, label,
column set, seed or bootstrap count is reported the same way everywhere.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from regression.errors import (
    DuplicateRowError,
    InputError,
    LabelError,
    MissingColumnError,
    MissingValueError,
)
from regression.registry import MAX_N_BOOT, MIN_N_BOOT

__all__ = [
    "ALTERNATIVES",
    "FALSE_STRINGS",
    "HUMAN_COLUMNS",
    "JUDGMENT_COLUMNS",
    "MAX_N_BOOT",
    "MIN_N_BOOT",
    "PROBABILITY_COLUMN",
    "SeedLike",
    "TRUE_STRINGS",
    "as_rng",
    "check_alpha",
    "check_alternative",
    "check_budget",
    "check_counts",
    "check_human_labels",
    "check_inclusion_probabilities",
    "check_n_boot",
    "check_positive",
    "check_probability",
    "coerce_binary",
    "duplicate_error",
    "first_repeat",
    "fresh_rng",
    "missing_columns_message",
    "plain",
    "rank_in_order",
    "refuse_repeats",
    "repeat_of",
    "require_columns",
]

ALTERNATIVES = ("two-sided", "less", "greater")

#: The judgments table, one row per vote: the contract between the stages.
JUDGMENT_COLUMNS = ("generator", "item", "validator", "label")
#: Human labels: one row per labelled item.
HUMAN_COLUMNS = ("generator", "item", "human")


#: Everything that accepts randomness takes one of these; the same seed gives the same numbers.
SeedLike = int | np.random.Generator | np.random.RandomState | None

#: The spellings of a valid label in the judgments table (after trimming and lower-casing):
#: every reader of the table (:func:`coerce_binary`, the counting engines, the repair stage's
#: synonyms, the importers' free-text grades) reads at least these as valid.
TRUE_STRINGS = ("1", "true", "valid")
#: The spellings of an invalid label, likewise.
FALSE_STRINGS = ("0", "false", "invalid")

_LABEL_STRINGS = {**dict.fromkeys(TRUE_STRINGS, 1.0), **dict.fromkeys(FALSE_STRINGS, 0.0)}


def plain(value: Any) -> Any:
    """A numpy scalar as the Python value, so that messages and JSON read ``7``, not ``np.int64(7)``."""
    return value.item() if isinstance(value, np.generic) else value


def rank_in_order(values: Any) -> np.ndarray:
    """Each value's rank in the one order the tables are kept in, whatever the rows' order.

    The values' own order (numbers as numbers, text as text), or their text's
    where numbers and text mix; equal values share a rank (a dense rank), so
    ``np.lexsort`` over the ranks of several columns orders rows by them. The
    tables number their units, judges and battles by it, and the cross-fit's
    folds and the betting interval's bets follow that numbering: a file
    re-sorted gives the same numbers.

    Examples
    --------
    >>> rank_in_order(["b", "a", "b"]).tolist()
    [1, 0, 1]
    >>> rank_in_order([10, 9, 100]).tolist()  # numbers as numbers, not "10" < "9"
    [1, 0, 2]
    >>> rank_in_order([2, "a", 10]).tolist()  # mixed: as text
    [1, 2, 0]
    """
    codes, distinct = pd.factorize(pd.Index(values), sort=False)
    try:
        order = distinct.argsort(kind="stable")
    except TypeError:  # numbers and text in one column: by text, then type (1 before "1")
        kinds = np.array([type(value).__name__ for value in distinct])
        order = np.lexsort((kinds, np.asarray(distinct, dtype=str)))
    rank = np.empty(len(distinct), dtype=np.int64)
    rank[order] = np.arange(len(distinct))
    return rank[codes]


def as_rng(seed: SeedLike) -> np.random.Generator | np.random.RandomState:
    """The generator ``seed`` names: a given generator itself, else a new one seeded with it."""
    if isinstance(seed, (np.random.Generator, np.random.RandomState)):
        return seed
    return np.random.default_rng(seed)


def fresh_rng(seed: SeedLike) -> np.random.Generator | np.random.RandomState:
    """A new generator in the state ``seed`` describes (a given generator's state is copied)."""
    if isinstance(seed, (np.random.Generator, np.random.RandomState)):
        return copy.deepcopy(seed)
    return np.random.default_rng(seed)


def check_budget(budget: Any) -> int:
    """Return ``budget`` (labels or votes to buy) as an int, raising unless it is a positive
    whole number."""
    if isinstance(budget, bool) or not isinstance(budget, (int, np.integer)) or budget < 1:
        raise ValueError(f"budget must be a positive integer; got {budget!r}.")
    return int(budget)


def check_n_boot(n_boot: Any) -> int:
    """Return ``n_boot`` as an int, raising unless it is a whole number in [MIN_N_BOOT, MAX_N_BOOT]."""
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)):
        raise ValueError(f"n_boot must be a whole number; got {n_boot!r}.")
    if not MIN_N_BOOT <= n_boot <= MAX_N_BOOT:
        raise ValueError(
            f"n_boot ({plain(n_boot)!r}) must lie in {MIN_N_BOOT}..{MAX_N_BOOT:,}: "
            "fewer than two replicates give no spread, more cost memory for no digits."
        )
    return int(n_boot)


def _first_offender(values: np.ndarray, bad: np.ndarray) -> Any:
    """The first flagged entry as a plain Python value, so messages read ``got 1.2``."""
    flat_values, flat_bad = np.ravel(values), np.ravel(bad)
    return plain(flat_values[np.flatnonzero(flat_bad)[0]])


def check_probability(name: str, value: Any) -> np.ndarray:
    """Return ``value`` as a float array, raising if any entry lies outside [0, 1] or is NaN."""
    arr = np.asarray(value, dtype=float)
    bad = ~((arr >= 0.0) & (arr <= 1.0))
    if np.any(bad):
        raise ValueError(f"{name} must lie in [0, 1]; got {_first_offender(arr, bad)!r}.")
    return arr


def check_positive(name: str, value: Any) -> np.ndarray:
    """Return ``value`` as a float array, raising unless every entry is finite and > 0."""
    arr = np.asarray(value, dtype=float)
    bad = ~(np.isfinite(arr) & (arr > 0))
    if np.any(bad):
        raise ValueError(f"{name} must be positive; got {_first_offender(arr, bad)!r}.")
    return arr


def check_counts(name: str, value: Any) -> np.ndarray:
    """Return ``value`` as an int64 array, raising unless every entry is a whole number >= 0."""
    arr = np.asarray(value, dtype=float)
    bad = ~(np.isfinite(arr) & (arr >= 0) & (arr == np.round(arr)))
    if np.any(bad):
        raise ValueError(
            f"{name} must be non-negative whole counts; got {_first_offender(arr, bad)!r}."
        )
    return arr.astype(np.int64)


def check_alpha(alpha: float) -> float:
    """Return ``alpha`` as a float, raising unless 0 < alpha < 1."""
    a = float(alpha)
    if not 0.0 < a < 1.0:
        raise ValueError(f"alpha ({alpha!r}) must lie strictly between 0 and 1.")
    return a


def check_alternative(alternative: str) -> str:
    """Return ``alternative``, raising unless it is one of 'two-sided', 'less', 'greater'."""
    if alternative not in ALTERNATIVES:
        raise ValueError(
            f"alternative ({alternative!r}) not recognized; must be 'two-sided', 'less' or 'greater'."
        )
    return alternative


def coerce_binary(name: str, values: Any, *, allow_missing: bool = False) -> np.ndarray:
    """Turn binary labels into a float array of 1.0 / 0.0, with NaN for missing entries.

    Accepted per entry: ``bool``, the numbers 0 and 1, and the strings
    ``"valid"`` / ``"invalid"`` / ``"true"`` / ``"false"`` / ``"1"`` / ``"0"``
    (case and surrounding white space ignored). ``None``, NaN and ``pd.NA`` are
    missing: returned as NaN when ``allow_missing`` is true, else an error.
    Numeric and boolean input is checked in one vectorised pass; other input is
    decoded once per distinct value, so millions of labels cost milliseconds.

    Raises
    ------
    ValueError
        Naming the first entry that is not a binary label, and its position.
    """
    if isinstance(values, pd.DataFrame):
        raise ValueError(f"{name} must be one-dimensional labels, not a DataFrame.")
    if isinstance(values, (pd.Series, pd.Index)):
        shape: tuple[int, ...] = (len(values),)
        if pd.api.types.is_numeric_dtype(values.dtype) or pd.api.types.is_bool_dtype(values.dtype):
            out = values.to_numpy(dtype=float, na_value=np.nan)
        else:
            out = _decode_objects(name, values.to_numpy(dtype=object))
        flat_input: Any = values
    else:
        # A list is read as objects: np.asarray would turn [True, "valid"] into strings.
        arr = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
        shape = arr.shape
        flat_input = arr.ravel()
        numeric = arr.dtype.kind in "biuf"
        out = flat_input.astype(float) if numeric else _decode_objects(name, flat_input)
    missing = np.isnan(out)
    bad = ~missing & (out != 0.0) & (out != 1.0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        value = flat_input.iloc[i] if isinstance(flat_input, pd.Series) else flat_input[i]
        raise _not_binary(name, value, i)
    if missing.any() and not allow_missing:
        first = int(np.flatnonzero(missing)[0])
        raise MissingValueError(
            f"{name} has {int(missing.sum())} missing label(s) (first at position "
            f"{first}); drop or fill them first.",
            row=first,
            column=name,
        )
    return out.reshape(shape)


def _not_binary(name: str, value: Any, position: int) -> LabelError:
    return LabelError(
        f"{name} must be 0/1, bool or 'valid'/'invalid'; got {plain(value)!r} at position {position}.",
        row=position,
        column=name,
        value=plain(value),
    )


def _decode_objects(name: str, flat: np.ndarray) -> np.ndarray:
    """Decode an object array of labels, once per distinct value."""
    codes, uniques = pd.factorize(flat, use_na_sentinel=True)
    table = np.empty(len(uniques) + 1, dtype=float)
    table[-1] = np.nan  # code -1: missing
    for j, v in enumerate(uniques):
        if isinstance(v, (bool, np.bool_)):
            table[j] = float(v)
        elif isinstance(v, str) and v.strip().lower() in _LABEL_STRINGS:
            table[j] = _LABEL_STRINGS[v.strip().lower()]
        elif isinstance(v, (int, float, np.integer, np.floating)) and v in (0, 1):
            table[j] = float(v)
        else:
            raise _not_binary(name, v, int(np.flatnonzero(codes == j)[0]))
    return table[codes]


def first_repeat(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[int, int] | None:
    """The position of the first row whose ``columns`` repeat an earlier row's, and of that row.

    Missing values count as equal (as :meth:`pandas.DataFrame.duplicated` counts them).

    Examples
    --------
    >>> first_repeat(pd.DataFrame({"g": ["a", "b", "a"], "i": [1, 1, 1]}), ["g", "i"])
    (2, 0)
    >>> first_repeat(pd.DataFrame({"g": ["a", "b"]}), ["g"]) is None
    True
    """
    if not frame.duplicated(list(columns)).any():  # the common case, at hashing's speed
        return None
    groups = frame.groupby(list(columns), dropna=False, sort=False).ngroup().to_numpy()
    return repeat_of(groups)


def repeat_of(codes: np.ndarray) -> tuple[int, int] | None:
    """For integer keys ``codes``: the first position repeating an earlier one, and that one.

    Examples
    --------
    >>> repeat_of(np.array([4, 7, 9, 7, 4])), repeat_of(np.array([1, 2]))
    ((3, 1), None)
    """
    codes = np.asarray(codes)
    _, first_seen = np.unique(codes, return_index=True)
    repeated = np.ones(codes.size, dtype=bool)
    repeated[first_seen] = False
    if not repeated.any():
        return None
    row = int(np.flatnonzero(repeated)[0])
    return row, int(np.flatnonzero(codes == codes[row])[0])


def duplicate_error(
    name: str,
    columns: Sequence[str],
    key: tuple[Any, ...],
    rows: tuple[int, int],
    reason: str,
    column: str | None = None,
) -> DuplicateRowError:
    """The one error for a key that repeats: ``name repeats (columns) = key at row R, first
    seen at row F; reason.`` (the command line reads both rows as file lines).

    Examples
    --------
    >>> err = duplicate_error("human", ["generator", "item"], ("g", 1), (3, 1), "one label an item")
    >>> str(err), err.row, err.first_row, err.column
    ("human repeats (generator, item) = ('g', 1) at row 3, first seen at row 1; one label an item.", 3, 1, 'item')
    """
    row, first = rows
    return DuplicateRowError(
        f"{name} repeats ({', '.join(columns)}) = {key!r} at row {row}, first seen at row "
        f"{first}; {reason}.",
        row=row,
        first_row=first,
        column=column if column is not None else list(columns)[-1],
        value=key,
    )


def refuse_repeats(
    frame: pd.DataFrame,
    columns: Sequence[str],
    name: str,
    reason: str,
    *,
    positions: np.ndarray | None = None,
) -> None:
    """Raise :func:`duplicate_error` for the first row of ``frame`` whose ``columns`` repeat an earlier row's.

    ``positions``: each row's position in the table the user passed, where
    ``frame`` is a selection of it (the error names the user's rows).

    Examples
    --------
    >>> refuse_repeats(pd.DataFrame({"g": ["a", "b"], "i": [1, 1]}), ["g", "i"], "t", "once")
    >>> try:
    ...     refuse_repeats(pd.DataFrame({"g": ["a", "a"], "i": [1, 1]}), ["g", "i"], "t", "once",
    ...                    positions=np.array([4, 9]))
    ... except DuplicateRowError as err:
    ...     print(err)
    t repeats (g, i) = ('a', 1) at row 9, first seen at row 4; once.
    """
    rows = first_repeat(frame, columns)
    if rows is None:
        return
    key = tuple(plain(v) for v in frame[list(columns)].iloc[rows[0]])
    if positions is not None:
        rows = (int(positions[rows[0]]), int(positions[rows[1]]))
    raise duplicate_error(name, columns, key, rows, reason)


#: Separators a header read as one column may hold: the file was split on another character.
_OTHER_SEPARATORS = {";": "semicolons", "\t": "tabs", ",": "commas", "|": "bars"}


def missing_columns_message(name: str, expected: Iterable[str], found: Iterable[Any]) -> str:
    """What a table lacking columns is told: the columns missing, expected and found.

    A header that reads as one column holding another separator says so (a
    ``.csv`` file separated by semicolons, as spreadsheets in many locales
    write it).

    Examples
    --------
    >>> missing_columns_message("judgments", ["generator", "item"], ["generator;item"])
    "judgments is missing column(s) ['generator', 'item']; expected columns ['generator', 'item'], got ['generator;item'] (one column whose name holds semicolons: a .csv file is read as separated by commas, a .tsv file by tabs)."
    """
    expected, found = list(expected), [str(c) for c in found]
    absent = [c for c in expected if c not in found]
    message = f"{name} is missing column(s) {absent}; expected columns {expected}, got {found}"
    if len(found) == 1:
        held = [word for mark, word in _OTHER_SEPARATORS.items() if mark in found[0]]
        if held:
            message += (
                f" (one column whose name holds {held[0]}: a .csv file is read as separated by "
                "commas, a .tsv file by tabs)"
            )
    return message + "."


def require_columns(frame: pd.DataFrame, columns: Iterable[str], name: str) -> None:
    """Raise a :class:`~regression.errors.MissingColumnError` (:func:`missing_columns_message`)
    when ``frame`` lacks any of ``columns``."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame; got {type(frame).__name__}.")
    expected = list(columns)
    absent = [c for c in expected if c not in frame.columns]
    if absent:
        raise MissingColumnError(
            missing_columns_message(name, expected, frame.columns),
            column=absent[0],
            value=absent,
        )


#: The column of a human table that gives each row's probability of having been drawn.
PROBABILITY_COLUMN = "inclusion_probability"


def check_inclusion_probabilities(
    table: pd.DataFrame, name: str, *, every: str | None = None
) -> np.ndarray | None:
    """The ``inclusion_probability`` column of a human table, checked: a number in (0, 1].

    Parameters
    ----------
    table : DataFrame
        Human labels or votes, one row each.
    name : str
        The table's name in the error.
    every : str, optional
        The rows that must all give one once any does (``"vote"``); None: a
        missing value is allowed (the caller checks its own rule).

    Returns
    -------
    ndarray or None
        The probabilities (NaN where missing); None without the column, or,
        with ``every``, where no row gives one.

    Raises
    ------
    InputError
        At the first row whose value is not a number in (0, 1] (or, with
        ``every``, is missing while others are given), naming it.
    """
    if PROBABILITY_COLUMN not in table.columns:
        return None
    given = table[PROBABILITY_COLUMN].notna().to_numpy()
    if every is not None and not given.any():
        return None
    raw = pd.to_numeric(table[PROBABILITY_COLUMN], errors="coerce").to_numpy(dtype=float)
    bad = ~((raw > 0) & (raw <= 1)) & (given if every is None else True)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = plain(table[PROBABILITY_COLUMN].iloc[row])
        rule = "" if every is None else f", given for every {every} or for none"
        raise InputError(
            f"{name} has {PROBABILITY_COLUMN} {value!r} at row {row}; it must be a number in "
            f"(0, 1]{rule}.",
            row=row,
            column=PROBABILITY_COLUMN,
            value=None if pd.isna(value) else value,
        )
    return raw


def check_human_labels(human_labels: pd.DataFrame, name: str = "human_labels") -> pd.DataFrame:
    """Human labels as a fresh ``generator, item, human`` frame, ``human`` coerced to 1.0 / 0.0.

    Raises
    ------
    ValueError
        A missing column, a label that is not binary, a missing label, or a
        repeated ``(generator, item)``, each naming the offending row.
    """
    require_columns(human_labels, HUMAN_COLUMNS, name)
    human = human_labels[list(HUMAN_COLUMNS)].copy()
    human["human"] = coerce_binary("human", human["human"], allow_missing=True)
    if human["human"].isna().any():
        row = int(np.flatnonzero(human["human"].isna().to_numpy())[0])
        raise MissingValueError(
            f"{name} has a missing label at row {row}; drop or fill it first.",
            row=row,
            column="human",
        )
    refuse_repeats(human, ["generator", "item"], name, "an item has one human label")
    return human
