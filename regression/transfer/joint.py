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
  and a gap the estimate shrinks): ``sigma_u^2 = var(r)`` (``s - 1`` in the
  denominator). Averaged over pairs of calibration generators, ``(r_c -
  r_c')^2`` is ``2 var(r)``: the variance of a difference, measured;
* the rest of the marginal variance, ``sigma_S^2 = max(se^2 - sigma_u^2, 0)``
  with ``se`` the scale of the marginal interval (the root mean square of
  ``r``), is what the generators share (the calibration generators' offsets
  and the judges' pooled TPR / TNR).

So each generator's marginal scale is that of its interval, and a difference
of two unlabelled generators has the scale ``sqrt(2) sigma_u``: below the
levels' exactly as far as the held-out errors move together. Both parts are
estimated from ``s`` calibration generators, so they carry one t scale with
``s - 1`` degrees of freedom, as the marginal interval does.

A calibration generator's error is the sampling error of its human labels
(binomial, its sd the wider side of the Wilson interval over ``z``, which
stays honest near precision 1); it also moves the unlabelled estimates that
lean on it, by ``D_ic = d ghat_i / d h_c`` (a finite difference), which
carries it into the covariance. A partially labelled generator's estimate
leans on the transfer estimate by the share ``w = n_transfer / n_eff`` of its
effective sample size; its error is ``w`` times the transfer error plus an
independent remainder, with the variance of its own interval.

Each generator is judged on its own outputs, so item sampling is independent
between generators and there is no pairing to count (for one judge and two
generators scored on the same items, see
:func:`regression.single_judge.comparison.compare_models`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from regression.checks import SeedLike, as_rng
from regression.intervals import normal_quantile, wilson_interval
from regression.transfer.estimators import Estimator, TransferData

__all__ = ["COVERS", "JointParts", "joint_parts", "sample_errors"]

#: What the joint error of the transfer estimates accounts for.
COVERS = (
    "the estimate's held-out errors on the calibration generators, split into the part every "
    "generator shares (their mean) and the part specific to each (their spread: the judges' "
    "TPR / TNR on that generator, a gap the estimate shrinks), and the human labels' sampling; "
    "one t scale with s - 1 degrees of freedom"
)

#: Step of the finite difference ``d ghat / d h_c``.
LABEL_STEP = 1e-4
#: The level of the Wilson interval whose wider side gives a calibration precision's sd.
WILSON_ALPHA = 0.05


@dataclass(frozen=True, eq=False)
class JointParts:
    """The pieces of the transfer estimates' joint error (module docstring).

    Attributes
    ----------
    shared : ndarray
        ``(G,)`` sd of the part every unlabelled generator shares (``sigma_S``
        on unlabelled rows, 0 on calibration rows).
    specific : ndarray
        ``(G,)`` sd of each generator's own part (0 on calibration rows).
    label_sd : ndarray
        ``(s,)`` sampling sd of each calibration generator's human precision.
    label_effect : ndarray
        ``(G, s)``: ``d ghat_i / d h_c`` on unlabelled rows, the identity on
        calibration rows.
    df : float
        Degrees of freedom of the transfer part's t scale.
    """

    shared: np.ndarray
    specific: np.ndarray
    label_sd: np.ndarray
    label_effect: np.ndarray
    df: float

    @property
    def transfer(self) -> np.ndarray:
        """``(G, G)`` scale matrix of the transfer part: ``shared shared' + diag(specific^2)``."""
        return np.outer(self.shared, self.shared) + np.diag(self.specific**2)

    def covariance(self) -> np.ndarray:
        """The scale matrix of the whole error: ``transfer + D diag(label_sd^2) D'``."""
        effect = self.label_effect * self.label_sd[None, :]
        return self.transfer + effect @ effect.T


def joint_parts(
    data: TransferData,
    estimator: Estimator,
    se: np.ndarray,
    residuals: np.ndarray,
    label_n: np.ndarray | None,
) -> JointParts:
    """The shared, specific and label parts of the error of ``estimator`` on ``data``.

    Parameters
    ----------
    data : TransferData
    estimator : callable
        The estimator whose estimates are compared (rerun ``s`` times, for ``D``).
    se : ndarray
        ``(G,)`` the scale of each estimate's marginal interval.
    residuals : ndarray
        ``(s,)`` the estimator's held-out errors on the calibration generators.
    label_n : ndarray or None
        ``(s,)`` human labels behind each calibration precision; None: the
        calibration precisions are taken as exact.

    Raises
    ------
    ValueError
        Below two calibration generators (no held-out error, no interval).
    """
    s, g = data.s, data.n_generators
    if s < 2 or len(residuals) < 2:
        raise ValueError(
            "one calibration generator: nothing can be held out, so the estimates have no "
            "interval and no joint error. Label a second generator."
        )
    calibration = np.zeros(g, dtype=bool)
    calibration[data.calibration] = True
    spread = float(np.var(residuals, ddof=1))
    marginal = np.nan_to_num(se) ** 2
    unlabelled = ~calibration
    common = float(np.min(marginal[unlabelled] - spread)) if unlabelled.any() else 0.0
    common = max(common, 0.0)
    # each row's own part tops its marginal up to at least its interval's variance
    own = np.maximum(marginal - common, spread)
    shared = np.where(unlabelled, np.sqrt(common), 0.0)
    specific = np.where(unlabelled, np.sqrt(own), 0.0)
    base = estimator(data).precision
    effect = np.zeros((g, s))
    for c in range(s):
        moved = data.precision.copy()
        moved[c] += LABEL_STEP
        shifted = TransferData(data.rates, data.n, data.confusion, data.calibration, moved)
        effect[:, c] = (estimator(shifted).precision - base) / LABEL_STEP
    effect[calibration, :] = 0.0
    effect[data.calibration, np.arange(s)] = 1.0
    if label_n is None:
        label_sd = np.zeros(s)
    else:
        n = np.maximum(np.nan_to_num(label_n), 1.0)
        low, high = wilson_interval(np.rint(data.precision * n), n, WILSON_ALPHA)
        half = np.maximum(data.precision - low, high - data.precision)
        label_sd = half / normal_quantile(WILSON_ALPHA)
    return JointParts(shared, specific, label_sd, effect, float(s - 1))


def sample_errors(
    parts: JointParts,
    n_draws: int,
    seed: SeedLike,
    partial: Mapping[int, tuple[float, float]] | None = None,
) -> np.ndarray:
    """``(n_draws, G)`` draws of the error from :class:`JointParts`.

    ``partial`` maps a partially labelled row to ``(w, sd)``: its error is
    ``w`` times the row's transfer error plus an independent normal part, so
    that its sd is ``sd`` where the transfer part is finite.
    """
    rng = as_rng(seed)
    g = len(parts.shared)
    # drawn from the parts themselves: no matrix root, so no kernel-dependent rotation
    transfer = rng.standard_normal((n_draws, 1)) * parts.shared[None, :]
    transfer += rng.standard_normal((n_draws, g)) * parts.specific[None, :]
    if np.isfinite(parts.df):
        transfer /= np.sqrt(rng.chisquare(parts.df, n_draws) / parts.df)[:, None]
    labels = rng.standard_normal((n_draws, len(parts.label_sd))) * parts.label_sd
    errors = transfer + labels @ parts.label_effect.T
    for row, (weight, sd) in (partial or {}).items():
        transfer_var = parts.shared[row] ** 2 + parts.specific[row] ** 2
        own = np.sqrt(max(sd**2 - weight**2 * transfer_var, 0.0))
        errors[:, row] = weight * errors[:, row] + own * rng.standard_normal(n_draws)
    return errors
