"""Graded scores on worlds adversarial by construction: judges that see quality, and are wrong where it hurts.

Run: ``python benchmarks/run.py adversarial_scores`` (the full grid, ``make bench``),
or ``python benchmarks/bench_adversarial_scores.py --quick`` (a few draws of a small
grid: the smoke test in ``tests/regression/test_bench_adversarial_scores.py``).

The graded-score version of the adversarial grid (issue 37 item 6; issue 38's
targets): the default interval of :class:`regression.ScoreModel` per generator,
n and design, its records handed to :func:`bench_adversarial.report`, which
prints coverage per cell and per generator and the widths in the binary grid's
tables, against the ratings-alone Student t-interval (what users compare to);
:func:`without_judges` sets it beside the same interval without the judges, and
:func:`active_against_uniform` the active design's width beside the uniform one's.

**The worlds** (:func:`score_adversarial_world`). ``ITEMS`` outputs of each of
five generators, each output of latent quality ``z ~ N(mu_g, 1)`` (``mu_g``
from -0.6 to 0.6). The human rating (the truth: each generator's mean rating
over its outputs) is ``z`` read on 1-5 through the skewed link of
:mod:`regression.scores.simulate`, ``1 + 4 sigmoid(1.5 z + 3 pile)^(1 - pile)``
rounded; ``pile`` = 0 spreads the ratings over the scale, 0.6 piles them at the
top (50-88 % of a generator's outputs rated 5). Four judges see ``z`` with
independent noise (standard deviation ``JUDGE_NOISE``: the diffuse errors),
each on its own scale, monotone but not linear: a 1-10 grade ``1 + 9
Phi(z)^2`` rounded, a 0-1 rubric ``sigmoid(2 z)``, a reward model's logit
``z^3 / 3`` and a judge of pure noise. Each generator of a world fails in its
own way (``MODES``), so one fit, its predictor pooled over all five, meets
every failure at once:

* ``high together`` / ``low together``: a kind of outputs, a share (1-10 %)
  of the generator's, that the humans rate 1 (5) and every judge sees at
  quality +2.5 (-2.5), the top (bottom) of its scale: a blind spot the other
  generators do not show;
* ``lenient`` / ``harsh``: every judge sees the generator's outputs
  ``BEHAVIOUR_SHIFT`` better (worse) than they are, on that generator only;
* ``diffuse``: the judges err on it as on every generator;
* ``no signal``: the world whose every judge is pure noise (judges that
  predict nothing).

``WORLDS``: ``spread`` (ratings over the whole scale), ``piled`` (ratings piled
at the top, the blind spot's ratings of 1 a few outliers below a wall of 5s),
``no signal`` (ratings half piled, every judge noise).

**The draws.** ``n`` ratings per generator (``N_VALUES``: 10 to 200), every
generator rated in each draw, drawn uniformly or actively: the design of
:func:`regression.scores.suggest.suggest_labels`,
:func:`~regression.core.sampling.active_probabilities` of the predicted rating
(its defensive floor included), the predictor cross-fitted on a pilot of
``PILOT`` uniform ratings per generator drawn once per world (fixed before the
draws, as a design must be; the pilot's ratings shape the design and are not
in the estimate). Every active cell is checked to be active: the spread of its
inclusion probabilities (largest over smallest) is recorded and a cell whose
probabilities are all alike fails (``active check``) rather than counting as
active; ``suggest`` says which design ``suggest_labels`` would choose there
(:meth:`~regression.scores.suggest.WidthPlan.drawn`). Each draw is one
``ScoreModel().fit_table`` on the five generators' ratings (the default interval,
``floored``); the other interval methods named in ``methods`` are the same
fit's intervals by that method (the same estimate, on the same draws). The
t-interval of the uniform draws' ratings alone (clipped to the scale,
:func:`bench_scores.ratings_alone`) is the comparison width of both designs;
each draw also gives each method's interval on the same ratings without the
judges (:meth:`~regression.scores.estimate.RatedEstimate.ratings_alone`,
``lam = 0``: ``ScoreModel(judges=False)``), the yardstick of what the judges
are worth.

**Monte Carlo error.** ``DRAWS`` = 100 draws per cell (one cell: a world's
generator, ``n`` and design): a coverage of 0.95 has standard error 0.022; a
cell whose true coverage is 0.95 shows under 0.93 with probability 0.13 and
under 0.90 with probability 0.011, so among 125-150 cells (the active cells of
the no-signal world fail their check, but for a generator whose noise the
pilot's predictor happens to follow) 15-20 under 0.93 are expected by chance
alone, and one or two under 0.90. One fit takes 0.05-0.2 s (10 to 200 ratings
a generator), 2,500-3,000 fits in the full grid: about five minutes on one
core. An active design that is uniform for every generator of a world is not
drawn (its cells fail, with no draws): it would repeat the uniform cells.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np
import pandas as pd
from bench_adversarial import ACTIVE_SPREAD, grid_options, report
from bench_scores import ratings_alone
from scipy import special

from regression import ScoreModel
from regression.core.sampling import active_probabilities, systematic_sample
from regression.labels.interval import check_interval_method
from regression.scores.estimate import cross_fitted_prediction
from regression.scores.suggest import WidthPlan, rating_spread
from regression.scores.table import check_scores

__all__ = [
    "BEHAVIOUR_SHIFT",
    "DRAWS",
    "FULL",
    "MODES",
    "QUICK",
    "SCALE",
    "WORLDS",
    "GridSize",
    "World",
    "active_against_uniform",
    "main",
    "score_adversarial_world",
    "score_grid",
    "without_judges",
]

ALPHA = 0.05
DRAWS = 100
N_VALUES = (10, 20, 50, 100, 200)
ITEMS = 300
SCALE = (1.0, 5.0)
MODES = ("high together", "low together", "lenient", "harsh", "diffuse", "no signal")
#: How much better (lenient) or worse (harsh) every judge sees one generator's outputs, in quality sds.
BEHAVIOUR_SHIFT = 1.0
#: The standard deviation of each judge's error on an output's quality (the diffuse errors).
JUDGE_NOISE = 0.7
#: The quality every judge sees on a blind spot's outputs (+ for ``high together``, - for ``low``).
BLIND_QUALITY = 2.5
#: Uniform pilot ratings per generator that the active design's predictor is fitted on.
PILOT = 20
#: The methods ``make bench`` runs: the default and the normal interval it floors.
DEFAULT_METHODS = ("floored", "normal")


class World(NamedTuple):
    """A world: how far its ratings pile at the top, whether its judges see quality, its generators' modes."""

    pile: float
    signal: bool
    generators: tuple[tuple[str, float], ...]


