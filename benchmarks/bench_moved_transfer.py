"""Partial labels under a moved transfer, and the design variance of active draws.

Run: ``python benchmarks/run.py moved_transfer``.

1. **Moved transfer** (issue 30): every annotated bundled generator in turn is
   the new one; its human labels are moved valid -> invalid (or back) on random
   items, votes unchanged, so the transfer estimate is off by 0, +3, +5, +8,
   +10 or -5 points more than its natural error (``benchmarks/label_study.py``,
   ``move_labels``). ``n`` = 25, 50, 100, 200 labels, uniform and active
   (the draw ``suggest_labels`` makes); ``DRAWS`` draws per cell. Coverage and
   width of the labels-and-votes interval (``interval_method="normal"``, whose
   calibration these tables check; the floored default: ``bench_labels.py`` and
   ``bench_adversarial.py``) and of ``transfer_bias="held-out"`` (bias-aware for the transfer's
   held-out bound), width over the labels-alone Wilson width, and the
   transfer's worth in labels.
2. **Active worlds** (issue 30, item 2): N = 1,000 items whose predicted
   label ``q`` is calibrated, the labels drawn once, ``n`` items drawn by
   the active probabilities and systematic sampling, the labels-and-votes
   interval checked against the population mean: its variance (the Wilson
   interval's, ``p(1 - p) / n_eff``) over the Monte Carlo variance of the
   estimate, and coverage; the share of draws whose labelled predictions hold
   one value (``lam = 1`` there) and their coverage; the same draws with
   ``lam`` fixed at 1.
3. **Where judges are strong** (issue 30, item 1 targets): synthetic
   generators whose validators each vote the human label with a fixed
   accuracy on either class (``label_study.strong_judge_world``); the last
   generator is the new one, 50 labels, uniform and active: width over the
   labels-alone Wilson width, and coverage.

Every coverage is a share of ``DRAWS`` (or ``WORLD_DRAWS``) draws: its Monte
Carlo standard error is ``sqrt(c (1 - c) / draws)``, 0.007 near 0.95 at 1,000.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from label_study import WORLDS, active_world, label_study, strong_judge_world

from jurycal.datasets import load_agreeableness_judgments

#: The interval these tables measure: the normal one, whose calibration they check (the floored
#: default's coverage and price: bench_labels.py, bench_adversarial.py).
INTERVAL_METHOD = "normal"
DRAWS = 1000
N_VALUES = (25, 50, 100, 200)
SHIFTS = (0.0, 3.0, 5.0, 8.0, 10.0, -5.0)
OPTIONS = (None, "held-out")
WORLD_DRAWS = 4000
#: The strong-judge worlds: (validators, accuracy of each on either class).
STRONG = ((4, 0.85), (3, 0.80))


def monte_carlo_se(coverage: float, draws: int) -> float:
    """The Monte Carlo standard error of a coverage measured on ``draws`` draws."""
    return float(np.sqrt(coverage * (1 - coverage) / draws))


def bench_worlds() -> None:
    print(f"### Active draws in two synthetic worlds (N = 1,000, {WORLD_DRAWS} draws per cell)")
    print()
    for name, parts in WORLDS.items():
        table = pd.DataFrame(
            [
                active_world(parts, n, WORLD_DRAWS, interval_method=INTERVAL_METHOD)
                for n in (25, 50, 100)
            ]
        )
        table["coverage se"] = [monte_carlo_se(c, WORLD_DRAWS) for c in table["coverage"]]
        # the same draws with lam fixed at 1: what tuning lam on the same labels costs
        fixed = pd.DataFrame(
            [
                active_world(parts, n, WORLD_DRAWS, lam=1.0, interval_method=INTERVAL_METHOD)
                for n in (25, 50, 100)
            ]
        )
        table["lam = 1: variance ratio"] = fixed["wilson / Monte Carlo variance"].to_numpy()
        table["lam = 1: coverage"] = fixed["coverage"].to_numpy()
        print(f"{name}:")
        print()
        print(table.set_index("n").round(3).to_string())
        print()


def bench_strong() -> None:
    print(f"### Where judges are strong: 50 labels on a new generator ({DRAWS} draws per cell)")
    print()
    print("Synthetic: 5 generators of 1,000 items (precision 0.55, 0.65, 0.75, 0.85; the new one")
    print("0.70), each validator right with the same probability on valid and invalid items.")
    print()
    for validators, accuracy in STRONG:
        judgments, human = strong_judge_world(validators=validators, accuracy=accuracy)
        study = label_study(
            judgments,
            human,
            (50,),
            DRAWS,
            generators=["g4"],
            options=OPTIONS,
            seed=0,
            interval_method=INTERVAL_METHOD,
        )
        study["coverage se"] = [monte_carlo_se(c, DRAWS) for c in study["coverage"]]
        columns = ["design", "option", "coverage", "coverage se", "width", "labels_width"]
        columns += ["ratio", "judges_worth", "transfer_worth"]
        print(f"{validators} validators, each right {accuracy:.0%} of the time:")
        print()
        print(study[columns].set_index(["design", "option"]).round(3).to_string())
        print()


def bench_moved() -> None:
    judgments, human = load_agreeableness_judgments()
    study = label_study(
        judgments,
        human,
        N_VALUES,
        DRAWS,
        shifts=SHIFTS,
        options=OPTIONS,
        seed=0,
        interval_method=INTERVAL_METHOD,
    )
    print(f"### Moved transfer on the bundled data ({DRAWS} draws per cell)")
    print()
    cells = study.groupby(["option", "shift", "n", "design"], sort=False)
    summary = pd.DataFrame(
        {
            "coverage_min": cells["coverage"].min(),
            "coverage_mean": cells["coverage"].mean(),
            "width": cells["width"].mean(),
            "labels_alone_width": cells["labels_width"].mean(),
            "ratio": cells["ratio"].mean(),
            "transfer_worth": cells["transfer_worth"].mean(),
            "wider_than_labels": cells["wider_than_labels"].max(),
        }
    )
    print(
        "Over the generators: lowest and mean coverage (Monte Carlo standard error "
        f"{monte_carlo_se(0.95, DRAWS):.4f} near 0.95), mean width, width over labels alone,"
    )
    print("transfer worth (labels), and the largest share of draws whose interval is wider than")
    print("the same labels' own Wilson interval (uniform draws; NaN where the draw is active):")
    print()
    print(summary.round(3).to_string())
    print()
    by_generator = study.groupby(["option", "generator"], sort=False)
    print("Per generator, over every shift, n and design (bias: natural error of the transfer):")
    print()
    natural = study[study["shift"] == 0].groupby("generator", sort=False)["bias"].first()
    table = pd.DataFrame(
        {
            "coverage_min": by_generator["coverage"].min(),
            "coverage_mean": by_generator["coverage"].mean(),
        }
    ).unstack("option")
    table["natural bias"] = natural
    table["held-out bound"] = study.groupby("generator", sort=False)["bound"].max()
    print(table.round(3).to_string())
    print()
    held = study[study["option"] == "held-out"].copy()
    held["bias within the bound"] = held["bias"].abs() <= held["bound"]
    cells = held.groupby(["bias within the bound", "n", "design"], sort=False)["coverage"]
    print("Held-out bound: coverage of the cells whose bias lies within the bound, and past it")
    print("(cells: generator x shift; lowest, mean and how many):")
    print()
    within = pd.DataFrame({"min": cells.min(), "mean": cells.mean(), "cells": cells.size()})
    within["min se"] = [monte_carlo_se(c, DRAWS) for c in within["min"]]
    print(within.round(3).to_string())
    print()
    at_50 = study[(study["shift"] == 0) & (study["n"] == 50) & (study["design"] == "uniform")]
    print("At the natural bias, 50 uniform labels: width over the labels-alone Wilson width:")
    print()
    print(
        at_50.pivot_table(index="generator", columns="option", values="ratio").round(3).to_string()
    )
    print()


def main() -> None:
    bench_worlds()
    bench_strong()
    bench_moved()


if __name__ == "__main__":
    main()
