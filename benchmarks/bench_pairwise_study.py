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

Last, a world built like the issue's real arena set (:func:`arena_like_world`:
12 generators, 15,000 battles, three judges on every battle in one order, one
saying "a" on most battles, one leaning to "b", agreeing with the humans on
about half the battles and explaining about 29 % of the variance of the human
score), 1,000 human votes: both estimands, each judge's chi-square sets and
the best of the three.

Then the real set (:func:`jurycal.datasets.load_chatbot_arena`: Chatzi et al.'s
14,947 Chatbot Arena battles of 12 generators, three judges on every battle):
500, 1,000 and 2,000 human votes drawn uniformly, 100 draws each, both
estimands, ranked as the twin is (:func:`chatbot_arena_study`).
"""

from __future__ import annotations

import os
import time
import warnings

import numpy as np
import pandas as pd

from jurycal.datasets import load_arena_pairwise, load_chatbot_arena
from regression.pairwise import PairwiseModel, check_pairwise, win_rates
from regression.ranking import projection_rank_sets, rank_sets
from regression.simulate import pairwise_world

__all__ = [
    "METHODS",
    "arena_like_study",
    "arena_like_world",
    "arena_study",
    "chatbot_arena_study",
    "describe_arena_like",
    "estimand_rows",
    "rank_methods",
    "score_sets",
    "simulated_study",
]

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
#: The world like the real set: generators, battles, human votes, replications.
LIKE_GENERATORS, LIKE_BATTLES, LIKE_VOTES, LIKE_WORLDS = 12, 15_000, 1_000, 100
#: Its judges (see :func:`arena_like_world`): the share of battles each copies the human verdict
#: on, its pull to one side (judge-2's to "b"), its Davidson tie parameter.
LIKE_ACCURACY, LIKE_PULL, LIKE_TIE = (0.3, 0.45, 0.45), (0.78, 0.2, 0.05), (0.2, 0.3, 0.6)
#: Its humans: Davidson tie parameter (30 % ties between equals) and the strengths' spread.
LIKE_HUMAN_TIE, LIKE_SPREAD = 0.86, 0.6
#: The real arena set: human votes per draw, draws per number of votes.
CHATBOT_VOTES, CHATBOT_DRAWS = (500, 1_000, 2_000), 100


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


def arena_like_world(seed: int) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """A world like the issue's real arena set: ``(verdicts, human, votes)``.

    :func:`~regression.simulate.pairwise_world` with :data:`LIKE_GENERATORS`
    generators, :data:`LIKE_BATTLES` battles (unbalanced pairs), :data:`LIKE_VOTES`
    human votes drawn uniformly, human ties of Davidson parameter
    :data:`LIKE_HUMAN_TIE` and the judges of :data:`LIKE_ACCURACY`, :data:`LIKE_PULL` and
    :data:`LIKE_TIE`, each judging
    every battle once, generator_a's answer shown first (as in an arena's
    battles). Judges 1 and 3 are the simulator's judges at position ``ab``:
    judge 1 picks the answer shown first on 78 % of battles, so it says "a" on
    about 88 %. Judge 2 is the simulator's judge at position ``ba`` read as
    ``ab``: its pull to the answer shown first becomes a lean to "b", the
    answer shown second. ``votes`` holds every battle's human verdict.
    """
    world = pairwise_world(
        LIKE_GENERATORS,
        LIKE_BATTLES,
        LIKE_VOTES,
        accuracy=LIKE_ACCURACY,
        first_bias=LIKE_PULL,
        tie=LIKE_TIE,
        human_tie=LIKE_HUMAN_TIE,
        spread=LIKE_SPREAD,
        seed=seed,
    )
    verdicts = world.verdicts
    leans_b = verdicts["validator"] == "judge-2"
    kept = np.where(leans_b, verdicts["position"] == "ba", verdicts["position"] == "ab")
    return verdicts[kept].assign(position="ab"), world.human, world.votes


def describe_arena_like(verdicts: pd.DataFrame, votes: pd.DataFrame) -> pd.DataFrame:
    """Per judge (and the humans): the shares of "a", "b" and "tie", the agreement with the human
    verdict (ties included), and the in-sample R^2 of the human score (a win 1, a tie 1/2) on the
    three judges' scores together (least squares with an intercept), over every battle."""
    score = {"a": 1.0, "tie": 0.5, "b": 0.0}
    human = votes.set_index("item")["human"]
    rows, columns = {}, [np.ones(len(human))]
    for judge, own in verdicts.groupby("validator"):
        verdict = own.set_index("item")["verdict"].reindex(human.index)
        rows[judge] = {word: (verdict == word).mean() for word in score}
        rows[judge]["agreement"] = (verdict == human).mean()
        columns.append(verdict.map(score).to_numpy())
    rows["human voters"] = {word: (human == word).mean() for word in score}
    y, x = human.map(score).to_numpy(), np.column_stack(columns)
    residual = y - x @ np.linalg.lstsq(x, y, rcond=None)[0]
    table = pd.DataFrame(rows).T
    table["r2_of_three"] = 1.0 - residual.var() / y.var()
    return table


