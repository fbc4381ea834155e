"""How many labels a generator needs for a target interval width, uniform or active.

:func:`plan_labels` reports, per generator, the labels :func:`labels_needed`
finds: it computes the estimate and its interval itself
(:func:`simulated_width`) on label draws simulated from the predictor, for the
engine's default (floored) interval, or the betting or normal one by name.
Like the fit's default, the plan gives the transfer estimate no weight (its
bias for the new generator is not bounded), so it needs no transfer fit: the
labels needed are those of labels and votes.

:func:`predicted_width` is the fast closed form that splits a budget between
generators in :func:`~regression.labels.suggest.suggest_labels` and chooses
between active and uniform draws. Both rest on the predictor ``q_i`` of
:mod:`regression.labels.predict` read as calibrated (``E[y_i | votes] = q_i``):
the prediction-powered residual of item ``i`` then has variance
``v_i = q_i (1 - q_i)`` (``lam = 1``), the labels alone
``q_i (1 - q_i) + (q_i - theta)^2``. A sample of ``n`` drawn with
probabilities ``pi_i`` has design variance ``sum_i (1 - pi_i) / pi_i v_i / N^2``
(Poisson sampling; Zrnic & Candes, 2024, for the active optimum
``pi_i ~ sqrt(v_i)``). The closed form's width is that of the Wilson interval
at the effective sample size ``theta (1 - theta) / V``, or the floored
interval's floor where that is wider (:func:`floor_width`: the share of items
a design's smallest chance can miss), so that the comparisons it is used for
(which generator is widest, active or uniform) count what the default
interval will show; the betting interval's widths are the simulation's.

One rule, :func:`drawn_design`, says whether an "active" draw of ``n`` labels
is drawn actively or uniformly (uniform where the closed form predicts active
choice no narrower): :func:`~regression.labels.suggest.suggest_labels` draws
by it and :func:`labels_needed` plans by it, so the plan's active figure is
what the suggested draw gives, and never more than the uniform figure where
the draw would be uniform.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from regression.checks import check_alpha
from regression.core.floor import design_floor, residual_range
from regression.core.sampling import design_probabilities, design_weights, systematic_sample
from regression.intervals import normal_quantile
from regression.labels.design import label_design
from regression.labels.interval import check_interval_method
from regression.labels.partial import estimate_generator, ppi_design_mean
from regression.labels.predict import predict_generator
from regression.registry import BOUNDED_INTERVAL_METHODS

__all__ = [
    "BETTING_PLAN_DRAWS",
    "PLAN_DRAWS",
    "drawn_design",
    "effective_size",
    "floor_width",
    "labels_needed",
    "plan_labels",
    "predicted_width",
    "simulated_width",
]

#: Simulated label draws behind each width :func:`simulated_width` predicts (normal interval).
PLAN_DRAWS = 40
#: The same for the betting interval: its width varies less from draw to draw than the
#: normal one's (it does not collapse), and each costs 5-50 ms (``n`` = 10 to 400).
BETTING_PLAN_DRAWS = 12


def _sizes(q: np.ndarray, pi: np.ndarray) -> tuple[float, float]:
    """:func:`effective_size` under the design ``pi``: with the judges, and of the labels alone."""
    big_n = q.size
    if np.all(pi >= 1):  # every item labelled (the active design caps every item: 0 / 0)
        return float(big_n), float(big_n)
    theta = float(q.mean())
    v_judges = q * (1 - q)
    v_labels = v_judges + (q - theta) ** 2
    pseudo = theta**2 + (1 - theta) ** 2
    c = design_weights(pi)
    c_min = float(c[pi < 1].min())
    a_0 = float((pi * c * v_labels).sum()) + c_min * pseudo
    a_lam = min(float((pi * c * v_judges).sum()) + c_min * pseudo, a_0)
    n_0 = min(big_n**2 / max(float((pi * c).sum()), 1e-12), float(big_n))
    return n_0 * a_0 / max(a_lam, 1e-15), n_0


def _designs(q: np.ndarray, n: np.ndarray | int, design: str) -> list[np.ndarray]:
    """The design's inclusion probabilities at each ``n`` (at least 1 label, at most every item)."""
    return [design_probabilities(q, int(max(min(m, q.size), 1)), design) for m in np.atleast_1d(n)]


def effective_size(
    q: np.ndarray, n: np.ndarray | int, design: str = "uniform", *, judges: bool = True
) -> np.ndarray:
    """Predicted effective sample size of :func:`~regression.labels.partial.ppi_design_mean` with ``n`` labels.

    ``n_0 * A_0 / A_lam`` as the estimator computes it, with the sums replaced
    by their expectations over the design: ``A = sum_i pi_i c_i v_i`` plus the
    two pseudo-labels' ``c_min (theta^2 + (1 - theta)^2)``, ``c_i = (1 - pi_i) / pi_i^2``,
    ``n_0 = N^2 / sum_i pi_i c_i``; ``v_i`` the judges' residual variance or
    the labels' own, whichever power tuning would choose (``judges=False``:
    the labels' own, ``lam = 0``). Vectorised in ``n``.
    """
    q = np.asarray(q, dtype=float)
    return np.array([_sizes(q, pi)[0 if judges else 1] for pi in _designs(q, n, design)])


