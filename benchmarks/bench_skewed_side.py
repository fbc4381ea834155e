"""The graded interval's skewed side: Student's width shared as the empirical likelihood interval shares its own.

Run: ``python benchmarks/run.py skewed_side`` (about half a minute), or
``python benchmarks/bench_skewed_side.py --quick`` (the smoke test in
``tests/regression/test_bench_skewed_side.py``).

The normal part of a graded floored interval (:mod:`regression.core.sides`)
keeps on each side the longest of Student's half-width, the bounded-spread
score side and the skewed side. This study measures the skewed side alone, on
samples where the floor does not bind (every sample here shows spread), for
three normal parts on the same draws:

* **Student**: ``t_{m-1} s / sqrt(m)``, symmetric;
* **likelihood**: each side the longer of Student's and Owen's empirical
  likelihood interval's (:func:`~regression.core.sides.likelihood_half_widths`,
  read on Student's half-width);
* **shape** (the default's): each side the longer of Student's and
  :func:`~regression.core.sides.skewed_half_widths`, Student's width shared
  between the sides as the likelihood interval shares its own.

The samples: a **tail**, a share of outputs at -3 or -4 beside a bulk spread
around 0 (a blind spot every judge scores at the other end, caught a few
times); **both ends**, three values at the scale's ends and middle with the
ends equally likely (a few extremes on both sides: kurtosis, no skew); normal
and exponential samples. ``DRAWS`` samples a cell (the standard error of a
coverage of 0.95 is 0.0015); coverage counts the samples that show spread.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

import numpy as np
import pandas as pd
from scipy import stats

from regression.core.sides import likelihood_half_widths, skewed_half_widths

DRAWS = 20_000
SEED = 5

Sampler = Callable[[np.random.Generator, tuple[int, int]], np.ndarray]


def _tail(share: float, gap: float) -> Sampler:
    def draw(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
        bulk = rng.normal(0.0, 0.6, shape).clip(-1.5, 1.5)
        return np.where(rng.random(shape) < share, -gap, bulk)

    return draw


def _both_ends(share: float) -> Sampler:
    def draw(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
        return rng.choice([0.0, 0.5, 1.0], p=[share, 1 - 2 * share, share], size=shape)

    return draw


def _normal(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    return rng.normal(0.0, 1.0, shape)


def _exponential(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    return rng.exponential(1.0, shape)


#: (kind, n, its sampler, the true mean)
CELLS: list[tuple[str, int, Sampler, float]] = [
    ("tail 10 % at -3", 50, _tail(0.10, 3.0), -0.30),
    ("tail 5 % at -4", 50, _tail(0.05, 4.0), -0.20),
    ("tail 3 % at -4", 100, _tail(0.03, 4.0), -0.12),
    ("tail 3 % at -4", 200, _tail(0.03, 4.0), -0.12),
    ("tail 10 % at -3", 20, _tail(0.10, 3.0), -0.30),
    ("both ends 3.3 %", 30, _both_ends(1 / 30), 0.5),
    ("both ends 10 %", 30, _both_ends(0.10), 0.5),
    ("both ends 5 %", 50, _both_ends(0.05), 0.5),
    ("both ends 2 %", 100, _both_ends(0.02), 0.5),
    ("normal", 10, _normal, 0.0),
    ("normal", 30, _normal, 0.0),
    ("exponential", 10, _exponential, 1.0),
    ("exponential", 30, _exponential, 1.0),
]


def study(
    cells: list[tuple[str, int, Sampler, float]], draws: int, seed: int = SEED
) -> pd.DataFrame:
    """Coverage and mean width over Student's of the three normal parts, a row per cell."""
    rng = np.random.default_rng(seed)
    rows = []
    for kind, n, draw, truth in cells:
        x = draw(rng, (draws, n))
        mean, spread = x.mean(axis=1), x.std(axis=1, ddof=1)
        shown = spread > 0
        quantile = stats.t.ppf(0.975, n - 1)
        student = quantile * spread / np.sqrt(n)
        whole = likelihood_half_widths(x, np.ones(n), student)
        shaped = skewed_half_widths(student, x, np.ones(n))
        row: dict[str, object] = {"samples": kind, "n": n}
        for name, (below, above) in {
            "Student": (student, student),
            "likelihood": whole,
            "shape": shaped,
        }.items():
            below, above = np.maximum(below, student), np.maximum(above, student)
            covered = (mean - below <= truth) & (truth <= mean + above)
            row[f"{name} coverage"] = covered[shown].mean()
            row[f"{name} width"] = ((below + above)[shown] / (2 * student[shown])).mean()
        rows.append(row)
    return pd.DataFrame(rows).set_index(["samples", "n"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a few hundred draws of three cells")
    args = parser.parse_args([] if argv is None else argv)
    cells, draws = (CELLS[:1] + CELLS[5:6] + CELLS[9:10], 300) if args.quick else (CELLS, DRAWS)
    table = study(cells, draws)
    print("### The skewed side: coverage and width over Student's, three normal parts")
    print()
    print(
        f"{draws:,} samples a cell; each side the longer of Student's and the part named "
        "(likelihood: Owen's empirical likelihood interval; shape: Student's width shared as "
        "that interval shares its own, the default's). Width: mean over Student's."
    )
    print()
    print(table.round(4).to_string())


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
