"""Win-rate intervals on the real Chatbot Arena set: coverage per generator over seeded draws of the votes.

Run: ``python benchmarks/run.py arena_coverage`` (about 90 s), or
``python benchmarks/bench_arena_coverage.py --quick`` (the smoke test in
``tests/regression/test_bench_arena_coverage.py``).

The bundled set (:func:`jurycal.datasets.load_chatbot_arena`: 12 generators, 14,947
battles, three LLM judges on every battle, a human vote on every battle) is the one
real arena whose truth is known: each generator's win rate over all its battles as
the human votes say (a win 1, a tie 1/2, a loss 0). Each draw keeps ``VOTES``
human votes drawn uniformly (seeded), fits :class:`regression.PairwiseModel` (the
default: prediction-powered win rates, floored intervals; the tables checked
once a draw and handed to :func:`~regression.pairwise.win_rates`, as
``fit_table`` does) and checks every generator's 95 % interval against that
truth; the votes alone (``judges=False``) on the same draws are the baseline. Coverage is
read per generator, not on average: the demo's one draw (``jurycal demo``, step 6)
is one of these.
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
import pandas as pd

from jurycal.datasets import load_chatbot_arena
from regression.pairwise import check_pairwise, win_rates

ALPHA = 0.05
VOTES = 1_000
DRAWS = 1_000


def study(draws: int, votes: int = VOTES) -> pd.DataFrame:
    """Per generator and method: coverage of its true win rate, its standard error and mean width."""
    verdicts, human = load_chatbot_arena()
    truth = win_rates(check_pairwise(verdicts, human), judges=False).estimate
    models = {"jurycal": True, "votes alone": False}  # judges used or not
    hits = {name: np.zeros(truth.size) for name in models}
    width = {name: np.zeros(truth.size) for name in models}
    for draw in range(draws):
        table = check_pairwise(verdicts, human.sample(votes, random_state=draw))
        for name, judges in models.items():
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # a few votes' notes, the same every draw
                interval = win_rates(table, judges=judges).interval(ALPHA).loc[truth.index]
            hits[name] += ((interval["low"] <= truth) & (truth <= interval["high"])).to_numpy()
            width[name] += (interval["high"] - interval["low"]).to_numpy()
    rows = []
    for name in models:
        coverage = hits[name] / draws
        rows.append(
            pd.DataFrame(
                {
                    "method": name,
                    "generator": truth.index,
                    "truth": truth.to_numpy(),
                    "coverage": coverage,
                    "se": np.sqrt(coverage * (1 - coverage) / draws),
                    "width": width[name] / draws,
                }
            )
        )
    return pd.concat(rows, ignore_index=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few draws")
    args = parser.parse_args([] if argv is None else argv)
    draws = 5 if args.quick else DRAWS
    table = study(draws)
    print(f"### Chatbot Arena: {VOTES:,} of 14,947 human votes, {draws:,} seeded draws")
    print()
    print(
        "Coverage of each generator's true win rate (all 14,947 votes) by its 95 % interval "
        f"(Monte Carlo standard error {np.sqrt(0.95 * 0.05 / draws):.3f} at 0.95) and its mean "
        "width; jurycal's default beside the votes alone on the same draws."
    )
    print()
    wide = table.pivot(index="generator", columns="method", values=["coverage", "width"])
    wide.columns = [f"{value}: {method}" for value, method in wide.columns]
    wide.insert(0, "truth", table.groupby("generator")["truth"].first())
    print(wide.sort_values("truth", ascending=False).round(3).to_string())
    print()
    for method, part in table.groupby("method", sort=False):
        print(
            f"{method}: coverage {part['coverage'].min():.3f} to {part['coverage'].max():.3f} "
            f"per generator (pooled {part['coverage'].mean():.3f}), mean width "
            f"{part['width'].mean():.3f}."
        )


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
