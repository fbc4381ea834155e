"""Partial labels on worlds adversarial by construction: judges strong, and wrong where it hurts.

Run: ``python benchmarks/run.py adversarial`` (the full grid, ``make bench``), or
``python benchmarks/bench_adversarial.py --quick`` (a few draws of a small grid: the
smoke test in ``tests/regression/test_bench_adversarial.py``).

**The worlds** (:func:`adversarial_world`, issue 37 item 6). ``G`` generators of ``N``
items, ``K`` validators each right with its own probability, 85-92 %, on either
class, independently on every item of every generator but the new one. Each
generator in turn is the new one, its labels hidden; on it the judges fail in one
of five ways (``MODES``):

* ``accepted together`` / ``rejected together``: a kind of items, a share
  ``SHARES`` (1-10 %) of the generator's items, invalid (valid) by the human label,
  that every judge accepts (rejects): a blind spot the calibration generators do
  not show, so the predictor is sure of those items and wrong;
* ``diffuse``: the judges err on the new generator as on the others;
* ``lenient`` / ``harsh``: on the new generator only, every judge is
  ``BEHAVIOUR_SHIFT`` less often right on the invalid (valid) items.

The generators' precisions span ``PRECISIONS`` (0.02-0.99), so each generator is
a precision. A *transfer shift* (``SHIFTS``, -15 to +20 points) moves the new
generator's labels on random items outside the blind spot (valid -> invalid or
back, votes unchanged), so the transfer estimate's bias grows by that much over
its natural bias (as far as the labels allow: a shift of +20 at precision 0.02
moves every valid label and stops there; the ``bias`` column is the realised one).
The shifts run on the ``diffuse`` worlds (the others at their natural bias); a
shift that moves no more labels than one already run is skipped.

**The draws.** ``n`` labels (``N_VALUES``: 10 to 400), drawn uniformly or
actively (:func:`~regression.core.sampling.active_probabilities`, the design
:func:`~regression.labels.suggest.suggest_labels` draws when it draws actively,
its defensive floor included). Every active cell is checked to be active: the
spread of its inclusion probabilities (largest over smallest) is recorded and a
cell whose probabilities are all alike is failed (``active check``), not counted
as active; the column ``suggest`` says which design ``suggest_labels`` would
choose there. Each draw's labels feed the partial-label estimate
(:func:`~regression.labels.partial.ppi_design_mean`, the predictor fitted on the
other generators' labels, as the fit does) with each interval method named in
``methods`` on the same draws, and the held-out option
(:func:`~regression.labels.partial.combine_transfer` with the transfer
estimate's held-out bound) where the transfer's bias lies within that bound. Coverage is checked against the new generator's
precision on its items (the finite population the estimate targets); width is
compared with the Wilson interval of ``n`` uniform labels alone, on counts drawn
from the hypergeometric law.

**Monte Carlo error.** ``DRAWS`` = 100 draws per cell, the same draws for every
interval method: a coverage ``c`` has standard error ``sqrt(c (1 - c) / 100)``,
0.022 at 0.95; a cell whose true coverage is 0.95 shows under 0.93 with
probability 0.13, under 0.90 with probability 0.011, under 0.88 with probability
0.0015. So among a few hundred cells, dozens under 0.93 are expected by chance
alone; under 0.88, none. The pooled figures (per generator, per world kind) rest
on thousands of draws. 100, not more: the betting interval costs 5-50 ms a draw
(``n`` = 10 to 400), and the grid must run in about ten minutes on two cores.

**The defensive mixture** (:func:`defensive_share_study`): in issue 37's
blind-spot world, active draws with the uniform share ``eps`` = 1/2 of
:func:`~regression.core.sampling.active_probabilities` against the active design
alone, on the same seeds.

**The hook for other grids.** :func:`report` prints the tables of any grid whose
records carry the columns of :data:`RECORD_COLUMNS` (one record per cell, method
and option: the cell's axes, ``generator``, ``hits`` and ``draws``, the summed
``width`` and ``wilson_width``, ``bias`` and ``bound`` for the held-out option):
a pairwise grid (battles every judge gets wrong, subset and pilot-plus-batch
designs, 3-5 votes a generator, sparse Bradley-Terry) or a graded-score grid
builds its worlds and draws, and hands its records to :func:`report`, which
computes coverage per cell and per generator, mean width and width over the
labels-alone Wilson width in one place, against the targets of issue 37. A
grid whose labels-alone interval is another names it (``alone``: the
graded-score grid, ``bench_adversarial_scores.py``, compares with the
ratings-alone t-interval, ``t_hits`` and ``t_width``) and the column of its
truth (``truth``: a mean rating rather than a precision).
"""

