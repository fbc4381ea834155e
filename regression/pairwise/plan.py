"""How many human votes a win-rate interval of a given width needs, drawn uniformly or actively.

The prediction rests on the judges' cross-fitted prediction ``q_b`` of each
battle's human score (:func:`~regression.pairwise.predict.cross_fit`): the
prediction-powered residual of battle ``b`` is given the variance
``v_b = k q_b (1 - q_b)``, the variance of a score with mean ``q_b`` scaled by
``k``, the ratio of the squared cross-fitted residuals ``(s_b - q_b)^2`` to
``q_b (1 - q_b)`` over the voted battles (ties make a score vary less than a
win or a loss; ``k = 1`` with fewer than :data:`CALIBRATION_VOTES` votes).
For one generator the human votes alone are used instead where the judges are
predicted to help less (the variance of its voted scores is lower): the
power tuning would choose them.

The battles voted so far are kept as they are: a new draw is made among the
unvoted battles, and the held votes are passed back with inclusion
probability 1 (given the held votes, their battles' scores are known and the
new draw is the only randomness, so the estimate is exactly design-unbiased).
Where the votes so far are one uniform draw (:func:`uniform_votes`), a uniform
draw among the others joins them as one uniform draw of them all, none held:
the ``uniform`` plan is then that pooled draw's, ``m`` new votes giving a
uniform sample of ``n + m`` of the generator's ``N_g`` battles, variance
``sum_{every b in g} (1 - p) / p v_b / N_g^2`` with ``p = (n + m) / N_g``
(docs/pairwise.md: a held pilot counts only for its own battles, and the
pooled draw's rank sets are 0.75-0.96x the held uniform batch's).
Generator ``g``'s win rate, over its ``N_g`` battles, then has design
variance ``sum_{unvoted b in g} (1 - pi_b) / pi_b v_b / N_g^2`` for a draw
with inclusion probabilities ``pi_b`` (Poisson sampling; the optimum
``pi_b ~ sqrt(v_b)`` is that of Zrnic & Candes, 2024, Active Statistical
Inference), plus the two pseudo-votes of :mod:`regression.pairwise.win_rate`.
The width is that of the default interval's normal part, ``2 t sqrt(V)`` with ``t``
Student's quantile on ``m - 1`` degrees of freedom for ``m`` new votes (the graded rule of
:func:`~regression.core.sides.student_half_widths`; votes with ties are graded). Its floor is
not planned: at the votes a plan asks for it seldom binds (docs/pairwise.md measures the
planned against the realised widths).

One rule, :func:`vote_probabilities`, says how a draw of ``n`` votes is made:
active (``pi_b`` proportional to ``sqrt(v_b w_b)`` with a floor, ``w_b`` the
weight of the battle's generators in the objective) where that is predicted
narrower than a uniform draw, uniform otherwise.
:func:`~regression.pairwise.suggest.suggest_labels` draws by it and
:func:`plan_labels` plans by it.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from regression.checks import check_alpha
from regression.core.sampling import active_probabilities, design_variance
from regression.intervals import student_quantile
from regression.pairwise.predict import cross_fit, judge_features
from regression.pairwise.result import FewVotesWarning
from regression.pairwise.table import PairwiseTable, check_pairwise
from regression.pairwise.win_rate import win_rates

__all__ = [
    "CALIBRATION_VOTES",
    "battle_predictions",
    "battle_variance",
    "chosen_generators",
    "plan_labels",
    "uniform_votes",
    "vote_probabilities",
]

#: Votes below which the predicted variances are not rescaled to the observed residuals.
CALIBRATION_VOTES = 20


def battle_predictions(table: PairwiseTable, *, seed: int = 0) -> np.ndarray:
    """Per battle: the judges' cross-fitted prediction ``q_b`` of its human score, in [0.02, 0.98].

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(6, 300, 60, seed=0)
    >>> q = battle_predictions(check_pairwise(world.verdicts, world.human))
    >>> q.shape, bool(q.min() >= 0.02 and q.max() <= 0.98)
    ((300,), True)
    """
    return np.clip(cross_fit(judge_features(table), table.human, seed=seed), 0.02, 0.98)


def battle_variance(
    table: PairwiseTable, *, seed: int = 0, predictions: np.ndarray | None = None
) -> np.ndarray:
    """Per battle: the predicted variance ``v_b = k q_b (1 - q_b)`` of its prediction-powered residual.

    ``predictions``: the ``q_b`` of :func:`battle_predictions`, where the caller has them
    (else they are cross-fitted here, with ``seed``).

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(6, 300, 60, seed=0)
    >>> v = battle_variance(check_pairwise(world.verdicts, world.human))
    >>> v.shape, bool((v > 0).all() and (v <= 0.25).all())
    ((300,), True)
    """
    q = battle_predictions(table, seed=seed) if predictions is None else predictions
    spread = q * (1.0 - q)
    voted = ~np.isnan(table.human)
    k = 1.0
    if voted.sum() >= CALIBRATION_VOTES:
        k = float(np.mean((table.human[voted] - q[voted]) ** 2) / np.mean(spread[voted]))
    return np.minimum(k * spread, 0.25)


def uniform_votes(table: PairwiseTable) -> bool:
    """Whether the votes so far are one uniform draw of the battles, so new ones drawn uniformly
    among the others can join them as one draw, none held.

    True where some battles but not all are voted and every vote has one inclusion
    probability below 1: votes passed with no ``inclusion_probability`` column (a uniform
    draw, as the table reads them), or with the one probability of an earlier pooled draw.
    Votes held at probability 1, or drawn with unequal probabilities, are not.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(4, 400, 80, seed=0)
    >>> uniform_votes(check_pairwise(world.verdicts, world.human))
    True
    >>> held = world.human.assign(inclusion_probability=1.0)
    >>> uniform_votes(check_pairwise(world.verdicts, held))
    False
    """
    voted = ~np.isnan(table.human)
    if not voted.any() or voted.all():
        return False
    pi = table.inclusion_probability[voted]
    return bool(np.ptp(pi) == 0 and pi[0] < 1)  # exact: one probability given to every vote


def vote_probabilities(v: np.ndarray, n: int) -> tuple[np.ndarray, str]:
    """Inclusion probabilities of a draw of ``n`` of the battles whose weighted variances are ``v``.

    Active, ``pi_b`` proportional to ``sqrt(v_b)`` plus a floor (the floor and
    the cap at 1 of :func:`~regression.core.sampling.active_probabilities`),
    where :func:`~regression.core.sampling.design_variance` is lower than that of a uniform draw of as
    many; uniform, ``n / len(v)``, otherwise.

    Returns
    -------
    (ndarray, str)
        The probabilities (summing to ``n``) and ``"active"`` or ``"uniform"``.

    Examples
    --------
    >>> pi, design = vote_probabilities(np.array([0.25, 0.25, 0.01, 0.01]), 2)
    >>> design, bool(pi[0] > pi[2])
    ('active', True)
    >>> vote_probabilities(np.full(4, 0.2), 2)[1]  # battles alike: nothing to gain
    'uniform'
    """
    n = min(int(n), v.size)
    uniform = np.full(v.size, n / v.size)
    size = np.sqrt(np.clip(v, 0.0, None))
    if n >= v.size or not size.max() > 0:
        return uniform, "uniform"
    # active_probabilities sizes by sqrt(q(1 - q)); give it the q whose sqrt(q(1 - q)) is the size
    share = size / (2.0 * size.max())
    active = active_probabilities((1.0 - np.sqrt(1.0 - 4.0 * share**2)) / 2.0, n)
    if design_variance(v, active) < design_variance(v, uniform) * (1 - 1e-9):
        return active, "active"
    return uniform, "uniform"


def _predicted_width(
    v: np.ndarray,
    n_held: int,
    n_battles: int,
    m: int,
    alpha: float,
    design: str,
    v_held: np.ndarray | None = None,
) -> float:
    """One generator's width with ``m`` more votes among its unvoted battles (variances ``v``),
    drawn ``"uniform"``ly or as :func:`vote_probabilities` draws them (``"drawn"``), the votes
    so far held; or ``"pooled"``: drawn uniformly and joined with the votes so far (variances
    ``v_held``) as one uniform draw."""
    if m >= v.size:
        return 0.0
    if m == 0:
        return float("inf")
    n = n_held + m
    p = n / n_battles  # the mean inclusion probability behind the two pseudo-votes
    pseudo = 0.5 * (1.0 - p) / p**2
    bessel = n / (n - 2.0) if n > 2 else float("inf")
    if design == "pooled":
        every = np.concatenate([v_held if v_held is not None else np.zeros(0), v])
        spread, drawn = design_variance(every, np.full(every.size, p)), n
    else:
        pi = np.full(v.size, m / v.size) if design == "uniform" else vote_probabilities(v, m)[0]
        spread, drawn = design_variance(v, pi), m  # held votes are known: only the m are drawn
    variance = (bessel * spread + pseudo) / n_battles**2
    # the default interval's normal part: Student's t on the votes drawn
    return 2.0 * student_quantile(max(drawn - 1, 1), alpha) * float(np.sqrt(variance))


def _votes_needed(
    v: np.ndarray,
    n_held: int,
    n_battles: int,
    width: float,
    alpha: float,
    design: str,
    v_held: np.ndarray | None = None,
) -> int:
    """The fewest more votes (bisection) whose predicted width is at most ``width``."""

    def fits(m: int) -> bool:
        return _predicted_width(v, n_held, n_battles, m, alpha, design, v_held) <= width

    lo, hi = 0, v.size
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(mid):
            hi = mid
        else:
            lo = mid
    return hi


def plan_labels(
    verdicts: pd.DataFrame,
    human: pd.DataFrame | None,
    width: float,
    alpha: float = 0.05,
    generators: list[str] | None = None,
    *,
    seed: int = 0,
) -> pd.DataFrame:
    """Human votes each generator needs for a win-rate interval at most ``width`` wide.

    Parameters
    ----------
    verdicts, human : DataFrame
        As for :func:`~regression.pairwise.check_pairwise`.
    width : float
        Target width of the ``1 - alpha`` interval (a fraction: 0.1 is 10 points).
    alpha : float
    generators : list of str, optional
        Default every generator with an unvoted battle.
    seed : int
        Seeds the folds of the cross-fitted predictor.

    Returns
    -------
    DataFrame
        Indexed by generator: ``n_battles``, ``n_labels`` (its battles voted
        now), ``width_now`` (the width of its default interval now; NaN with fewer than three votes),
        ``uniform`` and ``active`` (votes on its battles needed in all, the new
        ones drawn uniformly among its unvoted battles, or by
        :func:`~regression.pairwise.suggest.suggest_labels` with
        ``generators=[g], objective="win rates"``), ``more_uniform`` and ``more_active`` (to buy).
        Predicted as the module docstring says, for each generator alone: where the
        votes so far are one uniform draw (:func:`uniform_votes`), ``uniform`` plans the
        new votes joined with them as one draw, and ``active`` is never more;
        ``attrs["one_draw"]`` says which.

    Raises
    ------
    ValueError
        A width outside (0, 1), a bad ``alpha``, an unknown generator, bad tables.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(4, 400, 80, seed=0)
    >>> plan = plan_labels(world.verdicts, world.human, 0.2)
    >>> list(plan.columns)
    ['n_battles', 'n_labels', 'width_now', 'uniform', 'active', 'more_uniform', 'more_active']
    >>> bool((plan["active"] <= plan["n_battles"]).all())
    True
    """
    alpha = check_alpha(alpha)
    if not 0 < width < 1:
        raise ValueError(f"width must be in (0, 1); got {width!r}.")
    table = check_pairwise(verdicts, human)
    codes = chosen_generators(table, generators)
    v = battle_variance(table, seed=seed)
    voted = ~np.isnan(table.human)
    now = pd.Series(np.nan, index=table.generators)
    if voted.any():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FewVotesWarning)  # a plan is for those with few votes
            # the default interval's width: the one the fit shows
            fit = win_rates(table, seed=seed).interval(alpha)
        now = fit["high"] - fit["low"]
    pooled = uniform_votes(table)
    rows = []
    for g in codes:
        mine = (table.battle_a == g) | (table.battle_b == g)
        n_battles, n_held = int(mine.sum()), int((mine & voted).sum())
        free, held = v[mine & ~voted], v[mine & voted]
        scores = 0.5 + np.where(table.battle_a == g, 1.0, -1.0)[mine & voted] * (
            table.human[mine & voted] - 0.5
        )
        if n_held >= 3 and free.size and np.var(scores, ddof=1) < free.mean():
            # the votes alone do better
            free, held = (np.full(x.size, np.var(scores, ddof=1)) for x in (free, held))
        uniform = active = 0
        if not now.iloc[g] <= width:  # not narrow enough yet, or no interval (NaN)
            how = "pooled" if pooled else "uniform"
            uniform = _votes_needed(free, n_held, n_battles, width, alpha, how, held)
            # the drawn design is never predicted wider than a uniform one; the min guards the
            # bisection where the predicted width is not monotone in the votes
            active = min(_votes_needed(free, n_held, n_battles, width, alpha, "drawn"), uniform)
        rows.append({
            "generator": table.generators[g], "n_battles": n_battles, "n_labels": n_held,
            "width_now": float(now.iloc[g]), "uniform": n_held + uniform,
            "active": n_held + active, "more_uniform": uniform, "more_active": active,
        })  # fmt: skip
    columns = ["generator", "n_battles", "n_labels", "width_now", "uniform", "active"]
    columns += ["more_uniform", "more_active"]
    plan = pd.DataFrame(rows, columns=columns).set_index("generator")
    plan.attrs["one_draw"] = pooled
    return plan


def chosen_generators(table: PairwiseTable, generators: list[str] | None) -> list[int]:
    """The codes of ``generators`` (default: every generator with an unvoted battle).

    Raises
    ------
    ValueError
        A generator with no battle in the verdicts.
    """
    if generators is None:
        unvoted = np.isnan(table.human)
        played = np.union1d(table.battle_a[unvoted], table.battle_b[unvoted])
        return [int(g) for g in played]
    codes = table.generators.get_indexer(list(generators))
    if (codes < 0).any():
        unknown = list(generators)[int(np.flatnonzero(codes < 0)[0])]
        raise ValueError(f"generator {unknown!r} has no battle in the verdicts.")
    return [int(g) for g in codes]
