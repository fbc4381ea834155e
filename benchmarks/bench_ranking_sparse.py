"""Ranking on sparse boards: generators without an interval, and the default draws at any size.

Run: ``python benchmarks/run.py ranking_sparse``. Two studies.

Coverage. Simulated arenas (:func:`regression.pairwise.simulate.pairwise_world`)
of 24 generators, 2,000 battles and 100, 300 or 1,000 human votes drawn
uniformly; a generator with fewer than three votes has no interval, so its
rank set is the full range 1..24 and the others' worst ranks widen by one for
each (:func:`regression.ranking.rank_sets`). Per number of votes: the share of
arenas with such a generator (where ranking refused before), how many there
are, the share of arenas in which every generator's true rank (of its win rate
over every battle of the table, ties covering every rank they share) lies in
its 95 % set, and the same for the ranked generators alone, with their mean
set size.

The default call at 24, 200 and 1,000 generators. ``rank_sets(joint)`` on a
joint error given by its law (normal, as a pairwise result's; independent
errors of sd 0.02-0.06 around estimates spread over 0.2-0.8) and
``result.rank_sets()`` on a transfer fit (its own 20,000 draws, a t part
with 3 degrees of freedom) of the worlds of ``bench_ranking_scale.py``: seconds
(wall, and CPU of this process), whether a warning was raised, the draws and
the Monte Carlo standard error of the family-wise level they hold, and the
mean rank-set size. Beside them, two joint errors whose own draws cannot
balance the family (a transfer fit with 12 calibration generators at 200
generators; a latent-trait fit's default bootstrap of 200 replicates at 8):
the default call falls back to the maximum's quantile, without a warning.

By the law: 500 boards of 24 normal estimates (true values 0.022 apart, sd
0.01-0.02, so sets are narrow) with 0, 1, 3 or 6 generators (at random)
without an interval: coverage of all ranks at once, of the ranked ones, their
set size, and the coverage of the others ranked among themselves alone (not
widened), scored against their rank among all 24.
"""

from __future__ import annotations

import os
import time
import warnings
from typing import Any

import numpy as np
import pandas as pd
from bench_ranking_scale import _world
from ranking_study import covers_ranks

from regression import JointError
from regression.pairwise import PairwiseModel
from regression.pairwise.simulate import pairwise_world
from regression.ranking import rank_sets
from regression.ranking.family import ranked_part
from regression.transfer.model import TransferModel

GENERATORS, BATTLES = 24, 2000
VOTES = (50, 100, 300, 1000)
WORLDS = 400
#: Generators without an interval on the boards of the study by the law, and its boards per row.
UNRANKED = (0, 1, 3, 6)
LAW_BOARDS = 500
BOARDS = (24, 200, 1000)


def coverage(votes: int, worlds: int = WORLDS, alpha: float = 0.05) -> dict[str, Any]:
    """One row of the coverage study: ``worlds`` seeded arenas with ``votes`` human votes."""
    with_unranked, unranked, every, ranked_only, size = [], [], [], [], []
    for seed in range(worlds):
        world = pairwise_world(GENERATORS, BATTLES, votes, seed=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fit = PairwiseModel().fit_table(world.verdicts, world.human)
            sets = fit.rank_sets(alpha, seed=seed)
        without = sets["reason"] != ""
        with_unranked.append(bool(without.any()))
        unranked.append(int(without.sum()))
        every.append(covers_ranks(sets, world.truth))
        truth = world.truth.reindex(sets.index)
        best = truth.rank(ascending=False, method="min")[~without]
        worst = truth.rank(ascending=False, method="max")[~without]
        kept = sets[~without]
        ranked_only.append(bool(((kept["low_rank"] <= best) & (worst <= kept["high_rank"])).all()))
        size.append(float((kept["high_rank"] - kept["low_rank"] + 1).mean()))
    return {
        "votes": votes,
        "worlds": worlds,
        "with an unranked generator": np.mean(with_unranked),
        "unranked per world": np.mean(unranked),
        "all ranks covered": np.mean(every),
        "ranked ones covered": np.mean(ranked_only),
        "ranked set size": np.mean(size),
    }


def by_the_law(u: int, boards: int = LAW_BOARDS, alpha: float = 0.05) -> dict[str, Any]:
    """One row of the study by the law: 24 generators, ``u`` of them (at random) without an interval.

    True values equally spaced over 0.5 (0.022 apart), errors normal with sd 0.01-0.02, so the
    sets are narrow and an unranked generator's position matters. Beside jurycal's sets, the
    others ranked among themselves alone (no widening), scored against their rank among all.
    """
    g = GENERATORS
    rng = np.random.default_rng(100 + u)
    index = pd.Index([f"g{i:02d}" for i in range(g)], name="generator")
    truth = pd.Series(np.linspace(0.75, 0.25, g), index=index)
    every, ranked_only, alone, size = [], [], [], []
    for board in range(boards):
        sd = rng.uniform(0.01, 0.02, g)
        estimate = truth.to_numpy() + sd * rng.standard_normal(g)
        without = rng.choice(g, u, replace=False)
        estimate[without] = np.nan
        variance = np.where(np.isnan(estimate), np.nan, sd**2)
        joint = JointError(
            pd.Series(estimate, index=index),
            pd.DataFrame(np.diag(variance), index=index, columns=index),
        )
        sets = rank_sets(joint, alpha, seed=board)
        kept = sets[sets["reason"] == ""]
        true_rank = truth.rank(ascending=False)
        every.append(covers_ranks(sets, truth))
        ranked_only.append(covers_ranks(kept, truth))
        size.append(float((kept["high_rank"] - kept["low_rank"] + 1).mean()))
        # the others ranked among themselves, their sets not widened for the unranked
        among = rank_sets(ranked_part(joint)[0], alpha, seed=board)
        r = true_rank.reindex(among.index)
        alone.append(bool(((among["low_rank"] <= r) & (r <= among["high_rank"])).all()))
    return {
        "unranked": u,
        "boards": boards,
        "all ranks covered": np.mean(every),
        "ranked ones covered": np.mean(ranked_only),
        "ranked set size": np.mean(size),
        "others ranked alone: covered": np.mean(alone),
    }


def _law(g: int) -> JointError:
    rng = np.random.default_rng(g)
    index = pd.Index([f"g{i:04d}" for i in range(g)], name="generator")
    sd = rng.uniform(0.02, 0.06, g)
    estimate = np.sort(rng.uniform(0.2, 0.8, g))[::-1]
    return JointError(
        pd.Series(estimate, index=index), pd.DataFrame(np.diag(sd**2), index=index, columns=index)
    )


def default_call(g: int, kind: str) -> dict[str, Any]:
    """The default ``rank_sets`` call on a board of ``g`` generators of ``kind`` ("law", "transfer")."""
    if kind == "law":
        joint = _law(g)

        def call() -> pd.DataFrame:
            return rank_sets(joint)
    else:
        world, anchors = _world(g)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = TransferModel().fit(world.counts, anchors=anchors)

        def call() -> pd.DataFrame:
            return result.rank_sets()

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start, cpu = time.perf_counter(), time.process_time()
        sets = call()
        seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"  {g} generators, {kind}: {seconds:.1f} s", flush=True)
    return {
        "generators": g,
        "joint error": "normal law" if kind == "law" else "transfer fit's draws",
        "seconds": seconds,
        "cpu_s": cpu,
        "warnings": len(caught),
        "draws": sets.attrs["n_draws"],
        "level MC se (points)": 100 * sets.attrs["level_error"],
        "mean set size": float((sets["high_rank"] - sets["low_rank"] + 1).mean()),
    }


