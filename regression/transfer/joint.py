"""The joint error of the transfer estimates: what comparisons and rank sets of generators need.

An unlabelled generator's error ``e_i = ghat_i - g_i`` is split into a part
*shared* by all the unlabelled generators and a part *specific* to each,
independent between generators (a compound-symmetric covariance):

    e_i = S + u_i,   Var(u_i) = sigma_u^2,   Var(S) = sigma_S^2.

Both are read off the estimator's own held-out errors ``r_c`` on the
calibration generators (each held out in turn; the self-check), which is all
the data say about how the estimate errs on a generator without labels:

* the spread of the held-out errors around their mean is what differs from
  one generator to the next (the judges' TPR / TNR on that generator's outputs,
  and a gap the estimate shrinks). Averaged over pairs of calibration
  generators, ``(r_c - r_c')^2`` is ``2 var(r)`` (``s - 1`` in the
  denominator): the variance of a difference, measured;
* the marginal variance ``se^2`` (the interval's, the mean of ``r^2``) is
  split by the method of moments: ``sigma_S^2 = se^2 - var(r)``, truncated at
  0 (as a random-effects variance is, DerSimonian and Laird 1986), and
  ``sigma_u^2 = se^2 - sigma_S^2 = min(var(r), se^2)``.

So each generator's marginal scale is that of its interval, and a difference
of two unlabelled generators has the scale ``sqrt(2) sigma_u``: below the
levels' exactly as far as the held-out errors move together, never above. Both parts are
estimated from ``s`` calibration generators, so they carry one t scale with
``s - 1`` degrees of freedom, as the marginal interval does.

A calibration generator's error is the sampling error of its human labels
(binomial, its sd the wider side of the Wilson interval over ``z``, which
stays honest near precision 1). Where the calibration generators' labels fall
on the same items (the anchors' ``precision_correlation``, from
``fit_table(..., shared_items=True)``), their errors correlate as the paired
items say (:func:`regression.data.anchors.paired_precision_correlation`): a
hard prompt lowers both, and a difference of two of them is known better than
either; otherwise they are taken as independent. Those
labels also enter the unlabelled estimates (an offset moves them by about
``1 / s`` of a label error), so the two errors correlate positively and
ignoring it overstates the variance of their difference: conservative. (A
finite-difference ``d ghat / d h_c`` is no way to measure it: the stacking
weights jump with the labels, and on the bundled data it swung to -3.5.)
A partially labelled generator's estimate
leans on the transfer estimate by the share ``w = n_transfer / n_eff`` of its
effective sample size; its error is ``w`` times the transfer error plus an
independent remainder, with the variance of its own interval.

The transfer part needs no pairing of its own: whatever the items the
generators share do to the estimate, the held-out errors it is measured from
already show. Without ``shared_items`` each generator's labels are taken as
sampled apart from the others'; where generators answer the same prompts, a
hard prompt lowers them together, so leaving the pairing out overstates a
difference's variance: conservative. For one judge and two
generators scored on the same items, the paired comparison is
:func:`regression.single_judge.comparison.compare_models`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from regression.checks import SeedLike, as_rng
from regression.intervals import normal_quantile, wilson_interval
from regression.transfer.estimators import TransferData

__all__ = ["COVERS", "JointParts", "joint_parts", "positive_definite", "sample_errors"]

#: What the joint error of the transfer estimates accounts for.
COVERS = (
    "the estimate's held-out errors on the calibration generators, split into the part every "
    "generator shares and the part specific to each (their spread: the judges' TPR / TNR on "
    "that generator, a gap the estimate shrinks), on one t scale with s - 1 degrees of "
    "freedom, and the calibration generators' label sampling (paired where their labels share "
    "items)"
)

#: The level of the Wilson interval whose wider side gives a calibration precision's sd.
WILSON_ALPHA = 0.05


@dataclass(frozen=True, eq=False)
class JointParts:
    """The pieces of the transfer estimates' joint error (module docstring).

    Generator i's error is ``lean_i T_i + own_i Z_i``: ``T = shared Z_0 +
    specific Z'`` the transfer error on one t scale, ``Z`` independent normals.

    Attributes
    ----------
    shared : ndarray
        ``(G,)`` sd of the part every unlabelled generator shares (``sigma_S``
        on unlabelled rows, 0 on calibration rows); t-scaled.
    specific : ndarray
        ``(G,)`` sd of each unlabelled generator's own part; t-scaled.
    lean : ndarray
        ``(G,)`` how far each estimate leans on the transfer estimate: 1 for an
        unlabelled generator, ``n_transfer / n_eff`` for a partially labelled
        one, 0 for a calibration generator.
    own : ndarray
        ``(G,)`` sd of the normal part of each error: a calibration generator's
        label sampling, the rest of a partially labelled generator's interval,
        0 for an unlabelled generator.
    df : float
        Degrees of freedom of the t scale.
    own_correlation : ndarray, optional
        ``(G, G)`` correlation of the normal parts (calibration generators
        whose labels share items); None: independent.
    """

    shared: np.ndarray
    specific: np.ndarray
    lean: np.ndarray
    own: np.ndarray
    df: float
    own_correlation: np.ndarray | None = None

    def covariance(self) -> np.ndarray:
        """The scale matrix: ``(lean shared)(lean shared)' + diag(lean^2 specific^2) + own R own``."""
        shared = self.lean * self.shared
        own = np.diag(self.own**2)
        if self.own_correlation is not None:
            own = self.own[:, None] * self.own_correlation * self.own[None, :]
        return np.outer(shared, shared) + np.diag((self.lean * self.specific) ** 2) + own


