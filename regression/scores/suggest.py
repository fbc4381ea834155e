"""Which outputs to rate next, and how many ratings a width needs, on the engine's sampling.

Both rest on the predictor's residual spread. A rating rescaled to [0, 1]
with prediction ``f`` has conditional variance at most ``f (1 - f)`` (a
bounded outcome's largest, Bhatia & Davis, 2000, at mean ``f``); the rated
outputs say how much of it the ratings show, ``k = sum w (y - f)^2 / sum w f (1
- f)`` (capped at 1), so output ``u``'s residual variance is read as
``v_u = k f_u (1 - f_u)``, and the ratings' own as ``v_u + (f_u - mean f)^2``.
A sample drawn with probabilities ``pi`` has design variance
:func:`~regression.core.sampling.design_variance` ``/ N^2`` (Poisson sampling),
the prediction-powered estimate the smaller of the two (``lam`` tuned), and
the planned width is the normal one, ``2 z sqrt(V)`` on the rating scale, or
the default interval's floor where that is wider
(:func:`~regression.core.floor.design_floor`: the share of outputs the
design's smallest chance can miss, times the residual's range, ``1 +
max(f) - min(f)`` with the judges, 1 for the ratings alone), the narrower of
the two ways as the floored interval chooses, so that an
active draw, whose smallest chance is below the uniform one, is chosen only
where it is predicted narrower with the floor counted (the betting interval is
wider at a few ratings: plan with a margin there).

The active draw takes ``pi_u`` in proportion to ``sqrt(v_u)`` with a floor
(:func:`~regression.core.sampling.active_probabilities`: ``k`` is one factor
per generator, so it cancels), realised by the systematic pi-ps draw
(:func:`~regression.core.sampling.systematic_sample`); the budget is split
between generators to the one whose predicted interval is widest
(:func:`~regression.labels.suggest.split_budget`).
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import PROBABILITY_COLUMN, check_alpha, check_budget
from regression.core.floor import design_floor, residual_range
from regression.core.sampling import (
    BudgetWarning,
    design_probabilities,
    design_variance,
    systematic_sample,
)
from regression.intervals import normal_quantile
from regression.labels.suggest import split_budget
from regression.scores.estimate import cross_fitted_prediction
from regression.scores.table import RATING_COLUMNS, ScoreTable, check_scores

__all__ = ["plan_labels", "predicted_width", "rating_spread", "suggest_labels"]

#: The designs a plan reports.
DESIGNS = ("uniform", "active")


def rating_spread(table: ScoreTable, f: np.ndarray) -> float:
    """``k``: the share of the bounded variance ``f (1 - f)`` the rated outputs' residuals show.

    1 (the bound) without two rated outputs.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.scores.table import check_scores
    >>> scores = pd.DataFrame({"generator": "a", "item": range(4), "validator": "j",
    ...                        "score": [1, 2, 3, 4]})
    >>> human = pd.DataFrame({"generator": "a", "item": range(4), "human": [0, 0, 1, 1]})
    >>> table = check_scores(scores, human, scale=(0, 1))
    >>> rating_spread(table, np.full(4, 0.5))  # coin flips: all of the bound
    1.0
    """
    rated = table.rated
    if rated.sum() < 2:
        return 1.0
    y, q = table.outcome[rated], f[rated]
    w = 1.0 / table.units[PROBABILITY_COLUMN].to_numpy(dtype=float)[rated]
    bound = float(np.sum(w * q * (1 - q)))
    return 1.0 if bound <= 0 else min(float(np.sum(w * (y - q) ** 2)) / bound, 1.0)


def predicted_width(
    f: np.ndarray, k: float, n: np.ndarray | int, design: str = "uniform", alpha: float = 0.05
) -> np.ndarray:
    """The planned width on the [0, 1] scale of a generator's interval with ``n`` ratings of its outputs.

    ``f``: the predictions on the generator's outputs; ``k``: :func:`rating_spread`.

    Examples
    --------
    >>> f = np.full(100, 0.8)
    >>> w = predicted_width(f, 0.5, np.array([10, 40, 100]))
    >>> bool(w[0] > w[1] > w[2] == 0)
    True
    """
    f = np.asarray(f, dtype=float)
    size = f.size
    v_ppi = k * f * (1 - f)
    v_ratings = v_ppi + (f - f.mean()) ** 2
    judged_range = residual_range(f)
    z = normal_quantile(alpha)
    widths = []
    for m in np.atleast_1d(n):
        if m <= 0:
            widths.append(1.0)
            continue
        pi = design_probabilities(f, int(m), design)
        share = design_floor(pi, 1.0, alpha)

        def normal(v: np.ndarray, pi: np.ndarray = pi) -> float:
            return 2 * z * np.sqrt(max(design_variance(v, pi) / size**2, 0.0))

        # as the floored interval chooses its weight: the judges' (lam = 1, the residual's
        # range) or the ratings' alone (lam = 0, the scale), whichever is narrower
        judged = max(normal(v_ppi), share * judged_range)
        alone = max(normal(v_ratings), share)
        widths.append(min(judged, alone, 1.0))
    return np.array(widths)


def _checked(scores: pd.DataFrame, human: pd.DataFrame | None, scale: Any) -> ScoreTable:
    ratings = pd.DataFrame(columns=list(RATING_COLUMNS)) if human is None else human
    return check_scores(scores, ratings, scale)


def _chosen(table: ScoreTable, generators: list[str] | None) -> list[Any]:
    n_labels = table.n_labels()
    counts = pd.Series(table.generator_codes).value_counts()
    n_outputs = pd.Series(
        counts.reindex(range(len(table.generators)), fill_value=0).to_numpy(), table.generators
    )
    if generators is None:
        return [g for g in table.generators if n_labels[g] < n_outputs[g]]
    unknown = [g for g in generators if g not in table.generators]
    if unknown:
        raise ValueError(f"generator {unknown[0]!r} has no scores.")
    return list(generators)


def suggest_labels(
    scores: pd.DataFrame,
    human: pd.DataFrame | None,
    budget: int,
    *,
    scale: Any = None,
    generators: list[str] | None = None,
    seed: int | None = None,
) -> pd.DataFrame:
    """The outputs to rate next: ``generator, item, inclusion_probability``.

    Each generator's unrated outputs are drawn by systematic pi-ps sampling,
    actively (module docstring) where that is predicted narrower than a
    uniform draw, uniformly otherwise; the budget goes to the generator whose
    predicted interval is widest. Rate the rows and pass them back, column
    and all, with the earlier ratings.

    Parameters
    ----------
    scores : DataFrame
        ``generator, item, validator, score``.
    human : DataFrame or None
        The ratings held so far.
    budget : int
        Ratings to buy: exactly this many rows (fewer only when fewer outputs
        are unrated, with a :class:`~regression.core.sampling.BudgetWarning`).
    scale : (float, float), optional
        The rating scale (needed without ratings).
    generators : list of str, optional
        Where to spend it; default every generator not fully rated.
    seed : int, optional
        Seeds the draw.

    Examples
    --------
    >>> from regression.scores.simulate import score_world
    >>> world = score_world(n_generators=3, n_items=50, n_rated=5, seed=0)
    >>> picks = suggest_labels(world.scores, world.ratings, 12, scale=(1, 5), seed=0)
    >>> len(picks), bool(picks["inclusion_probability"].between(0, 1).all())
    (12, True)
    """
    budget = check_budget(budget)
    table = _checked(scores, human, scale)
    chosen = _chosen(table, generators)
    f = cross_fitted_prediction(table) if table.rated.any() else np.full(len(table.units), 0.5)
    k = rating_spread(table, f)
    codes = table.generator_codes
    step = max(1, budget // 200)
    pools: dict[Any, np.ndarray] = {}
    widths: dict[Any, np.ndarray] = {}
    for g in chosen:
        mine = np.flatnonzero(codes == table.generators.get_loc(g))
        free = mine[~table.rated[mine]]
        pools[g] = free
        done = mine.size - free.size
        grid = np.minimum(done + step * np.arange(free.size // step + 2), mine.size)
        widths[g] = np.minimum(
            predicted_width(f[mine], k, grid, "active"), predicted_width(f[mine], k, grid)
        )
    capacity = {g: pools[g].size for g in chosen}
    if sum(capacity.values()) < budget:
        warnings.warn(
            f"budget {budget} is more than the {sum(capacity.values())} unrated outputs of "
            f"{[str(g) for g in chosen]}: suggesting every one of them.",
            BudgetWarning,
            stacklevel=2,
        )
    split = split_budget(widths, capacity, budget, step)
    rng = np.random.default_rng(seed)
    frames = []
    for g in chosen:
        free, n = pools[g], split[g]
        if n == 0:
            continue
        q = f[free]
        active = predicted_width(q, k, n, "active")[0] < predicted_width(q, k, n)[0]
        pi = design_probabilities(q, n, "active" if active else "uniform")
        picks = systematic_sample(pi, rng)
        frames.append(
            pd.DataFrame(
                {
                    "generator": table.units["generator"].to_numpy()[free[picks]],
                    "item": table.units["item"].to_numpy()[free[picks]],
                    PROBABILITY_COLUMN: pi[picks],
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=["generator", "item", PROBABILITY_COLUMN])
    return pd.concat(frames, ignore_index=True)


def _needed(f: np.ndarray, k: float, target: float, design: str, alpha: float) -> int:
    """The fewest ratings whose planned width is at most ``target`` (bisection: the width falls with n)."""
    low, high = 0, f.size
    while low < high:
        middle = (low + high) // 2
        if predicted_width(f, k, middle, design, alpha)[0] <= target:
            high = middle
        else:
            low = middle + 1
    return low


def plan_labels(
    scores: pd.DataFrame,
    human: pd.DataFrame | None,
    width: float,
    *,
    scale: Any = None,
    alpha: float = 0.05,
    generators: list[str] | None = None,
) -> pd.DataFrame:
    """Ratings each generator needs for an interval at most ``width`` wide (rating points).

    Returns
    -------
    DataFrame
        Indexed by generator: ``n_outputs``, ``n_labels`` (held now),
        ``width_now`` (planned with the ratings held), ``uniform`` and
        ``active`` (ratings needed in all, drawn uniformly or as
        :func:`suggest_labels` draws), ``more_uniform``, ``more_active`` (to buy).
        The plan is the normal approximation of the module docstring.

    Examples
    --------
    >>> from regression.scores.simulate import score_world
    >>> world = score_world(n_generators=2, n_items=80, n_rated=10, seed=0)
    >>> plan = plan_labels(world.scores, world.ratings, 0.5, scale=(1, 5))
    >>> bool((plan["uniform"] <= plan["n_outputs"]).all())
    True
    """
    alpha = check_alpha(alpha)
    table = _checked(scores, human, scale)
    span = table.scale[1] - table.scale[0]
    if not 0 < width < span:
        raise ValueError(f"width must be in (0, {span:g}) rating points; got {width!r}.")
    chosen = _chosen(table, generators)
    f = cross_fitted_prediction(table) if table.rated.any() else np.full(len(table.units), 0.5)
    k = rating_spread(table, f)
    held = table.n_labels()
    codes = table.generator_codes
    rows = []
    for g in chosen:
        q = f[codes == table.generators.get_loc(g)]
        now = int(held[g])
        needed = {d: _needed(q, k, width / span, d, alpha) for d in DESIGNS}
        rows.append(
            {
                "generator": g,
                "n_outputs": q.size,
                "n_labels": now,
                "width_now": float(predicted_width(q, k, now, "uniform", alpha)[0]) * span
                if now
                else np.nan,
                **needed,
                **{f"more_{d}": max(needed[d] - now, 0) for d in DESIGNS},
            }
        )
    columns = ["generator", "n_outputs", "n_labels", "width_now", *DESIGNS]
    columns += [f"more_{d}" for d in DESIGNS]
    return pd.DataFrame(rows, columns=columns).set_index("generator")
