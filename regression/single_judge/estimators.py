"""The single-judge report: naive, Rogan-Gladen and PPI++ side by side, with J and warnings.

One LLM judge labelled every test item; on a calibration set, humans labelled
the items too. :func:`estimate_prevalence` turns label arrays (or a DataFrame
with ``human`` and ``judge`` columns for calibration, and judge labels for the
test set) into a :class:`SingleJudgeResult`: the chosen estimate and its
interval, what randomness that interval covers, the sizes n, m0, m1, the
judge's TPR, TNR and J with an interval, the three estimators side by side
(``summary()``, ``to_frame()``) and the warnings of Fiedler sections 4.4 / 7.

Nothing is lost silently: missing judge labels are dropped and counted (and
reported in the warnings); a judge no better than chance (J <= 0) is not an
error but gives a NaN Rogan-Gladen estimate, the interval [0, 1] and a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.intervals import (
    ConfidenceInterval,
    IntervalMixin,
    normal_bounds,
    wald_interval,
    wilson_interval,
)
from regression.single_judge.diagnostics import (
    LOW_J,
    YoudenJResult,
    judge_warnings,
    small_calibration_warnings,
    youden_j,
)
from regression.single_judge.ppi import ppi_binary_from_counts
from regression.single_judge.rogan_gladen import rg_estimate, rg_interval, rg_standard_error
from regression.single_judge.tables import (
    CalibrationTable,
    JudgeCounts,
    as_calibration_table,
    as_judge_counts,
)

__all__ = [
    "COVERS",
    "METHODS",
    "PrevalenceEstimate",
    "SingleJudgeResult",
    "estimate_prevalence",
    "naive_estimate",
]

METHODS = ("naive", "rogan-gladen", "ppi++")

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
        "test sampling and calibration sampling; assumes the calibration items are a random "
        "sample of the test distribution (model-specific calibration; Lee Table 2 (iii))"
    ),
}

_NAIVE_INTERVALS = ("wilson", "wald")


@dataclass(frozen=True)
class PrevalenceEstimate(IntervalMixin):
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
        Level and sidedness of :attr:`ci`.
    lam : float or None
        PPI++'s power-tuning weight.
    naive_interval : {'wilson', 'wald'}
        The naive estimate's interval.
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

    @property
    def covers(self) -> str:
        """The randomness the interval accounts for."""
        return COVERS[self.method]

    def _bounds(self, alpha: float, alternative: str) -> ConfidenceInterval:
        """The interval at level ``1 - alpha``, recomputed from the counts; clipped to [0, 1].

        naive: Wilson (default) or Wald on k / n; Rogan-Gladen: Lee et al.
        eqs. (8)-(12) (:func:`regression.single_judge.rogan_gladen.rg_interval`); PPI++:
        estimate -/+ z * se.
        """
        t = self.test
        if self.method == "naive":
            fn = wilson_interval if self.naive_interval == "wilson" else wald_interval
            low, high = fn(t.k, t.n, alpha, alternative)
        elif self.method == "rogan-gladen":
            c = self._table()
            low, high = rg_interval(
                t.p_hat, c.tpr, c.tnr, t.n, c.n_pos, c.n_neg, alpha, alternative=alternative
            )
        else:
            low, high = normal_bounds(self.estimate, self.se, alpha, alternative)
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
    >>> [round(b, 3) for b in res.ci]
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


@dataclass(frozen=True)
class SingleJudgeResult(IntervalMixin):
    """Single-judge estimate of theta: the chosen method, all three side by side, J and warnings.

    Attributes
    ----------
    method : str
        The method whose estimate :attr:`estimate` and :attr:`ci` report.
    naive, rogan_gladen, ppi : PrevalenceEstimate
        The three estimators.
    youden : YoudenJResult
        The judge's J (with an interval) on the calibration items.
    warnings : tuple of str
        Diagnostics (low J, J <= 0, dropped labels, clipping).
    """

    method: str
    naive: PrevalenceEstimate
    rogan_gladen: PrevalenceEstimate
    ppi: PrevalenceEstimate
    youden: YoudenJResult
    warnings: tuple[str, ...] = ()

    @property
    def primary(self) -> PrevalenceEstimate:
        return {"naive": self.naive, "rogan-gladen": self.rogan_gladen, "ppi++": self.ppi}[
            self.method
        ]

    @property
    def estimate(self) -> float:
        return self.primary.estimate

    @property
    def se(self) -> float:
        return self.primary.se

    @property
    def alpha(self) -> float:
        return self.primary.alpha

    @property
    def alternative(self) -> str:
        return self.primary.alternative

    @property
    def interval(self) -> ConfidenceInterval:
        """Alias of :attr:`ci`."""
        return self.ci

    @property
    def covers(self) -> str:
        return self.primary.covers

    @property
    def n(self) -> int:
        """Test items with a judge label."""
        return self.naive.test.n

    @property
    def n_dropped(self) -> int:
        """Test items dropped for a missing judge label."""
        return self.naive.test.n_dropped

    @property
    def calibration(self) -> CalibrationTable:
        return self.rogan_gladen._table()

    @property
    def m0(self) -> int:
        return self.calibration.n_neg

    @property
    def m1(self) -> int:
        return self.calibration.n_pos

    @property
    def tpr(self) -> float:
        return self.calibration.tpr

    @property
    def tnr(self) -> float:
        return self.calibration.tnr

    @property
    def youden_j(self) -> float:
        return self.calibration.youden_j

    def _bounds(self, alpha: float, alternative: str) -> ConfidenceInterval:
        """The primary method's interval."""
        return self.primary.confidence_interval(1 - alpha, alternative)

    def to_frame(self) -> pd.DataFrame:
        """One row per method: estimate, interval, SE, lam, covers (index: method)."""
        rows = []
        for est in (self.naive, self.rogan_gladen, self.ppi):
            low, high = est.ci
            rows.append(
                {
                    "method": est.method,
                    "estimate": est.estimate,
                    "ci_low": low,
                    "ci_high": high,
                    "se": est.se,
                    "lam": np.nan if est.lam is None else est.lam,
                    "covers": est.covers,
                }
            )
        return pd.DataFrame(rows).set_index("method")

    def summary(self) -> str:
        """A plain-text report: sizes, the judge's quality, the three estimators, warnings."""
        a = self.naive
        level = f"{100 * (1 - a.alpha):g}%"
        c = self.calibration
        j_low, j_high = self.youden.ci
        lines = [
            f"Single-judge estimate of theta ({level} intervals, {a.alternative})",
            f"  test: n = {self.n} judged ({self.n_dropped} dropped: missing judge label); "
            f"judge valid-rate {a.test.p_hat:.3f}",
            f"  calibration: m = {c.m} (m1 = {c.n_pos} human-valid, m0 = {c.n_neg} "
            f"human-invalid; {c.n_dropped} dropped)",
            f"  judge: TPR {c.tpr:.3f}, TNR {c.tnr:.3f}, J {c.youden_j:.3f} "
            f"[{j_low:.3f}, {j_high:.3f}]",
            "",
            f"  {'method':<14}{'estimate':>9}  {level + ' interval':<18}{'SE':>7}",
        ]
        for est in (self.naive, self.rogan_gladen, self.ppi):
            low, high = est.ci
            name = est.method + (" *" if est.method == self.method else "")
            extra = f"  (lam = {est.lam:.3f})" if est.lam is not None else ""
            lines.append(
                f"  {name:<14}{est.estimate:>9.3f}  [{low:.3f}, {high:.3f}]    {est.se:>7.3f}{extra}"
            )
        lines += ["", "  intervals cover:"]
        lines += [
            f"    {est.method}: {est.covers}" for est in (self.naive, self.rogan_gladen, self.ppi)
        ]
        lines.append(f"  (* = reported estimate: {self.method})")
        if self.warnings:
            lines += ["", "  warnings:"] + [f"    - {w}" for w in self.warnings]
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()