from __future__ import annotations

import argparse
import functools
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from regression import TransferModel
from regression.core.sampling import active_probabilities, systematic_sample
from regression.intervals import wilson_interval
from regression.labels.bias import bias_bound
from regression.labels.design import label_design
from regression.labels.interval import check_interval_method
from regression.labels.partial import combine_transfer, ppi_design_mean
from regression.labels.plan import drawn_design
from regression.labels.predict import predict_generator
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = [
    "BEHAVIOUR_SHIFT",
    "DRAWS",
    "FULL",
    "INTERVAL_METHODS",
    "MODES",
    "QUICK",
    "RECORD_COLUMNS",
    "STRONG_CELLS",
    "GridSize",
    "adversarial_world",
    "defensive_share_study",
    "grid_options",
    "label_grid",
    "main",
    "report",
]

DRAWS = 100
N_VALUES = (10, 25, 50, 100, 400)
PRECISIONS = (0.02, 0.5, 0.9, 0.99)
MODES = ("accepted together", "rejected together", "diffuse", "lenient", "harsh")
SHARES = (0.01, 0.10)
SHIFTS = (-15.0, 5.0, 20.0)
#: Processes the full grid runs in (``make bench`` has two cores).
WORKERS = 2
#: How much less often every judge is right, on the new generator only, where it is lenient or harsh.
BEHAVIOUR_SHIFT = 0.30
#: The validators' accuracies on either class are drawn from this range.
ACCURACY = (0.85, 0.92)
#: The interval methods the grid can compare (the engine's; the first is the default).
INTERVAL_METHODS = BOUNDED_INTERVAL_METHODS
#: The methods ``make bench`` runs: the default and the normal one it floors.
DEFAULT_METHODS = ("floored", "normal")
#: A cell is active when its largest inclusion probability is at least this times its smallest.
ACTIVE_SPREAD = 1.05
#: The targets of issue 37 (coverage in every cell, per generator; width ratio, strong and diffuse).
TARGET_CELL, TARGET_GENERATOR, TARGET_STRONG = 0.93, 0.90, 0.60
#: The cells the strong-judges width target is read on: diffuse errors, 100 labels, no shift.
STRONG_CELLS = {"mode": "diffuse", "n": 100, "shift": 0.0}

#: What one record of a grid holds (:func:`report`); axes of the cell come before these.
RECORD_COLUMNS = (
    "generator",
    "design",
    "n",
    "method",
    "option",
    "draws",
    "hits",
    "width",
    "wilson_hits",
    "wilson_width",
    "outside",
    "crashed",
    "bias",
    "bound",
)


class GridSize(NamedTuple):
    """How large a grid: the axes and the draws per cell."""

    n_values: tuple[int, ...]
    precisions: tuple[float, ...]
    shares: tuple[float, ...]
    shifts: tuple[float, ...]
    draws: int
    items: int = 1000
    validators: int = 5


FULL = GridSize(N_VALUES, PRECISIONS, SHARES, SHIFTS, DRAWS)
QUICK = GridSize((10, 50), (0.5, 0.95, 0.02), (0.04,), (10.0,), 3, items=300, validators=4)


