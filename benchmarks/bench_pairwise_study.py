"""Rank sets from pairwise verdicts: simulated arenas and the bundled arena battles, three methods.

Run: ``python benchmarks/run.py pairwise_study`` (minutes). For each world
(:func:`regression.simulate.pairwise_world`: 8 to 30 generators, unbalanced
battles, Davidson ties, three judges with position bias, per-generator
leniency and their own tie rates; the human votes a uniform sample), three
ways to rank the generators by win rate, each at ``alpha = 0.05``:

* ``jurycal``: :class:`~regression.pairwise.PairwiseModel` (the three judges,
  prediction-powered) and the step-down rank sets of
  :func:`~regression.ranking.rank_sets` (Mogstad et al., 2024);
* ``votes alone``: ``PairwiseModel(judges=False)``, the same step-down;
* ``one judge, chi-square``: ``PairwiseModel`` on one judge's verdicts (the
  one that agrees most with the human votes) and the projection of one
  confidence ellipsoid, :func:`~regression.ranking.projection_rank_sets`:
  the construction of prediction-powered ranking (Chatzi et al., NeurIPS 2024).

Scored against the true win rates (every battle's human verdict): marginal
coverage (per generator, its true rank in its set; under ties in true win
rate, every rank the tied generators share), simultaneous coverage (all at
once), and the mean rank-set size, also as a ratio to the votes alone. Cells:
useful judges and judges that predict nothing (``noise``), by number of
generators. Then the bundled arena battles (:func:`jurycal.datasets.load_arena_pairwise`),
subsampling the human votes, the truth the win rates over all 877 votes.
"""

from __future__ import annotations

import os
import time
import warnings

import numpy as np
import pandas as pd

from regression.pairwise import PairwiseModel, check_pairwise, win_rates
from regression.ranking import projection_rank_sets, rank_sets
from regression.simulate import pairwise_world

__all__ = ["METHODS", "arena_study", "rank_methods", "score_sets", "simulated_study"]

#: The three methods, in the order of the tables.
METHODS = ("jurycal", "votes alone", "one judge, chi-square")
ALPHA = 0.05
#: Draws of the joint error behind each set of rank sets (fewer cannot resolve 870 ordered pairs).
N_DRAWS = 20_000
WORLDS = {"useful": 160, "noise": 60}
#: Per generator: battles and human votes; the spread of the true strengths.
BATTLES, VOTES, SPREAD = 300, 50, 1.5
ARENA_VOTES = (200, 400)
ARENA_DRAWS = 50


def score_sets(sets: pd.DataFrame, truth: pd.Series) -> tuple[np.ndarray, int]:
    """Per generator whether its rank set holds every rank its true win rate shares, and the sizes' sum."""
    truth = truth.reindex(sets.index)
    best = truth.rank(ascending=False, method="min")
    worst = truth.rank(ascending=False, method="max")
    held = ((sets["low_rank"] <= best) & (worst <= sets["high_rank"])).to_numpy()
    return held, int((sets["high_rank"] - sets["low_rank"] + 1).sum())


