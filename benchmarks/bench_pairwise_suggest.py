"""Where the second batch of human votes goes: uniform, the win-rate objective, the undecided pairs.

Run: ``python benchmarks/run.py pairwise_suggest`` (minutes). Each world is a
simulated arena (:func:`regression.simulate.pairwise_world`: 8 to 20
generators, unbalanced battles, Davidson ties, three judges with position
bias, per-generator leniency and their own tie rates) with every battle's
human verdict known. A pilot of human votes is drawn uniformly; then a
second batch among the unvoted battles, with the pilot held, three ways
(:data:`REGIMES`: the votes per generator in each):

* ``uniform``: every unvoted battle alike;
* ``win rates``: :func:`~regression.pairwise.suggest_labels` with
  ``objective="win rates"`` (the sum of the win-rate variances);
* ``undecided pairs``: ``objective="undecided pairs"`` (the
  differences of the pairs the pilot's rank sets leave undecided or nearly,
  :func:`~regression.pairwise.suggest.pair_weights`).

The draws are those of ``suggest_labels`` (:func:`~regression.pairwise.suggest.draw_design`
and its systematic pi-ps sample, on the checked table). The pilot votes are passed back
with inclusion probability 1, the batch with its own; and, as ``uniform, one
draw``, the uniform batch's votes with the pilot's as one uniform draw of
them all (a uniform draw from what a uniform pilot left is one, with the
pilot), none held; and, as ``suggested``, the draw ``suggest_labels`` (win
rates) makes given the pilot's votes as a user passes a uniform draw, with no
probabilities: it joins them as one uniform draw where that is predicted
narrower than holding them. The win rates are
prediction-powered (:func:`~regression.pairwise.win_rates`) and ranked by
the step-down rank sets at 95 % (:func:`~regression.ranking.rank_sets`).
Scored against the true win rates as ``bench_pairwise_study`` scores them:
marginal and simultaneous coverage, the mean rank-set size, and the pairs
decided.
"""

from __future__ import annotations

import os
import time
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd
from bench_pairwise_study import score_sets

from regression.core import systematic_sample
from regression.pairwise import PairwiseTable, check_pairwise, win_rates
from regression.pairwise.suggest import DrawDesign, draw_design
from regression.ranking import rank_sets
from regression.simulate import pairwise_world

__all__ = ["WAYS", "drawn_votes", "suggest_study", "summarise"]

#: The three ways to draw the second batch with the pilot held, in the order of the tables.
WAYS = ("uniform", "win rates", "undecided pairs")
#: The uniform batch's votes and the pilot's passed as one uniform draw, none held.
POOLED = "uniform, one draw"
#: ``suggest_labels`` (win rates) given the pilot as a user passes it, with no probabilities: it
#: draws to join the pilot as one uniform draw where that is predicted narrower, else held.
SUGGESTED = "suggested"
ALPHA = 0.05
#: Worlds per regime.
WORLDS = 100
#: Per generator: battles; the spread of the true strengths.
BATTLES, SPREAD = 200, 1.0
#: The regimes: per generator, the pilot's votes and the second batch's.
REGIMES = {
    "pilot 20, batch 20": (20, 20),
    "pilot 60, batch 30": (60, 30),
    # a small pilot before a large batch: where aiming the batch around the held pilot pays most
    "pilot 5, batch 40": (5, 40),
}
GENERATORS = (8, 20)
N_DRAWS = 20_000


def with_votes(full: PairwiseTable, voted: np.ndarray, pi: np.ndarray) -> PairwiseTable:
    """The fully voted table keeping the votes of the battles ``voted`` (sorted), drawn with
    probabilities ``pi``."""
    row = np.full(full.n_battles, -1)
    row[voted] = np.arange(voted.size)
    probability = np.full(full.n_battles, np.nan)
    probability[voted] = pi
    keep = row >= 0
    return replace(
        full,
        human=np.where(keep, full.human, np.nan),
        inclusion_probability=probability,
        human_row=row,
        weighted=True,
    )