def adversarial_world(
    precisions: Sequence[float],
    new: int,
    mode: str,
    share: float,
    *,
    items: int = 1000,
    validators: int = 5,
    seed: int = 0,
) -> tuple[pd.DataFrame, pd.DataFrame, np.ndarray]:
    """Judgments and full human labels of ``len(precisions)`` generators; generator ``new`` fails as ``mode`` says.

    Returns
    -------
    (DataFrame, DataFrame, ndarray)
        The judgments (``generator, item, validator, label``), the human labels
        (``generator, item, human``; every generator fully labelled) and the new
        generator's blind-spot items (positions; empty outside the two
        ``together`` modes).
    """
    if mode not in MODES:
        raise ValueError(f"mode ({mode!r}) not recognized; must be one of {MODES}.")
    rng = np.random.default_rng(seed)
    g_count = len(precisions)
    accuracy = rng.uniform(*ACCURACY, validators)
    y = (rng.random((g_count, items)) < np.asarray(precisions)[:, None]).astype(int)
    right_valid = np.tile(accuracy, (g_count, 1))
    right_invalid = right_valid.copy()
    if mode == "lenient":
        right_invalid[new] -= BEHAVIOUR_SHIFT
    if mode == "harsh":
        right_valid[new] -= BEHAVIOUR_SHIFT
    chance = np.where(y[:, :, None] == 1, right_valid[:, None, :], right_invalid[:, None, :])
    right = rng.random((g_count, items, validators)) < chance
    votes = np.where(right, y[:, :, None], 1 - y[:, :, None])
    blind = np.zeros(0, dtype=int)
    if mode in ("accepted together", "rejected together"):
        wrong_label = 0 if mode == "accepted together" else 1
        pool = np.flatnonzero(y[new] == wrong_label)
        blind = np.sort(rng.choice(pool, min(int(round(share * items)), pool.size), replace=False))
        votes[new, blind, :] = 1 - wrong_label
    names = np.array([f"g{g}" for g in range(g_count)])
    gen, item, val = np.meshgrid(np.arange(g_count), np.arange(items), np.arange(validators))
    gen, item, val = (a.transpose(1, 0, 2).ravel() for a in (gen, item, val))
    judgments = pd.DataFrame(
        {
            "generator": names[gen],
            "item": item,
            "validator": np.char.add("v", val.astype(str)),
            "label": votes.ravel(),
        }
    )
    human = pd.DataFrame(
        {
            "generator": np.repeat(names, items),
            "item": np.tile(np.arange(items), g_count),
            "human": y.ravel(),
        }
    )
    return judgments, human, blind


def move_outside(
    y: np.ndarray, shift: float, keep: np.ndarray, rng: np.random.Generator
) -> np.ndarray:
    """``y`` with ``round(|shift| N / 100)`` random labels outside ``keep`` moved valid -> invalid (``shift > 0``) or back."""
    y = y.copy()
    pool = np.setdiff1d(np.flatnonzero(y == (1 if shift > 0 else 0)), keep)
    k = min(int(round(abs(shift) * y.size / 100)), pool.size)
    y[rng.choice(pool, k, replace=False)] = 0 if shift > 0 else 1
    return y


def _worlds(size: GridSize) -> Iterable[tuple[int, str, float, tuple[float, ...]]]:
    """(new generator, mode, share, shifts) of every world of the grid."""
    for new in range(len(size.precisions)):
        for mode in MODES:
            shares = size.shares if mode.endswith("together") else (0.0,)
            for share in shares:
                yield new, mode, share, (0.0, *size.shifts) if mode == "diffuse" else (0.0,)


