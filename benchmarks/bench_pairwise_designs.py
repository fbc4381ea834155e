"""Coverage of the pairwise intervals under the designs that broke them (issue 37): a draw aimed at
one generator, a held pilot beside a drawn batch, generators with 3-5 votes, sparse Bradley-Terry.

Run: ``python benchmarks/run.py pairwise_designs`` (a few minutes). Each cell is one simulated
arena (:func:`regression.simulate.pairwise_world`: unbalanced battles, Davidson ties, three judges
with position bias and per-generator leniency) with every battle's human verdict known, and
:data:`DRAWS` draws of the human votes from it:

* ``subset``: 120 votes drawn by :func:`~regression.pairwise.suggest_labels` with
  ``generators=["g00"]``, so every battle without ``g00`` has probability 0;
* ``pilot + batch``: 40 votes held (drawn uniformly, passed back with probability 1) and a batch
  of 60 by ``suggest_labels`` among the other battles;
* ``3-5 votes`` (and ``3-5 votes, votes alone``): 30 generators, 60 uniform votes, so a
  generator has 4 on average;
* ``sparse Bradley-Terry``: 10 generators, 50 uniform votes, the strengths.

The win rates' truth is each generator's mean human score over all its battles; the strengths',
the Davidson fit to every battle's human verdict among the generators the fit keeps (those it
estimates, centred over them: :func:`~regression.pairwise.davidson.identified_strengths`).
Per cell: the share of generator-draws with an interval, the coverage of the 95 % intervals
over those, and the least coverage of one generator (over the generators with an interval in at
least :data:`LEAST_DRAWS` draws), with the mean width.
"""

from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from dataclasses import replace

import numpy as np
import pandas as pd
from bench_pairwise_suggest import with_votes

from regression.core import systematic_sample
from regression.pairwise import (
    PairwiseResult,
    PairwiseTable,
    bradley_terry,
    check_pairwise,
    win_rates,
)
from regression.pairwise.davidson import identified_strengths
from regression.pairwise.design import DesignReach
from regression.pairwise.suggest import draw_design
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.simulate import pairwise_world

__all__ = ["CELLS", "design_study", "kept_truth", "summarise"]

#: Draws of the human votes per cell.
DRAWS = 200
ALPHA = 0.05
#: A generator's coverage is reported where it has an interval in at least this many draws.
LEAST_DRAWS = 50

#: Per cell: the arena (generators, battles, seed) and how its votes are drawn and fitted.
Drawer = Callable[[PairwiseTable, np.random.Generator, int], PairwiseTable]


def _uniform(n: int) -> Drawer:
    def draw(full: PairwiseTable, rng: np.random.Generator, seed: int) -> PairwiseTable:
        voted = np.sort(rng.choice(full.n_battles, n, replace=False))
        return with_votes(full, voted, np.full(n, n / full.n_battles))

    return draw


def _subset(n: int, generators: list[str]) -> Drawer:
    def draw(full: PairwiseTable, rng: np.random.Generator, seed: int) -> PairwiseTable:
        empty = with_votes(full, np.zeros(0, dtype=int), np.zeros(0))
        design = draw_design(empty, n, generators=generators, seed=seed)
        picks = systematic_sample(design.pi, rng)
        return with_votes(full, design.candidates[picks], design.pi[picks])

    return draw


def _pilot_and_batch(pilot: int, batch: int) -> Drawer:
    def draw(full: PairwiseTable, rng: np.random.Generator, seed: int) -> PairwiseTable:
        held = np.sort(rng.choice(full.n_battles, pilot, replace=False))
        design = draw_design(with_votes(full, held, np.ones(pilot)), batch, seed=seed)
        picks = systematic_sample(design.pi, rng)
        voted = np.concatenate([held, design.candidates[picks]])
        order = np.argsort(voted)
        pi = np.concatenate([np.ones(pilot), design.pi[picks]])
        return with_votes(full, voted[order], pi[order])

    return draw


#: Per cell: (generators, battles, world seed, estimand, judges, the draw).
CELLS: dict[str, tuple[int, int, int, str, bool, Drawer]] = {
    "subset (generators=['g00'], 120 votes)": (8, 1600, 3, "win_rate", True, _subset(120, ["g00"])),
    "subset (4 of 8 generators named, 160 votes)": (
        8, 1600, 4, "win_rate", True, _subset(160, ["g00", "g01", "g02", "g03"]),
    ),
    "pilot 40 held + batch 60": (10, 1000, 5, "win_rate", True, _pilot_and_batch(40, 60)),
    "pilot 40 held + batch 60, 30 generators": (
        30, 1500, 6, "win_rate", True, _pilot_and_batch(40, 60),
    ),
    "3-5 votes (30 generators, 60 votes)": (30, 3000, 7, "win_rate", True, _uniform(60)),
    "3-5 votes, votes alone": (30, 3000, 7, "win_rate", False, _uniform(60)),
    "sparse Bradley-Terry (10 generators, 50 votes)": (
        10, 1000, 9, "bradley_terry", True, _uniform(50),
    ),
    "sparse Bradley-Terry (10 generators, 30 votes)": (
        10, 1000, 10, "bradley_terry", True, _uniform(30),
    ),
}  # fmt: skip


