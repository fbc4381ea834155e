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

from regression.data.anchors import Anchors
from regression.data.matrix import default_n

__all__ = [
    "LatentData",
    "build_data",
    "latent_data",
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
