"""Pairwise votes on worlds adversarial by construction: strong judges, all wrong on one kind of battle.

Run: ``python benchmarks/run.py adversarial_pairwise`` (the full grid, ``make bench``), or
``python benchmarks/bench_adversarial_pairwise.py --quick`` (a few draws of a small grid: the
smoke test in ``tests/regression/test_bench_adversarial_pairwise.py``). The pairwise half of
issue 37 item 6, beside the partial-label grid of ``bench_adversarial.py``, whose
:func:`~bench_adversarial.report` prints its tables.

**The worlds** (:func:`adversarial_arena`). ``G`` generators whose strengths are evenly
spread over :data:`STRENGTHS` (win rates about 0.15 to 0.85), ``N`` battles each between a
pair drawn at random, and every battle's human vote drawn from Bradley-Terry, without ties
(so a generator's votes are a binomial sample and the Wilson interval of as many votes alone
is the labels-alone comparison). ``K`` judges, each right with its own probability drawn from
``bench_adversarial.ACCURACY`` (85-92 %) independently on every battle; a judge that is wrong
says the other side (2/3) or a tie (1/3), in one order (generator_a shown first). One
generator in turn is the new one (:attr:`GridSize.new`: the weakest and the strongest); on
its battles the judges fail as ``bench_adversarial.MODES`` say:

* ``accepted together`` / ``rejected together``: a kind of its battles, a share
  ``bench_adversarial.SHARES`` (1-10 %) of them, that it lost (won) by the human vote and
  that every judge gives it as won (lost): a blind spot the other battles do not show, so
  the judges' prediction is sure of those battles and wrong;
* ``diffuse``: the judges err on its battles as on the others;
* ``lenient`` / ``harsh``: on its battles only, every judge is ``BEHAVIOUR_SHIFT`` less
  often right where it lost (won).

The truth is each generator's win rate over all its battles (human score: a win 1, a loss 0).

**The designs** (:data:`DESIGNS`), ``n`` human votes (:attr:`GridSize.n_values`; with 10
generators 20 votes are 4 a generator, a small board):

* ``uniform``: ``n`` battles drawn uniformly, passed back with probability ``n / N``;
* ``active``: a held pilot and a drawn batch. A share :attr:`GridSize.pilot_share` of the
  ``n`` votes (40 of 100) drawn uniformly and passed back with probability 1, and the rest
  drawn by :func:`~regression.pairwise.suggest_labels` among the other battles
  (:func:`~regression.pairwise.suggest.draw_design` and its systematic pi-ps sample). Not
  ``suggest_labels`` with no vote yet: its draw is all but uniform (its probabilities
  spread by 1.03-1.10x in these worlds: with no vote, the judges' prediction is not yet
  calibrated and the battles look alike). Every active cell is checked to be active: the
  spread of its batch's probabilities (largest over smallest, the least over the cell's
  draws) is recorded, and a cell whose probabilities are all alike is failed (``active
  check``), not counted (``bench_adversarial.ACTIVE_SPREAD``);
* ``suggested``: the pilot of ``active`` passed as a user passes a uniform draw, with no
  probabilities, and the rest drawn by ``suggest_labels``: joined to the pilot as one uniform
  draw where that is predicted narrower (``one_draw``: the share of the cell's draws that
  joined), else held as in ``active``. Reported apart (:func:`suggested_table`), beside
  ``active``, so the grid's own tables are those of the three designs above;
* ``subset``: ``suggest_labels(..., generators=[new])`` with no vote yet, which gives every
  battle without the new generator probability 0. Only the new generator's battles are
  reached, so the others (``role`` ``outside``) must get no interval (or a refusal), never a
  narrow wrong one: the table of intervals given counts them.

**The estimands.** Each generator's win rate
(:func:`~regression.pairwise.win_rates`, its default interval, and each method named in
``methods`` on the same fit), on every design; each generator's Bradley-Terry strength
(:func:`~regression.pairwise.bradley_terry`, normal interval) on the sparse uniform boards
(:attr:`GridSize.sparse`; beside it, on the same draws, the votes alone's,
``bradley_terry(judges=False)``: :data:`STRENGTH_METHODS`; on boards this sparse the default
sets the judges aside, ``regression.pairwise.davidson.SPARSE_STRENGTH_VOTES``, and the two
agree), against the Davidson fit to every
battle's human vote among the generators the fit keeps
(``bench_pairwise_designs.kept_truth``). There a generator that won
or lost every one of its voted battles must get no finite estimate (counted: ``extreme``,
``extreme_finite``), and the others' coverage against that truth says that it moved no
other level. The strengths' labels-alone comparison is the votes-alone normal width of the
same fit (``se_labels_only``, about its estimate), not a Wilson interval.

**Records.** One per world, design, ``n``, generator and method (``role``: ``new``,
``other``, ``outside``), with ``bench_adversarial.RECORD_COLUMNS``. A draw in which a
generator has no interval (fewer than three votes, battles the draw did not reach, a
strength the votes do not identify) is not a failure of the interval: ``draws`` counts the
draws that gave one, ``attempts`` all of them. Cells with fewer than :data:`MIN_DRAWS`
intervals are left out of the coverage tables and shown in the table of intervals given
(:func:`least_draws`: fewer at the quick size).

**Monte Carlo error.** :data:`DRAWS` = 100 draws per cell: a coverage of 0.95 has standard
error 0.022, and a cell whose true coverage is 0.95 shows under 0.93 with probability 0.13,
under 0.90 with probability 0.011. The grid runs in three to four minutes on one core.
"""

