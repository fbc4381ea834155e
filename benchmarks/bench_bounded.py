"""The betting interval of a bounded mean: coverage and its price against the normal interval.

Run: ``python benchmarks/run.py bounded``. Three tables:

1. Bernoulli draws: coverage and width of
   :func:`regression.core.betting_interval` beside Wilson's, ``DRAWS``
   seeded draws per cell (the unit tests check exact coverage by enumeration
   at ``n = 8``; this is the larger ``n``).
2. A shared blind spot: 1,000 items, judges sure and right on most, but
   wrong together on 38 items (3.8 %) they call surely valid (issue 37's
   world); the labels-and-votes interval of ``ppi_design_mean`` with
   ``interval_method`` betting (default) and normal, uniform and active
   draws.
3. The price on the bundled agreeableness data: every fully labelled
   generator taken as new in turn (``label_study``), both interval methods
   on the same draws; ``betting / normal`` is the mean width ratio, shown
   where the normal interval covered.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from label_study import label_study

from jurycal.datasets import load_agreeableness_judgments
from regression.core import active_probabilities, betting_interval, systematic_sample
from regression.intervals import wilson_interval
from regression.labels import ppi_design_mean

DRAWS = 400
STUDY_DRAWS = 100
N_VALUES = (25, 50, 100)


def bench_bernoulli() -> None:
    rng = np.random.default_rng(0)
    rows = []
    for n in (10, 25, 100, 400):
        for p in (0.01, 0.1, 0.5, 0.9):
            hit = width = w_hit = w_width = 0.0
            for d in range(DRAWS):
                x = (rng.random(n) < p).astype(float)
                low, high = betting_interval(x, (0, 1), seed=d)
                hit += float(low <= p <= high)
                width += float(high - low)
                wl, wh = wilson_interval(x.sum(), n)
                w_hit += float(wl <= p <= wh)
                w_width += float(wh - wl)
            rows.append(
                {
                    "n": n,
                    "p": p,
                    "betting_coverage": hit / DRAWS,
                    "wilson_coverage": w_hit / DRAWS,
                    "betting_width": width / DRAWS,
                    "wilson_width": w_width / DRAWS,
                    "ratio": width / w_width,
                }
            )
    print(f"### Bernoulli draws: betting beside Wilson ({DRAWS} draws per cell)")
    print()
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print()


def blind_spot_world(seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Predictions and labels: judges sure and right on most items, wrong together on 38."""
    rng = np.random.default_rng(seed)
    q = np.where(rng.random(1000) < 0.8, 0.97, 0.03)
    y = (rng.random(1000) < q).astype(float)
    blind = rng.choice(np.flatnonzero(q > 0.5), 38, replace=False)
    y[blind] = 0.0  # the kind of invalid answer every judge accepts
    return q, y


def bench_blind_spot() -> None:
    q, y = blind_spot_world()
    truth = float(y.mean())
    rng = np.random.default_rng(1)
    rows = []
    for n in N_VALUES:
        for design in ("uniform", "active"):
            pi = np.full(q.size, n / q.size) if design == "uniform" else active_probabilities(q, n)
            hit = {"betting": 0.0, "normal": 0.0}
            width = {"betting": 0.0, "normal": 0.0}
            for d in range(DRAWS):
                pick = (
                    rng.choice(q.size, n, replace=False)
                    if design == "uniform"
                    else systematic_sample(pi, rng)
                )
                for method in hit:
                    est = ppi_design_mean(
                        y[pick], q[pick], q, pi[pick], interval_method=method, seed=d
                    )
                    low, high = est.bounds()
                    hit[method] += float(low <= truth <= high)
                    width[method] += float(high - low)
            rows.append(
                {
                    "n": n,
                    "design": design,
                    "betting_coverage": hit["betting"] / DRAWS,
                    "normal_coverage": hit["normal"] / DRAWS,
                    "betting_width": width["betting"] / DRAWS,
                    "normal_width": width["normal"] / DRAWS,
                }
            )
    print(
        f"### A shared blind spot: 38 of 1,000 items wrongly accepted by every judge "
        f"(precision {truth:.3f}, {DRAWS} draws per cell)"
    )
    print()
    print(pd.DataFrame(rows).round(3).to_string(index=False))
    print()


def bench_price_bundled() -> None:
    judgments, human = load_agreeableness_judgments()
    studies = {
        method: label_study(judgments, human, N_VALUES, STUDY_DRAWS, seed=0, interval_method=method)
        for method in ("betting", "normal")
    }
    keys = ["generator", "n", "design"]
    both = studies["betting"][keys + ["coverage", "width"]].merge(
        studies["normal"][keys + ["coverage", "width"]], on=keys, suffixes=("_betting", "_normal")
    )
    both["betting / normal"] = both["width_betting"] / both["width_normal"]
    se = np.sqrt(0.95 * 0.05 / STUDY_DRAWS)
    covered = both["coverage_normal"] >= 0.95 - 2 * se
    print(
        f"### The price on the bundled data: betting and normal on the same draws "
        f"({STUDY_DRAWS} draws per cell)"
    )
    print()
    print(both.round(3).to_string(index=False))
    print()
    grouped = both[covered].groupby(["n", "design"], sort=False)["betting / normal"]
    print(
        "Mean width ratio betting / normal where the normal interval covered "
        f"(coverage >= 0.95 - 2 MC se): overall {both.loc[covered, 'betting / normal'].mean():.2f}"
    )
    print()
    print(grouped.agg(["mean", "min", "max"]).round(2).to_string())
    print()


def main() -> None:
    bench_bernoulli()
    bench_blind_spot()
    bench_price_bundled()


if __name__ == "__main__":
    main()
