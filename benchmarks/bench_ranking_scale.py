"""Leaderboards at arena scale: time and peak memory of fit, intervals, rank sets and every pair.

Run: ``python benchmarks/run.py ranking_scale``. For 10, 50 and 200
generators x 20 judges x 1,000 items (1,000 generators: ``bench_ranking_arena.py``) (a transfer world whose judges' TPR / TNR
move between generators, 4 calibration generators), the default estimator
(transfer) is fitted and then, from its joint error (20,000 draws): the rank
sets (:func:`regression.ranking.rank_sets`), every pair's simultaneous interval
(:func:`regression.ranking.compare`) and the leaderboard, which shares one
family of draws between the two. Beside them, where it fits in memory, the
implementation before the ranking scaled (``benchmarks/ranking_reference.py``,
every ordered pair x every draw), on the same joint error; the two decide the
same pairs (checked here and in the tests).

Seconds are wall-clock on a shared machine (the load average is printed), one
run each (the large boards take minutes), beside the CPU seconds of the process
(which the other users' load disturbs less); peak memory is what ``tracemalloc``
saw numpy allocate. Ratios to the fit put the ranking's cost in the fit's terms.
"""

from __future__ import annotations

import os
import time
import tracemalloc
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
from ranking_reference import reference_pairs, reference_rank_sets

from regression.data.anchors import Anchors
from regression.latent.worlds import transfer_world
from regression.ranking import compare, leaderboard, rank_sets, rank_sets_from_decisions
from regression.ranking.family import PairFamily, pair_positions
from regression.ranking.sets import decided_matrix
from regression.transfer.model import TransferModel

BOARDS = (10, 50, 200)
#: The largest board the reference runs on: its pairs x draws arrays take 3 x 8 x 39,800 x 20,000
#: bytes (19 GB) at 200 generators.
REFERENCE_MAX = 50
#: The smallest board whose leaderboard is also timed with a thread per core.
THREADED_MIN = 200
#: The largest board whose rank sets and pairs are also timed apart (beyond, the leaderboard,
#: which computes both from one family, is the one figure: minutes on a loaded machine).
SEPARATE_MAX = 200


def _measure(fn: Callable[[], Any]) -> tuple[Any, float, float, float]:
    """What ``fn`` returned, its wall-clock and CPU seconds and the peak megabytes it allocated."""
    tracemalloc.start()
    start, cpu = time.perf_counter(), time.process_time()
    value = fn()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    peak = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    return value, seconds, cpu, peak


def _world(g: int) -> tuple[Any, Anchors]:
    world = transfer_world(
        "random", seed=g, n_generators=g, n_validators=20, n_items=1000, n_annotated=4
    )
    calibration = list(world.annotated[:4])
    anchors = Anchors.from_confusion(
        world.confusion, calibration, precision=world.sample_precision[calibration]
    )
    return world, anchors


def board_stages(g: int, threads: tuple[int, ...]) -> list[dict[str, Any]]:
    """Each stage's time and memory on a board of ``g`` generators; the leaderboard with each ``threads``."""
    world, anchors = _world(g)
    rows = []

    def row(stage: str, fn: Callable[[], Any]) -> Any:
        value, seconds, cpu, peak = _measure(fn)
        rows.append(
            {"generators": g, "stage": stage, "seconds": seconds, "cpu_s": cpu, "peak_MB": peak}
        )
        print(f"  {g} generators, {stage}: {seconds:.1f} s", flush=True)
        return value

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = row("fit", lambda: TransferModel().fit(world.counts, anchors=anchors))
        row("intervals", result.interval)
        joint = row("joint error", result.joint_error)
    for count in threads:
        row(
            f"leaderboard, {count} thread{'s' if count > 1 else ''} (rank sets and every pair)",
            lambda: leaderboard(result, joint=joint, threads=count),  # noqa: B023 (called now)
        )
    if g > SEPARATE_MAX:
        return rows
    ranks = row("rank sets", lambda: rank_sets(joint))
    pairs = row(f"all {g * (g - 1) // 2:,} pairs", lambda: compare(joint))
    if g <= REFERENCE_MAX:
        old_ranks = row("rank sets, before", lambda: reference_rank_sets(joint))
        old_pairs = row("all pairs, before", lambda: reference_pairs(joint))
        same = ranks.equals(old_ranks) and pairs["decided"].equals(old_pairs["decided"])
        if not same:
            raise AssertionError(f"{g} generators: the decisions differ from before")
    return rows


