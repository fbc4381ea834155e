"""Simulation harness for single-judge estimation and model comparison, on counts.

Everything is drawn as counts (binomial / multinomial), so a study of 21
settings x 10,000 replications is a handful of vectorised draws:

* :func:`simulate_single_judge`: test and calibration counts for given
  (theta, TPR, TNR, n, m0, m1), or a calibration sample of size m with its
  own prevalence (distribution shift, Lee et al. section 8 / App. E) and,
  optionally, its own judge behaviour (a violation of Lee eq. 18).
* :func:`simulate_comparison`: two models judged on the same test items
  (the paired 2 x 2 table) plus one calibration table per model, with
  per-model TPR / TNR (the calibration gaps of Fiedler section 5).
* :func:`coverage_study`: Lee et al. Fig. 5(b)/(c): coverage, length and bias
  of the adjusted interval over a theta grid, with equal or adaptive
  (Algorithm 1) calibration allocation, beside the naive interval.
* :func:`distribution_shift_study`: Lee et al. Fig. 7 / Table 2: the bias of
  five estimators (and PPI++) when the calibration prevalence differs from
  the test prevalence.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import (
    SeedLike,
    as_rng,
    check_alpha,
    check_counts,
    check_probability,
    plain,
)
from regression.intervals import wilson_interval
from regression.single_judge.ppi import ppi_binary_from_counts
from regression.single_judge.rogan_gladen import allocate_calibration, rg_from_rates, rg_interval

__all__ = [
    "SimulatedComparison",
    "SimulatedSingleJudge",
    "coverage_study",
    "distribution_shift_study",
    "simulate_comparison",
    "simulate_single_judge",
]


@dataclass(frozen=True, eq=False)
class SimulatedSingleJudge:
    """Simulated counts, shape ``(n_rep, *settings)``: the test count and the calibration 2 x 2 cells.

    Attributes
    ----------
    k_test, n_test : ndarray
        Test items the judge called valid, out of n.
    tp, fn, fp, tn : ndarray
        Calibration cells (human 1/0 x judge 1/0).
    theta : ndarray
        The true test prevalence of each setting (broadcast to the settings' shape).
    """

    k_test: np.ndarray
    n_test: np.ndarray
    tp: np.ndarray
    fn: np.ndarray
    fp: np.ndarray
    tn: np.ndarray
    theta: np.ndarray

    @property
    def p_hat(self) -> np.ndarray:
        return self.k_test / self.n_test

    @property
    def n_pos(self) -> np.ndarray:
        return self.tp + self.fn

    @property
    def n_neg(self) -> np.ndarray:
        return self.fp + self.tn

    @property
    def tpr_hat(self) -> np.ndarray:
        """q1-hat; NaN where the calibration drew no human-valid item."""
        m1 = self.n_pos.astype(float)
        return np.divide(self.tp, m1, out=np.full(m1.shape, np.nan), where=m1 > 0)

    @property
    def tnr_hat(self) -> np.ndarray:
        """q0-hat; NaN where the calibration drew no human-invalid item."""
        m0 = self.n_neg.astype(float)
        return np.divide(self.tn, m0, out=np.full(m0.shape, np.nan), where=m0 > 0)


def _check_n_rep(n_rep: Any) -> int:
    """``n_rep`` as an int, raising unless it is a whole number >= 1 (one world is a world)."""
    if isinstance(n_rep, bool) or not isinstance(n_rep, (int, np.integer)) or n_rep < 1:
        raise ValueError(f"n_rep must be a whole number >= 1; got {plain(n_rep)!r}.")
    return int(n_rep)


def _judge_p(theta: Any, tpr: Any, tnr: Any) -> np.ndarray:
    """p = theta q1 + (1 - theta)(1 - q0), Lee et al. eq. (13)."""
    return np.asarray(theta, dtype=float) * tpr + (1 - theta) * (1 - tnr)


def simulate_single_judge(
    theta: Any,
    tpr: Any,
    tnr: Any,
    n: Any,
    m0: Any = None,
    m1: Any = None,
    *,
    m: Any = None,
    theta_cal: Any = None,
    tpr_cal: Any = None,
    tnr_cal: Any = None,
    n_rep: int = 1,
    seed: SeedLike = None,
) -> SimulatedSingleJudge:
    """Draw test and calibration counts for one judge. All settings broadcast.

    Parameters
    ----------
    theta : float or array
        True prevalence (valid rate) of the test distribution P.
    tpr, tnr : float or array
        The judge's sensitivity q1 and specificity q0.
    n : int or array
        Test size.
    m0, m1 : int or array, optional
        Fixed calibration class sizes (Lee et al. section 7.1: m0 = m1 = 100).
    m : int or array, keyword-only, optional
        Instead of m0 / m1: a calibration sample of size m from a distribution Q
        with prevalence ``theta_cal`` (so m1 ~ Binomial(m, theta_cal)).
    theta_cal : float or array, keyword-only
        Calibration prevalence (default ``theta``: no shift). Lee section 8 / App. E.
    tpr_cal, tnr_cal : float or array, keyword-only
        The judge's behaviour on calibration items (default: as on test items,
        Lee eq. 18); set them to break that assumption.
    n_rep : int, keyword-only
        Replications (leading axis of every output array).
    seed : int, Generator, RandomState or None, keyword-only

    Returns
    -------
    SimulatedSingleJudge

    Raises
    ------
    ValueError
        If neither (m0, m1) nor m is given, or both, or a value is out of range.

    Examples
    --------
    >>> sim = simulate_single_judge(0.3, 0.9, 0.7, n=1000, m0=100, m1=100, n_rep=5, seed=0)
    >>> sim.k_test.shape, sim.n_pos.tolist()
    ((5,), [100, 100, 100, 100, 100])
    """
    n_rep = _check_n_rep(n_rep)
    rng = as_rng(seed)
    th = check_probability("theta", theta)
    q1 = check_probability("tpr", tpr)
    q0 = check_probability("tnr", tnr)
    n_arr = check_counts("n", n)
    if np.any(n_arr <= 0):
        raise ValueError(f"n must be positive; got {n_arr[n_arr <= 0].ravel()[0].item()!r}.")
    th_c = th if theta_cal is None else check_probability("theta_cal", theta_cal)
    q1_c = q1 if tpr_cal is None else check_probability("tpr_cal", tpr_cal)
    q0_c = q0 if tnr_cal is None else check_probability("tnr_cal", tnr_cal)
    fixed = m0 is not None or m1 is not None
    if fixed == (m is not None) or (fixed and (m0 is None or m1 is None)):
        raise ValueError(
            "give either both m0 and m1 (fixed class sizes) or m (random split), not both."
        )
    shape = np.broadcast_shapes(
        th.shape, q1.shape, q0.shape, n_arr.shape, th_c.shape, q1_c.shape, q0_c.shape
    )
    if fixed:
        m0_arr = check_counts("m0", m0)
        m1_arr = check_counts("m1", m1)
        shape = np.broadcast_shapes(shape, m0_arr.shape, m1_arr.shape)
        m1_draw = np.broadcast_to(m1_arr, (n_rep, *shape))
        m0_draw = np.broadcast_to(m0_arr, (n_rep, *shape))
    else:
        m_arr = check_counts("m", m)
        shape = np.broadcast_shapes(shape, m_arr.shape)
        m_full = np.broadcast_to(m_arr, (n_rep, *shape))
        m1_draw = rng.binomial(m_full, np.broadcast_to(th_c, (n_rep, *shape)))
        m0_draw = m_full - m1_draw
    full = (n_rep, *shape)
    n_full = np.broadcast_to(n_arr, full)
    k = rng.binomial(n_full, np.broadcast_to(_judge_p(th, q1, q0), full))
    tp = rng.binomial(m1_draw, np.broadcast_to(q1_c, full))
    tn = rng.binomial(m0_draw, np.broadcast_to(q0_c, full))
    return SimulatedSingleJudge(
        k.astype(np.int64),
        np.array(n_full, dtype=np.int64),
        tp.astype(np.int64),
        (m1_draw - tp).astype(np.int64),
        (m0_draw - tn).astype(np.int64),
        tn.astype(np.int64),
        np.broadcast_to(th, shape).copy(),
    )


@dataclass(frozen=True, eq=False)
class SimulatedComparison:
    """Simulated paired test tables ``(n_rep, *settings, 4)`` = (both, a_only, b_only, neither) and calibration cells per model ``(n_rep, *settings, 4)`` = (tp, fn, fp, tn)."""

    test: np.ndarray
    cal_a: np.ndarray
    cal_b: np.ndarray

    @property
    def p_a(self) -> np.ndarray:
        return (self.test[..., 0] + self.test[..., 1]) / self.test.sum(axis=-1)

    @property
    def p_b(self) -> np.ndarray:
        return (self.test[..., 0] + self.test[..., 2]) / self.test.sum(axis=-1)


def simulate_comparison(
    theta_a: Any,
    theta_b: Any,
    tpr_a: Any,
    tnr_a: Any,
    tpr_b: Any,
    tnr_b: Any,
    n: int,
    m0: int,
    m1: int,
    *,
    n_rep: int = 1,
    seed: SeedLike = None,
) -> SimulatedComparison:
    """Two models judged on the same n test items, with a calibration set of (m0, m1) per model.

    Parameters
    ----------
    theta_a, theta_b : float or array
        True accuracies of models A and B.
    tpr_a, tnr_a, tpr_b, tnr_b : float or array
        The judge's sensitivity / specificity on each model's responses. Unequal
        values are the per-model calibration gaps of Fiedler section 5
        (Delta J = J_A - J_B); equal values satisfy shared-calibration's assumption.
    n : int
        Paired test items.
    m0, m1 : int
        Calibration class sizes for each model.
    n_rep : int, keyword-only
    seed : int, Generator, RandomState or None, keyword-only

    Returns
    -------
    SimulatedComparison

    Notes
    -----
    The judge's labels on A and on B are drawn independently for each item
    (cells p_A p_B, p_A (1 - p_B), ...), which is the simplest paired design;
    the bootstrap and the delta method handle any dependence.

    Examples
    --------
    >>> sim = simulate_comparison(0.6, 0.65, 0.8, 0.8, 0.85, 0.85, n=1000, m0=100, m1=100,
    ...                           n_rep=3, seed=0)
    >>> sim.test.shape, sim.cal_a.shape
    ((3, 4), (3, 4))
    """
    n_rep = _check_n_rep(n_rep)
    rng = as_rng(seed)
    tha, thb = check_probability("theta_a", theta_a), check_probability("theta_b", theta_b)
    q1a, q0a = check_probability("tpr_a", tpr_a), check_probability("tnr_a", tnr_a)
    q1b, q0b = check_probability("tpr_b", tpr_b), check_probability("tnr_b", tnr_b)
    for name, v in (("n", n), ("m0", m0), ("m1", m1)):
        if int(check_counts(name, v)) <= 0:
            raise ValueError(f"{name} must be positive; got {v!r}.")
    pa, pb = _judge_p(tha, q1a, q0a), _judge_p(thb, q1b, q0b)
    shape = np.broadcast_shapes(pa.shape, pb.shape)
    pa, pb = np.broadcast_to(pa, shape), np.broadcast_to(pb, shape)
    probs = np.stack([pa * pb, pa * (1 - pb), (1 - pa) * pb, (1 - pa) * (1 - pb)], axis=-1)
    test = rng.multinomial(int(n), probs, size=(n_rep, *shape))

    def cal(q1: np.ndarray, q0: np.ndarray) -> np.ndarray:
        full = (n_rep, *shape)
        tp = rng.binomial(int(m1), np.broadcast_to(q1, full))
        tn = rng.binomial(int(m0), np.broadcast_to(q0, full))
        return np.stack([tp, int(m1) - tp, int(m0) - tn, tn], axis=-1).astype(np.int64)

    return SimulatedComparison(test.astype(np.int64), cal(q1a, q0a), cal(q1b, q0b))


def coverage_study(
    thetas: Any = None,
    tpr: float = 0.9,
    tnr: float = 0.7,
    n: int = 1000,
    m: int = 200,
    *,
    allocation: str = "equal",
    m_pilot: int = 10,
    n_rep: int = 10_000,
    alpha: float = 0.05,
    seed: SeedLike = None,
) -> pd.DataFrame:
    """Coverage, length and bias of the Lee et al. interval over a theta grid (Fig. 5(b), 5(c)).

    Parameters
    ----------
    thetas : array, optional
        True prevalences (default {0, 0.05, ..., 1}, Lee section 7.1).
    tpr, tnr : float
        The judge's q1, q0 (default (q0, q1) = (0.7, 0.9), Fig. 5).
    n, m : int
        Test size and calibration budget (default 1000 and 200).
    allocation : {'equal', 'adaptive'}, keyword-only
        m0 = m1 = m / 2 (Fig. 5(b)), or Algorithm 1 per replication with a
        pilot of ``m_pilot`` items per class (Fig. 5(c)).
    m_pilot : int, keyword-only
    n_rep : int, keyword-only
        Replications per theta (default 10,000, as the paper).
    alpha : float, keyword-only
    seed : int, Generator, RandomState or None, keyword-only

    Returns
    -------
    DataFrame
        One row per theta: ``coverage`` (of the RG interval), ``coverage_mcse``
        (its Monte Carlo standard error), ``mean_length``, ``bias`` and ``rmse``
        of the RG estimate, ``mean_m1``, ``n_undefined`` (J-hat <= 0), and the
        naive estimate's ``naive_coverage``, ``naive_length``, ``naive_bias``
        (Wilson interval on p-hat).

    Notes
    -----
    Vectorised over all (theta, replication) pairs: the paper's full study
    (21 x 10,000) takes well under a second here
    (``benchmarks/bench_single_judge.py``).

    Examples
    --------
    >>> df = coverage_study([0.3, 0.5], n_rep=2000, seed=0)
    >>> df[["theta", "coverage"]].round(3).to_dict("list")
    {'theta': [0.3, 0.5], 'coverage': [0.958, 0.954]}
    """
    if allocation not in ("equal", "adaptive"):
        raise ValueError(
            f"allocation ({allocation!r}) not recognized; must be 'equal' or 'adaptive'."
        )
    alpha = check_alpha(alpha)
    n_rep = _check_n_rep(n_rep)
    th = check_probability("thetas", np.linspace(0, 1, 21) if thetas is None else thetas)
    th = np.atleast_1d(th).astype(float)
    rng = as_rng(seed)
    q1 = float(check_probability("tpr", tpr))
    q0 = float(check_probability("tnr", tnr))
    full = (n_rep, th.size)
    k = rng.binomial(int(n), np.broadcast_to(_judge_p(th, q1, q0), full))
    p_hat = k / n
    if allocation == "equal":
        m1 = np.full(full, int(m) // 2)
        m0 = np.full(full, int(m) - int(m) // 2)
        tp = rng.binomial(m1, q1)
        tn = rng.binomial(m0, q0)
    else:
        pilot_tp = rng.binomial(int(m_pilot), q1, size=full)
        pilot_tn = rng.binomial(int(m_pilot), q0, size=full)
        m0, m1 = allocate_calibration(int(m), p_hat, int(m_pilot), pilot_tp, pilot_tn)
        tp = pilot_tp + rng.binomial(m1 - int(m_pilot), q1)
        tn = pilot_tn + rng.binomial(m0 - int(m_pilot), q0)
    tpr_hat, tnr_hat = tp / m1, tn / m0
    est = rg_from_rates(p_hat, tpr_hat, tnr_hat)
    low, high = (np.asarray(b) for b in rg_interval(p_hat, tpr_hat, tnr_hat, int(n), m1, m0, alpha))
    covered = (low <= th) & (th <= high)
    n_low, n_high = (np.asarray(b) for b in wilson_interval(k, int(n), alpha))
    naive_cov = (n_low <= th) & (th <= n_high)
    coverage = covered.mean(axis=0)
    err = np.where(np.isnan(est), np.nan, est - th)
    return pd.DataFrame(
        {
            "theta": th,
            "coverage": coverage,
            "coverage_mcse": np.sqrt(coverage * (1 - coverage) / n_rep),
            "mean_length": (high - low).mean(axis=0),
            "bias": np.nanmean(err, axis=0),
            "rmse": np.sqrt(np.nanmean(err**2, axis=0)),
            "mean_m1": m1.mean(axis=0),
            "n_undefined": np.isnan(est).sum(axis=0),
            "naive_coverage": naive_cov.mean(axis=0),
            "naive_length": (n_high - n_low).mean(axis=0),
            "naive_bias": (p_hat - th).mean(axis=0),
        }
    )


def distribution_shift_study(
    theta_cal: Any = None,
    theta_test: float = 0.5,
    tpr: float = 0.9,
    tnr: float = 0.7,
    n: int = 1000,
    m: int = 200,
    *,
    n_rep: int = 10_000,
    seed: SeedLike = None,
) -> pd.DataFrame:
    """Mean bias of the estimators of Lee et al. Table 2 when the calibration prevalence shifts (Fig. 7).

    Parameters
    ----------
    theta_cal : array, optional
        Calibration prevalences theta_Q (default 0.25, 0.30, ..., 0.75).
    theta_test : float
        Test prevalence theta_P (default 0.5, App. E).
    tpr, tnr, n, m : as Lee App. E: (q0, q1) = (0.7, 0.9), n = 1000, m = 200.
    n_rep : int, keyword-only
    seed : int, Generator, RandomState or None, keyword-only

    Returns
    -------
    DataFrame
        One row per theta_cal: the mean estimate minus theta_test for
        ``naive`` (i), ``calibration_only`` (ii), ``difference`` (iii, PPI with
        lam = 1), ``conditional`` (iv), ``rogan_gladen`` (v) and ``ppi++``
        (power-tuned), plus ``mcse_rogan_gladen``.

    Notes
    -----
    Only (v), Rogan-Gladen, relies on the judge's behaviour given the true
    label alone (Lee eq. 18) and stays unbiased; (ii)-(iv) and PPI++ assume
    the calibration prevalence equals the test prevalence.

    Examples
    --------
    >>> df = distribution_shift_study([0.25, 0.5], n_rep=2000, seed=0)
    >>> df["difference"].round(2).tolist()
    [-0.1, 0.0]
    """
    tq = np.atleast_1d(
        check_probability(
            "theta_cal", np.linspace(0.25, 0.75, 11) if theta_cal is None else theta_cal
        )
    ).astype(float)
    sim = simulate_single_judge(theta_test, tpr, tnr, n, m=m, theta_cal=tq, n_rep=n_rep, seed=seed)
    p = sim.p_hat
    m_tot = (sim.n_pos + sim.n_neg).astype(float)
    y_bar = sim.n_pos / m_tot
    p_cal = (sim.tp + sim.fp) / m_tot
    with np.errstate(invalid="ignore", divide="ignore"):
        ppv = sim.tp / (sim.tp + sim.fp)  # P_Q(Z = 1 | judge valid)
        fomr = sim.fn / (sim.fn + sim.tn)  # P_Q(Z = 1 | judge invalid)
    ppi_tuned = ppi_binary_from_counts(sim.tp, sim.fn, sim.fp, sim.tn, sim.k_test, sim.n_test)[0]
    rg = rg_from_rates(p, sim.tpr_hat, sim.tnr_hat, clip=False)
    ests = {
        "naive": p,
        "calibration_only": y_bar,
        "difference": p + y_bar - p_cal,
        "conditional": ppv * p + fomr * (1 - p),
        "rogan_gladen": rg,
        "ppi++": ppi_tuned,
    }
    out = {"theta_cal": tq}
    out.update({k: np.nanmean(v, axis=0) - theta_test for k, v in ests.items()})
    out["mcse_rogan_gladen"] = np.nanstd(rg, axis=0) / np.sqrt(np.sum(~np.isnan(rg), axis=0))
    return pd.DataFrame(out)
