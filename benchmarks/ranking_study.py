"""Studies of comparisons and rank sets with known truth: simulated worlds and the bundled data's splits.

Run by ``python benchmarks/run.py ranking`` and, smaller, by the tests. Each
case fits the default estimator (:class:`~regression.transfer.model.TransferModel`),
builds its joint error and scores, against the true precisions:

* ``diff_cover``: every simultaneous difference interval (:func:`~regression.ranking.compare`)
  holds at once;
* ``rank_cover`` and ``rank_size``: every generator's true rank lies in its
  step-down rank set (:func:`~regression.ranking.rank_sets`) at once, and the
  mean set size; the same for sets read off Bonferroni marginal intervals
  (``bonferroni_*``, each interval at ``1 - alpha / G``) and for the projection
  of one confidence ellipsoid (``projection_*``);
* ``wrong_sign``: pairs decided with the wrong sign (a tie decided either way counts);
* ``decided``: pairs decided.

A true rank under ties is the set of ranks the tied generators share: a rank
set covers it when it contains that whole set (a step-down that decides no
tied pair, and no pair the wrong way, contains it; merely meeting it would
count a set that excludes ranks the generator truly shares).
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterator

import numpy as np
import pandas as pd
from tqdm.auto import tqdm

from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.progress import show_progress
from regression.ranking import bonferroni_rank_sets, compare, projection_rank_sets, rank_sets
from regression.transfer.model import TransferModel, TransferResult

__all__ = [
    "WORLD_KINDS",
    "bundled_ranking_study",
    "covers_ranks",
    "score_ranking",
    "simulated_ranking_study",
]

#: The kinds of simulated world the study draws from (:data:`regression.latent.worlds.TRANSFER_WORLDS`).
WORLD_KINDS = ("random", "systematic", "agreeable", "informative")


def covers_ranks(table: pd.DataFrame, truth: pd.Series) -> bool:
    """Every generator's rank set contains every rank it shares with the generators tied with it."""
    truth = truth.reindex(table.index)
    best = truth.rank(ascending=False, method="min")
    worst = truth.rank(ascending=False, method="max")
    return bool(((table["low_rank"] <= best) & (worst <= table["high_rank"])).all())


def score_ranking(
    result: TransferResult, truth: pd.Series, alpha: float = 0.05, *, df: float | None = None
) -> dict[str, float]:
    """The scores of one fit against the true precisions (module docstring).

    ``df``: the joint error's degrees of freedom in place of ``s - 1`` (the
    ablation of ``docs/ranking.md``); the Bonferroni sets keep the fit's own
    marginal intervals.
    """
    joint = result.joint_error(df=df)
    g = len(joint.estimate)
    scores: dict[str, float] = {}
    tables = {
        "rank": rank_sets(joint, alpha),
        "bonferroni": bonferroni_rank_sets(result.interval(alpha / g)),
        "projection": projection_rank_sets(joint, alpha),
    }
    for name, table in tables.items():
        scores[f"{name}_cover"] = float(covers_ranks(table, truth))
        scores[f"{name}_size"] = float((table["high_rank"] - table["low_rank"] + 1).mean())
    pairs = compare(joint, alpha)
    true = truth[pairs["generator_a"]].to_numpy() - truth[pairs["generator_b"]].to_numpy()
    scores["diff_cover"] = float(((pairs["low"] <= true) & (true <= pairs["high"])).all())
    said_a = (pairs["decided"] == "a higher").to_numpy()
    said_b = (pairs["decided"] == "b higher").to_numpy()
    scores["wrong_sign"] = float(((said_a & (true <= 0)) | (said_b & (true >= 0))).sum())
    scores["decided"] = float((said_a | said_b).sum())
    return scores


def simulated_ranking_study(
    n_worlds: int = 200,
    *,
    n_generators: int = 10,
    n_validators: int = 6,
    n_items: int = 400,
    n_calibration: int = 4,
    alpha: float = 0.05,
    seed: int = 0,
    progress: bool | None = None,
    df: float | None = None,
) -> pd.DataFrame:
    """Scores over simulated worlds whose judges' TPR / TNR move between generators.

    World ``w`` is of kind ``WORLD_KINDS[w % 4]``; every other world has ties
    (its last two generators share the first one's precision). The calibration
    generators are ``n_calibration`` drawn at random; their human precision is
    the valid share of their drawn items (full labels), the truth each
    generator's population precision. ``df`` as in :func:`score_ranking`.

    Returns
    -------
    DataFrame
        One row per world: ``kind, ties`` and the scores of :func:`score_ranking`.
    """
    rng = np.random.default_rng(seed)
    rows = []
    worlds = range(n_worlds)
    for w in tqdm(worlds, desc="worlds", disable=not show_progress(progress)):
        kind = WORLD_KINDS[w % len(WORLD_KINDS)]
        ties = 2 if (w // len(WORLD_KINDS)) % 2 else 0
        world = transfer_world(
            kind,
            seed=int(rng.integers(2**31)),
            n_generators=n_generators,
            n_validators=n_validators,
            n_items=n_items,
            n_annotated=n_generators,
            ties=ties,
        )
        names = list(world.precision.index)
        calibration = list(rng.choice(names, n_calibration, replace=False))
        anchors = Anchors.from_confusion(
            world.confusion, calibration, precision=world.sample_precision[calibration]
        )
        result = TransferModel().fit(world.counts, anchors=anchors)
        scores = score_ranking(result, world.precision, alpha, df=df)
        rows.append({"kind": kind, "ties": ties, **scores})
    return pd.DataFrame(rows)


def _splits(generators: list[str], s: int) -> Iterator[list[str]]:
    for calibration in itertools.combinations(sorted(generators), s):
        yield list(calibration)


def bundled_ranking_study(
    s: int = 3, alpha: float = 0.05, *, df: float | None = None
) -> pd.DataFrame:
    """Scores on the bundled agreeableness votes, for every split with ``s`` calibration generators.

    The truth is each generator's full human-label precision; the fit sees the
    labels of the calibration generators only. ``df`` as in :func:`score_ranking`.
    """
    from jurycal.datasets import load_agreeableness_judgments
    from regression.checks import coerce_binary

    judgments, human = load_agreeableness_judgments()
    labels = coerce_binary("human", human["human"], allow_missing=True)
    truth = human.assign(human=labels).groupby("generator")["human"].mean()
    rows = []
    for calibration in _splits(list(truth.index), s):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = TransferModel().fit_table(
                judgments, human[human["generator"].isin(calibration)], calibration
            )
        scores = score_ranking(result, truth, alpha, df=df)
        rows.append({"calibration": ", ".join(calibration), **scores})
    return pd.DataFrame(rows)


def summarise(study: pd.DataFrame) -> pd.DataFrame:
    """Coverage, mean set size (and its ratio to the Bonferroni sets), decisions and wrong signs."""
    return pd.DataFrame(
        {
            "cases": [len(study)],
            "diff_cover": [study["diff_cover"].mean()],
            "rank_cover": [study["rank_cover"].mean()],
            "bonferroni_cover": [study["bonferroni_cover"].mean()],
            "projection_cover": [study["projection_cover"].mean()],
            "rank_size": [study["rank_size"].mean()],
            "bonferroni_size": [study["bonferroni_size"].mean()],
            "projection_size": [study["projection_size"].mean()],
            "size_ratio": [study["rank_size"].mean() / study["bonferroni_size"].mean()],
            "decided": [study["decided"].mean()],
            "wrong_sign": [study["wrong_sign"].sum()],
        }
    )
