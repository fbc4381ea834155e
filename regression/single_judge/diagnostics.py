"""Judge-quality diagnostics: Youden's J, the cross-model gap Delta J, and the warnings they raise.

Fiedler, *Bias and Uncertainty in LLM-as-a-Judge Estimation*: corrected
estimates are only as trustworthy as the judge. Two questions come before any
estimator choice (section 4.4):

1. Is judge quality J = TPR + TNR - 1 large enough for stable corrected
   estimates? RG's variance scales as 1/J^2 (App. B), so a low J calls for
   weaker claims whatever the estimator (section 7, item 7).
2. For shared-calibration comparisons: is Delta J = J_A - J_B small relative
   to its uncertainty? A Delta J interval that excludes 0 says shared
   calibration is not defensible (Table 1; section 7, item 6). Including 0 is
   necessary, not sufficient.

And a third caution: near-tie comparisons stay fragile even when Delta J
looks small, because modest residual bias can create a spuriously directional
estimate (sections 4.4 and 6.1).

The warning texts produced here are what :mod:`regression.single_judge.estimators` and
:mod:`regression.single_judge.comparison` attach to their results.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from regression.checks import SeedLike, check_alpha, check_alternative
from regression.intervals import ConfidenceInterval, OneEstimate, normal_bounds
from regression.single_judge.bootstrap import BootstrapInterval, BootstrapResult, count_bootstrap
from regression.single_judge.ppi import PPI_MIN_PER_CLASS
from regression.single_judge.tables import CalibrationTable, as_calibration_table

__all__ = [
    "LOW_J",
    "NEAR_TIE",
    "DeltaJResult",
    "YoudenJResult",
    "delta_j_warnings",
    "delta_youden_j",
    "judge_warnings",
    "near_tie_warnings",
    "small_calibration_warnings",
    "youden_j",
]

#: Default threshold below which J is called low. Fiedler section 5 takes J_A = 0.3 as the
#: low-quality anchor at which naive and shared-calibration RG already fail; the MMLU-Pro
#: judges called "moderate" have J of about 0.4 to 0.67 (Tables 1 and 3).
LOW_J = 0.3
#: Default |Delta theta| below which a comparison is called a near tie (Fiedler section 5
#: simulates a true gap of 0.05; section 6.1's near tie is +0.003).
NEAR_TIE = 0.05


@dataclass(frozen=True)
class YoudenJResult(OneEstimate):
    """Youden's J of one judge (on one model's calibration items) with an interval.

    Attributes
    ----------
    estimate : float
        J-hat = TPR-hat + TNR-hat - 1.
    tpr, tnr : float
        q1-hat and q0-hat.
    n_pos, n_neg : int
        m1 and m0.
    alpha, alternative
        The level and sidedness asked for, kept on the result.
    """

    estimate: float
    tpr: float
    tnr: float
    n_pos: int
    n_neg: int
    alpha: float = 0.05
    alternative: str = "two-sided"

    method: ClassVar[str] = "agresti-caffo"
    covers: ClassVar[str] = "calibration sampling given the class sizes m0, m1"
    warnings: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Youden's J of a judge"
    ESTIMAND: ClassVar[str] = "youden_j"

    def diagnostics(self) -> pd.DataFrame:
        """One row: ``tpr``, ``tnr``, ``m1``, ``m0`` and ``se``."""
        return pd.DataFrame(
            {
                "tpr": [self.tpr],
                "tnr": [self.tnr],
                "m1": [self.n_pos],
                "m0": [self.n_neg],
                "se": [self.se],
            }
        )

    @property
    def se(self) -> float:
        """Standard error at the adjusted rates q~ = (count + 1) / (m + 2) (Agresti and Caffo, 2000)."""
        q1, q0 = self._adjusted()
        return float(np.sqrt(q1 * (1 - q1) / (self.n_pos + 2) + q0 * (1 - q0) / (self.n_neg + 2)))

    def bounds(self, alpha: float = 0.05, alternative: str = "two-sided") -> ConfidenceInterval:
        """Agresti-Caffo interval for J = P(judge valid | valid) - P(judge valid | invalid), clipped to [-1, 1].

        Covers calibration sampling given the class sizes m0, m1. J is a
        difference of two independent proportions, and "add one success and
        one failure to each" (Agresti and Caffo, 2000; the adjustment Lee et
        al. eqs. (10)-(11) use) keeps near-nominal coverage in small samples.
        """
        if self.n_pos == 0 or self.n_neg == 0:  # a rate of an empty class: J is anywhere
            return ConfidenceInterval(-1.0, 1.0)
        q1, q0 = self._adjusted()
        low, high = normal_bounds(q1 + q0 - 1, self.se, alpha, alternative, limits=(-1.0, 1.0))
        return ConfidenceInterval(float(low), float(high))

    def _adjusted(self) -> tuple[float, float]:
        tp = self.tpr * self.n_pos
        tn = self.tnr * self.n_neg
        return (tp + 1) / (self.n_pos + 2), (tn + 1) / (self.n_neg + 2)


def youden_j(
    calibration: Any, alpha: float = 0.05, *, alternative: str = "two-sided"
) -> YoudenJResult:
    """Youden's J of a judge from its calibration data, with an Agresti-Caffo interval.

    Parameters
    ----------
    calibration : CalibrationTable, DataFrame (``human``, ``judge``) or (human, judge) pair
        Calibration items of one model (or pooled).
    alpha : float
        1 - the confidence level, kept on the result (``result.alpha``).
    alternative : {'two-sided', 'less', 'greater'}, keyword-only

    Returns
    -------
    YoudenJResult

    Notes
    -----
    Fiedler section 3.3 (the denominator of RG is J-hat), section 4.4 and
    Table 1 (J per model with a 95 % interval; Fiedler bootstraps it, here the
    closed-form Agresti-Caffo interval; :func:`delta_youden_j` bootstraps).
    With an empty human class J is NaN and its interval [-1, 1].

    Examples
    --------
    >>> from regression.single_judge.tables import CalibrationTable
    >>> res = youden_j(CalibrationTable(tp=80, fn=20, fp=30, tn=70))
    >>> round(res.estimate, 3), res.interval().loc["youden_j", ["low", "high"]].round(3).tolist()
    (0.5, [0.371, 0.609])
    """
    table = as_calibration_table(calibration)
    return YoudenJResult(
        table.youden_j,
        table.tpr,
        table.tnr,
        table.n_pos,
        table.n_neg,
        check_alpha(alpha),
        check_alternative(alternative),
    )


def _j_from_cells(cells: np.ndarray) -> np.ndarray:
    """J per replicate from ``(..., 4)`` cells ``(tp, fn, fp, tn)``; NaN where a class is empty."""
    tp, fn, fp, tn = (cells[..., i].astype(float) for i in range(4))
    m1, m0 = tp + fn, fp + tn
    ok = (m1 > 0) & (m0 > 0)
    tpr = np.divide(tp, m1, out=np.full(tp.shape, np.nan), where=ok)
    tnr = np.divide(tn, m0, out=np.full(tn.shape, np.nan), where=ok)
    return tpr + tnr - 1


@dataclass(frozen=True)
class DeltaJResult(BootstrapInterval):
    """Delta J = J_A - J_B with a bootstrap interval over calibration items.

    Attributes
    ----------
    estimate : float
        J-hat_A - J-hat_B.
    j_a, j_b : YoudenJResult
        The two models' J.
    bootstrap : BootstrapResult
        Replicates of Delta J (each table redrawn on its own, items with replacement);
        their percentile interval (:meth:`interval`) covers calibration sampling.
    """

    estimate: float
    j_a: YoudenJResult
    j_b: YoudenJResult
    bootstrap: BootstrapResult

    method: ClassVar[str] = "bootstrap"
    covers: ClassVar[str] = "calibration sampling (the bootstrap over calibration items)"
    warnings: ClassVar[tuple[str, ...]] = ()
    title: ClassVar[str] = "Delta J = J_A - J_B"
    ESTIMAND: ClassVar[str] = "delta_j"

    def diagnostics(self) -> pd.DataFrame:
        """One row: both J, the replicates and those undefined (a class empty in the redraw)."""
        return pd.DataFrame(
            {
                "j_a": [self.j_a.estimate],
                "j_b": [self.j_b.estimate],
                "n_boot": [self.bootstrap.n_boot],
                "n_invalid": [self.bootstrap.n_invalid],
            }
        )

    @property
    def excludes_zero(self) -> bool:
        """True when the interval excludes 0: shared calibration is not defensible (Fiedler section 4.4)."""
        low, high = self.bounds(self.alpha, self.alternative)
        return bool(low > 0 or high < 0)


def delta_youden_j(
    calibration_a: Any,
    calibration_b: Any,
    alpha: float = 0.05,
    *,
    n_boot: int = 10_000,
    seed: SeedLike = None,
    alternative: str = "two-sided",
) -> DeltaJResult:
    """Delta J = J_A - J_B between two models' calibration sets, with a bootstrap interval.

    Parameters
    ----------
    calibration_a, calibration_b : CalibrationTable, DataFrame or (human, judge) pair
        The judge's calibration data on model A's and on model B's responses.
    alpha : float
        1 - confidence level.
    n_boot : int, keyword-only
        Bootstrap replicates (multinomial redraws of each 2 x 2 table).
    seed : int, Generator, RandomState or None, keyword-only
    alternative : {'two-sided', 'less', 'greater'}, keyword-only

    Returns
    -------
    DeltaJResult

    Notes
    -----
    Fiedler section 4.4, Table 1 (Delta J with a 95 % bootstrap interval),
    App. C (Delta J drives the shared-calibration bias, see
    :func:`regression.single_judge.comparison.shared_calibration_bias`). The two tables are
    resampled independently (independent calibration samples); replicates in
    which a class comes out empty are NaN and widen the interval (``bootstrap.n_invalid``).
    The interval covers calibration sampling only, which is the relevant
    uncertainty for the diagnostic question (Fiedler section 8).

    Examples
    --------
    >>> from regression.single_judge.tables import CalibrationTable
    >>> a = CalibrationTable(tp=50, fn=50, fp=40, tn=60)   # J_A = 0.1
    >>> b = CalibrationTable(tp=80, fn=20, fp=20, tn=80)   # J_B = 0.6
    >>> res = delta_youden_j(a, b, n_boot=2000, seed=0)
    >>> round(res.estimate, 3), res.excludes_zero
    (-0.5, True)
    """
    table_a = as_calibration_table(calibration_a)
    table_b = as_calibration_table(calibration_b)
    table_a.require_both_classes("Delta J (model A)")
    table_b.require_both_classes("Delta J (model B)")
    boot = count_bootstrap(
        lambda ca, cb: _j_from_cells(ca) - _j_from_cells(cb),
        [table_a.cells, table_b.cells],
        n_boot=n_boot,
        seed=seed,
        alpha=alpha,
        alternative=alternative,
        limits=(-2.0, 2.0),
    )
    return DeltaJResult(
        table_a.youden_j - table_b.youden_j,
        youden_j(table_a, alpha, alternative=alternative),
        youden_j(table_b, alpha, alternative=alternative),
        boot,
    )


def judge_warnings(j: YoudenJResult, *, low_j: float = LOW_J, label: str = "judge") -> list[str]:
    """The single-judge warnings of Fiedler sections 4.4 and 7 (items 5 and 7) for one J.

    Returns the texts for: J-hat <= 0 (no better than chance: RG undefined,
    interval [0, 1]); J-hat below ``low_j`` (corrected estimates unstable);
    J's interval including 0; a calibration with an empty human class (J
    undefined). An empty list when none applies.

    Examples
    --------
    >>> from regression.single_judge.tables import CalibrationTable
    >>> for w in judge_warnings(youden_j(CalibrationTable(tp=12, fn=8, fp=9, tn=11))):
    ...     print(w)  # doctest: +ELLIPSIS
    low judge quality: J = 0.150 < 0.3 ... weaken the claim (Fiedler 4.4, 7).
    judge's J interval [-0.156, 0.429] includes 0: the judge may be no better than chance.
    """
    out: list[str] = []
    if j.n_pos == 0 or j.n_neg == 0:
        empty = "human-valid (m1 = 0)" if j.n_pos == 0 else "human-invalid (m0 = 0)"
        return [
            f"{label}'s J cannot be estimated: the calibration has no {empty} item; "
            "Rogan-Gladen is undefined and its interval is [0, 1]."
        ]
    low, high = j.bounds(j.alpha)
    if j.estimate <= 0:
        out.append(
            f"{label} no better than chance: J = {j.estimate:.3f} <= 0 (TPR {j.tpr:.3f}, "
            f"TNR {j.tnr:.3f}); Rogan-Gladen is undefined and its interval is [0, 1]."
        )
    elif j.estimate < low_j:
        out.append(
            f"low judge quality: J = {j.estimate:.3f} < {low_j:g} ({label}); corrected "
            "estimates are unstable (RG variance grows as 1/J^2): weaken the claim (Fiedler 4.4, 7)."
        )
    if j.estimate > 0 and low <= 0:
        out.append(
            f"{label}'s J interval [{low:.3f}, {high:.3f}] includes 0: the judge may be no "
            "better than chance."
        )
    return out


def delta_j_warnings(delta_j: DeltaJResult, *, labels: tuple[str, str] = ("A", "B")) -> list[str]:
    """The Delta J warning of Fiedler section 4.4 / 7 item 6: its interval excludes 0.

    Examples
    --------
    >>> from regression.single_judge.tables import CalibrationTable
    >>> a = CalibrationTable(tp=50, fn=50, fp=40, tn=60)
    >>> b = CalibrationTable(tp=80, fn=20, fp=20, tn=80)
    >>> delta_j_warnings(delta_youden_j(a, b, n_boot=2000, seed=0))[0][:45]
    'Delta J = J_A - J_B = -0.500, interval [-0.7'
    """
    low, high = delta_j.bounds(delta_j.alpha, delta_j.alternative)
    if not delta_j.excludes_zero:
        return []
    a, b = labels
    return [
        f"Delta J = J_{a} - J_{b} = {delta_j.estimate:.3f}, interval [{low:.3f}, {high:.3f}] "
        "excludes 0: the judge is not equally good on both models, so shared calibration is "
        "not defensible; use model-specific calibration (Fiedler 4.4, 7)."
    ]


def near_tie_warnings(
    estimates: dict[str, float], *, near_tie: float = NEAR_TIE, reference: str | None = None
) -> list[str]:
    """Near-tie and direction warnings for a comparison Delta theta (Fiedler sections 4.4, 6.1).

    Parameters
    ----------
    estimates : dict of method name -> Delta theta estimate
        The comparison estimates side by side (NaN entries ignored).
    near_tie : float
        |Delta theta| below this, for the ``reference`` estimate, is a near tie.
    reference : str or None
        The estimate judged for the near tie (default: the first finite one).

    Examples
    --------
    >>> near_tie_warnings({"ppi++": 0.01, "rg-shared": -0.08})[0][:40]
    'near-tie comparison: Delta theta = 0.010'
    """
    finite = {k: v for k, v in estimates.items() if np.isfinite(v)}
    out: list[str] = []
    if not finite:
        return out
    ref = reference if reference in finite else next(iter(finite))
    if abs(finite[ref]) < near_tie:
        out.append(
            f"near-tie comparison: Delta theta = {finite[ref]:.3f} ({ref}) is within "
            f"{near_tie:g} of 0; modest residual bias can create a spurious direction "
            "(Fiedler 4.4, 6.1)."
        )
    signs = {np.sign(v) for v in finite.values() if v != 0}
    if len(signs) > 1:
        listed = ", ".join(f"{k} {v:+.3f}" for k, v in finite.items())
        out.append(f"estimators disagree on the direction of Delta theta ({listed}).")
    return out


def small_calibration_warnings(table: CalibrationTable, *, label: str = "") -> list[str]:
    """The PPI++ warning for a calibration table too small to estimate PPI++'s variance.

    Parameters
    ----------
    table : CalibrationTable
    label : str, keyword-only
        Whose calibration it is, for the text (e.g. ``"on model A"``).

    Returns
    -------
    list of str
        One text when ``m1`` or ``m0`` is below
        :data:`~regression.single_judge.ppi.PPI_MIN_PER_CLASS` (PPI++ then uses the worst-case rectifier variance, see
        :mod:`regression.single_judge.ppi`), else an empty list.

    Examples
    --------
    >>> from regression.single_judge import CalibrationTable
    >>> small_calibration_warnings(CalibrationTable(tp=1, fn=0, fp=0, tn=1))[0][:46]
    'PPI++ calibration has m1 = 1 human-valid and m'
    """
    if min(table.n_pos, table.n_neg) >= PPI_MIN_PER_CLASS:
        return []
    where = f" {label}" if label else ""
    return [
        f"PPI++ calibration{where} has m1 = {table.n_pos} human-valid and m0 = {table.n_neg} "
        f"human-invalid item(s), fewer than {PPI_MIN_PER_CLASS} in a class: too few to "
        "estimate how often the judge errs, so PPI++ uses the worst-case variance of its "
        "rectifier and its interval is the widest the labels allow; label more items."
    ]