def _world_records(
    size: GridSize,
    world: tuple[int, str, float, tuple[float, ...]],
    methods: Sequence[str],
    alpha: float,
    seed: int,
) -> list[dict[str, object]]:
    """The records of one world's cells (:func:`label_grid`), seeded by the world alone."""
    new, mode, share, shifts = world
    world_seed = [seed, new, MODES.index(mode), int(round(1000 * share))]
    rng = np.random.default_rng([*world_seed, 1])
    records: list[dict[str, object]] = []
    judgments, human, blind = adversarial_world(
        size.precisions,
        new,
        mode,
        share,
        items=size.items,
        validators=size.validators,
        seed=np.random.default_rng(world_seed).integers(2**31),
    )
    name = f"g{new}"
    others = human[human["generator"] != name]
    design = label_design(judgments, others)
    q, _, _ = predict_generator(design, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the fit's notes on the synthetic votes
        fit = TransferModel().fit_table(judgments, others)
    transfer, transfer_sd = float(fit.precision[name]), float(fit.transfer_sd()[name])
    bound = bias_bound("held-out", design, fit.loo_errors[fit.method])
    y_natural = human.loc[human["generator"] == name, "human"].to_numpy()
    big_n = y_natural.size
    seen: set[int] = set()
    for shift in shifts:
        y = move_outside(y_natural, shift, blind, np.random.default_rng([*world_seed, 7]))
        moved = int((y != y_natural).sum()) * (1 if shift > 0 else -1)
        if moved in seen:
            continue  # no more labels to move that way: the cell is one already run
        seen.add(moved)
        truth = float(y.mean())
        valid = int(y.sum())
        axes = {
            "generator": name,
            "mode": mode,
            "share": share,
            "shift": shift,
            "precision": truth,
            "bias": 100 * (transfer - truth),
            "bound": 100 * bound,
        }
        # the held-out option's target is the cells whose bias lies within its bound
        within = abs(transfer - truth) <= bound
        held_out = bool(within)
        for n in size.n_values:
            suggest = drawn_design(q, n)
            counts = rng.hypergeometric(valid, big_n - valid, n, size=size.draws)
            alone = wilson_interval(counts, n, alpha)
            wilson_hits = int(((alone.low <= truth) & (truth <= alone.high)).sum())
            wilson_width = float((alone.high - alone.low).sum())
            for kind in ("uniform", "active"):
                uniform = np.full(big_n, n / big_n)
                pi = uniform if kind == "uniform" else active_probabilities(q, n)
                spread = float(pi.max() / pi.min())
                check = "" if kind == "uniform" else "ok"
                if kind == "active" and spread < ACTIVE_SPREAD:
                    check = "uniform"
                options = [(m, "default") for m in methods]
                options += [(m, "held-out") for m in methods if held_out]
                hits = dict.fromkeys(options, 0)
                width = dict.fromkeys(options, 0.0)
                outside = dict.fromkeys(options, 0)
                crashed = dict.fromkeys(options, 0)
                for draw in range(size.draws):
                    if kind == "uniform":
                        pick = np.sort(rng.choice(big_n, n, replace=False))
                    else:
                        pick = systematic_sample(pi, rng)
                    for method in methods:
                        # the fit's own estimate and interval (fit_partial, estimate_generator)
                        base = ppi_design_mean(
                            y[pick], q[pick], q, pi[pick], interval_method=method, seed=draw
                        )
                        for option in ("default", "held-out") if held_out else ("default",):
                            try:
                                est = (
                                    base
                                    if option == "default"
                                    else combine_transfer(base, transfer, transfer_sd, bound)
                                )
                                low, high = (float(b) for b in est.bounds(alpha))
                            except ValueError:
                                # issue 37 item 3: the bias-aware bounds could raise; a draw
                                # without an interval counts as one that does not cover
                                crashed[method, option] += 1
                                continue
                            hits[method, option] += int(low <= truth <= high)
                            width[method, option] += high - low
                            outside[method, option] += int(not low <= est.estimate <= high)
                for method, option in options:
                    key = (method, option)
                    records.append(
                        {
                            **axes,
                            "design": kind,
                            "n": n,
                            "method": method,
                            "option": option,
                            "draws": size.draws,
                            "hits": hits[key],
                            "width": width[key],
                            "wilson_hits": wilson_hits,
                            "wilson_width": wilson_width,
                            "outside": outside[key],
                            "crashed": crashed[key],
                            "pi_spread": spread,
                            "active check": check,
                            "suggest": suggest,
                        }
                    )
    return records


def label_grid(
    size: GridSize = FULL,
    methods: Sequence[str] = INTERVAL_METHODS,
    *,
    alpha: float = 0.05,
    seed: int = 0,
    workers: int = 1,
) -> pd.DataFrame:
    """Every cell of the partial-label grid: one record per cell, method and option (:data:`RECORD_COLUMNS`).

    Parameters
    ----------
    size : GridSize
        :data:`FULL` or :data:`QUICK`.
    methods : sequence of str
        The interval methods compared on the same draws
        (``ppi_design_mean(interval_method=)``, as the fit computes them). Each
        is also evaluated with the held-out option (``transfer_bias="held-out"``,
        :func:`~regression.labels.partial.combine_transfer`) in the worlds whose
        transfer bias lies within the option's bound (its target; past the
        bound it fails by design, docs/labels.md).
    alpha : float
    seed : int
        With the world, seeds every draw: the records do not depend on ``workers``.
    workers : int
        Worlds run in this many processes.

    Returns
    -------
    DataFrame
        :data:`RECORD_COLUMNS` after the cell's axes (``mode, share, shift``),
        and ``precision``, ``pi_spread`` (largest inclusion probability over the
        smallest), ``active check`` (``"ok"``, ``"uniform"``: the cell failed, or
        ``""`` for a uniform cell) and ``suggest`` (the design ``suggest_labels``
        would draw).
    """
    for method in methods:
        check_interval_method(method)
    worlds = list(_worlds(size))
    run = functools.partial(
        _world_records,
        size,
        methods=methods,
        alpha=alpha,
        seed=seed,
    )
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(run, worlds))
    else:
        parts = [run(world) for world in worlds]
    return pd.DataFrame([record for part in parts for record in part])


