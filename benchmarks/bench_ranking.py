"""Comparisons and rank sets: simultaneous coverage and set size with known truth, and speed.

Run: ``python benchmarks/run.py ranking``. Three studies of
``benchmarks/ranking_study.py`` with the default estimator (transfer):

* 200 simulated worlds (10 generators, 6 judges whose TPR / TNR move between
  generators, 400 items each, 4 calibration generators drawn at random; half
  the worlds have three generators tied);
* the bundled agreeableness votes, every split with 3 calibration generators
  (all 20), and with 4 (all 15).

For each: how often every pair interval holds at once (``diff_cover``), how
often every rank set holds at once, for the step-down sets, the sets read off
Bonferroni marginal intervals and the projected ellipsoid; their mean size;
pairs decided and decided with the wrong sign. Then an ablation: the same
studies with the joint error's t scale replaced by a normal one (as if the
transfer error's scale were known, not measured by s held-out errors), to show
what the set size gains and the coverage loses. Last, the time of the rank sets
and comparisons of 10 generators beside the fit itself.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd
from ranking_study import bundled_ranking_study, simulated_ranking_study, summarise

from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.ranking import compare, rank_sets
from regression.transfer.model import TransferModel

WORLDS = 200


def _fit_ten() -> tuple[object, float]:
    world = transfer_world("random", seed=7, n_generators=10, n_validators=6, n_items=400)
    calibration = list(world.precision.index[:4])
    anchors = Anchors.from_confusion(
        world.confusion, calibration, precision=world.sample_precision[calibration]
    )
    start = time.perf_counter()
    result = TransferModel().fit(world.counts, anchors=anchors)
    return result, time.perf_counter() - start


def _speed() -> pd.DataFrame:
    fits, ranks = [], []
    for _ in range(3):
        result, seconds = _fit_ten()
        fits.append(seconds)
        start = time.perf_counter()
        joint = result.joint_error()  # type: ignore[attr-defined]
        rank_sets(joint)
        compare(joint)
        ranks.append(time.perf_counter() - start)
    fit, rank = float(np.min(fits)), float(np.min(ranks))
    return pd.DataFrame(
        {"seconds": [fit, rank], "x fit": [1.0, rank / fit]},
        index=pd.Index(["fit (transfer, 10 generators)", "joint error + rank sets + 45 pairs"]),
    )


def main() -> None:
    pd.set_option("display.width", 160)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulated = simulated_ranking_study(WORLDS, seed=0, progress=False)
        bundled = {s: bundled_ranking_study(s) for s in (3, 4)}
        normal = {
            "simulated worlds": simulated_ranking_study(WORLDS, seed=0, progress=False, df=np.inf),
            "bundled, 3 calibration generators": bundled_ranking_study(3, df=np.inf),
        }
    print("### Simulated worlds (alpha = 0.05)\n")
    print(summarise(simulated).round(3).to_string(index=False))
    print()
    by_kind = simulated.groupby(["kind", "ties"]).agg(
        worlds=("rank_cover", "size"),
        diff_cover=("diff_cover", "mean"),
        rank_cover=("rank_cover", "mean"),
        rank_size=("rank_size", "mean"),
        bonferroni_size=("bonferroni_size", "mean"),
        projection_size=("projection_size", "mean"),
        decided=("decided", "mean"),
        wrong_sign=("wrong_sign", "sum"),
    )
    print(by_kind.round(3).to_string())
    for s, study in bundled.items():
        print(f"\n### Bundled agreeableness votes, every split with {s} calibration generators\n")
        print(summarise(study).round(3).to_string(index=False))
    print("\n### Ablation: a normal scale in place of t with s - 1 degrees of freedom\n")
    ablation = pd.concat(
        {name: summarise(study) for name, study in normal.items()}, names=["study"]
    ).droplevel(1)
    print(ablation.round(3).to_string())
    print("\n### Speed (best of 3)\n")
    print(_speed().round(4).to_string())


if __name__ == "__main__":
    main()
