"""Bradley-Terry strengths with ties (Davidson's model), anchored on the human votes by
prediction-powered M-estimation, with one joint error.

**The model** (Davidson 1970, *On extending the Bradley-Terry model to
accommodate ties in paired comparison experiments*, JASA 65): with
strengths ``pi_g > 0`` and a tie parameter ``nu > 0``, a battle of ``i``
against ``j`` goes to ``i`` with probability ``pi_i / (pi_i + pi_j + nu
sqrt(pi_i pi_j))``, to ``j`` with ``pi_j / (...)`` and is a tie with ``nu
sqrt(pi_i pi_j) / (...)``. jurycal reports the log-strengths ``beta_g = log
pi_g``, centred so that they sum to zero (the model fixes only their
differences), and ``nu``. With ``d = beta_i - beta_j`` the three
probabilities are ``exp(d / 2) / D``, ``exp(-d / 2) / D`` and ``nu / D``,
``D = exp(d / 2) + exp(-d / 2) + nu``, so the log-loss of a verdict with
score ``s`` of ``i`` (1, 1/2, 0) and tie indicator ``t`` is
``-(s - 1/2) d - t log(nu) + log D``: linear in ``(s, t)``, convex in
``(beta, log nu)``. The loss of a predicted verdict distribution is the same
expression at the predicted ``(s, t)`` (its expected log-loss).

**The estimand** is the Davidson fit to the human votes the voters would have
given on every battle of the table (a finite population, as for win rates):
``theta* = argmin (1 / N) sum_b loss(theta; s_b, t_b)``.

**The estimator** (PPI++ for M-estimators, Angelopoulos, Duchi & Zrnic 2023,
*PPI++: Efficient prediction-powered inference*, the power-tuned M-estimator; the PPI++
Bradley-Terry model of AutoEval, Boyeau et al., ICML 2025): with the judges'
cross-fitted predicted verdicts ``(s~_b, t~_b)``
(:func:`~regression.pairwise.predict.predict_verdicts`) and the
inverse-probability weights ``w_b = 1 / pi_b`` of the voted battles,

    theta = argmin  lam * (1 / N) sum_{all b} loss(theta; s~_b, t~_b)
                   + sum_{voted b} w_b [loss(theta; s_b, t_b) - lam loss(theta; s~_b, t~_b)] / sum w_b.

``lam = 0`` is the human votes alone (the weighted Davidson MLE); with every
battle voted the two terms cancel and the estimate is the humans' own MLE
whatever ``lam``. The loss depends on a battle only through its pair, so the
objective is summed over the (few) pairs of generators, on counts; its exact
gradient and Hessian go to scipy's Newton trust-region solver.

**The joint error** (a sandwich): linearising the estimating equation,
``theta - theta* ~ -H^+ (1 / N) sum_b (I_b / pi_b - 1) (r_b - rbar)`` with
``H`` the Hessian of the population loss (a battle's term does not depend on
its verdict, so every battle enters, voted or not), ``H^+`` its pseudo-inverse (the shift of every ``beta`` is
its null space: the pseudo-inverse gives the centred strengths' error) and
``r_b = grad loss(theta; s_b, t_b) - lam grad loss(theta; s~_b, t~_b)``.
Under independent draws its covariance is estimated by ``H^+ [sum_{voted b}
(1 - pi_b) / pi_b^2 (r_b - rbar)(r_b - rbar)' / N^2] H^+`` (design-based, as
for win rates), scaled by ``n / (n - G - [lam > 0])`` for the ``G``
parameters (and ``lam``) estimated from ``n`` votes. A battle moves both its
generators' strengths, so their errors are correlated. The interval is the
normal one from this sandwich: the strengths are an M-estimator, neither a
mean nor bounded, so the betting interval of the win rates
(:func:`regression.core.ppi_interval`) does not apply.

**Power tuning.** One ``lam`` for all strengths, minimising the trace of
their covariance (PPI++'s optimal scalar for M-estimators, in the
design-based form): ``lam = sum c_b (K g_b)'(K g~_b) / sum c_b |K g~_b|^2``
over the voted battles, ``c_b = (1 - pi_b) / pi_b^2``, ``K`` the strengths'
rows of ``H^+``, ``g`` the gradients at the human and at the predicted
verdicts (centred), under the engine's rule set
(:func:`regression.core.tuning.guarded_lam`: ``lam = 1`` where the voted
battles' projected predicted gradients hold one value, 0 where their human
ones do, clipped to [0, 1] otherwise); evaluated at the fit with ``lam =
1``, then the fit repeated at the tuned ``lam`` (as ppi_py does). Judges that
predict nothing get ``lam`` near 0 and cost nothing. A sampled board on which
some generator has fewer than :data:`SPARSE_STRENGTH_VOTES` votes gets
``lam = 0``: the strengths' normal interval has no floor, and with so few
votes the rare residuals of strong judges' shared mistakes go unseen.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import breadth_first_order, connected_components

from regression.core.covariance import design_covariance, dof_scale
from regression.core.tuning import guarded_lam
from regression.errors import ConvergenceWarning
from regression.pairwise.design import UNREACHED_HINT, DesignReach
from regression.pairwise.predict import judge_features, predict_verdicts
from regression.pairwise.result import FewVotesWarning, PairwiseStrengths, votes_per_generator
from regression.pairwise.table import PairwiseTable

__all__ = [
    "LARGEST_STRENGTH",
    "SPARSE_STRENGTH_VOTES",
    "DavidsonLoss",
    "GeneratorPairs",
    "bradley_terry",
    "davidson_probabilities",
    "identified_strengths",
]

#: A log-strength beyond this (a factor of e^25 against the average generator) is not identified:
#: a generator that won (or lost) every voted battle, or generators no battle connects.
LARGEST_STRENGTH = 25.0


#: Fewer human votes than this for some generator of a sampled board, and the strengths are the
#: votes' alone: the correction by the judges leans on residuals so few votes rarely show. In the
#: adversarial grid (``benchmarks/bench_adversarial_pairwise.py``, judges right 85-92 % of the
#: time, 150 draws a cell) the judges' weight at 10 and 15 votes a generator covered as little as
#: 0.79 in a cell and 0.91 pooled for the strongest and weakest generators, where the votes alone
#: covered 0.96; at 20 votes, 0.94 on average, as the votes alone did. The rule reads the number
#: of votes, never their verdicts, so it is no pre-test.
SPARSE_STRENGTH_VOTES = 20

#: What a strength the votes do not identify is, for the warning that names the generators.
UNIDENTIFIED_HINT = (
    "A strength is estimated only where the votes place it both ways against the others (it "
    "beat or tied one of them and lost or tied to one); the strengths are centred over the "
    "generators estimated, so the others move none of them."
)


def davidson_probabilities(
    difference: np.ndarray, log_nu: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``P(i wins), P(tie), P(j wins)`` for ``d = beta_i - beta_j`` (Davidson 1970).

    Examples
    --------
    >>> win, tie, loss = davidson_probabilities(np.array([0.0]), np.log(1.0))
    >>> [round(float(p[0]), 4) for p in (win, tie, loss)]  # equal strengths, nu = 1
    [0.3333, 0.3333, 0.3333]
    """
    half = np.asarray(difference, dtype=float) / 2.0
    log_d = np.logaddexp(np.logaddexp(half, -half), log_nu)
    return np.exp(half - log_d), np.exp(log_nu - log_d), np.exp(-half - log_d)