def joint_parts(
    data: TransferData,
    se: np.ndarray,
    residuals: np.ndarray,
    label_n: np.ndarray | None,
    partial: Mapping[int, tuple[float, float]] | None = None,
    label_correlation: np.ndarray | None = None,
) -> JointParts:
    """The shared, specific and label parts of the transfer estimates' error.

    Parameters
    ----------
    data : TransferData
    se : ndarray
        ``(G,)`` the scale of each estimate's marginal interval.
    residuals : ndarray
        ``(s,)`` the estimator's held-out errors on the calibration generators.
    label_n : ndarray or None
        ``(s,)`` human labels behind each calibration precision; None: the
        calibration precisions are taken as exact.
    partial : mapping of int to (float, float), optional
        A partially labelled row's ``(lean, sd)``: its share of the transfer
        estimate and the scale of its own interval, which its error keeps.
    label_correlation : ndarray, optional
        ``(s, s)`` correlation of the calibration precisions' sampling errors,
        in the order of ``data.calibration``; None: independent. A matrix that
        is not positive definite (pairwise estimates from different shared
        items need not be) has its off-diagonal shrunk toward 0 until it is.

    Raises
    ------
    ValueError
        Below two calibration generators (no held-out error, no interval).
    """
    g = data.n_generators
    if data.s < 2 or len(residuals) < 2:
        raise ValueError(
            "one calibration generator: nothing can be held out, so the estimates have no "
            "interval and no joint error. Label a second generator."
        )
    unlabelled = np.ones(g, dtype=bool)
    unlabelled[data.calibration] = False
    marginal = np.nan_to_num(se) ** 2
    # method of moments: var(r) estimates sigma_u^2, the rest of mean(r^2) = se^2 is shared;
    # a negative shared estimate is truncated at 0 (as a random-effects tau^2 is)
    spread = float(np.var(residuals, ddof=1))
    common = max(float(np.min(marginal[unlabelled])) - spread, 0.0) if unlabelled.any() else 0.0
    shared = np.where(unlabelled, np.sqrt(common), 0.0)
    specific = np.where(unlabelled, np.sqrt(np.maximum(marginal - common, 0.0)), 0.0)
    lean = unlabelled.astype(float)
    own = np.zeros(g)
    if label_n is not None:
        n = np.maximum(np.nan_to_num(label_n), 1.0)
        h = data.precision
        low, high = wilson_interval(np.rint(h * n), n, WILSON_ALPHA)
        own[data.calibration] = np.maximum(h - low, high - h) / normal_quantile(WILSON_ALPHA)
    for row, (weight, sd) in (partial or {}).items():
        lean[row] = weight
        transfer_var = shared[row] ** 2 + specific[row] ** 2
        own[row] = np.sqrt(max(sd**2 - weight**2 * transfer_var, 0.0))
    own_correlation = None
    if label_correlation is not None and label_n is not None:
        own_correlation = np.eye(g)
        rows = np.asarray(data.calibration)
        own_correlation[np.ix_(rows, rows)] = positive_definite(label_correlation)
    return JointParts(shared, specific, lean, own, float(data.s - 1), own_correlation)


def positive_definite(correlation: np.ndarray) -> np.ndarray:
    """``correlation`` with its off-diagonal halved until its Cholesky factor exists.

    Shrinking toward the identity keeps every pair's sign and only ever weakens
    the pairing a difference gains from.
    """
    identity = np.eye(len(correlation))
    for halvings in range(60):
        shrunk = identity + (correlation - identity) * 0.5**halvings
        try:
            np.linalg.cholesky(shrunk)
        except np.linalg.LinAlgError:
            continue
        return shrunk
    return identity


def sample_errors(parts: JointParts, n_draws: int, seed: SeedLike) -> np.ndarray:
    """``(n_draws, G)`` draws of the error from :class:`JointParts`."""
    rng = as_rng(seed)
    g = len(parts.shared)
    # drawn from the parts themselves: no matrix root, so no kernel-dependent rotation
    transfer = rng.standard_normal((n_draws, 1)) * parts.shared[None, :]
    transfer += rng.standard_normal((n_draws, g)) * parts.specific[None, :]
    if np.isfinite(parts.df):
        transfer /= np.sqrt(rng.chisquare(parts.df, n_draws) / parts.df)[:, None]
    own = rng.standard_normal((n_draws, g))
    if parts.own_correlation is not None:
        own = own @ np.linalg.cholesky(parts.own_correlation).T
    own *= parts.own[None, :]
    return parts.lean[None, :] * transfer + own
