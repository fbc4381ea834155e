"""Coverage and width of the partial-label interval over repeated label draws, beside the labels alone.

Each fully labelled generator is taken in turn as the new one: its labels are
hidden, ``n`` of its items are drawn (uniformly, or by the rule of
:func:`~regression.labels.suggest.suggest_labels`), the estimate of
:func:`~regression.labels.partial.combine_transfer` is formed from them, the
votes and the transfer estimate of the other generators, and its interval is
checked against the generator's full-label precision (the mean over all its
judged items, the finite population the estimate targets).

A *moved transfer* (``shifts``): the new generator's human labels are moved
valid -> invalid (or back) on random items, votes unchanged, so the transfer
estimate's bias grows by ``shift`` points over its natural bias while the
predictor and the transfer estimate (fitted on the other generators) stay as
they were: a new model the judges are more lenient with than with the others.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pandas as pd

from regression import TransferModel
from regression.core.sampling import active_probabilities, systematic_sample
from regression.intervals import wilson_interval
from regression.labels.bias import bias_bound
from regression.labels.design import label_design
from regression.labels.partial import combine_transfer, ppi_design_mean
from regression.labels.plan import drawn_design, simulated_width
from regression.labels.predict import predict_generator

__all__ = [
    "WORLDS",
    "active_world",
    "label_study",
    "move_labels",
    "option_name",
    "strong_judge_world",
]

#: The two synthetic worlds of issue 30: (share, q) of the items.
WORLDS = {
    "judges sure of the invalid items": ((0.15, 0.01), (0.85, 0.80)),
    "judges sure of the valid items": ((0.85, 0.99), (0.15, 0.30)),
}


def option_name(transfer_bias: float | str | None) -> str:
    """How a ``transfer_bias`` option is named in the tables."""
    if transfer_bias is None:
        return "default"
    return transfer_bias if isinstance(transfer_bias, str) else f"B={100 * transfer_bias:g}"


def move_labels(y: np.ndarray, shift: float, rng: np.random.Generator) -> np.ndarray:
    """``y`` with ``round(|shift| N / 100)`` random labels flipped valid -> invalid (``shift > 0``) or back."""
    y = y.copy()
    k = int(round(abs(shift) * y.size / 100))
    pool = np.flatnonzero(y == (1.0 if shift > 0 else 0.0))
    y[rng.choice(pool, min(k, pool.size), replace=False)] = 0.0 if shift > 0 else 1.0
    return y


def label_study(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame,
    n_values: Iterable[int] = (25, 50, 100),
    draws: int = 200,
    *,
    designs: Iterable[str] = ("uniform", "active"),
    generators: Iterable[str] | None = None,
    shifts: Iterable[float] = (0.0,),
    options: Iterable[float | str | None] = (None,),
    alpha: float = 0.05,
    seed: int = 0,
    interval_method: str = "betting",
) -> pd.DataFrame:
    """Coverage and mean width per generator, shift, label count, design and option, over ``draws`` draws.

    Parameters
    ----------
    judgments, human_labels : DataFrame
        Every generator studied must be fully labelled.
    n_values : iterable of int
        Labels drawn on the new generator.
    draws : int
    designs : iterable of {"uniform", "active"}
        ``"active"``: the draw ``suggest_labels`` makes (active or uniform, by
        :func:`~regression.labels.plan.drawn_design`).
    generators : iterable of str, optional
        The generators taken as new in turn; default all fully labelled ones.
    shifts : iterable of float
        Points added to the transfer estimate's bias by moving labels (:func:`move_labels`).
    options : iterable of None, "held-out" or float
        The ``transfer_bias`` settings compared on the same draws.
    alpha : float
    seed : int
    interval_method : {"betting", "normal"}
        The labels-and-votes interval (``fit_partial(interval_method=)``).

    Returns
    -------
    DataFrame
        ``generator, shift, bias, n, design, option, precision, coverage, width,
        labels_coverage, labels_width, ratio`` (width over the labels-alone
        Wilson width of a uniform draw of the same size), ``planned`` (the
        width :func:`~regression.labels.plan.simulated_width` predicts),
        ``judges_worth``, ``transfer_worth`` (mean effective labels) and
        ``bound`` (the bias bound assumed, points), ``wider_than_labels``
        (the share of draws whose interval is wider than the Wilson interval of
        the same labels alone; NaN where the draw is active).
    """
    design_all = label_design(judgments, human_labels)
    chosen = list(design_all.calibration if generators is None else generators)
    options = list(options)
    rng = np.random.default_rng(seed)
    rows = []
    for g in chosen:
        others = human_labels[human_labels["generator"] != g]
        design = label_design(judgments, others)
        q, _, _ = predict_generator(design, g)
        result = TransferModel().fit_table(judgments, others)
        t, sd = float(result.precision[g]), float(result.transfer_sd()[g])
        held_out = result.loo_errors[result.method]
        bounds = [bias_bound(option, design, held_out) for option in options]
        y_natural = design_all.items["human"].to_numpy(dtype=float)[design_all.rows(g)]
        big_n = y_natural.size
        for shift in shifts:
            y_all = move_labels(
                y_natural, shift, np.random.default_rng([seed, int(round(10 * shift)) + 1000])
            )
            truth = float(y_all.mean())
            for n in n_values:
                for kind in designs:
                    drawn = "uniform" if kind == "uniform" else drawn_design(q, n)
                    pi_all = (
                        np.full(big_n, n / big_n)
                        if drawn == "uniform"
                        else active_probabilities(q, n)
                    )
                    hit = np.zeros(len(options))
                    width = np.zeros(len(options))
                    worth = np.zeros(len(options))
                    wider = np.zeros(len(options))
                    valid_alone = np.zeros(draws)
                    judges = 0.0
                    for d in range(draws):
                        if drawn == "uniform":
                            pick = rng.choice(big_n, n, replace=False)
                        else:
                            pick = systematic_sample(pi_all, rng)
                        base = ppi_design_mean(
                            y_all[pick],
                            q[pick],
                            q,
                            pi_all[pick],
                            interval_method=interval_method,
                            seed=d,
                        )
                        judges += base.n_eff_ppi - base.n_base
                        uniform = (
                            pick if drawn == "uniform" else rng.choice(big_n, n, replace=False)
                        )
                        valid_alone[d] = y_all[uniform].sum()
                        own = wilson_interval(valid_alone[d], n, alpha)
                        own_width = float(own.high - own.low)
                        for k, bound in enumerate(bounds):
                            est = combine_transfer(base, t, sd, bound)
                            low, high = est.bounds(alpha)
                            hit[k] += float(low <= truth <= high)
                            width[k] += float(high - low)
                            worth[k] += est.n_transfer
                            wider[k] += float(high - low > own_width + 1e-12)
                    alone = wilson_interval(valid_alone, n, alpha)
                    l_hit = float(((alone.low <= truth) & (truth <= alone.high)).sum())
                    l_width = float((alone.high - alone.low).sum())
                    # the plan for the interval measured here
                    planned = simulated_width(q, n, kind, alpha, interval_method=interval_method)
                    for k, option in enumerate(options):
                        rows.append(
                            {
                                "generator": g,
                                "shift": shift,
                                "bias": 100 * (t - truth),
                                "n": n,
                                "design": kind,
                                "option": option_name(option),
                                "bound": 100 * bounds[k],
                                "precision": truth,
                                "coverage": hit[k] / draws,
                                "width": width[k] / draws,
                                "labels_coverage": l_hit / draws,
                                "labels_width": l_width / draws,
                                "ratio": width[k] / l_width,
                                "planned": planned,
                                "judges_worth": judges / draws,
                                "transfer_worth": worth[k] / draws,
                                # the same labels' own Wilson interval: a uniform draw only
                                "wider_than_labels": (
                                    wider[k] / draws if drawn == "uniform" else np.nan
                                ),
                            }
                        )
    return pd.DataFrame(rows)


def active_world(
    parts: tuple[tuple[float, float], ...],
    n: int,
    draws: int,
    seed: int = 0,
    lam: float | None = None,
    interval_method: str = "betting",
) -> dict[str, float]:
    """The variance ratio and coverage of the labels-and-votes interval under active draws.

    Also the share of draws whose labelled predictions hold one value (the
    labels cannot tune ``lam`` there: ``ppi_design_mean`` takes 1) and the
    coverage in those draws.

    ``lam``: the power-tuning weight, tuned on the labels by default (as the
    estimator does), or fixed (1: the predictor read as calibrated).
    ``interval_method``: the interval (``fit_partial(interval_method=)``).
    """
    rng = np.random.default_rng(seed)
    q = np.concatenate([np.full(int(1000 * share), level) for share, level in parts])
    y = (rng.random(q.size) < q).astype(float)
    truth = float(y.mean())
    pi = active_probabilities(q, n)
    estimates = np.empty(draws)
    wilson_var = np.empty(draws)
    design_var = np.empty(draws)
    hit = 0.0
    # draws whose labelled predictions hold one value (no surely-invalid item drawn, say),
    # where the labels cannot tune lam: how many, and how often their interval covers
    one_level = 0
    one_level_hit = 0.0
    for k in range(draws):
        pick = systematic_sample(pi, rng)
        est = ppi_design_mean(
            y[pick], q[pick], q, pi[pick], lam=lam, interval_method=interval_method, seed=k
        )
        low, high = est.bounds()
        if np.ptp(q[pick]) == 0:
            one_level += 1
            one_level_hit += float(low <= truth <= high)
        estimates[k] = est.estimate
        p = min(max(est.estimate, 0.0), 1.0)
        wilson_var[k] = p * (1 - p) / est.n_eff
        design_var[k] = est.variance
        hit += float(low <= truth <= high)
    return {
        "n": n,
        "wilson / Monte Carlo variance": float(wilson_var.mean() / estimates.var()),
        "design variance / Monte Carlo": float(
            wilson_var.mean() / np.mean((estimates - truth) ** 2)
        ),
        "coverage": hit / draws,
        "one prediction level: share": one_level / draws,
        "one prediction level: coverage": one_level_hit / one_level if one_level else np.nan,
    }


def strong_judge_world(
    precisions: tuple[float, ...] = (0.55, 0.65, 0.75, 0.85, 0.7),
    items: int = 1000,
    validators: int = 4,
    accuracy: float = 0.85,
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Judgments and full human labels where the judges separate valid and invalid items well.

    Each generator's items are valid with its precision; each validator votes
    the human label with probability ``accuracy`` on either class,
    independently. The last generator is the new one of the benchmark.
    """
    rng = np.random.default_rng(seed)
    judged, labels = [], []
    for g, precision in enumerate(precisions):
        name = f"g{g}"
        y = (rng.random(items) < precision).astype(int)
        labels.append(pd.DataFrame({"generator": name, "item": np.arange(items), "human": y}))
        for v in range(validators):
            right = rng.random(items) < accuracy
            vote = np.where(right, y, 1 - y)
            judged.append(
                pd.DataFrame(
                    {
                        "generator": name,
                        "item": np.arange(items),
                        "validator": f"v{v}",
                        "label": vote,
                    }
                )
            )
    return pd.concat(judged, ignore_index=True), pd.concat(labels, ignore_index=True)
