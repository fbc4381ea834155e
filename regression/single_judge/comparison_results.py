"""What a comparison of two models through one judge returns: the estimators side by side.

:func:`regression.single_judge.comparison.compare_models` builds a
:class:`ModelComparison`: Delta theta = theta_A - theta_B by the four
estimators of Fiedler section 6, Table 2 (one :class:`ComparisonEstimate`
each, with a bootstrap and a delta-method interval), Youden's J per model,
Delta J, and the warnings of sections 4.4 and 7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import pandas as pd

from regression.checks import check_alpha, check_alternative
from regression.intervals import ConfidenceInterval, normal_bounds
from regression.results import Result, interval_frame
from regression.single_judge.bootstrap import BootstrapInterval, BootstrapResult
from regression.single_judge.diagnostics import DeltaJResult, YoudenJResult
from regression.single_judge.tables import CalibrationTable, JudgeCounts, PairedJudgeTable

__all__ = [
    "COMPARISON_METHODS",
    "DELTA_THETA_LIMITS",
    "ComparisonEstimate",
    "ModelComparison",
]

#: The estimators of Delta theta, in the order a comparison reports them (Fiedler Table 2).
COMPARISON_METHODS = ("naive", "rg-shared", "rg-model-specific", "ppi++-model-specific")
#: Delta theta is a difference of two proportions: its intervals stay within these.
DELTA_THETA_LIMITS = (-1.0, 1.0)


@dataclass(frozen=True)
class ComparisonEstimate(BootstrapInterval):
    """One estimator of Delta theta = theta_A - theta_B.

    Attributes
    ----------
    method : str
        One of :data:`COMPARISON_METHODS`.
    estimate : float
        The plug-in estimate (difference of the per-model estimates; RG ones
        clipped to [0, 1]); NaN if a J <= 0 leaves RG undefined.
    se_delta : float
        Delta-method standard error.
    bootstrap : BootstrapResult
        Replicates over test items (paired) and calibration items (App. E.4).
    covers : str
        What randomness the intervals account for.
    """

    method: str
    estimate: float
    se_delta: float
    bootstrap: BootstrapResult
    covers: str

    warnings: ClassVar[tuple[str, ...]] = ()
    ESTIMAND: ClassVar[str] = "delta_theta"

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        return f"Delta theta ({self.method})"

    def diagnostics(self) -> pd.DataFrame:
        """One row: the delta-method SE, the bootstrap's median, replicates and undefined replicates."""
        return pd.DataFrame(
            {
                "se_delta": [self.se_delta],
                "boot_median": [self.bootstrap.median],
                "n_boot": [self.bootstrap.n_boot],
                "n_invalid_boot": [self.bootstrap.n_invalid],
            }
        )

    def bounds(
        self, alpha: float = 0.05, alternative: str = "two-sided", *, kind: str = "bootstrap"
    ) -> ConfidenceInterval:
        """The percentile bootstrap interval (``kind='bootstrap'``) or the delta-method one.

        ``kind='delta'`` gives ``estimate -/+ z se_delta`` within [-1, 1].
        """
        if kind == "bootstrap":
            return super().bounds(alpha, alternative)
        if kind != "delta":
            raise ValueError(f"kind ({kind!r}) not recognized; must be 'bootstrap' or 'delta'.")
        low, high = normal_bounds(
            self.estimate, self.se_delta, alpha, alternative, limits=DELTA_THETA_LIMITS
        )
        return ConfidenceInterval(float(low), float(high))