def _strong_cells(part: pd.DataFrame, strong: Mapping[str, object]) -> np.ndarray:
    """Which of ``part``'s cells the strong-judges target reads: every condition on a column it has."""
    at = np.ones(len(part), dtype=bool)
    for column, value in strong.items():
        if column in part:
            at &= (part[column] == value).to_numpy()
    return at


def _coverage_se(coverage: float, draws: int) -> float:
    return float(np.sqrt(coverage * (1 - coverage) / max(draws, 1)))


def report(
    records: pd.DataFrame,
    title: str,
    axes: Sequence[str] = ("mode",),
    *,
    truth: str = "precision",
    alone: str = "Wilson",
    strong: Mapping[str, object] = STRONG_CELLS,
    strong_label: str = "100 labels",
) -> pd.DataFrame:
    """Print a grid's tables (coverage per cell and per generator, width, width over Wilson); return the cells.

    Parameters
    ----------
    records : DataFrame
        One row per cell, method and option, with :data:`RECORD_COLUMNS` and
        the cell's ``axes``; ``active check`` where the grid has active cells.
    title : str
        The heading of the tables.
    axes : sequence of str
        The columns that describe a world, grouped by in the summary.
    truth : str
        The column of a cell's true value, shown per generator (its median over
        the generator's cells) and among the lowest cells: ``precision``; a
        pairwise grid's true ``win rate``; a graded-score grid's ``truth``, the
        mean rating. Left out where absent.
    alone : str
        The labels-alone interval the widths are compared with, as the tables
        name it: the records carry its summed hits and widths in
        ``<alone>_hits`` and ``<alone>_width``, lower case (``wilson_hits``,
        ``wilson_width``; ``t_hits``, ``t_width`` for the ratings-alone
        t-interval of a graded-score grid).
    strong, strong_label : mapping of str to object, str
        The cells the strong-judges width target is read on (column: value; a
        column the grid lacks is not a condition) and how the targets' line
        names them.

    Returns
    -------
    DataFrame
        The records with ``coverage`` (a draw that raised, ``crashed``, counts
        as not covering), ``se``, ``width`` (mean over the draws that gave an
        interval), ``<alone>`` (mean labels-alone width, lower case), ``ratio``
        and ``outside`` (share of draws whose estimate lies outside its
        interval) and ``<alone> coverage`` per cell.
    """
    key = alone.lower()
    cells = records.copy()
    draws = cells["draws"]
    cells["coverage"] = cells["hits"] / draws
    cells["se"] = [_coverage_se(c, d) for c, d in zip(cells["coverage"], draws, strict=True)]
    cells[key] = cells[f"{key}_width"] / draws
    delivered = draws - cells["crashed"]
    # the widths of the draws that gave an interval, against the labels-alone width of as many
    cells["ratio"] = cells["width"] / (cells[f"{key}_width"] * delivered / draws)
    cells["width"] = cells["width"] / delivered.clip(lower=1)
    cells["outside"] = cells["outside"] / draws
    cells[f"{key} coverage"] = cells[f"{key}_hits"] / draws
    failed = cells.get("active check", pd.Series("", index=cells.index)) == "uniform"
    counted = cells[~failed]
    default = counted[counted["option"] == "default"]
    print(f"### {title}")
    print()
    # cells an active check failed were not drawn (0 draws): the standard error is of the others
    fewest, most = int(draws[draws > 0].min()), int(draws.max())
    print(
        f"{len(cells)} records ({most if fewest == most else f'{fewest} to {most}'} draws per "
        f"cell; Monte Carlo standard error {_coverage_se(0.95, most):.3f} at 0.95"
        + (f", {_coverage_se(0.95, fewest):.3f} with {fewest}" if fewest < most else "")
        + "). Active cells failed "
        f"because their draw was uniform: {int(failed.sum())}"
        + (
            f" (smallest spread of an active cell's probabilities "
            f"{cells.loc[cells['design'] == 'active', 'pi_spread'].min():.2f}x)."
            if "pi_spread" in cells
            else "."
        )
    )
    print()
    group = [*axes, "n", "design", "method"]
    summary = default.groupby(group, sort=False).agg(
        cells=("coverage", "size"),
        coverage_min=("coverage", "min"),
        coverage_mean=("coverage", "mean"),
        under_93=("coverage", lambda c: int((c < TARGET_CELL).sum())),
        width=("width", "mean"),
        ratio=("ratio", "mean"),
        ratio_max=("ratio", "max"),
        outside=("outside", "max"),
    )
    print("Default option, per world kind, n and design: cells, lowest and mean coverage,")
    print(f"cells under 0.93, mean width, mean and largest width over the labels-alone {alone}")
    print("width, largest share of draws whose estimate lies outside its own interval:")
    print()
    print(summary.round(3).to_string())
    print()
    pooled = default.groupby(["generator", "method"], sort=False).agg(
        **({truth: (truth, "median")} if truth in default else {}),
        hits=("hits", "sum"),
        draws=("draws", "sum"),
        coverage_min=("coverage", "min"),
        cells=("coverage", "size"),
    )
    pooled["coverage"] = pooled["hits"] / pooled["draws"]
    print("Default option, per generator (pooled over its cells) and its lowest cell:")
    print()
    shown = [c for c in (truth, "cells", "coverage", "coverage_min") if c in pooled]
    print(pooled[shown].round(3).to_string())
    print()
    columns = [c for c in (*axes, "generator", "share", "shift", truth, "n") if c in default]
    columns += ["design", "coverage", "se", "width", "ratio"]
    for method, of_method in default.groupby("method", sort=False):
        print(f"The eight lowest cells of the {method} interval (default option):")
        print()
        worst = of_method.nsmallest(8, "coverage")
        print(worst[list(dict.fromkeys(columns))].round(3).to_string(index=False))
        print()
    held = counted[counted["option"] == "held-out"]
    if len(held):
        inside = held[held["bias"].abs() <= held["bound"]]
        n_cells = len(default) // max(default["method"].nunique(), 1)
        n_inside = len(inside) // max(inside["method"].nunique(), 1)
        table = inside.groupby(["n", "design", "method"], sort=False).agg(
            cells=("coverage", "size"),
            coverage_min=("coverage", "min"),
            coverage_mean=("coverage", "mean"),
            width=("width", "mean"),
            ratio=("ratio", "mean"),
        )
        print(
            f"Held-out option, cells whose bias lies within its bound ({n_inside} of "
            f"{n_cells}; the bounds {held['bound'].min():.1f} to {held['bound'].max():.1f} "
            f"points; draws that raised an error instead of an interval: "
            f"{int(held['crashed'].sum())} of {int(held['draws'].sum())}):"
        )
        print()
        print(table.round(3).to_string())
        print()
    for method, part in default.groupby("method", sort=False):
        strong_cells = part[_strong_cells(part, strong)]
        print(
            f"Targets, {method}: cells under {TARGET_CELL} {int((part['coverage'] < TARGET_CELL).sum())} "
            f"of {len(part)} (under 0.90: {int((part['coverage'] < 0.90).sum())}); lowest generator "
            f"{pooled.xs(method, level='method')['coverage'].min():.3f} (target {TARGET_GENERATOR}); "
            f"cells wider than the labels-alone {alone} {int((part['ratio'] > 1).sum())}, largest "
            f"ratio {part['ratio'].max():.2f}; strong judges, diffuse errors, {strong_label}: ratio "
            f"{strong_cells['ratio'].min():.2f} to {strong_cells['ratio'].max():.2f} (target "
            f"{TARGET_STRONG})."
        )
        if "suggest" in part:
            # the draw a user gets: the design suggest_labels chooses in that cell
            chosen = part[part["design"] == part["suggest"]]
            strong_chosen = chosen[_strong_cells(chosen, strong)]
            print(
                f"Targets, {method}, the design suggest_labels draws ({len(chosen)} cells): cells "
                f"under {TARGET_CELL} {int((chosen['coverage'] < TARGET_CELL).sum())}; cells wider "
                f"than the labels-alone {alone} {int((chosen['ratio'] > 1).sum())} (by n: "
                + ", ".join(
                    f"{n} {int(c)}"
                    for n, c in (chosen["ratio"] > 1).groupby(chosen["n"]).sum().items()
                )
                + f"), largest ratio {chosen['ratio'].max():.2f}; strong judges, diffuse errors, "
                f"{strong_label}: ratio {strong_chosen['ratio'].min():.2f} to "
                f"{strong_chosen['ratio'].max():.2f}."
            )
            # the width target against the coverage target: the interval it is measured by
            wider = chosen[chosen["ratio"] > 1]
            own = chosen[f"{key} coverage"]
            print(
                f"The labels-alone {alone} interval itself, on the same draws: cells under "
                f"{TARGET_CELL} {int((own < TARGET_CELL).sum())} of {len(chosen)} (lowest "
                f"{own.min():.3f}); in the {len(wider)} cells the {method} interval is wider, "
                f"{int((wider[f'{key} coverage'] < TARGET_CELL).sum())} under {TARGET_CELL} "
                f"(lowest {wider[f'{key} coverage'].min() if len(wider) else float('nan'):.3f}), "
                f"where the {method} interval's lowest is "
                f"{wider['coverage'].min() if len(wider) else float('nan'):.3f}."
            )
    print()
    return cells


