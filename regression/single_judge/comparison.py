"""Comparing two models through one judge: Delta theta = theta_A - theta_B, shared vs model-specific calibration.

Fiedler, *Bias and Uncertainty in LLM-as-a-Judge Estimation*:

* four estimators side by side (section 6, Table 2): ``naive`` (difference of
  the judge's valid-rates), ``rg-shared`` (Rogan-Gladen with one calibration
  table applied to both models: the judge-centric design of App. A.1),
  ``rg-model-specific`` (each model corrected with its own calibration table)
  and ``ppi++-model-specific`` (PPI++ with each model's own calibration);
* a bootstrap that resamples the test items *paired* (both models on the same
  indices: a multinomial draw on the paired 2 x 2 table) and each calibration
  table separately (App. E.4), 10,000 replicates by default, all estimators on
  the same replicates;
* delta-method standard errors: App. B for shared-calibration RG, Lee et al.
  eq. (15) per model for model-specific RG, the PPI++ CLT variance, each with
  the paired test covariance;
* :func:`shared_calibration_bias`, the asymptotic bias of App. C;
* the diagnostics of section 4.4 (J per model, Delta J with a bootstrap
  interval) and the near-tie warning.

Shared calibration saves labels but is justified only if the judge is equally
good on both models; otherwise the bias of App. C, amplified by 1/J, can flip
the sign of the comparison with high apparent confidence (section 6.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from regression.checks import (
    SeedLike,
    check_alpha,
    check_alternative,
    check_n_boot,
    check_probability,
    plain,
)
from regression.registry import COMPARISON_N_BOOT, SHARED_CALIBRATIONS
from regression.single_judge.bootstrap import (
    BootstrapResult,
    bootstrap_warnings,
    resample_tables,
)
from regression.single_judge.comparison_results import (
    COMPARISON_METHODS,
    DELTA_THETA_LIMITS,
    ComparisonEstimate,
    ModelComparison,
)
from regression.single_judge.diagnostics import (
    LOW_J,
    NEAR_TIE,
    DeltaJResult,
    delta_j_warnings,
    judge_warnings,
    near_tie_warnings,
    small_calibration_warnings,
    youden_j,
)
from regression.single_judge.ppi import ppi_binary_from_counts
from regression.single_judge.rogan_gladen import rg_from_rates
from regression.single_judge.tables import (
    CalibrationTable,
    JudgeCounts,
    PairedJudgeTable,
    as_calibration_table,
    as_judge_counts,
)

__all__ = ["SHARED_CALIBRATIONS", "compare_models", "shared_calibration_bias"]

#: Whose calibration a shared-calibration comparison uses: both models' pooled, A's or B's.


def shared_calibration_bias(theta_a: Any, tpr_a: Any, tnr_a: Any, tpr_b: Any, tnr_b: Any) -> Any:
    """Asymptotic bias of RG for model A when it is corrected with model B's calibration (Fiedler App. C).

    Parameters
    ----------
    theta_a : float or array
        Model A's true accuracy.
    tpr_a, tnr_a : float or array
        The judge's sensitivity q1 and specificity q0 on model A's responses.
    tpr_b, tnr_b : float or array
        The same on model B's responses (the shared calibration).

    Returns
    -------
    float or ndarray
        (theta_A * Delta J - Delta q0) / J_B with Delta J = J_A - J_B and
        Delta q0 = q0_A - q0_B; equivalently theta_A Delta q1 / J_B -
        (1 - theta_A) Delta q0 / J_B. It is also the bias of the shared-
        calibration Delta theta, because theta_B stays unbiased. Broadcasts.

    Raises
    ------
    ValueError
        If an argument lies outside [0, 1], or J_B = tpr_b + tnr_b - 1 <= 0.

    Notes
    -----
    The limit of theta-hat*_RG,A - theta-hat_RG,A as the calibration sets grow
    (App. C): the calibration mismatch is amplified by 1/J_B. Fiedler's worked
    example (Mistral Large judging math): Delta J = -0.119, Delta q0 = -0.060,
    J_Qwen = 0.519, theta_Gemma3 = 0.738 give a bias of about -0.054.

    Examples
    --------
    >>> # App. C's numbers: q0_B = 0.569, J_B = 0.519 -> q1_B = 0.950;
    >>> # q0_A = q0_B - 0.060 = 0.509, J_A = J_B - 0.119 = 0.400 -> q1_A = 0.891.
    >>> round(shared_calibration_bias(0.738, tpr_a=0.891, tnr_a=0.509, tpr_b=0.950, tnr_b=0.569), 3)
    -0.054
    """
    th = check_probability("theta_a", theta_a)
    q1a = check_probability("tpr_a", tpr_a)
    q0a = check_probability("tnr_a", tnr_a)
    q1b = check_probability("tpr_b", tpr_b)
    q0b = check_probability("tnr_b", tnr_b)
    j_b = q1b + q0b - 1
    if np.any(j_b <= 0):
        bad = np.broadcast_to(j_b, np.broadcast(j_b, th).shape).ravel()
        first = bad[np.flatnonzero(bad <= 0)[0]]
        raise ValueError(
            f"J_B = tpr_b + tnr_b - 1 must be positive (the shared calibration must be better "
            f"than chance); got {plain(first)!r}."
        )
    j_a = q1a + q0a - 1
    bias = (th * (j_a - j_b) - (q0a - q0b)) / j_b
    return float(bias) if np.ndim(bias) == 0 else bias


@dataclass(frozen=True, eq=False)
class _TestDesign:
    """The test items of a comparison as count tables: one paired 2 x 2, or two 1 x 2."""

    counts_a: JudgeCounts
    counts_b: JudgeCounts
    paired_table: PairedJudgeTable | None
    tables: tuple[np.ndarray, ...]

    @classmethod
    def from_labels(cls, test_a: Any, test_b: Any, paired: bool) -> _TestDesign:
        if not paired:
            counts_a, counts_b = as_judge_counts(test_a), as_judge_counts(test_b)
            return cls(
                counts_a,
                counts_b,
                None,
                (
                    np.array([counts_a.k, counts_a.n - counts_a.k]),
                    np.array([counts_b.k, counts_b.n - counts_b.k]),
                ),
            )
        if isinstance(test_a, JudgeCounts) or isinstance(test_b, JudgeCounts):
            raise ValueError(
                "paired=True needs item-level labels for both models, not JudgeCounts."
            )
        table = PairedJudgeTable.from_labels(test_a, test_b)
        counts_a, counts_b = table.margins()
        return cls(counts_a, counts_b, table, (table.cells,))

    def valid_counts(
        self, draws: Sequence[np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``k_a, n_a, k_b, n_b`` from (replicates of) :attr:`tables`, leading axis kept."""
        if self.paired_table is not None:
            (t,) = draws  # cells (both, a_only, b_only, neither)
            n = t.sum(axis=-1).astype(float)
            return t[..., 0] + t[..., 1], n, t[..., 0] + t[..., 2], n
        ta, tb = draws
        return ta[..., 0], ta.sum(axis=-1), tb[..., 0], tb.sum(axis=-1)

    @property
    def n_dropped(self) -> int:
        """Test items dropped for a missing judge label."""
        if self.paired_table is not None:
            return self.paired_table.n_dropped
        return self.counts_a.n_dropped + self.counts_b.n_dropped