def estimate_prevalence(
    calibration: Any,
    test: Any,
    alpha: float = 0.05,
    *,
    method: str = "rogan-gladen",
    alternative: str = "two-sided",
    naive_interval: str = "wilson",
    low_j: float = LOW_J,
    human: str = "human",
    judge: str = "judge",
) -> SingleJudgeResult:
    """Estimate the true valid-rate theta from one judge: naive, Rogan-Gladen and PPI++ side by side.

    Parameters
    ----------
    calibration : DataFrame, CalibrationTable, or (human, judge) pair of label arrays
        Items labelled by both a human and the judge; a DataFrame needs the
        columns ``human`` and ``judge``. Labels: bool, 0/1 or
        ``"valid"``/``"invalid"``; missing judge labels are dropped and counted.
    test : judge labels (array / Series), DataFrame with a ``judge`` column, or JudgeCounts
        The judge's labels on the test items; missing ones are dropped and counted.
    alpha : float
        1 - confidence level.
    method : {'rogan-gladen', 'ppi++', 'naive'}, keyword-only
        Which estimate ``.estimate`` / ``.ci`` report (all three are computed).
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
    naive_interval : {'wilson', 'wald'}, keyword-only
    low_j : float, keyword-only
        J below this triggers the low-quality warning (default 0.3, see
        :data:`regression.single_judge.diagnostics.LOW_J`).
    human, judge : str, keyword-only
        Column names for DataFrame input.

    Returns
    -------
    SingleJudgeResult

    Raises
    ------
    ValueError
        Bad labels (named with their position), mismatched lengths, an empty
        calibration class (m0 = 0 or m1 = 0), no labelled test item, missing
        columns, or an unknown ``method`` / ``alternative`` / ``alpha``.

    Notes
    -----
    Rogan-Gladen: Lee et al. eq. (7) with the interval of eqs. (8)-(12).
    PPI++: Fiedler section 3.3 with power tuning (binary labels, computed
    from the 2 x 2 table; equal to :func:`regression.single_judge.ppi.ppi_mean` on the rows).
    Naive: eq. (3) with a Wilson interval. The interval covers what
    :attr:`SingleJudgeResult.covers` says. RG stays unbiased when the test
    prevalence differs from the calibration prevalence (Lee section 8); PPI++
    needs calibration items drawn like the test items but degrades gracefully
    as J -> 0 (Fiedler App. A.1).

    Examples
    --------
    >>> import pandas as pd
    >>> cal = pd.DataFrame({"human": [1] * 50 + [0] * 50,
    ...                     "judge": [1] * 45 + [0] * 5 + [1] * 15 + [0] * 35})
    >>> res = estimate_prevalence(cal, test=[1] * 540 + [0] * 460)
    >>> round(res.estimate, 3), res.m1, res.m0, round(res.youden_j, 2)
    (0.4, 50, 50, 0.6)
    >>> [round(b, 3) for b in res.ci]
    [0.237, 0.543]
    """
    if method not in METHODS:
        raise ValueError(
            f"method ({method!r}) not recognized; must be 'rogan-gladen', 'ppi++' or 'naive'."
        )
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    table = as_calibration_table(calibration, human=human, judge=judge)
    naive = naive_estimate(
        test, alpha, interval=naive_interval, alternative=alternative, judge=judge
    )
    counts = naive.test
    rg_est = rg_estimate(counts.p_hat, table.tpr, table.tnr)
    rg_se = rg_standard_error(
        counts.p_hat, table.tpr, table.tnr, counts.n, table.n_pos, table.n_neg
    )
    rg = PrevalenceEstimate(
        "rogan-gladen",
        rg_est,
        rg_se,
        counts,
        table,
        alpha,
        alternative,
        naive_interval=naive_interval,
    )
    ppi_est, ppi_se, lam = ppi_binary_from_counts(
        table.tp, table.fn, table.fp, table.tn, counts.k, counts.n
    )
    ppi = PrevalenceEstimate(
        "ppi++",
        float(ppi_est),
        float(ppi_se),
        counts,
        table,
        alpha,
        alternative,
        lam=float(lam),
        naive_interval=naive_interval,
    )
    j = youden_j(table, alpha)
    notes = judge_warnings(j, low_j=low_j)
    if table.youden_j > 0:
        raw = (counts.p_hat + table.tnr - 1) / table.youden_j
        if not 0 <= raw <= 1:
            notes.append(
                f"the Rogan-Gladen ratio {raw:.3f} fell outside [0, 1] and was clipped to "
                f"{rg_est:.0f}: the judge's test valid-rate {counts.p_hat:.3f} lies outside "
                f"[1 - TNR, TPR] = [{1 - table.tnr:.3f}, {table.tpr:.3f}]."
            )
    notes += small_calibration_warnings(table)
    if counts.n_dropped:
        notes.append(
            f"{counts.n_dropped} test item(s) with a missing judge label were dropped "
            f"({counts.n} used)."
        )
    if table.n_dropped:
        notes.append(
            f"{table.n_dropped} calibration item(s) with a missing judge label were dropped "
            f"({table.m} used)."
        )
    return SingleJudgeResult(method, naive, rg, ppi, j, tuple(notes))