from __future__ import annotations

import argparse
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import NamedTuple

import numpy as np
import pandas as pd
from bench_adversarial import (
    ACCURACY,
    ACTIVE_SPREAD,
    BEHAVIOUR_SHIFT,
    MODES,
    RECORD_COLUMNS,
    SHARES,
    grid_options,
    report,
)
from bench_pairwise_designs import kept_truth
from bench_pairwise_suggest import drawn_votes, with_votes

from regression.intervals import normal_quantile, wilson_interval
from regression.labels.interval import check_interval_method
from regression.pairwise import PairwiseTable, bradley_terry, check_pairwise, win_rates
from regression.pairwise.design import battle_sides
from regression.pairwise.suggest import draw_design
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = [
    "DESIGNS",
    "DRAWS",
    "FULL",
    "MIN_DRAWS",
    "QUICK",
    "Arena",
    "GridSize",
    "adversarial_arena",
    "least_draws",
    "main",
    "pairwise_grid",
    "win_rate_truth",
]

DRAWS = 100
#: The log-strengths of the generators are evenly spread over this range.
STRENGTHS = (-2.0, 2.0)
DESIGNS = ("uniform", "active", "subset", "suggested")
#: A cell enters the coverage tables with at least this many draws that gave an interval.
MIN_DRAWS = 20
#: The interval methods ``make bench`` measures: the default.
DEFAULT_METHODS = BOUNDED_INTERVAL_METHODS[:1]
#: A cell's axes, before bench_adversarial.RECORD_COLUMNS in a record.
AXES = ("mode", "share", "shift", "estimand", "role", "win rate")
#: A record's columns after bench_adversarial.RECORD_COLUMNS (pairwise_grid says what they hold).
EXTRA_COLUMNS = (
    "attempts",
    "votes",
    "extreme",
    "extreme_finite",
    "largest",
    "pi_spread",
    "active check",
    "one_draw",
)
#: The strengths' intervals on the same draws: the default fit's (normal) and the votes alone's.
STRENGTH_METHODS = ("normal", "normal, votes alone")
#: A wrong judge says the other side with this probability, else a tie.
OTHER_SIDE = 2 / 3


class GridSize(NamedTuple):
    """How large a grid: the arena, the designs' votes and the draws per cell."""

    generators: int
    battles: int
    judges: int
    new: tuple[int, ...]
    n_values: tuple[int, ...]
    sparse: tuple[int, ...]
    pilot_share: float
    shares: tuple[float, ...]
    draws: int


FULL = GridSize(10, 1500, 4, (0, 9), (20, 50, 100, 500), (20, 50), 0.4, SHARES, DRAWS)
QUICK = GridSize(6, 300, 3, (5,), (12, 40), (12,), 0.4, (0.10,), 3)


class Arena(NamedTuple):
    """A world of :func:`adversarial_arena`.

    Attributes
    ----------
    table : PairwiseTable
        The judges' verdicts and every battle's human vote, checked.
    truth : Series
        Per generator: its win rate over its battles.
    blind : ndarray
        The new generator's blind-spot battles (positions in ``table.battles``; empty outside
        the two ``together`` modes).
    """

    table: PairwiseTable
    truth: pd.Series
    blind: np.ndarray