def kept_truth(full: PairwiseTable, table: PairwiseTable, cache: dict) -> pd.Series:
    """The Davidson fit to every battle's human verdict among the generators the fit keeps."""
    reach = DesignReach(table)
    identified, _ = identified_strengths(table.among(reach.reached))
    keep = np.zeros(len(full.generators), dtype=bool)
    keep[np.flatnonzero(reach.reached)[identified]] = True
    key = keep.tobytes()
    if key not in cache:
        cache[key] = bradley_terry(full.among(keep), judges=False).estimate
    truth: pd.Series = cache[key]
    return truth


def design_study(draws: int = DRAWS, cells: tuple[str, ...] = tuple(CELLS)) -> pd.DataFrame:
    """One row per cell, interval method, draw and generator: ``cell, interval, draw, generator,
    votes, estimated, covered, width`` (win rates: each interval method of
    :data:`~regression.registry.BOUNDED_INTERVAL_METHODS` on one fit, the default first;
    strengths: normal)."""
    rows = []
    for cell in cells:
        n_gen, n_battles, seed, estimand, judges, drawer = CELLS[cell]
        world = pairwise_world(n_gen, n_battles, 0, seed=seed)
        full = check_pairwise(world.verdicts, world.votes)
        fit_with = win_rates if estimand == "win_rate" else bradley_terry
        cache: dict = {}
        for k in range(draws):
            rng = np.random.default_rng([seed, k])
            table = drawer(full, rng, seed + k)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # few votes, unreached, unidentified: counted
                fit: PairwiseResult = fit_with(table, judges=judges, seed=k)
            truth = world.truth if estimand == "win_rate" else kept_truth(full, table, cache)
            methods = BOUNDED_INTERVAL_METHODS if estimand == "win_rate" else ("normal",)
            for method in methods:
                interval = replace(fit, interval_method=method).interval(ALPHA)
                true = truth.reindex(interval.index)
                low, high = interval["low"], interval["high"]
                rows.append(
                    pd.DataFrame(
                        {
                            "cell": cell,
                            "interval": method,
                            "draw": k,
                            "generator": interval.index,
                            "votes": interval["n_labels"].to_numpy(),
                            "estimated": low.notna().to_numpy(),
                            "covered": ((low <= true) & (true <= high)).to_numpy(),
                            "width": (high - low).to_numpy(),
                        }
                    )  # fmt: skip
                )
    return pd.concat(rows, ignore_index=True)


def per_generator(study: pd.DataFrame) -> pd.DataFrame:
    """Per cell and generator: draws with an interval, mean votes, coverage (%)."""
    estimated = study[study["estimated"]]
    table = estimated.groupby(["cell", "interval", "generator"], sort=False).agg(
        draws=("covered", "size"), votes=("votes", "mean"), coverage=("covered", "mean")
    )
    table["coverage"] *= 100
    return table


def summarise(study: pd.DataFrame) -> pd.DataFrame:
    """Per cell: generator-draws with an interval (%), coverage over them (%), the least
    coverage of one generator (%) and which, the mean width."""
    generators = per_generator(study)
    reported = generators[generators["draws"] >= LEAST_DRAWS]
    rows = []
    for (cell, method), mine in study.groupby(["cell", "interval"], sort=False):
        estimated = mine[mine["estimated"]]
        at = reported.index.droplevel("generator") == (cell, method)
        own = reported[at].droplevel(["cell", "interval"])
        least = own["coverage"].idxmin() if len(own) else None
        rows.append({
            "cell": cell, "interval": method, "with_interval": 100 * mine["estimated"].mean(),
            "coverage": 100 * estimated["covered"].mean() if len(estimated) else np.nan,
            "least_generator": own["coverage"].min() if len(own) else np.nan,
            "which": f"{least} ({own.loc[least, 'votes']:.1f} votes)" if len(own) else "",
            "width": estimated["width"].mean() if len(estimated) else np.nan,
        })  # fmt: skip
    return (
        pd.DataFrame(rows)
        .set_index(["cell", "interval"])
        .round({"with_interval": 1, "coverage": 1, "least_generator": 1, "width": 3})
    )


def main() -> None:
    pd.set_option("display.width", 160)
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    start = time.perf_counter()
    study = design_study()
    print(
        f"{DRAWS} draws of the human votes per cell, each cell one simulated arena; 95 % "
        "intervals (prediction-powered unless 'votes alone'; interval: the win rates' floored "
        "interval, the default, and the betting and normal ones of the same fit; the strengths' "
        "is normal). "
        "with_interval: the generator-draws "
        "that have an interval (%); coverage: over those (%); least_generator: the least coverage "
        f"of one generator with an interval in at least {LEAST_DRAWS} draws (%), which, and its "
        "mean votes; width: the mean width (win rate, or log-strength).\n"
    )
    print(summarise(study).to_string())
    generators = per_generator(study)
    print("\nPer generator, by its mean votes (coverage %, generators with an interval in at least "
          f"{LEAST_DRAWS} draws):\n")  # fmt: skip
    reported = generators[generators["draws"] >= LEAST_DRAWS].reset_index()
    band = pd.cut(reported["votes"], [0, 3, 5, 8, 1e9], labels=["< 3", "3-5", "5-8", "8+"])
    banded = reported.assign(band=band).groupby(
        ["cell", "interval", "band"], sort=False, observed=True
    )
    print(
        banded.agg(generators=("coverage", "size"), mean=("coverage", "mean"),
                   least=("coverage", "min")).round(1).to_string()
    )  # fmt: skip
    print(f"\n({time.perf_counter() - start:.0f} s)")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
