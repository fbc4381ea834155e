"""The single-judge report: PPI++, Rogan-Gladen and naive side by side, with J and warnings.

One LLM judge labelled every test item; on a calibration set, humans labelled
the items too. :func:`estimate_prevalence` turns label arrays (or a DataFrame
with ``human`` and ``judge`` columns for calibration, and judge labels for the
test set) into a :class:`SingleJudgeResult`: the chosen estimate (by default
PPI++ with the engine's bounded interval, the narrowest that holds at any
calibration size) and its interval, what randomness that interval covers, the sizes n, m0, m1, the
judge's TPR, TNR and J with an interval, the three estimators side by side
(``summary()``, ``to_frame()``, ``interval()``: the result contract of
:mod:`regression.results`) and the warnings of Fiedler sections 4.4 / 7.

Nothing is lost silently: missing judge labels are dropped and counted (and
reported in the warnings); a judge no better than chance (J <= 0) is not an
error but gives a NaN Rogan-Gladen estimate, the interval [0, 1] and a warning.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.intervals import ConfidenceInterval, OneEstimate, wilson_interval
from regression.registry import (
    BOUNDED_INTERVAL_METHODS,
    SINGLE_JUDGE_DEFAULT,
    SINGLE_JUDGE_METHODS,
)
from regression.settings import Options, check_params
from regression.single_judge.diagnostics import (
    LOW_J,
    YoudenJResult,
    judge_warnings,
    small_calibration_warnings,
    youden_j,
)
from regression.single_judge.ppi import ppi_binary_bounded, ppi_binary_from_counts
from regression.single_judge.prevalence import ESTIMAND, PrevalenceEstimate, naive_estimate
from regression.single_judge.rogan_gladen import rg_estimate, rg_standard_error
from regression.single_judge.tables import CalibrationTable, as_calibration_table

__all__ = [
    "METHODS",
    "SingleJudgeResult",
    "estimate_prevalence",
]

#: The methods of :func:`estimate_prevalence` (:data:`regression.registry.SINGLE_JUDGE_METHODS`).
METHODS = tuple(SINGLE_JUDGE_METHODS)


def _rate_bounds(k: int, n: int, alpha: float, alternative: str) -> ConfidenceInterval:
    """Wilson's interval for ``k / n``; [0, 1] for a class with no item (the rate is anywhere)."""
    if n == 0:
        return ConfidenceInterval(0.0, 1.0)
    low, high = wilson_interval(k, n, alpha, alternative)
    return ConfidenceInterval(float(low), float(high))


def _unclipped_rg_ratio(p_hat: float, tpr: float, tnr: float) -> float:
    """``(p_hat + TNR - 1) / J`` before Rogan-Gladen clips it to [0, 1]; NaN when J <= 0."""
    j = tpr + tnr - 1
    return float((p_hat + tnr - 1) / j) if j > 0 else float("nan")