def adversarial_arena(
    generators: int,
    battles: int,
    new: int,
    mode: str,
    share: float,
    *,
    judges: int = 4,
    seed: int = 0,
) -> Arena:
    """An arena whose judges fail on generator ``new`` as ``mode`` says (the module docstring).

    Parameters
    ----------
    generators, battles, judges : int
        The arena's size: generators ``g00, g01, ...`` in order of strength.
    new : int
        The generator the judges fail on (its position).
    mode : str
        One of ``bench_adversarial.MODES``.
    share : float
        The blind spot's share of the new generator's battles (the ``together`` modes).
    seed : int

    Returns
    -------
    Arena
    """
    if mode not in MODES:
        raise ValueError(f"mode ({mode!r}) not recognized; must be one of {MODES}.")
    rng = np.random.default_rng(seed)
    strength = np.linspace(*STRENGTHS, generators)
    a = rng.integers(0, generators, battles)
    b = (a + rng.integers(1, generators, battles)) % generators  # never a itself
    human = (rng.random(battles) < 1 / (1 + np.exp(strength[b] - strength[a]))).astype(float)
    mine = (a == new) | (b == new)
    new_score = np.where(a == new, human, 1 - human)  # the new generator's score, on its battles
    right = np.tile(rng.uniform(*ACCURACY, judges), (battles, 1))
    if mode == "lenient":
        right[mine & (new_score == 0)] -= BEHAVIOUR_SHIFT
    if mode == "harsh":
        right[mine & (new_score == 1)] -= BEHAVIOUR_SHIFT
    wrong = np.where(rng.random((battles, judges)) < OTHER_SIDE, 1 - human[:, None], 0.5)
    score = np.where(rng.random((battles, judges)) < right, human[:, None], wrong)
    blind = np.zeros(0, dtype=int)
    if mode in ("accepted together", "rejected together"):
        truly = 0.0 if mode == "accepted together" else 1.0
        pool = np.flatnonzero(mine & (new_score == truly))
        blind = np.sort(rng.choice(pool, min(round(share * mine.sum()), pool.size), replace=False))
        given = 1 - truly  # every judge gives the new generator the other outcome
        score[blind] = np.where(a[blind] == new, given, 1 - given)[:, None]
    names = np.array([f"g{g:02d}" for g in range(generators)])
    words = np.array(["b", "tie", "a"])
    pairs = {"item": np.arange(battles), "generator_a": names[a], "generator_b": names[b]}
    verdicts = pd.DataFrame(
        {
            **{key: np.repeat(value, judges) for key, value in pairs.items()},
            "validator": np.tile([f"judge-{j + 1}" for j in range(judges)], battles),
            "verdict": words[(2 * score).astype(int).ravel()],
            "position": "ab",
        }
    )
    table = check_pairwise(
        verdicts, pd.DataFrame({**pairs, "human": words[(2 * human).astype(int)]})
    )
    position = pd.Series(np.arange(table.n_battles), index=table.battles["item"].to_numpy())
    return Arena(table, win_rate_truth(table), np.sort(position.loc[blind].to_numpy()))


def win_rate_truth(table: PairwiseTable) -> pd.Series:
    """Per generator of a fully voted table: its mean human score over its battles."""
    battle, generator, sign = battle_sides(table)
    side = 0.5 + sign * (table.human[battle] - 0.5)
    count = np.bincount(generator, minlength=len(table.generators))
    total = np.bincount(generator, side, minlength=len(table.generators))
    return pd.Series(total / count, index=pd.Index(table.generators, name="generator"))


def _worlds(size: GridSize) -> Iterable[tuple[int, str, float]]:
    for new in size.new:
        for mode in MODES:
            for share in size.shares if mode.endswith("together") else (0.0,):
                yield new, mode, share


