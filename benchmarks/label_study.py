"""Coverage and width of the partial-label interval over repeated label draws, beside the labels alone.

Each fully labelled generator is taken in turn as the new one: its labels are
hidden, ``n`` of its items are drawn (uniformly, or by the active rule of
:func:`~regression.labels.suggest.suggest_labels`), the estimate of
:func:`~regression.labels.partial.estimate_generator` is formed from them, the
votes and the transfer estimate of the other generators, and its interval is
checked against the generator's full-label precision (the mean over all its
judged items, the finite population the estimate targets).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from regression.intervals import wilson_interval
from regression.labels.api import transfer_table
from regression.labels.design import label_design
from regression.labels.partial import combine_transfer, ppi_design_mean
from regression.labels.plan import active_probabilities, simulated_width, systematic_sample
from regression.labels.predict import predict_generator
from regression.labels.result import transfer_sd

__all__ = ["label_study"]


def label_study(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame,
    n_values: Iterable[int] = (25, 50, 100),
    draws: int = 200,
    *,
    designs: Iterable[str] = ("uniform", "active"),
    generators: Iterable[str] | None = None,
    alpha: float = 0.05,
    seed: int = 0,
    use_transfer: bool = True,
) -> pd.DataFrame:
    """Coverage and mean width per generator, label count and design, over ``draws`` label draws.

    Parameters
    ----------
    judgments, human_labels : DataFrame
        Every generator studied must be fully labelled.
    n_values : iterable of int
        Labels drawn on the new generator.
    draws : int
    designs : iterable of {"uniform", "active"}
    generators : iterable of str, optional
        The generators taken as new in turn; default all fully labelled ones.
    alpha : float
    seed : int
    use_transfer : bool
        False: labels and votes only (the transfer estimate left out).

    Returns
    -------
    DataFrame
        ``generator, n, design, coverage, width, labels_coverage, labels_width,
        ratio`` (width over the labels-alone Wilson width of a uniform draw of
        the same size), ``planned`` (the width :func:`~regression.labels.plan.simulated_width`
        predicts), ``judges_worth`` and ``transfer_worth`` (mean effective labels).
    """
    design_all = label_design(judgments, human_labels)
    chosen = list(design_all.calibration if generators is None else generators)
    rng = np.random.default_rng(seed)
    rows = []
    for g in chosen:
        others = human_labels[human_labels["generator"] != g]
        design = label_design(judgments, others)
        q, _, _ = predict_generator(design, g)
        t, sd = transfer_sd(transfer_table(design) if use_transfer else None, g)
        truth_rows = design_all.rows(g)
        y_all = design_all.items["human"].to_numpy(dtype=float)[truth_rows]
        truth = float(y_all.mean())
        big_n = y_all.size
        for n in n_values:
            for kind in designs:
                pi_all = (
                    np.full(big_n, n / big_n) if kind == "uniform" else active_probabilities(q, n)
                )
                hit = width = l_hit = l_width = judges = transfer = 0.0
                for _ in range(draws):
                    if kind == "uniform":
                        pick = rng.choice(big_n, n, replace=False)
                    else:
                        pick = systematic_sample(pi_all, rng)
                    base = ppi_design_mean(y_all[pick], q[pick], q, pi_all[pick])
                    est = combine_transfer(base, t, sd)
                    low, high = est.interval(alpha)
                    hit += float(low <= truth <= high)
                    width += float(high - low)
                    judges += est.n_eff_ppi - est.n_base
                    transfer += est.n_transfer
                    uniform = rng.choice(big_n, n, replace=False)
                    wl, wh = wilson_interval(int(y_all[uniform].sum()), n, alpha)
                    l_hit += float(wl <= truth <= wh)
                    l_width += float(wh - wl)
                rows.append(
                    {
                        "generator": g,
                        "n": n,
                        "design": kind,
                        "precision": truth,
                        "coverage": hit / draws,
                        "width": width / draws,
                        "labels_coverage": l_hit / draws,
                        "labels_width": l_width / draws,
                        "ratio": width / l_width,
                        "planned": simulated_width(q, n, kind, alpha, sd),
                        "judges_worth": judges / draws,
                        "transfer_worth": transfer / draws,
                    }
                )
    return pd.DataFrame(rows)