@dataclass(frozen=True)
class SingleJudgeResult(OneEstimate):
    """Single-judge estimate of theta: the chosen method, all three side by side, J and warnings.

    It answers the result contract of :mod:`regression.results`: :meth:`interval`
    (one row, indexed by the estimand ``"theta"``), :attr:`covers`,
    :attr:`method`, :attr:`warnings`, :meth:`to_frame`, :meth:`summary` and
    :meth:`diagnostics` (:class:`~regression.results.Result`); :meth:`estimators`
    is the three estimators side by side, and :meth:`bounds` the chosen
    method's interval as a ``(low, high)`` pair.

    Attributes
    ----------
    method : str
        The method whose estimate :attr:`estimate` and :meth:`interval` report.
    naive, rogan_gladen, ppi : PrevalenceEstimate
        The three estimators.
    youden : YoudenJResult
        The judge's J (with an interval) on the calibration items.
    warnings : tuple of str
        Diagnostics (low J, J <= 0, dropped labels, clipping, a calibration
        set too small for PPI++'s variance).
    """

    method: str
    naive: PrevalenceEstimate
    rogan_gladen: PrevalenceEstimate
    ppi: PrevalenceEstimate
    youden: YoudenJResult
    warnings: tuple[str, ...] = ()

    ESTIMAND: ClassVar[str] = ESTIMAND
    ESTIMATES: ClassVar[str] = "estimate"

    @property
    def all_estimates(
        self,
    ) -> tuple[PrevalenceEstimate, PrevalenceEstimate, PrevalenceEstimate]:
        """The three estimators, in the order every table shows them."""
        return (self.naive, self.rogan_gladen, self.ppi)

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"Single-judge estimate of theta ({self.primary.name})"

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
    def covers(self) -> str:
        """What the chosen method's interval accounts for."""
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

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """The chosen method's interval (:meth:`PrevalenceEstimate.bounds`)."""
        return self.primary.bounds(alpha, alternative)

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """The chosen method's standard error and lam (NaN but for PPI++)."""
        lam = np.nan if self.primary.lam is None else self.primary.lam
        return pd.DataFrame({"se": [self.se], "lam": [lam]}, index=[ESTIMAND])

    def estimators(self, alpha: float = 0.05) -> pd.DataFrame:
        """One row per estimator (index: method): estimate, interval, SE, lam, covers.

        The intervals are at level ``1 - alpha`` with the sidedness the result
        was fitted with (:attr:`alternative`); ``lam`` is PPI++'s weight (NaN
        for the others).
        """
        alpha = check_alpha(alpha)
        rows = []
        for est in self.all_estimates:
            low, high = est.bounds(alpha, self.alternative)
            rows.append(
                {
                    "method": est.method,
                    "estimate": est.estimate,
                    "low": low,
                    "high": high,
                    "se": est.se,
                    "lam": np.nan if est.lam is None else est.lam,
                    "covers": est.covers,
                }
            )
        return pd.DataFrame(rows).set_index("method")

    def judge_quality(self, alpha: float = 0.05) -> pd.DataFrame:
        """The judge's TPR, TNR (Wilson intervals) and J (Agresti-Caffo) on the calibration items.

        Index: ``quantity`` (``tpr``, ``tnr``, ``youden_j``); columns
        ``estimate, low, high, n`` (the calibration items behind each).
        """
        alpha = check_alpha(alpha)
        c = self.calibration
        tpr_low, tpr_high = _rate_bounds(c.tp, c.n_pos, alpha, self.alternative)
        tnr_low, tnr_high = _rate_bounds(c.tn, c.n_neg, alpha, self.alternative)
        j_low, j_high = self.youden.bounds(alpha, self.alternative)
        return pd.DataFrame(
            {
                "estimate": [c.tpr, c.tnr, c.youden_j],
                "low": [float(tpr_low), float(tnr_low), j_low],
                "high": [float(tpr_high), float(tnr_high), j_high],
                "n": [c.n_pos, c.n_neg, c.m],
            },
            index=pd.Index(["tpr", "tnr", "youden_j"], name="quantity"),
        )

    def diagnostics(self) -> pd.DataFrame:
        """One row: the sizes, the judge's quality and whether Rogan-Gladen was clipped.

        Columns ``n`` (test items judged), ``n_dropped`` (test items without a
        judge label), ``m0``, ``m1``, ``m_dropped`` (calibration items without
        a judge label), ``tpr``, ``tnr``, ``youden_j`` with ``youden_j_low`` /
        ``youden_j_high`` (its interval at the result's own level),
        ``rg_ratio`` (the Rogan-Gladen ratio before clipping to [0, 1]; NaN
        when J <= 0) and ``rg_clipped``.
        """
        c = self.calibration
        ratio = _unclipped_rg_ratio(self.naive.test.p_hat, c.tpr, c.tnr)
        j_low, j_high = self.youden.bounds(self.youden.alpha, self.youden.alternative)
        return pd.DataFrame(
            {
                "n": [self.n],
                "n_dropped": [self.n_dropped],
                "m0": [c.n_neg],
                "m1": [c.n_pos],
                "m_dropped": [c.n_dropped],
                "tpr": [c.tpr],
                "tnr": [c.tnr],
                "youden_j": [c.youden_j],
                "youden_j_low": [j_low],
                "youden_j_high": [j_high],
                "rg_ratio": [ratio],
                "rg_clipped": [bool(np.isfinite(ratio) and not 0 <= ratio <= 1)],
            }
        )

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The sizes, the level and what each estimator's interval covers."""
        c = self.calibration
        notes = [
            f"test: n = {self.n} judged ({self.n_dropped} dropped: missing judge label); "
            f"judge valid-rate {self.naive.test.p_hat:.3f}.",
            f"calibration: m = {c.m} (m1 = {c.n_pos} human-valid, m0 = {c.n_neg} "
            f"human-invalid; {c.n_dropped} dropped).",
            f"{1 - alpha:.0%} intervals ({self.alternative}); reported estimate: "
            f"{self.primary.name}.",
        ]
        notes += [f"{est.name} covers {est.covers}." for est in self.all_estimates]
        return tuple(notes)

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The three estimators side by side, the judge's quality and the :meth:`diagnostics`."""
        return {
            "estimators": self.estimators(alpha).drop(columns="covers"),
            "judge": self.judge_quality(alpha),
            "diagnostics": self.diagnostics(),
        }

    def __str__(self) -> str:
        return str(self.summary(self.alpha))