class _Cell:
    """Per generator: the sums over the draws of one cell and method."""

    def __init__(self, n_gen: int) -> None:
        self.draws = np.zeros(n_gen, dtype=int)
        self.hits = np.zeros(n_gen, dtype=int)
        self.outside = np.zeros(n_gen, dtype=int)
        self.votes = np.zeros(n_gen)
        self.width = np.zeros(n_gen)
        self.alone_hits = np.zeros(n_gen, dtype=int)
        self.alone_width = np.zeros(n_gen)
        self.extreme = np.zeros(n_gen, dtype=int)
        self.extreme_finite = np.zeros(n_gen, dtype=int)
        self.largest = 0.0

    def add(
        self,
        estimate: np.ndarray,
        low: np.ndarray,
        high: np.ndarray,
        truth: np.ndarray,
        votes: np.ndarray,
        alone: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> None:
        """One draw: the intervals (NaN where none), the truth, the votes and the labels-alone
        interval ``(answered, low, high)`` on the generators that have one."""
        given = np.isfinite(low) & np.isfinite(high)
        self.draws += given
        self.hits += given & (low <= truth) & (truth <= high)
        self.outside += given & ~((low <= estimate) & (estimate <= high))
        self.votes += np.where(given, votes, 0)
        self.width += np.where(given, high - low, 0.0)
        _, alone_low, alone_high = alone
        self.alone_hits += given & (alone_low <= truth) & (truth <= alone_high)
        self.alone_width += np.where(given, alone_high - alone_low, 0.0)


def _wilson(
    table: PairwiseTable,
    wins: np.ndarray,
    votes: np.ndarray,
    rng: np.random.Generator,
    alpha: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per generator: the Wilson interval of as many votes as it got, drawn uniformly from its
    battles (hypergeometric wins), where it got at least one."""
    played = table.battles_per_generator().to_numpy()
    has = votes > 0
    k = np.zeros(votes.size, dtype=int)
    k[has] = rng.hypergeometric(wins[has], played[has] - wins[has], votes[has])
    interval = wilson_interval(k[has], votes[has], alpha)
    low, high = np.full(votes.size, np.nan), np.full(votes.size, np.nan)
    low[has], high[has] = interval.low, interval.high
    return has, low, high


class _Draw:
    """How one design draws its votes (:meth:`__call__`), and the spread of its probabilities:
    largest over smallest among the battles it can draw, the least over the draws made."""

    def __init__(self, design: str, full: PairwiseTable, new: str, n: int, size: GridSize) -> None:
        self.design, self.full, self.n = design, full, n
        self.pilot = round(size.pilot_share * n) if design in ("active", "suggested") else 0
        self.spreads: list[float] = []
        self.joined: list[bool] = []
        self.subset = None
        if design == "subset":
            empty = with_votes(full, np.zeros(0, dtype=int), np.zeros(0))
            self.subset = draw_design(empty, n, generators=[new], seed=n)

    @property
    def spread(self) -> float:
        return min(self.spreads) if self.spreads else 1.0

    def __call__(self, rng: np.random.Generator, k: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``k``-th draw: the voted battles (sorted) and their inclusion probabilities."""
        full, n = self.full, self.n
        if self.design == "uniform":
            voted = np.sort(rng.choice(full.n_battles, n, replace=False))
            return voted, np.full(n, n / full.n_battles)
        if self.subset is not None:
            design, held = self.subset, np.zeros(0, dtype=int)
        else:
            held = np.sort(rng.choice(full.n_battles, self.pilot, replace=False))
            # held at probability 1; suggested: passed as the uniform draw it is
            given = 1.0 if self.design == "active" else held.size / full.n_battles
            pilot = with_votes(full, held, np.full(held.size, given))
            design = draw_design(pilot, n - held.size, seed=k)
        self.spreads.append(float(design.pi.max() / design.pi.min()))
        self.joined.append(design.one_draw is not None)
        return drawn_votes(held, design, rng)


def _world_records(
    size: GridSize, world: tuple[int, str, float], methods: Sequence[str], alpha: float, seed: int
) -> list[dict[str, object]]:
    """The records of one world's cells (:func:`pairwise_grid`), seeded by the world alone."""
    new, mode, share = world
    world_seed = [seed, new, MODES.index(mode), int(round(1000 * share))]
    arena = adversarial_arena(
        size.generators,
        size.battles,
        new,
        mode,
        share,
        judges=size.judges,
        seed=int(np.random.default_rng(world_seed).integers(2**31)),
    )
    full, names = arena.table, list(arena.table.generators)
    truth = arena.truth.to_numpy()
    wins = np.round(truth * full.battles_per_generator().to_numpy()).astype(int)
    new_name = f"g{new:02d}"
    new_at = names.index(new_name)
    z = normal_quantile(alpha, "two-sided")
    records: list[dict[str, object]] = []
    candidates = int(full.battles_per_generator().loc[new_name])
    plans = [(d, n) for d in ("uniform", "active") for n in size.n_values]
    plans += [("subset", n) for n in size.n_values if n < candidates]
    plans += [("suggested", n) for n in size.n_values]
    plans += [("strengths", n) for n in size.sparse]
    for design, n in plans:
        estimand = "strength" if design == "strengths" else "win rate"
        kind = "uniform" if design == "strengths" else design
        draw = _Draw(kind, full, new_name, n, size)
        rng = np.random.default_rng([*world_seed, DESIGNS.index(kind), n, estimand == "strength"])
        shown = methods if estimand == "win rate" else STRENGTH_METHODS
        cells = {m: _Cell(len(names)) for m in shown}
        cache: dict[bytes, pd.Series] = {}
        for k in range(size.draws):
            voted, pi = draw(rng, k)
            table = with_votes(full, voted, pi)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # few votes, unreached, unidentified: counted
                if estimand == "win rate":
                    fit = win_rates(table, seed=k)
                    fits = {m: replace(fit, interval_method=m) for m in methods}
                else:
                    fit = bradley_terry(table, seed=k)
                    alone_fit = bradley_terry(table, judges=False, seed=k)
                    fits = dict(zip(STRENGTH_METHODS, (fit, alone_fit), strict=True))
                    target = kept_truth(full, table, cache).reindex(names).to_numpy()
            votes = fit.n_labels.to_numpy()
            if estimand == "win rate":
                target = truth
                alone = _wilson(full, wins, votes.astype(int), rng, alpha)
            for method, cell in cells.items():
                estimate = fits[method].estimate.to_numpy()
                if estimand == "strength":  # each fit's votes-alone width, about its estimate
                    se0 = fits[method].se_labels_only.to_numpy()
                    alone = (np.isfinite(se0), estimate - z * se0, estimate + z * se0)
                interval = fits[method].interval(alpha)
                low, high = interval["low"].to_numpy(), interval["high"].to_numpy()
                cell.add(estimate, low, high, target, votes, alone)
                if estimand == "strength":
                    _extremes(cell, table, estimate)
        spread = draw.spread
        check = "" if kind != "active" else ("ok" if spread >= ACTIVE_SPREAD else "uniform")
        for method, cell in cells.items():
            for g, name in enumerate(names):
                role = "new" if g == new_at else ("outside" if kind == "subset" else "other")
                records.append(
                    {
                        "mode": mode,
                        "share": share,
                        "shift": 0.0,
                        "estimand": estimand,
                        "role": role,
                        "win rate": truth[g],
                        "generator": name,
                        "design": kind,
                        "n": n,
                        "method": method,
                        "option": "default",
                        "attempts": size.draws,
                        "draws": int(cell.draws[g]),
                        "hits": int(cell.hits[g]),
                        "width": float(cell.width[g]),
                        # the strengths' comparison is a width: no votes-alone estimate to cover
                        "wilson_hits": cell.alone_hits[g] if estimand == "win rate" else np.nan,
                        "wilson_width": float(cell.alone_width[g]),
                        "outside": int(cell.outside[g]),
                        "crashed": 0,
                        "bias": np.nan,
                        "bound": np.nan,
                        "votes": float(cell.votes[g] / max(cell.draws[g], 1)),
                        "extreme": int(cell.extreme[g]),
                        "extreme_finite": int(cell.extreme_finite[g]),
                        "largest": cell.largest,
                        "pi_spread": spread,
                        "active check": check,
                        "one_draw": np.mean(draw.joined) if kind == "suggested" else np.nan,
                    }
                )
    return records


def _extremes(cell: _Cell, table: PairwiseTable, estimate: np.ndarray) -> None:
    """Count the generators that won, or lost, every one of their voted battles, and those of
    them with a finite strength (which a fit must not give); keep the largest finite strength."""
    battle, generator, sign = battle_sides(table)
    on = (table.human_row >= 0)[battle]
    side = 0.5 + sign * (table.human[battle] - 0.5)
    n_gen = len(table.generators)
    votes = np.bincount(generator[on], minlength=n_gen)
    won = np.bincount(generator[on], side[on], minlength=n_gen)
    extreme = (votes > 0) & ((won == votes) | (won == 0))
    cell.extreme += extreme
    cell.extreme_finite += extreme & np.isfinite(estimate)
    finite = estimate[np.isfinite(estimate)]
    if finite.size:
        cell.largest = max(cell.largest, float(np.abs(finite).max()))


def pairwise_grid(
    size: GridSize = FULL,
    methods: Sequence[str] = DEFAULT_METHODS,
    *,
    alpha: float = 0.05,
    seed: int = 0,
) -> pd.DataFrame:
    """Every cell of the pairwise grid: one record per world, design, ``n``, generator and method.

    Parameters
    ----------
    size : GridSize
        :data:`FULL` or :data:`QUICK`.
    methods : sequence of str
        The win rates' interval methods compared on the same fits
        (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`; the strengths' is normal).
    alpha : float
    seed : int
        With the world, seeds every draw.

    Returns
    -------
    DataFrame
        ``bench_adversarial.RECORD_COLUMNS`` after the cell's axes (``mode, share, shift,
        estimand, role``), and ``win rate`` (the generator's true win rate), ``attempts``
        (draws made; ``draws`` counts those that gave the generator an interval), ``votes``
        (its mean votes over those), ``extreme`` and ``extreme_finite`` (strengths: draws in
        which it won or lost every voted battle, and those of them that gave it a finite
        strength), ``largest`` (strengths: the largest finite strength of any generator in the
        cell's draws), ``pi_spread``, ``active check`` and ``one_draw`` (``suggested``: the
        share of its draws joined to the pilot as one uniform draw).
    """
    for method in methods:
        check_interval_method(method)
    records = [r for w in _worlds(size) for r in _world_records(size, w, methods, alpha, seed)]
    return pd.DataFrame(records, columns=[*AXES, *RECORD_COLUMNS, *EXTRA_COLUMNS])


def suggested_table(records: pd.DataFrame, least: int) -> pd.DataFrame:
    """The win rates of the ``suggested`` design beside ``active`` (the pilot held) and
    ``uniform``, per design and ``n``: cells, their lowest and mean coverage, cells under 0.93,
    the generators' pooled coverage at its lowest, the mean width over the labels-alone Wilson
    width and the cells wider than it, and the share of draws that joined the pilot
    (``suggested``)."""
    win = records[
        (records["estimand"] == "win rate")
        & records["design"].isin(["uniform", "active", "suggested"])
        & (records["draws"] >= least)
    ]
    cells = win.assign(
        coverage=win["hits"] / win["draws"], ratio=win["width"] / win["wilson_width"]
    )
    pooled = cells.groupby(["design", "n", "generator"], sort=False)[["hits", "draws"]].sum()
    lowest = (pooled["hits"] / pooled["draws"]).groupby(["design", "n"], sort=False).min()
    table = cells.groupby(["design", "n"], sort=False).agg(
        cells=("coverage", "size"),
        coverage_min=("coverage", "min"),
        coverage_mean=("coverage", "mean"),
        under_93=("coverage", lambda c: int((c < 0.93).sum())),
        ratio=("ratio", "mean"),
        wider=("ratio", lambda r: int((r > 1).sum())),
        one_draw=("one_draw", "mean"),
    )
    table.insert(4, "generator_min", lowest)
    return table


def least_draws(size: GridSize) -> int:
    """The intervals a cell needs to enter the coverage tables: :data:`MIN_DRAWS`, or a fifth
    of the draws where that is fewer (at least one)."""
    return max(1, min(MIN_DRAWS, size.draws // 5))


def _given(records: pd.DataFrame, least: int) -> pd.DataFrame:
    """Per estimand, design, n and role: the generator-draws that gave an interval, and the
    coverage of the cells left out of the coverage tables (fewer than ``least`` intervals)."""
    few = records["draws"] < least
    table = records.assign(
        few_hits=records["hits"].where(few, 0), few_draws=records["draws"].where(few, 0)
    ).groupby(["estimand", "design", "n", "role"], sort=False)
    out = table.agg(
        attempts=("attempts", "sum"),
        given=("draws", "sum"),
        cells=("draws", "size"),
        left_out=("draws", lambda d: int((d < least).sum())),
        few_draws=("few_draws", "sum"),
        few_hits=("few_hits", "sum"),
        votes=("votes", "mean"),
    )
    out["given"] = out["given"] / out["attempts"]
    out["left_out_coverage"] = out["few_hits"] / out["few_draws"].where(out["few_draws"] > 0)
    return out[["cells", "votes", "given", "left_out", "left_out_coverage"]]


def main(argv: list[str] | None = None) -> None:
    """The full grid (or ``--quick``), its tables printed; ``--n`` takes part of it.

    ``python benchmarks/bench_adversarial_pairwise.py --draws 300 --n 500`` reruns the win
    rates' cells at 500 votes with three times the draws (no strengths: their boards are the
    sparse ones); ``--pilot-share 0.1`` makes the pilot of ``active`` and ``suggested`` a tenth
    of the votes.
    """
    part = argparse.ArgumentParser(add_help=False)
    part.add_argument("--n", nargs="+", type=int, dest="n_values")
    part.add_argument("--pilot-share", type=float, dest="pilot_share")
    chosen, rest = part.parse_known_args([] if argv is None else argv)
    args, size = grid_options(
        rest,
        __doc__,
        (QUICK, FULL),
        DEFAULT_METHODS,
        "the win rates' interval methods on the same fits",
    )
    if chosen.n_values:
        size = size._replace(n_values=tuple(chosen.n_values), sparse=())
    if chosen.pilot_share is not None:
        size = size._replace(pilot_share=chosen.pilot_share)
    pd.set_option("display.width", 160)
    start = time.perf_counter()
    records = pairwise_grid(size, methods=args.methods)
    if args.csv:
        records.to_csv(args.csv, index=False)
    top = max(size.n_values)
    print(
        f"{size.generators} generators, {size.battles} battles, {size.judges} judges; the new "
        f"generator in turn {', '.join(f'g{g:02d}' for g in size.new)}; active: a held pilot "
        f"of {size.pilot_share:.0%} of the votes and a batch drawn by suggest_labels; draws per "
        f"cell {size.draws}."
    )
    print()
    print(
        f"Intervals given, per estimand, design, n and role (cells with fewer than "
        f"{least_draws(size)} "
        "intervals are left out of the coverage tables; their pooled coverage is "
        "left_out_coverage; role 'outside': a generator the subset design does not reach, "
        "which must get no interval):"
    )
    print()
    print(_given(records, least_draws(size)).round(3).to_string())
    print()
    counted = records[records["draws"] >= least_draws(size)]
    print(
        "The suggested design (the pilot passed as a uniform draw, suggest_labels joining it "
        "where that is predicted narrower) beside active (the pilot held) and uniform: per n, "
        "cells, lowest and mean coverage, cells under 0.93, lowest generator (pooled over its "
        "cells), mean width over the labels-alone Wilson width, cells wider than it, share of "
        "draws joined:"
    )
    print()
    print(suggested_table(records, least_draws(size)).round(3).to_string())
    print()
    counted = counted[counted["design"] != "suggested"]  # the grid's tables: the three designs
    win = counted[counted["estimand"] == "win rate"]
    report(
        win,
        f"Pairwise win rates, adversarial worlds ({len(win)} records; labels-alone: the Wilson "
        "interval of as many uniform votes)",
        truth="win rate",
        strong={"mode": "diffuse", "n": top, "design": "uniform"},
        strong_label=f"{top} uniform votes ({2 * top / size.generators:.0f} a generator)",
    )
    strengths = counted[counted["estimand"] == "strength"]
    if len(strengths):
        report(
            strengths,
            f"Bradley-Terry strengths, sparse uniform boards ({len(strengths)} records; "
            "labels-alone: the votes-alone normal interval of the same fit)",
            truth="win rate",
            strong={"mode": "diffuse", "n": max(size.sparse)},
            strong_label=f"{max(size.sparse)} votes",
        )
        every = records[records["estimand"] == "strength"]
        extremes = every.groupby(["method", "n", "role"], sort=False).agg(
            draws=("attempts", "sum"),
            extreme=("extreme", "sum"),
            extreme_finite=("extreme_finite", "sum"),
            largest=("largest", "max"),
        )
        print(
            "Strengths: generator-draws in which a generator won or lost every voted battle "
            "(extreme), those of them given a finite strength (must be 0), and the largest "
            "finite strength in any draw:"
        )
        print()
        print(extremes.round(3).to_string())
        print()
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
