"""Draw docs/new-generators.png: every estimator's leave-s-out error on the bundled data (Fig. 6 style).

Run from the repository root: ``python docs/draw_new_generators.py``. It scores
:func:`regression.leave_out.default_models` (the paper's released configuration, the
likelihood and every estimator for new generators) on every calibration subset
of the six annotated generators at repair level ``none``, prints the mean max
error and the coverage of the 95 % intervals per s, and draws the mean max
error per s with the paper's own released numbers.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from jurycal.datasets import (  # noqa: E402
    load_confusion,
    load_human_precision,
    load_paper_regression_errors,
    load_validator_rates,
)
from regression import leave_out_evaluation  # noqa: E402
from regression.latent.plots import plot_leave_out  # noqa: E402

__all__ = ["FIGURE", "draw"]

#: Where the figure goes: beside this script, where docs/new-generators.md shows it.
FIGURE = Path(__file__).with_name("new-generators.png")


def draw(out: Path = FIGURE) -> Path:
    """Score the estimators, print the table, save the figure; returns its path."""
    released = load_paper_regression_errors()
    released = released[(released.repair_level == "none") & (released.calibration_size < 6)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # s = 0 fits warn that they are unanchored
        table = leave_out_evaluation(
            load_validator_rates("none"),
            confusion=load_confusion("none"),
            precision=load_human_precision(),
            sizes=range(1, 6),
            baselines={},
            progress=False,
        )
    summary = table.groupby(["method", "s"])[["max_abs_error", "coverage"]].mean().unstack("s")
    print((100 * summary).round(2).to_string())
    figure = plot_leave_out(table, spread_method="transfer", released=released)
    figure.savefig(out, dpi=120, bbox_inches="tight")
    return out


if __name__ == "__main__":
    print(f"written: {draw()}")
