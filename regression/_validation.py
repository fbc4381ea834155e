"""Input checks shared by every stage: validate once, where data enters, and name the value.

The three stages (``regression``, ``ensemble``, ``repair``) import these helpers
from here so that a bad probability, label or column set is reported the same
way everywhere (STYLE.md point 4).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "ALTERNATIVES",
    "check_alpha",
    "check_alternative",
    "check_counts",
    "check_positive",
    "check_probability",
    "coerce_binary",
    "require_columns",
]

ALTERNATIVES = ("two-sided", "less", "greater")

# Strings accepted as binary labels (after lower-casing and stripping).
_VALID_STRINGS = {"valid": 1.0, "invalid": 0.0, "1": 1.0, "0": 0.0, "true": 1.0, "false": 0.0}


def _first_offender(values: np.ndarray, bad: np.ndarray) -> Any:
    """The first flagged entry as a plain Python value, so messages read ``got 1.2``."""
    flat_values, flat_bad = np.ravel(values), np.ravel(bad)
    return flat_values[np.flatnonzero(flat_bad)[0]].item()


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
        raise ValueError(
            f"{name} has {int(missing.sum())} missing label(s) (first at position "
            f"{int(np.flatnonzero(missing)[0])}); drop or fill them first."
        )
    return out.reshape(shape)


def _not_binary(name: str, value: Any, position: int) -> ValueError:
    shown = value.item() if isinstance(value, np.generic) else value
    return ValueError(
        f"{name} must be 0/1, bool or 'valid'/'invalid'; got {shown!r} at position {position}."
    )


def _decode_objects(name: str, flat: np.ndarray) -> np.ndarray:
    """Decode an object array of labels, once per distinct value."""
    codes, uniques = pd.factorize(flat, use_na_sentinel=True)
    table = np.empty(len(uniques) + 1, dtype=float)
    table[-1] = np.nan  # code -1: missing
    for j, v in enumerate(uniques):
        if isinstance(v, (bool, np.bool_)):
            table[j] = float(v)
        elif isinstance(v, str) and v.strip().lower() in _VALID_STRINGS:
            table[j] = _VALID_STRINGS[v.strip().lower()]
        elif isinstance(v, (int, float, np.integer, np.floating)) and v in (0, 1):
            table[j] = float(v)
        else:
            raise _not_binary(name, v, int(np.flatnonzero(codes == j)[0]))
    return table[codes]


def require_columns(frame: pd.DataFrame, columns: Iterable[str], name: str) -> None:
    """Raise a ``ValueError`` listing the expected columns when ``frame`` lacks any of them."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"{name} must be a pandas DataFrame; got {type(frame).__name__}.")
    expected = list(columns)
    absent = [c for c in expected if c not in frame.columns]
    if absent:
        raise ValueError(
            f"{name} is missing column(s) {absent}; expected columns {expected}, "
            f"got {list(map(str, frame.columns))}."
        )
