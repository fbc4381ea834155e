"""Partial labels under a moved transfer, and the design variance of active draws.

Run: ``python benchmarks/run.py moved_transfer``.

1. **Moved transfer** (issue 30): every annotated bundled generator in turn is
   the new one; its human labels are moved valid -> invalid (or back) on random
   items, votes unchanged, so the transfer estimate is off by 0, +3, +5, +8,
   +10 or -5 points more than its natural error (``benchmarks/label_study.py``,
   ``move_labels``). ``n`` = 25, 50, 100, 200 labels, uniform and active
   (the draw ``suggest_labels`` makes); ``DRAWS`` draws per cell. Coverage and
   width of the default interval (labels and votes: valid for any transfer
   bias) and of ``transfer_bias="held-out"`` (bias-aware for the transfer's
   held-out bound), width over the labels-alone Wilson width, and the
   transfer's worth in labels.
2. **Active worlds** (issue 30, item 2): N = 1,000 items whose predicted
   label ``q`` is calibrated, the labels drawn once, ``n`` items drawn by
   the active probabilities and systematic sampling, the labels-and-votes
   interval checked against the population mean: its variance (the Wilson
   interval's, ``p(1 - p) / n_eff``) over the Monte Carlo variance of the
   estimate, and coverage.
"""

from __future__ import annotations

import pandas as pd
from label_study import WORLDS, active_world, label_study

from jurycal.datasets import load_agreeableness_judgments

DRAWS = 200
N_VALUES = (25, 50, 100, 200)
SHIFTS = (0.0, 3.0, 5.0, 8.0, 10.0, -5.0)
OPTIONS = (None, "held-out")
WORLD_DRAWS = 2000


def bench_worlds() -> None:
    print(f"### Active draws in two synthetic worlds (N = 1,000, {WORLD_DRAWS} draws per cell)")
    print()
    for name, parts in WORLDS.items():
        table = pd.DataFrame([active_world(parts, n, WORLD_DRAWS) for n in (25, 50, 100)])
        print(f"{name}:")
        print()
        print(table.set_index("n").round(3).to_string())
        print()


def bench_moved() -> None:
    judgments, human = load_agreeableness_judgments()
    study = label_study(judgments, human, N_VALUES, DRAWS, shifts=SHIFTS, options=OPTIONS, seed=0)
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
        }
    )
    print("Over the generators: lowest and mean coverage, mean width, width over labels alone:")
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
    bench_moved()


if __name__ == "__main__":
    main()