def _monte_carlo(g: int, n_draws: tuple[int, ...], seeds: int) -> pd.DataFrame:
    """The spread over seeds of the first step's critical values and of the step-down's decisions."""
    world, anchors = _world(g)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = TransferModel().fit(world.counts, anchors=anchors)
    generators = result.interval().index
    a, b = pair_positions(generators, None)
    rows = []
    for n in n_draws:
        critical, decided, size = [], [], []
        for seed in range(seeds):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                joint = result.joint_error(n_draws=n, seed=seed)  # the draws it carries
            family = PairFamily(joint, a, b, n, seed)
            said, first = family.step_down(0.05)
            critical.append(np.median(first))
            decided.append(said)
            ranks = rank_sets_from_decisions(joint.estimate, decided_matrix(family, said, g))
            size.append((ranks["high_rank"] - ranks["low_rank"] + 1).mean())
        changed = [np.sum(d != decided[0]) for d in decided[1:]]
        rows.append(
            {
                "generators": g,
                "draws": n,
                "critical (median pair)": np.mean(critical),
                "its Monte Carlo sd": np.std(critical, ddof=1),
                "relative": np.std(critical, ddof=1) / np.mean(critical),
                "ordered pairs decided": np.mean([d.sum() for d in decided]),
                "decisions changed vs seed 0": np.mean(changed),
                "mean rank-set size": np.mean(size),
                "its sd over seeds": np.std(size, ddof=1),
            }
        )
    return pd.DataFrame(rows)


def print_stages(rows: list[dict[str, Any]]) -> pd.DataFrame:
    """The table of stages, with each stage's time over the fit's."""
    table = pd.DataFrame(rows)
    fit = table[table["stage"] == "fit"].set_index("generators")["seconds"]
    table["x fit"] = table["seconds"] / table["generators"].map(fit)
    print("### Time and peak memory per stage\n")
    print(table.round({"seconds": 2, "cpu_s": 2, "peak_MB": 1, "x fit": 2}).to_string(index=False))
    return table


def main() -> None:
    pd.set_option("display.width", 160)
    load = os.getloadavg()[0]
    print(f"Load average at the start: {load:.1f} on {os.cpu_count()} cores.\n")
    cores = os.cpu_count() or 1
    rows = [r for g in BOARDS for r in board_stages(g, (1, cores) if g >= THREADED_MIN else (1,))]
    print()
    table = print_stages(rows)
    before = table[table["stage"].str.endswith("before")].copy()
    if len(before):
        now = table.set_index(["generators", "stage"])["seconds"]
        ratio = pd.DataFrame(
            {
                "rank sets: before / now": [
                    now[(g, "rank sets, before")] / now[(g, "rank sets")]
                    for g in before["generators"].unique()
                ],
                "all pairs: before / now": [
                    now[(g, "all pairs, before")] / now[(g, f"all {g * (g - 1) // 2:,} pairs")]
                    for g in before["generators"].unique()
                ],
            },
            index=pd.Index(before["generators"].unique(), name="generators"),
        )
        print("\n### Speed-up over every pair x draw (same decisions)\n")
        print(ratio.round(1).to_string())
    print("\n### Monte Carlo error of the critical values, and the draws a stable board needs\n")
    print(
        "Each board's joint error is drawn again with 10 seeds (3 at 200 generators); the "
        "critical value is the first step's, as a multiple of the pair's scale (median over "
        "pairs); a decision changed is an ordered pair decided under one seed and not under "
        "seed 0, or back.\n"
    )
    carlo = pd.concat(
        [
            _monte_carlo(10, (2_000, 5_000, 20_000, 100_000), 10),
            _monte_carlo(50, (2_000, 5_000, 20_000, 100_000), 10),
            _monte_carlo(200, (20_000, 50_000), 3),
        ]
    )
    print(carlo.round(4).to_string(index=False))
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