class GeneratorPairs:
    """Observations' ordered pairs ``(a, b)``, each pair once: the losses are summed over pairs.

    Attributes
    ----------
    a, b : ndarray of int
        Each distinct pair's generators.
    of : ndarray of int
        Each observation's pair.
    n_gen : int
    """

    def __init__(self, a: np.ndarray, b: np.ndarray, n_gen: int) -> None:
        keys, self.of = np.unique(np.asarray(a) * n_gen + np.asarray(b), return_inverse=True)
        self.a, self.b, self.n_gen = keys // n_gen, keys % n_gen, n_gen

    def total(self, values: np.ndarray) -> np.ndarray:
        """Per pair: the sum of ``values`` over its observations."""
        return np.bincount(self.of, weights=values, minlength=len(self.a))

    def scatter(self, per_pair: np.ndarray) -> np.ndarray:
        """A per-pair derivative in ``d`` as the gradient in ``beta`` (+ at a, - at b)."""
        return np.bincount(self.a, per_pair, self.n_gen) - np.bincount(self.b, per_pair, self.n_gen)


class DavidsonLoss:
    """``sum_b [c_b log D_b - e_b d_b - f_b log nu]`` over observations ``b`` of ordered pairs,
    summed per pair, in ``theta = (beta_1 .. beta_G, log nu)``, plus ``(sum beta)^2 / 2``.

    ``c``: each observation's weight; ``e``, ``f``: its weighted ``s - 1/2`` and ``t``. With
    ``c = 1 / n``, ``e = (s - 1/2) / n``, ``f = t / n`` it is the mean Davidson log-loss of
    ``n`` verdicts (module docstring); the penalty pins the centre (the strengths sum to zero
    at the minimum), which the loss does not move.

    Examples
    --------
    >>> from scipy.optimize import check_grad
    >>> loss = DavidsonLoss(GeneratorPairs([0, 1], [1, 2], 3), [1.0, 2.0], [0.3, -0.2], [0.1, 0.5])
    >>> bool(check_grad(lambda x: loss(x)[0], lambda x: loss(x)[1], np.full(4, 0.3)) < 1e-6)
    True
    """

    def __init__(self, pairs: GeneratorPairs, c: ArrayLike, e: ArrayLike, f: ArrayLike) -> None:
        self.pairs = pairs
        self.weight = pairs.total(np.asarray(c, dtype=float))
        self.score = pairs.total(np.asarray(e, dtype=float))
        self.tie = float(np.sum(f))

    def __call__(self, theta: np.ndarray) -> tuple[float, np.ndarray]:
        """The loss and its gradient."""
        p, g = self.pairs, self.pairs.n_gen
        difference = theta[p.a] - theta[p.b]
        half = difference / 2.0
        log_d = np.logaddexp(np.logaddexp(half, -half), theta[g])
        win, nu_share, loss = (np.exp(v - log_d) for v in (half, theta[g], -half))
        centre = theta[:g].sum()
        value = np.sum(self.weight * log_d - self.score * difference) - self.tie * theta[g]
        grad = np.empty(g + 1)
        grad[:g] = p.scatter(self.weight * (win - loss) / 2.0 - self.score) + centre
        grad[g] = np.sum(self.weight * nu_share) - self.tie
        return float(value + centre**2 / 2.0), grad

    def hessian(self, theta: np.ndarray, *, penalty: bool = True) -> np.ndarray:
        """The Hessian (``penalty=False``: the loss's own, singular along the shift of beta)."""
        p, g = self.pairs, self.pairs.n_gen
        win, tie, loss = davidson_probabilities(theta[p.a] - theta[p.b], theta[g])
        h_dd = self.weight * ((win + loss) / 4.0 - ((win - loss) / 2.0) ** 2)
        h_dn = self.weight * (-tie * (win - loss) / 2.0)
        hessian = np.zeros((g + 1, g + 1))
        np.add.at(hessian, (p.a, p.a), h_dd)
        np.add.at(hessian, (p.b, p.b), h_dd)
        np.add.at(hessian, (p.a, p.b), -h_dd)
        np.add.at(hessian, (p.b, p.a), -h_dd)
        hessian[g, :g] = hessian[:g, g] = p.scatter(h_dn)
        hessian[g, g] = float(np.sum(self.weight * (tie - tie**2)))
        if penalty:
            hessian[:g, :g] += 1.0
        return hessian

    def minimise(self, start: np.ndarray) -> tuple[np.ndarray, bool]:
        """The minimiser (Newton trust region, exact gradient and Hessian) and whether the
        strengths are identified (converged, every ``|beta|`` below :data:`LARGEST_STRENGTH`;
        ``log nu`` may run to minus infinity: no ties, ``nu = 0``, plain Bradley-Terry)."""
        from scipy.optimize import minimize  # here: win rates and `jurycal rank` never load it

        fit = minimize(
            self,
            start,
            jac=True,
            hess=self.hessian,
            method="trust-exact",
            options={"gtol": 1e-10, "maxiter": 200},
        )
        g = self.pairs.n_gen
        # the trust region can stall a hair from the optimum, at rounding error: converged too
        converged = bool(fit.success) or float(np.max(np.abs(fit.jac))) < 1e-7
        return fit.x, converged and bool(np.all(np.abs(fit.x[:g]) < LARGEST_STRENGTH))


