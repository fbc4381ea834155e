"""What a comparison of two models through one judge returns: the estimators side by side.

:func:`regression.single_judge.comparison.compare_models` builds a
:class:`ModelComparison`: Delta theta = theta_A - theta_B by the four
estimators of Fiedler section 6, Table 2 (one :class:`ComparisonEstimate`
each, with a bootstrap and a delta-method interval), Youden's J per model,
Delta J, and the warnings of sections 4.4 and 7.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from regression.checks import check_alpha
from regression.intervals import ConfidenceInterval, alpha_from_level, normal_bounds
from regression.results import Summary
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

    def confidence_interval(
        self,
        confidence_level: float = 0.95,
        alternative: str = "two-sided",
        *,
        kind: str = "bootstrap",
    ) -> ConfidenceInterval:
        """The percentile bootstrap interval (``kind='bootstrap'``) or the delta-method one.

        ``kind='delta'`` gives ``estimate -/+ z se_delta`` within [-1, 1].
        """
        if kind == "bootstrap":
            return super().confidence_interval(confidence_level, alternative)
        if kind != "delta":
            raise ValueError(f"kind ({kind!r}) not recognized; must be 'bootstrap' or 'delta'.")
        alpha = alpha_from_level(confidence_level)
        low, high = normal_bounds(
            self.estimate, self.se_delta, alpha, alternative, limits=DELTA_THETA_LIMITS
        )
        return ConfidenceInterval(float(low), float(high))


@dataclass(frozen=True)
class ModelComparison:
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

    def to_frame(self, alpha: float | None = None) -> pd.DataFrame:
        """One row per estimator: estimate, bootstrap interval, its median, delta-method SE and interval.

        Columns ``estimate, low, high`` (percentile bootstrap, as every
        ``interval()`` names them), ``boot_median``, ``se_delta``,
        ``delta_low, delta_high`` (delta method), ``n_invalid_boot``, ``covers``;
        ``alpha`` defaults to the comparison's own.
        """
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        rows = []
        for est in self.estimates:
            b_low, b_high = est.confidence_interval(1 - alpha)
            d_low, d_high = est.confidence_interval(1 - alpha, kind="delta")
            rows.append(
                {
                    "method": est.method,
                    "estimate": est.estimate,
                    "low": b_low,
                    "high": b_high,
                    "boot_median": est.bootstrap.median,
                    "se_delta": est.se_delta,
                    "delta_low": d_low,
                    "delta_high": d_high,
                    "n_invalid_boot": est.bootstrap.n_invalid,
                    "covers": est.covers,
                }
            )
        return pd.DataFrame(rows).set_index("method")

    def summary(self, alpha: float | None = None) -> Summary:
        """The report: design, J per model, Delta J, the four estimators, what they cover, warnings.

        ``str(result.summary())`` is the plain text; the :class:`~regression.results.Summary`
        also renders as Markdown and HTML. ``alpha`` defaults to the comparison's own.
        """
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        a, b = self.labels
        design = (
            f"paired test items (n = {self.paired_table.n}, {self.paired_table.n_dropped} dropped)"
            if self.paired_table is not None
            else f"independent test sets (n_A = {self.test_a.n}, n_B = {self.test_b.n})"
        )
        ja, jb = self.delta_j.j_a, self.delta_j.j_b
        dj_low, dj_high = self.delta_j.ci
        judges = pd.DataFrame(
            {
                "J": [ja.estimate, jb.estimate],
                "low": [ja.ci[0], jb.ci[0]],
                "high": [ja.ci[1], jb.ci[1]],
                "m": [self.calibration_a.m, self.calibration_b.m],
            },
            index=pd.Index([a, b], name="model"),
        )
        notes = [
            f"design: {design}; shared calibration = {self.shared_calibration} "
            f"(m = {self.calibration_shared.m}).",
            f"Delta J = {self.delta_j.estimate:+.3f} [{dj_low:+.3f}, {dj_high:+.3f}] "
            f"(bootstrap over calibration items, {1 - self.alpha:.0%}).",
            f"shared - model-specific RG = {self.shared_minus_specific:+.3f} "
            "(plug-in shared-calibration bias, Fiedler App. C).",
            f"{1 - alpha:.0%} intervals: percentile bootstrap (low, high) and delta method.",
        ]
        notes += [f"{est.method} interval covers {est.covers}." for est in self.estimates]
        table = self.to_frame(alpha).drop(columns="covers")
        return Summary(
            f"Comparison Delta theta = theta[{a}] - theta[{b}]",
            {"estimators": table, "judges": judges},
            notes=tuple(notes),
            warnings=tuple(self.warnings),
        )

    def __str__(self) -> str:
        return str(self.summary())
