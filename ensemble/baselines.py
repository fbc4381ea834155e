"""Voting baselines for the latent-trait leave-s-out evaluation (agreeableness paper section 5.2).

Each is a function of a :class:`regression.leave_out.Split` returning the
estimated precision per generator, so that it plugs into
``regression.leave_out_evaluation(..., baselines={**DEFAULT_BASELINES, **VOTING_BASELINES})``.
They need the item-level votes (the evaluation given the judgments table);
without them they return NaN.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ensemble.metrics import ensemble_precision
from ensemble.threshold import sweep_thresholds
from ensemble.voting import NoVoteWarning, vote, vote_matrix

if TYPE_CHECKING:
    from regression.leave_out import Split

__all__ = ["VOTING_BASELINES", "majority_baseline", "minority_veto_baseline"]


def _precision(split: Split, rule: str, threshold: int | None) -> pd.Series:
    assert split.judgments is not None  # callers check
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)  # such items count as unlabelled
        labels = vote(vote_matrix(split.judgments), rule, threshold)
    return ensemble_precision(labels).to_frame()["estimate"].rename("precision")


def majority_baseline(split: Split) -> pd.Series:
    """Precision per generator by the majority vote (k = floor(V / 2) + 1; section 4)."""
    if split.judgments is None:
        return pd.Series(np.nan, index=split.rates.index)
    return _precision(split, "majority", None)


def minority_veto_baseline(split: Split) -> pd.Series:
    """Precision per generator by minority veto, its threshold tuned on the calibration generators.

    The threshold minimises the max abs error of the calibration generators'
    precision (ties to the smaller one), as the paper picked n = 4 (section 4).
    Undefined (NaN) without votes or without calibration generators (s = 0).
    """
    if split.judgments is None or not split.calibration or split.human_labels is None:
        return pd.Series(np.nan, index=split.rates.index)
    calibration = split.judgments[split.judgments["generator"].isin(split.calibration)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NoVoteWarning)
        sweep = sweep_thresholds(
            vote_matrix(calibration),
            split.human_labels[split.human_labels["generator"].isin(split.calibration)],
            precision=split.precision[list(split.calibration)],
            rules=("minority_veto",),
        )
    best = int(sweep.loc[sweep["max_abs_error"].idxmin(), "threshold"])
    return _precision(split, "minority_veto", best)


#: Name -> voting baseline of a :class:`regression.leave_out.Split`.
VOTING_BASELINES: Mapping[str, Callable[[Split], pd.Series]] = MappingProxyType(
    {"majority": majority_baseline, "minority_veto": minority_veto_baseline}
)
