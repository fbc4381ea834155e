"""Which outputs to rate next, and how many ratings a width needs, on the engine's sampling.

Both rest on the predictor's residual spread. A rating rescaled to [0, 1]
with prediction ``f`` has conditional variance at most ``f (1 - f)`` (a
bounded outcome's largest, Bhatia & Davis, 2000, at mean ``f``); the rated
outputs say how much of it the ratings show, ``k = sum w (y - f)^2 / sum w f (1
- f)`` (capped at 1), so output ``u``'s residual variance is read as
``v_u = k f_u (1 - f_u)``, and the ratings' own as ``v_u + (f_u - mean f)^2``.
A sample drawn with probabilities ``pi`` has design variance
:func:`~regression.core.sampling.design_variance` ``/ N^2`` (Poisson sampling)
for a weight ``lam`` on the judges, output ``u``'s residual variance ``v_u +
(1 - lam)^2 (f_u - mean f)^2``, and the planned width is the default
interval's (:class:`WidthPlan`, the floored interval of
:func:`~regression.core.floor.floored_ppi_interval` for graded outcomes):
each side the longest of Student's half-width, the bounded-spread score side
and the floor's shift, the share of outputs the design's smallest chance can
miss (:func:`~regression.core.floor.design_floor`) times the expected gap
between the sample's most extreme residual and the worst one
(:class:`ExtremeGaps`, each rating read as a beta variable of mean ``f_u``
and variance ``v_u``), but not the skewed side
(:func:`~regression.core.sides.skewed_half_widths`, which needs a sample's
residuals); the narrowest over the weights :data:`PLAN_LAMS`.
Where the floor binds, the interval takes the weight whose normal part and
shift together are least, which can be wider than planned (0.80 of the
realised width at the least, ``benchmarks/bench_scores_plan.py``); planning
by that rule from expected gaps overshot by a quarter where the floor binds
in some samples only. An active
draw, whose smallest chance is below the uniform one, is chosen only where
it is planned at most :data:`ACTIVE_GAIN` of the uniform draw's width, the
floor counted (the betting interval is wider at a few ratings: plan with a
margin there).
``benchmarks/bench_scores_plan.py`` sets the planned widths beside the
realised ones (docs/scores.md).

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
from scipy import special

from regression.checks import PROBABILITY_COLUMN, check_alpha, check_budget
from regression.core.floor import design_floor
from regression.core.sampling import (
    BudgetWarning,
    design_probabilities,
    design_variance,
    systematic_sample,
)
from regression.core.sides import bounded_spread_half_widths, student_half_widths
from regression.intervals import normal_quantile
from regression.labels.suggest import split_budget
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.scores.estimate import MIN_RATINGS, cross_fitted_prediction, estimate_rated
from regression.scores.table import RATING_COLUMNS, ScoreTable, check_scores

__all__ = [
    "ACTIVE_GAIN",
    "PLAN_LAMS",
    "ExtremeGaps",
    "WidthPlan",
    "plan_labels",
    "predicted_width",
    "rating_spread",
    "suggest_labels",
]

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


#: The judges' weights the plan chooses among, as the floored interval chooses its ``lam``.
PLAN_LAMS = np.linspace(0.0, 1.0, 5)

#: An active draw is made only where planned at most this share of a uniform draw's width:
#: where the judges are wrong where they are sure, the plan's one-factor variance model
#: predicts gains of up to 13 % for a draw that turns out 10-20 % wider, and where the model
#: holds the active draw gains at most 8 % (docs/scores.md, benchmarks/bench_scores_plan.py).
ACTIVE_GAIN = 0.85


def predicted_width(
    f: np.ndarray, k: float, n: np.ndarray | int, design: str = "uniform", alpha: float = 0.05
) -> np.ndarray:
    """The planned width on the [0, 1] scale of a generator's interval with ``n`` ratings of its outputs.

    ``f``: the predictions on the generator's outputs; ``k``: :func:`rating_spread`.
    ``WidthPlan(f, k, alpha).width(n, design)``: keep the :class:`WidthPlan` to ask it often.

    Examples
    --------
    >>> f = np.full(100, 0.8)
    >>> w = predicted_width(f, 0.5, np.array([10, 40, 100]))
    >>> bool(w[0] > w[1] > w[2] == 0)
    True
    """
    return WidthPlan(f, k, alpha).width(n, design)


class WidthPlan:
    """A generator's planned interval width for any number of ratings and design.

    The default interval's width as planned (module docstring): each side the longest
    of Student's half-width, the bounded-spread score side and the floor's
    shift, the floor's gap the expected distance from the sample's most
    extreme residual to the worst one (:class:`ExtremeGaps`); the narrowest
    over the judges' weights :data:`PLAN_LAMS`, output ``u``'s residual
    variance ``k f_u (1 - f_u) + (1 - lam)^2 (f_u - mean f)^2``. The
    residuals' distributions are computed once, for every ``n`` and design
    asked (a bisection asks many).
    """

    def __init__(self, f: np.ndarray, k: float, alpha: float = 0.05) -> None:
        self.f = np.asarray(f, dtype=float)
        self.alpha = alpha
        self.v_ppi = k * self.f * (1 - self.f)
        self.spread_f = (self.f - self.f.mean()) ** 2 if self.f.size else self.f
        self.gaps = ExtremeGaps(self.f, k, PLAN_LAMS) if self.f.size else None

    def width(self, n: np.ndarray | int, design: str = "uniform") -> np.ndarray:
        """The planned width on the [0, 1] scale with each ``n`` ratings drawn by ``design``.

        ``design``: ``"uniform"``, ``"active"``, or ``"drawn"``, the one
        :meth:`drawn` chooses for each ``n`` (what :func:`suggest_labels` draws).
        """
        if design == "drawn":
            uniform, active = self.width(n, "uniform"), self.width(n, "active")
            return np.where(_active_pays(active, uniform), active, uniform)
        size = self.f.size
        z = normal_quantile(self.alpha)
        widths = []
        for m in np.atleast_1d(n):
            if m <= 0 or self.gaps is None:
                widths.append(1.0)
                continue
            pi = design_probabilities(self.f, int(m), design)
            if np.all(pi >= 1.0):
                widths.append(0.0)
                continue
            share = design_floor(pi, self.alpha)
            variance = (
                np.array(
                    [
                        design_variance(self.v_ppi + (1 - lam) ** 2 * self.spread_f, pi)
                        for lam in PLAN_LAMS
                    ]
                )
                / size**2
            )
            student = student_half_widths(variance, int(m), self.alpha, "two-sided")
            spread_low, spread_high = bounded_spread_half_widths(
                np.full(PLAN_LAMS.size, float(self.f.mean())), variance, z, (0.0, 1.0)
            )
            # the floor at the widest gaps the residuals allow: where even that is below
            # Student's half-width, the gaps need not be computed
            reach = share * (1.0 + PLAN_LAMS * float(np.ptp(self.f)))
            if np.all(reach <= student):
                gap_low = gap_high = np.zeros(PLAN_LAMS.size)  # the floor cannot bind
            else:
                gap_low, gap_high = self.gaps.expected(pi)
            width = np.maximum.reduce([student, spread_low, share * gap_low]) + np.maximum.reduce(
                [student, spread_high, share * gap_high]
            )
            widths.append(min(float(width.min()), 1.0))
        return np.array(widths)

    def drawn(self, n: int) -> str:
        """The design :func:`suggest_labels` draws ``n`` ratings by: ``"active"`` only where
        planned at most :data:`ACTIVE_GAIN` of the uniform draw's width, else ``"uniform"``."""
        active, uniform = self.width(n, "active"), self.width(n, "uniform")
        return "active" if _active_pays(active, uniform)[0] else "uniform"