#: Draws per cell of the defensive-share comparison (:func:`defensive_share_study`).
FLOOR_DRAWS = 400


def defensive_share_study(draws: int = FLOOR_DRAWS, seed: int = 11) -> pd.DataFrame:
    """Active draws with and without the defensive mixture, where the judges share a blind spot.

    Issue 37's world: five generators (precisions 0.55-0.9), five validators
    right 85-92 % of the time; on the new one (precision 0.9) every judge
    accepts a kind of invalid items (4 % or 10 % of them). ``n`` labels drawn
    by :func:`~regression.core.sampling.active_probabilities` with the uniform
    share ``eps`` = 1e-6 (the active design alone) or its default 1/2; the
    normal interval (:meth:`~regression.labels.partial.PartialEstimate.bounds`).
    Coverage, the share of draws holding a blind-spot item, and the blind
    items' inclusion probability over the uniform one.
    """
    precisions = (0.55, 0.65, 0.75, 0.85, 0.9)
    rows = []
    for share in (0.04, 0.10):
        judgments, human, blind = adversarial_world(
            precisions, 4, "accepted together", share, seed=seed
        )
        others = human[human["generator"] != "g4"]
        q = predict_generator(label_design(judgments, others), "g4")[0]
        y = human.loc[human["generator"] == "g4", "human"].to_numpy(dtype=float)
        truth = float(y.mean())
        for n in (25, 50, 100):
            for eps in (1e-6, 0.5):
                pi = active_probabilities(q, n, eps)
                rng = np.random.default_rng([seed, n])
                hits = held = 0
                for _ in range(draws):
                    pick = systematic_sample(pi, rng)
                    estimate = ppi_design_mean(
                        y[pick], q[pick], q, pi[pick], interval_method="normal"
                    )
                    low, high = estimate.bounds()
                    hits += int(low <= truth <= high)
                    held += int(np.isin(pick, blind).any())
                rows.append(
                    {
                        "blind spot": share,
                        "n": n,
                        "eps": eps,
                        "coverage": hits / draws,
                        "draws holding a blind item": held / draws,
                        "blind pi / uniform": float(pi[blind].mean() * q.size / n),
                    }
                )
    return pd.DataFrame(rows)


