"""Which battles to send to human voters next: drawn at random, favouring those that narrow the win
rates (or decide the leaderboard's undecided pairs) most.

Both objectives are a weighted sum of the predicted design variances of the
win-rate estimator (:mod:`~regression.pairwise.win_rate`) under a new draw
among the unvoted battles, the votes held fixed (inclusion probability 1).
Its linearised error (the influence function of the prediction-powered mean,
PPI++, Angelopoulos, Duchi & Zrnic, 2023; the win_rate module docstring) is
``theta_g - truth_g ~ (1 / N_g) sum_{b in g} (I_b / pi_b - 1) e_gb``, with
``e_gb`` battle ``b``'s centred residual on ``g``'s side; a battle's scores
sum to 1, so its residual on its ``generator_b``'s side is minus that on its
``generator_a``'s. Battle ``b`` thus moves the win rates along
``u_b = e_b (1 / N_a at generator_a, -1 / N_b at generator_b, 0 elsewhere)``,
and a draw with inclusion probabilities ``pi`` (Poisson sampling) has
covariance ``C = sum_b (1 - pi_b) / pi_b v_b u_b u_b'``
(:func:`draw_covariance`), ``v_b`` the predicted variance of the residual
(:func:`~regression.pairwise.plan.battle_variance`).

* ``"win rates"``: ``sum_g C_gg``, so battle ``b`` weighs
  ``W_b = 1 / N_a^2 + 1 / N_b^2``.
* ``"undecided pairs"``: ``sum_{g < h} omega_gh Var(theta_g - theta_h)``, the
  pairs weighted by :func:`pair_weights`. With ``L`` the Laplacian of
  ``omega`` (``L = diag(omega 1) - omega``), ``Var(theta_g - theta_h)``
  summed so is ``sum_b (1 - pi_b) / pi_b v_b u_b' L u_b``: battle ``b``
  weighs ``W_b = D_a / N_a^2 + D_b / N_b^2 + 2 omega_ab / (N_a N_b)``,
  ``D = omega 1`` (:func:`battle_weights`). A battle between ``g`` and ``h``
  moves their difference by ``1 / N_g + 1 / N_h``, one of ``g``'s against
  another generator by ``1 / N_g`` only.

Either way the objective is ``sum_b (1 - pi_b) / pi_b v_b W_b``, minimised
for a draw of ``n`` by ``pi_b`` proportional to ``sqrt(v_b W_b)`` (the
Neyman-type rule of Zrnic & Candes, 2024, Active Statistical Inference),
with a floor and by systematic pi-ps sampling, or uniform where that is
predicted no worse (:func:`~regression.pairwise.plan.vote_probabilities`).

Votes held count only for their own battles. Where the votes so far are one
uniform draw (:func:`~regression.pairwise.plan.uniform_votes`) and every unvoted
battle weighs in the objective, a uniform draw of ``n`` among the unvoted
battles joins them as one uniform draw of all ``N`` battles, none held
(``p = (n_voted + n) / N`` each). The draw is that one where the generators'
predicted win-rate widths, the floor counted (:func:`floored_widths`), are no
larger in sum of squares than under the held draw: a held vote stands only for
itself, so a draw around held votes can miss a larger share of the others,
which the variance alone does not see (docs/pairwise.md: after a uniform pilot
the joined draw gives rank sets 0.75-0.96x a held uniform batch's).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from regression.checks import PROBABILITY_COLUMN, check_alpha, check_budget
from regression.core.floor import design_floor, residual_range
from regression.core.sampling import BudgetWarning, design_variance, systematic_sample
from regression.errors import JurycalWarning
from regression.intervals import normal_quantile
from regression.pairwise.design import battle_sides
from regression.pairwise.plan import (
    battle_predictions,
    battle_variance,
    chosen_generators,
    uniform_votes,
    vote_probabilities,
)
from regression.pairwise.result import FewVotesWarning, PairwiseWinRates
from regression.pairwise.table import PairwiseTable, check_pairwise
from regression.pairwise.win_rate import win_rates
from regression.ranking.family import N_DRAWS, PairFamily, check_joint
from regression.registry import PAIRWISE_OBJECTIVES as OBJECTIVES

__all__ = [
    "OBJECTIVES",
    "SUGGESTED_COLUMNS",
    "DrawDesign",
    "ObjectiveWarning",
    "battle_weights",
    "draw_covariance",
    "draw_design",
    "floored_widths",
    "pair_weights",
    "suggest_labels",
]

#: The columns of :func:`suggest_labels`' table.
SUGGESTED_COLUMNS = ("item", "generator_a", "generator_b", PROBABILITY_COLUMN)
#: What :func:`suggest_labels` can minimise (the module docstring); the first is the default.


class ObjectiveWarning(JurycalWarning):
    """The undecided pairs cannot be aimed at yet (no pilot rank sets): the draw narrows the win rates."""


def draw_covariance(table: PairwiseTable, variance: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """``(G, G)``: the predicted covariance of the win rates' errors from a draw with inclusion
    probabilities ``pi`` and residual variances ``variance`` per battle (the module docstring's
    ``C``; battles with ``pi`` 1, e.g. those voted, add nothing).

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> table = check_pairwise(pairwise_world(3, 30, 0, seed=0).verdicts)
    >>> c = draw_covariance(table, np.full(30, 0.25), np.full(30, 0.5))
    >>> c.shape, bool(np.allclose(c, c.T) and (np.diag(c) > 0).all())
    ((3, 3), True)
    """
    g = len(table.generators)
    played = _played(table)
    a, b = table.battle_a, table.battle_b
    c = (1.0 - pi) / pi * variance  # design_variance's terms, by generator below
    covariance = np.zeros((g, g))
    np.add.at(covariance, (a, a), c / played[a] ** 2)
    np.add.at(covariance, (b, b), c / played[b] ** 2)
    np.add.at(covariance, (a, b), -c / (played[a] * played[b]))
    np.add.at(covariance, (b, a), -c / (played[a] * played[b]))
    return covariance


def pair_weights(fit: PairwiseWinRates, alpha: float = 0.05, *, seed: int = 0) -> np.ndarray:
    """``(G, G)``, symmetric, zero diagonal: each pair's weight ``omega`` in the undecided-pairs objective.

    The weight is the first-order gain in the expected number of pairs the
    step-down rank sets (:func:`~regression.ranking.rank_sets`, level
    ``1 - alpha``) decide, per unit of variance taken off the pair's
    difference. Pair ``(g, h)`` has the pilot statistic
    ``t = (theta_g - theta_h) / sd`` (``sd^2 = V`` the pilot's variance of the
    difference) and is decided ``g`` above ``h`` when ``t > c_up``, below when
    ``-t > c_down``. If its true standardised distance ``tau`` stays and the
    variance falls to ``V'``, the chance of deciding it above is about
    ``Phi(tau sqrt(V / V') - c_up)``, whose derivative in ``V'`` at ``V`` is
    ``-phi(tau - c_up) tau / (2 V)``. Averaging ``tau ~ N(t, 1)`` (the pilot's
    own error) and adding the other direction,

    ``omega = [phi_2(t - c_up) (t + c_up) + phi_2(t + c_down) (c_down - t)] / (4 V)``,

    ``phi_2`` the normal density of variance 2. So the pairs near the decision
    boundary weigh most, those decided far beyond it or estimated level and
    sure to stay undecided little. The critical values ``c`` are those of the
    step-down's last step for the pairs it leaves undecided (the bar they must
    clear), and the first step's, the simultaneous intervals', for those it
    decides (the bar that keeps them decided whatever the other pairs do).

    Raises
    ------
    InputError
        A generator without a finite estimate (fewer than three votes).

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(4, 400, 120, seed=0)
    >>> omega = pair_weights(win_rates(check_pairwise(world.verdicts, world.human)))
    >>> omega.shape, bool(np.allclose(omega, omega.T) and (omega >= 0).all())
    ((4, 4), True)
    """
    alpha = check_alpha(alpha)
    g = len(fit.estimate)
    a, b = np.triu_indices(g, k=1)
    joint = fit.joint_error()
    check_joint(joint)
    family = PairFamily(joint, a, b, N_DRAWS, seed)
    decided, first = family.step_down(alpha)
    p = len(a)
    undecided = ~decided[:p] & ~decided[p:]
    last = family.balanced_critical(alpha, ~decided)
    critical = np.where(np.concatenate([undecided, undecided]), last, first)
    t, variance = family.observed[:p], family.sd[:p] ** 2
    up, down = critical[:p], critical[p:]
    gain = (_density_2(t - up) * (t + up) + _density_2(t + down) * (down - t)) / (4 * variance)
    omega = np.zeros((g, g))
    omega[a, b] = omega[b, a] = np.clip(gain, 0.0, None)
    return omega


def battle_weights(table: PairwiseTable, omega: np.ndarray) -> np.ndarray:
    """Per battle: ``W_b = u_b' L u_b / e_b^2``, its weight in the pairs' objective with weights
    ``omega`` (the module docstring), so that ``sum_b (1 - pi_b) / pi_b v_b W_b`` is
    ``sum_{g < h} omega_gh Var(theta_g - theta_h)`` under :func:`draw_covariance`.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> table = check_pairwise(pairwise_world(3, 30, 0, seed=0).verdicts)
    >>> only = np.zeros((3, 3)); only[0, 1] = only[1, 0] = 1.0  # one pair: (1/N_a + 1/N_b)^2
    >>> w = battle_weights(table, only)
    >>> played = np.bincount(np.r_[table.battle_a, table.battle_b])
    >>> between = (table.battle_a + table.battle_b == 1)
    >>> bool(np.allclose(w[between], (1 / played[0] + 1 / played[1]) ** 2))
    True
    """
    played = _played(table)
    a, b = table.battle_a, table.battle_b
    degree = omega.sum(axis=1)
    return (
        degree[a] / played[a] ** 2
        + degree[b] / played[b] ** 2
        + 2.0 * omega[a, b] / (played[a] * played[b])
    )


def suggest_labels(
    verdicts: pd.DataFrame,
    human: pd.DataFrame | None,
    budget: int,
    *,
    generators: list[str] | None = None,
    objective: str = "win rates",
    alpha: float = 0.05,
    seed: int = 0,
) -> pd.DataFrame:
    """The battles to send to human voters next: ``item, generator_a, generator_b, inclusion_probability``.

    The draw minimises the predicted variance the ``objective`` names (the
    module docstring says how a battle enters it):

    * ``"win rates"`` (default): the sum over ``generators`` of the variances
      of their win rates.
    * ``"undecided pairs"``: the differences ``w_g - w_h`` of the pairs the
      pilot fit's step-down rank sets (level ``1 - alpha``) leave undecided
      or nearly so, each pair weighted by :func:`pair_weights` (the gain in
      pairs decided per unit of variance). It needs the pilot votes held (at
      least three per generator); without them the draw narrows the win
      rates, with an :class:`ObjectiveWarning`.

    The win rates are the default because they serve the leaderboard as well:
    in simulated arenas (``benchmarks/bench_pairwise_suggest.py``) the two
    objectives give the same mean rank-set size within the Monte Carlo error,
    both 7-12 % smaller than a uniform batch. A vote narrows every pair of its
    battle's two generators, so weighting the pairs moves votes between
    generators more than between pairs, and the draws are much alike (their
    probabilities correlate at 0.95 on average); the win rates need no pilot rank
    sets, and :func:`~regression.pairwise.plan_labels` plans by them.

    Battle ``b`` then has ``pi_b`` proportional to ``sqrt(v_b W_b)`` with a
    floor so every battle has ``pi_b > 0``, by systematic pi-ps sampling
    (exactly ``budget`` battles), or uniform where that is predicted no worse
    (:func:`~regression.pairwise.plan.vote_probabilities`): ``v_b`` the
    predicted variance of its prediction-powered residual from the
    cross-fitted judges (:func:`~regression.pairwise.plan.battle_variance`),
    ``W_b`` its weight in the objective. The table's ``attrs["objective"]``
    says which objective the draw minimised.

    Where the earlier votes are one uniform draw and the draw joins them
    (module docstring; ``attrs["one_draw"]`` True), every row's
    ``inclusion_probability`` is that of the joined draw, ``(n_voted + budget) /
    N``: pass the new votes with the earlier ones as one uniform draw, every
    vote with that probability, or none with the column. Otherwise
    vote the rows and pass them back, ``inclusion_probability`` and all, with
    the earlier votes given ``inclusion_probability`` 1: the probabilities are
    those of this draw among the unvoted battles, so the estimate holds the
    earlier votes fixed and is design-unbiased given them for every generator
    whose battles the draw can reach: all of them with ``generators=None``,
    under either objective. ``generators=[...]`` gives the battles that do not
    weigh in the objective probability 0, so a generator whose battles such a
    draw does not reach gets no estimate, with its reason
    (:class:`~regression.pairwise.design.DesignReach`). (A large earlier
    sample counts only for its own battles: buy a batch at least as large as
    the votes held.)

    Parameters
    ----------
    verdicts, human : DataFrame
        As for :func:`~regression.pairwise.check_pairwise`; ``human`` the votes held (or None).
    budget : int
        Votes to buy: the table has exactly this many rows, or every candidate
        battle with a :class:`~regression.core.sampling.BudgetWarning`
        when there are fewer.
    generators : list of str, optional
        Whose win rates to narrow, or whose pairs with any generator to
        decide; default every generator. A battle is a candidate when it
        weighs in the objective: for the win rates, when one of its generators
        is here; for the pairs, also when it narrows the other side of a pair.
    objective : {"win rates", "undecided pairs"}
    alpha : float
        The level of the rank sets whose undecided pairs are aimed at.
    seed : int
        Seeds the cross-fitted predictor's folds, the rank sets' draws and the draw.

    Returns
    -------
    DataFrame
        :data:`SUGGESTED_COLUMNS`, the pair oriented as the battle's first verdict row; never a
        battle already voted.

    Raises
    ------
    ValueError
        A budget that is not a positive integer, an unknown objective or generator, a bad
        ``alpha``, bad tables.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(6, 600, 60, seed=0)
    >>> picks = suggest_labels(world.verdicts, world.human, 100, seed=1)
    >>> len(picks), list(picks.columns), picks.attrs["objective"]
    (100, ['item', 'generator_a', 'generator_b', 'inclusion_probability'], 'win rates')
    """
    table = check_pairwise(verdicts, human)
    design = draw_design(
        table, budget, generators=generators, objective=objective, alpha=alpha, seed=seed
    )
    if design.candidates.size < budget:
        warnings.warn(
            f"budget {budget:,} is more than the {design.candidates.size:,} unvoted battles of the "
            "generators asked for: suggesting every one of them.",
            BudgetWarning,
            stacklevel=2,
        )
    picks = systematic_sample(design.pi, np.random.default_rng(seed))
    rows = table.battles.iloc[design.candidates[picks]].reset_index(drop=True)
    probability = design.pi[picks] if design.one_draw is None else design.one_draw
    picked = rows.assign(**{PROBABILITY_COLUMN: probability})
    picked.attrs["objective"] = design.objective
    picked.attrs["one_draw"] = design.one_draw is not None
    return picked


@dataclass(frozen=True, eq=False)
class DrawDesign:
    """The draw :func:`suggest_labels` makes, before drawing.

    Attributes
    ----------
    candidates : ndarray of int
        The unvoted battles that weigh in the objective (positions in ``table.battles``).
    pi : ndarray
        Per candidate: its inclusion probability (they sum to the budget, or to every candidate).
    variance, weight : ndarray
        Per candidate: ``v_b`` (:func:`~regression.pairwise.plan.battle_variance`) and
        ``W_b``, its weight in the objective.
    objective : str
        The objective minimised (``"win rates"`` where the undecided pairs fell back to it).
    one_draw : float or None
        Where the draw joins the earlier votes as one uniform draw: the inclusion
        probability of every vote, old and new; None where they are held.
    one_draw_objective : float
        The objective's predicted value under that joined draw (NaN where there is none).
    """

    candidates: np.ndarray
    pi: np.ndarray
    variance: np.ndarray
    weight: np.ndarray
    objective: str
    one_draw: float | None = None
    one_draw_objective: float = float("nan")

    def predicted(self) -> float:
        """The objective's predicted value under this draw: ``sum (1 - pi) / pi v W`` over the
        candidates with the earlier votes held, or the joined draw's."""
        if self.one_draw is not None:
            return self.one_draw_objective
        return design_variance(self.variance * self.weight, self.pi)


def draw_design(
    table: PairwiseTable,
    budget: int,
    *,
    generators: list[str] | None = None,
    objective: str = "win rates",
    alpha: float = 0.05,
    seed: int = 0,
) -> DrawDesign:
    """The inclusion probabilities of :func:`suggest_labels`' draw on a checked table (its
    parameters); the candidates are every unvoted battle that weighs in the objective.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(4, 400, 120, seed=0)
    >>> table = check_pairwise(world.verdicts, world.human)
    >>> design = draw_design(table, 50, objective="undecided pairs")
    >>> round(float(design.pi.sum()), 6), design.objective, bool(design.predicted() > 0)
    (50.0, 'undecided pairs', True)
    """
    budget = check_budget(budget)
    if objective not in OBJECTIVES:
        raise ValueError(
            f"objective ({objective!r}) not recognized; must be one of "
            f"{', '.join(map(repr, OBJECTIVES))}."
        )
    alpha = check_alpha(alpha)
    chosen = np.zeros(len(table.generators), dtype=bool)
    chosen[slice(None) if generators is None else chosen_generators(table, generators)] = True
    omega = _pilot_weights(table, alpha, seed) if objective == "undecided pairs" else None
    if omega is None:
        objective = "win rates"
        share = np.where(chosen, 1.0 / _played(table) ** 2, 0.0)
        weight = share[table.battle_a] + share[table.battle_b]
    else:
        weight = battle_weights(table, omega * (chosen[:, None] | chosen[None, :]))
    unvoted = np.isnan(table.human)
    candidates = np.flatnonzero(unvoted & (weight > 0))
    q = battle_predictions(table, seed=seed)
    every_variance = battle_variance(table, predictions=q)
    variance = every_variance[candidates]
    pi = np.ones(0)
    n = min(budget, candidates.size)
    if candidates.size:
        pi, _ = vote_probabilities(variance * weight[candidates], n)
    design = DrawDesign(candidates, pi, variance, weight[candidates], objective)
    if candidates.size < unvoted.sum() or not uniform_votes(table):
        return design  # held: the votes are not one uniform draw, or the draw is aimed at some
    p = (table.n_battles - candidates.size + n) / table.n_battles
    held = np.ones(table.n_battles)
    held[candidates] = pi
    joined = np.full(table.n_battles, p)
    widths = [
        floored_widths(table, every_variance, q, probability, alpha)[chosen]
        for probability in (held, joined)
    ]
    if np.sum(widths[1] ** 2) > np.sum(widths[0] ** 2):
        return design
    return replace(
        design, pi=np.full(candidates.size, n / candidates.size), one_draw=p,
        one_draw_objective=design_variance(every_variance * weight, joined),
    )  # fmt: skip


def floored_widths(
    table: PairwiseTable,
    variance: np.ndarray,
    predictions: np.ndarray,
    probability: np.ndarray,
    alpha: float = 0.05,
) -> np.ndarray:
    """Per generator: its win rate's predicted width under a draw, the floor counted.

    The larger of the normal part, ``2 z sqrt(V_g)`` with ``V_g = sum_{b in g} (1 - pi_b) /
    pi_b v_b / N_g^2``, and the floor: the share of ``g``'s battles drawn by chance that the
    draw can miss (:func:`~regression.core.floor.design_floor`), as a share of all ``N_g``,
    times the residual's range over that share
    (:func:`~regression.core.floor.residual_range` of the judges' predictions). A battle held
    (``pi_b = 1``) adds neither: it stands only for itself, so a draw around held votes can
    miss a larger share of the others than one uniform draw of them all. What
    :func:`draw_design` compares a held draw and a joined one by.

    Examples
    --------
    >>> from regression.pairwise.simulate import pairwise_world
    >>> world = pairwise_world(4, 400, 40, seed=0)
    >>> table = check_pairwise(world.verdicts, world.human)
    >>> v, q = np.full(400, 0.05), np.full(400, 0.5)
    >>> held = np.where(np.isnan(table.human), 40 / 360, 1.0)  # 40 more, the 40 voted held
    >>> joined = np.full(400, 80 / 400)  # the same 80 votes as one uniform draw
    >>> bool((floored_widths(table, v, q, joined) < floored_widths(table, v, q, held)).all())
    True
    """
    z = normal_quantile(alpha)
    n_gen = len(table.generators)
    battle, generator, _ = battle_sides(table)
    order = np.argsort(generator, kind="stable")
    # each generator's battles, in one sort rather than a scan of every battle per generator
    starts = np.searchsorted(generator[order], np.arange(n_gen + 1))
    widths = np.zeros(n_gen)
    for g in range(n_gen):
        mine = battle[order[starts[g] : starts[g + 1]]]
        pi, total = probability[mine], mine.size
        normal = 2.0 * z * np.sqrt(design_variance(variance[mine], pi)) / total
        by_chance = pi < 1.0
        share = design_floor(pi, alpha)
        reach = share * by_chance.sum() / total
        widths[g] = max(normal, reach * residual_range(predictions[mine][by_chance], share))
    return widths


def _pilot_weights(table: PairwiseTable, alpha: float, seed: int) -> np.ndarray | None:
    """:func:`pair_weights` from the votes held, read as a uniform sample, or None (with an
    :class:`ObjectiveWarning`) when some generator has no pilot interval or no pair weighs.

    Uniform, whatever their probabilities: earlier votes passed back with probability 1 carry no
    design variance, and the pilot must say how uncertain the leaderboard is now.
    """
    voted = table.human_row >= 0
    pilot = replace(
        table,
        inclusion_probability=np.where(voted, table.n_labels / table.n_battles, np.nan),
        weighted=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FewVotesWarning)  # named below, as the reason to fall back
        fit = win_rates(pilot, seed=seed)
    missing = list(fit.estimate.index[fit.estimate.isna()])
    if table.n_labels == 0:
        reason = "there are no human votes yet"
    elif missing:
        reason = (
            f"{len(missing)} generator(s) have fewer than three human votes (first {missing[0]!r})"
        )
    else:
        omega = pair_weights(fit, alpha, seed=seed)
        if omega.max() > 0:
            return omega
        reason = "every pair is decided far beyond its critical value"
    warnings.warn(
        f"{reason}, so there are no pilot rank sets to aim at: the draw narrows the win rates "
        "instead (objective 'win rates').",
        ObjectiveWarning,
        stacklevel=4,  # past draw_design and suggest_labels: the caller's line
    )
    return None


def _played(table: PairwiseTable) -> np.ndarray:
    """Per generator: its battles (at least 1)."""
    return np.maximum(table.battles_per_generator().to_numpy(), 1).astype(float)


def _density_2(x: np.ndarray) -> np.ndarray:
    """The normal density of variance 2 at ``x``."""
    return np.exp(-(x**2) / 4.0) / (2.0 * np.sqrt(np.pi))