def _active_pays(active: np.ndarray, uniform: np.ndarray) -> np.ndarray:
    """Where an active draw is planned at most :data:`ACTIVE_GAIN` of a uniform one's width."""
    return active <= ACTIVE_GAIN * uniform


class ExtremeGaps:
    """The expected gaps below and above between a sample's extreme residuals and the worst ones.

    What the floor of the graded interval multiplies
    (:func:`~regression.core.floor.floored_ppi_interval`), per judges' weight
    ``lam``: below, from the worst residual ``-lam max(f)`` to the least drawn
    ``y - lam f``; above, from the greatest drawn to ``1 - lam min(f)``.
    Output ``u``'s rating is read as a beta variable of mean ``f_u`` and
    variance ``k f_u (1 - f_u)`` (two-valued at ``k = 1``), and each output is
    drawn with probability ``pi_u`` independently (Poisson sampling), so the
    least drawn residual exceeds ``x`` with probability ``prod_u (1 - pi_u
    P(r_u <= x))``; the expected gap is that integrated over the residual's
    range. Outputs are pooled by prediction to 1/64 of the scale; the
    residuals' distributions are computed once, for every design asked.

    Examples
    --------
    >>> gaps = ExtremeGaps(np.full(100, 0.5), 0.3, np.array([0.0]))
    >>> below, above = gaps.expected(np.full(100, 0.1))
    >>> bool(0 < below[0] < 0.5), bool(abs(below[0] - above[0]) < 1e-9)
    (True, True)
    """

    POINTS = 129

    def __init__(self, f: np.ndarray, k: float, lams: np.ndarray) -> None:
        f = np.asarray(f, dtype=float)
        _, self.index = np.unique(np.round(f * 64), return_inverse=True)
        self.count = np.bincount(self.index).astype(float)
        mean_f = np.bincount(self.index, weights=f) / self.count
        edge = 1e-6
        size = max(1.0 / max(k, 1e-9) - 1.0, edge)
        q = np.clip(mean_f, edge, 1 - edge)
        lams = np.asarray(lams, dtype=float)
        low, high = -lams * float(f.max()), 1.0 - lams * float(f.min())
        # x[l, p]: the residual grid of weight l; cdf[l, group, p] = P(y - lam f <= x)
        # points crowd at both ends, where a small gap's survival curve drops within a step
        steps = (1.0 - np.cos(np.linspace(0.0, np.pi, self.POINTS))) / 2.0
        self.x = low[:, None] + (high - low)[:, None] * steps
        at = np.clip(self.x[:, None, :] + lams[:, None, None] * mean_f[None, :, None], 0.0, 1.0)
        self.cdf = special.betainc((q * size)[None, :, None], ((1 - q) * size)[None, :, None], at)

    def expected(self, pi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per weight, the expected gap below and above under inclusion probabilities ``pi``."""
        chance = (np.bincount(self.index, weights=np.asarray(pi, dtype=float)) / self.count)[
            None, :, None
        ]
        with np.errstate(divide="ignore"):
            none_below = np.exp(np.einsum("g,lgp->lp", self.count, np.log1p(-chance * self.cdf)))
            none_above = np.exp(
                np.einsum("g,lgp->lp", self.count, np.log1p(-chance * (1.0 - self.cdf)))
            )
        return np.trapezoid(none_below, self.x, axis=1), np.trapezoid(none_above, self.x, axis=1)


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
    actively (module docstring) where that is planned at most
    :data:`ACTIVE_GAIN` of a uniform draw's width (:meth:`WidthPlan.drawn`),
    uniformly otherwise; the budget goes to the generator whose planned
    interval is widest. Rate the rows and pass them back, column
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
        widths[g] = _widths_along(WidthPlan(f[mine], k), grid)
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
        plan = WidthPlan(q, k)
        pi = design_probabilities(q, n, plan.drawn(n))
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


#: Ratings counts a budget's split computes the width at, per generator; the rest interpolated.
SPLIT_POINTS = 24


def _widths_along(plan: WidthPlan, grid: np.ndarray) -> np.ndarray:
    """The drawn design's planned widths along ``grid`` (increasing counts), for the budget's split.

    Computed at :data:`SPLIT_POINTS` of the counts spread evenly in ``log n``
    and interpolated between (the width falls smoothly with ``n``), so a long
    grid costs no more than a short one.
    """
    if grid.size <= SPLIT_POINTS:
        return plan.width(grid, "drawn")
    spots = np.geomspace(1, grid.size, SPLIT_POINTS) - 1
    chosen = np.unique(np.round(spots).astype(int))
    return np.interp(np.arange(grid.size), chosen, plan.width(grid[chosen], "drawn"))


def _needed(plan: WidthPlan, target: float, design: str) -> int:
    """The fewest ratings whose planned width is at most ``target`` (bisection: the width falls with n)."""
    low, high = 0, plan.f.size
    while low < high:
        middle = (low + high) // 2
        if plan.width(middle, design)[0] <= target:
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
        ``width_now`` (the width of the interval its ratings give now, as the
        fit shows it; NaN with fewer than ``MIN_RATINGS``), ``uniform`` and
        ``active`` (ratings needed in all, drawn uniformly or as
        :func:`suggest_labels` draws), ``more_uniform``, ``more_active`` (to
        buy; none where ``width_now`` is at most ``width``).
        The plan is :class:`WidthPlan`'s (module docstring).

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
    y = table.outcome
    pi = table.units[PROBABILITY_COLUMN].to_numpy(dtype=float)
    rows = []
    for g in chosen:
        mine = codes == table.generators.get_loc(g)
        q = f[mine]
        now = int(held[g])
        width_now = np.nan
        if now >= MIN_RATINGS:
            # the interval the fit shows now (fit_scores: the same predictions and rule)
            on = mine & table.rated
            fit = estimate_rated(y[on], f[on], q, pi[on])
            low, high = fit.bounds(BOUNDED_INTERVAL_METHODS[0], alpha, "two-sided")
            width_now = float(high - low) * span
        needed = dict.fromkeys(DESIGNS, now)  # narrow enough already: what is held is what it needs
        if not width_now <= width:  # not narrow enough yet, or no interval (NaN)
            plan = WidthPlan(q, k, alpha)
            needed = {
                d: _needed(plan, width / span, "drawn" if d == "active" else d) for d in DESIGNS
            }
        rows.append(
            {
                "generator": g,
                "n_outputs": q.size,
                "n_labels": now,
                "width_now": width_now,
                **needed,
                **{f"more_{d}": max(needed[d] - now, 0) for d in DESIGNS},
            }
        )
    columns = ["generator", "n_outputs", "n_labels", "width_now", *DESIGNS]
    columns += [f"more_{d}" for d in DESIGNS]
    return pd.DataFrame(rows, columns=columns).set_index("generator")
