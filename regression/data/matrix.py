"""The checked generator x validator matrix: rates, the items behind each cell, and its anchors.

Every estimator over the matrix (agreeableness paper, section 5.1, eq. (9))
takes its inputs through :func:`matrix_inputs`, which checks a matrix and its
counts once; :func:`check_anchor_labels` checks anchors against it and
:func:`check_new_rows` the rows added to a fitted matrix.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_counts
from regression.data.anchors import Anchors
from regression.data.counts import Counts

__all__ = [
    "check_anchor_labels",
    "check_coverage",
    "check_new_rows",
    "checked_rates",
    "default_n",
    "matrix_inputs",
]


def matrix_inputs(
    rates: pd.DataFrame | Counts, counts: pd.DataFrame | Counts | None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Validated ``(rates, n or None)``: NaN rates are absent cells, n == 0 on them."""
    if isinstance(rates, Counts):
        if counts is not None:
            raise ValueError("rates is already a Counts object; do not pass counts as well.")
        return checked_rates(rates.rates), rates.n_labelled.astype(float)
    table = checked_rates(rates)
    if counts is None:
        check_coverage(table.notna().to_numpy(), table)
        return table, None
    if isinstance(counts, Counts):
        if not (counts.generators.equals(table.index) and counts.validators.equals(table.columns)):
            counts = counts + Counts(
                pd.DataFrame(0, index=table.index, columns=table.columns),
                pd.DataFrame(0, index=table.index, columns=table.columns),
            )
        implied = counts.rates.reindex(index=table.index, columns=table.columns)
        both = implied.notna().to_numpy() & table.notna().to_numpy()
        if not np.allclose(implied.to_numpy()[both], table.to_numpy()[both], atol=1e-9):
            raise ValueError("rates disagree with counts.n_valid / counts.n_labelled.")
        n_frame = counts.n_labelled.reindex(index=table.index, columns=table.columns)
    else:
        if not isinstance(counts, pd.DataFrame):
            raise ValueError(f"counts must be a DataFrame or Counts; got {type(counts).__name__}.")
        if set(counts.index) != set(table.index) or set(counts.columns) != set(table.columns):
            raise ValueError("counts must have the same generators and validators as rates.")
        n_frame = counts.reindex(index=table.index, columns=table.columns)
    n = n_frame.to_numpy(dtype=float)
    n = np.where(np.isnan(n), 0.0, n)
    check_counts("counts", n)
    present = table.notna().to_numpy()
    clash = present & (n == 0)
    if clash.any():
        i, j = np.argwhere(clash)[0]
        raise ValueError(
            f"rate {table.iat[i, j]!r} for generator {table.index[i]!r} and validator "
            f"{table.columns[j]!r} has no items behind it (count 0); make it NaN or give its count."
        )
    n = np.where(present, n, 0.0)
    check_coverage(present, table)
    return table, pd.DataFrame(n, index=table.index, columns=table.columns)


def checked_rates(rates: Any) -> pd.DataFrame:
    """``rates`` as a float generator x validator frame.

    Raises
    ------
    ValueError
        Not a DataFrame, a repeated generator or validator, or a rate outside
        [0, 1] (naming it, its generator and its validator).
    """
    if not isinstance(rates, pd.DataFrame):
        raise ValueError(f"rates must be a pandas DataFrame; got {type(rates).__name__}.")
    for axis, labels in (("generator", rates.index), ("validator", rates.columns)):
        if labels.has_duplicates:
            raise ValueError(
                f"{axis} {labels[labels.duplicated()][0]!r} appears more than once in rates."
            )
    values = rates.to_numpy(dtype=float)
    bad = ~np.isnan(values) & ~((values >= 0) & (values <= 1))
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise ValueError(
            f"rates must lie in [0, 1] (NaN marks an absent cell); got {values[i, j].item()!r} for "
            f"generator {rates.index[i]!r} and validator {rates.columns[j]!r}."
        )
    return pd.DataFrame(
        values, index=rates.index.rename("generator"), columns=rates.columns.rename("validator")
    )


def check_coverage(present: np.ndarray, table: pd.DataFrame) -> None:
    """Raise a ``ValueError`` naming the first generator or validator without an observed cell."""
    for axis, labels, seen in (
        ("generator", table.index, present.any(axis=1)),
        ("validator", table.columns, present.any(axis=0)),
    ):
        if not seen.all():
            raise ValueError(
                f"{axis} {labels[~seen][0]!r} has no labels (every cell is absent); drop it "
                "or add its counts."
            )


def check_anchor_labels(anchors: Anchors, rates: pd.DataFrame) -> None:
    """Raise a ``ValueError`` unless every anchored generator and validator is in ``rates``."""
    if not isinstance(anchors, Anchors):
        raise ValueError(f"anchors must be an Anchors object; got {type(anchors).__name__}.")
    unknown = [g for g in anchors.precision.index if g not in rates.index]
    if unknown:
        raise ValueError(f"anchors name generator(s) {unknown} that are not in the matrix.")
    for name in ("tpr", "tnr"):
        unknown = [v for v in getattr(anchors, name).index if v not in rates.columns]
        if unknown:
            raise ValueError(
                f"{name} anchors name validator(s) {unknown} that are not in the matrix."
            )


def default_n(anchors: Anchors, n: pd.DataFrame | None) -> float:
    """Items assumed behind a value that came without its count (equal weights).

    The median items behind the precision anchors (a generator's items), else the
    median items behind an observed cell, else 1 (the scale then does not matter).
    """
    if anchors.precision_n is not None and len(anchors.precision_n):
        return float(np.median(anchors.precision_n.to_numpy()))
    if n is not None:
        positive = n.to_numpy(dtype=float)
        positive = positive[positive > 0]
        if positive.size:
            return float(np.median(positive))
    return 1.0


def check_new_rows(rates: Any, fitted: pd.DataFrame) -> None:
    """Check rows to add to a fit: a DataFrame of new generators over the fit's validators.

    Raises
    ------
    ValueError
        ``rates`` is not a DataFrame, names a generator already in ``fitted``,
        or a validator ``fitted`` has not.
    """
    if not isinstance(rates, pd.DataFrame):
        raise ValueError(f"rates must be a pandas DataFrame; got {type(rates).__name__}.")
    clash = [g for g in rates.index if g in fitted.index]
    if clash:
        raise ValueError(f"generator(s) {clash} are already in the fit; give only new rows.")
    unknown = [v for v in rates.columns if v not in fitted.columns]
    if unknown:
        raise ValueError(
            f"validator(s) {unknown} are not in the fit; it has {list(fitted.columns)}."
        )
