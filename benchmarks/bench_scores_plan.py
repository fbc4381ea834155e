"""Graded scores: the width ``plan_labels`` plans against the default interval's realised width.

Run: ``python benchmarks/run.py scores_plan`` (or ``make bench``);
``JURYCAL_BENCH_DRAWS=N`` sets the draws per cell (default 15),
``JURYCAL_BENCH_QUICK=1`` runs three.

For each set of ratings, a pilot of ``PILOT`` uniform ratings per generator
gives the cross-fitted predictor and the rating spread ``k`` the plan rests on
(:class:`regression.scores.suggest.WidthPlan`, as ``plan_labels`` and
``suggest_labels`` use it); each generator's planned width for ``n`` ratings,
drawn uniformly or by the active design ``suggest_labels`` draws (its
inclusion probabilities from the pilot's predictor), is then set beside the
mean width of :class:`regression.ScoreModel`'s default interval over draws of
``n`` ratings per generator made that way (the pilot not among them). A ratio
above 1: the plan asks for more ratings than the width needs.

Sets: HANNA (bundled; two criteria, the most spread and the most skewed:
Relevance and Surprise, 11 systems x 96 stories), two simulated worlds of
:func:`regression.scores.simulate.score_world` (5 generators x 400 outputs;
ratings spread and piled at the top) and a world the plan's model holds in
(:func:`planned_world`, the active draw's best case). The second table sets
the active draw's planned width over the uniform one's beside the realised
ratio: what :data:`regression.scores.suggest.ACTIVE_GAIN` rests on.
"""

from __future__ import annotations

import os
import warnings

import numpy as np
import pandas as pd
from bench_scores import draw_labels

from regression import ScoreModel
from regression.core.sampling import design_probabilities, systematic_sample
from regression.datasets import load_hanna
from regression.scores.estimate import cross_fitted_prediction
from regression.scores.simulate import score_world
from regression.scores.suggest import ACTIVE_GAIN, WidthPlan, rating_spread
from regression.scores.table import check_scores

QUICK = os.environ.get("JURYCAL_BENCH_QUICK") == "1"
DRAWS = 3 if QUICK else int(os.environ.get("JURYCAL_BENCH_DRAWS", "15"))
PILOT = 20
DESIGNS = ("uniform", "active")


def _cells(
    name: str,
    scores: pd.DataFrame,
    human: pd.DataFrame,
    scale: tuple[float, float],
    n_values: tuple[int, ...],
    seed: int,
) -> list[dict[str, object]]:
    rng = np.random.default_rng(seed)
    pilot = draw_labels(human, PILOT, rng)
    table = check_scores(scores, pilot, scale)
    f, span = cross_fitted_prediction(table), scale[1] - scale[0]
    k = rating_spread(table, f)
    codes = table.generator_codes
    units = table.units[["generator", "item"]]
    rest = units.merge(pilot[["generator", "item"]], how="left", indicator=True)["_merge"].eq(
        "left_only"
    )
    ratings = human.set_index(["generator", "item"])["human"]
    model = ScoreModel()
    rows = []
    for n in n_values:
        for design in DESIGNS:
            planned, pools = [], []
            for g in range(len(table.generators)):
                free = np.flatnonzero((codes == g) & rest.to_numpy())
                plan = WidthPlan(f[free], k)
                planned.append(float(plan.width(n, design)[0]) * span)
                pools.append((free, design_probabilities(f[free], n, design)))
            widths = []
            for _ in range(DRAWS):
                picks = []
                for free, pi in pools:
                    drawn = systematic_sample(pi, rng)
                    keys = units.iloc[free[drawn]]
                    picks.append(keys.assign(inclusion_probability=pi[drawn]))
                drawn_ratings = pd.concat(picks, ignore_index=True)
                drawn_ratings["human"] = ratings.reindex(
                    pd.MultiIndex.from_frame(drawn_ratings[["generator", "item"]])
                ).to_numpy()
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    interval = model.fit_table(scores, drawn_ratings, scale=scale).interval()
                widths.append(float((interval["high"] - interval["low"]).mean()))
            realised = float(np.mean(widths))
            rows.append(
                {
                    "set": name,
                    "n": n,
                    "design": design,
                    "planned": float(np.mean(planned)),
                    "realised": realised,
                    "ratio": float(np.mean(planned)) / realised,
                }
            )
    return rows