@dataclass(frozen=True)
class ModelComparison(Result):
    """Delta theta = theta_A - theta_B by four estimators, with J, Delta J and warnings.

    Attributes
    ----------
    estimates : tuple of ComparisonEstimate
        In the order of :data:`COMPARISON_METHODS`; also ``result["rg-shared"]``.
    delta_j : DeltaJResult
        J_A - J_B with its bootstrap interval (same calibration replicates).
    j_shared : YoudenJResult
        J on the shared calibration table.
    test_a, test_b : JudgeCounts
        Per-model test counts.
    paired_table : PairedJudgeTable or None
        The paired test table (None for independent test sets).
    calibration_a, calibration_b, calibration_shared : CalibrationTable
    shared_calibration : {'pooled', 'a', 'b'}
    labels : (str, str)
        Display names of A and B.
    alpha : float
    warnings : tuple of str
    """

    estimates: tuple[ComparisonEstimate, ...]
    delta_j: DeltaJResult
    j_shared: YoudenJResult
    test_a: JudgeCounts
    test_b: JudgeCounts
    paired_table: PairedJudgeTable | None
    calibration_a: CalibrationTable
    calibration_b: CalibrationTable
    calibration_shared: CalibrationTable
    shared_calibration: str
    labels: tuple[str, str]
    alpha: float
    warnings: tuple[str, ...] = ()

    method: ClassVar[str] = "comparison"
    covers: ClassVar[str] = (
        "each estimator's percentile bootstrap over the test items (paired where the design "
        "is) and the calibration items (Fiedler App. E.4)"
    )
    ESTIMATES: ClassVar[str] = "estimators"

    def __getitem__(self, method: str) -> ComparisonEstimate:
        for est in self.estimates:
            if est.method == method:
                return est
        raise KeyError(f"method ({method!r}) not recognized; must be one of {COMPARISON_METHODS}.")

    @property
    def paired(self) -> bool:
        return self.paired_table is not None

    @property
    def shared_minus_specific(self) -> float:
        """rg-shared minus rg-model-specific: the plug-in shared-calibration bias of App. C."""
        return self["rg-shared"].estimate - self["rg-model-specific"].estimate

    @property
    def title(self) -> str:
        """The title of :meth:`summary`."""
        a, b = self.labels
        return f"Comparison Delta theta = theta[{a}] - theta[{b}]"

    def interval(self, alpha: float = 0.05, *, alternative: str = "two-sided") -> pd.DataFrame:
        """Each estimator's percentile bootstrap interval for Delta theta, one row each (index ``estimator``).

        Raises
        ------
        ValueError
            ``alpha`` not strictly between 0 and 1, or an unknown ``alternative``.
        """
        alpha, alternative = check_alpha(alpha), check_alternative(alternative)
        bounds = [est.bounds(alpha, alternative) for est in self.estimates]
        return interval_frame(
            [est.method for est in self.estimates],
            [est.estimate for est in self.estimates],
            [b.low for b in bounds],
            [b.high for b in bounds],
            [est.method for est in self.estimates],
            index_name="estimator",
        )

    def details(self, alpha: float = 0.05) -> pd.DataFrame:
        """Per estimator: the bootstrap's median, the delta-method SE and interval, the undefined replicates."""
        delta = [est.bounds(alpha, kind="delta") for est in self.estimates]
        return pd.DataFrame(
            {
                "boot_median": [est.bootstrap.median for est in self.estimates],
                "se_delta": [est.se_delta for est in self.estimates],
                "delta_low": [d.low for d in delta],
                "delta_high": [d.high for d in delta],
                "n_invalid_boot": [est.bootstrap.n_invalid for est in self.estimates],
            },
            index=pd.Index([est.method for est in self.estimates], name="estimator"),
        )

    def diagnostics(self) -> pd.DataFrame:
        """Per model: its judge's J with its interval (the comparison's level) and the calibration items."""
        a, b = self.labels
        ja, jb = self.delta_j.j_a, self.delta_j.j_b
        a_low, a_high = ja.bounds(self.alpha, ja.alternative)
        b_low, b_high = jb.bounds(self.alpha, jb.alternative)
        return pd.DataFrame(
            {
                "J": [ja.estimate, jb.estimate],
                "low": [a_low, b_low],
                "high": [a_high, b_high],
                "m": [self.calibration_a.m, self.calibration_b.m],
            },
            index=pd.Index([a, b], name="model"),
        )

    def summary_tables(self, alpha: float, **options: Any) -> dict[str, pd.DataFrame]:
        """The judges (:meth:`diagnostics`)."""
        return {"judges": self.diagnostics()}

    def summary_notes(self, alpha: float, **options: Any) -> tuple[str, ...]:
        """The design, Delta J, the shared-calibration bias, the level and what each interval covers."""
        design = (
            f"paired test items (n = {self.paired_table.n}, "
            f"{self.paired_table.n_dropped:,} dropped for a missing judge label)"
            if self.paired_table is not None
            else f"independent test sets (n_A = {self.test_a.n}, n_B = {self.test_b.n})"
        )
        dj_low, dj_high = self.delta_j.bounds(self.delta_j.alpha, self.delta_j.alternative)
        notes = [
            f"design: {design}; shared calibration = {self.shared_calibration} "
            f"(m = {self.calibration_shared.m:,}, {self.calibration_shared.n_dropped:,} dropped "
            "for a missing judge label).",
            f"Delta J = {self.delta_j.estimate:+.3f} [{dj_low:+.3f}, {dj_high:+.3f}] "
            f"(bootstrap over calibration items, {1 - self.alpha:.0%}).",
            f"shared - model-specific RG = {self.shared_minus_specific:+.3f} "
            "(plug-in shared-calibration bias, Fiedler App. C).",
            f"{1 - alpha:.0%} intervals: percentile bootstrap (low, high) and delta method.",
        ]
        notes += [f"{est.method} interval covers {est.covers}." for est in self.estimates]
        return tuple(notes)

    def __str__(self) -> str:
        return str(self.summary(self.alpha))