def floor_width(
    q: np.ndarray,
    n: np.ndarray | int,
    design: str = "uniform",
    alpha: float = 0.05,
    *,
    judges: bool = True,
) -> np.ndarray:
    """The least width the floored interval keeps with ``n`` labels (:func:`~regression.core.floor.design_floor`).

    The unseen share at the design's smallest inclusion probability times
    the range of the residual over that share:
    :func:`~regression.core.floor.residual_range` for ``y - q`` (``lam = 1``,
    as :func:`effective_size` reads a calibrated predictor), 1 for the
    labels alone (``judges=False``, ``lam = 0``); the sum of the two sides'
    gaps. An active design halves the smallest chance (its defensive mixture
    keeps half the uniform one), so a sample of ``n`` active labels can miss
    twice the share a uniform one can: where judges are sure, the floor, not
    the variance, sets the width. Vectorised in ``n``.
    """
    q = np.asarray(q, dtype=float)
    return np.array([_floors(q, pi, alpha)[0 if judges else 1] for pi in _designs(q, n, design)])


def _floors(q: np.ndarray, pi: np.ndarray, alpha: float) -> tuple[float, float]:
    """The floor's width under design ``pi``: the judges' (``lam = 1``) and the labels' alone."""
    share = design_floor(pi, alpha)
    return share * residual_range(q, share), share


def predicted_width(
    q: np.ndarray,
    n: np.ndarray | int,
    design: str = "uniform",
    alpha: float = 0.05,
) -> np.ndarray:
    """Predicted width of the labels-and-votes interval with ``n`` labels.

    As the floored interval chooses its weight on the judges: the narrower of
    the judges' (Wilson's width at :func:`effective_size`, or the floor at
    the residual's range, :func:`floor_width`, where that is wider) and the
    labels' alone (the same at ``lam = 0``). Each design is drawn once per ``n``.
    """
    alpha = check_alpha(alpha)
    z = normal_quantile(alpha)
    q = np.asarray(q, dtype=float)
    theta = float(np.clip(q.mean(), 1e-3, 1 - 1e-3))

    def wilson(m: float) -> float:
        return float(2 * z * np.sqrt(theta * (1 - theta) / m + z**2 / (4 * m**2)) / (1 + z**2 / m))

    widths = []
    for pi in _designs(q, n, design):
        judged, alone = _sizes(q, pi)
        judged_floor, alone_floor = _floors(q, pi, alpha)
        widths.append(min(max(wilson(judged), judged_floor), max(wilson(alone), alone_floor)))
    return np.array(widths)


def drawn_design(q: np.ndarray, n: int) -> str:
    """How :func:`~regression.labels.suggest.suggest_labels` draws ``n`` labels: ``"active"`` or ``"uniform"``.

    Active where the closed form (:func:`predicted_width`) predicts a narrower
    interval than a uniform draw of as many labels; uniform otherwise (judges
    that cannot tell the uncertain items apart gain nothing from active choice,
    and its unequal weights cost width).

    Examples
    --------
    >>> drawn_design(np.full(500, 0.7), 50)  # judges that tell no item apart
    'uniform'
    """
    active = float(predicted_width(q, n, "active")[0])
    return "active" if active < float(predicted_width(q, n, "uniform")[0]) else "uniform"


def simulated_width(
    q: np.ndarray,
    n: int,
    design: str = "uniform",
    alpha: float = 0.05,
    *,
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    draws: int | None = None,
    seed: int = 0,
) -> float:
    """Mean width of the partial-label interval with ``n`` labels, by simulation from the predictor.

    Each draw takes every item's human label as ``Bernoulli(q_i)`` (the
    predictor read as calibrated), draws ``n`` items by the design (``"active"``:
    as :func:`drawn_design` says the suggested draw would be), and computes the
    interval itself, so its floors, pseudo-labels and bets are counted as they
    will be: :func:`~regression.labels.partial.ppi_design_mean` with
    ``interval_method`` (``"floored"``, the default; ``"betting"``, valid at
    any ``n``; ``"normal"``, the Wilson interval at the effective sample size),
    as the fit computes it. The transfer estimate gets no
    weight, as in the fit's default. ``draws`` defaults to
    :data:`BETTING_PLAN_DRAWS` or :data:`PLAN_DRAWS`. Seeded.

    Examples
    --------
    Judges sure of most items: at 50 labels the suggested draw is uniform (an
    active one halves the smallest chance, which doubles the floor), so the
    "active" figure is the uniform one, draw for draw.

    >>> q = np.random.default_rng(0).beta(0.3, 0.1, 1000)
    >>> drawn_design(q, 50), simulated_width(q, 50, "active") == simulated_width(q, 50)
    ('uniform', True)
    """
    alpha = check_alpha(alpha)
    interval_method = check_interval_method(interval_method)
    if draws is None:
        draws = BETTING_PLAN_DRAWS if interval_method == "betting" else PLAN_DRAWS
    q = np.asarray(q, dtype=float)
    big_n = q.size
    n = int(min(max(n, 2), big_n))
    rng = np.random.default_rng(seed)
    if design == "active":
        design = drawn_design(q, n)
    pi = design_probabilities(q, n, design)
    total = 0.0
    for draw in range(draws):
        y = (rng.random(big_n) < q).astype(float)
        if design == "uniform":
            pick = rng.choice(big_n, n, replace=False)
        else:
            pick = systematic_sample(pi, rng)
        estimate = ppi_design_mean(
            y[pick], q[pick], q, pi[pick], interval_method=interval_method, seed=draw
        )
        low, high = estimate.bounds(alpha)
        total += float(high - low)
    return total / draws