def _cells_rates(cells: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """TPR, TNR, m1, m0 from ``(..., 4)`` calibration cells; NaN rates where a class is empty."""
    tp, fn, fp, tn = (cells[..., i].astype(float) for i in range(4))
    m1, m0 = tp + fn, fp + tn
    tpr = np.divide(tp, m1, out=np.full(tp.shape, np.nan), where=m1 > 0)
    tnr = np.divide(tn, m0, out=np.full(tn.shape, np.nan), where=m0 > 0)
    return tpr, tnr, m1, m0


def _estimators(
    k_a: np.ndarray,
    n_a: np.ndarray,
    k_b: np.ndarray,
    n_b: np.ndarray,
    cal_a: np.ndarray,
    cal_b: np.ndarray,
    shared: str,
) -> dict[str, np.ndarray]:
    """All four Delta theta estimators (and Delta J), vectorised over a leading replicate axis."""
    p_a, p_b = k_a / n_a, k_b / n_b
    cal_s = {"pooled": cal_a + cal_b, "a": cal_a, "b": cal_b}[shared]
    tpr_a, tnr_a, _, _ = _cells_rates(cal_a)
    tpr_b, tnr_b, _, _ = _cells_rates(cal_b)
    tpr_s, tnr_s, _, _ = _cells_rates(cal_s)
    ppi_a = ppi_binary_from_counts(
        cal_a[..., 0], cal_a[..., 1], cal_a[..., 2], cal_a[..., 3], k_a, n_a
    )[0]
    ppi_b = ppi_binary_from_counts(
        cal_b[..., 0], cal_b[..., 1], cal_b[..., 2], cal_b[..., 3], k_b, n_b
    )[0]
    return {
        "naive": p_a - p_b,
        "rg-shared": rg_from_rates(p_a, tpr_s, tnr_s) - rg_from_rates(p_b, tpr_s, tnr_s),
        "rg-model-specific": rg_from_rates(p_a, tpr_a, tnr_a) - rg_from_rates(p_b, tpr_b, tnr_b),
        "ppi++-model-specific": ppi_a - ppi_b,
        "delta_j": (tpr_a + tnr_a) - (tpr_b + tnr_b),
    }


def _rg_cal_var(theta: float, table: CalibrationTable) -> float:
    """Calibration part of Lee eq. (15), divided by J^2."""
    q0, q1, j = table.tnr, table.tpr, table.youden_j
    return float(
        ((1 - theta) ** 2 * q0 * (1 - q0) / table.n_neg + theta**2 * q1 * (1 - q1) / table.n_pos)
        / j**2
    )


def _delta_method_ses(
    design: _TestDesign, cal_a: CalibrationTable, cal_b: CalibrationTable, cal_s: CalibrationTable
) -> dict[str, float]:
    """Delta-method SE of every estimator: App. B, Lee eq. (15) per model, the PPI++ CLT."""
    test_a, test_b, paired = design.counts_a, design.counts_b, design.paired_table
    p_a, p_b = test_a.p_hat, test_b.p_hat
    var_a, var_b = p_a * (1 - p_a), p_b * (1 - p_b)
    # Covariance of the two judge labels on the same item (0 for independent test sets).
    if paired is not None:
        n = paired.n
        cov = paired.both / n - p_a * p_b
        n_a = n_b = n
    else:
        cov, n, n_a, n_b = 0.0, 1, test_a.n, test_b.n
    out = {"naive": np.sqrt(var_a / n_a + var_b / n_b - 2 * cov / n)}

    j_s = cal_s.youden_j
    if j_s > 0:  # Fiedler App. B
        test_term = (var_a / n_a + var_b / n_b - 2 * cov / n) / j_s**2
        cal_term = (
            (p_a - p_b) ** 2
            * (
                cal_s.tnr * (1 - cal_s.tnr) / cal_s.n_neg
                + cal_s.tpr * (1 - cal_s.tpr) / cal_s.n_pos
            )
            / j_s**4
        )
        out["rg-shared"] = np.sqrt(test_term + cal_term)
    else:
        out["rg-shared"] = np.nan

    j_a, j_b = cal_a.youden_j, cal_b.youden_j
    if j_a > 0 and j_b > 0:  # Lee eq. (15) per model, plus the paired test covariance
        th_a = (p_a + cal_a.tnr - 1) / j_a
        th_b = (p_b + cal_b.tnr - 1) / j_b
        test_term = var_a / (n_a * j_a**2) + var_b / (n_b * j_b**2) - 2 * cov / (n * j_a * j_b)
        out["rg-model-specific"] = np.sqrt(
            test_term + _rg_cal_var(th_a, cal_a) + _rg_cal_var(th_b, cal_b)
        )
    else:
        out["rg-model-specific"] = np.nan

    _, se_a, lam_a = ppi_binary_from_counts(
        cal_a.tp, cal_a.fn, cal_a.fp, cal_a.tn, test_a.k, test_a.n
    )
    _, se_b, lam_b = ppi_binary_from_counts(
        cal_b.tp, cal_b.fn, cal_b.fp, cal_b.tn, test_b.k, test_b.n
    )
    out["ppi++-model-specific"] = np.sqrt(
        float(se_a) ** 2 + float(se_b) ** 2 - 2 * float(lam_a) * float(lam_b) * cov / n
    )
    return {k: float(v) for k, v in out.items()}


def _covers(paired: bool, shared: str) -> dict[str, str]:
    test = "test items resampled in pairs" if paired else "each test set resampled"
    return {
        "naive": f"{test}; ignores judge error (targets p_A - p_B, not Delta theta)",
        "rg-shared": (
            f"{test} and the shared ({shared}) calibration table; assumes equal TPR/TNR on "
            "both models, biased by App. C otherwise"
        ),
        "rg-model-specific": f"{test} and each model's calibration table separately",
        "ppi++-model-specific": (
            f"{test} and each model's calibration table separately; assumes calibration "
            "items drawn like test items"
        ),
    }


def _point_and_replicates(
    design: _TestDesign,
    cal_a: CalibrationTable,
    cal_b: CalibrationTable,
    shared: str,
    n_boot: int,
    seed: SeedLike,
) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Every estimator on the observed tables (length 1) and on ``n_boot`` shared redraws.

    Each replicate redraws the test table(s) and each calibration table on its
    own (Fiedler App. E.4), so all estimators and Delta J see the same replicates.
    """
    observed = [t[np.newaxis] for t in design.tables]
    point = _estimators(
        *design.valid_counts(observed), cal_a.cells[np.newaxis], cal_b.cells[np.newaxis], shared
    )
    draws = resample_tables([*design.tables, cal_a.cells, cal_b.cells], n_boot, seed)
    reps = _estimators(*design.valid_counts(draws[:-2]), draws[-2], draws[-1], shared)
    return point, reps


def _comparison_warnings(
    estimates: tuple[ComparisonEstimate, ...],
    delta_j: DeltaJResult,
    design: _TestDesign,
    cal_a: CalibrationTable,
    cal_b: CalibrationTable,
    labels: tuple[str, str],
    low_j: float,
    near_tie: float,
) -> list[str]:
    """J per model, Delta J, near tie, small calibration, dropped items, the bootstrap's own."""
    a, b = labels
    notes = judge_warnings(delta_j.j_a, low_j=low_j, label=f"judge on {a}")
    notes += judge_warnings(delta_j.j_b, low_j=low_j, label=f"judge on {b}")
    notes += delta_j_warnings(delta_j, labels=labels)
    notes += near_tie_warnings(
        {e.method: e.estimate for e in estimates},
        near_tie=near_tie,
        reference="ppi++-model-specific",
    )
    notes += small_calibration_warnings(cal_a, label=f"on {a}")
    notes += small_calibration_warnings(cal_b, label=f"on {b}")
    if design.n_dropped:
        notes.append(f"{design.n_dropped:,} test item(s) with a missing judge label were dropped.")
    for est in estimates:
        if est.bootstrap.n_invalid:
            notes.append(
                f"{est.method}: {est.bootstrap.n_invalid:,} of {est.bootstrap.n_boot:,} bootstrap "
                "replicates undefined (J <= 0 or an empty class); they widen its interval."
            )
    boots = {e.method: e.bootstrap for e in estimates}
    notes += bootstrap_warnings({**boots, "Delta J": delta_j.bootstrap})
    return notes


def compare_models(
    test_a: Any,
    test_b: Any,
    calibration_a: Any,
    calibration_b: Any,
    alpha: float = 0.05,
    *,
    paired: bool = True,
    shared_calibration: str = SHARED_CALIBRATIONS[0],
    n_boot: int = COMPARISON_N_BOOT,
    seed: SeedLike = None,
    alternative: str = "two-sided",
    labels: tuple[str, str] = ("A", "B"),
    low_j: float = LOW_J,
    near_tie: float = NEAR_TIE,
) -> ModelComparison:
    """Estimate Delta theta = theta_A - theta_B with naive, shared RG, model-specific RG and PPI++.

    Parameters
    ----------
    test_a, test_b : judge labels (array / Series / DataFrame with ``judge``) or JudgeCounts
        The judge's labels on model A's and model B's test responses. With
        ``paired=True`` they are aligned item by item (same length; a pair with
        a missing label is dropped and counted).
    calibration_a, calibration_b : CalibrationTable, DataFrame or (human, judge) pair
        The judge's calibration data on A's and on B's responses.
    alpha : float
        1 - confidence level.
    paired : bool, keyword-only
        Whether the two test sets are the same items (resampled together).
    shared_calibration : {'pooled', 'a', 'b'}, keyword-only
        The table ``rg-shared`` applies to both models: both tables pooled
        (default), or only A's / only B's (Fiedler App. E.3 uses the
        incumbent's: ``'b'``).
    n_boot : int, keyword-only
        Bootstrap replicates (default 10,000, Fiedler App. E.4).
    seed : int, Generator, RandomState or None, keyword-only
    alternative : {'two-sided', 'less', 'greater'}, keyword-only
    labels : (str, str), keyword-only
        Names of A and B in the report.
    low_j, near_tie : float, keyword-only
        Warning thresholds (:data:`regression.single_judge.diagnostics.LOW_J`, ``NEAR_TIE``).

    Returns
    -------
    ModelComparison

    Raises
    ------
    ValueError
        Bad labels, mismatched paired lengths, an empty calibration class, an
        unknown ``shared_calibration`` / ``alternative``, bad ``alpha`` / ``n_boot``.

    Notes
    -----
    Bootstrap (Fiedler App. E.4): each replicate redraws the paired test table
    (or each test set) and each calibration table independently, by
    multinomial draws on the counts; all four estimators and Delta J are
    computed on the same replicates; replicates where an estimator is
    undefined (J <= 0 or an empty class) are NaN and count against its
    interval (``bootstrap.n_invalid``; see
    :func:`~regression.single_judge.bootstrap.percentile_interval`). The
    plug-in estimate is reported; the bootstrap median is in ``to_frame()``.
    Fewer than 1,000 replicates, or an interval that misses its own estimate,
    add a warning (:func:`~regression.single_judge.bootstrap.bootstrap_warnings`).
    Delta-method SEs: App. B (shared RG), Lee eq. (15) per model
    (model-specific RG), the PPI++ CLT variance; paired designs subtract the
    test covariance of the two judge labels.

    Examples
    --------
    >>> from regression.single_judge import CalibrationTable
    >>> res = compare_models(
    ...     [1] * 70 + [0] * 30, [1] * 60 + [0] * 40,
    ...     CalibrationTable(tp=40, fn=10, fp=15, tn=35),
    ...     CalibrationTable(tp=45, fn=5, fp=10, tn=40),
    ...     paired=False, n_boot=2000, seed=0,
    ... )
    >>> round(res["naive"].estimate, 3), round(res["rg-model-specific"].estimate, 3)
    (0.1, 0.229)
    """
    alpha = check_alpha(alpha)
    check_alternative(alternative)
    n_boot = check_n_boot(n_boot)
    if shared_calibration not in SHARED_CALIBRATIONS:
        raise ValueError(
            f"shared_calibration ({shared_calibration!r}) not recognized; must be 'pooled', "
            "'a' or 'b'."
        )
    cal_a = as_calibration_table(calibration_a)
    cal_b = as_calibration_table(calibration_b)
    cal_a.require_both_classes("compare_models (model A's calibration)")
    cal_b.require_both_classes("compare_models (model B's calibration)")
    cal_s = {"pooled": cal_a + cal_b, "a": cal_a, "b": cal_b}[shared_calibration]
    design = _TestDesign.from_labels(test_a, test_b, paired)
    point, reps = _point_and_replicates(design, cal_a, cal_b, shared_calibration, n_boot, seed)
    ses = _delta_method_ses(design, cal_a, cal_b, cal_s)
    covers = _covers(paired, shared_calibration)

    def boot(name: str, limits: tuple[float, float]) -> BootstrapResult:
        return BootstrapResult(float(point[name][0]), reps[name], alpha, alternative, limits)

    estimates = tuple(
        ComparisonEstimate(m, float(point[m][0]), ses[m], boot(m, DELTA_THETA_LIMITS), covers[m])
        for m in COMPARISON_METHODS
    )
    delta_j = DeltaJResult(
        float(point["delta_j"][0]),
        youden_j(cal_a, alpha),
        youden_j(cal_b, alpha),
        boot("delta_j", (-2.0, 2.0)),
    )
    notes = _comparison_warnings(estimates, delta_j, design, cal_a, cal_b, labels, low_j, near_tie)
    return ModelComparison(
        estimates,
        delta_j,
        youden_j(cal_s, alpha),
        design.counts_a,
        design.counts_b,
        design.paired_table,
        cal_a,
        cal_b,
        cal_s,
        shared_calibration,
        labels,
        alpha,
        tuple(notes),
    )
