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

    Raises
    ------
    ValueError
        Naming the first entry that is not a binary label.
    """
    if isinstance(values, pd.DataFrame):
        raise ValueError(f"{name} must be one-dimensional labels, not a DataFrame.")
    series = pd.Series(np.asarray(values, dtype=object).ravel(), dtype=object)
    shape = np.shape(np.asarray(values, dtype=object))
    out = np.empty(len(series), dtype=float)
    missing = series.isna().to_numpy()
    for i, v in enumerate(series.to_numpy()):
        if missing[i]:
            out[i] = np.nan
        elif isinstance(v, (bool, np.bool_)):
            out[i] = float(v)
        elif isinstance(v, str):
            key = v.strip().lower()
            if key not in _VALID_STRINGS:
                raise ValueError(
                    f"{name} must be 0/1, bool or 'valid'/'invalid'; got {v!r} at position {i}."
                )
            out[i] = _VALID_STRINGS[key]
        elif isinstance(v, (int, float, np.integer, np.floating)) and v in (0, 1):
            out[i] = float(v)
        else:
            raise ValueError(
                f"{name} must be 0/1, bool or 'valid'/'invalid'; got {v!r} at position {i}."
            )
    if missing.any() and not allow_missing:
        raise ValueError(
            f"{name} has {int(missing.sum())} missing label(s) (first at position "
            f"{int(np.flatnonzero(missing)[0])}); drop or fill them first."
        )
    return out.reshape(shape)


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
