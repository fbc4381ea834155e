"""Coverage and width of a rated generator's mean-rating interval, by interval, on simulated worlds.

``ScoreModel``'s two intervals (the engine's betting interval, the default, and
the normal one) beside a candidate: Wilson's score interval at the effective
sample size ``p (1 - p) / V`` of the prediction-powered estimate (``V`` its
linearised variance, floored at the ratings' own Kish-size variance times
``(1 - lam)^2``, the estimate kept one pseudo-rating from the scale's ends), the
form binary labels use (:mod:`regression.labels.partial`). Worlds from
:func:`regression.scores.simulate.score_world`: four generators of 100 outputs,
ratings 1-5 piled at the top (``pile``), judges with noise ``noise``, ``n``
ratings per generator drawn uniformly; coverage of the mean rating over all 100
outputs, width in rating points.

Run: ``PYTHONPATH=. python benchmarks/score_intervals_study.py [repetitions]``
(50 repetitions: about 4 minutes on one core).
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pandas as pd

from regression.labels.partial import score_interval
from regression.scores import ScoreModel
from regression.scores.estimate import RatedEstimate
from regression.scores.simulate import score_world

__all__ = ["effective_wilson", "main", "study"]


def effective_wilson(fit: RatedEstimate) -> tuple[float, float]:
    """The candidate interval on the [0, 1] scale (module docstring)."""
    n = fit.y.size
    edge = 1 / (n + 2)
    own = float(np.clip(fit.y.mean(), edge, 1 - edge))
    kish = own * (1 - own) / n * (1 - n / fit.f_all.size)
    variance = max(fit.variance, (1 - fit.lam) ** 2 * kish, 1e-12)
    p = float(np.clip(fit.estimate, edge, 1 - edge))
    low, high = score_interval(p, p * (1 - p) / variance)
    return min(float(low), fit.estimate), max(float(high), fit.estimate)


def study(repetitions: int) -> pd.DataFrame:
    """Coverage and width per (n, pile, noise) cell and interval."""
    rows = []
    for n in (10, 20):
        for pile in (0.3, 0.9):
            for noise in (0.3, 1.0):
                for r in range(repetitions):
                    world = score_world(4, 100, n, pile=pile, noise=noise, seed=1000 * n + r)
                    truth = (world.truth - 1) / 4
                    for interval in ("betting", "normal"):
                        fit = ScoreModel(interval=interval).fit_table(
                            world.scores, world.ratings, scale=(1, 5)
                        )
                        table = fit.interval()
                        for g in table.index:
                            low, high = (table.loc[g, ["low", "high"]] - 1) / 4
                            rows.append((n, pile, noise, interval, low, high, truth[g]))
                    for g, rated in fit.rated.items():
                        low, high = effective_wilson(rated)
                        rows.append((n, pile, noise, "wilson at n_eff", low, high, truth[g]))
    table = pd.DataFrame(rows, columns=["n", "pile", "noise", "interval", "low", "high", "truth"])
    table["cover"] = (table["low"] <= table["truth"]) & (table["truth"] <= table["high"])
    table["width"] = 4 * (table["high"] - table["low"])
    cells = table.groupby(["n", "pile", "noise", "interval"])[["cover", "width"]].mean()
    return cells.unstack("interval").round(3)


def main() -> None:
    """Print the study's table."""
    repetitions = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        print(study(repetitions).to_string())


if __name__ == "__main__":
    main()