def grid_options(
    argv: list[str] | None,
    description: str,
    sizes: tuple[Any, Any],
    methods: Sequence[str],
    methods_help: str,
) -> tuple[argparse.Namespace, Any]:
    """A grid's command line (``--quick``, ``--csv``, ``--draws``, ``--methods``) and its size.

    ``sizes``: the quick and the full grid, each a NamedTuple with ``draws``;
    ``methods``: the default interval methods, of :data:`INTERVAL_METHODS`.
    """
    quick, full = sizes
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few draws of a small grid")
    parser.add_argument("--csv", help="also write every cell's record to this file")
    parser.add_argument("--draws", type=int, help=f"draws per cell (default {full.draws})")
    parser.add_argument(
        "--methods",
        nargs="+",
        choices=INTERVAL_METHODS,
        default=tuple(methods),
        help=f"{methods_help} (default {' '.join(methods)})",
    )
    args = parser.parse_args([] if argv is None else argv)
    size = quick if args.quick else full
    if args.draws is not None:
        size = size._replace(draws=args.draws)
    return args, size


def main(argv: list[str] | None = None) -> None:
    """The full grid (or ``--quick``), its tables printed."""
    args, size = grid_options(
        argv,
        __doc__,
        (QUICK, FULL),
        DEFAULT_METHODS,
        "interval methods on the same draws (betting costs 5-50 ms a draw, five times the "
        "grid's time)",
    )
    start = time.perf_counter()
    records = label_grid(size, methods=args.methods, workers=1 if args.quick else WORKERS)
    report(records, f"Partial labels, adversarial worlds ({len(records)} records)")
    if args.csv:
        records.to_csv(args.csv, index=False)
    floor_draws = size.draws if args.quick else FLOOR_DRAWS
    print(
        f"### The defensive mixture: active draws with a blind spot ({floor_draws} draws a "
        f"cell, normal interval; standard error {_coverage_se(0.9, floor_draws):.3f} at 0.90)"
    )
    print()
    study = defensive_share_study(floor_draws)
    print(study.set_index(["blind spot", "n", "eps"]).round(3).to_string())
    print()
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