def planned_world(
    n_generators: int = 3, n_items: int = 400, k: float = 0.3, seed: int = 0
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A world the plan's model holds in: the active draw's best case.

    Each output's rescaled rating is a beta variable of mean ``f`` and variance
    ``k f (1 - f)`` (the plan's model), ``f`` drawn from Beta(0.4, 0.4), so that
    most outputs are near an end of the scale, where their ratings vary
    least; two judges read ``logit(f)`` with noise of standard deviation 0.3.
    Returns the scores and every output's rating on 1-5.
    """
    rng = np.random.default_rng(seed)
    scores, ratings = [], []
    for g in range(n_generators):
        f = 0.01 + 0.98 * rng.beta(0.4, 0.4, n_items)
        size = 1.0 / k - 1.0
        rating = 1.0 + 4.0 * rng.beta(f * size, (1 - f) * size)
        for judge in range(2):
            seen = np.log(f / (1 - f)) + rng.normal(0.0, 0.3, n_items)
            scores.append(
                pd.DataFrame(
                    {
                        "generator": f"g{g}",
                        "item": np.arange(n_items),
                        "validator": f"judge{judge}",
                        "score": seen,
                    }
                )
            )
        ratings.append(
            pd.DataFrame({"generator": f"g{g}", "item": np.arange(n_items), "human": rating})
        )
    return pd.concat(scores, ignore_index=True), pd.concat(ratings, ignore_index=True)


def main() -> None:
    print("### Planned against realised widths, graded scores")
    print()
    print(
        f"A pilot of {PILOT} uniform ratings per generator sets the plan; {DRAWS} draws of n "
        "ratings per generator (uniform, or the active design of suggest_labels) give the default "
        "interval's realised width; widths in rating points, mean over generators."
    )
    print()
    rows: list[dict[str, object]] = []
    for criterion in ("Relevance", "Surprise"):
        scores, human = load_hanna(criterion)
        rows += _cells(f"HANNA {criterion}", scores, human, (1.0, 5.0), (10, 20, 40), seed=1)
    for title, pile in (("simulated, ratings spread", 0.3), ("simulated, piled at the top", 0.9)):
        world = score_world(5, 400, 10, seed=7, pile=pile)
        rows += _cells(title, world.scores, world.all_ratings, world.scale, (10, 25, 100), seed=2)
    scores, human = planned_world()
    rows += _cells(
        "simulated, as the plan models", scores, human, (1.0, 5.0), (25, 50, 100), seed=3
    )
    table = pd.DataFrame(rows).set_index(["set", "n", "design"])
    with pd.option_context("display.width", 200, "display.precision", 3):
        print(table.to_string())
    ratio = table["ratio"]
    print()
    print(
        f"planned / realised: {ratio.min():.2f} to {ratio.max():.2f} "
        f"(median {ratio.median():.2f}) over {len(table)} cells."
    )
    print()
    print(
        "The active draw's width over the uniform one's, planned and realised (suggest_labels "
        f"draws actively only where planned at most {ACTIVE_GAIN:.2f}):"
    )
    print()
    by_design = table[["planned", "realised"]].unstack("design")
    gain = pd.DataFrame(
        {
            "planned": by_design["planned", "active"] / by_design["planned", "uniform"],
            "realised": by_design["realised", "active"] / by_design["realised", "uniform"],
        }
    )
    print(gain.round(3).to_string())


if __name__ == "__main__":
    main()