def own_draws() -> list[dict[str, Any]]:
    """Default calls on joint errors whose own draws cannot balance the family: a transfer fit
    with 12 calibration generators (its t part has 11 degrees of freedom, lighter tails, so the
    balanced level lies beyond 20,000 draws at 200 generators) and a latent-trait fit's default
    bootstrap (200 replicates) at 8 generators; both fall back to the maximum's quantile."""
    from regression import LatentTraitModel
    from regression.data.anchors import Anchors
    from regression.latent.worlds import transfer_world

    rows = []
    for label, g, make in (
        ("transfer fit, 12 calibration generators", 200, "transfer"),
        ("latent-trait fit, 200 bootstrap replicates", 8, "latent"),
    ):
        s = 12 if make == "transfer" else 3
        world = transfer_world(
            "random", seed=g, n_generators=g, n_validators=20 if g > 8 else 5, n_items=1000,
            n_annotated=s,
        )  # fmt: skip
        calibration = list(world.annotated[:s])
        anchors = Anchors.from_confusion(
            world.confusion, calibration, precision=world.sample_precision[calibration]
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if make == "transfer":
                result: Any = TransferModel().fit(world.counts, anchors=anchors)
            else:
                result = LatentTraitModel(loss="likelihood", n_restarts=2).fit(
                    world.counts.rates, world.counts.n_labelled, anchors=anchors
                )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            start = time.perf_counter()
            sets = result.rank_sets()
            seconds = time.perf_counter() - start
        print(f"  {label}: {seconds:.1f} s", flush=True)
        rows.append(
            {
                "joint error": label,
                "generators": g,
                "seconds": seconds,
                "warnings": len(caught),
                "draws": sets.attrs["n_draws"],
                "level MC se (points)": 100 * sets.attrs["level_error"],
                "mean set size": float((sets["high_rank"] - sets["low_rank"] + 1).mean()),
            }
        )
    return rows


def main() -> None:
    pd.set_option("display.width", 160)
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    rows = [default_call(g, kind) for g in BOARDS for kind in ("law", "transfer")]
    print("\n### The default call: time, warnings and the Monte Carlo error of the level\n")
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print("\n### Own draws that cannot balance the family: the maximum's quantile\n")
    print(pd.DataFrame(own_draws()).round(3).to_string(index=False))
    print(f"\n### Sparse arenas: {GENERATORS} generators, {BATTLES:,} battles, 95 % rank sets\n")
    table = pd.DataFrame([coverage(v) for v in VOTES])
    print(table.round(3).to_string(index=False))
    print(
        f"\n### By the law: {GENERATORS} normal estimates, some without an interval, 95 % rank "
        "sets\n"
    )
    print(pd.DataFrame([by_the_law(u) for u in UNRANKED]).round(3).to_string(index=False))
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
