"""The checked data every estimator takes: judgments, counts, human labels and anchors.

The judgments table is validated and encoded once (:func:`encode_judgments`);
the generator x validator counts (:class:`Counts`), each calibration
generator's confusion table and the anchors (:class:`Anchors`) derive from
that encoding, and :func:`matrix_inputs` checks a matrix given directly.
"""

from regression.data.anchors import (
    CONFUSION_COLUMNS,
    Anchors,
    ConfusionCounts,
    confusion_from_encoded,
    confusion_from_judgments,
)
from regression.data.counts import Counts, counts_from_encoded, counts_from_judgments
from regression.data.judgments import (
    EncodedJudgments,
    HumanLabels,
    checked_human_labels,
    encode_judgments,
)
from regression.data.matrix import (
    check_anchor_labels,
    check_coverage,
    check_new_rows,
    checked_rates,
    default_n,
    matrix_inputs,
)

__all__ = [
    "CONFUSION_COLUMNS",
    "Anchors",
    "ConfusionCounts",
    "Counts",
    "EncodedJudgments",
    "HumanLabels",
    "check_anchor_labels",
    "check_coverage",
    "check_new_rows",
    "checked_human_labels",
    "checked_rates",
    "confusion_from_encoded",
    "confusion_from_judgments",
    "counts_from_encoded",
    "counts_from_judgments",
    "default_n",
    "encode_judgments",
    "matrix_inputs",
]