def estimate_prevalence(
    calibration: Any,
    test: Any,
    alpha: float = 0.05,
    *,
    method: str = SINGLE_JUDGE_DEFAULT,
    alternative: str = "two-sided",
    naive_interval: str = "wilson",
    interval_method: str = BOUNDED_INTERVAL_METHODS[0],
    calibration_in_test: bool = False,
    seed: int = 0,
    low_j: float = LOW_J,
    human: str = "human",
    judge: str = "judge",
) -> SingleJudgeResult:
    """Estimate the true valid-rate theta from one judge: PPI++, Rogan-Gladen and naive side by side.

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
    method : {'ppi++', 'rogan-gladen', 'naive'}, keyword-only
        Which estimate ``.estimate`` / ``.interval()`` report (all three are
        computed); default PPI++
        (:data:`regression.registry.SINGLE_JUDGE_DEFAULT`).
        Rogan-Gladen needs calibration items of both human classes; PPI++ and
        naive need none of the second (with an empty class Rogan-Gladen is NaN
        beside them, its interval [0, 1]).
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
    naive_interval : {'wilson', 'wald'}, keyword-only
    interval_method : {'floored', 'betting', 'normal'}, keyword-only
        PPI++'s interval (:data:`regression.registry.BOUNDED_INTERVAL_METHODS`,
        docs/intervals.md): ``"floored"`` (default), the engine's normal
        interval with each side at least the shift of a share of items the
        labels may have missed; ``"betting"``, the engine's betting interval,
        which holds at any calibration size whatever the judge's errors (both
        with the estimate clipped to [0, 1]); ``"normal"``, estimate -/+ z * SE, which can undercover from
        few labels when the judge's errors are rare (the sample may hold none).
    calibration_in_test : bool, keyword-only
        The calibration items are a uniform random draw from the test items,
        whose judge labels ``test`` holds too (one set of judged items, a
        random part of it labelled by humans): the bounded interval is then
        for all test items' human valid rate, narrower by the share already
        labelled. Default: two sets, the calibration items drawn like the test
        items but apart from them. Only the bounded interval uses it.
    seed : int, keyword-only
        The order in which the betting interval sees the calibration items.
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
        calibration class (m0 = 0 or m1 = 0) with ``method="rogan-gladen"``
        (named), no calibration or test item, missing columns, or an unknown
        ``method`` / ``alternative`` / ``alpha``.

    Notes
    -----
    PPI++: Fiedler section 3.3 with power tuning (binary labels, computed
    from the 2 x 2 table; equal to :func:`regression.single_judge.ppi.ppi_mean` on the rows),
    with the bounded interval of :func:`regression.single_judge.ppi.ppi_binary_bounded`
    for the test items' human valid-rate.
    Rogan-Gladen: Lee et al. eq. (7) with the interval of eqs. (8)-(12).
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
    >>> res.method, round(res.estimate, 3), res.m1, res.m0, round(res.youden_j, 2)
    ('ppi++', 0.467, 50, 50, 0.6)
    >>> res.interval().loc["theta", ["low", "high"]].round(3).tolist()
    [0.381, 0.544]
    >>> rg = estimate_prevalence(cal, test=[1] * 540 + [0] * 460, method="rogan-gladen")
    >>> round(rg.estimate, 3), rg.interval().loc["theta", ["low", "high"]].round(3).tolist()
    (0.4, [0.237, 0.543])
    """
    check_params(
        "estimate_prevalence",
        {"method": method, "interval_method": interval_method},
        {"method": [Options(METHODS)], "interval_method": [Options(BOUNDED_INTERVAL_METHODS)]},
    )
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    table = as_calibration_table(calibration, human=human, judge=judge)
    if method == "rogan-gladen":
        table.require_both_classes(
            "rogan-gladen", otherwise=", or choose method 'ppi++' or 'naive', which need none"
        )
    naive = naive_estimate(
        test, alpha, interval=naive_interval, alternative=alternative, judge=judge
    )
    counts = naive.test
    if table.missing_class:
        rg_est = rg_se = float("nan")
    else:
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
    ppi_value = float(ppi_est)
    if interval_method != "normal" and table.m >= 2:  # the estimate clipped to [0, 1]
        ppi_value, _ = ppi_binary_bounded(
            table.tp,
            table.fn,
            table.fp,
            table.tn,
            counts.k,
            counts.n,
            alpha,
            alternative,
            calibration_in_test=calibration_in_test,
            seed=seed,
        )
    ppi = PrevalenceEstimate(
        "ppi++",
        ppi_value,
        float(ppi_se),
        counts,
        table,
        alpha,
        alternative,
        lam=float(lam),
        naive_interval=naive_interval,
        interval_method=interval_method,
        seed=seed,
        calibration_in_test=calibration_in_test,
    )
    j = youden_j(table, alpha)
    notes = judge_warnings(j, low_j=low_j)
    raw = _unclipped_rg_ratio(counts.p_hat, table.tpr, table.tnr)
    if np.isfinite(raw) and not 0 <= raw <= 1:
        notes.append(
            f"the Rogan-Gladen ratio {raw:.3f} fell outside [0, 1] and was clipped to "
            f"{rg_est:.0f}: the judge's test valid-rate {counts.p_hat:.3f} lies outside "
            f"[1 - TNR, TPR] = [{1 - table.tnr:.3f}, {table.tpr:.3f}]."
        )
    notes += small_calibration_warnings(table)
    if counts.n_dropped:
        notes.append(
            f"{counts.n_dropped:,} test item(s) with a missing judge label were dropped "
            f"({counts.n:,} used)."
        )
    if table.n_dropped:
        notes.append(
            f"{table.n_dropped:,} calibration item(s) with a missing judge label were dropped "
            f"({table.m} used)."
        )
    return SingleJudgeResult(method, naive, rg, ppi, j, tuple(notes))
