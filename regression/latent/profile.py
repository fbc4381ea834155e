"""Profile-likelihood intervals for the generator precisions of a latent-trait fit.

For generator i the profile deviance is

    D_i(gamma) = 2 W [min over theta with g_i = gamma of L(theta) - L(theta_hat)],

with L the likelihood loss (negative log-likelihood / W, W observations). The
interval is ``{gamma : D_i(gamma) <= phi z^2}`` (Wilks; two-sided z = z_{1-alpha/2}),
where ``phi`` is 1, or with ``quasi=True`` the Pearson dispersion of the cells
when it exceeds 1: the quasi-likelihood scaling of McCullagh & Nelder
(Generalized Linear Models, 2nd ed., section 9.2), which widens the interval by
the extra-binomial variation the data show. Each end is the root of the signed
root deviance ``sqrt(D_i / phi) - z`` on the segment between the estimate and
the box edge, found by the Illinois variant of regula falsi; every evaluation
of every generator's ends is one batch of constrained refits (g_i held fixed by
its bounds), warm-started from the nearest point already inside the interval.
"""

from __future__ import annotations

import numpy as np

from regression.intervals import normal_quantile
from regression.latent.data import LatentData
from regression.latent.losses import likelihood_loss, likelihood_weight
from regression.latent.solver import Solver

__all__ = ["profile_interval"]

#: Stop when an end is known to within this (on the precision scale) ...
GAMMA_TOL = 1e-5
#: ... or the signed root deviance is this close to z.
ROOT_TOL = 1e-4
MAX_STEPS = 60


def profile_interval(
    solver: Solver,
    data: LatentData,
    theta: np.ndarray,
    *,
    alpha: float,
    alternative: str,
    phi: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Per-generator profile-likelihood interval ends ``(low, high)``.

    Parameters
    ----------
    solver : Solver
        A likelihood solver; every refit goes through :meth:`Solver.solve`.
    data : LatentData
        The fitted problem.
    theta : ndarray
        The maximum-likelihood estimate of ``solver`` on ``data``.
    alpha : float
        1 - confidence level.
    alternative : {"two-sided", "less", "greater"}
        A one-sided interval's open end is 0 or 1.
    phi : float
        >= 1; scales the deviance (1: plain likelihood).

    Returns
    -------
    (low, high) : ndarray
        Per generator.
    """
    z = normal_quantile(alpha, alternative)
    n_gen = data.n_gen
    lo_box, hi_box = solver.bounds
    weight = likelihood_weight(data)
    best = likelihood_loss(theta, data)[0]
    estimate = theta[:n_gen]
    sides = []  # (generator, edge of the box on that side)
    if alternative in ("two-sided", "greater"):
        sides += [(i, lo_box) for i in range(n_gen)]
    if alternative in ("two-sided", "less"):
        sides += [(i, hi_box) for i in range(n_gen)]
    gen = np.array([i for i, _ in sides], dtype=int)
    edge = np.array([e for _, e in sides], dtype=float)

    def signed_root(
        gammas: np.ndarray, starts: np.ndarray, rows: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """``sqrt(D / phi) - z`` at g_{gen[rows]} = gammas, and the refitted thetas."""
        lower = np.full(starts.shape, lo_box)
        upper = np.full(starts.shape, hi_box)
        at = np.arange(len(rows))
        lower[at, gen[rows]] = upper[at, gen[rows]] = gammas  # solve() clips the starts in
        thetas, losses, _, _ = solver.solve([data] * len(rows), starts, bounds=(lower, upper))
        deviance = np.maximum(2.0 * weight * (losses - best), 0.0)
        return np.sqrt(deviance / phi) - z, thetas

    everyone = np.arange(len(sides))
    inside_theta = np.repeat(theta[None, :], len(sides), axis=0)
    f_edge, _ = signed_root(edge, inside_theta, everyone)
    ends = edge.copy()  # an edge the deviance never reaches is the end
    a, f_a = estimate[gen].copy(), np.full(len(sides), -z)
    b, f_b = edge.copy(), f_edge
    last_side = np.zeros(len(sides), dtype=int)  # Illinois: which end moved last (-1 a, +1 b)
    active = f_edge > 0
    for _ in range(MAX_STEPS):
        rows = np.flatnonzero(active)
        if rows.size == 0:
            break
        c = b[rows] - f_b[rows] * (b[rows] - a[rows]) / (f_b[rows] - f_a[rows])
        f_c, thetas = signed_root(c, inside_theta[rows], rows)
        inside = f_c <= 0
        for k, row in enumerate(rows):
            if inside[k]:
                a[row], f_a[row], inside_theta[row] = c[k], f_c[k], thetas[k]
                if last_side[row] == -1:
                    f_b[row] /= 2.0
                last_side[row] = -1
            else:
                b[row], f_b[row] = c[k], f_c[k]
                if last_side[row] == 1:
                    f_a[row] /= 2.0
                last_side[row] = 1
            if abs(f_c[k]) <= ROOT_TOL or abs(b[row] - a[row]) <= GAMMA_TOL:
                ends[row] = c[k]
                active[row] = False
    ends[active] = 0.5 * (a[active] + b[active])
    # An end at the box edge is the edge of [0, 1] (the box only keeps logs finite).
    ends = np.where(ends <= lo_box, 0.0, np.where(ends >= hi_box, 1.0, ends))
    low, high = np.zeros(n_gen), np.ones(n_gen)
    for end, i, e in zip(ends, gen, edge, strict=True):
        if e == lo_box:
            low[i] = end
        else:
            high[i] = end
    return low, high