def _best_judge(verdicts: pd.DataFrame, human: pd.DataFrame) -> str:
    """The judge whose verdicts agree most with the human votes."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        judges = win_rates(check_pairwise(verdicts, human), judges=False).diagnostics()
    return str(judges["agreement"].drop("human voters").idxmax())


def rank_methods(
    verdicts: pd.DataFrame, human: pd.DataFrame, *, seed: int = 0, n_draws: int = N_DRAWS
) -> dict[str, pd.DataFrame]:
    """The rank sets of each of :data:`METHODS` at level ``1 - ALPHA``."""
    judge = verdicts[verdicts["validator"] == _best_judge(verdicts, human)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a few votes per generator warn; the sets still hold
        fits = {
            "jurycal": PairwiseModel(seed=seed).fit_table(verdicts, human),
            "votes alone": PairwiseModel(judges=False, seed=seed).fit_table(verdicts, human),
            "one judge, chi-square": PairwiseModel(seed=seed).fit_table(judge, human),
        }
    sets = {}
    for name, fit in fits.items():
        build = projection_rank_sets if name == "one judge, chi-square" else rank_sets
        sets[name] = build(fit.joint_error(), ALPHA, n_draws=n_draws, seed=seed)
    return sets


def simulated_study(
    worlds: dict[str, int],
    *,
    generators: tuple[int, int] = (8, 30),
    seed: int = 0,
    n_draws: int = N_DRAWS,
) -> pd.DataFrame:
    """One row per world and method: ``judges, generators, method, marginal, simultaneous, size``.

    ``worlds``: how many worlds of each kind (``"useful"`` judges, ``"noise"``);
    each has between ``generators[0]`` and ``generators[1]`` generators, drawn
    uniformly, with :data:`BATTLES` battles and :data:`VOTES` human votes per generator
    and strengths of spread :data:`SPREAD`.

    ``marginal`` is the share of the world's generators whose set holds their
    true rank, ``simultaneous`` whether all do, ``size`` the mean set size.
    """
    rows = []
    for kind, count in worlds.items():
        for k in range(count):
            world_seed = seed + 10_000 * (kind == "noise") + k
            low, high = generators
            n_gen = int(np.random.default_rng([world_seed, 1]).integers(low, high + 1))
            world = pairwise_world(
                n_gen,
                BATTLES * n_gen,
                VOTES * n_gen,
                spread=SPREAD,
                noise=kind == "noise",
                seed=world_seed,
            )
            sets = rank_methods(world.verdicts, world.human, seed=world_seed, n_draws=n_draws)
            for method, table in sets.items():
                held, size = score_sets(table, world.truth)
                rows.append({
                    "judges": kind, "generators": n_gen, "method": method,
                    "marginal": held.mean(), "simultaneous": held.all(), "size": size / n_gen,
                })  # fmt: skip
    return pd.DataFrame(rows)


def arena_study(
    votes: tuple[int, ...] = ARENA_VOTES, draws: int = ARENA_DRAWS, *, n_draws: int = N_DRAWS
) -> pd.DataFrame:
    """The bundled arena battles, ``n`` human votes drawn uniformly ``draws`` times per ``n``.

    One row per draw and method: ``votes, method, marginal, simultaneous, size``,
    against the win rates over every human vote.
    """
    from jurycal.datasets import load_arena_pairwise

    verdicts, human = load_arena_pairwise()
    truth = win_rates(check_pairwise(verdicts, human), judges=False).estimate
    rows = []
    for n in votes:
        for draw in range(draws):
            rng = np.random.default_rng([n, draw])
            sample = human.iloc[np.sort(rng.choice(len(human), n, replace=False))]
            sets = rank_methods(verdicts, sample, seed=draw, n_draws=n_draws)
            for method, table in sets.items():
                held, size = score_sets(table, truth)
                rows.append({
                    "votes": n, "method": method, "marginal": held.mean(),
                    "simultaneous": held.all(), "size": size / len(truth),
                })  # fmt: skip
    return pd.DataFrame(rows)


def summarise(study: pd.DataFrame, by: list[str], unit: str = "worlds") -> pd.DataFrame:
    """Per cell and method: how many ``unit`` (worlds, draws), marginal and simultaneous coverage
    (%), mean set size, and the size as a ratio to the votes alone."""
    table = study.groupby([*by, "method"], sort=False).agg(
        **{unit: ("size", "size")},
        marginal=("marginal", "mean"),
        simultaneous=("simultaneous", "mean"),
        size=("size", "mean"),
    )
    alone = table.xs("votes alone", level="method")["size"]
    table["size_vs_votes_alone"] = (
        table["size"] / alone.reindex(table.index.droplevel("method")).to_numpy()
    )
    table[["marginal", "simultaneous"]] *= 100
    return table.round({"marginal": 1, "simultaneous": 1, "size": 2, "size_vs_votes_alone": 2})


def _bands(study: pd.DataFrame) -> pd.DataFrame:
    band = pd.cut(study["generators"], [7, 14, 22, 30], labels=["8-14", "15-22", "23-30"])
    return study.assign(generators=band.astype(str))


def main() -> None:
    pd.set_option("display.width", 160)
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    start = time.perf_counter()
    study = simulated_study(WORLDS)
    print(
        f"Simulated arenas: {sum(WORLDS.values())} worlds ({WORLDS['useful']} with useful "
        f"judges, {WORLDS['noise']} with judges that predict nothing), 8 to 30 generators, "
        f"{BATTLES} battles and {VOTES} human votes per generator (a battle counts for both), "
        f"Davidson strengths of spread {SPREAD}, 95 % rank sets, "
        f"{N_DRAWS} draws of the joint error per set of rank sets. Coverage in %; size: the "
        "mean rank-set size; size_vs_votes_alone: its ratio to the votes alone's.\n"
    )
    print(summarise(study, ["judges"]).to_string())
    print("\nBy number of generators:\n")
    print(summarise(_bands(study), ["judges", "generators"]).to_string())
    print(f"\n({time.perf_counter() - start:.0f} s)\n")
    arena = arena_study()
    print(
        "Bundled arena battles (4 generators, 877 battles, judges gpt-4o-mini and gpt-5.2): "
        f"{ARENA_DRAWS} uniform draws of the human votes per row, the truth the win rates over "
        "all 877 votes.\n"
    )
    print(summarise(arena, ["votes"], "draws").to_string())
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
