"""The label budget: how many labels each generator needs, with the transfer estimate where it holds.

:func:`plan_labels` lives with the transfer estimator rather than in
:mod:`regression.labels` because it fits one (:func:`transfer_table`): the
transfer package reads the partial labels, never the other way round.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from regression.checks import check_alpha
from regression.data.anchors import Anchors
from regression.data.counts import counts_from_encoded
from regression.labels.design import LabelDesign, label_design
from regression.labels.plan import labels_needed, simulated_width
from regression.labels.predict import predict_generator
from regression.labels.result import transfer_sd
from regression.transfer.model import TransferModel

__all__ = ["plan_labels", "transfer_table"]


def transfer_table(design: LabelDesign) -> pd.DataFrame | None:
    """The transfer estimate's 95 % intervals, fitted on the calibration generators alone (None without one)."""
    if not design.calibration:
        return None
    counts = counts_from_encoded(design.encoded)
    anchors = Anchors.from_encoded(design.encoded, design.calibration)
    model = TransferModel()
    result = model.fit(counts.rates, counts.n_labelled.astype(float), anchors=anchors)
    return result.interval(0.05)


def plan_labels(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame | None,
    width: float,
    alpha: float = 0.05,
    generators: list[str] | None = None,
) -> pd.DataFrame:
    """Labels each generator needs for an interval at most ``width`` wide, uniform and active.

    Parameters
    ----------
    judgments, human_labels : DataFrame
        As for :func:`~regression.labels.suggest.suggest_labels`.
    width : float
        Target width of the ``1 - alpha`` interval (a fraction: 0.1 is 10 points).
    alpha : float
    generators : list of str, optional
        Default every generator that is not fully labelled.

    Returns
    -------
    DataFrame
        Indexed by generator: ``role, n_items, n_labels`` (held now),
        ``width_now`` (predicted with the labels held), ``uniform`` and
        ``active`` (labels needed in all, drawn uniformly or by
        :func:`~regression.labels.suggest.suggest_labels`), ``more_uniform``,
        ``more_active`` (to buy). The prediction reads the judges' predicted
        labels as calibrated (:mod:`regression.labels.plan`); like the fit's
        default, it gives the transfer estimate no weight (its bias is not
        bounded), so the labels needed are those of labels and votes alone.
    """
    alpha = check_alpha(alpha)
    if not 0 < width < 1:
        raise ValueError(f"width must be in (0, 1); got {width!r}.")
    design = label_design(judgments, human_labels)
    chosen = (
        [g for g in design.roles.index if design.roles[g] != "calibration"]
        if generators is None
        else list(generators)
    )
    transfer = transfer_table(design)
    held = design.n_labels()
    rows = []
    for g in chosen:
        if g not in design.roles.index:
            raise ValueError(f"generator {g!r} has no judgments.")
        q = predict_generator(design, g)[0]
        sd = transfer_sd(transfer, g)[1]
        n_now = int(held.get(g, 0))
        uniform = labels_needed(q, width, "uniform", alpha, sd)
        active = labels_needed(q, width, "active", alpha, sd)
        rows.append(
            {
                "generator": g,
                "role": design.roles[g],
                "n_items": q.size,
                "n_labels": n_now,
                "width_now": simulated_width(q, n_now, "uniform", alpha, sd) if n_now else np.nan,
                "uniform": uniform,
                "active": active,
                "more_uniform": max(uniform - n_now, 0),
                "more_active": max(active - n_now, 0),
            }
        )
    columns = ["generator", "role", "n_items", "n_labels", "width_now", "uniform", "active"]
    columns += ["more_uniform", "more_active"]
    # every generator fully labelled: nothing to plan, an empty table with the same columns
    return pd.DataFrame(rows, columns=columns).set_index("generator")
