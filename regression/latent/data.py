"""The data of a latent-trait fit: the checked matrix inputs and their flat numeric form.

A fit sees the generator x validator matrix P (agreeableness paper, section
5.1, eq. (9)), the items behind each cell when known, and the anchors (eq. (3);
App. C.4, eq. (12)). :func:`matrix_inputs` checks a matrix and its counts;
:func:`latent_data` turns them and the anchors into a :class:`LatentData`, the
flat arrays every loss, solver and bootstrap works on. Absent cells (NaN) are
not listed at all, so a dense and a sparse matrix go through the same code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_counts
from regression.latent.anchors import Anchors
from regression.latent.counts import Counts

__all__ = [
    "LatentData",
    "build_data",
    "check_anchor_labels",
    "check_coverage",
    "check_new_rows",
    "checked_rates",
    "default_n",
    "latent_data",
    "matrix_inputs",
]


@dataclass(frozen=True)
class LatentData:
    """The numbers one fit needs, as flat numpy arrays (built by :func:`latent_data`).

    Cells: ``rows``, ``cols`` (observed cells only), ``rate`` (P_ij), ``n`` (items
    behind each cell), ``in_likelihood`` (False for cells whose votes the anchors
    already hold). Anchors: ``*_idx`` positions, ``*_val`` values and ``*_n`` the
    items behind them, for generator precision (``g``), ``tpr`` and ``tnr``.
    """

    n_gen: int
    n_val: int
    rows: np.ndarray
    cols: np.ndarray
    rate: np.ndarray
    n: np.ndarray
    in_likelihood: np.ndarray
    g_idx: np.ndarray
    g_val: np.ndarray
    g_n: np.ndarray
    tpr_idx: np.ndarray
    tpr_val: np.ndarray
    tpr_n: np.ndarray
    tnr_idx: np.ndarray
    tnr_val: np.ndarray
    tnr_n: np.ndarray

    @property
    def n_params(self) -> int:
        """Parameters of the model: ``n_gen + 2 n_val``."""
        return self.n_gen + 2 * self.n_val

    @property
    def anchored(self) -> bool:
        """True when any precision, TPR or TNR anchor is given."""
        return bool(len(self.g_idx) or len(self.tpr_idx) or len(self.tnr_idx))


def matrix_inputs(
    rates: pd.DataFrame | Counts, counts: pd.DataFrame | Counts | None
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """Validated ``(rates, n or None)``: NaN rates are absent cells, n == 0 on them."""
    if isinstance(rates, Counts):
        if counts is not None:
            raise ValueError("rates is already a Counts object; do not pass counts as well.")
        return checked_rates(rates.rates), rates.n_labeled.astype(float)
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
            raise ValueError("rates disagree with counts.n_valid / counts.n_labeled.")
        n_frame = counts.n_labeled.reindex(index=table.index, columns=table.columns)
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


def build_data(
    rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors, equal_n: float = 1.0
) -> LatentData:
    """The :class:`LatentData` of checked inputs; a value without its count weighs ``equal_n``.

    Cells of the calibration generators whose votes the TPR / TNR anchor counts
    pool (``anchors.pooled_from``) are kept for the paper loss but left out of
    the likelihood, which would otherwise count those votes twice.
    """
    values = rates.to_numpy(dtype=float)
    rows, cols = np.nonzero(~np.isnan(values))
    rate = values[rows, cols]
    cell_n = np.full(rate.shape, equal_n) if n is None else n.to_numpy(dtype=float)[rows, cols]
    gen_pos = {g: i for i, g in enumerate(rates.index)}
    val_pos = {v: j for j, v in enumerate(rates.columns)}
    pooled_gen = np.zeros(len(rates.index), dtype=bool)
    for g in anchors.pooled_from:
        if g in gen_pos:
            pooled_gen[gen_pos[g]] = True
    pooled_val = np.zeros(len(rates.columns), dtype=bool)
    for name in ("tpr_n", "tnr_n"):
        counted = getattr(anchors, name)
        if counted is not None:
            for v in counted.index:
                pooled_val[val_pos[v]] = True
    in_likelihood = ~(pooled_gen[rows] & pooled_val[cols])

    def block(
        values: pd.Series, counts: pd.Series | None, pos: dict[Any, int]
    ) -> tuple[np.ndarray, ...]:
        idx = np.array([pos[k] for k in values.index], dtype=np.int64)
        m = np.full(len(values), equal_n) if counts is None else counts.to_numpy(dtype=float)
        return idx, values.to_numpy(dtype=float), m

    g_idx, g_val, g_n = block(anchors.precision, anchors.precision_n, gen_pos)
    tpr_idx, tpr_val, tpr_n = block(anchors.tpr, anchors.tpr_n, val_pos)
    tnr_idx, tnr_val, tnr_n = block(anchors.tnr, anchors.tnr_n, val_pos)
    return LatentData(
        n_gen=len(rates.index),
        n_val=len(rates.columns),
        rows=rows,
        cols=cols,
        rate=rate,
        n=cell_n,
        in_likelihood=in_likelihood,
        g_idx=g_idx,
        g_val=g_val,
        g_n=g_n,
        tpr_idx=tpr_idx,
        tpr_val=tpr_val,
        tpr_n=tpr_n,
        tnr_idx=tnr_idx,
        tnr_val=tnr_val,
        tnr_n=tnr_n,
    )


def latent_data(rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors) -> LatentData:
    """The :class:`LatentData` of checked inputs; values without counts weigh :func:`default_n`.

    Parameters
    ----------
    rates, n : DataFrame
        As :func:`matrix_inputs` returns them (``n`` None: equal weights).
    anchors : Anchors
        Checked against the matrix by :func:`check_anchor_labels`.
    """
    return build_data(rates, n, anchors, equal_n=default_n(anchors, n))


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