def drawn_votes(
    held: np.ndarray, design: DrawDesign, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """The battles voted once ``design``'s batch is drawn beside the votes ``held`` (sorted), and
    their inclusion probabilities as passed back: every vote the joined draw's where the design
    joins them as one uniform draw, else the held ones 1 and the batch its own."""
    picks = systematic_sample(design.pi, rng)
    voted = np.concatenate([held, design.candidates[picks]])
    order = np.argsort(voted)
    if design.one_draw is not None:
        return voted[order], np.full(voted.size, design.one_draw)
    return voted[order], np.concatenate([np.ones(held.size), design.pi[picks]])[order]


def _designs(table: PairwiseTable, n: int, seed: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Per way, the second batch's candidate battles and their inclusion probabilities."""
    candidates = np.flatnonzero(np.isnan(table.human))
    designs = {"uniform": (candidates, np.full(candidates.size, n / candidates.size))}
    for way in WAYS[1:]:
        design = draw_design(table, n, objective=way, seed=seed)
        designs[way] = (design.candidates, design.pi)
    return designs


def _correlation(designs: dict[str, tuple[np.ndarray, np.ndarray]]) -> float:
    """The correlation of the two objectives' inclusion probabilities over the unvoted battles."""
    (mine, pi), (theirs, other) = designs["undecided pairs"], designs["win rates"]
    everyone = designs["uniform"][0]
    a, b = np.zeros(everyone.size), np.zeros(everyone.size)
    a[np.searchsorted(everyone, mine)], b[np.searchsorted(everyone, theirs)] = pi, other
    return float(np.corrcoef(a, b)[0, 1])


def suggest_study(
    worlds: int = WORLDS,
    pilot_votes: int = 20,
    batch_votes: int = 20,
    *,
    generators: tuple[int, int] = GENERATORS,
    seed: int = 0,
    n_draws: int = N_DRAWS,
) -> pd.DataFrame:
    """One row per world and way: ``world, generators, way, marginal, simultaneous, size, decided,
    pi_correlation`` (``size`` the mean rank-set size, ``decided`` the share of pairs ordered,
    ``pi_correlation``, on the undecided pairs' row, the correlation of its inclusion
    probabilities with the win-rate objective's over the unvoted battles), and the pilot's
    own rank sets as way ``pilot only``, and ``one_draw`` on the :data:`SUGGESTED` row (whether
    ``suggest_labels`` joined the pilot as one uniform draw). Per generator, ``pilot_votes`` in
    the pilot and ``batch_votes`` in the second batch."""
    rows = []
    for k in range(worlds):
        world_seed = seed + k
        n_gen = int(
            np.random.default_rng([world_seed, 1]).integers(generators[0], generators[1] + 1)
        )
        world = pairwise_world(n_gen, BATTLES * n_gen, 0, spread=SPREAD, seed=world_seed)
        full = check_pairwise(world.verdicts, world.votes)
        rng = np.random.default_rng([world_seed, 2])
        held = np.sort(rng.choice(full.n_battles, pilot_votes * n_gen, replace=False))
        pilot = with_votes(full, held, np.ones(held.size))
        tables = {
            "pilot only": with_votes(full, held, np.full(held.size, held.size / full.n_battles))
        }
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a generator with few votes warns; the sets still hold
            designs = _designs(pilot, batch_votes * n_gen, world_seed)
            for way, (candidates, probability) in designs.items():
                drawn = systematic_sample(probability, np.random.default_rng(world_seed))
                picks, pi = candidates[drawn], probability[drawn]
                voted = np.concatenate([held, picks])
                order = np.argsort(voted)
                tables[way] = with_votes(
                    full, voted[order], np.concatenate([np.ones(held.size), pi])[order]
                )
                if way == "uniform":
                    # a uniform batch from what a uniform pilot left: with the pilot, one uniform
                    # draw of them all, which holds no vote fixed
                    tables[POOLED] = with_votes(
                        full, voted[order], np.full(voted.size, voted.size / full.n_battles)
                    )
            given = draw_design(tables["pilot only"], batch_votes * n_gen, seed=world_seed)
            voted, probability = drawn_votes(held, given, np.random.default_rng(world_seed))
            tables[SUGGESTED] = with_votes(full, voted, probability)
            for way, table in tables.items():
                fit = win_rates(table, seed=world_seed)
                sets = rank_sets(fit.joint_error(), ALPHA, n_draws=n_draws, seed=world_seed)
                held_set, size = score_sets(sets, world.truth)
                pairs = n_gen * (n_gen - 1) / 2
                decided = (pairs - ((sets["high_rank"] - sets["low_rank"]).sum()) / 2) / pairs
                rows.append({
                    "world": k, "generators": n_gen, "way": way, "marginal": held_set.mean(),
                    "simultaneous": held_set.all(), "size": size / n_gen, "decided": decided,
                    "pi_correlation": _correlation(designs) if way == WAYS[-1] else np.nan,
                    "one_draw": given.one_draw is not None if way == SUGGESTED else np.nan,
                })  # fmt: skip
    return pd.DataFrame(rows)


def summarise(study: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """Per cell and way: worlds, marginal and simultaneous coverage (%), mean rank-set size, its
    ratio to the uniform batch's, and the pairs decided (%)."""
    table = study.groupby([*by, "way"], sort=False).agg(
        worlds=("size", "size"),
        marginal=("marginal", "mean"),
        simultaneous=("simultaneous", "mean"),
        size=("size", "mean"),
        decided=("decided", "mean"),
    )
    uniform = table.xs("uniform", level="way")["size"]
    table["size_vs_uniform"] = (
        table["size"] / uniform.reindex(table.index.droplevel("way")).to_numpy()
    )
    table[["marginal", "simultaneous", "decided"]] *= 100
    return table.round(
        {"marginal": 1, "simultaneous": 1, "size": 3, "decided": 1, "size_vs_uniform": 3}
    )


def _paired(study: pd.DataFrame, way: str, other: str) -> str:
    """The mean per-world difference in rank-set size, ``way`` minus ``other``, with its standard error."""
    size = study.pivot(index="world", columns="way", values="size")
    difference = size[way] - size[other]
    se = difference.std(ddof=1) / np.sqrt(len(difference))
    return f"{way} minus {other}: {difference.mean():+.3f} (standard error {se:.3f})"


def main() -> None:
    pd.set_option("display.width", 160)
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    start = time.perf_counter()
    study = pd.concat(
        [
            suggest_study(WORLDS, pilot, batch).assign(regime=regime)
            for regime, (pilot, batch) in REGIMES.items()
        ],
        ignore_index=True,
    )
    print(
        f"{WORLDS} simulated arenas per regime, {GENERATORS[0]} to {GENERATORS[1]} generators, "
        f"{BATTLES} battles per generator, Davidson strengths of spread {SPREAD}; a pilot of "
        "human votes drawn uniformly, then a second batch drawn each way below (the regime: "
        "votes per generator in each); 95 % step-down rank sets of the prediction-powered win rates, "
        f"{N_DRAWS} draws of the joint error. Coverage and pairs decided in %; size: the mean "
        "rank-set size; size_vs_uniform: its ratio to the uniform batch's; pilot only: the pilot "
        f"votes alone; {POOLED}: the uniform batch's votes and the pilot's passed together as "
        f"one uniform draw (none held at probability 1); {SUGGESTED}: suggest_labels' draw "
        "(win rates) given the pilot's votes with no probabilities, as a user passes a uniform "
        "draw (it joins them as one uniform draw where that is predicted narrower).\n"
    )
    print(summarise(study, ["regime"]).to_string())
    # the regimes in order, the bands in increasing order within each
    by_size = study.sort_values(["regime", "generators"], kind="stable")
    band = pd.cut(by_size["generators"], [7, 12, 16, 20], labels=["8-12", "13-16", "17-20"])
    print("\nBy number of generators:\n")
    banded = by_size.assign(generators=band.astype(str))
    print(summarise(banded, ["regime", "generators"]).to_string())
    print("\nPer world, the mean rank-set size:\n")
    for regime in REGIMES:
        mine = study[study["regime"] == regime]
        print(
            f"- {regime}: {_paired(mine, 'undecided pairs', 'uniform')}; "
            f"{_paired(mine, 'undecided pairs', 'win rates')}; the two objectives' inclusion "
            f"probabilities correlate at {mine['pi_correlation'].mean():.2f} on average "
            f"({mine['pi_correlation'].min():.2f} at the least)."
        )
    chosen = study[study["way"] == SUGGESTED].groupby("regime", sort=False)["one_draw"].mean()
    print(
        "\nThe share of worlds in which suggest_labels joined the pilot as one uniform draw: "
        + "; ".join(f"{regime} {share:.0%}" for regime, share in chosen.items())
        + "."
    )
    print(f"\n({time.perf_counter() - start:.0f} s)")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