def labels_needed(
    q: np.ndarray,
    width: float,
    design: str = "uniform",
    alpha: float = 0.05,
    *,
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
) -> int:
    """The fewest labels whose :func:`simulated_width` is at most ``width`` (``N`` if none reaches it).

    Bisection over ``n`` with the same seed at every ``n`` (common random
    numbers). ``"active"`` plans the draw :func:`drawn_design` chooses at each
    ``n``; where that draw is uniform at the uniform figure, the active figure
    is never larger than it.
    """
    big_n = len(q)

    def needed(kind: str) -> int:
        def fits(m: int) -> bool:
            return simulated_width(q, m, kind, alpha, interval_method=interval_method) <= width

        if not fits(big_n):
            return big_n
        lo, hi = 1, big_n
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if fits(mid):
                hi = mid
            else:
                lo = mid
        return hi

    if design == "uniform":
        return needed("uniform")
    active = needed("active")
    uniform = needed("uniform")
    if active > uniform and drawn_design(q, uniform) == "uniform":
        return uniform
    return active


def plan_labels(
    judgments: pd.DataFrame,
    human_labels: pd.DataFrame | None,
    width: float,
    alpha: float = 0.05,
    generators: list[str] | None = None,
    *,
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
) -> pd.DataFrame:
    """Labels each generator needs for an interval at most ``width`` wide, uniform and active.

    Parameters
    ----------
    judgments, human_labels : DataFrame
        As for :func:`~regression.labels.suggest.suggest_labels`.
    width : float
        Target width of the ``1 - alpha`` interval (a fraction: 0.1 is 10 points).
    alpha : float
    generators : list of str, optional
        Default every generator that is not fully labelled.
    interval_method : {"floored", "betting", "normal"}
        The interval planned for (:data:`~regression.registry.BOUNDED_INTERVAL_METHODS`;
        the first, the engine's default, by default).

    Returns
    -------
    DataFrame
        Indexed by generator: ``role, n_items, n_labels`` (held now),
        ``width_now`` (the width of the interval its labels give now, as the
        fit shows it; NaN without labels), ``uniform`` and
        ``active`` (labels needed in all, drawn uniformly or by
        :func:`~regression.labels.suggest.suggest_labels`), ``more_uniform``,
        ``more_active`` (to buy; none where ``width_now`` is at most
        ``width``). The prediction reads the judges' predicted
        labels as calibrated (:mod:`regression.labels.plan`); like the fit's
        default, it gives the transfer estimate no weight (its bias is not
        bounded), so the labels needed are those of labels and votes alone.
    """
    alpha = check_alpha(alpha)
    interval_method = check_interval_method(interval_method)
    if not 0 < width < 1:
        raise ValueError(f"width must be in (0, 1); got {width!r}.")
    design = label_design(judgments, human_labels)
    chosen = (
        [g for g in design.roles.index if design.roles[g] != "calibration"]
        if generators is None
        else list(generators)
    )
    held = design.n_labels()
    rows = []
    for g in chosen:
        if g not in design.roles.index:
            raise ValueError(f"generator {g!r} has no judgments.")
        q = predict_generator(design, g)[0]
        n_now = int(held.get(g, 0))
        now = np.nan
        if n_now and design.roles[g] != "calibration":
            # the interval the fit shows now: labels and votes, the transfer given no weight
            low, high = estimate_generator(design, g, interval_method=interval_method).bounds(alpha)
            now = float(high - low)
        uniform = active = n_now  # narrow enough already: what is held is what it needs
        if not now <= width:  # not narrow enough yet, or no interval (NaN)
            uniform = labels_needed(q, width, "uniform", alpha, interval_method=interval_method)
            active = labels_needed(q, width, "active", alpha, interval_method=interval_method)
        rows.append(
            {
                "generator": g,
                "role": design.roles[g],
                "n_items": q.size,
                "n_labels": n_now,
                "width_now": now,
                "uniform": uniform,
                "active": active,
                "more_uniform": max(uniform - n_now, 0),
                "more_active": max(active - n_now, 0),
            }
        )
    columns = ["generator", "role", "n_items", "n_labels", "width_now", "uniform", "active"]
    columns += ["more_uniform", "more_active"]
    # every generator fully labelled: nothing to plan, an empty table with the same columns
    return pd.DataFrame(rows, columns=columns).set_index("generator")