#: The worlds: each generator's (mode, share of its outputs in the blind spot).
WORLDS = {
    "spread": World(
        0.0,
        True,
        (
            ("high together", 0.03),
            ("high together", 0.10),
            ("low together", 0.03),
            ("lenient", 0.0),
            ("diffuse", 0.0),
        ),
    ),
    "piled": World(
        0.6,
        True,
        (
            ("high together", 0.01),
            ("high together", 0.05),
            ("low together", 0.05),
            ("harsh", 0.0),
            ("diffuse", 0.0),
        ),
    ),
    "no signal": World(0.3, False, (("no signal", 0.0),) * 5),
}


class GridSize(NamedTuple):
    """How large a grid: the ratings per generator, the worlds, the draws per cell, the outputs per generator."""

    n_values: tuple[int, ...]
    worlds: tuple[str, ...]
    draws: int
    items: int = ITEMS


FULL = GridSize(N_VALUES, tuple(WORLDS), DRAWS)
QUICK = GridSize((10, 50), tuple(WORLDS), 3, items=120)


def _name(world: str, g: int, mode: str, share: float) -> str:
    return f"{world[0]}{g} {mode}" + (f" {share:.0%}" if share else "")


def score_adversarial_world(
    world: str, *, items: int = ITEMS, seed: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The judges' scores and every output's human rating in world ``world`` (:data:`WORLDS`).

    Returns
    -------
    (DataFrame, DataFrame)
        The scores (``generator, item, validator, score``) and the ratings of
        every output (``generator, item, human``); a generator's name says its
        mode (``"s0 high together 3%"``).

    Examples
    --------
    >>> scores, human = score_adversarial_world("piled", items=50, seed=1)
    >>> sorted(scores["validator"].unique())
    ['grade', 'noise', 'reward', 'rubric']
    >>> bool(human["human"].between(*SCALE).all()), human["generator"].nunique()
    (True, 5)
    """
    if world not in WORLDS:
        raise ValueError(f"world {world!r} not recognized; must be one of {list(WORLDS)}.")
    pile, signal, generators = WORLDS[world]
    rng = np.random.default_rng(seed)
    low, high = SCALE
    mu = np.linspace(-0.6, 0.6, len(generators))
    score_frames, rating_frames = [], []
    for g, (mode, share) in enumerate(generators):
        name = _name(world, g, mode, share)
        z = rng.normal(mu[g], 1.0, items)
        rating = np.round(low + (high - low) * special.expit(1.5 * z + 3.0 * pile) ** (1.0 - pile))
        seen = z.copy()
        if mode in ("lenient", "harsh"):
            seen += BEHAVIOUR_SHIFT if mode == "lenient" else -BEHAVIOUR_SHIFT
        if mode.endswith("together"):
            blind = rng.choice(items, int(round(share * items)), replace=False)
            up = mode == "high together"
            rating[blind] = low if up else high
            seen[blind] = BLIND_QUALITY if up else -BLIND_QUALITY
        judged = [seen + rng.normal(0.0, JUDGE_NOISE, items) for _ in range(3)]
        judges = {
            "grade": np.round(1 + 9 * special.ndtr(judged[0]) ** 2),
            "rubric": special.expit(2 * judged[1]),
            "reward": judged[2] ** 3 / 3,
            "noise": rng.normal(0.0, 1.0, items),
        }
        if not signal:
            judges = {judge: rng.normal(0.0, 1.0, items) for judge in judges}
        for judge, score in judges.items():
            score_frames.append(
                pd.DataFrame(
                    {
                        "generator": name,
                        "item": np.arange(items),
                        "validator": judge,
                        "score": score,
                    }
                )
            )
        rating_frames.append(
            pd.DataFrame({"generator": name, "item": np.arange(items), "human": rating})
        )
    return pd.concat(score_frames, ignore_index=True), pd.concat(rating_frames, ignore_index=True)


def _active_design(
    scores: pd.DataFrame, human: pd.DataFrame, rng: np.random.Generator
) -> tuple[dict[str, np.ndarray], float]:
    """Per generator, the predicted rescaled rating of each output (in ``human``'s order), from a pilot; ``k``.

    What :func:`regression.scores.suggest.suggest_labels` computes before it
    draws: the cross-fitted prediction from the ratings held (here a uniform
    pilot of :data:`PILOT` per generator) and the rating spread ``k``.
    """
    keys = rng.random(len(human))
    rank = human.assign(key=keys).groupby("generator")["key"].rank(method="first")
    pilot = human[rank.to_numpy() <= PILOT]
    table = check_scores(scores, pilot, SCALE)
    f = cross_fitted_prediction(table)
    k = rating_spread(table, f)
    predicted = pd.Series(f, index=pd.MultiIndex.from_frame(table.units[["generator", "item"]]))
    return {
        str(g): predicted.loc[g].reindex(block["item"]).to_numpy()
        for g, block in human.groupby("generator", sort=False)
    }, k


def _world_records(
    size: GridSize, world: str, methods: Sequence[str], seed: int
) -> list[dict[str, object]]:
    """The records of one world's cells (:func:`score_grid`), seeded by the world alone."""
    world_seed = [seed, list(WORLDS).index(world)]
    scores, human = score_adversarial_world(
        world, items=size.items, seed=int(np.random.default_rng(world_seed).integers(2**31))
    )
    rng = np.random.default_rng([*world_seed, 1])
    q, k = _active_design(scores, human, np.random.default_rng([*world_seed, 2]))
    by_generator = {str(g): block for g, block in human.groupby("generator", sort=False)}
    names = list(by_generator)
    modes = dict(zip(names, WORLDS[world].generators, strict=True))
    truth = {g: float(block["human"].mean()) for g, block in by_generator.items()}
    big_n = size.items
    span = SCALE[1] - SCALE[0]
    model = ScoreModel()
    records: list[dict[str, object]] = []
    for n in size.n_values:
        alone_hits = dict.fromkeys(names, 0)
        alone_width = dict.fromkeys(names, 0.0)
        for design in ("uniform", "active"):
            if design == "uniform":
                pi = {g: np.full(big_n, n / big_n) for g in names}
            else:
                pi = {g: active_probabilities(q[g], n) for g in names}
            spread = {g: float(pi[g].max() / pi[g].min()) for g in names}
            # an active design that is uniform for every generator (judges that predict
            # nothing) is failed below without its draws: they would repeat the uniform cells
            uniform_active = design == "active" and max(spread.values()) < ACTIVE_SPREAD
            draws = 0 if uniform_active else size.draws
            options = [(g, m) for g in names for m in methods]
            hits = dict.fromkeys(options, 0)
            width = dict.fromkeys(options, 0.0)
            outside = dict.fromkeys(options, 0)
            crashed = dict.fromkeys(options, 0)
            bare_hits = dict.fromkeys(options, 0)
            bare_width = dict.fromkeys(options, 0.0)
            for _ in range(draws):
                frames = []
                for g in names:
                    if design == "uniform":
                        pick = np.sort(rng.choice(big_n, n, replace=False))
                    else:
                        pick = systematic_sample(pi[g], rng)
                    frames.append(
                        by_generator[g].iloc[pick].assign(inclusion_probability=pi[g][pick])
                    )
                rated = pd.concat(frames, ignore_index=True)
                if design == "uniform":
                    alone = ratings_alone(scores, rated, SCALE)
                    for g in names:
                        alone_hits[g] += int(alone.at[g, "low"] <= truth[g] <= alone.at[g, "high"])
                        alone_width[g] += float(alone.at[g, "high"] - alone.at[g, "low"])
                try:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")  # the fit's notes on the synthetic tables
                        fit = model.fit_table(scores, rated, scale=SCALE)
                except ValueError:
                    # a draw without an interval counts as one that does not cover
                    for option in options:
                        crashed[option] += 1
                    continue
                for method in methods:
                    same = (
                        fit
                        if method == fit.interval_method
                        else replace(fit, interval_method=method)
                    )
                    table = same.interval(ALPHA)
                    for g in names:
                        low, high, estimate = (
                            float(table.at[g, c]) for c in ("low", "high", "estimate")
                        )
                        hits[g, method] += int(low <= truth[g] <= high)
                        width[g, method] += high - low
                        outside[g, method] += int(not low <= estimate <= high)
                        # the same interval on the same ratings without the judges (lam = 0)
                        bare = (
                            fit.rated[g]
                            .ratings_alone()
                            .bounds(method, ALPHA, "two-sided", seed=fit.seed)
                        )
                        low, high = (SCALE[0] + span * float(b) for b in (bare.low, bare.high))
                        bare_hits[g, method] += int(low <= truth[g] <= high)
                        bare_width[g, method] += high - low
            for g in names:
                check = "" if design == "uniform" else "ok"
                if design == "active" and spread[g] < ACTIVE_SPREAD:
                    check = "uniform"
                plan = WidthPlan(q[g], k)
                drawn = plan.drawn(n)
                planned_ratio = float(plan.width(n, "active")[0] / plan.width(n, "uniform")[0])
                mode, share = modes[g]
                for method in methods:
                    key = (g, method)
                    records.append(
                        {
                            "world": world,
                            "mode": mode,
                            "share": share,
                            "truth": truth[g],
                            "generator": g,
                            "design": design,
                            "n": n,
                            "method": method,
                            "option": "default",
                            "draws": draws,
                            "hits": hits[key],
                            "width": width[key],
                            # the uniform draws' t-interval, as many draws as the cell has
                            "t_hits": alone_hits[g] if draws else 0,
                            "t_width": alone_width[g] if draws else 0.0,
                            "outside": outside[key],
                            "no_judges_hits": bare_hits[key],
                            "no_judges_width": bare_width[key],
                            "crashed": crashed[key],
                            "bias": np.nan,
                            "bound": np.nan,
                            "pi_spread": spread[g],
                            "active check": check,
                            "suggest": drawn,
                            "planned_ratio": planned_ratio,
                        }
                    )
    return records


def score_grid(
    size: GridSize = FULL, methods: Sequence[str] = DEFAULT_METHODS, *, seed: int = 0
) -> pd.DataFrame:
    """Every cell of the graded-score grid: one record per world's generator, n, design and method.

    Parameters
    ----------
    size : GridSize
        :data:`FULL` or :data:`QUICK`.
    methods : sequence of str
        The interval methods (``ScoreModel(interval=)``), each the same fit's
        interval on the same draws.
    seed : int
        With the world, seeds every draw.

    Returns
    -------
    DataFrame
        :data:`bench_adversarial.RECORD_COLUMNS` with the comparison columns
        ``t_hits`` and ``t_width`` (the ratings-alone t-interval of the uniform
        draws) in place of Wilson's, after the cell's axes (``world, mode,
        share``), and ``truth`` (the generator's mean rating), ``pi_spread``,
        ``active check`` and ``suggest``.
    """
    for method in methods:
        check_interval_method(method)
    return pd.DataFrame(
        [record for world in size.worlds for record in _world_records(size, world, methods, seed)]
    )


def without_judges(cells: pd.DataFrame) -> pd.DataFrame:
    """Per world, n, design and method: the t-interval's coverage and what the judges are worth.

    ``cells`` as :func:`bench_adversarial.report` returns them (an active cell
    that failed its check left out): ``t`` coverage lowest and mean (the
    uniform draws), the interval without the judges' lowest coverage, and the
    mean and largest width with the judges over the width without them (below
    1: the judges narrow it; at most 1 where the judges predict nothing).
    """
    counted = cells[cells["active check"] != "uniform"].assign(
        bare=lambda c: c["no_judges_hits"] / c["draws"],
        worth=lambda c: c["width"] * c["draws"] / c["no_judges_width"],
    )
    return counted.groupby(["world", "n", "design", "method"], sort=False).agg(
        t_min=("t coverage", "min"),
        t_mean=("t coverage", "mean"),
        no_judges_min=("bare", "min"),
        judges_ratio=("worth", "mean"),
        judges_ratio_max=("worth", "max"),
    )


def active_against_uniform(cells: pd.DataFrame) -> pd.DataFrame:
    """Per world, n and method: the active design against the uniform one, cell by cell.

    ``cells`` as :func:`bench_adversarial.report` returns them; the active
    cells that passed their check, each beside the uniform cell of the same
    generator and ``n``: how many there are, the share of them where
    ``suggest_labels`` would draw actively
    (:meth:`~regression.scores.suggest.WidthPlan.drawn`), the planned width
    of the active design over the uniform one's, least and mean, and the
    realised one's, mean and largest.
    """
    keys = ["world", "generator", "n", "method"]
    uniform = cells[cells["design"] == "uniform"].set_index(keys)["width"]
    active = cells[(cells["design"] == "active") & (cells["active check"] == "ok")].set_index(keys)
    active = active.assign(
        ratio=active["width"] / uniform.reindex(active.index),
        chosen=active["suggest"] == "active",
    )
    return active.groupby(["world", "n", "method"], sort=False).agg(
        cells=("ratio", "size"),
        suggest_active=("chosen", "mean"),
        planned_ratio_min=("planned_ratio", "min"),
        planned_ratio=("planned_ratio", "mean"),
        width_ratio=("ratio", "mean"),
        width_ratio_max=("ratio", "max"),
    )


def main(argv: list[str] | None = None) -> None:
    """The full grid (or ``--quick``), its tables printed; ``--worlds`` and ``--n`` take part of it.

    ``python benchmarks/bench_adversarial_scores.py --draws 400 --worlds spread piled --n 50 100``
    reruns the cells of the grid's lowest coverage with four times the draws.
    """
    part = argparse.ArgumentParser(add_help=False)
    part.add_argument("--worlds", nargs="+", choices=tuple(WORLDS))
    part.add_argument("--n", nargs="+", type=int, dest="n_values")
    chosen, rest = part.parse_known_args([] if argv is None else argv)
    args, size = grid_options(
        rest, __doc__, (QUICK, FULL), DEFAULT_METHODS, "interval methods on the same fits"
    )
    if chosen.worlds:
        size = size._replace(worlds=tuple(chosen.worlds))
    if chosen.n_values:
        size = size._replace(n_values=tuple(chosen.n_values))
    start = time.perf_counter()
    records = score_grid(size, methods=args.methods)
    cells = report(
        records,
        f"Graded scores, adversarial worlds ({len(records)} records)",
        axes=("world",),
        alone="t",
        truth="truth",
    )
    if args.csv:
        records.to_csv(args.csv, index=False)
    print(
        "The ratings-alone t-interval on the uniform draws, lowest and mean coverage; the same "
        "interval as the cell's without the judges (lam = 0, same ratings), lowest coverage, and "
        "the width with the judges over the width without them, mean and largest:"
    )
    print()
    print(without_judges(cells).round(3).to_string())
    print()
    print(
        "The active design against the uniform one (active cells that passed their check): the "
        "share where suggest_labels would draw actively, the active design's planned width over the "
        "uniform design's, least and mean, and its realised width over the uniform design's for "
        "the same generator and n, mean and largest:"
    )
    print()
    print(active_against_uniform(cells).round(3).to_string())
    print()
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