def identified_strengths(table: PairwiseTable) -> tuple[np.ndarray, dict[int, str]]:
    """The generators whose strengths the human votes identify, and why each other's are not.

    Davidson's likelihood has a finite maximum over a set of generators only if
    for every split of the set in two, some generator on each side beat or tied
    one on the other (Ford, 1957, *Solution of a ranking problem from binary
    comparisons*, Amer. Math. Monthly 64, for Bradley-Terry; a tie bounds a
    difference both ways): the directed graph with an edge ``i -> j`` wherever
    a vote has ``i`` beat or tie ``j`` is strongly connected. Where it is not,
    the strengths of its largest strongly connected part (most votes where two
    are as large) are identified among themselves, and every other generator's
    runs off to plus or minus infinity, dragging a centre taken over all of
    them. The identified ones are those of that part; the others get a reason
    (the graph's condensation says whether every vote places them above, below
    or apart from it).

    Returns
    -------
    identified : ndarray of bool
        Per generator.
    reasons : dict of int to str
        Per other generator (its position): why its strength is not identified.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": range(4), "generator_a": ["x", "y", "z", "w"],
    ...                          "generator_b": ["y", "z", "x", "x"], "validator": "j",
    ...                          "verdict": "a"})
    >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(human="a")
    >>> identified, reasons = identified_strengths(check_pairwise(verdicts, human))
    >>> identified.tolist(), reasons  # x, y, z beat each other in a cycle; w beat x
    ([True, True, True, False], {3: 'every vote places it above the generators estimated'})
    """
    n_gen = len(table.generators)
    voted = np.flatnonzero(table.human_row >= 0)
    a, b, s = table.battle_a[voted], table.battle_b[voted], table.human[voted]
    # i -> j: i beat or tied j
    tail = np.concatenate([a[s >= 0.5], b[s <= 0.5]])
    head = np.concatenate([b[s >= 0.5], a[s <= 0.5]])
    graph = csr_matrix((np.ones(tail.size), (tail, head)), shape=(n_gen, n_gen))
    n_parts, part = connected_components(graph, directed=True, connection="strong")
    votes = np.bincount(a, minlength=n_gen) + np.bincount(b, minlength=n_gen)
    size = np.bincount(part, minlength=n_parts)
    weight = np.bincount(part, weights=votes, minlength=n_parts)
    main = int(np.lexsort((-weight, -size))[0])
    identified = part == main
    if identified.all():
        return identified, {}
    # which parts the main part reaches (beats or ties, through others) and which reach it
    below = breadth_first_order(graph, int(np.flatnonzero(identified)[0]), directed=True)[0]
    above = breadth_first_order(graph.T.tocsr(), int(np.flatnonzero(identified)[0]), directed=True)[
        0
    ]
    reasons = {}
    for g in np.flatnonzero(~identified):
        if g in below and g not in above:
            where = "below"
        elif g in above and g not in below:
            where = "above"
        else:
            where = ""
        placed = f"every vote places it {where}" if where else "no vote connects it to"
        reasons[int(g)] = f"{placed} the generators estimated"
    return identified, reasons