def estimand_rows(
    verdicts: pd.DataFrame,
    human: pd.DataFrame,
    truth: pd.Series,
    estimand: str,
    seed: int,
    *,
    n_draws: int = N_DRAWS,
) -> list[dict[str, object]]:
    """One draw of human votes ranked four ways (``jurycal``, ``votes alone``, ``chi-square,
    judge`` for each judge alone): rows of ``method, marginal, simultaneous, size`` against
    ``truth`` (the estimand over every battle's human verdict)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        fits = {
            "jurycal": PairwiseModel(estimand=estimand, seed=seed).fit_table(verdicts, human),
            "votes alone": PairwiseModel(estimand=estimand, judges=False).fit_table(
                verdicts, human
            ),
        } | {
            f"chi-square, {judge}": PairwiseModel(estimand=estimand, seed=seed).fit_table(
                own, human
            )
            for judge, own in verdicts.groupby("validator", sort=False)
        }
    rows = []
    for method, fit in fits.items():
        build = projection_rank_sets if method.startswith("chi-square") else rank_sets
        sets = build(fit.joint_error(), ALPHA, n_draws=n_draws, seed=seed)
        held, size = score_sets(sets, truth)
        rows.append({
            "method": method, "marginal": held.mean(), "simultaneous": held.all(),
            "size": size / len(truth),
        })  # fmt: skip
    return rows


def arena_like_study(
    worlds: int = LIKE_WORLDS,
    *,
    estimands: tuple[str, ...] = ("win_rate", "bradley_terry"),
    n_draws: int = N_DRAWS,
) -> pd.DataFrame:
    """``worlds`` seeded :func:`arena_like_world`, each of ``estimands``: one row per world, estimand and
    method (:func:`estimand_rows`): ``estimand, world, method, marginal, simultaneous, size``."""
    rows = []
    for world in range(worlds):
        verdicts, human, votes = arena_like_world(world)
        for estimand in estimands:
            truth = PairwiseModel(estimand=estimand, judges=False).fit_table(verdicts, votes)
            rows += [
                {"estimand": estimand, "world": world} | row
                for row in estimand_rows(
                    verdicts, human, truth.estimate, estimand, world, n_draws=n_draws
                )
            ]
    return pd.DataFrame(rows)


def chatbot_arena_study(
    votes: tuple[int, ...] = CHATBOT_VOTES,
    draws: int = CHATBOT_DRAWS,
    *,
    estimands: tuple[str, ...] = ("win_rate", "bradley_terry"),
    n_draws: int = N_DRAWS,
) -> pd.DataFrame:
    """The real arena set (:func:`jurycal.datasets.load_chatbot_arena`): per ``n`` in ``votes``,
    ``draws`` uniform draws of ``n`` human votes, each ranked by :func:`estimand_rows` against
    the estimand over all 14,947 human votes. One row per ``n``, draw, estimand and method."""
    verdicts, everyone = load_chatbot_arena()
    rows = []
    for estimand in estimands:
        truth = PairwiseModel(estimand=estimand, judges=False).fit_table(verdicts, everyone)
        for n in votes:
            for draw in range(draws):
                rng = np.random.default_rng([n, draw])
                human = everyone.iloc[np.sort(rng.choice(len(everyone), n, replace=False))]
                rows += [
                    {"estimand": estimand, "votes": n, "world": draw} | row
                    for row in estimand_rows(
                        verdicts, human, truth.estimate, estimand, draw, n_draws=n_draws
                    )
                ]
    return pd.DataFrame(rows)


def with_best_judge(study: pd.DataFrame) -> pd.DataFrame:
    """Adds ``chi-square, best of the three``: per world (or draw), the judge whose sets are
    smallest, an oracle choice."""
    cells = [c for c in study.columns if c not in ("method", "marginal", "simultaneous", "size")]
    chi = study[study["method"].str.startswith("chi-square")]
    best = chi.loc[chi.groupby(cells)["size"].idxmin()]
    study = pd.concat([study, best.assign(method="chi-square, best of the three")])
    order = {
        value: k for column in (*cells, "method") for k, value in enumerate(study[column].unique())
    }
    keys = [*[c for c in cells if c != "world"], "method"]
    return study.sort_values(keys, key=lambda c: c.map(order), kind="stable")


def versus_chi_square(study: pd.DataFrame, by: list[str], unit: str = "worlds") -> pd.DataFrame:
    """:func:`summarise` of a study with the best judge, plus each size as a ratio to the best
    one-judge chi-square sets'."""
    table = summarise(with_best_judge(study), by, unit)
    chi = table.xs("chi-square, best of the three", level="method")["size"]
    table["size_vs_best_chi_square"] = (
        table["size"] / chi.reindex(table.index.droplevel("method")).to_numpy()
    ).round(2)
    return table


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
    start = time.perf_counter()
    verdicts, _, votes = arena_like_world(0)
    print(
        f"\nA world like the real arena set: {LIKE_GENERATORS} generators, {LIKE_BATTLES:,} "
        f"battles (unbalanced pairs), three judges on every battle (one order), {LIKE_VOTES:,} "
        f"human votes drawn uniformly, {LIKE_WORLDS} worlds. The first world's judges, over "
        "every battle (shares of each verdict, agreement with the human verdict, R^2 of the human "
        "score on the three judges' scores, in sample):\n"
    )
    print(describe_arena_like(verdicts, votes).round(3).to_string())
    like = arena_like_study()
    print(
        "\nRank sets at 95 % (the step-down for jurycal and the votes alone, the projected "
        "chi-square ellipsoid of one judge's prediction-powered fit for the others; best of the "
        "three: per world, the judge with the smallest sets). Targets: jurycal's size at most "
        "0.78x the one-judge chi-square sets and 0.93x the votes alone, simultaneous coverage "
        ">= 90 %.\n"
    )
    print(versus_chi_square(like, ["estimand"]).to_string())
    print(f"\n({time.perf_counter() - start:.0f} s)")
    start = time.perf_counter()
    verdicts, everyone = load_chatbot_arena()
    print(
        "\nThe real arena set (jurycal.datasets.load_chatbot_arena: Chatzi et al.'s Chatbot Arena "
        "battles, 12 generators, 14,947 battles, three judges on every battle in one order): "
        f"{CHATBOT_DRAWS} uniform draws of the human votes per row, the truth each estimand over "
        "all 14,947 human votes. Its judges, over every battle:\n"
    )
    print(describe_arena_like(verdicts, everyone).round(3).to_string())
    print("\nRank sets at 95 %, as above:\n")
    real = chatbot_arena_study()
    print(versus_chi_square(real, ["estimand", "votes"], "draws").to_string())
    print(f"\n({time.perf_counter() - start:.0f} s)")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
