"""One estimator's estimate of theta: :class:`PrevalenceEstimate`, and the naive estimate alone.

:func:`~regression.single_judge.estimators.estimate_prevalence` builds one
:class:`PrevalenceEstimate` per method (PPI++, Rogan-Gladen, naive) from the
count tables of :mod:`regression.single_judge.tables`; each recomputes its
interval at any level from those counts (:meth:`PrevalenceEstimate.bounds`)
and says what it covers (:data:`COVERS`). :func:`naive_estimate` is the
judge's valid-rate alone, which needs no calibration.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.intervals import (
    ConfidenceInterval,
    OneEstimate,
    normal_bounds,
    wald_interval,
    wilson_interval,
)
from regression.registry import BOUNDED_INTERVAL_METHODS
from regression.single_judge.ppi import ppi_binary_bounded
from regression.single_judge.rogan_gladen import rg_interval
from regression.single_judge.tables import CalibrationTable, JudgeCounts, as_judge_counts

__all__ = [
    "COVERS",
    "ESTIMAND",
    "PPI_BETTING_COVERS",
    "PPI_NORMAL_COVERS",
    "PrevalenceEstimate",
    "naive_estimate",
]

#: What randomness each method's interval covers (Fiedler section 7, item 4).
COVERS = {
    "naive": (
        "test sampling only; ignores judge error, so it targets the judge's valid-rate p, "
        "not theta (Lee eq. 13)"
    ),
    "rogan-gladen": (
        "test sampling and calibration sampling (given m0, m1); assumes the judge's TPR/TNR "
        "are the same on calibration and test items (Lee eq. 18)"
    ),
    "ppi++": (
        "which items carry a human label: the human valid-rate of the test items (the normal "
        "interval on the rectifier, floored where the labels show no judge error: "
        "docs/intervals.md); assumes the calibration items are a random sample of the "
        "calibration and test items together (model-specific calibration; Lee Table 2 (iii))"
    ),
}

#: What PPI++'s betting interval (``interval_method="betting"``) covers.
PPI_BETTING_COVERS = (
    "which items carry a human label: the human valid-rate of the test items, at any "
    "calibration size (a betting interval on the bounded rectifier); assumes the "
    "calibration items are a random sample of the calibration and test items together "
    "(model-specific calibration; Lee Table 2 (iii))"
)

#: What PPI++'s normal interval (``interval_method="normal"``) covers, with its caveat.
PPI_NORMAL_COVERS = (
    "test sampling and calibration sampling, asymptotically (CLT); assumes the calibration "
    "items are a random sample of the test distribution (Lee Table 2 (iii)); from few labels "
    "the sample variance can miss the judge's rare errors and the interval undercover"
)

#: The index of :meth:`SingleJudgeResult.interval`'s one row: the human valid-rate on the test items.
ESTIMAND = "theta"

_NAIVE_INTERVALS = ("wilson", "wald")


@dataclass(frozen=True)
class PrevalenceEstimate(OneEstimate):
    """One estimator's estimate of theta (the human valid-rate on the test distribution).

    Attributes
    ----------
    method : {'naive', 'rogan-gladen', 'ppi++'}
    estimate : float
        The point estimate (NaN for Rogan-Gladen when J <= 0).
    se : float
        Its standard error (naive: binomial; RG: Lee eq. 15; PPI++: CLT).
    test : JudgeCounts
        The judge's test counts.
    calibration : CalibrationTable or None
        The calibration table (None for the naive estimate).
    alpha, alternative
        The level and sidedness asked for, kept on the result.
    lam : float or None
        PPI++'s power-tuning weight.
    naive_interval : {'wilson', 'wald'}
        The naive estimate's interval.
    interval_method : {'floored', 'betting', 'normal'}
        PPI++'s interval: the engine's floored (default) or betting one, or the CLT's.
    seed : int
        The order in which PPI++'s betting interval sees the calibration items.
    calibration_in_test : bool
        The calibration items are a random draw from the test items (PPI++'s
        bounded interval then bounds all test items' human valid rate).
    """

    method: str
    estimate: float
    se: float
    test: JudgeCounts
    calibration: CalibrationTable | None = None
    alpha: float = 0.05
    alternative: str = "two-sided"
    lam: float | None = None
    naive_interval: str = "wilson"
    interval_method: str = BOUNDED_INTERVAL_METHODS[0]
    seed: int = 0
    calibration_in_test: bool = False

    warnings: ClassVar[tuple[str, ...]] = ()
    ESTIMAND: ClassVar[str] = ESTIMAND

    @property
    def covers(self) -> str:
        """The randomness the interval accounts for."""
        if self.method == "ppi++" and self.interval_method == "normal":
            return PPI_NORMAL_COVERS
        if self.method == "ppi++" and self.interval_method == "betting":
            return PPI_BETTING_COVERS
        return COVERS[self.method]

    @property
    def name(self) -> str:
        """The method, with PPI++'s interval: ``"ppi++ (floored interval)"``."""
        if self.method == "ppi++":
            return f"ppi++ ({self.interval_method} interval)"
        return self.method

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"Estimate of theta ({self.name})"

    def diagnostics(self) -> pd.DataFrame:
        """One row: test items judged and dropped, the standard error and PPI++'s lam (NaN for the others)."""
        return pd.DataFrame(
            {
                "n": [self.test.n],
                "n_dropped": [self.test.n_dropped],
                "se": [self.se],
                "lam": [np.nan if self.lam is None else self.lam],
            }
        )

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The interval at level ``1 - alpha``, recomputed from the counts; clipped to [0, 1].

        naive: Wilson (default) or Wald on k / n; Rogan-Gladen: Lee et al.
        eqs. (8)-(12) (:func:`regression.single_judge.rogan_gladen.rg_interval`); PPI++:
        the bounded interval of :func:`regression.single_judge.ppi.ppi_binary_bounded`
        (``interval_method="floored"`` or ``"betting"``) or estimate -/+ z * se (``"normal"``).
        """
        t = self.test
        if self.method == "naive":
            fn = wilson_interval if self.naive_interval == "wilson" else wald_interval
            low, high = fn(t.k, t.n, alpha, alternative)
        elif self.method == "rogan-gladen":
            c = self._table()
            if c.missing_class:  # TPR or TNR unknown: theta is anywhere
                return ConfidenceInterval(0.0, 1.0)
            low, high = rg_interval(
                t.p_hat, c.tpr, c.tnr, t.n, c.n_pos, c.n_neg, alpha, alternative=alternative
            )
        elif self.interval_method == "normal":
            low, high = normal_bounds(self.estimate, self.se, alpha, alternative)
        else:
            c = self._table()
            if c.m < 2:  # one label: PPI++ is undefined (NaN), theta anywhere
                return ConfidenceInterval(0.0, 1.0)
            _, (low, high) = ppi_binary_bounded(
                c.tp,
                c.fn,
                c.fp,
                c.tn,
                t.k,
                t.n,
                alpha,
                alternative,
                calibration_in_test=self.calibration_in_test,
                seed=self.seed,
                method=self.interval_method,
            )
        return ConfidenceInterval(float(low), float(high))

    def _table(self) -> CalibrationTable:
        if self.calibration is None:  # pragma: no cover - constructed only with a table
            raise ValueError(f"{self.method} needs a calibration table.")
        return self.calibration


def naive_estimate(
    test: Any,
    alpha: float = 0.05,
    *,
    interval: str = "wilson",
    alternative: str = "two-sided",
    judge: str = "judge",
) -> PrevalenceEstimate:
    """The naive estimate p-hat (fraction judged valid) with a Wilson or Wald interval.

    Parameters
    ----------
    test : JudgeCounts, judge labels (array / Series) or DataFrame with a ``judge`` column
        Missing labels are dropped and counted (``.test.n_dropped``).
    alpha : float
    interval : {'wilson', 'wald'}, keyword-only
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
    judge : str, keyword-only
        Column name when ``test`` is a DataFrame.

    Returns
    -------
    PrevalenceEstimate

    Notes
    -----
    Lee et al. eq. (3). It estimates p = P(judge says valid), which equals
    theta only for a perfect judge (eq. 13); reported for comparison, its
    interval covers test sampling only.

    Examples
    --------
    >>> res = naive_estimate([1, 0, 1, 1, None, 0, 1, 1, 0, 1])
    >>> round(res.estimate, 3), res.test.n, res.test.n_dropped
    (0.667, 9, 1)
    >>> res.interval().loc["theta", ["low", "high"]].round(3).tolist()
    [0.354, 0.879]
    """
    if interval not in _NAIVE_INTERVALS:
        raise ValueError(f"interval ({interval!r}) not recognized; must be 'wilson' or 'wald'.")
    counts = as_judge_counts(test, judge=judge)
    p = counts.p_hat
    return PrevalenceEstimate(
        "naive",
        p,
        float(np.sqrt(p * (1 - p) / counts.n)),
        counts,
        None,
        check_alpha(alpha),
        check_alternative(alternative),
        naive_interval=interval,
    )