def _gradients(
    pairs: GeneratorPairs, theta: np.ndarray, score: np.ndarray, tie: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each battle's loss gradient at verdict ``(score, tie)``: in ``d`` and in ``log nu``."""
    g = pairs.n_gen
    win, nu_share, loss = davidson_probabilities(
        theta[pairs.a[pairs.of]] - theta[pairs.b[pairs.of]], theta[g]
    )
    return (win - loss) / 2.0 - (score - 0.5), nu_share - tie


def _projected(
    pairs: GeneratorPairs,
    rows: np.ndarray,
    gradients: tuple[np.ndarray, np.ndarray],
    k: np.ndarray,
) -> np.ndarray:
    """``K grad`` for the battles ``rows``: their gradients mapped to the strengths' errors."""
    g = pairs.n_gen
    grad_d, grad_nu = (v[rows] for v in gradients)
    a, b = pairs.a[pairs.of[rows]], pairs.b[pairs.of[rows]]
    return grad_d[:, None] * (k[:, a].T - k[:, b].T) + grad_nu[:, None] * k[:, g][None, :]


def bradley_terry(table: PairwiseTable, *, judges: bool = True, seed: int = 0) -> PairwiseStrengths:
    """Davidson log-strengths of every generator of a checked table (module docstring).

    Parameters
    ----------
    table : PairwiseTable
        From :func:`~regression.pairwise.check_pairwise`.
    judges : bool
        False: the human votes alone (``lam = 0``), with the same joint error. True, on a
        sampled board where some generator has fewer than :data:`SPARSE_STRENGTH_VOTES`
        votes: the votes alone too, with a :class:`~regression.pairwise.FewVotesWarning`.
    seed : int
        Seeds the folds of the cross-fitted predictor.

    Returns
    -------
    PairwiseStrengths
        Method ``ppi++``; ``labels_only`` with ``judges=False``, when no judge gave a
        decisive verdict, or on a sparse board (``judges`` above); ``mean_of_judges`` (the Davidson fit to the judges' own verdicts,
        uncorrected, no interval) when there are no human votes, with a
        :class:`~regression.pairwise.FewVotesWarning`. A generator with fewer than three
        votes gets no estimate (it stays in the fit), with the same warning. A generator whose
        battles the draw did not reach (:class:`~regression.pairwise.design.DesignReach`) or
        whose strength the votes do not identify (:func:`identified_strengths`: it won, or
        lost, every vote against the others, or no vote connects it) gets no finite estimate
        and stays out of the fit, so it moves no other strength: the strengths are centred
        over the generators estimated. ``reasons`` says why, per generator.

    Warns
    -----
    UnidentifiedWarning
        Naming the generators left out of the fit, each with its reason.
    FewVotesWarning
        Besides the cases above: the judges were asked for, some generator of a
        sampled board has fewer than :data:`SPARSE_STRENGTH_VOTES` votes, and the
        strengths are therefore the votes' alone.
    ConvergenceWarning
        The solver stopped without converging, or a strength ran past
        :data:`LARGEST_STRENGTH`, among the generators the votes identify (the
        prediction-powered objective can still be unbounded): then no generator
        gets an estimate.

    Examples
    --------
    >>> import pandas as pd
    >>> from regression.pairwise import check_pairwise
    >>> verdicts = pd.DataFrame({"item": range(6), "generator_a": ["x", "y", "x"] * 2,
    ...                          "generator_b": ["y", "z", "z"] * 2, "validator": "j",
    ...                          "verdict": ["a", "a", "a", "a", "b", "tie"]})
    >>> human = verdicts[["item", "generator_a", "generator_b"]].assign(
    ...     human=["a", "b", "tie", "b", "a", "a"])
    >>> fit = bradley_terry(check_pairwise(verdicts, human))
    >>> fit.estimate.round(3).to_dict()  # every battle voted: the humans' own Davidson MLE
    {'x': 0.416, 'y': 0.0, 'z': -0.416}
    >>> round(fit.tie_parameter, 3)
    0.417
    """
    n_gen = len(table.generators)
    if not np.any(table.human_row >= 0):
        return _judges_only(table)
    reach = DesignReach(table)
    lost = reach.unreached()
    hint = UNREACHED_HINT if lost else ""
    reached = np.flatnonzero(reach.reached)
    identified, why = identified_strengths(table.among(reach.reached))
    keep = np.zeros(n_gen, dtype=bool)
    keep[reached[identified]] = True
    lost.update({int(reached[g]): reason for g, reason in why.items()})
    estimate, covariance = np.full(n_gen, np.nan), np.full((n_gen, n_gen), np.nan)
    se0, prediction = np.full(n_gen, np.nan), np.full(table.n_battles, np.nan)
    decisive, lam, nu = judges and bool(np.any(judge_features(table) != 0)), 0.0, float("nan")
    notes: tuple[str, ...] = ()
    if keep.sum() >= 2:
        fewest = int(votes_per_generator(table)[1][keep].min())
        sampled = bool(np.any(table.human_row < 0))  # every battle voted: no sampling error
        sparse = decisive and sampled and fewest < SPARSE_STRENGTH_VOTES
        if sparse:
            sparse_note = (
                f"the strengths are the human votes' alone: with as few as {fewest} votes a "
                f"generator (below {SPARSE_STRENGTH_VOTES}), the judges' correction undercovered "
                "in worlds built to break it (docs/pairwise.md); the win rates (estimand "
                "win_rate) keep the judges."
            )
            warnings.warn(sparse_note, FewVotesWarning, stacklevel=3)
            notes = (sparse_note,)
        fit = _davidson_fit(
            table if keep.all() else table.among(keep), judges=judges and not sparse, seed=seed
        )
        if not fit.converged:
            warnings.warn(
                "the Bradley-Terry fit did not converge to finite strengths even among the "
                "generators the votes identify: no generator gets an estimate.",
                ConvergenceWarning,
                stacklevel=3,
            )
            lost.update({int(g): "the fit did not converge" for g in np.flatnonzero(keep)})
        else:
            estimate[keep], se0[keep] = fit.estimate, fit.se_labels_only
            covariance[np.ix_(keep, keep)] = fit.covariance
        decisive, lam, nu = fit.decisive, fit.lam, fit.tie_parameter
        if fit.prediction is not None:
            prediction[keep[table.battle_a] & keep[table.battle_b]] = fit.prediction
    else:
        lost.update(
            {int(g): "no other generator's strength is identified to set it against"
             for g in np.flatnonzero(keep)}
        )  # fmt: skip
    return PairwiseStrengths.from_arrays(
        table,
        estimate,
        covariance,
        "ppi++" if decisive else "labels_only",
        lam=lam,
        se_labels_only=se0,
        unidentified=lost,
        hint=f"{UNIDENTIFIED_HINT} {hint}".strip(),
        prediction=prediction if decisive else None,
        tie_parameter=nu,
        seed=seed,
        warnings=notes,
    )


@dataclass(frozen=True)
class _Fit:
    """A Davidson fit over the generators of one table (:func:`_davidson_fit`)."""

    estimate: np.ndarray
    covariance: np.ndarray
    decisive: bool
    lam: float
    se_labels_only: np.ndarray
    prediction: np.ndarray | None
    tie_parameter: float
    converged: bool


def _davidson_fit(table: PairwiseTable, *, judges: bool, seed: int) -> _Fit:
    """The prediction-powered Davidson fit over every generator of ``table`` (the module
    docstring), whose strengths the votes identify."""
    n_gen, n = len(table.generators), table.n_battles
    pairs = GeneratorPairs(table.battle_a, table.battle_b, n_gen)
    voted = np.flatnonzero(table.human_row >= 0)
    s, t = table.human, (table.human == 0.5).astype(float)
    decisive = judges and bool(np.any(judge_features(table) != 0))
    if decisive:
        s_hat, t_hat = predict_verdicts(table, seed=seed)
    else:
        s_hat, t_hat = np.full(n, 0.5), np.zeros(n)
    w = np.zeros(n)
    w[voted] = 1.0 / table.inclusion_probability[voted]
    share = w / w.sum()  # each voted battle's Hajek weight, 0 elsewhere
    s0 = np.where(np.isnan(s), 0.5, s)
    tie_rate = float(np.clip(np.average(t[voted], weights=w[voted]), 0.05, 0.9))
    start = np.zeros(n_gen + 1)
    start[n_gen] = np.log(2 * tie_rate / (1 - tie_rate))  # nu at equal strengths

    def fit(lam: float, start: np.ndarray) -> tuple[np.ndarray, bool]:
        coefficient = lam / n + (1.0 - lam) * share
        score = lam / n * (s_hat - 0.5) + share * ((s0 - 0.5) - lam * (s_hat - 0.5))
        tie = lam / n * t_hat + share * (t - lam * t_hat)
        return DavidsonLoss(pairs, coefficient, score, tie).minimise(start)

    # the population loss's Hessian: every battle at 1 / N (its verdict does not enter)
    population = DavidsonLoss(pairs, np.full(n, 1.0 / n), np.zeros(n), np.zeros(n))

    def projector(theta: np.ndarray) -> np.ndarray:
        return np.linalg.pinv(population.hessian(theta, penalty=False))[:n_gen]

    def human_and_judges(theta: np.ndarray, k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        human = _projected(pairs, voted, _gradients(pairs, theta, s0, t), k)
        judged = _projected(pairs, voted, _gradients(pairs, theta, s_hat, t_hat), k)
        return human, judged

    theta, identified = fit(1.0 if decisive else 0.0, start)
    lam = 0.0
    if decisive:
        k = projector(theta)
        z, z_hat = human_and_judges(theta, k)
        wv = w[voted]
        everywhere = np.arange(n)
        lam = guarded_lam(
            float(np.trace(design_covariance(z, z_hat, wv))),
            float(np.trace(design_covariance(z_hat, z_hat, wv))),  # 0: every battle voted
            predictions=z_hat,
            population=_projected(pairs, everywhere, _gradients(pairs, theta, s_hat, t_hat), k),
            outcomes=z,
        )
        theta, identified = fit(lam, theta)
    k = projector(theta)
    z, z_hat = human_and_judges(theta, k)
    wv = w[voted]
    m = voted.size
    bessel = dof_scale(m, n_gen, tuned=lam > 0) if m > n_gen + 1 else np.nan
    covariance = bessel * design_covariance(z - lam * z_hat, z - lam * z_hat, wv) / n**2
    bessel0 = dof_scale(m, n_gen)
    var0 = bessel0 * np.diag(design_covariance(z, z, wv)) / n**2
    return _Fit(
        theta[:n_gen],
        covariance,
        decisive,
        lam,
        np.sqrt(var0),
        s_hat if decisive else None,
        float(np.exp(theta[n_gen])),
        identified,
    )


def _judges_only(table: PairwiseTable) -> PairwiseStrengths:
    """No human votes: the Davidson fit to the judges' verdicts (each a battle), uncorrected."""
    n_gen = len(table.generators)
    given = np.flatnonzero(~np.isnan(table.score))
    of = table.battle[given]
    share = 1.0 / max(given.size, 1)
    rows = GeneratorPairs(table.battle_a[of], table.battle_b[of], n_gen)
    score, tie = table.score[given], (table.score[given] == 0.5).astype(float)
    loss = DavidsonLoss(rows, np.full(given.size, share), share * (score - 0.5), share * tie)
    theta, _ = loss.minimise(np.zeros(n_gen + 1))
    return PairwiseStrengths.uncorrected(
        table, theta[:n_gen], tie_parameter=float(np.exp(theta[n_gen]))
    )
