"""Coverage and width of a rated generator's mean-rating interval, by interval, on simulated worlds.

``ScoreModel``'s two intervals, the engine's betting interval (the default)
and ``"normal"`` (Wilson's score interval at the effective sample size), each
with the judges and with the ratings alone (``judges=False``). Worlds from
:func:`regression.scores.simulate.score_world`: four generators of 100 outputs,
ratings 1-5 piled at the top (``pile``), judges with noise ``noise``, ``n``
ratings per generator drawn uniformly; coverage of the mean rating over all 100
outputs, width in rating points.

Run: ``PYTHONPATH=. python benchmarks/score_intervals_study.py [repetitions]``
(50 repetitions: about 5 minutes on one core).
"""

from __future__ import annotations

import sys
import warnings

import pandas as pd

from regression.scores import ScoreModel
from regression.scores.simulate import score_world

__all__ = ["main", "study"]

#: The fits compared: name -> settings of ScoreModel.
FITS = {
    "betting": {},
    "normal": {"interval": "normal"},
    "betting, ratings alone": {"judges": False},
    "normal, ratings alone": {"interval": "normal", "judges": False},
}


def study(repetitions: int) -> pd.DataFrame:
    """Coverage and width per (n, pile, noise) cell and interval."""
    rows = []
    for n in (10, 20):
        for pile in (0.3, 0.9):
            for noise in (0.3, 1.0):
                for r in range(repetitions):
                    world = score_world(4, 100, n, pile=pile, noise=noise, seed=1000 * n + r)
                    truth = (world.truth - 1) / 4
                    for name, settings in FITS.items():
                        fit = ScoreModel(**settings).fit_table(
                            world.scores, world.ratings, scale=(1, 5)
                        )
                        table = fit.interval()
                        for g in table.index:
                            low, high = (table.loc[g, ["low", "high"]] - 1) / 4
                            rows.append((n, pile, noise, name, low, high, truth[g]))
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
