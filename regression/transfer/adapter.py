"""The adapter from a checked matrix and its anchors to the arrays of :mod:`regression.transfer.estimators`."""

from __future__ import annotations

import numpy as np
import pandas as pd

from regression.data.anchors import Anchors
from regression.data.matrix import default_n
from regression.transfer.estimators import TransferData

__all__ = ["transfer_data"]


def transfer_data(rates: pd.DataFrame, n: pd.DataFrame | None, anchors: Anchors) -> TransferData:
    """The arrays of :mod:`regression.transfer.estimators` from a checked matrix and its anchors.

    Parameters
    ----------
    rates : DataFrame
        Generators x validators, NaN where absent (checked by
        :func:`~regression.latent.data.matrix_inputs`).
    n : DataFrame or None
        Items behind each cell; None: every cell weighs
        :func:`~regression.latent.data.default_n` items.
    anchors : Anchors
        Built by :meth:`Anchors.from_confusion`, :meth:`Anchors.from_human_labels`
        or :meth:`Anchors.from_encoded`, which keep each calibration
        generator's own confusion table (``anchors.tables``).

    Raises
    ------
    ValueError
        No calibration generator, anchors without per-generator tables, or a
        calibration generator that is not in the matrix.
    """
    calibration = list(anchors.calibration_generators)
    if not calibration:
        raise ValueError(
            "estimating new generators needs at least one calibration generator with human "
            "labels (anchors with a precision); for an unanchored fit use "
            "LatentTraitModel(loss='likelihood')."
        )
    if anchors.tables is None:
        raise ValueError(
            "these anchors hold pooled TPR / TNR values only; the transfer estimators need each "
            "calibration generator's own confusion table: build the anchors with "
            "Anchors.from_confusion or Anchors.from_human_labels, or use "
            "LatentTraitModel(loss='likelihood')."
        )
    missing = [g for g in calibration if g not in rates.index]
    if missing:
        raise ValueError(f"calibration generator(s) {missing} are not in the matrix.")
    tables = anchors.tables.set_index(["generator", "validator"])[["tp", "fn", "fp", "tn"]]
    confusion = np.zeros((len(calibration), rates.shape[1], 4))
    for c, generator in enumerate(calibration):
        if generator in tables.index.get_level_values(0):
            per = tables.xs(generator, level="generator").reindex(rates.columns).fillna(0.0)
            confusion[c] = per.to_numpy(dtype=float)
    counts = (
        np.where(rates.notna().to_numpy(), default_n(anchors, None), 0.0)
        if n is None
        else n.to_numpy(dtype=float)
    )
    return TransferData(
        rates=rates.to_numpy(dtype=float),
        n=counts,
        confusion=confusion,
        calibration=rates.index.get_indexer(calibration),
        precision=anchors.precision.reindex(calibration).to_numpy(dtype=float),
    )
