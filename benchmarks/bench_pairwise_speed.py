"""Pairwise leaderboards at arena scale: fit and rank sets for 12 generators, 15,000 battles and
three judges, for both estimands.

Run: ``python benchmarks/run.py pairwise_speed``. One simulated arena (seeded;
:func:`regression.simulate.pairwise_world`: Davidson strengths with ties,
unbalanced pairs, three judges each judging both orders, each pulled to the
answer shown first on some battles), 90,000 verdict rows and 1,000 human votes
drawn uniformly. Each stage is timed as the best of
three runs: checking the tables (``check_pairwise``), the fit (win rates or
Davidson strengths, prediction-powered), and the leaderboard (the step-down
rank sets and the pair table from 20,000 draws of the joint error). The
baselines are measured in the same run: a plain numpy pass over the verdict
rows (each generator's mean verdict score by ``bincount``) and the same fit
from the human votes alone (``judges=False``, no predictor).
"""

from __future__ import annotations

import os

import numpy as np
from timing import best_of

from regression.pairwise import PairwiseModel, check_pairwise
from regression.pairwise.model import ESTIMANDS
from regression.simulate import pairwise_world

GENERATORS, BATTLES, VOTES = 12, 15_000, 1_000


def main() -> None:
    print(f"Load average at the start: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores.\n")
    world = pairwise_world(GENERATORS, BATTLES, VOTES, seed=0)
    verdicts, human = world.verdicts, world.human
    table = check_pairwise(verdicts, human)
    print(
        f"{GENERATORS} generators, {table.n_battles:,} battles, {len(table.validators)} judges "
        f"x 2 orders = {table.n_verdicts:,} verdict rows, {table.n_labels:,} human votes.\n"
    )

    def numpy_pass() -> None:
        given = ~np.isnan(table.score)
        player = np.concatenate([table.battle_a[table.battle], table.battle_b[table.battle]])
        score = np.concatenate([table.score, 1.0 - table.score])
        keep = np.concatenate([given, given])
        np.bincount(player[keep], score[keep]) / np.bincount(player[keep])

    base = best_of(numpy_pass)
    check = best_of(lambda: check_pairwise(verdicts, human))
    print("| estimand | stage | seconds | x numpy pass | x votes alone |")
    print("|---|---|---|---|---|")
    print(f"| - | numpy pass over the rows (baseline) | {base:.4f} | 1 | - |")
    print(f"| - | check_pairwise | {check:.3f} | {check / base:.0f} | - |")
    for estimand, fit_estimand in ESTIMANDS.items():
        fit_alone = best_of(lambda f=fit_estimand: f(table, judges=False))
        fit = best_of(lambda f=fit_estimand: f(table))
        result = PairwiseModel(estimand=estimand).fit_table(verdicts, human)
        alone = PairwiseModel(estimand=estimand, judges=False).fit_table(verdicts, human)
        board = best_of(result.leaderboard)
        board_alone = best_of(alone.leaderboard)
        total, total_alone = check + fit + board, check + fit_alone + board_alone
        for stage, seconds, versus in [
            ("fit, votes alone (baseline)", fit_alone, 1.0),
            ("fit, prediction-powered", fit, fit / fit_alone),
            ("leaderboard (rank sets, pairs)", board, board / board_alone),
            ("check + fit + leaderboard", total, total / total_alone),
        ]:
            print(f"| {estimand} | {stage} | {seconds:.3f} | {seconds / base:.0f} | {versus:.2f} |")
    print(f"\nLoad average at the end: {os.getloadavg()[0]:.1f}.")


if __name__ == "__main__":
    main()
