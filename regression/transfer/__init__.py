"""New generators' precision when the judges' TPR / TNR move between generators.

:mod:`regression.transfer.estimators` holds the estimators on arrays
(calibration mean, mean of judges, offset-corrected mean, pooled Rogan-Gladen,
hierarchical judges, and the stacked default); :mod:`regression.transfer.model`
fits them with pandas in and out (:class:`TransferModel`, :class:`TransferResult`).
"""

from regression.transfer.adapter import transfer_data
from regression.transfer.estimators import ESTIMATORS, Estimate, TransferData
from regression.transfer.model import TransferModel
from regression.transfer.result import TransferResult

__all__ = [
    "ESTIMATORS",
    "Estimate",
    "TransferData",
    "TransferModel",
    "TransferResult",
    "transfer_data",
]
